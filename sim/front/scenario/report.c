/*
 * report.c — what `shardsim run` and `shardsim plan` print: the mesh, the
 * shows, the values (plan), memory per device, the collective ledger summed
 * per mesh axis and kind, the explain lines, step times or estimated step
 * times, and the checks; as text for people here, as one JSON object in
 * report_json.c (schema in scenarios/README.md). Every value is named by the scenario name and
 * line it came from when it has one, else by its program number "%N".
 */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#define MAX_PICTURE 65536

/* The Python line an imported module's value came from ("model.py:42"),
 * or NULL (scenarios, and ops without a location). */
const char *ss__scn_value_origin(const ss_scenario *sc, ss_value v)
{
    return v >= 0 && v < sc->vinfo_cap ? sc->vinfo[v].origin : NULL;
}

/* "name (line 12)" / "%12 dot_general (line 12)" for a program value; an
 * imported module's value names its Python line: "%12 dot_general (model.py:42)". */
static void value_label(const ss_scenario *sc, ss_value v, char *buf, size_t cap)
{
    const char *name = ss__scn_value_name(sc, v);
    ss__scn_loc loc = ss__scn_value_loc(sc, v);
    const char *op = sc->program ? ss_value_op_name(sc->program, v) : "?";
    const char *origin = ss__scn_value_origin(sc, v);
    if (origin && name)
        snprintf(buf, cap, "%s (%s)", name, origin);
    else if (origin)
        snprintf(buf, cap, "%%%d %s (%s)", (int)v, op ? op : "?", origin);
    else if (name && sc->imported) /* an argument: its path names it */
        snprintf(buf, cap, "%s", name);
    else if (name && loc.line)
        snprintf(buf, cap, "%s (line %d)", name, loc.line);
    else if (loc.line)
        snprintf(buf, cap, "%%%d %s (line %d)", (int)v, op ? op : "?", loc.line);
    else
        snprintf(buf, cap, "%%%d %s", (int)v, op ? op : "?");
}

/* A buffer at the peak ("%12 dot_general", "%12 gathered") as a value label. */
static void buffer_label(const ss_scenario *sc, const ss_live_buffer *lb, char *buf, size_t cap)
{
    const char *name = lb->name;
    if (lb->value >= 0) {
        ss_value v = lb->value;
        const char *rest = strchr(name, ' ');
        char label[120];
        value_label(sc, v, label, sizeof label);
        if (cap < 160)
            return;
        if (rest && (strstr(rest, "gathered") || strstr(rest, "slice") || strstr(rest, "all_") ||
                     strstr(rest, "reduce_scatter") || strstr(rest, "permute")))
            snprintf(buf, cap, "%s%s", label, rest);
        else
            snprintf(buf, cap, "%s", label);
    } else if (cap) {
        size_t n = strlen(name) < cap - 1 ? strlen(name) : cap - 1;
        memcpy(buf, name, n);
        buf[n] = '\0';
    }
}

static void sharding_text(const ss_sharding *sh, char *buf, size_t cap)
{
    char spec[4096];
    ss_spec_repr(&sh->spec, spec, sizeof spec);
    size_t n = (size_t)snprintf(buf, cap, "%s", spec);
    if (sh->partial_mask && n < cap) {
        n += (size_t)snprintf(buf + n, cap - n, " partial sum over");
        for (int a = 0; a < ss_mesh_axis_count(sh->mesh) && n < cap; a++)
            if ((sh->partial_mask >> a) & 1u)
                n += (size_t)snprintf(buf + n, cap - n, " '%s'", ss_mesh_axis_name(sh->mesh, a));
    }
}

/* The sharding of a shown value: the layout a restore gave the array
 * (scenario_ckpt.c; `note` says so), propagated, or the declared spec of an
 * array the run does not use. */
bool ss__scn_show_sharding(const ss_scenario *sc, const ss__scn_report *r, const ss__scn_show *w,
                          ss_sharding *sh, ss_dtype *dt, int *rank, int64_t shape[],
                          char *note, size_t cap)
{
    int arr = w->array;
    for (int k = 0; arr < 0 && w->value >= 0 && k < sc->narrays; k++)
        if (sc->arrays[k].value == w->value)
            arr = k;
    note[0] = '\0';
    if (arr >= 0 && ss__scn_ckpt_show(r->ckpt, arr, sh, note, cap)) {
        *dt = sc->arrays[arr].dtype;
        *rank = sc->arrays[arr].rank;
        memcpy(shape, sc->arrays[arr].shape, sizeof(int64_t) * SS_MAX_RANK);
        return true;
    }
    if (w->value >= 0 && sc->program && ss_value_sharding(sc->program, w->value, sh) == SS_OK) {
        ss_value_shape(sc->program, w->value, dt, rank, shape);
        return true;
    }
    if (w->array < 0)
        return false;
    const ss__scn_array *a = &sc->arrays[w->array];
    ss_spec none;
    memset(&none, 0, sizeof none);
    ss_sharding_init(sh, sc->mesh, a->has_spec ? &a->spec : &none);
    *dt = a->dtype;
    *rank = a->rank;
    memcpy(shape, a->shape, sizeof(int64_t) * SS_MAX_RANK);
    return true;
}

