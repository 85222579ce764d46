/*
 * buf.c — the growable text buffer and small arithmetic helpers.
 */
#include "base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ss__buf_init(ss__buf *b)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->oom = false;
}

void ss__buf_free(ss__buf *b)
{
    free(b->data);
    ss__buf_init(b);
}

void ss__buf_clear(ss__buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

static bool buf_reserve(ss__buf *b, size_t extra)
{
    if (b->oom)
        return false;
    if (b->len + extra + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) {
        b->oom = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void ss__buf_putn_grow(ss__buf *b, const char *s, size_t n)
{
    if (!buf_reserve(b, n))
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void ss__buf_put_int(ss__buf *b, long long v)
{
    char digits[24];
    int n = 0;
    /* Through the unsigned magnitude: -LLONG_MIN does not fit a long long. */
    unsigned long long m = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do {
        digits[sizeof digits - 1 - n++] = (char)('0' + m % 10);
        m /= 10;
    } while (m);
    if (v < 0)
        digits[sizeof digits - 1 - n++] = '-';
    ss__buf_putn(b, digits + sizeof digits - n, (size_t)n);
}

void ss__buf_repeat(ss__buf *b, const char *s, long n)
{
    for (long i = 0; i < n; i++)
        ss__buf_puts(b, s);
}

/* One vsnprintf into the spare room when the text fits it (most appends);
 * a second, into room grown to the measured length, when it does not. The
 * buffer grows exactly when and as much as the text needs. */
void ss__buf_vprintf(ss__buf *b, const char *fmt, va_list ap)
{
    if (b->oom)
        return;
    size_t room = b->data ? b->cap - b->len : 0;
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(room ? b->data + b->len : NULL, room, fmt, ap2);
    va_end(ap2);
    if (n >= 0 && (size_t)n < room) {
        b->len += (size_t)n;
        return;
    }
    if (room)
        b->data[b->len] = '\0';
    if (n < 0 || !buf_reserve(b, (size_t)n))
        return;
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void ss__buf_printf(ss__buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ss__buf_vprintf(b, fmt, ap);
    va_end(ap);
}

ss_status ss__buf_copy_out(const ss__buf *b, char *out, size_t cap, size_t *len)
{
    if (b->oom)
        return ss__fail(SS_ERR_NOMEM, "out of host memory while formatting text");
    if (!out || cap < b->len + 1) {
        if (out && cap)
            out[0] = '\0';
        return ss__fail(SS_ERR_RANGE, "output buffer of %zu bytes is too small for %zu bytes",
                        cap, b->len + 1);
    }
    if (b->len)
        memcpy(out, b->data, b->len);
    out[b->len] = '\0';
    if (len)
        *len = b->len;
    return SS_OK;
}

void ss__buf_int_tuple(ss__buf *b, int n, const int64_t v[])
{
    ss__buf_putc(b, '(');
    for (int i = 0; i < n; i++) {
        if (i)
            ss__buf_putn(b, ", ", 2);
        ss__buf_put_int(b, (long long)v[i]);
    }
    if (n == 1)
        ss__buf_putc(b, ',');
    ss__buf_putc(b, ')');
}

long ss__floordiv(long a, long b)
{
    long q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return q;
}

long ss__floormod(long a, long b)
{
    return a - ss__floordiv(a, b) * b;
}

bool ss__mul_i64_portable(int64_t a, int64_t b, int64_t *out)
{
    /* CERT INT32-C: compare against the bounds divided by one factor. */
    if (a > 0) {
        if (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a)
            return false;
    } else if (a < 0) {
        if (b > 0 ? a < INT64_MIN / b : b < INT64_MAX / a)
            return false;
    }
    *out = a * b;
    return true;
}

bool ss__product(int n, const int64_t v[], int64_t *out)
{
    int64_t p = 1;
    for (int i = 0; i < n; i++)
        if (v[i] == 0) {
            *out = 0; /* an empty array, whatever the other sizes */
            return true;
        }
    for (int i = 0; i < n; i++)
        if (!ss__mul_i64_checked(p, v[i], &p))
            return false;
    *out = p;
    return true;
}

void *ss__grow(void *data, int *cap, int need, size_t size, int first)
{
    if (need <= *cap && data)
        return data;
    int c = *cap ? *cap : first;
    while (c < need)
        c *= 2;
    void *p = realloc(data, size * (size_t)c);
    if (p)
        *cap = c;
    return p;
}
