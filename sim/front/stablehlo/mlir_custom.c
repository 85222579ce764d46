/*
 * mlir_custom.c — one reader for the pretty (custom assembly) forms of
 * ops. MLIR prints every op on its own line(s), so a pretty op runs from
 * its name to the first token at the start of a line that begins another
 * op (%name =, "generic", dialect.op, return, call, ^label) or to the `}`
 * that closes its region, whichever comes first at bracket depth 0. In
 * between it reads, in any order:
 *   %operand (also inside `(...)` groups, `init:` and `%arg = %operand` of
 *            stablehlo.while, whose names become the regions' arguments)
 *   name = value      a named attribute; value is an attribute, a bare
 *                     keyword, [lists] of those, `[0] x [1]` pairs,
 *                     {"a", "b"} axis sets or a {dict}
 *   keyword, @symbol, "string", dense<..>, <@mesh, [..]> (positional, in order)
 *   [0:2, 1:4:2] / [1] after an operand (slice ranges / tuple index)
 *   (%a: T, ...) argument lists of the next region, and {regions}
 *   {attr dict}, `: types` (a function type, `T -> T`, or a list `T, T`)
 * The op's results get types from the types written (mlir_canon.c knows
 * the ops whose lists mean something else), positional items are kept in
 * order in the attribute `ss.pos` until mlir_canon.c names them.
 */
#include "front/stablehlo/mlir_internal.h"

#include <ctype.h>
#include <string.h>

typedef struct custom_state {
    ss__mlir_op *op;
    ss__mlir_vec operands, names, vals, pos, regions;
    ss__mlir_vec pending;      /* lists (vec*) of block arguments for the next region */
    ss__mlir_vec iter_names;   /* while's %iterArg names */
    ss__mlir_vec types;        /* after ':' */
    ss__mlir_vec res_types;    /* after '->' of `A, B -> C` */
    ss__mlir_type *fn;         /* a function type after ':' */
    bool arrow;                /* `T -> T` */
    bool last_was_operand;
    bool next_is_init;         /* after `init:` */
    ss__mlir_vec inits;        /* reduce's init values, after its inputs */
} custom_state;

static bool is_op_start(ss__mlir_parser *p)
{
    /* At a line start: does this token begin a new op? */
    const char *s = p->p;
    if (*s == '%' || *s == '^' || *s == '"' || *s == '}' || *s == '#' || *s == '!')
        return true;
    if (!ss__mlir_is_bare_start((unsigned char)*s))
        return false;
    const char *e = s;
    bool dot = false;
    while (isalnum((unsigned char)*e) || *e == '_' || *e == '$' || *e == '.')
        dot |= *e++ == '.';
    size_t n = (size_t)(e - s);
    if (dot)
        return true;
    return (n == 6 && strncmp(s, "return", 6) == 0) || (n == 4 && strncmp(s, "call", 4) == 0) ||
           (n == 6 && strncmp(s, "module", 6) == 0);
}

static ss__mlir_attr *kw_attr(ss__mlir_parser *p, const char *kw)
{
    ss__mlir_attr *a = ss__mlir_new_attr(p, SS__MLIR_AT_KEYWORD);
    if (a)
        a->s = kw;
    return a;
}

static ss__mlir_attr *custom_value(ss__mlir_parser *p);

/* `[` eaten: a list whose items may be keywords or shardings. */
static ss__mlir_attr *custom_list(ss__mlir_parser *p)
{
    ss__mlir_ws(p);
    if (*p->p == '<')
        return ss__mlir_p_sdy_list(p);
    ss__mlir_vec v = {0};
    ss__mlir_attr *a = NULL;
    bool ok = ss__mlir_enter(p);
    if (ok && !ss__mlir_peek(p, "]")) {
        do {
            ss__mlir_attr *x = custom_value(p);
            if (!x) {
                ok = false;
                break;
            }
            ss__mlir_vec_push(&v, x);
        } while (ss__mlir_accept(p, ","));
    }
    if (ok)
        ss__mlir_leave(p);
    if (ok && ss__mlir_expect(p, "]", "to close the list")) {
        if ((a = ss__mlir_new_attr(p, SS__MLIR_AT_ARRAY))) {
            a->n = v.n;
            a->items = (ss__mlir_attr **)ss__mlir_vec_copy(p, &v);
            if (!a->items)
                a = NULL;
        }
    }
    ss__mlir_vec_free(&v);
    return a;
}

