/*
 * reference.c — deliberately naive kernels that the tests hold the fast ones
 * against. Each is one loop over output elements: unravel the output index,
 * map it back to input indices straight from the op's definition, compute
 * in double, round once. Lane ops (softmax, layer_norm, cross-entropy)
 * recompute their lane statistics for every output element.
 *
 * Shared with the fast kernels: only the argument checks (so both accept
 * and reject the same inputs) and the scalar 16-bit conversions. Not
 * shared: iteration, blocking, the f32 block loads, the math.
 *
 * Reductions visit each output's elements in row-major order with a double
 * accumulator from 0, as reduce.c promises, so sums agree bit for bit.
 */
#include "kernels_internal.h"
#include "elementwise_int.h"

#include <math.h>
#include <stdlib.h>

/* --- Elements and indices --- */

static double get(const ss__tensor *t, int64_t i)
{
    switch (t->dtype) {
    case SS_F32: return (double)((const float *)t->data)[i];
    case SS_BF16: return (double)ss__bf16_to_f32(((const uint16_t *)t->data)[i]);
    case SS_F16: return (double)ss__f16_to_f32(((const uint16_t *)t->data)[i]);
    case SS_I32: return (double)((const int32_t *)t->data)[i];
    default: return NAN;
    }
}

/* Round v to t's dtype: to f32 first (nearest even), then to 16 bits. */
static void set(ss__tensor *t, int64_t i, double v)
{
    float f = (float)v;
    switch (t->dtype) {
    case SS_F32: ((float *)t->data)[i] = f; break;
    case SS_BF16: ((uint16_t *)t->data)[i] = ss__f32_to_bf16(f); break;
    case SS_F16: ((uint16_t *)t->data)[i] = ss__f32_to_f16(f); break;
    case SS_I32:
        ((int32_t *)t->data)[i] = v != v ? 0 : v >= 2147483647.0 ? INT32_MAX
                                 : v <= -2147483648.0 ? INT32_MIN : (int32_t)v;
        break;
    default: break;
    }
}

static void unravel(int64_t i, int rank, const int64_t shape[], int64_t idx[])
{
    for (int d = rank - 1; d >= 0; d--) {
        idx[d] = shape[d] ? i % shape[d] : 0;
        i = shape[d] ? i / shape[d] : 0;
    }
}

static int64_t ravel(int rank, const int64_t shape[], const int64_t idx[])
{
    int64_t i = 0;
    for (int d = 0; d < rank; d++)
        i = i * shape[d] + idx[d];
    return i;
}

static void copy_elem(const ss__tensor *to, int64_t i, const ss__tensor *from, int64_t j)
{
    size_t es = ss_dtype_size(to->dtype);
    memcpy((unsigned char *)to->data + (size_t)i * es,
           (const unsigned char *)from->data + (size_t)j * es, es);
}

static double max_nan(double a, double b)
{
    return a != a || b != b ? NAN : a > b ? a : b;
}

/* --- Elementwise --- */

/* erf_inv by bisection on libm's erf: slow, and independent of the
 * polynomial the kernels use. */
