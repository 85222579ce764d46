/*
 * test_elementwise_jax.c — every elementwise op on edge values of every
 * dtype against JAX's results on XLA's CPU backend
 * (tests/data/jax_elementwise/vectors.json, written by
 * tests/jax/make_elementwise_vectors.py: see it for the cases and the
 * tolerances). Each case is one op built through the public builders and
 * computed three ways: the naive reference evaluation, the single-device
 * run (fast kernels) and the partitioned run on two virtual devices (the
 * operands split along their one dim when it divides).
 *
 * Integers, bool and the exact float ops must match bit for bit; the
 * transcendental float ops within the case's "ulps" (XLA CPU's
 * approximations are not libm's). Any NaN matches any NaN.
 */
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct arr {
    ss_dtype dtype;
    int64_t n;
    unsigned char *data;
} arr;

static unsigned char *unhex(const char *hex, size_t *len)
{
    size_t n = strlen(hex) / 2;
    unsigned char *b = malloc(n ? n : 1);
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        cr_assert_eq(sscanf(hex + 2 * i, "%2x", &v), 1);
        b[i] = (unsigned char)v;
    }
    *len = n;
    return b;
}

static arr input_of(const cJSON *inputs, const char *name)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(inputs, name);
    cr_assert_not_null(j, "no input %s", name);
    arr a;
    TS_OK(ss_dtype_parse(cJSON_GetObjectItemCaseSensitive(j, "dtype")->valuestring, &a.dtype));
    a.n = (int64_t)cJSON_GetObjectItemCaseSensitive(j, "n")->valuedouble;
    size_t len;
    a.data = unhex(cJSON_GetObjectItemCaseSensitive(j, "hex")->valuestring, &len);
    cr_assert_eq(len, (size_t)a.n * ss_dtype_size(a.dtype));
    return a;
}

/* The builders' spellings, the test's own table (not the library's). */
static const struct {
    const char *name;
    int op;
} unary_ops[] = {
    {"neg", SS_NEG}, {"exp", SS_EXP}, {"log", SS_LOG}, {"tanh", SS_TANH}, {"sqrt", SS_SQRT},
    {"rsqrt", SS_RSQRT}, {"square", SS_SQUARE}, {"abs", SS_ABS}, {"sign", SS_SIGN},
    {"floor", SS_FLOOR}, {"ceil", SS_CEIL}, {"round_nearest_even", SS_ROUND_EVEN},
    {"round_nearest_afz", SS_ROUND_AFZ}, {"sine", SS_SIN}, {"cosine", SS_COS}, {"tan", SS_TAN},
    {"erf", SS_ERF}, {"exponential_minus_one", SS_EXPM1}, {"log_plus_one", SS_LOG1P},
    {"logistic", SS_LOGISTIC}, {"cbrt", SS_CBRT}, {"is_finite", SS_IS_FINITE},
    {"not", SS_NOT}, {"popcnt", SS_POPCNT}, {"erf_inv", SS_ERF_INV},
    {"count_leading_zeros", SS_CLZ},
}, binary_ops[] = {
    {"add", SS_ADD}, {"sub", SS_SUB}, {"mul", SS_MUL}, {"div", SS_DIV}, {"max", SS_MAX},
    {"min", SS_MIN}, {"pow", SS_POW}, {"remainder", SS_REM}, {"and", SS_AND}, {"or", SS_OR},
    {"xor", SS_XOR}, {"shift_left", SS_SHIFT_LEFT},
    {"shift_right_arithmetic", SS_SHIFT_RIGHT_ARITHMETIC},
    {"shift_right_logical", SS_SHIFT_RIGHT_LOGICAL}, {"atan2", SS_ATAN2},
    {"next_after", SS_NEXT_AFTER},
};

static int lookup(const char *name, bool unary)
{
    size_t n = unary ? sizeof unary_ops / sizeof unary_ops[0]
                     : sizeof binary_ops / sizeof binary_ops[0];
    for (size_t k = 0; k < n; k++) {
        const char *s = unary ? unary_ops[k].name : binary_ops[k].name;
        if (strcmp(s, name) == 0)
            return unary ? unary_ops[k].op : binary_ops[k].op;
    }
    cr_assert_fail("unknown op %s", name);
    return -1;
}

static int index_of(const char *const names[], int n, const char *s)
{
    for (int k = 0; k < n; k++)
        if (strcmp(names[k], s) == 0)
            return k;
    cr_assert_fail("unknown name %s", s);
    return -1;
}

