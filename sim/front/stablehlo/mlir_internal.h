/*
 * mlir_internal.h — the reader's state shared by its files: the arena that
 * owns a module, the cursor over the text with its position, the first
 * error, and the alias and value tables.
 *
 * Contract of every ss__mlir_p_* reader: on success it returns the parsed
 * thing (or true) with the cursor past it; on failure it returns NULL/false
 * after recording the first error (later errors are dropped), and the
 * caller unwinds without reading further.
 */
#ifndef SS_FRONT_MLIR_INTERNAL_H
#define SS_FRONT_MLIR_INTERNAL_H

#include "front/stablehlo/mlir.h"
#include "base/base.h"

typedef struct ss__mlir_chunk {
    struct ss__mlir_chunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
} ss__mlir_chunk;

typedef struct ss__mlir_arena {
    ss__mlir_chunk *head;
    size_t total, limit;
} ss__mlir_arena;

/* Zeroed memory from the arena, or NULL (out of memory or past the limit). */
void *ss__mlir_alloc(ss__mlir_arena *a, size_t n);
char *ss__mlir_strndup(ss__mlir_arena *a, const char *s, size_t n);
void ss__mlir_arena_free(ss__mlir_arena *a);

/* A growable array of pointers built while parsing, copied into the arena. */
typedef struct ss__mlir_vec {
    void **v;
    int n, cap;
    bool oom;
} ss__mlir_vec;
void ss__mlir_vec_push(ss__mlir_vec *v, void *x);
void ss__mlir_vec_free(ss__mlir_vec *v);

/* A string-keyed table of ints (open addressing). get: -1 when absent;
 * put: the previous value (-1 if none), or -2 out of memory. A key stays
 * once put; putting -1 removes its value. */
typedef struct ss__mlir_hmap {
    const char **keys;
    int *vals;
    int cap, n;
} ss__mlir_hmap;
int ss__mlir_hmap_get(const ss__mlir_hmap *h, const char *key);
int ss__mlir_hmap_put(ss__mlir_hmap *h, const char *key, int val);
void ss__mlir_hmap_free(ss__mlir_hmap *h);

typedef struct ss__mlir_alias {
    const char *name;          /* without the # or ! */
    ss__mlir_attr *attr;       /* #name = attr */
    ss__mlir_type *type;       /* !name = type */
    ss__mlir_loc *loc;         /* #name = loc(...) */
} ss__mlir_alias;

typedef struct ss__mlir_binding {
    const char *name;          /* "%x" or "%x#1" */
    ss__mlir_value *value;
    int prev;                  /* the binding of the same name it hides, or -1 */
} ss__mlir_binding;

struct ss__mlir_module {
    ss__mlir_arena arena;
    ss__mlir_op *op;           /* builtin.module */
    int nfuncs;
    ss__mlir_op **funcs;
    int nmeshes;
    ss__mlir_sdy_mesh **meshes;
    int naliases;              /* #name = ... definitions, in order (the printer's) */
    ss__mlir_alias **aliases;
};

typedef struct ss__mlir_parser {
    ss__mlir_module *m;
    const char *text, *end, *p, *file;
    int line;                  /* of p */
    const char *line_start;    /* of p's line */
    int depth;
    bool failed;
    ss_status status;
    ss__mlir_vec aliases;      /* ss__mlir_alias* */
    ss__mlir_hmap alias_map;   /* name -> index in aliases */
    ss__mlir_vec loc_refs;     /* ss__mlir_loc* of kind ALIAS, resolved at the end */
    int cur_alias;             /* 1 + the alias being defined, or 0 */
    ss__mlir_binding *binds;   /* SSA names in scope (a stack) */
    int nbinds, capbinds;
    ss__mlir_hmap bind_map;    /* name -> its newest binding */
} ss__mlir_parser;

