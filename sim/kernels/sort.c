/*
 * sort.c — StableHLO sort (several operands permuted alike, ordered by the
 * first `nkeys` of them) and top_k, on one device's block. The naive
 * references are in reference_sort.c.
 *
 * Order. Each key element is mapped to an unsigned 64-bit number whose
 * natural order is the comparator's: integers by value (signed or unsigned
 * as the dtype says), bool false < true, floats (widened exactly to double)
 * in IEEE total order — for ss__k_sort after JAX's canonicalisation (-0.0
 * taken as +0.0, every NaN as the one positive quiet NaN, above +inf), for
 * ss__k_top_k raw (-NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN).
 * Equal keys keep their order along the dim (a stable sort; an unstable
 * StableHLO sort may order them either way, so this is one valid result).
 *
 * Scratch: the keys and the permutation of one lane, from malloc (host
 * memory, not the device arena: like a kernel's stack).
 */
#include "kernels_internal.h"
#include "elementwise_int.h"

#include <math.h>
#include <stdlib.h>

/* The total-order key of element i of a key array. */
static uint64_t order_key(ss_dtype dt, const void *data, int64_t i, bool canonical)
{
    ss__k_scalar s = ss__k_ew_load(dt, data, i);
    switch (ss__k_class_of(dt)) {
    case SS__K_CLASS_FLOAT: {
        double d = s.f;
        if (canonical && d == 0)
            d = 0.0;
        if (canonical && isnan(d))
            d = NAN;
        uint64_t b;
        memcpy(&b, &d, sizeof b);
        if (canonical && isnan(d))
            b &= ~(1ull << 63);
        return (b >> 63) ? ~b : b | (1ull << 63);
    }
    case SS__K_CLASS_SIGNED: return s.u ^ (1ull << 63);
    default: return s.u;
    }
}

/* One lane's sort state: keys[k * len + j], the permutation, scratch. */
typedef struct lane {
    int nkeys;
    int64_t len;
    uint64_t *keys;
    int64_t *perm, *tmp;
} lane;

/* a before b: lexicographic on the keys, then the original index. */
static bool before(const lane *l, int64_t a, int64_t b)
{
    for (int k = 0; k < l->nkeys; k++) {
        uint64_t x = l->keys[(int64_t)k * l->len + a], y = l->keys[(int64_t)k * l->len + b];
        if (x != y)
            return x < y;
    }
    return a < b;
}

/* Bottom-up merge sort of l->perm (O(len log len), stable by construction
 * and by the index tie-break). */
static void merge_sort(lane *l)
{
    int64_t n = l->len;
    int64_t *src = l->perm, *dst = l->tmp;
    for (int64_t w = 1; w < n; w *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * w) {
            int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int64_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi)
                dst[o++] = before(l, src[j], src[i]) ? src[j++] : src[i++];
            while (i < mid)
                dst[o++] = src[i++];
            while (j < hi)
                dst[o++] = src[j++];
        }
        int64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != l->perm)
        memcpy(l->perm, src, sizeof *src * (size_t)n);
}

ss_status ss__k_check_sort(const char *op, int n, const ss__tensor x[], int dim, int nkeys,
                           int which, ss_dtype out_dtype, int64_t k, const ss__tensor *out)
{
    if (n < 1 || nkeys < 1 || nkeys > n || which < 0 || which >= n)
        return ss__fail(SS_ERR_INVALID, "%s: %d operands, %d keys, result %d", op, n, nkeys,
                        which);
    ss_status st;
    for (int i = 0; i < n; i++) {
        if ((st = ss__k_check(op, "operand", &x[i], NULL)))
            return st;
        if ((st = ss__k_check_same_shape(op, "operand 0", &x[0], "operand", &x[i])))
            return st;
    }
    if ((st = ss__k_check(op, "out", out, NULL)))
        return st;
    if (dim < 0 || dim >= x[0].rank)
        return ss__fail(SS_ERR_INVALID, "%s: dimension %d is out of range for rank %d", op, dim,
                        x[0].rank);
    if (k < 0 || k > x[0].shape[dim])
        return ss__fail(SS_ERR_INVALID, "%s: k = %lld is outside 0..%lld", op, (long long)k,
                        (long long)x[0].shape[dim]);
    bool ok = out->rank == x[0].rank && out->dtype == out_dtype;
    for (int d = 0; ok && d < out->rank; d++)
        ok = out->shape[d] == (d == dim ? k : x[0].shape[d]);
    if (!ok)
        return ss__fail(SS_ERR_INVALID, "%s: result %s %s does not fit operand %s", op,
                        ss_dtype_name(out->dtype), ss__k_shape_text(out->rank, out->shape).s,
                        ss__k_shape_text(x[0].rank, x[0].shape).s);
    return SS_OK;
}

