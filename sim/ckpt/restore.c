/*
 * restore.c — restoring a step into an abstract target state: matching the
 * targets to the checkpoint's tree, choosing each array's sharding (the
 * target's, else the saved one if it fits the devices, else Orbax's
 * "Topology mismatch"), sizing every device's staging buffer, allocating the
 * target shards, and reading on the device threads.
 *
 * Who reads what: the distinct target blocks (replica 0, as Orbax's
 * _read_and_create_array reads each index once) are cut into pieces, one
 * per overlapping chunk; each chunk is read once, by the device of the piece
 * needing most of it (ties to the device with the least to read), which
 * writes every piece of that chunk into its block (chunk_read.c reads only
 * the CRC blocks the pieces need). In a second run every other replica
 * copies its block from replica 0, as device_put of one host buffer to
 * every device sharing the index. TensorStore instead reads a chunk once
 * per block that needs it, which is read amplification when the grids
 * differ (Orbax's b/381111280). The plan (ss_ckpt_restore_plan) runs the
 * same code in dry mode, so its peak and byte counts are the run's. What
 * this file does not do: pad or truncate (strict=False), or read chunk data
 * on the calling thread.
 */
#include "shardsim.h"

#include "ckpt_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct rs_array {
    const ss_ckpt_target *t;
    int ci; /* index in the checkpoint */
    const ss__ck_zarray *z;
    ss_sharding sh;
    ss_mesh *own_mesh; /* the saved sharding's mesh, when used */
    int npos;
    ss_shard *shards; /* by mesh position */
    int *leader;      /* position holding replica 0 of the same block */
    ss_array *arr;
    void **data;      /* by mesh position */
} rs_array;

struct ss_ckpt_state {
    int n;
    char **names;
    ss_array **arrays;
    bool *saved;
    ss_mesh **meshes;
};

/* The part of one chunk that one distinct target block needs. */
typedef struct rs_piece {
    int array;  /* in rs_job.a */
    int pos;    /* mesh position of the block's replica 0 */
    int64_t lin; /* the chunk's row-major index in its grid */
    int64_t idx[SS_MAX_RANK];
    ss__ck_dest dest;
} rs_piece;

/* One chunk to read, by one device, into every block that needs part of it. */
typedef struct rs_chunk {
    int array;
    int reader; /* device */
    int first, ndest; /* its destinations: rs_job.dests[first .. first+ndest) */
    int64_t idx[SS_MAX_RANK];
} rs_chunk;

typedef struct rs_job {
    ss_context *ctx;
    ss_ckpt *ck;
    int n;
    rs_array *a;
    int nd;
    size_t staging_opt;
    size_t *staging; /* per device: 0 = reads nothing */
    uint64_t *read;
    int64_t *chunks;
    int npieces, nchunks;
    rs_piece *pieces; /* sorted by array, chunk, position */
    ss__ck_dest *dests;   /* the pieces' destinations, same order */
    rs_chunk *chunk;  /* sorted by reader */
    int *first;       /* chunks of device d: chunk[first[d] .. first[d+1]) */
} rs_job;

/* --- Matching names -------------------------------------------------------- */

static void name_list(ss__buf *b, const char *const *names, int n)
{
    ss__buf_putc(b, '[');
    for (int i = 0; i < n; i++) {
        if (i == 8) {
            ss__buf_printf(b, ", ... (%d more)", n - 8);
            break;
        }
        ss__buf_printf(b, i ? ", '%s'" : "'%s'", names[i]);
    }
    ss__buf_putc(b, ']');
}

