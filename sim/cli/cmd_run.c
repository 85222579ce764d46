/*
 * cmd_run.c — `shardsim run FILE` and `shardsim plan FILE`: options, the
 * scenario through the library (shardsim.h, "Scenarios"), and the report.
 *
 * Exit status: 0 ok; 1 a check failed, the run failed on the devices (out
 * of memory, deadlock) or the plan does not fit; 2 bad input
 * (`file:line:col: message`, the source line and a caret on stderr, or
 * {"error": ...} on stdout with --json).
 */
#include "scenario_cli.h"

#include "base/json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    "  --explain-memory     every buffer alive at the planned peak, its role and source\n"
    "  --json               one JSON object (schema in scenarios/README.md)\n"
    "  --trace FILE.json    write a Chrome/Perfetto trace of the devices\n"
    "  --html FILE.html     write the report as one self-contained page (opens offline):\n"
    "                       mesh, array layouts, ops and why, ledger, timeline, memory,\n"
    "                       a step-through of the ops and collectives\n"
    "  --devices N          virtual devices available (the mesh takes the first ones)\n"
    "  --device-memory S    capacity of each device, e.g. 16GiB\n"
    "  --threads N          worker threads running the devices (default: the cores)\n"
    "  --mesh AXES          replace the file's mesh, e.g. data=4,model=2\n"
    "  --maxtext FILE.yml   a MaxText config gives the mesh (over --devices, in\n"
    "                       --slices S) and the logical rules, replacing the file's;\n"
    "                       --model FILE and --override KEY=VALUE as for shardsim rules\n"    "  --topology T         with --maxtext: TPU slices of this topology (v5e:4x4,\n"
    "                       v5p:4x4x4, ...) give the devices and their order (JAX's\n"
    "                       torus order, as for shardsim rules)\n"
    "  --set NAME=N         set an integer constant of the scenario (NAME = N in the file)\n"
    "  --strategy FILE      shard the params by this strategy (replaces the file's)\n"
    "  --windowed-einsum M  collective matmul: dots that would all-gather an operand of\n"
    "                       at least M MiB pass its blocks around instead (XLA's\n"
    "                       windowed einsum; same bytes, no gathered copy)\n"
    "  --cheapest           take the cheaper lowering where GSPMD's moves more bytes\n"
    "  --watch NAME         during the first step, each device's block before and after\n"
    "                       every collective that reads or writes a value named NAME\n"
    "  --outputs DIR        write every result of the run (the last step's) as DIR/NAME.npy\n"
    "  --inputs DIR         a .mlir module's arguments from DIR/NAME.npy (NAME: the\n"
    "                       argument's path in its location, else argN); default random\n"
    "  --no-check           skip the `check` statements and the single-device run they\n"
    "                       compare with (a .mlir run checks every result by default);\n"
    "                       for timing the sharded run alone\n"
    "  --no-color           no colour in pictures\n"
    "\n"
    "Exit status: 0 ok, 1 a check failed or the run failed on the devices, 2 bad input.\n";

static const char plan_help[] =
    "usage: shardsim plan FILE [options]\n"
    "\n"
    "Plan a scenario without data or compute (jax.eval_shape's analog): the shape,\n"
    "dtype and sharding of every named value, per-device peak memory, the collectives,\n"
    "FLOPs per device and an estimated step time on hardware profiles\n"
    "(cpu-here, tpu-v5e, tpu-v5p, h100-nvlink).\n"
    "\n"
    "  --mesh AXES          replace the file's mesh, e.g. data=64,model=64\n"
    "  --maxtext FILE.yml   a MaxText config gives the mesh (over --devices, in\n"
    "                       --slices S) and the logical rules, replacing the file's;\n"
    "                       --model FILE and --override KEY=VALUE as for shardsim rules\n"    "  --topology T         with --maxtext: TPU slices of this topology (v5e:4x4,\n"
    "                       v5p:4x4x4, ...) give the devices and their order (JAX's\n"
    "                       torus order, as for shardsim rules)\n"
    "  --device NAME        plan for this accelerator: its HBM is the device memory and\n"
    "                       its compiler's accounting sizes the plan (tpu-v5e: XLA's TPU\n"
    "                       tiling, temporaries in on-chip memory when they fit)\n"
    "  --profile NAME       estimate for one profile only\n"
    "  --explain-memory     every buffer alive at the planned peak: its bytes, its role\n"
    "                       (argument, result, temporary, scratch, loop) and its source\n"
    "  --set NAME=N         set an integer constant of the scenario\n"
    "  --strategy FILE      shard the params by this strategy; repeat it to compare\n"
    "                       several side by side (per-device memory, fit, traffic)\n"
    "  --windowed-einsum M, --cheapest   lowering options, as for run\n"
    "  --explain, --json, --trace FILE.json (the estimated timeline of one device),\n"
    "  --html FILE.html (the report as one self-contained page, as for run),\n"
    "  --devices N, --device-memory S, --threads N (accepted, unused), --no-color\n"
    "\n"
    "Exit status: 0 ok, 1 the plan does not fit in device memory, 2 bad input.\n";

