/*
 * test_reduce_jax.c — reductions on integer, bool and f64 arrays (sum,
 * prod, max, min, and, or over every set of axes), float products, and
 * argmax/argmin, against JAX's results on XLA's CPU backend
 * (tests/data/jax_reduce/vectors.json, written by
 * tests/jax/make_reduce_vectors.py). Each case is built through the public
 * builders and computed four ways: the naive reference evaluation, the
 * single-device run (fast kernels), and partitioned runs on 2 devices
 * (P('x')) and on 8 (a 2x4 mesh, P('x', 'y')), so reduced dims are often
 * sharded (partial sums and all-reduces of integers). All must equal JAX's
 * bit for bit, except that any NaN matches any NaN.
 */
#include "support.h"

#include <stdlib.h>
#include <string.h>

typedef struct arr {
    ss_dtype dtype;
    int rank;
    int64_t shape[SS_MAX_RANK];
    size_t bytes;
    unsigned char *data;
} arr;

static arr arr_from(const cJSON *j)
{
    arr a;
    memset(&a, 0, sizeof a);
    TS_OK(ss_dtype_parse(cJSON_GetObjectItemCaseSensitive(j, "dtype")->valuestring, &a.dtype));
    a.rank = ts_ints(cJSON_GetObjectItemCaseSensitive(j, "shape"), a.shape, SS_MAX_RANK);
    const char *hex = cJSON_GetObjectItemCaseSensitive(j, "hex")->valuestring;
    a.bytes = strlen(hex) / 2;
    size_t want = ss_dtype_size(a.dtype);
    for (int d = 0; d < a.rank; d++)
        want *= (size_t)a.shape[d];
    cr_assert_eq(a.bytes, want, "%zu bytes for the shape", a.bytes);
    a.data = malloc(a.bytes ? a.bytes : 1);
    for (size_t i = 0; i < a.bytes; i++) {
        unsigned v;
        cr_assert_eq(sscanf(hex + 2 * i, "%2x", &v), 1);
        a.data[i] = (unsigned char)v;
    }
    return a;
}

static const ss_spec *split_of(int ndev, int rank, const int64_t shape[], ss_spec *buf)
{
    if (ndev == 2 && rank >= 1 && shape[0] % 2 == 0) {
        *buf = ts_spec("P('x')");
        return buf;
    }
    if (ndev == 8 && rank >= 2 && shape[0] % 2 == 0 && shape[1] % 4 == 0) {
        *buf = ts_spec("P('x', 'y')");
        return buf;
    }
    if (ndev == 8 && rank == 1 && shape[0] % 2 == 0) {
        *buf = ts_spec("P('x')");
        return buf;
    }
    return NULL;
}

/* The builders' spellings, the test's own table. */
static ss_reduce_op op_of(const char *s)
{
    static const struct {
        const char *name;
        ss_reduce_op op;
    } ops[] = {{"sum", SS_REDUCE_SUM}, {"prod", SS_REDUCE_PROD}, {"max", SS_REDUCE_MAX},
               {"min", SS_REDUCE_MIN}, {"and", SS_REDUCE_AND},   {"or", SS_REDUCE_OR}};
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        if (strcmp(ops[k].name, s) == 0)
            return ops[k].op;
    cr_assert_fail("unknown op %s", s);
    return SS_REDUCE_SUM;
}

/* Whether element bits u of float dtype dt are a NaN (XLA's sign and
 * payload of a NaN depend on its CPU code: any NaN matches any NaN). */
static bool is_nan(ss_dtype dt, uint64_t u)
{
    int mant = dt == SS_F64 ? 52 : dt == SS_F32 ? 23 : dt == SS_BF16 ? 7 : dt == SS_F16 ? 10 : -1;
    if (mant < 0)
        return false;
    int bits = (int)ss_dtype_size(dt) * 8;
    uint64_t mag = u & ((UINT64_C(1) << (bits - 1)) - 1), m = (UINT64_C(1) << mant) - 1;
    return (mag & ~m) == (((UINT64_C(1) << (bits - 1)) - 1) & ~m) && (mag & m);
}

