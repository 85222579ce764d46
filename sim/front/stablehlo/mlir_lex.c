/*
 * mlir_lex.c — the module arena and the character-level scanning of MLIR
 * text: blanks and comments, identifiers with their sigils, strings with
 * MLIR's escapes (\\ \" \n \t \HH), integer and float literals, and the
 * located one-line errors.
 */
#include "front/stablehlo/mlir_internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- arena ---------------------------------------------------------------- */

void *ss__mlir_alloc(ss__mlir_arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (n == 0)
        n = 16;
    ss__mlir_chunk *c = a->head;
    if (!c || c->cap - c->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        if (a->total + cap > a->limit)
            return NULL;
        c = malloc(sizeof *c + cap);
        if (!c)
            return NULL;
        c->used = 0;
        c->cap = cap;
        c->next = a->head;
        a->head = c;
        a->total += cap;
    }
    void *r = c->data + c->used;
    c->used += n;
    memset(r, 0, n);
    return r;
}

char *ss__mlir_strndup(ss__mlir_arena *a, const char *s, size_t n)
{
    char *r = ss__mlir_alloc(a, n + 1);
    if (r) {
        memcpy(r, s, n);
        r[n] = '\0';
    }
    return r;
}

void ss__mlir_arena_free(ss__mlir_arena *a)
{
    ss__mlir_chunk *c = a->head;
    while (c) {
        ss__mlir_chunk *next = c->next;
        free(c);
        c = next;
    }
    a->head = NULL;
    a->total = 0;
}

void ss__mlir_vec_push(ss__mlir_vec *v, void *x)
{
    if (v->oom)
        return;
    if (v->n == v->cap) {
        void **nv = ss__grow(v->v, &v->cap, v->n + 1, sizeof *v->v, 8);
        if (!nv) {
            v->oom = true;
            return;
        }
        v->v = nv;
    }
    v->v[v->n++] = x;
}

void ss__mlir_vec_free(ss__mlir_vec *v)
{
    free(v->v);
    v->v = NULL;
    v->n = v->cap = 0;
}

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211u;
    return h;
}

int ss__mlir_hmap_get(const ss__mlir_hmap *h, const char *key)
{
    if (!h->cap)
        return -1;
    size_t mask = (size_t)h->cap - 1;
    for (size_t i = hash_str(key) & mask;; i = (i + 1) & mask) {
        if (!h->keys[i])
            return -1;
        if (strcmp(h->keys[i], key) == 0)
            return h->vals[i];
    }
}

static bool hmap_grow(ss__mlir_hmap *h)
{
    int ncap = h->cap ? h->cap * 2 : 64;
    const char **keys = calloc((size_t)ncap, sizeof *keys);
    int *vals = calloc((size_t)ncap, sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return false;
    }
    size_t mask = (size_t)ncap - 1;
    for (int j = 0; j < h->cap; j++) {
        if (!h->keys[j])
            continue;
        size_t i = hash_str(h->keys[j]) & mask;
        while (keys[i])
            i = (i + 1) & mask;
        keys[i] = h->keys[j];
        vals[i] = h->vals[j];
    }
    free(h->keys);
    free(h->vals);
    h->keys = keys;
    h->vals = vals;
    h->cap = ncap;
    return true;
}

int ss__mlir_hmap_put(ss__mlir_hmap *h, const char *key, int val)
{
    if ((h->n + 1) * 2 > h->cap && !hmap_grow(h))
        return -2;
    size_t mask = (size_t)h->cap - 1;
    size_t i = hash_str(key) & mask;
    for (; h->keys[i]; i = (i + 1) & mask)
        if (strcmp(h->keys[i], key) == 0) {
            int old = h->vals[i];
            h->vals[i] = val;
            return old;
        }
    h->keys[i] = key;
    h->vals[i] = val;
    h->n++;
    return -1;
}

void ss__mlir_hmap_free(ss__mlir_hmap *h)
{
    free(h->keys);
    free(h->vals);
    h->keys = NULL;
    h->vals = NULL;
    h->cap = h->n = 0;
}

/* ---- errors ----------------------------------------------------------------- */

