/* test_optable.c — the op table (sim/graph/ops.def) against every layer:
 * each row's counts and flags are coherent, each layer that leaves an op
 * without a function has a flag that says why, every op's name maps back to
 * the op, and every op runs: a sample program using it is partitioned over
 * a 2x2 mesh and run, its outputs compared with the single-device reference
 * evaluation, and its gradient (for a differentiable op) with a central
 * difference quotient of that evaluation. A new op fails here until it has
 * a sample and every layer handles it. */
#include "support.h"

#include "graph/graph.h"
#include "kernels/kernels.h"
#include "spmd/spmd_internal.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ROWS(k) for (int k = 0; k < SS__OP_COUNT; k++)

Test(optable, rows_are_coherent)
{
    ROWS(k) {
        const ss__op_info *o = ss__op_info_of((ss__opcode)k);
        cr_assert_not_null(o, "op %d has no row", k);
        cr_assert(o->name && o->name[0], "op %d has no name", k);
        cr_assert(o->nin >= -1 && o->nin <= SS__MAX_INPUTS, "%s: operand count %d", o->name,
                  o->nin);
        if (o->flags & SS__OPF_HAS_REGIONS) /* its results are REGION_RESULT nodes */
            cr_assert_eq(o->nout, -1, "%s: an op with regions has %d results", o->name, o->nout);
        else
            cr_assert_eq(o->nout, 1, "%s: %d results", o->name, o->nout);
        if (o->flags & SS__OPF_REGION_RESULT)
            cr_assert_eq(o->nin, 1, "%s: a region result has %d operands", o->name, o->nin);
        cr_assert_eq((o->flags & SS__OPF_LEAF) != 0, o->nin == 0,
                     "%s: a leaf is exactly an op without operands", o->name);
        if (o->flags & SS__OPF_FIXES_LAYOUT)
            cr_assert_eq(o->nin, 1, "%s fixes operand 0's layout but has %d operands",
                         o->name, o->nin);
        for (int j = 0; j < k; j++)
            cr_assert_str_neq(ss__op_info_of((ss__opcode)j)->name, o->name,
                              "two ops are named %s", o->name);
    }
    cr_assert_null(ss__op_info_of(SS__OP_COUNT));
    cr_assert_null(ss__op_info_of((ss__opcode)-1));
}

/* A layer may leave an op without a function only for the reasons ops.def
 * gives; each clause below is one of them. */
Test(optable, every_layer_handles_every_op)
{
    ROWS(k) {
        ss__opcode op = (ss__opcode)k;
        const ss__op_info *o = ss__op_info_of(op);
        unsigned f = o->flags;
        bool fwd, bwd;
        ss__propagate_has_rules(op, &fwd, &bwd);
        cr_assert_eq(ss__vjp_has_rule(op), !(f & SS__OPF_NONDIFF),
                     "%s: autodiff has %s rule but the op is %sdifferentiable", o->name,
                     ss__vjp_has_rule(op) ? "a" : "no", (f & SS__OPF_NONDIFF) ? "not " : "");
        cr_assert(fwd || (f & (SS__OPF_LEAF | SS__OPF_MANUAL_BOUNDARY | SS__OPF_COLLECTIVE |
                               SS__OPF_HAS_REGIONS)),
                  "%s: no forward propagation rule", o->name);
        cr_assert(bwd || (f & (SS__OPF_LEAF | SS__OPF_MANUAL_BOUNDARY | SS__OPF_COLLECTIVE |
                               SS__OPF_REGION_RESULT)),
                  "%s: no backward propagation rule", o->name);
        cr_assert(ss__lower_has_rule(op), "%s: no lowering", o->name);
        cr_assert(ss__eval_has_rule(op) ||
                      (f & (SS__OPF_LEAF | SS__OPF_MANUAL_BOUNDARY | SS__OPF_COLLECTIVE |
                            SS__OPF_HAS_REGIONS | SS__OPF_REGION_RESULT)),
                  "%s: no single-device evaluation", o->name);
        cr_assert(ss__exec_has_kernel(op) ||
                      (f & (SS__OPF_LEAF | SS__OPF_FIXES_LAYOUT | SS__OPF_MANUAL_BOUNDARY |
                            SS__OPF_COLLECTIVE | SS__OPF_HAS_REGIONS | SS__OPF_REGION_RESULT |
                            SS__OPF_MOVES_MEMORY)),
                  "%s: no kernel", o->name);
        if (ss__plan_has_flops(op))
            cr_assert(ss__exec_has_kernel(op), "%s: flops counted for no kernel", o->name);
    }
}

