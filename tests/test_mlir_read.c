/*
 * test_mlir_read.c — the reader of MLIR text (sim/front/stablehlo):
 * every file of the StableHLO conformance sample parses (or is refused for
 * a type shardsim does not take, case by case as listed here) and prints
 * back in generic form to text that parses to the same module, as does
 * every lowered JAX fixture (tests/data/jax), whose Shardy and GSPMD forms
 * lay out each @main argument and result on the same tiles; values of
 * dense constants against numbers worked out by hand from IEEE-754 and
 * two's complement; pretty forms against their generic spelling written
 * from the StableHLO spec; Shardy shardings against their GSPMD twins
 * (tiles per device); locations resolved to file:line and names; and
 * malformed text refused with one located line, never a crash.
 */
#include "base/base.h"
#include "front/stablehlo/mlir.h"
#include "support.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ------------------------------------------------------------------------ */

static ss__mlir_module *parse_ok(const char *text)
{
    ss__mlir_module *m = NULL;
    ss_status st = ss__mlir_parse(text, "t.mlir", &m);
    cr_assert_eq(st, SS_OK, "%s", ss_error_message());
    return m;
}

static char *print_of(const ss__mlir_module *m)
{
    char *out = NULL;
    TS_OK(ss__mlir_print(m, &out, NULL));
    return out;
}

/* print(parse(text)) must parse and print the same again. */
static char *round_trip(const char *text, const char *name)
{
    ss__mlir_module *m = NULL;
    cr_assert_eq(ss__mlir_parse(text, name, &m), SS_OK, "%s", ss_error_message());
    char *once = print_of(m);
    ss__mlir_module *m2 = NULL;
    cr_assert_eq(ss__mlir_parse(once, "printed", &m2), SS_OK, "%s: printed text: %s", name,
                 ss_error_message());
    char *twice = print_of(m2);
    cr_assert_str_eq(once, twice, "%s: print(parse(print(parse(x)))) differs", name);
    free(twice);
    ss__mlir_free(m2);
    ss__mlir_free(m);
    return once;
}

static const ss__mlir_op *func_op(const ss__mlir_module *m, const char *fn, int i)
{
    ss__mlir_func f;
    cr_assert(ss__mlir_func_find(m, fn, &f), "no function @%s", fn);
    cr_assert(f.body && i < f.body->nops, "@%s has no op %d", fn, i);
    return f.body->ops[i];
}

static const ss__mlir_attr *dense_of(const ss__mlir_module *m, int i)
{
    const ss__mlir_attr *v = ss__mlir_op_attr(func_op(m, "main", i), "value");
    cr_assert(v && v->kind == SS__MLIR_AT_DENSE);
    return v;
}

/* Text in a static buffer: a module whose @main holds `body`. */
static const char *in_main(const char *body)
{
    static char buf[8192];
    snprintf(buf, sizeof buf, "func.func @main() {\n%s\n  return\n}\n", body);
    return buf;
}

/* ---- every file of the conformance sample ------------------------------------------- */

/* Cases refused for their types (file, case number after splitting at
 * "// -----", words of the message). */
static const struct {
    const char *file;
    int part;
    const char *why;
} refused[] = {
    {"complex.mlir", 0, "'complex'"},       {"fft.mlir", 0, "'complex'"},
    {"fft.mlir", 1, "'complex'"},           {"fft.mlir", 2, "'complex'"},
    {"fft.mlir", 3, "'complex'"},           {"fft.mlir", 4, "'complex'"},
    {"fft.mlir", 5, "'complex'"},           {"fft.mlir", 6, "'complex'"},
    {"fft.mlir", 7, "'complex'"},           {"fft.mlir", 8, "'complex'"},
    {"fft.mlir", 9, "'complex'"},           {"fft.mlir", 10, "'complex'"},
    {"fft.mlir", 11, "'complex'"},          {"imag.mlir", 1, "'complex'"},
    {"printing.mlir", 1, "'i2'"},           {"printing.mlir", 2, "'complex'"},
    {"probe.mlir", 6, "'complex'"},         {"quantized_ops.mlir", 0, "'!quant.uniform'"},
    {"quantized_ops.mlir", 1, "'!quant.uniform'"}, {"quantized_ops.mlir", 2, "'!quant.uniform'"},
    {"quantized_ops.mlir", 3, "'!quant.uniform'"}, {"quantized_ops.mlir", 4, "'!quant.uniform'"},
    {"real.mlir", 1, "'complex'"},          {"triangular_solve.mlir", 24, "'complex'"},
    {"triangular_solve.mlir", 25, "'complex'"},
};

static const char *refusal(const char *file, int part)
{
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        if (strcmp(refused[i].file, file) == 0 && refused[i].part == part)
            return refused[i].why;
    return NULL;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Parse every .mlir file of tests/data/<dir>, split at `// -----` when
 * `split`; returns the number of cases, counts the refused ones. */
static int every_file(const char *dir, bool split, int *nrefused, int *nfiles)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", getenv("SS_TEST_DATA"), dir);
    DIR *d = opendir(path);
    cr_assert(d, "cannot open %s", path);
    char *names[512];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 512)
        if (strstr(e->d_name, ".mlir"))
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    int cases = 0;
    for (int i = 0; i < n; i++) {
        char rel[600];
        snprintf(rel, sizeof rel, "%s/%s", dir, names[i]);
        char *text = ts_read_data(rel);
        char *cur = text;
        for (int part = 0; cur; part++) {
            char *sep = split ? strstr(cur, "\n// -----") : NULL;
            if (sep)
                *sep = '\0';
            char label[700];
            snprintf(label, sizeof label, "%s#%d", rel, part);
            const char *why = refusal(names[i], part);
            ss__mlir_module *m = NULL;
            ss_status st = ss__mlir_parse(cur, rel, &m);
            if (why) {
                cr_assert_eq(st, SS_ERR_UNSUPPORTED, "%s should be refused for %s", label, why);
                cr_assert(strstr(ss_error_message(), why), "%s: %s", label, ss_error_message());
                cr_assert(strncmp(ss_error_message(), rel, strlen(rel)) == 0,
                          "%s: not located: %s", label, ss_error_message());
                (*nrefused)++;
            } else {
                cr_assert_eq(st, SS_OK, "%s: %s", label, ss_error_message());
                /* (probe.mlir's first case is an empty module.) */
                cr_assert(ss__mlir_func_count(m) >= 1 || !strstr(cur, "func.func"),
                          "%s: no function", label);
                ss__mlir_free(m);
                free(round_trip(cur, label));
            }
            cases++;
            cur = sep ? strchr(sep + 1, '\n') : NULL;
        }
        free(text);
        free(names[i]);
    }
    *nfiles = n;
    return cases;
}

