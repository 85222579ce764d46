/*
 * ops.c — the scenario language's built-in functions: array
 * declarations, initializers, PartitionSpecs, every op of the builder API
 * (jax.numpy / jax.nn / optax names), constraints, shard_map and its
 * collectives. Each takes evaluated arguments and reports a bad one at its
 * own line:column; builder errors (shapes, shardings) are reported at the
 * call with the library's message.
 *
 * What the builder cannot do yet (scan, grad, value_and_grad, optimizers)
 * is a clean "not supported yet" error at the call.
 */
#include "eval.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- Argument helpers ---------------------------------------------------- */

val *ss__scn_ca_get(const callargs *ca, int pos, const char *kw, ss__scn_loc *loc)
{
    if (pos >= 0 && pos < ca->n) {
        if (loc)
            *loc = ca->locs[pos];
        return ca->v[pos];
    }
    for (int k = 0; kw && k < ca->nkw; k++)
        if (strcmp(ca->kwn[k], kw) == 0) {
            if (loc)
                *loc = ca->kwl[k];
            return ca->kwv[k];
        }
    if (loc)
        *loc = ca->loc;
    return NULL;
}

bool ss__scn_ca_check(ss__scn_ev *e, const callargs *ca, int min_pos, int max_pos, const char *const kws[])
{
    if (ca->n > max_pos) {
        ss__scn_ev_fail(e, ca->locs[max_pos], "%s() takes at most %d positional argument%s",
                ca->fname, max_pos, max_pos == 1 ? "" : "s");
        return false;
    }
    for (int k = 0; k < ca->nkw; k++) {
        bool ok = false;
        for (int j = 0; kws && kws[j]; j++)
            ok = ok || strcmp(kws[j], ca->kwn[k]) == 0;
        if (!ok) {
            ss__scn_ev_fail(e, ca->kwl[k], "%s() got an unexpected keyword argument '%s'", ca->fname,
                    ca->kwn[k]);
            return false;
        }
    }
    if (ca->n < min_pos) {
        ss__scn_ev_fail(e, ca->loc, "%s() needs %d positional argument%s", ca->fname, min_pos,
                min_pos == 1 ? "" : "s");
        return false;
    }
    return true;
}

val *ss__scn_arr_arg(ss__scn_ev *e, const callargs *ca, int pos, const char *kw)
{
    ss__scn_loc loc;
    val *x = ss__scn_ca_get(ca, pos, kw, &loc);
    if (!x)
        return ss__scn_ev_fail(e, ca->loc, "%s(): missing argument %s", ca->fname, kw ? kw : "x");
    return ss__scn_ev_array(e, x, loc, kw ? kw : "argument");
}

/* An optional integer argument with a default. */
bool ss__scn_int_arg(ss__scn_ev *e, const callargs *ca, int pos, const char *kw, int64_t def,
                    int64_t *out)
{
    ss__scn_loc loc;
    val *x = ss__scn_ca_get(ca, pos, kw, &loc);
    if (!x || x->kind == V_NONE) {
        *out = def;
        return true;
    }
    return ss__scn_ev_to_int(e, x, loc, kw, out);
}

/* An axis (may be negative) of an array of `rank` dims, normalized. */
static bool norm_axis(ss__scn_ev *e, int64_t a, int rank, ss__scn_loc loc, int *out)
{
    if (a < -rank || a >= (rank ? rank : 1)) {
        ss__scn_ev_fail(e, loc, "axis %lld is out of bounds for array of dimension %d", (long long)a,
                rank);
        return false;
    }
    *out = (int)(a < 0 ? a + rank : a);
    return true;
}

/* A tuple of integers (or one integer when `one` allows it). */
static bool ints_arg(ss__scn_ev *e, val *x, ss__scn_loc loc, const char *what, int cap, int64_t out[],
                     int *n)
{
    if (x && x->kind == V_INT) {
        out[0] = x->i;
        *n = 1;
        return true;
    }
    if (!x || x->kind != V_TUPLE) {
        ss__scn_ev_fail(e, loc, "%s must be a tuple of integers", what);
        return false;
    }
    if (x->n > cap) {
        ss__scn_ev_fail(e, loc, "%s has more than %d entries", what, cap);
        return false;
    }
    for (int k = 0; k < x->n; k++)
        if (!ss__scn_ev_to_int(e, x->items[k], x->items[k]->loc, what, &out[k]))
            return false;
    *n = x->n;
    return true;
}

val *ss__scn_built(ss__scn_ev *e, ss_status st, int before, ss__scn_loc loc, ss_value out)
{
    return ss__scn_ev_built(e, st, before, loc) ? ss__scn_ev_array_val(e, out, loc) : NULL;
}


/* --- Specs ---------------------------------------------------------------- */

static bool axis_name(ss__scn_ev *e, val *x, const char **out)
{
    if (x->kind != V_STR) {
        ss__scn_ev_fail(e, x->loc, "a mesh axis name is a string, not %s", ss__scn_ev_kind_name(x->kind));
        return false;
    }
    if (strlen(x->s) == 0) {
        ss__scn_ev_fail(e, x->loc, "an axis name is empty");
        return false;
    }
    if (ss_name_intern(x->s, out) != SS_OK) {
        ss__scn_ev_fail(e, x->loc, "%s", ss_error_message());
        return false;
    }
    return true;
}

/* P(...) entries: None, 'axis', ('a', 'b'), P.UNCONSTRAINED. */
static bool spec_from(ss__scn_ev *e, val *const *items, int n, ss__scn_loc loc, ss_spec *spec)
{
    memset(spec, 0, sizeof *spec);
    if (n > SS_MAX_RANK) {
        ss__scn_ev_fail(e, loc, "a PartitionSpec has at most %d entries (SS_MAX_RANK)", SS_MAX_RANK);
        return false;
    }
    spec->ndims = n;
    for (int d = 0; d < n; d++) {
        val *x = items[d];
        ss_spec_dim *sd = &spec->dims[d];
        if (x->kind == V_NONE)
            continue;
        if (x->kind == V_STR && strcmp(x->s, "UNCONSTRAINED") == 0) {
            sd->unconstrained = 1;
            continue;
        }
        if (x->kind == V_STR) {
            if (!axis_name(e, x, &sd->axes[0]))
                return false;
            sd->naxes = 1;
            continue;
        }
        if (x->kind == V_TUPLE) {
            if (x->n > SS_MAX_AXES) {
                ss__scn_ev_fail(e, x->loc, "more than %d axes in one entry (SS_MAX_AXES)", SS_MAX_AXES);
                return false;
            }
            for (int k = 0; k < x->n; k++) {
                if (x->items[k]->kind == V_TUPLE) {
                    ss__scn_ev_fail(e, x->items[k]->loc, "A tuple inside PartitionSpec cannot contain "
                                                 "a nested tuple");
                    return false;
                }
                if (!axis_name(e, x->items[k], &sd->axes[k]))
                    return false;
            }
            sd->naxes = x->n;
            continue;
        }
        ss__scn_ev_fail(e, x->loc, "a PartitionSpec entry is None, an axis name or a tuple of names, "
                           "not %s", ss__scn_ev_kind_name(x->kind));
        return false;
    }
    return true;
}

