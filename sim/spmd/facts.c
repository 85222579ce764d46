/*
 * facts.c — what a report shows about a compiled executable, as data
 * (shardsim.h, "Executable facts"): each ledger entry's provenance, phase,
 * replica groups and permute pairs, the buffers alive at the peak, and the
 * cost of every kernel, fused loop and collective. Everything here is read
 * from the per-device instruction list (lower.h); nothing runs.
 */
#include "lower.h"

#include <stdlib.h>
#include <string.h>

/* Where ledger entry i comes from: instruction k of executable `owner`
 * (e itself, or a loop region's executable, nested loops included), and for
 * an entry of a loop the outermost loop instruction of e with the step and
 * region it runs in. Entries are in run order, as ss_executable_ledger_get
 * numbers them: a counted loop's body once per step, a while's condition
 * and body once per trip when its trip count is known (and the condition
 * once more), else once each. */
typedef struct ledger_pos {
    const ss_executable *owner;
    int k;
    int loop_inst;      /* -1: not in a loop */
    int64_t iteration;  /* step of that loop, from 0 */
    int in_cond;
} ledger_pos;

static bool ledger_locate(const ss_executable *e, int i, ledger_pos *pos)
{
    /* Start at the last instruction whose entries begin at or before i:
     * reports locate every entry of ledgers of thousands. */
    int first = 0, n = 0;
    const int *st = ss__ledger_starts(e);
    if (st) {
        first = ss__ledger_inst_at(e, st, i);
        n = st[first];
    }
    for (int k = first; k < e->ninsts; k++) {
        const ss__inst *in = &e->insts[k];
        if (in->kind == SS__INST_COLL && n++ == i) {
            *pos = (ledger_pos){e, k, -1, 0, 0};
            return true;
        }
        if (in->kind != SS__INST_LOOP)
            continue;
        int all = ss__loop_ledger_count(e, in);
        if (i - n >= all) {
            n += all;
            continue;
        }
        const ss__loop_exec *l = &e->loops[in->index];
        if (l->nbranch) { /* every branch's, branch after branch */
            int local = i - n;
            for (int b = 0; b < l->nbranch; b++) {
                int nb = ss_executable_ledger_count(l->branch[b]);
                if (local < nb) {
                    if (!ledger_locate(l->branch[b], local, pos))
                        return false;
                    pos->loop_inst = k;
                    pos->iteration = 0;
                    pos->in_cond = 0;
                    return true;
                }
                local -= nb;
            }
            return false;
        }
        int ncond = l->cond ? ss_executable_ledger_count(l->cond) : 0;
        int per = ncond + ss_executable_ledger_count(l->body);
        int local = (i - n) % per;
        bool cond = local < ncond;
        if (!ledger_locate(cond ? l->cond : l->body, cond ? local : local - ncond, pos))
            return false;
        pos->loop_inst = k;
        pos->iteration = (i - n) / per;
        pos->in_cond = cond;
        return true;
    }
    return false;
}

/* The collective of instruction k with its pairs bound. */
static ss_coll bound_coll(const ss_executable *e, int k)
{
    ss_coll c = e->insts[k].coll;
    c.pairs = e->insts[k].pairs_at >= 0 ? (const int (*)[2])e->pairs[e->insts[k].pairs_at]
                                         : NULL;
    return c;
}

/* The node of the first kernel that reads instruction k's result, through
 * the reshard steps (collectives, slices) that follow it; -1 if none does
 * (a program output). */
static ss_value first_consumer(const ss_executable *e, int k)
{
    int buf = e->insts[k].out;
    for (int j = k + 1; j < e->ninsts; j++) {
        const ss__inst *i = &e->insts[j];
        if (i->kind == SS__INST_FREE)
            continue;
        bool reads = false;
        for (int a = 0; a < i->nin && !reads; a++)
            reads = i->in[a] == buf;
        if (!reads)
            continue;
        if (i->kind == SS__INST_KERNEL || i->kind == SS__INST_FUSED)
            return i->node;
        if (i->kind == SS__INST_STORE)
            return -1;
        buf = i->out;
    }
    return -1;
}

static ss_phase coll_phase(const ss_executable *e, int k)
{
    const ss__node *node = &e->program->nodes[e->insts[k].node];
    bool leaf = ss__op_is(node->op, SS__OPF_LEAF);
    ss_value c = leaf ? first_consumer(e, k) : -1;
    return ss_value_phase(e->program, c >= 0 ? c : e->insts[k].node);
}

/* Replica groups of instruction k: ids row-major, *ng groups of *gs. */
static ss_status coll_groups(const ss_executable *e, int k, int ids[], int cap, int *ng, int *gs)
{
    ss_coll c = bound_coll(e, k);
    return ss__coll_groups(&c, ids, cap, ng, gs);
}