static ss_status match_names(rs_job *job, const ss_ckpt_target t[], bool partial)
{
    ss_ckpt *ck = job->ck;
    const char **missing = calloc((size_t)job->n + 1, sizeof *missing);
    const char **extra = calloc((size_t)ck->n + 1, sizeof *extra);
    bool *used = calloc((size_t)ck->n + 1, sizeof *used);
    int nm = 0, ne = 0;
    ss_status st = SS_OK;
    if (!missing || !extra || !used)
        st = ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    for (int i = 0; st == SS_OK && i < job->n; i++) {
        if (!t[i].name) {
            st = ss__fail(SS_ERR_INVALID, "restore: target %d has no name", i);
            break;
        }
        for (int j = 0; j < i; j++)
            if (strcmp(t[i].name, t[j].name) == 0)
                st = ss__fail(SS_ERR_INVALID, "restore: target '%s' is given twice", t[i].name);
        job->a[i].t = &t[i];
        job->a[i].ci = ss_ckpt_array_find(ck, t[i].name);
        if (job->a[i].ci < 0)
            missing[nm++] = t[i].name;
        else
            used[job->a[i].ci] = true;
    }
    for (int c = 0; st == SS_OK && !partial && c < ck->n; c++)
        if (!used[c])
            extra[ne++] = ck->arrays[c].name;
    if (st == SS_OK && (nm || ne)) {
        ss__buf b;
        ss__buf_init(&b);
        if (partial) {
            ss__buf_puts(&b, "partial restore: ");
            name_list(&b, missing, nm);
            ss__buf_printf(&b, " %s not in the checkpoint %s", nm == 1 ? "is" : "are",
                           ck->item_dir);
        } else {
            ss__buf_puts(&b, "User-provided restore item and on-disk value metadata tree "
                             "structures do not match:");
            if (nm) {
                ss__buf_puts(&b, " missing in the checkpoint: ");
                name_list(&b, missing, nm);
                ss__buf_puts(&b, ne ? ";" : ".");
            }
            if (ne) {
                ss__buf_puts(&b, " not in the target: ");
                name_list(&b, extra, ne);
                ss__buf_putc(&b, '.');
            }
            ss__buf_puts(&b, " If this mismatch is intentional, pass `partial_restore=True` to "
                             "only restore parameters found in `item`.");
        }
        st = ss__fail(SS_ERR_INVALID, "%s", b.data ? b.data : "restore: names do not match");
        ss__buf_free(&b);
    }
    free(missing);
    free(extra);
    free(used);
    return st;
}

/* --- Shardings --------------------------------------------------------------- */

static void tuple_text(char *out, size_t cap, int n, const int64_t v[])
{
    ss__buf b;
    ss__buf_init(&b);
    ss__buf_int_tuple(&b, n, v);
    snprintf(out, cap, "%s", b.data ? b.data : "()");
    ss__buf_free(&b);
}

