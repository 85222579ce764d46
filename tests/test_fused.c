/* test_fused.c — fused elementwise expressions equal the unfused kernels
 * bit for bit: same f32 operations in the same order, with f32 and bf16
 * leaves, scalar leaves, scalar-only subexpressions and blocks that do not
 * divide the length. */
#include "support.h"

/* Internal on purpose: the fused kernels are driven directly. */
#include "kernels/kernels_internal.h"

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
        m[i] = ss__f32_to_bf16((float)(i % 13) * 0.1f - 0.6f);
    }
    float s0 = 1.0f, s1 = 0.9f, s2 = 1e-8f, s3 = -1e-3f;
    ss__tensor leaves[7] = {vec(SS_F32, n, p), vec(SS_BF16, n, m), vec(SS_F32, n, v),
                            scalar_t(&s0), scalar_t(&s1), scalar_t(&s2), scalar_t(&s3)};
    ss__k_fused f;
    memset(&f, 0, sizeof f);
    ss__k_fused_op ops[] = {
        {SS__K_FUSED_LEAF, 1, 0, 0, 0},              /* r0 = m */
        {SS__K_FUSED_LEAF, 3, 0, 0, 0},              /* r1 = s0 */
        {SS__K_FUSED_LEAF, 4, 0, 0, 0},              /* r2 = s1 */
        {SS__K_FUSED_BINARY, SS__K_SUB, 1, 2, 0},    /* r3 = s0 - s1 (scalar only) */
        {SS__K_FUSED_BINARY, SS__K_DIV, 0, 3, 0},    /* r4 = m / r3 */
        {SS__K_FUSED_LEAF, 2, 0, 0, 0},              /* r5 = v */
        {SS__K_FUSED_UNARY, SS__K_SQRT, 5, 0, 0},    /* r6 = sqrt(v) */
        {SS__K_FUSED_LEAF, 5, 0, 0, 0},              /* r7 = s2 */
        {SS__K_FUSED_BINARY, SS__K_ADD, 6, 7, 0},    /* r8 = r6 + s2 */
        {SS__K_FUSED_BINARY, SS__K_DIV, 4, 8, 0},    /* r9 = r4 / r8 */
        {SS__K_FUSED_LEAF, 6, 0, 0, 0},              /* r10 = s3 */
        {SS__K_FUSED_BINARY, SS__K_MUL, 10, 9, 0},   /* r11 = s3 * r9 */
        {SS__K_FUSED_LEAF, 0, 0, 0, 0},              /* r12 = p */
        {SS__K_FUSED_BINARY, SS__K_ADD, 12, 11, 0},  /* r13 = p + r11 */
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
        float mm = ss__bf16_to_f32(m[i]);
        float want = p[i] + s3 * ((mm / (s0 - s1)) / (sqrtf(v[i]) + s2));
        cr_assert(memcmp(&got[i], &want, sizeof want) == 0, "element %lld: %.9g vs %.9g",
                  (long long)i, (double)got[i], (double)want);
    }
    /* bf16 output: rounded once, from the same f32 value. */
    uint16_t *gb = malloc(sizeof(uint16_t) * (size_t)n);
    ss__tensor outb = vec(SS_BF16, n, gb);
    cr_assert_eq(ss__k_fused_run(&f, 7, leaves, &outb), SS_OK);
    for (int64_t i = 0; i < n; i++)
        cr_assert_eq(gb[i], ss__f32_to_bf16(got[i]), "element %lld", (long long)i);
    free(p);
    free(v);
    free(m);
    free(got);
    free(gb);
}

/* Broadcast leaves (ss__k_fused.repeat): over n = 1050 elements, a = x -
 * (bias cycled, 7 values) and b = a * (5 values each repeated 3 times,
 * cycled) + (10 bf16 values each repeated 105 times): runs wrap inside
 * the 256-element blocks and across them. Each element equals the
 * expression over leaves materialised here from the definition
 * (element i = leaf[(i / repeat) % m]); a size that the cycle does not
 * divide is refused. */
