/*
 * lower_dot.c — the dot's LOWER rule: GSPMD's cases for dot_general (batch,
 * free and contracting dims; docs/gspmd.md 3.1), the windowed form, and
 * XLA's choice between gathering an operand and reducing the result.
 */
#include "lower_internal.h"

#include <stdlib.h>
#include <string.h>


static void dot_dims_of(const ss__node *n, ss__k_dot_dims *dd)
{
    memset(dd, 0, sizeof *dd);
    dd->nbatch = n->nb;
    dd->ncontract = n->nc;
    for (int k = 0; k < n->nb; k++) {
        dd->lhs_batch[k] = n->lb[k];
        dd->rhs_batch[k] = n->rb[k];
    }
    for (int k = 0; k < n->nc; k++) {
        dd->lhs_contract[k] = n->lc[k];
        dd->rhs_contract[k] = n->rc[k];
    }
}

/* Windowed einsum for operand `side` (0 lhs, 1 rhs): when that operand
 * would be all-gathered over one mesh axis along one free dim and nothing
 * else moves, compute the dot in n steps, passing the operand's blocks to
 * the previous device each step. Returns true if it emitted the loop
 * (*st then says how it went). */
static bool windowed(ss__lowering *s, ss_value v, int side, const ss__layout *want_x,
                     const ss__layout *want_y, const ss__layout *out_l, ss_status *st)
{
    const ss__node *n = &s->p->nodes[v];
    double mib = s->e->opts.windowed_einsum_threshold_mib;
    if (mib <= 0)
        return false;
    ss_value xv = n->in[side], yv = n->in[1 - side];
    const ss__node *x = &s->p->nodes[xv];
    const ss__layout *lx = &s->vals[xv].layout, *ly = &s->vals[yv].layout;
    if (!ss__layout_equal(ly, want_y) || lx->partial)
        return false;
    /* Exactly one free dim d differs: one axis now, none wanted. */
    const int8_t *batch = side ? n->rb : n->lb, *contract = side ? n->rc : n->lc;
    unsigned special = 0;
    for (int k = 0; k < n->nb; k++)
        special |= 1u << batch[k];
    for (int k = 0; k < n->nc; k++)
        special |= 1u << contract[k];
    int d = -1, od = n->nb;
    if (side == 1)
        od += s->p->nodes[n->in[0]].rank - n->nb - n->nc;
    int pos = od;
    for (int k = 0; k < x->rank; k++) {
        bool same = lx->n[k] == want_x->n[k] &&
                    memcmp(lx->ax[k], want_x->ax[k], (size_t)lx->n[k]) == 0;
        if (!((special >> k) & 1u)) {
            if (!same) {
                if (d >= 0 || (special >> k) & 1u || lx->n[k] != 1 || want_x->n[k] != 0)
                    return false;
                d = k;
                od = pos;
            }
            pos++;
        } else if (!same) {
            return false;
        }
    }
    if (d < 0)
        return false;
    double bytes = (double)ss_dtype_size(x->dtype);
    for (int k = 0; k < x->rank; k++)
        bytes *= (double)x->shape[k];
    if (bytes < mib * 1048576.0)
        return false;
    int axis = lx->ax[d][0];
    int nsteps = (int)s->mesh->sizes[axis];
    /* The result: allocated once, each step writes its slice. */
    int out, cur = s->vals[xv].buf[0], ybuf = s->vals[yv].buf[0];
    ss__inst a;
    ss__inst_init(&a, SS__INST_ALLOC, v);
    if ((*st = ss__lower_check_even(s, v, out_l)) ||
        (*st = ss__lower_kernel_out(s, v, out_l, &out)))
        return true;
    a.out = out;
    if ((*st = ss__lower_emit(s, &a)))
        return true;
    ss__buf_printf(&s->line, "; windowed einsum over ('%s',): %d steps", s->mesh->names[axis],
                   nsteps);
    int pairs[2 * SS_MAX_DEVICES];
    for (int r = 0; r < nsteps; r++) {
        pairs[2 * r] = r;                          /* rank r sends its block */
        pairs[2 * r + 1] = (r + nsteps - 1) % nsteps; /* to rank r-1 */
    }
    for (int step = 0; step < nsteps; step++) {
        /* Local dot of the block held now: the result's dim od has the
         * block's size. */
        int64_t shape[SS_MAX_RANK];
        memcpy(shape, s->e->bufs[out].shape, sizeof shape);
        shape[od] = s->e->bufs[cur].shape[d];
        char name[48];
        snprintf(name, sizeof name, "%%%d step %d", (int)v, step);
        int part;
        if ((*st = ss__lower_new_buf(s, v, n->dtype, n->rank, shape, name, &part)))
            return true;
        ss__inst k;
        ss__inst_init(&k, SS__INST_KERNEL, v);
        dot_dims_of(n, &k.dot);
        k.nin = 2;
        k.in[side] = cur;
        k.in[1 - side] = ybuf;
        k.out = part;
        if ((*st = ss__lower_emit(s, &k)))
            return true;
        ss__inst pl;
        ss__inst_init(&pl, SS__INST_PLACE, v);
        pl.nin = 2;
        pl.in[0] = part;
        pl.in[1] = out;
        pl.out = out;
        pl.place_axis = axis;
        pl.place_dim = od;
        pl.place_step = step;
        pl.place_n = nsteps;
        if ((*st = ss__lower_emit(s, &pl)))
            return true;
        if (step == nsteps - 1)
            break;
        ss_coll c;
        memset(&c, 0, sizeof c);
        c.kind = SS_COLL_PERMUTE;
        c.mesh = s->mesh;
        c.dtype = x->dtype;
        c.rank = x->rank;
        memcpy(c.shape, s->e->bufs[cur].shape, sizeof c.shape);
        c.axes[0] = s->mesh->names[axis];
        c.naxes = 1;
        if ((*st = ss__lower_emit_coll(s, v, &c, cur, &cur, nsteps, pairs)))
            return true;
    }
    ss__lower_add_version(s, v, out, out_l);
    *st = SS_OK;
    return true;
}

