/*
 * sharding.c — NamedSharding: validation with JAX's wording, the slice each
 * device holds, replica ids and groups.
 *
 * Closed form (equivalent to JAX's walk over the HLO tile grid): the device at
 * mesh position p with coordinates c holds, along dim d sharded over axes
 * (a1..am), block t = mixed-radix(c[a1]..c[am]) (a1 most significant) of size
 * shape[d] / prod(size(ai)). Its replica id is the mixed-radix index of its
 * coordinates over the axes the spec does not use, in mesh order: that is the
 * number of earlier positions holding the identical block.
 */
#include "mesh_internal.h"

#include <string.h>

void ss_sharding_init(ss_sharding *sh, const ss_mesh *mesh, const ss_spec *spec)
{
    memset(sh, 0, sizeof *sh);
    sh->mesh = mesh;
    if (spec)
        sh->spec = *spec;
}

void ss__mesh_names_tuple(ss__buf *b, const ss_mesh *m)
{
    ss__buf_putc(b, '(');
    for (int i = 0; i < m->naxes; i++) {
        if (i)
            ss__buf_puts(b, ", ");
        ss__buf_py_repr(b, m->names[i]);
    }
    if (m->naxes == 1)
        ss__buf_putc(b, ',');
    ss__buf_putc(b, ')');
}

static ss_status fail_with_buf(ss_status st, ss__buf *b)
{
    ss_status r = ss__fail(st, "%s", b->data ? b->data : "out of host memory");
    ss__buf_free(b);
    return r;
}

ss_status ss__spec_axis_indices(const ss_sharding *sh, int axes[SS_MAX_RANK][SS_MAX_AXES],
                                int counts[SS_MAX_RANK])
{
    const ss_mesh *m = sh->mesh;
    const ss_spec *spec = &sh->spec;
    ss__buf b;
    ss__buf_init(&b);

    /* Duplicates first (JAX checks unique resources before mesh membership). */
    const char *seen[SS_MAX_RANK * SS_MAX_AXES];
    const char *dups[SS_MAX_RANK * SS_MAX_AXES];
    int nseen = 0, ndups = 0;
    for (int d = 0; d < spec->ndims; d++) {
        for (int k = 0; k < spec->dims[d].naxes; k++) {
            const char *name = spec->dims[d].axes[k];
            bool dup = false;
            for (int i = 0; i < nseen; i++)
                dup = dup || strcmp(seen[i], name) == 0;
            if (!dup) {
                seen[nseen++] = name;
                continue;
            }
            bool listed = false;
            for (int i = 0; i < ndups; i++)
                listed = listed || strcmp(dups[i], name) == 0;
            if (!listed)
                dups[ndups++] = name;
        }
    }
    if (ndups) {
        /* Sorted, backquoted, comma-joined, as JAX's show_axes. */
        for (int i = 1; i < ndups; i++)
            for (int j = i; j > 0 && strcmp(dups[j - 1], dups[j]) > 0; j--) {
                const char *t = dups[j];
                dups[j] = dups[j - 1];
                dups[j - 1] = t;
            }
        ss__buf_puts(&b, "A single NamedSharding spec specification can map every mesh axis to at "
                         "most one positional dimension, but ");
        ss__spec_repr_buf(&b, spec);
        ss__buf_puts(&b, " has duplicate entries for ");
        for (int i = 0; i < ndups; i++)
            ss__buf_printf(&b, i ? ", `%s`" : "`%s`", dups[i]);
        return fail_with_buf(SS_ERR_DUPLICATE, &b);
    }

    for (int d = 0; d < spec->ndims; d++) {
        counts[d] = spec->dims[d].naxes;
        for (int k = 0; k < spec->dims[d].naxes; k++) {
            int a = ss_mesh_axis_index(m, spec->dims[d].axes[k]);
            if (a < 0 || (sh->manual_mask >> a) & 1u) {
                ss__buf_printf(&b, "Resource axis: %s of ", spec->dims[d].axes[k]);
                ss__spec_repr_buf(&b, spec);
                ss__buf_puts(&b, " is not found in mesh: ");
                ss__mesh_names_tuple(&b, m);
                ss__buf_putc(&b, '.');
                return fail_with_buf(SS_ERR_AXIS, &b);
            }
            axes[d][k] = a;
        }
    }
    for (int d = 0; d < spec->ndims; d++) {
        if (spec->dims[d].unconstrained) {
            ss__spec_repr_buf(&b, spec);
            ss__buf_printf(&b,
                           " leaves dimension %d UNCONSTRAINED; a concrete layout needs every "
                           "dimension decided",
                           d);
            return fail_with_buf(SS_ERR_INVALID, &b);
        }
    }
    for (int d = spec->ndims; d < SS_MAX_RANK; d++)
        counts[d] = 0;
    return SS_OK;
}

ss_status ss_sharding_validate(const ss_sharding *sh)
{
    int axes[SS_MAX_RANK][SS_MAX_AXES], counts[SS_MAX_RANK];
    return ss__spec_axis_indices(sh, axes, counts);
}

