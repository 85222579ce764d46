/*
 * nn.c — softmax, log_softmax, layer_norm, softmax cross-entropy with
 * integer labels, and one_hot, as jax.nn / flax.linen / optax define them.
 *
 * A "lane" is the 1-D slice an op normalises over. Per lane the max is taken
 * in f32, sums run in double in index order, and each output element is
 * rounded once; so results do not depend on how lanes are grouped or on the
 * block size, and runs are bit-identical. Lanes along the last axis are
 * processed one at a time in contiguous blocks; softmax over another axis
 * processes up to SS__K_BLOCK neighbouring lanes together so that every load
 * is contiguous.
 *
 * Not here: masking (`where=`), label smoothing, gradients (the graph layer
 * builds those from these kernels and elementwise ops).
 */
#include "kernels_internal.h"

#include <math.h>

static inline float max_nan(float a, float b)
{
    return a > b || a != a ? a : b;
}

/* The max and the sum of exp(x - max) of one contiguous lane at `base`. */
static void lane_stats(const ss__tensor *x, int64_t base, int64_t n, float *m_out, double *s_out)
{
    float buf[SS__K_BLOCK];
    float m = -INFINITY;
    for (int64_t i = 0; i < n; i += SS__K_BLOCK) {
        int64_t c = n - i < SS__K_BLOCK ? n - i : SS__K_BLOCK;
        ss__k_load_f32(x->dtype, x->data, base + i, c, buf);
        for (int64_t j = 0; j < c; j++)
            m = max_nan(m, buf[j]);
    }
    double s = 0.0;
    for (int64_t i = 0; i < n; i += SS__K_BLOCK) {
        int64_t c = n - i < SS__K_BLOCK ? n - i : SS__K_BLOCK;
        ss__k_load_f32(x->dtype, x->data, base + i, c, buf);
        for (int64_t j = 0; j < c; j++)
            s += (double)expf(buf[j] - m);
    }
    *m_out = m;
    *s_out = s;
}

static inline float softmax_value(bool log_form, float v, float m, double s, double log_s)
{
    if (log_form)
        return (float)((double)(v - m) - log_s);
    return (float)((double)expf(v - m) / s);
}

/* Softmax over the last axis: `rows` lanes of n contiguous elements. */
static void softmax_rows(bool log_form, const ss__tensor *x, ss__tensor *out, int64_t rows,
                         int64_t n)
{
    float buf[SS__K_BLOCK];
    for (int64_t r = 0; r < rows; r++) {
        float m;
        double s;
        lane_stats(x, r * n, n, &m, &s);
        double log_s = log(s);
        for (int64_t i = 0; i < n; i += SS__K_BLOCK) {
            int64_t c = n - i < SS__K_BLOCK ? n - i : SS__K_BLOCK;
            ss__k_load_f32(x->dtype, x->data, r * n + i, c, buf);
            for (int64_t j = 0; j < c; j++)
                buf[j] = softmax_value(log_form, buf[j], m, s, log_s);
            ss__k_store_f32(out->dtype, out->data, r * n + i, c, buf);
        }
    }
}

/* Softmax over a middle axis of x viewed as [outer, n, inner], inner > 1:
 * lanes j0..j0+c of one outer index are processed together. */
