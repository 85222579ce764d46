/*
 * ops.c — the scenario language's built-in functions: the argument helpers
 * they share, PartitionSpecs, and the table that maps every name (jax.numpy,
 * jax.nn, lax and optax spellings) to its function. The functions are in
 * ops_array.c (array ops), ops_decl.c (declarations, initializers,
 * constraints, indexing) and ops_cmp.c (comparisons and where). Each takes
 * evaluated arguments and reports a bad one at its own line:column; builder
 * errors (shapes, shardings) are reported at the call with the library's
 * message.
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
bool ss__scn_norm_axis(ss__scn_ev *e, int64_t a, int rank, ss__scn_loc loc, int *out)
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
bool ss__scn_ints_arg(ss__scn_ev *e, val *x, ss__scn_loc loc, const char *what, int cap, int64_t out[],
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
bool ss__scn_spec_from(ss__scn_ev *e, val *const *items, int n, ss__scn_loc loc, ss_spec *spec)
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
    if (!ss__scn_spec_from(e, ca->v, ca->n, ca->loc, r->spec) || !ss__scn_ev_resolve_spec(e, r->spec, ca->loc))
        return NULL;
    return r;
}

bool ss__scn_spec_arg(ss__scn_ev *e, const callargs *ca, int pos, const char *kw, ss_spec *out)
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


/* --- The table -------------------------------------------------------------------- */

static val *op_spec(ss__scn_ev *e, const callargs *ca) { return ss__scn_ev_make_spec(e, ca); }

static const struct {
    const char *name;
    builtin_fn fn;
    bool method;
} builtins[] = {
    {"__init__", ss__scn_ev_op_init, false},
    {"input", ss__scn_ev_op_decl_elsewhere, false},
    {"param", ss__scn_ev_op_decl_elsewhere, false},
    {"P", op_spec, false},
    {"PartitionSpec", op_spec, false},
    {"neg", ss__scn_ev_op_unary, false},
    {"negative", ss__scn_ev_op_unary, false},
    {"exp", ss__scn_ev_op_unary, false},
    {"log", ss__scn_ev_op_unary, false},
    {"tanh", ss__scn_ev_op_unary, false},
    {"relu", ss__scn_ev_op_unary, false},
    {"gelu", ss__scn_ev_op_unary, false},
    {"sqrt", ss__scn_ev_op_unary, false},
    {"rsqrt", ss__scn_ev_op_unary, false},
    {"square", ss__scn_ev_op_unary, false},
    {"sin", ss__scn_ev_op_unary, false},
    {"cos", ss__scn_ev_op_unary, false},
    {"tan", ss__scn_ev_op_unary, false},
    {"abs", ss__scn_ev_op_unary, false},
    {"sign", ss__scn_ev_op_unary, false},
    {"floor", ss__scn_ev_op_unary, false},
    {"ceil", ss__scn_ev_op_unary, false},
    {"round", ss__scn_ev_op_unary, false},
    {"erf", ss__scn_ev_op_unary, false},
    {"expm1", ss__scn_ev_op_unary, false},
    {"log1p", ss__scn_ev_op_unary, false},
    {"sigmoid", ss__scn_ev_op_unary, false},
    {"logistic", ss__scn_ev_op_unary, false},
    {"cbrt", ss__scn_ev_op_unary, false},
    {"isfinite", ss__scn_ev_op_unary, false},
    {"fmod", ss__scn_ev_op_binary, false},
    {"arctan2", ss__scn_ev_op_binary, false},
    {"atan2", ss__scn_ev_op_binary, false},
    {"greater", ss__scn_ev_op_compare, false},
    {"greater_equal", ss__scn_ev_op_compare, false},
    {"less", ss__scn_ev_op_compare, false},
    {"less_equal", ss__scn_ev_op_compare, false},
    {"equal", ss__scn_ev_op_compare, false},
    {"not_equal", ss__scn_ev_op_compare, false},
    {"where", ss__scn_ev_op_where, false},
    {"maximum", ss__scn_ev_op_binary, false},
    {"minimum", ss__scn_ev_op_binary, false},
    {"pow", ss__scn_ev_op_binary, false},
    {"power", ss__scn_ev_op_binary, false},
    {"add", ss__scn_ev_op_binary, false},
    {"subtract", ss__scn_ev_op_binary, false},
    {"multiply", ss__scn_ev_op_binary, false},
    {"divide", ss__scn_ev_op_binary, false},
    {"matmul", ss__scn_ev_op_matmul, false},
    {"dot", ss__scn_ev_op_matmul, false},
    {"einsum", ss__scn_ev_op_einsum, false},
    {"dot_general", ss__scn_ev_op_dot_general, false},
    {"sum", ss__scn_ev_op_reduce, true},
    {"mean", ss__scn_ev_op_reduce, true},
    {"max", ss__scn_ev_op_reduce, true},
    {"min", ss__scn_ev_op_reduce, true},
    {"transpose", ss__scn_ev_op_transpose, true},
    {"reshape", ss__scn_ev_op_reshape, true},
    {"broadcast_to", ss__scn_ev_op_broadcast_to, false},
    {"broadcast_in_dim", ss__scn_ev_op_broadcast_in_dim, false},
    {"concatenate", ss__scn_ev_op_concatenate, false},
    {"one_hot", ss__scn_ev_op_one_hot, false},
    {"softmax", ss__scn_ev_op_softmax, false},
    {"log_softmax", ss__scn_ev_op_softmax, false},
    {"layer_norm", ss__scn_ev_op_layer_norm, false},
    {"cross_entropy", ss__scn_ev_op_cross_entropy, false},
    {"softmax_cross_entropy_with_integer_labels", ss__scn_ev_op_cross_entropy, false},
    {"constrain", ss__scn_ev_op_constrain, false},
    {"with_sharding_constraint", ss__scn_ev_op_constrain, false},
    {"reshard", ss__scn_ev_op_constrain, false},
    {"device_put", ss__scn_ev_op_constrain, false},
    {"with_logical_constraint", ss__scn_ev_op_logical_constraint, false},
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
    {"stop_gradient", ss__scn_ev_op_stop_gradient, false},
    {"astype", ss__scn_ev_op_astype, true},
    {"len", ss__scn_ev_op_len, false},
    {"range", ss__scn_ev_op_range, false},
    {"int", ss__scn_ev_op_int_float, false},
    {"float", ss__scn_ev_op_int_float, false},
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

