/*
 * reshard.c — the resharding planner: from a source layout to a target
 * layout in the fewest, cheapest collectives the rules of docs/gspmd.md 4.1
 * allow (see reshard.h for the rules and the byte model).
 *
 * The planner works on a small "layout" value rather than on ss_sharding:
 * per array dim the list of mesh axes (indices, major first) that split it,
 * and the set of partial axes. Axes of size 1 are dropped on reading, since
 * they split nothing and sum nothing. Every emitted step records the layout
 * before and after it, written back as an ss_sharding over the source mesh.
 *
 * Devices are compared across meshes through "classes": a device's class is
 * the block it holds (its tile index per dim) and the index of its term
 * within its pending sum. Two layouts with the same tile counts and term
 * counts have classes of equal sizes, so a bijection within classes is a
 * valid collective-permute; the planner prefers self pairs.
 */
#include "spmd/reshard.h"

#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[SS__RESHARD_KIND_COUNT] = {
    "all_reduce", "reduce_scatter", "all_to_all", "all_gather", "dynamic_slice",
    "collective_permute",
};

const char *ss__reshard_kind_name(ss__reshard_kind kind)
{
    return (unsigned)kind < SS__RESHARD_KIND_COUNT ? kind_names[kind] : "?";
}

/* --- Layouts ------------------------------------------------------------ */

typedef struct layout {
    int n[SS_MAX_RANK];
    int ax[SS_MAX_RANK][SS_MAX_AXES];
    unsigned partial; /* bit a: pending sum over mesh axis a */
    unsigned manual;  /* bit a: manual axis (one program instance per coordinate) */
} layout;

static int64_t axis_size(const ss_mesh *m, int a) { return ss_mesh_axis_size(m, a); }

/* Read `sh` as a layout over mesh `m`, matching axes by name (sizes must
 * agree) and dropping axes of size 1. false if an axis of size > 1 has no
 * counterpart in `m`. The sharding must have passed ss_sharding_check. */
static bool layout_read(const ss_sharding *sh, int rank, const ss_mesh *m, layout *out)
{
    const ss_mesh *own = sh->mesh;
    memset(out, 0, sizeof *out);
    for (int d = 0; d < sh->spec.ndims && d < rank; d++) {
        const ss_spec_dim *sd = &sh->spec.dims[d];
        for (int k = 0; k < sd->naxes; k++) {
            int64_t size = axis_size(own, ss_mesh_axis_index(own, sd->axes[k]));
            if (size == 1)
                continue;
            int a = ss_mesh_axis_index(m, sd->axes[k]);
            if (a < 0 || axis_size(m, a) != size)
                return false;
            out->ax[d][out->n[d]++] = a;
        }
    }
    for (int b = 0; b < ss_mesh_axis_count(own); b++) {
        if (!((sh->partial_mask >> b) & 1u) || axis_size(own, b) == 1)
            continue;
        int a = ss_mesh_axis_index(m, ss_mesh_axis_name(own, b));
        if (a < 0 || axis_size(m, a) != axis_size(own, b))
            return false;
        out->partial |= 1u << a;
    }
    /* Manual axes exist only when both meshes have the same axes (checked
     * by the planner), so indices carry over. */
    out->manual = sh->manual_mask;
    return true;
}

static void layout_write(const layout *l, const ss_mesh *m, int rank, unsigned manual,
                         ss_sharding *out)
{
    ss_sharding_init(out, m, NULL);
    out->spec.ndims = rank;
    for (int d = 0; d < rank; d++) {
        out->spec.dims[d].naxes = l->n[d];
        for (int k = 0; k < l->n[d]; k++)
            out->spec.dims[d].axes[k] = ss_mesh_axis_name(m, l->ax[d][k]);
    }
    out->manual_mask = manual;
    out->partial_mask = l->partial;
}

static bool layout_equal(const layout *a, const layout *b, int rank)
{
    if (a->partial != b->partial)
        return false;
    for (int d = 0; d < rank; d++) {
        if (a->n[d] != b->n[d])
            return false;
        for (int k = 0; k < a->n[d]; k++)
            if (a->ax[d][k] != b->ax[d][k])
                return false;
    }
    return true;
}

static int64_t tiles_of(const layout *l, const ss_mesh *m, int d)
{
    int64_t t = 1;
    for (int k = 0; k < l->n[d]; k++)
        t *= axis_size(m, l->ax[d][k]);
    return t;
}

static int64_t terms_of(const layout *l, const ss_mesh *m)
{
    int64_t t = 1;
    for (int a = 0; a < ss_mesh_axis_count(m); a++)
        if ((l->partial >> a) & 1u)
            t *= axis_size(m, a);
    return t;
}