static ss_status resolve(rs_job *job, rs_array *a)
{
    const ss_ckpt_target *t = a->t;
    const char *name = t->name;
    ss_status st = ss__ck_zarray_get(job->ck, a->ci, &a->z);
    if (st)
        return st;
    if ((unsigned)t->dtype >= SS_DTYPE_COUNT || t->rank < 0 || t->rank > SS_MAX_RANK)
        return ss__fail(SS_ERR_INVALID, "restore '%s': bad target dtype or rank", name);
    bool same = t->rank == a->z->rank;
    for (int d = 0; same && d < t->rank; d++)
        same = t->shape[d] == a->z->shape[d];
    if (!same) {
        char want[256], have[256];
        tuple_text(want, sizeof want, t->rank, t->shape);
        tuple_text(have, sizeof have, a->z->rank, a->z->shape);
        return ss__fail(SS_ERR_INVALID,
                        "restore '%s': Requested shape: %s is not compatible with the stored "
                        "shape: %s. Truncating/padding is disabled. To enable it, set "
                        "`strict=False` in `ArrayRestoreArgs` for any array in v0 API or "
                        "`enable_padding_and_truncation=True` in `ArrayOptions.Loading` in v1 "
                        "API.",
                        name, want, have);
    }
    if (t->sharding.mesh) {
        a->sh = t->sharding;
    } else {
        st = ss_ckpt_saved_sharding(job->ck, a->ci, job->nd, &a->own_mesh, &a->sh);
        if (st)
            return st;
    }
    if (a->sh.partial_mask || a->sh.manual_mask)
        return ss__fail(SS_ERR_INVALID, "restore '%s': a target sharding cannot be partial or "
                                        "manual",
                        name);
    a->npos = ss_mesh_device_count(a->sh.mesh);
    for (int p = 0; p < a->npos; p++)
        if (ss_mesh_device_id(a->sh.mesh, p) >= job->nd)
            return ss__fail(SS_ERR_RANGE, "restore '%s': the target mesh uses device %d, not "
                                          "one of the context's %d",
                            name, ss_mesh_device_id(a->sh.mesh, p), job->nd);
    a->shards = calloc((size_t)a->npos, sizeof *a->shards);
    a->leader = calloc((size_t)a->npos, sizeof *a->leader);
    a->data = calloc((size_t)a->npos, sizeof *a->data);
    int *ids = malloc((size_t)a->npos * sizeof *ids);
    int *off = malloc(((size_t)a->npos + 1) * sizeof *off);
    if (!a->shards || !a->leader || !a->data || !ids || !off) {
        free(ids);
        free(off);
        return ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    }
    st = ss_sharding_check(&a->sh, t->rank, t->shape);
    if (st == SS_OK)
        st = ss_sharding_shards(&a->sh, t->rank, t->shape, t->dtype, a->shards, a->npos);
    int ng = 0;
    if (st == SS_OK)
        st = ss_sharding_replica_groups(&a->sh, &ng, ids, off);
    for (int g = 0; st == SS_OK && g < ng; g++) {
        int lead = ss_mesh_position_of(a->sh.mesh, ids[off[g]]);
        for (int k = off[g]; k < off[g + 1]; k++)
            a->leader[ss_mesh_position_of(a->sh.mesh, ids[k])] = lead;
    }
    free(ids);
    free(off);
    if (st) {
        char msg[900];
        snprintf(msg, sizeof msg, "%s", ss_error_message());
        st = ss__fail(st, "restore '%s': %s", name, msg);
    }
    return st;
}

/* --- Who reads which chunk ---------------------------------------------- */

static ss_status add_piece(rs_job *job, int *cap, const rs_piece *p)
{
    if (job->npieces == *cap) {
        int c = *cap ? *cap * 2 : 64;
        rs_piece *q = realloc(job->pieces, (size_t)c * sizeof *q);
        if (!q)
            return ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
        job->pieces = q;
        *cap = c;
    }
    job->pieces[job->npieces++] = *p;
    return SS_OK;
}

/* Every (chunk, distinct target block) overlap of array i. */
static ss_status array_pieces(rs_job *job, int i, int *cap)
{
    rs_array *a = &job->a[i];
    const ss__ck_zarray *z = a->z;
    int rank = z->rank;
    for (int pos = 0; pos < a->npos; pos++) {
        const ss_shard *s = &a->shards[pos];
        if (s->replica_id != 0)
            continue;
        int64_t lo[SS_MAX_RANK], hi[SS_MAX_RANK];
        rs_piece p;
        memset(&p, 0, sizeof p);
        p.array = i;
        p.pos = pos;
        p.dest.dtype = a->t->dtype;
        bool empty = false;
        for (int d = 0; d < rank; d++) {
            empty |= s->stop[d] <= s->start[d];
            lo[d] = p.idx[d] = s->start[d] / z->chunks[d];
            hi[d] = (s->stop[d] - 1) / z->chunks[d];
        }
        while (!empty) {
            p.lin = 0;
            for (int d = 0; d < rank; d++) {
                int64_t c0 = p.idx[d] * z->chunks[d];
                int64_t b0 = s->start[d] > c0 ? s->start[d] : c0;
                int64_t b1 = s->stop[d] < c0 + z->chunks[d] ? s->stop[d] : c0 + z->chunks[d];
                p.lin = p.lin * ss__ck_grid(z, d) + p.idx[d];
                p.dest.start[d] = b0 - c0;
                p.dest.ext[d] = b1 - b0;
                p.dest.dstart[d] = b0 - s->start[d];
                p.dest.dshape[d] = s->stop[d] - s->start[d];
            }
            ss_status st = add_piece(job, cap, &p);
            if (st)
                return st;
            int d = rank - 1;
            for (; d >= 0; d--) {
                if (++p.idx[d] <= hi[d])
                    break;
                p.idx[d] = lo[d];
            }
            if (d < 0)
                break;
        }
    }
    return SS_OK;
}

