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

/* The run being planned: from host buffers (ss_executable_run), or on
 * device-resident arrays with some donated (ss_executable_run_arrays). */
typedef struct mode {
    bool arrays;
    const bool *donate; /* per input, or NULL */
    const int *arg_input; /* per buffer: the input a LOAD buffer holds, else -1 */
    bool *moved;        /* per buffer: taken over by a result */
} mode;

static bool donated(const mode *md, int b)
{
    return md->arrays && md->donate && md->arg_input[b] >= 0 && md->donate[md->arg_input[b]];
}

/* Does result r of i take over an operand (exec.c's take_result)? Marks
 * the operand. */
static bool takes_operand(const ss__inst *i, int r, const mode *md)
{
    int first = i->share[r];
    int j = ss__inst_taken_operand(i, r, first >= 0 && donated(md, i->in[first]));
    if (j < 0)
        return false;
    md->moved[i->in[j]] = true;
    return true;
}

static ss_status plan_run(const ss_executable *e, const bool donate[], bool arrays,
                          ss_plan *out)
{
    memset(out, 0, sizeof *out);
    size_t live = 0;
    size_t nb = (size_t)(e->nbufs ? e->nbufs : 1);
    mode md = {arrays, donate, malloc(sizeof(int) * nb), calloc(nb, 1)};
    bool *kept = calloc(nb, 1);
    if (!md.arg_input || !md.moved || !kept) {
        free((void *)md.arg_input);
        free(md.moved);
        free(kept);
        return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    }
    int *arg_input = (int *)md.arg_input;
    for (size_t b = 0; b < nb; b++)
        arg_input[b] = -1;
    for (int k = 0; k < e->ninsts; k++)
        if (e->insts[k].kind == SS__INST_LOAD)
            arg_input[e->insts[k].out] = e->insts[k].index;
    ss_status st = SS_OK;
    for (int k = 0; k < e->ninsts && !st; k++) {
        const ss__inst *i = &e->insts[k];
        int b0 = i->nin > 0 ? i->in[0] : -1;
        bool borrowed = arrays && b0 >= 0 && arg_input[b0] >= 0 && !donated(&md, b0);
        switch (i->kind) {
        case SS__INST_FREE:
            /* Run on arrays, an undonated argument and an output's buffer
             * outlive the run. */
            if (!md.moved[b0] && !borrowed && !kept[b0])
                live -= ss__arena_bytes(e->bufs[b0].bytes);
            continue;
        case SS__INST_STORE:
            if (arrays && borrowed) /* an undonated input returned: copied */
                live += ss__arena_bytes(e->bufs[b0].bytes);
            else if (arrays)
                kept[b0] = true;
            if (live > out->peak_bytes)
                out->peak_bytes = live;
            continue;
        case SS__INST_PLACE:
            continue;
        default:
            break;
        }
        /* A result written over a dying operand takes no new bytes (an
         * argument only when donated). */
        if (!takes_operand(i, 0, &md))
            live += ss__arena_bytes(e->bufs[i->out].bytes);
        if (i->kind == SS__INST_FUSED)
            for (int x = 0; x < i->fused.nextra; x++)
                if (!takes_operand(i, 1 + x, &md))
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
    free(arg_input);
    free(md.moved);
    free(kept);
    return st;
}

ss_status ss_executable_plan(const ss_executable *e, ss_plan *out)
{
    return plan_run(e, NULL, false, out);
}

ss_status ss_executable_plan_arrays(const ss_executable *e, const bool donate[], ss_plan *out)
{
    return plan_run(e, donate, true, out);
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
