/*
 * parse.c — tokens to a syntax tree (scenario.h).
 *
 * Recursive descent over a Python-shaped grammar (scenarios/README.md has
 * it in full). Statement words (mesh, devices, hosts, device_memory, rules,
 * run, show, check, print, save, restore, strategy) are statements only
 * where a statement starts and are not followed by `=`, so they stay usable
 * as variable names.
 * Nesting is bounded so that no input can exhaust the stack (SS__SCN_MAX_DEPTH,
 * scenario.h): a chain of binary operators may be as long as memory allows,
 * everything else that nests is refused past SS__SCN_MAX_DEPTH levels. The parser
 * checks syntax only; names, types and shapes are the evaluator's.
 */
#include "scenario.h"

#include <string.h>

/* Parser recursion (brackets, unary operators, `**`, blocks) and the
 * height of every expression node are both capped at SS__SCN_MAX_DEPTH, so
 * neither the parser nor the evaluator can exhaust the stack; chains of
 * binary operators (`x + x + ... + x`) and of postfix operators are loops
 * in the parser, and the evaluator walks a binary chain in a loop too. */

typedef struct parser {
    const char *src;
    const ss__scn_tokens *toks;
    int pos;
    int depth;
    ss__scn_arena *arena;
    ss__scn_error *err;
} parser;

static const ss__scn_token *peek(const parser *p) { return &p->toks->v[p->pos]; }
static const ss__scn_token *peek_at(const parser *p, int k)
{
    int i = p->pos + k;
    return &p->toks->v[i < p->toks->n ? i : p->toks->n - 1];
}
static const ss__scn_token *next(parser *p)
{
    const ss__scn_token *t = &p->toks->v[p->pos];
    if (t->kind != SS__SCN_TK_EOF)
        p->pos++;
    return t;
}
static bool is_op(const ss__scn_token *t, const char *op)
{
    return t->kind == SS__SCN_TK_OP && strcmp(t->text, op) == 0;
}
static bool is_name(const ss__scn_token *t, const char *name)
{
    return t->kind == SS__SCN_TK_NAME && strcmp(t->text, name) == 0;
}

static const char *describe(const ss__scn_token *t)
{
    switch (t->kind) {
    case SS__SCN_TK_EOF: return "end of file";
    case SS__SCN_TK_NEWLINE: return "end of line";
    case SS__SCN_TK_INDENT: return "an indented block";
    case SS__SCN_TK_DEDENT: return "the end of a block";
    default: return NULL;
    }
}

static ss_status unexpected(parser *p, const ss__scn_token *t, const char *wanted)
{
    const char *d = describe(t);
    if (d)
        return ss__scn_fail(p->err, t->loc, "expected %s, found %s", wanted, d);
    if (t->kind == SS__SCN_TK_STRING)
        return ss__scn_fail(p->err, t->loc, "expected %s, found '%s'", wanted, t->text);
    return ss__scn_fail(p->err, t->loc, "expected %s, found '%s'", wanted, t->text);
}

static ss_status expect_op(parser *p, const char *op)
{
    const ss__scn_token *t = peek(p);
    if (!is_op(t, op)) {
        char w[16];
        snprintf(w, sizeof w, "'%s'", op);
        return unexpected(p, t, w);
    }
    next(p);
    return SS_OK;
}

static void *alloc(parser *p, size_t n, ss__scn_loc loc)
{
    void *m = ss__scn_alloc(p->arena, n);
    if (!m)
        ss__scn_fail(p->err, loc, "out of host memory (the scenario is too large)");
    return m;
}

static ss__scn_expr *new_expr(parser *p, ss__scn_expr_kind kind, ss__scn_loc loc)
{
    ss__scn_expr *e = alloc(p, sizeof *e, loc);
    if (e) {
        e->kind = kind;
        e->loc = loc;
        e->height = 1;
    }
    return e;
}

static ss_status too_deep(parser *p, ss__scn_loc loc)
{
    return ss__scn_fail(p->err, loc, "expression nested too deeply (more than %d levels)",
                    SS__SCN_MAX_DEPTH);
}

static int height_of(const ss__scn_expr *x) { return x ? x->height : 0; }

/* Set e's height from its finished operands (ss__scn_expr.height); NULL past
 * SS__SCN_MAX_DEPTH. */
