/*
 * init.c — initial values of the scenario's global arrays.
 *
 * Every element's value is a function of the initializer, its seed and the
 * element's global row-major index only: the same array comes out whatever
 * the sharding, the device count or the order shards are filled in. Float
 * initializers are the library's (ss_init_fill: jax.nn.initializers'
 * distributions, counter-based bits that are not JAX's threefry); iota and
 * randint (integer labels) are here, randint hashing (seed, index) with
 * SplitMix64.
 */
#include "scenario.h"

#include "base/half.h"

#include <math.h>
#include <string.h>

static uint64_t mix(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A uniform double in (0, 1) from (seed, index). */
static double uniform01(uint64_t seed, uint64_t index)
{
    uint64_t h = mix(mix(seed) ^ index);
    return ((double)(h >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

static void elem_set(ss_dtype dt, void *buf, size_t k, double v)
{
    switch (dt) {
    case SS_F32: ((float *)buf)[k] = (float)v; break;
    case SS_F64: ((double *)buf)[k] = v; break;
    case SS_BF16: ((uint16_t *)buf)[k] = ss__f32_to_bf16((float)v); break;
    case SS_F16: ((uint16_t *)buf)[k] = ss__f32_to_f16((float)v); break;
    case SS_I32:
        ((int32_t *)buf)[k] = (int32_t)(v > 2147483647.0 ? 2147483647.0
                                        : v < -2147483648.0 ? -2147483648.0 : v);
        break;
    case SS_I64:
        ((int64_t *)buf)[k] = (int64_t)(v > 9.2e18 ? 9.2e18 : v < -9.2e18 ? -9.2e18 : v);
        break;
    case SS_I8: ((int8_t *)buf)[k] = (int8_t)(v > 127 ? 127 : v < -128 ? -128 : v); break;
    case SS_U8: ((uint8_t *)buf)[k] = (uint8_t)(v > 255 ? 255 : v < 0 ? 0 : v); break;
    case SS_BOOL: ((uint8_t *)buf)[k] = v != 0; break;
    case SS_I16: ((int16_t *)buf)[k] = (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v); break;
    case SS_U16: ((uint16_t *)buf)[k] = (uint16_t)(v > 65535 ? 65535 : v < 0 ? 0 : v); break;
    case SS_U32:
        ((uint32_t *)buf)[k] = (uint32_t)(v > 4294967295.0 ? 4294967295.0 : v < 0 ? 0 : v);
        break;
    case SS_U64: ((uint64_t *)buf)[k] = (uint64_t)(v >= 1.8e19 ? 1.8e19 : v < 0 ? 0 : v); break;
    default: break;
    }
}

void ss__scn_init_fill(const ss__scn_array *a, void *dst)
{
    int64_t n = 1;
    for (int d = 0; d < a->rank; d++)
        n *= a->shape[d];
    const ss__scn_init *in = &a->init;
    if (in->kind == SS__SCN_INIT_HOST) {
        memcpy(dst, in->data, (size_t)n * ss_dtype_size(a->dtype));
        return;
    }
    bool is_float = a->dtype == SS_F32 || a->dtype == SS_F64 || a->dtype == SS_BF16 ||
                    a->dtype == SS_F16;
    static const ss_init_kind kinds[] = {
        [SS__SCN_INIT_ZEROS] = SS_INIT_ZEROS,   [SS__SCN_INIT_ONES] = SS_INIT_ONES,
        [SS__SCN_INIT_FULL] = SS_INIT_CONSTANT, [SS__SCN_INIT_NORMAL] = SS_INIT_NORMAL,
        [SS__SCN_INIT_XAVIER] = SS_INIT_XAVIER_NORMAL, [SS__SCN_INIT_XAVIER_UNIFORM] = SS_INIT_XAVIER_UNIFORM,
        [SS__SCN_INIT_UNIFORM] = SS_INIT_UNIFORM};
    if (is_float && in->kind != SS__SCN_INIT_IOTA && in->kind != SS__SCN_INIT_RANDINT) {
        /* The library's initializers: the same values in any shard. */
        ss_init init = {kinds[in->kind], in->seed, in->a, 0, 0};
        if (ss_init_fill(&init, a->rank, a->shape, a->dtype, NULL, NULL, dst) == SS_OK)
            return;
        memset(dst, 0, (size_t)n * ss_dtype_size(a->dtype));
        return;
    }
    int64_t stride = 1, size = 1;
    if (in->kind == SS__SCN_INIT_IOTA && in->dim >= 0 && in->dim < a->rank) {
        for (int d = in->dim + 1; d < a->rank; d++)
            stride *= a->shape[d];
        size = a->shape[in->dim];
    }
    for (int64_t k = 0; k < n; k++) {
        double v = 0;
        switch (in->kind) {
        case SS__SCN_INIT_ONES: v = 1; break;
        case SS__SCN_INIT_FULL: v = in->a; break;
        case SS__SCN_INIT_IOTA:
            v = in->dim >= 0 && in->dim < a->rank ? (double)((k / stride) % size) : (double)k;
            break;
        case SS__SCN_INIT_RANDINT:
            v = floor(uniform01(in->seed, (uint64_t)k) * in->a);
            if (v >= in->a)
                v = in->a - 1;
            break;
        default: v = 0; break;
        }
        elem_set(a->dtype, dst, (size_t)k, v);
    }
}
