/*
 * collectives_ref.c — the naive reference for every collective: one thread,
 * one output element at a time, straight from the definitions in
 * docs/semantics.md section 8. Tests compare the threaded collectives
 * with it bit for bit. It shares only the descriptor logic (shapes, groups)
 * and the 16-bit float conversions with the fast path; speed is not a goal.
 */
#include "coll_internal.h"

#include <math.h>

/* One element of any dtype, widened for the arithmetic below. */
typedef union elem {
    float f32;
    double f64;
    int64_t i;
    uint16_t h;
} elem;

static elem load(ss_dtype dt, const unsigned char *p)
{
    elem e = {.i = 0};
    switch (dt) {
    case SS_F32: memcpy(&e.f32, p, 4); break;
    case SS_F64: memcpy(&e.f64, p, 8); break;
    case SS_I32: { int32_t v; memcpy(&v, p, 4); e.i = v; break; }
    case SS_I64: memcpy(&e.i, p, 8); break;
    case SS_I8: e.i = (int8_t)*p; break;
    case SS_U8: case SS_BOOL: e.i = *p; break;
    case SS_I16: { int16_t v; memcpy(&v, p, 2); e.i = v; break; }
    case SS_U16: { uint16_t v; memcpy(&v, p, 2); e.i = v; break; }
    case SS_U32: { uint32_t v; memcpy(&v, p, 4); e.i = v; break; }
    case SS_U64: memcpy(&e.i, p, 8); break; /* compared as unsigned in apply() */
    case SS_BF16: case SS_F16: memcpy(&e.h, p, 2); break;
    default: break;
    }
    return e;
}

static void store(ss_dtype dt, unsigned char *p, elem e)
{
    switch (dt) {
    case SS_F32: memcpy(p, &e.f32, 4); break;
    case SS_F64: memcpy(p, &e.f64, 8); break;
    case SS_I32: { int32_t v = (int32_t)(uint32_t)(uint64_t)e.i; memcpy(p, &v, 4); break; }
    case SS_I64: memcpy(p, &e.i, 8); break;
    case SS_I8: case SS_U8: case SS_BOOL: *p = (unsigned char)(uint64_t)e.i; break;
    case SS_I16: case SS_U16: { uint16_t v = (uint16_t)(uint64_t)e.i; memcpy(p, &v, 2); break; }
    case SS_U32: { uint32_t v = (uint32_t)(uint64_t)e.i; memcpy(p, &v, 4); break; }
    case SS_U64: memcpy(p, &e.i, 8); break;
    case SS_BF16: case SS_F16: memcpy(p, &e.h, 2); break;
    default: break;
    }
}

static float to32(ss_dtype dt, uint16_t h)
{
#ifdef SS__HAVE_F16
    if (dt == SS_F16)
        return ss__f16_to_f32(h);
#endif
    (void)dt;
    return ss__bf16_to_f32(h);
}

static uint16_t to16(ss_dtype dt, float f)
{
#ifdef SS__HAVE_F16
    if (dt == SS_F16)
        return ss__f32_to_f16(f);
#endif
    (void)dt;
    return ss__f32_to_bf16(f);
}

static elem identity(ss_dtype dt, ss_reduce_op op)
{
    elem e = {.i = 0};
    int sgn = op == SS_REDUCE_MAX ? -1 : op == SS_REDUCE_MIN ? 1 : 0;
    switch (dt) {
    case SS_F32: e.f32 = sgn ? (float)sgn * INFINITY : 0.0f; break;
    case SS_F64: e.f64 = sgn ? (double)sgn * INFINITY : 0.0; break;
    case SS_BF16: case SS_F16: e.h = sgn ? to16(dt, (float)sgn * INFINITY) : 0; break;
    case SS_I32: e.i = sgn < 0 ? INT32_MIN : sgn > 0 ? INT32_MAX : 0; break;
    case SS_I64: e.i = sgn < 0 ? INT64_MIN : sgn > 0 ? INT64_MAX : 0; break;
    case SS_I8: e.i = sgn < 0 ? INT8_MIN : sgn > 0 ? INT8_MAX : 0; break;
    case SS_U8: e.i = sgn > 0 ? UINT8_MAX : 0; break;
    case SS_I16: e.i = sgn < 0 ? INT16_MIN : sgn > 0 ? INT16_MAX : 0; break;
    case SS_U16: e.i = sgn > 0 ? UINT16_MAX : 0; break;
    case SS_U32: e.i = sgn > 0 ? (int64_t)UINT32_MAX : 0; break;
    case SS_U64: e.i = sgn > 0 ? -1 : 0; break; /* all bits: UINT64_MAX */
    default: break;
    }
    return e;
}