Test(fused, broadcast_leaves_repeat_and_cycle)
{
    enum { N = 1050 };
    float x[N], bias[7], row[5], got[N];
    uint16_t col[10];
    for (int i = 0; i < N; i++)
        x[i] = (float)sin((double)i);
    for (int i = 0; i < 7; i++)
        bias[i] = 0.25f * (float)i - 0.7f;
    for (int i = 0; i < 5; i++)
        row[i] = 1.5f - 0.3f * (float)i;
    for (int i = 0; i < 10; i++)
        col[i] = ss__f32_to_bf16(0.01f * (float)(i * i) - 0.3f);
    ss__tensor leaves[4] = {vec(SS_F32, N, x), vec(SS_F32, 7, bias), vec(SS_F32, 5, row),
                            vec(SS_BF16, 10, col)};
    ss__k_fused f;
    memset(&f, 0, sizeof f);
    ss__k_fused_op ops[] = {
        {SS__K_FUSED_LEAF, 0, 0, 0, 0},           /* r0 = x */
        {SS__K_FUSED_LEAF, 1, 0, 0, 0},           /* r1 = bias, cycled */
        {SS__K_FUSED_BINARY, SS__K_SUB, 0, 1, 0}, /* r2 = x - bias */
        {SS__K_FUSED_LEAF, 2, 0, 0, 0},           /* r3 = row, repeat 3 */
        {SS__K_FUSED_BINARY, SS__K_MUL, 2, 3, 0}, /* r4 = r2 * row */
        {SS__K_FUSED_LEAF, 3, 0, 0, 0},           /* r5 = col, repeat 105 */
        {SS__K_FUSED_BINARY, SS__K_ADD, 4, 5, 0}, /* r6 = r4 + col */
    };
    f.nops = (int)(sizeof ops / sizeof ops[0]);
    memcpy(f.ops, ops, sizeof ops);
    f.repeat[1] = 1;
    f.repeat[2] = 3;
    f.repeat[3] = 105;
    ss__tensor out = vec(SS_F32, N, got);
    cr_assert_eq(ss__k_fused_run(&f, 4, leaves, &out), SS_OK, "%s", ss_error_message());
    for (int i = 0; i < N; i++) {
        volatile float a = x[i] - bias[i % 7];
        volatile float b = a * row[(i / 3) % 5];
        float want = b + ss__bf16_to_f32(col[(i / 105) % 10]);
        cr_assert(memcmp(&got[i], &want, sizeof want) == 0, "element %d: %a, want %a", i,
                  (double)got[i], (double)want);
    }
    f.repeat[2] = 4; /* 5 x 4 does not divide 1050 */
    cr_assert_eq(ss__k_fused_run(&f, 4, leaves, &out), SS_ERR_INVALID);
}

/* The three fma forms as fused steps, one of them on a scalar-only
 * register (s * s): each element equals fmaf computed here directly, and
 * the unfused fma kernel's result. */
