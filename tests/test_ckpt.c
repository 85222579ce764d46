/* test_ckpt.c — checkpoints: Orbax's layout byte for byte, round trips
 * across meshes, per-device peak and bytes read during a restore, dtype
 * casts, partial restore, the saved sharding when the target has none
 * (and Orbax's topology error when it does not fit), the seed's restore
 * (flax#5110), the manager and the CLI. Faults and zarr-python interop are
 * in test_ckpt_faults.c. Every test works in its own directory under /tmp
 * and removes it. */
#include "ckpt_check.h"

#include <stdbool.h>

/* Internal on purpose: the table-driven CRC-32C is checked against the
 * public (hardware when available) one. */
#include "ckpt/ckpt_internal.h"

/* A failing test still removes its directory. */
TestSuite(ckpt, .fini = rm_tmp);

/* --- CRC32C ------------------------------------------------------------------- */

Test(ckpt, crc32c_known_value_and_both_implementations_agree)
{
    cr_assert_eq(ss_crc32c(0, "123456789", 9), 0xE3069283u);
    cr_assert_eq(ss__ck_crc32c_table(0, "123456789", 9), 0xE3069283u);
    unsigned char buf[1000];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)(i * 31 + 7);
    for (size_t n = 0; n < sizeof buf; n += 37) {
        uint32_t a = ss_crc32c(0, buf + 3, n - (n ? 3 : 0));
        uint32_t b = ss__ck_crc32c_table(0, buf + 3, n - (n ? 3 : 0));
        cr_assert_eq(a, b, "length %zu: %08x vs %08x", n, a, b);
        /* Continuing a CRC over two pieces equals one pass. */
        uint32_t c = ss_crc32c(ss_crc32c(0, buf, n / 2), buf + n / 2, n - n / 2);
        cr_assert_eq(c, ss_crc32c(0, buf, n));
    }
}

/* --- Layout -------------------------------------------------------------------- */

Test(ckpt, layout_is_orbax_non_ocdbt_with_zarr_v2)
{
    make_tmp();
    ss_context *ctx = make_ctx(2, 0);
    ss_mesh *m = mesh("x=2", 2);
    ss_sharding rep = sharding(m, "P()"), byx = sharding(m, "P('x')");
    ss_array *a = put(ctx, &rep, SS_F32, 1, (int64_t[]){8}, 1);
    ss_array *c = put(ctx, &byx, SS_F32, 1, (int64_t[]){4}, 2);
    const char *names[] = {"a", "b.c"};
    ss_array *arrays[] = {a, c};
    save(ctx, 7, 2, names, arrays, SS_CKPT_ZSTD);

    char *z = slurp(path_of("7/default/a/.zarray", ""));
    cr_assert_str_eq(z, "{\"chunks\":[8],\"compressor\":{\"id\":\"zstd\",\"level\":1},"
                        "\"dimension_separator\":\".\",\"dtype\":\"<f4\",\"fill_value\":null,"
                        "\"filters\":null,\"order\":\"C\",\"shape\":[8],\"zarr_format\":2}");
    free(z);
    char *md = slurp(path_of("7/default/_METADATA", ""));
    cr_assert_str_eq(md,
                     "{\"tree_metadata\": {\"('a',)\": {\"key_metadata\": [{\"key\": \"a\", "
                     "\"key_type\": 2}], \"value_metadata\": {\"value_type\": \"jax.Array\", "
                     "\"skip_deserialize\": false, \"write_shape\": [8]}}, \"('b', 'c')\": "
                     "{\"key_metadata\": [{\"key\": \"b\", \"key_type\": 2}, {\"key\": \"c\", "
                     "\"key_type\": 2}], \"value_metadata\": {\"value_type\": \"jax.Array\", "
                     "\"skip_deserialize\": false, \"write_shape\": [2]}}}, \"use_ocdbt\": false, "
                     "\"use_zarr3\": false, \"store_array_data_equal_to_fill_value\": true, "
                     "\"custom_metadata\": {\"shardsim_checksums\": 1}}");
    free(md);
    char *sh = slurp(path_of("7/default/_sharding", ""));
    cJSON *j = cJSON_Parse(sh);
    cr_assert(j != NULL);
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "Yi5j"); /* base64url("b.c") */
    cr_assert(cJSON_IsString(e), "%s", sh);
    cr_assert_str_eq(e->valuestring,
                     "{\"sharding_type\": \"NamedSharding\", \"shape\": [2], \"axis_names\": "
                     "[\"x\"], \"axis_types\": [\"AxisType.Auto\"], \"partition_spec\": [\"x\"], "
                     "\"device_mesh\": {\"mesh\": [{\"id\": 0}, {\"id\": 1}]}}");
    cr_assert(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(j, "YQ==")));
    cJSON_Delete(j);
    free(sh);
    char *commit = slurp(path_of("7/commit_success.txt", ""));
    char want[600];
    snprintf(want, sizeof want, "Checkpoint commit was successful to %s/7", tmp_root);
    cr_assert_str_eq(commit, want);
    free(commit);
    char *cm = slurp(path_of("7/_CHECKPOINT_METADATA", ""));
    cr_assert(strstr(cm, "{\"item_handlers\": {\"default\": \"orbax.checkpoint._src.handlers."
                         "pytree_checkpoint_handler.PyTreeCheckpointHandler\"}, \"metrics\": {}"),
              "%s", cm);
    cr_assert(strstr(cm, "\"commit_timestamp_nsecs\": "), "%s", cm);
    free(cm);
    /* One chunk per distinct shard: 'a' is replicated (one chunk), 'b.c' has two. */
    struct stat st;
    cr_assert_eq(stat(path_of("7/default/a/0", ""), &st), 0);
    cr_assert_eq(stat(path_of("7/default/b.c/0", ""), &st), 0);
    cr_assert_eq(stat(path_of("7/default/b.c/1", ""), &st), 0);
    cr_assert_neq(stat(path_of("7/default/a/1", ""), &st), 0);
    cr_assert_eq(stat(path_of("7/default/array_metadatas/process_0", ""), &st), 0);
    cr_assert_neq(stat(path_of("7.orbax-checkpoint-tmp", ""), &st), 0);
    ss_array_destroy(a);
    ss_array_destroy(c);
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
    rm_tmp();
}

