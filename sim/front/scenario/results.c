/*
 * results.c — what a planned or run scenario holds, as data (shardsim.h,
 * "Scenario results"): the mesh and program, the plan's figures, the step
 * times, every result with its last step's values, and the checks.
 * Everything returned is borrowed from the scenario and valid until
 * ss_scenario_free.
 */
#include "front/scenario/scenario.h"

#include <stdio.h>
#include <string.h>

const ss_mesh *ss_scenario_mesh(const ss_scenario *sc)
{
    return sc ? sc->mesh : NULL;
}

const ss_program *ss_scenario_program(const ss_scenario *sc)
{
    return sc ? sc->program : NULL;
}

ss_status ss_scenario_result_get(const ss_scenario *sc, ss_scenario_result *out)
{
    if (!sc || !out)
        return ss__fail(SS_ERR_INVALID, "ss_scenario_result_get: no scenario or no result");
    if (!sc->run || !sc->run->compiled)
        return ss__fail(SS_ERR_INVALID,
                        "ss_scenario_result_get: the scenario was not compiled, planned or run");
    const ss__scn_report *r = &sc->run->report;
    memset(out, 0, sizeof *out);
    out->has_run = r->exe != NULL;
    out->plan = r->plan;
    out->device_memory = sc->device_memory;
    out->fits = ss_scenario_fits(sc);
    out->ran = sc->run->ran;
    out->steps = r->steps;
    out->compile_seconds = r->compile_s;
    out->first_seconds = sc->run->ran ? r->first_s : 0;
    out->median_seconds = sc->run->ran ? r->median_s : 0;
    out->checks_passed = ss_scenario_checks_passed(sc);
    return SS_OK;
}

/* The index in sc->outputs of the i-th result (extras skipped), or -1. */
static int result_output(const ss_scenario *sc, int i)
{
    for (int o = 0, k = 0; o < sc->noutputs; o++) {
        if (sc->outputs[o].extra)
            continue;
        if (k++ == i)
            return o;
    }
    return -1;
}

int ss_scenario_output_count(const ss_scenario *sc)
{
    int n = 0;
    for (int o = 0; sc && o < sc->noutputs; o++)
        n += !sc->outputs[o].extra;
    return n;
}

ss_status ss_scenario_output_get(const ss_scenario *sc, int i, ss_scenario_output *out)
{
    int o = sc && out && i >= 0 ? result_output(sc, i) : -1;
    if (o < 0)
        return ss__fail(SS_ERR_RANGE, "ss_scenario_output_get: no result %d (the run function "
                        "returns %d)", i, ss_scenario_output_count(sc));
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", ss__scn_output_file_name(sc, o));
    out->value = sc->outputs[o].value;
    out->feeds_input = sc->outputs[o].feeds >= 0;
    ss_status st = ss_value_shape(sc->program, out->value, &out->dtype, &out->rank, out->shape);
    if (st)
        return st;
    return ss__scn_output_data(sc, o, &out->data);
}

int ss_scenario_check_count(const ss_scenario *sc)
{
    return sc ? sc->nchecks : 0;
}

ss_status ss_scenario_check_get(const ss_scenario *sc, int i, ss_scenario_check *out)
{
    if (!sc || !out || i < 0 || i >= sc->nchecks)
        return ss__fail(SS_ERR_RANGE, "ss_scenario_check_get: no check %d (the scenario has %d)",
                        i, sc ? sc->nchecks : 0);
    memset(out, 0, sizeof *out);
    out->name = sc->checks[i].name;
    out->line = sc->checks[i].loc.line;
    if (!sc->run || !sc->run->ran)
        return SS_OK;
    const ss__scn_check_result *c = &sc->run->report.checks[i];
    out->ran = true;
    out->max_abs_err = c->max_abs;
    out->ref_max = c->ref_max;
    out->tol = c->tol;
    out->passed = c->pass;
    return SS_OK;
}

ss_value ss_scenario_value_find(const ss_scenario *sc, const char *name)
{
    for (int v = 0; sc && name && v < sc->vinfo_cap; v++)
        if (sc->vinfo[v].name && strcmp(sc->vinfo[v].name, name) == 0)
            return v;
    return -1;
}

const char *ss_scenario_value_name(const ss_scenario *sc, ss_value v, int *line, int *col)
{
    ss__scn_loc loc = sc ? ss__scn_value_loc(sc, v) : (ss__scn_loc){0, 0};
    if (line)
        *line = loc.line;
    if (col)
        *col = loc.col;
    const char *name = sc ? ss__scn_value_name(sc, v) : NULL;
    return name ? name : "";
}

const ss_array *ss_scenario_output_array(const ss_scenario *sc, int i)
{
    int o = sc && i >= 0 ? result_output(sc, i) : -1;
    return o >= 0 && sc->opts.keep_outputs && sc->run && sc->run->kept ? sc->run->kept[o] : NULL;
}

/* --- Inputs ----------------------------------------------------------------- */

int ss_scenario_input_count(const ss_scenario *sc)
{
    return sc && sc->run_name ? sc->ninputs : 0;
}

ss_status ss_scenario_input_get(const ss_scenario *sc, int i, ss_scenario_input *out)
{
    if (!out || i < 0 || i >= ss_scenario_input_count(sc))
        return ss__fail(SS_ERR_RANGE, "ss_scenario_input_get: no input %d (the run function "
                        "takes %d)", i, ss_scenario_input_count(sc));
    const ss__scn_array *a = &sc->arrays[sc->input_array[i]];
    memset(out, 0, sizeof *out);
    out->name = a->name;
    out->value = a->value;
    out->dtype = a->dtype;
    out->rank = a->rank;
    memcpy(out->shape, a->shape, sizeof(int64_t) * (size_t)a->rank);
    out->is_param = a->is_param;
    out->hidden = a->hidden;
    out->given = a->init.kind == SS__SCN_INIT_HOST;
    return SS_OK;
}

ss_status ss_scenario_input_set(ss_scenario *sc, int i, const void *data, size_t bytes)
{
    if (i < 0 || i >= ss_scenario_input_count(sc))
        return ss__fail(SS_ERR_RANGE, "ss_scenario_input_set: no input %d (the run function "
                        "takes %d)", i, ss_scenario_input_count(sc));
    ss__scn_array *a = &sc->arrays[sc->input_array[i]];
    size_t want = ss_dtype_size(a->dtype);
    for (int d = 0; d < a->rank; d++)
        want *= (size_t)a->shape[d];
    if (!data || bytes != want) {
        char shape[96];
        ss__shape_text(shape, sizeof shape, a->dtype, a->rank, a->shape);
        return ss__fail(SS_ERR_INVALID, "input %d (%s) is %s, %zu bytes; %s", i, a->name, shape,
                        want, data ? "the values given have another size" : "no values given");
    }
    if (sc->run && sc->run->ran)
        return ss__fail(SS_ERR_INVALID, "input %d (%s): the scenario has run already", i,
                        a->name);
    a->init.kind = SS__SCN_INIT_HOST;
    a->init.data = data;
    return SS_OK;
}
