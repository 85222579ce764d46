/*
 * report.h — the reports of a planned or run scenario, as text, JSON and
 * one HTML page (report.c, report_html.c, report_slices.c), the watch of
 * `run --watch` (watch.c) and the side-by-side plan of several strategies
 * (strategy_compare.c). The public entry points are ss_scenario_report_*
 * and ss_scenario_compare_strategies (shardsim.h, "Scenarios").
 */
#ifndef SS_FRONT_SCENARIO_REPORT_H
#define SS_FRONT_SCENARIO_REPORT_H

#include "scenario.h"
#include "strategy.h"
#include "watch.h"

#include <stdio.h>

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

/* `--html FILE`: one self-contained page (report_html.c; the template is
 * html/, embedded at build time) holding the report's JSON and the
 * records the page draws from (docs in html/README.md). SS_ERR_IO
 * when the file cannot be written, SS_ERR_NOMEM out of host memory. */
ss_status ss__scn_report_html(const ss_scenario *sc, const ss__scn_report *r, const char *path);

/* One slice of a plan's estimated timeline (report_slices.c). */
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

#endif
