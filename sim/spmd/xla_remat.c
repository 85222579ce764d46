/*
 * xla_remat.c — the plan's model of XLA's rematerialisation under the HBM
 * limit (plan only, under a memory model with xla_remat_limit_bytes:
 * `--device tpu-*`).
 *
 * When a program's live values would exceed its memory limit, XLA's
 * HloRematerialization pass (xla/hlo/transforms/simplifiers/
 * hlo_rematerialization.cc) walks the schedule and, at a program point
 * over the limit, frees a value that is alive there but not read there
 * and computes it again just before its next reader. It picks the
 * candidate of the lowest cost, the limit / the bytes it frees (so the
 * largest first, the earliest in the schedule among equals: the first
 * one found is kept), and repeats until the point is within the limit;
 * a candidate whose operands are not alive at the point frees less (their
 * lives would be extended). Its tracker counts the computation's values
 * but not its parameters and outputs, against a limit that the TPU
 * compiler sets to a fixed budget per chip less the arguments (less the
 * outputs aliased to them) and the outputs: so, in the plan's terms,
 * XLA recomputes while the planned peak (arguments, outputs and the
 * temporaries in HBM) exceeds the budget.
 *
 * Measured with libtpu 0.0.42.1 (its log of HloRematerialization with
 * --vmodule=hlo_rematerialization=1, two probe programs per chip): the
 * limit plus arguments plus outputs is 16,063,620,096 B on one chip of
 * v5e:2x4 and 97,663,017,984 B on v5p:2x2x2, whatever the program (about
 * 95 % of the 15.75 and 95.74 GiB XLA makes available). On the fit sweep
 * of the Flax MLP (tests/data/xla_tpu/flax_linen_fit_r*) the pass then
 * recomputes the hidden layers' pre-activations (the dot of a layer's
 * input and kernel, read by the ReLU forward and its mask backward),
 * earliest layer first: 3 at 1,048,576 rows per data shard on v5e, 1 at
 * 5,767,168 and 2 at 6,291,456 on v5p, none at the others (their optimized
 * HLO's *.remat instructions).
 *
 * The pass rewrites the plan's copy of the executable: at the plan's peak,
 * while it exceeds the budget, the largest buffer in HBM there (the
 * earliest produced among equals) that the peak's instruction does not
 * read, that is read again after it, and whose producer (a kernel or a
 * fused loop of one result) reads only buffers alive until that next
 * reader (so that recomputing it frees its whole size, the candidates
 * XLA ranks first), is freed after its last reader before the peak, and
 * its producer runs again (into the same buffer) just before the next
 * reader. A reader that xla_fusion.c fuses away reads it where its own
 * value is read (the ReLU's mask, fused into the backward pass's select).
 * Then the plan is made again: the peak may have moved. Programs with
 * loops are left alone (their bodies are planned as regions). It models what the plan
 * counts (the temporaries XLA's buffer assignment holds), not the
 * tracker's own sum; values on chip are not counted, as in the plan.
 * This is a model of XLA's memory, not of shardsim's run, and applies to
 * the plan only.
 */
#include "lower.h"

#include <stdlib.h>
#include <string.h>

/* At most this many values recomputed (each one a plan). */
enum { MAX_REMATS = 64 };

/* Per buffer of e: its producer (-1: none, or several results), the
 * instruction that frees it (-1: never), and whether a STORE reads it. */
typedef struct facts {
    int *producer, *freed_at;
    bool *stored;
} facts;

static void facts_free(facts *f)
{
    free(f->producer);
    free(f->freed_at);
    free(f->stored);
}

static ss_status facts_of(const ss_executable *e, facts *f)
{
    size_t nb = (size_t)(e->nbufs ? e->nbufs : 1);
    f->producer = malloc(sizeof(int) * nb);
    f->freed_at = malloc(sizeof(int) * nb);
    f->stored = calloc(nb, 1);
    if (!f->producer || !f->freed_at || !f->stored) {
        facts_free(f);
        return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    }
    for (int b = 0; b < e->nbufs; b++)
        f->producer[b] = f->freed_at[b] = -1;
    for (int k = 0; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        if (i->kind == SS__INST_FREE) {
            for (int x = 0; x < i->nin; x++)
                f->freed_at[i->in[x]] = k;
            continue;
        }
        if (i->kind == SS__INST_STORE) {
            f->stored[i->in[0]] = true;
            continue;
        }
        if ((i->kind == SS__INST_KERNEL || (i->kind == SS__INST_FUSED && !i->fused.nextra)) &&
            i->out >= 0 && i->out < e->nbufs)
            f->producer[i->out] = f->producer[i->out] == -1 ? k : -2;
    }
    return SS_OK;
}

/* Does instruction i read buffer b? */
static bool reads(const ss__inst *i, int b)
{
    for (int x = 0; i->kind != SS__INST_FREE && x < i->nin; x++)
        if (i->in[x] == b)
            return true;
    return false;
}

