/* test_shared_rules.c — the rules the library writes once and every layer
 * uses: a buffer's size in device memory, the cost model's ring step counts
 * and formulas, the nccl-tests bus-bandwidth factor, byte and shape text,
 * reading a whole file, 16-bit float rounding. Each is checked against values computed by hand.
 * The text, file and 16-bit helpers are internal (base/), tested here on
 * purpose: every report, message and 16-bit value goes through them. */
#include "support.h"

#include "base/base.h"
#include "base/half.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --- A buffer's size in device memory --- */

Test(shared_rules, buffer_bytes_round_to_64)
{
    cr_assert_eq(ss_device_buffer_bytes(0), 64u); /* a 0-byte buffer takes one unit */
    cr_assert_eq(ss_device_buffer_bytes(1), 64u);
    cr_assert_eq(ss_device_buffer_bytes(64), 64u);
    cr_assert_eq(ss_device_buffer_bytes(65), 128u);
    cr_assert_eq(ss_device_buffer_bytes(1000), 1024u);
    cr_assert_eq(ss_device_buffer_bytes(4096), 4096u);
    /* 2^64 - 65 rounds up to 2^64 - 64; one byte more no longer fits. */
    cr_assert_eq(ss_device_buffer_bytes(SIZE_MAX - 64), SIZE_MAX - 63);
    cr_assert_eq(ss_device_buffer_bytes(SIZE_MAX - 63), SIZE_MAX);
    cr_assert_eq(ss_device_buffer_bytes(SIZE_MAX), SIZE_MAX);
}

/* Aligning a piece inside one buffer: 0 stays 0, unlike a whole buffer. */
Test(shared_rules, align64_of_pieces)
{
    cr_assert_eq(ss__align64(0), 0u);
    cr_assert_eq(ss__align64(1), 64u);
    cr_assert_eq(ss__align64(64), 64u);
    cr_assert_eq(ss__align64(65), 128u);
    cr_assert_eq(ss__align64(4000), 4032u);
}

/* The allocator charges what the rule says: 65 + 1 + 0 bytes live are
 * 128 + 64 + 64 bytes of device memory. */
Test(shared_rules, allocator_charges_the_rounded_size)
{
    ss_context_options o = {.ndevices = 1, .device_memory = (size_t)1 << 20};
    ss_context *ctx;
    cr_assert_eq(ss_context_create(&o, &ctx), SS_OK, "%s", ss_error_message());
    void *a, *b, *c;
    cr_assert_eq(ss_device_alloc(ctx, 0, 65, "a", &a), SS_OK);
    cr_assert_eq(ss_device_alloc(ctx, 0, 1, "b", &b), SS_OK);
    cr_assert_eq(ss_device_alloc(ctx, 0, 0, "c", &c), SS_OK);
    ss_memory_stats s;
    cr_assert_eq(ss_device_memory_stats(ctx, 0, &s), SS_OK);
    cr_assert_eq(s.live_bytes, 256u);
    cr_assert_eq(s.live_bytes, ss_device_buffer_bytes(65) + ss_device_buffer_bytes(1) +
                                   ss_device_buffer_bytes(0));
    ss_device_free(ctx, 0, a);
    ss_device_free(ctx, 0, b);
    ss_device_free(ctx, 0, c);
    ss_context_destroy(ctx);
}

/* --- The cost model --- */

Test(shared_rules, ring_step_counts)
{
    /* A ring all-gather on n devices: each device forwards one block per
     * step until it has all n, so n-1 steps; reduce-scatter likewise. */
    cr_assert_eq(ss_coll_ring_steps(SS_COLL_ALL_GATHER, 8), 7);
    cr_assert_eq(ss_coll_ring_steps(SS_COLL_REDUCE_SCATTER, 4), 3);
    /* All-reduce = reduce-scatter + all-gather: 2(n-1). */
    cr_assert_eq(ss_coll_ring_steps(SS_COLL_ALL_REDUCE, 8), 14);
    cr_assert_eq(ss_coll_ring_steps(SS_COLL_ALL_REDUCE, 2), 2);
    cr_assert_eq(ss_coll_ring_steps(SS_COLL_ALL_TO_ALL, 4), 3);
    cr_assert_eq(ss_coll_ring_steps(SS_COLL_BROADCAST, 16), 15);
    cr_assert_eq(ss_coll_ring_steps(SS_COLL_PERMUTE, 8), 1);
    /* A group of one moves nothing around a ring; a permute is one send. */
    cr_assert_eq(ss_coll_ring_steps(SS_COLL_ALL_REDUCE, 1), 0);
    cr_assert_eq(ss_coll_ring_steps(SS_COLL_ALL_GATHER, 1), 0);
    cr_assert_eq(ss_coll_ring_steps(SS_COLL_PERMUTE, 1), 1);
}

