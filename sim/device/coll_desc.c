/*
 * coll_desc.c — collective descriptors: parsing the axes, validating a
 * descriptor with JAX's wording, the per-device output shape, and the
 * replica group of a device (shared by the threaded collectives and the
 * naive reference, which must agree on what a collective means).
 */
#include "coll_internal.h"

#include <string.h>

static const char *const kind_names[SS_COLL_KIND_COUNT] = {
    "all_reduce", "all_gather", "reduce_scatter", "all_to_all", "collective_permute", "broadcast",
};

const char *ss_coll_kind_name(ss_coll_kind kind)
{
    if ((unsigned)kind >= SS_COLL_KIND_COUNT)
        return "?";
    return kind_names[kind];
}

static const char *op_name(ss_reduce_op op)
{
    switch (op) {
    case SS_REDUCE_SUM: return "sum";
    case SS_REDUCE_MAX: return "max";
    case SS_REDUCE_MIN: return "min";
    case SS_REDUCE_MEAN: return "mean";
    case SS_REDUCE_PROD: return "prod";
    case SS_REDUCE_AND: return "and";
    case SS_REDUCE_OR: return "or";
    }
    return "?";
}

ss_status ss_coll_init(ss_coll *c, ss_coll_kind kind, const ss_mesh *mesh, const char *axes,
                       ss_dtype dtype, int rank, const int64_t shape[])
{
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->mesh = mesh;
    c->dtype = dtype;
    if (rank < 0 || rank > SS_MAX_RANK)
        return ss__fail(SS_ERR_RANGE, "collective: rank %d is outside 0..%d (SS_MAX_RANK)", rank,
                        SS_MAX_RANK);
    c->rank = rank;
    for (int d = 0; d < rank; d++)
        c->shape[d] = shape[d];
    const char *p = axes ? axes : "";
    while (*p) {
        while (*p == ' ' || *p == '(' || *p == ')' || *p == ',' || *p == '\'' || *p == '"')
            p++;
        if (!*p)
            break;
        size_t n = 0;
        while (p[n] && p[n] != ' ' && p[n] != ',' && p[n] != ')' && p[n] != '\'' && p[n] != '"')
            n++;
        if (c->naxes == SS_MAX_AXES)
            return ss__fail(SS_ERR_RANGE, "collective axes '%s': more than %d axes (SS_MAX_AXES)",
                            axes, SS_MAX_AXES);
        ss_status st = ss__name_intern_n(p, n, &c->axes[c->naxes]);
        if (st)
            return st;
        c->naxes++;
        p += n;
    }
    return SS_OK;
}

/* Python's repr of a tuple of names: "('x', 'y')", "('x',)", "()". */
static void names_repr(int n, const char *const names[], char *out, size_t cap)
{
    ss__buf b;
    ss__buf_init(&b);
    ss__buf_putc(&b, '(');
    for (int i = 0; i < n; i++)
        ss__buf_printf(&b, i ? ", '%s'" : "'%s'", names[i]);
    if (n == 1)
        ss__buf_putc(&b, ',');
    ss__buf_putc(&b, ')');
    if (cap)
        snprintf(out, cap, "%s", b.data ? b.data : "()");
    ss__buf_free(&b);
}

void ss__coll_axes_text(const ss_coll *c, char *out, size_t cap)
{
    const char *names[SS_MAX_AXES];
    int n = c->naxes < 0 ? 0 : c->naxes > SS_MAX_AXES ? SS_MAX_AXES : c->naxes;
    for (int i = 0; i < n; i++)
        names[i] = c->axes[i];
    names_repr(n, names, out, cap);
}

