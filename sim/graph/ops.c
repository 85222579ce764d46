/*
 * ops.c — builder calls for the primitive ops: shape checks, numpy
 * broadcasting made explicit, einsum and matmul lowered to dot_general.
 * Every error names the op and the shapes involved.
 */
#include "graph.h"
#include "base/half.h"

#include <string.h>

static void node_init(ss__node *n, ss__opcode op, const ss__node *like)
{
    memset(n, 0, sizeof *n);
    n->op = op;
    if (like) {
        n->dtype = like->dtype;
        n->rank = like->rank;
        memcpy(n->shape, like->shape, sizeof n->shape);
    }
    ss__layout_unknown(&n->fixed, n->rank);
}

static ss_status fail_shapes(ss_status st, const char *op, const char *why, const ss__node *a,
                             const ss__node *b)
{
    ss__buf buf;
    ss__buf_init(&buf);
    ss__buf_printf(&buf, "%s: %s (", op, why);
    ss__shape_repr_buf(&buf, a->dtype, a->rank, a->shape);
    if (b) {
        ss__buf_puts(&buf, " and ");
        ss__shape_repr_buf(&buf, b->dtype, b->rank, b->shape);
    }
    ss__buf_putc(&buf, ')');
    st = ss__fail(st, "%s", buf.data ? buf.data : op);
    ss__buf_free(&buf);
    return st;
}

/* "OP: WHY: A_NAME is f32[8,1024] (dim 1 = 1024), B_NAME is f32[512,64] (dim 0 = 512)":
 * the sizes that differ, each in its operand's own dim numbering. */
static ss_status fail_dims(const char *op, const char *why, const char *an, const ss__node *a,
                           int da, const char *bn, const ss__node *b, int db)
{
    ss__buf buf;
    ss__buf_init(&buf);
    ss__buf_printf(&buf, "%s: %s: %s is ", op, why, an);
    ss__shape_repr_buf(&buf, a->dtype, a->rank, a->shape);
    ss__buf_printf(&buf, " (dim %d = %lld), %s is ", da, (long long)a->shape[da], bn);
    ss__shape_repr_buf(&buf, b->dtype, b->rank, b->shape);
    ss__buf_printf(&buf, " (dim %d = %lld)", db, (long long)b->shape[db]);
    ss_status st = ss__fail(SS_ERR_INVALID, "%s", buf.data ? buf.data : op);
    ss__buf_free(&buf);
    return st;
}

ss_status ss_unary(ss_program *p, ss_unary_op op, ss_value x, ss_value *out)
{
    const ss__node *a = ss__program_node(p, x, "unary");
    if (!a)
        return SS_ERR_INVALID;
    if ((unsigned)op >= SS_UNARY_COUNT)
        return ss__fail(SS_ERR_INVALID, "unary: unknown op %d", (int)op);
    if (!ss__unary_defined(op, a->dtype))
        return ss__fail(SS_ERR_UNSUPPORTED, "%s: not defined on %s",
                        ss__opcode_name(&(ss__node){.op = SS__OP_UNARY, .sub = op}),
                        ss_dtype_name(a->dtype));
    ss__node n;
    node_init(&n, SS__OP_UNARY, a);
    n.sub = op;
    if (op == SS_IS_FINITE)
        n.dtype = SS_BOOL;
    n.in[n.nin++] = x;
    return ss__program_add(p, &n, out);
}

/* x as `dtype` through unary variant `sub` (SS_CONVERT, SS_BITCAST); x
 * itself when it has that dtype. */
