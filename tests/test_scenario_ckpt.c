/* test_scenario_ckpt.c — the scenario statements `save` and `restore`:
 * values survive a save and a restore into other shardings bit for bit,
 * restored values feed the run and its `check`, the seed's case
 * (scenarios/restore_into_new_sharding*.shard) passes with targets and
 * fails with exit 1 and the out-of-memory report without them, a topology
 * mismatch is reported, `plan` predicts each restore's per-device peak as
 * the run measures it, and bad statements are reported at their exact
 * line:col. Every test writes under its own directory in /tmp, removed at
 * the end. */
#include "support.h"
#include "scenario_check.h"

#include "front/scenario/scenario.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* --- A temporary directory per test ---------------------------------------- */

static char tmp_dir[64];

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void make_tmp(void)
{
    snprintf(tmp_dir, sizeof tmp_dir, "/tmp/ss_scn_ckpt_XXXXXX");
    cr_assert(mkdtemp(tmp_dir) != NULL, "mkdtemp: %s", strerror(errno));
}

static void rm_tmp(void)
{
    if (tmp_dir[0])
        nftw(tmp_dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    tmp_dir[0] = '\0';
}

/* "<tmp>/<name>" */
static char *tmp_path(const char *name)
{
    static char buf[4][256];
    static int k;
    char *p = buf[k++ & 3];
    snprintf(p, 256, "%s/%s", tmp_dir, name);
    return p;
}

/* --- Running a scenario in process ------------------------------------------- */


/* `shardsim CMD t.shard --json [extra...]` on `text`: exit `want`, the JSON
 * object when there is one on stdout. */
static cJSON *run_json(const char *text, const char *cmd, int want, const char *extra1,
                       const char *extra2)
{
    const char *args[6] = {cmd, "t.shard", "--json"};
    int n = 3;
    if (extra1)
        args[n++] = extra1;
    if (extra2)
        args[n++] = extra2;
    result r = run_cli(text, n, args);
    cr_assert_eq(r.rc, want, "%s: exit %d, wanted %d\n%s%s\n--- scenario:\n%s", cmd, r.rc, want,
                 r.out, r.err, text);
    cJSON *j = cJSON_Parse(r.out);
    cr_assert(j, "%s: bad JSON: %.300s", cmd, r.out);
    result_free(&r);
    return j;
}

/* A malloc'd copy of scenario text `fmt` with every "{D}" replaced by the
 * temporary directory. */
static char *scn_text(const char *fmt)
{
    size_t n = strlen(fmt), k = 0;
    char *s = malloc(n + 16 * strlen(tmp_dir) + 1);
    for (const char *p = fmt; *p;) {
        if (strncmp(p, "{D}", 3) == 0) {
            memcpy(s + k, tmp_dir, strlen(tmp_dir));
            k += strlen(tmp_dir);
            p += 3;
        } else {
            s[k++] = *p++;
        }
    }
    s[k] = '\0';
    return s;
}

/* scenarios/NAME with its checkpoint directory moved to the temporary one. */
static char *scenario_file(const char *name)
{
    const char *dir = getenv("SS_SCENARIOS");
    cr_assert(dir, "SS_SCENARIOS is not set");
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    cr_assert(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *src = malloc((size_t)n + 1);
    cr_assert_eq(fread(src, 1, (size_t)n, f), (size_t)n);
    src[n] = '\0';
    fclose(f);
    static const char from[] = "'/tmp/shardsim_restore_into_new_sharding'";
    char *at = strstr(src, from);
    cr_assert(at, "%s: no CKPT = %s", name, from);
    char *out = malloc((size_t)n + strlen(tmp_dir) + 8);
    size_t head = (size_t)(at - src);
    memcpy(out, src, head);
    sprintf(out + head, "'%s'%s", tmp_dir, at + strlen(from));
    free(src);
    return out;
}

/* --- Reading a saved array back through the library ---------------------------- */

/* The whole array `name` of DIR/step as host bytes (restored on one
 * device, no sharding involved). */
static void *read_saved(const char *dir, int64_t step, const char *name, ss_dtype dt, int rank,
                        const int64_t shape[], size_t *bytes)
{
    ss_context_options o = {.ndevices = 1, .device_memory = (size_t)64 << 20};
    ss_context *ctx;
    cr_assert_eq(ss_context_create(&o, &ctx), SS_OK, "%s", ss_error_message());
    ss_mesh *m;
    cr_assert_eq(ss_mesh_make("x=1", 1, NULL, &m), SS_OK);
    ss_spec none;
    memset(&none, 0, sizeof none);
    ss_ckpt_target t;
    memset(&t, 0, sizeof t);
    t.name = name;
    t.dtype = dt;
    t.rank = rank;
    memcpy(t.shape, shape, sizeof(int64_t) * (size_t)rank);
    ss_sharding_init(&t.sharding, m, &none);
    ss_ckpt_restore_options ro = {.partial = 1};
    ss_ckpt_state *s;
    cr_assert_eq(ss_ckpt_restore(ctx, dir, step, 1, &t, &ro, &s, NULL), SS_OK, "%s",
                 ss_error_message());
    size_t n = ss_dtype_size(dt);
    for (int d = 0; d < rank; d++)
        n *= (size_t)shape[d];
    void *host = malloc(n + 1);
    cr_assert_eq(ss_array_get(ss_ckpt_state_array(s, 0), host, n), SS_OK);
    ss_ckpt_state_destroy(s);
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
    *bytes = n;
    return host;
}

/* What the scenario initializer gives (scenario_init.c). */
static void *init_values(ss_dtype dt, int rank, const int64_t shape[], const char *init,
                         uint64_t seed, double a)
{
    ss__scn_array x;
    memset(&x, 0, sizeof x);
    x.dtype = dt;
    x.rank = rank;
    memcpy(x.shape, shape, sizeof(int64_t) * (size_t)rank);
    x.init.kind = strcmp(init, "normal") == 0 ? SS__SCN_INIT_NORMAL
                  : strcmp(init, "iota") == 0  ? SS__SCN_INIT_IOTA
                  : strcmp(init, "ones") == 0  ? SS__SCN_INIT_ONES
                                               : SS__SCN_INIT_RANDINT;
    x.init.seed = seed;
    x.init.a = a;
    x.init.dim = -1;
    size_t n = ss_dtype_size(dt);
    for (int d = 0; d < rank; d++)
        n *= (size_t)shape[d];
    void *p = malloc(n + 1);
    ss__scn_init_fill(&x, p);
    return p;
}

static cJSON *item(const cJSON *arr, int i) { return cJSON_GetArrayItem(arr, i); }
static cJSON *field(const cJSON *o, const char *k)
{
    cJSON *v = cJSON_GetObjectItem(o, k);
    cr_assert(v, "no field '%s' in %s", k, cJSON_PrintUnformatted(o));
    return v;
}
static const char *str(const cJSON *o, const char *k) { return field(o, k)->valuestring; }

/* The peaks a restore measured equal what ss_ckpt_restore_plan said. */
static void expect_plan_equals_run(const cJSON *ckpt)
{
    cJSON *run = field(ckpt, "peak_bytes"), *plan = field(ckpt, "planned_peak_bytes");
    cr_assert(cJSON_IsArray(run) && cJSON_IsArray(plan));
    cr_assert_eq(cJSON_GetArraySize(run), cJSON_GetArraySize(plan));
    for (int d = 0; d < cJSON_GetArraySize(run); d++)
        cr_assert_eq(item(run, d)->valuedouble, item(plan, d)->valuedouble,
                     "device %d: measured %.0f, planned %.0f", d, item(run, d)->valuedouble,
                     item(plan, d)->valuedouble);
}

/* --- Round trips ------------------------------------------------------------------ */

Test(scenario_ckpt, round_trip_across_shardings_keeps_every_bit, .init = make_tmp,
     .fini = rm_tmp)
{
    /* Saved on 2x4 in one set of shardings, restored on 8 devices in
     * others (one param falls back to its saved sharding), saved again:
     * both steps hold exactly the initializer's values. */
    char *a = scn_text("mesh a=2 b=4\n"
                       "w = param(f32[16, 32], P('a', 'b'), normal(seed=1, stddev=0.5))\n"
                       "v = param(bf16[8, 4, 2], P(None, 'a'), iota)\n"
                       "i = param(i32[8], P('b'), randint(100, seed=3))\n"
                       "u = param(f32[4, 4], None, normal(seed=4))\n"
                       "save '{D}' step=0\n");
    cJSON *j = run_json(a, "run", 0, NULL, NULL);
    cJSON *ck = item(field(j, "checkpoints"), 0);
    cr_assert_str_eq(str(ck, "statement"), "save");
    cr_assert_str_eq(str(item(field(ck, "arrays"), 3), "sharding"),
                     "SingleDeviceSharding(device=cpu:0)");
    cJSON_Delete(j);
    char *b = scn_text("mesh c=8\n"
                       "w = param(f32[16, 32], P(None, 'c'), zeros)\n"
                       "v = param(bf16[8, 4, 2], P('c'), zeros)\n"
                       "i = param(i32[8], P(), zeros)\n"
                       "u = param(f32[4, 4], None, zeros)\n"
                       "restore '{D}' step=0\n"
                       "save '{D}' step=1\n"
                       "show w\n");
    j = run_json(b, "run", 0, NULL, NULL);
    cJSON *r = item(field(j, "checkpoints"), 0), *s = item(field(j, "checkpoints"), 1);
    cr_assert_str_eq(str(item(field(r, "arrays"), 0), "source"), "target");
    cr_assert_str_eq(str(item(field(r, "arrays"), 3), "source"), "saved");
    cr_assert_str_eq(str(item(field(s, "arrays"), 0), "source"), "restored");
    cr_assert_str_eq(str(item(field(s, "arrays"), 0), "sharding"),
                     "NamedSharding(mesh=Mesh('c': 8), spec=P(None, 'c'))");
    expect_plan_equals_run(r);
    char *spec = cJSON_PrintUnformatted(field(item(field(j, "shows"), 0), "spec"));
    cr_assert_str_eq(spec, "[null,\"c\"]");
    free(spec);
    cJSON_Delete(j);

    struct {
        const char *name, *init;
        ss_dtype dt;
        int rank;
        int64_t shape[3];
        uint64_t seed;
        double a;
    } arrays[] = {{"w", "normal", SS_F32, 2, {16, 32}, 1, 0.5},
                  {"v", "iota", SS_BF16, 3, {8, 4, 2}, 0, 0},
                  {"i", "randint", SS_I32, 1, {8}, 3, 100},
                  {"u", "normal", SS_F32, 2, {4, 4}, 4, 0.01}};
    for (int k = 0; k < 4; k++) {
        size_t n0, n1;
        void *want = init_values(arrays[k].dt, arrays[k].rank, arrays[k].shape, arrays[k].init,
                                 arrays[k].seed, arrays[k].a);
        void *s0 = read_saved(tmp_dir, 0, arrays[k].name, arrays[k].dt, arrays[k].rank,
                              arrays[k].shape, &n0);
        void *s1 = read_saved(tmp_dir, 1, arrays[k].name, arrays[k].dt, arrays[k].rank,
                              arrays[k].shape, &n1);
        cr_assert(memcmp(s0, want, n0) == 0, "%s: step 0 differs from its initializer",
                  arrays[k].name);
        cr_assert(memcmp(s1, s0, n1) == 0, "%s: step 1 differs from step 0", arrays[k].name);
        free(want);
        free(s0);
        free(s1);
    }
    free(a);
    free(b);
}

/* A small training step with Adam: its params and optimizer state. */
#define TRAIN_DEFS                                                             \
    "def loss(x, w, v):\n"                                                     \
    "    return mean(square(x @ w + v))\n"                                     \
    "def step(x, w, v):\n"                                                     \
    "    l, g = value_and_grad(loss, argnums=(1, 2))(x, w, v)\n"               \
    "    w, v = adam((w, v), g, learning_rate=0.05)\n"                         \
    "    return l, w, v\n"

Test(scenario_ckpt, restore_feeds_the_run_and_its_check, .init = make_tmp, .fini = rm_tmp)
{
    /* 2 steps on 2x4, saved after the run (params and Adam state);
     * restored on 8 devices in other shardings, 1 more step, checked
     * against the single-device run from the restored values; equal to 3
     * steps straight through. */
    char *a = scn_text("mesh a=2 b=4\n"
                       "x = input(f32[8, 16], P('a', None), normal(seed=1, stddev=1.0))\n"
                       "w = param(f32[16, 16], P(None, 'b'), normal(seed=2, stddev=0.3))\n"
                       "v = param(f32[16], P('b'), ones)\n" TRAIN_DEFS
                       "run step steps=2\n"
                       "save '{D}/a' step=2\n");
    cJSON *j = run_json(a, "run", 0, NULL, NULL);
    cJSON *ck = item(field(j, "checkpoints"), 0);
    cr_assert(cJSON_IsTrue(field(ck, "after_run")));
    cr_assert_str_eq(str(item(field(ck, "arrays"), 2), "name"), "opt_state.w.mu");
    cJSON_Delete(j);
    char *b = scn_text("mesh c=8\n"
                       "x = input(f32[8, 16], P('c', None), normal(seed=1, stddev=1.0))\n"
                       "w = param(f32[16, 16], P('c', None), zeros)\n"
                       "v = param(f32[16], P(), zeros)\n" TRAIN_DEFS
                       "restore '{D}/a' step=2\n"
                       "run step steps=1\n"
                       "save '{D}/b' step=3\n"
                       "check w\n");
    j = run_json(b, "run", 0, NULL, NULL);
    cJSON *chk = item(field(j, "checks"), 0);
    cr_assert(cJSON_IsTrue(field(chk, "passed")));
    cr_assert(field(chk, "max_abs_error")->valuedouble < 1e-5);
    cJSON *r = item(field(j, "checkpoints"), 0);
    cr_assert_eq(cJSON_GetArraySize(field(r, "arrays")), 7, "params and 5 optimizer arrays");
    expect_plan_equals_run(r);
    cJSON_Delete(j);
    char *c = scn_text("mesh a=2 b=4\n"
                       "x = input(f32[8, 16], P('a', None), normal(seed=1, stddev=1.0))\n"
                       "w = param(f32[16, 16], P(None, 'b'), normal(seed=2, stddev=0.3))\n"
                       "v = param(f32[16], P('b'), ones)\n" TRAIN_DEFS
                       "run step steps=3\n"
                       "save '{D}/c' step=3\n");
    j = run_json(c, "run", 0, NULL, NULL);
    cJSON_Delete(j);
    int64_t shape[2] = {16, 16};
    size_t n;
    float *wb = read_saved(tmp_path("b"), 3, "w", SS_F32, 2, shape, &n);
    float *wc = read_saved(tmp_path("c"), 3, "w", SS_F32, 2, shape, &n);
    float *w0 = init_values(SS_F32, 2, shape, "normal", 2, 0.3);
    double diff = 0, moved = 0;
    for (size_t k = 0; k < n / 4; k++) {
        diff = fmax(diff, fabs((double)wb[k] - (double)wc[k]));
        moved = fmax(moved, fabs((double)wb[k] - (double)w0[k]));
    }
    cr_assert(diff < 1e-5, "2 steps + restore + 1 step differs from 3 steps by %g", diff);
    cr_assert(moved > 0.05, "the params did not train (%g)", moved);
    free(wb);
    free(wc);
    free(w0);
    free(a);
    free(b);
    free(c);
}

Test(scenario_ckpt, partial_restores_params_into_a_fresh_optimizer, .init = make_tmp,
     .fini = rm_tmp)
{
    char *a = scn_text("mesh x=4\n"
                       "w = param(f32[8, 4], P('x'), iota)\n"
                       "save '{D}' step=0\n");
    cJSON_Delete(run_json(a, "run", 0, NULL, NULL));
    /* The restoring scenario trains with Adam: its item has optimizer
     * state the checkpoint lacks. Without partial that is Orbax's
     * structure mismatch; with it the state starts at zeros. */
    char *b = scn_text("mesh x=4\n"
                       "w = param(f32[8, 4], P(None, 'x'), zeros)\n"
                       "def loss(w):\n"
                       "    return sum(square(w))\n"
                       "def step(w):\n"
                       "    l, g = value_and_grad(loss)(w)\n"
                       "    w = adam(w, g, learning_rate=0.1)\n"
                       "    return l, w\n"
                       "restore '{D}' step=0\n"
                       "run step\n");
    const char *args[] = {"run", "t.shard"};
    result r = run_cli(b, 2, args);
    cr_assert_eq(r.rc, 2, "%s", r.err);
    cr_assert(strstr(r.err, "t.shard:9:1: User-provided restore item and on-disk value metadata "
                            "tree structures do not match: missing in the checkpoint: "
                            "['opt_state.w.mu'"),
              "%s", r.err);
    cr_assert(strstr(r.err, "(in a scenario: restore DIR step=N partial)"), "%s", r.err);
    result_free(&r);
    char *c = scn_text("mesh x=4\n"
                       "w = param(f32[8, 4], P(None, 'x'), zeros)\n"
                       "def loss(w):\n"
                       "    return sum(square(w))\n"
                       "def step(w):\n"
                       "    l, g = value_and_grad(loss)(w)\n"
                       "    w = adam(w, g, learning_rate=0.1)\n"
                       "    return l, w\n"
                       "restore '{D}' step=0 partial\n"
                       "run step\n"
                       "check step\n");
    cJSON *j = run_json(c, "run", 0, NULL, NULL);
    cJSON *ck = item(field(j, "checkpoints"), 0);
    cr_assert_eq(cJSON_GetArraySize(field(ck, "arrays")), 1, "only w is restored");
    /* The loss is that of the restored iota, not of the zeros declared. */
    cJSON *loss = item(field(j, "checks"), 0);
    cr_assert(cJSON_IsTrue(field(loss, "passed")));
    cJSON_Delete(j);
    free(a);
    free(b);
    free(c);
}

/* --- The seed's case ---------------------------------------------------------------- */

static void run_saver(void)
{
    char *text = scenario_file("restore_into_new_sharding.shard");
    cJSON *j = run_json(text, "run", 0, NULL, NULL);
    cJSON *arrays = field(item(field(j, "checkpoints"), 0), "arrays");
    cr_assert_eq(cJSON_GetArraySize(arrays), 3);
    for (int k = 0; k < 3; k++)
        cr_assert_str_eq(str(item(arrays, k), "sharding"), "SingleDeviceSharding(device=cpu:0)");
    cJSON_Delete(j);
    free(text);
}

Test(scenario_ckpt, seed_case_restores_into_three_meshes, .init = make_tmp, .fini = rm_tmp)
{
    run_saver();
    struct {
        const char *file, *name, *spec, *sharding;
        int rank;
        int64_t shape[3];
    } cases[] = {
        {"restore_into_new_sharding_2x4.shard", "small_linear1", "[\"a\",\"b\"]",
         "NamedSharding(mesh=Mesh('a': 2, 'b': 4), spec=P('a', 'b'))", 2, {16, 16}},
        {"restore_into_new_sharding_2x2x2.shard", "small_linear2", "[\"x\",\"y\",\"z\"]",
         "NamedSharding(mesh=Mesh('x': 2, 'y': 2, 'z': 2), spec=P('x', 'y', 'z'))", 3,
         {16, 16, 16}},
        {"restore_into_new_sharding_8.shard", "small_linear3", "[\"c\"]",
         "NamedSharding(mesh=Mesh('c': 8), spec=P('c',))", 2, {16, 16}},
    };
    for (int k = 0; k < 3; k++) {
        char *text = scenario_file(cases[k].file);
        /* Save what was restored too, to read its values back. */
        char *more = malloc(strlen(text) + 256);
        sprintf(more, "%ssave '%s' step=0\n", text, tmp_path(cases[k].name));
        cJSON *run = run_json(more, "run", 0, NULL, NULL);
        cJSON *plan = run_json(text, "plan", 0, NULL, NULL);
        cJSON *show = item(field(run, "shows"), 0);
        char *spec = cJSON_PrintUnformatted(field(show, "spec"));
        cr_assert_str_eq(spec, cases[k].spec, "%s", cases[k].file);
        free(spec);
        cr_assert(strstr(str(show, "picture"), "CPU 7"), "%s", str(show, "picture"));
        cJSON *r = item(field(run, "checkpoints"), 0);
        cJSON *a = item(field(r, "arrays"), 0);
        cr_assert_str_eq(str(a, "sharding"), cases[k].sharding);
        cr_assert_str_eq(str(a, "source"), "target");
        cr_assert(cJSON_IsTrue(field(r, "partial")));
        expect_plan_equals_run(r);
        /* plan predicts the run's peaks, within the file's 32 KiB. */
        cJSON *pr = item(field(plan, "checkpoints"), 0);
        cJSON *pp = field(pr, "planned_peak_bytes"), *rp = field(r, "peak_bytes");
        for (int d = 0; d < 8; d++) {
            cr_assert_eq(item(pp, d)->valuedouble, item(rp, d)->valuedouble);
            cr_assert(item(rp, d)->valuedouble <= 32768);
        }
        size_t n;
        float *v = read_saved(tmp_path(cases[k].name), 0, cases[k].name, SS_F32, cases[k].rank,
                              cases[k].shape, &n);
        for (size_t e = 0; e < n / 4; e++)
            cr_assert_eq(v[e], 1.0f, "%s[%zu] = %g", cases[k].name, e, (double)v[e]);
        free(v);
        cJSON_Delete(run);
        cJSON_Delete(plan);
        free(more);
        free(text);
    }
}

Test(scenario_ckpt, seed_case_without_targets_fails_with_the_report, .init = make_tmp,
     .fini = rm_tmp)
{
    run_saver();
    char *text = scenario_file("restore_into_new_sharding_no_target.shard");
    static const char *const want[] = {
        "t.shard:32:1: restore: device 0 out of memory: it needs 34880 bytes",
        "but has 32768",
        ("'small_linear1', 'small_linear2', 'small_linear3' have no target sharding, so their "
         "saved SingleDeviceSharding(device=cpu:0)"),
        "give target shardings",
    };
    for (int plan = 0; plan < 2; plan++) {
        const char *args[] = {plan ? "plan" : "run", "t.shard"};
        result r = run_cli(text, 2, args);
        cr_assert_eq(r.rc, 1, "%s: exit %d\n%s%s", args[0], r.rc, r.out, r.err);
        for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
            cr_assert(strstr(r.err, want[k]), "%s: no \"%s\" in:\n%s", args[0], want[k], r.err);
        cr_assert(strstr(r.err, plan ? "would be used" : "was used"), "%s", r.err);
        cr_assert(strchr(r.err, '^'), "no caret:\n%s", r.err);
        result_free(&r);
    }
    /* With room enough it passes, and shows what Orbax did silently: each
     * param whole on device 0. */
    cJSON *j = run_json(text, "run", 0, "--device-memory", "1GiB");
    cJSON *arrays = field(item(field(j, "checkpoints"), 0), "arrays");
    for (int k = 0; k < 3; k++) {
        cr_assert_str_eq(str(item(arrays, k), "source"), "saved");
        cr_assert_str_eq(str(item(arrays, k), "sharding"), "SingleDeviceSharding(device=cpu:0)");
        const char *pic = str(item(field(j, "shows"), k), "picture");
        cr_assert(strstr(pic, "CPU 0") && !strstr(pic, "CPU 1"), "%s", pic);
    }
    cJSON *peaks = field(item(field(j, "checkpoints"), 0), "peak_bytes");
    cr_assert_eq(item(peaks, 0)->valuedouble, 34880.0);
    for (int d = 1; d < 8; d++)
        cr_assert_eq(item(peaks, d)->valuedouble, 0.0);
    cJSON_Delete(j);
    free(text);
}

Test(scenario_ckpt, saved_sharding_on_other_devices_is_a_topology_mismatch, .init = make_tmp,
     .fini = rm_tmp)
{
    char *a = scn_text("mesh x=8\nw = param(f32[16], P('x'), iota)\nsave '{D}' step=0\n");
    cJSON_Delete(run_json(a, "run", 0, NULL, NULL));
    char *b = scn_text("mesh x=4\nw = param(f32[16], None, zeros)\nrestore '{D}' step=0\n");
    for (int plan = 0; plan < 2; plan++) {
        const char *args[] = {plan ? "plan" : "run", "t.shard"};
        result r = run_cli(b, 2, args);
        cr_assert_eq(r.rc, 1, "exit %d: %s", r.rc, r.err);
        cr_assert(strstr(r.err, "t.shard:3:1: array 'w': Topology mismatch detected. The "
                                "checkpoint was saved with a different topology than the "
                                "current one."),
                  "%s", r.err);
        result_free(&r);
    }
    /* With a target sharding the 8-device checkpoint restores on 4. */
    char *c = scn_text("mesh x=4\nw = param(f32[16], P('x'), zeros)\nrestore '{D}' step=0\n"
                       "save '{D}/again' step=0\n");
    cJSON_Delete(run_json(c, "run", 0, NULL, NULL));
    size_t n0, n1;
    int64_t shape[1] = {16};
    void *s0 = read_saved(tmp_dir, 0, "w", SS_F32, 1, shape, &n0);
    void *s1 = read_saved(tmp_path("again"), 0, "w", SS_F32, 1, shape, &n1);
    cr_assert(memcmp(s0, s1, n0) == 0);
    free(s0);
    free(s1);
    free(a);
    free(b);
    free(c);
}

Test(scenario_ckpt, plan_of_a_step_the_scenario_saves_is_not_planned, .init = make_tmp,
     .fini = rm_tmp)
{
    char *a = scn_text("mesh x=4\nw = param(f32[16], P('x'), iota)\n"
                       "save '{D}' step=0\nrestore '{D}' step=0\nshow w\n");
    cJSON *j = run_json(a, "plan", 0, NULL, NULL);
    cJSON *cks = field(j, "checkpoints");
    cr_assert_eq(cJSON_GetArraySize(cks), 2);
    cr_assert(strstr(str(item(cks, 0), "note"), "plan writes nothing"));
    cr_assert(strstr(str(item(cks, 1), "note"), "the save on line 3 writes this checkpoint"));
    cr_assert(cJSON_IsNull(field(item(cks, 1), "planned_peak_bytes")));
    cJSON_Delete(j);
    struct stat sb;
    cr_assert(stat(tmp_path("0"), &sb) != 0, "plan wrote a checkpoint");
    /* The run does both; a second run needs `force` to save step 0 again. */
    cJSON_Delete(run_json(a, "run", 0, NULL, NULL));
    const char *args[] = {"run", "t.shard"};
    result r = run_cli(a, 2, args);
    cr_assert_eq(r.rc, 2);
    cr_assert(strstr(r.err, "t.shard:3:1: ") && strstr(r.err, "already exists"), "%s", r.err);
    result_free(&r);
    char *b = scn_text("mesh x=4\nw = param(f32[16], P('x'), ones)\n"
                       "save '{D}' step=0 force\n");
    cJSON_Delete(run_json(b, "run", 0, NULL, NULL));
    size_t n;
    float *v = read_saved(tmp_dir, 0, "w", SS_F32, 1, (int64_t[]){16}, &n);
    cr_assert_eq(v[5], 1.0f, "force did not replace the step (%g)", (double)v[5]);
    free(v);
    free(a);
    free(b);
}

/* --- Errors at line:col ----------------------------------------------------------------- */

static void expect_error(const char *fmt, const char *where, const char *msg)
{
    char *text = scn_text(fmt);
    const char *args[] = {"run", "t.shard"};
    result r = run_cli(text, 2, args);
    cr_assert_eq(r.rc, 2, "exit %d for:\n%s\nstderr: %s", r.rc, text, r.err);
    char head[512];
    snprintf(head, sizeof head, "t.shard:%s: %s", where, msg);
    cr_assert(strncmp(r.err, head, strlen(head)) == 0, "got:\n%s\nwanted a line starting\n%s",
              r.err, head);
    cr_assert(strchr(r.err, '^'), "no caret:\n%s", r.err);
    result_free(&r);
    free(text);
}

#define W "mesh x=4\nw = param(f32[8], P('x'), ones)\n"

Test(scenario_ckpt, bad_statements_point_at_line_and_column, .init = make_tmp, .fini = rm_tmp)
{
    expect_error(W "save\n", "3:5", "expected an expression, found end of line");
    expect_error(W "save 3 step=0\n", "3:6",
                 "save: DIR is the checkpoint directory as a string, e.g. '/tmp/ckpt', not an "
                 "integer (save DIR step=N [layout='ocdbt'] [force])");
    expect_error(W "restore '' step=0\n", "3:9", "restore: DIR is the checkpoint directory as a "
                                                 "string, e.g. '/tmp/ckpt', not an empty string");
    /* Found while loading: nothing is read or written ('ck' is never made). */
    expect_error(W "save 'ck'\n", "3:1",
                 "save needs step=N (save DIR step=N [layout='ocdbt'] [force])");
    expect_error(W "save 'ck' step=0 layout='zarr'\n", "3:25",
                 "save: layout is 'ocdbt' (Orbax's default: one OCDBT store per item) or "
                 "'files' (one file per chunk, the default)");
    expect_error(W "restore 'ck' step=0 layout='ocdbt'\n", "3:21",
                 "unknown restore option 'layout' (restore DIR step=N [partial])");
    expect_error(W "save 'ck' step=-1\n", "3:16", "step must be >= 0");
    expect_error(W "save 'ck' step=1.5\n", "3:16", "step must be an integer");
    expect_error(W "save 'ck' step=0 steps=2\n", "3:18",
                 "unknown save option 'steps' (save DIR step=N [layout='ocdbt'] [force])");
    expect_error(W "save 'ck' step=0 partial\n", "3:18",
                 "unknown save flag 'partial' (save DIR step=N [layout='ocdbt'] [force])");
    expect_error(W "restore 'ck' step=0 force\n", "3:21",
                 "unknown restore flag 'force' (restore DIR step=N [partial])");
    expect_error(W "restore 'ck' partial partial step=0\n", "3:22",
                 "one flag at most (the first is 'partial')");
    expect_error(W "save 'ck' step=0 step=1\n", "3:18", "option repeated: step");
    expect_error(W "save CK step=0\n", "3:6", "name 'CK' is not defined");
    expect_error(W "def f(w):\n    restore 'ck' step=0\n    return w\nrun f\n", "4:5",
                 "this statement belongs at the top level, not inside a function");
    expect_error("mesh x=4\nx = input(f32[8], P('x'), ones)\nsave 'ck' step=0\n", "3:1",
                 "save: the scenario declares no param to save");
    /* Checkpoint problems found when the statement runs. */
    expect_error(W "restore '{D}/none' step=0\n", "3:9",
                 "Requested directory for restore does not exist at ");
    char *a = scn_text(W "save '{D}' step=0\n");
    cJSON_Delete(run_json(a, "run", 0, NULL, NULL));
    free(a);
    expect_error("mesh x=4\nw = param(f32[4, 2], P('x'), ones)\nrestore '{D}' step=0\n", "3:1",
                 "restore 'w': Requested shape: (4, 2) is not compatible with the stored shape: "
                 "(8,).");
    expect_error("mesh x=4\nw = param(f32[8], P('x'), ones)\nv = param(f32[8], P(), ones)\n"
                 "restore '{D}' step=0 partial\n",
                 "4:1", "partial restore: ['v'] is not in the checkpoint");
}

/* --- Names: the full tree path ------------------------------------------------------ */

/* The _METADATA of DIR/step/default as JSON. */
static cJSON *tree_metadata(int64_t step)
{
    char path[300];
    snprintf(path, sizeof path, "%s/%lld/default/_METADATA", tmp_dir, (long long)step);
    FILE *f = fopen(path, "rb");
    cr_assert(f, "cannot open %s", path);
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    cJSON *j = cJSON_Parse(text);
    cr_assert(j, "%s is not JSON", path);
    return cJSON_GetObjectItem(j, "tree_metadata") ? j : NULL;
}

Test(scenario_ckpt, params_are_saved_under_their_full_tree_path_as_orbax_names_them,
     .init = make_tmp, .fini = rm_tmp)
{
    /* Orbax names the leaf of {'dot1': {'w1': ...}} by its keys joined with
     * '.' (tree utils' get_param_names): directory "dot1.w1", _METADATA key
     * "('dot1', 'w1')" with key_metadata [dot1, w1], both dict keys
     * (key_type 2). */
    char *a = scn_text("mesh x=2\n"
                       "x = input(f32[8, 16], P('x', None), normal(seed=1))\n"
                       "w1 = param(f32[16, 16], P(None, 'x'), normal(seed=2), path='dot1/w1')\n"
                       "w2 = param(f32[16, 4], None, normal(seed=3))\n"
                       "def loss(x, w1, w2):\n"
                       "    return sum((x @ w1) @ w2)\n"
                       "def step(x, w1, w2):\n"
                       "    l, g = value_and_grad(loss, argnums=(1, 2))(x, w1, w2)\n"
                       "    w1, w2 = adam((w1, w2), g, 0.1)\n"
                       "    return l, w1, w2\n"
                       "save '{D}' step=0\n"
                       "run step steps=1\n");
    cJSON *j = run_json(a, "run", 0, NULL, NULL);
    cJSON *arrays = field(item(field(j, "checkpoints"), 0), "arrays");
    cr_assert_str_eq(str(item(arrays, 0), "name"), "dot1.w1");
    cJSON_Delete(j);
    struct stat sb;
    cr_assert_eq(stat(tmp_path("0/default/dot1.w1/.zarray"), &sb), 0);
    cr_assert_eq(stat(tmp_path("0/default/opt_state.dot1.w1.mu/.zarray"), &sb), 0);
    cr_assert_eq(stat(tmp_path("0/default/w2/.zarray"), &sb), 0);
    cr_assert_neq(stat(tmp_path("0/default/w1"), &sb), 0, "saved under its variable name");
    cJSON *md = tree_metadata(0);
    cJSON *e = cJSON_GetObjectItem(cJSON_GetObjectItem(md, "tree_metadata"), "('dot1', 'w1')");
    cr_assert(e, "no entry ('dot1', 'w1')");
    char *keys = cJSON_PrintUnformatted(cJSON_GetObjectItem(e, "key_metadata"));
    cr_assert_str_eq(keys, "[{\"key\":\"dot1\",\"key_type\":2},{\"key\":\"w1\",\"key_type\":2}]");
    free(keys);
    cJSON_Delete(md);
    /* The values are the initializer's. */
    size_t n;
    const int64_t shape[2] = {16, 16};
    void *got = read_saved(tmp_dir, 0, "dot1.w1", SS_F32, 2, shape, &n);
    void *want = init_values(SS_F32, 2, shape, "normal", 2, 1e-2);
    cr_assert(memcmp(got, want, n) == 0, "dot1.w1 differs from its initializer");
    free(got);
    free(want);

    /* A restore matches by the full path, into another sharding. */
    char *b = scn_text("mesh x=2\n"
                       "w1 = param(f32[16, 16], P('x', None), zeros, path='dot1/w1')\n"
                       "w2 = param(f32[16, 4], P('x'), zeros)\n"
                       "restore '{D}' step=0 partial\n"
                       "save '{D}' step=1\n");
    j = run_json(b, "run", 0, NULL, NULL);
    cr_assert_str_eq(str(item(field(item(field(j, "checkpoints"), 0), "arrays"), 0), "name"),
                     "dot1.w1");
    cJSON_Delete(j);
    got = read_saved(tmp_dir, 1, "dot1.w1", SS_F32, 2, shape, &n);
    want = init_values(SS_F32, 2, shape, "normal", 2, 1e-2);
    cr_assert(memcmp(got, want, n) == 0, "restored dot1.w1 differs");
    free(got);
    free(want);
    /* Another path is another array. */
    char *c = scn_text("mesh x=2\n"
                       "w1 = param(f32[16, 16], P('x', None), zeros, path='dot2/w1')\n"
                       "restore '{D}' step=0 partial\n");
    result r = run_cli(c, 2, (const char *[]){"run", "t.shard"});
    cr_assert_eq(r.rc, 2, "%s%s", r.out, r.err);
    cr_assert(strstr(r.err, "['dot2.w1'] is not in the checkpoint"), "%s", r.err);
    result_free(&r);
    free(a);
    free(b);
    free(c);
}

Test(scenario_ckpt, checkpoints_saved_under_variable_names_still_restore, .init = make_tmp,
     .fini = rm_tmp)
{
    /* shardsim saved params under their variable names before; a restore
     * by path finds them there. */
    char *a = scn_text("mesh x=2\n"
                       "w1 = param(f32[16, 16], P(None, 'x'), normal(seed=2))\n"
                       "save '{D}' step=0\n");
    cJSON *j = run_json(a, "run", 0, NULL, NULL);
    cJSON_Delete(j);
    char *b = scn_text("mesh x=2\n"
                       "w1 = param(f32[16, 16], P('x', None), zeros, path='dot1/w1')\n"
                       "restore '{D}' step=0\n"
                       "save '{D}' step=1\n");
    j = run_json(b, "run", 0, NULL, NULL);
    cr_assert_str_eq(str(item(field(item(field(j, "checkpoints"), 0), "arrays"), 0), "name"),
                     "w1");
    cJSON_Delete(j);
    size_t n;
    const int64_t shape[2] = {16, 16};
    void *got = read_saved(tmp_dir, 1, "dot1.w1", SS_F32, 2, shape, &n);
    void *want = init_values(SS_F32, 2, shape, "normal", 2, 1e-2);
    cr_assert(memcmp(got, want, n) == 0, "restored w1 differs");
    free(got);
    free(want);
    free(a);
    free(b);
}
