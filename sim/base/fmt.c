/*
 * fmt.c — the library's one way of writing a byte count ("1.5 MiB") and an
 * array's shape ("f32[8,1024]"), so every message and report agrees.
 */
#include "base.h"

#include <stdio.h>

/* Bytes in binary units, `exact` choosing the style (see base.h). */
static void fmt_bytes(char *out, size_t cap, double bytes, bool exact)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024.0 && u < 4) {
        bytes /= 1024.0;
        u++;
    }
    if (u == 0)
        snprintf(out, cap, "%.0f B", bytes);
    else if (!exact)
        snprintf(out, cap, "%.1f %s", bytes, units[u]);
    else if (bytes == (double)(long long)bytes)
        snprintf(out, cap, "%lld %s", (long long)bytes, units[u]);
    else
        snprintf(out, cap, "%.2f %s", bytes, units[u]);
}

void ss__fmt_bytes(char *out, size_t cap, double bytes) { fmt_bytes(out, cap, bytes, false); }

void ss_size_format(char *out, size_t cap, double bytes) { fmt_bytes(out, cap, bytes, false); }

void ss__fmt_bytes_exact(char *out, size_t cap, double bytes) { fmt_bytes(out, cap, bytes, true); }

const char *ss__shape_text(char *out, size_t cap, ss_dtype dtype, int rank,
                           const int64_t shape[])
{
    size_t at = (size_t)snprintf(out, cap, "%s[", ss_dtype_name(dtype));
    for (int d = 0; d < rank && at < cap; d++)
        at += (size_t)snprintf(out + at, cap - at, d ? ",%lld" : "%lld", (long long)shape[d]);
    if (at < cap)
        snprintf(out + at, cap - at, "]");
    return out;
}

void ss__shape_repr_buf(ss__buf *b, ss_dtype dtype, int rank, const int64_t shape[])
{
    char text[SS__SHAPE_TEXT_MAX];
    ss__buf_puts(b, ss__shape_text(text, sizeof text, dtype, rank, shape));
}
