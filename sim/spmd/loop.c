/*
 * loop.c — loops (graph.h, ss__loop) through the SPMD layers: propagation
 * of their regions, lowering each region once, and running them.
 *
 * Sharding: as XLA's GSPMD, a loop's carry has one sharding, shared by the
 * loop operand, the region parameters and the body result (docs/gspmd.md
 * 2.2, "While/conditional bodies share the sharding of the while op, its
 * body root and parameters"). Here it is the layout propagation gives the
 * loop's result, which takes the initial value's layout when that has one
 * (and the body's otherwise); an initial value laid out otherwise is
 * resharded on entry, a body result laid out otherwise at the end of the
 * body (a reshard at the loop boundary, as XLA's partitioner inserts).
 * Stacked xs are gathered along their leading dim before the loop, as XLA
 * gathers the operand of a dynamic-slice on a sharded dim; each step's
 * slice is then local. The condition's result is replicated, so every
 * device takes the same branch.
 *
 * Running: each device thread runs the loop itself. The carries start as
 * the operands' buffers (borrowed); each body run hands back new buffers,
 * the old ones are freed once replaced. The region executables bind their
 * arguments without copies (an xs slice is a pointer into the stacked
 * buffer) and return results the loop adopts; a result that is one of the
 * arguments (a carry passed through) is kept as it is, or copied when it
 * would otherwise be owned twice. The regions run by the replica plans of
 * the loop's body and condition (replicas.h): a carry may then be a view
 * of a result its group's leader computed.
 */
#include "lower.h"
#include "replicas.h"

#include <stdlib.h>
#include <string.h>

/* --- Layouts ----------------------------------------------------------------- */

void ss__loop_stack_layout(const ss__layout *l, ss__layout *out)
{
    *out = *l;
    out->n[0] = 0;
    out->partial = 0;
}

void ss__loop_slice_layout(const ss__layout *l, ss__layout *out)
{
    ss__layout_replicated(out, l->rank - 1);
    out->known = l->known;
    for (int d = 1; d < l->rank; d++) {
        out->n[d - 1] = l->n[d];
        memcpy(out->ax[d - 1], l->ax[d], SS_MAX_AXES);
    }
}

/* A slice's layout with a leading unsharded dim: a ys result's. */
static void unslice_layout(const ss__layout *l, ss__layout *out)
{
    ss__layout_replicated(out, l->rank + 1);
    out->known = l->known;
    for (int d = 0; d < l->rank; d++) {
        out->n[d + 1] = l->n[d];
        memcpy(out->ax[d + 1], l->ax[d], SS_MAX_AXES);
    }
}

bool ss__loop_result_forward(const ss_program *p, const ss__layout L[], const ss__layout *hint,
                             ss_value v, ss__layout *c)
{
    const ss__node *n = &p->nodes[v];
    const ss__node *ln = &p->nodes[n->in[0]];
    const ss__loop *l = ss__node_loop(p, ln);
    if (n->sub < l->ncarry && L[ln->in[n->sub]].known) {
        *c = L[ln->in[n->sub]];
        c->partial = 0;
        return true;
    }
    if (hint && hint[v].known) {
        *c = hint[v];
        return true;
    }
    return false;
}

bool ss__loop_operand_backward(const ss_program *p, const ss__layout L[], ss_value v, int i,
                               ss__layout *c)
{
    const ss__loop *l = ss__node_loop(p, &p->nodes[v]);
    if (i >= l->ncarry || !L[ss__loop_result(p, v, i)].known)
        return false;
    *c = L[ss__loop_result(p, v, i)];
    return true;
}

/* Fix region r's argument k to layout `l` (its propagation is redone). */
static void fix_arg(ss_program *r, int k, const ss__layout *l)
{
    r->nodes[k].fixed = *l;
    r->nodes[k].fixed.known = true;
    r->nodes[k].fixed.partial = 0;
    r->nodes[k].fixed.rank = r->nodes[k].rank;
    free(r->layouts);
    r->layouts = NULL;
}

