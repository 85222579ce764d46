/*
 * elementwise.c — unary and binary elementwise ops with numpy broadcasting.
 *
 * Each op is defined once as a scalar f32 function (ss__k_unary_f32,
 * ss__k_binary_f32) and applied by a per-op loop over f32 blocks, so the
 * compiler can vectorise the simple ones. Broadcasting is done by walking
 * the coalesced output index space with stride-0 dims for stretched inputs;
 * the innermost run is loaded into f32 blocks (a stretched run is one value
 * filled). All-f32, unbroadcast runs skip the blocks and work in place.
 *
 * Not here: integers, bool, f64 and the ops that change the dtype
 * (compare, is_finite, convert to or from them): ss__k_unary and
 * ss__k_binary hand those to the exact path (elementwise_int.c).
 */
#include "kernels_internal.h"
#include "elementwise_int.h"
#include "xla_math.h"

#include <math.h>

static const char *const unary_names[SS__K_UNARY_COUNT] = {
    [SS__K_NEG] = "neg",   [SS__K_EXP] = "exp",   [SS__K_LOG] = "log",
    [SS__K_TANH] = "tanh", [SS__K_RELU] = "relu", [SS__K_GELU] = "gelu",
    [SS__K_SQRT] = "sqrt", [SS__K_RSQRT] = "rsqrt", [SS__K_SQUARE] = "square",
    [SS__K_CONVERT] = "convert",
    [SS__K_ABS] = "abs", [SS__K_SIGN] = "sign", [SS__K_FLOOR] = "floor", [SS__K_CEIL] = "ceil",
    [SS__K_ROUND_EVEN] = "round_nearest_even", [SS__K_ROUND_AFZ] = "round_nearest_afz",
    [SS__K_SIN] = "sine", [SS__K_COS] = "cosine", [SS__K_TAN] = "tan", [SS__K_ERF] = "erf",
    [SS__K_EXPM1] = "exponential_minus_one", [SS__K_LOG1P] = "log_plus_one",
    [SS__K_LOGISTIC] = "logistic", [SS__K_CBRT] = "cbrt", [SS__K_IS_FINITE] = "is_finite",
    [SS__K_NOT] = "not", [SS__K_POPCNT] = "popcnt", [SS__K_ERF_INV] = "erf_inv",
    [SS__K_CLZ] = "count_leading_zeros", [SS__K_BITCAST] = "bitcast_convert",
};

static const char *const binary_names[SS__K_BINARY_COUNT] = {
    [SS__K_ADD] = "add", [SS__K_SUB] = "sub", [SS__K_MUL] = "mul", [SS__K_DIV] = "div",
    [SS__K_MAX] = "max", [SS__K_MIN] = "min", [SS__K_POW] = "pow",
    [SS__K_EQ] = "eq",   [SS__K_GT] = "gt",  [SS__K_GE] = "ge",
    [SS__K_REM] = "remainder", [SS__K_AND] = "and", [SS__K_OR] = "or", [SS__K_XOR] = "xor",
    [SS__K_SHL] = "shift_left", [SS__K_SHR_A] = "shift_right_arithmetic",
    [SS__K_SHR_L] = "shift_right_logical", [SS__K_ATAN2] = "atan2",
    [SS__K_NEXT_AFTER] = "next_after",
};