static ss__scn_expr *seal(parser *p, ss__scn_expr *e)
{
    if (!e)
        return NULL;
    int h = height_of(e->a);
    if (e->kind == SS__SCN_EX_BINOP && e->a && e->a->kind == SS__SCN_EX_BINOP)
        h--; /* the left operand's chain is walked in a loop */
    if (height_of(e->b) > h)
        h = height_of(e->b);
    for (int k = 0; k < e->nitems; k++)
        if (height_of(e->items[k]) > h)
            h = height_of(e->items[k]);
    for (int k = 0; k < e->nkw; k++)
        if (height_of(e->kwvals[k]) > h)
            h = height_of(e->kwvals[k]);
    e->height = h + 1;
    if (e->height > SS__SCN_MAX_DEPTH) {
        too_deep(p, e->loc);
        return NULL;
    }
    return e;
}

/* A growable list of pointers built in a small local buffer, copied to the
 * arena at the end. */
typedef struct plist {
    void *items[256];
    int n;
} plist;

static ss_status plist_add(parser *p, plist *l, void *item, ss__scn_loc loc)
{
    if (l->n == (int)(sizeof l->items / sizeof l->items[0]))
        return ss__scn_fail(p->err, loc, "too many items (at most 256)");
    l->items[l->n++] = item;
    return SS_OK;
}

static void **plist_copy(parser *p, const plist *l, ss__scn_loc loc)
{
    void **v = alloc(p, sizeof(void *) * (size_t)(l->n ? l->n : 1), loc);
    if (v)
        memcpy(v, l->items, sizeof(void *) * (size_t)l->n);
    return v;
}

static ss__scn_expr *parse_expr(parser *p);

/* Call arguments after '(' up to ')': positional, then name=value. */
static bool parse_args(parser *p, ss__scn_expr *call)
{
    plist pos = {.n = 0}, kwn = {.n = 0}, kwv = {.n = 0};
    ss__scn_loc locs[256];
    while (!is_op(peek(p), ")")) {
        const ss__scn_token *t = peek(p);
        if (t->kind == SS__SCN_TK_NAME && is_op(peek_at(p, 1), "=")) {
            next(p);
            next(p);
            ss__scn_expr *v = parse_expr(p);
            if (!v)
                return false;
            for (int k = 0; k < kwn.n; k++)
                if (strcmp(kwn.items[k], t->text) == 0) {
                    ss__scn_fail(p->err, t->loc, "keyword argument repeated: %s", t->text);
                    return false;
                }
            locs[kwn.n] = t->loc;
            if (plist_add(p, &kwn, (void *)t->text, t->loc) || plist_add(p, &kwv, v, t->loc))
                return false;
        } else {
            if (kwn.n) {
                ss__scn_fail(p->err, t->loc, "positional argument follows keyword argument");
                return false;
            }
            ss__scn_expr *v = parse_expr(p);
            if (!v || plist_add(p, &pos, v, v->loc))
                return false;
        }
        if (!is_op(peek(p), ",")) {
            if (!is_op(peek(p), ")")) {
                unexpected(p, peek(p), "',' or ')'");
                return false;
            }
            break;
        }
        next(p);
    }
    next(p); /* ')' */
    call->nitems = pos.n;
    call->items = (ss__scn_expr **)plist_copy(p, &pos, call->loc);
    call->nkw = kwn.n;
    call->kwnames = (const char **)plist_copy(p, &kwn, call->loc);
    call->kwvals = (ss__scn_expr **)plist_copy(p, &kwv, call->loc);
    call->kwlocs = alloc(p, sizeof(ss__scn_loc) * (size_t)(kwn.n ? kwn.n : 1), call->loc);
    if (!call->items || !call->kwnames || !call->kwvals || !call->kwlocs)
        return false;
    memcpy(call->kwlocs, locs, sizeof(ss__scn_loc) * (size_t)kwn.n);
    return true;
}

/* One subscript: an expression or a slice a:b (either side optional). */
static ss__scn_expr *parse_subscript(parser *p)
{
    const ss__scn_token *t = peek(p);
    ss__scn_expr *lo = NULL;
    if (!is_op(t, ":")) {
        lo = parse_expr(p);
        if (!lo)
            return NULL;
        if (!is_op(peek(p), ":"))
            return lo;
    }
    next(p); /* ':' */
    ss__scn_expr *s = new_expr(p, SS__SCN_EX_SLICE, lo ? lo->loc : t->loc);
    if (!s)
        return NULL;
    s->a = lo;
    if (!is_op(peek(p), ",") && !is_op(peek(p), "]")) {
        s->b = parse_expr(p);
        if (!s->b)
            return NULL;
    }
    if (is_op(peek(p), ":")) {
        ss__scn_fail(p->err, peek(p)->loc, "slice steps are not supported");
        return NULL;
    }
    return seal(p, s);
}