/* --- Round trips ------------------------------------------------------------ */

/* Restore names[i] (shapes/dtypes) into `specs` over `m` and check values. */
static ss_ckpt_state *restore_into(ss_context *ctx, int64_t step, int n, const char *names[],
                                   const ss_dtype dts[], const int ranks[],
                                   const int64_t shapes[][SS_MAX_RANK], const ss_mesh *m,
                                   const char *specs[], const int seeds[])
{
    ss_ckpt_target t[8];
    ss_sharding sh[8];
    for (int i = 0; i < n; i++) {
        sh[i] = sharding(m, specs[i]);
        t[i] = target(names[i], dts[i], ranks[i], shapes[i], &sh[i]);
    }
    ss_ckpt_state *s;
    ss_ckpt_stats stats;
    cr_assert_eq(ss_ckpt_restore(ctx, tmp_root, step, n, t, NULL, &s, &stats), SS_OK, "%s",
                 ss_error_message());
    for (int i = 0; i < n; i++) {
        ss_array *a = ss_ckpt_state_array(s, i);
        cr_assert_eq(ss_array_dtype(a), dts[i]);
        const ss_sharding *got = ss_array_sharding(a);
        cr_assert_eq(got->mesh, m);
        cr_assert(ss_spec_equal(&got->spec, &sh[i].spec), "%s: spec", names[i]);
        expect_pattern(a, seeds[i]);
        cr_assert_eq(ss_ckpt_state_used_saved_sharding(s, i), 0);
    }
    cr_assert_eq(ss_ckpt_state_find(s, names[1]), ss_ckpt_state_array(s, 1));
    return s;
}

Test(ckpt, round_trip_2x4_to_2x2x2_to_8_to_1)
{
    make_tmp();
    ss_context *ctx = make_ctx(8, 0);
    const char *names[] = {"params.w", "params.emb", "opt.0.mu", "step"};
    const ss_dtype dts[] = {SS_F32, SS_BF16, SS_I32, SS_I32};
    const int ranks[] = {2, 3, 2, 0};
    const int64_t shapes[][SS_MAX_RANK] = {{64, 96}, {8, 16, 24}, {32, 8}, {0}};
    const int seeds[] = {1, 2, 3, 4};
    ss_mesh *m24 = mesh("a=2,b=4", 8);
    const char *s1[] = {"P('a', 'b')", "P(None, 'a', 'b')", "P(('a', 'b'))", "P()"};
    ss_array *arr[4];
    for (int i = 0; i < 4; i++) {
        ss_sharding sh = sharding(m24, s1[i]);
        arr[i] = put(ctx, &sh, dts[i], ranks[i], shapes[i], seeds[i]);
    }
    save(ctx, 1, 4, names, arr, SS_CKPT_ZSTD);
    for (int i = 0; i < 4; i++)
        ss_array_destroy(arr[i]);

    ss_mesh *m222 = mesh("x=2,y=2,z=2", 8);
    const char *s2[] = {"P('z', ('x', 'y'))", "P('x', 'y', 'z')", "P(None, 'y')", "P()"};
    ss_ckpt_state *st2 = restore_into(ctx, 1, 4, names, dts, ranks, shapes, m222, s2, seeds);
    for (int i = 0; i < 4; i++)
        arr[i] = ss_ckpt_state_array(st2, i);
    save(ctx, 2, 4, names, arr, SS_CKPT_UNCOMPRESSED);
    ss_ckpt_state_destroy(st2);

    ss_mesh *m8 = mesh("c=8", 8);
    const char *s3[] = {"P(None, 'c')", "P('c')", "P('c', None)", "P()"};
    ss_ckpt_state *st3 = restore_into(ctx, 2, 4, names, dts, ranks, shapes, m8, s3, seeds);
    for (int i = 0; i < 4; i++)
        arr[i] = ss_ckpt_state_array(st3, i);
    save(ctx, 3, 4, names, arr, SS_CKPT_ZSTD);
    ss_ckpt_state_destroy(st3);

    ss_mesh *m1 = mesh("", 1);
    const char *s4[] = {"P()", "P()", "P()", "P()"};
    ss_ckpt_state *st4 = restore_into(ctx, 3, 4, names, dts, ranks, shapes, m1, s4, seeds);
    ss_ckpt_state_destroy(st4);

    int64_t steps[8];
    int n;
    cr_assert_eq(ss_ckpt_steps(tmp_root, steps, 8, &n), SS_OK);
    cr_assert_eq(n, 3);
    cr_assert_eq(steps[0], 1);
    cr_assert_eq(steps[2], 3);
    int problems = -1;
    cr_assert_eq(ss_ckpt_verify(tmp_root, -1, NULL, NULL, &problems), SS_OK, "%s",
                 ss_error_message());
    cr_assert_eq(problems, 0);
    ss_mesh_destroy(m1);
    ss_mesh_destroy(m8);
    ss_mesh_destroy(m222);
    ss_mesh_destroy(m24);
    ss_context_destroy(ctx);
    rm_tmp();
}

