/*
 * test_mlir_import.c — importing the StableHLO real JAX printed
 * (tests/data/jax, made by tests/jax/make_fixtures.py) and running it on
 * the fixture's mesh with the fixture's inputs:
 *
 *   - every result equals JAX's (outputs/NAME.npy): floats within 1e-5 of
 *     the largest magnitude of the reference, integers and bools exactly;
 *   - the collectives of the compiled program equal those XLA's compiled
 *     text holds (collectives.json), one record per buffer: kind, replica
 *     groups (or the set of source-target pairs), bytes per device in and
 *     out; every difference is a row of the table "Differences from XLA's
 *     CPU compiler" in tests/data/jax/README.md, and every row there is a
 *     difference still seen.
 *
 * Both lowerings of each program: Shardy with locations (argument names
 * from them) and GSPMD (no names: arguments read as argN.npy, linked to
 * the fixture's files in argument order from meta.json).
 */
#include "support.h"

#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_RECS 512

/* --- .npy ------------------------------------------------------------------ */

typedef struct npy {
    char descr[16];
    int rank;
    long shape[8];
    unsigned char *data;
    size_t bytes;
} npy;

static bool read_npy(const char *path, npy *a)
{
    memset(a, 0, sizeof *a);
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    unsigned char pre[10];
    cr_assert_eq(fread(pre, 1, 10, f), 10u);
    cr_assert(memcmp(pre, "\x93NUMPY\x01\x00", 8) == 0, "%s: not npy 1.0", path);
    size_t hlen = (size_t)pre[8] | (size_t)pre[9] << 8;
    char *h = calloc(hlen + 1, 1);
    cr_assert_eq(fread(h, 1, hlen, f), hlen);
    const char *d = strstr(h, "'descr': '");
    cr_assert(d && strstr(h, "'fortran_order': False"), "%s", h);
    sscanf(d + 10, "%15[^']", a->descr);
    const char *s = strstr(h, "'shape': (");
    cr_assert(s, "%s", h);
    for (s += 10; *s != ')';) {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s)
            break;
        a->shape[a->rank++] = v;
        s = end;
        while (*s == ',' || *s == ' ')
            s++;
    }
    long pos = ftell(f);
    fseek(f, 0, SEEK_END);
    a->bytes = (size_t)(ftell(f) - pos);
    fseek(f, pos, SEEK_SET);
    a->data = malloc(a->bytes + 1);
    cr_assert_eq(fread(a->data, 1, a->bytes, f), a->bytes);
    fclose(f);
    free(h);
    return true;
}

static double elem(const npy *a, size_t i)
{
    if (strcmp(a->descr, "<f4") == 0) {
        float v;
        memcpy(&v, a->data + 4 * i, 4);
        return v;
    }
    if (strcmp(a->descr, "<f8") == 0) {
        double v;
        memcpy(&v, a->data + 8 * i, 8);
        return v;
    }
    if (strcmp(a->descr, "<V2") == 0) { /* bfloat16 */
        uint32_t w = (uint32_t)(a->data[2 * i] | a->data[2 * i + 1] << 8) << 16;
        float v;
        memcpy(&v, &w, 4);
        return v;
    }
    return NAN;
}

