/*
 * test_loop_memory.c — a loop's memory as XLA holds it: a carry adopts an
 * operand whose last use is the loop, and the body writes the carries the
 * loop owns in place (a scan's stacked residual filled by
 * dynamic_update_slice, an accumulator added to). Each program runs on a
 * 2x4 mesh; values against a naive C loop and the single-host evaluator,
 * the plan's peak against every device's measured arena peak, and the
 * stacked carry's count against its per-device bytes.
 */
#include "plan_run.h"

#include <stdlib.h>
#include <string.h>

enum { L = 32, R = 8, D = 64 };

/* The plan's peak, counted (no loop of unknown trips), is every device's
 * measured peak. */
static void assert_plan_is_run(const ss_executable *e, ss_context *ctx, size_t *peak)
{
    ss_plan plan;
    TS_OK(ss_executable_plan(e, &plan));
    cr_assert_eq(plan.unknown_trip_loops, 0, "a counted loop");
    *peak = pr_plan_is_run(e, ctx);
}

/* --- A fori_loop that stacks its hidden state, as JAX's scan residuals:
 * carries (i, h, stack), while i < L: h = h * 0.5 + 1, stack[i] = h. ------ */

static const pr_stack_dims stack_dims = {L, R, D};

/* The C loop: h after each step into stack[i]. */
static void stack_reference(const float *h0, float *h, float *stack)
{
    memcpy(h, h0, sizeof(float) * R * D);
    for (int i = 0; i < L; i++)
        for (int k = 0; k < R * D; k++) {
            h[k] = h[k] * 0.5f + 1.0f;
            stack[(size_t)i * R * D + (size_t)k] = h[k];
        }
}

/* The program: init is the stack's initial value (made by `make_init`
 * from the input `s0`); with `reuse`, init is also read after the loop
 * (output 2 = init + the final stack). */
static ss_program *stack_program(ss_mesh *m, bool zeros, bool reuse, ss_value *stack_out)
{
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value h = ts_input(p, "h", "P('data', None)", 2, R, D), init, i0, fin[3];
    if (zeros) { /* jnp.zeros: a broadcast scalar, JAX's residual stack */
        ss_value z;
        TS_OK(ss_constant_array(p, SS_F32, 0, NULL, &(float){0}, &z));
        TS_OK(ss_broadcast_in_dim(p, z, 3, (int64_t[]){L, R, D}, NULL, &init));
    } else {
        ss_value s0 = ts_input(p, "s0", "P(None, 'data', None)", 3, L, R, D);
        TS_OK(ss_unary(p, SS_NEG, s0, &init));
    }
    TS_OK(ss_constant_array(p, SS_I32, 0, NULL, &(int32_t){0}, &i0));
    TS_OK(ss_while_loop(p, pr_stack_cond, pr_stack_body, (void *)&stack_dims, 3, (ss_value[]){i0, h, init}, fin));
    TS_OK(ss_output(p, fin[1], NULL));
    TS_OK(ss_output(p, fin[2], NULL));
    if (reuse) {
        ss_value sum;
        TS_OK(ss_binary(p, SS_ADD, init, fin[2], &sum));
        TS_OK(ss_output(p, sum, NULL));
    }
    *stack_out = fin[2];
    return p;
}

/* Inputs in the executable's order: h, then s0 when it has it. */
static void bind_inputs(const ss_executable *e, const ss_program *p, const void *h,
                        const void *s0, const void *in[])
{
    for (int k = 0; k < ss_executable_input_count(e); k++) {
        ss_value v;
        TS_OK(ss_executable_input(e, k, &v));
        in[k] = strcmp(ss_value_name(p, v), "h") == 0 ? h : s0;
    }
}

