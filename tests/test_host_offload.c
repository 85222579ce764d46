/*
 * test_host_offload.c — programs that name memory kinds, lowered by real
 * JAX (tests/data/jax_offload, made by tests/jax/make_offload_fixtures.py):
 *
 *   - lm_offload (the language model of lm_noremat/lm_full/lm_dots under
 *     jax.checkpoint's offload_dot_with_no_batch_dims('device',
 *     'pinned_host')) and put_host_back (jax.device_put to pinned_host and
 *     back inside jit) import and run with JAX's results: the pinned JAX
 *     emits @annotate_device_placement to "device" only for them (it elides
 *     the round trip, and the LM's offload policy saves nothing in host
 *     memory on CPU: XLA's compiled text has no S(5) buffer), which passes
 *     its operand through;
 *   - lm_offload's planned peak orders against those of lm_noremat,
 *     lm_full and lm_dots as XLA's memory analysis orders their
 *     temporaries (memory.json of each);
 *   - out_pinned_host (jit's out_shardings with memory_kind pinned_host)
 *     runs with JAX's result, put in its host's arena;
 *   - the TPU lowerings of tests/data/jax_offload_tpu
 *     (tests/xla_tpu/make_offload_records.py): device_put to host and
 *     back, a result in pinned_host, with JAX's CPU outputs and XLA's TPU
 *     memory analysis; the offloaded scans (save_and_offload_only_these_names)
 *     run with JAX's results, their stacked residuals in host memory through
 *     the loop carries (memory.c), moved as XLA's host temporaries say, and
 *     their device peaks order against no remat and full remat as XLA's.
 */
#include "support.h"

#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jax_check.h"

/* Load fixture `dir` (under SS_TEST_DATA) in its Shardy (names from
 * locations) or GSPMD (argN.npy linked in argument order) lowering, with
 * outputs written to `outputs`; `links` receives the temporary directory
 * of the GSPMD links ("" for Shardy). */
static ss_status load(const char *dir_rel, bool gspmd, char *outputs, char *links,
                      ss_scenario **sc, ss_scenario_error *err)
{
    const char *data = getenv("SS_TEST_DATA");
    cr_assert(data, "SS_TEST_DATA is not set");
    char dir[1024], path[1200], inputs[1200], rel[300];
    snprintf(dir, sizeof dir, "%s/%s", data, dir_rel);
    snprintf(path, sizeof path, "%s/lowered.%s.mlir", dir, gspmd ? "gspmd" : "shardy.loc");
    snprintf(inputs, sizeof inputs, "%s/inputs", dir);
    links[0] = '\0';
    if (gspmd) {
        strcpy(links, "/tmp/ss_offload_in_XXXXXX");
        cr_assert(mkdtemp(links));
        snprintf(rel, sizeof rel, "%s/meta.json", dir_rel);
        cJSON *meta = ts_load_json(rel);
        int k = 0;
        const cJSON *a;
        cJSON_ArrayForEach(a, cJSON_GetObjectItem(meta, "arguments")) {
            if (!cJSON_IsTrue(cJSON_GetObjectItem(a, "in_module")))
                continue;
            char from[2400], to[1300];
            snprintf(from, sizeof from, "%s/inputs/%s.npy", dir,
                     cJSON_GetObjectItem(a, "name")->valuestring);
            snprintf(to, sizeof to, "%s/arg%d.npy", links, k++);
            cr_assert_eq(symlink(from, to), 0, "symlink %s", to);
        }
        cJSON_Delete(meta);
        snprintf(inputs, sizeof inputs, "%s", links);
    }
    ss_scenario_options opts = {.inputs = inputs, .outputs = outputs};
    return ss_scenario_load(path, &opts, sc, err);
}

static void cleanup(const char *outputs, const char *links)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'%s%s%s", outputs, links[0] ? " '" : "", links,
             links[0] ? "'" : "");
    cr_assert_eq(system(cmd), 0);
}

