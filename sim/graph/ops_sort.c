/*
 * ops_sort.c — builders of sort (lax.sort, StableHLO's sort) and top_k
 * (lax.top_k, chlo.top_k), and their cotangents (JAX's: the cotangent of
 * each result scattered back, added, to where the permutation took it).
 *
 * A sort of n operands is n nodes, one per result, each with every operand
 * (sub names the operand it permutes): each runs the sort on its own, which
 * keeps every node one array and every layer unchanged. top_k is two nodes
 * alike (values, indices).
 */
#include "graph.h"

#include <string.h>

ss_status ss_sort(ss_program *p, int n, const ss_value operands[], int dim, int nkeys,
                  unsigned descending, ss_value out[])
{
    if (n < 1 || n > SS__MAX_INPUTS || !operands || !out)
        return ss__fail(SS_ERR_INVALID, "sort: %d operands (1 to %d)", n, SS__MAX_INPUTS);
    const ss__node *a = ss__program_node(p, operands[0], "sort");
    if (!a)
        return SS_ERR_INVALID;
    ss__node nd;
    memset(&nd, 0, sizeof nd);
    nd.op = SS__OP_SORT;
    nd.rank = a->rank;
    memcpy(nd.shape, a->shape, sizeof nd.shape);
    int d = dim < 0 ? dim + a->rank : dim;
    if (d < 0 || d >= a->rank)
        return ss__fail(SS_ERR_INVALID, "sort: dimension %d is out of range for rank %d", dim,
                        a->rank);
    if (nkeys < 1 || nkeys > n)
        return ss__fail(SS_ERR_INVALID, "sort: %d keys of %d operands", nkeys, n);
    for (int k = 0; k < n; k++) {
        const ss__node *x = ss__program_node(p, operands[k], "sort");
        if (!x)
            return SS_ERR_INVALID;
        bool same = x->rank == a->rank;
        for (int j = 0; same && j < a->rank; j++)
            same = x->shape[j] == a->shape[j];
        if (!same) {
            ss__buf b;
            ss__buf_init(&b);
            ss__shape_repr_buf(&b, x->dtype, x->rank, x->shape);
            ss__buf_puts(&b, " and operand 0's ");
            ss__shape_repr_buf(&b, a->dtype, a->rank, a->shape);
            ss_status st = ss__fail(SS_ERR_INVALID, "sort: operand %d has shape %s", k,
                                    b.data ? b.data : "?");
            ss__buf_free(&b);
            return st;
        }
        nd.in[nd.nin++] = operands[k];
    }
    nd.dim = d;
    nd.sort_keys = nkeys;
    nd.sort_desc = descending & ((nkeys >= 32 ? 0u : 1u << nkeys) - 1u);
    ss__layout_unknown(&nd.fixed, nd.rank);
    int n0 = p->n;
    for (int k = 0; k < n; k++) {
        nd.sub = k;
        nd.dtype = p->nodes[operands[k]].dtype;
        ss_status st = ss__program_add(p, &nd, &out[k]);
        if (st) {
            ss__program_drop_since(p, n0);
            return st;
        }
    }
    return SS_OK;
}

ss_status ss_top_k(ss_program *p, ss_value x, int64_t k, ss_value *values, ss_value *indices)
{
    const ss__node *a = ss__program_node(p, x, "top_k");
    if (!a)
        return SS_ERR_INVALID;
    if (a->rank < 1)
        return ss__fail(SS_ERR_INVALID, "top_k: the operand is a scalar");
    if (k < 0 || k > a->shape[a->rank - 1])
        return ss__fail(SS_ERR_INVALID, "top_k: k = %lld is outside 0..%lld (the last dim)",
                        (long long)k, (long long)a->shape[a->rank - 1]);
    ss__node nd;
    memset(&nd, 0, sizeof nd);
    nd.op = SS__OP_TOP_K;
    nd.rank = a->rank;
    memcpy(nd.shape, a->shape, sizeof nd.shape);
    nd.shape[a->rank - 1] = k;
    nd.dim = a->rank - 1;
    nd.classes = k;
    nd.in[nd.nin++] = x;
    ss__layout_unknown(&nd.fixed, nd.rank);
    int n0 = p->n;
    nd.dtype = a->dtype;
    ss_status st = values ? ss__program_add(p, &nd, values) : SS_OK;
    nd.sub = 1;
    nd.dtype = SS_I32;
    if (!st && indices)
        st = ss__program_add(p, &nd, indices);
    if (st)
        ss__program_drop_since(p, n0);
    return st;
}

