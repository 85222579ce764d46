/* test_import_arith.c — XLA CPU's arithmetic rewrites on imported modules
 * (graph/contract.c, front/stablehlo/import_arith.c): a multiply whose only
 * user is an add or subtract becomes one fused multiply-add, x / constant
 * becomes x * (1 / constant). Small hand-written modules run on the 8
 * devices of their mesh (the run is checked against the single-device
 * evaluation by the scenario itself); every result is compared bit for bit
 * with a naive reference computed here with fmaf / fma directly, or with
 * the plain ops where the pattern must not match. */
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N 64

#define T32 "tensor<64xf32>"
#define T64 "tensor<64xf64>"

static const char *const module =
    "module @jit_f attributes {mhlo.num_partitions = 8 : i32} {\n"
    "  sdy.mesh @mesh = <[\"d\"=8]>\n"
    "  func.func public @main(%a: " T32 " {sdy.sharding = #sdy.sharding<@mesh, [{\"d\"}]>},"
    " %b: " T32 ", %c: " T32 ", %x: " T64 ", %y: " T64 ", %z: " T64 ")"
    " -> (" T32 ", " T32 ", " T32 ", " T32 ", " T32 ", " T32 ", " T32 ", " T32 ", " T32
    ", " T32 ", " T32 ", " T64 ") {\n"
    /* 0..3: the four forms */
    "    %m0 = stablehlo.multiply %a, %b : " T32 "\n"
    "    %r0 = stablehlo.add %m0, %c : " T32 "\n"
    "    %m1 = stablehlo.multiply %a, %b : " T32 "\n"
    "    %r1 = stablehlo.add %c, %m1 : " T32 "\n"
    "    %m2 = stablehlo.multiply %a, %b : " T32 "\n"
    "    %r2 = stablehlo.subtract %m2, %c : " T32 "\n"
    "    %m3 = stablehlo.multiply %a, %b : " T32 "\n"
    "    %r3 = stablehlo.subtract %c, %m3 : " T32 "\n"
    /* 4, 5: a multiply with a second user stays a multiply */
    "    %m4 = stablehlo.multiply %a, %b : " T32 "\n"
    "    %r4 = stablehlo.add %m4, %c : " T32 "\n"
    "    %r5 = stablehlo.multiply %m4, %c : " T32 "\n"
    /* 6, 7: x / 3 as x * (1/3), then contracted into the add */
    "    %k3 = stablehlo.constant dense<3.0> : " T32 "\n"
    "    %r6 = stablehlo.divide %a, %k3 : " T32 "\n"
    "    %k = stablehlo.constant dense<3.0> : tensor<f32>\n"
    "    %kb = stablehlo.broadcast_in_dim %k, dims = [] : (tensor<f32>) -> " T32 "\n"
    "    %d7 = stablehlo.divide %a, %kb : " T32 "\n"
    "    %r7 = stablehlo.add %d7, %c : " T32 "\n"
    /* 8, 9: a multiply that is also a result is not contracted */
    "    %r8 = stablehlo.multiply %a, %c : " T32 "\n"
    "    %r9 = stablehlo.add %r8, %b : " T32 "\n"
    /* 10: a numerator of constants alone is folded (an exact division),
     * and the multiply of constants is no fma either */
    "    %i = stablehlo.constant dense<-2> : tensor<i32>\n"
    "    %f = stablehlo.convert %i : (tensor<i32>) -> tensor<f32>\n"
    "    %s = stablehlo.constant dense<1.41421354> : tensor<f32>\n"
    "    %q = stablehlo.divide %f, %s : tensor<f32>\n"
    "    %qq = stablehlo.multiply %q, %s : tensor<f32>\n"
    "    %qs = stablehlo.add %qq, %q : tensor<f32>\n"
    "    %qb = stablehlo.broadcast_in_dim %qs, dims = [] : (tensor<f32>) -> " T32 "\n"
    "    %r10 = stablehlo.add %a, %qb : " T32 "\n"
    /* 11: f64 */
    "    %m11 = stablehlo.multiply %x, %y : " T64 "\n"
    "    %r11 = stablehlo.add %m11, %z : " T64 "\n"
    "    return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11 : " T32 ", " T32
    ", " T32 ", " T32 ", " T32 ", " T32 ", " T32 ", " T32 ", " T32 ", " T32 ", " T32 ", " T64
    "\n"
    "  }\n"
    "}\n";

