/*
 * manual.c — shard_map regions: per-device code with explicit collectives.
 *
 * ss_shard_map_begin turns global values into their per-device blocks (by
 * in_specs); ops built until ss_shard_map_end work on block shapes, and the
 * collective builders here (psum, all_gather, psum_scatter, all_to_all,
 * ppermute) move data between devices exactly as written — the partitioner
 * leaves the region alone. ss_shard_map_end assembles blocks into global
 * values by out_specs. Every mesh axis is manual inside (a fully manual
 * shard_map); shapes and errors of the collectives are the runtime's own,
 * JAX's wording included.
 */
#include "graph.h"

#include <stdlib.h>
#include <string.h>

ss_coll ss__node_coll(const ss_program *p, const ss__node *n)
{
    ss_coll c = n->coll;
    c.mesh = p->mesh;
    c.pairs = n->pairs_at >= 0 ? (const int (*)[2])p->pairs[n->pairs_at] : NULL;
    return c;
}

ss_status ss__region_cross(ss_program *p, ss__opcode op, ss_value x, const ss__layout *fixed,
                           bool unchecked, ss_value *out)
{
    const ss__node *xn = &p->nodes[x];
    ss__node m;
    memset(&m, 0, sizeof m);
    m.op = op;
    m.dtype = xn->dtype;
    m.rank = xn->rank;
    m.in[m.nin++] = x;
    m.fixed = *fixed;
    m.unchecked = unchecked;
    for (int d = 0; d < xn->rank; d++) {
        int64_t t = ss__layout_dim_tiles(fixed, p->mesh, d);
        m.shape[d] = op == SS__OP_MANUAL_IN ? xn->shape[d] / t : xn->shape[d] * t;
    }
    return ss__program_add(p, &m, out);
}

unsigned ss__all_axes(const ss_program *p)
{
    return (1u << ss_mesh_axis_count(p->mesh)) - 1u;
}

unsigned ss__coll_axes(const ss_program *p, const ss__node *n)
{
    unsigned m = 0;
    for (int a = 0; a < n->coll.naxes; a++) {
        int k = ss_mesh_axis_index(p->mesh, n->coll.axes[a]);
        if (k >= 0)
            m |= 1u << k;
    }
    return m;
}

ss_status ss_shard_map_begin(ss_program *p, int n, const ss_value xs[], const ss_spec specs[],
                             ss_value locals[])
{
    if (p->in_manual)
        return ss__fail(SS_ERR_UNSUPPORTED, "shard_map: regions do not nest");
    for (int k = 0; k < n; k++) {
        const ss__node *x = ss__program_node(p, xs[k], "shard_map");
        if (!x)
            return SS_ERR_INVALID;
        ss__layout fixed;
        ss_status st = ss__layout_from_spec(p->mesh, &specs[k], x->rank, &fixed);
        if (st)
            return ss__fail(st, "shard_map in_specs[%d]: %s", k, ss_error_message());
        for (int d = 0; d < x->rank; d++) {
            int64_t t = ss__layout_dim_tiles(&fixed, p->mesh, d);
            if (x->shape[d] % t != 0) {
                char spec[4096];
                ss_spec_repr(&specs[k], spec, sizeof spec);
                return ss__fail(SS_ERR_INDIVISIBLE,
                                "shard_map: argument %d of shape dim %d (of size %lld) is split "
                                "%lld ways by in_specs %s, which does not evenly divide it",
                                k, d, (long long)x->shape[d], (long long)t, spec);
            }
        }
        p->in_manual = true;
        st = ss__region_cross(p, SS__OP_MANUAL_IN, xs[k], &fixed, false, &locals[k]);
        if (st) {
            p->in_manual = k > 0;
            return st;
        }
    }
    p->in_manual = true;
    return SS_OK;
}

