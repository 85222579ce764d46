/*
 * xla_narrow.c — the all-gathers XLA's TPU compiler moves in bf16, and the
 * all-reduces whose results it writes in bf16 (plan and ledger only,
 * under a memory model with xla_bf16_gathers: `--device tpu-*`).
 *
 * XLA's TPU compiler computes an f32 dot_general of DEFAULT precision as
 * one bf16 pass: it converts the operands to bf16 before the dot. When an
 * operand is an all-gather read by nothing but such dots, the narrowing
 * convert moves above the all-gather (converting then gathering gives the
 * same values), so the gather moves bf16 and its gathered buffer is half
 * the f32 one; the convert of the local shard is fused into the
 * collective's operand. Measured on XLA's partitioned HLO of the scanned
 * LM (tests/data/xla_tpu/lm_*: every all-gather of a layer weight over
 * fsdp and of an activation over tensor inside the layer loops is bf16,
 * each half of shardsim's f32 gather of the same block), while gathers
 * read by other ops stay f32 (the embedding lookup's result, the
 * scatter-add of its gradient), and no reduce-scatter is narrowed.
 *
 * An all-reduce is narrowed on its result side only: XLA reduces the dot's
 * f32 partial sums in f32 and writes the sum in bf16 when nothing but such
 * dots reads it (the convert moves into the collective), so the operand
 * stays f32 and the result buffer is half. Measured in libtpu 0.0.42.1's
 * records (every record.json of tests/data/xla_tpu, result_bytes half of
 * operand_bytes): the Flax MLP's 6 activation all-reduces per step (the
 * hidden layer's partial sums, forward and backward, read by the next
 * layer's dot and by a weight gradient's dot) on every v5e and v5p slice
 * and every batch of the fit sweep, f32[rows,1024] -> bf16 (its buffer
 * assignment: bf16[rows,1024] all-reduce results beside the f32 dot
 * outputs); no all-reduce of the LM, the MoE layer or the transformer
 * block (their sums are read by adds, norms, the optimizer).
 *
 * The pass marks the gathered (or reduced) buffer (ss__bufdesc.xla_bf16):
 * the plan under the model sizes it as bf16 (ss__executable_laid_out) and
 * the executable's ledger records a gather as bf16, an all-reduce as f32,
 * its operand (ss_executable_ledger_get).
 * The run is untouched: it still gathers f32, with JAX's CPU numerics.
 * A dot whose precision_config asks for HIGH or HIGHEST (ss__node
 * .dot_precise) keeps its gathered operand f32, as XLA does.
 *
 * The same narrowing reaches a scan's stacked residuals (under
 * xla_bf16_stashes): when the loop that reads a stack back (the backward
 * pass's) reads it only by dynamic slices that feed such dots (directly,
 * through transposes and reshapes, or through f32 all-gathers), and the
 * loop that fills it writes it only by an in-place dynamic_update_slice,
 * the convert moves above the update and XLA keeps the whole stack in
 * bf16. Measured: the buffer assignment of lm_large_noremat (libtpu
 * 0.0.42.1, v5e:2x4) holds exactly the eight stacks this rule picks in
 * bf16 (the attention probabilities, 1 GiB instead of 2; q, k, v, the
 * attention output and the two normed inputs; the MLP's gated product)
 * and the other twenty in f32, and lm_large_dots's four dot-only stacks;
 * tests/xla_tpu/make_stash_dtypes.py probes a DEFAULT dot (bf16), a
 * HIGHEST dot and an elementwise reader (f32). The pass marks the stack's
 * buffers in both loops and between them, its initial value, and the
 * slices' paths to the dots.
 *
 * A dot XLA computes as a windowed einsum (xla_windowed.c) reads its
 * operands as the loop's state: each is written whole, never fused into
 * its readers (ss__bufdesc.xla_window_operand), and in bf16 when such dots
 * alone read it, as the logits' gradient of the LARGE LM on v5e 16x16 is
 * (bf16[16,1024,2048] in the output layer's two gradient loops; f32 and
 * fused into the plain dots of the smaller slices).
 */
