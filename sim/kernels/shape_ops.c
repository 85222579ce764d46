/*
 * shape_ops.c — transpose, reshape, broadcast_in_dim, slice, concatenate and
 * constant padding. They move elements and never look at their values, so
 * they work for every dtype and their results are exact.
 *
 * Every op is one strided copy: an index space walked by the output (or a
 * block of it) and by the input with per-dim element strides — permuted for
 * transpose, 0 for broadcast dims, scaled and offset for slice. The space is
 * coalesced first, so contiguous runs become one memcpy.
 *
 * Not here: lax.pad's negative and interior padding, gathers, dynamic
 * slices. Transposing copies go tile by tile (copy_transposing): the
 * import of JAX's lowered train steps transposes every weight gradient.
 */
#include "kernels_internal.h"

#include <stdio.h>

/* One plane of a transposing copy, in square tiles so that both sides
 * stay in cache: dst[i * dsi + j] = src[i + j * ssj] for i < ni, j < nj
 * (element offsets). A strided walk of the whole plane instead misses the
 * cache on every source element once a column outgrows L1 (a 1024x256 f32
 * transpose: about 5 ms walked, a tenth of that tiled). */
static void copy_plane_tiled(size_t es, int64_t ni, int64_t nj, unsigned char *dst, int64_t dsi,
                             const unsigned char *src, int64_t ssj)
{
    enum { TILE = 16 };
    for (int64_t i0 = 0; i0 < ni; i0 += TILE) {
        int64_t i1 = i0 + TILE < ni ? i0 + TILE : ni;
        for (int64_t j0 = 0; j0 < nj; j0 += TILE) {
            int64_t j1 = j0 + TILE < nj ? j0 + TILE : nj;
            switch (es) {
#define TILED(T)                                                                   \
    for (int64_t i = i0; i < i1; i++) {                                            \
        T *d = (T *)(void *)(dst + (size_t)(i * dsi) * sizeof(T));                 \
        const unsigned char *s = src + (size_t)i * sizeof(T);                      \
        for (int64_t j = j0; j < j1; j++)                                          \
            memcpy(&d[j], s + (size_t)(j * ssj) * sizeof(T), sizeof(T));          \
    }                                                                              \
    break
            case 1: TILED(uint8_t);
            case 2: TILED(uint16_t);
            case 4: TILED(uint32_t);
            case 8: TILED(uint64_t);
#undef TILED
            default:
                for (int64_t i = i0; i < i1; i++)
                    for (int64_t j = j0; j < j1; j++)
                        memcpy(dst + (size_t)(i * dsi + j) * es, src + (size_t)(i + j * ssj) * es,
                               es);
            }
        }
    }
}

/* The transposing case of copy_nd (coalesced space of rank r): the
 * destination is contiguous along the last dim and the source along an
 * earlier dim q. Walks the other dims in order and copies each (q, last)
 * plane in tiles. A broadcast along the last dim (source stride 0) is not
 * a transpose: copy_nd splats it. False (nothing copied) when the space is not of that
 * form or its planes are too small for tiles to pay. */
static bool copy_transposing(size_t es, int r, const int64_t sh[], int64_t st[2][SS_MAX_RANK],
                             unsigned char *dst, const unsigned char *src)
{
    if (r < 2 || st[0][r - 1] != 1 || st[1][r - 1] == 1 || st[1][r - 1] == 0 || sh[r - 1] < 8)
        return false;
    int q = -1;
    for (int d = 0; d < r - 1; d++)
        if (st[1][d] == 1 && sh[d] >= 8)
            q = d;
    if (q < 0)
        return false;
    int64_t osh[SS_MAX_RANK], ost[2][SS_MAX_RANK];
    int n = 0;
    for (int d = 0; d < r - 1; d++)
        if (d != q) {
            osh[n] = sh[d];
            ost[0][n] = st[0][d];
            ost[1][n] = st[1][d];
            n++;
        }
    int64_t idx[SS_MAX_RANK] = {0}, off[2] = {0, 0};
    do
        copy_plane_tiled(es, sh[q], sh[r - 1], dst + (size_t)off[0] * es, st[0][q],
                         src + (size_t)off[1] * es, st[1][r - 1]);
    while (n > 0 && ss__k_step(n, osh, idx, 2, ost, off));
    return true;
}

