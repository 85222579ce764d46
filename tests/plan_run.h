/* plan_run.h — what the memory tests of a compiled program share
 * (test_loop_memory.c, test_bitcast_alias.c; test_uneven.c the plan check):
 * eight devices of 64 MiB, deterministic f32 data, a value's bytes per
 * device, the check that every device's measured peak is the plan's, and a
 * loop that stacks its carry. */
#ifndef SS_TESTS_PLAN_RUN_H
#define SS_TESTS_PLAN_RUN_H

#include "support.h"

#include <math.h>

static inline ss_context *pr_make_ctx(void)
{
    ss_context_options co = {.ndevices = 8, .device_memory = (size_t)64 << 20, .timeout = 30};
    ss_context *ctx;
    TS_OK(ss_context_create(&co, &ctx));
    return ctx;
}

/* Values k/64 for k in -500..499, in a seed-dependent order. */
static inline void pr_fill(float *v, size_t n, int seed)
{
    for (size_t k = 0; k < n; k++)
        v[k] = (float)((int)((k * 2654435761u + (unsigned)seed) % 1000) - 500) / 64.0f;
}

/* Per-device bytes of value v (f32, `rank` dims `shape`) of compiled p. */
static inline size_t pr_device_bytes(const ss_program *p, ss_value v, int rank,
                                     const int64_t shape[])
{
    ss_sharding sh;
    int64_t local[SS_MAX_RANK];
    TS_OK(ss_value_sharding(p, v, &sh));
    TS_OK(ss_sharding_shard_shape(&sh, rank, shape, local));
    size_t n = sizeof(float);
    for (int d = 0; d < rank; d++)
        n *= (size_t)local[d];
    return n;
}

/* got[0..n) equals want[0..n) within f32 rounding of want's largest
 * magnitude: a sharded dot sums its partial products in another order than
 * the single-device one. */
static inline void pr_assert_close_to_largest(const float *got, const float *want, size_t n,
                                              const char *what)
{
    float scale = 0;
    for (size_t k = 0; k < n; k++)
        scale = fmaxf(scale, fabsf(want[k]));
    for (size_t k = 0; k < n; k++)
        cr_assert_float_eq(got[k], want[k], 1e-5f * scale, "%s[%zu] %g vs %g", what, k, got[k],
                           want[k]);
}

/* The plan's peak is every one of the 8 devices' measured peak; returns it. */
static inline size_t pr_plan_is_run(const ss_executable *e, ss_context *ctx)
{
    ss_plan plan;
    TS_OK(ss_executable_plan(e, &plan));
    for (int d = 0; d < 8; d++) {
        ss_memory_stats ms;
        TS_OK(ss_device_memory_stats(ctx, d, &ms));
        cr_assert_eq(ms.peak_bytes, plan.peak_bytes, "device %d: %zu measured, %zu planned", d,
                     ms.peak_bytes, plan.peak_bytes);
    }
    return plan.peak_bytes;
}

/* Runs compiled p (executable e) on 8 devices with inputs of n[0..nin)
 * floats each, filled by pr_fill with seeds 1, 2, ...: its one output of
 * nout floats equals p's single-device evaluation within f32 rounding of
 * its largest value (pr_assert_close_to_largest, named `what`), and the
 * plan's peak is every device's measured one (pr_plan_is_run). */
static inline void pr_run_close_to_eval(const ss_program *p, ss_executable *e, int nin,
                                        const size_t n[], size_t nout, const char *what)
{
    float *in[8] = {NULL};
    cr_assert(nin > 0 && nin <= 8);
    for (int k = 0; k < nin; k++) {
        in[k] = malloc(sizeof(float) * n[k]);
        cr_assert(in[k]);
        pr_fill(in[k], n[k], k + 1);
    }
    float *got = malloc(sizeof(float) * nout), *want = malloc(sizeof(float) * nout);
    cr_assert(got && want);
    void *ev[1] = {want}, *out[1] = {got};
    TS_OK(ss_program_eval(p, (const void *const *)in, ev));
    ss_context *ctx = pr_make_ctx();
    TS_OK(ss_executable_run(e, ctx, (const void *const *)in, out));
    pr_assert_close_to_largest(got, want, nout, what);
    pr_plan_is_run(e, ctx);
    ss_context_destroy(ctx);
    for (int k = 0; k < nin; k++)
        free(in[k]);
    free(got);
    free(want);
}

/* The loop both tests stack with, as JAX's scan stacks its residuals:
 * carries (i, h [R, D], stack [L, R, D]); while i < L: h = h * 0.5 + 1,
 * stack[i] = h. `user` of both callbacks is a const pr_stack_dims. */
typedef struct pr_stack_dims {
    int64_t L, R, D;
} pr_stack_dims;

static inline ss_status pr_stack_cond(ss_program *p, const ss_value c[], ss_value *pred, void *user)
{
    const pr_stack_dims *z = user;
    ss_value n;
    ss_status st = ss_constant_array(p, SS_I32, 0, NULL, &(int32_t){(int32_t)z->L}, &n);
    return st ? st : ss_compare(p, SS_CMP_LT, SS_CMP_SIGNED, c[0], n, pred);
}

static inline ss_status pr_stack_body(ss_program *p, const ss_value c[], ss_value next[],
                                      void *user)
{
    const pr_stack_dims *z = user;
    ss_value one, inc, half, t, row, zero, at[3];
    ss_status st;
    if ((st = ss_constant_array(p, SS_I32, 0, NULL, &(int32_t){1}, &inc)) ||
        (st = ss_binary(p, SS_ADD, c[0], inc, &next[0])) || (st = ss_constant(p, 1.0, &one)) ||
        (st = ss_constant(p, 0.5, &half)) || (st = ss_binary(p, SS_MUL, c[1], half, &t)) ||
        (st = ss_binary(p, SS_ADD, t, one, &next[1])) ||
        (st = ss_reshape(p, next[1], 3, (int64_t[]){1, z->R, z->D}, &row)) ||
        (st = ss_constant_array(p, SS_I32, 0, NULL, &(int32_t){0}, &zero)))
        return st;
    at[0] = c[0];
    at[1] = at[2] = zero;
    return ss_dynamic_update_slice(p, c[2], row, 3, at, &next[2]);
}

#endif
