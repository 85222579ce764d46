/* test_fused.c — fused elementwise expressions equal the unfused kernels
 * bit for bit: same f32 operations in the same order, with f32 and bf16
 * leaves, scalar leaves, scalar-only subexpressions and blocks that do not
 * divide the length. */
#include "support.h"

#include "kernels/kernels.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static ss__tensor vec(ss_dtype dt, int64_t n, void *data)
{
    ss__tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = dt;
    t.rank = 1;
    t.shape[0] = n;
    t.data = data;
    return t;
}

static ss__tensor scalar_t(float *v)
{
    ss__tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = SS_F32;
    t.data = v;
    return t;
}

Test(fused, adam_like_expression_equals_the_unfused_kernels)
{
    /* p + s3 * ((m / (s0 - s1)) / (sqrt(v) + s2)) with m in bf16, over a
     * length that is not a multiple of the block. */
    int64_t n = 1000;
    float *p = malloc(sizeof(float) * (size_t)n), *v = malloc(sizeof(float) * (size_t)n);
    uint16_t *m = malloc(sizeof(uint16_t) * (size_t)n);
    for (int64_t i = 0; i < n; i++) {
        p[i] = (float)sin((double)i);
        v[i] = (float)(1.0 + cos((double)i) * 0.5);
        m[i] = ss__k_f32_to_bf16((float)(i % 13) * 0.1f - 0.6f);
    }
    float s0 = 1.0f, s1 = 0.9f, s2 = 1e-8f, s3 = -1e-3f;
    ss__tensor leaves[7] = {vec(SS_F32, n, p), vec(SS_BF16, n, m), vec(SS_F32, n, v),
                            scalar_t(&s0), scalar_t(&s1), scalar_t(&s2), scalar_t(&s3)};
    ss__k_fused f;
    memset(&f, 0, sizeof f);
    ss__k_fused_op ops[] = {
        {SS__K_FUSED_LEAF, 1, 0, 0},              /* r0 = m */
        {SS__K_FUSED_LEAF, 3, 0, 0},              /* r1 = s0 */
        {SS__K_FUSED_LEAF, 4, 0, 0},              /* r2 = s1 */
        {SS__K_FUSED_BINARY, SS__K_SUB, 1, 2},    /* r3 = s0 - s1 (scalar only) */
        {SS__K_FUSED_BINARY, SS__K_DIV, 0, 3},    /* r4 = m / r3 */
        {SS__K_FUSED_LEAF, 2, 0, 0},              /* r5 = v */
        {SS__K_FUSED_UNARY, SS__K_SQRT, 5, 0},    /* r6 = sqrt(v) */
        {SS__K_FUSED_LEAF, 5, 0, 0},              /* r7 = s2 */
        {SS__K_FUSED_BINARY, SS__K_ADD, 6, 7},    /* r8 = r6 + s2 */
        {SS__K_FUSED_BINARY, SS__K_DIV, 4, 8},    /* r9 = r4 / r8 */
        {SS__K_FUSED_LEAF, 6, 0, 0},              /* r10 = s3 */
        {SS__K_FUSED_BINARY, SS__K_MUL, 10, 9},   /* r11 = s3 * r9 */
        {SS__K_FUSED_LEAF, 0, 0, 0},              /* r12 = p */
        {SS__K_FUSED_BINARY, SS__K_ADD, 12, 11},  /* r13 = p + r11 */
    };
    f.nops = (int)(sizeof ops / sizeof ops[0]);
    memcpy(f.ops, ops, sizeof ops);
    float *got = malloc(sizeof(float) * (size_t)n);
    ss__tensor out = vec(SS_F32, n, got);
    cr_assert_eq(ss__k_fused_run(&f, 7, leaves, &out), SS_OK, "%s", ss_error_message());
    /* The same expression also writing an intermediate (multi-output). */
    float *mid = malloc(sizeof(float) * (size_t)n);
    ss__tensor two[2] = {out, vec(SS_F32, n, mid)};
    f.nextra = 1;
    f.extra[0] = 8; /* r8 = sqrt(v) + s2 */
    cr_assert_eq(ss__k_fused_run(&f, 7, leaves, two), SS_OK, "%s", ss_error_message());
    for (int64_t i = 0; i < n; i++) {
        float w8 = sqrtf(v[i]) + s2;
        cr_assert(memcmp(&mid[i], &w8, sizeof w8) == 0, "extra element %lld", (long long)i);
    }
    free(mid);
    f.nextra = 0;
    for (int64_t i = 0; i < n; i++) {
        float mm = ss__k_bf16_to_f32(m[i]);
        float want = p[i] + s3 * ((mm / (s0 - s1)) / (sqrtf(v[i]) + s2));
        cr_assert(memcmp(&got[i], &want, sizeof want) == 0, "element %lld: %.9g vs %.9g",
                  (long long)i, (double)got[i], (double)want);
    }
    /* bf16 output: rounded once, from the same f32 value. */
    uint16_t *gb = malloc(sizeof(uint16_t) * (size_t)n);
    ss__tensor outb = vec(SS_BF16, n, gb);
    cr_assert_eq(ss__k_fused_run(&f, 7, leaves, &outb), SS_OK);
    for (int64_t i = 0; i < n; i++)
        cr_assert_eq(gb[i], ss__k_f32_to_bf16(got[i]), "element %lld", (long long)i);
    free(p);
    free(v);
    free(m);
    free(got);
    free(gb);
}

