/*
 * save.c — writing a step: every distinct shard becomes one zarr chunk file
 * written by the device holding its replica 0, on that device's thread,
 * all devices at once; then the metadata, the commit marker and one rename.
 * Also the checkpoint manager's part: deleting steps beyond max_to_keep.
 *
 * Order of a save (Orbax's AtomicRenameTemporaryPath, docs/checkpoints.md 3):
 *   1. DIR/STEP.orbax-checkpoint-tmp/ is created (a leftover from a killed
 *      save of the same step is removed first), with the item directory,
 *      one directory and .zarray per array, _METADATA and _sharding;
 *   2. the devices write and fsync their chunk files, computing CRC32Cs;
 *   3. array_metadatas/process_H (with the CRC32Cs of every chunk and of
 *      every .zarray; _METADATA says they are there), _CHECKPOINT_METADATA
 *      and commit_success.txt are written and fsynced, every directory is
 *      fsynced, and rename(2) publishes DIR/STEP; DIR is fsynced.
 * A kill before 3's rename leaves only the temporary directory, which no
 * reader lists. With `force` an existing DIR/STEP is exchanged with the
 * temporary directory in one atomic rename (publish), then deleted: a kill
 * at any moment leaves the old step or the new one at DIR/STEP. What this file does not do: subchunking of large shards,
 * replica-parallel writes, or asynchronous saves.
 */
#include "shardsim.h"

#include "base/json.h"
#include "ckpt_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

/* One chunk file: a distinct shard and who writes it. */
typedef struct sv_item {
    int array;
    int device;
    const void *data;
    size_t bytes;
    char *path;
    char *key;
    ss__ck_crc_acc crc;
    uint64_t stored;
} sv_item;

typedef struct sv_job {
    sv_item *items; /* sorted by device */
    int nitems;
    int *first;     /* items of device d: [first[d], first[d+1]) */
    bool zstd;
    int level;
    size_t staging;
    size_t *dev_staging;
} sv_job;

static ss_status write_chunk(sv_item *it, bool zstd, ZSTD_CCtx *cctx, unsigned char *stage,
                             size_t cap)
{
    int fd = open(it->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return ss__fail(SS_ERR_IO, "cannot create chunk %s: %s", it->path, strerror(errno));
    ss__ck_crc_acc_init(&it->crc, SS_CKPT_CRC_BLOCK);
    ss_status st = SS_OK;
    if (!zstd) {
        ss__ck_crc_acc_add(&it->crc, it->data, it->bytes);
        st = ss__ck_write_all(fd, it->data, it->bytes, it->path);
        it->stored = it->bytes;
    } else {
        ZSTD_CCtx_reset(cctx, ZSTD_reset_session_only);
        ZSTD_CCtx_setPledgedSrcSize(cctx, it->bytes);
        ZSTD_inBuffer in = {it->data, it->bytes, 0};
        size_t rem;
        do {
            ZSTD_outBuffer out = {stage, cap, 0};
            rem = ZSTD_compressStream2(cctx, &out, &in, ZSTD_e_end);
            if (ZSTD_isError(rem)) {
                st = ss__fail(SS_ERR_IO, "zstd failed on %s: %s", it->path,
                              ZSTD_getErrorName(rem));
                break;
            }
            ss__ck_crc_acc_add(&it->crc, stage, out.pos);
            st = ss__ck_write_all(fd, stage, out.pos, it->path);
            it->stored += out.pos;
        } while (st == SS_OK && rem != 0);
    }
    ss__ck_crc_acc_finish(&it->crc);
    if (st == SS_OK && it->crc.oom)
        st = ss__fail(SS_ERR_NOMEM, "out of host memory for the checksums of %s", it->path);
    if (st == SS_OK && fsync(fd) != 0)
        st = ss__fail(SS_ERR_IO, "cannot sync %s: %s", it->path, strerror(errno));
    if (close(fd) != 0 && st == SS_OK)
        st = ss__fail(SS_ERR_IO, "cannot close %s: %s", it->path, strerror(errno));
    return st;
}

static ss_status save_device(ss_device *dev, void *user)
{
    sv_job *job = user;
    int d = ss_device_id(dev);
    int lo = job->first[d], hi = job->first[d + 1];
    if (lo == hi)
        return SS_OK;
    ss_context *ctx = ss_device_context(dev);
    unsigned char *stage = NULL;
    size_t cap = 0;
    ZSTD_CCtx *cctx = NULL;
    ss_status st = SS_OK;
    if (job->zstd) {
        for (int i = lo; i < hi; i++) {
            size_t need = ss__align64(ZSTD_compressBound(job->items[i].bytes));
            if (need > cap)
                cap = need;
        }
        if (cap > job->staging)
            cap = job->staging;
        void *p;
        st = ss_device_alloc(ctx, d, cap, "checkpoint save staging", &p);
        if (st)
            return st;
        stage = p;
        job->dev_staging[d] = cap;
        cctx = ZSTD_createCCtx();
        if (!cctx) {
            ss_device_free(ctx, d, stage);
            return ss__fail(SS_ERR_NOMEM, "device %d: no memory for a zstd context", d);
        }
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, job->level);
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1);
    }
    for (int i = lo; i < hi && st == SS_OK; i++)
        st = write_chunk(&job->items[i], job->zstd, cctx, stage, cap);
    if (cctx)
        ZSTD_freeCCtx(cctx);
    if (stage)
        ss_device_free(ctx, d, stage);
    return st;
}

