/*
 * strategy_parse.c — the text form of a strategy (scenarios/README.md,
 * "Strategies"): one rule per line, a quoted pattern and its tactics,
 *
 *     rules embed=data mlp=model            # logical axis rules, for logical(...)
 *     '/kernel$'    fsdp(data, min_size_mb=4)
 *     '.*bias'      replicate
 *     'Encoder/.*'  P(None, 'model')
 *     'wi/kernel$'   logical('embed', 'mlp')
 *     'wo/kernel$'   P('model', None) fsdp(data)   # tactics apply left to right
 *
 * and the seed's own list form, a tuple of two strings per line, so a
 * strategy can be pasted from Python: ('.*', 'fsdp(axis="data")'),
 *
 * Patterns are raw strings: what is between the quotes goes to the regular
 * expression compiler (strategy.c) as it is (\' keeps its backslash and does
 * not end the pattern, as in Python's r'...'). fsdp's axes may be written
 * bare (data), quoted ('data', with Python's escapes), as a tuple
 * (('data', 'model')) or as the seed's comma string ("data, model"); its
 * keywords are axis= and min_size_mb= (the seed's min_size_to_shard_mb= too).
 * fsdp with no axis is fsdp('data'), as the seed's parser makes it.
 *
 * What it does not do: evaluate anything (no constants or expressions), or
 * check axes against a mesh (ss_strategy_apply does).
 */
#include "strategy_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tparser {
    const char *text;
    const char *p;
} tparser;

static int tcol(const tparser *t) { return (int)(t->p - t->text) + 1; }

static void tskip(tparser *t)
{
    while (*t->p == ' ' || *t->p == '\t' || *t->p == '\r')
        t->p++;
}

static bool name_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '-'; }

/* A bare word at t->p into out (empty if none). */
static void take_name(tparser *t, char *out, size_t cap)
{
    size_t n = 0;
    while (name_char(*t->p)) {
        if (n + 1 < cap)
            out[n++] = *t->p;
        t->p++;
    }
    out[n] = '\0';
}

/* The text from '(' at t->p to its matching ')', quotes respected; t->p
 * ends after the ')'. */
static ss_status take_parens(tparser *t, const char **start, size_t *len)
{
    const char *s = t->p;
    int depth = 0;
    char q = 0;
    for (; *t->p; t->p++) {
        char c = *t->p;
        if (q) {
            if (c == '\\' && t->p[1])
                t->p++; /* an escaped character, perhaps the quote */
            else if (c == q)
                q = 0;
        } else if (c == '\'' || c == '"') {
            q = c;
        } else if (c == '(') {
            depth++;
        } else if (c == ')' && --depth == 0) {
            t->p++;
            *start = s;
            *len = (size_t)(t->p - s);
            return SS_OK;
        }
    }
    t->p = s;
    return ss__fail(SS_ERR_PARSE, q ? "unterminated string" : "'(' is never closed");
}

static ss_status add_axis(ss_spec_dim *d, const char *name, size_t n)
{
    while (n && isspace((unsigned char)*name)) {
        name++;
        n--;
    }
    while (n && isspace((unsigned char)name[n - 1]))
        n--;
    if (n == 0)
        return ss__fail(SS_ERR_PARSE, "empty mesh axis name");
    if (d->naxes == SS_MAX_AXES)
        return ss__fail(SS_ERR_PARSE, "more than %d axes (SS_MAX_AXES)", SS_MAX_AXES);
    ss_status st = ss__name_intern_n(name, n, &d->axes[d->naxes]);
    if (!st)
        d->naxes++;
    return st;
}

