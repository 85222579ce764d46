/*
 * schedule.c — instruction order of a lowered program, before liveness.
 *
 * The lowering emits instructions in program order, so an optimizer step
 * appended after the gradient runs only once every gradient exists: all
 * of them are live at once, and each update reads its gradient (and its
 * param) back from memory long after they were written. Here every fused
 * elementwise instruction whose results are only program outputs (the
 * optimizer's new params and state) moves up to just after the last
 * instruction that produces one of its operands, as XLA's scheduler runs
 * a layer's update as soon as its all-reduced gradient is ready: each
 * gradient then dies at once (lower peak when the step is donated) and is
 * still in cache when the update reads it.
 *
 * Scalar work that reads only arguments and constants (the step count and
 * Adam's bias corrections) moves to the start, so that it does not hold
 * the updates back. Only these move, and only earlier, after everything
 * they read; the order of every collective is unchanged.
 */
#include "lower.h"

#include <stdlib.h>

/* Are all results of instruction k read by STOREs only? */
static bool feeds_outputs_only(const ss_executable *e, int k, const bool store_only[])
{
    const ss__inst *i = &e->insts[k];
    if (i->kind != SS__INST_FUSED || !store_only[i->out])
        return false;
    for (int x = 0; x < i->fused.nextra; x++)
        if (!store_only[i->extra_out[x]])
            return false;
    return true;
}

/* Results of at most this many bytes count as scalar work. */
enum { SCALAR_BYTES = 64 };

/* Is instruction k scalar work on arguments and constants only? */
static bool argument_scalar(const ss_executable *e, int k, const int producer[],
                            const bool early[])
{
    const ss__inst *i = &e->insts[k];
    if (i->kind != SS__INST_CONST && i->kind != SS__INST_KERNEL && i->kind != SS__INST_FUSED)
        return false;
    if (e->bufs[i->out].bytes > SCALAR_BYTES)
        return false;
    if (i->kind == SS__INST_FUSED)
        for (int x = 0; x < i->fused.nextra; x++)
            if (e->bufs[i->extra_out[x]].bytes > SCALAR_BYTES)
                return false;
    for (int j = 0; j < i->nin; j++) {
        int p = producer[i->in[j]];
        if (p >= 0 && e->insts[p].kind != SS__INST_LOAD && !early[p])
            return false;
    }
    return true;
}

ss_status ss__schedule_updates(ss_executable *e)
{
    int n = e->ninsts, nb = e->nbufs ? e->nbufs : 1;
    int *producer = malloc(sizeof(int) * (size_t)nb);
    int *anchor = malloc(sizeof(int) * (size_t)(n ? n : 1));
    bool *store_only = malloc((size_t)nb), *early = calloc((size_t)(n ? n : 1), 1);
    /* The follower lists of the final pass (below). */
    int *head = malloc(sizeof(int) * (size_t)(n + 1)), *tail = malloc(sizeof(int) * (size_t)(n + 1));
    int *next = malloc(sizeof(int) * (size_t)(n ? n : 1));
    int *at = malloc(sizeof(int) * (size_t)(n ? n : 1)); /* the new order, as indices */
    if (!producer || !anchor || !store_only || !early || !head || !tail || !next || !at) {
        free(at);
        free(head);
        free(tail);
        free(next);
        free(producer);
        free(anchor);
        free(store_only);
        free(early);
        return ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
    }
    for (int b = 0; b < nb; b++) {
        producer[b] = -1;
        store_only[b] = true;
    }
    for (int k = 0; k < n; k++) {
        const ss__inst *i = &e->insts[k];
        for (int j = 0; j < i->nin; j++)
            if (i->kind != SS__INST_STORE)
                store_only[i->in[j]] = false;
        if (i->kind == SS__INST_STORE || i->kind == SS__INST_FREE)
            continue;
        int res[SS__INST_MAX_RESULTS];
        int nres = ss__inst_results(e, i, res, SS__INST_MAX_RESULTS);
        for (int x = 0; x < nres; x++)
            producer[res[x]] = k;
    }
    for (int k = 0; k < n; k++)
        early[k] = argument_scalar(e, k, producer, early);
    /* anchor[k]: the instruction a moving k follows (-1: the start, after
     * the scalar work; arguments do not count, liveness.c loads them
     * first); -2: k stays where it is. */
    for (int k = 0; k < n; k++) {
        anchor[k] = -2;
        if (early[k] || !feeds_outputs_only(e, k, store_only))
            continue;
        int a = -1;
        for (int j = 0; j < e->insts[k].nin; j++) {
            int p = producer[e->insts[k].in[j]];
            if (p > a && !early[p] && e->insts[p].kind != SS__INST_LOAD)
                a = p; /* arguments are loaded first (liveness.c) */
        }
        anchor[k] = a;
    }
    /* The instructions that follow each anchor, in program order: one
     * list per anchor (head[a + 1], then next[]), built in one pass. */
    for (int a = 0; a <= n; a++)
        head[a] = tail[a] = -1;
    for (int q = 0; q < n; q++) {
        next[q] = -1;
        if (anchor[q] < -1)
            continue;
        int a = anchor[q] + 1;
        if (tail[a] < 0)
            head[a] = q;
        else
            next[tail[a]] = q;
        tail[a] = q;
    }
    /* The new order as indices first: most programs keep theirs, and their
     * list is not copied. */
    int m = 0;
    for (int k = 0; k < n; k++)
        if (early[k])
            at[m++] = k;
    for (int k = -1; k < n; k++) {
        if (k >= 0 && (early[k] || anchor[k] != -2))
            continue; /* emitted at the start or after its anchor */
        if (k >= 0)
            at[m++] = k;
        /* Anchors are earlier than what follows them, so a follower never
         * comes before its anchor in this walk. */
        for (int q = head[k + 1]; q >= 0; q = next[q])
            at[m++] = q;
    }
    bool moved = false;
    for (int k = 0; k < m && !moved; k++)
        moved = at[k] != k;
    ss__inst *order = moved ? malloc(sizeof *order * (size_t)(n ? n : 1)) : NULL;
    for (int k = 0; k < m && order; k++)
        order[k] = e->insts[at[k]];
    free(at);
    free(head);
    free(tail);
    free(next);
    if (order) {
        free(e->insts);
        e->insts = order;
        e->insts_cap = n ? n : 1;
    }
    free(producer);
    free(anchor);
    free(store_only);
    free(early);
    if (moved && !order)
        return ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
    return SS_OK;
}
