/*
 * ops_shape.c — builders of the constants and data-movement ops StableHLO
 * programs need beyond ops.c's: dense constant arrays and iota (variants of
 * the constant op), strided slices, reverse and lax.pad in full, with their
 * cotangent rules (JAX's transposes), which vjp_rules.c calls.
 *
 * Every builder checks its arguments and leaves the program as it was on
 * error, with a one-line message naming the op, the dim and the sizes.
 */
#include "graph.h"
#include "kernels/kernels.h"

#include <stdlib.h>
#include <string.h>

static void node_like(ss__node *n, ss__opcode op, const ss__node *like)
{
    memset(n, 0, sizeof *n);
    n->op = op;
    n->dtype = like->dtype;
    n->rank = like->rank;
    memcpy(n->shape, like->shape, sizeof n->shape);
    ss__layout_unknown(&n->fixed, n->rank);
}

/* The shape of a new leaf: rank 0..8, sizes >= 1; its element count. */
static ss_status leaf_shape(const char *op, ss_dtype dtype, int rank, const int64_t shape[],
                            int64_t *count)
{
    if ((unsigned)dtype >= SS_DTYPE_COUNT)
        return ss__fail(SS_ERR_INVALID, "%s: unknown dtype %d", op, (int)dtype);
    if (rank < 0 || rank > SS_MAX_RANK || (rank > 0 && !shape))
        return ss__fail(SS_ERR_RANK, "%s: rank %d is outside 0..%d", op, rank, SS_MAX_RANK);
    int64_t n = 1;
    for (int d = 0; d < rank; d++) {
        if (shape[d] < 1 || shape[d] > ((int64_t)1 << 40))
            return ss__fail(SS_ERR_INVALID, "%s: dimension %d has size %lld", op, d,
                            (long long)shape[d]);
        n *= shape[d];
        if (n > ((int64_t)1 << 40))
            return ss__fail(SS_ERR_INVALID, "%s: more than 2^40 elements", op);
    }
    *count = n;
    return SS_OK;
}

static ss_status leaf_node(ss__node *n, int sub, ss_dtype dtype, int rank, const int64_t shape[])
{
    memset(n, 0, sizeof *n);
    n->op = SS__OP_CONSTANT;
    n->sub = sub;
    n->dtype = dtype;
    n->rank = rank;
    for (int d = 0; d < rank; d++)
        n->shape[d] = shape[d];
    ss__layout_replicated(&n->fixed, rank);
    return SS_OK;
}

/* A new block of `bytes` (a copy of src) owned by p. */
static ss_status own_block(ss_program *p, const void *src, size_t bytes, const void **out)
{
    void *grown = ss__grow(p->cblocks, &p->cblocks_cap, p->ncblocks + 1, sizeof *p->cblocks, 8);
    void *b = grown ? malloc(bytes ? bytes : 1) : NULL;
    if (!b) {
        if (grown)
            p->cblocks = grown;
        return ss__fail(SS_ERR_NOMEM, "constant: out of host memory for %zu bytes", bytes);
    }
    p->cblocks = grown;
    memcpy(b, src, bytes);
    p->cblocks[p->ncblocks++] = b;
    *out = b;
    return SS_OK;
}

ss_status ss_constant_array(ss_program *p, ss_dtype dtype, int rank, const int64_t shape[],
                            const void *data, ss_value *out)
{
    if (!p)
        return ss__fail(SS_ERR_INVALID, "constant: program is NULL");
    int64_t count;
    ss_status st = leaf_shape("constant", dtype, rank, shape, &count);
    if (st)
        return st;
    if (!data)
        return ss__fail(SS_ERR_INVALID, "constant: data is NULL");
    ss__node n;
    leaf_node(&n, SS__CONST_DENSE, dtype, rank, shape);
    if ((st = own_block(p, data, (size_t)count * ss_dtype_size(dtype), &n.data)))
        return st;
    return ss__program_add(p, &n, out);
}

