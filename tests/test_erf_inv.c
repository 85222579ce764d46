/*
 * test_erf_inv.c — shardsim's f32 erf_inv, log, log1p and erf against
 * XLA's CPU backend bit for bit. tests/data/erf_inv/ holds jax.lax.erf_inv,
 * jax.lax.log, jax.lax.log1p and jax.lax.erf under jit for a sweep of float32 bit
 * patterns over the whole range, denser where the functions' branches
 * meet (written by tests/jax/make_erf_inv_vectors.py from JAX).
 *
 * Contract (sim/kernels/erf_inv.c, sim/kernels/xla_math.c): XLA's bits
 * for every input; a NaN result is any NaN (its payload is not
 * promised). The elementwise kernels' LOG, LOG1P and ERF use these functions,
 * so the test also runs them through ss__k_unary_f32.
 */
#include "support.h"
#include "kernels/kernels.h"
#include "kernels/xla_math.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_VALUES 70000

static int32_t bits_of(float f)
{
    int32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

/* Reads the (x, f(x)) pairs of tests/data/erf_inv/NAME into v. */
static size_t load(const char *name, float v[2 * MAX_VALUES])
{
    const char *dir = getenv("SS_TEST_DATA");
    cr_assert_not_null(dir, "SS_TEST_DATA is not set");
    char path[4096];
    snprintf(path, sizeof path, "%s/erf_inv/%s", dir, name);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    size_t n = fread(v, sizeof *v, 2 * MAX_VALUES, f) / 2;
    fclose(f);
    cr_assert_gt(n, 40000, "%s: %zu values", path, n);
    return n;
}

static bool same(float got, float want)
{
    return isnan(want) ? isnan(got) != 0 : bits_of(got) == bits_of(want);
}

/* Every pair of NAME equals fn (and the unary kernel op, if op >= 0). */
static void check_all(const char *name, float (*fn)(float), int op)
{
    static float v[2 * MAX_VALUES];
    size_t n = load(name, v), nan = 0;
    for (size_t i = 0; i < n; i++) {
        float x = v[2 * i], want = v[2 * i + 1], got = fn(x);
        cr_assert(same(got, want), "%s: f(%.9g = %a): shardsim %a, XLA %a", name, x, x, got,
                  want);
        if (op >= 0) {
            float k = ss__k_unary_f32((ss__k_unary_op)op, x);
            cr_assert(same(k, want), "%s: kernel(%a): %a, XLA %a", name, x, k, want);
        }
        nan += isnan(want) != 0;
    }
    fprintf(stderr, "%s: %zu values equal XLA's (%zu NaN)\n", name, n, nan);
}

Test(erf_inv, f32_equals_xla_cpu, .timeout = 60)
{
    check_all("f32_sweep.bin", ss__k_erf_inv_f32, SS__K_ERF_INV);
}

Test(erf_inv, f32_is_odd, .timeout = 60)
{
    static float v[2 * MAX_VALUES];
    size_t n = load("f32_sweep.bin", v);
    for (size_t i = 0; i < n; i++) {
        float x = v[2 * i], got = ss__k_erf_inv_f32(x);
        if (!isnan(got))
            cr_assert_eq(bits_of(ss__k_erf_inv_f32(-x)), bits_of(-got),
                         "erf_inv(-%a) is not -erf_inv(%a)", x, x);
    }
}

Test(xla_math, log_f32_equals_xla_cpu, .timeout = 60)
{
    check_all("log_f32_sweep.bin", ss__k_xla_logf, SS__K_LOG);
}

Test(xla_math, log1p_f32_equals_xla_cpu, .timeout = 60)
{
    check_all("log1p_f32_sweep.bin", ss__k_xla_log1pf, SS__K_LOG1P);
}

Test(xla_math, erf_f32_equals_xla_cpu, .timeout = 60)
{
    check_all("erf_f32_sweep.bin", ss__k_xla_erff, SS__K_ERF);
}

/* Where XLA's log and glibc's differ (1 ulp, measured on 0.7% of all f32
 * inputs): the test above would pass with libm too if the sweep missed
 * them all; it must not. */
Test(xla_math, sweep_reaches_where_libm_differs, .timeout = 60)
{
    static float v[2 * MAX_VALUES];
    size_t n = load("log_f32_sweep.bin", v), differ = 0;
    for (size_t i = 0; i < n; i++)
        differ += isnormal(v[2 * i]) && !same(logf(v[2 * i]), v[2 * i + 1]);
    fprintf(stderr, "log: libm's logf differs from XLA's on %zu of %zu values\n", differ, n);
    cr_assert_gt(differ, 10, "the log sweep never tells XLA's log from libm's");
}
