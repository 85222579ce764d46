/*
 * report_html.c — `shardsim run|plan FILE --html report.html`: one
 * self-contained page. The page is the template of html/ (report.html with
 * its .css and .js inlined, embedded into the binary at build time by
 * html/embed.py) with one JSON object put in its data slot: the report that
 * --json prints, unchanged, under "report", and under "html" the records
 * the page draws that --json does not carry (html/README.md documents each
 * key). The page computes nothing the library knows: tiles, memory points,
 * timeline slices, explain lines and sharding origins all come from here.
 *
 * What it does not do: fetch anything (no server, no network), or draw
 * meshes of more than SS__HTML_MAX_DEVICES devices tile by tile (their
 * arrays are listed without tiles).
 */
#include "report.h"

#include "base/json.h"

#include <stdlib.h>
#include <string.h>

#define SS__HTML_MAX_DEVICES 256
#define SS__HTML_MAX_ARRAYS 400

/* The template (html_template.c, generated): the page with one marker,
 * SS__HTML_DATA_MARKER, where the JSON goes. */
extern const char ss__html_template[];
extern const size_t ss__html_template_len;
#define SS__HTML_DATA_MARKER "@SHARDSIM_DATA@"

static void num(ss__buf *b, double v)
{
    if (v == v && v - v == 0)
        ss__buf_printf(b, "%.17g", v);
    else
        ss__buf_puts(b, "null");
}

/* The host of each device id: ss_context_process_index for a run; a plan
 * has no context and uses the same documented rule (devices [h*N/H,
 * (h+1)*N/H) on host h). */
static int host_of(const ss_scenario *sc, const ss__scn_report *r, int id, int n)
{
    if (r->ctx)
        return ss_context_process_index(r->ctx, id);
    int h = sc->hosts > 1 ? sc->hosts : 1;
    return (int)((long long)id * h / n);
}

static void json_mesh_devices(ss__buf *b, const ss_scenario *sc, const ss__scn_report *r)
{
    int n = ss_mesh_device_count(sc->mesh), na = ss_mesh_axis_count(sc->mesh);
    ss__buf_puts(b, "\"mesh_devices\":[");
    for (int p = 0; p < n; p++) {
        int id = ss_mesh_device_id(sc->mesh, p);
        ss__buf_printf(b, "%s{\"position\":%d,\"device\":%d,\"host\":%d,\"coords\":[", p ? "," : "",
                       p, id, host_of(sc, r, id, n));
        /* row-major position -> coordinate per axis */
        int64_t rest = p, coords[SS_MAX_AXES];
        for (int a = na - 1; a >= 0; a--) {
            int64_t sz = ss_mesh_axis_size(sc->mesh, a);
            coords[a] = rest % sz;
            rest /= sz;
        }
        for (int a = 0; a < na; a++)
            ss__buf_printf(b, a ? ",%lld" : "%lld", (long long)coords[a]);
        ss__buf_puts(b, "]}");
    }
    ss__buf_putc(b, ']');
}

/* One array and each device's tile; false (nothing written) when its
 * sharding does not tile its shape. */
