/*
 * xla_fusion.c — the plan's model of what XLA's TPU compiler fuses (plan
 * only, under a memory model with xla_fusion: `--device tpu-*`).
 *
 * XLA never materialises a value it fuses into the kernels that read it:
 * its instruction fusion puts a broadcast, and an elementwise producer
 * (a compare, a select, a convert, an add, an exp, a divide...) into each
 * of its consumers, duplicating it when it has several; on TPU the
 * consumers include dots and reductions, whose fusions read their
 * operands' producers. The value's bytes are then never allocated, but
 * what it is computed from must stay alive until its last consumer has
 * run.
 *
 * XLA's TPU compiler duplicates transcendental and dividing producers too,
 * which its target-independent instruction fusion calls expensive and
 * fuses into a single consumer only. Measured (libtpu 0.0.42.1, one chip
 * of v5p:2x2x2; tests/xla_tpu/make_fusion_dup.py records it in
 * tests/data/xla_tpu/fusion_dup.json): an f32 [4096, 32768] exp, divide by
 * a row sum, tanh, log or rsqrt of an argument read by a row sum and a dot,
 * or by two dots, reported temp_size_in_bytes 0, and the compiled HLO
 * computes it in two fusions; the gradient of a cross-entropy over logits
 * x @ w holds one logits buffer and computes exp(logits - max) in three
 * fusions (the sum and both gradient dots). The LARGE LM's loss compiles
 * the same way (XLA's buffer assignment of lm_large_full and
 * lm_large_dots, v5e 2x4: the f32 logits are the only [B, S, V] buffer).
 *
 * shardsim's run materialises those values (sim/spmd/fuse.c fuses what its
 * own kernels can: f32 chains); this pass rewrites the plan's copy of the
 * executable so that the values XLA fuses away take no memory: their
 * buffers are marked fused_away, the FREEs of what they are computed from
 * move to their last consumer, and nothing takes over such a buffer in
 * place. Which values: XLA decides by cost, not memory, and its choices
 * are not visible from the program; the model takes the candidates above
 * largest first and keeps each one whose fusion does not raise the planned
 * peak (a fusion that would keep a larger operand alive for longer is one
 * XLA's heuristics reject too: it does not fuse a producer whose operand
 * it would have to keep when the consumer is far away, in its
 * multi-output and memory-aware passes). This is a model of XLA's memory,
 * not of shardsim's run, and applies to the plan only.
 */
#include "lower.h"

#include <stdlib.h>
#include <string.h>

typedef struct model {
    ss_executable *e;         /* the copy being rewritten (own bufs and insts) */
    const ss__inst *orig;     /* its instructions before */
    int norig;
    int *free_at;             /* buffer -> index of its FREE in orig, -1 */
    int *death;               /* buffer -> where its FREE goes now */
    int *users;               /* buffer -> instructions reading it */
    int *producer;            /* buffer -> instruction, -1 */
    bool *in_loop;            /* buffer read by a LOOP instruction */
    bool *away;               /* buffer fused away */
    int *due, *next_due;      /* rebuild_compact's lists of FREEs per slot */
    bool compact;             /* the copy's list is compact (not parallel to orig) */
    /* Indices into orig, in order, of what rebuild rewrites: the FREEs,
     * the instructions with shares (kernels, fused, collectives), and the
     * rest but STOREs (deaths() reads). nfrees, nsharers, nmakers long. */
    int *frees, *sharers, *makers;
    int nfrees, nsharers, nmakers;
    int *maker_out;   /* per maker: its result buffer */
    /* Per buffer b, the sharers whose shares depend on it (it is their
     * result, or the operand a share names): users[at[b] .. at[b + 1]). */
    int *share_at, *share_users;
    int *was_death; /* death[] as the last rebuild left it */
    bool *was_away; /* away[] as the last rebuild made the list for */
    int *changed;   /* rebuild's buffers whose death or fusion changed */
    bool built;     /* rebuild has made the copy's list once */
    /* Per buffer: read after its producer by an instruction XLA does not
     * fuse it into (a collective, a copy out, a loop, an in-place update
     * of it); candidate() reads it. */
    bool *unfusable_reader;
} model;

/* Is buffer b a broadcast of a scalar constant (the ones of a loss's
 * gradient)? */
static bool broadcast_of_constant(const model *m, int b)
{
    int p = m->producer[b];
    if (p < 0 || m->orig[p].kind != SS__INST_KERNEL)
        return false;
    const ss_program *prog = m->e->program;
    const ss__node *n = &prog->nodes[m->orig[p].node];
    return n->op == SS__OP_BROADCAST && n->nin == 1 && prog->nodes[n->in[0]].rank == 0 &&
           prog->nodes[n->in[0]].op == SS__OP_CONSTANT;
}