ss_status ss_iota(ss_program *p, ss_dtype dtype, int rank, const int64_t shape[], int dim,
                  ss_value *out)
{
    if (!p)
        return ss__fail(SS_ERR_INVALID, "iota: program is NULL");
    int64_t count;
    ss_status st = leaf_shape("iota", dtype, rank, shape, &count);
    if (st)
        return st;
    if (dim < 0 || dim >= rank)
        return ss__fail(SS_ERR_INVALID, "iota: iota_dimension %d is outside 0..%d", dim,
                        rank - 1);
    if (dtype == SS_BOOL)
        return ss__fail(SS_ERR_UNSUPPORTED, "iota: not defined on bool");
    ss__node n;
    leaf_node(&n, SS__CONST_IOTA, dtype, rank, shape);
    n.dim = dim;
    return ss__program_add(p, &n, out);
}

ss_status ss__constant_adopt(ss_program *p, ss__node *n)
{
    if (n->op != SS__OP_CONSTANT || n->sub != SS__CONST_DENSE)
        return SS_OK;
    size_t bytes = ss__node_bytes(n);
    return own_block(p, n->data, bytes, &n->data);
}

void ss__constant_fill(const ss__node *n, void *out, bool reference)
{
    size_t bytes = ss__node_bytes(n);
    if (n->sub == SS__CONST_DENSE) {
        memcpy(out, n->data, bytes);
    } else if (n->sub == SS__CONST_IOTA) {
        ss__tensor t = {.dtype = n->dtype, .rank = n->rank, .data = out};
        memcpy(t.shape, n->shape, sizeof t.shape);
        /* checked when the node was built: cannot fail */
        ss_status st = reference ? ss__k_ref_iota(n->dim, &t) : ss__k_iota(n->dim, &t);
        (void)st;
    } else {
        float f = (float)n->scalar;
        memcpy(out, &f, sizeof f);
    }
}

/* --- Strided slice, reverse, pad ----------------------------------------- */

ss_status ss_slice_strided(ss_program *p, ss_value x, const int64_t start[],
                           const int64_t limit[], const int64_t strides[], ss_value *out)
{
    const ss__node *a = ss__program_node(p, x, "slice");
    if (!a)
        return SS_ERR_INVALID;
    bool unit = true;
    for (int d = 0; strides && d < a->rank; d++) {
        if (strides[d] < 1)
            return ss__fail(SS_ERR_INVALID, "slice: dimension %d: stride %lld is below 1", d,
                            (long long)strides[d]);
        unit = unit && strides[d] == 1;
    }
    if (unit)
        return ss_slice(p, x, start, limit, out);
    ss__node n;
    node_like(&n, SS__OP_SLICE, a);
    for (int d = 0; d < a->rank; d++) {
        if (start[d] < 0 || start[d] >= limit[d] || limit[d] > a->shape[d])
            return ss__fail(SS_ERR_INVALID,
                            "slice: dimension %d: [%lld, %lld) is not a non-empty range within "
                            "0..%lld",
                            d, (long long)start[d], (long long)limit[d], (long long)a->shape[d]);
        n.start[d] = start[d];
        n.limit[d] = limit[d];
        n.stride[d] = strides[d];
        n.shape[d] = (limit[d] - start[d] + strides[d] - 1) / strides[d];
    }
    n.in[n.nin++] = x;
    return ss__program_add(p, &n, out);
}

