/*
 * ckpt.c — the scenario statements `save DIR step=N [force]` and
 * `restore DIR step=N [partial]`, on top of the checkpoint layer
 * (shardsim.h "Checkpoints").
 *
 * What the statements act on: the scenario's params and the optimizer state
 * the run made (its hidden arrays), by their full tree path as Orbax names
 * them (ckpt_name: path='dot1/w1' is "dot1.w1", else the variable name);
 * optimizer state is stored under "opt_state.<path>" ("opt_state.w1.mu")
 * so that a param and its state never make a leaf and a subtree of the
 * same key. A restore also finds arrays under their variable names, as
 * shardsim saved them before. Inputs (batches)
 * are not state and are never saved or restored.
 *
 * When: in file order around the one `run`. The statements above `run`
 * act on the initial values before the first step (a restore there feeds
 * the run, and the single-device reference of `check` too); those below it
 * act on the values after the last step. Without a run every statement
 * acts in order on the initial values.
 *
 * Where the values live: each statement runs on fresh virtual devices of
 * the scenario's size and capacity, so its measured per-device peak is its
 * own (a restore's equals ss_ckpt_restore_plan's) and the run's memory
 * report stays the run's. Between statements the values are host copies,
 * which is also how they feed the run.
 *
 * Layouts. A restore gives each param its declared sharding, and
 * optimizer state its param's (else the partitioner's layout for it); a
 * param declared without a spec gets the sharding it was saved with, or
 * the checkpoint layer's "Topology mismatch" / out-of-memory report when
 * that does not fit: never a silent full copy (the seed's case,
 * docs/checkpoints.md section 4).
 * A save writes each array in its current layout: the restored one while
 * no step has changed it, else the declared spec, else the layout the
 * partitioner gave it, else device 0 alone (an uncommitted jnp array: JAX's
 * SingleDeviceSharding).
 *
 * `plan` reads checkpoint metadata only: each restore's per-device peak
 * (ss_ckpt_restore_plan), its layouts for `show`, and whether it fits.
 * What this file does not do: save or restore inputs, take an item name,
 * keep the last N steps, or plan a save's peak.
 */
#include "eval.h"

#include "base/json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* --- Statements, as the loader checked them --------------------------------- */

typedef struct ck_stmt {
    bool restore;
    bool flag;      /* restore: partial; save: force */
    bool ocdbt;     /* save: layout='ocdbt' */
    bool after_run; /* stands below the `run` statement */
    const char *dir;
    int64_t step;
    ss__scn_loc loc, dir_loc;
} ck_stmt;

struct ss__scn_ckpt_script {
    int n, cap;
    ck_stmt *v;
};

bool ss__scn_ev_ckpt_stmt(ss__scn_ev *e, const ss__scn_stmt *s, bool after_run)
{
    ss_scenario *sc = e->sc;
    const char *word = s->kind == SS__SCN_ST_RESTORE ? "restore" : "save";
    const char *usage = s->kind == SS__SCN_ST_RESTORE ? "restore DIR step=N [partial]"
                                              : "save DIR step=N [layout='ocdbt'] [force]";
    if (!sc->ckpt) {
        int n = 0;
        for (int k = 0; k < sc->file.nstmts; k++)
            n += sc->file.stmts[k]->kind == SS__SCN_ST_SAVE || sc->file.stmts[k]->kind == SS__SCN_ST_RESTORE;
        sc->ckpt = ss__scn_alloc(&sc->arena, sizeof *sc->ckpt);
        if (sc->ckpt)
            sc->ckpt->v = ss__scn_alloc(&sc->arena, sizeof *sc->ckpt->v * (size_t)(n ? n : 1));
        if (!sc->ckpt || !sc->ckpt->v) {
            ss__scn_ev_fail(e, s->loc, "out of host memory");
            return false;
        }
        sc->ckpt->cap = n;
    }
    if (sc->ckpt->n == sc->ckpt->cap) {
        ss__scn_ev_fail(e, s->loc, "%s: statement count changed while loading", word);
        return false;
    }
    ck_stmt c;
    memset(&c, 0, sizeof c);
    c.restore = s->kind == SS__SCN_ST_RESTORE;
    c.after_run = after_run;
    c.loc = s->loc;
    c.dir_loc = s->value->loc;
    c.step = -1;
    val *d = ss__scn_ev_eval(e, &e->globals, s->value);
    if (!d)
        return false;
    if (d->kind != V_STR || !d->s[0]) {
        ss__scn_ev_fail(e, s->value->loc, "%s: DIR is the checkpoint directory as a string, e.g. "
                                  "'/tmp/ckpt', not %s (%s)",
                word, d->kind == V_STR ? "an empty string" : ss__scn_ev_kind_name(d->kind), usage);
        return false;
    }
    c.dir = d->s;
    for (int k = 0; k < s->nkw; k++) {
        if (!c.restore && strcmp(s->kwnames[k], "layout") == 0) {
            val *v = ss__scn_ev_eval(e, &e->globals, s->kwvals[k]);
            if (!v)
                return false;
            if (v->kind != V_STR || (strcmp(v->s, "ocdbt") != 0 && strcmp(v->s, "files") != 0)) {
                ss__scn_ev_fail(e, s->kwvals[k]->loc, "save: layout is 'ocdbt' (Orbax's default: "
                                                      "one OCDBT store per item) or 'files' (one "
                                                      "file per chunk, the default)");
                return false;
            }
            c.ocdbt = strcmp(v->s, "ocdbt") == 0;
            continue;
        }
        if (strcmp(s->kwnames[k], "step") != 0) {
            ss__scn_ev_fail(e, s->kwlocs[k], "unknown %s option '%s' (%s)", word, s->kwnames[k], usage);
            return false;
        }
        val *v = ss__scn_ev_eval(e, &e->globals, s->kwvals[k]);
        if (!v || !ss__scn_ev_to_int(e, v, s->kwvals[k]->loc, "step", &c.step))
            return false;
        if (c.step < 0) {
            ss__scn_ev_fail(e, s->kwvals[k]->loc, "step must be >= 0");
            return false;
        }
    }
    if (c.step < 0) {
        ss__scn_ev_fail(e, s->loc, "%s needs step=N (%s)", word, usage);
        return false;
    }
    if (s->name) {
        const char *want = c.restore ? "partial" : "force";
        if (strcmp(s->name, want) != 0) {
            ss__scn_ev_fail(e, s->name_loc, "unknown %s flag '%s' (%s)", word, s->name, usage);
            return false;
        }
        c.flag = true;
    }
    sc->ckpt->v[sc->ckpt->n++] = c;
    return true;
}