ss_status ss_axes_repr(const ss_mesh *mesh, int naxes, const int axes[], char *out, size_t cap)
{
    const char *names[SS_MAX_AXES];
    if (cap)
        out[0] = '\0';
    if (!mesh || naxes < 0 || naxes > SS_MAX_AXES || (naxes && !axes))
        return ss__fail(SS_ERR_RANGE, "axes_repr: %d axes (at most %d, and a mesh)", naxes,
                        SS_MAX_AXES);
    for (int i = 0; i < naxes; i++) {
        if (axes[i] < 0 || axes[i] >= ss_mesh_axis_count(mesh))
            return ss__fail(SS_ERR_RANGE, "axes_repr: axis index %d, the mesh has %d axes",
                            axes[i], ss_mesh_axis_count(mesh));
        names[i] = ss_mesh_axis_name(mesh, axes[i]);
    }
    names_repr(naxes, names, out, cap);
    return SS_OK;
}

void ss__coll_describe(const ss_coll *c, char *out, size_t cap)
{
    char axes[128], shape[SS__SHAPE_TEXT_MAX];
    ss__coll_axes_text(c, axes, sizeof axes);
    ss__shape_text(shape, sizeof shape, c->dtype, c->rank, c->shape);
    const char *extra = "";
    if (c->kind == SS_COLL_ALL_REDUCE || c->kind == SS_COLL_REDUCE_SCATTER)
        extra = op_name(c->op);
    snprintf(out, cap, "%s%s%s %s over %s", ss_coll_kind_name(c->kind), *extra ? " " : "",
             extra, shape, axes);
}

/* Mesh axis indices of c->axes; JAX-like errors. */
static ss_status axis_indices(const ss_coll *c, int idx[])
{
    const ss_mesh *m = c->mesh;
    for (int i = 0; i < c->naxes; i++) {
        idx[i] = ss_mesh_axis_index(m, c->axes[i]);
        if (idx[i] < 0) {
            char axes[128];
            ss__coll_axes_text(c, axes, sizeof axes);
            ss__buf b;
            ss__buf_init(&b);
            ss__buf_puts(&b, "(");
            for (int a = 0; a < ss_mesh_axis_count(m); a++)
                ss__buf_printf(&b, a ? ", '%s'" : "'%s'", ss_mesh_axis_name(m, a));
            ss__buf_puts(&b, ss_mesh_axis_count(m) == 1 ? ",)" : ")");
            ss_status st = ss__fail(SS_ERR_AXIS,
                                    "Found an unbound axis name: %s (collective over %s; mesh "
                                    "axes %s)",
                                    c->axes[i], axes, b.data ? b.data : "?");
            ss__buf_free(&b);
            return st;
        }
        for (int j = 0; j < i; j++)
            if (idx[j] == idx[i])
                return ss__fail(SS_ERR_DUPLICATE, "collective names mesh axis '%s' twice",
                                c->axes[i]);
    }
    return SS_OK;
}

/* Size of the flattened axis (product of the named axes). */
static int64_t flat_size(const ss_coll *c, const int idx[])
{
    int64_t a = 1;
    for (int i = 0; i < c->naxes; i++)
        a *= ss_mesh_axis_size(c->mesh, idx[i]);
    return a;
}

ss_status ss__coll_group_size(const ss_coll *c, int *gsize)
{
    int idx[SS_MAX_AXES];
    ss_status st = axis_indices(c, idx);
    if (st)
        return st;
    int64_t a = flat_size(c, idx);
    if (!c->index_groups) {
        *gsize = (int)a;
        return SS_OK;
    }
    if (c->ngroups < 1 || c->group_size < 1 || (int64_t)c->ngroups * c->group_size != a)
        return ss__fail(SS_ERR_INVALID,
                        "axis_index_groups: %d groups of %d do not cover the axis size %lld",
                        c->ngroups, c->group_size, (long long)a);
    bool seen[SS_MAX_DEVICES] = {false};
    for (int i = 0; i < c->ngroups * c->group_size; i++) {
        int v = c->index_groups[i];
        if (v < 0 || v >= a || seen[v])
            return ss__fail(SS_ERR_INVALID,
                            "axis_index_groups: index %d is out of range or repeated (axis size "
                            "%lld)",
                            v, (long long)a);
        seen[v] = true;
    }
    *gsize = c->group_size;
    return SS_OK;
}

