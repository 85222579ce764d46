/* test_scenario_run.c — what `shardsim run` gives back: checks that treat
 * NaN and Inf as numpy.testing.assert_allclose does, a report that fails
 * the run when a part of it cannot be made. */
#include "scenario_check.h"

#include "front/scenario/scenario.h"

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
static ss__scn_check_result compare1(float run, float ref)
{
    ss__scn_check_result res;
    ss__scn_check_compare(SS_F32, &run, &ref, 1, -1, &res);
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
        ss__scn_check_result r = compare1(cases[k].run, cases[k].ref);
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
    ss__scn_check_result r;
    ss__scn_check_compare(SS_F32, run, ref, 4, -1, &r);
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

/* --- print(...), --outputs, --json outputs ----------------------------------- */

/* The text between "  line L: SOURCE\n" and the next "  line" or the blank
 * line ending the Printed section. */
static char *printed(const char *out, const char *source)
{
    const char *p = strstr(out, source);
    cr_assert(p, "no print %s in\n%s", source, out);
    p = strchr(p, '\n') + 1;
    const char *end = strstr(p, "\n  line ");
    const char *blank = strstr(p, "\n\n");
    if (!end || (blank && blank < end))
        end = blank;
    return strndup(p, (size_t)(end - p));
}

/* print(x) shows numpy's str of the value, as Python's print of a
 * jax.Array does. The expected texts are numpy 2's own output for the
 * same arrays (np.arange(6, dtype=np.float32).reshape(2, 3) * 0.5, ...). */
Test(scenario_run, print_shows_the_value_as_numpy_prints_it)
{
    const char *text = "mesh d=2 m=4\n"
                       "x = input(f32[2, 4], P(None, 'm'), iota)\n"
                       "i = input(i32[2, 3], P('d', None), iota)\n"
                       "big = input(f32[2, 550], P('d', None), iota)\n"
                       "def f(x, i, big):\n"
                       "    y = x[:, 0:3] * 0.5\n"
                       "    print('y is', y)\n"
                       "    return y, big / 7.0\n"
                       "run f\n"
                       "print(i)\n"
                       "print(y[0, 1], y.shape)\n"
                       "print(big / 7.0)\n";
    const char *args[] = {"run", "p.shard"};
    result r = run_cli(text, 2, args);
    cr_assert_eq(r.rc, 0, "exit %d\n%s%s", r.rc, r.out, r.err);
    struct { const char *source, *want; } cases[] = {
        {"print('y is', y)", "y is [[0.  0.5 1. ]\n [2.  2.5 3. ]]"},
        {"print(i)", "[[0 1 2]\n [3 4 5]]"},
        {"print(y[0, 1], y.shape)", "0.5 (2, 3)"},
        /* above 1000 elements: 3 at each edge; scientific (max/min > 1e3) */
        {"print(big / 7.0)", "[[0.0000000e+00 1.4285715e-01 2.8571430e-01 ... 7.8142860e+01\n"
                             "  7.8285713e+01 7.8428574e+01]\n"
                             " [7.8571426e+01 7.8714287e+01 7.8857140e+01 ... 1.5671428e+02\n"
                             "  1.5685715e+02 1.5700000e+02]]"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char *got = printed(r.out, cases[k].source);
        cr_assert_str_eq(got, cases[k].want, "%s", cases[k].source);
        free(got);
    }
    result_free(&r);
}

/* numpy's str on arrays whose texts numpy 2 printed (the reference). */
Test(scenario_run, numpy_str_matches_numpy)
{
    float a[3] = {1, 2.5f, 3}, n[3] = {NAN, 1, -INFINITY}, e[2] = {1e-5f, 1};
    int64_t s3[1] = {3}, s2[1] = {2};
    struct { const float *v; const int64_t *shape; const char *want; } cases[] = {
        {a, s3, "[1.  2.5 3. ]"}, {n, s3, "[ nan   1. -inf]"}, {e, s2, "[1.e-05 1.e+00]"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        ss__buf b;
        ss__buf_init(&b);
        cr_assert_eq(ss__scn_np_str(SS_F32, 1, cases[k].shape, cases[k].v, &b), SS_OK);
        cr_assert_str_eq(b.data, cases[k].want);
        ss__buf_free(&b);
    }
    float *big = malloc(2000 * sizeof *big);
    for (int k = 0; k < 2000; k++)
        big[k] = (float)k;
    int64_t s2000[1] = {2000};
    ss__buf b;
    ss__buf_init(&b);
    ss__scn_np_str(SS_F32, 1, s2000, big, &b);
    cr_assert_str_eq(b.data, "[0.000e+00 1.000e+00 2.000e+00 ... 1.997e+03 1.998e+03 1.999e+03]");
    ss__buf_free(&b);
    free(big);
    uint8_t t[2] = {1, 0};
    ss__buf_init(&b);
    ss__scn_np_str(SS_BOOL, 1, s2, t, &b);
    cr_assert_str_eq(b.data, "[ True False]");
    ss__buf_free(&b);
}

/* An independent reader of .npy format 1.0: the header dict's descr and
 * shape, then the raw little-endian data. */
typedef struct npy {
    char descr[16];
    int rank;
    long shape[8];
    unsigned char *data;
    size_t bytes;
} npy;

static npy read_npy(const char *path)
{
    npy a;
    memset(&a, 0, sizeof a);
    FILE *f = fopen(path, "rb");
    cr_assert(f, "no %s", path);
    unsigned char pre[10];
    cr_assert_eq(fread(pre, 1, 10, f), 10u);
    cr_assert(memcmp(pre, "\x93NUMPY\x01\x00", 8) == 0, "%s: not npy 1.0", path);
    size_t hlen = (size_t)pre[8] | (size_t)pre[9] << 8;
    cr_assert_eq((10 + hlen) % 64, 0u, "%s: header not aligned to 64", path);
    char *h = calloc(hlen + 1, 1);
    cr_assert_eq(fread(h, 1, hlen, f), hlen);
    cr_assert_eq(h[hlen - 1], '\n');
    const char *d = strstr(h, "'descr': '");
    cr_assert(d && strstr(h, "'fortran_order': False"), "%s", h);
    sscanf(d + 10, "%15[^']", a.descr);
    const char *s = strstr(h, "'shape': (");
    cr_assert(s, "%s", h);
    for (s += 10; *s != ')';) {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s)
            break;
        a.shape[a.rank++] = v;
        s = end;
        while (*s == ',' || *s == ' ')
            s++;
    }
    long pos = ftell(f);
    fseek(f, 0, SEEK_END);
    a.bytes = (size_t)(ftell(f) - pos);
    fseek(f, pos, SEEK_SET);
    a.data = malloc(a.bytes + 1);
    cr_assert_eq(fread(a.data, 1, a.bytes, f), a.bytes);
    fclose(f);
    free(h);
    return a;
}

/* --outputs DIR writes each result as DIR/NAME.npy with numpy's descr, and
 * --json carries the loss of every step. The values are checked against a
 * naive single-device computation of the same SGD steps. */
Test(scenario_run, outputs_are_npy_files_and_json_carries_the_loss_per_step)
{
    const char *text = "mesh d=2 m=4\n"
                       "x = input(f32[8, 4], P('d', None), iota)\n"
                       "t = input(f32[8, 1], P('d', None), ones)\n"
                       "w = param(f32[4, 1], P(None, None), zeros)\n"
                       "h = input(bf16[8], P('d'), iota)\n"
                       "b = input(bool[8], P('d'), randint(2, seed=1))\n"
                       "n = input(i32[8, 4], P('d', None), iota)\n"
                       "def loss(w, x, t):\n"
                       "    return mean((x @ w - t) ** 2)\n"
                       "def step(w, x, t, h, b, n):\n"
                       "    l, g = value_and_grad(loss)(w, x, t)\n"
                       "    w = w - 0.001 * g\n"
                       "    return l, w, h + h, b, n\n"
                       "run step steps=3\n";
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/ss_outputs_%d", (int)getpid());
    const char *args[] = {"run", "o.shard", "--json", "--outputs", dir};
    result r = run_cli(text, 5, args);
    cr_assert_eq(r.rc, 0, "exit %d\n%s%s", r.rc, r.out, r.err);
    /* the reference: the same steps in double precision */
    double X[8][4], w[4] = {0}, loss[3];
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 4; k++)
            X[i][k] = i * 4 + k;
    for (int s = 0; s < 3; s++) {
        double g[4] = {0};
        loss[s] = 0;
        for (int i = 0; i < 8; i++) {
            double p = 0;
            for (int k = 0; k < 4; k++)
                p += X[i][k] * w[k];
            loss[s] += (p - 1) * (p - 1) / 8;
            for (int k = 0; k < 4; k++)
                g[k] += 2 * (p - 1) * X[i][k] / 8;
        }
        for (int k = 0; k < 4; k++)
            w[k] -= 0.001 * g[k];
    }
    cJSON *j = cJSON_Parse(r.out), *outs = cJSON_GetObjectItem(j, "outputs");
    cr_assert(outs, "%s", r.out);
    cJSON *l = cJSON_GetArrayItem(outs, 0);
    cr_assert_str_eq(cJSON_GetObjectItem(l, "name")->valuestring, "l");
    cJSON *per = cJSON_GetObjectItem(l, "per_step");
    cr_assert_eq(cJSON_GetArraySize(per), 3);
    for (int s = 0; s < 3; s++) {
        double got = cJSON_GetArrayItem(per, s)->valuedouble;
        cr_assert(fabs(got - loss[s]) <= 1e-5 * fabs(loss[s]), "step %d: loss %g, want %g", s,
                  got, loss[s]);
    }
    cr_assert(fabs(cJSON_GetObjectItem(l, "value")->valuedouble - loss[2]) <= 1e-5 * loss[2]);
    cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(outs, 1), "updates")->valuestring,
                     "w");
    cJSON_Delete(j);
    result_free(&r);

    char path[128];
    snprintf(path, sizeof path, "%s/l.npy", dir);
    npy a = read_npy(path);
    float f;
    cr_assert_str_eq(a.descr, "<f4");
    cr_assert_eq(a.rank, 0);
    cr_assert_eq(a.bytes, 4u);
    memcpy(&f, a.data, 4);
    /* the file holds the last step's loss, as JSON's "value" */
    cr_assert(fabs(f - loss[2]) <= 1e-5 * loss[2], "%g vs %g", f, loss[2]);
    free(a.data);
    snprintf(path, sizeof path, "%s/w.npy", dir);
    a = read_npy(path);
    cr_assert_str_eq(a.descr, "<f4");
    cr_assert(a.rank == 2 && a.shape[0] == 4 && a.shape[1] == 1 && a.bytes == 16);
    for (int k = 0; k < 4; k++) {
        memcpy(&f, a.data + 4 * k, 4);
        cr_assert(fabs(f - w[k]) <= 1e-5 * fabs(w[k]) + 1e-9, "w[%d] %g vs %g", k, f, w[k]);
    }
    free(a.data);
    /* results without a name: RUN_K; bf16 as numpy + ml_dtypes saves it */
    snprintf(path, sizeof path, "%s/step_2.npy", dir);
    a = read_npy(path);
    cr_assert_str_eq(a.descr, "<V2");
    cr_assert(a.rank == 1 && a.shape[0] == 8 && a.bytes == 16);
    for (int i = 0; i < 8; i++) {
        uint16_t h;
        memcpy(&h, a.data + 2 * i, 2);
        uint32_t u = (uint32_t)h << 16;
        memcpy(&f, &u, 4);
        cr_assert_eq(f, 2.0f * (float)i, "h + h [%d]: %g", i, f); /* exact in bf16 */
    }
    free(a.data);
    snprintf(path, sizeof path, "%s/b.npy", dir);
    a = read_npy(path);
    cr_assert_str_eq(a.descr, "|b1");
    cr_assert(a.rank == 1 && a.shape[0] == 8 && a.bytes == 8);
    for (int i = 0; i < 8; i++)
        cr_assert(a.data[i] == 0 || a.data[i] == 1, "%d", i);
    free(a.data);
    snprintf(path, sizeof path, "%s/n.npy", dir);
    a = read_npy(path);
    cr_assert_str_eq(a.descr, "<i4");
    cr_assert(a.rank == 2 && a.shape[0] == 8 && a.shape[1] == 4);
    for (int k = 0; k < 32; k++) {
        int32_t v;
        memcpy(&v, a.data + 4 * k, 4);
        cr_assert_eq(v, k);
    }
    free(a.data);
    /* numpy itself reads them back, when it is installed */
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "python3 -c 'import numpy' 2>/dev/null || exit 0; python3 -c 'import numpy as np; "
             "a = np.load(\"%s/w.npy\"); assert a.dtype == np.float32 and a.shape == (4, 1); "
             "b = np.load(\"%s/b.npy\"); assert b.dtype == bool'", dir, dir);
    cr_assert_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