/* --- Run-time state ------------------------------------------------------------ */

/* One array a statement saved or restored, for the report. */
typedef struct ck_item {
    int array;
    char name[SS_CKPT_NAME_MAX];
    char layout[400];   /* "NamedSharding(...)" or "SingleDeviceSharding(device=cpu:0)" */
    const char *source; /* restore: "target", "saved"; save: "restored", "declared",
                           "partitioner", "uncommitted" (device 0 alone) */
} ck_item;

/* What one statement did (run) or will do (plan). */
typedef struct ck_event {
    bool done;          /* run: it ran */
    bool planned;       /* plan_peak holds the restore's plan */
    int nitems;
    ck_item *items;
    uint64_t bytes_needed, bytes_read, bytes_written, bytes_logical;
    size_t *peak;       /* run: measured per device */
    size_t *plan_peak;  /* restore: planned per device */
    char note[256];
} ck_event;

/* The layout a restore gave an array (mesh owned here). */
typedef struct ck_layout {
    bool set;
    bool current; /* no step has changed the values since */
    bool saved;   /* the saved sharding (no target) */
    int stmt;
    ss_mesh *mesh;
    ss_sharding sh;
} ck_layout;

struct ss__scn_ckpt_rt {
    const ss_scenario *sc;
    bool plan;
    int nd;
    void **cur;        /* by array index: host values of params and state */
    ck_layout *layout; /* by array index */
    ck_event *events;  /* one per statement */
    ss_mesh *single;   /* device 0 alone */
    ss_context *plan_ctx;
};

static const ck_stmt *stmt_of(const ss_scenario *sc, int k) { return &sc->ckpt->v[k]; }

static bool saves_state(const ss__scn_array *a) { return a->is_param; }

/* The tree path `path` ("dot1/w1") with its keys joined by '.' ("dot1.w1"),
 * as Orbax names the parameter (tree utils' get_param_names), after
 * `prefix` and before `suffix`; false when it does not fit in `cap`. */
static bool dotted(char *buf, size_t cap, const char *prefix, const char *path,
                   const char *suffix)
{
    size_t a = strlen(prefix), b = strlen(path), c = strlen(suffix);
    if (a + b + c >= cap)
        return false;
    memcpy(buf, prefix, a);
    for (size_t i = 0; i < b; i++)
        buf[a + i] = path[i] == '/' ? '.' : path[i];
    memcpy(buf + a + b, suffix, c + 1);
    return true;
}

/* The name array a is saved and restored under: its full tree path, as
 * Orbax names the leaf of {'dot1': {'w1': ...}} "dot1.w1" (directory
 * DIR/STEP/default/dot1.w1, _METADATA key "('dot1', 'w1')"): the param's
 * path= with '/' as '.', else its variable name. Optimizer state "P.mu"
 * of param P is "opt_state.<P's name>.mu". False when the name is longer
 * than a checkpoint name may be. */
static bool ckpt_name(const ss_scenario *sc, const ss__scn_array *a, char *buf, size_t cap)
{
    if (!a->hidden)
        return dotted(buf, cap, "", a->path ? a->path : a->name, "");
    const char *dot = strrchr(a->name, '.');
    for (int k = 0; dot && k < sc->narrays; k++) {
        const ss__scn_array *p = &sc->arrays[k];
        size_t len = (size_t)(dot - a->name);
        if (!p->hidden && p->path && strlen(p->name) == len &&
            strncmp(p->name, a->name, len) == 0)
            return dotted(buf, cap, "opt_state.", p->path, dot);
    }
    return dotted(buf, cap, "opt_state.", a->name, "");
}

/* The name shardsim used before arrays were named by their path: the
 * variable name (kept readable: a restore falls back to it). */
static void old_ckpt_name(const ss__scn_array *a, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s%s", a->hidden ? "opt_state." : "", a->name);
}

static size_t array_bytes(const ss__scn_array *a)
{
    size_t n = ss_dtype_size(a->dtype);
    for (int d = 0; d < a->rank; d++)
        n *= (size_t)a->shape[d];
    return n;
}

static void layout_text(const ss_sharding *sh, char *buf, size_t cap)
{
    if (ss_mesh_axis_count(sh->mesh) == 0) {
        snprintf(buf, cap, "SingleDeviceSharding(device=cpu:%d)", ss_mesh_device_id(sh->mesh, 0));
        return;
    }
    char mesh[4096], spec[4096];
    if (ss_mesh_repr(sh->mesh, 0, mesh, sizeof mesh) != SS_OK)
        snprintf(mesh, sizeof mesh, "Mesh(?)");
    if (ss_spec_repr(&sh->spec, spec, sizeof spec) != SS_OK)
        snprintf(spec, sizeof spec, "P(?)");
    snprintf(buf, cap, "NamedSharding(mesh=%.150s, spec=%.150s)", mesh, spec);
}