static bool reducible(ss_dtype dt)
{
#ifndef SS__HAVE_F16
    if (dt == SS_F16)
        return false;
#endif
    return dt != SS_BOOL;
}

static ss_status dim_error(const ss_coll *c, const char *what, int v, int lo, int hi)
{
    return ss__fail(SS_ERR_INVALID, "%s: %s %d is out of range [%d, %d] for an operand of rank %d",
                    ss_coll_kind_name(c->kind), what, v, lo, hi, c->rank);
}

ss_status ss_coll_output(const ss_coll *c, ss_dtype *dtype, int *rank, int64_t shape[])
{
    if (!c || !c->mesh)
        return ss__fail(SS_ERR_INVALID, "collective: no mesh");
    if ((unsigned)c->kind >= SS_COLL_KIND_COUNT)
        return ss__fail(SS_ERR_INVALID, "collective: unknown kind %d", (int)c->kind);
    if (ss_dtype_size(c->dtype) == 0)
        return ss__fail(SS_ERR_INVALID, "collective: invalid dtype %d", (int)c->dtype);
    if (c->rank < 0 || c->rank > SS_MAX_RANK || c->naxes < 0 || c->naxes > SS_MAX_AXES)
        return ss__fail(SS_ERR_RANGE, "collective: rank %d or axis count %d out of range",
                        c->rank, c->naxes);
    for (int d = 0; d < c->rank; d++)
        if (c->shape[d] < 0)
            return ss__fail(SS_ERR_INVALID, "collective: dimension %d has negative size %lld", d,
                            (long long)c->shape[d]);
    int G;
    ss_status st = ss__coll_group_size(c, &G);
    if (st)
        return st;
    int r = c->rank;
    int64_t s[SS_MAX_RANK + 1];
    for (int d = 0; d < r; d++)
        s[d] = c->shape[d];
    ss_dtype dt = c->dtype;
    switch (c->kind) {
    case SS_COLL_ALL_REDUCE:
    case SS_COLL_REDUCE_SCATTER:
        if ((unsigned)c->op > SS_REDUCE_MEAN)
            return ss__fail(SS_ERR_INVALID, "%s: unknown reduction %d", ss_coll_kind_name(c->kind),
                            (int)c->op);
        if (!reducible(dt))
            return ss__fail(SS_ERR_UNSUPPORTED, "%s: cannot reduce %s values",
                            ss_coll_kind_name(c->kind), ss_dtype_name(dt));
        if (c->kind == SS_COLL_ALL_REDUCE) {
            if (c->op == SS_REDUCE_MEAN && dt != SS_F32 && dt != SS_F64 && dt != SS_BF16 &&
                dt != SS_F16)
                dt = SS_F32;
            break;
        }
        if (c->op == SS_REDUCE_MEAN)
            return ss__fail(SS_ERR_UNSUPPORTED, "reduce_scatter: mean is not a psum_scatter");
        if (c->axis < 0 || c->axis >= r)
            return dim_error(c, "scatter_dimension", c->axis, 0, r - 1);
        if (c->tiled) {
            if (s[c->axis] % G != 0)
                return ss__fail(SS_ERR_INVALID,
                                "tiled reduce_scatter operand scatter dimension size %lld must "
                                "be divisible by shard_count %d",
                                (long long)s[c->axis], G);
            s[c->axis] /= G;
        } else {
            if (s[c->axis] != G)
                return ss__fail(SS_ERR_INVALID,
                                "reduce_scatter operand scatter dimension size %lld must match "
                                "shard count %d",
                                (long long)s[c->axis], G);
            for (int d = c->axis; d + 1 < r; d++)
                s[d] = s[d + 1];
            r--;
        }
        break;
    case SS_COLL_ALL_GATHER: {
        int a = c->axis;
        if (c->tiled) {
            if (a < 0)
                a += r;
            if (a < 0 || a >= r)
                return dim_error(c, "axis", c->axis, -r, r - 1);
            s[a] *= G;
        } else {
            if (a < 0)
                a += r + 1;
            if (a < 0 || a > r)
                return dim_error(c, "axis", c->axis, -(r + 1), r);
            for (int d = r; d > a; d--)
                s[d] = s[d - 1];
            s[a] = G;
            r++;
        }
        break;
    }
    case SS_COLL_ALL_TO_ALL: {
        int sp = c->split_axis, ca = c->concat_axis;
        if (sp < 0 || sp >= r)
            return dim_error(c, "split_axis", sp, 0, r - 1);
        if (c->tiled) {
            if (ca < 0 || ca >= r)
                return dim_error(c, "concat_axis", ca, 0, r - 1);
            if (s[sp] % G != 0) {
                char axes[128];
                ss__coll_axes_text(c, axes, sizeof axes);
                return ss__fail(SS_ERR_INVALID,
                                "The size of all_to_all split_axis (%lld) has to be divisible by "
                                "the size of the named axis %s (%d)",
                                (long long)s[sp], axes, G);
            }
            s[sp] /= G;
            s[ca] *= G;
        } else {
            if (ca < 0 || ca > r - 1)
                return dim_error(c, "concat_axis", ca, 0, r - 1);
            if (s[sp] != G)
                return ss__fail(SS_ERR_INVALID,
                                "all_to_all requires the size of the mapped axis axis_name to "
                                "equal x.shape[split_axis], but they are %d and %lld "
                                "respectively.",
                                G, (long long)s[sp]);
            for (int d = sp; d + 1 < r; d++)
                s[d] = s[d + 1];
            for (int d = r - 1; d > ca; d--)
                s[d] = s[d - 1];
            s[ca] = G;
        }
        break;
    }
    case SS_COLL_PERMUTE: {
        if (c->npairs < 0 || (c->npairs > 0 && !c->pairs))
            return ss__fail(SS_ERR_INVALID, "ppermute: %d pairs but no pair list", c->npairs);
        bool dup = false;
        for (int i = 0; i < c->npairs; i++) {
            for (int k = 0; k < 2; k++)
                if (c->pairs[i][k] < 0 || c->pairs[i][k] >= G)
                    return ss__fail(SS_ERR_INVALID,
                                    "ppermute: index %d of pair %d is outside the axis of size %d",
                                    c->pairs[i][k], i, G);
            for (int j = 0; j < i; j++)
                dup = dup || c->pairs[j][0] == c->pairs[i][0] || c->pairs[j][1] == c->pairs[i][1];
        }
        if (dup) {
            ss__buf b;
            ss__buf_init(&b);
            ss__buf_puts(&b, "ppermute sources and destinations must be unique, got (");
            for (int i = 0; i < c->npairs; i++)
                ss__buf_printf(&b, "%s(%d, %d)", i ? ", " : "", c->pairs[i][0], c->pairs[i][1]);
            ss__buf_puts(&b, c->npairs == 1 ? ",)." : ").");
            st = ss__fail(SS_ERR_INVALID, "%s", b.data ? b.data : "ppermute: duplicate pairs");
            ss__buf_free(&b);
            return st;
        }
        break;
    }
    case SS_COLL_BROADCAST:
        if (c->root < 0 || c->root >= G)
            return ss__fail(SS_ERR_INVALID, "broadcast: root %d is outside the group of %d",
                            c->root, G);
        break;
    case SS_COLL_KIND_COUNT:
        break;
    }
    if (dtype)
        *dtype = dt;
    if (rank)
        *rank = r;
    if (shape)
        for (int d = 0; d < r; d++)
            shape[d] = s[d];
    return SS_OK;
}