/* Run fixture `prog`: every result equals JAX's (jax_fixture_run). */
static void runs_as_jax(const char *prog, bool gspmd)
{
    jax_fixture f;
    jax_fixture_run("jax_offload", prog, gspmd, &f);
    cr_assert_gt(cJSON_GetArraySize(cJSON_GetObjectItem(f.meta, "results")), 0,
                 "%s: meta.json lists no results", prog);
    jax_fixture_free(&f);
}

Test(host_offload, lm_offload_shardy) { runs_as_jax("lm_offload", false); }
Test(host_offload, lm_offload_gspmd) { runs_as_jax("lm_offload", true); }
Test(host_offload, put_host_back_shardy) { runs_as_jax("put_host_back", false); }
Test(host_offload, put_host_back_gspmd) { runs_as_jax("put_host_back", true); }

/* put_host_back's collectives equal those of XLA's compiled text (one
 * record per buffer: kind, groups, bytes), in both lowerings. */
static void collectives_as_xla(bool gspmd)
{
    jax_fixture f;
    jax_fixture_run("jax_offload", "put_host_back", gspmd, &f);
    recs ours = {0}, xla = {0};
    jax_fixture_records(&f, &ours, &xla);
    qsort(ours.s, (size_t)ours.n, sizeof *ours.s, cmp_str);
    qsort(xla.s, (size_t)xla.n, sizeof *xla.s, cmp_str);
    cr_assert_eq(ours.n, xla.n, "%d collectives, XLA's text %d", ours.n, xla.n);
    for (int i = 0; i < ours.n; i++)
        cr_expect_str_eq(ours.s[i], xla.s[i]);
    free_recs(&ours);
    free_recs(&xla);
    jax_fixture_free(&f);
}

Test(host_offload, put_host_back_collectives_shardy) { collectives_as_xla(false); }
Test(host_offload, put_host_back_collectives_gspmd) { collectives_as_xla(true); }

/* The planned per-device peak of fixture directory `rel` (Shardy). */
static size_t planned_peak(const char *rel)
{
    char outputs[64] = "/tmp/ss_offload_out_XXXXXX", links[64];
    cr_assert(mkdtemp(outputs));
    ss_scenario *sc = NULL;
    ss_scenario_error err;
    cr_assert_eq(load(rel, false, outputs, links, &sc, &err), SS_OK, "%s: %s", rel, err.message);
    cr_assert_eq(ss_scenario_compile(sc, &err), SS_OK, "%s: %s", rel, err.message);
    ss_plan p;
    cr_assert_eq(ss_executable_plan(ss_scenario_executable(sc), &p), SS_OK, "%s: %s", rel,
                 ss_error_message());
    ss_scenario_free(sc);
    cleanup(outputs, links);
    return p.peak_bytes;
}

static double xla_temp(const char *rel)
{
    char path[300];
    snprintf(path, sizeof path, "%s/memory.json", rel);
    cJSON *m = ts_load_json(path);
    double t = cJSON_GetObjectItem(m, "temp_size_in_bytes")->valuedouble;
    cJSON_Delete(m);
    return t;
}

/* The offload variant among the three remat variants of the same model
 * (no remat, full remat, checkpoint_dots): the plan's peaks order pairwise
 * as XLA's temporaries (memory.json) order (XLA's CPU peak_memory_in_bytes
 * counts the arguments and results only and is equal for all four). */
Test(host_offload, lm_offload_peak_orders_as_xla)
{
    static const char *const rels[] = {"jax_offload/lm_offload", "jax/lm_noremat", "jax/lm_full",
                                       "jax/lm_dots"};
    enum { N = sizeof rels / sizeof *rels };
    double xla[N];
    size_t ours[N];
    for (int k = 0; k < N; k++) {
        xla[k] = xla_temp(rels[k]);
        ours[k] = planned_peak(rels[k]);
    }
    for (int a = 0; a < N; a++)
        for (int b = a + 1; b < N; b++) {
            int xo = (xla[a] > xla[b]) - (xla[a] < xla[b]);
            int oo = (ours[a] > ours[b]) - (ours[a] < ours[b]);
            cr_expect_eq(oo, xo, "%s vs %s: XLA's temporaries %.0f vs %.0f, the plan's peaks "
                                 "%zu vs %zu", rels[a], rels[b], xla[a], xla[b], ours[a], ours[b]);
        }
}