Test(mlir_read, every_jax_testdata_file_parses_and_round_trips)
{
    int nrefused = 0, nfiles = 0;
    int cases = every_file("stablehlo/testdata", false, &nrefused, &nfiles);
    cr_assert_eq(nfiles, 167);
    cr_assert_eq(cases, 167);
    cr_assert_eq(nrefused, 0);
}

Test(mlir_read, every_interpreter_case_parses_or_is_refused_for_its_type)
{
    int nrefused = 0, nfiles = 0;
    int cases = every_file("stablehlo/interpret", true, &nrefused, &nfiles);
    cr_assert_eq(nfiles, 22);
    cr_assert_eq(nrefused, (int)(sizeof refused / sizeof refused[0]));
    cr_assert_eq(cases, 77, "%d cases (the files' `// -----` separators + 1 each)", cases);
}

/* ---- the JAX fixtures (tests/data/jax, lowered by tests/jax/make_fixtures.py) ---- */

static const ss__mlir_attr *arg_or_res_attr(const ss__mlir_func *f, bool res, int i, const char *name)
{
    const ss__mlir_attr *list = res ? f->res_attrs : f->arg_attrs;
    if (!list || list->kind != SS__MLIR_AT_ARRAY || i >= list->n)
        return NULL;
    return ss__mlir_dict_get(list->items[i], name);
}

/* Each value of @main laid out by the Shardy form and the GSPMD form of
 * one program: the same tiles on the same devices. Returns the values
 * compared. */
static int compare_twins(const char *dir)
{
    char rel[512];
    snprintf(rel, sizeof rel, "jax/%s/lowered.shardy.mlir", dir);
    char *st = ts_read_data(rel);
    snprintf(rel, sizeof rel, "jax/%s/lowered.gspmd.mlir", dir);
    char *gt = ts_read_data(rel);
    ss__mlir_module *sm = NULL, *gm = NULL;
    cr_assert_eq(ss__mlir_parse(st, dir, &sm), SS_OK, "%s", ss_error_message());
    cr_assert_eq(ss__mlir_parse(gt, dir, &gm), SS_OK, "%s", ss_error_message());
    ss__mlir_func sf, gf;
    cr_assert(ss__mlir_func_find(sm, "main", &sf) && ss__mlir_func_find(gm, "main", &gf), "%s", dir);
    cr_assert_eq(sf.type->n, gf.type->n, "%s: argument counts differ", dir);
    cr_assert_eq(sf.type->nres, gf.type->nres, "%s: result counts differ", dir);
    int compared = 0;
    for (int res = 0; res < 2; res++) {
        int n = res ? sf.type->nres : sf.type->n;
        for (int i = 0; i < n; i++) {
            const ss__mlir_attr *sh = arg_or_res_attr(&sf, res, i, "sdy.sharding");
            const ss__mlir_attr *gs = arg_or_res_attr(&gf, res, i, "mhlo.sharding");
            if (!sh || !gs)
                continue;
            cr_assert(sh->kind == SS__MLIR_AT_SDY_SHARDING && gs->kind == SS__MLIR_AT_STRING);
            ss__mlir_tiles a, b;
            TS_OK(ss__mlir_sdy_tiles(sh->sdy, sh->sdy->mesh, &a));
            const ss__mlir_type *t = res ? sf.type->res[i] : sf.type->items[i];
            TS_OK(ss__mlir_gspmd_tiles(gs->s, t->rank, a.ndevices, &b));
            cr_assert(ss__mlir_tiles_equal(&a, &b), "%s: %s %d: Shardy and %s differ", dir,
                      res ? "result" : "argument", i, gs->s);
            ss__mlir_tiles_free(&a);
            ss__mlir_tiles_free(&b);
            compared++;
        }
    }
    ss__mlir_free(sm);
    ss__mlir_free(gm);
    free(st);
    free(gt);
    return compared;
}

Test(mlir_read, every_jax_fixture_parses_and_its_twins_agree)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/jax", getenv("SS_TEST_DATA"));
    DIR *d = opendir(path);
    cr_assert(d, "cannot open %s", path);
    int programs = 0, files = 0, values = 0;
    struct dirent *e;
    static const char *const forms[] = {"lowered.shardy.mlir", "lowered.shardy.loc.mlir",
                                        "lowered.gspmd.mlir"};
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || strchr(e->d_name, '.'))
            continue;
        programs++;
        for (int k = 0; k < 3; k++) {
            char rel[512];
            snprintf(rel, sizeof rel, "jax/%s/%s", e->d_name, forms[k]);
            char *text = ts_read_data(rel);
            free(round_trip(text, rel));
            free(text);
            files++;
        }
        values += compare_twins(e->d_name);
    }
    closedir(d);
    cr_assert_geq(programs, 25, "%d programs", programs);
    cr_assert_eq(files, 3 * programs);
    cr_assert_gt(values, 2 * programs, "only %d shardings compared", values);
}

/* ---- dense constants ------------------------------------------------------------------- */

Test(mlir_read, hex_dense_equals_nested_list_f32)
{
    /* 1.0f = 0x3F800000, 2.0f = 0x40000000, 3.0f = 0x40400000,
     * -4.0f = 0xC0800000, stored little-endian. */
    ss__mlir_module *m = parse_ok(in_main(
        "  %0 = stablehlo.constant dense<\"0x0000803F0000004000004040000080C0\"> : tensor<2x2xf32>\n"
        "  %1 = stablehlo.constant dense<[[1.0, 2.0], [3.000000e+00, -4.0]]> : tensor<2x2xf32>"));
    const ss__mlir_attr *hex = dense_of(m, 0), *list = dense_of(m, 1);
    cr_assert_eq(hex->count, 4);
    cr_assert(!hex->splat && !list->splat);
    cr_assert_eq(memcmp(hex->data, list->data, 16), 0);
    const double want[4] = {1.0, 2.0, 3.0, -4.0};
    for (int i = 0; i < 4; i++)
        cr_assert_eq(ss__mlir_dense_f64(hex, i), want[i], "element %d", i);
    ss__mlir_free(m);
}

