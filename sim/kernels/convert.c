/*
 * convert.c — 16-bit floats and i32 to and from f32: the block loads/stores
 * every kernel computes through, and ss__k_convert. The scalar 16-bit
 * conversions are base/half.h's.
 */
#include "kernels_internal.h"

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
            dst[i] = ss__bf16_to_f32(p[i]);
        break;
    }
    case SS_F16: {
        const uint16_t *p = (const uint16_t *)base + start;
        for (int64_t i = 0; i < n; i++)
            dst[i] = ss__f16_to_f32(p[i]);
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
            p[i] = ss__f32_to_bf16(src[i]);
        break;
    }
    case SS_F16: {
        uint16_t *p = (uint16_t *)base + start;
        for (int64_t i = 0; i < n; i++)
            p[i] = ss__f32_to_f16(src[i]);
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