/* The value of `name = value` in a pretty op. */
static ss__mlir_attr *custom_value(ss__mlir_parser *p)
{
    if (!ss__mlir_enter(p))
        return NULL;
    ss__mlir_attr *a = NULL;
    ss__mlir_ws(p);
    const char *s = p->p;
    if (*s == '[') {
        p->p++;
        a = custom_list(p);
    } else if (*s == '{') {
        /* {"a", "b"}: an axis set; else a dict whose values are pretty values. */
        p->p++;
        ss__mlir_ws(p);
        if (*p->p == '"' || *p->p == '}') {
            ss__mlir_vec v = {0};
            if (!ss__mlir_peek(p, "}")) {
                do {
                    ss__mlir_attr *x = ss__mlir_p_attr(p);
                    if (!x)
                        break;
                    ss__mlir_vec_push(&v, x);
                } while (ss__mlir_accept(p, ","));
            }
            if (!p->failed && ss__mlir_expect(p, "}", "to close the set") &&
                (a = ss__mlir_new_attr(p, SS__MLIR_AT_ARRAY))) {
                a->n = v.n;
                a->items = (ss__mlir_attr **)ss__mlir_vec_copy(p, &v);
            }
            ss__mlir_vec_free(&v);
        } else {
            ss__mlir_vec names = {0}, vals = {0};
            do {
                const char *k = ss__mlir_bare_id(p);
                ss__mlir_attr *x = NULL;
                if (!k || !ss__mlir_expect(p, "=", "in a dictionary") || !(x = custom_value(p)) ||
                    !ss__mlir_set_attr(p, &names, &vals, k, x))
                    break;
            } while (ss__mlir_accept(p, ","));
            if (!p->failed && ss__mlir_expect(p, "}", "to close the dictionary") &&
                (a = ss__mlir_new_attr(p, SS__MLIR_AT_DICT))) {
                a->n = names.n;
                a->names = (const char **)ss__mlir_vec_copy(p, &names);
                a->items = (ss__mlir_attr **)ss__mlir_vec_copy(p, &vals);
            }
            ss__mlir_vec_free(&names);
            ss__mlir_vec_free(&vals);
        }
    } else if (*s == '<') {
        p->p++;
        if ((a = ss__mlir_new_attr(p, SS__MLIR_AT_SDY_SHARDING)))
            a->sdy = ss__mlir_p_sdy_sharding(p);
    } else if (ss__mlir_is_bare_start((unsigned char)*s) && !ss__mlir_peek_kw(p, "true") &&
               !ss__mlir_peek_kw(p, "false") && !ss__mlir_peek_kw(p, "dense") &&
               !ss__mlir_peek_kw(p, "array") && !ss__mlir_peek_kw(p, "unit") &&
               !ss__mlir_peek_type(p)) {
        const char *kw = ss__mlir_bare_id(p);
        if (kw)
            a = kw_attr(p, kw);
    } else {
        a = ss__mlir_p_attr(p);
    }
    /* `[0] x [1]` and `[b, 0, f]x[0, i, o]->[b, 0, f]`. */
    if (!p->failed && a && (ss__mlir_peek_kw(p, "x") || ss__mlir_peek(p, "->") ||
                            (ss__mlir_peek(p, "x[")))) {
        ss__mlir_attr *pair = ss__mlir_new_attr(p, SS__MLIR_AT_PAIR);
        ss__mlir_vec v = {0};
        ss__mlir_vec_push(&v, a);
        while (pair && !p->failed) {
            if (ss__mlir_peek(p, "x[") || ss__mlir_peek_kw(p, "x"))
                p->p++;
            else if (!ss__mlir_accept(p, "->"))
                break;
            ss__mlir_attr *b = custom_value(p);
            if (!b)
                break;
            ss__mlir_vec_push(&v, b);
        }
        if (pair && !p->failed) {
            pair->n = v.n;
            pair->items = (ss__mlir_attr **)ss__mlir_vec_copy(p, &v);
        }
        ss__mlir_vec_free(&v);
        a = pair;
    }
    ss__mlir_leave(p);
    return p->failed ? NULL : a;
}

