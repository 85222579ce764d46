/*
 * transforms.c — the scenario language's function transforms and
 * manual parallelism: shard_map and its collectives (psum, all_gather,
 * psum_scatter, all_to_all, ppermute), lax.scan, jax.grad and
 * value_and_grad, and the optax optimizers (sgd, adam, adamw), each driving
 * the builder API of shardsim.h.
 */
#include "eval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- shard_map and collectives ---------------------------------------------------- */

static bool specs_arg(ss__scn_ev *e, val *x, ss__scn_loc loc, const char *what, int *n, ss_spec **out)
{
    if (x && x->kind == V_SPEC) {
        *n = -1;
        *out = x->spec;
        return true;
    }
    if (!x || x->kind != V_TUPLE) {
        ss__scn_ev_fail(e, loc, "shard_map: %s is a PartitionSpec or a tuple of them", what);
        return false;
    }
    *out = ss__scn_alloc(&e->sc->arena, sizeof **out * (size_t)(x->n + 1));
    if (!*out)
        return false;
    for (int k = 0; k < x->n; k++) {
        if (x->items[k]->kind != V_SPEC) {
            ss__scn_ev_fail(e, x->items[k]->loc, "shard_map: %s[%d] is %s, not a PartitionSpec", what,
                    k, ss__scn_ev_kind_name(x->items[k]->kind));
            return false;
        }
        (*out)[k] = *x->items[k]->spec;
    }
    *n = x->n;
    return true;
}

val *ss__scn_ev_op_shard_map(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"mesh", "in_specs", "out_specs", "check_rep",
                                      "check_vma", NULL};
    if (!ss__scn_ca_check(e, ca, 1, 1, kws))
        return NULL;
    if (ca->v[0]->kind != V_FUNC)
        return ss__scn_ev_fail(e, ca->locs[0], "shard_map: the first argument is a function (def)");
    val *r = ss__scn_ev_new(e, V_SHARD_MAP, ca->loc);
    if (!r || !(r->smap = ss__scn_alloc(&e->sc->arena, sizeof *r->smap)))
        return NULL;
    r->smap->def = ca->v[0]->def;
    ss__scn_loc l1, l2;
    val *in = ss__scn_ca_get(ca, -1, "in_specs", &l1), *out = ss__scn_ca_get(ca, -1, "out_specs", &l2);
    if (!specs_arg(e, in, l1, "in_specs", &r->smap->nin, &r->smap->in_specs) ||
        !specs_arg(e, out, l2, "out_specs", &r->smap->nout, &r->smap->out_specs))
        return NULL;
    for (int k = 0; k < 2; k++) {
        ss__scn_loc l;
        val *c = ss__scn_ca_get(ca, -1, k ? "check_rep" : "check_vma", &l);
        int64_t on = 1;
        if (c && !ss__scn_ev_to_int(e, c, l, k ? "check_rep" : "check_vma", &on))
            return NULL;
        r->smap->unchecked = r->smap->unchecked || !on;
    }
    return r;
}

