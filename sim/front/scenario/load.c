/*
 * load.c — loading a scenario: read and parse the file, apply the
 * configuration statements (mesh, devices, hosts, device_memory, rules:
 * wherever they stand), evaluate the other top-level statements in order,
 * then the actions: `run` calls its function with the parameters bound by
 * name to the global arrays (or to explicit arguments) and marks its
 * results as program outputs, `check` and `show` find their values.
 *
 * Feeding between steps: a result returned by the bare name of a run
 * function parameter bound to a global array (`return w1, w2`) becomes
 * that array's value at the next step.
 */
#include "eval.h"
#include "front/stablehlo/import.h"
#include "strategy.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- Configuration -------------------------------------------------------- */

static bool stmt_int(ss__scn_ev *e, const ss__scn_stmt *s, int64_t lo, int64_t hi, const char *what,
                     int64_t *out)
{
    val *v = ss__scn_ev_eval(e, &e->globals, s->value);
    if (!v || !ss__scn_ev_to_int(e, v, s->value->loc, what, out))
        return false;
    if (*out < lo || *out > hi) {
        ss__scn_ev_fail(e, s->value->loc, "%s must be in %lld..%lld", what, (long long)lo,
                (long long)hi);
        return false;
    }
    return true;
}

/* Append "name=size" (comma-separated) to the scenario's mesh text; false
 * when it does not fit (the text is then left as it was). */
static bool mesh_text_add(ss_scenario *sc, const char *name, int64_t size)
{
    size_t len = strlen(sc->mesh_text);
    int w = snprintf(sc->mesh_text + len, sizeof sc->mesh_text - len, "%s%s=%lld",
                     len ? "," : "", name, (long long)size);
    if (w < 0 || (size_t)w >= sizeof sc->mesh_text - len) {
        sc->mesh_text[len] = '\0';
        return false;
    }
    return true;
}

static bool config_mesh(ss__scn_ev *e, const ss__scn_stmt *s, int order[], int *norder)
{
    ss_scenario *sc = e->sc;
    sc->mesh_text[0] = '\0';
    for (int k = 0; k < s->nkw; k++) {
        val *v = ss__scn_ev_eval(e, &e->globals, s->kwvals[k]);
        if (!v)
            return false;
        if (strcmp(s->kwnames[k], "order") == 0) {
            if (v->kind != V_TUPLE || v->n > SS_MAX_DEVICES) {
                ss__scn_ev_fail(e, s->kwlocs[k], "order lists the device id at each mesh position");
                return false;
            }
            for (int j = 0; j < v->n; j++) {
                int64_t id;
                if (!ss__scn_ev_to_int(e, v->items[j], v->items[j]->loc, "a device id", &id))
                    return false;
                if (id < 0 || id >= SS_MAX_DEVICES) {
                    ss__scn_ev_fail(e, v->items[j]->loc, "device id %lld out of range", (long long)id);
                    return false;
                }
                order[j] = (int)id;
            }
            *norder = v->n;
            continue;
        }
        int64_t size;
        if (!ss__scn_ev_to_int(e, v, s->kwvals[k]->loc, "a mesh axis size", &size))
            return false;
        if (size == 0 || size < -1 || size > SS_MAX_DEVICES) {
            ss__scn_ev_fail(e, s->kwvals[k]->loc, "mesh axis size %lld (use 1..%d, or -1 once)",
                    (long long)size, SS_MAX_DEVICES);
            return false;
        }
        if (!mesh_text_add(sc, s->kwnames[k], size)) {
            ss__scn_ev_fail(e, s->loc, "mesh description too long");
            return false;
        }
    }
    return true;
}

static bool configure_with(ss__scn_ev *e, const ss__scn_overrides *ov, const ss__scn_stmt *seen[5], int *order,
                           int *pnorder);

/* Pass 1: mesh, devices, hosts, device_memory, rules. */
static bool configure(ss__scn_ev *e, const ss__scn_overrides *ov)
{
    const ss__scn_stmt *seen[5] = {NULL};
    int *order = calloc(SS_MAX_DEVICES, sizeof *order);
    int norder = 0;
    if (!order) {
        ss__scn_ev_fail(e, (ss__scn_loc){1, 1}, "out of host memory");
        return false;
    }
    bool ok = configure_with(e, ov, seen, order, &norder);
    free(order);
    return ok;
}

/* --maxtext: the config's mesh over `devices` (or over --topology's TPU
 * slices), and its rules in place of the file's (copied: the scenario owns
 * its rules). */
