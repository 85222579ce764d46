/*
 * run.c — the public entry of the scenario front end (shardsim.h,
 * "Scenarios"): load, compile, plan and run a scenario.
 *
 * run: compile the run function once, create the virtual devices, run the
 * steps (results that update arrays feed the next step; the arrays stay on
 * the devices), the save/restore statements, the same steps on the
 * single-device reference when there are checks, and keep what was
 * measured for the report. plan: the same without devices, data or
 * compute. A failure fills the caller's ss_scenario_error with the spot in
 * the file it is about; nothing here prints.
 */
#include "scenario.h"
#include "watch.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Fill err (may be NULL) with the failure at `loc` and record it as the
 * library's last error. `code` is what the failure means (SS__SCN_EXIT_*);
 * running out of host memory is never blamed on the input. Returns `st`, or
 * a status for the code when st is SS_OK. */
static ss_status fail_at(const ss_scenario *sc, ss_scenario_error *err, ss__scn_loc loc,
                         const char *msg, int code, ss_status st)
{
    bool nomem = strstr(msg, "out of host memory") != NULL;
    if (!st)
        st = nomem ? SS_ERR_NOMEM : code == SS__SCN_EXIT_USAGE ? SS_ERR_PARSE : SS_ERR_MISMATCH;
    if (err) {
        memset(err, 0, sizeof *err);
        err->line = loc.line;
        err->col = loc.col;
        err->bad_input = code == SS__SCN_EXIT_USAGE && !nomem;
        snprintf(err->message, sizeof err->message, "%s", msg);
        const char *p = sc ? sc->src : NULL, *end = p ? p + sc->len : NULL;
        for (int l = 1; p && l < loc.line && p < end; l++) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            p = nl ? nl + 1 : end;
        }
        if (p && loc.line) {
            const char *eol = memchr(p, '\n', (size_t)(end - p));
            size_t n = eol ? (size_t)(eol - p) : (size_t)(end - p);
            if (n && p[n - 1] == '\r')
                n--;
            if (n >= sizeof err->source_line)
                n = sizeof err->source_line - 1;
            memcpy(err->source_line, p, n);
        }
    }
    return ss__fail(st, "%s", msg);
}

static size_t value_bytes(const ss_program *p, ss_value v)
{
    ss_dtype dt;
    int rank;
    int64_t shape[SS_MAX_RANK];
    if (ss_value_shape(p, v, &dt, &rank, shape) != SS_OK)
        return 0;
    size_t n = ss_dtype_size(dt);
    for (int d = 0; d < rank; d++)
        n *= (size_t)shape[d];
    return n;
}

static ss_dtype value_dtype(const ss_program *p, ss_value v)
{
    ss_dtype dt = SS_F32;
    int rank;
    int64_t shape[SS_MAX_RANK];
    ss_value_shape(p, v, &dt, &rank, shape);
    return dt;
}

/* Per-step values of the run's one-element results (the loss): r->step_values[o]
 * for each such output o, NULL for the others. */
static bool alloc_step_values(const ss_scenario *sc, ss__scn_report *r)
{
    if (!(r->step_values = calloc((size_t)sc->noutputs + 1, sizeof *r->step_values)))
        return false;
    for (int o = 0; o < sc->noutputs; o++) {
        size_t n = value_bytes(sc->program, sc->outputs[o].value);
        if (!sc->outputs[o].extra && n == ss_dtype_size(value_dtype(sc->program, sc->outputs[o].value)) &&
            !(r->step_values[o] = calloc((size_t)r->steps, sizeof(double))))
            return false;
    }
    return true;
}

static void free_step_values(const ss_scenario *sc, ss__scn_report *r)
{
    for (int o = 0; r->step_values && o < sc->noutputs; o++)
        free(r->step_values[o]);
    free(r->step_values);
    r->step_values = NULL;
}

/* The file name of every output under --outputs, in output order: its
 * name, or RUN_K for the K-th result without one; '/' and other path
 * characters become '_'; a name taken by an earlier (non-extra) output
 * gets _2, _3, ... NULL when out of host memory. */