/* Items of a bracketed sequence up to `close`; *trailing_comma tells a
 * one-item tuple from a parenthesized expression. */
static bool parse_items(parser *p, const char *close, plist *l, bool *trailing_comma,
                        bool subscripts)
{
    *trailing_comma = false;
    while (!is_op(peek(p), close)) {
        ss__scn_expr *e = subscripts ? parse_subscript(p) : parse_expr(p);
        if (!e || plist_add(p, l, e, e->loc))
            return false;
        *trailing_comma = false;
        if (!is_op(peek(p), ",")) {
            if (!is_op(peek(p), close)) {
                char w[32];
                snprintf(w, sizeof w, "',' or '%s'", close);
                unexpected(p, peek(p), w);
                return false;
            }
            break;
        }
        next(p);
        *trailing_comma = true;
    }
    next(p);
    return true;
}

static ss__scn_expr *parse_atom(parser *p)
{
    const ss__scn_token *t = next(p);
    ss__scn_expr *e = NULL;
    switch (t->kind) {
    case SS__SCN_TK_INT:
        if ((e = new_expr(p, SS__SCN_EX_INT, t->loc))) {
            e->ival = t->ival;
            e->fval = t->fval;
        }
        return e;
    case SS__SCN_TK_FLOAT:
        if ((e = new_expr(p, SS__SCN_EX_FLOAT, t->loc)))
            e->fval = t->fval;
        return e;
    case SS__SCN_TK_STRING:
        if ((e = new_expr(p, SS__SCN_EX_STR, t->loc)))
            e->str = t->text;
        return e;
    case SS__SCN_TK_NAME:
        if (strcmp(t->text, "None") == 0)
            return new_expr(p, SS__SCN_EX_NONE, t->loc);
        if (strcmp(t->text, "True") == 0 || strcmp(t->text, "False") == 0) {
            if ((e = new_expr(p, SS__SCN_EX_INT, t->loc)))
                e->ival = t->text[0] == 'T';
            return e;
        }
        if ((e = new_expr(p, SS__SCN_EX_NAME, t->loc)))
            e->str = t->text;
        return e;
    case SS__SCN_TK_OP:
        if (is_op(t, "(") || is_op(t, "[")) {
            bool paren = is_op(t, "(");
            plist l = {.n = 0};
            bool comma;
            if (!parse_items(p, paren ? ")" : "]", &l, &comma, false))
                return NULL;
            if (paren && l.n == 1 && !comma)
                return l.items[0];
            if ((e = new_expr(p, paren ? SS__SCN_EX_TUPLE : SS__SCN_EX_LIST, t->loc))) {
                e->nitems = l.n;
                e->items = (ss__scn_expr **)plist_copy(p, &l, t->loc);
                if (!e->items)
                    return NULL;
            }
            return seal(p, e);
        }
        break;
    default: break;
    }
    p->pos--;
    unexpected(p, t, "an expression");
    return NULL;
}

static ss__scn_expr *parse_postfix(parser *p)
{
    ss__scn_expr *e = parse_atom(p);
    while (e) {
        const ss__scn_token *t = peek(p);
        if (is_op(t, "(")) {
            next(p);
            ss__scn_expr *c = new_expr(p, SS__SCN_EX_CALL, t->loc);
            if (!c)
                return NULL;
            c->a = e;
            c->loc = e->loc;
            if (!parse_args(p, c))
                return NULL;
            e = seal(p, c);
        } else if (is_op(t, "[")) {
            next(p);
            ss__scn_expr *x = new_expr(p, SS__SCN_EX_INDEX, t->loc);
            plist l = {.n = 0};
            bool comma;
            if (!x || !parse_items(p, "]", &l, &comma, true))
                return NULL;
            if (l.n == 0) {
                ss__scn_fail(p->err, t->loc, "empty subscript");
                return NULL;
            }
            x->a = e;
            x->nitems = l.n;
            x->items = (ss__scn_expr **)plist_copy(p, &l, t->loc);
            if (!x->items)
                return NULL;
            e = seal(p, x);
        } else if (is_op(t, ".")) {
            next(p);
            const ss__scn_token *n = next(p);
            if (n->kind != SS__SCN_TK_NAME) {
                p->pos--;
                unexpected(p, n, "an attribute name");
                return NULL;
            }
            ss__scn_expr *x = new_expr(p, SS__SCN_EX_ATTR, n->loc);
            if (!x)
                return NULL;
            x->a = e;
            x->str = n->text;
            e = seal(p, x);
        } else {
            break;
        }
    }
    return e;
}