Test(ckpt, restore_casts_to_the_target_dtype)
{
    make_tmp();
    ss_context *ctx = make_ctx(4, 0);
    ss_mesh *m = mesh("x=4", 4);
    ss_sharding sh = sharding(m, "P('x')");
    int64_t shape[1] = {64};
    ss_array *a = put(ctx, &sh, SS_F32, 1, shape, 5);
    const char *names[] = {"w"};
    save(ctx, 0, 1, names, &a, SS_CKPT_UNCOMPRESSED);
    ss_array_destroy(a);
    const ss_dtype to[] = {SS_BF16, SS_I32, SS_F64, SS_F32};
    for (int k = 0; k < 4; k++) {
        ss_ckpt_target t = target("w", to[k], 1, shape, &sh);
        ss_ckpt_state *s;
        cr_assert_eq(ss_ckpt_restore(ctx, tmp_root, 0, 1, &t, NULL, &s, NULL), SS_OK, "%s",
                     ss_error_message());
        expect_pattern(ss_ckpt_state_array(s, 0), 5);
        ss_ckpt_state_destroy(s);
    }
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
    rm_tmp();
}

Test(ckpt, empty_arrays_and_scalars_round_trip)
{
    make_tmp();
    ss_context *ctx = make_ctx(4, 0);
    ss_mesh *m = mesh("x=4", 4);
    ss_sharding sh = sharding(m, "P('x')"), rep = sharding(m, "P()");
    ss_array *e = put(ctx, &sh, SS_F32, 2, (int64_t[]){0, 3}, 1);
    ss_array *sc = put(ctx, &rep, SS_I32, 0, NULL, 2);
    const char *names[] = {"empty", "count"};
    ss_array *arrays[] = {e, sc};
    save(ctx, 5, 2, names, arrays, SS_CKPT_ZSTD);
    ss_array_destroy(e);
    ss_array_destroy(sc);
    char *z = slurp(path_of("5/default/empty/.zarray", ""));
    cr_assert(strstr(z, "\"chunks\":[1,3]") && strstr(z, "\"shape\":[0,3]"), "%s", z);
    free(z);
    ss_ckpt_target t[2] = {target("empty", SS_F32, 2, (int64_t[]){0, 3}, &sh),
                           target("count", SS_F64, 0, NULL, &rep)};
    ss_ckpt_state *s;
    cr_assert_eq(ss_ckpt_restore(ctx, tmp_root, 5, 2, t, NULL, &s, NULL), SS_OK, "%s",
                 ss_error_message());
    expect_pattern(ss_ckpt_state_array(s, 1), 2);
    cr_assert_eq(ss_array_shape(ss_ckpt_state_array(s, 0))[0], 0);
    ss_ckpt_state_destroy(s);
    cr_assert_eq(ss_ckpt_verify(tmp_root, 5, NULL, NULL, NULL), SS_OK, "%s", ss_error_message());
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
    rm_tmp();
}

/* --- Memory and bytes read ---------------------------------------------------- */

Test(ckpt, restore_peak_is_target_shard_plus_staging_whatever_was_saved)
{
    make_tmp();
    int64_t shape[2] = {1024, 512}; /* 2 MiB of f32, saved whole on one device */
    {
        ss_context *ctx = make_ctx(1, 0);
        ss_mesh *m1 = mesh("", 1);
        ss_sharding whole = sharding(m1, "P()");
        ss_array *a = put(ctx, &whole, SS_F32, 2, shape, 9);
        const char *names[] = {"big"};
        save(ctx, 1, 1, names, &a, SS_CKPT_UNCOMPRESSED);
        save(ctx, 2, 1, names, &a, SS_CKPT_ZSTD);
        ss_array_destroy(a);
        ss_mesh_destroy(m1);
        ss_context_destroy(ctx);
    }
    size_t staging = 256 << 10;
    const char *specs[] = {"P('c', None)", "P(None, 'c')"};
    for (int step = 1; step <= 2; step++)
        for (int k = 0; k < 2; k++) {
            ss_context *ctx = make_ctx(8, 0);
            ss_mesh *m8 = mesh("c=8", 8);
            ss_sharding sh = sharding(m8, specs[k]);
            ss_ckpt_target t = target("big", SS_F32, 2, shape, &sh);
            ss_ckpt_restore_options o = {.staging_bytes = staging};
            size_t plan[8];
            uint64_t needed, to_read;
            cr_assert_eq(ss_ckpt_restore_plan(ctx, tmp_root, step, 1, &t, &o, plan, 8, &needed,
                                              &to_read),
                         SS_OK, "%s", ss_error_message());
            ss_ckpt_state *s;
            ss_ckpt_stats stats;
            cr_assert_eq(ss_ckpt_restore(ctx, tmp_root, step, 1, &t, &o, &s, &stats), SS_OK,
                         "%s", ss_error_message());
            size_t shard = (size_t)(1024 * 512 / 8) * 4;
            for (int d = 0; d < 8; d++) {
                ss_memory_stats ms;
                cr_assert_eq(ss_device_memory_stats(ctx, d, &ms), SS_OK);
                cr_assert_eq(ms.peak_bytes, plan[d], "step %d %s device %d: peak %zu, plan %zu",
                             step, specs[k], d, ms.peak_bytes, plan[d]);
                cr_assert_leq(ms.peak_bytes, shard + staging, "device %d peak %zu > %zu + %zu",
                              d, ms.peak_bytes, shard, staging);
            }
            cr_assert_eq(stats.bytes_read, to_read);
            cr_assert_eq(stats.bytes_needed, needed);
            cr_assert_eq(needed, (uint64_t)1024 * 512 * 4);
            expect_pattern(ss_ckpt_state_array(s, 0), 9);
            ss_ckpt_state_destroy(s);
            ss_mesh_destroy(m8);
            ss_context_destroy(ctx);
        }
    rm_tmp();
}