typedef struct run_opts {
    bool plan, json, explain, explain_memory, no_color, help, no_check;
    const char *file, *trace, *html, *profile, *watch, *outputs;
    const ss_hw_profile *device; /* plan --device */
    int threads, steps;
    ss_scenario_options so; /* what the options change: mesh, devices, sets, ... */
    char set_names[32][64];
    const char *set_name_ptrs[32];
    int64_t set_values[32];
    int nstrategies; /* --strategy FILE, repeatable for plan (cmd_strategy.c) */
    const char *strategies[16];
    ss_compile_options compile; /* --windowed-einsum, --cheapest */
    const char *maxtext, *model; /* --maxtext CONFIG, --model FILE */
    ss_tpu_topology topology;    /* --topology, when so.topology is set */
    int noverrides;              /* --override KEY=VALUE */
    const char *overrides[64];
} run_opts;

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
        } else if (cli_is(&a, "--explain-memory")) {
            o->explain_memory = true;
        } else if (cli_is(&a, "--no-check")) {
            if (o->plan)
                return fail_usage(o, "--no-check skips a run's checks: use it with shardsim run");
            o->no_check = true;
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
        } else if (cli_is(&a, "--html")) {
            o->html = v;
        } else if (cli_is(&a, "--profile") || cli_is(&a, "--device")) {
            if (!ss_hw_profile_find(v)) {
                char known[160] = "";
                for (int k = 0; k < ss_hw_profile_count(); k++)
                    snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
                             k ? ", " : "", ss_hw_profile_get(k)->name);
                snprintf(msg, sizeof msg, "%s: unknown profile '%s' (%s)", a.name, v, known);
                return fail_usage(o, msg);
            }
            if (cli_is(&a, "--device"))
                o->device = ss_hw_profile_find(v);
            o->profile = v;
        } else if (cli_is(&a, "--strategy")) {
            if (o->nstrategies == 16 || (!o->plan && o->nstrategies == 1))
                return fail_usage(o, o->plan ? "--strategy: at most 16"
                                             : "run takes one --strategy (plan compares several)");
            o->strategies[o->nstrategies++] = o->so.strategy = v;
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
        } else if (cli_is(&a, "--inputs")) {
            o->so.inputs = v;
        } else if (cli_is(&a, "--mesh")) {
            o->so.mesh = v;
        } else if (cli_is(&a, "--maxtext")) {
            o->maxtext = v;
        } else if (cli_is(&a, "--model")) {
            o->model = v;
        } else if (cli_is(&a, "--topology")) {
            if (ss_tpu_topology_parse(v, &o->topology))
                return fail_usage(o, ss_error_message());
            o->so.topology = &o->topology;
        } else if (cli_is(&a, "--override")) {
            if (o->noverrides == 64)
                return fail_usage(o, "more than 64 --override options");
            o->overrides[o->noverrides++] = v;
        } else if (cli_is(&a, "--slices")) {
            if (!parse_int(v, 1, SS_MAX_DEVICES, &n))
                return fail_usage(o, "--slices expects an integer in 1..4096");
            o->so.slices = (int)n;
        } else if (cli_is(&a, "--devices")) {
            if (!parse_int(v, 1, SS_MAX_DEVICES, &n))
                return fail_usage(o, "--devices expects an integer in 1..4096");
            o->so.devices = (int)n;
        } else if (cli_is(&a, "--threads")) {
            if (!parse_int(v, 1, 4096, &n))
                return fail_usage(o, "--threads expects an integer in 1..4096");
            o->threads = (int)n;
        } else if (cli_is(&a, "--steps")) {
            if (!parse_int(v, 1, 1000000, &n))
                return fail_usage(o, "--steps expects an integer in 1..1000000");
            o->steps = (int)n;
        } else if (cli_is(&a, "--device-memory")) {
            ss_status st = ss_size_parse(v, &o->so.device_memory);
            if (st || !o->so.device_memory) {
                snprintf(msg, sizeof msg, "--device-memory: %s",
                         st ? ss_error_message() : "must be more than 0 bytes");
                return fail_usage(o, msg);
            }
        } else if (cli_is(&a, "--set")) {
            const char *eq = strchr(v, '=');
            long long val;
            char *end;
            if (!eq || eq == v || o->so.nsets == 32 || (size_t)(eq - v) >= 64)
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
            memcpy(o->set_names[o->so.nsets], v, (size_t)(eq - v));
            o->set_names[o->so.nsets][eq - v] = '\0';
            o->set_name_ptrs[o->so.nsets] = o->set_names[o->so.nsets];
            o->set_values[o->so.nsets++] = val;
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
    if (o->device && !o->plan)
        return fail_usage(o, "--device plans for an accelerator: use it with shardsim plan");
    if (o->outputs && o->plan)
        return fail_usage(o, "--outputs writes data: use it with shardsim run");
    if (!o->maxtext && (o->model || o->noverrides || o->so.slices || o->so.topology))
        return fail_usage(o, "--model, --override, --slices and --topology need --maxtext");
    if (o->so.topology && o->so.devices)
        return fail_usage(o, "--topology gives the devices (its chips x the slices): drop "
                             "--devices");
    return -1;
}

