/* test_device.c — virtual devices: arenas (alignment, coalescing, stats,
 * OOM reports, injected failures), contexts (hosts, threads, runs),
 * sharded arrays, and hang/mismatch reports with short timeouts. */
#include "support.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

static ss_context *make_ctx(int n, size_t mem, int hosts, double timeout)
{
    ss_context_options o = {.ndevices = n, .device_memory = mem, .hosts = hosts,
                            .timeout = timeout};
    ss_context *ctx;
    cr_assert_eq(ss_context_create(&o, &ctx), SS_OK, "%s", ss_error_message());
    return ctx;
}

/* --- Sizes and contexts --- */

Test(device, size_parse)
{
    size_t v;
    cr_assert_eq(ss_size_parse("16GiB", &v), SS_OK);
    cr_assert_eq(v, (size_t)16 << 30);
    cr_assert_eq(ss_size_parse("512MiB", &v), SS_OK);
    cr_assert_eq(v, (size_t)512 << 20);
    cr_assert_eq(ss_size_parse("1.5 KiB", &v), SS_OK);
    cr_assert_eq(v, 1536u);
    cr_assert_eq(ss_size_parse("4096", &v), SS_OK);
    cr_assert_eq(v, 4096u);
    cr_assert_eq(ss_size_parse("2G", &v), SS_OK);
    cr_assert_eq(v, (size_t)2 << 30);
    /* SI units are decimal (dd(1), du --block-size): 16 GB is 16e9 bytes,
     * 0.25 GiB short of 15 GiB; IEC units and bare letters are binary. */
    cr_assert_eq(ss_size_parse("16GB", &v), SS_OK);
    cr_assert_eq(v, (size_t)16000000000ull);
    cr_assert_eq(ss_size_parse("1.5 KB", &v), SS_OK);
    cr_assert_eq(v, 1500u);
    cr_assert_eq(ss_size_parse("3 MB", &v), SS_OK);
    cr_assert_eq(v, 3000000u);
    cr_assert_eq(ss_size_parse("2TB", &v), SS_OK);
    cr_assert_eq(v, (size_t)2000000000000ull);
    cr_assert_eq(ss_size_parse("2 TiB", &v), SS_OK);
    cr_assert_eq(v, (size_t)2 << 40);
    cr_assert_eq(ss_size_parse("64k", &v), SS_OK);
    cr_assert_eq(v, 65536u);
    cr_assert_eq(ss_size_parse("4096B", &v), SS_OK);
    cr_assert_eq(v, 4096u);
    cr_assert_eq(ss_size_parse("1.0000001KB", &v), SS_ERR_PARSE); /* 1000.0001 bytes */
    cr_assert_eq(ss_size_parse("16 GiBs", &v), SS_ERR_PARSE);
    cr_assert_eq(ss_size_parse("12 parsecs", &v), SS_ERR_PARSE);
    cr_assert_eq(ss_size_parse("GiB", &v), SS_ERR_PARSE);
    cr_assert_eq(ss_size_parse("0.3B", &v), SS_ERR_PARSE);
    cr_assert_eq(ss_size_parse("99999999TiB", &v), SS_ERR_RANGE);
}

Test(device, eight_devices_of_16gib_are_reserved_not_committed)
{
    ss_context *ctx = make_ctx(8, 0, 0, 0);
    cr_assert_eq(ss_context_device_memory(ctx), (size_t)16 << 30);
    ss_memory_stats s;
    cr_assert_eq(ss_device_memory_stats(ctx, 7, &s), SS_OK);
    cr_assert_eq(s.capacity, (size_t)16 << 30);
    cr_assert_eq(s.live_bytes, 0u);
    cr_assert_eq(s.largest_free, (size_t)16 << 30);
    ss_context_destroy(ctx);
}

Test(device, memory_from_environment)
{
    setenv("SHARDSIM_DEVICE_MEMORY", "3MiB", 1);
    ss_context *ctx = make_ctx(2, 0, 0, 0);
    cr_assert_eq(ss_context_device_memory(ctx), (size_t)3 << 20);
    ss_context_destroy(ctx);
    setenv("SHARDSIM_DEVICE_MEMORY", "lots", 1);
    ss_context_options o = {.ndevices = 2};
    ss_context *bad = (ss_context *)1;
    cr_assert_eq(ss_context_create(&o, &bad), SS_ERR_PARSE);
    cr_assert_null(bad);
    cr_assert(strstr(ss_error_message(), "SHARDSIM_DEVICE_MEMORY"));
    unsetenv("SHARDSIM_DEVICE_MEMORY");
}

Test(device, bad_options)
{
    ss_context *ctx;
    ss_context_options o = {.ndevices = 0};
    cr_assert_eq(ss_context_create(&o, &ctx), SS_ERR_INVALID);
    o.ndevices = 6;
    o.hosts = 4;
    cr_assert_eq(ss_context_create(&o, &ctx), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "4 hosts"), "%s", ss_error_message());
    cr_assert_eq(ss_context_create(NULL, &ctx), SS_ERR_INVALID);
}

