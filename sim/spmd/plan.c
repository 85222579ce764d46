/*
 * plan.c — what a compiled program will cost, without data or compute: the
 * per-device peak of arena bytes, FLOPs per device, and the collective
 * ledger. It replays the executor's allocation sequence (lower.h) with the
 * arena's rounding and asks the runtime for each collective's ledger entry,
 * so plan and run cannot disagree.
 */
#include "lower.h"

#include <stdlib.h>
#include <string.h>

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
    switch (n->op) {
    case SS__OP_UNARY: return (double)ss__k_flops_unary((ss__k_unary_op)n->sub, &in0);
    case SS__OP_BINARY: return (double)ss__k_flops_binary((ss__k_binary_op)n->sub, &out);
    case SS__OP_REDUCE: return (double)ss__k_flops_reduce(SS__K_REDUCE_SUM, &in0, &out);
    case SS__OP_DOT: {
        int64_t f = 0;
        if (ss__k_flops_dot_general(&in0, &in1, &i->dot, &f) != SS_OK)
            return 0;
        return (double)f;
    }
    default: return 0;
    }
}

/* Does result r of i take over an operand in a run without donation (its
 * first choice when that is a temporary, else its fallback)? Marks it. */
static bool takes_operand(const ss__inst *i, int r, bool moved[])
{
    int j = i->share[r] >= 0 && !i->share_arg[r] ? i->share[r] : i->share_alt[r];
    if (j < 0)
        return false;
    moved[i->in[j]] = true;
    return true;
}

ss_status ss_executable_plan(const ss_executable *e, ss_plan *out)
{
    memset(out, 0, sizeof *out);
    size_t live = 0;
    bool *moved = calloc((size_t)(e->nbufs ? e->nbufs : 1), 1);
    if (!moved)
        return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    ss_status st = SS_OK;
    for (int k = 0; k < e->ninsts && !st; k++) {
        const ss__inst *i = &e->insts[k];
        switch (i->kind) {
        case SS__INST_FREE:
            if (!moved[i->in[0]])
                live -= ss__arena_bytes(e->bufs[i->in[0]].bytes);
            continue;
        case SS__INST_STORE:
        case SS__INST_PLACE:
            continue;
        default:
            break;
        }
        /* A result written over a dying operand takes no new bytes; the plan
         * is of a run without donation, where arguments are never taken. */
        if (!takes_operand(i, 0, moved))
            live += ss__arena_bytes(e->bufs[i->out].bytes);
        if (i->kind == SS__INST_FUSED)
            for (int x = 0; x < i->fused.nextra; x++)
                if (!takes_operand(i, 1 + x, moved))
                    live += ss__arena_bytes(e->bufs[i->extra_out[x]].bytes);
        size_t peak = live;
        if (i->kind == SS__INST_FUSED) {
            int64_t n = 1;
            for (int d = 0; d < e->bufs[i->out].rank; d++)
                n *= e->bufs[i->out].shape[d];
            out->flops += (double)ss__k_flops_fused(&i->fused, n);
        }
        if (i->kind == SS__INST_KERNEL) {
            size_t work;
            if ((st = ss__inst_work_bytes(e, i, &work)))
                break;
            if (work)
                peak += ss__arena_bytes(work);
            out->flops += kernel_flops(e, i);
        }
        if (peak > out->peak_bytes)
            out->peak_bytes = peak;
        if (i->kind == SS__INST_COLL) {
            ss_coll_record rec;
            ss_coll c = i->coll;
            if (i->pairs_at >= 0)
                c.pairs = (const int (*)[2]) & e->pairs[i->pairs_at];
            if ((st = ss__coll_record_plan(&c, &rec)))
                break;
            out->ncollectives++;
            out->sent_bytes += rec.sent;
        }
    }
    free(moved);
    return st;
}

int ss_executable_ledger_count(const ss_executable *e)
{
    int n = 0;
    for (int k = 0; k < e->ninsts; k++)
        n += e->insts[k].kind == SS__INST_COLL;
    return n;
}

ss_status ss_executable_ledger_get(const ss_executable *e, int index, ss_coll_record *out)
{
    int n = 0;
    for (int k = 0; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        if (i->kind != SS__INST_COLL || n++ != index)
            continue;
        ss_coll c = i->coll;
        if (i->pairs_at >= 0)
            c.pairs = (const int (*)[2]) & e->pairs[i->pairs_at];
        ss_status st = ss__coll_record_plan(&c, out);
        if (!st)
            out->seq = index + 1;
        return st;
    }
    return ss__fail(SS_ERR_RANGE, "ledger entry %d of %d", index, n);
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
