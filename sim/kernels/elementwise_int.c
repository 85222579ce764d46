/*
 * elementwise_int.c — elementwise ops on every dtype, exactly: integers
 * (signed and unsigned, 8 to 64 bits, two's-complement wrap-around), bool,
 * f64, and the ops whose result dtype differs from the operands' (compare,
 * is_finite, convert), plus select and clamp. kernels.h states XLA's
 * results for the cases C leaves undefined (division by zero, INT_MIN / -1,
 * shifts past the width, float -> integer out of range).
 *
 * Every element is loaded into a 64-bit scalar of its dtype's class (signed
 * integers sign-extended, unsigned ones and bool zero-extended, floats as
 * double, which holds every f32/bf16/f16/f64 value exactly), computed in
 * that class, and stored truncated (integers) or rounded once (floats) to
 * the result's dtype. Integer arithmetic is done on uint64_t, so wrapping is
 * defined, and truncation to the width gives the result modulo 2^bits.
 *
 * The scalar semantics (ss__k_ew_scalar) serve this file's strided loop and
 * the naive reference's unravelled loop (reference.c) alike; the JAX vectors
 * of tests/test_elementwise_jax.c are what holds the semantics to XLA's.
 */
#include "kernels_internal.h"
#include "elementwise_int.h"

#include <math.h>

/* --- dtype classes ------------------------------------------------------ */

ss__k_class ss__k_class_of(ss_dtype dt)
{
    switch (dt) {
    case SS_F32: case SS_BF16: case SS_F16: case SS_F64: return SS__K_CLASS_FLOAT;
    case SS_I8: case SS_I16: case SS_I32: case SS_I64: return SS__K_CLASS_SIGNED;
    case SS_U8: case SS_U16: case SS_U32: case SS_U64: return SS__K_CLASS_UNSIGNED;
    case SS_BOOL: return SS__K_CLASS_BOOL;
    default: break;
    }
    return SS__K_CLASS_NONE;
}

int ss__k_bits_of(ss_dtype dt)
{
    return dt == SS_BOOL ? 1 : (int)ss_dtype_size(dt) * 8;
}

/* v's low `bits` bits, sign-extended (signed) or zero-extended. */
static uint64_t wrap(uint64_t v, int bits, bool is_signed)
{
    if (bits >= 64)
        return v;
    uint64_t mask = (UINT64_C(1) << bits) - 1;
    v &= mask;
    if (is_signed && (v >> (bits - 1)) & 1u)
        v |= ~mask;
    return v;
}

ss__k_scalar ss__k_ew_load(ss_dtype dt, const void *data, int64_t i)
{
    ss__k_scalar s = {0};
    const unsigned char *p = (const unsigned char *)data;
    switch (dt) {
    case SS_F32: { float f; memcpy(&f, p + 4 * i, 4); s.f = f; break; }
    case SS_F64: memcpy(&s.f, p + 8 * i, 8); break;
    case SS_BF16: { uint16_t h; memcpy(&h, p + 2 * i, 2); s.f = ss__bf16_to_f32(h); break; }
    case SS_F16: { uint16_t h; memcpy(&h, p + 2 * i, 2); s.f = ss__f16_to_f32(h); break; }
    case SS_BOOL: s.u = p[i] != 0; break;
    default: {
        size_t es = ss_dtype_size(dt);
        uint64_t v = 0;
        memcpy(&v, p + es * (size_t)i, es); /* little-endian hosts */
        s.u = wrap(v, (int)es * 8, ss__k_class_of(dt) == SS__K_CLASS_SIGNED);
        break;
    }
    }
    return s;
}

/* d rounded once to `p` significant bits, nearest even, with no quantum
 * below 2^qmin (the format's smallest subnormal). */
static double round_bits(double d, int p, int qmin)
{
    if (d == 0 || d != d || isinf(d))
        return d;
    int e;
    (void)frexp(d, &e);
    int q = e - p > qmin ? e - p : qmin;
    return ldexp(nearbyint(ldexp(d, -q)), q);
}

void ss__k_ew_store(ss_dtype dt, void *data, int64_t i, ss__k_scalar s)
{
    unsigned char *p = (unsigned char *)data;
    switch (dt) {
    case SS_F32: { float f = (float)s.f; memcpy(p + 4 * i, &f, 4); break; }
    case SS_F64: memcpy(p + 8 * i, &s.f, 8); break;
    case SS_BF16: {
        /* one rounding from double to 8 significant bits; then exact */
        double r = round_bits(s.f, 8, -133);
        uint16_t h = ss__f32_to_bf16((float)r);
        memcpy(p + 2 * i, &h, 2);
        break;
    }
    case SS_F16: {
        double r = round_bits(s.f, 11, -24);
        uint16_t h = ss__f32_to_f16(fabs(r) >= 65520.0 ? (float)copysign(INFINITY, r) : (float)r);
        memcpy(p + 2 * i, &h, 2);
        break;
    }
    case SS_BOOL: p[i] = s.u != 0; break;
    default: {
        size_t es = ss_dtype_size(dt);
        memcpy(p + es * (size_t)i, &s.u, es); /* the low bytes: truncation */
        break;
    }
    }
}