Test(device, hosts_group_devices)
{
    ss_context *ctx = make_ctx(8, (size_t)1 << 20, 2, 0);
    cr_assert_eq(ss_context_process_count(ctx), 2);
    cr_assert_eq(ss_context_process_index(ctx, 3), 0);
    cr_assert_eq(ss_context_process_index(ctx, 4), 1);
    cr_assert_eq(ss_context_process_index(ctx, 8), -1);
    int ids[8], n;
    cr_assert_eq(ss_context_addressable_devices(ctx, 1, ids, 8, &n), SS_OK);
    cr_assert_eq(n, 4);
    cr_assert_eq(ids[0], 4);
    cr_assert_eq(ids[3], 7);
    cr_assert_eq(ss_context_addressable_devices(ctx, 2, ids, 8, &n), SS_ERR_RANGE);
    ss_context_destroy(ctx);
}

/* --- Arena --- */

Test(device, alloc_aligned_coalesced_and_counted)
{
    ss_context *ctx = make_ctx(2, (size_t)1 << 20, 0, 0);
    void *a, *b, *c, *d;
    cr_assert_eq(ss_device_alloc(ctx, 1, 100, "a", &a), SS_OK);
    cr_assert_eq(ss_device_alloc(ctx, 1, 1000, "b", &b), SS_OK);
    cr_assert_eq(ss_device_alloc(ctx, 1, 0, "c", &c), SS_OK);
    cr_assert_eq((uintptr_t)a % 64, 0u);
    cr_assert_eq((uintptr_t)b % 64, 0u);
    cr_assert_eq((uintptr_t)c % 64, 0u);
    cr_assert_eq((char *)b - (char *)a, 128);
    memset(b, 0xab, 1000);
    ss_memory_stats s;
    ss_device_memory_stats(ctx, 1, &s);
    cr_assert_eq(s.live_bytes, 128u + 1024u + 64u);
    cr_assert_eq(s.live_count, 3);
    cr_assert_eq(s.alloc_count, 3);
    ss_buffer_info top[4];
    int n;
    cr_assert_eq(ss_device_largest_buffers(ctx, 1, top, 4, &n), SS_OK);
    cr_assert_eq(n, 3);
    cr_assert_str_eq(top[0].name, "b");
    cr_assert_eq(top[0].bytes, 1024u);
    cr_assert_str_eq(top[1].name, "a");
    /* Free a and b: they merge, and a 1152-byte buffer fits where they were. */
    cr_assert_eq(ss_device_free(ctx, 1, b), SS_OK);
    cr_assert_eq(ss_device_free(ctx, 1, a), SS_OK);
    cr_assert_eq(ss_device_alloc(ctx, 1, 1152, "ab", &d), SS_OK);
    cr_assert_eq(d, a);
    ss_device_memory_stats(ctx, 1, &s);
    cr_assert_eq(s.peak_bytes, 128u + 1024u + 64u);
    /* Freeing twice or a foreign pointer is an error, not a crash. */
    cr_assert_eq(ss_device_free(ctx, 1, (char *)d + 64), SS_ERR_INVALID);
    cr_assert_eq(ss_device_free(ctx, 0, d), SS_ERR_INVALID);
    cr_assert_eq(ss_device_free(ctx, 1, d), SS_OK);
    cr_assert_eq(ss_device_free(ctx, 1, d), SS_ERR_INVALID);
    cr_assert_eq(ss_device_free(ctx, 1, c), SS_OK);
    ss_device_memory_stats(ctx, 1, &s);
    cr_assert_eq(s.live_bytes, 0u);
    cr_assert_eq(s.largest_free, (size_t)1 << 20);
    cr_assert_eq(ss_device_alloc(ctx, 2, 10, "x", &d), SS_ERR_RANGE);
    ss_context_destroy(ctx);
}

Test(device, oom_names_device_buffer_and_the_five_largest)
{
    ss_context *ctx = make_ctx(4, (size_t)1 << 20, 0, 0);
    static const char *names[6] = {"w0", "w1", "w2", "w3", "w4", "w5"};
    void *p[6];
    for (int i = 0; i < 6; i++)
        cr_assert_eq(ss_device_alloc(ctx, 2, (size_t)(i + 1) * 20000, names[i], &p[i]), SS_OK);
    void *q = (void *)1;
    ss_status st = ss_device_alloc(ctx, 2, (size_t)2 << 20, "activations", &q);
    cr_assert_eq(st, SS_ERR_DEVICE_OOM);
    cr_assert_null(q);
    const char *msg = ss_error_message();
    cr_assert(strstr(msg, "device 2: out of memory allocating activations: 2097152 bytes (2 MiB) "
                          "requested"),
              "%s", msg);
    cr_assert(strstr(msg, "of 1 MiB capacity"), "%s", msg);
    cr_assert(strstr(msg, "largest live buffers: w5 ("), "%s", msg);
    const char *w5 = strstr(msg, "w5"), *w1 = strstr(msg, "w1 ("), *w0 = strstr(msg, "w0 (");
    cr_assert(w5 && w1 && w5 < w1, "%s", msg);
    cr_assert_null(w0, "only five buffers listed: %s", msg);
    cr_assert_null(strchr(msg, '\n'));
    for (int i = 0; i < 6; i++)
        ss_device_free(ctx, 2, p[i]);
    ss_context_destroy(ctx);
}

