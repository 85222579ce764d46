/*
 * heap_trace.c — the plan's HBM temporaries as XLA's TPU heap sees them
 * (under a memory model with xla_heap_hbm_bytes: `--device tpu-*`): each
 * temporary's live range in the top-level plan, traced by plan.c as
 * buffers come into and leave HBM, with a while loop's state and its
 * body's run; and from them the temp XLA reports beyond the plan's peak
 * (xla_heap.c's rules).
 */
#include "lower.h"

#include <stdlib.h>

static void heap_append(ss__heap_trace *ht, ss__heap_buffer x)
{
    if (ht->n == ht->cap) {
        int cap = ht->cap ? 2 * ht->cap : 64;
        ss__heap_buffer *g = realloc(ht->b, sizeof *g * (size_t)cap);
        if (!g) {
            ht->failed = true;
            return;
        }
        ht->b = g;
        ht->cap = cap;
    }
    ht->b[ht->n++] = x;
}

/* Buffer b comes into HBM (in) or leaves it: a temporary's live range
 * opens or closes (arguments and results of the run are not the heap's). */
void ss__heap_trace_note(const ss_executable *e, ss__heap_trace *ht, const bool *result,
                         const int *arg_input, int b, bool in)
{
    if ((result && result[b]) || arg_input[b] >= 0)
        return;
    if (in) {
        if (ht->born[b] < 0)
            ht->born[b] = ht->now;
        ht->seen[b] = true;
        return;
    }
    if (ht->born[b] < 0)
        return;
    /* Read last by the instruction before its FREE (the one freeing it). */
    int last = ht->now > ht->born[b] ? ht->now - 1 : ht->born[b];
    heap_append(ht, (ss__heap_buffer){ss_device_buffer_bytes(e->bufs[b].bytes), ht->born[b], last,
                                      ht->state[b], false});
    ht->born[b] = -1;
}

/* While loop instruction i of e in the heap trace, at its instruction:
 * its results in HBM (in_hbm) are loop state from here on, and one run of
 * its body adds `body` bytes (its temporaries, plan.c's plan_loop) for this
 * instruction only. A carry it adopts from a broadcast (a scan's stack,
 * zeros it writes over) is XLA's AllocateBuffer, which XLA's schedule
 * puts at the start of the program (the LARGE LM's dumps: instructions
 * 66-90 of 3500-4300, after the parameters and constants): in the heap
 * from there to the broadcast, early (the plan counts it from the
 * broadcast on), unless the loop's result is one of the run's (XLA's
 * output allocations are not its heap). */
void ss__heap_trace_loop(ss__heap_trace *ht, const ss_executable *e, const ss__inst *i,
                         const bool in_hbm[], const bool *result, size_t body)
{
    const ss__loop_exec *l = &e->loops[i->index];
    ht->loops = true;
    for (int k = 0; k < l->ncarry + l->nys && k < SS__INST_MAX_RESULTS; k++)
        if (in_hbm[k])
            ht->state[l->outs[k]] = true;
    if (body)
        heap_append(ht, (ss__heap_buffer){body, ht->now, ht->now, false, false});
    for (int k = 0; k < l->ncarry; k++) {
        int b = i->in[k];
        if (!l->adopt[k] || !in_hbm[k] || e->bufs[b].fused_away || result[l->outs[k]])
            continue;
        for (int p = ht->now - 1; p > 0; p--) {
            const ss__inst *w = &e->insts[p];
            if (w->kind == SS__INST_KERNEL && w->out == b) {
                if (e->program->nodes[w->node].op == SS__OP_BROADCAST)
                    heap_append(ht, (ss__heap_buffer){ss_device_buffer_bytes(e->bufs[b].bytes), 0,
                                                      p - 1, false, true});
                break;
            }
        }
    }
}

/* Is XLA's heap modelled for e under model? For a top-level program
 * without loops (placed: ss__heap_trace_gaps), or with a while loop and no
 * conditional (its live sums: a loop's body is planned apart, its
 * temporaries one lump at the loop; placing that lump and the stacks as
 * the heap's buffers took the LARGE LM's rows of tests/xla_tpu/
 * test_vs_xla.py from 0.92-1.24 of XLA's peak to 1.01-2.19). */