/* An integer of magnitude m (negated when neg) rounded once to p bits. */
static double int_to_double_bits(uint64_t m, bool neg, int p)
{
    int top = 63;
    while (top > 0 && !((m >> top) & 1u))
        top--;
    if (m && top + 1 > p) {
        int drop = top + 1 - p;
        uint64_t keep = m >> drop, rest = m & ((UINT64_C(1) << drop) - 1);
        uint64_t half = UINT64_C(1) << (drop - 1);
        if (rest > half || (rest == half && (keep & 1u)))
            keep++;
        double r = ldexp((double)keep, drop);
        return neg ? -r : r;
    }
    return neg ? -(double)m : (double)m;
}

/* Float -> integer as XLA's convert on CPU: truncate, saturate, NaN -> 0. */
static uint64_t float_to_int(double f, int bits, bool is_signed)
{
    if (f != f)
        return 0;
    if (is_signed) {
        double hi = ldexp(1.0, bits - 1); /* exclusive */
        if (f >= hi)
            return bits >= 64 ? (uint64_t)INT64_MAX : (UINT64_C(1) << (bits - 1)) - 1;
        if (f <= -hi)
            return wrap(UINT64_C(1) << (bits - 1), bits, true);
        return (uint64_t)(int64_t)trunc(f);
    }
    double hi = ldexp(1.0, bits);
    if (f >= hi)
        return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    if (f <= 0)
        return 0;
    return (uint64_t)trunc(f);
}

ss__k_scalar ss__k_ew_convert(ss__k_scalar s, ss_dtype from, ss_dtype to)
{
    ss__k_class cf = ss__k_class_of(from), ct = ss__k_class_of(to);
    ss__k_scalar r = {0};
    if (ct == SS__K_CLASS_BOOL) {
        r.u = cf == SS__K_CLASS_FLOAT ? s.f != 0 || s.f != s.f : s.u != 0;
        return r;
    }
    if (ct == SS__K_CLASS_FLOAT) {
        if (cf == SS__K_CLASS_FLOAT) {
            r.f = s.f;
            return r;
        }
        bool neg = cf == SS__K_CLASS_SIGNED && (int64_t)s.u < 0;
        uint64_t m = neg ? 0 - s.u : s.u;
        int p = to == SS_F64 ? 53 : to == SS_F32 ? 24 : to == SS_BF16 ? 8 : 11;
        r.f = int_to_double_bits(m, neg, p);
        return r;
    }
    int bits = ss__k_bits_of(to);
    bool sg = ct == SS__K_CLASS_SIGNED;
    r.u = cf == SS__K_CLASS_FLOAT ? float_to_int(s.f, bits, sg) : wrap(s.u, bits, sg);
    return r;
}

/* --- scalar semantics --------------------------------------------------- */

static double max_nan(double a, double b) { return a != a || b != b ? NAN : a > b ? a : b; }
static double min_nan(double a, double b) { return a != a || b != b ? NAN : a < b ? a : b; }

static double float_unary(int op, double x)
{
    switch ((ss__k_unary_op)op) {
    case SS__K_NEG: return -x;
    case SS__K_EXP: return exp(x);
    case SS__K_LOG: return log(x);
    case SS__K_TANH: return tanh(x);
    case SS__K_RELU: return x != x ? x : x > 0 ? x : 0.0;
    case SS__K_GELU:
        return 0.5 * x * (1.0 + tanh(sqrt(2.0 / 3.14159265358979323846) *
                                     (x + 0.044715 * x * x * x)));
    case SS__K_SQRT: return sqrt(x);
    case SS__K_RSQRT: return 1.0 / sqrt(x);
    case SS__K_SQUARE: return x * x;
    case SS__K_CONVERT: return x;
    case SS__K_ABS: return fabs(x);
    case SS__K_SIGN: return x != x || x == 0 ? x : x > 0 ? 1.0 : -1.0;
    case SS__K_FLOOR: return floor(x);
    case SS__K_CEIL: return ceil(x);
    case SS__K_ROUND_EVEN: return nearbyint(x);
    case SS__K_ROUND_AFZ: return round(x);
    case SS__K_SIN: return sin(x);
    case SS__K_COS: return cos(x);
    case SS__K_TAN: return tan(x);
    case SS__K_ERF: return erf(x);
    case SS__K_EXPM1: return expm1(x);
    case SS__K_LOG1P: return log1p(x);
    case SS__K_LOGISTIC: return 1.0 / (1.0 + exp(-x));
    case SS__K_CBRT: return cbrt(x);
    default: return NAN;
    }
}