Test(device, injected_allocation_failure)
{
    ss_context *ctx = make_ctx(2, (size_t)1 << 20, 0, 0);
    ss_fault f = {.kind = SS_FAULT_ALLOC, .device = 1, .nth = 2};
    cr_assert_eq(ss_context_inject(ctx, &f), SS_OK);
    void *a, *b, *c;
    cr_assert_eq(ss_device_alloc(ctx, 1, 64, "first", &a), SS_OK);
    cr_assert_eq(ss_device_alloc(ctx, 1, 64, "second", &b), SS_ERR_DEVICE_OOM);
    cr_assert(strstr(ss_error_message(), "injected"), "%s", ss_error_message());
    cr_assert_eq(ss_device_alloc(ctx, 1, 64, "third", &c), SS_OK);
    ss_device_free(ctx, 1, a);
    ss_device_free(ctx, 1, c);
    f.nth = 0;
    cr_assert_eq(ss_context_inject(ctx, &f), SS_ERR_INVALID);
    f.device = 9;
    cr_assert_eq(ss_context_inject(ctx, &f), SS_ERR_RANGE);
    ss_context_destroy(ctx);
}

/* --- Arrays --- */

static ss_mesh *mesh(const char *text, int n)
{
    ss_mesh *m;
    cr_assert_eq(ss_mesh_parse(text, n, NULL, &m), SS_OK, "%s", ss_error_message());
    return m;
}

static void roundtrip(ss_context *ctx, const char *mesh_text, int n, const char *spec_text,
                      int rank, const int64_t shape[])
{
    ss_mesh *m = mesh(mesh_text, n);
    ss_spec spec;
    cr_assert_eq(ss_spec_parse(spec_text, &spec), SS_OK);
    ss_sharding sh;
    ss_sharding_init(&sh, m, &spec);
    size_t count = 1;
    for (int d = 0; d < rank; d++)
        count *= (size_t)shape[d];
    int32_t *host = malloc(count * 4 + 4), *back = calloc(count + 1, 4);
    for (size_t i = 0; i < count; i++)
        host[i] = (int32_t)(i * 7 + 1);
    ss_array *a;
    cr_assert_eq(ss_array_put(ctx, &sh, rank, shape, SS_I32, host, "x", &a), SS_OK, "%s",
                 ss_error_message());
    /* Each shard holds exactly its block. */
    ss_array_shard shards[SS_MAX_DEVICES];
    int ns;
    cr_assert_eq(ss_array_shards(a, -1, shards, SS_MAX_DEVICES, &ns), SS_OK);
    cr_assert_eq(ns, n);
    for (int s = 0; s < ns; s++) {
        const ss_shard *ix = &shards[s].index;
        int32_t first;
        memcpy(&first, shards[s].data, 4);
        size_t off = 0;
        for (int d = 0; d < rank; d++)
            off = off * (size_t)shape[d] + (size_t)ix->start[d];
        if (ix->bytes)
            cr_assert_eq(first, host[off], "%s %s: shard %d starts with %d, want %d", mesh_text,
                         spec_text, s, first, host[off]);
    }
    cr_assert_eq(ss_array_get(a, back, count * 4), SS_OK);
    cr_assert(memcmp(host, back, count * 4) == 0, "%s %s: roundtrip differs", mesh_text,
              spec_text);
    if (count)
        cr_assert_eq(ss_array_get(a, back, count * 4 - 1), SS_ERR_RANGE);
    ss_array_destroy(a);
    free(host);
    free(back);
    ss_mesh_destroy(m);
}