static int piece_cmp(const void *x, const void *y)
{
    const rs_piece *a = x, *b = y;
    if (a->array != b->array)
        return a->array - b->array;
    if (a->lin != b->lin)
        return a->lin < b->lin ? -1 : 1;
    return a->pos - b->pos;
}

static int chunk_cmp(const void *x, const void *y)
{
    const rs_chunk *a = x, *b = y;
    if (a->reader != b->reader)
        return a->reader - b->reader;
    return a->first - b->first;
}

/* Group the pieces by chunk and choose each chunk's reader: the device of
 * the block needing most of it, ties to the device with the fewest bytes to
 * read so far (so that a chunk split among several blocks does not always
 * fall to the same device), then the lowest id. Size each reader's staging
 * buffer for the largest chunk it reads. */
static ss_status plan_chunks(rs_job *job)
{
    int cap = 0;
    for (int i = 0; i < job->n; i++) {
        ss_status st = array_pieces(job, i, &cap);
        if (st)
            return st;
    }
    if (job->npieces > 1)
        qsort(job->pieces, (size_t)job->npieces, sizeof *job->pieces, piece_cmp);
    job->dests = malloc((size_t)(job->npieces ? job->npieces : 1) * sizeof *job->dests);
    job->chunk = malloc((size_t)(job->npieces ? job->npieces : 1) * sizeof *job->chunk);
    job->first = calloc((size_t)job->nd + 1, sizeof *job->first);
    uint64_t *load = calloc((size_t)job->nd, sizeof *load);
    ss_status st = SS_OK;
    if (!job->dests || !job->chunk || !job->first || !load)
        st = ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    for (int i = 0; st == SS_OK && i < job->npieces;) {
        const rs_piece *p = &job->pieces[i];
        rs_array *a = &job->a[p->array];
        const ss__ck_zarray *z = a->z;
        int j = i;
        int best = -1;
        int64_t best_overlap = -1;
        for (; j < job->npieces && job->pieces[j].array == p->array &&
               job->pieces[j].lin == p->lin;
             j++) {
            const rs_piece *q = &job->pieces[j];
            job->dests[j] = q->dest;
            int64_t overlap = 1;
            for (int d = 0; d < z->rank; d++)
                overlap *= q->dest.ext[d];
            int dev = a->shards[q->pos].device;
            if (overlap > best_overlap ||
                (overlap == best_overlap && (load[dev] < load[best] ||
                                             (load[dev] == load[best] && dev < best)))) {
                best = dev;
                best_overlap = overlap;
            }
        }
        uint64_t csize = (uint64_t)ss__ck_chunk_elems(z) * ss_dtype_size(z->dtype);
        if (z->zstd) {
            ss__buf key;
            ss__buf_init(&key);
            ss__ck_chunk_key(&key, z, p->idx);
            st = key.data && !key.oom ? ss__ck_chunk_size(job->ck, a->ci, key.data, &csize)
                          : ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
            ss__buf_free(&key);
        }
        rs_chunk *c = &job->chunk[job->nchunks++];
        c->array = p->array;
        c->reader = best;
        c->first = i;
        c->ndest = j - i;
        memcpy(c->idx, p->idx, sizeof c->idx);
        load[best] += csize;
        size_t need = ss__ck_region_staging(z, csize);
        if (need > job->staging[best])
            job->staging[best] = need;
        i = j;
    }
    free(load);
    if (st)
        return st;
    if (job->nchunks > 1)
        qsort(job->chunk, (size_t)job->nchunks, sizeof *job->chunk, chunk_cmp);
    for (int c = 0, d = 0; d <= job->nd; d++) {
        while (c < job->nchunks && job->chunk[c].reader < d)
            c++;
        job->first[d] = c;
    }
    for (int d = 0; d < job->nd; d++)
        if (job->staging[d] > job->staging_opt)
            job->staging[d] = job->staging_opt;
    return SS_OK;
}