val *ss__scn_ev_make_spec(ss__scn_ev *e, const callargs *ca)
{
    if (!ss__scn_ca_check(e, ca, 0, SS_MAX_RANK, NULL))
        return NULL;
    val *r = ss__scn_ev_new(e, V_SPEC, ca->loc);
    if (!r || !(r->spec = ss__scn_alloc(&e->sc->arena, sizeof *r->spec)))
        return ss__scn_ev_fail(e, ca->loc, "out of host memory");
    if (!spec_from(e, ca->v, ca->n, ca->loc, r->spec) || !ss__scn_ev_resolve_spec(e, r->spec, ca->loc))
        return NULL;
    return r;
}

static bool spec_arg(ss__scn_ev *e, const callargs *ca, int pos, const char *kw, ss_spec *out)
{
    ss__scn_loc loc;
    val *x = ss__scn_ca_get(ca, pos, kw, &loc);
    if (x && x->kind == V_NONE) {
        memset(out, 0, sizeof *out);
        return true;
    }
    if (!x || x->kind != V_SPEC) {
        ss__scn_ev_fail(e, loc, "%s(): expected a PartitionSpec P(...), not %s", ca->fname,
                x ? ss__scn_ev_kind_name(x->kind) : "nothing");
        return false;
    }
    *out = *x->spec;
    return true;
}

/* --- Declarations and initializers ---------------------------------------- */

bool ss__scn_ev_init_name(const char *name, ss__scn_init *out)
{
    static const struct {
        const char *name;
        ss__scn_init_kind kind;
        double a;
    } t[] = {{"zeros", SS__SCN_INIT_ZEROS, 0},         {"ones", SS__SCN_INIT_ONES, 0},
             {"full", SS__SCN_INIT_FULL, 0},           {"iota", SS__SCN_INIT_IOTA, 0},
             {"normal", SS__SCN_INIT_NORMAL, 1e-2},    {"xavier_normal", SS__SCN_INIT_XAVIER, 0},
             {"xavier_uniform", SS__SCN_INIT_XAVIER_UNIFORM, 0}, {"uniform", SS__SCN_INIT_UNIFORM, 1e-2},
             {"randint", SS__SCN_INIT_RANDINT, 0}};
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++)
        if (strcmp(t[k].name, name) == 0) {
            memset(out, 0, sizeof *out);
            out->kind = t[k].kind;
            out->dim = -1;
            out->a = t[k].a;
            return true;
        }
    return false;
}

/* zeros, ones, full(v), iota(dim=), normal(seed=, stddev=0.01),
 * uniform(seed=, scale=0.01), xavier_normal(seed=), xavier_uniform(seed=),
 * randint(high, seed=). */
static val *op_init(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"seed", "stddev", "std", "scale", "dim", "value", "high",
                                      NULL};
    ss__scn_init in;
    memset(&in, 0, sizeof in);
    ss__scn_ev_init_name(ca->fname, &in);
    bool needs = in.kind == SS__SCN_INIT_FULL || in.kind == SS__SCN_INIT_RANDINT;
    if (!ss__scn_ca_check(e, ca, 0, 1, kws))
        return NULL;
    int64_t seed = 0, dim = -1;
    if (!ss__scn_int_arg(e, ca, -1, "seed", 0, &seed) || !ss__scn_int_arg(e, ca, -1, "dim", -1, &dim))
        return NULL;
    if (seed < 0)
        return ss__scn_ev_fail(e, ca->loc, "seed must be >= 0");
    if (dim < -1 || dim >= SS_MAX_RANK)
        return ss__scn_ev_fail(e, ca->loc, "iota: dim out of range");
    in.seed = (uint64_t)seed;
    in.dim = (int)dim;
    ss__scn_loc loc;
    const char *what = in.kind == SS__SCN_INIT_FULL ? "value" : in.kind == SS__SCN_INIT_RANDINT ? "high"
                       : in.kind == SS__SCN_INIT_UNIFORM ? "scale" : "stddev";
    val *x = ss__scn_ca_get(ca, 0, what, &loc);
    if (!x && in.kind == SS__SCN_INIT_NORMAL)
        x = ss__scn_ca_get(ca, -1, "std", &loc);
    if (!x && needs)
        return ss__scn_ev_fail(e, ca->loc, "%s(%s) needs its %s", ca->fname, what, what);
    if (x && !ss__scn_ev_to_num(e, x, loc, what, &in.a))
        return NULL;
    if (x && !(in.kind == SS__SCN_INIT_FULL || in.kind == SS__SCN_INIT_RANDINT || in.kind == SS__SCN_INIT_NORMAL ||
               in.kind == SS__SCN_INIT_UNIFORM))
        return ss__scn_ev_fail(e, loc, "%s() takes no value", ca->fname);
    if (!isfinite(in.a) || (in.kind == SS__SCN_INIT_RANDINT && !(in.a >= 1 && in.a <= 2147483647.0)))
        return ss__scn_ev_fail(e, loc, "%s: bad %s", ca->fname, what);
    val *r = ss__scn_ev_new(e, V_INIT, ca->loc);
    if (!r || !(r->init = ss__scn_alloc(&e->sc->arena, sizeof *r->init)))
        return NULL;
    *r->init = in;
    return r;
}

