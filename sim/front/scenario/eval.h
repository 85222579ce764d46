/*
 * eval.h — what eval.c (statements, names, calls of user
 * functions) and ops.c (the built-in functions) share: evaluation
 * values, environments and argument helpers. Internal to the front end.
 */
#ifndef SS_FRONT_SCENARIO_EVAL_H
#define SS_FRONT_SCENARIO_EVAL_H

#include "scenario.h"

typedef enum val_kind {
    V_NONE = 0,
    V_INT,
    V_FLOAT,
    V_STR,
    V_ARRAY,     /* a program value */
    V_TUPLE,     /* items (also lists) */
    V_SPEC,      /* P(...), resolved to mesh axes */
    V_TYPE,      /* f32[8,1024] */
    V_FUNC,      /* a def */
    V_INIT,      /* an initializer */
    V_DECL,      /* a global array not yet used by the program */
    V_SHARD_MAP, /* shard_map(f, in_specs=..., out_specs=...) */
    V_GRAD       /* grad(f, argnums=...) / value_and_grad(f, ...) */
} val_kind;

typedef struct type_info {
    ss_dtype dtype;
    int rank;
    int64_t shape[SS_MAX_RANK];
} type_info;

typedef struct val val;

typedef struct shard_map_info {
    const ss__scn_stmt *def;
    int nin;        /* -1: one spec for every argument */
    ss_spec *in_specs;
    int nout;       /* -1: a single spec, the function returns one array */
    ss_spec *out_specs;
    bool unchecked; /* check_vma=False (or check_rep=False) */
} shard_map_info;

typedef struct grad_info {
    const ss__scn_stmt *def;
    int nargnums;
    int argnums[16];
    bool tuple;      /* argnums was a tuple: the grads come as a tuple */
    bool with_value; /* value_and_grad */
} grad_info;

struct val {
    val_kind kind;
    ss__scn_loc loc;
    int64_t i;       /* V_INT; V_DECL: array index */
    double f;        /* V_FLOAT */
    const char *s;   /* V_STR */
    ss_value v;      /* V_ARRAY */
    int n;           /* V_TUPLE */
    val **items;
    ss_spec *spec;   /* V_SPEC */
    type_info *type; /* V_TYPE */
    const ss__scn_stmt *def;   /* V_FUNC */
    ss__scn_init *init;        /* V_INIT */
    shard_map_info *smap;  /* V_SHARD_MAP */
    grad_info *grad;       /* V_GRAD */
    int feeds1;            /* V_ARRAY from an optimizer: 1 + the array it updates */
    int depth;             /* V_TUPLE: tuples nested in it, counting itself (ss__scn_ev_tuple_done) */
};

typedef struct env env;
struct env {
    env *parent; /* NULL for the global environment */
    int n, cap;
    const char **names;
    val **vals;
};

/* Loop iterations plus calls one scenario may unroll. */
#define BUDGET 5000000L

typedef struct ss__scn_ev {
    ss_scenario *sc;
    env globals;
    int call_depth;
    int depth;   /* expressions being evaluated, across calls (eval.c) */
    long budget; /* loop iterations and calls left */
    const ss__scn_expr *last_ret; /* the return expression of the last call */
} ss__scn_ev;

/* Arguments of a call, evaluated. */
typedef struct callargs {
    const char *fname;
    ss__scn_loc loc;
    int n;
    val **v;
    ss__scn_loc *locs;
    int nkw;
    const char **kwn;
    val **kwv;
    ss__scn_loc *kwl;
} callargs;

/* --- eval.c ---------------------------------------------------- */

bool ss__scn_ev_env_set(ss__scn_ev *e, env *en, const char *name, val *x, ss__scn_loc loc);
/* Look `name` up in `en` and its parents; NULL if absent. */
val *ss__scn_ev_env_get(const env *en, const char *name);
bool ss__scn_ev_env_has_local(const env *en, const char *name);
void ss__scn_ev_env_free(env *en);
val *ss__scn_ev_eval(ss__scn_ev *e, env *en, const ss__scn_expr *x);
/* A top-level statement (constants, defs, loops); configuration and
 * actions are left to load.c. */
bool ss__scn_ev_exec_global(ss__scn_ev *e, const ss__scn_stmt *s);

val *ss__scn_ev_new(ss__scn_ev *e, val_kind kind, ss__scn_loc loc);
val *ss__scn_ev_int(ss__scn_ev *e, int64_t i, ss__scn_loc loc);
/* A tuple whose items are set: record its nesting depth; NULL (error at
 * loc) past SS__SCN_MAX_DEPTH levels, so that walks over values (flatten,
 * unflatten, results) stay within the stack whatever loops build. */
val *ss__scn_ev_tuple_done(ss__scn_ev *e, val *t, ss__scn_loc loc);
/* Fail at `loc` (first error wins); returns NULL for convenience. */
val *ss__scn_ev_fail(ss__scn_ev *e, ss__scn_loc loc, const char *fmt, ...) SS__PRINTF(3, 4);
/* After a builder call: on error report the library's message at `loc`;
 * otherwise record `loc` for the values it created since `before`. */