Test(ckpt, resharding_reads_at_most_one_and_a_half_times_what_it_needs)
{
    make_tmp();
    ss_context *ctx = make_ctx(8, 0);
    int64_t shape[2] = {2048, 1024}; /* 8 MiB; chunks [1024, 256] = 1 MiB */
    ss_mesh *m24 = mesh("a=2,b=4", 8), *m8 = mesh("c=8", 8), *m222 = mesh("x=2,y=2,z=2", 8);
    ss_sharding saved = sharding(m24, "P('a', 'b')");
    ss_array *a = put(ctx, &saved, SS_F32, 2, shape, 3);
    const char *names[] = {"w"};
    save(ctx, 1, 1, names, &a, SS_CKPT_UNCOMPRESSED);
    save(ctx, 2, 1, names, &a, SS_CKPT_ZSTD);
    ss_array_destroy(a);
    struct {
        const ss_mesh *m;
        const char *spec;
    } cases[] = {
        {m8, "P('c', None)"},         /* rows of chunks */
        {m222, "P(('x', 'y'), 'z')"}, /* rows, and columns spanning two chunks */
        {m8, "P()"},                  /* replicated: read once, then copied */
        {m24, "P('a', 'b')"},         /* the saved sharding: exactly the chunks */
        {m8, "P(None, 'c')"},         /* half of every chunk row each: one reader per chunk */
        {m222, "P('z', ('y', 'x'))"}, /* transposed axes */
    };
    for (int step = 1; step <= 2; step++)
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            ss_sharding sh = sharding(cases[k].m, cases[k].spec);
            ss_ckpt_target t = target("w", SS_F32, 2, shape, &sh);
            size_t plan[8];
            uint64_t needed, to_read;
            cr_assert_eq(ss_ckpt_restore_plan(ctx, tmp_root, step, 1, &t, NULL, plan, 8,
                                              &needed, &to_read),
                         SS_OK, "%s", ss_error_message());
            ss_ckpt_state *s;
            ss_ckpt_stats stats;
            cr_assert_eq(ss_ckpt_restore(ctx, tmp_root, step, 1, &t, NULL, &s, &stats), SS_OK,
                         "%s", ss_error_message());
            double ratio = (double)stats.bytes_read / (double)stats.bytes_needed;
            cr_assert_eq(stats.bytes_read, to_read, "%s: read %llu, plan %llu", cases[k].spec,
                         (unsigned long long)stats.bytes_read, (unsigned long long)to_read);
            cr_assert_eq(stats.bytes_needed, (uint64_t)2048 * 1024 * 4);
            if (step == 1) /* uncompressed: at least what is needed */
                cr_assert_geq(stats.bytes_read, stats.bytes_needed);
            cr_assert_leq(ratio, 1.5, "%s: read %.3fx what it needs", cases[k].spec, ratio);
            cr_assert_eq(stats.chunks, 8, "%s: %lld chunk reads for 8 chunks", cases[k].spec,
                         (long long)stats.chunks);
            expect_pattern(ss_ckpt_state_array(s, 0), 3);
            ss_ckpt_state_destroy(s);
        }
    ss_mesh_destroy(m24);
    ss_mesh_destroy(m8);
    ss_mesh_destroy(m222);
    ss_context_destroy(ctx);
    rm_tmp();
}

/* --- Partial restore and name differences ------------------------------------ */

Test(ckpt, partial_restore_and_tree_differences)
{
    make_tmp();
    ss_context *ctx = make_ctx(2, 0);
    ss_mesh *m = mesh("x=2", 2);
    ss_sharding sh = sharding(m, "P('x')");
    int64_t shape[1] = {8};
    const char *names[] = {"params.layer1.kernel", "params.layer2.kernel", "step"};
    ss_array *arr[3];
    for (int i = 0; i < 3; i++)
        arr[i] = put(ctx, &sh, SS_F32, 1, shape, 10 + i);
    save(ctx, 0, 3, names, arr, SS_CKPT_ZSTD);
    for (int i = 0; i < 3; i++)
        ss_array_destroy(arr[i]);

    ss_ckpt_target t[2] = {target("params.layer2.kernel", SS_F32, 1, shape, &sh),
                           target("step", SS_F32, 1, shape, &sh)};
    ss_ckpt_restore_options partial = {.partial = 1};
    ss_ckpt_state *s;
    cr_assert_eq(ss_ckpt_restore(ctx, tmp_root, 0, 2, t, &partial, &s, NULL), SS_OK, "%s",
                 ss_error_message());
    cr_assert_eq(ss_ckpt_state_count(s), 2);
    expect_pattern(ss_ckpt_state_find(s, "params.layer2.kernel"), 11);
    expect_pattern(ss_ckpt_state_find(s, "step"), 12);
    cr_assert_null(ss_ckpt_state_find(s, "params.layer1.kernel"));
    ss_ckpt_state_destroy(s);

    /* Without partial: the difference is listed. */
    cr_assert_eq(ss_ckpt_restore(ctx, tmp_root, 0, 2, t, NULL, &s, NULL), SS_ERR_INVALID);
    cr_assert_null(s);
    cr_assert_str_eq(ss_error_message(),
                     "User-provided restore item and on-disk value metadata tree structures do "
                     "not match: not in the target: ['params.layer1.kernel']. If this mismatch "
                     "is intentional, pass `partial_restore=True` to only restore parameters "
                     "found in `item`.");
    ss_ckpt_target t3[3] = {target("params.layer2.kernel", SS_F32, 1, shape, &sh),
                            target("opt_state.mu", SS_F32, 1, shape, &sh),
                            target("params.layer1.kernel", SS_F32, 1, shape, &sh)};
    cr_assert_eq(ss_ckpt_restore(ctx, tmp_root, 0, 3, t3, NULL, &s, NULL), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "missing in the checkpoint: ['opt_state.mu']; not in "
                                         "the target: ['step']."),
              "%s", ss_error_message());
    /* With partial, a name the checkpoint lacks is still an error. */
    cr_assert_eq(ss_ckpt_restore(ctx, tmp_root, 0, 3, t3, &partial, &s, NULL), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "partial restore: ['opt_state.mu'] is not in the "
                                         "checkpoint"),
              "%s", ss_error_message());
    /* A shape that differs from the stored one. */
    ss_ckpt_target bad = target("step", SS_F32, 1, (int64_t[]){4}, &sh);
    cr_assert_eq(ss_ckpt_restore(ctx, tmp_root, 0, 1, &bad, &partial, &s, NULL),
                 SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "restore 'step': Requested shape: (4,) is not "
                                         "compatible with the stored shape: (8,). "
                                         "Truncating/padding is disabled."),
              "%s", ss_error_message());
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
    rm_tmp();
}

