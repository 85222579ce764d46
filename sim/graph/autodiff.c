/*
 * autodiff.c — reverse-mode differentiation of a program (jax.vjp,
 * jax.grad, jax.value_and_grad, lax.stop_gradient).
 *
 * The backward pass is appended to the same program as ordinary primitive
 * ops, so propagation and lowering partition it like the forward pass: the
 * transposes of the collectives (docs/gspmd.md section 6) are not written
 * here, they follow from the shardings. A dot contracting a sharded batch
 * gives a partial weight gradient and an all-reduce; a gathered operand's
 * gradient is reduce-scattered back; a constraint's cotangent gets the same
 * constraint (JAX's transpose of with_sharding_constraint).
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
 * lax.select only when the cotangent itself is infinite or NaN.
 *
 * Only values on a path from an argument to the differentiated value get a
 * cotangent (JAX's symbolic zeros): a first layer's input gradient is not
 * built when the input is not an argument. Values flagged stop_gradient
 * (ss_stop_gradient, the max in softmax and log_softmax) are constants.
 *
 * shard_map regions are differentiated with JAX's device-variance rules
 * (see "shard_map regions" below). Not done, as in JAX: pmax/pmin; and
 * integer-valued arguments. Both are reported as errors.
 */
#include "graph.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct ad {
    ss_program *p;
    ss_value *ct;  /* cotangent of each forward value; -1 is a symbolic zero */
    bool *needed;  /* depends on an argument and reaches the output */
    /* Inside shard_map regions: per value, the mesh axes it is invariant
     * over (JEP 17111's device variance; see invariant()), computed lazily;
     * `known` values have one. */
    unsigned *inv;
    int known, inv_cap;
    ss_value top; /* the highest output differentiated: ct and needed have top + 1 */
} ad;

static bool is_float(ss_dtype t) { return t == SS_F32 || t == SS_BF16 || t == SS_F16; }

/* --- Small builders ------------------------------------------------------ */

/* A scalar `value` of dtype `dt` (a constant is f32; other float dtypes go
 * through a converting negation, as the kernels allow mixed float dtypes). */
static ss_status scalar(ss_program *p, double value, ss_dtype dt, ss_value *out)
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
static ss_status full(ss_program *p, double value, ss_dtype dt, int rank, const int64_t shape[],
                      ss_value *out)
{
    ss_value c;
    ss_status st = scalar(p, value, dt, &c);
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
    ss_status st = full(p, 0.0, gn->dtype, gn->rank, gn->shape, &z);
    if (st)
        return st;
    return keep_true ? ss_select(p, mask, g, z, out) : ss_select(p, mask, z, g, out);
}

/* a op constant */
static ss_status binc(ss_program *p, ss_binary_op op, ss_value a, double c, ss_value *out)
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

