/*
 * coll_internal.h — what the threaded collectives (collectives.c), their
 * descriptors (coll_desc.c) and the naive reference (collectives_ref.c)
 * share: group sizes and element counts.
 */
#ifndef SS_DEVICE_COLL_INTERNAL_H
#define SS_DEVICE_COLL_INTERNAL_H

#include "device_internal.h"

#include "base/half.h"

#include <string.h>

#if defined(__FLT16_MAX__) && !defined(__cplusplus)
#define SS__HAVE_F16 1
#endif

/* Group size of `c` (validates the axes and index groups). */
ss_status ss__coll_group_size(const ss_coll *c, int *gsize);
/* Product of the dims. */
size_t ss__shape_elems(int rank, const int64_t shape[]);

/* The 16-bit conversions are base/half.h's. */

/* Naive reference: compute the output of every device of `c`'s mesh from
 * every device's input, one group and one element at a time. in[i] and
 * out[i] are indexed by mesh position. */
ss_status ss__coll_reference(const ss_coll *c, const void *const in[], void *const out[]);

#endif
