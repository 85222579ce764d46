/*
 * eval.c — expressions and statements to program values: names and
 * environments, numbers (folded at build time; only arrays reach the
 * program), operators, calls of user functions (expanded inline at the call
 * site: the IR has no calls), loops (unrolled), indexing and types. A
 * global array becomes a program input the first time something uses it.
 * Built-in functions are in ops.c; loading and actions in
 * load.c.
 */
#include "eval.h"

#include "base/half.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CALL_DEPTH 64
/* Nested evaluations across user calls (SS__SCN_MAX_DEPTH bounds one
 * expression; MAX_CALL_DEPTH calls each at that height would be too deep
 * for the stack). */
#define EVAL_MAX_DEPTH (4 * SS__SCN_MAX_DEPTH)
#define MAX_VALUES 500000

/* --- Values and environments -------------------------------------------- */

val *ss__scn_ev_new(ss__scn_ev *e, val_kind kind, ss__scn_loc loc)
{
    val *x = ss__scn_alloc(&e->sc->arena, sizeof *x);
    if (!x) {
        ss__scn_fail(&e->sc->err, loc, "out of host memory (the scenario is too large)");
        return NULL;
    }
    x->kind = kind;
    x->loc = loc;
    x->v = -1;
    return x;
}

val *ss__scn_ev_int(ss__scn_ev *e, int64_t i, ss__scn_loc loc)
{
    val *x = ss__scn_ev_new(e, V_INT, loc);
    if (x)
        x->i = i;
    return x;
}

val *ss__scn_ev_tuple_done(ss__scn_ev *e, val *t, ss__scn_loc loc)
{
    if (!t)
        return NULL;
    int d = 0;
    for (int k = 0; k < t->n; k++)
        if (t->items[k] && t->items[k]->kind == V_TUPLE && t->items[k]->depth > d)
            d = t->items[k]->depth;
    t->depth = d + 1;
    if (t->depth > SS__SCN_MAX_DEPTH)
        return ss__scn_ev_fail(e, loc, "tuple nested too deeply (more than %d levels)", SS__SCN_MAX_DEPTH);
    return t;
}

val *ss__scn_ev_fail(ss__scn_ev *e, ss__scn_loc loc, const char *fmt, ...)
{
    if (!e->sc->err.set) {
        char msg[1024];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        ss__scn_fail(&e->sc->err, loc, "%s", msg);
    }
    return NULL;
}