static ss__scn_expr *parse_unary(parser *p);

static ss__scn_expr *binop(parser *p, const ss__scn_token *op, ss__scn_expr *a, ss__scn_expr *b)
{
    if (!a || !b)
        return NULL;
    ss__scn_expr *e = new_expr(p, SS__SCN_EX_BINOP, op->loc);
    if (e) {
        e->str = op->text;
        e->a = a;
        e->b = b;
    }
    return seal(p, e);
}

/* Count one level of parser recursion; false (error set) past the cap. */
static bool enter(parser *p)
{
    if (++p->depth > SS__SCN_MAX_DEPTH) {
        too_deep(p, peek(p)->loc);
        return false;
    }
    return true;
}

static ss__scn_expr *parse_power(parser *p)
{
    ss__scn_expr *e = parse_postfix(p);
    if (e && is_op(peek(p), "**")) {
        const ss__scn_token *op = next(p);
        if (!enter(p))
            return NULL;
        e = binop(p, op, e, parse_unary(p));
        p->depth--;
    }
    return e;
}

static ss__scn_expr *parse_unary(parser *p)
{
    const ss__scn_token *t = peek(p);
    if (!is_op(t, "-") && !is_op(t, "+"))
        return parse_power(p);
    next(p);
    if (!enter(p))
        return NULL;
    ss__scn_expr *e, *x = parse_unary(p);
    p->depth--;
    if (!x || is_op(t, "+")) {
        e = x;
    } else if ((e = new_expr(p, SS__SCN_EX_NEG, t->loc))) {
        e->a = x;
        e = seal(p, e);
    }
    return e;
}

static ss__scn_expr *parse_term(parser *p)
{
    ss__scn_expr *e = parse_unary(p);
    while (e) {
        const ss__scn_token *t = peek(p);
        if (!(is_op(t, "*") || is_op(t, "/") || is_op(t, "//") || is_op(t, "%") ||
              is_op(t, "@")))
            break;
        next(p);
        e = binop(p, t, e, parse_unary(p));
    }
    return e;
}

static ss__scn_expr *parse_expr(parser *p)
{
    if (!enter(p))
        return NULL;
    ss__scn_expr *e = parse_term(p);
    while (e) {
        const ss__scn_token *t = peek(p);
        if (!(is_op(t, "+") || is_op(t, "-")))
            break;
        next(p);
        e = binop(p, t, e, parse_term(p));
    }
    p->depth--;
    return e;
}

/* expr, expr, ...: a tuple when there is a comma. */
static ss__scn_expr *parse_exprlist(parser *p)
{
    ss__scn_loc loc = peek(p)->loc;
    ss__scn_expr *first = parse_expr(p);
    if (!first || !is_op(peek(p), ","))
        return first;
    plist l = {.n = 0};
    if (plist_add(p, &l, first, loc))
        return NULL;
    while (is_op(peek(p), ",")) {
        next(p);
        if (peek(p)->kind == SS__SCN_TK_NEWLINE)
            break;
        ss__scn_expr *e = parse_expr(p);
        if (!e || plist_add(p, &l, e, e->loc))
            return NULL;
    }
    ss__scn_expr *t = new_expr(p, SS__SCN_EX_TUPLE, loc);
    if (t) {
        t->nitems = l.n;
        t->items = (ss__scn_expr **)plist_copy(p, &l, loc);
        if (!t->items)
            return NULL;
    }
    return seal(p, t);
}

static ss_status end_of_statement(parser *p)
{
    const ss__scn_token *t = peek(p);
    if (t->kind == SS__SCN_TK_NEWLINE) {
        next(p);
        return SS_OK;
    }
    if (t->kind == SS__SCN_TK_EOF || t->kind == SS__SCN_TK_DEDENT)
        return SS_OK;
    return unexpected(p, t, "end of line");
}

static ss__scn_stmt *new_stmt(parser *p, ss__scn_stmt_kind kind, ss__scn_loc loc)
{
    ss__scn_stmt *s = alloc(p, sizeof *s, loc);
    if (s) {
        s->kind = kind;
        s->loc = loc;
    }
    return s;
}

