/*
 * ops_elem.c — builders of the elementwise ops on every dtype: which
 * unary and binary ops each dtype has, compare (-> bool), select, clamp
 * and the fused multiply-add.
 * The kernels (kernels/elementwise_int.c) hold the same rules; a builder
 * refuses what they would, so a program that builds also runs.
 */
#include "graph.h"

#include <stdlib.h>
#include <string.h>

void ss__program_drop_since(ss_program *p, int n0)
{
    if (p->n > n0) {
        p->n = n0;
        free(p->layouts);
        p->layouts = NULL;
    }
}

static bool is_float(ss_dtype dt)
{
    return dt == SS_F32 || dt == SS_BF16 || dt == SS_F16 || dt == SS_F64;
}

static bool is_signed(ss_dtype dt)
{
    return dt == SS_I8 || dt == SS_I16 || dt == SS_I32 || dt == SS_I64;
}

static bool is_unsigned(ss_dtype dt)
{
    return dt == SS_U8 || dt == SS_U16 || dt == SS_U32 || dt == SS_U64;
}

bool ss__unary_defined(ss_unary_op op, ss_dtype dt)
{
    if ((unsigned)dt >= SS_DTYPE_COUNT || (unsigned)op >= SS_UNARY_COUNT)
        return false;
    if (op == SS_CONVERT)
        return true;
    if (op == SS_BITCAST) /* ss_bitcast_convert builds it, not ss_unary */
        return false;
    if (is_float(dt))
        return op != SS_NOT && op != SS_POPCNT && op != SS_CLZ;
    if (dt == SS_BOOL)
        return op == SS_NOT || op == SS_IS_FINITE;
    /* abs is for signed integers (StableHLO's abs, and JAX's) */
    return op == SS_NEG || (op == SS_ABS && is_signed(dt)) || op == SS_SIGN ||
           op == SS_SQUARE || op == SS_NOT || op == SS_POPCNT || op == SS_CLZ ||
           op == SS_IS_FINITE;
}

bool ss__binary_defined(ss_binary_op op, ss_dtype dt)
{
    if ((unsigned)dt >= SS_DTYPE_COUNT || (unsigned)op >= SS_BINARY_COUNT)
        return false;
    bool bitwise = op == SS_AND || op == SS_OR || op == SS_XOR;
    bool shift = op == SS_SHIFT_LEFT || op == SS_SHIFT_RIGHT_ARITHMETIC ||
                 op == SS_SHIFT_RIGHT_LOGICAL;
    if (is_float(dt))
        return !bitwise && !shift;
    if (dt == SS_BOOL)
        return bitwise || op == SS_ADD || op == SS_MUL || op == SS_MAX || op == SS_MIN ||
               op == SS_EQ || op == SS_GT || op == SS_GE;
    return op != SS_POW && op != SS_ATAN2 && op != SS_NEXT_AFTER;
}