/* Read every chunk device d was given, through one staging buffer. */
static ss_status device_reads(rs_job *job, int d, ss__ck_reader *r)
{
    for (int c = job->first[d]; c < job->first[d + 1]; c++) {
        const rs_chunk *k = &job->chunk[c];
        ss__ck_region g;
        g.ck = job->ck;
        g.array = job->a[k->array].ci;
        memcpy(g.idx, k->idx, sizeof g.idx);
        g.ndest = k->ndest;
        g.dest = &job->dests[k->first];
        ss_status st = ss__ck_read_region(r, &g);
        if (st)
            return st;
    }
    return SS_OK;
}

/* Arena bytes the restore adds on each device: its target shards (as the
 * arena rounds them) and its staging buffer. */
static void device_peaks(const rs_job *job, size_t peak[])
{
    for (int d = 0; d < job->nd; d++)
        peak[d] = job->staging[d] ? ss_device_buffer_bytes(job->staging[d]) : 0;
    for (int i = 0; i < job->n; i++)
        for (int p = 0; p < job->a[i].npos; p++)
            peak[job->a[i].shards[p].device] += ss_device_buffer_bytes(job->a[i].shards[p].bytes);
}

/* "; 'a', 'b' have no target sharding, so their saved S was used (...)"
 * for the arrays on device d that got their saved sharding. */
static void saved_note(const rs_job *job, int d, ss__buf *b)
{
    int k = 0;
    const rs_array *last = NULL;
    for (int i = 0; i < job->n; i++) {
        const rs_array *a = &job->a[i];
        if (!a->own_mesh || ss_mesh_position_of(a->sh.mesh, d) < 0)
            continue;
        ss__buf_printf(b, "%s'%s'", k++ ? ", " : "; ", a->t->name);
        last = a;
    }
    if (!last)
        return;
    char saved[256] = "";
    ss__ck_saved s;
    if (ss__ck_saved_parse(job->ck->arrays[last->ci].sharding, last->t->name, &s) == SS_OK) {
        ss__ck_saved_text(&s, saved, sizeof saved);
        ss__ck_saved_free(&s);
    }
    ss__buf_printf(b, " %s no target sharding, so %s saved %s was used (Orbax: \"Sharding "
                      "info not provided when restoring\"); give target shardings",
                   k > 1 ? "have" : "has", k > 1 ? "their" : "its", saved);
}

/* Refuse before allocating when a device cannot hold what the plan says. */
static ss_status preflight(const rs_job *job)
{
    size_t *peak = calloc((size_t)job->nd, sizeof *peak);
    if (!peak)
        return ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    device_peaks(job, peak);
    ss_status st = SS_OK;
    for (int d = 0; d < job->nd && st == SS_OK; d++) {
        ss_memory_stats ms;
        if (ss_device_memory_stats(job->ctx, d, &ms) != SS_OK ||
            peak[d] <= ms.capacity - ms.live_bytes)
            continue;
        ss__buf b;
        ss__buf_init(&b);
        ss__buf_printf(&b, "restore: device %d out of memory: it needs %zu bytes (its target "
                           "shards and a %zu-byte staging buffer) but has %zu of %zu free",
                       d, peak[d], job->staging[d], ms.capacity - ms.live_bytes, ms.capacity);
        saved_note(job, d, &b);
        st = ss__fail(SS_ERR_DEVICE_OOM, "%s", b.data ? b.data : "restore: device out of memory");
        ss__buf_free(&b);
    }
    free(peak);
    return st;
}

