/* test_oom_sweep.c — host allocation failure everywhere, as SQLite's and
 * Lua's test suites check it: a small job runs once to count its host
 * allocations, then once for every N with the Nth allocation failing
 * (oom_wrap.h). Every run must either succeed with the answer of the run
 * without failures, or fail with SS_ERR_NOMEM (the CLI: exit 1 and "out of
 * host memory"); never crash, blame the input ("not valid JSON"), or leak
 * (checked under ASan). The jobs: spec, rules and strategy parsing; a
 * checkpoint save, open, verify and restore; `shardsim plan` and `run` of a
 * small scenario on a 2x2 mesh (device threads included).
 *
 * To chase a finding: SS_OOM_LIST=1 lists every failing N instead of
 * stopping at the first, SS_OOM_FROM=N starts the sweep at N, and
 * SS_OOM_BACKTRACE=1 prints where each failed allocation was made. */
#include "oom_wrap.h"
#include "support.h"

#include "cli/scenario_cli.h"

#include <criterion/criterion.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define FM_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FM_LSAN 1
#endif
#endif
#ifdef FM_LSAN
#include <sanitizer/lsan_interface.h>
#endif

/* A job writes its answer (a text that differs whenever the result does)
 * to `out` and returns its status. */
typedef ss_status (*job_fn)(char *out, size_t cap);

/* Runs `job` for every failing allocation N; returns the number of runs. */
static long sweep(const char *what, job_fn job)
{
    static char base[1 << 16], got[1 << 16];
    fm_arm(0);
    ss_status st = job(base, sizeof base);
    long total = fm_disarm();
    cr_assert_eq(st, SS_OK, "%s without failures: %s", what, ss_error_message());
    cr_assert(total > 0, "%s: no allocation counted (is the test linked with --wrap?)", what);
    long n = getenv("SS_OOM_FROM") ? atol(getenv("SS_OOM_FROM")) : 1;
    for (;; n++) {
        got[0] = '\0';
        fm_arm(n);
        st = job(got, sizeof got);
        fm_disarm();
        if (!fm_failed())
            break; /* past the last allocation */
        if (getenv("SS_OOM_LIST")) {
            if (st != SS_OK ? st != SS_ERR_NOMEM : strcmp(got, base) != 0)
                fprintf(stderr, "%s N=%ld: %s %s\n", what, n, ss_status_name(st),
                        st ? ss_error_message() : got);
            continue;
        }
        if (st == SS_OK)
            cr_assert_str_eq(got, base,
                             "%s, allocation %ld failing: succeeded with\n%s\ninstead of\n%s",
                             what, n, got, base);
        else
            cr_assert_eq(st, SS_ERR_NOMEM,
                         "%s, allocation %ld failing: %s (%s) instead of out of host memory",
                         what, n, ss_status_name(st), ss_error_message());
    }
    cr_log_info("%s: %ld allocations, each failed once", what, total);
#ifdef FM_LSAN
    cr_assert_eq(__lsan_do_recoverable_leak_check(), 0, "%s leaked (report above)", what);
#endif
    return n;
}

TestSuite(oom, .init = fm_install);

/* --- Parsing: mesh, spec, rules, strategy --------------------------------- */

static ss_status parse_job(char *out, size_t cap)
{
    static const char strategy[] = "rules batch=data hidden=model\n"
                                   "'/kernel$' fsdp(data, min_size_mb=0)\n"
                                   "('.*bias', 'P(\"model\")'),\n"
                                   "'embed' logical('batch', 'hidden')\n"
                                   "'.*' replicate\n";
    static const ss_param_info params[] = {{"layer/kernel", SS_F32, 2, {64, 32}},
                                           {"layer/bias", SS_F32, 1, {32}},
                                           {"embed/table", SS_F32, 2, {16, 8}},
                                           {"scale", SS_F32, 1, {4}}};
    ss_mesh *mesh = NULL;
    ss_rules rules = {0};
    ss_strategy *s = NULL;
    ss_spec names, spec;
    size_t len = 0;
    ss_status st = ss_mesh_make("data=2,model=2", 4, NULL, &mesh);
    if (!st)
        st = ss_rules_parse("batch=data,hidden=model,kv=None,x=(data,model)", &rules);
    if (!st)
        st = ss_spec_parse("P('batch', 'hidden', 'kv')", &names);
    if (!st)
        st = ss_rules_resolve(&rules, &names, &(ss_rules_options){.mesh = mesh}, &spec, NULL);
    if (!st)
        st = ss_spec_repr(&spec, out, cap);
    if (!st)
        st = ss_strategy_parse(strategy, 1, &s, NULL, NULL);
    ss_param_sharding ps[4];
    if (!st)
        st = ss_strategy_apply(s, mesh, 4, params, ps);
    for (int i = 0; !st && i < 4; i++) {
        len = strlen(out);
        out[len] = ' ';
        st = ss_spec_repr(&ps[i].spec, out + len + 1, cap - len - 1);
    }
    for (int i = 0; !st && i < ss_strategy_rule_count(s); i++) {
        len = strlen(out);
        out[len] = '\n';
        st = ss_strategy_rule_repr(s, i, out + len + 1, cap - len - 1);
    }
    ss_strategy_destroy(s);
    ss_rules_free(&rules);
    ss_mesh_destroy(mesh);
    return st;
}

Test(oom, spec_rules_and_strategy_parsing) { sweep("parsing", parse_job); }