/* --- Ledger: phases and permute pairs ------------------------------------------ */

static const char phase_text[] = "mesh x=2 y=4 order=[3, 1, 0, 2, 7, 6, 4, 5]\n"
                                 "RING = ((0, 1), (1, 2), (2, 3), (3, 0))\n"
                                 "x = input(f32[8, 16], P('x', 'y'), normal(seed=1))\n"
                                 "w = param(f32[16, 16], P('y', None), normal(seed=2))\n"
                                 "def body(h):\n"
                                 "    return ppermute(h, 'y', perm=RING)\n"
                                 "def loss(w, x):\n"
                                 "    h = x @ w\n"
                                 "    h = shard_map(body, in_specs=P('x', 'y'), "
                                 "out_specs=P('x', 'y'))(h)\n"
                                 "    return sum(h * h)\n"
                                 "def step(w, x):\n"
                                 "    l, g = value_and_grad(loss)(w, x)\n"
                                 "    w = adam(w, g, learning_rate=0.01)\n"
                                 "    return l, w\n"
                                 "run step steps=2\n"
                                 "check l\n"
                                 "check w\n";

static int phase_rank(const char *p)
{
    return strcmp(p, "forward") == 0 ? 0 : strcmp(p, "backward") == 0 ? 1
                                      : strcmp(p, "optimizer") == 0 ? 2 : -1;
}

