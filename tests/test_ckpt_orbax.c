/*
 * test_ckpt_orbax.c — checkpoints written by orbax-checkpoint itself
 * (tests/data/orbax, from tests/jax/make_orbax_fixtures.py: OCDBT with zarr
 * arrays and zstd chunks, saved on a 2x4 mesh of 8 CPU devices) restored by
 * shardsim, compared bit for bit with the values orbax restores
 * (expected/NAME.bin); on the saved mesh, on another mesh and on one
 * device; and damaged copies that must give one-line errors.
 */
#include "ckpt_check.h"

#include <stdint.h>

TestSuite(ckpt_orbax, .fini = rm_tmp);

static ss_status restore_noise(ss_context *ctx, const char *dir);
static void copy_tree(const char *from, const char *to);
static void expect_one_line_error(ss_status st, const char *needle);

typedef struct leaf {
    char name[128];
    ss_dtype dtype;
    int rank;
    int64_t shape[SS_MAX_RANK];
} leaf;

static int load_index(leaf out[], int cap)
{
    cJSON *j = ts_load_json("orbax/expected/index.json");
    int n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, j)
    {
        cr_assert_lt(n, cap);
        leaf *l = &out[n++];
        snprintf(l->name, sizeof l->name, "%s",
                 cJSON_GetObjectItemCaseSensitive(e, "name")->valuestring);
        TS_OK(ss_dtype_parse(cJSON_GetObjectItemCaseSensitive(e, "dtype")->valuestring,
                             &l->dtype));
        l->rank = ts_ints(cJSON_GetObjectItemCaseSensitive(e, "shape"), l->shape, SS_MAX_RANK);
    }
    cJSON_Delete(j);
    cr_assert_gt(n, 10, "index.json lists %d arrays", n);
    return n;
}

static char *data_path(const char *rel)
{
    static char buf[4][1024];
    static int k;
    char *p = buf[k++ & 3];
    const char *root = getenv("SS_TEST_DATA");
    cr_assert(root != NULL, "SS_TEST_DATA is not set");
    snprintf(p, 1024, "%s/%s", root, rel);
    return p;
}

/* The array equals orbax's restore of it, bit for bit. */
static void expect_orbax_values(const ss_array *a, const leaf *l)
{
    char rel[256];
    snprintf(rel, sizeof rel, "orbax/expected/%s.bin", l->name);
    char *want = ts_read_data(rel);
    size_t bytes = (size_t)numel(l->rank, l->shape) * ss_dtype_size(l->dtype);
    void *got = malloc(bytes + 1);
    TS_OK(ss_array_get(a, got, bytes));
    cr_assert(memcmp(got, want, bytes) == 0, "%s: values differ from orbax's", l->name);
    free(got);
    free(want);
}

/* A spec for the mesh ('x': 4, 'y': 2) that differs from the saved one. */
static const char *other_spec(const leaf *l)
{
    if (l->rank == 2 && l->shape[0] % 2 == 0 && l->shape[1] % 4 == 0)
        return "P('y', 'x')";
    if (l->rank == 2 && l->shape[0] % 4 == 0)
        return "P('x', None)";
    if (l->rank == 1 && l->shape[0] % 2 == 0)
        return "P('y')";
    return "P()";
}

/* Restore every leaf of `dir` (no sharding: the saved one; else the mesh
 * given and other_spec) and compare with orbax's values. */
static void restore_all(const char *dir, ss_context *ctx, const ss_mesh *m)
{
    leaf l[64];
    int n = load_index(l, 64);
    ss_ckpt_target t[64];
    ss_sharding sh[64];
    for (int i = 0; i < n; i++) {
        if (m)
            sh[i] = sharding(m, other_spec(&l[i]));
        t[i] = target(l[i].name, l[i].dtype, l[i].rank, l[i].shape, m ? &sh[i] : NULL);
    }
    ss_ckpt_state *s;
    ss_ckpt_stats st;
    cr_assert_eq(ss_ckpt_restore(ctx, dir, -1, n, t, NULL, &s, &st), SS_OK, "%s",
                 ss_error_message());
    for (int i = 0; i < n; i++)
        expect_orbax_values(ss_ckpt_state_array(s, i), &l[i]);
    ss_ckpt_state_destroy(s);
}

Test(ckpt_orbax, standard_checkpointer_restores_into_the_saved_2x4_sharding)
{
    ss_context *ctx = make_ctx(8, 0);
    restore_all(data_path("orbax/train_state"), ctx, NULL);
    ss_context_destroy(ctx);
}