static double float_binary(int op, double a, double b)
{
    switch ((ss__k_binary_op)op) {
    case SS__K_ADD: return a + b;
    case SS__K_SUB: return a - b;
    case SS__K_MUL: return a * b;
    case SS__K_DIV: return a / b;
    case SS__K_MAX: return max_nan(a, b);
    case SS__K_MIN: return min_nan(a, b);
    case SS__K_POW: return pow(a, b);
    case SS__K_EQ: return a == b ? 1.0 : 0.0;
    case SS__K_GT: return a > b ? 1.0 : 0.0;
    case SS__K_GE: return a >= b ? 1.0 : 0.0;
    case SS__K_REM: return fmod(a, b);
    case SS__K_ATAN2: return atan2(a, b);
    default: return NAN;
    }
}

/* C's nextafter in dtype dt (a and b are values of dt). */
static double next_after(ss_dtype dt, double a, double b)
{
    if (dt == SS_F64)
        return nextafter(a, b);
    if (dt == SS_F32)
        return nextafterf((float)a, (float)b);
    if (a != a || b != b)
        return NAN;
    if (a == b)
        return b;
    bool bf = dt == SS_BF16;
    uint16_t h = bf ? ss__f32_to_bf16((float)a) : ss__f32_to_f16((float)a);
    if (a == 0) /* the smallest subnormal, with b's sign */
        h = b > 0 ? 1 : 0x8001;
    else if ((a < b) == (a > 0)) /* away from zero */
        h++;
    else
        h--;
    return bf ? ss__bf16_to_f32(h) : ss__f16_to_f32(h);
}

/* Integer unary op on a value of `bits` bits (sign-extended when signed). */
static uint64_t int_unary(int op, uint64_t x, int bits, bool sg, bool is_bool)
{
    int64_t xs = (int64_t)x;
    switch ((ss__k_unary_op)op) {
    case SS__K_NEG: return 0 - x;
    case SS__K_ABS: return sg && xs < 0 ? 0 - x : x;
    case SS__K_SIGN: return sg ? (uint64_t)(int64_t)(xs > 0 ? 1 : xs < 0 ? -1 : 0) : x != 0;
    case SS__K_SQUARE: return x * x;
    case SS__K_CONVERT: return x;
    case SS__K_NOT: return is_bool ? !x : ~x;
    case SS__K_POPCNT: {
        uint64_t v = bits >= 64 ? x : x & ((UINT64_C(1) << bits) - 1);
        uint64_t c = 0;
        for (; v; v &= v - 1)
            c++;
        return c;
    }
    case SS__K_CLZ: {
        uint64_t c = 0;
        for (int b = bits - 1; b >= 0 && !((x >> b) & 1); b--)
            c++;
        return c;
    }
    default: return 0;
    }
}

/* A shift amount as XLA reads it: the operand's value; outside [0, bits)
 * is "too far" (negative amounts included). */
static bool shift_ok(uint64_t b, int bits, bool sg)
{
    return !(sg && (int64_t)b < 0) && b < (uint64_t)bits;
}

static uint64_t int_binary(int op, uint64_t a, uint64_t b, int bits, bool sg, bool is_bool)
{
    int64_t as = (int64_t)a, bs = (int64_t)b;
    uint64_t mask = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    switch ((ss__k_binary_op)op) {
    case SS__K_ADD: return is_bool ? (a | b) : a + b;
    case SS__K_SUB: return a - b;
    case SS__K_MUL: return is_bool ? (a & b) : a * b;
    case SS__K_DIV:
        if (b == 0)
            return UINT64_MAX; /* -1: every bit set */
        if (sg)
            return bs == -1 ? 0 - a : (uint64_t)(as / bs);
        return a / b;
    case SS__K_REM:
        if (b == 0)
            return a;
        if (sg)
            return bs == -1 ? 0 : (uint64_t)(as % bs);
        return a % b;
    case SS__K_MAX: return sg ? (as > bs ? a : b) : (a > b ? a : b);
    case SS__K_MIN: return sg ? (as < bs ? a : b) : (a < b ? a : b);
    case SS__K_EQ: return a == b;
    case SS__K_GT: return sg ? as > bs : a > b;
    case SS__K_GE: return sg ? as >= bs : a >= b;
    case SS__K_AND: return a & b;
    case SS__K_OR: return a | b;
    case SS__K_XOR: return a ^ b;
    case SS__K_SHL: return shift_ok(b, bits, sg) ? a << b : 0;
    case SS__K_SHR_L: return shift_ok(b, bits, sg) ? (a & mask) >> b : 0;
    case SS__K_SHR_A: {
        int64_t v = (int64_t)wrap(a, bits, true);
        return (uint64_t)(v >> (shift_ok(b, bits, sg) ? (int)b : 63));
    }
    default: return 0;
    }
}

