/*
 * mlir_type.c — types: tensor<2x3xf32> (rank 0 tensor<f32>), the scalar
 * types of attributes (f32, i64, index), !stablehlo.token, tuple<...>,
 * function types (A, B) -> (C), none, and !alias references. Dynamic
 * (`?`) and unranked (`*`) dims, encodings and element types JAX does not
 * emit (complex, i2/i4, fp8, quantized) are refused with
 * SS_ERR_UNSUPPORTED, naming what was found.
 */
#include "front/stablehlo/mlir_internal.h"

#include <ctype.h>
#include <string.h>

static const struct {
    const char *name;
    size_t size;
} elems[SS__MLIR_ELEM_COUNT] = {
    [SS__MLIR_NOELEM] = {"?", 0},   [SS__MLIR_F32] = {"f32", 4},   [SS__MLIR_BF16] = {"bf16", 2},
    [SS__MLIR_F16] = {"f16", 2},    [SS__MLIR_F64] = {"f64", 8},   [SS__MLIR_I1] = {"i1", 1},
    [SS__MLIR_I8] = {"i8", 1},      [SS__MLIR_I16] = {"i16", 2},   [SS__MLIR_I32] = {"i32", 4},
    [SS__MLIR_I64] = {"i64", 8},    [SS__MLIR_UI8] = {"ui8", 1},   [SS__MLIR_UI16] = {"ui16", 2},
    [SS__MLIR_UI32] = {"ui32", 4},  [SS__MLIR_UI64] = {"ui64", 8}, [SS__MLIR_INDEX] = {"index", 8},
};

const char *ss__mlir_elem_name(ss__mlir_elem e)
{
    return (unsigned)e < SS__MLIR_ELEM_COUNT ? elems[e].name : "?";
}

size_t ss__mlir_elem_size(ss__mlir_elem e)
{
    return (unsigned)e < SS__MLIR_ELEM_COUNT ? elems[e].size : 0;
}

bool ss__mlir_elem_is_float(ss__mlir_elem e)
{
    return e == SS__MLIR_F32 || e == SS__MLIR_BF16 || e == SS__MLIR_F16 || e == SS__MLIR_F64;
}

bool ss__mlir_elem_is_unsigned(ss__mlir_elem e)
{
    return e == SS__MLIR_UI8 || e == SS__MLIR_UI16 || e == SS__MLIR_UI32 || e == SS__MLIR_UI64;
}

bool ss__mlir_type_count(const ss__mlir_type *t, int64_t *out)
{
    return ss__product(t->rank, t->dims, out);
}

bool ss__mlir_type_equal(const ss__mlir_type *a, const ss__mlir_type *b)
{
    if (a == b)
        return true;
    if (!a || !b || a->kind != b->kind || a->elem != b->elem || a->rank != b->rank ||
        a->n != b->n || a->nres != b->nres)
        return false;
    for (int i = 0; i < a->rank; i++)
        if (a->dims[i] != b->dims[i])
            return false;
    for (int i = 0; i < a->n; i++)
        if (!ss__mlir_type_equal(a->items[i], b->items[i]))
            return false;
    for (int i = 0; i < a->nres; i++)
        if (!ss__mlir_type_equal(a->res[i], b->res[i]))
            return false;
    return true;
}

void **ss__mlir_vec_copy(ss__mlir_parser *p, const ss__mlir_vec *v)
{
    if (v->oom) {
        ss__mlir_oom(p);
        return NULL;
    }
    void **r = ss__mlir_alloc(&p->m->arena, sizeof *r * (size_t)(v->n ? v->n : 1));
    if (!r) {
        ss__mlir_oom(p);
        return NULL;
    }
    if (v->n)
        memcpy(r, v->v, sizeof *r * (size_t)v->n);
    return r;
}

static ss__mlir_type *new_type(ss__mlir_parser *p, ss__mlir_type_kind k)
{
    ss__mlir_type *t = ss__mlir_alloc(&p->m->arena, sizeof *t);
    if (!t) {
        ss__mlir_oom(p);
        return NULL;
    }
    t->kind = k;
    return t;
}

ss__mlir_type *ss__mlir_scalar_type(ss__mlir_parser *p, ss__mlir_elem e)
{
    ss__mlir_type *t = new_type(p, SS__MLIR_TY_SCALAR);
    if (t)
        t->elem = e;
    return t;
}

ss__mlir_type *ss__mlir_tensor_type(ss__mlir_parser *p, ss__mlir_elem e, int rank,
                                    const int64_t *dims)
{
    ss__mlir_type *t = new_type(p, SS__MLIR_TY_TENSOR);
    if (t) {
        t->elem = e;
        t->rank = rank;
        for (int i = 0; i < rank; i++)
            t->dims[i] = dims[i];
    }
    return t;
}

