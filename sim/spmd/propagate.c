/*
 * propagate.c — sharding propagation as XLA's GSPMD does it
 * (docs/gspmd.md section 2), in mesh-axis form.
 *
 * Fixed points: input/param specs and constraints never change. A
 * constraint also gives its operand the same layout when that operand has
 * none yet (XLA's handling of the Sharding custom call). Then, for each
 * aggressiveness level 0..3, forward sweeps (operands -> result) and
 * backward sweeps (result -> operands) repeat until nothing changes. A
 * candidate is accepted only if the value has no layout yet, or (level >= 1)
 * merges with the current one into a strictly more tiled layout, or has
 * strictly more tiles: layouts only become more specific, so the loop
 * ends. A layout lent by a constraint to its producer is weaker than the
 * producer's own operands: it does not flow further backward at level 0,
 * and a forward candidate with as many tiles replaces it at level >= 1.
 * So a constraint that disagrees with how its producer is naturally laid
 * out reshards at the constraint instead of pulling the producer (an
 * einsum) off its operands' layout; scenario S9 of docs/gspmd.md (expert
 * dispatch, one all-to-all per constraint) depends on it.
 * Level 0 admits only pass-through ops (elementwise, transpose,
 * reshape, slice, constraints); dot, reduce, concatenate and one_hot join
 * at level 1; broadcast backward at 2 and broadcast forward at 3. Values
 * still without a layout end replicated.
 *
 * What this does not do (yet): Shardy-style user priorities; propagation
 * into open dims of a constraint (every constraint is fully specified).
 */
#include "spmd_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct prop {
    ss_program *p;
    const ss_mesh *mesh;
    ss__layout *L;
    bool *fixed;
    bool *lent; /* layout came from a constraint on the value's user */
    const ss__layout *hint; /* per value: a loop result's layout from its body, or NULL */
    ss_sharding_origin *why; /* per value: what gave it its current layout */
} prop;

static const ss__layout *lay(const prop *s, ss_value v) { return &s->L[v]; }

static int64_t bytes_of(const ss__node *n)
{
    int64_t e = (int64_t)ss_dtype_size(n->dtype);
    for (int d = 0; d < n->rank; d++)
        e *= n->shape[d];
    return e;
}

/* Accept `cand` for value x if it makes x's layout more specific. */
static bool improve_layout(prop *s, ss_value x, const ss__layout *cand, int level,
                           bool from_operands);

/* improve_layout, noting what decided when x's layout changes: its own
 * operands (from < 0) or its user `from`, at `level`. */
static bool improve(prop *s, ss_value x, const ss__layout *cand, int level, bool from_operands,
                    ss_value from)
{
    if (!improve_layout(s, x, cand, level, from_operands))
        return false;
    s->why[x] = (ss_sharding_origin){from_operands ? SS_ORIGIN_OPERANDS : SS_ORIGIN_USER,
                                     from_operands ? -1 : from, level};
    return true;
}

static bool improve_layout(prop *s, ss_value x, const ss__layout *cand, int level,
                           bool from_operands)
{
    ss__layout *cur = &s->L[x];
    if (s->fixed[x] || !cand->known)
        return false;
    if (!cur->known) {
        *cur = *cand;
        s->lent[x] = false;
        return true;
    }
    if (ss__layout_equal(cur, cand))
        return false;
    int64_t t = ss__layout_tiles(cur, s->mesh);
    /* A lent layout yields to the value's own operands (level >= 1) when
     * they offer as many tiles: the constraint then reshards at itself. */
    if (s->lent[x] && from_operands && level >= 1 && ss__layout_tiles(cand, s->mesh) >= t) {
        *cur = *cand;
        s->lent[x] = false;
        return true;
    }
    ss__layout merged;
    if (level >= 1 && ss__layout_merge(cur, cand, &merged)) {
        if (ss__layout_tiles(&merged, s->mesh) > t) {
            *cur = merged;
            s->lent[x] = false;
            return true;
        }
        return false;
    }
    if (ss__layout_tiles(cand, s->mesh) > t) {
        *cur = *cand;
        s->lent[x] = false;
        return true;
    }
    return false;
}