Test(mlir_read, bf16_hex_bytes_and_rounding)
{
    /* bf16 is the top half of an f32: 1.0 = 0x3F80, 2.0 = 0x4000,
     * -1.5 = 0xBFC0. 1 + 2^-8 lies halfway between 1.0 (0x3F80) and
     * 1 + 2^-7 (0x3F81): ties to even gives 0x3F80; 1 + 3*2^-8 lies between
     * 0x3F81 and 0x3F82: even is 0x3F82. */
    ss__mlir_module *m = parse_ok(in_main(
        "  %0 = stablehlo.constant dense<\"0x803F0040C0BF\"> : tensor<3xbf16>\n"
        "  %1 = stablehlo.constant dense<[1.0, 2.0, -1.5]> : tensor<3xbf16>\n"
        "  %2 = stablehlo.constant dense<[1.00390625, 1.01171875]> : tensor<2xbf16>\n"
        "  %3 = stablehlo.constant dense<0x7F80> : tensor<2xbf16>"));
    const ss__mlir_attr *hex = dense_of(m, 0), *list = dense_of(m, 1), *ties = dense_of(m, 2);
    const unsigned char bytes[6] = {0x80, 0x3F, 0x00, 0x40, 0xC0, 0xBF};
    cr_assert_eq(memcmp(hex->data, bytes, 6), 0);
    cr_assert_eq(memcmp(list->data, bytes, 6), 0);
    cr_assert_eq(ss__mlir_dense_f64(hex, 2), -1.5);
    const unsigned char tb[4] = {0x80, 0x3F, 0x82, 0x3F};
    cr_assert_eq(memcmp(ties->data, tb, 4), 0);
    const ss__mlir_attr *inf = dense_of(m, 3);
    cr_assert(inf->splat && inf->count == 2);
    cr_assert(isinf(ss__mlir_dense_f64(inf, 1)) && ss__mlir_dense_f64(inf, 1) > 0);
    ss__mlir_free(m);
}

Test(mlir_read, f16_f64_and_integer_elements)
{
    /* f16: 65504 = 0x7BFF (largest finite), 1/3 rounds to 0x3555,
     * 2^-24 = 0x0001 (smallest subnormal). f64 1.5 = 0x3FF8000000000000. */
    ss__mlir_module *m = parse_ok(in_main(
        "  %0 = stablehlo.constant dense<[65504.0, 0.333333333333, 5.9604644775390625E-8]> : tensor<3xf16>\n"
        "  %1 = stablehlo.constant dense<1.5> : tensor<f64>\n"
        "  %2 = stablehlo.constant dense<[-128, 127]> : tensor<2xi8>\n"
        "  %3 = stablehlo.constant dense<[4294967295, 0]> : tensor<2xui32>\n"
        "  %4 = stablehlo.constant dense<[true, false, true]> : tensor<3xi1>\n"
        "  %5 = stablehlo.constant dense<\"0x01000101\"> : tensor<4xi1>\n"
        "  %6 = stablehlo.constant dense<-9223372036854775808> : tensor<2x3xi64>\n"
        "  %7 = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
        "  %8 = stablehlo.constant dense<> : tensor<0x3xf32>"));
    const unsigned char f16[6] = {0xFF, 0x7B, 0x55, 0x35, 0x01, 0x00};
    cr_assert_eq(memcmp(dense_of(m, 0)->data, f16, 6), 0);
    const unsigned char f64[8] = {0, 0, 0, 0, 0, 0, 0xF8, 0x3F};
    cr_assert_eq(memcmp(dense_of(m, 1)->data, f64, 8), 0);
    cr_assert_eq(ss__mlir_dense_i64(dense_of(m, 2), 0), -128);
    cr_assert_eq(dense_of(m, 2)->data[0], 0x80);
    cr_assert_eq(ss__mlir_dense_i64(dense_of(m, 3), 0), 4294967295LL);
    cr_assert_eq(ss__mlir_dense_i64(dense_of(m, 4), 2), 1);
    cr_assert_eq(ss__mlir_dense_i64(dense_of(m, 4), 1), 0);
    const int64_t bits[4] = {1, 0, 1, 1};
    for (int i = 0; i < 4; i++)
        cr_assert_eq(ss__mlir_dense_i64(dense_of(m, 5), i), bits[i]);
    cr_assert(dense_of(m, 6)->splat && dense_of(m, 6)->count == 6);
    cr_assert_eq(ss__mlir_dense_i64(dense_of(m, 6), 5), INT64_MIN);
    cr_assert(isinf(ss__mlir_dense_f64(dense_of(m, 7), 0)) && ss__mlir_dense_f64(dense_of(m, 7), 0) < 0);
    cr_assert_eq(dense_of(m, 8)->count, 0);
    ss__mlir_free(m);
}

Test(mlir_read, real_file_hex_constant_matches_its_bytes)
{
    /* abs_int32_20_20.mlir's first input starts "FDFFFFFF00000000": -3, 0
     * as little-endian i32, and the file checks abs against @expected. */
    char *text = ts_read_data("stablehlo/testdata/abs_int32_20_20.mlir");
    ss__mlir_module *m = parse_ok(text);
    const ss__mlir_attr *v = ss__mlir_op_attr(func_op(m, "inputs", 0), "value");
    cr_assert(v && v->kind == SS__MLIR_AT_DENSE && v->count == 400);
    cr_assert_eq(ss__mlir_dense_i64(v, 0), -3);
    cr_assert_eq(ss__mlir_dense_i64(v, 1), 0);
    cr_assert_eq(v->type->rank, 2);
    cr_assert_eq(v->type->dims[0], 20);
    ss__mlir_free(m);
    free(text);
}

/* ---- pretty and generic forms ------------------------------------------------------------ */

