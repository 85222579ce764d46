/*
 * rng.c — the bits of StableHLO's rng_bit_generator as XLA's CPU backend
 * computes them (its rng_bit_generator expander; the algorithms are
 * restated from openxla/xla, xla/hlo/builder/lib/prng.cc): ThreeFry-2x32
 * with 20 rounds and Philox-4x32 with 10, their counters laid out over
 * the result as XLA lays them.
 *
 * Every element is a function of its row-major position in the whole
 * array, so a device computes its own block alone (`lo` places the block in
 * the whole array); the naive reference (reference_rng.c) builds the whole
 * array the way XLA's expander does, call by call, and places each call's
 * words. Not here: the distributions JAX builds on the bits (they are
 * ordinary ops of the lowered program).
 */
#include "kernels_internal.h"

static uint32_t rotl32(uint32_t v, int r) { return (v << r) | (v >> (32 - r)); }

void ss__k_threefry2x32(const uint32_t key[2], const uint32_t in[2], uint32_t out[2])
{
    static const int rot[8] = {13, 15, 26, 6, 17, 29, 16, 24};
    uint32_t ks[3] = {key[0], key[1], 0x1BD11BDAu ^ key[0] ^ key[1]};
    uint32_t x0 = in[0] + ks[0], x1 = in[1] + ks[1];
    /* Five groups of four rounds, the key injected after each group. */
    for (uint32_t g = 1; g <= 5; g++) {
        const int *r = rot + ((g - 1) % 2) * 4;
        for (int k = 0; k < 4; k++) {
            x0 += x1;
            x1 = rotl32(x1, r[k]) ^ x0;
        }
        x0 += ks[g % 3];
        x1 += ks[(g + 1) % 3] + g;
    }
    out[0] = x0;
    out[1] = x1;
}