/* Dot: map operand X's layout (side 0 = lhs, 1 = rhs) to the result. */
static void dot_from_operand(const prop *s, const ss__node *n, int side, ss__layout *out)
{
    const ss__node *x = &s->p->nodes[n->in[side]];
    const ss__layout *lx = lay(s, n->in[side]);
    const int8_t *batch = side ? n->rb : n->lb;
    const int8_t *contract = side ? n->rc : n->lc;
    ss__layout_replicated(out, n->rank);
    unsigned special = 0;
    for (int i = 0; i < n->nb; i++) {
        special |= 1u << batch[i];
        out->n[i] = lx->n[batch[i]];
        memcpy(out->ax[i], lx->ax[batch[i]], SS_MAX_AXES);
    }
    for (int i = 0; i < n->nc; i++)
        special |= 1u << contract[i];
    int pos = n->nb;
    if (side == 1) /* rhs free dims come after the lhs free dims */
        pos += s->p->nodes[n->in[0]].rank - n->nb - n->nc;
    for (int d = 0; d < x->rank; d++) {
        if ((special >> d) & 1u)
            continue;
        out->n[pos] = lx->n[d];
        memcpy(out->ax[pos], lx->ax[d], SS_MAX_AXES);
        pos++;
    }
}

/* Dot backward: operand `side` from the result, and from the other operand. */
static bool dot_to_operand(const prop *s, ss_value v, int side, ss__layout *out)
{
    const ss__node *n = &s->p->nodes[v];
    const ss__node *x = &s->p->nodes[n->in[side]];
    const int8_t *batch = side ? n->rb : n->lb;
    const int8_t *contract = side ? n->rc : n->lc;
    ss__layout from_out, from_other;
    bool have_out = false, have_other = false;
    ss__layout_replicated(&from_out, x->rank);
    ss__layout_replicated(&from_other, x->rank);
    const ss__layout *lr = &s->L[v];
    if (lr->known) {
        have_out = true;
        unsigned special = 0;
        for (int i = 0; i < n->nb; i++) {
            special |= 1u << batch[i];
            from_out.n[batch[i]] = lr->n[i];
            memcpy(from_out.ax[batch[i]], lr->ax[i], SS_MAX_AXES);
        }
        for (int i = 0; i < n->nc; i++)
            special |= 1u << contract[i];
        int pos = n->nb;
        if (side == 1)
            pos += s->p->nodes[n->in[0]].rank - n->nb - n->nc;
        for (int d = 0; d < x->rank; d++) {
            if ((special >> d) & 1u)
                continue;
            from_out.n[d] = lr->n[pos];
            memcpy(from_out.ax[d], lr->ax[pos], SS_MAX_AXES);
            pos++;
        }
    }
    const ss__layout *ly = lay(s, n->in[1 - side]);
    if (ly->known) {
        have_other = true;
        const int8_t *ybatch = side ? n->lb : n->rb;
        const int8_t *ycontract = side ? n->lc : n->rc;
        for (int i = 0; i < n->nb; i++) {
            from_other.n[batch[i]] = ly->n[ybatch[i]];
            memcpy(from_other.ax[batch[i]], ly->ax[ybatch[i]], SS_MAX_AXES);
        }
        for (int i = 0; i < n->nc; i++) {
            from_other.n[contract[i]] = ly->n[ycontract[i]];
            memcpy(from_other.ax[contract[i]], ly->ax[ycontract[i]], SS_MAX_AXES);
        }
    }
    if (have_out && have_other && ss__layout_merge(&from_out, &from_other, out))
        return true;
    if (have_out) {
        *out = from_out;
        return true;
    }
    if (have_other) {
        *out = from_other;
        return true;
    }
    return false;
}

/*
 * The rules, named in the FWD and BWD columns of ops.def. A forward rule
 * gives node n's candidate layout at `level` from its operands' layouts; a
 * backward rule gives operand i's candidate from value v's layout. Each
 * returns false when it has none.
 */
typedef bool (*fwd_rule)(const prop *s, const ss__node *n, int level, ss__layout *c);
typedef bool (*bwd_rule)(const prop *s, ss_value v, int i, int level, ss__layout *c);

