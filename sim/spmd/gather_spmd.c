/*
 * gather_spmd.c — how gather and scatter are partitioned, as XLA's GSPMD
 * does for the common cases (xla/service/spmd/gather_scatter_handler.cc):
 *
 *   - an operand dim taken whole by every window (a "passthrough" dim:
 *     window size = dim size, not indexed or indexed with its start
 *     clamped to 0) may stay sharded: each device works on its block, and
 *     the result's matching offset (window) dim is sharded alike;
 *   - the indices' batch dims (and a scatter's updates' scatter dims) may
 *     stay sharded: the result's batch dims follow (gather); a scatter-add
 *     adds each device's updates and leaves a pending sum over those axes
 *     (only the first device along them starts from the operand);
 *   - an operand dim the indices index with window 1 (an embedding table
 *     sharded on vocab) may stay sharded: each device gathers what lies
 *     in its block, the rest 0 (the indices offset by the block start and
 *     masked), and the result is a pending sum over those axes (XLA emits
 *     the all-reduce); a scatter writes only what lands in its block, and
 *     its result keeps the operand's sharding;
 *   - every other sharding is dropped first (all-gathers), so the answer
 *     is never wrong.
 *
 * XLA's names for the first three: PartitionGatherOperandPassthrough-
 * Dimensions, PartitionGatherIndexPassthroughDimensions and
 * PartitionGatherTrivialSlicedOperandDimensions (and their scatter
 * counterparts); the fixtures gather_vocab, gather_embed, gather_batch,
 * scatter_add and nnx_embed_train_step check the collectives against
 * XLA's compiled text. A mesh axis is used once: when two of the cases
 * above want it, the operand keeps it, except that a scatter-add whose
 * updates are larger than its operand gives it to the updates' batch dims
 * (the embedding gradient: XLA's compiled text of lm_* and
 * embed_grad_scatter gathers the updates' embed dim and leaves the table's
 * whole, with no gather of the updates' batch).
 *
 * The rule is one function, ss__gather_partition, shared by propagation
 * (propagate.c: the result's layout from its operands', the operands'
 * from the result's) and lowering (lower.c), so they cannot disagree.
 * Not done: the batching dims of gather/scatter sharded (replicated
 * first).
 */
#include "spmd_internal.h"
#include "kernels/kernels.h"

#include <string.h>

static bool listed(int n, const int dims[], int d)
{
    for (int k = 0; k < n; k++)
        if (dims[k] == d)
            return true;
    return false;
}

static void copy_dim(ss__layout *to, int dt, const ss__layout *from, int df)
{
    to->n[dt] = from->n[df];
    memcpy(to->ax[dt], from->ax[df], SS_MAX_AXES);
}

static unsigned dim_axes(const ss__layout *l, int d)
{
    unsigned m = 0;
    for (int k = 0; k < l->n[d]; k++)
        m |= 1u << l->ax[d][k];
    return m;
}

/* Operand dim d of node n: its window size (gather: slice_sizes;
 * scatter: the update's). */
static int64_t window_of(const ss_program *p, const ss__node *n, int d)
{
    if (n->op == SS__OP_GATHER)
        return n->gdims.slice_sizes[d];
    const ss__node *x = &p->nodes[n->in[0]], *u = &p->nodes[n->in[2]];
    int64_t w[SS_MAX_RANK];
    ss__k_scatter_window(x->rank, u->rank, u->shape, &n->gdims, w);
    return w[d];
}

/* What the two passes of ss__gather_partition share: the node, its
 * operands' layouts (partial sums cleared), the mesh axes already given to
 * a dim, and the answer being built. */
typedef struct gather_pass {
    const ss_program *p;
    const ss__node *n;
    bool scatter;
    int rrank; /* rank of the result (gather) or of the updates (scatter) */
    ss__layout lx, li, lu;
    unsigned used;
    ss__gather_part *out;
} gather_pass;

/* Operand dims: passthrough dims keep their axes (scatter: the operand's,
 * else the updates' matching window dim's); indexed dims of window 1 keep
 * theirs, masked. */
static void operand_dims(gather_pass *s)
{
    const ss__node *n = s->n, *x = &s->p->nodes[n->in[0]];
    const ss_gather_dims *g = &n->gdims;
    ss__gather_part *out = s->out;
    for (int d = 0, w = 0; d < x->rank; d++) {
        bool one = listed(g->n_collapsed, g->collapsed_slice_dims, d) ||
                   listed(g->n_batching, g->operand_batching_dims, d);
        int wd = one ? -1 : g->offset_dims[w++];
        bool indexed = listed(g->n_index_map, g->start_index_map, d);
        int64_t win = window_of(s->p, n, d);
        const ss__layout *src = &s->lx;
        int sd = d;
        if (s->scatter && !s->lx.n[d] && wd >= 0) {
            src = &s->lu;
            sd = wd;
        }
        unsigned axes = dim_axes(src, sd);
        if (!axes || (axes & s->used))
            continue;
        if (wd >= 0 && win == x->shape[d]) {
            copy_dim(&out->operand, d, src, sd);
            copy_dim(s->scatter ? &out->updates : &out->result, wd, src, sd);
            s->used |= axes;
        } else if (indexed && win == 1 && src == &s->lx &&
                   !listed(g->n_batching, g->operand_batching_dims, d)) {
            /* gather: a pending sum of the masked reads; scatter: each
             * device writes what lands in its block, the result keeps the
             * operand's sharding */
            copy_dim(&out->operand, d, src, sd);
            out->masked[d] = 1;
            if (!s->scatter)
                out->partial |= axes;
            s->used |= axes;
        }
    }
}

