/*
 * vjp_rules.c — the cotangent rules of the primitive ops (the VJP column
 * of ops.def; autodiff.c runs the sweep).
 *
 * Each op's cotangent rule is JAX's (jax/_src/lax/lax.py and friends),
 * including the order of operations where it matters for rounding:
 *   dot_general   _dot_general_transpose_lhs/rhs: a dot_general of the
 *                 cotangent with the other operand, then a transpose back
 *                 to the operand's dim order (omitted when the identity;
 *                 folded into the dot by swapping its operands when that
 *                 gives the order directly, as XLA's simplifier does: a
 *                 matmul's weight gradient is dot(x, g), not dot(g, x)^T);
 *   reduce_sum    broadcast_in_dim back over the reduced dims;
 *   reduce_max/min  the cotangent is split equally among all elements equal
 *                 to the result (JAX's _reduce_chooser_jvp_rule: indicator
 *                 / count of ties);
 *   max/min       binary: JAX's _balanced_eq, each operand equal to the
 *                 result gets g / (1 + [other operand also equal]), so a tie
 *                 gives half to each side;
 *   relu          jax.nn.relu's custom JVP: g where x > 0, else 0 (0 at 0);
 *   broadcast_in_dim  a sum over the broadcast dims, then a reshape back to
 *                 the operand's size-1 dims (_broadcast_in_dim_transpose_rule);
 *   slice         zero padding, written as a concatenate with zeros
 *                 broadcast from a constant (lax.pad's transpose);
 *   concatenate   a slice per operand; transpose: the inverse permutation;
 *   reshape       a reshape back; one_hot: no cotangent to the labels;
 *   comparisons   (eq, gt, ge) piecewise constant: no cotangent.
 * Selects are written as multiplications by 0/1 masks, which differ from
 */
#include "autodiff_internal.h"
#include "kernels/kernels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* --- Small builders ------------------------------------------------------ */

/* A scalar `value` of dtype `dt` (a constant is f32; other float dtypes go
 * through a converting negation, as the kernels allow mixed float dtypes). */
ss_status ss__ad_scalar(ss_program *p, double value, ss_dtype dt, ss_value *out)
{
    if (dt == SS_F32)
        return ss_constant(p, value, out);
    ss_value c;
    ss_status st = ss_constant(p, -value, &c);
    if (st)
        return st;
    ss__node n = p->nodes[c];
    n.op = SS__OP_UNARY;
    n.sub = SS_NEG;
    n.dtype = dt;
    n.nin = 1;
    n.in[0] = c;
    ss__layout_unknown(&n.fixed, 0);
    return ss__program_add(p, &n, out);
}

/* An array of `shape` filled with `value`. */
ss_status ss__ad_full(ss_program *p, double value, ss_dtype dt, int rank, const int64_t shape[],
                      ss_value *out)
{
    ss_value c;
    ss_status st = ss__ad_scalar(p, value, dt, &c);
    if (st || rank == 0) {
        *out = c;
        return st;
    }
    int none[1] = {0};
    return ss_broadcast_in_dim(p, c, rank, shape, none, out);
}

static ss_status bin(ss_program *p, ss_binary_op op, ss_value a, ss_value b, ss_value *out)
{
    return ss_binary(p, op, a, b, out);
}

/* A float comparison (bool result). */
static ss_status cmp(ss_program *p, ss_cmp_dir dir, ss_value a, ss_value b, ss_value *out)
{
    return ss_compare(p, dir, SS_CMP_FLOAT, a, b, out);
}

/* g where `mask`, else zeros of g's shape and dtype. */
static ss_status masked(ss_program *p, ss_value mask, ss_value g, bool keep_true, ss_value *out)
{
    const ss__node *gn = &p->nodes[g];
    ss_value z;
    ss_status st = ss__ad_full(p, 0.0, gn->dtype, gn->rank, gn->shape, &z);
    if (st)
        return st;
    return keep_true ? ss_select(p, mask, g, z, out) : ss_select(p, mask, z, g, out);
}

/* a op constant */
ss_status ss__ad_binc(ss_program *p, ss_binary_op op, ss_value a, double c, ss_value *out)
{
    ss_value k;
    ss_status st = ss_constant(p, c, &k);
    return st ? st : ss_binary(p, op, a, k, out);
}