static ss_status read_device(ss_device *dev, void *user)
{
    rs_job *job = user;
    int d = ss_device_id(dev);
    if (job->staging[d] == 0)
        return SS_OK;
    ss__ck_reader r;
    memset(&r, 0, sizeof r);
    r.cap = job->staging[d];
    void *buf;
    ss_status st = ss_device_alloc(job->ctx, d, r.cap, "checkpoint restore staging", &buf);
    if (st) {
        ss__buf b;
        ss__buf_init(&b);
        ss__buf_printf(&b, "restore: device %d has no room for its staging buffer after its "
                           "target shards: %s",
                       d, ss_error_message());
        saved_note(job, d, &b);
        st = ss__fail(st, "%s", b.data ? b.data : "restore: device out of memory");
        ss__buf_free(&b);
        return st;
    }
    r.staging = buf;
    st = device_reads(job, d, &r);
    job->read[d] = r.bytes_read;
    job->chunks[d] = r.chunks;
    ss__ck_reader_free(&r);
    ss_device_free(job->ctx, d, buf);
    return st;
}

static ss_status copy_replicas(ss_device *dev, void *user)
{
    rs_job *job = user;
    int d = ss_device_id(dev);
    for (int i = 0; i < job->n; i++) {
        rs_array *a = &job->a[i];
        int pos = ss_mesh_position_of(a->sh.mesh, d);
        if (pos >= 0 && a->shards[pos].replica_id != 0)
            memcpy(a->data[pos], a->data[a->leader[pos]], a->shards[pos].bytes);
    }
    return SS_OK;
}

/* --- Common preparation ---------------------------------------------------- */

static void job_free(rs_job *job, bool keep_arrays)
{
    for (int i = 0; job->a && i < job->n; i++) {
        rs_array *a = &job->a[i];
        if (!keep_arrays) {
            ss_array_destroy(a->arr);
            ss_mesh_destroy(a->own_mesh);
        }
        free(a->shards);
        free(a->leader);
        free(a->data);
    }
    free(job->a);
    free(job->pieces);
    free(job->dests);
    free(job->chunk);
    free(job->first);
    free(job->staging);
    free(job->read);
    free(job->chunks);
    ss_ckpt_close(job->ck);
    memset(job, 0, sizeof *job);
}

static ss_status prepare(rs_job *job, ss_context *ctx, const char *dir, int64_t step, int n,
                         const ss_ckpt_target targets[], const ss_ckpt_restore_options *opts)
{
    memset(job, 0, sizeof *job);
    ss_ckpt_restore_options o = {0};
    if (opts)
        o = *opts;
    if (!ctx || !dir || n < 0 || (n > 0 && !targets))
        return ss__fail(SS_ERR_INVALID, "restore: context, directory and targets are required");
    if (o.staging_bytes && o.staging_bytes < SS_CKPT_CRC_BLOCK)
        return ss__fail(SS_ERR_INVALID, "restore: staging_bytes %zu is below the %d-byte CRC "
                                        "block",
                        o.staging_bytes, SS_CKPT_CRC_BLOCK);
    job->ctx = ctx;
    job->n = n;
    job->nd = ss_context_device_count(ctx);
    job->staging_opt = o.staging_bytes ? o.staging_bytes & ~(size_t)63 : SS_CKPT_DEFAULT_STAGING;
    job->a = calloc((size_t)n + 1, sizeof *job->a);
    job->staging = calloc((size_t)job->nd, sizeof *job->staging);
    job->read = calloc((size_t)job->nd, sizeof *job->read);
    job->chunks = calloc((size_t)job->nd, sizeof *job->chunks);
    if (!job->a || !job->staging || !job->read || !job->chunks)
        return ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    ss_status st = ss_ckpt_open(dir, step, o.item, &job->ck);
    if (st == SS_OK)
        st = match_names(job, targets, o.partial != 0);
    for (int i = 0; st == SS_OK && i < n; i++)
        st = resolve(job, &job->a[i]);
    if (st == SS_OK)
        st = plan_chunks(job);
    return st;
}

