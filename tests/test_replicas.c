/*
 * test_replicas.c — replicated work done once (sim/spmd/replicas.h): an
 * Adam step whose parameters are replicated over 'data' runs its update on
 * one device per replica group, and the results are bit for bit those of
 * the naive path (SHARDSIM_REPLICAS=each: every device computes
 * everything), at every count of devices computing at once, while every
 * device's measured peak stays the plan's. The same inside loop bodies: a
 * loop whose carried state is replicated over 'model', and the scanned
 * language model of tests/data/jax (lm_noremat), run both ways.
 */
#include "plan_run.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static size_t value_bytes(const ss_program *p, ss_value v)
{
    int rank;
    int64_t shape[SS_MAX_RANK];
    TS_OK(ss_value_shape(p, v, NULL, &rank, shape));
    size_t n = 4;
    for (int d = 0; d < rank; d++)
        n *= (size_t)shape[d];
    return n;
}

/* Inputs: a fixed pseudo-random pattern (state included: a later step's
 * moments are not zero). */
static void **make_inputs(const ss_executable *e, const ss_program *p, int *ni)
{
    int n = 0;
    ss_value v;
    while (ss_executable_input(e, n, &v) == SS_OK)
        n++;
    void **in = calloc((size_t)n, sizeof *in);
    uint32_t s = 20u;
    for (int k = 0; k < n; k++) {
        TS_OK(ss_executable_input(e, k, &v));
        size_t cnt = value_bytes(p, v) / 4;
        float *f = malloc(cnt * 4);
        for (size_t i = 0; i < cnt; i++) {
            s = s * 1664525u + 1013904223u;
            f[i] = (float)((int)(s >> 9) % 2001 - 1000) / 1000.0f;
            if (k > 3) /* the second moments are not negative */
                f[i] = f[i] * f[i];
        }
        if (k == n - 1) /* Adam's step count */
            f[0] = 3.0f;
        in[k] = f;
    }
    *ni = n;
    return in;
}

/* Run e two steps (results fed back as the next params and state) on a
 * fresh context of `threads` computing devices, with the replicas' work
 * done once or naively; outputs into outs[] (malloc'd); the devices' peak
 * bytes into peak[], and the number of replica shares seen in the trace. */
static void run_steps(ss_executable *e, const ss_program *p, int devices, int threads,
                      bool naive, void **outs, size_t peak[], int *shares)
{
    if (naive)
        setenv("SHARDSIM_REPLICAS", "each", 1);
    else
        unsetenv("SHARDSIM_REPLICAS");
    int ni, no = 0;
    void **in = make_inputs(e, p, &ni);
    ss_value v;
    while (ss_executable_output(e, no, &v) == SS_OK)
        no++;
    cr_assert_eq(no, ni - 1, "outputs: the new params and state (x is kept)");
    for (int j = 0; j < no; j++) {
        TS_OK(ss_executable_output(e, j, &v));
        outs[j] = malloc(value_bytes(p, v));
    }
    ss_context_options co = {.ndevices = devices, .device_memory = (size_t)64 << 20,
                             .threads = threads, .timeout = 60};
    ss_context *ctx;
    TS_OK(ss_context_create(&co, &ctx));
    TS_OK(ss_context_trace_enable(ctx, 1));
    for (int step = 0; step < 2; step++) {
        TS_OK(ss_executable_run(e, ctx, (const void *const *)in, outs));
        for (int j = 0; j < no; j++) { /* outputs j = inputs j + 1 (after x) */
            TS_OK(ss_executable_output(e, j, &v));
            memcpy(in[j + 1], outs[j], value_bytes(p, v));
        }
    }
    *shares = 0;
    for (int d = 0; d < devices; d++) {
        ss_memory_stats ms;
        TS_OK(ss_device_memory_stats(ctx, d, &ms));
        peak[d] = ms.peak_bytes;
        for (int i = 0; i < ss_context_trace_count(ctx, d); i++) {
            ss_trace_event ev;
            TS_OK(ss_context_trace_get(ctx, d, i, &ev));
            *shares += ev.kind == SS_TRACE_WAIT && strncmp(ev.name, "share", 5) == 0;
        }
    }
    ss_context_destroy(ctx);
    for (int k = 0; k < ni; k++)
        free(in[k]);
    free(in);
    unsetenv("SHARDSIM_REPLICAS");
}

