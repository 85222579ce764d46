/* runtime_tsan.c — the device runtime's threads exercised without
 * Criterion, so that it can run under ThreadSanitizer (Criterion cannot
 * start under TSan: Snaipe/Criterion#274). Every collective against the
 * reference on 2- and 3-axis meshes, then a mismatch, a straggler past the
 * timeout, a skipped collective and an OOM, each followed by a clean run;
 * then a compiled train step (grad, all-reduces, Adam written in place over
 * donated arrays; replicas stored once, and every device its own copy)
 * against the same step from host buffers.
 * Prints one line per failure; exit status 0 when all pass. */
#include "shardsim.h"

/* Internal on purpose: results are compared with ss__coll_reference. */
#include "device/coll_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                        \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
        }                                                                                          \
    } while (0)

typedef struct job {
    const ss_coll *c;
    unsigned char **in, **out;
    size_t in_bytes, out_bytes;
    int odd; /* this device calls `other` instead (-1: none) */
    const ss_coll *other;
} job;

static ss_status body(ss_device *dev, void *user)
{
    job *j = user;
    int p = ss_mesh_position_of(j->c->mesh, ss_device_id(dev));
    if (p < 0)
        return SS_OK;
    ss_context *ctx = ss_device_context(dev);
    void *in, *out;
    ss_status st = ss_device_alloc(ctx, ss_device_id(dev), j->in_bytes, "in", &in);
    if (st)
        return st;
    st = ss_device_alloc(ctx, ss_device_id(dev), j->out_bytes + 64, "out", &out);
    if (!st) {
        memcpy(in, j->in[p], j->in_bytes);
        for (int rep = 0; rep < 2 && !st; rep++) {
            ss_device_kernel_begin(dev, "copy");
            memcpy(out, in, j->in_bytes < j->out_bytes ? j->in_bytes : j->out_bytes);
            ss_device_kernel_end(dev);
            st = ss_device_collective(dev, ss_device_id(dev) == j->odd ? j->other : j->c, in, out);
        }
        memcpy(j->out[p], out, j->out_bytes);
        ss_device_free(ctx, ss_device_id(dev), out);
    }
    ss_device_free(ctx, ss_device_id(dev), in);
    return st;
}

static ss_status run(ss_context *ctx, const ss_coll *c, int odd, const ss_coll *other,
                     bool compare)
{
    ss_dtype odt;
    int orank;
    int64_t oshape[SS_MAX_RANK];
    if (ss_coll_output(c, &odt, &orank, oshape) != SS_OK) {
        CHECK(0, "%s", ss_error_message());
        return SS_ERR_INVALID;
    }
    int n = ss_mesh_device_count(c->mesh);
    job j = {.c = c, .odd = odd, .other = other};
    j.in_bytes = ss__shape_elems(c->rank, c->shape) * ss_dtype_size(c->dtype);
    j.out_bytes = ss__shape_elems(orank, oshape) * ss_dtype_size(odt);
    j.in = calloc((size_t)n, sizeof *j.in);
    j.out = calloc((size_t)n, sizeof *j.out);
    unsigned char **ref = calloc((size_t)n, sizeof *ref);
    for (int p = 0; p < n; p++) {
        j.in[p] = malloc(j.in_bytes + 1);
        j.out[p] = calloc(1, j.out_bytes + 1);
        ref[p] = calloc(1, j.out_bytes + 1);
        for (size_t b = 0; b < j.in_bytes; b++)
            j.in[p][b] = (unsigned char)(rand() & 0x3f);
    }
    ss_status st = ss_context_run(ctx, body, &j);
    if (compare) {
        CHECK(st == SS_OK, "%s", ss_error_message());
        ss__coll_reference(c, (const void *const *)j.in, (void *const *)ref);
        for (int p = 0; p < n; p++)
            CHECK(memcmp(ref[p], j.out[p], j.out_bytes) == 0, "%s differs at %d",
                  ss_coll_kind_name(c->kind), p);
    }
    for (int p = 0; p < n; p++) {
        free(j.in[p]);
        free(j.out[p]);
        free(ref[p]);
    }
    free(j.in);
    free(j.out);
    free(ref);
    return st;
}

