/*
 * test_tpu_order.c — ss_tpu_mesh_order and the topology numbering against
 * the device orders JAX's mesh_utils built on libtpu's topology
 * descriptions (tests/data/tpu_device_orders.json, written by
 * tests/xla_tpu/make_device_orders.py with JAX 0.10.2 and libtpu 0.0.42.1).
 * tests/python/test_tpu_mesh.py checks the same vectors through the
 * command line; this file checks the library call, under the sanitizers.
 */
#include "support.h"

#include <stdlib.h>
#include <string.h>

#define ORDERS "tpu_device_orders.json"

/* shardsim's id of a libtpu device id: slices are 100000*(s+1) + local. */
static int shardsim_id(int libtpu_id, int slices, int per_slice)
{
    return slices == 1 ? libtpu_id : (libtpu_id / 100000 - 1) * per_slice + libtpu_id % 100000;
}

Test(tpu_order, every_recorded_order_and_refusal_is_jaxs)
{
    cJSON *doc = ts_load_json(ORDERS);
    int checked = 0, refused = 0;
    int *ids = malloc(sizeof *ids * SS_MAX_DEVICES);
    cr_assert(ids);
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItem(doc, "topologies"))
    {
        const char *name = cJSON_GetObjectItem(t, "topology")->valuestring;
        int slices = cJSON_GetObjectItem(t, "num_slices")->valueint;
        ss_tpu_topology topo;
        TS_OK(ss_tpu_topology_parse(name, &topo));
        cr_assert_eq(topo.devices * slices, cJSON_GetArraySize(cJSON_GetObjectItem(t, "devices")),
                     "%s", name);
        const cJSON *c;
        cJSON_ArrayForEach(c, cJSON_GetObjectItem(t, "cases"))
        {
            int64_t ici[SS_MAX_AXES], dcn[SS_MAX_AXES];
            int n = ts_ints(cJSON_GetObjectItem(c, "ici"), ici, SS_MAX_AXES);
            const cJSON *jd = cJSON_GetObjectItem(c, "dcn");
            if (jd)
                ts_ints(jd, dcn, SS_MAX_AXES);
            bool split = cJSON_IsTrue(cJSON_GetObjectItem(c, "allow_split"));
            ss_status st = ss_tpu_mesh_order(&topo, slices, n, ici, jd ? dcn : NULL, split, ids);
            const cJSON *err = cJSON_GetObjectItem(c, "error");
            char *what = cJSON_PrintUnformatted(c);
            if (err) {
                char want[4096];
                snprintf(want, sizeof want, "%s: %s",
                         cJSON_GetObjectItem(err, "type")->valuestring,
                         cJSON_GetObjectItem(err, "message")->valuestring);
                cr_assert_eq(st, SS_ERR_MESH, "%s %.200s", name, what);
                cr_assert(strstr(ss_error_message(), want), "%s %.200s:\n got %s\nwant %s", name,
                          what, ss_error_message(), want);
                refused++;
            } else {
                TS_OK(st);
                int pos = 0;
                const cJSON *id;
                cJSON_ArrayForEach(id, cJSON_GetObjectItem(c, "ids"))
                {
                    int want = shardsim_id(id->valueint, slices, topo.devices);
                    cr_assert_eq(ids[pos], want, "%s %.200s: position %d: got %d, want %d", name,
                                 what, pos, ids[pos], want);
                    pos++;
                }
                cr_assert_eq(pos, topo.devices * slices);
            }
            free(what);
            checked++;
        }
    }
    free(ids);
    cJSON_Delete(doc);
    cr_assert_gt(checked, 500);
    cr_assert_gt(refused, 100);
}

Test(tpu_order, device_coords_are_libtpus)
{
    cJSON *doc = ts_load_json(ORDERS);
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItem(doc, "topologies"))
    {
        ss_tpu_topology topo;
        int slices = cJSON_GetObjectItem(t, "num_slices")->valueint;
        TS_OK(ss_tpu_topology_parse(cJSON_GetObjectItem(t, "topology")->valuestring, &topo));
        const cJSON *d;
        cJSON_ArrayForEach(d, cJSON_GetObjectItem(t, "devices"))
        {
            int64_t v[6];
            cr_assert_eq(ts_ints(d, v, 6), 6);
            int id = shardsim_id((int)v[0], slices, topo.devices), c[3];
            ss_tpu_device_coords(&topo, id, c);
            cr_assert(c[0] == v[1] && c[1] == v[2] && c[2] == v[3],
                      "device %lld: got (%d, %d, %d), want (%lld, %lld, %lld)", (long long)v[0],
                      c[0], c[1], c[2], (long long)v[1], (long long)v[2], (long long)v[3]);
            cr_assert_eq(id / topo.devices, v[5], "device %lld: slice", (long long)v[0]);
        }
    }
    cJSON_Delete(doc);
}

Test(tpu_order, bad_topologies_say_the_form)
{
    static const char *const bad[] = {"v3:4x4", "v4:2x2", "v5e", "v5e:", "v5e:4", "v5e:4x4x4",
                                      "v5p:4x4", "v5e:0x4", "v5e:4x-4", "v5e:4x4 ", "v5e: 4x4",
                                      "v5p:64x64x64", "v5e:4xx4", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ss_tpu_topology t;
        cr_assert_eq(ss_tpu_topology_parse(bad[i], &t), SS_ERR_INVALID, "'%s'", bad[i]);
        cr_assert(strstr(ss_error_message(), "topology '"), "%s", ss_error_message());
        cr_assert_eq(t.devices, 0);
    }
    ss_tpu_topology t;
    TS_OK(ss_tpu_topology_parse("v6e:2x4", &t));
    cr_assert(t.dims[0] == 2 && t.dims[1] == 4 && t.dims[2] == 1 && t.devices == 8);
}

Test(tpu_order, counts_that_do_not_multiply_are_refused)
{
    ss_tpu_topology t;
    int ids[64];
    TS_OK(ss_tpu_topology_parse("v5e:4x4", &t));
    int64_t ici[2] = {4, 2}, dcn[2] = {2, 1};
    cr_assert_eq(ss_tpu_mesh_order(&t, 1, 2, ici, NULL, false, ids), SS_ERR_MESH);
    cr_assert(strstr(ss_error_message(), "Number of devices 16"), "%s", ss_error_message());
    ici[1] = 4;
    cr_assert_eq(ss_tpu_mesh_order(&t, 3, 2, ici, dcn, false, ids), SS_ERR_MESH);
    cr_assert(strstr(ss_error_message(), "Number of slices 3"), "%s", ss_error_message());
}
