/*
 * strategy.h — sharding strategies in scenarios (strategy.c):
 * the `strategy FILE` / `strategy:` statement and `--strategy FILE`, which
 * give every declared param its spec from a strategy (shardsim.h,
 * "Strategies"), and the report section that says what each device pays.
 */
#ifndef SS_FRONT_SCENARIO_STRATEGY_H
#define SS_FRONT_SCENARIO_STRATEGY_H

#include "scenario.h"

struct ss__scn_ev;

/* The strategy a scenario applied to its params. */
struct ss__scn_strategy {
    ss_strategy *s;
    char source[600]; /* the file, or "the strategy block" */
    int n;            /* declared params */
    int *array;       /* param k -> scenario array index */
    ss_param_info *info;
    ss_param_sharding *sh;
};

/* What each device pays for the inputs, by kind, and at the plan's peak. */
typedef struct ss__scn_totals {
    double params, state, other; /* shard bytes per device */
    int nparams, nstate, nother; /* program inputs of each kind */
    size_t inputs_arena;         /* their arena bytes (64-byte rounded) */
    size_t peak;                 /* the plan's peak */
    double activations;          /* peak - inputs_arena */
} ss__scn_totals;

/* The totals of sc's inputs; have_plan: also the peak and activations. */
void ss__scn_strategy_totals(const ss_scenario *sc, const ss_plan *plan, bool have_plan,
                             ss__scn_totals *t);
/* JSON of the totals: {"params_bytes_per_device": ..., ...}. */
void ss__scn_strategy_totals_json(ss__buf *b, const ss__scn_totals *t, bool have_plan);

/* Called by ss__scn_load after the top-level statements, before the run is
 * expanded: find the strategy (--strategy wins over the file's statement;
 * none: nothing happens), apply it to every declared param (path= or the
 * name) and set their specs. On failure the error is recorded at the
 * statement's line:col (a rule inside a block at its own line). */
bool ss__scn_strategy_apply(struct ss__scn_ev *e, const ss__scn_overrides *ov);
void ss__scn_strategy_free(struct ss__scn_strategy *st);

/* The "Strategy" section: one row per param (path, global type, spec,
 * deciding rule, bytes per device), totals per device (params, optimizer
 * state, other inputs, activations and temporaries at the plan's peak),
 * the largest replicated params and the rules that decided nothing.
 * Nothing without a strategy. JSON: ,"strategy":{...}. */
void ss__scn_strategy_report_text(const ss_scenario *sc, const ss__scn_report *r, FILE *f);
void ss__scn_strategy_report_json(const ss_scenario *sc, const ss__scn_report *r, ss__buf *b);

#endif