Test(loop_memory, stacked_carry_is_adopted_and_written_in_place)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_value stack;
    ss_program *p = stack_program(m, true, false, &stack);
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    float *h0 = malloc(sizeof(float) * R * D), *h = malloc(sizeof(float) * R * D),
          *st = malloc(sizeof(float) * L * R * D), *want_h = malloc(sizeof(float) * R * D),
          *want_st = malloc(sizeof(float) * L * R * D), *ev_h = malloc(sizeof(float) * R * D),
          *ev_st = malloc(sizeof(float) * L * R * D);
    pr_fill(h0, R * D, 1);
    stack_reference(h0, want_h, want_st);
    const void *in[1] = {h0};
    void *ev[2] = {ev_h, ev_st}, *out[2] = {h, st};
    TS_OK(ss_program_eval(p, in, ev));
    cr_assert_eq(memcmp(ev_h, want_h, sizeof(float) * R * D), 0, "eval h = the C loop's");
    cr_assert_eq(memcmp(ev_st, want_st, sizeof(float) * L * R * D), 0, "eval stack = the C loop's");
    ss_context *ctx = pr_make_ctx();
    TS_OK(ss_executable_run(e, ctx, in, out));
    cr_assert_eq(memcmp(h, want_h, sizeof(float) * R * D), 0, "run h = the C loop's");
    cr_assert_eq(memcmp(st, want_st, sizeof(float) * L * R * D), 0, "run stack = the C loop's");
    size_t peak;
    assert_plan_is_run(e, ctx, &peak);
    /* XLA holds the stack once: the zeros become the carry, and each step's
     * dynamic_update_slice writes into it. Three copies (the zeros, the
     * carry and the body's new result) were counted before. */
    size_t s = pr_device_bytes(p, stack, 3, (int64_t[]){L, R, D});
    cr_assert_lt(peak, s + s / 2, "stack %zu B per device, peak %zu B: held once", s, peak);
    cr_assert_geq(peak, s);
    ss_context_destroy(ctx);
    free(h0), free(h), free(st), free(want_h), free(want_st), free(ev_h), free(ev_st);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(loop_memory, operand_read_after_the_loop_is_not_adopted)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_value stack;
    ss_program *p = stack_program(m, false, true, &stack);
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    size_t n = (size_t)L * R * D;
    float *h0 = malloc(sizeof(float) * R * D), *h = malloc(sizeof(float) * R * D),
          *s0 = malloc(sizeof(float) * n), *st = malloc(sizeof(float) * n),
          *sum = malloc(sizeof(float) * n), *want_h = malloc(sizeof(float) * R * D),
          *want_st = malloc(sizeof(float) * n);
    pr_fill(h0, R * D, 1);
    pr_fill(s0, n, 2);
    stack_reference(h0, want_h, want_st);
    const void *in[2];
    bind_inputs(e, p, h0, s0, in);
    ss_context *ctx = pr_make_ctx();
    void *out[3] = {h, st, sum};
    TS_OK(ss_executable_run(e, ctx, in, out));
    cr_assert_eq(memcmp(st, want_st, sizeof(float) * n), 0, "run stack = the C loop's");
    /* init = -s0 is still itself after the loop: written over in place,
     * it would be the final stack and the sum twice that. */
    for (size_t k = 0; k < n; k++)
        cr_assert_eq(sum[k], -s0[k] + want_st[k], "sum[%zu] = %g, want %g", k, (double)sum[k],
                     (double)(-s0[k] + want_st[k]));
    size_t peak;
    assert_plan_is_run(e, ctx, &peak);
    size_t s = pr_device_bytes(p, stack, 3, (int64_t[]){L, R, D});
    cr_assert_geq(peak, 2 * s, "the initial stack and the carry both live: %zu B, stack %zu B",
                  peak, s);
    ss_context_destroy(ctx);
    free(h0), free(h), free(s0), free(st), free(sum), free(want_h), free(want_st);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* --- lax.scan accumulating its xs: acc = acc + xs[i] (in place over the
 * carry the loop owns), acc starting from -x. ---------------------------- */

static ss_status acc_body(ss_program *p, const ss_value carry[], const ss_value xs[],
                          ss_value next[], ss_value ys[], void *user)
{
    (void)ys, (void)user;
    return ss_binary(p, SS_ADD, carry[0], xs[0], &next[0]);
}

Test(loop_memory, scan_accumulator_plan_is_run)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "h", "P('data', 'model')", 2, R, D);
    ss_value xs = ts_input(p, "s0", "P(None, 'data', 'model')", 3, L, R, D), init, fin;
    TS_OK(ss_unary(p, SS_NEG, x, &init));
    TS_OK(ss_scan(p, acc_body, NULL, -1, 1, &init, 1, &xs, 0, &fin, NULL));
    TS_OK(ss_output(p, fin, NULL));
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    size_t n = (size_t)L * R * D;
    float *x0 = malloc(sizeof(float) * R * D), *s0 = malloc(sizeof(float) * n),
          *acc = malloc(sizeof(float) * R * D), *want = malloc(sizeof(float) * R * D);
    pr_fill(x0, R * D, 3);
    pr_fill(s0, n, 4);
    for (int k = 0; k < R * D; k++) {
        want[k] = -x0[k];
        for (int i = 0; i < L; i++)
            want[k] += s0[(size_t)i * R * D + (size_t)k];
    }
    const void *in[2];
    bind_inputs(e, p, x0, s0, in);
    void *out[1] = {acc};
    ss_context *ctx = pr_make_ctx();
    TS_OK(ss_executable_run(e, ctx, in, out));
    cr_assert_eq(memcmp(acc, want, sizeof(float) * R * D), 0, "run = the C loop's sums");
    size_t peak;
    assert_plan_is_run(e, ctx, &peak);
    ss_context_destroy(ctx);
    free(x0), free(s0), free(acc), free(want);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* --- A while loop reading a weight it carries unchanged, as a scan over
 * stacked layers carries its weights: carries (i, h, w), while i < L:
 * h = h + w[i], w handed back as it came. ----------------------------- */

