/*
 * mesh.c — the device mesh MaxText's create_device_mesh builds from a
 * configuration: the ICI parallelism of every mesh axis (one -1 filled in
 * from the devices per slice), with several slices the DCN parallelism
 * the same way from the slice count, and the devices ordered as
 * jax.experimental.mesh_utils.create_hybrid_device_mesh orders devices
 * that carry a slice_index: each slice's own mesh of shape ici, placed as
 * block `dcn coordinate` of a block array of shape dcn (np.block). A mesh
 * axis's size is ici x dcn; axes of size 1 stay in the mesh. On CPU
 * devices a slice's own mesh is its ids in order; on a TPU topology it is
 * mesh_utils' torus order (sim/mesh/tpu_order.c).
 */
#include "maxtext.h"

#include <stdio.h>
#include <string.h>

/* The parallelism key of mesh axis `axis` for "ici" or "dcn": stage reads
 * the pipeline key and model the tensor key, as MaxText's maps do. */
static void param_key(char *out, size_t cap, const char *net, const char *axis)
{
    const char *name = strcmp(axis, "stage") == 0   ? "pipeline"
                       : strcmp(axis, "model") == 0 ? "tensor"
                                                    : axis;
    snprintf(out, cap, "%s_%s_parallelism", net, name);
}

/* The values of one network, `vals`, as configured (attn_dp axes are 1,
 * ICI fsdp defaults to -1, everything else to 1). */
static ss_status read_values(const ss_maxtext_config *c, const char *net, int64_t vals[])
{
    for (int i = 0; i < c->naxes; i++) {
        const char *axis = c->axes[i], *where;
        char key[256];
        param_key(key, sizeof key, net, axis);
        int64_t dflt = strcmp(net, "ici") == 0 && strcmp(axis, "fsdp") == 0 ? -1 : 1;
        bool fixed = strcmp(axis, "attn_dp") == 0 || strcmp(axis, "attn_dp_expert") == 0;
        vals[i] = fixed ? 1 : ss__maxtext_param(c, key, dflt, &where);
        if (vals[i] == 0 || vals[i] < -1)
            return ss__fail(SS_ERR_MESH, "%s: %s must be a positive integer or -1, not %lld",
                            where, key, (long long)vals[i]);
    }
    return SS_OK;
}

/* "ici_fsdp_parallelism=4, ici_tensor_parallelism=2": the values not 1. */
static void describe(char *out, size_t cap, const ss_maxtext_config *c, const char *net,
                     const int64_t vals[])
{
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; i < c->naxes && n < cap; i++) {
        if (vals[i] == 1)
            continue;
        char key[256];
        param_key(key, sizeof key, net, c->axes[i]);
        int w = snprintf(out + n, cap - n, "%s%s=%lld", n ? ", " : "", key, (long long)vals[i]);
        n += w > 0 ? (size_t)w : 0;
    }
    if (!out[0])
        snprintf(out, cap, "every %s_*_parallelism is 1", net);
}

/* MaxText's fill_unspecified_mesh_axes: at most one -1, set so that the
 * product is `target`; then the product must be `target`. */
static ss_status fill(const ss_maxtext_config *c, const char *net, int64_t vals[], int64_t target)
{
    const char *kind = strcmp(net, "ici") == 0 ? "ICI" : "DCN";
    const char *what = strcmp(net, "ici") == 0 ? "devices per slice" : "slices";
    char have[1024];
    describe(have, sizeof have, c, net, vals);
    int unknown = -1, nunknown = 0;
    int64_t known = 1;
    for (int i = 0; i < c->naxes; i++) {
        if (vals[i] == -1) {
            unknown = i;
            nunknown++;
        } else {
            known *= vals[i];
        }
    }
    if (nunknown > 1)
        return ss__fail(SS_ERR_MESH,
                        "maxtext: Found unspecified values (-1) for more than one %s "
                        "parallelism axis. At most one axis can be unspecified. (%s)",
                        kind, have);
    if (nunknown == 1) {
        if (target % known != 0)
            return ss__fail(SS_ERR_MESH,
                            "maxtext: Unspecified value unable to be determined with the "
                            "given %s parallelism values: %lld %s do not divide by %lld (%s)",
                            kind, (long long)target, what, (long long)known, have);
        vals[unknown] = target / known;
        known = target;
    }
    if (known != target)
        return ss__fail(SS_ERR_MESH,
                        "maxtext: Number of %s %lld does not match the product of the %s "
                        "parallelism %lld (%s)",
                        what, (long long)target, kind, (long long)known, have);
    return SS_OK;
}