/* Result file `name`: ours equals JAX's. */
static void compare_output(const char *jax_dir, const char *our_dir, const char *name)
{
    char p1[8192], p2[8192];
    snprintf(p1, sizeof p1, "%s/%s", jax_dir, name);
    snprintf(p2, sizeof p2, "%s/%s", our_dir, name);
    npy ref, got;
    cr_assert(read_npy(p1, &ref));
    cr_assert(read_npy(p2, &got), "no result %s written", name);
    cr_assert_str_eq(got.descr, ref.descr, "%s: dtype", name);
    cr_assert_eq(got.rank, ref.rank, "%s: rank", name);
    for (int d = 0; d < ref.rank; d++)
        cr_assert_eq(got.shape[d], ref.shape[d], "%s: dim %d", name, d);
    cr_assert_eq(got.bytes, ref.bytes, "%s: bytes", name);
    bool fl = ref.descr[1] == 'f' || strcmp(ref.descr, "<V2") == 0;
    if (!fl) {
        cr_assert(memcmp(got.data, ref.data, ref.bytes) == 0, "%s: integers differ", name);
    } else {
        size_t esz = strcmp(ref.descr, "<f8") == 0 ? 8 : strcmp(ref.descr, "<f4") == 0 ? 4 : 2;
        size_t n = ref.bytes / esz;
        double scale = 0;
        for (size_t i = 0; i < n; i++)
            scale = fmax(scale, fabs(elem(&ref, i)));
        double tol = (esz == 2 ? 1e-2 : 1e-5) * (scale > 0 ? scale : 1);
        for (size_t i = 0; i < n; i++) {
            double r = elem(&ref, i), g = elem(&got, i);
            cr_assert(fabs(r - g) <= tol || (isnan(r) && isnan(g)),
                      "%s[%zu]: shardsim %.9g, JAX %.9g (tolerance %.3g)", name, i, g, r, tol);
        }
    }
    free(ref.data);
    free(got.data);
}

/* --- Ledger records ------------------------------------------------------------- */

typedef struct recs {
    int n;
    char *s[MAX_RECS];
} recs;

static void add_rec(recs *r, const char *s)
{
    cr_assert_lt(r->n, MAX_RECS);
    r->s[r->n++] = strdup(s);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "AR {0,1}{2,3} 256->256", "CP (0,1)(1,0) 64->64" (pairs sorted). */
static void rec_text(char *buf, size_t cap, const char *kind, const char *where, long in,
                     long out)
{
    snprintf(buf, cap, "%s %s %ld->%ld", kind, where, in, out);
}

static void pairs_text(char *buf, size_t cap, int n, int pairs[][2])
{
    char *items[512];
    cr_assert_leq(n, 512);
    for (int k = 0; k < n; k++) {
        items[k] = malloc(32);
        snprintf(items[k], 32, "(%d,%d)", pairs[k][0], pairs[k][1]);
    }
    qsort(items, (size_t)n, sizeof *items, cmp_str);
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; k < n; k++) {
        len += (size_t)snprintf(buf + len, cap - len, "%s", items[k]);
        free(items[k]);
    }
}

static void xla_records(const cJSON *j, recs *r)
{
    static const char *const kinds[][2] = {{"all-reduce", "AR"}, {"all-gather", "AG"},
                                           {"reduce-scatter", "RS"}, {"all-to-all", "A2A"},
                                           {"collective-permute", "CP"}};
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "collectives")) {
        const char *k = cJSON_GetObjectItem(c, "kind")->valuestring, *kind = NULL;
        for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
            if (strcmp(kinds[i][0], k) == 0)
                kind = kinds[i][1];
        cr_assert(kind, "XLA collective kind %s", k);
        char where[4096] = "", buf[4200];
        size_t len = 0;
        if (strcmp(kind, "CP") == 0) {
            int pairs[512][2], n = 0;
            const cJSON *p;
            cJSON_ArrayForEach(p, cJSON_GetObjectItem(c, "source_target_pairs")) {
                pairs[n][0] = cJSON_GetArrayItem(p, 0)->valueint;
                pairs[n++][1] = cJSON_GetArrayItem(p, 1)->valueint;
            }
            pairs_text(where, sizeof where, n, pairs);
        } else {
            const cJSON *g, *d;
            cJSON_ArrayForEach(g, cJSON_GetObjectItem(c, "replica_groups")) {
                len += (size_t)snprintf(where + len, sizeof where - len, "{");
                cJSON_ArrayForEach(d, g)
                    len += (size_t)snprintf(where + len, sizeof where - len, "%s%d",
                                            where[len - 1] == '{' ? "" : ",", d->valueint);
                len += (size_t)snprintf(where + len, sizeof where - len, "}");
            }
        }
        const cJSON *ops = cJSON_GetObjectItem(c, "operands");
        const cJSON *res = cJSON_GetObjectItem(c, "result");
        /* A combined instruction is one record per buffer; an all-to-all's
         * tuple form (a buffer per peer) is one exchange. */
        if (strcmp(kind, "A2A") == 0 || cJSON_GetArraySize(ops) == 1) {
            rec_text(buf, sizeof buf, kind, where,
                     (long)cJSON_GetObjectItem(c, "operand_bytes")->valuedouble,
                     (long)cJSON_GetObjectItem(c, "result_bytes")->valuedouble);
            add_rec(r, buf);
            continue;
        }
        for (int i = 0; i < cJSON_GetArraySize(ops); i++) {
            rec_text(buf, sizeof buf, kind, where,
                     (long)cJSON_GetObjectItem(cJSON_GetArrayItem(ops, i), "bytes")->valuedouble,
                     (long)cJSON_GetObjectItem(cJSON_GetArrayItem(res, i), "bytes")->valuedouble);
            add_rec(r, buf);
        }
    }
}