/* The result is laid out as operand 0 (unary ops, constraints). */
static bool fwd_same(const prop *s, const ss__node *n, int level, ss__layout *c)
{
    (void)level;
    const ss__layout *a = lay(s, n->in[0]);
    if (!a->known)
        return false;
    *c = *a;
    return true;
}

static bool fwd_binary(const prop *s, const ss__node *n, int level, ss__layout *c)
{
    const ss__layout *a = lay(s, n->in[0]), *b = lay(s, n->in[1]);
    if (!a->known && !b->known)
        return false;
    if (!a->known || !b->known) {
        *c = a->known ? *a : *b;
        return true;
    }
    if (level >= 1 && ss__layout_merge(a, b, c))
        return true;
    *c = ss__layout_tiles(b, s->mesh) > ss__layout_tiles(a, s->mesh) ? *b : *a;
    return true;
}

/* select and clamp: as fwd_binary over every operand of the result's
 * rank that has a layout (operands have the result's shape). */
static bool fwd_nary(const prop *s, const ss__node *n, int level, ss__layout *c)
{
    bool have = false;
    for (int k = 0; k < n->nin; k++) {
        const ss__layout *a = lay(s, n->in[k]);
        if (!a->known)
            continue;
        if (!have) {
            *c = *a;
            have = true;
            continue;
        }
        ss__layout m;
        if (level >= 1 && ss__layout_merge(c, a, &m))
            *c = m;
        else if (ss__layout_tiles(a, s->mesh) > ss__layout_tiles(c, s->mesh))
            *c = *a;
    }
    return have;
}

static bool fwd_transpose(const prop *s, const ss__node *n, int level, ss__layout *c)
{
    (void)level;
    const ss__layout *a = lay(s, n->in[0]);
    if (!a->known)
        return false;
    ss__layout_replicated(c, n->rank);
    for (int d = 0; d < n->rank; d++) {
        c->n[d] = a->n[n->dims[d]];
        memcpy(c->ax[d], a->ax[n->dims[d]], SS_MAX_AXES);
    }
    return true;
}

static bool fwd_reshape(const prop *s, const ss__node *n, int level, ss__layout *c)
{
    (void)level;
    const ss__layout *a = lay(s, n->in[0]);
    if (!a->known)
        return false;
    const ss__node *x = &s->p->nodes[n->in[0]];
    ss__reshape_layout(s->mesh, x->rank, x->shape, a, n->rank, n->shape, c);
    return true;
}

static bool fwd_slice(const prop *s, const ss__node *n, int level, ss__layout *c)
{
    (void)level;
    const ss__layout *a = lay(s, n->in[0]);
    if (!a->known)
        return false;
    unsigned whole = ss__node_whole_dims(s->p, n);
    *c = *a;
    for (int d = 0; d < SS_MAX_RANK && d < n->rank; d++)
        if ((whole >> d) & 1u)
            c->n[d] = 0;
    return true;
}

/* A dynamic_update_slice's operand and its update share a layout: `from`
 * (either one's) without its pending sum, and unsplit along the dims the
 * update covers whole (ss__node_whole_dims). */
static void dus_layout(const prop *s, const ss__node *n, const ss__layout *from, ss__layout *c)
{
    unsigned part = ss__node_whole_dims(s->p, n);
    *c = *from;
    c->partial = 0;
    for (int d = 0; d < SS_MAX_RANK && d < n->rank; d++)
        if ((part >> d) & 1u)
            c->n[d] = 0;
}

/* dynamic_update_slice: the operand's layout (as a slice's), else, from
 * level 1, the update's on the dims it covers whole (GSPMD: the result
 * may take its sharding from the update; JAX's scan writes each step's
 * residual into zeros this way). */
static bool fwd_dus(const prop *s, const ss__node *n, int level, ss__layout *c)
{
    if (fwd_slice(s, n, level, c))
        return true;
    const ss__layout *u = lay(s, n->in[1]);
    if (level < 1 || !u->known)
        return false;
    dus_layout(s, n, u, c);
    return true;
}

static bool fwd_broadcast(const prop *s, const ss__node *n, int level, ss__layout *c)
{
    const ss__layout *a = lay(s, n->in[0]);
    if (level < 3 || !a->known)
        return false;
    const ss__node *x = &s->p->nodes[n->in[0]];
    ss__layout_replicated(c, n->rank);
    for (int i = 0; i < x->rank; i++)
        if (x->shape[i] == n->shape[n->dims[i]]) {
            c->n[n->dims[i]] = a->n[i];
            memcpy(c->ax[n->dims[i]], a->ax[i], SS_MAX_AXES);
        }
    return true;
}

