/*
 * liveness.c — buffer lifetimes of a lowered program: arguments are loaded
 * first and live for the whole step (as undonated jit arguments); every
 * other buffer is freed right after its last use. Plan and run both walk
 * the resulting FREE instructions, so the peak the plan predicts is the
 * peak the arenas measure.
 *
 * Elementwise results are written in place over an operand that dies at
 * that instruction (XLA's buffer assignment shares such buffers, and a
 * donated argument's buffer becomes the result's, as jit's donate_argnums
 * does): no new buffer, and a third less memory traffic, since the
 * result's lines are already in cache. The operand's FREE stays in the
 * list and does nothing once its buffer has been taken (exec.c, plan.c).
 */
#include "lower.h"

#include <stdlib.h>
#include <string.h>

/* Arguments first: every LOAD moves to the start (they read nothing), as a
 * jitted function's arguments are on the devices before it runs. The
 * executor relies on it (an argument read before its LOAD has no data). */
static ss_status hoist_loads(ss_executable *e)
{
    bool first = true; /* every LOAD before the rest already: nothing moves */
    for (int k = 1; k < e->ninsts && first; k++)
        first = e->insts[k].kind != SS__INST_LOAD || e->insts[k - 1].kind == SS__INST_LOAD;
    if (first)
        return SS_OK;
    int m = 0;
    ss__inst *tmp = malloc(sizeof *tmp * (size_t)(e->ninsts ? e->ninsts : 1));
    if (!tmp)
        return ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
    for (int k = 0; k < e->ninsts; k++)
        if (e->insts[k].kind == SS__INST_LOAD)
            tmp[m++] = e->insts[k];
    for (int k = 0; k < e->ninsts; k++)
        if (e->insts[k].kind != SS__INST_LOAD)
            tmp[m++] = e->insts[k];
    free(e->insts);
    e->insts = tmp;
    e->insts_cap = e->ninsts ? e->ninsts : 1;
    return SS_OK;
}

/* Is result r of instruction i (0 = out, 1 + k = extra k) elementwise in
 * operand j, so that it may overwrite it? The fused kernel and all_reduce
 * read each element of every operand before they write that element of a
 * result; a fused expression that passes a leaf through as a result is
 * left alone (a written result could be read again as that leaf). A
 * dynamic_update_slice's result is its operand with a window replaced. */
/* May elementwise kernel i (unary or binary, one not fused with
 * others: fuse.c) write its result over an operand? On the f32 path
 * (ss__k_binary, ss__k_unary: element k of the result is computed from
 * element k of each operand, read before it is written) with every
 * operand f32 and as large as the result: no broadcast of a smaller one. */
static bool elementwise_over(const ss_executable *e, const ss__inst *i, ss__opcode op)
{
    const ss__node *n = &e->program->nodes[i->node];
    const ss__bufdesc *o = &e->bufs[i->out];
    ss_dtype d0 = e->bufs[i->in[0]].dtype, d1 = i->nin > 1 ? e->bufs[i->in[1]].dtype : d0;
    if (i->mask_in[0].known || i->mask_in[1].known || o->dtype != SS_F32)
        return false;
    if (op == SS__OP_UNARY ? !ss__k_unary_is_f32_path((ss__k_unary_op)n->sub, d0, o->dtype)
                           : !ss__k_binary_is_f32_path((ss__k_binary_op)n->sub, d0, d1, o->dtype))
        return false;
    for (int k = 0; k < i->nin; k++) {
        const ss__bufdesc *b = &e->bufs[i->in[k]];
        if (b->dtype != SS_F32 || b->bytes != o->bytes || b->rank != o->rank ||
            memcmp(b->shape, o->shape, sizeof(int64_t) * (size_t)o->rank) != 0)
            return false;
    }
    return true;
}

static bool can_share(const ss_executable *e, const ss__inst *i, int r, int j)
{
    int res = r == 0 ? i->out : i->extra_out[r - 1];
    const ss__bufdesc *ob = &e->bufs[res], *ib = &e->bufs[i->in[j]];
    if (ob->bytes != ib->bytes || ob->dtype != ib->dtype || ob->host != ib->host)
        return false;
    if (i->kind == SS__INST_COLL)
        return i->coll.kind == SS_COLL_ALL_REDUCE && r == 0;
    if (i->kind == SS__INST_KERNEL) {
        /* A bitcast (a local reshape, a broadcast that only adds unit
         * dims: same bytes, same order, as the equal sizes checked above
         * imply) is its operand's bytes: XLA moves nothing, and the kernels
         * copy nothing when given the same buffer (kernels.h). */
        ss__opcode op = e->program->nodes[i->node].op;
        if (j == 0 && i->nin == 1 && (op == SS__OP_RESHAPE || op == SS__OP_BROADCAST))
            return true;
        if (op == SS__OP_UNARY || op == SS__OP_BINARY)
            return elementwise_over(e, i, op);
        /* dynamic_update_slice writes its update over its operand (XLA
         * updates in place too): the operand only, read by nothing else. */
        if (op != SS__OP_DYNAMIC_UPDATE_SLICE || j != 0)
            return false;
        for (int q = 1; q < i->nin; q++)
            if (i->in[q] == i->in[0])
                return false;
        return true;
    }
    if (i->kind != SS__INST_FUSED)
        return false;
    const ss__k_fused *f = &i->fused;
    if (f->ops[f->nops - 1].kind == SS__K_FUSED_LEAF)
        return false;
    for (int k = 0; k < f->nextra; k++)
        if (f->ops[f->extra[k]].kind == SS__K_FUSED_LEAF)
            return false;
    return true;
}