/* dst[0 .. n) = n copies of the element at src (a broadcast along the
 * innermost dim: softmax's row maxima, layer norm's means). One value
 * stored in a loop that vectorises; the same bytes as element-wise
 * memcpy. False for element sizes other than 2, 4 and 8. */
static bool splat_run(size_t es, int64_t n, unsigned char *dst, const unsigned char *src)
{
    switch (es) {
#define SPLAT(T)                                                                \
    do {                                                                        \
        T v, *d = (T *)(void *)dst;                                             \
        memcpy(&v, src, sizeof v);                                              \
        for (int64_t i = 0; i < n; i++)                                         \
            d[i] = v;                                                           \
    } while (0)
    case 2: SPLAT(uint16_t); return true;
    case 4: SPLAT(uint32_t); return true;
    case 8: SPLAT(uint64_t); return true;
#undef SPLAT
    default: return false;
    }
}

/* Copy the index space `shape` from src (element strides sst) to dst
 * (element strides dst_st); `es` bytes per element. The space is not empty.
 * Exact for every dtype whatever path it takes: each element is moved, not
 * computed (tests compare with ss__k_ref_transpose and friends). */
static void copy_nd(size_t es, int rank, const int64_t shape[], unsigned char *dst,
                    const int64_t dst_st[], const unsigned char *src, const int64_t src_st[])
{
    int64_t sh[SS_MAX_RANK], st[2][SS_MAX_RANK];
    for (int d = 0; d < rank; d++) {
        sh[d] = shape[d];
        st[0][d] = dst_st[d];
        st[1][d] = src_st[d];
    }
    int r = ss__k_coalesce(rank, sh, 2, st);
    if (copy_transposing(es, r, sh, st, dst, src))
        return;
    int64_t inner = sh[r - 1], di = st[0][r - 1], si = st[1][r - 1];
    int64_t idx[SS_MAX_RANK] = {0}, off[2] = {0, 0};
    do {
        unsigned char *d = dst + (size_t)off[0] * es;
        const unsigned char *s = src + (size_t)off[1] * es;
        if (di == 1 && si == 1) {
            memcpy(d, s, (size_t)inner * es);
            continue;
        }
        if (di == 1 && si == 0 && splat_run(es, inner, d, s))
            continue;
        switch (es) {
#define STRIDED(T)                                                              \
    for (int64_t i = 0; i < inner; i++)                                         \
        memcpy(d + (size_t)(i * di) * sizeof(T), s + (size_t)(i * si) * sizeof(T), \
               sizeof(T));                                                      \
    break
        case 1: STRIDED(uint8_t);
        case 2: STRIDED(uint16_t);
        case 4: STRIDED(uint32_t);
        case 8: STRIDED(uint64_t);
#undef STRIDED
        default:
            for (int64_t i = 0; i < inner; i++)
                memcpy(d + (size_t)(i * di) * es, s + (size_t)(i * si) * es, es);
        }
    } while (ss__k_step(r - 1, sh, idx, 2, st, off));
}

static ss_status check_pair(const char *op, const ss__tensor *x, const ss__tensor *out,
                            int64_t *nout)
{
    ss_status st = ss__k_check(op, "input", x, NULL);
    if (!st)
        st = ss__k_check(op, "output", out, nout);
    if (st)
        return st;
    if (x->dtype != out->dtype)
        return ss__fail(SS_ERR_INVALID, "%s: output dtype %s differs from input dtype %s", op,
                        ss_dtype_name(out->dtype), ss_dtype_name(x->dtype));
    return SS_OK;
}

/* --- transpose --- */

ss_status ss__k_check_transpose(const ss__tensor *x, const int perm[], const ss__tensor *out)
{
    ss_status st = check_pair("transpose", x, out, NULL);
    if (st)
        return st;
    if (x->rank > 0 && !perm)
        return ss__fail(SS_ERR_INVALID, "transpose: perm is missing");
    bool seen[SS_MAX_RANK] = {false};
    ss__tensor want = {.dtype = x->dtype, .rank = x->rank};
    for (int i = 0; i < x->rank; i++) {
        if (perm[i] < 0 || perm[i] >= x->rank || seen[perm[i]])
            return ss__fail(SS_ERR_INVALID,
                            "transpose: perm is not a permutation of 0..%d (entry %d is %d)",
                            x->rank - 1, i, perm[i]);
        seen[perm[i]] = true;
        want.shape[i] = x->shape[perm[i]];
    }
    return ss__k_check_same_shape("transpose", "permuted", &want, "output", out);
}