/* ---- mlir_lex.c ---- */
/* Record `fmt` at the cursor (or at `at`) as the error, once; returns false. */
bool ss__mlir_err(ss__mlir_parser *p, const char *fmt, ...) SS__PRINTF(2, 3);
bool ss__mlir_err_at(ss__mlir_parser *p, const char *at, ss_status st, const char *fmt, ...)
    SS__PRINTF(4, 5);
bool ss__mlir_oom(ss__mlir_parser *p);
void ss__mlir_ws(ss__mlir_parser *p);          /* blanks and // comments */
bool ss__mlir_at_line_start(ss__mlir_parser *p); /* after ws: first token of its line */
/* After blanks: does the text continue with `s` (punctuation)? accept eats it. */
bool ss__mlir_peek(ss__mlir_parser *p, const char *s);
bool ss__mlir_accept(ss__mlir_parser *p, const char *s);
bool ss__mlir_expect(ss__mlir_parser *p, const char *s, const char *what);
/* A bare identifier ([A-Za-z_][A-Za-z0-9_$.]*), copied into the arena. */
bool ss__mlir_is_bare_start(int c);
const char *ss__mlir_bare_id(ss__mlir_parser *p);
/* A keyword equal to `kw` followed by no identifier character. */
bool ss__mlir_accept_kw(ss__mlir_parser *p, const char *kw);
bool ss__mlir_peek_kw(ss__mlir_parser *p, const char *kw);
/* The suffix of %name, ^name, #name, !name ([A-Za-z0-9_$.-]+). */
const char *ss__mlir_suffix_id(ss__mlir_parser *p, char sigil);
/* A "string" with MLIR's escapes; *len is its byte length. */
char *ss__mlir_string(ss__mlir_parser *p, size_t *len);
/* A symbol reference @name or @"name"; NULL if none. */
const char *ss__mlir_symbol(ss__mlir_parser *p);
/* An integer literal (decimal with optional -, or 0x hex): *neg set for a
 * leading minus, *mag its magnitude (uint64; hex gives raw bits). */
bool ss__mlir_int_lit(ss__mlir_parser *p, bool *neg, uint64_t *mag, bool *hex);
/* Is a number (int or float) next? And is it a float (has . or e)? */
bool ss__mlir_peek_number(ss__mlir_parser *p, bool *is_float);
bool ss__mlir_float_lit(ss__mlir_parser *p, double *out);
bool ss__mlir_enter(ss__mlir_parser *p);       /* depth + 1, error past the limit */
void ss__mlir_leave(ss__mlir_parser *p);
/* Skip balanced text up to the `close` matching an already eaten opener;
 * returns the text between, blanks squeezed, in the arena. */
const char *ss__mlir_balanced(ss__mlir_parser *p, char open, char close);

/* ---- mlir_type.c ---- */
ss__mlir_type *ss__mlir_p_type(ss__mlir_parser *p);
/* A type list: `(T, ...)`, or bare `T, T` (stop at the first non-type). */
bool ss__mlir_p_type_list_paren(ss__mlir_parser *p, ss__mlir_vec *out);
bool ss__mlir_peek_type(ss__mlir_parser *p);
ss__mlir_type *ss__mlir_scalar_type(ss__mlir_parser *p, ss__mlir_elem e);
ss__mlir_type *ss__mlir_tensor_type(ss__mlir_parser *p, ss__mlir_elem e, int rank,
                                    const int64_t *dims);
void **ss__mlir_vec_copy(ss__mlir_parser *p, const ss__mlir_vec *v);

/* ---- mlir_attr.c ---- */
ss__mlir_attr *ss__mlir_p_attr(ss__mlir_parser *p);
/* `{name = attr, unit, ...}` (the { already eaten) into a DICT attribute. */
ss__mlir_attr *ss__mlir_p_dict_body(ss__mlir_parser *p);
ss__mlir_attr *ss__mlir_new_attr(ss__mlir_parser *p, ss__mlir_attr_kind kind);
ss__mlir_attr *ss__mlir_int_attr(ss__mlir_parser *p, int64_t v, const ss__mlir_type *t);
/* A dense elements body (after `dense<`) checked against the type that follows. */
ss__mlir_attr *ss__mlir_p_dense(ss__mlir_parser *p);
/* An attribute alias or dialect attribute after '#'. */
ss__mlir_alias *ss__mlir_alias_find(ss__mlir_parser *p, const char *name);
bool ss__mlir_alias_add(ss__mlir_parser *p, ss__mlir_alias *a);

