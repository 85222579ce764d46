/*
 * npfmt.c — host arrays as numpy shows and stores them: the text of
 * `print(x)` on a jax.Array (numpy's str of its value: line width 75,
 * summarised with "..." above 1000 elements, 3 items at each edge) and
 * .npy files (format 1.0) for `run --outputs DIR`.
 *
 * Floats follow numpy's default FloatingFormat (floatmode 'maxprec',
 * precision 8): each value's shortest round-trip digits in its own dtype,
 * at most 8 after the point, all in positional notation padded to common
 * widths, or all in scientific notation when the largest magnitude is
 * >= 1e8, the smallest nonzero < 1e-4 or their ratio > 1000. bfloat16
 * prints as ml_dtypes does (each element "%g", no padding).
 */
#include "scenario.h"

#include "base/half.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NP_LINE_WIDTH 75
#define NP_THRESHOLD 1000
#define NP_EDGE 3
#define NP_PRECISION 8

typedef enum { F_POS, F_EXP, F_INT, F_BOOL, F_G } fmt_kind;

typedef struct npfmt {
    ss_dtype dt;
    const void *data;
    fmt_kind kind;
    int pad_left, pad_right; /* floats: widths before and after the point */
    int precision, exp_size; /* F_EXP: digits after the point, exponent digits */
    int width;               /* F_INT */
} npfmt;

static bool is_float(ss_dtype dt) { return dt == SS_F32 || dt == SS_F64 || dt == SS_F16; }

/* Does the decimal text `s` read back as the same value of dtype dt? */
static bool round_trips(const char *s, double v, ss_dtype dt)
{
    double x = strtod(s, NULL);
    switch (dt) {
    case SS_F32: return (float)x == (float)v;
    case SS_F16: return ss__f32_to_f16((float)x) == ss__f32_to_f16((float)v);
    default: return x == v;
    }
}

/* The shortest digits that read back as v in dtype dt: digits[0..n) with
 * v = d.ddd x 10^exp10 (sign not included). v finite. */
static int shortest(double v, ss_dtype dt, char digits[24], int *exp10)
{
    char buf[40];
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, sizeof buf, "%.*e", p - 1, fabs(v));
        if (p == 17 || round_trips(buf, fabs(v), dt))
            break;
    }
    int n = 0;
    const char *q = buf;
    for (; *q && *q != 'e'; q++)
        if (*q >= '0' && *q <= '9')
            digits[n++] = *q;
    *exp10 = *q == 'e' ? atoi(q + 1) : 0;
    while (n > 1 && digits[n - 1] == '0')
        n--;
    digits[n] = '\0';
    return n;
}

/* Positional text of finite v ("-12.5", "1.", "0.1"), at most 8 digits
 * after the point; *point is the index of '.'. */
static void positional(double v, ss_dtype dt, char *out, size_t cap, int *point)
{
    char d[24];
    int e, n = shortest(v, dt, d, &e);
    int frac = n - 1 - e;
    size_t k = 0;
    if (signbit(v))
        out[k++] = '-';
    if (frac > NP_PRECISION) {
        snprintf(out + k, cap - k, "%.*f", NP_PRECISION, fabs(v));
        char *end = out + strlen(out);
        while (end[-1] == '0')
            *--end = '\0';
    } else if (e >= 0) {
        for (int i = 0; i <= e; i++)
            out[k++] = i < n ? d[i] : '0';
        out[k++] = '.';
        for (int i = e + 1; i < n; i++)
            out[k++] = d[i];
        out[k] = '\0';
    } else {
        out[k++] = '0';
        out[k++] = '.';
        for (int i = 0; i < -e - 1; i++)
            out[k++] = '0';
        for (int i = 0; i < n; i++)
            out[k++] = d[i];
        out[k] = '\0';
    }
    *point = (int)(strchr(out, '.') - out);
}

/* Scientific text of finite v: mantissa "d.ddd" (at least `min_frac`
 * digits after the point, at most 8), exponent sign and digits apart. */