static int item_cmp(const void *a, const void *b)
{
    const sv_item *x = a, *y = b;
    if (x->device != y->device)
        return x->device - y->device;
    if (x->array != y->array)
        return x->array - y->array;
    return strcmp(x->key, y->key);
}

/* --- Metadata files -------------------------------------------------------- */

static ss_status write_buf(const char *dir, const char *file, ss__buf *b)
{
    if (b->oom)
        return ss__fail(SS_ERR_NOMEM, "out of host memory writing %s/%s", dir, file);
    char *path = ss__ck_pathf("%s/%s", dir, file);
    if (!path)
        return ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    ss_status st = ss__ck_write_file(path, b->data ? b->data : "", b->len, true);
    free(path);
    return st;
}

static void py_ints(ss__buf *b, int n, const int64_t v[])
{
    ss__buf_putc(b, '[');
    for (int i = 0; i < n; i++)
        ss__buf_printf(b, i ? ", %lld" : "%lld", (long long)v[i]);
    ss__buf_putc(b, ']');
}

static ss_status write_tree(const char *item_dir, int n, const char *const names[],
                            const ss__ck_zarray *z, bool ocdbt)
{
    ss__buf b;
    ss__buf_init(&b);
    ss__buf_puts(&b, "{\"tree_metadata\": {");
    for (int i = 0; i < n; i++) {
        ss__buf t;
        ss__buf_init(&t);
        ss__ck_name_tuple(&t, names[i]);
        if (i)
            ss__buf_puts(&b, ", ");
        ss__json_str(&b, t.data ? t.data : "");
        ss__buf_free(&t);
        ss__buf_puts(&b, ": {\"key_metadata\": ");
        ss__ck_name_keys_json(&b, names[i]);
        ss__buf_puts(&b, ", \"value_metadata\": {\"value_type\": \"jax.Array\", "
                         "\"skip_deserialize\": false, \"write_shape\": ");
        py_ints(&b, z[i].rank, z[i].chunks);
        ss__buf_puts(&b, "}}");
    }
    /* custom_metadata carries the promise that every chunk has a checksum
     * record (open.c requires them then; see SS__CK_CHECKSUM_KEY). */
    ss__buf_printf(&b, "}, \"use_ocdbt\": %s, \"use_zarr3\": false, "
                       "\"store_array_data_equal_to_fill_value\": true, \"custom_metadata\": "
                       "{\"%s\": %d}}",
                   ocdbt ? "true" : "false", SS__CK_CHECKSUM_KEY, SS__CK_CHECKSUM_VERSION);
    ss_status st = write_buf(item_dir, "_METADATA", &b);
    ss__buf_free(&b);
    return st;
}

