/* test_kernels.c — the local compute kernels against their naive references
 * on random data, hand-computed values for small inputs, the 16-bit float
 * conversions, and one-line errors for bad shapes.
 *
 * Tolerances: shape ops and reductions bit for bit; add/sub/mul/div/max/min
 * bit for bit (double then one rounding equals f32 arithmetic); other
 * elementwise ops rtol 2e-6 + atol 1e-6; dot_general |got - want| <=
 * 1e-5 * sqrt(K) * sum|a||b|; softmax/log_softmax/layer_norm/cross-entropy
 * rtol 1e-5 + atol 1e-6; anything stored in bf16 one bf16 ulp (rtol 2^-7). */
#include "kernels_check.h"

#include <pthread.h>

/* --- 16-bit conversions --- */

Test(kernels, bf16_round_trip_every_pattern)
{
    for (uint32_t h = 0; h < 0x10000u; h++) {
        uint16_t back = ss__f32_to_bf16(ss__bf16_to_f32((uint16_t)h));
        bool nan = (h & 0x7f80u) == 0x7f80u && (h & 0x7fu);
        if (nan)
            cr_assert_eq(back, h | 0x40u, "bf16 NaN %04x came back as %04x", h, back);
        else
            cr_assert_eq(back, h, "bf16 %04x came back as %04x", h, back);
    }
}

static float from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

Test(kernels, bf16_rounds_to_nearest_even_and_keeps_nan)
{
    cr_assert_eq(ss__f32_to_bf16(from_bits(0x3f808000u)), 0x3f80); /* tie, even below */
    cr_assert_eq(ss__f32_to_bf16(from_bits(0x3f818000u)), 0x3f82); /* tie, even above */
    cr_assert_eq(ss__f32_to_bf16(from_bits(0x3f808001u)), 0x3f81); /* above the tie */
    cr_assert_eq(ss__f32_to_bf16(from_bits(0x3f807fffu)), 0x3f80); /* below the tie */
    cr_assert_eq(ss__f32_to_bf16(from_bits(0xbf818000u)), 0xbf82); /* negative tie */
    cr_assert_eq(ss__f32_to_bf16(from_bits(0x7f7fffffu)), 0x7f80); /* FLT_MAX -> inf */
    cr_assert_eq(ss__f32_to_bf16(INFINITY), 0x7f80);
    cr_assert_eq(ss__f32_to_bf16(from_bits(0x7fc00000u)), 0x7fc0);
    cr_assert_eq(ss__f32_to_bf16(from_bits(0x7f800001u)), 0x7fc0); /* signalling stays NaN */
    cr_assert_eq(ss__f32_to_bf16(from_bits(0xff800001u)), 0xffc0); /* sign kept */
    cr_assert_eq(ss__f32_to_bf16(from_bits(0x00000001u)), 0x0000); /* tiny subnormal */
}

Test(kernels, f16_round_trip_every_pattern)
{
    for (uint32_t h = 0; h < 0x10000u; h++) {
        uint16_t back = ss__f32_to_f16(ss__f16_to_f32((uint16_t)h));
        bool nan = (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu);
        cr_assert_eq(back, nan ? (h | 0x200u) : h, "f16 %04x came back as %04x", h, back);
    }
}

Test(kernels, f16_rounds_to_nearest_even)
{
    cr_assert_eq(ss__f32_to_f16(65504.0f), 0x7bff);
    cr_assert_eq(ss__f32_to_f16(65519.0f), 0x7bff);
    cr_assert_eq(ss__f32_to_f16(65520.0f), 0x7c00); /* tie with the next binade: inf */
    cr_assert_eq(ss__f32_to_f16(ldexpf(1.0f, -25)), 0x0000); /* tie with 0 */
    cr_assert_eq(ss__f32_to_f16(ldexpf(1.0001f, -25)), 0x0001);
    cr_assert_eq(ss__f32_to_f16(ldexpf(3.0f, -26)), 0x0001); /* 0.75 units */
    cr_assert_eq(ss__f32_to_f16(ldexpf(3.0f, -25)), 0x0002); /* 1.5 units: even */
    cr_assert_eq(ss__f32_to_f16(ldexpf(5.0f, -25)), 0x0002); /* 2.5 units: even */
    cr_assert_eq(ss__f32_to_f16(1.0f + ldexpf(1.0f, -11)), 0x3c00); /* tie below */
    cr_assert_eq(ss__f32_to_f16(-2.0f), 0xc000);
#ifdef __FLT16_MAX__
    for (int i = 0; i < 200000; i++) {
        rng = rng * 1103515245u + 12345u;
        uint32_t u = rng ^ (rng << 13);
        float f = from_bits(u);
        _Float16 h = (_Float16)f;
        uint16_t want;
        memcpy(&want, &h, 2);
        uint16_t got = ss__f32_to_f16(f);
        if (isnan(f))
            cr_assert((got & 0x7c00u) == 0x7c00u && (got & 0x3ffu));
        else
            cr_assert_eq(got, want, "f32 %08x: got %04x, _Float16 gives %04x", u, got, want);
    }
#endif
}

Test(kernels, convert_between_dtypes)
{
    ss__tensor x = T(SS_F32, 6), i = T(SS_I32, 6), b = T(SS_BF16, 6), back = T(SS_F32, 6);
    VALUES(&x, 1.5, -2.7, NAN, 3e9, -3e9, 1.00390625);
    OK(ss__k_convert(&x, &i));
    int32_t want[6] = {1, -2, 0, INT32_MAX, INT32_MIN, 1};
    cr_assert_arr_eq(i.data, want, sizeof want);
    OK(ss__k_convert(&x, &b));
    OK(ss__k_convert(&b, &back));
    cr_assert_eq(at(&back, 0), 1.5);
    cr_assert(isnan(at(&back, 2)));
    cr_assert_eq(at(&back, 5), 1.0); /* tie rounded to even */
    EXPECT_ERROR(ss__k_convert(&x, &(ss__tensor){SS_F32, 1, {5}, back.data}), SS_ERR_INVALID,
                 "convert: output shape (5,) differs from input shape (6,)");
    tfree(&x), tfree(&i), tfree(&b), tfree(&back);
}

/* --- Elementwise --- */

