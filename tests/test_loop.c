/*
 * test_loop.c — loops (lax.while_loop, lax.scan as a counted loop) built
 * with the public API, propagated, planned and run on a 2x4 mesh; values
 * against naive C loops, ledgers against the same steps written out by
 * hand (the old unrolled scan included).
 */
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static ss_context *make_ctx(int n)
{
    ss_context_options co = {.ndevices = n, .device_memory = (size_t)64 << 20};
    ss_context *ctx;
    TS_OK(ss_context_create(&co, &ctx));
    return ctx;
}

static ss_value constant(ss_program *p, double v)
{
    ss_value c;
    TS_OK(ss_constant(p, v, &c));
    return c;
}

/* --- A counter loop: carries (x, i), while i < limit: x = x*0.5 + 1 ------- */

typedef struct counter {
    double limit;
} counter;

static ss_status counter_cond(ss_program *p, const ss_value carry[], ss_value *pred, void *user)
{
    const counter *c = user;
    ss_value lim;
    ss_status st = ss_constant(p, c->limit, &lim);
    return st ? st : ss_binary(p, SS_GT, lim, carry[1], pred); /* limit > i */
}

static ss_status counter_body(ss_program *p, const ss_value carry[], ss_value next[], void *user)
{
    (void)user;
    ss_value half, one, t;
    ss_status st = ss_constant(p, 0.5, &half);
    if (!st)
        st = ss_constant(p, 1.0, &one);
    if (!st)
        st = ss_binary(p, SS_MUL, carry[0], half, &t);
    if (!st)
        st = ss_binary(p, SS_ADD, t, one, &next[0]);
    if (!st)
        st = ss_binary(p, SS_ADD, carry[1], one, &next[1]);
    return st;
}

Test(loop, while_round_trip_on_2x4_equals_a_c_loop)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('data', 'model')", 2, 8, 16);
    ss_value init[2] = {x, constant(p, 0.0)}, out[2];
    counter c = {5.0};
    int before = ss_program_value_count(p);
    TS_OK(ss_while_loop(p, counter_cond, counter_body, &c, 2, init, out));
    /* One loop node and one node per carry: the regions live apart. */
    cr_assert_eq(ss_program_value_count(p), before + 3);
    cr_assert_str_eq(ss_value_op_name(p, out[0] - 1), "while");
    TS_OK(ss_output(p, out[0], NULL));
    TS_OK(ss_output(p, out[1], NULL));
    TS_OK(ss_program_propagate(p));
    ss_sharding sh;
    TS_OK(ss_value_sharding(p, out[0], &sh));
    char text[128];
    ss_spec_repr(&sh.spec, text, sizeof text);
    cr_assert_str_eq(text, "P('data', 'model')", "the carry keeps its operand's sharding");
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    ss_plan plan;
    TS_OK(ss_executable_plan(e, &plan));
    cr_assert_eq(plan.unknown_trip_loops, 1, "a while's trip count is unknown to the plan");
    cr_assert_eq(plan.ncollectives, 0);
    float xs[128], got[128], want[128], iters = -1;
    for (int k = 0; k < 128; k++)
        xs[k] = (float)k - 40.0f;
    const void *ins[1] = {xs};
    void *outs[2] = {got, &iters};
    ss_context *ctx = make_ctx(8);
    TS_OK(ss_executable_run(e, ctx, ins, outs));
    for (int k = 0; k < 128; k++) {
        float v = xs[k];
        for (int i = 0; i < 5; i++)
            v = v * 0.5f + 1.0f;
        want[k] = v;
        cr_assert_eq(got[k], want[k], "x[%d]: %g, C loop %g", k, got[k], want[k]);
    }
    cr_assert_eq(iters, 5.0f);
    cr_assert_eq(ss_context_ledger_count(ctx), 0, "elementwise on local shards moves nothing");
    /* The single-host reference evaluator agrees. */
    float ev[128], evi;
    void *eouts[2] = {ev, &evi};
    TS_OK(ss_program_eval(p, ins, eouts));
    cr_assert_eq(memcmp(ev, want, sizeof ev), 0);
    cr_assert_eq(evi, 5.0f);
    ss_context_destroy(ctx);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* --- Data-dependent trip count: while sum(x) < bound: x = x * 2 ---------- */

static ss_status sum_cond(ss_program *p, const ss_value carry[], ss_value *pred, void *user)
{
    const float *bound = user;
    ss_value s, b;
    int axes[1] = {0};
    ss_status st = ss_reduce(p, SS_REDUCE_SUM, carry[0], 1, axes, 0, &s);
    if (!st)
        st = ss_constant(p, *bound, &b);
    return st ? st : ss_binary(p, SS_GT, b, s, pred);
}

static ss_status double_body(ss_program *p, const ss_value carry[], ss_value next[], void *user)
{
    (void)user;
    return ss_binary(p, SS_ADD, carry[0], carry[0], &next[0]);
}

/* lax.fori_loop as JAX lowers it: an i32 counter, a bool condition from
 * compare LT SIGNED, integer add, and the counter converted into the float
 * carry: x = x * 1.5 + f32(i) for i from 3 to 9, against a C loop, on one
 * device (eval) and on two (the carry split). */
