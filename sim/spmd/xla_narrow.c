/*
 * xla_narrow.c — the all-gathers XLA's TPU compiler moves in bf16 (plan
 * and ledger only, under a memory model with xla_bf16_gathers:
 * `--device tpu-*`).
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
 * scatter-add of its gradient), and no reduce-scatter or all-reduce is
 * narrowed (a dot's f32 result is reduced in f32).
 *
 * The pass marks the gathered buffer (ss__bufdesc.xla_bf16): the plan
 * under the model sizes it as bf16 (ss__executable_laid_out) and the
 * executable's ledger records the gather as bf16 (ss_executable_ledger_get).
 * The run is untouched: it still gathers f32, with JAX's CPU numerics.
 * A dot whose precision_config asks for HIGH or HIGHEST (ss__node
 * .dot_precise) keeps its gathered operand f32, as XLA does.
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

/* Does buffer b reach only DEFAULT f32 dots, directly or through
 * transposes and reshapes read only so? mark: also mark b and those
 * intermediates xla_bf16. */
static bool dots_only(ss_executable *e, const readers *r, int b, int depth, bool mark)
{
    if (depth > 8 || r->at[b] == r->at[b + 1])
        return false;
    for (int k = r->at[b]; k < r->at[b + 1]; k++) {
        const ss__inst *i = &e->insts[r->list[k]];
        if (bf16_dot(e, i))
            continue;
        if (!movement(e, i) || i->out < 0 || i->out >= e->nbufs ||
            !dots_only(e, r, i->out, depth + 1, mark))
            return false;
    }
    if (mark)
        e->bufs[b].xla_bf16 = true;
    return true;
}

/* Mark e's gathers (and those of its loops' and conditionals' regions);
 * *marked counts them. */
static ss_status narrow(ss_executable *e, int *marked)
{
    readers r;
    ss_status st = e->nbufs ? readers_of(e, &r) : SS_OK;
    for (int k = 0; !st && k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        if (i->kind != SS__INST_COLL || i->coll.kind != SS_COLL_ALL_GATHER ||
            i->coll.dtype != SS_F32 || i->out < 0 || i->out >= e->nbufs ||
            e->bufs[i->out].xla_bf16)
            continue;
        if (dots_only(e, &r, i->out, 0, false)) {
            dots_only(e, &r, i->out, 0, true);
            ++*marked;
        }
    }
    if (e->nbufs && !st) {
        free(r.at);
        free(r.list);
    }
    for (int l = 0; l < e->nloops && !st; l++) {
        ss__loop_exec *lp = &e->loops[l];
        if (lp->cond)
            st = narrow(lp->cond, marked);
        if (!st && lp->body)
            st = narrow(lp->body, marked);
        for (int b = 0; b < lp->nbranch && !st; b++)
            st = narrow(lp->branch[b], marked);
    }
    return st;
}

ss_status ss_executable_model_gathers(ss_executable *e, const ss_memory_model *model,
                                      int *marked)
{
    int n = 0;
    if (!e || !model)
        return ss__fail(SS_ERR_INVALID, "model gathers: no executable or memory model");
    ss_status st = model->xla_bf16_gathers ? narrow(e, &n) : SS_OK;
    if (marked)
        *marked = n;
    return st;
}
