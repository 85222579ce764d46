/*
 * mlir_attr.c — attributes: unit, true/false, integers and floats with an
 * optional `: type`, strings, [arrays], {dicts}, array<i64: 1, 2>, dense
 * elements (splat, nested lists, "0x..." hex blobs of little-endian
 * element bytes), types, @symbol refs, #aliases, dialect attributes
 * (#stablehlo<comparison_direction EQ>, #stablehlo.gather<k = v, ...>)
 * and the Shardy ones (mlir_sdy.c).
 */
#include "front/stablehlo/mlir_internal.h"

#include <ctype.h>
#include <string.h>

ss__mlir_attr *ss__mlir_new_attr(ss__mlir_parser *p, ss__mlir_attr_kind kind)
{
    ss__mlir_attr *a = ss__mlir_alloc(&p->m->arena, sizeof *a);
    if (!a) {
        ss__mlir_oom(p);
        return NULL;
    }
    a->kind = kind;
    return a;
}

ss__mlir_attr *ss__mlir_int_attr(ss__mlir_parser *p, int64_t v, const ss__mlir_type *t)
{
    ss__mlir_attr *a = ss__mlir_new_attr(p, SS__MLIR_AT_INT);
    if (a) {
        a->i = v;
        a->type = t;
    }
    return a;
}

ss__mlir_alias *ss__mlir_alias_find(ss__mlir_parser *p, const char *name)
{
    int i = ss__mlir_hmap_get(&p->alias_map, name);
    return i >= 0 ? p->aliases.v[i] : NULL;
}

bool ss__mlir_alias_add(ss__mlir_parser *p, ss__mlir_alias *a)
{
    if (ss__mlir_alias_find(p, a->name))
        return ss__mlir_err(p, "redefinition of alias '%s'", a->name);
    ss__mlir_vec_push(&p->aliases, a);
    if (p->aliases.oom || ss__mlir_hmap_put(&p->alias_map, a->name, p->aliases.n - 1) == -2)
        return ss__mlir_oom(p);
    return true;
}

/* ---- dense elements ------------------------------------------------------------ */

typedef struct dense_ctx {
    const ss__mlir_type *t;
    ss__mlir_elem e;
    size_t size;
    unsigned char *data;
    int64_t n, cap;
} dense_ctx;

static bool dense_scalar(ss__mlir_parser *p, dense_ctx *c, unsigned char *dst)
{
    ss__mlir_ws(p);
    const char *at = p->p;
    bool ok;
    if (ss__mlir_accept_kw(p, "true") || ss__mlir_accept_kw(p, "false")) {
        bool v = at[0] == 't';
        ok = ss__mlir_store_elem(c->e, false, 0, false, v, false, dst);
        if (!ok || c->e != SS__MLIR_I1)
            return ss__mlir_err_at(p, at, SS_ERR_PARSE, "'%s' is not a value of %s",
                                   v ? "true" : "false", ss__mlir_elem_name(c->e));
        return true;
    }
    if (*at == '(')
        return ss__mlir_err_at(p, at, SS_ERR_UNSUPPORTED, "complex values are not supported");
    bool is_float;
    if (!ss__mlir_peek_number(p, &is_float))
        return ss__mlir_err(p, "expected a number in dense<...>, found '%.12s'", at);
    bool neg = false, hex = false;
    uint64_t mag = 0;
    double fv = 0;
    if (is_float ? !ss__mlir_float_lit(p, &fv) : !ss__mlir_int_lit(p, &neg, &mag, &hex))
        return false;
    if (!ss__mlir_store_elem(c->e, is_float, fv, neg, mag, hex, dst))
        return ss__mlir_err_at(p, at, SS_ERR_PARSE, "%.*s is not a value of %s",
                               (int)(p->p - at), at, ss__mlir_elem_name(c->e));
    return true;
}