static bool fwd_reduce(const prop *s, const ss__node *n, int level, ss__layout *c)
{
    const ss__layout *a = lay(s, n->in[0]);
    if (level < 1 || !a->known)
        return false;
    const ss__node *x = &s->p->nodes[n->in[0]];
    ss__layout_replicated(c, n->rank);
    int k = 0;
    for (int d = 0; d < x->rank; d++) {
        if ((n->axes_mask >> d) & 1u)
            continue;
        c->n[k] = a->n[d];
        memcpy(c->ax[k], a->ax[d], SS_MAX_AXES);
        k++;
    }
    return true;
}

static bool fwd_one_hot(const prop *s, const ss__node *n, int level, ss__layout *c)
{
    const ss__layout *a = lay(s, n->in[0]);
    if (level < 1 || !a->known)
        return false;
    ss__layout_replicated(c, n->rank);
    memcpy(c->n, a->n, sizeof a->n);
    memcpy(c->ax, a->ax, sizeof a->ax);
    c->n[n->rank - 1] = 0;
    return true;
}

static bool fwd_concat(const prop *s, const ss__node *n, int level, ss__layout *c)
{
    if (level < 1)
        return false;
    const ss__layout *best = NULL;
    for (int i = 0; i < n->nin; i++) {
        const ss__layout *li = lay(s, n->in[i]);
        if (li->known && (!best || ss__layout_tiles(li, s->mesh) > ss__layout_tiles(best, s->mesh)))
            best = li;
    }
    if (!best)
        return false;
    *c = *best;
    c->n[n->dim] = 0;
    return true;
}

/* Gather and scatter: gather_spmd.c's rule from the operands' layouts
 * (the result's pending sum is not a layout to propagate). */
static bool fwd_gather(const prop *s, const ss__node *n, int level, ss__layout *c)
{
    (void)level;
    const ss__layout *lx = lay(s, n->in[0]), *li = lay(s, n->in[1]);
    const ss__layout *lu = n->op == SS__OP_SCATTER ? lay(s, n->in[2]) : NULL;
    if (!lx->known && !li->known && !(lu && lu->known))
        return false;
    ss__gather_part part;
    ss__gather_partition(s->p, n, lx, li, lu, &part);
    *c = part.result;
    c->partial = 0;
    return true;
}

static bool fwd_scatter(const prop *s, const ss__node *n, int level, ss__layout *c)
{
    return fwd_gather(s, n, level, c);
}

static bool fwd_dot(const prop *s, const ss__node *n, int level, ss__layout *c)
{
    if (level < 1)
        return false;
    const ss__node *l = &s->p->nodes[n->in[0]], *r = &s->p->nodes[n->in[1]];
    int first = bytes_of(r) > bytes_of(l) ? 1 : 0; /* the larger operand first */
    bool k0 = lay(s, n->in[first])->known, k1 = lay(s, n->in[1 - first])->known;
    ss__layout c0, c1;
    if (k0)
        dot_from_operand(s, n, first, &c0);
    if (k1)
        dot_from_operand(s, n, 1 - first, &c1);
    if (k0 && k1 && ss__layout_merge(&c0, &c1, c))
        return true;
    if (k0 || k1) {
        *c = k0 ? c0 : c1;
        return true;
    }
    return false;
}

/* Node v of a backward rule, its layout r, its operand i as x; false when
 * no layout flows back: r unknown, or v inside a shard_map region (per
 * device code: nothing flows out of it). */
static bool bwd_args(const prop *s, ss_value v, int i, const ss__node **n, const ss__layout **r,
                     const ss__node **x)
{
    *n = &s->p->nodes[v];
    *r = lay(s, v);
    *x = &s->p->nodes[(*n)->in[i]];
    return (*r)->known && !(*n)->manual;
}