val *ss__scn_ev_call_shard_map(ss__scn_ev *e, const shard_map_info *sm, const callargs *ca)
{
    if (ca->nkw)
        return ss__scn_ev_fail(e, ca->kwl[0], "a shard_map function takes positional arguments");
    if (ca->n > 16)
        return ss__scn_ev_fail(e, ca->loc, "shard_map: at most 16 arguments");
    if (sm->nin >= 0 && sm->nin != ca->n)
        return ss__scn_ev_fail(e, ca->loc, "shard_map: in_specs has %d entries for %d arguments",
                       sm->nin, ca->n);
    ss_value xs[16], locals[16];
    ss_spec specs[16];
    for (int k = 0; k < ca->n; k++) {
        val *a = ss__scn_ev_array(e, ca->v[k], ca->locs[k], "a shard_map argument");
        if (!a)
            return NULL;
        xs[k] = a->v;
        specs[k] = sm->in_specs[sm->nin < 0 ? 0 : k];
    }
    BEFORE();
    if (!ss__scn_ev_built(e, ss_shard_map_begin(PROG, ca->n, xs, specs, locals), before, ca->loc))
        return NULL;
    callargs inner = *ca;
    inner.v = ss__scn_alloc(&e->sc->arena, sizeof(val *) * (size_t)(ca->n + 1));
    if (!inner.v)
        return NULL;
    for (int k = 0; k < ca->n; k++) {
        if (!(inner.v[k] = ss__scn_ev_array_val(e, locals[k], ca->locs[k])))
            return NULL;
        /* Each device's block goes by the body's parameter name (--watch x). */
        if (k < sm->def->nparams && locals[k] >= 0 && locals[k] < e->sc->vinfo_cap &&
            !e->sc->vinfo[locals[k]].name)
            e->sc->vinfo[locals[k]].name = sm->def->params[k];
    }
    val *r = ss__scn_ev_call_def(e, sm->def, &inner, NULL);
    if (!r)
        return NULL;
    int n = r->kind == V_TUPLE ? r->n : 1;
    if ((sm->nout < 0 && r->kind == V_TUPLE) || (sm->nout >= 0 && sm->nout != n) || n > 16)
        return ss__scn_ev_fail(e, ca->loc, "shard_map: %s returns %d value%s but out_specs has %d",
                       sm->def->name, n, n == 1 ? "" : "s", sm->nout < 0 ? 1 : sm->nout);
    ss_value ls[16], outs[16];
    ss_spec os[16];
    for (int k = 0; k < n; k++) {
        val *x = r->kind == V_TUPLE ? r->items[k] : r;
        if (!(x = ss__scn_ev_array(e, x, ca->loc, "a shard_map result")))
            return NULL;
        ls[k] = x->v;
        os[k] = sm->out_specs[sm->nout < 0 ? 0 : k];
    }
    before = ss_program_value_count(PROG);
    ss_status st = sm->unchecked ? ss_shard_map_end_unchecked(PROG, n, ls, os, outs)
                                 : ss_shard_map_end(PROG, n, ls, os, outs);
    if (!ss__scn_ev_built(e, st, before, ca->loc))
        return NULL;
    if (r->kind != V_TUPLE)
        return ss__scn_ev_array_val(e, outs[0], ca->loc);
    val *t = ss__scn_ev_new(e, V_TUPLE, ca->loc);
    if (!t || !(t->items = ss__scn_alloc(&e->sc->arena, sizeof(val *) * (size_t)n)))
        return NULL;
    for (int k = 0; k < n; k++)
        if (!(t->items[t->n++] = ss__scn_ev_array_val(e, outs[k], ca->loc)))
            return NULL;
    return t;
}

/* The axis_name argument: 'x' or ('x', 'y'), as text for the builder. */
static bool axes_text(ss__scn_ev *e, val *x, ss__scn_loc loc, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    int n = x && x->kind == V_TUPLE ? x->n : 1;
    for (int k = 0; k < n; k++) {
        val *a = x && x->kind == V_TUPLE ? x->items[k] : x;
        if (!a || a->kind != V_STR) {
            ss__scn_ev_fail(e, a ? a->loc : loc, "axis_name is a mesh axis name or a tuple of names");
            return false;
        }
        int w = snprintf(out + len, cap - len, "%s%s", k ? "," : "", a->s);
        if (w < 0 || (size_t)w >= cap - len) {
            ss__scn_ev_fail(e, loc, "axis_name too long");
            return false;
        }
        len += (size_t)w;
    }
    return true;
}

/* axis_index(axis_name): this device's index along the axes, in a
 * shard_map body (an f32 scalar; see ss_axis_index). */
val *ss__scn_ev_op_axis_index(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"axis_name", NULL};
    if (!ss__scn_ca_check(e, ca, 1, 1, kws))
        return NULL;
    ss__scn_loc loc;
    char axes[4096]; /* axis names joined by commas */
    if (!axes_text(e, ss__scn_ca_get(ca, 0, "axis_name", &loc), loc, axes, sizeof axes))
        return NULL;
    ss_value out;
    BEFORE();
    ss_status st = ss_axis_index(PROG, axes, &out);
    return ss__scn_built(e, st, before, ca->loc, out);
}