static ss_status retype(ss_program *p, ss_value x, ss_dtype dtype, int sub, const char *what,
                        ss_value *out)
{
    const ss__node *a = ss__program_node(p, x, what);
    if (!a)
        return SS_ERR_INVALID;
    if ((unsigned)dtype >= SS_DTYPE_COUNT)
        return ss__fail(SS_ERR_INVALID, "%s: unknown dtype %d", what, (int)dtype);
    if (sub == SS_BITCAST && ss_dtype_size(dtype) != ss_dtype_size(a->dtype))
        return ss__fail(SS_ERR_UNSUPPORTED, "%s: %s (%zu bytes) to %s (%zu bytes): only between "
                        "dtypes of one size", what, ss_dtype_name(a->dtype),
                        ss_dtype_size(a->dtype), ss_dtype_name(dtype), ss_dtype_size(dtype));
    if (a->dtype == dtype) {
        *out = x;
        return SS_OK;
    }
    ss__node n;
    node_init(&n, SS__OP_UNARY, a);
    n.sub = sub;
    n.dtype = dtype;
    n.in[n.nin++] = x;
    return ss__program_add(p, &n, out);
}

ss_status ss_convert(ss_program *p, ss_value x, ss_dtype dtype, ss_value *out)
{
    return retype(p, x, dtype, SS_CONVERT, "convert", out);
}

ss_status ss_bitcast_convert(ss_program *p, ss_value x, ss_dtype dtype, ss_value *out)
{
    const ss__node *a = ss__program_node(p, x, "bitcast_convert");
    if (a && (unsigned)dtype < SS_DTYPE_COUNT && ss_dtype_size(dtype) != ss_dtype_size(a->dtype))
        return ss__bitcast_resize(p, x, dtype, out);
    return retype(p, x, dtype, SS_BITCAST, "bitcast_convert", out);
}

ss_status ss_broadcast_in_dim(ss_program *p, ss_value x, int rank, const int64_t shape[],
                              const int dims[], ss_value *out)
{
    const ss__node *a = ss__program_node(p, x, "broadcast_in_dim");
    if (!a)
        return SS_ERR_INVALID;
    if (rank < a->rank || rank > SS_MAX_RANK)
        return ss__fail(SS_ERR_RANK, "broadcast_in_dim: result rank %d is below the operand's %d "
                                     "or above %d", rank, a->rank, SS_MAX_RANK);
    ss__node n;
    node_init(&n, SS__OP_BROADCAST, NULL);
    n.dtype = a->dtype;
    n.rank = rank;
    for (int d = 0; d < rank; d++) {
        if (shape[d] < 1)
            return ss__fail(SS_ERR_INVALID, "broadcast_in_dim: result dimension %d has size %lld",
                            d, (long long)shape[d]);
        n.shape[d] = shape[d];
    }
    unsigned seen = 0;
    for (int i = 0; i < a->rank; i++) {
        int d = dims[i];
        if (d < 0 || d >= rank || (seen >> d) & 1u)
            return ss__fail(SS_ERR_INVALID, "broadcast_in_dim: dims[%d] = %d is out of range or "
                                            "repeated", i, d);
        if (i > 0 && d <= dims[i - 1])
            return ss__fail(SS_ERR_INVALID, "broadcast_in_dim: dims must be strictly increasing");
        seen |= 1u << d;
        if (a->shape[i] != 1 && a->shape[i] != shape[d])
            return ss__fail(SS_ERR_INVALID,
                            "broadcast_in_dim: operand dimension %d of size %lld cannot "
                            "broadcast to result dimension %d of size %lld",
                            i, (long long)a->shape[i], d, (long long)shape[d]);
        n.dims[i] = d;
    }
    n.in[n.nin++] = x;
    ss__layout_unknown(&n.fixed, rank);
    return ss__program_add(p, &n, out);
}

/* Broadcast x to (rank, shape) numpy-style (right-aligned) unless it has it. */
ss_status ss__broadcast_to(ss_program *p, ss_value x, int rank, const int64_t shape[],
                              ss_value *out)
{
    const ss__node *a = &p->nodes[x];
    bool same = a->rank == rank;
    for (int d = 0; same && d < rank; d++)
        same = a->shape[d] == shape[d];
    if (same) {
        *out = x;
        return SS_OK;
    }
    int dims[SS_MAX_RANK];
    for (int i = 0; i < a->rank; i++)
        dims[i] = rank - a->rank + i;
    return ss_broadcast_in_dim(p, x, rank, shape, dims, out);
}