/* XLA's algebraic simplifier on a dot with a broadcast of a constant
 * scalar for an operand: the result is that scalar times the other
 * operand reduced over the contracted dims, broadcast. Read in libtpu
 * 0.0.42.1's pass dumps of the fit sweep's MLP (XLA_FLAGS=--xla_dump_to
 * --xla_dump_hlo_pass_re=.*, flax_linen_fit_r262144 v5e:2x4): the last
 * layer's dot(broadcast(1), W2) [rows, 256] is broadcast(reduce(W2))
 * from spatial-partitioner-cleanup's algsimp on (a bf16[256] in the
 * optimized HLO, fused into its readers), where dot(relu, broadcast(1))
 * contracting the rows, whose result is smaller than its other operand,
 * stays a dot. Is buffer b such a dot's result, larger than its other
 * operand? */
static bool dot_of_broadcast(const model *m, int b)
{
    int p = m->producer[b];
    if (p < 0 || m->orig[p].kind != SS__INST_KERNEL || m->orig[p].nin != 2 ||
        m->e->program->nodes[m->orig[p].node].op != SS__OP_DOT)
        return false;
    const ss__inst *i = &m->orig[p];
    for (int x = 0; x < 2; x++)
        if (broadcast_of_constant(m, i->in[x]) &&
            m->e->bufs[b].bytes > m->e->bufs[i->in[1 - x]].bytes)
            return true;
    return false;
}

/* Can buffer b (the single result of instruction p) be fused into every
 * instruction that reads it? */
static bool candidate(const model *m, int b)
{
    int p = m->producer[b];
    if (p < 0 || m->free_at[b] < 0 || m->e->bufs[b].host || m->in_loop[b] ||
        m->e->bufs[b].xla_window_operand)
        return false;
    const ss__inst *i = &m->orig[p];
    if (i->kind == SS__INST_FUSED) {
        if (i->fused.nextra)
            return false;
    } else if (i->kind == SS__INST_KERNEL) {
        const ss__node *n = &m->e->program->nodes[i->node];
        if (n->op != SS__OP_BROADCAST && n->op != SS__OP_UNARY && n->op != SS__OP_BINARY &&
            n->op != SS__OP_COMPARE && n->op != SS__OP_SELECT && n->op != SS__OP_CLAMP &&
            n->op != SS__OP_FMA && !dot_of_broadcast(m, b))
            return false;
        if (i->mask_in[0].known || i->mask_in[1].known)
            return false;
    } else {
        return false;
    }
    /* Every reader a kernel XLA fuses into (not a collective, a copy out,
     * a loop, an in-place update of it). */
    if (m->unfusable_reader[b])
        return false;
    for (int x = 0; x < i->nin; x++)
        if (m->in_loop[i->in[x]] || m->e->bufs[i->in[x]].host)
            return false;
    return true;
}

/* unfusable_reader[] of m (producer[] found): one walk over the list. */
static void find_unfusable_readers(model *m)
{
    for (int k = 0; k < m->norig; k++) {
        const ss__inst *u = &m->orig[k];
        if (u->kind == SS__INST_FREE)
            continue;
        bool dus = u->kind == SS__INST_KERNEL &&
                   m->e->program->nodes[u->node].op == SS__OP_DYNAMIC_UPDATE_SLICE;
        for (int x = 0; x < u->nin; x++) {
            int b = u->in[x];
            if (b < 0 || b >= m->e->nbufs || m->producer[b] < 0 || k <= m->producer[b])
                continue;
            if ((u->kind != SS__INST_KERNEL && u->kind != SS__INST_FUSED) || (dus && x == 0))
                m->unfusable_reader[b] = true;
        }
    }
}

/* Is value v computed from constants only (constants, iotas and ops on
 * them; no argument of the program, no random bits)? memo: per value, 0
 * unknown, 1 yes, 2 no. */
static bool from_constants(const ss_program *p, ss_value v, unsigned char *memo, int depth)
{
    if (memo[v])
        return memo[v] == 1;
    const ss__node *n = &p->nodes[v];
    bool yes = depth < 64 && (n->op == SS__OP_CONSTANT || n->nin > 0);
    for (int k = 0; yes && k < n->nin; k++)
        yes = from_constants(p, n->in[k], memo, depth + 1);
    if (n->op == SS__OP_LOOP || n->op == SS__OP_LOOP_RESULT || n->op == SS__OP_CASE ||
        n->op == SS__OP_CASE_RESULT || n->op == SS__OP_RNG_BIT_GENERATOR)
        yes = false;
    memo[v] = yes ? 1 : 2;
    return yes;
}

/* Is carry k of loop l handed back unchanged by its body? */
static bool passed_through(const ss__loop_exec *l, int k)
{
    int load = ss__region_load(l->body, k);
    return load >= 0 && load == ss__region_store(l->body, k);
}

/* Is buffer b read by nothing but instruction `only` (and its FREE)? */
static bool read_only_by(const model *m, int b, int only)
{
    for (int k = 0; k < m->norig; k++) {
        const ss__inst *u = &m->orig[k];
        if (k == only || u->kind == SS__INST_FREE)
            continue;
        for (int x = 0; x < u->nin; x++)
            if (u->in[x] == b)
                return false;
    }
    return true;
}

