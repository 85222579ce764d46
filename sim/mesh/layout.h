/*
 * layout.h — a sharding in mesh-axis form, the shape the partitioner reasons
 * in: for each array dim, the ordered list of mesh axis indices that tile it
 * (major first), plus the set of axes over which the value is a pending sum.
 *
 * Why not ss_sharding: specs hold names and are made for users; the
 * partitioner compares, merges and rewrites shardings millions of times and
 * wants small integers. Size-1 mesh axes are never stored (they tile
 * nothing), so two layouts are equal iff they place data identically.
 */
#ifndef SS_LAYOUT_H
#define SS_LAYOUT_H

#include "mesh_internal.h"

typedef struct ss__layout {
    bool known;  /* false: no sharding decided yet */
    int rank;
    uint8_t n[SS_MAX_RANK];               /* axes tiling dim d */
    int8_t ax[SS_MAX_RANK][SS_MAX_AXES];  /* their mesh axis indices, major first */
    unsigned partial;                     /* mesh axes of a pending sum */
} ss__layout;

/* An unknown layout of `rank` dims, and a replicated one. */
void ss__layout_unknown(ss__layout *l, int rank);
void ss__layout_replicated(ss__layout *l, int rank);
/* Mask of the mesh axes tiling any dim. */
unsigned ss__layout_used(const ss__layout *l);
/* Number of tiles (product of the sizes of the tiling axes): XLA's NumTiles. */
int64_t ss__layout_tiles(const ss__layout *l, const ss_mesh *mesh);
/* Product of the sizes of the axes tiling dim d. */
int64_t ss__layout_dim_tiles(const ss__layout *l, const ss_mesh *mesh, int d);
bool ss__layout_equal(const ss__layout *a, const ss__layout *b);
/* Append mesh axis `axis` as the minor-most axis of dim d (size-1 axes are
 * skipped). */
void ss__layout_push(ss__layout *l, const ss_mesh *mesh, int d, int axis);
/* Merge two known layouts of the same rank when compatible: per dim one
 * axis list must be a prefix of the other (the longer wins), and no axis
 * may end up on two dims. False if incompatible (out untouched). */
bool ss__layout_merge(const ss__layout *a, const ss__layout *b, ss__layout *out);

/* From a spec over `mesh` for an array of `rank` dims: checks axes exist, no
 * duplicates, spec not longer than rank (JAX's messages). */
ss_status ss__layout_from_spec(const ss_mesh *mesh, const ss_spec *spec, int rank,
                               ss__layout *out);
/* To a NamedSharding (spec trimmed of trailing Nones is NOT done: one entry
 * per dim, as JAX prints shardings of values). */
void ss__layout_to_sharding(const ss_mesh *mesh, const ss__layout *l, ss_sharding *out);
/* "P('data', None)" plus " partial('model')" when partial, "?" if unknown. */
void ss__layout_repr_buf(ss__buf *b, const ss_mesh *mesh, const ss__layout *l);

#endif