/* The permute pairs of instruction k over every group as device ids, at
 * most cap written; *n counts them all. */
static ss_status coll_pairs(const ss_executable *e, int k, int pairs[][2], int cap, int *n)
{
    const ss__inst *in = &e->insts[k];
    *n = 0;
    if (in->coll.kind != SS_COLL_PERMUTE || in->pairs_at < 0 || in->coll.npairs == 0)
        return SS_OK;
    int nd = ss_mesh_device_count(e->mesh);
    int *ids = malloc(sizeof *ids * (size_t)nd);
    if (!ids)
        return ss__fail(SS_ERR_NOMEM, "ledger pairs: out of host memory");
    int ng, gs;
    ss_status st = coll_groups(e, k, ids, nd, &ng, &gs);
    const int (*rank_pairs)[2] = (const int (*)[2])e->pairs[in->pairs_at];
    for (int g = 0; g < ng && !st; g++)
        for (int p = 0; p < in->coll.npairs; p++) {
            if (rank_pairs[p][0] >= gs || rank_pairs[p][1] >= gs)
                continue;
            if (*n < cap) {
                pairs[*n][0] = ids[g * gs + rank_pairs[p][0]];
                pairs[*n][1] = ids[g * gs + rank_pairs[p][1]];
            }
            ++*n;
        }
    free(ids);
    return st;
}

static ss_status bad_entry(const ss_executable *e, int i)
{
    return ss__fail(SS_ERR_RANGE, "ledger entry %d of %d", i, ss_executable_ledger_count(e));
}

ss_status ss_executable_ledger_entry(const ss_executable *e, int i, ss_ledger_entry *out)
{
    memset(out, 0, sizeof *out);
    out->value = out->loop = -1;
    ledger_pos at;
    if (i < 0 || !ledger_locate(e, i, &at))
        return bad_entry(e, i);
    ss_status st = ss_executable_ledger_get(e, i, &out->coll);
    if (st)
        return st;
    const ss__node *node = &at.owner->program->nodes[at.owner->insts[at.k].node];
    out->user = ss__op_is(node->op, SS__OPF_COLLECTIVE);
    if (at.loop_inst < 0) {
        out->value = e->insts[at.k].node;
        out->phase = coll_phase(e, at.k);
    } else {
        const ss__loop_exec *l = &e->loops[e->insts[at.loop_inst].index];
        out->value = out->loop = e->insts[at.loop_inst].node;
        out->phase = ss_value_phase(e->program, out->loop);
        out->iteration = at.iteration;
        out->trips = l->length >= 0 ? l->length : l->trips;
        out->in_cond = at.in_cond;
        out->region_op = ss__opcode_name(node);
        out->region_name = node->name;
    }
    return coll_pairs(at.owner, at.k, NULL, 0, &out->npairs);
}

ss_status ss_executable_ledger_groups(const ss_executable *e, int i, int ids[], int cap)
{
    ledger_pos at;
    if (i < 0 || !ledger_locate(e, i, &at))
        return bad_entry(e, i);
    int ng, gs;
    return coll_groups(at.owner, at.k, ids, cap, &ng, &gs);
}

ss_status ss_executable_ledger_pairs(const ss_executable *e, int i, int pairs[][2], int cap,
                                     int *n)
{
    *n = 0;
    ledger_pos at;
    if (i < 0 || !ledger_locate(e, i, &at))
        return bad_entry(e, i);
    return coll_pairs(at.owner, at.k, pairs, cap < 0 ? 0 : cap, n);
}

/* --- The buffers at the peak --------------------------------------------- */

int ss__live_buffer_cmp(const void *a, const void *b)
{
    const ss_live_buffer *x = a, *y = b;
    return x->bytes < y->bytes ? 1 : x->bytes > y->bytes ? -1 : strcmp(x->name, y->name);
}

