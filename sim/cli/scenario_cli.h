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

/* The report's JSON object (what --json prints, newline included) appended
 * to b; a part that cannot be made sets *rst (its first failure). */
void ss__scn_report_json(const ss_scenario *sc, const ss__scn_report *r, ss__buf *b,
                         ss_status *rst);

/* `--html FILE`: one self-contained page (html.c; the template is
 * sim/cli/html/, embedded at build time) holding the report's JSON and the
 * records the page draws from (docs in sim/cli/html/README.md). SS_ERR_IO
 * when the file cannot be written, SS_ERR_NOMEM out of host memory. */
ss_status ss__scn_report_html(const ss_scenario *sc, const ss__scn_report *r, const char *path);

/* One slice of a plan's estimated timeline (plan_slices.c). */
typedef struct ss__scn_slice {
    const char *name; /* the op's name, or the collective's kind */
    double start_s, dur_s;
    ss_value value;
    int line;   /* the scenario line of the value, 0 if none */
    int ledger; /* a collective's ledger index, else -1 */
} ss__scn_slice;
/* The estimated timeline of one device under the report's profile
 * (tpu-v5e when it names none; *profile its name): every kernel and
 * collective of the instruction list back to back (fused loops are not
 * estimated). *out is malloc'ed (free it), *n its count. SS_ERR_NOMEM out
 * of host memory. */
ss_status ss__scn_plan_slices(const ss_scenario *sc, const ss__scn_report *r, ss__scn_slice **out,
                              int *n, const char **profile);

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