/* --- Shardings when the target has none ----------------------------------------- */

Test(ckpt, no_target_sharding_uses_the_saved_one_when_it_fits)
{
    make_tmp();
    ss_context *ctx = make_ctx(8, 0);
    ss_mesh *m = mesh("a=2,b=4", 8);
    ss_sharding sh = sharding(m, "P('a', 'b')");
    int64_t shape[2] = {16, 32};
    ss_array *a = put(ctx, &sh, SS_F32, 2, shape, 6);
    const char *names[] = {"w"};
    save(ctx, 3, 1, names, &a, SS_CKPT_ZSTD);
    ss_array_destroy(a);

    ss_ckpt_target t = target("w", SS_F32, 2, shape, NULL);
    ss_ckpt_state *s;
    cr_assert_eq(ss_ckpt_restore(ctx, tmp_root, -1, 1, &t, NULL, &s, NULL), SS_OK, "%s",
                 ss_error_message());
    cr_assert_eq(ss_ckpt_state_used_saved_sharding(s, 0), 1);
    const ss_sharding *got = ss_array_sharding(ss_ckpt_state_array(s, 0));
    char repr[256];
    cr_assert_eq(ss_sharding_repr(got, repr, sizeof repr), SS_OK);
    cr_assert_str_eq(repr, "NamedSharding(mesh=Mesh('a': 2, 'b': 4, axis_types=(Auto, Auto)), "
                           "spec=P('a', 'b'), memory_kind=device)");
    expect_pattern(ss_ckpt_state_array(s, 0), 6);
    ss_ckpt_state_destroy(s);

    /* Fewer devices now: Orbax's topology error, not a silent full copy. */
    ss_context *small = make_ctx(4, 0);
    cr_assert_eq(ss_ckpt_restore(small, tmp_root, 3, 1, &t, NULL, &s, NULL), SS_ERR_MESH);
    cr_assert_str_eq(ss_error_message(),
                     "array 'w': Topology mismatch detected. The checkpoint was saved with a "
                     "different topology than the current one. Please provide a target tree "
                     "with the desired topology to restore. (saved NamedSharding(mesh=Mesh('a': "
                     "2, 'b': 4), spec=P('a', 'b')) over devices 0-7; devices 0-3 available)");
    size_t plan[4];
    cr_assert_eq(ss_ckpt_restore_plan(small, tmp_root, 3, 1, &t, NULL, plan, 4, NULL, NULL),
                 SS_ERR_MESH);
    /* With a target sharding the same restore works on 4 devices. */
    ss_mesh *m4 = mesh("x=4", 4);
    ss_sharding sh4 = sharding(m4, "P(None, 'x')");
    t.sharding = sh4;
    cr_assert_eq(ss_ckpt_restore(small, tmp_root, 3, 1, &t, NULL, &s, NULL), SS_OK, "%s",
                 ss_error_message());
    expect_pattern(ss_ckpt_state_array(s, 0), 6);
    ss_ckpt_state_destroy(s);
    ss_mesh_destroy(m4);
    ss_context_destroy(small);
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
    rm_tmp();
}

/* The seed (flax#5110): params saved unsharded, restored into three params
 * on meshes 2x4 ('a','b'), 2x2x2 ('x','y','z') and 8 ('c') with their
 * target shardings; then the restore whose abstract state lost its
 * shardings, on devices too small for whole arrays, must fail loudly. */
