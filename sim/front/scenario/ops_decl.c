/*
 * ops_decl.c — the scenario language's declaring and indexing built-ins:
 * initializers and top-level array declarations, sharding constraints
 * (PartitionSpecs and logical names), stop_gradient, Python's len, range,
 * int and float, indexing and slicing, astype.
 */
#include "eval.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
val *ss__scn_ev_op_init(ss__scn_ev *e, const callargs *ca)
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

val *ss__scn_ev_op_decl_elsewhere(ss__scn_ev *e, const callargs *ca)
{
    return ss__scn_ev_fail(e, ca->loc, "%s() declares a global array: write `NAME = %s(TYPE, SPEC, "
                               "INIT)` at the top level", ca->fname, ca->fname);
}


/* --- Shardings ------------------------------------------------------------------ */

val *ss__scn_ev_op_constrain(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"shardings", "spec", NULL};
    if (!ss__scn_ca_check(e, ca, 1, 2, kws))
        return NULL;
    val *x = ss__scn_arr_arg(e, ca, 0, NULL);
    ss_spec spec;
    if (!x || !ss__scn_spec_arg(e, ca, 1, ss__scn_ca_get(ca, -1, "spec", NULL) ? "spec" : "shardings", &spec))
        return NULL;
    ss_value out;
    BEFORE();
    ss_status st_ = ss_constrain(PROG, x->v, &spec, &out);
    return ss__scn_built(e, st_, before, ca->loc, out);
}

val *ss__scn_ev_op_logical_constraint(ss__scn_ev *e, const callargs *ca)
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
    if (!ss__scn_spec_from(e, names->items, names->n, ca->locs[1], &spec))
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

val *ss__scn_ev_op_stop_gradient(ss__scn_ev *e, const callargs *ca)
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

val *ss__scn_ev_op_len(ss__scn_ev *e, const callargs *ca)
{
    if (!ss__scn_ca_check(e, ca, 1, 1, NULL))
        return NULL;
    if (ca->v[0]->kind != V_TUPLE)
        return ss__scn_ev_fail(e, ca->locs[0], "len() of %s", ss__scn_ev_kind_name(ca->v[0]->kind));
    return ss__scn_ev_int(e, ca->v[0]->n, ca->loc);
}

val *ss__scn_ev_op_range(ss__scn_ev *e, const callargs *ca)
{
    return ss__scn_ev_fail(e, ca->loc, "range() is only allowed in `for NAME in range(...):`");
}

val *ss__scn_ev_op_int_float(ss__scn_ev *e, const callargs *ca)
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
val *ss__scn_ev_op_astype(ss__scn_ev *e, const callargs *ca)
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