static void scientific(double v, ss_dtype dt, int min_frac, char *mant, size_t cap, char *exps,
                       int *exp_digits)
{
    char d[24];
    int e, n = shortest(v, dt, d, &e);
    if (n - 1 > NP_PRECISION) { /* round to 8 digits after the point */
        char buf[40];
        snprintf(buf, sizeof buf, "%.*e", NP_PRECISION, fabs(v));
        n = 0;
        const char *q = buf;
        for (; *q && *q != 'e'; q++)
            if (*q >= '0' && *q <= '9')
                d[n++] = *q;
        e = atoi(q + 1);
        while (n > 1 && d[n - 1] == '0')
            n--;
    }
    if (n - 1 < min_frac) { /* more digits of the exact value, as dragon4's min_digits */
        char buf[40];
        snprintf(buf, sizeof buf, "%.*e", min_frac, fabs(v));
        n = 0;
        for (const char *q = buf; *q && *q != 'e'; q++)
            if (*q >= '0' && *q <= '9')
                d[n++] = *q;
    }
    size_t k = 0;
    if (signbit(v))
        mant[k++] = '-';
    mant[k++] = d[0];
    mant[k++] = '.';
    for (int i = 1; i < n || i <= min_frac; i++)
        if (k + 1 < cap)
            mant[k++] = i < n ? d[i] : '0';
    mant[k] = '\0';
    *exp_digits = snprintf(exps, 8, "%02d", e < 0 ? -e : e);
    memmove(exps + 1, exps, (size_t)*exp_digits + 1);
    exps[0] = e < 0 ? '-' : '+';
}

/* Flat indices of the elements shown: all, or with every long axis cut to
 * its first and last NP_EDGE items. */
static bool shown(int rank, const int64_t shape[], bool summary, int64_t flat)
{
    if (!summary)
        return true;
    for (int d = rank - 1; d >= 0; d--) {
        int64_t i = flat % shape[d];
        flat /= shape[d];
        if (shape[d] > 2 * NP_EDGE && i >= NP_EDGE && i < shape[d] - NP_EDGE)
            return false;
    }
    return true;
}

static void plan_format(npfmt *f, int rank, const int64_t shape[], int64_t size, bool summary)
{
    if (f->dt == SS_BF16) {
        f->kind = F_G;
        return;
    }
    if (f->dt == SS_BOOL) {
        f->kind = F_BOOL;
        return;
    }
    if (!is_float(f->dt)) {
        f->kind = F_INT;
        for (int64_t k = 0; k < size; k++)
            if (shown(rank, shape, summary, k)) {
                char b[32];
                int w = snprintf(b, sizeof b, "%.0f", ss__elem_get(f->dt, f->data, (size_t)k));
                f->width = w > f->width ? w : f->width;
            }
        return;
    }
    double maxv = 0, minv = INFINITY;
    bool any_finite = false, nonfinite = false, neginf = false;
    for (int64_t k = 0; k < size; k++) {
        if (!shown(rank, shape, summary, k))
            continue;
        double v = ss__elem_get(f->dt, f->data, (size_t)k);
        if (!isfinite(v)) {
            nonfinite = true;
            neginf = neginf || (isinf(v) && v < 0);
            continue;
        }
        any_finite = true;
        if (v != 0) {
            maxv = fabs(v) > maxv ? fabs(v) : maxv;
            minv = fabs(v) < minv ? fabs(v) : minv;
        }
    }
    f->kind = maxv > 0 && (maxv >= 1e8 || minv < 1e-4 || maxv / minv > 1000) ? F_EXP : F_POS;
    for (int pass = 0; pass < 2 && any_finite; pass++) /* F_EXP: frac digits, then widths */
        for (int64_t k = 0; k < size; k++) {
            double v = ss__elem_get(f->dt, f->data, (size_t)k);
            if (!shown(rank, shape, summary, k) || !isfinite(v))
                continue;
            char s[64], ex[8];
            int point, ed;
            if (f->kind == F_POS) {
                if (pass)
                    break;
                positional(v, f->dt, s, sizeof s, &point);
                int right = (int)strlen(s) - point - 1;
                f->pad_left = point > f->pad_left ? point : f->pad_left;
                f->pad_right = right > f->pad_right ? right : f->pad_right;
            } else {
                scientific(v, f->dt, pass ? f->precision : 0, s, sizeof s, ex, &ed);
                point = (int)(strchr(s, '.') - s);
                int frac = (int)strlen(s) - point - 1;
                if (!pass) {
                    f->precision = frac > f->precision ? frac : f->precision;
                    f->exp_size = ed > f->exp_size ? ed : f->exp_size;
                } else {
                    f->pad_left = point > f->pad_left ? point : f->pad_left;
                }
            }
        }
    if (f->kind == F_EXP)
        f->pad_right = f->exp_size + 2 + f->precision;
    if (nonfinite) { /* room for "nan", "inf", "-inf" */
        int offset = f->pad_right + 1, inflen = 3 + (neginf ? 1 : 0);
        if (3 - offset > f->pad_left)
            f->pad_left = 3 - offset;
        if (inflen - offset > f->pad_left)
            f->pad_left = inflen - offset;
    }
}

