/*
 * cmd_strategy.c — sharding strategies in scenarios and on the command
 * line (scenario_strategy.h; scenarios/README.md, "Strategies").
 *
 * A scenario names its strategy in one statement, `strategy FILE` (relative
 * to the scenario's directory) or `strategy:` with the rules inline, and
 * `--strategy FILE` (relative to the working directory) replaces it. The
 * strategy is applied, as ss_strategy_apply, to every param the scenario
 * declares, in declaration order, by its path= (or its name); the spec it
 * decides replaces the declared one. Optimizer state made later by the run
 * follows its param's spec (ss_optim_state_inputs), as Adam's moments
 * follow their parameter in update_model_sharding.
 *
 * The report adds what each device pays: the params under the strategy,
 * their optimizer state, the other inputs (the batch), and the activations,
 * gradients and temporaries alive at the plan's peak (the peak minus every
 * input's arena bytes: arguments live for the whole step). `plan` with
 * several --strategy files compares them in one table.
 *
 * What it does not do: touch arrays (the library's ss_strategy_reshard
 * does that for a loaded state), or apply strategies to inputs.
 */
#include "scenario_strategy.h"

#include "base/json.h"
#include "scenario_eval.h"

#include <stdlib.h>
#include <string.h>

struct scn_strategy {
    ss_strategy *s;
    char source[600]; /* the file, or "the strategy block" */
    int n;            /* declared params */
    int *array;       /* param k -> scenario array index */
    ss_param_info *info;
    ss_param_sharding *sh;
};

void scn_strategy_free(struct scn_strategy *st)
{
    if (!st)
        return;
    ss_strategy_destroy(st->s);
    free(st->array);
    free(st->info);
    free(st->sh);
    free(st);
}

/* --- Loading and applying -------------------------------------------------- */

/* "line L, column C: what" from ss_strategy_parse: the `what`. */
static const char *after_location(const char *msg)
{
    const char *c = strncmp(msg, "line ", 5) == 0 ? strstr(msg, ": ") : NULL;
    return c ? c + 2 : msg;
}

static bool load_strategy(ev *e, const scn_stmt *stmt, const scn_overrides *ov,
                          struct scn_strategy *st, scn_loc *loc)
{
    scenario *sc = e->sc;
    char msg[1100];
    if (ov && ov->strategy) {
        snprintf(st->source, sizeof st->source, "%s", ov->strategy);
        if (ss_strategy_load(ov->strategy, &st->s) == SS_OK)
            return true;
        snprintf(msg, sizeof msg, "--strategy: %s", ss_error_message());
        ev_fail(e, (scn_loc){0, 0}, "%s", msg);
        return false;
    }
    *loc = stmt->loc;
    if (stmt->text) {
        int line = 0, col = 0;
        snprintf(st->source, sizeof st->source, "the strategy block (line %d)",
                 stmt->text_loc.line);
        if (ss_strategy_parse(stmt->text, stmt->text_loc.line, &st->s, &line, &col) == SS_OK)
            return true;
        snprintf(msg, sizeof msg, "%s", after_location(ss_error_message()));
        if (line == stmt->text_loc.line)
            col += stmt->text_loc.col - 1;
        ev_fail(e, line ? (scn_loc){line, col} : stmt->loc, "strategy: %s", msg);
        return false;
    }
    val *v = ev_eval(e, &e->globals, stmt->value);
    if (!v)
        return false;
    if (v->kind != V_STR) {
        ev_fail(e, stmt->value->loc, "strategy FILE takes a file name (a string), not %s",
                ev_kind_name(v->kind));
        return false;
    }
    /* Relative to the scenario's directory, as an include is. */
    const char *slash = strrchr(sc->path ? sc->path : "", '/');
    if (v->s[0] != '/' && slash)
        snprintf(st->source, sizeof st->source, "%.*s/%s", (int)(slash - sc->path), sc->path,
                 v->s);
    else
        snprintf(st->source, sizeof st->source, "%s", v->s);
    if (ss_strategy_load(st->source, &st->s) == SS_OK)
        return true;
    snprintf(msg, sizeof msg, "%s", ss_error_message());
    ev_fail(e, stmt->value->loc, "strategy: %s", msg);
    return false;
}

