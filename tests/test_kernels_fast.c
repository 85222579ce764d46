/* test_kernels_fast.c — the fast paths a transformer step takes, each
 * against its naive reference kernel, bit for bit (memcmp, NaN payloads
 * included): broadcasts along the innermost dims (one value splatted over
 * a run), max/min over rows in lanes (with the sequential loop's choice
 * between +0 and -0 and of the first NaN kept), and the branch-free
 * select. */
#include "kernels_check.h"

static void expect_bits(const ss__tensor *got, const ss__tensor *want, const char *what)
{
    int64_t n = ss__k_numel(want);
    size_t es = ss_dtype_size(want->dtype);
    cr_assert_eq(ss__k_numel(got), n, "%s: sizes differ", what);
    for (int64_t i = 0; i < n; i++)
        cr_assert(memcmp((const char *)got->data + (size_t)i * es,
                         (const char *)want->data + (size_t)i * es, es) == 0,
                  "%s: element %lld differs in its bits", what, (long long)i);
}

/* Random bytes: the copies and the select move bits, whatever they mean. */
static void fill_bytes(ss__tensor *t)
{
    unsigned char *b = t->data;
    for (size_t i = 0; i < (size_t)ss__k_numel(t) * ss_dtype_size(t->dtype); i++)
        b[i] = (unsigned char)uniform(0, 256);
}

static float bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

Test(kernels_fast, broadcast_along_inner_dims_every_element_size)
{
    /* (3, 5, 1) -> (3, 5, 37) splats each value over a run of 37;
     * (3, 5) -> (3, 5, 4, 9) over runs of 36 (two dims coalesced). */
    const ss_dtype dts[] = {SS_F32, SS_BF16, SS_F64, SS_I8, SS_I32};
    for (size_t k = 0; k < sizeof dts / sizeof dts[0]; k++) {
        ss__tensor x = T(dts[k], 3, 5, 1), got = T(dts[k], 3, 5, 37), want = T(dts[k], 3, 5, 37);
        fill_bytes(&x);
        OK(ss__k_broadcast_in_dim(&x, (int[]){0, 1, 2}, &got));
        OK(ss__k_ref_broadcast_in_dim(&x, (int[]){0, 1, 2}, &want));
        expect_bits(&got, &want, "(3, 5, 1) -> (3, 5, 37)");
        ss__tensor y = T(dts[k], 3, 5), g2 = T(dts[k], 3, 5, 4, 9), w2 = T(dts[k], 3, 5, 4, 9);
        fill_bytes(&y);
        OK(ss__k_broadcast_in_dim(&y, (int[]){0, 1}, &g2));
        OK(ss__k_ref_broadcast_in_dim(&y, (int[]){0, 1}, &w2));
        expect_bits(&g2, &w2, "(3, 5) -> (3, 5, 4, 9)");
        tfree(&x), tfree(&got), tfree(&want), tfree(&y), tfree(&g2), tfree(&w2);
    }
}

Test(kernels_fast, row_max_and_min_keep_the_sequential_bits)
{
    /* 29 rows of every length 1..70 (lane remainders, partial groups of
     * eight rows): random rows, rows whose extreme is +0 and -0 in either
     * order, rows with NaNs of two payloads, rows of infinities. */
    const float qnan_a = bits_f32(0x7fc00001u), qnan_b = bits_f32(0xffc00002u);
    for (int64_t len = 1; len <= 70; len++) {
        ss__tensor x = T(SS_F32, 29, len);
        fill(&x, -50, 50);
        float *v = x.data;
        for (int64_t i = 0; i < len; i++) {
            v[1 * len + i] = -1.0f - (float)i; /* max -1, min -len */
            v[2 * len + i] = i % 2 ? 0.0f : -0.0f;
            v[3 * len + i] = i % 3 ? -0.0f : 0.0f;
            v[4 * len + i] = -INFINITY;
            v[5 * len + i] = INFINITY;
            v[6 * len + i] = 1.0f + (float)i; /* max len, min +1 */
            v[7 * len + i] = i == len - 1 ? -0.0f : 0.0f;
            v[8 * len + i] = i == len - 1 ? 0.0f : -0.0f;
        }
        v[9 * len + len / 2] = qnan_a;
        v[10 * len + len / 3] = qnan_b;
        v[10 * len + len - 1] = qnan_a;
        v[11 * len] = -0.0f;
        v[12 * len + len - 1] = INFINITY;
        for (int op = SS__K_REDUCE_MAX; op <= SS__K_REDUCE_MIN; op++) {
            ss__tensor got = T(SS_F32, 29), want = T(SS_F32, 29);
            OK(ss__k_reduce((ss__k_reduce_op)op, &x, 1, (int[]){1}, false, &got));
            OK(ss__k_ref_reduce((ss__k_reduce_op)op, &x, 1, (int[]){1}, false, &want));
            EXPECT_SAME(&got, &want, ss__k_reduce_name((ss__k_reduce_op)op));
            /* reduce.c's contract, NaN payloads too: the f32 rule applied
             * in index order (the reference returns a canonical NaN). */
            for (int r = 0; r < 29; r++) {
                float acc = op == SS__K_REDUCE_MAX ? -INFINITY : INFINITY;
                for (int64_t i = 0; i < len; i++) {
                    float e = v[r * len + i];
                    bool keep = op == SS__K_REDUCE_MAX ? acc > e : acc < e;
                    acc = keep || acc != acc ? acc : e;
                }
                cr_assert(memcmp(&acc, (float *)got.data + r, sizeof acc) == 0,
                          "%s of row %d (length %lld): got %a, the sequential rule %a",
                          ss__k_reduce_name((ss__k_reduce_op)op), r, (long long)len,
                          (double)((float *)got.data)[r], (double)acc);
            }
            tfree(&got), tfree(&want);
        }
        tfree(&x);
    }
}