/* XLA's while-loop constant sinking: a carry that a loop's body hands
 * back unchanged and whose initial value is a broadcast of constants (the
 * causal mask and the mask value an LM's attention scan carries) is
 * computed inside the body, where its readers fuse it, and the loop no
 * longer carries it: XLA allocates it nowhere. Measured with libtpu
 * 0.0.42.1 (AOT, one chip of v5p:2x2x2, where temporaries count in HBM):
 * a lax.scan of 3 steps carrying a 256 MiB f32 broadcast of a constant,
 * or a 64 MiB pred broadcast of a tril mask, beside a 256 MiB carry
 * updated in place, reported temp_size_in_bytes 0 (README, "Memory vs
 * XLA's TPU compiler"). Marks such carries' initial values, and the loop
 * results that alias them or that nothing reads, as away. */
static ss_status sink_broadcast_carries(model *m)
{
    ss_executable *e = m->e;
    unsigned char *memo = NULL;
    for (int k = 0; k < m->norig; k++) {
        const ss__inst *i = &m->orig[k];
        if (i->kind != SS__INST_LOOP)
            continue;
        const ss__loop_exec *l = &e->loops[i->index];
        if (l->nbranch || !l->body)
            continue;
        for (int c = 0; c < l->ncarry && c < i->nin; c++) {
            int b = i->in[c], p = m->producer[b], r = l->outs[c];
            if (p < 0 || m->orig[p].kind != SS__INST_KERNEL || e->bufs[b].host ||
                e->program->nodes[m->orig[p].node].op != SS__OP_BROADCAST ||
                m->free_at[b] < 0 || !passed_through(l, c) || !read_only_by(m, b, k) ||
                (r != b && !read_only_by(m, r, -1)))
                continue;
            if (!memo && !(memo = calloc((size_t)(e->program->n ? e->program->n : 1), 1)))
                return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
            if (!from_constants(e->program, m->orig[p].node, memo, 0))
                continue;
            m->away[b] = true;
            m->away[r] = true;
        }
    }
    free(memo);
    return SS_OK;
}

/* Is buffer b the result of a dot kernel that nothing but instruction
 * `only` reads? */
static bool dot_only_for(const model *m, int b, int only)
{
    int p = m->producer[b];
    if (p < 0 || m->orig[p].kind != SS__INST_KERNEL || m->users[b] != 1 || m->free_at[b] < 0 ||
        m->e->program->nodes[m->orig[p].node].op != SS__OP_DOT || dot_of_broadcast(m, b))
        return false;
    for (int x = 0; x < m->orig[only].nin; x++)
        if (m->orig[only].in[x] == b)
            return true;
    return false;
}

/* The instructions of orig reading buffer b (FREEs aside): how many, and
 * the first in *first. */
static int readers_of(const model *m, int b, int *first)
{
    int n = 0;
    *first = -1;
    for (int k = 0; k < m->norig; k++) {
        const ss__inst *u = &m->orig[k];
        if (u->kind == SS__INST_FREE)
            continue;
        for (int x = 0; x < u->nin; x++)
            if (u->in[x] == b) {
                if (!n++)
                    *first = k;
                break;
            }
    }
    return n;
}

/* Is instruction i an elementwise kernel (no dot, collective, copy) or
 * fuse.c's chain of them? */
static bool elementwise_kernel(const model *m, const ss__inst *i)
{
    if (i->kind == SS__INST_FUSED) /* fuse.c's f32 chains: elementwise */
        return !i->fused.nextra;
    if (i->kind != SS__INST_KERNEL || i->mask_in[0].known || i->mask_in[1].known)
        return false;
    ss__opcode op = m->e->program->nodes[i->node].op;
    return op == SS__OP_UNARY || op == SS__OP_BINARY || op == SS__OP_COMPARE ||
           op == SS__OP_SELECT || op == SS__OP_CLAMP;
}

/* Is buffer b read by nothing but DEFAULT f32 dots (which XLA feeds
 * bf16)? */
static bool read_by_bf16_dots(const model *m, int b)
{
    int n = 0;
    for (int k = 0; k < m->norig; k++) {
        const ss__inst *u = &m->orig[k];
        if (u->kind == SS__INST_FREE)
            continue;
        for (int x = 0; x < u->nin; x++) {
            if (u->in[x] != b)
                continue;
            const ss__node *d = &m->e->program->nodes[u->node];
            if (u->kind != SS__INST_KERNEL || d->op != SS__OP_DOT || d->dtype != SS_F32 ||
                d->dot_precise)
                return false;
            n++;
        }
    }
    return n > 0;
}

