/*
 * report_json.c — the report of a planned or run scenario as one JSON
 * object (what --json prints; the schema is in scenarios/README.md): the
 * same parts as the text of report.c, every value named by its scenario
 * name and line or its Python line, every figure a number.
 */
#include "report.h"

#include "base/json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void json_num(ss__buf *b, double v)
{
    /* A whole number below 2^53 is what "%.17g" writes, its digits (-0.0
     * aside, which keeps its sign through printf). */
    if (v == (double)(long long)v && fabs(v) < 9007199254740992.0 && !(v == 0 && signbit(v)))
        ss__buf_put_int(b, (long long)v);
    else if (isfinite(v))
        ss__buf_printf(b, "%.17g", v);
    else
        ss__buf_puts(b, "null");
}

/* JSON "prints" and "outputs": what print(...) showed, and every result of
 * the run with its one-element value per step (the loss). */
static void json_run_values(ss__buf *b, const ss_scenario *sc, const ss__scn_report *r,
                            ss_status *rst)
{
    if (!r->outputs)
        return;
    ss__buf_puts(b, ",\"prints\":[");
    for (int k = 0; k < sc->nvprints; k++) {
        ss__buf t;
        ss__buf_init(&t);
        ss_status st = ss__scn_print_text(sc, &sc->vprints[k], r->outputs, &t);
        if (st)
            ss__scn_part_failed(rst, st);
        ss__buf_printf(b, "%s{\"line\":%d,\"col\":%d,\"source\":", k ? "," : "",
                       sc->vprints[k].loc.line, sc->vprints[k].loc.col);
        ss__json_str(b, sc->vprints[k].source);
        ss__buf_puts(b, ",\"text\":");
        ss__json_str(b, t.data ? t.data : "");
        ss__buf_putc(b, '}');
        ss__buf_free(&t);
    }
    ss__buf_puts(b, "],\"outputs\":[");
    int n = 0;
    for (int o = 0; o < sc->noutputs; o++) {
        const ss__scn_output *out = &sc->outputs[o];
        ss_dtype dt;
        int rank;
        int64_t shape[SS_MAX_RANK];
        if (out->extra || ss_value_shape(sc->program, out->value, &dt, &rank, shape))
            continue;
        ss__buf_puts(b, n++ ? ",{\"name\":" : "{\"name\":");
        if (out->name)
            ss__json_str(b, out->name);
        else
            ss__buf_puts(b, "null");
        ss__buf_puts(b, ",\"dtype\":");
        ss__json_str(b, ss_dtype_name(dt));
        ss__buf_puts(b, ",\"shape\":");
        ss__json_int_array(b, rank, shape);
        ss__buf_puts(b, ",\"updates\":");
        if (out->feeds >= 0)
            ss__json_str(b, sc->arrays[out->feeds].name);
        else
            ss__buf_puts(b, "null");
        if (r->step_values && r->step_values[o]) {
            ss__buf_puts(b, ",\"value\":");
            json_num(b, r->step_values[o][r->steps - 1]);
            ss__buf_puts(b, ",\"per_step\":[");
            for (int s = 0; s < r->steps; s++) {
                if (s)
                    ss__buf_putc(b, ',');
                json_num(b, r->step_values[o][s]);
            }
            ss__buf_putc(b, ']');
        }
        ss__buf_putc(b, '}');
    }
    ss__buf_putc(b, ']');
    if (r->outputs_dir) {
        ss__buf_puts(b, ",\"outputs_dir\":");
        ss__json_str(b, r->outputs_dir);
    }
}

/* --- JSON ------------------------------------------------------------------------- */

/* The names of mesh axes axes[0..n) as a JSON list. */
static void json_axes(ss__buf *b, const ss_mesh *mesh, int n, const int axes[])
{
    ss__buf_putc(b, '[');
    for (int k = 0; k < n; k++) {
        if (k)
            ss__buf_putc(b, ',');
        ss__json_str(b, ss_mesh_axis_name(mesh, axes[k]));
    }
    ss__buf_putc(b, ']');
}

