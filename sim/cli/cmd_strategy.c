/*
 * cmd_strategy.c — `shardsim plan FILE --strategy A --strategy B ...`:
 * the scenario planned once per strategy, one column per strategy
 * (scenarios/README.md, "Strategies").
 */
#include "scenario_cli.h"

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

static int compare_fail(const char *file, bool json, const ss_scenario *sc, const char *msg)
{
    char full[1400];
    if (sc && sc->err.set && sc->err.loc.line)
        snprintf(full, sizeof full, "%s:%d:%d: %s", file, sc->err.loc.line, sc->err.loc.col,
                 msg);
    else
        snprintf(full, sizeof full, "%s: %s", file, msg);
    return cli_fail("plan", json, full);
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

static int plan_column(const char *file, const char *text, const ss__scn_overrides *ov,
                       const char *strategy, bool json, column *col, char *header, size_t cap)
{
    ss__scn_overrides o = *ov;
    o.strategy = strategy;
    ss_scenario sc;
    if (ss__scn_load(&sc, file, text, &o) != SS_OK) {
        int rc = compare_fail(file, json, &sc, sc.err.msg);
        ss__scn_free(&sc);
        return rc;
    }
    if (!sc.run_name) {
        ss__scn_free(&sc);
        return compare_fail(file, json, NULL, "plan --strategy: the scenario has no run");
    }
    ss_executable *exe = NULL;
    ss_plan plan;
    if (ss_program_compile(sc.program, &exe) != SS_OK || ss_executable_plan(exe, &plan) != SS_OK) {
        char msg[1100];
        snprintf(msg, sizeof msg, "%s", ss_error_message());
        ss_executable_destroy(exe);
        ss__scn_free(&sc);
        return compare_fail(file, json, NULL, msg);
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
    return -1;
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

int ss__scn_strategy_compare(const char *file, const char *text, const ss__scn_overrides *ov, int n,
                         const char *const files[], bool json)
{
    column *cols = calloc((size_t)n, sizeof *cols);
    char header[800] = "";
    if (!cols)
        return cli_fail("plan", json, "out of host memory");
    for (int k = 0; k < n; k++) {
        int rc = plan_column(file, text, ov, files[k], json, &cols[k], header, sizeof header);
        if (rc >= 0) {
            free(cols);
            return rc;
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
        fputs(b.oom ? "{\"error\":\"out of host memory\"}\n" : b.data, stdout);
        ss__buf_free(&b);
    } else {
        printf("%s\n\n  %-34s", header, "per device");
        for (int k = 0; k < n; k++)
            printf(" %14s", cols[k].name);
        printf("\n");
        static const char *const labels[] = {
            "params", "optimizer state", "other inputs (batch)",
            "activations, grads, new state", "planned peak", "  of which replicated params",
            "bytes sent per step", "fits", "collectives per step"};
        static const int order[] = {0, 5, 1, 2, 3, 4, 7, 8, 6};
        for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
            row(stdout, labels[order[k]], cols, n, order[k]);
        printf("\n%s\n", any ? "Run one that fits: shardsim run FILE --strategy STRATEGY"
                             : "None of the strategies fits in device memory.");
    }
    free(cols);
    return any ? SS__SCN_EXIT_OK : SS__SCN_EXIT_CHECK;
}