/* Is buffer b (the mask of select `sel`, which XLA fuses into a dot's
 * output: output_fusions) a compare(h > constant) that only `sel` reads,
 * h the result of a dot without batch dimensions that only elementwise
 * kernels read (the ReLU of a hidden layer and its mask)? XLA then
 * computes the mask inside the select's output fusion from h: the gt of
 * convolution_select_fusion.1/.2 in libtpu 0.0.42.1's optimized HLO of
 * the fit sweep's MLP and of flax_linen_train_step_b4k, whose
 * pre-activations (fusion.42-.44) only kOutput (dot) fusions read, and
 * which XLA's buffer assignment puts in HBM on v5p (plan.c's
 * ss__plan_dot_operands). The MoE layer's expert dot (batched over the experts)
 * XLA fuses otherwise: its mask packed over the experts into a u8 and its
 * ReLU in bf16, both outputs of the dot's fusion (fusion.13 of
 * moe_top2_train_step v5p:2x2x4), so the rule leaves batched dots be. */
static bool mask_of_residual(const model *m, int b, int sel)
{
    int c = m->producer[b], first;
    if (c < 0 || m->orig[c].kind != SS__INST_KERNEL || m->orig[c].nin != 2 ||
        m->e->program->nodes[m->orig[c].node].op != SS__OP_COMPARE ||
        !broadcast_of_constant(m, m->orig[c].in[1]) || readers_of(m, b, &first) != 1 ||
        first != sel || !candidate(m, b))
        return false;
    int h = m->orig[c].in[0], p = m->producer[h];
    if (p < 0 || m->orig[p].kind != SS__INST_KERNEL ||
        m->e->program->nodes[m->orig[p].node].op != SS__OP_DOT ||
        m->e->program->nodes[m->orig[p].node].nb)
        return false;
    for (int k = p + 1; k < m->norig; k++) {
        const ss__inst *u = &m->orig[k];
        if (u->kind == SS__INST_FREE || k == c)
            continue;
        for (int x = 0; x < u->nin; x++)
            if (u->in[x] == h && !elementwise_kernel(m, u))
                return false;
    }
    return true;
}

/* XLA's output fusion on TPU: a select reading a dot's result that nothing
 * else reads is fused into the dot's kernel (a kOutput fusion), which
 * writes the select's value; the dot's own result is never materialised,
 * and the select's is, in one buffer read by all its consumers, not fused
 * into each of them. Measured in libtpu 0.0.42.1's optimized HLO of the
 * fit sweep's MLP (tests/data/xla_tpu/flax_linen_fit_r*): the backward
 * ReLU mask is convolution_select_fusion.1/.2 = select(gt(pre-activation),
 * convolution(all-reduce, W^T), 0), its own buffer from that instruction
 * to its last reader, and the pre-activation XLA recomputes dies there
 * (its buffer-assignment and live-range dumps: XLA_FLAGS=--xla_dump_to
 * with tests/xla_tpu/make_records.py, read with xla_heap.py): fusing the
 * select into its two readers instead kept the recomputed pre-activation
 * and the dot's f32 result alive to the second, and XLA's heap placement
 * (xla_heap.c) of the plan's buffers then spanned 12 GiB where XLA's own
 * spans 10.5 GiB at 1,048,576 rows on v5e. Marks such dots away, and
 * such selects in *kept (not candidates). */
static void output_fusions(model *m, bool *kept)
{
    for (int k = 0; k < m->norig; k++) {
        const ss__inst *i = &m->orig[k];
        if (i->kind != SS__INST_KERNEL || m->e->program->nodes[i->node].op != SS__OP_SELECT ||
            i->mask_in[0].known || i->mask_in[1].known)
            continue;
        for (int x = 1; x < i->nin; x++)
            if (dot_only_for(m, i->in[x], k)) {
                m->away[i->in[x]] = true;
                kept[i->out] = true;
                if (mask_of_residual(m, i->in[0], k))
                    m->away[i->in[0]] = true;
                break;
            }
    }
}

/* A region's slice of one of its arguments (a scan body's step of a
 * stacked operand: a dynamic_slice, and a reshape of such a slice) whose
 * readers all fuse it: XLA reads the slice in place in the fusion that
 * uses it, and the argument is alive through the whole body anyway, so
 * it is marked away without a trial (make_loop_heap.py's probes: XLA's
 * heap at its fullest holds no slice of a stack). */
static void slices_in_place(model *m)
{
    for (int k = 0; k < m->norig; k++) {
        const ss__inst *i = &m->orig[k];
        if (i->kind != SS__INST_KERNEL || i->nin < 1 || m->e->bufs[i->out].host ||
            m->free_at[i->out] < 0)
            continue;
        ss__opcode op = m->e->program->nodes[i->node].op;
        int from = m->producer[i->in[0]];
        bool slice = op == SS__OP_DYNAMIC_SLICE && from >= 0 && m->orig[from].kind == SS__INST_LOAD;
        bool of_slice = op == SS__OP_RESHAPE && i->nin == 1 && m->away[i->in[0]];
        if ((slice || of_slice) && !m->unfusable_reader[i->out])
            m->away[i->out] = true;
    }
}