static ss_status fori_cond(ss_program *p, const ss_value c[], ss_value *pred, void *user)
{
    (void)user;
    ss_value k;
    ss_status st = ss_constant(p, 10.0, &k);
    return st ? st : ss_compare(p, SS_CMP_LT, SS_CMP_SIGNED, c[0], k, pred);
}

static ss_status fori_body(ss_program *p, const ss_value c[], ss_value next[], void *user)
{
    (void)user;
    ss_value one, k, t, f;
    ss_status st;
    if ((st = ss_constant(p, 1.0, &one)) || (st = ss_binary(p, SS_ADD, c[0], one, &next[0])) ||
        (st = ss_constant(p, 1.5, &k)) || (st = ss_binary(p, SS_MUL, c[1], k, &t)) ||
        (st = ss_convert(p, c[0], SS_F32, &f)))
        return st;
    return ss_binary(p, SS_ADD, t, f, &next[1]);
}

Test(loop, fori_loop_with_an_integer_counter_and_a_bool_condition)
{
    ss_mesh *m = ts_make_mesh("x=2", 2);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_spec sp = ts_spec("P('x')");
    ss_value i0, x, fin[2];
    TS_OK(ss_input(p, "i", SS_I32, 0, NULL, NULL, &i0));
    TS_OK(ss_input(p, "x", SS_F32, 1, (int64_t[]){4}, &sp, &x));
    TS_OK(ss_while_loop(p, fori_cond, fori_body, NULL, 2, (ss_value[]){i0, x}, fin));
    TS_OK(ss_output(p, fin[0], NULL));
    TS_OK(ss_output(p, fin[1], NULL));
    int32_t iv = 3, io = 0;
    float xv[4] = {1, 2, 3, 4}, xo[4], want[4];
    for (int k = 0; k < 4; k++) {
        want[k] = xv[k];
        for (int i = 3; i < 10; i++)
            want[k] = want[k] * 1.5f + (float)i;
    }
    const void *in[2] = {&iv, xv};
    void *out[2] = {&io, xo};
    TS_OK(ss_program_eval(p, in, out));
    cr_assert_eq(io, 10);
    for (int k = 0; k < 4; k++)
        cr_assert_eq(xo[k], want[k], "eval x[%d] = %g, want %g", k, (double)xo[k], (double)want[k]);
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    ss_context_options co = {.ndevices = 2, .device_memory = (size_t)16 << 20, .timeout = 30};
    ss_context *ctx;
    TS_OK(ss_context_create(&co, &ctx));
    io = 0;
    memset(xo, 0, sizeof xo);
    const void *ein[2];
    for (int k = 0; k < ss_executable_input_count(e); k++) {
        ss_value v;
        TS_OK(ss_executable_input(e, k, &v));
        ein[k] = v == i0 ? in[0] : in[1];
    }
    TS_OK(ss_executable_run(e, ctx, ein, out));
    cr_assert_eq(io, 10);
    for (int k = 0; k < 4; k++)
        cr_assert_eq(xo[k], want[k], "run x[%d] = %g, want %g", k, (double)xo[k], (double)want[k]);
    ss_context_destroy(ctx);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(loop, while_trip_count_depends_on_device_data)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P(('data', 'model'))", 1, 16), out;
    float bound = 1000.0f;
    TS_OK(ss_while_loop(p, sum_cond, double_body, &bound, 1, &x, &out));
    TS_OK(ss_output(p, out, NULL));
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    ss_context *ctx = make_ctx(8);
    /* Two inputs, two trip counts, one executable. */
    for (int round = 0; round < 2; round++) {
        float xs[16], got[16];
        for (int k = 0; k < 16; k++)
            xs[k] = round ? 0.25f * (float)(k + 1) : (float)(k + 1);
        int trips = 0;
        float want[16];
        memcpy(want, xs, sizeof want);
        for (;;) {
            float s = 0;
            for (int k = 0; k < 16; k++)
                s += want[k];
            if (!(bound > s))
                break;
            for (int k = 0; k < 16; k++)
                want[k] += want[k];
            trips++;
        }
        cr_assert(trips == (round ? 5 : 3), "reference trips %d", trips);
        const void *ins[1] = {xs};
        void *outs[1] = {got};
        ss_context_ledger_clear(ctx);
        TS_OK(ss_executable_run(e, ctx, ins, outs));
        cr_assert_eq(memcmp(got, want, sizeof got), 0);
        /* The sum over the sharded x is an all-reduce in the condition,
         * evaluated trips + 1 times. */
        cr_assert_eq(ss_context_ledger_count(ctx), trips + 1);
        for (int k = 0; k < trips + 1; k++) {
            ss_coll_record r;
            TS_OK(ss_context_ledger_get(ctx, k, &r));
            cr_assert_eq(r.kind, SS_COLL_ALL_REDUCE);
        }
    }
    ss_context_destroy(ctx);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* --- A sharded carry with a collective in the body ------------------------- */

typedef struct mm_ctx {
    ss_value w;
    ss_spec row;
} mm_ctx;

static ss_status mm_cond(ss_program *p, const ss_value carry[], ss_value *pred, void *user)
{
    (void)user;
    ss_value lim;
    ss_status st = ss_constant(p, 3.0, &lim);
    return st ? st : ss_binary(p, SS_GT, lim, carry[1], pred);
}

/* h = constrain(h @ w, P('data', None)): w's output dim is sharded over
 * 'model', so the product comes out P('data', 'model') and the constraint
 * all-gathers it, once per step. w is used from outside the loop. */
static ss_status mm_step(ss_program *p, const mm_ctx *c, ss_value h, ss_value *out)
{
    ss_value y;
    ss_status st = ss_matmul(p, h, c->w, &y);
    return st ? st : ss_constrain(p, y, &c->row, out);
}

static ss_status mm_body(ss_program *p, const ss_value carry[], ss_value next[], void *user)
{
    ss_value one;
    ss_status st = mm_step(p, user, carry[0], &next[0]);
    if (!st)
        st = ss_constant(p, 1.0, &one);
    return st ? st : ss_binary(p, SS_ADD, carry[1], one, &next[1]);
}

static void mm_program(ss_mesh *m, bool loop, ss_program **out)
{
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value h = ts_input(p, "h", "P('data', None)", 2, 8, 16);
    mm_ctx c = {ts_input(p, "w", "P(None, 'model')", 2, 16, 16), ts_spec("P('data', None)")};
    ss_value res;
    if (loop) {
        ss_value init[2] = {h, constant(p, 0.0)}, fin[2];
        TS_OK(ss_while_loop(p, mm_cond, mm_body, &c, 2, init, fin));
        res = fin[0];
    } else {
        res = h;
        for (int i = 0; i < 3; i++)
            TS_OK(mm_step(p, &c, res, &res));
    }
    TS_OK(ss_output(p, res, NULL));
    *out = p;
}

Test(loop, sharded_carry_collective_recorded_per_iteration)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_program *pl, *pu;
    mm_program(m, true, &pl);
    mm_program(m, false, &pu);
    ss_executable *el, *eu;
    TS_OK(ss_program_compile(pl, &el));
    TS_OK(ss_program_compile(pu, &eu));
    float h[128], w[256], got[128], ref[128], tmp[128];
    for (int k = 0; k < 128; k++)
        h[k] = (float)((k * 7) % 11) / 11.0f - 0.5f;
    for (int k = 0; k < 256; k++)
        w[k] = (float)((k * 5) % 13) / 26.0f - 0.25f;
    const void *ins[2] = {h, w};
    void *outs[1] = {got};
    ss_context *ctx = make_ctx(8);
    TS_OK(ss_executable_run(el, ctx, ins, outs));
    int nl = ss_context_ledger_count(ctx);
    cr_assert_eq(nl, 3, "one all-gather per executed iteration, got %d", nl);
    /* The same three steps written out: the same collectives, in order. */
    cr_assert_eq(ss_executable_ledger_count(eu), 3);
    for (int k = 0; k < 3; k++) {
        ss_coll_record a, b;
        TS_OK(ss_context_ledger_get(ctx, k, &a));
        TS_OK(ss_executable_ledger_get(eu, k, &b));
        cr_assert_eq(a.kind, SS_COLL_ALL_GATHER);
        cr_assert(a.kind == b.kind && a.bytes == b.bytes && a.group_size == b.group_size &&
                      a.naxes == b.naxes && memcmp(a.axes, b.axes, sizeof a.axes) == 0,
                  "step %d", k);
    }
    /* Naive C: h = h @ w three times. */
    memcpy(ref, h, sizeof ref);
    for (int i = 0; i < 3; i++) {
        for (int r = 0; r < 8; r++)
            for (int c = 0; c < 16; c++) {
                double s = 0;
                for (int k = 0; k < 16; k++)
                    s += (double)ref[r * 16 + k] * w[k * 16 + c];
                tmp[r * 16 + c] = (float)s;
            }
        memcpy(ref, tmp, sizeof ref);
    }
    for (int k = 0; k < 128; k++)
        cr_assert(fabsf(got[k] - ref[k]) <= 1e-5f * (1.0f + fabsf(ref[k])), "%d: %g vs %g", k,
                  got[k], ref[k]);
    /* The plan counts the body once for a while and says so. */
    ss_plan plan;
    TS_OK(ss_executable_plan(el, &plan));
    cr_assert_eq(plan.unknown_trip_loops, 1);
    cr_assert_eq(plan.ncollectives, 1);
    cr_assert_eq(ss_executable_ledger_count(el), 1);
    /* Its one entry names the while, with no trip count, in the body. */
    ss_ledger_entry le;
    TS_OK(ss_executable_ledger_entry(el, 0, &le));
    cr_assert(le.loop >= 0 && le.trips == -1 && le.iteration == 0 && le.in_cond == 0);
    cr_assert_eq(le.coll.kind, SS_COLL_ALL_GATHER);
    ss_context_destroy(ctx);
    ss_executable_destroy(el);
    ss_executable_destroy(eu);
    ss_program_destroy(pl);
    ss_program_destroy(pu);
    ss_mesh_destroy(m);
}

