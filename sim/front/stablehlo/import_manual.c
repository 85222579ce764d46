/*
 * import_manual.c — shard_map as JAX lowers it (import.h): Shardy's
 * sdy.manual_computation region, GSPMD's @SPMDFullToShardShape /
 * @SPMDShardToFullShape custom calls around the manual ops, and the
 * collectives inside (all_reduce, all_gather, reduce_scatter, all_to_all,
 * collective_permute, partition_id) as shardsim's shard_map collectives.
 *
 * A collective names device groups (replica_groups, source_target_pairs);
 * shardsim's name mesh axes. The axes are found by trying ordered subsets
 * of the mesh axes, fewest first, until one gives exactly those groups
 * (each group's members in rank order) or, for a permute, a rank mapping
 * that is the same in every group. Deliberately refused: manual regions
 * over some of the mesh axes (shardsim's shard_map is manual on all),
 * groups no axes explain, reductions other than add/max/min.
 */
#include "front/stablehlo/import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ss_program *prog(ss__imp *im) { return im->sc->program; }

static bool is_target(const ss__mlir_op *op, const char *target)
{
    if (strcmp(op->name, "stablehlo.custom_call") != 0)
        return false;
    const ss__mlir_attr *t = ss__mlir_op_attr(op, "call_target_name");
    return t && t->kind == SS__MLIR_AT_STRING && t->len == strlen(target) &&
           memcmp(t->s, target, t->len) == 0;
}

/* --- Device groups as mesh axes ---------------------------------------------- */

typedef struct axes_try {
    const ss_mesh *mesh;
    int n, nax;
    int ax[SS_MAX_AXES];  /* the candidate, major first */
    int64_t *coords;      /* [device position][axis] */
} axes_try;

/* Rank of position p along the candidate axes, and its group key (the
 * row-major index over the other axes). */
static void rank_key(const axes_try *t, int p, int64_t *rank, int64_t *key)
{
    const int64_t *c = t->coords + (size_t)p * SS_MAX_AXES;
    int na = ss_mesh_axis_count(t->mesh);
    *rank = 0;
    for (int k = 0; k < t->nax; k++)
        *rank = *rank * ss_mesh_axis_size(t->mesh, t->ax[k]) + c[t->ax[k]];
    *key = 0;
    for (int a = 0; a < na; a++) {
        bool in = false;
        for (int k = 0; k < t->nax; k++)
            in = in || t->ax[k] == a;
        if (!in)
            *key = *key * ss_mesh_axis_size(t->mesh, a) + c[a];
    }
}

/* Do groups[ngroups][gsize] (device ids) equal the candidate's groups? */
static bool groups_match(const axes_try *t, const int64_t *ids, int ngroups, int gsize)
{
    int64_t size = 1;
    for (int k = 0; k < t->nax; k++)
        size *= ss_mesh_axis_size(t->mesh, t->ax[k]);
    if (size != gsize || (int64_t)ngroups * gsize != t->n)
        return false;
    for (int g = 0; g < ngroups; g++) {
        int64_t key0 = -1;
        for (int k = 0; k < gsize; k++) {
            int p = ss_mesh_position_of(t->mesh, (int)ids[(size_t)g * (size_t)gsize + (size_t)k]);
            int64_t rank, key;
            if (p < 0)
                return false;
            rank_key(t, p, &rank, &key);
            if (rank != k || (k && key != key0))
                return false;
            key0 = key;
        }
    }
    return true;
}

/* Permute pairs (device ids): the same (rank, rank) pairs in every group
 * that has any, each pair inside one group. out: the first group's pairs. */
static bool pairs_match(const axes_try *t, const int64_t *pairs, int npairs, int out[][2],
                        int *nout)
{
    int64_t key0 = -1;
    *nout = 0;
    for (int i = 0; i < npairs; i++) {
        int ps = ss_mesh_position_of(t->mesh, (int)pairs[2 * i]);
        int pt = ss_mesh_position_of(t->mesh, (int)pairs[2 * i + 1]);
        int64_t rs, ks, rt, kt;
        if (ps < 0 || pt < 0)
            return false;
        rank_key(t, ps, &rs, &ks);
        rank_key(t, pt, &rt, &kt);
        if (ks != kt)
            return false;
        if (key0 < 0)
            key0 = ks;
        if (ks == key0) {
            out[*nout][0] = (int)rs;
            out[(*nout)++][1] = (int)rt;
        }
    }
    /* every group repeats the first group's pairs */
    for (int i = 0; i < npairs; i++) {
        int ps = ss_mesh_position_of(t->mesh, (int)pairs[2 * i]);
        int pt = ss_mesh_position_of(t->mesh, (int)pairs[2 * i + 1]);
        int64_t rs, ks, rt, kt;
        rank_key(t, ps, &rs, &ks);
        rank_key(t, pt, &rt, &kt);
        bool found = false;
        for (int j = 0; j < *nout && !found; j++)
            found = out[j][0] == rs && out[j][1] == rt;
        if (!found)
            return false;
    }
    int64_t groups = 1;
    for (int a = 0; a < ss_mesh_axis_count(t->mesh); a++)
        groups *= ss_mesh_axis_size(t->mesh, a);
    for (int k = 0; k < t->nax; k++)
        groups /= ss_mesh_axis_size(t->mesh, t->ax[k]);
    return (int64_t)*nout * groups == npairs;
}

