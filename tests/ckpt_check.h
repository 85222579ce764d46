/* ckpt_check.h — helpers for test_ckpt.c and test_ckpt_faults.c: a fresh
 * directory under /tmp per test (removed at the end), contexts, meshes and
 * shardings from text, arrays filled with a pattern exact in every dtype the
 * tests use, and assertions on values and one-line errors. Static inline:
 * include from test files only. */
#ifndef SS_TEST_CKPT_CHECK_H
#define SS_TEST_CKPT_CHECK_H

#include "support.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmp_root[64];

static inline void make_tmp(void)
{
    snprintf(tmp_root, sizeof tmp_root, "/tmp/ss_ckpt_XXXXXX");
    cr_assert(mkdtemp(tmp_root) != NULL, "mkdtemp: %s", strerror(errno));
}

static inline int rm_one(const char *path, const struct stat *sb, int flag,
                         struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static inline void rm_tmp(void)
{
    if (tmp_root[0])
        nftw(tmp_root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    tmp_root[0] = '\0';
}

static inline char *path_of(const char *fmt, const char *a)
{
    static char buf[4][512];
    static int k;
    char *p = buf[k++ & 3];
    char rel[400];
    snprintf(rel, sizeof rel, fmt, a);
    snprintf(p, 512, "%s/%s", tmp_root, rel);
    return p;
}

static inline char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    cr_assert_eq(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

static inline ss_context *make_ctx(int n, size_t mem)
{
    ss_context_options o = {.ndevices = n, .device_memory = mem ? mem : (size_t)256 << 20};
    ss_context *ctx;
    cr_assert_eq(ss_context_create(&o, &ctx), SS_OK, "%s", ss_error_message());
    return ctx;
}

static inline ss_mesh *mesh(const char *text, int devices)
{
    ss_mesh *m;
    cr_assert_eq(ss_mesh_make(text, devices, NULL, &m), SS_OK, "%s", ss_error_message());
    return m;
}

static inline ss_sharding sharding(const ss_mesh *m, const char *spec)
{
    ss_spec s;
    cr_assert_eq(ss_spec_parse(spec, &s), SS_OK, "%s", ss_error_message());
    ss_sharding sh;
    ss_sharding_init(&sh, m, &s);
    return sh;
}

static inline int64_t numel(int rank, const int64_t shape[])
{
    int64_t n = 1;
    for (int d = 0; d < rank; d++)
        n *= shape[d];
    return n;
}

/* Element i of pattern `seed`: integers in [-125, 125], exact in every dtype
 * used (bfloat16 included). */
static inline double pattern(int64_t i, int seed)
{
    return (double)((i * 7 + seed * 13) % 251) - 125;
}

static inline void *host_pattern(ss_dtype dt, int64_t n, int seed)
{
    size_t es = ss_dtype_size(dt);
    unsigned char *p = malloc((size_t)n * es + 1);
    for (int64_t i = 0; i < n; i++) {
        double v = pattern(i, seed);
        switch (dt) {
        case SS_F32: { float f = (float)v; memcpy(p + i * 4, &f, 4); break; }
        case SS_F64: memcpy(p + i * 8, &v, 8); break;
        case SS_I32: { int32_t x = (int32_t)v; memcpy(p + i * 4, &x, 4); break; }
        case SS_BF16: { float f = (float)v; uint32_t u; memcpy(&u, &f, 4);
                        uint16_t h = (uint16_t)(u >> 16); memcpy(p + i * 2, &h, 2); break; }
        default: cr_assert_fail("dtype %s not in the pattern helper", ss_dtype_name(dt));
        }
    }
    return p;
}

static inline ss_array *put(ss_context *ctx, const ss_sharding *sh, ss_dtype dt, int rank,
                            const int64_t shape[], int seed)
{
    void *h = host_pattern(dt, numel(rank, shape), seed);
    ss_array *a;
    cr_assert_eq(ss_array_put(ctx, sh, rank, shape, dt, h, "a", &a), SS_OK, "%s",
                 ss_error_message());
    free(h);
    return a;
}

/* The array holds pattern `seed` (compared in its own dtype). */
static inline void expect_pattern(const ss_array *a, int seed)
{
    int64_t n = numel(ss_array_rank(a), ss_array_shape(a));
    size_t bytes = (size_t)n * ss_dtype_size(ss_array_dtype(a));
    void *got = malloc(bytes + 1);
    cr_assert_eq(ss_array_get(a, got, bytes), SS_OK, "%s", ss_error_message());
    void *want = host_pattern(ss_array_dtype(a), n, seed);
    cr_assert(memcmp(got, want, bytes) == 0, "values differ from pattern %d", seed);
    free(got);
    free(want);
}

static inline ss_ckpt_target target(const char *name, ss_dtype dt, int rank,
                                    const int64_t shape[], const ss_sharding *sh)
{
    ss_ckpt_target t;
    memset(&t, 0, sizeof t);
    t.name = name;
    t.dtype = dt;
    t.rank = rank;
    for (int d = 0; d < rank; d++)
        t.shape[d] = shape[d];
    if (sh)
        t.sharding = *sh;
    return t;
}

static inline void save(ss_context *ctx, int64_t step, int n, const char *names[],
                        ss_array *arrays[], ss_ckpt_compression comp)
{
    ss_ckpt_save_options o = {.compression = comp};
    cr_assert_eq(ss_ckpt_save(ctx, tmp_root, step, n, names, arrays, &o, NULL), SS_OK, "%s",
                 ss_error_message());
}


static inline void flip_byte(const char *path, long off)
{
    int fd = open(path, O_RDWR);
    cr_assert(fd >= 0, "open %s", path);
    unsigned char c;
    cr_assert_eq(pread(fd, &c, 1, off), 1);
    c ^= 0x5A;
    cr_assert_eq(pwrite(fd, &c, 1, off), 1);
    close(fd);
}

/* Save one array 'w' f32[256,256] P('x') over 2 devices: chunks 0.0 and 1.0. */
static inline void save_w(ss_context *ctx, const ss_mesh *m, ss_ckpt_compression comp)
{
    ss_sharding sh = sharding(m, "P('x')");
    ss_array *a = put(ctx, &sh, SS_F32, 2, (int64_t[]){256, 256}, 4);
    const char *names[] = {"w"};
    save(ctx, 1, 1, names, &a, comp);
    ss_array_destroy(a);
}

static inline ss_status restore_w(ss_context *ctx, const ss_mesh *m, const char *spec)
{
    ss_sharding sh = sharding(m, spec);
    ss_ckpt_target t = target("w", SS_F32, 2, (int64_t[]){256, 256}, &sh);
    ss_ckpt_state *s;
    ss_status st = ss_ckpt_restore(ctx, tmp_root, 1, 1, &t, NULL, &s, NULL);
    if (st == SS_OK)
        expect_pattern(ss_ckpt_state_array(s, 0), 4);
    ss_ckpt_state_destroy(s);
    return st;
}

static inline void expect_error(ss_status got, ss_status want, const char *needle)
{
    cr_assert_eq(got, want, "status %s, want %s: %s", ss_status_name(got), ss_status_name(want),
                 ss_error_message());
    cr_assert(strstr(ss_error_message(), needle), "'%s' not in: %s", needle,
              ss_error_message());
    cr_assert_null(strchr(ss_error_message(), '\n'), "not one line: %s", ss_error_message());
}

static inline void expect_verify_finds(const char *needle)
{
    int problems = 0;
    ss_status st = ss_ckpt_verify(tmp_root, -1, NULL, NULL, &problems);
    cr_assert_neq(st, SS_OK);
    cr_assert_geq(problems, 1);
    cr_assert(strstr(ss_error_message(), needle), "verify: '%s' not in: %s", needle,
              ss_error_message());
}


#endif