bool scn_strategy_apply(struct ev *e, const scn_overrides *ov)
{
    scenario *sc = e->sc;
    const scn_stmt *stmt = NULL;
    for (int k = 0; k < sc->file.nstmts; k++) {
        const scn_stmt *s = sc->file.stmts[k];
        if (s->kind != ST_STRATEGY)
            continue;
        if (stmt) {
            ev_fail(e, s->loc, "repeated: the first strategy is on line %d", stmt->loc.line);
            return false;
        }
        stmt = s;
    }
    if (!stmt && !(ov && ov->strategy))
        return true;
    struct scn_strategy *st = calloc(1, sizeof *st);
    if (!st) {
        ev_fail(e, (scn_loc){0, 0}, "out of host memory");
        return false;
    }
    sc->strategy = st;
    scn_loc loc = {0, 0};
    if (!load_strategy(e, stmt, ov, st, &loc))
        return false;
    if (!ss_strategy_has_rules(st->s) && sc->have_rules &&
        ss_strategy_set_rules(st->s, &sc->rules) != SS_OK) {
        ev_fail(e, loc, "%s", ss_error_message());
        return false;
    }
    int n = 0;
    for (int a = 0; a < sc->narrays; a++)
        n += sc->arrays[a].is_param && !sc->arrays[a].hidden;
    st->array = calloc((size_t)n + 1, sizeof *st->array);
    st->info = calloc((size_t)n + 1, sizeof *st->info);
    st->sh = calloc((size_t)n + 1, sizeof *st->sh);
    if (!st->array || !st->info || !st->sh) {
        ev_fail(e, loc, "out of host memory");
        return false;
    }
    for (int a = 0; a < sc->narrays; a++) {
        const scn_array *x = &sc->arrays[a];
        if (!x->is_param || x->hidden)
            continue;
        if (x->value >= 0) {
            ev_fail(e, x->loc, "strategy: param '%s' was used before the strategy applies",
                    x->name);
            return false;
        }
        ss_param_info *p = &st->info[st->n];
        p->path = x->path ? x->path : x->name;
        p->dtype = x->dtype;
        p->rank = x->rank;
        memcpy(p->shape, x->shape, sizeof p->shape);
        st->array[st->n++] = a;
    }
    if (ss_strategy_apply(st->s, sc->mesh, st->n, st->info, st->sh) != SS_OK) {
        char msg[1100];
        snprintf(msg, sizeof msg, "%s", ss_error_message());
        /* A block's rules carry their own lines; a file is named. */
        if (stmt && stmt->text && !(ov && ov->strategy))
            ev_fail(e, loc, "%s", msg);
        else
            ev_fail(e, loc, "%s: %s", st->source, msg);
        return false;
    }
    for (int k = 0; k < st->n; k++) {
        scn_array *x = &sc->arrays[st->array[k]];
        x->spec = st->sh[k].spec;
        x->has_spec = true;
    }
    return true;
}

/* --- What each device pays ------------------------------------------------- */

typedef struct totals {
    double params, state, other; /* shard bytes per device */
    int nparams, nstate, nother; /* program inputs of each kind */
    size_t inputs_arena;         /* their arena bytes (64-byte rounded) */
    size_t peak;                 /* the plan's peak */
    double activations;          /* peak - inputs_arena */
} totals;

/* The arena's rounding (lower.c's ss__arena_bytes). */
static size_t arena_bytes(size_t b) { return ((b ? b : 1) + 63) / 64 * 64; }

static size_t value_shard_bytes(const ss_program *p, ss_value v)
{
    ss_dtype dt;
    int rank;
    int64_t shape[SS_MAX_RANK], local[SS_MAX_RANK];
    ss_sharding sh;
    if (ss_value_shape(p, v, &dt, &rank, shape) || ss_value_sharding(p, v, &sh))
        return 0;
    sh.partial_mask = 0;
    if (ss_sharding_shard_shape(&sh, rank, shape, local))
        return 0;
    size_t b = ss_dtype_size(dt);
    for (int d = 0; d < rank; d++)
        b *= (size_t)local[d];
    return b;
}

static void compute_totals(const scenario *sc, const ss_plan *plan, bool have_plan, totals *t)
{
    memset(t, 0, sizeof *t);
    for (int i = 0; sc->program && i < sc->ninputs; i++) {
        const scn_array *a = &sc->arrays[sc->input_array[i]];
        size_t b = value_shard_bytes(sc->program, a->value);
        t->inputs_arena += arena_bytes(b);
        if (a->hidden) {
            t->state += (double)b;
            t->nstate++;
        } else if (a->is_param) {
            t->params += (double)b;
            t->nparams++;
        } else {
            t->other += (double)b;
            t->nother++;
        }
    }
    t->peak = have_plan ? plan->peak_bytes : 0;
    t->activations = have_plan && plan->peak_bytes > t->inputs_arena
                         ? (double)(plan->peak_bytes - t->inputs_arena)
                         : 0;
}

