/*
 * coll_internal.h — what the threaded collectives (collectives.c), their
 * descriptors (coll_desc.c) and the naive reference (collectives_ref.c)
 * share: group sizes, element counts and 16-bit float conversions.
 */
#ifndef SS_DEVICE_COLL_INTERNAL_H
#define SS_DEVICE_COLL_INTERNAL_H

#include "device_internal.h"

#include <string.h>

#if defined(__FLT16_MAX__) && !defined(__cplusplus)
#define SS__HAVE_F16 1
#endif

/* Group size of `c` (validates the axes and index groups). */
ss_status ss__coll_group_size(const ss_coll *c, int *gsize);
/* Product of the dims. */
size_t ss__shape_elems(int rank, const int64_t shape[]);

/* bfloat16 <-> float, round to nearest even (NaN stays NaN). */
static inline float ss__bf16_to_f32(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint16_t ss__f32_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

#ifdef SS__HAVE_F16
static inline float ss__f16_to_f32(uint16_t h)
{
    _Float16 v;
    memcpy(&v, &h, 2);
    return (float)v;
}

static inline uint16_t ss__f32_to_f16(float f)
{
    _Float16 v = (_Float16)f;
    uint16_t h;
    memcpy(&h, &v, 2);
    return h;
}
#endif

/* Naive reference: compute the output of every device of `c`'s mesh from
 * every device's input, one group and one element at a time. in[i] and
 * out[i] are indexed by mesh position. */
ss_status ss__coll_reference(const ss_coll *c, const void *const in[], void *const out[]);

#endif
