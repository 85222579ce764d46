/*
 * test_bitcast_alias.c — a reshape, or a broadcast that only adds unit
 * dims, is a bitcast: when its operand dies there, the result takes the
 * operand's buffer and nothing is copied (sim/spmd/liveness.c's can_share),
 * as XLA's buffer assignment shares a bitcast with its operand. Checked on
 * a 2x4 mesh: values against a naive C computation (the same bytes), the
 * plan's peak against every device's measured arena peak, the peak holding
 * one buffer where a copy would hold two, and the dangerous cases: an
 * operand still read later (then written in place by a
 * dynamic_update_slice, or its copy adopted and written by a loop carry)
 * keeps its own bytes, and an argument is taken only when donated. Small
 * per-device blocks (below the replica store's threshold) and large ones
 * (replicated work stored once, read as views) both run.
 */
#include "plan_run.h"

#include <stdlib.h>
#include <string.h>

enum { L = 8 };

/* --- t = -x; r = reshape(t) with a unit dim; b = broadcast adding another:
 * t dies at the reshape and r at the broadcast, so all three are one
 * buffer. ------------------------------------------------------------------ */

static void bitcast_chain(int64_t R, int64_t D)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('data', None)", 2, R, D), t, r, b;
    TS_OK(ss_unary(p, SS_NEG, x, &t));
    TS_OK(ss_reshape(p, t, 3, (int64_t[]){R, 1, D}, &r));
    TS_OK(ss_broadcast_in_dim(p, r, 4, (int64_t[]){1, R, 1, D}, (int[]){1, 2, 3}, &b));
    TS_OK(ss_output(p, b, NULL));
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    size_t n = (size_t)(R * D);
    float *x0 = malloc(n * 4), *out = malloc(n * 4);
    pr_fill(x0, n, 1);
    ss_context *ctx = pr_make_ctx();
    const void *in[1] = {x0};
    void *outs[1] = {out};
    TS_OK(ss_executable_run(e, ctx, in, outs));
    for (size_t k = 0; k < n; k++)
        cr_assert_eq(out[k], -x0[k], "[%zu]: %g, want %g", k, (double)out[k], (double)-x0[k]);
    size_t peak = pr_plan_is_run(e, ctx);
    size_t s = pr_device_bytes(p, x, 2, (int64_t[]){R, D});
    /* x (an argument, live throughout) and one buffer for t, r and b; a
     * copy through either bitcast would hold a third. */
    cr_assert_eq(peak, 2 * s, "peak %zu B, block %zu B: t, r and b share one buffer", peak, s);
    ss_context_destroy(ctx);
    free(x0), free(out);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(bitcast_alias, dying_operand_gives_its_buffer) { bitcast_chain(32, 64); }

Test(bitcast_alias, dying_operand_gives_its_buffer_replicated_stored) { bitcast_chain(256, 64); }

/* --- r = reshape(t) while t is still read: t is then written in place by
 * a dynamic_update_slice (t dies there). r must keep t's old bytes. ------- */