/* --- Errors ------------------------------------------------------------------ */

static ss_status bad_body(ss_program *p, const ss_value carry[], ss_value next[], void *user)
{
    (void)user;
    int64_t shape[1] = {4}, start[1] = {0}, limit[1] = {4};
    (void)shape;
    return ss_slice(p, carry[0], start, limit, &next[0]); /* [8] -> [4] */
}

static ss_status output_body(ss_program *p, const ss_value carry[], ss_value next[], void *user)
{
    (void)user;
    next[0] = carry[0];
    return ss_output(p, carry[0], NULL);
}

Test(loop, while_errors_and_grad)
{
    ss_mesh *m = ts_make_mesh("x=4", 4);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('x')", 1, 8), out;
    float bound = 100.0f;
    int n0 = ss_program_value_count(p);
    cr_assert_eq(ss_while_loop(p, sum_cond, bad_body, &bound, 1, &x, &out), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "changes carry 0 from f32[8] to f32[4]"), "%s",
              ss_error_message());
    cr_assert_eq(ss_while_loop(p, sum_cond, output_body, &bound, 1, &x, &out), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "marks a program output"), "%s", ss_error_message());
    cr_assert_eq(ss_program_value_count(p), n0, "a failed loop leaves the program as it was");
    /* Reverse mode through a while is JAX's error. */
    TS_OK(ss_while_loop(p, sum_cond, double_body, &bound, 1, &x, &out));
    ss_value loss, g;
    int axes[1] = {0};
    TS_OK(ss_reduce(p, SS_REDUCE_SUM, out, 1, axes, 0, &loss));
    cr_assert_eq(ss_grad(p, loss, 1, &x, &g), SS_ERR_UNSUPPORTED);
    cr_assert(strstr(ss_error_message(), "Reverse-mode differentiation does not work for "
                                         "lax.while_loop"),
              "%s", ss_error_message());
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* --- scan as a counted loop against the unrolled scan ----------------------- */