static bool maxtext_mesh_and_rules(ss__scn_ev *e, const ss__scn_overrides *ov, int devices,
                                   ss__scn_loc mloc)
{
    ss_scenario *sc = e->sc;
    ss_status st = ov->topology
                       ? ss_maxtext_mesh_tpu(ov->maxtext, ov->topology, ov->slices, &sc->mesh,
                                             NULL, NULL)
                       : ss_maxtext_mesh(ov->maxtext, devices, ov->slices, &sc->mesh, NULL, NULL);
    if (st != SS_OK) {
        ss__scn_ev_fail(e, mloc, "%s", ss_error_message());
        return false;
    }
    sc->devices = ss_mesh_device_count(sc->mesh); /* a topology's count */
    const ss_rules *r = ss_maxtext_config_rules(ov->maxtext);
    ss_rule *copy = malloc(sizeof *copy * (size_t)(r->count ? r->count : 1));
    if (!copy) {
        ss__scn_ev_fail(e, mloc, "out of host memory");
        return false;
    }
    if (r->count)
        memcpy(copy, r->rules, sizeof *copy * (size_t)r->count);
    ss_rules_free(&sc->rules);
    sc->rules.rules = copy;
    sc->rules.count = r->count;
    sc->have_rules = true;
    /* The mesh as text, for what reads mesh_text after the load. */
    sc->mesh_text[0] = '\0'; /* (messages only: a text too long is cut at an axis) */
    for (int a = 0; a < ss_mesh_axis_count(sc->mesh); a++)
        if (!mesh_text_add(sc, ss_mesh_axis_name(sc->mesh, a), ss_mesh_axis_size(sc->mesh, a)))
            break;
    return true;
}

static bool configure_with(ss__scn_ev *e, const ss__scn_overrides *ov, const ss__scn_stmt *seen[5], int *order,
                           int *pnorder)
{
    ss_scenario *sc = e->sc;
    int norder = 0;
    int64_t devices = 0, hosts = 1;
    sc->device_memory = 0;
    for (int k = 0; k < sc->file.nstmts; k++) {
        const ss__scn_stmt *s = sc->file.stmts[k];
        int slot = s->kind == SS__SCN_ST_MESH ? 0 : s->kind == SS__SCN_ST_DEVICES ? 1 : s->kind == SS__SCN_ST_HOSTS ? 2
                   : s->kind == SS__SCN_ST_DEVICE_MEMORY ? 3 : s->kind == SS__SCN_ST_RULES ? 4 : -1;
        if (slot < 0)
            continue;
        if (seen[slot] && slot != 4) {
            ss__scn_ev_fail(e, s->loc, "repeated: the first is on line %d", seen[slot]->loc.line);
            return false;
        }
        seen[slot] = s;
        switch (s->kind) {
        case SS__SCN_ST_MESH:
            if (!config_mesh(e, s, order, &norder))
                return false;
            break;
        case SS__SCN_ST_DEVICES:
            if (!stmt_int(e, s, 1, SS_MAX_DEVICES, "devices", &devices))
                return false;
            break;
        case SS__SCN_ST_HOSTS:
            if (!stmt_int(e, s, 1, SS_MAX_DEVICES, "hosts", &hosts))
                return false;
            break;
        case SS__SCN_ST_DEVICE_MEMORY: {
            char text[128];
            snprintf(text, sizeof text, "%s", s->text);
            char *hash = strchr(text, '#');
            if (hash)
                *hash = '\0';
            ss_status st = ss_size_parse(text, &sc->device_memory);
            if (st || sc->device_memory == 0) {
                ss__scn_ev_fail(e, s->text_loc, "device_memory: %s",
                        st ? ss_error_message() : "must be more than 0 bytes");
                return false;
            }
            break;
        }
        case SS__SCN_ST_RULES: {
            ss_rules r = {0, NULL};
            if (ss_rules_parse(s->text, &r) != SS_OK) {
                ss__scn_ev_fail(e, s->text_loc, "%s", ss_error_message());
                return false;
            }
            int n = sc->rules.count + r.count;
            ss_rule *nr = realloc(sc->rules.rules, sizeof *nr * (size_t)(n ? n : 1));
            if (!nr) {
                ss_rules_free(&r);
                ss__scn_ev_fail(e, s->loc, "out of host memory");
                return false;
            }
            if (r.count)
                memcpy(nr + sc->rules.count, r.rules, sizeof *nr * (size_t)r.count);
            sc->rules.rules = nr;
            sc->rules.count = n;
            ss_rules_free(&r);
            sc->have_rules = true;
            sc->rules_strict = sc->rules_strict || s->strict;
            break;
        }
        default: break;
        }
    }
    ss__scn_loc mloc = seen[0] ? seen[0]->loc : (ss__scn_loc){1, 1};
    if (!seen[0] && !(ov && (ov->mesh || ov->maxtext))) {
        ss__scn_ev_fail(e, mloc, "no mesh: start the scenario with e.g. `mesh data=2 model=4`");
        return false;
    }
    if (ov && ov->mesh) {
        snprintf(sc->mesh_text, sizeof sc->mesh_text, "%s", ov->mesh);
        norder = 0;
    }
    if (ov && ov->devices)
        devices = ov->devices;
    if (ov && ov->device_memory)
        sc->device_memory = ov->device_memory;
    if (devices == 0 && !seen[0] && ov && ov->maxtext)
        devices = 8; /* no mesh in the file to count: XLA's usual fake CPU count */
    if (devices == 0) {
        /* The product of the sizes, or 8 (XLA's usual fake CPU count) with -1. */
        devices = 8;
        if (!strstr(sc->mesh_text, "-1")) {
            int64_t prod = 1;
            for (const char *p = strchr(sc->mesh_text, '='); p; p = strchr(p + 1, '=')) {
                long long v = strtoll(p + 1, NULL, 10);
                prod *= v > 0 ? v : 1;
                if (prod > SS_MAX_DEVICES)
                    prod = SS_MAX_DEVICES + 1;
            }
            devices = prod;
        }
    }
    if (devices > SS_MAX_DEVICES) {
        ss__scn_ev_fail(e, mloc, "the mesh needs more than %d devices", SS_MAX_DEVICES);
        return false;
    }
    sc->devices = (int)devices;
    sc->hosts = (int)hosts;
    if (ov && ov->maxtext) {
        if (ov->mesh) {
            ss__scn_ev_fail(e, mloc, "--mesh and --maxtext both give the mesh: pick one");
            return false;
        }
        if (!maxtext_mesh_and_rules(e, ov, (int)devices, mloc))
            return false;
        norder = 0;
    } else if (ss_mesh_make(sc->mesh_text, (int)devices, norder ? order : NULL, &sc->mesh) != SS_OK) {
        ss__scn_ev_fail(e, mloc, "%s", ss_error_message());
        return false;
    }
    *pnorder = norder;
    if (norder && norder != ss_mesh_device_count(sc->mesh)) {
        ss__scn_ev_fail(e, mloc, "order lists %d device ids but the mesh has %d positions", norder,
                ss_mesh_device_count(sc->mesh));
        return false;
    }
    for (int k = 0; k < norder; k++)
        if (order[k] >= ss_mesh_device_count(sc->mesh)) {
            ss__scn_ev_fail(e, mloc, "order: device id %d is outside 0..%d (the simulator runs "
                             "exactly the mesh's devices)", order[k],
                    ss_mesh_device_count(sc->mesh) - 1);
            return false;
        }
    int nd = ss_mesh_device_count(sc->mesh);
    if (hosts > nd || nd % hosts != 0) {
        ss__scn_ev_fail(e, seen[2] ? seen[2]->value->loc : mloc,
                "hosts must divide the mesh's %d devices", nd);
        return false;
    }
    if (ov)
        for (int k = 0; k < ov->nsets; k++) {
            val *v = ss__scn_ev_int(e, ov->set_values[k], (ss__scn_loc){0, 0});
            if (!v || !ss__scn_ev_env_set(e, &e->globals, ov->set_names[k], v, (ss__scn_loc){0, 0}))
                return false;
        }
    return ss_program_create(sc->mesh, &sc->program) == SS_OK ||
           (ss__scn_ev_fail(e, mloc, "%s", ss_error_message()), false);
}