/* A report part that could not be made fails the report: *st keeps the
 * first failure (out of host memory, say), and the command exits 1. */
void ss__scn_part_failed(ss_status *st, ss_status why)
{
    if (!*st)
        *st = why;
}

char *ss__scn_show_picture(const ss_scenario *sc, const ss__scn_show *w, const ss_sharding *sh, int rank,
                          const int64_t shape[], bool color, ss_status *rst)
{
    char *pic = malloc(MAX_PICTURE);
    if (!pic) {
        ss__scn_part_failed(rst, ss__fail(SS_ERR_NOMEM, "show %s: out of host memory", w->name));
        return NULL;
    }
    ss_viz_options o = {.color = color};
    ss_sharding plain = *sh;
    plain.partial_mask = 0;
    ss_status st = rank == 0 ? (snprintf(pic, MAX_PICTURE, "(a scalar: %s)\n",
                                         ss_sharding_is_replicated(&plain) ? "replicated"
                                                                           : "sharded"),
                                SS_OK)
                             : ss_viz_sharding_nd(&plain, rank, shape, w->row_dim, w->col_dim, &o,
                                                  pic, MAX_PICTURE, NULL);
    if (st == SS_ERR_NOMEM)
        ss__scn_part_failed(rst, st);
    if (st)
        snprintf(pic, MAX_PICTURE, "(no picture: %s)\n", ss_error_message());
    (void)sc;
    return pic;
}

/* --- Ledger summaries -------------------------------------------------------- */

bool ss__scn_estimate_next(const ss_scenario *sc, const ss__scn_report *r, int *k,
                           const ss_hw_profile **p, ss_step_estimate *est)
{
    for (; *k < ss_hw_profile_count(); ++*k) {
        *p = ss_hw_profile_get(*k);
        if ((r->profile && strcmp(r->profile, (*p)->name) != 0) ||
            ss_estimate_step(r->exe, sc->mesh, *p, est))
            continue;
        ++*k;
        return true;
    }
    return false;
}

int ss__scn_ledger_rows(const ss_executable *e, ss__scn_ledger_row *rows, int cap, double *total)
{
    int n = 0;
    *total = 0;
    for (int i = 0; i < ss_executable_ledger_count(e); i++) {
        ss_coll_record r;
        if (ss_executable_ledger_get(e, i, &r) != SS_OK)
            continue;
        *total += r.sent;
        int k = 0;
        while (k < n && !(rows[k].kind == r.kind && rows[k].naxes == r.naxes &&
                          memcmp(rows[k].axes, r.axes, sizeof r.axes[0] * (size_t)r.naxes) == 0))
            k++;
        if (k == n) {
            if (n == cap)
                continue;
            memset(&rows[n], 0, sizeof rows[n]);
            rows[n].naxes = r.naxes;
            memcpy(rows[n].axes, r.axes, sizeof r.axes);
            rows[n].kind = r.kind;
            n++;
        }
        rows[k].count++;
        rows[k].sent += r.sent;
    }
    return n;
}

/* --- Text ---------------------------------------------------------------------- */

/* Host memory beside the device's (values in a host memory kind): per
 * device its partition of the host's arena, per host their sum; nothing
 * when the program puts nothing there. */
static void text_host_memory(const ss_scenario *sc, const ss__scn_report *r, FILE *f)
{
    if (!r->plan.host_peak_bytes && !r->plan.transfers)
        return;
    char a[32], b[32];
    int n = ss_mesh_device_count(sc->mesh), hosts = sc->hosts > 0 ? sc->hosts : 1;
    fprintf(f, "Host memory (values in pinned_host/unpinned_host memory; one arena per host, "
               "%d device%s each)\n", n / hosts, n / hosts == 1 ? "" : "s");
    ss__fmt_bytes(a, sizeof a, (double)r->plan.host_peak_bytes);
    ss__fmt_bytes(b, sizeof b, (double)r->plan.host_peak_bytes * (double)(n / hosts));
    fprintf(f, "  planned peak: %s per device, %s per host\n", a, b);
    for (int h = 0; r->ctx && h < hosts; h++) {
        ss_memory_stats hs;
        if (ss_host_memory_stats(r->ctx, h, &hs) != SS_OK)
            break;
        ss__fmt_bytes(a, sizeof a, (double)hs.peak_bytes);
        fprintf(f, "  host %d: measured peak %s (%lld buffers allocated)\n", h, a,
                (long long)hs.alloc_count);
    }
}

