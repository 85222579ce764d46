/*
 * mesh_internal.h — the mesh layout shared by the files of sim/mesh.
 */
#ifndef SS_MESH_INTERNAL_H
#define SS_MESH_INTERNAL_H

#include "base/base.h"

struct ss_mesh {
    int naxes;
    const char *names[SS_MAX_AXES]; /* in the name pool: outlive the mesh */
    int64_t sizes[SS_MAX_AXES];
    int ndevices;
    int *ids;    /* ids[pos] = device id at mesh position pos */
    int *pos_of; /* pos_of[id] = mesh position of device id */
    bool iota;
};

/* Resolve every spec entry to mesh axis indices: axes[d][k] for dim d.
 * Fails with JAX's wording for an unknown axis, a duplicate or
 * UNCONSTRAINED. `counts[d]` receives the number of axes of dim d. */
ss_status ss__spec_axis_indices(const ss_sharding *sh, int axes[SS_MAX_RANK][SS_MAX_AXES],
                                int counts[SS_MAX_RANK]);

/* Append one entry as Python prints it: 'x', None, ('x', 'y'), UNCONSTRAINED. */
void ss__spec_dim_repr_buf(ss__buf *b, const ss_spec_dim *d);
/* Append the spec's repr, "P('x', None)", to b. */
void ss__spec_repr_buf(ss__buf *b, const ss_spec *spec);
/* Append the mesh's axis names as a Python tuple, "('data', 'model')", as
 * JAX's tuple(mesh.shape.keys()) prints. */
void ss__mesh_names_tuple(ss__buf *b, const ss_mesh *m);
/* Append the mesh's repr (ss_mesh_repr's text) to b. */
void ss__mesh_repr_buf(ss__buf *b, const ss_mesh *mesh, int axis_types);
/* Append the sharding's repr to b. */
void ss__sharding_repr_buf(ss__buf *b, const ss_sharding *sh);

#endif