bool ss__scn_ev_built(ss__scn_ev *e, ss_status st, int before, ss__scn_loc loc);
/* An array operand: numbers become f32 constants, global arrays become
 * program inputs. NULL (error) for anything else. */
val *ss__scn_ev_array(ss__scn_ev *e, val *x, ss__scn_loc loc, const char *what);
val *ss__scn_ev_array_val(ss__scn_ev *e, ss_value v, ss__scn_loc loc);
/* Both operands of an elementwise op as arrays. A number next to an array
 * is a weakly typed scalar (JAX's Python scalars): its constant holds the
 * number rounded to the array's dtype (bf16(0.1) next to bf16), so the
 * result keeps the array's dtype (ss_binary). */
bool ss__scn_ev_array_pair(ss__scn_ev *e, val **a, ss__scn_loc la, const char *wa, val **b, ss__scn_loc lb,
                   const char *wb);
/* Before an elementwise op (matmul false) or a matmul: fail at loc when
 * the shapes do not fit, naming the sizes that differ ("matmul: contracting
 * dims differ: x is f32[8,1024] (dim 1 = 1024), w is f32[512,64] (dim 0 =
 * 512)"); an/bn name the operands (NULL: the name bound to the value). */
bool ss__scn_ev_check_shapes(ss__scn_ev *e, const char *op, bool matmul, val *a, const char *an, val *b,
                     const char *bn, ss__scn_loc loc);
/* Shape facts of an array value. */
void ss__scn_ev_shape(ss__scn_ev *e, ss_value v, ss_dtype *dtype, int *rank, int64_t shape[]);
/* Call a user function with evaluated arguments. */
val *ss__scn_ev_call_def(ss__scn_ev *e, const ss__scn_stmt *def, const callargs *ca, env **keep);
/* Resolve a spec value's names (logical names through the rules) and check
 * its axes against the mesh. */
bool ss__scn_ev_resolve_spec(ss__scn_ev *e, ss_spec *spec, ss__scn_loc loc);
const char *ss__scn_ev_kind_name(val_kind k);

/* --- ops.c ----------------------------------------------------- */

/* `name = input(...)` / `param(...)` at the top level: a global array. */
bool ss__scn_ev_declare_array(ss__scn_ev *e, const ss__scn_stmt *s);

/* A built-in function by name (NULL if none); `method` for x.f(...) forms. */
typedef val *(*builtin_fn)(ss__scn_ev *e, const callargs *ca);
builtin_fn ss__scn_ev_builtin(const char *name, bool method);
/* A JAX spelling of a call (`jnp.dot`, `jax.nn.relu`, `lax.psum`,
 * `optax.softmax_cross_entropy_with_integer_labels`): the built-in's name;
 * NULL if `path` starts with no JAX module (why = "") or names nothing here
 * (why says so and lists the nearest names). */
const char *ss__scn_ev_jax_name(const char *path, char *why, size_t cap);
/* Up to four built-in names close to `name` (methods only if `method`),
 * comma-separated; false if none. */
bool ss__scn_ev_nearest_builtins(const char *name, bool method, char *out, size_t cap);
/* Initializer names usable bare (`ones`), as values. */
bool ss__scn_ev_init_name(const char *name, ss__scn_init *out);
/* Index an array: x[i], x[a:b, :], ... */
val *ss__scn_ev_index_array(ss__scn_ev *e, val *x, const ss__scn_expr *ix, val **items);
/* P(...) as a spec value. */
val *ss__scn_ev_make_spec(ss__scn_ev *e, const callargs *ca);
/* Call a shard_map value. */
val *ss__scn_ev_call_shard_map(ss__scn_ev *e, const shard_map_info *sm, const callargs *ca);

#define BEFORE() int before = ss_program_value_count(e->sc->program)
#define PROG (e->sc->program)

/* An array argument (positional `pos` or keyword `kw`). */
val *ss__scn_arr_arg(ss__scn_ev *e, const callargs *ca, int pos, const char *kw);
/* An optional integer argument with a default. */
bool ss__scn_int_arg(ss__scn_ev *e, const callargs *ca, int pos, const char *kw, int64_t def, int64_t *out);
/* The value a builder call made, or NULL after reporting its error. */
val *ss__scn_built(ss__scn_ev *e, ss_status st, int before, ss__scn_loc loc, ss_value out);

/* Argument helpers the built-ins share (ops.c). */
/* An axis (may be negative) of an array of `rank` dims, normalized. */
bool ss__scn_norm_axis(ss__scn_ev *e, int64_t a, int rank, ss__scn_loc loc, int *out);
/* A tuple of integers (or one integer when `one` allows it). */
bool ss__scn_ints_arg(ss__scn_ev *e, val *x, ss__scn_loc loc, const char *what, int cap, int64_t out[],
                      int *n);