/* Do the JSON pairs equal `want` (n pairs) as a set? */
static bool same_pairs(cJSON *pairs, const int want[][2], int n)
{
    if (cJSON_GetArraySize(pairs) != n)
        return false;
    for (int k = 0; k < n; k++) {
        bool found = false;
        for (int j = 0; j < n && !found; j++) {
            cJSON *p = cJSON_GetArrayItem(pairs, j);
            found = cJSON_GetArrayItem(p, 0)->valueint == want[k][0] &&
                    cJSON_GetArrayItem(p, 1)->valueint == want[k][1];
        }
        if (!found)
            return false;
    }
    return true;
}

/* A train step: a matmul whose partial sums are reduced, a ppermute in
 * shard_map, grad, Adam. Each ledger entry carries its phase (the forward's
 * entries first, then the backward's: the permute's transpose and the
 * weight gradient's all-reduce over 'x'), and each permute its
 * source_target_pairs as device ids, derived here from the mesh's device
 * order: position (x, y) holds order[4x + y]; the ring moves y to y + 1 in
 * each x row, and its transpose moves it back. */
Test(scenario_run, ledger_entries_carry_their_phase_and_permute_pairs)
{
    const char *args[] = {"run", "ph.shard", "--json"};
    result r = run_cli(phase_text, 3, args);
    cr_assert_eq(r.rc, 0, "exit %d\n%s%s", r.rc, r.out, r.err);
    cJSON *j = cJSON_Parse(r.out);
    cJSON *entries = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "ledger"), "entries");
    cr_assert(entries, "%s", r.out);
    const int order[8] = {3, 1, 0, 2, 7, 6, 4, 5};
    int fwd[8][2], bwd[8][2], n = 0;
    for (int x = 0; x < 2; x++)
        for (int y = 0; y < 4; y++, n++) {
            fwd[n][0] = order[4 * x + y];
            fwd[n][1] = order[4 * x + (y + 1) % 4];
            bwd[n][0] = fwd[n][1];
            bwd[n][1] = fwd[n][0];
        }
    int last = 0, permutes[2] = {0, 0}, weight_grad = 0, nfwd = 0;
    cJSON *e;
    cJSON_ArrayForEach(e, entries)
    {
        const char *kind = cJSON_GetObjectItem(e, "kind")->valuestring;
        int ph = phase_rank(cJSON_GetObjectItem(e, "phase")->valuestring);
        cr_assert(ph >= 0);
        cr_assert(ph >= last, "entry %d (%s) in phase %d after phase %d",
                  cJSON_GetObjectItem(e, "seq")->valueint, kind, ph, last);
        last = ph;
        nfwd += ph == 0;
        cJSON *pairs = cJSON_GetObjectItem(e, "source_target_pairs");
        if (strcmp(kind, "collective_permute") == 0) {
            cr_assert(ph <= 1);
            cr_assert(same_pairs(pairs, ph == 0 ? fwd : bwd, 8), "phase %d: %s", ph,
                      cJSON_PrintUnformatted(pairs));
            permutes[ph]++;
        } else {
            cr_assert(cJSON_IsNull(pairs));
        }
        cJSON *axes = cJSON_GetObjectItem(e, "axes");
        if (strcmp(kind, "all_reduce") == 0 && cJSON_GetArraySize(axes) == 1 &&
            strcmp(cJSON_GetArrayItem(axes, 0)->valuestring, "x") == 0)
            weight_grad += ph == 1; /* dL/dw sums over the batch, split on 'x' */
    }
    cr_assert(nfwd >= 2 && permutes[0] == 1 && permutes[1] == 1 && weight_grad == 1,
              "forward %d, permutes %d/%d, weight-gradient all-reduces %d", nfwd, permutes[0],
              permutes[1], weight_grad);
    /* the values: Adam's ops are the optimizer's, the gradient the backward's */
    int nopt = 0;
    cJSON *v;
    cJSON_ArrayForEach(v, cJSON_GetObjectItem(j, "values"))
    {
        cJSON *name = cJSON_GetObjectItem(v, "name");
        const char *ph = cJSON_GetObjectItem(v, "phase")->valuestring;
        nopt += strcmp(ph, "optimizer") == 0;
        if (cJSON_IsString(name) && strcmp(name->valuestring, "g") == 0)
            cr_assert_str_eq(ph, "backward");
        if (cJSON_IsString(name) && strcmp(name->valuestring, "h") == 0)
            cr_assert_str_eq(ph, "forward");
    }
    cr_assert(nopt > 5, "%d optimizer values", nopt);
    cJSON_Delete(j);
    result_free(&r);
}