static ss_status write_shardings(const char *item_dir, int n, const char *const names[],
                                 ss_array *const arrays[])
{
    ss__buf b, e;
    ss__buf_init(&b);
    ss__buf_putc(&b, '{');
    for (int i = 0; i < n; i++) {
        if (i)
            ss__buf_putc(&b, ',');
        ss__buf_putc(&b, '"');
        ss__ck_base64url(&b, names[i]);
        ss__buf_puts(&b, "\":");
        ss__buf_init(&e);
        ss__ck_sharding_json(&e, ss_array_sharding(arrays[i]));
        ss__json_str(&b, e.data ? e.data : "");
        if (e.oom)
            b.oom = true;
        ss__buf_free(&e);
    }
    ss__buf_putc(&b, '}');
    ss_status st = write_buf(item_dir, "_sharding", &b);
    ss__buf_free(&b);
    return st;
}

/* array_metadatas/process_H: every array, with the chunks host H's devices wrote. */
static ss_status write_array_metadatas(ss_context *ctx, const char *item_dir, int n,
                                       const char *const names[], const ss__ck_zarray *z,
                                       const sv_job *job)
{
    char *md = ss__ck_pathf("%s/array_metadatas", item_dir);
    if (!md)
        return ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    ss_status st = ss__ck_mkdirs(md);
    int hosts = ss_context_process_count(ctx);
    for (int h = 0; h < hosts && st == SS_OK; h++) {
        ss__buf b;
        ss__buf_init(&b);
        ss__buf_puts(&b, "{\"array_metadatas\": [");
        for (int i = 0; i < n; i++) {
            ss__buf_puts(&b, i ? ", {\"array_metadata\": {\"param_name\": "
                               : "{\"array_metadata\": {\"param_name\": ");
            ss__json_str(&b, names[i]);
            ss__buf_puts(&b, ", \"write_shape\": ");
            py_ints(&b, z[i].rank, z[i].chunks);
            ss__buf_puts(&b, ", \"chunk_shape\": ");
            py_ints(&b, z[i].rank, z[i].chunks);
            ss__buf_printf(&b, ", \"ext_metadata\": {\"shardsim_zarray_crc32c\": %u, "
                               "\"shardsim_chunks\": {",
                           (unsigned)z[i].text_crc);
            int k = 0;
            for (int c = 0; c < job->nitems; c++) {
                const sv_item *it = &job->items[c];
                if (it->array != i || ss_context_process_index(ctx, it->device) != h)
                    continue;
                ss__buf_puts(&b, k++ ? ", " : "");
                ss__json_str(&b, it->key);
                ss__buf_printf(&b, ": {\"bytes\": %llu, \"crc32c_block\": %d, \"crc32c\": [",
                               (unsigned long long)it->stored, SS_CKPT_CRC_BLOCK);
                for (int64_t j = 0; j < it->crc.n; j++)
                    ss__buf_printf(&b, j ? ", %u" : "%u", (unsigned)it->crc.crc[j]);
                ss__buf_puts(&b, "]}");
            }
            ss__buf_puts(&b, "}}}}");
        }
        ss__buf_puts(&b, "]}");
        char file[64];
        snprintf(file, sizeof file, "process_%d", h);
        st = write_buf(md, file, &b);
        ss__buf_free(&b);
    }
    if (st == SS_OK)
        st = ss__ck_fsync_dir(md);
    free(md);
    return st;
}

/* --- The manager: keep the last N steps ----------------------------------- */

