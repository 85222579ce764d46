/*
 * reduce_exact.c — reductions on every dtype (the exact path) and
 * argmax/argmin, each beside its naive reference.
 *
 * reduce.c keeps sum, max and min of f32, bf16 and f16 (a double
 * accumulator, rounded once). Here: integers (sums and products wrap
 * around in two's complement as XLA's; signed or unsigned order for max
 * and min), bool (sum and max are or, product and min are and), f64 (in
 * double), the product of any float dtype (a double accumulator rounded
 * once at the end) and bitwise and/or of integers and bool. Elements are
 * combined per output in row-major order of their indices, the order the
 * fast loop (one pass over x, one accumulator per output) and the
 * reference (one loop per output over the reduced index space) share, so
 * the two agree bit for bit.
 *
 * argmax/argmin over one axis follow JAX's reducer (jax._src.lax.lax's
 * _compute_argminmax as XLA runs it): the first NaN wins; otherwise the
 * largest (smallest) value by ==, ties to the lowest index (-0.0 ties with
 * +0.0). The index is written in out's integer dtype.
 */
#include "elementwise_int.h"

#include <math.h>
#include <stdlib.h>

ss__k_reduce_op ss__k_reduce_op_of(int reduce_op)
{
    switch (reduce_op) {
    case SS_REDUCE_MAX: return SS__K_REDUCE_MAX;
    case SS_REDUCE_MIN: return SS__K_REDUCE_MIN;
    case SS_REDUCE_PROD: return SS__K_REDUCE_PROD;
    case SS_REDUCE_AND: return SS__K_REDUCE_AND;
    case SS_REDUCE_OR: return SS__K_REDUCE_OR;
    default: return SS__K_REDUCE_SUM;
    }
}

static bool is_exact_float(ss_dtype dt) { return dt == SS_F32 || dt == SS_BF16 || dt == SS_F16; }

bool ss__k_reduce_is_exact(ss__k_reduce_op op, ss_dtype dt)
{
    return !is_exact_float(dt) || op == SS__K_REDUCE_PROD || op == SS__K_REDUCE_AND ||
           op == SS__K_REDUCE_OR;
}

bool ss__k_reduce_has(ss__k_reduce_op op, ss_dtype dt)
{
    ss__k_class c = ss__k_class_of(dt);
    switch (op) {
    case SS__K_REDUCE_SUM:
    case SS__K_REDUCE_MAX:
    case SS__K_REDUCE_MIN:
    case SS__K_REDUCE_PROD: return c != SS__K_CLASS_NONE;
    case SS__K_REDUCE_MEAN: return c == SS__K_CLASS_FLOAT;
    case SS__K_REDUCE_AND:
    case SS__K_REDUCE_OR: return c != SS__K_CLASS_NONE && c != SS__K_CLASS_FLOAT;
    default: return false;
    }
}

/* The reduced dims as a mask; out's shape must be x's without them. */
static ss_status check_exact(const char *name, ss__k_reduce_op op, const ss__tensor *x,
                             int naxes, const int axes[], bool keepdims, const ss__tensor *out,
                             unsigned *mask)
{
    ss_status st = ss__k_check(name, "input", x, NULL);
    if (!st)
        st = ss__k_check(name, "output", out, NULL);
    if (st)
        return st;
    if (x->dtype != out->dtype)
        return ss__fail(SS_ERR_INVALID, "%s: input %s, output %s", name, ss_dtype_name(x->dtype),
                        ss_dtype_name(out->dtype));
    if (!ss__k_reduce_has(op, x->dtype))
        return ss__fail(SS_ERR_UNSUPPORTED, "%s: not defined on %s", name,
                        ss_dtype_name(x->dtype));
    *mask = 0;
    ss__tensor want = {.dtype = x->dtype};
    for (int i = 0; i < naxes; i++) {
        int a;
        if ((st = ss__k_norm_axis(name, axes[i], x->rank, &a)))
            return st;
        if ((*mask >> a) & 1u)
            return ss__fail(SS_ERR_INVALID, "%s: axis %d repeated", name, axes[i]);
        *mask |= 1u << a;
    }
    for (int d = 0; d < x->rank; d++)
        if (!((*mask >> d) & 1u) || keepdims)
            want.shape[want.rank++] = (*mask >> d) & 1u ? 1 : x->shape[d];
    return ss__k_check_same_shape(name, "reduced", &want, "output", out);
}

