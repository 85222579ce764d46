/*
 * cmd_show.c — `shardsim show`: where every shard of one array lives.
 *
 * Prints the mesh, JAX's visualize_array_sharding picture, the HLO sharding
 * string and a per-device table (text), or one JSON object (--json). It
 * computes everything from the sharding model; no device memory is touched.
 */
#include "cli.h"

#include "base/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char show_help[] =
    "usage: shardsim show --mesh AXES --shape DIMS [options]\n"
    "\n"
    "Show where each device's shard of an array lives, as JAX would place it.\n"
    "\n"
    "  --mesh AXES         named mesh axes, e.g. data=2,model=4 (one size may be -1)\n"
    "  --shape DIMS        global array shape, e.g. 8,1024 (empty for a scalar)\n"
    "  --spec SPEC         PartitionSpec: 'data,None', '(data,model),None' or\n"
    "                      \"P('data', None)\" (default P(): replicated)\n"
    "  --hlo TEXT          instead of --spec: an HLO sharding string such as\n"
    "                      '{devices=[2,1,4]<=[8] last_tile_dim_replicate}', turned\n"
    "                      back into the spec over --mesh that produces it\n"
    "  --dtype T           f32 (default), bf16, f16, i32, f64, i64, i8, u8, bool\n"
    "  --devices N         virtual devices available (default 8, like\n"
    "                      --xla_force_host_platform_device_count=8); the mesh takes\n"
    "                      the first product(sizes) of them, as jax.make_mesh\n"
    "  --device-ids IDS    device id at each mesh position, e.g. 0,1,2,3,6,7,4,5\n"
    "  --platform P        label prefix in the picture: CPU (default), TPU, GPU\n"
    "  --scale S           picture scale (default 1.0)\n"
    "  --dims R,C          for rank >= 3: the two dims drawn (default the last two)\n"
    "  --rules RULES       logical axis rules, e.g. 'batch=data,hidden=model'; the\n"
    "                      spec may then use logical names (Flax semantics, then\n"
    "                      size-1 mesh axes dropped as MaxText does; an absent\n"
    "                      one is an error)\n"
    "  --strict            with --rules: a rule that lost its mesh axis is an error\n"
    "  --json              one JSON object instead of text (errors: {\"error\": ...})\n"
    "  --no-color          no colour even on a terminal (NO_COLOR is honoured too)\n"
    "\n"
    "Exit status: 0 ok, 2 bad input (one line saying what is wrong).\n";

typedef struct show_opts {
    const char *mesh, *shape, *spec, *hlo, *dtype, *platform, *rules, *ids, *dims;
    int devices;
    double scale;
    bool json, no_color, strict;
} show_opts;