/* A copy of `m` the runtime owns (restored arrays' meshes die with their state). */
static ss_status mesh_copy(const ss_mesh *m, ss_mesh **out)
{
    int naxes = ss_mesh_axis_count(m), nd = ss_mesh_device_count(m);
    const char *names[SS_MAX_AXES];
    int64_t sizes[SS_MAX_AXES];
    for (int a = 0; a < naxes; a++) {
        names[a] = ss_mesh_axis_name(m, a);
        sizes[a] = ss_mesh_axis_size(m, a);
    }
    int *ids = malloc(sizeof *ids * (size_t)nd);
    if (!ids)
        return ss__fail(SS_ERR_NOMEM, "out of host memory");
    for (int p = 0; p < nd; p++)
        ids[p] = ss_mesh_device_id(m, p);
    ss_status st = ss_mesh_create(naxes, names, sizes, nd, ids, out);
    free(ids);
    return st;
}

static void layout_clear(ck_layout *l)
{
    ss_mesh_destroy(l->mesh);
    memset(l, 0, sizeof *l);
}

static ss_status layout_set(ck_layout *l, const ss_sharding *sh, bool saved, int stmt)
{
    ss_mesh *m;
    ss_status st = mesh_copy(sh->mesh, &m);
    if (st)
        return st;
    layout_clear(l);
    l->set = l->current = true;
    l->saved = saved;
    l->stmt = stmt;
    l->mesh = m;
    ss_sharding_init(&l->sh, m, &sh->spec);
    return SS_OK;
}

void ss__scn_ckpt_destroy(ss__scn_ckpt_rt *rt)
{
    if (!rt)
        return;
    const ss_scenario *sc = rt->sc;
    for (int a = 0; rt->cur && a < sc->narrays; a++)
        free(rt->cur[a]);
    for (int a = 0; rt->layout && a < sc->narrays; a++)
        layout_clear(&rt->layout[a]);
    for (int k = 0; rt->events && k < sc->ckpt->n; k++) {
        free(rt->events[k].items);
        free(rt->events[k].peak);
        free(rt->events[k].plan_peak);
    }
    free(rt->cur);
    free(rt->layout);
    free(rt->events);
    ss_mesh_destroy(rt->single);
    ss_context_destroy(rt->plan_ctx);
    free(rt);
}