/* Loop instruction i (the k-th): its carries that adopt their operand's
 * buffer (ss__loop_exec.adopt): a temporary (not an argument, which lives
 * to the end) whose last use is this loop, passed once (a buffer passed
 * twice would be two carries, or a carry and a value the body reads), of
 * the carry's size. */
static void adopt_carries(ss_executable *e, const ss__inst *i, int k, const int last[],
                          const bool arg[])
{
    ss__loop_exec *l = &e->loops[i->index];
    if (l->nbranch)
        return;
    for (int c = 0; c < l->ncarry; c++) {
        int b = i->in[c], uses = 0;
        for (int j = 0; j < i->nin; j++)
            uses += i->in[j] == b;
        l->adopt[c] = !arg[b] && last[b] == k && uses == 1 &&
                      e->bufs[b].bytes == e->bufs[l->outs[c]].bytes;
    }
}

/* Pick the in-place results (ss__inst.share, share_alt). A result prefers
 * a dying argument (taken when donated; else it would live to the end)
 * and falls back to a dying temporary. FREEs stay: a buffer taken over is
 * NULL by then, and the FREE does nothing. Loops adopt their dying
 * operands the same way (adopt_carries). */
static ss_status share_buffers(ss_executable *e)
{
    int *last = malloc(sizeof(int) * (size_t)(e->nbufs ? e->nbufs : 1));
    bool *arg = calloc((size_t)(e->nbufs ? e->nbufs : 1), 1);
    if (!last || !arg) {
        free(last);
        free(arg);
        return ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
    }
    for (int b = 0; b < e->nbufs; b++)
        last[b] = -1;
    for (int k = 0; k < e->ninsts; k++) {
        const ss__inst *ik = &e->insts[k];
        if (ik->kind == SS__INST_LOAD)
            arg[ik->out] = true;
        for (int j = 0; j < ik->nin; j++)
            last[ik->in[j]] = k;
    }
    for (int k = 0; k < e->ninsts; k++) {
        ss__inst *ik = &e->insts[k];
        if (ik->kind == SS__INST_LOOP) {
            adopt_carries(e, ik, k, last, arg);
            continue;
        }
        if (ik->kind != SS__INST_FUSED && ik->kind != SS__INST_COLL && ik->kind != SS__INST_KERNEL)
            continue;
        int nres = 1 + (ik->kind == SS__INST_FUSED ? ik->fused.nextra : 0);
        bool taken[SS__MAX_INPUTS] = {false};
        for (int r = 0; r < nres; r++)
            for (int pass = 0; pass < 2; pass++) /* arguments first */
                for (int j = 0; j < ik->nin; j++) {
                    int b = ik->in[j];
                    if (taken[j] || arg[b] != (pass == 0) || last[b] != k ||
                        !can_share(e, ik, r, j))
                        continue;
                    for (int q = 0; q < ik->nin; q++)
                        taken[q] = taken[q] || ik->in[q] == b;
                    if (ik->share[r] < 0) {
                        ik->share[r] = (int8_t)j;
                        ik->share_arg[r] = arg[b];
                    } else {
                        ik->share_alt[r] = (int8_t)j;
                    }
                    break;
                }
    }
    free(last);
    free(arg);
    return SS_OK;
}

int ss__inst_results(const ss_executable *e, const ss__inst *i, int bufs[], int cap)
{
    int n = 0;
    if (i->kind == SS__INST_STORE || i->kind == SS__INST_FREE)
        return 0;
    if (i->kind == SS__INST_LOOP) {
        const ss__loop_exec *l = &e->loops[i->index];
        for (int k = 0; k < ss__loop_exec_nres(l) && n < cap; k++)
            bufs[n++] = l->outs[k];
        return n;
    }
    bufs[n++] = i->out;
    if (i->kind == SS__INST_FUSED)
        for (int j = 0; j < i->fused.nextra && n < cap; j++)
            bufs[n++] = i->extra_out[j];
    return n;
}

/* Insert FREE after each buffer's last use. Arguments (LOAD buffers) stay
 * live to the end, as undonated jit arguments do; outputs are freed after
 * their STORE at the end. */
ss_status ss__add_frees(ss_executable *e)
{
    ss_status st = hoist_loads(e);
    if (!st)
        st = share_buffers(e);
    if (st)
        return st;
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
        int res[SS__INST_MAX_RESULTS];
        int nres = ss__inst_results(e, ik, res, SS__INST_MAX_RESULTS);
        for (int j = 0; j < nres; j++)
            if (k > last[res[j]])
                last[res[j]] = k;
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
        enum { MAXB = SS__MAX_INPUTS + SS__INST_MAX_RESULTS };
        int bufs[MAXB], nb = 0;
        for (int j = 0; j < ik->nin; j++)
            bufs[nb++] = ik->in[j];
        if (ik->kind != SS__INST_STORE && ik->kind != SS__INST_FREE)
            nb += ss__inst_results(e, ik, bufs + nb, SS__INST_MAX_RESULTS);
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
            ss__inst *f = &all[m++];
            ss__inst_init(f, SS__INST_FREE, ik->node);
            f->in[f->nin++] = b;
            f->out = b;
            last[b] = -2; /* freed */
        }
    }
    /* Buffers whose last use is the final instruction but did not fit the
     * batch above. */
    for (int b = 0; b < e->nbufs; b++)
        if (last[b] == e->ninsts - 1) {
            ss__inst *f = &all[m++];
            ss__inst_init(f, SS__INST_FREE, e->insts[e->ninsts - 1].node);
            f->in[f->nin++] = b;
            f->out = b;
        }
    free(last);
    free(e->insts);
    e->insts = all;
    e->ninsts = m;
    e->insts_cap = total;
    return SS_OK;
}

