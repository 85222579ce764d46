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

/* --- Shared by report.c (text) and report_json.c ----------------------------- */

/* The Python line an imported module's value came from ("model.py:42"),
 * or NULL (scenarios, and ops without a location). */
const char *ss__scn_value_origin(const ss_scenario *sc, ss_value v);

/* The sharding of shown value w: the layout a restore gave the array
 * (`note` says so), propagated, or the declared spec of an array the run
 * does not use; false when there is none. */
bool ss__scn_show_sharding(const ss_scenario *sc, const ss__scn_report *r, const ss__scn_show *w,
                           ss_sharding *sh, ss_dtype *dt, int *rank, int64_t shape[],
                           char *note, size_t cap);

/* The picture of shown value w (malloc'ed), or NULL with *rst set. */
char *ss__scn_show_picture(const ss_scenario *sc, const ss__scn_show *w, const ss_sharding *sh,
                           int rank, const int64_t shape[], bool color, ss_status *rst);

/* A report part that could not be made fails the report: *st keeps the
 * first failure (out of host memory, say), and the command exits 1. */
void ss__scn_part_failed(ss_status *st, ss_status why);

/* The ledger summed per (mesh axes, kind): at most cap rows, in order of
 * first appearance; *total the bytes sent by all. */
typedef struct ss__scn_ledger_row {
    int naxes;
    int axes[SS_MAX_AXES]; /* mesh axis indices */
    ss_coll_kind kind;
    int count;
    double sent;
} ss__scn_ledger_row;
int ss__scn_ledger_rows(const ss_executable *e, ss__scn_ledger_row *rows, int cap, double *total);

/* The plan's step estimates, one per hardware profile (only the report's
 * profile when it names one; a profile the estimate fails for is left
 * out): from *k on, the next profile's estimate in *p and *est, *k moved
 * past it, and true; false when none is left. Start with *k = 0. */
bool ss__scn_estimate_next(const ss_scenario *sc, const ss__scn_report *r, int *k,
                           const ss_hw_profile **p, ss_step_estimate *est);

/* A live buffer's role as a word, indexed by ss_buffer_role. */
extern const char *const ss__scn_role_names[];
extern const char *const ss__scn_body_role_names[];

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
