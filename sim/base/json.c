/*
 * json.c — JSON text output helpers and the checked parse (see json.h).
 */
#include "json.h"

#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void ss__json_str(ss__buf *b, const char *s)
{
    ss__buf_putc(b, '"');
    const unsigned char *p = (const unsigned char *)s;
    for (;;) {
        const unsigned char *run = p; /* characters written as they are */
        while (*p >= 0x20 && *p != '"' && *p != '\\')
            p++;
        if (p > run)
            ss__buf_putn(b, (const char *)run, (size_t)(p - run));
        if (!*p)
            break;
        switch (*p) {
        case '"': ss__buf_puts(b, "\\\""); break;
        case '\\': ss__buf_puts(b, "\\\\"); break;
        case '\n': ss__buf_puts(b, "\\n"); break;
        case '\r': ss__buf_puts(b, "\\r"); break;
        case '\t': ss__buf_puts(b, "\\t"); break;
        default: ss__buf_printf(b, "\\u%04x", *p);
        }
        p++;
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
    for (int i = 0; i < n; i++) {
        if (i)
            ss__buf_putc(b, ',');
        ss__buf_put_int(b, (long long)v[i]);
    }
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

/* --- Parsing ---------------------------------------------------------------- */

/* cJSON reports a failed allocation and a syntax error alike (NULL). Its
 * allocations go through these hooks, which note a failure in a per-thread
 * flag that ss__json_parse reads. Installed once, for every cJSON user in
 * the process (the hooks call malloc and free, so objects made before or
 * after are interchangeable). */
static _Thread_local bool json_alloc_failed;

static void *json_malloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        json_alloc_failed = true;
    return p;
}

static void json_free(void *p)
{
    free(p);
}

static pthread_once_t json_hooks_once = PTHREAD_ONCE_INIT;

static void json_hooks_install(void)
{
    cJSON_Hooks h = {json_malloc, json_free};
    cJSON_InitHooks(&h);
}

static bool json_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A JSON syntax check that allocates nothing, so that a NULL from cJSON
 * can be told apart from a syntax error even when the cJSON hooks are not
 * ours (a test harness may install its own). It accepts a subset of what
 * cJSON accepts (so a valid text cJSON refused means cJSON ran out of
 * memory): strict JSON with an optional UTF-8 BOM, paired surrogates,
 * numbers of at most 63 characters and nesting of at most
 * JSON_MAX_DEPTH levels. */
enum { JSON_MAX_DEPTH = 1000 };

typedef struct jscan {
    const char *s;
    size_t n, at;
    const char *why; /* set on the first error, at `at` */
} jscan;

static bool js_fail(jscan *j, const char *why)
{
    if (!j->why)
        j->why = why;
    return false;
}

static void js_space(jscan *j)
{
    while (j->at < j->n && json_space(j->s[j->at]))
        j->at++;
}

static int js_hex4(jscan *j)
{
    int v = 0;
    for (int k = 0; k < 4; k++, j->at++) {
        char c = j->at < j->n ? j->s[j->at] : '\0';
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

static bool js_string(jscan *j)
{
    j->at++; /* the opening quote */
    while (j->at < j->n) {
        unsigned char c = (unsigned char)j->s[j->at];
        if (c == '"') {
            j->at++;
            return true;
        }
        if (c < 0x20)
            return js_fail(j, "a control character inside a string");
        if (c != '\\') {
            j->at++;
            continue;
        }
        j->at++;
        char e = j->at < j->n ? j->s[j->at] : '\0';
        if (e && strchr("\"\\/bfnrt", e)) {
            j->at++;
            continue;
        }
        if (e != 'u')
            return js_fail(j, "a bad escape in a string");
        j->at++;
        int u = js_hex4(j);
        if (u < 0)
            return js_fail(j, "a bad \\u escape in a string");
        if (u >= 0xDC00 && u <= 0xDFFF)
            return js_fail(j, "a lone low surrogate in a string");
        if (u >= 0xD800 && u <= 0xDBFF) {
            if (j->at + 1 >= j->n || j->s[j->at] != '\\' || j->s[j->at + 1] != 'u')
                return js_fail(j, "a lone high surrogate in a string");
            j->at += 2;
            int lo = js_hex4(j);
            if (lo < 0xDC00 || lo > 0xDFFF)
                return js_fail(j, "a lone high surrogate in a string");
        }
    }
    return js_fail(j, "an unterminated string");
}

static bool js_digits(jscan *j)
{
    size_t from = j->at;
    while (j->at < j->n && j->s[j->at] >= '0' && j->s[j->at] <= '9')
        j->at++;
    return j->at > from;
}

static bool js_number(jscan *j)
{
    size_t from = j->at;
    if (j->s[j->at] == '-')
        j->at++;
    if (j->at < j->n && j->s[j->at] == '0')
        j->at++;
    else if (!js_digits(j))
        return js_fail(j, "a bad number");
    if (j->at < j->n && j->s[j->at] == '.') {
        j->at++;
        if (!js_digits(j))
            return js_fail(j, "a bad number");
    }
    if (j->at < j->n && (j->s[j->at] == 'e' || j->s[j->at] == 'E')) {
        j->at++;
        if (j->at < j->n && (j->s[j->at] == '+' || j->s[j->at] == '-'))
            j->at++;
        if (!js_digits(j))
            return js_fail(j, "a bad number");
    }
    if (j->at - from > 63) {
        j->at = from;
        return js_fail(j, "a number longer than 63 characters");
    }
    return true;
}

static bool js_value(jscan *j, int depth)
{
    js_space(j);
    if (j->at >= j->n)
        return js_fail(j, "the end of the text where a value should be");
    char c = j->s[j->at];
    if (c == '"')
        return js_string(j);
    if (c == '-' || (c >= '0' && c <= '9'))
        return js_number(j);
    static const char *const words[] = {"null", "true", "false"};
    for (int k = 0; k < 3; k++) {
        size_t len = strlen(words[k]);
        if (j->n - j->at >= len && memcmp(j->s + j->at, words[k], len) == 0) {
            j->at += len;
            return true;
        }
    }
    if (c != '{' && c != '[')
        return js_fail(j, "an unexpected character");
    if (depth >= JSON_MAX_DEPTH)
        return js_fail(j, "nesting deeper than 1000 levels");
    char close = c == '{' ? '}' : ']';
    j->at++;
    js_space(j);
    if (j->at < j->n && j->s[j->at] == close) {
        j->at++;
        return true;
    }
    for (;;) {
        if (close == '}') {
            js_space(j);
            if (j->at >= j->n || j->s[j->at] != '"')
                return js_fail(j, j->at >= j->n ? "the end of the text inside an object"
                                                : "an object key that is not a string");
            if (!js_string(j))
                return false;
            js_space(j);
            if (j->at >= j->n || j->s[j->at] != ':')
                return js_fail(j, "a missing ':' after an object key");
            j->at++;
        }
        if (!js_value(j, depth + 1))
            return false;
        js_space(j);
        if (j->at < j->n && j->s[j->at] == ',') {
            j->at++;
            continue;
        }
        if (j->at < j->n && j->s[j->at] == close) {
            j->at++;
            return true;
        }
        return js_fail(j, j->at >= j->n ? "the end of the text inside a list or object"
                                        : "a missing ',' or closing bracket");
    }
}

ss_status ss__json_parse(const char *text, size_t len, const char *what, cJSON **out)
{
    *out = NULL;
    pthread_once(&json_hooks_once, json_hooks_install);
    json_alloc_failed = false;
    const char *end = NULL;
    /* The length covers the terminating NUL, as cJSON_ParseWithOpts does. */
    cJSON *j = cJSON_ParseWithLengthOpts(text, len + 1, &end, 0);
    if (json_alloc_failed) {
        cJSON_Delete(j);
        return ss__fail(SS_ERR_NOMEM, "out of host memory parsing %s", what);
    }
    if (!j) {
        jscan sc = {text, len, 0, NULL};
        if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
            sc.at = 3;
        if (js_value(&sc, 0))
            /* Valid, yet refused: cJSON's allocation failed (hooks not ours). */
            return ss__fail(SS_ERR_NOMEM, "out of host memory parsing %s", what);
        if (sc.at >= len)
            return ss__fail(SS_ERR_PARSE, "%s is not valid JSON: it ends (after %zu bytes) "
                                          "before its value is complete; truncated?",
                            what, len);
        return ss__fail(SS_ERR_PARSE, "%s is not valid JSON: %s at byte %zu", what, sc.why,
                        sc.at);
    }
    size_t k = end && end >= text ? (size_t)(end - text) : 0;
    while (k < len && json_space(text[k]))
        k++;
    if (k < len) {
        cJSON_Delete(j);
        return ss__fail(SS_ERR_PARSE, "%s has %zu trailing bytes after its JSON value (from "
                                      "byte %zu)",
                        what, len - k, k);
    }
    *out = j;
    return SS_OK;
}
