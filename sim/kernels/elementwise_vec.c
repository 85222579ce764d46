/*
 * elementwise_vec.c — expf and tanhf over f32 blocks, four (exp) or eight
 * (tanh) lanes at a time with AVX2 and FMA, giving the host libm's bits.
 *
 * Why libm's bits: every report, golden file and test tolerance of this
 * project was made with glibc's expf and tanhf, and a run must not change
 * with the vector width. So these are not new approximations but the same
 * arithmetic as glibc's, lane by lane:
 *
 *  - expf: glibc 2.27 and later (the algorithm of its sysdeps/ieee754/flt-32
 *    e_expf.c: x * 32/ln2 split into k + r, 2^(k/32) from a 32-entry table
 *    of 2^(i/32), a degree-3 polynomial in r, all in double). On a CPU with
 *    FMA and AVX2, glibc's ifunc picks its FMA build, where the compiler
 *    fused the reduction (k and r) and the polynomial: so do we, and the
 *    path is used only on such CPUs.
 *  - tanhf: glibc up to 2.40 (the fdlibm code: tanh from expm1f(+-2|x|),
 *    expm1f's float arithmetic with its hi/lo reduction and its rational
 *    correction), in float, unfused (glibc's expm1f has no FMA build).
 *    glibc 2.41 replaced tanhf by a correctly rounded one: there this path
 *    is off.
 *
 * Evidence: all 2^32 f32 inputs give the same bits as glibc 2.36's expf and
 * tanhf here (tests/test_vecmath.c sweeps every 251st input and every
 * branch's edges; SS_VECMATH_SWEEP=1 there sweeps all 2^32). On first use
 * each path checks itself against libm on 2^16 inputs spread over all bit
 * patterns and turns itself off on any difference, so a libm with other
 * bits gets the scalar loop, not wrong bits.
 *
 * This file must be compiled without floating-point contraction (the
 * project's -std=c11 implies -ffp-contract=off): glibc's float expm1f
 * rounds every product, and a fused multiply-add here changes 150,744 of
 * the 2^32 tanh results.
 *
 * Not here: the scalar definitions (elementwise.c); other functions (log,
 * sin, ...) use libm one value at a time. SHARDSIM_VECMATH=off (read once)
 * turns both paths off, for A/B measurements.
 */
#include "kernels_internal.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__) && defined(__GLIBC__) && \
    (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 27 && __GLIBC_MINOR__ <= 40)
#define SS__K_HAVE_VECMATH 1
#include <immintrin.h>
#else
#define SS__K_HAVE_VECMATH 0
#endif

#if SS__K_HAVE_VECMATH

#define VEC_TARGET __attribute__((target("avx2,fma")))

/* 2^(i/32) as doubles minus i << 47 (so that adding k << 47 for the k whose
 * low five bits are i gives 2^(k/32)); filled by init(). */
static uint64_t exp_table[32];

/* glibc's expf constants (e_exp2f_data.c): 32/ln2, the rounding shift
 * 1.5 * 2^52, and the polynomial for 2^(r/32) - 1 in r. */
#define EXP_INVLN2N (0x1.71547652b82fep+0 * 32)
#define EXP_SHIFT 0x1.8p+52
#define EXP_C0 (0x1.c6af84b912394p-5 / 32 / 32 / 32)
#define EXP_C1 (0x1.ebfce50fac4f3p-3 / 32 / 32)
#define EXP_C2 (0x1.62e42ff0c52d6p-1 / 32)

/* Four expf results. Special inputs as glibc: NaN stays NaN, above
 * log(2^128) infinity, below log(2^-150) (and -inf) +0. */