/* The names JAX and StableHLO give these ops (jax.lax primitives,
 * stablehlo op names), written out independently of the table. */
Test(optable, names_are_jax_names_and_round_trip)
{
    static const struct {
        const char *name;
        ss__opcode op;
        int sub;
    } known[] = {
        {"dot_general", SS__OP_DOT, 0},
        {"transpose", SS__OP_TRANSPOSE, 0},
        {"reshape", SS__OP_RESHAPE, 0},
        {"broadcast_in_dim", SS__OP_BROADCAST, 0},
        {"slice", SS__OP_SLICE, 0},
        {"concatenate", SS__OP_CONCAT, 0},
        {"sharding_constraint", SS__OP_CONSTRAIN, 0},
        {"add", SS__OP_BINARY, SS_ADD},
        {"pow", SS__OP_BINARY, SS_POW},
        {"ge", SS__OP_BINARY, SS_GE},
        {"tanh", SS__OP_UNARY, SS_TANH},
        {"rsqrt", SS__OP_UNARY, SS_RSQRT},
        {"reduce_max", SS__OP_REDUCE, SS_REDUCE_MAX},
        {"all_gather", SS__OP_COLLECTIVE, SS_COLL_ALL_GATHER},
        {"while", SS__OP_LOOP, 0},
        {"scan", SS__OP_LOOP, 1},
    };
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++) {
        ss__node n = {.op = known[k].op, .sub = known[k].sub};
        cr_assert_str_eq(ss__opcode_name(&n), known[k].name);
        ss__opcode op;
        int sub;
        cr_assert(ss__opcode_lookup(known[k].name, &op, &sub), "%s", known[k].name);
        cr_assert(op == known[k].op && sub == known[k].sub, "%s -> op %d sub %d",
                  known[k].name, (int)op, sub);
    }
    /* Every name of every op and variant maps back to it, and no two share
     * a name (the lookup finds the first). */
    int names = 0;
    ROWS(k) {
        const ss__op_info *o = ss__op_info_of((ss__opcode)k);
        int nsub = 1;
        if (o->subname) {
            nsub = 0;
            while (o->subname(nsub))
                nsub++;
            cr_assert_gt(nsub, 0, "%s: no variant has a name", o->name);
            cr_assert_null(o->subname(-1));
        }
        for (int sub = 0; sub < nsub; sub++) {
            ss__node n = {.op = (ss__opcode)k, .sub = sub};
            const char *name = ss__opcode_name(&n);
            ss__opcode op;
            int back;
            cr_assert(ss__opcode_lookup(name, &op, &back), "%s does not map back", name);
            cr_assert(op == (ss__opcode)k && back == (o->subname ? sub : 0),
                      "%s (op %d sub %d) maps back to op %d sub %d", name, k, sub, (int)op,
                      back);
            names++;
        }
    }
    cr_assert_geq(names, SS__OP_COUNT + SS_UNARY_COUNT + SS_BINARY_COUNT);
    ss__opcode op;
    int sub;
    cr_assert_not(ss__opcode_lookup("no_such_op", &op, &sub));
    ss__node bad = {.op = SS__OP_UNARY, .sub = SS_UNARY_COUNT};
    cr_assert_str_eq(ss__opcode_name(&bad), "unary");
}

/* --- Every op runs --------------------------------------------------------- */

/* A sample program using op k on inputs x f32[4,8] (P('x', 'y')),
 * w f32[8,4] (P(None, 'y')) and labels i32[8] (P('x')), declared by the
 * caller; returns its f32 result. */
typedef struct sample_in {
    ss_value x, w, labels;
} sample_in;
typedef ss_value (*sample_fn)(ss_program *p, const sample_in *in);

static ss_value s_input(ss_program *p, const sample_in *in)
{
    (void)p;
    return in->x;
}

static ss_value s_param(ss_program *p, const sample_in *in)
{
    (void)p;
    return in->w;
}

static ss_value s_constant(ss_program *p, const sample_in *in)
{
    ss_value c, y;
    TS_OK(ss_constant(p, 2.5, &c));
    TS_OK(ss_binary(p, SS_MUL, in->x, c, &y));
    return y;
}

static ss_value s_unary(ss_program *p, const sample_in *in)
{
    ss_value y;
    TS_OK(ss_unary(p, SS_TANH, in->x, &y));
    return y;
}

static ss_value s_binary(ss_program *p, const sample_in *in)
{
    ss_value t, y;
    TS_OK(ss_unary(p, SS_EXP, in->x, &t));
    TS_OK(ss_binary(p, SS_MUL, in->x, t, &y));
    return y;
}