/* lm_offload lowered for CPU: JAX emits its offloading policy's
 * @annotate_device_placement only to "device" and XLA's CPU compiled text
 * has no host memory space (S(5)) buffer; the plan keeps everything on the
 * device too: no host memory, no transfer. */
Test(host_offload, lm_offload_cpu_keeps_everything_on_device)
{
    const char *data = getenv("SS_TEST_DATA");
    cr_assert(data, "SS_TEST_DATA is not set");
    char path[1024], line[4096];
    snprintf(path, sizeof path, "%s/jax_offload/lm_offload/compiled.txt", data);
    FILE *f = fopen(path, "r");
    cr_assert(f, "%s", path);
    int s5 = 0;
    while (fgets(line, sizeof line, f))
        s5 += strstr(line, "S(5)") != NULL;
    fclose(f);
    char outputs[64] = "/tmp/ss_offload_out_XXXXXX", links[64];
    cr_assert(mkdtemp(outputs));
    ss_scenario *sc = NULL;
    ss_scenario_error err;
    cr_assert_eq(load("jax_offload/lm_offload", false, outputs, links, &sc, &err), SS_OK, "%s",
                 err.message);
    cr_assert_eq(ss_scenario_compile(sc, &err), SS_OK, "%s", err.message);
    ss_plan plan;
    TS_OK(ss_executable_plan(ss_scenario_executable(sc), &plan));
    cr_assert_eq(plan.host_peak_bytes > 0, s5 > 0, "XLA: %d host buffers, the plan %zu B", s5,
                 plan.host_peak_bytes);
    cr_assert_eq(plan.transfers > 0, s5 > 0, "%d transfers", plan.transfers);
    ss_scenario_free(sc);
    cleanup(outputs, links);
}

/* jit's out_shardings with memory_kind pinned_host (CPU lowering): the
 * result is put in its host's arena and equals JAX's. */
Test(host_offload, out_pinned_host_runs_as_jax)
{
    runs_as_jax("out_pinned_host", false);
}

/* --- The TPU lowerings (tests/data/jax_offload_tpu, made by
 * tests/xla_tpu/make_offload_records.py: JAX's TPU lowering, XLA's TPU
 * memory analysis in record.json, JAX's CPU outputs as the reference) --- */

/* Plan of a TPU-lowered fixture (run first: every result equals JAX's),
 * and XLA's memory_analysis field `field` from its record. */
static ss_plan tpu_run(const char *prog, jax_fixture *f)
{
    jax_fixture_run("jax_offload_tpu", prog, false, f);
    ss_plan plan;
    TS_OK(ss_executable_plan(ss_scenario_executable(f->sc), &plan));
    return plan;
}

static double xla_memory(const char *prog, const char *field)
{
    char rel[256];
    snprintf(rel, sizeof rel, "jax_offload_tpu/%s/record.json", prog);
    cJSON *rec = ts_load_json(rel);
    const cJSON *v = cJSON_GetObjectItem(cJSON_GetObjectItem(rec, "memory_analysis"), field);
    cr_assert(cJSON_IsNumber(v), "%s: no memory_analysis.%s", rel, field);
    double x = v->valuedouble;
    cJSON_Delete(rec);
    return x;
}

/* jax.device_put to pinned_host and back inside jit, lowered for TPU: JAX's
 * results; one transfer each way of the device's block (f32[2,4], 32 B);
 * a host temporary where XLA has one (host_temp_size_in_bytes > 0; XLA's
 * figure is larger: its TPU layout tiles the block). */
Test(host_offload, tpu_put_host_back_moves_each_block_both_ways)
{
    jax_fixture f;
    ss_plan plan = tpu_run("put_host_back", &f);
    cr_assert_eq(plan.transfers, 2);
    cr_assert_eq(plan.to_host_bytes, 32.0);
    cr_assert_eq(plan.to_device_bytes, 32.0);
    double xla_host = xla_memory("put_host_back", "host_temp_size_in_bytes");
    cr_assert_gt(xla_host, 0);
    cr_assert_gt(plan.host_peak_bytes, 0);
    cr_assert_leq((double)plan.host_peak_bytes, xla_host, "plan %zu B, XLA %.0f B",
                  plan.host_peak_bytes, xla_host);
    jax_fixture_free(&f);
}

