/* test_scenario.c — the scenario language and `shardsim run` / `plan`:
 * every file in scenarios/ runs with its checks passing and its collectives
 * equal to docs/gspmd.md section 7; plan and run agree on memory and the
 * ledger; errors point at the exact line:col; and thousands of random
 * mutations of the scenarios end in exit status 0, 1 or 2, never a crash
 * (the ASan build turns any memory error into a failure). */
#include "support.h"
#include "scenario_check.h"

#include "cli/scenario_cli.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    cr_assert(s);
    cr_assert_eq(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

static char *scenario_path(const char *name)
{
    const char *dir = getenv("SS_SCENARIOS");
    cr_assert(dir, "SS_SCENARIOS is not set");
    char *p = malloc(strlen(dir) + strlen(name) + 2);
    sprintf(p, "%s/%s", dir, name);
    return p;
}


static cJSON *run_json(const char *file, const char *cmd, const char *extra)
{
    char *path = scenario_path(file);
    char *text = read_all(path);
    const char *args[6] = {cmd, path, "--json"};
    int n = 3;
    char set[64];
    if (extra && strncmp(extra, "--", 2) == 0) { /* an option, e.g. --cheapest */
        args[n++] = extra;
    } else if (extra) {
        snprintf(set, sizeof set, "%s", extra);
        args[n++] = "--set";
        args[n++] = set;
    }
    result r = run_cli(text, n, args);
    cr_assert_eq(r.rc, 0, "%s %s: exit %d\n%s%s", cmd, file, r.rc, r.out, r.err);
    cJSON *j = cJSON_Parse(r.out);
    cr_assert(j, "%s %s: bad JSON: %.300s", cmd, file, r.out);
    result_free(&r);
    free(text);
    free(path);
    return j;
}

typedef struct want {
    const char *kind;
    double sent;
} want;

/* The run's ledger entries are `w` (kind and bytes sent per device), the
 * checks pass, and plan == run for the ledger and per-device peak memory. */
static void check_scenario(const char *file, const char *extra, const want *w, int nw)
{
    cJSON *run = run_json(file, "run", extra), *plan = run_json(file, "plan", extra);
    cJSON *entries = cJSON_GetObjectItem(cJSON_GetObjectItem(run, "ledger"), "entries");
    cJSON *pentries = cJSON_GetObjectItem(cJSON_GetObjectItem(plan, "ledger"), "entries");
    int n = cJSON_GetArraySize(entries);
    if (w) {
        cr_assert_eq(n, nw, "%s: %d collectives, docs/gspmd.md says %d", file, n, nw);
        for (int k = 0; k < n; k++) {
            cJSON *e = cJSON_GetArrayItem(entries, k);
            const char *kind = cJSON_GetObjectItem(e, "kind")->valuestring;
            double sent = cJSON_GetObjectItem(e, "sent")->valuedouble;
            cr_assert(strcmp(kind, w[k].kind) == 0 && fabs(sent - w[k].sent) < 0.5,
                      "%s: collective %d is %s %.1f B/device, expected %s %.1f", file, k, kind,
                      sent, w[k].kind, w[k].sent);
        }
    }
    cr_assert_eq(cJSON_GetArraySize(pentries), n, "%s: plan and run ledgers differ", file);
    for (int k = 0; k < n; k++) {
        cJSON *a = cJSON_GetArrayItem(entries, k), *b = cJSON_GetArrayItem(pentries, k);
        cr_assert(strcmp(cJSON_GetObjectItem(a, "kind")->valuestring,
                         cJSON_GetObjectItem(b, "kind")->valuestring) == 0 &&
                      cJSON_GetObjectItem(a, "sent")->valuedouble ==
                          cJSON_GetObjectItem(b, "sent")->valuedouble,
                  "%s: ledger entry %d differs between plan and run", file, k);
        cr_assert(cJSON_GetObjectItem(a, "provenance"), "%s: entry %d has no provenance", file,
                  k);
    }
    cJSON *mem = cJSON_GetObjectItem(run, "memory");
    double plan_peak = cJSON_GetObjectItem(cJSON_GetObjectItem(plan, "memory"),
                                           "plan_peak_bytes")->valuedouble;
    cJSON *devs = cJSON_GetObjectItem(mem, "devices");
    cr_assert(cJSON_GetArraySize(devs) > 0);
    for (int d = 0; d < cJSON_GetArraySize(devs); d++) {
        double peak = cJSON_GetObjectItem(cJSON_GetArrayItem(devs, d), "peak_bytes")->valuedouble;
        cr_assert_eq(peak, plan_peak, "%s: device %d peak %.0f, plan %.0f", file, d, peak,
                     plan_peak);
    }
    cJSON *checks = cJSON_GetObjectItem(run, "checks");
    cr_assert(cJSON_GetArraySize(checks) > 0, "%s has no check", file);
    for (int k = 0; k < cJSON_GetArraySize(checks); k++) {
        cJSON *c = cJSON_GetArrayItem(checks, k);
        cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(c, "passed")), "%s: check %s failed (%g)",
                  file, cJSON_GetObjectItem(c, "name")->valuestring,
                  cJSON_GetObjectItem(c, "max_abs_error")->valuedouble);
    }
    cr_assert(cJSON_GetArraySize(cJSON_GetObjectItem(plan, "estimates")) == ss_hw_profile_count(),
              "one estimate per profile");
    cJSON_Delete(run);
    cJSON_Delete(plan);
}