/* FLOPs per element (see kernels.h). */
static const int64_t unary_cost[SS__K_UNARY_COUNT] = {
    [SS__K_NEG] = 1,  [SS__K_EXP] = 1,  [SS__K_LOG] = 1,   [SS__K_TANH] = 1,   [SS__K_RELU] = 1,
    [SS__K_GELU] = 9, [SS__K_SQRT] = 1, [SS__K_RSQRT] = 2, [SS__K_SQUARE] = 1,
    [SS__K_CONVERT] = 0,
    [SS__K_ABS] = 1, [SS__K_SIGN] = 1, [SS__K_FLOOR] = 1, [SS__K_CEIL] = 1, [SS__K_ROUND_EVEN] = 1,
    [SS__K_ROUND_AFZ] = 1, [SS__K_SIN] = 1, [SS__K_COS] = 1, [SS__K_TAN] = 1, [SS__K_ERF] = 1,
    [SS__K_EXPM1] = 1, [SS__K_LOG1P] = 1, [SS__K_LOGISTIC] = 3, [SS__K_CBRT] = 1,
    [SS__K_IS_FINITE] = 1, [SS__K_NOT] = 1, [SS__K_POPCNT] = 1, [SS__K_ERF_INV] = 20,
    [SS__K_CLZ] = 1, [SS__K_BITCAST] = 0,
};

const char *ss__k_unary_name(ss__k_unary_op op)
{
    return (unsigned)op < SS__K_UNARY_COUNT ? unary_names[op] : "?";
}

const char *ss__k_binary_name(ss__k_binary_op op)
{
    return (unsigned)op < SS__K_BINARY_COUNT ? binary_names[op] : "?";
}

/* sqrt(2 / pi) rounded to f32, as jax.nn.gelu uses it for f32 inputs. */
#define GELU_C 0.7978845608028654f

static inline float gelu(float x)
{
    /* jax.nn.gelu(approximate=True): x * 0.5 * (1 + tanh(c * (x + 0.044715 x^3))) */
    float cdf = 0.5f * (1.0f + tanhf(GELU_C * (x + 0.044715f * (x * x * x))));
    return x * cdf;
}

static inline float relu(float x)
{
    return x > 0.0f || x != x ? x : 0.0f;
}

static inline float sign_f32(float x)
{
    return x != x || x == 0.0f ? x : x > 0.0f ? 1.0f : -1.0f;
}

static inline float logistic_f32(float x)
{
    return 1.0f / (1.0f + expf(-x));
}

static inline float fmax_nan(float a, float b)
{
    return a > b || a != a ? a : b;
}

static inline float fmin_nan(float a, float b)
{
    return a < b || a != a ? a : b;
}

float ss__k_unary_f32(ss__k_unary_op op, float x)
{
    switch (op) {
    case SS__K_NEG: return -x;
    case SS__K_EXP: return expf(x);
    case SS__K_LOG: return ss__k_xla_logf(x);
    case SS__K_TANH: return tanhf(x);
    case SS__K_RELU: return relu(x);
    case SS__K_GELU: return gelu(x);
    case SS__K_SQRT: return sqrtf(x);
    case SS__K_RSQRT: return 1.0f / sqrtf(x);
    case SS__K_SQUARE: return x * x;
    case SS__K_CONVERT: return x;
    case SS__K_ABS: return fabsf(x);
    case SS__K_SIGN: return sign_f32(x);
    case SS__K_FLOOR: return floorf(x);
    case SS__K_CEIL: return ceilf(x);
    case SS__K_ROUND_EVEN: return nearbyintf(x);
    case SS__K_ROUND_AFZ: return roundf(x);
    case SS__K_SIN: return sinf(x);
    case SS__K_COS: return cosf(x);
    case SS__K_TAN: return tanf(x);
    case SS__K_ERF: return ss__k_xla_erff(x);
    case SS__K_EXPM1: return expm1f(x);
    case SS__K_LOG1P: return ss__k_xla_log1pf(x);
    case SS__K_LOGISTIC: return logistic_f32(x);
    case SS__K_CBRT: return cbrtf(x);
    case SS__K_ERF_INV: return ss__k_erf_inv_f32(x);
    default: return NAN;
    }
}

