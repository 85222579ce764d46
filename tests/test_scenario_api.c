/* test_scenario_api.c — the public scenario entry (shardsim.h, "Scenarios")
 * without the command line: errors with their spot in the file, plan fit,
 * the run's results written as .npy, the watch and progress callbacks.
 * Expected values are worked out here from the scenario's text (naive
 * sums, byte counts), not taken from a run. */
#include "support.h"

#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


Test(scenario_api, error_names_line_col_and_source_line)
{
    const char *text = "mesh x=2\n"
                       "a = input(f32[4], P('x'), ones)\n"
                       "def f(a):\n"
                       "    return a +* 2\n"
                       "run f\n";
    ss_scenario *sc = (ss_scenario *)&sc; /* must be reset to NULL */
    ss_scenario_error err;
    ss_status st = ss_scenario_load_text("t.shard", text, NULL, &sc, &err);
    cr_assert_eq(st, SS_ERR_PARSE);
    cr_assert_null(sc);
    cr_assert_eq(err.line, 4);
    cr_assert_eq(err.col, 15, "col %d", err.col); /* the '*' after "    return a +" */
    cr_assert(err.bad_input);
    cr_assert_str_eq(err.source_line, "    return a +* 2");
    cr_assert(strstr(err.message, "'*'"), "%s", err.message);
    cr_assert_str_eq(ss_error_message(), err.message);
}

Test(scenario_api, missing_file_is_an_error_without_a_spot)
{
    ss_scenario *sc = NULL;
    ss_scenario_error err;
    cr_assert_eq(ss_scenario_load("/nonexistent/dir/x.shard", NULL, &sc, &err), SS_ERR_IO);
    cr_assert_null(sc);
    cr_assert(err.bad_input);
    cr_assert_eq(err.line, 0);
    cr_assert_str_eq(err.source_line, "");
    cr_assert(err.message[0]);
}

/* A replicated f32[1024, 1024] param is 4 MiB on every device, and the
 * run's result (w * 2) another 4 MiB: 1 MiB of device memory cannot hold
 * the plan's peak, 64 MiB can. */
Test(scenario_api, plan_fits_by_the_byte_count)
{
    const char *text = "mesh d=4\n"
                       "w = param(f32[1024, 1024], P(), ones)\n"
                       "def f(w):\n"
                       "    return w * 2\n"
                       "run f\n";
    size_t caps[2] = {(size_t)1 << 20, (size_t)64 << 20};
    for (int k = 0; k < 2; k++) {
        ss_scenario_options o = {.device_memory = caps[k]};
        ss_scenario *sc;
        ss_scenario_error err;
        TS_OK(ss_scenario_load_text("t.shard", text, &o, &sc, &err));
        TS_OK(ss_scenario_plan(sc, &err));
        cr_assert_eq(ss_scenario_fits(sc), k == 1, "capacity %zu", caps[k]);
        cr_assert_not_null(ss_scenario_executable(sc));
        ss_scenario_free(sc);
    }
}

Test(scenario_api, run_out_of_device_memory_is_not_bad_input)
{
    const char *text = "mesh d=4\n"
                       "w = param(f32[1024, 1024], P(), ones)\n"
                       "def f(w):\n"
                       "    return w * 2\n"
                       "run f\n";
    ss_scenario_options o = {.device_memory = (size_t)1 << 20};
    ss_scenario *sc;
    ss_scenario_error err;
    TS_OK(ss_scenario_load_text("t.shard", text, &o, &sc, &err));
    cr_assert_eq(ss_scenario_run(sc, &err), SS_ERR_DEVICE_OOM, "%s", err.message);
    cr_assert_not(err.bad_input);
    /* once per scenario */
    cr_assert_eq(ss_scenario_run(sc, &err), SS_ERR_INVALID);
    ss_scenario_free(sc);
}