#define AR "all_reduce"
#define AG "all_gather"
#define RS "reduce_scatter"
#define A2A "all_to_all"
#define CP "collective_permute"

Test(scenario, flax_mlp_is_s5, .timeout = 120)
{
    /* Depth 1024 as the guide: forward AR(model) 24576 B per layer, backward
     * AR(data) 1 MiB per weight and AR(model) 24576 for layers 2-4, and the
     * loss's AR. The plan's ledger (equal to the run's: see the small run
     * below), totals per kind and axis from the summary. */
    cJSON *run = run_json("flax_mlp.shard", "plan", "DEPTH=1024");
    cJSON *sum = cJSON_GetObjectItem(cJSON_GetObjectItem(run, "ledger"), "summary");
    int seen = 0;
    for (int k = 0; k < cJSON_GetArraySize(sum); k++) {
        cJSON *row = cJSON_GetArrayItem(sum, k);
        const char *axis = cJSON_GetArrayItem(cJSON_GetObjectItem(row, "axes"), 0)->valuestring;
        int count = cJSON_GetObjectItem(row, "count")->valueint;
        double bytes = cJSON_GetObjectItem(row, "bytes_per_device")->valuedouble;
        if (strcmp(axis, "model") == 0) {
            cr_assert_eq(count, 7);
            cr_assert_eq(bytes, 7 * 24576.0);
            seen++;
        } else {
            cr_assert_eq(count, 9);
            cr_assert_eq(bytes, 8 * 1048576.0 + 4, "data bytes %.0f", bytes);
            seen++;
        }
    }
    cr_assert_eq(seen, 2);
    cJSON_Delete(run);
}

Test(scenario, flax_mlp_small_plan_equals_run) { check_scenario("flax_mlp.shard", "DEPTH=64", NULL, 0); }

Test(scenario, flax_mlp_logical_matches_the_mesh_names)
{
    check_scenario("flax_mlp_logical.shard", "DEPTH=64", NULL, 0);
    cJSON *j = run_json("flax_mlp_logical.shard", "plan", "DEPTH=64");
    cJSON *shows = cJSON_GetObjectItem(j, "shows");
    cJSON *spec = cJSON_GetObjectItem(cJSON_GetArrayItem(shows, 0), "spec");
    char *s = cJSON_PrintUnformatted(spec);
    cr_assert_str_eq(s, "[null,\"model\"]");
    free(s);
    cJSON_Delete(j);
}

Test(scenario, data_parallel_is_s2)
{
    want w[] = {{AR, 6}, {AR, 49152}, {AR, 49152}};
    check_scenario("data_parallel.shard", NULL, w, 3);
}

Test(scenario, megatron_is_s3)
{
    want w[] = {{AR, 12288}, {AR, 12288}};
    check_scenario("megatron.shard", NULL, w, 2);
}

Test(scenario, collective_matmul_is_s11)
{
    /* Plain: all-gather x; windowed: 3 permutes of its 8 KiB blocks. */
    want plain[] = {{AG, 24576}};
    check_scenario("collective_matmul.shard", NULL, plain, 1);
    want windowed[] = {{CP, 8192}, {CP, 8192}, {CP, 8192}};
    check_scenario("collective_matmul.shard", "--windowed-einsum=0.01", windowed, 3);
}

Test(scenario, sequence_parallel_is_s4)
{
    want w[] = {{AG, 6144}, {RS, 6144}};
    check_scenario("sequence_parallel.shard", NULL, w, 2);
}

Test(scenario, fsdp_is_s6)
{
    want w[] = {{AG, 24576}, {AG, 24576}};
    check_scenario("fsdp.shard", NULL, w, 2);
}