/* constant op a */
static ss_status cbin(ss_program *p, ss_binary_op op, double c, ss_value a, ss_value *out)
{
    ss_value k;
    ss_status st = ss_constant(p, c, &k);
    return st ? st : ss_binary(p, op, k, a, out);
}

/* Broadcast `r` (x reduced over `mask`) back to x's shape. */
static ss_status unreduce(ss_program *p, ss_value r, const ss__node *x, unsigned mask,
                          ss_value *out)
{
    if (!mask) {
        *out = r;
        return SS_OK;
    }
    int dims[SS_MAX_RANK], k = 0;
    for (int d = 0; d < x->rank; d++)
        if (!((mask >> d) & 1u))
            dims[k++] = d;
    return ss_broadcast_in_dim(p, r, x->rank, x->shape, dims, out);
}

static ss_status reduce_mask(ss_program *p, ss_reduce_op op, ss_value x, unsigned mask,
                             ss_value *out)
{
    int axes[SS_MAX_RANK], k = 0;
    for (int d = 0; d < SS_MAX_RANK; d++)
        if ((mask >> d) & 1u)
            axes[k++] = d;
    return ss_reduce(p, op, x, k, axes, 0, out);
}

/* --- Cotangent rules ------------------------------------------------------ */
/*
 * One rule per op, named in the VJP column of ops.def: node n (a copy: the
 * rules append nodes, which may move the node array) is value v, g its
 * cotangent; for each operand k with want[k] the rule may set gin[k] to the
 * operand's cotangent (left -1: a symbolic zero). p->in_manual is n's.
 */