static void text_memory(const ss_scenario *sc, const ss__scn_report *r, FILE *f, ss_status *rst)
{
    char a[32], b[32];
    size_t cap = sc->device_memory;
    int n = ss_mesh_device_count(sc->mesh);
    bool all = (sc->prints & SS__SCN_PRINT_MEMORY) != 0;
    ss_live_buffer top[8];
    int ntop = 0;
    if (ss_executable_peak_buffers(r->exe, top, all ? 8 : 3, &ntop) != SS_OK)
        ss__scn_part_failed(rst, ss__fail(SS_ERR_NOMEM, "memory report: out of host memory"));
    char largest[1024] = "";
    size_t len = 0;
    for (int k = 0; k < ntop && len < sizeof largest; k++) {
        char label[200];
        buffer_label(sc, &top[k], label, sizeof label);
        ss__fmt_bytes(a, sizeof a, (double)top[k].bytes);
        len += (size_t)snprintf(largest + len, sizeof largest - len, "%s%s %s", k ? ", " : "",
                                label, a);
    }
    ss__fmt_bytes(b, sizeof b, (double)cap);
    fprintf(f, "Memory per device (%s; capacity %s each)\n",
            r->is_plan ? "planned peak, the same on every device" : "measured peak of the run",
            b);
    fprintf(f, "  %-10s %12s %8s  %s\n", "devices", "peak", "used", "largest buffers at the peak");
    if (r->is_plan) {
        ss__fmt_bytes(a, sizeof a, (double)r->plan.peak_bytes);
        fprintf(f, "  %-10s %12s %7.2f%%  %s\n", n > 1 ? "all" : "0", a,
                100.0 * (double)r->plan.peak_bytes / (double)cap, largest);
    } else {
        for (int d = 0; d < n;) {
            ss_memory_stats ms;
            if (ss_device_memory_stats(r->ctx, d, &ms) != SS_OK)
                break;
            int end = d + 1;
            while (!all && end < n) {
                ss_memory_stats m2;
                if (ss_device_memory_stats(r->ctx, end, &m2) != SS_OK ||
                    m2.peak_bytes != ms.peak_bytes)
                    break;
                end++;
            }
            char ids[32];
            if (end - d > 1)
                snprintf(ids, sizeof ids, "%d-%d", d, end - 1);
            else
                snprintf(ids, sizeof ids, "%d", d);
            ss__fmt_bytes(a, sizeof a, (double)ms.peak_bytes);
            fprintf(f, "  %-10s %12s %7.2f%%  %s\n", ids, a,
                    100.0 * (double)ms.peak_bytes / (double)ms.capacity, d == 0 ? largest : "");
            d = end;
        }
        if (r->plan.peak_bytes)
            fprintf(f, "  (the plan predicted %s per device)\n",
                    (ss__fmt_bytes(a, sizeof a, (double)r->plan.peak_bytes), a));
    }
    text_host_memory(sc, r, f);
    fprintf(f, "\n");
}

/* ", step 3 of 96 of its body: dot_general h" appended to a loop entry's
 * label (ss_ledger_entry's loop position); nothing outside loops. */
static void loop_suffix(const ss_ledger_entry *le, char *label, size_t cap)
{
    if (le->loop < 0)
        return;
    size_t at = strlen(label);
    char step[64];
    if (le->trips >= 0)
        snprintf(step, sizeof step, "step %lld of %lld", (long long)le->iteration + 1,
                 (long long)le->trips);
    else
        snprintf(step, sizeof step, "each round");
    snprintf(label + at, cap - at, ", %s of its %s: %s%s%s", step,
             le->in_cond ? "condition" : "body", le->region_op ? le->region_op : "?",
             le->region_name && le->region_name[0] ? " " : "",
             le->region_name ? le->region_name : "");
}

/* Transfers between device and host memory, per device, each with its
 * bytes and time over the profile's host link; nothing when there are none. */
