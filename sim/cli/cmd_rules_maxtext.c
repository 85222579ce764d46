/*
 * cmd_rules_maxtext.c — `shardsim rules --maxtext CONFIG.yml`: a MaxText
 * configuration's mesh, data sharding, and how every logical name of its
 * rules resolves on that mesh, with the rules that can never apply; with
 * --names, one array's spec and why each dimension got what it got.
 */
#include "cli.h"

#include "base/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct mt_view {
    const ss_maxtext_config *cfg;
    const ss_rules *rules;
    const ss_mesh *mesh;
    const char *topology; /* as given, or NULL */
    ss_tpu_topology topo;
    int slices;
    int64_t ici[SS_MAX_AXES], dcn[SS_MAX_AXES];
} mt_view;

/* A rule as MaxText's YAML writes it: ['embed', ['fsdp', 'tensor']]. */
static void rule_repr(ss__buf *b, const ss_rule *r)
{
    ss__buf_putc(b, '[');
    ss__buf_py_repr(b, r->name);
    ss__buf_puts(b, ", ");
    if (r->kind == SS_RULE_NONE) {
        ss__buf_puts(b, "None");
    } else if (r->kind == SS_RULE_UNCONSTRAINED) {
        ss__buf_puts(b, "UNCONSTRAINED");
    } else {
        ss__buf_putc(b, '[');
        for (int k = 0; k < r->naxes; k++) {
            if (k)
                ss__buf_puts(b, ", ");
            ss__buf_py_repr(b, r->axes[k]);
        }
        ss__buf_putc(b, ']');
    }
    ss__buf_putc(b, ']');
}

static void rule_json(ss__buf *b, const ss_rule *r)
{
    ss__buf_putc(b, '[');
    ss__json_str(b, r->name);
    ss__buf_putc(b, ',');
    if (r->kind == SS_RULE_NONE || r->kind == SS_RULE_UNCONSTRAINED) {
        ss__buf_puts(b, r->kind == SS_RULE_NONE ? "null" : "\"UNCONSTRAINED\"");
    } else {
        ss__buf_putc(b, '[');
        for (int k = 0; k < r->naxes; k++) {
            if (k)
                ss__buf_putc(b, ',');
            ss__json_str(b, r->axes[k]);
        }
        ss__buf_putc(b, ']');
    }
    ss__buf_putc(b, ']');
}

/* Is `name` the first rule of its name (so it is listed once)? */
static bool first_of_name(const ss_rules *rules, int i)
{
    for (int j = 0; j < i; j++)
        if (strcmp(rules->rules[j].name, rules->rules[i].name) == 0)
            return false;
    return true;
}

/* Resolve `names` on the view's mesh with decisions; the message of a
 * failure goes to err. */
static ss_status resolve(const mt_view *v, const ss_spec *names, ss_spec *out,
                         ss_rules_decision dec[], char *err, size_t cap)
{
    ss_rules_options o = {.mesh = v->mesh, .strict = 0, .fallback = SS_FALLBACK_UNSHARDED,
                          .decisions = dec};
    ss_status st = ss_rules_resolve(v->rules, names, &o, out, NULL);
    if (st)
        snprintf(err, cap, "%s", ss_error_message());
    return st;
}

static void spec_repr(ss__buf *b, const ss_spec *s)
{
    char repr[4096];
    ss_spec_repr(s, repr, sizeof repr);
    ss__buf_puts(b, repr);
}

