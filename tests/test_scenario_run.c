/* test_scenario_run.c — what `shardsim run` gives back: checks that treat
 * NaN and Inf as numpy.testing.assert_allclose does, a report that fails
 * the run when a part of it cannot be made. */
#include "scenario_check.h"

#include "cli/scenario.h"

#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* --- check: NaN and Inf ---------------------------------------------------- */

/* One element pair through the comparison `check` uses. */
static scn_check_result compare1(float run, float ref)
{
    scn_check_result res;
    scn_check_compare(SS_F32, &run, &ref, 1, -1, &res);
    return res;
}

/* numpy.testing.assert_allclose(actual, desired) with its defaults
 * (equal_nan=True): equal NaNs pass, equal infinities pass, an infinity
 * against a finite value or the other infinity fails, NaN against a
 * number fails; finite pairs are compared with the tolerance. */
Test(scenario_run, check_compares_nan_and_inf_as_assert_allclose)
{
    struct { float run, ref; bool pass; } cases[] = {
        {NAN, NAN, true},           {INFINITY, INFINITY, true}, {-INFINITY, -INFINITY, true},
        {INFINITY, 1e30f, false},   {1.0f, INFINITY, false},    {INFINITY, -INFINITY, false},
        {NAN, 1.0f, false},         {0.0f, NAN, false},         {NAN, INFINITY, false},
        {1.0f, 1.00001f, true},     {1.0f, 1.1f, false},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        scn_check_result r = compare1(cases[k].run, cases[k].ref);
        cr_assert_eq(r.pass, cases[k].pass, "run %g vs reference %g: passed %d", cases[k].run,
                     cases[k].ref, r.pass);
        bool nonfinite = !isfinite(cases[k].run) || !isfinite(cases[k].ref);
        /* the error figures speak of finite pairs only: never 1e300 or inf */
        cr_assert(isfinite(r.max_abs) && r.max_abs < 1, "case %zu: max abs %g", k, r.max_abs);
        cr_assert_eq(r.nonfinite_bad, nonfinite && !cases[k].pass ? 1 : 0, "case %zu", k);
        cr_assert_eq(r.nonfinite_equal, nonfinite && cases[k].pass ? 1 : 0, "case %zu", k);
    }
    /* a mismatch among equal NaNs: counted, and the first one located */
    float run[4] = {NAN, 2, NAN, INFINITY}, ref[4] = {NAN, 2, 5, INFINITY};
    scn_check_result r;
    scn_check_compare(SS_F32, run, ref, 4, -1, &r);
    cr_assert(!r.pass);
    cr_assert_eq(r.nonfinite_bad, 1);
    cr_assert_eq(r.nonfinite_equal, 2);
    cr_assert_eq(r.first_bad, 2);
    cr_assert(isnan(r.bad_run) && r.bad_ref == 5);
}

static const char nan_text[] = "mesh d=2 m=4\n"
                               "x = input(f32[8, 16], P('d', 'm'), ones)\n"
                               "def f(x):\n"
                               "    return (x - x) / (x - x), exp(x * 1000.0), x\n"
                               "run f\n"
                               "check f\n";

/* 0/0 on every device and in the reference: NaN on both sides passes, as
 * exp overflowing to +inf on both sides does. */
Test(scenario_run, a_nan_output_equal_on_both_sides_passes_its_check)
{
    const char *args[] = {"run", "nan.shard"};
    result r = run_cli(nan_text, 2, args);
    cr_assert_eq(r.rc, 0, "exit %d\n%s%s", r.rc, r.out, r.err);
    cr_assert(strstr(r.out, "f[1]           max abs err 0          rel 0          tol 0.0001   ok (bitwise equal; 128 NaN/Inf equal on both sides)"), "%s", r.out);
    cr_assert(!strstr(r.out, "1e+300"), "%s", r.out);
    result_free(&r);
    const char *jargs[] = {"run", "nan.shard", "--json"};
    r = run_cli(nan_text, 3, jargs);
    cr_assert_eq(r.rc, 0);
    cJSON *j = cJSON_Parse(r.out), *c = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "checks"), 0);
    cr_assert(c, "%s", r.out);
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(c, "passed")));
    cr_assert_eq(cJSON_GetObjectItem(c, "max_abs_error")->valuedouble, 0);
    cr_assert_eq(cJSON_GetObjectItem(c, "nonfinite_equal")->valuedouble, 128);
    cr_assert_eq(cJSON_GetObjectItem(c, "nonfinite_mismatches")->valuedouble, 0);
    cJSON_Delete(j);
    result_free(&r);
}