/* Wrap an integer sum to the dtype's width. */
static int64_t wrap(ss_dtype dt, uint64_t v)
{
    switch (dt) {
    case SS_I32: return (int32_t)(uint32_t)v;
    case SS_I8: return (int8_t)(uint8_t)v;
    case SS_U8: return (uint8_t)v;
    case SS_I16: return (int16_t)(uint16_t)v;
    case SS_U16: return (uint16_t)v;
    case SS_U32: return (uint32_t)v;
    default: return (int64_t)v;
    }
}

/* std::max(a, b) / std::min(a, b) / a + b, in the dtype's arithmetic;
 * a float max or min with a NaN is NaN (XLA's maximum and minimum). */
static elem apply(ss_dtype dt, ss_reduce_op op, elem a, elem b)
{
    bool mx = op == SS_REDUCE_MAX, mn = op == SS_REDUCE_MIN;
    switch (dt) {
    case SS_F32:
        a.f32 = mx   ? (a.f32 < b.f32 || b.f32 != b.f32 ? b.f32 : a.f32)
                : mn ? (b.f32 < a.f32 || b.f32 != b.f32 ? b.f32 : a.f32)
                     : a.f32 + b.f32;
        break;
    case SS_F64:
        a.f64 = mx   ? (a.f64 < b.f64 || b.f64 != b.f64 ? b.f64 : a.f64)
                : mn ? (b.f64 < a.f64 || b.f64 != b.f64 ? b.f64 : a.f64)
                     : a.f64 + b.f64;
        break;
    case SS_BF16: case SS_F16: {
        float x = to32(dt, a.h), y = to32(dt, b.h);
        if (mx)
            a.h = x < y || y != y ? b.h : a.h;
        else if (mn)
            a.h = y < x || y != y ? b.h : a.h;
        else
            a.h = to16(dt, x + y);
        break;
    }
    case SS_U64: {
        uint64_t x = (uint64_t)a.i, y = (uint64_t)b.i;
        a.i = (int64_t)(mx ? (x < y ? y : x) : mn ? (y < x ? y : x) : x + y);
        break;
    }
    default:
        a.i = mx ? (a.i < b.i ? b.i : a.i) : mn ? (b.i < a.i ? b.i : a.i)
                                                : wrap(dt, (uint64_t)a.i + (uint64_t)b.i);
        break;
    }
    return a;
}

static elem mean(ss_dtype dt, elem s, int G)
{
    elem e = {.i = 0};
    switch (dt) {
    case SS_F32: e.f32 = s.f32 / (float)G; break;
    case SS_F64: e.f64 = s.f64 / (double)G; break;
    case SS_BF16: case SS_F16: e.h = to16(dt, to32(dt, s.h) / (float)G); break;
    case SS_U64: e.f32 = (float)(double)(uint64_t)s.i / (float)G; break;
    default: e.f32 = (float)(double)s.i / (float)G; break;
    }
    return e;
}

/* Row-major offset of a multi-index. */
static size_t offset_of(int rank, const int64_t shape[], const int64_t idx[])
{
    size_t off = 0;
    for (int d = 0; d < rank; d++)
        off = off * (size_t)shape[d] + (size_t)idx[d];
    return off;
}

static void unravel(size_t e, int rank, const int64_t shape[], int64_t idx[])
{
    for (int d = rank - 1; d >= 0; d--) {
        idx[d] = shape[d] ? (int64_t)(e % (size_t)shape[d]) : 0;
        e = shape[d] ? e / (size_t)shape[d] : 0;
    }
}

