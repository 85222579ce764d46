/*
 * lower_uneven.c — uneven shards in the lowering: layouts that split a dim
 * its mesh axes do not divide, which JAX allows only on intermediates
 * (with_sharding_constraint inside jit) and XLA lowers by padding.
 *
 * Every device holds a block ceil(size / tiles) long along such a dim (the
 * buffers' shapes, ss__lower_local_shape); the last blocks hold padding past
 * the global size, or only padding. Padding never holds data: elementwise
 * ops compute garbage there, and whatever reads across it (a reduction or
 * a dot over the dim) sets it to its identity first (ss__inst.mask_in,
 * lower_ops.c and lower_dot.c). This file moves values into and out of
 * such layouts, as XLA's compiled text does (tests/data/jax_uneven).
 *
 * Deliberately not done: ops other than those ss__lower_pads_ok names take
 * no uneven layout (the error names the constraint and the op); uneven
 * program inputs and params are refused earlier, as jit refuses them.
 */
#include "lower_internal.h"

#include <string.h>

unsigned ss__lower_uneven_dims(const ss__lowering *s, ss_value v, const ss__layout *l)
{
    const ss__node *n = &s->p->nodes[v];
    unsigned m = 0;
    for (int d = 0; d < n->rank && d < 32; d++)
        if (n->shape[d] % ss__layout_dim_tiles(l, s->mesh, d) != 0)
            m |= 1u << d;
    return m;
}

bool ss__lower_pads_ok(const ss__node *n)
{
    switch (n->op) {
    case SS__OP_UNARY:
    case SS__OP_BINARY:
    case SS__OP_COMPARE:
    case SS__OP_SELECT:
    case SS__OP_CLAMP:
    case SS__OP_TRANSPOSE:
    case SS__OP_BROADCAST:
    case SS__OP_REDUCE:
    case SS__OP_ARGMAX:
    case SS__OP_DOT: return true;
    default: return false;
    }
}

/* A SLICE of `buf` (v) to layout `to`, dim d gaining its sn[d] minor-most
 * axes of `to`; a block reaching past the end is zero-padded (exec.c). */
static ss_status emit_slice(ss__lowering *s, ss_value v, int buf, const ss__layout *to,
                            const uint8_t sn[], const char *what, int *out)
{
    const ss__node *n = &s->p->nodes[v];
    int64_t shape[SS_MAX_RANK];
    ss__lower_local_shape(s, n, to, shape);
    char name[48];
    snprintf(name, sizeof name, "%%%d %s", (int)v, what);
    ss_status st = ss__lower_new_buf(s, v, n->dtype, n->rank, shape, name, out);
    if (st)
        return st;
    ss__inst i;
    ss__inst_init(&i, SS__INST_SLICE, v);
    i.in[i.nin++] = buf;
    i.out = *out;
    i.layout = *to;
    for (int d = 0; d < n->rank; d++)
        i.sn[d] = sn[d];
    return ss__lower_emit(s, &i);
}

/* All-gather dim d of `buf` (v in layout *cur) over its axes, padded blocks
 * and all, then cut the padding off; *cur loses dim d's axes. */
static ss_status gather_dim(ss__lowering *s, ss_value v, ss__layout *cur, int d, int *buf)
{
    const ss__node *n = &s->p->nodes[v];
    ss_coll c;
    memset(&c, 0, sizeof c);
    c.mesh = s->mesh;
    c.dtype = n->dtype;
    c.rank = n->rank;
    ss__lower_local_shape(s, n, cur, c.shape);
    c.kind = SS_COLL_ALL_GATHER;
    c.tiled = 1;
    c.axis = d;
    int axes[SS_MAX_AXES];
    for (int k = 0; k < cur->n[d]; k++)
        axes[k] = cur->ax[d][k];
    ss__lower_coll_axes(s, &c, cur->n[d], axes);
    ss__buf_printf(&s->line, "; all_gather dim %d's padded blocks (%lld rows for %lld) over ", d,
                   (long long)c.shape[d], (long long)n->shape[d]);
    for (int k = 0; k < cur->n[d]; k++)
        ss__buf_printf(&s->line, "%s'%s'", k ? ", " : "", s->mesh->names[cur->ax[d][k]]);
    ss__buf_puts(&s->line, ", padding cut off");
    int gathered;
    ss_status st = ss__lower_emit_coll(s, v, &c, *buf, &gathered, 0, NULL);
    if (st)
        return st;
    cur->n[d] = 0;
    uint8_t none[SS_MAX_RANK] = {0};
    return emit_slice(s, v, gathered, cur, none, "unpadded", buf);
}

ss_status ss__lower_reshard_uneven(ss__lowering *s, ss_value v, int buf, const ss__layout *from,
                                   const ss__layout *to, int *out)
{
    const ss__node *n = &s->p->nodes[v];
    unsigned uf = ss__lower_uneven_dims(s, v, from), ut = ss__lower_uneven_dims(s, v, to);
    ss__layout cur = *from, mid = *to;
    int64_t padded[SS_MAX_RANK];
    ss_status st = SS_OK;
    *out = buf;
    /* An uneven dim whose axes stay is left alone: its blocks are those of
     * the padded array, which the even planner moves like any other. */
    for (int d = 0; d < n->rank; d++) {
        padded[d] = n->shape[d];
        if (from->n[d] == to->n[d] && memcmp(from->ax[d], to->ax[d], from->n[d]) == 0) {
            int64_t t = ss__layout_dim_tiles(from, s->mesh, d);
            padded[d] = (n->shape[d] + t - 1) / t * t;
            uf &= ~(1u << d);
            ut &= ~(1u << d);
        }
    }
    for (int d = 0; d < n->rank && !st; d++)
        if ((uf >> d) & 1u)
            st = gather_dim(s, v, &cur, d, out);
    if (st)
        return st;
    uint8_t sn[SS_MAX_RANK] = {0};
    for (int d = 0; d < n->rank; d++)
        if ((ut >> d) & 1u) {
            sn[d] = to->n[d];
            mid.n[d] = 0;
        }
    if ((st = ss__lower_reshard_even(s, v, *out, &cur, &mid, padded, out)) || !ut)
        return st;
    ss__buf_puts(&s->line, "; local slice into padded blocks");
    return emit_slice(s, v, *out, to, sn, "padded slice", out);
}