/* Leave region r's argument k to its region's propagation. */
static void free_arg(ss_program *r, int k)
{
    ss__layout_unknown(&r->nodes[k].fixed, r->nodes[k].rank);
    free(r->layouts);
    r->layouts = NULL;
}

/* Whether a carry's initial value `init` says little of the carry's
 * sharding: nothing reached it (`why` DEFAULT), or it is a broadcast laid
 * out only from its operand (the weakest rule, level 3): the zeros JAX's
 * scan starts its stacked residuals and gradient accumulators from, or a
 * constant it hoists out of the body and carries (a causal mask).
 * GSPMD then takes the carry's sharding from the body: from the slices a
 * dynamic_update_slice writes, from the ops that read it. */
static bool weak_init(const ss_program *p, const ss_sharding_origin *why, ss_value init)
{
    if (why[init].kind == SS_ORIGIN_DEFAULT)
        return true;
    return p->nodes[init].op == SS__OP_BROADCAST && why[init].kind == SS_ORIGIN_OPERANDS;
}

/* Fix the arguments of loop v's regions from L and propagate them. With
 * `why` (the hint pass), carries whose initial value is weak (weak_init)
 * are left free, so the body says how they are laid out. */
static ss_status propagate_regions(ss_program *p, const ss__layout L[],
                                   const ss_sharding_origin *why, ss_value v)
{
    const ss__node *n = &p->nodes[v];
    ss__loop *l = &p->loops[n->loop];
    int nc = l->ncarry, nx = l->nxs;
    for (int k = 0; k < nc; k++) {
        if (why && weak_init(p, why, n->in[k])) {
            if (l->cond)
                free_arg(l->cond, k);
            free_arg(l->body, k);
            continue;
        }
        if (l->cond)
            fix_arg(l->cond, k, &L[ss__loop_result(p, v, k)]);
        fix_arg(l->body, k, &L[ss__loop_result(p, v, k)]);
    }
    for (int k = 0; k < nx; k++) {
        ss__layout s;
        ss__loop_slice_layout(&L[n->in[nc + k]], &s);
        fix_arg(l->body, nc + k, &s);
    }
    for (int k = 0; k < l->ncond_inv; k++)
        fix_arg(l->cond, nc + k, &L[n->in[nc + nx + k]]);
    for (int k = 0; k < l->nbody_inv; k++)
        fix_arg(l->body, nc + nx + k, &L[n->in[nc + nx + l->ncond_inv + k]]);
    ss_status st = l->cond ? ss_program_propagate(l->cond) : SS_OK;
    return st ? st : ss_program_propagate(l->body);
}

ss_status ss__loops_hints(ss_program *p, const ss__layout L[], const ss_sharding_origin why[],
                         ss__layout **hint)
{
    *hint = NULL;
    ss_status st = SS_OK;
    for (ss_value v = 0; v < p->n && !st; v++) {
        const ss__node *n = &p->nodes[v];
        if (!ss__op_is(n->op, SS__OPF_HAS_REGIONS))
            continue;
        if (!*hint && !(*hint = calloc((size_t)p->n, sizeof(ss__layout))))
            return ss__fail(SS_ERR_NOMEM, "propagation: out of host memory");
        if (n->op == SS__OP_CASE) {
            st = ss__case_propagate(p, L, v, *hint);
            continue;
        }
        if ((st = propagate_regions(p, L, why, v)))
            break;
        const ss__loop *l = &p->loops[n->loop];
        for (int k = 0; k < l->ncarry + l->nys; k++) {
            const ss__layout *b = &l->body->layouts[l->body->outs[k]];
            if (k < l->ncarry)
                (*hint)[ss__loop_result(p, v, k)] = *b;
            else
                unslice_layout(b, &(*hint)[ss__loop_result(p, v, k)]);
            (*hint)[ss__loop_result(p, v, k)].partial = 0;
        }
    }
    if (st) {
        free(*hint);
        *hint = NULL;
    }
    return st;
}