static ss_value s_dot(ss_program *p, const sample_in *in)
{
    ss_value y;
    TS_OK(ss_matmul(p, in->x, in->w, &y));
    return y;
}

static ss_value s_reduce(ss_program *p, const sample_in *in)
{
    ss_value y;
    TS_OK(ss_reduce(p, SS_REDUCE_SUM, in->x, 1, (int[]){1}, 0, &y));
    return y;
}

static ss_value s_transpose(ss_program *p, const sample_in *in)
{
    ss_value y;
    TS_OK(ss_transpose(p, in->x, (int[]){1, 0}, &y));
    return y;
}

static ss_value s_reshape(ss_program *p, const sample_in *in)
{
    ss_value y;
    TS_OK(ss_reshape(p, in->x, 3, (int64_t[]){4, 2, 4}, &y));
    return y;
}

static ss_value s_broadcast(ss_program *p, const sample_in *in)
{
    ss_value r, y;
    TS_OK(ss_reduce(p, SS_REDUCE_SUM, in->x, 1, (int[]){0}, 0, &r));
    TS_OK(ss_broadcast_in_dim(p, r, 3, (int64_t[]){2, 8, 3}, (int[]){1}, &y));
    return y;
}

static ss_value s_slice(ss_program *p, const sample_in *in)
{
    ss_value y;
    TS_OK(ss_slice(p, in->x, (int64_t[]){1, 2}, (int64_t[]){3, 8}, &y));
    return y;
}

static ss_value s_concat(ss_program *p, const sample_in *in)
{
    ss_value t, y;
    TS_OK(ss_transpose(p, in->w, (int[]){1, 0}, &t));
    TS_OK(ss_concatenate(p, 2, (ss_value[]){in->x, t}, 0, &y));
    return y;
}

static ss_value s_one_hot(ss_program *p, const sample_in *in)
{
    ss_value y;
    TS_OK(ss_one_hot(p, in->labels, 3, &y));
    return y;
}

static ss_value s_constrain(ss_program *p, const sample_in *in)
{
    ss_value t, y;
    ss_spec s = ts_spec("P(None, 'x')");
    TS_OK(ss_unary(p, SS_TANH, in->x, &t));
    TS_OK(ss_constrain(p, t, &s, &y));
    return y;
}

/* shard_map(x, in P('x', 'y')): psum over 'x' of tanh(x) * x,
 * out P(None, 'y'): an entry, an exit and a collective. */
static ss_value s_shard_map(ss_program *p, const sample_in *in)
{
    ss_spec in_spec = ts_spec("P('x', 'y')"), out_spec = ts_spec("P(None, 'y')");
    ss_value xl, t, u, s, y;
    TS_OK(ss_shard_map_begin(p, 1, &in->x, &in_spec, &xl));
    TS_OK(ss_unary(p, SS_TANH, xl, &t));
    TS_OK(ss_binary(p, SS_MUL, t, xl, &u));
    TS_OK(ss_psum(p, u, "x", SS_REDUCE_SUM, &s));
    TS_OK(ss_shard_map_end(p, 1, &s, &out_spec, &y));
    return y;
}

/* One step of lax.scan over the rows of x: h = tanh(h * x_i + x_i), and
 * y_i = sum_j h[j] * w[j, :] with w captured from outside the loop (a loop
 * invariant). */
static ss_status scan_step(ss_program *p, const ss_value carry[], const ss_value xs[],
                           ss_value new_carry[], ss_value ys[], void *user)
{
    ss_value w = *(const ss_value *)user, a, b, hb, hw;
    ss_status st = ss_binary(p, SS_MUL, carry[0], xs[0], &a);
    if (!st)
        st = ss_binary(p, SS_ADD, a, xs[0], &b);
    if (!st)
        st = ss_unary(p, SS_TANH, b, &new_carry[0]);
    if (!st)
        st = ss_broadcast_in_dim(p, new_carry[0], 2, (int64_t[]){8, 4}, (int[]){0}, &hb);
    if (!st)
        st = ss_binary(p, SS_MUL, hb, w, &hw);
    if (!st)
        st = ss_reduce(p, SS_REDUCE_SUM, hw, 1, (int[]){0}, 0, &ys[0]);
    return st;
}

/* A counted loop (lax.scan) of 4 steps from h = 0.5: its stacked ys
 * f32[4,4]. The loop carries, slices xs, captures an invariant and stacks
 * ys; its gradient is the reverse loop (a while has no gradient; its runs
 * are tested in test_loop.c). */