/* name=value options until the end of the line. */
static ss_status parse_options(parser *p, ss__scn_stmt *s)
{
    plist kwn = {.n = 0}, kwv = {.n = 0};
    ss__scn_loc locs[256];
    while (peek(p)->kind == SS__SCN_TK_NAME) {
        const ss__scn_token *n = next(p);
        if ((s->kind == SS__SCN_ST_SAVE || s->kind == SS__SCN_ST_RESTORE) && !is_op(peek(p), "=")) {
            if (s->name) /* one bare flag: force / partial */
                return ss__scn_fail(p->err, n->loc, "one flag at most (the first is '%s')",
                                s->name);
            s->name = n->text;
            s->name_loc = n->loc;
            continue;
        }
        ss_status st = expect_op(p, "=");
        if (st)
            return st;
        ss__scn_expr *v = parse_expr(p);
        if (!v)
            return SS_ERR_PARSE;
        for (int k = 0; k < kwn.n; k++)
            if (strcmp(kwn.items[k], n->text) == 0)
                return ss__scn_fail(p->err, n->loc, "option repeated: %s", n->text);
        locs[kwn.n] = n->loc;
        if (plist_add(p, &kwn, (void *)n->text, n->loc) || plist_add(p, &kwv, v, n->loc))
            return SS_ERR_PARSE;
        if (is_op(peek(p), ","))
            next(p);
    }
    s->nkw = kwn.n;
    s->kwnames = (const char **)plist_copy(p, &kwn, s->loc);
    s->kwvals = (ss__scn_expr **)plist_copy(p, &kwv, s->loc);
    s->kwlocs = alloc(p, sizeof(ss__scn_loc) * (size_t)(kwn.n ? kwn.n : 1), s->loc);
    if (!s->kwnames || !s->kwvals || !s->kwlocs)
        return SS_ERR_PARSE;
    memcpy(s->kwlocs, locs, sizeof(ss__scn_loc) * (size_t)kwn.n);
    return end_of_statement(p);
}

/* The rest of the line as text (comments cut), for device_memory and rules. */
static ss_status rest_of_line(parser *p, ss__scn_stmt *s)
{
    const ss__scn_token *first = peek(p);
    if (first->kind == SS__SCN_TK_NEWLINE || first->kind == SS__SCN_TK_EOF)
        return unexpected(p, first, "a value");
    s->text_loc = first->loc;
    size_t start = first->offset, end = start;
    while (peek(p)->kind != SS__SCN_TK_NEWLINE && peek(p)->kind != SS__SCN_TK_EOF) {
        const ss__scn_token *t = next(p);
        end = t->offset + strlen(t->text) + (t->kind == SS__SCN_TK_STRING ? 2 : 0);
    }
    s->text = ss__scn_strndup(p->arena, p->src + start, end - start);
    if (!s->text)
        return ss__scn_fail(p->err, s->loc, "out of host memory");
    return end_of_statement(p);
}

/* `strategy FILE` (an expression), or `strategy:` and its rules, on the
 * same line or as an indented block, kept as raw text from the first rule's
 * column (text_loc) on; strategy.c parses it. */
static ss_status parse_strategy(parser *p, ss__scn_stmt *s)
{
    if (!is_op(peek(p), ":")) {
        if (!(s->value = parse_expr(p)))
            return SS_ERR_PARSE;
        return end_of_statement(p);
    }
    next(p);
    bool block = peek(p)->kind == SS__SCN_TK_NEWLINE;
    if (block) {
        next(p);
        if (peek(p)->kind != SS__SCN_TK_INDENT)
            return unexpected(p, peek(p), "an indented block of strategy rules");
        next(p);
    }
    const ss__scn_token *first = peek(p);
    if (first->kind == SS__SCN_TK_NEWLINE || first->kind == SS__SCN_TK_EOF || first->kind == SS__SCN_TK_DEDENT)
        return unexpected(p, first, "a strategy rule ('PATTERN' TACTIC)");
    size_t start = first->offset, end = start;
    for (int depth = 0;;) {
        const ss__scn_token *t = peek(p);
        if (t->kind == SS__SCN_TK_EOF || (!block && t->kind == SS__SCN_TK_NEWLINE) ||
            (t->kind == SS__SCN_TK_DEDENT && depth-- == 0))
            break;
        depth += t->kind == SS__SCN_TK_INDENT;
        next(p);
        if (t->kind != SS__SCN_TK_NEWLINE && t->kind != SS__SCN_TK_INDENT && t->kind != SS__SCN_TK_DEDENT &&
            t->offset + strlen(t->text) + (t->kind == SS__SCN_TK_STRING ? 2 : 0) > end)
            end = t->offset + strlen(t->text) + (t->kind == SS__SCN_TK_STRING ? 2 : 0);
    }
    if (block && peek(p)->kind == SS__SCN_TK_DEDENT)
        next(p);
    s->text_loc = first->loc;
    if (!(s->text = ss__scn_strndup(p->arena, p->src + start, end - start)))
        return ss__scn_fail(p->err, s->loc, "out of host memory");
    return block ? SS_OK : end_of_statement(p);
}

