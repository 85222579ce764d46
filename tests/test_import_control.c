/* test_import_control.c — the import of stablehlo.case and stablehlo.if
 * (import_case.c) and of sort comparators (import_sort.c) from small
 * hand-written modules, each run on the 8 devices of its mesh with given
 * inputs: results against the branch (or the order) computed here in C,
 * for every index including ones outside the branches (StableHLO runs the
 * last branch); a comparator that is not JAX's is refused by name. */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#define N 8

/* case(i) {x + y}, {x * y}, {x - y} and if(x0 > 0) {x * 2} else {y} on
 * tensor<8xf32> arguments; results (case, if). */
static const char *const case_module =
    "module @jit_f attributes {mhlo.num_partitions = 8 : i32} {\n"
    "  sdy.mesh @mesh = <[\"d\"=8]>\n"
    "  func.func public @main(%i: tensor<i32>, %x: tensor<8xf32> {sdy.sharding = "
    "#sdy.sharding<@mesh, [{\"d\"}]>}, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {\n"
    "    %0 = \"stablehlo.case\"(%i) ({\n"
    "      %a = stablehlo.add %x, %y : tensor<8xf32>\n"
    "      stablehlo.return %a : tensor<8xf32>\n"
    "    }, {\n"
    "      %m = stablehlo.multiply %x, %y : tensor<8xf32>\n"
    "      stablehlo.return %m : tensor<8xf32>\n"
    "    }, {\n"
    "      %s = stablehlo.subtract %x, %y : tensor<8xf32>\n"
    "      stablehlo.return %s : tensor<8xf32>\n"
    "    }) : (tensor<i32>) -> tensor<8xf32>\n"
    "    %x0 = stablehlo.slice %x [0:1] : (tensor<8xf32>) -> tensor<1xf32>\n"
    "    %x0s = stablehlo.reshape %x0 : (tensor<1xf32>) -> tensor<f32>\n"
    "    %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
    "    %p = stablehlo.compare GT, %x0s, %z, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
    "    %1 = \"stablehlo.if\"(%p) ({\n"
    "      %two = stablehlo.constant dense<2.0> : tensor<8xf32>\n"
    "      %d = stablehlo.multiply %x, %two : tensor<8xf32>\n"
    "      stablehlo.return %d : tensor<8xf32>\n"
    "    }, {\n"
    "      stablehlo.return %y : tensor<8xf32>\n"
    "    }) : (tensor<i1>) -> tensor<8xf32>\n"
    "    return %0, %1 : tensor<8xf32>, tensor<8xf32>\n"
    "  }\n"
    "}\n";

/* Load `text`, give input k the bytes in[k], run one step, and copy
 * result r into out[r] (N floats or ints each). */
static void run_module(const char *text, int nin, const void *const in[], const size_t bytes[],
                       int nout, void *out[])
{
    ss_scenario_options opts = {.keep_outputs = true};
    ss_scenario *sc = NULL;
    ss_scenario_error err;
    cr_assert_eq(ss_scenario_load_text("module.mlir", text, &opts, &sc, &err), SS_OK,
                 "%d:%d: %s", err.line, err.col, err.message);
    for (int k = 0; k < nin; k++)
        cr_assert_eq(ss_scenario_input_set(sc, k, in[k], bytes[k]), SS_OK, "%s",
                     ss_error_message());
    cr_assert_eq(ss_scenario_run(sc, &err), SS_OK, "%s", err.message);
    for (int r = 0; r < nout; r++) {
        const ss_array *a = ss_scenario_output_array(sc, r);
        cr_assert(a, "no result %d", r);
        cr_assert_eq(ss_array_get(a, out[r], N * 4), SS_OK, "%s", ss_error_message());
    }
    ss_scenario_free(sc);
}