static void format_elem(const npfmt *f, int64_t k, ss__buf *b)
{
    double v = ss__elem_get(f->dt, f->data, (size_t)k);
    char s[64], ex[8];
    int point, ed;
    switch (f->kind) {
    case F_BOOL: ss__buf_puts(b, v != 0 ? " True" : "False"); return;
    case F_INT: ss__buf_printf(b, "%*.0f", f->width, v); return;
    case F_G:
        if (isnan(v))
            ss__buf_puts(b, "nan");
        else
            ss__buf_printf(b, "%g", v);
        return;
    default: break;
    }
    if (!isfinite(v)) {
        const char *t = isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
        ss__buf_printf(b, "%*s", f->pad_left + f->pad_right + 1, t);
        return;
    }
    if (f->kind == F_POS) {
        positional(v, f->dt, s, sizeof s, &point);
        int right = (int)strlen(s) - point - 1;
        ss__buf_printf(b, "%*s%s%*s", f->pad_left - point, "", s, f->pad_right - right, "");
    } else {
        scientific(v, f->dt, f->precision, s, sizeof s, ex, &ed);
        point = (int)(strchr(s, '.') - s);
        ss__buf_printf(b, "%*s%se%c%0*d", f->pad_left - point, "", s, ex[0], f->exp_size,
                       atoi(ex + 1));
    }
}

/* numpy's _extendLine: wrap before `word` when the line would pass the
 * width (unless the line holds only its indent). */
static void extend_line(ss__buf *s, ss__buf *line, const char *word, size_t width,
                        const char *indent)
{
    if (line->len + strlen(word) > width && line->len > strlen(indent)) {
        size_t n = line->len;
        while (n && line->data[n - 1] == ' ')
            n--;
        ss__buf_putn(s, line->data, n);
        ss__buf_putc(s, '\n');
        ss__buf_clear(line);
        ss__buf_puts(line, indent);
    }
    ss__buf_puts(line, word);
}

typedef struct rec {
    const npfmt *f;
    int rank;
    const int64_t *shape;
    int64_t strides[SS_MAX_RANK];
    bool summary;
} rec;

/* numpy's _formatArray recurser for the sub-array at flat offset `base`,
 * axis `axis`. */