#include "graph/graph.h"

typedef ss_status (*scan_fn)(ss_program *, ss_scan_body, void *, int64_t, int, const ss_value[],
                             int, const ss_value[], int, ss_value[], ss_value[]);

typedef struct layer_specs {
    ss_spec dm, dn;
} layer_specs;

/* The Flax guide's DotReluDot layer over stacked weights, with a per-step
 * output: carry x, xs (W1[i], W2[i]), y = the layer's result. */
static ss_status dot_relu_dot(ss_program *p, const ss_value carry[], const ss_value xs[],
                              ss_value next[], ss_value ys[], void *user)
{
    layer_specs *ls = user;
    ss_value a, y, yc, z;
    ss_status st = ss_matmul(p, carry[0], xs[0], &a);
    if (!st)
        st = ss_unary(p, SS_RELU, a, &y);
    if (!st)
        st = ss_constrain(p, y, &ls->dm, &yc);
    if (!st)
        st = ss_matmul(p, yc, xs[1], &z);
    if (!st)
        st = ss_constrain(p, z, &ls->dn, &next[0]);
    if (!st)
        ys[0] = next[0];
    return st;
}

static ss_program *flax_scan(ss_mesh *m, scan_fn fn, int64_t layers, int d)
{
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('data', None)", 2, 8, d);
    ss_value w1 = ts_input(p, "W1", "P(None, None, 'model')", 3, layers, d, d);
    ss_value w2 = ts_input(p, "W2", "P(None, 'model', None)", 3, layers, d, d);
    layer_specs ls = {ts_spec("P('data', 'model')"), ts_spec("P('data', None)")};
    ss_value xs[2] = {w1, w2}, out, ys;
    TS_OK(fn(p, dot_relu_dot, &ls, -1, 1, &x, 2, xs, 1, &out, &ys));
    TS_OK(ss_output(p, out, NULL));
    TS_OK(ss_output(p, ys, NULL));
    return p;
}

static void fill(float *v, size_t n, int seed)
{
    for (size_t k = 0; k < n; k++)
        v[k] = (float)((int)((k * 2654435761u + (unsigned)seed) % 1000) - 500) / 8000.0f;
}