static bool dense_list(ss__mlir_parser *p, dense_ctx *c, int dim)
{
    if (!ss__mlir_enter(p))
        return false;
    /* '[' eaten. Exactly dims[dim] entries, each a list (inner dims) or a scalar. */
    int64_t want = c->t->dims[dim];
    int64_t got = 0;
    if (!ss__mlir_peek(p, "]")) {
        do {
            if (got == want) {
                ss__mlir_leave(p);
                return ss__mlir_err(p, "dense<...> dimension %d has more than %lld elements",
                                    dim, (long long)want);
            }
            if (dim + 1 < c->t->rank) {
                if (!ss__mlir_expect(p, "[", "(a nested list of the tensor's shape)") ||
                    !dense_list(p, c, dim + 1)) {
                    ss__mlir_leave(p);
                    return false;
                }
            } else {
                if (c->n >= c->cap) {
                    ss__mlir_leave(p);
                    return ss__mlir_err(p, "dense<...> has more elements than its type");
                }
                if (!dense_scalar(p, c, c->data + (size_t)c->n * c->size)) {
                    ss__mlir_leave(p);
                    return false;
                }
                c->n++;
            }
            got++;
        } while (ss__mlir_accept(p, ","));
    }
    ss__mlir_leave(p);
    if (!ss__mlir_expect(p, "]", "to close a dense<...> list"))
        return false;
    if (got != want)
        return ss__mlir_err(p, "dense<...> dimension %d has %lld elements, the type says %lld",
                            dim, (long long)got, (long long)want);
    return true;
}

static bool dense_hex(ss__mlir_parser *p, ss__mlir_attr *a, dense_ctx *c, const char *s,
                      size_t len, const char *at)
{
    if (len < 2 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || (len - 2) % 2)
        return ss__mlir_err_at(p, at, SS_ERR_PARSE,
                               "dense<\"...\"> must hold \"0x\" and an even number of hex digits");
    size_t nbytes = (len - 2) / 2;
    int64_t total;
    if (!ss__mul_i64_checked(a->count, (int64_t)c->size, &total))
        return ss__mlir_err_at(p, at, SS_ERR_PARSE, "dense<...> type too large");
    if ((int64_t)nbytes == (int64_t)c->size && a->count != 1) {
        a->splat = true;
    } else if ((int64_t)nbytes != total) {
        return ss__mlir_err_at(p, at, SS_ERR_PARSE,
                               "dense<\"0x...\"> holds %zu bytes; %lld elements of %s need %lld",
                               nbytes, (long long)a->count, ss__mlir_elem_name(c->e),
                               (long long)total);
    }
    a->data = ss__mlir_alloc(&p->m->arena, nbytes ? nbytes : 1);
    if (!a->data)
        return ss__mlir_oom(p);
    for (size_t i = 0; i < nbytes; i++) {
        int hi = s[2 + 2 * i], lo = s[3 + 2 * i];
        if (!isxdigit(hi) || !isxdigit(lo))
            return ss__mlir_err_at(p, at, SS_ERR_PARSE, "dense<\"0x...\"> has a non-hex digit");
        a->data[i] = (unsigned char)((isdigit(hi) ? hi - '0' : (tolower(hi) - 'a' + 10)) * 16 +
                                     (isdigit(lo) ? lo - '0' : (tolower(lo) - 'a' + 10)));
    }
    if (c->e == SS__MLIR_I1)
        for (size_t i = 0; i < nbytes; i++)
            if (a->data[i] > 1)
                return ss__mlir_err_at(p, at, SS_ERR_PARSE,
                                       "dense<\"0x...\"> of i1 holds a byte other than 00 or 01");
    return true;
}

