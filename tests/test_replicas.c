/*
 * test_replicas.c — replicated work done once (sim/spmd/replicas.h): an
 * Adam step whose parameters are replicated over 'data' runs its update on
 * one device per replica group, and the results are bit for bit those of
 * the naive path (SHARDSIM_REPLICAS=each: every device computes
 * everything), at every count of devices computing at once, while every
 * device's measured peak stays the plan's.
 */
#include "support.h"

#include <stdlib.h>
#include <string.h>

static size_t value_bytes(const ss_program *p, ss_value v)
{
    int rank;
    int64_t shape[SS_MAX_RANK];
    TS_OK(ss_value_shape(p, v, NULL, &rank, shape));
    size_t n = 4;
    for (int d = 0; d < rank; d++)
        n *= (size_t)shape[d];
    return n;
}

/* Inputs: a fixed pseudo-random pattern (state included: a later step's
 * moments are not zero). */
static void **make_inputs(const ss_executable *e, const ss_program *p, int *ni)
{
    int n = 0;
    ss_value v;
    while (ss_executable_input(e, n, &v) == SS_OK)
        n++;
    void **in = calloc((size_t)n, sizeof *in);
    uint32_t s = 20u;
    for (int k = 0; k < n; k++) {
        TS_OK(ss_executable_input(e, k, &v));
        size_t cnt = value_bytes(p, v) / 4;
        float *f = malloc(cnt * 4);
        for (size_t i = 0; i < cnt; i++) {
            s = s * 1664525u + 1013904223u;
            f[i] = (float)((int)(s >> 9) % 2001 - 1000) / 1000.0f;
            if (k > 3) /* the second moments are not negative */
                f[i] = f[i] * f[i];
        }
        if (k == n - 1) /* Adam's step count */
            f[0] = 3.0f;
        in[k] = f;
    }
    *ni = n;
    return in;
}

/* Run e two steps (results fed back as the next params and state) on a
 * fresh context of `threads` computing devices, with the replicas' work
 * done once or naively; outputs into outs[] (malloc'd); the devices' peak
 * bytes into peak[], and the number of replica shares seen in the trace. */
static void run_steps(ss_executable *e, const ss_program *p, int devices, int threads,
                      bool naive, void **outs, size_t peak[], int *shares)
{
    if (naive)
        setenv("SHARDSIM_REPLICAS", "each", 1);
    else
        unsetenv("SHARDSIM_REPLICAS");
    int ni, no = 0;
    void **in = make_inputs(e, p, &ni);
    ss_value v;
    while (ss_executable_output(e, no, &v) == SS_OK)
        no++;
    cr_assert_eq(no, ni - 1, "outputs: the new params and state (x is kept)");
    for (int j = 0; j < no; j++) {
        TS_OK(ss_executable_output(e, j, &v));
        outs[j] = malloc(value_bytes(p, v));
    }
    ss_context_options co = {.ndevices = devices, .device_memory = (size_t)64 << 20,
                             .threads = threads, .timeout = 60};
    ss_context *ctx;
    TS_OK(ss_context_create(&co, &ctx));
    TS_OK(ss_context_trace_enable(ctx, 1));
    for (int step = 0; step < 2; step++) {
        TS_OK(ss_executable_run(e, ctx, (const void *const *)in, outs));
        for (int j = 0; j < no; j++) { /* outputs j = inputs j + 1 (after x) */
            TS_OK(ss_executable_output(e, j, &v));
            memcpy(in[j + 1], outs[j], value_bytes(p, v));
        }
    }
    *shares = 0;
    for (int d = 0; d < devices; d++) {
        ss_memory_stats ms;
        TS_OK(ss_device_memory_stats(ctx, d, &ms));
        peak[d] = ms.peak_bytes;
        for (int i = 0; i < ss_context_trace_count(ctx, d); i++) {
            ss_trace_event ev;
            TS_OK(ss_context_trace_get(ctx, d, i, &ev));
            *shares += ev.kind == SS_TRACE_WAIT && strncmp(ev.name, "share", 5) == 0;
        }
    }
    ss_context_destroy(ctx);
    for (int k = 0; k < ni; k++)
        free(in[k]);
    free(in);
    unsetenv("SHARDSIM_REPLICAS");
}

static void bit_identical_everywhere(const char *mesh, int devices)
{
    ss_program *p;
    ss_mesh *m = ts_make_mesh(mesh, devices);
    ss_executable *e = ts_adam_mlp_step(m, false, &p);
    ss_plan plan;
    TS_OK(ss_executable_plan(e, &plan));
    void *ref[8], *got[8];
    size_t peak[64];
    int shares;
    run_steps(e, p, devices, 1, true, ref, peak, &shares);
    cr_assert_eq(shares, 0, "the naive path shares nothing (%d shares)", shares);
    for (int d = 0; d < devices; d++)
        cr_assert_eq(peak[d], plan.peak_bytes, "%s, naive, device %d: peak %zu, plan %zu", mesh, d,
                     peak[d], plan.peak_bytes);
    int nout = 7; /* W1, W2, mu0, mu1, nu0, nu1, count */
    const int threads[] = {1, 2, devices};
    for (int t = 0; t < 3; t++) {
        run_steps(e, p, devices, threads[t], false, got, peak, &shares);
        cr_assert_gt(shares, 0, "%s, %d threads: no work was shared", mesh, threads[t]);
        for (int d = 0; d < devices; d++)
            cr_assert_eq(peak[d], plan.peak_bytes, "%s, %d threads, device %d: peak %zu, plan %zu",
                         mesh, threads[t], d, peak[d], plan.peak_bytes);
        for (int j = 0; j < nout; j++) {
            ss_value v;
            TS_OK(ss_executable_output(e, j, &v));
            cr_assert(memcmp(got[j], ref[j], value_bytes(p, v)) == 0,
                      "%s, %d threads: output %d differs from the naive path's", mesh,
                      threads[t], j);
            free(got[j]);
        }
    }
    for (int j = 0; j < nout; j++)
        free(ref[j]);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(replicas, adam_over_data_2x2_bit_identical_to_naive)
{
    bit_identical_everywhere("data=2,model=2", 4);
}

Test(replicas, adam_over_data_4x2_bit_identical_to_naive)
{
    bit_identical_everywhere("data=4,model=2", 8);
}