static ss_status parse_show_args(int argc, char **argv, show_opts *o, bool *help)
{
    cli_args a;
    memset(o, 0, sizeof *o);
    o->spec = "";
    o->dtype = "f32";
    o->platform = "CPU";
    o->devices = 8;
    o->scale = 1.0;
    *help = false;
    cli_args_init(&a, argc, argv, 2);
    while (cli_args_next(&a)) {
        const char **slot = NULL;
        if (cli_is(&a, "--help") || cli_is(&a, "-h")) {
            *help = true;
            return SS_OK;
        } else if (cli_is(&a, "--json")) {
            o->json = true;
            continue;
        } else if (cli_is(&a, "--no-color")) {
            o->no_color = true;
            continue;
        } else if (cli_is(&a, "--strict")) {
            o->strict = true;
            continue;
        } else if (cli_is(&a, "--mesh")) {
            slot = &o->mesh;
        } else if (cli_is(&a, "--shape")) {
            slot = &o->shape;
        } else if (cli_is(&a, "--spec")) {
            slot = &o->spec;
        } else if (cli_is(&a, "--hlo")) {
            slot = &o->hlo;
        } else if (cli_is(&a, "--dtype")) {
            slot = &o->dtype;
        } else if (cli_is(&a, "--platform")) {
            slot = &o->platform;
        } else if (cli_is(&a, "--rules")) {
            slot = &o->rules;
        } else if (cli_is(&a, "--device-ids")) {
            slot = &o->ids;
        } else if (cli_is(&a, "--dims")) {
            slot = &o->dims;
        } else if (cli_is(&a, "--devices") || cli_is(&a, "--scale")) {
            bool devices = cli_is(&a, "--devices");
            const char *v = cli_value(&a);
            if (!v)
                return SS_ERR_PARSE;
            char *end;
            double x = strtod(v, &end);
            if (end == v || *end || x <= 0 || (devices && (x != (int)x || x > SS_MAX_DEVICES)))
                return ss__fail(SS_ERR_PARSE, "%s '%s': expected a positive %s", a.name, v,
                                devices ? "integer up to 4096" : "number");
            if (devices)
                o->devices = (int)x;
            else
                o->scale = x;
            continue;
        } else {
            return ss__fail(SS_ERR_PARSE, "unknown option '%s' (see shardsim show --help)",
                            a.name);
        }
        if (!(*slot = cli_value(&a)))
            return SS_ERR_PARSE;
    }
    if (!o->mesh)
        return ss__fail(SS_ERR_PARSE, "--mesh is required, e.g. --mesh data=2,model=4");
    if (!o->shape)
        return ss__fail(SS_ERR_PARSE, "--shape is required, e.g. --shape 8,1024");
    if (o->hlo && (o->spec[0] || o->rules))
        return ss__fail(SS_ERR_PARSE, "--hlo replaces --spec and --rules; give one of them");
    return SS_OK;
}

/* Everything `show` computes, for either output form. */
typedef struct show_result {
    ss_mesh *mesh;
    ss_sharding sh;
    ss_dtype dtype;
    int rank;
    int64_t shape[SS_MAX_RANK];
    int64_t shard_shape[SS_MAX_RANK];
    ss_shard *shards;
    char hlo[4096];
    ss__buf picture;
} show_result;

static ss_status build_mesh(const show_opts *o, ss_mesh **mesh)
{
    int ids[SS_MAX_DEVICES];
    int nids = 0;
    if (o->ids) {
        int64_t tmp[SS_MAX_DEVICES];
        ss_status st = cli_parse_ints(o->ids, "--device-ids", tmp, SS_MAX_DEVICES, &nids);
        if (st)
            return st;
        for (int i = 0; i < nids; i++)
            ids[i] = (int)tmp[i];
    }
    /* Size the mesh first, so that a short --device-ids list is reported
     * instead of read past. */
    ss_status st = ss_mesh_make(o->mesh, o->devices, NULL, mesh);
    if (st || !o->ids)
        return st;
    int n = ss_mesh_device_count(*mesh);
    ss_mesh_destroy(*mesh);
    *mesh = NULL;
    if (nids != n)
        return ss__fail(SS_ERR_MESH, "--device-ids lists %d ids but the mesh has %d positions",
                        nids, n);
    return ss_mesh_make(o->mesh, o->devices, ids, mesh);
}

/* The sharding an HLO string denotes over `mesh` for an array of `rank` dims. */
static ss_status sharding_from_hlo(const char *text, const ss_mesh *mesh, int rank,
                                   ss_sharding *sh)
{
    ss_hlo hlo;
    ss_status st = ss_hlo_parse(text, &hlo);
    if (st)
        return st;
    st = ss_hlo_to_sharding(&hlo, mesh, rank, sh);
    ss_hlo_free(&hlo);
    return st;
}

static ss_status resolve_spec(const show_opts *o, const ss_mesh *mesh, ss_spec *spec)
{
    ss_status st = ss_spec_parse(o->spec, spec);
    if (st || !o->rules)
        return st;
    ss_rules rules;
    st = ss_rules_parse(o->rules, &rules);
    if (st)
        return st;
    ss_rules_options ro = {.mesh = mesh, .strict = o->strict, .fallback = SS_FALLBACK_UNSHARDED};
    ss_spec names = *spec;
    st = ss_rules_resolve(&rules, &names, &ro, spec, NULL);
    ss_rules_free(&rules);
    return st;
}

