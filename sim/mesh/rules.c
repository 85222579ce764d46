/* rules.c — logical axis rules (stub; being written). */
#include "mesh_internal.h"

#include <stdlib.h>

ss_status ss_rules_parse(const char *text, ss_rules *out)
{
    (void)text; out->count = 0; out->rules = NULL;
    return ss__fail(SS_ERR_UNSUPPORTED, "logical axis rules are not implemented yet");
}

void ss_rules_free(ss_rules *rules) { free(rules->rules); rules->rules = NULL; rules->count = 0; }

ss_status ss_rules_resolve(const ss_rules *rules, const ss_spec *names,
                           const ss_rules_options *opts, ss_spec *out, int *constrained)
{
    (void)rules; (void)names; (void)opts; (void)out; (void)constrained;
    return ss__fail(SS_ERR_UNSUPPORTED, "logical axis rules are not implemented yet");
}