static bool vfail(ss__mlir_parser *p, const char *at, ss_status st, const char *fmt, va_list ap)
{
    if (p->failed)
        return false;
    p->failed = true;
    p->status = st;
    /* Line and column of `at` (1-based; columns count bytes). */
    int line = 1;
    const char *ls = p->text;
    if (at > p->end)
        at = p->end;
    for (const char *q = p->text; q < at; q++)
        if (*q == '\n') {
            line++;
            ls = q + 1;
        }
    char msg[600];
    vsnprintf(msg, sizeof msg, fmt, ap);
    /* One line: text quoted from the input may hold line breaks. */
    for (char *c = msg; *c; c++)
        if ((unsigned char)*c < 0x20)
            *c = ' ';
    ss__fail(st, "%s:%d:%d: %s", p->file ? p->file : "<text>", line, (int)(at - ls) + 1, msg);
    return false;
}

bool ss__mlir_err(ss__mlir_parser *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(p, p->p, SS_ERR_PARSE, fmt, ap);
    va_end(ap);
    return false;
}

bool ss__mlir_err_at(ss__mlir_parser *p, const char *at, ss_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(p, at ? at : p->p, st, fmt, ap);
    va_end(ap);
    return false;
}

bool ss__mlir_oom(ss__mlir_parser *p)
{
    return ss__mlir_err_at(p, p->p, SS_ERR_NOMEM, "out of memory reading the module");
}

bool ss__mlir_enter(ss__mlir_parser *p)
{
    if (p->failed)
        return false;
    if (++p->depth > SS__MLIR_MAX_DEPTH)
        return ss__mlir_err(p, "nesting deeper than %d levels", SS__MLIR_MAX_DEPTH);
    return true;
}

void ss__mlir_leave(ss__mlir_parser *p)
{
    p->depth--;
}

/* ---- blanks ----------------------------------------------------------------- */

void ss__mlir_ws(ss__mlir_parser *p)
{
    const char *s = p->p;
    for (;;) {
        if (*s == '\n') {
            p->line++;
            p->line_start = ++s;
        } else if (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\f' || *s == '\v') {
            s++;
        } else if (s[0] == '/' && s[1] == '/') {
            while (*s && *s != '\n')
                s++;
        } else {
            break;
        }
    }
    p->p = s;
}

