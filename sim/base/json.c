/*
 * json.c — JSON text output helpers (see json.h).
 */
#include "json.h"

void ss__json_str(ss__buf *b, const char *s)
{
    ss__buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': ss__buf_puts(b, "\\\""); break;
        case '\\': ss__buf_puts(b, "\\\\"); break;
        case '\n': ss__buf_puts(b, "\\n"); break;
        case '\r': ss__buf_puts(b, "\\r"); break;
        case '\t': ss__buf_puts(b, "\\t"); break;
        default:
            if (*p < 0x20)
                ss__buf_printf(b, "\\u%04x", *p);
            else
                ss__buf_putc(b, (char)*p);
        }
    }
    ss__buf_putc(b, '"');
}

void ss__json_key(ss__buf *b, const char *key)
{
    ss__json_str(b, key);
    ss__buf_putc(b, ':');
}

void ss__json_int_array(ss__buf *b, int n, const int64_t v[])
{
    ss__buf_putc(b, '[');
    for (int i = 0; i < n; i++)
        ss__buf_printf(b, i ? ",%lld" : "%lld", (long long)v[i]);
    ss__buf_putc(b, ']');
}

void ss__json_spec(ss__buf *b, const ss_spec *spec)
{
    ss__buf_putc(b, '[');
    for (int d = 0; d < spec->ndims; d++) {
        const ss_spec_dim *e = &spec->dims[d];
        if (d)
            ss__buf_putc(b, ',');
        if (e->unconstrained) {
            ss__json_str(b, "UNCONSTRAINED");
        } else if (e->naxes == 0) {
            ss__buf_puts(b, "null");
        } else if (e->naxes == 1) {
            ss__json_str(b, e->axes[0]);
        } else {
            ss__buf_putc(b, '[');
            for (int k = 0; k < e->naxes; k++) {
                if (k)
                    ss__buf_putc(b, ',');
                ss__json_str(b, e->axes[k]);
            }
            ss__buf_putc(b, ']');
        }
    }
    ss__buf_putc(b, ']');
}