VEC_TARGET static inline __m128 exp4(__m128 xf)
{
    __m256d xd = _mm256_cvtps_pd(xf);
    __m256d inv = _mm256_set1_pd(EXP_INVLN2N), shift = _mm256_set1_pd(EXP_SHIFT);
    __m256d kd = _mm256_fmadd_pd(inv, xd, shift);
    __m256i ki = _mm256_castpd_si256(kd);
    kd = _mm256_sub_pd(kd, shift);
    __m256d r = _mm256_fmsub_pd(inv, xd, kd);
    __m256i idx = _mm256_and_si256(ki, _mm256_set1_epi64x(31));
    __m256i t = _mm256_i64gather_epi64((const long long *)exp_table, idx, 8);
    __m256d s = _mm256_castsi256_pd(_mm256_add_epi64(t, _mm256_slli_epi64(ki, 47)));
    __m256d z = _mm256_fmadd_pd(_mm256_set1_pd(EXP_C0), r, _mm256_set1_pd(EXP_C1));
    __m256d r2 = _mm256_mul_pd(r, r);
    __m256d y = _mm256_fmadd_pd(_mm256_set1_pd(EXP_C2), r, _mm256_set1_pd(1.0));
    y = _mm256_fmadd_pd(z, r2, y);
    __m128 res = _mm256_cvtpd_ps(_mm256_mul_pd(y, s));
    __m128 over = _mm_cmp_ps(xf, _mm_set1_ps(0x1.62e42ep6f), _CMP_GT_OQ);
    __m128 under = _mm_cmp_ps(xf, _mm_set1_ps(-0x1.9fe368p6f), _CMP_LT_OQ);
    __m128 nan = _mm_cmp_ps(xf, xf, _CMP_UNORD_Q);
    res = _mm_blendv_ps(res, _mm_set1_ps(INFINITY), over);
    res = _mm_andnot_ps(under, res);
    return _mm_blendv_ps(res, _mm_add_ps(xf, xf), nan);
}

VEC_TARGET static void exp_block(const float *x, float *y, int64_t n)
{
    int64_t i = 0;
    for (; i + 4 <= n; i += 4)
        _mm_storeu_ps(y + i, exp4(_mm_loadu_ps(x + i)));
    if (i < n) {
        float in[4] = {0}, out[4];
        memcpy(in, x + i, (size_t)(n - i) * sizeof(float));
        _mm_storeu_ps(out, exp4(_mm_loadu_ps(in)));
        memcpy(y + i, out, (size_t)(n - i) * sizeof(float));
    }
}

#define F8(v) _mm256_set1_ps(v)
#define I8(v) _mm256_set1_epi32(v)
#define AS_I(v) _mm256_castps_si256(v)
#define AS_F(v) _mm256_castsi256_ps(v)
/* m ? a : b, m a lane mask (all ones or zeros) */
#define SEL(m, a, b) _mm256_blendv_ps((b), (a), AS_F(m))

/* fdlibm's expm1f for the arguments tanhf gives it: u = 2|x| with
 * 1 <= |x| < 22 (reduction k from 3 to 63), or u = -2|x| with |x| < 1
 * (k from -3 to 0, or u tiny). Each branch of the scalar code is computed
 * for all lanes and the lane's branch selected. */