Test(fused, fma_steps_round_once_as_fmaf)
{
    int64_t n = 777;
    float *a = malloc(sizeof(float) * (size_t)n), *b = malloc(sizeof(float) * (size_t)n);
    float *c = malloc(sizeof(float) * (size_t)n), *got = malloc(sizeof(float) * (size_t)n);
    float *unfused = malloc(sizeof(float) * (size_t)n);
    for (int64_t i = 0; i < n; i++) {
        a[i] = (float)sin((double)i * 0.7);
        b[i] = (float)cos((double)i * 1.3);
        c[i] = (float)sin((double)i * 2.9) * 0.3f;
    }
    float s = 1.37f;
    ss__tensor leaves[4] = {vec(SS_F32, n, a), vec(SS_F32, n, b), vec(SS_F32, n, c),
                            scalar_t(&s)};
    ss__k_fused f;
    memset(&f, 0, sizeof f);
    ss__k_fused_op ops[] = {
        {SS__K_FUSED_LEAF, 0, 0, 0, 0},                 /* r0 = a */
        {SS__K_FUSED_LEAF, 1, 0, 0, 0},                 /* r1 = b */
        {SS__K_FUSED_LEAF, 2, 0, 0, 0},                 /* r2 = c */
        {SS__K_FUSED_LEAF, 3, 0, 0, 0},                 /* r3 = s */
        {SS__K_FUSED_FMA, SS__K_FMA_SUB, 3, 3, 3},       /* r4 = s*s - s (scalar only) */
        {SS__K_FUSED_FMA, SS__K_FMA_ADD, 0, 1, 2},      /* r5 = a*b + c */
        {SS__K_FUSED_FMA, SS__K_FMA_REVSUB, 5, 4, 0},   /* r6 = a - r5*r4 */
    };
    f.nops = (int)(sizeof ops / sizeof ops[0]);
    memcpy(f.ops, ops, sizeof ops);
    ss__tensor out = vec(SS_F32, n, got);
    cr_assert_eq(ss__k_fused_run(&f, 4, leaves, &out), SS_OK, "%s", ss_error_message());
    /* the unfused kernels: r5 then r6 through ss__k_elementwise */
    float r4 = fmaf(s, s, -s);
    float *r5 = malloc(sizeof(float) * (size_t)n), *r4v = malloc(sizeof(float) * (size_t)n);
    for (int64_t i = 0; i < n; i++)
        r4v[i] = r4;
    ss__tensor in5[3] = {vec(SS_F32, n, a), vec(SS_F32, n, b), vec(SS_F32, n, c)};
    ss__tensor o5 = vec(SS_F32, n, r5), o6 = vec(SS_F32, n, unfused);
    cr_assert_eq(ss__k_elementwise(SS__K_EW_FMA, SS__K_FMA_ADD, 3, in5, &o5), SS_OK);
    ss__tensor in6[3] = {vec(SS_F32, n, r5), vec(SS_F32, n, r4v), vec(SS_F32, n, a)};
    cr_assert_eq(ss__k_elementwise(SS__K_EW_FMA, SS__K_FMA_REVSUB, 3, in6, &o6), SS_OK);
    int differs = 0;
    for (int64_t i = 0; i < n; i++) {
        float want = fmaf(-fmaf(a[i], b[i], c[i]), r4, a[i]);
        cr_assert(memcmp(&got[i], &want, sizeof want) == 0, "element %lld: %a vs fmaf %a",
                  (long long)i, (double)got[i], (double)want);
        cr_assert(memcmp(&unfused[i], &want, sizeof want) == 0, "unfused element %lld",
                  (long long)i);
        volatile float ab = a[i] * b[i];
        differs += fmaf(a[i], b[i], c[i]) != ab + c[i];
    }
    cr_assert(differs > 0, "the inputs do not tell fmaf from a multiply and an add");
    free(a), free(b), free(c), free(got), free(unfused), free(r5), free(r4v);
}

Test(fused, rejects_malformed_expressions)
{
    float x[4] = {1, 2, 3, 4}, y[4];
    ss__tensor leaves[1] = {vec(SS_F32, 4, x)}, out = vec(SS_F32, 4, y);
    ss__k_fused f;
    memset(&f, 0, sizeof f);
    f.nops = 2;
    f.ops[0] = (ss__k_fused_op){SS__K_FUSED_LEAF, 0, 0, 0, 0};
    f.ops[1] = (ss__k_fused_op){SS__K_FUSED_BINARY, SS__K_ADD, 0, 1, 0}; /* reads itself */
    cr_assert_eq(ss__k_fused_run(&f, 1, leaves, &out), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "step 1 is malformed"), "%s", ss_error_message());
    float z[3];
    ss__tensor wrong[1] = {vec(SS_F32, 3, z)};
    f.ops[1] = (ss__k_fused_op){SS__K_FUSED_UNARY, SS__K_NEG, 0, 0, 0};
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
        {SS__K_FUSED_LEAF, 0, 0, 0, 0},           /* r0 = a */
        {SS__K_FUSED_LEAF, 1, 0, 0, 0},           /* r1 = b */
        {SS__K_FUSED_BINARY, SS__K_MUL, 0, 1, 0}, /* r2 = a * b */
        {SS__K_FUSED_LEAF, 2, 0, 0, 0},           /* r3 = c */
        {SS__K_FUSED_BINARY, SS__K_SUB, 3, 0, 0}, /* r4 = c - a */
        {SS__K_FUSED_BINARY, SS__K_ADD, 2, 3, 0}, /* r5 = a * b + c */
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

