/*
 * out_slots.c — XLA's reuse of a program's output buffers for its
 * temporaries, for the plan under a TPU memory model (plan.c).
 *
 * XLA's buffer assignment allocates every output of the entry computation
 * for the whole program ("maybe-live-out" allocations: output_size_in_bytes
 * counts them in full) and assigns a temporary to an output's allocation
 * when the temporary fits in it and dies before the output is written; only
 * the others go to the temporary heap (temp_size_in_bytes). Observed in
 * libtpu 0.0.42.1's buffer assignment of transformer_block_adamw on one
 * chip of v5p:2x2x2 (XLA_FLAGS=--xla_dump_to with tests/xla_tpu/
 * make_records.py; tests/xla_tpu/xla_out_slots.py checks it on every
 * record dumped): its 4 MiB output allocations of the updated weights first
 * hold the attention's dot outputs and all-reduces (one allocation held
 * eleven values in turn), the 1 MiB ones bf16 q/k/v, so the heap held one
 * 8 MiB array (temp 10.78 MiB). Each output allocation holds one value at a
 * time, at offset 0, of at most its size.
 *
 * The plan counts the outputs from the start (their slots) and places a
 * temporary born at instruction k that dies (its FREE) before some free
 * slot's output is written in the smallest such slot that holds it, first
 * come first served: XLA assigns by size over whole live ranges, the plan
 * in program order.
 */
#include "out_slots.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

static void set_def(int *def, int b, int k)
{
    if (b >= 0 && def[b] < 0)
        def[b] = k;
}

/* The last all-reduce of e over the same mesh axes as instruction a's. */
static int last_like(const ss_executable *e, int a)
{
    const ss_coll *c = &e->insts[a].coll;
    int last = a;
    for (int k = a + 1; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        if (i->kind != SS__INST_COLL || i->coll.kind != SS_COLL_ALL_REDUCE ||
            i->coll.naxes != c->naxes)
            continue;
        bool same = true;
        for (int x = 0; x < c->naxes && same; x++)
            same = strcmp(i->coll.axes[x], c->axes[x]) == 0;
        if (same)
            last = k;
    }
    return last;
}

static const ss_executable *sort_e;
static const int *sort_def;

/* Larger first, then the earlier born (XLA's buffer assignment takes the
 * values by size). */
static int by_size(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    size_t bx = ss_device_buffer_bytes(sort_e->bufs[x].bytes);
    size_t by = ss_device_buffer_bytes(sort_e->bufs[y].bytes);
    if (bx != by)
        return bx < by ? 1 : -1;
    return sort_def[x] - sort_def[y];
}

/* Each temporary with a known birth and FREE goes, largest first, into the
 * smallest slot that holds it whose output is written after its FREE and
 * whose other temporaries' lives do not overlap its own. */
static ss_status assign(ss__out_slots *s, const ss_executable *e, const int *def,
                        const bool result[], const int arg_input[])
{
    int nb = e->nbufs, n = 0;
    int *cand = malloc(sizeof(int) * (size_t)(nb ? nb : 1));
    int *next = malloc(sizeof(int) * (size_t)(nb ? nb : 1));
    s->assigned = malloc(sizeof(int) * (size_t)(nb ? nb : 1));
    if (!cand || !next || !s->assigned) {
        free(cand);
        free(next);
        return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    }
    for (int b = 0; b < nb; b++) {
        s->assigned[b] = -1;
        if (!result[b] && arg_input[b] < 0 && !e->bufs[b].host && !e->bufs[b].fused_away &&
            def[b] >= 0 && s->death[b] != INT_MAX)
            cand[n++] = b;
    }
    sort_e = e, sort_def = def;
    qsort(cand, (size_t)n, sizeof *cand, by_size);
    for (int j = 0; j < s->n; j++)
        s->holder[j] = -1; /* the first of the slot's temporaries, chained by next */
    for (int c = 0; c < n; c++) {
        int b = cand[c], best = -1;
        size_t bytes = ss_device_buffer_bytes(e->bufs[b].bytes), best_bytes = 0;
        for (int j = 0; j < s->n; j++) {
            size_t sb = ss_device_buffer_bytes(e->bufs[s->buf[j]].bytes);
            if (sb < bytes || s->death[b] >= s->def[j] || (best >= 0 && sb >= best_bytes))
                continue;
            bool clash = false;
            for (int h = s->holder[j]; h >= 0 && !clash; h = next[h])
                clash = def[b] <= s->death[h] && def[h] <= s->death[b];
            if (!clash)
                best = j, best_bytes = sb;
        }
        if (best < 0)
            continue;
        s->assigned[b] = best;
        next[b] = s->holder[best];
        s->holder[best] = b;
    }
    free(cand);
    free(next);
    return SS_OK;
}

