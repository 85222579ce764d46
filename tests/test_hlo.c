/* test_hlo.c — HLO sharding strings: every case of
 * conformance/hlo_sharding.json in both directions, parse/print round trips,
 * XLA's iota canonicalisation (tile_assignment_test cases), normalisation,
 * a property test of the tile assignment against ss_sharding_shards, and
 * parse and conversion errors. */
#include "support.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_CAP 65536

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */
/* ------------------------------------------------------------------------ */

/* A small deterministic generator for the sweeps. */
static unsigned rng_state = 12345u;

static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return (rng_state >> 16) % n;
}

/* Mesh, sharding (manual_axes become manual_mask bits) and rank of a case. */
static ss_mesh *case_sharding(const cJSON *c, ss_sharding *sh, int *rank)
{
    ss_mesh *m = ts_mesh_from_case(c);
    ss_spec spec;
    ts_spec_from_json(cJSON_GetObjectItem(c, "spec"), &spec);
    ss_sharding_init(sh, m, &spec);
    const cJSON *man = cJSON_GetObjectItem(c, "manual_axes"), *e;
    cJSON_ArrayForEach(e, man)
    {
        int a = ss_mesh_axis_index(m, e->valuestring);
        cr_assert_geq(a, 0, "manual axis %s not in mesh", e->valuestring);
        sh->manual_mask |= 1u << a;
    }
    *rank = cJSON_GetObjectItem(c, "rank")->valueint;
    return m;
}

static const char *expected_of(const cJSON *c)
{
    const cJSON *e = cJSON_GetObjectItem(c, "expected");
    return cJSON_IsString(e) ? e->valuestring : NULL;
}

static const char *name_of(const cJSON *c) { return cJSON_GetObjectItem(c, "name")->valuestring; }

static void to_hlo_ok(const ss_sharding *sh, int rank, char *buf)
{
    ss_status st = ss_sharding_to_hlo(sh, rank, buf, TEXT_CAP);
    cr_assert_eq(st, SS_OK, "to_hlo: %s", ss_error_message());
}

static void parse_ok(const char *text, ss_hlo *h)
{
    ss_status st = ss_hlo_parse(text, h);
    cr_assert_eq(st, SS_OK, "parse '%s': %s", text, ss_error_message());
}

static void print_ok(const ss_hlo *h, char *buf)
{
    ss_status st = ss_hlo_print(h, buf, TEXT_CAP);
    cr_assert_eq(st, SS_OK, "print: %s", ss_error_message());
}

/* parse(in) printed must be `out`. */
static void reprints_as(const char *in, const char *out)
{
    static char buf[TEXT_CAP];
    ss_hlo h;
    parse_ok(in, &h);
    print_ok(&h, buf);
    cr_assert_str_eq(buf, out, "'%s' printed as '%s', expected '%s'", in, buf, out);
    ss_hlo_free(&h);
}

/* The explicit ("V1") text of a parsed tiled sharding. */
static void explicit_text(const ss_hlo *h, char *buf, size_t cap)
{
    size_t n = (size_t)snprintf(buf, cap, "{devices=[");
    for (int i = 0; i < h->ndims; i++)
        n += (size_t)snprintf(buf + n, cap - n, i ? ",%lld" : "%lld", (long long)h->tile_dims[i]);
    n += (size_t)snprintf(buf + n, cap - n, "]");
    for (int i = 0; i < h->ndevices; i++)
        n += (size_t)snprintf(buf + n, cap - n, i ? ",%d" : "%d", h->devices[i]);
    if (h->nsub == 1 && h->sub[0] == SS_HLO_SUB_REPLICATED)
        n += (size_t)snprintf(buf + n, cap - n, " last_tile_dim_replicate");
    else if (h->nsub)
        n += (size_t)snprintf(buf + n, cap - n, " last_tile_dims={%s%s}",
                              h->sub[0] == SS_HLO_SUB_MANUAL ? "manual" : "replicated",
                              h->nsub == 2 ? ", replicated" : "");
    snprintf(buf + n, cap - n, "}");
}

/* ------------------------------------------------------------------------ */
/* Conformance vectors                                                       */
/* ------------------------------------------------------------------------ */

Test(hlo, header_example)
{
    ss_mesh *m;
    ss_spec spec;
    ss_sharding sh;
    char hlo[256];
    cr_assert_eq(ss_mesh_parse("data=2,model=4", 8, NULL, &m), SS_OK);
    cr_assert_eq(ss_spec_parse("P('data', None)", &spec), SS_OK);
    ss_sharding_init(&sh, m, &spec);
    cr_assert_eq(ss_sharding_to_hlo(&sh, 2, hlo, sizeof hlo), SS_OK, "%s", ss_error_message());
    cr_assert_str_eq(hlo, "{devices=[2,1,4]<=[8] last_tile_dim_replicate}");
    ss_mesh_destroy(m);
}

