/*
 * replicas.c — the replica groups of a compiled program's instructions
 * (replicas.h): one forward pass over the instruction list gives every
 * buffer the mesh axes it is the same along, and marks the results whose
 * followers must hold a copy; a loop's regions are walked the same way,
 * first to a fixpoint over its carries, then once more for their plans.
 * Deliberately conservative: anything not known to be identical is
 * treated as different.
 */
#include "replicas.h"

#include <stdlib.h>
#include <string.h>

bool ss__replicas_naive(void)
{
    const char *v = getenv("SHARDSIM_REPLICAS");
    return v && strcmp(v, "each") == 0;
}

/* The output bytes from which replicated work is shared: 0 with
 * SHARDSIM_REPLICAS=all (tests: every replicated instruction, however
 * small, goes through a share). */
static size_t min_bytes(void)
{
    const char *v = getenv("SHARDSIM_REPLICAS");
    return v && strcmp(v, "all") == 0 ? 0 : SS__REPLICAS_MIN_BYTES;
}

/* Mask of the mesh axes a collective's groups span (0 for index groups:
 * not worked out, so nothing is claimed). */
static unsigned coll_axes(const ss_mesh *m, const ss_coll *c, bool *by_axes)
{
    unsigned g = 0;
    *by_axes = c->ngroups == 0;
    for (int k = 0; k < c->naxes && *by_axes; k++) {
        int a = ss_mesh_axis_index(m, c->axes[k]);
        if (a < 0)
            *by_axes = false;
        else
            g |= 1u << a;
    }
    return g;
}

/* The arguments of a region (a loop's body or condition) being walked:
 * the mesh axes each is the same along. */
typedef struct region_args {
    const unsigned *same;
    int n;
} region_args;

/* The mesh axes the result of instruction i is the same along, from its
 * operands' (same[]) and, in a region, its arguments' (args). */
static unsigned result_same(const ss_executable *e, const ss__inst *i, const unsigned *same,
                            unsigned all, const region_args *args)
{
    unsigned in0 = i->nin > 0 ? same[i->in[0]] : all;
    switch (i->kind) {
    case SS__INST_LOAD:
        if (args) /* LOAD k binds argument k */
            return i->index >= 0 && i->index < args->n ? args->same[i->index] & all : 0;
        return all & ~ss__layout_used(&i->layout) & ~i->layout.partial;
    case SS__INST_CONST:
    case SS__INST_ALLOC: return all;
    case SS__INST_KERNEL:
    case SS__INST_FUSED: {
        const ss__node *n = &e->program->nodes[i->node];
        if (i->kind == SS__INST_KERNEL &&
            (n->op == SS__OP_GATHER || n->op == SS__OP_SCATTER) && i->layout.known)
            return 0; /* run_placed_index reads the device's coordinates */
        unsigned s = all;
        for (int k = 0; k < i->nin; k++)
            s &= same[i->in[k]];
        /* Coordinates read by the kernel: its block of the random bits,
         * the padding it masks (exec.c). */
        if (i->kind == SS__INST_KERNEL && n->op == SS__OP_RNG_BIT_GENERATOR && i->layout.known)
            s &= ~ss__layout_used(&i->layout);
        for (int k = 0; i->kind == SS__INST_KERNEL && k < 2; k++)
            if (i->mask_in[k].known)
                s &= ~ss__layout_used(&i->mask_in[k]);
        return s;
    }
    case SS__INST_COLL: {
        bool by_axes;
        unsigned g = coll_axes(e->mesh, &i->coll, &by_axes);
        if (!by_axes)
            return 0;
        if (i->coll.kind == SS_COLL_ALL_REDUCE || i->coll.kind == SS_COLL_ALL_GATHER ||
            i->coll.kind == SS_COLL_BROADCAST)
            return in0 | g;
        return in0 & ~g;
    }
    case SS__INST_SLICE: return in0 & ~ss__layout_used(&i->layout);
    case SS__INST_UNSTACK: return in0;
    default: return 0;
    }
}

static ss_status walk(const ss_executable *e, unsigned all, const region_args *args, bool deep,
                     ss__replicas *out, unsigned *res_same);

/* Loop instruction i of e: its results' axes into same[] (the fixpoint
 * over its carries, replicas.h), from its operands'; with `plan`, the plans
 * of its body and condition go to plan->body/cond[i->index]. */