/* Exit status 2 (bad input) or 1 (does not fit) with the message at `loc`. */
static int fail(ss__scn_error *err, int code, ss__scn_loc loc, const char *fmt, ...) SS__PRINTF(4, 5);
static int fail(ss__scn_error *err, int code, ss__scn_loc loc, const char *fmt, ...)
{
    char msg[sizeof err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ss__scn_fail(err, loc, "%s", msg);
    return code;
}

/* A checkpoint layer failure of statement `c`: out of memory and topology
 * mismatches are "does not fit" (1), the rest bad input (2), pointed at DIR
 * when it is about the files. */
static int fail_status(ss__scn_error *err, const ck_stmt *c, ss_status st)
{
    const char *msg = ss_error_message();
    int code = st == SS_ERR_DEVICE_OOM || st == SS_ERR_MESH ? SS__SCN_EXIT_CHECK : SS__SCN_EXIT_USAGE;
    ss__scn_loc loc = st == SS_ERR_IO || st == SS_ERR_PARSE ? c->dir_loc : c->loc;
    if (strstr(msg, "partial_restore=True"))
        return fail(err, code, loc, "%s (in a scenario: restore DIR step=N partial)", msg);
    return fail(err, code, loc, "%s", msg);
}

static ss__scn_ckpt_rt *rt_create(const ss_scenario *sc, bool plan, ss__scn_error *err, int *code)
{
    ss__scn_ckpt_rt *rt = calloc(1, sizeof *rt);
    int n = sc->ckpt->n;
    if (rt) {
        rt->sc = sc;
        rt->plan = plan;
        rt->nd = ss_mesh_device_count(sc->mesh);
        rt->cur = calloc((size_t)sc->narrays + 1, sizeof *rt->cur);
        rt->layout = calloc((size_t)sc->narrays + 1, sizeof *rt->layout);
        rt->events = calloc((size_t)n + 1, sizeof *rt->events);
    }
    if (!rt || !rt->cur || !rt->layout || !rt->events ||
        ss_mesh_create(0, NULL, NULL, 1, NULL, &rt->single) != SS_OK) {
        ss__scn_ckpt_destroy(rt);
        *code = fail(err, SS__SCN_EXIT_CHECK, (ss__scn_loc){0, 0}, "out of host memory");
        return NULL;
    }
    if (plan)
        return rt;
    /* Host copies of every param and state array, from their initializers. */
    double total = 0;
    for (int a = 0; a < sc->narrays; a++)
        if (saves_state(&sc->arrays[a]))
            total += (double)array_bytes(&sc->arrays[a]);
    if (total > 8.0 * (1u << 30)) {
        char t[32];
        ss__fmt_bytes(t, sizeof t, total);
        *code = fail(err, SS__SCN_EXIT_CHECK, stmt_of(sc, 0)->loc,
                     "save/restore: the params and state need %s of host memory (limit 8 GiB); "
                     "plan it instead: shardsim plan", t);
        ss__scn_ckpt_destroy(rt);
        return NULL;
    }
    for (int a = 0; a < sc->narrays; a++) {
        const ss__scn_array *x = &sc->arrays[a];
        if (!saves_state(x))
            continue;
        size_t b = array_bytes(x);
        if (!(rt->cur[a] = malloc(b ? b : 1))) {
            ss__scn_ckpt_destroy(rt);
            *code = fail(err, SS__SCN_EXIT_CHECK, (ss__scn_loc){0, 0}, "out of host memory");
            return NULL;
        }
        ss__scn_init_fill(x, rt->cur[a]);
    }
    return rt;
}

static ss_status fresh_context(const ss_scenario *sc, int nd, size_t memory, ss_context **out)
{
    ss_context_options co = {.ndevices = nd, .device_memory = memory, .hosts = sc->hosts,
                             .timeout = 60};
    return ss_context_create(&co, out);
}

static bool event_alloc(ck_event *evt, int nitems, int nd, bool peak, bool plan_peak)
{
    evt->items = calloc((size_t)nitems + 1, sizeof *evt->items);
    evt->peak = peak ? calloc((size_t)nd, sizeof *evt->peak) : NULL;
    evt->plan_peak = plan_peak ? calloc((size_t)nd, sizeof *evt->plan_peak) : NULL;
    return evt->items && (!peak || evt->peak) && (!plan_peak || evt->plan_peak);
}

/* --- Restore ------------------------------------------------------------------- */

/* The target sharding of array a (the abstract state's): its declared spec.
 * Optimizer state takes the spec of its param ("w1.mu" -> w1) when the
 * shapes agree, else the layout the partitioner gave it (what
 * eval_shape of a jitted optimizer init carries). Else none. */
static bool target_sharding(const ss_scenario *sc, const ss__scn_array *a, ss_sharding *sh)
{
    memset(sh, 0, sizeof *sh);
    if (a->has_spec) {
        ss_sharding_init(sh, sc->mesh, &a->spec);
        return true;
    }
    const char *dot = a->hidden ? strrchr(a->name, '.') : NULL;
    if (!dot)
        return false;
    size_t len = (size_t)(dot - a->name);
    for (int k = 0; k < sc->narrays; k++) {
        const ss__scn_array *p = &sc->arrays[k];
        if (p->hidden || !p->has_spec || strlen(p->name) != len ||
            strncmp(p->name, a->name, len) != 0 || p->rank != a->rank ||
            memcmp(p->shape, a->shape, sizeof(int64_t) * (size_t)a->rank) != 0)
            continue;
        ss_sharding_init(sh, sc->mesh, &p->spec);
        return true;
    }
    if (a->value >= 0 && sc->program && ss_value_sharding(sc->program, a->value, sh) == SS_OK &&
        !sh->partial_mask && !sh->manual_mask)
        return true;
    memset(sh, 0, sizeof *sh);
    return false;
}

/* The restore's item: every param; optimizer state too, except, with
 * `partial`, state the checkpoint does not hold (it keeps its zeros, as an
 * item without opt_state). Fills targets/arrays/names; *n the count. */
static int restore_targets(const ss__scn_ckpt_rt *rt, const ck_stmt *c, ss_ckpt_target *targets,
                           int *arrays, char (*names)[SS_CKPT_NAME_MAX], int *n,
                           ss__scn_error *err)
{
    const ss_scenario *sc = rt->sc;
    ss_ckpt *ck;
    ss_status st = ss_ckpt_open(c->dir, c->step, NULL, &ck);
    if (st)
        return fail_status(err, c, st);
    *n = 0;
    for (int a = 0; a < sc->narrays; a++) {
        const ss__scn_array *x = &sc->arrays[a];
        if (!saves_state(x))
            continue;
        if (!ckpt_name(sc, x, names[*n], SS_CKPT_NAME_MAX)) {
            ss_ckpt_close(ck);
            return fail(err, SS__SCN_EXIT_USAGE, x->loc, "restore: the tree path of '%s' is longer "
                                                    "than %d characters",
                        x->name, SS_CKPT_NAME_MAX - 1);
        }
        char old[SS_CKPT_NAME_MAX];
        old_ckpt_name(x, old, sizeof old);
        if (ss_ckpt_array_find(ck, names[*n]) < 0 && ss_ckpt_array_find(ck, old) >= 0)
            snprintf(names[*n], SS_CKPT_NAME_MAX, "%s", old); /* saved before paths */
        if (x->hidden && c->flag && ss_ckpt_array_find(ck, names[*n]) < 0)
            continue;
        ss_ckpt_target *t = &targets[*n];
        memset(t, 0, sizeof *t);
        t->name = names[*n];
        t->dtype = x->dtype;
        t->rank = x->rank;
        memcpy(t->shape, x->shape, sizeof t->shape);
        target_sharding(sc, x, &t->sharding);
        arrays[(*n)++] = a;
    }
    ss_ckpt_close(ck);
    if (*n == 0)
        return fail(err, SS__SCN_EXIT_USAGE, c->loc,
                    "restore: the scenario declares no param to restore (declare them with "
                    "param(...))");
    return SS__SCN_EXIT_OK;
}

/* "restore: device 3 would need ..." for a plan that does not fit, in the
 * checkpoint layer's words. */
static int plan_oom(const ss__scn_ckpt_rt *rt, const ck_stmt *c, const ck_event *evt, int d,
                    ss__scn_error *err)
{
    const ss_scenario *sc = rt->sc;
    char need[32], cap[32], names[600] = "", saved[400] = "";
    size_t len = 0;
    int k = 0;
    ss__fmt_bytes(need, sizeof need, (double)evt->plan_peak[d]);
    ss__fmt_bytes(cap, sizeof cap, (double)sc->device_memory);
    for (int i = 0; i < evt->nitems; i++) {
        const ck_layout *l = &rt->layout[evt->items[i].array];
        if (!l->saved || ss_mesh_position_of(l->sh.mesh, d) < 0 || len >= sizeof names)
            continue;
        len += (size_t)snprintf(names + len, sizeof names - len, "%s'%s'", k++ ? ", " : "",
                                evt->items[i].name);
        snprintf(saved, sizeof saved, "%s", evt->items[i].layout);
    }
    if (k)
        return fail(err, SS__SCN_EXIT_CHECK, c->loc,
                    "restore: device %d out of memory: it needs %zu bytes (%s: its target shards "
                    "and staging buffer) but has %zu (%s); %s %s no target sharding, so %s saved "
                    "%s would be used (Orbax: \"Sharding info not provided when restoring\"); "
                    "give target shardings",
                    d, evt->plan_peak[d], need, sc->device_memory, cap, names,
                    k > 1 ? "have" : "has", k > 1 ? "their" : "its", saved);
    return fail(err, SS__SCN_EXIT_CHECK, c->loc,
                "restore: device %d out of memory: it needs %zu bytes (%s: its target shards and "
                "staging buffer) but has %zu (%s)",
                d, evt->plan_peak[d], need, sc->device_memory, cap);
}

/* Was (dir, step) written by a save above statement k? Its index, or -1. */
static int earlier_save(const ss_scenario *sc, int k)
{
    const ck_stmt *c = stmt_of(sc, k);
    for (int j = k - 1; j >= 0; j--) {
        const ck_stmt *s = stmt_of(sc, j);
        if (!s->restore && s->step == c->step && strcmp(s->dir, c->dir) == 0)
            return j;
    }
    return -1;
}

static int do_restore(ss__scn_ckpt_rt *rt, int k, ss__scn_error *err)
{
    const ss_scenario *sc = rt->sc;
    const ck_stmt *c = stmt_of(sc, k);
    ck_event *evt = &rt->events[k];
    int na = sc->narrays, n = 0;
    ss_ckpt_target *targets = calloc((size_t)na + 1, sizeof *targets);
    int *arrays = calloc((size_t)na + 1, sizeof *arrays);
    char(*names)[SS_CKPT_NAME_MAX] = calloc((size_t)na + 1, sizeof *names);
    ss_context *ctx = NULL;
    ss_ckpt_state *state = NULL;
    int code = SS__SCN_EXIT_OK;
    if (!targets || !arrays || !names || !event_alloc(evt, na, rt->nd, !rt->plan, true)) {
        code = fail(err, SS__SCN_EXIT_CHECK, c->loc, "out of host memory");
        goto out;
    }
    if (rt->plan && earlier_save(sc, k) >= 0) {
        struct stat sb;
        char path[4200];
        snprintf(path, sizeof path, "%s/%lld", c->dir, (long long)c->step);
        if (stat(path, &sb) != 0) {
            /* plan writes nothing: the layouts of declared specs are known,
             * the rest and the peak are not. */
            snprintf(evt->note, sizeof evt->note,
                     "not planned: the save on line %d writes this checkpoint when the "
                     "scenario runs (plan writes nothing)",
                     stmt_of(sc, earlier_save(sc, k))->loc.line);
            evt->planned = false;
            for (int a = 0; a < na; a++) {
                ss_sharding sh;
                if (!saves_state(&sc->arrays[a]) || !target_sharding(sc, &sc->arrays[a], &sh))
                    continue;
                ck_item *it = &evt->items[evt->nitems++];
                it->array = a;
                if (!ckpt_name(sc, &sc->arrays[a], it->name, sizeof it->name))
                    snprintf(it->name, sizeof it->name, "%s", sc->arrays[a].name);
                layout_text(&sh, it->layout, sizeof it->layout);
                it->source = "target";
                if (layout_set(&rt->layout[a], &sh, false, k) != SS_OK) {
                    code = fail(err, SS__SCN_EXIT_CHECK, c->loc, "%s", ss_error_message());
                    goto out;
                }
            }
            goto out;
        }
    }
    if ((code = restore_targets(rt, c, targets, arrays, names, &n, err)))
        goto out;
    ss_ckpt_restore_options opts = {.partial = c->flag};
    ss_status st;
    if (rt->plan) {
        /* The plan needs the device count only: no memory is reserved. */
        if (!rt->plan_ctx && (st = fresh_context(sc, rt->nd, (size_t)1 << 20, &rt->plan_ctx))) {
            code = fail_status(err, c, st);
            goto out;
        }
        ctx = rt->plan_ctx;
    } else if ((st = fresh_context(sc, rt->nd, sc->device_memory, &ctx))) {
        code = fail_status(err, c, st);
        goto out;
    }
    st = ss_ckpt_restore_plan(ctx, c->dir, c->step, n, targets, &opts, evt->plan_peak, rt->nd,
                              &evt->bytes_needed, &evt->bytes_read);
    if (st) {
        code = fail_status(err, c, st);
        goto out;
    }
    evt->planned = true;
    if (!rt->plan) {
        ss_ckpt_stats stats;
        if ((st = ss_ckpt_restore(ctx, c->dir, c->step, n, targets, &opts, &state, &stats))) {
            code = fail_status(err, c, st);
            goto out;
        }
        evt->bytes_needed = stats.bytes_needed;
        evt->bytes_read = stats.bytes_read;
        for (int d = 0; d < rt->nd; d++) {
            ss_memory_stats ms;
            if (ss_device_memory_stats(ctx, d, &ms) == SS_OK)
                evt->peak[d] = ms.peak_bytes;
        }
    }
    /* The layouts (and, when running, the values). */
    ss_ckpt *ck = NULL;
    if (rt->plan && (st = ss_ckpt_open(c->dir, c->step, NULL, &ck))) {
        code = fail_status(err, c, st);
        goto out;
    }
    for (int i = 0; i < n; i++) {
        int a = arrays[i];
        ss_sharding sh = targets[i].sharding;
        ss_mesh *own = NULL;
        bool saved = !sh.mesh;
        if (state) {
            ss_array *arr = ss_ckpt_state_array(state, i);
            sh = *ss_array_sharding(arr);
            st = ss_array_get(arr, rt->cur[a], array_bytes(&sc->arrays[a]));
        } else if (saved) {
            st = ss_ckpt_saved_sharding(ck, ss_ckpt_array_find(ck, targets[i].name), rt->nd,
                                        &own, &sh);
        } else {
            st = SS_OK;
        }
        if (st == SS_OK)
            st = layout_set(&rt->layout[a], &sh, saved, k);
        ss_mesh_destroy(own);
        if (st) {
            ss_ckpt_close(ck);
            code = fail_status(err, c, st);
            goto out;
        }
        ck_item *it = &evt->items[evt->nitems++];
        it->array = a;
        snprintf(it->name, sizeof it->name, "%s", targets[i].name);
        layout_text(&rt->layout[a].sh, it->layout, sizeof it->layout);
        it->source = saved ? "saved" : "target";
    }
    ss_ckpt_close(ck);
    /* A plan that does not fit fails as the restore would. */
    for (int d = 0; rt->plan && d < rt->nd; d++)
        if (evt->plan_peak[d] > sc->device_memory) {
            code = plan_oom(rt, c, evt, d, err);
            goto out;
        }
    evt->done = !rt->plan;
out:
    ss_ckpt_state_destroy(state);
    if (ctx != rt->plan_ctx)
        ss_context_destroy(ctx);
    free(targets);
    free(arrays);
    free(names);
    return code;
}

/* --- Save ---------------------------------------------------------------------- */

/* The layout array a is saved in (file comment: "A save writes ..."). */
static const char *save_layout(const ss__scn_ckpt_rt *rt, int a, bool ran, ss_sharding *sh)
{
    const ss_scenario *sc = rt->sc;
    const ss__scn_array *x = &sc->arrays[a];
    const ck_layout *l = &rt->layout[a];
    if (l->set && l->current) {
        *sh = l->sh;
        return "restored";
    }
    if (x->has_spec) {
        ss_sharding_init(sh, sc->mesh, &x->spec);
        return "declared";
    }
    ss_value v = x->value;
    for (int o = 0; ran && o < sc->noutputs; o++)
        if (sc->outputs[o].feeds == a)
            v = sc->outputs[o].value;
    if (v >= 0 && sc->program && ss_value_sharding(sc->program, v, sh) == SS_OK &&
        !sh->partial_mask && !sh->manual_mask) {
        bool concrete = true;
        for (int d = 0; d < sh->spec.ndims; d++)
            concrete = concrete && !sh->spec.dims[d].unconstrained;
        if (concrete)
            return "partitioner";
    }
    ss_spec none;
    memset(&none, 0, sizeof none);
    ss_sharding_init(sh, rt->single, &none);
    return "uncommitted";
}

static int do_save(ss__scn_ckpt_rt *rt, int k, bool ran, ss__scn_error *err)
{
    const ss_scenario *sc = rt->sc;
    const ck_stmt *c = stmt_of(sc, k);
    ck_event *evt = &rt->events[k];
    int na = sc->narrays, n = 0;
    ss_array **arrs = calloc((size_t)na + 1, sizeof *arrs);
    const char **names = calloc((size_t)na + 1, sizeof *names);
    ss_context *ctx = NULL;
    int code = SS__SCN_EXIT_OK;
    ss_status st;
    if (!arrs || !names || !event_alloc(evt, na, rt->nd, !rt->plan, false)) {
        code = fail(err, SS__SCN_EXIT_CHECK, c->loc, "out of host memory");
        goto out;
    }
    for (int a = 0; a < na; a++) {
        if (!saves_state(&sc->arrays[a]))
            continue;
        ck_item *it = &evt->items[evt->nitems++];
        ss_sharding sh;
        it->array = a;
        if (!ckpt_name(sc, &sc->arrays[a], it->name, sizeof it->name)) {
            code = fail(err, SS__SCN_EXIT_USAGE, sc->arrays[a].loc, "save: the tree path of '%s' is "
                                                               "longer than %d characters",
                        sc->arrays[a].name, SS_CKPT_NAME_MAX - 1);
            goto out;
        }
        it->source = save_layout(rt, a, ran, &sh);
        layout_text(&sh, it->layout, sizeof it->layout);
        evt->bytes_logical += array_bytes(&sc->arrays[a]);
    }
    if (evt->nitems == 0) {
        code = fail(err, SS__SCN_EXIT_USAGE, c->loc,
                    "save: the scenario declares no param to save (declare them with "
                    "param(...))");
        goto out;
    }
    if (rt->plan) {
        snprintf(evt->note, sizeof evt->note, "not planned: plan writes nothing");
        goto out;
    }
    if ((st = fresh_context(sc, rt->nd, sc->device_memory, &ctx))) {
        code = fail_status(err, c, st);
        goto out;
    }
    for (int i = 0; i < evt->nitems; i++) {
        const ck_item *it = &evt->items[i];
        const ss__scn_array *x = &sc->arrays[it->array];
        ss_sharding sh;
        save_layout(rt, it->array, ran, &sh);
        if ((st = ss_array_put(ctx, &sh, x->rank, x->shape, x->dtype, rt->cur[it->array],
                               it->name, &arrs[n]))) {
            code = fail(err, st == SS_ERR_DEVICE_OOM ? SS__SCN_EXIT_CHECK : SS__SCN_EXIT_USAGE, c->loc,
                        "save: '%s' in %s: %s", it->name, it->layout, ss_error_message());
            goto out;
        }
        names[n++] = it->name;
    }
    /* `force` replaces DIR/STEP atomically (ss_ckpt_save_options.force). */
    ss_ckpt_save_options so = {.force = c->flag, .ocdbt = c->ocdbt};
    ss_ckpt_stats stats;
    if ((st = ss_ckpt_save(ctx, c->dir, c->step, n, names, arrs, &so, &stats))) {
        code = fail_status(err, c, st);
        goto out;
    }
    evt->bytes_written = stats.bytes_written;
    for (int d = 0; d < rt->nd; d++) {
        ss_memory_stats ms;
        if (ss_device_memory_stats(ctx, d, &ms) == SS_OK)
            evt->peak[d] = ms.peak_bytes;
    }
    evt->done = true;
out:
    for (int i = 0; arrs && i < n; i++)
        ss_array_destroy(arrs[i]);
    ss_context_destroy(ctx);
    free(arrs);
    free(names);
    return code;
}

/* --- Entry points ---------------------------------------------------------------- */

static int run_stmts(ss__scn_ckpt_rt *rt, bool after_run, ss__scn_error *err)
{
    const ss_scenario *sc = rt->sc;
    for (int k = 0; k < sc->ckpt->n; k++) {
        const ck_stmt *c = stmt_of(sc, k);
        if (c->after_run != after_run)
            continue;
        int code = c->restore ? do_restore(rt, k, err) : do_save(rt, k, after_run, err);
        if (code)
            return code;
    }
    return SS__SCN_EXIT_OK;
}

int ss__scn_ckpt_plan(const ss_scenario *sc, ss__scn_ckpt_rt **out, ss__scn_error *err)
{
    *out = NULL;
    if (!sc->ckpt || sc->ckpt->n == 0)
        return SS__SCN_EXIT_OK;
    int code = SS__SCN_EXIT_OK;
    ss__scn_ckpt_rt *rt = rt_create(sc, true, err, &code);
    if (!rt)
        return code;
    *out = rt;
    if ((code = run_stmts(rt, false, err)))
        return code;
    return run_stmts(rt, true, err);
}

int ss__scn_ckpt_run_before(const ss_scenario *sc, void *const in[], void *const ref_in[],
                        ss__scn_ckpt_rt **out, ss__scn_error *err)
{
    *out = NULL;
    if (!sc->ckpt || sc->ckpt->n == 0)
        return SS__SCN_EXIT_OK;
    int code = SS__SCN_EXIT_OK;
    ss__scn_ckpt_rt *rt = rt_create(sc, false, err, &code);
    if (!rt)
        return code;
    *out = rt;
    if ((code = run_stmts(rt, false, err)))
        return code;
    /* Restored values feed the run (and the reference of `check`). */
    for (int i = 0; i < sc->ninputs; i++) {
        int a = sc->input_array[i];
        if (!rt->layout[a].set || !rt->cur[a])
            continue;
        size_t b = array_bytes(&sc->arrays[a]);
        if (in)
            memcpy(in[i], rt->cur[a], b);
        if (ref_in)
            memcpy(ref_in[i], rt->cur[a], b);
    }
    return SS__SCN_EXIT_OK;
}

int ss__scn_ckpt_run_after(const ss_scenario *sc, ss__scn_ckpt_rt *rt, void *const in[],
                       void *const out[], ss__scn_error *err)
{
    bool any = false;
    for (int k = 0; rt && k < sc->ckpt->n; k++)
        any = any || stmt_of(sc, k)->after_run;
    if (!any)
        return SS__SCN_EXIT_OK;
    /* The values after the last step: what the results that feed arrays
     * computed; every other array kept its input. */
    for (int i = 0; i < sc->ninputs; i++) {
        int a = sc->input_array[i];
        if (rt->cur[a])
            memcpy(rt->cur[a], in[i], array_bytes(&sc->arrays[a]));
    }
    for (int o = 0; o < sc->noutputs; o++) {
        int a = sc->outputs[o].feeds;
        if (a < 0 || !rt->cur[a])
            continue;
        memcpy(rt->cur[a], out[o], array_bytes(&sc->arrays[a]));
        rt->layout[a].current = false;
    }
    return run_stmts(rt, true, err);
}

bool ss__scn_ckpt_show(const ss__scn_ckpt_rt *rt, int array, ss_sharding *sh, char *note, size_t cap)
{
    if (!rt || array < 0 || array >= rt->sc->narrays || !rt->layout[array].set)
        return false;
    const ck_layout *l = &rt->layout[array];
    const ck_stmt *c = stmt_of(rt->sc, l->stmt);
    *sh = l->sh;
    snprintf(note, cap, " (%s by the restore on line %d%s)", rt->plan ? "to be restored" : "restored",
             c->loc.line, l->saved ? ": no target sharding, so the saved one" : "");
    return true;
}

/* --- Report -------------------------------------------------------------------- */

/* "0-7 1.2 KiB, 8 2.0 KiB": consecutive devices with equal peaks grouped. */
static void peaks_text(const size_t *peak, int nd, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int d = 0; d < nd && len < cap;) {
        int end = d + 1;
        while (end < nd && peak[end] == peak[d])
            end++;
        char b[32];
        ss__fmt_bytes(b, sizeof b, (double)peak[d]);
        if (end - d > 1)
            len += (size_t)snprintf(buf + len, cap - len, "%s%d-%d %s", d ? ", " : "", d,
                                    end - 1, b);
        else
            len += (size_t)snprintf(buf + len, cap - len, "%s%d %s", d ? ", " : "", d, b);
        d = end;
    }
}