Test(ckpt_orbax, standard_checkpointer_restores_into_another_mesh_and_spec)
{
    ss_context *ctx = make_ctx(8, 0);
    ss_mesh *m = mesh("x=4,y=2", 8);
    restore_all(data_path("orbax/train_state"), ctx, m);
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
}

Test(ckpt_orbax, checkpoint_manager_step_restores_on_one_device)
{
    ss_context *ctx = make_ctx(1, 0);
    ss_mesh *m = mesh("x=1,y=1", 1);
    restore_all(data_path("orbax/manager"), ctx, m);
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
}

Test(ckpt_orbax, zarr3_in_ocdbt_restores_into_another_mesh)
{
    ss_context *ctx = make_ctx(8, 0);
    ss_mesh *m = mesh("x=4,y=2", 8);
    restore_all(data_path("orbax/zarr3"), ctx, m);
    restore_all(data_path("orbax/zarr3"), ctx, NULL);
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
}

Test(ckpt_orbax, zarr3_and_zarr2_files_without_ocdbt_restore)
{
    ss_context *ctx = make_ctx(8, 0);
    ss_mesh *m = mesh("x=4,y=2", 8);
    restore_all(data_path("orbax/zarr3_files"), ctx, m);
    restore_all(data_path("orbax/zarr2_files"), ctx, m);
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
}

Test(ckpt_orbax, a_damaged_zarr3_shard_index_is_an_error)
{
    make_tmp();
    char *dir = path_of("%s", "ck");
    copy_tree(data_path("orbax/zarr3_files"), dir);
    const char *shard = path_of("%s", "ck/extra.noise/c/1/3");
    struct stat sb;
    cr_assert_eq(stat(shard, &sb), 0);
    flip_byte(shard, sb.st_size - 12); /* inside the 16-byte index */
    ss_context *ctx = make_ctx(8, 0);
    expect_one_line_error(restore_noise(ctx, dir), "shard index CRC32C mismatch");
    cr_assert_eq(truncate(shard, 10), 0);
    expect_one_line_error(restore_noise(ctx, dir), "truncated");
    ss_context_destroy(ctx);
}

Test(ckpt_orbax, listing_and_verify_see_the_orbax_layout)
{
    ss_ckpt *ck;
    TS_OK(ss_ckpt_open(data_path("orbax/train_state"), -1, NULL, &ck));
    leaf l[64];
    int n = load_index(l, 64);
    cr_assert_eq(ss_ckpt_array_count(ck), n);
    int noise = ss_ckpt_array_find(ck, "extra.noise");
    cr_assert_geq(noise, 0);
    ss_ckpt_array_desc d;
    TS_OK(ss_ckpt_array_info(ck, noise, &d));
    cr_assert_eq(d.compression, SS_CKPT_ZSTD);
    cr_assert_eq(d.chunks_missing, 0);
    cr_assert_eq(d.nchunks, 8);
    cr_assert_eq(d.saved, SS_CKPT_SHARDING_NAMED);
    ss_ckpt_close(ck);
    /* The directory is one checkpoint: listed as step 0, and only step 0. */
    ss_ckpt_entry e[2];
    int ne = 0;
    TS_OK(ss_ckpt_list(data_path("orbax/train_state"), e, 2, &ne));
    cr_assert_eq(ne, 1);
    cr_assert_eq(e[0].step, 0);
    cr_assert_eq(e[0].state, SS_CKPT_COMMITTED);
    cr_assert_eq(ss_ckpt_open(data_path("orbax/train_state"), 1, NULL, &ck), SS_ERR_INVALID);
    int problems = -1;
    TS_OK(ss_ckpt_verify(data_path("orbax/train_state"), -1, NULL, NULL, &problems));
    cr_assert_eq(problems, 0);
    TS_OK(ss_ckpt_verify(data_path("orbax/manager"), -1, NULL, NULL, &problems));
    cr_assert_eq(problems, 0);
}

/* ---- damaged copies ------------------------------------------------------ */

static void copy_tree(const char *from, const char *to)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cp -r '%s' '%s'", from, to);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
}

/* The largest file under dir/ocdbt.process_0/d (it holds noise's chunks). */
static void largest_data_file(const char *dir, char *out, size_t cap)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "ls -S '%s'/ocdbt.process_0/d | head -1", dir);
    FILE *p = popen(cmd, "r");
    char name[256] = "";
    cr_assert(p && fgets(name, sizeof name, p), "no data files in %s", dir);
    pclose(p);
    name[strcspn(name, "\n")] = '\0';
    snprintf(out, cap, "%s/ocdbt.process_0/d/%s", dir, name);
}

