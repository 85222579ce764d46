/*
 * fuzz_ckpt — checkpoint metadata readers. At start-up a small checkpoint is
 * saved to a temporary directory (two arrays from a 2x2 mesh, zstd). Each
 * input replaces one of its files: byte 0 picks the file (modulo the table
 * below), the rest is the file's new content. Then the checkpoint is opened
 * (every array's facts and saved sharding), verified and restored (one
 * array into a given sharding, one into its saved one), and the file is put
 * back as it was (or removed, when the format has no such file).
 */
#include "fuzz.h"

#include <ftw.h>
#include <stdio.h>
#include <unistd.h>

static const char *const files[] = {
    "1/_CHECKPOINT_METADATA",
    "1/default/_METADATA",
    "1/default/_sharding",
    "1/default/array_metadatas/process_0",
    "1/default/params.w/.zarray",
    "1/default/params.b/.zarray",
    "1/default/params.w/0.0",
    "1/commit_success.txt",
};
#define NFILES (sizeof files / sizeof files[0])

static char dir[64];
static char *orig[NFILES];
static size_t orig_len[NFILES];
static ss_context *ctx;
static ss_mesh *mesh;

static char *path_of(size_t i)
{
    static char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, files[i]);
    return p;
}

static int write_file(const char *p, const void *data, size_t n)
{
    FILE *f = fopen(p, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(data, 1, n, f);
    return fclose(f) == 0 && w == n ? 0 : -1;
}

static char *read_file(const char *p, size_t *n)
{
    FILE *f = fopen(p, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 20);
    *n = fread(buf, 1, 1 << 20, f);
    fclose(f);
    return buf;
}

static void save_template(void)
{
    ss_context_options o = {.ndevices = 4, .device_memory = 64 << 20, .threads = 1};
    ss_spec rows, none;
    if (ss_context_create(&o, &ctx) != SS_OK || ss_mesh_make("a=2,b=2", 4, NULL, &mesh) != SS_OK ||
        ss_spec_parse("P('a', 'b')", &rows) != SS_OK || ss_spec_parse("P()", &none) != SS_OK)
        abort();
    static float w[64 * 32], b[32];
    for (int i = 0; i < 64 * 32; i++)
        w[i] = (float)i * 0.5f;
    for (int i = 0; i < 32; i++)
        b[i] = (float)-i;
    ss_sharding shw, shb;
    ss_sharding_init(&shw, mesh, &rows);
    ss_sharding_init(&shb, mesh, &none);
    ss_array *arrays[2];
    const int64_t wshape[2] = {64, 32}, bshape[1] = {32};
    const char *names[2] = {"params.w", "params.b"};
    if (ss_array_put(ctx, &shw, 2, wshape, SS_F32, w, "w", &arrays[0]) != SS_OK ||
        ss_array_put(ctx, &shb, 1, bshape, SS_F32, b, "b", &arrays[1]) != SS_OK ||
        ss_ckpt_save(ctx, dir, 1, 2, names, arrays, NULL, NULL) != SS_OK) {
        fprintf(stderr, "fuzz_ckpt: cannot save the template: %s\n", ss_error_message());
        abort();
    }
    ss_array_destroy(arrays[0]);
    ss_array_destroy(arrays[1]);
}

static int remove_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static void remove_dir(void) { nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS); }

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/ss-fuzz-ckpt-XXXXXX", tmp && strlen(tmp) < 32 ? tmp : "/tmp");
    if (!mkdtemp(dir))
        abort();
    atexit(remove_dir);
    save_template();
    for (size_t i = 0; i < NFILES; i++) {
        orig[i] = read_file(path_of(i), &orig_len[i]); /* NULL: not in the format */
    }
    return 0;
}

static void exercise(void)
{
    ss_ckpt *ck;
    if (ss_ckpt_open(dir, -1, NULL, &ck) == SS_OK) {
        for (int i = 0; i < ss_ckpt_array_count(ck); i++) {
            ss_ckpt_array_desc d;
            ss_ckpt_array_info(ck, i, &d);
            ss_mesh *m = NULL;
            ss_sharding sh;
            if (ss_ckpt_saved_sharding(ck, i, 4, &m, &sh) == SS_OK) {
                char repr[1024];
                ss_sharding_repr(&sh, repr, sizeof repr);
            }
            ss_mesh_destroy(m);
        }
        ss_ckpt_close(ck);
    }
    int problems;
    ss_ckpt_verify(dir, -1, NULL, NULL, &problems);
    ss_spec cols;
    ss_spec_parse("P(None, 'a')", &cols);
    ss_ckpt_target t[2] = {{.name = "params.w", .dtype = SS_BF16, .rank = 2, .shape = {64, 32}},
                           {.name = "params.b", .dtype = SS_F32, .rank = 1, .shape = {32}}};
    ss_sharding_init(&t[0].sharding, mesh, &cols);
    ss_ckpt_restore_options ro = {.partial = 1};
    ss_ckpt_state *state;
    if (ss_ckpt_restore(ctx, dir, -1, 2, t, &ro, &state, NULL) == SS_OK)
        ss_ckpt_state_destroy(state);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t i = data[0] % NFILES;
    if (write_file(path_of(i), data + 1, size - 1) != 0)
        abort();
    exercise();
    if (orig[i] ? write_file(path_of(i), orig[i], orig_len[i]) != 0 : unlink(path_of(i)) != 0)
        abort();
    return 0;
}
