/*
 * cmd_run.c — `shardsim run FILE` and `shardsim plan FILE`.
 *
 * run: load the scenario, compile its run function once, create the
 * virtual devices, run the steps (results that update arrays feed the next
 * step), run the same steps on the single-device reference when there are
 * checks, and print the report. plan: the same without devices, data or
 * compute. Exit status: 0 ok; 1 a check failed, the run failed on the
 * devices (out of memory, deadlock) or the plan does not fit; 2 bad input
 * (`file:line:col: message`, the source line and a caret on stderr, or
 * {"error": ...} on stdout with --json).
 */
#include "scenario.h"
#include "scenario_strategy.h"

#include "base/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <errno.h>
#include <sys/stat.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char run_help[] =
    "usage: shardsim run FILE [options]\n"
    "\n"
    "Run a scenario (scenarios/README.md) on virtual devices and report: the mesh, each\n"
    "`show`, memory per device, the collectives per mesh axis and kind, step times and\n"
    "the `check` results against the single-device run.\n"
    "\n"
    "  --steps N            override the run's steps=N\n"
    "  --explain            add the one-line reason for every op's partitioning\n"
    "  --json               one JSON object (schema in scenarios/README.md)\n"
    "  --trace FILE.json    write a Chrome/Perfetto trace of the devices\n"
    "  --devices N          virtual devices available (the mesh takes the first ones)\n"
    "  --device-memory S    capacity of each device, e.g. 16GiB\n"
    "  --threads N          devices inside a kernel at once (default: the cores)\n"
    "  --mesh AXES          replace the file's mesh, e.g. data=4,model=2\n"
    "  --set NAME=N         set an integer constant of the scenario (NAME = N in the file)\n"
    "  --strategy FILE      shard the params by this strategy (replaces the file's)\n"
    "  --windowed-einsum M  collective matmul: dots that would all-gather an operand of\n"
    "                       at least M MiB pass its blocks around instead (XLA's\n"
    "                       windowed einsum; same bytes, no gathered copy)\n"
    "  --cheapest           take the cheaper lowering where GSPMD's moves more bytes\n"
    "  --watch NAME         during the first step, each device's block before and after\n"
    "                       every collective that reads or writes a value named NAME\n"
    "  --outputs DIR        write every result of the run (the last step's) as DIR/NAME.npy\n"
    "  --no-color           no colour in pictures\n"
    "\n"
    "Exit status: 0 ok, 1 a check failed or the run failed on the devices, 2 bad input.\n";

static const char plan_help[] =
    "usage: shardsim plan FILE [options]\n"
    "\n"
    "Plan a scenario without data or compute (jax.eval_shape's analog): the shape,\n"
    "dtype and sharding of every named value, per-device peak memory, the collectives,\n"
    "FLOPs per device and an estimated step time on hardware profiles\n"
    "(cpu-here, tpu-v5e, h100-nvlink).\n"
    "\n"
    "  --mesh AXES          replace the file's mesh, e.g. data=64,model=64\n"
    "  --profile NAME       estimate for one profile only\n"
    "  --set NAME=N         set an integer constant of the scenario\n"
    "  --strategy FILE      shard the params by this strategy; repeat it to compare\n"
    "                       several side by side (per-device memory, fit, traffic)\n"
    "  --windowed-einsum M, --cheapest   lowering options, as for run\n"
    "  --explain, --json, --trace FILE.json (the estimated timeline of one device),\n"
    "  --devices N, --device-memory S, --threads N (accepted, unused), --no-color\n"
    "\n"
    "Exit status: 0 ok, 1 the plan does not fit in device memory, 2 bad input.\n";

typedef struct run_opts {
    bool plan, json, explain, no_color, help;
    const char *file, *trace, *profile, *watch, *outputs;
    int threads, steps;
    scn_overrides ov;
    char set_names[32][64];
    int nstrategies; /* --strategy FILE, repeatable for plan (cmd_strategy.c) */
    const char *strategies[16];
    ss_compile_options compile; /* --windowed-einsum, --cheapest */
} run_opts;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int fail_usage(const run_opts *o, const char *msg)
{
    return cli_fail(o->plan ? "plan" : "run", o->json, msg);
}

static bool parse_int(const char *v, long lo, long hi, long *out)
{
    char *end;
    long n = v ? strtol(v, &end, 10) : 0;
    if (!v || !*v || *end || n < lo || n > hi)
        return false;
    *out = n;
    return true;
}

