/*
 * test_erf_inv.c — shardsim's f32 erf_inv kernel against XLA's CPU
 * backend bit for bit: tests/data/erf_inv/f32_sweep.bin holds
 * jax.lax.erf_inv under jit for every 16411th float32 bit pattern in
 * [0, 1] (written by tests/jax/make_erf_inv_vectors.py).
 *
 * Contract (sim/kernels/erf_inv.c): inputs whose -x*x takes XLA's rational
 * log1p branch (|x| < 0.6436), subnormals and +-1 give XLA's bits exactly;
 * above, log1p goes through libm's logf rather than XLA's log, so a few
 * values may differ, by at most 4 ulps, and no more of them than the
 * count measured when the kernel was written (the test prints it).
 */
#include "support.h"
#include "kernels/kernels.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int32_t bits_of(float f)
{
    int32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

Test(erf_inv, f32_equals_xla_cpu, .timeout = 60)
{
    const char *dir = getenv("SS_TEST_DATA");
    cr_assert_not_null(dir, "SS_TEST_DATA is not set");
    char path[4096];
    snprintf(path, sizeof path, "%s/erf_inv/f32_sweep.bin", dir);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    static float v[2 * 70000];
    size_t n = fread(v, sizeof *v, sizeof v / sizeof *v, f) / 2;
    fclose(f);
    cr_assert_gt(n, 60000, "%s: %zu values", path, n);
    size_t differ = 0, exact_range = 0;
    for (size_t i = 0; i < n; i++) {
        float x = v[2 * i], want = v[2 * i + 1], got = ss__k_erf_inv_f32(x);
        float neg = ss__k_erf_inv_f32(-x);
        cr_assert_eq(bits_of(neg), bits_of(-got), "erf_inv(-%a) is not -erf_inv(%a)", x, x);
        if (bits_of(got) == bits_of(want))
            continue;
        cr_assert(fabsf(x) >= 0.6436f && fabsf(x) < 1.0f && isnormal(x),
                  "erf_inv(%.9g = %a): shardsim %a, XLA %a (must be equal here)", x, x, got,
                  want);
        cr_assert_leq(llabs((long long)bits_of(got) - bits_of(want)), 4,
                      "erf_inv(%.9g): shardsim %a, XLA %a", x, got, want);
        differ++;
    }
    for (size_t i = 0; i < n; i++)
        exact_range += fabsf(v[2 * i]) >= 0.6436f;
    fprintf(stderr, "erf_inv f32: %zu of %zu values differ from XLA's (%zu with |x| >= 0.6436)\n",
            differ, n, exact_range);
    cr_assert_leq(differ, 3, "%zu values differ (3 measured)", differ);
}
