/*
 * ops_dynamic.c — builders of dynamic_slice and dynamic_update_slice
 * (lax.dynamic_slice, lax.dynamic_update_slice; StableHLO's ops of those
 * names) and their cotangents (JAX's transposes). The start indices are
 * rank-0 integer values, one per dim, clamped at run time as XLA clamps
 * them (kernels/dynamic_ops.c).
 */
#include "graph.h"

#include <string.h>

static bool is_integer(ss_dtype dt)
{
    switch (dt) {
    case SS_I8: case SS_I16: case SS_I32: case SS_I64:
    case SS_U8: case SS_U16: case SS_U32: case SS_U64: return true;
    default: return false;
    }
}

/* Check the start indices of an operand of rank `rank` and append them. */
static ss_status add_starts(ss_program *p, const char *op, int rank, int n, const ss_value idx[],
                            ss__node *node)
{
    if (n != rank || (n > 0 && !idx))
        return ss__fail(SS_ERR_INVALID, "%s: %d start indices for an operand of rank %d", op, n,
                        rank);
    for (int d = 0; d < n; d++) {
        const ss__node *s = ss__program_node(p, idx[d], op);
        if (!s)
            return SS_ERR_INVALID;
        if (s->rank != 0 || !is_integer(s->dtype))
            return ss__fail(SS_ERR_INVALID, "%s: start index %d is %s%s, not an integer scalar",
                            op, d, ss_dtype_name(s->dtype), s->rank ? " (an array)" : "");
        if (d > 0 && s->dtype != p->nodes[idx[0]].dtype)
            return ss__fail(SS_ERR_INVALID, "%s: start indices of dtypes %s and %s", op,
                            ss_dtype_name(p->nodes[idx[0]].dtype), ss_dtype_name(s->dtype));
        node->in[node->nin++] = idx[d];
    }
    return SS_OK;
}

ss_status ss_dynamic_slice(ss_program *p, ss_value x, int n, const ss_value start_indices[],
                           const int64_t sizes[], ss_value *out)
{
    const ss__node *a = ss__program_node(p, x, "dynamic_slice");
    if (!a)
        return SS_ERR_INVALID;
    ss__node nd;
    memset(&nd, 0, sizeof nd);
    nd.op = SS__OP_DYNAMIC_SLICE;
    nd.dtype = a->dtype;
    nd.rank = a->rank;
    nd.in[nd.nin++] = x;
    for (int d = 0; d < a->rank; d++) {
        if (!sizes || sizes[d] < 1 || sizes[d] > a->shape[d])
            return ss__fail(SS_ERR_INVALID, "dynamic_slice: dimension %d: slice size %lld is "
                                            "outside 1..%lld", d,
                            sizes ? (long long)sizes[d] : 0LL, (long long)a->shape[d]);
        nd.shape[d] = sizes[d];
    }
    ss_status st = add_starts(p, "dynamic_slice", a->rank, n, start_indices, &nd);
    if (st)
        return st;
    ss__layout_unknown(&nd.fixed, nd.rank);
    return ss__program_add(p, &nd, out);
}

ss_status ss_dynamic_update_slice(ss_program *p, ss_value x, ss_value update, int n,
                                  const ss_value start_indices[], ss_value *out)
{
    const ss__node *a = ss__program_node(p, x, "dynamic_update_slice");
    const ss__node *u = a ? ss__program_node(p, update, "dynamic_update_slice") : NULL;
    if (!u)
        return SS_ERR_INVALID;
    bool ok = a->dtype == u->dtype && a->rank == u->rank;
    for (int d = 0; ok && d < a->rank; d++)
        ok = u->shape[d] <= a->shape[d];
    if (!ok) {
        ss__buf b;
        ss__buf_init(&b);
        ss__shape_repr_buf(&b, u->dtype, u->rank, u->shape);
        ss__buf_puts(&b, " does not fit in the operand ");
        ss__shape_repr_buf(&b, a->dtype, a->rank, a->shape);
        ss_status st = ss__fail(SS_ERR_INVALID, "dynamic_update_slice: the update %s",
                                b.data ? b.data : "?");
        ss__buf_free(&b);
        return st;
    }
    ss__node nd;
    memset(&nd, 0, sizeof nd);
    nd.op = SS__OP_DYNAMIC_UPDATE_SLICE;
    nd.dtype = a->dtype;
    nd.rank = a->rank;
    memcpy(nd.shape, a->shape, sizeof nd.shape);
    nd.in[nd.nin++] = x;
    nd.in[nd.nin++] = update;
    ss_status st = add_starts(p, "dynamic_update_slice", a->rank, n, start_indices, &nd);
    if (st)
        return st;
    ss__layout_unknown(&nd.fixed, nd.rank);
    return ss__program_add(p, &nd, out);
}

ss_status ss__zeros(ss_program *p, ss_dtype dt, int rank, const int64_t shape[], ss_value *out)
{
    ss_value c;
    ss_status st = ss_constant(p, 0.0, &c);
    if (!st)
        st = ss_convert(p, c, dt, &c);
    if (!st && rank > 0)
        st = ss_broadcast_in_dim(p, c, rank, shape, (int[]){0}, &c);
    if (!st)
        *out = c;
    return st;
}

ss_status ss__vjp_dynamic_op(ss_program *p, const ss__node *n, ss_value g, const bool want[],
                             ss_value gin[])
{
    int first = n->op == SS__OP_DYNAMIC_SLICE ? 1 : 2;
    int nidx = n->nin - first;
    ss_value idx[SS_MAX_RANK];
    memcpy(idx, n->in + first, sizeof(ss_value) * (size_t)nidx);
    const ss__node *x = &p->nodes[n->in[0]];
    ss_dtype dt = p->nodes[g].dtype;
    ss_status st = SS_OK;
    ss_value z;
    if (n->op == SS__OP_DYNAMIC_SLICE) {
        /* JAX: dynamic_update_slice(zeros like the operand, g, starts) */
        int64_t shape[SS_MAX_RANK];
        memcpy(shape, x->shape, sizeof shape);
        if (want[0] && !(st = ss__zeros(p, dt, x->rank, shape, &z)))
            st = ss_dynamic_update_slice(p, z, g, nidx, idx, &gin[0]);
        return st;
    }
    const ss__node *u = &p->nodes[n->in[1]];
    int64_t ushape[SS_MAX_RANK];
    memcpy(ushape, u->shape, sizeof ushape);
    int urank = u->rank;
    if (want[0] && !(st = ss__zeros(p, dt, urank, ushape, &z)))
        st = ss_dynamic_update_slice(p, g, z, nidx, idx, &gin[0]);
    if (!st && want[1])
        st = ss_dynamic_slice(p, g, nidx, idx, ushape, &gin[1]);
    return st;
}