Test(device, put_get_roundtrip)
{
    ss_context *ctx = make_ctx(8, (size_t)4 << 20, 0, 0);
    roundtrip(ctx, "x=8", 8, "P('x')", 1, (int64_t[]){64});
    roundtrip(ctx, "x=2,y=4", 8, "P('x', 'y')", 2, (int64_t[]){6, 8});
    roundtrip(ctx, "x=2,y=4", 8, "P('y', 'x')", 2, (int64_t[]){8, 6});
    roundtrip(ctx, "x=2,y=4", 8, "P(None, 'y')", 3, (int64_t[]){3, 8, 5});
    roundtrip(ctx, "x=2,y=2,z=2", 8, "P(('z', 'x'), None, 'y')", 3, (int64_t[]){4, 3, 2});
    roundtrip(ctx, "x=2,y=4", 8, "P()", 2, (int64_t[]){3, 5});
    roundtrip(ctx, "x=2,y=4", 8, "P()", 0, NULL);
    roundtrip(ctx, "x=8", 8, "P('x')", 2, (int64_t[]){0, 3});
    for (int d = 0; d < 8; d++) {
        ss_memory_stats s;
        ss_device_memory_stats(ctx, d, &s);
        cr_assert_eq(s.live_bytes, 0u, "device %d leaked %zu bytes", d, s.live_bytes);
    }
    ss_context_destroy(ctx);
}

Test(device, put_errors_use_jax_wording)
{
    ss_context *ctx = make_ctx(8, (size_t)1 << 20, 0, 0);
    ss_mesh *m = mesh("x=8", 8);
    ss_spec spec;
    ss_spec_parse("P('x')", &spec);
    ss_sharding sh;
    ss_sharding_init(&sh, m, &spec);
    int32_t host[12] = {0};
    ss_array *a = (ss_array *)1;
    cr_assert_eq(ss_array_put(ctx, &sh, 1, (int64_t[]){12}, SS_I32, host, "x", &a),
                 SS_ERR_INDIVISIBLE);
    cr_assert_null(a);
    cr_assert(strstr(ss_error_message(), "should evenly divide the shape"));
    ss_mesh_destroy(m);
    ss_context *small = make_ctx(4, (size_t)1 << 20, 0, 0);
    m = mesh("x=8", 8);
    ss_sharding_init(&sh, m, &spec);
    cr_assert_eq(ss_array_put(small, &sh, 1, (int64_t[]){8}, SS_I32, host, "x", &a), SS_ERR_RANGE);
    ss_mesh_destroy(m);
    ss_context_destroy(small);
    ss_context_destroy(ctx);
}

Test(device, put_oom_names_array_shapes_and_frees_partial_shards)
{
    ss_context *ctx = make_ctx(4, (size_t)1 << 20, 0, 0);
    ss_fault f = {.kind = SS_FAULT_ALLOC, .device = 2, .nth = 1};
    ss_mesh *m = mesh("x=2,y=2", 4);
    ss_spec spec;
    ss_spec_parse("P('x')", &spec);
    ss_sharding sh;
    ss_sharding_init(&sh, m, &spec);
    float *host = calloc(256 * 512, 4);
    ss_array *a;
    /* 256x512 f32 = 512 KiB; half per device = 256 KiB: fits once. */
    cr_assert_eq(ss_array_put(ctx, &sh, 2, (int64_t[]){256, 512}, SS_F32, host, "w1", &a), SS_OK);
    ss_array *b;
    ss_status st = ss_array_put(ctx, &sh, 2, (int64_t[]){1024, 512}, SS_F32, host, "w2", &b);
    cr_assert_eq(st, SS_ERR_DEVICE_OOM);
    const char *msg = ss_error_message();
    cr_assert(strstr(msg, "device 0: out of memory allocating 'w2' f32[1024,512] shard [512,512]: "
                          "1048576 bytes (1 MiB) requested, 256 KiB live of 1 MiB capacity"),
              "%s", msg);
    cr_assert(strstr(msg, "'w1' f32[256,512] shard [128,512] (256 KiB)"), "%s", msg);
    cr_assert_eq(ss_context_inject(ctx, &f), SS_OK);
    cr_assert_eq(ss_array_put(ctx, &sh, 1, (int64_t[]){8}, SS_F32, host, "v", &b),
                 SS_ERR_DEVICE_OOM);
    cr_assert(strstr(ss_error_message(), "device 2"), "%s", ss_error_message());
    ss_array_destroy(a);
    for (int d = 0; d < 4; d++) {
        ss_memory_stats s;
        ss_device_memory_stats(ctx, d, &s);
        cr_assert_eq(s.live_bytes, 0u, "device %d", d);
    }
    free(host);
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
}

static ss_status fill_ids(const ss_shard *ix, void *dst, void *user)
{
    (void)user;
    int32_t *p = dst;
    for (int64_t i = ix->start[0]; i < ix->stop[0]; i++)
        *p++ = (int32_t)(i * 10 + ix->device);
    return SS_OK;
}

static ss_status fill_fails(const ss_shard *ix, void *dst, void *user)
{
    (void)dst;
    (void)user;
    if (ix->device == 1)
        return SS_ERR_IO;
    return SS_OK;
}

