/*
 * bench_ckpt.c — `shardsim bench ckpt [--mib N] [--devices N] [--dir DIR]
 * [--compression none|zstd|both] [--keep]`: save and restore of a sharded
 * state (default 1 GiB of f32 in four arrays on 8 devices, P('a', 'b') over
 * a 2x4 mesh), beside a plain sequential write (with fsync) and read of the
 * same bytes by one thread in the same run, all in GB/s (1e9 bytes/s).
 *
 * Restores: into the saved sharding, then resharded by rows (P('c', None)
 * over 8), by rows and columns (2x2x2) and by columns (P(None, 'c')); each
 * line gives bytes read / bytes needed (below 1 for zstd: compressed bytes
 * are read). An untimed restore first touches the arena pages the restores
 * use. Reads hit the page cache, for the baseline as for the restores
 * (nothing is dropped), so read figures are memory-bound; writes include
 * fsync. The baseline runs before and after the checkpoints. Not a test:
 * numbers depend on the machine and its disk.
 *
 * `--from DIR` instead restores the checkpoint in DIR (its latest step, or
 * DIR itself when it is one checkpoint: what Orbax wrote, OCDBT included)
 * into P('b', 'a') over the 2x4 mesh (rank-2 arrays that divide; others
 * replicated): an untimed restore, then the best of three
 * (bench/orbax_restore.py runs it beside TensorStore).
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int ss__bench_ckpt(int argc, char **argv);

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Uniform floats in [-1, 1): random mantissas, as trained weights have. */
static ss_status fill_random(const ss_shard *index, void *dst, void *user)
{
    (void)user;
    uint64_t x = 0x9E3779B97F4A7C15ull ^ ((uint64_t)index->start[0] << 20) ^
                 (uint64_t)index->start[1];
    float *f = dst;
    size_t n = index->bytes / 4;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        f[i] = (float)((double)(x >> 40) / (double)(1ull << 23)) - 1.0f;
    }
    return SS_OK;
}

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void line(const char *what, double bytes, double secs, const char *extra)
{
    printf("  %-44s %9.1f MiB %8.3f s %7.2f GB/s  %s\n", what, bytes / (1 << 20), secs,
           bytes / secs / 1e9, extra ? extra : "");
}

typedef struct bench {
    ss_context *ctx;
    int nd;
    int64_t shape[2];
    ss_array *arr[4];
    const char *names[4];
    char dir[512];
} bench;

/* One thread writes every replica-0 shard into one file, fsyncs it, and
 * reads it back into the same shards. */
static int baseline(bench *b, double *wsec, double *rsec, double *bytes)
{
    char path[600];
    snprintf(path, sizeof path, "%s/plain.bin", b->dir);
    ss_array_shard *sh = malloc(SS_MAX_DEVICES * sizeof *sh);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (!sh || fd < 0) {
        free(sh);
        fprintf(stderr, "bench ckpt: cannot create %s: %s\n", path, strerror(errno));
        return 1;
    }
    *bytes = 0;
    double t0 = now_s();
    for (int i = 0; i < 4; i++) {
        int n;
        ss_array_shards(b->arr[i], -1, sh, SS_MAX_DEVICES, &n);
        for (int p = 0; p < n; p++) {
            if (sh[p].index.replica_id)
                continue;
            const char *q = sh[p].data;
            size_t left = sh[p].index.bytes;
            while (left) {
                ssize_t w = write(fd, q, left);
                if (w <= 0) {
                    fprintf(stderr, "bench ckpt: write %s: %s\n", path, strerror(errno));
                    close(fd);
                    free(sh);
                    return 1;
                }
                q += w;
                left -= (size_t)w;
            }
            *bytes += (double)sh[p].index.bytes;
        }
    }
    fsync(fd);
    close(fd);
    *wsec = now_s() - t0;
    fd = open(path, O_RDONLY);
    t0 = now_s();
    off_t off = 0;
    for (int i = 0; i < 4 && fd >= 0; i++) {
        int n;
        ss_array_shards(b->arr[i], -1, sh, SS_MAX_DEVICES, &n);
        for (int p = 0; p < n; p++) {
            if (sh[p].index.replica_id)
                continue;
            char *q = sh[p].data;
            size_t left = sh[p].index.bytes;
            while (left) {
                ssize_t r = pread(fd, q, left, off);
                if (r <= 0)
                    break;
                q += r;
                off += r;
                left -= (size_t)r;
            }
        }
    }
    *rsec = now_s() - t0;
    if (fd >= 0)
        close(fd);
    unlink(path);
    free(sh);
    return 0;
}