/* The constant behind v if v is a weakly typed scalar: a constant
 * (ss_constant: a Python scalar) or a broadcast of one; NULL otherwise. */
static const ss__node *weak_scalar(const ss_program *p, ss_value v)
{
    const ss__node *n = &p->nodes[v];
    while (n->op == SS__OP_BROADCAST)
        n = &p->nodes[n->in[0]];
    return n->op == SS__OP_CONSTANT && n->sub == SS__CONST_SCALAR ? n : NULL;
}

/* `value` as the nearest number of `dtype` (round to nearest even for
 * bf16/f16, as jnp.asarray(value, dtype) does); other dtypes keep it. */
static double round_to(ss_dtype dtype, double value)
{
    float f = (float)value;
    if (dtype == SS_BF16)
        return ss__bf16_to_f32(ss__f32_to_bf16(f));
    if (dtype == SS_F16)
        return ss__f16_to_f32(ss__f32_to_f16(f));
    (void)f;
    return value; /* f32 and wider: kernels read the constant as it is */
}

/* Elementwise operands with JAX's weak types: a Python scalar (a
 * constant, or a broadcast of one) takes the dtype of the array it meets,
 * its value rounded to that dtype first (bf16 x times 0.1 multiplies by
 * bf16(0.1), and the result is bf16), so forward and gradients stay in the
 * arrays' dtype; beside an integer or bool array it becomes a convert of
 * the constant to that dtype. Two arrays must have the same dtype. Both
 * are broadcast numpy-style to the common shape (*rank, shape). */
ss_status ss__elementwise_operands(ss_program *p, const char *name, ss_value *x, ss_value *y,
                                   ss_dtype *dtype_out, int *rank_out, int64_t shape[])
{
    const ss__node *a = ss__program_node(p, *x, name);
    const ss__node *b = a ? ss__program_node(p, *y, name) : NULL;
    if (!a || !b)
        return SS_ERR_INVALID;
    const ss__node *wa = weak_scalar(p, *x), *wb = weak_scalar(p, *y);
    ss_dtype dtype = a->dtype;
    if (wa && !wb)
        dtype = b->dtype;
    else if (!wa && !wb && a->dtype != b->dtype)
        return fail_shapes(SS_ERR_INVALID, name, "operands have different dtypes", a, b);
    const ss__node *w = wa && !wb ? wa : wb && !wa ? wb : NULL;
    bool is_float = dtype == SS_F32 || dtype == SS_BF16 || dtype == SS_F16;
    if (w && (!is_float || round_to(dtype, w->scalar) != w->scalar)) {
        /* the scalar in the array's dtype: a new constant (the old one may
         * have other users), broadcast below like any operand */
        double r = is_float ? round_to(dtype, w->scalar) : w->scalar;
        ss_value c;
        ss_status st = ss_constant(p, r, &c);
        if (!st && !is_float)
            st = ss_convert(p, c, dtype, &c);
        if (st)
            return st;
        if (wa && !wb)
            *x = c;
        else
            *y = c;
        a = &p->nodes[*x];
        b = &p->nodes[*y];
    }
    int rank = a->rank > b->rank ? a->rank : b->rank;
    for (int d = 0; d < rank; d++) {
        int da = d - (rank - a->rank), db = d - (rank - b->rank);
        int64_t sa = da >= 0 ? a->shape[da] : 1, sb = db >= 0 ? b->shape[db] : 1;
        if (sa != sb && sa != 1 && sb != 1)
            return fail_dims(name, "shapes do not broadcast", "lhs", a, da, "rhs", b, db);
        shape[d] = sa > sb ? sa : sb;
    }
    ss_status st = ss__broadcast_to(p, *x, rank, shape, x);
    if (!st)
        st = ss__broadcast_to(p, *y, rank, shape, y);
    *dtype_out = dtype;
    *rank_out = rank;
    return st;
}