static ss_status loop_same(const ss_executable *e, const ss__inst *i, unsigned all,
                           unsigned *same, ss__replicas *plan)
{
    const ss__loop_exec *L = &e->loops[i->index];
    int nres = ss__loop_exec_nres(L);
    if (L->nbranch || L->body->noutputs > SS__INST_MAX_RESULTS) { /* not worked out */
        for (int r = 0; r < nres; r++)
            same[L->outs[r]] = 0;
        return SS_OK;
    }
    int nc = L->ncarry, nx = L->nxs, ny = L->nys, na = 0;
    unsigned a[SS__MAX_INPUTS], res[SS__INST_MAX_RESULTS];
    for (int k = 0; k < nc; k++)
        a[na++] = same[i->in[k]];
    for (int k = 0; k < nx; k++) /* step `at` of the stack: the same step everywhere */
        a[na++] = same[i->in[nc + k]];
    for (int k = 0; k < L->nbody_inv; k++)
        a[na++] = same[i->in[nc + nx + L->ncond_inv + k]];
    region_args body = {a, na};
    ss_status st = SS_OK;
    for (bool changed = true; changed && !st;) {
        ss__replicas round;
        memset(res, 0, sizeof res);
        if ((st = walk(L->body, all, &body, false, &round, res)))
            break;
        ss__replicas_free(&round);
        changed = false;
        for (int k = 0; k < nc; k++) {
            unsigned kept = a[k] & res[k];
            changed = changed || kept != a[k];
            a[k] = kept;
        }
    }
    if (st)
        return st;
    /* The last round saw these carries: res[] holds at every step. */
    for (int k = 0; k < nc; k++)
        same[L->outs[k]] = a[k];
    for (int k = 0; k < ny; k++)
        same[L->outs[nc + k]] = res[nc + k];
    if (!plan)
        return SS_OK;
    if ((st = walk(L->body, all, &body, true, &plan->body[i->index], NULL)))
        return st;
    if (!L->cond)
        return SS_OK;
    unsigned c[SS__MAX_INPUTS];
    int ncond = 0;
    for (int k = 0; k < nc; k++)
        c[ncond++] = a[k];
    for (int k = 0; k < L->ncond_inv; k++)
        c[ncond++] = same[i->in[nc + nx + k]];
    region_args cond = {c, ncond};
    return walk(L->cond, all, &cond, true, &plan->cond[i->index], NULL);
}

/* Is instruction i a dynamic_update_slice written in place over a region
 * argument or a result every device computes (prod[] of that operand < 0,
 * or its producer not grouped)? Then every device writing its slice
 * beats a leader copying the whole operand into a new stored block. */
static bool in_place_update(const ss_executable *e, const ss__inst *i, const int *prod,
                            const unsigned *group)
{
    if (!e->region || i->kind != SS__INST_KERNEL || i->share[0] < 0 ||
        e->program->nodes[i->node].op != SS__OP_DYNAMIC_UPDATE_SLICE)
        return false;
    int p = prod[i->in[i->share[0]]];
    return p < 0 || !group[p / 64];
}

/*
 * One pass over e's instructions (see the file's comment): every buffer's
 * axes, the groups and needs into *out (its loops' plans too when `deep`;
 * on failure *out is empty). In a region (args not NULL), res_same (room
 * for e->noutputs, may be NULL) receives the axes of each result (STORE k).
 */