Test(loop, scan_loop_equals_unrolled_scan)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    enum { L = 4, D = 64 };
    ss_program *pl = flax_scan(m, ss__scan_loop, L, D), *pu = flax_scan(m, ss__scan_unrolled, L, D);
    ss_executable *el, *eu;
    TS_OK(ss_program_compile(pl, &el));
    TS_OK(ss_program_compile(pu, &eu));
    float *x = malloc(sizeof(float) * 8 * D), *w1 = malloc(sizeof(float) * L * D * D),
          *w2 = malloc(sizeof(float) * L * D * D);
    float out_l[8 * D], out_u[8 * D], ys_l[L * 8 * D], ys_u[L * 8 * D];
    fill(x, 8 * D, 1);
    fill(w1, L * D * D, 2);
    fill(w2, L * D * D, 3);
    const void *ins[3] = {x, w1, w2};
    void *ol[2] = {out_l, ys_l}, *ou[2] = {out_u, ys_u};
    ss_context *cl = make_ctx(8), *cu = make_ctx(8);
    TS_OK(ss_executable_run(el, cl, ins, ol));
    TS_OK(ss_executable_run(eu, cu, ins, ou));
    cr_assert_eq(memcmp(out_l, out_u, sizeof out_l), 0, "final carry equals the unrolled one");
    cr_assert_eq(memcmp(ys_l, ys_u, sizeof ys_l), 0, "stacked ys equal the unrolled ones");
    /* Ledgers: the same collectives in the same order, at run time and in
     * the plan (the loop's body times its length). */
    int n = ss_context_ledger_count(cu);
    cr_assert_eq(ss_context_ledger_count(cl), n);
    cr_assert_eq(ss_executable_ledger_count(el), n);
    for (int k = 0; k < n; k++) {
        ss_coll_record a, b, c;
        TS_OK(ss_context_ledger_get(cl, k, &a));
        TS_OK(ss_context_ledger_get(cu, k, &b));
        TS_OK(ss_executable_ledger_get(el, k, &c));
        cr_assert(a.kind == b.kind && a.bytes == b.bytes && a.naxes == b.naxes &&
                      memcmp(a.axes, b.axes, sizeof a.axes) == 0,
                  "entry %d", k);
        cr_assert(c.kind == a.kind && c.bytes == a.bytes && c.seq == k + 1, "plan entry %d", k);
    }
    ss_plan plan;
    TS_OK(ss_executable_plan(el, &plan));
    cr_assert_eq(plan.unknown_trip_loops, 0);
    cr_assert_eq(plan.ncollectives, n);
    /* The plan's peak is what the arenas measured. */
    for (int d = 0; d < 8; d++) {
        ss_memory_stats ms;
        TS_OK(ss_device_memory_stats(cl, d, &ms));
        cr_assert_eq(ms.peak_bytes, plan.peak_bytes, "device %d: %zu measured, %zu planned", d,
                     ms.peak_bytes, plan.peak_bytes);
    }
    ss_context_destroy(cl);
    ss_context_destroy(cu);
    free(x);
    free(w1);
    free(w2);
    ss_executable_destroy(el);
    ss_executable_destroy(eu);
    ss_program_destroy(pl);
    ss_program_destroy(pu);
    ss_mesh_destroy(m);
}

/* Every ledger entry of a scan's body is reachable through the public
 * facts: it names the loop and its step, and its kind, groups, op and
 * provenance are those of the same step written out (the unrolled scan). */
Test(loop, scan_ledger_entries_name_their_loop_and_step)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    enum { L = 3, D = 16 };
    ss_program *pl = flax_scan(m, ss__scan_loop, L, D), *pu = flax_scan(m, ss__scan_unrolled, L, D);
    ss_executable *el, *eu;
    TS_OK(ss_program_compile(pl, &el));
    TS_OK(ss_program_compile(pu, &eu));
    int n = ss_executable_ledger_count(el);
    cr_assert_eq(n, ss_executable_ledger_count(eu));
    cr_assert(n > 0 && n % L == 0, "%d entries over %d steps", n, L);
    int per = n / L, ids_l[8], ids_u[8];
    for (int k = 0; k < n; k++) {
        ss_ledger_entry a, b;
        TS_OK(ss_executable_ledger_entry(el, k, &a));
        TS_OK(ss_executable_ledger_entry(eu, k, &b));
        cr_assert(a.loop >= 0 && a.value == a.loop, "entry %d: loop %d", k, (int)a.loop);
        cr_assert_eq(a.iteration, k / per, "entry %d: step %lld", k, (long long)a.iteration);
        cr_assert_eq(a.trips, L);
        cr_assert_eq(a.in_cond, 0);
        cr_assert_str_eq(a.region_op, ss_value_op_name(pu, b.value), "entry %d", k);
        cr_assert_eq(b.loop, -1);
        cr_assert_null(b.region_op);
        cr_assert(a.coll.kind == b.coll.kind && a.coll.bytes == b.coll.bytes &&
                      a.coll.sent == b.coll.sent && a.user == b.user && a.npairs == b.npairs,
                  "entry %d", k);
        cr_assert_eq(a.phase, b.phase, "entry %d", k);
        cr_assert(a.coll.ngroups * a.coll.group_size <= 8);
        TS_OK(ss_executable_ledger_groups(el, k, ids_l, 8));
        TS_OK(ss_executable_ledger_groups(eu, k, ids_u, 8));
        cr_assert_eq(memcmp(ids_l, ids_u, sizeof(int) * (size_t)(a.coll.ngroups * a.coll.group_size)),
                     0, "entry %d: replica groups", k);
    }
    ss_ledger_entry past;
    cr_assert_eq(ss_executable_ledger_entry(el, n, &past), SS_ERR_RANGE);
    cr_assert_eq(ss_executable_ledger_entry(el, -1, &past), SS_ERR_RANGE);
    ss_executable_destroy(el);
    ss_executable_destroy(eu);
    ss_program_destroy(pl);
    ss_program_destroy(pu);
    ss_mesh_destroy(m);
}

/* A scan's steps (what the step estimate and the timeline sum) are its
 * body's, once per step: their FLOPs are the plan's, their collectives the
 * ledger's in order with the unrolled scan's bytes, each attributed to the
 * loop; so the estimated communication is the unrolled scan's. */