static ss_value s_loop(ss_program *p, const sample_in *in)
{
    ss_value c, h0, fin, ys;
    ss_value w = in->w;
    TS_OK(ss_constant(p, 0.5, &c));
    TS_OK(ss_broadcast_in_dim(p, c, 1, (int64_t[]){8}, (int[]){0}, &h0));
    TS_OK(ss__scan_loop(p, scan_step, &w, 4, 1, &h0, 1, &in->x, 1, &fin, &ys));
    return ys;
}

/* where(x > 0.1, 1.0, 0.0) through a bool: compare, then convert. */
static ss_value s_compare(ss_program *p, const sample_in *in)
{
    ss_value c, k, y;
    TS_OK(ss_constant(p, 0.1, &k));
    TS_OK(ss_compare(p, SS_CMP_GT, SS_CMP_FLOAT, in->x, k, &c));
    TS_OK(ss_convert(p, c, SS_F32, &y));
    return y;
}

/* jnp.where(x > 0, 2 * x, tanh(2 * x)): slopes differ away from 0 and
 * agree at 0 (where a difference quotient straddles the two branches);
 * relu's gradient has this shape. */
static ss_value s_select(ss_program *p, const sample_in *in)
{
    ss_value c, k, q, x2, th, y;
    TS_OK(ss_constant(p, 0.0, &k));
    TS_OK(ss_constant(p, 2.0, &q));
    TS_OK(ss_compare(p, SS_CMP_GT, SS_CMP_FLOAT, in->x, k, &c));
    TS_OK(ss_binary(p, SS_MUL, in->x, q, &x2));
    TS_OK(ss_unary(p, SS_TANH, x2, &th));
    TS_OK(ss_select(p, c, x2, th, &y));
    return y;
}

/* lax.clamp(-0.3, x, 0.42) with rank-0 bounds, which cut x's values
 * (make_inputs') where none is within the difference quotient's step. */
static ss_value s_clamp(ss_program *p, const sample_in *in)
{
    ss_value lo, hi, y;
    TS_OK(ss_constant(p, -0.3, &lo));
    TS_OK(ss_constant(p, 0.42, &hi));
    TS_OK(ss_clamp(p, lo, in->x, hi, &y));
    return y;
}

/* XLA CPU's contraction's op, two of its forms: c - a*b of a*b + c,
 * with w transposed beside x (its gradient reaches both). */
static ss_value s_fma(ss_program *p, const sample_in *in)
{
    ss_value wt, y;
    TS_OK(ss_transpose(p, in->w, (int[]){1, 0}, &wt));
    TS_OK(ss__fma(p, SS__K_FMA_ADD, in->x, wt, in->x, &y));
    TS_OK(ss__fma(p, SS__K_FMA_REVSUB, in->x, y, wt, &y));
    return y;
}

/* lax.rev of x along both dims, times a dense constant and an iota (the
 * constant op's other variants), so the layouts of all three meet. */
static ss_value s_reverse(ss_program *p, const sample_in *in)
{
    float k[32];
    for (int j = 0; j < 32; j++)
        k[j] = 0.25f * (float)(j % 7) - 0.5f;
    ss_value r, c, i, ci, y;
    TS_OK(ss_reverse(p, in->x, 2, (int[]){0, -1}, &r));
    TS_OK(ss_constant_array(p, SS_F32, 2, (int64_t[]){4, 8}, k, &c));
    TS_OK(ss_iota(p, SS_F32, 2, (int64_t[]){4, 8}, 1, &i));
    TS_OK(ss_binary(p, SS_ADD, c, i, &ci));
    TS_OK(ss_binary(p, SS_MUL, r, ci, &y));
    return y;
}

/* lax.pad(x, 0.5, [(1, -1, 1), (-2, 3, 0)]): interior padding, a cut and
 * an extension, with a strided slice of the result (rows 0, 2, 4, 6). */
static ss_value s_pad(ss_program *p, const sample_in *in)
{
    ss_value c, t, y;
    TS_OK(ss_constant(p, 0.5, &c));
    TS_OK(ss_pad(p, in->x, c, (int64_t[]){1, -2}, (int64_t[]){-1, 3}, (int64_t[]){1, 0}, &t));
    TS_OK(ss_slice_strided(p, t, (int64_t[]){0, 1}, (int64_t[]){7, 9}, (int64_t[]){2, 3}, &y));
    return y;
}

/* jnp.argmax of x along its rows (sharded 'y': gathered first), and
 * jnp.argmin down its columns, as f32 for the comparison. */