unsigned ss__manual_invariant(const ss_program *p, unsigned inv[], int *known, ss_value v)
{
    unsigned all = ss__all_axes(p);
    for (; *known <= v; (*known)++) {
        const ss__node *n = &p->nodes[*known];
        unsigned m = all;
        if (n->manual && n->op == SS__OP_MANUAL_IN) {
            m = all & ~ss__layout_used(&n->fixed);
        } else if (n->manual && n->op == SS__OP_COLLECTIVE) {
            unsigned a = ss__coll_axes(p, n);
            m = n->sub == SS_COLL_ALL_REDUCE || n->invariant_out ? inv[n->in[0]] | a
                                                                 : inv[n->in[0]] & ~a;
        } else if (n->manual) {
            for (int k = 0; k < n->nin; k++)
                m &= inv[n->in[k]];
        }
        inv[*known] = m;
    }
    return inv[v];
}

/* "('a', 'b')" or "'a'": the mesh axes of mask m. */
static void axes_list(const ss_mesh *mesh, unsigned m, char *buf, size_t cap)
{
    int count = 0;
    for (int a = 0; a < ss_mesh_axis_count(mesh); a++)
        count += (m >> a) & 1u;
    size_t at = (size_t)snprintf(buf, cap, count > 1 ? "(" : "");
    bool first = true;
    for (int a = 0; a < ss_mesh_axis_count(mesh) && at < cap; a++)
        if ((m >> a) & 1u) {
            at += (size_t)snprintf(buf + at, cap - at, "%s'%s'", first ? "" : ", ",
                                   ss_mesh_axis_name(mesh, a));
            first = false;
        }
    if (count > 1 && at < cap)
        snprintf(buf + at, cap - at, ")");
}

/* JAX's check_vma at the exit: an out_spec that leaves mesh axes unmentioned
 * claims the block is the same along them, which must be inferable. */
static ss_status check_vma(ss_program *p, int k, unsigned have, const ss_spec *spec,
                           const ss__layout *fixed)
{
    unsigned repl = ss__all_axes(p) & ~ss__layout_used(fixed);
    if (!(repl & ~have))
        return SS_OK;
    char text[4096], claimed[160], inferred[160];
    ss_spec_repr(spec, text, sizeof text);
    axes_list(p->mesh, repl, claimed, sizeof claimed);
    axes_list(p->mesh, repl & have, inferred, sizeof inferred);
    int count = 0;
    for (int a = 0; a < ss_mesh_axis_count(p->mesh); a++)
        count += (repl >> a) & 1u;
    return ss__fail(SS_ERR_INVALID,
                    "shard_map was given out_specs which require replication which can't be "
                    "statically inferred: out_specs[%d] is %s which implies that the "
                    "corresponding output value is replicated across mesh ax%s %s, but could "
                    "%s%s; psum it over those axes, or pass check_vma=False",
                    k, text, count > 1 ? "es" : "is", claimed,
                    repl & have ? "only infer replication over " : "not infer replication over "
                                                                  "any axes",
                    repl & have ? inferred : "");
}

static ss_status map_end(ss_program *p, int n, const ss_value locals[], const ss_spec specs[],
                         bool check, ss_value outs[])
{
    if (!p->in_manual)
        return ss__fail(SS_ERR_INVALID, "shard_map_end: no shard_map region is open");
    /* The variance of the region's values, inferred once for all results
     * (the exits added below come after every value queried). */
    unsigned *inv = check ? malloc(sizeof(unsigned) * (size_t)(p->n ? p->n : 1)) : NULL;
    if (check && !inv)
        return ss__fail(SS_ERR_NOMEM, "shard_map: out of host memory");
    int known = 0;
    ss_status st = SS_OK;
    for (int k = 0; k < n && !st; k++) {
        const ss__node *x = ss__program_node(p, locals[k], "shard_map_end");
        if (!x) {
            st = SS_ERR_INVALID;
            break;
        }
        ss__layout fixed;
        if ((st = ss__layout_from_spec(p->mesh, &specs[k], x->rank, &fixed))) {
            st = ss__fail(st, "shard_map out_specs[%d]: %s", k, ss_error_message());
            break;
        }
        if (check &&
            (st = check_vma(p, k, ss__manual_invariant(p, inv, &known, locals[k]), &specs[k],
                            &fixed)))
            break;
        st = ss__region_cross(p, SS__OP_MANUAL_OUT, locals[k], &fixed, !check, &outs[k]);
    }
    free(inv);
    if (!st)
        p->in_manual = false;
    return st;
}