static void sweep(const char *mesh_text, int n, int threads)
{
    ss_context_options o = {.ndevices = n, .device_memory = (size_t)16 << 20,
                            .threads = threads, .timeout = 60};
    ss_context *ctx;
    ss_mesh *m;
    if (ss_context_create(&o, &ctx) || ss_mesh_parse(mesh_text, n, NULL, &m)) {
        CHECK(0, "%s", ss_error_message());
        return;
    }
    static const char *axes[] = {"x", "y", "x,y", "y,x"};
    for (int a = 0; a < 4; a++) {
        ss_coll c;
        int G;
        ss_coll_init(&c, SS_COLL_ALL_REDUCE, m, axes[a], SS_F32, 1, (int64_t[]){100});
        ss__coll_group_size(&c, &G);
        run(ctx, &c, -1, NULL, true);
        c.op = SS_REDUCE_MAX;
        run(ctx, &c, -1, NULL, true);
        ss_coll_init(&c, SS_COLL_ALL_GATHER, m, axes[a], SS_I32, 2, (int64_t[]){3, 2});
        c.tiled = 1;
        c.axis = 1;
        run(ctx, &c, -1, NULL, true);
        ss_coll_init(&c, SS_COLL_REDUCE_SCATTER, m, axes[a], SS_F32, 2, (int64_t[]){2 * G, 3});
        c.tiled = 1;
        run(ctx, &c, -1, NULL, true);
        ss_coll_init(&c, SS_COLL_ALL_TO_ALL, m, axes[a], SS_I32, 2, (int64_t[]){G, 3});
        c.concat_axis = 1;
        run(ctx, &c, -1, NULL, true);
        int pairs[2][2] = {{0, 1}, {1, 0}};
        ss_coll_init(&c, SS_COLL_PERMUTE, m, axes[a], SS_F32, 1, (int64_t[]){5});
        c.pairs = (const int(*)[2])pairs;
        c.npairs = G > 1 ? 2 : 0;
        run(ctx, &c, -1, NULL, true);
        ss_coll_init(&c, SS_COLL_BROADCAST, m, axes[a], SS_F32, 1, (int64_t[]){5});
        run(ctx, &c, -1, NULL, true);
    }
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
}

static void failures_and_recovery(void)
{
    /* 1 s: clean runs must not trip it on a loaded machine under TSan. */
    ss_context_options o = {.ndevices = 8, .device_memory = (size_t)1 << 20, .timeout = 1.0};
    ss_context *ctx;
    ss_mesh *m;
    if (ss_context_create(&o, &ctx) || ss_mesh_parse("x=2,y=4", 8, NULL, &m)) {
        CHECK(0, "%s", ss_error_message());
        return;
    }
    ss_context_trace_enable(ctx, 1);
    ss_coll sum, gather;
    ss_coll_init(&sum, SS_COLL_ALL_REDUCE, m, "y", SS_F32, 1, (int64_t[]){64});
    ss_coll_init(&gather, SS_COLL_ALL_GATHER, m, "y", SS_F32, 1, (int64_t[]){16});
    ss_status st = run(ctx, &sum, 6, &gather, false);
    CHECK(st == SS_ERR_MISMATCH, "mismatch: %s", ss_error_message());
    run(ctx, &sum, -1, NULL, true);

    ss_fault f = {.kind = SS_FAULT_DELAY, .device = 2, .nth = 2, .seconds = 3};
    ss_context_inject(ctx, &f);
    st = run(ctx, &sum, -1, NULL, false);
    CHECK(st == SS_ERR_DEADLOCK, "straggler: %s", ss_error_message());
    ss_context_clear_faults(ctx);
    run(ctx, &sum, -1, NULL, true);

    f = (ss_fault){.kind = SS_FAULT_SKIP, .device = 5, .nth = 1};
    ss_context_inject(ctx, &f);
    st = run(ctx, &sum, -1, NULL, false);
    CHECK(st == SS_ERR_DEADLOCK, "skip: %s", ss_error_message());
    ss_context_clear_faults(ctx);

    f = (ss_fault){.kind = SS_FAULT_ALLOC, .device = 7, .nth = 2};
    ss_context_inject(ctx, &f);
    st = run(ctx, &sum, -1, NULL, false);
    CHECK(st == SS_ERR_DEVICE_OOM, "oom: %s", ss_error_message());
    run(ctx, &sum, -1, NULL, true);
    for (int d = 0; d < 8; d++) {
        ss_memory_stats s;
        ss_device_memory_stats(ctx, d, &s);
        CHECK(s.live_bytes == 0, "device %d leaked %zu bytes", d, s.live_bytes);
    }
    char path[64];
    snprintf(path, sizeof path, "/tmp/ss_runtime_tsan_%d.json", (int)getpid());
    CHECK(ss_context_trace_write(ctx, path) == SS_OK, "%s", ss_error_message());
    remove(path);
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
}

