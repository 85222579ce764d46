/*
 * strategy_reshard.c — a strategy applied to arrays that already live on the
 * devices (the seed's update_model_sharding), and the shardings of the
 * optimizer state and an EMA copy that follow the parameters.
 *
 * ss_arrays_reshard moves a loaded state to new shardings as one operation
 * with bounded per-device memory (shardsim.h states the contract):
 *   1. every array is written over the target mesh (its spec as is when the
 *      meshes agree in names, sizes and device order, else through its HLO
 *      sharding) and compared block by block with its target: an array whose
 *      every device already holds its target block is kept (its shards are
 *      adopted by the result, nothing is copied);
 *   2. the others are sorted so that arrays that shrink go first and cut
 *      into batches; each batch is one program, input (laid out as the array
 *      is) -> with_sharding_constraint(target) -> output, compiled and
 *      planned before anything moves; a batch whose plan needs more than the
 *      staging bytes beyond its inputs is split (down to one array);
 *   3. the per-device peak of every batch (what is live now, plus earlier
 *      batches' growth, minus the batch's inputs, plus the batch's planned
 *      peak) is checked against the device capacity: measure, then move;
 *   4. the batches run with their inputs donated
 *      (ss_executable_run_arrays), so a batch's old shards are freed when it
 *      ends and its collectives go to the context's ledger.
 * Arrays are handed to a batch as views over the target mesh that share
 * their shards; the views and the donated arrays are emptied after the run
 * whatever its outcome, so no shard is ever freed twice.
 *
 * What it does not do: move between contexts, change dtypes, or overlap the
 * batches.
 */
#include "lower.h"

#include <stdlib.h>
#include <string.h>

ss_status ss_strategy_state_shardings(const ss_optim *o, int n, const ss_param_sharding params[],
                                      ss_param_sharding state[], ss_param_sharding ema[])
{
    if (!o || (unsigned)o->kind > SS_OPTIM_ADAMW || n < 0 || (n > 0 && !params))
        return ss__fail(SS_ERR_INVALID, "ss_strategy_state_shardings: bad arguments");
    int slots = o->kind == SS_OPTIM_SGD ? 0 : o->kind == SS_OPTIM_MOMENTUM ? 1 : 2;
    bool count = o->kind == SS_OPTIM_ADAM || o->kind == SS_OPTIM_ADAMW;
    if (!state && slots * n + count > 0)
        return ss__fail(SS_ERR_INVALID, "ss_strategy_state_shardings: state is NULL");
    /* ss_optim_state_inputs's order: slot by slot, one entry per param. */
    for (int s = 0; s < slots; s++)
        for (int i = 0; i < n; i++)
            state[s * n + i] = params[i];
    if (count) {
        ss_param_sharding *c = &state[slots * n];
        memset(c, 0, sizeof *c);
        c->rule = -1;
        c->reason = SS_REASON_NO_RULE;
        c->bytes_per_device = sizeof(float);
    }
    for (int i = 0; ema && i < n; i++)
        ema[i] = params[i];
    return SS_OK;
}

/* --- Resharding ------------------------------------------------------------ */

typedef struct item {
    ss_sharding src;   /* the array's layout over the target mesh */
    size_t old_bytes;  /* arena bytes of one shard now, and after */
    size_t new_bytes;
    bool keep;
    int batch;         /* -1 while unassigned */
} item;

static bool same_mesh_layout(const ss_mesh *a, const ss_mesh *b)
{
    if (a == b)
        return true;
    if (ss_mesh_axis_count(a) != ss_mesh_axis_count(b) ||
        ss_mesh_device_count(a) != ss_mesh_device_count(b))
        return false;
    for (int k = 0; k < ss_mesh_axis_count(a); k++)
        if (strcmp(ss_mesh_axis_name(a, k), ss_mesh_axis_name(b, k)) != 0 ||
            ss_mesh_axis_size(a, k) != ss_mesh_axis_size(b, k))
            return false;
    for (int p = 0; p < ss_mesh_device_count(a); p++)
        if (ss_mesh_device_id(a, p) != ss_mesh_device_id(b, p))
            return false;
    return true;
}

/* Every device's block of an array of `rank`/`shape` under x and y, by
 * device id: 1 if all are equal. */