static void expect_one_line_error(ss_status st, const char *needle)
{
    cr_assert_neq(st, SS_OK, "a damaged checkpoint restored");
    const char *msg = ss_error_message();
    cr_assert(strchr(msg, '\n') == NULL, "not one line: %s", msg);
    cr_assert(strstr(msg, needle) != NULL, "'%s' not in: %s", needle, msg);
}

static ss_status restore_noise(ss_context *ctx, const char *dir)
{
    const int64_t shape[2] = {64, 64};
    ss_ckpt_target t = target("extra.noise", SS_F32, 2, shape, NULL);
    ss_ckpt_restore_options o = {.partial = 1};
    ss_ckpt_state *s = NULL;
    ss_status st = ss_ckpt_restore(ctx, dir, -1, 1, &t, &o, &s, NULL);
    ss_ckpt_state_destroy(s);
    return st;
}

Test(ckpt_orbax, a_flipped_manifest_byte_is_a_crc32c_error)
{
    make_tmp();
    char *dir = path_of("%s", "ck");
    copy_tree(data_path("orbax/train_state"), dir);
    flip_byte(path_of("%s", "ck/manifest.ocdbt"), 20);
    ss_ckpt *ck = NULL;
    expect_one_line_error(ss_ckpt_open(dir, -1, NULL, &ck), "CRC32C mismatch");
    cr_assert_null(ck);
}

Test(ckpt_orbax, a_truncated_manifest_is_an_error)
{
    make_tmp();
    char *dir = path_of("%s", "ck");
    copy_tree(data_path("orbax/train_state"), dir);
    cr_assert_eq(truncate(path_of("%s", "ck/manifest.ocdbt"), 30), 0);
    ss_ckpt *ck = NULL;
    expect_one_line_error(ss_ckpt_open(dir, -1, NULL, &ck), "truncated");
}

Test(ckpt_orbax, a_truncated_data_file_is_an_error_naming_the_chunk)
{
    make_tmp();
    char *dir = path_of("%s", "ck");
    copy_tree(data_path("orbax/train_state"), dir);
    char file[1400];
    largest_data_file(dir, file, sizeof file);
    struct stat sb;
    cr_assert_eq(stat(file, &sb), 0);
    cr_assert_eq(truncate(file, sb.st_size / 2), 0);
    ss_context *ctx = make_ctx(8, 0);
    ss_ckpt *ck = NULL;
    ss_status st = ss_ckpt_open(dir, -1, NULL, &ck);
    if (st == SS_OK) { /* the file held values only: the restore finds it */
        ss_ckpt_close(ck);
        expect_one_line_error(restore_noise(ctx, dir), "truncated");
    } else {
        expect_one_line_error(st, "truncated");
    }
    ss_context_destroy(ctx);
}

Test(ckpt_orbax, a_damaged_value_is_a_zstd_error_and_a_missing_file_names_itself)
{
    make_tmp();
    char *dir = path_of("%s", "ck");
    copy_tree(data_path("orbax/train_state"), dir);
    char file[1400];
    largest_data_file(dir, file, sizeof file);
    struct stat sb;
    cr_assert_eq(stat(file, &sb), 0);
    for (long off = 0; off < sb.st_size; off += 97)
        flip_byte(file, off);
    ss_context *ctx = make_ctx(8, 0);
    ss_ckpt *ck = NULL;
    ss_status st = ss_ckpt_open(dir, -1, NULL, &ck);
    if (st == SS_OK) {
        ss_ckpt_close(ck);
        st = restore_noise(ctx, dir);
        cr_assert_neq(st, SS_OK);
        cr_assert(strchr(ss_error_message(), '\n') == NULL);
    }
    cr_assert_eq(remove(file), 0);
    st = ss_ckpt_open(dir, -1, NULL, &ck);
    if (st == SS_OK) {
        ss_ckpt_close(ck);
        expect_one_line_error(restore_noise(ctx, dir), "missing");
    } else {
        expect_one_line_error(st, "missing");
    }
    ss_context_destroy(ctx);
}

/* ---- shardsim writing OCDBT ------------------------------------------------ */