static void check(const char *how, int at, const cJSON *c, const arr *want, const void *got)
{
    size_t es = ss_dtype_size(want->dtype);
    for (size_t i = 0; i < want->bytes; i += es)
        if (memcmp((const unsigned char *)got + i, want->data + i, es) != 0) {
            uint64_t g = 0, j = 0;
            memcpy(&g, (const unsigned char *)got + i, es);
            memcpy(&j, want->data + i, es);
            if (is_nan(want->dtype, g) && is_nan(want->dtype, j))
                continue;
            const cJSON *op = cJSON_GetObjectItemCaseSensitive(c, "op");
            cr_assert_fail("%s: case %d (%s %s on %s) element %zu: got 0x%llx, JAX 0x%llx", how,
                           at, cJSON_GetObjectItemCaseSensitive(c, "kind")->valuestring,
                           op ? op->valuestring : "",
                           cJSON_GetObjectItemCaseSensitive(c, "x")->valuestring, i / es,
                           (unsigned long long)g, (unsigned long long)j);
        }
}

static void run_case(const cJSON *inputs, const ss_mesh *ms[2], ss_context *cs[2],
                     const cJSON *c, int at)
{
    arr x = arr_from(cJSON_GetObjectItemCaseSensitive(
        inputs, cJSON_GetObjectItemCaseSensitive(c, "x")->valuestring));
    arr want = arr_from(cJSON_GetObjectItemCaseSensitive(c, "out"));
    const char *kind = cJSON_GetObjectItemCaseSensitive(c, "kind")->valuestring;
    void *got = malloc(want.bytes + 1);
    for (int pass = 0; pass < 2; pass++) {
        int ndev = pass ? 8 : 2;
        ss_program *p;
        TS_OK(ss_program_create(ms[pass], &p));
        ss_spec buf;
        ss_value xv, y;
        TS_OK(ss_input(p, "x", x.dtype, x.rank, x.shape, split_of(ndev, x.rank, x.shape, &buf),
                       &xv));
        if (strcmp(kind, "reduce") == 0) {
            int64_t a64[SS_MAX_RANK];
            int axes[SS_MAX_RANK];
            int na = ts_ints(cJSON_GetObjectItemCaseSensitive(c, "axes"), a64, SS_MAX_RANK);
            for (int k = 0; k < na; k++)
                axes[k] = (int)a64[k];
            TS_OK(ss_reduce(p, op_of(cJSON_GetObjectItemCaseSensitive(c, "op")->valuestring), xv,
                            na, axes, 0, &y));
        } else {
            int axis = (int)cJSON_GetObjectItemCaseSensitive(c, "axis")->valuedouble;
            if (strcmp(kind, "argmax") == 0)
                TS_OK(ss_argmax(p, xv, axis, want.dtype, &y));
            else
                TS_OK(ss_argmin(p, xv, axis, want.dtype, &y));
        }
        ss_dtype dt;
        int rank;
        int64_t shape[SS_MAX_RANK];
        TS_OK(ss_value_shape(p, y, &dt, &rank, shape));
        cr_assert_eq(dt, want.dtype, "case %d: dtype %s, JAX %s", at, ss_dtype_name(dt),
                     ss_dtype_name(want.dtype));
        cr_assert_eq(rank, want.rank, "case %d: rank %d, JAX %d", at, rank, want.rank);
        TS_OK(ss_output(p, y, split_of(ndev, rank, shape, &buf)));
        const void *hin[1] = {x.data};
        void *outs[1] = {got};
        if (!pass) {
            TS_OK(ss_program_eval(p, hin, outs));
            check("reference", at, c, &want, got);
            ss_eval_options fast = {.fast_kernels = 1};
            memset(got, 0xa5, want.bytes);
            TS_OK(ss_program_eval_with(p, &fast, hin, outs));
            check("single-device", at, c, &want, got);
        }
        ss_executable *e;
        TS_OK(ss_program_compile(p, &e));
        memset(got, 0xa5, want.bytes);
        TS_OK(ss_executable_run(e, cs[pass], hin, outs));
        check(pass ? "8 devices" : "2 devices", at, c, &want, got);
        ss_executable_destroy(e);
        ss_program_destroy(p);
    }
    free(got);
    free(x.data);
    free(want.data);
}

