/*
 * bench_mlp.c — `shardsim bench mlp [--json] [--steps N] [--threads N]`:
 * the Flax guide's train step ("Scale up Flax Modules on multiple
 * devices"): an MLP of 4 DotReluDot layers (BATCH 8, DEPTH 1024; W1
 * P(None, 'model'), W2 P('model', None), y constrained P('data', 'model'),
 * z constrained P('data', None)), loss = sum, jax.grad, optax.adam(1e-3),
 * on the 2x4 ('data', 'model') mesh of 8 virtual devices.
 *
 * The program is built and compiled once; params are initialized in their
 * shards (xavier_normal, the guide's dense_init), x is ones as in the
 * guide, the Adam state zeros. Each step runs on device-resident arrays
 * with params and state donated (new arrays replace them), so a step is
 * the compiled program alone, as a jitted step on sharded jax.Arrays is.
 * Reported: the first step and the median of the others, in milliseconds
 * (JSON: {"median_ms": .., "first_ms": ..}), and the measured and planned
 * peak. `--no-donate` keeps the old params and state (jit without
 * donate_argnums): new arrays for every update. Not a test: numbers depend
 * on the machine.
 */
#include "cli.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int ss__bench_mlp(int argc, char **argv);

enum { BATCH = 8, DEPTH = 1024, LAYERS = 4, NPARAMS = 2 * LAYERS };

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef struct bench {
    ss_mesh *mesh;
    ss_program *prog;
    ss_executable *exe;
    ss_context *ctx;
    ss_value params[NPARAMS];
    int nin, nout;
    ss_array **in, **out;
    bool *donate;
    bool keep; /* --no-donate: params and state stay, new arrays are made */
} bench;

static ss_status spec(const char *text, ss_spec *out) { return ss_spec_parse(text, out); }

/* The guide's model, its gradient and one Adam step. */
static ss_status build(bench *b)
{
    ss_program *p = b->prog;
    ss_spec sx, s1, s2, sdm;
    ss_status st;
    if ((st = spec("P('data', None)", &sx)) || (st = spec("P(None, 'model')", &s1)) ||
        (st = spec("P('model', None)", &s2)) || (st = spec("P('data', 'model')", &sdm)))
        return st;
    int64_t xs[2] = {BATCH, DEPTH}, ws[2] = {DEPTH, DEPTH};
    ss_value x;
    if ((st = ss_input(p, "x", SS_F32, 2, xs, &sx, &x)))
        return st;
    for (int l = 0; l < LAYERS && !st; l++) {
        char n1[32], n2[32];
        snprintf(n1, sizeof n1, "DotReluDot_%d.Dense_0.kernel", l);
        snprintf(n2, sizeof n2, "DotReluDot_%d.W2", l);
        ss_value w1, w2, a, y, yc, z;
        if ((st = ss_param(p, n1, SS_F32, 2, ws, &s1, &w1)) ||
            (st = ss_param(p, n2, SS_F32, 2, ws, &s2, &w2)) || (st = ss_matmul(p, x, w1, &a)) ||
            (st = ss_unary(p, SS_RELU, a, &y)) || (st = ss_constrain(p, y, &sdm, &yc)) ||
            (st = ss_matmul(p, yc, w2, &z)) || (st = ss_constrain(p, z, &sx, &x)))
            return st;
        b->params[2 * l] = w1;
        b->params[2 * l + 1] = w2;
    }
    ss_value loss, grads[NPARAMS], state[2 * NPARAMS + 1], np[NPARAMS], ns[2 * NPARAMS + 1];
    ss_optim o = ss_optim_adam(1e-3);
    if ((st = ss_reduce(p, SS_REDUCE_SUM, x, 2, (const int[]){0, 1}, 0, &loss)) ||
        (st = ss_grad(p, loss, NPARAMS, b->params, grads)) ||
        (st = ss_optim_state_inputs(p, &o, NPARAMS, b->params, state)) ||
        (st = ss_optim_update(p, &o, NPARAMS, b->params, grads, state, np, ns)))
        return st;
    for (int i = 0; i < NPARAMS && !st; i++)
        st = ss_output(p, np[i], i % 2 ? &s2 : &s1);
    for (int i = 0; i < ss_optim_state_count(&o, NPARAMS) && !st; i++)
        st = ss_output(p, ns[i], NULL);
    return st;
}