bool ss__mlir_at_line_start(ss__mlir_parser *p)
{
    ss__mlir_ws(p);
    /* Back over blanks only (a comment ends its line): cheap on long lines. */
    const char *q = p->p;
    while (q > p->text && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r'))
        q--;
    return q == p->text || q[-1] == '\n';
}

bool ss__mlir_peek(ss__mlir_parser *p, const char *s)
{
    ss__mlir_ws(p);
    if (*p->p != *s) /* most peeks: the first character tells */
        return !*s;
    return strncmp(p->p, s, strlen(s)) == 0;
}

bool ss__mlir_accept(ss__mlir_parser *p, const char *s)
{
    if (!ss__mlir_peek(p, s))
        return false;
    p->p += strlen(s);
    return true;
}

bool ss__mlir_expect(ss__mlir_parser *p, const char *s, const char *what)
{
    if (ss__mlir_accept(p, s))
        return true;
    if (!*p->p)
        return ss__mlir_err(p, "expected '%s' %s, found the end of the text", s, what);
    return ss__mlir_err(p, "expected '%s' %s, found '%.12s'", s, what, p->p);
}

/* ---- identifiers ------------------------------------------------------------ */

bool ss__mlir_is_bare_start(int c)
{
    return isalpha(c) || c == '_';
}

static bool is_bare_char(int c)
{
    return isalnum(c) || c == '_' || c == '$' || c == '.';
}

const char *ss__mlir_bare_id(ss__mlir_parser *p)
{
    ss__mlir_ws(p);
    const char *s = p->p;
    if (!ss__mlir_is_bare_start((unsigned char)*s)) {
        ss__mlir_err(p, "expected an identifier, found '%.12s'", s);
        return NULL;
    }
    while (is_bare_char((unsigned char)*s))
        s++;
    const char *r = ss__mlir_strndup(&p->m->arena, p->p, (size_t)(s - p->p));
    if (!r) {
        ss__mlir_oom(p);
        return NULL;
    }
    p->p = s;
    return r;
}

bool ss__mlir_peek_kw(ss__mlir_parser *p, const char *kw)
{
    ss__mlir_ws(p);
    if (*p->p != *kw) /* most peeks: the first character tells */
        return !*kw && !is_bare_char((unsigned char)*p->p);
    size_t n = strlen(kw);
    return strncmp(p->p, kw, n) == 0 && !is_bare_char((unsigned char)p->p[n]);
}

bool ss__mlir_accept_kw(ss__mlir_parser *p, const char *kw)
{
    if (!ss__mlir_peek_kw(p, kw))
        return false;
    p->p += strlen(kw);
    return true;
}

const char *ss__mlir_suffix_id(ss__mlir_parser *p, char sigil)
{
    ss__mlir_ws(p);
    const char *s = p->p;
    if (*s != sigil) {
        ss__mlir_err(p, "expected '%c' and a name, found '%.12s'", sigil, s);
        return NULL;
    }
    s++;
    const char *b = s;
    while (isalnum((unsigned char)*s) || *s == '_' || *s == '$' || *s == '.' || *s == '-')
        s++;
    if (s == b) {
        ss__mlir_err(p, "expected a name after '%c'", sigil);
        return NULL;
    }
    const char *r = ss__mlir_strndup(&p->m->arena, p->p, (size_t)(s - p->p));
    if (!r) {
        ss__mlir_oom(p);
        return NULL;
    }
    p->p = s;
    return r;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

char *ss__mlir_string(ss__mlir_parser *p, size_t *len)
{
    ss__mlir_ws(p);
    if (*p->p != '"') {
        ss__mlir_err(p, "expected a string, found '%.12s'", p->p);
        return NULL;
    }
    const char *s = p->p + 1;
    /* The decoded text is never longer than the written one. */
    const char *e = s;
    while (*e && *e != '"' && *e != '\n')
        e += (*e == '\\' && e[1]) ? 2 : 1;
    if (*e != '"') {
        ss__mlir_err(p, "unterminated string");
        return NULL;
    }
    char *out = ss__mlir_alloc(&p->m->arena, (size_t)(e - s) + 1);
    if (!out) {
        ss__mlir_oom(p);
        return NULL;
    }
    size_t n = 0;
    while (s < e) {
        if (*s != '\\') {
            out[n++] = *s++;
            continue;
        }
        char c = s[1];
        if (c == '\\' || c == '"' || c == '\'') {
            out[n++] = c;
            s += 2;
        } else if (c == 'n') {
            out[n++] = '\n';
            s += 2;
        } else if (c == 't') {
            out[n++] = '\t';
            s += 2;
        } else if (hexval((unsigned char)c) >= 0 && hexval((unsigned char)s[2]) >= 0) {
            out[n++] = (char)(hexval((unsigned char)c) * 16 + hexval((unsigned char)s[2]));
            s += 3;
        } else {
            ss__mlir_err_at(p, s, SS_ERR_PARSE, "unknown escape '\\%c' in a string", c ? c : ' ');
            return NULL;
        }
    }
    out[n] = '\0';
    *len = n;
    p->p = e + 1;
    return out;
}

const char *ss__mlir_symbol(ss__mlir_parser *p)
{
    ss__mlir_ws(p);
    if (*p->p != '@')
        return NULL;
    p->p++;
    if (*p->p == '"') {
        size_t n;
        return ss__mlir_string(p, &n);
    }
    const char *s = p->p;
    while (isalnum((unsigned char)*s) || *s == '_' || *s == '$' || *s == '.' || *s == '-')
        s++;
    if (s == p->p) {
        ss__mlir_err(p, "expected a symbol name after '@'");
        return NULL;
    }
    const char *r = ss__mlir_strndup(&p->m->arena, p->p, (size_t)(s - p->p));
    if (!r) {
        ss__mlir_oom(p);
        return NULL;
    }
    p->p = s;
    return r;
}

/* ---- numbers ------------------------------------------------------------------ */

bool ss__mlir_peek_number(ss__mlir_parser *p, bool *is_float)
{
    ss__mlir_ws(p);
    const char *s = p->p;
    if (*s == '-' || *s == '+')
        s++;
    if (!isdigit((unsigned char)*s))
        return false;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        *is_float = false;
        return true;
    }
    while (isdigit((unsigned char)*s))
        s++;
    *is_float = *s == '.' || *s == 'e' || *s == 'E';
    return true;
}

bool ss__mlir_int_lit(ss__mlir_parser *p, bool *neg, uint64_t *mag, bool *hex)
{
    ss__mlir_ws(p);
    const char *s = p->p;
    *neg = false;
    *hex = false;
    if (*s == '-' || *s == '+') {
        *neg = *s == '-';
        s++;
    }
    uint64_t v = 0;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
        *hex = true;
        const char *b = s;
        while (hexval((unsigned char)*s) >= 0) {
            if (v >> 60)
                return ss__mlir_err(p, "hexadecimal literal wider than 64 bits");
            v = v * 16 + (uint64_t)hexval((unsigned char)*s++);
        }
        if (s == b)
            return ss__mlir_err(p, "expected hexadecimal digits after '0x'");
    } else {
        if (!isdigit((unsigned char)*s))
            return ss__mlir_err(p, "expected an integer, found '%.12s'", p->p);
        while (isdigit((unsigned char)*s)) {
            unsigned d = (unsigned)(*s++ - '0');
            if (v > (UINT64_MAX - d) / 10)
                return ss__mlir_err(p, "integer literal out of range");
            v = v * 10 + d;
        }
    }
    if (isalpha((unsigned char)*s) || *s == '_')
        return ss__mlir_err_at(p, s, SS_ERR_PARSE, "unexpected '%c' after a number", *s);
    *mag = v;
    p->p = s;
    return true;
}

