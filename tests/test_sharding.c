/* test_sharding.c — NamedSharding index maps, replica ids and groups, errors
 * with JAX's wording; every case of conformance/indices.json. */
#include "support.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

static void check_index_case(const cJSON *c)
{
    const char *name = cJSON_GetObjectItem(c, "name")->valuestring;
    ss_mesh *m = ts_mesh_from_case(c);
    ss_spec spec;
    ts_spec_from_json(cJSON_GetObjectItem(c, "spec"), &spec);
    int64_t shape[SS_MAX_RANK];
    int rank = ts_ints(cJSON_GetObjectItem(c, "shape"), shape, SS_MAX_RANK);
    ss_sharding sh;
    ss_sharding_init(&sh, m, &spec);
    ss_shard shards[SS_MAX_DEVICES];
    ss_status st = ss_sharding_shards(&sh, rank, shape, SS_F32, shards, SS_MAX_DEVICES);

    const cJSON *err = cJSON_GetObjectItem(c, "error");
    if (err) {
        cr_assert_neq(st, SS_OK, "%s: expected %s", name, err->valuestring);
        if (strcmp(err->valuestring, "IndivisibleError") == 0) {
            cr_assert_eq(st, SS_ERR_INDIVISIBLE, "%s: %s", name, ss_error_message());
            cr_assert(strstr(ss_error_message(), "should evenly divide the shape"), "%s", name);
        }
        const cJSON *frag = cJSON_GetObjectItem(c, "error_contains");
        if (frag)
            cr_assert(strstr(ss_error_message(), frag->valuestring), "%s: '%s' lacks '%s'", name,
                      ss_error_message(), frag->valuestring);
        ss_mesh_destroy(m);
        return;
    }
    cr_assert_eq(st, SS_OK, "%s: %s", name, ss_error_message());
    const cJSON *jss = cJSON_GetObjectItem(c, "shard_shape");
    if (jss) {
        int64_t want[SS_MAX_RANK], got[SS_MAX_RANK];
        int n = ts_ints(jss, want, SS_MAX_RANK);
        cr_assert_eq(ss_sharding_shard_shape(&sh, rank, shape, got), SS_OK);
        for (int d = 0; d < n; d++)
            cr_assert_eq(got[d], want[d], "%s: shard_shape[%d] %lld != %lld", name, d,
                         (long long)got[d], (long long)want[d]);
    }
    const cJSON *jrep = cJSON_GetObjectItem(c, "is_fully_replicated");
    if (jrep)
        cr_assert_eq(ss_sharding_is_replicated(&sh), cJSON_IsTrue(jrep), "%s", name);
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(c, "expected"))
    {
        int dev = cJSON_GetObjectItem(e, "device")->valueint;
        int pos = ss_mesh_position_of(m, dev);
        cr_assert_geq(pos, 0);
        const ss_shard *s = &shards[pos];
        cr_assert_eq(s->device, dev);
        const cJSON *idx = cJSON_GetObjectItem(e, "index");
        if (idx) {
            int d = 0;
            const cJSON *r;
            cJSON_ArrayForEach(r, idx)
            {
                int64_t ss[2];
                ts_ints(r, ss, 2);
                cr_assert(s->start[d] == ss[0] && s->stop[d] == ss[1],
                          "%s: device %d dim %d is [%lld,%lld), expected [%lld,%lld)", name, dev,
                          d, (long long)s->start[d], (long long)s->stop[d], (long long)ss[0],
                          (long long)ss[1]);
                d++;
            }
        }
        const cJSON *rid = cJSON_GetObjectItem(e, "replica_id");
        if (rid)
            cr_assert_eq(s->replica_id, rid->valueint, "%s: device %d replica %d, expected %d",
                         name, dev, s->replica_id, rid->valueint);
    }
    ss_mesh_destroy(m);
}