float ss__k_binary_f32(ss__k_binary_op op, float a, float b)
{
    switch (op) {
    case SS__K_ADD: return a + b;
    case SS__K_SUB: return a - b;
    case SS__K_MUL: return a * b;
    case SS__K_DIV: return a / b;
    case SS__K_MAX: return fmax_nan(a, b);
    case SS__K_MIN: return fmin_nan(a, b);
    case SS__K_POW: return powf(a, b);
    case SS__K_EQ: return a == b ? 1.0f : 0.0f;
    case SS__K_GT: return a > b ? 1.0f : 0.0f;
    case SS__K_GE: return a >= b ? 1.0f : 0.0f;
    case SS__K_REM: return fmodf(a, b);
    case SS__K_ATAN2: return atan2f(a, b);
    case SS__K_NEXT_AFTER: return nextafterf(a, b);
    default: return NAN;
    }
}

/* gelu and logistic with the vector tanh and exp (elementwise_vec.c): the
 * same f32 operations as gelu() and logistic_f32(), block by block; false
 * (nothing written) where the vector path is off. */
static bool gelu_vec(const float *x, float *y, int64_t n)
{
    float t[SS__K_BLOCK];
    for (int64_t i = 0; i < n; i += SS__K_BLOCK) {
        int64_t c = n - i < SS__K_BLOCK ? n - i : SS__K_BLOCK;
        for (int64_t j = 0; j < c; j++) {
            float v = x[i + j];
            t[j] = GELU_C * (v + 0.044715f * (v * v * v));
        }
        if (!ss__k_vec_tanh(t, t, c))
            return false;
        for (int64_t j = 0; j < c; j++)
            y[i + j] = x[i + j] * (0.5f * (1.0f + t[j]));
    }
    return true;
}

static bool logistic_vec(const float *x, float *y, int64_t n)
{
    float t[SS__K_BLOCK];
    for (int64_t i = 0; i < n; i += SS__K_BLOCK) {
        int64_t c = n - i < SS__K_BLOCK ? n - i : SS__K_BLOCK;
        for (int64_t j = 0; j < c; j++)
            t[j] = -x[i + j];
        if (!ss__k_vec_exp(t, t, c))
            return false;
        for (int64_t j = 0; j < c; j++)
            y[i + j] = 1.0f / (1.0f + t[j]);
    }
    return true;
}

/* y[i] = op(x[i]); x may equal y. One loop per op so each is a tight loop;
 * exp, tanh, gelu and logistic through the vector exp and tanh when they
 * are on (libm's bits either way). */
SS__K_VECTOR_CLONES
void ss__k_unary_block(ss__k_unary_op op, const float *x, float *y, int64_t n)
{
#define LOOP(expr)                        \
    for (int64_t i = 0; i < n; i++) {     \
        float v = x[i];                   \
        y[i] = (expr);                    \
    }                                     \
    break
    switch (op) {
    case SS__K_NEG: LOOP(-v);
    case SS__K_EXP:
        if (ss__k_vec_exp(x, y, n))
            break;
        LOOP(expf(v));
    case SS__K_LOG: LOOP(ss__k_xla_logf(v));
    case SS__K_TANH:
        if (ss__k_vec_tanh(x, y, n))
            break;
        LOOP(tanhf(v));
    case SS__K_RELU: LOOP(relu(v));
    case SS__K_GELU:
        if (gelu_vec(x, y, n))
            break;
        LOOP(gelu(v));
    case SS__K_SQRT: LOOP(sqrtf(v));
    case SS__K_RSQRT: LOOP(1.0f / sqrtf(v));
    case SS__K_SQUARE: LOOP(v * v);
    case SS__K_CONVERT: LOOP(v);
    case SS__K_ABS: LOOP(fabsf(v));
    case SS__K_SIGN: LOOP(sign_f32(v));
    case SS__K_FLOOR: LOOP(floorf(v));
    case SS__K_CEIL: LOOP(ceilf(v));
    case SS__K_ROUND_EVEN: LOOP(nearbyintf(v));
    case SS__K_ROUND_AFZ: LOOP(roundf(v));
    case SS__K_SIN: LOOP(sinf(v));
    case SS__K_COS: LOOP(cosf(v));
    case SS__K_TAN: LOOP(tanf(v));
    case SS__K_ERF: LOOP(ss__k_xla_erff(v));
    case SS__K_EXPM1: LOOP(expm1f(v));
    case SS__K_LOG1P: LOOP(ss__k_xla_log1pf(v));
    case SS__K_LOGISTIC:
        if (logistic_vec(x, y, n))
            break;
        LOOP(logistic_f32(v));
    case SS__K_CBRT: LOOP(cbrtf(v));
    case SS__K_ERF_INV: LOOP(ss__k_erf_inv_f32(v));
    default: LOOP(((void)v, NAN)); /* unreachable: ops are checked first */
    }
#undef LOOP
}

