/*
 * vjp_manual.c — the cotangent rules of shard_map regions (JAX's
 * device-variance rules), collectives and loops (the VJP column of
 * ops.def; autodiff.c runs the sweep).
 */
#include "autodiff_internal.h"

#include <stdlib.h>
#include <string.h>

/* --- shard_map regions ---------------------------------------------------- */
/*
 * Inside a region values are per-device blocks. JAX types each one with the
 * mesh axes it varies over (JEP 17111, check_vma) and its transposes follow
 * the types: psum (varying -> invariant) transposes to pvary (no
 * communication), an invariant value used by varying code was implicitly
 * pvary'd and so gets its cotangent psum'd, a replicated in_spec's
 * cotangent is summed over the devices that shared the input. Here the
 * types are inferred (an invariant mask per value) and the same rules
 * applied: psum/pmean -> identity (scaled), ppermute -> the inverse pairs,
 * all_to_all -> split and concat swapped, psum_scatter <-> all_gather
 * (lax.all_gather's result varies over the axes, as in JAX; psum and
 * all_gather_invariant make a block invariant, the latter transposing to
 * each device's own slice), the region's exit -> an entry with the same
 * spec and the entry -> an exit, and every cotangent psum'd over the axes
 * its primal is invariant over but it is not. pmax/pmin are refused, with
 * JAX's own error (it has no rule for them either).
 */

static bool grow_inv(ss__ad *s, int need)
{
    if (need <= s->inv_cap)
        return true;
    void *g = ss__grow(s->inv, &s->inv_cap, need, sizeof *s->inv, 256);
    if (!g)
        return false;
    s->inv = g;
    return true;
}

/* The axes value v is the same on every device along (graph.h). */
static unsigned invariant(ss__ad *s, ss_value v)
{
    if (!grow_inv(s, s->p->n))
        return 0; /* out of memory: treat as varying (more psums, never wrong values) */
    return ss__manual_invariant(s->p, s->inv, &s->known, v);
}

/* Give value v (just built) the mask m instead of the inferred one. */
static void set_invariant(ss__ad *s, ss_value v, unsigned m)
{
    invariant(s, v);
    s->inv[v] = m;
}

/* psum of c over the mesh axes in `axes` (inside the region). */
static ss_status psum_axes(ss__ad *s, ss_value c, unsigned axes, ss_value *out)
{
    ss__buf text;
    ss__buf_init(&text);
    for (int a = 0; a < ss_mesh_axis_count(s->p->mesh); a++)
        if ((axes >> a) & 1u)
            ss__buf_printf(&text, text.len ? ",%s" : "%s", ss_mesh_axis_name(s->p->mesh, a));
    ss_status st = text.oom ? ss__fail(SS_ERR_NOMEM, "psum: out of host memory")
                            : ss_psum(s->p, c, text.data ? text.data : "", SS_REDUCE_SUM, out);
    ss__buf_free(&text);
    return st;
}

/* The transpose of an implicit pvary: a cotangent c flowing into a block u
 * that is invariant over axes c varies over is summed over them. */
ss_status ss__ad_unvary(ss__ad *s, ss_value u, ss_value *c)
{
    unsigned missing = invariant(s, u) & ~invariant(s, *c);
    if (!s->p->nodes[u].manual || !missing)
        return SS_OK;
    return psum_axes(s, *c, missing, c);
}

/* A copy of x (a no-op the partitioner keeps local), to carry a type. */
static ss_status retype(ss_program *p, ss_value x, ss_value *out)
{
    const ss__node *n = &p->nodes[x];
    int64_t shape[SS_MAX_RANK];
    memcpy(shape, n->shape, sizeof shape);
    return ss_reshape(p, x, n->rank, shape, out);
}

/* The transpose of all_gather_invariant: each device slices its own block
 * of the (invariant) cotangent g, with no communication. Written as the
 * region's exit and re-entry: g (with a leading dim for the axes it varies
 * over, B) leaves by P(B) and comes back split over the gather axes too,
 * which the partitioner lowers to a local slice. */
