/*
 * array.c — sharded arrays: a global shape, dtype and sharding whose data
 * lives as one shard per mesh device in that device's arena.
 *
 * Host <-> device copies walk the shard's rows (the longest run that is
 * contiguous in both the global array and the shard). What this file does
 * not do: uneven shards (the sharding layer rejects them, as NamedSharding
 * does for device_put) or dtype conversion.
 */
#include "device_internal.h"

#include <stdlib.h>
#include <string.h>

struct ss_array {
    ss_context *ctx;
    ss_sharding sh;
    int rank;
    int64_t shape[SS_MAX_RANK];
    ss_dtype dtype;
    int n;            /* mesh devices */
    ss_shard *shards; /* by mesh position */
    void **data;      /* by mesh position, in the device's arena */
};

/* Copy between a global row-major array and one contiguous shard.
 * to_shard: global -> shard, else shard -> global. */
static void copy_block(const ss_array *a, const ss_shard *s, void *global, void *shard,
                       bool to_shard)
{
    size_t es = ss_dtype_size(a->dtype);
    int r = a->rank;
    int64_t ext[SS_MAX_RANK];
    size_t count = 1;
    for (int d = 0; d < r; d++) {
        ext[d] = s->stop[d] - s->start[d];
        count *= (size_t)ext[d];
    }
    if (count == 0)
        return;
    /* Contiguous run: trailing dims the shard covers whole, plus one more. */
    int k = r;
    size_t run = 1;
    while (k > 0 && ext[k - 1] == a->shape[k - 1]) {
        run *= (size_t)ext[k - 1];
        k--;
    }
    if (k > 0) {
        run *= (size_t)ext[k - 1];
        k--;
    }
    int64_t idx[SS_MAX_RANK] = {0};
    unsigned char *g = global, *sp = shard;
    for (size_t done = 0; done < count; done += run) {
        size_t off = 0;
        for (int d = 0; d < r; d++)
            off = off * (size_t)a->shape[d] + (size_t)(s->start[d] + (d < k ? idx[d] : 0));
        if (to_shard)
            memcpy(sp + done * es, g + off * es, run * es);
        else
            memcpy(g + off * es, sp + done * es, run * es);
        for (int d = k - 1; d >= 0; d--) {
            if (++idx[d] < ext[d])
                break;
            idx[d] = 0;
        }
    }
}

void ss_array_destroy(ss_array *a)
{
    if (!a)
        return;
    for (int p = 0; p < a->n; p++)
        if (a->data && a->data[p])
            ss_device_free(a->ctx, a->shards[p].device, a->data[p]);
    free(a->shards);
    free(a->data);
    free(a);
}

static void describe(char *out, size_t cap, const char *name, ss_dtype dt, int rank,
                     const int64_t shape[], const ss_shard *s)
{
    ss__buf b;
    ss__buf_init(&b);
    ss__buf_printf(&b, "'%s' ", name);
    ss__shape_repr_buf(&b, dt, rank, shape);
    ss__buf_puts(&b, " shard [");
    for (int d = 0; d < rank; d++)
        ss__buf_printf(&b, d ? ",%lld" : "%lld", (long long)(s->stop[d] - s->start[d]));
    ss__buf_puts(&b, "]");
    snprintf(out, cap, "%s", b.data ? b.data : name);
    ss__buf_free(&b);
}

/* An array's descriptor and shard table, with no shard memory yet. */
static ss_status new_array(ss_context *ctx, const ss_sharding *sh, int rank,
                           const int64_t shape[], ss_dtype dtype, ss_array **out)
{
    *out = NULL;
    if (!ctx || !sh || !sh->mesh || (rank > 0 && !shape))
        return ss__fail(SS_ERR_INVALID, "array: context, sharding and shape are required");
    int n = ss_mesh_device_count(sh->mesh);
    ss_array *a = calloc(1, sizeof *a);
    if (!a)
        return ss__fail(SS_ERR_NOMEM, "array: out of host memory");
    a->shards = calloc((size_t)n, sizeof *a->shards);
    a->data = calloc((size_t)n, sizeof *a->data);
    if (!a->shards || !a->data) {
        ss_array_destroy(a);
        return ss__fail(SS_ERR_NOMEM, "array: out of host memory");
    }
    a->ctx = ctx;
    a->sh = *sh;
    a->rank = rank;
    a->dtype = dtype;
    for (int d = 0; d < rank; d++)
        a->shape[d] = shape[d];
    ss_status st = ss_sharding_shards(sh, rank, shape, dtype, a->shards, n);
    if (st) {
        ss_array_destroy(a);
        return st;
    }
    a->n = n;
    *out = a;
    return SS_OK;
}