Test(hlo, conformance_to_hlo)
{
    static char buf[TEXT_CAP];
    cJSON *cases = ts_load_json("conformance/hlo_sharding.json");
    int n = 0, tile_only = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cases)
    {
        ss_sharding sh;
        int rank;
        ss_mesh *m = case_sharding(c, &sh, &rank);
        to_hlo_ok(&sh, rank, buf);
        const char *want = expected_of(c);
        if (want) {
            cr_assert_str_eq(buf, want, "%s: got '%s', expected '%s'", name_of(c), buf, want);
        } else {
            /* Only the tile assignment is asserted upstream. */
            int64_t dims[SS_MAX_RANK + 2], devs[SS_MAX_DEVICES];
            int nd = ts_ints(cJSON_GetObjectItem(c, "tile_dims"), dims, SS_MAX_RANK + 2);
            int nv = ts_ints(cJSON_GetObjectItem(c, "tile_devices"), devs, SS_MAX_DEVICES);
            ss_hlo h;
            parse_ok(buf, &h);
            cr_assert_eq(h.kind, SS_HLO_TILED, "%s", name_of(c));
            cr_assert_eq(h.ndims, nd, "%s: %d tile dims, expected %d", name_of(c), h.ndims, nd);
            for (int i = 0; i < nd; i++)
                cr_assert_eq(h.tile_dims[i], dims[i], "%s: tile dim %d", name_of(c), i);
            cr_assert_eq(h.ndevices, nv, "%s", name_of(c));
            for (int i = 0; i < nv; i++)
                cr_assert_eq(h.devices[i], devs[i], "%s: device %d is %d, expected %lld",
                             name_of(c), i, h.devices[i], (long long)devs[i]);
            ss_hlo_free(&h);
            tile_only++;
        }
        ss_mesh_destroy(m);
        n++;
    }
    cr_assert_eq(n, 45, "expected all 45 cases, saw %d", n);
    cr_assert_eq(tile_only, 1);
    cJSON_Delete(cases);
}

/* What ss_hlo_print makes of the four explicit-list vectors: the lists that
 * are transposed iotas print in iota form (our normalisation; XLA keeps a
 * parsed list as a list). */
static const char *const v1_reprints[][2] = {
    {"sdy_m4_devlist_a", "{devices=[2,4]<=[2,4]T(1,0)}"},
    {"sdy_m4_devlist_b", "{devices=[1,4,2]<=[2,2,2]T(2,1,0) last_tile_dim_replicate}"},
    {"sdy_m4_devlist_c", "{devices=[1,2,4]<=[8] last_tile_dim_replicate}"},
    {"sdy_m4_devlist_d", "{devices=[4,1,2]<=[2,2,2]T(0,2,1) last_tile_dim_replicate}"},
};

Test(hlo, conformance_parse_print_round_trip)
{
    cJSON *cases = ts_load_json("conformance/hlo_sharding.json");
    int n = 0, v1 = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cases)
    {
        const char *want = expected_of(c);
        if (!want)
            continue;
        const char *out = want;
        for (size_t i = 0; i < sizeof v1_reprints / sizeof v1_reprints[0]; i++)
            if (strcmp(name_of(c), v1_reprints[i][0]) == 0) {
                out = v1_reprints[i][1];
                v1++;
            }
        reprints_as(want, out);
        n++;
    }
    cr_assert_eq(n, 44);
    cr_assert_eq(v1, 4);
    cJSON_Delete(cases);
}

/* Does the mesh of case c have an axis of size 1? */
static bool has_size1_axis(const ss_mesh *m)
{
    for (int a = 0; a < ss_mesh_axis_count(m); a++)
        if (ss_mesh_axis_size(m, a) == 1)
            return true;
    return false;
}

Test(hlo, conformance_back_to_sharding)
{
    static char buf[TEXT_CAP], again[TEXT_CAP];
    cJSON *cases = ts_load_json("conformance/hlo_sharding.json");
    int n = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cases)
    {
        ss_sharding sh, back;
        int rank;
        ss_mesh *m = case_sharding(c, &sh, &rank);
        to_hlo_ok(&sh, rank, buf);
        const char *text = expected_of(c) ? expected_of(c) : buf;
        ss_hlo h;
        parse_ok(text, &h);
        ss_status st = ss_hlo_to_sharding(&h, m, rank, &back);
        cr_assert_eq(st, SS_OK, "%s: %s", name_of(c), ss_error_message());
        to_hlo_ok(&back, rank, again);
        cr_assert_str_eq(again, text, "%s: re-printed '%s', expected '%s'", name_of(c), again,
                         text);
        /* Without size-1 axes (which XLA drops) the spec itself comes back;
         * fully manual {manual} marks every axis Manual. */
        if (!has_size1_axis(m) && strcmp(text, "{manual}") != 0) {
            char r1[256], r2[256];
            ss_spec_repr(&back.spec, r1, sizeof r1);
            ss_spec_repr(&sh.spec, r2, sizeof r2);
            cr_assert(ss_spec_equal(&back.spec, &sh.spec), "%s: spec %s, expected %s",
                      name_of(c), r1, r2);
            cr_assert_eq(back.manual_mask, sh.manual_mask, "%s: manual mask 0x%x, expected 0x%x",
                         name_of(c), back.manual_mask, sh.manual_mask);
        }
        ss_hlo_free(&h);
        ss_mesh_destroy(m);
        n++;
    }
    cr_assert_eq(n, 45);
    cJSON_Delete(cases);
}