static char (*output_file_names(const ss_scenario *sc))[SS__SCN_OUTPUT_NAME]
{
    char (*names)[SS__SCN_OUTPUT_NAME] = calloc((size_t)sc->noutputs + 1, sizeof *names);
    if (!names)
        return NULL;
    for (int o = 0, k = 0; o < sc->noutputs; o++) {
        const char *name = sc->outputs[o].name;
        char base[SS__SCN_OUTPUT_NAME - 16];
        if (name)
            snprintf(base, sizeof base, "%s", name);
        else
            snprintf(base, sizeof base, "%s_%d", sc->run_name, k);
        k += sc->outputs[o].name_is_result && !sc->outputs[o].extra;
        for (char *c = base; *c; c++)
            if (*c == '/' || *c == '\\' || *c == ' ' || (c == base && *c == '.'))
                *c = '_';
        snprintf(names[o], sizeof names[o], "%s", base);
        for (int dup = 2;; dup++) {
            bool taken = false;
            for (int j = 0; j < o && !taken; j++)
                taken = !sc->outputs[j].extra && strcmp(names[j], names[o]) == 0;
            if (!taken)
                break;
            snprintf(names[o], sizeof names[o], "%s_%d", base, dup);
        }
    }
    return names;
}

const char *ss__scn_output_file_name(const ss_scenario *sc, int o)
{
    return sc->run && sc->run->output_names && o >= 0 && o < sc->noutputs
               ? sc->run->output_names[o] : "";
}

/* run --outputs DIR: every result of the run (not the extra outputs made
 * for checks and prints) as DIR/NAME.npy, the last step's values. */
static ss_status write_outputs(const ss_scenario *sc, const char *dir, void *const out[])
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return ss__fail(SS_ERR_IO, "--outputs %s: cannot create the directory: %s", dir,
                        strerror(errno));
    ss_status st = SS_OK;
    for (int o = 0; !st && o < sc->noutputs; o++) {
        if (sc->outputs[o].extra)
            continue;
        char path[4096 + SS__SCN_OUTPUT_NAME];
        snprintf(path, sizeof path, "%s/%s.npy", dir, ss__scn_output_file_name(sc, o));
        ss_dtype dt;
        int rank;
        int64_t shape[SS_MAX_RANK];
        st = ss_value_shape(sc->program, sc->outputs[o].value, &dt, &rank, shape);
        if (!st)
            st = ss__scn_npy_write(path, dt, rank, shape, out[o]);
    }
    return st;
}

static void host_free(ss__scn_host *h)
{
    for (int i = 0; h->in && i < h->nin; i++)
        if (!h->borrowed || !h->borrowed[i])
            free(h->in[i]);
    free(h->borrowed);
    for (int i = 0; h->out && i < h->nout; i++)
        free(h->out[i]);
    free(h->in);
    free(h->out);
    memset(h, 0, sizeof *h);
}

static bool host_alloc(const ss_scenario *sc, ss__scn_host *h, bool fill)
{
    h->nin = sc->ninputs;
    h->nout = sc->noutputs;
    h->in = calloc((size_t)h->nin + 1, sizeof(void *));
    h->out = calloc((size_t)h->nout + 1, sizeof(void *));
    h->borrowed = calloc((size_t)h->nin + 1, sizeof(bool));
    if (!h->in || !h->out || !h->borrowed)
        return false;
    for (int i = 0; i < h->nin; i++) {
        const ss__scn_array *a = &sc->arrays[sc->input_array[i]];
        size_t n = value_bytes(sc->program, a->value);
        if (fill && a->init.kind == SS__SCN_INIT_HOST && a->init.data) {
            h->in[i] = (void *)a->init.data; /* host_own copies it before a write */
            h->borrowed[i] = true;
            continue;
        }
        if (!(h->in[i] = malloc(n ? n : 1)))
            return false;
        if (fill)
            ss__scn_init_fill(a, h->in[i]);
    }
    for (int i = 0; i < h->nout; i++) {
        size_t n = value_bytes(sc->program, sc->outputs[i].value);
        if (!(h->out[i] = calloc(n ? n : 1, 1)))
            return false;
    }
    return true;
}

/* Whether the run itself reads its outputs' host copies (checks, prints,
 * --outputs files, checkpoints saved after it): then the last step's
 * outputs come back to the host as it ends; else each stays on the devices
 * until ss__scn_output_data asks for it, as a jitted step's result stays
 * on the devices until the caller reads it. */
static bool host_outputs_read(const ss_scenario *sc)
{
    return sc->nchecks || sc->nvprints || sc->opts.outputs || sc->ckpt;
}

ss_status ss__scn_output_data(const ss_scenario *sc, int o, const void **data)
{
    *data = NULL;
    ss__scn_run *run = sc ? sc->run : NULL;
    if (!run || !run->ran || !run->report.outputs || o < 0 || o >= sc->noutputs)
        return SS_OK;
    if (run->fetched && !run->fetched[o]) {
        if (!run->kept || !run->kept[o])
            return ss__fail(SS_ERR_INVALID, "result %d was not kept by the run", o);
        ss_status st = ss_array_get(run->kept[o], run->host.out[o],
                                    value_bytes(sc->program, sc->outputs[o].value));
        if (st)
            return st;
        run->fetched[o] = true;
        if (!sc->opts.keep_outputs) { /* the devices' copy is no longer needed */
            ss_array_destroy(run->kept[o]);
            run->kept[o] = NULL;
        }
    }
    *data = run->report.outputs[o];
    return SS_OK;
}

