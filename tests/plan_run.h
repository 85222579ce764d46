/* plan_run.h — what the memory tests of a compiled program share
 * (test_loop_memory.c, test_bitcast_alias.c): eight devices of 64 MiB,
 * deterministic f32 data, a value's bytes per device, and the check that
 * every device's measured peak is the plan's. */
#ifndef SS_TESTS_PLAN_RUN_H
#define SS_TESTS_PLAN_RUN_H

#include "support.h"

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

#endif