static void json_value_ref(ss__buf *b, const ss_scenario *sc, ss_value v)
{
    const char *name = ss__scn_value_name(sc, v);
    ss__scn_loc loc = ss__scn_value_loc(sc, v);
    ss__buf_puts(b, "\"value\":");
    ss__buf_put_int(b, (int)v);
    ss__buf_puts(b, ",\"op\":");
    ss__json_str(b, sc->program ? ss_value_op_name(sc->program, v) : "");
    ss__buf_puts(b, ",\"name\":");
    if (name)
        ss__json_str(b, name);
    else
        ss__buf_puts(b, "null");
    ss__buf_puts(b, ",\"line\":");
    ss__buf_put_int(b, loc.line);
    ss__buf_puts(b, ",\"col\":");
    ss__buf_put_int(b, loc.col);
    if (ss__scn_value_origin(sc, v)) { /* an imported module: the Python line */
        ss__buf_puts(b, ",\"origin\":");
        ss__json_str(b, ss__scn_value_origin(sc, v));
    }
}

/* The HLO texts of the shardings a report wrote last: most values share a
 * few shardings, and making the text is the dearest part of a value's
 * JSON. An entry holds the sharding without its partial axes. */
enum { HLO_CACHED = 32, HLO_TEXT = 1024 };
typedef struct hlo_cache {
    int n, next; /* entries in use; the one to replace when full */
    struct {
        ss_sharding sh;
        int rank;
        bool ok; /* else ss_sharding_to_hlo failed: "null" */
        char text[HLO_TEXT];
    } e[HLO_CACHED];
} hlo_cache;

static bool same_sharding(const ss_sharding *a, const ss_sharding *b)
{
    return a->mesh == b->mesh && a->manual_mask == b->manual_mask &&
           a->partial_mask == b->partial_mask && a->spec.ndims == b->spec.ndims &&
           ss_spec_equal(&a->spec, &b->spec);
}

/* The HLO text of `plain` (no partial axes) at `rank`, or NULL. */
static const char *hlo_text(hlo_cache *c, const ss_sharding *plain, int rank)
{
    for (int k = 0; k < c->n; k++)
        if (c->e[k].rank == rank && same_sharding(&c->e[k].sh, plain))
            return c->e[k].ok ? c->e[k].text : NULL;
    int k = c->n < HLO_CACHED ? c->n++ : c->next;
    c->next = (k + 1) % HLO_CACHED;
    c->e[k].sh = *plain;
    c->e[k].rank = rank;
    c->e[k].ok = ss_sharding_to_hlo(plain, rank, c->e[k].text, HLO_TEXT) == SS_OK;
    return c->e[k].ok ? c->e[k].text : NULL;
}

static void json_sharding(ss__buf *b, hlo_cache *cache, const ss_sharding *sh, int rank)
{
    ss__buf_puts(b, "\"spec\":");
    ss__json_spec(b, &sh->spec);
    ss__buf_puts(b, ",\"partial\":[");
    int n = 0;
    for (int a = 0; a < ss_mesh_axis_count(sh->mesh); a++)
        if ((sh->partial_mask >> a) & 1u) {
            if (n++)
                ss__buf_putc(b, ',');
            ss__json_str(b, ss_mesh_axis_name(sh->mesh, a));
        }
    ss_sharding plain = *sh;
    plain.partial_mask = 0;
    const char *hlo = hlo_text(cache, &plain, rank);
    ss__buf_puts(b, "],\"hlo\":");
    if (hlo)
        ss__json_str(b, hlo);
    else
        ss__buf_puts(b, "null");
}

