/*
 * index_ops.c — iota, reverse and lax.pad in full (negative low/high
 * padding, interior padding, the padding value an array element): the
 * data-movement ops StableHLO programs add to shape_ops.c's. Like those,
 * they move elements without reading them (iota writes indices), so they
 * work for every dtype and are exact.
 *
 * Not here: gather, scatter and the dynamic slices (their indices are data).
 */
#include "elementwise_int.h"

static ss_status check_same_dtype(const char *op, const ss__tensor *x, const ss__tensor *out)
{
    ss_status st = ss__k_check(op, "input", x, NULL);
    if (!st)
        st = ss__k_check(op, "output", out, NULL);
    if (!st && x->dtype != out->dtype)
        st = ss__fail(SS_ERR_INVALID, "%s: input dtype %s, output dtype %s", op,
                      ss_dtype_name(x->dtype), ss_dtype_name(out->dtype));
    return st;
}

/* --- iota --- */

ss_status ss__k_check_iota(int dim, const ss__tensor *out)
{
    ss_status st = ss__k_check("iota", "output", out, NULL);
    if (st)
        return st;
    if (dim < 0 || dim >= out->rank)
        return ss__fail(SS_ERR_INVALID, "iota: dim %d is outside 0..%d", dim, out->rank - 1);
    if (out->dtype == SS_BOOL)
        return ss__fail(SS_ERR_UNSUPPORTED, "iota: not defined on bool");
    return SS_OK;
}

ss_status ss__k_iota(int dim, ss__tensor *out)
{
    ss_status st = ss__k_check_iota(dim, out);
    if (st)
        return st;
    /* One row of the counting dim, then copies of it: out is [outer, n,
     * inner] with element (o, k, i) = k. */
    int64_t n = out->shape[dim], inner = 1, outer = 1;
    for (int d = dim + 1; d < out->rank; d++)
        inner *= out->shape[d];
    for (int d = 0; d < dim; d++)
        outer *= out->shape[d];
    size_t es = ss_dtype_size(out->dtype), block = (size_t)(n * inner) * es;
    unsigned char *o = out->data;
    for (int64_t k = 0; k < n; k++) {
        ss__k_scalar v = ss__k_ew_convert((ss__k_scalar){.u = (uint64_t)k}, SS_I64, out->dtype);
        ss__k_ew_store(out->dtype, o, k * inner, v);
        for (int64_t i = 1; i < inner; i++)
            memcpy(o + (size_t)(k * inner + i) * es, o + (size_t)(k * inner) * es, es);
    }
    for (int64_t b = 1; b < outer; b++)
        memcpy(o + (size_t)b * block, o, block);
    return SS_OK;
}

/* --- reverse --- */

ss_status ss__k_check_reverse(const ss__tensor *x, unsigned dims, const ss__tensor *out)
{
    ss_status st = check_same_dtype("reverse", x, out);
    if (!st)
        st = ss__k_check_same_shape("reverse", "input", x, "output", out);
    if (!st && x->rank < 32 && dims >> x->rank)
        st = ss__fail(SS_ERR_INVALID, "reverse: a reversed dim is outside 0..%d", x->rank - 1);
    return st;
}

ss_status ss__k_reverse(const ss__tensor *x, unsigned dims, ss__tensor *out)
{
    ss_status st = ss__k_check_reverse(x, dims, out);
    if (st || ss__k_numel(x) == 0)
        return st;
    size_t es = ss_dtype_size(x->dtype);
    if (x->rank == 0) {
        memcpy(out->data, x->data, es);
        return SS_OK;
    }
    /* Walk the output in order and the input from the far end of each
     * reversed dim with a negated stride. */
    int64_t xs[SS_MAX_RANK], str[1][SS_MAX_RANK], off[1] = {0}, idx[SS_MAX_RANK] = {0};
    ss__k_strides(x->rank, x->shape, xs);
    for (int d = 0; d < x->rank; d++) {
        bool rev = (dims >> d) & 1u;
        str[0][d] = rev ? -xs[d] : xs[d];
        off[0] += rev ? (x->shape[d] - 1) * xs[d] : 0;
    }
    int last = x->rank - 1;
    int64_t inner = x->shape[last];
    bool rev_last = (dims >> last) & 1u;
    const unsigned char *src = x->data;
    unsigned char *dst = out->data;
    do {
        const unsigned char *s = src + (size_t)(rev_last ? off[0] - (inner - 1) : off[0]) * es;
        if (!rev_last)
            memcpy(dst, s, (size_t)inner * es);
        else
            for (int64_t i = 0; i < inner; i++)
                memcpy(dst + (size_t)i * es, s + (size_t)(inner - 1 - i) * es, es);
        dst += (size_t)inner * es;
    } while (ss__k_step(last, x->shape, idx, 1, str, off));
    return SS_OK;
}