static ss_status parse_block(parser *p, ss__scn_stmt *owner);
static ss__scn_stmt *parse_stmt(parser *p);

static ss_status parse_params(parser *p, ss__scn_stmt *s)
{
    plist names = {.n = 0};
    ss__scn_loc locs[256];
    ss_status st = expect_op(p, "(");
    while (!st && !is_op(peek(p), ")")) {
        const ss__scn_token *t = next(p);
        if (t->kind != SS__SCN_TK_NAME) {
            p->pos--;
            return unexpected(p, t, "a parameter name");
        }
        for (int k = 0; k < names.n; k++)
            if (strcmp(names.items[k], t->text) == 0)
                return ss__scn_fail(p->err, t->loc, "duplicate parameter '%s'", t->text);
        locs[names.n] = t->loc;
        if ((st = plist_add(p, &names, (void *)t->text, t->loc)))
            return st;
        if (is_op(peek(p), ","))
            next(p);
        else if (!is_op(peek(p), ")"))
            return unexpected(p, peek(p), "',' or ')'");
    }
    if (st || (st = expect_op(p, ")")))
        return st;
    s->nparams = names.n;
    s->params = (const char **)plist_copy(p, &names, s->loc);
    s->param_locs = alloc(p, sizeof(ss__scn_loc) * (size_t)(names.n ? names.n : 1), s->loc);
    if (!s->params || !s->param_locs)
        return SS_ERR_PARSE;
    memcpy(s->param_locs, locs, sizeof(ss__scn_loc) * (size_t)names.n);
    return SS_OK;
}

