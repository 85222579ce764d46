/*
 * half.h — bfloat16 and IEEE half <-> f32, the one definition every layer
 * uses (kernels, collectives, checkpoints, the scenario language).
 *
 * Done on bits, so they do not depend on the compiler supporting _Float16
 * or on the FPU's rounding mode. Narrowing rounds to nearest, ties to even
 * (IEEE 754's default); overflow gives infinity; NaN keeps its sign and the
 * top payload bits and is made quiet, so it can never turn into an infinity.
 * Inline: kernels and collectives call them once per element.
 */
#ifndef SS_BASE_HALF_H
#define SS_BASE_HALF_H

#include <stdint.h>
#include <string.h>

static inline float ss__bf16_to_f32(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline uint16_t ss__f32_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x0040u);
    /* Adding 0x7fff plus the lowest kept bit rounds half to even; a carry
     * into the exponent is the correct rounding (up to infinity at the top). */
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

static inline float ss__f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    uint32_t u;
    if (exp == 0x1f) {
        u = sign | 0x7f800000u | (man << 13);
    } else if (exp != 0) {
        u = sign | ((exp + 112u) << 23) | (man << 13);
    } else if (man == 0) {
        u = sign;
    } else {
        /* Subnormal: man * 2^-24. Shift the leading one up to bit 10. */
        uint32_t e = 113;
        while (!(man & 0x400u)) {
            man <<= 1;
            e--;
        }
        u = sign | (e << 23) | ((man & 0x3ffu) << 13);
    }
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline uint16_t ss__f32_to_f16(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    uint32_t a = u & 0x7fffffffu;
    if (a > 0x7f800000u)
        return (uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x3ffu));
    if (a >= 0x477ff000u) /* 65520 and above round to infinity */
        return (uint16_t)(sign | 0x7c00u);
    if (a >= 0x38800000u) { /* 2^-14 and above: a normal half */
        a += 0xfffu + ((a >> 13) & 1u);
        return (uint16_t)(sign | ((a - (112u << 23)) >> 13));
    }
    if (a <= 0x33000000u) /* up to 2^-25 (a tie with 0): zero */
        return sign;
    /* Subnormal half: the value in units of 2^-24 is man * 2^(e - 126). */
    uint32_t e = a >> 23;
    uint32_t man = (a & 0x7fffffu) | 0x800000u;
    uint32_t shift = 126u - e; /* 14..24 */
    uint32_t r = man >> shift;
    uint32_t rem = man & ((1u << shift) - 1u);
    uint32_t half = 1u << (shift - 1u);
    if (rem > half || (rem == half && (r & 1u)))
        r++;
    return (uint16_t)(sign | r);
}

#endif