static ss_status same_blocks(const ss_sharding *x, const ss_sharding *y, int rank,
                             const int64_t shape[], ss_dtype dtype, bool *equal)
{
    int nx = ss_mesh_device_count(x->mesh), ny = ss_mesh_device_count(y->mesh);
    *equal = false;
    if (nx != ny)
        return SS_OK;
    ss_shard *a = malloc(sizeof *a * (size_t)nx), *b = malloc(sizeof *b * (size_t)nx);
    ss_status st = a && b ? SS_OK : ss__fail(SS_ERR_NOMEM, "reshard: out of host memory");
    if (!st)
        st = ss_sharding_shards(x, rank, shape, dtype, a, nx);
    if (!st)
        st = ss_sharding_shards(y, rank, shape, dtype, b, nx);
    bool eq = !st;
    for (int p = 0; eq && p < nx; p++) {
        int q = ss_mesh_position_of(y->mesh, a[p].device);
        eq = q >= 0 && memcmp(a[p].start, b[q].start, sizeof(int64_t) * (size_t)rank) == 0 &&
             memcmp(a[p].stop, b[q].stop, sizeof(int64_t) * (size_t)rank) == 0;
    }
    *equal = eq;
    free(a);
    free(b);
    return st;
}

/* The array's layout written over `mesh`. */
static ss_status layout_over(const ss_array *a, int index, const ss_mesh *mesh, ss_sharding *out)
{
    const ss_sharding *sh = ss_array_sharding(a);
    int rank = ss_array_rank(a);
    if (same_mesh_layout(sh->mesh, mesh)) {
        ss_sharding_init(out, mesh, &sh->spec);
        return SS_OK;
    }
    char text[1024] = "";
    ss_hlo hlo;
    ss_status st = ss_sharding_to_hlo(sh, rank, text, sizeof text);
    if (!st && !(st = ss_hlo_parse(text, &hlo))) {
        st = ss_hlo_to_sharding(&hlo, mesh, rank, out);
        ss_hlo_free(&hlo);
    }
    bool eq = false;
    if (!st)
        st = same_blocks(sh, out, rank, ss_array_shape(a), ss_array_dtype(a), &eq);
    if (st || !eq) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", st ? ss_error_message() : "the blocks differ");
        return ss__fail(st ? st : SS_ERR_UNSUPPORTED,
                        "reshard: array %d's layout %s cannot be written over the target "
                        "mesh: %s", index, text, msg);
    }
    return SS_OK;
}

static size_t shard_arena_bytes(const ss_sharding *sh, const ss_array *a)
{
    int64_t local[SS_MAX_RANK];
    if (ss_sharding_shard_shape(sh, ss_array_rank(a), ss_array_shape(a), local) != SS_OK)
        return 0;
    size_t b = ss_dtype_size(ss_array_dtype(a));
    for (int d = 0; d < ss_array_rank(a); d++)
        b *= (size_t)local[d];
    return ss_device_buffer_bytes(b);
}

static ss_status check_inputs(ss_context *ctx, int n, ss_array *const arrays[],
                              const ss_sharding targets[], ss_array *out[])
{
    if (!ctx || n < 0 || (n > 0 && (!arrays || !targets || !out)))
        return ss__fail(SS_ERR_INVALID, "ss_arrays_reshard: bad arguments");
    const ss_mesh *mesh = n ? targets[0].mesh : NULL;
    for (int i = 0; i < n; i++) {
        out[i] = NULL;
        const ss_sharding *t = &targets[i];
        if (!arrays[i])
            return ss__fail(SS_ERR_INVALID, "reshard: array %d is NULL", i);
        if (ss__array_context(arrays[i]) != ctx)
            return ss__fail(SS_ERR_INVALID, "reshard: array %d lives in another context", i);
        const ss_sharding *src = ss_array_sharding(arrays[i]);
        if (src->partial_mask || src->manual_mask || t->partial_mask || t->manual_mask)
            return ss__fail(SS_ERR_INVALID, "reshard: array %d: partial or manual shardings "
                                            "cannot be resharded", i);
        if (!t->mesh || !same_mesh_layout(t->mesh, mesh))
            return ss__fail(SS_ERR_INVALID, "reshard: every target must use one mesh (target "
                                            "%d differs from target 0)", i);
        if (ss_mesh_device_count(t->mesh) != ss_context_device_count(ctx))
            return ss__fail(SS_ERR_INVALID, "reshard: the target mesh has %d devices but the "
                                            "context has %d", ss_mesh_device_count(t->mesh),
                            ss_context_device_count(ctx));
        ss_status st = ss_sharding_check(t, ss_array_rank(arrays[i]), ss_array_shape(arrays[i]));
        if (st) {
            char msg[1024];
            snprintf(msg, sizeof msg, "%s", ss_error_message());
            return ss__fail(st, "reshard: target %d: %s", i, msg);
        }
    }
    return SS_OK;
}