/* The op of case c on program inputs xs[]: its result. */
static ss_value build_op(ss_program *p, const cJSON *c, const ss_value xs[])
{
    const char *kind = cJSON_GetObjectItemCaseSensitive(c, "kind")->valuestring;
    const char *op = cJSON_GetObjectItemCaseSensitive(c, "op")->valuestring;
    ss_value y = -1;
    if (strcmp(kind, "unary") == 0) {
        TS_OK(ss_unary(p, (ss_unary_op)lookup(op, true), xs[0], &y));
    } else if (strcmp(kind, "binary") == 0) {
        TS_OK(ss_binary(p, (ss_binary_op)lookup(op, false), xs[0], xs[1], &y));
    } else if (strcmp(kind, "compare") == 0) {
        static const char *const dirs[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
        static const char *const types[] = {"FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"};
        int d = index_of(dirs, 6, cJSON_GetObjectItemCaseSensitive(c, "dir")->valuestring);
        int t = index_of(types, 4, cJSON_GetObjectItemCaseSensitive(c, "type")->valuestring);
        TS_OK(ss_compare(p, (ss_cmp_dir)d, (ss_cmp_type)t, xs[0], xs[1], &y));
    } else if (strcmp(kind, "select") == 0) {
        TS_OK(ss_select(p, xs[0], xs[1], xs[2], &y));
    } else if (strcmp(kind, "clamp") == 0) {
        TS_OK(ss_clamp(p, xs[0], xs[1], xs[2], &y));
    } else if (strcmp(kind, "convert") == 0) {
        ss_dtype to;
        TS_OK(ss_dtype_parse(cJSON_GetObjectItemCaseSensitive(c, "to")->valuestring, &to));
        TS_OK(ss_convert(p, xs[0], to, &y));
    } else if (strcmp(kind, "bitcast") == 0) {
        ss_dtype to;
        TS_OK(ss_dtype_parse(cJSON_GetObjectItemCaseSensitive(c, "to")->valuestring, &to));
        TS_OK(ss_bitcast_convert(p, xs[0], to, &y));
    } else {
        cr_assert_fail("unknown kind %s", kind);
    }
    return y;
}

/* Element i as an integer that orders floats by value (sign-magnitude
 * folded), so |a - b| counts the representable values between them. */
static int64_t ordered(ss_dtype dt, const unsigned char *d, int64_t i, bool *nan)
{
    size_t es = ss_dtype_size(dt);
    uint64_t u = 0;
    memcpy(&u, d + (size_t)i * es, es);
    int bits = (int)es * 8;
    uint64_t sign = UINT64_C(1) << (bits - 1), mag = u & (sign - 1);
    int mant = dt == SS_F32 ? 23 : dt == SS_F64 ? 52 : dt == SS_BF16 ? 7 : 10;
    uint64_t exp_all = (sign - 1) & ~((UINT64_C(1) << mant) - 1);
    *nan = (mag & exp_all) == exp_all && (mag & ((UINT64_C(1) << mant) - 1));
    return (u & sign) ? -(int64_t)mag : (int64_t)mag;
}

/* A nonzero magnitude (as ordered() gives it) below the smallest normal. */
static bool subnormal(ss_dtype dt, int64_t mag)
{
    int mant = dt == SS_F32 ? 23 : dt == SS_F64 ? 52 : dt == SS_BF16 ? 7 : 10;
    return mag > 0 && mag < (INT64_C(1) << mant);
}

static bool is_float(ss_dtype dt)
{
    return dt == SS_F32 || dt == SS_BF16 || dt == SS_F16 || dt == SS_F64;
}

/* got equals want, or is within `ulps` for floats; message names the case. */
static void compare(const char *what, const cJSON *c, ss_dtype dt, int64_t n,
                    const unsigned char *got, const unsigned char *want, int64_t ulps,
                    const arr ins[], int nin)
{
    size_t es = ss_dtype_size(dt);
    for (int64_t i = 0; i < n; i++) {
        bool ok;
        if (is_float(dt)) {
            bool gn, wn;
            int64_t g = ordered(dt, got, i, &gn), w = ordered(dt, want, i, &wn);
            ok = gn || wn ? gn && wn : llabs(g - w) <= ulps;
            /* XLA's CPU runtime flushes subnormal results to zero (FTZ);
             * shardsim keeps them (README's table of differences). */
            if (!ok && w == 0 && !gn && subnormal(dt, llabs(g)))
                ok = true;
        } else {
            ok = memcmp(got + (size_t)i * es, want + (size_t)i * es, es) == 0;
        }
        if (ok)
            continue;
        char ops[256] = "";
        size_t at = 0;
        for (int k = 0; k < nin && at < sizeof ops - 40; k++) {
            size_t ies = ss_dtype_size(ins[k].dtype);
            uint64_t u = 0;
            memcpy(&u, ins[k].data + (size_t)i * ies, ies);
            at += (size_t)snprintf(ops + at, sizeof ops - at, " %s:0x%llx",
                                   ss_dtype_name(ins[k].dtype), (unsigned long long)u);
        }
        uint64_t gu = 0, wu = 0;
        memcpy(&gu, got + (size_t)i * es, es);
        memcpy(&wu, want + (size_t)i * es, es);
        const cJSON *dir = cJSON_GetObjectItemCaseSensitive(c, "dir");
        const cJSON *to = cJSON_GetObjectItemCaseSensitive(c, "to");
        cr_assert_fail("%s: %s%s%s%s%s element %lld (operands%s): got 0x%llx, JAX 0x%llx "
                       "(%s, %lld ulps allowed)",
                       what, cJSON_GetObjectItemCaseSensitive(c, "op")->valuestring,
                       dir ? " " : "", dir ? dir->valuestring : "", to ? " to " : "",
                       to ? to->valuestring : "", (long long)i, ops,
                       (unsigned long long)gu, (unsigned long long)wu, ss_dtype_name(dt),
                       (long long)ulps);
    }
}

static void run_case(const ss_mesh *m, ss_context *ctx, const cJSON *inputs, const cJSON *c)
{
    const cJSON *in = cJSON_GetObjectItemCaseSensitive(c, "in");
    int nin = cJSON_GetArraySize(in);
    arr ins[3];
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value xs[3];
    ss_spec split = ts_spec("P('x')");
    for (int k = 0; k < nin; k++) {
        ins[k] = input_of(inputs, cJSON_GetArrayItem(in, k)->valuestring);
        char name[16];
        snprintf(name, sizeof name, "x%d", k);
        TS_OK(ss_input(p, name, ins[k].dtype, 1, (int64_t[]){ins[k].n},
                       ins[k].n % 2 == 0 ? &split : NULL, &xs[k]));
    }
    ss_value y = build_op(p, c, xs);
    TS_OK(ss_output(p, y, NULL));
    ss_dtype dt;
    int rank;
    int64_t shape[SS_MAX_RANK];
    TS_OK(ss_value_shape(p, y, &dt, &rank, shape));
    cr_assert_eq(rank, 1);
    int64_t n = shape[0];
    size_t want_len;
    unsigned char *want = unhex(cJSON_GetObjectItemCaseSensitive(c, "out")->valuestring, &want_len);
    cr_assert_eq(want_len, (size_t)n * ss_dtype_size(dt), "%s: result dtype %s",
                 cJSON_GetObjectItemCaseSensitive(c, "op")->valuestring, ss_dtype_name(dt));
    int64_t ulps = (int64_t)cJSON_GetObjectItemCaseSensitive(c, "ulps")->valuedouble;
    const void *hin[3] = {ins[0].data, nin > 1 ? ins[1].data : NULL, nin > 2 ? ins[2].data : NULL};
    unsigned char *got = malloc(want_len + 1);
    void *outs[1] = {got};

    TS_OK(ss_program_eval(p, hin, outs));
    compare("reference", c, dt, n, got, want, ulps, ins, nin);
    ss_eval_options fast = {.fast_kernels = 1};
    memset(got, 0xa5, want_len);
    TS_OK(ss_program_eval_with(p, &fast, hin, outs));
    compare("single-device", c, dt, n, got, want, ulps, ins, nin);
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    const void *ein[3];
    for (int i = 0; i < ss_executable_input_count(e); i++) {
        ss_value v;
        TS_OK(ss_executable_input(e, i, &v));
        ein[i] = hin[v]; /* inputs are values 0..nin-1 */
    }
    memset(got, 0xa5, want_len);
    TS_OK(ss_executable_run(e, ctx, ein, outs));
    compare("2 devices", c, dt, n, got, want, ulps, ins, nin);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    free(got);
    free(want);
    for (int k = 0; k < nin; k++)
        free(ins[k].data);
}

/* Runs every case whose operand dtype is `dtype` (all when NULL). */
static void run_all(const char *only_kind)
{
    cJSON *doc = ts_load_json("jax_elementwise/vectors.json");
    const cJSON *inputs = cJSON_GetObjectItemCaseSensitive(doc, "inputs");
    const cJSON *cases = cJSON_GetObjectItemCaseSensitive(doc, "cases");
    ss_mesh *m = ts_make_mesh("x=2", 2);
    ss_context_options co = {.ndevices = 2, .device_memory = (size_t)16 << 20, .timeout = 30};
    ss_context *ctx;
    TS_OK(ss_context_create(&co, &ctx));
    int ran = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cases)
    {
        const char *kind = cJSON_GetObjectItemCaseSensitive(c, "kind")->valuestring;
        if (strcmp(kind, only_kind) != 0 || cJSON_GetObjectItemCaseSensitive(c, "rejected"))
            continue;
        run_case(m, ctx, inputs, c);
        ran++;
    }
    cr_assert_gt(ran, 0, "no %s cases", only_kind);
    ss_context_destroy(ctx);
    ss_mesh_destroy(m);
    cJSON_Delete(doc);
}

