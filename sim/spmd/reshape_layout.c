/*
 * reshape_layout.c — how a sharding passes through a reshape (XLA's
 * ReshapeSharding, in mesh-axis form).
 *
 * Source and target dims are cut into groups whose sizes multiply to the
 * same number (size-1 dims join no group). Inside a group the source dims
 * are first merged: the merged dim is tiled by their axes concatenated,
 * which is a contiguous tiling only if no sharded dim follows a dim whose
 * shard holds more than one row. The merged dim is then split over the
 * target dims: each target dim takes the longest prefix of the remaining
 * axes whose size product divides it, and must take all of them if that
 * product does not reach it exactly. What does not decompose that way has
 * no sharding that keeps data in place (XLA would have to move data; so
 * would we). A dim that is its own group keeps its axes, divided or not
 * (uneven shards, as XLA keeps them).
 */
#include "spmd_internal.h"

bool ss__reshape_layout(const ss_mesh *mesh, int in_rank, const int64_t in_shape[],
                        const ss__layout *in, int out_rank, const int64_t out_shape[],
                        ss__layout *out)
{
    ss__layout_replicated(out, out_rank);
    int i = 0, j = 0;
    while (i < in_rank || j < out_rank) {
        /* Skip size-1 dims: their tiling (if any) becomes replication. */
        if (i < in_rank && in_shape[i] == 1) {
            i++;
            continue;
        }
        if (j < out_rank && out_shape[j] == 1) {
            j++;
            continue;
        }
        if (i >= in_rank || j >= out_rank)
            return false;
        int i0 = i, j0 = j;
        int64_t pi = in_shape[i++], pj = out_shape[j++];
        while (pi != pj) {
            if (pi < pj) {
                if (i >= in_rank)
                    return false;
                pi *= in_shape[i++];
            } else {
                if (j >= out_rank)
                    return false;
                pj *= out_shape[j++];
            }
        }
        /* One dim kept as it is: its tiling passes unchanged, even one
         * that does not divide it (an uneven shard: XLA's compiled text of
         * u_reshape keeps P('x') on f32[6,4] -> [6,2,2]). */
        if (i - i0 == 1 && j - j0 == 1) {
            out->n[j0] = in->n[i0];
            for (int k = 0; k < in->n[i0]; k++)
                out->ax[j0][k] = in->ax[i0][k];
            continue;
        }
        /* Merge source dims i0..i-1 into one axis list. */
        int8_t axes[SS_MAX_AXES];
        int naxes = 0;
        bool blocked = false; /* a dim with shard size > 1 was sharded */
        for (int d = i0; d < i; d++) {
            if (in->n[d] == 0) {
                if (in_shape[d] > 1)
                    blocked = true; /* a later sharded dim would be strided */
                continue;
            }
            int64_t tiles = ss__layout_dim_tiles(in, mesh, d);
            if (blocked || in_shape[d] % tiles != 0)
                return false;
            for (int k = 0; k < in->n[d]; k++)
                axes[naxes++] = in->ax[d][k];
            if (in_shape[d] / tiles > 1)
                blocked = true;
        }
        /* Split over target dims j0..j-1. */
        int next = 0;
        for (int d = j0; d < j && next < naxes; d++) {
            if (out_shape[d] == 1)
                continue;
            int64_t prod = 1;
            while (next < naxes && out_shape[d] % (prod * mesh->sizes[axes[next]]) == 0) {
                prod *= mesh->sizes[axes[next]];
                out->ax[d][out->n[d]++] = axes[next++];
                if (prod == out_shape[d])
                    break;
            }
            if (next < naxes && prod != out_shape[d])
                return false; /* axes left over but this dim is not fully split */
        }
        if (next < naxes)
            return false;
    }
    return true;
}