/* Same tile count on every dim and the same number of terms per sum. */
static bool same_tiling(const layout *a, const ss_mesh *ma, const layout *b, const ss_mesh *mb,
                        int rank)
{
    for (int d = 0; d < rank; d++)
        if (tiles_of(a, ma, d) != tiles_of(b, mb, d))
            return false;
    return terms_of(a, ma) == terms_of(b, mb);
}

/* Length of the common prefix of dim d's axis lists. */
static int common_prefix(const layout *a, const layout *b, int d)
{
    int k = 0;
    while (k < a->n[d] && k < b->n[d] && a->ax[d][k] == b->ax[d][k])
        k++;
    return k;
}

static bool is_prefix(const layout *a, const layout *b, int d)
{
    return common_prefix(a, b, d) == a->n[d];
}

/* The tile index of the device with coordinates `c` along dim d. */
static int64_t block_of(const layout *l, const ss_mesh *m, const int64_t c[], int d)
{
    int64_t b = 0;
    for (int k = 0; k < l->n[d]; k++)
        b = b * axis_size(m, l->ax[d][k]) + c[l->ax[d][k]];
    return b;
}

/* The mesh coordinates of the position after the one in c (row-major,
 * the last axis fastest): an odometer, so walking every position costs no
 * division. */
static void next_coords(int naxes, const int64_t sizes[], int64_t c[])
{
    for (int a = naxes - 1; a >= 0; a--) {
        if (++c[a] < sizes[a])
            return;
        c[a] = 0;
    }
}

/* Class of every device (indexed by id): its manual coordinates (data never
 * crosses program instances), its block flattened over the dims, and its
 * term index (partial axes in mesh order), as one mixed-radix number. */
static void classes_of(const layout *l, const ss_mesh *m, int rank, int cls[])
{
    int naxes = ss_mesh_axis_count(m);
    int64_t c[SS_MAX_AXES] = {0}, sizes[SS_MAX_AXES], tiles[SS_MAX_RANK];
    for (int a = 0; a < naxes; a++)
        sizes[a] = axis_size(m, a);
    for (int d = 0; d < rank; d++)
        tiles[d] = tiles_of(l, m, d);
    int64_t terms = terms_of(l, m);
    for (int p = 0; p < ss_mesh_device_count(m); p++, next_coords(naxes, sizes, c)) {
        int64_t key = 0, term = 0;
        for (int a = 0; a < naxes; a++)
            if ((l->manual >> a) & 1u)
                key = key * sizes[a] + c[a];
        for (int d = 0; d < rank; d++) {
            int64_t b = 0;
            for (int k = 0; k < l->n[d]; k++)
                b = b * sizes[l->ax[d][k]] + c[l->ax[d][k]];
            key = key * tiles[d] + b;
        }
        for (int a = 0; a < naxes; a++)
            if ((l->partial >> a) & 1u)
                term = term * sizes[a] + c[a];
        cls[ss_mesh_device_id(m, p)] = (int)(key * terms + term);
    }
}

/* Do layouts `a` (mesh am) and `b` (mesh bm) give every device the same
 * class without computing them? (The same mesh and the same layout.) */
static bool same_classes_trivially(const layout *a, const ss_mesh *am, const layout *b,
                                   const ss_mesh *bm, int rank)
{
    return am == bm && a->manual == b->manual && layout_equal(a, b, rank);
}

/* --- Planner state and step emission ------------------------------------ */

typedef struct planner {
    ss__reshard_plan *plan;
    const ss_mesh *m; /* the source mesh: every collective's axes */
    layout cur;       /* where the data is now, over m */
} planner;

static void local_of(const planner *p, const layout *l, const ss_mesh *m, int64_t out[])
{
    for (int d = 0; d < p->plan->rank; d++)
        out[d] = p->plan->shape[d] / tiles_of(l, m, d);
}

static double local_bytes(const ss__reshard_plan *plan, const int64_t local[])
{
    double n = (double)ss_dtype_size(plan->dtype);
    for (int d = 0; d < plan->rank; d++)
        n *= (double)local[d];
    return n;
}

/* Start a step from the current layout. */
static ss__reshard_step *step_open(planner *p, ss__reshard_kind kind)
{
    ss__reshard_plan *plan = p->plan;
    /* Bounded by construction: see SS__RESHARD_MAX_STEPS. */
    assert(plan->nsteps < SS__RESHARD_MAX_STEPS);
    ss__reshard_step *st = &plan->steps[plan->nsteps++];
    memset(st, 0, sizeof *st);
    st->kind = kind;
    st->mesh = p->m;
    layout_write(&p->cur, p->m, plan->rank, plan->src.manual_mask, &st->before);
    local_of(p, &p->cur, p->m, st->local_before);
    return st;
}