static void print_mesh(ss__buf *b, const mt_view *v, bool json)
{
    int n = ss_mesh_axis_count(v->mesh), nd = ss_mesh_device_count(v->mesh);
    if (json) {
        ss__json_key(b, "mesh");
        ss__buf_printf(b, "{\"devices\":%d,\"slices\":%d,", nd, v->slices);
        if (v->topology) {
            ss__json_key(b, "topology");
            ss__json_str(b, v->topology);
            ss__buf_putc(b, ',');
        }
        ss__buf_puts(b, "\"axes\":[");
        for (int i = 0; i < n; i++) {
            ss__buf_puts(b, i ? ",{" : "{");
            ss__json_key(b, "name");
            ss__json_str(b, ss_mesh_axis_name(v->mesh, i));
            ss__buf_printf(b, ",\"ici\":%lld,\"dcn\":%lld,\"size\":%lld}", (long long)v->ici[i],
                           (long long)v->dcn[i], (long long)ss_mesh_axis_size(v->mesh, i));
        }
        ss__buf_puts(b, "],\"device_ids\":[");
        for (int p = 0; p < nd; p++)
            ss__buf_printf(b, p ? ",%d" : "%d", ss_mesh_device_id(v->mesh, p));
        if (v->topology) {
            /* Each mesh position's chip (x, y, z) in its slice. */
            ss__buf_puts(b, "],\"device_coords\":[");
            for (int p = 0; p < nd; p++) {
                int c[3];
                ss_tpu_device_coords(&v->topo, ss_mesh_device_id(v->mesh, p), c);
                ss__buf_printf(b, "%s[%d,%d,%d]", p ? "," : "", c[0], c[1], c[2]);
            }
            if (v->topo.cores > 1) { /* and which of the chip's devices */
                ss__buf_puts(b, "],\"device_cores\":[");
                for (int p = 0; p < nd; p++)
                    ss__buf_printf(b, p ? ",%d" : "%d",
                                   ss_tpu_device_core(&v->topo, ss_mesh_device_id(v->mesh, p)));
            }
        }
        ss__buf_puts(b, "]}");
        return;
    }
    if (v->topology)
        ss__buf_printf(b, "mesh: %d devices in %d slice%s of TPU %s, in JAX's torus order "
                          "(size = ici x dcn)\n", nd, v->slices, v->slices == 1 ? "" : "s",
                       v->topology);
    else
        ss__buf_printf(b, "mesh: %d devices in %d slice%s (size = ici x dcn)\n", nd, v->slices,
                       v->slices == 1 ? "" : "s");
    ss__buf_printf(b, "  %-26s %5s %5s %5s\n", "axis", "ici", "dcn", "size");
    for (int i = 0; i < n; i++)
        ss__buf_printf(b, "  %-26s %5lld %5lld %5lld\n", ss_mesh_axis_name(v->mesh, i),
                       (long long)v->ici[i], (long long)v->dcn[i],
                       (long long)ss_mesh_axis_size(v->mesh, i));
}

static void print_data_sharding(ss__buf *b, const mt_view *v, bool json)
{
    ss_spec ds, out;
    char err[512];
    ss_maxtext_config_data_sharding(v->cfg, &ds);
    /* Size-1 axes dropped as MaxText's sharding of a batch does. */
    ss_rules none = {0, NULL};
    ss_rules_options o = {.mesh = v->mesh, .fallback = SS_FALLBACK_UNSHARDED};
    ss_status st = ss_rules_resolve(&none, &ds, &o, &out, NULL);
    if (st)
        snprintf(err, sizeof err, "%s", ss_error_message());
    if (json) {
        ss__buf_puts(b, ",");
        ss__json_key(b, "data_sharding");
        if (st)
            ss__json_str(b, err);
        else
            ss__json_spec(b, &out);
        return;
    }
    ss__buf_puts(b, "data_sharding: ");
    if (st)
        ss__buf_printf(b, "error: %s\n", err);
    else {
        spec_repr(b, &out);
        ss__buf_putc(b, '\n');
    }
}

