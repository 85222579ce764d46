/*
 * test_case.c — conditionals (ss_switch: lax.switch, lax.cond, StableHLO
 * case and if) built with the public API, planned and run on a 2x4 mesh:
 * values against naive C per branch, the index out of range taking the
 * last branch (StableHLO's rule), the gradient of the selected branch only
 * (a log of zero in the branch that does not run gives no NaN, as JAX's
 * cond transpose gives none), and the plan holding the largest branch, not
 * the sum a select of both would need.
 */
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static ss_context *make_ctx(void)
{
    ss_context_options co = {.ndevices = 8, .device_memory = (size_t)64 << 20};
    ss_context *ctx;
    TS_OK(ss_context_create(&co, &ctx));
    return ctx;
}

/* Branch 0: log(x); branch 1: 2 * x; branch 2: sum over rows of x * w,
 * broadcast back (w sharded on 'model' like x's columns: a reduction
 * across shards inside the branch). */
typedef struct branches {
    ss_value x, w;
} branches;

static ss_status three(ss_program *p, int b, ss_value outs[], void *user)
{
    const branches *s = user;
    ss_value t, r;
    if (b == 0)
        return ss_unary(p, SS_LOG, s->x, &outs[0]);
    if (b == 1) {
        ss_status st = ss_constant(p, 2.0, &t);
        return st ? st : ss_binary(p, SS_MUL, s->x, t, &outs[0]);
    }
    ss_status st = ss_binary(p, SS_MUL, s->x, s->w, &t);
    if (!st)
        st = ss_reduce(p, SS_REDUCE_SUM, t, 1, (int[]){1}, 0, &r);
    return st ? st : ss_broadcast_in_dim(p, r, 2, (int64_t[]){8, 16}, (int[]){0}, &outs[0]);
}

/* y = switch(i, three), loss = sum(y), and d loss / d x. */
static ss_program *build(const ss_mesh *m, ss_value *y, ss_value *g)
{
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    branches s;
    s.x = ts_input(p, "x", "P('data', 'model')", 2, 8, 16);
    s.w = ts_input(p, "w", "P(None, 'model')", 2, 8, 16);
    ss_value i;
    TS_OK(ss_input(p, "i", SS_I32, 0, NULL, NULL, &i));
    int before = ss_program_value_count(p);
    TS_OK(ss_switch(p, i, 3, three, &s, 1, y));
    /* One case node and one result: the branches live apart. */
    cr_assert_eq(ss_program_value_count(p), before + 2);
    cr_assert_str_eq(ss_value_op_name(p, *y - 1), "case");
    ss_value loss;
    TS_OK(ss_reduce(p, SS_REDUCE_SUM, *y, 2, (int[]){0, 1}, 0, &loss));
    TS_OK(ss_grad(p, loss, 1, &s.x, g));
    TS_OK(ss_output(p, *y, NULL));
    TS_OK(ss_output(p, *g, NULL));
    return p;
}

/* x has zeros (log(0) = -inf) and negatives (log < 0: NaN). */
static void inputs(float x[128], float w[128])
{
    for (int k = 0; k < 128; k++) {
        x[k] = (float)(k % 9) - 3.0f;
        w[k] = 0.125f * (float)(k % 5) - 0.25f;
    }
}

/* Branch `b`'s value and gradient, written out in C. */
static void naive(int b, const float x[128], const float w[128], float y[128], float g[128])
{
    for (int r = 0; r < 8; r++) {
        double s = 0;
        for (int c = 0; c < 16; c++)
            s += (double)x[r * 16 + c] * w[r * 16 + c];
        for (int c = 0; c < 16; c++) {
            int k = r * 16 + c;
            y[k] = b == 0 ? logf(x[k]) : b == 1 ? 2.0f * x[k] : (float)s;
            g[k] = b == 0 ? 1.0f / x[k] : b == 1 ? 2.0f : 16.0f * w[k];
        }
    }
}

static bool same(float a, float b)
{
    if (a == b) /* infinities too */
        return true;
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return fabsf(a - b) <= 1e-5f * (1.0f + fabsf(b));
}