/* ------------------------------------------------------------------------ */
/* Canonical iota forms and normalisation                                    */
/* ------------------------------------------------------------------------ */

/* XLA tile_assignment_test / CanonicalizeIotaDims cases, each given as an
 * iota and as its expansion into an explicit list: both print the same. */
Test(hlo, xtat_canonicalisation)
{
    static const char *const cases[][2] = {
        {"{devices=[60]<=[3,4,5]T(2,0,1)}", "{devices=[60]<=[12,5]T(1,0)}"},
        {"{devices=[60]<=[1,3,1,4,1,5]T(4,3,2,5,1,0)}", "{devices=[60]<=[3,20]T(1,0)}"},
        {"{devices=[24]<=[2,3,4]T(0,1,2)}", "{devices=[24]<=[24]}"},
        {"{devices=[24]<=[2,3,4]T(1,0,2)}", "{devices=[24]<=[2,3,4]T(1,0,2)}"},
        {"{devices=[2,6]<=[3,4]T(0,1)}", "{devices=[2,6]<=[12]}"},
        {"{devices=[2,6]<=[12]}", "{devices=[2,6]<=[12]}"},
        {"{devices=[3,4,5]<=[3,4,5]T(2,0,1)}", "{devices=[3,4,5]<=[12,5]T(1,0)}"},
        {"{devices=[60]<=[3,4,5]}", "{devices=[60]<=[60]}"},
        {"{devices=[60]<=[3,4,5]T(2,1,0)}", "{devices=[60]<=[3,4,5]T(2,1,0)}"},
        {"{devices=[60]<=[3,4,5]T(1,2,0)}", "{devices=[60]<=[3,20]T(1,0)}"},
        {"{devices=[6,35]<=[7,10,3]T(2,1,0)}", "{devices=[6,35]<=[7,10,3]T(2,1,0)}"},
        {"{devices=[1]<=[1]}", "{devices=[1]<=[1]}"},
    };
    static char list[TEXT_CAP];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        reprints_as(cases[i][0], cases[i][1]);
        ss_hlo h;
        parse_ok(cases[i][0], &h);
        explicit_text(&h, list, sizeof list);
        ss_hlo_free(&h);
        reprints_as(list, cases[i][1]);
    }
}

/* Random transposed iotas: the iota text and its expansion into a list
 * print identically (canonicalisation and list recognition agree). */
