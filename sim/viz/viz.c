/* viz.c — shard-layout pictures (stub; being written). */
#include "mesh/mesh_internal.h"

ss_status ss_viz_sharding(const ss_sharding *sh, int rank, const int64_t shape[],
                          const ss_viz_options *opts, char *out, size_t cap, size_t *len)
{
    (void)sh; (void)rank; (void)shape; (void)opts; (void)out; (void)cap; (void)len;
    return ss__fail(SS_ERR_UNSUPPORTED, "the visualizer is not implemented yet");
}

ss_status ss_viz_sharding_nd(const ss_sharding *sh, int rank, const int64_t shape[],
                             int row_dim, int col_dim, const ss_viz_options *opts,
                             char *out, size_t cap, size_t *len)
{
    (void)sh; (void)rank; (void)shape; (void)row_dim; (void)col_dim; (void)opts; (void)out;
    (void)cap; (void)len;
    return ss__fail(SS_ERR_UNSUPPORTED, "the visualizer is not implemented yet");
}

ss_status ss_viz_mesh(const ss_mesh *mesh, const ss_viz_options *opts, char *out, size_t cap,
                      size_t *len)
{
    (void)mesh; (void)opts; (void)out; (void)cap; (void)len;
    return ss__fail(SS_ERR_UNSUPPORTED, "the visualizer is not implemented yet");
}
