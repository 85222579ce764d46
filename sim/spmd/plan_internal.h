/*
 * plan_internal.h — what the files of the plan share: plan.c's plan of one
 * executable (ss__plan_run) with the peak detail and the timeline it
 * fills, and plan_fixed.c's plumbing of the searches that plan many
 * variants of one executable (xla_fusion.c's candidate lists, xla_remat.c's
 * rewrites): the facts their plans keep from one list to the next, the
 * points those plans resume from, and the measures the searches call.
 */
#ifndef SS_PLAN_INTERNAL_H
#define SS_PLAN_INTERNAL_H

#include "lower.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The plans of regions already made in one planning call (plan.c). */
typedef struct region_memo region_memo;

/* What is in HBM at the peak (ss_executable_peak_detail): per buffer,
 * whether it is counted in HBM now (hbm) and whether a copy of it is (an
 * undonated input returned unchanged, copy); their snapshot at the peak;
 * and what else the peak counted (a kernel's scratch, a running loop). */
typedef struct peak_detail {
    bool *hbm, *copy, *at_hbm, *at_copy; /* hbm NULL: none kept (peak_only then) */
    size_t extra;
    ss_buffer_role extra_role;
    ss_value extra_value;
    bool peak_only; /* only the peak is wanted: FLOPs and collectives are not counted */
    /* A loop whose body's run made the peak (its instruction in the
     * executable planned) and the carries that run owned:
     * ss_executable_peak_detail lists the body's buffers. */
    const ss__inst *loop;
    bool body_own[SS__MAX_INPUTS];
    ss__heap_trace *heap; /* NULL: XLA's heap not modelled */
} peak_detail;

/* Where ss__plan_run writes its memory timeline: pts[0..cap), *n counted. */
typedef struct timeline {
    ss_memory_point *pts;
    int cap, n;
} timeline;

/* Where a search's plans resume: the state of the plan of the list last
 * planned at the start of every RESUME_EVERY-th instruction (plan_fixed.c),
 * for plans whose state is their live bytes, their figures and the moved
 * and kept flags (no peak flags, on-chip memory, output slots, heap trace
 * or timeline). A plan of a list whose instructions before `from` are the
 * last one's starts at the last point at or before `from`. */
typedef struct resume_point resume_point;

typedef struct plan_resume {
    int npoints, valid; /* points [0, valid) are of the list last planned */
    int from;           /* this plan's list is the last one's before instruction `from` */
    resume_point *at;
    bool *flags;        /* per point: the moved flags, then the kept ones (2 x nbufs) */
} plan_resume;

/* What ss__plan_run reads of an executable that xla_fusion.c's search
 * leaves as it is (it rewrites FREEs, shares and fused_away only): which
 * buffers are arguments and results, and the scratch of the dot kernel
 * writing each buffer; and which are read by dots only
 * (ss__plan_fusion_peak finds those again for every list: fused-away
 * readers are looked through). Built at the search's first plan
 * (plan_fixed.c's fixed_build), not again for every candidate list it plans; with the
 * points its plans resume from. */
typedef struct plan_fixed {
    const ss_executable *e; /* built for (NULL: not built) */
    int *arg_input;         /* per buffer: the input a LOAD buffer holds, else -1 */
    bool *result;           /* per buffer: read by a STORE */
    bool *dot_operand;      /* ss__plan_dot_operands(e); NULL when not modelled */
    size_t *work;           /* per buffer: the scratch bytes of the kernel writing it
                               (NO_WORK: ask ss__inst_work_bytes) */
    plan_resume resume;     /* updated by every plan made with it */
} plan_fixed;

#define NO_WORK SIZE_MAX

/* What a candidate list of xla_fusion.c is planned with (and a rewrite of
 * xla_remat.c, which leaves `fixed` unbuilt): its plan_fixed built at the
 * first (the search's rewrites leave it as it is). Free `fixed` with
 * ss__plan_fixed_free when the search is over. */
typedef struct fusion_ctx {
    const bool *donate;
    size_t onchip_cap;
    const ss_memory_model *loops;
    ss_memory_layout layout;
    region_memo *memo;
    plan_fixed fixed;
} fusion_ctx;

/* --- The plan (plan.c) ---------------------------------------------------- */

/* The plan of e into *out: run on device arrays (arrays; donate per input,
 * or NULL) or from host buffers, with onchip_cap bytes on chip and the
 * loops' placement and dot operands of memory model `loops` (NULL: none),
 * pd filled when not NULL, with tl the live bytes after every instruction,
 * *end_live (when not NULL) the bytes live at the end; buffers sized by
 * `layout`, regions planned with `fusion` and remembered in memo (NULL:
 * planned every time); fixed (NULL: found here) as built for e, its resume
 * points used and updated when the plan's state is theirs. Returns the
 * first failure: host memory run out, a kernel's scratch or a collective's
 * ledger entry not found, a region's plan failed. */
ss_status ss__plan_run(const ss_executable *e, const bool donate[], bool arrays,
                       size_t onchip_cap, const ss_memory_model *loops, peak_detail *pd,
                       ss_plan *out, timeline *tl, size_t *end_live, ss_memory_layout layout,
                       bool fusion, region_memo *memo, plan_fixed *fixed);

/* Per buffer of e (e->nbufs + 1 entries, malloc'd, the caller frees):
 * is every reader (FREEs and STOREs aside) a dot as XLA's TPU compiler
 * fuses it, and is there one? NULL when out of host memory. */
bool *ss__plan_dot_operands(const ss_executable *e);

/* --- The searches' plumbing (plan_fixed.c) -------------------------------- */

/* Frees what f holds; f is then unbuilt (all zero). */
void ss__plan_fixed_free(plan_fixed *f);

/* xla_fusion.c's measure (ss__peak_fn; ctx a fusion_ctx): the peak of e
 * and the buffers in HBM there, with the facts the search leaves alone
 * built once for e, resumed where e's list is the last one planned. */
ss_status ss__plan_fusion_peak(const ss_executable *e, void *ctx, size_t *peak, bool *at_peak,
                               int from);

/* xla_remat.c's measure (ss__remat_peak_fn; ctx a fusion_ctx): the peak of
 * e, the buffers in HBM there and the instruction where it is reached
 * (its rewrites add readers, so nothing is kept from one plan to the next). */
ss_status ss__plan_remat_peak(const ss_executable *e, void *ctx, size_t *peak, bool *at_peak,
                              int *at_inst);

/* The instruction a plan with resume points rs starts at: when `restore`
 * (the plan keeps no peak flags) and its list is the last one's before
 * rs->from, the last valid point at or before that, with the plan's state
 * (live and host bytes, figures, the moved and kept flags of nb buffers)
 * set to the point's; else 0, the state left as it is. The points from
 * there on are no longer valid (the plan makes them again). */
int ss__plan_resume_start(plan_resume *rs, bool restore, size_t nb, size_t *live,
                          size_t *host_live, ss_plan *out, bool *moved, bool *kept);

/* At the start of instruction k of a plan with resume points rs: keeps
 * the plan's state as a point when k is one's. */
void ss__plan_resume_save(plan_resume *rs, int k, size_t nb, size_t live, size_t host_live,
                          const ss_plan *out, const bool *moved, const bool *kept);

#endif