/* `[0:2, 1:4:2]` or `[1]` after an operand: ss.slice = [[start, limit, stride]...] or ss.index. */
static bool index_list(ss__mlir_parser *p, custom_state *c)
{
    ss__mlir_vec items = {0};
    bool ranges = false, ok = true;
    if (!ss__mlir_peek(p, "]")) {
        do {
            int64_t v[3] = {0, 0, 1};
            int n = 0;
            do {
                bool neg, hex;
                uint64_t mag;
                if (n == 3 || !ss__mlir_int_lit(p, &neg, &mag, &hex)) {
                    ok = n == 3 ? ss__mlir_err(p, "a slice range has at most 3 parts") : false;
                    break;
                }
                if (mag > INT64_MAX) {
                    ok = ss__mlir_err(p, "index out of range");
                    break;
                }
                v[n++] = neg ? -(int64_t)mag : (int64_t)mag;
            } while (ss__mlir_peek(p, ":") && !ss__mlir_peek(p, "::") && p->p++);
            if (!ok)
                break;
            ranges |= n > 1;
            ss__mlir_attr *a = ss__mlir_new_attr(p, SS__MLIR_AT_ARRAY);
            if (!a || !(a->items = ss__mlir_alloc(&p->m->arena, sizeof *a->items * 3))) {
                ok = ss__mlir_oom(p);
                break;
            }
            a->n = n == 1 ? 1 : 3;
            for (int i = 0; i < a->n; i++)
                if (!(a->items[i] = ss__mlir_int_attr(p, v[i], NULL)))
                    ok = false;
            ss__mlir_vec_push(&items, a);
        } while (ok && ss__mlir_accept(p, ","));
    }
    ok = ok && ss__mlir_expect(p, "]", "to close the index list");
    if (ok) {
        ss__mlir_attr *a = ss__mlir_new_attr(p, SS__MLIR_AT_ARRAY);
        ok = a && (a->items = (ss__mlir_attr **)ss__mlir_vec_copy(p, &items));
        if (ok) {
            a->n = items.n;
            ok = ss__mlir_set_attr(p, &c->names, &c->vals, ranges ? "ss.slice" : "ss.index", a);
        }
    }
    ss__mlir_vec_free(&items);
    return ok;
}

/* `(%a: T loc(..), ...)` — the '(' eaten — onto c->pending. */
static bool arg_list(ss__mlir_parser *p, custom_state *c)
{
    ss__mlir_vec *list = ss__mlir_alloc(&p->m->arena, sizeof *list);
    if (!list)
        return ss__mlir_oom(p);
    ss__mlir_vec_push(&c->pending, list);
    do {
        const char *name = ss__mlir_suffix_id(p, '%');
        ss__mlir_type *t;
        ss__mlir_value *v;
        if (!name || !ss__mlir_expect(p, ":", "after a region argument") ||
            !(t = ss__mlir_p_type(p)) || !(v = ss__mlir_new_value(p, name, t)))
            return false;
        v->loc = ss__mlir_p_loc_opt(p);
        if (p->failed)
            return false;
        ss__mlir_vec_push(list, v);
    } while (ss__mlir_accept(p, ","));
    return ss__mlir_expect(p, ")", "to close the region arguments");
}

static bool region_ahead(ss__mlir_parser *p, const custom_state *c)
{
    /* At '{': a region, or an attribute dictionary? */
    if (c->pending.n || c->iter_names.n)
        return true;
    const char *s = p->p + 1;
    while (isspace((unsigned char)*s))
        s++;
    if (*s == '^' || *s == '%')
        return true;
    if (*s == '}')
        return false;
    if (*s == '"') {
        /* "op"(...) is a generic op; "key" = ... a quoted attribute name. */
        s++;
        while (*s && *s != '"' && *s != '\n')
            s += (*s == '\\' && s[1]) ? 2 : 1;
        if (*s == '"')
            s++;
        while (*s == ' ')
            s++;
        return *s == '(';
    }
    const char *e = s;
    while (isalnum((unsigned char)*e) || *e == '_' || *e == '$' || *e == '.')
        e++;
    while (*e == ' ' || *e == '\t')
        e++;
    return !(*e == '=' || *e == ',' || *e == '}');
}