Test(import_control, case_runs_the_indexed_branch_and_the_last_out_of_range)
{
    float x[N], y[N], got_case[N], got_if[N];
    for (int j = 0; j < N; j++)
        x[j] = 0.5f * (float)j - 1.25f, y[j] = 3.0f - 0.75f * (float)j;
    const int32_t idx[] = {0, 1, 2, 3, 7, -1};
    for (size_t t = 0; t < sizeof idx / sizeof *idx; t++) {
        for (int sign = 0; sign < 2; sign++) {
            x[0] = sign ? 1.5f : -1.5f;
            const void *in[3] = {&idx[t], x, y};
            const size_t bytes[3] = {4, sizeof x, sizeof y};
            void *out[2] = {got_case, got_if};
            run_module(case_module, 3, in, bytes, 2, out);
            int b = idx[t] >= 0 && idx[t] < 3 ? idx[t] : 2;
            for (int j = 0; j < N; j++) {
                float want = b == 0 ? x[j] + y[j] : b == 1 ? x[j] * y[j] : x[j] - y[j];
                cr_assert_eq(got_case[j], want, "index %d, element %d: %g, want %g", idx[t], j,
                             (double)got_case[j], (double)want);
                float want_if = x[0] > 0 ? x[j] * 2.0f : y[j];
                cr_assert_eq(got_if[j], want_if, "if, element %d: %g, want %g", j,
                             (double)got_if[j], (double)want_if);
            }
        }
    }
}

/* A sort of (keys, values) with the comparator `cmp` on the keys; the
 * template's %CMP% is replaced. */
static char *sort_module(const char *cmp)
{
    static const char *const tmpl =
        "module @jit_f attributes {mhlo.num_partitions = 8 : i32} {\n"
        "  sdy.mesh @mesh = <[\"d\"=8]>\n"
        "  func.func public @main(%k: tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, "
        "[{\"d\"}]>}, %v: tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>) {\n"
        "    %0:2 = \"stablehlo.sort\"(%k, %v) <{dimension = 0 : i64, is_stable = true}> ({\n"
        "    ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):\n"
        "      %r = stablehlo.compare %CMP%, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
        "      stablehlo.return %r : tensor<i1>\n"
        "    }) : (tensor<8xi32>, tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>)\n"
        "    return %0#0, %0#1 : tensor<8xi32>, tensor<8xi32>\n"
        "  }\n"
        "}\n";
    const char *at = strstr(tmpl, "%CMP%");
    size_t n = strlen(tmpl) + strlen(cmp) + 1;
    char *s = malloc(n);
    cr_assert(s);
    snprintf(s, n, "%.*s%s%s", (int)(at - tmpl), tmpl, cmp, at + 5);
    return s;
}

/* GT, and LT with the arguments swapped, sort descending; ties keep their
 * order (the values say which came first). */
Test(import_control, sort_comparators_ascending_and_descending)
{
    const int32_t k[N] = {3, -1, 3, 0, 7, -1, 0, 3}, v[N] = {0, 1, 2, 3, 4, 5, 6, 7};
    const char *const cmps[] = {"LT, %a, %b", "GT, %a, %b", "LT, %b, %a"};
    for (int c = 0; c < 3; c++) {
        bool desc = c > 0;
        char *text = sort_module(cmps[c]);
        int32_t gk[N], gv[N];
        const void *in[2] = {k, v};
        const size_t bytes[2] = {sizeof k, sizeof v};
        void *out[2] = {gk, gv};
        run_module(text, 2, in, bytes, 2, out);
        free(text);
        /* the reference: a stable selection of the next key in order */
        bool used[N] = {false};
        for (int j = 0; j < N; j++) {
            int best = -1;
            for (int i = 0; i < N; i++)
                if (!used[i] && (best < 0 || (desc ? k[i] > k[best] : k[i] < k[best])))
                    best = i;
            used[best] = true;
            cr_assert(gk[j] == k[best] && gv[j] == v[best],
                      "%s: position %d: (%d, %d), want (%d, %d)", cmps[c], j, gk[j], gv[j],
                      k[best], v[best]);
        }
    }
}

/* LE is no strict order JAX writes: refused, by name, at the sort. */
Test(import_control, other_comparators_are_refused)
{
    char *text = sort_module("LE, %a, %b");
    ss_scenario *sc = NULL;
    ss_scenario_error err;
    ss_status st = ss_scenario_load_text("module.mlir", text, NULL, &sc, &err);
    free(text);
    cr_assert_neq(st, SS_OK);
    cr_assert(strstr(err.message, "unsupported: a sort comparator other than JAX's"), "%s",
              err.message);
    cr_assert_eq(err.line, 4, "line %d", err.line);
}