ss_status ss_shard_map_end(ss_program *p, int n, const ss_value locals[], const ss_spec specs[],
                           ss_value outs[])
{
    return map_end(p, n, locals, specs, true, outs);
}

ss_status ss_shard_map_end_unchecked(ss_program *p, int n, const ss_value locals[],
                                     const ss_spec specs[], ss_value outs[])
{
    return map_end(p, n, locals, specs, false, outs);
}

/* Add a collective node for the prepared descriptor `c` applied to x. */
static ss_status add_collective(ss_program *p, ss_value x, ss_coll *c, int npairs,
                                const int pairs[][2], ss_value *out)
{
    const ss__node *a = ss__program_node(p, x, ss_coll_kind_name(c->kind));
    if (!a)
        return SS_ERR_INVALID;
    if (!p->in_manual)
        return ss__fail(SS_ERR_INVALID,
                        "Found an unbound axis name: %s. To fix this, please call %s under "
                        "`jax.shard_map`.",
                        c->naxes ? c->axes[0] : "?", ss_coll_kind_name(c->kind));
    c->mesh = p->mesh;
    c->dtype = a->dtype;
    c->rank = a->rank;
    memcpy(c->shape, a->shape, sizeof c->shape);
    c->npairs = npairs;
    c->pairs = pairs;
    ss__node n;
    memset(&n, 0, sizeof n);
    n.op = SS__OP_COLLECTIVE;
    n.sub = c->kind;
    ss_status st = ss_coll_output(c, &n.dtype, &n.rank, n.shape);
    if (st)
        return st;
    n.in[n.nin++] = x;
    n.pairs_at = -1;
    if (npairs) {
        void *grown = ss__grow(p->pairs, &p->pairs_cap, p->npairs + npairs, sizeof *p->pairs, 64);
        if (!grown)
            return ss__fail(SS_ERR_NOMEM, "ppermute: out of host memory");
        p->pairs = grown;
        n.pairs_at = p->npairs;
        memcpy(p->pairs[p->npairs], pairs, sizeof(int[2]) * (size_t)npairs);
        p->npairs += npairs;
    }
    n.coll = *c;
    n.coll.pairs = NULL;
    n.coll.mesh = NULL;
    st = ss__program_add(p, &n, out);
    if (st && npairs)
        p->npairs -= npairs;
    return st;
}

static ss_status coll_begin(ss_coll *c, ss_coll_kind kind, const ss_program *p, const char *axes)
{
    int64_t none[1] = {1};
    return ss_coll_init(c, kind, p->mesh, axes, SS_F32, 1, none);
}

ss_status ss_psum(ss_program *p, ss_value x, const char *axes, ss_reduce_op op, ss_value *out)
{
    ss_coll c;
    ss_status st = coll_begin(&c, SS_COLL_ALL_REDUCE, p, axes);
    if (st)
        return st;
    c.op = op;
    return add_collective(p, x, &c, 0, NULL, out);
}

ss_status ss_all_gather(ss_program *p, ss_value x, const char *axes, int axis, int tiled,
                        ss_value *out)
{
    ss_coll c;
    ss_status st = coll_begin(&c, SS_COLL_ALL_GATHER, p, axes);
    if (st)
        return st;
    c.axis = axis;
    c.tiled = tiled;
    return add_collective(p, x, &c, 0, NULL, out);
}

ss_status ss_all_gather_invariant(ss_program *p, ss_value x, const char *axes, int axis,
                                  int tiled, ss_value *out)
{
    ss_status st = ss_all_gather(p, x, axes, axis, tiled, out);
    if (!st)
        p->nodes[*out].invariant_out = true;
    return st;
}

ss_status ss_psum_scatter(ss_program *p, ss_value x, const char *axes, int dim, int tiled,
                          ss_value *out)
{
    ss_coll c;
    ss_status st = coll_begin(&c, SS_COLL_REDUCE_SCATTER, p, axes);
    if (st)
        return st;
    c.axis = dim;
    c.tiled = tiled;
    return add_collective(p, x, &c, 0, NULL, out);
}

