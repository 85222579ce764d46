/*
 * common.c — the helpers every kernel file uses: tensor checks with
 * one-line messages, shape text, strides and index-space coalescing.
 * No arithmetic on data lives here.
 */
#include "kernels_internal.h"

#include <stdio.h>

int64_t ss__k_numel(const ss__tensor *t)
{
    if (!t || t->rank < 0 || t->rank > SS_MAX_RANK)
        return -1;
    for (int d = 0; d < t->rank; d++)
        if (t->shape[d] < 0)
            return -1;
    int64_t n;
    if (!ss__product(t->rank, t->shape, &n))
        return -1;
    return n;
}

ss__k_text ss__k_shape_text(int rank, const int64_t shape[])
{
    ss__k_text t;
    size_t len = 0;
    t.s[len++] = '(';
    for (int d = 0; d < rank && d < SS_MAX_RANK; d++) {
        int w = snprintf(t.s + len, sizeof t.s - len, d ? ", %lld" : "%lld",
                         (long long)shape[d]);
        if (w < 0 || (size_t)w >= sizeof t.s - len)
            break;
        len += (size_t)w;
    }
    if (rank == 1 && len + 2 < sizeof t.s)
        t.s[len++] = ',';
    if (len + 2 < sizeof t.s)
        t.s[len++] = ')';
    t.s[len] = '\0';
    return t;
}

bool ss__k_is_float(ss_dtype dt)
{
    return dt == SS_F32 || dt == SS_BF16 || dt == SS_F16;
}

ss_status ss__k_check(const char *op, const char *what, const ss__tensor *t, int64_t *n)
{
    int64_t count;
    ss_status st = ss__k_check_shape(op, what, t, &count);
    if (st)
        return st;
    if (count > 0 && !t->data)
        return ss__fail(SS_ERR_INVALID, "%s: %s has no data", op, what);
    if (n)
        *n = count;
    return SS_OK;
}

ss_status ss__k_check_shape(const char *op, const char *what, const ss__tensor *t, int64_t *n)
{
    if (!t)
        return ss__fail(SS_ERR_INVALID, "%s: %s is missing", op, what);
    if (t->rank < 0 || t->rank > SS_MAX_RANK)
        return ss__fail(SS_ERR_INVALID, "%s: %s has rank %d (must be 0..%d)", op, what, t->rank,
                        SS_MAX_RANK);
    if ((unsigned)t->dtype >= SS_DTYPE_COUNT)
        return ss__fail(SS_ERR_INVALID, "%s: %s has an invalid dtype (%d)", op, what,
                        (int)t->dtype);
    for (int d = 0; d < t->rank; d++)
        if (t->shape[d] < 0)
            return ss__fail(SS_ERR_INVALID, "%s: %s has a negative dim in shape %s", op, what,
                            ss__k_shape_text(t->rank, t->shape).s);
    int64_t count;
    if (!ss__product(t->rank, t->shape, &count) ||
        count > INT64_MAX / (int64_t)ss_dtype_size(t->dtype))
        return ss__fail(SS_ERR_RANGE, "%s: %s shape %s is too large", op, what,
                        ss__k_shape_text(t->rank, t->shape).s);
    if (n)
        *n = count;
    return SS_OK;
}

ss_status ss__k_check_float(const char *op, const char *what, const ss__tensor *t, int64_t *n)
{
    ss_status st = ss__k_check(op, what, t, n);
    if (st)
        return st;
    if (!ss__k_is_float(t->dtype))
        return ss__fail(SS_ERR_UNSUPPORTED, "%s: %s has dtype %s (expected f32, bf16 or f16)", op,
                        what, ss_dtype_name(t->dtype));
    return SS_OK;
}

ss_status ss__k_check_same_shape(const char *op, const char *what_a, const ss__tensor *a,
                                 const char *what_b, const ss__tensor *b)
{
    bool same = a->rank == b->rank;
    for (int d = 0; same && d < a->rank; d++)
        same = a->shape[d] == b->shape[d];
    if (!same)
        return ss__fail(SS_ERR_INVALID, "%s: %s shape %s differs from %s shape %s", op, what_b,
                        ss__k_shape_text(b->rank, b->shape).s, what_a,
                        ss__k_shape_text(a->rank, a->shape).s);
    return SS_OK;
}

ss_status ss__k_norm_axis(const char *op, int axis, int rank, int *out)
{
    if (axis < -rank || axis >= rank)
        return ss__fail(SS_ERR_INVALID, "%s: axis %d is out of range for rank %d", op, axis, rank);
    *out = axis < 0 ? axis + rank : axis;
    return SS_OK;
}

void ss__k_strides(int rank, const int64_t shape[], int64_t strides[])
{
    int64_t s = 1;
    for (int d = rank - 1; d >= 0; d--) {
        strides[d] = s;
        s *= shape[d];
    }
}

int ss__k_coalesce(int rank, int64_t shape[], int nops, int64_t strides[][SS_MAX_RANK])
{
    int r = 0;
    for (int d = 0; d < rank; d++) {
        if (shape[d] == 1)
            continue;
        bool merge = r > 0;
        for (int k = 0; merge && k < nops; k++)
            merge = strides[k][r - 1] == strides[k][d] * shape[d];
        if (merge) {
            shape[r - 1] *= shape[d];
            for (int k = 0; k < nops; k++)
                strides[k][r - 1] = strides[k][d];
            continue;
        }
        shape[r] = shape[d];
        for (int k = 0; k < nops; k++)
            strides[k][r] = strides[k][d];
        r++;
    }
    if (r == 0) {
        shape[0] = 1;
        for (int k = 0; k < nops; k++)
            strides[k][0] = 0;
        r = 1;
    }
    return r;
}

int64_t ss__k_mul_sat(int64_t a, int64_t b)
{
    if (a == 0 || b == 0)
        return 0;
    if (a > INT64_MAX / b)
        return INT64_MAX;
    return a * b;
}