Test(shared_rules, ring_bytes_are_steps_times_one_block)
{
    /* Around a ring each step forwards one of the n blocks of the buffer
     * (S/n bytes), so a device sends steps x S/n: all-reduce 2(n-1) blocks
     * of its buffer, all-gather n-1 blocks of the gathered output,
     * reduce-scatter n-1 blocks of its input. The busbw factor is the same
     * count for one byte (nccl-tests' PERFORMANCE.md). */
    const ss_coll_kind kinds[] = {SS_COLL_ALL_REDUCE, SS_COLL_ALL_GATHER, SS_COLL_REDUCE_SCATTER};
    for (int k = 0; k < 3; k++)
        for (int64_t n = 1; n <= 16; n *= 2) {
            double S = 4096.0 * (double)n, block = S / (double)n;
            double walked = (double)ss_coll_ring_steps(kinds[k], n) * block;
            cr_assert_float_eq(ss_coll_ring_bytes(kinds[k], n, S), walked, 1e-9,
                               "%s n=%lld", ss_coll_kind_name(kinds[k]), (long long)n);
            cr_assert_float_eq(ss_coll_busbw_factor(kinds[k], n) * S, walked, 1e-9);
        }
    /* A broadcast sends the whole buffer once there is anyone to send to. */
    cr_assert_float_eq(ss_coll_ring_bytes(SS_COLL_BROADCAST, 8, 100.0), 100.0, 0);
    cr_assert_float_eq(ss_coll_ring_bytes(SS_COLL_BROADCAST, 1, 100.0), 0.0, 0);
}

Test(shared_rules, hardware_profiles_are_one_table_found_by_name)
{
    cr_assert(ss_hw_profile_count() >= 3);
    for (int i = 0; i < ss_hw_profile_count(); i++) {
        const ss_hw_profile *p = ss_hw_profile_get(i);
        cr_assert_not_null(p);
        cr_assert_eq(ss_hw_profile_find(p->name), p, "%s", p->name);
        cr_assert(p->flops_f32 > 0 && p->hbm_bw > 0 && p->link_bw > 0 && p->net_bw > 0 &&
                      p->devices_per_node > 0,
                  "%s", p->name);
    }
    cr_assert_null(ss_hw_profile_get(ss_hw_profile_count()));
    cr_assert_null(ss_hw_profile_get(-1));
    cr_assert_null(ss_hw_profile_find("tpu-v0"));
    cr_assert_null(ss_hw_profile_find(NULL));
    /* Cloud TPU v5e's published figures: 197 TFLOP/s bf16, 819 GB/s HBM. */
    const ss_hw_profile *v5e = ss_hw_profile_find("tpu-v5e");
    cr_assert_not_null(v5e);
    cr_assert_float_eq(v5e->flops_bf16, 197e12, 1);
    cr_assert_float_eq(v5e->hbm_bw, 819e9, 1);
}

