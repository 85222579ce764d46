/*
 * pystr.c — names as Python writes them: repr() of a str, and the string
 * literals a user writes ('a', "a'b", 'a\'b', '\u00e9').
 *
 * Names are UTF-8 C strings. ss__buf_py_repr follows CPython's unicode_repr:
 * single quotes unless the text holds ' and no ", then double quotes; the
 * chosen quote and backslash escaped; \t \n \r; other ASCII controls and
 * DEL as \xhh; a non-ASCII character as itself when str.isprintable()
 * accepts it, else \xhh, \uhhhh or \Uhhhhhhhh (the smallest that fits).
 * ss__py_str_decode reads such a literal back, so decode(repr(x)) == x.
 */
#include "base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const uint32_t ss__unicode_unprintable[][2];
extern const int ss__unicode_unprintable_count;

/* Python's str.isprintable() for one code point above U+007F. */
static bool printable(uint32_t c)
{
    int lo = 0, hi = ss__unicode_unprintable_count - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (c < ss__unicode_unprintable[mid][0])
            hi = mid - 1;
        else if (c > ss__unicode_unprintable[mid][1])
            lo = mid + 1;
        else
            return false;
    }
    return true;
}

/* One UTF-8 sequence at s: its code point and length, or 0 when s holds no
 * valid (shortest-form, non-surrogate) sequence. */
static int utf8_next(const unsigned char *s, uint32_t *cp)
{
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    int n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    if (n == 0 || (s[0] >= 0xf0 && n != 4))
        return 0;
    uint32_t c = s[0] & (0x7fu >> n);
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3fu);
    }
    static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < least[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return 0;
    *cp = c;
    return n;
}