Test(elementwise_jax, unary, .timeout = 120) { run_all("unary"); }
Test(elementwise_jax, binary, .timeout = 120) { run_all("binary"); }
Test(elementwise_jax, compare, .timeout = 120) { run_all("compare"); }
Test(elementwise_jax, select_and_clamp, .timeout = 120)
{
    run_all("select");
    run_all("clamp");
}
Test(elementwise_jax, convert, .timeout = 120) { run_all("convert"); }
Test(elementwise_jax, bitcast_convert, .timeout = 120) { run_all("bitcast"); }

/* What JAX's lax refuses for a dtype, the builders refuse too, except add
 * and mul on bool, which StableHLO defines (logical or, and) and JAX's
 * lax does not expose. */
Test(elementwise_jax, ops_jax_rejects_are_refused)
{
    cJSON *doc = ts_load_json("jax_elementwise/vectors.json");
    const cJSON *cases = cJSON_GetObjectItemCaseSensitive(doc, "cases");
    ss_mesh *m = ts_make_mesh("x=2", 2);
    int checked = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cases)
    {
        if (!cJSON_GetObjectItemCaseSensitive(c, "rejected"))
            continue;
        const char *op = cJSON_GetObjectItemCaseSensitive(c, "op")->valuestring;
        const char *kind = cJSON_GetObjectItemCaseSensitive(c, "kind")->valuestring;
        ss_dtype dt;
        TS_OK(ss_dtype_parse(cJSON_GetObjectItemCaseSensitive(c, "operand_dtype")->valuestring,
                             &dt));
        if (dt == SS_BOOL && (strcmp(op, "add") == 0 || strcmp(op, "mul") == 0))
            continue;
        ss_program *p;
        TS_OK(ss_program_create(m, &p));
        ss_value x, y;
        TS_OK(ss_input(p, "x", dt, 1, (int64_t[]){4}, NULL, &x));
        ss_status st = strcmp(kind, "unary") == 0
                           ? ss_unary(p, (ss_unary_op)lookup(op, true), x, &y)
                           : ss_binary(p, (ss_binary_op)lookup(op, false), x, x, &y);
        cr_assert_eq(st, SS_ERR_UNSUPPORTED, "%s on %s: status %d (JAX: %s)", op,
                     ss_dtype_name(dt), st,
                     cJSON_GetObjectItemCaseSensitive(c, "rejected")->valuestring);
        cr_assert_eq(ss_program_value_count(p), 1, "a refused op leaves the program as it was");
        ss_program_destroy(p);
        checked++;
    }
    cr_assert_gt(checked, 0);
    ss_mesh_destroy(m);
    cJSON_Delete(doc);
}

