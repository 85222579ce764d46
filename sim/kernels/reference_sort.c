/*
 * reference_sort.c — naive references of sort and top_k (sort.c): an
 * insertion sort per lane and a selection of the k largest, each comparing
 * two elements directly by the comparator's rules instead of through
 * sort.c's integer keys. Slow (quadratic) and plain on purpose.
 */
#include "kernels_internal.h"
#include "elementwise_int.h"

#include <math.h>
#include <stdlib.h>

/* -1, 0 or 1 as element a of key array t orders before, with or after b.
 * Floats: with `canonical` (JAX's sort) -0.0 equals +0.0 and all NaNs are
 * equal and above +inf; without (top_k), IEEE totalOrder on sign, NaN-ness
 * and magnitude (payloads are not compared). */
static int cmp_elem(const ss__tensor *t, int64_t a, int64_t b, bool canonical)
{
    ss__k_scalar x = ss__k_ew_load(t->dtype, t->data, a);
    ss__k_scalar y = ss__k_ew_load(t->dtype, t->data, b);
    switch (ss__k_class_of(t->dtype)) {
    case SS__K_CLASS_FLOAT: {
        double p = x.f, q = y.f;
        if (canonical) {
            if (isnan(p) || isnan(q))
                return isnan(p) && isnan(q) ? 0 : isnan(p) ? 1 : -1;
            return p < q ? -1 : p > q ? 1 : 0;
        }
        /* rank: -NaN 0, numbers 1 (then by value and sign of zero), +NaN 2 */
        int rp = isnan(p) ? (signbit(p) ? 0 : 2) : 1, rq = isnan(q) ? (signbit(q) ? 0 : 2) : 1;
        if (rp != rq)
            return rp < rq ? -1 : 1;
        if (rp != 1 || p != q)
            return rp != 1 ? 0 : p < q ? -1 : 1;
        return signbit(p) == signbit(q) ? 0 : signbit(p) ? -1 : 1;
    }
    case SS__K_CLASS_SIGNED: {
        int64_t p = (int64_t)x.u, q = (int64_t)y.u;
        return p < q ? -1 : p > q ? 1 : 0;
    }
    default: return x.u < y.u ? -1 : x.u > y.u ? 1 : 0;
    }
}

/* Whether position a (an index along the lane at `base`) goes strictly
 * before b by the keys (equal keys: neither). */
static bool key_less(int nkeys, const ss__tensor x[], unsigned desc, bool canonical, int64_t base,
                     int64_t inner, int64_t a, int64_t b)
{
    for (int k = 0; k < nkeys; k++) {
        int c = cmp_elem(&x[k], base + a * inner, base + b * inner, canonical);
        if ((desc >> k) & 1u)
            c = -c;
        if (c)
            return c < 0;
    }
    return false;
}

static void lane_geometry(const ss__tensor *x, int dim, int64_t *outer, int64_t *inner)
{
    *outer = *inner = 1;
    for (int d = 0; d < dim; d++)
        *outer *= x->shape[d];
    for (int d = dim + 1; d < x->rank; d++)
        *inner *= x->shape[d];
}

ss_status ss__k_ref_sort(int n, const ss__tensor x[], int dim, int nkeys, unsigned desc,
                         int which, ss__tensor *out)
{
    if (n < 1 || which < 0 || which >= n || dim < 0 || dim >= x[0].rank)
        return ss__fail(SS_ERR_INVALID, "sort: result %d of %d operands, dimension %d", which, n,
                        dim);
    ss_status st = ss__k_check_sort("sort", n, x, dim, nkeys, which, x[which].dtype,
                                    x[0].shape[dim], out);
    if (st)
        return st;
    int64_t outer, inner, len = x[0].shape[dim];
    lane_geometry(&x[0], dim, &outer, &inner);
    int64_t *perm = malloc(sizeof(int64_t) * (size_t)(len ? len : 1));
    if (!perm)
        return ss__fail(SS_ERR_NOMEM, "sort: no memory for a lane of %lld", (long long)len);
    size_t es = ss_dtype_size(out->dtype);
    for (int64_t o = 0; o < outer; o++)
        for (int64_t in = 0; in < inner; in++) {
            int64_t base = o * len * inner + in;
            /* insertion sort: an element moves left past strictly greater ones only */
            for (int64_t j = 0; j < len; j++) {
                int64_t i = j;
                while (i > 0 && key_less(nkeys, x, desc, true, base, inner, j, perm[i - 1])) {
                    perm[i] = perm[i - 1];
                    i--;
                }
                perm[i] = j;
            }
            for (int64_t j = 0; j < len; j++)
                memcpy((char *)out->data + (size_t)(base + j * inner) * es,
                       (const char *)x[which].data + (size_t)(base + perm[j] * inner) * es, es);
        }
    free(perm);
    return SS_OK;
}

ss_status ss__k_ref_top_k(const ss__tensor *x, int64_t k, bool indices, ss__tensor *out)
{
    if (x->rank < 1)
        return ss__fail(SS_ERR_INVALID, "top_k: the operand is a scalar");
    int dim = x->rank - 1;
    ss_status st =
        ss__k_check_sort("top_k", 1, x, dim, 1, 0, indices ? SS_I32 : x->dtype, k, out);
    if (st)
        return st;
    int64_t outer, inner, len = x->shape[dim];
    lane_geometry(x, dim, &outer, &inner);
    bool *taken = calloc((size_t)(len ? len : 1), 1);
    if (!taken)
        return ss__fail(SS_ERR_NOMEM, "top_k: no memory for a lane of %lld", (long long)len);
    size_t es = ss_dtype_size(out->dtype);
    for (int64_t o = 0; o < outer; o++) {
        int64_t base = o * len; /* inner is 1: the last dim */
        memset(taken, 0, (size_t)len);
        for (int64_t j = 0; j < k; j++) {
            int64_t best = -1;
            for (int64_t i = 0; i < len; i++) /* the largest; on a tie the first */
                if (!taken[i] && (best < 0 || key_less(1, x, 1u, false, base, 1, i, best)))
                    best = i;
            taken[best] = true;
            char *d = (char *)out->data + (size_t)(o * k + j) * es;
            if (indices) {
                int32_t v = (int32_t)best;
                memcpy(d, &v, sizeof v);
            } else {
                memcpy(d, (const char *)x->data + (size_t)(base + best) * es, es);
            }
        }
    }
    (void)inner;
    free(taken);
    return SS_OK;
}