Test(ckpt, seed_restore_into_new_shardings_and_oom_without_them)
{
    make_tmp();
    const char *names[] = {"small_linear1.value", "small_linear2.value", "small_linear3.value"};
    const int ranks[] = {2, 3, 2};
    const int64_t shapes[][SS_MAX_RANK] = {{16, 16}, {16, 16, 16}, {16, 16}};
    {
        ss_context *ctx = make_ctx(8, 0);
        ss_mesh *one = mesh("", 8); /* jnp.ones: SingleDeviceSharding on device 0 */
        ss_sharding whole = sharding(one, "P()");
        ss_array *arr[3];
        for (int i = 0; i < 3; i++) {
            int64_t n = numel(ranks[i], shapes[i]);
            float *ones = malloc((size_t)n * 4);
            for (int64_t k = 0; k < n; k++)
                ones[k] = 1.0f;
            cr_assert_eq(ss_array_put(ctx, &whole, ranks[i], shapes[i], SS_F32, ones, names[i],
                                      &arr[i]),
                         SS_OK);
            free(ones);
        }
        save(ctx, 0, 3, names, arr, SS_CKPT_ZSTD);
        for (int i = 0; i < 3; i++)
            ss_array_destroy(arr[i]);
        ss_mesh_destroy(one);
        ss_context_destroy(ctx);
        char *sh = slurp(path_of("0/default/_sharding", ""));
        cr_assert(strstr(sh, "{\\\"sharding_type\\\": \\\"SingleDeviceSharding\\\", "
                             "\\\"device_str\\\": \\\"cpu:0\\\"}"),
                  "%s", sh);
        free(sh);
    }
    /* 20 KiB devices: a shard and the 16 KiB chunk staging fit; whole arrays do not. */
    ss_context *ctx = make_ctx(8, 20 << 10);
    ss_mesh *m1 = mesh("a=2,b=4", 8), *m2 = mesh("x=2,y=2,z=2", 8), *m3 = mesh("c=8", 8);
    ss_sharding sh[3] = {sharding(m1, "P('a', 'b')"), sharding(m2, "P('x', 'y', 'z')"),
                         sharding(m3, "P('c')")};
    ss_ckpt_target t[3];
    for (int i = 0; i < 3; i++)
        t[i] = target(names[i], SS_F32, ranks[i], shapes[i], &sh[i]);
    ss_ckpt_restore_options partial = {.partial = 1};
    ss_ckpt_state *s;
    cr_assert_eq(ss_ckpt_restore(ctx, tmp_root, 0, 3, t, &partial, &s, NULL), SS_OK, "%s",
                 ss_error_message());
    const char *want_repr[] = {
        "NamedSharding(mesh=Mesh('a': 2, 'b': 4, axis_types=(Auto, Auto)), spec=P('a', 'b'), "
        "memory_kind=device)",
        "NamedSharding(mesh=Mesh('x': 2, 'y': 2, 'z': 2, axis_types=(Auto, Auto, Auto)), "
        "spec=P('x', 'y', 'z'), memory_kind=device)",
        "NamedSharding(mesh=Mesh('c': 8, axis_types=(Auto,)), spec=P('c',), "
        "memory_kind=device)"};
    for (int i = 0; i < 3; i++) {
        ss_array *a = ss_ckpt_state_array(s, i);
        char repr[256];
        cr_assert_eq(ss_sharding_repr(ss_array_sharding(a), repr, sizeof repr), SS_OK);
        cr_assert_str_eq(repr, want_repr[i]);
        ss_array_shard shards[8];
        int k;
        cr_assert_eq(ss_array_shards(a, -1, shards, 8, &k), SS_OK);
        cr_assert_eq(k, 8);
        for (int p = 0; p < 8; p++)
            cr_assert_eq(shards[p].index.bytes, (size_t)numel(ranks[i], shapes[i]) * 4 / 8);
        const float *v = shards[7].data;
        cr_assert_eq(v[0], 1.0f);
    }
    char pic[2048];
    cr_assert_eq(ss_viz_sharding(&sh[0], 2, shapes[0], NULL, pic, sizeof pic, NULL), SS_OK);
    cr_assert(strstr(pic, "CPU 7"), "%s", pic);
    ss_ckpt_state_destroy(s);
    /* The abstract state without shardings (nnx.eval_shape before the fix). */
    for (int i = 0; i < 3; i++)
        memset(&t[i].sharding, 0, sizeof t[i].sharding);
    size_t plan[8];
    cr_assert_eq(ss_ckpt_restore_plan(ctx, tmp_root, 0, 3, t, &partial, plan, 8, NULL, NULL),
                 SS_OK, "%s", ss_error_message());
    cr_assert_gt(plan[0], (size_t)20 << 10, "the plan shows device 0 needs %zu bytes", plan[0]);
    cr_assert_eq(plan[1], 0u);
    cr_assert_eq(ss_ckpt_restore(ctx, tmp_root, 0, 3, t, &partial, &s, NULL),
                 SS_ERR_DEVICE_OOM);
    cr_assert_null(s);
    const char *msg = ss_error_message();
    cr_assert(strstr(msg, "'small_linear1.value', 'small_linear2.value', 'small_linear3.value' "
                          "have no target sharding, so their saved "
                          "SingleDeviceSharding(device=cpu:0) was used"),
              "%s", msg);
    cr_assert(strstr(msg, "restore: device 0 out of memory: it needs "), "%s", msg);
    cr_assert_null(strchr(msg, '\n'));
    for (int d = 0; d < 8; d++) {
        ss_memory_stats ms;
        ss_device_memory_stats(ctx, d, &ms);
        cr_assert_eq(ms.live_bytes, 0u, "device %d keeps %zu bytes after the failure", d,
                     ms.live_bytes);
    }
    ss_mesh_destroy(m1);
    ss_mesh_destroy(m2);
    ss_mesh_destroy(m3);
    ss_context_destroy(ctx);
    rm_tmp();
}

/* --- The manager ----------------------------------------------------------------- */