Test(scenario, attention_heads_is_s7)
{
    want w[] = {{AR, 12288}};
    check_scenario("attention_heads.shard", NULL, w, 1);
}

Test(scenario, attention_sequence_is_s8)
{
    want w[] = {{AG, 6144}, {AG, 6144}};
    check_scenario("attention_sequence.shard", NULL, w, 2);
}

Test(scenario, moe_is_s9)
{
    want w[] = {{A2A, 3072}, {A2A, 3072}};
    check_scenario("moe.shard", NULL, w, 2);
}

Test(scenario, pipeline_is_s10)
{
    want w[7];
    for (int k = 0; k < 7; k++)
        w[k] = (want){CP, 2048};
    check_scenario("pipeline.shard", NULL, w, 7);
}

Test(scenario, shard_map_mlp_trains_through_the_body_with_one_all_reduce)
{
    /* Megatron by hand: the forward psum is the step's only collective
     * (its transpose is a no-op; the weight gradients stay in their shards). */
    want w[] = {{AR, 49152}};
    check_scenario("shard_map_mlp.shard", NULL, w, 1);
}

Test(scenario, reshard_gauntlet_is_s12)
{
    want w[] = {{A2A, 48}, {CP, 64}, {AG, 64}, {AG, 192}, {A2A, 32}};
    check_scenario("reshard_gauntlet.shard", NULL, w, 5);
}

Test(scenario, gpt2_block_with_maxtext_rules, .timeout = 120)
{
    /* At embed 96 (12 heads of 8, mlp 384), batch 8, length 32, vocab 512:
     * checks pass and plan == run; then the ledger per axis and kind, as
     * the file's header explains it (bytes sent per device per step). */
    check_scenario("gpt2_block.shard", "EMBED=96", NULL, 0);
    static const struct {
        const char *axes, *kind;
        int count;
        double bytes;
    } rows[] = {
        {"fsdp", AG, 15, 368640},          /* weights before each use, 8 + 7 */
        {"fsdp", RS, 7, 159744},           /* weight gradients back to shards */
        {"data", AR, 7, 159744},           /* the same, over the batch halves */
        {"tensor", AG, 6, 73728},          /* residual stream into a matmul */
        {"tensor", RS, 6, 73728},          /* partial sums out of a matmul */
        {"tensor", AR, 16, 4096},          /* LayerNorm, softmax row sums */
        {"data,fsdp", AR, 14, 13542},      /* loss, bias and norm gradients */
        {"data,fsdp,tensor", CP, 2, 12288} /* wpe to the activations' split */
    };
    int nrows = (int)(sizeof rows / sizeof rows[0]);
    cJSON *j = run_json("gpt2_block.shard", "plan", "EMBED=96"); /* == run, above */
    cJSON *sum = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "ledger"), "summary");
    cr_assert_eq(cJSON_GetArraySize(sum), nrows, "%d rows", cJSON_GetArraySize(sum));
    for (int k = 0; k < cJSON_GetArraySize(sum); k++) {
        cJSON *row = cJSON_GetArrayItem(sum, k), *axes = cJSON_GetObjectItem(row, "axes");
        char name[64] = "";
        for (int a = 0; a < cJSON_GetArraySize(axes); a++)
            snprintf(name + strlen(name), sizeof name - strlen(name), "%s%s", a ? "," : "",
                     cJSON_GetArrayItem(axes, a)->valuestring);
        const char *kind = cJSON_GetObjectItem(row, "kind")->valuestring;
        int count = cJSON_GetObjectItem(row, "count")->valueint, r = 0;
        double bytes = cJSON_GetObjectItem(row, "bytes_per_device")->valuedouble;
        while (r < nrows && !(strcmp(rows[r].axes, name) == 0 && strcmp(rows[r].kind, kind) == 0))
            r++;
        cr_assert(r < nrows, "unexpected %s over (%s)", kind, name);
        cr_assert(count == rows[r].count && bytes == rows[r].bytes,
                  "%s over (%s): %d, %.0f B; expected %d, %.0f B", kind, name, count, bytes,
                  rows[r].count, rows[r].bytes);
    }
    cJSON_Delete(j);
}

/* --- Errors ------------------------------------------------------------------ */

static void expect_error(const char *text, const char *where, const char *msg)
{
    const char *args[] = {"run", "t.shard"};
    result r = run_cli(text, 2, args);
    cr_assert_eq(r.rc, 2, "exit %d for:\n%s\nstderr: %s", r.rc, text, r.err);
    char head[256];
    snprintf(head, sizeof head, "t.shard:%s: %s", where, msg);
    cr_assert(strncmp(r.err, head, strlen(head)) == 0, "got:\n%s\nwanted a line starting\n%s",
              r.err, head);
    cr_assert(strchr(r.err, '^'), "no caret:\n%s", r.err);
    result_free(&r);
}