Test(kernels, unary_ops_match_reference)
{
    for (int op = 0; op < SS__K_UNARY_COUNT; op++) {
        if (!ss__k_unary_is_f32_path((ss__k_unary_op)op, SS_F32, SS_F32))
            continue; /* integer and bool ops: test_elementwise_int.c */
        bool positive = op == SS__K_LOG || op == SS__K_SQRT || op == SS__K_RSQRT;
        ss__tensor x = T(SS_F32, 3, 5, 17), got = T(SS_F32, 3, 5, 17), want = T(SS_F32, 3, 5, 17);
        fill(&x, positive ? 0.01 : -4.0, 4.0);
        OK(ss__k_unary((ss__k_unary_op)op, &x, &got));
        OK(ss__k_ref_unary((ss__k_unary_op)op, &x, &want));
        bool exact = op == SS__K_NEG || op == SS__K_RELU || op == SS__K_SQUARE || op == SS__K_SQRT ||
                     op == SS__K_CONVERT || op == SS__K_ABS || op == SS__K_SIGN ||
                     op == SS__K_FLOOR || op == SS__K_CEIL || op == SS__K_ROUND_EVEN ||
                     op == SS__K_ROUND_AFZ;
        if (exact)
            EXPECT_SAME(&got, &want, ss__k_unary_name((ss__k_unary_op)op));
        else
            EXPECT_CLOSE(&got, &want, 2e-6, 1e-6, ss__k_unary_name((ss__k_unary_op)op));
        tfree(&x), tfree(&got), tfree(&want);
    }
}

Test(kernels, unary_converts_16bit_storage)
{
    ss_dtype in[3] = {SS_BF16, SS_F32, SS_F16}, outd[3] = {SS_F32, SS_BF16, SS_F16};
    for (int k = 0; k < 3; k++) {
        ss__tensor x = T(in[k], 1000), got = T(outd[k], 1000), want = T(outd[k], 1000);
        fill(&x, -3, 3);
        OK(ss__k_unary(SS__K_TANH, &x, &got));
        OK(ss__k_ref_unary(SS__K_TANH, &x, &want));
        EXPECT_CLOSE(&got, &want, outd[k] == SS_F32 ? 2e-6 : 1.0 / 128, 1e-6, "tanh");
        tfree(&x), tfree(&got), tfree(&want);
    }
}

Test(kernels, gelu_is_the_tanh_approximation)
{
    ss__tensor x = T(SS_F32, 6), y = T(SS_F32, 6), want = T(SS_F32, 6);
    VALUES(&x, 0, 1, -1, 2, -3, 0.5);
    VALUES(&want, 0.0, 0.8411919906082768, -0.15880800939172324, 1.954597694087775,
           -0.0036373920817729943, 0.34571400982514394);
    OK(ss__k_unary(SS__K_GELU, &x, &y));
    EXPECT_CLOSE(&y, &want, 1e-6, 1e-7, "gelu");
    tfree(&x), tfree(&y), tfree(&want);
}

Test(kernels, relu_max_min_propagate_nan)
{
    cr_assert(isnan(ss__k_unary_f32(SS__K_RELU, NAN)));
    cr_assert_eq(ss__k_unary_f32(SS__K_RELU, -2.0f), 0.0f);
    cr_assert(isnan(ss__k_binary_f32(SS__K_MAX, NAN, 1.0f)));
    cr_assert(isnan(ss__k_binary_f32(SS__K_MAX, 1.0f, NAN)));
    cr_assert(isnan(ss__k_binary_f32(SS__K_MIN, NAN, 1.0f)));
    cr_assert(isnan(ss__k_binary_f32(SS__K_MIN, 1.0f, NAN)));
    cr_assert_eq(ss__k_binary_f32(SS__K_MIN, -1.0f, 2.0f), -1.0f);
}

/* Shapes of a, b and their broadcast result. */
static const struct bcase {
    int ra, rb, ro;
    int64_t a[4], b[4], o[4];
} bcases[] = {
    {2, 2, 2, {3, 4}, {3, 4}, {3, 4}},
    {2, 1, 2, {3, 4}, {4}, {3, 4}},
    {2, 2, 2, {3, 1}, {1, 4}, {3, 4}},
    {3, 2, 3, {2, 1, 5}, {3, 1}, {2, 3, 5}},
    {0, 2, 2, {0}, {2, 3}, {2, 3}},
    {4, 3, 4, {5, 1, 1, 6}, {1, 7, 1}, {5, 1, 7, 6}},
    {1, 1, 1, {1}, {300}, {300}},
    {3, 3, 3, {4, 1, 300}, {4, 2, 300}, {4, 2, 300}},
};

Test(kernels, binary_ops_broadcast_like_numpy)
{
    for (size_t c = 0; c < sizeof bcases / sizeof bcases[0]; c++) {
        const struct bcase *bc = &bcases[c];
        for (int op = 0; op < SS__K_BINARY_COUNT; op++) {
            if (!ss__k_binary_is_f32_path((ss__k_binary_op)op, SS_F32, SS_F32, SS_F32))
                continue; /* integer and bool ops: test_elementwise_int.c */
            ss__tensor a = tnew(SS_F32, bc->ra, bc->a), b = tnew(SS_F32, bc->rb, bc->b);
            ss__tensor got = tnew(SS_F32, bc->ro, bc->o), want = tnew(SS_F32, bc->ro, bc->o);
            fill(&a, op == SS__K_POW ? 0.1 : -3, 3);
            fill(&b, op == SS__K_DIV ? 0.5 : -3, 3);
            OK(ss__k_binary((ss__k_binary_op)op, &a, &b, &got));
            OK(ss__k_ref_binary((ss__k_binary_op)op, &a, &b, &want));
            if (op == SS__K_POW || op == SS__K_ATAN2)
                EXPECT_CLOSE(&got, &want, 2e-6, 1e-6, ss__k_binary_name((ss__k_binary_op)op));
            else
                EXPECT_SAME(&got, &want, ss__k_binary_name((ss__k_binary_op)op));
            tfree(&a), tfree(&b), tfree(&got), tfree(&want);
        }
    }
}

Test(kernels, binary_mixed_dtypes_and_in_place)
{
    ss__tensor a = T(SS_BF16, 7, 33), b = T(SS_F32, 33), got = T(SS_F16, 7, 33),
               want = T(SS_F16, 7, 33);
    fill(&a, -2, 2), fill(&b, -2, 2);
    OK(ss__k_binary(SS__K_MUL, &a, &b, &got));
    OK(ss__k_ref_binary(SS__K_MUL, &a, &b, &want));
    EXPECT_CLOSE(&got, &want, 1.0 / 1024, 1e-6, "mul bf16 x f32 -> f16");

    ss__tensor x = T(SS_F32, 7, 33), ref = T(SS_F32, 7, 33);
    fill(&x, -2, 2);
    OK(ss__k_ref_binary(SS__K_SUB, &x, &b, &ref));
    OK(ss__k_binary(SS__K_SUB, &x, &b, &x));
    EXPECT_SAME(&x, &ref, "sub in place");
    tfree(&a), tfree(&b), tfree(&got), tfree(&want), tfree(&x), tfree(&ref);
}