/* --- Checkpoints: save, open, verify, restore ----------------------------- */

static char ck_dir[64];

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(p);
}

static ss_status ckpt_job(char *out, size_t cap)
{
    snprintf(ck_dir, sizeof ck_dir, "/tmp/ss_oom_XXXXXX");
    if (!mkdtemp(ck_dir))
        return ss__fail(SS_ERR_IO, "mkdtemp: cannot create %s", ck_dir);
    static float w[32 * 16], back[32 * 16];
    for (int i = 0; i < 32 * 16; i++)
        w[i] = (float)i - 100.0f;
    const int64_t shape[2] = {32, 16};
    ss_context *ctx = NULL;
    ss_mesh *mesh = NULL;
    ss_array *a = NULL;
    ss_ckpt *ck = NULL;
    ss_ckpt_state *state = NULL;
    ss_spec rows, cols;
    ss_sharding sh;
    ss_context_options o = {.ndevices = 4, .device_memory = 8 << 20, .threads = 2};
    ss_status st = ss_context_create(&o, &ctx);
    if (!st)
        st = ss_mesh_make("a=2,b=2", 4, NULL, &mesh);
    if (!st)
        st = ss_spec_parse("P('a', 'b')", &rows);
    if (!st)
        st = ss_spec_parse("P(None, ('a', 'b'))", &cols);
    if (!st) {
        ss_sharding_init(&sh, mesh, &rows);
        st = ss_array_put(ctx, &sh, 2, shape, SS_F32, w, "w", &a);
    }
    if (!st)
        st = ss_ckpt_save(ctx, ck_dir, 3, 1, (const char *[]){"params.w"}, &a, NULL, NULL);
    ss_ckpt_array_desc d = {0};
    if (!st)
        st = ss_ckpt_open(ck_dir, -1, NULL, &ck);
    if (!st)
        st = ss_ckpt_array_info(ck, 0, &d);
    if (!st)
        st = ss_ckpt_verify(ck_dir, -1, NULL, NULL, NULL);
    if (!st) {
        ss_ckpt_target t = {.name = "params.w", .dtype = SS_F32, .rank = 2, .shape = {32, 16}};
        ss_sharding_init(&t.sharding, mesh, &cols);
        st = ss_ckpt_restore(ctx, ck_dir, 3, 1, &t, NULL, &state, NULL);
    }
    if (!st)
        st = ss_array_get(ss_ckpt_state_array(state, 0), back, sizeof back);
    if (!st) {
        double sum = 0;
        for (int i = 0; i < 32 * 16; i++)
            sum += (double)back[i] * (i % 7 + 1);
        snprintf(out, cap, "%s %s [%lld,%lld] chunks %lld crc %d sum %.1f", d.name,
                 ss_dtype_name(d.dtype), (long long)d.shape[0], (long long)d.shape[1],
                 (long long)d.nchunks, d.has_crc, sum);
    }
    ss_ckpt_state_destroy(state);
    ss_ckpt_close(ck);
    ss_array_destroy(a);
    ss_mesh_destroy(mesh);
    ss_context_destroy(ctx);
    nftw(ck_dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    return st;
}

Test(oom, checkpoint_save_open_verify_restore, .timeout = 600)
{
    sweep("checkpoint", ckpt_job);
}

/* --- The scenario language: plan and run --------------------------------- */

static const char scenario_text[] =
    "mesh d=2 m=2\n"
    "x = input(f32[8, 16], P('d', None), normal(seed=1))\n"
    "w = param(f32[16, 8], P(None, 'm'), xavier_normal(seed=2))\n"
    "def loss(x, w):\n"
    "    return sum(relu(x @ w))\n"
    "def step(x, w):\n"
    "    l, g = value_and_grad(loss, argnums=1)(x, w)\n"
    "    return l, w - 0.1 * g\n"
    "run step steps=2\n"
    "show w\n"
    "check l\n";

/* The CLI's exit status as a status: 0 OK, 1 with "out of host memory" on
 * stderr NOMEM, anything else SS_ERR_INVALID with the stderr text. */
static ss_status cli_job(const char *cmd, char *out, size_t cap)
{
    FILE *err = tmpfile(), *null = fopen("/dev/null", "w");
    cr_assert(err && null);
    FILE *so = stdout, *se = stderr;
    stdout = null;
    stderr = err;
    char *argv[] = {"shardsim", (char *)cmd, "oom.shard", "--device-memory", "64MiB", NULL};
    int rc = ss__cli_scenario_text(5, argv, scenario_text);
    stdout = so;
    stderr = se;
    char msg[1024] = "";
    rewind(err);
    size_t n = fread(msg, 1, sizeof msg - 1, err);
    msg[n] = '\0';
    fclose(err);
    fclose(null);
    snprintf(out, cap, "%s exit %d", cmd, rc);
    if (rc == 0)
        return SS_OK;
    if (rc == 1 && strstr(msg, "out of host memory"))
        return SS_ERR_NOMEM;
    return ss__fail(SS_ERR_INVALID, "exit %d: %s", rc, msg);
}

static ss_status plan_job(char *out, size_t cap) { return cli_job("plan", out, cap); }
static ss_status run_job(char *out, size_t cap) { return cli_job("run", out, cap); }

Test(oom, scenario_plan, .timeout = 600) { sweep("shardsim plan", plan_job); }
Test(oom, scenario_run, .timeout = 600) { sweep("shardsim run", run_job); }