Test(fused, rejects_malformed_expressions)
{
    float x[4] = {1, 2, 3, 4}, y[4];
    ss__tensor leaves[1] = {vec(SS_F32, 4, x)}, out = vec(SS_F32, 4, y);
    ss__k_fused f;
    memset(&f, 0, sizeof f);
    f.nops = 2;
    f.ops[0] = (ss__k_fused_op){SS__K_FUSED_LEAF, 0, 0, 0};
    f.ops[1] = (ss__k_fused_op){SS__K_FUSED_BINARY, SS__K_ADD, 0, 1}; /* reads itself */
    cr_assert_eq(ss__k_fused_run(&f, 1, leaves, &out), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "step 1 is malformed"), "%s", ss_error_message());
    float z[3];
    ss__tensor wrong[1] = {vec(SS_F32, 3, z)};
    f.ops[1] = (ss__k_fused_op){SS__K_FUSED_UNARY, SS__K_NEG, 0, 0};
    cr_assert_eq(ss__k_fused_run(&f, 1, wrong, &out), SS_ERR_INVALID);
}

Test(fused, results_may_overwrite_their_leaves)
{
    /* The executor writes results over operands that die (buffer sharing):
     * r = a * b + c with extra results a * b and c - a, written over c, a
     * and b, over several blocks and a ragged end, equals fresh outputs. */
    int64_t n = 3000;
    float *a = malloc(sizeof(float) * (size_t)n), *b = malloc(sizeof(float) * (size_t)n);
    float *c = malloc(sizeof(float) * (size_t)n), *want[3];
    for (int k = 0; k < 3; k++)
        want[k] = malloc(sizeof(float) * (size_t)n);
    for (int64_t i = 0; i < n; i++) {
        a[i] = (float)sin((double)i) * 3.0f;
        b[i] = (float)cos((double)i * 0.7);
        c[i] = (float)(i % 17) - 8.0f;
    }
    ss__k_fused f;
    memset(&f, 0, sizeof f);
    ss__k_fused_op ops[] = {
        {SS__K_FUSED_LEAF, 0, 0, 0},           /* r0 = a */
        {SS__K_FUSED_LEAF, 1, 0, 0},           /* r1 = b */
        {SS__K_FUSED_BINARY, SS__K_MUL, 0, 1}, /* r2 = a * b */
        {SS__K_FUSED_LEAF, 2, 0, 0},           /* r3 = c */
        {SS__K_FUSED_BINARY, SS__K_SUB, 3, 0}, /* r4 = c - a */
        {SS__K_FUSED_BINARY, SS__K_ADD, 2, 3}, /* r5 = a * b + c */
    };
    f.nops = (int)(sizeof ops / sizeof ops[0]);
    memcpy(f.ops, ops, sizeof ops);
    f.nextra = 2;
    f.extra[0] = 2;
    f.extra[1] = 4;
    ss__tensor leaves[3] = {vec(SS_F32, n, a), vec(SS_F32, n, b), vec(SS_F32, n, c)};
    ss__tensor fresh[3] = {vec(SS_F32, n, want[0]), vec(SS_F32, n, want[1]),
                           vec(SS_F32, n, want[2])};
    cr_assert_eq(ss__k_fused_run(&f, 3, leaves, fresh), SS_OK, "%s", ss_error_message());
    for (int64_t i = 0; i < n; i++) {
        float r = a[i] * b[i] + c[i], ab = a[i] * b[i], ca = c[i] - a[i];
        cr_assert(memcmp(&want[0][i], &r, 4) == 0 && memcmp(&want[1][i], &ab, 4) == 0 &&
                      memcmp(&want[2][i], &ca, 4) == 0,
                  "element %lld", (long long)i);
    }
    ss__tensor over[3] = {vec(SS_F32, n, c), vec(SS_F32, n, a), vec(SS_F32, n, b)};
    cr_assert_eq(ss__k_fused_run(&f, 3, leaves, over), SS_OK, "%s", ss_error_message());
    cr_assert_arr_eq(c, want[0], sizeof(float) * (size_t)n);
    cr_assert_arr_eq(a, want[1], sizeof(float) * (size_t)n);
    cr_assert_arr_eq(b, want[2], sizeof(float) * (size_t)n);
    free(a);
    free(b);
    free(c);
    for (int k = 0; k < 3; k++)
        free(want[k]);
}