ss_status ss_binary(ss_program *p, ss_binary_op op, ss_value x, ss_value y, ss_value *out)
{
    if (!ss__program_node(p, x, "binary") || !ss__program_node(p, y, "binary"))
        return SS_ERR_INVALID;
    if ((unsigned)op >= SS_BINARY_COUNT)
        return ss__fail(SS_ERR_INVALID, "binary: unknown op %d", (int)op);
    const char *name = ss__opcode_name(&(ss__node){.op = SS__OP_BINARY, .sub = op});
    int n0 = p->n, rank;
    int64_t shape[SS_MAX_RANK];
    ss_dtype dtype;
    ss_status st = ss__elementwise_operands(p, name, &x, &y, &dtype, &rank, shape);
    if (!st && !ss__binary_defined(op, dtype))
        st = ss__fail(SS_ERR_UNSUPPORTED, "%s: not defined on %s", name, ss_dtype_name(dtype));
    if (st) {
        ss__program_drop_since(p, n0);
        return st;
    }
    ss__node n;
    node_init(&n, SS__OP_BINARY, NULL);
    n.sub = op;
    n.dtype = dtype;
    n.rank = rank;
    memcpy(n.shape, shape, sizeof(int64_t) * (size_t)rank);
    n.in[0] = x;
    n.in[1] = y;
    n.nin = 2;
    ss__layout_unknown(&n.fixed, rank);
    return ss__program_add(p, &n, out);
}

ss_status ss_dot_general(ss_program *p, ss_value lhs, ss_value rhs, int nb,
                         const int lhs_batch[], const int rhs_batch[], int nc,
                         const int lhs_contract[], const int rhs_contract[], ss_value *out)
{
    const ss__node *a = ss__program_node(p, lhs, "dot_general");
    const ss__node *b = a ? ss__program_node(p, rhs, "dot_general") : NULL;
    if (!a || !b)
        return SS_ERR_INVALID;
    if (a->dtype != b->dtype)
        return fail_shapes(SS_ERR_INVALID, "dot_general", "operands have different dtypes", a, b);
    if (nb < 0 || nc < 0 || nb + nc > a->rank || nb + nc > b->rank)
        return fail_shapes(SS_ERR_INVALID, "dot_general", "more batch and contracting dims than "
                                                          "the operands have", a, b);
    ss__node n;
    node_init(&n, SS__OP_DOT, NULL);
    n.dtype = a->dtype;
    unsigned lused = 0, rused = 0;
    for (int i = 0; i < nb + nc; i++) {
        int l = i < nb ? lhs_batch[i] : lhs_contract[i - nb];
        int r = i < nb ? rhs_batch[i] : rhs_contract[i - nb];
        if (l < 0 || l >= a->rank || r < 0 || r >= b->rank || (lused >> l) & 1u ||
            (rused >> r) & 1u)
            return fail_shapes(SS_ERR_INVALID, "dot_general",
                               "a batch or contracting dim is out of range or repeated", a, b);
        if (a->shape[l] != b->shape[r])
            return fail_dims("dot_general", i < nb ? "batch dims differ" : "contracting dims differ",
                             "lhs", a, l, "rhs", b, r);
        lused |= 1u << l;
        rused |= 1u << r;
        if (i < nb) {
            n.lb[i] = (int8_t)l;
            n.rb[i] = (int8_t)r;
        } else {
            n.lc[i - nb] = (int8_t)l;
            n.rc[i - nb] = (int8_t)r;
        }
    }
    n.nb = nb;
    n.nc = nc;
    int rank = 0;
    for (int i = 0; i < nb; i++)
        n.shape[rank++] = a->shape[n.lb[i]];
    for (int d = 0; d < a->rank; d++)
        if (!((lused >> d) & 1u))
            n.shape[rank++] = a->shape[d];
    for (int d = 0; d < b->rank; d++)
        if (!((rused >> d) & 1u)) {
            if (rank == SS_MAX_RANK)
                return fail_shapes(SS_ERR_RANK, "dot_general", "result rank above 8", a, b);
            n.shape[rank++] = b->shape[d];
        }
    n.rank = rank;
    n.in[0] = lhs;
    n.in[1] = rhs;
    n.nin = 2;
    ss__layout_unknown(&n.fixed, rank);
    return ss__program_add(p, &n, out);
}

