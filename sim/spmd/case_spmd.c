/*
 * case_spmd.c — conditionals (graph/case.c, SS__OP_CASE) through the SPMD
 * layers: propagation into their branches, lowering each branch once,
 * running the selected one, and evaluating on one host.
 *
 * Sharding, as XLA's GSPMD partitions a conditional: every branch is
 * partitioned with its operands laid out as they are in the enclosing
 * program (the branch parameters share the operands' shardings, no
 * reshard on entry), the index is replicated so every device takes the
 * same branch, and each branch brings its results to the conditional's
 * result layouts before handing them over (a reshard at the branch root,
 * where XLA's partitioner inserts it). A result's layout is what
 * propagation gives it from its users, else the most tiled of the
 * branches' (a branch giving zeros, replicated, slices them locally).
 *
 * Running: the device thread reads the index, clamps it (an index outside
 * 0..N-1 runs the last branch, as StableHLO specifies) and runs that
 * branch's executable on the operands' buffers (borrowed); results that
 * are one of the arguments are copied, so each result owns its buffer.
 * The ledger lists every branch's collectives, branch after branch (XLA's
 * compiled text holds each branch's once); a run advances the device's
 * collective count past the branches it skips, so entries keep their index.
 *
 * Not done: collectives over a subset of the devices inside a branch when
 * the devices disagree on the index (the index is replicated; JAX's cond
 * on a sharded predicate is not expressible in StableHLO either).
 */
#include "lower_internal.h"

#include <stdlib.h>
#include <string.h>

/* --- Propagation ---------------------------------------------------------------- */

static void fix_arg(ss_program *r, int k, const ss__layout *l)
{
    r->nodes[k].fixed = *l;
    r->nodes[k].fixed.known = true;
    r->nodes[k].fixed.partial = 0;
    r->nodes[k].fixed.rank = r->nodes[k].rank;
    free(r->layouts);
    r->layouts = NULL;
}

ss_status ss__case_propagate(ss_program *p, const ss__layout L[], ss_value v, ss__layout *hint)
{
    const ss__node *n = &p->nodes[v];
    ss__loop *l = &p->loops[n->loop];
    ss_status st = SS_OK;
    for (int b = 0; b < l->nbranch && !st; b++) {
        ss_program *r = l->branch[b];
        for (int k = l->branch_at[b]; k < l->branch_at[b + 1]; k++)
            fix_arg(r, k - l->branch_at[b], &L[n->in[k]]);
        st = ss_program_propagate(r);
    }
    for (int k = 0; k < l->nout && !st && hint; k++) {
        const ss__layout *best = NULL;
        for (int b = 0; b < l->nbranch; b++) {
            const ss__layout *o = &l->branch[b]->layouts[l->branch[b]->outs[k]];
            if (!best || ss__layout_tiles(o, p->mesh) > ss__layout_tiles(best, p->mesh))
                best = o;
        }
        hint[l->res[k]] = *best;
        hint[l->res[k]].partial = 0;
    }
    return st;
}

/* --- Lowering ------------------------------------------------------------------- */

ss_status ss__case_lower(ss_executable *e, const ss_program *p, ss_value v, const int outs[],
                         int *index)
{
    const ss__node *n = &p->nodes[v];
    const ss__loop *l = ss__node_loop(p, n);
    ss__loop_exec x;
    memset(&x, 0, sizeof x);
    x.length = -1;
    x.trips = -1;
    x.nbranch = l->nbranch;
    x.nout = l->nout;
    x.outs = malloc(sizeof(int) * (size_t)l->nout);
    x.branch = calloc((size_t)l->nbranch, sizeof *x.branch);
    x.branch_at = malloc(sizeof(int) * (size_t)(l->nbranch + 1));
    ss__layout *want = malloc(sizeof(ss__layout) * (size_t)l->nout);
    ss_status st = SS_OK;
    if (!x.outs || !x.branch || !x.branch_at || !want)
        st = ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
    for (int k = 0; k < l->nout && !st; k++) {
        x.outs[k] = outs[k];
        want[k] = p->layouts[l->res[k]];
        want[k].partial = 0;
    }
    if (!st)
        memcpy(x.branch_at, l->branch_at, sizeof(int) * (size_t)(l->nbranch + 1));
    for (int b = 0; b < l->nbranch && !st; b++)
        st = ss__compile_region(l->branch[b], want, &e->opts, &x.branch[b]);
    free(want);
    void *grown = st ? NULL : ss__grow(e->loops, &e->loops_cap, e->nloops + 1, sizeof *e->loops, 4);
    if (!st && !grown)
        st = ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
    if (st) {
        ss__loop_exec_free(&x);
        return st;
    }
    e->loops = grown;
    *index = e->nloops;
    e->loops[e->nloops++] = x;
    return SS_OK;
}

/* The LOWER rule of a conditional: its index replicated and its other
 * operands in their own layouts (every branch is partitioned with them, as
 * GSPMD partitions a conditional's branches); each branch brings its
 * results to the results' propagated layouts, and only the selected one
 * runs. */