static ss_status compute(const show_opts *o, show_result *r)
{
    ss_spec spec;
    ss_status st = ss_dtype_parse(o->dtype, &r->dtype);
    if (st)
        return st;
    if ((st = cli_parse_ints(o->shape, "--shape", r->shape, SS_MAX_RANK, &r->rank)))
        return st;
    if ((st = build_mesh(o, &r->mesh)))
        return st;
    if (o->hlo) {
        if ((st = sharding_from_hlo(o->hlo, r->mesh, r->rank, &r->sh)))
            return st;
    } else {
        if ((st = resolve_spec(o, r->mesh, &spec)))
            return st;
        ss_sharding_init(&r->sh, r->mesh, &spec);
    }
    if ((st = ss_sharding_check(&r->sh, r->rank, r->shape)))
        return st;
    ss_sharding_shard_shape(&r->sh, r->rank, r->shape, r->shard_shape);
    int n = ss_mesh_device_count(r->mesh);
    r->shards = calloc((size_t)n, sizeof *r->shards);
    if (!r->shards)
        return ss__fail(SS_ERR_NOMEM, "out of host memory");
    if ((st = ss_sharding_shards(&r->sh, r->rank, r->shape, r->dtype, r->shards, n)))
        return st;
    if ((st = ss_sharding_to_hlo(&r->sh, r->rank, r->hlo, sizeof r->hlo)))
        return st;

    ss_viz_options vo = {.platform = o->platform, .scale = o->scale,
                         .color = !o->json && !o->no_color && cli_use_color()};
    if (r->rank == 0) {
        ss__buf_puts(&r->picture, "(a scalar: every device holds the whole value)\n");
        return SS_OK;
    }
    int rd = -1, cd = -1;
    if (o->dims) {
        int64_t d[2];
        int nd;
        if ((st = cli_parse_ints(o->dims, "--dims", d, 2, &nd)))
            return st;
        if (nd != 2 || d[0] < 0 || d[0] >= r->rank || d[1] < 0 || d[1] >= r->rank || d[0] == d[1])
            return ss__fail(SS_ERR_PARSE, "--dims '%s': expected two different dims in 0..%d",
                            o->dims, r->rank - 1);
        rd = (int)d[0];
        cd = (int)d[1];
    }
    size_t cap = 1 << 16;
    for (;;) {
        char *pic = malloc(cap);
        if (!pic)
            return ss__fail(SS_ERR_NOMEM, "out of host memory");
        st = ss_viz_sharding_nd(&r->sh, r->rank, r->shape, rd, cd, &vo, pic, cap, NULL);
        if (st == SS_OK)
            ss__buf_puts(&r->picture, pic);
        free(pic);
        if (st != SS_ERR_RANGE || cap >= ((size_t)1 << 28))
            return st;
        cap *= 4;
    }
}

static void fmt_index(ss__buf *b, const show_result *r, const ss_shard *s)
{
    ss__buf_putc(b, '[');
    for (int d = 0; d < r->rank; d++)
        ss__buf_printf(b, d ? ", %lld:%lld" : "%lld:%lld", (long long)s->start[d],
                       (long long)s->stop[d]);
    ss__buf_putc(b, ']');
}

/* True when some device's id is missing from the picture's labels, which
 * happens when the table is wider than 80 columns and rich squeezes it. */
