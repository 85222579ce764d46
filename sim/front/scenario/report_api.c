/*
 * report_api.c — the public entry points of the scenario reports
 * (shardsim.h, "Scenario reports"): the options set the report's
 * presentation, report.c, report_html.c and report_slices.c write it.
 */
#include "report.h"

#include <stdlib.h>

/* The report of a scenario that has been planned or run, or NULL after
 * recording why not (SS_ERR_INVALID). */
static ss__scn_report *done_report(ss_scenario *sc, const char *fn)
{
    if (!sc || !sc->run || !(sc->run->planned || sc->run->ran)) {
        ss__fail(SS_ERR_INVALID, "%s: the scenario has not been planned or run", fn);
        return NULL;
    }
    return &sc->run->report;
}

static void present(ss__scn_report *r, const ss_scenario_report_options *o)
{
    static const ss_scenario_report_options plain = {0};
    if (!o)
        o = &plain;
    r->json = o->json;
    r->explain = o->explain;
    r->explain_memory = o->explain_memory;
    r->color = o->color && !o->json;
    r->profile = o->profile;
}

ss_status ss_scenario_report_write(ss_scenario *sc, const ss_scenario_report_options *opts,
                                   FILE *f)
{
    ss__scn_report *r = done_report(sc, "ss_scenario_report_write");
    if (!r)
        return SS_ERR_INVALID;
    present(r, opts);
    return ss__scn_report_print(sc, r, f);
}

ss_status ss_scenario_report_html(ss_scenario *sc, const ss_scenario_report_options *opts,
                                  const char *path)
{
    ss__scn_report *r = done_report(sc, "ss_scenario_report_html");
    if (!r)
        return SS_ERR_INVALID;
    present(r, opts);
    return ss__scn_report_html(sc, r, path);
}

ss_status ss_scenario_plan_trace(ss_scenario *sc, const char *profile, const char *path)
{
    ss__scn_report *r = done_report(sc, "ss_scenario_plan_trace");
    if (!r)
        return SS_ERR_INVALID;
    if (!r->exe)
        return ss__fail(SS_ERR_INVALID, "ss_scenario_plan_trace: the scenario has no run");
    ss__scn_report on = *r;
    on.profile = profile;
    ss__scn_slice *sl = NULL;
    int n = 0;
    const char *name = NULL;
    ss_status st = ss__scn_plan_slices(sc, &on, &sl, &n, &name);
    if (st)
        return st;
    FILE *f = fopen(path, "w");
    if (!f) {
        free(sl);
        return ss__fail(SS_ERR_IO, "%s: cannot write the file", path);
    }
    fprintf(f, "{\"traceEvents\":[{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":0,"
               "\"args\":{\"name\":\"every device (estimate, %s)\"}}", name);
    for (int k = 0; k < n; k++)
        fprintf(f, ",{\"name\":\"%s\",\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":%.3f,\"dur\":%.3f,"
                   "\"args\":{\"value\":%d,\"line\":%d}}",
                sl[k].name, sl[k].start_s * 1e6, sl[k].dur_s * 1e6, (int)sl[k].value, sl[k].line);
    fprintf(f, "]}\n");
    free(sl);
    if (fclose(f) != 0)
        return ss__fail(SS_ERR_IO, "%s: cannot write the file", path);
    return SS_OK;
}

ss_status ss_scenario_watch_value(ss_scenario *sc, const char *name)
{
    ss_executable *e = ss_scenario_executable(sc);
    if (!e || !sc->run)
        return ss__fail(SS_ERR_INVALID,
                        "ss_scenario_watch_value: the scenario has no compiled run");
    if (!name || ss_scenario_value_find(sc, name) < 0)
        return ss__fail(SS_ERR_INVALID, "no value is named '%s' in the scenario",
                        name ? name : "(null)");
    ss__scn_watch *w = NULL;
    ss_status st = ss__scn_watch_start(sc, e, name, &w);
    if (st)
        return st;
    ss__scn_watch_free(sc->run->report.watch);
    sc->run->report.watch = w;
    ss_scenario_watch(sc, ss__scn_watch_callback(), w);
    return SS_OK;
}