/* Groups of devices differing only in the coordinates of st->axes, each in
 * rank order (first axis major), rows by their other coordinates. */
static ss_status fill_groups(ss__reshard_step *st)
{
    const ss_mesh *m = st->mesh;
    int ndev = ss_mesh_device_count(m), na = ss_mesh_axis_count(m);
    bool in[SS_MAX_AXES] = {false};
    int64_t n = 1, c[SS_MAX_AXES];
    for (int k = 0; k < st->naxes; k++) {
        in[st->axes[k]] = true;
        n *= axis_size(m, st->axes[k]);
    }
    st->group_size = (int)n;
    st->ngroups = (int)(ndev / n);
    st->groups = malloc(sizeof(int) * (size_t)ndev);
    if (!st->groups)
        return ss__fail(SS_ERR_NOMEM, "reshard: out of host memory for replica groups");
    /* The axes that number the groups: not in the step, size > 1 (a
     * MaxText mesh has a dozen axes, most of size 1). */
    int64_t sizes[SS_MAX_AXES];
    int rows[SS_MAX_AXES], nrows = 0;
    for (int a = 0; a < na; a++) {
        sizes[a] = axis_size(m, a);
        c[a] = 0;
        if (!in[a] && sizes[a] > 1)
            rows[nrows++] = a;
    }
    for (int p = 0; p < ndev; p++, next_coords(na, sizes, c)) {
        int64_t r = 0, g = 0;
        for (int k = 0; k < st->naxes; k++)
            r = r * sizes[st->axes[k]] + c[st->axes[k]];
        for (int k = 0; k < nrows; k++)
            g = g * sizes[rows[k]] + c[rows[k]];
        st->groups[g * n + r] = ss_mesh_device_id(m, p);
    }
    return SS_OK;
}

/* Finish a step whose effect is already in p->cur (or, with `to` non-NULL,
 * a step that lands on the target itself). Every device sends `bytes`
 * unless the step fills st->sent itself (`bytes` < 0). */
static ss_status step_close(planner *p, ss__reshard_step *st, double bytes,
                            const ss_sharding *to)
{
    ss__reshard_plan *plan = p->plan;
    if (to) {
        layout tl;
        st->after = *to;
        layout_read(to, plan->rank, to->mesh, &tl);
        local_of(p, &tl, to->mesh, st->local_after);
    } else {
        layout_write(&p->cur, p->m, plan->rank, plan->src.manual_mask, &st->after);
        local_of(p, &p->cur, p->m, st->local_after);
    }
    if (!st->sent)
        st->sent = calloc((size_t)plan->ndevices, sizeof(double));
    if (!st->sent)
        return ss__fail(SS_ERR_NOMEM, "reshard: out of host memory for the byte counts");
    if (st->naxes && st->kind != SS__RESHARD_DYNAMIC_SLICE) {
        ss_status s = fill_groups(st);
        if (s)
            return s;
    }
    if (bytes > 0) {
        for (int i = 0; i < plan->ndevices; i++)
            st->sent[i] = bytes;
        st->max_sent = bytes;
        st->nsenders = plan->ndevices;
    }
    return SS_OK;
}

static void push_axis(ss__reshard_step *st, int a) { st->axes[st->naxes++] = a; }

static int64_t group_size_of(const planner *p, const ss__reshard_step *st)
{
    int64_t n = 1;
    for (int k = 0; k < st->naxes; k++)
        n *= axis_size(p->m, st->axes[k]);
    return n;
}

/* --- Phase 1: pending sums ---------------------------------------------- */

static ss_status resolve_partials(planner *p, const layout *aim)
{
    int rank = p->plan->rank;
    unsigned todo = p->cur.partial & ~aim->partial;
    /* Reduce-scatter where the target appends partial axes right after a
     * dim's current axes: the sum lands already split. */
    for (int d = 0; d < rank && todo; d++) {
        if (!is_prefix(&p->cur, aim, d))
            continue;
        int k = p->cur.n[d];
        if (k >= aim->n[d] || !((todo >> aim->ax[d][k]) & 1u))
            continue;
        ss__reshard_step *st = step_open(p, SS__RESHARD_REDUCE_SCATTER);
        st->dim = d;
        while (k < aim->n[d] && ((todo >> aim->ax[d][k]) & 1u)) {
            int a = aim->ax[d][k++];
            push_axis(st, a);
            todo &= ~(1u << a);
            p->cur.partial &= ~(1u << a);
            p->cur.ax[d][p->cur.n[d]++] = a;
        }
        int64_t n = group_size_of(p, st);
        double in = local_bytes(p->plan, st->local_before);
        ss_status s = step_close(p, st, ss_coll_ring_bytes(SS_COLL_REDUCE_SCATTER, n, in), NULL);
        if (s)
            return s;
    }
    if (!todo)
        return SS_OK;
    ss__reshard_step *st = step_open(p, SS__RESHARD_ALL_REDUCE);
    for (int a = 0; a < ss_mesh_axis_count(p->m); a++)
        if ((todo >> a) & 1u)
            push_axis(st, a);
    p->cur.partial &= ~todo;
    int64_t n = group_size_of(p, st);
    double buf = local_bytes(p->plan, st->local_before);
    return step_close(p, st, ss_coll_ring_bytes(SS_COLL_ALL_REDUCE, n, buf), NULL);
}

