/* test_rng.c — rng_bit_generator's kernels and builder: the two block
 * functions against the known-answer vectors published with Random123
 * (Salmon et al., SC 2011; kat_vectors: threefry2x32_20, philox4x32_10),
 * every device block of the placed kernel against the naive whole-array
 * reference, the counter's carry in a three-word Philox state, the
 * builder's errors, and bitcast_convert between widths (which JAX puts
 * around the u32[4] key). Bits equal to JAX's: tests/test_mlir_import.c
 * (fixtures rng_bits, rbg_random). */
#include "support.h"

#include "graph/graph.h"
#include "kernels/kernels.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

Test(rng, threefry2x32_known_answers)
{
    static const uint32_t v[3][6] = {
        /* key, counter, result */
        {0, 0, 0, 0, 0x6b200159u, 0x99ba4efeu},
        {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x1cb996fcu, 0xbb002be7u},
        {0x13198a2eu, 0x03707344u, 0x243f6a88u, 0x85a308d3u, 0xc4923a9cu, 0x483df7a0u},
    };
    for (int k = 0; k < 3; k++) {
        uint32_t out[2];
        ss__k_threefry2x32(v[k], v[k] + 2, out);
        cr_assert(out[0] == v[k][4] && out[1] == v[k][5], "vector %d: %08x %08x", k, out[0],
                  out[1]);
    }
}

Test(rng, philox4x32_known_answers)
{
    static const uint32_t v[3][10] = {
        /* key, counter, result */
        {0, 0, 0, 0, 0, 0, 0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u},
        {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
         0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu},
        {0xa4093822u, 0x299f31d0u, 0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u,
         0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u},
    };
    for (int k = 0; k < 3; k++) {
        uint32_t out[4];
        ss__k_philox4x32(v[k], v[k] + 2, out);
        for (int j = 0; j < 4; j++)
            cr_assert(out[j] == v[k][6 + j], "vector %d word %d: %08x", k, j, out[j]);
    }
}

/* Every block of a bx x by grid of the whole (rows, cols) array, computed
 * alone, equals that block of the reference's whole array. */
static void check_blocks(int alg, ss_dtype dt, const uint64_t *state, int64_t words, int64_t rows,
                         int64_t cols, int bx, int by)
{
    size_t es = ss_dtype_size(dt);
    ss__tensor st = {SS_U64, 1, {words}, (void *)state};
    ss__tensor whole = {dt, 2, {rows, cols}, calloc((size_t)(rows * cols), es)};
    TS_OK(ss__k_ref_rng_bits(alg, &st, &whole));
    int64_t br = (rows + bx - 1) / bx, bc = (cols + by - 1) / by;
    unsigned char *blk = calloc((size_t)(br * bc), es);
    for (int i = 0; i < bx; i++)
        for (int j = 0; j < by; j++) {
            ss__tensor b = {dt, 2, {br, bc}, blk};
            int64_t full[2] = {rows, cols}, lo[2] = {i * br, j * bc};
            TS_OK(ss__k_rng_bits(alg, &st, full, lo, &b));
            for (int64_t r = 0; r < br; r++)
                for (int64_t c = 0; c < bc; c++) {
                    int64_t gr = lo[0] + r, gc = lo[1] + c;
                    const unsigned char *got = blk + (size_t)(r * bc + c) * es;
                    if (gr >= rows || gc >= cols) { /* padding */
                        for (size_t k = 0; k < es; k++)
                            cr_assert_eq(got[k], 0);
                        continue;
                    }
                    const unsigned char *want =
                        (unsigned char *)whole.data + (size_t)(gr * cols + gc) * es;
                    cr_assert(memcmp(got, want, es) == 0,
                              "alg %d %s (%lld, %lld) block (%d, %d): element (%lld, %lld)", alg,
                              ss_dtype_name(dt), (long long)rows, (long long)cols, i, j,
                              (long long)gr, (long long)gc);
                }
        }
    free(blk);
    free(whole.data);
}

Test(rng, device_blocks_equal_the_whole_array)
{
    static const ss_dtype dts[] = {SS_U8, SS_U16, SS_U32, SS_U64};
    static const int64_t shapes[][2] = {{8, 16}, {3, 5}, {5, 4}, {7, 9}, {1, 1}, {6, 7}};
    uint64_t state[3] = {0x9abcdef012345678u, 0x00000007ffffffffu, 5};
    for (int alg = SS_RNG_THREE_FRY; alg <= SS_RNG_PHILOX; alg++)
        for (size_t d = 0; d < 4; d++)
            for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
                check_blocks(alg, dts[d], state, 2, shapes[s][0], shapes[s][1], 2, 4);
                check_blocks(alg, dts[d], state, 2, shapes[s][0], shapes[s][1], 3, 1);
                if (alg == SS_RNG_PHILOX)
                    check_blocks(alg, dts[d], state, 3, shapes[s][0], shapes[s][1], 2, 2);
            }
}

/* A 128-bit Philox counter whose low word wraps inside the call: the
 * words after the wrap are those of counter (0, high + 1), and the new
 * state carries too. */
