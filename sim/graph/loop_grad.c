/*
 * loop_grad.c — reverse mode through a counted loop (lax.scan), as JAX
 * transposes a scan: the forward loop also stacks, per step, the carries it
 * started from (its residuals); the backward is one counted loop over the
 * steps in reverse order that recomputes the step from its residual carry,
 * its xs slice and the loop invariants, and takes the step's vector-Jacobian
 * product. Its carries are the carries' cotangents, the invariants (passed
 * through unchanged, so that the body has them as its own arguments) and
 * the invariants' cotangents summed over the steps; its stacked outputs
 * are the xs' cotangents. Loops inside a scan body are refused here.
 * Reverse mode through a while loop is JAX's error.
 */
#include "graph.h"

#include <stdlib.h>
#include <string.h>

static bool is_float(ss_dtype t) { return t == SS_F32 || t == SS_BF16 || t == SS_F16; }

static ss_status zeros_like(ss_program *p, ss_value x, ss_value *out)
{
    ss__node n = p->nodes[x];
    return ss__zeros(p, n.dtype, n.rank, n.shape, out);
}

/* Give loop v the stacked carries it starts each step from, once. */
static ss_status add_residuals(ss_program *p, ss_value v)
{
    ss__loop *l = &p->loops[p->nodes[v].loop];
    if (l->residual_at >= 0)
        return SS_OK;
    int nc = l->ncarry, ny = l->nys;
    ss_program *b = l->body;
    ss_value *outs = realloc(b->outs, sizeof(ss_value) * (size_t)(nc + ny + nc));
    if (!outs)
        return ss__fail(SS_ERR_NOMEM, "grad: out of host memory");
    b->outs = outs;
    b->outs_cap = nc + ny + nc;
    ss_value *res = realloc(l->res, sizeof(ss_value) * (size_t)(nc + ny + nc));
    if (!res)
        return ss__fail(SS_ERR_NOMEM, "grad: out of host memory");
    l->res = res;
    for (int k = 0; k < nc; k++) {
        const ss__node *c = &p->nodes[l->res[k]];
        if (c->rank + 1 > SS_MAX_RANK)
            return ss__fail(SS_ERR_RANK, "grad: scan carry %d stacked would have rank above %d",
                            k, SS_MAX_RANK);
    }
    ss_status st = SS_OK;
    for (int k = 0; k < nc && !st; k++) {
        ss__node r;
        const ss__node *c = &p->nodes[l->res[k]];
        memset(&r, 0, sizeof r);
        r.op = SS__OP_LOOP_RESULT;
        r.sub = nc + ny + k;
        r.nin = 1;
        r.in[0] = v;
        r.dtype = c->dtype;
        r.rank = c->rank + 1;
        r.shape[0] = l->length;
        memcpy(r.shape + 1, c->shape, sizeof(int64_t) * (size_t)c->rank);
        ss__layout_unknown(&r.fixed, r.rank);
        st = ss__program_add(p, &r, &l->res[nc + ny + k]);
    }
    if (st)
        return st;
    for (int k = 0; k < nc; k++) {
        b->outs[b->nouts++] = k; /* the body's carry argument k */
        b->nodes[k].is_output = true;
    }
    free(b->layouts);
    b->layouts = NULL;
    l->residual_at = ny;
    l->nys = ny + nc;
    return SS_OK;
}

typedef struct bwd {
    const ss_program *body; /* the forward body (region) */
    int nc, nx, ni, ny;     /* forward carries, xs, invariants, user ys */
    int nfc, fc[64];        /* float carries */
    int nfx, fx[64];        /* float xs */
    int nfi, fi[64];        /* float invariants */
    int nyc, yc[64];        /* ys with a cotangent */
} bwd;

/* One backward step. Carries: cotangents of the float carries, the
 * invariants, the float invariants' summed cotangents. Slices: the step's
 * carries, its xs, the cotangents of its ys. Output: the float xs'
 * cotangents. */
static ss_status bwd_step(ss_program *p, const ss_value carry[], const ss_value xs[],
                          ss_value next[], ss_value ys[], void *user)
{
    const bwd *b = user;
    ss_value args[3 * 64], outs[3 * 64], seed_at[2 * 64], seeds[2 * 64], wrt[3 * 64],
        grads[3 * 64];
    int na = 0;
    for (int k = 0; k < b->nc + b->nx; k++)
        args[na++] = xs[k];
    for (int k = 0; k < b->ni; k++)
        args[na++] = carry[b->nfc + k];
    ss_status st = ss__region_inline(p, b->body, args, outs);
    if (st)
        return st;
    int ns = 0, nw = 0;
    for (int k = 0; k < b->nfc; k++) {
        seed_at[ns] = outs[b->fc[k]];
        seeds[ns++] = carry[k];
    }
    for (int k = 0; k < b->nyc; k++) {
        seed_at[ns] = outs[b->nc + b->yc[k]];
        seeds[ns++] = xs[b->nc + b->nx + k];
    }
    for (int k = 0; k < b->nfc; k++)
        wrt[nw++] = xs[b->fc[k]];
    for (int k = 0; k < b->nfx; k++)
        wrt[nw++] = xs[b->nc + b->fx[k]];
    for (int k = 0; k < b->nfi; k++)
        wrt[nw++] = carry[b->nfc + b->fi[k]];
    if ((st = ss__vjp_many(p, ns, seed_at, seeds, nw, wrt, grads)))
        return st;
    for (int k = 0; k < b->nfc; k++)
        next[k] = grads[k];
    for (int k = 0; k < b->ni; k++)
        next[b->nfc + k] = carry[b->nfc + k];
    for (int k = 0; k < b->nfi && !st; k++)
        st = ss_binary(p, SS_ADD, carry[b->nfc + b->ni + k], grads[b->nfc + b->nfx + k],
                       &next[b->nfc + b->ni + k]);
    for (int k = 0; k < b->nfx; k++)
        ys[k] = grads[b->nfc + k];
    return st;
}

