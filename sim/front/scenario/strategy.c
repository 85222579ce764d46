/*
 * strategy.c — sharding strategies in scenarios and on the command
 * line (strategy.h; scenarios/README.md, "Strategies").
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
 * input's arena bytes: arguments live for the whole step).
 *
 * What it does not do: touch arrays (the library's ss_strategy_reshard
 * does that for a loaded state), or apply strategies to inputs.
 */
#include "strategy.h"

#include "base/json.h"
#include "eval.h"

#include <stdlib.h>
#include <string.h>

void ss__scn_strategy_free(struct ss__scn_strategy *st)
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

static bool load_strategy(ss__scn_ev *e, const ss__scn_stmt *stmt, const ss__scn_overrides *ov,
                          struct ss__scn_strategy *st, ss__scn_loc *loc)
{
    ss_scenario *sc = e->sc;
    char msg[1100];
    if (ov && ov->strategy) {
        snprintf(st->source, sizeof st->source, "%s", ov->strategy);
        if (ss_strategy_load(ov->strategy, &st->s) == SS_OK)
            return true;
        snprintf(msg, sizeof msg, "--strategy: %s", ss_error_message());
        ss__scn_ev_fail(e, (ss__scn_loc){0, 0}, "%s", msg);
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
        ss__scn_ev_fail(e, line ? (ss__scn_loc){line, col} : stmt->loc, "strategy: %s", msg);
        return false;
    }
    val *v = ss__scn_ev_eval(e, &e->globals, stmt->value);
    if (!v)
        return false;
    if (v->kind != V_STR) {
        ss__scn_ev_fail(e, stmt->value->loc, "strategy FILE takes a file name (a string), not %s",
                ss__scn_ev_kind_name(v->kind));
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
    ss__scn_ev_fail(e, stmt->value->loc, "strategy: %s", msg);
    return false;
}

bool ss__scn_strategy_apply(struct ss__scn_ev *e, const ss__scn_overrides *ov)
{
    ss_scenario *sc = e->sc;
    const ss__scn_stmt *stmt = NULL;
    for (int k = 0; k < sc->file.nstmts; k++) {
        const ss__scn_stmt *s = sc->file.stmts[k];
        if (s->kind != SS__SCN_ST_STRATEGY)
            continue;
        if (stmt) {
            ss__scn_ev_fail(e, s->loc, "repeated: the first strategy is on line %d", stmt->loc.line);
            return false;
        }
        stmt = s;
    }
    if (!stmt && !(ov && ov->strategy))
        return true;
    struct ss__scn_strategy *st = calloc(1, sizeof *st);
    if (!st) {
        ss__scn_ev_fail(e, (ss__scn_loc){0, 0}, "out of host memory");
        return false;
    }
    sc->strategy = st;
    ss__scn_loc loc = {0, 0};
    if (!load_strategy(e, stmt, ov, st, &loc))
        return false;
    if (!ss_strategy_has_rules(st->s) && sc->have_rules &&
        ss_strategy_set_rules(st->s, &sc->rules) != SS_OK) {
        ss__scn_ev_fail(e, loc, "%s", ss_error_message());
        return false;
    }
    int n = 0;
    for (int a = 0; a < sc->narrays; a++)
        n += sc->arrays[a].is_param && !sc->arrays[a].hidden;
    st->array = calloc((size_t)n + 1, sizeof *st->array);
    st->info = calloc((size_t)n + 1, sizeof *st->info);
    st->sh = calloc((size_t)n + 1, sizeof *st->sh);
    if (!st->array || !st->info || !st->sh) {
        ss__scn_ev_fail(e, loc, "out of host memory");
        return false;
    }
    for (int a = 0; a < sc->narrays; a++) {
        const ss__scn_array *x = &sc->arrays[a];
        if (!x->is_param || x->hidden)
            continue;
        if (x->value >= 0) {
            ss__scn_ev_fail(e, x->loc, "strategy: param '%s' was used before the strategy applies",
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
            ss__scn_ev_fail(e, loc, "%s", msg);
        else
            ss__scn_ev_fail(e, loc, "%s: %s", st->source, msg);
        return false;
    }
    for (int k = 0; k < st->n; k++) {
        ss__scn_array *x = &sc->arrays[st->array[k]];
        x->spec = st->sh[k].spec;
        x->has_spec = true;
    }
    return true;
}

/* --- What each device pays ------------------------------------------------- */


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

void ss__scn_strategy_totals(const ss_scenario *sc, const ss_plan *plan, bool have_plan,
                             ss__scn_totals *t)
{
    memset(t, 0, sizeof *t);
    for (int i = 0; sc->program && i < sc->ninputs; i++) {
        const ss__scn_array *a = &sc->arrays[sc->input_array[i]];
        size_t b = value_shard_bytes(sc->program, a->value);
        t->inputs_arena += ss_device_buffer_bytes(b);
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
static void rule_counts(const struct ss__scn_strategy *st, int k, int *decided, int *matches)
{
    *decided = *matches = 0;
    for (int i = 0; i < st->n; i++) {
        *decided += st->sh[i].rule == k;
        *matches += ss_strategy_rule_matches(st->s, k, st->info[i].path);
    }
}

/* The largest replicated params, largest first (ties in declaration
 * order): up to `cap` indices. */
static int largest_replicated(const struct ss__scn_strategy *st, int idx[], int cap)
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

void ss__scn_strategy_report_text(const ss_scenario *sc, const ss__scn_report *r, FILE *f)
{
    const struct ss__scn_strategy *st = sc->strategy;
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
        char type[96], spec[4096], rule[16];
        ss__shape_text(type, sizeof type, st->info[i].dtype, st->info[i].rank, st->info[i].shape);
        ss_spec_repr(&st->sh[i].spec, spec, sizeof spec);
        if (st->sh[i].rule >= 0)
            snprintf(rule, sizeof rule, "%d", st->sh[i].rule);
        else
            snprintf(rule, sizeof rule, "none");
        ss__fmt_bytes(a, sizeof a, (double)st->sh[i].bytes_per_device);
        fprintf(f, "  %-*s %-18s %-30s %-5s %12s\n", wpath, st->info[i].path, type, spec, rule,
                a);
    }
    ss__scn_totals t;
    ss__scn_strategy_totals(sc, &r->plan, r->exe != NULL, &t);
    ss__fmt_bytes(a, sizeof a, t.params);
    ss__fmt_bytes(b, sizeof b, t.state);
    ss__fmt_bytes(c, sizeof c, t.other);
    fprintf(f, "  Per device: params %s + optimizer state %s + other inputs %s\n", a, b, c);
    if (r->exe) {
        ss__fmt_bytes(d, sizeof d, t.activations);
        ss__fmt_bytes(e, sizeof e, (double)t.peak);
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
        ss__fmt_bytes(a, sizeof a, (double)st->sh[top[k]].bytes_per_device);
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

void ss__scn_strategy_totals_json(ss__buf *b, const ss__scn_totals *t, bool have_plan)
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

void ss__scn_strategy_report_json(const ss_scenario *sc, const ss__scn_report *r, ss__buf *b)
{
    const struct ss__scn_strategy *st = sc->strategy;
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
    ss__scn_totals t;
    ss__scn_strategy_totals(sc, &r->plan, r->exe != NULL, &t);
    ss__buf_puts(b, "],\"totals\":");
    ss__scn_strategy_totals_json(b, &t, r->exe != NULL);
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