/* Compile batch `b`'s program: input -> constrain(target) -> output per
 * array, in the items' order. */
static ss_status build_batch(ss_array *const arrays[], const ss_sharding targets[],
                             const item *it, const int *order, int from, int to,
                             ss_program **prog, ss_executable **exe, ss_plan *plan)
{
    const ss_mesh *mesh = targets[order[from]].mesh;
    ss_status st = ss_program_create(mesh, prog);
    for (int k = from; k < to && !st; k++) {
        int i = order[k];
        const ss_array *a = arrays[i];
        char name[32];
        snprintf(name, sizeof name, "array %d", i);
        ss_value v, c;
        st = ss_input(*prog, name, ss_array_dtype(a), ss_array_rank(a), ss_array_shape(a),
                      &it[i].src.spec, &v);
        if (!st)
            st = ss_constrain(*prog, v, &targets[i].spec, &c);
        if (!st)
            st = ss_output(*prog, c, &targets[i].spec);
    }
    if (!st)
        st = ss_program_compile(*prog, exe);
    if (!st)
        st = ss_executable_plan(*exe, plan);
    return st;
}

typedef struct batch {
    int from, to;
    ss_program *prog;
    ss_executable *exe;
    ss_plan plan;
    size_t old_bytes, new_bytes; /* arena bytes of the batch's shards per device */
} batch;

static void free_batches(batch *b, int nb)
{
    for (int k = 0; b && k < nb; k++) {
        ss_executable_destroy(b[k].exe);
        ss_program_destroy(b[k].prog);
    }
    free(b);
}

static int cmp_growth(const void *x, const void *y, const item *it)
{
    int i = *(const int *)x, j = *(const int *)y;
    long long gi = (long long)it[i].new_bytes - (long long)it[i].old_bytes;
    long long gj = (long long)it[j].new_bytes - (long long)it[j].old_bytes;
    return gi != gj ? (gi < gj ? -1 : 1) : (i > j) - (i < j);
}

/* Insertion sort (n is a model's parameter count; no qsort_r in C11). */
static void sort_moves(int *order, int m, const item *it)
{
    for (int k = 1; k < m; k++) {
        int x = order[k], j = k;
        while (j > 0 && cmp_growth(&order[j - 1], &x, it) > 0) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = x;
    }
}

/* Cut the sorted moves into batches and plan them. */
static ss_status plan_batches(ss_array *const arrays[], const ss_sharding targets[], item *it,
                              const int *order, int m, size_t staging, batch **out, int *nout)
{
    batch *b = calloc((size_t)(m ? m : 1), sizeof *b);
    if (!b)
        return ss__fail(SS_ERR_NOMEM, "reshard: out of host memory");
    int nb = 0;
    ss_status st = SS_OK;
    for (int k = 0; k < m && !st;) {
        int to = k + 1;
        size_t grow = it[order[k]].new_bytes;
        while (to < m && grow + it[order[to]].new_bytes <= staging)
            grow += it[order[to++]].new_bytes;
        for (;;) {
            batch *x = &b[nb];
            memset(x, 0, sizeof *x);
            x->from = k;
            x->to = to;
            for (int q = k; q < to; q++) {
                x->old_bytes += it[order[q]].old_bytes;
                x->new_bytes += it[order[q]].new_bytes;
            }
            st = build_batch(arrays, targets, it, order, k, to, &x->prog, &x->exe, &x->plan);
            if (st)
                break;
            size_t extra = x->plan.peak_bytes > x->old_bytes ? x->plan.peak_bytes - x->old_bytes
                                                               : 0;
            if (extra <= staging || to - k == 1)
                break;
            ss_executable_destroy(x->exe);
            ss_program_destroy(x->prog);
            x->exe = NULL;
            x->prog = NULL;
            to = k + (to - k) / 2;
        }
        if (st)
            break;
        for (int q = k; q < to; q++)
            it[order[q]].batch = nb;
        nb++;
        k = to;
    }
    if (st) {
        free_batches(b, nb + 1);
        return st;
    }
    *out = b;
    *nout = nb;
    return SS_OK;
}

