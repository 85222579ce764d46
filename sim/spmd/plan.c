/*
 * plan.c — what a compiled program will cost, without data or compute: the
 * per-device peak of arena bytes, FLOPs per device, and the collective
 * ledger. It replays the executor's allocation sequence (lower.h) with the
 * arena's rounding and asks the runtime for each collective's ledger entry,
 * so plan and run cannot disagree. The plumbing of the searches that plan
 * many variants of one executable is plan_fixed.c's (plan_internal.h).
 */
#include "out_slots.h"
#include "plan_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * The FLOPS column of ops.def: the floating-point operations of one KERNEL
 * instruction i of node n, from its buffers' shapes (operands in0, in1 as
 * far as it has them, result out), as XLA's cost analysis counts them.
 */
typedef double (*flops_rule)(const ss__node *n, const ss__inst *i, const ss__tensor *in0,
                             const ss__tensor *in1, const ss__tensor *out);

static double flops_unary(const ss__node *n, const ss__inst *i, const ss__tensor *in0,
                          const ss__tensor *in1, const ss__tensor *out)
{
    (void)i, (void)in1, (void)out;
    return (double)ss__k_flops_unary((ss__k_unary_op)n->sub, in0);
}

static double flops_binary(const ss__node *n, const ss__inst *i, const ss__tensor *in0,
                           const ss__tensor *in1, const ss__tensor *out)
{
    (void)i, (void)in0, (void)in1;
    return (double)ss__k_flops_binary((ss__k_binary_op)n->sub, out);
}

/* compare, select, clamp: one per result element. */
static double flops_ew(const ss__node *n, const ss__inst *i, const ss__tensor *in0,
                       const ss__tensor *in1, const ss__tensor *out)
{
    (void)i, (void)in0, (void)in1;
    return (double)ss__k_flops_elementwise(SS__K_EW_COMPARE, n->sub, ss__k_numel(out));
}

/* A multiply and an add per result element. */
static double flops_fma(const ss__node *n, const ss__inst *i, const ss__tensor *in0,
                        const ss__tensor *in1, const ss__tensor *out)
{
    (void)i, (void)in0, (void)in1;
    return (double)ss__k_flops_elementwise(SS__K_EW_FMA, n->sub, ss__k_numel(out));
}

/* Counted as a sum whatever the reduction (XLA counts one op per element). */
static double flops_reduce(const ss__node *n, const ss__inst *i, const ss__tensor *in0,
                           const ss__tensor *in1, const ss__tensor *out)
{
    (void)n, (void)i, (void)in1;
    return (double)ss__k_flops_reduce(SS__K_REDUCE_SUM, in0, out);
}

static double flops_dot(const ss__node *n, const ss__inst *i, const ss__tensor *in0,
                        const ss__tensor *in1, const ss__tensor *out)
{
    (void)n, (void)out;
    int64_t f = 0;
    if (ss__k_flops_dot_general(in0, in1, &i->dot, &f) != SS_OK)
        return 0;
    return (double)f;
}