/* Read a .npy of n little-endian f32 (format 1.0) into out. */
static void read_npy_f32(const char *path, float *out, int n)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    unsigned char head[10];
    cr_assert_eq(fread(head, 1, 10, f), 10u);
    cr_assert_eq(memcmp(head, "\x93NUMPY\x01\x00", 8), 0);
    size_t hlen = (size_t)head[8] | (size_t)head[9] << 8;
    char *h = calloc(1, hlen + 1);
    cr_assert_eq(fread(h, 1, hlen, f), hlen);
    cr_assert(strstr(h, "'descr': '<f4'"), "%s", h);
    free(h);
    cr_assert_eq(fread(out, sizeof(float), (size_t)n, f), (size_t)n);
    fclose(f);
}

/* y = x * 2 + 1 on x = iota(8), after the last of 2 steps (y does not
 * feed x, so every step gives the same y): y[k] = 2k + 1. */
Test(scenario_api, outputs_are_the_naive_result)
{
    char dir[] = "/tmp/ss_api_out_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *text = "mesh d=2\n"
                       "x = input(f32[8], P('d'), iota)\n"
                       "def f(x):\n"
                       "    y = x * 2 + 1\n"
                       "    return y\n"
                       "run f steps=2\n"
                       "check y\n";
    ss_scenario_options o = {.outputs = dir};
    ss_scenario *sc;
    ss_scenario_error err;
    TS_OK(ss_scenario_load_text("t.shard", text, &o, &sc, &err));
    TS_OK(ss_scenario_run(sc, &err));
    cr_assert(ss_scenario_checks_passed(sc));
    ss_scenario_free(sc);
    char path[300];
    snprintf(path, sizeof path, "%s/y.npy", dir);
    float y[8];
    read_npy_f32(path, y, 8);
    for (int k = 0; k < 8; k++)
        cr_assert_eq(y[k], (float)(2 * k + 1), "y[%d] = %g", k, (double)y[k]);
    unlink(path);
    rmdir(dir);
}

typedef struct seen {
    atomic_int events;
    float before[4][2], after[4][2];
} seen;

static void on_watch(const ss_watch_event *ev, void *user)
{
    seen *s = user;
    atomic_fetch_add(&s->events, 1);
    if (ev->device < 0 || ev->device >= 4 || ev->rank != 1 || ev->shape[0] != 2 ||
        ev->dtype != SS_F32)
        return;
    memcpy(ev->after ? s->after[ev->device] : s->before[ev->device], ev->data, sizeof(float[2]));
}

typedef struct steps_seen {
    int calls, last_done, total;
    bool in_order;
} steps_seen;

static void on_progress(int done, int total, double elapsed, void *user)
{
    steps_seen *p = user;
    p->in_order = p->in_order && done == p->last_done + 1 && elapsed >= 0;
    p->last_done = done;
    p->total = total;
    p->calls++;
}

/* The watch sees the first step only (one psum: 4 devices, before and
 * after), with the blocks the tutorial shows; progress is called after
 * each of the 3 steps. */
Test(scenario_api, watch_first_step_and_progress)
{
    steps_seen p = {0, 0, 0, true};
    ss_scenario_options o = {.steps = 3, .progress = on_progress, .progress_user = &p};
    ss_scenario *sc;
    ss_scenario_error err;
    TS_OK(ss_scenario_load_text("psum.shard", ts_psum_scenario, &o, &sc, &err));
    TS_OK(ss_scenario_compile(sc, &err));
    seen s;
    memset(&s, 0, sizeof s);
    atomic_init(&s.events, 0);
    ss_scenario_watch(sc, on_watch, &s);
    TS_OK(ss_scenario_run(sc, &err));
    cr_assert_eq(atomic_load(&s.events), 4 * 2);
    float sum[2] = {0, 0};
    for (int d = 0; d < 4; d++)
        for (int j = 0; j < 2; j++)
            sum[j] += (float)(2 * d + j);
    for (int d = 0; d < 4; d++)
        for (int j = 0; j < 2; j++) {
            cr_assert_eq(s.before[d][j], (float)(2 * d + j), "device %d", d);
            cr_assert_eq(s.after[d][j], sum[j], "device %d", d);
        }
    cr_assert_eq(p.calls, 3);
    cr_assert_eq(p.total, 3);
    cr_assert(p.in_order);
    ss_scenario_free(sc);
}