Test(scenario, parse_errors_point_at_line_and_column)
{
    expect_error("mesh x=4\nb = 'abc\n", "2:5", "unterminated string");
    expect_error("mesh x=4\ndef f(a):\n        b = a\n    return b\n", "4:5",
                 "unindent does not match any outer indentation level");
    expect_error("mesh x=4\ndef f(a):\n    return (a +\nrun f\n", "3:12",
                 "this bracket is never closed");
    expect_error("mesh x=4\nx = 3 $ 4\n", "2:7", "unexpected character '$'");
    expect_error("mesh x=4\ndef f(a)\n    return a\n", "2:9", "expected ':'");
}

Test(scenario, name_shape_and_sharding_errors_point_at_the_expression)
{
    expect_error("mesh x=4\ndef f():\n    return foo\nrun f\n", "3:12",
                 "name 'foo' is not defined");
    expect_error("mesh x=4\na = input(f32[8,4], P('x'), ones)\nb = input(f32[5,3], P(), ones)\n"
                 "def f(a, b):\n    return a @ b\nrun f\n",
                 "5:14", "matmul: contracting dims differ: a is f32[8,4] (dim 1 = 4), b is f32[5,3] "
                 "(dim 0 = 5)");
    expect_error("mesh x=4\na = input(f32[8], P('z'), ones)\n", "2:19",
                 "Resource axis: z of P('z',) is not found in mesh: ('x',).");
    expect_error("mesh x=4\na = input(f32[6], P('x'), ones)\n", "2:19",
                 "Sharding NamedSharding(mesh=Mesh('x': 4, axis_types=(Auto,)), spec=P('x',)");
    expect_error("mesh x=4\na = input(f32[8], P('x'), ones)\ndef f(a):\n"
                 "    return sum(a, axis=3)\nrun f\n",
                 "4:19", "axis 3 is out of bounds for array of dimension 1");
    expect_error("mesh x=4\na = input(f32[8], P('x'), ones)\ndef f(a):\n"
                 "    return psum(a, 'x')\nrun f\n",
                 "4:12", "Found an unbound axis name: x.");
}

Test(scenario, oom_names_the_scenario_line)
{
    const char *text = "mesh x=2\n"
                       "a = input(f32[512,512], P('x'), ones)\n"
                       "def f(a):\n"
                       "    b = a @ transpose(a)\n"
                       "    return b\n"
                       "run f\n";
    const char *args[] = {"run", "t.shard", "--device-memory", "1MiB"};
    result r = run_cli(text, 4, args);
    cr_assert_eq(r.rc, 1, "exit %d: %s", r.rc, r.err);
    cr_assert(strstr(r.err, "t.shard:4:") && strstr(r.err, "out of memory"), "%s", r.err);
    result_free(&r);
}

Test(scenario, no_run_only_shows)
{
    const char *text = "mesh data=2 model=4\nx = input(f32[8,16], P('data', None), ones)\n"
                       "show x\n";
    const char *args[] = {"plan", "t.shard"};
    result r = run_cli(text, 2, args);
    cr_assert_eq(r.rc, 0, "%s", r.err);
    cr_assert(strstr(r.out, "CPU 0,1,2,3"), "%s", r.out);
    result_free(&r);
}

Test(scenario, plan_mesh_override_scales_to_a_pod)
{
    char *path = scenario_path("flax_mlp.shard");
    char *text = read_all(path);
    const char *args[] = {"plan", path, "--mesh", "data=8,model=512", "--json"};
    result r = run_cli(text, 5, args);
    cr_assert_eq(r.rc, 0, "%s", r.err);
    cJSON *j = cJSON_Parse(r.out);
    cr_assert(j);
    cr_assert_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "mesh"), "devices")->valueint, 4096);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "estimates")), ss_hw_profile_count());
    cJSON_Delete(j);
    result_free(&r);
    free(text);
    free(path);
}

/* --- Fuzzing ------------------------------------------------------------------ */

static const char *const scenario_files[] = {
    "flax_mlp.shard",     "flax_mlp_logical.shard", "data_parallel.shard",
    "megatron.shard",     "sequence_parallel.shard", "fsdp.shard",
    "attention_heads.shard", "attention_sequence.shard", "moe.shard",
    "pipeline.shard",     "reshard_gauntlet.shard", "collective_matmul.shard",
    "shard_map_mlp.shard"};