Test(ckpt, manager_keeps_the_last_n_steps_and_refuses_to_overwrite)
{
    make_tmp();
    ss_context *ctx = make_ctx(2, 0);
    ss_mesh *m = mesh("x=2", 2);
    ss_sharding sh = sharding(m, "P('x')");
    const char *names[] = {"w"};
    ss_ckpt_save_options o = {.max_to_keep = 2, .item = "state"};
    for (int step = 1; step <= 5; step++) {
        ss_array *a = put(ctx, &sh, SS_F32, 1, (int64_t[]){6}, step);
        cr_assert_eq(ss_ckpt_save(ctx, tmp_root, step * 10, 1, names, &a, &o, NULL), SS_OK,
                     "%s", ss_error_message());
        ss_array_destroy(a);
    }
    int64_t steps[8], latest;
    int n;
    cr_assert_eq(ss_ckpt_steps(tmp_root, steps, 8, &n), SS_OK);
    cr_assert_eq(n, 2);
    cr_assert_eq(steps[0], 40);
    cr_assert_eq(steps[1], 50);
    cr_assert_eq(ss_ckpt_latest_step(tmp_root, &latest), SS_OK);
    cr_assert_eq(latest, 50);
    ss_array *a = put(ctx, &sh, SS_F32, 1, (int64_t[]){6}, 1);
    char want[600];
    snprintf(want, sizeof want, "Destination %s/50 already exists.", tmp_root);
    expect_error(ss_ckpt_save(ctx, tmp_root, 50, 1, names, &a, &o, NULL), SS_ERR_INVALID, want);
    const char *dup[] = {"w", "w"};
    ss_array *two[] = {a, a};
    expect_error(ss_ckpt_save(ctx, tmp_root, 60, 2, dup, two, &o, NULL), SS_ERR_INVALID,
                 "array name 'w' is given twice");
    const char *badname[] = {"a/b"};
    expect_error(ss_ckpt_save(ctx, tmp_root, 60, 1, badname, &a, &o, NULL), SS_ERR_INVALID,
                 "keys may hold letters, digits");
    ss_array_destroy(a);
    ss_ckpt *ck;
    cr_assert_eq(ss_ckpt_open(tmp_root, -1, NULL, &ck), SS_OK, "%s", ss_error_message());
    cr_assert_str_eq(ss_ckpt_item(ck), "state");
    cr_assert_eq(ss_ckpt_step(ck), 50);
    cr_assert_eq(ss_ckpt_array_count(ck), 1);
    ss_ckpt_array_desc info;
    cr_assert_eq(ss_ckpt_array_info(ck, 0, &info), SS_OK, "%s", ss_error_message());
    cr_assert_str_eq(info.name, "w");
    cr_assert_eq(info.nchunks, 2);
    cr_assert_eq(info.chunks[0], 3);
    cr_assert_eq(info.has_crc, 1);
    cr_assert_eq(info.saved, SS_CKPT_SHARDING_NAMED);
    cr_assert_str_eq(info.saved_text, "NamedSharding(mesh=Mesh('x': 2), spec=P('x',))");
    ss_ckpt_close(ck);
    expect_error(ss_ckpt_open(tmp_root, 7, NULL, &ck), SS_ERR_IO,
                 "Requested directory for restore does not exist at ");
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
    rm_tmp();
}

/* --- The CLI ---------------------------------------------------------------------------- */

Test(ckpt, cli_ls_show_verify)
{
    char *out = NULL, *err = NULL;
    int rc = ts_run_cli("ckpt --help", &out, &err);
    bool wired = rc == 0 && strstr(out, "usage: shardsim ckpt");
    free(out);
    free(err);
    if (!wired)
        cr_skip("`shardsim ckpt` is not wired into main.c yet");
    make_tmp();
    ss_context *ctx = make_ctx(8, 0);
    ss_mesh *m = mesh("a=2,b=4", 8);
    ss_sharding sh = sharding(m, "P('a', 'b')");
    ss_array *a = put(ctx, &sh, SS_F32, 2, (int64_t[]){16, 16}, 1);
    const char *names[] = {"params.w"};
    save(ctx, 1, 1, names, &a, SS_CKPT_ZSTD);
    save(ctx, 2, 1, names, &a, SS_CKPT_UNCOMPRESSED);
    ss_array_destroy(a);
    cr_assert_eq(mkdir(path_of("3" SS_CKPT_TMP_SUFFIX, ""), 0755), 0);
    char args[1024];

    snprintf(args, sizeof args, "ckpt ls %s", tmp_root);
    cr_assert_eq(ts_run_cli(args, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "committed"), "%s", out);
    cr_assert(strstr(out, "unfinished save in 3.orbax-checkpoint-tmp"), "%s", out);
    free(out);
    free(err);

    snprintf(args, sizeof args, "ckpt show %s 2 --no-color", tmp_root);
    cr_assert_eq(ts_run_cli(args, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "params.w  f32[16,16]  chunks [8,4] x 8  uncompressed  1.0 KiB stored, "
                          "1.0 KiB logical, crc32c"),
              "%s", out);
    cr_assert(strstr(out, "saved sharding: NamedSharding(mesh=Mesh('a': 2, 'b': 4), "
                          "spec=P('a', 'b'))"),
              "%s", out);
    char pic[4096];
    cr_assert_eq(ss_viz_sharding(&sh, 2, (int64_t[]){16, 16}, NULL, pic, sizeof pic, NULL),
                 SS_OK);
    cr_assert(strstr(out, pic), "the picture is not JAX's:\n%s", out);
    free(out);
    free(err);

    snprintf(args, sizeof args, "ckpt verify %s", tmp_root);
    cr_assert_eq(ts_run_cli(args, &out, &err), 0, "%s%s", out, err);
    cr_assert(strstr(out, "step 1: ok (1 arrays, 8 chunks"), "%s", out);
    free(out);
    free(err);
    flip_byte(path_of("2/default/params.w/1.3", ""), 3);
    cr_assert_eq(ts_run_cli(args, &out, &err), 1, "%s%s", out, err);
    cr_assert(strstr(out, "step 2: array 'params.w' chunk 1.3: CRC32C mismatch in bytes [0, "
                          "128)"),
              "%s", out);
    cr_assert(strstr(out, "1 problem"), "%s", out);
    free(out);
    free(err);

    cr_assert_eq(ts_run_cli("ckpt show /nonexistent/ckpt", &out, &err), 2);
    cr_assert(strstr(err, "no committed checkpoint") || strstr(err, "cannot read"), "%s", err);
    free(out);
    free(err);
    cr_assert_eq(ts_run_cli("ckpt frobnicate", &out, &err), 2);
    free(out);
    free(err);
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
    rm_tmp();
}


/* --- ckpt show --values ------------------------------------------------------------- */

