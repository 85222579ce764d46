/*
 * test_memory_model.c — ss_executable_plan_model: an accelerator
 * compiler's memory accounting over the plan. The references are the plan
 * without a model (ss_executable_plan_arrays) and the bytes of the
 * program's arguments and results, counted here from their shapes.
 */
#include "support.h"

#include <stdint.h>

/* x f32[64,32] @ w1 f32[32,256] -> h (a temporary, 64 KiB), h @ w2
 * f32[256,32] -> y, the result; with `exp_result`, y = tanh(exp(h @ w2)),
 * one fused loop written in place over the dot's temporary. */
typedef struct mlp {
    ss_mesh *mesh;
    ss_program *p;
    ss_executable *e;
    size_t args, result, h;
} mlp;

static void mlp_make(mlp *m, bool exp_result)
{
    TS_OK(ss_mesh_parse("x=1", 1, NULL, &m->mesh));
    TS_OK(ss_program_create(m->mesh, &m->p));
    int64_t xs[2] = {64, 32}, w1s[2] = {32, 256}, w2s[2] = {256, 32};
    ss_value x, w1, w2, h, y;
    TS_OK(ss_input(m->p, "x", SS_F32, 2, xs, NULL, &x));
    TS_OK(ss_input(m->p, "w1", SS_F32, 2, w1s, NULL, &w1));
    TS_OK(ss_input(m->p, "w2", SS_F32, 2, w2s, NULL, &w2));
    TS_OK(ss_matmul(m->p, x, w1, &h));
    TS_OK(ss_matmul(m->p, h, w2, &y));
    if (exp_result) {
        TS_OK(ss_unary(m->p, SS_EXP, y, &y));
        TS_OK(ss_unary(m->p, SS_TANH, y, &y));
    }
    TS_OK(ss_output(m->p, y, NULL));
    TS_OK(ss_program_compile(m->p, &m->e));
    m->args = ss_device_buffer_bytes(64 * 32 * 4) + ss_device_buffer_bytes(32 * 256 * 4) +
              ss_device_buffer_bytes(256 * 32 * 4);
    m->result = ss_device_buffer_bytes(64 * 32 * 4);
    m->h = ss_device_buffer_bytes(64 * 256 * 4);
}

static void mlp_free(mlp *m)
{
    ss_executable_destroy(m->e);
    ss_program_destroy(m->p);
    ss_mesh_destroy(m->mesh);
}

/* No on-chip memory and dense layout: the plan of the run on arrays. */
Test(memory_model, none_is_the_plain_plan)
{
    mlp m;
    mlp_make(&m, false);
    ss_plan plain, model;
    TS_OK(ss_executable_plan_arrays(m.e, NULL, &plain));
    ss_memory_model none = {SS_LAYOUT_DENSE, 0};
    TS_OK(ss_executable_plan_model(m.e, NULL, &none, &model));
    cr_assert_eq(model.peak_bytes, plain.peak_bytes);
    cr_assert_eq(model.flops, plain.flops);
    cr_assert_geq(plain.peak_bytes, m.args + m.h + m.result, "h and y live together: %zu",
                  plain.peak_bytes);
    mlp_free(&m);
}

/* Room for every temporary on chip: HBM holds the arguments and the
 * result, nothing else. */
Test(memory_model, temporaries_that_fit_leave_hbm)
{
    mlp m;
    mlp_make(&m, false);
    ss_memory_model big = {SS_LAYOUT_DENSE, (size_t)1 << 40};
    ss_plan plan;
    TS_OK(ss_executable_plan_model(m.e, NULL, &big, &plan));
    cr_assert_eq(plan.peak_bytes, m.args + m.result, "peak %zu, arguments %zu + result %zu",
                 plan.peak_bytes, m.args, m.result);
    mlp_free(&m);
}

/* A temporary one byte larger than the room stays in HBM: the peak is the
 * plain plan's (the room is too small for h, and h is the peak's only
 * temporary buffer). */
Test(memory_model, a_temporary_too_large_stays_in_hbm)
{
    mlp m;
    mlp_make(&m, false);
    ss_plan plain, plan;
    TS_OK(ss_executable_plan_arrays(m.e, NULL, &plain));
    ss_memory_model small = {SS_LAYOUT_DENSE, m.h - 1};
    TS_OK(ss_executable_plan_model(m.e, NULL, &small, &plan));
    cr_assert_geq(plan.peak_bytes, m.args + m.h + m.result, "peak %zu", plan.peak_bytes);
    cr_assert_leq(plan.peak_bytes, plain.peak_bytes);
    mlp_free(&m);
}

/* A result written in place over an on-chip temporary is still a result:
 * it is counted in HBM. */
Test(memory_model, results_written_over_temporaries_count)
{
    mlp m;
    mlp_make(&m, true);
    ss_memory_model big = {SS_LAYOUT_DENSE, (size_t)1 << 40};
    ss_plan plan;
    TS_OK(ss_executable_plan_model(m.e, NULL, &big, &plan));
    cr_assert_eq(plan.peak_bytes, m.args + m.result, "peak %zu, arguments %zu + result %zu",
                 plan.peak_bytes, m.args, m.result);
    mlp_free(&m);
}

/* The TPU layout sizes what stays in HBM: f32[64,32] pads its minor
 * dimension to 128 (ss_layout_array_bytes). */
Test(memory_model, layout_sizes_hbm)
{
    mlp m;
    mlp_make(&m, false);
    ss_memory_model tpu = {SS_LAYOUT_TPU, (size_t)1 << 40};
    ss_plan plan;
    TS_OK(ss_executable_plan_model(m.e, NULL, &tpu, &plan));
    int64_t xs[2] = {64, 32}, w1s[2] = {32, 256}, w2s[2] = {256, 32};
    size_t want = ss_device_buffer_bytes(ss_layout_array_bytes(SS_LAYOUT_TPU, SS_F32, 2, xs)) * 2 +
                  ss_device_buffer_bytes(ss_layout_array_bytes(SS_LAYOUT_TPU, SS_F32, 2, w1s)) +
                  ss_device_buffer_bytes(ss_layout_array_bytes(SS_LAYOUT_TPU, SS_F32, 2, w2s));
    cr_assert_eq(plan.peak_bytes, want, "peak %zu, want %zu", plan.peak_bytes, want);
    cr_assert_gt(want, m.args + m.result, "padding counted");
    ss_memory_model bad = {(ss_memory_layout)7, 0};
    cr_assert_eq(ss_executable_plan_model(m.e, NULL, &bad, &plan), SS_ERR_INVALID);
    cr_assert_eq(ss_executable_plan_model(m.e, NULL, NULL, &plan), SS_ERR_INVALID);
    mlp_free(&m);
}

/* The TPU profiles carry their HBM and their compiler's accounting. */
Test(memory_model, tpu_profiles)
{
    const ss_hw_profile *e = ss_hw_profile_find("tpu-v5e"), *p = ss_hw_profile_find("tpu-v5p");
    cr_assert(e && p);
    cr_assert_eq(e->hbm_bytes, (size_t)16 << 30);
    cr_assert_eq(p->hbm_bytes, (size_t)95 << 30);
    cr_assert_eq(e->memory.layout, SS_LAYOUT_TPU);
    cr_assert_eq(p->memory.layout, SS_LAYOUT_TPU);
    cr_assert_gt(e->memory.onchip_bytes, 0u);
    cr_assert_eq(p->memory.onchip_bytes, 0u);
}