ss_status ss__k_transpose(const ss__tensor *x, const int perm[], ss__tensor *out)
{
    ss_status st = ss__k_check_transpose(x, perm, out);
    if (st)
        return st;
    if (ss__k_numel(out) == 0)
        return SS_OK;
    int64_t xs[SS_MAX_RANK], os[SS_MAX_RANK], ps[SS_MAX_RANK];
    ss__k_strides(x->rank, x->shape, xs);
    ss__k_strides(out->rank, out->shape, os);
    for (int i = 0; i < x->rank; i++)
        ps[i] = xs[perm[i]];
    copy_nd(ss_dtype_size(x->dtype), out->rank, out->shape, out->data, os, x->data, ps);
    return SS_OK;
}

/* --- reshape --- */

ss_status ss__k_reshape(const ss__tensor *x, ss__tensor *out)
{
    int64_t nx, nout;
    ss_status st = check_pair("reshape", x, out, &nout);
    if (st)
        return st;
    nx = ss__k_numel(x);
    if (nx != nout)
        return ss__fail(SS_ERR_INVALID, "reshape: cannot reshape %s (%lld elements) to %s",
                        ss__k_shape_text(x->rank, x->shape).s, (long long)nx,
                        ss__k_shape_text(out->rank, out->shape).s);
    if (nout > 0 && out->data != x->data)
        memmove(out->data, x->data, (size_t)nout * ss_dtype_size(x->dtype));
    return SS_OK;
}

/* --- broadcast_in_dim --- */

ss_status ss__k_check_broadcast_in_dim(const ss__tensor *x, const int dims[],
                                       const ss__tensor *out)
{
    const char *op = "broadcast_in_dim";
    ss_status st = check_pair(op, x, out, NULL);
    if (st)
        return st;
    if (x->rank > out->rank)
        return ss__fail(SS_ERR_INVALID, "%s: input rank %d exceeds output rank %d", op, x->rank,
                        out->rank);
    if (x->rank > 0 && !dims)
        return ss__fail(SS_ERR_INVALID, "%s: dims are missing", op);
    for (int i = 0; i < x->rank; i++) {
        if (dims[i] < 0 || dims[i] >= out->rank || (i > 0 && dims[i] <= dims[i - 1]))
            return ss__fail(SS_ERR_INVALID,
                            "%s: dims must be strictly increasing in [0, %d) (entry %d is %d)",
                            op, out->rank, i, dims[i]);
        if (x->shape[i] != 1 && x->shape[i] != out->shape[dims[i]])
            return ss__fail(SS_ERR_INVALID,
                            "%s: input dim %d has size %lld, output dim %d has size %lld "
                            "(input %s, output %s)",
                            op, i, (long long)x->shape[i], dims[i],
                            (long long)out->shape[dims[i]], ss__k_shape_text(x->rank, x->shape).s,
                            ss__k_shape_text(out->rank, out->shape).s);
    }
    return SS_OK;
}

ss_status ss__k_broadcast_in_dim(const ss__tensor *x, const int dims[], ss__tensor *out)
{
    ss_status st = ss__k_check_broadcast_in_dim(x, dims, out);
    if (st)
        return st;
    if (ss__k_numel(out) == 0 || (out->data == x->data && ss__k_numel(out) == ss__k_numel(x)))
        return SS_OK; /* a bitcast in place (unit dims added): the same bytes */
    int64_t xs[SS_MAX_RANK], os[SS_MAX_RANK], src[SS_MAX_RANK] = {0};
    ss__k_strides(x->rank, x->shape, xs);
    ss__k_strides(out->rank, out->shape, os);
    for (int i = 0; i < x->rank; i++)
        src[dims[i]] = x->shape[i] == 1 ? 0 : xs[i];
    copy_nd(ss_dtype_size(x->dtype), out->rank, out->shape, out->data, os, x->data, src);
    return SS_OK;
}

/* --- slice --- */

