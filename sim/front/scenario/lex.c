/*
 * lex.c — the scenario language's tokens, plus the arena and error
 * helpers every scenario module shares.
 *
 * Lines work as in Python: a logical line ends at a newline outside
 * brackets, indentation at the start of a logical line opens (INDENT) or
 * closes (DEDENT) a block, blank and comment-only lines do not count, and a
 * backslash at the end of a line joins it to the next. Tabs advance to the
 * next multiple of 8. It does not know keywords: the parser decides what a
 * name means from where it stands.
 */
#include "scenario.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- Arena ---------------------------------------------------------------- */

struct ss__scn_arena_block {
    ss__scn_arena_block *next;
    size_t cap;
    _Alignas(16) unsigned char data[];
};

#define SS__SCN_ARENA_LIMIT ((size_t)256 << 20)

void ss__scn_arena_init(ss__scn_arena *a) { memset(a, 0, sizeof *a); }

void ss__scn_arena_free(ss__scn_arena *a)
{
    ss__scn_arena_block *b = a->head;
    while (b) {
        ss__scn_arena_block *next = b->next;
        free(b);
        b = next;
    }
    for (int i = 0; i < a->nowned; i++)
        ss__file_release(&a->owned[i]);
    free(a->owned);
    memset(a, 0, sizeof *a);
}

bool ss__scn_arena_own_file(ss__scn_arena *a, const ss__file *f)
{
    if (a->nowned == a->capowned) {
        int ncap = a->capowned ? 2 * a->capowned : 16;
        ss__file *n = ncap > a->capowned ? realloc(a->owned, sizeof *n * (size_t)ncap) : NULL;
        if (!n)
            return false;
        a->owned = n;
        a->capowned = ncap;
    }
    a->owned[a->nowned++] = *f;
    return true;
}

bool ss__scn_arena_own(ss__scn_arena *a, void *p)
{
    return ss__scn_arena_own_file(a, &(ss__file){p, 0, false});
}

void *ss__scn_alloc(ss__scn_arena *a, size_t bytes)
{
    bytes = (bytes + 15) & ~(size_t)15;
    if (bytes == 0)
        bytes = 16;
    if (a->oom || bytes > SS__SCN_ARENA_LIMIT || a->total + bytes > SS__SCN_ARENA_LIMIT) {
        a->oom = true;
        return NULL;
    }
    if (!a->head || a->used + bytes > a->cap) {
        size_t cap = bytes > 65536 ? bytes : 65536;
        ss__scn_arena_block *b = malloc(sizeof *b + cap);
        if (!b) {
            a->oom = true;
            return NULL;
        }
        b->next = a->head;
        b->cap = cap;
        a->head = b;
        a->used = 0;
        a->cap = cap;
    }
    void *p = a->head->data + a->used;
    a->used += bytes;
    a->total += bytes;
    memset(p, 0, bytes);
    return p;
}