/* The accumulator's start: the op's identity in dtype dt's class. */
static ss__k_scalar identity(ss__k_reduce_op op, ss_dtype dt)
{
    ss__k_class c = ss__k_class_of(dt);
    int bits = ss__k_bits_of(dt);
    uint64_t top = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    ss__k_scalar s = {.u = 0};
    switch (op) {
    case SS__K_REDUCE_PROD:
        if (c == SS__K_CLASS_FLOAT)
            s.f = 1.0;
        else
            s.u = 1;
        return s;
    case SS__K_REDUCE_AND: s.u = c == SS__K_CLASS_BOOL ? 1 : UINT64_MAX; return s;
    case SS__K_REDUCE_MAX:
        if (c == SS__K_CLASS_FLOAT)
            s.f = -INFINITY;
        else if (c == SS__K_CLASS_SIGNED)
            s.u = ~(top >> 1); /* INT_MIN, sign-extended */
        return s;
    case SS__K_REDUCE_MIN:
        if (c == SS__K_CLASS_FLOAT)
            s.f = INFINITY;
        else if (c == SS__K_CLASS_SIGNED)
            s.u = top >> 1;
        else
            s.u = c == SS__K_CLASS_BOOL ? 1 : top;
        return s;
    default: return s; /* sum, or: 0 */
    }
}

/* acc op v in dtype dt's class (integers as 64-bit: wrap-around is exact
 * modulo the width, truncated on store). */
static ss__k_scalar combine(ss__k_reduce_op op, ss_dtype dt, ss__k_scalar a, ss__k_scalar v)
{
    ss__k_class c = ss__k_class_of(dt);
    if (c == SS__K_CLASS_FLOAT) {
        switch (op) {
        case SS__K_REDUCE_MAX: a.f = a.f > v.f || a.f != a.f ? a.f : v.f; break;
        case SS__K_REDUCE_MIN: a.f = a.f < v.f || a.f != a.f ? a.f : v.f; break;
        case SS__K_REDUCE_PROD: a.f *= v.f; break;
        default: a.f += v.f; break;
        }
        return a;
    }
    if (c == SS__K_CLASS_BOOL) {
        bool and_like = op == SS__K_REDUCE_PROD || op == SS__K_REDUCE_MIN || op == SS__K_REDUCE_AND;
        a.u = and_like ? (a.u & v.u) : (a.u | v.u);
        return a;
    }
    bool sgn = c == SS__K_CLASS_SIGNED;
    switch (op) {
    case SS__K_REDUCE_SUM: a.u += v.u; break;
    case SS__K_REDUCE_PROD: a.u *= v.u; break;
    case SS__K_REDUCE_AND: a.u &= v.u; break;
    case SS__K_REDUCE_OR: a.u |= v.u; break;
    case SS__K_REDUCE_MAX:
        if (sgn ? (int64_t)v.u > (int64_t)a.u : v.u > a.u)
            a = v;
        break;
    case SS__K_REDUCE_MIN:
        if (sgn ? (int64_t)v.u < (int64_t)a.u : v.u < a.u)
            a = v;
        break;
    default: break;
    }
    return a;
}

static const char *exact_name(ss__k_reduce_op op) { return ss__k_reduce_name(op); }