static bool free_vecs(custom_state *c, bool ok)
{
    for (int i = 0; i < c->pending.n; i++)
        ss__mlir_vec_free(c->pending.v[i]);
    ss__mlir_vec *all[] = {&c->operands, &c->names, &c->vals, &c->pos, &c->regions, &c->pending,
                           &c->iter_names, &c->types, &c->res_types, &c->inits};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        ss__mlir_vec_free(all[i]);
    return ok;
}

static bool take_region(ss__mlir_parser *p, custom_state *c)
{
    ss__mlir_vec args = {0};
    if (c->pending.n == 1) {
        ss__mlir_vec *l = c->pending.v[0];
        for (int i = 0; i < l->n; i++)
            ss__mlir_vec_push(&args, l->v[i]);
    } else if (c->pending.n > 1) {
        /* reduce's `reducer(%a0: T, %b0: T) (%a1: T, %b1: T)`: the body's
         * arguments are all lhs values, then all rhs values. */
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < c->pending.n; i++) {
                ss__mlir_vec *l = c->pending.v[i];
                if (l->n != 2) {
                    ss__mlir_vec_free(&args);
                    return ss__mlir_err(p, "each reducer argument list pairs two values");
                }
                ss__mlir_vec_push(&args, l->v[k]);
            }
    } else if (c->iter_names.n) {
        /* stablehlo.while: both regions take the loop values. */
        if (c->types.n != c->iter_names.n)
            return ss__mlir_err(p, "stablehlo.while lists %d values and %d types",
                                c->iter_names.n, c->types.n);
        for (int i = 0; i < c->iter_names.n; i++) {
            ss__mlir_value *v = ss__mlir_new_value(p, c->iter_names.v[i], c->types.v[i]);
            if (!v)
                return false;
            ss__mlir_vec_push(&args, v);
        }
    }
    for (int i = 0; i < c->pending.n; i++)
        ss__mlir_vec_free(c->pending.v[i]);
    c->pending.n = 0;
    ss__mlir_region *r = args.oom ? (ss__mlir_oom(p), NULL) : ss__mlir_p_region(p, &args);
    ss__mlir_vec_free(&args);
    if (!r)
        return false;
    ss__mlir_vec_push(&c->regions, r);
    return true;
}

static bool read_types(ss__mlir_parser *p, custom_state *c)
{
    /* `(A, B) -> C`, or `A, B` optionally followed by `-> C` / `-> (C, D)`
     * (chlo's form). */
    ss__mlir_ws(p);
    ss__mlir_type *t = ss__mlir_p_type(p);
    if (!t)
        return false;
    if (t->kind == SS__MLIR_TY_FUNC) {
        c->fn = t;
        return true;
    }
    ss__mlir_vec_push(&c->types, t);
    while (ss__mlir_accept(p, ",")) {
        if (!(t = ss__mlir_p_type(p)))
            return false;
        ss__mlir_vec_push(&c->types, t);
    }
    if (ss__mlir_accept(p, "->")) {
        c->arrow = true;
        if (ss__mlir_peek(p, "("))
            return ss__mlir_p_type_list_paren(p, &c->res_types);
        if (!(t = ss__mlir_p_type(p)))
            return false;
        ss__mlir_vec_push(&c->res_types, t);
    }
    return true;
}

