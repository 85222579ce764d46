/*
 * strategy_compare.c — ss_scenario_compare_strategies, what `shardsim plan
 * FILE --strategy A --strategy B ...` prints: the scenario planned once per
 * strategy, one column per strategy (scenarios/README.md, "Strategies").
 */
#include "report.h"

#include "base/json.h"

#include <stdlib.h>
#include <string.h>

typedef struct column {
    char name[64];
    ss__scn_totals t;
    bool fits;
    int ncoll;
    double sent;
    double replicated; /* bytes per device of fully replicated params */
} column;

/* Fill err (line and column from sc's error when it has one) and return
 * the status of a failed comparison: bad input, as a failed load is. */
static ss_status compare_fail(ss_scenario_error *err, const ss_scenario *sc, const char *msg)
{
    if (err) {
        memset(err, 0, sizeof *err);
        if (sc && sc->err.set && sc->err.loc.line) {
            err->line = sc->err.loc.line;
            err->col = sc->err.loc.col;
        }
        err->bad_input = true;
        snprintf(err->message, sizeof err->message, "%s", msg);
    }
    return ss__fail(SS_ERR_INVALID, "%s", msg);
}

static void column_name(const char *path, char *out, size_t cap)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    const char *dot = strrchr(base, '.');
    if (dot && dot != base)
        n = (size_t)(dot - base);
    if (n >= cap)
        n = cap - 1;
    memcpy(out, base, n);
    out[n] = '\0';
}

/* Plan the scenario with `strategy` into *col; SS_OK or compare_fail's. */
static ss_status plan_column(const char *file, const char *text, const ss__scn_overrides *ov,
                             const char *strategy, column *col, char *header, size_t cap,
                             ss_scenario_error *err)
{
    ss__scn_overrides o = *ov;
    o.strategy = strategy;
    ss_scenario sc;
    if (ss__scn_load(&sc, file, text, &o) != SS_OK) {
        ss_status st = compare_fail(err, &sc, sc.err.msg);
        ss__scn_free(&sc);
        return st;
    }
    if (!sc.run_name) {
        ss__scn_free(&sc);
        return compare_fail(err, NULL, "plan --strategy: the scenario has no run");
    }
    ss_executable *exe = NULL;
    ss_plan plan;
    if (ss_program_compile(sc.program, &exe) != SS_OK || ss_executable_plan(exe, &plan) != SS_OK) {
        char msg[1100];
        snprintf(msg, sizeof msg, "%s", ss_error_message());
        ss_executable_destroy(exe);
        ss__scn_free(&sc);
        return compare_fail(err, NULL, msg);
    }
    size_t capacity = sc.device_memory ? sc.device_memory : SS_DEFAULT_DEVICE_MEMORY;
    column_name(strategy, col->name, sizeof col->name);
    ss__scn_strategy_totals(&sc, &plan, true, &col->t);
    col->fits = plan.peak_bytes <= capacity;
    col->ncoll = plan.ncollectives;
    col->sent = plan.sent_bytes;
    for (int i = 0; sc.strategy && i < sc.strategy->n; i++)
        if (sc.strategy->sh[i].reason != SS_REASON_SHARDED)
            col->replicated += (double)sc.strategy->sh[i].bytes_per_device;
    char m[700], c[32];
    ss_mesh_repr(sc.mesh, 0, m, sizeof m);
    ss__fmt_bytes(c, sizeof c, (double)capacity);
    snprintf(header, cap, "%s: plan %s on %s, %d devices, %s each", file, sc.run_name, m,
             ss_mesh_device_count(sc.mesh), c);
    ss_executable_destroy(exe);
    ss__scn_free(&sc);
    return SS_OK;
}

static void row(FILE *f, const char *label, const column *cols, int n, int kind)
{
    fprintf(f, "  %-34s", label);
    for (int k = 0; k < n; k++) {
        char a[32];
        double v = kind == 0 ? cols[k].t.params : kind == 1 ? cols[k].t.state
                   : kind == 2 ? cols[k].t.other : kind == 3 ? cols[k].t.activations
                   : kind == 4 ? (double)cols[k].t.peak : kind == 5 ? cols[k].replicated
                               : cols[k].sent;
        if (kind == 7)
            snprintf(a, sizeof a, "%s", cols[k].fits ? "yes" : "NO");
        else if (kind == 8)
            snprintf(a, sizeof a, "%d", cols[k].ncoll);
        else
            ss__fmt_bytes(a, sizeof a, v);
        fprintf(f, " %14s", a);
    }
    fprintf(f, "\n");
}

ss_status ss_scenario_compare_strategies(const char *file, const char *text,
                                         const ss_scenario_options *opts, int n,
                                         const char *const files[], bool json, FILE *f,
                                         bool *any_fits, ss_scenario_error *err)
{
    static const ss_scenario_options none = {0};
    if (!file || n < 1 || !files || !f || !any_fits)
        return compare_fail(err, NULL, "ss_scenario_compare_strategies: no file, strategies "
                                       "or stream");
    ss__scn_overrides ov;
    ss__scn_overrides_from(opts ? opts : &none, &ov);
    column *cols = calloc((size_t)n, sizeof *cols);
    char header[800] = "";
    if (!cols)
        return compare_fail(err, NULL, "out of host memory");
    for (int k = 0; k < n; k++) {
        ss_status st = plan_column(file, text, &ov, files[k], &cols[k], header, sizeof header, err);
        if (st) {
            free(cols);
            return st;
        }
    }
    bool any = false;
    for (int k = 0; k < n; k++)
        any = any || cols[k].fits;
    if (json) {
        ss__buf b;
        ss__buf_init(&b);
        ss__buf_puts(&b, "{\"command\":\"plan\",\"file\":");
        ss__json_str(&b, file);
        ss__buf_puts(&b, ",\"strategies\":[");
        for (int k = 0; k < n; k++) {
            ss__buf_puts(&b, k ? ",{\"strategy\":" : "{\"strategy\":");
            ss__json_str(&b, files[k]);
            ss__buf_puts(&b, ",\"totals\":");
            ss__scn_strategy_totals_json(&b, &cols[k].t, true);
            ss__buf_printf(&b, ",\"replicated_params_bytes_per_device\":%.0f,\"fits\":%s,"
                               "\"collectives\":%d,\"sent_bytes_per_device\":%.0f}",
                           cols[k].replicated, cols[k].fits ? "true" : "false", cols[k].ncoll,
                           cols[k].sent);
        }
        ss__buf_puts(&b, "]}\n");
        fputs(b.oom ? "{\"error\":\"out of host memory\"}\n" : b.data, f);
        ss__buf_free(&b);
    } else {
        fprintf(f, "%s\n\n  %-34s", header, "per device");
        for (int k = 0; k < n; k++)
            fprintf(f, " %14s", cols[k].name);
        fprintf(f, "\n");
        static const char *const labels[] = {
            "params", "optimizer state", "other inputs (batch)",
            "activations, grads, new state", "planned peak", "  of which replicated params",
            "bytes sent per step", "fits", "collectives per step"};
        static const int order[] = {0, 5, 1, 2, 3, 4, 7, 8, 6};
        for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
            row(f, labels[order[k]], cols, n, order[k]);
        fprintf(f, "\n%s\n", any ? "Run one that fits: shardsim run FILE --strategy STRATEGY"
                             : "None of the strategies fits in device memory.");
    }
    free(cols);
    *any_fits = any;
    return SS_OK;
}