#include "lower.h"

#include <stdlib.h>

/* Is instruction i a dot that XLA's TPU compiler feeds bf16 operands? */
static bool bf16_dot(const ss_executable *e, const ss__inst *i)
{
    if (i->kind != SS__INST_KERNEL)
        return false;
    const ss__node *n = &e->program->nodes[i->node];
    return n->op == SS__OP_DOT && n->dtype == SS_F32 && !n->dot_precise;
}

/* Is instruction i a transpose or reshape of f32 (a layout change, which
 * XLA folds into the dot that reads it or moves the convert through)? */
static bool movement(const ss_executable *e, const ss__inst *i)
{
    if (i->kind != SS__INST_KERNEL || i->nin != 1)
        return false;
    const ss__node *n = &e->program->nodes[i->node];
    return (n->op == SS__OP_TRANSPOSE || n->op == SS__OP_RESHAPE) && n->dtype == SS_F32;
}

/* Per buffer: its readers (FREEs aside) in e. */
typedef struct readers {
    int *at, *list; /* readers of b: list[at[b] .. at[b + 1]) */
} readers;

static ss_status readers_of(const ss_executable *e, readers *r)
{
    size_t nb = (size_t)e->nbufs;
    r->at = calloc(nb + 2, sizeof *r->at);
    int total = 0;
    for (int k = 0; k < e->ninsts; k++)
        total += e->insts[k].kind == SS__INST_FREE ? 0 : e->insts[k].nin;
    r->list = malloc(sizeof *r->list * (size_t)(total + 1));
    if (!r->at || !r->list) {
        free(r->at);
        free(r->list);
        return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    }
    for (int k = 0; k < e->ninsts; k++)
        for (int x = 0; e->insts[k].kind != SS__INST_FREE && x < e->insts[k].nin; x++)
            if (e->insts[k].in[x] >= 0 && e->insts[k].in[x] < e->nbufs)
                r->at[e->insts[k].in[x] + 2]++;
    for (size_t b = 0; b < nb; b++)
        r->at[b + 2] += r->at[b + 1];
    for (int k = 0; k < e->ninsts; k++)
        for (int x = 0; e->insts[k].kind != SS__INST_FREE && x < e->insts[k].nin; x++)
            if (e->insts[k].in[x] >= 0 && e->insts[k].in[x] < e->nbufs)
                r->list[r->at[e->insts[k].in[x] + 1]++] = k;
    return SS_OK;
}

/* Is instruction i an f32 all-gather? */
static bool f32_gather(const ss__inst *i)
{
    return i->kind == SS__INST_COLL && i->coll.kind == SS_COLL_ALL_GATHER &&
           i->coll.dtype == SS_F32;
}

/* Does buffer b reach only DEFAULT f32 dots, directly or through
 * transposes and reshapes read only so (and, with `gathers`, f32
 * all-gathers read only so: a gather of a bf16 value is a bf16 gather)?
 * mark: also mark b and those intermediates xla_bf16. */
static bool dots_only_via(ss_executable *e, const readers *r, int b, int depth, bool mark,
                          bool gathers)
{
    if (depth > 8 || r->at[b] == r->at[b + 1])
        return false;
    for (int k = r->at[b]; k < r->at[b + 1]; k++) {
        const ss__inst *i = &e->insts[r->list[k]];
        if (bf16_dot(e, i))
            continue;
        if (!(movement(e, i) || (gathers && f32_gather(i))) || i->out < 0 || i->out >= e->nbufs ||
            !dots_only_via(e, r, i->out, depth + 1, mark, gathers))
            return false;
    }
    if (mark)
        e->bufs[b].xla_bf16 = true;
    return true;
}

static bool dots_only(ss_executable *e, const readers *r, int b, int depth, bool mark)
{
    return dots_only_via(e, r, b, depth, mark, false);
}