/* The element type name at the cursor: a run of identifier characters. */
static ss__mlir_elem elem_name(ss__mlir_parser *p, bool *found_other)
{
    const char *s = p->p;
    const char *e = s;
    while (isalnum((unsigned char)*e) || *e == '_')
        e++;
    size_t n = (size_t)(e - s);
    *found_other = false;
    for (int i = 1; i < SS__MLIR_ELEM_COUNT; i++)
        if (strlen(elems[i].name) == n && strncmp(elems[i].name, s, n) == 0) {
            p->p = e;
            return (ss__mlir_elem)i;
        }
    *found_other = n > 0 || *s == '!';
    return SS__MLIR_NOELEM;
}

static bool unsupported_elem(ss__mlir_parser *p)
{
    const char *s = p->p;
    const char *e = s;
    while (isalnum((unsigned char)*e) || *e == '_' || *e == '!' || *e == '.')
        e++;
    return ss__mlir_err_at(p, s, SS_ERR_UNSUPPORTED,
                           "unsupported element type '%.*s' (shardsim takes f32, bf16, f16, "
                           "f64, i1, i8, i16, i32, i64, ui8, ui16, ui32, ui64)",
                           (int)(e - s), s);
}

static ss__mlir_type *tensor_body(ss__mlir_parser *p)
{
    int64_t dims[SS__MLIR_MAX_RANK];
    int rank = 0;
    for (;;) {
        ss__mlir_ws(p);
        const char *s = p->p;
        if (*s == '?') {
            ss__mlir_err_at(p, s, SS_ERR_UNSUPPORTED,
                            "dynamic dimension '?' is not supported (shapes must be static)");
            return NULL;
        }
        if (*s == '*') {
            ss__mlir_err_at(p, s, SS_ERR_UNSUPPORTED, "unranked tensor type is not supported");
            return NULL;
        }
        if (!isdigit((unsigned char)*s))
            break;
        int64_t v = 0;
        while (isdigit((unsigned char)*s)) {
            if (v > (INT64_MAX - 9) / 10) {
                ss__mlir_err_at(p, p->p, SS_ERR_PARSE, "dimension size out of range");
                return NULL;
            }
            v = v * 10 + (*s++ - '0');
        }
        if (*s != 'x') {
            ss__mlir_err_at(p, s, SS_ERR_PARSE, "expected 'x' after a dimension size");
            return NULL;
        }
        if (rank == SS__MLIR_MAX_RANK) {
            ss__mlir_err_at(p, p->p, SS_ERR_UNSUPPORTED, "tensor of more than %d dimensions",
                            SS__MLIR_MAX_RANK);
            return NULL;
        }
        dims[rank++] = v;
        p->p = s + 1;
    }
    bool other;
    ss__mlir_elem e = elem_name(p, &other);
    if (e == SS__MLIR_NOELEM || e == SS__MLIR_INDEX) {
        if (e == SS__MLIR_INDEX)
            p->p -= 5;
        if (other || e == SS__MLIR_INDEX)
            unsupported_elem(p);
        else
            ss__mlir_err(p, "expected an element type in tensor<...>, found '%.12s'", p->p);
        return NULL;
    }
    ss__mlir_ws(p);
    if (*p->p == ',') {
        ss__mlir_err_at(p, p->p, SS_ERR_UNSUPPORTED, "tensor encodings are not supported");
        return NULL;
    }
    if (!ss__mlir_expect(p, ">", "to close tensor<...>"))
        return NULL;
    return ss__mlir_tensor_type(p, e, rank, dims);
}

bool ss__mlir_peek_type(ss__mlir_parser *p)
{
    ss__mlir_ws(p);
    const char *s = p->p;
    if (*s == '(' || *s == '!')
        return true;
    static const char *const kws[] = {"tensor", "tuple", "none", "index", "complex",
                                      "memref", "vector"};
    for (size_t i = 0; i < sizeof kws / sizeof kws[0]; i++)
        if (ss__mlir_peek_kw(p, kws[i]))
            return true;
    bool other;
    const char *save = p->p;
    ss__mlir_elem e = elem_name(p, &other);
    p->p = save;
    if (e != SS__MLIR_NOELEM)
        return true;
    /* Other builtin scalar spellings: iN, siN, uiN, fN, bf16-like. */
    if ((s[0] == 'i' || s[0] == 'f') && isdigit((unsigned char)s[1]))
        return true;
    if ((s[0] == 's' || s[0] == 'u') && s[1] == 'i' && isdigit((unsigned char)s[2]))
        return true;
    return false;
}