static bool json_array(ss__buf *b, const ss_scenario *sc, bool first, ss_value v,
                       const char *name, int line, ss_dtype dt, int rank, const int64_t shape[],
                       const ss_sharding *sh, ss_shard tiles[])
{
    int n = ss_mesh_device_count(sc->mesh);
    ss_sharding plain = *sh;
    plain.partial_mask = 0;
    if (ss_sharding_shards(&plain, rank, shape, dt, tiles, n) != SS_OK)
        return false;
    char spec[512];
    ss_spec_repr(&sh->spec, spec, sizeof spec);
    ss__buf_printf(b, "%s{\"value\":%d,\"name\":", first ? "" : ",", (int)v);
    ss__json_str(b, name);
    ss__buf_printf(b, ",\"line\":%d,\"dtype\":", line);
    ss__json_str(b, ss_dtype_name(dt));
    ss__buf_puts(b, ",\"shape\":");
    ss__json_int_array(b, rank, shape);
    ss__buf_puts(b, ",\"spec\":");
    ss__json_str(b, spec);
    ss__buf_puts(b, ",\"tiles\":[");
    for (int p = 0; p < n; p++) {
        ss__buf_printf(b, "%s{\"device\":%d,\"position\":%d,\"replica\":%d,\"bytes\":%zu,",
                       p ? "," : "", tiles[p].device, tiles[p].position, tiles[p].replica_id,
                       tiles[p].bytes);
        ss__buf_puts(b, "\"start\":");
        ss__json_int_array(b, rank, tiles[p].start);
        ss__buf_puts(b, ",\"stop\":");
        ss__json_int_array(b, rank, tiles[p].stop);
        ss__buf_putc(b, '}');
    }
    ss__buf_puts(b, "]}");
    return true;
}

/* Every named program value of rank >= 1 with each device's tile; for a
 * scenario with no run, every declared array of rank >= 1 (value -1) by
 * its declared spec. */
static ss_status json_arrays(ss__buf *b, const ss_scenario *sc, bool run)
{
    int n = ss_mesh_device_count(sc->mesh), count = 0;
    ss__buf_puts(b, ",\"arrays\":[");
    if (n > SS__HTML_MAX_DEVICES) {
        ss__buf_putc(b, ']');
        return SS_OK;
    }
    ss_shard *tiles = malloc(sizeof *tiles * (size_t)n);
    if (!tiles)
        return ss__fail(SS_ERR_NOMEM, "--html: out of host memory");
    for (ss_value v = 0; run && sc->program && v < ss_program_value_count(sc->program) &&
                         count < SS__HTML_MAX_ARRAYS;
         v++) {
        const char *name = ss__scn_value_name(sc, v);
        ss_dtype dt;
        int rank;
        int64_t shape[SS_MAX_RANK];
        ss_sharding sh;
        if (!name || ss_value_shape(sc->program, v, &dt, &rank, shape) || rank < 1 ||
            ss_value_sharding(sc->program, v, &sh))
            continue;
        count += json_array(b, sc, count == 0, v, name, ss__scn_value_loc(sc, v).line, dt, rank,
                            shape, &sh, tiles);
    }
    for (int k = 0; !run && k < sc->narrays && count < SS__HTML_MAX_ARRAYS; k++) {
        const ss__scn_array *a = &sc->arrays[k];
        ss_spec none;
        ss_sharding sh;
        memset(&none, 0, sizeof none);
        if (a->rank < 1 || a->hidden)
            continue;
        ss_sharding_init(&sh, sc->mesh, a->has_spec ? &a->spec : &none);
        count += json_array(b, sc, count == 0, -1, a->name, a->loc.line, a->dtype, a->rank,
                            a->shape, &sh, tiles);
    }
    free(tiles);
    ss__buf_putc(b, ']');
    return SS_OK;
}

/* The plan's memory replay: one point per instruction (the same on every
 * device). */
static ss_status json_memory_points(ss__buf *b, const ss__scn_report *r)
{
    int n = 0;
    ss__buf_puts(b, ",\"memory_points\":[");
    if (r->exe && ss_executable_memory_timeline(r->exe, NULL, 0, &n) == SS_OK && n > 0) {
        ss_memory_point *pts = malloc(sizeof *pts * (size_t)n);
        if (!pts)
            return ss__fail(SS_ERR_NOMEM, "--html: out of host memory");
        if (ss_executable_memory_timeline(r->exe, pts, n, &n) == SS_OK)
            for (int k = 0; k < n; k++)
                ss__buf_printf(b, "%s[%d,%d,\"%s\",%zu,%zu]", k ? "," : "", pts[k].step,
                               (int)pts[k].value, pts[k].what, pts[k].live_bytes,
                               pts[k].peak_bytes);
        free(pts);
    }
    ss__buf_putc(b, ']');
    return SS_OK;
}