/* JAX's transpose of a take along `dim`: g (shape of idx) added into zeros
 * of x's shape at idx[...] along dim, every other dim a batch dim. */
static ss_status scatter_along(ss_program *p, ss_value g, ss_value idx, int dim, int xrank,
                               const int64_t xshape[], ss_value *out)
{
    const ss__node *gn = &p->nodes[g];
    int r = gn->rank;
    int64_t ishape[SS_MAX_RANK + 1];
    memcpy(ishape, gn->shape, sizeof(int64_t) * (size_t)r);
    ishape[r] = 1;
    ss_dtype dt = gn->dtype;
    ss_gather_dims dims;
    memset(&dims, 0, sizeof dims);
    dims.collapsed_slice_dims[dims.n_collapsed++] = dim;
    dims.start_index_map[dims.n_index_map++] = dim;
    for (int d = 0; d < xrank; d++)
        if (d != dim) {
            dims.operand_batching_dims[dims.n_batching] = d;
            dims.start_indices_batching_dims[dims.n_batching++] = d;
        }
    dims.index_vector_dim = r;
    ss_value z, i1;
    ss_status st = ss__zeros(p, dt, xrank, xshape, &z);
    if (!st)
        st = ss_reshape(p, idx, r + 1, ishape, &i1);
    if (!st)
        st = ss_scatter(p, z, i1, g, SS_SCATTER_ADD, &dims, out);
    return st;
}

ss_status ss__vjp_sort_op(ss_program *p, const ss__node *n, ss_value g, const bool want[],
                          ss_value gin[])
{
    ss__node nd = *n; /* p->nodes may move as nodes are added */
    int target = nd.op == SS__OP_SORT ? nd.sub : 0;
    if (nd.op == SS__OP_TOP_K && nd.sub != 0)
        return SS_OK; /* indices: no cotangent */
    if (!want[target])
        return SS_OK;
    const ss__node *x = &p->nodes[nd.in[target]];
    int xrank = x->rank;
    int64_t xshape[SS_MAX_RANK];
    memcpy(xshape, x->shape, sizeof xshape);
    ss_value perm = 0;
    ss_status st;
    if (nd.op == SS__OP_TOP_K) {
        st = ss_top_k(p, nd.in[0], nd.classes, NULL, &perm);
    } else {
        /* the permutation: the keys sorting an iota along the dim */
        ss_value ops[SS__MAX_INPUTS], res[SS__MAX_INPUTS];
        if (nd.sort_keys + 1 > SS__MAX_INPUTS)
            return ss__fail(SS_ERR_UNSUPPORTED, "gradient of a sort of %d keys: at most %d",
                            nd.sort_keys, SS__MAX_INPUTS - 1);
        memcpy(ops, nd.in, sizeof(ss_value) * (size_t)nd.sort_keys);
        st = ss_iota(p, SS_I32, nd.rank, nd.shape, nd.dim, &ops[nd.sort_keys]);
        if (!st)
            st = ss_sort(p, nd.sort_keys + 1, ops, nd.dim, nd.sort_keys, nd.sort_desc, res);
        if (!st)
            perm = res[nd.sort_keys];
    }
    if (!st)
        st = scatter_along(p, g, perm, nd.dim, xrank, xshape, &gin[target]);
    return st;
}
