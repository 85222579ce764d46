/*
 * layout.c — shardings in mesh-axis form (see layout.h).
 */
#include "layout.h"

#include <string.h>

void ss__layout_unknown(ss__layout *l, int rank)
{
    memset(l, 0, sizeof *l);
    l->rank = rank;
}

void ss__layout_replicated(ss__layout *l, int rank)
{
    ss__layout_unknown(l, rank);
    l->known = true;
}

unsigned ss__layout_used(const ss__layout *l)
{
    unsigned m = 0;
    for (int d = 0; d < l->rank; d++)
        for (int k = 0; k < l->n[d]; k++)
            m |= 1u << l->ax[d][k];
    return m;
}

int64_t ss__layout_dim_tiles(const ss__layout *l, const ss_mesh *mesh, int d)
{
    int64_t t = 1;
    for (int k = 0; k < l->n[d]; k++)
        t *= mesh->sizes[l->ax[d][k]];
    return t;
}

int64_t ss__layout_tiles(const ss__layout *l, const ss_mesh *mesh)
{
    int64_t t = 1;
    for (int d = 0; d < l->rank; d++)
        t *= ss__layout_dim_tiles(l, mesh, d);
    return t;
}

bool ss__layout_equal(const ss__layout *a, const ss__layout *b)
{
    if (a->known != b->known || a->rank != b->rank || a->partial != b->partial)
        return false;
    for (int d = 0; d < a->rank; d++) {
        if (a->n[d] != b->n[d])
            return false;
        for (int k = 0; k < a->n[d]; k++)
            if (a->ax[d][k] != b->ax[d][k])
                return false;
    }
    return true;
}

void ss__layout_push(ss__layout *l, const ss_mesh *mesh, int d, int axis)
{
    if (mesh->sizes[axis] == 1 || l->n[d] >= SS_MAX_AXES)
        return;
    l->ax[d][l->n[d]++] = (int8_t)axis;
}

static bool is_prefix(const ss__layout *a, const ss__layout *b, int d)
{
    if (a->n[d] > b->n[d])
        return false;
    for (int k = 0; k < a->n[d]; k++)
        if (a->ax[d][k] != b->ax[d][k])
            return false;
    return true;
}

bool ss__layout_merge(const ss__layout *a, const ss__layout *b, ss__layout *out)
{
    if (!a->known || !b->known || a->rank != b->rank)
        return false;
    ss__layout m;
    ss__layout_replicated(&m, a->rank);
    unsigned used = 0;
    for (int d = 0; d < a->rank; d++) {
        const ss__layout *src;
        if (is_prefix(a, b, d))
            src = b;
        else if (is_prefix(b, a, d))
            src = a;
        else
            return false;
        m.n[d] = src->n[d];
        for (int k = 0; k < src->n[d]; k++) {
            unsigned bit = 1u << src->ax[d][k];
            if (used & bit)
                return false;
            used |= bit;
            m.ax[d][k] = src->ax[d][k];
        }
    }
    m.partial = a->partial | b->partial;
    if (m.partial & used)
        return false;
    *out = m;
    return true;
}

ss_status ss__layout_from_spec(const ss_mesh *mesh, const ss_spec *spec, int rank,
                               ss__layout *out)
{
    ss_sharding sh;
    ss_sharding_init(&sh, mesh, spec);
    ss_status st = ss_sharding_check(&sh, rank, NULL);
    if (st)
        return st;
    int axes[SS_MAX_RANK][SS_MAX_AXES], counts[SS_MAX_RANK];
    ss__spec_axis_indices(&sh, axes, counts);
    ss__layout_replicated(out, rank);
    for (int d = 0; d < spec->ndims; d++)
        for (int k = 0; k < counts[d]; k++)
            ss__layout_push(out, mesh, d, axes[d][k]);
    return SS_OK;
}

void ss__layout_to_sharding(const ss_mesh *mesh, const ss__layout *l, ss_sharding *out)
{
    ss_sharding_init(out, mesh, NULL);
    out->spec.ndims = l->rank;
    for (int d = 0; d < l->rank; d++) {
        out->spec.dims[d].naxes = l->n[d];
        for (int k = 0; k < l->n[d]; k++)
            out->spec.dims[d].axes[k] = mesh->names[l->ax[d][k]];
    }
    out->partial_mask = l->partial;
}

void ss__layout_repr_buf(ss__buf *b, const ss_mesh *mesh, const ss__layout *l)
{
    if (!l->known) {
        ss__buf_putc(b, '?');
        return;
    }
    ss_sharding sh;
    ss__layout_to_sharding(mesh, l, &sh);
    ss__spec_repr_buf(b, &sh.spec);
    if (l->partial) {
        ss__buf_puts(b, " partial(");
        bool first = true;
        for (int a = 0; a < mesh->naxes; a++)
            if (l->partial & (1u << a)) {
                if (!first)
                    ss__buf_puts(b, ", ");
                ss__buf_py_repr(b, mesh->names[a]);
                first = false;
            }
        ss__buf_putc(b, ')');
    }
}