/* The explain text as {"%N": line}: how each op was partitioned. */
static ss_status json_explain(ss__buf *b, const ss__scn_report *r)
{
    ss__buf_puts(b, ",\"explain\":{");
    if (!r->exe) {
        ss__buf_putc(b, '}');
        return SS_OK;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        return ss__fail(SS_ERR_NOMEM, "--html: out of host memory");
    ss_executable_explain(r->exe, m);
    if (fclose(m) != 0 || !text) {
        free(text);
        return ss__fail(SS_ERR_NOMEM, "--html: out of host memory");
    }
    int count = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (line[0] != '%')
            continue;
        ss__buf_printf(b, "%s\"%ld\":", count++ ? "," : "", strtol(line + 1, NULL, 10));
        ss__json_str(b, line);
    }
    free(text);
    ss__buf_putc(b, '}');
    return SS_OK;
}

/* How each value's sharding was decided (ss_value_sharding_origin). */
static void json_origins(ss__buf *b, const ss_scenario *sc)
{
    ss__buf_puts(b, ",\"origins\":[");
    for (ss_value v = 0; sc->program && v < ss_program_value_count(sc->program); v++) {
        ss_sharding_origin o;
        if (ss_value_sharding_origin(sc->program, v, &o) != SS_OK)
            o = (ss_sharding_origin){SS_ORIGIN_DEFAULT, -1, 0};
        ss__buf_printf(b, "%s[\"%s\",%d,%d]", v ? "," : "", ss_sharding_origin_name(o.kind),
                       (int)o.from, o.level);
    }
    ss__buf_putc(b, ']');
}

/* Timeline per device: a run's trace (its last step), or the plan's
 * estimate (every device runs the same list). Slices: [kind, start_us,
 * dur_us, name, seq]; kind "compute", "collective" (entry to exit) or
 * "wait" (inside a collective, until the group arrived). */
static ss_status json_timeline(ss__buf *b, const ss_scenario *sc, const ss__scn_report *r)
{
    int n = ss_mesh_device_count(sc->mesh);
    if (r->ctx && ss_context_trace_count(r->ctx, 0) > 0 && n <= SS__HTML_MAX_DEVICES) {
        ss__buf_puts(b, ",\"timeline\":{\"source\":\"trace\",\"devices\":[");
        for (int d = 0; d < n; d++) {
            int id = ss_mesh_device_id(sc->mesh, d), ne = ss_context_trace_count(r->ctx, id);
            ss_trace_event ev;
            double from = 0; /* the last run's start */
            for (int i = 0; i < ne; i++)
                if (ss_context_trace_get(r->ctx, id, i, &ev) == SS_OK && ev.kind == SS_TRACE_RUN &&
                    ev.start_us > from)
                    from = ev.start_us;
            ss__buf_printf(b, "%s{\"device\":%d,\"live\":[", d ? "," : "", id);
            int k = 0;
            for (int i = 0; i < ne; i++)
                if (ss_context_trace_get(r->ctx, id, i, &ev) == SS_OK && ev.start_us >= from &&
                    ev.kind == SS_TRACE_LIVE) {
                    ss__buf_puts(b, k++ ? ",[" : "[");
                    num(b, ev.start_us - from);
                    ss__buf_putc(b, ',');
                    num(b, ev.live);
                    ss__buf_putc(b, ']');
                }
            ss__buf_puts(b, "],\"slices\":[");
            k = 0;
            for (int i = 0; i < ne; i++) {
                if (ss_context_trace_get(r->ctx, id, i, &ev) != SS_OK || ev.start_us < from)
                    continue;
                const char *kind = ev.kind == SS_TRACE_KERNEL       ? "compute"
                                   : ev.kind == SS_TRACE_COLLECTIVE ? "collective"
                                   : ev.kind == SS_TRACE_WAIT       ? "wait"
                                                                    : NULL;
                if (!kind)
                    continue;
                ss__buf_printf(b, "%s[\"%s\",", k++ ? "," : "", kind);
                num(b, ev.start_us - from);
                ss__buf_putc(b, ',');
                num(b, ev.dur_us);
                ss__buf_putc(b, ',');
                ss__json_str(b, ev.name);
                ss__buf_printf(b, ",%lld]", (long long)ev.seq);
            }
            ss__buf_puts(b, "]}");
        }
        ss__buf_puts(b, "]}");
        return SS_OK;
    }
    ss__scn_slice *sl = NULL;
    int ns = 0;
    const char *profile = NULL;
    ss__buf_puts(b, ",\"timeline\":");
    if (!r->exe || ss__scn_plan_slices(sc, r, &sl, &ns, &profile) != SS_OK) {
        ss__buf_puts(b, "null");
        return SS_OK;
    }
    ss__buf_puts(b, "{\"source\":\"estimate\",\"profile\":");
    ss__json_str(b, profile);
    ss__buf_puts(b, ",\"devices\":[{\"device\":-1,\"slices\":[");
    for (int k = 0; k < ns; k++) {
        ss__buf_printf(b, "%s[\"%s\",", k ? "," : "", sl[k].ledger >= 0 ? "collective" : "compute");
        num(b, sl[k].start_s * 1e6);
        ss__buf_putc(b, ',');
        num(b, sl[k].dur_s * 1e6);
        ss__buf_putc(b, ',');
        ss__json_str(b, sl[k].name);
        ss__buf_printf(b, ",%d]", sl[k].ledger + 1);
    }
    ss__buf_puts(b, "]}]}");
    free(sl);
    return SS_OK;
}