/* --- Actions -------------------------------------------------------------- */

static const char *ret_name(const ss__scn_expr *x)
{
    return x && x->kind == SS__SCN_EX_NAME ? x->str : NULL;
}

bool ss__scn_ev_add_output(ss__scn_ev *e, ss_value v, const char *name, ss__scn_loc loc, bool extra, int feeds)
{
    ss_scenario *sc = e->sc;
    if (sc->noutputs == sc->outputs_cap) {
        int cap = sc->outputs_cap ? sc->outputs_cap * 2 : 16;
        ss__scn_output *o = realloc(sc->outputs, sizeof *o * (size_t)cap);
        if (!o) {
            ss__scn_ev_fail(e, loc, "out of host memory");
            return false;
        }
        sc->outputs = o;
        sc->outputs_cap = cap;
    }
    int before = ss_program_value_count(sc->program);
    if (!ss__scn_ev_built(e, ss_output(sc->program, v, NULL), before, loc))
        return false;
    sc->outputs[sc->noutputs++] = (ss__scn_output){v, name, loc, feeds, extra, false};
    return true;
}

static int new_array(ss__scn_ev *e, ss__scn_loc loc)
{
    ss_scenario *sc = e->sc;
    if (sc->narrays == sc->arrays_cap) {
        int cap = sc->arrays_cap ? sc->arrays_cap * 2 : 16;
        ss__scn_array *na = realloc(sc->arrays, sizeof *na * (size_t)cap);
        if (!na) {
            ss__scn_ev_fail(e, loc, "out of host memory");
            return -1;
        }
        sc->arrays = na;
        sc->arrays_cap = cap;
    }
    memset(&sc->arrays[sc->narrays], 0, sizeof sc->arrays[0]);
    sc->arrays[sc->narrays].value = -1;
    return sc->narrays++;
}