ss_status ss__k_check_slice(const ss__tensor *x, const int64_t start[], const int64_t limit[],
                            const int64_t stride[], const ss__tensor *out)
{
    ss_status st = check_pair("slice", x, out, NULL);
    if (st)
        return st;
    if (x->rank > 0 && (!start || !limit))
        return ss__fail(SS_ERR_INVALID, "slice: start or limit is missing");
    ss__tensor want = {.dtype = x->dtype, .rank = x->rank};
    for (int d = 0; d < x->rank; d++) {
        int64_t s = stride ? stride[d] : 1;
        if (start[d] < 0 || start[d] > limit[d] || limit[d] > x->shape[d] || s < 1)
            return ss__fail(SS_ERR_INVALID,
                            "slice: dim %d: start %lld, limit %lld, stride %lld invalid for "
                            "size %lld",
                            d, (long long)start[d], (long long)limit[d], (long long)s,
                            (long long)x->shape[d]);
        want.shape[d] = (limit[d] - start[d] + s - 1) / s;
    }
    return ss__k_check_same_shape("slice", "sliced", &want, "output", out);
}

ss_status ss__k_slice(const ss__tensor *x, const int64_t start[], const int64_t limit[],
                      const int64_t stride[], ss__tensor *out)
{
    ss_status st = ss__k_check_slice(x, start, limit, stride, out);
    if (st)
        return st;
    if (ss__k_numel(out) == 0)
        return SS_OK;
    int64_t xs[SS_MAX_RANK], os[SS_MAX_RANK], src[SS_MAX_RANK], base = 0;
    ss__k_strides(x->rank, x->shape, xs);
    ss__k_strides(out->rank, out->shape, os);
    for (int d = 0; d < x->rank; d++) {
        src[d] = xs[d] * (stride ? stride[d] : 1);
        base += start[d] * xs[d];
    }
    size_t es = ss_dtype_size(x->dtype);
    copy_nd(es, out->rank, out->shape, out->data, os,
            (const unsigned char *)x->data + (size_t)base * es, src);
    return SS_OK;
}

/* --- concatenate --- */

ss_status ss__k_check_concatenate(int n, const ss__tensor xs[], int axis, const ss__tensor *out)
{
    const char *op = "concatenate";
    if (n < 1 || !xs)
        return ss__fail(SS_ERR_INVALID, "%s: needs at least one input (got %d)", op, n);
    ss_status st = ss__k_check(op, "output", out, NULL);
    int ax = 0;
    if (!st)
        st = ss__k_norm_axis(op, axis, out->rank, &ax);
    if (st)
        return st;
    if (out->rank == 0)
        return ss__fail(SS_ERR_INVALID, "%s: cannot concatenate scalars", op);
    int64_t total = 0;
    for (int k = 0; k < n; k++) {
        char what[32];
        snprintf(what, sizeof what, "input %d", k);
        st = ss__k_check(op, what, &xs[k], NULL);
        if (st)
            return st;
        if (xs[k].dtype != out->dtype)
            return ss__fail(SS_ERR_INVALID, "%s: %s has dtype %s but the output has %s", op, what,
                            ss_dtype_name(xs[k].dtype), ss_dtype_name(out->dtype));
        bool ok = xs[k].rank == out->rank;
        for (int d = 0; ok && d < out->rank; d++)
            ok = d == ax || xs[k].shape[d] == out->shape[d];
        if (!ok)
            return ss__fail(SS_ERR_INVALID,
                            "%s: %s has shape %s, which does not fit output %s along axis %d",
                            op, what, ss__k_shape_text(xs[k].rank, xs[k].shape).s,
                            ss__k_shape_text(out->rank, out->shape).s, ax);
        total += xs[k].shape[ax];
    }
    if (total != out->shape[ax])
        return ss__fail(SS_ERR_INVALID, "%s: inputs add up to %lld along axis %d, output has %lld",
                        op, (long long)total, ax, (long long)out->shape[ax]);
    return SS_OK;
}

ss_status ss__k_concatenate(int n, const ss__tensor xs[], int axis, ss__tensor *out)
{
    ss_status st = ss__k_check_concatenate(n, xs, axis, out);
    if (st)
        return st;
    int ax = axis < 0 ? axis + out->rank : axis;
    int64_t os[SS_MAX_RANK], xstr[SS_MAX_RANK];
    ss__k_strides(out->rank, out->shape, os);
    size_t es = ss_dtype_size(out->dtype);
    int64_t at = 0;
    for (int k = 0; k < n; k++) {
        if (ss__k_numel(&xs[k]) > 0) {
            ss__k_strides(xs[k].rank, xs[k].shape, xstr);
            copy_nd(es, out->rank, xs[k].shape,
                    (unsigned char *)out->data + (size_t)(at * os[ax]) * es, os, xs[k].data,
                    xstr);
        }
        at += xs[k].shape[ax];
    }
    return SS_OK;
}

/* --- pad --- */

