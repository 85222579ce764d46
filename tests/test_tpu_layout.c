/*
 * test_tpu_layout.c — ss_layout_array_bytes(SS_LAYOUT_TPU) against what
 * XLA's TPU compiler allocates, measured with libtpu's ahead-of-time
 * compiler: every array of tests/data/xla_tpu/layouts.json (make_layouts.py)
 * and the argument bytes of every record under tests/data/xla_tpu/
 * (make_records.py: the fixture programs on TPU slices of 8 to 256 chips).
 */
#include "support.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ss_dtype dtype_of(const char *name)
{
    static const struct {
        const char *name;
        ss_dtype dtype;
    } map[] = {{"float32", SS_F32}, {"bfloat16", SS_BF16}, {"int32", SS_I32},
               {"int8", SS_I8},     {"bool", SS_BOOL},     {"uint32", SS_U32}};
    for (size_t k = 0; k < sizeof map / sizeof *map; k++)
        if (strcmp(map[k].name, name) == 0)
            return map[k].dtype;
    cr_assert_fail("no ss_dtype for numpy's '%s'", name);
    return SS_DTYPE_COUNT;
}

Test(tpu_layout, every_measured_array)
{
    cJSON *j = ts_load_json("xla_tpu/layouts.json");
    const cJSON *row;
    int n = 0, kinds = 0;
    const char *kind_seen[8];
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(j, "arrays"))
    {
        int64_t shape[SS_MAX_RANK];
        int rank = ts_ints(cJSON_GetObjectItem(row, "shape"), shape, SS_MAX_RANK);
        ss_dtype dt = dtype_of(cJSON_GetObjectItem(row, "dtype")->valuestring);
        size_t want = (size_t)cJSON_GetObjectItem(row, "bytes")->valuedouble;
        size_t got = ss_layout_array_bytes(SS_LAYOUT_TPU, dt, rank, shape);
        cr_expect_eq(got, want, "%s %s[rank %d, %lld...]: %zu B, XLA %zu B (%s)",
                     cJSON_GetObjectItem(row, "topology")->valuestring, ss_dtype_name(dt), rank,
                     rank ? (long long)shape[0] : 0LL, got, want,
                     cJSON_GetObjectItem(row, "xla_layout")->valuestring);
        const char *kind = cJSON_GetObjectItem(row, "device_kind")->valuestring;
        bool seen = false;
        for (int k = 0; k < kinds; k++)
            seen = seen || strcmp(kind_seen[k], kind) == 0;
        if (!seen && kinds < 8)
            kind_seen[kinds++] = kind;
        n++;
    }
    cr_assert_geq(n, 100, "layouts.json holds %d arrays", n);
    cr_assert_eq(kinds, 2, "two TPU generations measured");
    cJSON_Delete(j);
}

Test(tpu_layout, dense_and_bad_input)
{
    int64_t s[2] = {3, 5};
    cr_assert_eq(ss_layout_array_bytes(SS_LAYOUT_DENSE, SS_BF16, 2, s), 30u);
    cr_assert_eq(ss_layout_array_bytes(SS_LAYOUT_DENSE, SS_F32, 0, NULL), 4u);
    cr_assert_eq(ss_layout_array_bytes(SS_LAYOUT_TPU, SS_DTYPE_COUNT, 2, s), 0u);
    cr_assert_eq(ss_layout_array_bytes(SS_LAYOUT_TPU, SS_F32, SS_MAX_RANK + 1, s), 0u);
    cr_assert_eq(ss_layout_array_bytes(SS_LAYOUT_TPU, SS_F32, 2, NULL), 0u);
    int64_t neg[2] = {3, -1};
    cr_assert_eq(ss_layout_array_bytes(SS_LAYOUT_TPU, SS_F32, 2, neg), 0u);
    int64_t huge[3] = {INT64_C(1) << 40, INT64_C(1) << 40, 8};
    cr_assert_eq(ss_layout_array_bytes(SS_LAYOUT_TPU, SS_F32, 3, huge), SIZE_MAX);
}

/* The argument bytes XLA's memory_analysis() reports for each recorded
 * program are the TPU sizes of its arguments' per-device blocks. */