int ss__scn_ev_add_hidden_array(ss__scn_ev *e, ss_value v, const char *name, ss__scn_loc loc)
{
    ss_scenario *sc = e->sc;
    int k = new_array(e, loc);
    if (k < 0)
        return -1;
    ss__scn_array *a = &sc->arrays[k];
    a->name = name;
    a->loc = loc;
    a->is_param = true;
    a->hidden = true;
    ss__scn_ev_shape(e, v, &a->dtype, &a->rank, a->shape);
    ss__scn_ev_init_name("zeros", &a->init);
    a->value = v;
    if (sc->ninputs == sc->inputs_cap) {
        int cap = sc->inputs_cap ? sc->inputs_cap * 2 : 16;
        int *ni = realloc(sc->input_array, sizeof *ni * (size_t)cap);
        if (!ni) {
            ss__scn_ev_fail(e, loc, "out of host memory");
            return -1;
        }
        sc->input_array = ni;
        sc->inputs_cap = cap;
    }
    sc->input_array[sc->ninputs++] = k;
    if (v >= 0 && v < sc->vinfo_cap)
        sc->vinfo[v].name = name;
    return k;
}

int ss__scn_ev_array_of_value(const ss__scn_ev *e, ss_value v)
{
    for (int a = 0; a < e->sc->narrays; a++)
        if (e->sc->arrays[a].value == v)
            return a;
    return -1;
}

static bool flatten_results(ss__scn_ev *e, val *r, const ss__scn_expr *rx, val *flat[],
                            const ss__scn_expr *fexpr[], int *n, ss__scn_loc loc)
{
    if (r->kind == V_NONE)
        return true;
    if (r->kind != V_TUPLE) {
        if (*n == 256) {
            ss__scn_ev_fail(e, loc, "more than 256 results");
            return false;
        }
        flat[*n] = r;
        fexpr[(*n)++] = rx;
        return true;
    }
    for (int k = 0; k < r->n; k++) {
        const ss__scn_expr *xe = rx && (rx->kind == SS__SCN_EX_TUPLE || rx->kind == SS__SCN_EX_LIST) &&
                                     k < rx->nitems ? rx->items[k] : NULL;
        if (!flatten_results(e, r->items[k], xe, flat, fexpr, n, loc))
            return false;
    }
    return true;
}