/* --- A report that cannot be made fails the run ----------------------------- */

static char *slurp_path(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return calloc(1, 1);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = calloc((size_t)n + 1, 1);
    cr_assert(s);
    if (fread(s, 1, (size_t)n, f) != (size_t)n)
        s[0] = '\0';
    fclose(f);
    return s;
}

/* `shardsim ARGS` with FAIL_AT=fail_at under the failmalloc shim; stdout
 * and stderr into `out`/`err`; the exit status, or 128 + signal. */
static int run_failing(const char *shim, long fail_at, const char *args, char **out, char **err)
{
    char cmd[2048], o[64], e[64];
    snprintf(o, sizeof o, "/tmp/ss_fm_out_%d", (int)getpid());
    snprintf(e, sizeof e, "/tmp/ss_fm_err_%d", (int)getpid());
    snprintf(cmd, sizeof cmd, "FAIL_AT=%ld FAIL_COUNT=1 LD_PRELOAD=%s %s %s >%s 2>%s", fail_at,
             shim, getenv("SS_SHARDSIM"), args, o, e);
    int st = system(cmd);
    *out = slurp_path(o);
    *err = slurp_path(e);
    remove(o);
    remove(e);
    return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
}

/* Every host allocation of `plan` (text and --json, with a picture) fails
 * in turn: a report that lost a part (a picture, the largest buffers) is
 * never an exit 0; its failure says out of host memory. */
Test(scenario_run, a_report_that_runs_out_of_host_memory_fails_the_run, .timeout = 240)
{
    const char *shim = getenv("SS_FAILMALLOC");
    if (!shim || !getenv("SS_SHARDSIM"))
        cr_skip_test("no failmalloc shim in this build (sanitizers or not Linux)");
    char path[64];
    snprintf(path, sizeof path, "/tmp/ss_fm_%d.shard", (int)getpid());
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs("mesh d=2 m=4\nx = input(f32[8, 16], P('d', 'm'), ones)\n"
          "def f(x):\n    return x * 2.0\nshow x\nrun f\n", f);
    fclose(f);
    const char *variants[] = {"plan", "plan --json --explain"};
    for (int v = 0; v < 2; v++) {
        char args[256], *out, *err;
        snprintf(args, sizeof args, "%s %s", variants[v], path);
        cr_assert_eq(run_failing(shim, -1, args, &out, &err), 0, "%s", err);
        const char *count = strstr(err, "allocations ");
        cr_assert(count, "%s", err);
        long total = atol(count + 12);
        free(out);
        free(err);
        int failed_reports = 0;
        for (long n = 1; n <= total; n++) {
            int rc = run_failing(shim, n, args, &out, &err);
            /* (OpenBLAS exits 130 when it cannot start its threads: not ours) */
            cr_assert(rc != 128 + SIGSEGV && rc != 128 + SIGABRT,
                      "%s, allocation %ld failing: exit %d\n%s", args, n, rc, err);
            /* with --json the error is the JSON object on stdout */
            bool failed = strstr(err, "the report is incomplete") ||
                          strstr(out, "the report is incomplete");
            bool degraded = !failed && (strstr(out, "no picture") || strstr(out, "out of host memory"));
            cr_assert(!(rc == 0 && degraded), "%s, allocation %ld failing: exit 0 with\n%s",
                      args, n, out);
            if (failed) {
                failed_reports++;
                cr_assert_eq(rc, 1, "%s%s", out, err);
                cr_assert(strstr(err, "out of host memory") || strstr(out, "out of host memory"),
                          "%s%s", out, err);
            }
            free(out);
            free(err);
        }
        cr_assert(failed_reports > 0, "%s: no allocation of the report was reached", args);
    }
    remove(path);
}