/* Input i's host buffer made the run's own, to be written (its n bytes
 * keep their values): a borrowed input is copied first. */
static bool host_own(ss__scn_host *h, int i, size_t n)
{
    if (!h->borrowed[i])
        return true;
    void *p = malloc(n ? n : 1);
    if (!p)
        return false;
    memcpy(p, h->in[i], n);
    h->in[i] = p;
    h->borrowed[i] = false;
    return true;
}

/* The input that output o updates between steps, or -1. */
static int fed_input(const ss_scenario *sc, int o)
{
    for (int i = 0; sc->outputs[o].feeds >= 0 && i < sc->ninputs; i++)
        if (sc->input_array[i] == sc->outputs[o].feeds)
            return i;
    return -1;
}

/* Results that update arrays become those arrays' values for the next step. */
static void feed(const ss_scenario *sc, ss__scn_host *h)
{
    for (int o = 0; o < sc->noutputs; o++) {
        int i = fed_input(sc, o);
        if (i >= 0)
            memcpy(h->in[i], h->out[o], value_bytes(sc->program, sc->outputs[o].value));
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double default_tol(ss_dtype dt)
{
    switch (dt) {
    case SS_F32: return 1e-4;
    case SS_F64: return 1e-10;
    case SS_BF16:
    case SS_F16: return 2e-2;
    default: return 0;
    }
}

void ss__scn_check_compare(ss_dtype dt, const void *run, const void *ref, int64_t n, double tol,
                       ss__scn_check_result *res)
{
    memset(res, 0, sizeof *res);
    res->first_bad = -1;
    for (int64_t i = 0; i < n; i++) {
        double a = ss__elem_get(dt, run, (size_t)i);
        double b = ss__elem_get(dt, ref, (size_t)i);
        if (!isfinite(a) || !isfinite(b)) {
            /* assert_allclose: equal NaNs and equal infinities pass */
            if ((isnan(a) && isnan(b)) || a == b) {
                res->nonfinite_equal++;
            } else if (res->nonfinite_bad++ == 0) {
                res->first_bad = i;
                res->bad_run = a;
                res->bad_ref = b;
            }
            continue;
        }
        double d = fabs(a - b);
        if (d > res->max_abs)
            res->max_abs = d;
        if (fabs(b) > res->ref_max)
            res->ref_max = fabs(b);
    }
    res->tol = tol >= 0 ? tol : default_tol(dt);
    res->pass = !res->nonfinite_bad &&
                res->max_abs <= res->tol * (res->ref_max > 1 ? res->ref_max : 1);
}

/* Compare each check's output of the run with the reference. */
static bool compare(const ss_scenario *sc, const ss__scn_host *run, const ss__scn_host *ref,
                    ss__scn_report *r)
{
    bool all = true;
    for (int k = 0; k < sc->nchecks; k++) {
        const ss__scn_check *c = &sc->checks[k];
        ss_value v = sc->outputs[c->output].value;
        ss_dtype dt;
        int rank;
        int64_t shape[SS_MAX_RANK], n = 1;
        ss_value_shape(sc->program, v, &dt, &rank, shape);
        for (int d = 0; d < rank; d++)
            n *= shape[d];
        ss__scn_check_compare(dt, run->out[c->output], ref->out[c->output], n, c->tol, &r->checks[k]);
        all = all && r->checks[k].pass;
    }
    return all;
}

/* The runtime names buffers "%N op"; in a message for the user, a value
 * the scenario names reads better as "name (line L)". */
static void name_values(const ss_scenario *sc, const char *msg, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *p = msg; *p && n + 1 < cap;) {
        char *end;
        long v = p[0] == '%' && isdigit((unsigned char)p[1]) ? strtol(p + 1, &end, 10) : -1;
        const char *name = v >= 0 ? ss__scn_value_name(sc, (ss_value)v) : NULL;
        if (name) {
            /* Skip the op word after the number ("%3 param"). */
            if (*end == ' ' && isalpha((unsigned char)end[1])) {
                end++;
                while (isalnum((unsigned char)*end) || *end == '_')
                    end++;
            }
            ss__scn_loc loc = ss__scn_value_loc(sc, (ss_value)v);
            int w = loc.line ? snprintf(out + n, cap - n, "%s (line %d)", name, loc.line)
                             : snprintf(out + n, cap - n, "%s", name);
            n += w > 0 ? (size_t)w : 0;
            if (n >= cap)
                n = cap - 1;
            p = end;
            continue;
        }
        out[n++] = *p++;
    }
    out[n < cap ? n : cap - 1] = '\0';
}

/* Which inputs a run donates: with `run ... donate=True`, every input that
 * an output of the step feeds (the carried params and optimizer state, as
 * jit's donate_argnums); donate[k] for executable input k. */
static void carried_donations(const ss_scenario *sc, bool donate[])
{
    for (int i = 0; i < sc->ninputs; i++)
        donate[i] = false;
    for (int o = 0; sc->donate && o < sc->noutputs; o++) {
        int i = fed_input(sc, o);
        if (i >= 0)
            donate[i] = true;
    }
}

typedef struct dev_run {
    ss_scenario *sc;
    ss__scn_run *run;
    ss__scn_report *r;
    ss__scn_host *h;
    double *times;
    double start;
} dev_run;

/* A result that feeds input k but came out laid out otherwise (its own
 * propagated sharding) is resharded to the input's layout, as jit moves an
 * argument to its in_sharding; between steps, so not in a step's time. */
static ss_status refit(dev_run *d, int k, ss_array **a)
{
    const ss__scn_array *arr = &d->sc->arrays[d->sc->input_array[k]];
    ss_sharding want;
    ss_status st = ss_value_sharding(d->sc->program, arr->value, &want);
    if (st || ss_spec_equal(&ss_array_sharding(*a)->spec, &want.spec))
        return st;
    ss_array *moved = NULL;
    st = ss_arrays_reshard(d->r->ctx, 1, a, &want, NULL, &moved, NULL);
    ss_array_destroy(*a); /* donated to the reshard: empty now */
    *a = moved;
    return st;
}

/* The steps on device-resident arrays, as a jitted train step keeps its
 * state on the devices: the inputs are put once (each named as the run
 * names its buffers, so an out-of-memory report reads the same), every
 * output that feeds an input becomes that input's array for the next step
 * (the old one donated with `donate=True`, else dropped after the step),
 * the others are dropped, and the last step's inputs and outputs come back
 * to the host buffers. A step's time is the run alone. */
static ss_status device_steps(dev_run *d)
{
    ss_scenario *sc = d->sc;
    ss__scn_report *r = d->r;
    int ni = sc->ninputs, no = sc->noutputs;
    ss_array **in = calloc((size_t)ni + 1, sizeof *in), **out = calloc((size_t)no + 1, sizeof *out);
    bool *donate = calloc((size_t)ni + 1, sizeof *donate);
    bool fetch = host_outputs_read(sc);
    if ((sc->opts.keep_outputs || !fetch) && !d->run->kept)
        d->run->kept = calloc((size_t)no + 1, sizeof *d->run->kept);
    if (!d->run->fetched)
        d->run->fetched = calloc((size_t)no + 1, sizeof *d->run->fetched);
    ss_status st = in && out && donate && d->run->fetched &&
                           (d->run->kept || (fetch && !sc->opts.keep_outputs))
                       ? SS_OK : ss__fail(SS_ERR_NOMEM, "out of host memory");
    if (!st)
        carried_donations(sc, donate);
    for (int k = 0; k < ni && !st; k++) {
        const ss__scn_array *a = &sc->arrays[sc->input_array[k]];
        ss_sharding sh;
        char name[48];
        snprintf(name, sizeof name, "%%%d %s", (int)a->value, a->is_param ? "param" : "input");
        if (!(st = ss_value_sharding(sc->program, a->value, &sh)))
            st = ss_array_put(r->ctx, &sh, a->rank, a->shape, a->dtype, d->h->in[k], name, &in[k]);
    }
    if (!st && d->run->watch)
        ss_executable_watch(r->exe, d->run->watch, d->run->watch_user);
    for (int s = 0; s < r->steps && !st; s++) {
        bool last = s + 1 == r->steps;
        for (int k = 0; last && s > 0 && k < ni && !st; k++) { /* the last step's inputs */
            size_t n = value_bytes(sc->program, sc->arrays[sc->input_array[k]].value);
            st = host_own(d->h, k, n) ? ss_array_get(in[k], d->h->in[k], n)
                                      : ss__fail(SS_ERR_NOMEM, "out of host memory");
        }
        if (st)
            break;
        double t0 = now_s();
        st = ss_executable_run_arrays(r->exe, r->ctx, in, donate, out);
        d->times[s] = now_s() - t0;
        if (d->run->watch)
            ss_executable_watch(r->exe, NULL, NULL); /* the first step only */
        if (st)
            break;
        for (int o = 0; o < no && !st && r->step_values; o++) {
            unsigned char one[16];
            if (r->step_values[o] &&
                !(st = ss_array_get(out[o], one, value_bytes(sc->program, sc->outputs[o].value))))
                r->step_values[o][s] = ss__elem_get(value_dtype(sc->program, sc->outputs[o].value),
                                                    one, 0);
        }
        for (int o = 0; o < no; o++) {
            int feeds = last ? -1 : fed_input(sc, o);
            if (last && !st && fetch &&
                !(st = ss_array_get(out[o], d->h->out[o], value_bytes(sc->program, sc->outputs[o].value))))
                d->run->fetched[o] = true;
            if (feeds >= 0) {
                ss_array_destroy(in[feeds]);
                in[feeds] = NULL;
                if (!st)
                    st = refit(d, feeds, &out[o]);
                in[feeds] = out[o];
            } else if (last && d->run->kept) { /* keep_outputs, or fetched when read */
                d->run->kept[o] = out[o];
            } else {
                ss_array_destroy(out[o]);
            }
            out[o] = NULL;
        }
        if (sc->opts.progress)
            sc->opts.progress(s + 1, r->steps, now_s() - d->start, sc->opts.progress_user);
        if (!st && sc->opts.cancel && *sc->opts.cancel && s + 1 < r->steps) {
            st = ss__fail(SS_ERR_CANCELLED, "the run was stopped after step %d of %d", s + 1,
                          r->steps);
            break;
        }
    }
    for (int k = 0; in && k < ni; k++)
        ss_array_destroy(in[k]);
    free(in);
    free(out);
    free(donate);
    return st;
}


static ss_status do_run(ss_scenario *sc, ss__scn_run *run, ss_scenario_error *err)
{
    ss__scn_report *r = &run->report;
    ss__scn_host *h = &run->host, ref = {0, 0, NULL, NULL, NULL};
    size_t need = 0;
    for (int i = 0; i < sc->ninputs; i++)
        need += value_bytes(sc->program, sc->arrays[sc->input_array[i]].value);
    for (int i = 0; i < sc->noutputs; i++)
        need += value_bytes(sc->program, sc->outputs[i].value);
    if (sc->nchecks)
        need *= 2;
    /* The global arrays live on the host (inputs, outputs, the reference
     * run): refuse runs that would not fit in half of this machine's RAM (at
     * most 8 GiB) and point to plan. The devices' own capacity is not the
     * limit here: a run that overflows a device must reach the device and
     * end in its out-of-memory report. */
    double limit = 8.0 * (1u << 30);
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && psize > 0 && (double)pages * (double)psize / 2 < limit)
        limit = (double)pages * (double)psize / 2;
    if ((double)need > limit) {
        char a[32], b[32], msg[256];
        ss__fmt_bytes(a, sizeof a, (double)need);
        ss__fmt_bytes(b, sizeof b, limit);
        snprintf(msg, sizeof msg, "the run needs %s of host memory for its global arrays "
                                  "(limit %s); plan it instead: shardsim plan", a, b);
        return fail_at(sc, err, sc->run_loc, msg, SS__SCN_EXIT_CHECK, SS_ERR_NOMEM);
    }
    /* The reference starts from the same values: copied, not drawn again. */
    if (!host_alloc(sc, h, true) || (sc->nchecks && !host_alloc(sc, &ref, false))) {
        host_free(h);
        host_free(&ref);
        return fail_at(sc, err, (ss__scn_loc){0, 0}, "out of host memory", SS__SCN_EXIT_CHECK,
                       SS_ERR_NOMEM);
    }
    /* save/restore statements above `run`; restored values feed both runs. */
    ss__scn_error cerr = {.set = false};
    for (int i = 0; sc->nchecks && i < sc->ninputs; i++)
        memcpy(ref.in[i], h->in[i], value_bytes(sc->program, sc->arrays[sc->input_array[i]].value));
    for (int i = 0; sc->ckpt && i < sc->ninputs; i++) { /* restores may write them */
        if (!host_own(h, i, value_bytes(sc->program, sc->arrays[sc->input_array[i]].value))) {
            host_free(h);
            host_free(&ref);
            return fail_at(sc, err, (ss__scn_loc){0, 0}, "out of host memory",
                           SS__SCN_EXIT_CHECK, SS_ERR_NOMEM);
        }
    }
    int crc = ss__scn_ckpt_run_before(sc, h->in, sc->nchecks ? ref.in : NULL, &r->ckpt, &cerr);
    if (crc) {
        host_free(&ref);
        return fail_at(sc, err, cerr.loc, cerr.msg, crc, SS_OK);
    }
    ss_context_options co = {.ndevices = ss_mesh_device_count(sc->mesh),
                             .device_memory = sc->device_memory,
                             .hosts = sc->hosts,
                             .threads = sc->opts.threads,
                             .timeout = 60};
    ss_status st = ss_context_create(&co, &r->ctx), rs = SS_OK;
    if (st) {
        rs = fail_at(sc, err, (ss__scn_loc){0, 0}, ss_error_message(), SS__SCN_EXIT_USAGE, st);
        goto out;
    }
    if (sc->opts.trace || sc->opts.trace_events)
        ss_context_trace_enable(r->ctx, 1);
    double *times = calloc((size_t)r->steps, sizeof *times), start = now_s();
    if (times && !alloc_step_values(sc, r)) {
        free(times);
        times = NULL;
    }
    if (times) {
        dev_run d = {sc, run, r, h, times, start};
        st = device_steps(&d);
    }
    if (!times) {
        rs = fail_at(sc, err, (ss__scn_loc){0, 0}, "out of host memory", SS__SCN_EXIT_CHECK,
                     SS_ERR_NOMEM);
        goto out;
    }
    if (st) {
        char msg[2048];
        name_values(sc, ss_error_message(), msg, sizeof msg);
        rs = fail_at(sc, err, ss__scn_loc_from_message(sc, ss_error_message()), msg,
                     st == SS_ERR_DEVICE_OOM || st == SS_ERR_DEADLOCK || st == SS_ERR_MISMATCH ||
                             st == SS_ERR_CANCELLED
                         ? SS__SCN_EXIT_CHECK
                         : SS__SCN_EXIT_USAGE,
                     st);
        free(times);
        goto out;
    }
    r->first_s = r->compile_s + times[0];
    if (r->steps > 1) {
        qsort(times + 1, (size_t)(r->steps - 1), sizeof *times, cmp_double);
        int m = r->steps - 1;
        r->median_s = m % 2 ? times[1 + m / 2] : (times[m / 2] + times[1 + m / 2]) / 2;
    }
    free(times);
    if (sc->opts.trace && (st = ss_context_trace_write(r->ctx, sc->opts.trace)) != SS_OK) {
        rs = fail_at(sc, err, (ss__scn_loc){0, 0}, ss_error_message(), SS__SCN_EXIT_USAGE, st);
        goto out;
    }
    if ((crc = ss__scn_ckpt_run_after(sc, r->ckpt, h->in, h->out, &cerr))) {
        rs = fail_at(sc, err, cerr.loc, cerr.msg, crc, SS_OK);
        goto out;
    }
    if (sc->opts.outputs && (st = write_outputs(sc, sc->opts.outputs, h->out))) {
        rs = fail_at(sc, err, (ss__scn_loc){0, 0}, ss_error_message(),
                     st == SS_ERR_NOMEM ? SS__SCN_EXIT_CHECK : SS__SCN_EXIT_USAGE, st);
        goto out;
    }
    r->outputs_dir = sc->opts.outputs;
    run->pass = true;
    if (sc->nchecks) {
        /* `check` compares with the single-device run (jit without
         * shardings on one device): the fast kernels, whole arrays. */
        const ss_eval_options single_device = {.fast_kernels = 1};
        for (int s = 0; s < r->steps && !st; s++) {
            st = ss_program_eval_with(sc->program, &single_device, (const void *const *)ref.in,
                                      ref.out);
            if (s + 1 < r->steps)
                feed(sc, &ref);
        }
        if (st) {
            rs = fail_at(sc, err, ss__scn_loc_from_message(sc, ss_error_message()),
                         ss_error_message(), SS__SCN_EXIT_USAGE, st);
            goto out;
        }
        run->pass = compare(sc, h, &ref, r);
    }
    r->outputs = h->out;
out:
    host_free(&ref);
    return rs;
}