/* Measure before moving: every device's peak through the schedule. */
static ss_status check_capacity(ss_context *ctx, const batch *b, int nb, size_t *peak)
{
    size_t cap = ss_context_device_memory(ctx);
    *peak = 0;
    for (int d = 0; d < ss_context_device_count(ctx); d++) {
        ss_memory_stats ms;
        ss_status st = ss_device_memory_stats(ctx, d, &ms);
        if (st)
            return st;
        size_t live = ms.live_bytes;
        if (live > *peak)
            *peak = live;
        for (int k = 0; k < nb; k++) {
            size_t base = live > b[k].old_bytes ? live - b[k].old_bytes : 0;
            size_t p = base + b[k].plan.peak_bytes;
            if (p > *peak)
                *peak = p;
            if (p > cap)
                return ss__fail(SS_ERR_DEVICE_OOM,
                                "reshard: device %d would need %zu bytes during batch %d of %d "
                                "(capacity %zu; %zu live now); nothing was moved: lower "
                                "staging_bytes or free memory first", d, p, k + 1, nb, cap,
                                ms.live_bytes);
            live = base + b[k].new_bytes;
        }
    }
    return SS_OK;
}

/* A view of arrays[i] over the target mesh sharing its shards. */
static ss_status make_view(ss_context *ctx, const ss_array *a, const ss_sharding *sh,
                           ss_array **out)
{
    int nd = ss_mesh_device_count(sh->mesh);
    void **data = malloc(sizeof *data * (size_t)nd);
    if (!data)
        return ss__fail(SS_ERR_NOMEM, "reshard: out of host memory");
    const ss_mesh *am = ss_array_sharding(a)->mesh;
    for (int p = 0; p < nd; p++)
        data[p] = ss__array_shard_data(a, ss_mesh_position_of(am, ss_mesh_device_id(sh->mesh, p)));
    ss_status st = ss__array_adopt(ctx, sh, ss_array_rank(a), ss_array_shape(a),
                                   ss_array_dtype(a), data, out);
    free(data);
    return st;
}

static void drop_view(ss_array *v)
{
    if (v) {
        ss__array_disown(v);
        ss_array_destroy(v);
    }
}

static ss_status run_batch(ss_context *ctx, ss_array *const arrays[], const item *it,
                           const int *order, const batch *b, ss_array *out[])
{
    int m = b->to - b->from;
    ss_array **views = calloc((size_t)m, sizeof *views), **res = calloc((size_t)m, sizeof *res);
    bool *donate = calloc((size_t)m, sizeof *donate);
    ss_status st = views && res && donate ? SS_OK
                                          : ss__fail(SS_ERR_NOMEM, "reshard: out of host memory");
    for (int k = 0; k < m && !st; k++) {
        st = make_view(ctx, arrays[order[b->from + k]], &it[order[b->from + k]].src, &views[k]);
        donate[k] = true;
    }
    if (!st) {
        st = ss_executable_run_arrays(b->exe, ctx, views, donate, res);
        /* Donated either way: the run freed the old shards (when it ended,
         * or when it failed), so neither the views nor the arrays own them. */
        for (int k = 0; k < m; k++)
            ss__array_disown(arrays[order[b->from + k]]);
    }
    for (int k = 0; views && k < m; k++)
        drop_view(views[k]);
    for (int k = 0; !st && k < m; k++)
        out[order[b->from + k]] = res[k];
    free(views);
    free(res);
    free(donate);
    return st;
}