enum { NOUT = 12 };

static double uniform(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return (double)((*seed >> 8) % 200001) / 100000.0 - 1.0;
}

Test(import_arith, contraction_and_reciprocal_against_fmaf_and_the_plain_ops, .timeout = 60)
{
    float a[N], b[N], c[N], out[NOUT - 1][N];
    double x[N], y[N], z[N], out64[N];
    unsigned seed = 11;
    for (int j = 0; j < N; j++) {
        a[j] = (float)uniform(&seed), b[j] = (float)uniform(&seed), c[j] = (float)uniform(&seed);
        x[j] = uniform(&seed), y[j] = uniform(&seed), z[j] = uniform(&seed);
    }
    ss_scenario_options opts = {.keep_outputs = true};
    ss_scenario *sc = NULL;
    ss_scenario_error err;
    cr_assert_eq(ss_scenario_load_text("arith.mlir", module, &opts, &sc, &err), SS_OK,
                 "%d:%d: %s", err.line, err.col, err.message);
    const void *in[6] = {a, b, c, x, y, z};
    for (int k = 0; k < 6; k++)
        cr_assert_eq(ss_scenario_input_set(sc, k, in[k], k < 3 ? sizeof a : sizeof x), SS_OK,
                     "%s", ss_error_message());
    cr_assert_eq(ss_scenario_run(sc, &err), SS_OK, "%s", err.message);
    for (int r = 0; r < NOUT; r++) {
        const ss_array *arr = ss_scenario_output_array(sc, r);
        cr_assert(arr, "no result %d", r);
        void *dst = r < NOUT - 1 ? (void *)out[r] : (void *)out64;
        cr_assert_eq(ss_array_get(arr, dst, r < NOUT - 1 ? sizeof a : sizeof x), SS_OK, "%s",
                     ss_error_message());
    }
    ss_scenario_free(sc);

    /* the references; volatile keeps the compiler from contracting them */
    const float third = 1.0f / 3.0f;
    volatile float two = -2.0f, sq = 1.41421354f;
    volatile float q = two / sq, qq = q * sq;
    float qs = qq + q;
    int fma_differs = 0, recip_differs = 0;
    for (int j = 0; j < N; j++) {
        volatile float ab = a[j] * b[j], ac = a[j] * c[j], at = a[j] * third;
        float want[NOUT - 1] = {
            fmaf(a[j], b[j], c[j]), fmaf(a[j], b[j], c[j]), fmaf(a[j], b[j], -c[j]),
            fmaf(-a[j], b[j], c[j]), ab + c[j], ab * c[j], at, fmaf(a[j], third, c[j]),
            ac, ac + b[j], a[j] + qs};
        for (int r = 0; r < NOUT - 1; r++)
            cr_assert(memcmp(&out[r][j], &want[r], sizeof(float)) == 0,
                      "result %d [%d]: shardsim %a, reference %a", r, j, (double)out[r][j],
                      (double)want[r]);
        double w64 = fma(x[j], y[j], z[j]);
        cr_assert(memcmp(&out64[j], &w64, sizeof w64) == 0, "f64 [%d]: %a, reference %a", j,
                  out64[j], w64);
        fma_differs += want[0] != (float)(ab + c[j]);
        recip_differs += at != a[j] / 3.0f;
    }
    /* the inputs tell the rewrites from the plain ops */
    cr_assert(fma_differs > 0 && recip_differs > 0, "fma differs %d, reciprocal %d", fma_differs,
              recip_differs);
}