static int restore_line(bench *b, int64_t step, const char *mesh_text, const char *spec_text,
                        const char *label)
{
    ss_mesh *m;
    ss_spec spec;
    if (ss_mesh_make(mesh_text, b->nd, NULL, &m) != SS_OK ||
        ss_spec_parse(spec_text, &spec) != SS_OK) {
        fprintf(stderr, "bench ckpt: %s\n", ss_error_message());
        return 1;
    }
    ss_ckpt_target t[4];
    for (int i = 0; i < 4; i++) {
        memset(&t[i], 0, sizeof t[i]);
        t[i].name = b->names[i];
        t[i].dtype = SS_F32;
        t[i].rank = 2;
        t[i].shape[0] = b->shape[0];
        t[i].shape[1] = b->shape[1];
        ss_sharding_init(&t[i].sharding, m, &spec);
    }
    ss_ckpt_state *s;
    ss_ckpt_stats st;
    if (ss_ckpt_restore(b->ctx, b->dir, step, 4, t, NULL, &s, &st) != SS_OK) {
        fprintf(stderr, "bench ckpt: restore %s: %s\n", spec_text, ss_error_message());
        ss_mesh_destroy(m);
        return 1;
    }
    char extra[128], what[160];
    snprintf(extra, sizeof extra, "read/needed %.3f", (double)st.bytes_read /
                                                          (double)st.bytes_needed);
    snprintf(what, sizeof what, "restore %s", label ? label : "");
    if (label)
        line(what, (double)st.bytes_needed, st.seconds, extra);
    ss_ckpt_state_destroy(s);
    ss_mesh_destroy(m);
    return 0;
}

static int run(bench *b, ss_ckpt_compression comp, int64_t step)
{
    ss_ckpt_save_options so = {.compression = comp};
    ss_ckpt_stats st;
    if (ss_ckpt_save(b->ctx, b->dir, step, 4, b->names, b->arr, &so, &st) != SS_OK) {
        fprintf(stderr, "bench ckpt: save: %s\n", ss_error_message());
        return 1;
    }
    char extra[128];
    snprintf(extra, sizeof extra, "%lld chunks, %.1f MiB on disk", (long long)st.chunks,
             (double)st.bytes_written / (1 << 20));
    printf("%s:\n", comp == SS_CKPT_ZSTD ? "zstd level 1" : "uncompressed");
    line("save (8 device threads, fsync, commit)", (double)st.bytes_logical, st.seconds, extra);
    if (step == 1) {
        /* Untimed: the first restore touches fresh arena pages (page faults,
         * not I/O); later ones reuse them, as a device's HBM is reused. */
        printf("  (untimed warm-up restore)\n");
        if (restore_line(b, step, "c=8", "P('c', None)", NULL))
            return 1;
    }
    int rc = restore_line(b, step, "a=2,b=4", "P('a', 'b')", "same sharding, 2x4 P('a','b')");
    if (!rc)
        rc = restore_line(b, step, "c=8", "P('c', None)", "rows, 8 P('c', None)");
    if (!rc)
        rc = restore_line(b, step, "x=2,y=2,z=2", "P(('x', 'y'), 'z')",
                          "2x2x2 P(('x','y'), 'z')");
    if (!rc)
        rc = restore_line(b, step, "c=8", "P(None, 'c')", "columns, 8 P(None, 'c')");
    return rc;
}

