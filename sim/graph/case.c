/*
 * case.c — conditionals: lax.switch and lax.cond (StableHLO case and if)
 * as one op with regions, SS__OP_CASE.
 *
 * A case node's operands are the index (a scalar i32) and then, branch by
 * branch, the values of the enclosing program that branch uses (its
 * captured values, made explicit operands as JAX's closure conversion
 * does; a value two branches use is an operand twice). Each branch is a
 * region (region.c builds it) whose arguments are its operands; the case
 * holds no array, its SS__OP_CASE_RESULT nodes do. Only the selected
 * branch runs (an index outside 0..N-1 runs the last), so the plan holds
 * the largest branch, not their sum, and a branch that does not run
 * computes nothing, inf and NaN included.
 *
 * The gradient (ss__case_vjp) is a conditional on the same index whose
 * branch b computes branch b's forward again and its vector-Jacobian
 * product, giving zeros for the operands of the other branches: JAX's
 * cond transpose, except that JAX keeps the forward branch's residuals as
 * extra results where this recomputes them (as remat would).
 */
#include "autodiff_internal.h"

#include <stdlib.h>
#include <string.h>

#define SS__CASE_MAX_RESULTS 64

typedef struct case_ctx {
    ss_switch_branch fn;
    void *user;
    int b;
} case_ctx;

static ss_status call_branch(ss_program *p, const ss_value args[], ss_value outs[], void *ctx)
{
    (void)args;
    const case_ctx *c = ctx;
    return c->fn(p, c->b, outs, c->user);
}

static bool same_type(const ss__node *a, const ss__node *b)
{
    bool same = a->rank == b->rank && a->dtype == b->dtype;
    for (int d = 0; same && d < a->rank; d++)
        same = a->shape[d] == b->shape[d];
    return same;
}

/* Add the case node for `l` (its branches built) with operands ops[] and
 * its results typed like `like[]`. On success p owns l's regions. */
static ss_status add_case(ss_program *p, ss__loop *l, int nops, const ss_value ops[],
                          const ss__node like[], ss_value results[])
{
    void *grown = ss__grow(p->loops, &p->loops_cap, p->nloops + 1, sizeof *p->loops, 4);
    if (!grown)
        return ss__fail(SS_ERR_NOMEM, "switch: out of host memory");
    p->loops = grown;
    l->residual_at = -1;
    if (!(l->res = malloc(sizeof(ss_value) * (size_t)l->nout)))
        return ss__fail(SS_ERR_NOMEM, "switch: out of host memory");
    ss__node n;
    memset(&n, 0, sizeof n);
    n.op = SS__OP_CASE;
    n.loop = p->nloops;
    n.dtype = SS_F32;
    n.nin = nops;
    n.pairs_at = -1;
    memcpy(n.in, ops, sizeof(ss_value) * (size_t)nops);
    ss__layout_replicated(&n.fixed, 0);
    n.fixed.known = false;
    p->loops[p->nloops++] = *l;
    ss_value at;
    ss_status st = ss__program_add(p, &n, &at);
    if (st) {
        p->nloops--;
        return st;
    }
    int nout = l->nout;
    memset(l, 0, sizeof *l); /* owned by p now */
    for (int k = 0; k < nout && !st; k++) {
        ss__node r;
        memset(&r, 0, sizeof r);
        r.op = SS__OP_CASE_RESULT;
        r.sub = k;
        r.nin = 1;
        r.in[0] = at;
        r.pairs_at = -1;
        r.dtype = like[k].dtype;
        r.rank = like[k].rank;
        memcpy(r.shape, like[k].shape, sizeof r.shape);
        ss__layout_unknown(&r.fixed, r.rank);
        st = ss__program_add(p, &r, &results[k]);
        if (!st)
            p->loops[n.loop].res[k] = results[k];
    }
    return st;
}