/* file:line:col: message, the source line and a caret (or JSON). Returns
 * the exit status: 2 for bad input, 1 for a failed run (running out of
 * host memory is never blamed on the input). */
static int report_error(const run_opts *o, const ss_scenario_error *e)
{
    int code = e->bad_input ? SS_EXIT_USAGE : SS_EXIT_CHECK;
    if (o->json) {
        ss__buf b;
        ss__buf_init(&b);
        char full[2400];
        if (e->line)
            snprintf(full, sizeof full, "%s:%d:%d: %s", o->file, e->line, e->col, e->message);
        else
            snprintf(full, sizeof full, "%s: %s", o->file, e->message);
        ss__buf_puts(&b, "{\"error\":");
        ss__json_str(&b, full);
        ss__buf_puts(&b, ",\"file\":");
        ss__json_str(&b, o->file);
        ss__buf_printf(&b, ",\"line\":%d,\"col\":%d}\n", e->line, e->col);
        fputs(b.data ? b.data : "{\"error\":\"out of memory\"}\n", stdout);
        ss__buf_free(&b);
        return code;
    }
    if (!e->line) {
        fprintf(stderr, "%s: %s\n", o->file, e->message);
        return code;
    }
    fprintf(stderr, "%s:%d:%d: %s\n", o->file, e->line, e->col, e->message);
    const char *p = e->source_line;
    size_t n = strlen(p);
    if (n > 1000)
        n = 1000;
    fprintf(stderr, "    %.*s\n    ", (int)n, p);
    for (int c = 1; c < e->col && (size_t)(c - 1) < n; c++)
        fputc(p[c - 1] == '\t' ? '\t' : ' ', stderr);
    fputs("^\n", stderr);
    return code;
}

/* A message of the command's own (not about a spot in the file). */
static int report_message(const run_opts *o, const char *msg, bool bad_input)
{
    ss_scenario_error e;
    memset(&e, 0, sizeof e);
    e.bad_input = bad_input && !strstr(msg, "out of host memory");
    snprintf(e.message, sizeof e.message, "%s", msg);
    return report_error(o, &e);
}

/* A part of the report could not be made (out of host memory): the run
 * failed, whatever was printed before. */
static int report_failed(const run_opts *o)
{
    char msg[1100];
    snprintf(msg, sizeof msg, "the report is incomplete: %s", ss_error_message());
    fflush(stdout);
    return report_message(o, msg, false);
}

/* Progress on stderr for runs of several steps on a terminal: shown once
 * the run has taken half a second. */
typedef struct progress_state {
    bool shown;
} progress_state;