/* Device-resident inputs in executable order: x ones, params xavier_normal
 * (seed per param), state zeros; each laid out as propagation decided. */
static ss_status make_inputs(bench *b)
{
    ss_status st = SS_OK;
    for (int k = 0; k < b->nin && !st; k++) {
        ss_value v;
        ss_dtype dt;
        int rank;
        int64_t shape[SS_MAX_RANK];
        ss_sharding sh;
        if ((st = ss_executable_input(b->exe, k, &v)) ||
            (st = ss_value_shape(b->prog, v, &dt, &rank, shape)) ||
            (st = ss_value_sharding(b->prog, v, &sh)))
            break;
        ss_init init;
        memset(&init, 0, sizeof init);
        init.kind = SS_INIT_ZEROS;
        b->donate[k] = k > 0 && !b->keep;
        if (k == 0)
            init.kind = SS_INIT_ONES;
        for (int i = 0; i < NPARAMS; i++)
            if (b->params[i] == v) {
                init.kind = SS_INIT_XAVIER_NORMAL;
                init.seed = (uint64_t)i;
            }
        st = ss_array_from_init(b->ctx, &sh, rank, shape, dt, &init, NULL, &b->in[k]);
    }
    return st;
}

/* One step; the donated inputs are replaced by the matching outputs
 * (params in order, then state: the same order as the inputs after x). */
static ss_status step(bench *b)
{
    ss_status st = ss_executable_run_arrays(b->exe, b->ctx, b->in, b->donate, b->out);
    if (st)
        return st;
    for (int k = 1; k < b->nin; k++) {
        ss_array_destroy(b->in[k]);
        b->in[k] = b->out[k - 1];
        b->out[k - 1] = NULL;
    }
    return SS_OK;
}

static void teardown(bench *b)
{
    for (int k = 0; b->in && k < b->nin; k++)
        ss_array_destroy(b->in[k]);
    for (int k = 0; b->out && k < b->nout; k++)
        ss_array_destroy(b->out[k]);
    free(b->in);
    free(b->out);
    free(b->donate);
    ss_context_destroy(b->ctx);
    ss_executable_destroy(b->exe);
    ss_program_destroy(b->prog);
    ss_mesh_destroy(b->mesh);
}

static const char mlp_help[] =
    "usage: shardsim bench mlp [--json] [--no-donate] [--steps N] [--threads N]\n"
    "\n"
    "Time the Flax guide's train step (4 DotReluDot layers, BATCH 8, DEPTH 1024,\n"
    "loss = sum, Adam 1e-3) on the 2x4 ('data', 'model') mesh of 8 virtual\n"
    "devices, on device-resident arrays. Prints the first step, the median of\n"
    "the others and the measured and planned peak per device.\n"
    "\n"
    "  --json         one JSON object instead of text\n"
    "  --no-donate    new arrays for every update (jit without donate_argnums);\n"
    "                 by default params and Adam state are donated\n"
    "  --steps N      steps to time, 2..100000 (default 20)\n"
    "  --threads N    worker threads running the devices (default: the online cores)\n";

