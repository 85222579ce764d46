/*
 * fuzz_rules — logical axis rules: the first line is a rules text
 * (ss_rules_parse), the rest a spec of logical names resolved with them
 * (Flax alone, then over a 2x4 mesh, strict, with each fallback).
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    char *names_text = fuzz_split_line(text);
    ss_rules rules;
    if (ss_rules_parse(text, &rules) != SS_OK) {
        free(text);
        return 0;
    }
    ss_spec names;
    if (ss_spec_parse(names_text, &names) == SS_OK) {
        for (int k = 0; k < 6; k++) {
            ss_rules_options o = {.mesh = k & 1 ? mesh : NULL,
                                  .strict = k >= 4,
                                  .fallback = (ss_rules_fallback)(k >> 1)};
            ss_spec out;
            int constrained;
            if (ss_rules_resolve(&rules, &names, &o, &out, &constrained) != SS_OK)
                continue;
            char repr[4096];
            FUZZ_CHECK(ss_spec_repr(&out, repr, sizeof repr) == SS_OK);
            if (o.mesh && constrained) {
                ss_sharding sh;
                ss_sharding_init(&sh, mesh, &out);
                ss_sharding_validate(&sh);
            }
        }
    }
    ss_rules_free(&rules);
    free(text);
    return 0;
}