ss_status ss__loop_vjp(ss_program *p, ss_value v, const ss_value ct[], const bool want[],
                       ss_value gin[])
{
    const ss__node *n = &p->nodes[v];
    ss__loop *l = &p->loops[n->loop];
    if (l->cond) /* JAX's _while_transpose_error */
        return ss__fail(SS_ERR_UNSUPPORTED,
                        "Reverse-mode differentiation does not work for lax.while_loop or "
                        "lax.fori_loop with dynamic start/stop values. Try using lax.scan, "
                        "or using fori_loop with static start/stop.");
    bwd b;
    memset(&b, 0, sizeof b);
    b.nc = l->ncarry;
    b.nx = l->nxs;
    b.ni = l->nbody_inv;
    b.ny = l->residual_at >= 0 ? l->residual_at : l->nys;
    if (b.nc > 32 || b.nx > 32 || b.ni > SS__MAX_INPUTS || b.ny > 32)
        return ss__fail(SS_ERR_UNSUPPORTED, "grad: scan too wide");
    for (int k = l->residual_at >= 0 ? l->residual_at : l->nys; k < l->nys; k++)
        if (ct[b.nc + k] >= 0)
            return ss__fail(SS_ERR_UNSUPPORTED, "grad: higher-order reverse mode through a "
                                                "scan is not supported");
    ss_status st = add_residuals(p, v);
    if (st)
        return st;
    /* Nodes and loops move as the program grows: work on copies. */
    const ss__loop lc = p->loops[p->nodes[v].loop];
    ss_value op[SS__MAX_INPUTS], res[3 * 64];
    int nop = p->nodes[v].nin;
    memcpy(op, p->nodes[v].in, sizeof(ss_value) * (size_t)nop);
    memcpy(res, lc.res, sizeof(ss_value) * (size_t)(lc.ncarry + lc.nys));
    l = NULL;
    n = NULL;
    b.body = lc.body;
    for (int k = 0; k < b.nc; k++)
        if (is_float(p->nodes[res[k]].dtype))
            b.fc[b.nfc++] = k;
    for (int k = 0; k < b.nx; k++)
        if (is_float(p->nodes[op[b.nc + k]].dtype))
            b.fx[b.nfx++] = k;
    for (int k = 0; k < b.ni; k++)
        if (is_float(p->nodes[op[b.nc + b.nx + k]].dtype))
            b.fi[b.nfi++] = k;
    for (int k = 0; k < b.ny; k++)
        if (ct[b.nc + k] >= 0 && is_float(p->nodes[res[b.nc + k]].dtype))
            b.yc[b.nyc++] = k;
    /* The backward loop's operands. */
    ss_value init[3 * 64], xs[3 * 64], fin[3 * 64], gx[64];
    int ni0 = 0, nxs = 0;
    for (int k = 0; k < b.nfc && !st; k++) {
        ss_value c = ct[b.fc[k]];
        if (c < 0)
            st = zeros_like(p, res[b.fc[k]], &c);
        init[ni0++] = c;
    }
    for (int k = 0; k < b.ni; k++)
        init[ni0++] = op[b.nc + b.nx + k];
    for (int k = 0; k < b.nfi && !st; k++)
        st = zeros_like(p, op[b.nc + b.nx + b.fi[k]], &init[ni0++]);
    for (int k = 0; k < b.nc; k++)
        xs[nxs++] = res[b.nc + lc.residual_at + k];
    for (int k = 0; k < b.nx; k++)
        xs[nxs++] = op[b.nc + k];
    for (int k = 0; k < b.nyc; k++)
        xs[nxs++] = ct[b.nc + b.yc[k]];
    if (!st)
        st = ss__counted_loop(p, bwd_step, &b, lc.length, !lc.reverse, ni0, init, nxs, xs,
                              b.nfx, fin, gx);
    if (st)
        return st;
    for (int k = 0; k < nop; k++)
        gin[k] = -1;
    for (int k = 0; k < b.nfc; k++)
        gin[b.fc[k]] = fin[k];
    for (int k = 0; k < b.nfx; k++)
        gin[b.nc + b.fx[k]] = gx[k];
    for (int k = 0; k < b.nfi; k++)
        gin[b.nc + b.nx + b.fi[k]] = fin[b.nfc + b.ni + k];
    for (int k = 0; k < nop; k++)
        if (!want[k])
            gin[k] = -1;
    return SS_OK;
}