/* XLA's multi-output fusion of a dot with the ReLU mask of its result: when
 * the mask compare(h > constant) of a dot's f32 result h is read by a
 * select that several kernels read (the select not fused into a dot's
 * output: its other operand a broadcast, as the last hidden layer's
 * gradient of a summed loss is, dot_of_broadcast), XLA fuses the compare
 * into the dot's kernel and writes the mask as pred, and the other
 * elementwise readers of h too, each written once (in bf16 when only
 * DEFAULT dots read it), so that h itself is never written. Read in
 * libtpu 0.0.42.1's optimized HLO of the fit sweep's MLP
 * (tests/data/xla_tpu/flax_linen_fit_r*, its buffer-assignment and
 * live-range dumps): broadcast_compare_fusion = (pred[rows,256],
 * bf16[rows,256]) of convolution(all-reduce, W) for the last layer only,
 * the pred read by the weight gradient's and the input gradient's dots,
 * the bf16 copy by the second weight's gradient; the earlier layers'
 * masks, read by one convolution_select_fusion each, stay fused there
 * and their f32 pre-activations are written. Marks h away and its
 * readers in *kept, the bf16 ones halved. */
static void mask_fusions(model *m, bool *kept)
{
    for (int k = 0; k < m->norig; k++) {
        const ss__inst *c = &m->orig[k];
        if (!elementwise_kernel(m, c) || m->e->program->nodes[c->node].op != SS__OP_COMPARE ||
            c->nin != 2 || !broadcast_of_constant(m, c->in[1]))
            continue;
        int h = c->in[0], p = m->producer[h], s, first;
        if (p < 0 || m->orig[p].kind != SS__INST_KERNEL || m->away[h] ||
            m->e->program->nodes[m->orig[p].node].op != SS__OP_DOT || m->free_at[h] < 0 ||
            m->e->bufs[h].host || m->in_loop[h] || m->e->bufs[h].dtype != SS_F32)
            continue;
        if (readers_of(m, c->out, &s) != 1 || !elementwise_kernel(m, &m->orig[s]) ||
            m->e->program->nodes[m->orig[s].node].op != SS__OP_SELECT ||
            m->orig[s].in[0] != c->out || kept[m->orig[s].out] ||
            readers_of(m, m->orig[s].out, &first) < 2)
            continue;
        bool all = true;
        for (int j = p + 1; j < m->norig && all; j++) {
            const ss__inst *u = &m->orig[j];
            for (int x = 0; x < u->nin && u->kind != SS__INST_FREE; x++)
                if (u->in[x] == h && (!elementwise_kernel(m, u) || m->in_loop[u->out] ||
                                      m->e->bufs[u->out].host))
                    all = false;
        }
        if (!all)
            continue;
        m->away[h] = true;
        for (int j = p + 1; j < m->norig; j++) {
            const ss__inst *u = &m->orig[j];
            for (int x = 0; x < u->nin && u->kind != SS__INST_FREE; x++)
                if (u->in[x] == h) {
                    kept[u->out] = true;
                    if (u != c && m->e->bufs[u->out].dtype == SS_F32 &&
                        read_by_bf16_dots(m, u->out))
                        m->e->bufs[u->out].bytes /= 2;
                    break;
                }
        }
    }
}

/* death[] from the set away[]: a fused-away value's operands live to its
 * last consumer (and through a chain of them). */
static void deaths(model *m)
{
    memcpy(m->death, m->free_at, sizeof(int) * (size_t)m->e->nbufs);
    for (int j = m->nmakers - 1; j >= 0; j--) {
        if (!m->away[m->maker_out[j]])
            continue;
        const ss__inst *i = &m->orig[m->makers[j]];
        for (int x = 0; x < i->nin; x++) {
            int b = i->in[x];
            if (m->death[b] >= 0 && m->death[b] < m->death[i->out])
                m->death[b] = m->death[i->out];
        }
    }
}

/* c (a copy of orig instruction i) with the in-place shares the fusions
 * allow: a value fused away takes over nothing; nothing takes over a
 * fused-away buffer or one that now lives longer. */
static void fix_shares(const model *m, const ss__inst *i, ss__inst *c)
{
    if (i->kind != SS__INST_KERNEL && i->kind != SS__INST_FUSED && i->kind != SS__INST_COLL)
        return;
    int nres = i->kind == SS__INST_FUSED ? 1 + i->fused.nextra : 1;
    for (int r = 0; r < nres; r++) {
        int res = r == 0 ? i->out : i->extra_out[r - 1];
        c->share[r] = i->share[r];
        c->share_alt[r] = i->share_alt[r];
        if (m->away[res]) {
            c->share[r] = c->share_alt[r] = -1;
            continue;
        }
        int s = c->share[r] >= 0 ? i->in[c->share[r]] : -1;
        if (s >= 0 && (m->away[s] || m->death[s] != m->free_at[s]))
            c->share[r] = -1;
        s = c->share_alt[r] >= 0 ? i->in[c->share_alt[r]] : -1;
        if (s >= 0 && (m->away[s] || m->death[s] != m->free_at[s]))
            c->share_alt[r] = -1;
    }
}