Test(device, from_callback_single_device_arrays_and_hosts)
{
    ss_context *ctx = make_ctx(4, (size_t)1 << 20, 2, 0);
    ss_mesh *m = mesh("x=2,y=2", 4);
    ss_spec spec;
    ss_spec_parse("P('x')", &spec);
    ss_sharding sh;
    ss_sharding_init(&sh, m, &spec);
    ss_array *a;
    cr_assert_eq(ss_array_from_callback(ctx, &sh, 1, (int64_t[]){4}, SS_I32, fill_ids, NULL, "cb",
                                        &a),
                 SS_OK);
    ss_array_shard sh1[4];
    int n;
    cr_assert_eq(ss_array_shards(a, 1, sh1, 4, &n), SS_OK);
    cr_assert_eq(n, 2);
    cr_assert_eq(sh1[0].index.device, 2);
    cr_assert_eq(sh1[0].host, 1);
    cr_assert_eq(((int32_t *)sh1[1].data)[1], 33); /* element 3 filled on device 3 */
    cr_assert_eq(ss_array_shards(a, 1, sh1, 1, &n), SS_ERR_RANGE);
    cr_assert_eq(n, 2);
    int32_t back[4];
    cr_assert_eq(ss_array_get(a, back, sizeof back), SS_OK);
    cr_assert_eq(back[0], 0);
    cr_assert_eq(back[3], 32); /* replica 0 of block 1 is device 2 */
    ss_array_destroy(a);

    int32_t blocks[4][2] = {{1, 2}, {1, 2}, {3, 4}, {3, 4}};
    const void *bp[4] = {blocks[0], blocks[1], blocks[2], blocks[3]};
    cr_assert_eq(ss_array_from_single_device_arrays(ctx, &sh, 1, (int64_t[]){4}, SS_I32, bp, "s",
                                                    &a),
                 SS_OK);
    cr_assert_eq(ss_array_get(a, back, sizeof back), SS_OK);
    cr_assert_eq(back[2], 3);
    cr_assert_eq(ss_array_rank(a), 1);
    cr_assert_eq(ss_array_shape(a)[0], 4);
    cr_assert_eq(ss_array_dtype(a), SS_I32);
    cr_assert_eq(ss_array_sharding(a)->mesh, m);
    ss_array_destroy(a);
    cr_assert_eq(ss_array_from_callback(ctx, &sh, 1, (int64_t[]){4}, SS_I32, fill_fails, NULL,
                                        "bad", &a),
                 SS_ERR_IO);
    cr_assert_null(a);
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
}

/* --- Runs, hangs and mismatches --- */

typedef struct plan {
    ss_mesh *mesh;
    ss_coll sum, gather;
    int odd_device; /* calls `gather` instead of `sum` (-1: none) */
    int repeats;
} plan;

static ss_status spmd(ss_device *dev, void *user)
{
    plan *p = user;
    float in[16] = {0}, out[64];
    for (int i = 0; i < p->repeats; i++) {
        const ss_coll *c = ss_device_id(dev) == p->odd_device ? &p->gather : &p->sum;
        ss_status st = ss_device_collective(dev, c, in, out);
        if (st)
            return st;
    }
    return SS_OK;
}

static void plan_init(plan *p, int n)
{
    memset(p, 0, sizeof *p);
    p->mesh = mesh(n == 8 ? "x=8" : "x=64", n);
    ss_coll_init(&p->sum, SS_COLL_ALL_REDUCE, p->mesh, "x", SS_F32, 1, (int64_t[]){16});
    ss_coll_init(&p->gather, SS_COLL_ALL_GATHER, p->mesh, "x", SS_F32, 1, (int64_t[]){8});
    p->odd_device = -1;
    p->repeats = 3;
}

Test(device, many_collectives_on_64_devices)
{
    ss_context *ctx = make_ctx(64, (size_t)1 << 20, 0, 0);
    plan p;
    plan_init(&p, 64);
    p.repeats = 200;
    cr_assert_eq(ss_context_run(ctx, spmd, &p), SS_OK, "%s", ss_error_message());
    cr_assert_eq(ss_context_ledger_count(ctx), 200);
    ss_mesh_destroy(p.mesh);
    ss_context_destroy(ctx);
}

Test(device, mismatch_is_reported_and_the_context_recovers)
{
    ss_context *ctx = make_ctx(8, (size_t)1 << 20, 0, 5);
    plan p;
    plan_init(&p, 8);
    p.odd_device = 5;
    ss_status st = ss_context_run(ctx, spmd, &p);
    cr_assert_eq(st, SS_ERR_MISMATCH, "%s", ss_error_message());
    const char *msg = ss_error_message();
    cr_assert(strstr(msg, "collective mismatch"), "%s", msg);
    cr_assert(strstr(msg, "devices 0-4,6-7: in all_reduce sum f32[16] over ('x',) #1"), "%s", msg);
    cr_assert(strstr(msg, "device 5: in all_gather f32[8] over ('x',) #1"), "%s", msg);
    p.odd_device = -1;
    cr_assert_eq(ss_context_run(ctx, spmd, &p), SS_OK, "%s", ss_error_message());
    ss_mesh_destroy(p.mesh);
    ss_context_destroy(ctx);
}