/* y[i] = op(a[i], b[i]); y may equal a or b. */
SS__K_VECTOR_CLONES
void ss__k_binary_block(ss__k_binary_op op, const float *a, const float *b, float *y, int64_t n)
{
#define LOOP(expr)                        \
    for (int64_t i = 0; i < n; i++) {     \
        float u = a[i], v = b[i];         \
        y[i] = (expr);                    \
    }                                     \
    break
    switch (op) {
    case SS__K_ADD: LOOP(u + v);
    case SS__K_SUB: LOOP(u - v);
    case SS__K_MUL: LOOP(u * v);
    case SS__K_DIV: LOOP(u / v);
    case SS__K_MAX: LOOP(fmax_nan(u, v));
    case SS__K_MIN: LOOP(fmin_nan(u, v));
    case SS__K_POW: LOOP(powf(u, v));
    case SS__K_EQ: LOOP(u == v ? 1.0f : 0.0f);
    case SS__K_GT: LOOP(u > v ? 1.0f : 0.0f);
    case SS__K_GE: LOOP(u >= v ? 1.0f : 0.0f);
    case SS__K_REM: LOOP(fmodf(u, v));
    case SS__K_ATAN2: LOOP(atan2f(u, v));
    case SS__K_NEXT_AFTER: LOOP(nextafterf(u, v));
    default: LOOP(((void)u, (void)v, NAN));
    }
#undef LOOP
}

/* Ops the f32 block loops compute (the float ops). */
static bool f32_unary_op(ss__k_unary_op op)
{
    return (unsigned)op < SS__K_UNARY_COUNT && op != SS__K_IS_FINITE && op != SS__K_NOT &&
           op != SS__K_POPCNT && op != SS__K_CLZ && op != SS__K_BITCAST;
}

static bool f32_binary_op(ss__k_binary_op op)
{
    return op <= SS__K_REM || op == SS__K_ATAN2 || op == SS__K_NEXT_AFTER;
}

bool ss__k_unary_is_f32_path(ss__k_unary_op op, ss_dtype x, ss_dtype out)
{
    return f32_unary_op(op) && ss__k_is_float(x) && ss__k_is_float(out);
}

bool ss__k_binary_is_f32_path(ss__k_binary_op op, ss_dtype a, ss_dtype b, ss_dtype out)
{
    if (op == SS__K_NEXT_AFTER) /* a step in the dtype itself, not in f32 */
        return a == SS_F32 && b == SS_F32 && out == SS_F32;
    return (unsigned)op < SS__K_BINARY_COUNT && f32_binary_op(op) && ss__k_is_float(a) &&
           ss__k_is_float(b) && ss__k_is_float(out);
}

ss_status ss__k_check_unary(ss__k_unary_op op, const ss__tensor *x, const ss__tensor *out)
{
    if ((unsigned)op >= SS__K_UNARY_COUNT)
        return ss__fail(SS_ERR_INVALID, "unary: unknown op %d", (int)op);
    if (!ss__k_unary_is_f32_path(op, x->dtype, out->dtype))
        return ss__k_check_elementwise(SS__K_EW_UNARY, (int)op, 1, x, out);
    const char *name = unary_names[op];
    ss_status st = ss__k_check_float(name, "input", x, NULL);
    if (!st)
        st = ss__k_check_float(name, "output", out, NULL);
    if (!st)
        st = ss__k_check_same_shape(name, "input", x, "output", out);
    return st;
}