ss__mlir_attr *ss__mlir_p_dense(ss__mlir_parser *p)
{
    /* The body comes before its type: skip it, read `: type`, come back. */
    const char *body = p->p;
    int bline = p->line;
    const char *bls = p->line_start;
    if (!ss__mlir_balanced(p, '<', '>'))
        return NULL;
    if (!ss__mlir_expect(p, ":", "and the type after dense<...>"))
        return NULL;
    const char *tat = p->p;
    ss__mlir_type *t = ss__mlir_p_type(p);
    if (!t)
        return NULL;
    if (t->kind != SS__MLIR_TY_TENSOR) {
        ss__mlir_err_at(p, tat, SS_ERR_PARSE, "dense<...> needs a tensor type");
        return NULL;
    }
    const char *end = p->p;
    int eline = p->line;
    const char *els = p->line_start;
    p->p = body;
    p->line = bline;
    p->line_start = bls;

    ss__mlir_attr *a = ss__mlir_new_attr(p, SS__MLIR_AT_DENSE);
    if (!a)
        return NULL;
    a->type = t;
    dense_ctx c = {.t = t, .e = t->elem, .size = ss__mlir_elem_size(t->elem)};
    if (!ss__mlir_type_count(t, &a->count)) {
        ss__mlir_err_at(p, tat, SS_ERR_PARSE, "tensor type with more than 2^63 elements");
        return NULL;
    }
    ss__mlir_ws(p);
    const char *at = p->p;
    if (*at == '"') {
        size_t len;
        char *s = ss__mlir_string(p, &len);
        if (!s || !dense_hex(p, a, &c, s, len, at))
            return NULL;
    } else if (*at == '[') {
        p->p++;
        /* Every element is written: the text bounds the count. */
        if (a->count > (int64_t)(p->end - p->p)) {
            ss__mlir_err_at(p, at, SS_ERR_PARSE, "dense<[...]> has fewer elements than its type");
            return NULL;
        }
        if (t->rank == 0) {
            ss__mlir_err_at(p, at, SS_ERR_PARSE, "a rank-0 dense<...> takes one value, not a list");
            return NULL;
        }
        c.cap = a->count;
        c.data = a->data = ss__mlir_alloc(&p->m->arena, (size_t)a->count * c.size + 1);
        if (!c.data) {
            ss__mlir_oom(p);
            return NULL;
        }
        if (!dense_list(p, &c, 0))
            return NULL;
    } else if (*at == '>') {
        if (a->count != 0) {
            ss__mlir_err_at(p, at, SS_ERR_PARSE, "empty dense<> for a type with %lld elements",
                            (long long)a->count);
            return NULL;
        }
    } else {
        a->splat = a->count != 1;
        c.data = a->data = ss__mlir_alloc(&p->m->arena, c.size);
        if (!c.data) {
            ss__mlir_oom(p);
            return NULL;
        }
        if (!dense_scalar(p, &c, c.data))
            return NULL;
    }
    if (!ss__mlir_expect(p, ">", "to close dense<...>"))
        return NULL;
    p->p = end;
    p->line = eline;
    p->line_start = els;
    return a;
}

static ss__mlir_attr *dense_array(ss__mlir_parser *p)
{
    /* `array<` eaten: an element type, then `: v, v` or nothing. */
    ss__mlir_type *t = ss__mlir_p_type(p);
    if (!t)
        return NULL;
    if (t->kind != SS__MLIR_TY_SCALAR || t->elem == SS__MLIR_INDEX) {
        ss__mlir_err(p, "array<...> takes an integer or float element type");
        return NULL;
    }
    ss__mlir_attr *a = ss__mlir_new_attr(p, SS__MLIR_AT_DENSE_ARRAY);
    if (!a)
        return NULL;
    a->type = t;
    dense_ctx c = {.e = t->elem, .size = ss__mlir_elem_size(t->elem)};
    if (ss__mlir_accept(p, ":")) {
        int64_t cap = 0;
        do {
            if (c.n == cap) {
                int64_t ncap = cap ? cap * 2 : 8;
                if (ncap > (int64_t)(p->end - p->text) + 8) {
                    ss__mlir_err(p, "array<...> longer than the text");
                    return NULL;
                }
                unsigned char *nd = ss__mlir_alloc(&p->m->arena, (size_t)ncap * c.size);
                if (!nd) {
                    ss__mlir_oom(p);
                    return NULL;
                }
                if (c.n)
                    memcpy(nd, c.data, (size_t)c.n * c.size);
                c.data = nd;
                cap = ncap;
            }
            if (!dense_scalar(p, &c, c.data + (size_t)c.n * c.size))
                return NULL;
            c.n++;
        } while (ss__mlir_accept(p, ","));
    }
    if (!ss__mlir_expect(p, ">", "to close array<...>"))
        return NULL;
    a->count = c.n;
    a->data = c.data;
    return a;
}

/* ---- dictionaries, arrays, dialect attributes ------------------------------------ */

bool ss__mlir_set_attr(ss__mlir_parser *p, ss__mlir_vec *names, ss__mlir_vec *vals,
                       const char *name, ss__mlir_attr *v)
{
    for (int i = 0; i < names->n; i++)
        if (strcmp(names->v[i], name) == 0)
            return ss__mlir_err(p, "attribute '%s' given twice", name);
    ss__mlir_vec_push(names, (void *)name);
    ss__mlir_vec_push(vals, v);
    return names->oom || vals->oom ? ss__mlir_oom(p) : true;
}