Test(loop, scan_steps_are_its_body_per_step)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    enum { L = 3, D = 16 };
    ss_program *pl = flax_scan(m, ss__scan_loop, L, D), *pu = flax_scan(m, ss__scan_unrolled, L, D);
    ss_executable *el, *eu;
    TS_OK(ss_program_compile(pl, &el));
    TS_OK(ss_program_compile(pu, &eu));
    ss_step_cost cl[256], cu[256];
    int nl = 0, nu = 0;
    TS_OK(ss_executable_steps(el, cl, 256, &nl));
    TS_OK(ss_executable_steps(eu, cu, 256, &nu));
    cr_assert(nl <= 256 && nu <= 256);
    ss_plan plan;
    TS_OK(ss_executable_plan(el, &plan));
    ss_ledger_entry first;
    TS_OK(ss_executable_ledger_entry(el, 0, &first));
    double flops = 0;
    int colls = 0, ju = 0, inside = 0;
    for (int k = 0; k < nl; k++) {
        flops += cl[k].flops;
        inside += cl[k].value == first.loop;
        if (cl[k].kind != SS_STEP_COLLECTIVE)
            continue;
        cr_assert_eq(cl[k].ledger_index, colls, "step %d", k);
        while (ju < nu && cu[ju].kind != SS_STEP_COLLECTIVE)
            ju++;
        cr_assert(ju < nu, "the unrolled scan has fewer collectives");
        cr_assert_eq(cl[k].bytes, cu[ju].bytes, "collective %d", colls);
        ju++;
        colls++;
    }
    cr_assert_eq(colls, ss_executable_ledger_count(el));
    cr_assert_eq(flops, plan.flops, "steps %g, plan %g", flops, plan.flops);
    cr_assert(inside >= L * 2, "%d steps attributed to the loop", inside);
    const ss_hw_profile *prof = ss_hw_profile_get(0);
    ss_step_estimate el_est, eu_est;
    TS_OK(ss_estimate_step(el, m, prof, &el_est));
    TS_OK(ss_estimate_step(eu, m, prof, &eu_est));
    cr_assert(eu_est.comm > 0);
    cr_assert_float_eq(el_est.comm, eu_est.comm, 1e-12 * eu_est.comm, "loop %g, unrolled %g",
                       el_est.comm, eu_est.comm);
    /* The arithmetic is the unrolled scan's, kernel for kernel (the unrolled
     * form adds the slicing of xs and the stacking of ys as kernels). */
    int ku = 0, kernels = 0;
    for (int k = 0; k < nl; k++) {
        if (cl[k].kind != SS_STEP_KERNEL)
            continue;
        while (ku < nu && (cu[ku].kind != SS_STEP_KERNEL || cu[ku].flops == 0))
            ku++;
        cr_assert(ku < nu, "the unrolled scan has fewer kernels");
        cr_assert(cl[k].flops == cu[ku].flops && cl[k].bytes == cu[ku].bytes,
                  "kernel %d: loop %g flops %g bytes, unrolled %g, %g", kernels, cl[k].flops,
                  cl[k].bytes, cu[ku].flops, cu[ku].bytes);
        ku++;
        kernels++;
    }
    cr_assert_eq(kernels, 3 * L, "two dots and a relu per step");
    cr_assert(el_est.compute > 0);
    ss_executable_destroy(el);
    ss_executable_destroy(eu);
    ss_program_destroy(pl);
    ss_program_destroy(pu);
    ss_mesh_destroy(m);
}

/* A scan with no per-step outputs (ys NULL, as lax.scan's f returning
 * (carry, None)): both forms build, and the final carry is the same. */
static ss_status halve(ss_program *p, const ss_value carry[], const ss_value xs[],
                       ss_value next[], ss_value ys[], void *user)
{
    (void)xs, (void)ys, (void)user;
    ss_value half;
    ss_status st = ss_constant(p, 0.5, &half);
    return st ? st : ss_binary(p, SS_MUL, carry[0], half, &next[0]);
}

Test(loop, scan_without_ys_takes_null_arrays)
{
    ss_mesh *m = ts_make_mesh("x=4", 4);
    scan_fn fns[2] = {ss__scan_loop, ss__scan_unrolled};
    float got[2][8];
    for (int f = 0; f < 2; f++) {
        ss_program *p;
        TS_OK(ss_program_create(m, &p));
        ss_value x = ts_input(p, "x", "P('x')", 1, 8), fin;
        TS_OK(fns[f](p, halve, NULL, 3, 1, &x, 0, NULL, 0, &fin, NULL));
        TS_OK(ss_output(p, fin, NULL));
        ss_executable *e;
        TS_OK(ss_program_compile(p, &e));
        float in[8];
        for (int k = 0; k < 8; k++)
            in[k] = (float)k;
        const void *ins[1] = {in};
        void *outs[1] = {got[f]};
        ss_context *ctx = make_ctx(4);
        TS_OK(ss_executable_run(e, ctx, ins, outs));
        for (int k = 0; k < 8; k++) /* three halvings, exact in binary */
            cr_assert_eq(got[f][k], (float)k / 8.0f, "form %d, %d: %g", f, k, got[f][k]);
        ss_context_destroy(ctx);
        ss_executable_destroy(e);
        ss_program_destroy(p);
    }
    ss_mesh_destroy(m);
}