ss_status ss_executable_peak_buffers(const ss_executable *e, ss_live_buffer out[], int cap,
                                     int *n)
{
    *n = 0;
    size_t nb = (size_t)(e->nbufs ? e->nbufs : 1);
    char *live = calloc(nb, 1), *at_peak = calloc(nb, 1);
    ss_live_buffer *all = malloc(sizeof *all * (nb + 1));
    if (!live || !at_peak || !all) {
        free(live);
        free(at_peak);
        free(all);
        return ss__fail(SS_ERR_NOMEM, "peak buffers: out of host memory");
    }
    size_t now = 0, peak = 0, peak_work = 0;
    for (int k = 0; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        if (i->kind == SS__INST_FREE) {
            if (!e->bufs[i->in[0]].host) /* host memory is counted apart */
                now -= ss_device_buffer_bytes(e->bufs[i->in[0]].bytes);
            live[i->in[0]] = 0;
            continue;
        }
        if (i->kind == SS__INST_STORE || (i->kind != SS__INST_LOOP && e->bufs[i->out].host))
            continue; /* host memory is counted apart */
        int res[SS__INST_MAX_RESULTS] = {i->out};
        int nres = 1;
        if (i->kind == SS__INST_LOOP) /* a loop's results all at once */
            nres = ss__inst_results(e, i, res, SS__INST_MAX_RESULTS);
        for (int r = 0; r < nres; r++) {
            if (e->bufs[res[r]].host || live[res[r]])
                continue; /* host memory, or a carry's operand buffer (no copy) */
            now += ss_device_buffer_bytes(e->bufs[res[r]].bytes);
            live[res[r]] = 1;
        }
        size_t work = 0;
        if (i->kind == SS__INST_KERNEL && ss__inst_work_bytes(e, i, &work) == SS_OK && work)
            work = ss_device_buffer_bytes(work);
        if (now + work > peak) {
            peak = now + work;
            peak_work = work;
            memcpy(at_peak, live, nb);
        }
    }
    int m = 0;
    for (int b = 0; b < e->nbufs; b++)
        if (at_peak[b]) {
            all[m].value = e->bufs[b].value;
            all[m].bytes = ss_device_buffer_bytes(e->bufs[b].bytes);
            all[m].role = SS_BUFFER_TEMPORARY;
            all[m].loop = -1;
            all[m].line = 0;
            snprintf(all[m++].name, sizeof all[0].name, "%s", e->bufs[b].name);
        }
    if (peak_work) {
        all[m].value = -1;
        all[m].bytes = peak_work;
        all[m].role = SS_BUFFER_SCRATCH;
        all[m].loop = -1;
        all[m].line = 0;
        snprintf(all[m++].name, sizeof all[0].name, "dot scratch");
    }
    qsort(all, (size_t)m, sizeof *all, ss__live_buffer_cmp);
    *n = m < cap ? m : cap < 0 ? 0 : cap;
    if (*n)
        memcpy(out, all, sizeof *all * (size_t)*n);
    free(all);
    free(live);
    free(at_peak);
    return SS_OK;
}

/* --- Costs of the steps ---------------------------------------------------- */

/* The memory traffic of a kernel or fused loop: its results and operands,
 * but, as XLA's HloCostAnalysis counts them (HandleSlice, HandleDynamicSlice,
 * HandleDynamicUpdateSlice), a slice reads only what it writes, and a
 * dynamic_update_slice writes its update in place (the operand is the
 * result's buffer): twice the update, plus the start indices. Results
 * first, then operands, in double as the estimate sums them. */
static double kernel_bytes(const ss_executable *e, const ss__inst *i)
{
    ss__opcode op = i->kind == SS__INST_KERNEL ? e->program->nodes[i->node].op : SS__OP_COUNT;
    double out = (double)e->bufs[i->out].bytes, bytes = out;
    if ((op == SS__OP_SLICE || op == SS__OP_DYNAMIC_SLICE) && i->nin >= 1) {
        for (int j = 1; j < i->nin; j++)
            bytes += (double)e->bufs[i->in[j]].bytes;
        return bytes + out;
    }
    if (op == SS__OP_DYNAMIC_UPDATE_SLICE && i->nin >= 2) {
        bytes = 2 * (double)e->bufs[i->in[1]].bytes;
        for (int j = 2; j < i->nin; j++)
            bytes += (double)e->bufs[i->in[j]].bytes;
        return bytes;
    }
    if (i->kind == SS__INST_FUSED)
        for (int x = 0; x < i->fused.nextra; x++)
            bytes += (double)e->bufs[i->extra_out[x]].bytes;
    for (int j = 0; j < i->nin; j++)
        bytes += (double)e->bufs[i->in[j]].bytes;
    return bytes;
}

/* Where ss_executable_steps writes: out[0..cap), m steps so far, ncoll the
 * ledger entries passed; flops and sent summed over the steps taken. */
typedef struct steps_acc {
    ss_step_cost *out;
    int cap, m, ncoll;
    double flops, sent;
} steps_acc;

/* The steps a->out[from, to) of one run of a loop's regions, appended
 * again for the next run: its collectives' ledger entries `per` further
 * on, FLOPs and bytes sent summed as steps_of sums them. False, with
 * nothing done, when those steps or their copies are not all in a->out
 * (then steps_of walks the regions again). */
