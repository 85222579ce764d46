/*
 * ops_reduce.c — which reductions each dtype has, and the builders of
 * argmax and argmin (jnp.argmax: StableHLO's reduce of values and an iota
 * with JAX's comparator, one node here). ss_reduce itself is in ops.c.
 */
#include "graph.h"
#include "kernels/kernels.h"

#include <string.h>

bool ss__reduce_defined(ss_reduce_op op, ss_dtype dt)
{
    if ((unsigned)dt >= SS_DTYPE_COUNT)
        return false;
    switch (op) {
    case SS_REDUCE_SUM: return ss__k_reduce_has(SS__K_REDUCE_SUM, dt);
    case SS_REDUCE_MAX: return ss__k_reduce_has(SS__K_REDUCE_MAX, dt);
    case SS_REDUCE_MIN: return ss__k_reduce_has(SS__K_REDUCE_MIN, dt);
    case SS_REDUCE_MEAN: return ss__k_reduce_has(SS__K_REDUCE_MEAN, dt);
    case SS_REDUCE_PROD: return ss__k_reduce_has(SS__K_REDUCE_PROD, dt);
    case SS_REDUCE_AND: return ss__k_reduce_has(SS__K_REDUCE_AND, dt);
    case SS_REDUCE_OR: return ss__k_reduce_has(SS__K_REDUCE_OR, dt);
    default: return false;
    }
}

static bool is_integer(ss_dtype dt)
{
    switch (dt) {
    case SS_I8: case SS_I16: case SS_I32: case SS_I64:
    case SS_U8: case SS_U16: case SS_U32: case SS_U64: return true;
    default: return false;
    }
}

/* argmax (is_min false) or argmin of x over `axis` as index_dtype. */
static ss_status arg_reduce(ss_program *p, ss_value x, int axis, ss_dtype index_dtype,
                            bool is_min, ss_value *out)
{
    const char *name = is_min ? "argmin" : "argmax";
    const ss__node *a = ss__program_node(p, x, name);
    if (!a)
        return SS_ERR_INVALID;
    ss__buf b;
    ss__buf_init(&b);
    ss__shape_repr_buf(&b, a->dtype, a->rank, a->shape);
    ss_status st = SS_OK;
    int d = axis < 0 ? axis + a->rank : axis;
    if (d < 0 || d >= a->rank)
        st = ss__fail(SS_ERR_INVALID, "%s: axis %d is out of range for %s", name, axis,
                      b.data ? b.data : "?");
    else if (!is_integer(index_dtype))
        st = ss__fail(SS_ERR_INVALID, "%s: index dtype %s is not an integer", name,
                      (unsigned)index_dtype < SS_DTYPE_COUNT ? ss_dtype_name(index_dtype) : "?");
    else if (a->dtype == SS_BOOL)
        st = ss__fail(SS_ERR_UNSUPPORTED, "%s: not defined on bool", name);
    ss__buf_free(&b);
    if (st)
        return st;
    ss__node n;
    memset(&n, 0, sizeof n);
    n.op = SS__OP_ARGMAX;
    n.sub = is_min ? 1 : 0;
    n.dtype = index_dtype;
    n.dim = d;
    n.axes_mask = 1u << d;
    for (int k = 0; k < a->rank; k++)
        if (k != d)
            n.shape[n.rank++] = a->shape[k];
    ss__layout_unknown(&n.fixed, n.rank);
    n.in[n.nin++] = x;
    return ss__program_add(p, &n, out);
}

ss_status ss_argmax(ss_program *p, ss_value x, int axis, ss_dtype index_dtype, ss_value *out)
{
    return arg_reduce(p, x, axis, index_dtype, false, out);
}

ss_status ss_argmin(ss_program *p, ss_value x, int axis, ss_dtype index_dtype, ss_value *out)
{
    return arg_reduce(p, x, axis, index_dtype, true, out);
}