static const char *const snippets[] = {
    "(", ")", "[", "]", ",", ":", "=", "@", "*", "**", "-", "\n", "    ", "\t", "#", "'",
    "None", "P(", "P()", "def ", "return ", "for i in range(3):\n", "run ", "check ",
    "show ", "mesh x=-1 ", "grad(", "scan(", "shard_map(", "ppermute(", "adam(", "0", "-1",
    "99999999999", "1e400", "f32[", "i32[2,2]", "ones", "iota(dim=7)", "constrain(", "x",
    "'data'", "('data', 'model')", ".T", "[0]", "[:, 1:]", "P.UNCONSTRAINED", "rules a=b\n",
    " donate=True", "axis_index('model')", "axis_index(", "psum(", "value_and_grad("};

static unsigned rnd(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 8) & 0xffffff;
}

static char *mutate(const char *src, unsigned *seed)
{
    size_t n = strlen(src);
    char *out = malloc(n * 2 + 4096);
    memcpy(out, src, n + 1);
    int edits = 1 + (int)(rnd(seed) % 4);
    for (int k = 0; k < edits; k++) {
        size_t len = strlen(out);
        size_t at = len ? rnd(seed) % len : 0;
        switch (rnd(seed) % 6) {
        case 0: /* delete a span */ {
            size_t span = 1 + rnd(seed) % 12;
            if (at + span > len)
                span = len - at;
            memmove(out + at, out + at + span, len - at - span + 1);
            break;
        }
        case 1: /* insert a snippet */ {
            const char *s = snippets[rnd(seed) % (sizeof snippets / sizeof snippets[0])];
            size_t m = strlen(s);
            if (len + m < n * 2 + 4000) {
                memmove(out + at + m, out + at, len - at + 1);
                memcpy(out + at, s, m);
            }
            break;
        }
        case 2: /* replace a byte */
            if (len)
                out[at] = (char)(rnd(seed) % 96 + 32);
            break;
        case 3: /* change a digit */
            for (size_t i = at; i < len; i++)
                if (out[i] >= '0' && out[i] <= '9') {
                    out[i] = (char)('0' + rnd(seed) % 10);
                    break;
                }
            break;
        case 4: /* duplicate a line */ {
            char *nl = strchr(out + at, '\n');
            char *start = out + at;
            while (start > out && start[-1] != '\n')
                start--;
            if (nl && (size_t)(nl - start + 1) + len < n * 2 + 4000) {
                size_t m = (size_t)(nl - start + 1);
                memmove(start + m, start, strlen(start) + 1);
            }
            break;
        }
        default: /* a random byte, maybe not ASCII */
            if (len)
                out[at] = (char)(rnd(seed) % 255 + 1);
            break;
        }
    }
    return out;
}

Test(scenario, fuzz_mutations_never_crash, .timeout = 120)
{
    size_t nfiles = sizeof scenario_files / sizeof scenario_files[0];
    char *texts[16];
    for (size_t k = 0; k < nfiles; k++) {
        char *p = scenario_path(scenario_files[k]);
        texts[k] = read_all(p);
        free(p);
    }
    unsigned seed = getenv("SS_FUZZ_SEED") ? (unsigned)atol(getenv("SS_FUZZ_SEED")) : 20261122u;
    const char *env = getenv("SS_FUZZ_SECONDS");
    double budget = env ? atof(env) : 4.0;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int iters = 0, counts[3] = {0, 0, 0};
    int devnull = open("/dev/null", O_WRONLY);
    int so = dup(1), se = dup(2);
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        double el = (double)(t.tv_sec - t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - t0.tv_nsec);
        if (el > budget && iters >= 200)
            break;
        char *m = mutate(texts[rnd(&seed) % nfiles], &seed);
        bool run = rnd(&seed) % 8 == 0;
        char *argv[] = {"shardsim", run ? "run" : "plan", "fuzz.shard", "--set", "DEPTH=32",
                        "--device-memory", "2MiB", NULL};
        /* Half the time without --set (the file may have no DEPTH). */
        int argc = rnd(&seed) % 2 ? 7 : 3;
        if (argc == 3 && run) {
            argv[3] = "--device-memory";
            argv[4] = "2MiB";
            argc = 5;
        }
        const char *save = getenv("SS_FUZZ_SAVE");
        if (save) {
            FILE *sf = fopen(save, "w");
            if (sf) {
                fprintf(sf, "%s", m);
                fclose(sf);
            }
        }
        fflush(stdout);
        dup2(devnull, 1);
        dup2(devnull, 2);
        int rc = ss__cli_scenario_text(argc, argv, m);
        fflush(stdout);
        dup2(so, 1);
        dup2(se, 2);
        cr_assert(rc == 0 || rc == 1 || rc == 2, "exit status %d for:\n%s", rc, m);
        counts[rc]++;
        free(m);
        iters++;
    }
    close(devnull);
    close(so);
    close(se);
    cr_log_info("%d mutations: %d ok, %d failed checks or did not fit, %d rejected", iters,
                counts[0], counts[1], counts[2]);
    cr_assert(counts[2] > 0 && counts[0] > 0, "%d ok, %d rejected", counts[0], counts[2]);
    for (size_t k = 0; k < nfiles; k++)
        free(texts[k]);
}