Test(case_op, runs_only_the_selected_branch_out_of_range_takes_the_last)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_value y, g;
    ss_program *p = build(m, &y, &g);
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    float x[128], w[128];
    inputs(x, w);
    const int32_t indices[] = {0, 1, 2, 7, -1};
    const int picks[] = {0, 1, 2, 2, 2};
    for (size_t t = 0; t < sizeof indices / sizeof indices[0]; t++) {
        float got[128], grad[128], want[128], wgrad[128], ev[128], evg[128];
        const void *ins[3] = {x, w, &indices[t]};
        void *outs[2] = {got, grad}, *eouts[2] = {ev, evg};
        ss_context *ctx = make_ctx();
        TS_OK(ss_executable_run(e, ctx, ins, outs));
        TS_OK(ss_program_eval(p, ins, eouts));
        naive(picks[t], x, w, want, wgrad);
        for (int k = 0; k < 128; k++) {
            cr_assert(same(got[k], want[k]), "index %d, y[%d]: %g, C %g", indices[t], k,
                      got[k], want[k]);
            cr_assert(same(grad[k], wgrad[k]), "index %d, dx[%d]: %g, C %g", indices[t], k,
                      grad[k], wgrad[k]);
            cr_assert(same(ev[k], got[k]) && same(evg[k], grad[k]),
                      "index %d, [%d]: the single-host evaluation %g %g, the run %g %g",
                      indices[t], k, ev[k], evg[k], got[k], grad[k]);
        }
        ss_context_destroy(ctx);
    }
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* jnp.where(i == 0, log(x), 2 * x) computes both and its gradient
 * multiplies log's 1/x (inf at 0) by 0: NaN. The conditional's gradient
 * at i = 1 is 2 everywhere, as jax.grad of lax.cond gives. */
Test(case_op, the_branch_that_does_not_run_sends_no_nan)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_value y, g;
    ss_program *p = build(m, &y, &g);
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    float x[128], w[128], got[128], grad[128];
    inputs(x, w);
    int32_t one = 1;
    const void *ins[3] = {x, w, &one};
    void *outs[2] = {got, grad};
    ss_context *ctx = make_ctx();
    TS_OK(ss_executable_run(e, ctx, ins, outs));
    for (int k = 0; k < 128; k++)
        cr_assert_eq(grad[k], 2.0f, "dx[%d] = %g (x = %g)", k, grad[k], x[k]);
    ss_context_destroy(ctx);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* Two branches whose results are x broadcast to [8, 16, 4096] through
 * exp or tanh: 256 KiB per device each; the select of both keeps both
 * results and its own. */
typedef struct big {
    ss_value x;
} big;

static ss_status big_branch(ss_program *p, int b, ss_value outs[], void *user)
{
    const big *s = user;
    ss_value t;
    ss_status st = ss_broadcast_in_dim(p, s->x, 3, (int64_t[]){8, 16, 4096}, (int[]){0, 1}, &t);
    return st ? st : ss_unary(p, b == 0 ? SS_EXP : SS_TANH, t, &outs[0]);
}

static size_t planned_peak(bool conditional)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    big s = {ts_input(p, "x", "P('data', 'model')", 2, 8, 16)};
    ss_value i, y;
    TS_OK(ss_input(p, "i", SS_I32, 0, NULL, NULL, &i));
    if (conditional) {
        TS_OK(ss_switch(p, i, 2, big_branch, &s, 1, &y));
    } else {
        ss_value a, b, zero, pred;
        int32_t z = 0;
        TS_OK(big_branch(p, 0, &a, &s));
        TS_OK(big_branch(p, 1, &b, &s));
        TS_OK(ss_constant_array(p, SS_I32, 0, NULL, &z, &zero));
        TS_OK(ss_compare(p, SS_CMP_EQ, SS_CMP_SIGNED, i, zero, &pred));
        TS_OK(ss_select(p, pred, a, b, &y));
    }
    TS_OK(ss_output(p, y, NULL));
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    ss_plan plan;
    TS_OK(ss_executable_plan(e, &plan));
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
    return plan.peak_bytes;
}

Test(case_op, plan_holds_the_largest_branch_not_the_sum)
{
    size_t cond = planned_peak(true), both = planned_peak(false);
    /* Per device x's block is 4 x 4 floats: a branch's result is
     * 4*4*4096*4 B = 256 KiB. */
    size_t result = (size_t)4 * 4 * 4096 * 4;
    cr_log_info("planned peak: conditional %zu B, select of both %zu B", cond, both);
    cr_assert_geq(cond, result, "the conditional's %zu B < a branch's result %zu B", cond,
                  result);
    cr_assert_geq(both, cond + result, "the select's %zu B holds the other branch's result "
                                       "(%zu B) beyond the conditional's %zu B",
                  both, result, cond);
}