static const char *const dir_names[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
static const char *const type_names[] = {"FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"};

ss_status ss_compare(ss_program *p, ss_cmp_dir dir, ss_cmp_type type, ss_value a, ss_value b,
                     ss_value *out)
{
    if (!ss__program_node(p, a, "compare") || !ss__program_node(p, b, "compare"))
        return SS_ERR_INVALID;
    if ((unsigned)dir > SS_CMP_GE || (unsigned)type > SS_CMP_UNSIGNED)
        return ss__fail(SS_ERR_INVALID, "compare: unknown direction %d or type %d", (int)dir,
                        (int)type);
    int n0 = p->n, rank;
    int64_t shape[SS_MAX_RANK];
    ss_dtype dt;
    ss_status st = ss__elementwise_operands(p, "compare", &a, &b, &dt, &rank, shape);
    if (st) {
        ss__program_drop_since(p, n0);
        return st;
    }
    bool ok = type <= SS_CMP_TOTALORDER ? is_float(dt)
              : type == SS_CMP_SIGNED   ? is_signed(dt)
                                        : is_unsigned(dt) || dt == SS_BOOL;
    if (!ok) {
        ss__program_drop_since(p, n0);
        return ss__fail(SS_ERR_UNSUPPORTED, "compare: comparison_direction %s, compare_type %s "
                        "is not defined on %s (FLOAT or TOTALORDER for floats, SIGNED for "
                        "signed integers, UNSIGNED for unsigned ones and bool)",
                        dir_names[dir], type_names[type], ss_dtype_name(dt));
    }
    ss__node n;
    memset(&n, 0, sizeof n);
    n.op = SS__OP_COMPARE;
    n.sub = (int)dir * 4 + (int)type;
    n.dtype = SS_BOOL;
    n.rank = rank;
    memcpy(n.shape, shape, sizeof(int64_t) * (size_t)rank);
    n.in[0] = a;
    n.in[1] = b;
    n.nin = 2;
    ss__layout_unknown(&n.fixed, rank);
    return ss__program_add(p, &n, out);
}

/* v as an operand of an op of shape (rank, shape): its own shape, or a
 * rank-0 value broadcast to it (StableHLO's scalar pred and clamp bounds). */
static ss_status fit(ss_program *p, const char *op, const char *what, ss_value v,
                     const ss__node *like, ss_value *out)
{
    const ss__node *n = &p->nodes[v];
    int rank = like->rank;
    const int64_t *shape = like->shape;
    bool same = n->rank == rank;
    for (int d = 0; same && d < rank; d++)
        same = n->shape[d] == shape[d];
    if (same) {
        *out = v;
        return SS_OK;
    }
    if (n->rank != 0) {
        ss__buf b;
        ss__buf_init(&b);
        ss__buf_printf(&b, "%s: %s ", op, what);
        ss__shape_repr_buf(&b, n->dtype, n->rank, n->shape);
        ss__buf_puts(&b, " must be rank 0 or of the shape of ");
        ss__shape_repr_buf(&b, like->dtype, rank, shape);
        ss_status st = ss__fail(SS_ERR_INVALID, "%s", b.data ? b.data : op);
        ss__buf_free(&b);
        return st;
    }
    return ss__broadcast_to(p, v, rank, shape, out);
}

/* The node of a 3-operand elementwise op: in[0..2] given, shape of `like`. */
static ss_status add3(ss_program *p, ss__opcode op, ss_value a, ss_value b, ss_value c,
                      const ss__node *like, ss_value *out)
{
    ss__node n;
    memset(&n, 0, sizeof n);
    n.op = op;
    n.dtype = like->dtype;
    n.rank = like->rank;
    memcpy(n.shape, like->shape, sizeof n.shape);
    n.in[0] = a;
    n.in[1] = b;
    n.in[2] = c;
    n.nin = 3;
    ss__layout_unknown(&n.fixed, n.rank);
    return ss__program_add(p, &n, out);
}

ss_status ss_select(ss_program *p, ss_value pred, ss_value on_true, ss_value on_false,
                    ss_value *out)
{
    const ss__node *c = ss__program_node(p, pred, "select");
    const ss__node *t = c ? ss__program_node(p, on_true, "select") : NULL;
    const ss__node *f = t ? ss__program_node(p, on_false, "select") : NULL;
    if (!f)
        return SS_ERR_INVALID;
    if (c->dtype != SS_BOOL)
        return ss__fail(SS_ERR_INVALID, "select: pred has dtype %s (expected bool)",
                        ss_dtype_name(c->dtype));
    bool same = t->dtype == f->dtype && t->rank == f->rank;
    for (int d = 0; same && d < t->rank; d++)
        same = t->shape[d] == f->shape[d];
    if (!same) {
        ss__buf b;
        ss__buf_init(&b);
        ss__buf_puts(&b, "select: on_true ");
        ss__shape_repr_buf(&b, t->dtype, t->rank, t->shape);
        ss__buf_puts(&b, " and on_false ");
        ss__shape_repr_buf(&b, f->dtype, f->rank, f->shape);
        ss__buf_puts(&b, " must have one shape and dtype");
        ss_status st = ss__fail(SS_ERR_INVALID, "%s", b.data ? b.data : "select");
        ss__buf_free(&b);
        return st;
    }
    ss__node like = *t;
    int n0 = p->n;
    ss_value pb;
    ss_status st = fit(p, "select", "pred", pred, &like, &pb);
    if (!st)
        st = add3(p, SS__OP_SELECT, pb, on_true, on_false, &like, out);
    if (st)
        ss__program_drop_since(p, n0);
    return st;
}

ss_status ss_clamp(ss_program *p, ss_value lo, ss_value x, ss_value hi, ss_value *out)
{
    const ss__node *l = ss__program_node(p, lo, "clamp");
    const ss__node *a = l ? ss__program_node(p, x, "clamp") : NULL;
    const ss__node *h = a ? ss__program_node(p, hi, "clamp") : NULL;
    if (!h)
        return SS_ERR_INVALID;
    int n0 = p->n;
    /* a Python scalar bound (ss_constant) takes x's dtype, as in jnp.clip */
    ss_status st = SS_OK;
    if (l->dtype != a->dtype && l->op == SS__OP_CONSTANT && l->sub == SS__CONST_SCALAR)
        st = ss_convert(p, lo, a->dtype, &lo);
    if (!st && p->nodes[hi].dtype != p->nodes[x].dtype && p->nodes[hi].op == SS__OP_CONSTANT &&
        p->nodes[hi].sub == SS__CONST_SCALAR)
        st = ss_convert(p, hi, p->nodes[x].dtype, &hi);
    if (st) {
        ss__program_drop_since(p, n0);
        return st;
    }
    l = &p->nodes[lo];
    a = &p->nodes[x];
    h = &p->nodes[hi];
    if (l->dtype != a->dtype || h->dtype != a->dtype) {
        ss__program_drop_since(p, n0);
        return ss__fail(SS_ERR_INVALID, "clamp: min %s, operand %s and max %s must have one dtype",
                        ss_dtype_name(l->dtype), ss_dtype_name(a->dtype),
                        ss_dtype_name(h->dtype));
    }
    if (a->dtype == SS_BOOL) {
        ss__program_drop_since(p, n0);
        return ss__fail(SS_ERR_UNSUPPORTED, "clamp: not defined on bool");
    }
    ss__node like = *a;
    ss_value lb, hb;
    st = fit(p, "clamp", "min", lo, &like, &lb);
    if (!st)
        st = fit(p, "clamp", "max", hi, &like, &hb);
    if (!st)
        st = add3(p, SS__OP_CLAMP, lb, x, hb, &like, out);
    if (st)
        ss__program_drop_since(p, n0);
    return st;
}

ss_status ss__fma(ss_program *p, int form, ss_value a, ss_value b, ss_value c, ss_value *out)
{
    const ss__node *x = ss__program_node(p, a, "fma");
    const ss__node *y = x ? ss__program_node(p, b, "fma") : NULL;
    const ss__node *z = y ? ss__program_node(p, c, "fma") : NULL;
    if (!z)
        return SS_ERR_INVALID;
    if (form < 0 || form > 2)
        return ss__fail(SS_ERR_INVALID, "fma: unknown form %d", form);
    bool same = x->dtype == y->dtype && x->dtype == z->dtype && x->rank == y->rank &&
                x->rank == z->rank;
    for (int d = 0; same && d < x->rank; d++)
        same = x->shape[d] == y->shape[d] && x->shape[d] == z->shape[d];
    if (!same)
        return ss__fail(SS_ERR_INVALID, "fma: operands must have one shape and dtype");
    if (x->dtype != SS_F32 && x->dtype != SS_F64 && x->dtype != SS_BF16 && x->dtype != SS_F16)
        return ss__fail(SS_ERR_UNSUPPORTED, "fma: not defined on %s", ss_dtype_name(x->dtype));
    ss__node like = *x;
    ss_status st = add3(p, SS__OP_FMA, a, b, c, &like, out);
    if (!st)
        p->nodes[*out].sub = form;
    return st;
}
