/*
 * bench_collectives.c — `shardsim bench collectives [--json] [--threads N]
 * [--iters N]`: median time and nccl-tests bus bandwidth of all_reduce,
 * all_gather, reduce_scatter and all_to_all at 4 KiB, 1 MiB and 16 MiB over
 * 8 and 64 virtual devices, plus a single-thread memcpy baseline measured in
 * the same run.
 *
 * Sizes follow nccl-tests: all_reduce S = the buffer, all_gather S = the
 * gathered output, reduce_scatter S = the input, all_to_all S = each
 * device's buffer. busbw = S / t x (2(n-1)/n for all_reduce, (n-1)/n for the
 * others). The time of one iteration is measured on device 0 between
 * consecutive completions; the median over iterations is reported. Not a
 * test: numbers depend on the machine.
 */
#include "cli.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int ss__bench_collectives(int argc, char **argv);

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

typedef struct bench_job {
    ss_coll coll;
    size_t in_bytes, out_bytes;
    int iters, warmup;
    double *times; /* iters entries, filled by device 0 */
} bench_job;

static ss_status bench_body(ss_device *dev, void *user)
{
    bench_job *j = user;
    ss_context *ctx = ss_device_context(dev);
    int id = ss_device_id(dev);
    void *in, *out;
    ss_status st = ss_device_alloc(ctx, id, j->in_bytes, "bench in", &in);
    if (st)
        return st;
    st = ss_device_alloc(ctx, id, j->out_bytes, "bench out", &out);
    if (st) {
        ss_device_free(ctx, id, in);
        return st;
    }
    memset(in, 1, j->in_bytes); /* touch the pages before timing */
    memset(out, 0, j->out_bytes);
    double last = now_s();
    for (int i = 0; i < j->warmup + j->iters && st == SS_OK; i++) {
        st = ss_device_collective(dev, &j->coll, in, out);
        double t = now_s();
        if (id == 0 && i >= j->warmup)
            j->times[i - j->warmup] = t - last;
        last = t;
    }
    ss_device_free(ctx, id, in);
    ss_device_free(ctx, id, out);
    return st;
}

typedef struct result {
    const char *op;
    size_t bytes;
    int devices;
    double median_ms, busbw_gbs;
} result;

static void print_result(const result *r, bool json, bool *first)
{
    if (json) {
        printf("%s\n  {\"op\":\"%s\",\"bytes\":%zu,\"devices\":%d,\"median_ms\":%.4f,"
               "\"busbw_gbs\":%.3f}",
               *first ? "[" : ",", r->op, r->bytes, r->devices, r->median_ms, r->busbw_gbs);
    } else {
        if (*first)
            printf("%-15s %10s %8s %12s %12s\n", "op", "bytes", "devices", "median_ms",
                   "busbw_GB/s");
        printf("%-15s %10zu %8d %12.4f %12.3f\n", r->op, r->bytes, r->devices, r->median_ms,
               r->busbw_gbs);
    }
    *first = false;
    fflush(stdout);
}

static int bench_memcpy(size_t bytes, int iters, result *r)
{
    unsigned char *a = malloc(bytes), *b = malloc(bytes);
    double *t = malloc(sizeof *t * (size_t)iters);
    if (!a || !b || !t) {
        free(a);
        free(b);
        free(t);
        return 1;
    }
    memset(a, 1, bytes);
    memset(b, 2, bytes);
    for (int i = 0; i < iters + 2; i++) {
        double t0 = now_s();
        memcpy(b, a, bytes);
        double t1 = now_s();
        if (i >= 2)
            t[i - 2] = t1 - t0;
        a[i % bytes] ^= b[(i * 7) % bytes];
    }
    double m = median(t, iters);
    *r = (result){"memcpy", bytes, 1, m * 1e3, (double)bytes / m / 1e9};
    free(a);
    free(b);
    free(t);
    return 0;
}