/* Branch 1 does more arithmetic (tanh, then exp) than branch 0 (exp). */
static ss_status uneven_branch(ss_program *p, int b, ss_value outs[], void *user)
{
    const big *s = user;
    ss_value t;
    ss_status st = ss_broadcast_in_dim(p, s->x, 3, (int64_t[]){8, 16, 64}, (int[]){0, 1}, &t);
    if (!st && b == 1)
        st = ss_unary(p, SS_TANH, t, &t);
    return st ? st : ss_unary(p, SS_EXP, t, &outs[0]);
}

static ss_executable *uneven_program(ss_mesh *m, bool conditional, ss_program **out)
{
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    big s = {ts_input(p, "x", "P('data', 'model')", 2, 8, 16)};
    ss_value i, y;
    TS_OK(ss_input(p, "i", SS_I32, 0, NULL, NULL, &i));
    if (conditional)
        TS_OK(ss_switch(p, i, 2, uneven_branch, &s, 1, &y));
    else
        TS_OK(uneven_branch(p, 1, &y, &s)); /* the heavier branch written out */
    TS_OK(ss_output(p, y, NULL));
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    *out = p;
    return e;
}

/* A conditional's steps (what the step estimate sums) are its heavier
 * branch's, as its planned FLOPs are: the same FLOPs and estimate as that
 * branch written out, every step attributed to the case. */
Test(case_op, steps_are_the_heavier_branchs)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_program *pc, *pb;
    ss_executable *ec = uneven_program(m, true, &pc), *eb = uneven_program(m, false, &pb);
    ss_plan plan_c, plan_b;
    TS_OK(ss_executable_plan(ec, &plan_c));
    TS_OK(ss_executable_plan(eb, &plan_b));
    ss_step_cost c[32];
    int n = 0;
    TS_OK(ss_executable_steps(ec, c, 32, &n));
    cr_assert(n > 0 && n <= 32);
    double flops = 0;
    for (int k = 0; k < n; k++) {
        flops += c[k].flops;
        cr_assert_str_eq(ss_value_op_name(pc, c[k].value), "case", "step %d", k);
    }
    cr_assert_gt(plan_b.flops, 0);
    cr_assert_eq(flops, plan_c.flops);
    cr_assert_eq(plan_c.flops, plan_b.flops, "case %g, branch 1 %g", plan_c.flops, plan_b.flops);
    ss_step_estimate ec_est, eb_est;
    TS_OK(ss_estimate_step(ec, m, ss_hw_profile_get(0), &ec_est));
    TS_OK(ss_estimate_step(eb, m, ss_hw_profile_get(0), &eb_est));
    cr_assert_float_eq(ec_est.total, eb_est.total, 1e-12 * eb_est.total, "case %g, branch %g",
                       ec_est.total, eb_est.total);
    ss_executable_destroy(ec);
    ss_executable_destroy(eb);
    ss_program_destroy(pc);
    ss_program_destroy(pb);
    ss_mesh_destroy(m);
}

static ss_status mismatched(ss_program *p, int b, ss_value outs[], void *user)
{
    const ss_value *x = user;
    if (b == 0)
        return ss_unary(p, SS_TANH, *x, &outs[0]);
    return ss_reduce(p, SS_REDUCE_SUM, *x, 1, (int[]){0}, 0, &outs[0]);
}

Test(case_op, bad_index_and_disagreeing_branches_are_refused_by_name)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('data', 'model')", 2, 8, 16), i, y;
    TS_OK(ss_input(p, "i", SS_I32, 0, NULL, NULL, &i));
    int n0 = ss_program_value_count(p);
    cr_assert_eq(ss_switch(p, x, 2, mismatched, &x, 1, &y), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "the index must be a scalar i32"), "%s",
              ss_error_message());
    cr_assert_eq(ss_switch(p, i, 2, mismatched, &x, 1, &y), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "branch 1's result 0 differs"), "%s",
              ss_error_message());
    cr_assert_eq(ss_program_value_count(p), n0, "a refused switch leaves the program as it was");
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}