static uint64_t bytes_needed(const rs_job *job)
{
    uint64_t total = 0;
    for (int i = 0; i < job->n; i++) {
        const rs_array *a = &job->a[i];
        size_t es = ss_dtype_size(a->z->dtype), ts = ss_dtype_size(a->t->dtype);
        for (int p = 0; p < a->npos; p++)
            if (a->shards[p].replica_id == 0)
                total += a->shards[p].bytes / ts * es;
    }
    return total;
}

ss_status ss_ckpt_restore_plan(ss_context *ctx, const char *dir, int64_t step, int n,
                               const ss_ckpt_target targets[],
                               const ss_ckpt_restore_options *opts, size_t peak_bytes[],
                               int cap, uint64_t *needed, uint64_t *to_read)
{
    rs_job job;
    ss_status st = prepare(&job, ctx, dir, step, n, targets, opts);
    if (st == SS_OK && (!peak_bytes || cap < job.nd))
        st = ss__fail(SS_ERR_RANGE, "restore plan: room for %d devices, the context has %d", cap,
                      job.nd);
    uint64_t total = 0;
    if (st == SS_OK)
        device_peaks(&job, peak_bytes);
    for (int d = 0; st == SS_OK && d < job.nd; d++) {
        ss__ck_reader r;
        memset(&r, 0, sizeof r);
        r.dry = true;
        r.cap = job.staging[d];
        if (r.cap)
            st = device_reads(&job, d, &r);
        total += r.bytes_read;
    }
    if (st == SS_OK && needed)
        *needed = bytes_needed(&job);
    if (st == SS_OK && to_read)
        *to_read = total;
    job_free(&job, false);
    return st;
}

static ss_status noop_fill(const ss_shard *index, void *dst, void *user)
{
    (void)index;
    (void)dst;
    (void)user;
    return SS_OK;
}

static ss_status allocate(rs_job *job)
{
    for (int i = 0; i < job->n; i++) {
        rs_array *a = &job->a[i];
        const ss_ckpt_target *t = a->t;
        ss_status st = ss_array_from_callback(job->ctx, &a->sh, t->rank, t->shape, t->dtype,
                                              noop_fill, NULL, t->name, &a->arr);
        if (st) {
            char msg[700];
            snprintf(msg, sizeof msg, "%s", ss_error_message());
            if (a->own_mesh) {
                char saved[256];
                ss__ck_saved s;
                saved[0] = '\0';
                if (ss__ck_saved_parse(job->ck->arrays[a->ci].sharding, t->name, &s) == SS_OK) {
                    ss__ck_saved_text(&s, saved, sizeof saved);
                    ss__ck_saved_free(&s);
                }
                return ss__fail(st, "restore '%s': %s; '%s' has no target sharding, so its "
                                    "saved %s was used (Orbax: \"Sharding info not provided "
                                    "when restoring\"); give target shardings",
                                t->name, msg, t->name, saved);
            }
            return ss__fail(st, "restore '%s': %s", t->name, msg);
        }
        ss_array_shard *sh = malloc((size_t)a->npos * sizeof *sh);
        int k = 0;
        if (!sh)
            return ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
        st = ss_array_shards(a->arr, -1, sh, a->npos, &k);
        for (int p = 0; st == SS_OK && p < k; p++)
            a->data[p] = sh[p].data;
        free(sh);
        if (st)
            return st;
    }
    for (int i = 0; i < job->npieces; i++)
        job->dests[i].dst = job->a[job->pieces[i].array].data[job->pieces[i].pos];
    return SS_OK;
}