/* The copy's list from orig and away[], compact: one FREE per buffer, at
 * the slot of its death (rebuild's fallback). */
static void rebuild_compact(model *m)
{
    ss_executable *e = m->e;
    /* due[k]: the buffers whose FREE goes at slot k, a list through
     * next_due in buffer order. */
    for (int k = 0; k < m->norig; k++)
        m->due[k] = -1;
    for (int b = e->nbufs - 1; b >= 0; b--)
        if (m->free_at[b] >= 0) {
            m->next_due[b] = m->due[m->death[b]];
            m->due[m->death[b]] = b;
        }
    int n = 0;
    for (int k = 0; k < m->norig; k++) {
        const ss__inst *i = &m->orig[k];
        if (i->kind == SS__INST_FREE) {
            for (int b = m->due[k]; b >= 0; b = m->next_due[b])
                e->insts[n++] = m->orig[m->free_at[b]];
            continue;
        }
        e->insts[n] = *i;
        fix_shares(m, i, &e->insts[n++]);
    }
    e->ninsts = n;
    m->compact = true;
}

/* The copy's list made whole from orig and away[] (and deaths()): each
 * FREE slot frees the buffers whose death is there, in buffer order,
 * several or none (lower.h), and the shares are fixed. When more buffers
 * die at one slot than a FREE holds, it is built compact instead. */
static void rebuild_all(model *m)
{
    ss_executable *e = m->e;
    if (m->compact) {
        memcpy(e->insts, m->orig, sizeof *e->insts * (size_t)m->norig);
        m->compact = false;
    }
    e->ninsts = m->norig;
    for (int j = 0; j < m->nfrees; j++)
        e->insts[m->frees[j]].nin = 0;
    for (int b = 0; b < e->nbufs; b++) {
        if (m->free_at[b] < 0)
            continue;
        ss__inst *f = &e->insts[m->death[b]];
        if (f->nin == SS__MAX_INPUTS) {
            rebuild_compact(m);
            break;
        }
        f->in[f->nin++] = b;
    }
    for (int j = 0; !m->compact && j < m->nsharers; j++)
        fix_shares(m, &m->orig[m->sharers[j]], &e->insts[m->sharers[j]]);
    for (int b = 0; b < e->nbufs; b++)
        e->bufs[b].fused_away = m->away[b];
}

/* Fix the shares of the copy's instruction k (a sharer): did they change? */
static bool shares_changed(const model *m, int k)
{
    ss__inst *c = &m->e->insts[k];
    int8_t share[sizeof c->share], alt[sizeof c->share_alt];
    memcpy(share, c->share, sizeof share);
    memcpy(alt, c->share_alt, sizeof alt);
    fix_shares(m, &m->orig[k], c);
    return memcmp(share, c->share, sizeof share) || memcmp(alt, c->share_alt, sizeof alt);
}

/* Buffer b out of FREE f's list (where it is). */
static void free_list_remove(ss__inst *f, int b)
{
    int x = 0;
    while (x < f->nin && f->in[x] != b)
        x++;
    if (x == f->nin)
        return;
    memmove(&f->in[x], &f->in[x + 1], sizeof f->in[0] * (size_t)(f->nin - x - 1));
    f->nin--;
}

/* Buffer b into FREE f's list, in buffer order; false when it is full. */
static bool free_list_insert(ss__inst *f, int b)
{
    if (f->nin == SS__MAX_INPUTS)
        return false;
    int x = f->nin;
    while (x > 0 && f->in[x - 1] > b)
        x--;
    memmove(&f->in[x + 1], &f->in[x], sizeof f->in[0] * (size_t)(f->nin - x));
    f->in[x] = b;
    f->nin++;
    return true;
}

/* The instruction list of the copy from orig and away[]. It stays
 * parallel to orig (instruction k at k) and is rewritten in place
 * (rebuild_all); an instruction is never copied whole (they are
 * kilobytes, and the search rebuilds once per candidate). After the first
 * list only what the change of away[] reaches is rewritten: the FREEs of
 * the buffers whose death moved, the shares that depend on them or on a
 * buffer whose fusion changed, and that fusion. Returns the first
 * instruction that may differ from the list the last rebuild made (0
 * after a compact one, or the first). */