const char *ss__scn_ev_kind_name(val_kind k)
{
    static const char *const names[] = {"None",  "an integer", "a number",    "a string",
                                        "an array", "a tuple", "a PartitionSpec", "a type",
                                        "a function", "an initializer", "an array",
                                        "a shard_map function", "a grad function"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "a value";
}

bool ss__scn_ev_is_num(const val *x) { return x && (x->kind == V_INT || x->kind == V_FLOAT); }

bool ss__scn_ev_to_int(ss__scn_ev *e, val *x, ss__scn_loc loc, const char *what, int64_t *out)
{
    if (!x || x->kind != V_INT) {
        ss__scn_ev_fail(e, loc, "%s must be an integer, not %s", what, x ? ss__scn_ev_kind_name(x->kind) : "?");
        return false;
    }
    *out = x->i;
    return true;
}

bool ss__scn_ev_to_num(ss__scn_ev *e, val *x, ss__scn_loc loc, const char *what, double *out)
{
    if (!ss__scn_ev_is_num(x)) {
        ss__scn_ev_fail(e, loc, "%s must be a number, not %s", what, x ? ss__scn_ev_kind_name(x->kind) : "?");
        return false;
    }
    *out = x->kind == V_INT ? (double)x->i : x->f;
    return true;
}

bool ss__scn_ev_env_set(ss__scn_ev *e, env *en, const char *name, val *x, ss__scn_loc loc)
{
    for (int k = 0; k < en->n; k++)
        if (strcmp(en->names[k], name) == 0) {
            en->vals[k] = x;
            return true;
        }
    if (en->n == en->cap) {
        int cap = en->cap ? en->cap * 2 : 16;
        const char **nn = realloc(en->names, sizeof *nn * (size_t)cap);
        if (nn)
            en->names = nn;
        val **nv = nn ? realloc(en->vals, sizeof *nv * (size_t)cap) : NULL;
        if (!nn || !nv) {
            ss__scn_fail(&e->sc->err, loc, "out of host memory");
            return false;
        }
        en->vals = nv;
        en->cap = cap;
    }
    en->names[en->n] = name;
    en->vals[en->n++] = x;
    return true;
}

val *ss__scn_ev_env_get(const env *en, const char *name)
{
    for (; en; en = en->parent)
        for (int k = en->n - 1; k >= 0; k--)
            if (strcmp(en->names[k], name) == 0)
                return en->vals[k];
    return NULL;
}

bool ss__scn_ev_env_has_local(const env *en, const char *name)
{
    for (int k = 0; k < en->n; k++)
        if (strcmp(en->names[k], name) == 0)
            return true;
    return false;
}

void ss__scn_ev_env_free(env *en)
{
    free(en->names);
    free(en->vals);
    en->names = NULL;
    en->vals = NULL;
    en->n = en->cap = 0;
}

/* --- Program values ------------------------------------------------------- */

static bool grow_vinfo(ss__scn_ev *e, int n, ss__scn_loc loc)
{
    ss_scenario *sc = e->sc;
    if (n <= sc->vinfo_cap)
        return true;
    if (n > MAX_VALUES) {
        ss__scn_fail(&sc->err, loc, "the program is too large (more than %d values)", MAX_VALUES);
        return false;
    }
    int cap = sc->vinfo_cap ? sc->vinfo_cap : 256;
    while (cap < n)
        cap *= 2;
    ss__scn_value_info *v = realloc(sc->vinfo, sizeof *v * (size_t)cap);
    if (!v) {
        ss__scn_fail(&sc->err, loc, "out of host memory");
        return false;
    }
    memset(v + sc->vinfo_cap, 0, sizeof *v * (size_t)(cap - sc->vinfo_cap));
    sc->vinfo = v;
    sc->vinfo_cap = cap;
    return true;
}

bool ss__scn_ev_built(ss__scn_ev *e, ss_status st, int before, ss__scn_loc loc)
{
    ss_scenario *sc = e->sc;
    if (st) {
        ss__scn_fail(&sc->err, loc, "%s", ss_error_message());
        return false;
    }
    int now = ss_program_value_count(sc->program);
    if (!grow_vinfo(e, now, loc))
        return false;
    for (int v = before; v < now; v++) {
        sc->vinfo[v].loc = loc;
        ss_value_set_source(sc->program, v, loc.line, loc.col);
    }
    return true;
}

val *ss__scn_ev_array_val(ss__scn_ev *e, ss_value v, ss__scn_loc loc)
{
    val *x = ss__scn_ev_new(e, V_ARRAY, loc);
    if (x)
        x->v = v;
    return x;
}

void ss__scn_ev_shape(ss__scn_ev *e, ss_value v, ss_dtype *dtype, int *rank, int64_t shape[])
{
    ss_dtype dt = SS_F32;
    int r = 0;
    if (ss_value_shape(e->sc->program, v, &dt, &r, shape) != SS_OK)
        r = 0;
    if (dtype)
        *dtype = dt;
    if (rank)
        *rank = r;
}

static val *materialize(ss__scn_ev *e, int index, ss__scn_loc loc)
{
    ss_scenario *sc = e->sc;
    ss__scn_array *a = &sc->arrays[index];
    if (a->value < 0) {
        int before = ss_program_value_count(sc->program);
        ss_status st = a->is_param ? ss_param(sc->program, a->name, a->dtype, a->rank, a->shape,
                                               a->has_spec ? &a->spec : NULL, &a->value)
                                   : ss_input(sc->program, a->name, a->dtype, a->rank, a->shape,
                                              a->has_spec ? &a->spec : NULL, &a->value);
        if (st) {
            /* The declaration is where the spec was given. */
            ss__scn_fail(&sc->err, a->loc, "%s", ss_error_message());
            return NULL;
        }
        if (!ss__scn_ev_built(e, st, before, a->loc))
            return NULL;
        sc->vinfo[a->value].name = a->name;
        if (sc->ninputs == sc->inputs_cap) {
            int cap = sc->inputs_cap ? sc->inputs_cap * 2 : 16;
            int *ni = realloc(sc->input_array, sizeof *ni * (size_t)cap);
            if (!ni)
                return ss__scn_ev_fail(e, loc, "out of host memory");
            sc->input_array = ni;
            sc->inputs_cap = cap;
        }
        sc->input_array[sc->ninputs++] = index;
    }
    return ss__scn_ev_array_val(e, a->value, loc);
}

val *ss__scn_ev_array(ss__scn_ev *e, val *x, ss__scn_loc loc, const char *what)
{
    if (!x)
        return NULL;
    if (!e->sc->program)
        return ss__scn_ev_fail(e, loc, "%s: arrays are not allowed before the mesh exists", what);
    switch (x->kind) {
    case V_ARRAY: return x;
    case V_DECL: return materialize(e, (int)x->i, loc);
    case V_INT:
    case V_FLOAT: {
        ss_value c;
        int before = ss_program_value_count(e->sc->program);
        double d = x->kind == V_INT ? (double)x->i : x->f;
        if (!ss__scn_ev_built(e, ss_constant(e->sc->program, d, &c), before, loc))
            return NULL;
        return ss__scn_ev_array_val(e, c, loc);
    }
    default:
        return ss__scn_ev_fail(e, loc, "%s must be an array, not %s", what, ss__scn_ev_kind_name(x->kind));
    }
}

bool ss__scn_ev_array_pair(ss__scn_ev *e, val **a, ss__scn_loc la, const char *wa, val **b, ss__scn_loc lb,
                   const char *wb)
{
    bool na = ss__scn_ev_is_num(*a), nb = ss__scn_ev_is_num(*b);
    val **num = na ? a : b, **arr = na ? b : a;
    ss_dtype dt = SS_F32;
    int64_t shape[SS_MAX_RANK];
    if ((*arr)->kind == V_ARRAY)
        ss__scn_ev_shape(e, (*arr)->v, &dt, NULL, shape);
    else if ((*arr)->kind == V_DECL)
        dt = e->sc->arrays[(*arr)->i].dtype;
    if (na == nb || (dt != SS_BF16 && dt != SS_F16))
        return (*a = ss__scn_ev_array(e, *a, la, wa)) && (*b = ss__scn_ev_array(e, *b, lb, wb));
    /* operands in their order (program values numbered as written) */
    if (!na && !(*arr = ss__scn_ev_array(e, *arr, la, wa)))
        return false;
    double d = (*num)->kind == V_INT ? (double)(*num)->i : (*num)->f;
    float f = (float)d;
    if (dt == SS_BF16)
        d = ss__bf16_to_f32(ss__f32_to_bf16(f));
    else if (dt == SS_F16)
        d = ss__f16_to_f32(ss__f32_to_f16(f));
    ss_value c;
    int before = ss_program_value_count(e->sc->program);
    ss__scn_loc l = na ? la : lb;
    if (!ss__scn_ev_built(e, ss_constant(e->sc->program, d, &c), before, l) ||
        !(*num = ss__scn_ev_array_val(e, c, l)))
        return false;
    return !na || (*arr = ss__scn_ev_array(e, *arr, lb, wb)) != NULL;
}

/* "x is f32[8,1024] (dim 1 = 1024)" into out. */
static void describe_dim(ss__scn_ev *e, const char *name, ss_value v, int d, char *out, size_t cap)
{
    ss_dtype dt;
    int rank;
    int64_t shape[SS_MAX_RANK];
    ss__scn_ev_shape(e, v, &dt, &rank, shape);
    char text[SS__SHAPE_TEXT_MAX];
    snprintf(out, cap, "%s is %s (dim %d = %lld)", name,
             ss__shape_text(text, sizeof text, dt, rank, shape), d, (long long)shape[d]);
}

bool ss__scn_ev_check_shapes(ss__scn_ev *e, const char *op, bool matmul, val *a, const char *an, val *b,
                     const char *bn, ss__scn_loc loc)
{
    int ra, rb;
    int64_t sa[SS_MAX_RANK], sb[SS_MAX_RANK];
    ss__scn_ev_shape(e, a->v, NULL, &ra, sa);
    ss__scn_ev_shape(e, b->v, NULL, &rb, sb);
    if (!an)
        an = ss__scn_value_name(e->sc, a->v) ? ss__scn_value_name(e->sc, a->v) : "the left operand";
    if (!bn)
        bn = ss__scn_value_name(e->sc, b->v) ? ss__scn_value_name(e->sc, b->v) : "the right operand";
    int da = -1, db = -1;
    if (matmul && ra >= 1 && rb == 2 && sa[ra - 1] != sb[0]) {
        da = ra - 1;
        db = 0;
    }
    for (int d = 0; !matmul && d < (ra > rb ? ra : rb) && da < 0; d++) {
        int ia = d - ((ra > rb ? ra : rb) - ra), ib = d - ((ra > rb ? ra : rb) - rb);
        if (ia >= 0 && ib >= 0 && sa[ia] != sb[ib] && sa[ia] != 1 && sb[ib] != 1) {
            da = ia;
            db = ib;
        }
    }
    if (da < 0)
        return true;
    char x[160], y[160];
    describe_dim(e, an, a->v, da, x, sizeof x);
    describe_dim(e, bn, b->v, db, y, sizeof y);
    ss__scn_ev_fail(e, loc, "%s: %s: %s, %s", op, matmul ? "contracting dims differ"
                                                 : "shapes do not broadcast", x, y);
    return false;
}

bool ss__scn_ev_resolve_spec(ss__scn_ev *e, ss_spec *spec, ss__scn_loc loc)
{
    ss_scenario *sc = e->sc;
    if (!sc->mesh || !sc->program) {
        ss__scn_fail(&sc->err, loc, "a PartitionSpec here is read before the mesh exists");
        return false;
    }
    bool logical = false;
    if (sc->have_rules)
        for (int d = 0; d < spec->ndims && !logical; d++)
            for (int k = 0; k < spec->dims[d].naxes && !logical; k++)
                for (int r = 0; r < sc->rules.count; r++)
                    if (strcmp(sc->rules.rules[r].name, spec->dims[d].axes[k]) == 0)
                        logical = true;
    if (logical) {
        ss_rules_options o = {.mesh = sc->mesh, .strict = sc->rules_strict,
                              .fallback = SS_FALLBACK_UNSHARDED};
        ss_spec out;
        int constrained = 1;
        if (ss_rules_resolve(&sc->rules, spec, &o, &out, &constrained) != SS_OK) {
            ss__scn_fail(&sc->err, loc, "%s", ss_error_message());
            return false;
        }
        *spec = out;
    }
    ss_sharding sh;
    ss_sharding_init(&sh, sc->mesh, spec);
    if (ss_sharding_validate(&sh) != SS_OK) {
        if (sc->have_rules && !logical)
            ss__scn_fail(&sc->err, loc, "%s (no rule names it either)", ss_error_message());
        else
            ss__scn_fail(&sc->err, loc, "%s", ss_error_message());
        return false;
    }
    return true;
}

/* --- Expressions ---------------------------------------------------------- */

static val *eval(ss__scn_ev *e, env *en, const ss__scn_expr *x);

val *ss__scn_ev_eval(ss__scn_ev *e, env *en, const ss__scn_expr *x) { return eval(e, en, x); }

static val *fold(ss__scn_ev *e, const char *op, val *a, val *b, ss__scn_loc loc)
{
    bool ints = a->kind == V_INT && b->kind == V_INT;
    double x = a->kind == V_INT ? (double)a->i : a->f, y = b->kind == V_INT ? (double)b->i : b->f;
    val *r = ss__scn_ev_new(e, ints ? V_INT : V_FLOAT, loc);
    if (!r)
        return NULL;
    switch (op[0]) {
    case '+':
        if (ints && __builtin_add_overflow(a->i, b->i, &r->i))
            return ss__scn_ev_fail(e, loc, "integer overflow");
        r->f = x + y;
        return r;
    case '-':
        if (ints && __builtin_sub_overflow(a->i, b->i, &r->i))
            return ss__scn_ev_fail(e, loc, "integer overflow");
        r->f = x - y;
        return r;
    case '*':
        if (op[1] == '*') {
            if (ints && b->i >= 0) {
                int64_t p = 1;
                for (int64_t k = 0; k < b->i; k++)
                    if (__builtin_mul_overflow(p, a->i, &p))
                        return ss__scn_ev_fail(e, loc, "integer overflow");
                    else if (p == 0 || p == 1)
                        break;
                r->i = p;
                return r;
            }
            r->kind = V_FLOAT;
            r->f = pow(x, y);
            return r;
        }
        if (ints && __builtin_mul_overflow(a->i, b->i, &r->i))
            return ss__scn_ev_fail(e, loc, "integer overflow");
        r->f = x * y;
        return r;
    case '/':
    case '%':
        if (y == 0)
            return ss__scn_ev_fail(e, loc, "division by zero");
        if (op[0] == '/' && op[1] != '/') {
            r->kind = V_FLOAT;
            r->f = x / y;
            return r;
        }
        if (ints) {
            if (a->i == INT64_MIN && b->i == -1)
                return ss__scn_ev_fail(e, loc, "integer overflow");
            int64_t q = a->i / b->i, m = a->i % b->i;
            if (m != 0 && ((m < 0) != (b->i < 0))) {
                q--;
                m += b->i;
            }
            r->i = op[0] == '%' ? m : q;
            return r;
        }
        r->f = op[0] == '%' ? x - y * floor(x / y) : floor(x / y);
        return r;
    default: return ss__scn_ev_fail(e, loc, "bad operator %s", op);
    }
}

/* a OP b for the binary operator node x, its operands evaluated. */
static val *binop_apply(ss__scn_ev *e, const ss__scn_expr *x, val *a, val *b)
{
    if (ss__scn_ev_is_num(a) && ss__scn_ev_is_num(b) && strcmp(x->str, "@") != 0)
        return fold(e, x->str, a, b, x->loc);
    if ((a->kind == V_TUPLE || b->kind == V_TUPLE) && strcmp(x->str, "+") == 0 &&
        a->kind == V_TUPLE && b->kind == V_TUPLE) {
        val *t = ss__scn_ev_new(e, V_TUPLE, x->loc);
        if (!t || !(t->items = ss__scn_alloc(&e->sc->arena, sizeof(val *) * (size_t)(a->n + b->n + 1))))
            return ss__scn_ev_fail(e, x->loc, "out of host memory");
        memcpy(t->items, a->items, sizeof(val *) * (size_t)a->n);
        memcpy(t->items + a->n, b->items, sizeof(val *) * (size_t)b->n);
        t->n = a->n + b->n;
        return ss__scn_ev_tuple_done(e, t, x->loc);
    }
    const char *op = x->str;
    static const struct {
        const char *op;
        int code;
    } ops[] = {{"+", SS_ADD}, {"-", SS_SUB}, {"*", SS_MUL}, {"/", SS_DIV}, {"**", SS_POW},
               {"@", -1}};
    int code = -2;
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        if (strcmp(ops[k].op, op) == 0)
            code = ops[k].code;
    if (code == -2)
        return ss__scn_ev_fail(e, x->loc, "operator %s works on numbers only", op);
    if (!ss__scn_ev_array_pair(e, &a, x->a->loc, "left operand", &b, x->b->loc, "right operand"))
        return NULL;
    /* Indexed by ss_binary_op: the name JAX's shape errors use. */
    static const char *const jnp_names[SS_BINARY_COUNT] = {
        [SS_ADD] = "add", [SS_SUB] = "subtract", [SS_MUL] = "multiply", [SS_DIV] = "divide",
        [SS_POW] = "power"};
    if (!ss__scn_ev_check_shapes(e, code < 0 ? "matmul" : jnp_names[code], code < 0, a,
                         x->a->kind == SS__SCN_EX_NAME ? x->a->str : NULL, b,
                         x->b->kind == SS__SCN_EX_NAME ? x->b->str : NULL, x->loc))
        return NULL;
    ss_value out;
    int before = ss_program_value_count(e->sc->program);
    ss_status st = code < 0 ? ss_matmul(e->sc->program, a->v, b->v, &out)
                            : ss_binary(e->sc->program, (ss_binary_op)code, a->v, b->v, &out);
    return ss__scn_ev_built(e, st, before, x->loc) ? ss__scn_ev_array_val(e, out, x->loc) : NULL;
}

/* A chain of binary operators (`x + x + ... + x` parses left-deep) is
 * evaluated in a loop over its left operands, so its length costs no
 * stack; right operands recurse (their height is capped by the parser). */
static val *eval_binop(ss__scn_ev *e, env *en, const ss__scn_expr *x)
{
    int n = 0;
    for (const ss__scn_expr *c = x; c->kind == SS__SCN_EX_BINOP; c = c->a)
        n++;
    const ss__scn_expr **chain = malloc(sizeof *chain * (size_t)n);
    if (!chain)
        return ss__scn_ev_fail(e, x->loc, "out of host memory");
    int k = n;
    const ss__scn_expr *c = x;
    for (; c->kind == SS__SCN_EX_BINOP; c = c->a)
        chain[--k] = c;
    val *a = eval(e, en, c);
    for (k = 0; a && k < n; k++) {
        val *b = eval(e, en, chain[k]->b);
        a = b ? binop_apply(e, chain[k], a, b) : NULL;
    }
    free(chain);
    return a;
}

static bool dotted(const env *en, const ss__scn_expr *c, char *out, size_t cap);

static val *eval_attr(ss__scn_ev *e, env *en, const ss__scn_expr *x)
{
    char path[128];
    ss_dtype dt;
    if (dotted(en, x, path, sizeof path) && ss_dtype_parse(x->str, &dt) == SS_OK) {
        static const char *const mods[] = {"jnp.", "np.", "numpy.", "jax.numpy.", "jax.", NULL};
        for (int k = 0; mods[k]; k++)
            if (strncmp(path, mods[k], strlen(mods[k])) == 0 &&
                strcmp(path + strlen(mods[k]), x->str) == 0) {
                val *s = ss__scn_ev_new(e, V_STR, x->loc); /* jnp.bfloat16: a dtype name */
                if (s)
                    s->s = x->str;
                return s;
            }
    }
    if (x->a->kind == SS__SCN_EX_NAME && strcmp(x->str, "UNCONSTRAINED") == 0 &&
        (strcmp(x->a->str, "P") == 0 || strcmp(x->a->str, "PartitionSpec") == 0) &&
        !ss__scn_ev_env_get(en, x->a->str)) {
        val *u = ss__scn_ev_new(e, V_STR, x->loc);
        if (u)
            u->s = "UNCONSTRAINED";
        return u;
    }
    val *o = eval(e, en, x->a);
    if (!o)
        return NULL;
    if (o->kind == V_DECL) {
        const ss__scn_array *a = &e->sc->arrays[o->i];
        if (strcmp(x->str, "shape") == 0 || strcmp(x->str, "ndim") == 0) {
            if (x->str[0] == 'n')
                return ss__scn_ev_int(e, a->rank, x->loc);
            val *t = ss__scn_ev_new(e, V_TUPLE, x->loc);
            if (!t || !(t->items = ss__scn_alloc(&e->sc->arena, sizeof(val *) * (SS_MAX_RANK + 1))))
                return NULL;
            for (int d = 0; d < a->rank; d++)
                if (!(t->items[t->n++] = ss__scn_ev_int(e, a->shape[d], x->loc)))
                    return NULL;
            return t;
        }
    }
    if (o->kind == V_ARRAY || o->kind == V_DECL) {
        if (strcmp(x->str, "shape") == 0 || strcmp(x->str, "ndim") == 0 ||
            strcmp(x->str, "T") == 0) {
            if (!(o = ss__scn_ev_array(e, o, x->loc, "object")))
                return NULL;
            int rank;
            int64_t shape[SS_MAX_RANK];
            ss__scn_ev_shape(e, o->v, NULL, &rank, shape);
            if (x->str[0] == 'n')
                return ss__scn_ev_int(e, rank, x->loc);
            if (x->str[0] == 's') {
                val *t = ss__scn_ev_new(e, V_TUPLE, x->loc);
                if (!t || !(t->items = ss__scn_alloc(&e->sc->arena, sizeof(val *) * (SS_MAX_RANK + 1))))
                    return NULL;
                for (int d = 0; d < rank; d++)
                    if (!(t->items[t->n++] = ss__scn_ev_int(e, shape[d], x->loc)))
                        return NULL;
                return t;
            }
            int perm[SS_MAX_RANK];
            for (int d = 0; d < rank; d++)
                perm[d] = rank - 1 - d;
            ss_value out;
            int before = ss_program_value_count(e->sc->program);
            if (!ss__scn_ev_built(e, ss_transpose(e->sc->program, o->v, perm, &out), before, x->loc))
                return NULL;
            return ss__scn_ev_array_val(e, out, x->loc);
        }
    }
    return ss__scn_ev_fail(e, x->loc, "%s has no attribute '%s'", ss__scn_ev_kind_name(o->kind), x->str);
}

static bool eval_callargs(ss__scn_ev *e, env *en, const ss__scn_expr *x, val *self, callargs *ca)
{
    memset(ca, 0, sizeof *ca);
    int n = x->nitems + (self ? 1 : 0);
    ss__scn_arena *ar = &e->sc->arena;
    ca->loc = x->loc;
    ca->v = ss__scn_alloc(ar, sizeof(val *) * (size_t)(n + 1));
    ca->locs = ss__scn_alloc(ar, sizeof(ss__scn_loc) * (size_t)(n + 1));
    ca->kwv = ss__scn_alloc(ar, sizeof(val *) * (size_t)(x->nkw + 1));
    if (!ca->v || !ca->locs || !ca->kwv) {
        ss__scn_fail(&e->sc->err, x->loc, "out of host memory");
        return false;
    }
    if (self) {
        ca->v[ca->n] = self;
        ca->locs[ca->n++] = x->a->loc;
    }
    for (int k = 0; k < x->nitems; k++) {
        if (!(ca->v[ca->n] = eval(e, en, x->items[k])))
            return false;
        ca->locs[ca->n++] = x->items[k]->loc;
    }
    ca->nkw = x->nkw;
    ca->kwn = x->kwnames;
    ca->kwl = x->kwlocs;
    for (int k = 0; k < x->nkw; k++)
        if (!(ca->kwv[k] = eval(e, en, x->kwvals[k])))
            return false;
    return true;
}

/* `jnp.dot`, `jax.nn.relu`: an attribute chain of names whose first name
 * is not bound, as "jnp.dot" in out; false for anything else. */
static bool dotted(const env *en, const ss__scn_expr *c, char *out, size_t cap)
{
    const ss__scn_expr *parts[16];
    int n = 0;
    for (; c->kind == SS__SCN_EX_ATTR && n < 15; c = c->a)
        parts[n++] = c;
    if (c->kind != SS__SCN_EX_NAME || ss__scn_ev_env_get(en, c->str))
        return false;
    size_t at = (size_t)snprintf(out, cap, "%s", c->str);
    for (int k = n - 1; k >= 0 && at < cap; k--)
        at += (size_t)snprintf(out + at, cap - at, ".%s", parts[k]->str);
    return at < cap;
}

static val *eval_call(ss__scn_ev *e, env *en, const ss__scn_expr *x)
{
    const ss__scn_expr *c = x->a;
    callargs ca;
    if (c->kind == SS__SCN_EX_NAME) {
        val *f = ss__scn_ev_env_get(en, c->str);
        if (!f) {
            builtin_fn b = ss__scn_ev_builtin(c->str, false);
            if (!b) {
                ss__scn_init init;
                if (ss__scn_ev_init_name(c->str, &init))
                    b = ss__scn_ev_builtin("__init__", false);
                if (!b)
                    return ss__scn_ev_fail(e, c->loc, "name '%s' is not defined", c->str);
            }
            if (!eval_callargs(e, en, x, NULL, &ca))
                return NULL;
            ca.fname = c->str;
            ca.loc = c->loc;
            return b(e, &ca);
        }
        if (!eval_callargs(e, en, x, NULL, &ca))
            return NULL;
        ca.fname = c->str;
        ca.loc = c->loc;
        if (f->kind == V_FUNC)
            return ss__scn_ev_call_def(e, f->def, &ca, NULL);
        if (f->kind == V_SHARD_MAP)
            return ss__scn_ev_call_shard_map(e, f->smap, &ca);
        if (f->kind == V_GRAD)
            return ss__scn_ev_call_grad(e, f->grad, &ca);
        return ss__scn_ev_fail(e, c->loc, "'%s' is %s, not a function", c->str, ss__scn_ev_kind_name(f->kind));
    }
    char path[128], why[512];
    if (c->kind == SS__SCN_EX_ATTR && dotted(en, c, path, sizeof path)) {
        why[0] = '\0';
        const char *name = ss__scn_ev_jax_name(path, why, sizeof why);
        if (!name && why[0])
            return ss__scn_ev_fail(e, c->loc, "%s", why);
        if (!name) {
            *strchr(path, '.') = '\0';
            return ss__scn_ev_fail(e, c->loc, "name '%s' is not defined", path);
        }
        if (!eval_callargs(e, en, x, NULL, &ca))
            return NULL;
        ca.fname = name;
        ca.loc = c->loc;
        return ss__scn_ev_builtin(name, false)(e, &ca);
    }
    if (c->kind == SS__SCN_EX_ATTR) {
        builtin_fn b = ss__scn_ev_builtin(c->str, true);
        if (!b && ss__scn_ev_builtin(c->str, false) && c->str[0] != '_')
            return ss__scn_ev_fail(e, c->loc, "'%s' is a function, not a method: write %s(x, ...)",
                           c->str, c->str);
        char near[256];
        if (!b && ss__scn_ev_nearest_builtins(c->str, true, near, sizeof near))
            return ss__scn_ev_fail(e, c->loc, "no method '%s' (did you mean %s? methods: reshape, "
                                      "transpose, sum, mean, max, min, astype)", c->str, near);
        if (!b)
            return ss__scn_ev_fail(e, c->loc, "no method '%s' (methods: reshape, transpose, sum, mean, "
                                      "max, min, astype)", c->str);
        val *self = eval(e, en, c->a);
        if (!self || !eval_callargs(e, en, x, self, &ca))
            return NULL;
        ca.fname = c->str;
        ca.loc = c->loc;
        return b(e, &ca);
    }
    val *f = eval(e, en, c);
    if (!f)
        return NULL;
    if (!eval_callargs(e, en, x, NULL, &ca))
        return NULL;
    ca.fname = "function";
    if (f->kind == V_FUNC)
        return ss__scn_ev_call_def(e, f->def, &ca, NULL);
    if (f->kind == V_SHARD_MAP)
        return ss__scn_ev_call_shard_map(e, f->smap, &ca);
    if (f->kind == V_GRAD)
        return ss__scn_ev_call_grad(e, f->grad, &ca);
    return ss__scn_ev_fail(e, c->loc, "%s is not callable", ss__scn_ev_kind_name(f->kind));
}

static val *eval_type(ss__scn_ev *e, env *en, const ss__scn_expr *x, ss_dtype dt)
{
    val *t = ss__scn_ev_new(e, V_TYPE, x->loc);
    if (!t || !(t->type = ss__scn_alloc(&e->sc->arena, sizeof *t->type)))
        return ss__scn_ev_fail(e, x->loc, "out of host memory");
    t->type->dtype = dt;
    if (x->nitems > SS_MAX_RANK)
        return ss__scn_ev_fail(e, x->items[SS_MAX_RANK]->loc, "rank above %d", SS_MAX_RANK);
    for (int k = 0; k < x->nitems; k++) {
        const ss__scn_expr *it = x->items[k];
        if (it->kind == SS__SCN_EX_SLICE)
            return ss__scn_ev_fail(e, it->loc, "a shape has integer dims");
        val *d = eval(e, en, it);
        int64_t n;
        if (!d || !ss__scn_ev_to_int(e, d, it->loc, "a dimension", &n))
            return NULL;
        if (n < 0)
            return ss__scn_ev_fail(e, it->loc, "negative dimension %lld", (long long)n);
        t->type->shape[k] = n;
    }
    t->type->rank = x->nitems;
    int64_t total, bytes;
    bool counted = ss__product(t->type->rank, t->type->shape, &total);
    if (!counted || !ss__mul_i64_checked(total, (int64_t)ss_dtype_size(dt), &bytes)) {
        char dims[256];
        size_t at = 0;
        for (int k = 0; k < t->type->rank && at < sizeof dims; k++)
            at += (size_t)snprintf(dims + at, sizeof dims - at, "%s%lld", k ? ", " : "",
                                   (long long)t->type->shape[k]);
        return ss__scn_ev_fail(e, x->loc, "shape too large: %s[%s] has %s than int64 holds (at most %lld)",
                       ss_dtype_name(dt), dims, counted ? "more bytes" : "more elements",
                       (long long)INT64_MAX);
    }
    return t;
}

static val *eval_index(ss__scn_ev *e, env *en, const ss__scn_expr *x)
{
    ss_dtype dt;
    if (x->a->kind == SS__SCN_EX_NAME && !ss__scn_ev_env_get(en, x->a->str) &&
        ss_dtype_parse(x->a->str, &dt) == SS_OK)
        return eval_type(e, en, x, dt);
    val *o = eval(e, en, x->a);
    if (!o)
        return NULL;
    val **items = ss__scn_alloc(&e->sc->arena, sizeof(val *) * (size_t)(x->nitems + 1));
    if (!items)
        return ss__scn_ev_fail(e, x->loc, "out of host memory");
    for (int k = 0; k < x->nitems; k++) {
        const ss__scn_expr *it = x->items[k];
        if (it->kind == SS__SCN_EX_SLICE) {
            /* a:b as the tuple (a, b) marked "slice"; absent bounds are None */
            val *t = ss__scn_ev_new(e, V_TUPLE, it->loc);
            if (!t || !(t->items = ss__scn_alloc(&e->sc->arena, sizeof(val *) * 2)))
                return NULL;
            t->s = "slice";
            t->n = 2;
            for (int j = 0; j < 2; j++) {
                const ss__scn_expr *b = j ? it->b : it->a;
                if (!(t->items[j] = b ? eval(e, en, b) : ss__scn_ev_new(e, V_NONE, it->loc)))
                    return NULL;
            }
            items[k] = t;
            continue;
        }
        if (!(items[k] = eval(e, en, it)))
            return NULL;
    }
    if (o->kind == V_TUPLE) {
        int64_t i;
        if (x->nitems != 1 || !items[0] || !ss__scn_ev_to_int(e, items[0], x->items[0]->loc,
                                                       "a tuple index", &i))
            return e->sc->err.set ? NULL : ss__scn_ev_fail(e, x->loc, "a tuple takes one integer index");
        if (i < 0)
            i += o->n;
        if (i < 0 || i >= o->n)
            return ss__scn_ev_fail(e, x->items[0]->loc, "tuple index out of range");
        return o->items[i];
    }
    if (o->kind == V_ARRAY || o->kind == V_DECL) {
        if (!(o = ss__scn_ev_array(e, o, x->a->loc, "indexed value")))
            return NULL;
        return ss__scn_ev_index_array(e, o, x, items);
    }
    return ss__scn_ev_fail(e, x->loc, "%s cannot be indexed", ss__scn_ev_kind_name(o->kind));
}

static val *eval_node(ss__scn_ev *e, env *en, const ss__scn_expr *x);

/* Evaluation nests through user functions too (each call's expressions
 * start over at height 1), so its depth is counted across calls. */
static val *eval(ss__scn_ev *e, env *en, const ss__scn_expr *x)
{
    if (e->sc->err.set)
        return NULL;
    if (e->depth >= EVAL_MAX_DEPTH)
        return ss__scn_ev_fail(e, x->loc, "expression nested too deeply (more than %d levels, "
                                  "counting the function calls it is inside)", EVAL_MAX_DEPTH);
    e->depth++;
    val *r = eval_node(e, en, x);
    e->depth--;
    return r;
}

static val *eval_node(ss__scn_ev *e, env *en, const ss__scn_expr *x)
{
    switch (x->kind) {
    case SS__SCN_EX_INT: return ss__scn_ev_int(e, x->ival, x->loc);
    case SS__SCN_EX_FLOAT: {
        val *r = ss__scn_ev_new(e, V_FLOAT, x->loc);
        if (r)
            r->f = x->fval;
        return r;
    }
    case SS__SCN_EX_STR: {
        val *r = ss__scn_ev_new(e, V_STR, x->loc);
        if (r)
            r->s = x->str;
        return r;
    }
    case SS__SCN_EX_NONE: return ss__scn_ev_new(e, V_NONE, x->loc);
    case SS__SCN_EX_NAME: {
        val *r = ss__scn_ev_env_get(en, x->str);
        if (r)
            return r;
        ss__scn_init init;
        if (ss__scn_ev_init_name(x->str, &init)) {
            if (!(r = ss__scn_ev_new(e, V_INIT, x->loc)) ||
                !(r->init = ss__scn_alloc(&e->sc->arena, sizeof *r->init)))
                return NULL;
            *r->init = init;
            return r;
        }
        if (ss__scn_ev_builtin(x->str, false))
            return ss__scn_ev_fail(e, x->loc, "'%s' is a built-in function: call it", x->str);
        return ss__scn_ev_fail(e, x->loc, "name '%s' is not defined", x->str);
    }
    case SS__SCN_EX_TUPLE:
    case SS__SCN_EX_LIST: {
        val *t = ss__scn_ev_new(e, V_TUPLE, x->loc);
        if (!t || !(t->items = ss__scn_alloc(&e->sc->arena, sizeof(val *) * (size_t)(x->nitems + 1))))
            return ss__scn_ev_fail(e, x->loc, "out of host memory");
        for (int k = 0; k < x->nitems; k++)
            if (!(t->items[t->n++] = eval(e, en, x->items[k])))
                return NULL;
        return ss__scn_ev_tuple_done(e, t, x->loc);
    }
    case SS__SCN_EX_NEG: {
        val *a = eval(e, en, x->a);
        if (!a)
            return NULL;
        if (a->kind == V_INT) {
            if (a->i == INT64_MIN)
                return ss__scn_ev_fail(e, x->loc, "integer overflow");
            return ss__scn_ev_int(e, -a->i, x->loc);
        }
        if (a->kind == V_FLOAT) {
            val *r = ss__scn_ev_new(e, V_FLOAT, x->loc);
            if (r)
                r->f = -a->f;
            return r;
        }
        if (!(a = ss__scn_ev_array(e, a, x->a->loc, "operand of -")))
            return NULL;
        ss_value out;
        int before = ss_program_value_count(e->sc->program);
        if (!ss__scn_ev_built(e, ss_unary(e->sc->program, SS_NEG, a->v, &out), before, x->loc))
            return NULL;
        return ss__scn_ev_array_val(e, out, x->loc);
    }
    case SS__SCN_EX_BINOP: return eval_binop(e, en, x);
    case SS__SCN_EX_CALL: return eval_call(e, en, x);
    case SS__SCN_EX_ATTR: return eval_attr(e, en, x);
    case SS__SCN_EX_INDEX: return eval_index(e, en, x);
    case SS__SCN_EX_SLICE: return ss__scn_ev_fail(e, x->loc, "a slice a:b is only allowed inside [...]");
    }
    return ss__scn_ev_fail(e, x->loc, "bad expression");
}

/* --- Statements ----------------------------------------------------------- */

typedef struct frame {
    env *en;
    bool is_global;
    val *ret;
    const ss__scn_expr *ret_expr;
} frame;

static bool bind(ss__scn_ev *e, frame *f, const ss__scn_stmt *s, val *v)
{
    ss_scenario *sc = e->sc;
    if (s->ntargets == 1) {
        if (f->is_global && v->kind == V_ARRAY) {
            ss__scn_ev_fail(e, s->loc, "arrays are computed inside functions: put this in a def and "
                               "`run` it");
            return false;
        }
        if (v->kind == V_ARRAY && v->v >= 0 && v->v < sc->vinfo_cap && !sc->vinfo[v->v].name)
            sc->vinfo[v->v].name = s->targets[0];
        return ss__scn_ev_env_set(e, f->en, s->targets[0], v, s->target_locs[0]);
    }
    if (v->kind != V_TUPLE) {
        ss__scn_ev_fail(e, s->value->loc, "cannot unpack %s into %d names", ss__scn_ev_kind_name(v->kind),
                s->ntargets);
        return false;
    }
    if (v->n != s->ntargets) {
        ss__scn_ev_fail(e, s->value->loc, "cannot unpack %d values into %d names", v->n, s->ntargets);
        return false;
    }
    for (int k = 0; k < v->n; k++) {
        val *it = v->items[k];
        if (f->is_global && it->kind == V_ARRAY) {
            ss__scn_ev_fail(e, s->loc, "arrays are computed inside functions");
            return false;
        }
        if (it->kind == V_ARRAY && it->v >= 0 && it->v < sc->vinfo_cap && !sc->vinfo[it->v].name)
            sc->vinfo[it->v].name = s->targets[k];
        if (!ss__scn_ev_env_set(e, f->en, s->targets[k], it, s->target_locs[k]))
            return false;
    }
    return true;
}

static bool exec_block(ss__scn_ev *e, frame *f, ss__scn_stmt *const *body, int n);

static bool exec_for(ss__scn_ev *e, frame *f, const ss__scn_stmt *s)
{
    int64_t lo = 0, hi = 0, step = 1;
    const ss__scn_expr *it = s->value;
    val *seq = NULL;
    if (it->kind == SS__SCN_EX_CALL && it->a->kind == SS__SCN_EX_NAME && strcmp(it->a->str, "range") == 0 &&
        !ss__scn_ev_env_get(f->en, "range")) {
        if (it->nitems < 1 || it->nitems > 3 || it->nkw) {
            ss__scn_ev_fail(e, it->loc, "range takes 1 to 3 integers");
            return false;
        }
        int64_t v[3];
        for (int k = 0; k < it->nitems; k++) {
            val *x = eval(e, f->en, it->items[k]);
            if (!x || !ss__scn_ev_to_int(e, x, it->items[k]->loc, "a range bound", &v[k]))
                return false;
        }
        if (it->nitems == 1) {
            hi = v[0];
        } else {
            lo = v[0];
            hi = v[1];
            if (it->nitems == 3)
                step = v[2];
        }
        if (step == 0) {
            ss__scn_ev_fail(e, it->loc, "range() step must not be zero");
            return false;
        }
    } else {
        if (!(seq = eval(e, f->en, it)))
            return false;
        if (seq->kind != V_TUPLE) {
            ss__scn_ev_fail(e, it->loc, "a for loop runs over range(...) or a tuple, not %s",
                    ss__scn_ev_kind_name(seq->kind));
            return false;
        }
        hi = seq->n;
    }
    for (int64_t i = lo; step > 0 ? i < hi : i > hi; i += step) {
        if (--e->budget < 0) {
            ss__scn_ev_fail(e, s->loc, "the scenario unrolls to too much work (more than %ld loop "
                               "iterations and calls)", BUDGET);
            return false;
        }
        val *x = seq ? seq->items[i] : ss__scn_ev_int(e, i, s->target_locs[0]);
        if (!x)
            return false;
        if (s->ntargets == 1) {
            if (!ss__scn_ev_env_set(e, f->en, s->targets[0], x, s->target_locs[0]))
                return false;
        } else if (x->kind != V_TUPLE || x->n != s->ntargets) {
            ss__scn_ev_fail(e, s->target_locs[0], "cannot unpack %s into %d loop variables",
                    x->kind == V_TUPLE ? "a tuple of another length" : ss__scn_ev_kind_name(x->kind),
                    s->ntargets);
            return false;
        } else {
            for (int k = 0; k < s->ntargets; k++)
                if (!ss__scn_ev_env_set(e, f->en, s->targets[k], x->items[k], s->target_locs[k]))
                    return false;
        }
        if (!exec_block(e, f, s->body, s->nbody))
            return false;
        if (f->ret)
            return true;
    }
    return true;
}

static bool exec_stmt(ss__scn_ev *e, frame *f, const ss__scn_stmt *s)
{
    switch (s->kind) {
    case SS__SCN_ST_ASSIGN: {
        val *v = eval(e, f->en, s->value);
        return v && bind(e, f, s, v);
    }
    case SS__SCN_ST_EXPR: {
        if (!f->is_global && ss__scn_is_print_stmt(s))
            return ss__scn_ev_print_stmt(e, f->en, s, false); /* print.c */
        val *v = eval(e, f->en, s->value);
        if (v && f->is_global)
            ss__scn_ev_fail(e, s->loc, "a statement that computes something must bind it: name = ...");
        return v != NULL && !e->sc->err.set;
    }
    case SS__SCN_ST_RETURN:
        if (f->is_global) {
            ss__scn_ev_fail(e, s->loc, "'return' outside a function");
            return false;
        }
        if (s->value) {
            if (!(f->ret = eval(e, f->en, s->value)))
                return false;
        } else if (!(f->ret = ss__scn_ev_new(e, V_NONE, s->loc))) {
            return false;
        }
        f->ret_expr = s->value;
        return true;
    case SS__SCN_ST_PASS: return true;
    case SS__SCN_ST_DEF: {
        val *fn = ss__scn_ev_new(e, V_FUNC, s->loc);
        if (!fn)
            return false;
        fn->def = s;
        return ss__scn_ev_env_set(e, f->en, s->name, fn, s->name_loc);
    }
    case SS__SCN_ST_FOR: return exec_for(e, f, s);
    default:
        if (!f->is_global) {
            ss__scn_ev_fail(e, s->loc, "this statement belongs at the top level, not inside a function");
            return false;
        }
        return true; /* configuration and actions are handled by ss__scn_load */
    }
}

static bool exec_block(ss__scn_ev *e, frame *f, ss__scn_stmt *const *body, int n)
{
    for (int k = 0; k < n; k++) {
        if (!exec_stmt(e, f, body[k]))
            return false;
        if (f->ret)
            return true;
    }
    return true;
}

val *ss__scn_ev_call_def(ss__scn_ev *e, const ss__scn_stmt *def, const callargs *ca, env **keep)
{
    if (++e->call_depth > MAX_CALL_DEPTH) {
        e->call_depth--;
        return ss__scn_ev_fail(e, ca->loc, "calls nested too deeply (more than %d levels; recursion?) in %s",
                       MAX_CALL_DEPTH, def->name);
    }
    if (--e->budget < 0)
        return ss__scn_ev_fail(e, ca->loc, "the scenario unrolls to too much work");
    env *en = calloc(1, sizeof *en);
    if (!en)
        return ss__scn_ev_fail(e, ca->loc, "out of host memory");
    en->parent = &e->globals;
    val *result = NULL;
    bool ok = true;
    if (ca->n > def->nparams) {
        ss__scn_ev_fail(e, ca->locs[def->nparams], "%s() takes %d arguments but %d were given",
                def->name, def->nparams, ca->n);
        ok = false;
    }
    for (int k = 0; ok && k < ca->n; k++)
        ok = ss__scn_ev_env_set(e, en, def->params[k], ca->v[k], def->param_locs[k]);
    for (int k = 0; ok && k < ca->nkw; k++) {
        int at = -1;
        for (int j = 0; j < def->nparams; j++)
            if (strcmp(def->params[j], ca->kwn[k]) == 0)
                at = j;
        if (at < 0) {
            ss__scn_ev_fail(e, ca->kwl[k], "%s() got an unexpected keyword argument '%s'", def->name,
                    ca->kwn[k]);
            ok = false;
        } else if (at < ca->n) {
            ss__scn_ev_fail(e, ca->kwl[k], "%s() got multiple values for argument '%s'", def->name,
                    ca->kwn[k]);
            ok = false;
        } else {
            ok = ss__scn_ev_env_set(e, en, def->params[at], ca->kwv[k], ca->kwl[k]);
        }
    }
    for (int j = 0; ok && j < def->nparams; j++)
        if (!ss__scn_ev_env_has_local(en, def->params[j])) {
            ss__scn_ev_fail(e, ca->loc, "%s() missing argument '%s'", def->name, def->params[j]);
            ok = false;
        }
    frame f = {en, false, NULL, NULL};
    if (ok && exec_block(e, &f, def->body, def->nbody)) {
        result = f.ret ? f.ret : ss__scn_ev_new(e, V_NONE, ca->loc);
        e->last_ret = f.ret_expr;
    }
    e->call_depth--;
    if (keep && result) {
        *keep = en;
    } else {
        ss__scn_ev_env_free(en);
        free(en);
    }
    return result;
}


bool ss__scn_ev_exec_global(ss__scn_ev *e, const ss__scn_stmt *s)
{
    frame top = {&e->globals, true, NULL, NULL};
    return exec_stmt(e, &top, s);
}