static void our_records(const ss_executable *e, recs *r)
{
    static const char *const kinds[] = {[SS_COLL_ALL_REDUCE] = "AR", [SS_COLL_ALL_GATHER] = "AG",
                                        [SS_COLL_REDUCE_SCATTER] = "RS",
                                        [SS_COLL_ALL_TO_ALL] = "A2A", [SS_COLL_PERMUTE] = "CP"};
    for (int i = 0; i < ss_executable_ledger_count(e); i++) {
        ss_ledger_entry le;
        TS_OK(ss_executable_ledger_entry(e, i, &le));
        const ss_coll_record *c = &le.coll;
        cr_assert(c->kind < sizeof kinds / sizeof *kinds && kinds[c->kind], "kind %d", c->kind);
        long S = (long)c->bytes, G = c->group_size, in = S, out = S;
        if (c->kind == SS_COLL_ALL_GATHER)
            in = S / G;
        else if (c->kind == SS_COLL_REDUCE_SCATTER)
            out = S / G;
        else if (c->kind == SS_COLL_ALL_TO_ALL)
            in = out = S / G;
        char where[4096] = "", buf[4200];
        if (c->kind == SS_COLL_PERMUTE) {
            int pairs[512][2], n;
            TS_OK(ss_executable_ledger_pairs(e, i, pairs, 512, &n));
            pairs_text(where, sizeof where, n, pairs);
        } else {
            int ids[SS_MAX_DEVICES];
            TS_OK(ss_executable_ledger_groups(e, i, ids, SS_MAX_DEVICES));
            size_t len = 0;
            for (int g = 0; g < c->ngroups; g++) {
                len += (size_t)snprintf(where + len, sizeof where - len, "{");
                for (int k = 0; k < c->group_size; k++)
                    len += (size_t)snprintf(where + len, sizeof where - len, "%s%d", k ? "," : "",
                                            ids[g * c->group_size + k]);
                len += (size_t)snprintf(where + len, sizeof where - len, "}");
            }
        }
        rec_text(buf, sizeof buf, kinds[c->kind], where, in, out);
        add_rec(r, buf);
    }
}

/* Records of a in b's complement (multiset difference), as "N x `rec`"
 * items joined by "; " in sorted order ("" when none). */
static int count_of(const recs *r, const char *s)
{
    int n = 0;
    for (int i = 0; i < r->n; i++)
        n += strcmp(r->s[i], s) == 0;
    return n;
}

static void difference(recs *a, const recs *b, char *out, size_t cap)
{
    qsort(a->s, (size_t)a->n, sizeof *a->s, cmp_str);
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < a->n;) {
        int na = count_of(a, a->s[i]), nb = count_of(b, a->s[i]);
        if (na > nb)
            len += (size_t)snprintf(out + len, cap - len, "%s%d x `%s`", len ? "; " : "",
                                    na - nb, a->s[i]);
        i += na;
    }
}