bool ss__scn_ev_declare_array(ss__scn_ev *e, const ss__scn_stmt *s)
{
    ss_scenario *sc = e->sc;
    const ss__scn_expr *c = s->value;
    callargs ca;
    memset(&ca, 0, sizeof ca);
    ca.fname = c->a->str;
    ca.loc = c->a->loc;
    val *args[3] = {NULL, NULL, NULL};
    ss__scn_loc locs[3] = {c->loc, c->loc, c->loc};
    if (c->nitems > 3) {
        ss__scn_ev_fail(e, c->items[3]->loc, "%s(TYPE, SPEC, INIT) takes 3 arguments", ca.fname);
        return false;
    }
    for (int k = 0; k < c->nitems; k++) {
        if (!(args[k] = ss__scn_ev_eval(e, &e->globals, c->items[k])))
            return false;
        locs[k] = c->items[k]->loc;
    }
    const char *path = NULL; /* path='a/b/kernel': the param's tree path, for strategies */
    for (int k = 0; k < c->nkw; k++) {
        static const char *const kw[] = {"type", "spec", "init"};
        int at = -1;
        if (strcmp(c->kwnames[k], "path") == 0) {
            val *pv = ss__scn_ev_eval(e, &e->globals, c->kwvals[k]);
            if (!pv || pv->kind != V_STR || !pv->s[0]) {
                if (pv)
                    ss__scn_ev_fail(e, c->kwlocs[k], "%s(): path= is a string such as "
                                             "'decoder/mlp/wi/kernel'", ca.fname);
                return false;
            }
            path = pv->s;
            continue;
        }
        for (int j = 0; j < 3; j++)
            if (strcmp(c->kwnames[k], kw[j]) == 0)
                at = j;
        if (at < 0 || args[at]) {
            ss__scn_ev_fail(e, c->kwlocs[k], at < 0 ? "%s() got an unexpected keyword argument '%s'"
                                            : "%s() got multiple values for '%s'",
                    ca.fname, c->kwnames[k]);
            return false;
        }
        if (!(args[at] = ss__scn_ev_eval(e, &e->globals, c->kwvals[k])))
            return false;
        locs[at] = c->kwlocs[k];
    }
    if (!args[0] || args[0]->kind != V_TYPE) {
        ss__scn_ev_fail(e, locs[0], "%s(): the first argument is a type such as f32[8,1024]", ca.fname);
        return false;
    }
    if (args[1] && args[1]->kind != V_SPEC && args[1]->kind != V_NONE) {
        ss__scn_ev_fail(e, locs[1], "%s(): the second argument is a PartitionSpec P(...) or None, not "
                            "%s", ca.fname, ss__scn_ev_kind_name(args[1]->kind));
        return false;
    }
    if (args[2] && args[2]->kind != V_INIT) {
        ss__scn_ev_fail(e, locs[2], "%s(): the third argument is an initializer (ones, zeros, iota, "
                            "normal(seed=0), xavier_normal(seed=0), ...), not %s",
                ca.fname, ss__scn_ev_kind_name(args[2]->kind));
        return false;
    }
    if (sc->narrays == sc->arrays_cap) {
        int cap = sc->arrays_cap ? sc->arrays_cap * 2 : 16;
        ss__scn_array *na = realloc(sc->arrays, sizeof *na * (size_t)cap);
        if (!na) {
            ss__scn_ev_fail(e, s->loc, "out of host memory");
            return false;
        }
        sc->arrays = na;
        sc->arrays_cap = cap;
    }
    ss__scn_array *a = &sc->arrays[sc->narrays];
    memset(a, 0, sizeof *a);
    a->name = s->targets[0];
    a->loc = s->target_locs[0];
    a->is_param = strcmp(ca.fname, "param") == 0;
    a->dtype = args[0]->type->dtype;
    a->rank = args[0]->type->rank;
    memcpy(a->shape, args[0]->type->shape, sizeof a->shape);
    a->value = -1;
    a->path = path;
    if (args[1] && args[1]->kind == V_SPEC) {
        a->has_spec = true;
        a->spec = *args[1]->spec;
        ss_sharding sh;
        ss_sharding_init(&sh, sc->mesh, &a->spec);
        if (ss_sharding_check(&sh, a->rank, a->shape) != SS_OK) {
            ss__scn_ev_fail(e, locs[1], "%s", ss_error_message());
            return false;
        }
        a->loc = locs[1];
    }
    if (args[2]) {
        a->init = *args[2]->init;
    } else {
        ss__scn_ev_init_name("normal", &a->init);
        a->init.seed = (uint64_t)sc->narrays;
    }
    bool is_float = a->dtype == SS_F32 || a->dtype == SS_F64 || a->dtype == SS_BF16 ||
                    a->dtype == SS_F16;
    if (!is_float && a->init.kind != SS__SCN_INIT_ZEROS && a->init.kind != SS__SCN_INIT_ONES &&
        a->init.kind != SS__SCN_INIT_FULL && a->init.kind != SS__SCN_INIT_IOTA && a->init.kind != SS__SCN_INIT_RANDINT) {
        ss__scn_ev_fail(e, locs[2], "%s arrays take zeros, ones, full, iota or randint", 
                ss_dtype_name(a->dtype));
        return false;
    }
    if ((a->init.kind == SS__SCN_INIT_XAVIER || a->init.kind == SS__SCN_INIT_XAVIER_UNIFORM) && a->rank < 2) {
        ss__scn_ev_fail(e, locs[2], "xavier initializers need rank >= 2 (fan in and fan out)");
        return false;
    }
    if (a->init.kind == SS__SCN_INIT_IOTA && a->init.dim >= a->rank && a->rank > 0) {
        ss__scn_ev_fail(e, locs[2], "iota(dim=%d) on an array of rank %d", a->init.dim, a->rank);
        return false;
    }
    val *d = ss__scn_ev_new(e, V_DECL, s->target_locs[0]);
    if (!d)
        return false;
    d->i = sc->narrays++;
    return ss__scn_ev_env_set(e, &e->globals, s->targets[0], d, s->target_locs[0]);
}

static val *op_decl_elsewhere(ss__scn_ev *e, const callargs *ca)
{
    return ss__scn_ev_fail(e, ca->loc, "%s() declares a global array: write `NAME = %s(TYPE, SPEC, "
                               "INIT)` at the top level", ca->fname, ca->fname);
}

/* --- Elementwise ----------------------------------------------------------- */

static const struct {
    const char *name;
    ss_unary_op op;
} unary_ops[] = {{"neg", SS_NEG},   {"negative", SS_NEG}, {"exp", SS_EXP},   {"log", SS_LOG},
                 {"tanh", SS_TANH}, {"relu", SS_RELU},    {"gelu", SS_GELU}, {"sqrt", SS_SQRT},
                 {"rsqrt", SS_RSQRT}, {"square", SS_SQUARE}, {"sin", SS_SIN}, {"cos", SS_COS},
                 {"tan", SS_TAN}, {"abs", SS_ABS}, {"sign", SS_SIGN}, {"floor", SS_FLOOR},
                 {"ceil", SS_CEIL}, {"round", SS_ROUND_EVEN}, {"erf", SS_ERF},
                 {"expm1", SS_EXPM1}, {"log1p", SS_LOG1P}, {"sigmoid", SS_LOGISTIC},
                 {"logistic", SS_LOGISTIC}, {"cbrt", SS_CBRT}, {"isfinite", SS_IS_FINITE}};