/* Entries `key = attr` or `key` up to `close` (not eaten). */
static bool dict_entries(ss__mlir_parser *p, ss__mlir_vec *names, ss__mlir_vec *vals,
                         const char *close)
{
    if (ss__mlir_peek(p, close))
        return true;
    do {
        ss__mlir_ws(p);
        const char *name;
        if (*p->p == '"') {
            size_t n;
            name = ss__mlir_string(p, &n);
        } else {
            name = ss__mlir_bare_id(p);
        }
        if (!name)
            return false;
        ss__mlir_attr *v;
        if (ss__mlir_accept(p, "=")) {
            v = ss__mlir_p_attr(p);
        } else {
            v = ss__mlir_new_attr(p, SS__MLIR_AT_UNIT);
        }
        if (!v || !ss__mlir_set_attr(p, names, vals, name, v))
            return false;
    } while (ss__mlir_accept(p, ","));
    return true;
}

static ss__mlir_attr *dict_from(ss__mlir_parser *p, ss__mlir_attr_kind kind, ss__mlir_vec *names,
                                ss__mlir_vec *vals)
{
    ss__mlir_attr *a = ss__mlir_new_attr(p, kind);
    if (!a)
        return NULL;
    a->n = names->n;
    a->names = (const char **)ss__mlir_vec_copy(p, names);
    a->items = (ss__mlir_attr **)ss__mlir_vec_copy(p, vals);
    return a->names && a->items ? a : NULL;
}

ss__mlir_attr *ss__mlir_p_dict_body(ss__mlir_parser *p)
{
    ss__mlir_vec names = {0}, vals = {0};
    ss__mlir_attr *a = NULL;
    if (ss__mlir_enter(p)) {
        if (dict_entries(p, &names, &vals, "}") &&
            ss__mlir_expect(p, "}", "to close the attribute dictionary"))
            a = dict_from(p, SS__MLIR_AT_DICT, &names, &vals);
        ss__mlir_leave(p);
    }
    ss__mlir_vec_free(&names);
    ss__mlir_vec_free(&vals);
    return a;
}

static ss__mlir_attr *array_body(ss__mlir_parser *p)
{
    ss__mlir_vec vals = {0};
    ss__mlir_attr *a = NULL;
    if (!ss__mlir_enter(p))
        return NULL;
    bool ok = true;
    if (!ss__mlir_peek(p, "]")) {
        do {
            ss__mlir_attr *v = ss__mlir_p_attr(p);
            if (!v) {
                ok = false;
                break;
            }
            ss__mlir_vec_push(&vals, v);
        } while (ss__mlir_accept(p, ","));
    }
    ss__mlir_leave(p);
    if (ok && ss__mlir_expect(p, "]", "to close the array")) {
        a = ss__mlir_new_attr(p, SS__MLIR_AT_ARRAY);
        if (a) {
            a->n = vals.n;
            a->items = (ss__mlir_attr **)ss__mlir_vec_copy(p, &vals);
            if (!a->items)
                a = NULL;
        }
    }
    ss__mlir_vec_free(&vals);
    return a;
}

/* #name<body> of a dialect: `key = value, ...` kept as a dict when it reads
 * so, the body text (blanks squeezed) always. */