ss_status ss_matmul(ss_program *p, ss_value x, ss_value w, ss_value *out)
{
    const ss__node *a = ss__program_node(p, x, "matmul");
    const ss__node *b = a ? ss__program_node(p, w, "matmul") : NULL;
    if (!a || !b)
        return SS_ERR_INVALID;
    if (a->rank < 1 || b->rank != 2)
        return fail_shapes(SS_ERR_INVALID, "matmul", "expects x of rank >= 1 and a 2-D w", a, b);
    int lc = a->rank - 1, rc = 0;
    return ss_dot_general(p, x, w, 0, NULL, NULL, 1, &lc, &rc, out);
}

ss_status ss_einsum(ss_program *p, const char *spec, ss_value lhs, ss_value rhs, ss_value *out)
{
    const ss__node *a = ss__program_node(p, lhs, "einsum");
    const ss__node *b = a ? ss__program_node(p, rhs, "einsum") : NULL;
    if (!a || !b)
        return SS_ERR_INVALID;
    char l[SS_MAX_RANK + 1], r[SS_MAX_RANK + 1], o[SS_MAX_RANK + 1];
    int nl = 0, nr = 0, no = 0, part = 0;
    for (const char *c = spec; *c; c++) {
        if (*c == ' ')
            continue;
        if (*c == ',' && part == 0) {
            part = 1;
        } else if (c[0] == '-' && c[1] == '>' && part == 1) {
            part = 2;
            c++;
        } else if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')) {
            char *dst = part == 0 ? l : part == 1 ? r : o;
            int *cnt = part == 0 ? &nl : part == 1 ? &nr : &no;
            if (*cnt == SS_MAX_RANK)
                return ss__fail(SS_ERR_PARSE, "einsum '%s': more than %d dims in an operand",
                                spec, SS_MAX_RANK);
            if (memchr(dst, *c, (size_t)*cnt))
                return ss__fail(SS_ERR_UNSUPPORTED, "einsum '%s': repeated index '%c' in one "
                                                    "operand (traces) is not supported", spec, *c);
            dst[(*cnt)++] = *c;
        } else {
            return ss__fail(SS_ERR_PARSE, "einsum '%s': unexpected '%c' at column %d", spec, *c,
                            (int)(c - spec) + 1);
        }
    }
    if (part != 2)
        return ss__fail(SS_ERR_PARSE, "einsum '%s': expected the form 'ab,bc->ac'", spec);
    if (nl != a->rank || nr != b->rank)
        return fail_shapes(SS_ERR_INVALID, "einsum", "index count does not match operand rank",
                           a, b);
    int lb[SS_MAX_RANK], rb[SS_MAX_RANK], lc[SS_MAX_RANK], rc[SS_MAX_RANK], nb = 0, nc = 0;
    for (int i = 0; i < nl; i++) {
        const char *in_r = memchr(r, l[i], (size_t)nr);
        bool in_o = memchr(o, l[i], (size_t)no) != NULL;
        if (in_r && in_o) {
            lb[nb] = i;
            rb[nb++] = (int)(in_r - r);
        } else if (in_r) {
            lc[nc] = i;
            rc[nc++] = (int)(in_r - r);
        } else if (!in_o) {
            return ss__fail(SS_ERR_UNSUPPORTED, "einsum '%s': index '%c' appears in one operand "
                                                "only and not in the output; sum it first",
                            spec, l[i]);
        }
    }
    for (int i = 0; i < nr; i++)
        if (!memchr(l, r[i], (size_t)nl) && !memchr(o, r[i], (size_t)no))
            return ss__fail(SS_ERR_UNSUPPORTED, "einsum '%s': index '%c' appears in one operand "
                                                "only and not in the output; sum it first",
                            spec, r[i]);
    /* dot_general's own output order: batch, lhs free, rhs free. */
    char natural[3 * SS_MAX_RANK];
    int nn = 0;
    for (int i = 0; i < nb; i++)
        natural[nn++] = l[lb[i]];
    for (int i = 0; i < nl; i++)
        if (!memchr(r, l[i], (size_t)nr))
            natural[nn++] = l[i];
    for (int i = 0; i < nr; i++)
        if (!memchr(l, r[i], (size_t)nl))
            natural[nn++] = r[i];
    if (nn != no)
        return ss__fail(SS_ERR_INVALID, "einsum '%s': output indices do not match the operands",
                        spec);
    int perm[SS_MAX_RANK];
    bool identity = true;
    for (int i = 0; i < no; i++) {
        const char *at = memchr(natural, o[i], (size_t)nn);
        if (!at)
            return ss__fail(SS_ERR_INVALID, "einsum '%s': output index '%c' is in no operand",
                            spec, o[i]);
        perm[i] = (int)(at - natural);
        identity = identity && perm[i] == i;
    }
    ss_value d;
    ss_status st = ss_dot_general(p, lhs, rhs, nb, lb, rb, nc, lc, rc, &d);
    if (st || identity) {
        *out = d;
        return st;
    }
    return ss_transpose(p, d, perm, out);
}