/* One fsdp axis value: data | 'data' | "data, model" | ('data', 'model'). */
static ss_status fsdp_axes(tparser *t, ss_spec_dim *d)
{
    memset(d, 0, sizeof *d);
    char q = *t->p;
    if (q == '\'' || q == '"') {
        char *text;
        const char *end, *why = ss__py_str_decode_alloc(t->p, &text, &end);
        if (why)
            return ss__fail(strcmp(why, "out of host memory") ? SS_ERR_PARSE : SS_ERR_NOMEM,
                            "%s", why);
        t->p = end;
        /* The seed's form: names separated by commas, a tuple when several. */
        const char *e = text + strlen(text);
        ss_status st = SS_OK;
        for (const char *a = text; a <= e && !st;) {
            const char *c = memchr(a, ',', (size_t)(e - a));
            const char *stop = c ? c : e;
            st = add_axis(d, a, (size_t)(stop - a));
            a = stop + 1;
        }
        free(text);
        return st;
    }
    if (q == '(') {
        t->p++;
        for (;;) {
            tskip(t);
            if (*t->p == ')') {
                t->p++;
                break;
            }
            char name[8];
            if (*t->p == '\'' || *t->p == '"') {
                char *text;
                const char *end, *why = ss__py_str_decode_alloc(t->p, &text, &end);
                if (why)
                    return ss__fail(strcmp(why, "out of host memory") ? SS_ERR_PARSE
                                                                      : SS_ERR_NOMEM,
                                    "%s", why);
                ss_status st = add_axis(d, text, strlen(text));
                free(text);
                if (st)
                    return st;
                t->p = end;
            } else {
                const char *s = t->p;
                take_name(t, name, sizeof name);
                if (!name[0])
                    return ss__fail(SS_ERR_PARSE, "expected a mesh axis name");
                ss_status st = add_axis(d, s, (size_t)(t->p - s));
                if (st)
                    return st;
            }
            tskip(t);
            if (*t->p == ',')
                t->p++;
            else if (*t->p != ')')
                return ss__fail(SS_ERR_PARSE, "expected ',' or ')' in the axes tuple");
        }
        if (d->naxes == 0)
            return ss__fail(SS_ERR_PARSE, "fsdp needs at least one mesh axis");
        return SS_OK;
    }
    const char *s = t->p;
    char name[8]; /* only to see that a name is there: add_axis takes the source */
    take_name(t, name, sizeof name);
    if (!name[0])
        return ss__fail(SS_ERR_PARSE, "expected a mesh axis name, a quoted name or a tuple");
    return add_axis(d, s, (size_t)(t->p - s));
}

/* fsdp's arguments after '(' up to and including ')'. */
static ss_status fsdp_args(tparser *t, ss_tactic *out)
{
    bool have_axes = false, have_min = false;
    int npos = 0;
    out->min_size_mb = SS_FSDP_MIN_SIZE_MB;
    for (;;) {
        tskip(t);
        if (*t->p == ')') {
            t->p++;
            break;
        }
        const char *save = t->p;
        char kw[48];
        take_name(t, kw, sizeof kw);
        tskip(t);
        bool keyword = kw[0] && *t->p == '=';
        if (keyword) {
            t->p++;
            tskip(t);
        } else {
            t->p = save;
            kw[0] = '\0';
        }
        bool is_axes = keyword ? strcmp(kw, "axis") == 0 || strcmp(kw, "axes") == 0
                               : npos == 0;
        bool is_min = keyword ? strcmp(kw, "min_size_mb") == 0 ||
                                    strcmp(kw, "min_size_to_shard_mb") == 0
                              : npos == 1;
        if (keyword && !is_axes && !is_min) {
            t->p = save;
            return ss__fail(SS_ERR_PARSE, "fsdp() got an unexpected keyword argument '%s' "
                                          "(axis=, min_size_mb=)", kw);
        }
        if (!keyword && npos >= 2)
            return ss__fail(SS_ERR_PARSE, "fsdp() takes at most 2 positional arguments");
        if ((is_axes && have_axes) || (is_min && have_min))
            return ss__fail(SS_ERR_PARSE, "fsdp() got multiple values for '%s'",
                            is_axes ? "axis" : "min_size_mb");
        if (!keyword)
            npos++;
        if (is_axes) {
            ss_status st = fsdp_axes(t, &out->axes);
            if (st)
                return st;
            have_axes = true;
        } else {
            char *end;
            errno = 0;
            double v = strtod(t->p, &end);
            if (end == t->p || errno || !(v >= 0))
                return ss__fail(SS_ERR_PARSE, "min_size_mb must be a number >= 0");
            out->min_size_mb = v;
            t->p = end;
            have_min = true;
        }
        tskip(t);
        if (*t->p == ',')
            t->p++;
        else if (*t->p != ')')
            return ss__fail(SS_ERR_PARSE, "expected ',' or ')' in fsdp(...)");
    }
    if (!have_axes) {
        out->axes.naxes = 1;
        out->axes.axes[0] = "data";
    }
    return SS_OK;
}