Test(mlir_read, names_that_are_not_bare_identifiers_print_quoted)
{
    /* MLIR reads an attribute name as a bare identifier ([A-Za-z_][A-Za-z0-9_$.]*)
     * or a string, a symbol name with '-' too: the print must read back (two
     * fuzzing findings: 'x-' printed bare, 3e9000 printed as hex bits). */
    char *t = round_trip("\"m\"() {\"x-\", \"1a\" = 2, b.c$ = 3, s = @f-g} : () -> ()\n", "names");
    cr_assert(strstr(t, "\"x-\""), "%s", t);
    cr_assert(strstr(t, "\"1a\" = 2"), "%s", t);
    cr_assert(strstr(t, "b.c$ = 3"), "%s", t);
    cr_assert(strstr(t, "s = @f-g"), "%s", t);
    free(t);
}

Test(mlir_read, pretty_forms_equal_their_generic_spelling)
{
    /* The generic text is written from the StableHLO spec's attribute
     * names, independently of the pretty printer's. */
    const char *pretty =
        "func.func @main(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %i: tensor<4x2x3xf32>) -> tensor<2xf32> {\n"
        "  %0 = stablehlo.compare  LT, %a, %a,  FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>\n"
        "  %1 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, HIGHEST] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>\n"
        "  %2 = stablehlo.dot_general %i, %i, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<4x2x3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x2xf32>\n"
        "  %3 = stablehlo.broadcast_in_dim %a, dims = [1, 2] : (tensor<2x3xf32>) -> tensor<5x2x3xf32>\n"
        "  %4 = stablehlo.transpose %a, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
        "  %5 = stablehlo.iota dim = 0 : tensor<4xi32>\n"
        "  %6 = stablehlo.slice %a [0:2, 1:3:2] : (tensor<2x3xf32>) -> tensor<2x1xf32>\n"
        "  %7 = stablehlo.concatenate %a, %a, dim = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>\n"
        "  %c = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "  %8 = stablehlo.reduce(%a init: %c) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>\n"
        "  return %8 : tensor<2xf32>\n"
        "}\n";
    const char *generic =
        "\"func.func\"() <{function_type = (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4x2x3xf32>) -> tensor<2xf32>, sym_name = \"main\"}> ({\n"
        "^bb0(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %i: tensor<4x2x3xf32>):\n"
        "  %0 = \"stablehlo.compare\"(%a, %a) <{comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type FLOAT>}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>\n"
        "  %1 = \"stablehlo.dot_general\"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]}> : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>\n"
        "  %2 = \"stablehlo.dot_general\"(%i, %i) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2]>}> : (tensor<4x2x3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x2xf32>\n"
        "  %3 = \"stablehlo.broadcast_in_dim\"(%a) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<2x3xf32>) -> tensor<5x2x3xf32>\n"
        "  %4 = \"stablehlo.transpose\"(%a) <{permutation = array<i64: 1, 0>}> : (tensor<2x3xf32>) -> tensor<3x2xf32>\n"
        "  %5 = \"stablehlo.iota\"() <{iota_dimension = 0 : i64}> : () -> tensor<4xi32>\n"
        "  %6 = \"stablehlo.slice\"(%a) <{start_indices = array<i64: 0, 1>, limit_indices = array<i64: 2, 3>, strides = array<i64: 1, 2>}> : (tensor<2x3xf32>) -> tensor<2x1xf32>\n"
        "  %7 = \"stablehlo.concatenate\"(%a, %a) <{dimension = 0 : i64}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>\n"
        "  %c = \"stablehlo.constant\"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>\n"
        "  %8 = \"stablehlo.reduce\"(%a, %c) <{dimensions = array<i64: 1>}> ({\n"
        "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
        "    %s = \"stablehlo.add\"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
        "    \"stablehlo.return\"(%s) : (tensor<f32>) -> ()\n"
        "  }) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>\n"
        "  \"func.return\"(%8) : (tensor<2xf32>) -> ()\n"
        "}) : () -> ()\n";
    char *a = round_trip(pretty, "pretty");
    char *b = round_trip(generic, "generic");
    cr_assert_str_eq(a, b);
    free(a);
    free(b);
}

Test(mlir_read, reduce_region_form_and_while)
{
    const char *text =
        "func.func @main(%a: tensor<2x3xf32>) -> tensor<2xf32> {\n"
        "  %c = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
        "  %0 = stablehlo.reduce(%a init: %c) across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>\n"
        "   reducer(%x: tensor<f32>, %y: tensor<f32>)  {\n"
        "    %m = stablehlo.maximum %x, %y : tensor<f32>\n"
        "    stablehlo.return %m : tensor<f32>\n"
        "  }\n"
        "  %i = stablehlo.constant dense<0> : tensor<i64>\n"
        "  %1:2 = stablehlo.while(%it = %i, %v = %0) : tensor<i64>, tensor<2xf32>\n"
        "   cond {\n"
        "    %n = stablehlo.constant dense<3> : tensor<i64>\n"
        "    %p = stablehlo.compare  LT, %it, %n,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
        "    stablehlo.return %p : tensor<i1>\n"
        "  } do {\n"
        "    %one = stablehlo.constant dense<1> : tensor<i64>\n"
        "    %s = stablehlo.add %it, %one : tensor<i64>\n"
        "    stablehlo.return %s, %v : tensor<i64>, tensor<2xf32>\n"
        "  }\n"
        "  return %1#1 : tensor<2xf32>\n"
        "}\n";
    ss__mlir_module *m = parse_ok(text);
    const ss__mlir_op *red = func_op(m, "main", 1);
    cr_assert_str_eq(red->name, "stablehlo.reduce");
    cr_assert_eq(red->nregions, 1);
    cr_assert_eq(red->regions[0]->blocks[0]->nargs, 2);
    cr_assert_str_eq(red->regions[0]->blocks[0]->ops[0]->name, "stablehlo.maximum");
    /* argmin's two-input reduce: inputs first, then the init values. */
    char *argmin = ts_read_data("stablehlo/testdata/argmin_float32_4.mlir");
    ss__mlir_module *am = parse_ok(argmin);
    const ss__mlir_op *r2 = NULL;
    ss__mlir_func mf;
    cr_assert(ss__mlir_func_find(am, "argmin", &mf));
    for (int i = 0; i < mf.body->nops; i++)
        if (strcmp(mf.body->ops[i]->name, "stablehlo.reduce") == 0)
            r2 = mf.body->ops[i];
    cr_assert(r2 && r2->noperands == 4 && r2->nresults == 2);
    cr_assert_eq(r2->operands[0]->type->elem, SS__MLIR_F32);
    cr_assert_eq(r2->operands[0]->type->rank, 1);
    cr_assert_eq(r2->operands[1]->type->elem, SS__MLIR_I32);
    cr_assert_eq(r2->operands[2]->type->rank, 0, "the third operand is the first init value");
    cr_assert_eq(r2->regions[0]->blocks[0]->nargs, 4);
    ss__mlir_free(am);
    free(argmin);
    const ss__mlir_op *w = func_op(m, "main", 3);
    cr_assert_eq(w->nregions, 2);
    cr_assert_eq(w->nresults, 2);
    cr_assert_eq(w->regions[1]->blocks[0]->nargs, 2);
    const ss__mlir_op *ret = func_op(m, "main", 4);
    cr_assert_eq(ret->operands[0], w->results[1], "%%1#1 is the while's second result");
    ss__mlir_free(m);
    free(round_trip(text, "while"));
}