static const char *reason_name(ss_strategy_reason r)
{
    switch (r) {
    case SS_REASON_SHARDED: return "sharded";
    case SS_REASON_NO_RULE: return "no_rule";
    case SS_REASON_REPLICATED: return "replicated";
    case SS_REASON_SMALL: return "small";
    case SS_REASON_INDIVISIBLE: return "indivisible";
    }
    return "?";
}

static const char *reason_text(ss_strategy_reason r)
{
    switch (r) {
    case SS_REASON_NO_RULE: return "no rule matched";
    case SS_REASON_REPLICATED: return "its rule replicates it";
    case SS_REASON_SMALL: return "under fsdp's size threshold";
    case SS_REASON_INDIVISIBLE: return "fsdp found no divisible dimension";
    default: return "sharded";
    }
}

/* Rule k's params decided, and params its pattern matches at all. */
static void rule_counts(const struct scn_strategy *st, int k, int *decided, int *matches)
{
    *decided = *matches = 0;
    for (int i = 0; i < st->n; i++) {
        *decided += st->sh[i].rule == k;
        *matches += ss_strategy_rule_matches(st->s, k, st->info[i].path);
    }
}

/* The largest replicated params, largest first (ties in declaration
 * order): up to `cap` indices. */
static int largest_replicated(const struct scn_strategy *st, int idx[], int cap)
{
    int n = 0;
    for (int i = 0; i < st->n; i++) {
        if (st->sh[i].reason == SS_REASON_SHARDED)
            continue;
        size_t b = st->sh[i].bytes_per_device;
        int j;
        if (n < cap)
            j = n++;
        else if (st->sh[idx[cap - 1]].bytes_per_device < b)
            j = cap - 1; /* replaces the smallest kept */
        else
            continue;
        while (j > 0 && st->sh[idx[j - 1]].bytes_per_device < b) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = i;
    }
    return n;
}

static void type_text(const ss_param_info *p, char *buf, size_t cap)
{
    size_t n = (size_t)snprintf(buf, cap, "%s[", ss_dtype_name(p->dtype));
    for (int d = 0; d < p->rank && n < cap; d++)
        n += (size_t)snprintf(buf + n, cap - n, d ? ",%lld" : "%lld", (long long)p->shape[d]);
    if (n < cap)
        snprintf(buf + n, cap - n, "]");
}

void scn_strategy_report_text(const scenario *sc, const scn_report *r, FILE *f)
{
    const struct scn_strategy *st = sc->strategy;
    if (!st || !st->s)
        return;
    char a[32], b[32], c[32], d[32], e[32];
    int nr = ss_strategy_rule_count(st->s);
    fprintf(f, "Strategy %s: %d rule%s over %d param%s\n", st->source, nr, nr == 1 ? "" : "s",
            st->n, st->n == 1 ? "" : "s");
    for (int k = 0; k < nr; k++) {
        int decided, matches;
        char text[600];
        rule_counts(st, k, &decided, &matches);
        ss_strategy_rule_repr(st->s, k, text, sizeof text);
        fprintf(f, "  rule %-3d line %-4d %s: %d param%s\n", k, ss_strategy_rule_line(st->s, k),
                text, decided, decided == 1 ? "" : "s");
    }
    int wpath = 5;
    for (int i = 0; i < st->n; i++)
        if ((int)strlen(st->info[i].path) > wpath)
            wpath = (int)strlen(st->info[i].path);
    if (wpath > 60)
        wpath = 60;
    fprintf(f, "  %-*s %-18s %-30s %-5s %12s\n", wpath, "param", "global", "spec", "rule",
            "per device");
    for (int i = 0; i < st->n; i++) {
        char type[96], spec[256], rule[16];
        type_text(&st->info[i], type, sizeof type);
        ss_spec_repr(&st->sh[i].spec, spec, sizeof spec);
        if (st->sh[i].rule >= 0)
            snprintf(rule, sizeof rule, "%d", st->sh[i].rule);
        else
            snprintf(rule, sizeof rule, "none");
        cli_fmt_bytes(a, sizeof a, (double)st->sh[i].bytes_per_device);
        fprintf(f, "  %-*s %-18s %-30s %-5s %12s\n", wpath, st->info[i].path, type, spec, rule,
                a);
    }
    totals t;
    compute_totals(sc, &r->plan, r->exe != NULL, &t);
    cli_fmt_bytes(a, sizeof a, t.params);
    cli_fmt_bytes(b, sizeof b, t.state);
    cli_fmt_bytes(c, sizeof c, t.other);
    fprintf(f, "  Per device: params %s + optimizer state %s + other inputs %s\n", a, b, c);
    if (r->exe) {
        cli_fmt_bytes(d, sizeof d, t.activations);
        cli_fmt_bytes(e, sizeof e, (double)t.peak);
        fprintf(f, "              + activations, gradients, new state and temporaries %s at the "
                   "peak: planned peak %s\n", d, e);
    }
    int nomatch = 0;
    for (int i = 0; i < st->n; i++)
        if (st->sh[i].rule < 0)
            fprintf(f, "%s %s", nomatch++ ? "," : "  Params no rule matched (replicated):",
                    st->info[i].path);
    if (nomatch)
        fprintf(f, "\n");
    int top[5];
    int ntop = largest_replicated(st, top, 5);
    if (ntop)
        fprintf(f, "  Largest replicated params:\n");
    for (int k = 0; k < ntop; k++) {
        cli_fmt_bytes(a, sizeof a, (double)st->sh[top[k]].bytes_per_device);
        fprintf(f, "    %-*s %10s  %s\n", wpath, st->info[top[k]].path, a,
                reason_text(st->sh[top[k]].reason));
    }
    for (int k = 0; k < nr; k++) {
        int decided, matches;
        rule_counts(st, k, &decided, &matches);
        if (decided)
            continue;
        char text[600];
        ss_strategy_rule_repr(st->s, k, text, sizeof text);
        fprintf(f, "  Rule %d (line %d) decided no param: %s; %s\n", k,
                ss_strategy_rule_line(st->s, k), text,
                matches ? "every param it matches was decided by an earlier rule"
                        : "its pattern matches no param");
    }
    fprintf(f, "\n");
}