Test(rng, philox_counter_carries)
{
    uint64_t state[3] = {11, UINT64_MAX - 1, 40};
    ss__tensor st = {SS_U64, 1, {3}, state};
    uint32_t bits[16];
    ss__tensor out = {SS_U32, 1, {16}, bits};
    int64_t full[1] = {16}, lo[1] = {0};
    TS_OK(ss__k_rng_bits(SS_RNG_PHILOX, &st, full, lo, &out));
    uint32_t key[2] = {11, 0}, ctr[4] = {0, 0, 41, 0}, w[4];
    ss__k_philox4x32(key, ctr, w); /* call 2: low 0, high 41 */
    cr_assert(memcmp(bits + 8, w, sizeof w) == 0, "words of the call after the wrap");
    uint64_t ns[3];
    ss__tensor nt = {SS_U64, 1, {3}, ns};
    TS_OK(ss__k_rng_state(SS_RNG_PHILOX, &st, SS_U32, 1, full, &nt));
    cr_assert(ns[0] == 11 && ns[1] == 2 && ns[2] == 41, "state %llu %llu %llu",
              (unsigned long long)ns[0], (unsigned long long)ns[1], (unsigned long long)ns[2]);
    /* A two-word state keeps only the low word: the key is the high one. */
    TS_OK(ss__k_rng_state(SS_RNG_PHILOX, &(ss__tensor){SS_U64, 1, {2}, state}, SS_U64, 1,
                          (int64_t[]){5}, &(ss__tensor){SS_U64, 1, {2}, ns}));
    cr_assert(ns[0] == 11 && ns[1] == UINT64_MAX - 1 + 3, "two words: %llu",
              (unsigned long long)ns[1]);
}

/* ThreeFry's calls: narrow bits take one per pair along the split dim,
 * u64 one per element. */
Test(rng, threefry_counter_steps)
{
    cr_assert_eq(ss__k_rng_calls(SS_RNG_THREE_FRY, SS_U32, 2, (int64_t[]){3, 5}), 9);
    cr_assert_eq(ss__k_rng_calls(SS_RNG_THREE_FRY, SS_U8, 2, (int64_t[]){8, 16}), 64);
    cr_assert_eq(ss__k_rng_calls(SS_RNG_THREE_FRY, SS_U64, 2, (int64_t[]){3, 5}), 15);
    cr_assert_eq(ss__k_rng_calls(SS_RNG_THREE_FRY, SS_U32, 0, NULL), 1);
    cr_assert_eq(ss__k_rng_calls(SS_RNG_PHILOX, SS_U32, 2, (int64_t[]){3, 5}), 4);
    cr_assert_eq(ss__k_rng_calls(SS_RNG_PHILOX, SS_U64, 2, (int64_t[]){3, 5}), 8);
}

Test(rng, builder_refuses_bad_states_and_dtypes)
{
    ss_mesh *m = ts_make_mesh("x=2", 2);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value s32, s64, s3, ns, b;
    TS_OK(ss_input(p, "s32", SS_U32, 1, (int64_t[]){4}, NULL, &s32));
    TS_OK(ss_input(p, "s64", SS_U64, 1, (int64_t[]){2}, NULL, &s64));
    TS_OK(ss_input(p, "s3", SS_U64, 1, (int64_t[]){3}, NULL, &s3));
    int n0 = ss_program_value_count(p);
    cr_assert_eq(ss_rng_bit_generator(p, s32, SS_RNG_DEFAULT, SS_U32, 1, (int64_t[]){4}, &ns, &b),
                 SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "u32[4], not u64[2]"), "%s", ss_error_message());
    cr_assert_eq(ss_rng_bit_generator(p, s3, SS_RNG_THREE_FRY, SS_U32, 1, (int64_t[]){4}, &ns, &b),
                 SS_ERR_INVALID);
    cr_assert_eq(ss_rng_bit_generator(p, s64, SS_RNG_PHILOX, SS_F32, 1, (int64_t[]){4}, &ns, &b),
                 SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "bits of f32"), "%s", ss_error_message());
    cr_assert_eq(ss_program_value_count(p), n0, "a refused op adds no node");
    TS_OK(ss_rng_bit_generator(p, s3, SS_RNG_PHILOX, SS_U8, 2, (int64_t[]){2, 3}, &ns, &b));
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* u32[2, 2] -> u64[2] -> u32[2, 2], as JAX's lowering moves the key: the
 * element at index 0 is the low word (the bytes in memory do not move). */
Test(rng, bitcast_convert_between_widths)
{
    ss_mesh *m = ts_make_mesh("x=2", 2);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value k, wide, back, bytes;
    TS_OK(ss_input(p, "k", SS_U32, 2, (int64_t[]){2, 2}, NULL, &k));
    TS_OK(ss_bitcast_convert(p, k, SS_U64, &wide));
    TS_OK(ss_bitcast_convert(p, wide, SS_U32, &back));
    TS_OK(ss_bitcast_convert(p, k, SS_U8, &bytes));
    TS_OK(ss_output(p, wide, NULL));
    TS_OK(ss_output(p, back, NULL));
    TS_OK(ss_output(p, bytes, NULL));
    uint32_t in[4] = {0x11223344u, 0x55667788u, 0xdeadbeefu, 7};
    uint64_t w[2];
    uint32_t b[4];
    uint8_t by[16];
    const void *ins[1] = {in};
    void *outs[3] = {w, b, by};
    TS_OK(ss_program_eval(p, ins, outs));
    cr_assert(memcmp(w, in, sizeof w) == 0, "u64 %016llx %016llx", (unsigned long long)w[0],
              (unsigned long long)w[1]);
    cr_assert(memcmp(b, in, sizeof b) == 0);
    cr_assert(memcmp(by, in, sizeof by) == 0);
    ss_value bad;
    cr_assert_eq(ss_bitcast_convert(p, wide, SS_BOOL, &bad), SS_ERR_UNSUPPORTED);
    ss_value odd;
    TS_OK(ss_input(p, "odd", SS_U32, 1, (int64_t[]){3}, NULL, &odd));
    cr_assert_eq(ss_bitcast_convert(p, odd, SS_U64, &bad), SS_ERR_INVALID);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}