ss_status ss_switch(ss_program *p, ss_value index, int nbranches, ss_switch_branch branch,
                    void *user, int nout, ss_value outs[])
{
    const char *what = "switch";
    const ss__node *ix = ss__program_node(p, index, what);
    if (!ix)
        return SS_ERR_INVALID;
    if (ix->rank != 0 || ix->dtype != SS_I32 || ss__op_is(ix->op, SS__OPF_HAS_REGIONS))
        return ss__fail(SS_ERR_INVALID, "switch: the index must be a scalar i32, not a rank-%d "
                                        "%s value",
                        ix->rank, ss_dtype_name(ix->dtype));
    if (nbranches < 1 || !branch)
        return ss__fail(SS_ERR_INVALID, "switch: %d branches; at least one (and its builder) "
                                        "is needed",
                        nbranches);
    if (nout < 1 || nout > SS__CASE_MAX_RESULTS)
        return ss__fail(SS_ERR_INVALID, "switch: %d results; 1 to %d are supported", nout,
                        SS__CASE_MAX_RESULTS);
    if (ix->manual || p->in_manual)
        return ss__fail(SS_ERR_UNSUPPORTED, "switch: conditionals inside shard_map regions are "
                                            "not supported");
    ss__loop l;
    memset(&l, 0, sizeof l);
    l.length = -1;
    l.trips = -1;
    l.nout = nout;
    l.branch = calloc((size_t)nbranches, sizeof *l.branch);
    l.branch_at = calloc((size_t)nbranches + 1, sizeof *l.branch_at);
    ss__node *like = malloc(sizeof(ss__node) * 2 * (size_t)nout);
    ss_value *bouts = malloc(sizeof(ss_value) * (size_t)nout);
    ss_value ops[SS__MAX_INPUTS], caps[SS__MAX_INPUTS];
    ss_status st = SS_OK;
    if (!l.branch || !l.branch_at || !like || !bouts)
        st = ss__fail(SS_ERR_NOMEM, "switch: out of host memory");
    int nops = 1;
    ops[0] = index;
    l.nbranch = nbranches;
    for (int b = 0; b < nbranches && !st; b++) {
        case_ctx c = {branch, user, b};
        int ncaps = 0;
        l.branch_at[b] = nops;
        ss__node *got = b ? like + nout : like;
        st = ss__build_region(p, what, 0, NULL, 0, NULL, nout, call_branch, &c, &l.branch[b],
                              caps, &ncaps, bouts, got);
        for (int k = 0; k < nout && !st && b; k++)
            if (!same_type(&like[k], &got[k]))
                st = ss__fail(SS_ERR_INVALID, "switch: branch %d's result %d differs in shape "
                                              "or dtype from branch 0's",
                              b, k);
        if (!st && nops + ncaps > SS__MAX_INPUTS)
            st = ss__fail(SS_ERR_UNSUPPORTED, "switch: the branches use more than %d values "
                                              "from outside them",
                          SS__MAX_INPUTS - 1);
        for (int k = 0; k < ncaps && !st; k++)
            ops[nops++] = caps[k];
    }
    if (!st)
        l.branch_at[nbranches] = nops;
    if (!st)
        st = add_case(p, &l, nops, ops, like, outs);
    ss__loop_free(&l);
    free(like);
    free(bouts);
    return st;
}

/* --- The gradient ------------------------------------------------------------ */

typedef struct grad_ctx {
    int loop; /* the forward case's, in p->loops (re-read: the array grows) */
    ss_value fwd[SS__MAX_INPUTS]; /* the forward case's operands */
    const ss_value *ct;           /* its results' cotangents (-1: zero) */
    int nwant;
    int slot[SS__MAX_INPUTS]; /* operand of output k of the gradient branches */
} grad_ctx;

/* Gradient branch b: branch b again on stand-ins of its operands (so the
 * sweep stops there), then its VJP; zeros for operands it does not take. */
