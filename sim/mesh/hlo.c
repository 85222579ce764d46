/* hlo.c — HLO sharding strings (stub; being written). */
#include "mesh_internal.h"

#include <stdlib.h>

ss_status ss_sharding_to_hlo(const ss_sharding *sh, int rank, char *buf, size_t cap)
{
    (void)sh; (void)rank; (void)buf; (void)cap;
    return ss__fail(SS_ERR_UNSUPPORTED, "HLO sharding strings are not implemented yet");
}

ss_status ss_hlo_parse(const char *text, ss_hlo *out)
{
    (void)text; (void)out;
    return ss__fail(SS_ERR_UNSUPPORTED, "HLO sharding strings are not implemented yet");
}

void ss_hlo_free(ss_hlo *hlo) { free(hlo->devices); hlo->devices = NULL; }

ss_status ss_hlo_print(const ss_hlo *hlo, char *buf, size_t cap)
{
    (void)hlo; (void)buf; (void)cap;
    return ss__fail(SS_ERR_UNSUPPORTED, "HLO sharding strings are not implemented yet");
}

ss_status ss_hlo_to_sharding(const ss_hlo *hlo, const ss_mesh *mesh, int rank, ss_sharding *out)
{
    (void)hlo; (void)mesh; (void)rank; (void)out;
    return ss__fail(SS_ERR_UNSUPPORTED, "HLO sharding strings are not implemented yet");
}