ss_status ss__vjp_unary(ss__ad *s, const ss__node *n, ss_value ans, ss_value g, const bool want[],
                        ss_value gin[])
{
    ss_program *p = s->p;
    ss_value *gx = &gin[0];
    (void)want;
    ss_value x = n->in[0], a, b, c, t;
    ss_status st = SS_OK;
    switch ((ss_unary_op)n->sub) {
    case SS_NEG: return ss_unary(p, SS_NEG, g, gx);
    case SS_EXP: return bin(p, SS_MUL, g, ans, gx);
    case SS_LOG: return bin(p, SS_DIV, g, x, gx);
    case SS_TANH: /* (g + g * ans) * (1 - ans) */
        if (!(st = bin(p, SS_MUL, g, ans, &a)) && !(st = bin(p, SS_ADD, g, a, &b)) &&
            !(st = cbin(p, SS_SUB, 1.0, ans, &c)))
            st = bin(p, SS_MUL, b, c, gx);
        return st;
    case SS_RELU: /* g where x > 0 */
        if (!(st = ss__ad_binc(p, SS_GT, x, 0.0, &a)))
            st = bin(p, SS_MUL, g, a, gx);
        return st;
    case SS_GELU: {
        /* d/dx [x * cdf], cdf = 0.5 (1 + tanh(c (x + k x^3))):
         * cdf + x * 0.5 (1 + t)(1 - t) * c (1 + 3k x^2) */
        const double gc = (double)0.7978845608028654f, k = (double)0.044715f;
        ss_value x2, x3, in, cdf, dt, din, r;
        if (!(st = ss_unary(p, SS_SQUARE, x, &x2)) && !(st = bin(p, SS_MUL, x2, x, &x3)) &&
            !(st = ss__ad_binc(p, SS_MUL, x3, k, &a)) && !(st = bin(p, SS_ADD, x, a, &b)) &&
            !(st = ss__ad_binc(p, SS_MUL, b, gc, &in)) && !(st = ss_unary(p, SS_TANH, in, &t)) &&
            !(st = ss__ad_binc(p, SS_ADD, t, 1.0, &a)) &&
            !(st = ss__ad_binc(p, SS_MUL, a, 0.5, &cdf)) &&
            !(st = cbin(p, SS_SUB, 1.0, t, &b)) && !(st = bin(p, SS_MUL, a, b, &dt)) &&
            !(st = ss__ad_binc(p, SS_MUL, x2, 3.0 * k, &c)) &&
            !(st = ss__ad_binc(p, SS_ADD, c, 1.0, &c)) &&
            !(st = ss__ad_binc(p, SS_MUL, c, gc, &din)) && !(st = bin(p, SS_MUL, dt, din, &r)) &&
            !(st = bin(p, SS_MUL, x, r, &r)) && !(st = ss__ad_binc(p, SS_MUL, r, 0.5, &r)) &&
            !(st = bin(p, SS_ADD, cdf, r, &r)))
            st = bin(p, SS_MUL, g, r, gx);
        return st;
    }
    case SS_SQRT: /* g * (0.5 / ans) */
        if (!(st = cbin(p, SS_DIV, 0.5, ans, &a)))
            st = bin(p, SS_MUL, g, a, gx);
        return st;
    case SS_RSQRT: /* g * (-0.5 * (ans / x)) */
        if (!(st = bin(p, SS_DIV, ans, x, &a)) && !(st = cbin(p, SS_MUL, -0.5, a, &b)))
            st = bin(p, SS_MUL, g, b, gx);
        return st;
    case SS_SQUARE: /* g * (2 * x) */
        if (!(st = cbin(p, SS_MUL, 2.0, x, &a)))
            st = bin(p, SS_MUL, g, a, gx);
        return st;
    case SS_CONVERT: /* the cotangent back in x's dtype */
        return ss_convert(p, g, p->nodes[x].dtype, gx);
    case SS_ABS: /* select(x >= 0, g, -g) */
        if (!(st = ss_constant(p, 0.0, &a)) && !(st = cmp(p, SS_CMP_GE, x, a, &b)) &&
            !(st = ss_unary(p, SS_NEG, g, &c)))
            st = ss_select(p, b, g, c, gx);
        return st;
    case SS_SIGN: case SS_FLOOR: case SS_CEIL: case SS_ROUND_EVEN: case SS_ROUND_AFZ:
        return SS_OK; /* piecewise constant: a symbolic zero (ad.defjvp_zero) */
    case SS_SIN: /* g * cos(x) */
        if (!(st = ss_unary(p, SS_COS, x, &a)))
            st = bin(p, SS_MUL, g, a, gx);
        return st;
    case SS_COS: /* -(g * sin(x)) */
        if (!(st = ss_unary(p, SS_SIN, x, &a)) && !(st = bin(p, SS_MUL, g, a, &b)))
            st = ss_unary(p, SS_NEG, b, gx);
        return st;
    case SS_TAN: /* g * (1 + ans^2) */
        if (!(st = ss_unary(p, SS_SQUARE, ans, &a)) && !(st = cbin(p, SS_ADD, 1.0, a, &b)))
            st = bin(p, SS_MUL, g, b, gx);
        return st;
    case SS_ERF: /* 2/sqrt(pi) * (g * exp(-x^2)) */
        if (!(st = ss_unary(p, SS_SQUARE, x, &a)) && !(st = ss_unary(p, SS_NEG, a, &a)) &&
            !(st = ss_unary(p, SS_EXP, a, &a)) && !(st = bin(p, SS_MUL, g, a, &b)))
            st = cbin(p, SS_MUL, 2.0 / sqrt(3.14159265358979323846), b, gx);
        return st;
    case SS_EXPM1: /* g * (ans + 1) */
        if (!(st = ss__ad_binc(p, SS_ADD, ans, 1.0, &a)))
            st = bin(p, SS_MUL, g, a, gx);
        return st;
    case SS_LOG1P: /* g / (x + 1) */
        if (!(st = ss__ad_binc(p, SS_ADD, x, 1.0, &a)))
            st = bin(p, SS_DIV, g, a, gx);
        return st;
    case SS_LOGISTIC: /* g * (ans * (1 - ans)) */
        if (!(st = cbin(p, SS_SUB, 1.0, ans, &a)) && !(st = bin(p, SS_MUL, ans, a, &b)))
            st = bin(p, SS_MUL, g, b, gx);
        return st;
    case SS_CBRT: /* g * (1/3 * ans^-2) */
        if (!(st = ss_unary(p, SS_SQUARE, ans, &a)) && !(st = cbin(p, SS_DIV, 1.0, a, &a)) &&
            !(st = cbin(p, SS_MUL, 1.0 / 3.0, a, &b)))
            st = bin(p, SS_MUL, g, b, gx);
        return st;
    case SS_ERF_INV: /* g * (sqrt(pi)/2 * exp(ans^2)) */
        if (!(st = ss_unary(p, SS_SQUARE, ans, &a)) && !(st = ss_unary(p, SS_EXP, a, &a)) &&
            !(st = cbin(p, SS_MUL, 0.5 * sqrt(3.14159265358979323846), a, &b)))
            st = bin(p, SS_MUL, g, b, gx);
        return st;
    case SS_CLZ: case SS_BITCAST:
        return SS_OK; /* a symbolic zero, as JAX's */
    default: break;
    }
    return ss__fail(SS_ERR_UNSUPPORTED, "grad: no rule for unary op %d", n->sub);
}