Test(kernels, binary_with_scalar_constants)
{
    ss__tensor x = T(SS_F32, 4), y = T(SS_F32, 4), want = T(SS_F32, 4);
    VALUES(&x, 1, 2, 3, 4);
    OK(ss__k_binary_scalar(SS__K_SUB, &x, 10.0f, true, &y));
    VALUES(&want, 9, 8, 7, 6);
    EXPECT_SAME(&y, &want, "10 - x");
    OK(ss__k_binary_scalar(SS__K_POW, &x, 2.0f, false, &y));
    VALUES(&want, 1, 4, 9, 16);
    EXPECT_SAME(&y, &want, "x ** 2");
    ss__tensor s = scalar(SS_F32), out = scalar(SS_F32);
    VALUES(&s, 3);
    OK(ss__k_binary(SS__K_DIV, &s, &s, &out));
    cr_assert_eq(at(&out, 0), 1.0);
    tfree(&x), tfree(&y), tfree(&want), tfree(&s), tfree(&out);
}

/* The exact path's strided loop (broadcasting, typed loops) against the
 * reference's unravelled one, bit for bit, on integer and bool dtypes with
 * random bit patterns (shift amounts included, most of them out of range). */
Test(kernels, integer_ops_broadcast_like_the_reference)
{
    static const ss_dtype dts[] = {SS_I8, SS_U8, SS_I16, SS_U16, SS_I32, SS_U32, SS_I64, SS_U64,
                                   SS_BOOL};
    uint64_t seed = 12345;
    for (size_t t = 0; t < sizeof dts / sizeof dts[0]; t++)
        for (size_t c = 0; c < sizeof bcases / sizeof bcases[0]; c++)
            for (int op = 0; op < SS__K_BINARY_COUNT; op++) {
                const struct bcase *bc = &bcases[c];
                ss__tensor a = tnew(dts[t], bc->ra, bc->a), b = tnew(dts[t], bc->rb, bc->b);
                ss__tensor got = tnew(dts[t], bc->ro, bc->o), want = tnew(dts[t], bc->ro, bc->o);
                size_t es = ss_dtype_size(dts[t]);
                ss__tensor *ops[2] = {&a, &b};
                for (int k = 0; k < 2; k++)
                    for (int64_t i = 0; i < ss__k_numel(ops[k]) * (int64_t)es; i++) {
                        seed = seed * 6364136223846793005u + 1442695040888963407u;
                        unsigned char v = (unsigned char)(seed >> 56);
                        ((unsigned char *)ops[k]->data)[i] =
                            dts[t] == SS_BOOL ? v & 1u : (k == 1 && v < 128) ? v % 70 : v;
                    }
                ss_status s1 = ss__k_binary((ss__k_binary_op)op, &a, &b, &got);
                ss_status s2 = ss__k_ref_binary((ss__k_binary_op)op, &a, &b, &want);
                cr_assert_eq(s1, s2, "%s on %s", ss__k_binary_name((ss__k_binary_op)op),
                             ss_dtype_name(dts[t]));
                if (s1 == SS_OK)
                    cr_assert(memcmp(got.data, want.data, (size_t)ss__k_numel(&got) * es) == 0,
                              "%s on %s, case %zu", ss__k_binary_name((ss__k_binary_op)op),
                              ss_dtype_name(dts[t]), c);
                tfree(&a), tfree(&b), tfree(&got), tfree(&want);
            }
}

Test(kernels, binary_bad_broadcast_is_one_line)
{
    ss__tensor a = T(SS_F32, 2, 3), b = T(SS_F32, 4), o = T(SS_F32, 2, 3), o2 = T(SS_F32, 3, 3);
    EXPECT_ERROR(ss__k_binary(SS__K_ADD, &a, &b, &o), SS_ERR_INVALID,
                 "add: cannot broadcast shapes (2, 3) and (4,)");
    EXPECT_ERROR(ss__k_binary(SS__K_ADD, &a, &a, &o2), SS_ERR_INVALID,
                 "add: output shape (3, 3) differs from broadcast shape (2, 3)");
    ss__tensor i = T(SS_I32, 2, 3);
    EXPECT_ERROR(ss__k_unary(SS__K_EXP, &i, &o), SS_ERR_UNSUPPORTED,
                 "exp: not defined on i32 -> f32");
    EXPECT_ERROR(ss__k_unary((ss__k_unary_op)99, &a, &o), SS_ERR_INVALID, "unary: unknown op 99");
    tfree(&a), tfree(&b), tfree(&o), tfree(&o2), tfree(&i);
}

/* --- Reductions --- */

Test(kernels, reductions_match_reference_bit_for_bit)
{
    const int64_t shape[4] = {3, 4, 5, 6};
    ss__tensor x = tnew(SS_F32, 4, shape);
    fill(&x, -100, 100);
    for (int op = 0; op < SS__K_REDUCE_COUNT; op++) {
        if (!ss__k_reduce_has((ss__k_reduce_op)op, SS_F32)) /* and, or: integers and bool */
            continue;
        for (unsigned mask = 0; mask < 16; mask++) {
            for (int keep = 0; keep < 2; keep++) {
                int axes[4], n = 0;
                for (int d = 0; d < 4; d++)
                    if (mask & (1u << d))
                        axes[n++] = d == 2 ? -2 : d; /* a negative axis too */
                ss__tensor o = {.dtype = SS_F32};
                OK(ss__k_reduce_shape((ss__k_reduce_op)op, &x, n, axes, keep, &o.rank, o.shape));
                ss__tensor got = tnew(SS_F32, o.rank, o.shape), want = tnew(SS_F32, o.rank, o.shape);
                OK(ss__k_reduce((ss__k_reduce_op)op, &x, n, axes, keep, &got));
                OK(ss__k_ref_reduce((ss__k_reduce_op)op, &x, n, axes, keep, &want));
                EXPECT_SAME(&got, &want, ss__k_reduce_name((ss__k_reduce_op)op));
                tfree(&got), tfree(&want);
            }
        }
    }
    tfree(&x);
}

Test(kernels, reductions_long_rows_and_bf16)
{
    /* 600 > the block size both as the reduced and as the kept inner dim. */
    ss__tensor x = T(SS_BF16, 3, 600), r0 = T(SS_BF16, 600), r1 = T(SS_F32, 3);
    ss__tensor w0 = T(SS_BF16, 600), w1 = T(SS_F32, 3);
    fill(&x, -1, 1);
    OK(ss__k_reduce(SS__K_REDUCE_SUM, &x, 1, (int[]){0}, false, &r0));
    OK(ss__k_ref_reduce(SS__K_REDUCE_SUM, &x, 1, (int[]){0}, false, &w0));
    EXPECT_SAME(&r0, &w0, "sum axis 0");
    OK(ss__k_reduce(SS__K_REDUCE_MEAN, &x, 1, (int[]){1}, false, &r1));
    OK(ss__k_ref_reduce(SS__K_REDUCE_MEAN, &x, 1, (int[]){1}, false, &w1));
    EXPECT_SAME(&r1, &w1, "mean axis 1");
    tfree(&x), tfree(&r0), tfree(&r1), tfree(&w0), tfree(&w1);
}