val *ss__scn_ev_op_collective(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"axis_name", "axis", "tiled", "scatter_dimension",
                                      "split_axis", "concat_axis", "perm", NULL};
    if (!ss__scn_ca_check(e, ca, 1, 4, kws))
        return NULL;
    val *x = ss__scn_arr_arg(e, ca, 0, NULL);
    if (!x)
        return NULL;
    ss__scn_loc loc;
    char axes[4096]; /* axis names joined by commas */
    if (!axes_text(e, ss__scn_ca_get(ca, 1, "axis_name", &loc), loc, axes, sizeof axes))
        return NULL;
    const char *f = ca->fname;
    int64_t tiled = 0, a1 = 0, a2 = 0;
    ss_value out;
    ss_status st;
    BEFORE();
    if (!ss__scn_int_arg(e, ca, -1, "tiled", 0, &tiled))
        return NULL;
    if (f[0] == 'p' && f[1] != 'p' && strcmp(f, "psum_scatter") != 0) {
        ss_reduce_op op = strcmp(f, "psum") == 0    ? SS_REDUCE_SUM
                          : strcmp(f, "pmean") == 0 ? SS_REDUCE_MEAN
                          : strcmp(f, "pmax") == 0  ? SS_REDUCE_MAX
                                                    : SS_REDUCE_MIN;
        if (ca->n > 2)
            return ss__scn_ev_fail(e, ca->locs[2], "%s(x, axis_name)", f);
        st = ss_psum(PROG, x->v, axes, op, &out);
    } else if (strncmp(f, "all_gather", 10) == 0) {
        if (!ss__scn_int_arg(e, ca, 2, "axis", 0, &a1))
            return NULL;
        int ax = (int)(a1 < -99 || a1 > 99 ? 99 : a1);
        st = strcmp(f, "all_gather_invariant") == 0
                 ? ss_all_gather_invariant(PROG, x->v, axes, ax, tiled != 0, &out)
                 : ss_all_gather(PROG, x->v, axes, ax, tiled != 0, &out);
    } else if (strcmp(f, "psum_scatter") == 0) {
        if (!ss__scn_int_arg(e, ca, 2, "scatter_dimension", 0, &a1))
            return NULL;
        st = ss_psum_scatter(PROG, x->v, axes, (int)(a1 < -99 || a1 > 99 ? 99 : a1),
                             tiled != 0, &out);
    } else if (strcmp(f, "all_to_all") == 0) {
        if (!ss__scn_int_arg(e, ca, 2, "split_axis", 0, &a1) ||
            !ss__scn_int_arg(e, ca, 3, "concat_axis", 0, &a2))
            return NULL;
        st = ss_all_to_all(PROG, x->v, axes, (int)(a1 < -99 || a1 > 99 ? 99 : a1),
                           (int)(a2 < -99 || a2 > 99 ? 99 : a2), tiled != 0, &out);
    } else { /* ppermute */
        val *perm = ss__scn_ca_get(ca, 2, "perm", &loc);
        if (!perm || perm->kind != V_TUPLE || perm->n > SS_MAX_DEVICES)
            return ss__scn_ev_fail(e, loc, "ppermute: perm is a list of (source, target) pairs");
        int (*pairs)[2] = ss__scn_alloc(&e->sc->arena, sizeof *pairs * (size_t)(perm->n + 1));
        if (!pairs)
            return NULL;
        for (int k = 0; k < perm->n; k++) {
            val *p = perm->items[k];
            int64_t s, t;
            if (p->kind != V_TUPLE || p->n != 2 ||
                !ss__scn_ev_to_int(e, p->items[0], p->loc, "a source", &s) ||
                !ss__scn_ev_to_int(e, p->items[1], p->loc, "a target", &t))
                return e->sc->err.set ? NULL : ss__scn_ev_fail(e, p->loc, "a perm pair is (source, "
                                                                  "target)");
            if (s < 0 || t < 0 || s >= SS_MAX_DEVICES || t >= SS_MAX_DEVICES)
                return ss__scn_ev_fail(e, p->loc, "perm pair out of range");
            pairs[k][0] = (int)s;
            pairs[k][1] = (int)t;
        }
        st = ss_ppermute(PROG, x->v, axes, perm->n, (const int(*)[2])pairs, &out);
    }
    ss_status st_ = st;
    return ss__scn_built(e, st_, before, ca->loc, out);
}