/* --- The compiled Adam loop (fused_adam.c) --------------------------------- */

/* optax's update as sim/spmd/fuse.c lays it out: leaves 0..3 = p, g, mu,
 * nu; scalar leaves 4.. = (1 - b1), b1, (1 - b2), b2, bc1, bc2, eps, -lr,
 * eps_root, wd. Results: p', extras mu' and nu'. `swap` writes the first
 * moment's product as g * S instead (not the update: interpreted). */
static int add_step(ss__k_fused *f, int kind, int sub, int a, int b)
{
    f->ops[f->nops] = (ss__k_fused_op){(uint8_t)kind, (uint8_t)sub, (uint8_t)a, (uint8_t)b, 0};
    return f->nops++;
}

static void adam_expr(ss__k_fused *f, bool eps_root, bool adamw, bool swap)
{
    memset(f, 0, sizeof *f);
#define STEP(k, s, a, b) add_step(f, k, s, a, b)
#define LEAF(l) STEP(SS__K_FUSED_LEAF, l, 0, 0)
#define BIN(op, a, b) STEP(SS__K_FUSED_BINARY, op, a, b)
    int c1 = LEAF(4), g = LEAF(1);
    int x = swap ? BIN(SS__K_MUL, g, c1) : BIN(SS__K_MUL, c1, g);
    int b1 = LEAF(5), mu0 = LEAF(2), y = BIN(SS__K_MUL, b1, mu0);
    int mu = BIN(SS__K_ADD, x, y);
    int c2 = LEAF(6), g2 = STEP(SS__K_FUSED_UNARY, SS__K_SQUARE, g, 0);
    int x2 = BIN(SS__K_MUL, c2, g2);
    int b2 = LEAF(7), nu0 = LEAF(3), y2 = BIN(SS__K_MUL, b2, nu0);
    int nu = BIN(SS__K_ADD, x2, y2);
    int mh = BIN(SS__K_DIV, mu, LEAF(8));
    int d = BIN(SS__K_DIV, nu, LEAF(9));
    if (eps_root)
        d = BIN(SS__K_ADD, d, LEAF(12));
    int sq = STEP(SS__K_FUSED_UNARY, SS__K_SQRT, d, 0);
    int den = BIN(SS__K_ADD, sq, LEAF(10));
    int u = BIN(SS__K_DIV, mh, den);
    int p = LEAF(0);
    if (adamw)
        u = BIN(SS__K_ADD, u, BIN(SS__K_MUL, LEAF(13), p));
    int s = BIN(SS__K_MUL, LEAF(11), u);
    BIN(SS__K_ADD, p, s);
#undef STEP
#undef LEAF
#undef BIN
    f->nextra = 2;
    f->extra[0] = (uint8_t)mu;
    f->extra[1] = (uint8_t)nu;
}