/* The G members (device ids, in rank order) of the group of mesh position
 * pos under c, whose axes' mesh indices are idx, and pos's rank in it: the
 * positions that differ from pos only in c's axes, ranked by those axes'
 * coordinates flattened in c's order (or by c's index groups). */
static int group_members(const ss_coll *c, const int idx[], int G, int pos, int members[])
{
    const ss_mesh *m = c->mesh;
    int na = ss_mesh_axis_count(m);
    int64_t coords[SS_MAX_AXES], sizes[SS_MAX_AXES], stride[SS_MAX_AXES];
    ss_mesh_coords(m, pos, coords);
    int64_t s = 1;
    for (int a = na - 1; a >= 0; a--) {
        sizes[a] = ss_mesh_axis_size(m, a);
        stride[a] = s;
        s *= sizes[a];
    }
    /* f: pos's flattened coordinate over c's axes; base: the position with
     * those coordinates 0. */
    int64_t f = 0, base = pos;
    for (int i = 0; i < c->naxes; i++) {
        f = f * sizes[idx[i]] + coords[idx[i]];
        base -= coords[idx[i]] * stride[idx[i]];
    }
    /* The flattened indices of my group, in rank order. */
    int64_t first = 0;
    int my_rank = (int)f;
    if (c->index_groups) {
        for (int i = 0; i < c->ngroups * c->group_size; i++)
            if (c->index_groups[i] == f) {
                first = i / c->group_size * c->group_size;
                my_rank = i % c->group_size;
            }
    }
    for (int r = 0; r < G; r++) {
        int64_t fi = c->index_groups ? c->index_groups[first + r] : r, p = base;
        for (int i = c->naxes - 1; i >= 0; i--) {
            p += fi % sizes[idx[i]] * stride[idx[i]];
            fi /= sizes[idx[i]];
        }
        members[r] = ss_mesh_device_id(m, (int)p);
    }
    return my_rank;
}