/* ---- mlir_sdy.c ---- */
/* The body of #sdy.sharding<...> or a bare <@mesh, [...]> (after '<'). */
ss__mlir_sdy_sharding *ss__mlir_p_sdy_sharding(ss__mlir_parser *p);
/* The body of #sdy.mesh<...> / sdy.mesh @m = <...> (after '<'). */
ss__mlir_sdy_mesh *ss__mlir_p_sdy_mesh(ss__mlir_parser *p);
/* `[<@mesh, ...>, ...]` (after '['): a SDY_LIST attribute. */
ss__mlir_attr *ss__mlir_p_sdy_list(ss__mlir_parser *p);

/* ---- mlir_loc.c ---- */
/* `loc(...)` (the keyword included) or NULL with no error when absent. */
ss__mlir_loc *ss__mlir_p_loc_opt(ss__mlir_parser *p);
ss__mlir_loc *ss__mlir_p_loc_inner(ss__mlir_parser *p);
bool ss__mlir_resolve_loc_aliases(ss__mlir_parser *p);

/* ---- mlir_op.c / mlir_custom.c ---- */
ss__mlir_op *ss__mlir_p_op(ss__mlir_parser *p);
ss__mlir_region *ss__mlir_p_region(ss__mlir_parser *p, ss__mlir_vec *entry_args);
bool ss__mlir_bind(ss__mlir_parser *p, const char *name, ss__mlir_value *v);
ss__mlir_value *ss__mlir_lookup(ss__mlir_parser *p, const char *name);
int ss__mlir_scope_mark(ss__mlir_parser *p);
void ss__mlir_scope_pop(ss__mlir_parser *p, int mark);
/* A value reference %x or %x#N, resolved. */
ss__mlir_value *ss__mlir_p_use(ss__mlir_parser *p);
ss__mlir_value *ss__mlir_new_value(ss__mlir_parser *p, const char *name,
                                   const ss__mlir_type *t);
bool ss__mlir_set_attr(ss__mlir_parser *p, ss__mlir_vec *names, ss__mlir_vec *vals,
                       const char *name, ss__mlir_attr *v);
/* Results of type list `res` (one value each). */
bool ss__mlir_make_results(ss__mlir_parser *p, ss__mlir_op *op, int n, ss__mlir_type **res);
/* func.func, module and sdy.mesh in their pretty forms (mlir_func.c). */
bool ss__mlir_p_func(ss__mlir_parser *p, ss__mlir_op *op);
bool ss__mlir_p_module(ss__mlir_parser *p, ss__mlir_op *op);
bool ss__mlir_p_mesh_op(ss__mlir_parser *p, ss__mlir_op *op);
/* The pretty form of `op` (name read at `at`, results pending) up to its end. */
bool ss__mlir_p_custom(ss__mlir_parser *p, ss__mlir_op *op, int nresults, const char *at);
/* Bring a pretty op's attributes to its generic form's (mlir_canon.c). */
bool ss__mlir_canon(ss__mlir_parser *p, ss__mlir_op *op, const char *at);

/* ---- numbers (mlir_num.c) ---- */
uint16_t ss__mlir_f32_to_bf16(float f);
uint16_t ss__mlir_f64_to_f16(double d);
float ss__mlir_bf16_to_f32(uint16_t h);
double ss__mlir_f16_to_f64(uint16_t h);
/* Store `v` (an integer or a double, per is_float) as element `e` at dst. */
bool ss__mlir_store_elem(ss__mlir_elem e, bool is_float, double fv, bool neg, uint64_t mag,
                         bool hex, unsigned char *dst);

#endif