Test(shared_rules, step_estimate_of_one_all_reduce)
{
    /* x f32[8, 1024] sharded P(None, 'x') on 8 devices, summed over its
     * sharded dim: each device sums its block, then one all-reduce of the
     * f32[8] partial sums. Under tpu-v5e (8 devices inside one 256-chip
     * slice: ICI) comm = 2 x 7 steps x alpha + 2 x 7/8 x 32 bytes / bw. */
    ss_mesh *m = ts_make_mesh("x=8", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P(None, 'x')", 2, 8, 1024), y;
    int axes[1] = {1};
    TS_OK(ss_reduce(p, SS_REDUCE_SUM, x, 1, axes, 0, &y));
    ss_spec rep = ts_spec("P(None)");
    TS_OK(ss_output(p, y, &rep));
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    cr_assert_eq(ss_executable_ledger_count(e), 1);
    const ss_hw_profile *v5e = ss_hw_profile_find("tpu-v5e");
    ss_step_estimate est;
    TS_OK(ss_estimate_step(e, m, v5e, &est));
    double want = 14 * v5e->link_alpha + 2.0 * 7.0 / 8.0 * 32.0 / v5e->link_bw;
    cr_assert_float_eq(est.comm, want, 1e-15, "comm %g, want %g", est.comm, want);
    cr_assert(est.compute > 0);
    cr_assert_float_eq(est.total, est.compute + est.comm, 1e-18);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(shared_rules, numpy_text_of_a_host_array)
{
    /* str(np.arange(6, dtype=np.float32).reshape(2, 3)) and
     * str(np.array([1, 2, 3], dtype=np.int32)), as numpy prints them. */
    float f[6] = {0, 1, 2, 3, 4, 5};
    int32_t i[3] = {1, 2, 3};
    int64_t s23[2] = {2, 3}, s3[1] = {3};
    char *text = NULL;
    TS_OK(ss_format_numpy(SS_F32, 2, s23, f, &text));
    cr_assert_str_eq(text, "[[0. 1. 2.]\n [3. 4. 5.]]");
    free(text);
    TS_OK(ss_format_numpy(SS_I32, 1, s3, i, &text));
    cr_assert_str_eq(text, "[1 2 3]");
    free(text);
    cr_assert_eq(ss_format_numpy(SS_F32, 1, s3, NULL, &text), SS_ERR_INVALID);
    cr_assert_null(text);
}

Test(shared_rules, collective_seconds_alpha_beta)
{
    /* All-reduce over 4 devices, 3 MB sent per device at 1 GB/s, 1 us per
     * step: 6 x 1e-6 + 3e6 / 1e9 = 0.003006 s. */
    cr_assert_float_eq(ss_estimate_coll_seconds(SS_COLL_ALL_REDUCE, 4, 3e6, 1e9, 1e-6), 0.003006,
                       1e-15);
    /* All-gather over 8: 7 steps of 10 us + 7 MB at 50 GB/s = 70e-6 + 140e-6. */
    cr_assert_float_eq(ss_estimate_coll_seconds(SS_COLL_ALL_GATHER, 8, 7e6, 50e9, 10e-6), 210e-6,
                       1e-15);
    /* A permute that sends nothing still pays its one step. */
    cr_assert_float_eq(ss_estimate_coll_seconds(SS_COLL_PERMUTE, 8, 0, 1e9, 2e-6), 2e-6, 1e-18);
}

Test(shared_rules, kernel_seconds_roofline)
{
    /* 2 TFLOP at 1 TFLOP/s (2 s) against 1 GB at 1 GB/s (1 s): compute bound. */
    cr_assert_float_eq(ss_estimate_kernel_seconds(2e12, 1e9, 1e12, 1e9), 2.0, 1e-12);
    /* 1 GFLOP at 1 TFLOP/s (1 ms) against 4 GB at 2 GB/s (2 s): memory bound. */
    cr_assert_float_eq(ss_estimate_kernel_seconds(1e9, 4e9, 1e12, 2e9), 2.0, 1e-12);
    cr_assert_float_eq(ss_estimate_kernel_seconds(0, 0, 1e12, 1e9), 0.0, 1e-18);
}

Test(shared_rules, busbw_factor_nccl_tests)
{
    /* nccl-tests doc/PERFORMANCE.md: all-reduce 2(n-1)/n, all-gather and
     * reduce-scatter (n-1)/n. */
    cr_assert_float_eq(ss_coll_busbw_factor(SS_COLL_ALL_REDUCE, 8), 1.75, 1e-15);
    cr_assert_float_eq(ss_coll_busbw_factor(SS_COLL_ALL_GATHER, 4), 0.75, 1e-15);
    cr_assert_float_eq(ss_coll_busbw_factor(SS_COLL_REDUCE_SCATTER, 2), 0.5, 1e-15);
    cr_assert_float_eq(ss_coll_busbw_factor(SS_COLL_ALL_TO_ALL, 8), 0.875, 1e-15);
    cr_assert_float_eq(ss_coll_busbw_factor(SS_COLL_PERMUTE, 8), 1.0, 1e-15);
}

/* --- Byte and shape text --- */

static const char *bytes1(double v, char *out, size_t cap)
{
    ss__fmt_bytes(out, cap, v);
    return out;
}

static const char *bytes_exact(double v, char *out, size_t cap)
{
    ss__fmt_bytes_exact(out, cap, v);
    return out;
}

Test(shared_rules, byte_text)
{
    char t[32];
    cr_assert_str_eq(bytes1(0, t, sizeof t), "0 B");
    cr_assert_str_eq(bytes1(1023, t, sizeof t), "1023 B");
    cr_assert_str_eq(bytes1(1024, t, sizeof t), "1.0 KiB");
    cr_assert_str_eq(bytes1(1536, t, sizeof t), "1.5 KiB");
    cr_assert_str_eq(bytes1(3.25 * 1048576, t, sizeof t), "3.2 MiB"); /* 3.25 rounds to even */
    cr_assert_str_eq(bytes1(16.0 * 1073741824, t, sizeof t), "16.0 GiB");
    cr_assert_str_eq(bytes1(2048.0 * 1099511627776.0, t, sizeof t), "2048.0 TiB"); /* TiB at most */
    cr_assert_str_eq(bytes_exact(512, t, sizeof t), "512 B");
    cr_assert_str_eq(bytes_exact(16.0 * 1073741824, t, sizeof t), "16 GiB");
    cr_assert_str_eq(bytes_exact(1.5 * 1048576, t, sizeof t), "1.50 MiB");
    cr_assert_str_eq(bytes_exact(1025, t, sizeof t), "1.00 KiB"); /* not whole: two decimals */
}

Test(shared_rules, shape_text)
{
    char t[SS__SHAPE_TEXT_MAX];
    const int64_t s[] = {8, 1024};
    cr_assert_str_eq(ss__shape_text(t, sizeof t, SS_F32, 2, s), "f32[8,1024]");
    cr_assert_str_eq(ss__shape_text(t, sizeof t, SS_BF16, 0, s), "bf16[]");
    int64_t big[SS_MAX_RANK];
    for (int d = 0; d < SS_MAX_RANK; d++)
        big[d] = INT64_MAX;
    ss__shape_text(t, sizeof t, SS_BOOL, SS_MAX_RANK, big); /* the largest fits */
    cr_assert_eq(t[strlen(t) - 1], ']');
    cr_assert_eq(strlen(t), 4 + 1 + SS_MAX_RANK * 19 + (SS_MAX_RANK - 1) + 1);
    char small[6];
    cr_assert_str_eq(ss__shape_text(small, sizeof small, SS_F32, 2, s), "f32[8"); /* cut short */
    ss__buf b;
    ss__buf_init(&b);
    ss__shape_repr_buf(&b, SS_I32, 2, s);
    cr_assert_str_eq(b.data, "i32[8,1024]");
    ss__buf_free(&b);
}

/* --- Reading a whole file --- */

static char *temp_file(const char *data, size_t n)
{
    char *path = strdup("/tmp/ss_rules_XXXXXX");
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, data, n), (ssize_t)n);
    close(fd);
    return path;
}