void ss__k_philox4x32(const uint32_t key_in[2], const uint32_t in[4], uint32_t out[4])
{
    uint32_t k0 = key_in[0], k1 = key_in[1];
    uint32_t x0 = in[0], x1 = in[1], x2 = in[2], x3 = in[3];
    for (int round = 0; round < 10; round++) {
        uint64_t p0 = (uint64_t)x0 * 0xD2511F53u, p1 = (uint64_t)x2 * 0xCD9E8D57u;
        uint32_t y0 = (uint32_t)(p1 >> 32) ^ x1 ^ k0, y1 = (uint32_t)p1;
        uint32_t y2 = (uint32_t)(p0 >> 32) ^ x3 ^ k1, y3 = (uint32_t)p0;
        x0 = y0, x1 = y1, x2 = y2, x3 = y3;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    out[0] = x0, out[1] = x1, out[2] = x2, out[3] = x3;
}

int ss__k_rng_split_dim(int rank, const int64_t shape[])
{
    for (int d = 0; d < rank; d++)
        if (shape[d] % 2 == 0)
            return d;
    int best = 0;
    for (int d = 1; d < rank; d++)
        if (shape[d] > shape[best])
            best = d;
    return best;
}

/* The 128-bit Philox counter of a state of n words: low word state[1],
 * high word state[2], or state[0] (the key) in a two-word state. */
static void philox_counter(const uint64_t *s, int64_t n, uint64_t c[2])
{
    c[0] = s[1];
    c[1] = n >= 3 ? s[2] : s[0];
}

/* The words of Philox call j: counter + j with the carry. */
static void philox_call(const uint64_t c[2], const uint32_t key[2], uint64_t j, uint32_t out[4])
{
    uint64_t lo = c[0] + j, hi = c[1] + (lo < c[0]);
    uint32_t in[4] = {(uint32_t)lo, (uint32_t)(lo >> 32), (uint32_t)hi, (uint32_t)(hi >> 32)};
    ss__k_philox4x32(key, in, out);
}

static uint64_t numel_of(int rank, const int64_t shape[])
{
    uint64_t n = 1;
    for (int d = 0; d < rank; d++)
        n *= (uint64_t)shape[d];
    return n;
}

int64_t ss__k_rng_calls(int alg, ss_dtype dt, int rank, const int64_t shape[])
{
    uint64_t n = numel_of(rank, shape);
    bool wide = dt == SS_U64;
    if (alg == SS_RNG_PHILOX)
        return (int64_t)(wide ? (2 * n + 3) / 4 : (n + 3) / 4);
    if (wide || rank == 0)
        return rank == 0 ? 1 : (int64_t)n;
    int sd = ss__k_rng_split_dim(rank, shape);
    return (int64_t)(n / (uint64_t)(shape[sd] ? shape[sd] : 1) *
                     (uint64_t)((shape[sd] + 1) / 2));
}

static ss_status check(const ss__tensor *state, int alg, ss_dtype dt, const char *what)
{
    if (state->dtype != SS_U64 || state->rank != 1 || state->shape[0] < 2 ||
        state->shape[0] > (alg == SS_RNG_PHILOX ? 3 : 2))
        return ss__fail(SS_ERR_INVALID, "%s: the state is not u64[2]%s", what,
                        alg == SS_RNG_PHILOX ? " or u64[3]" : "");
    if (alg != SS_RNG_PHILOX && alg != SS_RNG_THREE_FRY)
        return ss__fail(SS_ERR_INVALID, "%s: algorithm %d", what, alg);
    if (dt != SS_U8 && dt != SS_U16 && dt != SS_U32 && dt != SS_U64)
        return ss__fail(SS_ERR_INVALID, "%s: bits of %s", what, ss_dtype_name(dt));
    return SS_OK;
}

ss_status ss__k_rng_state(int alg, const ss__tensor *state, ss_dtype dt, int rank,
                          const int64_t shape[], ss__tensor *out)
{
    ss_status st = check(state, alg, dt, "rng_bit_generator");
    if (st)
        return st;
    if (out->dtype != SS_U64 || out->rank != 1 || out->shape[0] != state->shape[0])
        return ss__fail(SS_ERR_INVALID, "rng_bit_generator: the new state's shape");
    const uint64_t *s = state->data;
    uint64_t *o = out->data;
    uint64_t calls = (uint64_t)ss__k_rng_calls(alg, dt, rank, shape);
    o[0] = s[0];
    if (alg == SS_RNG_THREE_FRY) {
        o[1] = s[1] + calls;
        return SS_OK;
    }
    uint64_t c[2];
    philox_counter(s, state->shape[0], c);
    o[1] = c[0] + calls;
    if (state->shape[0] >= 3)
        o[2] = c[1] + (o[1] < c[0]);
    return SS_OK;
}

static void put(void *out, ss_dtype dt, int64_t at, uint64_t v)
{
    switch (dt) {
    case SS_U8: ((uint8_t *)out)[at] = (uint8_t)v; break;
    case SS_U16: ((uint16_t *)out)[at] = (uint16_t)v; break;
    case SS_U32: ((uint32_t *)out)[at] = (uint32_t)v; break;
    default: ((uint64_t *)out)[at] = v; break;
    }
}

ss_status ss__k_rng_bits(int alg, const ss__tensor *state, const int64_t full[],
                         const int64_t lo[], ss__tensor *out)
{
    ss_status st = check(state, alg, out->dtype, "rng_bit_generator");
    if (st)
        return st;
    int rank = out->rank;
    const uint64_t *s = state->data;
    uint32_t key[2] = {(uint32_t)s[0], (uint32_t)(s[0] >> 32)};
    bool wide = out->dtype == SS_U64;
    int sd = rank ? ss__k_rng_split_dim(rank, full) : 0;
    uint64_t c[2];
    philox_counter(s, state->shape[0], c);
    int64_t idx[SS_MAX_RANK] = {0}, n = ss__k_numel(out);
    uint64_t cached = UINT64_MAX;
    uint32_t words[4] = {0};
    for (int64_t e = 0; e < n; e++) {
        /* The global position: row-major over the whole array, and over
         * the half-split shape for ThreeFry's narrow bits. */
        uint64_t lin = 0, half = 0;
        int which = 0;
        bool inside = true;
        for (int d = 0; d < rank; d++) {
            int64_t g = lo[d] + idx[d];
            inside = inside && g < full[d];
            lin = lin * (uint64_t)full[d] + (uint64_t)g;
            if (d == sd) {
                half = half * (uint64_t)((full[d] + 1) / 2) + (uint64_t)(g / 2);
                which = (int)(g % 2);
            } else {
                half = half * (uint64_t)full[d] + (uint64_t)g;
            }
        }
        uint64_t v = 0;
        if (!inside) {
            v = 0; /* padding of an uneven block */
        } else if (alg == SS_RNG_PHILOX) {
            uint64_t call = wide ? lin / 2 : lin / 4;
            if (call != cached)
                philox_call(c, key, call, words), cached = call;
            v = wide ? ((uint64_t)words[2 * (lin % 2)] | (uint64_t)words[2 * (lin % 2) + 1] << 32)
                     : words[lin % 4];
        } else {
            uint64_t ctr = s[1] + (wide ? lin : half);
            if (ctr != cached) {
                uint32_t in[2] = {(uint32_t)ctr, (uint32_t)(ctr >> 32)};
                ss__k_threefry2x32(key, in, words);
                cached = ctr;
            }
            v = wide ? ((uint64_t)words[0] | (uint64_t)words[1] << 32) : words[which];
        }
        put(out->data, out->dtype, e, v);
        for (int d = rank - 1; d >= 0; d--) {
            if (++idx[d] < out->shape[d])
                break;
            idx[d] = 0;
        }
    }
    return SS_OK;
}