static ss_status delete_step(const char *dir, int64_t step)
{
    char *final = ss__ck_step_path(dir, step, false), *tmp = ss__ck_step_path(dir, step, true);
    ss_status st = SS_OK;
    if (!final || !tmp)
        st = ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    if (st == SS_OK)
        st = ss__ck_rmtree(tmp);
    /* Hide it first: once renamed, a half-deleted step is never listed. */
    if (st == SS_OK && rename(final, tmp) != 0)
        st = ss__fail(SS_ERR_IO, "cannot delete step %s: %s", final, strerror(errno));
    if (st == SS_OK)
        st = ss__ck_fsync_dir(dir);
    if (st == SS_OK)
        st = ss__ck_rmtree(tmp);
    free(final);
    free(tmp);
    return st;
}

static ss_status prune(const char *dir, int keep)
{
    int n = 0;
    int64_t one;
    ss_status st = ss_ckpt_steps(dir, &one, 0, &n);
    if ((st && st != SS_ERR_RANGE) || n <= keep)
        return st == SS_ERR_RANGE ? SS_OK : st;
    int64_t *steps = malloc((size_t)n * sizeof *steps);
    if (!steps)
        return ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    st = ss_ckpt_steps(dir, steps, n, &n);
    for (int i = 0; st == SS_OK && i < n - keep; i++)
        st = delete_step(dir, steps[i]);
    free(steps);
    return st;
}

/* Remove every DIR/N.orbax-checkpoint-tmp: saves and deletions that were
 * killed (CheckpointManager's cleanup of temporary directories). One
 * writer per checkpoint directory is assumed, as Orbax's primary host. */
static ss_status remove_leftovers(const char *dir)
{
    int n = 0;
    ss_ckpt_entry one;
    ss_status st = ss_ckpt_list(dir, &one, 0, &n);
    if (st != SS_OK && st != SS_ERR_RANGE)
        return st;
    ss_ckpt_entry *all = malloc((size_t)(n ? n : 1) * sizeof *all);
    if (!all)
        return ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    st = ss_ckpt_list(dir, all, n, &n);
    for (int i = 0; st == SS_OK && i < n; i++) {
        if (all[i].state != SS_CKPT_IN_PROGRESS)
            continue;
        char *tmp = ss__ck_step_path(dir, all[i].step, true);
        st = tmp ? ss__ck_rmtree(tmp) : ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
        free(tmp);
    }
    free(all);
    return st;
}

/* --- Save -------------------------------------------------------------------- */

static ss_status check_args(ss_context *ctx, const char *dir, int64_t step, int n,
                            const char *const names[], ss_array *const arrays[],
                            const ss_ckpt_save_options *o)
{
    if (!ctx || !dir || !*dir || step < 0 || n < 0 || (n > 0 && (!names || !arrays)))
        return ss__fail(SS_ERR_INVALID, "checkpoint save: context, directory, a step >= 0, "
                                        "names and arrays are required");
    if (o->compression != SS_CKPT_ZSTD && o->compression != SS_CKPT_UNCOMPRESSED)
        return ss__fail(SS_ERR_INVALID, "checkpoint save: unknown compression %d",
                        (int)o->compression);
    if (o->zstd_level < 0 || o->zstd_level > 19)
        return ss__fail(SS_ERR_INVALID, "checkpoint save: zstd_level %d is outside 1..19",
                        o->zstd_level);
    if (o->max_to_keep < 0)
        return ss__fail(SS_ERR_INVALID, "checkpoint save: max_to_keep %d is negative",
                        o->max_to_keep);
    if (o->item && ss__ck_name_check(o->item) != SS_OK)
        return ss__fail(SS_ERR_INVALID, "checkpoint save: item name '%s' is invalid", o->item);
    for (int i = 0; i < n; i++) {
        ss_status st = ss__ck_name_check(names[i]);
        if (st)
            return st;
        if (!arrays[i])
            return ss__fail(SS_ERR_INVALID, "checkpoint save: array '%s' is NULL", names[i]);
        for (int j = 0; j < i; j++)
            if (strcmp(names[i], names[j]) == 0)
                return ss__fail(SS_ERR_INVALID, "checkpoint save: array name '%s' is given "
                                                "twice",
                                names[i]);
        const ss_sharding *sh = ss_array_sharding(arrays[i]);
        if (sh->partial_mask || sh->manual_mask)
            return ss__fail(SS_ERR_INVALID, "checkpoint save: array '%s' has a %s sharding; "
                                            "save the reduced (or global) value",
                            names[i], sh->partial_mask ? "partial (pending sum)" : "manual");
        int nd = ss_context_device_count(ctx);
        for (int p = 0; p < ss_mesh_device_count(sh->mesh); p++)
            if (ss_mesh_device_id(sh->mesh, p) >= nd)
                return ss__fail(SS_ERR_RANGE, "checkpoint save: array '%s' lives on device %d, "
                                              "not one of the context's %d",
                                names[i], ss_mesh_device_id(sh->mesh, p), nd);
    }
    return SS_OK;
}