Test(loop, scan_ir_does_not_grow_with_its_length)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_program *p4 = flax_scan(m, ss__scan_loop, 4, 16), *p1000 = flax_scan(m, ss__scan_loop, 1000, 16);
    cr_assert_eq(ss_program_value_count(p4), ss_program_value_count(p1000));
    ss_executable *e4, *e1000;
    TS_OK(ss_program_compile(p4, &e4));
    TS_OK(ss_program_compile(p1000, &e1000));
    ss_plan a, b;
    TS_OK(ss_executable_plan(e4, &a));
    TS_OK(ss_executable_plan(e1000, &b));
    /* Per step the same collectives and FLOPs: the plan multiplies. */
    cr_assert_eq(b.ncollectives * 4, a.ncollectives * 1000);
    cr_assert(fabs(b.flops * 4 - a.flops * 1000) <= 1e-9 * b.flops * 4);
    cr_assert_eq(ss_executable_ledger_count(e1000), 1000 * ss_executable_ledger_count(e4) / 4);
    ss_executable_destroy(e4);
    ss_executable_destroy(e1000);
    ss_program_destroy(p4);
    ss_program_destroy(p1000);
    ss_mesh_destroy(m);
}

/* Reverse mode through the counted loop equals reverse mode through the
 * unrolled scan: gradients of sum(out) + sum(ys) w.r.t. x, W1, W2. */
static ss_program *flax_scan_grad(ss_mesh *m, scan_fn fn, int64_t layers, int d)
{
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('data', None)", 2, 8, d);
    ss_value w1 = ts_input(p, "W1", "P(None, None, 'model')", 3, layers, d, d);
    ss_value w2 = ts_input(p, "W2", "P(None, 'model', None)", 3, layers, d, d);
    layer_specs ls = {ts_spec("P('data', 'model')"), ts_spec("P('data', None)")};
    ss_value xs[2] = {w1, w2}, out, ys, s1, s2, loss, g[3];
    TS_OK(fn(p, dot_relu_dot, &ls, -1, 1, &x, 2, xs, 1, &out, &ys));
    int a2[2] = {0, 1}, a3[3] = {0, 1, 2};
    TS_OK(ss_reduce(p, SS_REDUCE_SUM, out, 2, a2, 0, &s1));
    TS_OK(ss_reduce(p, SS_REDUCE_SUM, ys, 3, a3, 0, &s2));
    TS_OK(ss_binary(p, SS_ADD, s1, s2, &loss));
    ss_value wrt[3] = {x, w1, w2};
    TS_OK(ss_grad(p, loss, 3, wrt, g));
    for (int k = 0; k < 3; k++)
        TS_OK(ss_output(p, g[k], NULL));
    return p;
}

Test(loop, scan_loop_gradient_equals_unrolled_gradient)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    enum { L = 3, D = 32 };
    ss_program *pl = flax_scan_grad(m, ss__scan_loop, L, D);
    ss_program *pu = flax_scan_grad(m, ss__scan_unrolled, L, D);
    ss_executable *el, *eu;
    TS_OK(ss_program_compile(pl, &el));
    TS_OK(ss_program_compile(pu, &eu));
    static float x[8 * D], w1[L * D * D], w2[L * D * D];
    static float gl[3][L * D * D], gu[3][L * D * D];
    fill(x, 8 * D, 4);
    fill(w1, L * D * D, 5);
    fill(w2, L * D * D, 6);
    const void *ins[3] = {x, w1, w2};
    void *ol[3] = {gl[0], gl[1], gl[2]}, *ou[3] = {gu[0], gu[1], gu[2]};
    ss_context *ctx = make_ctx(8);
    TS_OK(ss_executable_run(el, ctx, ins, ol));
    TS_OK(ss_executable_run(eu, ctx, ins, ou));
    size_t sizes[3] = {8 * D, L * D * D, L * D * D};
    for (int k = 0; k < 3; k++)
        for (size_t i = 0; i < sizes[k]; i++)
            cr_assert(fabsf(gl[k][i] - gu[k][i]) <= 1e-5f * (1.0f + fabsf(gu[k][i])),
                      "grad %d [%zu]: loop %g, unrolled %g", k, i, gl[k][i], gu[k][i]);
    /* The single-host evaluator agrees with the sharded run. */
    static float ge[3][L * D * D];
    void *oe[3] = {ge[0], ge[1], ge[2]};
    TS_OK(ss_program_eval(pl, ins, oe));
    for (int k = 0; k < 3; k++)
        for (size_t i = 0; i < sizes[k]; i++)
            cr_assert(fabsf(ge[k][i] - gu[k][i]) <= 1e-4f * (1.0f + fabsf(gu[k][i])));
    ss_context_destroy(ctx);
    ss_executable_destroy(el);
    ss_executable_destroy(eu);
    ss_program_destroy(pl);
    ss_program_destroy(pu);
    ss_mesh_destroy(m);
}

/* --- A while whose form shows its trip count ------------------------------------ */

/* lax.fori_loop(0, 3, ...) as JAX lowers it: an i32 counter from the
 * constant 0, `i < 3` (compare LT SIGNED) and `i + 1`, around the sharded
 * matmul step of mm_program. */
