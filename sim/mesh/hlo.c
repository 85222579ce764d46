/*
 * hlo.c — NamedSharding <-> HLO sharding: the tile assignment XLA builds for
 * a NamedSharding (JAX's named_sharding_to_xla_hlo_sharding followed by
 * XLA's HloSharding::Subgroup / PartialTile normalisation), that
 * normalisation itself for any ss_hlo, and the inverse search.
 *
 * The model, in our words (docs/semantics.md 4.2):
 *   - mesh axes of size 1 are dropped first;
 *   - the tile assignment is the mesh (positions, or device ids when the
 *     mesh has a non-iota order) transposed so that the axes of the spec
 *     come first, dim by dim and major to minor inside a tuple, then the
 *     Manual axes, then the remaining (replicated) axes, both in mesh order;
 *     it is reshaped to one tile dim per array dim plus one trailing dim for
 *     the Manual axes and one for the replicated axes;
 *   - device ids inside each replication group ascend (for an iota mesh
 *     they already do, because the replicated axes come in mesh order);
 *   - no tiling and no Manual axis gives {replicated}; Manual axes alone
 *     with no tiling give {manual}.
 * An iota mesh prints the canonical iota ("V2") form, any other device order
 * the explicit list ("V1"), as XLA does for Shardy meshes with device ids.
 *
 * Not handled here: tuple shardings, unreduced axes, metadata, sub-axes.
 * The text itself and the iota arithmetic live in hlo_text.c.
 */
#include "hlo_internal.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Checking and normalising an ss_hlo                                       */
/* ------------------------------------------------------------------------ */

