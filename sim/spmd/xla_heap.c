/*
 * xla_heap.c — XLA's TPU temporary heap: where its buffers go, and the
 * temp_size_in_bytes XLA reports for it (under a memory model with
 * xla_heap_hbm_bytes: `--device tpu-*`).
 *
 * What XLA reports (libtpu 0.0.42.1; sixteen buffer-assignment dumps read
 * with tests/xla_tpu/xla_heap.py: the Flax MLP at six sizes, the MLP of
 * 4096 rows on two v5p slices, the transformer block, the MoE step, the
 * LARGE LM's three remat variants and the SMALL LM): temp_size_in_bytes =
 * 2 x heap - max(A, N), heap the size of its preallocated temp allocation,
 * A the most bytes its scan stacks (the buffers of AllocateBuffer
 * custom-calls) occupy at once, N the most its other values occupy at once
 * (each maximised over the whole schedule on its own): within 32 KB on
 * v5p, 220 KB on the LARGE LM on v5e, 5 KB on the MLP. Without stacks it
 * is heap + (heap - max live): the heap's fragmentation counted twice.
 *
 * Where XLA puts them (the same dumps, its arrays' offsets read back):
 * in schedule order — by first instruction, the larger first among
 * buffers starting together — each at the start of the smallest gap that
 * stays free over its whole live range and holds it (the lowest gap among
 * equals), else on top of the heap. When that heap would not fit (its
 * temp with the arguments and outputs over the HBM), the buffers are
 * placed largest first instead (longest-lived first among equals), the
 * order of XLA's GlobalDecreasingSizeBestFitHeap (heap_simulator.cc's
 * spatial order; its gap choice is the same). Placing XLA's own arrays
 * (sizes and live ranges from the dumps) so gives the bytes they span in
 * XLA's heap (its 512 B pointer tuples aside: a 16 KiB slot each, never
 * reused, below or above the arrays; xla_bookkeeping.c counts those)
 * exactly in nine dumps (two more hold no arrays), 16 KiB short in the
 * LARGE LM's four (one pointer-tuple slot among its arrays); the one it
 * misses is the MoE step on v5p, 6.1 MiB short: XLA put its 16 MiB
 * gradient all-reduce 6.4 MB up, where the rule does not look.
 * tests/data/xla_tpu/heap_probes.json holds two probes, placed exactly.
 * Which of the two orders XLA takes is decided by the fit as far as the
 * dumps show (schedule order at 4,194,304 MLP rows on v5p, size order at
 * 5,767,168, where schedule order's peak would be 99.0 GiB of 95.74); the
 * threshold is a reading of six MLP dumps, not of XLA's code.
 *
 * With while loops the same form holds when A is the loop state: the
 * values the dump marks "(phi)" (a while loop's tuple elements, from the
 * loop to their last use: a scan's stacks and carries, the forward loop's
 * stacks until the backward loop has read them) and a body's values
 * written into one of their buffers (a stack updated in place); N is the
 * rest, the stacks' zero-filled buffers before their loop among them.
 * On eight dumps (the LARGE LM's dots and noremat on v5e 2x4, dots and
 * full on v5e 16x16, full on v5p 2x2x2, and the three scanned-gradient
 * probes of tests/xla_tpu/make_loop_heap.py) it is temp_size_in_bytes
 * within 1 MiB (tests/xla_tpu/xla_heap.py prints both). The plan does not
 * place buffers through a loop's body, so for a program with loops it
 * takes the heap as its live sum: the temp over it is then the sum less
 * the larger of the two classes' (ss__xla_heap_loop_extra).
 */
#include "lower.h"

#include <stdint.h>
#include <stdlib.h>

typedef struct order_ctx {
    const ss__heap_buffer *b;
    ss__heap_order order;
} order_ctx;

static int cmp_size(size_t x, size_t y) { return (x < y) - (x > y); } /* larger first */
static int cmp_int(int x, int y) { return (x > y) - (x < y); }         /* smaller first */

/* qsort has no context argument: the order in use, set by heap_sorted. */
static _Thread_local order_ctx sort_ctx;

static int by_order(const void *pa, const void *pb)
{
    int a = *(const int *)pa, b = *(const int *)pb;
    const ss__heap_buffer *x = &sort_ctx.b[a], *y = &sort_ctx.b[b];
    int c;
    if (sort_ctx.order == SS__HEAP_BY_START) {
        if ((c = cmp_int(x->first, y->first)) || (c = cmp_size(x->bytes, y->bytes)))
            return c;
    } else {
        if ((c = cmp_size(x->bytes, y->bytes)) ||
            (c = cmp_int(y->last - y->first, x->last - x->first)))
            return c;
    }
    return cmp_int(a, b);
}

typedef struct chunk {
    size_t lo, hi;
} chunk;

static int by_offset(const void *pa, const void *pb)
{
    const chunk *a = pa, *b = pb;
    return (a->lo > b->lo) - (a->lo < b->lo);
}