static bool do_run(ss__scn_ev *e, const ss__scn_stmt *s, env **run_env, const ss__scn_stmt **run_def,
                   val ***run_args)
{
    ss_scenario *sc = e->sc;
    val *f = ss__scn_ev_env_get(&e->globals, s->name);
    if (!f || f->kind != V_FUNC) {
        ss__scn_ev_fail(e, s->name_loc, f ? "'%s' is not a function" : "no function named '%s'",
                s->name);
        return false;
    }
    const ss__scn_stmt *def = f->def;
    sc->run_name = s->name;
    sc->run_loc = s->name_loc;
    sc->steps = 1;
    for (int k = 0; k < s->nkw; k++) {
        bool donate = strcmp(s->kwnames[k], "donate") == 0;
        if (strcmp(s->kwnames[k], "steps") != 0 && !donate) {
            ss__scn_ev_fail(e, s->kwlocs[k], "unknown run option '%s' (run FUNCTION steps=N "
                                     "donate=True)", s->kwnames[k]);
            return false;
        }
        int64_t n;
        val *v = ss__scn_ev_eval(e, &e->globals, s->kwvals[k]);
        if (!v || !ss__scn_ev_to_int(e, v, s->kwvals[k]->loc, s->kwnames[k], &n))
            return false;
        if (donate) {
            sc->donate = n != 0;
            continue;
        }
        if (n < 1 || n > 1000000) {
            ss__scn_ev_fail(e, s->kwvals[k]->loc, "steps must be in 1..1000000");
            return false;
        }
        sc->steps = (int)n;
    }
    callargs ca;
    memset(&ca, 0, sizeof ca);
    ca.fname = s->name;
    ca.loc = s->name_loc;
    ca.v = ss__scn_alloc(&sc->arena, sizeof(val *) * (size_t)(def->nparams + 1));
    ca.locs = ss__scn_alloc(&sc->arena, sizeof(ss__scn_loc) * (size_t)(def->nparams + 1));
    if (!ca.v || !ca.locs) {
        ss__scn_ev_fail(e, s->loc, "out of host memory");
        return false;
    }
    if (s->has_call) {
        for (int k = 0; k < s->nargs; k++) {
            if (k >= def->nparams) {
                ss__scn_ev_fail(e, s->args[k]->loc, "%s() takes %d arguments", def->name, def->nparams);
                return false;
            }
            if (!(ca.v[k] = ss__scn_ev_eval(e, &e->globals, s->args[k])))
                return false;
            ca.locs[k] = s->args[k]->loc;
        }
        ca.n = s->nargs;
    } else {
        for (int k = 0; k < def->nparams; k++) {
            val *v = ss__scn_ev_env_get(&e->globals, def->params[k]);
            if (!v) {
                ss__scn_ev_fail(e, def->param_locs[k],
                        "run %s: parameter '%s' names no global array or constant (declare "
                        "it with input(...) or param(...), or call `run %s(...)`)",
                        def->name, def->params[k], def->name);
                return false;
            }
            ca.v[k] = v;
            ca.locs[k] = s->name_loc;
        }
        ca.n = def->nparams;
    }
    e->last_ret = NULL;
    val *r = ss__scn_ev_call_def(e, def, &ca, run_env);
    if (!r)
        return false;
    *run_def = def;
    *run_args = ca.v;
    const ss__scn_expr *rx = e->last_ret;
    /* The results, nested tuples flattened, each with its return expression
     * when the return statement spells it out. */
    val *flat[256];
    const ss__scn_expr *fexpr[256];
    int n = 0;
    if (!flatten_results(e, r, rx, flat, fexpr, &n, s->name_loc))
        return false;
    for (int k = 0; k < n; k++) {
        val *x = flat[k];
        const ss__scn_expr *xe = fexpr[k];
        ss__scn_loc loc = xe ? xe->loc : s->name_loc;
        if (x->kind != V_ARRAY && x->kind != V_DECL) {
            ss__scn_ev_fail(e, loc, "run %s: result %d is %s; a run function returns arrays", def->name,
                    k, ss__scn_ev_kind_name(x->kind));
            return false;
        }
        if (!(x = ss__scn_ev_array(e, x, loc, "result")))
            return false;
        const char *name = ret_name(xe);
        if (!ss__scn_ev_add_output(e, x->v, name, loc, false, x->feeds1 - 1))
            return false;
        sc->outputs[sc->noutputs - 1].name_is_result = true;
        /* Feeding: a result returned by the name of a parameter bound to a
         * global array becomes that array's value for the next step. */
        ss__scn_output *o = &sc->outputs[sc->noutputs - 1];
        for (int j = 0; name && j < def->nparams && j < ca.n; j++)
            if (strcmp(def->params[j], name) == 0 && ca.v[j]->kind == V_DECL)
                o->feeds = (int)ca.v[j]->i;
        if (o->feeds < 0 && name)
            for (int j = 0; j < def->nparams && j < ca.n; j++)
                if (strcmp(def->params[j], name) == 0 && ca.v[j]->kind == V_ARRAY)
                    for (int a = 0; a < sc->narrays; a++)
                        if (sc->arrays[a].value == ca.v[j]->v)
                            o->feeds = a;
        if (o->feeds >= 0) {
            const ss__scn_array *a = &sc->arrays[o->feeds];
            ss_dtype dt;
            int rank;
            int64_t shape[SS_MAX_RANK];
            ss__scn_ev_shape(e, x->v, &dt, &rank, shape);
            bool same = dt == a->dtype && rank == a->rank &&
                        memcmp(shape, a->shape, sizeof(int64_t) * (size_t)rank) == 0;
            if (!same) {
                ss__scn_ev_fail(e, loc, "result '%s' has another shape or dtype than the array it "
                                "would update between steps", name);
                return false;
            }
        }
    }
    return true;
}