static int parse_opts(int argc, char **argv, run_opts *o)
{
    char msg[300];
    for (int i = 2; i < argc; i++)
        o->json = o->json || strcmp(argv[i], "--json") == 0;
    cli_args a;
    cli_args_init(&a, argc, argv, 2);
    while (cli_args_next(&a)) {
        const char *v = NULL;
        long n;
        if (cli_is(&a, "--help") || cli_is(&a, "-h")) {
            o->help = true;
            return SS_EXIT_OK;
        } else if (cli_is(&a, "--json")) {
        } else if (cli_is(&a, "--explain")) {
            o->explain = true;
        } else if (cli_is(&a, "--no-color")) {
            o->no_color = true;
        } else if (cli_is(&a, "--cheapest")) {
            o->compile.cheapest = 1;
        } else if (a.name[0] != '-' || strcmp(a.name, "-") == 0) {
            if (o->file)
                return fail_usage(o, "one scenario file at a time");
            o->file = a.name;
        } else if (!(v = cli_value(&a))) {
            return fail_usage(o, ss_error_message());
        } else if (cli_is(&a, "--trace")) {
            o->trace = v;
        } else if (cli_is(&a, "--profile")) {
            if (!scn_profile_find(v)) {
                snprintf(msg, sizeof msg, "--profile: unknown profile '%s' (cpu-here, tpu-v5e, "
                                          "h100-nvlink)", v);
                return fail_usage(o, msg);
            }
            o->profile = v;
        } else if (cli_is(&a, "--strategy")) {
            if (o->nstrategies == 16 || (!o->plan && o->nstrategies == 1))
                return fail_usage(o, o->plan ? "--strategy: at most 16"
                                             : "run takes one --strategy (plan compares several)");
            o->strategies[o->nstrategies++] = o->ov.strategy = v;
        } else if (cli_is(&a, "--windowed-einsum")) {
            char *end;
            double mib = strtod(v, &end);
            if (end == v || *end || !(mib > 0))
                return fail_usage(o, "--windowed-einsum expects a size in MiB above 0");
            o->compile.windowed_einsum_threshold_mib = mib;
        } else if (cli_is(&a, "--watch")) {
            o->watch = v;
        } else if (cli_is(&a, "--outputs")) {
            o->outputs = v;
        } else if (cli_is(&a, "--mesh")) {
            o->ov.mesh = v;
        } else if (cli_is(&a, "--devices")) {
            if (!parse_int(v, 1, SS_MAX_DEVICES, &n))
                return fail_usage(o, "--devices expects an integer in 1..4096");
            o->ov.devices = (int)n;
        } else if (cli_is(&a, "--threads")) {
            if (!parse_int(v, 1, 4096, &n))
                return fail_usage(o, "--threads expects an integer in 1..4096");
            o->threads = (int)n;
        } else if (cli_is(&a, "--steps")) {
            if (!parse_int(v, 1, 1000000, &n))
                return fail_usage(o, "--steps expects an integer in 1..1000000");
            o->steps = (int)n;
        } else if (cli_is(&a, "--device-memory")) {
            ss_status st = ss_size_parse(v, &o->ov.device_memory);
            if (st || !o->ov.device_memory) {
                snprintf(msg, sizeof msg, "--device-memory: %s",
                         st ? ss_error_message() : "must be more than 0 bytes");
                return fail_usage(o, msg);
            }
        } else if (cli_is(&a, "--set")) {
            const char *eq = strchr(v, '=');
            long long val;
            char *end;
            if (!eq || eq == v || o->ov.nsets == 32 || (size_t)(eq - v) >= 64)
                return fail_usage(o, "--set expects NAME=INTEGER (at most 32)");
            errno = 0;
            val = strtoll(eq + 1, &end, 10);
            if (!eq[1] || *end)
                return fail_usage(o, "--set expects NAME=INTEGER");
            if (errno == ERANGE) {
                snprintf(msg, sizeof msg, "--set %.*s: %.64s is out of range (int64: %lld to %lld)",
                         (int)(eq - v), v, eq + 1, (long long)INT64_MIN, (long long)INT64_MAX);
                return fail_usage(o, msg);
            }
            memcpy(o->set_names[o->ov.nsets], v, (size_t)(eq - v));
            o->set_names[o->ov.nsets][eq - v] = '\0';
            o->ov.set_names[o->ov.nsets] = o->set_names[o->ov.nsets];
            o->ov.set_values[o->ov.nsets++] = val;
        } else {
            snprintf(msg, sizeof msg, "unknown option '%s' (see shardsim %s --help)", a.name,
                     o->plan ? "plan" : "run");
            return fail_usage(o, msg);
        }
    }
    if (!o->file)
        return fail_usage(o, o->plan ? "usage: shardsim plan FILE (see --help)"
                                     : "usage: shardsim run FILE (see --help)");
    if (o->watch && o->plan)
        return fail_usage(o, "--watch shows data: use it with shardsim run");
    if (o->outputs && o->plan)
        return fail_usage(o, "--outputs writes data: use it with shardsim run");
    return -1;
}