ss_status ss__k_reduce_exact(ss__k_reduce_op op, const ss__tensor *x, int naxes, const int axes[],
                             bool keepdims, ss__tensor *out)
{
    unsigned mask;
    ss_status st = check_exact(exact_name(op), op, x, naxes, axes, keepdims, out, &mask);
    if (st)
        return st;
    int64_t nout = ss__k_numel(out), nx = ss__k_numel(x);
    ss__k_scalar *acc = malloc(sizeof *acc * (size_t)(nout ? nout : 1));
    if (!acc)
        return ss__fail(SS_ERR_NOMEM, "%s: out of host memory", exact_name(op));
    ss__k_scalar id = identity(op, x->dtype);
    for (int64_t o = 0; o < nout; o++)
        acc[o] = id;
    /* One pass over x in order; ostr[d]: how far dim d moves the output
     * element (0 for a reduced dim). */
    int64_t ostr[SS_MAX_RANK], idx[SS_MAX_RANK] = {0}, o = 0, s = 1;
    for (int d = x->rank - 1; d >= 0; d--) {
        bool red = (mask >> d) & 1u;
        ostr[d] = red ? 0 : s;
        s *= red ? 1 : x->shape[d];
    }
    for (int64_t i = 0; i < nx; i++) {
        acc[o] = combine(op, x->dtype, acc[o], ss__k_ew_load(x->dtype, x->data, i));
        for (int d = x->rank - 1; d >= 0; d--) {
            o += ostr[d];
            if (++idx[d] < x->shape[d])
                break;
            o -= ostr[d] * x->shape[d];
            idx[d] = 0;
        }
    }
    for (int64_t k = 0; k < nout; k++)
        ss__k_ew_store(out->dtype, out->data, k, acc[k]);
    free(acc);
    return SS_OK;
}

ss_status ss__k_ref_reduce_exact(ss__k_reduce_op op, const ss__tensor *x, int naxes,
                                 const int axes[], bool keepdims, ss__tensor *out)
{
    unsigned mask;
    ss_status st = check_exact(exact_name(op), op, x, naxes, axes, keepdims, out, &mask);
    if (st)
        return st;
    int64_t kshape[SS_MAX_RANK], rshape[SS_MAX_RANK], kidx[SS_MAX_RANK], ridx[SS_MAX_RANK];
    int kr = 0, rr = 0;
    int64_t rcount = 1;
    for (int d = 0; d < x->rank; d++) {
        if ((mask >> d) & 1u) {
            rshape[rr++] = x->shape[d];
            rcount *= x->shape[d];
        } else {
            kshape[kr++] = x->shape[d];
        }
    }
    for (int64_t o = 0; o < ss__k_numel(out); o++) {
        int64_t rest = o;
        for (int d = kr - 1; d >= 0; d--) {
            kidx[d] = rest % kshape[d];
            rest /= kshape[d];
        }
        ss__k_scalar acc = identity(op, x->dtype);
        for (int64_t r = 0; r < rcount; r++) {
            rest = r;
            for (int d = rr - 1; d >= 0; d--) {
                ridx[d] = rest % rshape[d];
                rest /= rshape[d];
            }
            int64_t off = 0;
            for (int d = 0, k = 0, j = 0; d < x->rank; d++)
                off = off * x->shape[d] + ((mask >> d) & 1u ? ridx[j++] : kidx[k++]);
            acc = combine(op, x->dtype, acc, ss__k_ew_load(x->dtype, x->data, off));
        }
        ss__k_ew_store(out->dtype, out->data, o, acc);
    }
    return SS_OK;
}

/* --- argmax / argmin --- */

static ss_status check_arg(const char *name, const ss__tensor *x, int axis,
                           const ss__tensor *out)
{
    ss_status st = ss__k_check(name, "input", x, NULL);
    if (!st)
        st = ss__k_check(name, "output", out, NULL);
    if (st)
        return st;
    ss__k_class c = ss__k_class_of(out->dtype);
    if (c != SS__K_CLASS_SIGNED && c != SS__K_CLASS_UNSIGNED)
        return ss__fail(SS_ERR_INVALID, "%s: index dtype %s is not an integer", name,
                        ss_dtype_name(out->dtype));
    if (ss__k_class_of(x->dtype) == SS__K_CLASS_NONE)
        return ss__fail(SS_ERR_UNSUPPORTED, "%s: not defined on %s", name,
                        ss_dtype_name(x->dtype));
    if (axis < 0 || axis >= x->rank)
        return ss__fail(SS_ERR_INVALID, "%s: axis %d is outside 0..%d", name, axis, x->rank - 1);
    ss__tensor want = {.dtype = out->dtype};
    for (int d = 0; d < x->rank; d++)
        if (d != axis)
            want.shape[want.rank++] = x->shape[d];
    return ss__k_check_same_shape(name, "reduced", &want, "output", out);
}