Test(mlir_read, generic_collective_with_region)
{
    const char *text =
        "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %0 = \"stablehlo.all_reduce\"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({\n"
        "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        "    %s = stablehlo.add %a, %b : tensor<f32>\n"
        "    stablehlo.return %s : tensor<f32>\n"
        "  }) : (tensor<4xf32>) -> tensor<4xf32>\n"
        "  %1:2 = \"stablehlo.sort\"(%0, %0) <{dimension = 0 : i64, is_stable = false}> ({\n"
        "  ^bb0(%p: tensor<f32>, %q: tensor<f32>, %r: tensor<f32>, %t: tensor<f32>):\n"
        "    %c = stablehlo.compare  GT, %p, %q,  TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
        "    stablehlo.return %c : tensor<i1>\n"
        "  }) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)\n"
        "  return %1#0 : tensor<4xf32>\n"
        "}\n";
    ss__mlir_module *m = parse_ok(text);
    const ss__mlir_op *ar = func_op(m, "main", 0);
    cr_assert(ar->generic);
    const ss__mlir_attr *ch = ss__mlir_op_attr(ar, "channel_handle");
    cr_assert(ch && ch->kind == SS__MLIR_AT_DIALECT);
    cr_assert_eq(ss__mlir_dict_get(ch, "handle")->i, 1);
    const ss__mlir_attr *rg = ss__mlir_op_attr(ar, "replica_groups");
    cr_assert_eq(rg->count, 4);
    cr_assert_eq(ss__mlir_dense_i64(rg, 2), 2);
    cr_assert_eq(ss__mlir_op_attr(ar, "use_global_device_ids")->kind, SS__MLIR_AT_UNIT);
    cr_assert_eq(ar->regions[0]->blocks[0]->nargs, 2);
    cr_assert_eq(func_op(m, "main", 1)->nresults, 2);
    ss__mlir_free(m);
    free(round_trip(text, "collective"));
}

/* ---- shardings ------------------------------------------------------------------------------ */

static const char *shardy_module =
    "module @jit_f attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {\n"
    "  sdy.mesh @mesh = <[\"x\"=2, \"y\"=4]> {stablehlo.mesh = {axes = [{name = \"x\", size = 2 : i64}]}}\n"
    "  sdy.mesh @flat = <[\"a\"=8]>\n"
    "  sdy.mesh @rev = <[\"r\"=4], device_ids=[3, 2, 1, 0]>\n"
    "  sdy.mesh @one = <[], device_ids=[5]>\n"
    "  func.func public @main(\n"
    "      %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {\"y\"}]>},\n"
    "      %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"y\"}, {}]>},\n"
    "      %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"y\", \"x\"}, {}]>},\n"
    "      %arg3: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {?}], replicated={\"x\"}>},\n"
    "      %arg4: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@flat, [{\"a\":(1)2}, {\"a\":(2)4}]>},\n"
    "      %arg5: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@flat, [{\"a\":(2)4}, {\"a\":(1)2}]>},\n"
    "      %arg6: tensor<8xf32> {sdy.sharding = #sdy.sharding<@rev, [{\"r\"}]>},\n"
    "      %arg7: tensor<8xf32> {sdy.sharding = #sdy.sharding<@one, [{}]>},\n"
    "      %arg8: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"x\", ?}p1, {\"y\"}p0]>})\n"
    "      -> (tensor<8x16xf32> {jax.result_info = \"\"}) {\n"
    "    %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {\"x\"}]> : tensor<8x16xf32>\n"
    "    return %0 : tensor<8x16xf32>\n"
    "  }\n"
    "}\n";

/* The same layouts in GSPMD's spelling, worked out by hand: device id =
 * x*4 + y on the 2x4 mesh; [{"y"}, {}] puts devices {i, 4+i} on tile i,
 * which is the iota [2,4] transposed. */
static const char *gspmd_twins[] = {
    "{devices=[2,4]<=[8]}",
    "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}",
    "{devices=[8,1]<=[2,4]T(1,0)}",
    "{replicated}",
    "{devices=[2,4]<=[8]}",
    "{devices=[4,2]<=[2,4]T(1,0)}",
    "{devices=[4]3,2,1,0}",
    "{maximal device=5}",
    "{devices=[2,4]<=[8]}",
};