static void text_transfers(const ss_scenario *sc, const ss__scn_report *r, FILE *f)
{
    if (!r->plan.transfers)
        return;
    const ss_hw_profile *p = ss_hw_profile_find(r->profile ? r->profile : "tpu-v5e");
    char a[32], b[32];
    ss__fmt_bytes(a, sizeof a, r->plan.to_host_bytes);
    ss__fmt_bytes(b, sizeof b, r->plan.to_device_bytes);
    fprintf(f, "Host transfers per step (per device; %s host link %.1f GB/s per direction)\n",
            p->name, p->host_bw / 1e9);
    fprintf(f, "  total: %d transfer%s, %s to host, %s to device, %.3g us\n", r->plan.transfers,
            r->plan.transfers == 1 ? "" : "s", a, b,
            1e6 * ss_estimate_host_seconds(r->plan.to_host_bytes + r->plan.to_device_bytes, p));
    int n = 0;
    if (ss_executable_steps(r->exe, NULL, 0, &n) != SS_OK || n == 0)
        return;
    ss_step_cost *c = malloc(sizeof *c * (size_t)n);
    if (!c || ss_executable_steps(r->exe, c, n, &n) != SS_OK) {
        free(c);
        return;
    }
    for (int k = 0; k < n; k++) {
        if (c[k].kind != SS_STEP_TO_HOST && c[k].kind != SS_STEP_TO_DEVICE)
            continue;
        char label[320];
        value_label(sc, c[k].value, label, sizeof label);
        ss__fmt_bytes(a, sizeof a, c[k].bytes);
        fprintf(f, "  %-14s %12s %9.3g us: %s\n",
                c[k].kind == SS_STEP_TO_HOST ? "device to host" : "host to device", a,
                1e6 * ss_estimate_host_seconds(c[k].bytes, p), label);
    }
    free(c);
}

static void text_ledger(const ss_scenario *sc, const ss__scn_report *r, FILE *f)
{
    ss__scn_ledger_row rows[64];
    double total;
    int n = ss__scn_ledger_rows(r->exe, rows, 64, &total);
    char a[32];
    fprintf(f, "Collectives per step (summed per mesh axis and kind; bytes sent per device)\n");
    if (n == 0) {
        fprintf(f, "  none: every op is local\n\n");
        text_transfers(sc, r, f);
        if (r->plan.transfers)
            fprintf(f, "\n");
        return;
    }
    fprintf(f, "  %-22s %-16s %6s %14s %7s\n", "axes", "kind", "count", "bytes/device", "share");
    for (int k = 0; k < n; k++) {
        char axes[96];
        ss__fmt_bytes(a, sizeof a, rows[k].sent);
        ss_axes_repr(sc->mesh, rows[k].naxes, rows[k].axes, axes, sizeof axes);
        fprintf(f, "  %-22s %-16s %6d %14s %6.1f%%\n", axes,
                ss_coll_kind_name(rows[k].kind), rows[k].count, a,
                total > 0 ? 100.0 * rows[k].sent / total : 0.0);
    }
    ss__fmt_bytes(a, sizeof a, total);
    fprintf(f, "  total: %d collective%s, %s sent per device\n",
            ss_executable_ledger_count(r->exe), ss_executable_ledger_count(r->exe) == 1 ? "" : "s",
            a);
    if (sc->prints & SS__SCN_PRINT_LEDGER) {
        fprintf(f, "  in order:\n");
        for (int i = 0; i < ss_executable_ledger_count(r->exe); i++) {
            ss_ledger_entry le;
            if (ss_executable_ledger_entry(r->exe, i, &le)) {
                fprintf(f, "  %3d (%s)\n", i + 1, ss_error_message());
                continue;
            }
            const ss_coll_record c = le.coll;
            char label[320], s[32], b[32], axes[96];
            value_label(sc, le.value, label, sizeof label);
            loop_suffix(&le, label, sizeof label);
            ss__fmt_bytes(s, sizeof s, c.sent);
            ss__fmt_bytes(b, sizeof b, (double)c.bytes);
            ss_axes_repr(sc->mesh, c.naxes, c.axes, axes, sizeof axes);
            fprintf(f, "  %3d %-9s %-16s over %s, %d group%s of %d, buffer %s %s, sent %s: %s %s\n",
                    i + 1, ss_phase_name(le.phase), ss_coll_kind_name(c.kind), axes, c.ngroups,
                    c.ngroups == 1 ? "" : "s", c.group_size, ss_dtype_name(c.dtype), b, s,
                    le.user ? "written in" : "reshard for", label);
        }
    }
    fprintf(f, "\n");
    text_transfers(sc, r, f);
    if (r->plan.transfers)
        fprintf(f, "\n");
}

const char *const ss__scn_role_names[] = {
    [SS_BUFFER_TEMPORARY] = "temporary", [SS_BUFFER_ARGUMENT] = "argument",
    [SS_BUFFER_RESULT] = "result",       [SS_BUFFER_SCRATCH] = "scratch",
    [SS_BUFFER_LOOP] = "loop",           [SS_BUFFER_BOOKKEEPING] = "bookkeeping",
    [SS_BUFFER_FRAGMENTATION] = "heap gaps",
    [SS_BUFFER_RECOMPUTED] = "recomputed",
};