/* --- The public entry ------------------------------------------------------ */

static ss_status load(const char *path, const char *text, const ss_scenario_options *opts,
                      ss_scenario **out, ss_scenario_error *err)
{
    static const ss_scenario_options none;
    if (err)
        memset(err, 0, sizeof *err);
    if (!out || (!path && !text))
        return fail_at(NULL, err, (ss__scn_loc){0, 0}, "ss_scenario_load: no scenario given",
                       SS__SCN_EXIT_USAGE, SS_ERR_INVALID);
    *out = NULL;
    if (!opts)
        opts = &none;
    if (opts->nsets < 0 || opts->nsets > 32 || (opts->nsets && (!opts->set_names ||
                                                                !opts->set_values)))
        return fail_at(NULL, err, (ss__scn_loc){0, 0}, "at most 32 constants may be set",
                       SS__SCN_EXIT_USAGE, SS_ERR_INVALID);
    if (opts->steps < 0 || opts->steps > 1000000)
        return fail_at(NULL, err, (ss__scn_loc){0, 0}, "steps must be in 1..1000000",
                       SS__SCN_EXIT_USAGE, SS_ERR_INVALID);
    double t0 = now_s();
    ss_scenario *sc = calloc(1, sizeof *sc);
    if (!sc)
        return fail_at(NULL, err, (ss__scn_loc){0, 0}, "out of host memory", SS__SCN_EXIT_CHECK,
                       SS_ERR_NOMEM);
    ss__scn_overrides ov;
    ss__scn_overrides_from(opts, &ov);
    ss_status lst = ss__scn_load(sc, path ? path : "<text>", text, &ov);
    if (lst != SS_OK) {
        /* An unreadable file is SS_ERR_IO (still bad input: exit 2). */
        ss_status st = fail_at(sc, err, sc->err.loc, sc->err.msg, SS__SCN_EXIT_USAGE,
                               lst == SS_ERR_IO ? SS_ERR_IO : SS_OK);
        ss_scenario_free(sc);
        return st;
    }
    sc->opts = *opts;
    if (opts->no_checks)
        sc->nchecks = 0;
    if (!opts->device_memory && opts->device && opts->device->hbm_bytes)
        sc->device_memory = opts->device->hbm_bytes;
    if (!sc->device_memory)
        sc->device_memory = SS_DEFAULT_DEVICE_MEMORY;
    sc->load_s = now_s() - t0;
    *out = sc;
    return SS_OK;
}