Test(kernels, reductions_of_many_rows_interleaved)
{
    /* Rows reduced side by side in groups of 8 (reduce.c): 37 rows (a
     * partial group), 300 > the block size, NaN and infinities in some. */
    ss__tensor x = T(SS_F32, 37, 300);
    fill(&x, -50, 50);
    float *v = x.data;
    v[5 * 300 + 7] = NAN;
    v[9 * 300 + 299] = INFINITY;
    v[17 * 300] = -INFINITY;
    for (int op = 0; op < SS__K_REDUCE_COUNT; op++) {
        if (!ss__k_reduce_has((ss__k_reduce_op)op, SS_F32))
            continue;
        ss__tensor got = T(SS_F32, 37), want = T(SS_F32, 37);
        OK(ss__k_reduce((ss__k_reduce_op)op, &x, 1, (int[]){1}, false, &got));
        OK(ss__k_ref_reduce((ss__k_reduce_op)op, &x, 1, (int[]){1}, false, &want));
        EXPECT_SAME(&got, &want, ss__k_reduce_name((ss__k_reduce_op)op));
        tfree(&got), tfree(&want);
    }
    tfree(&x);
}

Test(kernels, reductions_of_nothing_and_nan)
{
    ss__tensor e = T(SS_F32, 3, 0), o = T(SS_F32, 3);
    OK(ss__k_reduce(SS__K_REDUCE_SUM, &e, 1, (int[]){1}, false, &o));
    cr_assert_eq(at(&o, 0), 0.0);
    OK(ss__k_reduce(SS__K_REDUCE_MAX, &e, 1, (int[]){1}, false, &o));
    cr_assert_eq(at(&o, 1), -INFINITY);
    OK(ss__k_reduce(SS__K_REDUCE_MIN, &e, 1, (int[]){1}, false, &o));
    cr_assert_eq(at(&o, 2), INFINITY);
    OK(ss__k_reduce(SS__K_REDUCE_MEAN, &e, 1, (int[]){1}, false, &o));
    cr_assert(isnan(at(&o, 0)));
    ss__tensor x = T(SS_F32, 4), m = scalar(SS_F32);
    VALUES(&x, 1, NAN, 3, 2);
    OK(ss__k_reduce(SS__K_REDUCE_MAX, &x, 1, (int[]){0}, false, &m));
    cr_assert(isnan(at(&m, 0)));
    VALUES(&x, 1, 5, 3, 2);
    OK(ss__k_reduce(SS__K_REDUCE_MAX, &x, 1, (int[]){-1}, false, &m));
    cr_assert_eq(at(&m, 0), 5.0);
    tfree(&e), tfree(&o), tfree(&x), tfree(&m);
}

Test(kernels, reduction_errors_are_one_line)
{
    ss__tensor x = T(SS_F32, 2, 3), o = T(SS_F32, 2), o3 = T(SS_F32, 3);
    EXPECT_ERROR(ss__k_reduce(SS__K_REDUCE_SUM, &x, 2, (int[]){1, -1}, false, &o), SS_ERR_INVALID,
                 "sum: axis -1 repeated");
    EXPECT_ERROR(ss__k_reduce(SS__K_REDUCE_SUM, &x, 1, (int[]){2}, false, &o), SS_ERR_INVALID,
                 "sum: axis 2 is out of range for rank 2");
    EXPECT_ERROR(ss__k_reduce(SS__K_REDUCE_MEAN, &x, 1, (int[]){1}, false, &o3), SS_ERR_INVALID,
                 "mean: output shape (3,) differs from reduced shape (2,)");
    EXPECT_ERROR(ss__k_reduce(SS__K_REDUCE_MEAN, &x, 1, (int[]){1}, true, &o), SS_ERR_INVALID,
                 "mean: output shape (2,) differs from reduced shape (2, 1)");
    tfree(&x), tfree(&o), tfree(&o3);
}

/* --- dot_general --- */

/* Run dot_general and its reference; check |got - want| <= 1e-5 sqrt(K)
 * sum|a||b| elementwise (the sum from the reference on |a|, |b|). */
static void check_dot(const ss__tensor *lhs, const ss__tensor *rhs, const ss__k_dot_dims *d,
                      ss_dtype out_dtype, int line)
{
    ss__tensor o = {.dtype = out_dtype};
    OK(ss__k_dot_general_shape(lhs, rhs, d, &o.rank, o.shape));
    ss__tensor got = tnew(out_dtype, o.rank, o.shape), want = tnew(SS_F32, o.rank, o.shape);
    ss__tensor mag = tnew(SS_F32, o.rank, o.shape);
    ss__tensor al = tnew(SS_F32, lhs->rank, lhs->shape), ar = tnew(SS_F32, rhs->rank, rhs->shape);
    for (int64_t i = 0; i < ss__k_numel(lhs); i++)
        put(&al, i, fabs(at(lhs, i)));
    for (int64_t i = 0; i < ss__k_numel(rhs); i++)
        put(&ar, i, fabs(at(rhs, i)));
    OK(ss__k_dot_general(lhs, rhs, d, &got, NULL, 0));
    OK(ss__k_ref_dot_general(lhs, rhs, d, &want));
    OK(ss__k_ref_dot_general(&al, &ar, d, &mag));
    int64_t k = 1;
    for (int i = 0; i < d->ncontract; i++)
        k *= lhs->shape[d->lhs_contract[i]];
    double tol = 1e-5 * sqrt((double)(k > 0 ? k : 1));
    for (int64_t i = 0; i < ss__k_numel(&want); i++) {
        double g = at(&got, i), w = at(&want, i), bound = tol * at(&mag, i);
        if (out_dtype != SS_F32) /* one rounding to 16 bits */
            bound += fabs(w) / (out_dtype == SS_BF16 ? 256 : 2048);
        cr_assert(fabs(g - w) <= bound, "line %d: element %lld: got %.9g, want %.9g (bound %g)",
                  line, (long long)i, g, w, bound);
    }
    tfree(&got), tfree(&want), tfree(&mag), tfree(&al), tfree(&ar);
}
#define CHECK_DOT(l, r, d, dt) check_dot(l, r, d, dt, __LINE__)

Test(kernels, dot_matmul_sizes)
{
    const int64_t mkn[][3] = {{1, 1, 1}, {7, 13, 5}, {64, 33, 17}, {1, 300, 1}, {3, 1, 9}};
    for (size_t c = 0; c < sizeof mkn / sizeof mkn[0]; c++) {
        ss__tensor a = T(SS_F32, mkn[c][0], mkn[c][1]), b = T(SS_F32, mkn[c][1], mkn[c][2]);
        fill(&a, -1, 1), fill(&b, -1, 1);
        ss__k_dot_dims d = {.ncontract = 1, .lhs_contract = {1}, .rhs_contract = {0}};
        CHECK_DOT(&a, &b, &d, SS_F32);
        tfree(&a), tfree(&b);
    }
}