static ss_value s_argmax(ss_program *p, const sample_in *in)
{
    ss_value a, b, af, bf, y;
    TS_OK(ss_argmax(p, in->x, 1, SS_I32, &a));
    TS_OK(ss_argmin(p, in->x, 0, SS_I64, &b));
    TS_OK(ss_convert(p, a, SS_F32, &af));
    TS_OK(ss_convert(p, b, SS_F32, &bf));
    TS_OK(ss_concatenate(p, 2, (ss_value[]){af, bf}, 0, &y));
    return y;
}

/* y = dynamic_update_slice(x, tanh(dynamic_slice(x, (i, 3), (2, 4))), (1, i))
 * with i = labels[2] (a data-dependent start). */
static ss_value s_dynamic(ss_program *p, const sample_in *in)
{
    ss_value i, t, u, y;
    TS_OK(ss_slice(p, in->labels, (int64_t[]){2}, (int64_t[]){3}, &i));
    TS_OK(ss_reshape(p, i, 0, NULL, &i));
    int32_t three = 3, one = 1;
    ss_value c3, c1;
    TS_OK(ss_constant_array(p, SS_I32, 0, NULL, &three, &c3));
    TS_OK(ss_constant_array(p, SS_I32, 0, NULL, &one, &c1));
    TS_OK(ss_dynamic_slice(p, in->x, 2, (ss_value[]){i, c3}, (int64_t[]){2, 4}, &t));
    TS_OK(ss_unary(p, SS_TANH, t, &u));
    TS_OK(ss_dynamic_update_slice(p, in->x, u, 2, (ss_value[]){c1, i}, &y));
    return y;
}

/* Embedding lookups by labels (as [8, 1] indices): rows of w (sharded on
 * its columns: a passthrough dim, kept) and rows of x (sharded on the
 * indexed dim: gathered per block, masked and summed), side by side. */
static const ss_gather_dims rows_of = {
    .n_offset = 1, .offset_dims = {1}, .n_collapsed = 1, .collapsed_slice_dims = {0},
    .n_index_map = 1, .start_index_map = {0}, .index_vector_dim = 1};

static ss_value s_gather(ss_program *p, const sample_in *in)
{
    ss_value ids, a, b, y;
    ss_gather_dims gw = rows_of, gx = rows_of;
    gw.slice_sizes[0] = 1, gw.slice_sizes[1] = 4;
    gx.slice_sizes[0] = 1, gx.slice_sizes[1] = 8;
    TS_OK(ss_reshape(p, in->labels, 2, (int64_t[]){8, 1}, &ids));
    TS_OK(ss_gather(p, in->w, ids, &gw, &a));
    TS_OK(ss_gather(p, in->x, ids, &gx, &b));
    TS_OK(ss_concatenate(p, 2, (ss_value[]){a, b}, 1, &y));
    return y;
}

/* w.at[labels].add(x^T): repeated labels add up. */
static ss_value s_scatter(ss_program *p, const sample_in *in)
{
    ss_value ids, u, y;
    TS_OK(ss_reshape(p, in->labels, 2, (int64_t[]){8, 1}, &ids));
    TS_OK(ss_transpose(p, in->x, (int[]){1, 0}, &u));
    TS_OK(ss_scatter(p, in->w, ids, u, SS_SCATTER_ADD, &rows_of, &y));
    return y;
}

/* sort((k, x, w^T)) along the sharded dim 1, descending by an iota k
 * (a key without ties, so the difference quotient never crosses a swap):
 * x and w^T reversed along dim 1, added. */
static ss_value s_sort(ss_program *p, const sample_in *in)
{
    ss_value wt, k, r[3], y;
    TS_OK(ss_transpose(p, in->w, (int[]){1, 0}, &wt));
    TS_OK(ss_iota(p, SS_I32, 2, (int64_t[]){4, 8}, 1, &k));
    TS_OK(ss_sort(p, 3, (ss_value[]){k, in->x, wt}, 1, 1, 1u, r));
    TS_OK(ss_binary(p, SS_ADD, r[1], r[2], &y));
    return y;
}

/* top_k(x + w^T, 3): the values beside the indices (as f32). */
static ss_value s_top_k(ss_program *p, const sample_in *in)
{
    ss_value wt, s, v, i, y;
    TS_OK(ss_transpose(p, in->w, (int[]){1, 0}, &wt));
    TS_OK(ss_binary(p, SS_ADD, in->x, wt, &s));
    TS_OK(ss_top_k(p, s, 3, &v, &i));
    TS_OK(ss_convert(p, i, SS_F32, &i));
    TS_OK(ss_concatenate(p, 2, (ss_value[]){v, i}, 1, &y));
    return y;
}

