/*
 * xla_math.h — f32 transcendental functions with the bits XLA's CPU
 * backend gives (sim/kernels/xla_math.c). Internal to the kernels.
 */
#ifndef SS_XLA_MATH_H
#define SS_XLA_MATH_H

/* log(x) as XLA's CPU backend computes stablehlo.log on f32 (Cephes'
 * logf polynomial in Eigen's arrangement, with the fused multiply-adds
 * LLVM contracts, subnormal inputs read as zero): XLA's bits for every
 * f32 input. log(0) = log(subnormal) = -inf, log(+inf) = +inf, negative
 * or NaN inputs give the NaN 0xffffffff. */
float ss__k_xla_logf(float x);

/* log1p(x) as XLA's CPU backend computes stablehlo.log_plus_one on f32:
 * for |x| < sqrt(2) - 1 a rational function (Cephes' log1p coefficients),
 * else ss__k_xla_logf(x + 1). Subnormal inputs read as zero, subnormal
 * results flushed to zero. */
float ss__k_xla_log1pf(float x);

/* erf(x) as XLA's CPU backend computes chlo.erf / stablehlo's erf on f32
 * at run time (Eigen's rational interpolant, FMA Horner, +-1 from
 * |x| >= 3.8325). XLA folds erf of a constant at compile time with libm's
 * erff instead; shardsim does not model that folding. */
float ss__k_xla_erff(float x);

/* x with a subnormal value replaced by a zero of its sign: what XLA's
 * CPU code (run with FTZ and DAZ set) reads and writes. */
float ss__k_xla_flush_f32(float x);

/* a * b as XLA's CPU multiplies f32: subnormal operands read as zero, and
 * a product whose exact value is below the smallest normal number in
 * magnitude is zero (x86's flush-to-zero judges tininess before
 * rounding: 0x1.20dd76p-126 * 0.886 gives 0, not FLT_MIN). */
float ss__k_xla_mul_f32(float a, float b);

#endif