Test(device, straggler_past_the_timeout_is_a_deadlock_report)
{
    /* A 1 s timeout: the straggler within it (50 ms) must pass even on a
     * loaded machine under ASan. */
    ss_context *ctx = make_ctx(8, (size_t)1 << 20, 0, 1.0);
    plan p;
    plan_init(&p, 8);
    ss_fault f = {.kind = SS_FAULT_DELAY, .device = 3, .nth = 2, .seconds = 3};
    cr_assert_eq(ss_context_inject(ctx, &f), SS_OK);
    ss_status st = ss_context_run(ctx, spmd, &p);
    cr_assert_eq(st, SS_ERR_DEADLOCK, "%s", ss_error_message());
    const char *msg = ss_error_message();
    cr_assert(strstr(msg, "for device 3, which did not arrive within 1 s"), "%s", msg);
    cr_assert(strstr(msg, "device 3: delayed by an injected fault"), "%s", msg);
    cr_assert(strstr(msg, "in all_reduce sum f32[16] over ('x',) #2"), "%s", msg);
    /* A straggler within the timeout is fine. */
    f.seconds = 0.05;
    ss_context_inject(ctx, &f);
    cr_assert_eq(ss_context_run(ctx, spmd, &p), SS_OK, "%s", ss_error_message());
    ss_mesh_destroy(p.mesh);
    ss_context_destroy(ctx);
}

Test(device, skipped_collective_is_reported_without_waiting_for_the_timeout)
{
    ss_context *ctx = make_ctx(8, (size_t)1 << 20, 0, 30);
    plan p;
    plan_init(&p, 8);
    ss_fault f = {.kind = SS_FAULT_SKIP, .device = 6, .nth = 2};
    cr_assert_eq(ss_context_inject(ctx, &f), SS_OK);
    ss_status st = ss_context_run(ctx, spmd, &p);
    cr_assert_eq(st, SS_ERR_DEADLOCK, "%s", ss_error_message());
    const char *msg = ss_error_message();
    cr_assert(strstr(msg, "for device 6, which finished its function without arriving"), "%s",
              msg);
    cr_assert(strstr(msg, "device 6: finished its function after 2 collectives"), "%s", msg);
    cr_assert(strstr(msg, "#3"), "%s", msg);
    ss_context_clear_faults(ctx);
    cr_assert_eq(ss_context_run(ctx, spmd, &p), SS_OK, "%s", ss_error_message());
    ss_mesh_destroy(p.mesh);
    ss_context_destroy(ctx);
}

static ss_status oom_then_collective(ss_device *dev, void *user)
{
    plan *p = user;
    void *buf;
    ss_status st = ss_device_alloc(ss_device_context(dev), ss_device_id(dev), 4096, "act", &buf);
    if (st)
        return st;
    float in[16] = {0}, out[16];
    st = ss_device_collective(dev, &p->sum, in, out);
    ss_device_free(ss_device_context(dev), ss_device_id(dev), buf);
    return st;
}

Test(device, oom_on_one_device_stops_the_run_with_the_oom)
{
    ss_context *ctx = make_ctx(8, (size_t)1 << 20, 0, 30);
    plan p;
    plan_init(&p, 8);
    ss_fault f = {.kind = SS_FAULT_ALLOC, .device = 4, .nth = 1};
    ss_context_inject(ctx, &f);
    ss_status st = ss_context_run(ctx, oom_then_collective, &p);
    cr_assert_eq(st, SS_ERR_DEVICE_OOM, "%s", ss_error_message());
    cr_assert(strstr(ss_error_message(), "device 4: out of memory allocating act"), "%s",
              ss_error_message());
    for (int d = 0; d < 8; d++) {
        ss_memory_stats s;
        ss_device_memory_stats(ctx, d, &s);
        cr_assert_eq(s.live_bytes, 0u);
    }
    ss_mesh_destroy(p.mesh);
    ss_context_destroy(ctx);
}

static ss_status nested(ss_device *dev, void *user)
{
    (void)user;
    return ss_context_run(ss_device_context(dev), spmd, NULL);
}

Test(device, runs_do_not_nest)
{
    ss_context *ctx = make_ctx(2, (size_t)1 << 20, 0, 0);
    cr_assert_eq(ss_context_run(ctx, nested, NULL), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "do not nest"), "%s", ss_error_message());
    ss_context_destroy(ctx);
}

/* --- Kernels and the trace --- */

#include <stdatomic.h>
#include <unistd.h>

static atomic_int inside, most;