static bool do_check(ss__scn_ev *e, const ss__scn_stmt *s, env *run_env, const ss__scn_stmt *run_def)
{
    ss_scenario *sc = e->sc;
    if (sc->nchecks == (int)(sizeof sc->checks / sizeof sc->checks[0])) {
        ss__scn_ev_fail(e, s->loc, "too many checks");
        return false;
    }
    ss__scn_check *c = &sc->checks[sc->nchecks];
    c->name = s->name;
    c->loc = s->name_loc;
    c->tol = -1;
    c->output = -1;
    for (int k = 0; k < s->nkw; k++) {
        if (strcmp(s->kwnames[k], "tol") != 0) {
            ss__scn_ev_fail(e, s->kwlocs[k], "unknown check option '%s' (check NAME tol=1e-4)",
                    s->kwnames[k]);
            return false;
        }
        val *v = ss__scn_ev_eval(e, &e->globals, s->kwvals[k]);
        if (!v || !ss__scn_ev_to_num(e, v, s->kwvals[k]->loc, "tol", &c->tol))
            return false;
        if (!(c->tol >= 0)) {
            ss__scn_ev_fail(e, s->kwvals[k]->loc, "tol must be >= 0");
            return false;
        }
    }
    if (!run_env) {
        ss__scn_ev_fail(e, s->loc, "check needs a `run FUNCTION` in the scenario");
        return false;
    }
    val *x = NULL;
    for (int k = 0; k < run_env->n; k++)
        if (strcmp(run_env->names[k], s->name) == 0)
            x = run_env->vals[k];
    if (!x)
        x = ss__scn_ev_env_get(&e->globals, s->name);
    if (!x) {
        ss__scn_ev_fail(e, s->name_loc, "check: no value, array or function named '%s'", s->name);
        return false;
    }
    if (x->kind == V_DECL) {
        for (int o = 0; o < sc->noutputs; o++)
            if (sc->outputs[o].feeds == (int)x->i)
                c->output = o;
        if (c->output < 0) {
            ss__scn_ev_fail(e, s->name_loc, "check %s: an array no result of %s updates stays what it "
                                    "was; check a value the run computes", s->name,
                    sc->run_name);
            return false;
        }
    } else if (x->kind == V_ARRAY) {
        for (int o = 0; o < sc->noutputs; o++)
            if (sc->outputs[o].value == x->v && c->output < 0)
                c->output = o;
        if (c->output < 0) {
            if (!ss__scn_ev_add_output(e, x->v, s->name, s->name_loc, true, -1))
                return false;
            c->output = sc->noutputs - 1;
        }
    } else if (x->kind == V_FUNC && x->def == run_def) {
        /* The run function itself: its results, not a second copy of it. */
        int first = sc->nchecks, nres = 0;
        for (int o = 0; o < sc->noutputs; o++) {
            if (sc->outputs[o].extra || !sc->outputs[o].name_is_result)
                continue;
            if (sc->nchecks == (int)(sizeof sc->checks / sizeof sc->checks[0])) {
                ss__scn_ev_fail(e, s->loc, "too many checks");
                return false;
            }
            ss__scn_check *ck = &sc->checks[sc->nchecks++];
            *ck = *c;
            ck->output = o;
            char buf[96];
            snprintf(buf, sizeof buf, "%s[%d]", s->name, nres++);
            ck->name = sc->outputs[o].name ? sc->outputs[o].name
                                           : ss__scn_strndup(&sc->arena, buf, strlen(buf));
        }
        if (nres == 1 && !sc->outputs[sc->checks[first].output].name)
            sc->checks[first].name = s->name;
        if (nres == 0) {
            ss__scn_ev_fail(e, s->name_loc, "check %s: the run function returns nothing", s->name);
            return false;
        }
        return true;
    } else if (x->kind == V_FUNC) {
        const ss__scn_stmt *def = x->def;
        callargs ca;
        memset(&ca, 0, sizeof ca);
        ca.fname = def->name;
        ca.loc = s->name_loc;
        ca.v = ss__scn_alloc(&sc->arena, sizeof(val *) * (size_t)(def->nparams + 1));
        ca.locs = ss__scn_alloc(&sc->arena, sizeof(ss__scn_loc) * (size_t)(def->nparams + 1));
        if (!ca.v || !ca.locs)
            return false;
        for (int k = 0; k < def->nparams; k++) {
            val *a = NULL;
            for (int j = 0; j < run_env->n; j++)
                if (strcmp(run_env->names[j], def->params[k]) == 0)
                    a = run_env->vals[j];
            if (!a)
                a = ss__scn_ev_env_get(&e->globals, def->params[k]);
            if (!a) {
                ss__scn_ev_fail(e, s->name_loc, "check %s: parameter '%s' names no value of %s and no "
                                        "global array", s->name, def->params[k],
                        run_def ? run_def->name : "the run");
                return false;
            }
            ca.v[ca.n] = a;
            ca.locs[ca.n++] = s->name_loc;
        }
        val *r = ss__scn_ev_call_def(e, def, &ca, NULL);
        if (!r)
            return false;
        if (r->kind == V_TUPLE && r->n > 0)
            r = r->items[0];
        if (!(r = ss__scn_ev_array(e, r, s->name_loc, "a checked function's result")))
            return false;
        if (!ss__scn_ev_add_output(e, r->v, s->name, s->name_loc, true, -1))
            return false;
        c->output = sc->noutputs - 1;
    } else {
        ss__scn_ev_fail(e, s->name_loc, "check %s: %s cannot be checked", s->name, ss__scn_ev_kind_name(x->kind));
        return false;
    }
    sc->nchecks++;
    return true;
}