/* Operand i is laid out as the result (elementwise ops, constraints). */
static bool bwd_same(const prop *s, ss_value v, int i, int level, ss__layout *c)
{
    (void)level;
    const ss__node *n, *x;
    const ss__layout *r;
    if (!bwd_args(s, v, i, &n, &r, &x))
        return false;
    *c = *r;
    return true;
}

static bool bwd_transpose(const prop *s, ss_value v, int i, int level, ss__layout *c)
{
    (void)level;
    const ss__node *n, *x;
    const ss__layout *r;
    if (!bwd_args(s, v, i, &n, &r, &x))
        return false;
    ss__layout_replicated(c, x->rank);
    for (int d = 0; d < n->rank; d++) {
        c->n[n->dims[d]] = r->n[d];
        memcpy(c->ax[n->dims[d]], r->ax[d], SS_MAX_AXES);
    }
    return true;
}

static bool bwd_reshape(const prop *s, ss_value v, int i, int level, ss__layout *c)
{
    (void)level;
    const ss__node *n, *x;
    const ss__layout *r;
    if (!bwd_args(s, v, i, &n, &r, &x))
        return false;
    ss__reshape_layout(s->mesh, n->rank, n->shape, r, x->rank, x->shape, c);
    return true;
}

static bool bwd_slice(const prop *s, ss_value v, int i, int level, ss__layout *c)
{
    (void)level;
    const ss__node *n, *x;
    const ss__layout *r;
    if (i != 0 || !bwd_args(s, v, i, &n, &r, &x)) /* a pad's padding value: none */
        return false;
    unsigned whole = ss__node_whole_dims(s->p, n);
    *c = *r;
    for (int d = 0; d < SS_MAX_RANK && d < n->rank; d++)
        if ((whole >> d) & 1u)
            c->n[d] = 0;
    return true;
}

/* dynamic_update_slice: its operand as a slice's; its update, from level
 * 1, the result's layout on the dims it covers whole. */
static bool bwd_dus(const prop *s, ss_value v, int i, int level, ss__layout *c)
{
    if (i == 0)
        return bwd_slice(s, v, i, level, c);
    const ss__node *n, *x;
    const ss__layout *r;
    if (i != 1 || level < 1 || !bwd_args(s, v, i, &n, &r, &x))
        return false;
    dus_layout(s, n, r, c);
    return true;
}

static bool bwd_broadcast(const prop *s, ss_value v, int i, int level, ss__layout *c)
{
    const ss__node *n, *x;
    const ss__layout *r;
    if (!bwd_args(s, v, i, &n, &r, &x) || level < 2)
        return false;
    ss__layout_replicated(c, x->rank);
    for (int k = 0; k < x->rank; k++)
        if (x->shape[k] == n->shape[n->dims[k]]) {
            c->n[k] = r->n[n->dims[k]];
            memcpy(c->ax[k], r->ax[n->dims[k]], SS_MAX_AXES);
        }
    return true;
}

static bool bwd_reduce(const prop *s, ss_value v, int i, int level, ss__layout *c)
{
    const ss__node *n, *x;
    const ss__layout *r;
    if (!bwd_args(s, v, i, &n, &r, &x) || level < 1)
        return false;
    ss__layout_replicated(c, x->rank);
    int k = 0;
    for (int d = 0; d < x->rank; d++) {
        if ((n->axes_mask >> d) & 1u)
            continue;
        c->n[d] = r->n[k];
        memcpy(c->ax[d], r->ax[k], SS_MAX_AXES);
        k++;
    }
    return true;
}

static bool bwd_one_hot(const prop *s, ss_value v, int i, int level, ss__layout *c)
{
    const ss__node *n, *x;
    const ss__layout *r;
    if (!bwd_args(s, v, i, &n, &r, &x) || level < 1)
        return false;
    ss__layout_replicated(c, x->rank);
    memcpy(c->n, r->n, sizeof(uint8_t) * (size_t)x->rank);
    memcpy(c->ax, r->ax, sizeof(c->ax[0]) * (size_t)x->rank);
    return true;
}

static bool bwd_concat(const prop *s, ss_value v, int i, int level, ss__layout *c)
{
    (void)level;
    const ss__node *n, *x;
    const ss__layout *r;
    if (!bwd_args(s, v, i, &n, &r, &x))
        return false;
    *c = *r;
    c->n[n->dim] = 0;
    return true;
}

