/*
 * fuzz_hlo — HLO sharding strings (ss_hlo_parse): a parsed string prints,
 * the printed form parses to the same sharding, and mapping it onto a few
 * meshes either fails cleanly or gives a spec that prints back to it.
 */
#include "fuzz.h"

static ss_mesh *meshes[3];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    static const char *const texts[3] = {"data=2,model=4", "x=8", "a=2,b=2,c=2"};
    for (int i = 0; i < 3; i++)
        if (ss_mesh_make(texts[i], 8, NULL, &meshes[i]) != SS_OK)
            abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    ss_hlo hlo;
    if (!text || ss_hlo_parse(text, &hlo) != SS_OK) {
        free(text);
        return 0;
    }
    static char printed[1 << 16], again_text[1 << 16];
    if (ss_hlo_print(&hlo, printed, sizeof printed) == SS_OK) {
        ss_hlo again;
        FUZZ_CHECK(ss_hlo_parse(printed, &again) == SS_OK);
        FUZZ_CHECK(ss_hlo_print(&again, again_text, sizeof again_text) == SS_OK);
        FUZZ_CHECK(strcmp(printed, again_text) == 0);
        ss_hlo_free(&again);
    }
    int rank = hlo.kind == SS_HLO_TILED ? hlo.ndims - hlo.nsub : 2;
    for (int i = 0; i < 3 && rank >= 0 && rank <= SS_MAX_RANK; i++) {
        ss_sharding sh;
        if (ss_hlo_to_sharding(&hlo, meshes[i], rank, &sh) != SS_OK)
            continue;
        char back[1024];
        FUZZ_CHECK(ss_sharding_to_hlo(&sh, rank, back, sizeof back) == SS_OK);
        ss_hlo h2;
        FUZZ_CHECK(ss_hlo_parse(back, &h2) == SS_OK);
        ss_hlo_free(&h2);
    }
    ss_hlo_free(&hlo);
    free(text);
    return 0;
}