ss_status ss_scenario_load(const char *path, const ss_scenario_options *opts, ss_scenario **out,
                           ss_scenario_error *err)
{
    return load(path, NULL, opts, out, err);
}

ss_status ss_scenario_load_text(const char *name, const char *text,
                                const ss_scenario_options *opts, ss_scenario **out,
                                ss_scenario_error *err)
{
    if (!text)
        return load(NULL, NULL, opts, out, err);
    return load(name ? name : "<text>", text, opts, out, err);
}

void ss_scenario_free(ss_scenario *sc)
{
    if (!sc)
        return;
    ss__scn_run *run = sc->run;
    if (run) {
        free_step_values(sc, &run->report);
        ss__scn_ckpt_destroy(run->report.ckpt);
        ss__scn_watch_free(run->report.watch);
        for (int o = 0; run->kept && o < sc->noutputs; o++)
            ss_array_destroy(run->kept[o]);
        free(run->kept);
        free(run->fetched);
        ss_context_destroy(run->report.ctx);
        ss_executable_destroy(run->report.exe);
        free(run->report.peak);
        host_free(&run->host);
        free(run->output_names);
        free(run);
    }
    ss__scn_free(sc);
    free(sc);
}

ss_status ss_scenario_compile(ss_scenario *sc, ss_scenario_error *err)
{
    if (!sc)
        return fail_at(NULL, err, (ss__scn_loc){0, 0}, "ss_scenario_compile: no scenario",
                       SS__SCN_EXIT_USAGE, SS_ERR_INVALID);
    if (sc->run && sc->run->compiled)
        return SS_OK;
    if (!sc->run && !(sc->run = calloc(1, sizeof *sc->run)))
        return fail_at(sc, err, (ss__scn_loc){0, 0}, "out of host memory", SS__SCN_EXIT_CHECK,
                       SS_ERR_NOMEM);
    ss__scn_run *run = sc->run;
    ss__scn_report *r = &run->report;
    if (!run->output_names && !(run->output_names = output_file_names(sc)))
        return fail_at(sc, err, (ss__scn_loc){0, 0}, "out of host memory", SS__SCN_EXIT_CHECK,
                       SS_ERR_NOMEM);
    r->steps = sc->opts.steps ? sc->opts.steps : sc->steps ? sc->steps : 1;
    if (sc->run_name) {
        double t0 = now_s();
        /* A device whose compiler's fusion is modelled chooses the
         * broadcasts it materialises itself (ss_memory_model.xla_fusion). */
        ss_compile_options co = sc->opts.compile;
        co.materialize_broadcasts |= sc->opts.device && sc->opts.device->memory.xla_fusion;
        if (sc->prints & SS__SCN_PRINT_EXPLAIN) /* `print explain` in the file */
            co.no_explain = 0;
        ss_status st = ss_program_compile_with(sc->program, &co, &r->exe);
        r->compile_s = now_s() - t0;
        /* Runs keep their arrays on the devices (device_steps): plan that. */
        bool *donate = calloc((size_t)sc->ninputs + 1, sizeof *donate);
        if (!st && !donate)
            st = ss__fail(SS_ERR_NOMEM, "out of host memory");
        /* The device's compiler's collectives (bf16 gathers of dot
         * operands on TPU): for the plan and the ledger only. */
        if (!st && sc->opts.device)
            st = ss_executable_model_gathers(r->exe, &sc->opts.device->memory, NULL);
        if (!st) {
            carried_donations(sc, donate);
            r->peak = malloc(sizeof *r->peak * SS__SCN_PEAK_BUFFERS);
            t0 = now_s();
            st = r->peak ? ss_executable_peak_detail(
                               r->exe, donate, sc->opts.device ? &sc->opts.device->memory : NULL,
                               r->peak, SS__SCN_PEAK_BUFFERS, &r->npeak, &r->plan)
                         : ss__fail(SS_ERR_NOMEM, "out of host memory");
            r->plan_s = now_s() - t0;
        }
        free(donate);
        if (st) {
            const char *msg = ss_error_message();
            ss__scn_loc loc = ss__scn_loc_from_message(sc, msg);
            char copy[2048];
            snprintf(copy, sizeof copy, "%s", msg);
            return fail_at(sc, err, loc.line ? loc : sc->run_loc, copy, SS__SCN_EXIT_USAGE, st);
        }
        r->fits = r->plan.peak_bytes <= sc->device_memory;
    }
    run->compiled = true;
    return SS_OK;
}