static bool picture_lost_labels(const show_result *r)
{
    const char *pic = r->picture.data ? r->picture.data : "";
    int n = ss_mesh_device_count(r->mesh);
    if (r->rank == 0 || strstr(pic, "\xe2\x80\xa6")) /* U+2026, rich's ellipsis */
        return r->rank != 0;
    for (int p = 0; p < n; p++) {
        char id[16];
        snprintf(id, sizeof id, "%d", ss_mesh_device_id(r->mesh, p));
        bool found = false;
        for (const char *q = strstr(pic, id); q && !found; q = strstr(q + 1, id)) {
            char before = q > pic ? q[-1] : ' ';
            char after = q[strlen(id)];
            found = (before == ' ' || before == ',') &&
                    !(after >= '0' && after <= '9');
        }
        if (!found)
            return true;
    }
    return false;
}

static void print_text(const show_result *r)
{
    char buf[8192];
    ss_mesh_repr(r->mesh, 0, buf, sizeof buf);
    printf("%s over devices", buf);
    int n = ss_mesh_device_count(r->mesh);
    for (int p = 0; p < n && p < 64; p++)
        printf("%s%d", p ? "," : " ", ss_mesh_device_id(r->mesh, p));
    printf("%s\n", n > 64 ? ",..." : "");
    ss_spec_repr(&r->sh.spec, buf, sizeof buf);
    char shape[SS__SHAPE_TEXT_MAX];
    printf("%s sharded %s\n\n", ss__shape_text(shape, sizeof shape, r->dtype, r->rank, r->shape),
           buf);
    fputs(r->picture.data ? r->picture.data : "", stdout);
    if (picture_lost_labels(r))
        printf("(JAX's picture is wider than 80 columns here and rich squeezes it, losing labels;"
               "\n --scale 0.1 draws it smaller, and the table below lists every device)\n");
    printf("\nHLO sharding: %s\n", r->hlo);

    int ngroups = 0;
    int *ids = malloc(sizeof(int) * (size_t)n), *off = malloc(sizeof(int) * (size_t)(n + 1));
    if (ids && off)
        ss_sharding_replica_groups(&r->sh, &ngroups, ids, off);
    free(ids);
    free(off);
    char per[64], total[64];
    ss__fmt_bytes(per, sizeof per, (double)r->shards[0].bytes);
    ss__fmt_bytes(total, sizeof total, (double)r->shards[0].bytes * n);
    printf("shard shape (");
    for (int d = 0; d < r->rank; d++)
        printf(d ? ", %lld" : "%lld", (long long)r->shard_shape[d]);
    printf(r->rank == 1 ? ",)" : ")");
    printf(", %s per device; %d distinct shard%s, %d cop%s each; %s on all devices\n\n", per,
           ngroups, ngroups == 1 ? "" : "s", n / (ngroups ? ngroups : 1),
           n / (ngroups ? ngroups : 1) == 1 ? "y" : "ies", total);

    /* Per-device table: device, mesh coordinates, index, replica, bytes. */
    ss__buf coords, idx;
    ss__buf_init(&coords);
    ss__buf_init(&idx);
    ss__buf_puts(&coords, "mesh (");
    for (int a = 0; a < ss_mesh_axis_count(r->mesh); a++)
        ss__buf_printf(&coords, a ? ", %s" : "%s", ss_mesh_axis_name(r->mesh, a));
    ss__buf_putc(&coords, ')');
    int cw = (int)coords.len, iw = 5;
    for (int p = 0; p < n; p++) {
        ss__buf_clear(&idx);
        fmt_index(&idx, r, &r->shards[p]);
        if ((int)idx.len > iw)
            iw = (int)idx.len;
    }
    printf("%6s  %-*s  %-*s  %7s  %10s\n", "device", cw, coords.data, iw, "index", "replica",
           "bytes");
    for (int p = 0; p < n; p++) {
        const ss_shard *s = &r->shards[p];
        int64_t c[SS_MAX_AXES];
        ss_mesh_coords(r->mesh, p, c);
        ss__buf_clear(&coords);
        ss__buf_int_tuple(&coords, ss_mesh_axis_count(r->mesh), c);
        ss__buf_clear(&idx);
        fmt_index(&idx, r, s);
        ss__fmt_bytes(per, sizeof per, (double)s->bytes);
        printf("%6d  %-*s  %-*s  %7d  %10s\n", s->device, cw, coords.data ? coords.data : "", iw,
               idx.data ? idx.data : "", s->replica_id, per);
    }
    ss__buf_free(&coords);
    ss__buf_free(&idx);
}