/* Destroys `a` and fails with the error `st` that stopped its making; the
 * message is kept first, as destroying may overwrite it. */
static ss_status fail_destroying(ss_array *a, ss_status st)
{
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", ss_error_message());
    ss_array_destroy(a);
    return ss__fail(st, "%s", msg);
}

/* Allocate an array and its (uninitialised) shards. */
static ss_status create(ss_context *ctx, const ss_sharding *sh, int rank, const int64_t shape[],
                        ss_dtype dtype, const char *name, ss_array **out)
{
    ss_array *a;
    *out = NULL;
    ss_status st = new_array(ctx, sh, rank, shape, dtype, &a);
    if (st)
        return st;
    for (int p = 0; p < a->n; p++) {
        const ss_shard *s = &a->shards[p];
        if (s->device >= ctx->ndevices) {
            int bad = s->device;
            ss_array_destroy(a);
            return ss__fail(SS_ERR_RANGE, "array '%s': mesh device %d is not one of the %d "
                                          "devices of the context",
                            name, bad, ctx->ndevices);
        }
        char what[SS__BUFNAME_MAX];
        describe(what, sizeof what, name, dtype, rank, shape, s);
        st = ss__device_alloc_named(ctx, s->device, s->bytes, what, &a->data[p]);
        if (st)
            return fail_destroying(a, st);
    }
    *out = a;
    return SS_OK;
}

/* jax.device_put with replicas stored once (store.c): every device is
 * charged for its shard first, exactly as create() allocates (so failures
 * and reports are the naive path's, and nothing is read from `host` before
 * they pass); then the shards of one block (the same start on every dim)
 * share one stored copy, copied from `host` once. */
static ss_status put_shared(ss_context *ctx, const ss_sharding *sh, int rank,
                            const int64_t shape[], ss_dtype dtype, const void *host,
                            const char *name, ss_array **out)
{
    ss_array *a;
    *out = NULL;
    ss_status st = create(ctx, sh, rank, shape, dtype, name, &a);
    if (st)
        return st;
    /* distinct[k]: the position holding the k-th distinct block (replica
     * id 0), data[k] its stored copy (the creator's reference). */
    int *distinct = malloc(sizeof(int) * (size_t)(a->n ? a->n : 1)), nd = 0;
    void **data = calloc((size_t)(a->n ? a->n : 1), sizeof(void *));
    if (!distinct || !data)
        st = ss__fail(SS_ERR_NOMEM, "device_put: out of host memory");
    for (int p = 0; p < a->n && !st; p++) {
        const ss_shard *s = &a->shards[p];
        int k = s->replica_id == 0 ? nd : 0; /* replica 0: a block not seen before */
        while (k < nd && memcmp(a->shards[distinct[k]].start, s->start,
                                sizeof(int64_t) * (size_t)(rank ? rank : 1)) != 0)
            k++;
        if (k == nd) { /* the first holder of this block: copy it once */
            if ((st = ss__stored_new(ctx, s->bytes, &data[nd])))
                break;
            copy_block(a, s, (void *)(uintptr_t)host, data[nd], true);
            distinct[nd++] = p;
        }
        if (!(st = ss__device_view_over(ctx, s->device, a->data[p], data[k])))
            a->data[p] = data[k];
    }
    for (int k = 0; data && k < nd; k++)
        ss__stored_unref(data[k]);
    free(distinct);
    free(data);
    if (st)
        return fail_destroying(a, st);
    *out = a;
    return SS_OK;
}

ss_status ss_array_put(ss_context *ctx, const ss_sharding *sh, int rank, const int64_t shape[],
                       ss_dtype dtype, const void *host, const char *name, ss_array **out)
{
    if (!host)
        return ss__fail(SS_ERR_INVALID, "device_put: no host buffer");
    if (ctx && ss__store_enabled(ctx))
        return put_shared(ctx, sh, rank, shape, dtype, host, name ? name : "array", out);
    ss_status st = create(ctx, sh, rank, shape, dtype, name ? name : "array", out);
    if (st)
        return st;
    ss_array *a = *out;
    for (int p = 0; p < a->n; p++)
        copy_block(a, &a->shards[p], (void *)(uintptr_t)host, a->data[p], true);
    return SS_OK;
}