/* --- Not yet ------------------------------------------------------------------ */

val *ss__scn_ev_op_not_yet(ss__scn_ev *e, const callargs *ca)
{
    const char *why = "the builder API has no such op yet";
    if (strcmp(ca->fname, "scan") == 0)
        why = "the builder has no scan yet; unroll it with `for i in range(N):` and index the "
              "stacked params (w[i])";
    else if (strstr(ca->fname, "grad"))
        why = "the builder has no autodiff yet";
    else if (strcmp(ca->fname, "adam") == 0 || strcmp(ca->fname, "sgd") == 0 ||
             strcmp(ca->fname, "adamw") == 0)
        why = "the builder has no optimizers yet; write the update, e.g. w - lr * g";
    return ss__scn_ev_fail(e, ca->loc, "%s is not supported yet: %s", ca->fname, why);
}


/* --- grad and value_and_grad ------------------------------------------------ */

val *ss__scn_ev_op_grad(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"argnums", NULL};
    if (!ss__scn_ca_check(e, ca, 1, 2, kws))
        return NULL;
    if (ca->v[0]->kind != V_FUNC)
        return ss__scn_ev_fail(e, ca->locs[0], "%s: the first argument is a function (def)", ca->fname);
    val *r = ss__scn_ev_new(e, V_GRAD, ca->loc);
    if (!r || !(r->grad = ss__scn_alloc(&e->sc->arena, sizeof *r->grad)))
        return NULL;
    grad_info *g = r->grad;
    g->def = ca->v[0]->def;
    g->with_value = strcmp(ca->fname, "value_and_grad") == 0;
    ss__scn_loc loc;
    val *an = ss__scn_ca_get(ca, 1, "argnums", &loc);
    if (!an) {
        g->nargnums = 1;
        return r;
    }
    int n = an->kind == V_TUPLE ? an->n : 1;
    if (n < 1 || n > 16)
        return ss__scn_ev_fail(e, loc, "argnums lists 1 to 16 argument positions");
    g->tuple = an->kind == V_TUPLE;
    for (int k = 0; k < n; k++) {
        int64_t i;
        val *x = an->kind == V_TUPLE ? an->items[k] : an;
        if (!ss__scn_ev_to_int(e, x, x->loc, "an argnum", &i))
            return NULL;
        if (i < 0 || i >= g->def->nparams)
            return ss__scn_ev_fail(e, x->loc, "argnums %lld is out of range for %s() with %d "
                                      "parameters", (long long)i, g->def->name,
                           g->def->nparams);
        g->argnums[k] = (int)i;
    }
    g->nargnums = n;
    return r;
}

/* Flatten an argument (an array or a tuple of them) into program values. */
static bool flatten(ss__scn_ev *e, val *x, ss__scn_loc loc, ss_value out[], int cap, int *n)
{
    if (x->kind == V_TUPLE) {
        for (int k = 0; k < x->n; k++)
            if (!flatten(e, x->items[k], x->items[k]->loc, out, cap, n))
                return false;
        return true;
    }
    if (*n == cap) {
        ss__scn_ev_fail(e, loc, "at most %d arrays here", cap);
        return false;
    }
    val *a = ss__scn_ev_array(e, x, loc, "a differentiated argument");
    if (!a)
        return false;
    out[(*n)++] = a->v;
    return true;
}