ss_status ss__k_check_pad(const ss__tensor *x, const int64_t lo[], const int64_t hi[],
                          const ss__tensor *out)
{
    ss_status st = check_pair("pad", x, out, NULL);
    if (st)
        return st;
    if (x->rank > 0 && (!lo || !hi))
        return ss__fail(SS_ERR_INVALID, "pad: lo or hi is missing");
    ss__tensor want = {.dtype = x->dtype, .rank = x->rank};
    for (int d = 0; d < x->rank; d++) {
        if (lo[d] < 0 || hi[d] < 0)
            return ss__fail(SS_ERR_INVALID, "pad: dim %d: negative padding (lo %lld, hi %lld)", d,
                            (long long)lo[d], (long long)hi[d]);
        want.shape[d] = lo[d] + x->shape[d] + hi[d];
    }
    return ss__k_check_same_shape("pad", "padded", &want, "output", out);
}

/* `value` as one element of dt in out[0..size). */
static void encode_value(ss_dtype dt, double value, unsigned char out[8])
{
    double c = value != value ? 0.0 : value;
    switch (dt) {
    case SS_F32: { float f = (float)value; memcpy(out, &f, 4); break; }
    case SS_F64: memcpy(out, &value, 8); break;
    case SS_BF16: { uint16_t h = ss__f32_to_bf16((float)value); memcpy(out, &h, 2); break; }
    case SS_F16: { uint16_t h = ss__f32_to_f16((float)value); memcpy(out, &h, 2); break; }
    case SS_I32: {
        int32_t v = c >= 2147483647.0 ? INT32_MAX : c <= -2147483648.0 ? INT32_MIN : (int32_t)c;
        memcpy(out, &v, 4);
        break;
    }
    case SS_I64: {
        int64_t v = c >= 9223372036854775807.0 ? INT64_MAX
                    : c <= -9223372036854775808.0 ? INT64_MIN : (int64_t)c;
        memcpy(out, &v, 8);
        break;
    }
    case SS_I8: out[0] = (unsigned char)(int8_t)(c >= 127 ? 127 : c <= -128 ? -128 : (int)c); break;
    case SS_U8: out[0] = (unsigned char)(c >= 255 ? 255 : c <= 0 ? 0 : (int)c); break;
    case SS_BOOL: out[0] = (unsigned char)(value != 0.0); break;
    default: memset(out, 0, 8); break;
    }
}

void ss__k_fill_outside(ss__tensor *x, const int64_t valid[], double value)
{
    int64_t n = ss__k_numel(x);
    bool all = true;
    for (int d = 0; d < x->rank; d++)
        all = all && valid[d] >= x->shape[d];
    if (n == 0 || all)
        return;
    size_t es = ss_dtype_size(x->dtype);
    unsigned char v[8], *o = x->data;
    encode_value(x->dtype, value, v);
    int64_t idx[SS_MAX_RANK] = {0};
    for (int64_t i = 0; i < n; i++) {
        bool outside = false;
        for (int d = 0; d < x->rank && !outside; d++)
            outside = idx[d] >= valid[d];
        if (outside)
            memcpy(o + (size_t)i * es, v, es);
        for (int d = x->rank - 1; d >= 0; d--) {
            if (++idx[d] < x->shape[d])
                break;
            idx[d] = 0;
        }
    }
}

ss_status ss__k_pad(const ss__tensor *x, const int64_t lo[], const int64_t hi[], double value,
                    ss__tensor *out)
{
    ss_status st = ss__k_check_pad(x, lo, hi, out);
    if (st)
        return st;
    int64_t nout = ss__k_numel(out);
    if (nout == 0)
        return SS_OK;
    size_t es = ss_dtype_size(out->dtype);
    unsigned char v[8];
    encode_value(out->dtype, value, v);
    unsigned char *o = out->data;
    for (int64_t i = 0; i < nout; i++)
        memcpy(o + (size_t)i * es, v, es);
    if (ss__k_numel(x) == 0)
        return SS_OK;
    int64_t os[SS_MAX_RANK], xs[SS_MAX_RANK], base = 0;
    ss__k_strides(out->rank, out->shape, os);
    ss__k_strides(x->rank, x->shape, xs);
    for (int d = 0; d < x->rank; d++)
        base += lo[d] * os[d];
    copy_nd(es, x->rank, x->shape, o + (size_t)base * es, os, x->data, xs);
    return SS_OK;
}