/* A buffer's role inside a loop's body (ss_live_buffer.loop >= 0). */
const char *const ss__scn_body_role_names[] = {
    [SS_BUFFER_TEMPORARY] = "temporary", [SS_BUFFER_ARGUMENT] = "body arg",
    [SS_BUFFER_RESULT] = "body out",     [SS_BUFFER_SCRATCH] = "scratch",
    [SS_BUFFER_LOOP] = "loop",           [SS_BUFFER_BOOKKEEPING] = "bookkeeping",
    [SS_BUFFER_FRAGMENTATION] = "heap gaps",
    [SS_BUFFER_RECOMPUTED] = "recomputed",
};

static const char *const role_plurals[] = {
    [SS_BUFFER_TEMPORARY] = "temporaries", [SS_BUFFER_ARGUMENT] = "arguments",
    [SS_BUFFER_RESULT] = "results",        [SS_BUFFER_SCRATCH] = "scratch",
    [SS_BUFFER_LOOP] = "in loops",         [SS_BUFFER_BOOKKEEPING] = "bookkeeping",
    [SS_BUFFER_FRAGMENTATION] = "heap fragmentation",
    [SS_BUFFER_RECOMPUTED] = "recomputed",
};

/* --explain-memory: every buffer of the planned peak with its role and
 * source, and the peak as the sum of the roles. */
static void text_peak(const ss_scenario *sc, const ss__scn_report *r, FILE *f)
{
    char a[32], b[32];
    double by_role[SS_BUFFER_RECOMPUTED + 1] = {0};
    for (int k = 0; k < r->npeak; k++) /* a loop body's buffers count as the loop's */
        by_role[r->peak[k].loop >= 0 ? SS_BUFFER_LOOP : r->peak[k].role] +=
            (double)r->peak[k].bytes;
    int recomputed = 0;
    ss__fmt_bytes(a, sizeof a, (double)r->plan.peak_bytes);
    ss__fmt_bytes(b, sizeof b, (double)sc->device_memory);
    fprintf(f, "Memory at the planned peak (--explain-memory; per device%s%s): %s of %s\n",
            sc->opts.device ? ", counted as " : "", sc->opts.device ? sc->opts.device->name : "",
            a, b);
    fprintf(f, "  %12s  %-9s  %s\n", "bytes", "role", "buffer");
    for (int k = 0; k < r->npeak; k++) {
        char label[256];
        const char *role = ss__scn_role_names[r->peak[k].role];
        if (r->peak[k].role == SS_BUFFER_RECOMPUTED && r->peak[k].loop < 0) {
            recomputed++; /* listed below: not alive at the peak */
            continue;
        }
        if (r->peak[k].loop >= 0) { /* in a loop's body: the body's value */
            char v[160];
            value_label(sc, r->peak[k].loop, v, sizeof v);
            if (r->peak[k].line)
                snprintf(label, sizeof label, "%s (line %d) in %s", r->peak[k].name,
                         r->peak[k].line, v);
            else
                snprintf(label, sizeof label, "%s in %s", r->peak[k].name, v);
            role = ss__scn_body_role_names[r->peak[k].role];
        } else if (r->peak[k].role == SS_BUFFER_LOOP || r->peak[k].role == SS_BUFFER_SCRATCH ||
                   r->peak[k].role == SS_BUFFER_BOOKKEEPING ||
                   r->peak[k].role == SS_BUFFER_FRAGMENTATION) {
            char v[160] = "";
            if (r->peak[k].value >= 0)
                value_label(sc, r->peak[k].value, v, sizeof v);
            snprintf(label, sizeof label, "%s%s%s", r->peak[k].name, *v ? " of " : "", v);
        } else {
            buffer_label(sc, &r->peak[k], label, sizeof label);
        }
        ss__fmt_bytes(a, sizeof a, (double)r->peak[k].bytes);
        fprintf(f, "  %12s  %-9s  %s\n", a, role, label);
    }
    fprintf(f, "  total:");
    for (int k = 0; k <= SS_BUFFER_FRAGMENTATION; k++)
        if (by_role[k] > 0) {
            ss__fmt_bytes(a, sizeof a, by_role[k]);
            fprintf(f, " %s %s", a, role_plurals[k]);
        }
    fprintf(f, "\n");
    if (recomputed) {
        ss__fmt_bytes(a, sizeof a, by_role[SS_BUFFER_RECOMPUTED]);
        fprintf(f, "  recomputed, not alive at the peak (XLA's rematerialisation under the HBM "
                   "limit: freed after their readers before it, computed again after it; %s):\n",
                a);
        for (int k = 0; k < r->npeak; k++)
            if (r->peak[k].role == SS_BUFFER_RECOMPUTED && r->peak[k].loop < 0) {
                char label[256];
                buffer_label(sc, &r->peak[k], label, sizeof label);
                ss__fmt_bytes(a, sizeof a, (double)r->peak[k].bytes);
                fprintf(f, "  %12s  %-9s  %s\n", a, "recomputed", label);
            }
    }
    fprintf(f, "\n");
}