static void operand_written_later(int64_t R, int64_t D)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('data', None)", 2, R, D), t, r, one, patch, zero, u;
    TS_OK(ss_unary(p, SS_NEG, x, &t));
    TS_OK(ss_reshape(p, t, 3, (int64_t[]){1, R, D}, &r));
    TS_OK(ss_constant(p, 7.0, &one));
    TS_OK(ss_broadcast_in_dim(p, one, 2, (int64_t[]){2, D}, NULL, &patch));
    TS_OK(ss_constant_array(p, SS_I32, 0, NULL, &(int32_t){0}, &zero));
    TS_OK(ss_dynamic_update_slice(p, t, patch, 2, (ss_value[]){zero, zero}, &u));
    TS_OK(ss_output(p, r, NULL));
    TS_OK(ss_output(p, u, NULL));
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    size_t n = (size_t)(R * D);
    float *x0 = malloc(n * 4), *ro = malloc(n * 4), *uo = malloc(n * 4);
    pr_fill(x0, n, 2);
    ss_context *ctx = pr_make_ctx();
    const void *in[1] = {x0};
    void *outs[2] = {ro, uo};
    TS_OK(ss_executable_run(e, ctx, in, outs));
    for (size_t k = 0; k < n; k++) {
        cr_assert_eq(ro[k], -x0[k], "r[%zu] = %g: t's bytes before the update, want %g", k,
                     (double)ro[k], (double)-x0[k]);
        float want = k < (size_t)(2 * D) ? 7.0f : -x0[k];
        cr_assert_eq(uo[k], want, "u[%zu] = %g, want %g", k, (double)uo[k], (double)want);
    }
    pr_plan_is_run(e, ctx);
    ss_context_destroy(ctx);
    free(x0), free(ro), free(uo);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(bitcast_alias, operand_written_in_place_later_keeps_the_reshape) { operand_written_later(32, 64); }

Test(bitcast_alias, operand_written_in_place_later_keeps_the_reshape_stored)
{
    operand_written_later(256, 64);
}

/* --- A loop carry from a bitcast: s = -s0 ([L*R, D]), the carry starts as
 * reshape(s) ([L, R, D]) and the body writes row i of it in place
 * (stack[i] = h, h = h * 0.5 + 1). With `reuse`, s is read after the loop:
 * the reshape must then copy (s is not dying) and s keep its bytes while the
 * loop adopts and writes the copy. ------------------------------------------ */