static void softmax_cols(bool log_form, const ss__tensor *x, ss__tensor *out, int64_t outer,
                         int64_t n, int64_t inner)
{
    float buf[SS__K_BLOCK], m[SS__K_BLOCK];
    double s[SS__K_BLOCK], log_s[SS__K_BLOCK];
    for (int64_t o = 0; o < outer; o++) {
        for (int64_t j0 = 0; j0 < inner; j0 += SS__K_BLOCK) {
            int64_t c = inner - j0 < SS__K_BLOCK ? inner - j0 : SS__K_BLOCK;
            int64_t base = o * n * inner + j0;
            for (int64_t j = 0; j < c; j++) {
                m[j] = -INFINITY;
                s[j] = 0.0;
            }
            for (int64_t i = 0; i < n; i++) {
                ss__k_load_f32(x->dtype, x->data, base + i * inner, c, buf);
                for (int64_t j = 0; j < c; j++)
                    m[j] = max_nan(m[j], buf[j]);
            }
            for (int64_t i = 0; i < n; i++) {
                ss__k_load_f32(x->dtype, x->data, base + i * inner, c, buf);
                for (int64_t j = 0; j < c; j++)
                    s[j] += (double)expf(buf[j] - m[j]);
            }
            for (int64_t j = 0; j < c; j++)
                log_s[j] = log(s[j]);
            for (int64_t i = 0; i < n; i++) {
                ss__k_load_f32(x->dtype, x->data, base + i * inner, c, buf);
                for (int64_t j = 0; j < c; j++)
                    buf[j] = softmax_value(log_form, buf[j], m[j], s[j], log_s[j]);
                ss__k_store_f32(out->dtype, out->data, base + i * inner, c, buf);
            }
        }
    }
}

ss_status ss__k_check_softmax(const char *op, const ss__tensor *x, int axis,
                              const ss__tensor *out, int *ax)
{
    ss_status st = ss__k_check_float(op, "input", x, NULL);
    if (!st)
        st = ss__k_check_float(op, "output", out, NULL);
    if (!st)
        st = ss__k_check_same_shape(op, "input", x, "output", out);
    if (!st && x->rank == 0)
        st = ss__fail(SS_ERR_INVALID, "%s: input is a scalar (needs rank >= 1)", op);
    if (!st)
        st = ss__k_norm_axis(op, axis, x->rank, ax);
    return st;
}

static ss_status softmax_any(bool log_form, const ss__tensor *x, int axis, ss__tensor *out)
{
    int ax;
    ss_status st = ss__k_check_softmax(log_form ? "log_softmax" : "softmax", x, axis, out, &ax);
    if (st)
        return st;
    if (ss__k_numel(x) == 0)
        return SS_OK;
    int64_t outer = 1, inner = 1, n = x->shape[ax];
    for (int d = 0; d < ax; d++)
        outer *= x->shape[d];
    for (int d = ax + 1; d < x->rank; d++)
        inner *= x->shape[d];
    if (inner == 1)
        softmax_rows(log_form, x, out, outer, n);
    else
        softmax_cols(log_form, x, out, outer, n, inner);
    return SS_OK;
}

ss_status ss__k_softmax(const ss__tensor *x, int axis, ss__tensor *out)
{
    return softmax_any(false, x, axis, out);
}

ss_status ss__k_log_softmax(const ss__tensor *x, int axis, ss__tensor *out)
{
    return softmax_any(true, x, axis, out);
}

/* --- layer_norm --- */

ss_status ss__k_check_layer_norm(const ss__tensor *x, const ss__tensor *scale,
                                 const ss__tensor *bias, const ss__tensor *out)
{
    const char *op = "layer_norm";
    ss_status st = ss__k_check_float(op, "input", x, NULL);
    if (!st)
        st = ss__k_check_float(op, "output", out, NULL);
    if (!st)
        st = ss__k_check_same_shape(op, "input", x, "output", out);
    if (!st && x->rank == 0)
        st = ss__fail(SS_ERR_INVALID, "%s: input is a scalar (needs rank >= 1)", op);
    if (st)
        return st;
    const ss__tensor *params[2] = {scale, bias};
    const char *names[2] = {"scale", "bias"};
    for (int k = 0; k < 2; k++) {
        if (!params[k])
            continue;
        st = ss__k_check_float(op, names[k], params[k], NULL);
        if (st)
            return st;
        if (params[k]->rank != 1 || params[k]->shape[0] != x->shape[x->rank - 1])
            return ss__fail(SS_ERR_INVALID, "%s: %s has shape %s, expected (%lld,)", op, names[k],
                            ss__k_shape_text(params[k]->rank, params[k]->shape).s,
                            (long long)x->shape[x->rank - 1]);
    }
    return SS_OK;
}