/* --set and --mesh through the options: N = 6 in the file becomes 3 and
 * the mesh d=2 becomes d=8, so x's 12 elements cannot be split over 8
 * devices (with either replacement missing, 24 over 8 or 12 over 2 can). */
Test(scenario_api, options_replace_constants_and_mesh)
{
    const char *text = "N = 6\n"
                       "mesh d=2\n"
                       "x = input(f32[N * 4], P('d'), iota)\n"
                       "def f(x):\n"
                       "    return x * 2\n"
                       "run f\n";
    const char *names[] = {"N"};
    const int64_t values[] = {3};
    ss_scenario_options o = {.nsets = 1, .set_names = names, .set_values = values,
                             .mesh = "d=8"};
    ss_scenario *sc;
    ss_scenario_error err;
    ss_status st = ss_scenario_load_text("t.shard", text, &o, &sc, &err);
    if (st == SS_OK)
        st = ss_scenario_plan(sc, &err);
    cr_assert_neq(st, SS_OK);
    cr_assert(err.bad_input);
    cr_assert(strstr(err.message, "12"), "%s", err.message);
    ss_scenario_free(sc);
    for (int k = 0; k < 2; k++) { /* each replacement alone is fine */
        ss_scenario_options one = o;
        if (k == 0)
            one.nsets = 0;
        else
            one.mesh = NULL;
        TS_OK(ss_scenario_load_text("t.shard", text, &one, &sc, &err));
        TS_OK(ss_scenario_plan(sc, &err));
        ss_scenario_free(sc);
    }
}

typedef struct canceller {
    int calls;
    volatile int *flag;
} canceller;

static void cancel_at_2(int done, int total, double elapsed, void *user)
{
    (void)total;
    (void)elapsed;
    canceller *c = user;
    c->calls++;
    if (done == 2)
        *c->flag = 1;
}

/* A cancel flag raised during step 2 of 50 stops the run right after it:
 * SS_ERR_CANCELLED, no step past 2, and the results of the steps run so far
 * are not reported as the run's. */
Test(scenario_api, cancel_stops_after_the_step_in_progress)
{
    volatile int flag = 0;
    canceller c = {0, &flag};
    ss_scenario_options o = {.steps = 50, .progress = cancel_at_2, .progress_user = &c,
                             .cancel = &flag};
    ss_scenario *sc;
    ss_scenario_error err;
    TS_OK(ss_scenario_load_text("psum.shard", ts_psum_scenario, &o, &sc, &err));
    cr_assert_eq(ss_scenario_run(sc, &err), SS_ERR_CANCELLED);
    cr_assert_eq(c.calls, 2);
    cr_assert(strstr(err.message, "stopped after step 2 of 50"), "%s", err.message);
    cr_assert(!err.bad_input);
    ss_scenario_free(sc);
}

/* Results as data: the plan's figures, each result's name, shape and last
 * values (y = 2x + 1 over x = iota(8), worked out here), the name and line
 * the file gave it, and the check's verdict (y's largest value is 15). */