/* Is instruction i a KERNEL of op `op`? */
static bool kernel_op(const ss_executable *e, const ss__inst *i, ss__opcode op)
{
    return i->kind == SS__INST_KERNEL && e->program->nodes[i->node].op == op;
}

/* Does loop body `body` hand carry k back unchanged and read it only by
 * dynamic slices (a step of the stack) that reach only bf16 dots? mark:
 * also mark the carry and the slices' paths to the dots xla_bf16. */
static bool stash_read_by_dots(ss_executable *body, const readers *r, int k, bool mark)
{
    int lb = ss__region_load(body, k);
    if (lb < 0 || ss__region_store(body, k) != lb || body->bufs[lb].dtype != SS_F32)
        return false;
    int slices = 0;
    for (int x = r->at[lb]; x < r->at[lb + 1]; x++) {
        const ss__inst *i = &body->insts[r->list[x]];
        if (i->kind == SS__INST_STORE && i->index == k)
            continue;
        if (!kernel_op(body, i, SS__OP_DYNAMIC_SLICE) || i->in[0] != lb || i->out < 0 ||
            i->out >= body->nbufs || !dots_only_via(body, r, i->out, 0, false, true))
            return false;
        for (int y = 1; y < i->nin; y++)
            if (i->in[y] == lb)
                return false;
        slices++;
        if (mark)
            dots_only_via(body, r, i->out, 0, true, true);
    }
    if (mark && slices)
        body->bufs[lb].xla_bf16 = true;
    return slices > 0;
}

/* Does loop body `body` write carry j only by a dynamic_update_slice of it
 * (a step into the stack), in place? mark: also mark the carry and the
 * updated stack xla_bf16. */
static bool stash_written(ss_executable *body, const readers *r, int j, bool mark)
{
    int lb = ss__region_load(body, j), sb = ss__region_store(body, j);
    if (lb < 0 || sb < 0 || lb == sb || r->at[lb + 1] - r->at[lb] != 1)
        return false;
    const ss__inst *d = &body->insts[r->list[r->at[lb]]];
    if (!kernel_op(body, d, SS__OP_DYNAMIC_UPDATE_SLICE) || d->in[0] != lb || d->out != sb ||
        body->bufs[sb].dtype != SS_F32)
        return false;
    if (mark)
        body->bufs[lb].xla_bf16 = body->bufs[sb].xla_bf16 = true;
    return true;
}

/* The loop instruction of e whose carry result is buffer b (*carry: which
 * carry), or NULL. */
static const ss__inst *carry_maker(const ss_executable *e, int b, int *carry)
{
    for (int k = 0; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        if (i->kind != SS__INST_LOOP || e->loops[i->index].nbranch)
            continue;
        const ss__loop_exec *l = &e->loops[i->index];
        for (int j = 0; j < l->ncarry; j++)
            if (l->outs[j] == b) {
                *carry = j;
                return i;
            }
    }
    return NULL;
}

/* The readers of loop bodies, each built on first use (stashes: marking
 * changes buffers' flags, never who reads them). */
typedef struct body_readers {
    const ss_executable *body;
    readers r;
} body_readers;

/* The readers of `body` from cache (n of them, room for one per loop of
 * the executable around it), built there when new; NULL when out of host
 * memory (the failure is recorded). */
static const readers *readers_cached(body_readers *cache, int *n, const ss_executable *body)
{
    for (int k = 0; k < *n; k++)
        if (cache[k].body == body)
            return &cache[k].r;
    if (readers_of(body, &cache[*n].r))
        return NULL;
    cache[*n].body = body;
    return &cache[(*n)++].r;
}

/* Mark xla_bf16 the stacks one loop of e fills (stash_written) and a
 * later loop reads back only as bf16 dot operands (stash_read_by_dots),
 * nothing else reading them in e: their buffers in e (the first loop's
 * result, the later one's, the initial value when only the first loop
 * reads it) and in both bodies (the file's comment); *marked counts
 * them. r: the readers of e's buffers. */