ss_status ss_reverse(ss_program *p, ss_value x, int ndims, const int dims[], ss_value *out)
{
    const ss__node *a = ss__program_node(p, x, "reverse");
    if (!a)
        return SS_ERR_INVALID;
    if (ndims < 0 || ndims > a->rank || (ndims > 0 && !dims))
        return ss__fail(SS_ERR_INVALID, "reverse: %d dims for an operand of rank %d", ndims,
                        a->rank);
    unsigned mask = 0;
    for (int i = 0; i < ndims; i++) {
        int d = dims[i] < 0 ? dims[i] + a->rank : dims[i];
        if (d < 0 || d >= a->rank || (mask >> d) & 1u)
            return ss__fail(SS_ERR_INVALID, "reverse: dims[%d] = %d is out of range for rank %d "
                                            "or repeated", i, dims[i], a->rank);
        mask |= 1u << d;
    }
    if (!mask) { /* nothing reversed: x itself */
        *out = x;
        return SS_OK;
    }
    ss__node n;
    node_like(&n, SS__OP_REVERSE, a);
    n.axes_mask = mask;
    n.in[n.nin++] = x;
    return ss__program_add(p, &n, out);
}

ss_status ss_pad(ss_program *p, ss_value x, ss_value padding_value, const int64_t low[],
                 const int64_t high[], const int64_t interior[], ss_value *out)
{
    const ss__node *a = ss__program_node(p, x, "pad");
    const ss__node *v = a ? ss__program_node(p, padding_value, "pad") : NULL;
    if (!a || !v)
        return SS_ERR_INVALID;
    if (v->rank != 0)
        return ss__fail(SS_ERR_INVALID, "pad: padding_value has rank %d (expected a scalar)",
                        v->rank);
    bool weak = v->op == SS__OP_CONSTANT && v->sub == SS__CONST_SCALAR;
    if (v->dtype != a->dtype && !weak)
        return ss__fail(SS_ERR_INVALID, "pad: operand %s and padding_value %s differ",
                        ss_dtype_name(a->dtype), ss_dtype_name(v->dtype));
    ss__node n;
    node_like(&n, SS__OP_PAD, a);
    for (int d = 0; d < a->rank; d++) {
        if (interior[d] < 0)
            return ss__fail(SS_ERR_INVALID, "pad: dimension %d: interior padding %lld is "
                                            "negative", d, (long long)interior[d]);
        int64_t size = low[d] + a->shape[d] + (a->shape[d] - 1) * interior[d] + high[d];
        if (size < 1)
            return ss__fail(SS_ERR_INVALID,
                            "pad: dimension %d of size %lld with low %lld, high %lld, interior "
                            "%lld leaves %lld elements", d, (long long)a->shape[d],
                            (long long)low[d], (long long)high[d], (long long)interior[d],
                            (long long)size);
        n.start[d] = low[d];
        n.limit[d] = high[d];
        n.interior[d] = interior[d];
        n.shape[d] = size;
    }
    int n0 = p->n;
    ss_status st = SS_OK;
    if (v->dtype != a->dtype) /* a Python scalar takes the operand's dtype */
        st = ss_convert(p, padding_value, a->dtype, &padding_value);
    n.in[n.nin++] = x;
    n.in[n.nin++] = padding_value;
    if (!st)
        st = ss__program_add(p, &n, out);
    if (st)
        ss__program_drop_since(p, n0);
    return st;
}

unsigned ss__node_whole_dims(const ss_program *p, const ss__node *n)
{
    unsigned mask = 0;
    if (n->op == SS__OP_REVERSE)
        return n->axes_mask;
    if (n->op == SS__OP_SORT || n->op == SS__OP_TOP_K) /* sorted along n->dim */
        return 1u << n->dim;
    if (n->op != SS__OP_SLICE && n->op != SS__OP_PAD && n->op != SS__OP_DYNAMIC_SLICE &&
        n->op != SS__OP_DYNAMIC_UPDATE_SLICE)
        return 0;
    const ss__node *x = &p->nodes[n->in[0]];
    const ss__node *window = n->op == SS__OP_DYNAMIC_UPDATE_SLICE ? &p->nodes[n->in[1]] : n;
    for (int d = 0; d < n->rank; d++) {
        bool moved = n->op == SS__OP_PAD && (n->start[d] || n->limit[d] || n->interior[d]);
        if (moved || window->shape[d] != x->shape[d])
            mask |= 1u << d;
    }
    return mask;
}