/* JAX's _balanced_eq(x, ans, y): [x == ans] / (1 + [y == ans]). */
static ss_status balanced(ss_program *p, ss_value x, ss_value ans, ss_value y, ss_value *out)
{
    ss_value ex, ey, d;
    ss_status st;
    if (!(st = bin(p, SS_EQ, x, ans, &ex)) && !(st = bin(p, SS_EQ, y, ans, &ey)) &&
        !(st = ss__ad_binc(p, SS_ADD, ey, 1.0, &d)))
        st = bin(p, SS_DIV, ex, d, out);
    return st;
}

ss_status ss__vjp_binary(ss__ad *s, const ss__node *n, ss_value ans, ss_value g, const bool want[],
                         ss_value gin[])
{
    ss_program *p = s->p;
    ss_value a = n->in[0], b = n->in[1], t, u, e;
    ss_status st = SS_OK;
    switch ((ss_binary_op)n->sub) {
    case SS_ADD:
        gin[0] = gin[1] = g;
        return SS_OK;
    case SS_SUB:
        gin[0] = g;
        return want[1] ? ss_unary(p, SS_NEG, g, &gin[1]) : SS_OK;
    case SS_MUL:
        if (want[0] && (st = bin(p, SS_MUL, g, b, &gin[0])))
            return st;
        return want[1] ? bin(p, SS_MUL, a, g, &gin[1]) : SS_OK;
    case SS_DIV: /* g / b; (-g * a) / b^2 */
        if (want[0] && (st = bin(p, SS_DIV, g, b, &gin[0])))
            return st;
        if (want[1] && !(st = ss_unary(p, SS_NEG, g, &t)) && !(st = bin(p, SS_MUL, t, a, &t)) &&
            !(st = ss_unary(p, SS_SQUARE, b, &u)))
            st = bin(p, SS_DIV, t, u, &gin[1]);
        return st;
    case SS_MAX:
    case SS_MIN:
        if (want[0] && (!(st = balanced(p, a, ans, b, &t))))
            st = bin(p, SS_MUL, g, t, &gin[0]);
        if (!st && want[1] && !(st = balanced(p, b, ans, a, &t)))
            st = bin(p, SS_MUL, g, t, &gin[1]);
        return st;
    case SS_POW:
        /* d/da: g * (b == 0 ? 0 : b * a^(b-1)), with a set to 1 where b == 0
         * so that 0^-1 cannot make a NaN; d/db: g * log(a == 0 ? 1 : a) * ans. */
        if (want[0]) {
            ss_value a1, bm1;
            if ((st = ss__ad_binc(p, SS_EQ, b, 0.0, &e)) || (st = cbin(p, SS_SUB, 1.0, e, &t)) ||
                (st = bin(p, SS_MUL, a, t, &a1)) || (st = bin(p, SS_ADD, a1, e, &a1)) ||
                (st = ss__ad_binc(p, SS_SUB, b, 1.0, &bm1)) || (st = bin(p, SS_POW, a1, bm1, &u)) ||
                (st = bin(p, SS_MUL, b, u, &u)) || (st = bin(p, SS_MUL, g, u, &gin[0])))
                return st;
        }
        if (want[1] && !(st = ss__ad_binc(p, SS_EQ, a, 0.0, &e)) &&
        !(st = bin(p, SS_ADD, a, e, &t)) &&
            !(st = ss_unary(p, SS_LOG, t, &t)) && !(st = bin(p, SS_MUL, t, ans, &t)))
            st = bin(p, SS_MUL, g, t, &gin[1]);
        return st;
    case SS_REM: /* g; -g * (sign(a / b) * floor(|a / b|)) */
        gin[0] = g;
        if (want[1] && !(st = bin(p, SS_DIV, a, b, &t)) && !(st = ss_unary(p, SS_SIGN, t, &u)) &&
            !(st = ss_unary(p, SS_ABS, t, &t)) && !(st = ss_unary(p, SS_FLOOR, t, &t)) &&
            !(st = bin(p, SS_MUL, u, t, &t)) && !(st = ss_unary(p, SS_NEG, g, &u)))
            st = bin(p, SS_MUL, u, t, &gin[1]);
        return st;
    case SS_ATAN2: /* g * (b / (a^2 + b^2)); g * -a / (a^2 + b^2) */
        if ((st = ss_unary(p, SS_SQUARE, a, &t)) || (st = ss_unary(p, SS_SQUARE, b, &u)) ||
            (st = bin(p, SS_ADD, t, u, &e)))
            return st;
        if (want[0] && (!(st = bin(p, SS_DIV, b, e, &t))))
            st = bin(p, SS_MUL, g, t, &gin[0]);
        if (!st && want[1] && !(st = ss_unary(p, SS_NEG, a, &t)) &&
            !(st = bin(p, SS_MUL, g, t, &t)))
            st = bin(p, SS_DIV, t, e, &gin[1]);
        return st;
    case SS_NEXT_AFTER: /* JAX defines no derivative for lax.nextafter either */
        return ss__fail(SS_ERR_UNSUPPORTED, "grad: next_after has no derivative (as in JAX)");
    default: break;
    }
    return ss__fail(SS_ERR_UNSUPPORTED, "grad: no rule for binary op %d", n->sub);
}