Test(scenario, a_device_that_overflows_reports_it_at_the_scenario_line)
{
    /* The Flax MLP needs 48 MiB per device; with 20 MiB putting its params
     * and Adam state on the devices ends in the out-of-memory report, at the
     * line that made the array that did not fit (adam's, for its state),
     * naming the scenario's arrays. */
    char *path = scenario_path("flax_mlp.shard");
    char *text = read_all(path);
    const char *args[4] = {"run", path, "--device-memory", "20MiB"};
    result r = run_cli(text, 4, args);
    cr_assert_eq(r.rc, 1, "exit %d\n%s", r.rc, r.err);
    cr_assert(strstr(r.err, "out of memory allocating"), "%s", r.err);
    cr_assert(strstr(r.err, "of 20 MiB capacity; largest live buffers: 'w1_0 (line 20)' "
                            "f32[1024,1024] shard [1024,256] (1 MiB)"),
              "%s", r.err);
    cr_assert(strstr(r.err, "flax_mlp.shard:47:"), "not at adam's line: %s", r.err);
    cr_assert(strstr(r.err, "flax_mlp.shard:") && strchr(r.err, '^'), "no line and caret: %s",
              r.err);
    result_free(&r);
    free(text);
    free(path);
}

/* --- run --watch ------------------------------------------------------------------- */

static const char psum_text[] = "mesh i=4\n"
                                "\n"
                                "x = input(f32[8], P('i'), iota)\n"
                                "\n"
                                "def body(x):\n"
                                "    y = psum(x, 'i')\n"
                                "    return y\n"
                                "\n"
                                "def total(x):\n"
                                "    return shard_map(body, in_specs=(P('i'),), out_specs=P())(x)\n"
                                "\n"
                                "run total\n";

Test(scenario, watch_shows_every_devices_block_around_the_collective)
{
    /* The shard_map tutorial's psum: x = iota(8) over 4 devices; device d
     * holds [2d, 2d + 1] before and the sum of all blocks after. Watched by
     * the result's name and by the body's parameter name alike. */
    const char *names[2] = {"y", "x"};
    for (int k = 0; k < 2; k++) {
        const char *args[4] = {"run", "psum.shard", "--watch", names[k]};
        result r = run_cli(psum_text, 4, args);
        cr_assert_eq(r.rc, 0, "exit %d\n%s%s", r.rc, r.out, r.err);
        cr_assert(strstr(r.out, "#1 all_reduce sum over ('i',) (line 6): x -> y, f32[2] per "
                                "device"),
                  "%s", r.out);
        float sum[2] = {0, 0};
        for (int d = 0; d < 4; d++) {
            sum[0] += (float)(2 * d);
            sum[1] += (float)(2 * d + 1);
        }
        for (int d = 0; d < 4; d++) {
            char line[160];
            snprintf(line, sizeof line, "device %-3d [%d, %d]", d, 2 * d, 2 * d + 1);
            const char *at = strstr(r.out, line);
            cr_assert(at, "no line '%s' in\n%s", line, r.out);
            char after[64];
            snprintf(after, sizeof after, "-> [%g, %g]\n", (double)sum[0], (double)sum[1]);
            cr_assert(strncmp(strstr(at, "->"), after, strlen(after)) == 0, "device %d: %.80s",
                      d, at);
        }
        result_free(&r);
    }
    /* JSON: the same blocks. */
    const char *jargs[5] = {"run", "psum.shard", "--watch", "y", "--json"};
    result r = run_cli(psum_text, 5, jargs);
    cr_assert_eq(r.rc, 0, "%s", r.err);
    cJSON *j = cJSON_Parse(r.out);
    cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "watch"),
                                                      "collectives"), 0);
    cr_assert(c, "%s", r.out);
    cJSON *d3 = cJSON_GetArrayItem(cJSON_GetObjectItem(c, "devices"), 3);
    cr_assert_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(d3, "before"), 0)->valuedouble, 6.0);
    cr_assert_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(d3, "after"), 1)->valuedouble, 16.0);
    cJSON_Delete(j);
    result_free(&r);
}