static void json_ledger(ss__buf *b, const ss_scenario *sc, const ss__scn_report *r, ss_status *rst)
{
    int n = ss_mesh_device_count(sc->mesh);
    int *ids = malloc(sizeof *ids * (size_t)n);
    if (!ids)
        ss__scn_part_failed(rst, ss__fail(SS_ERR_NOMEM, "ledger: out of host memory"));
    ss__buf_puts(b, ",\"ledger\":{\"entries\":[");
    for (int i = 0; i < ss_executable_ledger_count(r->exe) && ids; i++) {
        ss_ledger_entry le;
        ss_status est = ss_executable_ledger_entry(r->exe, i, &le);
        if (est) {
            ss__scn_part_failed(rst, est);
            break;
        }
        const ss_coll_record c = le.coll;
        if (i)
            ss__buf_putc(b, ',');
        ss__buf_puts(b, "{\"seq\":");
        ss__buf_put_int(b, i + 1);
        ss__buf_puts(b, ",\"kind\":");
        ss__json_str(b, ss_coll_kind_name(c.kind));
        static const char *const ops[] = {"sum", "max", "min", "mean"};
        ss__buf_puts(b, ",\"reduce_op\":");
        if (c.kind == SS_COLL_ALL_REDUCE || c.kind == SS_COLL_REDUCE_SCATTER)
            ss__json_str(b, ops[(unsigned)c.op < 4 ? c.op : 0]);
        else
            ss__buf_puts(b, "null");
        ss__buf_puts(b, ",\"axes\":");
        json_axes(b, sc->mesh, c.naxes, c.axes);
        ss__buf_puts(b, ",\"group_size\":");
        ss__buf_put_int(b, c.group_size);
        ss__buf_puts(b, ",\"ngroups\":");
        ss__buf_put_int(b, c.ngroups);
        ss__buf_puts(b, ",\"replica_groups\":");
        bool groups = n <= 256 && c.ngroups > 0 &&
                      ss_executable_ledger_groups(r->exe, i, ids, n) == SS_OK;
        if (groups) {
            ss__buf_putc(b, '[');
            for (int g = 0; g < c.ngroups; g++) {
                ss__buf_puts(b, g ? ",[" : "[");
                for (int k = 0; k < c.group_size; k++) {
                    if (k)
                        ss__buf_putc(b, ',');
                    ss__buf_put_int(b, ids[g * c.group_size + k]);
                }
                ss__buf_putc(b, ']');
            }
            ss__buf_putc(b, ']');
        } else {
            ss__buf_puts(b, "null");
        }
        ss__buf_puts(b, ",\"source_target_pairs\":");
        int (*pairs)[2] = le.npairs ? malloc(sizeof *pairs * (size_t)le.npairs) : NULL;
        int np = 0;
        if (c.kind == SS_COLL_PERMUTE && groups && (pairs || !le.npairs) &&
            ss_executable_ledger_pairs(r->exe, i, pairs, le.npairs, &np) == SS_OK) {
            /* device ids, as XLA prints source_target_pairs={{0,1},{1,2}} */
            ss__buf_putc(b, '[');
            for (int k = 0; k < np; k++)
                ss__buf_printf(b, "%s[%d,%d]", k ? "," : "", pairs[k][0], pairs[k][1]);
            ss__buf_putc(b, ']');
        } else {
            ss__buf_puts(b, "null");
        }
        free(pairs);
        ss__buf_puts(b, ",\"phase\":");
        ss__json_str(b, ss_phase_name(le.phase));
        ss__buf_puts(b, ",\"dtype\":");
        ss__json_str(b, ss_dtype_name(c.dtype));
        ss__buf_puts(b, ",\"bytes\":");
        ss__buf_put_int(b, (long long)c.bytes);
        ss__buf_puts(b, ",\"sent\":");
        json_num(b, c.sent);
        ss__buf_puts(b, ",\"received\":");
        json_num(b, c.received);
        ss__buf_puts(b, le.user ? ",\"provenance\":{\"source\":\"user\","
                                : ",\"provenance\":{\"source\":\"reshard\",");
        json_value_ref(b, sc, le.value);
        ss__buf_putc(b, '}');
        if (le.loop >= 0) { /* only loop entries carry the key: other reports keep their shape */
            ss__buf_puts(b, ",\"loop\":{\"value\":");
            ss__buf_put_int(b, (int)le.loop);
            ss__buf_puts(b, ",\"iteration\":");
            ss__buf_put_int(b, (long long)le.iteration);
            ss__buf_puts(b, ",\"trips\":");
            if (le.trips >= 0)
                ss__buf_put_int(b, (long long)le.trips);
            else
                ss__buf_puts(b, "null");
            ss__buf_puts(b, le.in_cond ? ",\"region\":\"cond\",\"op\":"
                                       : ",\"region\":\"body\",\"op\":");
            ss__json_str(b, le.region_op ? le.region_op : "");
            ss__buf_puts(b, ",\"name\":");
            if (le.region_name && le.region_name[0])
                ss__json_str(b, le.region_name);
            else
                ss__buf_puts(b, "null");
            ss__buf_putc(b, '}');
        }
        ss__buf_putc(b, '}');
    }
    ss__scn_ledger_row rows[64];
    double total;
    int nr = ss__scn_ledger_rows(r->exe, rows, 64, &total);
    ss__buf_puts(b, "],\"summary\":[");
    for (int k = 0; k < nr; k++) {
        ss__buf_puts(b, k ? ",{\"axes\":" : "{\"axes\":");
        json_axes(b, sc->mesh, rows[k].naxes, rows[k].axes);
        ss__buf_puts(b, ",\"kind\":");
        ss__json_str(b, ss_coll_kind_name(rows[k].kind));
        ss__buf_printf(b, ",\"count\":%d,\"bytes_per_device\":", rows[k].count);
        json_num(b, rows[k].sent);
        ss__buf_puts(b, ",\"share\":");
        json_num(b, total > 0 ? rows[k].sent / total : 0);
        ss__buf_putc(b, '}');
    }
    ss__buf_puts(b, "],\"sent_bytes_per_device\":");
    json_num(b, total);
    ss__buf_putc(b, '}');
    free(ids);
}

