/*
 * scenario_cli.h — `shardsim run` and `shardsim plan` over the library's
 * scenario front end (shardsim.h, "Scenarios"): the reports (report.c,
 * watch.c) and the commands (cmd_run.c,
 * cmd_strategy.c). The reports still read the front end's internal
 * structures (front/scenario/scenario.h) until the report is data.
 */
#ifndef SS_CLI_SCENARIO_CLI_H
#define SS_CLI_SCENARIO_CLI_H

#include "cli.h"

#include "front/scenario/scenario.h"
#include "front/scenario/strategy.h"

#include <stdio.h>

#include "watch.h"

/* Print the whole report: text in the order of the issue (mesh, shows,
 * values (plan), memory, ledger, explain, step times or estimates, checks)
 * or one JSON object (scenarios/README.md documents its schema). A part
 * that cannot be made (out of host memory) fails the report: the text
 * printed so far stays, JSON is not printed, and the status says why. */
ss_status ss__scn_report_print(const ss_scenario *sc, const ss__scn_report *r, FILE *f);

/* --- Commands (cmd_run.c) ------------------------------------------------ */


/* `argv` as main's: argv[1] is "run" or "plan", options follow. The command
 * on a scenario given as text (for tests and the fuzzer): the file argument
 * only names the text in messages. */
int ss__cli_scenario_text(int argc, char **argv, const char *text);

/* `shardsim plan FILE --strategy A --strategy B ...`: load and plan the
 * scenario once per strategy and print one column per strategy. Returns
 * the exit status: 0 when at least one fits, 1 when none does, 2 for bad
 * input. `text` as ss__cli_scenario_text (NULL: read `file`). */
int ss__scn_strategy_compare(const char *file, const char *text, const ss__scn_overrides *ov, int n,
                         const char *const files[], bool json);

#endif