static int restore_from(const char *dir)
{
    ss_ckpt *ck;
    if (ss_ckpt_open(dir, -1, NULL, &ck) != SS_OK) {
        fprintf(stderr, "bench ckpt: %s\n", ss_error_message());
        return SS_EXIT_USAGE;
    }
    int n = ss_ckpt_array_count(ck), rc = SS_EXIT_OK;
    ss_ckpt_array_desc *d = calloc((size_t)(n ? n : 1), sizeof *d);
    ss_ckpt_target *t = calloc((size_t)(n ? n : 1), sizeof *t);
    ss_context_options co = {.ndevices = 8, .device_memory = (size_t)16 << 30};
    ss_context *ctx = NULL;
    ss_mesh *m = NULL;
    ss_spec ba, rep;
    if (!d || !t || ss_context_create(&co, &ctx) != SS_OK ||
        ss_mesh_make("a=2,b=4", 8, NULL, &m) != SS_OK || ss_spec_parse("P('b', 'a')", &ba) ||
        ss_spec_parse("P()", &rep))
        rc = SS_EXIT_USAGE;
    for (int i = 0; rc == SS_EXIT_OK && i < n; i++) {
        if (ss_ckpt_array_info(ck, i, &d[i]) != SS_OK) {
            rc = SS_EXIT_USAGE;
            break;
        }
        t[i].name = d[i].name;
        t[i].dtype = d[i].dtype;
        t[i].rank = d[i].rank;
        memcpy(t[i].shape, d[i].shape, sizeof t[i].shape);
        bool split = d[i].rank == 2 && d[i].shape[0] % 4 == 0 && d[i].shape[1] % 2 == 0;
        ss_sharding_init(&t[i].sharding, m, split ? &ba : &rep);
    }
    double best = 0;
    ss_ckpt_stats st = {0};
    for (int k = 0; rc == SS_EXIT_OK && k < 4; k++) {
        ss_ckpt_state *s;
        if (ss_ckpt_restore(ctx, dir, -1, n, t, NULL, &s, &st) != SS_OK) {
            rc = SS_EXIT_USAGE;
            break;
        }
        ss_ckpt_state_destroy(s);
        if (k == 1 || (k > 1 && st.seconds < best))
            best = st.seconds;
    }
    if (rc != SS_EXIT_OK) {
        fprintf(stderr, "bench ckpt: %s\n", ss_error_message());
    } else {
        char extra[128];
        snprintf(extra, sizeof extra, "read/needed %.3f, %d arrays",
                 (double)st.bytes_read / (double)(st.bytes_needed ? st.bytes_needed : 1), n);
        printf("shardsim bench ckpt --from %s (untimed restore, then best of 3):\n", dir);
        line("restore into P('b', 'a') on 2x4", (double)st.bytes_needed, best, extra);
    }
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
    ss_ckpt_close(ck);
    free(t);
    free(d);
    return rc;
}

static const char ckpt_bench_help[] =
    "usage: shardsim bench ckpt [--mib N] [--dir DIR] [--compression none|zstd|both] [--keep]\n"
    "       shardsim bench ckpt --from DIR\n"
    "\n"
    "Save and restore a sharded state (four f32 arrays, P('a', 'b') on a 2x4 mesh\n"
    "of 8 virtual devices) in Orbax's layout, then restore it resharded by rows,\n"
    "by rows and columns (2x2x2) and by columns, beside a plain sequential write\n"
    "(with fsync) and read of the same bytes; all in GB/s.\n"
    "\n"
    "  --mib N          size of the state in MiB, >= 8 (default 1024)\n"
    "  --dir DIR        where to write (default: a new /tmp/shardsim-bench-ckpt-*)\n"
    "  --compression C  none, zstd or both (default both)\n"
    "  --keep           leave the checkpoint on disk\n"
    "  --from DIR       only restore the checkpoint in DIR (e.g. one Orbax wrote) into\n"
    "                   P('b', 'a') on the 2x4 mesh: an untimed restore, then the best of 3\n";