/* Describe the arrays (one .zarray each) and list the distinct shards. */
static ss_status plan_items(const char *item_dir, int n, const char *const names[],
                            ss_array *const arrays[], const ss_ckpt_save_options *o,
                            ss__ck_zarray *z, sv_job *job)
{
    int cap = 0;
    for (int i = 0; i < n; i++)
        cap += ss_mesh_device_count(ss_array_sharding(arrays[i])->mesh);
    job->items = calloc((size_t)(cap ? cap : 1), sizeof *job->items);
    ss_array_shard *shards = malloc(SS_MAX_DEVICES * sizeof *shards);
    if (!job->items || !shards) {
        free(shards);
        return ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    }
    ss_status st = SS_OK;
    for (int i = 0; i < n && st == SS_OK; i++) {
        const ss_array *a = arrays[i];
        ss__ck_zarray *zi = &z[i];
        zi->rank = ss_array_rank(a);
        zi->dtype = ss_array_dtype(a);
        zi->zstd = o->compression == SS_CKPT_ZSTD;
        zi->level = o->zstd_level ? o->zstd_level : 1;
        zi->sep = '.';
        if ((st = ss_sharding_shard_shape(ss_array_sharding(a), zi->rank, ss_array_shape(a),
                                          zi->chunks)))
            break;
        for (int d = 0; d < zi->rank; d++) {
            zi->shape[d] = ss_array_shape(a)[d];
            if (zi->chunks[d] < 1)
                zi->chunks[d] = 1; /* as Orbax: 0-sized dims chunk as 1 */
        }
        char *adir = ss__ck_pathf("%s/%s", item_dir, names[i]);
        if (!adir) {
            st = ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
            break;
        }
        ss__buf zb;
        ss__buf_init(&zb);
        ss__ck_zarray_write(&zb, zi);
        zi->text_crc = zb.data ? ss_crc32c(0, zb.data, zb.len) : 0;
        st = ss__ck_mkdirs(adir);
        if (st == SS_OK)
            st = write_buf(adir, ".zarray", &zb);
        ss__buf_free(&zb);
        int ns = 0;
        if (st == SS_OK)
            st = ss_array_shards(a, -1, shards, SS_MAX_DEVICES, &ns);
        for (int p = 0; p < ns && st == SS_OK; p++) {
            const ss_shard *s = &shards[p].index;
            if (s->replica_id != 0 || ss__ck_grid_total(zi) == 0)
                continue;
            int64_t idx[SS_MAX_RANK];
            for (int d = 0; d < zi->rank; d++)
                idx[d] = s->start[d] / zi->chunks[d];
            ss__buf key;
            ss__buf_init(&key);
            ss__ck_chunk_key(&key, zi, idx);
            sv_item *it = &job->items[job->nitems];
            it->array = i;
            it->device = s->device;
            it->data = shards[p].data;
            it->bytes = s->bytes;
            /* A key cut short by a failed append is no key (out of memory). */
            bool whole = key.data && !key.oom;
            it->key = whole ? ss__ck_pathf("%s", key.data) : NULL;
            it->path = whole ? ss__ck_pathf("%s/%s", adir, key.data) : NULL;
            ss__buf_free(&key);
            job->nitems++;
            if (!it->key || !it->path)
                st = ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
        }
        if (st == SS_OK)
            st = ss__ck_fsync_dir(adir);
        free(adir);
    }
    free(shards);
    return st;
}