/* lax.select's transpose: the cotangent to each branch where it was
 * taken, zeros elsewhere; nothing to the predicate. */
ss_status ss__vjp_select(ss__ad *s, const ss__node *n, ss_value ans, ss_value g, const bool want[],
                         ss_value gin[])
{
    (void)ans;
    ss_status st = SS_OK;
    if (want[1])
        st = masked(s->p, n->in[0], g, true, &gin[1]);
    if (!st && want[2])
        st = masked(s->p, n->in[0], g, false, &gin[2]);
    return st;
}

/* lax.clamp's JVP rules (jax/_src/lax/lax.py): min gets g where min > x
 * and min < max; x where min < x < max; max where max < x. */
ss_status ss__vjp_clamp(ss__ad *s, const ss__node *n, ss_value ans, ss_value g, const bool want[],
                        ss_value gin[])
{
    (void)ans;
    ss_program *p = s->p;
    ss_value lo = n->in[0], x = n->in[1], hi = n->in[2], a, b, m;
    ss_status st = SS_OK;
    if (want[0] && !(st = cmp(p, SS_CMP_GT, lo, x, &a)) && !(st = cmp(p, SS_CMP_LT, lo, hi, &b)) &&
        !(st = bin(p, SS_AND, a, b, &m)))
        st = masked(p, m, g, true, &gin[0]);
    if (!st && want[1] && !(st = cmp(p, SS_CMP_GT, x, lo, &a)) &&
        !(st = cmp(p, SS_CMP_LT, x, hi, &b)) && !(st = bin(p, SS_AND, a, b, &m)))
        st = masked(p, m, g, true, &gin[1]);
    if (!st && want[2] && !(st = cmp(p, SS_CMP_LT, hi, x, &m)))
        st = masked(p, m, g, true, &gin[2]);
    return st;
}

/* A fused multiply-add (form a*b+c, a*b-c or c-a*b) as the multiply and
 * the add it stands for: g*b and g*a to the factors (negated for c-a*b),
 * g to c (negated for a*b-c). */