static ss_status read_body(ss_program *p, const ss_value c[], ss_value next[], void *user)
{
    (void)user;
    ss_value inc, zero, row, slice, at[3];
    ss_status st;
    if ((st = ss_constant_array(p, SS_I32, 0, NULL, &(int32_t){1}, &inc)) ||
        (st = ss_binary(p, SS_ADD, c[0], inc, &next[0])) ||
        (st = ss_constant_array(p, SS_I32, 0, NULL, &(int32_t){0}, &zero)))
        return st;
    at[0] = c[0];
    at[1] = at[2] = zero;
    if ((st = ss_dynamic_slice(p, c[2], 3, at, (int64_t[]){1, R, D}, &slice)) ||
        (st = ss_reshape(p, slice, 2, (int64_t[]){R, D}, &row)))
        return st;
    next[2] = c[2];
    return ss_binary(p, SS_ADD, c[1], row, &next[1]);
}

/* The loop's result for w is w's own buffer: no copy of it when the loop
 * ends (XLA's while hands an unchanged tuple element through), so the
 * peak holds w once even though w's result is read after the loop. */
Test(loop_memory, carry_passed_through_is_not_copied)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value h = ts_input(p, "h", "P('data', None)", 2, R, D);
    ss_value w = ts_input(p, "s0", "P(None, 'data', None)", 3, L, R, D), i0, fin[3], total;
    TS_OK(ss_constant_array(p, SS_I32, 0, NULL, &(int32_t){0}, &i0));
    TS_OK(ss_while_loop(p, pr_stack_cond, read_body, (void *)&stack_dims, 3, (ss_value[]){i0, h, w}, fin));
    TS_OK(ss_reduce(p, SS_REDUCE_SUM, fin[2], 1, (int[]){0}, 0, &total));
    TS_OK(ss_output(p, fin[1], NULL));
    TS_OK(ss_output(p, total, NULL));
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    size_t n = (size_t)L * R * D;
    float *h0 = malloc(sizeof(float) * R * D), *w0 = malloc(sizeof(float) * n),
          *hout = malloc(sizeof(float) * R * D), *tout = malloc(sizeof(float) * R * D),
          *want = malloc(sizeof(float) * R * D);
    pr_fill(h0, R * D, 5);
    pr_fill(w0, n, 6);
    for (int k = 0; k < R * D; k++) {
        want[k] = h0[k];
        for (int i = 0; i < L; i++)
            want[k] += w0[(size_t)i * R * D + (size_t)k];
    }
    const void *in[2];
    bind_inputs(e, p, h0, w0, in);
    void *out[2] = {hout, tout};
    ss_context *ctx = pr_make_ctx();
    TS_OK(ss_executable_run(e, ctx, in, out));
    cr_assert_eq(memcmp(hout, want, sizeof(float) * R * D), 0, "run h = the C loop's");
    for (int k = 0; k < R * D; k++) {
        float s = 0;
        for (int i = 0; i < L; i++)
            s += w0[(size_t)i * R * D + (size_t)k];
        cr_assert_float_eq(tout[k], s, 1e-3f, "sum of w [%d]: %g, want %g", k, tout[k], s);
    }
    size_t peak;
    assert_plan_is_run(e, ctx, &peak);
    size_t wb = pr_device_bytes(p, w, 3, (int64_t[]){L, R, D});
    cr_assert_lt(peak, wb + wb / 2, "w %zu B per device, peak %zu B: held once", wb, peak);
    ss_context_destroy(ctx);
    free(h0), free(w0), free(hout), free(tout), free(want);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* The zeros a stacked carry starts from are the same on every device of a
 * model group, but the loop adopts them and writes them in place on every
 * device: stored once, each device would copy them back whole at the first
 * write. They are computed on each device instead (replicas.c): no shared
 * result in the trace, the values and the plan as before. */
Test(loop_memory, adopted_zeros_are_not_stored_once)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_value stack;
    ss_program *p = stack_program(m, true, false, &stack);
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    size_t s = pr_device_bytes(p, stack, 3, (int64_t[]){L, R, D});
    cr_assert_geq(s, 16384, "per-device stack %zu B: large enough to be stored once", s);
    float *h0 = malloc(sizeof(float) * R * D), *h = malloc(sizeof(float) * R * D),
          *st = malloc(sizeof(float) * L * R * D), *want_h = malloc(sizeof(float) * R * D),
          *want_st = malloc(sizeof(float) * L * R * D);
    pr_fill(h0, R * D, 7);
    stack_reference(h0, want_h, want_st);
    const void *in[1] = {h0};
    void *out[2] = {h, st};
    ss_context *ctx = pr_make_ctx();
    TS_OK(ss_context_trace_enable(ctx, 1));
    TS_OK(ss_executable_run(e, ctx, in, out));
    cr_assert_eq(memcmp(st, want_st, sizeof(float) * L * R * D), 0, "run stack = the C loop's");
    int shared = 0;
    for (int d = 0; d < 8; d++)
        for (int k = 0; k < ss_context_trace_count(ctx, d); k++) {
            ss_trace_event ev;
            TS_OK(ss_context_trace_get(ctx, d, k, &ev));
            shared += strncmp(ev.name, "share", 5) == 0;
        }
    cr_assert_eq(shared, 0, "%d share events: the adopted zeros were stored once", shared);
    size_t peak;
    assert_plan_is_run(e, ctx, &peak);
    ss_context_destroy(ctx);
    free(h0), free(h), free(st), free(want_h), free(want_st);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}