/* An array of `dt` holding `v[0..n)` (exact in dt), put on `sh`. */
static ss_array *put_values(ss_context *ctx, const ss_sharding *sh, ss_dtype dt, int rank,
                            const int64_t shape[], const double *v, int64_t n)
{
    size_t es = ss_dtype_size(dt);
    unsigned char *h = malloc((size_t)n * es + 1);
    for (int64_t i = 0; i < n; i++) {
        if (dt == SS_F32) {
            float f = (float)v[i];
            memcpy(h + i * 4, &f, 4);
        } else {
            int32_t x = (int32_t)v[i];
            memcpy(h + i * 4, &x, 4);
        }
    }
    ss_array *a;
    cr_assert_eq(ss_array_put(ctx, sh, rank, shape, dt, h, "v", &a), SS_OK, "%s",
                 ss_error_message());
    free(h);
    return a;
}

Test(ckpt, show_values_prints_what_was_saved_as_numpy_does)
{
    make_tmp();
    ss_context *ctx = make_ctx(2, 0);
    ss_mesh *m = mesh("x=2", 2);
    ss_sharding byx = sharding(m, "P('x')"), rep = sharding(m, "P()");
    double six[6] = {0, 1, 2, 3, 4, 5}, *big = malloc(2000 * sizeof *big);
    for (int i = 0; i < 2000; i++)
        big[i] = i;
    ss_array *a = put_values(ctx, &byx, SS_F32, 2, (int64_t[]){2, 3}, six, 6);
    ss_array *b = put_values(ctx, &byx, SS_I32, 1, (int64_t[]){2000}, big, 2000);
    ss_array *c = put(ctx, &rep, SS_F32, 1, (int64_t[]){4}, 3);
    const char *names[] = {"params.a", "params.big", "params.c"};
    ss_array *arrays[] = {a, b, c};
    save(ctx, 1, 3, names, arrays, SS_CKPT_ZSTD);
    char args[600], *out, *err;
    snprintf(args, sizeof args, "ckpt show --values %s params.a params.big", tmp_root);
    cr_assert_eq(ts_run_cli(args, &out, &err), 0, "%s", err);
    /* numpy: str(np.arange(6, dtype=np.float32).reshape(2, 3)) and
     * str(np.arange(2000, dtype=np.int32)). */
    char want[900];
    snprintf(want, sizeof want,
             "step 1 of %s, item 'default'\n\n"
             "params.a: f32[2,3]\n[[0. 1. 2.]\n [3. 4. 5.]]\n\n"
             "params.big: i32[2000]\n[   0    1    2 ... 1997 1998 1999]\n",
             tmp_root);
    cr_assert_str_eq(out, want);
    free(out);
    free(err);
    snprintf(args, sizeof args, "ckpt show --values %s 1 params.zz", tmp_root);
    cr_assert_eq(ts_run_cli(args, &out, &err), 2);
    cr_assert(strstr(err, "step 1 has no array 'params.zz' (it has: params.a, params.big, "
                          "params.c)"),
              "%s", err);
    free(out);
    free(err);
    ss_array_destroy(a);
    ss_array_destroy(b);
    ss_array_destroy(c);
    free(big);
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
    rm_tmp();
}

Test(ckpt, show_values_json_gives_every_saved_value)
{
    make_tmp();
    ss_context *ctx = make_ctx(8, 0);
    ss_mesh *m = mesh("a=2,b=4", 8);
    ss_sharding s1 = sharding(m, "P('a', 'b')"), s2 = sharding(m, "P(None, 'a')");
    const int64_t sw[2] = {64, 32}, se[3] = {4, 6, 8};
    ss_array *w = put(ctx, &s1, SS_F32, 2, sw, 7);
    ss_array *e = put(ctx, &s2, SS_BF16, 3, se, 8);
    const char *names[] = {"params.w", "params.emb"};
    ss_array *arrays[] = {w, e};
    save(ctx, 5, 2, names, arrays, SS_CKPT_UNCOMPRESSED);
    char args[600], *out, *err;
    snprintf(args, sizeof args, "ckpt show --values %s --json", tmp_root);
    cr_assert_eq(ts_run_cli(args, &out, &err), 0, "%s", err);
    cJSON *j = cJSON_Parse(out);
    cr_assert(j, "%s", out);
    cr_assert_eq(cJSON_GetObjectItem(j, "step")->valueint, 5);
    const cJSON *arr = cJSON_GetObjectItem(j, "arrays");
    cr_assert_eq(cJSON_GetArraySize(arr), 2);
    for (int k = 0; k < 2; k++) {
        const cJSON *x = cJSON_GetArrayItem(arr, k);
        cr_assert_str_eq(cJSON_GetObjectItem(x, "name")->valuestring, names[k]);
        cr_assert_str_eq(cJSON_GetObjectItem(x, "dtype")->valuestring, k ? "bf16" : "f32");
        /* Flatten the nested lists in order and compare with the pattern. */
        const cJSON *stack[4] = {cJSON_GetObjectItem(x, "values")};
        int64_t i = 0, n = k ? 4 * 6 * 8 : 64 * 32;
        int rank = k ? 3 : 2;
        const cJSON *rows[4];
        rows[0] = stack[0]->child;
        int depth = 0;
        while (depth >= 0) {
            if (!rows[depth]) {
                depth--;
                if (depth >= 0)
                    rows[depth] = rows[depth]->next;
                continue;
            }
            if (depth < rank - 1) {
                cr_assert(cJSON_IsArray(rows[depth]));
                rows[depth + 1] = rows[depth]->child;
                depth++;
                continue;
            }
            cr_assert(cJSON_IsNumber(rows[depth]));
            cr_assert_eq(rows[depth]->valuedouble, pattern(i, k ? 8 : 7), "%s element %lld",
                         names[k], (long long)i);
            i++;
            rows[depth] = rows[depth]->next;
        }
        cr_assert_eq(i, n, "%s: %lld values", names[k], (long long)i);
    }
    cJSON_Delete(j);
    free(out);
    free(err);
    ss_array_destroy(w);
    ss_array_destroy(e);
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
    rm_tmp();
}