static bool next_perm(int *a, int n)
{
    int i = n - 2;
    while (i >= 0 && a[i] >= a[i + 1])
        i--;
    if (i < 0)
        return false;
    int j = n - 1;
    while (a[j] <= a[i])
        j--;
    int s = a[i];
    a[i] = a[j];
    a[j] = s;
    for (int l = i + 1, r = n - 1; l < r; l++, r--) {
        s = a[l];
        a[l] = a[r];
        a[r] = s;
    }
    return true;
}

/* The axes ("x" or "x,y") of groups (gsize > 0) or of permute pairs
 * (gsize == 0: ids holds npairs (source, target) pairs; pairs_out gets
 * them as ranks). An empty group list means every device. */
static bool find_axes(ss__imp *im, const ss__mlir_op *op, const int64_t *ids, int ngroups,
                      int gsize, int pairs_out[][2], int *npairs_out, char *axes, size_t cap)
{
    const ss_mesh *mesh = im->text_mesh; /* the module's device ids */
    axes_try t = {.mesh = mesh, .n = ss_mesh_device_count(mesh)};
    int na = ss_mesh_axis_count(mesh);
    if (!(t.coords = malloc(sizeof *t.coords * SS_MAX_AXES * (size_t)t.n)))
        return ss__imp_fail(im, NULL, "out of host memory");
    for (int p = 0; p < t.n; p++)
        ss_mesh_coords(mesh, p, t.coords + (size_t)p * SS_MAX_AXES);
    bool found = false;
    if (gsize > 0 && ngroups == 0) { /* replica_groups = [] : all devices */
        t.nax = na;
        for (int k = 0; k < na; k++)
            t.ax[k] = k;
        found = true;
    }
    for (int size = 1; !found && size <= na; size++)
        for (unsigned mask = 0; !found && mask < (1u << na); mask++) {
            if (__builtin_popcount(mask) != size)
                continue;
            t.nax = 0;
            for (int a = 0; a < na; a++)
                if (mask >> a & 1u)
                    t.ax[t.nax++] = a;
            do
                found = gsize > 0 ? groups_match(&t, ids, ngroups, gsize)
                                  : pairs_match(&t, ids, ngroups, pairs_out, npairs_out);
            while (!found && na <= 4 && next_perm(t.ax, t.nax));
        }
    free(t.coords);
    if (!found)
        return ss__imp_fail(im, op, "'%s': no mesh axes of %s make its device groups",
                            op->name, im->sc->mesh_text);
    size_t len = 0;
    axes[0] = '\0';
    for (int k = 0; k < t.nax; k++)
        len += (size_t)snprintf(axes + len, cap - len, "%s%s", k ? "," : "",
                                ss_mesh_axis_name(mesh, t.ax[k]));
    return true;
}

/* --- Collectives ------------------------------------------------------------------ */

/* The reduction of a collective's body region: add, max or min. */
static bool body_op(ss__imp *im, const ss__mlir_op *op, ss_reduce_op *out)
{
    const ss__mlir_block *b = op->nregions == 1 && op->regions[0]->nblocks == 1
                                  ? op->regions[0]->blocks[0] : NULL;
    const char *n = b && b->nops == 2 ? b->ops[0]->name : "";
    if (strcmp(n, "stablehlo.add") == 0)
        *out = SS_REDUCE_SUM;
    else if (strcmp(n, "stablehlo.maximum") == 0)
        *out = SS_REDUCE_MAX;
    else if (strcmp(n, "stablehlo.minimum") == 0)
        *out = SS_REDUCE_MIN;
    else
        return ss__imp_fail(im, op, "unsupported: '%s' reducing with '%s'", op->name,
                            *n ? n : "a body of several ops");
    return true;
}