/* Sort key of a float under TOTALORDER (unsigned comparison of keys). */
static uint64_t total_key(double f)
{
    uint64_t u;
    memcpy(&u, &f, sizeof u);
    return (u >> 63) ? ~u : u | (UINT64_C(1) << 63);
}

static bool compare(int dir, int type, ss__k_scalar a, ss__k_scalar b)
{
    int c; /* -1, 0, 1; 2 for unordered */
    switch (type) {
    case SS_CMP_FLOAT:
        c = a.f != a.f || b.f != b.f ? 2 : a.f < b.f ? -1 : a.f > b.f ? 1 : 0;
        break;
    case SS_CMP_TOTALORDER: {
        uint64_t ka = total_key(a.f), kb = total_key(b.f);
        c = ka < kb ? -1 : ka > kb ? 1 : 0;
        break;
    }
    case SS_CMP_SIGNED:
        c = (int64_t)a.u < (int64_t)b.u ? -1 : (int64_t)a.u > (int64_t)b.u ? 1 : 0;
        break;
    default:
        c = a.u < b.u ? -1 : a.u > b.u ? 1 : 0;
        break;
    }
    switch (dir) {
    case SS_CMP_EQ: return c == 0;
    case SS_CMP_NE: return c != 0;
    case SS_CMP_LT: return c == -1;
    case SS_CMP_LE: return c == -1 || c == 0;
    case SS_CMP_GT: return c == 1;
    default: return c == 1 || c == 0;
    }
}

/* The dtype an op computes in (its domain): a unary op's operand's; a
 * binary op's result's (a weakly typed scalar operand converts to it);
 * compare's operands'; select's and clamp's result's; fma's operands'. */
ss_dtype ss__k_ew_domain(ss__k_ew_kind kind, int op, int nin, const ss__tensor in[],
                         const ss__tensor *out)
{
    (void)op, (void)nin;
    switch (kind) {
    case SS__K_EW_UNARY: return in[0].dtype;
    case SS__K_EW_BINARY: return out->dtype;
    case SS__K_EW_COMPARE: return in[0].dtype;
    case SS__K_EW_SELECT: return out->dtype;
    case SS__K_EW_FMA: return in[0].dtype;
    default: return in[1].dtype;
    }
}

/* a*b and c (form: ss__k_fma_form) with one rounding: f64 in double,
 * the other floats in f32 (exact there; the store rounds bf16/f16). */
static ss__k_scalar fused_multiply_add(int form, ss_dtype dom, const ss__k_scalar v[])
{
    double a = form == SS__K_FMA_REVSUB ? -v[0].f : v[0].f, b = v[1].f;
    double c = form == SS__K_FMA_SUB ? -v[2].f : v[2].f;
    ss__k_scalar r = {0};
    r.f = dom == SS_F64 ? fma(a, b, c) : (double)fmaf((float)a, (float)b, (float)c);
    return r;
}

ss__k_scalar ss__k_ew_scalar(ss__k_ew_kind kind, int op, ss_dtype dom, ss_dtype out,
                             const ss__k_scalar v[])
{
    ss__k_class cl = ss__k_class_of(dom);
    bool sg = cl == SS__K_CLASS_SIGNED, is_bool = cl == SS__K_CLASS_BOOL;
    int bits = ss__k_bits_of(dom);
    ss__k_scalar r = {0};
    switch (kind) {
    case SS__K_EW_UNARY:
        if (op == SS__K_CONVERT)
            return ss__k_ew_convert(v[0], dom, out);
        if (op == SS__K_IS_FINITE) {
            r.u = cl != SS__K_CLASS_FLOAT || isfinite(v[0].f);
            return r;
        }
        if (op == SS__K_ERF_INV) /* f32 for the narrow floats, as XLA */
            r.f = dom == SS_F64 ? ss__k_erf_inv_f64(v[0].f) : ss__k_erf_inv_f32((float)v[0].f);
        else if (cl == SS__K_CLASS_FLOAT)
            r.f = float_unary(op, v[0].f);
        else
            r.u = int_unary(op, v[0].u, bits, sg, is_bool);
        return r;
    case SS__K_EW_BINARY:
        if (op == SS__K_NEXT_AFTER)
            r.f = next_after(dom, v[0].f, v[1].f);
        else if (cl == SS__K_CLASS_FLOAT)
            r.f = float_binary(op, v[0].f, v[1].f);
        else
            r.u = int_binary(op, v[0].u, v[1].u, bits, sg, is_bool);
        return r;
    case SS__K_EW_COMPARE:
        r.u = compare(op / 4, op % 4, v[0], v[1]);
        return r;
    case SS__K_EW_SELECT:
        return v[0].u ? v[1] : v[2];
    case SS__K_EW_FMA:
        return fused_multiply_add(op, dom, v);
    default: /* clamp: v = lo, x, hi */
        if (cl == SS__K_CLASS_FLOAT) {
            r.f = min_nan(max_nan(v[1].f, v[0].f), v[2].f);
            return r;
        }
        r.u = int_binary(SS__K_MIN, int_binary(SS__K_MAX, v[1].u, v[0].u, bits, sg, is_bool),
                         v[2].u, bits, sg, is_bool);
        return r;
    }
}

