/*
 * scenario_eval.c — expressions and statements to program values: names and
 * environments, numbers (folded at build time; only arrays reach the
 * program), operators, calls of user functions (expanded inline at the call
 * site: the IR has no calls), loops (unrolled), indexing and types. A
 * global array becomes a program input the first time something uses it.
 * Built-in functions are in scenario_ops.c; loading and actions in
 * scenario_load.c.
 */
#include "scenario_eval.h"

#include "kernels/kernels.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CALL_DEPTH 64
/* Nested evaluations across user calls (SCN_MAX_DEPTH bounds one
 * expression; MAX_CALL_DEPTH calls each at that height would be too deep
 * for the stack). */
#define EVAL_MAX_DEPTH (4 * SCN_MAX_DEPTH)
#define MAX_VALUES 500000

/* --- Values and environments -------------------------------------------- */

val *ev_new(ev *e, val_kind kind, scn_loc loc)
{
    val *x = scn_alloc(&e->sc->arena, sizeof *x);
    if (!x) {
        scn_fail(&e->sc->err, loc, "out of host memory (the scenario is too large)");
        return NULL;
    }
    x->kind = kind;
    x->loc = loc;
    x->v = -1;
    return x;
}

val *ev_int(ev *e, int64_t i, scn_loc loc)
{
    val *x = ev_new(e, V_INT, loc);
    if (x)
        x->i = i;
    return x;
}

val *ev_tuple_done(ev *e, val *t, scn_loc loc)
{
    if (!t)
        return NULL;
    int d = 0;
    for (int k = 0; k < t->n; k++)
        if (t->items[k] && t->items[k]->kind == V_TUPLE && t->items[k]->depth > d)
            d = t->items[k]->depth;
    t->depth = d + 1;
    if (t->depth > SCN_MAX_DEPTH)
        return ev_fail(e, loc, "tuple nested too deeply (more than %d levels)", SCN_MAX_DEPTH);
    return t;
}

val *ev_fail(ev *e, scn_loc loc, const char *fmt, ...)
{
    if (!e->sc->err.set) {
        char msg[1024];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        scn_fail(&e->sc->err, loc, "%s", msg);
    }
    return NULL;
}

const char *ev_kind_name(val_kind k)
{
    static const char *const names[] = {"None",  "an integer", "a number",    "a string",
                                        "an array", "a tuple", "a PartitionSpec", "a type",
                                        "a function", "an initializer", "an array",
                                        "a shard_map function", "a grad function"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "a value";
}

bool ev_is_num(const val *x) { return x && (x->kind == V_INT || x->kind == V_FLOAT); }

bool ev_to_int(ev *e, val *x, scn_loc loc, const char *what, int64_t *out)
{
    if (!x || x->kind != V_INT) {
        ev_fail(e, loc, "%s must be an integer, not %s", what, x ? ev_kind_name(x->kind) : "?");
        return false;
    }
    *out = x->i;
    return true;
}

bool ev_to_num(ev *e, val *x, scn_loc loc, const char *what, double *out)
{
    if (!ev_is_num(x)) {
        ev_fail(e, loc, "%s must be a number, not %s", what, x ? ev_kind_name(x->kind) : "?");
        return false;
    }
    *out = x->kind == V_INT ? (double)x->i : x->f;
    return true;
}

bool ev_env_set(ev *e, env *en, const char *name, val *x, scn_loc loc)
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
            scn_fail(&e->sc->err, loc, "out of host memory");
            return false;
        }
        en->vals = nv;
        en->cap = cap;
    }
    en->names[en->n] = name;
    en->vals[en->n++] = x;
    return true;
}

val *ev_env_get(const env *en, const char *name)
{
    for (; en; en = en->parent)
        for (int k = en->n - 1; k >= 0; k--)
            if (strcmp(en->names[k], name) == 0)
                return en->vals[k];
    return NULL;
}

bool ev_env_has_local(const env *en, const char *name)
{
    for (int k = 0; k < en->n; k++)
        if (strcmp(en->names[k], name) == 0)
            return true;
    return false;
}

void ev_env_free(env *en)
{
    free(en->names);
    free(en->vals);
    en->names = NULL;
    en->vals = NULL;
    en->n = en->cap = 0;
}

/* --- Program values ------------------------------------------------------- */

static bool grow_vinfo(ev *e, int n, scn_loc loc)
{
    scenario *sc = e->sc;
    if (n <= sc->vinfo_cap)
        return true;
    if (n > MAX_VALUES) {
        scn_fail(&sc->err, loc, "the program is too large (more than %d values)", MAX_VALUES);
        return false;
    }
    int cap = sc->vinfo_cap ? sc->vinfo_cap : 256;
    while (cap < n)
        cap *= 2;
    scn_value_info *v = realloc(sc->vinfo, sizeof *v * (size_t)cap);
    if (!v) {
        scn_fail(&sc->err, loc, "out of host memory");
        return false;
    }
    memset(v + sc->vinfo_cap, 0, sizeof *v * (size_t)(cap - sc->vinfo_cap));
    sc->vinfo = v;
    sc->vinfo_cap = cap;
    return true;
}