ss_status ss__vjp_fma(ss__ad *s, const ss__node *n, ss_value ans, ss_value g, const bool want[],
                      ss_value gin[])
{
    (void)ans;
    ss_program *p = s->p;
    ss_value a = n->in[0], b = n->in[1], gp = g;
    int form = n->sub;
    ss_status st = SS_OK;
    if ((want[0] || want[1]) && form == SS__K_FMA_REVSUB)
        st = ss_unary(p, SS_NEG, g, &gp);
    if (!st && want[0])
        st = bin(p, SS_MUL, gp, b, &gin[0]);
    if (!st && want[1])
        st = bin(p, SS_MUL, gp, a, &gin[1]);
    if (!st && want[2]) {
        if (form == SS__K_FMA_SUB)
            st = ss_unary(p, SS_NEG, g, &gin[2]);
        else
            gin[2] = g;
    }
    return st;
}

/* JAX's _dot_general_transpose_lhs. x is the operand whose cotangent is
 * wanted, y the other one; xb/xc/yb/yc their batch and contracting dims;
 * `swap` when x is the rhs (then g's free dims are y's first). */
static ss_status dot_transpose(ss_program *p, const ss__node *n, ss_value g, int side,
                               ss_value *out)
{
    /* Copies: appending nodes may move the node array. */
    const ss__node xn = p->nodes[n->in[side]], yn = p->nodes[n->in[1 - side]];
    const ss__node *x = &xn, *y = &yn;
    ss_value yv = n->in[1 - side];
    const int8_t *xb = side ? n->rb : n->lb, *xc = side ? n->rc : n->lc;
    const int8_t *yb = side ? n->lb : n->rb, *yc = side ? n->lc : n->rc;
    int nb = n->nb, nc = n->nc;
    unsigned xs = 0, ys = 0;
    for (int i = 0; i < nb; i++) {
        xs |= 1u << xb[i];
        ys |= 1u << yb[i];
    }
    for (int i = 0; i < nc; i++) {
        xs |= 1u << xc[i];
        ys |= 1u << yc[i];
    }
    int xkept[SS_MAX_RANK], ykept[SS_MAX_RANK], nxk = 0, nyk = 0;
    for (int d = 0; d < x->rank; d++)
        if (!((xs >> d) & 1u))
            xkept[nxk++] = d;
    for (int d = 0; d < y->rank; d++)
        if (!((ys >> d) & 1u))
            ykept[nyk++] = d;
    /* g's dims: batch, then lhs free, then rhs free. */
    int gy0 = side ? nb : nb + nxk;
    int gb[SS_MAX_RANK], ybv[SS_MAX_RANK], gc[SS_MAX_RANK];
    for (int i = 0; i < nb; i++) {
        gb[i] = i;
        ybv[i] = yb[i];
    }
    for (int i = 0; i < nyk; i++)
        gc[i] = gy0 + i;
    /* dot(g, y)'s dims: batch, x's kept dims, then y's contracting dims in
     * y order, i.e. x's contracting dims sorted by their y partners.
     * dot(y, g) has the last two groups swapped. */
    int order[SS_MAX_RANK], swapped[SS_MAX_RANK], k = 0, ks = 0;
    for (int i = 0; i < nb; i++)
        order[k++] = swapped[ks++] = xb[i];
    for (int i = 0; i < nxk; i++)
        order[k++] = xkept[i];
    for (int d = 0; d < y->rank; d++)
        for (int i = 0; i < nc; i++)
            if (yc[i] == d)
                order[k++] = swapped[ks++] = xc[i];
    for (int i = 0; i < nxk; i++)
        swapped[ks++] = xkept[i];
    int perm[SS_MAX_RANK];
    bool identity = true, swap_identity = true;
    for (int j = 0; j < k; j++) {
        perm[order[j]] = j;
        swap_identity = swap_identity && swapped[j] == j;
    }
    for (int d = 0; d < k; d++)
        identity = identity && perm[d] == d;
    ss_value r;
    ss_status st;
    if (!identity && swap_identity) {
        /* JAX writes transpose(dot(g, y)); XLA folds that transpose into
         * the dot by swapping its operands, and so do we: same products,
         * same partitioning, no [k, n] transpose of a weight gradient. */
        return ss_dot_general(p, yv, g, nb, ybv, gb, nyk, ykept, gc, out);
    }
    if ((st = ss_dot_general(p, g, yv, nb, gb, ybv, nyk, gc, ykept, &r)))
        return st;
    if (identity) {
        *out = r;
        return SS_OK;
    }
    return ss_transpose(p, r, perm, out);
}

