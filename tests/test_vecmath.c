/* test_vecmath.c — the vector expf and tanhf (sim/kernels/elementwise_vec.c)
 * give the host libm's bits: against expf and tanhf one value at a time
 * (the naive reference) on every 251st f32 bit pattern, on the edges of
 * every branch of the scalar code, on blocks of every length up to 17 in
 * place, and through the unary kernel for exp, tanh, gelu and logistic.
 * SS_VECMATH_SWEEP=1 sweeps all 2^32 inputs (about a minute each). Where
 * the path is off (no AVX2+FMA, another libm), the tests say so and skip. */
#include "support.h"

/* Internal on purpose: the vector paths are driven directly. */
#include "kernels/kernels_internal.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef bool (*vec_fn)(const float *, float *, int64_t);

static float from_bits(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

static uint32_t bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static bool same(float a, float b)
{
    return bits(a) == bits(b) || (a != a && b != b);
}

static void skip_if_off(vec_fn fn)
{
    float x = 0.5f, y;
    if (!fn(&x, &y, 1))
        cr_skip_test("the vector path is off on this machine (scalar libm used)");
}

/* Every stride-th bit pattern; returns the number of differences (and
 * reports the first few). */
static uint64_t sweep(vec_fn fn, float (*ref)(float), uint64_t stride)
{
    enum { N = 4096 };
    static float x[N], y[N];
    uint64_t bad = 0;
    for (uint64_t u = 0; u < (1ull << 32);) {
        int n = 0;
        for (; n < N && u < (1ull << 32); n++, u += stride)
            x[n] = from_bits((uint32_t)u);
        cr_assert(fn(x, y, n));
        for (int i = 0; i < n; i++) {
            float r = ref(x[i]);
            if (!same(r, y[i]) && bad++ < 5)
                cr_log_error("x = %a (0x%08x): libm %a, vector %a", (double)x[i], bits(x[i]),
                             (double)r, (double)y[i]);
        }
    }
    return bad;
}

static uint64_t sweep_stride(void)
{
    const char *e = getenv("SS_VECMATH_SWEEP");
    return e && strcmp(e, "1") == 0 ? 1 : 251;
}

Test(vecmath, exp_matches_libm_on_a_sweep)
{
    skip_if_off(ss__k_vec_exp);
    uint64_t bad = sweep(ss__k_vec_exp, expf, sweep_stride());
    cr_assert_eq(bad, 0, "%llu inputs differ from libm's expf", (unsigned long long)bad);
}

Test(vecmath, tanh_matches_libm_on_a_sweep)
{
    skip_if_off(ss__k_vec_tanh);
    uint64_t bad = sweep(ss__k_vec_tanh, tanhf, sweep_stride());
    cr_assert_eq(bad, 0, "%llu inputs differ from libm's tanhf", (unsigned long long)bad);
}

/* 64 neighbours on each side of each edge, both signs. */
static void check_edges(vec_fn fn, float (*ref)(float), const float *edges, int nedges)
{
    for (int e = 0; e < nedges; e++) {
        for (int sign = 0; sign < 2; sign++) {
            float x[129], y[129];
            uint32_t b = bits(fabsf(edges[e])) | (sign ? 0x80000000u : 0);
            for (int i = 0; i < 129; i++) {
                int64_t v = (int64_t)(b & 0x7fffffffu) + i - 64;
                if (v < 0)
                    v = 0;
                if (v > 0x7fffffff)
                    v = 0x7fffffff;
                x[i] = from_bits((uint32_t)v | (b & 0x80000000u));
            }
            cr_assert(fn(x, y, 129));
            for (int i = 0; i < 129; i++)
                cr_assert(same(ref(x[i]), y[i]), "x = %a: libm %a, vector %a", (double)x[i],
                          (double)ref(x[i]), (double)y[i]);
        }
    }
}

Test(vecmath, exp_edges)
{
    skip_if_off(ss__k_vec_exp);
    /* 0, subnormal inputs, the overflow and underflow thresholds, 88
     * (glibc's special-case test), infinity and NaN patterns */
    const float edges[] = {0.0f,         0x1p-149f,    0x1p-126f,   1.0f,      0x1.62e42ep6f,
                           0x1.9fe368p6f, 0x1.9d1d9ep6f, 88.0f,      INFINITY,  from_bits(0x7fc00000)};
    check_edges(ss__k_vec_exp, expf, edges, (int)(sizeof edges / sizeof edges[0]));
}

Test(vecmath, tanh_edges)
{
    skip_if_off(ss__k_vec_tanh);
    /* the branches of fdlibm's tanhf and of the expm1f it calls: 2^-55,
     * expm1f's 2^-25 and ln2/2 and 1.5 ln2 (at 2|x|), 1, 22, 27 ln2 / 2,
     * the k = 23 and k = 56 reductions, infinity, NaN */
    const float edges[] = {0.0f,          0x1p-55f,      0x1p-26f,     from_bits(0x3e317218),
                           from_bits(0x3f051592), 1.0f,  22.0f,        from_bits(0x4115b844),
                           23 * 0.6931472f / 2, 56 * 0.6931472f / 2, INFINITY, from_bits(0x7fc00000)};
    check_edges(ss__k_vec_tanh, tanhf, edges, (int)(sizeof edges / sizeof edges[0]));
}

Test(vecmath, every_short_length_in_place)
{
    skip_if_off(ss__k_vec_exp);
    for (int n = 0; n <= 17; n++) {
        float x[18], y[18], guard = 12345.0f;
        for (int i = 0; i < 18; i++)
            x[i] = (float)(i - 9) * 0.37f;
        memcpy(y, x, sizeof y);
        y[n] = guard;
        cr_assert(ss__k_vec_exp(y, y, n));
        for (int i = 0; i < n; i++)
            cr_assert(same(expf(x[i]), y[i]), "exp n=%d i=%d", n, i);
        cr_assert_eq(y[n], guard, "exp wrote past n=%d", n);
        memcpy(y, x, sizeof y);
        y[n] = guard;
        cr_assert(ss__k_vec_tanh(y, y, n));
        for (int i = 0; i < n; i++)
            cr_assert(same(tanhf(x[i]), y[i]), "tanh n=%d i=%d", n, i);
        cr_assert_eq(y[n], guard, "tanh wrote past n=%d", n);
    }
}

/* The unary kernel (which uses the vector paths for these four ops)
 * against its scalar definition, element by element. */
Test(vecmath, unary_kernel_matches_scalar_definition)
{
    enum { N = 3000 };
    static float x[N], y[N];
    uint32_t s = 12345;
    for (int i = 0; i < N; i++) {
        s = s * 1664525u + 1013904223u;
        x[i] = ((float)(s >> 8) / 16777216.0f - 0.5f) * (i % 3 == 0 ? 200.0f : 12.0f);
    }
    x[0] = INFINITY;
    x[1] = -INFINITY;
    x[2] = NAN;
    x[3] = -0.0f;
    const ss__k_unary_op ops[] = {SS__K_EXP, SS__K_TANH, SS__K_GELU, SS__K_LOGISTIC};
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        ss__tensor tx = {.dtype = SS_F32, .rank = 1, .shape = {N}, .data = x};
        ss__tensor ty = {.dtype = SS_F32, .rank = 1, .shape = {N}, .data = y};
        cr_assert_eq(ss__k_unary(ops[k], &tx, &ty), SS_OK);
        for (int i = 0; i < N; i++) {
            float r = ss__k_unary_f32(ops[k], x[i]);
            cr_assert(same(r, y[i]), "%s(%a): scalar %a, kernel %a", ss__k_unary_name(ops[k]),
                      (double)x[i], (double)r, (double)y[i]);
        }
    }
}