static int64_t int_attr(const ss__mlir_op *op, const char *name, int64_t dflt)
{
    const ss__mlir_attr *a = ss__mlir_op_attr(op, name);
    return a && a->kind == SS__MLIR_AT_INT ? a->i : dflt;
}

/* A 2-D dense integer attribute: rows x cols values, malloc'd. */
static bool dense_2d(ss__imp *im, const ss__mlir_op *op, const char *name, int64_t **out,
                     int *rows, int *cols)
{
    const ss__mlir_attr *a = ss__mlir_op_attr(op, name);
    *out = NULL;
    *rows = *cols = 0;
    if (!a || a->kind != SS__MLIR_AT_DENSE || !a->type || a->type->rank != 2 ||
        a->type->dims[0] > SS_MAX_DEVICES || a->type->dims[1] > SS_MAX_DEVICES)
        return ss__imp_fail(im, op, "'%s': %s is a 2-D list of device ids", op->name, name);
    *rows = (int)a->type->dims[0];
    *cols = (int)a->type->dims[1];
    size_t n = (size_t)*rows * (size_t)*cols;
    if (!(*out = malloc(sizeof **out * (n ? n : 1))))
        return ss__imp_fail(im, NULL, "out of host memory");
    for (size_t k = 0; k < n; k++)
        (*out)[k] = ss__mlir_dense_i64(a, (int64_t)k);
    return true;
}

bool ss__imp_is_collective(const char *name)
{
    static const char *const names[] = {"stablehlo.all_reduce", "stablehlo.all_gather",
                                        "stablehlo.reduce_scatter", "stablehlo.all_to_all",
                                        "stablehlo.collective_permute", "stablehlo.partition_id"};
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        if (strcmp(names[k], name) == 0)
            return true;
    return false;
}

/* Room for every axis name of the module's meshes joined by commas. */
static size_t axes_text_cap(const ss__imp *im)
{
    size_t cap = 8;
    const ss_mesh *m[2] = {im->sc->mesh, im->text_mesh};
    for (int i = 0; i < 2; i++)
        for (int a = 0; m[i] && a < ss_mesh_axis_count(m[i]); a++)
            cap += strlen(ss_mesh_axis_name(m[i], a)) + 1;
    return cap;
}

static bool collective(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value *out,
                       char *all, char *axes, size_t cap);

bool ss__imp_collective(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value *out)
{
    size_t cap = axes_text_cap(im);
    char *all = calloc(2, cap);
    if (!all)
        return ss__imp_fail(im, op, "out of host memory");
    bool ok = collective(im, op, x, out, all, all + cap, cap);
    free(all);
    return ok;
}

/* ss__imp_collective with two buffers of `cap` bytes for axis lists. */
static bool collective(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value *out,
                       char *all, char *axes, size_t cap)
{
    ss_program *p = prog(im);
    const char *n = op->name;
    ss_status st;
    if (strcmp(n, "stablehlo.partition_id") == 0) {
        /* the device id: the row-major index over every axis of an iota mesh */
        if (!ss_mesh_is_iota(im->sc->mesh))
            return ss__imp_fail(im, op, "unsupported: partition_id on a mesh whose devices are "
                                        "not in iota order");
        size_t len = 0;
        for (int a = 0; a < ss_mesh_axis_count(im->sc->mesh); a++)
            len += (size_t)snprintf(all + len, cap - len, "%s%s", a ? "," : "",
                                    ss_mesh_axis_name(im->sc->mesh, a));
        st = ss_axis_index(p, all, out);
        if (!st)
            st = ss_convert(p, *out, SS_U32, out);
        return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", n, ss_error_message());
    }
    if (op->noperands != 1)
        return ss__imp_fail(im, op, "unsupported: '%s' of %d operands", n, op->noperands);
    bool permute = strcmp(n, "stablehlo.collective_permute") == 0;
    int64_t *ids;
    int rows, cols, pairs[SS_MAX_DEVICES][2], npairs = 0;
    if (!dense_2d(im, op, permute ? "source_target_pairs" : "replica_groups", &ids, &rows, &cols))
        return false;
    bool ok = permute ? cols == 2 || ss__imp_fail(im, op, "'%s': pairs of two ids", n) : true;
    if (ok && permute && rows > SS_MAX_DEVICES)
        ok = ss__imp_fail(im, op, "'%s': too many pairs", n);
    if (ok)
        ok = find_axes(im, op, ids, rows, permute ? 0 : (cols ? cols : 1), pairs, &npairs, axes,
                       cap);
    free(ids);
    if (!ok)
        return false;
    ss_reduce_op r = SS_REDUCE_SUM;
    if (strcmp(n, "stablehlo.all_reduce") == 0) {
        if (!body_op(im, op, &r))
            return false;
        st = ss_psum(p, x[0], axes, r, out);
    } else if (strcmp(n, "stablehlo.all_gather") == 0) {
        st = ss_all_gather(p, x[0], axes, (int)int_attr(op, "all_gather_dim", 0), 1, out);
    } else if (strcmp(n, "stablehlo.reduce_scatter") == 0) {
        if (!body_op(im, op, &r))
            return false;
        if (r != SS_REDUCE_SUM)
            return ss__imp_fail(im, op, "unsupported: a reduce_scatter that does not add");
        st = ss_psum_scatter(p, x[0], axes, (int)int_attr(op, "scatter_dimension", 0), 1, out);
    } else if (strcmp(n, "stablehlo.all_to_all") == 0) {
        st = ss_all_to_all(p, x[0], axes, (int)int_attr(op, "split_dimension", 0),
                           (int)int_attr(op, "concat_dimension", 0), 1, out);
    } else {
        st = ss_ppermute(p, x[0], axes, npairs, (const int(*)[2])pairs, out);
    }
    return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", n, ss_error_message());
}