static void json_totals(ss__buf *b, const totals *t, bool have_plan)
{
    ss__buf_printf(b, "{\"params_bytes_per_device\":%.0f,\"optimizer_state_bytes_per_device\":"
                      "%.0f,\"other_inputs_bytes_per_device\":%.0f,\"inputs_arena_bytes\":%zu",
                   t->params, t->state, t->other, t->inputs_arena);
    if (have_plan)
        ss__buf_printf(b, ",\"activations_at_peak_bytes\":%.0f,\"plan_peak_bytes\":%zu}",
                       t->activations, t->peak);
    else
        ss__buf_puts(b, ",\"activations_at_peak_bytes\":null,\"plan_peak_bytes\":null}");
}

void scn_strategy_report_json(const scenario *sc, const scn_report *r, ss__buf *b)
{
    const struct scn_strategy *st = sc->strategy;
    if (!st || !st->s)
        return;
    ss__buf_puts(b, ",\"strategy\":{\"source\":");
    ss__json_str(b, st->source);
    ss__buf_puts(b, ",\"rules\":[");
    char text[600];
    for (int k = 0; k < ss_strategy_rule_count(st->s); k++) {
        int decided, matches;
        rule_counts(st, k, &decided, &matches);
        ss_strategy_rule_repr(st->s, k, text, sizeof text);
        ss__buf_printf(b, "%s{\"index\":%d,\"line\":%d,\"text\":", k ? "," : "", k,
                       ss_strategy_rule_line(st->s, k));
        ss__json_str(b, text);
        ss__buf_printf(b, ",\"params\":%d,\"matches\":%d}", decided, matches);
    }
    ss__buf_puts(b, "],\"params\":[");
    for (int i = 0; i < st->n; i++) {
        ss__buf_puts(b, i ? ",{\"path\":" : "{\"path\":");
        ss__json_str(b, st->info[i].path);
        ss__buf_puts(b, ",\"name\":");
        ss__json_str(b, sc->arrays[st->array[i]].name);
        ss__buf_puts(b, ",\"dtype\":");
        ss__json_str(b, ss_dtype_name(st->info[i].dtype));
        ss__buf_puts(b, ",\"shape\":");
        ss__json_int_array(b, st->info[i].rank, st->info[i].shape);
        ss__buf_puts(b, ",\"spec\":");
        ss__json_spec(b, &st->sh[i].spec);
        if (st->sh[i].rule >= 0)
            ss__buf_printf(b, ",\"rule\":%d", st->sh[i].rule);
        else
            ss__buf_puts(b, ",\"rule\":null");
        ss__buf_printf(b, ",\"reason\":\"%s\",\"bytes_per_device\":%zu}",
                       reason_name(st->sh[i].reason), st->sh[i].bytes_per_device);
    }
    totals t;
    compute_totals(sc, &r->plan, r->exe != NULL, &t);
    ss__buf_puts(b, "],\"totals\":");
    json_totals(b, &t, r->exe != NULL);
    int top[5];
    int ntop = largest_replicated(st, top, 5);
    ss__buf_puts(b, ",\"largest_replicated\":[");
    for (int k = 0; k < ntop; k++) {
        ss__buf_puts(b, k ? ",{\"path\":" : "{\"path\":");
        ss__json_str(b, st->info[top[k]].path);
        ss__buf_printf(b, ",\"bytes_per_device\":%zu,\"reason\":\"%s\"}",
                       st->sh[top[k]].bytes_per_device, reason_name(st->sh[top[k]].reason));
    }
    ss__buf_puts(b, "],\"unmatched_params\":[");
    int u = 0;
    for (int i = 0; i < st->n; i++)
        if (st->sh[i].rule < 0) {
            if (u++)
                ss__buf_putc(b, ',');
            ss__json_str(b, st->info[i].path);
        }
    ss__buf_puts(b, "],\"unused_rules\":[");
    int m = 0;
    for (int k = 0; k < ss_strategy_rule_count(st->s); k++) {
        int decided, matches;
        rule_counts(st, k, &decided, &matches);
        if (decided)
            continue;
        ss_strategy_rule_repr(st->s, k, text, sizeof text);
        ss__buf_printf(b, "%s{\"index\":%d,\"line\":%d,\"text\":", m++ ? "," : "", k,
                       ss_strategy_rule_line(st->s, k));
        ss__json_str(b, text);
        ss__buf_printf(b, ",\"why\":\"%s\"}", matches ? "shadowed" : "matches_nothing");
    }
    ss__buf_puts(b, "]}");
}