static void text_explain(const ss_scenario *sc, const ss__scn_report *r, FILE *f, ss_status *rst)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m) {
        ss__scn_part_failed(rst, ss__fail(SS_ERR_NOMEM, "--explain: out of host memory"));
        return;
    }
    ss_executable_explain(r->exe, m);
    if (fclose(m) != 0 || !text) {
        free(text);
        ss__scn_part_failed(rst, ss__fail(SS_ERR_NOMEM, "--explain: out of host memory"));
        return;
    }
    fprintf(f, "How each op was partitioned (--explain)\n");
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        ss__scn_loc loc = {0, 0};
        if (line[0] == '%')
            loc = ss__scn_value_loc(sc, (ss_value)strtol(line + 1, NULL, 10));
        const char *name = line[0] == '%' ? ss__scn_value_name(sc, (ss_value)strtol(line + 1, NULL, 10))
                                          : NULL;
        const char *origin = line[0] == '%' ? ss__scn_value_origin(sc, (ss_value)strtol(line + 1, NULL, 10))
                                            : NULL;
        if (origin)
            fprintf(f, "  %-9s %-10s %s\n", origin, name ? name : "", line);
        else if (loc.line)
            fprintf(f, "  line %-4d %-10s %s\n", loc.line, name ? name : "", line);
        else
            fprintf(f, "  %-20s %s\n", "", line);
    }
    free(text);
    fprintf(f, "\n");
}

static void text_values(const ss_scenario *sc, FILE *f, bool all)
{
    fprintf(f, "Values (%s)\n", all ? "every program value" : "every named value");
    fprintf(f, "  %-5s %-14s %-6s %-18s %-22s %-26s %s\n", "id", "name", "line", "op", "global",
            "sharding", "per device");
    for (ss_value v = 0; v < ss_program_value_count(sc->program); v++) {
        const char *name = ss__scn_value_name(sc, v);
        if (!all && !name)
            continue;
        ss_dtype dt;
        int rank;
        int64_t shape[SS_MAX_RANK], local[SS_MAX_RANK];
        ss_sharding sh;
        if (ss_value_shape(sc->program, v, &dt, &rank, shape) ||
            ss_value_sharding(sc->program, v, &sh))
            continue;
        char g[96], l[96], s[256];
        ss__shape_text(g, sizeof g, dt, rank, shape);
        sharding_text(&sh, s, sizeof s);
        ss_sharding plain = sh;
        plain.partial_mask = 0;
        int64_t tiles[SS_MAX_RANK];
        ss_status cs = ss_sharding_check(&plain, rank, shape);
        bool known = cs == SS_OK || cs == SS_ERR_INDIVISIBLE;
        ss_sharding_tiling(&plain, rank, tiles);
        for (int d = 0; d < rank; d++) /* uneven: XLA's padded block, ceil(n / k) */
            local[d] = (shape[d] + tiles[d] - 1) / tiles[d];
        if (known)
            ss__shape_text(l, sizeof l, dt, rank, local);
        else
            snprintf(l, sizeof l, "?");
        fprintf(f, "  %%%-4d %-14s %-6d %-18s %-22s %-26s %s\n", (int)v, name ? name : "",
                ss__scn_value_loc(sc, v).line, ss_value_op_name(sc->program, v), g, s, l);
    }
    fprintf(f, "\n");
}

/* The print(...) statements: each as written and what Python's print
 * shows for it after the last step. */
static void text_prints(const ss_scenario *sc, const ss__scn_report *r, FILE *f, ss_status *rst)
{
    if (!sc->nvprints || !r->outputs)
        return;
    fprintf(f, "Printed (after step %d)\n", r->steps);
    for (int k = 0; k < sc->nvprints; k++) {
        ss__buf b;
        ss__buf_init(&b);
        ss_status st = ss__scn_print_text(sc, &sc->vprints[k], r->outputs, &b);
        fprintf(f, "  line %d: %s\n", sc->vprints[k].loc.line, sc->vprints[k].source);
        if (st)
            ss__scn_part_failed(rst, st);
        else
            fprintf(f, "%s\n", b.data ? b.data : "");
        ss__buf_free(&b);
    }
    fprintf(f, "\n");
}

/* Did a check of an imported module fail while some float argument was
 * generated (normal(0, 1), not given with --inputs)? */