Test(fused, adam_update_runs_compiled_and_equals_the_interpreter)
{
    /* Moments and grads over many magnitudes (tiny, huge, zero, negative),
     * a length that is not a multiple of the chunk, results written over
     * the leaves they replace as the executor does. */
    int64_t n = 4099;
    float *in[4], *ref[3], *got[3];
    for (int k = 0; k < 4; k++)
        in[k] = malloc(sizeof(float) * (size_t)n);
    for (int k = 0; k < 3; k++) {
        ref[k] = malloc(sizeof(float) * (size_t)n);
        got[k] = malloc(sizeof(float) * (size_t)n);
    }
    float sc[10] = {0.1f, 0.9f, 0.001f, 0.999f, 0.271f, 0.00299f, 1e-8f, -1e-3f, 1e-10f, 1e-4f};
    for (int variant = 0; variant < 4; variant++) {
        bool eps_root = variant & 1, adamw = variant & 2;
        for (int64_t i = 0; i < n; i++) {
            double t = (double)i;
            in[0][i] = (float)(sin(t) * pow(10.0, (double)(i % 9) - 4));
            in[1][i] = i % 97 == 0 ? 0.0f : (float)(cos(t * 1.3) * pow(10.0, (double)(i % 13) - 6));
            in[2][i] = (float)(sin(t * 0.7) * 1e-3);
            in[3][i] = i % 89 == 0 ? 0.0f : (float)(fabs(cos(t * 0.3)) * 1e-6);
        }
        ss__k_fused f;
        adam_expr(&f, eps_root, adamw, false);
        ss__tensor leaves[14];
        for (int k = 0; k < 4; k++)
            leaves[k] = vec(SS_F32, n, in[k]);
        for (int k = 0; k < 10; k++)
            leaves[4 + k] = scalar_t(&sc[k]);
        ss__tensor fresh[3] = {vec(SS_F32, n, ref[0]), vec(SS_F32, n, ref[1]),
                               vec(SS_F32, n, ref[2])};
        cr_assert_eq(ss__k_fused_interpret(&f, 14, leaves, fresh), SS_OK, "%s",
                     ss_error_message());
        /* The compiled loop takes it. */
        bool constant[SS__K_FUSED_MAX_OPS];
        float cval[SS__K_FUSED_MAX_OPS];
        for (int s = 0; s < f.nops; s++) {
            const ss__k_fused_op *o = &f.ops[s];
            constant[s] = o->kind == SS__K_FUSED_LEAF && o->sub >= 4;
            cval[s] = constant[s] ? sc[o->sub - 4] : 0.0f;
        }
        ss__tensor outs[3] = {vec(SS_F32, n, got[0]), vec(SS_F32, n, got[1]),
                              vec(SS_F32, n, got[2])};
        cr_assert(ss__k_fused_adam(&f, leaves, outs, constant, cval), "variant %d not matched",
                  variant);
        for (int k = 0; k < 3; k++)
            cr_assert_arr_eq(got[k], ref[k], sizeof(float) * (size_t)n, "variant %d result %d",
                             variant, k);
        /* In place, through the public entry: p', mu', nu' over p, mu, nu. */
        ss__tensor over[3] = {vec(SS_F32, n, in[0]), vec(SS_F32, n, in[2]),
                              vec(SS_F32, n, in[3])};
        cr_assert_eq(ss__k_fused_run(&f, 14, leaves, over), SS_OK, "%s", ss_error_message());
        cr_assert_arr_eq(in[0], ref[0], sizeof(float) * (size_t)n, "variant %d p in place",
                         variant);
        cr_assert_arr_eq(in[2], ref[1], sizeof(float) * (size_t)n, "variant %d mu in place",
                         variant);
        cr_assert_arr_eq(in[3], ref[2], sizeof(float) * (size_t)n, "variant %d nu in place",
                         variant);
    }
    /* Anything else is interpreted: operands in another order, a bf16 leaf. */
    ss__k_fused f;
    adam_expr(&f, false, false, true);
    ss__tensor leaves[14];
    for (int k = 0; k < 4; k++)
        leaves[k] = vec(SS_F32, n, in[k]);
    for (int k = 0; k < 10; k++)
        leaves[4 + k] = scalar_t(&sc[k]);
    bool constant[SS__K_FUSED_MAX_OPS];
    float cval[SS__K_FUSED_MAX_OPS] = {0};
    for (int s = 0; s < f.nops; s++)
        constant[s] = f.ops[s].kind == SS__K_FUSED_LEAF && f.ops[s].sub >= 4;
    ss__tensor outs[3] = {vec(SS_F32, n, got[0]), vec(SS_F32, n, got[1]), vec(SS_F32, n, got[2])};
    cr_assert(!ss__k_fused_adam(&f, leaves, outs, constant, cval));
    adam_expr(&f, false, false, false);
    uint16_t *half = calloc((size_t)n, sizeof *half);
    leaves[2] = vec(SS_BF16, n, half);
    cr_assert(!ss__k_fused_adam(&f, leaves, outs, constant, cval));
    free(half);
    for (int k = 0; k < 4; k++)
        free(in[k]);
    for (int k = 0; k < 3; k++) {
        free(ref[k]);
        free(got[k]);
    }
}