/* P(...) or logical(...) text (the parenthesized part) as a spec. */
static ss_status spec_args(const char *paren, size_t len, bool logical, ss_spec *out)
{
    char *buf = malloc(len + 2);
    if (!buf)
        return ss__fail(SS_ERR_NOMEM, "strategy: out of host memory");
    buf[0] = 'P';
    memcpy(buf + 1, paren, len);
    buf[len + 1] = '\0';
    ss_status st = ss_spec_parse(buf, out);
    free(buf);
    if (st || !logical)
        return st;
    for (int d = 0; d < out->ndims; d++)
        if (out->dims[d].naxes > 1 || out->dims[d].unconstrained)
            return ss__fail(SS_ERR_PARSE, "logical(...) takes one logical name or None per "
                                          "dimension");
    return SS_OK;
}

ss_status ss__tactics_parse(const char *text, ss_tactic tactics[], int *ntactics, int *err_col)
{
    tparser t = {text, text};
    *ntactics = 0;
    for (;;) {
        tskip(&t);
        if (!*t.p || *t.p == '\n')
            break;
        *err_col = tcol(&t);
        if (*ntactics == SS__STRATEGY_MAX_TACTICS)
            return ss__fail(SS_ERR_PARSE, "more than %d tactics in one rule",
                            SS__STRATEGY_MAX_TACTICS);
        ss_tactic *tc = &tactics[*ntactics];
        memset(tc, 0, sizeof *tc);
        char name[32];
        take_name(&t, name, sizeof name);
        if (strcmp(name, "jax") == 0 && strncmp(t.p, ".sharding.", 10) == 0) {
            t.p += 10;
            take_name(&t, name, sizeof name);
        }
        bool paren = *t.p == '(';
        const char *args = NULL;
        size_t alen = 0;
        ss_status st = SS_OK;
        if (strcmp(name, "replicate") == 0) {
            tc->kind = SS_TACTIC_REPLICATE;
            if (paren) {
                t.p++;
                tskip(&t);
                if (*t.p != ')')
                    return ss__fail(SS_ERR_PARSE, "replicate takes no arguments");
                t.p++;
            }
        } else if (strcmp(name, "fsdp") == 0) {
            tc->kind = SS_TACTIC_FSDP;
            if (paren) {
                t.p++;
                st = fsdp_args(&t, tc);
            } else {
                tc->min_size_mb = SS_FSDP_MIN_SIZE_MB;
                tc->axes.naxes = 1;
                tc->axes.axes[0] = "data";
            }
        } else if ((strcmp(name, "P") == 0 || strcmp(name, "PartitionSpec") == 0 ||
                    strcmp(name, "logical") == 0) &&
                   paren) {
            bool logical = name[0] == 'l';
            tc->kind = logical ? SS_TACTIC_LOGICAL : SS_TACTIC_SPEC;
            if (!(st = take_parens(&t, &args, &alen)))
                st = spec_args(args, alen, logical, &tc->spec);
        } else {
            return ss__fail(SS_ERR_PARSE, "unknown tactic '%.*s' (replicate, fsdp(AXES, "
                                          "min_size_mb=4), P(...), logical(...))",
                            name[0] ? (int)strlen(name) : 1, name[0] ? name : t.p);
        }
        if (st)
            return st;
        (*ntactics)++;
        if (*t.p && !isspace((unsigned char)*t.p)) {
            *err_col = tcol(&t);
            return ss__fail(SS_ERR_PARSE, "expected a space between tactics, found '%c'", *t.p);
        }
    }
    if (*ntactics == 0) {
        *err_col = tcol(&t);
        return ss__fail(SS_ERR_PARSE, "a rule needs a tactic after its pattern (replicate, "
                                      "fsdp(AXES), P(...), logical(...))");
    }
    return SS_OK;
}

/* --- Files -------------------------------------------------------------- */

typedef struct line_ctx {
    const char *line; /* the line's first character */
    int lineno;
    int *err_line, *err_col;
} line_ctx;

static ss_status line_fail(const line_ctx *l, int col, ss_status st, const char *msg)
{
    if (l->err_line)
        *l->err_line = l->lineno;
    if (l->err_col)
        *l->err_col = col;
    char copy[1024]; /* msg may be this thread's message buffer itself */
    snprintf(copy, sizeof copy, "%s", msg);
    return ss__fail(st, "line %d, column %d: %s", l->lineno, col, copy);
}