/* Items up to the end of the op (or `)` when in_group). */
static bool items(ss__mlir_parser *p, custom_state *c, bool in_group)
{
    for (;;) {
        if (p->failed)
            return false;
        ss__mlir_ws(p);
        const char *s = p->p;
        if (!*s)
            return in_group ? ss__mlir_err(p, "expected ')', found the end of the text") : true;
        if (in_group && *s == ')') {
            p->p++;
            return true;
        }
        if (!in_group && (*s == '}' || (ss__mlir_at_line_start(p) && is_op_start(p))))
            return true;
        if (ss__mlir_peek_kw(p, "loc"))
            return in_group ? ss__mlir_err(p, "unexpected loc(...) inside parentheses") : true;
        if (*s == ',') {
            p->p++;
            continue;
        }
        if (*s == '%') {
            /* %x: an operand; `%arg = %x` (while) names a region argument. */
            const char *save = p->p;
            const char *name = ss__mlir_suffix_id(p, '%');
            if (!name)
                return false;
            if (ss__mlir_peek(p, "=") && !ss__mlir_peek(p, "==")) {
                p->p++;
                ss__mlir_vec_push(&c->iter_names, (void *)name);
            } else if (ss__mlir_peek(p, ":") && in_group) {
                return ss__mlir_err_at(p, save, SS_ERR_PARSE, "unexpected argument declaration");
            } else {
                p->p = save;
            }
            ss__mlir_value *v = ss__mlir_p_use(p);
            if (!v)
                return false;
            ss__mlir_vec_push(c->next_is_init ? &c->inits : &c->operands, v);
            c->next_is_init = false;
            c->last_was_operand = true;
            continue;
        }
        bool was_operand = c->last_was_operand;
        c->last_was_operand = false;
        if (*s == '(') {
            p->p++;
            ss__mlir_ws(p);
            if (*p->p == '%') {
                /* (%a: T) declares region arguments; (%a, %b) groups operands. */
                const char *q = p->p + 1;
                while (isalnum((unsigned char)*q) || *q == '_' || *q == '$' || *q == '.' ||
                       *q == '-')
                    q++;
                while (*q == ' ')
                    q++;
                if (*q == ':' && q[1] != ':') {
                    if (!arg_list(p, c))
                        return false;
                    continue;
                }
            }
            if (!ss__mlir_enter(p) || !items(p, c, true))
                return false;
            ss__mlir_leave(p);
            continue;
        }
        if (*s == '[') {
            p->p++;
            ss__mlir_attr *a;
            if (was_operand) {
                if (!index_list(p, c))
                    return false;
            } else if (!(a = custom_list(p))) {
                return false;
            } else {
                ss__mlir_vec_push(&c->pos, a);
            }
            continue;
        }
        if (*s == '{') {
            if (region_ahead(p, c)) {
                if (!take_region(p, c))
                    return false;
            } else {
                p->p++;
                ss__mlir_attr *d = ss__mlir_p_dict_body(p);
                if (!d)
                    return false;
                for (int i = 0; i < d->n; i++)
                    if (!ss__mlir_set_attr(p, &c->names, &c->vals, d->names[i], d->items[i]))
                        return false;
            }
            continue;
        }
        if (*s == ':' && s[1] != ':') {
            if (in_group)
                return ss__mlir_err(p, "unexpected ':' inside parentheses");
            p->p++;
            if (!read_types(p, c))
                return false;
            continue;
        }
        if (*s == '<') {
            p->p++;
            ss__mlir_attr *a = ss__mlir_new_attr(p, SS__MLIR_AT_SDY_SHARDING);
            if (!a || !(a->sdy = ss__mlir_p_sdy_sharding(p)))
                return false;
            ss__mlir_vec_push(&c->pos, a);
            continue;
        }
        if (ss__mlir_is_bare_start((unsigned char)*s) && !ss__mlir_peek_kw(p, "dense") &&
            !ss__mlir_peek_kw(p, "array") && !ss__mlir_peek_kw(p, "true") &&
            !ss__mlir_peek_kw(p, "false")) {
            const char *kw = ss__mlir_bare_id(p);
            if (!kw)
                return false;
            if (ss__mlir_peek(p, "=") && !ss__mlir_peek(p, "==")) {
                p->p++;
                ss__mlir_attr *v = custom_value(p);
                if (!v || !ss__mlir_set_attr(p, &c->names, &c->vals, kw, v))
                    return false;
                continue;
            }
            if (ss__mlir_peek(p, ":") && !ss__mlir_peek(p, "::") && in_group) {
                /* reduce's `(%x init: %i), (%y init: %j)`: the op takes the
                 * inputs first, then the init values. */
                p->p++;
                c->next_is_init = strcmp(kw, "init") == 0;
                continue;
            }
            /* Words that only introduce regions or argument lists. */
            if (strcmp(kw, "cond") == 0 || strcmp(kw, "do") == 0 || strcmp(kw, "reducer") == 0)
                continue;
            ss__mlir_attr *a = kw_attr(p, kw);
            if (!a)
                return false;
            ss__mlir_vec_push(&c->pos, a);
            continue;
        }
        ss__mlir_attr *a = ss__mlir_p_attr(p);
        if (!a)
            return false;
        ss__mlir_vec_push(&c->pos, a);
    }
}