static ss_status stashes(ss_executable *e, const readers *r, int *marked)
{
    body_readers *cache = calloc((size_t)(e->nloops ? e->nloops : 1), sizeof *cache);
    if (!cache)
        return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    int cached = 0;
    ss_status st = SS_OK;
    for (int k = 0; k < e->ninsts && !st; k++) {
        const ss__inst *use = &e->insts[k];
        if (use->kind != SS__INST_LOOP || e->loops[use->index].nbranch)
            continue;
        const ss__loop_exec *l = &e->loops[use->index];
        for (int c = 0; c < l->ncarry; c++) {
            int b = use->in[c], j = -1;
            if (b < 0 || b >= e->nbufs || e->bufs[b].xla_bf16 || e->bufs[b].dtype != SS_F32 ||
                r->at[b + 1] - r->at[b] != 1)
                continue; /* read by more than this loop (or twice by it) */
            const ss__inst *make = carry_maker(e, b, &j);
            int res = l->outs[c];
            if (!make || make == use || (res != b && r->at[res + 1] != r->at[res]))
                continue; /* not a loop's stack, or read after the loop reads it */
            ss__loop_exec *m = &e->loops[make->index];
            const readers *rb = readers_cached(cache, &cached, l->body),
                          *rm = rb ? readers_cached(cache, &cached, m->body) : NULL;
            if (!rm) {
                st = SS_ERR_NOMEM;
                break;
            }
            if (stash_read_by_dots(l->body, rb, c, false) && stash_written(m->body, rm, j, false)) {
                stash_read_by_dots(l->body, rb, c, true);
                stash_written(m->body, rm, j, true);
                e->bufs[b].xla_bf16 = e->bufs[res].xla_bf16 = true;
                int init = make->in[j]; /* the stack's first value, when the loop alone reads it */
                if (init >= 0 && init < e->nbufs && r->at[init + 1] - r->at[init] == 1 &&
                    e->bufs[init].dtype == SS_F32)
                    e->bufs[init].xla_bf16 = true;
                ++*marked;
            }
        }
    }
    for (int k = 0; k < cached; k++)
        free(cache[k].r.at), free(cache[k].r.list);
    free(cache);
    return st;
}

/* Is instruction i a collective that XLA narrows when its result reaches
 * only DEFAULT f32 dots: an f32 all-gather (moved in bf16) or all-reduce
 * (its sum written in bf16)? */
static bool narrowable(const ss_executable *e, const ss__inst *i)
{
    return i->kind == SS__INST_COLL && i->coll.dtype == SS_F32 && i->out >= 0 &&
           i->out < e->nbufs && !e->bufs[i->out].xla_bf16 &&
           (i->coll.kind == SS_COLL_ALL_GATHER || i->coll.kind == SS_COLL_ALL_REDUCE);
}

/* Is buffer b the result of a DEFAULT f32 dot that instruction `only`
 * alone reads (FREEs aside)? r: the readers of e's buffers. */
static bool dot_read_only_by(const ss_executable *e, const readers *r, int b, int only)
{
    if (b < 0 || b >= e->nbufs || r->at[b + 1] - r->at[b] != 1 || r->list[r->at[b]] != only)
        return false;
    for (int k = 0; k < only; k++)
        if (e->insts[k].out == b && e->insts[k].kind != SS__INST_FREE)
            return bf16_dot(e, &e->insts[k]);
    return false;
}

/* Is instruction k of e a select of f32 that XLA's TPU compiler fuses
 * into the dot producing one of its operands (xla_fusion.c, output_fusions) and
 * whose result reaches only DEFAULT f32 dots? Then the convert those dots
 * want moves into that output fusion and XLA writes the select in bf16:
 * the backward ReLU mask's convolution_select_fusion.1/.2 of the fit
 * sweep's MLP (tests/data/xla_tpu/flax_linen_fit_r*, libtpu 0.0.42.1's
 * optimized HLO: bf16[rows,256] = select(gt, convolution(all-reduce,
 * W^T), 0), read by the weight gradient's dot and the next layer's). */