/* A quoted string at *p (an 'r' prefix allowed): its text into a malloc'd
 * copy, *p after the closing quote. NULL when there is none, or (*oom set)
 * when the copy cannot be allocated. */
static char *take_quoted(const char **p, bool *oom)
{
    const char *s = *p;
    if (*s == 'r' || *s == 'R')
        s++;
    char q = *s;
    if (q != '\'' && q != '"')
        return NULL;
    /* As a Python raw string: a backslash keeps itself and the character
     * after it, so \' does not end the pattern. */
    const char *e = s + 1;
    while (*e && *e != q && *e != '\n')
        e += e[0] == '\\' && e[1] && e[1] != '\n' ? 2 : 1;
    if (*e != q)
        return NULL;
    size_t n = (size_t)(e - s - 1);
    char *out = malloc(n + 1);
    if (out) {
        memcpy(out, s + 1, n);
        out[n] = '\0';
    }
    *oom = !out;
    *p = e + 1;
    return out;
}

/* The end of the line's content: a '#' outside quotes, or the newline. */
static const char *content_end(const char *p)
{
    char q = 0;
    for (; *p && *p != '\n'; p++) {
        if (q) {
            if (*p == '\\' && p[1] && p[1] != '\n')
                p++; /* an escaped character, perhaps the quote */
            else if (*p == q)
                q = 0;
        } else if (*p == '\'' || *p == '"') {
            q = *p;
        } else if (*p == '#') {
            break;
        }
    }
    return p;
}

static ss_status rules_line(ss_strategy *s, const line_ctx *l, const char *p, const char *end,
                            ss_rules *acc)
{
    size_t n = end > p ? (size_t)(end - p) : 0; /* "rules" alone: no rules */
    char *text = malloc(n + 1);
    if (!text)
        return ss__fail(SS_ERR_NOMEM, "strategy: out of host memory");
    memcpy(text, p, n);
    text[n] = '\0';
    ss_rules r = {0, NULL};
    ss_status st = ss_rules_parse(text, &r);
    free(text);
    if (st)
        return line_fail(l, (int)(p - l->line) + 1, st, ss_error_message());
    ss_rule *all = realloc(acc->rules, sizeof *all * (size_t)(acc->count + r.count + 1));
    if (!all) {
        ss_rules_free(&r);
        return ss__fail(SS_ERR_NOMEM, "strategy: out of host memory");
    }
    if (r.count)
        memcpy(all + acc->count, r.rules, sizeof *all * (size_t)r.count);
    acc->rules = all;
    acc->count += r.count;
    ss_rules_free(&r);
    return ss_strategy_set_rules(s, acc);
}

/* One line with a rule: 'PATTERN' TACTICS, or ('PATTERN', 'TACTIC'),. */
static ss_status rule_line(ss_strategy *s, const line_ctx *l, const char *p, const char *end)
{
    bool tuple = *p == '(';
    const char *q = tuple ? p + 1 : p;
    while (tuple && (*q == ' ' || *q == '\t'))
        q++;
    const char *pat_at = q;
    bool oom = false;
    char *pattern = take_quoted(&q, &oom);
    if (oom)
        return ss__fail(SS_ERR_NOMEM, "strategy: out of host memory");
    if (!pattern)
        return line_fail(l, (int)(pat_at - l->line) + 1, SS_ERR_PARSE,
                         "expected a quoted pattern ('.*/kernel') at the start of the rule");
    ss_tactic t[SS__STRATEGY_MAX_TACTICS];
    int nt = 0, col = 0;
    ss_status st;
    const char *tac_at;
    char *tactics = NULL;
    if (tuple) {
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q != ',') {
            free(pattern);
            return line_fail(l, (int)(q - l->line) + 1, SS_ERR_PARSE,
                             "expected ',' after the pattern in ('PATTERN', 'TACTIC')");
        }
        q++;
        while (*q == ' ' || *q == '\t')
            q++;
        tac_at = q + 1;
        tactics = take_quoted(&q, &oom);
        while (q < end && (*q == ' ' || *q == '\t'))
            q++;
        if (oom) {
            free(pattern);
            return ss__fail(SS_ERR_NOMEM, "strategy: out of host memory");
        }
        if (!tactics || q >= end || *q != ')') {
            free(pattern);
            free(tactics);
            return line_fail(l, (int)(q - l->line) + 1, SS_ERR_PARSE,
                             "expected ('PATTERN', 'TACTIC')");
        }
        q++;
        while (q < end && (*q == ' ' || *q == '\t' || *q == ',' || *q == '\r'))
            q++;
        if (q < end) {
            free(pattern);
            free(tactics);
            return line_fail(l, (int)(q - l->line) + 1, SS_ERR_PARSE,
                             "unexpected text after the rule");
        }
    } else {
        tac_at = q;
        size_t n = (size_t)(end - q);
        if ((tactics = malloc(n + 1))) {
            memcpy(tactics, q, n);
            tactics[n] = '\0';
        }
    }
    if (!tactics) {
        free(pattern);
        return ss__fail(SS_ERR_NOMEM, "strategy: out of host memory");
    }
    st = ss__tactics_parse(tactics, t, &nt, &col);
    if (st)
        st = line_fail(l, (int)(tac_at - l->line) + col, st, ss_error_message());
    else if ((st = ss__strategy_add_at(s, pattern, nt, t, l->lineno)))
        st = line_fail(l, (int)(pat_at - l->line) + 1, st, ss_error_message());
    free(pattern);
    free(tactics);
    return st;
}

