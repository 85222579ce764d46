/*
 * autodiff.c — reverse-mode differentiation of a program (jax.vjp,
 * jax.grad, jax.value_and_grad, lax.stop_gradient).
 *
 * The backward pass is appended to the same program as ordinary primitive
 * ops, so propagation and lowering partition it like the forward pass: the
 * transposes of the collectives (docs/gspmd.md section 6) are not written
 * here, they follow from the shardings. A dot contracting a sharded batch
 * gives a partial weight gradient and an all-reduce; a gathered operand's
 * gradient is reduce-scattered back; a constraint's cotangent gets the same
 * constraint (JAX's transpose of with_sharding_constraint).
 *
 * Each op's cotangent rule is JAX's (vjp_rules.c lists them); shard_map
 * regions, collectives and loops have theirs in vjp_manual.c. This file
 * runs the backward sweep over the program and holds the public entry
 * points.
 *
 * Only values on a path from an argument to the differentiated value get a
 * cotangent (JAX's symbolic zeros): a first layer's input gradient is not
 * built when the input is not an argument. Values flagged stop_gradient
 * (ss_stop_gradient, the max in softmax and log_softmax) are constants.
 *
 * shard_map regions are differentiated with JAX's device-variance rules
 * (vjp_manual.c). Not done, as in JAX: pmax/pmin; and
 * integer-valued arguments. Both are reported as errors.
 */
#include "autodiff_internal.h"

#include <stdlib.h>
#include <string.h>

/* --- The sweep ----------------------------------------------------------- */