Test(hlo, iota_and_list_print_alike)
{
    static const int64_t sizes[] = {1, 2, 3, 4, 5, 6, 8};
    static char text[256], list[TEXT_CAP], a[TEXT_CAP], b[TEXT_CAP];
    for (int round = 0; round < 2000; round++) {
        int n = 1 + (int)rnd(5), perm[5];
        int64_t dims[5], total = 1;
        for (int i = 0; i < n; i++) {
            dims[i] = sizes[rnd(sizeof sizes / sizeof sizes[0])];
            total *= dims[i];
            perm[i] = i;
        }
        if (total > 512)
            continue;
        for (int i = n - 1; i > 0; i--) {
            int j = (int)rnd((unsigned)i + 1), t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        size_t len = (size_t)snprintf(text, sizeof text, "{devices=[%lld]<=[", (long long)total);
        for (int i = 0; i < n; i++)
            len += (size_t)snprintf(text + len, sizeof text - len, i ? ",%lld" : "%lld",
                                    (long long)dims[i]);
        len += (size_t)snprintf(text + len, sizeof text - len, "]T(");
        for (int i = 0; i < n; i++)
            len += (size_t)snprintf(text + len, sizeof text - len, i ? ",%d" : "%d", perm[i]);
        snprintf(text + len, sizeof text - len, ")}");
        ss_hlo h;
        parse_ok(text, &h);
        print_ok(&h, a);
        explicit_text(&h, list, sizeof list);
        ss_hlo_free(&h);
        parse_ok(list, &h);
        print_ok(&h, b);
        ss_hlo_free(&h);
        cr_assert_str_eq(a, b, "%s printed as %s, its list as %s", text, a, b);
        cr_assert(strstr(a, "<="), "%s printed as a list: %s", text, a);
    }
}

Test(hlo, explicit_lists)
{
    /* X-tat: an explicit {{0,1},{2,3}} is iota; we print it so. */
    reprints_as("{devices=[2,2]0,1,2,3}", "{devices=[2,2]<=[4]}");
    /* array_test's OpSharding [4,1,2] over devices 0..7. */
    reprints_as("{devices=[4,1,2]0,1,2,3,4,5,6,7 last_tile_dim_replicate}",
                "{devices=[4,1,2]<=[8] last_tile_dim_replicate}");
    /* JAX array_test: P('y','x') on (4,2) has devices 0,2,4,6,1,3,5,7. */
    reprints_as("{devices=[2,4]0,2,4,6,1,3,5,7}", "{devices=[2,4]<=[4,2]T(1,0)}");
    /* Not transposed iotas: stay lists. */
    reprints_as("{devices=[8]0,1,2,3,6,7,4,5}", "{devices=[8]0,1,2,3,6,7,4,5}");
    reprints_as("{devices=[2,2]1,0,3,2}", "{devices=[2,2]1,0,3,2}");
    reprints_as("{devices=[3]0,2,1}", "{devices=[3]0,2,1}");
    reprints_as("{devices=[2]5,9}", "{devices=[2]5,9}");
}

Test(hlo, normalisation)
{
    reprints_as("{devices=[1,4]<=[4] last_tile_dim_replicate}", "{replicated}");
    reprints_as("{devices=[4]<=[4] last_tile_dim_replicate}", "{replicated}");
    reprints_as("{devices=[2,1]<=[2] last_tile_dim_replicate}", "{devices=[2]<=[2]}");
    reprints_as("{devices=[2,2]3,1,2,0 last_tile_dim_replicate}",
                "{devices=[2,2]1,3,0,2 last_tile_dim_replicate}");
    reprints_as("{devices=[2,2]<=[2,2]T(1,0) last_tile_dims={replicated}}",
                "{devices=[2,2]<=[2,2]T(1,0) last_tile_dim_replicate}");
    reprints_as("{devices=[1,4]<=[4] last_tile_dims={manual}}", "{manual}");
    reprints_as("{devices=[1,2,2]<=[4] last_tile_dims={manual, manual}}", "{manual}");
    reprints_as("{devices=[2,2,2]<=[8] last_tile_dims={replicated, manual}}",
                "{devices=[2,2,2]<=[2,2,2]T(0,2,1) last_tile_dims={manual, replicated}}");
    reprints_as("{devices=[2,1,2]<=[4] last_tile_dims={manual, replicated}}",
                "{devices=[2,2]<=[4] last_tile_dim_replicate}");
    reprints_as("{devices=[1,1,2,2]<=[4] last_tile_dims={manual, replicated}}",
                "{devices=[1,1,2,2]<=[4] last_tile_dims={manual, replicated}}");
    reprints_as("{devices=[1,2,2]<=[4] last_tile_dims={manual, replicated}}",
                "{devices=[1,2,2]<=[4] last_tile_dims={manual, replicated}}");
    reprints_as("{devices=[2,2,1]<=[4] last_tile_dims={manual}}", "{devices=[2,2]<=[4]}");
    reprints_as("{maximal device=3}", "{maximal device=3}");
    reprints_as("  { maximal  device = 12 }  ", "{maximal device=12}");
    reprints_as("{ devices = [2, 2] <= [2, 2] T(1, 0) }", "{devices=[2,2]<=[2,2]T(1,0)}");
    reprints_as("{ replicated }", "{replicated}");
    reprints_as("{manual}", "{manual}");
}

Test(hlo, parse_fields)
{
    ss_hlo h;
    parse_ok("{devices=[2,1,4]<=[2,4]T(1,0) last_tile_dim_replicate}", &h);
    cr_assert_eq(h.kind, SS_HLO_TILED);
    cr_assert_eq(h.ndims, 3);
    cr_assert_eq(h.nsub, 1);
    cr_assert_eq(h.sub[0], SS_HLO_SUB_REPLICATED);
    int want[8] = {0, 4, 1, 5, 2, 6, 3, 7};
    cr_assert_eq(h.ndevices, 8);
    cr_assert_arr_eq(h.devices, want, sizeof want);
    ss_hlo_free(&h);
    cr_assert_null(h.devices);
    parse_ok("{maximal device=7}", &h);
    cr_assert_eq(h.kind, SS_HLO_MAXIMAL);
    cr_assert_eq(h.maximal_device, 7);
    cr_assert_null(h.devices);
    ss_hlo_free(&h);
    parse_ok("{devices=[1,2,2]<=[4] last_tile_dims={manual, replicated}}", &h);
    cr_assert_eq(h.nsub, 2);
    cr_assert_eq(h.sub[0], SS_HLO_SUB_MANUAL);
    cr_assert_eq(h.sub[1], SS_HLO_SUB_REPLICATED);
    ss_hlo_free(&h);
}

/* ------------------------------------------------------------------------ */
/* Property test: the tile assignment places every shard where               */
/* ss_sharding_shards says (J-ops: walk tiles row-major; each tile's next     */
/* num_replicas devices hold it).                                             */
/* ------------------------------------------------------------------------ */

/* A random spec over m for `rank` dims: each axis goes to a random dim or
 * nowhere, in random order (so tuples come in every order); with `manual`
 * some unused axes become Manual. */
static void random_sharding(const ss_mesh *m, int rank, bool manual, ss_sharding *sh)
{
    ss_spec spec;
    memset(&spec, 0, sizeof spec);
    int na = ss_mesh_axis_count(m), order[SS_MAX_AXES];
    for (int a = 0; a < na; a++)
        order[a] = a;
    for (int a = na - 1; a > 0; a--) {
        int j = (int)rnd((unsigned)a + 1), t = order[a];
        order[a] = order[j];
        order[j] = t;
    }
    unsigned mask = 0;
    for (int i = 0; i < na; i++) {
        int a = order[i], d = (int)rnd((unsigned)rank + 1) - 1;
        if (d < 0) {
            if (manual && rnd(2))
                mask |= 1u << a;
            continue;
        }
        ss_spec_dim *sd = &spec.dims[d];
        sd->axes[sd->naxes++] = ss_mesh_axis_name(m, a);
        if (spec.ndims < d + 1)
            spec.ndims = d + 1;
    }
    ss_sharding_init(sh, m, &spec);
    sh->manual_mask = mask;
}

static void check_tiles_match_shards(const ss_sharding *sh, int rank, const char *text)
{
    const ss_mesh *m = sh->mesh;
    int n = ss_mesh_device_count(m);
    int64_t factors[SS_MAX_RANK], shape[SS_MAX_RANK];
    cr_assert_eq(ss_sharding_tiling(sh, rank, factors), SS_OK);
    for (int d = 0; d < rank; d++)
        shape[d] = factors[d] * (1 + (int64_t)rnd(3));
    ss_shard shards[64];
    cr_assert_eq(ss_sharding_shards(sh, rank, shape, SS_F32, shards, 64), SS_OK, "%s",
                 ss_error_message());

    ss_hlo h;
    parse_ok(text, &h);
    int64_t tiles[SS_MAX_RANK], ntiles = 1, replicas = 1;
    bool seen[64] = {false};
    if (h.kind != SS_HLO_TILED) {
        /* {replicated} / {manual}: every device holds the whole array. */
        for (int p = 0; p < n; p++)
            for (int d = 0; d < rank; d++)
                cr_assert(shards[p].start[d] == 0 && shards[p].stop[d] == shape[d], "%s", text);
        ss_hlo_free(&h);
        return;
    }
    cr_assert_eq(h.ndims - h.nsub, rank, "%s", text);
    for (int d = 0; d < rank; d++) {
        tiles[d] = h.tile_dims[d];
        ntiles *= tiles[d];
    }
    for (int i = rank; i < h.ndims; i++)
        replicas *= h.tile_dims[i];
    cr_assert_eq(ntiles * replicas, n);
    int next = 0;
    for (int64_t t = 0; t < ntiles; t++) {
        int64_t idx[SS_MAX_RANK], rest = t;
        for (int d = rank - 1; d >= 0; d--) {
            idx[d] = rest % tiles[d];
            rest /= tiles[d];
        }
        for (int64_t r = 0; r < replicas; r++) {
            int dev = h.devices[next++];
            int p = ss_mesh_position_of(m, dev);
            cr_assert_geq(p, 0, "%s: device %d not in mesh", text, dev);
            cr_assert(!seen[p], "%s: device %d twice", text, dev);
            seen[p] = true;
            cr_assert_eq(shards[p].device, dev);
            for (int d = 0; d < rank; d++) {
                int64_t chunk = shape[d] / tiles[d];
                cr_assert(shards[p].start[d] == idx[d] * chunk &&
                              shards[p].stop[d] == (idx[d] + 1) * chunk,
                          "%s: device %d dim %d holds [%lld,%lld), tile says [%lld,%lld)", text,
                          dev, d, (long long)shards[p].start[d], (long long)shards[p].stop[d],
                          (long long)(idx[d] * chunk), (long long)((idx[d] + 1) * chunk));
            }
        }
    }
    ss_hlo_free(&h);
}

static void property_sweep(const char *mesh_text, int ndev, const int *ids, int rounds)
{
    static char text[TEXT_CAP], printed[TEXT_CAP], again[TEXT_CAP];
    ss_mesh *m;
    cr_assert_eq(ss_mesh_parse(mesh_text, ndev, ids, &m), SS_OK, "%s", ss_error_message());
    for (int i = 0; i < rounds; i++) {
        int rank = 1 + (int)rnd(3);
        ss_sharding sh, back;
        random_sharding(m, rank, i % 3 == 2, &sh);
        to_hlo_ok(&sh, rank, text);
        check_tiles_match_shards(&sh, rank, text);

        ss_hlo h;
        parse_ok(text, &h);
        print_ok(&h, printed);
        if (ss_mesh_is_iota(m)) {
            /* The printer's iota detection agrees with the construction. */
            cr_assert_str_eq(printed, text, "%s: '%s' reprinted as '%s'", mesh_text, text,
                             printed);
        } else {
            /* Normalised maybe to an iota form, but the same assignment. */
            ss_hlo h2;
            parse_ok(printed, &h2);
            cr_assert_eq(h2.ndevices, h.ndevices);
            if (h.ndevices)
                cr_assert_arr_eq(h2.devices, h.devices, sizeof(int) * (size_t)h.ndevices, "%s",
                                 text);
            ss_hlo_free(&h2);
        }
        ss_status st = ss_hlo_to_sharding(&h, m, rank, &back);
        cr_assert_eq(st, SS_OK, "%s: %s", text, ss_error_message());
        to_hlo_ok(&back, rank, again);
        cr_assert_str_eq(again, text, "%s: back to '%s'", text, again);
        ss_hlo_free(&h);
    }
    ss_mesh_destroy(m);
}

Test(hlo, property_tiles_match_shards)
{
    static const int tpu[8] = {0, 1, 2, 3, 6, 7, 4, 5};
    static const int rev[8] = {7, 6, 5, 4, 3, 2, 1, 0};
    property_sweep("a=2,b=4", 8, NULL, 300);
    property_sweep("a=2,b=2,c=2", 8, NULL, 300);
    property_sweep("a=4,b=2", 8, tpu, 300);
    property_sweep("a=2,b=2,c=2", 8, tpu, 300);
    property_sweep("a=2,b=4", 8, rev, 100);
    property_sweep("x=2,y=3,z=2", 12, NULL, 300);
    property_sweep("x=3,one=1,y=4", 12, NULL, 200);
    property_sweep("a=2,b=2,c=2,d=2,e=2", 32, NULL, 300);
}

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */
/* ------------------------------------------------------------------------ */

/* Parsing `text` fails with `want`, and the message names the column of the
 * first occurrence of `marker` (column 1 + its offset; marker "" = end). */
static void parse_fails(const char *text, ss_status want, const char *marker)
{
    ss_hlo h;
    ss_status st = ss_hlo_parse(text, &h);
    cr_assert_eq(st, want, "'%s': status %s, expected %s (%s)", text, ss_status_name(st),
                 ss_status_name(want), ss_error_message());
    cr_assert_null(h.devices, "'%s' left devices allocated", text);
    const char *at = marker[0] ? strstr(text, marker) : text + strlen(text);
    cr_assert_not_null(at, "bad test: '%s' lacks '%s'", text, marker);
    char col[32];
    snprintf(col, sizeof col, "column %d", (int)(at - text) + 1);
    const char *msg = ss_error_message();
    cr_assert(strstr(msg, col), "'%s': message '%s' lacks '%s'", text, msg, col);
    cr_assert_null(strchr(msg, '\n'), "message is not one line: '%s'", msg);
}

Test(hlo, parse_errors)
{
    parse_fails("", SS_ERR_PARSE, "");
    parse_fails("{", SS_ERR_PARSE, "");
    parse_fails("replicated", SS_ERR_PARSE, "replicated");
    parse_fails("{replicated", SS_ERR_PARSE, "");
    parse_fails("{replicated} x", SS_ERR_PARSE, "x");
    parse_fails("{replicatedx}", SS_ERR_PARSE, "replicatedx");
    parse_fails("{unknown}", SS_ERR_PARSE, "unknown");
    parse_fails("{{replicated}, {manual}}", SS_ERR_PARSE, "{replicated");
    parse_fails("{maximal device=-1}", SS_ERR_PARSE, "-1");
    parse_fails("{maximal dev=1}", SS_ERR_PARSE, "dev=");
    parse_fails("{devices=2,2]<=[4]}", SS_ERR_PARSE, "2,2]");
    parse_fails("{devices=[2,2<=[4]}", SS_ERR_PARSE, "<=");
    parse_fails("{devices=[]<=[1]}", SS_ERR_PARSE, "]<=");
    parse_fails("{devices=[2,0]<=[2]}", SS_ERR_PARSE, "2,0");
    parse_fails("{devices=[2,2]<=[3]}", SS_ERR_PARSE, "<=");
    parse_fails("{devices=[2,2]<=[2,2]T(0,0)}", SS_ERR_PARSE, "T(");
    parse_fails("{devices=[2,2]<=[2,2]T(0,1,2)}", SS_ERR_PARSE, "T(");
    parse_fails("{devices=[2,2]<=[2,2]T(1,0}", SS_ERR_PARSE, "}");
    parse_fails("{devices=[2,2]0,1,2}", SS_ERR_PARSE, "0,1");
    parse_fails("{devices=[2,2]0,1,2,3,4}", SS_ERR_PARSE, "4}");
    parse_fails("{devices=[2,2]0,1,2,2}", SS_ERR_PARSE, "2}");
    parse_fails("{devices=[2,2]0,1,,2}", SS_ERR_PARSE, ",2}");
    parse_fails("{devices=[2,2]}", SS_ERR_PARSE, "}");
    parse_fails("{devices=[4]<=[4] last_tile_dims={foo}}", SS_ERR_PARSE, "foo");
    parse_fails("{devices=[4]<=[4] last_tile_dims={manual replicated}}", SS_ERR_PARSE,
                "replicated}");
    parse_fails("{devices=[2,2]<=[4] last_tile_dims={manual, replicated, manual}}", SS_ERR_PARSE,
                "manual}");
    parse_fails("{devices=[2]<=[2] last_tile_dims={manual, replicated}}", SS_ERR_PARSE,
                "{manual");
    parse_fails("{devices=[2,2]<=[4] last_tile_dim_replicatex}", SS_ERR_PARSE, "last");
    parse_fails("{devices=[2,2]<=[4] metadata={op_name=\"x\"}}", SS_ERR_PARSE, "metadata");
    parse_fails("{devices=[64,128]<=[8192]}", SS_ERR_RANGE, "64");
    parse_fails("{devices=[2]0,99999}", SS_ERR_RANGE, "99999");
    parse_fails("{devices=[99999999999]<=[1]}", SS_ERR_RANGE, "99999999999");
}

Test(hlo, print_rejects_bad_structs)
{
    int devs[4] = {0, 1, 1, 3};
    ss_hlo h;
    char buf[64];
    memset(&h, 0, sizeof h);
    h.kind = SS_HLO_TILED;
    h.ndims = 2;
    h.tile_dims[0] = 2;
    h.tile_dims[1] = 2;
    h.ndevices = 4;
    h.devices = devs;
    cr_assert_eq(ss_hlo_print(&h, buf, sizeof buf), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "device 1 appears twice"), "%s", ss_error_message());
    devs[2] = 2;
    h.ndevices = 3;
    cr_assert_eq(ss_hlo_print(&h, buf, sizeof buf), SS_ERR_INVALID);
    h.ndevices = 4;
    cr_assert_eq(ss_hlo_print(&h, buf, sizeof buf), SS_OK);
    cr_assert_str_eq(buf, "{devices=[2,2]<=[4]}");
    cr_assert_eq(ss_hlo_print(&h, buf, 10), SS_ERR_RANGE);
    h.kind = (ss_hlo_kind)9;
    cr_assert_eq(ss_hlo_print(&h, buf, sizeof buf), SS_ERR_INVALID);
}