static bool generated_inputs_failed(const ss_scenario *sc)
{
    if (ss_scenario_checks_passed(sc) || !sc->imported)
        return false;
    for (int i = 0; i < sc->ninputs; i++) {
        const ss__scn_array *a = &sc->arrays[sc->input_array[i]];
        if (a->init.kind == SS__SCN_INIT_NORMAL)
            return true;
    }
    return false;
}

/* "ok", "ok (bitwise equal)", "FAILED", and what NaN/Inf did: equal on
 * both sides (they pass, as in assert_allclose) or where they differ. */
static void check_verdict(const ss_scenario *sc, int k, const ss__scn_check_result *c, char *buf,
                          size_t cap)
{
    size_t n;
    if (c->pass) {
        snprintf(buf, cap, "ok%s%s", c->max_abs == 0 ? " (bitwise equal" : "",
                 c->max_abs == 0 && !c->nonfinite_equal ? ")" : "");
        n = strlen(buf);
        if (c->nonfinite_equal && n < cap)
            snprintf(buf + n, cap - n, "%s%lld NaN/Inf equal on both sides)",
                     c->max_abs == 0 ? "; " : " (", (long long)c->nonfinite_equal);
        return;
    }
    n = (size_t)snprintf(buf, cap, "FAILED");
    if (c->nonfinite_bad && n < cap) {
        ss_dtype dt;
        int rank = 0;
        int64_t shape[SS_MAX_RANK], idx[SS_MAX_RANK], rest = c->first_bad;
        ss_value_shape(sc->program, sc->outputs[sc->checks[k].output].value, &dt, &rank, shape);
        for (int d = rank - 1; d >= 0; d--) {
            idx[d] = shape[d] ? rest % shape[d] : 0;
            rest = shape[d] ? rest / shape[d] : 0;
        }
        n += (size_t)snprintf(buf + n, cap - n, ": NaN/Inf differ at %lld element%s (first [",
                              (long long)c->nonfinite_bad, c->nonfinite_bad == 1 ? "" : "s");
        for (int d = 0; d < rank && n < cap; d++)
            n += (size_t)snprintf(buf + n, cap - n, d ? ", %lld" : "%lld", (long long)idx[d]);
        if (n < cap)
            n += (size_t)snprintf(buf + n, cap - n, "]: run %g, reference %g)", c->bad_run,
                                  c->bad_ref);
    }
    if (c->nonfinite_equal && n < cap)
        snprintf(buf + n, cap - n, "; %lld NaN/Inf equal on both sides",
                 (long long)c->nonfinite_equal);
}