/* Whether v (at a later index) replaces the best so far b: JAX's reducer
 * with the accumulator first (a NaN accumulator stays). */
static bool beats(ss_dtype dt, bool is_min, ss__k_scalar b, ss__k_scalar v)
{
    ss__k_class c = ss__k_class_of(dt);
    if (c == SS__K_CLASS_FLOAT) {
        if (b.f != b.f)
            return false;
        return v.f != v.f || (is_min ? v.f < b.f : v.f > b.f);
    }
    if (c == SS__K_CLASS_SIGNED)
        return is_min ? (int64_t)v.u < (int64_t)b.u : (int64_t)v.u > (int64_t)b.u;
    return is_min ? v.u < b.u : v.u > b.u;
}

static void store_index(ss__tensor *out, int64_t o, int64_t k)
{
    ss__k_ew_store(out->dtype, out->data, o, (ss__k_scalar){.u = (uint64_t)k});
}

ss_status ss__k_argminmax(const ss__tensor *x, int axis, bool is_min, ss__tensor *out)
{
    const char *name = is_min ? "argmin" : "argmax";
    ss_status st = check_arg(name, x, axis, out);
    if (st || ss__k_numel(out) == 0)
        return st;
    /* x as [outer, n, inner]: a lane of `inner` outputs at a time. */
    int64_t n = x->shape[axis], inner = 1, outer = 1;
    for (int d = axis + 1; d < x->rank; d++)
        inner *= x->shape[d];
    for (int d = 0; d < axis; d++)
        outer *= x->shape[d];
    ss__k_scalar *best = malloc(sizeof *best * (size_t)inner);
    int64_t *at = malloc(sizeof *at * (size_t)inner);
    if (!best || !at) {
        free(best);
        free(at);
        return ss__fail(SS_ERR_NOMEM, "%s: out of host memory", name);
    }
    for (int64_t b = 0; b < outer; b++) {
        int64_t base = b * n * inner;
        for (int64_t i = 0; i < inner; i++) {
            best[i] = ss__k_ew_load(x->dtype, x->data, base + i);
            at[i] = 0;
        }
        for (int64_t k = 1; k < n; k++)
            for (int64_t i = 0; i < inner; i++) {
                ss__k_scalar v = ss__k_ew_load(x->dtype, x->data, base + k * inner + i);
                if (beats(x->dtype, is_min, best[i], v)) {
                    best[i] = v;
                    at[i] = k;
                }
            }
        for (int64_t i = 0; i < inner; i++)
            store_index(out, b * inner + i, at[i]);
    }
    free(best);
    free(at);
    return SS_OK;
}

/* The reference states the rule directly: the first NaN if there is one,
 * else the first index holding the extreme value. */
ss_status ss__k_ref_argminmax(const ss__tensor *x, int axis, bool is_min, ss__tensor *out)
{
    ss_status st = check_arg(is_min ? "argmin" : "argmax", x, axis, out);
    if (st)
        return st;
    int64_t n = x->shape[axis], inner = 1;
    for (int d = axis + 1; d < x->rank; d++)
        inner *= x->shape[d];
    bool fl = ss__k_class_of(x->dtype) == SS__K_CLASS_FLOAT;
    for (int64_t o = 0; o < ss__k_numel(out); o++) {
        int64_t base = (o / inner) * n * inner + o % inner, pick = -1;
        for (int64_t k = 0; k < n && fl && pick < 0; k++) {
            double v = ss__k_ew_load(x->dtype, x->data, base + k * inner).f;
            if (v != v)
                pick = k;
        }
        for (int64_t k = 0; k < n && pick < 0; k++) {
            ss__k_scalar v = ss__k_ew_load(x->dtype, x->data, base + k * inner);
            bool extreme = true;
            for (int64_t j = 0; j < n && extreme; j++)
                extreme = !beats(x->dtype, is_min, v, ss__k_ew_load(x->dtype, x->data,
                                                                      base + j * inner));
            if (extreme)
                pick = k;
        }
        store_index(out, o, pick);
    }
    return SS_OK;
}