static void bit_identical_everywhere(const char *mesh, int devices)
{
    ss_program *p;
    ss_mesh *m = ts_make_mesh(mesh, devices);
    ss_executable *e = ts_adam_mlp_step(m, false, &p);
    ss_plan plan;
    TS_OK(ss_executable_plan(e, &plan));
    void *ref[8], *got[8];
    size_t peak[64];
    int shares;
    run_steps(e, p, devices, 1, true, ref, peak, &shares);
    cr_assert_eq(shares, 0, "the naive path shares nothing (%d shares)", shares);
    for (int d = 0; d < devices; d++)
        cr_assert_eq(peak[d], plan.peak_bytes, "%s, naive, device %d: peak %zu, plan %zu", mesh, d,
                     peak[d], plan.peak_bytes);
    int nout = 7; /* W1, W2, mu0, mu1, nu0, nu1, count */
    const int threads[] = {1, 2, devices};
    for (int t = 0; t < 3; t++) {
        run_steps(e, p, devices, threads[t], false, got, peak, &shares);
        cr_assert_gt(shares, 0, "%s, %d threads: no work was shared", mesh, threads[t]);
        for (int d = 0; d < devices; d++)
            cr_assert_eq(peak[d], plan.peak_bytes, "%s, %d threads, device %d: peak %zu, plan %zu",
                         mesh, threads[t], d, peak[d], plan.peak_bytes);
        for (int j = 0; j < nout; j++) {
            ss_value v;
            TS_OK(ss_executable_output(e, j, &v));
            cr_assert(memcmp(got[j], ref[j], value_bytes(p, v)) == 0,
                      "%s, %d threads: output %d differs from the naive path's", mesh,
                      threads[t], j);
            free(got[j]);
        }
    }
    for (int j = 0; j < nout; j++)
        free(ref[j]);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(replicas, adam_over_data_2x2_bit_identical_to_naive)
{
    bit_identical_everywhere("data=2,model=2", 4);
}

Test(replicas, adam_over_data_4x2_bit_identical_to_naive)
{
    bit_identical_everywhere("data=4,model=2", 8);
}

/* --- Loop bodies -------------------------------------------------------------------- */

/* plan_run.h's stacking loop with h [R, D] laid out P('data', None) on
 * data=2,model=4: h's block (32 KiB) is the same on the 4 devices of a
 * model group at every step, so the body's h * 0.5 + 1 is replicated work;
 * the stack's in-place update is not shared (every device writes its
 * slice). tanh of the loop's final h, after it, is replicated too. */
static const pr_stack_dims body_dims = {8, 64, 256};

static ss_program *body_program(ss_mesh *m)
{
    const pr_stack_dims *z = &body_dims;
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value h = ts_input(p, "h", "P('data', None)", 2, z->R, z->D), zero, init, i0, fin[3], t;
    TS_OK(ss_constant_array(p, SS_F32, 0, NULL, &(float){0}, &zero));
    TS_OK(ss_broadcast_in_dim(p, zero, 3, (int64_t[]){z->L, z->R, z->D}, NULL, &init));
    TS_OK(ss_constant_array(p, SS_I32, 0, NULL, &(int32_t){0}, &i0));
    TS_OK(ss_while_loop(p, pr_stack_cond, pr_stack_body, (void *)z, 3,
                        (ss_value[]){i0, h, init}, fin));
    TS_OK(ss_unary(p, SS_TANH, fin[1], &t));
    TS_OK(ss_output(p, fin[1], NULL));
    TS_OK(ss_output(p, fin[2], NULL));
    TS_OK(ss_output(p, t, NULL));
    return p;
}

/* Run e once on a fresh 8-device context of `threads` computing devices,
 * naively or not, into out[] (sizes bytes[]); returns the share events
 * traced, after checking every device's peak is the plan's. */
static int run_body(ss_executable *e, const float *h, bool naive, int threads, void *out[])
{
    if (naive)
        setenv("SHARDSIM_REPLICAS", "each", 1);
    else
        unsetenv("SHARDSIM_REPLICAS");
    ss_context_options co = {.ndevices = 8, .device_memory = (size_t)64 << 20,
                             .threads = threads, .timeout = 60};
    ss_context *ctx;
    TS_OK(ss_context_create(&co, &ctx));
    TS_OK(ss_context_trace_enable(ctx, 1));
    const void *in[1] = {h};
    TS_OK(ss_executable_run(e, ctx, in, out));
    pr_plan_is_run(e, ctx);
    int shares = 0;
    for (int d = 0; d < 8; d++)
        for (int k = 0; k < ss_context_trace_count(ctx, d); k++) {
            ss_trace_event ev;
            TS_OK(ss_context_trace_get(ctx, d, k, &ev));
            shares += strncmp(ev.name, "share", 5) == 0;
        }
    ss_context_destroy(ctx);
    unsetenv("SHARDSIM_REPLICAS");
    return shares;
}

Test(replicas, loop_body_bit_identical_to_naive)
{
    const pr_stack_dims *z = &body_dims;
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_program *p = body_program(m);
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    size_t hb = sizeof(float) * (size_t)(z->R * z->D), sb = hb * (size_t)z->L;
    size_t bytes[3] = {hb, sb, hb};
    float *h = malloc(hb);
    pr_fill(h, (size_t)(z->R * z->D), 3);
    void *ref[3], *got[3];
    for (int k = 0; k < 3; k++) {
        ref[k] = malloc(bytes[k]);
        got[k] = malloc(bytes[k]);
    }
    /* The single-host evaluator agrees with the naive path on the loop's
     * results (h * 0.5 + 1: bit for bit; its tanh is another kernel's). */
    TS_OK(ss_program_eval(p, (const void *[]){h}, got));
    int shares = run_body(e, h, true, 1, ref);
    cr_assert_eq(shares, 0, "the naive path shares nothing (%d shares)", shares);
    for (int k = 0; k < 2; k++)
        cr_assert_eq(memcmp(got[k], ref[k], bytes[k]), 0, "output %d: naive run != evaluator", k);
    const int threads[] = {1, 2, 8};
    for (int t = 0; t < 3; t++) {
        shares = run_body(e, h, false, threads[t], got);
        /* Nothing before the loop is replicated work of 16 KiB or more
         * (its zeros are adopted by the loop), so the body's h at each of
         * the L steps is shared: 8 devices' share events each time. */
        cr_assert_geq(shares, 8 * (int)z->L, "%d threads: %d share events, want >= %d",
                      threads[t], shares, 8 * (int)z->L);
        for (int k = 0; k < 3; k++)
            cr_assert_eq(memcmp(got[k], ref[k], bytes[k]), 0,
                         "%d threads: output %d differs from the naive path's", threads[t], k);
    }
    for (int k = 0; k < 3; k++) {
        free(ref[k]);
        free(got[k]);
    }
    free(h);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* Run fixture tests/data/jax/PROG (its Shardy lowering, its inputs) one
 * step on `threads` computing devices with SHARDSIM_REPLICAS=`mode` (NULL:
 * unset), its results into a new directory `dir` (room for 64 chars). */
static void run_fixture(const char *prog, const char *mode, int threads, char *dir)
{
    const char *data = getenv("SS_TEST_DATA");
    cr_assert(data, "SS_TEST_DATA is not set");
    char path[1024], inputs[1024];
    snprintf(path, sizeof path, "%s/jax/%s/lowered.shardy.loc.mlir", data, prog);
    snprintf(inputs, sizeof inputs, "%s/jax/%s/inputs", data, prog);
    snprintf(dir, 64, "/tmp/ss_replicas_XXXXXX");
    cr_assert(mkdtemp(dir));
    if (mode)
        setenv("SHARDSIM_REPLICAS", mode, 1);
    else
        unsetenv("SHARDSIM_REPLICAS");
    ss_scenario_options opts = {.inputs = inputs, .outputs = dir, .threads = threads,
                                .no_checks = true};
    ss_scenario *sc;
    ss_scenario_error err;
    cr_assert_eq(ss_scenario_load(path, &opts, &sc, &err), SS_OK, "%s: %s", path, err.message);
    cr_assert_eq(ss_scenario_run(sc, &err), SS_OK, "%s: %s", path, err.message);
    ss_scenario_free(sc);
    unsetenv("SHARDSIM_REPLICAS");
}

/* Every file of directory a is in b with the same bytes (and as many
 * files); then b is removed, and a too when `last`. */
static void same_files(const char *a, const char *b, const char *what, bool last)
{
    DIR *d = opendir(a);
    cr_assert(d, "%s", a);
    int n = 0, m = 0;
    struct dirent *ent;
    while ((ent = readdir(d))) {
        if (ent->d_name[0] == '.')
            continue;
        char pa[1024], pb[1024];
        snprintf(pa, sizeof pa, "%s/%s", a, ent->d_name);
        snprintf(pb, sizeof pb, "%s/%s", b, ent->d_name);
        size_t la = 0, lb = 0;
        char *ta = ts_read_file(pa, &la), *tb = ts_read_file(pb, &lb);
        cr_assert(ta && tb, "%s: %s missing", what, ent->d_name);
        cr_assert(la == lb && memcmp(ta, tb, la) == 0, "%s: %s differs from the naive path's",
                  what, ent->d_name);
        free(ta);
        free(tb);
        if (last)
            unlink(pa);
        unlink(pb);
        n++;
    }
    closedir(d);
    cr_assert_gt(n, 0, "%s: no results written", what);
    d = opendir(b);
    while ((ent = readdir(d)))
        m += ent->d_name[0] != '.';
    closedir(d);
    cr_assert_eq(m, 0, "%s: %d results the naive path has not", what, m);
    if (last)
        rmdir(a);
    rmdir(b);
}

/* The scanned LM of tests/data/jax (forward and backward scans over its
 * layers, adamw after them) on its 8 devices: byte-identical results with
 * replicated work done once, in and out of the loop bodies, at 1 and 2
 * computing devices. Its blocks are small (embed 32), so most of its
 * replicated work is under the size shared by default; SHARDSIM_REPLICAS=
 * all shares it all. */
Test(replicas, scanned_lm_bit_identical_to_naive, .timeout = 240)
{
    char naive[64], once[64], every[64];
    for (int threads = 1; threads <= 2; threads++) {
        run_fixture("lm_noremat", "each", threads, naive);
        run_fixture("lm_noremat", NULL, threads, once);
        run_fixture("lm_noremat", "all", threads, every);
        char what[64];
        snprintf(what, sizeof what, "lm_noremat, %d threads", threads);
        same_files(naive, once, what, false);
        snprintf(what, sizeof what, "lm_noremat, %d threads, all shared", threads);
        same_files(naive, every, what, true);
    }
}