/* Write `data` as it may sit inside <script type="application/json">: a
 * '<' (only ever inside a JSON string) as \u003c, so no "</script>" or
 * "<!--" in a name can end the element. */
static void put_json_for_script(FILE *f, const char *data)
{
    for (const char *p = data; *p; p++) {
        if (*p == '<')
            fputs("\\u003c", f);
        else
            fputc(*p, f);
    }
}

ss_status ss__scn_report_html(const ss_scenario *sc, const ss__scn_report *r, const char *path)
{
    ss_status st = SS_OK;
    ss__buf b;
    ss__buf_init(&b);
    ss__buf_puts(&b, "{\"report\":");
    ss__scn_report_json(sc, r, &b, &st);
    ss__buf_puts(&b, ",\"html\":{\"schema\":1,");
    json_mesh_devices(&b, sc, r);
    if (!st)
        st = json_arrays(&b, sc, r->exe != NULL);
    if (!st)
        st = json_memory_points(&b, r);
    if (!st)
        st = json_explain(&b, r);
    if (!st)
        json_origins(&b, sc);
    if (!st)
        st = json_timeline(&b, sc, r);
    ss__buf_puts(&b, "}}");
    if (!st && b.oom)
        st = ss__fail(SS_ERR_NOMEM, "--html: out of host memory");
    if (st) {
        ss__buf_free(&b);
        return st;
    }
    const char *marker = strstr(ss__html_template, SS__HTML_DATA_MARKER);
    FILE *f = fopen(path, "w");
    if (!f || !marker) {
        if (f)
            fclose(f);
        ss__buf_free(&b);
        return ss__fail(SS_ERR_IO, "--html: cannot write '%s'", path);
    }
    fwrite(ss__html_template, 1, (size_t)(marker - ss__html_template), f);
    put_json_for_script(f, b.data);
    fputs(marker + strlen(SS__HTML_DATA_MARKER), f);
    ss__buf_free(&b);
    if (ferror(f) | (fclose(f) != 0))
        return ss__fail(SS_ERR_IO, "--html: cannot write '%s'", path);
    return SS_OK;
}