Test(kernels_fast, row_max_of_softmax_scores_matches_reference)
{
    /* The attention scores' shape at 8 devices: (8, 4, 64, 64) -> (8, 4, 64). */
    ss__tensor x = T(SS_F32, 8, 4, 64, 64), got = T(SS_F32, 8, 4, 64), want = T(SS_F32, 8, 4, 64);
    fill(&x, -1e4, 10);
    OK(ss__k_reduce(SS__K_REDUCE_MAX, &x, 1, (int[]){3}, false, &got));
    OK(ss__k_ref_reduce(SS__K_REDUCE_MAX, &x, 1, (int[]){3}, false, &want));
    expect_bits(&got, &want, "max");
    tfree(&x), tfree(&got), tfree(&want);
}

Test(kernels_fast, select_without_branches_matches_reference)
{
    const ss_dtype dts[] = {SS_F32, SS_BF16, SS_I32};
    for (size_t k = 0; k < sizeof dts / sizeof dts[0]; k++) {
        ss__tensor in[3] = {T(SS_BOOL, 7, 45), T(dts[k], 7, 45), T(dts[k], 7, 45)};
        ss__tensor got = T(dts[k], 7, 45), want = T(dts[k], 7, 45);
        unsigned char *c = in[0].data;
        for (int i = 0; i < 7 * 45; i++)
            c[i] = (unsigned char)(uniform(0, 1) < 0.4);
        fill(&in[1], -9, 9); /* no NaN: the reference would quiet one */
        fill(&in[2], -9, 9);
        OK(ss__k_elementwise(SS__K_EW_SELECT, 0, 3, in, &got));
        OK(ss__k_ref_elementwise(SS__K_EW_SELECT, 0, 3, in, &want));
        expect_bits(&got, &want, "select");
        for (int j = 0; j < 3; j++)
            tfree(&in[j]);
        tfree(&got), tfree(&want);
    }
}

Test(kernels_fast, max_of_a_vector_to_a_scalar_and_a_bad_broadcast)
{
    /* 17 elements: 16 lanes and a remainder that holds the maximum. */
    ss__tensor x = T(SS_F32, 17), m = scalar(SS_F32), want = scalar(SS_F32);
    VALUES(&x, 1, 2, 3, -4, 5, 6, 7, 8, 9, 10, 11, 12, 13, -14, 15, 16, 17.5);
    VALUES(&want, 17.5);
    OK(ss__k_reduce(SS__K_REDUCE_MAX, &x, 1, (int[]){0}, false, &m));
    EXPECT_CLOSE(&m, &want, 0, 0, "max");
    VALUES(&want, -14);
    OK(ss__k_reduce(SS__K_REDUCE_MIN, &x, 1, (int[]){0}, false, &m));
    EXPECT_CLOSE(&m, &want, 0, 0, "min");
    ss__tensor row = T(SS_F32, 3, 1), big = T(SS_F32, 3, 5);
    EXPECT_ERROR(ss__k_broadcast_in_dim(&row, (int[]){1, 0}, &big), SS_ERR_INVALID,
                 "broadcast_in_dim*");
    tfree(&x), tfree(&m), tfree(&want), tfree(&row), tfree(&big);
}