static void text_report(const ss_scenario *sc, const ss__scn_report *r, FILE *f, ss_status *rst)
{
    char a[32], b[32];
    int n = ss_mesh_device_count(sc->mesh);
    ss__fmt_bytes(b, sizeof b, (double)sc->device_memory);
    if (sc->run_name)
        fprintf(f, "%s: %s %s, %d step%s on %d virtual device%s (%d host%s), %s each%s\n\n",
                sc->path, r->is_plan ? "plan" : "run", sc->run_name, r->steps,
                r->steps == 1 ? "" : "s", n, n == 1 ? "" : "s", sc->hosts,
                sc->hosts == 1 ? "" : "s", b, sc->donate ? "; carried arrays donated" : "");
    else
        fprintf(f, "%s: no run; %d virtual device%s\n\n", sc->path, n, n == 1 ? "" : "s");
    char *pic = malloc(MAX_PICTURE);
    ss_status vst = pic ? SS_OK : ss__fail(SS_ERR_NOMEM, "mesh picture: out of host memory");
    if (pic && n <= 64 && (vst = ss_viz_mesh(sc->mesh, NULL, pic, MAX_PICTURE, NULL)) == SS_OK)
        fprintf(f, "%s\n", pic);
    else if (pic && vst != SS_ERR_NOMEM && ss_mesh_repr(sc->mesh, 0, pic, MAX_PICTURE) == SS_OK)
        fprintf(f, "%s (%d devices: too many to draw)\n\n", pic, n);
    if (vst == SS_ERR_NOMEM)
        ss__scn_part_failed(rst, vst);
    free(pic);
    for (int k = 0; k < sc->nshows; k++) {
        const ss__scn_show *w = &sc->shows[k];
        ss_sharding sh;
        ss_dtype dt;
        int rank;
        int64_t shape[SS_MAX_RANK];
        char s[256], t[96], hlo[512], note[160];
        if (!ss__scn_show_sharding(sc, r, w, &sh, &dt, &rank, shape, note, sizeof note))
            continue;
        sharding_text(&sh, s, sizeof s);
        ss__shape_text(t, sizeof t, dt, rank, shape);
        ss_sharding plain = sh;
        plain.partial_mask = 0;
        if (ss_sharding_to_hlo(&plain, rank, hlo, sizeof hlo) != SS_OK)
            hlo[0] = '\0';
        fprintf(f, "show %s (line %d): %s %s %s%s\n", w->name, w->loc.line, t, s, hlo,
                note[0] ? note : w->value < 0 ? " (declared; the run does not use it)" : "");
        char *p = ss__scn_show_picture(sc, w, &sh, rank, shape, r->color, rst);
        if (p)
            fprintf(f, "%s\n", p);
        free(p);
    }
    ss__scn_ckpt_report_text(sc, r->ckpt, f);
    if (!r->exe)
        return;
    ss__scn_watch_report_text(r->watch, r->exe, f);
    text_prints(sc, r, f, rst);
    if (r->is_plan || (sc->prints & SS__SCN_PRINT_VALUES))
        text_values(sc, f, (sc->prints & SS__SCN_PRINT_VALUES) && !r->is_plan);
    if (sc->prints & SS__SCN_PRINT_PROGRAM) {
        fprintf(f, "Program\n");
        ss_program_print(sc->program, f);
        fprintf(f, "\n");
    }
    text_memory(sc, r, f, rst);
    if (r->explain_memory && r->peak)
        text_peak(sc, r, f);
    ss__scn_strategy_report_text(sc, r, f);
    text_ledger(sc, r, f);
    if (r->explain || (sc->prints & SS__SCN_PRINT_EXPLAIN))
        text_explain(sc, r, f, rst);
    ss__fmt_bytes(a, sizeof a, r->plan.sent_bytes);
    if (r->is_plan) {
        fprintf(f, "FLOPs per device per step: %.4g\n\n", r->plan.flops);
        fprintf(f, "Estimated step time (roofline kernels + alpha-beta ring collectives, no "
                   "overlap)\n");
        fprintf(f, "  %-12s %12s %14s %12s\n", "profile", "compute", "communication", "total");
        const ss_hw_profile *p;
        ss_step_estimate est;
        for (int k = 0; ss__scn_estimate_next(sc, r, &k, &p, &est);)
            fprintf(f, "  %-12s %10.4g ms %12.4g ms %10.4g ms\n", p->name, est.compute * 1e3,
                    est.comm * 1e3, est.total * 1e3);
        if (r->plan.transfers) /* the total includes the host link's time */
            fprintf(f, "  (total includes the transfers to and from host memory: Host "
                       "transfers above)\n");
        fprintf(f, "\n");
        if (!r->fits)
            fprintf(f, "DOES NOT FIT: %s per device needed, %s available\n",
                    (ss__fmt_bytes(a, sizeof a, (double)r->plan.peak_bytes), a), b);
        return;
    }
    fprintf(f, "Step time\n");
    if (r->steps > 1)
        fprintf(f, "  first step %.3f ms (incl. compile %.3f ms), then median %.3f ms over %d "
                   "steps\n\n", r->first_s * 1e3, r->compile_s * 1e3, r->median_s * 1e3,
                r->steps - 1);
    else
        fprintf(f, "  first step %.3f ms (incl. compile %.3f ms)\n\n", r->first_s * 1e3,
                r->compile_s * 1e3);
    if (sc->nchecks) {
        fprintf(f, "Checks against the single-device run (%d step%s)\n", r->steps,
                r->steps == 1 ? "" : "s");
        for (int k = 0; k < sc->nchecks; k++) {
            const ss__scn_check_result *c = &r->checks[k];
            char verdict[400];
            check_verdict(sc, k, c, verdict, sizeof verdict);
            fprintf(f, "  %-14s max abs err %-10.3g rel %-10.3g tol %-8.2g %s\n",
                    sc->checks[k].name, c->max_abs, c->ref_max > 0 ? c->max_abs / c->ref_max : 0,
                    c->tol, verdict);
        }
        if (generated_inputs_failed(sc))
            fprintf(f, "  (on generated arguments, normal(0, 1) for floats: where a program "
                       "saturates (tanh, exp)\n   the sharded run's other summation order "
                       "can differ by more; check on real ones with --inputs DIR)\n");
        fprintf(f, "\n");
    }
}

ss_status ss__scn_report_print(const ss_scenario *sc, const ss__scn_report *r, FILE *f)
{
    ss_status st = SS_OK;
    if (!r->json) {
        text_report(sc, r, f, &st);
        return st;
    }
    ss__buf b;
    ss__buf_init(&b);
    ss__scn_report_json(sc, r, &b, &st);
    if (!st && b.oom)
        st = ss__fail(SS_ERR_NOMEM, "report: out of host memory");
    if (!st)
        fputs(b.data, f);
    ss__buf_free(&b);
    return st;
}