VEC_TARGET static inline __m256 expm1_for_tanh(__m256 u)
{
    const __m256 ln2_hi = AS_F(I8(0x3f317180)), ln2_lo = AS_F(I8(0x3717f7d1));
    const __m256 invln2 = AS_F(I8(0x3fb8aa3b));
    __m256i hu = _mm256_and_si256(AS_I(u), I8(0x7fffffff));
    __m256i neg = _mm256_cmpgt_epi32(I8(0), AS_I(u)); /* sign bit set */
    __m256i k0 = _mm256_cmpgt_epi32(I8(0x3eb17219), hu); /* |u| <= ln2/2 */
    __m256i k1 = _mm256_andnot_si256(k0, _mm256_cmpgt_epi32(I8(0x3f851592), hu));
    __m256i tiny = _mm256_cmpgt_epi32(I8(0x33000000), hu); /* |u| < 2^-25 */

    /* k = (int)(u/ln2 +- 1/2), hi - lo = u - k ln2 */
    __m256 half = SEL(neg, F8(-0.5f), F8(0.5f));
    __m256i k = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(invln2, u), half));
    __m256 kf = _mm256_cvtepi32_ps(k);
    __m256 hi = _mm256_sub_ps(u, _mm256_mul_ps(kf, ln2_hi));
    __m256 lo = _mm256_mul_ps(kf, ln2_lo);
    /* ln2/2 < |u| < 1.5 ln2: k = +-1 */
    __m256 hi1 = SEL(neg, _mm256_add_ps(u, ln2_hi), _mm256_sub_ps(u, ln2_hi));
    __m256 lo1 = SEL(neg, _mm256_sub_ps(F8(0.0f), ln2_lo), ln2_lo);
    hi = SEL(k1, hi1, hi);
    lo = SEL(k1, lo1, lo);
    k = _mm256_blendv_epi8(k, _mm256_blendv_epi8(I8(1), I8(-1), neg), k1);
    __m256 x = _mm256_sub_ps(hi, lo);
    __m256 c = _mm256_sub_ps(_mm256_sub_ps(hi, x), lo);
    x = SEL(k0, u, x);
    c = SEL(k0, F8(0.0f), c);
    k = _mm256_andnot_si256(k0, k);

    const __m256 q1 = AS_F(I8((int)0xbd088889)), q2 = AS_F(I8(0x3ad00d01)),
                 q3 = AS_F(I8((int)0xb8a670cd)), q4 = AS_F(I8(0x36867e54)),
                 q5 = AS_F(I8((int)0xb457edbb));
    __m256 hfx = _mm256_mul_ps(F8(0.5f), x);
    __m256 hxs = _mm256_mul_ps(x, hfx);
    __m256 p = _mm256_add_ps(q4, _mm256_mul_ps(hxs, q5));
    p = _mm256_add_ps(q3, _mm256_mul_ps(hxs, p));
    p = _mm256_add_ps(q2, _mm256_mul_ps(hxs, p));
    p = _mm256_add_ps(q1, _mm256_mul_ps(hxs, p));
    __m256 r1 = _mm256_add_ps(F8(1.0f), _mm256_mul_ps(hxs, p));
    __m256 t = _mm256_sub_ps(F8(3.0f), _mm256_mul_ps(r1, hfx));
    __m256 e = _mm256_mul_ps(
        hxs, _mm256_div_ps(_mm256_sub_ps(r1, t), _mm256_sub_ps(F8(6.0f), _mm256_mul_ps(x, t))));
    __m256 res_k0 = _mm256_sub_ps(x, _mm256_sub_ps(_mm256_mul_ps(x, e), hxs));
    e = _mm256_sub_ps(_mm256_mul_ps(x, _mm256_sub_ps(e, c)), c);
    e = _mm256_sub_ps(e, hxs);
    __m256 res_km1 = _mm256_sub_ps(_mm256_mul_ps(F8(0.5f), _mm256_sub_ps(x, e)), F8(0.5f));
    __m256i kexp = _mm256_slli_epi32(k, 23);
    /* k <= -2 or k > 56: 2^k (1 - (e - x)) - 1 */
    __m256 y_far = _mm256_sub_ps(F8(1.0f), _mm256_sub_ps(e, x));
    y_far = _mm256_sub_ps(AS_F(_mm256_add_epi32(AS_I(y_far), kexp)), F8(1.0f));
    /* 2 <= k < 23: 2^k ((1 - 2^-k) - (e - x)) */
    __m256 t_lo = AS_F(_mm256_sub_epi32(I8(0x3f800000), _mm256_srlv_epi32(I8(0x1000000), k)));
    __m256 y_lo = _mm256_sub_ps(t_lo, _mm256_sub_ps(e, x));
    y_lo = AS_F(_mm256_add_epi32(AS_I(y_lo), kexp));
    /* 23 <= k <= 56: 2^k ((x - (e + 2^-k)) + 1) */
    __m256 t_mid = AS_F(_mm256_slli_epi32(_mm256_sub_epi32(I8(0x7f), k), 23));
    __m256 y_mid = _mm256_add_ps(_mm256_sub_ps(x, _mm256_add_ps(e, t_mid)), F8(1.0f));
    y_mid = AS_F(_mm256_add_epi32(AS_I(y_mid), kexp));

    __m256i far = _mm256_or_si256(_mm256_cmpgt_epi32(k, I8(56)), _mm256_cmpgt_epi32(I8(-1), k));
    __m256 res = SEL(_mm256_cmpgt_epi32(I8(23), k), y_lo, y_mid);
    res = SEL(far, y_far, res);
    res = SEL(_mm256_cmpeq_epi32(k, I8(-1)), res_km1, res);
    res = SEL(k0, res_k0, res);
    return SEL(tiny, u, res);
}