static void print_json(const show_result *r)
{
    ss__buf b;
    ss__buf_init(&b);
    int naxes = ss_mesh_axis_count(r->mesh), n = ss_mesh_device_count(r->mesh);
    int64_t sizes[SS_MAX_AXES];
    ss__buf_puts(&b, "{\"mesh\":{\"axes\":[");
    for (int a = 0; a < naxes; a++) {
        if (a)
            ss__buf_putc(&b, ',');
        ss__json_str(&b, ss_mesh_axis_name(r->mesh, a));
        sizes[a] = ss_mesh_axis_size(r->mesh, a);
    }
    ss__buf_puts(&b, "],");
    ss__json_key(&b, "sizes");
    ss__json_int_array(&b, naxes, sizes);
    ss__buf_puts(&b, ",\"device_ids\":[");
    for (int p = 0; p < n; p++)
        ss__buf_printf(&b, p ? ",%d" : "%d", ss_mesh_device_id(r->mesh, p));
    ss__buf_puts(&b, "]},");
    ss__json_key(&b, "shape");
    ss__json_int_array(&b, r->rank, r->shape);
    ss__buf_putc(&b, ',');
    ss__json_key(&b, "dtype");
    ss__json_str(&b, ss_dtype_name(r->dtype));
    ss__buf_putc(&b, ',');
    ss__json_key(&b, "spec");
    ss__json_spec(&b, &r->sh.spec);
    ss__buf_putc(&b, ',');
    ss__json_key(&b, "hlo_sharding");
    ss__json_str(&b, r->hlo);
    ss__buf_putc(&b, ',');
    ss__json_key(&b, "shard_shape");
    ss__json_int_array(&b, r->rank, r->shard_shape);
    ss__buf_putc(&b, ',');
    ss__json_key(&b, "picture");
    ss__json_str(&b, r->picture.data ? r->picture.data : "");
    ss__buf_puts(&b, ",\"shards\":[");
    for (int p = 0; p < n; p++) {
        const ss_shard *s = &r->shards[p];
        ss__buf_printf(&b, "%s{\"device\":%d,\"index\":[", p ? "," : "", s->device);
        for (int d = 0; d < r->rank; d++)
            ss__buf_printf(&b, d ? ",[%lld,%lld]" : "[%lld,%lld]", (long long)s->start[d],
                           (long long)s->stop[d]);
        ss__buf_printf(&b, "],\"replica_id\":%d,\"bytes\":%zu}", s->replica_id, s->bytes);
    }
    ss__buf_puts(&b, "]}\n");
    fputs(b.oom ? "{\"error\":\"out of host memory\"}\n" : b.data, stdout);
    ss__buf_free(&b);
}

int cli_cmd_show(int argc, char **argv)
{
    show_opts o;
    bool help;
    bool json = false;
    for (int i = 2; i < argc; i++)
        json = json || strcmp(argv[i], "--json") == 0;
    if (parse_show_args(argc, argv, &o, &help))
        return cli_fail("show", json, ss_error_message());
    if (help) {
        fputs(show_help, stdout);
        return SS_EXIT_OK;
    }
    show_result r;
    memset(&r, 0, sizeof r);
    ss__buf_init(&r.picture);
    int rc = SS_EXIT_OK;
    if (compute(&o, &r) != SS_OK)
        rc = cli_fail("show", o.json, ss_error_message());
    else if (o.json)
        print_json(&r);
    else
        print_text(&r);
    ss__buf_free(&r.picture);
    free(r.shards);
    ss_mesh_destroy(r.mesh);
    return rc;
}
