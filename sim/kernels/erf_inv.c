/*
 * erf_inv.c — the inverse error function as XLA computes chlo.erf_inv.
 *
 * f32 (and bf16/f16, computed in f32 as XLA does): M. Giles's
 * single-precision approximation ("Approximating the erfinv function", GPU
 * Computing Gems Jade Edition, 2011, section 10.2): with w = -log1p(-x*x),
 * a degree-8 polynomial in w - 2.5 when w < 5, else in sqrt(w) - 3, times
 * x; the coefficients are the paper's. Evaluated as XLA's CPU backend
 * compiles chlo.erf_inv's expansion: in f32, Horner form with each step one
 * fused multiply-add (LLVM contracts `c + p * w`), subnormal inputs read as
 * zero and subnormal results flushed to zero (XLA's CPU runs with FTZ and
 * DAZ set), and log1p as XLA's elemental emitter computes it: for |a| below
 * sqrt(2) - 1 a rational function (Cephes' log1p coefficients, numerator
 * and denominator of degree 6 in Horner form with FMAs) as
 * a + (-0.5 a^2 + a^3 P(a)/Q(a)), else log(1 + a). The rational branch
 * gives XLA's bits exactly; the log branch uses libm's logf, which is not
 * XLA's log: |x| above 0.6436 (where -x*x leaves the rational branch) can
 * differ in the last bits. tests/test_erf_inv_vectors.c measures it
 * against JAX (tests/data/erf_inv_f32.bin). |x| == 1 gives +-inf, |x| > 1
 * NaN (log1p of a negative number).
 *
 * f64: the f32 value refined by two Newton steps on erf(y) - x with libm's
 * erf, to double accuracy (XLA uses a longer polynomial there; both are
 * within a few ulps of the true value).
 */
#include "kernels_internal.h"

#include <math.h>

static const float small_w[9] = {2.81022636e-08f,  3.43273939e-07f, -3.5233877e-06f,
                                 -4.39150654e-06f, 0.00021858087f,  -0.00125372503f,
                                 -0.00417768164f,  0.246640727f,    1.50140941f};
static const float large_w[9] = {-0.000200214257f, 0.000100950558f, 0.00134934322f,
                                 -0.00367342844f,  0.00573950773f,  -0.0076224613f,
                                 0.00943887047f,   1.00167406f,     2.83297682f};

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

static float horner7(const float c[7], float a)
{
    float p = 0.0f;
    for (int i = 0; i < 7; i++)
        p = fmaf(p, a, c[i]);
    return p;
}

/* log1p(a) as XLA's CPU computes it for f32 (the rational branch exactly). */
static float xla_log1p_f32(float a)
{
    if (!(fabsf(a) < 0.41421356237309504880f))
        return logf(a + 1.0f);
    float a2 = a * a;
    float r = horner7(log1p_num, a) / horner7(log1p_den, a);
    r = (a * a2) * r;
    r = fmaf(-0.5f, a2, r);
    return a + r;
}

static float flush_subnormal(float x)
{
    return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
}

float ss__k_erf_inv_f32(float x)
{
    x = flush_subnormal(x);
    if (fabsf(x) == 1.0f)
        return x * INFINITY;
    float w = -flush_subnormal(xla_log1p_f32(flush_subnormal(-x * x)));
    bool lt = w < 5.0f;
    const float *c = lt ? small_w : large_w;
    w = lt ? w - 2.5f : sqrtf(w) - 3.0f;
    float p = c[0];
    for (int i = 1; i < 9; i++)
        p = fmaf(p, w, c[i]);
    return flush_subnormal(p * x);
}

double ss__k_erf_inv_f64(double x)
{
    if (x != x || fabs(x) > 1.0)
        return NAN;
    if (fabs(x) == 1.0)
        return x * INFINITY;
    double y = ss__k_erf_inv_f32((float)x);
    for (int i = 0; i < 2 && isfinite(y); i++) /* erf'(y) = 2/sqrt(pi) exp(-y^2) */
        y -= (erf(y) - x) / (1.1283791670955126 * exp(-y * y));
    return y;
}