Test(scenario, watch_refuses_unknown_names_and_plans)
{
    const char *args[4] = {"run", "psum.shard", "--watch", "nope"};
    result r = run_cli(psum_text, 4, args);
    cr_assert_eq(r.rc, 2);
    cr_assert(strstr(r.err, "--watch: no value is named 'nope'"), "%s", r.err);
    result_free(&r);
    const char *pargs[4] = {"plan", "psum.shard", "--watch", "y"};
    r = run_cli(psum_text, 4, pargs);
    cr_assert_eq(r.rc, 2);
    cr_assert(strstr(r.err, "--watch shows data"), "%s", r.err);
    result_free(&r);
}

/* --- run ... donate=True ------------------------------------------------------------ */

/* flax_mlp.shard at DEPTH 64 as JSON, its run line given `donate`. */
static cJSON *flax_run(const char *cmd, bool donate)
{
    char *path = scenario_path("flax_mlp.shard");
    char *text = read_all(path);
    const char *line = "run train_step steps=3";
    char *at = strstr(text, line);
    cr_assert(at, "flax_mlp.shard has no '%s'", line);
    size_t n = strlen(text) + 32;
    char *edited = malloc(n);
    snprintf(edited, n, "%.*s%s%s%s", (int)(at - text), text, line,
             donate ? " donate=True" : "", at + strlen(line));
    const char *args[5] = {cmd, path, "--json", "--set", "DEPTH=64"};
    result r = run_cli(edited, 5, args);
    cr_assert_eq(r.rc, 0, "exit %d\n%s%s", r.rc, r.out, r.err);
    cJSON *j = cJSON_Parse(r.out);
    cr_assert(j, "%.300s", r.out);
    result_free(&r);
    free(edited);
    free(text);
    free(path);
    return j;
}

static double field_num(cJSON *j, const char *a, const char *b)
{
    cJSON *x = cJSON_GetObjectItem(cJSON_GetObjectItem(j, a), b);
    cr_assert(x, "no %s.%s", a, b);
    return x->valuedouble;
}

Test(scenario, donated_run_writes_the_updates_over_the_state)
{
    /* The Flax MLP's params and Adam state donated: plan and run agree on a
     * lower peak, the checks still pass, and the results are those of the
     * run without donation, bit for bit (max abs error identical). */
    cJSON *kept = flax_run("run", false), *donated = flax_run("run", true);
    cJSON *plan = flax_run("plan", true);
    double peak_kept = field_num(kept, "memory", "plan_peak_bytes");
    double peak_donated = field_num(donated, "memory", "plan_peak_bytes");
    cr_assert_eq(field_num(plan, "memory", "plan_peak_bytes"), peak_donated);
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(donated, "run"), "donate")));
    cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetObjectItem(kept, "run"), "donate")));
    cJSON *devs = cJSON_GetObjectItem(cJSON_GetObjectItem(donated, "memory"), "devices");
    for (int d = 0; d < cJSON_GetArraySize(devs); d++)
        cr_assert_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(devs, d), "peak_bytes")->valuedouble,
                     peak_donated, "device %d", d);
    /* Both moments (8 blocks of 64 x 16 f32 per device each) are no longer
     * doubled by their updates (without donation each weight's update is
     * already written over its gradient). */
    double block = 64.0 * 16 * 4;
    cr_assert_geq(peak_kept - peak_donated, 2 * 8 * block, "kept %.0f, donated %.0f", peak_kept,
                  peak_donated);
    cJSON *ck = cJSON_GetObjectItem(kept, "checks"), *cd = cJSON_GetObjectItem(donated, "checks");
    cr_assert_eq(cJSON_GetArraySize(ck), cJSON_GetArraySize(cd));
    for (int k = 0; k < cJSON_GetArraySize(cd); k++) {
        cJSON *a = cJSON_GetArrayItem(ck, k), *b = cJSON_GetArrayItem(cd, k);
        cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(b, "passed")));
        cr_assert_eq(cJSON_GetObjectItem(a, "max_abs_error")->valuedouble,
                     cJSON_GetObjectItem(b, "max_abs_error")->valuedouble, "check %d", k);
    }
    cJSON_Delete(kept);
    cJSON_Delete(donated);
    cJSON_Delete(plan);
}