static void json_memory(ss__buf *b, const ss_scenario *sc, const ss__scn_report *r, ss_status *rst)
{
    ss__buf_printf(b, ",\"memory\":{\"capacity\":%zu,\"plan_peak_bytes\":%zu,\"devices\":[",
                   sc->device_memory, r->plan.peak_bytes);
    int n = ss_mesh_device_count(sc->mesh);
    for (int d = 0; d < n; d++) {
        size_t peak = r->plan.peak_bytes;
        ss_memory_stats ms;
        if (r->ctx && ss_device_memory_stats(r->ctx, d, &ms) == SS_OK)
            peak = ms.peak_bytes;
        ss__buf_printf(b, "%s{\"device\":%d,\"peak_bytes\":%zu,\"used_fraction\":", d ? "," : "",
                       d, peak);
        json_num(b, (double)peak / (double)sc->device_memory);
        ss__buf_putc(b, '}');
    }
    ss_live_buffer top[8];
    int ntop = 0;
    if (ss_executable_peak_buffers(r->exe, top, 8, &ntop) != SS_OK)
        ss__scn_part_failed(rst, ss__fail(SS_ERR_NOMEM, "memory report: out of host memory"));
    ss__buf_putc(b, ']');
    if (r->plan.host_peak_bytes || r->plan.transfers) { /* host memory kinds */
        int hosts = sc->hosts > 0 ? sc->hosts : 1;
        ss__buf_printf(b, ",\"host\":{\"hosts\":%d,\"devices_per_host\":%d,"
                          "\"plan_peak_bytes_per_device\":%zu,\"plan_peak_bytes_per_host\":%zu,"
                          "\"to_host_bytes\":%.0f,\"to_device_bytes\":%.0f,\"transfers\":%d",
                       hosts, n / hosts, r->plan.host_peak_bytes,
                       r->plan.host_peak_bytes * (size_t)(n / hosts), r->plan.to_host_bytes,
                       r->plan.to_device_bytes, r->plan.transfers);
        if (r->ctx) {
            ss__buf_puts(b, ",\"measured\":[");
            for (int h = 0; h < hosts; h++) {
                ss_memory_stats hs;
                if (ss_host_memory_stats(r->ctx, h, &hs) != SS_OK)
                    break;
                ss__buf_printf(b, "%s{\"host\":%d,\"peak_bytes\":%zu}", h ? "," : "", h,
                               hs.peak_bytes);
            }
            ss__buf_putc(b, ']');
        }
        ss__buf_putc(b, '}');
    }
    ss__buf_puts(b, ",\"largest_at_peak\":[");
    for (int k = 0; k < ntop; k++) {
        ss__buf_puts(b, k ? ",{\"buffer\":" : "{\"buffer\":");
        ss__json_str(b, top[k].name);
        ss__buf_printf(b, ",\"bytes\":%zu", top[k].bytes);
        if (top[k].value >= 0) {
            ss__buf_putc(b, ',');
            json_value_ref(b, sc, top[k].value);
        }
        ss__buf_putc(b, '}');
    }
    ss__buf_putc(b, ']');
    if (r->explain_memory && r->peak) {
        if (sc->opts.device) {
            ss__buf_puts(b, ",\"device\":");
            ss__json_str(b, sc->opts.device->name);
        }
        ss__buf_puts(b, ",\"peak_buffers\":[");
        for (int k = 0; k < r->npeak; k++) {
            ss__buf_puts(b, k ? ",{\"buffer\":" : "{\"buffer\":");
            ss__json_str(b, r->peak[k].name);
            ss__buf_printf(b, ",\"bytes\":%zu,\"role\":\"%s\"", r->peak[k].bytes,
                           ss__scn_role_names[r->peak[k].role]);
            if (r->peak[k].loop >= 0) { /* the body's value: its line, and the loop */
                ss__buf_printf(b, ",\"line\":%d,\"loop\":{", r->peak[k].line);
                json_value_ref(b, sc, r->peak[k].loop);
                ss__buf_putc(b, '}');
            } else if (r->peak[k].value >= 0) {
                ss__buf_putc(b, ',');
                json_value_ref(b, sc, r->peak[k].value);
            }
            ss__buf_putc(b, '}');
        }
        ss__buf_putc(b, ']');
    }
    ss__buf_putc(b, '}');
}