/* Rebuild the structure of `like` from values[*at...]. */
static val *unflatten(ss__scn_ev *e, const val *like, const ss_value values[], int *at, ss__scn_loc loc)
{
    if (like->kind != V_TUPLE)
        return ss__scn_ev_array_val(e, values[(*at)++], loc);
    val *t = ss__scn_ev_new(e, V_TUPLE, loc);
    if (!t || !(t->items = ss__scn_alloc(&e->sc->arena, sizeof(val *) * (size_t)(like->n + 1))))
        return NULL;
    for (int k = 0; k < like->n; k++)
        if (!(t->items[t->n++] = unflatten(e, like->items[k], values, at, loc)))
            return NULL;
    return ss__scn_ev_tuple_done(e, t, loc);
}

/* Arrays become program values first, so that the function and the
 * gradient see the same values. */
static val *as_arrays(ss__scn_ev *e, val *x, ss__scn_loc loc)
{
    if (x->kind != V_TUPLE)
        return x->kind == V_DECL || ss__scn_ev_is_num(x) ? ss__scn_ev_array(e, x, loc, "an argument") : x;
    val *t = ss__scn_ev_new(e, V_TUPLE, loc);
    if (!t || !(t->items = ss__scn_alloc(&e->sc->arena, sizeof(val *) * (size_t)(x->n + 1))))
        return NULL;
    for (int k = 0; k < x->n; k++)
        if (!(t->items[t->n++] = as_arrays(e, x->items[k], loc)))
            return NULL;
    return ss__scn_ev_tuple_done(e, t, loc);
}

val *ss__scn_ev_call_grad(ss__scn_ev *e, const grad_info *g, const callargs *ca)
{
    callargs inner = *ca;
    inner.v = ss__scn_alloc(&e->sc->arena, sizeof(val *) * (size_t)(ca->n + 1));
    if (!inner.v)
        return NULL;
    for (int k = 0; k < ca->n; k++) {
        bool wrt = false;
        for (int j = 0; j < g->nargnums; j++)
            wrt = wrt || g->argnums[j] == k;
        inner.v[k] = wrt ? as_arrays(e, ca->v[k], ca->locs[k]) : ca->v[k];
        if (!inner.v[k])
            return NULL;
    }
    for (int j = 0; j < g->nargnums; j++)
        if (g->argnums[j] >= ca->n)
            return ss__scn_ev_fail(e, ca->loc, "%s: argnums %d but only %d arguments were given",
                           g->def->name, g->argnums[j], ca->n);
    val *r = ss__scn_ev_call_def(e, g->def, &inner, NULL);
    if (!r)
        return NULL;
    if (r->kind == V_TUPLE && r->n > 0) /* has_aux-style (loss, aux): the loss */
        r = r->items[0];
    if (!(r = ss__scn_ev_array(e, r, ca->loc, "the differentiated function's result")))
        return NULL;
    ss_value wrt[64], grads[64];
    int n = 0;
    for (int j = 0; j < g->nargnums; j++)
        if (!flatten(e, inner.v[g->argnums[j]], ca->locs[g->argnums[j]], wrt, 64, &n))
            return NULL;
    ss_value loss;
    BEFORE();
    ss_status st = g->with_value ? ss_value_and_grad(PROG, r->v, n, wrt, &loss, grads)
                                 : ss_grad(PROG, r->v, n, wrt, grads);
    if (!ss__scn_ev_built(e, st, before, ca->loc))
        return NULL;
    int at = 0;
    val *out;
    if (!g->tuple) {
        out = unflatten(e, inner.v[g->argnums[0]], grads, &at, ca->loc);
    } else {
        out = ss__scn_ev_new(e, V_TUPLE, ca->loc);
        if (!out || !(out->items = ss__scn_alloc(&e->sc->arena, sizeof(val *) * 17)))
            return NULL;
        for (int j = 0; j < g->nargnums; j++)
            if (!(out->items[out->n++] = unflatten(e, inner.v[g->argnums[j]], grads, &at,
                                                   ca->loc)))
                return NULL;
        out = ss__scn_ev_tuple_done(e, out, ca->loc);
    }
    if (!out || !g->with_value)
        return out;
    val *t = ss__scn_ev_new(e, V_TUPLE, ca->loc);
    if (!t || !(t->items = ss__scn_alloc(&e->sc->arena, sizeof(val *) * 2)))
        return NULL;
    t->n = 2;
    if (!(t->items[0] = ss__scn_ev_array_val(e, loss, ca->loc)))
        return NULL;
    t->items[1] = out;
    return ss__scn_ev_tuple_done(e, t, ca->loc);
}