Test(mlir_read, shardy_and_gspmd_twins_give_the_same_tiles)
{
    ss__mlir_module *m = parse_ok(shardy_module);
    cr_assert_str_eq(ss__mlir_module_name(m), "jit_f");
    cr_assert_eq(ss__mlir_mesh_count(m), 4);
    const ss__mlir_sdy_mesh *mesh = ss__mlir_mesh_find(m, "mesh");
    cr_assert(mesh && mesh->naxes == 2 && mesh->axis_sizes[1] == 4);
    cr_assert_str_eq(mesh->axis_names[1], "y");
    cr_assert(ss__mlir_mesh_find(m, "one")->maximal);
    ss__mlir_func f;
    cr_assert(ss__mlir_func_find(m, "main", &f));
    cr_assert(f.is_public);
    cr_assert_eq(f.type->n, 9);
    for (int i = 0; i < 9; i++) {
        const ss__mlir_attr *sh = ss__mlir_dict_get(f.arg_attrs->items[i], "sdy.sharding");
        cr_assert(sh && sh->kind == SS__MLIR_AT_SDY_SHARDING && sh->sdy->mesh, "arg %d", i);
        ss__mlir_tiles a, b;
        TS_OK(ss__mlir_sdy_tiles(sh->sdy, sh->sdy->mesh, &a));
        int ndev = (int)(sh->sdy->mesh->maximal ? 8 : a.ndevices);
        TS_OK(ss__mlir_gspmd_tiles(gspmd_twins[i], f.type->items[i]->rank, ndev, &b));
        cr_assert(ss__mlir_tiles_equal(&a, &b), "arg %d: %s", i, gspmd_twins[i]);
        /* Another layout must differ (the comparison can fail). */
        ss__mlir_tiles c;
        TS_OK(ss__mlir_gspmd_tiles(i == 0 ? "{devices=[2,4]<=[4,2]T(1,0)}" : "{devices=[2,4]<=[4,2]T(1,0)}",
                                   2, 8, &c));
        if (f.type->items[i]->rank == 2)
            cr_assert(!ss__mlir_tiles_equal(&a, &c), "arg %d equals a transposed layout", i);
        ss__mlir_tiles_free(&a);
        ss__mlir_tiles_free(&b);
        ss__mlir_tiles_free(&c);
    }
    /* Open dims and priorities are kept. */
    const ss__mlir_sdy_sharding *s8 =
        ss__mlir_dict_get(f.arg_attrs->items[8], "sdy.sharding")->sdy;
    cr_assert(s8->dims[0].open && s8->dims[0].priority == 1 && s8->dims[1].priority == 0);
    const ss__mlir_sdy_sharding *s3 =
        ss__mlir_dict_get(f.arg_attrs->items[3], "sdy.sharding")->sdy;
    cr_assert(s3->dims[1].open && s3->nreplicated == 1);
    const ss__mlir_attr *c = ss__mlir_op_attr(f.body->ops[0], "sharding");
    cr_assert(c && c->kind == SS__MLIR_AT_SDY_SHARDING && c->sdy->dims[1].naxes == 1);
    ss__mlir_free(m);
    free(round_trip(shardy_module, "shardy"));
}

Test(mlir_read, gspmd_module_and_frontend_attribute_strings)
{
    const char *text =
        "module @jit_f attributes {mhlo.frontend_attributes = {xla.sdy.meshes = "
        "\"{mesh = #sdy.mesh<[\\22x\\22=2, \\22y\\22=4]>}\"}, mhlo.num_partitions = 8 : i32} {\n"
        "  func.func public @main(%arg0: tensor<8x16xf32> {mhlo.sharding = \"{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}\", "
        "mhlo.frontend_attributes = {xla.sdy.sharding = \"#sdy.sharding<@mesh, [{\\22y\\22}, {}]>\"}}) -> tensor<8x16xf32> {\n"
        "    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = \"{devices=[2,4]<=[8]}\"} : (tensor<8x16xf32>) -> tensor<8x16xf32>\n"
        "    return %0 : tensor<8x16xf32>\n"
        "  }\n"
        "}\n";
    ss__mlir_module *m = parse_ok(text);
    ss__mlir_func f;
    cr_assert(ss__mlir_func_find(m, "main", &f));
    const ss__mlir_attr *gs = ss__mlir_dict_get(f.arg_attrs->items[0], "mhlo.sharding");
    cr_assert(gs && gs->kind == SS__MLIR_AT_STRING);
    const ss__mlir_attr *fa = ss__mlir_dict_get(f.arg_attrs->items[0], "mhlo.frontend_attributes");
    const ss__mlir_attr *ss = ss__mlir_dict_get(fa, "xla.sdy.sharding");
    cr_assert_str_eq(ss->s, "#sdy.sharding<@mesh, [{\"y\"}, {}]>");
    const ss__mlir_attr *mfa = ss__mlir_op_attr(ss__mlir_module_op(m), "mhlo.frontend_attributes");
    const ss__mlir_attr *meshes_text = ss__mlir_dict_get(mfa, "xla.sdy.meshes");
    const ss__mlir_attr *meshes, *sh;
    TS_OK(ss__mlir_attr_parse_text(m, meshes_text->s, &meshes));
    TS_OK(ss__mlir_attr_parse_text(m, ss->s, &sh));
    const ss__mlir_attr *mesh = ss__mlir_dict_get(meshes, sh->sdy->mesh_name);
    cr_assert(mesh && mesh->kind == SS__MLIR_AT_SDY_MESH);
    ss__mlir_tiles a, b;
    TS_OK(ss__mlir_sdy_tiles(sh->sdy, mesh->mesh, &a));
    TS_OK(ss__mlir_gspmd_tiles(gs->s, 2, 8, &b));
    cr_assert(ss__mlir_tiles_equal(&a, &b));
    ss__mlir_tiles_free(&a);
    ss__mlir_tiles_free(&b);
    const ss__mlir_op *cc = f.body->ops[0];
    cr_assert_str_eq(ss__mlir_op_attr(cc, "call_target_name")->s, "Sharding");
    ss__mlir_free(m);
    free(round_trip(text, "gspmd"));
}

/* ---- locations ---------------------------------------------------------------------------------- */

