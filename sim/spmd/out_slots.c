/*
 * out_slots.c — XLA's reuse of a program's output buffers for its
 * temporaries, for the plan under a TPU memory model (plan.c).
 *
 * XLA's buffer assignment (BufferAssigner, libtpu 0.0.42.1) allocates every
 * output of the entry computation for the whole program ("maybe-live-out"
 * allocations: output_size_in_bytes counts them in full), then takes the
 * other values largest first and puts each in the smallest existing
 * allocation, trying the last created first, whose values' live ranges it
 * does not meet; only the rest go to the temporary heap (temp_size_in_bytes).
 * Seen in the buffer assignments of one chip of v5p:2x2x2 and v5p:2x2x4
 * (XLA_FLAGS=--xla_dump_to with tests/xla_tpu/make_records.py; read with
 * tests/xla_tpu/xla_heap.py): transformer_block_adamw's 4 MiB allocations
 * of the updated weights hold 45 temporaries before the updates are
 * written (the heap holds one 8 MiB array, temp 10.78 MiB);
 * moe_top2_train_step's two 16 MiB ones hold the two expert gradients
 * (convolution_bitcast_fusion{,.1}) and one combined all-reduce's result
 * (all-reduce.23{3}, in place of its operand), while the other result
 * (all-reduce.23{2}), alive from the combined all-reduce to its update,
 * meets both outputs' lives and is the heap's one 16 MiB value.
 *
 * The plan counts the outputs from the start (their slots). An output is
 * written no earlier than the last all-reduce over the axes of its latest
 * all-reduce ancestor (XLA's combiner merges the gradients' all-reduces
 * into one there). Each temporary's interval is its life, an all-reduce's
 * operand's extended to that last all-reduce (the combined one reads it
 * there); an all-reduce's result may share its operand's slot. Largest
 * first (then the earlier born), each temporary goes to the smallest slot,
 * the last one first among equals, whose output is written after its
 * interval ends and whose other temporaries' intervals it does not meet.
 * Not modelled: XLA's schedule (the plan's is program order) and its heap's
 * fragmentation (MoE v5p:2x2x2's heap is 6 MiB above its live peak).
 */
#include "out_slots.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

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

/* The operand whose buffer result r of i may take over in place (lower.h's
 * share, else share_alt), or -1. */