ss_status ss__vjp_dot(ss__ad *s, const ss__node *n, ss_value v, ss_value g, const bool want[],
                      ss_value gin[])
{
    (void)v;
    ss_status st = SS_OK;
    for (int k = 0; k < 2 && !st; k++)
        if (want[k])
            st = dot_transpose(s->p, n, g, k, &gin[k]);
    return st;
}

ss_status ss__vjp_reduce(ss__ad *s, const ss__node *n, ss_value ans, ss_value g, const bool want[],
                         ss_value gin[])
{
    ss_program *p = s->p;
    ss_value *gx = &gin[0];
    (void)want;
    const ss__node *x = &p->nodes[n->in[0]];
    ss__node xn = *x;
    if (n->sub == SS_REDUCE_SUM)
        return unreduce(p, g, &xn, n->axes_mask, gx);
    if (n->sub != SS_REDUCE_MAX && n->sub != SS_REDUCE_MIN)
        return ss__fail(SS_ERR_UNSUPPORTED, "grad: %s has no gradient here",
                        ss__opcode_name(n));
    /* max/min: indicator of the chosen elements, cotangent split by count. */
    ss_value ab, ind, cnt, q, qb;
    ss_status st;
    if (!(st = unreduce(p, ans, &xn, n->axes_mask, &ab)) &&
        !(st = bin(p, SS_EQ, n->in[0], ab, &ind)) &&
        !(st = reduce_mask(p, SS_REDUCE_SUM, ind, n->axes_mask, &cnt)) &&
        !(st = bin(p, SS_DIV, g, cnt, &q)) && !(st = unreduce(p, q, &xn, n->axes_mask, &qb)))
        st = bin(p, SS_MUL, ind, qb, gx);
    return st;
}

ss_status ss__vjp_transpose(ss__ad *s, const ss__node *n, ss_value v, ss_value g,
                            const bool want[], ss_value gin[])
{
    (void)v, (void)want;
    int inv[SS_MAX_RANK];
    for (int d = 0; d < n->rank; d++)
        inv[n->dims[d]] = d;
    return ss_transpose(s->p, g, inv, &gin[0]);
}

ss_status ss__vjp_reshape(ss__ad *s, const ss__node *n, ss_value v, ss_value g, const bool want[],
                          ss_value gin[])
{
    (void)v, (void)want;
    const ss__node *x = &s->p->nodes[n->in[0]];
    int64_t shape[SS_MAX_RANK];
    memcpy(shape, x->shape, sizeof shape);
    return ss_reshape(s->p, g, x->rank, shape, &gin[0]);
}

ss_status ss__vjp_broadcast(ss__ad *s, const ss__node *n, ss_value v, ss_value g,
                            const bool want[], ss_value gin[])
{
    ss_program *p = s->p;
    ss_value *gx = &gin[0];
    (void)v, (void)want;
    const ss__node *x = &p->nodes[n->in[0]];
    ss__node xn = *x;
    unsigned keep = 0, mask = 0;
    bool unit = false;
    for (int i = 0; i < xn.rank; i++) {
        if (xn.shape[i] == 1)
            unit = true;
        else
            keep |= 1u << n->dims[i];
    }
    for (int d = 0; d < n->rank; d++)
        if (!((keep >> d) & 1u))
            mask |= 1u << d;
    ss_value r = g;
    ss_status st = mask ? reduce_mask(p, SS_REDUCE_SUM, g, mask, &r) : SS_OK;
    if (!st && unit)
        st = ss_reshape(p, r, xn.rank, xn.shape, &r);
    if (!st)
        *gx = r;
    return st;
}

/* reverse, pad and strided slices: ops_shape.c. */
ss_status ss__vjp_shape(ss__ad *s, const ss__node *n, ss_value v, ss_value g, const bool want[],
                        ss_value gin[])
{
    (void)v;
    return ss__vjp_shape_op(s->p, n, g, want, gin);
}

