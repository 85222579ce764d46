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
#include <sys/stat.h>
#include <unistd.h>

#include "jax_check.h"

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
    jax_fixture f;
    jax_fixture_run("jax", prog, gspmd, &f);
    if (ledger) {
        recs ours = {0}, xla = {0};
        jax_fixture_records(&f, &ours, &xla);
        static char only_ours[16384], only_xla[16384], row_ours[16384], row_xla[16384];
        difference(&ours, &xla, only_ours, sizeof only_ours);
        difference(&xla, &ours, only_xla, sizeof only_xla);
        readme_row(prog, row_ours, row_xla, sizeof row_ours);
        cr_expect_str_eq(only_ours, row_ours, "%s: collectives shardsim has and XLA has not, "
                         "vs the README's table:\n  seen:   %s\n  README: %s", prog, only_ours,
                         row_ours);
        cr_expect_str_eq(only_xla, row_xla, "%s: collectives XLA has and shardsim has not, vs "
                         "the README's table:\n  seen:   %s\n  README: %s", prog, only_xla,
                         row_xla);
        free_recs(&ours);
        free_recs(&xla);
    }
    jax_fixture_free(&f);
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
FIXTURE(rng_bits)
FIXTURE(rbg_random)
FIXTURE(scatter_sub)
FIXTURE(scatter_regions)
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
 * dictionary after its region, whose region is atan2 of operand and
 * update (no .at[] method makes it): refused by name, with its spot. */
static const char *const scatter_atan2_module =
    "module @jit_f {\n"
    "  func.func public @main(%arg0: tensor<8x4xf32>, %arg1: tensor<3x1xi32>, "
    "%arg2: tensor<3x4xf32>) -> tensor<8x4xf32> {\n"
    "    %0 = \"stablehlo.scatter\"(%arg0, %arg1, %arg2) ({\n"
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "      %s = stablehlo.atan2 %a, %b : tensor<f32>\n"
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
    int rc = run_text(scatter_atan2_module, "plan", NULL, &out, &err);
    cr_assert_eq(rc, 2, "exit %d, stderr: %s", rc, err);
    cr_assert(strstr(err, ":3:10: unsupported: a scatter whose region applies "
                          "'stablehlo.atan2'"), "%s", err);
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

/* A .npy argument file whose data starts at an offset the header's padding
 * leaves unaligned (numpy pads to 64 bytes; other writers need not): its
 * values are read all the same, and the run's result is theirs doubled,
 * for every offset from 0 to 15 past a 16-byte boundary. */
static const char *const double_module =
    "module @jit_f {\n"
    "  func.func public @main(%arg0: tensor<5xf32>) -> tensor<5xf32> {\n"
    "    %0 = stablehlo.add %arg0, %arg0 : tensor<5xf32>\n"
    "    return %0 : tensor<5xf32>\n"
    "  }\n"
    "}\n";

Test(mlir_import, inputs_read_at_any_data_offset)
{
    const float x[5] = {1.5f, -2.25f, 3.0f, 1e-30f, 65504.0f};
    for (int skew = 0; skew < 16; skew++) {
        char dir[64] = "/tmp/ss_npy_offset_XXXXXX";
        cr_assert_not_null(mkdtemp(dir));
        char in[128], outdir[128], file[192], rest[400];
        snprintf(in, sizeof in, "%s/in", dir);
        snprintf(outdir, sizeof outdir, "%s/out", dir);
        cr_assert_eq(mkdir(in, 0700), 0);
        snprintf(file, sizeof file, "%s/arg0.npy", in);
        /* header "{...}" padded with spaces and a newline so that the data
         * starts at 80 + skew bytes into the file */
        char head[128];
        int n = snprintf(head, sizeof head,
                         "{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }");
        size_t hl = (size_t)(70 + skew);
        cr_assert_lt((size_t)n, hl);
        memset(head + n, ' ', hl - (size_t)n - 1);
        head[hl - 1] = '\n';
        FILE *f = fopen(file, "wb");
        cr_assert_not_null(f);
        unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)hl, 0};
        fwrite(pre, 1, 10, f);
        fwrite(head, 1, hl, f);
        fwrite(x, sizeof x[0], 5, f);
        fclose(f);
        snprintf(rest, sizeof rest, "--no-check --inputs %s --outputs %s", in, outdir);
        char *out = NULL, *err = NULL;
        int rc = run_text(double_module, "run", rest, &out, &err);
        cr_assert_eq(rc, 0, "data at offset %zu: exit %d: %s", 10 + hl, rc, err);
        char res[192];
        snprintf(res, sizeof res, "%s/result0.npy", outdir);
        npy got;
        cr_assert(read_npy(res, &got), "offset %zu: no result in %s: %s", 10 + hl, outdir, out);
        cr_assert_eq(got.bytes, sizeof x);
        for (int k = 0; k < 5; k++)
            cr_assert_eq(((const float *)got.data)[k], 2 * x[k], "offset %zu, [%d]", 10 + hl, k);
        free(got.data);
        free(out);
        free(err);
        unlink(res);
        rmdir(outdir);
        unlink(file);
        rmdir(in);
        rmdir(dir);
    }
}

/* A check that fails on generated arguments says why it may and how to
 * check on real ones; with the program's real arguments the same check
 * passes and the hint is not printed. The scan of tanh layers saturates
 * on normal(0, 1) arguments, where 1 - tanh^2 cancels. */
Test(mlir_import, failed_check_on_generated_arguments_says_how_to_check_real_ones)
{
    const char *data = getenv("SS_TEST_DATA");
    cr_assert(data);
    char cmd[1200], *out = NULL, *err = NULL;
    snprintf(cmd, sizeof cmd, "run %s/jax_offload_tpu/scan_full_remat/lowered.shardy.loc.mlir "
             "--steps 1", data);
    int rc = ts_run_cli(cmd, &out, &err);
    cr_assert_eq(rc, 1, "exit %d: %s%s", rc, out, err);
    cr_assert(strstr(out, "FAILED") && strstr(out, "on generated arguments") &&
                  strstr(out, "--inputs DIR"), "%s", out);
    free(out);
    free(err);
    snprintf(cmd, sizeof cmd, "run %s/jax_offload_tpu/scan_full_remat/lowered.shardy.loc.mlir "
             "--steps 1 --inputs %s/jax_offload_tpu/scan_full_remat/inputs", data, data);
    rc = ts_run_cli(cmd, &out, &err);
    cr_assert_eq(rc, 0, "exit %d: %s%s", rc, out, err);
    cr_assert(!strstr(out, "on generated arguments"), "%s", out);
    free(out);
    free(err);
}