ss_status ss__k_unary(ss__k_unary_op op, const ss__tensor *x, ss__tensor *out)
{
    if ((unsigned)op < SS__K_UNARY_COUNT && !ss__k_unary_is_f32_path(op, x->dtype, out->dtype))
        return ss__k_elementwise(SS__K_EW_UNARY, (int)op, 1, x, out);
    ss_status st = ss__k_check_unary(op, x, out);
    if (st)
        return st;
    int64_t n = ss__k_numel(x);
    if (x->dtype == SS_F32 && out->dtype == SS_F32) {
        ss__k_unary_block(op, x->data, out->data, n);
        return SS_OK;
    }
    float buf[SS__K_BLOCK];
    for (int64_t i = 0; i < n; i += SS__K_BLOCK) {
        int64_t c = n - i < SS__K_BLOCK ? n - i : SS__K_BLOCK;
        ss__k_load_f32(x->dtype, x->data, i, c, buf);
        ss__k_unary_block(op, buf, buf, c);
        ss__k_store_f32(out->dtype, out->data, i, c, buf);
    }
    return SS_OK;
}

ss_status ss__k_broadcast_shape(const char *op, const ss__tensor *a, const ss__tensor *b,
                                int *rank, int64_t shape[SS_MAX_RANK])
{
    ss_status st = ss__k_check_shape(op, "lhs", a, NULL);
    if (!st)
        st = ss__k_check_shape(op, "rhs", b, NULL);
    if (st)
        return st;
    int r = a->rank > b->rank ? a->rank : b->rank;
    for (int d = 0; d < r; d++) {
        int da = d - (r - a->rank), db = d - (r - b->rank);
        int64_t sa = da >= 0 ? a->shape[da] : 1, sb = db >= 0 ? b->shape[db] : 1;
        if (sa != sb && sa != 1 && sb != 1)
            return ss__fail(SS_ERR_INVALID, "%s: cannot broadcast shapes %s and %s", op,
                            ss__k_shape_text(a->rank, a->shape).s,
                            ss__k_shape_text(b->rank, b->shape).s);
        shape[d] = sa == 1 ? sb : sa;
    }
    *rank = r;
    return SS_OK;
}

ss_status ss__k_check_binary(ss__k_binary_op op, const ss__tensor *a, const ss__tensor *b,
                             const ss__tensor *out)
{
    if ((unsigned)op >= SS__K_BINARY_COUNT)
        return ss__fail(SS_ERR_INVALID, "binary: unknown op %d", (int)op);
    if (!ss__k_binary_is_f32_path(op, a->dtype, b->dtype, out->dtype)) {
        ss__tensor in[2] = {*a, *b};
        return ss__k_check_elementwise(SS__K_EW_BINARY, (int)op, 2, in, out);
    }
    const char *name = binary_names[op];
    ss_status st = ss__k_check_float(name, "lhs", a, NULL);
    if (!st)
        st = ss__k_check_float(name, "rhs", b, NULL);
    if (!st)
        st = ss__k_check_float(name, "output", out, NULL);
    if (st)
        return st;
    ss__tensor bc = {.dtype = out->dtype};
    st = ss__k_broadcast_shape(name, a, b, &bc.rank, bc.shape);
    if (!st)
        st = ss__k_check_same_shape(name, "broadcast", &bc, "output", out);
    return st;
}

/* dst[0..n) = elements start, start+stride, ... of t, as f32. */
static void gather_f32(const ss__tensor *t, int64_t start, int64_t stride, int64_t n, float *dst)
{
    if (stride == 1) {
        ss__k_load_f32(t->dtype, t->data, start, n, dst);
    } else if (stride == 0) {
        float v;
        ss__k_load_f32(t->dtype, t->data, start, 1, &v);
        for (int64_t i = 0; i < n; i++)
            dst[i] = v;
    } else {
        for (int64_t i = 0; i < n; i++)
            ss__k_load_f32(t->dtype, t->data, start + i * stride, 1, dst + i);
    }
}