/* --- plan --strategy A --strategy B ... ------------------------------------ */

typedef struct column {
    char name[64];
    totals t;
    bool fits;
    int ncoll;
    double sent;
    double replicated; /* bytes per device of fully replicated params */
} column;

static int compare_fail(const char *file, bool json, const scenario *sc, const char *msg)
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

static int plan_column(const char *file, const char *text, const scn_overrides *ov,
                       const char *strategy, bool json, column *col, char *header, size_t cap)
{
    scn_overrides o = *ov;
    o.strategy = strategy;
    scenario sc;
    if (scn_load(&sc, file, text, &o) != SS_OK) {
        int rc = compare_fail(file, json, &sc, sc.err.msg);
        scn_free(&sc);
        return rc;
    }
    if (!sc.run_name) {
        scn_free(&sc);
        return compare_fail(file, json, NULL, "plan --strategy: the scenario has no run");
    }
    ss_executable *exe = NULL;
    ss_plan plan;
    if (ss_program_compile(sc.program, &exe) != SS_OK || ss_executable_plan(exe, &plan) != SS_OK) {
        char msg[1100];
        snprintf(msg, sizeof msg, "%s", ss_error_message());
        ss_executable_destroy(exe);
        scn_free(&sc);
        return compare_fail(file, json, NULL, msg);
    }
    size_t capacity = sc.device_memory ? sc.device_memory : SS_DEFAULT_DEVICE_MEMORY;
    column_name(strategy, col->name, sizeof col->name);
    compute_totals(&sc, &plan, true, &col->t);
    col->fits = plan.peak_bytes <= capacity;
    col->ncoll = plan.ncollectives;
    col->sent = plan.sent_bytes;
    for (int i = 0; sc.strategy && i < sc.strategy->n; i++)
        if (sc.strategy->sh[i].reason != SS_REASON_SHARDED)
            col->replicated += (double)sc.strategy->sh[i].bytes_per_device;
    char m[256], c[32];
    ss_mesh_repr(sc.mesh, 0, m, sizeof m);
    cli_fmt_bytes(c, sizeof c, (double)capacity);
    snprintf(header, cap, "%s: plan %s on %s, %d devices, %s each", file, sc.run_name, m,
             ss_mesh_device_count(sc.mesh), c);
    ss_executable_destroy(exe);
    scn_free(&sc);
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
            cli_fmt_bytes(a, sizeof a, v);
        fprintf(f, " %14s", a);
    }
    fprintf(f, "\n");
}

int scn_strategy_compare(const char *file, const char *text, const scn_overrides *ov, int n,
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
            json_totals(&b, &cols[k].t, true);
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
    return any ? SS_EXIT_OK : SS_EXIT_CHECK;
}