/* P(...) entries: None, 'axis', ('a', 'b'), P.UNCONSTRAINED. */
bool ss__scn_spec_from(ss__scn_ev *e, val *const *items, int n, ss__scn_loc loc, ss_spec *spec);
bool ss__scn_spec_arg(ss__scn_ev *e, const callargs *ca, int pos, const char *kw, ss_spec *out);

/* The built-ins the table of ops.c names: each reads its evaluated call
 * arguments and returns its result, or NULL after reporting an error at
 * the call. ops_array.c: elementwise, contractions, reductions and shapes,
 * jax.nn and optax. */
typedef val *ss__scn_builtin(ss__scn_ev *e, const callargs *ca);
ss__scn_builtin ss__scn_ev_op_unary, ss__scn_ev_op_binary, ss__scn_ev_op_matmul,
    ss__scn_ev_op_einsum, ss__scn_ev_op_dot_general, ss__scn_ev_op_reduce, ss__scn_ev_op_transpose,
    ss__scn_ev_op_reshape, ss__scn_ev_op_broadcast_to, ss__scn_ev_op_broadcast_in_dim,
    ss__scn_ev_op_concatenate, ss__scn_ev_op_one_hot, ss__scn_ev_op_softmax,
    ss__scn_ev_op_layer_norm, ss__scn_ev_op_cross_entropy;
/* ops_decl.c: initializers and declarations, sharding constraints,
 * stop_gradient, Python's len/range/int/float, indexing, astype. */
ss__scn_builtin ss__scn_ev_op_init, ss__scn_ev_op_decl_elsewhere, ss__scn_ev_op_constrain,
    ss__scn_ev_op_logical_constraint, ss__scn_ev_op_stop_gradient, ss__scn_ev_op_len,
    ss__scn_ev_op_range, ss__scn_ev_op_int_float, ss__scn_ev_op_astype;

/* --- ops_cmp.c ------------------------------------------------- */

/* greater, less, ..., not_equal: bool arrays; where(cond, a, b). */
val *ss__scn_ev_op_compare(ss__scn_ev *e, const callargs *ca);
val *ss__scn_ev_op_where(ss__scn_ev *e, const callargs *ca);

/* --- transforms.c ---------------------------------------------- */

val *ss__scn_ev_op_shard_map(ss__scn_ev *e, const callargs *ca);
val *ss__scn_ev_op_collective(ss__scn_ev *e, const callargs *ca);
val *ss__scn_ev_op_axis_index(ss__scn_ev *e, const callargs *ca);
val *ss__scn_ev_op_not_yet(ss__scn_ev *e, const callargs *ca);
val *ss__scn_ev_op_grad(ss__scn_ev *e, const callargs *ca);
val *ss__scn_ev_call_grad(ss__scn_ev *e, const grad_info *g, const callargs *ca);
val *ss__scn_ev_op_optimizer(ss__scn_ev *e, const callargs *ca);
val *ss__scn_ev_op_scan(ss__scn_ev *e, const callargs *ca);

/* --- ckpt.c ----------------------------------------------------- */

/* A top-level `save` / `restore`: check DIR (a string), step=N and the flag,
 * and record it; `after_run` when it stands below the `run` statement. */
bool ss__scn_ev_ckpt_stmt(ss__scn_ev *e, const ss__scn_stmt *s, bool after_run);

/* --- load.c ----------------------------------------------------- */

/* Mark v a program output; `feeds` is the array it updates between steps
 * (-1: none). */
bool ss__scn_ev_add_output(ss__scn_ev *e, ss_value v, const char *name, ss__scn_loc loc, bool extra, int feeds);
/* print.c: is s a `print(...)` call statement; make it (inside a
 * function, or at the top level after the run, in the run's names). */
bool ss__scn_is_print_stmt(const ss__scn_stmt *s);
bool ss__scn_ev_print_stmt(ss__scn_ev *e, env *en, const ss__scn_stmt *s, bool top_level);
/* A program input made outside the scenario's declarations (optimizer
 * state): recorded as an array initialized to zeros. Returns its index. */
int ss__scn_ev_add_hidden_array(ss__scn_ev *e, ss_value v, const char *name, ss__scn_loc loc);
/* The array whose program input is v, or -1. */
int ss__scn_ev_array_of_value(const ss__scn_ev *e, ss_value v);

/* Argument helpers: positional `pos` or keyword `kw` (either may be -1 or
 * NULL), NULL if absent. */
val *ss__scn_ca_get(const callargs *ca, int pos, const char *kw, ss__scn_loc *loc);
/* Fail unless every positional index < max_pos and every keyword is in the
 * NULL-terminated list. */
bool ss__scn_ca_check(ss__scn_ev *e, const callargs *ca, int min_pos, int max_pos, const char *const kws[]);
bool ss__scn_ev_to_int(ss__scn_ev *e, val *x, ss__scn_loc loc, const char *what, int64_t *out);
bool ss__scn_ev_to_num(ss__scn_ev *e, val *x, ss__scn_loc loc, const char *what, double *out);
bool ss__scn_ev_is_num(const val *x);

#endif