bool ev_built(ev *e, ss_status st, int before, scn_loc loc)
{
    scenario *sc = e->sc;
    if (st) {
        scn_fail(&sc->err, loc, "%s", ss_error_message());
        return false;
    }
    int now = ss_program_value_count(sc->program);
    if (!grow_vinfo(e, now, loc))
        return false;
    for (int v = before; v < now; v++)
        sc->vinfo[v].loc = loc;
    return true;
}

val *ev_array_val(ev *e, ss_value v, scn_loc loc)
{
    val *x = ev_new(e, V_ARRAY, loc);
    if (x)
        x->v = v;
    return x;
}

void ev_shape(ev *e, ss_value v, ss_dtype *dtype, int *rank, int64_t shape[])
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

static val *materialize(ev *e, int index, scn_loc loc)
{
    scenario *sc = e->sc;
    scn_array *a = &sc->arrays[index];
    if (a->value < 0) {
        int before = ss_program_value_count(sc->program);
        ss_status st = a->is_param ? ss_param(sc->program, a->name, a->dtype, a->rank, a->shape,
                                               a->has_spec ? &a->spec : NULL, &a->value)
                                   : ss_input(sc->program, a->name, a->dtype, a->rank, a->shape,
                                              a->has_spec ? &a->spec : NULL, &a->value);
        if (st) {
            /* The declaration is where the spec was given. */
            scn_fail(&sc->err, a->loc, "%s", ss_error_message());
            return NULL;
        }
        if (!ev_built(e, st, before, a->loc))
            return NULL;
        sc->vinfo[a->value].name = a->name;
        if (sc->ninputs == sc->inputs_cap) {
            int cap = sc->inputs_cap ? sc->inputs_cap * 2 : 16;
            int *ni = realloc(sc->input_array, sizeof *ni * (size_t)cap);
            if (!ni)
                return ev_fail(e, loc, "out of host memory");
            sc->input_array = ni;
            sc->inputs_cap = cap;
        }
        sc->input_array[sc->ninputs++] = index;
    }
    return ev_array_val(e, a->value, loc);
}

val *ev_array(ev *e, val *x, scn_loc loc, const char *what)
{
    if (!x)
        return NULL;
    if (!e->sc->program)
        return ev_fail(e, loc, "%s: arrays are not allowed before the mesh exists", what);
    switch (x->kind) {
    case V_ARRAY: return x;
    case V_DECL: return materialize(e, (int)x->i, loc);
    case V_INT:
    case V_FLOAT: {
        ss_value c;
        int before = ss_program_value_count(e->sc->program);
        double d = x->kind == V_INT ? (double)x->i : x->f;
        if (!ev_built(e, ss_constant(e->sc->program, d, &c), before, loc))
            return NULL;
        return ev_array_val(e, c, loc);
    }
    default:
        return ev_fail(e, loc, "%s must be an array, not %s", what, ev_kind_name(x->kind));
    }
}

bool ev_array_pair(ev *e, val **a, scn_loc la, const char *wa, val **b, scn_loc lb,
                   const char *wb)
{
    bool na = ev_is_num(*a), nb = ev_is_num(*b);
    val **num = na ? a : b, **arr = na ? b : a;
    ss_dtype dt = SS_F32;
    int64_t shape[SS_MAX_RANK];
    if ((*arr)->kind == V_ARRAY)
        ev_shape(e, (*arr)->v, &dt, NULL, shape);
    else if ((*arr)->kind == V_DECL)
        dt = e->sc->arrays[(*arr)->i].dtype;
    if (na == nb || (dt != SS_BF16 && dt != SS_F16))
        return (*a = ev_array(e, *a, la, wa)) && (*b = ev_array(e, *b, lb, wb));
    /* operands in their order (program values numbered as written) */
    if (!na && !(*arr = ev_array(e, *arr, la, wa)))
        return false;
    double d = (*num)->kind == V_INT ? (double)(*num)->i : (*num)->f;
    float f = (float)d;
    if (dt == SS_BF16)
        d = ss__k_bf16_to_f32(ss__k_f32_to_bf16(f));
    else if (dt == SS_F16)
        d = ss__k_f16_to_f32(ss__k_f32_to_f16(f));
    ss_value c;
    int before = ss_program_value_count(e->sc->program);
    scn_loc l = na ? la : lb;
    if (!ev_built(e, ss_constant(e->sc->program, d, &c), before, l) ||
        !(*num = ev_array_val(e, c, l)))
        return false;
    return !na || (*arr = ev_array(e, *arr, lb, wb)) != NULL;
}