/* The permutation of each lane along dim; for each, writes out's lane
 * (first `keep` positions) from operand `which` (or the indices as i32 when
 * which < 0). */
static ss_status sort_lanes(const char *op, const ss__tensor x[], int dim, int nkeys,
                            unsigned desc, bool canonical, int which, int64_t keep,
                            ss__tensor *out)
{
    int64_t outer = 1, inner = 1, len = x[0].shape[dim];
    for (int d = 0; d < dim; d++)
        outer *= x[0].shape[d];
    for (int d = dim + 1; d < x[0].rank; d++)
        inner *= x[0].shape[d];
    if (outer * inner * len == 0 || keep == 0)
        return SS_OK;
    lane l = {nkeys, len, malloc(sizeof(uint64_t) * (size_t)(len * nkeys)),
              malloc(sizeof(int64_t) * (size_t)len), malloc(sizeof(int64_t) * (size_t)len)};
    if (!l.keys || !l.perm || !l.tmp) {
        free(l.keys), free(l.perm), free(l.tmp);
        return ss__fail(SS_ERR_NOMEM, "%s: no memory for a lane of %lld", op, (long long)len);
    }
    size_t es = which >= 0 ? ss_dtype_size(x[which].dtype) : 4;
    const unsigned char *src = which >= 0 ? x[which].data : NULL;
    unsigned char *dst = out->data;
    for (int64_t o = 0; o < outer; o++)
        for (int64_t in = 0; in < inner; in++) {
            int64_t base = o * len * inner + in;
            for (int k = 0; k < nkeys; k++)
                for (int64_t j = 0; j < len; j++) {
                    uint64_t key = order_key(x[k].dtype, x[k].data, base + j * inner, canonical);
                    l.keys[(int64_t)k * len + j] = (desc >> k) & 1u ? ~key : key;
                }
            for (int64_t j = 0; j < len; j++)
                l.perm[j] = j;
            merge_sort(&l);
            int64_t obase = o * keep * inner + in;
            for (int64_t j = 0; j < keep; j++) {
                unsigned char *d = dst + (size_t)(obase + j * inner) * es;
                if (which >= 0) {
                    memcpy(d, src + (size_t)(base + l.perm[j] * inner) * es, es);
                } else {
                    int32_t v = (int32_t)l.perm[j];
                    memcpy(d, &v, sizeof v);
                }
            }
        }
    free(l.keys), free(l.perm), free(l.tmp);
    return SS_OK;
}

ss_status ss__k_sort(int n, const ss__tensor x[], int dim, int nkeys, unsigned desc, int which,
                     ss__tensor *out)
{
    ss_status st = n >= 1 && which >= 0 && which < n
                       ? ss__k_check_sort("sort", n, x, dim, nkeys, which, x[which].dtype,
                                          x[0].shape[dim < 0 || dim >= x[0].rank ? 0 : dim], out)
                       : ss__fail(SS_ERR_INVALID, "sort: result %d of %d operands", which, n);
    return st ? st : sort_lanes("sort", x, dim, nkeys, desc, true, which, x[0].shape[dim], out);
}

ss_status ss__k_top_k(const ss__tensor *x, int64_t k, bool indices, ss__tensor *out)
{
    int dim = x->rank - 1;
    if (x->rank < 1)
        return ss__fail(SS_ERR_INVALID, "top_k: the operand is a scalar");
    ss_status st =
        ss__k_check_sort("top_k", 1, x, dim, 1, 0, indices ? SS_I32 : x->dtype, k, out);
    return st ? st : sort_lanes("top_k", x, dim, 1, 1u, false, indices ? -1 : 0, k, out);
}
