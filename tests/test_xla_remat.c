/*
 * test_xla_remat.c — the plan's model of XLA's rematerialisation under the
 * HBM limit (sim/spmd/xla_remat.c, ss_memory_model.xla_remat_limit_bytes):
 * over the budget, a value alive at the peak that the peak does not read
 * is freed and computed again before its next reader, which lowers the
 * peak by its bytes; within the budget nothing changes; the peak detail
 * lists the value as recomputed, outside the peak's sum; the run is
 * untouched (the single-device values). Which values XLA's TPU compiler
 * recomputes, and its budget, are held to libtpu's compiled HLO in
 * tests/xla_tpu/test_remat.py.
 */
#include "plan_run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { M = 128, K = 256, N = 512, N2 = 2048 };

/* out = (x @ w) * ((x @ v) @ u): h = x @ w is made first and read last;
 * the peak is at (x @ v) @ u, where h is alive but not read, and its
 * operands (arguments) are alive to the end. */
static ss_program *late_read_program(ss_mesh *mesh)
{
    ss_program *p;
    TS_OK(ss_program_create(mesh, &p));
    int64_t xs[2] = {M, K}, ws[2] = {K, N}, vs[2] = {K, N2}, us[2] = {N2, N};
    ss_spec none;
    TS_OK(ss_spec_parse("P()", &none));
    ss_value x, w, v, u, h, g, t, y;
    TS_OK(ss_input(p, "x", SS_F32, 2, xs, &none, &x));
    TS_OK(ss_input(p, "w", SS_F32, 2, ws, &none, &w));
    TS_OK(ss_input(p, "v", SS_F32, 2, vs, &none, &v));
    TS_OK(ss_input(p, "u", SS_F32, 2, us, &none, &u));
    TS_OK(ss_matmul(p, x, w, &h));
    TS_OK(ss_matmul(p, x, v, &g));
    TS_OK(ss_matmul(p, g, u, &t));
    TS_OK(ss_binary(p, SS_MUL, h, t, &y));
    TS_OK(ss_output(p, y, NULL));
    return p;
}

/* The fusion model alone (the rematerialisation runs on its copy), with
 * `budget` as the rematerialisation budget. */
static ss_memory_model with_budget(size_t budget)
{
    return (ss_memory_model){.layout = SS_LAYOUT_DENSE, .xla_fusion = true,
                             .xla_remat_limit_bytes = budget};
}

/* The peak detail under `model`: how many entries are recomputed, their
 * bytes, and whether the others sum to the plan's peak. */
static int recomputed(const ss_executable *e, const ss_memory_model *model, size_t *bytes,
                      size_t *peak)
{
    ss_live_buffer buf[64];
    int n = 0, r = 0;
    ss_plan plan;
    TS_OK(ss_executable_peak_detail(e, NULL, model, buf, 64, &n, &plan));
    size_t sum = 0;
    *bytes = 0;
    for (int k = 0; k < n; k++) {
        if (buf[k].role == SS_BUFFER_RECOMPUTED) {
            r++;
            *bytes += buf[k].bytes;
        } else {
            sum += buf[k].bytes;
        }
    }
    cr_assert_eq(sum, plan.peak_bytes, "entries %zu, peak %zu", sum, plan.peak_bytes);
    *peak = plan.peak_bytes;
    return r;
}

Test(xla_remat, a_value_alive_across_the_peak_is_recomputed_over_the_budget)
{
    ss_mesh *mesh = ts_make_mesh("x=8", 8);
    ss_program *p = late_read_program(mesh);
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    ss_memory_model none = with_budget(0);
    ss_plan before, after;
    TS_OK(ss_executable_plan_model(e, NULL, &none, &before));
    size_t h = ss_device_buffer_bytes((size_t)M * N * 4);

    /* Within the budget: the same plan, nothing recomputed. */
    ss_memory_model roomy = with_budget(before.peak_bytes);
    TS_OK(ss_executable_plan_model(e, NULL, &roomy, &after));
    cr_assert_eq(after.peak_bytes, before.peak_bytes);
    size_t rb, peak;
    cr_assert_eq(recomputed(e, &roomy, &rb, &peak), 0);

    /* A byte over it: x @ w is freed across the peak, its bytes saved. */
    ss_memory_model tight = with_budget(before.peak_bytes - 1);
    TS_OK(ss_executable_plan_model(e, NULL, &tight, &after));
    cr_assert_eq(before.peak_bytes - after.peak_bytes, h, "peak %zu -> %zu", before.peak_bytes,
                 after.peak_bytes);
    cr_assert_eq(recomputed(e, &tight, &rb, &peak), 1);
    cr_assert_eq(rb, h);
    cr_assert_eq(peak, after.peak_bytes);
    /* Recomputing costs its FLOPs again. */
    cr_assert_float_eq(after.flops - before.flops, 2.0 * M * K * N, 1.0, "flops %g -> %g",
                       before.flops, after.flops);

    /* The run is untouched: the single-device values, the plain plan. */
    pr_run_close_to_eval(p, e, 4,
                         (size_t[]){(size_t)M * K, (size_t)K * N, (size_t)K * N2, (size_t)N2 * N},
                         (size_t)M * N, "y");
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(mesh);
}

/* Below what any recomputation reaches: x @ w is the only value it can
 * free (the peak reads the others), so the plan stops there, over the
 * budget. */
Test(xla_remat, stops_when_nothing_more_can_be_recomputed)
{
    ss_mesh *mesh = ts_make_mesh("x=8", 8);
    ss_program *p = late_read_program(mesh);
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    ss_memory_model none = with_budget(0), tiny = with_budget(1);
    ss_plan before, after;
    TS_OK(ss_executable_plan_model(e, NULL, &none, &before));
    TS_OK(ss_executable_plan_model(e, NULL, &tiny, &after));
    size_t h = ss_device_buffer_bytes((size_t)M * N * 4), rb, peak;
    cr_assert_eq(before.peak_bytes - after.peak_bytes, h);
    cr_assert_eq(recomputed(e, &tiny, &rb, &peak), 1);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(mesh);
}