/* --- Several meshes in one file ----------------------------------------------- */

/* Save on a 2x4 mesh, restore on an 8-device mesh in another layout (seed
 * 000's case): each `mesh` line starts a section with its own devices; the
 * values restored on the second mesh are the saved ones (the flat index,
 * checked element by element from --json's print text) although the
 * second section declares the array as zeros. */
Test(scenario_run, a_file_with_two_meshes_saves_on_one_and_restores_on_the_other)
{
    char dir[64], text[2048];
    snprintf(dir, sizeof dir, "/tmp/ss_two_meshes_%d", (int)getpid());
    snprintf(text, sizeof text,
             "CKPT = '%s'\n"
             "mesh a=2 b=4\n"
             "w = param(f32[8, 8], P('a', 'b'), iota)\n"
             "def f(w):\n    return w * 2.0\n"
             "run f\n"
             "save CKPT step=0 force\n"
             "print(w)\n"
             "mesh c=8\n"
             "w = param(f32[8, 8], P(None, 'c'), zeros)\n"
             "restore CKPT step=0\n"
             "def f(w):\n    return w * 2.0\n"
             "run f\n"
             "print(w)\n", dir);
    const char *args[] = {"run", "two.shard", "--json"};
    result r = run_cli(text, 3, args);
    cr_assert_eq(r.rc, 0, "exit %d\n%s%s", r.rc, r.out, r.err);
    cJSON *j = cJSON_Parse(r.out), *secs = cJSON_GetObjectItem(j, "sections");
    cr_assert_eq(cJSON_GetArraySize(secs), 2, "%s", r.out);
    const char *texts[2];
    for (int k = 0; k < 2; k++) {
        cJSON *s = cJSON_GetArrayItem(secs, k);
        cJSON *axes = cJSON_GetObjectItem(cJSON_GetObjectItem(s, "mesh"), "axes");
        cr_assert_eq(cJSON_GetArraySize(axes), k == 0 ? 2 : 1);
        texts[k] = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(s, "prints"), 0),
                                       "text")->valuestring;
    }
    cJSON *ck = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(secs, 1),
                                                       "checkpoints"), 0);
    cr_assert_str_eq(cJSON_GetObjectItem(ck, "statement")->valuestring, "restore");
    /* the numbers of both prints, in order: 0, 1, ..., 63 */
    for (int k = 0; k < 2; k++) {
        const char *p = texts[k];
        for (int want = 0; want < 64; want++) {
            while (*p && !(*p >= '0' && *p <= '9'))
                p++;
            char *end;
            long got = strtol(p, &end, 10);
            cr_assert(end != p && got == want, "section %d, element %d: %.40s", k + 1, want, p);
            p = *end == '.' ? end + 1 : end;
        }
    }
    cr_assert_str_eq(texts[0], texts[1]);
    cJSON_Delete(j);
    result_free(&r);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}