ss_status ss_all_to_all(ss_program *p, ss_value x, const char *axes, int split_axis,
                        int concat_axis, int tiled, ss_value *out)
{
    ss_coll c;
    ss_status st = coll_begin(&c, SS_COLL_ALL_TO_ALL, p, axes);
    if (st)
        return st;
    c.split_axis = split_axis;
    c.concat_axis = concat_axis;
    c.tiled = tiled;
    return add_collective(p, x, &c, 0, NULL, out);
}

ss_status ss_ppermute(ss_program *p, ss_value x, const char *axes, int npairs,
                      const int pairs[][2], ss_value *out)
{
    ss_coll c;
    ss_status st = coll_begin(&c, SS_COLL_PERMUTE, p, axes);
    if (st)
        return st;
    if (npairs < 0 || (npairs > 0 && !pairs))
        return ss__fail(SS_ERR_INVALID, "ppermute: %d pairs", npairs);
    return add_collective(p, x, &c, npairs, pairs, out);
}

/* iota(n) as an f32 global array, doubling: [0], [0, 1], [0..3], ... then
 * sliced to n (log2(n) concatenations of constants). */
static ss_status global_iota(ss_program *p, int64_t n, ss_value *out)
{
    ss_value zero, cur;
    int64_t one[1] = {1};
    ss_status st = ss_constant(p, 0.0, &zero);
    if (!st)
        st = ss_reshape(p, zero, 1, one, &cur);
    for (int64_t len = 1; !st && len < n; len *= 2) {
        ss_value k, shifted, both[2];
        if (!(st = ss_constant(p, (double)len, &k)) &&
            !(st = ss_binary(p, SS_ADD, cur, k, &shifted))) {
            both[0] = cur;
            both[1] = shifted;
            st = ss_concatenate(p, 2, both, 0, &cur);
        }
    }
    int64_t len = 1;
    while (len < n)
        len *= 2;
    if (!st && len != n) {
        int64_t start[1] = {0}, limit[1] = {n};
        st = ss_slice(p, cur, start, limit, &cur);
    }
    if (!st)
        *out = cur;
    return st;
}

ss_status ss_axis_index(ss_program *p, const char *axes, ss_value *out)
{
    ss_coll c;
    int64_t none[1] = {1};
    ss_status st = ss_coll_init(&c, SS_COLL_ALL_REDUCE, p->mesh, axes, SS_F32, 1, none);
    if (st)
        return ss__fail(st, "axis_index: %s", ss_error_message());
    if (!p->in_manual)
        return ss__fail(SS_ERR_INVALID,
                        "Found an unbound axis name: %s. To fix this, please call axis_index "
                        "under `jax.shard_map`.",
                        c.naxes ? c.axes[0] : "?");
    int64_t n = 1;
    ss_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.ndims = 1;
    for (int a = 0; a < c.naxes; a++) {
        int k = ss_mesh_axis_index(p->mesh, c.axes[a]);
        if (k < 0)
            return ss__fail(SS_ERR_INVALID, "axis_index: unbound axis name: %s (not an axis of "
                                            "the mesh)", c.axes[a]);
        n *= ss_mesh_axis_size(p->mesh, k);
        spec.dims[0].axes[spec.dims[0].naxes++] = ss_mesh_axis_name(p->mesh, k);
    }
    /* The global iota, built outside the region, enters it split over the
     * axes: each device's block is its own index. */
    int n0 = p->n;
    p->in_manual = false;
    ss_value iota = -1;
    st = global_iota(p, n, &iota);
    p->in_manual = true;
    ss__layout fixed;
    ss_value block = -1;
    if (!st)
        st = ss__layout_from_spec(p->mesh, &spec, 1, &fixed);
    if (!st)
        st = ss__region_cross(p, SS__OP_MANUAL_IN, iota, &fixed, false, &block);
    if (!st)
        st = ss_reshape(p, block, 0, none, out);
    if (st) {
        p->n = n0;
        free(p->layouts);
        p->layouts = NULL;
    }
    return st;
}
