/*
 * fuzz_strategy — strategy files (ss_strategy_parse): every parsed rule
 * prints, is matched against a few parameter paths, and the strategy is
 * applied to a small model over a 2x4 mesh and to its Adam state.
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

static const ss_param_info params[] = {
    {"Encoder/Layer_0/kernel", SS_F32, 2, {1024, 4096}},
    {"Encoder/Layer_0/bias", SS_F32, 1, {4096}},
    {"embed/embedding", SS_BF16, 2, {32000, 512}},
    {"head/w", SS_F32, 3, {8, 64, 2}},
    {"scale", SS_F32, 0, {0}},
};
#define NPARAMS ((int)(sizeof params / sizeof params[0]))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    ss_strategy *s;
    if (!text || ss_strategy_parse(text, 1, &s, NULL, NULL) != SS_OK) {
        free(text);
        return 0;
    }
    int n = ss_strategy_rule_count(s);
    for (int i = 0; i < n; i++) {
        char repr[8192];
        ss_strategy_rule_repr(s, i, repr, sizeof repr);
        FUZZ_CHECK(ss_strategy_rule_line(s, i) >= 1);
        for (int p = 0; p < NPARAMS; p++)
            ss_strategy_rule_matches(s, i, params[p].path);
    }
    ss_param_sharding out[NPARAMS];
    if (ss_strategy_apply(s, mesh, NPARAMS, params, out) == SS_OK) {
        for (int p = 0; p < NPARAMS; p++) {
            ss_sharding sh;
            ss_sharding_init(&sh, mesh, &out[p].spec);
            FUZZ_CHECK(ss_sharding_check(&sh, params[p].rank, params[p].shape) == SS_OK);
        }
    }
    ss_strategy_destroy(s);
    free(text);
    return 0;
}