void (*ss__ckpt_save_fault)(const char *stage);

static void fault(const char *stage)
{
    if (ss__ckpt_save_fault)
        ss__ckpt_save_fault(stage);
}

/* Publish the complete temporary directory as DIR/STEP. A new step is one
 * rename. An existing one (force) is exchanged with it atomically, so that
 * DIR/STEP is at every moment the old step or the new one; the old one,
 * now under the temporary name (which readers ignore and the next save
 * removes), is deleted last. */
static ss_status publish(const char *dir, const char *tmp, const char *final, bool replace)
{
    fault("written");
    ss_status st = SS_OK;
    bool swapped = false;
    char *aside = NULL;
    if (!replace) {
        if (rename(tmp, final) != 0)
            st = ss__fail(SS_ERR_IO, "cannot commit %s to %s: %s", tmp, final, strerror(errno));
    } else if (!(aside = ss__ck_pathf("%s.replaced", tmp))) {
        st = ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    } else {
        st = ss__ck_swap_dirs(tmp, final, aside, &swapped);
    }
    if (st == SS_OK)
        st = ss__ck_fsync_dir(dir);
    if (st == SS_OK)
        fault("published");
    if (st == SS_OK && replace)
        st = ss__ck_rmtree(swapped ? tmp : aside);
    if (st == SS_OK && replace)
        st = ss__ck_fsync_dir(dir);
    if (st == SS_OK && replace)
        fault("cleaned");
    free(aside);
    return st;
}

static ss_status finish(const char *dir, const char *tmp, const char *final, const char *item,
                        int64_t t_init, bool replace)
{
    char *item_dir = ss__ck_pathf("%s/%s", tmp, item);
    if (!item_dir)
        return ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    ss_status st = ss__ck_fsync_dir(item_dir);
    free(item_dir);
    ss__buf b;
    ss__buf_init(&b);
    ss__buf_puts(&b, "{\"item_handlers\": {");
    ss__json_str(&b, item);
    ss__buf_printf(&b, ": \"orbax.checkpoint._src.handlers.pytree_checkpoint_handler."
                       "PyTreeCheckpointHandler\"}, \"metrics\": {}, \"performance_metrics\": "
                       "{}, \"init_timestamp_nsecs\": %lld, \"commit_timestamp_nsecs\": %lld, "
                       "\"custom_metadata\": {}}",
                   (long long)t_init, (long long)ss__ck_now_ns());
    if (st == SS_OK)
        st = write_buf(tmp, "_CHECKPOINT_METADATA", &b);
    ss__buf_clear(&b);
    ss__buf_printf(&b, "Checkpoint commit was successful to %s", final);
    if (st == SS_OK)
        st = write_buf(tmp, "commit_success.txt", &b);
    ss__buf_free(&b);
    if (st == SS_OK)
        st = ss__ck_fsync_dir(tmp);
    if (st == SS_OK)
        st = publish(dir, tmp, final, replace);
    return st;
}

