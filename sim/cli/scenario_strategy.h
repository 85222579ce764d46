/*
 * scenario_strategy.h — sharding strategies in scenarios (cmd_strategy.c):
 * the `strategy FILE` / `strategy:` statement and `--strategy FILE`, which
 * give every declared param its spec from a strategy (shardsim.h,
 * "Strategies"); the report section that says what each device pays; and
 * `plan --strategy A --strategy B ...`, the strategies side by side.
 */
#ifndef SS_CLI_SCENARIO_STRATEGY_H
#define SS_CLI_SCENARIO_STRATEGY_H

#include "scenario.h"

struct ev;
struct scn_strategy;

/* Called by scn_load after the top-level statements, before the run is
 * expanded: find the strategy (--strategy wins over the file's statement;
 * none: nothing happens), apply it to every declared param (path= or the
 * name) and set their specs. On failure the error is recorded at the
 * statement's line:col (a rule inside a block at its own line). */
bool scn_strategy_apply(struct ev *e, const scn_overrides *ov);
void scn_strategy_free(struct scn_strategy *st);

/* The "Strategy" section: one row per param (path, global type, spec,
 * deciding rule, bytes per device), totals per device (params, optimizer
 * state, other inputs, activations and temporaries at the plan's peak),
 * the largest replicated params and the rules that decided nothing.
 * Nothing without a strategy. JSON: ,"strategy":{...}. */
void scn_strategy_report_text(const scenario *sc, const scn_report *r, FILE *f);
void scn_strategy_report_json(const scenario *sc, const scn_report *r, ss__buf *b);

/* `shardsim plan FILE --strategy A --strategy B ...`: load and plan the
 * scenario once per strategy and print one column per strategy. Returns
 * the exit status: 0 when at least one fits, 1 when none does, 2 for bad
 * input. `text` as ss__cli_scenario_text (NULL: read `file`). */
int scn_strategy_compare(const char *file, const char *text, const scn_overrides *ov, int n,
                         const char *const files[], bool json);

#endif