static ss_status grad_branch(ss_program *p, int b, ss_value outs[], void *user)
{
    grad_ctx *g = user;
    const ss__loop *l = &p->loops[g->loop];
    int a0 = l->branch_at[b], na = l->branch_at[b + 1] - a0, nout = l->nout;
    const ss_program *r = l->branch[b];
    ss_value args[SS__MAX_INPUTS] = {0}, res[SS__CASE_MAX_RESULTS] = {0};
    ss_value seeds[SS__CASE_MAX_RESULTS] = {0}, wrt[SS__MAX_INPUTS] = {0};
    ss_value grads[SS__MAX_INPUTS] = {0};
    int nwrt = 0, wrt_of[SS__MAX_INPUTS] = {0};
    ss_status st = SS_OK;
    for (int k = 0; k < na && !st; k++) {
        ss_value x = g->fwd[a0 + k];
        wrt_of[k] = -1;
        if (!ss__ad_is_float(p->nodes[x].dtype)) {
            args[k] = x;
            continue;
        }
        if (!(st = ss_stop_gradient(p, x, &args[k]))) {
            wrt_of[k] = nwrt;
            wrt[nwrt++] = args[k];
        }
    }
    if (!st)
        st = ss__region_inline(p, r, args, res);
    int ny = 0;
    ss_value ys[SS__CASE_MAX_RESULTS] = {0};
    for (int k = 0; k < nout && !st; k++) {
        const ss__node *y = &p->nodes[res[k]];
        if (!ss__ad_is_float(y->dtype) || g->ct[k] < 0)
            continue;
        ys[ny] = res[k];
        seeds[ny++] = g->ct[k];
    }
    for (int k = 0; k < nwrt; k++)
        grads[k] = -1;
    if (!st && ny && nwrt)
        st = ss__vjp_many(p, ny, ys, seeds, nwrt, wrt, grads);
    for (int k = 0; k < g->nwant && !st; k++) {
        int j = g->slot[k] - a0; /* this branch's argument j, if any */
        const ss__node *x = &p->nodes[g->fwd[g->slot[k]]];
        if (j >= 0 && j < na && wrt_of[j] >= 0 && grads[wrt_of[j]] >= 0)
            outs[k] = grads[wrt_of[j]];
        else
            st = ss__zeros(p, x->dtype, x->rank, x->shape, &outs[k]);
    }
    return st;
}

ss_status ss__case_vjp(ss_program *p, ss_value v, const ss_value ct[], const bool want[],
                       ss_value gin[])
{
    const ss__node *n = &p->nodes[v];
    grad_ctx g;
    memset(&g, 0, sizeof g);
    g.loop = n->loop;
    g.ct = ct;
    int nin = n->nin;
    memcpy(g.fwd, n->in, sizeof(ss_value) * (size_t)nin);
    for (int k = 0; k < nin; k++)
        gin[k] = -1;
    for (int k = 1; k < nin; k++)
        if (want[k] && ss__ad_is_float(p->nodes[n->in[k]].dtype))
            g.slot[g.nwant++] = k;
    bool any = false;
    for (int k = 0; k < p->loops[g.loop].nout; k++)
        any = any || ct[k] >= 0;
    if (!g.nwant || !any)
        return SS_OK;
    ss_value outs[SS__MAX_INPUTS];
    ss_status st = ss_switch(p, g.fwd[0], p->loops[g.loop].nbranch, grad_branch, &g, g.nwant,
                             outs);
    for (int k = 0; k < g.nwant && !st; k++)
        gin[g.slot[k]] = outs[k];
    return st;
}

/* A conditional's results meet at the case node, as a scan's do. */
ss_status ss__vjp_case_result(ss__ad *s, const ss__node *n, ss_value v, ss_value g,
                              const bool want[], ss_value gin[])
{
    (void)v, (void)want, (void)gin;
    if (s->ct[n->in[0]] < 0)
        s->ct[n->in[0]] = g;
    return SS_OK;
}

/* The VJP rule of a conditional: ss__case_vjp above. */
ss_status ss__vjp_case(ss__ad *s, const ss__node *n, ss_value v, ss_value g, const bool want[],
                       ss_value gin[])
{
    (void)g;
    const ss__loop *l = ss__node_loop(s->p, n);
    ss_value cts[64];
    if (l->nout > 64)
        return ss__fail(SS_ERR_UNSUPPORTED, "a conditional with %d results", l->nout);
    for (int k = 0; k < l->nout; k++) {
        ss_value r = l->res[k];
        cts[k] = r <= s->top && s->needed[r] ? s->ct[r] : -1;
    }
    return ss__case_vjp(s->p, v, cts, want, gin);
}