/* Every logical name of the rules, resolved alone (a 1-D array). */
static void print_names(ss__buf *b, const mt_view *v, bool json)
{
    if (json) {
        ss__buf_puts(b, ",");
        ss__json_key(b, "names");
        ss__buf_putc(b, '[');
    } else {
        ss__buf_printf(b, "logical names (%d rules; each name alone, size-1 axes dropped):\n",
                       v->rules->count);
    }
    bool first = true;
    for (int i = 0; i < v->rules->count; i++) {
        if (!first_of_name(v->rules, i))
            continue;
        ss_spec names, out;
        ss_rules_decision dec[1];
        char err[512];
        memset(&names, 0, sizeof names);
        names.ndims = 1;
        names.dims[0].naxes = 1;
        names.dims[0].axes[0] = v->rules->rules[i].name;
        ss_status st = resolve(v, &names, &out, dec, err, sizeof err);
        if (json) {
            ss__buf_puts(b, first ? "{" : ",{");
            ss__json_key(b, "name");
            ss__json_str(b, names.dims[0].axes[0]);
            ss__buf_putc(b, ',');
            if (st) {
                ss__json_key(b, "error");
                ss__json_str(b, err);
            } else {
                ss__json_key(b, "spec");
                ss__json_spec(b, &out);
                ss__buf_printf(b, ",\"rule\":%d", dec[0].rule);
            }
            ss__buf_putc(b, '}');
        } else if (st) {
            ss__buf_printf(b, "  %-44s error: %s\n", names.dims[0].axes[0], err);
        } else {
            ss__buf *line = b;
            ss__buf_printf(line, "  %-44s ", names.dims[0].axes[0]);
            spec_repr(line, &out);
            if (dec[0].rule >= 0)
                ss__buf_printf(line, "   rule %d", dec[0].rule);
            ss__buf_putc(line, '\n');
        }
        first = false;
    }
    if (json)
        ss__buf_putc(b, ']');
}

static void print_shadowed(ss__buf *b, const mt_view *v, bool json)
{
    int count = 0;
    for (int i = 0; i < v->rules->count; i++)
        count += ss_rules_shadowed_by(v->rules, i) >= 0;
    if (json) {
        ss__buf_puts(b, ",");
        ss__json_key(b, "shadowed");
        ss__buf_putc(b, '[');
    } else if (count) {
        ss__buf_printf(b, "rules that never apply (%d): an earlier rule of the same name "
                          "uses a subset of their axes\n", count);
    } else {
        ss__buf_puts(b, "rules that never apply: none\n");
    }
    bool first = true;
    for (int i = 0; i < v->rules->count; i++) {
        int by = ss_rules_shadowed_by(v->rules, i);
        if (by < 0)
            continue;
        if (json) {
            ss__buf_printf(b, "%s{\"rule\":%d,\"by\":%d}", first ? "" : ",", i, by);
        } else {
            ss__buf_printf(b, "  rule %d ", i);
            rule_repr(b, &v->rules->rules[i]);
            ss__buf_printf(b, " after rule %d ", by);
            rule_repr(b, &v->rules->rules[by]);
            ss__buf_putc(b, '\n');
        }
        first = false;
    }
    if (json)
        ss__buf_putc(b, ']');
}

/* One array: its spec and, per dimension, the rule that decided it and a
 * rule of its name that lost an axis to another dimension. */
