/*
 * ops_array.c — the scenario language's array built-ins: elementwise ops
 * (constant-folded on numbers), contractions (matmul, einsum,
 * dot_general), reductions, shapes (transpose, reshape, broadcasts,
 * concatenate), jax.nn and optax. Each reads its evaluated arguments,
 * reports a bad one at its own line:column and calls the builder API.
 */
#include "eval.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- Elementwise ----------------------------------------------------------- */

static const struct {
    const char *name;
    ss_unary_op op;
} unary_ops[] = {{"neg", SS_NEG},   {"negative", SS_NEG}, {"exp", SS_EXP},   {"log", SS_LOG},
                 {"tanh", SS_TANH}, {"relu", SS_RELU},    {"gelu", SS_GELU}, {"sqrt", SS_SQRT},
                 {"rsqrt", SS_RSQRT}, {"square", SS_SQUARE}, {"sin", SS_SIN}, {"cos", SS_COS},
                 {"tan", SS_TAN}, {"abs", SS_ABS}, {"sign", SS_SIGN}, {"floor", SS_FLOOR},
                 {"ceil", SS_CEIL}, {"round", SS_ROUND_EVEN}, {"erf", SS_ERF},
                 {"expm1", SS_EXPM1}, {"log1p", SS_LOG1P}, {"sigmoid", SS_LOGISTIC},
                 {"logistic", SS_LOGISTIC}, {"cbrt", SS_CBRT}, {"isfinite", SS_IS_FINITE}};

