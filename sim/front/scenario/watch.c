/*
 * watch.c — `shardsim run --watch NAME`: the teaching view of shard_map.
 * During the first step, every collective that reads or writes a value
 * named NAME (a psum of x, the ppermute that produces `state`, the
 * all-reduce the partitioner adds for y's partial sums) is caught on every
 * device right before and right after it runs, and the report shows each
 * device's block on both sides.
 *
 * The runtime calls back from the device threads (ss_executable_watch);
 * each device writes only its own slots, so no lock is needed. Blocks keep
 * their first SHOWN values; the report says how many there were.
 */
#include "watch.h"

#include "base/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SHOWN = 8 };

typedef struct slot {
    bool set;
    int64_t n; /* elements in the block */
    double v[SHOWN];
} slot;

struct ss__scn_watch {
    const ss_scenario *sc;
    const char *name;
    int ncoll, ndev;
    slot *slots; /* [collective][mesh position][before, after] */
    bool *hit;   /* per collective: touches the name */
    ss_dtype *dtype;
    int *rank;
    int64_t (*shape)[SS_MAX_RANK];
    ss_value *operand; /* per collective: the value it reads */
};

/* The before/after pair of collective i on the device at mesh position p. */
static slot *slots_of(const ss__scn_watch *w, int i, int p)
{
    return &w->slots[((size_t)i * (size_t)w->ndev + (size_t)p) * 2];
}

/* The file's name of v, NULL if it has none. */
static const char *name_of(const ss_scenario *sc, ss_value v)
{
    const char *n = ss_scenario_value_name(sc, v, NULL, NULL);
    return n[0] ? n : NULL;
}

static bool named(const ss__scn_watch *w, ss_value v)
{
    const char *n = name_of(w->sc, v);
    return n && strcmp(n, w->name) == 0;
}

static void on_event(const ss_watch_event *ev, void *user)
{
    ss__scn_watch *w = user;
    if (ev->index >= w->ncoll || !(named(w, ev->value) || named(w, ev->operand)))
        return;
    int pos = ss_mesh_position_of(ss_scenario_mesh(w->sc), ev->device);
    if (pos < 0)
        return;
    slot *s = &slots_of(w, ev->index, pos)[ev->after ? 1 : 0];
    int64_t n = 1;
    for (int d = 0; d < ev->rank; d++)
        n *= ev->shape[d];
    s->n = n;
    for (int64_t k = 0; k < n && k < SHOWN; k++)
        s->v[k] = ss__elem_get(ev->dtype, ev->data, (size_t)k);
    s->set = true;
    if (pos == 0) { /* every device has the same block shape */
        w->hit[ev->index] = true;
        w->dtype[ev->index] = ev->dtype;
        w->rank[ev->index] = ev->rank;
        w->operand[ev->index] = ev->operand;
        memcpy(w->shape[ev->index], ev->shape, sizeof(int64_t) * (size_t)ev->rank);
    }
}

ss_status ss__scn_watch_start(const ss_scenario *sc, ss_executable *e, const char *name,
                          ss__scn_watch **out)
{
    ss__scn_watch *w = calloc(1, sizeof *w);
    if (!w)
        return ss__fail(SS_ERR_NOMEM, "out of host memory");
    w->sc = sc;
    w->name = name;
    w->ncoll = ss_executable_ledger_count(e);
    w->ndev = ss_mesh_device_count(ss_scenario_mesh(sc));
    size_t nc = (size_t)(w->ncoll ? w->ncoll : 1);
    w->slots = calloc(nc * (size_t)w->ndev * 2, sizeof *w->slots);
    w->hit = calloc(nc, sizeof *w->hit);
    w->dtype = calloc(nc, sizeof *w->dtype);
    w->rank = calloc(nc, sizeof *w->rank);
    w->shape = calloc(nc, sizeof *w->shape);
    w->operand = calloc(nc, sizeof *w->operand);
    if (!w->slots || !w->hit || !w->dtype || !w->rank || !w->shape || !w->operand) {
        ss__scn_watch_free(w);
        return ss__fail(SS_ERR_NOMEM, "out of host memory");
    }
    ss_executable_watch(e, on_event, w);
    *out = w;
    return SS_OK;
}

ss_watch_fn ss__scn_watch_callback(void) { return on_event; }

void ss__scn_watch_free(ss__scn_watch *w)
{
    if (!w)
        return;
    free(w->slots);
    free(w->hit);
    free(w->dtype);
    free(w->rank);
    free(w->shape);
    free(w->operand);
    free(w);
}

static void block_text(const slot *s, char *buf, size_t cap)
{
    size_t at = 0;
    at += (size_t)snprintf(buf + at, cap - at, "[");
    for (int64_t k = 0; k < s->n && k < SHOWN && at < cap; k++)
        at += (size_t)snprintf(buf + at, cap - at, "%s%.4g", k ? ", " : "", s->v[k]);
    if (at < cap)
        snprintf(buf + at, cap - at, s->n > SHOWN ? ", ... (%lld values)]" : "]",
                 (long long)s->n);
}