Test(mlir_read, locations_resolve_to_the_user_line)
{
    const char *text =
        "#loc1 = loc(\"x\")\n"
        "module @jit_f {\n"
        "  func.func public @main(%arg0: tensor<4xf32> loc(\"x\")) -> tensor<4xf32> {\n"
        "    %0 = stablehlo.sine %arg0 : tensor<4xf32> loc(#loc7)\n"
        "    %1 = stablehlo.cosine %0 : tensor<4xf32> loc(fused[\"a.py\":1:2, \"b.py\":3:4])\n"
        "    %2 = stablehlo.negate %1 : tensor<4xf32> loc(#loc1)\n"
        "    return %2 : tensor<4xf32> loc(#loc)\n"
        "  } loc(#loc)\n"
        "} loc(#loc)\n"
        "#loc = loc(unknown)\n"
        "#loc2 = loc(\"/home/u/model.py\":12:10 to :18)\n"
        "#loc3 = loc(\"/home/u/train.py\":20:4)\n"
        "#loc4 = loc(\"layer\"(#loc2))\n"
        "#loc5 = loc(\"main\"(#loc3))\n"
        "#loc6 = loc(callsite(#loc4 at #loc5))\n"
        "#loc7 = loc(\"jit(f)/jit(main)/sin\"(#loc6))\n";
    ss__mlir_module *m = parse_ok(text);
    ss__mlir_where w;
    ss__mlir_loc_resolve(func_op(m, "main", 0)->loc, &w);
    cr_assert_str_eq(w.file, "/home/u/model.py");
    cr_assert_eq(w.line, 12);
    cr_assert_eq(w.col, 10);
    cr_assert_str_eq(w.callee, "layer");
    cr_assert_str_eq(w.op_name, "jit(f)/jit(main)/sin");
    ss__mlir_where fr[4];
    cr_assert_eq(ss__mlir_loc_frames(func_op(m, "main", 0)->loc, fr, 4), 2);
    cr_assert_str_eq(fr[0].file, "/home/u/model.py");
    cr_assert_str_eq(fr[0].callee, "layer");
    cr_assert_str_eq(fr[1].file, "/home/u/train.py");
    cr_assert_eq(fr[1].line, 20);
    cr_assert_str_eq(fr[1].callee, "main");
    ss__mlir_loc_resolve(func_op(m, "main", 1)->loc, &w);
    cr_assert_str_eq(w.file, "a.py");
    cr_assert_eq(w.line, 1);
    ss__mlir_loc_resolve(func_op(m, "main", 2)->loc, &w);
    cr_assert_null(w.file);
    cr_assert_str_eq(w.op_name, "x");
    ss__mlir_func f;
    ss__mlir_func_find(m, "main", &f);
    ss__mlir_loc_resolve(f.body->args[0]->loc, &w);
    cr_assert_str_eq(w.op_name, "x");
    ss__mlir_free(m);
    free(round_trip(text, "locations"));
}

/* ---- malformed text ------------------------------------------------------------------------------ */

static void refuse(const char *text, const char *where, const char *words)
{
    ss__mlir_module *m = NULL;
    ss_status st = ss__mlir_parse(text, "t.mlir", &m);
    cr_assert_neq(st, SS_OK, "accepted: %s", text);
    cr_assert_null(m);
    const char *msg = ss_error_message();
    cr_assert(strncmp(msg, where, strlen(where)) == 0, "wanted %s, got: %s (text: %s)", where, msg,
              text);
    cr_assert(strstr(msg, words), "wanted '%s' in: %s", words, msg);
    cr_assert_null(strchr(msg, '\n'), "more than one line: %s", msg);
}

Test(mlir_read, malformed_text_gives_a_located_error)
{
    refuse("func.func @f() {\n  %0 = stablehlo.add %1, %1 : tensor<f32>\n  return\n}",
           "t.mlir:2:22:", "undefined value '%1'");
    refuse("func.func @f(%a: tensor<?xf32>) {\n  return\n}", "t.mlir:1:25:", "dynamic dimension");
    refuse("func.func @f(%a: tensor<*xf32>) {\n  return\n}", "t.mlir:1:25:", "unranked");
    refuse("func.func @f(%a: tensor<4xcomplex<f32>>) {\n  return\n}", "t.mlir:1:27:", "complex");
    refuse(in_main("  %0 = stablehlo.constant dense<[1.0, 2.0]> : tensor<3xf32>"), "t.mlir:2:",
           "has 2 elements, the type says 3");
    refuse(in_main("  %0 = stablehlo.constant dense<\"0x0000803F00\"> : tensor<2xf32>"), "t.mlir:2:",
           "holds 5 bytes");
    refuse(in_main("  %0 = stablehlo.constant dense<\"0x0G\"> : tensor<i8>"), "t.mlir:2:", "non-hex");
    refuse(in_main("  %0 = stablehlo.constant dense<300> : tensor<i8>"), "t.mlir:2:33:",
           "300 is not a value of i8");
    refuse(in_main("  %0 = stablehlo.constant dense<2> : tensor<i1>"), "t.mlir:2:", "not a value of i1");
    refuse(in_main("  %0 = stablehlo.constant dense<1.5> : tensor<i32>"), "t.mlir:2:", "not a value of i32");
    refuse(in_main("  %0 = stablehlo.constant dense<[[1], [2]]> : tensor<2xi32>"), "t.mlir:2:",
           "expected a number");
    refuse("func.func @f() {\n  %0 = stablehlo.constant dense<1.0> : tensor<f32>\n"
           "  %0 = stablehlo.constant dense<1.0> : tensor<f32>\n  return\n}",
           "t.mlir:", "redefinition of value '%0'");
    refuse("func.func @f() {\n  %s = \"stablehlo.string\"() {s = \"abc} : () -> ()\n  return\n}",
           "t.mlir:2:", "unterminated string");
    refuse("func.func @f() {\n  %s = \"x.y\"() {s = \"a\\qb\"} : () -> ()\n  return\n}", "t.mlir:2:",
           "unknown escape");
    refuse("func.func @f(%a: tensor<f32>) {\n  %0 = \"stablehlo.abs\"(%a) : (tensor<i32>) -> tensor<f32>\n  return\n}",
           "t.mlir:2:", "does not have the type");
    refuse("func.func @f(%a: tensor<f32>) {\n  %0, %1 = \"stablehlo.abs\"(%a) : (tensor<f32>) -> tensor<f32>\n  return\n}",
           "t.mlir:2:3:", "has 1 results, 2 names");
    refuse("func.func @f() {\n  return\n", "t.mlir:3:1:", "expected '}'");
    refuse("func.func @f() {\n  return loc(#loc9)\n}", "t.mlir:2:14:", "undefined location alias '#loc9'");
    refuse("#a = loc(\"n\"(#b))\n#b = loc(#a)\n", "t.mlir:", "cycle");
    refuse("module {\n  func.func @f(%a: tensor<4xf32> {sdy.sharding = #sdy.sharding<@nomesh, [{\"x\"}]>}) {\n"
           "    return\n  }\n}", "t.mlir:2:3:", "undefined mesh @nomesh");
    refuse("sdy.mesh @m = <[\"x\"=2, \"x\"=4]>", "t.mlir:1:", "given twice");
    refuse("sdy.mesh @m = <[\"x\"=4], device_ids=[0, 1, 1, 2]>", "t.mlir:1:", "repeated");
    refuse("sdy.mesh @m = <[\"x\"=4], device_ids=[0, 1]>", "t.mlir:1:", "lists 2 devices");
    refuse(in_main("  %0 = stablehlo.compare  XX, %a, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>"),
           "t.mlir:2:", "undefined value");
    refuse("func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.compare  XX, %a, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>\n  return\n}",
           "t.mlir:2:8:", "comparison direction");
    refuse("func.func @f() {\n  %0 = stablehlo.iota dim = 0 : tensor<4xi32>, tensor<4xi32>\n  return\n}",
           "t.mlir:2:8:", "1 results named, 0 result types");
    refuse("func.func @f() {\n  \"x.y\"() [^bb1] : () -> ()\n  return\n}", "t.mlir:2:11:", "successor");
    refuse("func.func @f() {\n  %0 = stablehlo.constant dense<1> : tensor<i32> loc(\"a\":x)\n  return\n}",
           "t.mlir:2:", "expected an integer");
    refuse("func.func @f() -> tensor<4xf32> {\n  return\n}\nfunc.func @f() {\n  return\n}", "t.mlir:4:1:",
           "defined before");
    refuse("func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.convert %a : (tensor<i32>) -> tensor<f32>\n  return\n}",
           "t.mlir:2:8:", "operand 0 of 'stablehlo.convert' does not have the type");
    refuse("func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.add %a, %a : (tensor<f32>) -> tensor<f32>\n  return\n}",
           "t.mlir:2:8:", "has 2 operands, its type lists 1");
    refuse("}", "t.mlir:1:1:", "unexpected '}'");
    refuse("\"a.b\"(", "t.mlir:1:7:", "expected '%' and a name");
    refuse("#x = ", "t.mlir:1:6:", "expected an attribute");
    /* An overflowing decimal is no f64: kept as infinity, it would print as
     * hex bits that read back as an integer (a fuzzing finding). */
    refuse("\"a.b\"() {v = [1.5, 3e9000]} : () -> ()", "t.mlir:1:20:", "3e9000 is out of the range of f64");
    refuse(in_main("  %0 = stablehlo.constant dense<-1e400> : tensor<f64>"), "t.mlir:2:", "out of the range");
}

