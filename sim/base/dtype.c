/*
 * dtype.c — element types: sizes and names.
 */
#include "base.h"
#include "half.h"

#include <string.h>

static const struct {
    const char *name;
    const char *numpy;
    size_t size;
} dtype_table[SS_DTYPE_COUNT] = {
    [SS_F32] = {"f32", "float32", 4},  [SS_BF16] = {"bf16", "bfloat16", 2},
    [SS_F16] = {"f16", "float16", 2},  [SS_I32] = {"i32", "int32", 4},
    [SS_F64] = {"f64", "float64", 8},  [SS_I64] = {"i64", "int64", 8},
    [SS_I8] = {"i8", "int8", 1},       [SS_U8] = {"u8", "uint8", 1},
    [SS_BOOL] = {"bool", "bool_", 1},  [SS_I16] = {"i16", "int16", 2},
    [SS_U16] = {"u16", "uint16", 2},   [SS_U32] = {"u32", "uint32", 4},
    [SS_U64] = {"u64", "uint64", 8},
};

size_t ss_dtype_size(ss_dtype dtype)
{
    if ((unsigned)dtype >= SS_DTYPE_COUNT)
        return 0;
    return dtype_table[dtype].size;
}

const char *ss_dtype_name(ss_dtype dtype)
{
    if ((unsigned)dtype >= SS_DTYPE_COUNT)
        return "?";
    return dtype_table[dtype].name;
}

ss_status ss_dtype_parse(const char *text, ss_dtype *out)
{
    for (int i = 0; i < SS_DTYPE_COUNT; i++) {
        if (strcmp(text, dtype_table[i].name) == 0 || strcmp(text, dtype_table[i].numpy) == 0) {
            *out = (ss_dtype)i;
            return SS_OK;
        }
    }
    return ss__fail(SS_ERR_PARSE,
                    "unknown dtype '%s' (expected f32, bf16, f16, f64, i8, i16, i32, i64, u8, "
                    "u16, u32, u64 or bool)",
                    text);
}

double ss__elem_get(ss_dtype dt, const void *buf, size_t k)
{
    switch (dt) {
    case SS_F32: return ((const float *)buf)[k];
    case SS_F64: return ((const double *)buf)[k];
    case SS_BF16: return ss__bf16_to_f32(((const uint16_t *)buf)[k]);
    case SS_F16: return ss__f16_to_f32(((const uint16_t *)buf)[k]);
    case SS_I32: return ((const int32_t *)buf)[k];
    case SS_I64: return (double)((const int64_t *)buf)[k];
    case SS_I8: return ((const int8_t *)buf)[k];
    case SS_U8:
    case SS_BOOL: return ((const uint8_t *)buf)[k];
    case SS_I16: return ((const int16_t *)buf)[k];
    case SS_U16: return ((const uint16_t *)buf)[k];
    case SS_U32: return ((const uint32_t *)buf)[k];
    case SS_U64: return (double)((const uint64_t *)buf)[k];
    default: return 0;
    }
}