/* --- Optimizers ----------------------------------------------------------------- */

static bool num_opt(ss__scn_ev *e, const callargs *ca, int pos, const char *kw, const char *alias,
                    double *out)
{
    ss__scn_loc loc;
    val *x = ss__scn_ca_get(ca, pos, kw, &loc);
    if (!x && alias)
        x = ss__scn_ca_get(ca, -1, alias, &loc);
    if (!x)
        return true;
    return ss__scn_ev_to_num(e, x, loc, kw, out);
}

/* Each new param (leaves in order) updates the array of its old param. */
static void mark_feeds(ss__scn_ev *e, val *r, const ss_value params[], int n, int *leaf)
{
    if (r->kind == V_TUPLE) {
        for (int k = 0; k < r->n; k++)
            mark_feeds(e, r->items[k], params, n, leaf);
        return;
    }
    if (r->kind == V_ARRAY && *leaf < n)
        r->feeds1 = ss__scn_ev_array_of_value(e, params[*leaf]) + 1;
    (*leaf)++;
}

/* sgd / adam / adamw(params, grads, lr, ...): one optax step. The state
 * (momentum trace, mu, nu, count) becomes program inputs starting at zero
 * and outputs that feed them at the next step. */
val *ss__scn_ev_op_optimizer(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"learning_rate", "lr", "momentum", "nesterov", "b1",
                                      "b2", "eps", "eps_root", "weight_decay", NULL};
    if (!ss__scn_ca_check(e, ca, 2, 3, kws))
        return NULL;
    ss_optim o;
    double lr = strcmp(ca->fname, "sgd") == 0 ? 1e-2 : 1e-3, mom = 0, nest = 0;
    if (!num_opt(e, ca, 2, "learning_rate", "lr", &lr) ||
        !num_opt(e, ca, -1, "momentum", NULL, &mom) ||
        !num_opt(e, ca, -1, "nesterov", NULL, &nest))
        return NULL;
    if (strcmp(ca->fname, "sgd") == 0)
        o = mom != 0 ? ss_optim_momentum(lr, mom, nest != 0) : ss_optim_sgd(lr);
    else if (strcmp(ca->fname, "adam") == 0)
        o = ss_optim_adam(lr);
    else
        o = ss_optim_adamw(lr, 1e-4);
    if (!num_opt(e, ca, -1, "b1", NULL, &o.b1) || !num_opt(e, ca, -1, "b2", NULL, &o.b2) ||
        !num_opt(e, ca, -1, "eps", NULL, &o.eps) ||
        !num_opt(e, ca, -1, "eps_root", NULL, &o.eps_root) ||
        !num_opt(e, ca, -1, "weight_decay", NULL, &o.weight_decay))
        return NULL;
    ss_value params[64], grads[64], state[129], np[64], ns[129];
    int n = 0, ng = 0;
    if (!flatten(e, ca->v[0], ca->locs[0], params, 64, &n) ||
        !flatten(e, ca->v[1], ca->locs[1], grads, 64, &ng))
        return NULL;
    if (n != ng)
        return ss__scn_ev_fail(e, ca->locs[1], "%s: %d params but %d grads", ca->fname, n, ng);
    int nstate = ss_optim_state_count(&o, n);
    BEFORE();
    if (!ss__scn_ev_built(e, ss_optim_state_inputs(PROG, &o, n, params, state), before, ca->loc))
        return NULL;
    /* The state's names, in ss_optim_state_inputs' order. */
    for (int k = 0; k < nstate; k++) {
        int per = n ? k / n : 0, i = n ? k % n : 0;
        int a = ss__scn_ev_array_of_value(e, params[i < n ? i : 0]);
        const char *pname = a >= 0 ? e->sc->arrays[a].name : "param";
        const char *suffix = o.kind == SS_OPTIM_MOMENTUM ? "trace" : per == 0 ? "mu" : "nu";
        char buf[160];
        if (k == nstate - 1 && (o.kind == SS_OPTIM_ADAM || o.kind == SS_OPTIM_ADAMW))
            snprintf(buf, sizeof buf, "%s.count", ca->fname);
        else
            snprintf(buf, sizeof buf, "%s.%s", pname, suffix);
        const char *name = ss__scn_strndup(&e->sc->arena, buf, strlen(buf));
        if (!name || ss__scn_ev_add_hidden_array(e, state[k], name, ca->loc) < 0)
            return NULL;
    }
    before = ss_program_value_count(PROG);
    if (!ss__scn_ev_built(e, ss_optim_update(PROG, &o, n, params, grads, state, np, ns), before, ca->loc))
        return NULL;
    for (int k = 0; k < nstate; k++)
        if (!ss__scn_ev_add_output(e, ns[k], ss__scn_value_name(e->sc, state[k]), ca->loc, false,
                           ss__scn_ev_array_of_value(e, state[k])))
            return NULL;
    int at = 0;
    val *r = unflatten(e, ca->v[0], np, &at, ca->loc);
    int leaf = 0;
    if (r)
        mark_feeds(e, r, params, n, &leaf);
    return r;
}

