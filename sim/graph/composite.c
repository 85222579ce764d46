/*
 * composite.c — ops that jax.nn and optax build from primitives, expanded
 * the same way so that their partitioning (and communication) is what GSPMD
 * does for the primitives: a softmax over a sharded axis costs a max and a
 * sum all-reduce, exactly as on TPU.
 */
#include "graph.h"

/* Reduce x over `axis` and broadcast the result back to x's shape. */
static ss_status reduce_back(ss_program *p, ss_reduce_op op, ss_value x, int axis,
                             ss_value *out)
{
    int rank = p->nodes[x].rank;
    int64_t shape[SS_MAX_RANK];
    for (int d = 0; d < rank; d++)
        shape[d] = p->nodes[x].shape[d];
    ss_value r;
    ss_status st = ss_reduce(p, op, x, 1, &axis, 0, &r);
    if (st)
        return st;
    int dims[SS_MAX_RANK], k = 0;
    for (int d = 0; d < rank; d++)
        if (d != axis)
            dims[k++] = d;
    return ss_broadcast_in_dim(p, r, rank, shape, dims, out);
}

static ss_status check_axis(const ss_program *p, ss_value x, int *axis, const char *op)
{
    const ss__node *n = ss__program_node(p, x, op);
    if (!n)
        return SS_ERR_INVALID;
    int a = *axis < 0 ? *axis + n->rank : *axis;
    if (a < 0 || a >= n->rank)
        return ss__fail(SS_ERR_INVALID, "%s: axis %d is out of range for rank %d", op, *axis,
                        n->rank);
    *axis = a;
    return SS_OK;
}

/* x - stop_gradient(max(x, axis)), the shift both softmaxes use for
 * stability. jax.nn.log_softmax and optax's cross-entropy stop the gradient
 * of the max, and jax.nn.softmax's custom JVP ignores it: so does autodiff
 * here (the max is flagged, its tie-splitting gradient never built). */
static ss_status shifted(ss_program *p, ss_value x, int axis, ss_value *out)
{
    ss_value m;
    ss_status st = reduce_back(p, SS_REDUCE_MAX, x, axis, &m);
    if (st)
        return st;
    p->nodes[m].stop_gradient = true;
    return ss_binary(p, SS_SUB, x, m, out);
}

ss_status ss_softmax(ss_program *p, ss_value x, int axis, ss_value *out)
{
    ss_value s, e, z;
    ss_status st = check_axis(p, x, &axis, "softmax");
    if (!st)
        st = shifted(p, x, axis, &s);
    if (!st)
        st = ss_unary(p, SS_EXP, s, &e);
    if (!st)
        st = reduce_back(p, SS_REDUCE_SUM, e, axis, &z);
    return st ? st : ss_binary(p, SS_DIV, e, z, out);
}

ss_status ss_log_softmax(ss_program *p, ss_value x, int axis, ss_value *out)
{
    ss_value s, e, z, lz;
    ss_status st = check_axis(p, x, &axis, "log_softmax");
    if (!st)
        st = shifted(p, x, axis, &s);
    if (!st)
        st = ss_unary(p, SS_EXP, s, &e);
    if (!st)
        st = reduce_back(p, SS_REDUCE_SUM, e, axis, &z);
    if (!st)
        st = ss_unary(p, SS_LOG, z, &lz);
    return st ? st : ss_binary(p, SS_SUB, s, lz, out);
}

ss_status ss_layer_norm(ss_program *p, ss_value x, ss_value scale, ss_value bias,
                        ss_value *out)
{
    int axis = -1;
    ss_value mean, sq, msq, mean2, var, eps, ve, inv, c, y;
    ss_status st = check_axis(p, x, &axis, "layer_norm");
    /* Flax's fast variance: E[x^2] - E[x]^2. */
    if (!st)
        st = reduce_back(p, SS_REDUCE_MEAN, x, axis, &mean);
    if (!st)
        st = ss_unary(p, SS_SQUARE, x, &sq);
    if (!st)
        st = reduce_back(p, SS_REDUCE_MEAN, sq, axis, &msq);
    if (!st)
        st = ss_unary(p, SS_SQUARE, mean, &mean2);
    if (!st)
        st = ss_binary(p, SS_SUB, msq, mean2, &var);
    if (!st)
        st = ss_constant(p, 1e-6, &eps);
    if (!st)
        st = ss_binary(p, SS_ADD, var, eps, &ve);
    if (!st)
        st = ss_unary(p, SS_RSQRT, ve, &inv);
    if (!st)
        st = ss_binary(p, SS_SUB, x, mean, &c);
    if (!st)
        st = ss_binary(p, SS_MUL, c, inv, &y);
    if (!st && scale >= 0)
        st = ss_binary(p, SS_MUL, y, scale, &y);
    if (!st && bias >= 0)
        st = ss_binary(p, SS_ADD, y, bias, &y);
    if (!st)
        *out = y;
    return st;
}

ss_status ss_cross_entropy(ss_program *p, ss_value logits, ss_value labels, ss_value *out)
{
    const ss__node *l = ss__program_node(p, logits, "cross_entropy");
    const ss__node *y = l ? ss__program_node(p, labels, "cross_entropy") : NULL;
    if (!l || !y)
        return SS_ERR_INVALID;
    bool ok = l->rank == y->rank + 1 && y->dtype == SS_I32;
    for (int d = 0; ok && d < y->rank; d++)
        ok = l->shape[d] == y->shape[d];
    if (!ok)
        return ss__fail(SS_ERR_INVALID, "cross_entropy: expects logits [..., C] and i32 labels "
                                        "[...] with the same leading dims");
    int64_t classes = l->shape[l->rank - 1];
    int last = l->rank - 1;
    ss_value lp, oh, prod, s;
    ss_status st = ss_log_softmax(p, logits, -1, &lp);
    if (!st)
        st = ss_one_hot(p, labels, classes, &oh);
    if (!st)
        st = ss_binary(p, SS_MUL, oh, lp, &prod);
    if (!st)
        st = ss_reduce(p, SS_REDUCE_SUM, prod, 1, &last, 0, &s);
    return st ? st : ss_unary(p, SS_NEG, s, out);
}