/* --- Phase 2: moves by all-to-all --------------------------------------- */

/* Find a dim i whose misplaced minor-most axes T are what the target wants
 * right after dim j's current axes; move the longest such T. */
static bool find_move(const planner *p, const layout *aim, int *from, int *to, int *len)
{
    int rank = p->plan->rank;
    const layout *c = &p->cur;
    for (int i = 0; i < rank; i++) {
        int keep = common_prefix(c, aim, i);
        int excess = c->n[i] - keep;
        for (int j = 0; j < rank && excess > 0; j++) {
            if (j == i || !is_prefix(c, aim, j))
                continue;
            int room = aim->n[j] - c->n[j];
            for (int t = excess < room ? excess : room; t > 0; t--) {
                bool match = true;
                for (int k = 0; k < t && match; k++)
                    match = c->ax[i][c->n[i] - t + k] == aim->ax[j][c->n[j] + k];
                if (match) {
                    *from = i;
                    *to = j;
                    *len = t;
                    return true;
                }
            }
        }
    }
    return false;
}

static ss_status move_axes(planner *p, const layout *aim)
{
    int i, j, t;
    while (find_move(p, aim, &i, &j, &t)) {
        ss__reshard_step *st = step_open(p, SS__RESHARD_ALL_TO_ALL);
        st->dim = j;
        st->concat_dim = i;
        for (int k = 0; k < t; k++) {
            int a = p->cur.ax[i][p->cur.n[i] - t + k];
            push_axis(st, a);
            p->cur.ax[j][p->cur.n[j]++] = a;
        }
        p->cur.n[i] -= t;
        int64_t n = group_size_of(p, st);
        double in = local_bytes(p->plan, st->local_before);
        ss_status s = step_close(p, st, ss_coll_ring_bytes(SS_COLL_ALL_TO_ALL, n, in), NULL);
        if (s)
            return s;
    }
    return SS_OK;
}

/* --- Phase 3: removals by one all-gather -------------------------------- */

static ss_status gather_misplaced(planner *p, const layout *aim)
{
    int rank = p->plan->rank, total = 0;
    for (int d = 0; d < rank; d++)
        total += p->cur.n[d] - common_prefix(&p->cur, aim, d);
    if (!total)
        return SS_OK;
    ss__reshard_step *st = step_open(p, SS__RESHARD_ALL_GATHER);
    st->dim = -1;
    for (int d = 0; d < rank; d++) {
        int keep = common_prefix(&p->cur, aim, d);
        if (keep == p->cur.n[d])
            continue;
        if (st->dim < 0)
            st->dim = d;
        st->dim_axes[d] = p->cur.n[d] - keep;
        for (int k = keep; k < p->cur.n[d]; k++)
            push_axis(st, p->cur.ax[d][k]);
        p->cur.n[d] = keep;
    }
    int64_t n = group_size_of(p, st);
    int64_t out_local[SS_MAX_RANK];
    local_of(p, &p->cur, p->m, out_local);
    double out = local_bytes(p->plan, out_local);
    return step_close(p, st, ss_coll_ring_bytes(SS_COLL_ALL_GATHER, n, out), NULL);
}

/* --- Phases 4 and 5: slices and the device-order fix-up ------------------ */

/* The bijection from the devices of layout `fl` (mesh fm) to those of `tl`
 * (mesh tm) within classes, self pairs first, then in mesh order. Requires
 * same_tiling. pairs[2k], pairs[2k+1] for target position k. */