/* Eight tanhf results; NaN and infinities are the caller's (scalar). */
VEC_TARGET static inline __m256 tanh8(__m256 x)
{
    __m256i ix = _mm256_and_si256(AS_I(x), I8(0x7fffffff));
    __m256i ge1 = _mm256_cmpgt_epi32(ix, I8(0x3f7fffff));
    __m256 two_ax = _mm256_mul_ps(F8(2.0f), AS_F(ix));
    __m256 t = expm1_for_tanh(SEL(ge1, two_ax, _mm256_sub_ps(F8(0.0f), two_ax)));
    __m256 t2 = _mm256_add_ps(t, F8(2.0f));
    __m256 z_ge1 = _mm256_sub_ps(F8(1.0f), _mm256_div_ps(F8(2.0f), t2));
    __m256 z_lt1 = _mm256_div_ps(_mm256_sub_ps(F8(0.0f), t), t2);
    __m256 z = SEL(ge1, z_ge1, z_lt1);
    z = SEL(_mm256_cmpgt_epi32(ix, I8(0x41afffff)), F8(1.0f), z); /* |x| >= 22 */
    z = _mm256_or_ps(z, _mm256_and_ps(x, AS_F(I8((int)0x80000000))));
    __m256 small = _mm256_mul_ps(x, _mm256_add_ps(F8(1.0f), x)); /* |x| < 2^-55 */
    z = SEL(_mm256_cmpgt_epi32(I8(0x24000000), ix), small, z);
    return SEL(_mm256_cmpeq_epi32(ix, I8(0)), x, z);
}

VEC_TARGET static void tanh_block(const float *x, float *y, int64_t n)
{
    for (int64_t i = 0; i < n; i += 8) {
        int64_t c = n - i < 8 ? n - i : 8;
        float in[8] = {0}, out[8];
        const float *src = x + i;
        if (c < 8) {
            memcpy(in, x + i, (size_t)c * sizeof(float));
            src = in;
        }
        __m256 v = _mm256_loadu_ps(src);
        __m256i ix = _mm256_and_si256(AS_I(v), I8(0x7fffffff));
        int special = _mm256_movemask_ps(AS_F(_mm256_cmpgt_epi32(ix, I8(0x7f7fffff))));
        _mm256_storeu_ps(out, tanh8(v));
        for (int j = 0; special && j < c; j++)
            if (special >> j & 1)
                out[j] = tanhf(src[j]);
        memcpy(y + i, out, (size_t)c * sizeof(float));
    }
}

static void init_table(void)
{
    for (int i = 0; i < 32; i++) {
        /* exp2l is exact to a few 64-bit ulps: the double rounding is
         * checked by the self-test and the sweep */
        double v = (double)exp2l((long double)i / 32.0L);
        uint64_t b;
        memcpy(&b, &v, sizeof b);
        exp_table[i] = b - ((uint64_t)i << 47);
    }
}

/* Does the vector path give libm's bits on 2^16 inputs spread over all
 * f32 bit patterns (every 65537th, and the neighbourhood of 1)? */
static bool self_check(bool tanh_fn)
{
    enum { N = 256 };
    float x[N], y[N];
    uint64_t pattern = 0;
    for (int round = 0; round < 256; round++) {
        for (int i = 0; i < N; i++, pattern += 65537) {
            uint32_t b = (uint32_t)pattern ^ (uint32_t)(round & 1 ? 0x3f800000u : 0);
            memcpy(&x[i], &b, sizeof b);
        }
        if (tanh_fn)
            tanh_block(x, y, N);
        else
            exp_block(x, y, N);
        for (int i = 0; i < N; i++) {
            float r = tanh_fn ? tanhf(x[i]) : expf(x[i]);
            if (memcmp(&r, &y[i], sizeof r) != 0 && !(r != r && y[i] != y[i]))
                return false;
        }
    }
    return true;
}

#endif /* SS__K_HAVE_VECMATH */

static bool exp_on, tanh_on;
static pthread_once_t decided = PTHREAD_ONCE_INIT;

static void decide(void)
{
#if SS__K_HAVE_VECMATH
    const char *env = getenv("SHARDSIM_VECMATH");
    if (!(env && strcmp(env, "off") == 0) && __builtin_cpu_supports("avx2") &&
        __builtin_cpu_supports("fma")) {
        init_table();
        exp_on = self_check(false);
        tanh_on = self_check(true);
    }
#endif
}

bool ss__k_vec_exp(const float *x, float *y, int64_t n)
{
#if SS__K_HAVE_VECMATH
    pthread_once(&decided, decide);
    if (exp_on) {
        exp_block(x, y, n);
        return true;
    }
#else
    (void)x, (void)y, (void)n;
#endif
    return false;
}

bool ss__k_vec_tanh(const float *x, float *y, int64_t n)
{
#if SS__K_HAVE_VECMATH
    pthread_once(&decided, decide);
    if (tanh_on) {
        tanh_block(x, y, n);
        return true;
    }
#else
    (void)x, (void)y, (void)n;
#endif
    return false;
}