/* --- Cotangents (JAX's transposes) --------------------------------------- */

/* lax.slice's transpose: g padded with zeros back to the operand's shape,
 * the stride's gaps as interior padding. */
static ss_status vjp_slice_strided(ss_program *p, const ss__node *n, ss_value g, ss_value *gx)
{
    const ss__node *x = &p->nodes[n->in[0]];
    int64_t lo[SS_MAX_RANK], hi[SS_MAX_RANK], in[SS_MAX_RANK];
    for (int d = 0; d < n->rank; d++) {
        int64_t stride = ss__slice_stride(n, d);
        int64_t real_limit = n->start[d] + (n->shape[d] - 1) * stride + 1;
        lo[d] = n->start[d];
        hi[d] = x->shape[d] - real_limit;
        in[d] = stride - 1;
    }
    ss_value zero;
    ss_status st = ss_constant(p, 0.0, &zero);
    return st ? st : ss_pad(p, g, zero, lo, hi, in, gx);
}

/* lax.pad's transpose: the operand's cotangent is g with the padding cut
 * off (a pad by minus low and high, then a slice striding over the
 * interior); the padding value's is sum(g) - sum(operand's). */
static ss_status vjp_pad(ss_program *p, const ss__node *n, ss_value g, const bool want[],
                         ss_value gin[])
{
    const ss__node *x = &p->nodes[n->in[0]];
    int rank = x->rank;
    int64_t lo[SS_MAX_RANK], hi[SS_MAX_RANK], none[SS_MAX_RANK] = {0};
    int64_t start[SS_MAX_RANK] = {0}, limit[SS_MAX_RANK], stride[SS_MAX_RANK];
    for (int d = 0; d < rank; d++) {
        lo[d] = -n->start[d];
        hi[d] = -n->limit[d];
        limit[d] = x->shape[d] + (x->shape[d] - 1) * n->interior[d];
        stride[d] = n->interior[d] + 1;
    }
    ss_value zero, unpadded, gx;
    ss_status st = ss_constant(p, 0.0, &zero);
    if (!st)
        st = ss_pad(p, g, zero, lo, hi, none, &unpadded);
    if (!st)
        st = ss_slice_strided(p, unpadded, start, limit, stride, &gx);
    if (st)
        return st;
    if (want[0])
        gin[0] = gx;
    if (!want[1])
        return SS_OK;
    int axes[SS_MAX_RANK];
    for (int d = 0; d < rank; d++)
        axes[d] = d;
    ss_value total, part;
    if (!(st = ss_reduce(p, SS_REDUCE_SUM, g, rank, axes, 0, &total)) &&
        !(st = ss_reduce(p, SS_REDUCE_SUM, gx, rank, axes, 0, &part)))
        st = ss_binary(p, SS_SUB, total, part, &gin[1]);
    return st;
}

ss_status ss__vjp_shape_op(ss_program *p, const ss__node *n, ss_value g, const bool want[],
                           ss_value gin[])
{
    switch (n->op) {
    case SS__OP_SLICE: return vjp_slice_strided(p, n, g, &gin[0]);
    case SS__OP_PAD: return vjp_pad(p, n, g, want, gin);
    case SS__OP_DYNAMIC_SLICE:
    case SS__OP_DYNAMIC_UPDATE_SLICE: return ss__vjp_dynamic_op(p, n, g, want, gin);
    case SS__OP_REVERSE: {
        int dims[SS_MAX_RANK], nd = 0;
        for (int d = 0; d < n->rank; d++)
            if ((n->axes_mask >> d) & 1u)
                dims[nd++] = d;
        return ss_reverse(p, g, nd, dims, &gin[0]);
    }
    default: return ss__fail(SS_ERR_INVALID, "grad: %s is no shape op", ss__opcode_name(n));
    }
}