static ss_status print_array(ss__buf *b, const mt_view *v, const ss_spec *names, bool json)
{
    ss_spec out;
    ss_rules_decision dec[SS_MAX_RANK];
    char err[512];
    ss_status st = resolve(v, names, &out, dec, err, sizeof err);
    if (st)
        return st;
    if (json) {
        ss__buf_puts(b, ",");
        ss__json_key(b, "spec");
        ss__json_spec(b, &out);
        ss__buf_puts(b, ",\"dims\":[");
        for (int d = 0; d < names->ndims; d++)
            ss__buf_printf(b, "%s{\"rule\":%d,\"lost_rule\":%d,\"lost_axis\":%d,\"lost_to\":%d}",
                           d ? "," : "", dec[d].rule, dec[d].lost_rule, dec[d].lost_axis,
                           dec[d].lost_to);
        ss__buf_putc(b, ']');
        return SS_OK;
    }
    char names_repr[4096];
    ss_spec_repr(names, names_repr, sizeof names_repr);
    ss__buf_printf(b, "%s -> ", names_repr);
    spec_repr(b, &out);
    ss__buf_putc(b, '\n');
    for (int d = 0; d < names->ndims; d++) {
        const ss_spec_dim *n = &names->dims[d];
        if (n->unconstrained || n->naxes != 1)
            continue;
        ss__buf_printf(b, "  dim %d %s: ", d, n->axes[0]);
        if (dec[d].rule >= 0)
            rule_repr(b, &v->rules->rules[dec[d].rule]);
        else
            ss__buf_puts(b, "no rule applies (None)");
        if (dec[d].lost_rule >= 0) {
            const ss_rule *lost = &v->rules->rules[dec[d].lost_rule];
            ss__buf_printf(b, "; rule %d ", dec[d].lost_rule);
            rule_repr(b, lost);
            ss__buf_puts(b, " was skipped: ");
            ss__buf_py_repr(b, lost->axes[dec[d].lost_axis]);
            ss__buf_printf(b, " was already taken by dim %d (%s)", dec[d].lost_to,
                           names->dims[dec[d].lost_to].naxes == 1
                               ? names->dims[dec[d].lost_to].axes[0] : "a fixed entry");
        }
        ss__buf_putc(b, '\n');
    }
    return SS_OK;
}

int ss__cli_rules_maxtext(const cli_rules_maxtext_args *a)
{
    ss_maxtext_config *cfg = NULL;
    ss_mesh *mesh = NULL;
    mt_view v;
    memset(&v, 0, sizeof v);
    ss_tpu_topology topo = {{0}, {0, 0, 0}, 0, 0};
    ss_status st = a->topology ? ss_tpu_topology_parse(a->topology, &topo) : SS_OK;
    if (!st)
        st = ss_maxtext_config_load(a->config, a->model, a->noverrides, a->overrides, &cfg);
    if (!st && a->topology)
        st = ss_maxtext_mesh_tpu(cfg, &topo, a->slices, &mesh, v.ici, v.dcn);
    else if (!st)
        st = ss_maxtext_mesh(cfg, a->devices, a->slices, &mesh, v.ici, v.dcn);
    ss_spec names;
    if (!st && a->names)
        st = ss_spec_parse(a->names, &names);
    if (st) {
        int rc = cli_fail("rules", a->json, ss_error_message());
        ss_maxtext_config_free(cfg);
        return rc;
    }
    v.cfg = cfg;
    v.rules = ss_maxtext_config_rules(cfg);
    v.mesh = mesh;
    v.topology = a->topology;
    v.topo = topo;
    v.slices = 1;
    for (int i = 0; i < ss_mesh_axis_count(mesh); i++)
        v.slices *= (int)v.dcn[i];
    ss__buf b;
    ss__buf_init(&b);
    if (a->json)
        ss__buf_putc(&b, '{');
    print_mesh(&b, &v, a->json);
    print_data_sharding(&b, &v, a->json);
    if (a->names) {
        st = print_array(&b, &v, &names, a->json);
    } else {
        print_names(&b, &v, a->json);
        print_shadowed(&b, &v, a->json);
        if (a->json) {
            ss__buf_puts(&b, ",\"rules\":[");
            for (int i = 0; i < v.rules->count; i++) {
                if (i)
                    ss__buf_putc(&b, ',');
                rule_json(&b, &v.rules->rules[i]);
            }
            ss__buf_putc(&b, ']');
        }
    }
    int rc = SS_EXIT_OK;
    if (st) {
        rc = cli_fail("rules", a->json, ss_error_message());
    } else {
        if (a->json)
            ss__buf_puts(&b, "}\n");
        fputs(b.data ? b.data : "", stdout);
    }
    ss__buf_free(&b);
    ss_mesh_destroy(mesh);
    ss_maxtext_config_free(cfg);
    return rc;
}