ss_status ss__out_slots_init(ss__out_slots *s, const ss_executable *e, const bool result[],
                             const int arg_input[])
{
    size_t nb = (size_t)(e->nbufs ? e->nbufs : 1);
    *s = (ss__out_slots){0};
    s->slot_of = malloc(sizeof(int) * nb);
    s->death = malloc(sizeof(int) * nb);
    int *def = malloc(sizeof(int) * nb);
    s->buf = malloc(sizeof(int) * nb);
    s->def = malloc(sizeof(int) * nb);
    s->holder = malloc(sizeof(int) * nb);
    if (!s->slot_of || !s->death || !def || !s->buf || !s->def || !s->holder) {
        free(def);
        ss__out_slots_free(s);
        return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    }
    for (size_t b = 0; b < nb; b++) {
        s->slot_of[b] = -1;
        s->death[b] = INT_MAX;
        def[b] = -1;
    }
    for (int k = 0; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        if (i->kind == SS__INST_FREE && i->nin > 0 && s->death[i->in[0]] == INT_MAX)
            s->death[i->in[0]] = k;
        else if (i->kind == SS__INST_LOOP) {
            const ss__loop_exec *l = &e->loops[i->index];
            int n = l->nbranch ? l->nout : l->ncarry + l->nys;
            for (int j = 0; j < n; j++)
                set_def(def, l->outs[j], k);
        } else if (i->kind != SS__INST_STORE && i->kind != SS__INST_PLACE) {
            set_def(def, i->out, k);
            if (i->kind == SS__INST_FUSED)
                for (int x = 0; x < i->fused.nextra; x++)
                    set_def(def, i->extra_out[x], k);
        }
    }
    /* XLA's all-reduce combiner merges the gradients' all-reduces over the
     * same axes into one where the last of them is: an output whose latest
     * all-reduce ancestor is over some axes is written after the last
     * all-reduce over those axes (in the dumps above every optimizer update
     * follows the one combined all-reduce over `data`). */
    int *near = malloc(sizeof(int) * nb);
    if (!near) {
        free(def);
        ss__out_slots_free(s);
        return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    }
    for (size_t b = 0; b < nb; b++)
        near[b] = -1;
    for (int k = 0; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        if (i->kind == SS__INST_FREE || i->kind == SS__INST_STORE || i->kind == SS__INST_PLACE)
            continue;
        int r = -1;
        for (int j = 0; j < i->nin; j++)
            if (i->in[j] >= 0 && near[i->in[j]] > r)
                r = near[i->in[j]];
        if (i->kind == SS__INST_COLL && i->coll.kind == SS_COLL_ALL_REDUCE)
            r = k;
        if (i->kind == SS__INST_LOOP) {
            const ss__loop_exec *l = &e->loops[i->index];
            int n = l->nbranch ? l->nout : l->ncarry + l->nys;
            for (int j = 0; j < n; j++)
                near[l->outs[j]] = r;
            continue;
        }
        if (i->out >= 0)
            near[i->out] = r;
        if (i->kind == SS__INST_FUSED)
            for (int x = 0; x < i->fused.nextra; x++)
                near[i->extra_out[x]] = r;
    }
    ss_status st;
    for (size_t b = 0; b < nb && (int)b < e->nbufs; b++) {
        if (def[b] >= 0 && near[b] >= 0) {
            int last = last_like(e, near[b]);
            if (def[b] < last)
                def[b] = last;
        }
        if (!result[b] || arg_input[b] >= 0 || e->bufs[b].host || e->bufs[b].fused_away ||
            def[b] < 0)
            continue;
        s->buf[s->n] = (int)b;
        s->def[s->n] = def[b];
        s->holder[s->n] = -1;
        s->total += ss_device_buffer_bytes(e->bufs[b].bytes);
        s->n++;
    }
    st = assign(s, e, def, result, arg_input);
    free(def);
    free(near);
    return st;
}

void ss__out_slots_free(ss__out_slots *s)
{
    free(s->slot_of);
    free(s->death);
    free(s->buf);
    free(s->def);
    free(s->holder);
    free(s->assigned);
    *s = (ss__out_slots){0};
}

bool ss__out_slots_is_output(const ss__out_slots *s, int b)
{
    for (int j = 0; j < s->n; j++)
        if (s->buf[j] == b)
            return true;
    return false;
}

bool ss__out_slots_take(ss__out_slots *s, const ss_executable *e, int b, int k)
{
    (void)e, (void)k;
    if (!s->slot_of || s->assigned[b] < 0)
        return false;
    s->slot_of[b] = s->assigned[b];
    return true;
}

bool ss__out_slots_release(ss__out_slots *s, int b)
{
    if (!s->slot_of || b < 0 || s->slot_of[b] < 0)
        return false;
    s->slot_of[b] = -1;
    return true;
}