/* reduce_window of x (tensor<8xf32>): window 3, stride 2, dilation 2,
 * padding (2, 1), by %OP% from init 0.5; and select_and_scatter of src
 * (tensor<6xf32>) over overlapping windows of 3, stride 1 (the first
 * maximum takes the value, added to init 0.25). */
static const char *const window_module =
    "module @jit_f attributes {mhlo.num_partitions = 8 : i32} {\n"
    "  sdy.mesh @mesh = <[\"d\"=8]>\n"
    "  func.func public @main(%x: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, "
    "[{\"d\"}]>}, %src: tensor<6xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<8xf32>) {\n"
    "    %i = stablehlo.constant dense<0.5> : tensor<f32>\n"
    "    %0 = \"stablehlo.reduce_window\"(%x, %i) <{padding = dense<[[2, 1]]> : tensor<1x2xi64>, "
    "window_dilations = array<i64: 2>, window_dimensions = array<i64: 3>, window_strides = "
    "array<i64: 2>}> ({\n"
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "      %s = stablehlo.add %a, %b : tensor<f32>\n"
    "      stablehlo.return %s : tensor<f32>\n"
    "    }) : (tensor<8xf32>, tensor<f32>) -> tensor<4xf32>\n"
    "    %1 = \"stablehlo.reduce_window\"(%x, %i) <{padding = dense<[[2, 1]]> : tensor<1x2xi64>, "
    "window_dilations = array<i64: 2>, window_dimensions = array<i64: 3>, window_strides = "
    "array<i64: 2>}> ({\n"
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "      %s = stablehlo.maximum %a, %b : tensor<f32>\n"
    "      stablehlo.return %s : tensor<f32>\n"
    "    }) : (tensor<8xf32>, tensor<f32>) -> tensor<4xf32>\n"
    "    %q = stablehlo.constant dense<0.25> : tensor<f32>\n"
    "    %2 = \"stablehlo.select_and_scatter\"(%x, %src, %q) <{window_dimensions = array<i64: 3>, "
    "window_strides = array<i64: 1>}> ({\n"
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "      %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
    "      stablehlo.return %c : tensor<i1>\n"
    "    }, {\n"
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "      %s = stablehlo.add %a, %b : tensor<f32>\n"
    "      stablehlo.return %s : tensor<f32>\n"
    "    }) : (tensor<8xf32>, tensor<6xf32>, tensor<f32>) -> tensor<8xf32>\n"
    "    return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<8xf32>\n"
    "  }\n"
    "}\n";

/* StableHLO's definitions, computed here: the operand padded with the init
 * value, each output from init through the window in order; for
 * select_and_scatter, the first position of each window that no later one
 * exceeds (select GE keeps the current one) gets the source value. */
Test(import_control, reduce_window_and_select_and_scatter_as_stablehlo_defines_them)
{
    const float x[8] = {1.5f, -2.0f, 3.0f, 3.0f, -0.5f, 2.5f, 2.5f, -4.0f};
    const float src[6] = {1.0f, 2.0f, 4.0f, 8.0f, 16.0f, 32.0f};
    float sum[8], mx[8], sas[8];
    const void *in[2] = {x, src};
    const size_t bytes[2] = {sizeof x, sizeof src};
    void *out[3] = {sum, mx, sas};
    run_module(window_module, 2, in, bytes, 3, out);
    for (int o = 0; o < 4; o++) {
        float s = 0.5f, m = 0.5f;
        for (int k = 0; k < 3; k++) {
            int at = o * 2 + k * 2 - 2;
            float v = at >= 0 && at < 8 ? x[at] : 0.5f;
            s += v;
            m = v > m ? v : m;
        }
        cr_assert_eq(sum[o], s, "sum %d: %g, want %g", o, (double)sum[o], (double)s);
        cr_assert_eq(mx[o], m, "max %d: %g, want %g", o, (double)mx[o], (double)m);
    }
    float want[8];
    for (int j = 0; j < 8; j++)
        want[j] = 0.25f;
    for (int o = 0; o < 6; o++) {
        int sel = o;
        for (int k = 1; k < 3; k++)
            if (!(x[sel] >= x[o + k]))
                sel = o + k;
        want[sel] += src[o];
    }
    for (int j = 0; j < 8; j++)
        cr_assert_eq(sas[j], want[j], "select_and_scatter %d: %g, want %g", j, (double)sas[j],
                     (double)want[j]);
}