/* --- Manual regions --------------------------------------------------------------- */

/* Is every mesh axis in manual_axes (absent: all are)? */
static bool all_manual(ss__imp *im, const ss__mlir_op *op)
{
    const ss__mlir_attr *m = ss__mlir_op_attr(op, "manual_axes");
    if (!m)
        return true;
    int n = ss_mesh_axis_count(im->sc->mesh);
    int seen = 0;
    for (int a = 0; a < n; a++) {
        const char *name = ss_mesh_axis_name(im->sc->mesh, a);
        bool in = false;
        for (int k = 0; m->kind == SS__MLIR_AT_ARRAY && k < m->n; k++) {
            const ss__mlir_attr *it = m->items[k];
            bool str = it->kind == SS__MLIR_AT_STRING;
            if ((str || it->kind == SS__MLIR_AT_SYMBOL) && it->s)
                in = in || ((str ? it->len : strlen(it->s)) == strlen(name) &&
                            memcmp(it->s, name, strlen(name)) == 0);
        }
        for (int k = 0; m->kind == SS__MLIR_AT_DICT && k < m->n; k++)
            in = in || strcmp(m->names[k], name) == 0;
        seen += in;
    }
    if (seen == n)
        return true;
    return ss__imp_fail(im, op, "unsupported: a shard_map manual over some mesh axes only "
                                "(shardsim's shard_map is manual over all of %s)",
                        im->sc->mesh_text);
}

/* A shard_map body's types are blocks of the module's mesh: --mesh cannot
 * re-plan it (JAX would trace the body again). */
static bool same_mesh(ss__imp *im, const ss__mlir_op *op)
{
    return im->text_mesh == im->sc->mesh ||
           ss__imp_fail(im, op, "unsupported: --mesh with a shard_map (its body's shapes are "
                                "per device of the module's own mesh)");
}

bool ss__imp_manual(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value res[])
{
    const ss__mlir_attr *ins = ss__mlir_op_attr(op, "in_shardings");
    const ss__mlir_attr *outs = ss__mlir_op_attr(op, "out_shardings");
    const ss__mlir_block *b = op->nregions == 1 && op->regions[0]->nblocks == 1
                                  ? op->regions[0]->blocks[0] : NULL;
    if (!ins || !outs || !b || b->nargs != op->noperands)
        return ss__imp_fail(im, op, "'%s': expected in_shardings, out_shardings and one block",
                            op->name);
    if (!all_manual(im, op) || !same_mesh(im, op))
        return false;
    int n = op->noperands, m = op->nresults;
    ss_spec *in_specs = calloc((size_t)n + 1, sizeof *in_specs);
    ss_spec *out_specs = calloc((size_t)m + 1, sizeof *out_specs);
    ss_value *locals = calloc((size_t)n + 1, sizeof *locals);
    ss_value *rets = calloc((size_t)m + 1, sizeof *rets);
    bool ok = in_specs && out_specs && locals && rets;
    if (!ok)
        ss__imp_fail(im, NULL, "out of host memory");
    for (int k = 0; ok && k < n; k++)
        ok = ss__imp_attr_spec(im, op, ins, k, op->operands[k]->type->rank, &in_specs[k]);
    for (int k = 0; ok && k < m; k++)
        ok = ss__imp_attr_spec(im, op, outs, k, op->results[k]->type->rank, &out_specs[k]);
    if (ok && ss_shard_map_begin(prog(im), n, x, in_specs, locals) != SS_OK)
        ok = ss__imp_fail(im, op, "'%s': %s", op->name, ss_error_message());
    for (int k = 0; ok && k < n; k++)
        ok = ss__imp_put(im, b->args[k], locals[k]);
    int nret = 0;
    if (ok)
        ok = ss__imp_block(im, b, rets, m, &nret);
    if (ok && nret != m)
        ok = ss__imp_fail(im, op, "'%s': the region returns %d values for %d results", op->name,
                          nret, m);
    /* JAX checked the region (check_vma) when it lowered it */
    if (ok && ss_shard_map_end_unchecked(prog(im), m, rets, out_specs, res) != SS_OK)
        ok = ss__imp_fail(im, op, "'%s': %s", op->name, ss_error_message());
    free(in_specs);
    free(out_specs);
    free(locals);
    free(rets);
    return ok;
}