static double erf_inv_bisect(double x)
{
    if (x != x || fabs(x) > 1.0)
        return NAN;
    if (fabs(x) == 1.0)
        return x * INFINITY;
    double lo = -6.0, hi = 6.0;
    for (int i = 0; i < 200 && lo < hi; i++) {
        double mid = 0.5 * (lo + hi);
        if (mid == lo || mid == hi)
            break;
        if (erf(mid) < x)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

static double unary(ss__k_unary_op op, double x)
{
    switch (op) {
    case SS__K_NEG: return -x;
    case SS__K_EXP: return exp(x);
    case SS__K_LOG: return log(x);
    case SS__K_TANH: return tanh(x);
    case SS__K_RELU: return x != x ? x : x > 0 ? x : 0.0;
    case SS__K_GELU: return 0.5 * x * (1.0 + tanh(sqrt(2.0 / 3.14159265358979323846) * (x + 0.044715 * x * x * x)));
    case SS__K_SQRT: return sqrt(x);
    case SS__K_RSQRT: return 1.0 / sqrt(x);
    case SS__K_SQUARE: return x * x;
    case SS__K_CONVERT: return x;
    case SS__K_ABS: return fabs(x);
    case SS__K_SIGN: return x != x || x == 0 ? x : x > 0 ? 1.0 : -1.0;
    case SS__K_FLOOR: return floor(x);
    case SS__K_CEIL: return ceil(x);
    case SS__K_ROUND_EVEN: return nearbyint(x);
    case SS__K_ROUND_AFZ: return round(x);
    case SS__K_SIN: return sin(x);
    case SS__K_COS: return cos(x);
    case SS__K_TAN: return tan(x);
    case SS__K_ERF: return erf(x);
    case SS__K_EXPM1: return expm1(x);
    case SS__K_LOG1P: return log1p(x);
    case SS__K_LOGISTIC: return 1.0 / (1.0 + exp(-x));
    case SS__K_CBRT: return cbrt(x);
    case SS__K_ERF_INV: return erf_inv_bisect(x);
    default: return NAN;
    }
}

ss_status ss__k_ref_unary(ss__k_unary_op op, const ss__tensor *x, ss__tensor *out)
{
    if ((unsigned)op < SS__K_UNARY_COUNT && !ss__k_unary_is_f32_path(op, x->dtype, out->dtype))
        return ss__k_ref_elementwise(SS__K_EW_UNARY, (int)op, 1, x, out);
    ss_status st = ss__k_check_unary(op, x, out);
    if (st)
        return st;
    for (int64_t i = 0; i < ss__k_numel(out); i++)
        set(out, i, unary(op, get(x, i)));
    return SS_OK;
}

static double binary(ss__k_binary_op op, double a, double b)
{
    switch (op) {
    case SS__K_ADD: return a + b;
    case SS__K_SUB: return a - b;
    case SS__K_MUL: return a * b;
    case SS__K_DIV: return a / b;
    case SS__K_MAX: return max_nan(a, b);
    case SS__K_MIN: return a != a || b != b ? NAN : a < b ? a : b;
    case SS__K_POW: return pow(a, b);
    case SS__K_EQ: return a == b ? 1.0 : 0.0;
    case SS__K_GT: return a > b ? 1.0 : 0.0;
    case SS__K_GE: return a >= b ? 1.0 : 0.0;
    case SS__K_REM: return fmod(a, b);
    case SS__K_ATAN2: return atan2(a, b);
    case SS__K_NEXT_AFTER: return nextafterf((float)a, (float)b); /* the f32 path's operands */
    default: return NAN;
    }
}

/* Index of the element of t (right-aligned, stretched) for output idx. */
static int64_t broadcast_index(const ss__tensor *t, int out_rank, const int64_t idx[])
{
    int64_t ti[SS_MAX_RANK];
    for (int d = 0; d < t->rank; d++)
        ti[d] = t->shape[d] == 1 ? 0 : idx[d + out_rank - t->rank];
    return ravel(t->rank, t->shape, ti);
}

ss_status ss__k_ref_binary(ss__k_binary_op op, const ss__tensor *a, const ss__tensor *b,
                           ss__tensor *out)
{
    if ((unsigned)op < SS__K_BINARY_COUNT &&
        !ss__k_binary_is_f32_path(op, a->dtype, b->dtype, out->dtype)) {
        ss__tensor in[2] = {*a, *b};
        return ss__k_ref_elementwise(SS__K_EW_BINARY, (int)op, 2, in, out);
    }
    ss_status st = ss__k_check_binary(op, a, b, out);
    if (st)
        return st;
    int64_t idx[SS_MAX_RANK];
    for (int64_t i = 0; i < ss__k_numel(out); i++) {
        unravel(i, out->rank, out->shape, idx);
        double u = get(a, broadcast_index(a, out->rank, idx));
        double v = get(b, broadcast_index(b, out->rank, idx));
        set(out, i, binary(op, u, v));
    }
    return SS_OK;
}

/* Every dtype (elementwise_int.c's semantics), element by element. */
ss_status ss__k_ref_elementwise(ss__k_ew_kind kind, int op, int nin, const ss__tensor in[],
                                ss__tensor *out)
{
    ss_status st = ss__k_check_elementwise(kind, op, nin, in, out);
    if (st)
        return st;
    ss_dtype dom = ss__k_ew_domain(kind, op, nin, in, out);
    if (kind == SS__K_EW_UNARY && op == SS__K_BITCAST) { /* the bytes, one element at a time */
        size_t es = ss_dtype_size(out->dtype);
        for (int64_t i = 0; i < ss__k_numel(out); i++)
            memcpy((char *)out->data + (size_t)i * es, (const char *)in[0].data + (size_t)i * es,
                   es);
        return SS_OK;
    }
    bool own = kind == SS__K_EW_COMPARE ||
               (kind == SS__K_EW_UNARY && (op == SS__K_IS_FINITE || op == SS__K_CONVERT));
    int64_t idx[SS_MAX_RANK];
    for (int64_t i = 0; i < ss__k_numel(out); i++) {
        unravel(i, out->rank, out->shape, idx);
        ss__k_scalar v[3];
        for (int k = 0; k < nin; k++) {
            ss_dtype want = kind == SS__K_EW_SELECT && k == 0 ? SS_BOOL : dom;
            v[k] = ss__k_ew_load(in[k].dtype, in[k].data, broadcast_index(&in[k], out->rank, idx));
            if (in[k].dtype != want)
                v[k] = ss__k_ew_convert(v[k], in[k].dtype, want);
        }
        ss__k_scalar y = ss__k_ew_scalar(kind, op, dom, out->dtype, v);
        if (!own && dom != out->dtype)
            y = ss__k_ew_convert(y, dom, out->dtype);
        ss__k_ew_store(out->dtype, out->data, i, y);
    }
    return SS_OK;
}

/* --- Reductions --- */

ss_status ss__k_ref_reduce(ss__k_reduce_op op, const ss__tensor *x, int naxes, const int axes[],
                           bool keepdims, ss__tensor *out)
{
    if ((unsigned)op < SS__K_REDUCE_COUNT && x && ss__k_reduce_is_exact(op, x->dtype))
        return ss__k_ref_reduce_exact(op, x, naxes, axes, keepdims, out);
    bool red[SS_MAX_RANK];
    ss_status st = ss__k_check_reduce(op, x, naxes, axes, keepdims, out, red);
    if (st)
        return st;
    int64_t nout = ss__k_numel(out), nx = ss__k_numel(x), count = 1;
    for (int d = 0; d < x->rank; d++)
        if (red[d])
            count *= x->shape[d];
    double *acc = malloc(sizeof(double) * (size_t)(nout ? nout : 1));
    if (!acc)
        return ss__fail(SS_ERR_NOMEM, "reference reduce: out of host memory");
    double init = op == SS__K_REDUCE_MAX ? -INFINITY : op == SS__K_REDUCE_MIN ? INFINITY : 0.0;
    for (int64_t o = 0; o < nout; o++)
        acc[o] = init;
    /* Visiting x in row-major order visits each output's elements in
     * row-major order of the reduced indices. */
    int64_t idx[SS_MAX_RANK], oidx[SS_MAX_RANK];
    for (int64_t i = 0; i < nx; i++) {
        unravel(i, x->rank, x->shape, idx);
        int r = 0;
        for (int d = 0; d < x->rank; d++) {
            if (!red[d])
                oidx[r++] = idx[d];
            else if (keepdims)
                oidx[r++] = 0;
        }
        int64_t o = ravel(out->rank, out->shape, oidx);
        double v = get(x, i);
        if (op == SS__K_REDUCE_MAX)
            acc[o] = max_nan(acc[o], v);
        else if (op == SS__K_REDUCE_MIN)
            acc[o] = acc[o] != acc[o] || v != v ? NAN : acc[o] < v ? acc[o] : v;
        else
            acc[o] += v;
    }
    for (int64_t o = 0; o < nout; o++)
        set(out, o, op == SS__K_REDUCE_MEAN ? acc[o] / (double)count : acc[o]);
    free(acc);
    return SS_OK;
}

/* --- dot_general --- */

ss_status ss__k_ref_dot_general(const ss__tensor *lhs, const ss__tensor *rhs,
                                const ss__k_dot_dims *dims, ss__tensor *out)
{
    ss_status st = ss__k_check_dot(lhs, rhs, dims, out);
    if (st)
        return st;
    int nb = dims->nbatch, nc = dims->ncontract;
    /* Which dims are free, in order. */
    int lfree[SS_MAX_RANK], rfree[SS_MAX_RANK], nlf = 0, nrf = 0;
    for (int d = 0; d < lhs->rank; d++) {
        bool f = true;
        for (int i = 0; i < nb; i++)
            f &= dims->lhs_batch[i] != d;
        for (int i = 0; i < nc; i++)
            f &= dims->lhs_contract[i] != d;
        if (f)
            lfree[nlf++] = d;
    }
    for (int d = 0; d < rhs->rank; d++) {
        bool f = true;
        for (int i = 0; i < nb; i++)
            f &= dims->rhs_batch[i] != d;
        for (int i = 0; i < nc; i++)
            f &= dims->rhs_contract[i] != d;
        if (f)
            rfree[nrf++] = d;
    }
    int64_t cshape[SS_MAX_RANK], k = 1;
    for (int i = 0; i < nc; i++) {
        cshape[i] = lhs->shape[dims->lhs_contract[i]];
        k *= cshape[i];
    }
    int64_t oi[SS_MAX_RANK], ci[SS_MAX_RANK], li[SS_MAX_RANK], ri[SS_MAX_RANK];
    for (int64_t o = 0; o < ss__k_numel(out); o++) {
        unravel(o, out->rank, out->shape, oi);
        for (int i = 0; i < nb; i++) {
            li[dims->lhs_batch[i]] = oi[i];
            ri[dims->rhs_batch[i]] = oi[i];
        }
        for (int i = 0; i < nlf; i++)
            li[lfree[i]] = oi[nb + i];
        for (int i = 0; i < nrf; i++)
            ri[rfree[i]] = oi[nb + nlf + i];
        double acc = 0.0;
        for (int64_t c = 0; c < k; c++) {
            unravel(c, nc, cshape, ci);
            for (int i = 0; i < nc; i++) {
                li[dims->lhs_contract[i]] = ci[i];
                ri[dims->rhs_contract[i]] = ci[i];
            }
            acc += get(lhs, ravel(lhs->rank, lhs->shape, li)) *
                   get(rhs, ravel(rhs->rank, rhs->shape, ri));
        }
        set(out, o, acc);
    }
    return SS_OK;
}

/* --- Lane ops --- */

/* Element j of the lane through x's flat element i along axis ax. */
static int64_t lane_elem(const ss__tensor *x, int ax, int64_t i, int64_t j)
{
    int64_t idx[SS_MAX_RANK];
    unravel(i, x->rank, x->shape, idx);
    idx[ax] = j;
    return ravel(x->rank, x->shape, idx);
}

static ss_status ref_softmax(bool log_form, const ss__tensor *x, int axis, ss__tensor *out)
{
    int ax;
    ss_status st = ss__k_check_softmax(log_form ? "log_softmax" : "softmax", x, axis, out, &ax);
    if (st)
        return st;
    int64_t n = x->shape[ax];
    for (int64_t i = 0; i < ss__k_numel(out); i++) {
        double m = -INFINITY, s = 0.0;
        for (int64_t j = 0; j < n; j++)
            m = max_nan(m, get(x, lane_elem(x, ax, i, j)));
        for (int64_t j = 0; j < n; j++)
            s += exp(get(x, lane_elem(x, ax, i, j)) - m);
        double v = get(x, i);
        set(out, i, log_form ? (v - m) - log(s) : exp(v - m) / s);
    }
    return SS_OK;
}

ss_status ss__k_ref_softmax(const ss__tensor *x, int axis, ss__tensor *out)
{
    return ref_softmax(false, x, axis, out);
}

ss_status ss__k_ref_log_softmax(const ss__tensor *x, int axis, ss__tensor *out)
{
    return ref_softmax(true, x, axis, out);
}

ss_status ss__k_ref_layer_norm(const ss__tensor *x, const ss__tensor *scale,
                               const ss__tensor *bias, float eps, ss__tensor *out)
{
    ss_status st = ss__k_check_layer_norm(x, scale, bias, out);
    if (st)
        return st;
    int ax = x->rank - 1;
    int64_t f = x->shape[ax];
    for (int64_t i = 0; i < ss__k_numel(out); i++) {
        double mean = 0.0, var = 0.0;
        for (int64_t j = 0; j < f; j++)
            mean += get(x, lane_elem(x, ax, i, j));
        mean /= (double)f;
        for (int64_t j = 0; j < f; j++) {
            double dev = get(x, lane_elem(x, ax, i, j)) - mean;
            var += dev * dev;
        }
        var /= (double)f;
        int64_t feature = i % f;
        double y = (get(x, i) - mean) / sqrt(var + (double)eps);
        if (scale)
            y *= get(scale, feature);
        if (bias)
            y += get(bias, feature);
        set(out, i, y);
    }
    return SS_OK;
}

ss_status ss__k_ref_cross_entropy(const ss__tensor *logits, const ss__tensor *labels,
                                  ss__tensor *out)
{
    ss_status st = ss__k_check_cross_entropy(logits, labels, out);
    if (st)
        return st;
    int64_t classes = logits->shape[logits->rank - 1];
    for (int64_t i = 0; i < ss__k_numel(out); i++) {
        int64_t label = ((const int32_t *)labels->data)[i];
        if (label < 0)
            label += classes;
        if (label < 0 || label >= classes) {
            set(out, i, NAN);
            continue;
        }
        double m = -INFINITY, s = 0.0;
        for (int64_t c = 0; c < classes; c++)
            m = max_nan(m, get(logits, i * classes + c));
        for (int64_t c = 0; c < classes; c++)
            s += exp(get(logits, i * classes + c) - m);
        set(out, i, log(s) - (get(logits, i * classes + label) - m));
    }
    return SS_OK;
}

ss_status ss__k_ref_one_hot(const ss__tensor *indices, ss__tensor *out)
{
    ss_status st = ss__k_check_one_hot(indices, out);
    if (st)
        return st;
    int64_t idx[SS_MAX_RANK];
    for (int64_t i = 0; i < ss__k_numel(out); i++) {
        unravel(i, out->rank, out->shape, idx);
        int64_t which = ravel(indices->rank, indices->shape, idx);
        int32_t label = ((const int32_t *)indices->data)[which];
        set(out, i, label == idx[out->rank - 1] ? 1.0 : 0.0);
    }
    return SS_OK;
}

/* --- Shape ops --- */

ss_status ss__k_ref_transpose(const ss__tensor *x, const int perm[], ss__tensor *out)
{
    ss_status st = ss__k_check_transpose(x, perm, out);
    if (st)
        return st;
    int64_t oi[SS_MAX_RANK], xi[SS_MAX_RANK];
    for (int64_t i = 0; i < ss__k_numel(out); i++) {
        unravel(i, out->rank, out->shape, oi);
        for (int d = 0; d < out->rank; d++)
            xi[perm[d]] = oi[d];
        copy_elem(out, i, x, ravel(x->rank, x->shape, xi));
    }
    return SS_OK;
}

ss_status ss__k_ref_broadcast_in_dim(const ss__tensor *x, const int dims[], ss__tensor *out)
{
    ss_status st = ss__k_check_broadcast_in_dim(x, dims, out);
    if (st)
        return st;
    int64_t oi[SS_MAX_RANK], xi[SS_MAX_RANK];
    for (int64_t i = 0; i < ss__k_numel(out); i++) {
        unravel(i, out->rank, out->shape, oi);
        for (int d = 0; d < x->rank; d++)
            xi[d] = x->shape[d] == 1 ? 0 : oi[dims[d]];
        copy_elem(out, i, x, ravel(x->rank, x->shape, xi));
    }
    return SS_OK;
}

ss_status ss__k_ref_slice(const ss__tensor *x, const int64_t start[], const int64_t limit[],
                          const int64_t stride[], ss__tensor *out)
{
    ss_status st = ss__k_check_slice(x, start, limit, stride, out);
    if (st)
        return st;
    int64_t oi[SS_MAX_RANK], xi[SS_MAX_RANK];
    for (int64_t i = 0; i < ss__k_numel(out); i++) {
        unravel(i, out->rank, out->shape, oi);
        for (int d = 0; d < x->rank; d++)
            xi[d] = start[d] + oi[d] * (stride ? stride[d] : 1);
        copy_elem(out, i, x, ravel(x->rank, x->shape, xi));
    }
    return SS_OK;
}

ss_status ss__k_ref_concatenate(int n, const ss__tensor xs[], int axis, ss__tensor *out)
{
    ss_status st = ss__k_check_concatenate(n, xs, axis, out);
    if (st)
        return st;
    int ax = axis < 0 ? axis + out->rank : axis;
    int64_t oi[SS_MAX_RANK];
    for (int64_t i = 0; i < ss__k_numel(out); i++) {
        unravel(i, out->rank, out->shape, oi);
        int k = 0;
        while (oi[ax] >= xs[k].shape[ax]) {
            oi[ax] -= xs[k].shape[ax];
            k++;
        }
        copy_elem(out, i, &xs[k], ravel(xs[k].rank, xs[k].shape, oi));
    }
    return SS_OK;
}

/* `value` as one element of dt, written independently of shape_ops.c. */
static void put_value(ss__tensor *out, int64_t i, double value)
{
    double c = value != value ? 0.0 : value;
    unsigned char *p = (unsigned char *)out->data + (size_t)i * ss_dtype_size(out->dtype);
    switch (out->dtype) {
    case SS_F32: case SS_BF16: case SS_F16: set(out, i, value); break;
    case SS_I32: set(out, i, c); break;
    case SS_F64: memcpy(p, &value, 8); break;
    case SS_I64: {
        int64_t v = c >= 0x1p63 ? INT64_MAX : c <= -0x1p63 ? INT64_MIN : (int64_t)c;
        memcpy(p, &v, 8);
        break;
    }
    case SS_I8: *p = (unsigned char)(int8_t)fmin(127.0, fmax(-128.0, trunc(c))); break;
    case SS_U8: *p = (unsigned char)fmin(255.0, fmax(0.0, trunc(c))); break;
    case SS_BOOL: *p = value != 0.0 ? 1 : 0; break;
    default: break;
    }
}

ss_status ss__k_ref_pad(const ss__tensor *x, const int64_t lo[], const int64_t hi[],
                        double value, ss__tensor *out)
{
    ss_status st = ss__k_check_pad(x, lo, hi, out);
    if (st)
        return st;
    int64_t oi[SS_MAX_RANK], xi[SS_MAX_RANK];
    for (int64_t i = 0; i < ss__k_numel(out); i++) {
        unravel(i, out->rank, out->shape, oi);
        bool inside = true;
        for (int d = 0; d < x->rank; d++) {
            xi[d] = oi[d] - lo[d];
            inside &= xi[d] >= 0 && xi[d] < x->shape[d];
        }
        if (inside)
            copy_elem(out, i, x, ravel(x->rank, x->shape, xi));
        else
            put_value(out, i, value);
    }
    return SS_OK;
}