/* --- scan --------------------------------------------------------------------------- */

typedef struct scan_ctx {
    ss__scn_ev *e;
    const ss__scn_stmt *def;
    val *init, *xs; /* structure templates */
    int ncarry, nys;
    ss__scn_loc loc;
} scan_ctx;

static ss_status scan_body(ss_program *p, const ss_value carry[], const ss_value xs[],
                           ss_value new_carry[], ss_value ys[], void *user)
{
    (void)p;
    scan_ctx *s = user;
    ss__scn_ev *e = s->e;
    int at = 0, ax = 0;
    callargs ca;
    memset(&ca, 0, sizeof ca);
    ca.fname = s->def->name;
    ca.loc = s->loc;
    val *args[2];
    ss__scn_loc locs[2] = {s->loc, s->loc};
    args[0] = unflatten(e, s->init, carry, &at, s->loc);
    args[1] = s->xs ? unflatten(e, s->xs, xs, &ax, s->loc) : ss__scn_ev_new(e, V_NONE, s->loc);
    if (!args[0] || !args[1])
        return SS_ERR_PARSE;
    ca.n = 2;
    ca.v = args;
    ca.locs = locs;
    val *r = ss__scn_ev_call_def(e, s->def, &ca, NULL);
    if (!r)
        return SS_ERR_PARSE;
    if (r->kind != V_TUPLE || r->n != 2) {
        ss__scn_ev_fail(e, s->loc, "scan: %s must return (carry, y)", s->def->name);
        return SS_ERR_PARSE;
    }
    int nc = 0, ny = 0;
    if (!flatten(e, r->items[0], s->loc, new_carry, s->ncarry, &nc))
        return SS_ERR_PARSE;
    if (r->items[1]->kind != V_NONE && !flatten(e, r->items[1], s->loc, ys, s->nys, &ny))
        return SS_ERR_PARSE;
    if (nc != s->ncarry || ny != s->nys) {
        ss__scn_ev_fail(e, s->loc, "scan: %s returns %d carries and %d outputs; expected %d and %d",
                s->def->name, nc, ny, s->ncarry, s->nys);
        return SS_ERR_PARSE;
    }
    return SS_OK;
}

/* How many stacked outputs the body returns, from its return statement:
 * return carry, None -> 0; return carry, (a, b) -> 2; else 1. */
