/* test_sort.c — the sort and top_k kernels (kernels/sort.c) against their
 * naive references (kernels/reference_sort.c), bit for bit: f32, bf16, f16
 * and i32 keys with many ties, signed zeros, infinities and NaNs of both
 * signs; one and two keys, ascending and descending, along each dim, every
 * result; top_k for every k. Then the order JAX 0.10.2 on the CPU gave for
 * one row of special values (jnp.argsort and lax.top_k, printed by hand
 * from that run), and the errors. */
/* kernels_check.h is shared with test_kernels.c; not every helper is used here. */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "kernels_check.h"

/* Values from {-1.5, -1, ..., 1.5} (ties) with specials sprinkled in. */
static void fill_ties(ss__tensor *t)
{
    static const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN};
    for (int64_t i = 0; i < ss__k_numel(t); i++) {
        double v = floor(uniform(-3, 4)) / 2;
        if (t->dtype != SS_I32 && i % 5 == 3)
            v = specials[(i / 5) % 6];
        put(t, i, t->dtype == SS_I32 ? floor(uniform(-2, 3)) : v);
    }
}

Test(sort, kernel_equals_reference_for_every_key_order_dim_and_result)
{
    const ss_dtype dts[] = {SS_F32, SS_BF16, SS_F16, SS_I32};
    for (size_t di = 0; di < sizeof dts / sizeof *dts; di++)
        for (int dim = 0; dim < 2; dim++)
            for (int nkeys = 1; nkeys <= 2; nkeys++)
                for (unsigned desc = 0; desc < (1u << nkeys); desc++) {
                    ss__tensor x[3] = {T(dts[di], 6, 9), T(SS_I32, 6, 9), T(SS_F32, 6, 9)};
                    fill_ties(&x[0]);
                    fill_ties(&x[1]);
                    fill(&x[2], -1, 1);
                    for (int which = 0; which < 3; which++) {
                        ss__tensor got = T(x[which].dtype, 6, 9), want = T(x[which].dtype, 6, 9);
                        OK(ss__k_sort(3, x, dim, nkeys, desc, which, &got));
                        OK(ss__k_ref_sort(3, x, dim, nkeys, desc, which, &want));
                        char what[96];
                        snprintf(what, sizeof what, "dtype %d dim %d keys %d desc %u result %d",
                                 (int)dts[di], dim, nkeys, desc, which);
                        EXPECT_SAME(&got, &want, what);
                        tfree(&got), tfree(&want);
                    }
                    for (int k = 0; k < 3; k++)
                        tfree(&x[k]);
                }
}

Test(sort, top_k_equals_reference_for_every_k)
{
    const ss_dtype dts[] = {SS_F32, SS_BF16, SS_F16, SS_I32};
    for (size_t di = 0; di < sizeof dts / sizeof *dts; di++)
        for (int64_t k = 0; k <= 11; k++) {
            ss__tensor x = T(dts[di], 2, 3, 11);
            fill_ties(&x);
            for (int idx = 0; idx < 2; idx++) {
                ss_dtype odt = idx ? SS_I32 : dts[di];
                ss__tensor got = T(odt, 2, 3, k), want = T(odt, 2, 3, k);
                OK(ss__k_top_k(&x, k, idx, &got));
                OK(ss__k_ref_top_k(&x, k, idx, &want));
                EXPECT_SAME(&got, &want, idx ? "indices" : "values");
                tfree(&got), tfree(&want);
            }
            tfree(&x);
        }
}

/* x = [1, nan, -0., 0., 3., -nan, 3., -inf, inf] (f32) in JAX 0.10.2 on
 * the CPU: jnp.argsort(x) = [7 2 3 0 4 6 8 1 5] (-0.0 ties +0.0, NaNs tie
 * above inf whatever their sign) and lax.top_k(x, 9)[1] =
 * [1 8 4 6 0 3 2 7 5] (+NaN first, +0.0 before -0.0, -NaN last). */
Test(sort, orders_special_values_as_jax_does)
{
    ss__tensor x[2] = {T(SS_F32, 9), T(SS_I32, 9)};
    VALUES(&x[0], 1, NAN, -0.0, 0.0, 3, -NAN, 3, -INFINITY, INFINITY);
    VALUES(&x[1], 0, 1, 2, 3, 4, 5, 6, 7, 8);
    ss__tensor got = T(SS_I32, 9), want = T(SS_I32, 9);
    OK(ss__k_sort(2, x, 0, 1, 0, 1, &got));
    VALUES(&want, 7, 2, 3, 0, 4, 6, 8, 1, 5);
    EXPECT_SAME(&got, &want, "argsort");
    OK(ss__k_top_k(&x[0], 9, true, &got));
    VALUES(&want, 1, 8, 4, 6, 0, 3, 2, 7, 5);
    EXPECT_SAME(&got, &want, "top_k indices");
    tfree(&x[0]), tfree(&x[1]), tfree(&got), tfree(&want);
}

Test(sort, bad_arguments_are_one_line_errors)
{
    ss__tensor x[2] = {T(SS_F32, 4, 5), T(SS_F32, 4, 6)};
    fill(&x[0], -1, 1);
    fill(&x[1], -1, 1);
    ss__tensor out = T(SS_F32, 4, 5), small = T(SS_F32, 4, 2), idx = T(SS_I32, 4, 7);
    EXPECT_ERROR(ss__k_sort(2, x, 1, 1, 0, 0, &out), SS_ERR_INVALID, "sort: operand*");
    EXPECT_ERROR(ss__k_sort(1, x, 2, 1, 0, 0, &out), SS_ERR_INVALID,
                 "sort: dimension 2 is out of range for rank 2");
    EXPECT_ERROR(ss__k_sort(1, x, 1, 1, 0, 0, &small), SS_ERR_INVALID,
                 "sort: result f32 (4, 2) does not fit operand (4, 5)");
    EXPECT_ERROR(ss__k_top_k(&x[0], 7, true, &idx), SS_ERR_INVALID,
                 "top_k: k = 7 is outside 0..5");
    EXPECT_ERROR(ss__k_top_k(&x[0], 2, true, &small), SS_ERR_INVALID,
                 "top_k: result f32 (4, 2) does not fit operand (4, 5)");
    tfree(&x[0]), tfree(&x[1]), tfree(&out), tfree(&small), tfree(&idx);
}
