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
 * Ops that cannot compute on padded blocks (reshape, slice, concatenate,
 * pad, reverse, one_hot, dynamic_slice, dynamic_update_slice, sort,
 * top_k: ss__lower_gathers_around) get their operands' uneven dims
 * gathered first and compute with those dims' axes dropped; the result is
 * then sliced locally into its own uneven layout. That is what XLA's
 * compiled text does for dynamic_slice and dynamic_update_slice
 * (u_dynamic); for reshape, slice, concatenate and pad XLA exchanges
 * halos instead, and tests/test_uneven.c lists those differences.
 *
 * Deliberately not done: shard_map boundaries take no uneven layout (the
 * error names the constraint and the op); uneven program inputs and
 * params are refused earlier, as jit refuses them.
 */
#include "lower_internal.h"

#include <stdlib.h>
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
    case SS__OP_FMA:
    case SS__OP_TRANSPOSE:
    case SS__OP_BROADCAST:
    case SS__OP_REDUCE:
    case SS__OP_ARGMAX:
    case SS__OP_GATHER:
    case SS__OP_SCATTER:
    case SS__OP_DOT: return true;
    default: return false;
    }
}

bool ss__lower_gathers_around(const ss__node *n)
{
    switch (n->op) {
    case SS__OP_RESHAPE:
    case SS__OP_SLICE:
    case SS__OP_CONCAT:
    case SS__OP_ONE_HOT:
    case SS__OP_REVERSE:
    case SS__OP_PAD:
    case SS__OP_DYNAMIC_SLICE:
    case SS__OP_DYNAMIC_UPDATE_SLICE:
    case SS__OP_SORT:
    case SS__OP_TOP_K: return true;
    default: return false;
    }
}

/* l without the axes of v's dims it splits unevenly. */
static void drop_uneven(const ss__lowering *s, ss_value v, ss__layout *l)
{
    unsigned u = ss__lower_uneven_dims(s, v, l);
    for (int d = 0; d < s->p->nodes[v].rank; d++)
        if ((u >> d) & 1u)
            l->n[d] = 0;
}

ss_status ss__lower_around_uneven(ss__lowering *s, ss_value v, const ss__layout *want,
                                  ss__lower_rule *rule)
{
    const ss__node *n = &s->p->nodes[v];
    ss__layout even = *want;
    drop_uneven(s, v, &even);
    bool any = ss__lower_uneven_dims(s, v, want) != 0;
    for (int k = 0; k < n->nin && !any; k++)
        any = ss__lower_uneven_dims(s, n->in[k], &s->vals[n->in[k]].layout) != 0;
    if (!any)
        return rule(s, v, want);
    /* Each uneven operand's gathered version stands in as its own while
     * the rule runs (rules read an operand's layout), then the value's
     * versions are restored, the gathered one cached among them. */
    ss__lowered *saved = malloc(sizeof *saved * (size_t)(n->nin ? n->nin : 1));
    ss_value *who = malloc(sizeof *who * (size_t)(n->nin ? n->nin : 1));
    if (!saved || !who) {
        free(saved);
        free(who);
        return ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
    }
    int nsaved = 0;
    ss_status st = SS_OK;
    for (int k = 0; k < n->nin && !st; k++) {
        ss_value u = n->in[k];
        ss__lowered *lu = &s->vals[u];
        if (!ss__lower_uneven_dims(s, u, &lu->layout))
            continue;
        ss__layout e = lu->layout;
        drop_uneven(s, u, &e);
        e.partial = 0;
        int buf;
        ss__buf_printf(&s->line, "; %%%d gathered first (uneven)", (int)u);
        if ((st = ss__lower_need(s, u, &e, &buf)))
            break;
        saved[nsaved] = *lu;
        who[nsaved++] = u;
        lu->nversions = 1;
        lu->buf[0] = buf;
        lu->layout = e;
    }
    if (!st)
        st = rule(s, v, &even);
    while (nsaved-- > 0)
        s->vals[who[nsaved]] = saved[nsaved];
    free(saved);
    free(who);
    return st;
}

/* A SLICE of `buf` (v) to layout `to`, dim d gaining its sn[d] minor-most
 * axes of `to`; a block reaching past the end is zero-padded (exec.c). */
static ss_status emit_slice(ss__lowering *s, ss_value v, int buf, const ss__layout *to,
                            const uint8_t sn[], const char *what, int *out)
{
    const ss__node *n = &s->p->nodes[v];
    int64_t shape[SS_MAX_RANK];
    ss__lower_local_shape(s, n, to, shape);
    char name[SS__LABEL_MAX];
    ss__lower_label(name, v, what);
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