static ss_status kernels(ss_device *dev, void *user)
{
    plan *p = user;
    void *buf;
    ss_status st = ss_device_alloc(ss_device_context(dev), ss_device_id(dev), 256, "tmp", &buf);
    if (st)
        return st;
    for (int i = 0; i < 3 && st == SS_OK; i++) {
        ss_device_kernel_begin(dev, "matmul");
        int now = atomic_fetch_add(&inside, 1) + 1;
        int m = atomic_load(&most);
        while (now > m && !atomic_compare_exchange_weak(&most, &m, now)) {
        }
        usleep(1000);
        atomic_fetch_sub(&inside, 1);
        float in[16] = {1}, out[16];
        st = ss_device_collective(dev, &p->sum, in, out); /* inside a kernel: gives way */
        ss_device_kernel_end(dev);
    }
    ss_device_free(ss_device_context(dev), ss_device_id(dev), buf);
    return st;
}

Test(device, threads_bound_kernels_and_trace_is_chrome_json)
{
    ss_context_options o = {.ndevices = 8, .device_memory = (size_t)1 << 20, .threads = 2};
    ss_context *ctx;
    cr_assert_eq(ss_context_create(&o, &ctx), SS_OK);
    plan p;
    plan_init(&p, 8);
    cr_assert_eq(ss_context_trace_enable(ctx, 1), SS_OK);
    atomic_store(&most, 0);
    cr_assert_eq(ss_context_run(ctx, kernels, &p), SS_OK, "%s", ss_error_message());
    cr_assert_leq(atomic_load(&most), 2, "%d kernels ran at once", atomic_load(&most));
    char path[] = "/tmp/ss_trace_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    cr_assert_eq(ss_context_trace_write(ctx, path), SS_OK, "%s", ss_error_message());
    FILE *f = fopen(path, "rb");
    char *text = calloc(1, 1 << 20);
    size_t n = fread(text, 1, (1 << 20) - 1, f);
    fclose(f);
    unlink(path);
    cr_assert_gt(n, 0u);
    cJSON *j = cJSON_Parse(text);
    cr_assert_not_null(j, "trace is not JSON");
    int colls = 0, kern = 0, allocs = 0, waits = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(j, "traceEvents"))
    {
        const cJSON *cat = cJSON_GetObjectItem(e, "cat");
        if (!cat)
            continue;
        int tid = cJSON_GetObjectItem(e, "tid")->valueint;
        cr_assert(tid >= 0 && tid < 8);
        if (!strcmp(cat->valuestring, "collective")) {
            colls++;
            cr_assert_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(e, "args"), "bytes_in")->valueint,
                         64);
        }
        kern += !strcmp(cat->valuestring, "kernel");
        waits += !strcmp(cat->valuestring, "wait");
        allocs += !strcmp(cat->valuestring, "memory") &&
                  !strcmp(cJSON_GetObjectItem(e, "ph")->valuestring, "i");
    }
    cr_assert_eq(colls, 24);
    cr_assert_eq(waits, 24);
    cr_assert_eq(kern, 24);
    cr_assert_eq(allocs, 16); /* 8 allocations and 8 frees */
    cJSON_Delete(j);
    free(text);
    cr_assert_eq(ss_context_trace_write(ctx, "/nonexistent/dir/t.json"), SS_ERR_IO);
    ss_context_trace_clear(ctx);
    ss_mesh_destroy(p.mesh);
    ss_context_destroy(ctx);
}

Test(device, host_slices_roundtrip)
{
    ss_context *ctx = make_ctx(8, (size_t)1 << 20, 2, 0);
    ss_mesh *m = mesh("devices=8", 8);
    int32_t h0[8][3], h1[8][3];
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 3; c++) {
            h0[r][c] = r * 3 + c;
            h1[r][c] = 100 + r * 3 + c;
        }
    const void *slices[2] = {h0, h1};
    ss_array *a;
    cr_assert_eq(ss_array_from_host_slices(ctx, m, 2, (int64_t[]){8, 3}, SS_I32, slices, "batch",
                                           &a),
                 SS_OK, "%s", ss_error_message());
    cr_assert_eq(ss_array_shape(a)[0], 16);
    int32_t global[16][3], back[8][3];
    cr_assert_eq(ss_array_get(a, global, sizeof global), SS_OK);
    cr_assert_eq(global[8][0], 100);
    cr_assert_eq(global[15][2], 123);
    size_t len;
    cr_assert_eq(ss_array_host_slice(a, 1, back, sizeof back, &len), SS_OK);
    cr_assert_eq(len, sizeof back);
    cr_assert(memcmp(back, h1, sizeof back) == 0);
    cr_assert_eq(ss_array_host_slice(a, 1, back, 8, &len), SS_ERR_RANGE);
    ss_array_destroy(a);
    cr_assert_eq(ss_array_from_host_slices(ctx, m, 2, (int64_t[]){6, 3}, SS_I32, slices, "b", &a),
                 SS_ERR_INDIVISIBLE);
    /* A column-sharded array has no host slice along dim 0. */
    ss_mesh *m2 = mesh("x=2,y=4", 8);
    ss_spec spec;
    ss_spec_parse("P(None, 'y')", &spec);
    ss_sharding sh;
    ss_sharding_init(&sh, m2, &spec);
    int32_t g[2][8] = {{0}};
    cr_assert_eq(ss_array_put(ctx, &sh, 2, (int64_t[]){2, 8}, SS_I32, g, "c", &a), SS_OK);
    cr_assert_eq(ss_array_host_slice(a, 0, back, sizeof back, &len), SS_ERR_UNSUPPORTED);
    cr_assert(strstr(ss_error_message(), "non-first dimensions"));
    ss_array_destroy(a);
    ss_mesh_destroy(m2);
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
}