Test(tpu_layout, recorded_programs_arguments)
{
    const char *data = getenv("SS_TEST_DATA");
    cr_assert(data != NULL);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/xla_tpu", data);
    DIR *progs = opendir(dir);
    cr_assert(progs != NULL, "cannot open %s", dir);
    int records = 0;
    struct dirent *p;
    while ((p = readdir(progs))) {
        if (p->d_name[0] == '.' || strchr(p->d_name, '.'))
            continue;
        char sub[4352];
        snprintf(sub, sizeof sub, "%s/%s", dir, p->d_name);
        DIR *topos = opendir(sub);
        cr_assert(topos != NULL, "cannot open %s", sub);
        struct dirent *t;
        while ((t = readdir(topos))) {
            if (t->d_name[0] == '.')
                continue;
            char rel[600];
            snprintf(rel, sizeof rel, "xla_tpu/%s/%s/record.json", p->d_name, t->d_name);
            cJSON *rec = ts_load_json(rel);
            const cJSON *mem = cJSON_GetObjectItem(rec, "memory_analysis");
            if (!mem) { /* a fit-sweep compile that ran out of HBM: no figures */
                cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(rec, "fits")), "%s", rel);
                cJSON_Delete(rec);
                continue;
            }
            size_t tpu = 0, dense = 0;
            const cJSON *a;
            cJSON_ArrayForEach(a, cJSON_GetObjectItem(rec, "arguments"))
            {
                int64_t shape[SS_MAX_RANK];
                int rank = ts_ints(cJSON_GetObjectItem(a, "local_shape"), shape, SS_MAX_RANK);
                ss_dtype dt = dtype_of(cJSON_GetObjectItem(a, "dtype")->valuestring);
                tpu += ss_layout_array_bytes(SS_LAYOUT_TPU, dt, rank, shape);
                dense += ss_layout_array_bytes(SS_LAYOUT_DENSE, dt, rank, shape);
            }
            size_t want = (size_t)cJSON_GetObjectItem(mem, "argument_size_in_bytes")->valuedouble;
            cr_expect_eq(tpu, want, "%s: arguments %zu B under TPU tiling (%zu dense), XLA %zu B", rel,
                         tpu, dense, want);
            cJSON_Delete(rec);
            records++;
        }
        closedir(topos);
    }
    closedir(progs);
    cr_assert_geq(records, 4, "%d records under %s", records, dir);
}

/* The plan with TPU layout: a product of two f32[5,9] arguments on one
 * device holds three buffers of XLA's measured size for f32[5,9]. */
Test(tpu_layout, plan_sizes_buffers_by_layout)
{
    cJSON *j = ts_load_json("xla_tpu/layouts.json");
    size_t xla = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(j, "arrays"))
    {
        int64_t shape[SS_MAX_RANK];
        int rank = ts_ints(cJSON_GetObjectItem(row, "shape"), shape, SS_MAX_RANK);
        if (rank == 2 && shape[0] == 5 && shape[1] == 9 &&
            strcmp(cJSON_GetObjectItem(row, "dtype")->valuestring, "float32") == 0)
            xla = (size_t)cJSON_GetObjectItem(row, "bytes")->valuedouble;
    }
    cJSON_Delete(j);
    cr_assert_gt(xla, 5u * 9u * 4u, "f32[5,9] measured and padded");

    ss_mesh *m;
    TS_OK(ss_mesh_parse("x=1", 1, NULL, &m));
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    int64_t shape[2] = {5, 9};
    ss_value a, b, c;
    TS_OK(ss_input(p, "a", SS_F32, 2, shape, NULL, &a));
    TS_OK(ss_input(p, "b", SS_F32, 2, shape, NULL, &b));
    TS_OK(ss_binary(p, SS_MUL, a, b, &c));
    TS_OK(ss_output(p, c, NULL));
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    ss_plan dense, tpu;
    TS_OK(ss_executable_plan(e, &dense));
    TS_OK(ss_executable_plan_layout(e, SS_LAYOUT_TPU, &tpu));
    cr_assert_eq(tpu.peak_bytes, 3 * ss_device_buffer_bytes(xla), "TPU peak %zu, XLA's f32[5,9] %zu",
                 tpu.peak_bytes, xla);
    cr_assert_eq(dense.peak_bytes, 3 * ss_device_buffer_bytes(5 * 9 * 4));
    ss_plan same;
    TS_OK(ss_executable_plan_layout(e, SS_LAYOUT_DENSE, &same));
    cr_assert_eq(same.peak_bytes, dense.peak_bytes);
    cr_assert_eq(ss_executable_plan_layout(e, (ss_memory_layout)7, &same), SS_ERR_INVALID);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}