ss_status ss__hlo_check(const ss_hlo *hlo)
{
    switch (hlo->kind) {
    case SS_HLO_REPLICATED:
    case SS_HLO_MANUAL:
        return SS_OK;
    case SS_HLO_MAXIMAL:
        if (hlo->maximal_device < 0)
            return ss__fail(SS_ERR_INVALID, "HLO sharding: maximal device %d is negative",
                            hlo->maximal_device);
        return SS_OK;
    case SS_HLO_TILED:
        break;
    default:
        return ss__fail(SS_ERR_INVALID, "HLO sharding: unknown kind %d", (int)hlo->kind);
    }
    if (hlo->ndims < 1 || hlo->ndims > SS_MAX_RANK + 2)
        return ss__fail(SS_ERR_INVALID, "HLO sharding: %d tile dimensions; 1..%d are supported",
                        hlo->ndims, SS_MAX_RANK + 2);
    if (hlo->nsub < 0 || hlo->nsub > 2 || hlo->nsub > hlo->ndims)
        return ss__fail(SS_ERR_INVALID,
                        "HLO sharding: %d subgroup dimensions for %d tile dimensions", hlo->nsub,
                        hlo->ndims);
    for (int i = 0; i < hlo->nsub; i++)
        if (hlo->sub[i] != SS_HLO_SUB_MANUAL && hlo->sub[i] != SS_HLO_SUB_REPLICATED)
            return ss__fail(SS_ERR_INVALID, "HLO sharding: unknown subgroup type %d",
                            (int)hlo->sub[i]);
    int64_t total = 1;
    for (int i = 0; i < hlo->ndims; i++) {
        if (hlo->tile_dims[i] < 1)
            return ss__fail(SS_ERR_INVALID, "HLO sharding: tile dimension %d is %lld", i,
                            (long long)hlo->tile_dims[i]);
        if (!ss__mul_i64_checked(total, hlo->tile_dims[i], &total) || total > SS_MAX_DEVICES)
            return ss__fail(SS_ERR_RANGE, "HLO sharding: more than %d devices", SS_MAX_DEVICES);
    }
    if (hlo->ndevices != total || !hlo->devices)
        return ss__fail(SS_ERR_INVALID,
                        "HLO sharding: the tile dimensions need %lld devices, but %d are listed",
                        (long long)total, hlo->devices ? hlo->ndevices : 0);
    unsigned char seen[SS_MAX_DEVICES] = {0};
    for (int i = 0; i < hlo->ndevices; i++) {
        int id = hlo->devices[i];
        if (id < 0 || id >= SS_MAX_DEVICES)
            return ss__fail(SS_ERR_INVALID, "HLO sharding: device id %d is outside 0..%d", id,
                            SS_MAX_DEVICES - 1);
        if (seen[id]++)
            return ss__fail(SS_ERR_INVALID, "HLO sharding: device %d appears twice", id);
    }
    return SS_OK;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Sort each run of `group` consecutive entries (the replication groups of a
 * tile array whose last dim has size `group`). */
static void sort_groups(int *devices, int n, int64_t group)
{
    for (int64_t i = 0; i < n; i += group)
        qsort(devices + i, (size_t)group, sizeof *devices, cmp_int);
}

static void set_untiled(ss_hlo *out, ss_hlo_kind kind)
{
    free(out->devices);
    memset(out, 0, sizeof *out);
    out->kind = kind;
}

ss_status ss__hlo_normalize(const ss_hlo *in, ss_hlo *out)
{
    *out = *in;
    out->devices = NULL;
    if (in->kind != SS_HLO_TILED)
        return SS_OK;
    out->devices = malloc(sizeof(int) * (size_t)in->ndevices);
    if (!out->devices)
        return ss__fail(SS_ERR_NOMEM, "HLO sharding: out of host memory");
    memcpy(out->devices, in->devices, sizeof(int) * (size_t)in->ndevices);
    int nd = in->ndims - in->nsub, n = in->ndevices;
    int64_t data = 1;
    for (int i = 0; i < nd; i++)
        data *= in->tile_dims[i];

    /* One subgroup type and no data tiling: plainly manual or replicated. */
    bool same = true;
    for (int i = 1; i < in->nsub; i++)
        same = same && in->sub[i] == in->sub[0];
    if (in->nsub > 0 && same && data == 1) {
        set_untiled(out, in->sub[0] == SS_HLO_SUB_MANUAL ? SS_HLO_MANUAL : SS_HLO_REPLICATED);
        return SS_OK;
    }

    /* Drop subgroup dims of size 1 and merge neighbours of the same type
     * (with at most two subgroup dims, same-typed dims are neighbours, so
     * merging leaves the flat device order alone). */
    int64_t size[2];
    ss_hlo_subgroup type[2];
    int ns = 0;
    for (int i = 0; i < in->nsub; i++) {
        int64_t s = in->tile_dims[nd + i];
        if (s == 1)
            continue;
        if (ns > 0 && type[ns - 1] == in->sub[i]) {
            size[ns - 1] *= s;
            continue;
        }
        size[ns] = s;
        type[ns] = in->sub[i];
        ns++;
    }
    /* MANUAL comes before REPLICATED: swap the two trailing dims. */
    if (ns == 2 && type[0] == SS_HLO_SUB_REPLICATED) {
        int *t = malloc(sizeof(int) * (size_t)n);
        if (!t) {
            ss_hlo_free(out);
            return ss__fail(SS_ERR_NOMEM, "HLO sharding: out of host memory");
        }
        int64_t a = size[0], b = size[1];
        for (int64_t g = 0; g < n / (a * b); g++)
            for (int64_t i = 0; i < a; i++)
                for (int64_t j = 0; j < b; j++)
                    t[g * a * b + j * a + i] = out->devices[g * a * b + i * b + j];
        free(out->devices);
        out->devices = t;
        size[0] = b;
        size[1] = a;
        type[0] = SS_HLO_SUB_MANUAL;
        type[1] = SS_HLO_SUB_REPLICATED;
    }
    out->nsub = ns;
    out->ndims = nd + ns;
    for (int i = 0; i < ns; i++) {
        out->tile_dims[nd + i] = size[i];
        out->sub[i] = type[i];
    }
    if (out->ndims == 0) {
        set_untiled(out, SS_HLO_REPLICATED);
        return SS_OK;
    }
    int64_t last = out->tile_dims[out->ndims - 1];
    if (ns == 1 && type[0] == SS_HLO_SUB_MANUAL && last == n) {
        set_untiled(out, SS_HLO_MANUAL);
        return SS_OK;
    }
    if (ns > 0 && type[ns - 1] == SS_HLO_SUB_REPLICATED) {
        if (last == n) {
            set_untiled(out, SS_HLO_REPLICATED);
            return SS_OK;
        }
        sort_groups(out->devices, n, last);
    }
    return SS_OK;
}

/* ------------------------------------------------------------------------ */
/* NamedSharding -> HLO sharding                                            */
/* ------------------------------------------------------------------------ */

/* The HLO sharding of `sh` for rank `rank`, in normal form, with its
 * canonical iota in *iota (iota->n == 0 when the mesh order is not iota or
 * the sharding is not tiled). `out` owns its devices. */
static ss_status build_hlo(const ss_sharding *sh, int rank, ss_hlo *out, ss__iota *iota)
{
    const ss_mesh *m = sh->mesh;
    int axes[SS_MAX_RANK][SS_MAX_AXES], counts[SS_MAX_RANK];
    memset(out, 0, sizeof *out);
    iota->n = 0;
    if (rank < 0 || rank > SS_MAX_RANK)
        return ss__fail(SS_ERR_RANK, "rank %d is outside 0..%d", rank, SS_MAX_RANK);
    if (m->naxes < (int)(sizeof sh->manual_mask * 8) && (sh->manual_mask >> m->naxes) != 0)
        return ss__fail(SS_ERR_INVALID,
                        "manual_mask 0x%x names axes beyond the mesh's %d axes", sh->manual_mask,
                        m->naxes);
    ss_status st = ss_sharding_check(sh, rank, NULL);
    if (st)
        return st;
    ss__spec_axis_indices(sh, axes, counts);

    /* Transposed axis order: spec axes dim by dim, then Manual axes, then
     * the replicated rest; size-1 axes take no part. */
    int order[SS_MAX_AXES], norder = 0, ndata = 0;
    bool used[SS_MAX_AXES] = {false};
    int64_t tile[SS_MAX_RANK + 2];
    for (int d = 0; d < rank; d++) {
        tile[d] = 1;
        for (int k = 0; k < counts[d]; k++) {
            int a = axes[d][k];
            used[a] = true;
            if (m->sizes[a] == 1)
                continue;
            tile[d] *= m->sizes[a];
            order[norder++] = a;
            ndata++;
        }
    }
    int64_t man = 1, rep = 1;
    for (int a = 0; a < m->naxes; a++)
        if (!used[a] && m->sizes[a] > 1 && ((sh->manual_mask >> a) & 1u)) {
            man *= m->sizes[a];
            order[norder++] = a;
        }
    for (int a = 0; a < m->naxes; a++)
        if (!used[a] && m->sizes[a] > 1 && !((sh->manual_mask >> a) & 1u)) {
            rep *= m->sizes[a];
            order[norder++] = a;
        }
    if (ndata == 0 && man == 1) {
        out->kind = SS_HLO_REPLICATED;
        return SS_OK;
    }
    if (ndata == 0 && rep == 1) {
        out->kind = SS_HLO_MANUAL;
        return SS_OK;
    }

    out->kind = SS_HLO_TILED;
    out->ndims = rank;
    memcpy(out->tile_dims, tile, sizeof(int64_t) * (size_t)rank);
    if (man > 1) {
        out->tile_dims[out->ndims++] = man;
        out->sub[out->nsub++] = SS_HLO_SUB_MANUAL;
    }
    if (rep > 1) {
        out->tile_dims[out->ndims++] = rep;
        out->sub[out->nsub++] = SS_HLO_SUB_REPLICATED;
    }
    int n = m->ndevices;
    out->ndevices = n;
    out->devices = malloc(sizeof(int) * (size_t)n);
    if (!out->devices)
        return ss__fail(SS_ERR_NOMEM, "HLO sharding: out of host memory");

    /* The transposed mesh, row-major: an odometer over `order`, tracking
     * the mesh position (row-major strides of the mesh axes). */
    int64_t mstride[SS_MAX_AXES], s = 1;
    for (int a = m->naxes - 1; a >= 0; a--) {
        mstride[a] = s;
        s *= m->sizes[a];
    }
    int64_t digit[SS_MAX_AXES] = {0}, pos = 0;
    for (int q = 0; q < n; q++) {
        out->devices[q] = m->ids[pos];
        for (int k = norder - 1; k >= 0; k--) {
            int a = order[k];
            if (++digit[k] < m->sizes[a]) {
                pos += mstride[a];
                break;
            }
            pos -= (digit[k] - 1) * mstride[a];
            digit[k] = 0;
        }
    }
    if (rep > 1)
        sort_groups(out->devices, n, rep);

    if (m->iota) {
        /* Same array as an iota over the non-trivial mesh axes. */
        int renum[SS_MAX_AXES], nr = 0;
        for (int a = 0; a < m->naxes; a++)
            if (m->sizes[a] > 1) {
                renum[a] = nr;
                iota->dims[nr++] = m->sizes[a];
            }
        iota->n = nr;
        for (int k = 0; k < norder; k++)
            iota->perm[k] = renum[order[k]];
        ss__iota_canonicalize(iota);
    }
    return SS_OK;
}

ss_status ss_sharding_to_hlo(const ss_sharding *sh, int rank, char *buf, size_t cap)
{
    ss_hlo h;
    ss__iota iota;
    ss_status st = build_hlo(sh, rank, &h, &iota);
    if (st) {
        ss_hlo_free(&h);
        return st;
    }
    ss__buf b;
    ss__buf_init(&b);
    ss__hlo_print_buf(&b, &h, iota.n ? &iota : NULL);
    ss_hlo_free(&h);
    st = ss__buf_copy_out(&b, buf, cap, NULL);
    ss__buf_free(&b);
    return st;
}

/* ------------------------------------------------------------------------ */
/* HLO sharding -> NamedSharding                                            */
/* ------------------------------------------------------------------------ */

/* Search state. The HLO fixes, for every mesh position, its tile index
 * along each data dim and along the Manual dim; a candidate assignment of
 * mesh axes must reproduce those indices, which prunes whole subtrees as
 * soon as a prefix of a tuple disagrees. */
typedef struct search {
    const ss_mesh *m;
    int nd;                       /* data dims */
    int64_t target[SS_MAX_RANK];  /* tiles per data dim */
    int64_t man;                  /* size of the Manual dim (1 if none) */
    int stride;                   /* ints per position in idx */
    const int *idx;               /* idx[p*stride + d]: tile index of position p */
    int64_t (*coords)[SS_MAX_AXES];
    unsigned used;                /* axes taken by data dims */
    int chosen[SS_MAX_RANK][SS_MAX_AXES];
    int count[SS_MAX_RANK];
    unsigned manual;              /* result: Manual axes */
    bool check_order;             /* false: match tile counts only */
} search;

/* Does every position's tile index in `slot` (a data dim, or nd for the
 * Manual dim), divided by `below`, equal the mixed-radix value of its
 * coordinates over the axes ax[0..k)? */
static bool prefix_agrees(const search *s, int slot, const int *ax, int k, int64_t below)
{
    if (!s->check_order)
        return true;
    for (int p = 0; p < s->m->ndevices; p++) {
        int64_t t = 0;
        for (int i = 0; i < k; i++)
            t = t * s->m->sizes[ax[i]] + s->coords[p][ax[i]];
        if (s->idx[p * s->stride + slot] / below != t)
            return false;
    }
    return true;
}

static bool search_rest(search *s)
{
    int free_axes[SS_MAX_AXES], nf = 0;
    for (int a = 0; a < s->m->naxes; a++)
        if (s->m->sizes[a] > 1 && !((s->used >> a) & 1u))
            free_axes[nf++] = a;
    for (unsigned sub = 0; sub < (1u << nf); sub++) {
        int ax[SS_MAX_AXES], k = 0;
        int64_t prod = 1;
        for (int i = 0; i < nf; i++)
            if ((sub >> i) & 1u) {
                ax[k++] = free_axes[i];
                prod *= s->m->sizes[free_axes[i]];
            }
        if (prod != s->man)
            continue;
        if (s->man > 1 && !prefix_agrees(s, s->nd, ax, k, 1))
            continue;
        s->manual = 0;
        for (int i = 0; i < k; i++)
            s->manual |= 1u << ax[i];
        return true;
    }
    return false;
}

static bool search_dim(search *s, int d, int k, int64_t prod)
{
    if (d == s->nd)
        return search_rest(s);
    if (prod == s->target[d]) {
        s->count[d] = k;
        return search_dim(s, d + 1, 0, 1);
    }
    /* Without the device order, only which axes a dim takes matters, not
     * their order: take them in mesh order. */
    int first = !s->check_order && k > 0 ? s->chosen[d][k - 1] + 1 : 0;
    for (int a = first; a < s->m->naxes; a++) {
        int64_t size = s->m->sizes[a];
        if (size == 1 || ((s->used >> a) & 1u) || s->target[d] % (prod * size) != 0)
            continue;
        s->chosen[d][k] = a;
        if (!prefix_agrees(s, d, s->chosen[d], k + 1, s->target[d] / (prod * size)))
            continue;
        s->used |= 1u << a;
        if (search_dim(s, d, k + 1, prod * size))
            return true;
        s->used &= ~(1u << a);
    }
    return false;
}

static ss_status unsupported(const ss_hlo *norm, const ss_mesh *m, const char *why)
{
    ss__buf b;
    ss__iota iota;
    ss__buf_init(&b);
    ss__buf_puts(&b, "no NamedSharding over ");
    char mesh[512];
    if (ss_mesh_repr(m, 0, mesh, sizeof mesh) == SS_OK)
        ss__buf_puts(&b, mesh);
    ss__buf_puts(&b, " has the HLO sharding ");
    bool has_iota = norm->kind == SS_HLO_TILED &&
                    ss__iota_detect(norm->devices, norm->ndevices, &iota);
    ss__hlo_print_buf(&b, norm, has_iota ? &iota : NULL);
    ss__buf_printf(&b, ": %s", why);
    ss_status st = ss__fail(SS_ERR_UNSUPPORTED, "%s", b.data ? b.data : why);
    ss__buf_free(&b);
    return st;
}

/* Same kind, dims, subgroups and devices. */
static bool hlo_equal(const ss_hlo *a, const ss_hlo *b)
{
    if (a->kind != b->kind)
        return false;
    if (a->kind == SS_HLO_MAXIMAL)
        return a->maximal_device == b->maximal_device;
    if (a->kind != SS_HLO_TILED)
        return true;
    if (a->ndims != b->ndims || a->nsub != b->nsub || a->ndevices != b->ndevices)
        return false;
    for (int i = 0; i < a->ndims; i++)
        if (a->tile_dims[i] != b->tile_dims[i])
            return false;
    for (int i = 0; i < a->nsub; i++)
        if (a->sub[i] != b->sub[i])
            return false;
    return memcmp(a->devices, b->devices, sizeof(int) * (size_t)a->ndevices) == 0;
}

static ss_status search_tiled(const ss_hlo *norm, const ss_mesh *m, int rank, ss_sharding *out)
{
    int n = m->ndevices;
    int nd = norm->ndims - norm->nsub;
    char why[160];
    if (nd != rank) {
        snprintf(why, sizeof why, "it tiles %d dimensions, but the array has rank %d", nd, rank);
        return unsupported(norm, m, why);
    }
    if (norm->ndevices != n) {
        snprintf(why, sizeof why, "it spans %d devices, but the mesh has %d", norm->ndevices, n);
        return unsupported(norm, m, why);
    }
    for (int i = 0; i < n; i++)
        if (norm->devices[i] >= n || m->pos_of[norm->devices[i]] < 0) {
            snprintf(why, sizeof why, "device %d is not in the mesh", norm->devices[i]);
            return unsupported(norm, m, why);
        }

    search s;
    memset(&s, 0, sizeof s);
    s.m = m;
    s.nd = nd;
    s.man = 1;
    for (int d = 0; d < nd; d++)
        s.target[d] = norm->tile_dims[d];
    for (int i = 0; i < norm->nsub; i++)
        if (norm->sub[i] == SS_HLO_SUB_MANUAL)
            s.man = norm->tile_dims[nd + i];
    s.stride = nd + 1;
    int *idx = malloc(sizeof(int) * (size_t)(n * s.stride));
    int64_t(*coords)[SS_MAX_AXES] = malloc(sizeof *coords * (size_t)n);
    if (!idx || !coords) {
        free(idx);
        free(coords);
        return ss__fail(SS_ERR_NOMEM, "HLO sharding: out of host memory");
    }
    /* Tile index of every position, read off the (normal) device array;
     * the Manual dim, when present, is the first subgroup dim. */
    for (int f = 0; f < n; f++) {
        int p = m->pos_of[norm->devices[f]];
        int64_t rest = f;
        for (int i = norm->ndims - 1; i >= 0; i--) {
            int64_t t = rest % norm->tile_dims[i];
            rest /= norm->tile_dims[i];
            if (i < nd)
                idx[p * s.stride + i] = (int)t;
            else if (i == nd)
                idx[p * s.stride + nd] = norm->nsub && norm->sub[0] == SS_HLO_SUB_MANUAL ? (int)t
                                                                                       : 0;
        }
    }
    for (int p = 0; p < n; p++)
        ss_mesh_coords(m, p, coords[p]);
    s.idx = idx;
    s.coords = coords;
    /* First the tile counts alone (a cheap search), for a precise message,
     * then the device order. */
    bool sizes_fit = search_dim(&s, 0, 0, 1);
    s.used = 0;
    s.check_order = true;
    bool found = sizes_fit && search_dim(&s, 0, 0, 1);
    free(idx);
    free(coords);
    if (!found)
        return unsupported(norm, m,
                           sizes_fit ? "no assignment of mesh axes to its dimensions gives "
                                       "this device order"
                                     : "its tile counts are not products of distinct mesh "
                                       "axis sizes");

    ss_spec spec;
    memset(&spec, 0, sizeof spec);
    for (int d = 0; d < nd; d++) {
        spec.dims[d].naxes = s.count[d];
        for (int k = 0; k < s.count[d]; k++)
            spec.dims[d].axes[k] = m->names[s.chosen[d][k]];
        if (s.count[d])
            spec.ndims = d + 1;
    }
    ss_sharding_init(out, m, &spec);
    out->manual_mask = s.manual;

    /* The pruned search matched tile indices only; confirm the whole array
     * (replication groups included) against the forward direction. */
    ss_hlo again;
    ss__iota iota;
    ss_status st = build_hlo(out, rank, &again, &iota);
    bool same = st == SS_OK && hlo_equal(&again, norm);
    ss_hlo_free(&again);
    if (st)
        return st;
    if (!same)
        return unsupported(norm, m, "no assignment of mesh axes to its dimensions gives this "
                                    "device order");
    return SS_OK;
}

ss_status ss_hlo_to_sharding(const ss_hlo *hlo, const ss_mesh *mesh, int rank, ss_sharding *out)
{
    if (rank < 0 || rank > SS_MAX_RANK)
        return ss__fail(SS_ERR_RANK, "rank %d is outside 0..%d", rank, SS_MAX_RANK);
    ss_status st = ss__hlo_check(hlo);
    if (st)
        return st;
    ss_hlo norm;
    st = ss__hlo_normalize(hlo, &norm);
    if (st)
        return st;
    ss_sharding_init(out, mesh, NULL);
    switch (norm.kind) {
    case SS_HLO_REPLICATED:
        break;
    case SS_HLO_MANUAL: {
        bool any = false;
        for (int a = 0; a < mesh->naxes; a++)
            any = any || mesh->sizes[a] > 1;
        if (!any)
            st = unsupported(&norm, mesh, "a mesh without an axis of size > 1 has no Manual "
                                          "sharding");
        else
            out->manual_mask = mesh->naxes >= 32 ? ~0u : (1u << mesh->naxes) - 1u;
        break;
    }
    case SS_HLO_MAXIMAL:
        st = unsupported(&norm, mesh, "a maximal sharding puts the whole array on one device");
        break;
    case SS_HLO_TILED:
        st = search_tiled(&norm, mesh, rank, out);
        break;
    }
    ss_hlo_free(&norm);
    return st;
}