/* The builder's device_put on 2 hosts of 4 devices: the run equals its
 * input (tanh of it), each device's partition of its host's arena peaks at
 * the plan's host figure, each host at 4 times that, and device memory
 * holds no host buffer at the peak. */
Test(host_offload, device_put_host_arena_matches_plan)
{
    ss_mesh *m;
    TS_OK(ss_mesh_create(1, (const char *[]){"x"}, (int64_t[]){8}, 8, NULL, &m));
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_spec xs = ts_spec("P('x')");
    ss_value x, h, d, y;
    TS_OK(ss_input(p, "x", SS_F32, 2, (int64_t[]){64, 16}, &xs, &x));
    TS_OK(ss_device_put(p, x, SS_MEMORY_PINNED_HOST, &h));
    cr_assert_eq(ss_value_memory_kind(p, h), SS_MEMORY_PINNED_HOST);
    TS_OK(ss_device_put(p, h, SS_MEMORY_DEVICE, &d));
    TS_OK(ss_unary(p, SS_TANH, d, &y));
    TS_OK(ss_output(p, y, &xs));
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    ss_plan plan;
    TS_OK(ss_executable_plan(e, &plan));
    size_t block = 8 * 16 * sizeof(float);
    cr_assert_eq(plan.host_peak_bytes, ss_device_buffer_bytes(block));
    cr_assert_eq(plan.to_host_bytes, (double)block);
    cr_assert_eq(plan.to_device_bytes, (double)block);
    /* The memory timeline: two transfers; host bytes live from the first
     * until their buffer is freed; the steps cost them on the host link. */
    ss_memory_point pts[64];
    int npts = 0, ntransfers = 0;
    size_t host_max = 0;
    TS_OK(ss_executable_memory_timeline(e, pts, 64, &npts));
    for (int k = 0; k < npts && k < 64; k++) {
        ntransfers += strcmp(pts[k].what, "transfer") == 0;
        host_max = pts[k].host_live_bytes > host_max ? pts[k].host_live_bytes : host_max;
    }
    cr_assert_eq(ntransfers, 2);
    cr_assert_eq(host_max, plan.host_peak_bytes);
    cr_assert_eq(pts[npts - 1].host_live_bytes, 0);
    ss_step_estimate est;
    TS_OK(ss_estimate_step(e, m, ss_hw_profile_find("tpu-v5e"), &est));
    cr_assert_float_eq(est.host, 2.0 * (double)block / ss_hw_profile_find("tpu-v5e")->host_bw,
                       1e-18);
    ss_context *ctx;
    TS_OK(ss_context_create(&(ss_context_options){.ndevices = 8, .device_memory = 1 << 20,
                                                  .hosts = 2},
                            &ctx));
    float in[64 * 16], out[64 * 16];
    for (int k = 0; k < 64 * 16; k++)
        in[k] = (float)(k % 37) / 10.0f - 1.8f;
    TS_OK(ss_executable_run(e, ctx, (const void *[]){in}, (void *[]){out}));
    for (int k = 0; k < 64 * 16; k++)
        cr_assert_eq(out[k], tanhf(in[k]), "element %d: %g vs %g", k, out[k], tanhf(in[k]));
    for (int dev = 0; dev < 8; dev++) {
        ss_memory_stats ms;
        TS_OK(ss_device_host_memory_stats(ctx, dev, &ms));
        cr_assert_eq(ms.peak_bytes, plan.host_peak_bytes, "device %d", dev);
        TS_OK(ss_device_memory_stats(ctx, dev, &ms));
        cr_assert_eq(ms.peak_bytes, plan.peak_bytes, "device %d", dev);
    }
    for (int host = 0; host < 2; host++) {
        ss_memory_stats hs;
        TS_OK(ss_host_memory_stats(ctx, host, &hs));
        cr_assert_eq(hs.peak_bytes, 4 * plan.host_peak_bytes, "host %d", host);
    }
    ss_context_destroy(ctx);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* A host value read by anything but a device_put or an output: a one-line
 * error naming both values, no crash. */
Test(host_offload, computing_on_host_memory_is_refused)
{
    ss_mesh *m;
    TS_OK(ss_mesh_create(1, (const char *[]){"x"}, (int64_t[]){8}, 8, NULL, &m));
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_spec xs = ts_spec("P('x')");
    ss_value x, h, y;
    TS_OK(ss_input(p, "x", SS_F32, 1, (int64_t[]){64}, &xs, &x));
    TS_OK(ss_device_put(p, x, SS_MEMORY_UNPINNED_HOST, &h));
    TS_OK(ss_unary(p, SS_TANH, h, &y));
    TS_OK(ss_output(p, y, &xs));
    ss_executable *e = NULL;
    cr_assert_eq(ss_program_compile(p, &e), SS_ERR_UNSUPPORTED);
    cr_assert(strstr(ss_error_message(), "a value in unpinned_host memory"), "%s",
              ss_error_message());
    cr_assert_null(strchr(ss_error_message(), '\n'));
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* out_shardings in pinned_host, lowered for TPU: the result lives in host
 * memory (XLA: host_output_size_in_bytes > 0, output_size_in_bytes 0), the
 * device keeps no copy of it past the transfer. */
Test(host_offload, tpu_out_pinned_host_result_lives_in_host_memory)
{
    jax_fixture f;
    ss_plan plan = tpu_run("out_pinned_host", &f);
    cr_assert_eq(xla_memory("out_pinned_host", "output_size_in_bytes"), 0);
    cr_assert_gt(xla_memory("out_pinned_host", "host_output_size_in_bytes"), 0);
    cr_assert_eq(plan.transfers, 1);
    cr_assert_eq(plan.to_host_bytes, 32.0);
    cr_assert_eq(plan.host_peak_bytes, ss_device_buffer_bytes(32));
    jax_fixture_free(&f);
}

/* The scanned layer's steps (ws's leading dim in meta.json). */
static int scan_steps(const jax_fixture *f)
{
    const cJSON *a;
    cJSON_ArrayForEach(a, cJSON_GetObjectItem(f->meta, "arguments")) {
        if (strcmp(cJSON_GetObjectItem(a, "name")->valuestring, "ws") == 0)
            return cJSON_GetArrayItem(cJSON_GetObjectItem(a, "shape"), 0)->valueint;
    }
    cr_assert_fail("%s: no argument ws", f->prog);
    return 0;
}

/* An offloading policy over a scanned layer, lowered for TPU
 * (save_and_offload_only_these_names: the named activation of each step
 * put in pinned_host): the step's value is written into a stacked carry
 * that lives in host memory through both while loops, as XLA's host
 * offloader places it, and read back one slice per backward step. The
 * results equal JAX's; each stacked residual crosses the host link once
 * each way, which is exactly XLA's host temporaries
 * (host_temp_size_in_bytes: the stacks and nothing else), in 2 x steps
 * transfers per stack; the host peak is those stacks plus, while a step
 * runs, one staged slice per stack (XLA writes the slice straight into
 * the stack: at most 1 / steps more). */
static void scan_offload_runs_as_jax(const char *prog)
{
    jax_fixture f;
    ss_plan plan = tpu_run(prog, &f);
    double host_temp = xla_memory(prog, "host_temp_size_in_bytes");
    int steps = scan_steps(&f);
    cr_assert_gt(host_temp, 0);
    cr_assert_eq(plan.to_host_bytes, host_temp, "%s: %g B to host, XLA's host temporaries %g B",
                 prog, plan.to_host_bytes, host_temp);
    cr_assert_eq(plan.to_device_bytes, host_temp, "%s: %g B to device", prog,
                 plan.to_device_bytes);
    cr_assert(plan.transfers > 0 && plan.transfers % (2 * steps) == 0, "%s: %d transfers",
              prog, plan.transfers);
    cr_assert_geq((double)plan.host_peak_bytes, host_temp, "%s", prog);
    cr_assert_leq((double)plan.host_peak_bytes, host_temp * (1.0 + 1.0 / steps), "%s: %zu B",
                  prog, plan.host_peak_bytes);
    jax_fixture_free(&f);
}

Test(host_offload, tpu_scan_offload_runs_as_jax) { scan_offload_runs_as_jax("scan_offload"); }
Test(host_offload, tpu_scan_offload_dots_runs_as_jax)
{
    scan_offload_runs_as_jax("scan_offload_dots");
}

/* The same scanned layer with no remat, full remat and the two offloading
 * policies: the planned device peaks order as XLA's TPU memory analysis
 * orders peak_memory_in_bytes (record.json): offloading lowers the peak
 * below no remat, never below full remat, and the two offloading
 * policies peak alike; the variants without offload use no host memory. */
Test(host_offload, tpu_scan_peaks_order_as_xla)
{
    static const char *const progs[] = {"scan_no_remat", "scan_full_remat", "scan_offload",
                                        "scan_offload_dots"};
    enum { N = sizeof progs / sizeof *progs };
    double xla[N];
    ss_plan ours[N];
    for (int k = 0; k < N; k++) {
        char rel[128];
        snprintf(rel, sizeof rel, "jax_offload_tpu/%s", progs[k]);
        xla[k] = xla_memory(progs[k], "peak_memory_in_bytes");
        char outputs[64] = "/tmp/ss_offload_out_XXXXXX", links[64];
        cr_assert(mkdtemp(outputs));
        ss_scenario *sc = NULL;
        ss_scenario_error err;
        cr_assert_eq(load(rel, false, outputs, links, &sc, &err), SS_OK, "%s: %s", rel,
                     err.message);
        cr_assert_eq(ss_scenario_compile(sc, &err), SS_OK, "%s: %s", rel, err.message);
        TS_OK(ss_executable_plan(ss_scenario_executable(sc), &ours[k]));
        ss_scenario_free(sc);
        cleanup(outputs, links);
        if (xla_memory(progs[k], "host_temp_size_in_bytes") == 0)
            cr_assert_eq(ours[k].host_peak_bytes, 0, "%s", progs[k]);
    }
    for (int a = 0; a < N; a++)
        for (int b = 0; b < N; b++) {
            size_t pa = ours[a].peak_bytes, pb = ours[b].peak_bytes;
            if (xla[a] < xla[b])
                cr_expect_leq(pa, pb, "%s vs %s: XLA %.0f < %.0f, the plan %zu > %zu", progs[a],
                              progs[b], xla[a], xla[b], pa, pb);
            if (xla[a] == xla[b])
                cr_expect_eq(pa, pb, "%s vs %s: XLA %.0f both, the plan %zu vs %zu", progs[a],
                             progs[b], xla[a], pa, pb);
        }
    for (int k = 2; k < N; k++)
        cr_expect_lt(ours[k].peak_bytes, ours[0].peak_bytes, "%s %zu B vs no remat %zu B",
                     progs[k], ours[k].peak_bytes, ours[0].peak_bytes);
}

/* A host value may be bitcast in host memory (XLA moves nothing), but a
 * computation on the bitcast is refused with one line naming the op. */
Test(host_offload, computing_on_a_host_bitcast_is_refused)
{
    ss_mesh *m;
    TS_OK(ss_mesh_create(1, (const char *[]){"x"}, (int64_t[]){8}, 8, NULL, &m));
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_spec xs = ts_spec("P('x')");
    ss_value x, h, y;
    TS_OK(ss_input(p, "x", SS_F32, 1, (int64_t[]){64}, &xs, &x));
    TS_OK(ss_device_put(p, x, SS_MEMORY_PINNED_HOST, &h));
    TS_OK(ss_reshape(p, h, 2, (int64_t[]){8, 8}, &y));
    TS_OK(ss_unary(p, SS_EXP, y, &y));
    TS_OK(ss_output(p, y, NULL));
    ss_executable *e = NULL;
    cr_assert_eq(ss_program_compile(p, &e), SS_ERR_UNSUPPORTED);
    cr_assert(strstr(ss_error_message(), "(exp) reads"), "%s", ss_error_message());
    cr_assert_null(strchr(ss_error_message(), '\n'));
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}