static int utf8_put(uint32_t c, char out[4])
{
    if (c < 0x80) {
        out[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (char)(0xc0 | (c >> 6));
        out[1] = (char)(0x80 | (c & 0x3f));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (char)(0xe0 | (c >> 12));
        out[1] = (char)(0x80 | ((c >> 6) & 0x3f));
        out[2] = (char)(0x80 | (c & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | (c >> 18));
    out[1] = (char)(0x80 | ((c >> 12) & 0x3f));
    out[2] = (char)(0x80 | ((c >> 6) & 0x3f));
    out[3] = (char)(0x80 | (c & 0x3f));
    return 4;
}

static char repr_quote(const char *s)
{
    return strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';
}

/* The repr of the character at u (inside quote q) into tmp (room for 11
 * bytes and a NUL); *used receives the bytes of u consumed. */
static void repr_char(const unsigned char *u, char q, char tmp[12], int *used)
{
    uint32_t c;
    int n = utf8_next(u, &c);
    *used = n ? n : 1;
    if (n == 0) /* not UTF-8 (only from code): the byte, escaped */
        snprintf(tmp, 12, "\\x%02x", *u);
    else if (c == (uint32_t)q || c == '\\')
        snprintf(tmp, 12, "\\%c", (char)c);
    else if (c == '\t')
        snprintf(tmp, 12, "\\t");
    else if (c == '\n')
        snprintf(tmp, 12, "\\n");
    else if (c == '\r')
        snprintf(tmp, 12, "\\r");
    else if (c < 0x20 || c == 0x7f)
        snprintf(tmp, 12, "\\x%02x", (unsigned)c);
    else if (c < 0x7f || printable(c)) {
        memcpy(tmp, u, (size_t)n);
        tmp[n] = '\0';
    } else if (c <= 0xff)
        snprintf(tmp, 12, "\\x%02x", (unsigned)c);
    else if (c <= 0xffff)
        snprintf(tmp, 12, "\\u%04x", (unsigned)c);
    else
        snprintf(tmp, 12, "\\U%08x", (unsigned)c);
}

void ss__buf_py_repr(ss__buf *b, const char *s)
{
    char q = repr_quote(s), tmp[12];
    ss__buf_putc(b, q);
    for (const unsigned char *u = (const unsigned char *)s; *u;) {
        int used;
        repr_char(u, q, tmp, &used);
        ss__buf_puts(b, tmp);
        u += used;
    }
    ss__buf_putc(b, q);
}

const char *ss__py_repr(const char *s, char *out, size_t cap)
{
    char q = repr_quote(s), tmp[12];
    size_t len = 0;
    if (cap < 6) {
        if (cap)
            out[0] = '\0';
        return out;
    }
    out[len++] = q;
    for (const unsigned char *u = (const unsigned char *)s; *u;) {
        int used;
        repr_char(u, q, tmp, &used);
        size_t n = strlen(tmp);
        if (len + n + 5 > cap) { /* room for "...", the quote and the NUL */
            memcpy(out + len, "...", 3);
            len += 3;
            break;
        }
        memcpy(out + len, tmp, n);
        len += n;
        u += used;
    }
    out[len++] = q;
    out[len] = '\0';
    return out;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Append code point c (UTF-8) to out[*len]; false when it does not fit. */
static bool put_cp(uint32_t c, char *out, size_t cap, size_t *len)
{
    char tmp[4];
    int n = utf8_put(c, tmp);
    if (*len + (size_t)n >= cap)
        return false;
    memcpy(out + *len, tmp, (size_t)n);
    *len += (size_t)n;
    return true;
}

const char *ss__py_str_decode(const char *p, char *out, size_t cap, const char **end)
{
    char q = *p;
    size_t len = 0;
    *end = p;
    if (q != '\'' && q != '"')
        return "expected a quote";
    const char *s = p + 1;
    for (;;) {
        *end = s;
        uint32_t c;
        if (*s == '\0' || *s == '\n')
            return "unterminated string";
        if (*s == q) {
            *end = s + 1;
            out[len] = '\0';
            return NULL;
        }
        if (*s != '\\') {
            int n = utf8_next((const unsigned char *)s, &c);
            if (n == 0)
                return "invalid UTF-8 in a name";
            if (len + (size_t)n >= cap)
                return "name too long";
            memcpy(out + len, s, (size_t)n);
            len += (size_t)n;
            s += n;
            continue;
        }
        /* An escape, as in a Python string literal. */
        char e = s[1];
        int digits = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
        const char *simple = strchr("\\'\"abfnrtv", e);
        if (e && simple) {
            static const char from[] = "\\'\"abfnrtv", to[] = "\\'\"\a\b\f\n\r\t\v";
            c = (unsigned char)to[strchr(from, e) - from];
            s += 2;
        } else if (digits) {
            c = 0;
            for (int i = 0; i < digits; i++) {
                int h = hexval(s[2 + i]);
                if (h < 0)
                    return e == 'x' ? "truncated \\xXX escape"
                                    : e == 'u' ? "truncated \\uXXXX escape"
                                               : "truncated \\UXXXXXXXX escape";
                c = c * 16 + (uint32_t)h;
            }
            if (c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
                return "escape is not a Unicode scalar value";
            s += 2 + digits;
        } else if (e >= '0' && e <= '7') {
            c = 0;
            int i = 1;
            for (; i <= 3 && s[i] >= '0' && s[i] <= '7'; i++)
                c = c * 8 + (uint32_t)(s[i] - '0');
            s += i;
        } else if (e == '\0' || e == '\n') {
            return "unterminated string";
        } else if (e == 'N') {
            return "\\N{...} escapes are not supported";
        } else {
            /* Python keeps an unknown escape as written: backslash, letter. */
            c = '\\';
            s += 1;
        }
        if (c == 0)
            return "a name cannot contain NUL";
        if (!put_cp(c, out, cap, &len))
            return "name too long";
    }
}

const char *ss__py_str_decode_alloc(const char *p, char **out, const char **end)
{
    /* The decoded text is never longer than its literal (every escape
     * yields at most as many bytes as it takes), so strlen(p) + 1 holds it. */
    size_t cap = strlen(p) + 1;
    *out = NULL;
    char *buf = malloc(cap);
    if (!buf) {
        *end = p;
        return "out of host memory";
    }
    const char *why = ss__py_str_decode(p, buf, cap, end);
    if (why)
        free(buf);
    else
        *out = buf;
    return why;
}

const char *ss__py_str_intern(const char *p, const char **out, const char **end)
{
    char *text;
    const char *why = ss__py_str_decode_alloc(p, &text, end);
    if (!why && ss_name_intern(text, out) != SS_OK)
        why = "out of host memory";
    free(text);
    return why;
}
