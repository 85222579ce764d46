/*
 * ops_gather.c — builders of gather and scatter (StableHLO's ops of those
 * names, with their general dimension numbers: ss_gather_dims) and their
 * cotangents, as JAX's transposes: gather's is a scatter-add of the
 * cotangent into zeros; scatter-add's is the cotangent for the operand
 * and a gather of it for the updates. The checks of the dimension numbers
 * are the kernels' (kernels/gather.c), so builder and kernel agree.
 *
 * Not here: gradients of scatters that set, take a max or min, or
 * multiply (JAX needs unique indices or extra bookkeeping for them): a
 * clear SS_ERR_UNSUPPORTED when one is asked for.
 */
#include "graph.h"
#include "kernels/kernels.h"

#include <string.h>

ss_status ss_gather(ss_program *p, ss_value operand, ss_value indices, const ss_gather_dims *dims,
                    ss_value *out)
{
    const ss__node *a = ss__program_node(p, operand, "gather");
    const ss__node *i = a ? ss__program_node(p, indices, "gather") : NULL;
    if (!i)
        return SS_ERR_INVALID;
    if (!dims)
        return ss__fail(SS_ERR_INVALID, "gather: no dimension numbers");
    ss__node nd;
    memset(&nd, 0, sizeof nd);
    ss_status st = ss__k_gather_check(false, a->rank, a->shape, i->rank, i->shape, i->dtype, dims,
                                      dims->slice_sizes, &nd.rank, nd.shape);
    if (st)
        return st;
    nd.op = SS__OP_GATHER;
    nd.dtype = a->dtype;
    nd.gdims = *dims;
    nd.in[nd.nin++] = operand;
    nd.in[nd.nin++] = indices;
    ss__layout_unknown(&nd.fixed, nd.rank);
    return ss__program_add(p, &nd, out);
}

ss_status ss_scatter(ss_program *p, ss_value operand, ss_value indices, ss_value updates,
                     ss_scatter_op op, const ss_gather_dims *dims, ss_value *out)
{
    const ss__node *a = ss__program_node(p, operand, "scatter");
    const ss__node *i = a ? ss__program_node(p, indices, "scatter") : NULL;
    const ss__node *u = i ? ss__program_node(p, updates, "scatter") : NULL;
    if (!u)
        return SS_ERR_INVALID;
    if (!dims)
        return ss__fail(SS_ERR_INVALID, "scatter: no dimension numbers");
    if ((unsigned)op >= SS_SCATTER_OP_COUNT)
        return ss__fail(SS_ERR_INVALID, "scatter: update computation %d is not one of add, set, "
                                        "max, min, multiply", (int)op);
    if (u->dtype != a->dtype)
        return ss__fail(SS_ERR_INVALID, "scatter: updates are %s, the operand %s",
                        ss_dtype_name(u->dtype), ss_dtype_name(a->dtype));
    int64_t window[SS_MAX_RANK], ushape[SS_MAX_RANK];
    int urank;
    ss__k_scatter_window(a->rank, u->rank, u->shape, dims, window);
    ss_status st = ss__k_gather_check(true, a->rank, a->shape, i->rank, i->shape, i->dtype, dims,
                                      window, &urank, ushape);
    if (st)
        return st;
    bool same = urank == u->rank;
    for (int d = 0; same && d < urank; d++)
        same = ushape[d] == u->shape[d];
    if (!same) {
        ss__buf b;
        ss__buf_init(&b);
        ss__shape_repr_buf(&b, u->dtype, u->rank, u->shape);
        ss__buf_puts(&b, " where the indices and windows make ");
        ss__shape_repr_buf(&b, u->dtype, urank, ushape);
        st = ss__fail(SS_ERR_INVALID, "scatter: updates %s", b.data ? b.data : "?");
        ss__buf_free(&b);
        return st;
    }
    ss__node nd;
    memset(&nd, 0, sizeof nd);
    nd.op = SS__OP_SCATTER;
    nd.sub = (int)op;
    nd.dtype = a->dtype;
    nd.rank = a->rank;
    memcpy(nd.shape, a->shape, sizeof nd.shape);
    nd.gdims = *dims;
    memset(nd.gdims.slice_sizes, 0, sizeof nd.gdims.slice_sizes);
    nd.in[nd.nin++] = operand;
    nd.in[nd.nin++] = indices;
    nd.in[nd.nin++] = updates;
    ss__layout_unknown(&nd.fixed, nd.rank);
    return ss__program_add(p, &nd, out);
}

/* Zeros of `shape` in dtype dt. */
static ss_status zeros(ss_program *p, ss_dtype dt, int rank, const int64_t shape[],
                       ss_value *out)
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

ss_status ss__vjp_gather_op(ss_program *p, const ss__node *n, ss_value g, const bool want[],
                            ss_value gin[])
{
    ss__node nd = *n; /* p->nodes may move as nodes are added */
    ss_gather_dims dims = nd.gdims;
    ss_status st = SS_OK;
    if (nd.op == SS__OP_GATHER) {
        if (!want[0])
            return SS_OK;
        /* JAX: scatter_add(zeros like the operand, indices, g), the same
         * dimension numbers under scatter's names */
        const ss__node *x = &p->nodes[nd.in[0]];
        int64_t shape[SS_MAX_RANK];
        memcpy(shape, x->shape, sizeof shape);
        ss_value z;
        if (!(st = zeros(p, p->nodes[g].dtype, x->rank, shape, &z)))
            st = ss_scatter(p, z, nd.in[1], g, SS_SCATTER_ADD, &dims, &gin[0]);
        return st;
    }
    if (nd.sub != SS_SCATTER_ADD && (want[0] || want[2]))
        return ss__fail(SS_ERR_UNSUPPORTED, "gradient of a scatter that does %s: only "
                                            "scatter-add has one here",
                        ss__opcode_name(&nd));
    if (want[0])
        gin[0] = g;
    if (want[2]) {
        /* JAX: gather(g, indices) with the windows of the updates */
        const ss__node *x = &p->nodes[nd.in[0]], *u = &p->nodes[nd.in[2]];
        ss__k_scatter_window(x->rank, u->rank, u->shape, &dims, dims.slice_sizes);
        st = ss_gather(p, g, nd.in[1], &dims, &gin[2]);
    }
    return st;
}