void ss__scn_ckpt_report_text(const ss_scenario *sc, const ss__scn_ckpt_rt *rt, FILE *f)
{
    if (!rt)
        return;
    char a[32], b[32], cap[32], peaks[1024];
    ss__fmt_bytes(cap, sizeof cap, (double)sc->device_memory);
    fprintf(f, "Checkpoints (%s)\n", rt->plan ? "planned from their metadata: nothing is read "
                                                "or written"
                                              : "each statement on fresh devices, in file order");
    for (int k = 0; k < sc->ckpt->n; k++) {
        const ck_stmt *c = stmt_of(sc, k);
        const ck_event *evt = &rt->events[k];
        if (!evt->items)
            continue;
        fprintf(f, "  line %d: %s %s step %lld%s%s\n", c->loc.line,
                c->restore ? "restore" : "save", c->dir, (long long)c->step,
                c->flag ? (c->restore ? " partial" : " force") : "",
                c->after_run ? " (after the run)" : "");
        for (int i = 0; i < evt->nitems; i++) {
            const ck_item *it = &evt->items[i];
            const ss__scn_array *x = &sc->arrays[it->array];
            char t[96];
            ss__shape_text(t, sizeof t, x->dtype, x->rank, x->shape);
            fprintf(f, "    %-20s %-14s %s (%s)\n", it->name, t, it->layout, it->source);
        }
        if (evt->note[0])
            fprintf(f, "    %s\n", evt->note);
        if (c->restore && evt->planned) {
            ss__fmt_bytes(a, sizeof a, (double)evt->bytes_needed);
            ss__fmt_bytes(b, sizeof b, (double)evt->bytes_read);
            fprintf(f, "    %s needed, %s %s from chunk files\n", a, b,
                    evt->done ? "read" : "to read");
        } else if (!c->restore && evt->done) {
            ss__fmt_bytes(a, sizeof a, (double)evt->bytes_logical);
            ss__fmt_bytes(b, sizeof b, (double)evt->bytes_written);
            fprintf(f, "    %s of arrays, %s written to chunk files\n", a, b);
        }
        if (evt->done) {
            peaks_text(evt->peak, rt->nd, peaks, sizeof peaks);
            fprintf(f, "    peak per device, measured: %s (capacity %s)\n", peaks, cap);
        }
        if (evt->planned) {
            peaks_text(evt->plan_peak, rt->nd, peaks, sizeof peaks);
            if (evt->done)
                fprintf(f, "    peak per device, planned:  %s\n", peaks);
            else
                fprintf(f, "    peak per device, planned: %s (capacity %s)\n", peaks, cap);
        }
    }
    fprintf(f, "\n");
}