ss_executable *ss_scenario_executable(const ss_scenario *sc)
{
    return sc && sc->run ? sc->run->report.exe : NULL;
}

void ss_scenario_watch(ss_scenario *sc, ss_watch_fn fn, void *user)
{
    if (!sc || ss_scenario_compile(sc, NULL) != SS_OK)
        return;
    sc->run->watch = fn;
    sc->run->watch_user = fn ? user : NULL;
}

/* Plan and run are once per scenario. */
static ss_status start(ss_scenario *sc, ss_scenario_error *err, const char *what)
{
    ss_status st = ss_scenario_compile(sc, err);
    if (st)
        return st;
    if (sc->run->planned || sc->run->ran) {
        char msg[96];
        snprintf(msg, sizeof msg, "ss_scenario_%s: the scenario was planned or run already", what);
        return fail_at(sc, err, (ss__scn_loc){0, 0}, msg, SS__SCN_EXIT_USAGE, SS_ERR_INVALID);
    }
    return SS_OK;
}

ss_status ss_scenario_plan(ss_scenario *sc, ss_scenario_error *err)
{
    ss_status st = start(sc, err, "plan");
    if (st)
        return st;
    ss__scn_run *run = sc->run;
    run->planned = true;
    run->report.is_plan = true;
    ss__scn_error cerr = {.set = false};
    int crc = ss__scn_ckpt_plan(sc, &run->report.ckpt, &cerr);
    return crc ? fail_at(sc, err, cerr.loc, cerr.msg, crc, SS_OK) : SS_OK;
}