/* Gather and scatter: ops_gather.c. */
ss_status ss__vjp_gather(ss__ad *s, const ss__node *n, ss_value v, ss_value g, const bool want[],
                         ss_value gin[])
{
    (void)v;
    return ss__vjp_gather_op(s->p, n, g, want, gin);
}

ss_status ss__vjp_scatter(ss__ad *s, const ss__node *n, ss_value v, ss_value g, const bool want[],
                          ss_value gin[])
{
    (void)v;
    return ss__vjp_gather_op(s->p, n, g, want, gin);
}

/* Sort and top_k: ops_sort.c. */
ss_status ss__vjp_sort(ss__ad *s, const ss__node *n, ss_value v, ss_value g, const bool want[],
                       ss_value gin[])
{
    (void)v;
    return ss__vjp_sort_op(s->p, n, g, want, gin);
}

/* Zero padding of g back to the slice's operand shape, one dim at a time
 * (a strided slice: a pad, ss__vjp_shape). */
ss_status ss__vjp_slice(ss__ad *s, const ss__node *n, ss_value v, ss_value g, const bool want[],
                        ss_value gin[])
{
    for (int d = 0; d < n->rank; d++)
        if (ss__slice_stride(n, d) > 1)
            return ss__vjp_shape(s, n, v, g, want, gin);
    ss_program *p = s->p;
    ss_value *gx = &gin[0];
    (void)v, (void)want;
    ss__node x = p->nodes[n->in[0]];
    int64_t shape[SS_MAX_RANK];
    memcpy(shape, n->shape, sizeof shape);
    ss_value cur = g;
    for (int d = 0; d < x.rank; d++) {
        int64_t lo = n->start[d], hi = x.shape[d] - n->limit[d];
        if (!lo && !hi)
            continue;
        ss_value parts[3];
        int np = 0;
        int64_t zs[SS_MAX_RANK];
        memcpy(zs, shape, sizeof zs);
        ss_status st;
        if (lo) {
            zs[d] = lo;
            if ((st = ss__ad_full(p, 0.0, x.dtype, x.rank, zs, &parts[np++])))
                return st;
        }
        parts[np++] = cur;
        if (hi) {
            zs[d] = hi;
            if ((st = ss__ad_full(p, 0.0, x.dtype, x.rank, zs, &parts[np++])))
                return st;
        }
        if ((st = ss_concatenate(p, np, parts, d, &cur)))
            return st;
        shape[d] = x.shape[d];
    }
    *gx = cur;
    return SS_OK;
}

/* A slice per wanted operand. */
ss_status ss__vjp_concat(ss__ad *s, const ss__node *n, ss_value v, ss_value g, const bool want[],
                         ss_value gin[])
{
    (void)v;
    ss_status st = SS_OK;
    int64_t start[SS_MAX_RANK] = {0}, limit[SS_MAX_RANK];
    memcpy(limit, n->shape, sizeof limit);
    for (int k = 0; k < n->nin && !st; k++) {
        limit[n->dim] = start[n->dim] + s->p->nodes[n->in[k]].shape[n->dim];
        if (want[k])
            st = ss_slice(s->p, g, start, limit, &gin[k]);
        start[n->dim] = limit[n->dim];
    }
    return st;
}

/* device_put to a memory kind: the cotangent goes back to the memory the
 * operand lives in (jax's transpose of device_put puts it back). */
ss_status ss__vjp_memory(ss__ad *s, const ss__node *n, ss_value v, ss_value g, const bool want[],
                         ss_value gin[])
{
    (void)v, (void)want;
    return ss_device_put(s->p, g, ss__value_memory(s->p, n->in[0]), &gin[0]);
}

ss_status ss__vjp_constrain(ss__ad *s, const ss__node *n, ss_value v, ss_value g,
                            const bool want[], ss_value gin[])
{
    (void)v, (void)want;
    ss_program *p = s->p;
    ss_value *gx = &gin[0];
    ss__node c = *n;
    c.in[0] = g;
    c.is_output = false;
    c.primal_plus1 = 0;
    c.stop_gradient = false;
    return ss__program_add(p, &c, gx);
}
