/*
 * fuzz_maxtext — MaxText configuration files: the input is a config's YAML
 * text (its base_config and model files are looked for in a folder that
 * does not exist); a loaded config builds its mesh over 8 and 64 devices
 * in 1 and 2 slices, resolves every logical name of its rules on each, and
 * is asked which rules never apply.
 */
#include "fuzz.h"

#include "front/maxtext/maxtext.h"

#include <string.h>

static void resolve_all(const ss_maxtext_config *cfg, const ss_mesh *mesh)
{
    const ss_rules *rules = ss_maxtext_config_rules(cfg);
    for (int i = 0; i < rules->count; i++) {
        int by = ss_rules_shadowed_by(rules, i);
        FUZZ_CHECK(by < i);
        FUZZ_CHECK(by < 0 || strcmp(rules->rules[by].name, rules->rules[i].name) == 0);
        ss_spec names, out;
        memset(&names, 0, sizeof names);
        names.ndims = 1;
        names.dims[0].naxes = 1;
        names.dims[0].axes[0] = rules->rules[i].name;
        ss_rules_decision dec[1];
        ss_rules_options o = {.mesh = mesh, .fallback = SS_FALLBACK_UNSHARDED, .decisions = dec};
        if (ss_rules_resolve(rules, &names, &o, &out, NULL) == SS_OK)
            FUZZ_CHECK(dec[0].rule < rules->count);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    ss_maxtext_config *cfg = NULL;
    if (ss__maxtext_config_parse("/nonexistent/fuzz.yml", text, strlen(text), 0, NULL, &cfg) ==
        SS_OK) {
        static const int devices[] = {8, 64}, slices[] = {1, 2};
        for (int d = 0; d < 2; d++)
            for (int s = 0; s < 2; s++) {
                ss_mesh *mesh = NULL;
                int64_t ici[SS_MAX_AXES], dcn[SS_MAX_AXES];
                if (ss_maxtext_mesh(cfg, devices[d], slices[s], &mesh, ici, dcn) != SS_OK)
                    continue;
                FUZZ_CHECK(ss_mesh_device_count(mesh) == devices[d]);
                resolve_all(cfg, mesh);
                ss_mesh_destroy(mesh);
            }
        ss_spec ds;
        FUZZ_CHECK(ss_maxtext_config_data_sharding(cfg, &ds) == SS_OK);
    }
    ss_maxtext_config_free(cfg);
    free(text);
    return 0;
}