Test(shared_rules, read_file_whole_and_limits)
{
    /* Larger than the reader's first buffer (64 KiB), with a NUL inside:
     * every byte comes back, and a NUL after them. */
    size_t n = 200001;
    char *data = malloc(n);
    for (size_t i = 0; i < n; i++)
        data[i] = (char)(i * 7 % 251);
    char *path = temp_file(data, n);
    char *got;
    size_t len;
    cr_assert_eq(ss__read_file(path, SIZE_MAX, &got, &len), 0);
    cr_assert_eq(len, n);
    cr_assert_eq(memcmp(got, data, n), 0);
    cr_assert_eq(got[n], '\0');
    free(got);
    cr_assert_eq(ss__read_file(path, n, &got, NULL), 0); /* exactly the limit */
    free(got);
    cr_assert_eq(ss__read_file(path, n - 1, &got, &len), EFBIG);
    cr_assert_null(got);
    unlink(path);
    free(path);
    free(data);

    path = temp_file("", 0);
    cr_assert_eq(ss__read_file(path, 0, &got, &len), 0);
    cr_assert_eq(len, 0u);
    cr_assert_str_eq(got, "");
    free(got);
    unlink(path);
    free(path);

    cr_assert_eq(ss__read_file("/nonexistent/ss_rules", SIZE_MAX, &got, &len), ENOENT);
    cr_assert_null(got);
}

/* --- 16-bit floats: round to nearest, ties to even (IEEE 754) --- */

Test(shared_rules, half_and_bfloat16_rounding)
{
    cr_assert_eq(ss__f32_to_bf16(1.0f), 0x3f80);
    /* 1 + 2^-8 lies halfway between bf16 1 (0x3f80) and 1 + 2^-7 (0x3f81):
     * the even one, 0x3f80. 1 + 3 x 2^-8 lies halfway between 0x3f81 and
     * 0x3f82: 0x3f82. */
    cr_assert_eq(ss__f32_to_bf16(1.00390625f), 0x3f80);
    cr_assert_eq(ss__f32_to_bf16(1.01171875f), 0x3f82);
    cr_assert_float_eq(ss__bf16_to_f32(0x3f82), 1.015625f, 0);
    cr_assert_eq(ss__f32_to_f16(1.0f), 0x3c00);
    cr_assert_eq(ss__f32_to_f16(65504.0f), 0x7bff);   /* the largest half */
    cr_assert_eq(ss__f32_to_f16(65520.0f), 0x7c00);   /* halfway to 2^16: infinity */
    cr_assert_eq(ss__f32_to_f16(0x1p-24f), 0x0001);   /* the smallest subnormal */
    cr_assert_eq(ss__f32_to_f16(0x1p-25f), 0x0000);   /* a tie with 0: even */
    cr_assert_eq(ss__f32_to_f16(-2.0f), 0xc000);
    cr_assert_float_eq(ss__f16_to_f32(0x0001), 0x1p-24f, 0);
    cr_assert_float_eq(ss__f16_to_f32(0x7bff), 65504.0f, 0);
    uint16_t nan = ss__f32_to_f16(NAN);
    cr_assert((nan & 0x7c00) == 0x7c00 && (nan & 0x3ff) != 0, "NaN gave %04x", nan);
}