static ss_status counted_cond(ss_program *p, const ss_value c[], ss_value *pred, void *user)
{
    (void)user;
    int32_t three = 3;
    ss_value k;
    ss_status st = ss_constant_array(p, SS_I32, 0, NULL, &three, &k);
    return st ? st : ss_compare(p, SS_CMP_LT, SS_CMP_SIGNED, c[1], k, pred);
}

static ss_status counted_body(ss_program *p, const ss_value c[], ss_value next[], void *user)
{
    int32_t one = 1;
    ss_value k;
    ss_status st = mm_step(p, user, c[0], &next[0]);
    if (!st)
        st = ss_constant_array(p, SS_I32, 0, NULL, &one, &k);
    return st ? st : ss_binary(p, SS_ADD, c[1], k, &next[1]);
}

Test(loop, counted_while_is_planned_and_listed_per_trip)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_program *pl, *pu;
    TS_OK(ss_program_create(m, &pl));
    ss_value h = ts_input(pl, "h", "P('data', None)", 2, 8, 16);
    mm_ctx c = {ts_input(pl, "w", "P(None, 'model')", 2, 16, 16), ts_spec("P('data', None)")};
    int32_t zero = 0;
    ss_value i0, fin[2];
    TS_OK(ss_constant_array(pl, SS_I32, 0, NULL, &zero, &i0));
    TS_OK(ss_while_loop(pl, counted_cond, counted_body, &c, 2, (ss_value[]){h, i0}, fin));
    TS_OK(ss_output(pl, fin[0], NULL));
    mm_program(m, false, &pu); /* the three steps written out */
    ss_executable *el, *eu;
    TS_OK(ss_program_compile(pl, &el));
    TS_OK(ss_program_compile(pu, &eu));
    ss_plan plan, unrolled;
    TS_OK(ss_executable_plan(el, &plan));
    TS_OK(ss_executable_plan(eu, &unrolled));
    cr_assert_eq(plan.unknown_trip_loops, 0, "fori_loop(0, 3) has a known trip count");
    cr_assert_eq(plan.ncollectives, unrolled.ncollectives);
    cr_assert_eq(plan.sent_bytes, unrolled.sent_bytes);
    cr_assert_geq(plan.flops, unrolled.flops, "the loop adds its counter's work");
    ss_step_cost steps[64];
    int nsteps = 0;
    double step_flops = 0;
    TS_OK(ss_executable_steps(el, steps, 64, &nsteps));
    cr_assert(nsteps <= 64);
    for (int k = 0; k < nsteps; k++)
        step_flops += steps[k].flops;
    cr_assert_eq(step_flops, plan.flops, "steps %g, plan %g (condition 4 times, body 3)",
                 step_flops, plan.flops);
    /* The listed ledger is the run's ledger. */
    float hv[128], wv[256], got[128];
    for (int k = 0; k < 128; k++)
        hv[k] = (float)((k * 7) % 11) / 11.0f - 0.5f;
    for (int k = 0; k < 256; k++)
        wv[k] = (float)((k * 5) % 13) / 26.0f - 0.25f;
    ss_context *ctx = make_ctx(8);
    TS_OK(ss_executable_run(el, ctx, (const void *[]){hv, wv}, (void *[]){got}));
    int n = ss_context_ledger_count(ctx);
    cr_assert_eq(n, 3);
    cr_assert_eq(ss_executable_ledger_count(el), n);
    for (int k = 0; k < n; k++) {
        ss_coll_record a, b;
        TS_OK(ss_context_ledger_get(ctx, k, &a));
        TS_OK(ss_executable_ledger_get(el, k, &b));
        cr_assert(a.kind == b.kind && a.bytes == b.bytes && a.group_size == b.group_size,
                  "entry %d", k);
        ss_ledger_entry le;
        TS_OK(ss_executable_ledger_entry(el, k, &le));
        cr_assert_eq(le.iteration, k, "entry %d runs in trip %lld", k, (long long)le.iteration);
        cr_assert_eq(le.trips, 3);
        cr_assert_eq(le.in_cond, 0);
    }
    /* Any other while (here the counter starts at an input) stays unknown. */
    ss_program *pv;
    TS_OK(ss_program_create(m, &pv));
    ss_value hv2 = ts_input(pv, "h", "P('data', None)", 2, 8, 16), iv, fv[2];
    mm_ctx c2 = {ts_input(pv, "w", "P(None, 'model')", 2, 16, 16), ts_spec("P('data', None)")};
    TS_OK(ss_input(pv, "i", SS_I32, 0, NULL, NULL, &iv));
    TS_OK(ss_while_loop(pv, counted_cond, counted_body, &c2, 2, (ss_value[]){hv2, iv}, fv));
    TS_OK(ss_output(pv, fv[0], NULL));
    ss_executable *ev;
    TS_OK(ss_program_compile(pv, &ev));
    TS_OK(ss_executable_plan(ev, &plan));
    cr_assert_eq(plan.unknown_trip_loops, 1);
    ss_executable_destroy(ev);
    ss_program_destroy(pv);
    ss_context_destroy(ctx);
    ss_executable_destroy(el);
    ss_executable_destroy(eu);
    ss_program_destroy(pl);
    ss_program_destroy(pu);
    ss_mesh_destroy(m);
}