static ss__scn_stmt *parse_stmt(parser *p)
{
    const ss__scn_token *t = peek(p);
    ss__scn_loc loc = t->loc;
    ss__scn_stmt *s = NULL;
    ss_status st = SS_OK;
    if (t->kind == SS__SCN_TK_INDENT) {
        ss__scn_fail(p->err, t->loc, "unexpected indent");
        return NULL;
    }
    bool word = t->kind == SS__SCN_TK_NAME && !is_op(peek_at(p, 1), "=") &&
                !is_op(peek_at(p, 1), ",") && !is_op(peek_at(p, 1), "(") &&
                !is_op(peek_at(p, 1), "[") && !is_op(peek_at(p, 1), ".") &&
                peek_at(p, 1)->kind != SS__SCN_TK_NEWLINE;
    if (is_name(t, "def")) {
        next(p);
        const ss__scn_token *n = next(p);
        if (n->kind != SS__SCN_TK_NAME) {
            p->pos--;
            unexpected(p, n, "a function name");
            return NULL;
        }
        if (!(s = new_stmt(p, SS__SCN_ST_DEF, loc)))
            return NULL;
        s->name = n->text;
        s->name_loc = n->loc;
        if ((st = parse_params(p, s)))
            return NULL;
        if ((st = expect_op(p, ":")) || (st = parse_block(p, s)))
            return NULL;
        return s;
    }
    if (is_name(t, "for")) {
        next(p);
        const ss__scn_token *n = next(p);
        if (n->kind != SS__SCN_TK_NAME) {
            p->pos--;
            unexpected(p, n, "a loop variable");
            return NULL;
        }
        plist names = {.n = 0};
        ss__scn_loc locs[256];
        locs[0] = n->loc;
        if (plist_add(p, &names, (void *)n->text, n->loc))
            return NULL;
        while (is_op(peek(p), ",")) {
            next(p);
            const ss__scn_token *m = next(p);
            if (m->kind != SS__SCN_TK_NAME) {
                p->pos--;
                unexpected(p, m, "a loop variable");
                return NULL;
            }
            locs[names.n] = m->loc;
            if (plist_add(p, &names, (void *)m->text, m->loc))
                return NULL;
        }
        if (!is_name(peek(p), "in")) {
            unexpected(p, peek(p), "'in'");
            return NULL;
        }
        next(p);
        if (!(s = new_stmt(p, SS__SCN_ST_FOR, loc)))
            return NULL;
        s->ntargets = names.n;
        s->targets = (const char **)plist_copy(p, &names, loc);
        s->target_locs = alloc(p, sizeof(ss__scn_loc) * (size_t)names.n, loc);
        if (!s->targets || !s->target_locs)
            return NULL;
        memcpy(s->target_locs, locs, sizeof(ss__scn_loc) * (size_t)names.n);
        if (!(s->value = parse_expr(p)))
            return NULL;
        if ((st = expect_op(p, ":")) || (st = parse_block(p, s)))
            return NULL;
        return s;
    }
    if (is_name(t, "return")) {
        next(p);
        if (!(s = new_stmt(p, SS__SCN_ST_RETURN, loc)))
            return NULL;
        if (peek(p)->kind != SS__SCN_TK_NEWLINE && !(s->value = parse_exprlist(p)))
            return NULL;
        return end_of_statement(p) ? NULL : s;
    }
    if (is_name(t, "pass")) {
        next(p);
        s = new_stmt(p, SS__SCN_ST_PASS, loc);
        return !s || end_of_statement(p) ? NULL : s;
    }
    if (word && (is_name(t, "mesh") || is_name(t, "run") || is_name(t, "show") ||
                 is_name(t, "check") || is_name(t, "print"))) {
        next(p);
        ss__scn_stmt_kind k = is_name(t, "mesh")   ? SS__SCN_ST_MESH
                          : is_name(t, "run")  ? SS__SCN_ST_RUN
                          : is_name(t, "show") ? SS__SCN_ST_SHOW
                          : is_name(t, "check") ? SS__SCN_ST_CHECK
                                                : SS__SCN_ST_PRINT;
        if (!(s = new_stmt(p, k, loc)))
            return NULL;
        if (k != SS__SCN_ST_MESH) {
            const ss__scn_token *n = next(p);
            if (n->kind != SS__SCN_TK_NAME) {
                p->pos--;
                unexpected(p, n, k == SS__SCN_ST_PRINT ? "memory, ledger, values, program or explain"
                                               : "a name");
                return NULL;
            }
            s->name = n->text;
            s->name_loc = n->loc;
            if (k == SS__SCN_ST_RUN && is_op(peek(p), "(")) {
                next(p);
                ss__scn_expr call;
                memset(&call, 0, sizeof call);
                call.loc = n->loc;
                if (!parse_args(p, &call))
                    return NULL;
                if (call.nkw) {
                    ss__scn_fail(p->err, call.kwlocs[0],
                             "run passes arguments by position; options go after ')'");
                    return NULL;
                }
                s->has_call = true;
                s->nargs = call.nitems;
                s->args = call.items;
            }
        }
        return parse_options(p, s) ? NULL : s;
    }
    if ((word || peek_at(p, 1)->kind == SS__SCN_TK_NEWLINE) &&
        (is_name(t, "save") || is_name(t, "restore"))) {
        next(p); /* save DIR step=N [force] / restore DIR step=N [partial] */
        if (!(s = new_stmt(p, is_name(t, "save") ? SS__SCN_ST_SAVE : SS__SCN_ST_RESTORE, loc)) ||
            !(s->value = parse_expr(p)))
            return NULL;
        return parse_options(p, s) ? NULL : s;
    }
    if (is_name(t, "strategy") && (is_op(peek_at(p, 1), ":") ||
                                   (word && peek_at(p, 1)->kind != SS__SCN_TK_OP))) {
        next(p); /* strategy FILE / strategy: RULES (strategy.c) */
        if (!(s = new_stmt(p, SS__SCN_ST_STRATEGY, loc)))
            return NULL;
        return parse_strategy(p, s) ? NULL : s;
    }
    if (word && (is_name(t, "devices") || is_name(t, "hosts"))) {
        next(p);
        if (!(s = new_stmt(p, is_name(t, "devices") ? SS__SCN_ST_DEVICES : SS__SCN_ST_HOSTS, loc)))
            return NULL;
        if (!(s->value = parse_expr(p)))
            return NULL;
        return end_of_statement(p) ? NULL : s;
    }
    if (word && (is_name(t, "device_memory") || is_name(t, "rules"))) {
        next(p);
        if (!(s = new_stmt(p, is_name(t, "rules") ? SS__SCN_ST_RULES : SS__SCN_ST_DEVICE_MEMORY, loc)))
            return NULL;
        if (s->kind == SS__SCN_ST_RULES && is_name(peek(p), "strict") &&
            !is_op(peek_at(p, 1), "=")) {
            next(p);
            s->strict = true;
        }
        return rest_of_line(p, s) ? NULL : s;
    }
    /* targets = value, or an expression statement */
    int save = p->pos;
    plist names = {.n = 0};
    ss__scn_loc locs[256];
    while (peek(p)->kind == SS__SCN_TK_NAME) {
        const ss__scn_token *n = next(p);
        locs[names.n] = n->loc;
        if (plist_add(p, &names, (void *)n->text, n->loc))
            return NULL;
        if (!is_op(peek(p), ","))
            break;
        next(p);
    }
    if (names.n && is_op(peek(p), "=")) {
        next(p);
        if (!(s = new_stmt(p, SS__SCN_ST_ASSIGN, loc)))
            return NULL;
        s->ntargets = names.n;
        s->targets = (const char **)plist_copy(p, &names, loc);
        s->target_locs = alloc(p, sizeof(ss__scn_loc) * (size_t)names.n, loc);
        if (!s->targets || !s->target_locs)
            return NULL;
        memcpy(s->target_locs, locs, sizeof(ss__scn_loc) * (size_t)names.n);
        if (!(s->value = parse_exprlist(p)))
            return NULL;
        return end_of_statement(p) ? NULL : s;
    }
    p->pos = save;
    if (!(s = new_stmt(p, SS__SCN_ST_EXPR, loc)))
        return NULL;
    if (!(s->value = parse_exprlist(p)))
        return NULL;
    if (is_op(peek(p), "=")) {
        ss__scn_fail(p->err, peek(p)->loc, "cannot assign to an expression (only to names)");
        return NULL;
    }
    return end_of_statement(p) ? NULL : s;
}

