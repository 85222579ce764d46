/*
 * exec_info.c — facts about a compiled executable that the reports need and
 * the public API does not give yet: which op each ledger entry comes from,
 * its replica groups, the buffers alive at the peak, and each kernel's
 * FLOPs and bytes for the step-time estimate.
 *
 * This is the one file of sim/cli that reads the partitioner's internal
 * instruction list (spmd/lower.h). Keep it small: when shardsim.h grows
 * accessors for these facts, this file goes away.
 */
#include "scenario.h"

#include "spmd/lower.h"

#include <stdlib.h>
#include <string.h>

static const ss__inst *coll_inst(const ss_executable *e, int index)
{
    int n = 0;
    for (int k = 0; k < e->ninsts; k++)
        if (e->insts[k].kind == SS__INST_COLL && n++ == index)
            return &e->insts[k];
    return NULL;
}

ss_status scn_exec_ledger_source(const ss_executable *e, int i, ss_value *value, bool *user)
{
    const ss__inst *in = coll_inst(e, i);
    if (!in)
        return ss__fail(SS_ERR_RANGE, "ledger entry %d", i);
    *value = in->node;
    *user = e->program->nodes[in->node].op == SS__OP_COLLECTIVE;
    return SS_OK;
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

ss_phase scn_exec_ledger_phase(const ss_executable *e, int i)
{
    int k = 0, n = 0;
    for (; k < e->ninsts; k++)
        if (e->insts[k].kind == SS__INST_COLL && n++ == i)
            break;
    if (k == e->ninsts)
        return SS_PHASE_FORWARD;
    const ss__node *node = &e->program->nodes[e->insts[k].node];
    /* A computed value's collective (a user's, a partial sum's reduction, a
     * reshard of it) belongs to the part that computed it; an input's or a
     * param's (FSDP's gathers: once for the forward, again for the
     * backward) to the part that reads it. */
    bool leaf = node->op == SS__OP_INPUT || node->op == SS__OP_PARAM ||
                node->op == SS__OP_CONSTANT;
    ss_value c = leaf ? first_consumer(e, k) : -1;
    return ss_value_phase(e->program, c >= 0 ? c : e->insts[k].node);
}

int scn_exec_ledger_pairs(const ss_executable *e, int i, const int (**pairs)[2])
{
    const ss__inst *in = coll_inst(e, i);
    *pairs = NULL;
    if (!in || in->coll.kind != SS_COLL_PERMUTE || in->pairs_at < 0)
        return 0;
    *pairs = (const int (*)[2])e->pairs[in->pairs_at];
    return in->coll.npairs;
}

ss_status scn_exec_ledger_groups(const ss_executable *e, int i, int *ngroups, int ids[],
                                 int offsets[])
{
    const ss__inst *in = coll_inst(e, i);
    if (!in)
        return ss__fail(SS_ERR_RANGE, "ledger entry %d", i);
    ss_coll c = in->coll;
    c.pairs = in->pairs_at >= 0 ? (const int (*)[2])e->pairs[in->pairs_at] : NULL;
    int n = ss_mesh_device_count(e->mesh);
    char *seen = calloc((size_t)n, 1);
    int *members = malloc(sizeof *members * (size_t)n);
    if (!seen || !members) {
        free(seen);
        free(members);
        return ss__fail(SS_ERR_NOMEM, "out of host memory");
    }
    int g = 0, at = 0;
    ss_status st = SS_OK;
    offsets[0] = 0;
    for (int pos = 0; pos < n && !st; pos++) {
        int id = ss_mesh_device_id(e->mesh, pos);
        if (seen[pos])
            continue;
        int size = 0, rank = 0;
        if ((st = ss_coll_group(&c, id, members, n, &size, &rank)))
            break;
        for (int k = 0; k < size; k++) {
            int p = ss_mesh_position_of(e->mesh, members[k]);
            if (p >= 0)
                seen[p] = 1;
            ids[at++] = members[k];
        }
        offsets[++g] = at;
    }
    *ngroups = g;
    free(seen);
    free(members);
    return st;
}

static int by_bytes(const void *a, const void *b)
{
    const scn_live_buffer *x = a, *y = b;
    return x->bytes < y->bytes ? 1 : x->bytes > y->bytes ? -1 : strcmp(x->name, y->name);
}

int scn_exec_peak_buffers(const ss_executable *e, scn_live_buffer out[], int cap)
{
    /* Replay the allocation sequence as plan.c does and find the peak. */
    char *live = calloc((size_t)(e->nbufs ? e->nbufs : 1), 1);
    char *at_peak = calloc((size_t)(e->nbufs ? e->nbufs : 1), 1);
    if (!live || !at_peak) {
        free(live);
        free(at_peak);
        return -1;
    }
    size_t now = 0, peak = 0, peak_work = 0;
    for (int k = 0; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        if (i->kind == SS__INST_FREE) {
            now -= ss__arena_bytes(e->bufs[i->in[0]].bytes);
            live[i->in[0]] = 0;
            continue;
        }
        if (i->kind == SS__INST_STORE)
            continue;
        now += ss__arena_bytes(e->bufs[i->out].bytes);
        live[i->out] = 1;
        size_t work = 0;
        if (i->kind == SS__INST_KERNEL && ss__inst_work_bytes(e, i, &work) == SS_OK && work)
            work = ss__arena_bytes(work);
        if (now + work > peak) {
            peak = now + work;
            peak_work = work;
            memcpy(at_peak, live, (size_t)e->nbufs);
        }
    }
    int n = 0;
    scn_live_buffer *all = malloc(sizeof *all * (size_t)(e->nbufs + 1));
    if (all) {
        for (int b = 0; b < e->nbufs; b++)
            if (at_peak[b]) {
                snprintf(all[n].name, sizeof all[n].name, "%s", e->bufs[b].name);
                all[n++].bytes = ss__arena_bytes(e->bufs[b].bytes);
            }
        if (peak_work) {
            snprintf(all[n].name, sizeof all[n].name, "dot scratch");
            all[n++].bytes = peak_work;
        }
        qsort(all, (size_t)n, sizeof *all, by_bytes);
        if (n > cap)
            n = cap;
        memcpy(out, all, sizeof *all * (size_t)n);
    } else {
        n = -1;
    }
    free(all);
    free(live);
    free(at_peak);
    return n;
}

/* FLOPs of one kernel, counted as plan.c counts them. */
static double kernel_flops(const ss_executable *e, const ss__inst *i)
{
    const ss__node *n = &e->program->nodes[i->node];
    ss__tensor t[3];
    memset(t, 0, sizeof t);
    const int bufs[3] = {i->out, i->nin > 0 ? i->in[0] : -1, i->nin > 1 ? i->in[1] : -1};
    for (int k = 0; k < 3; k++)
        if (bufs[k] >= 0) {
            t[k].dtype = e->bufs[bufs[k]].dtype;
            t[k].rank = e->bufs[bufs[k]].rank;
            memcpy(t[k].shape, e->bufs[bufs[k]].shape, sizeof t[k].shape);
        }
    int64_t f = 0;
    switch (n->op) {
    case SS__OP_UNARY: return (double)ss__k_flops_unary((ss__k_unary_op)n->sub, &t[1]);
    case SS__OP_BINARY: return (double)ss__k_flops_binary((ss__k_binary_op)n->sub, &t[0]);
    case SS__OP_REDUCE: return (double)ss__k_flops_reduce(SS__K_REDUCE_SUM, &t[1], &t[0]);
    case SS__OP_DOT:
        return ss__k_flops_dot_general(&t[1], &t[2], &i->dot, &f) == SS_OK ? (double)f : 0;
    default: return 0;
    }
}

ss_status scn_exec_costs(const ss_executable *e, scn_step_cost **out, int *n)
{
    *out = NULL;
    *n = 0;
    scn_step_cost *c = calloc((size_t)(e->ninsts + 1), sizeof *c);
    if (!c)
        return ss__fail(SS_ERR_NOMEM, "out of host memory");
    int m = 0, ncoll = 0;
    for (int k = 0; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        if (i->kind == SS__INST_COLL) {
            c[m].is_coll = true;
            c[m].value = i->node;
            c[m++].ledger_index = ncoll++;
        } else if (i->kind == SS__INST_KERNEL) {
            double bytes = (double)e->bufs[i->out].bytes;
            for (int j = 0; j < i->nin; j++)
                bytes += (double)e->bufs[i->in[j]].bytes;
            c[m].value = i->node;
            c[m].dtype = e->bufs[i->out].dtype;
            c[m].flops = kernel_flops(e, i);
            c[m++].bytes = bytes;
        }
    }
    *out = c;
    *n = m;
    return SS_OK;
}