/* GSPMD: a run of `@Sharding(x) {S}; @SPMDFullToShardShape {manual}` pairs
 * enters a manual region with those inputs and specs; a run of
 * `@Sharding(y) {manual}; @SPMDShardToFullShape {S}` pairs leaves it. */
bool ss__imp_gspmd_manual(ss__imp *im, const ss__mlir_block *b, int *i, bool *handled)
{
    *handled = false;
    const ss__mlir_op *op = b->ops[*i];
    bool enter = *i + 1 < b->nops && is_target(op, "Sharding") &&
                 is_target(b->ops[*i + 1], "SPMDFullToShardShape");
    bool leave = *i + 1 < b->nops && is_target(op, "Sharding") &&
                 is_target(b->ops[*i + 1], "SPMDShardToFullShape");
    if (!enter && !leave)
        return true;
    *handled = true;
    if (enter && !same_mesh(im, op))
        return false;
    const char *second = enter ? "SPMDFullToShardShape" : "SPMDShardToFullShape";
    int n = 0;
    while (*i + 2 * n + 1 < b->nops && is_target(b->ops[*i + 2 * n], "Sharding") &&
           is_target(b->ops[*i + 2 * n + 1], second))
        n++;
    ss_value *xs = calloc((size_t)n + 1, sizeof *xs), *ys = calloc((size_t)n + 1, sizeof *ys);
    ss_spec *specs = calloc((size_t)n + 1, sizeof *specs);
    bool ok = xs && ys && specs;
    if (!ok)
        ss__imp_fail(im, NULL, "out of host memory");
    for (int k = 0; ok && k < n; k++) {
        const ss__mlir_op *sh = b->ops[*i + 2 * k], *conv = b->ops[*i + 2 * k + 1];
        ok = sh->noperands == 1 && sh->nresults == 1 && conv->noperands == 1 &&
             conv->nresults == 1 && conv->operands[0] == sh->results[0];
        if (!ok) {
            ss__imp_fail(im, conv, "'%s': expected the result of the @Sharding before it",
                         second);
            break;
        }
        ok = (xs[k] = ss__imp_get(im, sh, sh->operands[0])) >= 0;
        const ss__mlir_op *spec_op = enter ? sh : conv;
        const ss__mlir_attr *a = ss__mlir_op_attr(spec_op, "mhlo.sharding");
        if (ok)
            ok = a ? ss__imp_attr_spec(im, spec_op, a, 0, enter ? sh->operands[0]->type->rank
                                                                : conv->results[0]->type->rank,
                                       &specs[k])
                   : ss__imp_fail(im, spec_op, "'%s': no mhlo.sharding", spec_op->name);
    }
    const ss__mlir_op *first = b->ops[*i];
    int before = ss_program_value_count(prog(im));
    if (ok && (enter ? ss_shard_map_begin(prog(im), n, xs, specs, ys)
                     : ss_shard_map_end_unchecked(prog(im), n, xs, specs, ys)) != SS_OK)
        ok = ss__imp_fail(im, first, "shard_map: %s", ss_error_message());
    if (ok)
        ok = ss__imp_built(im, first, SS_OK, before);
    for (int k = 0; ok && k < n; k++)
        ok = ss__imp_put(im, b->ops[*i + 2 * k]->results[0], xs[k]) &&
             ss__imp_put(im, b->ops[*i + 2 * k + 1]->results[0], ys[k]);
    free(xs);
    free(ys);
    free(specs);
    *i += 2 * n - 1; /* the caller's loop steps past the last */
    return ok;
}
