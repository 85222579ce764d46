/*
 * liveness.c — buffer lifetimes of a lowered program: arguments are loaded
 * first and live for the whole step (as undonated jit arguments); every
 * other buffer is freed right after its last use. Plan and run both walk
 * the resulting FREE instructions, so the peak the plan predicts is the
 * peak the arenas measure.
 */
#include "lower.h"

#include <stdlib.h>
#include <string.h>


/* Arguments first: every LOAD moves to the start (they read nothing), as a
 * jitted function's arguments are on the devices before it runs. */
static void hoist_loads(ss_executable *e)
{
    int m = 0;
    ss__inst *tmp = malloc(sizeof *tmp * (size_t)(e->ninsts ? e->ninsts : 1));
    if (!tmp)
        return; /* order stays valid, only less faithful; never fails */
    for (int k = 0; k < e->ninsts; k++)
        if (e->insts[k].kind == SS__INST_LOAD)
            tmp[m++] = e->insts[k];
    for (int k = 0; k < e->ninsts; k++)
        if (e->insts[k].kind != SS__INST_LOAD)
            tmp[m++] = e->insts[k];
    memcpy(e->insts, tmp, sizeof *tmp * (size_t)e->ninsts);
    free(tmp);
}

/* Insert FREE after each buffer's last use. Arguments (LOAD buffers) stay
 * live to the end, as undonated jit arguments do; outputs are freed after
 * their STORE at the end. */
ss_status ss__add_frees(ss_executable *e)
{
    hoist_loads(e);
    int *last = malloc(sizeof(int) * (size_t)(e->nbufs ? e->nbufs : 1));
    if (!last)
        return ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
    for (int b = 0; b < e->nbufs; b++)
        last[b] = -1;
    for (int k = 0; k < e->ninsts; k++) {
        const ss__inst *ik = &e->insts[k];
        if (ik->kind == SS__INST_LOAD) {
            last[ik->out] = e->ninsts - 1; /* live to the end */
            continue;
        }
        if (k > last[ik->out])
            last[ik->out] = k;
        if (ik->kind == SS__INST_FUSED)
            for (int j = 0; j < ik->fused.nextra; j++)
                if (k > last[ik->extra_out[j]])
                    last[ik->extra_out[j]] = k;
        for (int j = 0; j < ik->nin; j++)
            if (k > last[ik->in[j]])
                last[ik->in[j]] = k;
    }
    int total = e->ninsts + e->nbufs;
    ss__inst *all = malloc(sizeof *all * (size_t)total);
    if (!all) {
        free(last);
        return ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
    }
    int m = 0;
    for (int k = 0; k < e->ninsts; k++) {
        all[m++] = e->insts[k];
        const ss__inst *ik = &e->insts[k];
        enum { MAXB = SS__MAX_INPUTS + 1 + SS__K_FUSED_MAX_EXTRA };
        int bufs[MAXB], nb = 0;
        for (int j = 0; j < ik->nin; j++)
            bufs[nb++] = ik->in[j];
        if (ik->kind != SS__INST_STORE && ik->kind != SS__INST_FREE)
            bufs[nb++] = ik->out;
        if (ik->kind == SS__INST_FUSED)
            for (int j = 0; j < ik->fused.nextra; j++)
                bufs[nb++] = ik->extra_out[j];
        if (k == e->ninsts - 1) /* the end: everything still live */
            for (int b = 0; b < e->nbufs; b++)
                if (last[b] == k && nb < MAXB)
                    bufs[nb++] = b;
        for (int j = 0; j < nb; j++) {
            int b = bufs[j];
            bool dup = false;
            for (int q = 0; q < j; q++)
                dup = dup || bufs[q] == b;
            if (dup || last[b] != k)
                continue;
            ss__inst f;
            ss__inst_init(&f, SS__INST_FREE, ik->node);
            f.in[f.nin++] = b;
            f.out = b;
            all[m++] = f;
            last[b] = -2; /* freed */
        }
    }
    /* Buffers whose last use is the final instruction but did not fit the
     * batch above. */
    for (int b = 0; b < e->nbufs; b++)
        if (last[b] == e->ninsts - 1) {
            ss__inst f;
            ss__inst_init(&f, SS__INST_FREE, e->insts[e->ninsts - 1].node);
            f.in[f.nin++] = b;
            f.out = b;
            all[m++] = f;
        }
    free(last);
    free(e->insts);
    e->insts = all;
    e->ninsts = m;
    e->insts_cap = total;
    return SS_OK;
}