static const char collectives_help[] =
    "usage: shardsim bench collectives [--json] [--threads N] [--iters N]\n"
    "\n"
    "Median time and nccl-tests bus bandwidth of all_reduce, all_gather,\n"
    "reduce_scatter and all_to_all at 4 KiB, 1 MiB and 16 MiB on 8 and 64\n"
    "virtual devices, beside a single-thread memcpy of the same sizes.\n"
    "\n"
    "  --json         a JSON array of {op, bytes, devices, median_ms, busbw_gbs}\n"
    "  --threads N    worker threads running the devices (default: the online cores)\n"
    "  --iters N      timed iterations per measurement (default: 201 at 4 KiB,\n"
    "                 21 at 1 MiB, 7 at 16 MiB; 50 for memcpy)\n";

int ss__bench_collectives(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fputs(collectives_help, stdout);
        return 0;
    }
    bool json = false;
    int threads = 0, iters = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = true;
        else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (strcmp(argv[i], "--iters") == 0 && i + 1 < argc)
            iters = atoi(argv[++i]);
        else if (strcmp(argv[i], "collectives") != 0) {
            fprintf(stderr, "bench collectives: unknown option '%s' (--json, --threads N, "
                            "--iters N)\n",
                    argv[i]);
            return 2;
        }
    }
    static const size_t sizes[] = {4096, (size_t)1 << 20, (size_t)16 << 20};
    static const int device_counts[] = {8, 64};
    static const ss_coll_kind kinds[] = {SS_COLL_ALL_REDUCE, SS_COLL_ALL_GATHER,
                                         SS_COLL_REDUCE_SCATTER, SS_COLL_ALL_TO_ALL};
    bool first = true;
    result r;
    for (int s = 0; s < 3; s++) {
        if (bench_memcpy(sizes[s], iters ? iters : 50, &r) == 0)
            print_result(&r, json, &first);
    }
    for (int di = 0; di < 2; di++) {
        int n = device_counts[di];
        ss_context_options o = {.ndevices = n, .device_memory = (size_t)1 << 30,
                                .threads = threads, .timeout = 120};
        ss_context *ctx;
        ss_mesh *mesh;
        if (ss_context_create(&o, &ctx) != SS_OK) {
            fprintf(stderr, "bench collectives: %s\n", ss_error_message());
            return 1;
        }
        char mesh_text[32];
        snprintf(mesh_text, sizeof mesh_text, "x=%d", n);
        ss_mesh_parse(mesh_text, n, NULL, &mesh);
        for (int s = 0; s < 3; s++) {
            for (int k = 0; k < 4; k++) {
                size_t S = sizes[s];
                size_t elems = S / 4;
                bench_job j;
                memset(&j, 0, sizeof j);
                int64_t len = (int64_t)elems;
                if (kinds[k] == SS_COLL_ALL_GATHER)
                    len = (int64_t)(elems / (size_t)n);
                ss_coll_init(&j.coll, kinds[k], mesh, "x", SS_F32, 1, &len);
                j.coll.tiled = 1;
                ss_dtype odt;
                int orank;
                int64_t oshape[SS_MAX_RANK];
                if (ss_coll_output(&j.coll, &odt, &orank, oshape) != SS_OK) {
                    fprintf(stderr, "bench collectives: %s\n", ss_error_message());
                    continue;
                }
                j.in_bytes = (size_t)len * 4;
                j.out_bytes = (size_t)oshape[0] * 4;
                j.iters = iters ? iters : S >= ((size_t)16 << 20) ? 7 : S >= ((size_t)1 << 20) ? 21 : 201;
                j.warmup = 2;
                j.times = calloc((size_t)j.iters, sizeof *j.times);
                ss_context_ledger_clear(ctx);
                if (!j.times || ss_context_run(ctx, bench_body, &j) != SS_OK) {
                    fprintf(stderr, "bench collectives: %s\n", ss_error_message());
                    free(j.times);
                    continue;
                }
                double m = median(j.times, j.iters);
                double factor = ss_coll_busbw_factor(kinds[k], n);
                r = (result){ss_coll_kind_name(kinds[k]), S, n, m * 1e3,
                             (double)S / m * factor / 1e9};
                print_result(&r, json, &first);
                free(j.times);
            }
        }
        ss_context_ledger_clear(ctx);
        ss_mesh_destroy(mesh);
        ss_context_destroy(ctx);
    }
    if (json)
        printf("\n]\n");
    return 0;
}