static ss__mlir_attr *dialect_attr(ss__mlir_parser *p, const char *name)
{
    const char *dot = strchr(name, '.');
    const char *save = p->p;
    int line = p->line;
    const char *ls = p->line_start;
    if (!dot) {
        /* #stablehlo<comparison_direction EQ>: an enum. */
        const char *body = ss__mlir_balanced(p, '<', '>');
        if (!body)
            return NULL;
        ss__mlir_attr *a = ss__mlir_new_attr(p, SS__MLIR_AT_ENUM);
        if (!a)
            return NULL;
        a->s = name;
        const char *sp = strchr(body, ' ');
        if (sp && !strchr(sp + 1, ' ')) {
            a->s2 = ss__mlir_strndup(&p->m->arena, body, (size_t)(sp - body));
            a->s3 = sp + 1;
        } else {
            a->s2 = body;
        }
        return a;
    }
    if (strcmp(name, "ss.keyword") == 0) {
        ss__mlir_attr *a = ss__mlir_new_attr(p, SS__MLIR_AT_KEYWORD);
        if (a && !(a->s = ss__mlir_bare_id(p)))
            return NULL;
        return a && ss__mlir_expect(p, ">", "to close #ss.keyword<...>") ? a : NULL;
    }
    if (strcmp(name, "ss.pair") == 0) {
        ss__mlir_vec v = {0};
        ss__mlir_attr *pair = ss__mlir_new_attr(p, SS__MLIR_AT_PAIR);
        while (pair && !p->failed) {
            ss__mlir_attr *x = ss__mlir_p_attr(p);
            if (!x)
                break;
            ss__mlir_vec_push(&v, x);
            if (!ss__mlir_accept(p, ","))
                break;
        }
        if (pair && !p->failed && ss__mlir_expect(p, ">", "to close #ss.pair<...>")) {
            pair->n = v.n;
            pair->items = (ss__mlir_attr **)ss__mlir_vec_copy(p, &v);
        }
        ss__mlir_vec_free(&v);
        return p->failed ? NULL : pair;
    }
    ss__mlir_vec names = {0}, vals = {0};
    ss__mlir_attr *a = NULL;
    bool dict = false;
    ss__mlir_ws(p);
    if (ss__mlir_is_bare_start((unsigned char)*p->p)) {
        /* Try `key = value, ...>`; on failure fall back to the text. */
        bool was = p->failed;
        dict = ss__mlir_enter(p) && dict_entries(p, &names, &vals, ">") &&
               ss__mlir_accept(p, ">");
        if (!was && p->failed && p->status == SS_ERR_NOMEM) {
            ss__mlir_vec_free(&names);
            ss__mlir_vec_free(&vals);
            return NULL;
        }
        p->depth = p->depth > 0 ? p->depth - 1 : 0;
        p->failed = was;
        if (!dict) {
            names.n = vals.n = 0;
            names.oom = vals.oom = false;
        }
    }
    const char *end = p->p;
    int eline = p->line;
    const char *els = p->line_start;
    p->p = save;
    p->line = line;
    p->line_start = ls;
    const char *body = ss__mlir_balanced(p, '<', '>');
    if (body && dict) {
        p->p = end;
        p->line = eline;
        p->line_start = els;
        a = dict_from(p, SS__MLIR_AT_DIALECT, &names, &vals);
    } else if (body) {
        a = ss__mlir_new_attr(p, SS__MLIR_AT_DIALECT);
        if (a)
            a->n = -1; /* no dict: the text only */
    }
    if (a) {
        a->s = name;
        a->s2 = body;
        if (a->n < 0)
            a->n = 0;
    }
    ss__mlir_vec_free(&names);
    ss__mlir_vec_free(&vals);
    return a;
}

static ss__mlir_attr *hash_attr(ss__mlir_parser *p)
{
    const char *at = p->p;
    const char *name = ss__mlir_suffix_id(p, '#');
    if (!name)
        return NULL;
    if (*p->p != '<') {
        ss__mlir_alias *al = ss__mlir_alias_find(p, name);
        if (al && al->attr)
            return al->attr;
        ss__mlir_err_at(p, at, SS_ERR_PARSE, "undefined attribute alias '%s'", name);
        return NULL;
    }
    p->p++;
    name++; /* without '#' */
    if (strcmp(name, "sdy.sharding") == 0) {
        ss__mlir_attr *a = ss__mlir_new_attr(p, SS__MLIR_AT_SDY_SHARDING);
        if (a && !(a->sdy = ss__mlir_p_sdy_sharding(p)))
            return NULL;
        return a;
    }
    if (strcmp(name, "sdy.mesh") == 0) {
        ss__mlir_attr *a = ss__mlir_new_attr(p, SS__MLIR_AT_SDY_MESH);
        if (a && !(a->mesh = ss__mlir_p_sdy_mesh(p)))
            return NULL;
        return a;
    }
    if (strcmp(name, "sdy.sharding_per_value") == 0) {
        if (!ss__mlir_expect(p, "[", "in #sdy.sharding_per_value<[...]>"))
            return NULL;
        ss__mlir_attr *a = ss__mlir_p_sdy_list(p);
        if (!a || !ss__mlir_expect(p, ">", "to close #sdy.sharding_per_value<...>"))
            return NULL;
        return a;
    }
    return dialect_attr(p, name);
}

static bool scalar_type_after(ss__mlir_parser *p)
{
    const char *s = p->p + 1;
    while (*s == ' ' || *s == '\t')
        s++;
    return (s[0] == 'i' || s[0] == 'f') ? (s[1] >= '0' && s[1] <= '9')
           : (s[0] == 'u' || s[0] == 's') ? (s[1] == 'i' && s[2] >= '0' && s[2] <= '9')
           : strncmp(s, "bf16", 4) == 0 || strncmp(s, "index", 5) == 0;
}