ss_status ss__k_layer_norm(const ss__tensor *x, const ss__tensor *scale, const ss__tensor *bias,
                           float eps, ss__tensor *out)
{
    ss_status st = ss__k_check_layer_norm(x, scale, bias, out);
    if (st)
        return st;
    int64_t total = ss__k_numel(x), f = x->shape[x->rank - 1];
    if (total == 0)
        return SS_OK;
    int64_t rows = total / f;
    float buf[SS__K_BLOCK], sc[SS__K_BLOCK], bi[SS__K_BLOCK];
    for (int64_t r = 0; r < rows; r++) {
        int64_t base = r * f;
        double sum = 0.0;
        for (int64_t i = 0; i < f; i += SS__K_BLOCK) {
            int64_t c = f - i < SS__K_BLOCK ? f - i : SS__K_BLOCK;
            ss__k_load_f32(x->dtype, x->data, base + i, c, buf);
            for (int64_t j = 0; j < c; j++)
                sum += (double)buf[j];
        }
        double mean = sum / (double)f, sq = 0.0;
        for (int64_t i = 0; i < f; i += SS__K_BLOCK) {
            int64_t c = f - i < SS__K_BLOCK ? f - i : SS__K_BLOCK;
            ss__k_load_f32(x->dtype, x->data, base + i, c, buf);
            for (int64_t j = 0; j < c; j++) {
                double dev = (double)buf[j] - mean;
                sq += dev * dev;
            }
        }
        double mul = 1.0 / sqrt(sq / (double)f + (double)eps);
        for (int64_t i = 0; i < f; i += SS__K_BLOCK) {
            int64_t c = f - i < SS__K_BLOCK ? f - i : SS__K_BLOCK;
            ss__k_load_f32(x->dtype, x->data, base + i, c, buf);
            if (scale)
                ss__k_load_f32(scale->dtype, scale->data, i, c, sc);
            if (bias)
                ss__k_load_f32(bias->dtype, bias->data, i, c, bi);
            for (int64_t j = 0; j < c; j++) {
                double y = ((double)buf[j] - mean) * mul;
                if (scale)
                    y *= (double)sc[j];
                if (bias)
                    y += (double)bi[j];
                buf[j] = (float)y;
            }
            ss__k_store_f32(out->dtype, out->data, base + i, c, buf);
        }
    }
    return SS_OK;
}

/* --- cross-entropy with integer labels --- */

ss_status ss__k_check_cross_entropy(const ss__tensor *logits, const ss__tensor *labels,
                                    const ss__tensor *out)
{
    const char *op = "cross_entropy";
    ss_status st = ss__k_check_float(op, "logits", logits, NULL);
    if (!st)
        st = ss__k_check(op, "labels", labels, NULL);
    if (!st)
        st = ss__k_check_float(op, "output", out, NULL);
    if (st)
        return st;
    if (labels->dtype != SS_I32)
        return ss__fail(SS_ERR_UNSUPPORTED, "%s: labels have dtype %s (expected i32)", op,
                        ss_dtype_name(labels->dtype));
    if (logits->rank == 0)
        return ss__fail(SS_ERR_INVALID, "%s: logits are a scalar (need [..., classes])", op);
    ss__tensor batch = {.dtype = labels->dtype, .rank = logits->rank - 1};
    memcpy(batch.shape, logits->shape, sizeof(int64_t) * (size_t)batch.rank);
    st = ss__k_check_same_shape(op, "logits batch", &batch, "labels", labels);
    if (!st)
        st = ss__k_check_same_shape(op, "labels", labels, "output", out);
    return st;
}

ss_status ss__k_cross_entropy(const ss__tensor *logits, const ss__tensor *labels,
                              ss__tensor *out)
{
    ss_status st = ss__k_check_cross_entropy(logits, labels, out);
    if (st)
        return st;
    int64_t rows = ss__k_numel(labels), classes = logits->shape[logits->rank - 1];
    const int32_t *lab = labels->data;
    for (int64_t r = 0; r < rows; r++) {
        int64_t l = lab[r] < 0 ? (int64_t)lab[r] + classes : (int64_t)lab[r];
        float loss = NAN;
        if (l >= 0 && l < classes) {
            float m, xl;
            double s;
            lane_stats(logits, r * classes, classes, &m, &s);
            ss__k_load_f32(logits->dtype, logits->data, r * classes + l, 1, &xl);
            loss = (float)(log(s) - (double)(xl - m));
        }
        ss__k_store_f32(out->dtype, out->data, r, 1, &loss);
    }
    return SS_OK;
}