char *ss__scn_strndup(ss__scn_arena *a, const char *s, size_t n)
{
    char *d = ss__scn_alloc(a, n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

ss_status ss__scn_fail(ss__scn_error *err, ss__scn_loc loc, const char *fmt, ...)
{
    if (!err->set) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        /* One line: library messages are one line, but be sure. */
        for (char *p = err->msg; *p; p++)
            if (*p == '\n' || *p == '\r')
                *p = ' ';
        err->loc = loc;
        err->set = true;
    }
    return SS_ERR_PARSE;
}

/* --- Lexer ---------------------------------------------------------------- */

typedef struct lexer {
    const char *src;
    size_t len, pos;
    int line, col;
    int depth; /* open brackets */
    ss__scn_loc open[64]; /* where the innermost open brackets are */
    int indents[128];
    int nindents;
    bool at_line_start;
    ss__scn_arena *arena;
    ss__scn_tokens *out;
    ss__scn_error *err;
} lexer;

static ss_status push(lexer *lx, ss__scn_tok_kind kind, ss__scn_loc loc, size_t offset, const char *s,
                      size_t n)
{
    ss__scn_tokens *t = lx->out;
    if (t->n == t->cap) {
        int cap = t->cap ? t->cap * 2 : 256;
        if (cap > (1 << 22))
            return ss__scn_fail(lx->err, loc, "the scenario is too long (more than %d tokens)",
                            1 << 22);
        ss__scn_token *v = realloc(t->v, sizeof *v * (size_t)cap);
        if (!v)
            return ss__scn_fail(lx->err, loc, "out of host memory");
        t->v = v;
        t->cap = cap;
    }
    ss__scn_token *k = &t->v[t->n];
    memset(k, 0, sizeof *k);
    k->kind = kind;
    k->loc = loc;
    k->offset = offset;
    k->text = ss__scn_strndup(lx->arena, s, n);
    if (!k->text)
        return ss__scn_fail(lx->err, loc, "out of host memory");
    t->n++;
    return SS_OK;
}

static int peekc(const lexer *lx, size_t ahead)
{
    return lx->pos + ahead < lx->len ? (unsigned char)lx->src[lx->pos + ahead] : -1;
}

static void advance(lexer *lx)
{
    if (lx->pos >= lx->len)
        return;
    if (lx->src[lx->pos] == '\n') {
        lx->line++;
        lx->col = 1;
    } else {
        lx->col++;
    }
    lx->pos++;
}

static ss__scn_loc here(const lexer *lx) { return (ss__scn_loc){lx->line, lx->col}; }

/* At the start of a logical line: measure indentation, skip blank lines,
 * emit INDENT/DEDENT. */
static ss_status line_start(lexer *lx)
{
    for (;;) {
        int width = 0;
        while (peekc(lx, 0) == ' ' || peekc(lx, 0) == '\t' || peekc(lx, 0) == '\f') {
            width = peekc(lx, 0) == '\t' ? (width / 8 + 1) * 8 : width + 1;
            advance(lx);
        }
        int c = peekc(lx, 0);
        if (c == '\r' && peekc(lx, 1) == '\n')
            advance(lx), c = '\n';
        if (c == '#') {
            while (peekc(lx, 0) != -1 && peekc(lx, 0) != '\n')
                advance(lx);
            c = peekc(lx, 0);
        }
        if (c == '\n') {
            advance(lx);
            continue;
        }
        if (c == -1)
            return SS_OK; /* EOF closes blocks */
        ss__scn_loc loc = here(lx);
        int cur = lx->indents[lx->nindents - 1];
        if (width > cur) {
            if (lx->nindents == (int)(sizeof lx->indents / sizeof lx->indents[0]))
                return ss__scn_fail(lx->err, loc, "blocks nested too deeply (more than %d levels)",
                                (int)(sizeof lx->indents / sizeof lx->indents[0]) - 1);
            lx->indents[lx->nindents++] = width;
            return push(lx, SS__SCN_TK_INDENT, loc, lx->pos, "", 0);
        }
        while (width < lx->indents[lx->nindents - 1]) {
            lx->nindents--;
            ss_status st = push(lx, SS__SCN_TK_DEDENT, loc, lx->pos, "", 0);
            if (st)
                return st;
        }
        if (width != lx->indents[lx->nindents - 1])
            return ss__scn_fail(lx->err, loc,
                            "unindent does not match any outer indentation level");
        return SS_OK;
    }
}

static ss_status lex_number(lexer *lx)
{
    ss__scn_loc loc = here(lx);
    size_t start = lx->pos;
    bool is_float = false;
    while (isdigit(peekc(lx, 0)) || peekc(lx, 0) == '_')
        advance(lx);
    if (peekc(lx, 0) == '.' && isdigit(peekc(lx, 1))) {
        is_float = true;
        advance(lx);
        while (isdigit(peekc(lx, 0)))
            advance(lx);
    } else if (peekc(lx, 0) == '.' && !isalpha(peekc(lx, 1)) && peekc(lx, 1) != '_') {
        is_float = true; /* "1." */
        advance(lx);
    }
    if ((peekc(lx, 0) == 'e' || peekc(lx, 0) == 'E') &&
        (isdigit(peekc(lx, 1)) ||
         ((peekc(lx, 1) == '-' || peekc(lx, 1) == '+') && isdigit(peekc(lx, 2))))) {
        is_float = true;
        advance(lx);
        advance(lx);
        while (isdigit(peekc(lx, 0)))
            advance(lx);
    }
    size_t n = lx->pos - start;
    char buf[64];
    size_t k = 0;
    for (size_t i = 0; i < n && k < sizeof buf - 1; i++)
        if (lx->src[start + i] != '_')
            buf[k++] = lx->src[start + i];
    buf[k] = '\0';
    if (n >= sizeof buf)
        return ss__scn_fail(lx->err, loc, "number too long");
    ss_status st = push(lx, is_float ? SS__SCN_TK_FLOAT : SS__SCN_TK_INT, loc, start, lx->src + start, n);
    if (st)
        return st;
    ss__scn_token *t = &lx->out->v[lx->out->n - 1];
    errno = 0;
    if (is_float) {
        t->fval = strtod(buf, NULL);
        if (errno)
            return ss__scn_fail(lx->err, loc, "number '%s' is out of range", buf);
    } else {
        t->ival = strtoll(buf, NULL, 10);
        if (errno)
            return ss__scn_fail(lx->err, loc, "integer '%s' is out of range (int64: at most %lld)",
                            buf, (long long)INT64_MAX);
        t->fval = (double)t->ival;
    }
    return SS_OK;
}

ss_status ss__scn_lex(const char *src, size_t len, ss__scn_arena *arena, ss__scn_tokens *out,
                  ss__scn_error *err)
{
    memset(out, 0, sizeof *out);
    lexer lx = {src, len, 0, 1, 1, 0, {{0, 0}}, {0}, 1, true, arena, out, err};
    /* A UTF-8 byte order mark is not part of the text. */
    if (len >= 3 && memcmp(src, "\xEF\xBB\xBF", 3) == 0)
        lx.pos = 3;
    ss_status st = SS_OK;
    while (!st) {
        if (lx.at_line_start && lx.depth == 0) {
            lx.at_line_start = false;
            if ((st = line_start(&lx)))
                break;
        }
        int c = peekc(&lx, 0);
        ss__scn_loc loc = here(&lx);
        if (c == -1)
            break;
        if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
            advance(&lx);
        } else if (c == '#') {
            while (peekc(&lx, 0) != -1 && peekc(&lx, 0) != '\n')
                advance(&lx);
        } else if (c == '\\') {
            advance(&lx);
            while (peekc(&lx, 0) == ' ' || peekc(&lx, 0) == '\t' || peekc(&lx, 0) == '\r')
                advance(&lx);
            if (peekc(&lx, 0) != '\n')
                st = ss__scn_fail(err, loc, "a backslash continues a line only at its end");
            else
                advance(&lx);
        } else if (c == '\n') {
            if (lx.depth == 0) {
                if (out->n && out->v[out->n - 1].kind != SS__SCN_TK_NEWLINE)
                    st = push(&lx, SS__SCN_TK_NEWLINE, loc, lx.pos, "", 0);
                lx.at_line_start = true;
            }
            advance(&lx);
        } else if (isalpha(c) || c == '_') {
            size_t start = lx.pos;
            while (isalnum(peekc(&lx, 0)) || peekc(&lx, 0) == '_')
                advance(&lx);
            if (lx.pos - start >= 256)
                st = ss__scn_fail(err, loc, "name too long");
            else
                st = push(&lx, SS__SCN_TK_NAME, loc, start, src + start, lx.pos - start);
        } else if (isdigit(c) || (c == '.' && isdigit(peekc(&lx, 1)))) {
            st = lex_number(&lx);
        } else if (c == '\'' || c == '"') {
            int q = c;
            advance(&lx);
            size_t start = lx.pos;
            while (peekc(&lx, 0) != q && peekc(&lx, 0) != '\n' && peekc(&lx, 0) != -1)
                advance(&lx);
            if (peekc(&lx, 0) != q) {
                st = ss__scn_fail(err, loc, "unterminated string");
            } else {
                st = push(&lx, SS__SCN_TK_STRING, loc, start - 1, src + start, lx.pos - start);
                advance(&lx);
            }
        } else {
            static const char *const two[] = {"//", "**", "->", "==", "!=", "<=", ">="};
            size_t n = 1;
            for (size_t k = 0; k < sizeof two / sizeof two[0]; k++)
                if (c == two[k][0] && peekc(&lx, 1) == two[k][1])
                    n = 2;
            if (n == 1 && !strchr("()[]{},:=.@+-*/%<>", c)) {
                if (c >= 0x20 && c < 0x7f)
                    st = ss__scn_fail(err, loc, "unexpected character '%c'", c);
                else
                    st = ss__scn_fail(err, loc, "unexpected byte 0x%02x", (unsigned)c);
                break;
            }
            if (c == '(' || c == '[' || c == '{') {
                if (lx.depth < 64)
                    lx.open[lx.depth] = loc;
                lx.depth++;
            }
            if ((c == ')' || c == ']' || c == '}') && lx.depth > 0)
                lx.depth--;
            st = push(&lx, SS__SCN_TK_OP, loc, lx.pos, src + lx.pos, n);
            advance(&lx);
            if (n == 2)
                advance(&lx);
        }
    }
    if (!st && lx.depth > 0)
        st = ss__scn_fail(err, lx.open[lx.depth <= 64 ? lx.depth - 1 : 63],
                      "this bracket is never closed");
    ss__scn_loc end = here(&lx);
    if (!st && out->n && out->v[out->n - 1].kind != SS__SCN_TK_NEWLINE)
        st = push(&lx, SS__SCN_TK_NEWLINE, end, lx.pos, "", 0);
    while (!st && lx.nindents > 1) {
        lx.nindents--;
        st = push(&lx, SS__SCN_TK_DEDENT, end, lx.pos, "", 0);
    }
    if (!st)
        st = push(&lx, SS__SCN_TK_EOF, end, lx.pos, "", 0);
    return st;
}

void ss__scn_tokens_free(ss__scn_tokens *t)
{
    free(t->v);
    memset(t, 0, sizeof *t);
}