static bool narrow_output_fusion(const ss_executable *e, const readers *r, int k)
{
    const ss__inst *i = &e->insts[k];
    if (!kernel_op(e, i, SS__OP_SELECT) || e->program->nodes[i->node].dtype != SS_F32 ||
        i->out < 0 || i->out >= e->nbufs || e->bufs[i->out].xla_bf16)
        return false;
    bool fused = false;
    for (int x = 1; x < i->nin && !fused; x++)
        fused = dot_read_only_by(e, r, i->in[x], k);
    return fused;
}

/* Mark the operands of e's windowed dots (xla_windowed.c): each is the
 * loop's state, never fused away (xla_window_operand), and written in
 * bf16 when DEFAULT f32 dots alone read it (the loop reads it so). */
static ss_status windowed_operands(ss_executable *e, const readers *r,
                                   const ss_memory_model *model)
{
    int *producer;
    ss_status st = ss__producers(e, &producer);
    for (int k = 0; !st && k < e->ninsts; k++) {
        if (!ss__xla_windowed_dot(e, k, producer, model))
            continue;
        const ss__inst *i = &e->insts[k];
        for (int x = 0; x < i->nin; x++) {
            int b = i->in[x], p = producer[b];
            if (p < 0 || e->insts[p].kind == SS__INST_LOAD)
                continue;
            e->bufs[b].xla_window_operand = true;
            if (!e->bufs[b].xla_bf16 && e->bufs[b].dtype == SS_F32 && dots_only(e, r, b, 0, false))
                dots_only(e, r, b, 0, true);
        }
    }
    if (!st)
        free(producer);
    return st;
}

/* Mark e's gathers and all-reduces (with `gathers`) and stacks (with `stash`), and those
 * of its loops' and conditionals' regions; *ngathers and *nstashes count
 * them. */
static ss_status narrow(ss_executable *e, bool gathers, bool stash,
                        const ss_memory_model *windows, int *ngathers, int *nstashes)
{
    readers r;
    ss_status st = e->nbufs ? readers_of(e, &r) : SS_OK;
    bool have = e->nbufs && !st; /* r is built (and freed below) */
    for (int k = 0; gathers && !st && k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        if (!narrowable(e, i))
            continue;
        if (dots_only(e, &r, i->out, 0, false)) {
            dots_only(e, &r, i->out, 0, true);
            ++*ngathers;
        }
    }
    for (int k = 0; gathers && !st && k < e->ninsts; k++)
        if (narrow_output_fusion(e, &r, k) && dots_only(e, &r, e->insts[k].out, 0, false))
            dots_only(e, &r, e->insts[k].out, 0, true);
    if (stash && have)
        st = stashes(e, &r, nstashes);
    if (!st && have && windows && !e->region)
        st = windowed_operands(e, &r, windows);
    if (have) {
        free(r.at);
        free(r.list);
    }
    for (int l = 0; l < e->nloops && !st; l++) {
        ss__loop_exec *lp = &e->loops[l];
        if (lp->cond)
            st = narrow(lp->cond, gathers, stash, windows, ngathers, nstashes);
        if (!st && lp->body)
            st = narrow(lp->body, gathers, stash, windows, ngathers, nstashes);
        for (int b = 0; b < lp->nbranch && !st; b++)
            st = narrow(lp->branch[b], gathers, stash, windows, ngathers, nstashes);
    }
    return st;
}

ss_status ss_executable_model_gathers(ss_executable *e, const ss_memory_model *model,
                                      int *marked)
{
    int n = 0, stacks = 0;
    if (!e || !model)
        return ss__fail(SS_ERR_INVALID, "model gathers: no executable or memory model");
    ss_status st = model->xla_bf16_gathers || model->xla_bf16_stashes || model->xla_windowed_ring
                       ? narrow(e, model->xla_bf16_gathers, model->xla_bf16_stashes,
                                model->xla_windowed_ring ? model : NULL, &n, &stacks)
                       : SS_OK;
    if (marked)
        *marked = n;
    return st;
}