Test(scenario_api, results_as_data)
{
    const char *text = "mesh d=2\n"
                       "x = input(f32[8], P('d'), iota)\n"
                       "def f(x):\n"
                       "    y = x * 2 + 1\n"
                       "    return y, x\n"
                       "run f steps=2\n"
                       "check y\n";
    ss_scenario *sc;
    ss_scenario_error err;
    TS_OK(ss_scenario_load_text("t.shard", text, NULL, &sc, &err));
    ss_scenario_result r;
    cr_assert_eq(ss_scenario_result_get(sc, &r), SS_ERR_INVALID);
    TS_OK(ss_scenario_run(sc, &err));
    TS_OK(ss_scenario_result_get(sc, &r));
    cr_assert(r.has_run && r.ran && r.fits && r.checks_passed);
    cr_assert_eq(r.steps, 2);
    cr_assert_eq(r.device_memory, SS_DEFAULT_DEVICE_MEMORY);
    cr_assert_gt(r.plan.peak_bytes, 0);
    cr_assert_eq(ss_scenario_output_count(sc), 2);
    ss_scenario_output o;
    TS_OK(ss_scenario_output_get(sc, 0, &o));
    cr_assert_str_eq(o.name, "y");
    cr_assert_eq(o.dtype, SS_F32);
    cr_assert_eq(o.rank, 1);
    cr_assert_eq(o.shape[0], 8);
    cr_assert_not_null(o.data);
    for (int k = 0; k < 8; k++)
        cr_assert_eq(((const float *)o.data)[k], (float)(2 * k + 1));
    int line = 0, col = 0;
    cr_assert_str_eq(ss_scenario_value_name(sc, o.value, &line, &col), "y");
    cr_assert_eq(line, 4);
    TS_OK(ss_scenario_output_get(sc, 1, &o));
    cr_assert_str_eq(o.name, "x");
    cr_assert_eq(ss_scenario_output_get(sc, 2, &o), SS_ERR_RANGE);
    cr_assert_eq(ss_scenario_check_count(sc), 1);
    ss_scenario_check ck;
    TS_OK(ss_scenario_check_get(sc, 0, &ck));
    cr_assert_str_eq(ck.name, "y");
    cr_assert(ck.ran && ck.passed);
    cr_assert_eq(ck.max_abs_err, 0.0);
    cr_assert_eq(ck.ref_max, 15.0);
    cr_assert_eq(ss_scenario_check_get(sc, 1, &ck), SS_ERR_RANGE);
    cr_assert(ss_scenario_mesh(sc) && ss_mesh_device_count(ss_scenario_mesh(sc)) == 2);
    cr_assert_not_null(ss_scenario_program(sc));
    ss_scenario_free(sc);
}

/* no_checks skips the checks and the single-device run (the command
 * line's run --no-check): the same scenario, whose one check passes with
 * them, reports no check at all without them, and its results are the
 * same values. */
Test(scenario_api, no_checks_skips_the_checks)
{
    const char *text = "mesh d=2\n"
                       "x = input(f32[8], P('d'), iota)\n"
                       "def f(x):\n"
                       "    y = x * 2 + 1\n"
                       "    return y\n"
                       "run f steps=2\n"
                       "check y\n";
    const float *ys[2];
    ss_scenario *sc[2];
    ss_scenario_error err;
    for (int k = 0; k < 2; k++) {
        ss_scenario_options o = {.no_checks = k == 1};
        TS_OK(ss_scenario_load_text("t.shard", text, &o, &sc[k], &err));
        TS_OK(ss_scenario_run(sc[k], &err));
        cr_assert(ss_scenario_checks_passed(sc[k]));
        ss_scenario_output out;
        TS_OK(ss_scenario_output_get(sc[k], 0, &out));
        ys[k] = out.data;
    }
    cr_assert_eq(ss_scenario_check_count(sc[0]), 1);
    cr_assert_eq(ss_scenario_check_count(sc[1]), 0);
    for (int i = 0; i < 8; i++)
        cr_assert_eq(ys[1][i], ys[0][i], "y[%d]: %g without checks, %g with", i, ys[1][i],
                     ys[0][i]);
    ss_scenario_free(sc[0]);
    ss_scenario_free(sc[1]);
}

/* Given inputs replace the initializer; kept outputs lie on the devices in
 * their layout. y = x * 2 + 1 over x = 10, 20, ..., 80 given by the caller,
 * checked against that formula element by element and shard by shard. */
