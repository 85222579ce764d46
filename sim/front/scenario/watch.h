/*
 * watch.h — `shardsim run --watch NAME` (watch.c): each device's block
 * before and after the collectives that read or write a named value, over
 * the public scenario and executable API only.
 */
#ifndef SS_FRONT_SCENARIO_WATCH_H
#define SS_FRONT_SCENARIO_WATCH_H

#include "scenario.h"

#include <stdio.h>

/* --- `run --watch NAME` (watch.c) ---------------------------------------- */

/* Blocks caught around the collectives that read or write values named
 * NAME during the steps it was attached for. */
typedef struct ss__scn_watch ss__scn_watch;
/* Attach to e (its runs call back; ss_scenario_watch with
 * ss__scn_watch_callback() limits that to the first step). */
ss_status ss__scn_watch_start(const ss_scenario *sc, ss_executable *e, const char *name,
                              ss__scn_watch **out);
/* The function that records the blocks; its user pointer is the watch. */
ss_watch_fn ss__scn_watch_callback(void);
void ss__scn_watch_free(ss__scn_watch *w);
/* The "Watch NAME" report section; JSON: ,"watch":{...}. */
void ss__scn_watch_report_text(const ss__scn_watch *w, const ss_executable *e, FILE *f);
void ss__scn_watch_report_json(const ss__scn_watch *w, ss__buf *b);

#endif