Test(kernels_fast, small_k_product_tiles_equal_the_plain_loop)
{
    /* Whole 4x16 tiles, ragged rows and columns, k from 1 to 16, and the
     * attention scores' 128x128 from a head dim of 16. */
    const int64_t sizes[][3] = {{4, 16, 1}, {5, 17, 2}, {7, 33, 16}, {3, 15, 5},
                                {12, 48, 9}, {128, 128, 16}, {1, 1, 1}, {64, 40, 7}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int64_t m = sizes[s][0], n = sizes[s][1], k = sizes[s][2];
        ss__tensor a = T(SS_F32, k, m), b = T(SS_F32, k, n);
        ss__tensor got = T(SS_F32, m, n), want = T(SS_F32, m, n);
        fill(&a, -3, 3);
        fill(&b, -3, 3);
        ss__k_small_k_gemm_tn(m, n, k, a.data, b.data, got.data, false);
        ss__k_small_k_gemm_tn(m, n, k, a.data, b.data, want.data, true);
        expect_bits(&got, &want, "small-k product");
        tfree(&a), tfree(&b), tfree(&got), tfree(&want);
    }
}

Test(kernels_fast, attention_scores_dot_is_close_to_the_reference)
{
    /* (B, H, hd, S) x (B, S, H, hd) -> (B, H, S, S) contracting hd = 16:
     * the dot that takes the small-k product, against the double reference
     * within test_kernels.c's dot bound. */
    ss__tensor l = T(SS_F32, 2, 3, 16, 20), r = T(SS_F32, 2, 20, 3, 16);
    ss__tensor got = T(SS_F32, 2, 3, 20, 20), want = T(SS_F32, 2, 3, 20, 20);
    fill(&l, -2, 2);
    fill(&r, -2, 2);
    ss__k_dot_dims d = {.nbatch = 2, .lhs_batch = {0, 1}, .rhs_batch = {0, 2},
                        .ncontract = 1, .lhs_contract = {2}, .rhs_contract = {3}};
    OK(ss__k_dot_general(&l, &r, &d, &got, NULL, 0));
    OK(ss__k_ref_dot_general(&l, &r, &d, &want));
    /* |got - want| <= 1e-5 * sqrt(16) * sum |a||b| <= 1e-5 * 4 * 16 * 4 */
    EXPECT_CLOSE(&got, &want, 0, 1e-5 * 4 * 16 * 4, "scores");
    tfree(&l), tfree(&r), tfree(&got), tfree(&want);
}

/* dynamic_update_slice copies its update in runs as long as the trailing
 * dims the update covers whole allow (one run for a stacked row
 * [1, a, b] into [L, a, b]); against the element-by-element reference,
 * into a new buffer and in place, with starts inside, clamped, and a
 * window cut along a middle dim. */
Test(kernels_fast, dynamic_update_slice_runs_match_reference)
{
    static const struct {
        int64_t x[3], u[3];
        int32_t at[3];
    } cases[] = {
        {{4, 6, 8}, {1, 6, 8}, {2, 0, 0}},  /* a stacked row: one run */
        {{4, 6, 8}, {2, 6, 8}, {3, 0, 0}},  /* clamped to 2 */
        {{4, 6, 8}, {2, 3, 8}, {1, 2, 0}},  /* runs of 3 x 8 */
        {{4, 6, 8}, {2, 3, 5}, {1, 4, 9}},  /* runs of 5, both clamped */
        {{4, 6, 1}, {1, 6, 1}, {-1, 0, 0}}, /* unit last dim, start clamped to 0 */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        ss__tensor x = tnew(SS_F32, 3, cases[k].x), u = tnew(SS_F32, 3, cases[k].u),
                   got = tnew(SS_F32, 3, cases[k].x), want = tnew(SS_F32, 3, cases[k].x),
                   inplace = tnew(SS_F32, 3, cases[k].x), idx[3];
        fill_bytes(&x);
        fill_bytes(&u);
        for (int d = 0; d < 3; d++) {
            idx[d] = scalar(SS_I32);
            *(int32_t *)idx[d].data = cases[k].at[d];
        }
        OK(ss__k_dynamic_update_slice(&x, &u, 3, idx, &got));
        OK(ss__k_ref_dynamic_update_slice(&x, &u, 3, idx, &want));
        expect_bits(&got, &want, "into a new buffer");
        memcpy(inplace.data, x.data, (size_t)ss__k_numel(&x) * 4);
        OK(ss__k_dynamic_update_slice(&inplace, &u, 3, idx, &inplace));
        expect_bits(&inplace, &want, "in place");
        for (int d = 0; d < 3; d++)
            tfree(&idx[d]);
        tfree(&x), tfree(&u), tfree(&got), tfree(&want), tfree(&inplace);
    }
}