Test(ckpt_orbax, ocdbt_save_round_trips_into_another_mesh_with_checksums)
{
    make_tmp();
    ss_context *ctx = make_ctx(8, 0);
    ss_mesh *m24 = mesh("a=2,b=4", 8), *m222 = mesh("x=2,y=2,z=2", 8);
    ss_sharding s24 = sharding(m24, "P('a', 'b')"), s1 = sharding(m24, "P('b')");
    const int64_t wshape[2] = {64, 64}, bshape[1] = {8};
    ss_array *a[2] = {put(ctx, &s24, SS_F32, 2, wshape, 3), put(ctx, &s1, SS_BF16, 1, bshape, 5)};
    const char *names[2] = {"params.w", "params.b"};
    /* Uncompressed: params.w's 2 KiB chunks go out of line, into the data
     * file, ahead of the B+tree node. */
    ss_ckpt_save_options o = {.ocdbt = 1, .compression = SS_CKPT_UNCOMPRESSED};
    TS_OK(ss_ckpt_save(ctx, tmp_root, 1, 2, names, a, &o, NULL));
    cr_assert(access(path_of("%s", "1/default/manifest.ocdbt"), F_OK) == 0);
    cr_assert(access(path_of("%s", "1/default/params.w"), F_OK) != 0, "array dirs remain");
    ss_sharding t24 = sharding(m222, "P(('y', 'z'), 'x')"), t1 = sharding(m222, "P('z')");
    ss_ckpt_target t[2] = {target("params.w", SS_F32, 2, wshape, &t24),
                           target("params.b", SS_BF16, 1, bshape, &t1)};
    ss_ckpt_state *s;
    TS_OK(ss_ckpt_restore(ctx, tmp_root, 1, 2, t, NULL, &s, NULL));
    expect_pattern(ss_ckpt_state_array(s, 0), 3);
    expect_pattern(ss_ckpt_state_array(s, 1), 5);
    ss_ckpt_state_destroy(s);
    int problems = -1;
    TS_OK(ss_ckpt_verify(tmp_root, 1, NULL, NULL, &problems));
    cr_assert_eq(problems, 0);
    /* A flipped byte inside a chunk in the data file: its recorded CRC32C
     * catches it. */
    char file[1400];
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "ls %s/1/default/d", tmp_root);
    FILE *p = popen(cmd, "r");
    char name[256] = "";
    cr_assert(p && fgets(name, sizeof name, p));
    pclose(p);
    name[strcspn(name, "\n")] = '\0';
    snprintf(file, sizeof file, "%s/1/default/d/%s", tmp_root, name);
    flip_byte(file, 40);
    ss_status st = ss_ckpt_restore(ctx, tmp_root, 1, 2, t, NULL, &s, NULL);
    expect_one_line_error(st, "chunk 0.0: CRC32C mismatch");
    for (int i = 0; i < 2; i++)
        ss_array_destroy(a[i]);
    ss_mesh_destroy(m24);
    ss_mesh_destroy(m222);
    ss_context_destroy(ctx);
}

/* ---- the scenario language on an Orbax directory ---------------------------- */

Test(ckpt_orbax, a_scenario_restores_an_orbax_directory_into_its_declared_sharding)
{
    make_tmp();
    char scen[1024], cmd[1400];
    snprintf(scen, sizeof scen, "%s/r.shard", tmp_root);
    FILE *f = fopen(scen, "w");
    cr_assert(f != NULL);
    fprintf(f, "CKPT = '%s'\n"
               "mesh a=2 b=4\n"
               "k = param(f32[16, 32], P('b', 'a'), zeros, path='state/params/Dense_0/kernel')\n"
               "n = param(f32[64, 64], P(None, ('a', 'b')), zeros, path='extra/noise')\n"
               "restore CKPT step=0 partial\n"
               "save '%s/out' step=0\n",
            data_path("orbax/train_state"), tmp_root);
    fclose(f);
    snprintf(cmd, sizeof cmd, "run '%s'", scen);
    char *out = NULL, *err = NULL;
    int rc = ts_run_cli(cmd, &out, &err);
    cr_assert_eq(rc, 0, "%s%s", out, err);
    free(out);
    free(err);
    /* What the scenario saved after its restore is orbax's values. */
    leaf l[64];
    int n = load_index(l, 64);
    ss_context *ctx = make_ctx(8, 0);
    for (int i = 0; i < n; i++) {
        const char *as = strcmp(l[i].name, "state.params.Dense_0.kernel") == 0 ? "k"
                         : strcmp(l[i].name, "extra.noise") == 0                ? "n"
                                                                                : NULL;
        if (!as)
            continue;
        ss_ckpt_target t = target(l[i].name, l[i].dtype, l[i].rank, l[i].shape, NULL);
        ss_ckpt_restore_options o = {.partial = 1};
        ss_ckpt_state *s;
        cr_assert_eq(ss_ckpt_restore(ctx, path_of("%s", "out"), 0, 1, &t, &o, &s, NULL), SS_OK,
                     "%s", ss_error_message());
        expect_orbax_values(ss_ckpt_state_array(s, 0), &l[i]);
        ss_ckpt_state_destroy(s);
    }
    ss_context_destroy(ctx);
}