bool ss__mlir_float_lit(ss__mlir_parser *p, double *out)
{
    ss__mlir_ws(p);
    const char *s = p->p;
    const char *q = s;
    if (*q == '-' || *q == '+')
        q++;
    if (!isdigit((unsigned char)*q))
        return ss__mlir_err(p, "expected a number, found '%.12s'", s);
    while (isdigit((unsigned char)*q))
        q++;
    if (*q == '.') {
        q++;
        while (isdigit((unsigned char)*q))
            q++;
    }
    if (*q == 'e' || *q == 'E') {
        const char *e = q + 1;
        if (*e == '+' || *e == '-')
            e++;
        if (!isdigit((unsigned char)*e))
            return ss__mlir_err_at(p, q, SS_ERR_PARSE, "expected digits in the exponent");
        while (isdigit((unsigned char)*e))
            e++;
        q = e;
    }
    if (isalpha((unsigned char)*q) || *q == '_')
        return ss__mlir_err_at(p, q, SS_ERR_PARSE, "unexpected '%c' after a number", *q);
    char buf[128];
    size_t n = (size_t)(q - s);
    if (n >= sizeof buf)
        return ss__mlir_err(p, "number literal longer than %d characters", (int)sizeof buf - 1);
    memcpy(buf, s, n);
    buf[n] = '\0';
    errno = 0;
    *out = strtod(buf, NULL);
    /* MLIR would keep an overflowing literal as an infinity that no print
     * can spell back as a decimal: refuse it (an underflow to 0 is kept). */
    if (errno == ERANGE && isinf(*out))
        return ss__mlir_err(p, "number %s is out of the range of f64", buf);
    p->p = q;
    return true;
}

const char *ss__mlir_balanced(ss__mlir_parser *p, char open, char close)
{
    /* Squeeze blanks to one space so the text compares across spellings. */
    ss__buf b;
    ss__buf_init(&b);
    int depth = 1;
    bool space = false;
    const char *s = p->p;
    for (;;) {
        char c = *s;
        if (!c) {
            ss__buf_free(&b);
            ss__mlir_err(p, "unbalanced '%c': no matching '%c'", open, close);
            return NULL;
        }
        if (c == '"') {
            /* Strings are copied whole (escapes kept as written). */
            const char *e = s + 1;
            while (*e && *e != '"' && *e != '\n')
                e += (*e == '\\' && e[1]) ? 2 : 1;
            if (*e != '"') {
                ss__buf_free(&b);
                ss__mlir_err_at(p, s, SS_ERR_PARSE, "unterminated string");
                return NULL;
            }
            if (space && b.len)
                ss__buf_putc(&b, ' ');
            space = false;
            ss__buf_putn(&b, s, (size_t)(e + 1 - s));
            s = e + 1;
            continue;
        }
        if (c == '\n') {
            p->line++;
            p->line_start = s + 1;
        }
        if (isspace((unsigned char)c)) {
            space = true;
            s++;
            continue;
        }
        if (c == open && !(c == '<' && s > p->text && s[-1] == '-'))
            depth++;
        else if (c == close && !(c == '>' && s > p->text && s[-1] == '-')) {
            if (--depth == 0)
                break;
        }
        if (space && b.len)
            ss__buf_putc(&b, ' ');
        space = false;
        ss__buf_putc(&b, c);
        s++;
    }
    p->p = s + 1;
    const char *r = b.oom ? NULL : ss__mlir_strndup(&p->m->arena, b.data ? b.data : "", b.len);
    ss__buf_free(&b);
    if (!r)
        ss__mlir_oom(p);
    return r;
}