ss_status ss_coll_group(const ss_coll *c, int device, int members[], int cap, int *size,
                        int *rank)
{
    int G;
    ss_status st = ss__coll_group_size(c, &G);
    if (st)
        return st;
    const ss_mesh *m = c->mesh;
    int pos = ss_mesh_position_of(m, device);
    if (pos < 0)
        return ss__fail(SS_ERR_RANGE, "device %d is not in the collective's mesh", device);
    *size = G;
    if (cap < G)
        return ss__fail(SS_ERR_RANGE, "room for %d group members, the group has %d", cap, G);
    int idx[SS_MAX_AXES];
    axis_indices(c, idx);
    *rank = group_members(c, idx, G, pos, members);
    return SS_OK;
}

ss_status ss__coll_groups(const ss_coll *c, int ids[], int cap, int *ngroups, int *gsize)
{
    *ngroups = *gsize = 0;
    int G;
    ss_status st = ss__coll_group_size(c, &G);
    if (st)
        return st;
    int idx[SS_MAX_AXES];
    axis_indices(c, idx);
    const ss_mesh *m = c->mesh;
    int n = ss_mesh_device_count(m);
    bool seen[SS_MAX_DEVICES];
    memset(seen, 0, sizeof seen[0] * (size_t)n);
    int at = 0;
    for (int pos = 0; pos < n; pos++) {
        if (seen[pos])
            continue;
        if (at + G > cap)
            return ss__fail(SS_ERR_RANGE, "ledger groups: room for %d ids, need more", cap);
        group_members(c, idx, G, pos, ids + at);
        for (int r = 0; r < G; r++) {
            int p = ss_mesh_position_of(m, ids[at + r]);
            if (p >= 0)
                seen[p] = true;
        }
        at += G;
        *gsize = G;
        ++*ngroups;
    }
    return SS_OK;
}

size_t ss__shape_elems(int rank, const int64_t shape[])
{
    size_t n = 1;
    for (int d = 0; d < rank; d++)
        n *= (size_t)shape[d];
    return n;
}
