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
 * DAZ set), and log1p as XLA's CPU computes it (sim/kernels/xla_math.c:
 * for |a| below sqrt(2) - 1 a rational function, else XLA's own log of
 * 1 + a, not libm's). XLA's bits for every f32 input (all 2^32 were
 * compared with JAX 0.10.2 when this was written); tests/test_erf_inv.c
 * checks a sweep against JAX (tests/data/erf_inv/f32_sweep.bin). |x| == 1
 * gives +-inf, |x| > 1 NaN (log1p of a negative number).
 *
 * f64: the f32 value refined by two Newton steps on erf(y) - x with libm's
 * erf, to double accuracy (XLA uses a longer polynomial there; both are
 * within a few ulps of the true value).
 */
#include "kernels_internal.h"
#include "xla_math.h"

#include <math.h>

static const float small_w[9] = {2.81022636e-08f,  3.43273939e-07f, -3.5233877e-06f,
                                 -4.39150654e-06f, 0.00021858087f,  -0.00125372503f,
                                 -0.00417768164f,  0.246640727f,    1.50140941f};
static const float large_w[9] = {-0.000200214257f, 0.000100950558f, 0.00134934322f,
                                 -0.00367342844f,  0.00573950773f,  -0.0076224613f,
                                 0.00943887047f,   1.00167406f,     2.83297682f};

float ss__k_erf_inv_f32(float x)
{
    x = ss__k_xla_flush_f32(x);
    if (fabsf(x) == 1.0f)
        return x * INFINITY;
    float w = -ss__k_xla_log1pf(ss__k_xla_mul_f32(-x, x));
    bool lt = w < 5.0f;
    const float *c = lt ? small_w : large_w;
    w = lt ? w - 2.5f : sqrtf(w) - 3.0f;
    float p = c[0];
    for (int i = 1; i < 9; i++)
        p = fmaf(p, w, c[i]);
    return ss__k_xla_mul_f32(p, x);
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