ss_status ss_array_get(const ss_array *a, void *host, size_t cap)
{
    size_t bytes = ss_dtype_size(a->dtype);
    for (int d = 0; d < a->rank; d++)
        bytes *= (size_t)a->shape[d];
    if (cap < bytes)
        return ss__fail(SS_ERR_RANGE, "device_get: %zu bytes of room for an array of %zu bytes",
                        cap, bytes);
    for (int p = 0; p < a->n; p++)
        if (a->shards[p].replica_id == 0)
            copy_block(a, &a->shards[p], host, a->data[p], false);
    return SS_OK;
}

ss_status ss_array_from_callback(ss_context *ctx, const ss_sharding *sh, int rank,
                                 const int64_t shape[], ss_dtype dtype, ss_shard_fill_fn fill,
                                 void *user, const char *name, ss_array **out)
{
    if (!fill)
        return ss__fail(SS_ERR_INVALID, "make_array_from_callback: no callback");
    ss_status st = create(ctx, sh, rank, shape, dtype, name ? name : "array", out);
    if (st)
        return st;
    ss_array *a = *out;
    for (int p = 0; p < a->n; p++) {
        st = fill(&a->shards[p], a->data[p], user);
        if (st) {
            char msg[1024];
            snprintf(msg, sizeof msg, "%s", ss_error_message());
            ss_array_destroy(a);
            *out = NULL;
            return ss__fail(st, "make_array_from_callback: shard of device %d: %s",
                            ss_mesh_device_id(sh->mesh, p), msg);
        }
    }
    return SS_OK;
}

ss_status ss_array_from_single_device_arrays(ss_context *ctx, const ss_sharding *sh, int rank,
                                             const int64_t shape[], ss_dtype dtype,
                                             const void *const blocks[], const char *name,
                                             ss_array **out)
{
    *out = NULL;
    if (!blocks)
        return ss__fail(SS_ERR_INVALID, "make_array_from_single_device_arrays: no blocks");
    int n = sh && sh->mesh ? ss_mesh_device_count(sh->mesh) : 0;
    for (int p = 0; p < n; p++)
        if (!blocks[p])
            return ss__fail(SS_ERR_INVALID,
                            "make_array_from_single_device_arrays: no block for mesh position %d",
                            p);
    ss_status st = create(ctx, sh, rank, shape, dtype, name ? name : "array", out);
    if (st)
        return st;
    ss_array *a = *out;
    for (int p = 0; p < a->n; p++)
        memcpy(a->data[p], blocks[p], a->shards[p].bytes);
    return SS_OK;
}

int ss_array_rank(const ss_array *a)
{
    return a->rank;
}

const int64_t *ss_array_shape(const ss_array *a)
{
    return a->shape;
}

ss_dtype ss_array_dtype(const ss_array *a)
{
    return a->dtype;
}

const ss_sharding *ss_array_sharding(const ss_array *a)
{
    return &a->sh;
}

ss_status ss_array_shards(const ss_array *a, int host, ss_array_shard out[], int cap, int *n)
{
    if (host < -1 || host >= a->ctx->hosts)
        return ss__fail(SS_ERR_RANGE, "host %d is outside 0..%d", host, a->ctx->hosts - 1);
    int k = 0;
    for (int p = 0; p < a->n; p++)
        if (host < 0 || a->ctx->devices[a->shards[p].device].host == host)
            k++;
    *n = k;
    if (cap < k)
        return ss__fail(SS_ERR_RANGE, "room for %d shards, host %d addresses %d", cap, host, k);
    k = 0;
    for (int p = 0; p < a->n; p++) {
        int h = a->ctx->devices[a->shards[p].device].host;
        if (host >= 0 && h != host)
            continue;
        out[k].index = a->shards[p];
        out[k].host = h;
        out[k].data = a->data[p];
        k++;
    }
    return SS_OK;
}

/* --- Per-host slices (multi-host data loading) ---------------------------- */