int ss__bench_mlp(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        fputs(mlp_help, stdout);
        return 0;
    }
    bool json = false, keep = false;
    int steps = 20, threads = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (strcmp(argv[i], "--no-donate") == 0) {
            keep = true;
        } else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
            steps = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            threads = atoi(argv[++i]);
        } else {
            fprintf(stderr, "shardsim bench mlp: unknown option '%s' (expected --json, "
                            "--no-donate, --steps N, --threads N)\n", argv[i]);
            return 2;
        }
    }
    if (steps < 2 || steps > 100000 || threads < 0) {
        fprintf(stderr, "shardsim bench mlp: --steps must be 2..100000, --threads >= 0\n");
        return 2;
    }
    bench b;
    memset(&b, 0, sizeof b);
    b.keep = keep;
    ss_context_options co = {.ndevices = 8, .threads = threads};
    double t0 = now_ms(), compile_ms = 0, first = 0;
    double *times = calloc((size_t)steps, sizeof *times);
    ss_status st = times ? SS_OK : SS_ERR_NOMEM;
    if (!st)
        st = ss_mesh_parse("data=2,model=4", 8, NULL, &b.mesh);
    if (!st)
        st = ss_program_create(b.mesh, &b.prog);
    if (!st)
        st = build(&b);
    if (!st)
        st = ss_program_compile(b.prog, &b.exe);
    if (!st) {
        compile_ms = now_ms() - t0;
        b.nin = ss_executable_input_count(b.exe);
        b.nout = ss_executable_output_count(b.exe);
        b.in = calloc((size_t)b.nin, sizeof *b.in);
        b.out = calloc((size_t)b.nout, sizeof *b.out);
        b.donate = calloc((size_t)b.nin, sizeof *b.donate);
        if (!b.in || !b.out || !b.donate || b.nout != b.nin - 1)
            st = SS_ERR_NOMEM;
    }
    if (!st)
        st = ss_context_create(&co, &b.ctx);
    if (!st)
        st = make_inputs(&b);
    for (int s = 0; s < steps && !st; s++) {
        double a = now_ms();
        st = step(&b);
        times[s] = now_ms() - a;
    }
    if (st) {
        const char *msg = ss_error_message()[0] ? ss_error_message() : ss_status_string(st);
        if (json)
            printf("{\"error\": \"%s\"}\n", msg);
        else
            fprintf(stderr, "shardsim bench mlp: %s\n", msg);
        free(times);
        teardown(&b);
        return 1;
    }
    first = times[0];
    qsort(times + 1, (size_t)steps - 1, sizeof *times, cmp_double);
    int m = steps - 1;
    double median = m % 2 ? times[1 + m / 2] : 0.5 * (times[m / 2] + times[1 + m / 2]);
    if (json) {
        printf("{\"median_ms\": %.3f, \"first_ms\": %.3f}\n", median, first);
    } else {
        ss_plan plan, undonated;
        ss_executable_plan_arrays(b.exe, b.donate, &plan);
        ss_executable_plan_arrays(b.exe, NULL, &undonated);
        printf("Flax guide MLP train step: BATCH %d, DEPTH %d, %d DotReluDot layers, loss = sum, "
               "adam(1e-3), mesh ('data': 2, 'model': 4)\n", BATCH, DEPTH, LAYERS);
        printf("  compile     %8.1f ms (once)\n", compile_ms);
        printf("  first step  %8.2f ms\n", first);
        printf("  median step %8.2f ms over %d steps (threads %d)\n", median, m,
               ss_context_thread_count(b.ctx));
        size_t peak = 0;
        for (int d = 0; d < 8; d++) {
            ss_memory_stats ms;
            if (ss_device_memory_stats(b.ctx, d, &ms) == SS_OK && ms.peak_bytes > peak)
                peak = ms.peak_bytes;
        }
        printf("  per device: %.1f MFLOP, %d collectives, %.0f bytes sent\n", plan.flops / 1e6,
               plan.ncollectives, plan.sent_bytes);
        printf("  peak memory per device: %.1f MiB measured, %.1f MiB planned (params and "
               "state %s; %.1f MiB without donation)\n",
               (double)peak / (1 << 20), (double)plan.peak_bytes / (1 << 20),
               b.keep ? "kept" : "donated", (double)undonated.peak_bytes / (1 << 20));
    }
    free(times);
    teardown(&b);
    return 0;
}
