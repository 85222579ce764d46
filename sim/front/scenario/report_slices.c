/*
 * report_slices.c — the estimated timeline of one device for a plan (every
 * device runs the same instruction list): one slice per kernel or
 * collective under a hardware profile, back to back with no overlap, as
 * ss_estimate_step sums them. `plan --trace` writes it; `--html` draws it.
 */
#include "report.h"

#include <stdlib.h>

ss_status ss__scn_plan_slices(const ss_scenario *sc, const ss__scn_report *r, ss__scn_slice **out,
                              int *nout, const char **profile)
{
    const ss_hw_profile *p = ss_hw_profile_find(r->profile ? r->profile : "tpu-v5e");
    int n = 0, m = 0;
    *out = NULL;
    *nout = 0;
    *profile = p->name;
    ss_status st = ss_executable_steps(r->exe, NULL, 0, &n);
    if (st)
        return st;
    ss_step_cost *c = malloc(sizeof *c * (size_t)(n ? n : 1));
    ss__scn_slice *sl = malloc(sizeof *sl * (size_t)(n ? n : 1));
    if (!c || !sl || (st = ss_executable_steps(r->exe, c, n, &n)) != SS_OK) {
        free(c);
        free(sl);
        return st ? st : ss__fail(SS_ERR_NOMEM, "timeline: out of host memory");
    }
    double t = 0;
    for (int k = 0; k < n; k++) {
        double dur;
        const char *name = ss_value_op_name(sc->program, c[k].value);
        ss_coll_record rec;
        int ledger = -1;
        if (c[k].kind == SS_STEP_FUSED) /* not in the estimate (yet) */
            continue;
        if (c[k].kind == SS_STEP_TO_HOST || c[k].kind == SS_STEP_TO_DEVICE) {
            dur = ss_estimate_host_seconds(c[k].bytes, p);
            name = c[k].kind == SS_STEP_TO_HOST ? "device to host" : "host to device";
        } else if (c[k].kind == SS_STEP_COLLECTIVE &&
            ss_executable_ledger_get(r->exe, c[k].ledger_index, &rec) == SS_OK) {
            double bw, alpha;
            ss_hw_profile_axis_link(p, sc->mesh, rec.naxes, rec.axes, &bw, &alpha);
            dur = ss_estimate_coll_seconds(rec.kind, rec.group_size, rec.sent, bw, alpha);
            name = ss_coll_kind_name(rec.kind);
            ledger = c[k].ledger_index;
        } else {
            double peak = c[k].dtype == SS_BF16 || c[k].dtype == SS_F16 ? p->flops_bf16
                                                                        : p->flops_f32;
            dur = ss_estimate_kernel_seconds(c[k].flops, c[k].bytes, peak, p->hbm_bw);
        }
        sl[m++] = (ss__scn_slice){name ? name : "?", t, dur, c[k].value,
                                  ss__scn_value_loc(sc, c[k].value).line, ledger};
        t += dur;
    }
    free(c);
    *out = sl;
    *nout = m;
    return SS_OK;
}