ss_status ss_arrays_reshard(ss_context *ctx, int n, ss_array *const arrays[],
                            const ss_sharding targets[], const ss_reshard_options *opts,
                            ss_array *out[], ss_reshard_stats *stats)
{
    ss_reshard_stats local;
    if (!stats)
        stats = &local;
    memset(stats, 0, sizeof *stats);
    ss_status st = check_inputs(ctx, n, arrays, targets, out);
    if (st || n == 0)
        return st;
    size_t staging = opts && opts->staging_bytes ? opts->staging_bytes
                                                 : SS_RESHARD_DEFAULT_STAGING;
    item *it = calloc((size_t)n, sizeof *it);
    int *order = calloc((size_t)n, sizeof *order);
    ss_array **kept = calloc((size_t)n, sizeof *kept);
    batch *b = NULL;
    int nb = 0, m = 0;
    if (!it || !order || !kept)
        st = ss__fail(SS_ERR_NOMEM, "reshard: out of host memory");
    for (int i = 0; i < n && !st; i++) {
        const ss_array *a = arrays[i];
        it[i].batch = -1;
        if ((st = layout_over(a, i, targets[i].mesh, &it[i].src)))
            break;
        st = same_blocks(&it[i].src, &targets[i], ss_array_rank(a), ss_array_shape(a),
                         ss_array_dtype(a), &it[i].keep);
        it[i].old_bytes = shard_arena_bytes(&it[i].src, a);
        it[i].new_bytes = shard_arena_bytes(&targets[i], a);
        if (!st && !it[i].keep)
            order[m++] = i;
    }
    if (!st) {
        sort_moves(order, m, it);
        st = plan_batches(arrays, targets, it, order, m, staging, &b, &nb);
    }
    if (!st)
        st = check_capacity(ctx, b, nb, &stats->peak_bytes);
    /* Kept arrays: adopt their shards now (undone on failure), let go of
     * the inputs only at the end. */
    for (int i = 0; i < n && !st; i++)
        if (it[i].keep)
            st = make_view(ctx, arrays[i], &targets[i], &kept[i]);
    int ledger0 = st ? 0 : ss_context_ledger_count(ctx);
    for (int k = 0; k < nb && !st; k++) {
        st = run_batch(ctx, arrays, it, order, &b[k], out);
        stats->batches++;
    }
    if (!st) {
        for (int i = 0; i < n; i++)
            if (it[i].keep) {
                ss__array_disown(arrays[i]);
                out[i] = kept[i];
                kept[i] = NULL;
                stats->kept++;
            } else {
                stats->moved++;
            }
        for (int k = ledger0; k < ss_context_ledger_count(ctx); k++) {
            ss_coll_record r;
            if (ss_context_ledger_get(ctx, k, &r) == SS_OK) {
                stats->ncollectives++;
                stats->sent_bytes += r.sent;
            }
        }
    }
    for (int i = 0; kept && i < n; i++)
        drop_view(kept[i]);
    free_batches(b, nb);
    free(kept);
    free(order);
    free(it);
    return st;
}

ss_status ss_strategy_reshard(ss_context *ctx, const ss_strategy *s, const ss_mesh *mesh, int n,
                              const char *const paths[], ss_array *const arrays[],
                              const ss_reshard_options *opts, ss_array *out[],
                              ss_param_sharding shardings[], ss_reshard_stats *stats)
{
    if (!ctx || !s || !mesh || n < 0 || (n > 0 && (!paths || !arrays || !out)))
        return ss__fail(SS_ERR_INVALID, "ss_strategy_reshard: bad arguments");
    for (int i = 0; i < n; i++) {
        out[i] = NULL;
        if (!arrays[i])
            return ss__fail(SS_ERR_INVALID, "reshard: array %d is NULL", i);
    }
    ss_param_info *info = calloc((size_t)(n ? n : 1), sizeof *info);
    ss_param_sharding *ps = calloc((size_t)(n ? n : 1), sizeof *ps);
    ss_sharding *t = calloc((size_t)(n ? n : 1), sizeof *t);
    ss_status st = info && ps && t ? SS_OK : ss__fail(SS_ERR_NOMEM, "reshard: out of host memory");
    for (int i = 0; i < n && !st; i++) {
        info[i].path = paths[i];
        info[i].dtype = ss_array_dtype(arrays[i]);
        info[i].rank = ss_array_rank(arrays[i]);
        memcpy(info[i].shape, ss_array_shape(arrays[i]), sizeof(int64_t) * (size_t)info[i].rank);
    }
    if (!st)
        st = ss_strategy_apply(s, mesh, n, info, ps);
    for (int i = 0; i < n && !st; i++)
        ss_sharding_init(&t[i], mesh, &ps[i].spec);
    if (!st)
        st = ss_arrays_reshard(ctx, n, arrays, t, opts, out, stats);
    if (!st && shardings)
        memcpy(shardings, ps, sizeof *ps * (size_t)n);
    free(info);
    free(ps);
    free(t);
    return st;
}