static void json_peaks(ss__buf *b, const size_t *peak, int nd)
{
    if (!peak) {
        ss__buf_puts(b, "null");
        return;
    }
    ss__buf_putc(b, '[');
    for (int d = 0; d < nd; d++)
        ss__buf_printf(b, d ? ",%zu" : "%zu", peak[d]);
    ss__buf_putc(b, ']');
}

void ss__scn_ckpt_report_json(const ss_scenario *sc, const ss__scn_ckpt_rt *rt, ss__buf *b)
{
    if (!rt)
        return;
    ss__buf_puts(b, ",\"checkpoints\":[");
    int m = 0;
    for (int k = 0; k < sc->ckpt->n; k++) {
        const ck_stmt *c = stmt_of(sc, k);
        const ck_event *evt = &rt->events[k];
        if (!evt->items)
            continue;
        ss__buf_printf(b, "%s{\"statement\":\"%s\",\"line\":%d,\"col\":%d,\"dir\":", m++ ? "," : "",
                       c->restore ? "restore" : "save", c->loc.line, c->loc.col);
        ss__json_str(b, c->dir);
        ss__buf_printf(b, ",\"step\":%lld,\"%s\":%s,\"after_run\":%s,\"done\":%s,\"note\":",
                       (long long)c->step, c->restore ? "partial" : "force",
                       c->flag ? "true" : "false", c->after_run ? "true" : "false",
                       evt->done ? "true" : "false");
        if (evt->note[0])
            ss__json_str(b, evt->note);
        else
            ss__buf_puts(b, "null");
        ss__buf_puts(b, ",\"arrays\":[");
        for (int i = 0; i < evt->nitems; i++) {
            const ck_item *it = &evt->items[i];
            const ss__scn_array *x = &sc->arrays[it->array];
            ss__buf_puts(b, i ? ",{\"name\":" : "{\"name\":");
            ss__json_str(b, it->name);
            ss__buf_puts(b, ",\"dtype\":");
            ss__json_str(b, ss_dtype_name(x->dtype));
            ss__buf_puts(b, ",\"shape\":");
            ss__json_int_array(b, x->rank, x->shape);
            ss__buf_puts(b, ",\"sharding\":");
            ss__json_str(b, it->layout);
            ss__buf_puts(b, ",\"source\":");
            ss__json_str(b, it->source);
            ss__buf_putc(b, '}');
        }
        ss__buf_printf(b, "],\"bytes_needed\":%llu,\"bytes_read\":%llu,\"bytes_written\":%llu,"
                          "\"peak_bytes\":",
                       (unsigned long long)evt->bytes_needed, (unsigned long long)evt->bytes_read,
                       (unsigned long long)evt->bytes_written);
        json_peaks(b, evt->done ? evt->peak : NULL, rt->nd);
        ss__buf_puts(b, ",\"planned_peak_bytes\":");
        json_peaks(b, evt->planned ? evt->plan_peak : NULL, rt->nd);
        ss__buf_putc(b, '}');
    }
    ss__buf_putc(b, ']');
}
