/*
 * spmd_internal.h — shared declarations of the sim/spmd layer (sharding
 * propagation, resharding, lowering).
 */
#ifndef SS_SPMD_INTERNAL_H
#define SS_SPMD_INTERNAL_H

#include "graph/graph.h"

/* The layout a reshape from in_shape to out_shape gives a value laid out
 * as `in` without moving data; false (out replicated) if none exists. */
bool ss__reshape_layout(const ss_mesh *mesh, int in_rank, const int64_t in_shape[],
                        const ss__layout *in, int out_rank, const int64_t out_shape[],
                        ss__layout *out);

#endif
