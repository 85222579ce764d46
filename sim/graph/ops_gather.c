/*
 * ops_gather.c — builders of gather and scatter (StableHLO's ops of those
 * names, with their general dimension numbers: ss_gather_dims) and their
 * cotangents, as JAX's transposes: gather's is a scatter-add of the
 * cotangent into zeros (at the clamped indices); scatter-add's is the
 * cotangent for the operand and a gather of it for the updates (0 for
 * the windows the scatter skipped). The checks of the dimension numbers
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
                                        "max, min, multiply, subtract", (int)op);
    if (op == SS_SCATTER_SUB && a->dtype == SS_BOOL)
        return ss__fail(SS_ERR_INVALID, "scatter: subtract of bool");
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

/* The largest in-bounds start of each index component of node n (gather
 * or scatter), oshape[d] - window[d] for operand dim start_index_map[k],
 * laid out like n's indices (along index_vector_dim; a scalar when the
 * vector dim is implied). */
static ss_status index_bounds(ss_program *p, const ss__node *n, const int64_t oshape[],
                              const int64_t window[], ss_value *hi)
{
    const ss__node *ind = &p->nodes[n->in[1]];
    const ss_gather_dims *g = &n->gdims;
    ss_dtype dt = ind->dtype;
    int rank = ind->rank, ivd = g->index_vector_dim;
    int64_t shape[SS_MAX_RANK];
    memcpy(shape, ind->shape, sizeof shape);
    unsigned char bytes[SS_MAX_RANK * 8]; /* little-endian, dt's size each */
    size_t es = ss_dtype_size(dt);
    for (int k = 0; k < g->n_index_map; k++) {
        int d = g->start_index_map[k];
        uint64_t bound = (uint64_t)(oshape[d] - window[d]);
        for (size_t b = 0; b < es; b++)
            bytes[(size_t)k * es + b] = (unsigned char)(bound >> (8 * b));
    }
    ss_status st = ss_constant_array(p, dt, ivd < rank ? 1 : 0, (int64_t[]){g->n_index_map},
                                     bytes, hi);
    if (!st && ivd < rank)
        st = ss_broadcast_in_dim(p, *hi, rank, shape, (int[]){ivd}, hi);
    return st;
}

/* Gather n's indices clamped as the gather clamps them, so that the
 * scatter-add of its cotangent lands where the gather read (scatter skips
 * out-of-bounds windows instead). oshape: the operand's shape. */
static ss_status clamped_indices(ss_program *p, const ss__node *n, const int64_t oshape[],
                                 ss_value *out)
{
    ss_value hi, lo;
    ss_status st = index_bounds(p, n, oshape, n->gdims.slice_sizes, &hi);
    if (!st)
        st = ss_constant(p, 0.0, &lo);
    if (!st)
        st = ss_clamp(p, lo, n->in[1], hi, out);
    return st;
}

/* Scatter n's updates' cotangent: the gather `gathered` (of the updates'
 * shape) where the window was applied, 0 where scatter skipped it (JAX's
 * transpose gathers with fill value 0 there). */
static ss_status mask_skipped(ss_program *p, const ss__node *n, ss_value gathered,
                              ss_value *out)
{
    const ss__node *x = &p->nodes[n->in[0]], *u = &p->nodes[n->in[2]];
    const ss__node *ind = &p->nodes[n->in[1]];
    const ss_gather_dims *g = &n->gdims;
    int64_t oshape[SS_MAX_RANK], window[SS_MAX_RANK], ushape[SS_MAX_RANK], ishape[SS_MAX_RANK];
    memcpy(oshape, x->shape, sizeof oshape);
    memcpy(ushape, u->shape, sizeof ushape);
    memcpy(ishape, ind->shape, sizeof ishape);
    int urank = u->rank, irank = ind->rank, ivd = g->index_vector_dim;
    ss_dtype idt = ind->dtype, udt = u->dtype;
    ss__k_scatter_window(x->rank, urank, ushape, g, window);
    bool sgn = idt == SS_I8 || idt == SS_I16 || idt == SS_I32 || idt == SS_I64;
    ss_value hi, zero, ge, le, ok, z;
    ss_status st = index_bounds(p, n, oshape, window, &hi);
    if (!st)
        st = ss__zeros(p, idt, irank, ishape, &zero);
    if (!st)
        st = ss_compare(p, SS_CMP_GE, sgn ? SS_CMP_SIGNED : SS_CMP_UNSIGNED, n->in[1], zero, &ge);
    if (!st)
        st = ss_compare(p, SS_CMP_LE, sgn ? SS_CMP_SIGNED : SS_CMP_UNSIGNED, n->in[1], hi, &le);
    if (!st)
        st = ss_binary(p, SS_AND, ge, le, &ok);
    if (!st && ivd < irank)
        st = ss_reduce(p, SS_REDUCE_AND, ok, 1, (int[]){ivd}, 0, &ok);
    /* the batch dims of ok are the updates' scatter dims, in order */
    int dims[SS_MAX_RANK], nb = 0;
    for (int r = 0, w = 0; r < urank; r++) {
        if (w < g->n_offset && g->offset_dims[w] == r)
            w++;
        else
            dims[nb++] = r;
    }
    if (!st)
        st = ss_broadcast_in_dim(p, ok, urank, ushape, dims, &ok);
    if (!st)
        st = ss__zeros(p, udt, urank, ushape, &z);
    if (!st)
        st = ss_select(p, ok, gathered, z, out);
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
        int orank = x->rank;
        ss_value z, idx;
        if (!(st = ss__zeros(p, p->nodes[g].dtype, orank, shape, &z)) &&
            !(st = clamped_indices(p, &nd, shape, &idx)))
            st = ss_scatter(p, z, idx, g, SS_SCATTER_ADD, &dims, &gin[0]);
        return st;
    }
    if (nd.sub != SS_SCATTER_ADD && nd.sub != SS_SCATTER_SUB && (want[0] || want[2]))
        return ss__fail(SS_ERR_UNSUPPORTED, "gradient of a scatter that does %s: only "
                                            "scatter-add and scatter-sub have one here",
                        ss__opcode_name(&nd));
    if (want[0])
        gin[0] = g;
    if (want[2]) {
        /* JAX: gather(g, indices) with the windows of the updates */
        const ss__node *x = &p->nodes[nd.in[0]], *u = &p->nodes[nd.in[2]];
        ss__k_scatter_window(x->rank, u->rank, u->shape, &dims, dims.slice_sizes);
        ss_value gathered;
        st = ss_gather(p, g, nd.in[1], &dims, &gathered);
        if (!st)
            st = mask_skipped(p, &nd, gathered, &gin[2]);
        if (!st && nd.sub == SS_SCATTER_SUB) /* JAX: the negated gather */
            st = ss_unary(p, SS_NEG, gin[2], &gin[2]);
    }
    return st;
}