static void recurse(const rec *r, int axis, int64_t base, const char *indent, size_t width,
                    ss__buf *out)
{
    if (axis == r->rank) {
        format_elem(r->f, base, out);
        return;
    }
    size_t il = strlen(indent);
    char *next_indent = malloc(il + 2);
    if (!next_indent) {
        out->oom = true;
        return;
    }
    memcpy(next_indent, indent, il);
    next_indent[il] = ' ';
    next_indent[il + 1] = '\0';
    int64_t len = r->shape[axis];
    bool cut = r->summary && len > 2 * NP_EDGE;
    int64_t lead = cut ? NP_EDGE : 0, trail = cut ? NP_EDGE : len;
    int left = r->rank - axis;
    ss__buf s, word;
    ss__buf_init(&s);
    ss__buf_init(&word);
    if (left == 1) {
        ss__buf line;
        ss__buf_init(&line);
        ss__buf_puts(&line, indent);
        size_t elem_width = width - 1; /* room for ']' */
        for (int64_t i = 0; i < lead + trail; i++) {
            int64_t idx = i < lead ? i : len - (lead + trail - i);
            ss__buf_clear(&word);
            recurse(r, axis + 1, base + idx * r->strides[axis], next_indent, width - 1, &word);
            extend_line(&s, &line, word.data ? word.data : "", elem_width, indent);
            if (i + 1 < lead + trail)
                ss__buf_putc(&line, ' ');
            if (cut && i + 1 == lead) {
                extend_line(&s, &line, "...", elem_width, indent);
                ss__buf_putc(&line, ' ');
            }
        }
        ss__buf_putn(&s, line.data ? line.data : "", line.len);
        s.oom = s.oom || line.oom;
        ss__buf_free(&line);
    } else {
        char sep[SS_MAX_RANK + 1];
        int ns = 0;
        for (; ns < left - 1; ns++)
            sep[ns] = '\n';
        sep[ns] = '\0';
        for (int64_t i = 0; i < lead + trail; i++) {
            int64_t idx = i < lead ? i : len - (lead + trail - i);
            ss__buf_clear(&word);
            recurse(r, axis + 1, base + idx * r->strides[axis], next_indent, width - 1, &word);
            ss__buf_puts(&s, indent);
            ss__buf_puts(&s, word.data ? word.data : "");
            if (i + 1 < lead + trail)
                ss__buf_puts(&s, sep);
            if (cut && i + 1 == lead) {
                ss__buf_puts(&s, indent);
                ss__buf_puts(&s, "...");
                ss__buf_puts(&s, sep);
            }
            s.oom = s.oom || word.oom;
        }
    }
    ss__buf_putc(out, '[');
    if (s.data && s.len >= il)
        ss__buf_puts(out, s.data + il);
    ss__buf_putc(out, ']');
    out->oom = out->oom || s.oom || word.oom;
    ss__buf_free(&s);
    ss__buf_free(&word);
    free(next_indent);
}