static bool repeat_steps(steps_acc *a, int from, int to, int per)
{
    if (!a->out || to > a->cap || a->m + (to - from) > a->cap)
        return false;
    for (int j = from; j < to; j++) {
        ss_step_cost c = a->out[j];
        if (c.kind == SS_STEP_COLLECTIVE) {
            c.ledger_index += per;
            a->sent += c.bytes;
        } else if (c.kind == SS_STEP_KERNEL || c.kind == SS_STEP_FUSED) {
            a->flops += c.flops;
        }
        a->out[a->m++] = c;
    }
    a->ncoll += per;
    return true;
}

/* The steps of one run of e, each attributed to `as` when it is a value
 * (steps inside a loop or a case: the outer program's loop node) or to its
 * own node. A loop's steps are its regions', run after run in the ledger's
 * order (the condition, then the body; the condition once more when the
 * trip count is known); a case's are those of its branch with the most
 * FLOPs (then bytes sent), as the plan counts it, while the ledger index
 * passes every branch's entries. */
static ss_status steps_of(const ss_executable *e, ss_value as, steps_acc *a)
{
    for (int k = 0; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        ss_value v = as >= 0 ? as : i->node;
        ss_step_cost c = {SS_STEP_KERNEL, v, SS_F32, 0, 0, -1};
        ss_status st = SS_OK;
        if (i->kind == SS__INST_LOOP) {
            const ss__loop_exec *l = &e->loops[i->index];
            if (l->nbranch) {
                int best = 0, base = a->ncoll;
                double bf = -1, bs = -1;
                for (int b = 0; b < l->nbranch && !st; b++) {
                    steps_acc dry = {NULL, 0, 0, 0, 0, 0};
                    st = steps_of(l->branch[b], v, &dry);
                    if (dry.flops > bf || (dry.flops == bf && dry.sent > bs))
                        best = b, bf = dry.flops, bs = dry.sent;
                }
                for (int b = 0; b < best; b++)
                    a->ncoll += ss_executable_ledger_count(l->branch[b]);
                if (!st)
                    st = steps_of(l->branch[best], v, a);
                a->ncoll = base;
                for (int b = 0; b < l->nbranch; b++)
                    a->ncoll += ss_executable_ledger_count(l->branch[b]);
                if (st)
                    return st;
                continue;
            }
            bool known;
            int64_t trips = ss__loop_runs(l, &known);
            /* Every run takes the same steps: the previous run's are
             * copied when they were written out. */
            int from = a->m, to = a->m, ncoll = a->ncoll;
            for (int64_t t = 0; t < trips && !st; t++) {
                int m = a->m, nc = a->ncoll;
                if (t > 0 && repeat_steps(a, from, to, nc - ncoll)) {
                    from = m;
                    to = a->m;
                    ncoll = nc;
                    continue;
                }
                if (l->cond)
                    st = steps_of(l->cond, v, a);
                if (!st)
                    st = steps_of(l->body, v, a);
                from = m;
                to = a->m;
                ncoll = nc;
            }
            if (!st && l->cond && known)
                st = steps_of(l->cond, v, a);
            if (st)
                return st;
            continue;
        }
        if (i->kind == SS__INST_COLL) {
            ss_coll_record rec;
            ss_coll bc = bound_coll(e, k);
            if ((st = ss__coll_record_plan(&bc, &rec)))
                return st;
            c.kind = SS_STEP_COLLECTIVE;
            c.dtype = e->bufs[i->out].dtype;
            c.bytes = rec.sent;
            c.ledger_index = a->ncoll++;
            a->sent += rec.sent;
        } else if (i->kind == SS__INST_TRANSFER &&
                   e->bufs[i->in[0]].host != e->bufs[i->out].host) {
            c.kind = e->bufs[i->out].host ? SS_STEP_TO_HOST : SS_STEP_TO_DEVICE;
            c.dtype = e->bufs[i->out].dtype;
            c.bytes = (double)e->bufs[i->out].bytes;
        } else if (i->kind == SS__INST_KERNEL || i->kind == SS__INST_FUSED) {
            c.kind = i->kind == SS__INST_KERNEL ? SS_STEP_KERNEL : SS_STEP_FUSED;
            c.dtype = e->bufs[i->out].dtype;
            c.flops = ss__inst_flops(e, i);
            c.bytes = kernel_bytes(e, i);
            a->flops += c.flops;
        } else {
            continue;
        }
        if (a->m < a->cap)
            a->out[a->m] = c;
        a->m++;
    }
    return SS_OK;
}

ss_status ss_executable_steps(const ss_executable *e, ss_step_cost out[], int cap, int *n)
{
    steps_acc a = {out, cap, 0, 0, 0, 0};
    ss_status st = steps_of(e, -1, &a);
    *n = a.m;
    return st;
}