static ss_status own_block(ss__ad *s, const ss__node *n, ss_value g, ss_value *gx)
{
    ss_program *p = s->p;
    const ss__node *x = &p->nodes[n->in[0]], *gn = &p->nodes[g];
    int rank = gn->rank, gd = n->coll.axis;
    if (gd < 0)
        gd += x->rank + (n->coll.tiled ? 0 : 1);
    unsigned vary = ss__all_axes(p) & ~invariant(s, g);
    ss_spec out_spec, in_spec;
    memset(&out_spec, 0, sizeof out_spec);
    out_spec.ndims = 1;
    for (int a = 0; a < ss_mesh_axis_count(p->mesh); a++)
        if ((vary >> a) & 1u)
            out_spec.dims[0].axes[out_spec.dims[0].naxes++] = ss_mesh_axis_name(p->mesh, a);
    in_spec = out_spec;
    in_spec.ndims = 2 + gd;
    for (int k = 0; k < n->coll.naxes; k++)
        in_spec.dims[1 + gd].axes[in_spec.dims[1 + gd].naxes++] = n->coll.axes[k];
    int64_t shape[SS_MAX_RANK + 1];
    shape[0] = 1;
    memcpy(shape + 1, gn->shape, sizeof(int64_t) * (size_t)rank);
    ss_value lifted = -1, global = -1, block = -1;
    ss__layout out_fixed, in_fixed;
    ss_status st = ss_reshape(p, g, rank + 1, shape, &lifted);
    if (!st)
        st = ss__layout_from_spec(p->mesh, &out_spec, rank + 1, &out_fixed);
    if (!st)
        st = ss__region_cross(p, SS__OP_MANUAL_OUT, lifted, &out_fixed, false, &global);
    if (!st)
        st = ss__layout_from_spec(p->mesh, &in_spec, rank + 1, &in_fixed);
    if (!st)
        st = ss__region_cross(p, SS__OP_MANUAL_IN, global, &in_fixed, false, &block);
    if (st)
        return st;
    int64_t xs[SS_MAX_RANK];
    memcpy(xs, x->shape, sizeof xs);
    return ss_reshape(p, block, x->rank, xs, gx);
}

/* The region's exit. */
ss_status ss__vjp_manual_out(ss__ad *s, const ss__node *np, ss_value v, ss_value g,
                             const bool want[], ss_value gin[])
{
    (void)v, (void)want;
    ss_program *p = s->p;
    const ss__node n = *np;
    ss_value *gx = &gin[0];
    if (n.unchecked)
        return ss__fail(SS_ERR_UNSUPPORTED, "differentiating a shard_map with "
                                            "check_vma=False is not supported (its "
                                            "transposes need the replication it does not "
                                            "check)");
    /* The exit's transpose is an entry with the same spec; an out_spec
     * replicated over axes the block varies over is what check_vma
     * rejects in JAX (the forward keeps replica 0's block). */
    unsigned repl = ss__all_axes(p) & ~ss__layout_used(&n.fixed);
    if (repl & ~invariant(s, n.in[0]))
        return ss__fail(SS_ERR_UNSUPPORTED, "shard_map out_specs replicate over mesh axes "
                                            "the result varies over (JAX's check_vma "
                                            "rejects it); psum or all_gather it first");
    p->in_manual = true;
    return ss__region_cross(p, SS__OP_MANUAL_IN, g, &n.fixed, false, gx);
}

/* The region's entry. */
ss_status ss__vjp_manual_in(ss__ad *s, const ss__node *np, ss_value v, ss_value g,
                            const bool want[], ss_value gin[])
{
    (void)v, (void)want;
    ss_program *p = s->p;
    const ss__node n = *np;
    ss_value *gx = &gin[0];
    ss_status st;
    /* The entry's transpose: sum over the devices that shared the
     * input (a replicated in_spec), then an exit with the same spec. */
    ss_value c = g;
    unsigned repl = ss__all_axes(p) & ~ss__layout_used(&n.fixed);
    p->in_manual = true;
    if ((repl & ~invariant(s, c)) && (st = psum_axes(s, c, repl & ~invariant(s, c), &c)))
        return st;
    st = ss__region_cross(p, SS__OP_MANUAL_OUT, c, &n.fixed, false, gx);
    p->in_manual = false;
    return st;
}

