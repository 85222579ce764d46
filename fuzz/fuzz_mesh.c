/*
 * fuzz_mesh — mesh specs: the first line is a mesh text for ss_mesh_make
 * and ss_mesh_parse (over up to SS_MAX_DEVICES devices), the rest a
 * PartitionSpec laid over it; a mesh is printed and pictured.
 */
#include "fuzz.h"

static void use(ss_mesh *m, const char *spec_text)
{
    char repr[4096];
    ss_mesh_repr(m, 1, repr, sizeof repr);
    int n = ss_mesh_device_count(m);
    int64_t prod = 1;
    for (int a = 0; a < ss_mesh_axis_count(m); a++)
        prod *= ss_mesh_axis_size(m, a);
    FUZZ_CHECK(n >= 1 && n <= SS_MAX_DEVICES && prod == n);
    static char pic[1 << 20];
    ss_viz_mesh(m, NULL, pic, sizeof pic, NULL);
    ss_spec spec;
    if (ss_spec_parse(spec_text, &spec) != SS_OK)
        return;
    ss_sharding sh;
    ss_sharding_init(&sh, m, &spec);
    int64_t shape[SS_MAX_RANK];
    int rank = spec.ndims ? spec.ndims : 1;
    for (int d = 0; d < rank; d++)
        shape[d] = 4096;
    if (ss_sharding_check(&sh, rank, shape) != SS_OK)
        return;
    static ss_shard shards[SS_MAX_DEVICES];
    FUZZ_CHECK(ss_sharding_shards(&sh, rank, shape, SS_F32, shards, SS_MAX_DEVICES) == SS_OK);
    char hlo[1 << 15];
    ss_sharding_to_hlo(&sh, rank, hlo, sizeof hlo);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    char *spec_text = fuzz_split_line(text);
    ss_mesh *m;
    if (ss_mesh_make(text, SS_MAX_DEVICES, NULL, &m) == SS_OK) {
        use(m, spec_text);
        ss_mesh_destroy(m);
    }
    if (ss_mesh_parse(text, 8, NULL, &m) == SS_OK) {
        FUZZ_CHECK(ss_mesh_device_count(m) == 8);
        use(m, spec_text);
        ss_mesh_destroy(m);
    }
    free(text);
    return 0;
}