Test(mlir_read, an_op_may_have_hundreds_of_results)
{
    /* A while loop over a model's parameters and optimizer state carries
     * hundreds of values; the names may come one by one or as a pack. */
    ss__buf b;
    ss__buf_init(&b);
    ss__buf_puts(&b, "\"x.many\"() ({\n  %p:150 = \"x.a\"() : () -> (");
    for (int i = 0; i < 150; i++)
        ss__buf_printf(&b, "%si32", i ? ", " : "");
    ss__buf_puts(&b, ")\n  ");
    for (int i = 0; i < 150; i++)
        ss__buf_printf(&b, "%s%%r%d", i ? ", " : "", i);
    ss__buf_puts(&b, " = \"x.b\"(%p#149) : (i32) -> (");
    for (int i = 0; i < 150; i++)
        ss__buf_printf(&b, "%si32", i ? ", " : "");
    ss__buf_puts(&b, ")\n  \"x.c\"(%r149, %p#0) : (i32, i32) -> ()\n}) : () -> ()\n");
    char *t = round_trip(b.data, "many");
    cr_assert(strstr(t, "%299"), "%s", t);
    free(t);
    ss__buf_free(&b);
    refuse("%a:70000 = \"x.a\"() : () -> ()", "t.mlir:1:", "result count out of range");
}

Test(mlir_read, deep_nesting_is_refused_not_recursed)
{
    char *text = malloc(200000);
    cr_assert(text);
    strcpy(text, "#a = ");
    size_t n = strlen(text);
    for (int i = 0; i < 50000; i++)
        text[n++] = '[';
    text[n] = '\0';
    refuse(text, "t.mlir:1:", "nesting deeper than 64");
    /* Regions: 100 nested generic ops. */
    strcpy(text, "func.func @f() {\n");
    for (int i = 0; i < 100; i++)
        strcat(text, "\"x.y\"() ({\n");
    refuse(text, "t.mlir:", "nesting deeper than 64");
    strcpy(text, "func.func @f() {\n  %0 = stablehlo.constant dense<1> : tensor<");
    for (int i = 0; i < 20; i++)
        strcat(text, "1x");
    strcat(text, "i32>\n  return\n}");
    refuse(text, "t.mlir:2:", "more than 16 dimensions");
    free(text);
}

Test(mlir_read, every_prefix_of_a_real_file_is_handled)
{
    /* Cut a real module at every byte: each prefix parses or is refused
     * with a located one-line message (the sanitizer runs find crashes). */
    char *text = ts_read_data("stablehlo/testdata/top_k_bool_5_3_chlo.mlir");
    size_t len = strlen(text);
    int ok = 0;
    for (size_t cut = 0; cut < len; cut++) {
        char save = text[cut];
        text[cut] = '\0';
        ss__mlir_module *m = NULL;
        ss_status st = ss__mlir_parse(text, "cut.mlir", &m);
        if (st == SS_OK) {
            ok++;
            ss__mlir_free(m);
        } else {
            cr_assert(st == SS_ERR_PARSE || st == SS_ERR_UNSUPPORTED, "cut %zu: %s", cut,
                      ss_status_name(st));
            cr_assert(strncmp(ss_error_message(), "cut.mlir:", 9) == 0, "cut %zu: %s", cut,
                      ss_error_message());
            cr_assert_null(strchr(ss_error_message(), '\n'));
        }
        text[cut] = save;
    }
    cr_assert_gt(ok, 0, "some prefixes (ending after a whole op) parse");
    free(text);
}