Test(scenario, axis_index_in_a_shard_map_body)
{
    /* Each device adds its index to its block; watched through the psum
     * that follows, device d's block is [d, d] before and [6, 6] after
     * (0 + 1 + 2 + 3). An unknown axis is a located error. */
    static const char text[] = "mesh i=4\n"
                               "\n"
                               "x = input(f32[8], P('i'), zeros)\n"
                               "\n"
                               "def body(x):\n"
                               "    k = x + axis_index('i')\n"
                               "    return psum(k, 'i')\n"
                               "\n"
                               "def total(x):\n"
                               "    return shard_map(body, in_specs=(P('i'),), out_specs=P())(x)\n"
                               "\n"
                               "run total\n";
    const char *args[4] = {"run", "ai.shard", "--watch", "k"};
    result r = run_cli(text, 4, args);
    cr_assert_eq(r.rc, 0, "exit %d\n%s%s", r.rc, r.out, r.err);
    for (int d = 0; d < 4; d++) {
        char line[96];
        snprintf(line, sizeof line, "device %-3d [%d, %d]", d, d, d);
        const char *at = strstr(r.out, line);
        cr_assert(at, "no '%s' in\n%s", line, r.out);
        cr_assert(strncmp(strstr(at, "->"), "-> [6, 6]\n", 10) == 0, "%.60s", at);
    }
    result_free(&r);
    char bad[sizeof text + 8];
    snprintf(bad, sizeof bad, "%s", text);
    char *at = strstr(bad, "axis_index('i')");
    memcpy(at, "axis_index('j')", 15);
    const char *run[2] = {"run", "ai.shard"};
    r = run_cli(bad, 2, run);
    cr_assert_eq(r.rc, 2);
    cr_assert(strstr(r.err, "ai.shard:6:") && strstr(r.err, "unbound axis name: j"), "%s",
              r.err);
    result_free(&r);
}

Test(scenario, a_result_laid_out_otherwise_is_resharded_before_it_feeds_the_next_step)
{
    /* The update comes out P(None, 'x') but the param goes in P('x', None):
     * between steps the array moves to the input's layout (as jit moves an
     * argument to its in_sharding), and three steps give w * 8. */
    static const char text[] = "mesh x=4\n"
                               "\n"
                               "w = param(f32[8, 4], P('x', None), iota)\n"
                               "\n"
                               "def step(w):\n"
                               "    w = constrain(w * 2.0, P(None, 'x'))\n"
                               "    return w\n"
                               "\n"
                               "run step steps=3\n"
                               "check w tol=0\n";
    const char *args[3] = {"run", "refit.shard", "--json"};
    result r = run_cli(text, 3, args);
    cr_assert_eq(r.rc, 0, "exit %d\n%s%s", r.rc, r.out, r.err);
    cJSON *j = cJSON_Parse(r.out);
    cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "checks"), 0);
    cr_assert(c && cJSON_IsTrue(cJSON_GetObjectItem(c, "passed")), "%s", r.out);
    cr_assert_eq(cJSON_GetObjectItem(c, "max_abs_error")->valuedouble, 0.0);
    cJSON_Delete(j);
    result_free(&r);
}

Test(scenario, shard_map_checks_replication_as_jax_check_vma)
{
    /* Returning each device's own block with out_specs=P() claims it is the
     * same everywhere: JAX's check_vma error at the shard_map's line;
     * check_vma=False keeps one block, as JAX then does. */
    static const char text[] = "mesh i=4\n"
                               "\n"
                               "x = input(f32[8], P('i'), iota)\n"
                               "\n"
                               "def body(x):\n"
                               "    return x * 2.0\n"
                               "\n"
                               "def f(x):\n"
                               "    return shard_map(body, in_specs=(P('i'),), out_specs=P()%s)(x)\n"
                               "\n"
                               "run f\n";
    char buf[sizeof text + 32];
    snprintf(buf, sizeof buf, text, "");
    const char *args[2] = {"run", "vma.shard"};
    result r = run_cli(buf, 2, args);
    cr_assert_eq(r.rc, 2, "exit %d\n%s%s", r.rc, r.out, r.err);
    cr_assert(strstr(r.err, "vma.shard:9:") && strstr(r.err, "replicated across mesh axis 'i'") &&
                  strstr(r.err, "check_vma=False"),
              "%s", r.err);
    result_free(&r);
    snprintf(buf, sizeof buf, text, ", check_vma=False");
    r = run_cli(buf, 2, args);
    cr_assert_eq(r.rc, 0, "exit %d\n%s%s", r.rc, r.out, r.err);
    result_free(&r);
}