/* --- pad --- */

ss_status ss__k_check_pad_general(const ss__tensor *x, const ss__tensor *value,
                                  const int64_t lo[], const int64_t hi[],
                                  const int64_t interior[], const ss__tensor *out)
{
    ss_status st = check_same_dtype("pad", x, out);
    if (!st)
        st = check_same_dtype("pad", value, out);
    if (st)
        return st;
    if (value->rank != 0)
        return ss__fail(SS_ERR_INVALID, "pad: the padding value has rank %d (expected 0)",
                        value->rank);
    if (x->rank != out->rank)
        return ss__fail(SS_ERR_INVALID, "pad: input rank %d, output rank %d", x->rank, out->rank);
    for (int d = 0; d < x->rank; d++) {
        if (interior[d] < 0)
            return ss__fail(SS_ERR_INVALID, "pad: dim %d: negative interior padding %lld", d,
                            (long long)interior[d]);
        int64_t inside = x->shape[d] ? x->shape[d] + (x->shape[d] - 1) * interior[d] : 0;
        if (lo[d] + inside + hi[d] != out->shape[d])
            return ss__fail(SS_ERR_INVALID,
                            "pad: dim %d: %lld + %lld + %lld elements, the output has %lld", d,
                            (long long)lo[d], (long long)inside, (long long)hi[d],
                            (long long)out->shape[d]);
    }
    return SS_OK;
}

ss_status ss__k_pad_general(const ss__tensor *x, const ss__tensor *value, const int64_t lo[],
                            const int64_t hi[], const int64_t interior[], ss__tensor *out)
{
    ss_status st = ss__k_check_pad_general(x, value, lo, hi, interior, out);
    if (st)
        return st;
    int64_t nout = ss__k_numel(out);
    size_t es = ss_dtype_size(out->dtype);
    unsigned char *o = out->data;
    for (int64_t i = 0; i < nout; i++)
        memcpy(o + (size_t)i * es, value->data, es);
    if (nout == 0 || ss__k_numel(x) == 0)
        return SS_OK;
    if (x->rank == 0) {
        memcpy(o, x->data, es);
        return SS_OK;
    }
    /* Each input row (all dims but the last) lands on one output row or
     * is cut off; along the last dim, element i goes to lo + i * (1 +
     * interior) when that is inside the output. */
    int64_t os[SS_MAX_RANK], idx[SS_MAX_RANK] = {0};
    ss__k_strides(out->rank, out->shape, os);
    int last = x->rank - 1;
    int64_t n = x->shape[last], step = 1 + interior[last];
    int64_t first = lo[last] >= 0 ? 0 : (-lo[last] + step - 1) / step;
    const unsigned char *src = x->data;
    for (;;) {
        int64_t base = 0;
        bool inside = true;
        for (int d = 0; d < last && inside; d++) {
            int64_t at = lo[d] + idx[d] * (1 + interior[d]);
            inside = at >= 0 && at < out->shape[d];
            base += at * os[d];
        }
        for (int64_t i = first; inside && i < n; i++) {
            int64_t at = lo[last] + i * step;
            if (at >= out->shape[last])
                break;
            memcpy(o + (size_t)(base + at) * es, src + (size_t)i * es, es);
        }
        src += (size_t)n * es;
        int d = last - 1;
        for (; d >= 0; d--) {
            if (++idx[d] < x->shape[d])
                break;
            idx[d] = 0;
        }
        if (d < 0)
            break;
    }
    return SS_OK;
}