/* lax.switch on labels[1] (a data-dependent index, 0 with make_inputs'
 * labels): branch 0 tanh(x), branch 1 x * w^T, branch 2 x - w^T; each
 * captures what it uses, and the gradient is the selected branch's (none
 * for w). Other indices: tests/test_case.c. */
typedef struct switch_in {
    ss_value x, wt;
} switch_in;

static ss_status switch_branch(ss_program *p, int b, ss_value outs[], void *user)
{
    const switch_in *s = user;
    if (b == 0)
        return ss_unary(p, SS_TANH, s->x, &outs[0]);
    return ss_binary(p, b == 1 ? SS_MUL : SS_SUB, s->x, s->wt, &outs[0]);
}

static ss_value s_case(ss_program *p, const sample_in *in)
{
    switch_in s = {in->x, -1};
    ss_value i, y;
    TS_OK(ss_transpose(p, in->w, (int[]){1, 0}, &s.wt));
    TS_OK(ss_slice(p, in->labels, (int64_t[]){1}, (int64_t[]){2}, &i));
    TS_OK(ss_reshape(p, i, 0, NULL, &i));
    TS_OK(ss_switch(p, i, 3, switch_branch, &s, 1, &y));
    return y;
}

/* rng_bit_generator twice, chained through the state (ThreeFry u16, then
 * Philox u32 from the new state), the bits as f32 added to x: the bits
 * take x's tiling, so each device computes its own block. */
static ss_value s_rng(ss_program *p, const sample_in *in)
{
    static const uint64_t state[2] = {0x0123456789abcdefu, 42};
    ss_value s, ns, b1, b2, ns2, y;
    TS_OK(ss_constant_array(p, SS_U64, 1, (int64_t[]){2}, state, &s));
    TS_OK(ss_rng_bit_generator(p, s, SS_RNG_THREE_FRY, SS_U16, 2, (int64_t[]){4, 8}, &ns, &b1));
    TS_OK(ss_rng_bit_generator(p, ns, SS_RNG_PHILOX, SS_U32, 2, (int64_t[]){4, 8}, &ns2, &b2));
    TS_OK(ss_convert(p, b1, SS_F32, &b1));
    TS_OK(ss_convert(p, b2, SS_F32, &b2));
    TS_OK(ss_binary(p, SS_ADD, in->x, b1, &y));
    TS_OK(ss_binary(p, SS_SUB, y, b2, &y));
    return y;
}

/* tanh(x) put in pinned_host memory and back to the device, times w^T:
 * the gradient comes back through both transfers. */
static ss_value s_device_put(ss_program *p, const sample_in *in)
{
    ss_value t, h, d, wt, y;
    TS_OK(ss_unary(p, SS_TANH, in->x, &t));
    TS_OK(ss_device_put(p, t, SS_MEMORY_PINNED_HOST, &h));
    TS_OK(ss_device_put(p, h, SS_MEMORY_DEVICE, &d));
    TS_OK(ss_transpose(p, in->w, (int[]){1, 0}, &wt));
    TS_OK(ss_binary(p, SS_MUL, d, wt, &y));
    return y;
}

/* One sample per opcode: a new op fails `every_op_runs` until it has one. */
static const sample_fn samples[SS__OP_COUNT] = {
    [SS__OP_INPUT] = s_input,         [SS__OP_PARAM] = s_param,
    [SS__OP_CONSTANT] = s_constant,   [SS__OP_UNARY] = s_unary,
    [SS__OP_BINARY] = s_binary,       [SS__OP_DOT] = s_dot,
    [SS__OP_REDUCE] = s_reduce,       [SS__OP_TRANSPOSE] = s_transpose,
    [SS__OP_RESHAPE] = s_reshape,     [SS__OP_BROADCAST] = s_broadcast,
    [SS__OP_SLICE] = s_slice,         [SS__OP_CONCAT] = s_concat,
    [SS__OP_ONE_HOT] = s_one_hot,     [SS__OP_CONSTRAIN] = s_constrain,
    [SS__OP_MANUAL_IN] = s_shard_map, [SS__OP_MANUAL_OUT] = s_shard_map,
    [SS__OP_COLLECTIVE] = s_shard_map, [SS__OP_LOOP] = s_loop,
    [SS__OP_LOOP_RESULT] = s_loop,    [SS__OP_COMPARE] = s_compare,
    [SS__OP_SELECT] = s_select,       [SS__OP_CLAMP] = s_clamp,
    [SS__OP_REVERSE] = s_reverse,     [SS__OP_PAD] = s_pad,
    [SS__OP_ARGMAX] = s_argmax,       [SS__OP_DYNAMIC_SLICE] = s_dynamic,
    [SS__OP_DYNAMIC_UPDATE_SLICE] = s_dynamic,
    [SS__OP_GATHER] = s_gather,       [SS__OP_SCATTER] = s_scatter,
    [SS__OP_SORT] = s_sort,           [SS__OP_TOP_K] = s_top_k,
    [SS__OP_CASE] = s_case,           [SS__OP_CASE_RESULT] = s_case,
    [SS__OP_RNG_BIT_GENERATOR] = s_rng,
    [SS__OP_MEMORY] = s_device_put,   [SS__OP_FMA] = s_fma,
};