/* --- checks ------------------------------------------------------------- */

static const char *kind_name(ss__k_ew_kind kind, int op)
{
    switch (kind) {
    case SS__K_EW_UNARY: return ss__k_unary_name((ss__k_unary_op)op);
    case SS__K_EW_BINARY: return ss__k_binary_name((ss__k_binary_op)op);
    case SS__K_EW_COMPARE: return "compare";
    case SS__K_EW_SELECT: return "select";
    case SS__K_EW_FMA: return "fma";
    default: return "clamp";
    }
}

bool ss__k_unary_has(ss__k_unary_op op, ss_dtype dt)
{
    ss__k_class c = ss__k_class_of(dt);
    if (c == SS__K_CLASS_NONE || (unsigned)op >= SS__K_UNARY_COUNT)
        return false;
    if (op == SS__K_CONVERT)
        return true;
    if (op == SS__K_BITCAST)
        return true;
    if (c == SS__K_CLASS_FLOAT)
        return op != SS__K_NOT && op != SS__K_POPCNT && op != SS__K_CLZ;
    if (c == SS__K_CLASS_BOOL)
        return op == SS__K_NOT || op == SS__K_IS_FINITE;
    return op == SS__K_NEG || (op == SS__K_ABS && c == SS__K_CLASS_SIGNED) ||
           op == SS__K_SIGN || op == SS__K_SQUARE || op == SS__K_NOT || op == SS__K_POPCNT ||
           op == SS__K_CLZ || op == SS__K_IS_FINITE;
}

bool ss__k_binary_has(ss__k_binary_op op, ss_dtype dt)
{
    ss__k_class c = ss__k_class_of(dt);
    if (c == SS__K_CLASS_NONE || (unsigned)op >= SS__K_BINARY_COUNT)
        return false;
    bool bitwise = op == SS__K_AND || op == SS__K_OR || op == SS__K_XOR;
    bool shift = op == SS__K_SHL || op == SS__K_SHR_A || op == SS__K_SHR_L;
    if (c == SS__K_CLASS_FLOAT)
        return !bitwise && !shift;
    if (c == SS__K_CLASS_BOOL)
        return bitwise || op == SS__K_ADD || op == SS__K_MUL || op == SS__K_MAX ||
               op == SS__K_MIN || op == SS__K_EQ || op == SS__K_GT || op == SS__K_GE;
    return op != SS__K_POW && op != SS__K_ATAN2 && op != SS__K_NEXT_AFTER;
}

static ss_status check_broadcast(const char *name, int nin, const ss__tensor in[],
                                 const ss__tensor *out)
{
    for (int k = 0; k < nin; k++) {
        ss_status st = ss__k_check(name, "operand", &in[k], NULL);
        if (st)
            return st;
        if (in[k].rank > out->rank)
            return ss__fail(SS_ERR_INVALID, "%s: operand %d shape %s does not broadcast to %s",
                            name, k, ss__k_shape_text(in[k].rank, in[k].shape).s,
                            ss__k_shape_text(out->rank, out->shape).s);
        for (int d = 0; d < in[k].rank; d++) {
            int64_t o = out->shape[d + out->rank - in[k].rank];
            if (in[k].shape[d] != 1 && in[k].shape[d] != o)
                return ss__fail(SS_ERR_INVALID,
                                "%s: operand %d shape %s does not broadcast to %s", name, k,
                                ss__k_shape_text(in[k].rank, in[k].shape).s,
                                ss__k_shape_text(out->rank, out->shape).s);
        }
    }
    return ss__k_check(name, "output", out, NULL);
}