ss_status ss_array_from_host_slices(ss_context *ctx, const ss_mesh *mesh, int rank,
                                    const int64_t local_shape[], ss_dtype dtype,
                                    const void *const slices[], const char *name,
                                    ss_array **out)
{
    *out = NULL;
    if (!ctx || !mesh || !slices || rank < 1 || rank > SS_MAX_RANK)
        return ss__fail(SS_ERR_INVALID,
                        "host slices: context, a 1-D mesh, slices and a rank >= 1 are required");
    if (ss_mesh_axis_count(mesh) != 1)
        return ss__fail(SS_ERR_INVALID, "host slices: the mesh must have one axis, it has %d",
                        ss_mesh_axis_count(mesh));
    int n = ss_mesh_device_count(mesh), hosts = ctx->hosts;
    int local[SS_MAX_DEVICES]; /* index of each position among its host's positions */
    int per_host[SS_MAX_DEVICES] = {0};
    for (int p = 0; p < n; p++) {
        int d = ss_mesh_device_id(mesh, p);
        if (d >= ctx->ndevices)
            return ss__fail(SS_ERR_RANGE, "host slices: mesh device %d is not in the context", d);
        int h = ctx->devices[d].host;
        local[p] = per_host[h]++;
    }
    for (int h = 0; h < hosts; h++) {
        if (!slices[h])
            return ss__fail(SS_ERR_INVALID, "host slices: no slice for host %d", h);
        if (per_host[h] == 0 || local_shape[0] % per_host[h] != 0)
            return ss__fail(SS_ERR_INDIVISIBLE,
                            "host slices: host %d's %lld rows do not split over its %d devices", h,
                            (long long)local_shape[0], per_host[h]);
        if (per_host[h] != per_host[0])
            return ss__fail(SS_ERR_INVALID, "host slices: hosts hold different device counts");
    }
    int64_t shape[SS_MAX_RANK];
    for (int d = 0; d < rank; d++)
        shape[d] = local_shape[d];
    shape[0] *= hosts;
    size_t piece = ss_dtype_size(dtype) * (size_t)(local_shape[0] / per_host[0]);
    for (int d = 1; d < rank; d++)
        piece *= (size_t)local_shape[d];
    const void **blocks = calloc((size_t)n, sizeof *blocks);
    if (!blocks)
        return ss__fail(SS_ERR_NOMEM, "host slices: out of host memory");
    for (int p = 0; p < n; p++) {
        int h = ctx->devices[ss_mesh_device_id(mesh, p)].host;
        blocks[p] = (const unsigned char *)slices[h] + (size_t)local[p] * piece;
    }
    ss_spec spec;
    memset(&spec, 0, sizeof spec);
    const char *axis = ss_mesh_axis_name(mesh, 0);
    ss_spec_set_axes(&spec, 0, 1, &axis);
    ss_sharding sh;
    ss_sharding_init(&sh, mesh, &spec);
    ss_status st = ss_array_from_single_device_arrays(ctx, &sh, rank, shape, dtype, blocks,
                                                      name, out);
    free(blocks);
    return st;
}

ss_status ss_array_host_slice(const ss_array *a, int host, void *out, size_t cap, size_t *len)
{
    if (host < 0 || host >= a->ctx->hosts)
        return ss__fail(SS_ERR_RANGE, "host %d is outside 0..%d", host, a->ctx->hosts - 1);
    size_t total = 0;
    for (int p = 0; p < a->n; p++) {
        const ss_shard *s = &a->shards[p];
        if (a->ctx->devices[s->device].host != host)
            continue;
        for (int d = 1; d < a->rank; d++)
            if (s->start[d] != 0 || s->stop[d] != a->shape[d])
                return ss__fail(SS_ERR_UNSUPPORTED,
                                "global_array is sharded along non-first dimensions: device %d "
                                "holds [%lld:%lld] of dimension %d",
                                s->device, (long long)s->start[d], (long long)s->stop[d], d);
        total += s->bytes;
    }
    if (len)
        *len = total;
    if (cap < total)
        return ss__fail(SS_ERR_RANGE, "host slice: %zu bytes of room for %zu", cap, total);
    unsigned char *o = out;
    for (int p = 0; p < a->n; p++) {
        const ss_shard *s = &a->shards[p];
        if (a->ctx->devices[s->device].host != host)
            continue;
        memcpy(o, a->data[p], s->bytes);
        o += s->bytes;
    }
    return SS_OK;
}

/* --- For the executor: arrays over buffers it allocated ------------------- */

ss_status ss__array_adopt(ss_context *ctx, const ss_sharding *sh, int rank,
                          const int64_t shape[], ss_dtype dtype, void *const data[],
                          ss_array **out)
{
    ss_status st = new_array(ctx, sh, rank, shape, dtype, out);
    if (st)
        return st;
    for (int p = 0; p < (*out)->n; p++)
        (*out)->data[p] = data[p];
    return SS_OK;
}

void *ss__array_shard_data(const ss_array *a, int pos)
{
    return pos >= 0 && pos < a->n ? a->data[pos] : NULL;
}

void ss__array_disown(ss_array *a)
{
    for (int p = 0; p < a->n; p++)
        a->data[p] = NULL;
}

ss_context *ss__array_context(const ss_array *a) { return a->ctx; }