Test(kernels, dot_transposed_operands_run_in_place)
{
    ss__tensor a = T(SS_F32, 13, 7), b = T(SS_F32, 5, 13); /* lhs [K, M], rhs [N, K] */
    fill(&a, -1, 1), fill(&b, -1, 1);
    ss__k_dot_dims d = {.ncontract = 1, .lhs_contract = {0}, .rhs_contract = {1}};
    size_t bytes = 1;
    OK(ss__k_dot_general_work_bytes(&a, &b, &d, SS_F32, &bytes));
    cr_assert_eq(bytes, 0, "both operands fit sgemm's transpose flags (got %zu)", bytes);
    CHECK_DOT(&a, &b, &d, SS_F32);
    tfree(&a), tfree(&b);
}

Test(kernels, dot_batch_dims_in_non_leading_positions)
{
    /* lhs [M=3, B=4, K=5] batch 1 contract 2; rhs [K=5, N=6, B=4] batch 2 contract 0. */
    ss__tensor a = T(SS_F32, 3, 4, 5), b = T(SS_F32, 5, 6, 4);
    fill(&a, -1, 1), fill(&b, -1, 1);
    ss__k_dot_dims d = {.nbatch = 1, .lhs_batch = {1}, .rhs_batch = {2},
                        .ncontract = 1, .lhs_contract = {2}, .rhs_contract = {0}};
    ss__tensor o = {0};
    OK(ss__k_dot_general_shape(&a, &b, &d, &o.rank, o.shape));
    cr_assert_eq(o.rank, 3);
    cr_assert(o.shape[0] == 4 && o.shape[1] == 3 && o.shape[2] == 6);
    CHECK_DOT(&a, &b, &d, SS_F32);
    tfree(&a), tfree(&b);
}

Test(kernels, dot_several_batch_and_contracting_dims)
{
    /* lhs [2, 3, 4, 5, 6]: batch (4, 0) -> sizes (6, 2), contract (3, 1) -> (5, 3), free 2.
     * rhs [3, 2, 7, 5, 6]: batch (4, 1), contract (3, 0), free 2. */
    ss__tensor a = T(SS_F32, 2, 3, 4, 5, 6), b = T(SS_F32, 3, 2, 7, 5, 6);
    fill(&a, -1, 1), fill(&b, -1, 1);
    ss__k_dot_dims d = {.nbatch = 2, .lhs_batch = {4, 0}, .rhs_batch = {4, 1},
                        .ncontract = 2, .lhs_contract = {3, 1}, .rhs_contract = {3, 0}};
    CHECK_DOT(&a, &b, &d, SS_F32);
    int64_t flops;
    OK(ss__k_flops_dot_general(&a, &b, &d, &flops));
    cr_assert_eq(flops, 2LL * (6 * 2) * 4 * 7 * (5 * 3));
    tfree(&a), tfree(&b);
}

Test(kernels, dot_16bit_storage_and_work_buffer)
{
    ss__tensor a = T(SS_BF16, 2, 9, 11), b = T(SS_F16, 2, 11, 4);
    fill(&a, -1, 1), fill(&b, -1, 1);
    ss__k_dot_dims d = {.nbatch = 1, .lhs_batch = {0}, .rhs_batch = {0},
                        .ncontract = 1, .lhs_contract = {2}, .rhs_contract = {1}};
    CHECK_DOT(&a, &b, &d, SS_F32);
    CHECK_DOT(&a, &b, &d, SS_BF16);
    ss__tensor at16 = T(SS_BF16, 11, 2, 9); /* [K, B, M]: strided widening gather */
    fill(&at16, -1, 1);
    ss__k_dot_dims dt = {.nbatch = 1, .lhs_batch = {1}, .rhs_batch = {0},
                         .ncontract = 1, .lhs_contract = {0}, .rhs_contract = {1}};
    CHECK_DOT(&at16, &b, &dt, SS_F16);
    tfree(&at16);

    size_t bytes;
    OK(ss__k_dot_general_work_bytes(&a, &b, &d, SS_BF16, &bytes));
    cr_assert_geq(bytes, (2 * 9 * 11 + 2 * 11 * 4 + 2 * 9 * 4) * sizeof(float));
    void *work = malloc(bytes);
    ss__tensor o1 = T(SS_BF16, 2, 9, 4), o2 = T(SS_BF16, 2, 9, 4);
    OK(ss__k_dot_general(&a, &b, &d, &o1, work, bytes));
    OK(ss__k_dot_general(&a, &b, &d, &o2, NULL, 0));
    EXPECT_SAME(&o1, &o2, "work buffer vs malloc");
    EXPECT_ERROR(ss__k_dot_general(&a, &b, &d, &o1, work, bytes - 4), SS_ERR_RANGE,
                 "dot_general: work buffer of*");
    free(work);
    tfree(&a), tfree(&b), tfree(&o1), tfree(&o2);
}

Test(kernels, dot_vector_and_empty_contraction)
{
    ss__tensor a = T(SS_F32, 300), b = T(SS_F32, 300), s = scalar(SS_F32);
    fill(&a, -1, 1), fill(&b, -1, 1);
    ss__k_dot_dims d = {.ncontract = 1, .lhs_contract = {0}, .rhs_contract = {0}};
    CHECK_DOT(&a, &b, &d, SS_F32);
    ss__tensor e1 = T(SS_F32, 3, 0), e2 = T(SS_F32, 0, 2), o = T(SS_F32, 3, 2);
    VALUES(&o, 1, 1, 1, 1, 1, 1);
    ss__k_dot_dims m = {.ncontract = 1, .lhs_contract = {1}, .rhs_contract = {0}};
    OK(ss__k_dot_general(&e1, &e2, &m, &o, NULL, 0));
    for (int i = 0; i < 6; i++)
        cr_assert_eq(at(&o, i), 0.0);
    ss__k_dot_dims outer = {0}; /* outer product: no contraction */
    ss__tensor u = T(SS_F32, 3), v = T(SS_F32, 4);
    fill(&u, -1, 1), fill(&v, -1, 1);
    CHECK_DOT(&u, &v, &outer, SS_F32);
    tfree(&a), tfree(&b), tfree(&s), tfree(&e1), tfree(&e2), tfree(&o), tfree(&u), tfree(&v);
}

Test(kernels, dot_errors_are_one_line)
{
    ss__tensor a = T(SS_F32, 2, 3), b = T(SS_F32, 4, 5), o = T(SS_F32, 2, 5);
    ss__k_dot_dims d = {.ncontract = 1, .lhs_contract = {1}, .rhs_contract = {0}};
    EXPECT_ERROR(ss__k_dot_general(&a, &b, &d, &o, NULL, 0), SS_ERR_INVALID,
                 "dot_general: lhs contracting dim 1 has size 3 but rhs dim 0 has size 4 "
                 "(lhs (2, 3), rhs (4, 5))");
    ss__k_dot_dims twice = {.nbatch = 1, .lhs_batch = {0}, .rhs_batch = {0},
                            .ncontract = 1, .lhs_contract = {0}, .rhs_contract = {1}};
    EXPECT_ERROR(ss__k_dot_general(&a, &b, &twice, &o, NULL, 0), SS_ERR_INVALID,
                 "dot_general: lhs dim 0 used twice");
    ss__k_dot_dims range = {.ncontract = 1, .lhs_contract = {2}, .rhs_contract = {0}};
    EXPECT_ERROR(ss__k_dot_general(&a, &b, &range, &o, NULL, 0), SS_ERR_INVALID,
                 "dot_general: lhs contracting dim 2 out of range for rank 2");
    ss__tensor c = T(SS_F32, 3, 5);
    EXPECT_ERROR(ss__k_dot_general(&a, &c, &d, &a, NULL, 0), SS_ERR_INVALID,
                 "dot_general: output shape (2, 3) differs from result shape (2, 5)");
    tfree(&a), tfree(&b), tfree(&o), tfree(&c);
}

