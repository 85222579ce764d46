/*
 * verify.c — checking a checkpoint without restoring it: commit marker,
 * metadata, every .zarray, and every byte of every chunk file against its
 * recorded CRC32Cs (zstd chunks are also decompressed to their size).
 *
 * It reads through the same chunk reader as a restore, with a host staging
 * buffer, one chunk at a time on the calling thread. What it does not do:
 * compare values with anything, or repair.
 */
#include "shardsim.h"

#include "ckpt_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct vf {
    FILE *log;
    int problems;
    ss_status first;
    char first_msg[1024];
    bool oom; /* a host allocation failed: stop, and say so (not a problem found) */
} vf;

static void problem(vf *v, int64_t step, ss_status st, const char *msg)
{
    if (st == SS_ERR_NOMEM) {
        if (!v->oom)
            snprintf(v->first_msg, sizeof v->first_msg, "step %lld: %s", (long long)step, msg);
        v->oom = true;
        return;
    }
    if (v->problems++ == 0) {
        v->first = st;
        snprintf(v->first_msg, sizeof v->first_msg, "step %lld: %s", (long long)step, msg);
    }
    if (v->log)
        fprintf(v->log, "step %lld: %s\n", (long long)step, msg);
}

static void verify_array(vf *v, ss_ckpt *ck, int i, ss__ck_reader *r, int64_t *nchunks,
                         uint64_t *stored)
{
    const ss__ck_zarray *z;
    ss_status st = ss__ck_zarray_get(ck, i, &z);
    if (st) {
        problem(v, ck->step, st, ss_error_message());
        return;
    }
    int64_t total = ss__ck_grid_total(z), idx[SS_MAX_RANK] = {0};
    for (int64_t c = 0; c < total && !v->oom; c++) {
        ss__ck_dest whole;
        ss__ck_region g;
        memset(&whole, 0, sizeof whole);
        memset(&g, 0, sizeof g);
        g.ck = ck;
        g.array = i;
        g.ndest = 1;
        g.dest = &whole;
        whole.dtype = z->dtype;
        for (int d = 0; d < z->rank; d++) {
            g.idx[d] = idx[d];
            whole.ext[d] = whole.dshape[d] = z->chunks[d]; /* the whole file, padding too */
        }
        uint64_t before = r->bytes_read;
        st = ss__ck_read_region(r, &g);
        if (st)
            problem(v, ck->step, st, ss_error_message());
        *stored += r->bytes_read - before;
        (*nchunks)++;
        for (int d = z->rank - 1; d >= 0; d--) {
            if (++idx[d] < ss__ck_grid(z, d))
                break;
            idx[d] = 0;
        }
    }
}

static bool any_zstd(const ss_ckpt *ck)
{
    for (int i = 0; i < ck->n; i++)
        if (ck->arrays[i].zloaded && ck->arrays[i].z.zstd)
            return true;
    return false;
}

static void verify_step(vf *v, const char *dir, int64_t step, const char *item, ss__ck_reader *r)
{
    ss_ckpt *ck;
    ss_status st = ss_ckpt_open(dir, step, item, &ck);
    if (st) {
        problem(v, step, st, ss_error_message());
        return;
    }
    int before = v->problems, unchecked = 0;
    int64_t chunks = 0;
    uint64_t stored = 0;
    for (int i = 0; i < ck->n && !v->oom; i++) {
        verify_array(v, ck, i, r, &chunks, &stored);
        unchecked += !ck->arrays[i].recorded;
    }
    if (v->log && v->problems == before && !v->oom) {
        char size[32];
        ss__fmt_bytes(size, sizeof size, (double)stored);
        if (unchecked == 0)
            fprintf(v->log, "step %lld: ok (%d arrays, %lld chunks, %s checked)\n",
                    (long long)ck->step, ck->n, (long long)chunks, size);
        else
            fprintf(v->log, "step %lld: readable, but it records no checksums (as Orbax and "
                            "zarr-python save): %d arrays, %lld chunks, %s read; sizes%s "
                            "checked, values not\n",
                    (long long)ck->step, ck->n, (long long)chunks, size,
                    any_zstd(ck) ? " and zstd frames" : "");
    }
    ss_ckpt_close(ck);
}

ss_status ss_ckpt_verify(const char *dir, int64_t step, const char *item, FILE *log,
                         int *problems)
{
    if (problems)
        *problems = 0;
    if (!dir)
        return ss__fail(SS_ERR_INVALID, "verify: no directory");
    vf v = {log, 0, SS_OK, "", false};
    ss__ck_reader r;
    memset(&r, 0, sizeof r);
    r.cap = SS_CKPT_DEFAULT_STAGING;
    r.staging = malloc(r.cap);
    if (!r.staging)
        return ss__fail(SS_ERR_NOMEM, "verify: out of host memory");
    ss_status st = SS_OK;
    if (step >= 0 || ss__ck_is_single(dir)) {
        verify_step(&v, dir, step, item, &r);
    } else {
        int n = 0;
        ss_ckpt_entry one;
        st = ss_ckpt_list(dir, &one, 0, &n);
        ss_ckpt_entry *all = st == SS_OK || st == SS_ERR_RANGE
                                 ? malloc((size_t)(n ? n : 1) * sizeof *all)
                                 : NULL;
        if (all)
            st = ss_ckpt_list(dir, all, n, &n);
        else if (st == SS_OK || st == SS_ERR_RANGE)
            st = ss__fail(SS_ERR_NOMEM, "verify: out of host memory");
        for (int i = 0; st == SS_OK && i < n && !v.oom; i++) {
            if (all[i].state == SS_CKPT_COMMITTED)
                verify_step(&v, dir, all[i].step, item, &r);
            else if (all[i].state == SS_CKPT_INCOMPLETE)
                problem(&v, all[i].step, SS_ERR_IO,
                        "Found incomplete checkpoint: the step directory has no "
                        "commit_success.txt");
            else if (log)
                fprintf(log, "step %lld: unfinished save in %lld%s (ignored by readers)\n",
                        (long long)all[i].step, (long long)all[i].step, SS_CKPT_TMP_SUFFIX);
        }
        if (st == SS_OK && n == 0 && log)
            fprintf(log, "%s: no checkpoints\n", dir);
        free(all);
    }
    ss__ck_reader_free(&r);
    free(r.staging);
    if (problems)
        *problems = v.problems;
    if (st)
        return st;
    if (v.oom)
        return ss__fail(SS_ERR_NOMEM, "verify stopped, out of host memory: %s", v.first_msg);
    if (v.problems)
        return ss__fail(v.first, "%s", v.first_msg);
    return SS_OK;
}