bool ss__mlir_p_custom(ss__mlir_parser *p, ss__mlir_op *op, int nresults, const char *at)
{
    custom_state c = {.op = op};
    if (!items(p, &c, false))
        return free_vecs(&c, false);
    if (c.pending.n)
        return free_vecs(&c, ss__mlir_err(p, "region arguments without a region"));
    for (int i = 0; i < c.inits.n; i++)
        ss__mlir_vec_push(&c.operands, c.inits.v[i]);
    /* Result types: a function type's results; `T -> R`: R; a list of as
     * many types as results: those; one type: every result (and operand). */
    ss__mlir_vec res = {0};
    if (c.fn) {
        /* `: (A, B) -> C` states the operands' types: they must agree. */
        if (c.fn->n != c.operands.n)
            return free_vecs(&c, ss__mlir_err_at(p, at, SS_ERR_PARSE,
                                                 "'%s' has %d operands, its type lists %d",
                                                 op->name, c.operands.n, c.fn->n));
        for (int i = 0; i < c.fn->n; i++)
            if (!ss__mlir_type_equal(((ss__mlir_value *)c.operands.v[i])->type, c.fn->items[i]))
                return free_vecs(&c, ss__mlir_err_at(p, at, SS_ERR_PARSE,
                                                     "operand %d of '%s' does not have the type "
                                                     "its signature says", i, op->name));
        for (int i = 0; i < c.fn->nres; i++)
            ss__mlir_vec_push(&res, c.fn->res[i]);
    } else if (c.arrow) {
        for (int i = 0; i < c.res_types.n; i++)
            ss__mlir_vec_push(&res, c.res_types.v[i]);
    } else if (c.types.n == nresults) {
        for (int i = 0; i < c.types.n; i++)
            ss__mlir_vec_push(&res, c.types.v[i]);
    } else if (c.types.n == 0 && nresults == 1 && c.pos.n &&
               ((ss__mlir_attr *)c.pos.v[c.pos.n - 1])->kind == SS__MLIR_AT_DENSE) {
        /* stablehlo.constant dense<...> : T — the type is the value's. */
        ss__mlir_vec_push(&res, (void *)((ss__mlir_attr *)c.pos.v[c.pos.n - 1])->type);
    } else if (c.types.n == 1 || (c.types.n == 2 && strcmp(op->name, "stablehlo.select") == 0)) {
        /* `add ... : T`, and `select %p, %a, %b : tensor<i1>, tensor<4xf32>`
         * (the predicate's type, then the result's). */
        for (int i = 0; i < nresults; i++)
            ss__mlir_vec_push(&res, c.types.v[c.types.n - 1]);
    }
    if (res.n != nresults && nresults > 0) {
        ss__mlir_vec_free(&res);
        return free_vecs(&c, ss__mlir_err_at(p, at, SS_ERR_PARSE,
                                             "'%s': %d results named, %d result types written",
                                             op->name, nresults, res.n));
    }
    bool ok = !res.oom || ss__mlir_oom(p);
    ok = ok && ss__mlir_make_results(p, op, res.n, (ss__mlir_type **)res.v);
    ss__mlir_vec_free(&res);
    if (ok && c.pos.n) {
        ss__mlir_attr *a = ss__mlir_new_attr(p, SS__MLIR_AT_ARRAY);
        ok = a && (a->items = (ss__mlir_attr **)ss__mlir_vec_copy(p, &c.pos));
        if (ok) {
            a->n = c.pos.n;
            ok = ss__mlir_set_attr(p, &c.names, &c.vals, "ss.pos", a);
        }
    }
    if (ok && (c.names.oom || c.vals.oom || c.operands.oom || c.regions.oom || c.types.oom))
        ok = ss__mlir_oom(p);
    if (ok) {
        op->noperands = c.operands.n;
        op->operands = (ss__mlir_value **)ss__mlir_vec_copy(p, &c.operands);
        op->nregions = c.regions.n;
        op->regions = (ss__mlir_region **)ss__mlir_vec_copy(p, &c.regions);
        op->nattrs = c.names.n;
        op->attrs = ss__mlir_alloc(&p->m->arena, sizeof *op->attrs * (size_t)(c.names.n + 1));
        ok = op->operands && op->regions && (op->attrs || ss__mlir_oom(p));
        for (int i = 0; ok && i < c.names.n; i++)
            op->attrs[i] = (ss__mlir_named){c.names.v[i], c.vals.v[i]};
    }
    return free_vecs(&c, ok);
}
