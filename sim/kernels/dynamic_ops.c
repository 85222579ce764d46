/*
 * dynamic_ops.c — dynamic_slice and dynamic_update_slice: slices whose
 * start indices are data (rank-0 integer arrays), clamped as XLA clamps
 * them so the slice stays inside the operand: start = min(max(i, 0),
 * size - slice size). Each beside its naive reference; any dtype, exact.
 */
#include "elementwise_int.h"

#include <stdint.h>

static ss_status read_starts(const char *op, const ss__tensor *x, const int64_t sizes[], int n,
                             const ss__tensor idx[], int64_t start[])
{
    if (n != x->rank)
        return ss__fail(SS_ERR_INVALID, "%s: %d start indices for rank %d", op, n, x->rank);
    for (int d = 0; d < n; d++) {
        ss__k_class c = ss__k_class_of(idx[d].dtype);
        if (idx[d].rank != 0 || (c != SS__K_CLASS_SIGNED && c != SS__K_CLASS_UNSIGNED))
            return ss__fail(SS_ERR_INVALID, "%s: start index %d is not an integer scalar", op, d);
        if (sizes[d] < 0 || sizes[d] > x->shape[d])
            return ss__fail(SS_ERR_INVALID, "%s: dim %d: slice size %lld outside 0..%lld", op, d,
                            (long long)sizes[d], (long long)x->shape[d]);
        ss__k_scalar s = ss__k_ew_load(idx[d].dtype, idx[d].data, 0);
        int64_t i = c == SS__K_CLASS_SIGNED ? (int64_t)s.u
                                            : (s.u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)s.u);
        int64_t hi = x->shape[d] - sizes[d];
        start[d] = i < 0 ? 0 : i > hi ? hi : i;
    }
    return SS_OK;
}

static ss_status check_pair(const char *op, const ss__tensor *a, const ss__tensor *b)
{
    ss_status st = ss__k_check(op, "input", a, NULL);
    if (!st)
        st = ss__k_check(op, "output", b, NULL);
    if (!st && a->dtype != b->dtype)
        st = ss__fail(SS_ERR_INVALID, "%s: input %s, output %s", op, ss_dtype_name(a->dtype),
                      ss_dtype_name(b->dtype));
    if (!st && a->rank != b->rank)
        st = ss__fail(SS_ERR_INVALID, "%s: input rank %d, output rank %d", op, a->rank, b->rank);
    return st;
}

ss_status ss__k_dynamic_slice(const ss__tensor *x, int n, const ss__tensor idx[],
                              ss__tensor *out)
{
    int64_t start[SS_MAX_RANK], limit[SS_MAX_RANK];
    ss_status st = check_pair("dynamic_slice", x, out);
    if (!st)
        st = read_starts("dynamic_slice", x, out->shape, n, idx, start);
    if (st)
        return st;
    for (int d = 0; d < x->rank; d++)
        limit[d] = start[d] + out->shape[d];
    return ss__k_slice(x, start, limit, NULL, out);
}

ss_status ss__k_ref_dynamic_slice(const ss__tensor *x, int n, const ss__tensor idx[],
                                  ss__tensor *out)
{
    int64_t start[SS_MAX_RANK], oi[SS_MAX_RANK];
    ss_status st = check_pair("dynamic_slice", x, out);
    if (!st)
        st = read_starts("dynamic_slice", x, out->shape, n, idx, start);
    if (st)
        return st;
    size_t es = ss_dtype_size(x->dtype);
    for (int64_t i = 0; i < ss__k_numel(out); i++) {
        int64_t rest = i, off = 0;
        for (int d = x->rank - 1; d >= 0; d--) {
            oi[d] = rest % out->shape[d];
            rest /= out->shape[d];
        }
        for (int d = 0; d < x->rank; d++)
            off = off * x->shape[d] + start[d] + oi[d];
        memcpy((unsigned char *)out->data + (size_t)i * es,
               (const unsigned char *)x->data + (size_t)off * es, es);
    }
    return SS_OK;
}

/* out = x with u written at the clamped starts; out may be x itself (in
 * place: each element is read before it is written), never u or an index. */
static ss_status dus(const ss__tensor *x, const ss__tensor *u, int n, const ss__tensor idx[],
                     ss__tensor *out, bool reference)
{
    int64_t start[SS_MAX_RANK];
    ss_status st = check_pair("dynamic_update_slice", x, out);
    if (!st)
        st = check_pair("dynamic_update_slice", u, out);
    if (!st)
        st = ss__k_check_same_shape("dynamic_update_slice", "operand", x, "output", out);
    if (!st)
        st = read_starts("dynamic_update_slice", x, u->shape, n, idx, start);
    if (st)
        return st;
    size_t es = ss_dtype_size(x->dtype);
    int64_t nx = ss__k_numel(x), nu = ss__k_numel(u);
    unsigned char *o = out->data;
    const unsigned char *src = u->data;
    if (!reference) {
        if (o != x->data) /* else in place: the operand's buffer is the result's */
            memcpy(o, x->data, (size_t)nx * es);
        if (nu == 0)
            return SS_OK;
        /* rows contiguous in both: u's last dim, and the dims before it
         * while every dim after them is whole in x (their starts are 0) */
        int last = u->rank - 1;
        int64_t row = u->rank ? u->shape[last] : 1, idx_[SS_MAX_RANK] = {0};
        while (last > 0 && u->shape[last] == x->shape[last])
            row *= u->shape[--last];
        for (int64_t r = 0; row > 0 && r < nu / row; r++) {
            int64_t off = 0;
            for (int d = 0; d < u->rank; d++)
                off = off * x->shape[d] + start[d] + (d < last ? idx_[d] : 0);
            memcpy(o + (size_t)off * es, src + (size_t)(r * row) * es, (size_t)row * es);
            for (int d = last - 1; d >= 0; d--) {
                if (++idx_[d] < u->shape[d])
                    break;
                idx_[d] = 0;
            }
        }
        return SS_OK;
    }
    /* reference: each output element from u if inside the window, else x */
    int64_t oi[SS_MAX_RANK];
    for (int64_t i = 0; i < nx; i++) {
        int64_t rest = i, uoff = 0;
        bool inside = true;
        for (int d = x->rank - 1; d >= 0; d--) {
            oi[d] = rest % x->shape[d];
            rest /= x->shape[d];
        }
        for (int d = 0; d < x->rank; d++) {
            int64_t k = oi[d] - start[d];
            inside = inside && k >= 0 && k < u->shape[d];
            uoff = uoff * u->shape[d] + k;
        }
        memcpy(o + (size_t)i * es,
               inside ? src + (size_t)uoff * es : (const unsigned char *)x->data + (size_t)i * es,
               es);
    }
    return SS_OK;
}

ss_status ss__k_dynamic_update_slice(const ss__tensor *x, const ss__tensor *u, int n,
                                     const ss__tensor idx[], ss__tensor *out)
{
    return dus(x, u, n, idx, out, false);
}

ss_status ss__k_ref_dynamic_update_slice(const ss__tensor *x, const ss__tensor *u, int n,
                                         const ss__tensor idx[], ss__tensor *out)
{
    return dus(x, u, n, idx, out, true);
}