ss_status ss__k_check_elementwise(ss__k_ew_kind kind, int op, int nin, const ss__tensor in[],
                                  const ss__tensor *out)
{
    int want = kind == SS__K_EW_UNARY ? 1 : kind <= SS__K_EW_COMPARE ? 2 : 3;
    if (nin != want || (kind == SS__K_EW_UNARY && (unsigned)op >= SS__K_UNARY_COUNT) ||
        (kind == SS__K_EW_BINARY && (unsigned)op >= SS__K_BINARY_COUNT) ||
        (kind == SS__K_EW_COMPARE && (op < 0 || op / 4 > SS_CMP_GE)) ||
        (kind == SS__K_EW_FMA && (unsigned)op >= SS__K_FMA_FORM_COUNT) ||
        (unsigned)kind > SS__K_EW_FMA)
        return ss__fail(SS_ERR_INVALID, "elementwise: unknown op %d/%d with %d operands",
                        (int)kind, op, nin);
    const char *name = kind_name(kind, op);
    ss_status st = check_broadcast(name, nin, in, out);
    if (st)
        return st;
    ss_dtype dom = ss__k_ew_domain(kind, op, nin, in, out);
    ss__k_class c = ss__k_class_of(dom), co = ss__k_class_of(out->dtype);
    for (int k = 0; k < nin; k++)
        if (ss__k_class_of(in[k].dtype) == SS__K_CLASS_NONE)
            return ss__fail(SS_ERR_UNSUPPORTED, "%s: operand %d has dtype %s", name, k,
                            ss_dtype_name(in[k].dtype));
    if (co == SS__K_CLASS_NONE)
        return ss__fail(SS_ERR_UNSUPPORTED, "%s: output has dtype %s", name,
                        ss_dtype_name(out->dtype));
    bool ok = true;
    switch (kind) {
    case SS__K_EW_UNARY:
        ok = ss__k_unary_has((ss__k_unary_op)op, dom) &&
             (op == SS__K_CONVERT ||
              (op == SS__K_BITCAST && ss_dtype_size(out->dtype) == ss_dtype_size(dom) &&
               ss__k_numel(&in[0]) == ss__k_numel(out)) ||
              (op == SS__K_IS_FINITE ? out->dtype == SS_BOOL
                                     : out->dtype == dom || (c == SS__K_CLASS_FLOAT &&
                                                             co == SS__K_CLASS_FLOAT)));
        break;
    case SS__K_EW_BINARY: ok = ss__k_binary_has((ss__k_binary_op)op, dom); break;
    case SS__K_EW_COMPARE: {
        int t = op % 4;
        ok = out->dtype == SS_BOOL && in[1].dtype == dom &&
             (t <= SS_CMP_TOTALORDER ? c == SS__K_CLASS_FLOAT
              : t == SS_CMP_SIGNED   ? c == SS__K_CLASS_SIGNED
                                     : c == SS__K_CLASS_UNSIGNED || c == SS__K_CLASS_BOOL);
        break;
    }
    case SS__K_EW_SELECT:
        ok = in[0].dtype == SS_BOOL && in[1].dtype == dom && in[2].dtype == dom;
        break;
    case SS__K_EW_FMA:
        ok = c == SS__K_CLASS_FLOAT && in[1].dtype == dom && in[2].dtype == dom &&
             out->dtype == dom;
        break;
    default: ok = in[0].dtype == dom && in[2].dtype == dom && out->dtype == dom; break;
    }
    if (!ok)
        return ss__fail(SS_ERR_UNSUPPORTED, "%s: not defined on %s%s%s -> %s", name,
                        ss_dtype_name(in[0].dtype), nin > 1 ? ", " : "",
                        nin > 1 ? ss_dtype_name(in[1].dtype) : "", ss_dtype_name(out->dtype));
    return SS_OK;
}

/* --- the strided loop --------------------------------------------------- */

/* Integer add, sub, mul, and, or, xor, shift_left, shift_right_logical,
 * max and min (the ops of a threefry hash, PRNG keys, counters) on one
 * integer dtype, operands of the result's shape, in typed loops: the
 * semantics of int_binary() (wrap-around; a shift amount outside [0,
 * bits) gives 0), about ten times faster than element by element. T is
 * the C type, W an unsigned type at least as wide as int (no promotion to
 * a signed int, whose overflow is undefined). */
#define INT_BINARY_LOOPS(T, W, BITS, MASK)                                                 \
    do {                                                                               \
        const T *a = x->data, *b = y->data;                                            \
        T *o = out->data;                                                              \
        switch (op) {                                                                  \
        case SS__K_ADD: LOOP((T)((W)a[i] + (W)b[i]));                                  \
        case SS__K_SUB: LOOP((T)((W)a[i] - (W)b[i]));                                  \
        case SS__K_MUL: LOOP((T)((W)a[i] * (W)b[i]));                                  \
        case SS__K_AND: LOOP((T)(a[i] & b[i]));                                        \
        case SS__K_OR: LOOP((T)(a[i] | b[i]));                                         \
        case SS__K_XOR: LOOP((T)(a[i] ^ b[i]));                                        \
        case SS__K_MAX: LOOP((T)(a[i] > b[i] ? a[i] : b[i]));                            \
        case SS__K_MIN: LOOP((T)(a[i] < b[i] ? a[i] : b[i]));                            \
        case SS__K_SHL:                                                                \
            LOOP((T)(shift_in((int64_t)b[i], BITS) ? (W)a[i] << b[i] : 0u));          \
        case SS__K_SHR_L:                                                              \
            LOOP((T)(shift_in((int64_t)b[i], BITS) ? ((W)a[i] & (MASK)) >> b[i] : 0u)); \
        default: return false;                                                         \
        }                                                                              \
    } while (0)