static void progress(int done, int total, double elapsed, void *user)
{
    progress_state *p = user;
    if (!(elapsed > 0.5 || p->shown))
        return;
    p->shown = true;
    fprintf(stderr, "\r  step %d/%d  elapsed %.1f s%s", done, total, elapsed,
            done == total ? "          \n" : "   ");
    fflush(stderr);
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
    char *own = NULL;
    size_t len;
    if (!text) {
        size_t flen;
        int e = ss__read_file(o->file, SS_SCENARIO_FILE_MAX, &own, &flen);
        if (e == EFBIG || e == ENOMEM)
            return fail_usage(o, e == ENOMEM ? "out of host memory" : "file larger than 64 MiB");
        if (e || memchr(own, '\0', flen)) { /* its error, with the file's words */
            free(own);
            return scenario_one(o, NULL, plan);
        }
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
    if (o->so.mesh || o->outputs || o->trace || o->watch || o->html) {
        free(own);
        return fail_usage(o, "--mesh, --outputs, --trace, --html and --watch take a file with "
                             "one mesh; this one declares several");
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

/* plan --strategy A --strategy B ...: one column per strategy. Errors as
 * the comparison always printed them: "shardsim plan: FILE:LINE:COL: why". */
static int compare_strategies(const run_opts *o, const char *text)
{
    ss_scenario_options so = o->so;
    so.set_names = o->set_name_ptrs;
    so.set_values = o->set_values;
    ss_scenario_error err;
    bool any = false;
    if (ss_scenario_compare_strategies(o->file, text, &so, o->nstrategies, o->strategies, o->json,
                                       stdout, &any, &err) != SS_OK) {
        char full[2400];
        if (err.line)
            snprintf(full, sizeof full, "%s:%d:%d: %s", o->file, err.line, err.col, err.message);
        else
            snprintf(full, sizeof full, "%s: %s", o->file, err.message);
        return cli_fail("plan", o->json, full);
    }
    return any ? SS_EXIT_OK : SS_EXIT_CHECK;
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
    ss_maxtext_config *maxtext = NULL;
    if (o.maxtext) {
        if (ss_maxtext_config_load(o.maxtext, o.model, o.noverrides, o.overrides, &maxtext))
            return fail_usage(&o, ss_error_message());
        o.so.maxtext = maxtext;
    }
    if (o.nstrategies > 1) /* side by side */
        rc = compare_strategies(&o, text);
    else
        rc = scenario_sections(&o, text, plan);
    ss_maxtext_config_free(maxtext);
    return rc;
}

/* One scenario (one mesh): load, compile, run or plan, report. */
static int scenario_one(run_opts *op, const char *text, bool plan)
{
    run_opts o = *op;
    progress_state shown = {false};
    ss_scenario_options so = o.so;
    so.steps = o.steps;
    so.threads = o.threads;
    so.set_names = o.set_name_ptrs;
    so.set_values = o.set_values;
    so.compile = o.compile;
    /* The per-op reasons only for a report that shows them. */
    so.compile.no_explain = !o.explain && !o.html;
    so.outputs = o.outputs;
    so.trace = plan ? NULL : o.trace;
    so.device = o.device;
    so.trace_events = !plan && o.html;
    so.no_checks = o.no_check;
    if (!plan && !o.json && isatty(STDERR_FILENO)) {
        so.progress = progress;
        so.progress_user = &shown;
    }
    ss_scenario *sc = NULL;
    ss_scenario_error err;
    int rc;
    ss_status st = text ? ss_scenario_load_text(o.file, text, &so, &sc, &err)
                        : ss_scenario_load(o.file, &so, &sc, &err);
    if (st == SS_OK)
        st = ss_scenario_compile(sc, &err);
    if (st) {
        rc = report_error(&o, &err);
        goto out;
    }
    if (!plan && o.watch && ss_scenario_executable(sc) &&
        ss_scenario_watch_value(sc, o.watch) != SS_OK) {
        char msg[1100];
        snprintf(msg, sizeof msg, "--watch: %s", ss_error_message());
        rc = report_message(&o, msg, true);
        goto out;
    }
    st = plan ? ss_scenario_plan(sc, &err) : ss_scenario_run(sc, &err);
    if (st) {
        if (shown.shown)
            fputc('\n', stderr);
        rc = report_error(&o, &err);
        goto out;
    }
    ss_scenario_report_options ro = {.json = o.json,
                                     .explain = o.explain,
                                     .explain_memory = o.explain_memory,
                                     .color = !o.no_color && !o.json && cli_use_color(),
                                     .profile = o.profile};
    if (plan && o.trace && ss_scenario_executable(sc) &&
        ss_scenario_plan_trace(sc, o.profile, o.trace) != SS_OK) {
        rc = report_message(&o, "--trace: cannot write the file", true);
        goto out;
    }
    if (o.html && (st = ss_scenario_report_html(sc, &ro, o.html)) != SS_OK) {
        rc = st == SS_ERR_IO ? report_message(&o, ss_error_message(), true) : report_failed(&o);
        goto out;
    }
    if (ss_scenario_report_write(sc, &ro, stdout))
        rc = report_failed(&o);
    else if (plan)
        rc = ss_scenario_fits(sc) ? SS_EXIT_OK : SS_EXIT_CHECK;
    else
        rc = ss_scenario_checks_passed(sc) ? SS_EXIT_OK : SS_EXIT_CHECK;
out:
    ss_scenario_free(sc);
    return rc;
}

int ss__cli_run(int argc, char **argv) { return scenario_main(argc, argv, NULL, false); }
int ss__cli_plan(int argc, char **argv) { return scenario_main(argc, argv, NULL, true); }

int ss__cli_scenario_text(int argc, char **argv, const char *text)
{
    bool plan = argc > 1 && strcmp(argv[1], "plan") == 0;
    return scenario_main(argc, argv, text, plan);
}

