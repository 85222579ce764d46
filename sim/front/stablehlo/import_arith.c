/*
 * import_arith.c — stablehlo.divide as XLA CPU computes it.
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
    if (!st)
        st = ss_binary(p, SS_MUL, x[0], r, out);
    return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", op->name, ss_error_message());
}