ss_status ss__k_binary(ss__k_binary_op op, const ss__tensor *a, const ss__tensor *b,
                       ss__tensor *out)
{
    if ((unsigned)op < SS__K_BINARY_COUNT &&
        !ss__k_binary_is_f32_path(op, a->dtype, b->dtype, out->dtype)) {
        ss__tensor in[2] = {*a, *b};
        return ss__k_elementwise(SS__K_EW_BINARY, (int)op, 2, in, out);
    }
    ss_status st = ss__k_check_binary(op, a, b, out);
    if (st)
        return st;
    int64_t n = ss__k_numel(out);
    if (n == 0)
        return SS_OK;

    /* Operand 0 is the output, 1 is a, 2 is b; stretched dims get stride 0. */
    int rank = out->rank;
    int64_t shape[SS_MAX_RANK], strides[3][SS_MAX_RANK], sa[SS_MAX_RANK], sb[SS_MAX_RANK];
    memcpy(shape, out->shape, sizeof shape);
    ss__k_strides(rank, out->shape, strides[0]);
    ss__k_strides(a->rank, a->shape, sa);
    ss__k_strides(b->rank, b->shape, sb);
    for (int d = 0; d < rank; d++) {
        int da = d - (rank - a->rank), db = d - (rank - b->rank);
        strides[1][d] = da >= 0 && a->shape[da] != 1 ? sa[da] : 0;
        strides[2][d] = db >= 0 && b->shape[db] != 1 ? sb[db] : 0;
    }
    int r = ss__k_coalesce(rank, shape, 3, strides);
    int64_t inner = shape[r - 1];
    int64_t s1 = strides[1][r - 1], s2 = strides[2][r - 1];
    bool direct = a->dtype == SS_F32 && b->dtype == SS_F32 && out->dtype == SS_F32 &&
                  s1 == 1 && s2 == 1;

    int64_t idx[SS_MAX_RANK] = {0}, off[3] = {0, 0, 0};
    float ba[SS__K_BLOCK], bb[SS__K_BLOCK], by[SS__K_BLOCK];
    do {
        if (direct) {
            ss__k_binary_block(op, (const float *)a->data + off[1], (const float *)b->data + off[2],
                         (float *)out->data + off[0], inner);
            continue;
        }
        for (int64_t i = 0; i < inner; i += SS__K_BLOCK) {
            int64_t c = inner - i < SS__K_BLOCK ? inner - i : SS__K_BLOCK;
            gather_f32(a, off[1] + i * s1, s1, c, ba);
            gather_f32(b, off[2] + i * s2, s2, c, bb);
            ss__k_binary_block(op, ba, bb, by, c);
            ss__k_store_f32(out->dtype, out->data, off[0] + i, c, by);
        }
    } while (ss__k_step(r - 1, shape, idx, 3, strides, off));
    return SS_OK;
}

ss_status ss__k_binary_scalar(ss__k_binary_op op, const ss__tensor *a, float s, bool scalar_left,
                              ss__tensor *out)
{
    ss__tensor k = {.dtype = SS_F32, .rank = 0, .data = &s};
    return scalar_left ? ss__k_binary(op, &k, a, out) : ss__k_binary(op, a, &k, out);
}

int64_t ss__k_flops_unary(ss__k_unary_op op, const ss__tensor *x)
{
    int64_t n = ss__k_numel(x);
    if (n <= 0 || (unsigned)op >= SS__K_UNARY_COUNT)
        return 0;
    return ss__k_mul_sat(n, unary_cost[op]);
}

int64_t ss__k_flops_binary(ss__k_binary_op op, const ss__tensor *out)
{
    int64_t n = ss__k_numel(out);
    if (n <= 0 || (unsigned)op >= SS__K_BINARY_COUNT)
        return 0;
    return n;
}