static void carry_from_bitcast(int64_t R, int64_t D, bool reuse)
{
    pr_stack_dims z = {L, R, D};
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value h = ts_input(p, "h", "P('data', None)", 2, R, D);
    ss_value s0 = ts_input(p, "s0", "P(None, None)", 2, L * R, D), s, init, i0, fin[3];
    TS_OK(ss_unary(p, SS_NEG, s0, &s));
    TS_OK(ss_reshape(p, s, 3, (int64_t[]){L, R, D}, &init));
    TS_OK(ss_constant_array(p, SS_I32, 0, NULL, &(int32_t){0}, &i0));
    TS_OK(ss_while_loop(p, pr_stack_cond, pr_stack_body, &z, 3, (ss_value[]){i0, h, init}, fin));
    TS_OK(ss_output(p, fin[2], NULL));
    if (reuse) {
        ss_value flat, sum;
        TS_OK(ss_reshape(p, fin[2], 2, (int64_t[]){L * R, D}, &flat));
        TS_OK(ss_binary(p, SS_ADD, s, flat, &sum));
        TS_OK(ss_output(p, sum, NULL));
    }
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    size_t n = (size_t)(L * R * D), hn = (size_t)(R * D);
    float *h0 = malloc(hn * 4), *w0 = malloc(n * 4), *st = malloc(n * 4), *sum = malloc(n * 4),
          *want = malloc(n * 4), *hh = malloc(hn * 4);
    pr_fill(h0, hn, 3);
    pr_fill(w0, n, 4);
    memcpy(hh, h0, hn * 4);
    for (int i = 0; i < L; i++) /* the C loop */
        for (size_t k = 0; k < hn; k++) {
            hh[k] = hh[k] * 0.5f + 1.0f;
            want[(size_t)i * hn + k] = hh[k];
        }
    const void *in[2];
    for (int k = 0; k < 2; k++) {
        ss_value v;
        TS_OK(ss_executable_input(e, k, &v));
        in[k] = strcmp(ss_value_name(p, v), "h") == 0 ? (const void *)h0 : w0;
    }
    ss_context *ctx = pr_make_ctx();
    void *outs[2] = {st, sum};
    TS_OK(ss_executable_run(e, ctx, in, outs));
    cr_assert_eq(memcmp(st, want, n * 4), 0, "the stack = the C loop's");
    for (size_t k = 0; reuse && k < n; k++)
        cr_assert_eq(sum[k], -w0[k] + want[k], "sum[%zu] = %g: s kept its bytes, want %g", k,
                     (double)sum[k], (double)(-w0[k] + want[k]));
    size_t peak = pr_plan_is_run(e, ctx);
    size_t sb = pr_device_bytes(p, s0, 2, (int64_t[]){L * R, D});
    if (!reuse) /* s0 and one stack: s, the reshape and the carry are one buffer */
        cr_assert_lt(peak, 2 * sb + sb / 2, "peak %zu B, stack %zu B", peak, sb);
    else /* s0, s, and the carry copied from s */
        cr_assert_geq(peak, 3 * sb, "peak %zu B, stack %zu B", peak, sb);
    ss_context_destroy(ctx);
    free(h0), free(w0), free(st), free(sum), free(want), free(hh);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(bitcast_alias, loop_adopts_the_bitcast_of_a_dying_temporary) { carry_from_bitcast(16, 64, false); }

Test(bitcast_alias, loop_carry_from_a_bitcast_leaves_a_live_operand_alone)
{
    carry_from_bitcast(16, 64, true);
}

Test(bitcast_alias, loop_carry_from_a_bitcast_stored) { carry_from_bitcast(128, 64, true); }

/* --- out = reshape(x) of an argument on device-resident arrays: the
 * result takes x's shard only when x is donated; undonated, x keeps its
 * bytes (read back after the run). Plan (ss_executable_plan_arrays) =
 * run either way. ------------------------------------------------------------ */

static void reshape_argument(bool donate)
{
    enum { R = 64, D = 64 };
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('data', None)", 2, R, D), r;
    TS_OK(ss_reshape(p, x, 3, (int64_t[]){R, 1, D}, &r));
    TS_OK(ss_output(p, r, NULL));
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    float *x0 = malloc(R * D * 4), *back = malloc(R * D * 4), *out = malloc(R * D * 4);
    pr_fill(x0, R * D, 5);
    ss_context *ctx = pr_make_ctx();
    ss_sharding sh;
    TS_OK(ss_value_sharding(p, x, &sh));
    ss_array *in[1], *res[1];
    TS_OK(ss_array_put(ctx, &sh, 2, (int64_t[]){R, D}, SS_F32, x0, NULL, &in[0]));
    bool don[1] = {donate};
    TS_OK(ss_executable_run_arrays(e, ctx, in, don, res));
    TS_OK(ss_array_get(res[0], out, R * D * 4));
    cr_assert_eq(memcmp(out, x0, R * D * 4), 0, "reshape = the same bytes");
    if (!donate) {
        TS_OK(ss_array_get(in[0], back, R * D * 4));
        cr_assert_eq(memcmp(back, x0, R * D * 4), 0, "an undonated argument keeps its bytes");
    }
    ss_plan plan;
    TS_OK(ss_executable_plan_arrays(e, don, &plan));
    size_t s = pr_device_bytes(p, x, 2, (int64_t[]){R, D});
    for (int d = 0; d < 8; d++) {
        ss_memory_stats ms;
        TS_OK(ss_device_memory_stats(ctx, d, &ms));
        cr_assert_eq(ms.peak_bytes, plan.peak_bytes, "device %d: %zu measured, %zu planned", d,
                     ms.peak_bytes, plan.peak_bytes);
    }
    cr_assert_eq(plan.peak_bytes, donate ? s : 2 * s, "peak %zu B, block %zu B", plan.peak_bytes,
                 s);
    ss_array_destroy(in[0]); /* donated: holds no data, only destroyed */
    ss_array_destroy(res[0]);
    ss_context_destroy(ctx);
    free(x0), free(back), free(out);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(bitcast_alias, donated_argument_is_taken) { reshape_argument(true); }

Test(bitcast_alias, undonated_argument_keeps_its_bytes) { reshape_argument(false); }