typedef struct dot_job {
    ss__tensor *a, *b, out;
} dot_job;

static void *dot_thread(void *p)
{
    dot_job *j = p;
    ss__k_dot_dims d = {.ncontract = 1, .lhs_contract = {1}, .rhs_contract = {0}};
    for (int rep = 0; rep < 5; rep++)
        if (ss__k_dot_general(j->a, j->b, &d, &j->out, NULL, 0) != SS_OK)
            return p;
    return NULL;
}

Test(kernels, dot_is_bit_identical_across_threads)
{
    ss__tensor a = T(SS_F32, 96, 200), b = T(SS_F32, 200, 80);
    fill(&a, -1, 1), fill(&b, -1, 1);
    dot_job jobs[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        jobs[i] = (dot_job){&a, &b, T(SS_F32, 96, 80)};
        cr_assert_eq(pthread_create(&th[i], NULL, dot_thread, &jobs[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        void *r;
        pthread_join(th[i], &r);
        cr_assert_null(r);
    }
    for (int i = 1; i < 4; i++)
        EXPECT_SAME(&jobs[i].out, &jobs[0].out, "thread result");
    for (int i = 0; i < 4; i++)
        tfree(&jobs[i].out);
    tfree(&a), tfree(&b);
}

/* --- softmax, layer_norm, cross-entropy, one_hot --- */

Test(kernels, softmax_and_log_softmax_match_reference_on_every_axis)
{
    for (int axis = -1; axis < 3; axis++) {
        for (int log_form = 0; log_form < 2; log_form++) {
            ss__tensor x = T(SS_F32, 4, 5, 300), got = T(SS_F32, 4, 5, 300),
                       want = T(SS_F32, 4, 5, 300);
            fill(&x, -20, 20);
            if (log_form) {
                OK(ss__k_log_softmax(&x, axis, &got));
                OK(ss__k_ref_log_softmax(&x, axis, &want));
            } else {
                OK(ss__k_softmax(&x, axis, &got));
                OK(ss__k_ref_softmax(&x, axis, &want));
            }
            EXPECT_CLOSE(&got, &want, 1e-5, 1e-6, log_form ? "log_softmax" : "softmax");
            tfree(&x), tfree(&got), tfree(&want);
        }
    }
}

Test(kernels, softmax_hand_values)
{
    ss__tensor x = T(SS_F32, 2, 3), y = T(SS_F32, 2, 3), want = T(SS_F32, 2, 3);
    VALUES(&x, 1, 2, 3, 1000, 1000, -INFINITY); /* large logits stay finite */
    OK(ss__k_softmax(&x, -1, &y));
    VALUES(&want, 0.09003057317038046, 0.24472847105479767, 0.6652409557748219, 0.5, 0.5, 0);
    EXPECT_CLOSE(&y, &want, 1e-6, 1e-7, "softmax");
    OK(ss__k_log_softmax(&x, 1, &y));
    VALUES(&want, -2.40760596444438, -1.4076059644443801, -0.4076059644443803, -0.6931471805599453,
           -0.6931471805599453, -INFINITY);
    EXPECT_CLOSE(&y, &want, 1e-6, 1e-7, "log_softmax");
    tfree(&x), tfree(&y), tfree(&want);
}

Test(kernels, layer_norm_matches_reference_and_hand_values)
{
    ss__tensor x = T(SS_BF16, 3, 7, 300), sc = T(SS_F32, 300), bi = T(SS_F32, 300);
    ss__tensor got = T(SS_F32, 3, 7, 300), want = T(SS_F32, 3, 7, 300);
    fill(&x, -5, 9), fill(&sc, 0.5, 2), fill(&bi, -1, 1);
    for (int k = 0; k < 3; k++) {
        const ss__tensor *s = k == 1 ? NULL : &sc, *b = k == 2 ? NULL : &bi;
        OK(ss__k_layer_norm(&x, s, b, SS__K_LAYER_NORM_EPS, &got));
        OK(ss__k_ref_layer_norm(&x, s, b, SS__K_LAYER_NORM_EPS, &want));
        EXPECT_CLOSE(&got, &want, 1e-5, 1e-6, "layer_norm");
    }
    ss__tensor h = T(SS_F32, 4), hs = T(SS_F32, 4), hb = T(SS_F32, 4), y = T(SS_F32, 4),
               hw = T(SS_F32, 4);
    VALUES(&h, 1, 2, 3, 4);
    OK(ss__k_layer_norm(&h, NULL, NULL, SS__K_LAYER_NORM_EPS, &y));
    VALUES(&hw, -1.3416402498438813, -0.44721341661462705, 0.44721341661462705,
           1.3416402498438813);
    EXPECT_CLOSE(&y, &hw, 1e-6, 1e-7, "layer_norm plain");
    VALUES(&hs, 0.5, 1, 2, -1);
    VALUES(&hb, 0, 0.25, -0.5, 1);
    OK(ss__k_layer_norm(&h, &hs, &hb, SS__K_LAYER_NORM_EPS, &y));
    VALUES(&hw, -0.6708201249219407, -0.19721341661462705, 0.3944268332292541,
           -0.3416402498438813);
    EXPECT_CLOSE(&y, &hw, 1e-6, 1e-7, "layer_norm scale bias");
    ss__tensor bad = T(SS_F32, 3);
    EXPECT_ERROR(ss__k_layer_norm(&h, &bad, NULL, 1e-6f, &y), SS_ERR_INVALID,
                 "layer_norm: scale has shape (3,), expected (4,)");
    tfree(&x), tfree(&sc), tfree(&bi), tfree(&got), tfree(&want);
    tfree(&h), tfree(&hs), tfree(&hb), tfree(&y), tfree(&hw), tfree(&bad);
}

Test(kernels, cross_entropy_matches_reference_and_optax)
{
    ss__tensor lg = T(SS_F32, 6, 5, 300), lab = T(SS_I32, 6, 5), got = T(SS_F32, 6, 5),
               want = T(SS_F32, 6, 5);
    fill(&lg, -10, 10), fill(&lab, -300, 300);
    OK(ss__k_cross_entropy(&lg, &lab, &got));
    OK(ss__k_ref_cross_entropy(&lg, &lab, &want));
    EXPECT_CLOSE(&got, &want, 1e-5, 1e-6, "cross_entropy");

    ss__tensor h = T(SS_F32, 4, 3), hl = T(SS_I32, 4), y = T(SS_F32, 4);
    VALUES(&h, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3);
    VALUES(&hl, 2, 0, -1, 3);
    OK(ss__k_cross_entropy(&h, &hl, &y));
    cr_assert_float_eq(at(&y, 0), 0.40760596444438013, 1e-6);
    cr_assert_float_eq(at(&y, 1), 2.40760596444438, 1e-6);
    cr_assert_float_eq(at(&y, 2), 0.40760596444438013, 1e-6); /* -1 is the last class */
    cr_assert(isnan(at(&y, 3)), "out-of-range label gives NaN");
    ss__tensor fl = T(SS_F32, 4);
    EXPECT_ERROR(ss__k_cross_entropy(&h, &fl, &y), SS_ERR_UNSUPPORTED,
                 "cross_entropy: labels have dtype f32 (expected i32)");
    ss__tensor l5 = T(SS_I32, 5);
    EXPECT_ERROR(ss__k_cross_entropy(&h, &l5, &y), SS_ERR_INVALID,
                 "cross_entropy: labels shape (5,) differs from logits batch shape (4,)");
    tfree(&lg), tfree(&lab), tfree(&got), tfree(&want), tfree(&h), tfree(&hl), tfree(&y);
    tfree(&fl), tfree(&l5);
}

Test(kernels, one_hot_matches_jax)
{
    ss__tensor idx = T(SS_I32, 4), y = T(SS_F32, 4, 3), want = T(SS_F32, 4, 3);
    VALUES(&idx, 0, 2, -1, 3);
    OK(ss__k_one_hot(&idx, &y));
    VALUES(&want, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0);
    EXPECT_SAME(&y, &want, "one_hot");
    ss__tensor big = T(SS_I32, 3, 7), g = T(SS_BF16, 3, 7, 300), w = T(SS_BF16, 3, 7, 300);
    fill(&big, -5, 305);
    OK(ss__k_one_hot(&big, &g));
    OK(ss__k_ref_one_hot(&big, &w));
    EXPECT_SAME(&g, &w, "one_hot bf16");
    EXPECT_ERROR(ss__k_one_hot(&idx, &idx), SS_ERR_INVALID,
                 "one_hot: output rank 1, expected indices rank + 1 = 2");
    tfree(&idx), tfree(&y), tfree(&want), tfree(&big), tfree(&g), tfree(&w);
}

/* --- Shape ops (exact) --- */

Test(kernels, transpose_every_permutation_of_rank_4)
{
    ss_dtype dts[3] = {SS_F32, SS_BF16, SS_I32};
    const int64_t shape[4] = {2, 3, 4, 5};
    for (int k = 0; k < 3; k++) {
        ss__tensor x = tnew(dts[k], 4, shape);
        fill(&x, -1000, 1000);
        for (int p = 0; p < 256; p++) {
            int perm[4] = {p & 3, (p >> 2) & 3, (p >> 4) & 3, (p >> 6) & 3};
            int seen = 0;
            for (int i = 0; i < 4; i++)
                seen |= 1 << perm[i];
            if (seen != 15)
                continue;
            int64_t os[4];
            for (int i = 0; i < 4; i++)
                os[i] = shape[perm[i]];
            ss__tensor got = tnew(dts[k], 4, os), want = tnew(dts[k], 4, os);
            OK(ss__k_transpose(&x, perm, &got));
            OK(ss__k_ref_transpose(&x, perm, &want));
            EXPECT_SAME(&got, &want, "transpose");
            tfree(&got), tfree(&want);
        }
        tfree(&x);
    }
}

/* Planes of at least 8x8 take the tiled path (shape_ops.c's
 * copy_transposing): edges that are not whole tiles, every element size,
 * and a plane between outer and inner dims that stay in place. */
Test(kernels, transpose_tiled_matches_reference)
{
    ss_dtype dts[4] = {SS_F32, SS_BF16, SS_I8, SS_F64};
    const int64_t shapes[3][3] = {{1, 1031, 45}, {3, 67, 33}, {9, 40, 2}};
    const int perms[4][3] = {{0, 2, 1}, {2, 1, 0}, {1, 2, 0}, {2, 0, 1}};
    for (int k = 0; k < 4; k++)
        for (int s = 0; s < 3; s++) {
            ss__tensor x = tnew(dts[k], 3, shapes[s]);
            /* Bytes, not values: the copy never looks at them. */
            size_t nbytes = (size_t)ss__k_numel(&x) * ss_dtype_size(dts[k]);
            for (size_t b = 0; b < nbytes; b++)
                ((unsigned char *)x.data)[b] = (unsigned char)(b * 37u + b / 251u);
            for (int p = 0; p < 4; p++) {
                int64_t os[3];
                for (int i = 0; i < 3; i++)
                    os[i] = shapes[s][perms[p][i]];
                ss__tensor got = tnew(dts[k], 3, os), want = tnew(dts[k], 3, os);
                OK(ss__k_transpose(&x, perms[p], &got));
                OK(ss__k_ref_transpose(&x, perms[p], &want));
                EXPECT_SAME(&got, &want, "tiled transpose");
                tfree(&got), tfree(&want);
            }
            tfree(&x);
        }
}

Test(kernels, broadcast_in_dim_and_reshape)
{
    ss__tensor v = T(SS_F32, 3), o = T(SS_F32, 2, 3), w = T(SS_F32, 2, 3);
    fill(&v, -1, 1);
    OK(ss__k_broadcast_in_dim(&v, (int[]){1}, &o));
    OK(ss__k_ref_broadcast_in_dim(&v, (int[]){1}, &w));
    EXPECT_SAME(&o, &w, "[3] -> [2, 3]");
    ss__tensor c = T(SS_BF16, 3, 1), o3 = T(SS_BF16, 3, 4, 5), w3 = T(SS_BF16, 3, 4, 5);
    fill(&c, -1, 1);
    OK(ss__k_broadcast_in_dim(&c, (int[]){0, 2}, &o3));
    OK(ss__k_ref_broadcast_in_dim(&c, (int[]){0, 2}, &w3));
    EXPECT_SAME(&o3, &w3, "[3, 1] -> [3, 4, 5]");
    ss__tensor s = scalar(SS_I32), os = T(SS_I32, 2, 2), ws = T(SS_I32, 2, 2);
    VALUES(&s, 7);
    OK(ss__k_broadcast_in_dim(&s, NULL, &os));
    OK(ss__k_ref_broadcast_in_dim(&s, NULL, &ws));
    EXPECT_SAME(&os, &ws, "scalar -> [2, 2]");
    EXPECT_ERROR(ss__k_broadcast_in_dim(&c, (int[]){0, 0}, &o3), SS_ERR_INVALID,
                 "broadcast_in_dim: dims must be strictly increasing in [0, 3) (entry 1 is 0)");
    EXPECT_ERROR(ss__k_broadcast_in_dim(&v, (int[]){0}, &o), SS_ERR_INVALID,
                 "broadcast_in_dim: input dim 0 has size 3, output dim 0 has size 2 "
                 "(input (3,), output (2, 3))");

    ss__tensor r = T(SS_F32, 3, 2);
    OK(ss__k_reshape(&o, &r));
    EXPECT_SAME(&r, &o, "reshape copy");
    ss__tensor view = {SS_F32, 1, {6}, o.data};
    OK(ss__k_reshape(&o, &view));
    EXPECT_ERROR(ss__k_reshape(&o, &v), SS_ERR_INVALID,
                 "reshape: cannot reshape (2, 3) (6 elements) to (3,)");
    tfree(&v), tfree(&o), tfree(&w), tfree(&c), tfree(&o3), tfree(&w3), tfree(&s), tfree(&os);
    tfree(&ws), tfree(&r);
}

Test(kernels, slice_with_strides)
{
    ss__tensor x = T(SS_F32, 7, 9, 300);
    fill(&x, -1, 1);
    const int64_t cases[][3][3] = {
        {{0, 0, 0}, {7, 9, 300}, {1, 1, 1}},
        {{1, 2, 5}, {6, 9, 299}, {2, 3, 7}},
        {{3, 0, 0}, {3, 9, 300}, {1, 1, 1}}, /* empty */
        {{6, 8, 10}, {7, 9, 270}, {1, 1, 1}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int64_t os[3];
        for (int d = 0; d < 3; d++)
            os[d] = (cases[c][1][d] - cases[c][0][d] + cases[c][2][d] - 1) / cases[c][2][d];
        ss__tensor got = tnew(SS_F32, 3, os), want = tnew(SS_F32, 3, os);
        OK(ss__k_slice(&x, cases[c][0], cases[c][1], cases[c][2], &got));
        OK(ss__k_ref_slice(&x, cases[c][0], cases[c][1], cases[c][2], &want));
        EXPECT_SAME(&got, &want, "slice");
        tfree(&got), tfree(&want);
    }
    ss__tensor o = T(SS_F32, 1, 1, 1);
    EXPECT_ERROR(ss__k_slice(&x, SHAPE(0, 0, 0), SHAPE(1, 10, 1), NULL, &o), SS_ERR_INVALID,
                 "slice: dim 1: start 0, limit 10, stride 1 invalid for size 9");
    tfree(&x), tfree(&o);
}

Test(kernels, concatenate_along_each_axis)
{
    for (int axis = 0; axis < 3; axis++) {
        int64_t s0[3] = {2, 3, 4}, s1[3] = {2, 3, 4}, s2[3] = {2, 3, 4}, so[3] = {2, 3, 4};
        s0[axis] = 3, s1[axis] = 0, s2[axis] = 5, so[axis] = 8;
        ss__tensor xs[3] = {tnew(SS_I32, 3, s0), tnew(SS_I32, 3, s1), tnew(SS_I32, 3, s2)};
        for (int k = 0; k < 3; k++)
            fill(&xs[k], -99, 99);
        ss__tensor got = tnew(SS_I32, 3, so), want = tnew(SS_I32, 3, so);
        OK(ss__k_concatenate(3, xs, axis - 3, &got));
        OK(ss__k_ref_concatenate(3, xs, axis, &want));
        EXPECT_SAME(&got, &want, "concatenate");
        EXPECT_ERROR(ss__k_concatenate(2, xs, axis, &got), SS_ERR_INVALID,
                     "concatenate: inputs add up to 3 along axis*");
        for (int k = 0; k < 3; k++)
            tfree(&xs[k]);
        tfree(&got), tfree(&want);
    }
}

Test(kernels, pad_with_a_value)
{
    ss_dtype dts[3] = {SS_F32, SS_BF16, SS_I32};
    double values[3] = {-INFINITY, 0.5, -7};
    for (int k = 0; k < 3; k++) {
        ss__tensor x = T(dts[k], 3, 5), got = T(dts[k], 4, 8), want = T(dts[k], 4, 8);
        fill(&x, -9, 9);
        OK(ss__k_pad(&x, SHAPE(1, 0), SHAPE(0, 3), values[k], &got));
        OK(ss__k_ref_pad(&x, SHAPE(1, 0), SHAPE(0, 3), values[k], &want));
        EXPECT_SAME(&got, &want, "pad");
        cr_assert_eq(at(&got, 0), values[k]);
        tfree(&x), tfree(&got), tfree(&want);
    }
    ss__tensor x = T(SS_F32, 2), o = T(SS_F32, 2);
    EXPECT_ERROR(ss__k_pad(&x, SHAPE(-1), SHAPE(1), 0.0, &o), SS_ERR_INVALID,
                 "pad: dim 0: negative padding (lo -1, hi 1)");
    EXPECT_ERROR(ss__k_transpose(&x, (int[]){1}, &o), SS_ERR_INVALID,
                 "transpose: perm is not a permutation of 0..0 (entry 0 is 1)");
    tfree(&x), tfree(&o);
}

/* --- FLOPs --- */

Test(kernels, flop_counts)
{
    ss__tensor x = {SS_F32, 3, {4, 5, 6}, NULL}, r = {SS_F32, 1, {4}, NULL};
    cr_assert_eq(ss__k_flops_unary(SS__K_GELU, &x), 9 * 120);
    cr_assert_eq(ss__k_flops_unary(SS__K_EXP, &x), 120);
    cr_assert_eq(ss__k_flops_binary(SS__K_ADD, &x), 120);
    cr_assert_eq(ss__k_flops_reduce(SS__K_REDUCE_SUM, &x, &r), 120);
    cr_assert_eq(ss__k_flops_reduce(SS__K_REDUCE_MEAN, &x, &r), 124);
    cr_assert_eq(ss__k_flops_softmax(&x, -1), 600);
    cr_assert_eq(ss__k_flops_log_softmax(&x, -1), 480 + 20);
    cr_assert_eq(ss__k_flops_layer_norm(&x), 960);
    cr_assert_eq(ss__k_flops_cross_entropy(&x), 480 + 40);
    ss__tensor a = {SS_F32, 2, {1 << 20, 1 << 20}, NULL};
    ss__k_dot_dims d = {.ncontract = 1, .lhs_contract = {1}, .rhs_contract = {0}};
    int64_t f;
    OK(ss__k_flops_dot_general(&a, &a, &d, &f));
    cr_assert_eq(f, 2LL << 60);
    ss__tensor huge = {SS_F32, 2, {1LL << 30, 1LL << 30}, NULL};
    EXPECT_ERROR(ss__k_flops_dot_general(&huge, &huge, &d, &f), SS_ERR_RANGE,
                 "dot_general: FLOP count overflows int64");
}