static int count_ys(const ss__scn_stmt *const *body, int n)
{
    for (int k = 0; k < n; k++) {
        const ss__scn_stmt *s = body[k];
        if (s->kind == SS__SCN_ST_RETURN && s->value && s->value->kind == SS__SCN_EX_TUPLE &&
            s->value->nitems == 2) {
            const ss__scn_expr *y = s->value->items[1];
            return y->kind == SS__SCN_EX_NONE ? 0 : y->kind == SS__SCN_EX_TUPLE ? y->nitems : 1;
        }
        if (s->kind == SS__SCN_ST_FOR) {
            int c = count_ys((const ss__scn_stmt *const *)s->body, s->nbody);
            if (c >= 0)
                return c;
        }
    }
    return -1;
}

val *ss__scn_ev_op_scan(ss__scn_ev *e, const callargs *ca)
{
    static const char *const kws[] = {"init", "xs", "length", NULL};
    if (!ss__scn_ca_check(e, ca, 2, 3, kws))
        return NULL;
    if (ca->v[0]->kind != V_FUNC)
        return ss__scn_ev_fail(e, ca->locs[0], "scan: the first argument is a function f(carry, x) "
                                       "returning (carry, y)");
    ss__scn_loc l1, l2;
    val *init = ss__scn_ca_get(ca, 1, "init", &l1), *xs = ss__scn_ca_get(ca, 2, "xs", &l2);
    int64_t length = -1;
    if (!init || !ss__scn_int_arg(e, ca, -1, "length", -1, &length))
        return e->sc->err.set ? NULL : ss__scn_ev_fail(e, ca->loc, "scan(f, init, xs, length=None)");
    if (xs && xs->kind == V_NONE)
        xs = NULL;
    ss_value iv[32], xv[32], fc[32], ys[32];
    int nc = 0, nx = 0;
    if (!(init = as_arrays(e, init, l1)) || !flatten(e, init, l1, iv, 32, &nc) ||
        (xs && (!(xs = as_arrays(e, xs, l2)) || !flatten(e, xs, l2, xv, 32, &nx))))
        return NULL;
    const ss__scn_stmt *def = ca->v[0]->def;
    int ny = count_ys((const ss__scn_stmt *const *)def->body, def->nbody);
    scan_ctx s = {e, def, init, xs, nc, ny < 0 ? 1 : ny, ca->loc};
    if (s.nys > 32)
        return ss__scn_ev_fail(e, ca->loc, "scan: at most 32 outputs");
    BEFORE();
    ss_status st = ss_scan(PROG, scan_body, &s, length, nc, iv, nx, xv, s.nys, fc, ys);
    if (st) {
        if (!e->sc->err.set)
            ss__scn_ev_fail(e, ca->loc, "%s", ss_error_message());
        return NULL;
    }
    if (!ss__scn_ev_built(e, st, before, ca->loc))
        return NULL;
    int at = 0;
    val *t = ss__scn_ev_new(e, V_TUPLE, ca->loc);
    if (!t || !(t->items = ss__scn_alloc(&e->sc->arena, sizeof(val *) * 2)))
        return NULL;
    t->n = 2;
    if (!(t->items[0] = unflatten(e, init, fc, &at, ca->loc)))
        return NULL;
    if (s.nys == 0) {
        t->items[1] = ss__scn_ev_new(e, V_NONE, ca->loc);
    } else if (s.nys == 1) {
        t->items[1] = ss__scn_ev_array_val(e, ys[0], ca->loc);
    } else {
        val *y = ss__scn_ev_new(e, V_TUPLE, ca->loc);
        if (!y || !(y->items = ss__scn_alloc(&e->sc->arena, sizeof(val *) * (size_t)s.nys)))
            return NULL;
        for (int k = 0; k < s.nys; k++)
            if (!(y->items[y->n++] = ss__scn_ev_array_val(e, ys[k], ca->loc)))
                return NULL;
        t->items[1] = y;
    }
    return t->items[1] ? ss__scn_ev_tuple_done(e, t, ca->loc) : NULL;
}
