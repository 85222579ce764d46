/*
 * plan_fixed.c — the plumbing of the searches that plan many variants of
 * one executable (xla_fusion.c's candidate lists, xla_remat.c's rewrites):
 * the facts their plans keep from one list to the next (plan_fixed), the
 * points those plans resume from, and the measures the searches call. The
 * plan itself is plan.c's (ss__plan_run); nothing here decides a byte of it.
 */
#include "plan_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Points every RESUME_EVERY instructions (plan_resume, plan_internal.h):
 * the state of the plan there but for its flags, which plan_resume.flags
 * holds. */
enum { RESUME_EVERY = 32 };

struct resume_point {
    size_t live, host_live;
    ss_plan out;
};

int ss__plan_resume_start(plan_resume *rs, bool restore, size_t nb, size_t *live,
                          size_t *host_live, ss_plan *out, bool *moved, bool *kept)
{
    int k0 = 0;
    if (restore && rs->from > 0 && rs->valid > 0) {
        int j = rs->from / RESUME_EVERY < rs->valid ? rs->from / RESUME_EVERY : rs->valid - 1;
        const resume_point *at = &rs->at[j];
        *live = at->live;
        *host_live = at->host_live;
        *out = at->out;
        memcpy(moved, rs->flags + 2 * nb * (size_t)j, nb);
        memcpy(kept, rs->flags + 2 * nb * (size_t)j + nb, nb);
        k0 = j * RESUME_EVERY;
    }
    rs->valid = k0 / RESUME_EVERY; /* the later ones are made again by the plan */
    return k0;
}

void ss__plan_resume_save(plan_resume *rs, int k, size_t nb, size_t live, size_t host_live,
                          const ss_plan *out, const bool *moved, const bool *kept)
{
    if (k % RESUME_EVERY == 0 && k / RESUME_EVERY < rs->npoints) {
        int j = k / RESUME_EVERY;
        rs->at[j] = (resume_point){live, host_live, *out};
        memcpy(rs->flags + 2 * nb * (size_t)j, moved, nb);
        memcpy(rs->flags + 2 * nb * (size_t)j + nb, kept, nb);
        rs->valid = j + 1;
    }
}

void ss__plan_fixed_free(plan_fixed *f)
{
    free(f->arg_input);
    free(f->result);
    free(f->dot_operand);
    free(f->work);
    free(f->resume.at);
    free(f->resume.flags);
    *f = (plan_fixed){0};
}

/* f for e (dot operands when dots: ss_memory_model.onchip_not_dot_operands
 * with on-chip memory); as ss__plan_run finds them for itself. */
static ss_status fixed_build(const ss_executable *e, bool dots, plan_fixed *f)
{
    ss__plan_fixed_free(f);
    size_t nb = (size_t)(e->nbufs ? e->nbufs : 1);
    f->arg_input = malloc(sizeof *f->arg_input * nb);
    f->result = calloc(nb, 1);
    f->work = malloc(sizeof *f->work * nb);
    f->dot_operand = dots ? ss__plan_dot_operands(e) : NULL;
    f->resume.npoints = e->ninsts / RESUME_EVERY + 1;
    f->resume.at = malloc(sizeof *f->resume.at * (size_t)f->resume.npoints);
    f->resume.flags = malloc(2 * nb * (size_t)f->resume.npoints);
    if (!f->arg_input || !f->result || !f->work || (dots && !f->dot_operand) || !f->resume.at ||
        !f->resume.flags) {
        ss__plan_fixed_free(f);
        return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    }
    for (size_t b = 0; b < nb; b++) {
        f->arg_input[b] = -1;
        f->work[b] = 0;
    }
    bool *written = calloc(nb, 1); /* by a kernel already */
    if (!written) {
        ss__plan_fixed_free(f);
        return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    }
    for (int k = 0; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        if (i->kind == SS__INST_LOAD)
            f->arg_input[i->out] = i->index;
        if (i->kind == SS__INST_STORE)
            f->result[i->in[0]] = true;
        if (i->kind != SS__INST_KERNEL)
            continue;
        /* A failure is met again where ss__plan_run asks; a buffer written by
         * two kernels is asked about each time. */
        size_t work;
        bool known = !ss__inst_work_bytes(e, i, &work) && !written[i->out];
        f->work[i->out] = known ? work : NO_WORK;
        written[i->out] = true;
    }
    free(written);
    f->e = e;
    return SS_OK;
}

/* The plan's peak under c, the buffers in HBM there (at_peak; NULL: not
 * wanted, and not tracked) and, with at_inst, the instruction where the
 * plan reaches it (its memory timeline's first; -1: none); with fixed,
 * ss__plan_run's facts as built for e. */
static ss_status peak_of(const ss_executable *e, const fusion_ctx *c, plan_fixed *fixed,
                         size_t *peak, bool *at_peak, int *at_inst)
{
    size_t nb = (size_t)(e->nbufs ? e->nbufs : 1);
    bool *flags = at_peak ? calloc(nb, 3) : NULL;
    ss_memory_point *pts =
        at_inst ? malloc(sizeof *pts * (size_t)(e->ninsts ? e->ninsts : 1)) : NULL;
    if ((at_peak && !flags) || (at_inst && !pts)) {
        free(flags);
        free(pts);
        return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    }
    peak_detail pd = {flags, flags ? flags + nb : NULL, at_peak, flags ? flags + 2 * nb : NULL, 0,
                      SS_BUFFER_SCRATCH, -1, true, NULL, {false}, NULL};
    timeline tl = {pts, e->ninsts, 0};
    ss_plan p;
    ss_status st = ss__plan_run(e, c->donate, true, c->onchip_cap, c->loops, &pd, &p,
                                at_inst ? &tl : NULL, NULL, c->layout, true, c->memo, fixed);
    *peak = p.peak_bytes;
    if (at_inst)
        *at_inst = -1;
    for (int k = 0; at_inst && k < tl.n && k < tl.cap && !st; k++)
        if (pts[k].peak_bytes == p.peak_bytes) {
            *at_inst = pts[k].step;
            break;
        }
    free(flags);
    free(pts);
    return st;
}

/* xla_fusion.c's measure: peak_of with the facts the search leaves alone
 * built once for e, resumed where e's list is the last one planned. */
ss_status ss__plan_fusion_peak(const ss_executable *e, void *ctx, size_t *peak, bool *at_peak,
                               int from)
{
    fusion_ctx *c = ctx;
    bool dots = c->onchip_cap && c->loops && c->loops->onchip_not_dot_operands;
    ss_status st = c->fixed.e == e ? SS_OK : fixed_build(e, dots, &c->fixed);
    if (st)
        return st;
    /* ss__plan_dot_operands looks through readers fused away, which the search
     * changes: found again for every list. */
    if (dots) {
        free(c->fixed.dot_operand);
        if (!(c->fixed.dot_operand = ss__plan_dot_operands(e))) {
            c->fixed.e = NULL;
            return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
        }
    }
    c->fixed.resume.from = from;
    return peak_of(e, c, &c->fixed, peak, at_peak, NULL);
}

/* xla_remat.c's measure: peak_of and where the peak is reached (its
 * rewrites add readers, so nothing is kept from one plan to the next). */
ss_status ss__plan_remat_peak(const ss_executable *e, void *ctx, size_t *peak, bool *at_peak,
                              int *at_inst)
{
    return peak_of(e, ctx, NULL, peak, at_peak, at_inst);
}
