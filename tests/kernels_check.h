/* kernels_check.h — helpers for test_kernels.c: tensors on the heap, random
 * fills, element access in any dtype, and assertions that report the first
 * differing element (with the caller's line) or check a one-line error.
 * Static functions: include from one test file only. */
#ifndef SS_TEST_KERNELS_CHECK_H
#define SS_TEST_KERNELS_CHECK_H

#include "support.h"

/* Internal on purpose: the kernels are tested one by one. */
#include "kernels/kernels.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SHAPE(...) ((const int64_t[]){__VA_ARGS__})
#define NDIM(...) ((int)(sizeof(SHAPE(__VA_ARGS__)) / sizeof(int64_t)))
#define T(dt, ...) tnew(dt, NDIM(__VA_ARGS__), SHAPE(__VA_ARGS__))

static ss__tensor tnew(ss_dtype dt, int rank, const int64_t *shape)
{
    ss__tensor t = {.dtype = dt, .rank = rank};
    for (int d = 0; d < rank; d++)
        t.shape[d] = shape[d];
    int64_t n = ss__k_numel(&t);
    t.data = calloc((size_t)(n > 0 ? n : 1), ss_dtype_size(dt));
    cr_assert(t.data);
    return t;
}

static ss__tensor scalar(ss_dtype dt)
{
    return tnew(dt, 0, NULL);
}

static void tfree(ss__tensor *t)
{
    free(t->data);
    t->data = NULL;
}

static unsigned rng = 12345u;

static double uniform(double lo, double hi)
{
    rng = rng * 1103515245u + 12345u;
    return lo + (hi - lo) * (double)((rng >> 8) & 0xffffffu) / 16777216.0;
}

static void put(ss__tensor *t, int64_t i, double v)
{
    switch (t->dtype) {
    case SS_F32: ((float *)t->data)[i] = (float)v; break;
    case SS_BF16: ((uint16_t *)t->data)[i] = ss__f32_to_bf16((float)v); break;
    case SS_F16: ((uint16_t *)t->data)[i] = ss__f32_to_f16((float)v); break;
    case SS_I32: ((int32_t *)t->data)[i] = (int32_t)v; break;
    default: cr_assert_fail("put: dtype %d", (int)t->dtype);
    }
}

static double at(const ss__tensor *t, int64_t i)
{
    switch (t->dtype) {
    case SS_F32: return ((const float *)t->data)[i];
    case SS_BF16: return ss__bf16_to_f32(((const uint16_t *)t->data)[i]);
    case SS_F16: return ss__f16_to_f32(((const uint16_t *)t->data)[i]);
    case SS_I32: return ((const int32_t *)t->data)[i];
    default: return NAN;
    }
}

static void fill(ss__tensor *t, double lo, double hi)
{
    for (int64_t i = 0; i < ss__k_numel(t); i++)
        put(t, i, t->dtype == SS_I32 ? floor(uniform(lo, hi)) : uniform(lo, hi));
}

static void set_values(ss__tensor *t, int n, const double *v)
{
    cr_assert_eq(ss__k_numel(t), n);
    for (int i = 0; i < n; i++)
        put(t, i, v[i]);
}

#define VALUES(t, ...) \
    set_values(t, (int)(sizeof((double[]){__VA_ARGS__}) / sizeof(double)), (double[]){__VA_ARGS__})

/* Element by element within atol + rtol * |want|; NaN matches NaN. */
static void close_(const ss__tensor *got, const ss__tensor *want, double rtol, double atol,
                   const char *what, int line)
{
    int64_t n = ss__k_numel(want);
    cr_assert_eq(ss__k_numel(got), n, "line %d: %s: sizes differ", line, what);
    for (int64_t i = 0; i < n; i++) {
        double g = at(got, i), w = at(want, i);
        if ((isnan(g) && isnan(w)) || g == w)
            continue;
        cr_assert(fabs(g - w) <= atol + rtol * fabs(w),
                  "line %d: %s: element %lld: got %.9g, want %.9g (rtol %g, atol %g)", line, what,
                  (long long)i, g, w, rtol, atol);
    }
}
#define EXPECT_CLOSE(g, w, rtol, atol, what) close_(g, w, rtol, atol, what, __LINE__)

/* Bit for bit (any dtype); two float NaNs count as equal. */
static void same_(const ss__tensor *got, const ss__tensor *want, const char *what, int line)
{
    int64_t n = ss__k_numel(want);
    size_t es = ss_dtype_size(want->dtype);
    cr_assert_eq(ss__k_numel(got), n, "line %d: %s: sizes differ", line, what);
    cr_assert_eq(got->dtype, want->dtype, "line %d: %s: dtypes differ", line, what);
    for (int64_t i = 0; i < n; i++) {
        const unsigned char *g = (const unsigned char *)got->data + (size_t)i * es;
        const unsigned char *w = (const unsigned char *)want->data + (size_t)i * es;
        if (memcmp(g, w, es) == 0)
            continue;
        bool float_dt = want->dtype == SS_F32 || want->dtype == SS_BF16 || want->dtype == SS_F16;
        cr_assert(float_dt && isnan(at(got, i)) && isnan(at(want, i)),
                  "line %d: %s: element %lld differs: got %.9g, want %.9g", line, what,
                  (long long)i, float_dt ? at(got, i) : 0.0, float_dt ? at(want, i) : 0.0);
    }
}
#define EXPECT_SAME(g, w, what) same_(g, w, what, __LINE__)

/* The call failed with `status` and a one-line message equal to `msg`
 * (or, if msg ends in '*', starting with it). */
static void error_(ss_status st, ss_status status, const char *msg, int line)
{
    const char *m = ss_error_message();
    cr_assert_eq(st, status, "line %d: status %d, want %d (%s)", line, st, status, m);
    cr_assert_null(strchr(m, '\n'), "line %d: message has a newline: %s", line, m);
    size_t len = strlen(msg);
    if (len && msg[len - 1] == '*')
        cr_assert(strncmp(m, msg, len - 1) == 0, "line %d: message '%s' lacks prefix '%.*s'",
                  line, m, (int)(len - 1), msg);
    else
        cr_assert_str_eq(m, msg, "line %d: message '%s'", line, m);
}
#define EXPECT_ERROR(call, status, msg) error_(call, status, msg, __LINE__)
#define OK(call) cr_assert_eq(call, SS_OK, "%s", ss_error_message())

#endif