/* file:line:col: message, the source line and a caret (or JSON). Returns
 * `code`, except that running out of host memory is never blamed on the
 * input: every SS_ERR_NOMEM message says "out of host memory", and it exits
 * 1 as any other out-of-memory does. */
static int report_error(const scenario *sc, const run_opts *o, scn_loc loc, const char *msg,
                        int code)
{
    if (code == SS_EXIT_USAGE && strstr(msg, "out of host memory"))
        code = SS_EXIT_CHECK;
    if (o->json) {
        ss__buf b;
        ss__buf_init(&b);
        char full[1400];
        if (loc.line)
            snprintf(full, sizeof full, "%s:%d:%d: %s", o->file, loc.line, loc.col, msg);
        else
            snprintf(full, sizeof full, "%s: %s", o->file, msg);
        ss__buf_puts(&b, "{\"error\":");
        ss__json_str(&b, full);
        ss__buf_puts(&b, ",\"file\":");
        ss__json_str(&b, o->file);
        ss__buf_printf(&b, ",\"line\":%d,\"col\":%d}\n", loc.line, loc.col);
        fputs(b.data ? b.data : "{\"error\":\"out of memory\"}\n", stdout);
        ss__buf_free(&b);
        return code;
    }
    if (!loc.line || !sc->src) {
        fprintf(stderr, "%s: %s\n", o->file, msg);
        return code;
    }
    fprintf(stderr, "%s:%d:%d: %s\n", o->file, loc.line, loc.col, msg);
    const char *p = sc->src, *end = sc->src + sc->len;
    for (int l = 1; l < loc.line && p < end; l++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    size_t n = eol ? (size_t)(eol - p) : (size_t)(end - p);
    if (n && p[n - 1] == '\r')
        n--;
    if (n > 1000)
        n = 1000;
    fprintf(stderr, "    %.*s\n    ", (int)n, p);
    for (int c = 1; c < loc.col && (size_t)(c - 1) < n; c++)
        fputc(p[c - 1] == '\t' ? '\t' : ' ', stderr);
    fputs("^\n", stderr);
    return code;
}

/* A part of the report could not be made (out of host memory): the run
 * failed, whatever was printed before. */
static int report_failed(const scenario *sc, const run_opts *o)
{
    char msg[1100];
    snprintf(msg, sizeof msg, "the report is incomplete: %s", ss_error_message());
    fflush(stdout);
    return report_error(sc, o, (scn_loc){0, 0}, msg, SS_EXIT_CHECK);
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
static bool alloc_step_values(const scenario *sc, scn_report *r)
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

static void free_step_values(const scenario *sc, scn_report *r)
{
    for (int o = 0; r->step_values && o < sc->noutputs; o++)
        free(r->step_values[o]);
    free(r->step_values);
    r->step_values = NULL;
}

/* The file name of output o under --outputs: its name, or RUN_K for the
 * K-th result without one; '/' and other path characters become '_'; a
 * name taken earlier gets _2, _3, ... */
static void output_file_name(const scenario *sc, int o, char *buf, size_t cap)
{
    const char *name = sc->outputs[o].name;
    char base[200];
    if (name) {
        snprintf(base, sizeof base, "%s", name);
    } else {
        int k = 0;
        for (int j = 0; j < o; j++)
            k += sc->outputs[j].name_is_result && !sc->outputs[j].extra;
        snprintf(base, sizeof base, "%s_%d", sc->run_name, k);
    }
    for (char *c = base; *c; c++)
        if (*c == '/' || *c == '\\' || *c == ' ' || (c == base && *c == '.'))
            *c = '_';
    snprintf(buf, cap, "%s", base);
    for (int dup = 2;; dup++) {
        bool taken = false;
        for (int j = 0; j < o && !taken; j++) {
            char other[256];
            if (sc->outputs[j].extra)
                continue;
            output_file_name(sc, j, other, sizeof other);
            taken = strcmp(other, buf) == 0;
        }
        if (!taken)
            return;
        snprintf(buf, cap, "%s_%d", base, dup);
    }
}

/* run --outputs DIR: every result of the run (not the extra outputs made
 * for checks and prints) as DIR/NAME.npy, the last step's values. */
static ss_status write_outputs(const scenario *sc, const char *dir, void *const out[])
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return ss__fail(SS_ERR_IO, "--outputs %s: cannot create the directory: %s", dir,
                        strerror(errno));
    for (int o = 0; o < sc->noutputs; o++) {
        if (sc->outputs[o].extra)
            continue;
        char name[256], path[4096];
        output_file_name(sc, o, name, sizeof name);
        snprintf(path, sizeof path, "%s/%s.npy", dir, name);
        ss_dtype dt;
        int rank;
        int64_t shape[SS_MAX_RANK];
        ss_status st = ss_value_shape(sc->program, sc->outputs[o].value, &dt, &rank, shape);
        if (!st)
            st = scn_npy_write(path, dt, rank, shape, out[o]);
        if (st)
            return st;
    }
    return SS_OK;
}

/* Host buffers of one trajectory: program inputs and outputs. */
typedef struct host {
    int nin, nout;
    void **in, **out;
} host;

static void host_free(host *h)
{
    for (int i = 0; h->in && i < h->nin; i++)
        free(h->in[i]);
    for (int i = 0; h->out && i < h->nout; i++)
        free(h->out[i]);
    free(h->in);
    free(h->out);
    memset(h, 0, sizeof *h);
}

static bool host_alloc(const scenario *sc, host *h, bool fill)
{
    h->nin = sc->ninputs;
    h->nout = sc->noutputs;
    h->in = calloc((size_t)h->nin + 1, sizeof(void *));
    h->out = calloc((size_t)h->nout + 1, sizeof(void *));
    if (!h->in || !h->out)
        return false;
    for (int i = 0; i < h->nin; i++) {
        const scn_array *a = &sc->arrays[sc->input_array[i]];
        size_t n = value_bytes(sc->program, a->value);
        if (!(h->in[i] = malloc(n ? n : 1)))
            return false;
        if (fill)
            scn_init_fill(a, h->in[i]);
    }
    for (int i = 0; i < h->nout; i++) {
        size_t n = value_bytes(sc->program, sc->outputs[i].value);
        if (!(h->out[i] = calloc(n ? n : 1, 1)))
            return false;
    }
    return true;
}

/* The input that output o updates between steps, or -1. */
static int fed_input(const scenario *sc, int o)
{
    for (int i = 0; sc->outputs[o].feeds >= 0 && i < sc->ninputs; i++)
        if (sc->input_array[i] == sc->outputs[o].feeds)
            return i;
    return -1;
}

/* Results that update arrays become those arrays' values for the next step. */
static void feed(const scenario *sc, host *h)
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

void scn_check_compare(ss_dtype dt, const void *run, const void *ref, int64_t n, double tol,
                       scn_check_result *res)
{
    memset(res, 0, sizeof *res);
    res->first_bad = -1;
    for (int64_t i = 0; i < n; i++) {
        double a = scn_elem_get(dt, run, (size_t)i);
        double b = scn_elem_get(dt, ref, (size_t)i);
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
static bool compare(const scenario *sc, const host *run, const host *ref, scn_report *r)
{
    bool all = true;
    for (int k = 0; k < sc->nchecks; k++) {
        const scn_check *c = &sc->checks[k];
        ss_value v = sc->outputs[c->output].value;
        ss_dtype dt;
        int rank;
        int64_t shape[SS_MAX_RANK], n = 1;
        ss_value_shape(sc->program, v, &dt, &rank, shape);
        for (int d = 0; d < rank; d++)
            n *= shape[d];
        scn_check_compare(dt, run->out[c->output], ref->out[c->output], n, c->tol, &r->checks[k]);
        all = all && r->checks[k].pass;
    }
    return all;
}

static void progress(int done, int total, double elapsed, bool last)
{
    fprintf(stderr, "\r  step %d/%d  elapsed %.1f s%s", done, total, elapsed,
            last ? "          \n" : "   ");
    fflush(stderr);
}

/* The runtime names buffers "%N op"; in a message for the user, a value
 * the scenario names reads better as "name (line L)". */
static void name_values(const scenario *sc, const char *msg, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *p = msg; *p && n + 1 < cap;) {
        char *end;
        long v = p[0] == '%' && isdigit((unsigned char)p[1]) ? strtol(p + 1, &end, 10) : -1;
        const char *name = v >= 0 ? scn_value_name(sc, (ss_value)v) : NULL;
        if (name) {
            /* Skip the op word after the number ("%3 param"). */
            if (*end == ' ' && isalpha((unsigned char)end[1])) {
                end++;
                while (isalnum((unsigned char)*end) || *end == '_')
                    end++;
            }
            scn_loc loc = scn_value_loc(sc, (ss_value)v);
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
static void carried_donations(const scenario *sc, bool donate[])
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
    scenario *sc;
    scn_report *r;
    host *h;
    double *times;
    bool show_progress;
    double start;
    bool *shown;
} dev_run;

/* A result that feeds input k but came out laid out otherwise (its own
 * propagated sharding) is resharded to the input's layout, as jit moves an
 * argument to its in_sharding; between steps, so not in a step's time. */
static ss_status refit(dev_run *d, int k, ss_array **a)
{
    const scn_array *arr = &d->sc->arrays[d->sc->input_array[k]];
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
    scenario *sc = d->sc;
    scn_report *r = d->r;
    int ni = sc->ninputs, no = sc->noutputs;
    ss_array **in = calloc((size_t)ni + 1, sizeof *in), **out = calloc((size_t)no + 1, sizeof *out);
    bool *donate = calloc((size_t)ni + 1, sizeof *donate);
    ss_status st = in && out && donate ? SS_OK : ss__fail(SS_ERR_NOMEM, "out of host memory");
    if (!st)
        carried_donations(sc, donate);
    for (int k = 0; k < ni && !st; k++) {
        const scn_array *a = &sc->arrays[sc->input_array[k]];
        ss_sharding sh;
        char name[48];
        snprintf(name, sizeof name, "%%%d %s", (int)a->value, a->is_param ? "param" : "input");
        if (!(st = ss_value_sharding(sc->program, a->value, &sh)))
            st = ss_array_put(r->ctx, &sh, a->rank, a->shape, a->dtype, d->h->in[k], name, &in[k]);
    }
    for (int s = 0; s < r->steps && !st; s++) {
        bool last = s + 1 == r->steps;
        for (int k = 0; last && s > 0 && k < ni && !st; k++) /* the last step's inputs */
            st = ss_array_get(in[k], d->h->in[k], value_bytes(sc->program, sc->arrays[sc->input_array[k]].value));
        if (st)
            break;
        double t0 = now_s();
        st = ss_executable_run_arrays(r->exe, r->ctx, in, donate, out);
        d->times[s] = now_s() - t0;
        if (r->watch)
            scn_watch_stop(r->watch, r->exe); /* the first step only */
        if (st)
            break;
        for (int o = 0; o < no && !st && r->step_values; o++) {
            unsigned char one[16];
            if (r->step_values[o] &&
                !(st = ss_array_get(out[o], one, value_bytes(sc->program, sc->outputs[o].value))))
                r->step_values[o][s] = scn_elem_get(value_dtype(sc->program, sc->outputs[o].value),
                                                    one, 0);
        }
        for (int o = 0; o < no; o++) {
            int feeds = last ? -1 : fed_input(sc, o);
            if (last && !st)
                st = ss_array_get(out[o], d->h->out[o], value_bytes(sc->program, sc->outputs[o].value));
            if (feeds >= 0) {
                ss_array_destroy(in[feeds]);
                in[feeds] = NULL;
                if (!st)
                    st = refit(d, feeds, &out[o]);
                in[feeds] = out[o];
            } else {
                ss_array_destroy(out[o]);
            }
            out[o] = NULL;
        }
        if (d->show_progress && (now_s() - d->start > 0.5 || *d->shown)) {
            progress(s + 1, r->steps, now_s() - d->start, last);
            *d->shown = true;
        }
    }
    for (int k = 0; in && k < ni; k++)
        ss_array_destroy(in[k]);
    free(in);
    free(out);
    free(donate);
    return st;
}

static int do_run(scenario *sc, const run_opts *o, scn_report *r)
{
    host h = {0, 0, NULL, NULL}, ref = {0, 0, NULL, NULL};
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
        cli_fmt_bytes(a, sizeof a, (double)need);
        cli_fmt_bytes(b, sizeof b, limit);
        snprintf(msg, sizeof msg, "the run needs %s of host memory for its global arrays "
                                  "(limit %s); plan it instead: shardsim plan", a, b);
        return report_error(sc, o, sc->run_loc, msg, SS_EXIT_CHECK);
    }
    /* The reference starts from the same values: copied, not drawn again. */
    if (!host_alloc(sc, &h, true) || (sc->nchecks && !host_alloc(sc, &ref, false))) {
        host_free(&h);
        host_free(&ref);
        return report_error(sc, o, (scn_loc){0, 0}, "out of host memory", SS_EXIT_CHECK);
    }
    /* save/restore statements above `run`; restored values feed both runs. */
    scn_error cerr = {.set = false};
    for (int i = 0; sc->nchecks && i < sc->ninputs; i++)
        memcpy(ref.in[i], h.in[i], value_bytes(sc->program, sc->arrays[sc->input_array[i]].value));
    int crc = scn_ckpt_run_before(sc, h.in, sc->nchecks ? ref.in : NULL, &r->ckpt, &cerr);
    if (crc) {
        host_free(&h);
        host_free(&ref);
        return report_error(sc, o, cerr.loc, cerr.msg, crc);
    }
    ss_context_options co = {.ndevices = ss_mesh_device_count(sc->mesh),
                             .device_memory = sc->device_memory,
                             .hosts = sc->hosts,
                             .threads = o->threads,
                             .timeout = 60};
    int rc = SS_EXIT_OK;
    ss_status st = ss_context_create(&co, &r->ctx);
    if (st) {
        rc = report_error(sc, o, (scn_loc){0, 0}, ss_error_message(), SS_EXIT_USAGE);
        goto out;
    }
    if (o->trace)
        ss_context_trace_enable(r->ctx, 1);
    double *times = calloc((size_t)r->steps, sizeof *times), start = now_s();
    bool show_progress = !o->json && r->steps > 1 && isatty(STDERR_FILENO);
    bool shown = false;
    if (o->watch && (st = scn_watch_start(sc, r->exe, o->watch, &r->watch))) {
        rc = report_error(sc, o, (scn_loc){0, 0}, ss_error_message(), SS_EXIT_USAGE);
        free(times);
        goto out;
    }
    if (times && !alloc_step_values(sc, r)) {
        free(times);
        times = NULL;
    }
    if (times) {
        dev_run d = {sc, r, &h, times, show_progress, start, &shown};
        st = device_steps(&d);
    }
    if (!times) {
        rc = report_error(sc, o, (scn_loc){0, 0}, "out of host memory", SS_EXIT_CHECK);
        goto out;
    }
    if (st) {
        if (shown)
            fputc('\n', stderr);
        char msg[2048];
        name_values(sc, ss_error_message(), msg, sizeof msg);
        rc = report_error(sc, o, scn_loc_from_message(sc, ss_error_message()), msg,
                          st == SS_ERR_DEVICE_OOM || st == SS_ERR_DEADLOCK ||
                                  st == SS_ERR_MISMATCH
                              ? SS_EXIT_CHECK
                              : SS_EXIT_USAGE);
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
    if (o->trace && ss_context_trace_write(r->ctx, o->trace) != SS_OK) {
        rc = report_error(sc, o, (scn_loc){0, 0}, ss_error_message(), SS_EXIT_USAGE);
        goto out;
    }
    if ((crc = scn_ckpt_run_after(sc, r->ckpt, h.in, h.out, &cerr))) {
        rc = report_error(sc, o, cerr.loc, cerr.msg, crc);
        goto out;
    }
    if (o->outputs && (st = write_outputs(sc, o->outputs, h.out))) {
        rc = report_error(sc, o, (scn_loc){0, 0}, ss_error_message(),
                          st == SS_ERR_NOMEM ? SS_EXIT_CHECK : SS_EXIT_USAGE);
        goto out;
    }
    r->outputs = h.out;
    r->outputs_dir = o->outputs;
    bool pass = true;
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
            rc = report_error(sc, o, scn_loc_from_message(sc, ss_error_message()),
                              ss_error_message(), SS_EXIT_USAGE);
            goto out;
        }
        pass = compare(sc, &h, &ref, r);
    }
    if ((st = scn_report_print(sc, r, stdout)))
        rc = report_failed(sc, o);
    else
        rc = pass ? SS_EXIT_OK : SS_EXIT_CHECK;
out:
    r->outputs = NULL;
    host_free(&h);
    host_free(&ref);
    return rc;
}

/* plan --trace: the estimated timeline of one device (every device runs the
 * same instruction list), one slice per kernel or collective. */
static bool write_plan_trace(const scenario *sc, const scn_report *r, const char *path)
{
    const scn_profile *p = scn_profile_find(r->profile ? r->profile : "tpu-v5e");
    scn_step_cost *c;
    int n;
    if (scn_exec_costs(r->exe, &c, &n) != SS_OK)
        return false;
    FILE *f = fopen(path, "w");
    if (!f) {
        free(c);
        return false;
    }
    fprintf(f, "{\"traceEvents\":[{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":0,"
               "\"args\":{\"name\":\"every device (estimate, %s)\"}}", p->name);
    double t = 0;
    for (int k = 0; k < n; k++) {
        double dur;
        const char *name = ss_value_op_name(sc->program, c[k].value);
        ss_coll_record rec;
        if (c[k].is_coll && ss_executable_ledger_get(r->exe, c[k].ledger_index, &rec) == SS_OK) {
            double bw, alpha;
            scn_profile_axis_link(p, sc->mesh, rec.axes, &bw, &alpha);
            double g = rec.group_size > 1 ? rec.group_size - 1 : 0;
            dur = (rec.kind == SS_COLL_ALL_REDUCE ? 2 * g : rec.kind == SS_COLL_PERMUTE ? 1 : g) *
                      alpha + rec.sent / bw;
            name = ss_coll_kind_name(rec.kind);
        } else {
            double peak = c[k].dtype == SS_BF16 || c[k].dtype == SS_F16 ? p->flops_bf16
                                                                        : p->flops_f32;
            double tf = c[k].flops / peak, tb = c[k].bytes / p->hbm_bw;
            dur = tf > tb ? tf : tb;
        }
        fprintf(f, ",{\"name\":\"%s\",\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":%.3f,\"dur\":%.3f,"
                   "\"args\":{\"value\":%d,\"line\":%d}}",
                name ? name : "?", t * 1e6, dur * 1e6, (int)c[k].value,
                scn_value_loc(sc, c[k].value).line);
        t += dur;
    }
    fprintf(f, "]}\n");
    free(c);
    return fclose(f) == 0;
}

static int scenario_one(run_opts *op, const char *text, bool plan);

/* Does the line at p start a mesh section: `mesh` at column 1? */
static bool mesh_line(const char *p, const char *end)
{
    return end - p > 5 && memcmp(p, "mesh", 4) == 0 && (p[4] == ' ' || p[4] == '\t');
}

/* A file with several top-level `mesh` statements is several scenarios, in
 * order: the lines above the first `mesh` (constants) are shared, and each
 * `mesh` line starts a section that runs on its own mesh and devices (its
 * arrays, functions, run, save/restore, checks and prints). Each section
 * sees the file with the other sections' lines blanked, so messages keep
 * the file's line numbers. Sections stop at the first that fails. */
static int scenario_sections(run_opts *o, const char *text, bool plan)
{
    scenario file;
    memset(&file, 0, sizeof file);
    char *own = NULL;
    size_t len;
    if (!text) {
        FILE *f = fopen(o->file, "rb");
        if (!f)
            return scenario_one(o, NULL, plan); /* its error, as before */
        ss__buf b;
        ss__buf_init(&b);
        char chunk[65536];
        size_t n;
        while ((n = fread(chunk, 1, sizeof chunk, f)) > 0 && b.len <= ((size_t)64 << 20))
            ss__buf_putn(&b, chunk, n);
        fclose(f);
        if (b.len > ((size_t)64 << 20) || b.oom) {
            ss__buf_free(&b);
            return fail_usage(o, b.oom ? "out of host memory" : "file larger than 64 MiB");
        }
        if (memchr(b.data ? b.data : "", '\0', b.len)) { /* its error, with the file's words */
            ss__buf_free(&b);
            return scenario_one(o, NULL, plan);
        }
        own = b.data ? b.data : calloc(1, 1);
        text = own;
    }
    len = strlen(text);
    int starts[64], n = 0;
    size_t at[64];
    int line = 1;
    for (const char *p = text, *end = text + len; p < end && n < 64; line++) {
        if (mesh_line(p, end)) {
            starts[n] = line;
            at[n++] = (size_t)(p - text);
        }
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    if (n <= 1) { /* the text read once (the file may be a pipe) */
        int rc = scenario_one(o, text, plan);
        free(own);
        return rc;
    }
    if (o->ov.mesh || o->outputs || o->trace || o->watch) {
        free(own);
        return fail_usage(o, "--mesh, --outputs, --trace and --watch take a file with one "
                             "mesh; this one declares several");
    }
    char *sec = malloc(len + 1);
    if (!sec) {
        free(own);
        return fail_usage(o, "out of host memory");
    }
    if (o->json)
        printf("{\"command\":\"%s\",\"sections\":[", plan ? "plan" : "run");
    int rc = SS_EXIT_OK;
    for (int k = 0; k < n && rc == SS_EXIT_OK; k++) {
        size_t lo = at[k], hi = k + 1 < n ? at[k + 1] : len;
        /* the shared lines and this section's; the others blank */
        for (size_t i = 0; i < len; i++)
            sec[i] = i < at[0] || (i >= lo && i < hi) || text[i] == '\n' ? text[i] : ' ';
        sec[len] = '\0';
        if (o->json)
            printf("%s", k ? "," : "");
        else
            printf("%s== %s: mesh section %d of %d (line %d) ==\n\n", k ? "\n" : "", o->file,
                   k + 1, n, starts[k]);
        fflush(stdout);
        rc = scenario_one(o, sec, plan);
        fflush(stdout);
    }
    if (o->json)
        printf("]}\n");
    free(sec);
    free(own);
    return rc;
}

static int scenario_main(int argc, char **argv, const char *text, bool plan)
{
    run_opts o;
    memset(&o, 0, sizeof o);
    o.plan = plan;
    int rc = parse_opts(argc, argv, &o);
    if (o.help) {
        fputs(plan ? plan_help : run_help, stdout);
        return SS_EXIT_OK;
    }
    if (rc >= 0)
        return rc;
    if (o.nstrategies > 1) /* side by side (cmd_strategy.c) */
        return scn_strategy_compare(o.file, text, &o.ov, o.nstrategies, o.strategies, o.json);
    return scenario_sections(&o, text, plan);
}

/* One scenario (one mesh): load, compile, run or plan, report. */
static int scenario_one(run_opts *op, const char *text, bool plan)
{
    run_opts o = *op;
    int rc;
    scenario sc;
    scn_report r;
    memset(&r, 0, sizeof r);
    r.is_plan = plan;
    r.json = o.json;
    r.explain = o.explain;
    r.profile = o.profile;
    r.color = !o.no_color && !o.json && cli_use_color();
    if (scn_load(&sc, o.file, text, &o.ov) != SS_OK) {
        rc = report_error(&sc, &o, sc.err.loc, sc.err.msg, SS_EXIT_USAGE);
        scn_free(&sc);
        return rc;
    }
    if (!sc.device_memory)
        sc.device_memory = SS_DEFAULT_DEVICE_MEMORY;
    r.steps = o.steps ? o.steps : sc.steps ? sc.steps : 1;
    rc = SS_EXIT_OK;
    if (sc.run_name) {
        double t0 = now_s();
        ss_status st = ss_program_compile_with(sc.program, &o.compile, &r.exe);
        r.compile_s = now_s() - t0;
        /* Runs keep their arrays on the devices (device_steps): plan that. */
        bool *donate = calloc((size_t)sc.ninputs + 1, sizeof *donate);
        if (!st && !donate)
            st = ss__fail(SS_ERR_NOMEM, "out of host memory");
        if (!st) {
            carried_donations(&sc, donate);
            st = ss_executable_plan_arrays(r.exe, donate, &r.plan);
        }
        free(donate);
        if (st) {
            const char *msg = ss_error_message();
            scn_loc loc = scn_loc_from_message(&sc, msg);
            rc = report_error(&sc, &o, loc.line ? loc : sc.run_loc, msg, SS_EXIT_USAGE);
            goto out;
        }
        r.fits = r.plan.peak_bytes <= sc.device_memory;
    }
    if (plan || !sc.run_name) {
        scn_error cerr = {.set = false};
        int crc = plan ? scn_ckpt_plan(&sc, &r.ckpt, &cerr)
                       : scn_ckpt_run_before(&sc, NULL, NULL, &r.ckpt, &cerr);
        if (crc) {
            rc = report_error(&sc, &o, cerr.loc, cerr.msg, crc);
            goto out;
        }
        if (plan && o.trace && r.exe && !write_plan_trace(&sc, &r, o.trace)) {
            rc = report_error(&sc, &o, (scn_loc){0, 0}, "--trace: cannot write the file",
                              SS_EXIT_USAGE);
            goto out;
        }
        if (scn_report_print(&sc, &r, stdout))
            rc = report_failed(&sc, &o);
        else
            rc = plan && r.exe && !r.fits ? SS_EXIT_CHECK : SS_EXIT_OK;
        goto out;
    }
    if (o.watch && !scn_watch_known(&sc, o.watch)) {
        char msg[256];
        snprintf(msg, sizeof msg, "--watch: no value is named '%s' in the scenario", o.watch);
        rc = report_error(&sc, &o, (scn_loc){0, 0}, msg, SS_EXIT_USAGE);
        goto out;
    }
    rc = do_run(&sc, &o, &r);
out:
    free_step_values(&sc, &r);
    scn_watch_free(r.watch);
    scn_ckpt_destroy(r.ckpt);
    ss_context_destroy(r.ctx);
    ss_executable_destroy(r.exe);
    scn_free(&sc);
    return rc;
}

int ss__cli_run(int argc, char **argv) { return scenario_main(argc, argv, NULL, false); }
int ss__cli_plan(int argc, char **argv) { return scenario_main(argc, argv, NULL, true); }

int ss__cli_scenario_text(int argc, char **argv, const char *text)
{
    bool plan = argc > 1 && strcmp(argv[1], "plan") == 0;
    return scenario_main(argc, argv, text, plan);
}