static int taken(const ss__inst *i, int r)
{
    int j = i->share[r] >= 0 ? i->share[r] : i->share_alt[r];
    return j >= 0 && j < i->nin && i->in[j] >= 0 ? j : -1;
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
                        const int *until, const int *ar_operand, const bool result[],
                        const int arg_input[])
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
            def[b] >= 0 && until[b] != INT_MAX)
            cand[n++] = b;
    }
    sort_e = e, sort_def = def;
    qsort(cand, (size_t)n, sizeof *cand, by_size);
    for (int j = 0; j < s->n; j++)
        s->holder[j] = -1; /* the first of the slot's temporaries, chained by next */
    for (int c = 0; c < n; c++) {
        int b = cand[c], best = -1;
        size_t bytes = ss_device_buffer_bytes(e->bufs[b].bytes), best_bytes = 0;
        for (int j = s->n - 1; j >= 0; j--) {
            size_t sb = ss_device_buffer_bytes(e->bufs[s->buf[j]].bytes);
            bool before = until[b] < s->def[j] || (until[b] == s->def[j] && s->takes[j] == b);
            if (sb < bytes || !before || (best >= 0 && sb >= best_bytes))
                continue;
            bool clash = false;
            for (int h = s->holder[j]; h >= 0 && !clash; h = next[h])
                clash = def[b] <= until[h] && def[h] <= until[b] && ar_operand[b] != h &&
                        ar_operand[h] != b;
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
    s->takes = malloc(sizeof(int) * nb);
    if (!s->slot_of || !s->death || !def || !s->buf || !s->def || !s->holder || !s->takes) {
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
        if (i->kind == SS__INST_FREE) {
            for (int x = 0; x < i->nin; x++)
                if (s->death[i->in[x]] == INT_MAX)
                    s->death[i->in[x]] = k;
        } else if (i->kind == SS__INST_LOOP) {
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
    /* A temporary that a result takes over in place (lower.h's share)
     * dies there. */
    for (int k = 0; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        if (i->kind == SS__INST_FREE || i->kind == SS__INST_LOOP || i->kind == SS__INST_STORE ||
            i->kind == SS__INST_PLACE)
            continue;
        int nr = 1 + (i->kind == SS__INST_FUSED ? i->fused.nextra : 0);
        for (int r = 0; r < nr; r++) {
            int j = taken(i, r);
            if (j >= 0 && s->death[i->in[j]] == INT_MAX)
                s->death[i->in[j]] = k;
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
    /* Each temporary's interval for the assignment: its life, an
     * all-reduce's operand until the last all-reduce over the same axes
     * (where the combined one runs), and the all-reduce's result may share
     * its operand's slot (XLA's in-place all-reduce). */
    int *until = malloc(sizeof(int) * nb), *ar_operand = malloc(sizeof(int) * nb);
    if (!until || !ar_operand) {
        free(def), free(near), free(until), free(ar_operand);
        ss__out_slots_free(s);
        return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    }
    for (size_t b = 0; b < nb; b++)
        until[b] = s->death[b], ar_operand[b] = -1;
    for (int k = 0; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        int nr = i->kind == SS__INST_FUSED ? 1 + i->fused.nextra : 1;
        for (int r = 0; r < nr && i->kind != SS__INST_FREE && i->kind != SS__INST_LOOP &&
                        i->kind != SS__INST_STORE && i->kind != SS__INST_PLACE;
             r++) {
            int res = r ? i->extra_out[r - 1] : i->out, j = taken(i, r);
            if (res >= 0 && j >= 0 && ar_operand[res] < 0)
                ar_operand[res] = i->in[j];
        }
        if (i->kind != SS__INST_COLL || i->coll.kind != SS_COLL_ALL_REDUCE || i->nin < 1 ||
            i->in[0] < 0 || i->out < 0)
            continue;
        int last = last_like(e, k), op = i->in[0];
        ar_operand[i->out] = op;
        if (until[op] != INT_MAX && until[op] < last)
            until[op] = last;
    }
    ss_status st;
    for (size_t b = 0; b < nb && (int)b < e->nbufs; b++) {
        int wdef = def[b];
        if (def[b] >= 0 && near[b] >= 0) {
            int last = last_like(e, near[b]);
            if (wdef < last)
                wdef = last;
        }
        if (!result[b] || arg_input[b] >= 0 || e->bufs[b].host || e->bufs[b].fused_away ||
            def[b] < 0)
            continue;
        s->buf[s->n] = (int)b;
        s->def[s->n] = wdef;
        s->takes[s->n] = -1;
        if (wdef == def[b] && e->insts[wdef].kind != SS__INST_LOOP) {
            const ss__inst *w = &e->insts[wdef];
            int nr = w->kind == SS__INST_FUSED ? 1 + w->fused.nextra : 1;
            for (int r = 0; r < nr; r++)
                if ((r ? w->extra_out[r - 1] : w->out) == (int)b && taken(w, r) >= 0)
                    s->takes[s->n] = w->in[taken(w, r)];
        }
        s->holder[s->n] = -1;
        s->total += ss_device_buffer_bytes(e->bufs[b].bytes);
        s->n++;
    }
    st = assign(s, e, def, until, ar_operand, result, arg_input);
    free(def);
    free(near);
    free(until);
    free(ar_operand);
    return st;
}

void ss__out_slots_free(ss__out_slots *s)
{
    free(s->slot_of);
    free(s->death);
    free(s->buf);
    free(s->def);
    free(s->holder);
    free(s->takes);
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

bool ss__out_slots_take(ss__out_slots *s, int b)
{
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