ss_status ss__lower_case(ss__lowering *s, ss_value v, const ss__layout *want_v)
{
    (void)want_v;
    const ss__node *n = &s->p->nodes[v];
    const ss__loop *l = ss__node_loop(s->p, n);
    int in[SS__MAX_INPUTS], outs[64];
    ss_status st = SS_OK;
    if (l->nout < 1 || l->nout > 64)
        return ss__fail(SS_ERR_UNSUPPORTED, "compile: a conditional with %d results", l->nout);
    for (int k = 0; k < n->nin && !st; k++) {
        ss__layout w = s->p->layouts[n->in[k]];
        w.partial = 0;
        st = ss__lower_need(s, n->in[k], &w, &in[k]);
    }
    for (int k = 0; k < l->nout && !st; k++) {
        const ss__layout *lr = &s->p->layouts[l->res[k]];
        /* A result may be uneven: the branches compute on padded blocks. */
        st = ss__lower_kernel_out(s, l->res[k], lr, &outs[k]);
    }
    int index;
    if (!st)
        st = ss__case_lower(s->e, s->p, v, outs, &index);
    if (st)
        return st;
    if ((st = ss__lower_emit_region(s, v, in, index, outs[0])))
        return st;
    for (int k = 0; k < l->nout; k++) {
        ss__layout lr = s->p->layouts[l->res[k]];
        lr.partial = 0;
        ss__lower_add_version(s, l->res[k], outs[k], &lr);
    }
    const ss__loop_exec *le = &s->e->loops[index];
    ss__buf_printf(&s->line, ": the branch the index selects runs, of %d lowered once each (",
                   le->nbranch);
    for (int b = 0; b < le->nbranch; b++)
        ss__buf_printf(&s->line, "%s%d", b ? ", " : "", le->branch[b]->ninsts);
    ss__buf_puts(&s->line, " instructions)");
    return SS_OK;
}

/* A conditional's result: ss__lower_case gave it its buffer in its layout. */
ss_status ss__lower_case_result(ss__lowering *s, ss_value v, const ss__layout *want)
{
    (void)s, (void)v, (void)want;
    return SS_OK;
}

/* --- Running ---------------------------------------------------------------------- */

/* The branch an index selects: out of range runs the last. */
static int pick(int32_t index, int nbranch)
{
    return index >= 0 && index < nbranch ? (int)index : nbranch - 1;
}

static bool among(const void *q, void *const list[], int n)
{
    for (int k = 0; k < n; k++)
        if (list[k] == q)
            return true;
    return false;
}

ss_status ss__case_run(const ss_executable *e, const ss__inst *i, ss_context *ctx,
                       ss_device *dev, int *colls_done, void **ptr)
{
    const ss__loop_exec *l = &e->loops[i->index];
    int id = ss_device_id(dev);
    int32_t index;
    memcpy(&index, ptr[i->in[0]], sizeof index);
    int b = pick(index, l->nbranch);
    void *args[SS__MAX_INPUTS], *res[64];
    int na = 0;
    for (int k = l->branch_at[b]; k < l->branch_at[b + 1]; k++)
        args[na++] = ptr[i->in[k]];
    for (int c = 0; c < b; c++)
        colls_done[id] += ss_executable_ledger_count(l->branch[c]);
    ss_status st = ss__exec_region(l->branch[b], ctx, dev, colls_done, args, NULL, NULL, res,
                                   NULL);
    for (int c = b + 1; c < l->nbranch; c++)
        colls_done[id] += ss_executable_ledger_count(l->branch[c]);
    /* Each result owns its buffer: one that is an argument or an earlier
     * result is copied. */
    for (int k = 0; k < l->nout && !st; k++) {
        if (!among(res[k], args, na) && !among(res[k], res, k))
            continue;
        const ss__bufdesc *d = &e->bufs[l->outs[k]];
        void *cp = NULL;
        if (!(st = ss__device_alloc_named(ctx, id, d->bytes, d->name, &cp))) {
            memcpy(cp, res[k], d->bytes);
            res[k] = cp;
        }
    }
    if (st)
        return st;
    for (int k = 0; k < l->nout; k++)
        ptr[l->outs[k]] = res[k];
    return SS_OK;
}

/* --- Evaluation on one host ---------------------------------------------------------- */

ss_status ss__case_eval(const ss_program *p, ss_value v, void **vals,
                        const ss_eval_options *opts)
{
    const ss__node *n = &p->nodes[v];
    const ss__loop *l = ss__node_loop(p, n);
    int32_t index;
    memcpy(&index, vals[n->in[0]], sizeof index);
    int b = pick(index, l->nbranch);
    const void *ins[SS__MAX_INPUTS];
    void *outs[64] = {NULL};
    int na = 0;
    for (int k = l->branch_at[b]; k < l->branch_at[b + 1]; k++)
        ins[na++] = vals[n->in[k]];
    ss_status st = SS_OK;
    for (int k = 0; k < l->nout; k++)
        vals[l->res[k]] = NULL;
    for (int k = 0; k < l->nout && !st; k++)
        if (!(outs[k] = malloc(ss__node_bytes(&p->nodes[l->res[k]]) + 1)))
            st = ss__fail(SS_ERR_NOMEM, "case: out of host memory");
    if (!st)
        st = ss_program_eval_with(l->branch[b], opts, ins, outs);
    for (int k = 0; k < l->nout; k++) {
        if (st) {
            free(outs[k]);
            continue;
        }
        vals[l->res[k]] = outs[k];
    }
    return st;
}