/* Batch dims: the indices' (gather), else the updates' scatter dims
 * (scatter-add only), not the batching dims. */
static void batch_dims(gather_pass *s)
{
    const ss__node *n = s->n;
    const ss_gather_dims *g = &n->gdims;
    ss__gather_part *out = s->out;
    for (int r = 0, i = 0; r < s->rrank; r++) {
        if (listed(g->n_offset, g->offset_dims, r))
            continue;
        if (i == g->index_vector_dim)
            i++;
        int id = i++;
        if (listed(g->n_batching, g->start_indices_batching_dims, id))
            continue;
        if (s->scatter && n->sub != SS_SCATTER_ADD && n->sub != SS_SCATTER_SUB)
            continue;
        const ss__layout *src = &s->li;
        int sd = id;
        if (s->scatter && s->lu.n[r]) {
            src = &s->lu;
            sd = r;
        }
        unsigned axes = dim_axes(src, sd);
        if (!axes || (axes & s->used))
            continue;
        copy_dim(&out->indices, id, src, sd);
        if (s->scatter) {
            copy_dim(&out->updates, r, src, sd);
            out->partial |= axes;
        } else {
            copy_dim(&out->result, r, src, sd);
        }
        s->used |= axes;
    }
}

static int64_t elements(const ss__node *n)
{
    int64_t e = 1;
    for (int d = 0; d < n->rank; d++)
        e *= n->shape[d];
    return e;
}

void ss__gather_partition(const ss_program *p, const ss__node *n, const ss__layout *lx_in,
                          const ss__layout *li_in, const ss__layout *lu_in, ss__gather_part *out)
{
    const ss__node *x = &p->nodes[n->in[0]], *ind = &p->nodes[n->in[1]];
    gather_pass s = {.p = p, .n = n, .scatter = n->op == SS__OP_SCATTER, .out = out};
    const ss__node *u = s.scatter ? &p->nodes[n->in[2]] : NULL;
    s.rrank = s.scatter ? u->rank : n->rank;
    ss__layout_replicated(&s.lx, x->rank);
    ss__layout_replicated(&s.li, ind->rank);
    ss__layout_replicated(&s.lu, s.rrank);
    if (lx_in && lx_in->known)
        s.lx = *lx_in;
    if (li_in && li_in->known)
        s.li = *li_in;
    if (s.scatter && lu_in && lu_in->known)
        s.lu = *lu_in;
    s.lx.partial = s.li.partial = s.lu.partial = 0;
    memset(out, 0, sizeof *out);
    ss__layout_replicated(&out->operand, x->rank);
    ss__layout_replicated(&out->indices, ind->rank);
    ss__layout_replicated(&out->updates, s.rrank);
    ss__layout_replicated(&out->result, n->rank);
    /* A mesh axis wanted both by an operand dim and by the updates' batch
     * dims goes to the larger of the operand and the updates, the smaller
     * is gathered along it: a scatter-add of an embedding gradient (updates
     * [batch, seq, embed], much larger than the [vocab, embed] table) keeps
     * its batch sharding and leaves the table's embed dim whole, as XLA's
     * compiled text of the lm_* fixtures shows; a table larger than its
     * updates keeps its own sharding. */
    if (s.scatter && n->sub == SS_SCATTER_ADD && elements(u) > elements(x)) {
        batch_dims(&s);
        operand_dims(&s);
    } else {
        operand_dims(&s);
        batch_dims(&s);
    }
    if (s.scatter)
        for (int d = 0; d < x->rank; d++)
            copy_dim(&out->result, d, &out->operand, d);
    out->result.partial = out->partial;
}

bool ss__gather_backward(const ss_program *p, const ss__node *n, const ss__layout *lr, int i,
                         ss__layout *c)
{
    const ss_gather_dims *g = &n->gdims;
    const ss__node *x = &p->nodes[n->in[0]];
    bool scatter = n->op == SS__OP_SCATTER;
    if (!lr->known || i < 0 || i >= n->nin)
        return false;
    const ss__node *t = &p->nodes[n->in[i]];
    ss__layout_replicated(c, t->rank);
    if (i == 1) {
        if (scatter)
            return false;
        /* the indices' batch dims from the result's */
        for (int r = 0, id = 0; r < n->rank; r++) {
            if (listed(g->n_offset, g->offset_dims, r))
                continue;
            if (id == g->index_vector_dim)
                id++;
            if (!listed(g->n_batching, g->start_indices_batching_dims, id))
                copy_dim(c, id, lr, r);
            id++;
        }
        return true;
    }
    /* operand (i == 0) or updates (i == 2): the passthrough dims; a
     * scatter's operand also takes the result's sharding of an indexed
     * dim of window 1 (each device writes its block of it) */
    for (int d = 0, w = 0; d < x->rank; d++) {
        bool one = listed(g->n_collapsed, g->collapsed_slice_dims, d) ||
                   listed(g->n_batching, g->operand_batching_dims, d);
        if (one && scatter && i == 0 && listed(g->n_index_map, g->start_index_map, d) &&
            !listed(g->n_batching, g->operand_batching_dims, d))
            copy_dim(c, d, lr, d);
        if (one)
            continue;
        int wd = g->offset_dims[w++];
        if (window_of(p, n, d) != x->shape[d])
            continue;
        if (i == 0)
            copy_dim(c, d, lr, scatter ? d : wd);
        else
            copy_dim(c, wd, lr, d);
    }
    return true;
}