ss_status ss_scenario_run(ss_scenario *sc, ss_scenario_error *err)
{
    ss_status st = start(sc, err, "run");
    if (st)
        return st;
    ss__scn_run *run = sc->run;
    run->ran = true;
    run->pass = true;
    if (!sc->run_name) {
        ss__scn_error cerr = {.set = false};
        int crc = ss__scn_ckpt_run_before(sc, NULL, NULL, &run->report.ckpt, &cerr);
        return crc ? fail_at(sc, err, cerr.loc, cerr.msg, crc, SS_OK) : SS_OK;
    }
    return do_run(sc, run, err);
}

bool ss_scenario_fits(const ss_scenario *sc)
{
    return !sc || !sc->run || !sc->run->report.exe || sc->run->report.fits;
}

bool ss_scenario_checks_passed(const ss_scenario *sc)
{
    return !sc || !sc->run || !sc->run->ran || sc->run->pass;
}

void ss__scn_overrides_from(const ss_scenario_options *opts, ss__scn_overrides *ov)
{
    memset(ov, 0, sizeof *ov);
    ov->mesh = opts->mesh;
    ov->devices = opts->devices;
    ov->device_memory = opts->device_memory;
    ov->nsets = opts->nsets;
    ov->strategy = opts->strategy;
    ov->inputs = opts->inputs;
    ov->maxtext = opts->maxtext;
    ov->slices = opts->slices;
    ov->topology = opts->topology;
    for (int k = 0; k < opts->nsets && k < 32; k++) {
        ov->set_names[k] = opts->set_names[k];
        ov->set_values[k] = opts->set_values[k];
    }
}

ss__scn_report *ss__scn_report_of(ss_scenario *sc)
{
    return sc && sc->run ? &sc->run->report : NULL;
}