static ss_status permute_pairs(const layout *fl, const ss_mesh *fm, const layout *tl,
                               const ss_mesh *tm, int rank, int pairs[], int *nonself)
{
    int n = ss_mesh_device_count(fm);
    int *mem = malloc(sizeof(int) * (size_t)(6 * n + 1));
    if (!mem)
        return ss__fail(SS_ERR_NOMEM, "reshard: out of host memory for permute pairs");
    int *fcls = mem, *tcls = mem + n, *order = mem + 2 * n, *start = mem + 3 * n;
    int *used = mem + 4 * n + 1, *src = mem + 5 * n + 1;
    classes_of(fl, fm, rank, fcls);
    classes_of(tl, tm, rank, tcls);
    memset(start, 0, sizeof(int) * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        start[fcls[i] + 1]++;
    for (int c = 0; c < n; c++)
        start[c + 1] += start[c];
    for (int pos = 0; pos < n; pos++) {
        int id = ss_mesh_device_id(fm, pos);
        order[start[fcls[id]]++] = id; /* start[c] ends as the end of class c */
    }
    for (int c = n; c > 0; c--)
        start[c] = start[c - 1];
    start[0] = 0;
    memset(used, 0, sizeof(int) * (size_t)n);
    for (int pos = 0; pos < n; pos++) {
        int t = ss_mesh_device_id(tm, pos);
        src[pos] = fcls[t] == tcls[t] ? t : -1;
        if (src[pos] >= 0)
            used[t] = 1;
    }
    *nonself = 0;
    for (int pos = 0; pos < n; pos++) {
        int t = ss_mesh_device_id(tm, pos), c = tcls[t];
        if (src[pos] < 0) {
            while (used[order[start[c]]])
                start[c]++;
            src[pos] = order[start[c]];
            used[src[pos]] = 1;
            (*nonself)++;
        }
        pairs[2 * pos] = src[pos];
        pairs[2 * pos + 1] = t;
    }
    free(mem);
    return SS_OK;
}

/* Emit the collective-permute from the current layout to `dst` (nothing
 * when every pair is a self pair). */
static ss_status emit_permute(planner *p, const ss_sharding *dst, const layout *tl)
{
    ss__reshard_plan *plan = p->plan;
    int n = plan->ndevices, nonself;
    int *pairs = malloc(sizeof(int) * (size_t)(2 * n));
    if (!pairs)
        return ss__fail(SS_ERR_NOMEM, "reshard: out of host memory for permute pairs");
    ss_status s = SS_OK;
    nonself = 0;
    if (!same_classes_trivially(&p->cur, p->m, tl, dst->mesh, plan->rank))
        s = permute_pairs(&p->cur, p->m, tl, dst->mesh, plan->rank, pairs, &nonself);
    if (s || nonself == 0) {
        free(pairs);
        return s;
    }
    ss__reshard_step *st = step_open(p, SS__RESHARD_PERMUTE);
    st->npairs = n;
    st->pairs = pairs;
    st->sent = calloc((size_t)n, sizeof(double));
    if (!st->sent)
        return ss__fail(SS_ERR_NOMEM, "reshard: out of host memory for the byte counts");
    double l = local_bytes(plan, st->local_before);
    for (int k = 0; k < n; k++)
        if (pairs[2 * k] != pairs[2 * k + 1])
            st->sent[pairs[2 * k]] += l;
    for (int i = 0; i < n; i++) {
        st->nsenders += st->sent[i] > 0;
        if (st->sent[i] > st->max_sent)
            st->max_sent = st->sent[i];
    }
    p->cur = *tl; /* from here on the layout is over the target mesh */
    return step_close(p, st, -1, dst);
}

/* Every device's block under `tl` (mesh tm) lies inside the block it holds
 * now. */
static bool contains_target(const planner *p, const layout *tl, const ss_mesh *tm)
{
    int rank = p->plan->rank;
    int64_t c[SS_MAX_AXES];
    for (int pos = 0; pos < ss_mesh_device_count(tm); pos++) {
        int id = ss_mesh_device_id(tm, pos);
        int64_t ct[SS_MAX_AXES];
        ss_mesh_coords(tm, pos, ct);
        ss_mesh_coords(p->m, ss_mesh_position_of(p->m, id), c);
        for (int d = 0; d < rank; d++) {
            int64_t s = p->plan->shape[d];
            int64_t qt = tiles_of(&p->cur, p->m, d), tt = tiles_of(tl, tm, d);
            int64_t q0 = block_of(&p->cur, p->m, c, d) * (s / qt), q1 = q0 + s / qt;
            int64_t t0 = block_of(tl, tm, ct, d) * (s / tt), t1 = t0 + s / tt;
            if (t0 < q0 || t1 > q1)
                return false;
        }
    }
    return true;
}

static ss_status slice_and_place(planner *p, const layout *aim, bool named,
                                 const ss_sharding *dst, const layout *tl)
{
    ss__reshard_plan *plan = p->plan;
    int rank = plan->rank;
    /* Would slicing to `aim` still leave blocks on the wrong devices? */
    bool misplaced = !named || !same_tiling(aim, p->m, tl, dst->mesh, rank);
    if (!misplaced && !same_classes_trivially(aim, p->m, tl, dst->mesh, rank)) {
        int *pairs = malloc(sizeof(int) * (size_t)(2 * plan->ndevices));
        int nonself = 0;
        if (!pairs)
            return ss__fail(SS_ERR_NOMEM, "reshard: out of host memory for permute pairs");
        ss_status s = permute_pairs(aim, p->m, tl, dst->mesh, rank, pairs, &nonself);
        free(pairs);
        if (s)
            return s;
        misplaced = nonself > 0;
    }
    if (misplaced && p->cur.partial == 0 && tl->partial == 0 &&
        contains_target(p, tl, dst->mesh)) {
        /* Every device already holds its target block: slice straight into
         * the target layout (nothing to do if the blocks are the same). */
        if (same_tiling(&p->cur, p->m, tl, dst->mesh, rank))
            return SS_OK;
        ss__reshard_step *st = step_open(p, SS__RESHARD_DYNAMIC_SLICE);
        st->dim = 0;
        p->cur = *tl;
        return step_close(p, st, 0, dst);
    }
    if (!named)
        return ss__fail(SS_ERR_UNSUPPORTED, "reshard: no way to reach the target layout");
    if (!layout_equal(&p->cur, aim, rank)) {
        ss__reshard_step *st = step_open(p, SS__RESHARD_DYNAMIC_SLICE);
        st->dim = -1;
        for (int d = 0; d < rank; d++) {
            if (p->cur.n[d] == aim->n[d])
                continue;
            if (st->dim < 0)
                st->dim = d;
            st->dim_axes[d] = aim->n[d] - p->cur.n[d];
            for (int k = p->cur.n[d]; k < aim->n[d]; k++)
                push_axis(st, aim->ax[d][k]);
        }
        p->cur = *aim;
        ss_status s = step_close(p, st, 0, NULL);
        if (s)
            return s;
    }
    return misplaced ? emit_permute(p, dst, tl) : SS_OK;
}

/* --- The planner -------------------------------------------------------- */

static ss_status check_partial(const ss_sharding *sh, const char *which)
{
    for (int d = 0; d < sh->spec.ndims; d++)
        for (int k = 0; k < sh->spec.dims[d].naxes; k++) {
            int a = ss_mesh_axis_index(sh->mesh, sh->spec.dims[d].axes[k]);
            if (a >= 0 && ((sh->partial_mask >> a) & 1u))
                return ss__fail(SS_ERR_INVALID,
                                "reshard: %s axis '%s' is both partial and in the spec", which,
                                sh->spec.dims[d].axes[k]);
        }
    if (sh->partial_mask >> ss_mesh_axis_count(sh->mesh))
        return ss__fail(SS_ERR_INVALID, "reshard: %s partial mask names no mesh axis", which);
    return SS_OK;
}

/* Manual axes (a shard_map body) are supported when both sides have the
 * same ones over one mesh layout: then every device stays in its program
 * instance, and no collective or pair crosses instances. */
static bool same_manual(const ss_sharding *a, const ss_sharding *b)
{
    if (!a->manual_mask && !b->manual_mask)
        return true;
    const ss_mesh *x = a->mesh, *y = b->mesh;
    if (a->manual_mask != b->manual_mask || ss_mesh_axis_count(x) != ss_mesh_axis_count(y))
        return false;
    for (int i = 0; i < ss_mesh_axis_count(x); i++)
        if (strcmp(ss_mesh_axis_name(x, i), ss_mesh_axis_name(y, i)) ||
            axis_size(x, i) != axis_size(y, i))
            return false;
    for (int p = 0; p < ss_mesh_device_count(x); p++)
        if (ss_mesh_device_id(x, p) != ss_mesh_device_id(y, p))
            return false;
    return true;
}

static ss_status plan_steps(planner *p, const ss_sharding *src, const ss_sharding *dst)
{
    int rank = p->plan->rank;
    layout tl, aim;
    layout_read(dst, rank, dst->mesh, &tl);
    /* XLA's first choice: the same tiling on other devices is a permute. */
    if (same_tiling(&p->cur, src->mesh, &tl, dst->mesh, rank))
        return emit_permute(p, dst, &tl);
    bool named = layout_read(dst, rank, src->mesh, &aim);
    if (!named) {
        if (tl.partial)
            return ss__fail(SS_ERR_UNSUPPORTED,
                            "reshard: the target's partial axes do not exist in the source mesh");
        memset(&aim, 0, sizeof aim);
    } else if (aim.partial & ~p->cur.partial) {
        return ss__fail(SS_ERR_UNSUPPORTED,
                        "reshard: the target is partial over an axis the source is not (a "
                        "reshard never creates a pending sum)");
    }
    ss_status s = resolve_partials(p, &aim);
    if (!s)
        s = move_axes(p, &aim);
    if (!s)
        s = gather_misplaced(p, &aim);
    if (!s)
        s = slice_and_place(p, &aim, named, dst, &tl);
    return s;
}

ss_status ss__reshard_plan_make(const ss_sharding *src, const ss_sharding *dst, int rank,
                                const int64_t shape[], ss_dtype dtype, ss__reshard_plan *out)
{
    /* Everything but the steps (180 KB of them): step_open clears each step
     * it adds, and only steps[0..nsteps) are ever read. */
    memset(out, 0, offsetof(ss__reshard_plan, steps));
    if (!src || !dst || !src->mesh || !dst->mesh)
        return ss__fail(SS_ERR_INVALID, "reshard: missing sharding or mesh");
    if (ss_dtype_size(dtype) == 0)
        return ss__fail(SS_ERR_INVALID, "reshard: invalid dtype %d", (int)dtype);
    ss_status s = ss_sharding_check(src, rank, shape);
    if (!s)
        s = ss_sharding_check(dst, rank, shape);
    if (!s)
        s = check_partial(src, "source");
    if (!s)
        s = check_partial(dst, "target");
    if (s)
        return s;
    if (ss_mesh_device_count(src->mesh) != ss_mesh_device_count(dst->mesh))
        return ss__fail(SS_ERR_INVALID,
                        "reshard: the source mesh has %d devices but the target mesh %d",
                        ss_mesh_device_count(src->mesh), ss_mesh_device_count(dst->mesh));
    if (!same_manual(src, dst))
        return ss__fail(SS_ERR_UNSUPPORTED,
                        "reshard: source and target must have the same manual axes on the "
                        "same mesh");
    out->rank = rank;
    for (int d = 0; d < rank; d++)
        out->shape[d] = shape[d];
    out->dtype = dtype;
    out->src = *src;
    out->dst = *dst;
    out->ndevices = ss_mesh_device_count(src->mesh);

    planner p = {.plan = out, .m = src->mesh};
    layout_read(src, rank, src->mesh, &p.cur);
    s = plan_steps(&p, src, dst);
    if (s) {
        ss__reshard_plan_free(out);
        return s;
    }
    if (out->nsteps > 0)
        out->steps[out->nsteps - 1].after = *dst;
    return SS_OK;
}

void ss__reshard_plan_free(ss__reshard_plan *plan)
{
    if (!plan)
        return;
    for (int i = 0; i < plan->nsteps; i++) {
        free(plan->steps[i].groups);
        free(plan->steps[i].pairs);
        free(plan->steps[i].sent);
    }
    plan->nsteps = 0;
}

double ss__reshard_plan_sent(const ss__reshard_plan *plan, int device)
{
    double total = 0;
    if (device < 0 || device >= plan->ndevices)
        return 0;
    for (int i = 0; i < plan->nsteps; i++)
        total += plan->steps[i].sent[device];
    return total;
}

double ss__reshard_plan_gathered(const ss__reshard_plan *plan)
{
    double most = 0;
    for (int dev = 0; dev < plan->ndevices; dev++) {
        double g = 0;
        for (int i = 0; i < plan->nsteps; i++)
            if (plan->steps[i].kind == SS__RESHARD_ALL_GATHER)
                g += plan->steps[i].sent[dev];
        if (g > most)
            most = g;
    }
    return most;
}

/* --- Explain ------------------------------------------------------------ */

static void put_bytes(ss__buf *b, double v)
{
    if (v == (double)(int64_t)v)
        ss__buf_printf(b, "%lld B", (long long)v);
    else
        ss__buf_printf(b, "%.1f B", v);
}

static void put_axes(ss__buf *b, const ss__reshard_step *st)
{
    ss__buf_putc(b, '(');
    for (int k = 0; k < st->naxes; k++)
        ss__buf_printf(b, k ? ",'%s'" : "'%s'", ss_mesh_axis_name(st->mesh, st->axes[k]));
    ss__buf_puts(b, st->naxes == 1 ? ",)" : ")");
}

static void put_dims(ss__buf *b, const ss__reshard_step *st)
{
    int n = 0;
    for (int d = 0; d < SS_MAX_RANK; d++)
        n += st->dim_axes[d] > 0;
    ss__buf_puts(b, n > 1 ? " dims " : " dim ");
    for (int d = 0, k = 0; d < SS_MAX_RANK; d++)
        if (st->dim_axes[d] > 0)
            ss__buf_printf(b, k++ ? ",%d" : "%d", d);
}

/* A non-negative int in decimal, without printf (groups of thousands of
 * ids are written for every collective of a large mesh). */
static void put_id(ss__buf *b, int v)
{
    char digits[16];
    int n = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0 && n < (int)sizeof digits);
    while (n > 0)
        ss__buf_putc(b, digits[--n]);
}