ss__mlir_attr *ss__mlir_p_attr(ss__mlir_parser *p)
{
    if (!ss__mlir_enter(p))
        return NULL;
    ss__mlir_attr *a = NULL;
    ss__mlir_ws(p);
    const char *at = p->p;
    bool is_float;
    if (*at == '"') {
        size_t len;
        char *s = ss__mlir_string(p, &len);
        if (s && (a = ss__mlir_new_attr(p, SS__MLIR_AT_STRING))) {
            a->s = s;
            a->len = len;
        }
    } else if (*at == '[') {
        p->p++;
        a = array_body(p);
    } else if (*at == '{') {
        p->p++;
        a = ss__mlir_p_dict_body(p);
    } else if (*at == '@') {
        /* @a or @a::@b: kept as written after the first @. */
        const char *s = ss__mlir_symbol(p);
        while (s && ss__mlir_accept(p, "::")) {
            const char *t = ss__mlir_symbol(p);
            if (!t) {
                if (!p->failed)
                    ss__mlir_err(p, "expected @name after '::'");
                s = NULL;
                break;
            }
            size_t n = strlen(s) + strlen(t) + 4;
            char *j = ss__mlir_alloc(&p->m->arena, n);
            if (!j) {
                ss__mlir_oom(p);
                s = NULL;
                break;
            }
            memcpy(j, s, strlen(s));
            memcpy(j + strlen(s), "::@", 3);
            memcpy(j + strlen(s) + 3, t, strlen(t) + 1);
            s = j;
        }
        if (s && (a = ss__mlir_new_attr(p, SS__MLIR_AT_SYMBOL)))
            a->s = s;
    } else if (*at == '#') {
        a = hash_attr(p);
    } else if (ss__mlir_peek_number(p, &is_float)) {
        bool neg = false, hex = false;
        uint64_t mag = 0;
        double fv = 0;
        if (is_float ? ss__mlir_float_lit(p, &fv) : ss__mlir_int_lit(p, &neg, &mag, &hex)) {
            ss__mlir_type *t = NULL;
            /* `: i32` types the number; `: tensor<..>` after `dim = 0` in a
             * pretty op is the op's own type, not the number's. */
            if (ss__mlir_peek(p, ":") && !ss__mlir_peek(p, "::") && scalar_type_after(p)) {
                p->p++;
                t = ss__mlir_p_type(p);
                if (t && t->kind != SS__MLIR_TY_SCALAR) {
                    ss__mlir_err_at(p, at, SS_ERR_PARSE, "a number's type must be scalar");
                    t = NULL;
                }
            }
            if (!p->failed) {
                bool flt = is_float || (t && ss__mlir_elem_is_float(t->elem));
                unsigned char buf[8] = {0};
                if (t && !ss__mlir_store_elem(t->elem == SS__MLIR_INDEX ? SS__MLIR_I64 : t->elem,
                                              is_float, fv, neg, mag, hex, buf)) {
                    ss__mlir_err_at(p, at, SS_ERR_PARSE, "%.*s is not a value of %s",
                                    (int)(strcspn(at, " :,]}>)")), at,
                                    ss__mlir_elem_name(t->elem));
                } else if (flt) {
                    if (t && !is_float) {
                        if (t->elem == SS__MLIR_F64) {
                            memcpy(&fv, buf, 8);
                        } else if (t->elem == SS__MLIR_F32) {
                            float f;
                            memcpy(&f, buf, 4);
                            fv = f;
                        } else {
                            uint16_t h = (uint16_t)(buf[0] | buf[1] << 8);
                            fv = t->elem == SS__MLIR_BF16 ? ss__mlir_bf16_to_f32(h)
                                                          : ss__mlir_f16_to_f64(h);
                        }
                    }
                    if ((a = ss__mlir_new_attr(p, SS__MLIR_AT_FLOAT))) {
                        a->f = fv;
                        a->type = t;
                    }
                } else {
                    if (!t && (neg ? mag > (uint64_t)INT64_MAX + 1 : mag > (uint64_t)INT64_MAX))
                        ss__mlir_err_at(p, at, SS_ERR_PARSE, "integer out of the range of i64");
                    else
                        a = ss__mlir_int_attr(p, neg ? (int64_t)(0 - mag) : (int64_t)mag, t);
                }
            }
        }
    } else if (ss__mlir_accept_kw(p, "true") || ss__mlir_accept_kw(p, "false")) {
        if ((a = ss__mlir_new_attr(p, SS__MLIR_AT_BOOL)))
            a->i = at[0] == 't';
    } else if (ss__mlir_accept_kw(p, "unit")) {
        a = ss__mlir_new_attr(p, SS__MLIR_AT_UNIT);
    } else if (ss__mlir_accept_kw(p, "dense")) {
        if (ss__mlir_expect(p, "<", "after 'dense'"))
            a = ss__mlir_p_dense(p);
    } else if (ss__mlir_accept_kw(p, "array")) {
        if (ss__mlir_expect(p, "<", "after 'array'"))
            a = dense_array(p);
    } else if (ss__mlir_peek_kw(p, "dense_resource") || ss__mlir_peek_kw(p, "sparse") ||
               ss__mlir_peek_kw(p, "affine_map") || ss__mlir_peek_kw(p, "distinct")) {
        ss__mlir_err_at(p, at, SS_ERR_UNSUPPORTED, "unsupported attribute '%.*s'",
                        (int)strcspn(at, "<( "), at);
    } else if (ss__mlir_peek_type(p)) {
        ss__mlir_type *t = ss__mlir_p_type(p);
        if (t && (a = ss__mlir_new_attr(p, SS__MLIR_AT_TYPE)))
            a->type = t;
    } else {
        ss__mlir_err(p, "expected an attribute, found '%.12s'", at);
    }
    ss__mlir_leave(p);
    return p->failed ? NULL : a;
}