static int norm_axis(int axis, int rank) { return axis < 0 ? axis + rank : axis; }

ss_status ss_reduce(ss_program *p, ss_reduce_op op, ss_value x, int naxes, const int axes[],
                    int keepdims, ss_value *out)
{
    const ss__node *a = ss__program_node(p, x, "reduce");
    if (!a)
        return SS_ERR_INVALID;
    if ((unsigned)op > SS_REDUCE_OR)
        return ss__fail(SS_ERR_INVALID, "reduce: unknown op %d", (int)op);
    if (!ss__reduce_defined(op, a->dtype))
        return ss__fail(SS_ERR_UNSUPPORTED, "%s: not defined on %s",
                        ss__opcode_name(&(ss__node){.op = SS__OP_REDUCE, .sub = op}),
                        ss_dtype_name(a->dtype));
    unsigned mask = 0;
    int64_t count = 1;
    for (int i = 0; i < naxes; i++) {
        int d = norm_axis(axes[i], a->rank);
        if (d < 0 || d >= a->rank || (mask >> d) & 1u)
            return fail_shapes(SS_ERR_INVALID, "reduce", "an axis is out of range or repeated", a,
                               NULL);
        mask |= 1u << d;
        count *= a->shape[d];
    }
    ss__node n;
    node_init(&n, SS__OP_REDUCE, NULL);
    n.sub = op == SS_REDUCE_MEAN ? SS_REDUCE_SUM : op;
    n.dtype = a->dtype;
    n.axes_mask = mask;
    int64_t kept[SS_MAX_RANK];
    for (int d = 0; d < a->rank; d++) {
        if (!((mask >> d) & 1u))
            n.shape[n.rank++] = a->shape[d];
        kept[d] = (mask >> d) & 1u ? 1 : a->shape[d];
    }
    n.in[n.nin++] = x;
    ss__layout_unknown(&n.fixed, n.rank);
    int keep_rank = a->rank;
    ss_value r;
    ss_status st = ss__program_add(p, &n, &r);
    if (!st && op == SS_REDUCE_MEAN) {
        ss_value c;
        st = ss_constant(p, 1.0 / (double)count, &c);
        if (!st)
            st = ss_binary(p, SS_MUL, r, c, &r);
    }
    if (!st && keepdims)
        st = ss_reshape(p, r, keep_rank, kept, &r);
    if (!st)
        *out = r;
    return st;
}