static bool do_show(ss__scn_ev *e, const ss__scn_stmt *s, env *run_env)
{
    ss_scenario *sc = e->sc;
    if (sc->nshows == (int)(sizeof sc->shows / sizeof sc->shows[0])) {
        ss__scn_ev_fail(e, s->loc, "too many shows");
        return false;
    }
    ss__scn_show *w = &sc->shows[sc->nshows];
    w->name = s->name;
    w->loc = s->name_loc;
    w->value = -1;
    w->array = -1;
    w->row_dim = w->col_dim = -1;
    for (int k = 0; k < s->nkw; k++) {
        val *v = ss__scn_ev_eval(e, &e->globals, s->kwvals[k]);
        if (!v)
            return false;
        if (strcmp(s->kwnames[k], "dims") != 0 || v->kind != V_TUPLE || v->n != 2 ||
            v->items[0]->kind != V_INT || v->items[1]->kind != V_INT) {
            ss__scn_ev_fail(e, s->kwlocs[k], "show NAME [dims=(ROW, COL)]");
            return false;
        }
        if (v->items[0]->i < 0 || v->items[0]->i >= SS_MAX_RANK || v->items[1]->i < 0 ||
            v->items[1]->i >= SS_MAX_RANK) {
            ss__scn_ev_fail(e, s->kwvals[k]->loc, "dims out of range");
            return false;
        }
        w->row_dim = (int)v->items[0]->i;
        w->col_dim = (int)v->items[1]->i;
    }
    val *x = NULL;
    if (run_env)
        for (int k = 0; k < run_env->n; k++)
            if (strcmp(run_env->names[k], s->name) == 0)
                x = run_env->vals[k];
    if (!x)
        x = ss__scn_ev_env_get(&e->globals, s->name);
    if (!x) {
        ss__scn_ev_fail(e, s->name_loc, "show: no array named '%s'", s->name);
        return false;
    }
    if (x->kind == V_DECL) {
        w->array = (int)x->i;
        w->value = sc->arrays[x->i].value;
    } else if (x->kind == V_ARRAY) {
        w->value = x->v;
    } else {
        ss__scn_ev_fail(e, s->name_loc, "show %s: %s has no sharding to show", s->name,
                ss__scn_ev_kind_name(x->kind));
        return false;
    }
    sc->nshows++;
    return true;
}

/* --- Loading -------------------------------------------------------------- */

static bool read_file(ss_scenario *sc, const char *path)
{
    int e = ss__read_file(path, SS__SCN_FILE_MAX, &sc->src, &sc->len);
    if (e == EFBIG)
        ss__scn_fail(&sc->err, (ss__scn_loc){0, 0}, "file larger than 64 MiB");
    else if (e == ENOMEM)
        ss__scn_fail(&sc->err, (ss__scn_loc){0, 0}, "out of host memory");
    else if (e)
        ss__scn_fail(&sc->err, (ss__scn_loc){0, 0}, "cannot open: %s", strerror(e));
    return e == 0;
}