/* Every case of `kind` whose input's name starts with `prefix`. */
static void run_kind(const char *kind, const char *prefix)
{
    cJSON *doc = ts_load_json("jax_reduce/vectors.json");
    const cJSON *inputs = cJSON_GetObjectItemCaseSensitive(doc, "inputs");
    ss_mesh *m2 = ts_make_mesh("x=2", 2), *m8 = ts_make_mesh("x=2,y=4", 8);
    ss_context_options o2 = {.ndevices = 2, .device_memory = (size_t)16 << 20, .timeout = 30};
    ss_context_options o8 = {.ndevices = 8, .device_memory = (size_t)16 << 20, .timeout = 30};
    ss_context *c2, *c8;
    TS_OK(ss_context_create(&o2, &c2));
    TS_OK(ss_context_create(&o8, &c8));
    const ss_mesh *ms[2] = {m2, m8};
    ss_context *cs[2] = {c2, c8};
    int ran = 0, at = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cases"))
    {
        const char *x = cJSON_GetObjectItemCaseSensitive(c, "x")->valuestring;
        if (strcmp(cJSON_GetObjectItemCaseSensitive(c, "kind")->valuestring, kind) == 0 &&
            strncmp(x, prefix, strlen(prefix)) == 0) {
            run_case(inputs, ms, cs, c, at);
            ran++;
        }
        at++;
    }
    cr_assert_gt(ran, 0, "no %s cases on %s", kind, prefix);
    ss_context_destroy(c2);
    ss_context_destroy(c8);
    ss_mesh_destroy(m2);
    ss_mesh_destroy(m8);
    cJSON_Delete(doc);
}

Test(reduce_jax, signed_integers, .timeout = 120)
{
    run_kind("reduce", "i8");
    run_kind("reduce", "i16");
    run_kind("reduce", "i32");
    run_kind("reduce", "i64");
}
Test(reduce_jax, unsigned_integers, .timeout = 120)
{
    run_kind("reduce", "u8");
    run_kind("reduce", "u32");
    run_kind("reduce", "u64");
}
Test(reduce_jax, bools, .timeout = 120) { run_kind("reduce", "bool"); }
Test(reduce_jax, floats, .timeout = 120)
{
    run_kind("reduce", "f64");
    run_kind("reduce", "f32");
    run_kind("reduce", "bf16");
}
Test(reduce_jax, argmax, .timeout = 120) { run_kind("argmax", ""); }
Test(reduce_jax, argmin, .timeout = 120) { run_kind("argmin", ""); }

/* What the dtypes lack is refused with one line, the program unchanged. */
Test(reduce_jax, bad_arguments_are_one_line_errors)
{
    ss_mesh *m = ts_make_mesh("x=2", 2);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value f, i, y;
    TS_OK(ss_input(p, "f", SS_F32, 2, (int64_t[]){4, 6}, NULL, &f));
    TS_OK(ss_input(p, "i", SS_I32, 2, (int64_t[]){4, 6}, NULL, &i));
    int n0 = ss_program_value_count(p);
    static const struct {
        ss_status st;
        const char *msg;
    } want[] = {
        {SS_ERR_UNSUPPORTED, "reduce_and: not defined on f32"},
        {SS_ERR_UNSUPPORTED, "reduce_mean: not defined on i32"},
        {SS_ERR_INVALID, "argmax: axis 2 is out of range for f32[4,6]"},
        {SS_ERR_INVALID, "argmin: index dtype f32 is not an integer"},
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        ss_status st = k == 0   ? ss_reduce(p, SS_REDUCE_AND, f, 1, (int[]){0}, 0, &y)
                       : k == 1 ? ss_reduce(p, SS_REDUCE_MEAN, i, 1, (int[]){0}, 0, &y)
                       : k == 2 ? ss_argmax(p, f, 2, SS_I32, &y)
                                : ss_argmin(p, i, 0, SS_F32, &y);
        cr_assert_eq(st, want[k].st, "case %zu: status %d (%s)", k, st, ss_error_message());
        cr_assert(strcmp(ss_error_message(), want[k].msg) == 0, "case %zu: \"%s\", want \"%s\"",
                  k, ss_error_message(), want[k].msg);
        cr_assert_eq(ss_program_value_count(p), n0, "case %zu left values behind", k);
    }
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}