ss_status ss_transpose(ss_program *p, ss_value x, const int perm[], ss_value *out)
{
    const ss__node *a = ss__program_node(p, x, "transpose");
    if (!a)
        return SS_ERR_INVALID;
    ss__node n;
    node_init(&n, SS__OP_TRANSPOSE, a);
    unsigned seen = 0;
    for (int d = 0; d < a->rank; d++) {
        if (perm[d] < 0 || perm[d] >= a->rank || (seen >> perm[d]) & 1u)
            return fail_shapes(SS_ERR_INVALID, "transpose", "perm is not a permutation", a, NULL);
        seen |= 1u << perm[d];
        n.dims[d] = perm[d];
        n.shape[d] = a->shape[perm[d]];
    }
    n.in[n.nin++] = x;
    return ss__program_add(p, &n, out);
}

ss_status ss_reshape(ss_program *p, ss_value x, int rank, const int64_t shape[], ss_value *out)
{
    const ss__node *a = ss__program_node(p, x, "reshape");
    if (!a)
        return SS_ERR_INVALID;
    if (rank < 0 || rank > SS_MAX_RANK)
        return ss__fail(SS_ERR_RANK, "reshape: rank %d is outside 0..%d", rank, SS_MAX_RANK);
    int64_t from = 1, to = 1;
    for (int d = 0; d < a->rank; d++)
        from *= a->shape[d];
    ss__node n;
    node_init(&n, SS__OP_RESHAPE, NULL);
    n.dtype = a->dtype;
    n.rank = rank;
    for (int d = 0; d < rank; d++) {
        if (shape[d] < 1)
            return ss__fail(SS_ERR_INVALID, "reshape: dimension %d has size %lld", d,
                            (long long)shape[d]);
        to *= shape[d];
        n.shape[d] = shape[d];
    }
    if (from != to)
        return fail_shapes(SS_ERR_INVALID, "reshape", "element counts differ", a, &n);
    n.in[n.nin++] = x;
    ss__layout_unknown(&n.fixed, rank);
    return ss__program_add(p, &n, out);
}

ss_status ss_slice(ss_program *p, ss_value x, const int64_t start[], const int64_t limit[],
                   ss_value *out)
{
    const ss__node *a = ss__program_node(p, x, "slice");
    if (!a)
        return SS_ERR_INVALID;
    ss__node n;
    node_init(&n, SS__OP_SLICE, a);
    for (int d = 0; d < a->rank; d++) {
        if (start[d] < 0 || start[d] >= limit[d] || limit[d] > a->shape[d])
            return ss__fail(SS_ERR_INVALID,
                            "slice: dimension %d: [%lld, %lld) is not a non-empty range within "
                            "0..%lld",
                            d, (long long)start[d], (long long)limit[d], (long long)a->shape[d]);
        n.start[d] = start[d];
        n.limit[d] = limit[d];
        n.shape[d] = limit[d] - start[d];
    }
    n.in[n.nin++] = x;
    return ss__program_add(p, &n, out);
}

ss_status ss_concatenate(ss_program *p, int count, const ss_value xs[], int dim, ss_value *out)
{
    if (count < 1 || count > SS__MAX_INPUTS)
        return ss__fail(SS_ERR_INVALID, "concatenate: %d operands; 1..%d are supported", count,
                        SS__MAX_INPUTS);
    const ss__node *a = ss__program_node(p, xs[0], "concatenate");
    if (!a)
        return SS_ERR_INVALID;
    dim = norm_axis(dim, a->rank);
    if (dim < 0 || dim >= a->rank)
        return fail_shapes(SS_ERR_INVALID, "concatenate", "dim is out of range", a, NULL);
    ss__node n;
    node_init(&n, SS__OP_CONCAT, a);
    n.dim = dim;
    n.shape[dim] = 0;
    for (int i = 0; i < count; i++) {
        const ss__node *b = ss__program_node(p, xs[i], "concatenate");
        if (!b)
            return SS_ERR_INVALID;
        bool ok = b->rank == a->rank && b->dtype == a->dtype;
        for (int d = 0; ok && d < a->rank; d++)
            ok = d == dim || b->shape[d] == a->shape[d];
        if (!ok)
            return fail_shapes(SS_ERR_INVALID, "concatenate",
                               "operands differ outside the concatenated dim", a, b);
        n.shape[dim] += b->shape[dim];
        n.in[n.nin++] = xs[i];
    }
    return ss__program_add(p, &n, out);
}

