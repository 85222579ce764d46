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
 *     is refused by name with a one-line error, as host memory is not
 *     modelled yet.
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

/* jit's out_shardings with memory_kind pinned_host: a one-line error naming
 * the host placement, and no crash. */
Test(host_offload, out_pinned_host_is_refused_by_name)
{
    char outputs[64] = "/tmp/ss_offload_out_XXXXXX", links[64];
    cr_assert(mkdtemp(outputs));
    ss_scenario *sc = NULL;
    ss_scenario_error err;
    ss_status st = load("jax_offload/out_pinned_host", false, outputs, links, &sc, &err);
    if (st == SS_OK) {
        st = ss_scenario_compile(sc, &err);
        ss_scenario_free(sc);
    }
    cr_assert_neq(st, SS_OK, "a result in pinned_host memory was accepted");
    cr_assert(strstr(err.message, "pinned_host"), "%s", err.message);
    cr_assert(strstr(err.message, "not modelled yet"), "%s", err.message);
    cr_assert_null(strchr(err.message, '\n'), "%s", err.message);
    cleanup(outputs, links);
}
