/*
 * import_arith.c — stablehlo.divide and stablehlo.multiply as XLA CPU
 * computes them.
 *
 * XLA's algebraic simplifier (HandleDivide, xla/hlo/transforms/simplifiers/
 * algebraic_simplifier.cc) rewrites A / C, where A is not a constant (after
 * constant folding: computed from constants alone, see is_constant_expr) and C
 * is a constant or a broadcast of one, into A * (1 / C) for the float types
 * (f16, bf16, f32, f64; never integers), the reciprocal computed in C's own
 * type. The product rounds differently from the quotient, so shardsim
 * makes the same rewrite on imported programs (the multiply may then be
 * contracted into an fma: graph/contract.c). The reciprocal of an f16 or
 * bf16 element is taken in f32 and rounded once, as their arithmetic is.
 *
 * The same simplifier (HandleMultiply) reassociates (A * C1) * C2 into
 * A * (C1 * C2) when C1 and C2 are both constants of the result's shape or
 * both broadcasts of scalar constants; shardsim folds the constants' product
 * the same way (measured: jax.random.normal(k) * 0.1, whose normal is
 * sqrt(2) * erf_inv(u), becomes erf_inv(u) * 0.141421363 on XLA CPU). The
 * inner multiply stays for its other users.
 */
#include "front/stablehlo/import.h"
#include "base/half.h"
#include "graph/graph.h"

#include <stdlib.h>
#include <string.h>

/* The dense constant under a chain of broadcasts from v, or -1. */
static ss_value constant_under_broadcasts(const ss_program *p, ss_value v)
{
    while (p->nodes[v].op == SS__OP_BROADCAST)
        v = p->nodes[v].in[0];
    const ss__node *n = &p->nodes[v];
    return n->op == SS__OP_CONSTANT && n->sub == SS__CONST_DENSE ? v : -1;
}

/* dst[i] = 1 / src[i] in dtype dt (count elements). */
static void reciprocals(ss_dtype dt, const void *src, void *dst, int64_t count)
{
    for (int64_t i = 0; i < count; i++) {
        switch (dt) {
        case SS_F64: ((double *)dst)[i] = 1.0 / ((const double *)src)[i]; break;
        case SS_F32: ((float *)dst)[i] = 1.0f / ((const float *)src)[i]; break;
        case SS_BF16:
            ((uint16_t *)dst)[i] = ss__f32_to_bf16(1.0f / ss__bf16_to_f32(((const uint16_t *)src)[i]));
            break;
        default:
            ((uint16_t *)dst)[i] = ss__f32_to_f16(1.0f / ss__f16_to_f32(((const uint16_t *)src)[i]));
            break;
        }
    }
}

/* The broadcasts from `top` down to the constant, applied again to inv. */
static ss_status rebroadcast(ss_program *p, ss_value top, ss_value inv, ss_value *out)
{
    if (p->nodes[top].op != SS__OP_BROADCAST) {
        *out = inv;
        return SS_OK;
    }
    ss_status st = rebroadcast(p, p->nodes[top].in[0], inv, &inv);
    if (st)
        return st;
    const ss__node n = p->nodes[top]; /* a copy: adding nodes may move them */
    return ss_broadcast_in_dim(p, inv, n.rank, n.shape, n.dims, out);
}

bool ss__imp_divide(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value *out)
{
    ss_program *p = im->sc->program;
    const ss__node *num = &p->nodes[x[0]];
    ss_dtype dt = num->dtype;
    bool is_float = dt == SS_F32 || dt == SS_F64 || dt == SS_BF16 || dt == SS_F16;
    /* a numerator of constants alone is folded by XLA before: exact division */
    ss_value c = is_float && !ss__is_constant_expr(p, x[0]) ? constant_under_broadcasts(p, x[1])
                                                            : -1;
    ss_status st;
    if (c < 0 || p->nodes[c].dtype != dt) {
        st = ss_binary(p, SS_DIV, x[0], x[1], out);
        return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", op->name, ss_error_message());
    }
    const ss__node cn = p->nodes[c];
    int64_t count = 1;
    for (int d = 0; d < cn.rank; d++)
        count *= cn.shape[d];
    void *inv = malloc((size_t)(count ? count : 1) * ss_dtype_size(dt));
    if (!inv)
        return ss__imp_fail(im, op, "out of host memory");
    reciprocals(dt, cn.data, inv, count);
    ss_value r;
    st = ss_constant_array(p, dt, cn.rank, cn.shape, inv, &r);
    free(inv);
    if (!st)
        st = rebroadcast(p, x[1], r, &r);
    if (st)
        return ss__imp_fail(im, op, "'%s': %s", op->name, ss_error_message());
    /* the multiply as XLA then sees it: (A * C1) / C2 reassociates too */
    const ss_value factors[2] = {x[0], r};
    return ss__imp_multiply(im, op, factors, out);
}