/* A shift amount v (the amount's value, as int64_t) inside [0, bits). */
static inline bool shift_in(int64_t v, int bits)
{
    return v >= 0 && v < bits;
}

static bool fast_int_binary(int op, const ss__tensor *x, const ss__tensor *y, ss__tensor *out,
                            int64_t n)
{
#define LOOP(E)                                                                        \
    for (int64_t i = 0; i < n; i++)                                                    \
        o[i] = (E);                                                                    \
    return true
    switch (out->dtype) {
    case SS_I8: INT_BINARY_LOOPS(int8_t, uint32_t, 8, 0xffu); break;
    case SS_U8: INT_BINARY_LOOPS(uint8_t, uint32_t, 8, 0xffu); break;
    case SS_I16: INT_BINARY_LOOPS(int16_t, uint32_t, 16, 0xffffu); break;
    case SS_U16: INT_BINARY_LOOPS(uint16_t, uint32_t, 16, 0xffffu); break;
    case SS_I32: INT_BINARY_LOOPS(int32_t, uint32_t, 32, 0xffffffffu); break;
    case SS_U32: INT_BINARY_LOOPS(uint32_t, uint32_t, 32, 0xffffffffu); break;
    case SS_I64: INT_BINARY_LOOPS(int64_t, uint64_t, 64, UINT64_MAX); break;
    case SS_U64: INT_BINARY_LOOPS(uint64_t, uint64_t, 64, UINT64_MAX); break;
    default: break;
    }
    return false;
#undef LOOP
}
#undef INT_BINARY_LOOPS

/* convert between i32, bool and f32 (step counters, masks), with
 * ss__k_ew_convert's semantics: i32 -> f32 rounds once, f32 -> i32
 * truncates and saturates, NaN -> 0, -> bool is x != 0 (NaN true). */
static bool fast_convert(const ss__tensor *x, ss__tensor *out, int64_t n)
{
    ss_dtype f = x->dtype, t = out->dtype;
    if (f == SS_I32 && t == SS_F32) {
        const int32_t *a = x->data;
        float *y = out->data;
        for (int64_t i = 0; i < n; i++)
            y[i] = (float)a[i];
        return true;
    }
    if (f == SS_BOOL && t == SS_F32) {
        const unsigned char *a = x->data;
        float *y = out->data;
        for (int64_t i = 0; i < n; i++)
            y[i] = a[i] ? 1.0f : 0.0f;
        return true;
    }
    if (f == SS_F32 && t == SS_I32) {
        const float *a = x->data;
        int32_t *y = out->data;
        for (int64_t i = 0; i < n; i++) {
            float v = a[i];
            y[i] = v != v ? 0 : v >= 2147483648.0f ? INT32_MAX
                   : v <= -2147483648.0f ? INT32_MIN : (int32_t)v;
        }
        return true;
    }
    if (f == SS_F32 && t == SS_BOOL) {
        const float *a = x->data;
        unsigned char *y = out->data;
        for (int64_t i = 0; i < n; i++)
            y[i] = a[i] != 0.0f;
        return true;
    }
    return false;
}

/* The hot cases of a train step (relu's gradient: compare GT FLOAT on f32,
 * then select) on operands of the result's shape, in tight loops with the
 * semantics above. False when the case is not one of them. */