/* ss_maxtext_mesh and ss_maxtext_mesh_tpu: topo NULL orders the devices as
 * CPU devices are ordered (each slice's ids in row-major mesh order). */
static ss_status build(const ss_maxtext_config *cfg, const ss_tpu_topology *topo, int ndevices,
                       int nslices, ss_mesh **out, int64_t *ici_out, int64_t *dcn_out)
{
    if (!cfg || !out)
        return ss__fail(SS_ERR_INVALID, "ss_maxtext_mesh: NULL argument");
    *out = NULL;
    if (nslices <= 0)
        nslices = cfg->num_slices > 0 ? (int)cfg->num_slices : 1;
    if (topo) {
        if (nslices > SS_MAX_DEVICES / topo->devices)
            return ss__fail(SS_ERR_MESH, "maxtext: %d slices of %s:%dx%dx%d are more than "
                                         "SS_MAX_DEVICES (%d) devices", nslices, topo->kind,
                            topo->dims[0], topo->dims[1], topo->dims[2], SS_MAX_DEVICES);
        ndevices = topo->devices * nslices;
    }
    if (ndevices < 1 || ndevices > SS_MAX_DEVICES)
        return ss__fail(SS_ERR_MESH, "maxtext: %d devices; expected 1..SS_MAX_DEVICES (%d)",
                        ndevices, SS_MAX_DEVICES);
    if (nslices > ndevices || ndevices % nslices != 0)
        return ss__fail(SS_ERR_MESH, "maxtext: %d devices do not split into %d slices of "
                                     "equal size", ndevices, nslices);
    int64_t ici[SS_MAX_AXES], dcn[SS_MAX_AXES];
    ss_status st = read_values(cfg, "ici", ici);
    if (!st)
        st = fill(cfg, "ici", ici, ndevices / nslices);
    for (int i = 0; i < cfg->naxes; i++)
        dcn[i] = 1;
    if (!st && nslices > 1 && !(st = read_values(cfg, "dcn", dcn)))
        st = fill(cfg, "dcn", dcn, nslices);
    if (st)
        return st;

    int64_t sizes[SS_MAX_AXES];
    for (int i = 0; i < cfg->naxes; i++)
        sizes[i] = ici[i] * dcn[i];
    int ids[SS_MAX_DEVICES];
    if (topo) {
        st = ss_tpu_mesh_order(topo, nslices, cfg->naxes, ici, dcn, cfg->allow_split, ids);
        if (st)
            return st;
    } else {
        /* Hybrid order: mesh coordinate m splits into the slice's block
         * m / ici and the position in the slice m % ici, both row-major. */
        int per_slice = ndevices / nslices;
        for (int pos = 0; pos < ndevices; pos++) {
            int rest = pos;
            int64_t slice = 0, local = 0, sstride = 1, lstride = 1;
            for (int i = cfg->naxes - 1; i >= 0; i--) {
                int64_t m = rest % sizes[i];
                rest = (int)(rest / sizes[i]);
                slice += (m / ici[i]) * sstride;
                local += (m % ici[i]) * lstride;
                sstride *= dcn[i];
                lstride *= ici[i];
            }
            ids[pos] = (int)(slice * per_slice + local);
        }
    }
    if (ici_out)
        memcpy(ici_out, ici, sizeof ici[0] * (size_t)cfg->naxes);
    if (dcn_out)
        memcpy(dcn_out, dcn, sizeof dcn[0] * (size_t)cfg->naxes);
    return ss_mesh_create(cfg->naxes, cfg->axes, sizes, ndevices, ids, out);
}

ss_status ss_maxtext_mesh(const ss_maxtext_config *cfg, int ndevices, int nslices,
                          ss_mesh **out, int64_t *ici_out, int64_t *dcn_out)
{
    return build(cfg, NULL, ndevices, nslices, out, ici_out, dcn_out);
}

ss_status ss_maxtext_mesh_tpu(const ss_maxtext_config *cfg, const ss_tpu_topology *topo,
                              int nslices, ss_mesh **out, int64_t *ici_out, int64_t *dcn_out)
{
    if (!topo)
        return ss__fail(SS_ERR_INVALID, "ss_maxtext_mesh_tpu: NULL topology");
    return build(cfg, topo, 0, nslices, out, ici_out, dcn_out);
}