static bool type_list_until(ss__mlir_parser *p, ss__mlir_vec *out, const char *close)
{
    if (ss__mlir_accept(p, close))
        return true;
    do {
        ss__mlir_type *t = ss__mlir_p_type(p);
        if (!t)
            return false;
        ss__mlir_vec_push(out, t);
    } while (ss__mlir_accept(p, ","));
    return ss__mlir_expect(p, close, "to close the type list");
}

bool ss__mlir_p_type_list_paren(ss__mlir_parser *p, ss__mlir_vec *out)
{
    if (!ss__mlir_expect(p, "(", "to open a type list"))
        return false;
    return type_list_until(p, out, ")");
}

static ss__mlir_type *func_type(ss__mlir_parser *p)
{
    /* The '(' is next: inputs, '->', then one type or a parenthesised list. */
    ss__mlir_vec in = {0}, out = {0};
    ss__mlir_type *t = NULL;
    if (!ss__mlir_p_type_list_paren(p, &in))
        goto done;
    if (!ss__mlir_expect(p, "->", "in a function type"))
        goto done;
    if (ss__mlir_peek(p, "(")) {
        /* A parenthesised result list, unless it is a function type itself. */
        const char *save = p->p;
        int line = p->line;
        const char *ls = p->line_start;
        if (!ss__mlir_p_type_list_paren(p, &out))
            goto done;
        if (ss__mlir_peek(p, "->")) {
            p->p = save;
            p->line = line;
            p->line_start = ls;
            out.n = 0;
            ss__mlir_type *r = ss__mlir_p_type(p);
            if (!r)
                goto done;
            ss__mlir_vec_push(&out, r);
        }
    } else {
        ss__mlir_type *r = ss__mlir_p_type(p);
        if (!r)
            goto done;
        ss__mlir_vec_push(&out, r);
    }
    t = new_type(p, SS__MLIR_TY_FUNC);
    if (t) {
        t->n = in.n;
        t->items = (ss__mlir_type **)ss__mlir_vec_copy(p, &in);
        t->nres = out.n;
        t->res = (ss__mlir_type **)ss__mlir_vec_copy(p, &out);
        if (!t->items || !t->res)
            t = NULL;
    }
done:
    ss__mlir_vec_free(&in);
    ss__mlir_vec_free(&out);
    return t;
}

ss__mlir_type *ss__mlir_p_type(ss__mlir_parser *p)
{
    if (!ss__mlir_enter(p))
        return NULL;
    ss__mlir_type *t = NULL;
    ss__mlir_ws(p);
    const char *at = p->p;
    if (*at == '(') {
        t = func_type(p);
    } else if (ss__mlir_accept_kw(p, "tensor")) {
        if (ss__mlir_expect(p, "<", "after 'tensor'"))
            t = tensor_body(p);
    } else if (ss__mlir_accept_kw(p, "tuple")) {
        ss__mlir_vec items = {0};
        if (ss__mlir_expect(p, "<", "after 'tuple'") && type_list_until(p, &items, ">")) {
            t = new_type(p, SS__MLIR_TY_TUPLE);
            if (t) {
                t->n = items.n;
                t->items = (ss__mlir_type **)ss__mlir_vec_copy(p, &items);
                if (!t->items)
                    t = NULL;
            }
        }
        ss__mlir_vec_free(&items);
    } else if (ss__mlir_accept_kw(p, "none")) {
        t = new_type(p, SS__MLIR_TY_NONE);
    } else if (*at == '!') {
        const char *name = ss__mlir_suffix_id(p, '!');
        if (name) {
            ss__mlir_alias *a = ss__mlir_alias_find(p, name);
            if (a && a->type)
                t = a->type;
            else if (strcmp(name, "!stablehlo.token") == 0)
                t = new_type(p, SS__MLIR_TY_TOKEN);
            else
                ss__mlir_err_at(p, at, SS_ERR_UNSUPPORTED, "unsupported type '%s'", name);
        }
    } else if (ss__mlir_peek_kw(p, "memref") || ss__mlir_peek_kw(p, "vector") ||
               ss__mlir_peek_kw(p, "complex")) {
        unsupported_elem(p);
    } else {
        bool other;
        ss__mlir_elem e = elem_name(p, &other);
        if (e != SS__MLIR_NOELEM)
            t = ss__mlir_scalar_type(p, e);
        else if (other)
            unsupported_elem(p);
        else
            ss__mlir_err(p, "expected a type, found '%.12s'", at);
    }
    ss__mlir_leave(p);
    return p->failed ? NULL : t;
}