static size_t elems_of(const ss_program *p, ss_value v)
{
    int rank;
    int64_t shape[SS_MAX_RANK];
    TS_OK(ss_value_shape(p, v, NULL, &rank, shape));
    size_t n = 1;
    for (int d = 0; d < rank; d++)
        n *= (size_t)shape[d];
    return n;
}

/* The program of op k's sample; *nouts outputs: y, then (differentiable)
 * loss = sum(y * r) and its gradients with respect to x and w. */
static ss_program *build(const ss_mesh *m, int k, int *ngrads)
{
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    sample_in in;
    ss_spec xs = ts_spec("P('x', 'y')"), ws = ts_spec("P(None, 'y')"), ls = ts_spec("P('x')");
    TS_OK(ss_input(p, "x", SS_F32, 2, (int64_t[]){4, 8}, &xs, &in.x));
    TS_OK(ss_param(p, "w", SS_F32, 2, (int64_t[]){8, 4}, &ws, &in.w));
    TS_OK(ss_input(p, "labels", SS_I32, 1, (int64_t[]){8}, &ls, &in.labels));
    int n0 = ss_program_value_count(p);
    ss_value y = samples[k](p, &in);
    bool uses = false;
    for (ss_value v = k < 3 ? 0 : n0; v < ss_program_value_count(p); v++)
        uses |= p->nodes[v].op == (ss__opcode)k;
    cr_assert(uses, "the sample of %s does not use it", ss__op_info_of((ss__opcode)k)->name);
    TS_OK(ss_output(p, y, NULL));
    *ngrads = 0;
    if (!ss__vjp_has_rule((ss__opcode)k))
        return p;
    int rank;
    int64_t shape[SS_MAX_RANK];
    TS_OK(ss_value_shape(p, y, NULL, &rank, shape));
    ss_value r, yr, loss, g[2];
    TS_OK(ss_input(p, "r", SS_F32, rank, shape, NULL, &r));
    TS_OK(ss_binary(p, SS_MUL, y, r, &yr));
    int axes[SS_MAX_RANK];
    for (int d = 0; d < rank; d++)
        axes[d] = d;
    TS_OK(ss_reduce(p, SS_REDUCE_SUM, yr, rank, axes, 0, &loss));
    TS_OK(ss_grad(p, loss, 2, (ss_value[]){in.x, in.w}, g));
    TS_OK(ss_output(p, loss, NULL));
    TS_OK(ss_output(p, g[0], NULL));
    TS_OK(ss_output(p, g[1], NULL));
    *ngrads = 2;
    return p;
}

/* Inputs in program order (what ss_program_eval takes), deterministic. */
static void **make_inputs(const ss_program *p, int *nin)
{
    void **ins = calloc(8, sizeof *ins);
    unsigned seed = 7;
    int i = 0;
    for (ss_value v = 0; v < p->n; v++) {
        const ss__node *n = &p->nodes[v];
        if (n->op != SS__OP_INPUT && n->op != SS__OP_PARAM)
            continue;
        size_t e = elems_of(p, v);
        if (n->dtype == SS_I32) {
            int32_t *a = malloc(e * sizeof *a);
            for (size_t j = 0; j < e; j++)
                a[j] = (int32_t)((j * 5 + 1) % 3);
            ins[i++] = a;
            continue;
        }
        float *a = malloc(e * sizeof *a);
        for (size_t j = 0; j < e; j++) {
            seed = seed * 1103515245u + 12345u;
            a[j] = (float)((seed >> 8) % 2001) / 1000.0f - 1.0f;
        }
        ins[i++] = a;
    }
    *nin = i;
    return ins;
}