static double fold_unary(ss_unary_op op, double x)
{
    switch (op) {
    case SS_NEG: return -x;
    case SS_EXP: return exp(x);
    case SS_LOG: return log(x);
    case SS_TANH: return tanh(x);
    case SS_RELU: return x > 0 ? x : 0;
    case SS_GELU: return 0.5 * x * (1 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
    case SS_SQRT: return sqrt(x);
    case SS_RSQRT: return 1 / sqrt(x);
    case SS_SQUARE: return x * x;
    case SS_SIN: return sin(x);
    case SS_COS: return cos(x);
    case SS_TAN: return tan(x);
    case SS_ABS: return fabs(x);
    case SS_SIGN: return x > 0 ? 1 : x < 0 ? -1 : x;
    case SS_FLOOR: return floor(x);
    case SS_CEIL: return ceil(x);
    case SS_ROUND_EVEN: return nearbyint(x);
    case SS_ERF: return erf(x);
    case SS_EXPM1: return expm1(x);
    case SS_LOG1P: return log1p(x);
    case SS_LOGISTIC: return 1 / (1 + exp(-x));
    case SS_CBRT: return cbrt(x);
    case SS_IS_FINITE: return isfinite(x);
    default: return x;
    }
}

static val *op_unary(ss__scn_ev *e, const callargs *ca)
{
    ss_unary_op op = SS_NEG;
    for (size_t k = 0; k < sizeof unary_ops / sizeof unary_ops[0]; k++)
        if (strcmp(unary_ops[k].name, ca->fname) == 0)
            op = unary_ops[k].op;
    static const char *const kws[] = {"approximate", NULL};
    if (!ss__scn_ca_check(e, ca, 1, 1, op == SS_GELU ? kws : NULL))
        return NULL;
    ss__scn_loc loc;
    val *ap = ss__scn_ca_get(ca, -1, "approximate", &loc);
    if (ap && !(ap->kind == V_INT && ap->i == 1))
        return ss__scn_ev_fail(e, loc, "gelu: only the tanh form (approximate=True) is supported");
    val *x = ca->v[0];
    if (ss__scn_ev_is_num(x)) {
        val *r = ss__scn_ev_new(e, V_FLOAT, ca->loc);
        if (r)
            r->f = fold_unary(op, x->kind == V_INT ? (double)x->i : x->f);
        return r;
    }
    if (!(x = ss__scn_arr_arg(e, ca, 0, NULL)))
        return NULL;
    ss_value out;
    BEFORE();
    ss_status st_ = ss_unary(PROG, op, x->v, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

static val *op_binary(ss__scn_ev *e, const callargs *ca)
{
    static const struct {
        const char *name;
        ss_binary_op op;
    } t[] = {{"maximum", SS_MAX}, {"minimum", SS_MIN},  {"pow", SS_POW},    {"power", SS_POW},
             {"add", SS_ADD},     {"subtract", SS_SUB}, {"multiply", SS_MUL}, {"divide", SS_DIV},
             {"fmod", SS_REM},    {"arctan2", SS_ATAN2}, {"atan2", SS_ATAN2}};
    ss_binary_op op = SS_ADD;
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++)
        if (strcmp(t[k].name, ca->fname) == 0)
            op = t[k].op;
    if (!ss__scn_ca_check(e, ca, 2, 2, NULL))
        return NULL;
    if (ss__scn_ev_is_num(ca->v[0]) && ss__scn_ev_is_num(ca->v[1])) {
        double a = ca->v[0]->kind == V_INT ? (double)ca->v[0]->i : ca->v[0]->f;
        double b = ca->v[1]->kind == V_INT ? (double)ca->v[1]->i : ca->v[1]->f;
        val *r = ss__scn_ev_new(e, V_FLOAT, ca->loc);
        if (r)
            r->f = op == SS_MAX ? fmax(a, b) : op == SS_MIN ? fmin(a, b) : op == SS_POW ? pow(a, b)
                   : op == SS_ADD ? a + b : op == SS_SUB ? a - b : op == SS_MUL ? a * b
                   : op == SS_REM ? fmod(a, b) : op == SS_ATAN2 ? atan2(a, b) : a / b;
        return r;
    }
    val *a = ca->v[0], *b = ca->v[1];
    if (!ss__scn_ev_array_pair(e, &a, ca->locs[0], "argument", &b, ca->locs[1], "argument") ||
        !ss__scn_ev_check_shapes(e, ca->fname, false, a, NULL, b, NULL, ca->loc))
        return NULL;
    ss_value out;
    BEFORE();
    ss_status st_ = ss_binary(PROG, op, a->v, b->v, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

/* --- Contractions ----------------------------------------------------------- */

static val *op_matmul(ss__scn_ev *e, const callargs *ca)
{
    if (!ss__scn_ca_check(e, ca, 2, 2, NULL))
        return NULL;
    val *a = ss__scn_arr_arg(e, ca, 0, NULL), *b = a ? ss__scn_arr_arg(e, ca, 1, NULL) : NULL;
    if (!b || !ss__scn_ev_check_shapes(e, ca->fname, true, a, NULL, b, NULL, ca->loc))
        return NULL;
    ss_value out;
    BEFORE();
    ss_status st_ = ss_matmul(PROG, a->v, b->v, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

static val *op_einsum(ss__scn_ev *e, const callargs *ca)
{
    if (!ss__scn_ca_check(e, ca, 3, 3, NULL))
        return NULL;
    if (ca->v[0]->kind != V_STR)
        return ss__scn_ev_fail(e, ca->locs[0], "einsum: the first argument is a spec string such as "
                                       "'ij,jk->ik'");
    val *a = ss__scn_arr_arg(e, ca, 1, NULL), *b = a ? ss__scn_arr_arg(e, ca, 2, NULL) : NULL;
    if (!b)
        return NULL;
    ss_value out;
    BEFORE();
    ss_status st_ = ss_einsum(PROG, ca->v[0]->s, a->v, b->v, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

/* dot_general(a, b, (((lc...), (rc...)), ((lb...), (rb...)))) as lax's. */
static val *op_dot_general(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"dimension_numbers", NULL};
    if (!ss__scn_ca_check(e, ca, 2, 3, kws))
        return NULL;
    ss__scn_loc loc;
    val *dn = ss__scn_ca_get(ca, 2, "dimension_numbers", &loc);
    val *a = ss__scn_arr_arg(e, ca, 0, NULL), *b = a ? ss__scn_arr_arg(e, ca, 1, NULL) : NULL;
    if (!b)
        return NULL;
    if (!dn || dn->kind != V_TUPLE || dn->n != 2 || dn->items[0]->kind != V_TUPLE ||
        dn->items[1]->kind != V_TUPLE || dn->items[0]->n != 2 || dn->items[1]->n != 2)
        return ss__scn_ev_fail(e, loc, "dot_general: dimension_numbers is ((lhs_contract, "
                               "rhs_contract), (lhs_batch, rhs_batch))");
    int64_t v[4][SS_MAX_RANK];
    int n[4];
    for (int k = 0; k < 4; k++) {
        val *x = dn->items[k / 2]->items[k % 2];
        if (!ints_arg(e, x, x->loc, "a dimension list", SS_MAX_RANK, v[k], &n[k]))
            return NULL;
    }
    if (n[0] != n[1] || n[2] != n[3])
        return ss__scn_ev_fail(e, loc, "dot_general: lhs and rhs list different numbers of dims");
    int lc[SS_MAX_RANK], rc[SS_MAX_RANK], lb[SS_MAX_RANK], rb[SS_MAX_RANK];
    for (int k = 0; k < n[0]; k++) {
        lc[k] = (int)v[0][k];
        rc[k] = (int)v[1][k];
        if (v[0][k] < 0 || v[0][k] >= SS_MAX_RANK || v[1][k] < 0 || v[1][k] >= SS_MAX_RANK)
            return ss__scn_ev_fail(e, loc, "dot_general: dimension out of range");
    }
    for (int k = 0; k < n[2]; k++) {
        lb[k] = (int)v[2][k];
        rb[k] = (int)v[3][k];
        if (v[2][k] < 0 || v[2][k] >= SS_MAX_RANK || v[3][k] < 0 || v[3][k] >= SS_MAX_RANK)
            return ss__scn_ev_fail(e, loc, "dot_general: dimension out of range");
    }
    ss_value out;
    BEFORE();
    ss_status st_ = ss_dot_general(PROG, a->v, b->v, n[2], lb, rb, n[0], lc, rc, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

/* --- Reductions and shapes --------------------------------------------------- */

static val *op_reduce(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"axis", "keepdims", NULL};
    ss_reduce_op op = strcmp(ca->fname, "sum") == 0    ? SS_REDUCE_SUM
                      : strcmp(ca->fname, "mean") == 0 ? SS_REDUCE_MEAN
                      : strcmp(ca->fname, "max") == 0  ? SS_REDUCE_MAX
                                                       : SS_REDUCE_MIN;
    if (ca->n == 2 && ca->v[1]->kind != V_INT && ca->v[1]->kind != V_TUPLE &&
        ca->v[1]->kind != V_NONE)
        return ss__scn_ev_fail(e, ca->locs[1], "%s(x, axis): for the elementwise form use %s(a, b)",
                       ca->fname, op == SS_REDUCE_MAX ? "maximum" : "minimum");
    if (!ss__scn_ca_check(e, ca, 1, 2, kws))
        return NULL;
    val *x = ss__scn_arr_arg(e, ca, 0, NULL);
    if (!x)
        return NULL;
    int rank;
    ss__scn_ev_shape(e, x->v, NULL, &rank, NULL);
    ss__scn_loc loc;
    val *ax = ss__scn_ca_get(ca, 1, "axis", &loc);
    int64_t keep = 0, v[SS_MAX_RANK];
    int axes[SS_MAX_RANK], n = 0;
    if (!ss__scn_int_arg(e, ca, -1, "keepdims", 0, &keep))
        return NULL;
    if (!ax || ax->kind == V_NONE) {
        for (int d = 0; d < rank; d++)
            axes[n++] = d;
    } else {
        if (!ints_arg(e, ax, loc, "axis", SS_MAX_RANK, v, &n))
            return NULL;
        for (int k = 0; k < n; k++)
            if (!norm_axis(e, v[k], rank, loc, &axes[k]))
                return NULL;
    }
    ss_value out;
    BEFORE();
    if (n == 0)
        return x;
    ss_status st_ = ss_reduce(PROG, op, x->v, n, axes, keep != 0, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

static val *op_transpose(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"axes", NULL};
    if (!ss__scn_ca_check(e, ca, 1, SS_MAX_RANK + 1, kws))
        return NULL;
    val *x = ss__scn_arr_arg(e, ca, 0, NULL);
    if (!x)
        return NULL;
    int rank, perm[SS_MAX_RANK];
    ss__scn_ev_shape(e, x->v, NULL, &rank, NULL);
    ss__scn_loc loc;
    val *p = ss__scn_ca_get(ca, 1, "axes", &loc);
    if (!p || p->kind == V_NONE) {
        for (int d = 0; d < rank; d++)
            perm[d] = rank - 1 - d;
    } else {
        int64_t v[SS_MAX_RANK];
        int n;
        if (ca->n > 2) { /* x.transpose(1, 0) */
            n = ca->n - 1;
            for (int k = 0; k < n; k++)
                if (!ss__scn_ev_to_int(e, ca->v[k + 1], ca->locs[k + 1], "an axis", &v[k]))
                    return NULL;
        } else if (!ints_arg(e, p, loc, "axes", SS_MAX_RANK, v, &n)) {
            return NULL;
        }
        if (n != rank)
            return ss__scn_ev_fail(e, loc, "axes don't match array: %d axes for rank %d", n, rank);
        for (int k = 0; k < n; k++)
            if (!norm_axis(e, v[k], rank, loc, &perm[k]))
                return NULL;
    }
    ss_value out;
    BEFORE();
    ss_status st_ = ss_transpose(PROG, x->v, perm, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

/* The target shape of reshape/broadcast_to: a tuple, or integers. */
static bool shape_args(ss__scn_ev *e, const callargs *ca, int first, const char *kw, int rank_in,
                       const int64_t in[], int64_t elems, int *rank, int64_t shape[],
                       bool allow_minus1)
{
    ss__scn_loc loc;
    int64_t v[SS_MAX_RANK];
    int n;
    if (ca->n > first + 1) {
        n = ca->n - first;
        if (n > SS_MAX_RANK) {
            ss__scn_ev_fail(e, ca->locs[first], "rank above %d", SS_MAX_RANK);
            return false;
        }
        for (int k = 0; k < n; k++)
            if (!ss__scn_ev_to_int(e, ca->v[first + k], ca->locs[first + k], "a dimension", &v[k]))
                return false;
        loc = ca->locs[first];
    } else {
        val *s = ss__scn_ca_get(ca, first, kw, &loc);
        if (!s || !ints_arg(e, s, loc, "the shape", SS_MAX_RANK, v, &n))
            return e->sc->err.set ? false : (ss__scn_ev_fail(e, loc, "missing shape"), false);
    }
    (void)rank_in;
    (void)in;
    int minus = -1;
    int64_t known = 1;
    for (int k = 0; k < n; k++) {
        if (v[k] == -1 && allow_minus1 && minus < 0) {
            minus = k;
            continue;
        }
        if (v[k] < 0 || (v[k] > 0 && known > INT64_MAX / v[k])) {
            ss__scn_ev_fail(e, loc, "bad dimension %lld", (long long)v[k]);
            return false;
        }
        known *= v[k];
    }
    if (minus >= 0) {
        if (known == 0 || elems % known != 0) {
            ss__scn_ev_fail(e, loc, "cannot reshape array of size %lld into this shape",
                    (long long)elems);
            return false;
        }
        v[minus] = elems / known;
    }
    *rank = n;
    memcpy(shape, v, sizeof(int64_t) * (size_t)n);
    return true;
}

static val *op_reshape(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"shape", "newshape", NULL};
    if (!ss__scn_ca_check(e, ca, 1, SS_MAX_RANK + 1, kws))
        return NULL;
    val *x = ss__scn_arr_arg(e, ca, 0, NULL);
    if (!x)
        return NULL;
    int rank_in, rank;
    int64_t in[SS_MAX_RANK], shape[SS_MAX_RANK], elems;
    ss__scn_ev_shape(e, x->v, NULL, &rank_in, in);
    ss__product(rank_in, in, &elems);
    if (!shape_args(e, ca, 1, ss__scn_ca_get(ca, -1, "newshape", NULL) ? "newshape" : "shape", rank_in,
                    in, elems, &rank, shape, true))
        return NULL;
    ss_value out;
    BEFORE();
    ss_status st_ = ss_reshape(PROG, x->v, rank, shape, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

static val *op_broadcast_to(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"shape", NULL};
    if (!ss__scn_ca_check(e, ca, 2, 2, kws))
        return NULL;
    val *x = ss__scn_arr_arg(e, ca, 0, NULL);
    if (!x)
        return NULL;
    int rank_in, rank, dims[SS_MAX_RANK];
    int64_t in[SS_MAX_RANK], shape[SS_MAX_RANK];
    ss__scn_ev_shape(e, x->v, NULL, &rank_in, in);
    if (!shape_args(e, ca, 1, "shape", rank_in, in, 0, &rank, shape, false))
        return NULL;
    if (rank < rank_in)
        return ss__scn_ev_fail(e, ca->loc, "broadcast_to: cannot lower the rank from %d to %d", rank_in,
                       rank);
    for (int d = 0; d < rank_in; d++)
        dims[d] = rank - rank_in + d;
    ss_value out;
    BEFORE();
    ss_status st_ = ss_broadcast_in_dim(PROG, x->v, rank, shape, dims, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

static val *op_broadcast_in_dim(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"shape", "broadcast_dimensions", NULL};
    if (!ss__scn_ca_check(e, ca, 1, 3, kws))
        return NULL;
    val *x = ss__scn_arr_arg(e, ca, 0, NULL);
    if (!x)
        return NULL;
    ss__scn_loc l1, l2;
    val *s = ss__scn_ca_get(ca, 1, "shape", &l1), *d = ss__scn_ca_get(ca, 2, "broadcast_dimensions", &l2);
    int64_t shape[SS_MAX_RANK], dv[SS_MAX_RANK];
    int rank, nd, dims[SS_MAX_RANK], rank_in;
    ss__scn_ev_shape(e, x->v, NULL, &rank_in, NULL);
    if (!ints_arg(e, s, l1, "shape", SS_MAX_RANK, shape, &rank) ||
        !ints_arg(e, d, l2, "broadcast_dimensions", SS_MAX_RANK, dv, &nd))
        return NULL;
    if (nd != rank_in)
        return ss__scn_ev_fail(e, l2, "broadcast_dimensions has %d entries for an operand of rank %d",
                       nd, rank_in);
    for (int k = 0; k < nd; k++) {
        if (dv[k] < 0 || dv[k] >= rank)
            return ss__scn_ev_fail(e, l2, "broadcast dimension %lld out of range", (long long)dv[k]);
        dims[k] = (int)dv[k];
    }
    ss_value out;
    BEFORE();
    ss_status st_ = ss_broadcast_in_dim(PROG, x->v, rank, shape, dims, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

static val *op_concatenate(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"axis", NULL};
    if (!ss__scn_ca_check(e, ca, 1, 2, kws))
        return NULL;
    val *xs = ca->v[0];
    if (xs->kind != V_TUPLE || xs->n < 1 || xs->n > 16)
        return ss__scn_ev_fail(e, ca->locs[0], "concatenate takes a tuple or list of 1 to 16 arrays");
    ss_value v[16];
    for (int k = 0; k < xs->n; k++) {
        val *a = ss__scn_ev_array(e, xs->items[k], xs->items[k]->loc, "a concatenated value");
        if (!a)
            return NULL;
        v[k] = a->v;
    }
    int64_t axis;
    int rank, ax;
    if (!ss__scn_int_arg(e, ca, 1, "axis", 0, &axis))
        return NULL;
    ss__scn_ev_shape(e, v[0], NULL, &rank, NULL);
    if (!norm_axis(e, axis, rank, ca->loc, &ax))
        return NULL;
    ss_value out;
    BEFORE();
    ss_status st_ = ss_concatenate(PROG, xs->n, v, ax, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

/* --- jax.nn and optax --------------------------------------------------------- */

static val *op_one_hot(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"num_classes", NULL};
    if (!ss__scn_ca_check(e, ca, 1, 2, kws))
        return NULL;
    val *x = ss__scn_arr_arg(e, ca, 0, NULL);
    int64_t n;
    ss__scn_loc loc;
    if (!x || !ss__scn_ev_to_int(e, ss__scn_ca_get(ca, 1, "num_classes", &loc), loc, "num_classes", &n))
        return NULL;
    ss_value out;
    BEFORE();
    ss_status st_ = ss_one_hot(PROG, x->v, n, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

static val *op_softmax(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"axis", NULL};
    if (!ss__scn_ca_check(e, ca, 1, 2, kws))
        return NULL;
    val *x = ss__scn_arr_arg(e, ca, 0, NULL);
    int64_t axis;
    if (!x || !ss__scn_int_arg(e, ca, 1, "axis", -1, &axis))
        return NULL;
    if (axis < INT32_MIN || axis > INT32_MAX)
        return ss__scn_ev_fail(e, ca->loc, "axis out of range");
    ss_value out;
    BEFORE();
    ss_status st = ca->fname[0] == 'l' ? ss_log_softmax(PROG, x->v, (int)axis, &out)
                                       : ss_softmax(PROG, x->v, (int)axis, &out);
    ss_status st_ = st;
    return ss__scn_built(e, st_, before, ca->loc, out);
}

static val *op_layer_norm(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"scale", "bias", NULL};
    if (!ss__scn_ca_check(e, ca, 1, 3, kws))
        return NULL;
    val *x = ss__scn_arr_arg(e, ca, 0, NULL);
    if (!x)
        return NULL;
    ss_value sv[2] = {-1, -1};
    for (int k = 0; k < 2; k++) {
        ss__scn_loc loc;
        val *a = ss__scn_ca_get(ca, k + 1, k ? "bias" : "scale", &loc);
        if (a && a->kind != V_NONE) {
            if (!(a = ss__scn_ev_array(e, a, loc, k ? "bias" : "scale")))
                return NULL;
            sv[k] = a->v;
        }
    }
    ss_value out;
    BEFORE();
    ss_status st_ = ss_layer_norm(PROG, x->v, sv[0], sv[1], &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

static val *op_cross_entropy(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"logits", "labels", NULL};
    if (!ss__scn_ca_check(e, ca, 0, 2, kws))
        return NULL;
    val *l = ss__scn_arr_arg(e, ca, 0, "logits"), *y = l ? ss__scn_arr_arg(e, ca, 1, "labels") : NULL;
    if (!y)
        return NULL;
    ss_value out;
    BEFORE();
    ss_status st_ = ss_cross_entropy(PROG, l->v, y->v, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

/* --- Shardings ------------------------------------------------------------------ */

static val *op_constrain(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"shardings", "spec", NULL};
    if (!ss__scn_ca_check(e, ca, 1, 2, kws))
        return NULL;
    val *x = ss__scn_arr_arg(e, ca, 0, NULL);
    ss_spec spec;
    if (!x || !spec_arg(e, ca, 1, ss__scn_ca_get(ca, -1, "spec", NULL) ? "spec" : "shardings", &spec))
        return NULL;
    ss_value out;
    BEFORE();
    ss_status st_ = ss_constrain(PROG, x->v, &spec, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

static val *op_logical_constraint(ss__scn_ev *e, const callargs *ca)
{
    if (!ss__scn_ca_check(e, ca, 2, 2, NULL))
        return NULL;
    val *x = ss__scn_arr_arg(e, ca, 0, NULL), *names = ca->v[1];
    if (!x)
        return NULL;
    if (!e->sc->have_rules)
        return ss__scn_ev_fail(e, ca->loc, "with_logical_constraint needs `rules` in the scenario");
    if (names->kind != V_TUPLE)
        return ss__scn_ev_fail(e, ca->locs[1], "logical axis names are a tuple such as ('batch', "
                                       "'embed')");
    ss_spec spec, out;
    if (!spec_from(e, names->items, names->n, ca->locs[1], &spec))
        return NULL;
    ss_rules_options o = {.mesh = e->sc->mesh, .strict = e->sc->rules_strict,
                          .fallback = SS_FALLBACK_UNSHARDED};
    int constrained = 1;
    if (ss_rules_resolve(&e->sc->rules, &spec, &o, &out, &constrained) != SS_OK)
        return ss__scn_ev_fail(e, ca->locs[1], "%s", ss_error_message());
    if (!constrained)
        return x;
    ss_value v;
    BEFORE();
    ss_status st_ = ss_constrain(PROG, x->v, &out, &v);
    return ss__scn_built(e, st_, before, ca->loc, v);
}

static val *op_stop_gradient(ss__scn_ev *e, const callargs *ca)
{
    if (!ss__scn_ca_check(e, ca, 1, 1, NULL))
        return NULL;
    val *x = ss__scn_arr_arg(e, ca, 0, NULL);
    if (!x)
        return NULL;
    ss_value out;
    BEFORE();
    ss_status st_ = ss_stop_gradient(PROG, x->v, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

static val *op_len(ss__scn_ev *e, const callargs *ca)
{
    if (!ss__scn_ca_check(e, ca, 1, 1, NULL))
        return NULL;
    if (ca->v[0]->kind != V_TUPLE)
        return ss__scn_ev_fail(e, ca->locs[0], "len() of %s", ss__scn_ev_kind_name(ca->v[0]->kind));
    return ss__scn_ev_int(e, ca->v[0]->n, ca->loc);
}

static val *op_range(ss__scn_ev *e, const callargs *ca)
{
    return ss__scn_ev_fail(e, ca->loc, "range() is only allowed in `for NAME in range(...):`");
}

static val *op_int_float(ss__scn_ev *e, const callargs *ca)
{
    double d;
    if (!ss__scn_ca_check(e, ca, 1, 1, NULL) || !ss__scn_ev_to_num(e, ca->v[0], ca->locs[0], "the value", &d))
        return NULL;
    if (ca->fname[0] == 'i') {
        if (!(d > -9.2e18 && d < 9.2e18))
            return ss__scn_ev_fail(e, ca->locs[0], "integer out of range");
        return ss__scn_ev_int(e, (int64_t)d, ca->loc);
    }
    val *r = ss__scn_ev_new(e, V_FLOAT, ca->loc);
    if (r)
        r->f = d;
    return r;
}

/* --- Indexing ------------------------------------------------------------------ */

val *ss__scn_ev_index_array(ss__scn_ev *e, val *x, const ss__scn_expr *ix, val **items)
{
    int rank;
    int64_t shape[SS_MAX_RANK], start[SS_MAX_RANK], limit[SS_MAX_RANK], out_shape[SS_MAX_RANK];
    ss__scn_ev_shape(e, x->v, NULL, &rank, shape);
    if (ix->nitems > rank)
        return ss__scn_ev_fail(e, ix->loc, "too many indices for array: array is %d-dimensional, but "
                                   "%d were indexed", rank, ix->nitems);
    int out_rank = 0;
    bool changed = false;
    for (int d = 0; d < rank; d++) {
        start[d] = 0;
        limit[d] = shape[d];
        bool keep = true;
        if (d < ix->nitems) {
            val *it = items[d];
            ss__scn_loc loc = ix->items[d]->loc;
            if (it && it->kind == V_INT) {
                int64_t i = it->i < 0 ? it->i + shape[d] : it->i;
                if (i < 0 || i >= shape[d])
                    return ss__scn_ev_fail(e, loc, "index %lld is out of bounds for axis %d with size "
                                           "%lld", (long long)it->i, d, (long long)shape[d]);
                start[d] = i;
                limit[d] = i + 1;
                keep = false;
                changed = true;
            } else if (it && it->kind == V_TUPLE && it->s && strcmp(it->s, "slice") == 0) {
                for (int k = 0; k < 2; k++) {
                    val *b = it->items[k];
                    if (b->kind == V_NONE)
                        continue;
                    int64_t v;
                    if (!ss__scn_ev_to_int(e, b, b->loc, "a slice bound", &v))
                        return NULL;
                    if (v < 0)
                        v += shape[d];
                    v = v < 0 ? 0 : v > shape[d] ? shape[d] : v;
                    if (k == 0)
                        start[d] = v;
                    else
                        limit[d] = v;
                }
                if (limit[d] < start[d])
                    limit[d] = start[d];
                changed = changed || start[d] != 0 || limit[d] != shape[d];
            } else {
                return ss__scn_ev_fail(e, loc, "an array index is an integer or a slice a:b, not %s",
                               it ? ss__scn_ev_kind_name(it->kind) : "?");
            }
        }
        if (keep)
            out_shape[out_rank++] = limit[d] - start[d];
    }
    if (!changed)
        return x;
    ss_value s, r;
    BEFORE();
    if (!ss__scn_ev_built(e, ss_slice(PROG, x->v, start, limit, &s), before, ix->loc))
        return NULL;
    if (out_rank == rank)
        return ss__scn_ev_array_val(e, s, ix->loc);
    before = ss_program_value_count(PROG);
    ss_status st_ = ss_reshape(PROG, s, out_rank, out_shape, &r);
    return ss__scn_built(e, st_, before, ix->loc, r);
}

/* x.astype(dtype): jnp.bfloat16, 'bfloat16', 'bf16', ... (float dtypes) */
static val *op_astype(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"dtype", NULL};
    if (!ss__scn_ca_check(e, ca, 2, 2, kws))
        return NULL;
    ss__scn_loc loc;
    val *d = ss__scn_ca_get(ca, 1, "dtype", &loc);
    ss_dtype dt;
    if (!d || d->kind != V_STR || ss_dtype_parse(d->s, &dt) != SS_OK)
        return ss__scn_ev_fail(e, d ? loc : ca->loc, "astype: the dtype is jnp.float32, jnp.bfloat16, "
                                             "jnp.float16 or a name such as 'bfloat16'");
    val *x = ss__scn_arr_arg(e, ca, 0, NULL);
    if (!x)
        return NULL;
    ss_value out;
    BEFORE();
    ss_status st_ = ss_convert(PROG, x->v, dt, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

/* --- The table -------------------------------------------------------------------- */

static val *op_spec(ss__scn_ev *e, const callargs *ca) { return ss__scn_ev_make_spec(e, ca); }

static const struct {
    const char *name;
    builtin_fn fn;
    bool method;
} builtins[] = {
    {"__init__", op_init, false},
    {"input", op_decl_elsewhere, false},
    {"param", op_decl_elsewhere, false},
    {"P", op_spec, false},
    {"PartitionSpec", op_spec, false},
    {"neg", op_unary, false},
    {"negative", op_unary, false},
    {"exp", op_unary, false},
    {"log", op_unary, false},
    {"tanh", op_unary, false},
    {"relu", op_unary, false},
    {"gelu", op_unary, false},
    {"sqrt", op_unary, false},
    {"rsqrt", op_unary, false},
    {"square", op_unary, false},
    {"sin", op_unary, false},
    {"cos", op_unary, false},
    {"tan", op_unary, false},
    {"abs", op_unary, false},
    {"sign", op_unary, false},
    {"floor", op_unary, false},
    {"ceil", op_unary, false},
    {"round", op_unary, false},
    {"erf", op_unary, false},
    {"expm1", op_unary, false},
    {"log1p", op_unary, false},
    {"sigmoid", op_unary, false},
    {"logistic", op_unary, false},
    {"cbrt", op_unary, false},
    {"isfinite", op_unary, false},
    {"fmod", op_binary, false},
    {"arctan2", op_binary, false},
    {"atan2", op_binary, false},
    {"greater", ss__scn_ev_op_compare, false},
    {"greater_equal", ss__scn_ev_op_compare, false},
    {"less", ss__scn_ev_op_compare, false},
    {"less_equal", ss__scn_ev_op_compare, false},
    {"equal", ss__scn_ev_op_compare, false},
    {"not_equal", ss__scn_ev_op_compare, false},
    {"where", ss__scn_ev_op_where, false},
    {"maximum", op_binary, false},
    {"minimum", op_binary, false},
    {"pow", op_binary, false},
    {"power", op_binary, false},
    {"add", op_binary, false},
    {"subtract", op_binary, false},
    {"multiply", op_binary, false},
    {"divide", op_binary, false},
    {"matmul", op_matmul, false},
    {"dot", op_matmul, false},
    {"einsum", op_einsum, false},
    {"dot_general", op_dot_general, false},
    {"sum", op_reduce, true},
    {"mean", op_reduce, true},
    {"max", op_reduce, true},
    {"min", op_reduce, true},
    {"transpose", op_transpose, true},
    {"reshape", op_reshape, true},
    {"broadcast_to", op_broadcast_to, false},
    {"broadcast_in_dim", op_broadcast_in_dim, false},
    {"concatenate", op_concatenate, false},
    {"one_hot", op_one_hot, false},
    {"softmax", op_softmax, false},
    {"log_softmax", op_softmax, false},
    {"layer_norm", op_layer_norm, false},
    {"cross_entropy", op_cross_entropy, false},
    {"softmax_cross_entropy_with_integer_labels", op_cross_entropy, false},
    {"constrain", op_constrain, false},
    {"with_sharding_constraint", op_constrain, false},
    {"reshard", op_constrain, false},
    {"device_put", op_constrain, false},
    {"with_logical_constraint", op_logical_constraint, false},
    {"shard_map", ss__scn_ev_op_shard_map, false},
    {"psum", ss__scn_ev_op_collective, false},
    {"pmean", ss__scn_ev_op_collective, false},
    {"pmax", ss__scn_ev_op_collective, false},
    {"pmin", ss__scn_ev_op_collective, false},
    {"all_gather", ss__scn_ev_op_collective, false},
    {"all_gather_invariant", ss__scn_ev_op_collective, false},
    {"psum_scatter", ss__scn_ev_op_collective, false},
    {"all_to_all", ss__scn_ev_op_collective, false},
    {"ppermute", ss__scn_ev_op_collective, false},
    {"axis_index", ss__scn_ev_op_axis_index, false},
    {"scan", ss__scn_ev_op_scan, false},
    {"grad", ss__scn_ev_op_grad, false},
    {"value_and_grad", ss__scn_ev_op_grad, false},
    {"adam", ss__scn_ev_op_optimizer, false},
    {"adamw", ss__scn_ev_op_optimizer, false},
    {"sgd", ss__scn_ev_op_optimizer, false},
    {"stop_gradient", op_stop_gradient, false},
    {"astype", op_astype, true},
    {"len", op_len, false},
    {"range", op_range, false},
    {"int", op_int_float, false},
    {"float", op_int_float, false},
};

static int edit_distance(const char *a, const char *b)
{
    int la = (int)strlen(a), lb = (int)strlen(b);
    if (la > 40 || lb > 40)
        return 99;
    int d[41][41];
    for (int i = 0; i <= la; i++)
        d[i][0] = i;
    for (int j = 0; j <= lb; j++)
        d[0][j] = j;
    for (int i = 1; i <= la; i++)
        for (int j = 1; j <= lb; j++) {
            int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < c)
                c = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < c)
                c = d[i][j - 1] + 1;
            d[i][j] = c;
        }
    return d[la][lb];
}

bool ss__scn_ev_nearest_builtins(const char *name, bool method, char *out, size_t cap)
{
    size_t at = 0;
    int found = 0;
    out[0] = '\0';
    for (int pass = 0; pass < 2 && !found; pass++)
        for (size_t k = 0; k < sizeof builtins / sizeof builtins[0]; k++) {
            const char *b = builtins[k].name;
            if (b[0] == '_' || (method && !builtins[k].method) || found == 4)
                continue;
            bool near = pass == 0 ? edit_distance(name, b) <= (strlen(name) > 4 ? 2 : 1)
                                  : strlen(name) >= 3 && (strstr(b, name) || strstr(name, b));
            if (near && at < cap)
                at += (size_t)snprintf(out + at, cap - at, "%s%s", found++ ? ", " : "", b);
        }
    return found > 0;
}

/* JAX's spellings: module prefixes and the names that differ here. */
static const char *const jax_modules[] = {
    "jax.numpy.", "jax.nn.", "jax.lax.", "jax.sharding.", "jax.experimental.shard_map.",
    "jax.experimental.", "jax.", "jnp.", "np.", "numpy.", "lax.", "nn.", "optax.", NULL};

static const struct {
    const char *jax, *here;
} jax_renames[] = {
    {"with_sharding_constraint", "constrain"},
    {"softmax_cross_entropy_with_integer_labels", "cross_entropy"},
    {"negative", "neg"},
    {"power", "pow"},
    {"amax", "max"},
    {"amin", "min"},
    {"NamedSharding", NULL},
};

const char *ss__scn_ev_jax_name(const char *path, char *why, size_t cap)
{
    const char *rest = NULL;
    for (int k = 0; jax_modules[k] && !rest; k++)
        if (strncmp(path, jax_modules[k], strlen(jax_modules[k])) == 0)
            rest = path + strlen(jax_modules[k]);
    if (!rest)
        return NULL;
    if (strchr(rest, '.')) { /* jax.random.normal, jnp.linalg.norm, ... */
        snprintf(why, cap, "%s is not supported (scenarios/README.md lists the ops)", path);
        return NULL;
    }
    if (strncmp(path, "optax.", 6) == 0 && (strcmp(rest, "adam") == 0 || strcmp(rest, "sgd") == 0 ||
                                           strcmp(rest, "adamw") == 0)) {
        snprintf(why, cap, "%s is not supported as a GradientTransformation; shardsim has "
                           "%s(params, grads, learning_rate=...), which returns the new params",
                 path, rest);
        return NULL;
    }
    static const struct {
        const char *jax, *hint;
    } hints[] = {
        {"clip", "write maximum(minimum(x, hi), lo)"},
        {"asarray", "numbers next to arrays are weakly typed scalars; arrays come from input() "
                    "and param()"},
    };
    for (size_t k = 0; k < sizeof hints / sizeof hints[0]; k++)
        if (strcmp(hints[k].jax, rest) == 0) {
            snprintf(why, cap, "%s is not supported; %s", path, hints[k].hint);
            return NULL;
        }
    const char *name = rest;
    for (size_t k = 0; k < sizeof jax_renames / sizeof jax_renames[0]; k++)
        if (strcmp(jax_renames[k].jax, rest) == 0)
            name = jax_renames[k].here;
    if (name && name[0] != '_' && ss__scn_ev_builtin(name, false))
        return name;
    char near[256];
    if (ss__scn_ev_nearest_builtins(rest, false, near, sizeof near))
        snprintf(why, cap, "%s is not supported; shardsim has %s", path, near);
    else
        snprintf(why, cap, "%s is not supported (scenarios/README.md lists the ops)", path);
    return NULL;
}

builtin_fn ss__scn_ev_builtin(const char *name, bool method)
{
    for (size_t k = 0; k < sizeof builtins / sizeof builtins[0]; k++)
        if (strcmp(builtins[k].name, name) == 0 && (!method || builtins[k].method))
            return builtins[k].fn;
    return NULL;
}