void ss__sharding_repr_buf(ss__buf *b, const ss_sharding *sh)
{
    ss__buf_puts(b, "NamedSharding(mesh=");
    ss__mesh_repr_buf(b, sh->mesh, 1);
    ss__buf_puts(b, ", spec=");
    ss__spec_repr_buf(b, &sh->spec);
    ss__buf_puts(b, ", memory_kind=device)");
}

ss_status ss_sharding_repr(const ss_sharding *sh, char *buf, size_t cap)
{
    ss__buf b;
    ss__buf_init(&b);
    ss__sharding_repr_buf(&b, sh);
    ss_status st = ss__buf_copy_out(&b, buf, cap, NULL);
    ss__buf_free(&b);
    return st;
}

static void tiling_of(const ss_sharding *sh, int rank, int axes[SS_MAX_RANK][SS_MAX_AXES],
                      const int counts[SS_MAX_RANK], int64_t factors[])
{
    for (int d = 0; d < rank; d++) {
        factors[d] = 1;
        for (int k = 0; k < counts[d]; k++)
            factors[d] *= sh->mesh->sizes[axes[d][k]];
    }
}

ss_status ss_sharding_tiling(const ss_sharding *sh, int rank, int64_t factors[])
{
    int axes[SS_MAX_RANK][SS_MAX_AXES], counts[SS_MAX_RANK];
    if (rank < 0 || rank > SS_MAX_RANK)
        return ss__fail(SS_ERR_RANK, "rank %d is outside 0..%d", rank, SS_MAX_RANK);
    ss_status st = ss__spec_axis_indices(sh, axes, counts);
    if (st)
        return st;
    if (sh->spec.ndims > rank)
        return ss_sharding_check(sh, rank, NULL);
    tiling_of(sh, rank, axes, counts, factors);
    return SS_OK;
}

ss_status ss_sharding_check(const ss_sharding *sh, int rank, const int64_t shape[])
{
    int axes[SS_MAX_RANK][SS_MAX_AXES], counts[SS_MAX_RANK];
    if (rank < 0 || rank > SS_MAX_RANK)
        return ss__fail(SS_ERR_RANK, "rank %d is outside 0..%d", rank, SS_MAX_RANK);
    ss_status st = ss__spec_axis_indices(sh, axes, counts);
    if (st)
        return st;
    ss__buf b;
    ss__buf_init(&b);
    if (sh->spec.ndims > rank) {
        ss__buf_puts(&b, "Sharding ");
        ss__sharding_repr_buf(&b, sh);
        ss__buf_printf(&b,
                       " is only valid for values of rank at least %d, but was applied to a "
                       "value of rank %d.%s",
                       sh->spec.ndims, rank,
                       rank == 0 ? " For scalars the PartitionSpec should be P()" : "");
        return fail_with_buf(SS_ERR_RANK, &b);
    }
    if (!shape)
        return SS_OK;
    int64_t factors[SS_MAX_RANK], numel;
    tiling_of(sh, rank, axes, counts, factors);
    for (int d = 0; d < rank; d++)
        if (shape[d] < 0)
            return ss__fail(SS_ERR_INVALID, "array dimension %d has negative size %lld", d,
                            (long long)shape[d]);
    if (!ss__product(rank, shape, &numel)) {
        ss__buf_puts(&b, "array shape ");
        ss__buf_int_tuple(&b, rank, shape);
        ss__buf_puts(&b, " has more than 2^63 - 1 elements");
        return fail_with_buf(SS_ERR_RANGE, &b);
    }
    for (int d = 0; d < rank; d++) {
        if (shape[d] % factors[d] == 0)
            continue;
        /* JAX 0.10.2 (_common_shard_shape): f"Sharding {self} implies ...",
         * the factors a Python list (tests/data/jax_uneven/refusals.json). */
        ss__buf_puts(&b, "Sharding ");
        ss__sharding_repr_buf(&b, sh);
        ss__buf_printf(&b,
                       " implies that array axis %d is partitioned %lld times, but the "
                       "dimension size is %lld (full shape: ",
                       d, (long long)factors[d], (long long)shape[d]);
        ss__buf_int_tuple(&b, rank, shape);
        ss__buf_puts(&b, ", per-dimension tiling factors: [");
        for (int k = 0; k < rank; k++)
            ss__buf_printf(&b, k ? ", %lld" : "%lld", (long long)factors[k]);
        ss__buf_putc(&b, ']');
        ss__buf_puts(&b, " should evenly divide the shape)");
        return fail_with_buf(SS_ERR_INDIVISIBLE, &b);
    }
    ss__buf_free(&b);
    return SS_OK;
}

ss_status ss_sharding_shard_shape(const ss_sharding *sh, int rank, const int64_t shape[],
                                  int64_t out[])
{
    ss_status st = ss_sharding_check(sh, rank, shape);
    if (st)
        return st;
    int64_t factors[SS_MAX_RANK];
    ss_sharding_tiling(sh, rank, factors);
    for (int d = 0; d < rank; d++)
        out[d] = shape[d] / factors[d];
    return SS_OK;
}