ss_status ss_one_hot(ss_program *p, ss_value labels, int64_t classes, ss_value *out)
{
    const ss__node *a = ss__program_node(p, labels, "one_hot");
    if (!a)
        return SS_ERR_INVALID;
    if (a->dtype != SS_I32)
        return fail_shapes(SS_ERR_INVALID, "one_hot", "labels must be i32", a, NULL);
    if (classes < 1 || a->rank == SS_MAX_RANK)
        return fail_shapes(SS_ERR_INVALID, "one_hot", "needs classes >= 1 and rank below 8", a,
                           NULL);
    ss__node n;
    node_init(&n, SS__OP_ONE_HOT, a);
    n.dtype = SS_F32;
    n.classes = classes;
    n.shape[n.rank++] = classes;
    n.in[n.nin++] = labels;
    ss__layout_unknown(&n.fixed, n.rank);
    return ss__program_add(p, &n, out);
}

ss_status ss_constrain(ss_program *p, ss_value x, const ss_spec *spec, ss_value *out)
{
    const ss__node *a = ss__program_node(p, x, "constrain");
    if (!a)
        return SS_ERR_INVALID;
    ss__node n;
    node_init(&n, SS__OP_CONSTRAIN, a);
    ss_status st = ss__layout_from_spec(p->mesh, spec, a->rank, &n.fixed);
    if (st) {
        char inner[1024];
        snprintf(inner, sizeof inner, "%s", ss_error_message());
        if (st == SS_ERR_RANK)
            return ss__fail(st, "One of with_sharding_constraint arguments is incompatible with "
                                "its sharding annotation: %s", inner);
        return ss__fail(st, "%s", inner);
    }
    n.in[n.nin++] = x;
    return ss__program_add(p, &n, out);
}

const char *ss_memory_kind_name(ss_memory_kind kind)
{
    static const char *const names[SS_MEMORY_KIND_COUNT] = {"device", "pinned_host",
                                                            "unpinned_host"};
    return (unsigned)kind < SS_MEMORY_KIND_COUNT ? names[kind] : NULL;
}

ss_status ss_device_put(ss_program *p, ss_value x, ss_memory_kind kind, ss_value *out)
{
    const ss__node *a = ss__program_node(p, x, "device_put");
    if (!a)
        return SS_ERR_INVALID;
    if ((unsigned)kind >= SS_MEMORY_KIND_COUNT)
        return ss__fail(SS_ERR_INVALID, "device_put: unknown memory kind %d", (int)kind);
    ss__node n;
    node_init(&n, SS__OP_MEMORY, a);
    n.sub = (int)kind;
    n.in[n.nin++] = x;
    return ss__program_add(p, &n, out);
}

ss_memory_kind ss__value_memory(const ss_program *p, ss_value v)
{
    if (p->memory && v < p->memory_n) /* the compile's memory pass, through loops */
        return (ss_memory_kind)p->memory[v];
    const ss__node *n = &p->nodes[v];
    while (n->op == SS__OP_CONSTRAIN) /* a constraint moves no data between memories */
        n = &p->nodes[n->in[0]];
    return n->op == SS__OP_MEMORY ? (ss_memory_kind)n->sub : SS_MEMORY_DEVICE;
}

ss_memory_kind ss_value_memory_kind(const ss_program *p, ss_value v)
{
    if (!p || v < 0 || v >= ss_program_value_count(p))
        return SS_MEMORY_DEVICE;
    return ss__value_memory(p, v);
}