static double local_bytes(const ss__lowering *s, const ss__node *n, const ss__layout *l)
{
    double b = (double)ss_dtype_size(n->dtype);
    for (int d = 0; d < n->rank; d++)
        b *= (double)(n->shape[d] / ss__layout_dim_tiles(l, s->mesh, d));
    return b;
}

/* GSPMD keeps contracting dims sharded alike on both sides and reduces the
 * result; for a small operand and a large result (a weight gradient of a
 * data-parallel step, docs/gspmd.md 3.2, S2 and S5), gathering both operands
 * over those axes moves fewer bytes. Say so in the explanation, and take
 * that route when the compile options ask for the cheapest lowering. */
static void cheaper_alternative(ss__lowering *s, const ss__node *n, const ss__layout *la,
                                const ss__layout *lb, const ss__layout *want, unsigned partial,
                                uint8_t cn[], unsigned *partial_out)
{
    /* Only case (ii): both operands sharded alike on the contracting dims
     * (the one-sided case gathers or slices one operand already). */
    for (int k = 0; k < n->nc; k++) {
        int dl = n->lc[k], dr = n->rc[k];
        if (cn[k] && (la->n[dl] != lb->n[dr] ||
                      memcmp(la->ax[dl], lb->ax[dr], (size_t)la->n[dl]) != 0))
            return;
    }
    double groups = 1;
    for (int a = 0; a < s->mesh->naxes; a++)
        if ((partial >> a) & 1u)
            groups *= (double)s->mesh->sizes[a];
    if (groups <= 1)
        return;
    ss__layout out_local = *want;
    for (int d = 0; d < n->rank; d++) {
        int keep = 0;
        while (keep < want->n[d] && !((partial >> want->ax[d][keep]) & 1u))
            keep++;
        out_local.n[d] = (uint8_t)keep;
    }
    double c = local_bytes(s, n, &out_local);
    bool scatter = (ss__layout_used(want) & partial) != 0;
    double reduce = scatter ? (groups - 1) / groups * c : 2 * (groups - 1) / groups * c;
    double gather = (groups - 1) * (local_bytes(s, &s->p->nodes[n->in[0]], la) +
                                    local_bytes(s, &s->p->nodes[n->in[1]], lb));
    if (gather >= reduce)
        return;
    ss__buf_printf(&s->line,
                   "; GSPMD reduces the partial result (%s, %.0f B/device), gathering both "
                   "operands over the contracting axes would send %.0f B/device%s",
                   scatter ? "reduce_scatter" : "all_reduce", reduce, gather,
                   s->e->opts.cheapest ? " (taken: cheapest)" : "");
    if (!s->e->opts.cheapest)
        return;
    for (int k = 0; k < n->nc; k++)
        cn[k] = 0;
    *partial_out = 0;
}