/* A candidate: buffer b, its producer, its last reader before the peak
 * (the producer when none) and its first reader after it. */
typedef struct remat {
    int buf, producer, last_before, next_after;
} remat;

/* Where buffer b is read, from instruction `from` on, around the peak
 * (instruction `at`): r->last_before and r->next_after move to the
 * readers found; a reader whose result is fused away (xla_fusion.c) reads
 * it where that result is read. False when a loop reads it, or the peak's
 * instruction does. */
static bool readers_around(const ss_executable *e, int b, int from, int at, remat *r, int depth)
{
    if (depth > 16)
        return false;
    for (int k = from; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        if (!reads(i, b))
            continue;
        if (i->kind == SS__INST_LOOP || k == at)
            return false;
        if ((i->kind == SS__INST_KERNEL || i->kind == SS__INST_FUSED) && i->out >= 0 &&
            e->bufs[i->out].fused_away) {
            if (!readers_around(e, i->out, k + 1, at, r, depth + 1))
                return false;
            continue;
        }
        if (k < at && k > r->last_before)
            r->last_before = k;
        if (k > at && (r->next_after < 0 || k < r->next_after))
            r->next_after = k;
    }
    return true;
}

/* Can buffer b (in HBM at the peak, instruction `at`) be recomputed
 * before its next reader? Fills *r if so. */
static bool candidate(const ss_executable *e, const facts *f, int b, int at, remat *r)
{
    int p = f->producer[b];
    if (p < 0 || p >= at || f->stored[b] || e->bufs[b].host || e->bufs[b].fused_away)
        return false;
    *r = (remat){b, p, p, -1};
    if (!readers_around(e, b, p + 1, at, r, 0) || r->next_after < 0)
        return false;
    const ss__inst *i = &e->insts[p];
    for (int x = 0; x < i->nin; x++) {
        int o = i->in[x];
        if (o == b || e->bufs[o].fused_away || e->bufs[o].host ||
            (f->freed_at[o] >= 0 && f->freed_at[o] < r->next_after))
            return false;
    }
    return true;
}

/* e's list with r applied: a FREE of r.buf after its last reader before
 * the peak, its producer again (sharing no operand) before its next
 * reader. Replaces e->insts (freeing it unless it is `keep`). */
static ss_status apply(ss_executable *e, const remat *r, const ss__inst *keep)
{
    ss__inst *l = malloc(sizeof *l * (size_t)(e->ninsts + 2));
    if (!l)
        return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    int n = 0;
    for (int k = 0; k < e->ninsts; k++) {
        if (k == r->next_after) {
            l[n] = e->insts[r->producer];
            memset(l[n].share, -1, sizeof l[n].share);
            memset(l[n].share_alt, -1, sizeof l[n].share_alt);
            n++;
        }
        l[n++] = e->insts[k];
        if (k == r->last_before) {
            ss__inst_init(&l[n], SS__INST_FREE, e->insts[k].node);
            l[n].in[l[n].nin++] = r->buf;
            l[n++].out = r->buf;
        }
    }
    if (e->insts != keep)
        free(e->insts);
    e->insts = l;
    e->ninsts = n;
    return SS_OK;
}

ss_status ss__executable_xla_remat(ss_executable *e, const ss__inst *keep, size_t budget,
                                   ss__remat_peak_fn peak_of, void *ctx, int *recomputed)
{
    *recomputed = 0;
    if (!budget || e->nloops)
        return SS_OK;
    size_t nb = (size_t)(e->nbufs ? e->nbufs : 1);
    bool *at = calloc(nb, 1);
    if (!at)
        return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    ss_status st = SS_OK;
    while (*recomputed < MAX_REMATS && !st) {
        size_t peak;
        int where;
        if ((st = peak_of(e, ctx, &peak, at, &where)) || peak <= budget || where < 0)
            break;
        facts f;
        if ((st = facts_of(e, &f)))
            break;
        remat best = {-1, -1, -1, -1}, r;
        for (int b = 0; b < e->nbufs; b++) {
            if (!at[b] || !candidate(e, &f, b, where, &r))
                continue;
            size_t bytes = ss_device_buffer_bytes(e->bufs[b].bytes);
            size_t best_bytes = best.buf < 0 ? 0 : ss_device_buffer_bytes(e->bufs[best.buf].bytes);
            if (best.buf < 0 || bytes > best_bytes ||
                (bytes == best_bytes && r.producer < best.producer))
                best = r;
        }
        facts_free(&f);
        if (best.buf < 0)
            break; /* nothing to recompute: the plan stays over the budget */
        if (!(st = apply(e, &best, keep))) {
            e->bufs[best.buf].xla_remat = true;
            ++*recomputed;
        }
    }
    free(at);
    return st;
}