/* The README row of `prog`: its shardsim and XLA cells ("" without a row). */
static void readme_row(const char *prog, char *ours, char *xla, size_t cap)
{
    char *text = ts_read_data("jax/README.md");
    ours[0] = xla[0] = '\0';
    const char *t = strstr(text, "<!-- ledger differences");
    cr_assert(t, "tests/data/jax/README.md has no ledger differences table");
    char key[160];
    snprintf(key, sizeof key, "\n| `%s` | ", prog);
    const char *row = strstr(t, key);
    if (row) {
        row += strlen(key);
        const char *bar = strstr(row, " | ");
        cr_assert(bar);
        snprintf(ours, cap, "%.*s", (int)(bar - row), row);
        const char *row2 = bar + 3, *bar2 = strstr(row2, " | ");
        cr_assert(bar2);
        snprintf(xla, cap, "%.*s", (int)(bar2 - row2), row2);
        if (strcmp(ours, "—") == 0)
            ours[0] = '\0';
        if (strcmp(xla, "—") == 0)
            xla[0] = '\0';
    }
    free(text);
}

/* --- One fixture ------------------------------------------------------------------ */

/* Import and run fixture `prog` and compare its results with JAX's; with
 * `ledger`, also its collectives with XLA's (collectives.json). */
static void import_fixture(const char *prog, bool gspmd, bool ledger)
{
    const char *data = getenv("SS_TEST_DATA");
    cr_assert(data, "SS_TEST_DATA is not set");
    char dir[1024], path[1200], inputs[1200], outputs[64] = "/tmp/ss_import_out_XXXXXX";
    char links[64] = "/tmp/ss_import_in_XXXXXX";
    snprintf(dir, sizeof dir, "%s/jax/%s", data, prog);
    snprintf(path, sizeof path, "%s/lowered.%s.mlir", dir, gspmd ? "gspmd" : "shardy.loc");
    cr_assert(mkdtemp(outputs));
    snprintf(inputs, sizeof inputs, "%s/inputs", dir);
    char rel[256];
    snprintf(rel, sizeof rel, "jax/%s/meta.json", prog);
    cJSON *meta = ts_load_json(rel);
    if (gspmd) { /* argN.npy -> the fixture's files, in argument order */
        cr_assert(mkdtemp(links));
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
        snprintf(inputs, sizeof inputs, "%s", links);
    }
    ss_scenario_options opts = {.inputs = inputs, .outputs = outputs};
    ss_scenario *sc = NULL;
    ss_scenario_error err;
    cr_assert_eq(ss_scenario_load(path, &opts, &sc, &err), SS_OK, "%s:%d:%d: %s", path, err.line,
                 err.col, err.message);
    cr_assert_eq(ss_scenario_run(sc, &err), SS_OK, "%s: %s", path, err.message);
    cr_assert(ss_scenario_checks_passed(sc), "%s: a result differs from the single-device run",
              path);
    const cJSON *r;
    cJSON_ArrayForEach(r, cJSON_GetObjectItem(meta, "results")) {
        char name[600];
        snprintf(name, sizeof name, "%s.npy", cJSON_GetObjectItem(r, "name")->valuestring);
        char jax_out[1100];
        snprintf(jax_out, sizeof jax_out, "%s/outputs", dir);
        compare_output(jax_out, outputs, name);
    }
    if (!ledger) {
        cJSON_Delete(meta);
        ss_scenario_free(sc);
        char cmd[256];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'%s%s%s", outputs, gspmd ? " '" : "",
                 gspmd ? links : "", gspmd ? "'" : "");
        cr_assert_eq(system(cmd), 0);
        return;
    }
    recs ours = {0}, xla = {0};
    our_records(ss_scenario_executable(sc), &ours);
    snprintf(rel, sizeof rel, "jax/%s/%s", prog, gspmd ? "collectives.gspmd.json"
                                                      : "collectives.json");
    cJSON *coll = ts_load_json(rel);
    xla_records(coll, &xla);
    static char only_ours[16384], only_xla[16384], row_ours[16384], row_xla[16384];
    difference(&ours, &xla, only_ours, sizeof only_ours);
    difference(&xla, &ours, only_xla, sizeof only_xla);
    readme_row(prog, row_ours, row_xla, sizeof row_ours);
    cr_expect_str_eq(only_ours, row_ours, "%s: collectives shardsim has and XLA has not, vs the "
                                          "README's table:\n  seen:   %s\n  README: %s", prog,
                     only_ours, row_ours);
    cr_expect_str_eq(only_xla, row_xla, "%s: collectives XLA has and shardsim has not, vs the "
                                        "README's table:\n  seen:   %s\n  README: %s", prog,
                     only_xla, row_xla);
    for (int i = 0; i < ours.n; i++)
        free(ours.s[i]);
    for (int i = 0; i < xla.n; i++)
        free(xla.s[i]);
    cJSON_Delete(coll);
    cJSON_Delete(meta);
    ss_scenario_free(sc);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'%s%s%s", outputs, gspmd ? " '" : "", gspmd ? links : "",
             gspmd ? "'" : "");
    cr_assert_eq(system(cmd), 0);
}

