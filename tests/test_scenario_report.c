/* test_scenario_report.c — the reports through the public header
 * (shardsim.h, "Scenario reports") without the command line: the report
 * only after a plan or run, the watch of a psum with each device's block
 * worked out by hand, the plan's trace, and strategies compared side by
 * side, with the errors each entry point gives. */
#include "support.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ts_psum_scenario (support.h): device d holds x[2d:2d+2] = [2d, 2d+1] and gets
 * [0+2+4+6, 1+3+5+7] = [12, 16]. */

/* The report of sc as written to a memory stream (malloc'ed). */
static char *report_text(ss_scenario *sc, const ss_scenario_report_options *o, ss_status *st)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    *st = ss_scenario_report_write(sc, o, f);
    fclose(f);
    return buf;
}

Test(scenario_report, only_after_a_plan_or_run)
{
    ss_scenario *sc;
    ss_scenario_error err;
    TS_OK(ss_scenario_load_text("psum.shard", ts_psum_scenario, NULL, &sc, &err));
    ss_status st;
    char *before = report_text(sc, NULL, &st);
    cr_assert_eq(st, SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "not been planned or run"), "%s", ss_error_message());
    free(before);
    cr_assert_eq(ss_scenario_plan_trace(sc, NULL, "/tmp/never.json"), SS_ERR_INVALID);
    TS_OK(ss_scenario_plan(sc, &err));
    ss_scenario_report_options o = {.json = true};
    char *json = report_text(sc, &o, &st);
    TS_OK(st);
    /* One JSON object on one line; the psum is the ledger's one entry. */
    cr_assert_eq(json[0], '{', "%.80s", json);
    cr_assert_eq(strchr(json, '\n'), json + strlen(json) - 1);
    cr_assert(strstr(json, "\"command\":\"plan\""), "%.200s", json);
    cr_assert(strstr(json, "all_reduce"), "%.200s", json);
    free(json);
    ss_scenario_free(sc);
}

Test(scenario_report, watch_shows_each_device_block_before_and_after)
{
    ss_scenario *sc;
    ss_scenario_error err;
    TS_OK(ss_scenario_load_text("psum.shard", ts_psum_scenario, NULL, &sc, &err));
    cr_assert_eq(ss_scenario_watch_value(sc, "y"), SS_ERR_INVALID); /* not compiled yet */
    TS_OK(ss_scenario_compile(sc, &err));
    cr_assert_eq(ss_scenario_watch_value(sc, "nothing"), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "'nothing'"), "%s", ss_error_message());
    TS_OK(ss_scenario_watch_value(sc, "y"));
    TS_OK(ss_scenario_run(sc, &err));
    ss_status st;
    char *text = report_text(sc, NULL, &st);
    TS_OK(st);
    const char *w = strstr(text, "Watch y");
    cr_assert_not_null(w, "%s", text);
    for (int d = 0; d < 4; d++) {
        char want[64], line_start[32];
        snprintf(line_start, sizeof line_start, "device %d ", d);
        const char *l = strstr(w, line_start);
        cr_assert_not_null(l, "%s", w);
        snprintf(want, sizeof want, "[%d, %d]", 2 * d, 2 * d + 1);
        const char *eol = strchr(l, '\n');
        cr_assert(strstr(l, want) && strstr(l, want) < eol, "%.*s", (int)(eol - l), l);
        const char *after = strstr(l, "-> [12, 16]");
        cr_assert(after && after < eol, "%.*s", (int)(eol - l), l);
    }
    free(text);
    ss_scenario_free(sc); /* frees the watch too */
}

Test(scenario_report, plan_trace_has_one_slice_per_collective_and_kernel)
{
    ss_scenario *sc;
    ss_scenario_error err;
    TS_OK(ss_scenario_load_text("psum.shard", ts_psum_scenario, NULL, &sc, &err));
    TS_OK(ss_scenario_plan(sc, &err));
    char path[] = "/tmp/ss_trace_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    TS_OK(ss_scenario_plan_trace(sc, "tpu-v5e", path));
    FILE *f = fopen(path, "r");
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    unlink(path);
    cr_assert(strncmp(buf, "{\"traceEvents\":[", 16) == 0, "%s", buf);
    cr_assert(strstr(buf, "estimate, tpu-v5e"), "%s", buf);
    /* The program is one psum: one all-reduce, on line 6, and no kernel. */
    int slices = 0;
    for (const char *p = buf; (p = strstr(p, "\"ph\":\"X\"")); p++)
        slices++;
    cr_assert_eq(slices, 1, "%s", buf);
    cr_assert(strstr(buf, "\"name\":\"all_reduce\""), "%s", buf);
    cr_assert(strstr(buf, "\"line\":6"), "%s", buf);
    cr_assert_eq(ss_scenario_plan_trace(sc, NULL, "/nonexistent/dir/t.json"), SS_ERR_IO);
    ss_scenario_free(sc);
}

Test(scenario_report, strategies_side_by_side_and_their_errors)
{
    /* Two strategies for one 2-D weight on a 4-device mesh: replicated
     * (every device holds its 64x64 f32 = 16 KiB) and sharded on rows
     * (each holds a quarter, 4 KiB); the one parameter is all there is. */
    const char *text = "mesh d=4\n"
                       "w = param(f32[64, 64], P(), ones)\n"
                       "def f(w):\n"
                       "    return w * 2.0\n"
                       "run f\n";
    char dir[] = "/tmp/ss_strat_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char rep[256], row[256];
    snprintf(rep, sizeof rep, "%s/replicated.txt", dir);
    snprintf(row, sizeof row, "%s/rows.txt", dir);
    FILE *f = fopen(rep, "w");
    fputs("'.*'  replicate\n", f);
    fclose(f);
    f = fopen(row, "w");
    fputs("'.*'  P('d')\n", f);
    fclose(f);
    const char *files[] = {rep, row};
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    bool any = false;
    ss_scenario_error err;
    TS_OK(ss_scenario_compare_strategies("w.shard", text, NULL, 2, files, true, m, &any, &err));
    fclose(m);
    cr_assert(any);
    cr_assert(strstr(buf, "\"strategies\":["), "%s", buf);
    cr_assert(strstr(buf, "\"params_bytes_per_device\":16384"), "%s", buf);
    cr_assert(strstr(buf, "\"params_bytes_per_device\":4096"), "%s", buf);
    free(buf);
    const char *missing[] = {rep, "/nonexistent/strategy.txt"};
    buf = NULL;
    m = open_memstream(&buf, &len);
    cr_assert_eq(ss_scenario_compare_strategies("w.shard", text, NULL, 2, missing, false, m, &any,
                                                &err),
                 SS_ERR_INVALID);
    fclose(m);
    cr_assert(err.bad_input);
    cr_assert(strstr(err.message, "strategy"), "%s", err.message);
    cr_assert_eq(len, 0, "nothing is written on failure: %s", buf);
    free(buf);
    unlink(rep);
    unlink(row);
    rmdir(dir);
}