Test(scenario_api, inputs_given_and_outputs_kept_on_the_devices)
{
    const char *text = "mesh d=2\n"
                       "x = input(f32[8], P('d'), iota)\n"
                       "def f(x):\n"
                       "    return x * 2 + 1\n"
                       "run f\n";
    ss_scenario_options o = {.keep_outputs = true};
    ss_scenario *sc;
    ss_scenario_error err;
    TS_OK(ss_scenario_load_text("t.shard", text, &o, &sc, &err));
    cr_assert_eq(ss_scenario_input_count(sc), 1);
    ss_scenario_input in;
    TS_OK(ss_scenario_input_get(sc, 0, &in));
    cr_assert_str_eq(in.name, "x");
    cr_assert(in.dtype == SS_F32 && in.rank == 1 && in.shape[0] == 8 && !in.given);
    cr_assert_eq(ss_scenario_input_get(sc, 1, &in), SS_ERR_RANGE);
    float x[8];
    for (int k = 0; k < 8; k++)
        x[k] = 10.0f * (float)(k + 1);
    cr_assert_eq(ss_scenario_input_set(sc, 0, x, sizeof x - 4), SS_ERR_INVALID);
    cr_assert_eq(ss_scenario_input_set(sc, 0, NULL, sizeof x), SS_ERR_INVALID);
    cr_assert_eq(ss_scenario_input_set(sc, 1, x, sizeof x), SS_ERR_RANGE);
    cr_assert_null(ss_scenario_output_array(sc, 0));
    TS_OK(ss_scenario_input_set(sc, 0, x, sizeof x));
    TS_OK(ss_scenario_input_get(sc, 0, &in));
    cr_assert(in.given);
    TS_OK(ss_scenario_run(sc, &err));
    ss_scenario_output out;
    TS_OK(ss_scenario_output_get(sc, 0, &out));
    for (int k = 0; k < 8; k++)
        cr_assert_eq(((const float *)out.data)[k], x[k] * 2 + 1, "y[%d]", k);
    const ss_array *a = ss_scenario_output_array(sc, 0);
    cr_assert_not_null(a);
    cr_assert_null(ss_scenario_output_array(sc, 1));
    ss_array_shard shards[4];
    int n = 0;
    TS_OK(ss_array_shards(a, -1, shards, 4, &n));
    cr_assert_eq(n, 2);
    for (int s = 0; s < n; s++)
        for (int64_t k = shards[s].index.start[0]; k < shards[s].index.stop[0]; k++)
            cr_assert_eq(((const float *)shards[s].data)[k - shards[s].index.start[0]],
                         x[k] * 2 + 1, "device %d, y[%lld]", shards[s].index.device,
                         (long long)k);
    cr_assert_eq(ss_scenario_input_set(sc, 0, x, sizeof x), SS_ERR_INVALID); /* ran */
    ss_scenario_free(sc);
}

/* A given input stays the caller's: three steps that update it (w * 2 each)
 * leave the caller's values as they were, the run's host copy of the last
 * step's inputs being its own; the result is w * 8 whether the run reads
 * its results itself (a check) or leaves them on the devices until the
 * first ss_scenario_output_get, which copies them once. */
Test(scenario_api, given_inputs_stay_the_callers_and_results_come_when_asked)
{
    const char *text = "mesh x=4\n"
                       "w = param(f32[8, 4], P('x', None), iota)\n"
                       "def step(w):\n"
                       "    w = w * 2.0\n"
                       "    return w\n"
                       "run step steps=3\n"
                       "check w tol=0\n";
    for (int k = 0; k < 2; k++) {
        float w[32], orig[32];
        for (int i = 0; i < 32; i++)
            w[i] = orig[i] = 0.5f + (float)i;
        ss_scenario_options o = {.no_checks = k == 1};
        ss_scenario *sc;
        ss_scenario_error err;
        TS_OK(ss_scenario_load_text("t.shard", text, &o, &sc, &err));
        TS_OK(ss_scenario_input_set(sc, 0, w, sizeof w));
        TS_OK(ss_scenario_run(sc, &err));
        cr_assert(ss_scenario_checks_passed(sc));
        cr_assert_eq(memcmp(w, orig, sizeof w), 0, "the run wrote the caller's input (%s)",
                     k ? "no checks" : "checked");
        ss_scenario_output out, again;
        TS_OK(ss_scenario_output_get(sc, 0, &out));
        cr_assert_not_null(out.data);
        for (int i = 0; i < 32; i++)
            cr_assert_eq(((const float *)out.data)[i], orig[i] * 8, "w[%d] (%s)", i,
                         k ? "no checks" : "checked");
        TS_OK(ss_scenario_output_get(sc, 0, &again));
        cr_assert_eq(again.data, out.data);
        cr_assert_null(ss_scenario_output_array(sc, 0)); /* not keep_outputs */
        ss_scenario_free(sc);
    }
}