/* The first 8 groups, each with its first 16 ids (then "...,LAST"): the
 * whole list is the ledger's, this is a line for a reader. */
static void put_groups(ss__buf *b, const ss__reshard_step *st)
{
    enum { shown = 8, ids_shown = 16 };
    ss__buf_puts(b, ", groups ");
    for (int g = 0; g < st->ngroups && g < shown; g++) {
        ss__buf_puts(b, g ? ",{" : "{");
        const int *ids = &st->groups[g * st->group_size];
        for (int r = 0; r < st->group_size; r++) {
            if (r)
                ss__buf_putc(b, ',');
            if (r == ids_shown && st->group_size > ids_shown + 1) {
                ss__buf_puts(b, "...,");
                r = st->group_size - 1;
            }
            put_id(b, ids[r]);
        }
        ss__buf_putc(b, '}');
    }
    if (st->ngroups > shown)
        ss__buf_printf(b, ",... (%d groups)", st->ngroups);
}

void ss__reshard_step_describe(const ss__reshard_step *st, ss__buf *b)
{
    ss__buf_puts(b, ss__reshard_kind_name(st->kind));
    switch (st->kind) {
    case SS__RESHARD_ALL_REDUCE:
    case SS__RESHARD_REDUCE_SCATTER:
    case SS__RESHARD_ALL_TO_ALL:
    case SS__RESHARD_ALL_GATHER:
        ss__buf_puts(b, " over ");
        put_axes(b, st);
        if (st->kind == SS__RESHARD_REDUCE_SCATTER)
            ss__buf_printf(b, " dim %d", st->dim);
        else if (st->kind == SS__RESHARD_ALL_TO_ALL)
            ss__buf_printf(b, " split dim %d concat dim %d", st->dim, st->concat_dim);
        else if (st->kind == SS__RESHARD_ALL_GATHER)
            put_dims(b, st);
        put_groups(b, st);
        ss__buf_puts(b, ": ");
        put_bytes(b, st->max_sent);
        ss__buf_puts(b, "/device");
        return;
    case SS__RESHARD_DYNAMIC_SLICE:
        if (st->naxes) {
            ss__buf_puts(b, " over ");
            put_axes(b, st);
            put_dims(b, st);
        } else {
            char spec[4096];
            if (ss_spec_repr(&st->after.spec, spec, sizeof spec) != SS_OK)
                strcpy(spec, "P(...)");
            ss__buf_printf(b, " into %s over the target mesh", spec);
        }
        ss__buf_puts(b, ": 0 B (local)");
        return;
    case SS__RESHARD_PERMUTE: {
        enum { shown = 16 };
        int moved = 0, self = 0;
        for (int k = 0; k < st->npairs; k++) {
            int s = st->pairs[2 * k], t = st->pairs[2 * k + 1];
            if (s == t) {
                self++;
            } else if (moved++ < shown) {
                ss__buf_printf(b, moved > 1 ? ", %d->%d" : " %d->%d", s, t);
            }
        }
        if (moved > shown)
            ss__buf_printf(b, ", ... (%d pairs)", moved);
        if (self)
            ss__buf_printf(b, " (%d self pair%s)", self, self == 1 ? "" : "s");
        ss__buf_puts(b, ": ");
        put_bytes(b, st->max_sent);
        ss__buf_printf(b, "/device on %d of %d devices", st->nsenders, st->npairs);
        return;
    }
    default:
        return;
    }
}

void ss__reshard_plan_describe(const ss__reshard_plan *plan, ss__buf *b)
{
    if (plan->nsteps == 0) {
        ss__buf_puts(b, "no communication\n");
        return;
    }
    for (int i = 0; i < plan->nsteps; i++) {
        const ss__reshard_step *st = &plan->steps[i];
        char spec[4096];
        if (ss_spec_repr(&st->after.spec, spec, sizeof spec) != SS_OK)
            strcpy(spec, "P(...)");
        ss__buf_printf(b, "%d. ", i + 1);
        ss__reshard_step_describe(st, b);
        ss__buf_printf(b, "\n   -> %s", spec);
        if (st->after.partial_mask) {
            ss__buf_puts(b, " partial (");
            for (int a = 0, k = 0; a < ss_mesh_axis_count(st->after.mesh); a++)
                if ((st->after.partial_mask >> a) & 1u)
                    ss__buf_printf(b, k++ ? ",'%s'" : "'%s'",
                                   ss_mesh_axis_name(st->after.mesh, a));
            ss__buf_putc(b, ')');
        }
        ss__buf_puts(b, ", local ");
        ss__buf_int_tuple(b, plan->rank, st->local_after);
        ss__buf_putc(b, '\n');
    }
}