void ss__scn_report_json(const ss_scenario *sc, const ss__scn_report *r, ss__buf *b, ss_status *rst)
{
    hlo_cache *cache = calloc(1, sizeof *cache);
    if (!cache) {
        ss__scn_part_failed(rst, ss__fail(SS_ERR_NOMEM, "JSON report: out of host memory"));
        return;
    }
    ss__buf_printf(b, "{\"command\":\"%s\",\"file\":", r->is_plan ? "plan" : "run");
    ss__json_str(b, sc->path);
    ss__buf_puts(b, ",\"mesh\":{\"axes\":[");
    for (int a = 0; a < ss_mesh_axis_count(sc->mesh); a++) {
        ss__buf_puts(b, a ? ",{\"name\":" : "{\"name\":");
        ss__json_str(b, ss_mesh_axis_name(sc->mesh, a));
        ss__buf_printf(b, ",\"size\":%lld}", (long long)ss_mesh_axis_size(sc->mesh, a));
    }
    int n = ss_mesh_device_count(sc->mesh);
    ss__buf_puts(b, "],\"device_ids\":[");
    for (int p = 0; p < n; p++) {
        if (p)
            ss__buf_putc(b, ',');
        ss__buf_put_int(b, ss_mesh_device_id(sc->mesh, p));
    }
    ss__buf_printf(b, "],\"devices\":%d,\"hosts\":%d},\"device_memory\":%zu,\"run\":", n,
                   sc->hosts, sc->device_memory);
    if (sc->run_name) {
        ss__buf_puts(b, "{\"function\":");
        ss__json_str(b, sc->run_name);
        ss__buf_printf(b, ",\"steps\":%d,\"donate\":%s}", r->steps,
                       sc->donate ? "true" : "false");
    } else {
        ss__buf_puts(b, "null");
    }
    ss__buf_puts(b, ",\"shows\":[");
    for (int k = 0; k < sc->nshows; k++) {
        ss_sharding sh;
        ss_dtype dt;
        int rank;
        int64_t shape[SS_MAX_RANK];
        char note[160];
        if (!ss__scn_show_sharding(sc, r, &sc->shows[k], &sh, &dt, &rank, shape, note, sizeof note))
            continue;
        ss__buf_puts(b, k ? ",{\"name\":" : "{\"name\":");
        ss__json_str(b, sc->shows[k].name);
        ss__buf_printf(b, ",\"line\":%d,", sc->shows[k].loc.line);
        json_sharding(b, cache, &sh, rank);
        char *pic = ss__scn_show_picture(sc, &sc->shows[k], &sh, rank, shape, false, rst);
        ss__buf_puts(b, ",\"picture\":");
        ss__json_str(b, pic ? pic : "");
        free(pic);
        ss__buf_putc(b, '}');
    }
    ss__buf_putc(b, ']');
    ss__scn_watch_report_json(r->watch, b);
    json_run_values(b, sc, r, rst);
    ss__scn_ckpt_report_json(sc, r->ckpt, b);
    if (r->exe) {
        ss__buf_puts(b, ",\"values\":[");
        for (ss_value v = 0; v < ss_program_value_count(sc->program); v++) {
            ss_dtype dt;
            int rank;
            int64_t shape[SS_MAX_RANK];
            ss_sharding sh;
            if (ss_value_shape(sc->program, v, &dt, &rank, shape) ||
                ss_value_sharding(sc->program, v, &sh))
                continue;
            ss__buf_puts(b, v ? ",{" : "{");
            json_value_ref(b, sc, v);
            ss__buf_puts(b, ",\"phase\":");
            ss__json_str(b, ss_phase_name(ss_value_phase(sc->program, v)));
            ss__buf_puts(b, ",\"dtype\":");
            ss__json_str(b, ss_dtype_name(dt));
            ss__buf_puts(b, ",\"shape\":");
            ss__json_int_array(b, rank, shape);
            ss__buf_putc(b, ',');
            json_sharding(b, cache, &sh, rank);
            ss__buf_putc(b, '}');
        }
        ss__buf_putc(b, ']');
        json_memory(b, sc, r, rst);
        ss__scn_strategy_report_json(sc, r, b);
        json_ledger(b, sc, r, rst);
        ss__buf_puts(b, ",\"flops_per_device\":");
        json_num(b, r->plan.flops);
        if (r->is_plan) {
            /* Wall seconds in this process: reading and importing the
             * file, compiling, planning under the memory model. */
            ss__buf_puts(b, ",\"seconds\":{\"load\":");
            json_num(b, sc->load_s);
            ss__buf_puts(b, ",\"compile\":");
            json_num(b, r->compile_s);
            ss__buf_puts(b, ",\"plan\":");
            json_num(b, r->plan_s);
            ss__buf_putc(b, '}');
            ss__buf_printf(b, ",\"fits\":%s,\"estimates\":[", r->fits ? "true" : "false");
            int m = 0;
            const ss_hw_profile *p;
            ss_step_estimate est;
            for (int k = 0; ss__scn_estimate_next(sc, r, &k, &p, &est);) {
                ss__buf_puts(b, m++ ? ",{\"profile\":" : "{\"profile\":");
                ss__json_str(b, p->name);
                ss__buf_puts(b, ",\"compute_seconds\":");
                json_num(b, est.compute);
                ss__buf_puts(b, ",\"comm_seconds\":");
                json_num(b, est.comm);
                if (r->plan.transfers) { /* host memory kinds: the host link's share */
                    ss__buf_puts(b, ",\"host_transfer_seconds\":");
                    json_num(b, est.host);
                }
                ss__buf_puts(b, ",\"total_seconds\":");
                json_num(b, est.total);
                ss__buf_putc(b, '}');
            }
            ss__buf_putc(b, ']');
        } else {
            ss__buf_printf(b, ",\"steps\":{\"count\":%d,\"compile_seconds\":", r->steps);
            json_num(b, r->compile_s);
            ss__buf_puts(b, ",\"first_seconds\":");
            json_num(b, r->first_s);
            ss__buf_puts(b, ",\"median_seconds\":");
            json_num(b, r->steps > 1 ? r->median_s : r->first_s);
            ss__buf_puts(b, "},\"checks\":[");
            for (int k = 0; k < sc->nchecks; k++) {
                const ss__scn_check_result *c = &r->checks[k];
                ss__buf_puts(b, k ? ",{\"name\":" : "{\"name\":");
                ss__json_str(b, sc->checks[k].name);
                ss__buf_printf(b, ",\"line\":%d,\"max_abs_error\":", sc->checks[k].loc.line);
                json_num(b, c->max_abs);
                ss__buf_puts(b, ",\"max_rel_error\":");
                json_num(b, c->ref_max > 0 ? c->max_abs / c->ref_max : 0);
                ss__buf_puts(b, ",\"tolerance\":");
                json_num(b, c->tol);
                ss__buf_printf(b, ",\"nonfinite_mismatches\":%lld,\"nonfinite_equal\":%lld",
                               (long long)c->nonfinite_bad, (long long)c->nonfinite_equal);
                ss__buf_printf(b, ",\"passed\":%s}", c->pass ? "true" : "false");
            }
            ss__buf_putc(b, ']');
        }
    }
    ss__buf_puts(b, "}\n");
    free(cache);
}