/* lax.clamp's bounds as Python scalars (jnp.clip's form) take x's dtype:
 * bf16(0.1) = 0.10009765625 and bf16(0.7) = 0.69921875 (ml_dtypes'
 * rounding of the decimals, to nearest even). */
Test(elementwise_jax, clamp_takes_python_scalar_bounds_in_the_operand_dtype)
{
    ss_mesh *m = ts_make_mesh("x=2", 2);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x, lo, hi, y;
    TS_OK(ss_input(p, "x", SS_BF16, 1, (int64_t[]){4}, NULL, &x));
    TS_OK(ss_constant(p, 0.1, &lo));
    TS_OK(ss_constant(p, 0.7, &hi));
    TS_OK(ss_clamp(p, lo, x, hi, &y));
    TS_OK(ss_output(p, y, NULL));
    ss_dtype dt;
    TS_OK(ss_value_shape(p, y, &dt, NULL, (int64_t[SS_MAX_RANK]){0}));
    cr_assert_eq(dt, SS_BF16);
    /* bf16 bits of 0.0, 0.5, 1.0, -2.0 */
    uint16_t in[4] = {0x0000, 0x3f00, 0x3f80, 0xc000}, out[4];
    const void *ins[1] = {in};
    void *outs[1] = {out};
    TS_OK(ss_program_eval(p, ins, outs));
    const uint16_t want[4] = {0x3dcd, 0x3f00, 0x3f33, 0x3dcd}; /* 0.10009765625, 0.5, 0.69921875 */
    for (int i = 0; i < 4; i++)
        cr_assert_eq(out[i], want[i], "element %d: 0x%04x, want 0x%04x", i, out[i], want[i]);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* Bad operands: one line naming the op and what is wrong, SS_ERR_INVALID
 * or SS_ERR_UNSUPPORTED, and the program left as it was. */
Test(elementwise_jax, bad_operands_are_one_line_errors)
{
    ss_mesh *m = ts_make_mesh("x=2", 2);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value f, g, i, b, y;
    TS_OK(ss_input(p, "f", SS_F32, 2, (int64_t[]){2, 3}, NULL, &f));
    TS_OK(ss_input(p, "g", SS_F32, 1, (int64_t[]){4}, NULL, &g));
    TS_OK(ss_input(p, "i", SS_I32, 2, (int64_t[]){2, 3}, NULL, &i));
    TS_OK(ss_input(p, "b", SS_BOOL, 2, (int64_t[]){2, 3}, NULL, &b));
    int n0 = ss_program_value_count(p);
    static const struct {
        ss_status st;
        const char *msg;
    } want[] = {
        {SS_ERR_UNSUPPORTED, "compare: comparison_direction LT, compare_type SIGNED is not "
                             "defined on f32 (FLOAT or TOTALORDER for floats, SIGNED for signed "
                             "integers, UNSIGNED for unsigned ones and bool)"},
        {SS_ERR_INVALID, "compare: operands have different dtypes (f32[2,3] and i32[2,3])"},
        {SS_ERR_INVALID, "select: pred has dtype f32 (expected bool)"},
        {SS_ERR_INVALID, "select: on_true f32[2,3] and on_false i32[2,3] must have one shape "
                         "and dtype"},
        {SS_ERR_INVALID, "select: pred bool[2,3] must be rank 0 or of the shape of f32[4]"},
        {SS_ERR_UNSUPPORTED, "shift_left: not defined on f32"},
        {SS_ERR_UNSUPPORTED, "exp: not defined on i32"},
        {SS_ERR_UNSUPPORTED, "clamp: not defined on bool"},
        {SS_ERR_INVALID, "clamp: min f32, operand i32 and max i32 must have one dtype"},
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        ss_status st = k == 0   ? ss_compare(p, SS_CMP_LT, SS_CMP_SIGNED, f, f, &y)
                       : k == 1 ? ss_compare(p, SS_CMP_LT, SS_CMP_FLOAT, f, i, &y)
                       : k == 2 ? ss_select(p, f, f, f, &y)
                       : k == 3 ? ss_select(p, b, f, i, &y)
                       : k == 4 ? ss_select(p, b, g, g, &y)
                       : k == 5 ? ss_binary(p, SS_SHIFT_LEFT, f, f, &y)
                       : k == 6 ? ss_unary(p, SS_EXP, i, &y)
                       : k == 7 ? ss_clamp(p, b, b, b, &y)
                                : ss_clamp(p, f, i, i, &y);
        cr_assert_eq(st, want[k].st, "case %zu: status %d (%s)", k, st, ss_error_message());
        cr_assert(strcmp(ss_error_message(), want[k].msg) == 0, "case %zu: \"%s\", want \"%s\"",
                  k, ss_error_message(), want[k].msg);
        cr_assert_eq(ss_program_value_count(p), n0, "case %zu left values behind", k);
    }
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}