static ss_status walk(const ss_executable *e, unsigned all, const region_args *args, bool deep,
                      ss__replicas *out, unsigned *res_same)
{
    memset(out, 0, sizeof *out);
    size_t nb = (size_t)(e->nbufs ? e->nbufs : 1), ni = (size_t)(e->ninsts ? e->ninsts : 1);
    unsigned *same = calloc(nb, sizeof *same);
    /* Per buffer: 64 x the instruction that last wrote it + its result
     * number, or -1 (not a result that could be shared). */
    int *prod = malloc(nb * sizeof *prod);
    out->group = calloc(ni, sizeof *out->group);
    out->need = calloc(ni, sizeof *out->need);
    bool ok = same && prod && out->group && out->need;
    if (ok && deep && e->nloops > 0) {
        out->nloops = e->nloops;
        out->body = calloc((size_t)e->nloops, sizeof *out->body);
        out->cond = calloc((size_t)e->nloops, sizeof *out->cond);
        ok = out->body && out->cond;
    }
    if (!ok) {
        free(same);
        free(prod);
        ss__replicas_free(out);
        return ss__fail(SS_ERR_NOMEM, "run: out of host memory");
    }
    for (size_t b = 0; b < nb; b++)
        prod[b] = -1;
    size_t min = min_bytes();
    /* A loop carry that adopts its operand (liveness.c) writes it in place
     * on every device: stored once, each device would copy it back whole
     * into its own block at the first write (an initial zeros twice over);
     * computing it on each device writes it once. prod[] marks them (-2)
     * until the pass below reaches them. */
    for (int k = 0; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        if (i->kind != SS__INST_LOOP)
            continue;
        const ss__loop_exec *L = &e->loops[i->index];
        for (int c = 0; c < L->ncarry && c < i->nin; c++)
            if (L->adopt[c])
                prod[i->in[c]] = -2;
    }
    ss_status st = SS_OK;
    for (int k = 0; k < e->ninsts && !st; k++) {
        const ss__inst *i = &e->insts[k];
        /* The group first: it decides which reads below need a copy. */
        unsigned s = result_same(e, i, same, all, args);
        /* Host buffers stay each device's own (the store is device memory). */
        if ((i->kind == SS__INST_KERNEL || i->kind == SS__INST_FUSED) && s &&
            !e->bufs[i->out].host && prod[i->out] != -2 &&
            !in_place_update(e, i, prod, out->group)) {
            size_t bytes = e->bufs[i->out].bytes;
            for (int x = 0; i->kind == SS__INST_FUSED && x < i->fused.nextra; x++)
                bytes += e->bufs[i->extra_out[x]].bytes;
            if (bytes >= min)
                out->group[k] = s;
        }
        /* Reads: a result is needed by the followers unless its reader is
         * run by the same group's leader only (a loop's or a STORE's
         * reader is every device). */
        for (int j = 0; i->kind != SS__INST_FREE && j < i->nin; j++) {
            int p = prod[i->in[j]];
            if (p < 0)
                continue;
            if (!(out->group[k] && out->group[k] == out->group[p / 64]))
                out->need[p / 64][p % 64] = 1;
        }
        if (i->kind == SS__INST_FREE)
            continue;
        if (i->kind == SS__INST_STORE) {
            if (res_same && args && i->index >= 0 && i->index < e->noutputs)
                res_same[i->index] = same[i->in[0]];
            continue;
        }
        if (i->kind == SS__INST_PLACE) { /* writes into in[1] (= out) */
            same[i->out] &= same[i->in[0]] & ~(1u << i->place_axis);
            prod[i->out] = -1;
            continue;
        }
        if (i->kind == SS__INST_LOOP) {
            const ss__loop_exec *L = &e->loops[i->index];
            st = loop_same(e, i, all, same, deep ? out : NULL);
            for (int r = 0; r < ss__loop_exec_nres(L); r++)
                prod[L->outs[r]] = -1;
            continue;
        }
        same[i->out] = s;
        prod[i->out] = k * 64;
        for (int x = 0; i->kind == SS__INST_FUSED && x < i->fused.nextra; x++) {
            same[i->extra_out[x]] = s;
            prod[i->extra_out[x]] = k * 64 + 1 + x;
        }
    }
    free(same);
    free(prod);
    if (st)
        ss__replicas_free(out);
    return st;
}

ss_status ss__replicas_plan(const ss_executable *e, ss__replicas *out)
{
    const ss_mesh *m = e->mesh;
    unsigned all = 0;
    for (int a = 0; a < m->naxes; a++)
        if (m->sizes[a] > 1)
            all |= 1u << a;
    return walk(e, all, NULL, true, out, NULL);
}

const ss__replicas *ss__replicas_of_loop(const ss__replicas *r, int index, bool cond)
{
    if (!r || index < 0 || index >= r->nloops)
        return NULL;
    const ss__replicas *sub = cond ? &r->cond[index] : &r->body[index];
    return sub->group ? sub : NULL;
}

void ss__replicas_free(ss__replicas *r)
{
    for (int k = 0; k < r->nloops; k++) {
        if (r->body)
            ss__replicas_free(&r->body[k]);
        if (r->cond)
            ss__replicas_free(&r->cond[k]);
    }
    free(r->group);
    free(r->need);
    free(r->body);
    free(r->cond);
    memset(r, 0, sizeof *r);
}