/* "x is f32[8,1024] (dim 1 = 1024)" into out. */
static void describe_dim(ev *e, const char *name, ss_value v, int d, char *out, size_t cap)
{
    ss_dtype dt;
    int rank;
    int64_t shape[SS_MAX_RANK];
    ev_shape(e, v, &dt, &rank, shape);
    size_t at = (size_t)snprintf(out, cap, "%s is %s[", name, ss_dtype_name(dt));
    for (int k = 0; k < rank && at < cap; k++)
        at += (size_t)snprintf(out + at, cap - at, k ? ",%lld" : "%lld", (long long)shape[k]);
    if (at < cap)
        snprintf(out + at, cap - at, "] (dim %d = %lld)", d, (long long)shape[d]);
}

bool ev_check_shapes(ev *e, const char *op, bool matmul, val *a, const char *an, val *b,
                     const char *bn, scn_loc loc)
{
    int ra, rb;
    int64_t sa[SS_MAX_RANK], sb[SS_MAX_RANK];
    ev_shape(e, a->v, NULL, &ra, sa);
    ev_shape(e, b->v, NULL, &rb, sb);
    if (!an)
        an = scn_value_name(e->sc, a->v) ? scn_value_name(e->sc, a->v) : "the left operand";
    if (!bn)
        bn = scn_value_name(e->sc, b->v) ? scn_value_name(e->sc, b->v) : "the right operand";
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
    ev_fail(e, loc, "%s: %s: %s, %s", op, matmul ? "contracting dims differ"
                                                 : "shapes do not broadcast", x, y);
    return false;
}

bool ev_resolve_spec(ev *e, ss_spec *spec, scn_loc loc)
{
    scenario *sc = e->sc;
    if (!sc->mesh || !sc->program) {
        scn_fail(&sc->err, loc, "a PartitionSpec here is read before the mesh exists");
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
            scn_fail(&sc->err, loc, "%s", ss_error_message());
            return false;
        }
        *spec = out;
    }
    ss_sharding sh;
    ss_sharding_init(&sh, sc->mesh, spec);
    if (ss_sharding_validate(&sh) != SS_OK) {
        if (sc->have_rules && !logical)
            scn_fail(&sc->err, loc, "%s (no rule names it either)", ss_error_message());
        else
            scn_fail(&sc->err, loc, "%s", ss_error_message());
        return false;
    }
    return true;
}

/* --- Expressions ---------------------------------------------------------- */

static val *eval(ev *e, env *en, const scn_expr *x);

val *ev_eval(ev *e, env *en, const scn_expr *x) { return eval(e, en, x); }