ss_status ss__loops_propagate(ss_program *p, const ss__layout L[])
{
    ss_status st = SS_OK;
    for (ss_value v = 0; v < p->n && !st; v++)
        if (p->nodes[v].op == SS__OP_LOOP)
            st = propagate_regions(p, L, NULL, v);
        else if (p->nodes[v].op == SS__OP_CASE)
            st = ss__case_propagate(p, L, v, NULL);
    return st;
}

/* --- Lowering ------------------------------------------------------------------- */

void ss__loop_exec_free(ss__loop_exec *l)
{
    ss_executable_destroy(l->cond);
    ss_executable_destroy(l->body);
    for (int b = 0; b < l->nbranch && l->branch; b++)
        ss_executable_destroy(l->branch[b]);
    free(l->branch);
    free(l->branch_at);
    free(l->outs);
    free(l->adopt);
    free(l->x_step);
    free(l->y_step);
    memset(l, 0, sizeof *l);
}

ss_status ss__loop_lower(ss_executable *e, const ss_program *p, ss_value v, const int in[],
                         const int outs[], int *index)
{
    const ss__node *n = &p->nodes[v];
    const ss__loop *l = ss__node_loop(p, n);
    int nres = l->ncarry + l->nys;
    ss__loop_exec x;
    memset(&x, 0, sizeof x);
    x.ncarry = l->ncarry;
    x.nxs = l->nxs;
    x.nys = l->nys;
    x.ncond_inv = l->ncond_inv;
    x.nbody_inv = l->nbody_inv;
    x.length = l->length;
    x.trips = l->length < 0 ? l->trips : l->length;
    x.reverse = l->reverse;
    x.outs = malloc(sizeof(int) * (size_t)nres);
    x.adopt = calloc((size_t)(l->ncarry ? l->ncarry : 1), sizeof(bool));
    x.x_step = malloc(sizeof(size_t) * (size_t)(l->nxs + 1));
    x.y_step = malloc(sizeof(size_t) * (size_t)(l->nys + 1));
    ss__layout *want = malloc(sizeof(ss__layout) * (size_t)nres);
    ss_status st = SS_OK;
    if (!x.outs || !x.adopt || !x.x_step || !x.y_step || !want)
        st = ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
    for (int k = 0; k < nres && !st; k++) {
        x.outs[k] = outs[k];
        if (k < l->ncarry)
            want[k] = p->layouts[ss__loop_result(p, v, k)];
        else
            ss__loop_slice_layout(&p->layouts[ss__loop_result(p, v, k)], &want[k]);
        want[k].partial = 0;
    }
    for (int k = 0; k < l->nxs && !st; k++)
        x.x_step[k] = e->bufs[in[l->ncarry + k]].bytes / (size_t)l->length;
    for (int k = 0; k < l->nys && !st; k++)
        x.y_step[k] = e->bufs[outs[l->ncarry + k]].bytes / (size_t)l->length;
    if (!st)
        st = ss__compile_region(l->body, want, &e->opts, &x.body);
    if (!st && l->cond) {
        ss__layout rep;
        ss__layout_replicated(&rep, 0);
        st = ss__compile_region(l->cond, &rep, &e->opts, &x.cond);
    }
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

int ss__region_load(const ss_executable *r, int k)
{
    for (int j = 0; j < r->ninsts; j++)
        if (r->insts[j].kind == SS__INST_LOAD && r->insts[j].index == k)
            return r->insts[j].out;
    return -1;
}

int ss__region_store(const ss_executable *r, int k)
{
    for (int j = 0; j < r->ninsts; j++)
        if (r->insts[j].kind == SS__INST_STORE && r->insts[j].index == k)
            return r->insts[j].in[0];
    return -1;
}

int ss__loop_alias_passed(ss_executable *e, int index, int nin, const int in[], int outs[])
{
    ss__loop_exec *x = &e->loops[index];
    const ss_executable *b = x->body;
    /* The body's first LOAD and STORE of each carry (ss__region_load and
     * _store), in one walk: a loop's operands, so at most SS__MAX_INPUTS. */
    int load[SS__MAX_INPUTS], store[SS__MAX_INPUTS];
    int nc = x->ncarry < SS__MAX_INPUTS ? x->ncarry : SS__MAX_INPUTS;
    for (int k = 0; k < nc; k++)
        load[k] = store[k] = -1;
    for (int j = b->ninsts - 1; j >= 0; j--) {
        const ss__inst *i = &b->insts[j];
        if (i->kind == SS__INST_LOAD && i->index >= 0 && i->index < nc)
            load[i->index] = i->out;
        if (i->kind == SS__INST_STORE && i->index >= 0 && i->index < nc)
            store[i->index] = i->in[0];
    }
    int n = 0;
    for (int k = 0; k < nc; k++) {
        int uses = 0;
        for (int j = 0; j < nin; j++)
            uses += in[j] == in[k];
        if (store[k] < 0 || store[k] != load[k] || uses != 1 ||
            e->bufs[in[k]].bytes != e->bufs[outs[k]].bytes ||
            e->bufs[in[k]].host != e->bufs[outs[k]].host)
            continue;
        bool earlier = false; /* an earlier carry handed back the same buffer */
        for (int j = 0; j < b->ninsts && !earlier; j++) {
            const ss__inst *i = &b->insts[j];
            earlier = i->kind == SS__INST_STORE && i->index < k && i->in[0] == store[k];
        }
        if (earlier)
            continue;
        outs[k] = x->outs[k] = in[k];
        n++;
    }
    return n;
}

/* --- Running ---------------------------------------------------------------------- */

/* Is q one of list[0..n)? */
static bool among(const void *q, void *const list[], int n)
{
    for (int k = 0; k < n; k++)
        if (list[k] == q)
            return true;
    return false;
}

static ss_status copy_buf(ss_context *ctx, int id, const ss__bufdesc *b, const void *src,
                          void **out)
{
    ss_status st = ss__exec_alloc(ctx, id, b, out);
    if (!st)
        memcpy(*out, src, b->bytes);
    return st;
}

/* The condition on the device's current carries: *go when it holds. */
static ss_status run_cond(const ss__inst *i, const ss__loop_exec *l, ss_context *ctx,
                          ss_device *dev, int *colls_done, void **ptr, void *const cur[],
                          const ss__replicas *rep, bool *go)
{
    void *args[SS__MAX_INPUTS], *res[1] = {NULL};
    int nc = l->ncarry, na = 0;
    for (int k = 0; k < nc; k++)
        args[na++] = cur[k];
    for (int k = 0; k < l->ncond_inv; k++)
        args[na++] = ptr[i->in[nc + l->nxs + k]];
    ss_status st = ss__exec_region(l->cond, ctx, dev, colls_done, args, NULL, NULL, res, rep);
    if (st)
        return st;
    ss_dtype dt = l->cond->program->nodes[l->cond->outputs[0]].dtype;
    if (dt == SS_BOOL) {
        unsigned char v;
        memcpy(&v, res[0], 1);
        *go = v != 0;
    } else {
        float v;
        memcpy(&v, res[0], sizeof v);
        *go = v != 0.0f;
    }
    if (!among(res[0], args, na))
        st = ss_device_free(ctx, ss_device_id(dev), res[0]);
    return st;
}

ss_status ss__loop_run(const ss_executable *e, const ss__inst *i, ss_context *ctx,
                       ss_device *dev, int *colls_done, void **ptr, const ss__replicas *rep)
{
    const ss__loop_exec *l = &e->loops[i->index];
    if (l->nbranch)
        return ss__case_run(e, i, ctx, dev, colls_done, ptr);
    int id = ss_device_id(dev), nc = l->ncarry, nx = l->nxs, ny = l->nys;
    void *cur[64], *ys[64], *args[SS__MAX_INPUTS], *res[64];
    bool own[64], consumed[64];
    ss_status st = SS_OK;
    /* The carries: the operands' buffers, borrowed, or adopted (owned). */
    for (int k = 0; k < nc; k++) {
        cur[k] = ptr[i->in[k]];
        own[k] = l->adopt[k];
        if (own[k])
            ptr[i->in[k]] = NULL;
    }
    for (int k = 0; k < ny; k++)
        ys[k] = NULL;
    for (int k = 0; k < ny && !st; k++) {
        const ss__bufdesc *b = &e->bufs[l->outs[nc + k]];
        st = ss__exec_alloc(ctx, id, b, &ys[k]);
    }
    for (int64_t step = 0; !st; step++) {
        if (l->cond) {
            bool go = false;
            if ((st = run_cond(i, l, ctx, dev, colls_done, ptr, cur,
                               ss__replicas_of_loop(rep, i->index, true), &go)) ||
                !go)
                break;
        } else if (step == l->length) {
            break;
        }
        int64_t at = l->reverse ? l->length - 1 - step : step;
        int na = 0;
        for (int k = 0; k < nc; k++) {
            args[na++] = cur[k];
            consumed[k] = false;
        }
        for (int k = 0; k < nx; k++)
            args[na++] = (char *)ptr[i->in[nc + k]] + (size_t)at * l->x_step[k];
        for (int k = 0; k < l->nbody_inv; k++)
            args[na++] = ptr[i->in[nc + nx + l->ncond_inv + k]];
        /* The carries the loop owns are the body's to write over (the
         * xs slices and invariants never are). */
        bool donate[SS__MAX_INPUTS] = {false};
        memcpy(donate, own, sizeof(bool) * (size_t)nc);
        st = ss__exec_region(l->body, ctx, dev, colls_done, args, donate, consumed, res,
                             ss__replicas_of_loop(rep, i->index, false));
        /* A carry written over is no longer ours: a result holds it (or the
         * body freed it), so it is neither an argument nor freed below. */
        for (int k = 0; k < nc; k++)
            if (consumed[k]) {
                args[k] = cur[k] = NULL;
                own[k] = false;
            }
        if (st)
            break;
        /* The new carries: a result that is an argument or an earlier
         * result is copied (each carry owns its buffer), except a carry
         * passed through unchanged. */
        void *next[64];
        bool next_own[64];
        for (int k = 0; k < nc; k++) {
            next[k] = res[k];
            next_own[k] = true;
            if (res[k] == cur[k] && !among(res[k], next, k)) {
                next_own[k] = own[k];
            } else if (among(res[k], args, na) || among(res[k], next, k)) {
                void *cp = NULL;
                if (!st)
                    st = copy_buf(ctx, id, &e->bufs[l->outs[k]], res[k], &cp);
                next[k] = cp;
                next_own[k] = cp != NULL;
            }
        }
        for (int k = 0; k < ny && !st; k++)
            memcpy((char *)ys[k] + (size_t)at * l->y_step[k], res[nc + k], l->y_step[k]);
        /* Free the results no carry keeps, then the carries replaced. */
        for (int k = 0; k < nc + ny; k++) {
            void *q = res[k];
            if (q && !among(q, args, na) && !among(q, next, nc) && !among(q, res, k))
                ss_device_free(ctx, id, q);
        }
        for (int k = 0; k < nc; k++) {
            if (own[k] && !among(cur[k], next, nc))
                ss_device_free(ctx, id, cur[k]);
            cur[k] = next[k];
            own[k] = next_own[k];
        }
    }
    /* Results own their buffers: a carry never replaced is copied, unless
     * its result is its operand's buffer (ss__loop_alias_passed). */
    for (int k = 0; k < nc && !st; k++)
        if (!own[k] && l->outs[k] != i->in[k]) {
            if (!(st = copy_buf(ctx, id, &e->bufs[l->outs[k]], cur[k], &cur[k])))
                own[k] = true;
        }
    if (st) {
        for (int k = 0; k < nc; k++)
            if (own[k])
                ss_device_free(ctx, id, cur[k]);
        for (int k = 0; k < ny; k++)
            if (ys[k])
                ss_device_free(ctx, id, ys[k]);
        return st;
    }
    for (int k = 0; k < nc; k++)
        ptr[l->outs[k]] = cur[k];
    for (int k = 0; k < ny; k++)
        ptr[l->outs[nc + k]] = ys[k];
    return SS_OK;
}

/* --- Evaluation on one host ---------------------------------------------------------- */

ss_status ss__loop_eval(const ss_program *p, ss_value v, void **vals,
                        const ss_eval_options *opts)
{
    const ss__node *n = &p->nodes[v];
    if (n->op == SS__OP_CASE)
        return ss__case_eval(p, v, vals, opts);
    const ss__loop *l = ss__node_loop(p, n);
    int nc = l->ncarry, nx = l->nxs, ny = l->nys;
    void *cur[64] = {NULL}, *nxt[64] = {NULL}, *yslice[64] = {NULL};
    const void *ins[SS__MAX_INPUTS];
    void *outs[128];
    size_t xstep[64], ystep[64];
    unsigned char pred[8] = {0};
    ss_status st = SS_OK;
    for (int k = 0; k < nc + ny; k++)
        vals[ss__loop_result(p, v, k)] = NULL;
    for (int k = 0; k < nc && !st; k++) {
        size_t b = ss__node_bytes(&p->nodes[ss__loop_result(p, v, k)]);
        if (!(cur[k] = malloc(b + 1)) || !(nxt[k] = malloc(b + 1)))
            st = ss__fail(SS_ERR_NOMEM, "loop: out of host memory");
        else
            memcpy(cur[k], vals[n->in[k]], b);
    }
    for (int k = 0; k < nx; k++)
        xstep[k] = ss__node_bytes(&p->nodes[n->in[nc + k]]) / (size_t)l->length;
    for (int k = 0; k < ny && !st; k++) {
        size_t b = ss__node_bytes(&p->nodes[ss__loop_result(p, v, nc + k)]);
        ystep[k] = b / (size_t)l->length;
        if (!(vals[ss__loop_result(p, v, nc + k)] = malloc(b + 1)) || !(yslice[k] = malloc(ystep[k] + 1)))
            st = ss__fail(SS_ERR_NOMEM, "loop: out of host memory");
    }
    for (int64_t step = 0; !st; step++) {
        if (l->cond) {
            int na = 0;
            for (int k = 0; k < nc; k++)
                ins[na++] = cur[k];
            for (int k = 0; k < l->ncond_inv; k++)
                ins[na++] = vals[n->in[nc + nx + k]];
            outs[0] = pred;
            if ((st = ss_program_eval_with(l->cond, opts, ins, outs)))
                break;
            ss_dtype dt = l->cond->nodes[l->cond->outs[0]].dtype;
            float f;
            memcpy(&f, pred, sizeof f);
            if (dt == SS_BOOL ? pred[0] == 0 : f == 0.0f)
                break;
        } else if (step == l->length) {
            break;
        }
        int64_t at = l->reverse ? l->length - 1 - step : step;
        int na = 0;
        for (int k = 0; k < nc; k++)
            ins[na++] = cur[k];
        for (int k = 0; k < nx; k++)
            ins[na++] = (const char *)vals[n->in[nc + k]] + (size_t)at * xstep[k];
        for (int k = 0; k < l->nbody_inv; k++)
            ins[na++] = vals[n->in[nc + nx + l->ncond_inv + k]];
        for (int k = 0; k < nc; k++)
            outs[k] = nxt[k];
        for (int k = 0; k < ny; k++)
            outs[nc + k] = yslice[k];
        if ((st = ss_program_eval_with(l->body, opts, ins, outs)))
            break;
        for (int k = 0; k < nc; k++) {
            void *t = cur[k];
            cur[k] = nxt[k];
            nxt[k] = t;
        }
        for (int k = 0; k < ny; k++)
            memcpy((char *)vals[ss__loop_result(p, v, nc + k)] + (size_t)at * ystep[k], yslice[k], ystep[k]);
    }
    for (int k = 0; k < nc; k++) {
        free(nxt[k]);
        if (st)
            free(cur[k]);
        else
            vals[ss__loop_result(p, v, k)] = cur[k];
    }
    for (int k = 0; k < ny; k++) {
        free(yslice[k]);
        if (st) {
            free(vals[ss__loop_result(p, v, nc + k)]);
            vals[ss__loop_result(p, v, nc + k)] = NULL;
        }
    }
    return st;
}