ss_status ss_ckpt_save(ss_context *ctx, const char *dir, int64_t step, int n,
                       const char *const names[], ss_array *const arrays[],
                       const ss_ckpt_save_options *opts, ss_ckpt_stats *stats)
{
    double t0 = ss__ck_seconds();
    int64_t t_init = ss__ck_now_ns();
    ss_ckpt_save_options o = {0};
    if (opts)
        o = *opts;
    ss_status st = check_args(ctx, dir, step, n, names, arrays, &o);
    if (st)
        return st;
    const char *item = o.item ? o.item : SS_CKPT_DEFAULT_ITEM;
    int nd = ss_context_device_count(ctx);
    char *final = ss__ck_step_path(dir, step, false), *tmp = ss__ck_step_path(dir, step, true);
    char *item_dir = tmp ? ss__ck_pathf("%s/%s", tmp, item) : NULL;
    ss__ck_zarray *z = calloc((size_t)(n ? n : 1), sizeof *z);
    sv_job job = {0};
    job.first = calloc((size_t)nd + 1, sizeof *job.first);
    job.dev_staging = calloc((size_t)nd, sizeof *job.dev_staging);
    job.zstd = o.compression == SS_CKPT_ZSTD;
    job.level = o.zstd_level ? o.zstd_level : 1;
    job.staging = o.staging_bytes ? ss__align64(o.staging_bytes) : SS_CKPT_DEFAULT_STAGING;
    if (!final || !tmp || !item_dir || !z || !job.first || !job.dev_staging)
        st = ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    if (st == SS_OK)
        st = ss__ck_mkdirs(dir);
    bool replace = false;
    if (st == SS_OK && access(final, F_OK) == 0) {
        if (o.force)
            replace = true;
        else
            st = ss__fail(SS_ERR_INVALID, "Destination %s already exists.", final);
    }
    if (st == SS_OK)
        st = remove_leftovers(dir);
    if (st == SS_OK)
        st = ss__ck_mkdirs(item_dir);
    if (st == SS_OK)
        st = plan_items(item_dir, n, names, arrays, &o, z, &job);
    if (st == SS_OK)
        st = write_tree(item_dir, n, names, z, o.ocdbt != 0);
    if (st == SS_OK)
        st = write_shardings(item_dir, n, names, arrays);
    if (st == SS_OK) {
        if (job.nitems > 1)
            qsort(job.items, (size_t)job.nitems, sizeof *job.items, item_cmp);
        for (int i = 0, d = 0; d <= nd; d++) {
            while (i < job.nitems && job.items[i].device < d)
                i++;
            job.first[d] = i;
        }
        st = ss_context_run(ctx, save_device, &job);
    }
    if (st == SS_OK)
        st = write_array_metadatas(ctx, item_dir, n, names, z, &job);
    if (st == SS_OK && o.ocdbt)
        st = ss__ocdbt_pack(item_dir, n, names);
    if (st == SS_OK)
        st = finish(dir, tmp, final, item, t_init, replace);
    ss_ckpt_stats s = {0};
    for (int i = 0; i < job.nitems; i++) {
        s.bytes_written += job.items[i].stored;
        s.bytes_logical += job.items[i].bytes;
        free(job.items[i].path);
        free(job.items[i].key);
        ss__ck_crc_acc_free(&job.items[i].crc);
    }
    s.chunks = job.nitems;
    for (int d = 0; job.dev_staging && d < nd; d++)
        if (job.dev_staging[d] > s.staging_bytes)
            s.staging_bytes = job.dev_staging[d];
    free(job.items);
    free(job.first);
    free(job.dev_staging);
    free(z);
    free(item_dir);
    free(tmp);
    free(final);
    if (st == SS_OK && o.max_to_keep > 0) {
        st = prune(dir, o.max_to_keep);
        if (st) {
            char msg[900];
            snprintf(msg, sizeof msg, "%s", ss_error_message());
            st = ss__fail(st, "checkpoint step %lld committed, but deleting old steps failed: %s",
                          (long long)step, msg);
        }
    }
    s.seconds = ss__ck_seconds() - t0;
    if (stats)
        *stats = s;
    return st;
}
