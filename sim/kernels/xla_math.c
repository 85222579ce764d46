/*
 * xla_math.c — f32 log, log1p and erf with the bits of XLA's CPU backend.
 *
 * What XLA computes was read off the LLVM IR that the pinned jaxlib
 * (0.10.2) emits for jax.jit of jnp.log, jnp.log1p and lax.erf on CPU
 * (XLA_FLAGS=--xla_dump_to=DIR, files *.ir-with-opt.ll), and checked
 * against JAX on all 2^32 f32 inputs when this was written
 * (tests/jax/make_erf_inv_vectors.py writes a sweep of them;
 * tests/test_erf_inv.c checks it):
 *
 *  - log: Cephes' single-precision logf (S. L. Moshier, Cephes Math
 *    Library, logf.c) in the arrangement of Eigen's plog_float: the
 *    argument split as x = m * 2^e with m in [0.5, 1) (inputs at or below
 *    FLT_MIN read as FLT_MIN, zero and infinities patched afterwards); if
 *    m < sqrt(1/2), m <- 2m and e <- e - 1; with t = m - 1 the degree-8
 *    polynomial P(t) of Cephes is evaluated in three interleaved Horner
 *    pieces of degree 2 joined by t^3, and the result is
 *    ((t - t^2/2) + (t^3 P(t) + e * q1)) + e * q2, ln 2 = q2 + q1 split
 *    as Cephes splits it (0.693359375 and -2.12194440e-4).
 *  - XLA compiles with LLVM's FPOpFusion::Fast, so on a machine with FMA
 *    each multiply whose only user is an add or subtract becomes one
 *    fused multiply-add; the fmaf calls below are exactly those.
 *  - XLA's CPU runs with FTZ and DAZ: a subnormal input reads as zero.
 *  - log1p: XLA's elemental emitter's rational function for
 *    |x| < sqrt(2) - 1 (Cephes' log1p coefficients, numerator and
 *    denominator of degree 6, as sim/kernels/erf_inv.c states), else
 *    log(1 + x) with the log above.
 *  - erf: XLA's CPU intrinsic erf, the rational interpolant of Eigen's
 *    generic_fast_erf_float: for |x| >= 3.832506856900711 (erfinv of
 *    1 - 2^-23) the result is copysign(1, x); else x P(x^2) / Q(x^2) with
 *    P of degree 4 (odd coefficients alpha_1..alpha_9 of the numerator)
 *    and Q of degree 6 (beta_0..beta_12), each Horner step one explicit
 *    fused multiply-add, the final multiply by x and the division plain.
 *    The coefficients below are the f32 values the IR holds.
 *
 * The result does not depend on the vector width XLA picks: every lane
 * runs the same operations. Without hardware FMA, fmaf is libm's
 * correctly rounded software version: the same bits, only slower.
 */
#include "xla_math.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Cephes logf.c's polynomial, highest degree first (their decimal values;
 * in f32 they are 0x3d9021bb, 0xbdebd1b8, 0x3def251a, 0xbdfe5d4f,
 * 0x3e11e9bf, 0xbe2aae50, 0x3e4cceac, 0xbe7ffffc, 0x3eaaaaaa). */
static const float log_p[9] = {7.0376836292E-2f,  -1.1514610310E-1f, 1.1676998740E-1f,
                               -1.2420140846E-1f, 1.4249322787E-1f,  -1.6668057665E-1f,
                               2.0000714765E-1f,  -2.4999993993E-1f, 3.3333331174E-1f};
static const float log_q1 = -2.12194440E-4f, log_q2 = 0.693359375f;
static const float sqrt_half = 0.707106781186547524f;

/* XLA's log1p rational (Cephes' log1p, as xla/service/elemental_ir_emitter.cc
 * lists it), highest degree first. */
static const float log1p_num[7] = {
    (float)4.5270000862445199635215E-5, (float)4.9854102823193375972212E-1,
    (float)6.5787325942061044846969E0,  (float)2.9911919328553073277375E1,
    (float)6.0949667980987787057556E1,  (float)5.7112963590585538103336E1,
    (float)2.0039553499201281259648E1};