/* An explicit collective. */
static ss_status collective_transpose(ss__ad *s, const ss__node n, ss_value g, ss_value *gx,
                                      const char *text)
{
    ss_program *p = s->p;
    ss_status st;
    unsigned axes = ss__coll_axes(p, &n);
    switch ((ss_coll_kind)n.sub) {
    case SS_COLL_ALL_REDUCE:
        if (n.coll.op != SS_REDUCE_SUM && n.coll.op != SS_REDUCE_MEAN)
            return ss__fail(SS_ERR_UNSUPPORTED, "Differentiation rule for '%s' not implemented "
                                                "(as in JAX, jax-ml/jax#7167; stop_gradient its "
                                                "argument)",
                            n.coll.op == SS_REDUCE_MAX ? "pmax" : "pmin");
        /* pvary: the same values, now varying over the axes. */
        if (n.coll.op == SS_REDUCE_MEAN) {
            int64_t size = 1;
            for (int a = 0; a < ss_mesh_axis_count(p->mesh); a++)
                if ((axes >> a) & 1u)
                    size *= ss_mesh_axis_size(p->mesh, a);
            st = ss__ad_binc(p, SS_MUL, g, 1.0 / (double)size, gx);
        } else {
            st = retype(p, g, gx);
        }
        if (!st)
            set_invariant(s, *gx, invariant(s, g) & ~axes);
        return st;
    case SS_COLL_PERMUTE: {
        const int(*pairs)[2] = (const int(*)[2])p->pairs[n.pairs_at];
        int npairs = n.coll.npairs;
        int(*inv)[2] = malloc(sizeof *inv * (size_t)(npairs ? npairs : 1));
        if (!inv)
            return ss__fail(SS_ERR_NOMEM, "grad: out of host memory");
        for (int k = 0; k < npairs; k++) {
            inv[k][0] = pairs[k][1];
            inv[k][1] = pairs[k][0];
        }
        st = ss_ppermute(p, g, text, npairs, (const int(*)[2])inv, gx);
        free(inv);
        return st;
    }
    case SS_COLL_ALL_TO_ALL:
        return ss_all_to_all(p, g, text, n.coll.concat_axis, n.coll.split_axis, n.coll.tiled,
                             gx);
    case SS_COLL_REDUCE_SCATTER:
        return ss_all_gather(p, g, text, n.coll.axis, n.coll.tiled, gx);
    case SS_COLL_ALL_GATHER:
        if (n.invariant_out)
            return own_block(s, &n, g, gx);
        return ss_psum_scatter(p, g, text, n.coll.axis, n.coll.tiled, gx);
    default:
        return ss__fail(SS_ERR_UNSUPPORTED, "no cotangent rule for %s",
                        ss_coll_kind_name((ss_coll_kind)n.sub));
    }
}

ss_status ss__vjp_collective(ss__ad *s, const ss__node *np, ss_value v, ss_value g,
                             const bool want[], ss_value gin[])
{
    (void)v, (void)want;
    s->p->in_manual = true;
    ss__buf text; /* the axes as the builders take them: "a,b" */
    ss__buf_init(&text);
    for (int a = 0; a < np->coll.naxes; a++)
        ss__buf_printf(&text, a ? ",%s" : "%s", np->coll.axes[a]);
    ss_status st = text.oom ? ss__fail(SS_ERR_NOMEM, "grad: out of host memory")
                            : collective_transpose(s, *np, g, &gin[0], text.data ? text.data : "");
    ss__buf_free(&text);
    return st;
}

/* A loop result: a while has no transpose (JAX's _while_transpose_error);
 * a scan's results meet at the loop node, which the sweep reaches after
 * them (it precedes them), once all their cotangents are summed. */
ss_status ss__vjp_loop_result(ss__ad *s, const ss__node *n, ss_value v, ss_value g,
                              const bool want[], ss_value gin[])
{
    (void)v, (void)want, (void)gin;
    if (ss__node_loop(s->p, &s->p->nodes[n->in[0]])->cond)
        return ss__fail(SS_ERR_UNSUPPORTED,
                        "Reverse-mode differentiation does not work for lax.while_loop or "
                        "lax.fori_loop with dynamic start/stop values. Try using lax.scan, "
                        "or using fori_loop with static start/stop.");
    if (s->ct[n->in[0]] < 0)
        s->ct[n->in[0]] = g;
    return SS_OK;
}

/* A scan: its operands' cotangents from its results' (loop_grad.c). */
ss_status ss__vjp_loop(ss__ad *s, const ss__node *n, ss_value v, ss_value g, const bool want[],
                       ss_value gin[])
{
    (void)g;
    const ss__loop *l = ss__node_loop(s->p, n);
    ss_value cts[64];
    if (l->ncarry + l->nys > 64)
        return ss__fail(SS_ERR_UNSUPPORTED, "a loop with %d results", l->ncarry + l->nys);
    for (int k = 0; k < l->ncarry + l->nys; k++) {
        ss_value r = l->res[k];
        cts[k] = r <= s->top && s->needed[r] ? s->ct[r] : -1;
    }
    return ss__loop_vjp(s->p, v, cts, want, gin);
}