static const flops_rule flops_rules[] = {
#define SS__OP(ID, NAME, NIN, NOUT, FLAGS, SUBNAME, VJP, FWD, BWD, LOWER, EVAL, KERNEL, FLOPS) \
    [SS__OP_##ID] = FLOPS,
#include "graph/ops.def"
#undef SS__OP
};
_Static_assert(sizeof flops_rules / sizeof flops_rules[0] == SS__OP_COUNT, "one rule per opcode");

bool ss__plan_has_flops(ss__opcode op) { return (unsigned)op < SS__OP_COUNT && flops_rules[op]; }

/* FLOPs of one KERNEL instruction on one device. */
static double kernel_flops(const ss_executable *e, const ss__inst *i)
{
    const ss__node *n = &e->program->nodes[i->node];
    ss__tensor out = {e->bufs[i->out].dtype, e->bufs[i->out].rank, {0}, NULL};
    memcpy(out.shape, e->bufs[i->out].shape, sizeof out.shape);
    ss__tensor in0 = {SS_F32, 0, {0}, NULL}, in1 = in0;
    if (i->nin > 0) {
        in0.dtype = e->bufs[i->in[0]].dtype;
        in0.rank = e->bufs[i->in[0]].rank;
        memcpy(in0.shape, e->bufs[i->in[0]].shape, sizeof in0.shape);
    }
    if (i->nin > 1) {
        in1.dtype = e->bufs[i->in[1]].dtype;
        in1.rank = e->bufs[i->in[1]].rank;
        memcpy(in1.shape, e->bufs[i->in[1]].shape, sizeof in1.shape);
    }
    flops_rule rule = (unsigned)n->op < SS__OP_COUNT ? flops_rules[n->op] : NULL;
    return rule ? rule(n, i, &in0, &in1, &out) : 0;
}

double ss__inst_flops(const ss_executable *e, const ss__inst *i)
{
    if (i->kind == SS__INST_KERNEL)
        return kernel_flops(e, i);
    if (i->kind != SS__INST_FUSED)
        return 0;
    int64_t n = 1;
    for (int d = 0; d < e->bufs[i->out].rank; d++)
        n *= e->bufs[i->out].shape[d];
    return (double)ss__k_flops_fused(&i->fused, n);
}

/* The run being planned: from host buffers (ss_executable_run), or on
 * device-resident arrays with some donated (ss_executable_run_arrays). */
/* The plans of regions (loop bodies, conditions, branches) already made
 * in one planning call: a region's plan depends only on the region, the
 * carries it may write over (donate), the layout and the fusion model, so
 * a loop planned again (its two body runs, every candidate list
 * xla_fusion.c tries around it) is looked up, not replanned with its own
 * fusion search. */
typedef struct region_plan {
    const ss_executable *sub;
    uint64_t donate; /* bit k: input k donated (SS__MAX_INPUTS is 64) */
    ss_memory_layout layout;
    bool fusion;
    ss_plan plan;
    size_t end_live;
} region_plan;

struct region_memo {
    region_plan *at;
    int n, cap;
};

typedef struct mode {
    bool arrays;
    const bool *donate; /* per input, or NULL */
    const int *arg_input; /* per buffer: the input a LOAD buffer holds, else -1 */
    bool *moved;        /* per buffer: taken over by a result */
    /* The on-chip memory for temporaries (ss_memory_model.onchip_bytes):
     * its capacity (0: none), the bytes placed in it now, and per buffer
     * whether it is there (NULL when the capacity is 0) and whether it is
     * a result of the run (results and arguments stay in HBM). */
    size_t onchip_cap, onchip_used;
    bool *onchip;
    const bool *result;
    /* ss_memory_model.loops_onchip, loop_stacks_hbm: a top-level loop
     * that fits in the on-chip memory left is held there, its stacks in
     * HBM with the second (plan_loop). */
    bool loops_onchip, loop_stacks_hbm;
    struct peak_detail *pd; /* NULL: not asked for */
    /* How buffers are sized (ss_memory_model.layout): the executable's
     * own table is, a loop's regions are laid out so when planned. */
    ss_memory_layout layout;
    bool fusion; /* ss_memory_model.xla_fusion: regions are planned so too */
    size_t host_live; /* bytes in the device's partition of its host's arena */
    region_memo *memo; /* NULL: regions are planned every time */
    /* The TPU models' output slots (out_slots.h; NULL: outputs counted
     * when written, temporaries never in them; always NULL in a program
     * with loops, see ss__plan_run). */
    ss__out_slots *slots;
    const ss_executable *e; /* the executable planned */
    /* The peak detail's snapshot, copied on write (pd only): a new peak
     * starts generation `gen`; a buffer's flags are copied to the snapshot
     * before their first change in a generation (kept_gen[b] then is gen),
     * and those unchanged since the last peak at the end (snapshot_finish). */
    unsigned gen, *kept_gen;
    /* ss_memory_model.onchip_not_dot_operands: per buffer, read by dots
     * only (NULL: not modelled); such a buffer is never placed on chip. */
    const bool *dot_operand;
} mode;

/* Is b an output counted from the start (in its slot)? */
static bool slot_output(const mode *md, int b)
{
    return md->slots && md->result[b] && ss__out_slots_is_output(md->slots, b);
}

/* Buffer b's flags are about to change: the last peak's snapshot keeps
 * what they are now, unless it has already. */
static void snapshot_keep(mode *md, int b)
{
    if (md->kept_gen[b] != md->gen) {
        md->pd->at_hbm[b] = md->pd->hbm[b];
        md->pd->at_copy[b] = md->pd->copy[b];
        md->kept_gen[b] = md->gen;
    }
}

/* The snapshot of the last peak, whole: what has not changed since. */
static void snapshot_finish(const ss_executable *e, mode *md)
{
    for (int b = 0; md->pd && md->gen && b < e->nbufs; b++)
        snapshot_keep(md, b);
}

static void hbm_set(mode *md, int b, bool in)
{
    if (md->pd) {
        snapshot_keep(md, b);
        md->pd->hbm[b] = in;
    }
    if (md->pd && md->pd->heap)
        ss__heap_trace_note(md->e, md->pd->heap, md->result, md->arg_input, b, in);
}

/* A new peak: remember what makes it up (its buffers: snapshot_keep). */
static void peak_snapshot(const ss_executable *e, mode *md, size_t extra, ss_buffer_role role,
                          ss_value value)
{
    (void)e;
    peak_detail *pd = md->pd;
    if (!pd)
        return;
    md->gen++;
    pd->extra = extra;
    pd->extra_role = role;
    pd->extra_value = value;
    pd->loop = NULL; /* plan_loop names it after this */
}

static bool donated(const mode *md, int b)
{
    return md->arrays && md->donate && md->arg_input[b] >= 0 && md->donate[md->arg_input[b]];
}

/* Does result r of i take over an operand (exec.c's take_result)? Marks
 * the operand; the result is where the operand was (on chip or not), and a
 * result of the run taking an on-chip temporary moves it to HBM (*live). */
static bool takes_operand(const ss_executable *e, const ss__inst *i, int r, mode *md,
                          size_t *live)
{
    int first = i->share[r];
    int j = ss__inst_taken_operand(i, r, first >= 0 && donated(md, i->in[first]));
    if (j < 0)
        return false;
    int res0 = r == 0 ? i->out : i->extra_out[r - 1];
    if (e->bufs[res0].xla_bf16 && !e->bufs[i->in[j]].xla_bf16)
        return false; /* a sum XLA writes in bf16 (xla_narrow.c): its own buffer */
    md->moved[i->in[j]] = true;
    int res = r == 0 ? i->out : i->extra_out[r - 1];
    if (md->slots && (slot_output(md, res) || md->slots->slot_of[i->in[j]] >= 0)) {
        /* An output's bytes are counted already: the operand leaves its
         * slot or its place. A temporary in a slot hands it on, or moves
         * to HBM when the slot's output is written before it dies. */
        size_t op_bytes = ss_device_buffer_bytes(e->bufs[i->in[j]].bytes);
        bool in_slot = ss__out_slots_release(md->slots, i->in[j]);
        if (slot_output(md, res)) {
            if (in_slot)
                ;
            else if (md->onchip && md->onchip[i->in[j]])
                md->onchip_used -= op_bytes;
            else {
                *live -= op_bytes;
                hbm_set(md, i->in[j], false);
            }
        } else if (!ss__out_slots_take(md->slots, res)) {
            *live += ss_device_buffer_bytes(e->bufs[res].bytes);
            hbm_set(md, res, true);
        }
        return true;
    }
    if (md->onchip && md->onchip[i->in[j]]) {
        size_t bytes = ss_device_buffer_bytes(e->bufs[res].bytes);
        if (md->result[res]) {
            md->onchip_used -= bytes;
            *live += bytes;
            hbm_set(md, res, true);
        } else {
            md->onchip[res] = true;
        }
    } else {
        hbm_set(md, i->in[j], false);
        hbm_set(md, res, true);
    }
    return true;
}

/* Room for `bytes` of a temporary (not an argument, not a result of the
 * run) in the on-chip memory? Takes it if so: the first-come placement of
 * ss_memory_model. */
static bool onchip_take(mode *md, int b, size_t bytes)
{
    if (!md->onchip ||
        (b >= 0 && (md->result[b] || md->arg_input[b] >= 0 ||
                    (md->dot_operand && md->dot_operand[b]))) ||
        md->onchip_used + bytes > md->onchip_cap)
        return false;
    md->onchip_used += bytes;
    if (b >= 0)
        md->onchip[b] = true;
    return true;
}

/* What ss__plan_dot_operands reads e with: per buffer, whether a dot computes it
 * (dot_result), its readers (list[at[b] .. at[b + 1]), FREEs and STOREs
 * aside), and for a fused-away buffer whether every reader is a dot
 * kernel (memo: 0 not yet known, 1 yes, 2 no, 3 being decided). */
typedef struct dot_reads {
    const ss_executable *e;
    bool *dot_result;
    int *at, *list;
    unsigned char *memo;
} dot_reads;

static bool dot_kernel(dot_reads *d, const ss__inst *i, bool inside);

/* Is fused-away buffer b read by dot kernels only (fused into each)? */
static bool fused_into_dots(dot_reads *d, int b)
{
    if (d->memo[b] == 1 || d->memo[b] == 2 || d->memo[b] == 3)
        return d->memo[b] == 1;
    d->memo[b] = 3;
    bool all = d->at[b + 1] > d->at[b];
    for (int k = d->at[b]; all && k < d->at[b + 1]; k++)
        all = dot_kernel(d, &d->e->insts[d->list[k]], true);
    d->memo[b] = all ? 1 : 2;
    return all;
}

/* Is instruction i a dot as XLA's TPU compiler fuses it (xla_fusion.c):
 * a dot, or one fused away whose readers are all such (fused into each),
 * or, for a value fused into it (`inside`), an instruction fused into the
 * dot whose result it reads (an output fusion: that result fused away, the
 * compare of the backward ReLU mask inside convolution_select_fusion.1/.2
 * of the fit sweep's MLP)? A materialised value the output fusion reads is
 * not counted read by a dot: the one such in the dumps, the MoE layer's
 * ReLU mask (and_convert_fusion), XLA holds on chip (profiles.c). */
static bool dot_kernel(dot_reads *d, const ss__inst *i, bool inside)
{
    const ss_executable *e = d->e;
    if (i->kind != SS__INST_KERNEL && i->kind != SS__INST_FUSED)
        return false;
    if (i->kind == SS__INST_KERNEL && e->program->nodes[i->node].op == SS__OP_DOT)
        return true;
    for (int x = 0; inside && x < i->nin; x++) {
        int b = i->in[x];
        if (b >= 0 && b < e->nbufs && e->bufs[b].fused_away && d->dot_result[b])
            return true;
    }
    return i->out >= 0 && i->out < e->nbufs && e->bufs[i->out].fused_away &&
           fused_into_dots(d, i->out);
}

/* Per buffer of e: is every reader (FREEs and STOREs aside) a dot
 * (dot_kernel), and is there one? NULL when out of host memory. */
bool *ss__plan_dot_operands(const ss_executable *e)
{
    size_t nb = (size_t)e->nbufs + 1;
    int total = 0;
    for (int k = 0; k < e->ninsts; k++)
        total += e->insts[k].nin;
    dot_reads d = {e, calloc(nb, 1), calloc(nb + 1, sizeof(int)),
                   malloc(sizeof(int) * (size_t)(total + 1)), calloc(nb, 1)};
    int *readers = calloc(nb, sizeof *readers);
    int *dots = calloc(nb, sizeof *dots);
    bool *only = calloc(nb, 1);
    if (!readers || !dots || !only || !d.dot_result || !d.at || !d.list || !d.memo) {
        free(only);
        only = NULL;
    }
    /* the readers of each buffer, each instruction once per buffer: counted
     * (pass 0, at[b + 2]), then listed (pass 1, at[b + 1] the next slot) */
    for (int pass = 0; only && pass < 2; pass++) {
        for (int b = 0; pass && b < e->nbufs; b++)
            d.at[b + 2] += d.at[b + 1];
        for (int k = 0; k < e->ninsts; k++) {
            const ss__inst *i = &e->insts[k];
            if (i->kind == SS__INST_FREE || i->kind == SS__INST_STORE)
                continue;
            if (!pass && i->kind == SS__INST_KERNEL && i->out >= 0 && i->out < e->nbufs &&
                e->program->nodes[i->node].op == SS__OP_DOT)
                d.dot_result[i->out] = true;
            for (int x = 0; x < i->nin; x++) {
                int b = i->in[x];
                bool again = false; /* a buffer read twice by one instruction counts once */
                for (int y = 0; y < x; y++)
                    again |= i->in[y] == b;
                if (b < 0 || b >= e->nbufs || again)
                    continue;
                if (!pass)
                    d.at[b + 2]++;
                else
                    d.list[d.at[b + 1]++] = k;
            }
        }
    }
    for (int k = 0; only && k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        if (i->kind == SS__INST_FREE || i->kind == SS__INST_STORE)
            continue;
        bool dot = dot_kernel(&d, i, false);
        for (int x = 0; x < i->nin; x++) {
            int b = i->in[x];
            bool again = false;
            for (int y = 0; y < x; y++)
                again |= i->in[y] == b;
            if (b < 0 || b >= e->nbufs || again)
                continue;
            readers[b]++;
            dots[b] += dot;
        }
    }
    for (int b = 0; only && b < e->nbufs; b++)
        only[b] = readers[b] > 0 && dots[b] == readers[b];
    free(readers);
    free(dots);
    free(d.dot_result);
    free(d.at);
    free(d.list);
    free(d.memo);
    return only;
}

/* A new result buffer b: in host memory when it is a host buffer, else on
 * chip when it fits there, else in HBM (*live). */
static void place_result(const ss_executable *e, mode *md, int b, size_t *live, ss_plan *out)
{
    if (e->bufs[b].fused_away) /* never materialised (xla_fusion.c) */
        return;
    size_t bytes = ss_device_buffer_bytes(e->bufs[b].bytes);
    if (slot_output(md, b))
        return; /* counted from the start */
    if (e->bufs[b].host) {
        md->host_live += bytes;
        if (md->host_live > out->host_peak_bytes)
            out->host_peak_bytes = md->host_live;
        return;
    }
    if (!onchip_take(md, b, bytes) &&
        !(md->slots && !md->result[b] && ss__out_slots_take(md->slots, b))) {
        *live += bytes;
        hbm_set(md, b, true);
    }
}

static const char *const inst_what[] = {
    [SS__INST_LOAD] = "load",       [SS__INST_CONST] = "constant", [SS__INST_KERNEL] = "kernel",
    [SS__INST_COLL] = "collective", [SS__INST_SLICE] = "slice",    [SS__INST_UNSTACK] = "unstack",
    [SS__INST_STORE] = "store",     [SS__INST_FUSED] = "fused",    [SS__INST_ALLOC] = "alloc",
    [SS__INST_PLACE] = "place",     [SS__INST_FREE] = "free",      [SS__INST_LOOP] = "loop",
    [SS__INST_TRANSFER] = "transfer",
};

static void timeline_add(timeline *tl, const ss_executable *e, int k, const ss__inst *i,
                         size_t live, size_t peak, size_t host_live)
{
    if (!tl)
        return;
    if (tl->n < tl->cap)
        tl->pts[tl->n] = (ss_memory_point){
            k, i->kind != SS__INST_FREE ? i->node : i->nin ? e->bufs[i->in[0]].value : -1,
            (size_t)i->kind < sizeof inst_what / sizeof *inst_what && inst_what[i->kind]
                ? inst_what[i->kind]
                : "other",
            live, peak, host_live};
    tl->n++;
}

/* A region's host figures (ss_plan's) run `trips` times on top of the
 * host bytes alive around it. */
static void add_region_host(ss_plan *out, const mode *md, const ss_plan *r, double trips)
{
    if (md->host_live + r->host_peak_bytes > out->host_peak_bytes)
        out->host_peak_bytes = md->host_live + r->host_peak_bytes;
    out->to_host_bytes += trips * r->to_host_bytes;
    out->to_device_bytes += trips * r->to_device_bytes;
    out->transfers += (int)trips * r->transfers;
}

static ss_status plan_region_laid_out(const ss_executable *sub, const bool donate[],
                                      const mode *md, ss_plan *out, size_t *end_live);

/* Runs of a loop's body (and its condition runs one more): a counted
 * loop's length, a while's trips when known before it runs, else once. */
static int64_t loop_runs(const ss__loop_exec *l, bool *known)
{
    *known = l->length >= 0 || l->trips >= 0;
    return l->length >= 0 ? l->length : *known ? l->trips : 1;
}

/* A conditional instruction: while it runs, the largest branch's plan is
 * live on top of `live` (its results are made by the branch); then its
 * results stay. The step counts the largest branch's FLOPs and bytes sent
 * (the most a step can take), and every branch's collectives (the ledger,
 * as XLA's compiled text, lists each branch's). */
static ss_status plan_case(const ss_executable *e, const ss__inst *i, mode *md, size_t *live,
                           ss_plan *out, size_t *inst_peak)
{
    const ss__loop_exec *l = &e->loops[i->index];
    size_t inner = 0, results = 0;
    double flops = 0, sent = 0;
    for (int b = 0; b < l->nbranch; b++) {
        ss_plan r;
        ss_status st = plan_region_laid_out(l->branch[b], NULL, md, &r, NULL);
        if (st)
            return st;
        inner = r.peak_bytes > inner ? r.peak_bytes : inner;
        flops = r.flops > flops ? r.flops : flops;
        sent = r.sent_bytes > sent ? r.sent_bytes : sent;
        out->ncollectives += r.ncollectives;
        out->unknown_trip_loops += r.unknown_trip_loops;
        add_region_host(out, md, &r, 1);
    }
    for (int k = 0; k < l->nout; k++)
        results += ss_device_buffer_bytes(e->bufs[l->outs[k]].bytes);
    size_t peak = *live + (inner > results ? inner : results);
    if (peak > out->peak_bytes) {
        peak_snapshot(e, md, peak - *live, SS_BUFFER_LOOP, i->node);
        out->peak_bytes = peak;
    }
    *inst_peak = peak;
    *live += results;
    for (int k = 0; k < l->nout; k++)
        hbm_set(md, l->outs[k], true);
    out->flops += flops;
    out->sent_bytes += sent;
    return SS_OK;
}

/* How loop l's carries are held (loop.c's ss__loop_run): per carry k,
 * whether the body hands back its argument k unchanged (pass[k], the
 * first carry to hand it back: it stays borrowed, or adopted), and the
 * bytes of the carries copied after every body run (results that are
 * another argument, or a result twice). */
static size_t carry_facts(const ss_executable *e, const ss__loop_exec *l, bool pass[])
{
    const ss_executable *b = l->body;
    int nc = l->ncarry, load[64], store[64], next[64];
    for (int k = 0; k < nc; k++)
        load[k] = store[k] = -1;
    for (int k = 0; k < b->ninsts; k++) {
        const ss__inst *i = &b->insts[k];
        if (i->kind == SS__INST_LOAD && i->index < nc)
            load[i->index] = i->out;
        if (i->kind == SS__INST_STORE && i->index < nc)
            store[i->index] = i->in[0];
    }
    size_t copies = 0;
    for (int k = 0; k < nc; k++) {
        bool earlier = false;
        for (int j = 0; j < k; j++)
            earlier = earlier || next[j] == store[k];
        pass[k] = store[k] >= 0 && store[k] == load[k] && !earlier;
        next[k] = store[k];
        if (!pass[k] && store[k] >= 0 && (earlier || b->arg_of[store[k]] >= 0)) {
            if (!e->bufs[l->outs[k]].host) /* host copies stay in host memory */
                copies += ss_device_buffer_bytes(e->bufs[l->outs[k]].bytes);
            next[k] = -2 - k; /* a copy of its own */
        }
    }
    return copies;
}

/* One run of loop l's body whose owned carries (own[k]) it may write
 * over, on top of the `base` bytes live around it: the peak it reaches,
 * and the copies made after it (ss__loop_run's order). */
static ss_status body_step(const ss__loop_exec *l, const bool own[], const mode *md, size_t base,
                           size_t copies, ss_plan *body, size_t *peak)
{
    bool donate[SS__MAX_INPUTS] = {false};
    memcpy(donate, own, sizeof(bool) * (size_t)l->ncarry);
    size_t end = 0;
    ss_status st = plan_region_laid_out(l->body, donate, md, body, &end);
    if (st)
        return st;
    *peak = base + body->peak_bytes;
    if (base + end + copies > *peak)
        *peak = base + end + copies;
    return SS_OK;
}

/* A loop instruction: its results (carries, stacked ys) stay. The
 * carries it adopts (ss__loop_exec.adopt) leave `live` as it starts;
 * while it runs, the ys and the carries it owns are live on top of the
 * rest, and one run of the body (or condition): its first run owns only
 * the adopted carries, the later ones every carry not passed through
 * unchanged, and the body writes over those in place where it can
 * (ss__exec_region's donation). Counted loops multiply the body's figures
 * by their length, and a while whose trip count its form shows (graph.h,
 * ss__loop.trips) by that, its condition once more; any other while
 * counts its condition and body once (ss_plan.unknown_trip_loops), and
 * its memory as if it went round more than once. */
static ss_status plan_loop(const ss_executable *e, const ss__inst *i, mode *md, size_t *live,
                           ss_plan *out, size_t *inst_peak)
{
    const ss__loop_exec *l = &e->loops[i->index];
    if (l->nbranch)
        return plan_case(e, i, md, live, out, inst_peak);
    int nc = l->ncarry;
    bool pass[64], own1[64], own2[64];
    size_t copies = carry_facts(e, l, pass);
    size_t carries = 0, ys = 0, owned1 = 0, owned2 = 0, host_carries = 0;
    for (int k = 0; k < nc; k++) {
        size_t b = ss_device_buffer_bytes(e->bufs[l->outs[k]].bytes);
        own1[k] = l->adopt[k];
        own2[k] = l->adopt[k] || !pass[k];
        if (e->bufs[i->in[k]].fused_away) { /* sunk into the body (xla_fusion.c): nowhere */
            own1[k] = own2[k] = false;
            continue;
        }
        if (l->outs[k] == i->in[k] && !l->adopt[k])
            continue; /* its operand's buffer, still live (ss__loop_alias_passed) */
        if (e->bufs[l->outs[k]].host) { /* a host carry (memory.c): in host memory */
            host_carries += b;
            if (l->adopt[k]) {
                md->moved[i->in[k]] = true;
                md->host_live -= ss_device_buffer_bytes(e->bufs[i->in[k]].bytes);
            }
            continue;
        }
        carries += b;
        owned1 += own1[k] ? b : 0;
        owned2 += own2[k] ? b : 0;
        if (!l->adopt[k])
            continue;
        /* Adopted: the operand's buffer is the loop's now (its FREE is void). */
        int op = i->in[k];
        md->moved[op] = true;
        if (md->onchip && md->onchip[op]) {
            md->onchip_used -= ss_device_buffer_bytes(e->bufs[op].bytes);
        } else {
            *live -= ss_device_buffer_bytes(e->bufs[op].bytes);
            /* A result of the run from its start: XLA's output allocation,
             * never its heap. */
            if (md->pd && md->pd->heap && md->result[l->outs[k]])
                md->pd->heap->born[op] = -1;
            hbm_set(md, op, false);
        }
    }
    for (int k = 0; k < l->nys; k++)
        ys += ss_device_buffer_bytes(e->bufs[l->outs[nc + k]].bytes);
    bool known;
    int64_t runs = loop_runs(l, &known);
    if (!known)
        runs = 2; /* its memory: a first run and a later one */
    ss_plan body, cond;
    memset(&body, 0, sizeof body);
    memset(&cond, 0, sizeof cond);
    ss_status st = l->cond ? plan_region_laid_out(l->cond, NULL, md, &cond, NULL) : SS_OK;
    size_t base = *live + ys, peak = base + carries, step;
    if (!st && l->cond) {
        size_t c1 = base + owned1 + cond.peak_bytes, c2 = base + owned2 + cond.peak_bytes;
        peak = c1 > peak ? c1 : peak;
        if (runs >= 1)
            peak = c2 > peak ? c2 : peak;
    }
    const bool *peak_own = NULL; /* the body's run that made the peak */
    if (!st && runs >= 1 && !(st = body_step(l, own1, md, base, copies, &body, &step)) &&
        step > peak) {
        peak = step;
        peak_own = own1;
    }
    if (!st && runs >= 2 && !(st = body_step(l, own2, md, base, copies, &body, &step)) &&
        step > peak) {
        peak = step;
        peak_own = own2;
    }
    if (!st && runs < 1) /* the FLOPs and collectives of one run, not counted */
        st = plan_region_laid_out(l->body, NULL, md, &body, NULL);
    if (st)
        return st;
    /* On chip (ss_memory_model.loops_onchip) when its carries, ys and body
     * fit in what is left there: only its results that are results of the
     * run go to HBM, and with loop_stacks_hbm its adopted carries (the
     * stacks a scan writes in place), which are not counted against the
     * on-chip room. Else the loop's new results are in HBM. A carry that
     * is its operand's buffer stays where the operand is (on chip, say), a
     * host carry in host memory. */
    size_t stacks = 0; /* its adopted carries: the stacks a scan writes in place */
    for (int k = 0; k < nc && md->loop_stacks_hbm; k++)
        if (l->adopt[k] && !e->bufs[i->in[k]].fused_away && !e->bufs[l->outs[k]].host)
            stacks += ss_device_buffer_bytes(e->bufs[l->outs[k]].bytes);
    bool onchip =
        md->loops_onchip && md->onchip_used + (peak - *live - stacks) <= md->onchip_cap;
    size_t to_hbm = onchip ? 0 : ys + carries;
    bool in_hbm[SS__INST_MAX_RESULTS] = {false};
    for (int k = 0; k < l->ncarry + l->nys && k < SS__INST_MAX_RESULTS; k++) {
        int r = l->outs[k];
        bool aliased = k < nc && r == i->in[k] && !l->adopt[k];
        if (e->bufs[r].fused_away || e->bufs[r].host || aliased)
            continue;
        size_t b = ss_device_buffer_bytes(e->bufs[r].bytes);
        bool stack = md->loop_stacks_hbm && k < nc && l->adopt[k];
        if (onchip && !md->result[r] && !stack) {
            md->onchip[r] = true;
            md->onchip_used += b;
            continue;
        }
        to_hbm += onchip ? b : 0;
        in_hbm[k] = true;
    }
    if (onchip)
        peak = *live + to_hbm;
    if (peak > out->peak_bytes) { /* the loop is one entry: not yet marked in HBM */
        peak_snapshot(e, md, peak - *live, SS_BUFFER_LOOP, i->node);
        out->peak_bytes = peak;
        if (md->pd) {
            md->pd->loop = peak_own && !onchip ? i : NULL; /* on chip: not in HBM */
            memset(md->pd->body_own, 0, sizeof md->pd->body_own);
            if (peak_own)
                memcpy(md->pd->body_own, peak_own, sizeof(bool) * (size_t)nc);
        }
    }
    *inst_peak = peak;
    if (md->pd && md->pd->heap) {
        /* The body's temporaries in XLA's heap: the loop's peak less what
         * is live around it, its carries and ys, and less what the body
         * writes as the loop's next state (its new carries, its step of
         * each ys), which XLA writes into the loop's own buffers; none
         * when they fit in the on-chip memory left, where XLA's
         * memory-space assignment puts them (make_stash_dtypes.py's probes
         * report no more temp than their stacks). */
        size_t temps = onchip ? 0 : peak - *live - ys - carries, outs = 0;
        for (int k = 0; k < nc; k++)
            outs += pass[k] ? 0 : ss_device_buffer_bytes(e->bufs[l->outs[k]].bytes);
        for (int k = 0; k < l->nys; k++)
            outs += ss_device_buffer_bytes(l->y_step[k]);
        temps = temps > outs ? temps - outs : 0;
        if (md->onchip && md->onchip_used + temps <= md->onchip_cap)
            temps = 0;
        ss__heap_trace_loop(md->pd->heap, e, i, in_hbm, md->result, temps);
    }
    *live += to_hbm;
    for (int k = 0; k < l->ncarry + l->nys && k < SS__INST_MAX_RESULTS; k++)
        if (in_hbm[k])
            hbm_set(md, l->outs[k], true);
    double trips = (double)loop_runs(l, &known);
    double ctrips = l->cond && known ? trips + 1 : 1.0;
    out->flops += trips * body.flops + ctrips * cond.flops;
    out->ncollectives += (int)trips * body.ncollectives + (int)ctrips * cond.ncollectives;
    out->sent_bytes += trips * body.sent_bytes + ctrips * cond.sent_bytes;
    out->unknown_trip_loops += body.unknown_trip_loops + cond.unknown_trip_loops + (known ? 0 : 1);
    md->host_live += host_carries;
    if (md->host_live > out->host_peak_bytes)
        out->host_peak_bytes = md->host_live;
    add_region_host(out, md, &body, trips);
    add_region_host(out, md, &cond, ctrips);
    return SS_OK;
}

ss_status ss__plan_region(const ss_executable *sub, const bool donate[], ss_plan *out,
                          size_t *end_live)
{
    return ss__plan_run(sub, donate, true, 0, NULL, NULL, out, NULL, end_live, SS_LAYOUT_DENSE,
                        false, NULL, NULL);
}

/* e as the device model plans it: a copy with its buffers sized by
 * `layout` and, with fusion, XLA's fusion modelled (xla_fusion.c) and,
 * with the model's xla_remat_limit_bytes, its rematerialisation
 * (xla_remat.c), and with its xla_windowed_ring the weight gradients XLA
 * computes after the last loop (xla_windowed.c); free it with
 * model_copy_free. On failure *copy is e. */
static ss_status model_copy(const ss_executable *e, const bool donate[], ss_memory_layout layout,
                            bool fusion, size_t onchip_cap, const ss_memory_model *loops,
                            region_memo *memo, ss_executable *copy)
{
    ss_status st = ss__executable_laid_out(e, layout, copy);
    if (st) {
        *copy = *e;
        return st;
    }
    if (fusion) {
        fusion_ctx c = {donate, onchip_cap, loops, layout, memo, {0}};
        st = ss__executable_xla_fused(copy, ss__plan_fusion_peak, &c);
        ss__plan_fixed_free(&c.fixed);
        int recomputed;
        if (!st && loops && loops->xla_remat_limit_bytes)
            st = ss__executable_xla_remat(copy, e->insts, loops->xla_remat_limit_bytes,
                                          ss__plan_remat_peak, &c, &recomputed);
    }
    int late;
    if (!st && loops && loops->xla_windowed_ring)
        st = ss__executable_xla_windowed_late(copy, e->insts, loops, &late);
    if (st) {
        if (copy->insts != e->insts)
            free(copy->insts);
        free(copy->bufs);
        *copy = *e;
    }
    return st;
}

static void model_copy_free(const ss_executable *e, ss_executable *copy)
{
    if (copy->insts != e->insts)
        free(copy->insts);
    if (copy->bufs != e->bufs)
        free(copy->bufs);
}

/* A region's plan with its buffers sized by md's layout (as the executable
 * around it is), and XLA's fusion modelled with md's fusion:
 * ss__plan_region's contract; looked up in md's memo when it has one. */
static ss_status plan_region_laid_out(const ss_executable *sub, const bool donate[],
                                      const mode *md, ss_plan *out, size_t *end_live)
{
    ss_memory_layout layout = md->layout;
    bool fusion = md->fusion;
    if (layout == SS_LAYOUT_DENSE && !fusion)
        return ss__plan_region(sub, donate, out, end_live);
    region_memo *memo = md->memo;
    uint64_t bits = 0;
    for (int k = 0; donate && k < SS__MAX_INPUTS; k++)
        bits |= (uint64_t)donate[k] << k;
    for (int k = 0; memo && k < memo->n; k++) {
        const region_plan *r = &memo->at[k];
        if (r->sub == sub && r->donate == bits && r->layout == layout && r->fusion == fusion) {
            *out = r->plan;
            if (end_live)
                *end_live = r->end_live;
            return SS_OK;
        }
    }
    ss_executable copy;
    size_t end = 0;
    ss_status st = model_copy(sub, donate, layout, fusion, 0, NULL, memo, &copy);
    if (st)
        return st;
    st = ss__plan_run(&copy, donate, true, 0, NULL, NULL, out, NULL, &end, layout, fusion, memo,
                      NULL);
    model_copy_free(sub, &copy);
    if (end_live)
        *end_live = end;
    if (st || !memo)
        return st;
    if (memo->n == memo->cap) {
        int cap = memo->cap ? 2 * memo->cap : 16;
        region_plan *at = realloc(memo->at, sizeof *at * (size_t)cap);
        if (!at)
            return SS_OK; /* not remembered: planned again next time */
        memo->at = at;
        memo->cap = cap;
    }
    memo->at[memo->n++] = (region_plan){sub, bits, layout, fusion, *out, end};
    return SS_OK;
}

ss_status ss__plan_run(const ss_executable *e, const bool donate[], bool arrays, size_t onchip_cap,
                       const ss_memory_model *loops, peak_detail *pd, ss_plan *out, timeline *tl,
                       size_t *end_live, ss_memory_layout layout, bool fusion, region_memo *memo,
                       plan_fixed *fixed)
{
    memset(out, 0, sizeof *out);
    size_t live = 0;
    size_t nb = (size_t)(e->nbufs ? e->nbufs : 1);
    /* XLA's TPU buffer assignment: temporaries in unwritten outputs
     * (out_slots.h), for a top level without loops: with loops (the scanned
     * LMs) XLA's reuse differs and the model moved the LARGE LM rows of
     * tests/xla_tpu/test_vs_xla.py away from XLA (lm_large_full v5e:2x4
     * 1.24 -> 1.39 of XLA's peak). */
    bool slotted = layout == SS_LAYOUT_TPU && arrays && !e->region;
    for (int k = 0; k < e->ninsts && slotted; k++)
        slotted = e->insts[k].kind != SS__INST_LOOP;
    ss__out_slots slots = {0};
    bool results = onchip_cap || slotted || (pd && pd->heap); /* md.result wanted */
    bool dots_hbm = onchip_cap && loops && loops->onchip_not_dot_operands;
    /* Found here unless fixed has them (fixed's result is every buffer's:
     * read only where this run wants it). */
    int *own_args = fixed ? NULL : malloc(sizeof(int) * nb);
    bool *own_result = !fixed && results ? calloc(nb, 1) : NULL;
    bool *own_dots = !fixed && dots_hbm ? ss__plan_dot_operands(e) : NULL;
    mode md = {arrays, donate, fixed ? fixed->arg_input : own_args, calloc(nb, 1), onchip_cap, 0,
               onchip_cap ? calloc(nb, 1) : NULL, fixed ? fixed->result : own_result,
               loops && loops->loops_onchip && onchip_cap && !e->region,
               loops && loops->loop_stacks_hbm, pd && pd->hbm ? pd : NULL,
               layout, fusion, 0, memo, NULL, e, 0, NULL, NULL};
    bool *kept = calloc(nb, 1);
    md.kept_gen = md.pd ? calloc(nb, sizeof *md.kept_gen) : NULL;
    md.dot_operand = !dots_hbm ? NULL : fixed ? fixed->dot_operand : own_dots;
    if (!md.arg_input || !md.moved || !kept || (onchip_cap && !md.onchip) ||
        (results && !md.result) || (md.pd && !md.kept_gen) || (dots_hbm && !md.dot_operand)) {
        free(own_dots);
        free(own_args);
        free(md.moved);
        free(md.onchip);
        free(own_result);
        free(kept);
        free(md.kept_gen);
        return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    }
    for (size_t b = 0; own_args && b < nb; b++)
        own_args[b] = -1;
    for (int k = 0; !fixed && k < e->ninsts; k++) {
        if (e->insts[k].kind == SS__INST_LOAD)
            own_args[e->insts[k].out] = e->insts[k].index;
        if (own_result && e->insts[k].kind == SS__INST_STORE)
            own_result[e->insts[k].in[0]] = true;
    }
    const int *arg_input = md.arg_input;
    ss_status st = SS_OK;
    if (slotted && !(st = ss__out_slots_init(&slots, e, md.result, arg_input))) {
        md.slots = &slots;
        live += slots.total;
        for (int j = 0; j < slots.n; j++)
            hbm_set(&md, slots.buf[j], true);
        out->peak_bytes = live;
    }
    /* A search's plan (fixed) keeps its resume points when its state is
     * theirs, and starts at one when it keeps no peak flags either. */
    plan_resume *rs = fixed && !onchip_cap && !slotted && !(pd && pd->heap) && !tl
                          ? &fixed->resume
                          : NULL;
    int k0 = rs ? ss__plan_resume_start(rs, !md.pd, nb, &live, &md.host_live, out, md.moved, kept)
                : 0;
    for (int k = k0; k < e->ninsts && !st; k++) {
        const ss__inst *i = &e->insts[k];
        if (rs)
            ss__plan_resume_save(rs, k, nb, live, md.host_live, out, md.moved, kept);
        int b0 = i->nin > 0 ? i->in[0] : -1;
        if (pd && pd->heap)
            pd->heap->now = k;
        bool borrowed = arrays && b0 >= 0 && arg_input[b0] >= 0 && !donated(&md, b0);
        switch (i->kind) {
        case SS__INST_FREE:
            /* Run on arrays, an undonated argument and an output's buffer
             * outlive the run. A FREE of the fusion model's copy may free
             * several buffers or none (lower.h). */
            for (int x = 0; x < i->nin; x++) {
                int b = i->in[x];
                if (md.moved[b] || kept[b] || (e->region && arg_input[b] >= 0) ||
                    e->bufs[b].fused_away ||
                    (arrays && arg_input[b] >= 0 && !donated(&md, b)))
                    ; /* nothing to free (a region's loop frees its carries) */
                else if (md.slots && ss__out_slots_release(md.slots, b))
                    ; /* its slot is free again */
                else if (e->bufs[b].host)
                    md.host_live -= ss_device_buffer_bytes(e->bufs[b].bytes);
                else if (md.onchip && md.onchip[b])
                    md.onchip_used -= ss_device_buffer_bytes(e->bufs[b].bytes);
                else {
                    live -= ss_device_buffer_bytes(e->bufs[b].bytes);
                    hbm_set(&md, b, false);
                }
            }
            timeline_add(tl, e, k, i, live, live, md.host_live);
            continue;
        case SS__INST_STORE:
            if (arrays && borrowed && !e->region) { /* an undonated input returned: copied */
                live += ss_device_buffer_bytes(e->bufs[b0].bytes);
                if (md.pd) {
                    snapshot_keep(&md, b0);
                    md.pd->copy[b0] = true;
                }
            } else if (arrays) {
                kept[b0] = true;
            }
            if (live > out->peak_bytes) {
                peak_snapshot(e, &md, 0, SS_BUFFER_SCRATCH, -1);
                out->peak_bytes = live;
            }
            timeline_add(tl, e, k, i, live, live, md.host_live);
            continue;
        case SS__INST_PLACE:
            timeline_add(tl, e, k, i, live, live, md.host_live);
            continue;
        case SS__INST_LOOP: {
            size_t peak = live;
            st = plan_loop(e, i, &md, &live, out, &peak);
            timeline_add(tl, e, k, i, live, peak, md.host_live);
            continue;
        }
        case SS__INST_LOAD:
            if (e->region) { /* a region's argument: the loop's operand */
                if (donated(&md, i->out) && !e->bufs[i->out].host) {
                    /* a carry the loop owns: counted here (a host one by its loop) */
                    live += ss_device_buffer_bytes(e->bufs[i->out].bytes);
                    hbm_set(&md, i->out, true);
                    if (live > out->peak_bytes)
                        out->peak_bytes = live;
                }
                timeline_add(tl, e, k, i, live, live, md.host_live);
                continue;
            }
            break;
        default:
            break;
        }
        /* A result written over a dying operand takes no new bytes (an
         * argument only when donated). */
        if (!takes_operand(e, i, 0, &md, &live))
            place_result(e, &md, i->out, &live, out);
        if (i->kind == SS__INST_FUSED)
            for (int x = 0; x < i->fused.nextra; x++)
                if (!takes_operand(e, i, 1 + x, &md, &live))
                    place_result(e, &md, i->extra_out[x], &live, out);
        size_t peak = live;
        if (!pd || !pd->peak_only)
            out->flops += ss__inst_flops(e, i);
        if (i->kind == SS__INST_KERNEL) {
            size_t work = fixed ? fixed->work[i->out] : NO_WORK;
            if (work == NO_WORK && (st = ss__inst_work_bytes(e, i, &work)))
                break;
            /* Scratch lives while the kernel runs: on chip if it fits. */
            size_t wb = work ? ss_device_buffer_bytes(work) : 0;
            if (wb && !onchip_take(&md, -1, wb))
                peak += wb;
            else if (wb)
                md.onchip_used -= wb;
        }
        if (peak > out->peak_bytes) {
            peak_snapshot(e, &md, peak - live, SS_BUFFER_SCRATCH, i->node);
            out->peak_bytes = peak;
        }
        timeline_add(tl, e, k, i, live, peak, md.host_live);
        if (i->kind == SS__INST_TRANSFER && e->bufs[i->in[0]].host != e->bufs[i->out].host) {
            *(e->bufs[i->out].host ? &out->to_host_bytes : &out->to_device_bytes) +=
                (double)e->bufs[i->out].bytes;
            out->transfers++;
        }
        if (i->kind == SS__INST_COLL && (!pd || !pd->peak_only)) {
            ss_coll_record rec;
            ss_coll c = i->coll;
            if (i->pairs_at >= 0)
                c.pairs = (const int (*)[2]) & e->pairs[i->pairs_at];
            if (e->bufs[i->out].xla_bf16 && c.kind == SS_COLL_ALL_GATHER) /* gathered in bf16 by
                                                                              XLA's TPU compiler */
                c.dtype = SS_BF16;
            if ((st = ss__coll_record_plan(&c, &rec)))
                break;
            out->ncollectives++;
            out->sent_bytes += rec.sent;
        }
    }
    if (rs && st)
        rs->valid = 0;
    if (end_live)
        *end_live = live;
    snapshot_finish(e, &md);
    free(md.kept_gen);
    free(own_dots);
    free(own_args);
    free(md.moved);
    free(md.onchip);
    free(own_result);
    free(kept);
    ss__out_slots_free(&slots);
    return st;
}

ss_status ss_executable_plan(const ss_executable *e, ss_plan *out)
{
    return ss__plan_run(e, NULL, false, 0, NULL, NULL, out, NULL, NULL, SS_LAYOUT_DENSE, false,
                        NULL, NULL);
}

ss_status ss_executable_plan_arrays(const ss_executable *e, const bool donate[], ss_plan *out)
{
    return ss__plan_run(e, donate, true, 0, NULL, NULL, out, NULL, NULL, SS_LAYOUT_DENSE, false,
                        NULL, NULL);
}

/* How a plan is made under a device model: its layout, fusion (and
 * whether the executable is copied for them: model_copy) and on-chip
 * bytes, and the region plans remembered (plan_region_laid_out). */
typedef struct plan_ctx {
    ss_memory_layout layout;
    bool fusion, copy;
    size_t onchip;
    const ss_memory_model *model; /* its loops' placement (NULL in a region) */
    region_memo *memo;
} plan_ctx;

/* The context of a top-level plan under `model` (NULL: shardsim's own
 * devices), remembering region plans in memo. */
static plan_ctx ctx_of(const ss_memory_model *model, region_memo *memo)
{
    return (plan_ctx){model ? model->layout : SS_LAYOUT_DENSE, model && model->xla_fusion,
                      model && (model->layout != SS_LAYOUT_DENSE || model->xla_fusion ||
                                model->xla_bf16_gathers || model->xla_windowed_ring),
                      model ? model->onchip_bytes : 0, model, memo};
}

/*
 * e's plan under c, with pd filled when not NULL: e as the model plans it
 * goes into *sized (model_copy's copy when c->copy, else e itself, and e
 * on failure; free it with model_copy_free), and at the top level (top)
 * XLA's heap gaps (when modelled: ss__xla_heap_modelled, heap_trace.c;
 * *loops whether the trace held a while loop) and its bookkeeping heap
 * are alive the whole step, on top of the peak (*gaps, *bookkeeping).
 */
static ss_status plan_sized(const ss_executable *e, const bool donate[], const plan_ctx *c,
                            bool top, peak_detail *pd, ss_executable *sized, ss_plan *out,
                            size_t *bookkeeping, size_t *gaps, bool *loops)
{
    *sized = *e;
    *bookkeeping = *gaps = 0;
    *loops = false;
    /* XLA's heap: its trace wants a peak detail's flags. */
    bool heap = top && ss__xla_heap_modelled(e, c->model);
    peak_detail own;
    ss__heap_trace ht;
    bool *flags = NULL;
    if (heap && !pd) {
        size_t nb = (size_t)(e->nbufs ? e->nbufs : 1);
        if (!(flags = calloc(nb, 4)))
            return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
        own = (peak_detail){flags, flags + nb, flags + 2 * nb, flags + 3 * nb, 0,
                            SS_BUFFER_SCRATCH, -1, true, NULL, {false}, NULL};
        pd = &own;
    }
    ss_status st = heap ? ss__heap_trace_init(&ht, e->nbufs) : SS_OK;
    if (st) {
        free(flags);
        return st;
    }
    if (heap)
        pd->heap = &ht;
    if (c->copy)
        st = model_copy(e, donate, c->layout, c->fusion, c->onchip, c->model, c->memo, sized);
    if (!st)
        st = ss__plan_run(sized, donate, true, c->onchip, c->model, pd, out, NULL, NULL, c->layout,
                          c->fusion, c->memo, NULL);
    if (!st && heap) {
        st = ss__heap_trace_gaps(sized, c->model, &ht, gaps);
        *loops = ht.loops;
    }
    if (heap) {
        ss__heap_trace_free(&ht);
        pd->heap = NULL;
    }
    free(flags);
    if (!st && top)
        *bookkeeping = ss__xla_bookkeeping_bytes(e, c->model);
    if (!st)
        out->peak_bytes += *bookkeeping + *gaps;
    return st;
}

/* The plan under `model` (NULL: shardsim's own devices). */
static ss_status plan_modelled(const ss_executable *e, const bool donate[],
                               const ss_memory_model *model, ss_plan *out)
{
    region_memo memo = {0};
    plan_ctx c = ctx_of(model, &memo);
    ss_executable sized;
    size_t bookkeeping, gaps;
    bool loops;
    ss_status st = plan_sized(e, donate, &c, true, NULL, &sized, out, &bookkeeping, &gaps, &loops);
    model_copy_free(e, &sized);
    free(memo.at);
    return st;
}

ss_status ss_executable_plan_model(const ss_executable *e, const bool donate[],
                                   const ss_memory_model *model, ss_plan *out)
{
    if (!e || !model || !out)
        return ss__fail(SS_ERR_INVALID, "plan: no executable, memory model or plan to fill");
    return plan_modelled(e, donate, model, out);
}

/* Entries of the snapshot in pd: buffers, copies, the extra. */
static int detail_entries(const ss_executable *e, const ss_executable *sized,
                          const peak_detail *pd, const bool *arg, const bool *res,
                          size_t bookkeeping, size_t gaps, bool loops, ss_live_buffer *all)
{
    int m = 0;
    for (int b = 0; b < e->nbufs; b++) {
        size_t bytes = ss_device_buffer_bytes(sized->bufs[b].bytes);
        if (pd->at_hbm[b]) {
            all[m] = (ss_live_buffer){e->bufs[b].value, bytes, "",
                                      arg[b]   ? SS_BUFFER_ARGUMENT
                                      : res[b] ? SS_BUFFER_RESULT
                                               : SS_BUFFER_TEMPORARY, -1, 0};
            snprintf(all[m++].name, sizeof all[0].name, "%s", e->bufs[b].name);
        }
        if (pd->at_copy[b]) {
            all[m] = (ss_live_buffer){e->bufs[b].value, bytes, "", SS_BUFFER_RESULT, -1, 0};
            snprintf(all[m++].name, sizeof all[0].name, "copy of %.39s", e->bufs[b].name);
        }
    }
    if (pd->extra) {
        all[m] = (ss_live_buffer){pd->extra_value, pd->extra, "", pd->extra_role, -1, 0};
        snprintf(all[m++].name, sizeof all[0].name, "%s",
                 pd->extra_role == SS_BUFFER_LOOP ? "loop: carries, outputs, body" : "scratch");
    }
    if (bookkeeping) {
        all[m] = (ss_live_buffer){-1, bookkeeping, "", SS_BUFFER_BOOKKEEPING, -1, 0};
        snprintf(all[m++].name, sizeof all[0].name, "XLA's heap of pointer tuples");
    }
    if (gaps) {
        all[m] = (ss_live_buffer){-1, gaps, "", SS_BUFFER_FRAGMENTATION, -1, 0};
        snprintf(all[m++].name, sizeof all[0].name, "%s",
                 loops ? "XLA's heap with loops, counted twice"
                       : "XLA's heap fragmentation, counted twice");
    }
    for (int b = 0; b < e->nbufs && sized->bufs != e->bufs; b++)
        if (sized->bufs[b].xla_remat) { /* xla_remat.c: not counted, listed */
            all[m] = (ss_live_buffer){e->bufs[b].value, ss_device_buffer_bytes(sized->bufs[b].bytes),
                                      "", SS_BUFFER_RECOMPUTED, -1, 0};
            snprintf(all[m++].name, sizeof all[0].name, "%s", e->bufs[b].name);
        }
    return m;
}

/* Body arguments among the peak entries of loop instruction li of e named
 * by the loop operand they are: "carry <operand>", "step of <stacked
 * operand>" or the invariant operand's name. */
static void name_body_args(const ss_executable *e, const ss__inst *li, ss_live_buffer *in, int n)
{
    const ss__loop_exec *l = &e->loops[li->index];
    const ss_executable *body = l->body;
    for (int k = 0; k < n; k++) {
        if (in[k].role != SS_BUFFER_ARGUMENT || in[k].loop != li->node)
            continue;
        int arg = -1;
        for (int j = 0; j < body->ninsts && arg < 0; j++)
            if (body->insts[j].kind == SS__INST_LOAD &&
                body->bufs[body->insts[j].out].value == in[k].value)
                arg = body->insts[j].index;
        /* Operands: carries, stacked xs, the condition's invariants, the body's. */
        int nc = l->ncarry, nx = l->nxs;
        int op = arg < 0 ? -1 : arg < nc + nx ? arg : arg + l->ncond_inv;
        if (op < 0 || op >= li->nin)
            continue;
        const char *what = arg < nc ? "carry " : arg < nc + nx ? "step of " : "";
        snprintf(in[k].name, sizeof in[k].name, "%s%.*s", what, (int)(sizeof in[k].name - 10),
                 e->bufs[li->in[op]].name);
        ss_value v = e->bufs[li->in[op]].value;
        in[k].line = v >= 0 && v < e->program->n ? e->program->nodes[v].line : 0;
    }
}

/*
 * The buffers at e's planned peak, as ss__plan_run counts them under c, into
 * *out (malloc'd, *n of them; the plan into *plan). When a loop's body run
 * makes the peak, the body's buffers at its own peak come in place of the
 * loop's single entry, each with `loop` the loop's value and its source
 * line, and the loop's entry keeps the rest (its stacked outputs and the
 * carries outside the body); recursively for loops in bodies. The entries
 * always sum to plan->peak_bytes: a body whose buffers would exceed the
 * loop's bytes keeps the single entry. In a region (in_loop >= 0) every
 * entry names that loop.
 */
static ss_status detail_of(const ss_executable *e, const bool donate[], const plan_ctx *c,
                           ss_value in_loop, ss_live_buffer **out, int *n, ss_plan *plan)
{
    *out = NULL;
    *n = 0;
    size_t nb = (size_t)(e->nbufs ? e->nbufs : 1);
    bool *flags = calloc(nb, 6);
    ss_live_buffer *all = malloc(sizeof *all * (3 * nb + 3));
    if (!flags || !all) {
        free(flags);
        free(all);
        return ss__fail(SS_ERR_NOMEM, "peak detail: out of host memory");
    }
    peak_detail pd = {flags, flags + nb, flags + 2 * nb, flags + 3 * nb, 0, SS_BUFFER_SCRATCH, -1, false,
                      NULL, {false}, NULL};
    bool *arg = flags + 4 * nb, *res = flags + 5 * nb;
    for (int k = 0; k < e->ninsts; k++) {
        if (e->insts[k].kind == SS__INST_LOAD)
            arg[e->insts[k].out] = true;
        if (e->insts[k].kind == SS__INST_STORE)
            res[e->insts[k].in[0]] = true;
    }
    ss_executable sized;
    size_t bookkeeping, gaps;
    bool loops;
    ss_status st =
        plan_sized(e, donate, c, in_loop < 0, &pd, &sized, plan, &bookkeeping, &gaps, &loops);
    int m = st ? 0 : detail_entries(e, &sized, &pd, arg, res, bookkeeping, gaps, loops, all);
    for (int k = 0; k < m && in_loop >= 0; k++) {
        all[k].loop = in_loop;
        if (all[k].value >= 0 && all[k].value < e->program->n)
            all[k].line = e->program->nodes[all[k].value].line;
    }
    ss_live_buffer *inner = NULL;
    int ni = 0;
    if (!st && pd.extra && pd.extra_role == SS_BUFFER_LOOP && pd.loop) {
        /* The body as plan_region_laid_out plans it: no on-chip memory. */
        plan_ctx bc = {c->layout, c->fusion, c->layout != SS_LAYOUT_DENSE || c->fusion, 0, NULL,
                       c->memo};
        ss_plan bp;
        st = detail_of(sized.loops[pd.loop->index].body, pd.body_own, &bc,
                       in_loop >= 0 ? in_loop : pd.extra_value, &inner, &ni, &bp);
        ss_live_buffer *grown = st ? NULL : realloc(all, sizeof *all * (size_t)(m + ni));
        if (!st && !grown)
            st = ss__fail(SS_ERR_NOMEM, "peak detail: out of host memory");
        if (grown)
            all = grown;
        if (!st && bp.peak_bytes <= pd.extra) {
            name_body_args(&sized, pd.loop, inner, ni);
            /* The loop's entry: detail_entries' last but the bookkeeping
             * and the heap's gaps. */
            int at = m - 1 - (bookkeeping ? 1 : 0) - (gaps ? 1 : 0);
            ss_live_buffer *lp = &all[at];
            lp->bytes -= bp.peak_bytes;
            snprintf(lp->name, sizeof lp->name, "loop: carries, outputs outside the body");
            if (lp->bytes == 0) { /* nothing outside the body: the entry goes */
                memmove(lp, lp + 1, sizeof *all * (size_t)(m - at - 1));
                m--;
            }
            memcpy(all + m, inner, sizeof *all * (size_t)ni);
            m += ni;
        }
    }
    free(inner);
    model_copy_free(e, &sized);
    free(flags);
    if (st) {
        free(all);
        return st;
    }
    *out = all;
    *n = m;
    return SS_OK;
}

ss_status ss_executable_peak_detail(const ss_executable *e, const bool donate[],
                                    const ss_memory_model *model, ss_live_buffer out[], int cap,
                                    int *n, ss_plan *plan)
{
    *n = 0;
    if (!e || !plan || (cap > 0 && !out))
        return ss__fail(SS_ERR_INVALID, "peak detail: no executable, plan or room for buffers");
    region_memo memo = {0};
    plan_ctx c = ctx_of(model, &memo);
    ss_live_buffer *all;
    int m;
    ss_status st = detail_of(e, donate, &c, -1, &all, &m, plan);
    free(memo.at);
    if (st)
        return st;
    qsort(all, (size_t)m, sizeof *all, ss__live_buffer_cmp);
    *n = m < cap ? m : cap < 0 ? 0 : cap;
    if (*n)
        memcpy(out, all, sizeof *all * (size_t)*n);
    free(all);
    return SS_OK;
}

ss_status ss_executable_memory_timeline(const ss_executable *e, ss_memory_point out[], int cap,
                                        int *n)
{
    timeline tl = {out, cap < 0 ? 0 : cap, 0};
    ss_plan plan;
    ss_status st = ss__plan_run(e, NULL, false, 0, NULL, NULL, &plan, &tl, NULL, SS_LAYOUT_DENSE,
                                false, NULL, NULL);
    *n = st ? 0 : tl.n;
    return st;
}

/* Collectives of one run of e: a counted loop's body `length` times, a
 * while's body `trips` times and its condition once more when its trip
 * count is known, else its condition and body once each. */
static int ledger_count(const ss_executable *e)
{
    int n = 0;
    for (int k = 0; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        n += i->kind == SS__INST_COLL;
        if (i->kind == SS__INST_LOOP)
            n += ss__loop_ledger_count(e, i);
    }
    return n;
}

/* Where each instruction's ledger entries begin (ninsts + 1 entries, the
 * last the count), built on first use and published atomically (a
 * concurrent first use builds its own copy and keeps the winner's); NULL
 * when host memory ran out. Reports walk every entry of ledgers of
 * thousands, so finding one must not walk the instructions. */
const int *ss__ledger_starts(const ss_executable *e)
{
    int **slot = &((ss_executable *)e)->ledger_start;
    int *have = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (have)
        return have;
    int *st = malloc(sizeof(int) * (size_t)(e->ninsts + 1));
    if (!st)
        return NULL;
    int n = 0;
    for (int k = 0; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        st[k] = n;
        n += i->kind == SS__INST_COLL;
        if (i->kind == SS__INST_LOOP)
            n += ss__loop_ledger_count(e, i);
    }
    st[e->ninsts] = n;
    int *expected = NULL;
    if (!__atomic_compare_exchange_n(slot, &expected, st, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        free(st);
        return expected;
    }
    return st;
}

static const ss__inst *ledger_find_linear(const ss_executable *e, int first, int *index,
                                          const ss_executable **owner);

/* The collective instruction (and its executable) of entry *index of e, in
 * run order; NULL when e has fewer (then *index is what is left). */
static const ss__inst *ledger_find(const ss_executable *e, int *index,
                                   const ss_executable **owner)
{
    const int *st = ss__ledger_starts(e);
    if (!st)
        return ledger_find_linear(e, 0, index, owner);
    if (*index >= st[e->ninsts]) {
        *index -= st[e->ninsts];
        return NULL;
    }
    int k = ss__ledger_inst_at(e, st, *index);
    *index -= st[k];
    return ledger_find_linear(e, k, index, owner);
}

int ss__ledger_inst_at(const ss_executable *e, const int *st, int index)
{
    int lo = 0, hi = e->ninsts - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (st[mid] <= index)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo > 0 ? lo : 0;
}

/* ledger_find by walking e's instructions from `first`. */
static const ss__inst *ledger_find_linear(const ss_executable *e, int first, int *index,
                                          const ss_executable **owner)
{
    for (int k = first; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        if (i->kind == SS__INST_COLL && (*index)-- == 0) {
            *owner = e;
            return i;
        }
        if (i->kind != SS__INST_LOOP)
            continue;
        const ss__loop_exec *l = &e->loops[i->index];
        if (l->nbranch) { /* every branch's, branch after branch */
            for (int b = 0; b < l->nbranch; b++) {
                const ss__inst *f = ledger_find(l->branch[b], index, owner);
                if (f)
                    return f;
            }
            continue;
        }
        bool known;
        int64_t trips = loop_runs(l, &known);
        int nc = l->cond ? ss_executable_ledger_count(l->cond) : 0,
            per = nc + ss_executable_ledger_count(l->body);
        int64_t last = l->cond && known ? nc : 0; /* the final, false condition */
        if (per == 0 && last == 0)
            continue;
        if (*index >= trips * per + last) {
            *index -= (int)(trips * per + last);
            continue;
        }
        if (*index >= trips * per) { /* in the last condition */
            *index -= (int)(trips * per);
            return ledger_find(l->cond, index, owner);
        }
        *index %= per;
        const ss__inst *f = l->cond ? ledger_find(l->cond, index, owner) : NULL;
        return f ? f : ledger_find(l->body, index, owner);
    }
    return NULL;
}

int ss_executable_ledger_count(const ss_executable *e)
{
    const int *st = ss__ledger_starts(e);
    return st ? st[e->ninsts] : ledger_count(e);
}

int ss__loop_ledger_count(const ss_executable *e, const ss__inst *i)
{
    const ss__loop_exec *l = &e->loops[i->index];
    if (l->nbranch) {
        int n = 0;
        for (int b = 0; b < l->nbranch; b++)
            n += ss_executable_ledger_count(l->branch[b]);
        return n;
    }
    bool known;
    int64_t trips = loop_runs(l, &known);
    int nc = l->cond ? ss_executable_ledger_count(l->cond) : 0;
    return (known && l->cond ? (int)(trips + 1) : 1) * nc +
           (int)trips * ss_executable_ledger_count(l->body);
}

ss_status ss_executable_ledger_get(const ss_executable *e, int index, ss_coll_record *out)
{
    const ss_executable *owner = e;
    int left = index;
    const ss__inst *i = index >= 0 ? ledger_find(e, &left, &owner) : NULL;
    if (!i)
        return ss__fail(SS_ERR_RANGE, "ledger entry %d of %d", index, ledger_count(e));
    ss_coll c = i->coll;
    if (i->pairs_at >= 0)
        c.pairs = (const int (*)[2]) & owner->pairs[i->pairs_at];
    if (owner->bufs[i->out].xla_bf16 && c.kind == SS_COLL_ALL_GATHER) /* xla_narrow.c */
        c.dtype = SS_BF16;
    ss_status st = ss__coll_record_plan(&c, out);
    if (!st)
        out->seq = index + 1;
    return st;
}

int ss_executable_input_count(const ss_executable *e) { return e->ninputs; }
int ss_executable_output_count(const ss_executable *e) { return e->noutputs; }

ss_status ss_executable_input(const ss_executable *e, int i, ss_value *out)
{
    if (i < 0 || i >= e->ninputs)
        return ss__fail(SS_ERR_RANGE, "input %d of %d", i, e->ninputs);
    *out = e->inputs[i];
    return SS_OK;
}

ss_status ss_executable_output(const ss_executable *e, int i, ss_value *out)
{
    if (i < 0 || i >= e->noutputs)
        return ss__fail(SS_ERR_RANGE, "output %d of %d", i, e->noutputs);
    *out = e->outputs[i];
    return SS_OK;
}

int64_t ss__loop_runs(const ss__loop_exec *l, bool *known) { return loop_runs(l, known); }