/* --- one_hot --- */

ss_status ss__k_check_one_hot(const ss__tensor *indices, const ss__tensor *out)
{
    const char *op = "one_hot";
    ss_status st = ss__k_check(op, "indices", indices, NULL);
    if (!st)
        st = ss__k_check(op, "output", out, NULL);
    if (st)
        return st;
    if (indices->dtype != SS_I32)
        return ss__fail(SS_ERR_UNSUPPORTED, "%s: indices have dtype %s (expected i32)", op,
                        ss_dtype_name(indices->dtype));
    if (!ss__k_is_float(out->dtype) && out->dtype != SS_I32)
        return ss__fail(SS_ERR_UNSUPPORTED, "%s: output dtype %s (expected f32, bf16, f16, i32)",
                        op, ss_dtype_name(out->dtype));
    if (out->rank != indices->rank + 1)
        return ss__fail(SS_ERR_INVALID, "%s: output rank %d, expected indices rank + 1 = %d", op,
                        out->rank, indices->rank + 1);
    ss__tensor batch = {.dtype = out->dtype, .rank = indices->rank};
    memcpy(batch.shape, out->shape, sizeof(int64_t) * (size_t)batch.rank);
    return ss__k_check_same_shape(op, "indices", indices, "output batch", &batch);
}

ss_status ss__k_one_hot(const ss__tensor *indices, ss__tensor *out)
{
    ss_status st = ss__k_check_one_hot(indices, out);
    if (st)
        return st;
    int64_t rows = ss__k_numel(indices), classes = out->shape[out->rank - 1];
    const int32_t *idx = indices->data;
    float buf[SS__K_BLOCK];
    for (int64_t r = 0; r < rows; r++) {
        for (int64_t i = 0; i < classes; i += SS__K_BLOCK) {
            int64_t c = classes - i < SS__K_BLOCK ? classes - i : SS__K_BLOCK;
            for (int64_t j = 0; j < c; j++)
                buf[j] = (int64_t)idx[r] == i + j ? 1.0f : 0.0f;
            ss__k_store_f32(out->dtype, out->data, r * classes + i, c, buf);
        }
    }
    return SS_OK;
}

/* --- FLOPs --- */

static int64_t lanes_of(const ss__tensor *x, int axis)
{
    int ax;
    if (x->rank < 1 || axis < -x->rank || axis >= x->rank)
        return 0;
    ax = axis < 0 ? axis + x->rank : axis;
    int64_t n = ss__k_numel(x);
    return x->shape[ax] > 0 && n > 0 ? n / x->shape[ax] : 0;
}

int64_t ss__k_flops_softmax(const ss__tensor *x, int axis)
{
    (void)axis;
    int64_t n = ss__k_numel(x);
    return n > 0 ? ss__k_mul_sat(n, 5) : 0;
}

int64_t ss__k_flops_log_softmax(const ss__tensor *x, int axis)
{
    int64_t n = ss__k_numel(x);
    if (n <= 0)
        return 0;
    int64_t f = ss__k_mul_sat(n, 4), lanes = lanes_of(x, axis);
    return f > INT64_MAX - lanes ? INT64_MAX : f + lanes;
}

int64_t ss__k_flops_layer_norm(const ss__tensor *x)
{
    int64_t n = ss__k_numel(x);
    return n > 0 ? ss__k_mul_sat(n, 8) : 0;
}

int64_t ss__k_flops_cross_entropy(const ss__tensor *logits)
{
    int64_t n = ss__k_numel(logits);
    if (n <= 0)
        return 0;
    int64_t f = ss__k_mul_sat(n, 4), rows = ss__k_mul_sat(lanes_of(logits, -1), 2);
    return f > INT64_MAX - rows ? INT64_MAX : f + rows;
}