int ss__bench_ckpt(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fputs(ckpt_bench_help, stdout);
        return SS_EXIT_OK;
    }
    int mib = 1024, nd = 8;
    const char *dir = NULL, *comp = "both";
    bool keep = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--mib") == 0 && v) {
            mib = atoi(v);
            i++;
        } else if (strcmp(a, "--devices") == 0 && v) {
            nd = atoi(v);
            i++;
        } else if (strcmp(a, "--dir") == 0 && v) {
            dir = v;
            i++;
        } else if (strcmp(a, "--compression") == 0 && v) {
            comp = v;
            i++;
        } else if (strcmp(a, "--keep") == 0) {
            keep = true;
        } else if (strcmp(a, "--from") == 0 && v) {
            return restore_from(v);
        } else {
            fprintf(stderr, "usage: shardsim bench ckpt [--mib N] [--dir DIR] "
                            "[--compression none|zstd|both] [--keep]\n");
            return strcmp(a, "--help") == 0 ? SS_EXIT_OK : SS_EXIT_USAGE;
        }
    }
    if (mib < 8 || nd != 8 || (strcmp(comp, "none") && strcmp(comp, "zstd") &&
                               strcmp(comp, "both"))) {
        fprintf(stderr, "bench ckpt: --mib must be >= 8, --devices 8 (the meshes are 2x4, "
                        "2x2x2 and 8), --compression none, zstd or both\n");
        return SS_EXIT_USAGE;
    }
    bench b;
    memset(&b, 0, sizeof b);
    b.nd = nd;
    if (dir)
        snprintf(b.dir, sizeof b.dir, "%s", dir);
    else {
        snprintf(b.dir, sizeof b.dir, "/tmp/shardsim-bench-ckpt-XXXXXX");
        if (!mkdtemp(b.dir)) {
            fprintf(stderr, "bench ckpt: mkdtemp: %s\n", strerror(errno));
            return SS_EXIT_USAGE;
        }
    }
    /* Four arrays [rows, 8192] f32 of mib/4 MiB each; rows divisible by 8. */
    b.shape[1] = 8192;
    b.shape[0] = ((int64_t)mib << 20) / 4 / 4 / 8192 / 8 * 8;
    static const char *const names[4] = {"params.w0", "params.w1", "opt.mu", "opt.nu"};
    ss_context_options co = {.ndevices = nd, .device_memory = (size_t)2 << 30};
    ss_mesh *m = NULL;
    ss_spec spec;
    int rc = SS_EXIT_OK;
    if (ss_context_create(&co, &b.ctx) != SS_OK || ss_mesh_make("a=2,b=4", nd, NULL, &m) ||
        ss_spec_parse("P('a', 'b')", &spec)) {
        fprintf(stderr, "bench ckpt: %s\n", ss_error_message());
        ss_context_destroy(b.ctx);
        return SS_EXIT_USAGE;
    }
    ss_sharding sh;
    ss_sharding_init(&sh, m, &spec);
    for (int i = 0; i < 4 && rc == SS_EXIT_OK; i++) {
        b.names[i] = names[i];
        if (ss_array_from_callback(b.ctx, &sh, 2, b.shape, SS_F32, fill_random, NULL, names[i],
                                   &b.arr[i]) != SS_OK) {
            fprintf(stderr, "bench ckpt: %s\n", ss_error_message());
            rc = SS_EXIT_USAGE;
        }
    }
    double total = 4.0 * (double)b.shape[0] * (double)b.shape[1] * 4;
    printf("shardsim bench ckpt: %.0f MiB of f32 in 4 arrays [%lld, %lld], P('a', 'b') on a "
           "2x4 mesh of %d devices, in %s\n",
           total / (1 << 20), (long long)b.shape[0], (long long)b.shape[1], nd, b.dir);
    double wsec = 0, rsec = 0, bytes = 0;
    if (rc == SS_EXIT_OK && baseline(&b, &wsec, &rsec, &bytes) != 0)
        rc = SS_EXIT_USAGE;
    if (rc == SS_EXIT_OK) {
        printf("baseline (one thread, one file, same bytes):\n");
        line("plain sequential write + fsync", bytes, wsec, NULL);
        line("plain sequential read", bytes, rsec, NULL);
    }
    if (rc == SS_EXIT_OK && strcmp(comp, "zstd") != 0)
        rc = run(&b, SS_CKPT_UNCOMPRESSED, 1);
    if (rc == SS_EXIT_OK && strcmp(comp, "none") != 0)
        rc = run(&b, SS_CKPT_ZSTD, 2);
    if (rc == SS_EXIT_OK && baseline(&b, &wsec, &rsec, &bytes) == 0) {
        printf("baseline again, after the checkpoints:\n");
        line("plain sequential write + fsync", bytes, wsec, NULL);
        line("plain sequential read", bytes, rsec, NULL);
    }
    for (int i = 0; i < 4; i++)
        ss_array_destroy(b.arr[i]);
    ss_mesh_destroy(m);
    ss_context_destroy(b.ctx);
    if (!keep) {
        char step[600];
        for (int k = 1; k <= 2; k++) {
            snprintf(step, sizeof step, "%s/%d", b.dir, k);
            nftw(step, remove_one, 16, FTW_DEPTH | FTW_PHYS);
        }
        if (!dir)
            rmdir(b.dir);
    }
    return rc;
}