/* The arena's free list and live-block table (arena.c) choose the same
 * offsets as a naive first fit over every block in address order, and
 * reject the same frees: a model with one entry per block, driven by a
 * random sequence of allocations and frees of mixed sizes. */
#include "device/arena.h"

typedef struct model_block {
    size_t offset, size;
    bool live;
} model_block;

static size_t model_alloc(model_block *m, int *n, size_t need)
{
    for (int i = 0; i < *n; i++) {
        if (m[i].live || m[i].size < need)
            continue;
        if (m[i].size > need) {
            memmove(&m[i + 2], &m[i + 1], sizeof *m * (size_t)(*n - i - 1));
            m[i + 1] = (model_block){m[i].offset + need, m[i].size - need, false};
            (*n)++;
            m[i].size = need;
        }
        m[i].live = true;
        return m[i].offset;
    }
    return SIZE_MAX;
}

static void model_free(model_block *m, int *n, size_t offset)
{
    int i = 0;
    while (m[i].offset != offset)
        i++;
    m[i].live = false;
    if (i + 1 < *n && !m[i + 1].live) {
        m[i].size += m[i + 1].size;
        memmove(&m[i + 1], &m[i + 2], sizeof *m * (size_t)(*n - i - 2));
        (*n)--;
    }
    if (i > 0 && !m[i - 1].live) {
        m[i - 1].size += m[i].size;
        memmove(&m[i], &m[i + 1], sizeof *m * (size_t)(*n - i - 1));
        (*n)--;
    }
}

Test(arena, first_fit_matches_a_naive_model)
{
    enum { OPS = 20000, MAXLIVE = 400 };
    ss__arena a;
    const size_t cap = (size_t)64 << 20;
    cr_assert_eq(ss__arena_init(&a, 0, cap), SS_OK);
    static model_block m[2 * MAXLIVE + 2];
    int nm = 1;
    m[0] = (model_block){0, cap, false};
    void *live[MAXLIVE];
    int nlive = 0;
    uint32_t s = 7;
    for (int op = 0; op < OPS; op++) {
        s = s * 1664525u + 1013904223u;
        bool do_alloc = nlive == 0 || (nlive < MAXLIVE && (s >> 16) % 3 != 0);
        if (do_alloc) {
            /* sizes from 1 byte to ~1 MiB, small ones more often */
            size_t bytes = (size_t)1 << ((s >> 8) % 21);
            bytes += (s >> 4) % bytes;
            void *p;
            size_t want = model_alloc(m, &nm, ss_device_buffer_bytes(bytes));
            ss_status st = ss__arena_alloc(&a, bytes, "t", &p);
            if (want == SIZE_MAX) {
                cr_assert_eq(st, SS_ERR_DEVICE_OOM, "op %d: model is out of memory", op);
                continue;
            }
            cr_assert_eq(st, SS_OK, "op %d", op);
            cr_assert_eq((size_t)((char *)p - a.base), want, "op %d: offset %zu, model %zu", op,
                         (size_t)((char *)p - a.base), want);
            live[nlive++] = p;
        } else {
            int k = (int)((s >> 8) % (uint32_t)nlive);
            model_free(m, &nm, (size_t)((char *)live[k] - a.base));
            cr_assert_eq(ss__arena_release(&a, live[k]), SS_OK, "op %d", op);
            cr_assert_eq(ss__arena_release(&a, live[k]), SS_ERR_INVALID, "op %d: double free",
                         op);
            live[k] = live[--nlive];
        }
        if (op % 97 == 0) {
            ss_memory_stats st;
            ss__arena_stats(&a, &st);
            size_t largest = 0, used = 0;
            for (int i = 0; i < nm; i++) {
                if (!m[i].live && m[i].size > largest)
                    largest = m[i].size;
                if (m[i].live)
                    used += m[i].size;
            }
            cr_assert_eq(st.largest_free, largest, "op %d", op);
            cr_assert_eq(st.live_bytes, used, "op %d", op);
            cr_assert_eq(st.live_count, nlive, "op %d", op);
        }
    }
    cr_assert_eq(ss__arena_release(&a, a.base + 64 * 3 + 1), SS_ERR_INVALID);
    ss__arena_free(&a);
}