/* "#3 ppermute over ('pp',) (line 28): tanh(...) -> state, f32[8,64] per
 * device" for a collective written in a shard_map body; "#2 all_reduce sum
 * over ('model',) (line 14): a reshard of y, ..." for one the partitioner
 * added. */
static void collective_title(const ss__scn_watch *w, const ss_executable *e, int i, char *buf,
                             size_t cap)
{
    static const char *const ops[] = {"sum", "max", "min", "mean"};
    ss_ledger_entry le;
    buf[0] = '\0';
    if (ss_executable_ledger_entry(e, i, &le) != SS_OK)
        return;
    const ss_coll_record rec = le.coll;
    ss_value v = le.value;
    bool user = le.user;
    bool reduces = rec.kind == SS_COLL_ALL_REDUCE || rec.kind == SS_COLL_REDUCE_SCATTER;
    int line = 0;
    const char *vn = ss_scenario_value_name(w->sc, v, &line, NULL);
    const char *on = name_of(w->sc, w->operand[i]);
    vn = vn[0] ? vn : NULL;
    char what[160], shape[64];
    if (user)
        snprintf(what, sizeof what, "%s -> %s", on ? on : "(unnamed)", vn ? vn : "(unnamed)");
    else
        snprintf(what, sizeof what, "a reshard of %s", vn ? vn : "(unnamed)");
    ss__shape_text(shape, sizeof shape, w->dtype[i], w->rank[i], w->shape[i]);
    char axes[96];
    ss_axes_repr(ss_scenario_mesh(w->sc), rec.naxes, rec.axes, axes, sizeof axes);
    snprintf(buf, cap, "#%d %s%s%s over %s (line %d): %s, %s per device", (int)rec.seq,
             ss_coll_kind_name(rec.kind), reduces ? " " : "",
             reduces && (unsigned)rec.op < 4 ? ops[rec.op] : "", axes,
             line, what, shape);
}

void ss__scn_watch_report_text(const ss__scn_watch *w, const ss_executable *e, FILE *f)
{
    if (!w)
        return;
    int shown = 0;
    for (int i = 0; i < w->ncoll; i++)
        shown += w->hit[i];
    fprintf(f, "Watch %s: each device's block before and after the collectives that read or "
               "write it (first step)\n", w->name);
    if (!shown) {
        fprintf(f, "  no collective reads or writes %s\n\n", w->name);
        return;
    }
    for (int i = 0; i < w->ncoll; i++) {
        if (!w->hit[i])
            continue;
        char title[512];
        collective_title(w, e, i, title, sizeof title);
        fprintf(f, "  %s\n", title);
        for (int p = 0; p < w->ndev; p++) {
            const slot *s = slots_of(w, i, p);
            char before[256], after[256];
            block_text(&s[0], before, sizeof before);
            block_text(&s[1], after, sizeof after);
            fprintf(f, "    device %-3d %-40s -> %s\n", ss_mesh_device_id(ss_scenario_mesh(w->sc), p),
                    before, after);
        }
    }
    fprintf(f, "\n");
}

static void json_block(ss__buf *b, const slot *s)
{
    ss__buf_putc(b, '[');
    for (int64_t k = 0; k < s->n && k < SHOWN; k++)
        ss__buf_printf(b, k ? ",%.9g" : "%.9g", s->v[k]);
    ss__buf_putc(b, ']');
}

void ss__scn_watch_report_json(const ss__scn_watch *w, ss__buf *b)
{
    if (!w)
        return;
    ss__buf_puts(b, ",\"watch\":{\"name\":");
    ss__json_str(b, w->name);
    ss__buf_puts(b, ",\"collectives\":[");
    bool first = true;
    for (int i = 0; i < w->ncoll; i++) {
        if (!w->hit[i])
            continue;
        ss__buf_printf(b, "%s{\"ledger_index\":%d,\"block_shape\":[", first ? "" : ",", i);
        first = false;
        for (int d = 0; d < w->rank[i]; d++)
            ss__buf_printf(b, d ? ",%lld" : "%lld", (long long)w->shape[i][d]);
        ss__buf_puts(b, "],\"devices\":[");
        for (int p = 0; p < w->ndev; p++) {
            const slot *s = slots_of(w, i, p);
            ss__buf_printf(b, "%s{\"device\":%d,\"elements\":%lld,\"before\":", p ? "," : "",
                           ss_mesh_device_id(ss_scenario_mesh(w->sc), p), (long long)s[0].n);
            json_block(b, &s[0]);
            ss__buf_puts(b, ",\"after\":");
            json_block(b, &s[1]);
            ss__buf_putc(b, '}');
        }
        ss__buf_puts(b, "]}");
    }
    ss__buf_puts(b, "]}");
}