static const float log1p_den[7] = {
    1.0f, (float)1.5062909083469192043167E1, (float)8.3047565967967209469434E1,
    (float)2.2176239823732856465394E2, (float)3.0909872225312059774938E2,
    (float)2.1642788614495947685003E2, (float)6.0118660497603843919306E1};

/* Eigen's erf coefficients in f32, highest degree first: the numerator's
 * alpha_9, alpha_7, ..., alpha_1 and the denominator's beta_12, ...,
 * beta_2, beta_0 = 1. */
static const float erf_num[5] = {0x1.e05aa2p-13f, 0x1.bebb44p-9f, 0x1.a16dd6p-5f,
                                 0x1.7b4e80p-3f, 0x1.20dd74p+0f};
static const float erf_den[7] = {-0x1.fa720cp-24f, 0x1.8b11bep-16f, 0x1.0ada50p-10f,
                                 0x1.cd0fa8p-7f,   0x1.c69842p-4f,  0x1.fd6894p-2f,
                                 1.0f};
static const float erf_clamp = 3.832506856900711f;

static uint32_t bits_of(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

static float float_of(uint32_t b)
{
    float x;
    memcpy(&x, &b, sizeof x);
    return x;
}

float ss__k_xla_flush_f32(float x)
{
    return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
}

float ss__k_xla_mul_f32(float a, float b)
{
    double exact = (double)ss__k_xla_flush_f32(a) * (double)ss__k_xla_flush_f32(b);
    if (fabs(exact) < (double)FLT_MIN)
        return copysignf(0.0f, (float)exact);
    return (float)exact; /* a product of two floats is exact in double: one rounding */
}

float ss__k_xla_logf(float x)
{
    x = ss__k_xla_flush_f32(x);
    if (x == 0.0f)
        return -INFINITY;
    if (x == INFINITY)
        return INFINITY;
    if (!(x > 0.0f))
        return float_of(0xffffffffu); /* XLA's all-ones mask: a NaN */
    uint32_t b = bits_of(x);
    float m = float_of((b & 0x807fffffu) | 0x3f000000u); /* [0.5, 1) */
    float e = (float)((int32_t)(b >> 23) - 127) + 1.0f;
    bool low = m < sqrt_half;
    float t = (m - 1.0f) + (low ? m : 0.0f);
    e = e - (low ? 1.0f : 0.0f);
    float t2 = t * t, t3 = t2 * t;
    float y0 = fmaf(fmaf(t, log_p[0], log_p[1]), t, log_p[2]);
    float y1 = fmaf(fmaf(t, log_p[3], log_p[4]), t, log_p[5]);
    float y2 = fmaf(fmaf(t, log_p[6], log_p[7]), t, log_p[8]);
    float y = fmaf(fmaf(y0, t3, y1), t3, y2);
    y = fmaf(y, t3, e * log_q1);
    float r = fmaf(-0.5f, t2, t) + y;
    return fmaf(log_q2, e, r);
}

static float horner7(const float c[7], float a)
{
    float p = 0.0f;
    for (int i = 0; i < 7; i++)
        p = fmaf(p, a, c[i]);
    return p;
}

float ss__k_xla_log1pf(float x)
{
    x = ss__k_xla_flush_f32(x);
    if (!(fabsf(x) < 0.41421356237309504880f))
        return ss__k_xla_logf(x + 1.0f);
    float x2 = x * x;
    float r = (x * x2) * (horner7(log1p_num, x) / horner7(log1p_den, x));
    return ss__k_xla_flush_f32(x + fmaf(-0.5f, x2, r));
}

float ss__k_xla_erff(float x)
{
    x = ss__k_xla_flush_f32(x);
    if (fabsf(x) >= erf_clamp)
        return copysignf(1.0f, x);
    float x2 = x * x, p = erf_num[0], q = erf_den[0];
    for (int i = 1; i < 5; i++)
        p = fmaf(x2, p, erf_num[i]);
    for (int i = 1; i < 7; i++)
        q = fmaf(x2, q, erf_den[i]);
    return ss__k_xla_flush_f32((x * p) / q);
}