bool ss__xla_heap_modelled(const ss_executable *e, const ss_memory_model *model)
{
    if (!model || !model->xla_heap_hbm_bytes || e->region)
        return false;
    for (int k = 0; k < e->ninsts; k++)
        if (e->insts[k].kind == SS__INST_LOOP && e->loops[e->insts[k].index].nbranch)
            return false;
    return true;
}

ss_status ss__heap_trace_init(ss__heap_trace *ht, int nbufs)
{
    size_t nb = (size_t)(nbufs ? nbufs : 1);
    *ht = (ss__heap_trace){malloc(sizeof(int) * nb), calloc(nb, 1), calloc(nb, 1), NULL, 0, 0, 0,
                           false, false};
    if (!ht->born || !ht->state || !ht->seen) {
        free(ht->born);
        free(ht->state);
        free(ht->seen);
        return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    }
    for (size_t b = 0; b < nb; b++)
        ht->born[b] = -1;
    return SS_OK;
}

void ss__heap_trace_free(ss__heap_trace *ht)
{
    free(ht->born);
    free(ht->state);
    free(ht->seen);
    free(ht->b);
}

/* The results of e's windowed dots that XLA allocates at the program's
 * start (ss__xla_windowed_early), early in ht up to their dot when the
 * plan holds them in HBM (on chip, XLA's memory-space assignment keeps
 * them out of its heap). */
static ss_status windowed_early(const ss_executable *e, const ss_memory_model *model,
                                ss__heap_trace *ht)
{
    int *producer;
    ss_status st = ss__producers(e, &producer);
    for (int k = 1; !st && k < e->ninsts; k++) {
        int buf;
        size_t bytes = ss__xla_windowed_early(e, k, producer, model, &buf);
        if (bytes && (buf < 0 || ht->seen[buf]))
            heap_append(ht, (ss__heap_buffer){bytes, 0, k - 1, false, true});
    }
    if (!st)
        free(producer);
    return st;
}

/* XLA's heap gaps for the plan of `sized` traced in ht (xla_heap.c): the
 * temporaries still in HBM at the end closed there, the heap placed with
 * the HBM the arguments and outputs leave, and *gaps = the temp XLA
 * reports (2 x heap - max(A, N)) less the temporaries' largest live sum,
 * which the plan's peak already counts; with while loops, not placed:
 * that sum less the larger of the loop state's and the rest's
 * (ss__xla_heap_loop_extra). */
ss_status ss__heap_trace_gaps(const ss_executable *sized, const ss_memory_model *model,
                              ss__heap_trace *ht, size_t *gaps)
{
    *gaps = 0;
    size_t fixed = 0; /* arguments and outputs */
    ht->now = sized->ninsts;
    for (int b = 0; b < sized->nbufs; b++)
        if (ht->born[b] >= 0)
            heap_append(ht, (ss__heap_buffer){ss_device_buffer_bytes(sized->bufs[b].bytes),
                                              ht->born[b], sized->ninsts, ht->state[b], false});
    for (int k = 0; k < sized->ninsts; k++) {
        const ss__inst *i = &sized->insts[k];
        if (i->kind == SS__INST_LOAD || i->kind == SS__INST_STORE)
            fixed += ss_device_buffer_bytes(
                sized->bufs[i->kind == SS__INST_LOAD ? i->out : i->in[0]].bytes);
    }
    if (ht->loops && model->xla_windowed_ring) {
        ss_status st = windowed_early(sized, model, ht);
        if (st)
            return st;
    }
    if (ht->failed)
        return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    if (ht->loops)
        return ss__xla_heap_loop_extra(ht->b, ht->n, gaps);
    size_t hbm = model->xla_heap_hbm_bytes, live;
    ss__heap_figures f;
    ss_status st = ss__xla_heap_figures(ht->b, ht->n, hbm > fixed ? hbm - fixed : 0, &f);
    if (!st)
        st = ss__heap_live(ht->b, ht->n, -1, &live);
    if (!st)
        *gaps = f.temp > live ? f.temp - live : 0;
    return st;
}