ss_status ss__scn_np_str(ss_dtype dt, int rank, const int64_t shape[], const void *data, ss__buf *out)
{
    int64_t size = 1;
    for (int d = 0; d < rank; d++)
        size *= shape[d];
    npfmt f = {.dt = dt, .data = data};
    if (rank == 0) { /* numpy's scalar str: 1.0, 1e-05, True */
        double v = ss__elem_get(dt, data, 0);
        char s[64], ex[8];
        int point, ed;
        if (dt == SS_BOOL)
            ss__buf_puts(out, v != 0 ? "True" : "False");
        else if (dt == SS_BF16)
            ss__buf_printf(out, isnan(v) ? "nan" : "%g", v);
        else if (!is_float(dt))
            ss__buf_printf(out, "%.0f", v);
        else if (!isfinite(v))
            ss__buf_puts(out, isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
        else if (v == 0 || (fabs(v) >= 1e-4 && fabs(v) < (dt == SS_F16   ? 1e3
                                                          : dt == SS_F32 ? 1e6
                                                                         : 1e16))) {
            positional(v, dt, s, sizeof s, &point);
            ss__buf_printf(out, "%s%s", s, s[strlen(s) - 1] == '.' ? "0" : "");
        } else {
            scientific(v, dt, 0, s, sizeof s, ex, &ed);
            size_t n = strlen(s);
            if (s[n - 1] == '.')
                s[n - 1] = '\0';
            ss__buf_printf(out, "%se%s", s, ex);
        }
        return out->oom ? ss__fail(SS_ERR_NOMEM, "print: out of host memory") : SS_OK;
    }
    if (size == 0) {
        ss__buf_puts(out, "[]");
        return out->oom ? ss__fail(SS_ERR_NOMEM, "print: out of host memory") : SS_OK;
    }
    rec r = {.f = &f, .rank = rank, .shape = shape, .summary = size > NP_THRESHOLD};
    int64_t st = 1;
    for (int d = rank - 1; d >= 0; d--) {
        r.strides[d] = st;
        st *= shape[d];
    }
    plan_format(&f, rank, shape, size, r.summary);
    recurse(&r, 0, 0, " ", NP_LINE_WIDTH, out);
    return out->oom ? ss__fail(SS_ERR_NOMEM, "print: out of host memory") : SS_OK;
}

/* numpy's descr of each dtype; bfloat16 as numpy with ml_dtypes saves it:
 * two opaque bytes ('<V2'), read back with .view(ml_dtypes.bfloat16). */
static const char *npy_descr(ss_dtype dt)
{
    switch (dt) {
    case SS_F32: return "<f4";
    case SS_F64: return "<f8";
    case SS_F16: return "<f2";
    case SS_BF16: return "<V2";
    case SS_I32: return "<i4";
    case SS_I64: return "<i8";
    case SS_I8: return "|i1";
    case SS_U8: return "|u1";
    case SS_BOOL: return "|b1";
    case SS_I16: return "<i2";
    case SS_U16: return "<u2";
    case SS_U32: return "<u4";
    case SS_U64: return "<u8";
    default: return NULL;
    }
}

ss_status ss__scn_npy_write(const char *path, ss_dtype dt, int rank, const int64_t shape[],
                        const void *data)
{
    const char *descr = npy_descr(dt);
    if (!descr)
        return ss__fail(SS_ERR_INVALID, "%s: no .npy type for dtype %d", path, (int)dt);
    char head[512];
    int n = snprintf(head, sizeof head, "{'descr': '%s', 'fortran_order': False, 'shape': (",
                     descr);
    size_t count = 1;
    for (int d = 0; d < rank; d++) {
        n += snprintf(head + n, sizeof head - (size_t)n, "%lld,%s", (long long)shape[d],
                      d + 1 < rank ? " " : "");
        count *= (size_t)shape[d];
    }
    if (rank > 1)
        n--; /* (8, 16), but (8,) */
    n += snprintf(head + n, sizeof head - (size_t)n, "), }");
    /* magic(6) + version(2) + length(2) + header + '\n', a multiple of 64 */
    int total = 10 + n + 1;
    int pad = (64 - total % 64) % 64;
    memset(head + n, ' ', (size_t)pad);
    n += pad;
    head[n++] = '\n';
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(n & 0xff),
                             (unsigned char)(n >> 8)};
    FILE *f = fopen(path, "wb");
    if (!f)
        return ss__fail(SS_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
    size_t bytes = count * ss_dtype_size(dt);
    /* the host is little-endian (as the checkpoint code assumes) */
    bool ok = fwrite(pre, 1, 10, f) == 10 && fwrite(head, 1, (size_t)n, f) == (size_t)n &&
              (bytes == 0 || fwrite(data, 1, bytes, f) == bytes);
    if (fclose(f) != 0 || !ok)
        return ss__fail(SS_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
    return SS_OK;
}

ss_status ss_format_numpy(ss_dtype dtype, int rank, const int64_t shape[], const void *data,
                          char **out)
{
    *out = NULL;
    if (rank < 0 || rank > SS_MAX_RANK || (rank && !shape) || !data)
        return ss__fail(SS_ERR_INVALID, "format numpy: bad rank %d or missing data", rank);
    ss__buf b;
    ss__buf_init(&b);
    ss_status st = ss__scn_np_str(dtype, rank, shape, data, &b);
    if (!st && (b.oom || !b.data))
        st = ss__fail(SS_ERR_NOMEM, "format numpy: out of host memory");
    if (st) {
        ss__buf_free(&b);
        return st;
    }
    *out = b.data; /* the buffer's heap text, NUL-terminated */
    return SS_OK;
}