static void back_fails(const char *mesh_text, int ndev, const char *text, int rank,
                       const char *why)
{
    ss_mesh *m;
    ss_hlo h;
    ss_sharding sh;
    cr_assert_eq(ss_mesh_parse(mesh_text, ndev, NULL, &m), SS_OK);
    parse_ok(text, &h);
    cr_assert_eq(ss_hlo_to_sharding(&h, m, rank, &sh), SS_ERR_UNSUPPORTED, "%s on %s", text,
                 mesh_text);
    const char *msg = ss_error_message();
    cr_assert(strstr(msg, "no NamedSharding over Mesh("), "%s", msg);
    cr_assert(strstr(msg, why), "'%s' lacks '%s'", msg, why);
    ss_hlo_free(&h);
    ss_mesh_destroy(m);
}

Test(hlo, to_sharding_unsupported)
{
    back_fails("x=2,y=4", 8, "{maximal device=0}", 2, "maximal");
    back_fails("x=2,y=4", 8, "{devices=[3]<=[3]}", 1, "spans 3 devices, but the mesh has 8");
    back_fails("x=2,y=4", 8, "{devices=[2,4]<=[8]}", 1, "tiles 2 dimensions, but the array has "
                                                       "rank 1");
    back_fails("x=2,y=4", 8, "{devices=[8]0,1,2,3,6,7,4,5}", 1, "device order");
    back_fails("x=8", 8, "{devices=[2,4]<=[8]}", 2, "not products of distinct mesh axis sizes");
    back_fails("a=2,b=3", 6, "{devices=[6]<=[3,2]T(1,0)}", 1, "device order");
    back_fails("x=2,y=2", 4, "{devices=[2,2]1,0,3,2}", 2, "device order");
    back_fails("one=1", 1, "{manual}", 0, "no Manual sharding");
}