#define FIXTURE(prog)                                                           \
    Test(mlir_import, prog##_shardy) { import_fixture(#prog, false, true); }  \
    Test(mlir_import, prog##_gspmd) { import_fixture(#prog, true, true); }

/* Results only: programs whose scanned layers run their collectives in a
 * `while` body. The ledger holds every iteration's, XLA's compiled text
 * each instruction once, so the records cannot be compared one for one
 * (tests/data/jax/README.md, "Differences from XLA's CPU compiler"). */
#define FIXTURE_RESULTS(prog)                                                    \
    Test(mlir_import, prog##_shardy) { import_fixture(#prog, false, false); }  \
    Test(mlir_import, prog##_gspmd) { import_fixture(#prog, true, false); }

FIXTURE(s1_pointwise_reduce)
FIXTURE(s2_dp_mlp)
FIXTURE(s3_megatron_mlp)
FIXTURE(s4_megatron_sp)
FIXTURE(s5_dotreludot_2d)
FIXTURE(s6_fsdp_mlp)
FIXTURE(s7_attention_heads)
FIXTURE(s8_attention_seq)
FIXTURE(s9_moe_a2a)
FIXTURE(s10_pipeline_ppermute)
FIXTURE(s11a_allgather_matmul)
FIXTURE(s11b_matmul_reducescatter)
FIXTURE(s12_1_tiles41_to_14)
FIXTURE(s12_2_swap_axes)
FIXTURE(s12_3_replicated_to_tiled)
FIXTURE(s12_4_gather_dim1)
FIXTURE(s12_5_gather_all)
FIXTURE(s12_6_41_to_22)
FIXTURE(s12_7_partial_to_shard)
FIXTURE(s12_8a_reshape_dim0)
FIXTURE(s12_8b_reshape_dim1)
FIXTURE(flax_linen_train_step)
FIXTURE(flax_nnx_train_step)
FIXTURE(shard_map_collectives)
FIXTURE(transformer_block_adamw)
/* Collectives of the Shardy lowering only: XLA's GSPMD partitioner
 * compiles the program otherwise (tests/data/jax/README.md). */
#define FIXTURE_SHARDY_COLLECTIVES(prog)                                        \
    Test(mlir_import, prog##_shardy) { import_fixture(#prog, false, true); }  \
    Test(mlir_import, prog##_gspmd) { import_fixture(#prog, true, false); }

FIXTURE_RESULTS(lm_noremat)
FIXTURE_RESULTS(lm_full)
FIXTURE_RESULTS(lm_dots)
FIXTURE(random_ops)
FIXTURE(flax_nnx_init)
FIXTURE(gather_vocab)
FIXTURE(gather_embed)
FIXTURE(gather_batch)
FIXTURE(scatter_add)
FIXTURE(nnx_embed_train_step)
FIXTURE(embed_vocab_grad)
FIXTURE(sort_topk)
FIXTURE(moe_top2_train_step)
FIXTURE(cond_switch)
FIXTURE(pool_cumsum)
FIXTURE_SHARDY_COLLECTIVES(embed_grad_scatter)

/* --- Errors and options, through the command line --------------------------------- */

/* Write `text` to a temporary file (named without .mlir: the format is
 * chosen by content) and run `shardsim ARGS FILE REST`. */
static int run_text(const char *text, const char *args, const char *rest, char **out, char **err)
{
    char path[64] = "/tmp/ss_import_text_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s %s %s", args, path, rest ? rest : "");
    int rc = ts_run_cli(cmd, out, err);
    unlink(path);
    return rc;
}

static const char *const fft_module =
    "#loc1 = loc(\"model.py\":42:7)\n"
    "module @jit_f {\n"
    "  func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
    "    %0 = stablehlo.negate %arg0 : tensor<8xf32> loc(#loc1)\n"
    "    %1 = stablehlo.fft %0, type = FFT, length = [8] : (tensor<8xf32>) -> tensor<8xf32> "
    "loc(#loc2)\n"
    "    return %1 : tensor<8xf32>\n"
    "  }\n"
    "}\n"
    "#loc2 = loc(\"jit(f)/fft\"(#loc3))\n"
    "#loc3 = loc(callsite(\"site-packages/jax/_src/numpy/fft.py\":90:3 at \"model.py\":42:9))\n";

/* An op without a mapping: its spot, its name and the user's Python line
 * (the first frame outside the library's sources), exit 2. */
Test(mlir_import, unsupported_op_names_spot_op_and_python_line)
{
    char *out = NULL, *err = NULL;
    int rc = run_text(fft_module, "run", NULL, &out, &err);
    cr_assert_eq(rc, 2, "exit %d, stderr: %s", rc, err);
    cr_assert(strstr(err, ":5:10: unsupported op 'stablehlo.fft' (from model.py:42)"), "%s", err);
    free(out);
    free(err);
}

static const char *const gspmd_module =
    "module @jit_f attributes {mhlo.num_partitions = 8 : i32} {\n"
    "  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = "
    "\"{devices=[2,1,4]<=[8] last_tile_dim_replicate}\"}, %arg1: tensor<16x8xf32> "
    "{mhlo.sharding = \"{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}\"}) -> "
    "(tensor<8x8xf32> {jax.result_info = \"result\", mhlo.sharding = \"{devices=[2,1,4]<=[8] "
    "last_tile_dim_replicate}\"}) {\n"
    "    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : "
    "(tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>\n"
    "    return %0 : tensor<8x8xf32>\n"
    "  }\n"
    "}\n";

/* A GSPMD module names no mesh: the smallest one over which its shardings
 * are NamedShardings, axes x, y; the contraction over y is an all-reduce
 * over the groups XLA's iota tile assignment makes. */
Test(mlir_import, gspmd_module_gets_the_mesh_its_shardings_need)
{
    char *out = NULL, *err = NULL;
    int rc = run_text(gspmd_module, "plan --json", NULL, &out, &err);
    cr_assert_eq(rc, 0, "exit %d, stderr: %s", rc, err);
    cJSON *j = cJSON_Parse(out);
    cr_assert(j, "%s", out);
    cr_assert(strstr(out, "\"replica_groups\":[[0,1,2,3],[4,5,6,7]]") ||
                  strstr(out, "\"replica_groups\": [[0, 1, 2, 3], [4, 5, 6, 7]]"),
              "%s", out);
    const cJSON *m = cJSON_GetObjectItem(j, "mesh");
    char *ms = cJSON_PrintUnformatted(m);
    cr_assert(strstr(ms, "\"x\"") && strstr(ms, "\"y\""), "%s", ms);
    free(ms);
    cJSON_Delete(j);
    free(out);
    free(err);
}

/* --mesh keeps the module's axis names; others are refused by name. */
Test(mlir_import, mesh_override_must_keep_the_axis_names)
{
    char *out = NULL, *err = NULL;
    int rc = run_text(gspmd_module, "plan", "--mesh a=2,y=4", &out, &err);
    cr_assert_eq(rc, 2, "exit %d: %s", rc, out);
    cr_assert(strstr(err, "--mesh a=2,y=4: the module's shardings name axis 'x'"), "%s", err);
    free(out);
    free(err);
    rc = run_text(gspmd_module, "plan", "--mesh x=4,y=2", &out, &err);
    cr_assert_eq(rc, 0, "exit %d: %s", rc, err);
    cr_assert(strstr(out, "8 virtual devices"), "%s", out);
    free(out);
    free(err);
}

/* --inputs: a file of another shape is an error naming both. */
Test(mlir_import, inputs_of_another_shape_are_refused)
{
    const char *data = getenv("SS_TEST_DATA");
    cr_assert(data);
    char rest[1200];
    snprintf(rest, sizeof rest, "--inputs %s/jax/s2_dp_mlp/inputs", data);
    char *out = NULL, *err = NULL;
    int rc = run_text(gspmd_module, "run", rest, &out, &err);
    cr_assert_eq(rc, 2, "exit %d: %s", rc, out);
    cr_assert(strstr(err, "arg0.npy"), "%s", err);
    free(out);
    free(err);
}

/* A scatter in the generic form with the older `{..}` attribute
 * dictionary after its region, whose region subtracts: refused by name,
 * with its spot. */
static const char *const scatter_sub_module =
    "module @jit_f {\n"
    "  func.func public @main(%arg0: tensor<8x4xf32>, %arg1: tensor<3x1xi32>, "
    "%arg2: tensor<3x4xf32>) -> tensor<8x4xf32> {\n"
    "    %0 = \"stablehlo.scatter\"(%arg0, %arg1, %arg2) ({\n"
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "      %s = stablehlo.subtract %a, %b : tensor<f32>\n"
    "      stablehlo.return %s : tensor<f32>\n"
    "    }) {indices_are_sorted = false, "
    "scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], "
    "inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, "
    "unique_indices = false} : (tensor<8x4xf32>, tensor<3x1xi32>, tensor<3x4xf32>) -> "
    "tensor<8x4xf32>\n"
    "    return %0 : tensor<8x4xf32>\n"
    "  }\n"
    "}\n";

Test(mlir_import, scatter_with_an_unknown_region_is_refused_by_name)
{
    char *out = NULL, *err = NULL;
    int rc = run_text(scatter_sub_module, "plan", NULL, &out, &err);
    cr_assert_eq(rc, 2, "exit %d, stderr: %s", rc, err);
    cr_assert(strstr(err, ":3:10: unsupported: a scatter whose region applies "
                          "'stablehlo.subtract'"), "%s", err);
    free(out);
    free(err);
}

/* A gather whose dimension numbers do not fit its operands: a one-line
 * error naming the list, exit 2. */
Test(mlir_import, gather_with_bad_dimension_numbers_is_refused)
{
    static const char *const text =
        "module @jit_f {\n"
        "  func.func public @main(%arg0: tensor<8x4xf32>, %arg1: tensor<3x1xi32>) -> "
        "tensor<3x4xf32> {\n"
        "    %0 = \"stablehlo.gather\"(%arg0, %arg1) <{dimension_numbers = "
        "#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], "
        "index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 5>}> : "
        "(tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>\n"
        "    return %0 : tensor<3x4xf32>\n"
        "  }\n"
        "}\n";
    char *out = NULL, *err = NULL;
    int rc = run_text(text, "plan", NULL, &out, &err);
    cr_assert_eq(rc, 2, "exit %d, stderr: %s", rc, err);
    cr_assert(strstr(err, ":3:10: 'stablehlo.gather': gather: window size 5 of operand dim 1 is "
                          "outside 0..dim"), "%s", err);
    free(out);
    free(err);
}