Test(sharding, conformance_indices)
{
    cJSON *cases = ts_load_json("conformance/indices.json");
    int n = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cases)
    {
        check_index_case(c);
        n++;
    }
    cr_assert_eq(n, 18, "expected all 18 index cases, saw %d", n);
    cJSON_Delete(cases);
}

/* Independent reference: every element of the array is held by exactly
 * (devices / distinct shards) devices, and replica ids number the holders of
 * each block 0,1,2,... in mesh order. Checked by brute force over elements. */
static void check_cover(const char *mesh_text, const int *ids, const char *spec_text, int rank,
                        const int64_t *shape)
{
    ss_mesh *m;
    ss_spec spec;
    cr_assert_eq(ss_mesh_parse(mesh_text, 8, ids, &m), SS_OK);
    cr_assert_eq(ss_spec_parse(spec_text, &spec), SS_OK);
    ss_sharding sh;
    ss_sharding_init(&sh, m, &spec);
    ss_shard s[8];
    cr_assert_eq(ss_sharding_shards(&sh, rank, shape, SS_BF16, s, 8), SS_OK, "%s",
                 ss_error_message());
    int64_t total = 1;
    for (int d = 0; d < rank; d++)
        total *= shape[d];
    int count0 = -1;
    for (int64_t flat = 0; flat < total; flat++) {
        int64_t idx[SS_MAX_RANK], rest = flat;
        for (int d = rank - 1; d >= 0; d--) {
            idx[d] = rest % shape[d];
            rest /= shape[d];
        }
        int count = 0, next_replica = 0;
        for (int p = 0; p < 8; p++) {
            int in = 1;
            for (int d = 0; d < rank; d++)
                in = in && idx[d] >= s[p].start[d] && idx[d] < s[p].stop[d];
            if (in) {
                cr_assert_eq(s[p].replica_id, next_replica, "%s %s pos %d", mesh_text, spec_text,
                             p);
                next_replica++;
                count++;
            }
        }
        if (count0 < 0)
            count0 = count;
        cr_assert_eq(count, count0, "uneven cover at element %lld", (long long)flat);
    }
    size_t elems = 1;
    for (int d = 0; d < rank; d++)
        elems *= (size_t)(s[0].stop[d] - s[0].start[d]);
    cr_assert_eq(s[0].bytes, elems * 2);
    cr_assert_eq((int64_t)count0 * total, (int64_t)(8 * elems));
    ss_mesh_destroy(m);
}

Test(sharding, shards_cover_the_array)
{
    int64_t s2[2] = {8, 8}, s3[3] = {4, 2, 8};
    int tpu[8] = {0, 1, 2, 3, 6, 7, 4, 5};
    const char *specs2[] = {"P('x','y')", "P('y','x')", "P('x')", "P(None,'y')",
                            "P(('x','y'))", "P(('y','x'))", "P()", "P(None, ('y','x'))"};
    for (size_t i = 0; i < sizeof specs2 / sizeof specs2[0]; i++) {
        check_cover("x=4,y=2", NULL, specs2[i], 2, s2);
        check_cover("x=4,y=2", tpu, specs2[i], 2, s2);
    }
    check_cover("a=2,b=2,c=2", NULL, "P('c', None, ('b','a'))", 3, s3);
    check_cover("a=2,b=2,c=2", NULL, "P(None, 'a')", 3, s3);
}

Test(sharding, tpu_order_moves_shards_with_devices)
{
    /* make_mesh((4,2)) on a TPU v3-8: P(('a','b')) row blocks go to devices
     * 0,1,2,3,6,7,4,5 in that order (JAX docs notebook output). */
    int ids[8] = {0, 1, 2, 3, 6, 7, 4, 5};
    ss_mesh *m;
    ss_spec spec;
    cr_assert_eq(ss_mesh_parse("a=4,b=2", 8, ids, &m), SS_OK);
    ss_spec_parse("P(('a','b'), None)", &spec);
    ss_sharding sh;
    ss_sharding_init(&sh, m, &spec);
    ss_shard s[8];
    int64_t shape[2] = {8192, 8192};
    cr_assert_eq(ss_sharding_shards(&sh, 2, shape, SS_F32, s, 8), SS_OK);
    for (int p = 0; p < 8; p++) {
        cr_assert_eq(s[p].device, ids[p]);
        cr_assert_eq(s[p].start[0], p * 1024);
    }
    ss_mesh_destroy(m);
}