ss_status ss_sharding_shards(const ss_sharding *sh, int rank, const int64_t shape[],
                             ss_dtype dtype, ss_shard out[], int cap)
{
    const ss_mesh *m = sh->mesh;
    int axes[SS_MAX_RANK][SS_MAX_AXES], counts[SS_MAX_RANK];
    ss_status st = ss_sharding_check(sh, rank, shape);
    if (st)
        return st;
    if (cap < m->ndevices)
        return ss__fail(SS_ERR_RANGE, "room for %d shards, but the mesh has %d devices", cap,
                        m->ndevices);
    if (ss_dtype_size(dtype) == 0)
        return ss__fail(SS_ERR_INVALID, "invalid dtype %d", (int)dtype);
    int64_t numel, nbytes;
    if (!ss__product(rank, shape, &numel) ||
        !ss__mul_i64_checked(numel, (int64_t)ss_dtype_size(dtype), &nbytes)) {
        ss__buf b;
        ss__buf_init(&b);
        ss__buf_printf(&b, "%s array of shape ", ss_dtype_name(dtype));
        ss__buf_int_tuple(&b, rank, shape);
        ss__buf_puts(&b, " has more than 2^63 - 1 bytes");
        return fail_with_buf(SS_ERR_RANGE, &b);
    }
    ss__spec_axis_indices(sh, axes, counts);
    int64_t factors[SS_MAX_RANK];
    tiling_of(sh, rank, axes, counts, factors);
    bool used[SS_MAX_AXES] = {false};
    for (int d = 0; d < rank; d++)
        for (int k = 0; k < counts[d]; k++)
            used[axes[d][k]] = true;

    for (int p = 0; p < m->ndevices; p++) {
        int64_t c[SS_MAX_AXES];
        ss_mesh_coords(m, p, c);
        ss_shard *s = &out[p];
        memset(s, 0, sizeof *s);
        s->device = m->ids[p];
        s->position = p;
        size_t elems = 1;
        for (int d = 0; d < rank; d++) {
            int64_t t = 0;
            for (int k = 0; k < counts[d]; k++)
                t = t * m->sizes[axes[d][k]] + c[axes[d][k]];
            int64_t chunk = shape[d] / factors[d];
            s->start[d] = t * chunk;
            s->stop[d] = (t + 1) * chunk;
            elems *= (size_t)chunk;
        }
        int64_t r = 0;
        for (int a = 0; a < m->naxes; a++)
            if (!used[a])
                r = r * m->sizes[a] + c[a];
        s->replica_id = (int)r;
        s->bytes = elems * ss_dtype_size(dtype);
    }
    return SS_OK;
}

int ss_sharding_is_replicated(const ss_sharding *sh)
{
    for (int d = 0; d < sh->spec.ndims; d++)
        for (int k = 0; k < sh->spec.dims[d].naxes; k++) {
            int a = ss_mesh_axis_index(sh->mesh, sh->spec.dims[d].axes[k]);
            if (a >= 0 && sh->mesh->sizes[a] > 1)
                return 0;
        }
    return 1;
}

ss_status ss_sharding_replica_groups(const ss_sharding *sh, int *ngroups, int ids[],
                                     int offsets[])
{
    const ss_mesh *m = sh->mesh;
    int axes[SS_MAX_RANK][SS_MAX_AXES], counts[SS_MAX_RANK];
    ss_status st = ss__spec_axis_indices(sh, axes, counts);
    if (st)
        return st;
    bool used[SS_MAX_AXES] = {false};
    for (int d = 0; d < sh->spec.ndims; d++)
        for (int k = 0; k < counts[d]; k++)
            used[axes[d][k]] = true;
    /* Group key = mixed radix over the used axes (in mesh order); groups are
     * numbered by first appearance, which is mesh order of first members. */
    int64_t replicas = 1;
    for (int a = 0; a < m->naxes; a++)
        if (!used[a])
            replicas *= m->sizes[a];
    int n = (int)(m->ndevices / replicas);
    *ngroups = n;
    for (int g = 0; g <= n; g++)
        offsets[g] = g * (int)replicas;
    int fill[SS_MAX_DEVICES];
    int seen_keys = 0;
    static const int unset = -1;
    int key_to_group[SS_MAX_DEVICES];
    for (int i = 0; i < m->ndevices; i++)
        key_to_group[i] = unset;
    for (int p = 0; p < m->ndevices; p++) {
        int64_t c[SS_MAX_AXES], key = 0;
        ss_mesh_coords(m, p, c);
        for (int a = 0; a < m->naxes; a++)
            if (used[a])
                key = key * m->sizes[a] + c[a];
        if (key_to_group[key] == unset) {
            key_to_group[key] = seen_keys;
            fill[seen_keys] = 0;
            seen_keys++;
        }
        int g = key_to_group[key];
        ids[offsets[g] + fill[g]++] = m->ids[p];
    }
    return SS_OK;
}