static val *fold(ev *e, const char *op, val *a, val *b, scn_loc loc)
{
    bool ints = a->kind == V_INT && b->kind == V_INT;
    double x = a->kind == V_INT ? (double)a->i : a->f, y = b->kind == V_INT ? (double)b->i : b->f;
    val *r = ev_new(e, ints ? V_INT : V_FLOAT, loc);
    if (!r)
        return NULL;
    switch (op[0]) {
    case '+':
        if (ints && __builtin_add_overflow(a->i, b->i, &r->i))
            return ev_fail(e, loc, "integer overflow");
        r->f = x + y;
        return r;
    case '-':
        if (ints && __builtin_sub_overflow(a->i, b->i, &r->i))
            return ev_fail(e, loc, "integer overflow");
        r->f = x - y;
        return r;
    case '*':
        if (op[1] == '*') {
            if (ints && b->i >= 0) {
                int64_t p = 1;
                for (int64_t k = 0; k < b->i; k++)
                    if (__builtin_mul_overflow(p, a->i, &p))
                        return ev_fail(e, loc, "integer overflow");
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
            return ev_fail(e, loc, "integer overflow");
        r->f = x * y;
        return r;
    case '/':
    case '%':
        if (y == 0)
            return ev_fail(e, loc, "division by zero");
        if (op[0] == '/' && op[1] != '/') {
            r->kind = V_FLOAT;
            r->f = x / y;
            return r;
        }
        if (ints) {
            if (a->i == INT64_MIN && b->i == -1)
                return ev_fail(e, loc, "integer overflow");
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
    default: return ev_fail(e, loc, "bad operator %s", op);
    }
}

/* a OP b for the binary operator node x, its operands evaluated. */
static val *binop_apply(ev *e, const scn_expr *x, val *a, val *b)
{
    if (ev_is_num(a) && ev_is_num(b) && strcmp(x->str, "@") != 0)
        return fold(e, x->str, a, b, x->loc);
    if ((a->kind == V_TUPLE || b->kind == V_TUPLE) && strcmp(x->str, "+") == 0 &&
        a->kind == V_TUPLE && b->kind == V_TUPLE) {
        val *t = ev_new(e, V_TUPLE, x->loc);
        if (!t || !(t->items = scn_alloc(&e->sc->arena, sizeof(val *) * (size_t)(a->n + b->n + 1))))
            return ev_fail(e, x->loc, "out of host memory");
        memcpy(t->items, a->items, sizeof(val *) * (size_t)a->n);
        memcpy(t->items + a->n, b->items, sizeof(val *) * (size_t)b->n);
        t->n = a->n + b->n;
        return ev_tuple_done(e, t, x->loc);
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
        return ev_fail(e, x->loc, "operator %s works on numbers only", op);
    if (!ev_array_pair(e, &a, x->a->loc, "left operand", &b, x->b->loc, "right operand"))
        return NULL;
    /* Indexed by ss_binary_op: the name JAX's shape errors use. */
    static const char *const jnp_names[SS_BINARY_COUNT] = {
        [SS_ADD] = "add", [SS_SUB] = "subtract", [SS_MUL] = "multiply", [SS_DIV] = "divide",
        [SS_POW] = "power"};
    if (!ev_check_shapes(e, code < 0 ? "matmul" : jnp_names[code], code < 0, a,
                         x->a->kind == EX_NAME ? x->a->str : NULL, b,
                         x->b->kind == EX_NAME ? x->b->str : NULL, x->loc))
        return NULL;
    ss_value out;
    int before = ss_program_value_count(e->sc->program);
    ss_status st = code < 0 ? ss_matmul(e->sc->program, a->v, b->v, &out)
                            : ss_binary(e->sc->program, (ss_binary_op)code, a->v, b->v, &out);
    return ev_built(e, st, before, x->loc) ? ev_array_val(e, out, x->loc) : NULL;
}

/* A chain of binary operators (`x + x + ... + x` parses left-deep) is
 * evaluated in a loop over its left operands, so its length costs no
 * stack; right operands recurse (their height is capped by the parser). */
static val *eval_binop(ev *e, env *en, const scn_expr *x)
{
    int n = 0;
    for (const scn_expr *c = x; c->kind == EX_BINOP; c = c->a)
        n++;
    const scn_expr **chain = malloc(sizeof *chain * (size_t)n);
    if (!chain)
        return ev_fail(e, x->loc, "out of host memory");
    int k = n;
    const scn_expr *c = x;
    for (; c->kind == EX_BINOP; c = c->a)
        chain[--k] = c;
    val *a = eval(e, en, c);
    for (k = 0; a && k < n; k++) {
        val *b = eval(e, en, chain[k]->b);
        a = b ? binop_apply(e, chain[k], a, b) : NULL;
    }
    free(chain);
    return a;
}

static bool dotted(const env *en, const scn_expr *c, char *out, size_t cap);

static val *eval_attr(ev *e, env *en, const scn_expr *x)
{
    char path[128];
    ss_dtype dt;
    if (dotted(en, x, path, sizeof path) && ss_dtype_parse(x->str, &dt) == SS_OK) {
        static const char *const mods[] = {"jnp.", "np.", "numpy.", "jax.numpy.", "jax.", NULL};
        for (int k = 0; mods[k]; k++)
            if (strncmp(path, mods[k], strlen(mods[k])) == 0 &&
                strcmp(path + strlen(mods[k]), x->str) == 0) {
                val *s = ev_new(e, V_STR, x->loc); /* jnp.bfloat16: a dtype name */
                if (s)
                    s->s = x->str;
                return s;
            }
    }
    if (x->a->kind == EX_NAME && strcmp(x->str, "UNCONSTRAINED") == 0 &&
        (strcmp(x->a->str, "P") == 0 || strcmp(x->a->str, "PartitionSpec") == 0) &&
        !ev_env_get(en, x->a->str)) {
        val *u = ev_new(e, V_STR, x->loc);
        if (u)
            u->s = "UNCONSTRAINED";
        return u;
    }
    val *o = eval(e, en, x->a);
    if (!o)
        return NULL;
    if (o->kind == V_DECL) {
        const scn_array *a = &e->sc->arrays[o->i];
        if (strcmp(x->str, "shape") == 0 || strcmp(x->str, "ndim") == 0) {
            if (x->str[0] == 'n')
                return ev_int(e, a->rank, x->loc);
            val *t = ev_new(e, V_TUPLE, x->loc);
            if (!t || !(t->items = scn_alloc(&e->sc->arena, sizeof(val *) * (SS_MAX_RANK + 1))))
                return NULL;
            for (int d = 0; d < a->rank; d++)
                if (!(t->items[t->n++] = ev_int(e, a->shape[d], x->loc)))
                    return NULL;
            return t;
        }
    }
    if (o->kind == V_ARRAY || o->kind == V_DECL) {
        if (strcmp(x->str, "shape") == 0 || strcmp(x->str, "ndim") == 0 ||
            strcmp(x->str, "T") == 0) {
            if (!(o = ev_array(e, o, x->loc, "object")))
                return NULL;
            int rank;
            int64_t shape[SS_MAX_RANK];
            ev_shape(e, o->v, NULL, &rank, shape);
            if (x->str[0] == 'n')
                return ev_int(e, rank, x->loc);
            if (x->str[0] == 's') {
                val *t = ev_new(e, V_TUPLE, x->loc);
                if (!t || !(t->items = scn_alloc(&e->sc->arena, sizeof(val *) * (SS_MAX_RANK + 1))))
                    return NULL;
                for (int d = 0; d < rank; d++)
                    if (!(t->items[t->n++] = ev_int(e, shape[d], x->loc)))
                        return NULL;
                return t;
            }
            int perm[SS_MAX_RANK];
            for (int d = 0; d < rank; d++)
                perm[d] = rank - 1 - d;
            ss_value out;
            int before = ss_program_value_count(e->sc->program);
            if (!ev_built(e, ss_transpose(e->sc->program, o->v, perm, &out), before, x->loc))
                return NULL;
            return ev_array_val(e, out, x->loc);
        }
    }
    return ev_fail(e, x->loc, "%s has no attribute '%s'", ev_kind_name(o->kind), x->str);
}

static bool eval_callargs(ev *e, env *en, const scn_expr *x, val *self, callargs *ca)
{
    memset(ca, 0, sizeof *ca);
    int n = x->nitems + (self ? 1 : 0);
    scn_arena *ar = &e->sc->arena;
    ca->loc = x->loc;
    ca->v = scn_alloc(ar, sizeof(val *) * (size_t)(n + 1));
    ca->locs = scn_alloc(ar, sizeof(scn_loc) * (size_t)(n + 1));
    ca->kwv = scn_alloc(ar, sizeof(val *) * (size_t)(x->nkw + 1));
    if (!ca->v || !ca->locs || !ca->kwv) {
        scn_fail(&e->sc->err, x->loc, "out of host memory");
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
static bool dotted(const env *en, const scn_expr *c, char *out, size_t cap)
{
    const scn_expr *parts[16];
    int n = 0;
    for (; c->kind == EX_ATTR && n < 15; c = c->a)
        parts[n++] = c;
    if (c->kind != EX_NAME || ev_env_get(en, c->str))
        return false;
    size_t at = (size_t)snprintf(out, cap, "%s", c->str);
    for (int k = n - 1; k >= 0 && at < cap; k--)
        at += (size_t)snprintf(out + at, cap - at, ".%s", parts[k]->str);
    return at < cap;
}

static val *eval_call(ev *e, env *en, const scn_expr *x)
{
    const scn_expr *c = x->a;
    callargs ca;
    if (c->kind == EX_NAME) {
        val *f = ev_env_get(en, c->str);
        if (!f) {
            builtin_fn b = ev_builtin(c->str, false);
            if (!b) {
                scn_init init;
                if (ev_init_name(c->str, &init))
                    b = ev_builtin("__init__", false);
                if (!b)
                    return ev_fail(e, c->loc, "name '%s' is not defined", c->str);
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
            return ev_call_def(e, f->def, &ca, NULL);
        if (f->kind == V_SHARD_MAP)
            return ev_call_shard_map(e, f->smap, &ca);
        if (f->kind == V_GRAD)
            return ev_call_grad(e, f->grad, &ca);
        return ev_fail(e, c->loc, "'%s' is %s, not a function", c->str, ev_kind_name(f->kind));
    }
    char path[128], why[512];
    if (c->kind == EX_ATTR && dotted(en, c, path, sizeof path)) {
        why[0] = '\0';
        const char *name = ev_jax_name(path, why, sizeof why);
        if (!name && why[0])
            return ev_fail(e, c->loc, "%s", why);
        if (!name) {
            *strchr(path, '.') = '\0';
            return ev_fail(e, c->loc, "name '%s' is not defined", path);
        }
        if (!eval_callargs(e, en, x, NULL, &ca))
            return NULL;
        ca.fname = name;
        ca.loc = c->loc;
        return ev_builtin(name, false)(e, &ca);
    }
    if (c->kind == EX_ATTR) {
        builtin_fn b = ev_builtin(c->str, true);
        if (!b && ev_builtin(c->str, false) && c->str[0] != '_')
            return ev_fail(e, c->loc, "'%s' is a function, not a method: write %s(x, ...)",
                           c->str, c->str);
        char near[256];
        if (!b && ev_nearest_builtins(c->str, true, near, sizeof near))
            return ev_fail(e, c->loc, "no method '%s' (did you mean %s? methods: reshape, "
                                      "transpose, sum, mean, max, min, astype)", c->str, near);
        if (!b)
            return ev_fail(e, c->loc, "no method '%s' (methods: reshape, transpose, sum, mean, "
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
        return ev_call_def(e, f->def, &ca, NULL);
    if (f->kind == V_SHARD_MAP)
        return ev_call_shard_map(e, f->smap, &ca);
    if (f->kind == V_GRAD)
        return ev_call_grad(e, f->grad, &ca);
    return ev_fail(e, c->loc, "%s is not callable", ev_kind_name(f->kind));
}

static val *eval_type(ev *e, env *en, const scn_expr *x, ss_dtype dt)
{
    val *t = ev_new(e, V_TYPE, x->loc);
    if (!t || !(t->type = scn_alloc(&e->sc->arena, sizeof *t->type)))
        return ev_fail(e, x->loc, "out of host memory");
    t->type->dtype = dt;
    if (x->nitems > SS_MAX_RANK)
        return ev_fail(e, x->items[SS_MAX_RANK]->loc, "rank above %d", SS_MAX_RANK);
    for (int k = 0; k < x->nitems; k++) {
        const scn_expr *it = x->items[k];
        if (it->kind == EX_SLICE)
            return ev_fail(e, it->loc, "a shape has integer dims");
        val *d = eval(e, en, it);
        int64_t n;
        if (!d || !ev_to_int(e, d, it->loc, "a dimension", &n))
            return NULL;
        if (n < 0)
            return ev_fail(e, it->loc, "negative dimension %lld", (long long)n);
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
        return ev_fail(e, x->loc, "shape too large: %s[%s] has %s than int64 holds (at most %lld)",
                       ss_dtype_name(dt), dims, counted ? "more bytes" : "more elements",
                       (long long)INT64_MAX);
    }
    return t;
}

static val *eval_index(ev *e, env *en, const scn_expr *x)
{
    ss_dtype dt;
    if (x->a->kind == EX_NAME && !ev_env_get(en, x->a->str) &&
        ss_dtype_parse(x->a->str, &dt) == SS_OK)
        return eval_type(e, en, x, dt);
    val *o = eval(e, en, x->a);
    if (!o)
        return NULL;
    val **items = scn_alloc(&e->sc->arena, sizeof(val *) * (size_t)(x->nitems + 1));
    if (!items)
        return ev_fail(e, x->loc, "out of host memory");
    for (int k = 0; k < x->nitems; k++) {
        const scn_expr *it = x->items[k];
        if (it->kind == EX_SLICE) {
            /* a:b as the tuple (a, b) marked "slice"; absent bounds are None */
            val *t = ev_new(e, V_TUPLE, it->loc);
            if (!t || !(t->items = scn_alloc(&e->sc->arena, sizeof(val *) * 2)))
                return NULL;
            t->s = "slice";
            t->n = 2;
            for (int j = 0; j < 2; j++) {
                const scn_expr *b = j ? it->b : it->a;
                if (!(t->items[j] = b ? eval(e, en, b) : ev_new(e, V_NONE, it->loc)))
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
        if (x->nitems != 1 || !items[0] || !ev_to_int(e, items[0], x->items[0]->loc,
                                                       "a tuple index", &i))
            return e->sc->err.set ? NULL : ev_fail(e, x->loc, "a tuple takes one integer index");
        if (i < 0)
            i += o->n;
        if (i < 0 || i >= o->n)
            return ev_fail(e, x->items[0]->loc, "tuple index out of range");
        return o->items[i];
    }
    if (o->kind == V_ARRAY || o->kind == V_DECL) {
        if (!(o = ev_array(e, o, x->a->loc, "indexed value")))
            return NULL;
        return ev_index_array(e, o, x, items);
    }
    return ev_fail(e, x->loc, "%s cannot be indexed", ev_kind_name(o->kind));
}

static val *eval_node(ev *e, env *en, const scn_expr *x);

/* Evaluation nests through user functions too (each call's expressions
 * start over at height 1), so its depth is counted across calls. */
static val *eval(ev *e, env *en, const scn_expr *x)
{
    if (e->sc->err.set)
        return NULL;
    if (e->depth >= EVAL_MAX_DEPTH)
        return ev_fail(e, x->loc, "expression nested too deeply (more than %d levels, "
                                  "counting the function calls it is inside)", EVAL_MAX_DEPTH);
    e->depth++;
    val *r = eval_node(e, en, x);
    e->depth--;
    return r;
}

static val *eval_node(ev *e, env *en, const scn_expr *x)
{
    switch (x->kind) {
    case EX_INT: return ev_int(e, x->ival, x->loc);
    case EX_FLOAT: {
        val *r = ev_new(e, V_FLOAT, x->loc);
        if (r)
            r->f = x->fval;
        return r;
    }
    case EX_STR: {
        val *r = ev_new(e, V_STR, x->loc);
        if (r)
            r->s = x->str;
        return r;
    }
    case EX_NONE: return ev_new(e, V_NONE, x->loc);
    case EX_NAME: {
        val *r = ev_env_get(en, x->str);
        if (r)
            return r;
        scn_init init;
        if (ev_init_name(x->str, &init)) {
            if (!(r = ev_new(e, V_INIT, x->loc)) ||
                !(r->init = scn_alloc(&e->sc->arena, sizeof *r->init)))
                return NULL;
            *r->init = init;
            return r;
        }
        if (ev_builtin(x->str, false))
            return ev_fail(e, x->loc, "'%s' is a built-in function: call it", x->str);
        return ev_fail(e, x->loc, "name '%s' is not defined", x->str);
    }
    case EX_TUPLE:
    case EX_LIST: {
        val *t = ev_new(e, V_TUPLE, x->loc);
        if (!t || !(t->items = scn_alloc(&e->sc->arena, sizeof(val *) * (size_t)(x->nitems + 1))))
            return ev_fail(e, x->loc, "out of host memory");
        for (int k = 0; k < x->nitems; k++)
            if (!(t->items[t->n++] = eval(e, en, x->items[k])))
                return NULL;
        return ev_tuple_done(e, t, x->loc);
    }
    case EX_NEG: {
        val *a = eval(e, en, x->a);
        if (!a)
            return NULL;
        if (a->kind == V_INT) {
            if (a->i == INT64_MIN)
                return ev_fail(e, x->loc, "integer overflow");
            return ev_int(e, -a->i, x->loc);
        }
        if (a->kind == V_FLOAT) {
            val *r = ev_new(e, V_FLOAT, x->loc);
            if (r)
                r->f = -a->f;
            return r;
        }
        if (!(a = ev_array(e, a, x->a->loc, "operand of -")))
            return NULL;
        ss_value out;
        int before = ss_program_value_count(e->sc->program);
        if (!ev_built(e, ss_unary(e->sc->program, SS_NEG, a->v, &out), before, x->loc))
            return NULL;
        return ev_array_val(e, out, x->loc);
    }
    case EX_BINOP: return eval_binop(e, en, x);
    case EX_CALL: return eval_call(e, en, x);
    case EX_ATTR: return eval_attr(e, en, x);
    case EX_INDEX: return eval_index(e, en, x);
    case EX_SLICE: return ev_fail(e, x->loc, "a slice a:b is only allowed inside [...]");
    }
    return ev_fail(e, x->loc, "bad expression");
}

/* --- Statements ----------------------------------------------------------- */

typedef struct frame {
    env *en;
    bool is_global;
    val *ret;
    const scn_expr *ret_expr;
} frame;

static bool bind(ev *e, frame *f, const scn_stmt *s, val *v)
{
    scenario *sc = e->sc;
    if (s->ntargets == 1) {
        if (f->is_global && v->kind == V_ARRAY) {
            ev_fail(e, s->loc, "arrays are computed inside functions: put this in a def and "
                               "`run` it");
            return false;
        }
        if (v->kind == V_ARRAY && v->v >= 0 && v->v < sc->vinfo_cap && !sc->vinfo[v->v].name)
            sc->vinfo[v->v].name = s->targets[0];
        return ev_env_set(e, f->en, s->targets[0], v, s->target_locs[0]);
    }
    if (v->kind != V_TUPLE) {
        ev_fail(e, s->value->loc, "cannot unpack %s into %d names", ev_kind_name(v->kind),
                s->ntargets);
        return false;
    }
    if (v->n != s->ntargets) {
        ev_fail(e, s->value->loc, "cannot unpack %d values into %d names", v->n, s->ntargets);
        return false;
    }
    for (int k = 0; k < v->n; k++) {
        val *it = v->items[k];
        if (f->is_global && it->kind == V_ARRAY) {
            ev_fail(e, s->loc, "arrays are computed inside functions");
            return false;
        }
        if (it->kind == V_ARRAY && it->v >= 0 && it->v < sc->vinfo_cap && !sc->vinfo[it->v].name)
            sc->vinfo[it->v].name = s->targets[k];
        if (!ev_env_set(e, f->en, s->targets[k], it, s->target_locs[k]))
            return false;
    }
    return true;
}

static bool exec_block(ev *e, frame *f, scn_stmt *const *body, int n);

static bool exec_for(ev *e, frame *f, const scn_stmt *s)
{
    int64_t lo = 0, hi = 0, step = 1;
    const scn_expr *it = s->value;
    val *seq = NULL;
    if (it->kind == EX_CALL && it->a->kind == EX_NAME && strcmp(it->a->str, "range") == 0 &&
        !ev_env_get(f->en, "range")) {
        if (it->nitems < 1 || it->nitems > 3 || it->nkw) {
            ev_fail(e, it->loc, "range takes 1 to 3 integers");
            return false;
        }
        int64_t v[3];
        for (int k = 0; k < it->nitems; k++) {
            val *x = eval(e, f->en, it->items[k]);
            if (!x || !ev_to_int(e, x, it->items[k]->loc, "a range bound", &v[k]))
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
            ev_fail(e, it->loc, "range() step must not be zero");
            return false;
        }
    } else {
        if (!(seq = eval(e, f->en, it)))
            return false;
        if (seq->kind != V_TUPLE) {
            ev_fail(e, it->loc, "a for loop runs over range(...) or a tuple, not %s",
                    ev_kind_name(seq->kind));
            return false;
        }
        hi = seq->n;
    }
    for (int64_t i = lo; step > 0 ? i < hi : i > hi; i += step) {
        if (--e->budget < 0) {
            ev_fail(e, s->loc, "the scenario unrolls to too much work (more than %ld loop "
                               "iterations and calls)", BUDGET);
            return false;
        }
        val *x = seq ? seq->items[i] : ev_int(e, i, s->target_locs[0]);
        if (!x)
            return false;
        if (s->ntargets == 1) {
            if (!ev_env_set(e, f->en, s->targets[0], x, s->target_locs[0]))
                return false;
        } else if (x->kind != V_TUPLE || x->n != s->ntargets) {
            ev_fail(e, s->target_locs[0], "cannot unpack %s into %d loop variables",
                    x->kind == V_TUPLE ? "a tuple of another length" : ev_kind_name(x->kind),
                    s->ntargets);
            return false;
        } else {
            for (int k = 0; k < s->ntargets; k++)
                if (!ev_env_set(e, f->en, s->targets[k], x->items[k], s->target_locs[k]))
                    return false;
        }
        if (!exec_block(e, f, s->body, s->nbody))
            return false;
        if (f->ret)
            return true;
    }
    return true;
}

static bool exec_stmt(ev *e, frame *f, const scn_stmt *s)
{
    switch (s->kind) {
    case ST_ASSIGN: {
        val *v = eval(e, f->en, s->value);
        return v && bind(e, f, s, v);
    }
    case ST_EXPR: {
        if (!f->is_global && scn_is_print_stmt(s))
            return ev_print_stmt(e, f->en, s, false); /* scenario_print.c */
        val *v = eval(e, f->en, s->value);
        if (v && f->is_global)
            ev_fail(e, s->loc, "a statement that computes something must bind it: name = ...");
        return v != NULL && !e->sc->err.set;
    }
    case ST_RETURN:
        if (f->is_global) {
            ev_fail(e, s->loc, "'return' outside a function");
            return false;
        }
        if (s->value) {
            if (!(f->ret = eval(e, f->en, s->value)))
                return false;
        } else if (!(f->ret = ev_new(e, V_NONE, s->loc))) {
            return false;
        }
        f->ret_expr = s->value;
        return true;
    case ST_PASS: return true;
    case ST_DEF: {
        val *fn = ev_new(e, V_FUNC, s->loc);
        if (!fn)
            return false;
        fn->def = s;
        return ev_env_set(e, f->en, s->name, fn, s->name_loc);
    }
    case ST_FOR: return exec_for(e, f, s);
    default:
        if (!f->is_global) {
            ev_fail(e, s->loc, "this statement belongs at the top level, not inside a function");
            return false;
        }
        return true; /* configuration and actions are handled by scn_load */
    }
}

static bool exec_block(ev *e, frame *f, scn_stmt *const *body, int n)
{
    for (int k = 0; k < n; k++) {
        if (!exec_stmt(e, f, body[k]))
            return false;
        if (f->ret)
            return true;
    }
    return true;
}

val *ev_call_def(ev *e, const scn_stmt *def, const callargs *ca, env **keep)
{
    if (++e->call_depth > MAX_CALL_DEPTH) {
        e->call_depth--;
        return ev_fail(e, ca->loc, "calls nested too deeply (more than %d levels; recursion?) in %s",
                       MAX_CALL_DEPTH, def->name);
    }
    if (--e->budget < 0)
        return ev_fail(e, ca->loc, "the scenario unrolls to too much work");
    env *en = calloc(1, sizeof *en);
    if (!en)
        return ev_fail(e, ca->loc, "out of host memory");
    en->parent = &e->globals;
    val *result = NULL;
    bool ok = true;
    if (ca->n > def->nparams) {
        ev_fail(e, ca->locs[def->nparams], "%s() takes %d arguments but %d were given",
                def->name, def->nparams, ca->n);
        ok = false;
    }
    for (int k = 0; ok && k < ca->n; k++)
        ok = ev_env_set(e, en, def->params[k], ca->v[k], def->param_locs[k]);
    for (int k = 0; ok && k < ca->nkw; k++) {
        int at = -1;
        for (int j = 0; j < def->nparams; j++)
            if (strcmp(def->params[j], ca->kwn[k]) == 0)
                at = j;
        if (at < 0) {
            ev_fail(e, ca->kwl[k], "%s() got an unexpected keyword argument '%s'", def->name,
                    ca->kwn[k]);
            ok = false;
        } else if (at < ca->n) {
            ev_fail(e, ca->kwl[k], "%s() got multiple values for argument '%s'", def->name,
                    ca->kwn[k]);
            ok = false;
        } else {
            ok = ev_env_set(e, en, def->params[at], ca->kwv[k], ca->kwl[k]);
        }
    }
    for (int j = 0; ok && j < def->nparams; j++)
        if (!ev_env_has_local(en, def->params[j])) {
            ev_fail(e, ca->loc, "%s() missing argument '%s'", def->name, def->params[j]);
            ok = false;
        }
    frame f = {en, false, NULL, NULL};
    if (ok && exec_block(e, &f, def->body, def->nbody)) {
        result = f.ret ? f.ret : ev_new(e, V_NONE, ca->loc);
        e->last_ret = f.ret_expr;
    }
    e->call_depth--;
    if (keep && result) {
        *keep = en;
    } else {
        ev_env_free(en);
        free(en);
    }
    return result;
}


bool ev_exec_global(ev *e, const scn_stmt *s)
{
    frame top = {&e->globals, true, NULL, NULL};
    return exec_stmt(e, &top, s);
}
