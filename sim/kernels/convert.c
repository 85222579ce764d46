/*
 * convert.c — 16-bit floats and i32 to and from f32: the scalar conversions,
 * the block loads/stores every kernel computes through, and ss__k_convert.
 *
 * The 16-bit conversions are done on bits, so they do not depend on the
 * compiler supporting _Float16 or on the FPU's rounding mode. Narrowing
 * rounds to nearest, ties to even; NaN keeps its sign and the top payload
 * bits and is made quiet, so it can never turn into an infinity.
 */
#include "kernels_internal.h"

float ss__k_bf16_to_f32(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

uint16_t ss__k_f32_to_bf16(float f)
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

float ss__k_f16_to_f32(uint16_t h)
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

uint16_t ss__k_f32_to_f16(float f)
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

/* f32 -> i32 as XLA's convert on CPU: truncate, saturate, NaN -> 0. */
static int32_t f32_to_i32(float f)
{
    if (f != f)
        return 0;
    if (f >= 2147483648.0f)
        return INT32_MAX;
    if (f <= -2147483648.0f)
        return INT32_MIN;
    return (int32_t)f;
}

void ss__k_load_f32(ss_dtype dt, const void *base, int64_t start, int64_t n, float *dst)
{
    switch (dt) {
    case SS_F32:
        memcpy(dst, (const float *)base + start, (size_t)n * sizeof(float));
        break;
    case SS_BF16: {
        const uint16_t *p = (const uint16_t *)base + start;
        for (int64_t i = 0; i < n; i++)
            dst[i] = ss__k_bf16_to_f32(p[i]);
        break;
    }
    case SS_F16: {
        const uint16_t *p = (const uint16_t *)base + start;
        for (int64_t i = 0; i < n; i++)
            dst[i] = ss__k_f16_to_f32(p[i]);
        break;
    }
    case SS_I32: {
        const int32_t *p = (const int32_t *)base + start;
        for (int64_t i = 0; i < n; i++)
            dst[i] = (float)p[i];
        break;
    }
    default: /* callers check dtypes first */
        for (int64_t i = 0; i < n; i++)
            dst[i] = 0.0f;
        break;
    }
}

void ss__k_store_f32(ss_dtype dt, void *base, int64_t start, int64_t n, const float *src)
{
    switch (dt) {
    case SS_F32:
        memmove((float *)base + start, src, (size_t)n * sizeof(float));
        break;
    case SS_BF16: {
        uint16_t *p = (uint16_t *)base + start;
        for (int64_t i = 0; i < n; i++)
            p[i] = ss__k_f32_to_bf16(src[i]);
        break;
    }
    case SS_F16: {
        uint16_t *p = (uint16_t *)base + start;
        for (int64_t i = 0; i < n; i++)
            p[i] = ss__k_f32_to_f16(src[i]);
        break;
    }
    case SS_I32: {
        int32_t *p = (int32_t *)base + start;
        for (int64_t i = 0; i < n; i++)
            p[i] = f32_to_i32(src[i]);
        break;
    }
    default:
        break;
    }
}

static bool convertible(ss_dtype dt)
{
    return ss__k_is_float(dt) || dt == SS_I32;
}

ss_status ss__k_convert(const ss__tensor *x, ss__tensor *out)
{
    int64_t n;
    ss_status st = ss__k_check("convert", "input", x, &n);
    if (!st)
        st = ss__k_check("convert", "output", out, NULL);
    if (!st)
        st = ss__k_check_same_shape("convert", "input", x, "output", out);
    if (st)
        return st;
    if (!convertible(x->dtype) || !convertible(out->dtype))
        return ss__fail(SS_ERR_UNSUPPORTED,
                        "convert: %s to %s is not supported (f32, bf16, f16 and i32 only)",
                        ss_dtype_name(x->dtype), ss_dtype_name(out->dtype));
    if (n == 0)
        return SS_OK;
    if (x->dtype == out->dtype) {
        if (out->data != x->data)
            memmove(out->data, x->data, (size_t)n * ss_dtype_size(x->dtype));
        return SS_OK;
    }
    if (x->dtype == SS_I32 && out->dtype == SS_F32) {
        /* Direct: i32 values beyond 2^24 must round once, not via a block. */
        const int32_t *p = x->data;
        float *q = out->data;
        for (int64_t i = 0; i < n; i++)
            q[i] = (float)p[i];
        return SS_OK;
    }
    /* Block by block; in place is fine when the element sizes are equal
     * because each block is read completely before it is written. A wider
     * output over its own input would overwrite unread elements. */
    if (out->data != x->data ||
        ss_dtype_size(x->dtype) == ss_dtype_size(out->dtype)) {
        float buf[SS__K_BLOCK];
        for (int64_t i = 0; i < n; i += SS__K_BLOCK) {
            int64_t c = n - i < SS__K_BLOCK ? n - i : SS__K_BLOCK;
            ss__k_load_f32(x->dtype, x->data, i, c, buf);
            ss__k_store_f32(out->dtype, out->data, i, c, buf);
        }
        return SS_OK;
    }
    return ss__fail(SS_ERR_INVALID, "convert: %s to %s cannot be done in place",
                    ss_dtype_name(x->dtype), ss_dtype_name(out->dtype));
}