Test(hlo, to_sharding_specials)
{
    ss_mesh *m;
    ss_hlo h;
    ss_sharding sh;
    char buf[128];
    cr_assert_eq(ss_mesh_parse("x=2,y=4", 8, NULL, &m), SS_OK);
    parse_ok("{replicated}", &h);
    cr_assert_eq(ss_hlo_to_sharding(&h, m, 3, &sh), SS_OK);
    cr_assert_eq(sh.spec.ndims, 0);
    cr_assert_eq(sh.manual_mask, 0u);
    parse_ok("{manual}", &h);
    cr_assert_eq(ss_hlo_to_sharding(&h, m, 2, &sh), SS_OK);
    cr_assert_eq(sh.manual_mask, 3u);
    cr_assert_eq(ss_sharding_to_hlo(&sh, 2, buf, sizeof buf), SS_OK);
    cr_assert_str_eq(buf, "{manual}");
    /* P('y', 'x') from its explicit list (JAX array_test). */
    ss_mesh_destroy(m);
    cr_assert_eq(ss_mesh_parse("x=4,y=2", 8, NULL, &m), SS_OK);
    parse_ok("{devices=[2,4]0,2,4,6,1,3,5,7}", &h);
    cr_assert_eq(ss_hlo_to_sharding(&h, m, 2, &sh), SS_OK, "%s", ss_error_message());
    ss_hlo_free(&h);
    cr_assert_eq(ss_spec_repr(&sh.spec, buf, sizeof buf), SS_OK);
    cr_assert_str_eq(buf, "P('y', 'x')");
    /* Unsorted replication groups are the same sharding. */
    parse_ok("{devices=[4,1,2]1,0,3,2,5,4,7,6 last_tile_dim_replicate}", &h);
    cr_assert_eq(ss_hlo_to_sharding(&h, m, 2, &sh), SS_OK, "%s", ss_error_message());
    ss_hlo_free(&h);
    cr_assert_eq(ss_spec_repr(&sh.spec, buf, sizeof buf), SS_OK);
    cr_assert_str_eq(buf, "P('x',)");
    ss_mesh_destroy(m);
}