static void **eval_outputs(const ss_program *p, void **ins)
{
    void **outs = calloc((size_t)p->nouts, sizeof *outs);
    for (int o = 0; o < p->nouts; o++)
        outs[o] = calloc(elems_of(p, p->outs[o]), sizeof(float));
    TS_OK(ss_program_eval(p, (const void *const *)ins, outs));
    return outs;
}

static void free_all(void **a, int n)
{
    for (int k = 0; k < n; k++)
        free(a[k]);
    free(a);
}

/* The partitioned run equals the reference evaluation, normwise to 1e-5
 * of the largest magnitude (the run's dot accumulates in f32). */
static void check_run(ss_program *p, void **ins, void **refs, const char *name)
{
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    void **outs = calloc((size_t)p->nouts, sizeof *outs);
    for (int o = 0; o < p->nouts; o++)
        outs[o] = calloc(elems_of(p, p->outs[o]), sizeof(float));
    void **eins = calloc(8, sizeof *eins);
    for (int i = 0; i < ss_executable_input_count(e); i++) {
        ss_value v;
        TS_OK(ss_executable_input(e, i, &v));
        int at = 0; /* v's place among the program's inputs */
        for (ss_value u = 0; u < v; u++)
            at += p->nodes[u].op == SS__OP_INPUT || p->nodes[u].op == SS__OP_PARAM;
        eins[i] = ins[at];
    }
    ss_context_options co = {.ndevices = 4, .device_memory = (size_t)16 << 20, .timeout = 30};
    ss_context *ctx;
    TS_OK(ss_context_create(&co, &ctx));
    TS_OK(ss_executable_run(e, ctx, (const void *const *)eins, outs));
    for (int o = 0; o < p->nouts; o++) {
        size_t n = elems_of(p, p->outs[o]);
        const float *a = outs[o], *b = refs[o];
        float scale = 1.0f;
        for (size_t j = 0; j < n; j++)
            scale = fmaxf(scale, fabsf(b[j]));
        for (size_t j = 0; j < n; j++)
            cr_assert(fabsf(a[j] - b[j]) <= 1e-5f * scale, "%s: output %d [%zu]: run %g, eval %g",
                      name, o, j, (double)a[j], (double)b[j]);
    }
    ss_context_destroy(ctx);
    ss_executable_destroy(e);
    free(eins);
    free_all(outs, p->nouts);
}

/* d loss / d input[which][j] by a central difference of the evaluation,
 * against the gradient the program computed (output 2 + which). */
static void check_grad(const ss_program *p, void **ins, void **refs, const char *name)
{
    const double h = 1e-2;
    void **tmp = calloc((size_t)p->nouts, sizeof *tmp);
    for (int o = 0; o < p->nouts; o++)
        tmp[o] = calloc(elems_of(p, p->outs[o]), sizeof(float));
    for (int which = 0; which < 2; which++) {
        float *a = ins[which];
        const float *g = refs[2 + which];
        size_t n = elems_of(p, which ? 1 : 0);
        for (size_t j = 0; j < n; j++) {
            float keep = a[j];
            a[j] = (float)(keep + h);
            TS_OK(ss_program_eval(p, (const void *const *)ins, tmp));
            double up = *(const float *)tmp[1];
            a[j] = (float)(keep - h);
            TS_OK(ss_program_eval(p, (const void *const *)ins, tmp));
            double down = *(const float *)tmp[1];
            a[j] = keep;
            double fd = (up - down) / (2 * h);
            cr_assert(fabs(fd - g[j]) <= 2e-3 * (1 + fabs(fd)),
                      "%s: d loss / d %s[%zu]: program %g, difference quotient %g", name,
                      which ? "w" : "x", j, (double)g[j], fd);
        }
    }
    free_all(tmp, p->nouts);
}

Test(optable, every_op_runs, .timeout = 120)
{
    ss_mesh *m = ts_make_mesh("x=2,y=2", 4);
    ROWS(k) {
        const char *name = ss__op_info_of((ss__opcode)k)->name;
        cr_assert_not_null(samples[k], "%s has no sample program in test_optable.c", name);
        int ngrads, nin;
        ss_program *p = build(m, k, &ngrads);
        TS_OK(ss_program_propagate(p));
        void **ins = make_inputs(p, &nin);
        void **refs = eval_outputs(p, ins);
        check_run(p, ins, refs, name);
        if (ngrads)
            check_grad(p, ins, refs, name);
        free_all(refs, p->nouts);
        free_all(ins, nin);
        ss_program_destroy(p);
    }
    ss_mesh_destroy(m);
}