ss_status ss_ckpt_restore(ss_context *ctx, const char *dir, int64_t step, int n,
                          const ss_ckpt_target targets[], const ss_ckpt_restore_options *opts,
                          ss_ckpt_state **out, ss_ckpt_stats *stats)
{
    double t0 = ss__ck_seconds();
    if (out)
        *out = NULL;
    if (!out)
        return ss__fail(SS_ERR_INVALID, "restore: no output");
    rs_job job;
    ss_status st = prepare(&job, ctx, dir, step, n, targets, opts);
    if (st == SS_OK)
        st = preflight(&job);
    if (st == SS_OK)
        st = allocate(&job);
    if (st == SS_OK)
        st = ss_context_run(ctx, read_device, &job);
    if (st == SS_OK)
        st = ss_context_run(ctx, copy_replicas, &job);
    ss_ckpt_state *s = NULL;
    if (st == SS_OK) {
        s = calloc(1, sizeof *s);
        if (s) {
            s->names = calloc((size_t)n + 1, sizeof *s->names);
            s->arrays = calloc((size_t)n + 1, sizeof *s->arrays);
            s->saved = calloc((size_t)n + 1, sizeof *s->saved);
            s->meshes = calloc((size_t)n + 1, sizeof *s->meshes);
        }
        bool ok = s && s->names && s->arrays && s->saved && s->meshes;
        for (int i = 0; ok && i < n; i++)
            ok = (s->names[i] = ss__ck_pathf("%s", targets[i].name)) != NULL;
        if (!ok) {
            if (s)
                for (int i = 0; s->names && i < n; i++)
                    free(s->names[i]);
            if (s) {
                free(s->names);
                free(s->arrays);
                free(s->saved);
                free(s->meshes);
            }
            free(s);
            s = NULL;
            st = ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
        }
    }
    if (st == SS_OK) {
        s->n = n;
        for (int i = 0; i < n; i++) {
            s->arrays[i] = job.a[i].arr;
            s->saved[i] = job.a[i].own_mesh != NULL;
            s->meshes[i] = job.a[i].own_mesh;
        }
    }
    ss_ckpt_stats sum = {0};
    if (job.a && job.staging && job.read && job.chunks) {
        if (st == SS_OK)
            sum.bytes_needed = bytes_needed(&job);
        for (int d = 0; d < job.nd; d++) {
            sum.bytes_read += job.read[d];
            sum.chunks += job.chunks[d];
            if (job.staging[d] > sum.staging_bytes)
                sum.staging_bytes = job.staging[d];
        }
    }
    job_free(&job, st == SS_OK);
    sum.seconds = ss__ck_seconds() - t0;
    if (stats)
        *stats = sum;
    *out = s;
    return st;
}

int ss_ckpt_state_count(const ss_ckpt_state *s) { return s ? s->n : 0; }

const char *ss_ckpt_state_name(const ss_ckpt_state *s, int i)
{
    return s && i >= 0 && i < s->n ? s->names[i] : NULL;
}

ss_array *ss_ckpt_state_array(const ss_ckpt_state *s, int i)
{
    return s && i >= 0 && i < s->n ? s->arrays[i] : NULL;
}

ss_array *ss_ckpt_state_find(const ss_ckpt_state *s, const char *name)
{
    for (int i = 0; s && name && i < s->n; i++)
        if (strcmp(s->names[i], name) == 0)
            return s->arrays[i];
    return NULL;
}

int ss_ckpt_state_used_saved_sharding(const ss_ckpt_state *s, int i)
{
    return s && i >= 0 && i < s->n ? s->saved[i] : 0;
}

void ss_ckpt_state_destroy(ss_ckpt_state *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n; i++) {
        ss_array_destroy(s->arrays[i]);
        ss_mesh_destroy(s->meshes[i]);
        free(s->names[i]);
    }
    free(s->names);
    free(s->arrays);
    free(s->saved);
    free(s->meshes);
    free(s);
}