/* The VJP column of the op table (ss__ pasted onto each name; a 0 stays 0). */
#define ss__0 0
static ss__vjp_rule *const vjp_rules[] = {
#define SS__OP(ID, NAME, NIN, NOUT, FLAGS, SUBNAME, VJP, FWD, BWD, LOWER, EVAL, KERNEL, FLOPS) \
    [SS__OP_##ID] = ss__##VJP,
#include "ops.def"
#undef SS__OP
};
#undef ss__0
_Static_assert(sizeof vjp_rules / sizeof vjp_rules[0] == SS__OP_COUNT, "one rule per opcode");

bool ss__vjp_has_rule(ss__opcode op) { return (unsigned)op < SS__OP_COUNT && vjp_rules[op]; }

/* Whether op `n` passes cotangents at all: a float result (integer and
 * bool values are JAX's float0, no cotangent) and a rule. */
static bool node_differentiable(const ss__node *n)
{
    if (n->stop_gradient || !ss__ad_is_float(n->dtype) || !ss__vjp_has_rule(n->op))
        return false;
    /* Comparisons are piecewise constant. */
    return n->op != SS__OP_BINARY || (n->sub != SS_EQ && n->sub != SS_GT && n->sub != SS_GE);
}

/* Whether op `n` passes a cotangent to operand k: a float operand (a
 * select's predicate, an integer converted to float get none). */
static bool differentiable(const ss_program *p, const ss__node *n, int k)
{
    return node_differentiable(n) && ss__ad_is_float(p->nodes[n->in[k]].dtype);
}

/* Remember that cotangent c belongs to primal v (a layout hint). */
static void tag(ss__ad *s, ss_value v, ss_value c)
{
    ss__node *cn = &s->p->nodes[c];
    const ss__node *vn = &s->p->nodes[v];
    bool same = cn->rank == vn->rank;
    for (int d = 0; same && d < cn->rank; d++)
        same = cn->shape[d] == vn->shape[d];
    if (same && !cn->primal_plus1 && !cn->manual)
        cn->primal_plus1 = v + 1;
}

static ss_status accumulate(ss__ad *s, ss_value v, ss_value c)
{
    bool manual = s->p->nodes[v].manual;
    s->p->in_manual = manual;
    ss_status st0 = manual ? ss__ad_unvary(s, v, &c) : SS_OK;
    if (st0)
        return st0;
    if (s->ct[v] < 0) {
        s->ct[v] = c;
        tag(s, v, c);
        return SS_OK;
    }
    ss_status st = ss_binary(s->p, SS_ADD, s->ct[v], c, &s->ct[v]);
    if (!st) {
        tag(s, v, c);
        tag(s, v, s->ct[v]);
    }
    return st;
}

static ss_status backward_node(ss__ad *s, ss_value v)
{
    ss_program *p = s->p;
    ss__node n = p->nodes[v];
    ss_value g = s->ct[v], gin[SS__MAX_INPUTS];
    bool want[SS__MAX_INPUTS];
    ss_status st = SS_OK;
    for (int k = 0; k < n.nin; k++) {
        want[k] = s->needed[n.in[k]];
        gin[k] = -1;
    }
    p->in_manual = n.manual;
    if (!ss__vjp_has_rule(n.op))
        return ss__fail(SS_ERR_UNSUPPORTED, "grad: %%%d: no cotangent rule for %s", (int)v,
                        ss__opcode_name(&n));
    st = vjp_rules[n.op](s, &n, v, g, want, gin);
    if (st)
        return ss__fail(st, "grad: %%%d (%s): %s", (int)v, ss__opcode_name(&n),
                        ss_error_message());
    for (int k = 0; k < n.nin && !st; k++)
        if (want[k] && gin[k] >= 0)
            st = accumulate(s, n.in[k], gin[k]);
    return st;
}

/* The sweep proper from outputs ys[0..ny) with cotangents seeds[] (s->ct
 * and s->needed have room for the highest of ys); on failure the caller
 * drops what was appended. */
static ss_status vjp_many(ss__ad *s, int ny, const ss_value ys[], const ss_value seeds[], int n,
                          const ss_value wrt[], ss_value grads[])
{
    ss_program *p = s->p;
    ss_value y = -1;
    for (int k = 0; k < ny; k++) {
        if (ys[k] < 0 || ys[k] >= p->n)
            return ss__fail(SS_ERR_INVALID, "grad: %%%d is not a value", (int)ys[k]);
        y = ys[k] > y ? ys[k] : y;
    }
    s->top = y;
    /* depends: reachable from an argument through differentiable ops. */
    for (ss_value v = 0; v <= y; v++) {
        bool dep = false;
        for (int i = 0; i < n && !dep; i++)
            dep = wrt[i] == v;
        const ss__node *nd = &p->nodes[v];
        for (int k = 0; k < nd->nin && !dep; k++)
            dep = s->needed[nd->in[k]] && differentiable(p, nd, k);
        s->needed[v] = dep;
    }
    /* ... and reaches an output: walk back from them. */
    bool *reach = calloc((size_t)y + 2, sizeof *reach);
    if (!reach)
        return ss__fail(SS_ERR_NOMEM, "grad: out of host memory");
    for (int k = 0; k < ny; k++)
        reach[ys[k]] = true;
    for (ss_value v = y; v >= 0; v--) {
        const ss__node *nd = &p->nodes[v];
        if (!reach[v])
            continue;
        for (int k = 0; k < nd->nin; k++)
            if (differentiable(p, nd, k))
                reach[nd->in[k]] = true;
    }
    for (ss_value v = 0; v <= y; v++)
        s->needed[v] = s->needed[v] && reach[v];
    free(reach);

    ss_status st = SS_OK;
    for (int k = 0; k < ny && !st; k++) {
        if (!s->needed[ys[k]])
            continue;
        if (s->ct[ys[k]] < 0)
            s->ct[ys[k]] = seeds[k];
        else
            st = ss_binary(p, SS_ADD, s->ct[ys[k]], seeds[k], &s->ct[ys[k]]);
    }
    for (ss_value v = y; v >= 0 && !st; v--) {
        if (!s->needed[v] || s->ct[v] < 0 || !node_differentiable(&p->nodes[v]))
            continue;
        st = backward_node(s, v);
    }
    p->in_manual = false;
    for (int i = 0; i < n && !st; i++) {
        ss_value w = wrt[i];
        if (w <= y && s->ct[w] >= 0) {
            grads[i] = s->ct[w];
            continue;
        }
        ss__node wn = p->nodes[w];
        st = ss__ad_full(p, 0.0, wn.dtype, wn.rank, wn.shape, &grads[i]);
    }
    return st;
}

static ss_status vjp(ss__ad *s, ss_value y, ss_value seed, int n, const ss_value wrt[],
                     ss_value grads[])
{
    return vjp_many(s, 1, &y, &seed, n, wrt, grads);
}

ss_status ss__vjp_many(ss_program *p, int ny, const ss_value ys[], const ss_value seeds[],
                       int n, const ss_value wrt[], ss_value grads[])
{
    ss_value top = 0;
    for (int k = 0; k < ny; k++)
        top = ys[k] > top ? ys[k] : top;
    for (int i = 0; i < n; i++)
        top = wrt[i] > top ? wrt[i] : top;
    ss__ad s = {.p = p, .ct = malloc(sizeof(ss_value) * ((size_t)top + 1)),
            .needed = calloc((size_t)top + 1, sizeof(bool))};
    ss_status st = SS_OK;
    if (!s.ct || !s.needed) {
        st = ss__fail(SS_ERR_NOMEM, "grad: out of host memory");
    } else {
        for (ss_value v = 0; v <= top; v++)
            s.ct[v] = -1;
        st = vjp_many(&s, ny, ys, seeds, n, wrt, grads);
    }
    free(s.ct);
    free(s.needed);
    free(s.inv);
    return st;
}

/* Drop the nodes (and ppermute pairs) appended since `n0` (`pairs0`): a
 * failing call leaves the program as it was. */
static void truncate(ss_program *p, int n0, int pairs0)
{
    p->in_manual = false;
    p->npairs = pairs0;
    p->n = n0;
    free(p->layouts);
    p->layouts = NULL;
}

static ss_status check_args(ss_program *p, ss_value y, int n, const ss_value wrt[],
                            const char *what)
{
    const ss__node *yn = ss__program_node(p, y, what);
    if (!yn)
        return SS_ERR_INVALID;
    if (!ss__ad_is_float(yn->dtype))
        return ss__fail(SS_ERR_INVALID, "%s: %%%d has dtype %s; only float values can be "
                                        "differentiated", what, (int)y,
                        ss_dtype_name(yn->dtype));
    if (n < 0 || (n > 0 && !wrt))
        return ss__fail(SS_ERR_INVALID, "%s: %d arguments", what, n);
    for (int i = 0; i < n; i++) {
        const ss__node *w = ss__program_node(p, wrt[i], what);
        if (!w)
            return SS_ERR_INVALID;
        if (!ss__ad_is_float(w->dtype))
            return ss__fail(SS_ERR_INVALID, "%s: argument %d (%%%d) has dtype %s; gradients "
                                            "are taken with respect to float values only",
                            what, i, (int)wrt[i], ss_dtype_name(w->dtype));
    }
    if (p->in_manual)
        return ss__fail(SS_ERR_UNSUPPORTED, "%s: inside a shard_map region", what);
    return SS_OK;
}

ss_status ss_vjp(ss_program *p, ss_value y, ss_value cotangent, int n, const ss_value wrt[],
                 ss_value grads[])
{
    ss_status st = check_args(p, y, n, wrt, "vjp");
    if (st)
        return st;
    const ss__node *yn = &p->nodes[y], *cn = ss__program_node(p, cotangent, "vjp");
    if (!cn)
        return SS_ERR_INVALID;
    bool same = cn->rank == yn->rank && ss__ad_is_float(cn->dtype);
    for (int d = 0; same && d < yn->rank; d++)
        same = cn->shape[d] == yn->shape[d];
    if (!same)
        return ss__fail(SS_ERR_INVALID, "vjp: the cotangent %%%d must be a float array of the "
                                        "shape of %%%d", (int)cotangent, (int)y);
    int n0 = p->n, pairs0 = p->npairs;
    uint8_t phase0 = ss__program_enter_phase(p, SS_PHASE_BACKWARD);
    ss__ad s = {.p = p, .ct = malloc(sizeof(ss_value) * ((size_t)y + 1)),
            .needed = calloc((size_t)y + 1, sizeof(bool))};
    if (!s.ct || !s.needed) {
        st = ss__fail(SS_ERR_NOMEM, "vjp: out of host memory");
    } else {
        for (ss_value v = 0; v <= y; v++)
            s.ct[v] = -1;
        st = vjp(&s, y, cotangent, n, wrt, grads);
    }
    free(s.ct);
    free(s.needed);
    free(s.inv);
    p->phase = phase0;
    if (st)
        truncate(p, n0, pairs0);
    return st;
}

ss_status ss_value_and_grad(ss_program *p, ss_value loss, int n, const ss_value wrt[],
                            ss_value *value, ss_value grads[])
{
    ss_status st = check_args(p, loss, n, wrt, "grad");
    if (st)
        return st;
    if (p->nodes[loss].rank != 0)
        return ss__fail(SS_ERR_INVALID, "grad: %%%d has rank %d; grad requires a scalar "
                                        "(rank 0) value, use ss_vjp otherwise",
                        (int)loss, p->nodes[loss].rank);
    int n0 = p->n, pairs0 = p->npairs;
    ss_value one; /* the seed cotangent: the backward's first value */
    uint8_t phase0 = ss__program_enter_phase(p, SS_PHASE_BACKWARD);
    st = ss__ad_scalar(p, 1.0, p->nodes[loss].dtype, &one);
    p->phase = phase0;
    if (st)
        return st;
    st = ss_vjp(p, loss, one, n, wrt, grads);
    if (st) {
        truncate(p, n0, pairs0);
        return st;
    }
    if (value)
        *value = loss;
    return SS_OK;
}

ss_status ss_grad(ss_program *p, ss_value loss, int n, const ss_value wrt[], ss_value grads[])
{
    return ss_value_and_grad(p, loss, n, wrt, NULL, grads);
}

ss_status ss_stop_gradient(ss_program *p, ss_value x, ss_value *out)
{
    const ss__node *a = ss__program_node(p, x, "stop_gradient");
    if (!a)
        return SS_ERR_INVALID;
    int64_t shape[SS_MAX_RANK];
    int rank = a->rank;
    memcpy(shape, a->shape, sizeof shape);
    ss_status st = ss_reshape(p, x, rank, shape, out);
    if (!st)
        p->nodes[*out].stop_gradient = true;
    return st;
}