ss_status ss__heap_place(const ss__heap_buffer b[], int n, ss__heap_order order, size_t offset[],
                         size_t *heap)
{
    *heap = 0;
    if (n <= 0)
        return SS_OK;
    int *idx = malloc(sizeof *idx * (size_t)n);
    int *done = malloc(sizeof *done * (size_t)n);
    chunk *used = malloc(sizeof *used * (size_t)n);
    if (!idx || !done || !used) {
        free(idx);
        free(done);
        free(used);
        return ss__fail(SS_ERR_NOMEM, "xla heap: out of host memory");
    }
    for (int k = 0; k < n; k++)
        idx[k] = k;
    sort_ctx = (order_ctx){b, order};
    qsort(idx, (size_t)n, sizeof *idx, by_order);
    int ndone = 0;
    for (int k = 0; k < n; k++) {
        const ss__heap_buffer *x = &b[idx[k]];
        int nu = 0;
        for (int j = 0; j < ndone; j++) {
            const ss__heap_buffer *y = &b[done[j]];
            if (y->first <= x->last && x->first <= y->last)
                used[nu++] = (chunk){offset[done[j]], offset[done[j]] + y->bytes};
        }
        qsort(used, (size_t)nu, sizeof *used, by_offset);
        /* The smallest gap that holds it, the lowest among equals; the
         * space above every chunk overlapping it in time otherwise. */
        size_t free_from = 0, best = SIZE_MAX, at = 0;
        for (int j = 0; j < nu; j++) {
            if (used[j].lo >= free_from && used[j].lo - free_from >= x->bytes &&
                used[j].lo - free_from < best) {
                best = used[j].lo - free_from;
                at = free_from;
            }
            if (used[j].hi > free_from)
                free_from = used[j].hi;
        }
        offset[idx[k]] = best != SIZE_MAX ? at : free_from;
        if (offset[idx[k]] + x->bytes > *heap)
            *heap = offset[idx[k]] + x->bytes;
        done[ndone++] = idx[k];
    }
    free(idx);
    free(done);
    free(used);
    return SS_OK;
}

typedef struct event {
    int at;
    int up; /* 0: a buffer ends (applied first), 1: one starts */
    size_t bytes;
} event;

static int by_time(const void *pa, const void *pb)
{
    const event *a = pa, *b = pb;
    return a->at != b->at ? (a->at > b->at) - (a->at < b->at) : a->up - b->up;
}

ss_status ss__heap_live(const ss__heap_buffer b[], int n, int stacks, size_t *live)
{
    *live = 0;
    if (n <= 0)
        return SS_OK;
    event *ev = malloc(sizeof *ev * 2 * (size_t)n);
    if (!ev)
        return ss__fail(SS_ERR_NOMEM, "xla heap: out of host memory");
    int m = 0;
    for (int k = 0; k < n; k++) {
        if (stacks >= 0 && b[k].scan_stack != (stacks == 1))
            continue;
        ev[m++] = (event){b[k].first, 1, b[k].bytes};
        ev[m++] = (event){b[k].last + 1, 0, b[k].bytes};
    }
    qsort(ev, (size_t)m, sizeof *ev, by_time);
    size_t now = 0;
    for (int k = 0; k < m; k++) {
        now = ev[k].up ? now + ev[k].bytes : now - ev[k].bytes;
        if (now > *live)
            *live = now;
    }
    free(ev);
    return SS_OK;
}

ss_status ss__xla_heap_figures(const ss__heap_buffer b[], int n, size_t room,
                               ss__heap_figures *out)
{
    *out = (ss__heap_figures){0};
    for (int k = 0; k < n; k++)
        if (b[k].last < b[k].first || b[k].first < 0)
            return ss__fail(SS_ERR_INVALID, "xla heap: buffer %d lives from instruction %d to %d", k,
                            b[k].first, b[k].last);
    size_t *offset = malloc(sizeof *offset * (size_t)(n > 0 ? n : 1));
    if (!offset)
        return ss__fail(SS_ERR_NOMEM, "xla heap: out of host memory");
    ss_status st = ss__heap_live(b, n, 1, &out->stacks);
    if (!st)
        st = ss__heap_live(b, n, 0, &out->others);
    if (!st)
        st = ss__heap_place(b, n, SS__HEAP_BY_START, offset, &out->heap);
    size_t most = out->stacks > out->others ? out->stacks : out->others;
    out->temp = 2 * out->heap - most;
    if (!st && out->temp > room) { /* does not fit: largest first */
        ss__heap_figures by_size = *out;
        st = ss__heap_place(b, n, SS__HEAP_BY_SIZE, offset, &by_size.heap);
        by_size.temp = 2 * by_size.heap - most;
        by_size.by_size = true;
        if (!st)
            *out = by_size;
    }
    free(offset);
    return st;
}

ss_status ss__xla_heap_loop_extra(const ss__heap_buffer b[], int n, size_t *extra)
{
    *extra = 0;
    ss__heap_buffer *own = malloc(sizeof *own * (size_t)(n > 0 ? n : 1));
    if (!own)
        return ss__fail(SS_ERR_NOMEM, "xla heap: out of host memory");
    int m = 0;
    for (int k = 0; k < n; k++)
        if (!b[k].early)
            own[m++] = b[k];
    size_t planned = 0, all = 0, state = 0, rest = 0;
    ss_status st = ss__heap_live(own, m, -1, &planned);
    free(own);
    if (!st)
        st = ss__heap_live(b, n, -1, &all);
    if (!st)
        st = ss__heap_live(b, n, 1, &state);
    if (!st)
        st = ss__heap_live(b, n, 0, &rest);
    size_t most = state > rest ? state : rest;
    if (!st)
        *extra = (all > planned ? all - planned : 0) + (all > most ? all - most : 0);
    return st;
}
