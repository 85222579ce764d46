/*
 * fuzz_spec — PartitionSpec text (ss_spec_parse) and what a parsed spec
 * feeds: its repr must parse back to the same spec, and over a 2x4 mesh
 * the sharding checks, the shards, the HLO string (which must parse and map
 * back to the spec's layout) and the picture.
 */
#include "fuzz.h"

static ss_mesh *mesh;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    mesh = fuzz_mesh_2x4();
    return 0;
}

static void layouts(const ss_spec *spec)
{
    static const int64_t shape[4] = {8, 16, 4, 2};
    ss_sharding sh;
    ss_sharding_init(&sh, mesh, spec);
    int rank = spec->ndims > 2 ? spec->ndims : 2;
    if (rank > 4 || ss_sharding_check(&sh, rank, shape) != SS_OK)
        return;
    ss_shard shards[8];
    FUZZ_CHECK(ss_sharding_shards(&sh, rank, shape, SS_F32, shards, 8) == SS_OK);
    char hlo_text[512];
    FUZZ_CHECK(ss_sharding_to_hlo(&sh, rank, hlo_text, sizeof hlo_text) == SS_OK);
    ss_hlo hlo;
    FUZZ_CHECK(ss_hlo_parse(hlo_text, &hlo) == SS_OK);
    ss_sharding back;
    if (ss_hlo_to_sharding(&hlo, mesh, rank, &back) == SS_OK) {
        ss_shard again[8];
        FUZZ_CHECK(ss_sharding_shards(&back, rank, shape, SS_F32, again, 8) == SS_OK);
        for (int i = 0; i < 8; i++)
            FUZZ_CHECK(memcmp(again[i].start, shards[i].start, sizeof shards[i].start) == 0 &&
                       memcmp(again[i].stop, shards[i].stop, sizeof shards[i].stop) == 0);
    }
    ss_hlo_free(&hlo);
    static char pic[1 << 16];
    ss_viz_sharding_nd(&sh, rank, shape, -1, -1, NULL, pic, sizeof pic, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    ss_spec spec;
    if (!text || ss_spec_parse(text, &spec) != SS_OK) {
        free(text);
        return 0;
    }
    char repr[4096];
    FUZZ_CHECK(ss_spec_repr(&spec, repr, sizeof repr) == SS_OK);
    ss_spec again;
    FUZZ_CHECK(ss_spec_parse(repr, &again) == SS_OK);
    FUZZ_CHECK(ss_spec_equal(&spec, &again));
    layouts(&spec);
    free(text);
    return 0;
}
