/*
 * reference_rng.c — the naive reference of rng.c: the whole array built the
 * way XLA's rng_bit_generator expander builds it (openxla/xla,
 * xla/hlo/builder/lib/prng.cc), call by call: ThreeFry's calls run over
 * the half-split shape and their two words fill the two halves of the
 * split dim; Philox's calls run over j = 0, 1, ... and their words fill
 * the flat array round-robin. Shares only the two block functions with
 * rng.c, none of its index arithmetic.
 */
#include "kernels_internal.h"

static void store(ss__tensor *out, int64_t at, uint64_t v)
{
    switch (out->dtype) {
    case SS_U8: ((uint8_t *)out->data)[at] = (uint8_t)v; break;
    case SS_U16: ((uint16_t *)out->data)[at] = (uint16_t)v; break;
    case SS_U32: ((uint32_t *)out->data)[at] = (uint32_t)v; break;
    default: ((uint64_t *)out->data)[at] = v; break;
    }
}

ss_status ss__k_ref_rng_bits(int alg, const ss__tensor *state, ss__tensor *out)
{
    int64_t zero[SS_MAX_RANK] = {0};
    if (state->dtype != SS_U64 || state->rank != 1 || state->shape[0] < 2)
        return ss__k_rng_bits(alg, state, out->shape, zero, out); /* its message */
    const uint64_t *s = state->data;
    uint32_t key[2] = {(uint32_t)s[0], (uint32_t)(s[0] >> 32)};
    int64_t n = ss__k_numel(out);
    bool wide = out->dtype == SS_U64;
    if (alg == SS_RNG_PHILOX) {
        uint64_t lo = s[1], hi = state->shape[0] >= 3 ? s[2] : s[0];
        int64_t per = wide ? 2 : 4, calls = (n * (wide ? 2 : 1) + 3) / 4;
        for (int64_t j = 0; j < calls; j++) {
            uint64_t l = lo + (uint64_t)j, h = l < lo ? hi + 1 : hi;
            uint32_t in[4] = {(uint32_t)l, (uint32_t)(l >> 32), (uint32_t)h, (uint32_t)(h >> 32)};
            uint32_t w[4];
            ss__k_philox4x32(key, in, w);
            for (int64_t k = 0; k < per; k++)
                if (j * per + k < n)
                    store(out, j * per + k,
                          wide ? ((uint64_t)w[2 * k] | ((uint64_t)w[2 * k + 1] << 32)) : w[k]);
        }
        return SS_OK;
    }
    if (alg != SS_RNG_THREE_FRY)
        return ss__k_rng_bits(alg, state, out->shape, zero, out);
    if (wide || out->rank == 0) {
        for (int64_t k = 0; k < (out->rank == 0 ? 1 : n); k++) {
            uint64_t c = s[1] + (uint64_t)k;
            uint32_t in[2] = {(uint32_t)c, (uint32_t)(c >> 32)}, w[2];
            ss__k_threefry2x32(key, in, w);
            store(out, k, wide ? ((uint64_t)w[0] | ((uint64_t)w[1] << 32)) : w[0]);
        }
        return SS_OK;
    }
    /* The shape as (outer, split dim, inner); call (o, h, i) fills
     * elements (o, 2h, i) and (o, 2h + 1, i), the second when it exists. */
    int sd = ss__k_rng_split_dim(out->rank, out->shape);
    int64_t outer = 1, inner = 1, m = out->shape[sd], half = (m + 1) / 2;
    for (int d = 0; d < sd; d++)
        outer *= out->shape[d];
    for (int d = sd + 1; d < out->rank; d++)
        inner *= out->shape[d];
    uint64_t c = s[1];
    for (int64_t o = 0; o < outer; o++)
        for (int64_t h = 0; h < half; h++)
            for (int64_t i = 0; i < inner; i++, c++) {
                uint32_t in[2] = {(uint32_t)c, (uint32_t)(c >> 32)}, w[2];
                ss__k_threefry2x32(key, in, w);
                store(out, (o * m + 2 * h) * inner + i, w[0]);
                if (2 * h + 1 < m)
                    store(out, (o * m + 2 * h + 1) * inner + i, w[1]);
            }
    return SS_OK;
}