/* From the result's layout, or the other operand's: no bwd_args (a dot
 * inside a region has fixed operands, which no candidate changes). */
static bool bwd_gather(const prop *s, ss_value v, int i, int level, ss__layout *c)
{
    if (level < 1)
        return false;
    const ss__node *n = &s->p->nodes[v];
    if (!ss__gather_backward(s->p, n, lay(s, v), i, c))
        return false;
    /* A scatter's operand: only the sharding the rule will keep, given
     * the indices' and updates' layouts (an axis the updates' batch dims
     * claim is not asked of the operand, which would be gathered). */
    if (n->op == SS__OP_SCATTER && i == 0 && lay(s, n->in[2])->known) {
        ss__gather_part part;
        ss__gather_partition(s->p, n, c, lay(s, n->in[1]), lay(s, n->in[2]), &part);
        *c = part.operand;
    }
    return true;
}

static bool bwd_scatter(const prop *s, ss_value v, int i, int level, ss__layout *c)
{
    return bwd_gather(s, v, i, level, c);
}

static bool bwd_dot(const prop *s, ss_value v, int i, int level, ss__layout *c)
{
    return level >= 1 && dot_to_operand(s, v, i, c);
}

/* shard_map's in_specs act as a constraint on the entry's operand. */
static bool bwd_manual_in(const prop *s, ss_value v, int i, int level, ss__layout *c)
{
    (void)i, (void)level;
    *c = s->p->nodes[v].fixed;
    return true;
}

/* A loop result: a carry takes its initial value's layout (the loop's
 * operand, its body parameter and its body result share one sharding),
 * else the layout its body gives it (loop.c). */
/* rng_bit_generator: the bits take their layout from their users (the
 * same bits whatever it is); the states are replicated. */
static bool fwd_rng(const prop *s, const ss__node *n, int level, ss__layout *c)
{
    (void)s;
    if (level < 1 || n->sub != 1)
        return false;
    ss__layout_replicated(c, n->rank);
    return true;
}

static bool bwd_rng(const prop *s, ss_value v, int i, int level, ss__layout *c)
{
    if (level < 1)
        return false;
    ss__layout_replicated(c, s->p->nodes[s->p->nodes[v].in[i]].rank);
    return true;
}

static bool fwd_loop_result(const prop *s, const ss__node *n, int level, ss__layout *c)
{
    (void)level;
    return ss__loop_result_forward(s->p, s->L, s->hint, (ss_value)(n - s->p->nodes), c);
}

/* A loop's operand: a carry's initial value from the loop's result. The
 * loop node itself has no layout (no FWD: its results are its values). */
static bool bwd_loop(const prop *s, ss_value v, int i, int level, ss__layout *c)
{
    (void)level;
    return ss__loop_operand_backward(s->p, s->L, v, i, c);
}

/* A conditional's result: what its first branch gives it (the hint pass,
 * case_spmd.c), when its users have not decided. */
static bool fwd_case_result(const prop *s, const ss__node *n, int level, ss__layout *c)
{
    (void)level;
    ss_value v = (ss_value)(n - s->p->nodes);
    if (!s->hint || !s->hint[v].known)
        return false;
    *c = s->hint[v];
    return true;
}

/* A conditional's operands: its index is replicated (every device takes
 * the same branch); the others keep their own layouts, which the branches
 * take as theirs. */
static bool bwd_case(const prop *s, ss_value v, int i, int level, ss__layout *c)
{
    (void)level;
    if (i != 0)
        return false;
    ss__layout_replicated(c, s->p->nodes[s->p->nodes[v].in[0]].rank);
    return true;
}