static double fold_unary(ss_unary_op op, double x)
{
    switch (op) {
    case SS_NEG: return -x;
    case SS_EXP: return exp(x);
    case SS_LOG: return log(x);
    case SS_TANH: return tanh(x);
    case SS_RELU: return x > 0 ? x : 0;
    case SS_GELU: return 0.5 * x * (1 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
    case SS_SQRT: return sqrt(x);
    case SS_RSQRT: return 1 / sqrt(x);
    case SS_SQUARE: return x * x;
    case SS_SIN: return sin(x);
    case SS_COS: return cos(x);
    case SS_TAN: return tan(x);
    case SS_ABS: return fabs(x);
    case SS_SIGN: return x > 0 ? 1 : x < 0 ? -1 : x;
    case SS_FLOOR: return floor(x);
    case SS_CEIL: return ceil(x);
    case SS_ROUND_EVEN: return nearbyint(x);
    case SS_ERF: return erf(x);
    case SS_EXPM1: return expm1(x);
    case SS_LOG1P: return log1p(x);
    case SS_LOGISTIC: return 1 / (1 + exp(-x));
    case SS_CBRT: return cbrt(x);
    case SS_IS_FINITE: return isfinite(x);
    default: return x;
    }
}

val *ss__scn_ev_op_unary(ss__scn_ev *e, const callargs *ca)
{
    ss_unary_op op = SS_NEG;
    for (size_t k = 0; k < sizeof unary_ops / sizeof unary_ops[0]; k++)
        if (strcmp(unary_ops[k].name, ca->fname) == 0)
            op = unary_ops[k].op;
    static const char *const kws[] = {"approximate", NULL};
    if (!ss__scn_ca_check(e, ca, 1, 1, op == SS_GELU ? kws : NULL))
        return NULL;
    ss__scn_loc loc;
    val *ap = ss__scn_ca_get(ca, -1, "approximate", &loc);
    if (ap && !(ap->kind == V_INT && ap->i == 1))
        return ss__scn_ev_fail(e, loc, "gelu: only the tanh form (approximate=True) is supported");
    val *x = ca->v[0];
    if (ss__scn_ev_is_num(x)) {
        val *r = ss__scn_ev_new(e, V_FLOAT, ca->loc);
        if (r)
            r->f = fold_unary(op, x->kind == V_INT ? (double)x->i : x->f);
        return r;
    }
    if (!(x = ss__scn_arr_arg(e, ca, 0, NULL)))
        return NULL;
    ss_value out;
    BEFORE();
    ss_status st_ = ss_unary(PROG, op, x->v, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

val *ss__scn_ev_op_binary(ss__scn_ev *e, const callargs *ca)
{
    static const struct {
        const char *name;
        ss_binary_op op;
    } t[] = {{"maximum", SS_MAX}, {"minimum", SS_MIN},  {"pow", SS_POW},    {"power", SS_POW},
             {"add", SS_ADD},     {"subtract", SS_SUB}, {"multiply", SS_MUL}, {"divide", SS_DIV},
             {"fmod", SS_REM},    {"arctan2", SS_ATAN2}, {"atan2", SS_ATAN2}};
    ss_binary_op op = SS_ADD;
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++)
        if (strcmp(t[k].name, ca->fname) == 0)
            op = t[k].op;
    if (!ss__scn_ca_check(e, ca, 2, 2, NULL))
        return NULL;
    if (ss__scn_ev_is_num(ca->v[0]) && ss__scn_ev_is_num(ca->v[1])) {
        double a = ca->v[0]->kind == V_INT ? (double)ca->v[0]->i : ca->v[0]->f;
        double b = ca->v[1]->kind == V_INT ? (double)ca->v[1]->i : ca->v[1]->f;
        val *r = ss__scn_ev_new(e, V_FLOAT, ca->loc);
        if (r)
            r->f = op == SS_MAX ? fmax(a, b) : op == SS_MIN ? fmin(a, b) : op == SS_POW ? pow(a, b)
                   : op == SS_ADD ? a + b : op == SS_SUB ? a - b : op == SS_MUL ? a * b
                   : op == SS_REM ? fmod(a, b) : op == SS_ATAN2 ? atan2(a, b) : a / b;
        return r;
    }
    val *a = ca->v[0], *b = ca->v[1];
    if (!ss__scn_ev_array_pair(e, &a, ca->locs[0], "argument", &b, ca->locs[1], "argument") ||
        !ss__scn_ev_check_shapes(e, ca->fname, false, a, NULL, b, NULL, ca->loc))
        return NULL;
    ss_value out;
    BEFORE();
    ss_status st_ = ss_binary(PROG, op, a->v, b->v, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

/* --- Contractions ----------------------------------------------------------- */

val *ss__scn_ev_op_matmul(ss__scn_ev *e, const callargs *ca)
{
    if (!ss__scn_ca_check(e, ca, 2, 2, NULL))
        return NULL;
    val *a = ss__scn_arr_arg(e, ca, 0, NULL), *b = a ? ss__scn_arr_arg(e, ca, 1, NULL) : NULL;
    if (!b || !ss__scn_ev_check_shapes(e, ca->fname, true, a, NULL, b, NULL, ca->loc))
        return NULL;
    ss_value out;
    BEFORE();
    ss_status st_ = ss_matmul(PROG, a->v, b->v, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

val *ss__scn_ev_op_einsum(ss__scn_ev *e, const callargs *ca)
{
    if (!ss__scn_ca_check(e, ca, 3, 3, NULL))
        return NULL;
    if (ca->v[0]->kind != V_STR)
        return ss__scn_ev_fail(e, ca->locs[0], "einsum: the first argument is a spec string such as "
                                       "'ij,jk->ik'");
    val *a = ss__scn_arr_arg(e, ca, 1, NULL), *b = a ? ss__scn_arr_arg(e, ca, 2, NULL) : NULL;
    if (!b)
        return NULL;
    ss_value out;
    BEFORE();
    ss_status st_ = ss_einsum(PROG, ca->v[0]->s, a->v, b->v, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

/* dot_general(a, b, (((lc...), (rc...)), ((lb...), (rb...)))) as lax's. */
val *ss__scn_ev_op_dot_general(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"dimension_numbers", NULL};
    if (!ss__scn_ca_check(e, ca, 2, 3, kws))
        return NULL;
    ss__scn_loc loc;
    val *dn = ss__scn_ca_get(ca, 2, "dimension_numbers", &loc);
    val *a = ss__scn_arr_arg(e, ca, 0, NULL), *b = a ? ss__scn_arr_arg(e, ca, 1, NULL) : NULL;
    if (!b)
        return NULL;
    if (!dn || dn->kind != V_TUPLE || dn->n != 2 || dn->items[0]->kind != V_TUPLE ||
        dn->items[1]->kind != V_TUPLE || dn->items[0]->n != 2 || dn->items[1]->n != 2)
        return ss__scn_ev_fail(e, loc, "dot_general: dimension_numbers is ((lhs_contract, "
                               "rhs_contract), (lhs_batch, rhs_batch))");
    int64_t v[4][SS_MAX_RANK];
    int n[4];
    for (int k = 0; k < 4; k++) {
        val *x = dn->items[k / 2]->items[k % 2];
        if (!ss__scn_ints_arg(e, x, x->loc, "a dimension list", SS_MAX_RANK, v[k], &n[k]))
            return NULL;
    }
    if (n[0] != n[1] || n[2] != n[3])
        return ss__scn_ev_fail(e, loc, "dot_general: lhs and rhs list different numbers of dims");
    int lc[SS_MAX_RANK], rc[SS_MAX_RANK], lb[SS_MAX_RANK], rb[SS_MAX_RANK];
    for (int k = 0; k < n[0]; k++) {
        lc[k] = (int)v[0][k];
        rc[k] = (int)v[1][k];
        if (v[0][k] < 0 || v[0][k] >= SS_MAX_RANK || v[1][k] < 0 || v[1][k] >= SS_MAX_RANK)
            return ss__scn_ev_fail(e, loc, "dot_general: dimension out of range");
    }
    for (int k = 0; k < n[2]; k++) {
        lb[k] = (int)v[2][k];
        rb[k] = (int)v[3][k];
        if (v[2][k] < 0 || v[2][k] >= SS_MAX_RANK || v[3][k] < 0 || v[3][k] >= SS_MAX_RANK)
            return ss__scn_ev_fail(e, loc, "dot_general: dimension out of range");
    }
    ss_value out;
    BEFORE();
    ss_status st_ = ss_dot_general(PROG, a->v, b->v, n[2], lb, rb, n[0], lc, rc, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

/* --- Reductions and shapes --------------------------------------------------- */

val *ss__scn_ev_op_reduce(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"axis", "keepdims", NULL};
    ss_reduce_op op = strcmp(ca->fname, "sum") == 0    ? SS_REDUCE_SUM
                      : strcmp(ca->fname, "mean") == 0 ? SS_REDUCE_MEAN
                      : strcmp(ca->fname, "max") == 0  ? SS_REDUCE_MAX
                                                       : SS_REDUCE_MIN;
    if (ca->n == 2 && ca->v[1]->kind != V_INT && ca->v[1]->kind != V_TUPLE &&
        ca->v[1]->kind != V_NONE)
        return ss__scn_ev_fail(e, ca->locs[1], "%s(x, axis): for the elementwise form use %s(a, b)",
                       ca->fname, op == SS_REDUCE_MAX ? "maximum" : "minimum");
    if (!ss__scn_ca_check(e, ca, 1, 2, kws))
        return NULL;
    val *x = ss__scn_arr_arg(e, ca, 0, NULL);
    if (!x)
        return NULL;
    int rank;
    ss__scn_ev_shape(e, x->v, NULL, &rank, NULL);
    ss__scn_loc loc;
    val *ax = ss__scn_ca_get(ca, 1, "axis", &loc);
    int64_t keep = 0, v[SS_MAX_RANK];
    int axes[SS_MAX_RANK], n = 0;
    if (!ss__scn_int_arg(e, ca, -1, "keepdims", 0, &keep))
        return NULL;
    if (!ax || ax->kind == V_NONE) {
        for (int d = 0; d < rank; d++)
            axes[n++] = d;
    } else {
        if (!ss__scn_ints_arg(e, ax, loc, "axis", SS_MAX_RANK, v, &n))
            return NULL;
        for (int k = 0; k < n; k++)
            if (!ss__scn_norm_axis(e, v[k], rank, loc, &axes[k]))
                return NULL;
    }
    ss_value out;
    BEFORE();
    if (n == 0)
        return x;
    ss_status st_ = ss_reduce(PROG, op, x->v, n, axes, keep != 0, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

val *ss__scn_ev_op_transpose(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"axes", NULL};
    if (!ss__scn_ca_check(e, ca, 1, SS_MAX_RANK + 1, kws))
        return NULL;
    val *x = ss__scn_arr_arg(e, ca, 0, NULL);
    if (!x)
        return NULL;
    int rank, perm[SS_MAX_RANK];
    ss__scn_ev_shape(e, x->v, NULL, &rank, NULL);
    ss__scn_loc loc;
    val *p = ss__scn_ca_get(ca, 1, "axes", &loc);
    if (!p || p->kind == V_NONE) {
        for (int d = 0; d < rank; d++)
            perm[d] = rank - 1 - d;
    } else {
        int64_t v[SS_MAX_RANK];
        int n;
        if (ca->n > 2) { /* x.transpose(1, 0) */
            n = ca->n - 1;
            for (int k = 0; k < n; k++)
                if (!ss__scn_ev_to_int(e, ca->v[k + 1], ca->locs[k + 1], "an axis", &v[k]))
                    return NULL;
        } else if (!ss__scn_ints_arg(e, p, loc, "axes", SS_MAX_RANK, v, &n)) {
            return NULL;
        }
        if (n != rank)
            return ss__scn_ev_fail(e, loc, "axes don't match array: %d axes for rank %d", n, rank);
        for (int k = 0; k < n; k++)
            if (!ss__scn_norm_axis(e, v[k], rank, loc, &perm[k]))
                return NULL;
    }
    ss_value out;
    BEFORE();
    ss_status st_ = ss_transpose(PROG, x->v, perm, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

/* The target shape of reshape/broadcast_to: a tuple, or integers. */
static bool shape_args(ss__scn_ev *e, const callargs *ca, int first, const char *kw, int rank_in,
                       const int64_t in[], int64_t elems, int *rank, int64_t shape[],
                       bool allow_minus1)
{
    ss__scn_loc loc;
    int64_t v[SS_MAX_RANK];
    int n;
    if (ca->n > first + 1) {
        n = ca->n - first;
        if (n > SS_MAX_RANK) {
            ss__scn_ev_fail(e, ca->locs[first], "rank above %d", SS_MAX_RANK);
            return false;
        }
        for (int k = 0; k < n; k++)
            if (!ss__scn_ev_to_int(e, ca->v[first + k], ca->locs[first + k], "a dimension", &v[k]))
                return false;
        loc = ca->locs[first];
    } else {
        val *s = ss__scn_ca_get(ca, first, kw, &loc);
        if (!s || !ss__scn_ints_arg(e, s, loc, "the shape", SS_MAX_RANK, v, &n))
            return e->sc->err.set ? false : (ss__scn_ev_fail(e, loc, "missing shape"), false);
    }
    (void)rank_in;
    (void)in;
    int minus = -1;
    int64_t known = 1;
    for (int k = 0; k < n; k++) {
        if (v[k] == -1 && allow_minus1 && minus < 0) {
            minus = k;
            continue;
        }
        if (v[k] < 0 || (v[k] > 0 && known > INT64_MAX / v[k])) {
            ss__scn_ev_fail(e, loc, "bad dimension %lld", (long long)v[k]);
            return false;
        }
        known *= v[k];
    }
    if (minus >= 0) {
        if (known == 0 || elems % known != 0) {
            ss__scn_ev_fail(e, loc, "cannot reshape array of size %lld into this shape",
                    (long long)elems);
            return false;
        }
        v[minus] = elems / known;
    }
    *rank = n;
    memcpy(shape, v, sizeof(int64_t) * (size_t)n);
    return true;
}

val *ss__scn_ev_op_reshape(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"shape", "newshape", NULL};
    if (!ss__scn_ca_check(e, ca, 1, SS_MAX_RANK + 1, kws))
        return NULL;
    val *x = ss__scn_arr_arg(e, ca, 0, NULL);
    if (!x)
        return NULL;
    int rank_in, rank;
    int64_t in[SS_MAX_RANK], shape[SS_MAX_RANK], elems;
    ss__scn_ev_shape(e, x->v, NULL, &rank_in, in);
    ss__product(rank_in, in, &elems);
    if (!shape_args(e, ca, 1, ss__scn_ca_get(ca, -1, "newshape", NULL) ? "newshape" : "shape", rank_in,
                    in, elems, &rank, shape, true))
        return NULL;
    ss_value out;
    BEFORE();
    ss_status st_ = ss_reshape(PROG, x->v, rank, shape, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

val *ss__scn_ev_op_broadcast_to(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"shape", NULL};
    if (!ss__scn_ca_check(e, ca, 2, 2, kws))
        return NULL;
    val *x = ss__scn_arr_arg(e, ca, 0, NULL);
    if (!x)
        return NULL;
    int rank_in, rank, dims[SS_MAX_RANK];
    int64_t in[SS_MAX_RANK], shape[SS_MAX_RANK];
    ss__scn_ev_shape(e, x->v, NULL, &rank_in, in);
    if (!shape_args(e, ca, 1, "shape", rank_in, in, 0, &rank, shape, false))
        return NULL;
    if (rank < rank_in)
        return ss__scn_ev_fail(e, ca->loc, "broadcast_to: cannot lower the rank from %d to %d", rank_in,
                       rank);
    for (int d = 0; d < rank_in; d++)
        dims[d] = rank - rank_in + d;
    ss_value out;
    BEFORE();
    ss_status st_ = ss_broadcast_in_dim(PROG, x->v, rank, shape, dims, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

val *ss__scn_ev_op_broadcast_in_dim(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"shape", "broadcast_dimensions", NULL};
    if (!ss__scn_ca_check(e, ca, 1, 3, kws))
        return NULL;
    val *x = ss__scn_arr_arg(e, ca, 0, NULL);
    if (!x)
        return NULL;
    ss__scn_loc l1, l2;
    val *s = ss__scn_ca_get(ca, 1, "shape", &l1), *d = ss__scn_ca_get(ca, 2, "broadcast_dimensions", &l2);
    int64_t shape[SS_MAX_RANK], dv[SS_MAX_RANK];
    int rank, nd, dims[SS_MAX_RANK], rank_in;
    ss__scn_ev_shape(e, x->v, NULL, &rank_in, NULL);
    if (!ss__scn_ints_arg(e, s, l1, "shape", SS_MAX_RANK, shape, &rank) ||
        !ss__scn_ints_arg(e, d, l2, "broadcast_dimensions", SS_MAX_RANK, dv, &nd))
        return NULL;
    if (nd != rank_in)
        return ss__scn_ev_fail(e, l2, "broadcast_dimensions has %d entries for an operand of rank %d",
                       nd, rank_in);
    for (int k = 0; k < nd; k++) {
        if (dv[k] < 0 || dv[k] >= rank)
            return ss__scn_ev_fail(e, l2, "broadcast dimension %lld out of range", (long long)dv[k]);
        dims[k] = (int)dv[k];
    }
    ss_value out;
    BEFORE();
    ss_status st_ = ss_broadcast_in_dim(PROG, x->v, rank, shape, dims, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

val *ss__scn_ev_op_concatenate(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"axis", NULL};
    if (!ss__scn_ca_check(e, ca, 1, 2, kws))
        return NULL;
    val *xs = ca->v[0];
    if (xs->kind != V_TUPLE || xs->n < 1 || xs->n > 16)
        return ss__scn_ev_fail(e, ca->locs[0], "concatenate takes a tuple or list of 1 to 16 arrays");
    ss_value v[16];
    for (int k = 0; k < xs->n; k++) {
        val *a = ss__scn_ev_array(e, xs->items[k], xs->items[k]->loc, "a concatenated value");
        if (!a)
            return NULL;
        v[k] = a->v;
    }
    int64_t axis;
    int rank, ax;
    if (!ss__scn_int_arg(e, ca, 1, "axis", 0, &axis))
        return NULL;
    ss__scn_ev_shape(e, v[0], NULL, &rank, NULL);
    if (!ss__scn_norm_axis(e, axis, rank, ca->loc, &ax))
        return NULL;
    ss_value out;
    BEFORE();
    ss_status st_ = ss_concatenate(PROG, xs->n, v, ax, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

/* --- jax.nn and optax --------------------------------------------------------- */

val *ss__scn_ev_op_one_hot(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"num_classes", NULL};
    if (!ss__scn_ca_check(e, ca, 1, 2, kws))
        return NULL;
    val *x = ss__scn_arr_arg(e, ca, 0, NULL);
    int64_t n;
    ss__scn_loc loc;
    if (!x || !ss__scn_ev_to_int(e, ss__scn_ca_get(ca, 1, "num_classes", &loc), loc, "num_classes", &n))
        return NULL;
    ss_value out;
    BEFORE();
    ss_status st_ = ss_one_hot(PROG, x->v, n, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

val *ss__scn_ev_op_softmax(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"axis", NULL};
    if (!ss__scn_ca_check(e, ca, 1, 2, kws))
        return NULL;
    val *x = ss__scn_arr_arg(e, ca, 0, NULL);
    int64_t axis;
    if (!x || !ss__scn_int_arg(e, ca, 1, "axis", -1, &axis))
        return NULL;
    if (axis < INT32_MIN || axis > INT32_MAX)
        return ss__scn_ev_fail(e, ca->loc, "axis out of range");
    ss_value out;
    BEFORE();
    ss_status st = ca->fname[0] == 'l' ? ss_log_softmax(PROG, x->v, (int)axis, &out)
                                       : ss_softmax(PROG, x->v, (int)axis, &out);
    ss_status st_ = st;
    return ss__scn_built(e, st_, before, ca->loc, out);
}

val *ss__scn_ev_op_layer_norm(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"scale", "bias", NULL};
    if (!ss__scn_ca_check(e, ca, 1, 3, kws))
        return NULL;
    val *x = ss__scn_arr_arg(e, ca, 0, NULL);
    if (!x)
        return NULL;
    ss_value sv[2] = {-1, -1};
    for (int k = 0; k < 2; k++) {
        ss__scn_loc loc;
        val *a = ss__scn_ca_get(ca, k + 1, k ? "bias" : "scale", &loc);
        if (a && a->kind != V_NONE) {
            if (!(a = ss__scn_ev_array(e, a, loc, k ? "bias" : "scale")))
                return NULL;
            sv[k] = a->v;
        }
    }
    ss_value out;
    BEFORE();
    ss_status st_ = ss_layer_norm(PROG, x->v, sv[0], sv[1], &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

val *ss__scn_ev_op_cross_entropy(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"logits", "labels", NULL};
    if (!ss__scn_ca_check(e, ca, 0, 2, kws))
        return NULL;
    val *l = ss__scn_arr_arg(e, ca, 0, "logits"), *y = l ? ss__scn_arr_arg(e, ca, 1, "labels") : NULL;
    if (!y)
        return NULL;
    ss_value out;
    BEFORE();
    ss_status st_ = ss_cross_entropy(PROG, l->v, y->v, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