ss_status ss_strategy_parse(const char *text, int first_line, ss_strategy **out, int *err_line,
                            int *err_col)
{
    if (!out)
        return ss__fail(SS_ERR_INVALID, "ss_strategy_parse: out must not be NULL");
    *out = NULL;
    if (!text)
        return ss__fail(SS_ERR_INVALID, "ss_strategy_parse: text must not be NULL");
    ss_strategy *s;
    ss_status st = ss_strategy_create(&s);
    if (st)
        return st;
    ss_rules acc = {0, NULL};
    int lineno = first_line;
    for (const char *line = text; *line && !st; lineno++) {
        const char *nl = strchr(line, '\n');
        const char *p = line;
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f')
            p++;
        const char *end = content_end(p);
        while (end > p && isspace((unsigned char)end[-1]))
            end--;
        line_ctx l = {line, lineno, err_line, err_col};
        size_t n = (size_t)(end - p);
        bool bracket = (n == 1 && (*p == '[' || *p == ']')) ||
                       (n == 2 && p[0] == ']' && p[1] == ',');
        if (n == 0 || bracket) {
            /* nothing, or the seed's list brackets */
        } else if (strncmp(p, "rules", 5) == 0 && (p[5] == ' ' || p[5] == '\t')) {
            st = rules_line(s, &l, p + 6, end, &acc);
        } else {
            st = rule_line(s, &l, p, end);
        }
        line = nl ? nl + 1 : line + strlen(line);
    }
    ss_rules_free(&acc);
    if (st) {
        ss_strategy_destroy(s);
        return st;
    }
    *out = s;
    return SS_OK;
}

ss_status ss_strategy_load(const char *path, ss_strategy **out)
{
    if (!path || !out)
        return ss__fail(SS_ERR_INVALID, "ss_strategy_load: NULL argument");
    *out = NULL;
    char *buf;
    size_t len;
    int e = ss__read_file(path, (size_t)16 << 20, &buf, &len);
    if (e == EFBIG)
        return ss__fail(SS_ERR_IO, "%s: larger than 16 MiB", path);
    if (e == ENOMEM)
        return ss__fail(SS_ERR_NOMEM, "%s: out of host memory reading it", path);
    if (e)
        return ss__fail(SS_ERR_IO, "%s: cannot open: %s", path, strerror(e));
    if (memchr(buf, '\0', len)) {
        free(buf);
        return ss__fail(SS_ERR_PARSE, "%s: the file contains a NUL byte", path);
    }
    int line = 0, col = 0;
    ss_status st = ss_strategy_parse(buf, 1, out, &line, &col);
    free(buf);
    if (st) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", ss_error_message());
        const char *colon = line > 0 ? strstr(msg, ": ") : NULL;
        if (colon)
            return ss__fail(st, "%s:%d:%d: %s", path, line, col, colon + 2);
        return ss__fail(st, "%s: %s", path, msg);
    }
    return SS_OK;
}