/* ---- queries ------------------------------------------------------------------------ */

const ss__mlir_attr *ss__mlir_dict_get(const ss__mlir_attr *dict, const char *name)
{
    if (!dict || (dict->kind != SS__MLIR_AT_DICT && dict->kind != SS__MLIR_AT_DIALECT) ||
        !dict->names)
        return NULL;
    for (int i = 0; i < dict->n; i++)
        if (strcmp(dict->names[i], name) == 0)
            return dict->items[i];
    return NULL;
}

static uint64_t get_le(const unsigned char *s, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v |= (uint64_t)s[i] << (8 * i);
    return v;
}

static const unsigned char *elem_at(const ss__mlir_attr *a, int64_t i, size_t size)
{
    if (!a->data || i < 0 || i >= a->count)
        return NULL;
    return a->data + (a->splat ? 0 : (size_t)i * size);
}

double ss__mlir_dense_f64(const ss__mlir_attr *a, int64_t i)
{
    ss__mlir_elem e = a->type ? a->type->elem : SS__MLIR_NOELEM;
    size_t size = ss__mlir_elem_size(e);
    const unsigned char *s = elem_at(a, i, size);
    if (!s)
        return 0;
    uint64_t u = get_le(s, size);
    switch (e) {
    case SS__MLIR_F64: {
        double d;
        memcpy(&d, &u, 8);
        return d;
    }
    case SS__MLIR_F32: {
        uint32_t w = (uint32_t)u;
        float f;
        memcpy(&f, &w, 4);
        return f;
    }
    case SS__MLIR_BF16:
        return ss__mlir_bf16_to_f32((uint16_t)u);
    case SS__MLIR_F16:
        return ss__mlir_f16_to_f64((uint16_t)u);
    default:
        return (double)ss__mlir_dense_i64(a, i);
    }
}

int64_t ss__mlir_dense_i64(const ss__mlir_attr *a, int64_t i)
{
    ss__mlir_elem e = a->type ? a->type->elem : SS__MLIR_NOELEM;
    size_t size = ss__mlir_elem_size(e);
    const unsigned char *s = elem_at(a, i, size);
    if (!s)
        return 0;
    if (ss__mlir_elem_is_float(e)) {
        /* Saturating: a max-reduction's -inf init is read here too, and
         * converting an out-of-range double is undefined behaviour. */
        double f = ss__mlir_dense_f64(a, i);
        return f != f ? 0 : f >= 9223372036854775807.0 ? INT64_MAX
                        : f <= -9223372036854775808.0 ? INT64_MIN : (int64_t)f;
    }
    uint64_t u = get_le(s, size);
    if (!ss__mlir_elem_is_unsigned(e) && size < 8 && e != SS__MLIR_I1 &&
        (u >> (8 * size - 1)) & 1)
        u |= ~(uint64_t)0 << (8 * size);
    return (int64_t)u;
}