static ss_status build(const char *mesh_text, const char *spec_text, ss_mesh **m,
                       ss_sharding *sh)
{
    ss_spec spec;
    cr_assert_eq(ss_mesh_parse(mesh_text, 8, NULL, m), SS_OK);
    cr_assert_eq(ss_spec_parse(spec_text, &spec), SS_OK);
    ss_sharding_init(sh, *m, &spec);
    return SS_OK;
}

Test(sharding, error_wording)
{
    ss_mesh *m;
    ss_sharding sh;
    build("x=4,y=2", "P('z')", &m, &sh);
    cr_assert_eq(ss_sharding_validate(&sh), SS_ERR_AXIS);
    cr_assert_str_eq(ss_error_message(),
                     "Resource axis: z of P('z',) is not found in mesh: ('x', 'y').");
    ss_spec_parse("P('x', 'x')", &sh.spec);
    cr_assert_eq(ss_sharding_validate(&sh), SS_ERR_DUPLICATE);
    cr_assert_str_eq(ss_error_message(),
                     "A single NamedSharding spec specification can map every mesh axis to at "
                     "most one positional dimension, but P('x', 'x') has duplicate entries for "
                     "`x`");
    ss_spec_parse("P(('y','x'), ('x','y'))", &sh.spec);
    cr_assert_eq(ss_sharding_validate(&sh), SS_ERR_DUPLICATE);
    cr_assert(strstr(ss_error_message(), "has duplicate entries for `x`, `y`"));

    ss_spec_parse("P('x', 'y')", &sh.spec);
    int64_t shape1[1] = {8};
    cr_assert_eq(ss_sharding_check(&sh, 1, shape1), SS_ERR_RANK);
    cr_assert_str_eq(ss_error_message(),
                     "Sharding NamedSharding(mesh=Mesh('x': 4, 'y': 2, axis_types=(Auto, Auto)), "
                     "spec=P('x', 'y'), memory_kind=device) is only valid for values of rank at "
                     "least 2, but was applied to a value of rank 1.");
    int64_t shape2[2] = {8, 3};
    cr_assert_eq(ss_sharding_check(&sh, 2, shape2), SS_ERR_INDIVISIBLE);
    cr_assert_str_eq(ss_error_message(),
                     "Sharding NamedSharding(mesh=Mesh('x': 4, 'y': 2, axis_types=(Auto, "
                     "Auto)), spec=P('x', 'y'), memory_kind=device) implies that array axis 1 "
                     "is partitioned 2 times, but the dimension size is 3 (full shape: (8, 3), "
                     "per-dimension tiling factors: [4, 2] should evenly divide the shape)");
    ss_mesh_destroy(m);
}

Test(sharding, replica_groups)
{
    ss_mesh *m;
    ss_sharding sh;
    int n, ids[8], off[9];
    build("x=2,y=4", "P('x')", &m, &sh);
    cr_assert_eq(ss_sharding_replica_groups(&sh, &n, ids, off), SS_OK);
    cr_assert_eq(n, 2);
    int want[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    cr_assert_arr_eq(ids, want, sizeof want);
    ss_spec_parse("P('y')", &sh.spec);
    cr_assert_eq(ss_sharding_replica_groups(&sh, &n, ids, off), SS_OK);
    cr_assert_eq(n, 4);
    int want_y[8] = {0, 4, 1, 5, 2, 6, 3, 7};
    cr_assert_arr_eq(ids, want_y, sizeof want_y);
    cr_assert_eq(off[1], 2);
    ss_mesh_destroy(m);
}