static bool fast_case(ss__k_ew_kind kind, int op, int nin, const ss__tensor in[],
                      ss__tensor *out, int64_t n)
{
    for (int k = 0; k < nin; k++) {
        if (in[k].rank != out->rank)
            return false;
        for (int d = 0; d < out->rank; d++)
            if (in[k].shape[d] != out->shape[d])
                return false;
    }
    if (kind == SS__K_EW_SELECT) {
        const unsigned char *c = in[0].data;
/* Branch-free (a mask of the predicate picks the bits) so that it
 * vectorises: attention's causal mask is a select on every score. */
#define SEL(T)                                                                  \
    do {                                                                        \
        const T *t = in[1].data, *f = in[2].data;                               \
        T *y = out->data;                                                       \
        for (int64_t i = 0; i < n; i++) {                                       \
            T m = (T)((T)0 - (T)(c[i] != 0));                                   \
            y[i] = (T)((t[i] & m) | (f[i] & (T)~m));                            \
        }                                                                       \
    } while (0)
        switch (ss_dtype_size(out->dtype)) {
        case 1: SEL(uint8_t); return true;
        case 2: SEL(uint16_t); return true;
        case 4: SEL(uint32_t); return true;
        case 8: SEL(uint64_t); return true;
        default: return false;
        }
#undef SEL
    }
    if (kind == SS__K_EW_BINARY && nin == 2 && in[0].dtype == out->dtype &&
        in[1].dtype == out->dtype)
        return fast_int_binary(op, &in[0], &in[1], out, n);
    if (kind == SS__K_EW_UNARY && op == SS__K_CONVERT)
        return fast_convert(&in[0], out, n);
    if (kind == SS__K_EW_COMPARE && op % 4 == SS_CMP_SIGNED && in[0].dtype == SS_I32) {
        const int32_t *a = in[0].data, *b = in[1].data;
        unsigned char *y = out->data;
#define CMP(E)                                                                  \
    for (int64_t i = 0; i < n; i++)                                             \
        y[i] = (E);                                                             \
    return true
        switch (op / 4) {
        case SS_CMP_EQ: CMP(a[i] == b[i]);
        case SS_CMP_NE: CMP(a[i] != b[i]);
        case SS_CMP_LT: CMP(a[i] < b[i]);
        case SS_CMP_LE: CMP(a[i] <= b[i]);
        case SS_CMP_GT: CMP(a[i] > b[i]);
        default: CMP(a[i] >= b[i]);
        }
#undef CMP
    }
    if (kind == SS__K_EW_COMPARE && op % 4 == SS_CMP_FLOAT && in[0].dtype == SS_F32) {
        const float *a = in[0].data, *b = in[1].data;
        unsigned char *y = out->data;
#define CMP(E)                                                                      for (int64_t i = 0; i < n; i++)                                                     y[i] = (E);                                                                 return true
        switch (op / 4) {
        case SS_CMP_EQ: CMP(a[i] == b[i]);
        case SS_CMP_NE: CMP(!(a[i] == b[i]));
        case SS_CMP_LT: CMP(a[i] < b[i]);
        case SS_CMP_LE: CMP(a[i] <= b[i]);
        case SS_CMP_GT: CMP(a[i] > b[i]);
        default: CMP(a[i] >= b[i]);
        }
#undef CMP
    }
    return false;
}

ss_status ss__k_elementwise(ss__k_ew_kind kind, int op, int nin, const ss__tensor in[],
                            ss__tensor *out)
{
    ss_status st = ss__k_check_elementwise(kind, op, nin, in, out);
    if (st)
        return st;
    int64_t n = ss__k_numel(out);
    if (n == 0 || fast_case(kind, op, nin, in, out, n))
        return SS_OK;
    if (kind == SS__K_EW_UNARY && op == SS__K_BITCAST) { /* same shape, same bytes */
        if (in[0].data != out->data)
            memmove(out->data, in[0].data, (size_t)n * ss_dtype_size(out->dtype));
        return SS_OK;
    }
    ss_dtype dom = ss__k_ew_domain(kind, op, nin, in, out);
    /* operands convert to the domain, except select's predicate and
     * the compare's and convert's own operands (already the domain) */
    ss_dtype as[3];
    for (int k = 0; k < nin; k++)
        as[k] = kind == SS__K_EW_SELECT && k == 0 ? SS_BOOL : dom;

    int rank = out->rank;
    int64_t shape[SS_MAX_RANK], strides[4][SS_MAX_RANK], s[SS_MAX_RANK];
    memcpy(shape, out->shape, sizeof shape);
    ss__k_strides(rank, out->shape, strides[0]);
    for (int k = 0; k < nin; k++) {
        ss__k_strides(in[k].rank, in[k].shape, s);
        for (int d = 0; d < rank; d++) {
            int dk = d - (rank - in[k].rank);
            strides[1 + k][d] = dk >= 0 && in[k].shape[dk] != 1 ? s[dk] : 0;
        }
    }
    int r = ss__k_coalesce(rank, shape, 1 + nin, strides);
    int64_t inner = shape[r - 1], idx[SS_MAX_RANK] = {0}, off[4] = {0, 0, 0, 0};
    ss_dtype res = kind == SS__K_EW_COMPARE ||
                   (kind == SS__K_EW_UNARY && (op == SS__K_IS_FINITE || op == SS__K_CONVERT))
                       ? out->dtype
                       : dom;
    do {
        for (int64_t i = 0; i < inner; i++) {
            ss__k_scalar v[3];
            for (int k = 0; k < nin; k++) {
                int64_t at = off[1 + k] + i * strides[1 + k][r - 1];
                v[k] = ss__k_ew_load(in[k].dtype, in[k].data, at);
                if (in[k].dtype != as[k])
                    v[k] = ss__k_ew_convert(v[k], in[k].dtype, as[k]);
            }
            ss__k_scalar y = ss__k_ew_scalar(kind, op, dom, out->dtype, v);
            if (res != out->dtype)
                y = ss__k_ew_convert(y, res, out->dtype);
            ss__k_ew_store(out->dtype, out->data, off[0] + i, y);
        }
    } while (ss__k_step(r - 1, shape, idx, 1 + nin, strides, off));
    return SS_OK;
}

int64_t ss__k_flops_elementwise(ss__k_ew_kind kind, int op, int64_t n)
{
    (void)op;
    return n <= 0 ? 0 : kind == SS__K_EW_FMA ? 2 * n : n;
}