static ss_status vjp_unary(ad *s, const ss__node *n, ss_value ans, ss_value g, const bool want[],
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
        if (!(st = binc(p, SS_GT, x, 0.0, &a)))
            st = bin(p, SS_MUL, g, a, gx);
        return st;
    case SS_GELU: {
        /* d/dx [x * cdf], cdf = 0.5 (1 + tanh(c (x + k x^3))):
         * cdf + x * 0.5 (1 + t)(1 - t) * c (1 + 3k x^2) */
        const double gc = (double)0.7978845608028654f, k = (double)0.044715f;
        ss_value x2, x3, in, cdf, dt, din, r;
        if (!(st = ss_unary(p, SS_SQUARE, x, &x2)) && !(st = bin(p, SS_MUL, x2, x, &x3)) &&
            !(st = binc(p, SS_MUL, x3, k, &a)) && !(st = bin(p, SS_ADD, x, a, &b)) &&
            !(st = binc(p, SS_MUL, b, gc, &in)) && !(st = ss_unary(p, SS_TANH, in, &t)) &&
            !(st = binc(p, SS_ADD, t, 1.0, &a)) && !(st = binc(p, SS_MUL, a, 0.5, &cdf)) &&
            !(st = cbin(p, SS_SUB, 1.0, t, &b)) && !(st = bin(p, SS_MUL, a, b, &dt)) &&
            !(st = binc(p, SS_MUL, x2, 3.0 * k, &c)) && !(st = binc(p, SS_ADD, c, 1.0, &c)) &&
            !(st = binc(p, SS_MUL, c, gc, &din)) && !(st = bin(p, SS_MUL, dt, din, &r)) &&
            !(st = bin(p, SS_MUL, x, r, &r)) && !(st = binc(p, SS_MUL, r, 0.5, &r)) &&
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
        if (!(st = binc(p, SS_ADD, ans, 1.0, &a)))
            st = bin(p, SS_MUL, g, a, gx);
        return st;
    case SS_LOG1P: /* g / (x + 1) */
        if (!(st = binc(p, SS_ADD, x, 1.0, &a)))
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
        !(st = binc(p, SS_ADD, ey, 1.0, &d)))
        st = bin(p, SS_DIV, ex, d, out);
    return st;
}

static ss_status vjp_binary(ad *s, const ss__node *n, ss_value ans, ss_value g, const bool want[],
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
            if ((st = binc(p, SS_EQ, b, 0.0, &e)) || (st = cbin(p, SS_SUB, 1.0, e, &t)) ||
                (st = bin(p, SS_MUL, a, t, &a1)) || (st = bin(p, SS_ADD, a1, e, &a1)) ||
                (st = binc(p, SS_SUB, b, 1.0, &bm1)) || (st = bin(p, SS_POW, a1, bm1, &u)) ||
                (st = bin(p, SS_MUL, b, u, &u)) || (st = bin(p, SS_MUL, g, u, &gin[0])))
                return st;
        }
        if (want[1] && !(st = binc(p, SS_EQ, a, 0.0, &e)) && !(st = bin(p, SS_ADD, a, e, &t)) &&
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
static ss_status vjp_select(ad *s, const ss__node *n, ss_value ans, ss_value g, const bool want[],
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
static ss_status vjp_clamp(ad *s, const ss__node *n, ss_value ans, ss_value g, const bool want[],
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

static ss_status vjp_dot(ad *s, const ss__node *n, ss_value v, ss_value g, const bool want[],
                         ss_value gin[])
{
    (void)v;
    ss_status st = SS_OK;
    for (int k = 0; k < 2 && !st; k++)
        if (want[k])
            st = dot_transpose(s->p, n, g, k, &gin[k]);
    return st;
}

static ss_status vjp_reduce(ad *s, const ss__node *n, ss_value ans, ss_value g, const bool want[],
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

static ss_status vjp_transpose(ad *s, const ss__node *n, ss_value v, ss_value g,
                               const bool want[], ss_value gin[])
{
    (void)v, (void)want;
    int inv[SS_MAX_RANK];
    for (int d = 0; d < n->rank; d++)
        inv[n->dims[d]] = d;
    return ss_transpose(s->p, g, inv, &gin[0]);
}

static ss_status vjp_reshape(ad *s, const ss__node *n, ss_value v, ss_value g, const bool want[],
                             ss_value gin[])
{
    (void)v, (void)want;
    const ss__node *x = &s->p->nodes[n->in[0]];
    int64_t shape[SS_MAX_RANK];
    memcpy(shape, x->shape, sizeof shape);
    return ss_reshape(s->p, g, x->rank, shape, &gin[0]);
}

static ss_status vjp_broadcast(ad *s, const ss__node *n, ss_value v, ss_value g,
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
static ss_status vjp_shape(ad *s, const ss__node *n, ss_value v, ss_value g, const bool want[],
                           ss_value gin[])
{
    (void)v;
    return ss__vjp_shape_op(s->p, n, g, want, gin);
}

/* Gather and scatter: ops_gather.c. */
static ss_status vjp_gather(ad *s, const ss__node *n, ss_value v, ss_value g, const bool want[],
                            ss_value gin[])
{
    (void)v;
    return ss__vjp_gather_op(s->p, n, g, want, gin);
}

static ss_status vjp_scatter(ad *s, const ss__node *n, ss_value v, ss_value g, const bool want[],
                             ss_value gin[])
{
    (void)v;
    return ss__vjp_gather_op(s->p, n, g, want, gin);
}

/* Sort and top_k: ops_sort.c. */
static ss_status vjp_sort(ad *s, const ss__node *n, ss_value v, ss_value g, const bool want[],
                          ss_value gin[])
{
    (void)v;
    return ss__vjp_sort_op(s->p, n, g, want, gin);
}

/* Zero padding of g back to the slice's operand shape, one dim at a time
 * (a strided slice: a pad, vjp_shape). */
static ss_status vjp_slice(ad *s, const ss__node *n, ss_value v, ss_value g, const bool want[],
                           ss_value gin[])
{
    for (int d = 0; d < n->rank; d++)
        if (ss__slice_stride(n, d) > 1)
            return vjp_shape(s, n, v, g, want, gin);
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
            if ((st = full(p, 0.0, x.dtype, x.rank, zs, &parts[np++])))
                return st;
        }
        parts[np++] = cur;
        if (hi) {
            zs[d] = hi;
            if ((st = full(p, 0.0, x.dtype, x.rank, zs, &parts[np++])))
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
static ss_status vjp_concat(ad *s, const ss__node *n, ss_value v, ss_value g, const bool want[],
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

static ss_status vjp_constrain(ad *s, const ss__node *n, ss_value v, ss_value g,
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

/* --- shard_map regions ---------------------------------------------------- */
/*
 * Inside a region values are per-device blocks. JAX types each one with the
 * mesh axes it varies over (JEP 17111, check_vma) and its transposes follow
 * the types: psum (varying -> invariant) transposes to pvary (no
 * communication), an invariant value used by varying code was implicitly
 * pvary'd and so gets its cotangent psum'd, a replicated in_spec's
 * cotangent is summed over the devices that shared the input. Here the
 * types are inferred (an invariant mask per value) and the same rules
 * applied: psum/pmean -> identity (scaled), ppermute -> the inverse pairs,
 * all_to_all -> split and concat swapped, psum_scatter <-> all_gather
 * (lax.all_gather's result varies over the axes, as in JAX; psum and
 * all_gather_invariant make a block invariant, the latter transposing to
 * each device's own slice), the region's exit -> an entry with the same
 * spec and the entry -> an exit, and every cotangent psum'd over the axes
 * its primal is invariant over but it is not. pmax/pmin are refused, with
 * JAX's own error (it has no rule for them either).
 */

static bool grow_inv(ad *s, int need)
{
    if (need <= s->inv_cap)
        return true;
    void *g = ss__grow(s->inv, &s->inv_cap, need, sizeof *s->inv, 256);
    if (!g)
        return false;
    s->inv = g;
    return true;
}

/* The axes value v is the same on every device along (graph.h). */
static unsigned invariant(ad *s, ss_value v)
{
    if (!grow_inv(s, s->p->n))
        return 0; /* out of memory: treat as varying (more psums, never wrong values) */
    return ss__manual_invariant(s->p, s->inv, &s->known, v);
}

/* Give value v (just built) the mask m instead of the inferred one. */
static void set_invariant(ad *s, ss_value v, unsigned m)
{
    invariant(s, v);
    s->inv[v] = m;
}

/* psum of c over the mesh axes in `axes` (inside the region). */
static ss_status psum_axes(ad *s, ss_value c, unsigned axes, ss_value *out)
{
    ss__buf text;
    ss__buf_init(&text);
    for (int a = 0; a < ss_mesh_axis_count(s->p->mesh); a++)
        if ((axes >> a) & 1u)
            ss__buf_printf(&text, text.len ? ",%s" : "%s", ss_mesh_axis_name(s->p->mesh, a));
    ss_status st = text.oom ? ss__fail(SS_ERR_NOMEM, "psum: out of host memory")
                            : ss_psum(s->p, c, text.data ? text.data : "", SS_REDUCE_SUM, out);
    ss__buf_free(&text);
    return st;
}

/* The transpose of an implicit pvary: a cotangent c flowing into a block u
 * that is invariant over axes c varies over is summed over them. */
static ss_status unvary(ad *s, ss_value u, ss_value *c)
{
    unsigned missing = invariant(s, u) & ~invariant(s, *c);
    if (!s->p->nodes[u].manual || !missing)
        return SS_OK;
    return psum_axes(s, *c, missing, c);
}

/* A copy of x (a no-op the partitioner keeps local), to carry a type. */
static ss_status retype(ss_program *p, ss_value x, ss_value *out)
{
    const ss__node *n = &p->nodes[x];
    int64_t shape[SS_MAX_RANK];
    memcpy(shape, n->shape, sizeof shape);
    return ss_reshape(p, x, n->rank, shape, out);
}

/* The transpose of all_gather_invariant: each device slices its own block
 * of the (invariant) cotangent g, with no communication. Written as the
 * region's exit and re-entry: g (with a leading dim for the axes it varies
 * over, B) leaves by P(B) and comes back split over the gather axes too,
 * which the partitioner lowers to a local slice. */
static ss_status own_block(ad *s, const ss__node *n, ss_value g, ss_value *gx)
{
    ss_program *p = s->p;
    const ss__node *x = &p->nodes[n->in[0]], *gn = &p->nodes[g];
    int rank = gn->rank, gd = n->coll.axis;
    if (gd < 0)
        gd += x->rank + (n->coll.tiled ? 0 : 1);
    unsigned vary = ss__all_axes(p) & ~invariant(s, g);
    ss_spec out_spec, in_spec;
    memset(&out_spec, 0, sizeof out_spec);
    out_spec.ndims = 1;
    for (int a = 0; a < ss_mesh_axis_count(p->mesh); a++)
        if ((vary >> a) & 1u)
            out_spec.dims[0].axes[out_spec.dims[0].naxes++] = ss_mesh_axis_name(p->mesh, a);
    in_spec = out_spec;
    in_spec.ndims = 2 + gd;
    for (int k = 0; k < n->coll.naxes; k++)
        in_spec.dims[1 + gd].axes[in_spec.dims[1 + gd].naxes++] = n->coll.axes[k];
    int64_t shape[SS_MAX_RANK + 1];
    shape[0] = 1;
    memcpy(shape + 1, gn->shape, sizeof(int64_t) * (size_t)rank);
    ss_value lifted = -1, global = -1, block = -1;
    ss__layout out_fixed, in_fixed;
    ss_status st = ss_reshape(p, g, rank + 1, shape, &lifted);
    if (!st)
        st = ss__layout_from_spec(p->mesh, &out_spec, rank + 1, &out_fixed);
    if (!st)
        st = ss__region_cross(p, SS__OP_MANUAL_OUT, lifted, &out_fixed, false, &global);
    if (!st)
        st = ss__layout_from_spec(p->mesh, &in_spec, rank + 1, &in_fixed);
    if (!st)
        st = ss__region_cross(p, SS__OP_MANUAL_IN, global, &in_fixed, false, &block);
    if (st)
        return st;
    int64_t xs[SS_MAX_RANK];
    memcpy(xs, x->shape, sizeof xs);
    return ss_reshape(p, block, x->rank, xs, gx);
}

/* The region's exit. */
static ss_status vjp_manual_out(ad *s, const ss__node *np, ss_value v, ss_value g,
                                const bool want[], ss_value gin[])
{
    (void)v, (void)want;
    ss_program *p = s->p;
    const ss__node n = *np;
    ss_value *gx = &gin[0];
    if (n.unchecked)
        return ss__fail(SS_ERR_UNSUPPORTED, "differentiating a shard_map with "
                                            "check_vma=False is not supported (its "
                                            "transposes need the replication it does not "
                                            "check)");
    /* The exit's transpose is an entry with the same spec; an out_spec
     * replicated over axes the block varies over is what check_vma
     * rejects in JAX (the forward keeps replica 0's block). */
    unsigned repl = ss__all_axes(p) & ~ss__layout_used(&n.fixed);
    if (repl & ~invariant(s, n.in[0]))
        return ss__fail(SS_ERR_UNSUPPORTED, "shard_map out_specs replicate over mesh axes "
                                            "the result varies over (JAX's check_vma "
                                            "rejects it); psum or all_gather it first");
    p->in_manual = true;
    return ss__region_cross(p, SS__OP_MANUAL_IN, g, &n.fixed, false, gx);
}

/* The region's entry. */
static ss_status vjp_manual_in(ad *s, const ss__node *np, ss_value v, ss_value g,
                               const bool want[], ss_value gin[])
{
    (void)v, (void)want;
    ss_program *p = s->p;
    const ss__node n = *np;
    ss_value *gx = &gin[0];
    ss_status st;
    /* The entry's transpose: sum over the devices that shared the
     * input (a replicated in_spec), then an exit with the same spec. */
    ss_value c = g;
    unsigned repl = ss__all_axes(p) & ~ss__layout_used(&n.fixed);
    p->in_manual = true;
    if ((repl & ~invariant(s, c)) && (st = psum_axes(s, c, repl & ~invariant(s, c), &c)))
        return st;
    st = ss__region_cross(p, SS__OP_MANUAL_OUT, c, &n.fixed, false, gx);
    p->in_manual = false;
    return st;
}

/* An explicit collective. */
static ss_status collective_transpose(ad *s, const ss__node n, ss_value g, ss_value *gx,
                                      const char *text)
{
    ss_program *p = s->p;
    ss_status st;
    unsigned axes = ss__coll_axes(p, &n);
    switch ((ss_coll_kind)n.sub) {
    case SS_COLL_ALL_REDUCE:
        if (n.coll.op != SS_REDUCE_SUM && n.coll.op != SS_REDUCE_MEAN)
            return ss__fail(SS_ERR_UNSUPPORTED, "Differentiation rule for '%s' not implemented "
                                                "(as in JAX, jax-ml/jax#7167; stop_gradient its "
                                                "argument)",
                            n.coll.op == SS_REDUCE_MAX ? "pmax" : "pmin");
        /* pvary: the same values, now varying over the axes. */
        if (n.coll.op == SS_REDUCE_MEAN) {
            int64_t size = 1;
            for (int a = 0; a < ss_mesh_axis_count(p->mesh); a++)
                if ((axes >> a) & 1u)
                    size *= ss_mesh_axis_size(p->mesh, a);
            st = binc(p, SS_MUL, g, 1.0 / (double)size, gx);
        } else {
            st = retype(p, g, gx);
        }
        if (!st)
            set_invariant(s, *gx, invariant(s, g) & ~axes);
        return st;
    case SS_COLL_PERMUTE: {
        const int(*pairs)[2] = (const int(*)[2])p->pairs[n.pairs_at];
        int npairs = n.coll.npairs;
        int(*inv)[2] = malloc(sizeof *inv * (size_t)(npairs ? npairs : 1));
        if (!inv)
            return ss__fail(SS_ERR_NOMEM, "grad: out of host memory");
        for (int k = 0; k < npairs; k++) {
            inv[k][0] = pairs[k][1];
            inv[k][1] = pairs[k][0];
        }
        st = ss_ppermute(p, g, text, npairs, (const int(*)[2])inv, gx);
        free(inv);
        return st;
    }
    case SS_COLL_ALL_TO_ALL:
        return ss_all_to_all(p, g, text, n.coll.concat_axis, n.coll.split_axis, n.coll.tiled,
                             gx);
    case SS_COLL_REDUCE_SCATTER:
        return ss_all_gather(p, g, text, n.coll.axis, n.coll.tiled, gx);
    case SS_COLL_ALL_GATHER:
        if (n.invariant_out)
            return own_block(s, &n, g, gx);
        return ss_psum_scatter(p, g, text, n.coll.axis, n.coll.tiled, gx);
    default:
        return ss__fail(SS_ERR_UNSUPPORTED, "no cotangent rule for %s",
                        ss_coll_kind_name((ss_coll_kind)n.sub));
    }
}

static ss_status vjp_collective(ad *s, const ss__node *np, ss_value v, ss_value g,
                                const bool want[], ss_value gin[])
{
    (void)v, (void)want;
    s->p->in_manual = true;
    ss__buf text; /* the axes as the builders take them: "a,b" */
    ss__buf_init(&text);
    for (int a = 0; a < np->coll.naxes; a++)
        ss__buf_printf(&text, a ? ",%s" : "%s", np->coll.axes[a]);
    ss_status st = text.oom ? ss__fail(SS_ERR_NOMEM, "grad: out of host memory")
                            : collective_transpose(s, *np, g, &gin[0], text.data ? text.data : "");
    ss__buf_free(&text);
    return st;
}

/* A loop result: a while has no transpose (JAX's _while_transpose_error);
 * a scan's results meet at the loop node, which the sweep reaches after
 * them (it precedes them), once all their cotangents are summed. */
static ss_status vjp_loop_result(ad *s, const ss__node *n, ss_value v, ss_value g,
                                 const bool want[], ss_value gin[])
{
    (void)v, (void)want, (void)gin;
    if (ss__node_loop(s->p, &s->p->nodes[n->in[0]])->cond)
        return ss__fail(SS_ERR_UNSUPPORTED,
                        "Reverse-mode differentiation does not work for lax.while_loop or "
                        "lax.fori_loop with dynamic start/stop values. Try using lax.scan, "
                        "or using fori_loop with static start/stop.");
    if (s->ct[n->in[0]] < 0)
        s->ct[n->in[0]] = g;
    return SS_OK;
}

/* A scan: its operands' cotangents from its results' (loop_grad.c). */
static ss_status vjp_loop(ad *s, const ss__node *n, ss_value v, ss_value g, const bool want[],
                          ss_value gin[])
{
    (void)g;
    const ss__loop *l = ss__node_loop(s->p, n);
    ss_value cts[64];
    if (l->ncarry + l->nys > 64)
        return ss__fail(SS_ERR_UNSUPPORTED, "a loop with %d results", l->ncarry + l->nys);
    for (int k = 0; k < l->ncarry + l->nys; k++) {
        ss_value r = l->res[k];
        cts[k] = r <= s->top && s->needed[r] ? s->ct[r] : -1;
    }
    return ss__loop_vjp(s->p, v, cts, want, gin);
}

/* --- The sweep ----------------------------------------------------------- */

typedef ss_status (*vjp_rule)(ad *s, const ss__node *n, ss_value v, ss_value g,
                              const bool want[], ss_value gin[]);

/* The VJP column of the op table. */
static const vjp_rule vjp_rules[] = {
#define SS__OP(ID, NAME, NIN, NOUT, FLAGS, SUBNAME, VJP, FWD, BWD, LOWER, EVAL, KERNEL, FLOPS) \
    [SS__OP_##ID] = VJP,
#include "ops.def"
#undef SS__OP
};
_Static_assert(sizeof vjp_rules / sizeof vjp_rules[0] == SS__OP_COUNT, "one rule per opcode");

bool ss__vjp_has_rule(ss__opcode op) { return (unsigned)op < SS__OP_COUNT && vjp_rules[op]; }

/* Whether op `n` passes cotangents at all: a float result (integer and
 * bool values are JAX's float0, no cotangent) and a rule. */
static bool node_differentiable(const ss__node *n)
{
    if (n->stop_gradient || !is_float(n->dtype) || !ss__vjp_has_rule(n->op))
        return false;
    /* Comparisons are piecewise constant. */
    return n->op != SS__OP_BINARY || (n->sub != SS_EQ && n->sub != SS_GT && n->sub != SS_GE);
}

/* Whether op `n` passes a cotangent to operand k: a float operand (a
 * select's predicate, an integer converted to float get none). */
static bool differentiable(const ss_program *p, const ss__node *n, int k)
{
    return node_differentiable(n) && is_float(p->nodes[n->in[k]].dtype);
}

/* Remember that cotangent c belongs to primal v (a layout hint). */
static void tag(ad *s, ss_value v, ss_value c)
{
    ss__node *cn = &s->p->nodes[c];
    const ss__node *vn = &s->p->nodes[v];
    bool same = cn->rank == vn->rank;
    for (int d = 0; same && d < cn->rank; d++)
        same = cn->shape[d] == vn->shape[d];
    if (same && !cn->primal_plus1 && !cn->manual)
        cn->primal_plus1 = v + 1;
}

static ss_status accumulate(ad *s, ss_value v, ss_value c)
{
    bool manual = s->p->nodes[v].manual;
    s->p->in_manual = manual;
    ss_status st0 = manual ? unvary(s, v, &c) : SS_OK;
    if (st0)
        return st0;
    if (s->ct[v] < 0) {
        s->ct[v] = c;
        tag(s, v, c);
        return SS_OK;
    }
    ss_status st = ss_binary(s->p, SS_ADD, s->ct[v], c, &s->ct[v]);
    if (!st) {
        tag(s, v, c);
        tag(s, v, s->ct[v]);
    }
    return st;
}

static ss_status backward_node(ad *s, ss_value v)
{
    ss_program *p = s->p;
    ss__node n = p->nodes[v];
    ss_value g = s->ct[v], gin[SS__MAX_INPUTS];
    bool want[SS__MAX_INPUTS];
    ss_status st = SS_OK;
    for (int k = 0; k < n.nin; k++) {
        want[k] = s->needed[n.in[k]];
        gin[k] = -1;
    }
    p->in_manual = n.manual;
    if (!ss__vjp_has_rule(n.op))
        return ss__fail(SS_ERR_UNSUPPORTED, "grad: %%%d: no cotangent rule for %s", (int)v,
                        ss__opcode_name(&n));
    st = vjp_rules[n.op](s, &n, v, g, want, gin);
    if (st)
        return ss__fail(st, "grad: %%%d (%s): %s", (int)v, ss__opcode_name(&n),
                        ss_error_message());
    for (int k = 0; k < n.nin && !st; k++)
        if (want[k] && gin[k] >= 0)
            st = accumulate(s, n.in[k], gin[k]);
    return st;
}

/* The sweep proper from outputs ys[0..ny) with cotangents seeds[] (s->ct
 * and s->needed have room for the highest of ys); on failure the caller
 * drops what was appended. */
static ss_status vjp_many(ad *s, int ny, const ss_value ys[], const ss_value seeds[], int n,
                          const ss_value wrt[], ss_value grads[])
{
    ss_program *p = s->p;
    ss_value y = -1;
    for (int k = 0; k < ny; k++) {
        if (ys[k] < 0 || ys[k] >= p->n)
            return ss__fail(SS_ERR_INVALID, "grad: %%%d is not a value", (int)ys[k]);
        y = ys[k] > y ? ys[k] : y;
    }
    s->top = y;
    /* depends: reachable from an argument through differentiable ops. */
    for (ss_value v = 0; v <= y; v++) {
        bool dep = false;
        for (int i = 0; i < n && !dep; i++)
            dep = wrt[i] == v;
        const ss__node *nd = &p->nodes[v];
        for (int k = 0; k < nd->nin && !dep; k++)
            dep = s->needed[nd->in[k]] && differentiable(p, nd, k);
        s->needed[v] = dep;
    }
    /* ... and reaches an output: walk back from them. */
    bool *reach = calloc((size_t)y + 2, sizeof *reach);
    if (!reach)
        return ss__fail(SS_ERR_NOMEM, "grad: out of host memory");
    for (int k = 0; k < ny; k++)
        reach[ys[k]] = true;
    for (ss_value v = y; v >= 0; v--) {
        const ss__node *nd = &p->nodes[v];
        if (!reach[v])
            continue;
        for (int k = 0; k < nd->nin; k++)
            if (differentiable(p, nd, k))
                reach[nd->in[k]] = true;
    }
    for (ss_value v = 0; v <= y; v++)
        s->needed[v] = s->needed[v] && reach[v];
    free(reach);

    ss_status st = SS_OK;
    for (int k = 0; k < ny && !st; k++) {
        if (!s->needed[ys[k]])
            continue;
        if (s->ct[ys[k]] < 0)
            s->ct[ys[k]] = seeds[k];
        else
            st = ss_binary(p, SS_ADD, s->ct[ys[k]], seeds[k], &s->ct[ys[k]]);
    }
    for (ss_value v = y; v >= 0 && !st; v--) {
        if (!s->needed[v] || s->ct[v] < 0 || !node_differentiable(&p->nodes[v]))
            continue;
        st = backward_node(s, v);
    }
    p->in_manual = false;
    for (int i = 0; i < n && !st; i++) {
        ss_value w = wrt[i];
        if (w <= y && s->ct[w] >= 0) {
            grads[i] = s->ct[w];
            continue;
        }
        ss__node wn = p->nodes[w];
        st = full(p, 0.0, wn.dtype, wn.rank, wn.shape, &grads[i]);
    }
    return st;
}

static ss_status vjp(ad *s, ss_value y, ss_value seed, int n, const ss_value wrt[],
                     ss_value grads[])
{
    return vjp_many(s, 1, &y, &seed, n, wrt, grads);
}

ss_status ss__vjp_many(ss_program *p, int ny, const ss_value ys[], const ss_value seeds[],
                       int n, const ss_value wrt[], ss_value grads[])
{
    ss_value top = 0;
    for (int k = 0; k < ny; k++)
        top = ys[k] > top ? ys[k] : top;
    for (int i = 0; i < n; i++)
        top = wrt[i] > top ? wrt[i] : top;
    ad s = {.p = p, .ct = malloc(sizeof(ss_value) * ((size_t)top + 1)),
            .needed = calloc((size_t)top + 1, sizeof(bool))};
    ss_status st = SS_OK;
    if (!s.ct || !s.needed) {
        st = ss__fail(SS_ERR_NOMEM, "grad: out of host memory");
    } else {
        for (ss_value v = 0; v <= top; v++)
            s.ct[v] = -1;
        st = vjp_many(&s, ny, ys, seeds, n, wrt, grads);
    }
    free(s.ct);
    free(s.needed);
    free(s.inv);
    return st;
}

/* Drop the nodes (and ppermute pairs) appended since `n0` (`pairs0`): a
 * failing call leaves the program as it was. */
static void truncate(ss_program *p, int n0, int pairs0)
{
    p->in_manual = false;
    p->npairs = pairs0;
    p->n = n0;
    free(p->layouts);
    p->layouts = NULL;
}

static ss_status check_args(ss_program *p, ss_value y, int n, const ss_value wrt[],
                            const char *what)
{
    const ss__node *yn = ss__program_node(p, y, what);
    if (!yn)
        return SS_ERR_INVALID;
    if (!is_float(yn->dtype))
        return ss__fail(SS_ERR_INVALID, "%s: %%%d has dtype %s; only float values can be "
                                        "differentiated", what, (int)y,
                        ss_dtype_name(yn->dtype));
    if (n < 0 || (n > 0 && !wrt))
        return ss__fail(SS_ERR_INVALID, "%s: %d arguments", what, n);
    for (int i = 0; i < n; i++) {
        const ss__node *w = ss__program_node(p, wrt[i], what);
        if (!w)
            return SS_ERR_INVALID;
        if (!is_float(w->dtype))
            return ss__fail(SS_ERR_INVALID, "%s: argument %d (%%%d) has dtype %s; gradients "
                                            "are taken with respect to float values only",
                            what, i, (int)wrt[i], ss_dtype_name(w->dtype));
    }
    if (p->in_manual)
        return ss__fail(SS_ERR_UNSUPPORTED, "%s: inside a shard_map region", what);
    return SS_OK;
}

ss_status ss_vjp(ss_program *p, ss_value y, ss_value cotangent, int n, const ss_value wrt[],
                 ss_value grads[])
{
    ss_status st = check_args(p, y, n, wrt, "vjp");
    if (st)
        return st;
    const ss__node *yn = &p->nodes[y], *cn = ss__program_node(p, cotangent, "vjp");
    if (!cn)
        return SS_ERR_INVALID;
    bool same = cn->rank == yn->rank && is_float(cn->dtype);
    for (int d = 0; same && d < yn->rank; d++)
        same = cn->shape[d] == yn->shape[d];
    if (!same)
        return ss__fail(SS_ERR_INVALID, "vjp: the cotangent %%%d must be a float array of the "
                                        "shape of %%%d", (int)cotangent, (int)y);
    int n0 = p->n, pairs0 = p->npairs;
    uint8_t phase0 = ss__program_enter_phase(p, SS_PHASE_BACKWARD);
    ad s = {.p = p, .ct = malloc(sizeof(ss_value) * ((size_t)y + 1)),
            .needed = calloc((size_t)y + 1, sizeof(bool))};
    if (!s.ct || !s.needed) {
        st = ss__fail(SS_ERR_NOMEM, "vjp: out of host memory");
    } else {
        for (ss_value v = 0; v <= y; v++)
            s.ct[v] = -1;
        st = vjp(&s, y, cotangent, n, wrt, grads);
    }
    free(s.ct);
    free(s.needed);
    free(s.inv);
    p->phase = phase0;
    if (st)
        truncate(p, n0, pairs0);
    return st;
}

ss_status ss_value_and_grad(ss_program *p, ss_value loss, int n, const ss_value wrt[],
                            ss_value *value, ss_value grads[])
{
    ss_status st = check_args(p, loss, n, wrt, "grad");
    if (st)
        return st;
    if (p->nodes[loss].rank != 0)
        return ss__fail(SS_ERR_INVALID, "grad: %%%d has rank %d; grad requires a scalar "
                                        "(rank 0) value, use ss_vjp otherwise",
                        (int)loss, p->nodes[loss].rank);
    int n0 = p->n, pairs0 = p->npairs;
    ss_value one; /* the seed cotangent: the backward's first value */
    uint8_t phase0 = ss__program_enter_phase(p, SS_PHASE_BACKWARD);
    st = scalar(p, 1.0, p->nodes[loss].dtype, &one);
    p->phase = phase0;
    if (st)
        return st;
    st = ss_vjp(p, loss, one, n, wrt, grads);
    if (st) {
        truncate(p, n0, pairs0);
        return st;
    }
    if (value)
        *value = loss;
    return SS_OK;
}

ss_status ss_grad(ss_program *p, ss_value loss, int n, const ss_value wrt[], ss_value grads[])
{
    return ss_value_and_grad(p, loss, n, wrt, NULL, grads);
}

ss_status ss_stop_gradient(ss_program *p, ss_value x, ss_value *out)
{
    const ss__node *a = ss__program_node(p, x, "stop_gradient");
    if (!a)
        return SS_ERR_INVALID;
    int64_t shape[SS_MAX_RANK];
    int rank = a->rank;
    memcpy(shape, a->shape, sizeof shape);
    ss_status st = ss_reshape(p, x, rank, shape, out);
    if (!st)
        p->nodes[*out].stop_gradient = true;
    return st;
}