ss_status ss__scn_load(ss_scenario *sc, const char *path, const char *text, const ss__scn_overrides *ov)
{
    memset(sc, 0, sizeof *sc);
    sc->path = path;
    ss__scn_arena_init(&sc->arena);
    if (text) {
        sc->len = strlen(text);
        if (!(sc->src = malloc(sc->len + 1)))
            return ss__scn_fail(&sc->err, (ss__scn_loc){0, 0}, "out of host memory");
        memcpy(sc->src, text, sc->len + 1);
    } else if (!read_file(sc, path)) {
        return strstr(sc->err.msg, "out of host memory") ? SS_ERR_NOMEM : SS_ERR_IO;
    }
    if (memchr(sc->src, '\0', sc->len))
        return ss__scn_fail(&sc->err, (ss__scn_loc){1, 1}, "the file contains a NUL byte");
    if (ss__shlo_is_mlir(sc->src, sc->len)) { /* jax.jit(f).lower(...).as_text() */
        if (ov && ov->maxtext)
            return ss__scn_fail(&sc->err, (ss__scn_loc){0, 0}, "--maxtext applies to scenarios: "
                                "a StableHLO module's shardings are already resolved");
        if (ov && (ov->nsets || ov->strategy))
            return ss__scn_fail(&sc->err, (ss__scn_loc){0, 0}, "--%s applies to scenarios; this "
                                "file is a StableHLO module", ov->nsets ? "set" : "strategy");
        return ss__shlo_import(sc, ov);
    }
    if (ov && ov->inputs)
        return ss__scn_fail(&sc->err, (ss__scn_loc){0, 0}, "--inputs applies to StableHLO "
                            "modules (.mlir); a scenario declares its inputs");
    if (ss__scn_lex(sc->src, sc->len, &sc->arena, &sc->toks, &sc->err) ||
        ss__scn_parse(sc->src, &sc->toks, &sc->arena, &sc->file, &sc->err))
        return SS_ERR_PARSE;

    ss__scn_ev e = {.sc = sc, .budget = BUDGET};
    env *run_env = NULL;
    const ss__scn_stmt *run_def = NULL;
    val **run_args = NULL;
    bool ok = configure(&e, ov);
    const ss__scn_stmt *run = NULL;
    unsigned used_sets = 0;
    for (int k = 0; ok && k < sc->file.nstmts; k++) {
        const ss__scn_stmt *s = sc->file.stmts[k];
        if (s->kind == SS__SCN_ST_ASSIGN && s->ntargets == 1 && s->value->kind == SS__SCN_EX_CALL &&
            s->value->a->kind == SS__SCN_EX_NAME &&
            (strcmp(s->value->a->str, "input") == 0 || strcmp(s->value->a->str, "param") == 0) &&
            !ss__scn_ev_env_get(&e.globals, s->value->a->str)) {
            ok = ss__scn_ev_declare_array(&e, s);
            continue;
        }
        if (s->kind == SS__SCN_ST_RUN) {
            if (run) {
                ss__scn_ev_fail(&e, s->loc, "one run per scenario (the first is on line %d)",
                        run->loc.line);
                ok = false;
            }
            run = s;
            continue;
        }
        if (s->kind == SS__SCN_ST_PRINT) {
            static const char *const what[] = {"memory", "ledger", "values", "program",
                                               "explain"};
            unsigned bit = 0;
            for (int j = 0; j < 5; j++)
                if (strcmp(s->name, what[j]) == 0)
                    bit = 1u << j;
            if (!bit || s->nkw) {
                ss__scn_ev_fail(&e, s->name_loc, "print memory, ledger, values, program or explain");
                ok = false;
            }
            sc->prints |= bit;
            continue;
        }
        if (s->kind == SS__SCN_ST_SHOW || s->kind == SS__SCN_ST_CHECK || ss__scn_is_print_stmt(s))
            continue;
        if (s->kind == SS__SCN_ST_SAVE || s->kind == SS__SCN_ST_RESTORE) {
            ok = ss__scn_ev_ckpt_stmt(&e, s, run != NULL); /* ckpt.c */
            continue;
        }
        bool overridden = false;
        for (int j = 0; ov && s->kind == SS__SCN_ST_ASSIGN && s->ntargets == 1 && j < ov->nsets; j++)
            if (strcmp(ov->set_names[j], s->targets[0]) == 0) {
                overridden = true;
                used_sets |= 1u << j;
            }
        if (overridden)
            continue; /* --set NAME=N wins over the file's NAME = ... */
        ok = ss__scn_ev_exec_global(&e, s);
    }
    for (int j = 0; ok && ov && j < ov->nsets; j++)
        if (!((used_sets >> j) & 1u)) {
            ss__scn_ev_fail(&e, (ss__scn_loc){0, 0}, "--set %s: the scenario has no constant %s = ...",
                    ov->set_names[j], ov->set_names[j]);
            ok = false;
        }
    if (ok)
        ok = ss__scn_strategy_apply(&e, ov); /* the params' specs (strategy.c) */
    if (ok && run)
        ok = do_run(&e, run, &run_env, &run_def, &run_args);
    for (int k = 0; ok && k < sc->file.nstmts; k++) {
        const ss__scn_stmt *s = sc->file.stmts[k];
        if (s->kind == SS__SCN_ST_CHECK)
            ok = do_check(&e, s, run_env, run_def);
        else if (s->kind == SS__SCN_ST_SHOW)
            ok = do_show(&e, s, run_env);
        else if (ss__scn_is_print_stmt(s) && !run_env) {
            ss__scn_ev_fail(&e, s->loc, "print(...) at the top level shows values the run computes: "
                                "it needs a `run FUNCTION`");
            ok = false;
        } else if (ss__scn_is_print_stmt(s))
            ok = ss__scn_ev_print_stmt(&e, run_env, s, true);
    }
    (void)run_args;
    if (run_env) {
        ss__scn_ev_env_free(run_env);
        free(run_env);
    }
    ss__scn_ev_env_free(&e.globals);
    if (!ok && !sc->err.set)
        ss__scn_fail(&sc->err, (ss__scn_loc){1, 1}, "%s", ss_error_message());
    return ok ? SS_OK : SS_ERR_PARSE;
}

void ss__scn_free(ss_scenario *sc)
{
    ss_program_destroy(sc->program);
    ss__scn_strategy_free(sc->strategy);
    ss_mesh_destroy(sc->mesh);
    ss_rules_free(&sc->rules);
    free(sc->arrays);
    free(sc->vinfo);
    free(sc->input_array);
    free(sc->outputs);
    ss__scn_tokens_free(&sc->toks);
    ss__scn_arena_free(&sc->arena);
    free(sc->src);
    memset(sc, 0, sizeof *sc);
}

ss__scn_loc ss__scn_value_loc(const ss_scenario *sc, ss_value v)
{
    if (v >= 0 && v < sc->vinfo_cap)
        return sc->vinfo[v].loc;
    return (ss__scn_loc){0, 0};
}

const char *ss__scn_value_name(const ss_scenario *sc, ss_value v)
{
    return v >= 0 && v < sc->vinfo_cap ? sc->vinfo[v].name : NULL;
}

ss__scn_loc ss__scn_loc_from_message(const ss_scenario *sc, const char *msg)
{
    for (const char *p = msg ? strchr(msg, '%') : NULL; p; p = strchr(p + 1, '%'))
        if (isdigit((unsigned char)p[1])) {
            long v = strtol(p + 1, NULL, 10);
            if (v >= 0 && v < sc->vinfo_cap && sc->vinfo[v].loc.line > 0)
                return sc->vinfo[v].loc;
        }
    return (ss__scn_loc){0, 0};
}