static int rebuild(model *m)
{
    ss_executable *e = m->e;
    memcpy(m->was_death, m->death, sizeof(int) * (size_t)e->nbufs);
    deaths(m);
    if (!m->built || m->compact) {
        m->built = true;
        memcpy(m->was_away, m->away, (size_t)e->nbufs);
        rebuild_all(m);
        return 0;
    }
    int from = m->norig, nc = 0;
    for (int b = 0; b < e->nbufs; b++)
        if (m->was_death[b] != m->death[b] || m->was_away[b] != m->away[b])
            m->changed[nc++] = b;
    memcpy(m->was_away, m->away, (size_t)e->nbufs);
    /* Out of their old FREEs first: a FREE is full only with what stays. */
    for (int c = 0; c < nc; c++) {
        int b = m->changed[c];
        if (m->free_at[b] >= 0 && m->was_death[b] != m->death[b]) {
            free_list_remove(&e->insts[m->was_death[b]], b);
            int moved = m->was_death[b] < m->death[b] ? m->was_death[b] : m->death[b];
            from = moved < from ? moved : from;
        }
    }
    for (int c = 0; c < nc; c++) {
        int b = m->changed[c];
        if (m->free_at[b] >= 0 && m->was_death[b] != m->death[b] &&
            !free_list_insert(&e->insts[m->death[b]], b)) {
            rebuild_all(m); /* compact, then */
            return 0;
        }
    }
    for (int c = 0; c < nc; c++) {
        int b = m->changed[c];
        bool fused = e->bufs[b].fused_away != m->away[b];
        for (int x = m->share_at[b]; x < m->share_at[b + 1]; x++) {
            int k = m->share_users[x];
            if (shares_changed(m, k) && k < from)
                from = k;
        }
        /* A buffer's fused_away is first read where it is made (a
         * candidate has one producer; any other: from the start). */
        if (fused) {
            int at = m->producer[b] >= 0 ? m->producer[b] : 0;
            from = at < from ? at : from;
            e->bufs[b].fused_away = m->away[b];
        }
    }
    return from;
}

/* The sharers of m's list by the buffers their shares depend on (their
 * results, the operands their shares name): share_at, share_users. */
static ss_status share_index(model *m)
{
    int nb = m->e->nbufs, n = 0;
    m->share_at = calloc((size_t)nb + 2, sizeof *m->share_at);
    if (!m->share_at)
        return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    for (int pass = 0; pass < 2; pass++) {
        for (int j = 0; j < m->nsharers; j++) {
            const ss__inst *i = &m->orig[m->sharers[j]];
            int nres = i->kind == SS__INST_FUSED ? 1 + i->fused.nextra : 1;
            for (int r = 0; r < nres; r++) {
                int bufs[3] = {r == 0 ? i->out : i->extra_out[r - 1],
                               i->share[r] >= 0 ? i->in[i->share[r]] : -1,
                               i->share_alt[r] >= 0 ? i->in[i->share_alt[r]] : -1};
                for (int x = 0; x < 3; x++) {
                    if (bufs[x] < 0 || bufs[x] >= nb)
                        continue;
                    if (pass == 0)
                        m->share_at[bufs[x] + 2]++;
                    else
                        m->share_users[m->share_at[bufs[x] + 1]++] = m->sharers[j];
                }
            }
        }
        if (pass == 1)
            break;
        for (int b = 0; b < nb; b++)
            m->share_at[b + 2] += m->share_at[b + 1];
        n = m->share_at[nb + 1];
        m->share_users = malloc(sizeof *m->share_users * (size_t)(n ? n : 1));
        if (!m->share_users)
            return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    }
    return SS_OK;
}

/* A candidate: a buffer and its bytes. */
typedef struct cand {
    int buf;
    size_t bytes;
} cand;

static int cand_cmp(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes ? 1 : -1;
    return x->buf - y->buf;
}

