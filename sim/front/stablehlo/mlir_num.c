/*
 * mlir_num.c — element values of dense attributes: decimal literals rounded
 * to bf16 and f16 (round to nearest, ties to even, as MLIR's APFloat does),
 * hexadecimal literals taken as the element's raw bits (MLIR prints
 * non-finite floats so: 0x7F800000 is +inf in f32, 0x7F80 in bf16), and
 * integers checked against the element type's range.
 */
#include "front/stablehlo/mlir_internal.h"

#include <math.h>
#include <string.h>

uint16_t ss__mlir_f32_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) /* NaN: keep it quiet */
        return (uint16_t)((u >> 16) | 0x40);
    uint32_t rounding = 0x7FFFu + ((u >> 16) & 1u);
    return (uint16_t)((u + rounding) >> 16);
}

float ss__mlir_bf16_to_f32(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* d rounded once (nearest, ties to even) to a binary format of `prec`
 * significand bits (hidden bit included), exponent bias `bias` and
 * `ebits` exponent bits, as its 16-bit pattern. */
static uint16_t round_half(double d, int prec, int bias, int ebits)
{
    uint16_t sign = signbit(d) ? 0x8000 : 0;
    int mbits = prec - 1;
    uint16_t inf = (uint16_t)(((1u << ebits) - 1) << mbits);
    double a = fabs(d);
    if (isnan(d))
        return (uint16_t)(sign | inf | (1u << (mbits - 1)));
    if (isinf(d))
        return (uint16_t)(sign | inf);
    int emin = 1 - bias;
    if (a < ldexp(1.0, emin)) {
        /* Subnormal: units of 2^(emin - mbits); rint rounds ties to even.
         * A carry into 2^mbits units is the smallest normal, as bits. */
        double q = rint(ldexp(a, mbits - emin));
        return (uint16_t)(sign | (uint16_t)q);
    }
    int e;
    double m = frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
    double q = rint(ldexp(m, prec));
    if (q >= ldexp(1.0, prec)) {
        q /= 2;
        e++;
    }
    int exp = e - 1 + bias;
    if (exp >= (1 << ebits) - 1)
        return (uint16_t)(sign | inf);
    return (uint16_t)(sign | (uint16_t)(exp << mbits) | ((uint16_t)q & ((1u << mbits) - 1)));
}

uint16_t ss__mlir_f64_to_f16(double d)
{
    return round_half(d, 11, 15, 5);
}

static uint16_t f64_to_bf16(double d)
{
    return round_half(d, 8, 127, 8);
}

double ss__mlir_f16_to_f64(uint16_t h)
{
    int exp = (h >> 10) & 0x1F;
    int man = h & 0x3FF;
    double v;
    if (exp == 0)
        v = ldexp(man, -24);
    else if (exp == 31)
        v = man ? NAN : INFINITY;
    else
        v = ldexp(man | 0x400, exp - 25);
    return (h & 0x8000) ? -v : v;
}

static void put_le(unsigned char *dst, uint64_t v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = (unsigned char)(v >> (8 * i));
}

bool ss__mlir_store_elem(ss__mlir_elem e, bool is_float, double fv, bool neg, uint64_t mag,
                         bool hex, unsigned char *dst)
{
    size_t size = ss__mlir_elem_size(e);
    if (ss__mlir_elem_is_float(e)) {
        if (hex) {
            /* Raw bits of the element type. */
            if (neg || (size < 8 && (mag >> (8 * size)) != 0))
                return false;
            put_le(dst, mag, size);
            return true;
        }
        double d = is_float ? fv : (neg ? -(double)mag : (double)mag);
        if (e == SS__MLIR_F64) {
            uint64_t u;
            memcpy(&u, &d, 8);
            put_le(dst, u, 8);
        } else if (e == SS__MLIR_F32) {
            float f = (float)d;
            uint32_t u;
            memcpy(&u, &f, 4);
            put_le(dst, u, 4);
        } else if (e == SS__MLIR_BF16) {
            put_le(dst, f64_to_bf16(d), 2);
        } else {
            put_le(dst, ss__mlir_f64_to_f16(d), 2);
        }
        return true;
    }
    if (is_float)
        return false;
    if (e == SS__MLIR_I1) {
        if (neg || mag > 1)
            return false;
        dst[0] = (unsigned char)mag;
        return true;
    }
    unsigned bits = (unsigned)(8 * size);
    uint64_t v;
    if (hex || ss__mlir_elem_is_unsigned(e)) {
        if (neg && !(mag == 0))
            return false;
        if (bits < 64 && (mag >> bits) != 0)
            return false;
        v = mag;
    } else {
        uint64_t lim = (uint64_t)1 << (bits - 1); /* |min| */
        if (neg ? mag > lim : mag >= lim)
            return false;
        v = neg ? (uint64_t)0 - mag : mag;
    }
    put_le(dst, v, size);
    return true;
}