#define STEP_OK(x)                                                                                 \
    do {                                                                                           \
        ss_status st_ = (x);                                                                       \
        if (st_) {                                                                                 \
            CHECK(0, "%s: %s", #x, ss_error_message());                                          \
            return;                                                                                \
        }                                                                                          \
    } while (0)

/* y = relu(x @ W1) @ W2 on the 2x4 mesh, loss = sum(y), Adam; two steps on
 * device-resident arrays with W1, W2 and the state donated, each equal bit
 * for bit to the step run from host buffers. W1, W2 [64, 512] and [512,
 * 64] (32 KiB blocks replicated over 'data'): their replicas are stored
 * once and the replicated Adam update is viewed by its followers
 * (device/store.c), unless `copies` (SHARDSIM_STORAGE=copies). (Leaks on
 * an early failure: the program is exiting.) */
static void train_step(bool copies)
{
    if (copies)
        setenv("SHARDSIM_STORAGE", "copies", 1);
    else
        unsetenv("SHARDSIM_STORAGE");
    ss_mesh *m;
    ss_program *p;
    STEP_OK(ss_mesh_make("data=2,model=4", 8, NULL, &m));
    STEP_OK(ss_program_create(m, &p));
    ss_spec sx, s1, s2;
    STEP_OK(ss_spec_parse("P('data', None)", &sx));
    STEP_OK(ss_spec_parse("P(None, 'model')", &s1));
    STEP_OK(ss_spec_parse("P('model', None)", &s2));
    int64_t xs[2] = {8, 64}, w1s[2] = {64, 512}, w2s[2] = {512, 64};
    ss_value x, w[2], h, a, y, loss, g[2], st[5], nw[2], ns[5];
    STEP_OK(ss_input(p, "x", SS_F32, 2, xs, &sx, &x));
    STEP_OK(ss_param(p, "W1", SS_F32, 2, w1s, &s1, &w[0]));
    STEP_OK(ss_param(p, "W2", SS_F32, 2, w2s, &s2, &w[1]));
    STEP_OK(ss_matmul(p, x, w[0], &h));
    STEP_OK(ss_unary(p, SS_RELU, h, &a));
    STEP_OK(ss_matmul(p, a, w[1], &y));
    STEP_OK(ss_reduce(p, SS_REDUCE_SUM, y, 2, (const int[]){0, 1}, 0, &loss));
    ss_optim o = ss_optim_adam(1e-2);
    STEP_OK(ss_grad(p, loss, 2, w, g));
    STEP_OK(ss_optim_state_inputs(p, &o, 2, w, st));
    STEP_OK(ss_optim_update(p, &o, 2, w, g, st, nw, ns));
    for (int k = 0; k < 2; k++)
        STEP_OK(ss_output(p, nw[k], NULL));
    for (int k = 0; k < 5; k++)
        STEP_OK(ss_output(p, ns[k], NULL));
    ss_executable *e;
    STEP_OK(ss_program_compile(p, &e));
    int ni = ss_executable_input_count(e), no = ss_executable_output_count(e);
    ss_context_options co = {.ndevices = 8, .device_memory = (size_t)16 << 20, .timeout = 60};
    ss_context *ctx, *ref;
    STEP_OK(ss_context_create(&co, &ctx));
    STEP_OK(ss_context_create(&co, &ref));
    void *host[8], *outs[7];
    ss_array *in[8], *res[7];
    bool donate[8];
    size_t bytes[8];
    for (int k = 0; k < ni; k++) {
        ss_value v;
        ss_sharding sh;
        int rank;
        int64_t shape[SS_MAX_RANK];
        STEP_OK(ss_executable_input(e, k, &v));
        STEP_OK(ss_value_sharding(p, v, &sh));
        STEP_OK(ss_value_shape(p, v, NULL, &rank, shape));
        size_t n = 1;
        for (int d = 0; d < rank; d++)
            n *= (size_t)shape[d];
        bytes[k] = n * sizeof(float);
        float *h0 = calloc(n, sizeof(float));
        bool state = k >= 3; /* x, W1, W2, then the zero state */
        for (size_t i = 0; i < n && !state; i++)
            h0[i] = (float)((int)((i * 37 + (size_t)k * 11) % 19) - 9) * 0.05f;
        host[k] = h0;
        STEP_OK(ss_array_put(ctx, &sh, rank, shape, SS_F32, h0, NULL, &in[k]));
        donate[k] = k > 0;
    }
    for (int j = 0; j < no; j++)
        outs[j] = calloc(bytes[j + 1] / sizeof(float), sizeof(float));
    for (int step = 0; step < 2; step++) {
        STEP_OK(ss_executable_run_arrays(e, ctx, in, donate, res));
        STEP_OK(ss_executable_run(e, ref, (const void *const *)host, outs));
        for (int j = 0; j < no; j++) {
            float *got = malloc(bytes[j + 1]);
            STEP_OK(ss_array_get(res[j], got, bytes[j + 1]));
            CHECK(memcmp(got, outs[j], bytes[j + 1]) == 0, "train step %d: output %d differs",
                  step, j);
            free(got);
            ss_array_destroy(in[j + 1]);
            in[j + 1] = res[j];
            memcpy(host[j + 1], outs[j], bytes[j + 1]);
        }
    }
    for (int k = 0; k < ni; k++) {
        ss_array_destroy(in[k]);
        free(host[k]);
    }
    for (int j = 0; j < no; j++)
        free(outs[j]);
    for (int d = 0; d < 8; d++) {
        ss_memory_stats ms;
        STEP_OK(ss_device_memory_stats(ctx, d, &ms));
        CHECK(ms.live_bytes == 0, "train step: device %d leaks %zu bytes", d, ms.live_bytes);
    }
    ss_context_destroy(ctx);
    ss_context_destroy(ref);
    unsetenv("SHARDSIM_STORAGE");
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

int main(void)
{
    srand(7);
    sweep("x=2,y=4", 8, 0);
    sweep("x=2,y=4", 8, 1);
    sweep("x=4,y=16", 64, 0);
    failures_and_recovery();
    train_step(false);
    train_step(true);
    printf("runtime_tsan: %s (%d failures)\n", failures ? "FAIL" : "ok", failures);
    return failures ? 1 : 0;
}