/* A constant operand of the reassociation: a dense constant of the full
 * shape (*scalar false) or a broadcast of a rank-0 one (*scalar true). */
static ss_value constant_factor(const ss_program *p, ss_value v, bool *scalar)
{
    const ss__node *n = &p->nodes[v];
    *scalar = n->op == SS__OP_BROADCAST;
    if (*scalar)
        n = &p->nodes[(v = n->in[0])];
    if (n->op != SS__OP_CONSTANT || n->sub != SS__CONST_DENSE || (*scalar && n->rank != 0))
        return -1;
    return v;
}

/* dst[i] = a[i] * b[i] in dtype dt, rounded once (count elements). */
static void products(ss_dtype dt, const void *a, const void *b, void *dst, int64_t count)
{
    for (int64_t i = 0; i < count; i++) {
        const uint16_t *ha = a, *hb = b;
        switch (dt) {
        case SS_F64: ((double *)dst)[i] = ((const double *)a)[i] * ((const double *)b)[i]; break;
        case SS_F32: ((float *)dst)[i] = ((const float *)a)[i] * ((const float *)b)[i]; break;
        case SS_BF16:
            ((uint16_t *)dst)[i] = ss__f32_to_bf16(ss__bf16_to_f32(ha[i]) * ss__bf16_to_f32(hb[i]));
            break;
        default:
            ((uint16_t *)dst)[i] = ss__f32_to_f16(ss__f16_to_f32(ha[i]) * ss__f16_to_f32(hb[i]));
            break;
        }
    }
}

/* (A * C1) * C2 with the constants on either side of either multiply:
 * *a, *c1, *c2 and whether the constants are broadcast scalars; false when
 * the pattern does not hold. */
static bool constant_chain(const ss_program *p, const ss_value x[], ss_value *a, ss_value *c1,
                           ss_value *c2, bool *scalar)
{
    for (int outer = 0; outer < 2; outer++) {
        const ss__node *m = &p->nodes[x[outer]];
        bool s2, s1;
        ss_value k2 = constant_factor(p, x[1 - outer], &s2);
        if (k2 < 0 || m->op != SS__OP_BINARY || m->sub != SS_MUL)
            continue;
        for (int inner = 0; inner < 2; inner++) {
            ss_value k1 = constant_factor(p, m->in[inner], &s1);
            if (k1 < 0 || s1 != s2 || p->nodes[k1].dtype != p->nodes[k2].dtype)
                continue;
            *a = m->in[1 - inner];
            if (!s1 && ss__is_constant_expr(p, *a))
                continue;
            *c1 = k1, *c2 = k2, *scalar = s1;
            return true;
        }
    }
    return false;
}

bool ss__imp_multiply(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value *out)
{
    ss_program *p = im->sc->program;
    ss_dtype dt = p->nodes[x[0]].dtype;
    bool is_float = dt == SS_F32 || dt == SS_F64 || dt == SS_BF16 || dt == SS_F16;
    ss_value a, c1, c2;
    bool scalar;
    ss_status st;
    if (!is_float || !constant_chain(p, x, &a, &c1, &c2, &scalar)) {
        st = ss_binary(p, SS_MUL, x[0], x[1], out);
        return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", op->name, ss_error_message());
    }
    const ss__node k1 = p->nodes[c1], k2 = p->nodes[c2];
    int64_t count = 1;
    for (int d = 0; d < k1.rank; d++)
        count *= k1.shape[d];
    void *prod = malloc((size_t)(count ? count : 1) * ss_dtype_size(dt));
    if (!prod)
        return ss__imp_fail(im, op, "out of host memory");
    products(dt, k1.data, k2.data, prod, count);
    ss_value r;
    st = ss_constant_array(p, dt, k1.rank, k1.shape, prod, &r);
    free(prod);
    if (!st && scalar) {
        const ss__node a_node = p->nodes[a];
        int none[1] = {0};
        st = ss_broadcast_in_dim(p, r, a_node.rank, a_node.shape, none, &r);
    }
    if (!st)
        st = ss_binary(p, SS_MUL, a, r, out);
    return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", op->name, ss_error_message());
}