Test(hlo, to_hlo_errors)
{
    ss_mesh *m;
    ss_spec spec;
    ss_sharding sh;
    char buf[256];
    cr_assert_eq(ss_mesh_parse("x=2,y=4", 8, NULL, &m), SS_OK);
    ss_spec_parse("P('z')", &spec);
    ss_sharding_init(&sh, m, &spec);
    cr_assert_eq(ss_sharding_to_hlo(&sh, 1, buf, sizeof buf), SS_ERR_AXIS);
    cr_assert_str_eq(ss_error_message(),
                     "Resource axis: z of P('z',) is not found in mesh: ('x', 'y').");
    ss_spec_parse("P('x', 'y')", &spec);
    ss_sharding_init(&sh, m, &spec);
    cr_assert_eq(ss_sharding_to_hlo(&sh, 1, buf, sizeof buf), SS_ERR_RANK);
    cr_assert(strstr(ss_error_message(), "is only valid for values of rank at least 2"));
    cr_assert_eq(ss_sharding_to_hlo(&sh, SS_MAX_RANK + 1, buf, sizeof buf), SS_ERR_RANK);
    cr_assert_eq(ss_sharding_to_hlo(&sh, 2, buf, 8), SS_ERR_RANGE);
    cr_assert_eq(ss_sharding_to_hlo(&sh, 2, buf, sizeof buf), SS_OK);
    cr_assert_str_eq(buf, "{devices=[2,4]<=[8]}");
    /* A Manual axis cannot appear in the spec. */
    sh.manual_mask = 1u;
    cr_assert_eq(ss_sharding_to_hlo(&sh, 2, buf, sizeof buf), SS_ERR_AXIS);
    sh.manual_mask = 1u << 5;
    cr_assert_eq(ss_sharding_to_hlo(&sh, 2, buf, sizeof buf), SS_ERR_INVALID);
    ss_mesh_destroy(m);
}

Test(hlo, scalars_and_trivial_meshes)
{
    ss_mesh *m;
    ss_sharding sh;
    char buf[128];
    cr_assert_eq(ss_mesh_parse("", 1, NULL, &m), SS_OK);
    ss_sharding_init(&sh, m, NULL);
    cr_assert_eq(ss_sharding_to_hlo(&sh, 0, buf, sizeof buf), SS_OK);
    cr_assert_str_eq(buf, "{replicated}");
    ss_mesh_destroy(m);
    cr_assert_eq(ss_mesh_parse("i=2,j=2", 4, NULL, &m), SS_OK);
    ss_sharding_init(&sh, m, NULL);
    sh.manual_mask = 1u;
    cr_assert_eq(ss_sharding_to_hlo(&sh, 0, buf, sizeof buf), SS_OK);
    cr_assert_str_eq(buf, "{devices=[2,2]<=[4] last_tile_dims={manual, replicated}}");
    sh.manual_mask = 3u;
    cr_assert_eq(ss_sharding_to_hlo(&sh, 0, buf, sizeof buf), SS_OK);
    cr_assert_str_eq(buf, "{manual}");
    ss_mesh_destroy(m);
}