ss_status ss__executable_xla_fused(ss_executable *e, ss__peak_fn peak_of, void *ctx)
{
    int nb = e->nbufs, ni = e->ninsts;
    size_t nbz = (size_t)(nb ? nb : 1), niz = (size_t)(ni ? ni : 1);
    model m = {e, e->insts, ni, malloc(sizeof(int) * nbz), calloc(nbz, sizeof(int)),
               calloc(nbz, sizeof(int)), malloc(sizeof(int) * nbz), calloc(nbz, 1),
               calloc(nbz, 1), malloc(sizeof(int) * niz), malloc(sizeof(int) * nbz), false,
               malloc(sizeof(int) * 4 * niz), NULL, NULL, 0, 0, 0, NULL, NULL, NULL,
               malloc(sizeof(int) * nbz), malloc(nbz), malloc(sizeof(int) * nbz), false,
               calloc(nbz, 1)};
    ss__inst *insts = malloc(sizeof *insts * niz);
    cand *cands = malloc(sizeof *cands * nbz);
    ss_status st = SS_OK;
    if (!m.free_at || !m.death || !m.users || !m.producer || !m.in_loop || !m.away || !m.due ||
        !m.next_due || !m.frees || !m.was_death || !m.was_away || !m.changed ||
        !m.unfusable_reader || !insts || !cands) {
        st = ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
        goto done;
    }
    for (int b = 0; b < nb; b++)
        m.free_at[b] = m.producer[b] = -1;
    m.sharers = m.frees + niz;
    m.makers = m.sharers + niz;
    m.maker_out = m.makers + niz;
    for (int k = 0; k < ni; k++) {
        const ss__inst *i = &e->insts[k];
        ss__inst_kind kind = i->kind;
        if (kind == SS__INST_KERNEL || kind == SS__INST_FUSED || kind == SS__INST_COLL)
            m.sharers[m.nsharers++] = k;
        if (kind != SS__INST_FREE && kind != SS__INST_STORE) {
            m.maker_out[m.nmakers] = i->out;
            m.makers[m.nmakers++] = k;
        }
        if (kind == SS__INST_FREE) {
            m.frees[m.nfrees++] = k;
            m.free_at[i->in[0]] = k;
            continue;
        }
        for (int x = 0; x < i->nin; x++) {
            m.users[i->in[x]]++;
            if (i->kind == SS__INST_LOOP)
                m.in_loop[i->in[x]] = true;
        }
        if (i->kind == SS__INST_LOOP || i->kind == SS__INST_STORE)
            continue;
        /* single-result instructions only */
        if (!(i->kind == SS__INST_FUSED && i->fused.nextra))
            m.producer[i->out] = k;
    }
    if ((st = share_index(&m)))
        goto done;
    find_unfusable_readers(&m);
    bool *ok = calloc(nbz, 1), *tried = calloc(nbz, 1), *at = calloc(nbz, 1);
    if (!ok || !tried || !at) {
        free(ok);
        free(tried);
        free(at);
        st = ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
        goto done;
    }
    bool any = false, sunk = false;
    if ((st = sink_broadcast_carries(&m)))
        goto done_flags;
    output_fusions(&m, tried); /* tried: here the selects kept */
    mask_fusions(&m, tried);
    slices_in_place(&m);
    for (int b = 0; b < nb; b++) {
        ok[b] = !tried[b] && candidate(&m, b);
        tried[b] = false;
        any = any || ok[b];
        sunk = sunk || m.away[b];
    }
    if (any || sunk) {
        memcpy(insts, e->insts, sizeof *insts * (size_t)ni);
        m.orig = e->insts;
        e->insts = insts; /* the copy's own list from here on */
        insts = NULL;
        size_t best;
        int from = rebuild(&m); /* where each list first differs from the last planned */
        st = peak_of(e, ctx, &best, at, from);
        /* Without loops a plan is cheap: first every candidate, largest
         * first, each kept when the peak does not rise (a fusion that
         * changes nothing at the peak may make room for another). A
         * candidate's plan wants its peak only: at[] is read from the plan
         * made again after each pass. */
        if (!e->nloops) {
            int nc = 0;
            for (int b = 0; b < nb; b++)
                if (ok[b])
                    cands[nc++] = (cand){b, e->bufs[b].bytes};
            qsort(cands, (size_t)nc, sizeof *cands, cand_cmp);
            for (int c = 0; c < nc && !st && cands[c].bytes * 1000 >= best; c++) {
                size_t peak;
                m.away[cands[c].buf] = true;
                from = rebuild(&m);
                if ((st = peak_of(e, ctx, &peak, NULL, from)))
                    break;
                if (peak <= best)
                    best = peak;
                else
                    m.away[cands[c].buf] = false;
            }
            if (!st) {
                from = rebuild(&m);
                st = peak_of(e, ctx, &best, at, from);
            }
        }
        /* Only a value alive at the peak can lower it: try those, largest
         * first; then those at the new peak (again the ones rejected, if
         * the peak went down), for a bounded number of rounds. */
        for (int round = 0; round < 16 && !st; round++) {
            int nc = 0;
            for (int b = 0; b < nb; b++)
                if (ok[b] && at[b] && !tried[b])
                    cands[nc++] = (cand){b, e->bufs[b].bytes};
            if (!nc)
                break;
            qsort(cands, (size_t)nc, sizeof *cands, cand_cmp);
            bool lowered = false;
            for (int c = 0; c < nc && !st; c++) {
                size_t peak;
                tried[cands[c].buf] = true;
                m.away[cands[c].buf] = true;
                from = rebuild(&m);
                if ((st = peak_of(e, ctx, &peak, NULL, from)))
                    break;
                if (peak <= best) {
                    lowered = lowered || peak < best;
                    best = peak;
                } else {
                    m.away[cands[c].buf] = false;
                }
            }
            if (!st) {
                from = rebuild(&m);
                st = peak_of(e, ctx, &best, at, from);
            }
            /* A lower peak is elsewhere: what was rejected may help there. */
            if (lowered)
                for (int b = 0; b < nb; b++)
                    tried[b] = tried[b] && m.away[b];
        }
    }
done_flags:
    free(ok);
    free(tried);
    free(at);
done:
    free(m.free_at);
    free(m.death);
    free(m.users);
    free(m.producer);
    free(m.in_loop);
    free(m.away);
    free(m.due);
    free(m.next_due);
    free(m.frees);
    free(m.share_at);
    free(m.share_users);
    free(m.was_death);
    free(m.was_away);
    free(m.changed);
    free(m.unfusable_reader);
    free(insts);
    free(cands);
    return st;
}