/* After ':': either NEWLINE INDENT statements DEDENT, or one simple
 * statement on the same line. */
static ss_status parse_block(parser *p, ss__scn_stmt *owner)
{
    plist body = {.n = 0};
    if (++p->depth > SS__SCN_MAX_DEPTH)
        return ss__scn_fail(p->err, peek(p)->loc, "blocks nested too deeply (more than %d levels)",
                        SS__SCN_MAX_DEPTH);
    if (peek(p)->kind != SS__SCN_TK_NEWLINE) {
        ss__scn_stmt *s = parse_stmt(p);
        if (!s || plist_add(p, &body, s, s->loc))
            return SS_ERR_PARSE;
    } else {
        next(p);
        if (peek(p)->kind != SS__SCN_TK_INDENT)
            return unexpected(p, peek(p), "an indented block");
        next(p);
        while (peek(p)->kind != SS__SCN_TK_DEDENT && peek(p)->kind != SS__SCN_TK_EOF) {
            ss__scn_stmt *s = parse_stmt(p);
            if (!s)
                return SS_ERR_PARSE;
            if (body.n == (int)(sizeof body.items / sizeof body.items[0]))
                return ss__scn_fail(p->err, s->loc, "too many statements in one block (at most %d)",
                                (int)(sizeof body.items / sizeof body.items[0]));
            body.items[body.n++] = s;
        }
        if (peek(p)->kind == SS__SCN_TK_DEDENT)
            next(p);
    }
    p->depth--;
    owner->nbody = body.n;
    owner->body = (ss__scn_stmt **)plist_copy(p, &body, owner->loc);
    return owner->body ? SS_OK : SS_ERR_PARSE;
}

ss_status ss__scn_parse(const char *src, const ss__scn_tokens *toks, ss__scn_arena *arena, ss__scn_file *out,
                    ss__scn_error *err)
{
    parser p = {src, toks, 0, 0, arena, err};
    memset(out, 0, sizeof *out);
    int cap = 0;
    ss__scn_stmt **v = NULL;
    while (peek(&p)->kind != SS__SCN_TK_EOF) {
        if (peek(&p)->kind == SS__SCN_TK_NEWLINE) {
            next(&p);
            continue;
        }
        if (peek(&p)->kind == SS__SCN_TK_DEDENT) {
            next(&p);
            continue;
        }
        ss__scn_stmt *s = parse_stmt(&p);
        if (!s)
            return SS_ERR_PARSE;
        if (out->nstmts == cap) {
            int ncap = cap ? cap * 2 : 64;
            ss__scn_stmt **nv = ss__scn_alloc(arena, sizeof *nv * (size_t)ncap);
            if (!nv)
                return ss__scn_fail(err, s->loc, "out of host memory (the scenario is too large)");
            if (cap)
                memcpy(nv, v, sizeof *nv * (size_t)cap);
            v = nv;
            cap = ncap;
        }
        v[out->nstmts++] = s;
    }
    out->stmts = v;
    return SS_OK;
}