ss_status ss__coll_reference(const ss_coll *c, const void *const in[], void *const out[])
{
    ss_dtype odt;
    int orank;
    int64_t oshape[SS_MAX_RANK];
    ss_status st = ss_coll_output(c, &odt, &orank, oshape);
    if (st)
        return st;
    const ss_mesh *m = c->mesh;
    int n = ss_mesh_device_count(m);
    int members[SS_MAX_DEVICES], G, r;
    size_t es = ss_dtype_size(c->dtype), os = ss_dtype_size(odt);
    size_t ocount = ss__shape_elems(orank, oshape);
    const int64_t *S = c->shape;
    for (int p = 0; p < n; p++) {
        st = ss_coll_group(c, ss_mesh_device_id(m, p), members, SS_MAX_DEVICES, &G, &r);
        if (st)
            return st;
        const unsigned char *src[SS_MAX_DEVICES];
        for (int g = 0; g < G; g++)
            src[g] = in[ss_mesh_position_of(m, members[g])];
        unsigned char *dst = out[p];
        for (size_t e = 0; e < ocount; e++) {
            int64_t o[SS_MAX_RANK + 1], i[SS_MAX_RANK + 1];
            unravel(e, orank, oshape, o);
            int from = -1; /* source rank for pure data movement */
            switch (c->kind) {
            case SS_COLL_ALL_REDUCE:
            case SS_COLL_REDUCE_SCATTER: {
                memcpy(i, o, sizeof o);
                if (c->kind == SS_COLL_REDUCE_SCATTER) {
                    int a = c->axis;
                    if (c->tiled) {
                        i[a] = (int64_t)r * (S[a] / G) + o[a];
                    } else {
                        for (int d = c->rank - 1; d > a; d--)
                            i[d] = o[d - 1];
                        i[a] = r;
                    }
                }
                size_t off = offset_of(c->rank, S, i) * es;
                elem acc = identity(c->dtype, c->op);
                for (int g = 0; g < G; g++)
                    acc = apply(c->dtype, c->op, acc, load(c->dtype, src[g] + off));
                if (c->op == SS_REDUCE_MEAN)
                    acc = mean(c->dtype, acc, G);
                store(odt, dst + e * os, acc);
                continue;
            }
            case SS_COLL_ALL_GATHER: {
                int a = c->axis < 0 ? c->axis + c->rank + (c->tiled ? 0 : 1) : c->axis;
                memcpy(i, o, sizeof o);
                if (c->tiled) {
                    from = (int)(o[a] / S[a]);
                    i[a] = o[a] % S[a];
                } else {
                    from = (int)o[a];
                    for (int d = a; d < c->rank; d++)
                        i[d] = o[d + 1];
                }
                break;
            }
            case SS_COLL_ALL_TO_ALL: {
                int sp = c->split_axis, ca = c->concat_axis;
                if (c->tiled) {
                    int64_t ext = oshape[ca] / G;
                    memcpy(i, o, sizeof o);
                    from = (int)(o[ca] / ext);
                    i[ca] = o[ca] % ext;
                    i[sp] += (int64_t)r * (S[sp] / G);
                } else {
                    int64_t t[SS_MAX_RANK];
                    from = (int)o[ca];
                    int k = 0;
                    for (int d = 0; d < orank; d++)
                        if (d != ca)
                            t[k++] = o[d];
                    for (int d = 0, j = 0; d < c->rank; d++)
                        i[d] = d == sp ? r : t[j++];
                }
                break;
            }
            case SS_COLL_PERMUTE:
                for (int q = 0; q < c->npairs; q++)
                    if (c->pairs[q][1] == r)
                        from = c->pairs[q][0];
                memcpy(i, o, sizeof o);
                if (from < 0) {
                    memset(dst + e * os, 0, os);
                    continue;
                }
                break;
            case SS_COLL_BROADCAST:
                from = c->root;
                memcpy(i, o, sizeof o);
                break;
            case SS_COLL_KIND_COUNT:
                continue;
            }
            memcpy(dst + e * os, src[from] + offset_of(c->rank, S, i) * es, es);
        }
    }
    return SS_OK;
}