static const struct {
    fwd_rule fwd;
    bwd_rule bwd;
} prop_rules[] = {
#define SS__OP(ID, NAME, NIN, NOUT, FLAGS, SUBNAME, VJP, FWD, BWD, LOWER, EVAL, KERNEL, FLOPS) \
    [SS__OP_##ID] = {FWD, BWD},
#include "graph/ops.def"
#undef SS__OP
};
_Static_assert(sizeof prop_rules / sizeof prop_rules[0] == SS__OP_COUNT, "one row per opcode");

void ss__propagate_has_rules(ss__opcode op, bool *fwd, bool *bwd)
{
    *fwd = (unsigned)op < SS__OP_COUNT && prop_rules[op].fwd;
    *bwd = (unsigned)op < SS__OP_COUNT && prop_rules[op].bwd;
}

/* Forward candidate for node v at `level`; false if none. */
static bool forward(const prop *s, ss_value v, int level, ss__layout *c)
{
    const ss__node *n = &s->p->nodes[v];
    fwd_rule rule = prop_rules[n->op].fwd;
    return rule && rule(s, n, level, c);
}

/* Backward candidate for operand `i` of node v; false if none. */
static bool backward(const prop *s, ss_value v, int i, int level, ss__layout *c)
{
    bwd_rule rule = prop_rules[s->p->nodes[v].op].bwd;
    return rule && rule(s, v, i, level, c);
}

/* A cotangent without a layout borrows its primal's, weakly (a lent
 * layout): gradients are laid out like their primals (docs/gspmd.md 6.2),
 * so that e.g. the ones that seed a loss's gradient start batch-sharded. */
static bool lend_primal(prop *s, ss_value v)
{
    ss_value prim = s->p->nodes[v].primal_plus1 - 1;
    if (prim < 0 || s->fixed[v] || s->L[v].known || !s->L[prim].known)
        return false;
    s->L[v] = s->L[prim];
    s->L[v].partial = 0;
    s->lent[v] = true;
    s->why[v] = (ss_sharding_origin){SS_ORIGIN_PRIMAL, prim, 0};
    return true;
}

/* The fixpoint over p's top-level nodes; loop results may take `hint`
 * (per value, or NULL). *out: the layouts, unknown ones replicated. */
static ss_status fixpoint(ss_program *p, const ss__layout *hint, ss__layout **out,
                          ss_sharding_origin **why)
{
    size_t count = (size_t)(p->n ? p->n : 1);
    /* L, fixed and why are written for every value below: not zeroed. */
    prop s = {p, p->mesh, malloc(count * sizeof(ss__layout)), malloc(count * sizeof(bool)),
              calloc(count, sizeof(bool)), hint, malloc(count * sizeof(ss_sharding_origin))};
    if (!s.L || !s.fixed || !s.lent || !s.why) {
        free(s.L);
        free(s.fixed);
        free(s.lent);
        free(s.why);
        return ss__fail(SS_ERR_NOMEM, "propagation: out of host memory for %d values", p->n);
    }
    for (ss_value v = 0; v < p->n; v++) {
        const ss__node *n = &p->nodes[v];
        s.L[v] = n->fixed;
        s.L[v].rank = n->rank;
        s.fixed[v] = n->fixed.known;
        s.why[v] = (ss_sharding_origin){n->fixed.known ? SS_ORIGIN_DECLARED : SS_ORIGIN_DEFAULT,
                                        -1, 0};
        if (n->manual) { /* block shapes: nothing to partition */
            ss__layout_replicated(&s.L[v], n->rank);
            s.fixed[v] = true;
            s.why[v] = (ss_sharding_origin){SS_ORIGIN_MANUAL, -1, 0};
        }
    }
    /* A constraint lends its layout to an operand that has none yet. */
    for (ss_value v = 0; v < p->n; v++) {
        const ss__node *n = &p->nodes[v];
        if (ss__op_is(n->op, SS__OPF_FIXES_LAYOUT) && !s.L[n->in[0]].known) {
            s.L[n->in[0]] = n->fixed;
            s.lent[n->in[0]] = !s.fixed[n->in[0]];
            s.why[n->in[0]] = (ss_sharding_origin){SS_ORIGIN_CONSTRAINT, v, 0};
        }
    }
    for (int level = 0; level <= 3; level++) {
        bool changed = true;
        while (changed) {
            changed = false;
            ss__layout c;
            for (ss_value v = 0; v < p->n; v++) {
                changed |= lend_primal(&s, v);
                if (forward(&s, v, level, &c))
                    changed |= improve(&s, v, &c, level, true, -1);
            }
            for (ss_value v = p->n - 1; v >= 0; v--) {
                const ss__node *n = &p->nodes[v];
                if (level == 0 && s.lent[v])
                    continue;
                for (int i = 0; i < n->nin; i++)
                    if (backward(&s, v, i, level, &c))
                        changed |= improve(&s, n->in[i], &c, level, false, v);
            }
        }
    }
    for (ss_value v = 0; v < p->n; v++)
        if (!s.L[v].known) {
            ss__layout_replicated(&s.L[v], p->nodes[v].rank);
            s.why[v] = (ss_sharding_origin){SS_ORIGIN_DEFAULT, -1, 0};
        }
    free(s.fixed);
    free(s.lent);
    *out = s.L;
    *why = s.why;
    return SS_OK;
}

ss_status ss_program_propagate(ss_program *p)
{
    if (p->layouts)
        return SS_OK;
    ss__layout *L = NULL, *hint = NULL;
    ss_sharding_origin *why = NULL;
    ss_status st = fixpoint(p, NULL, &L, &why);
    if (!st && p->nloops) {
        /* Loops: the regions propagate under the layouts found for their
         * operands; what their bodies give results that had no layout is
         * a hint, and the program propagates once more with it. */
        st = ss__loops_hints(p, L, why, &hint);
        if (!st && hint) {
            free(L);
            free(why);
            L = NULL;
            why = NULL;
            st = fixpoint(p, hint, &L, &why);
        }
        if (!st)
            st = ss__loops_propagate(p, L);
    }
    free(hint);
    if (st) {
        free(L);
        free(why);
        return st;
    }
    p->layouts = L;
    free(p->origins);
    p->origins = why;
    return SS_OK;
}

ss_status ss_value_sharding_origin(const ss_program *p, ss_value v, ss_sharding_origin *out)
{
    if (!ss__program_node(p, v, "value_sharding_origin"))
        return SS_ERR_INVALID;
    if (!p->layouts || !p->origins)
        return ss__fail(SS_ERR_INVALID, "value_sharding_origin: run ss_program_propagate first");
    *out = p->origins[v];
    return SS_OK;
}

const char *ss_sharding_origin_name(ss_sharding_origin_kind kind)
{
    static const char *const names[] = {"default", "declared", "manual", "constraint",
                                        "operands", "user",     "primal"};
    return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}

ss_status ss_value_sharding(const ss_program *p, ss_value v, ss_sharding *out)
{
    if (!ss__program_node(p, v, "value_sharding"))
        return SS_ERR_INVALID;
    if (!p->layouts)
        return ss__fail(SS_ERR_INVALID, "value_sharding: run ss_program_propagate first");
    ss__layout_to_sharding(p->mesh, &p->layouts[v], out);
    return SS_OK;
}

ss_status ss_program_print(const ss_program *p, FILE *f)
{
    ss__buf b;
    ss__buf_init(&b);
    for (ss_value v = 0; v < p->n; v++) {
        const ss__node *n = &p->nodes[v];
        ss__buf_clear(&b);
        ss__buf_printf(&b, "%%%d = %s", (int)v, ss__opcode_name(n));
        if (n->name[0])
            ss__buf_printf(&b, " '%s'", n->name);
        ss__buf_putc(&b, '(');
        for (int i = 0; i < n->nin; i++)
            ss__buf_printf(&b, i ? ", %%%d" : "%%%d", (int)n->in[i]);
        if (n->op == SS__OP_CONSTANT && n->sub == SS__CONST_SCALAR)
            ss__buf_printf(&b, "%g", n->scalar);
        ss__buf_puts(&b, ") ");
        ss__shape_repr_buf(&b, n->dtype, n->rank, n->shape);
        ss__buf_putc(&b, ' ');
        if (p->layouts)
            ss__layout_repr_buf(&b, p->mesh, &p->layouts[v]);
        else if (n->fixed.known)
            ss__layout_repr_buf(&b, p->mesh, &n->fixed);
        if (n->fixed.known && n->op != SS__OP_CONSTANT)
            ss__buf_puts(&b, " (fixed)");
        if (n->is_output)
            ss__buf_puts(&b, " output");
        if (b.oom) {
            ss__buf_free(&b);
            return ss__fail(SS_ERR_NOMEM, "program_print: out of host memory");
        }
        fprintf(f, "%s\n", b.data);
    }
    ss__buf_free(&b);
    return SS_OK;
}