/* The dot: operand layouts derived from the output's, per GSPMD's cases. */
ss_status ss__lower_dot(ss__lowering *s, ss_value v, const ss__layout *want)
{
    const ss__node *n = &s->p->nodes[v];
    const ss__node *ln = &s->p->nodes[n->in[0]], *rn = &s->p->nodes[n->in[1]];
    const ss__layout *la = &s->vals[n->in[0]].layout, *lb = &s->vals[n->in[1]].layout;
    ss__layout A, B, out_l;
    unsigned lspecial = 0, rspecial = 0;
    for (int k = 0; k < n->nb; k++) {
        lspecial |= 1u << n->lb[k];
        rspecial |= 1u << n->rb[k];
    }
    for (int k = 0; k < n->nc; k++) {
        lspecial |= 1u << n->lc[k];
        rspecial |= 1u << n->rc[k];
    }
    /* Contracting dims first (XLA's base case e): a sharding both operands
     * share stays, giving a partial result that is reduced (all-reduce, or
     * reduce-scatter into the output's sharding) afterwards; those axes are
     * then taken off the batch and free dims. Otherwise XLA's one-sided
     * rule: slice the unsharded side for free and all-reduce the result when
     * the sharded operand is larger than the result, else gather it. */
    unsigned partial = 0;
    int64_t out_bytes = (int64_t)ss_dtype_size(n->dtype), lbytes = out_bytes, rbytes = out_bytes;
    for (int d = 0; d < n->rank; d++)
        out_bytes *= n->shape[d];
    for (int d = 0; d < ln->rank; d++)
        lbytes *= ln->shape[d];
    for (int d = 0; d < rn->rank; d++)
        rbytes *= rn->shape[d];
    int8_t cax[SS_MAX_RANK][SS_MAX_AXES];
    uint8_t cn[SS_MAX_RANK];
    for (int k = 0; k < n->nc; k++) {
        int dl = n->lc[k], dr = n->rc[k];
        cn[k] = 0;
        const ss__layout *src = NULL;
        int sd = 0;
        bool same = la->n[dl] == lb->n[dr] && la->n[dl] > 0 &&
                    memcmp(la->ax[dl], lb->ax[dr], (size_t)la->n[dl]) == 0;
        if (same) {
            src = la;
            sd = dl;
        } else if (la->n[dl] > 0 && lb->n[dr] == 0 && lbytes > out_bytes) {
            src = la;
            sd = dl;
        } else if (lb->n[dr] > 0 && la->n[dl] == 0 && rbytes > out_bytes) {
            src = lb;
            sd = dr;
        }
        if (!src)
            continue;
        unsigned m = 0;
        for (int j = 0; j < src->n[sd]; j++)
            m |= 1u << src->ax[sd][j];
        if (!same && (m & ss__layout_used(want)))
            continue; /* one-sided: only while the output does not need the axes */
        if (m & partial)
            continue;
        cn[k] = src->n[sd];
        memcpy(cax[k], src->ax[sd], SS_MAX_AXES);
        partial |= m;
    }
    if (partial)
        cheaper_alternative(s, n, la, lb, want, partial, cn, &partial);
    /* Batch and free dims keep the output's axes minus the partial ones. */
    ss__layout local_out = *want;
    for (int d = 0; d < n->rank; d++) {
        int keep = 0;
        for (int j = 0; j < want->n[d]; j++)
            if (!((partial >> want->ax[d][j]) & 1u))
                local_out.ax[d][keep++] = want->ax[d][j];
        /* A dim keeps only a leading run of its axes, so blocks stay whole. */
        if (keep != want->n[d]) {
            keep = 0;
            while (keep < want->n[d] && !((partial >> want->ax[d][keep]) & 1u))
                keep++;
        }
        local_out.n[d] = (uint8_t)keep;
    }
    want = &local_out;
    ss__layout_replicated(&A, ln->rank);
    ss__layout_replicated(&B, rn->rank);
    for (int k = 0; k < n->nb; k++) {
        A.n[n->lb[k]] = want->n[k];
        memcpy(A.ax[n->lb[k]], want->ax[k], SS_MAX_AXES);
        B.n[n->rb[k]] = want->n[k];
        memcpy(B.ax[n->rb[k]], want->ax[k], SS_MAX_AXES);
    }
    int pos = n->nb;
    for (int d = 0; d < ln->rank; d++)
        if (!((lspecial >> d) & 1u)) {
            A.n[d] = want->n[pos];
            memcpy(A.ax[d], want->ax[pos], SS_MAX_AXES);
            pos++;
        }
    for (int d = 0; d < rn->rank; d++)
        if (!((rspecial >> d) & 1u)) {
            B.n[d] = want->n[pos];
            memcpy(B.ax[d], want->ax[pos], SS_MAX_AXES);
            pos++;
        }
    for (int k = 0; k < n->nc; k++) {
        A.n[n->lc[k]] = B.n[n->rc[k]] = cn[k];
        memcpy(A.ax[n->lc[k]], cax[k], SS_MAX_AXES);
        memcpy(B.ax[n->rc[k]], cax[k], SS_MAX_AXES);
    }
    out_l = local_out;
    int in[2], out;
    if (!partial && !ss__lower_uneven_dims(s, n->in[0], &A) &&
        !ss__lower_uneven_dims(s, n->in[1], &B) && !ss__lower_uneven_dims(s, v, &out_l)) {
        ss_status wst;
        if (windowed(s, v, 0, &A, &B, &out_l, &wst) || windowed(s, v, 1, &B, &A, &out_l, &wst))
            return wst;
    }
    ss_status st = ss__lower_need(s, n->in[0], &A, &in[0]);
    if (!st)
        st = ss__lower_need(s, n->in[1], &B, &in[1]);
    if (st)
        return st;
    out_l.partial = partial;
    ss__inst i;
    ss__inst_init(&i, SS__INST_KERNEL, v);
    unsigned ua = ss__lower_uneven_dims(s, n->in[0], &A);
    unsigned ub = ss__lower_uneven_dims(s, n->in[1], &B);
    for (int k = 0; k < n->nc && !i.mask_in[0].known; k++)
        if (((ua >> n->lc[k]) & 1u) || ((ub >> n->rc[k]) & 1u)) {
            /* A contracting dim in padded blocks: zeros on both sides. */
            if ((st = ss__lower_mask(s, &i, &A, &B, 0.0)))
                return st;
        }
    if (i.mask_in[0].known)
        ss__buf_puts(&s->line, "; padding masked");
    i.dot.nbatch = n->nb;
    i.dot.ncontract = n->nc;
    for (int k = 0; k < n->nb; k++) {
        i.dot.lhs_batch[k] = n->lb[k];
        i.dot.rhs_batch[k] = n->rb[k];
    }
    for (int k = 0; k < n->nc; k++) {
        i.dot.lhs_contract[k] = n->lc[k];
        i.dot.rhs_contract[k] = n->rc[k];
    }
    if ((st = ss__lower_emit_kernel(s, v, 2, in, &out_l, &i, &out)))
        return st;
    ss__lower_add_version(s, v, out, &out_l);
    return SS_OK;
}
