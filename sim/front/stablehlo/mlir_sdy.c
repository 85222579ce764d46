/*
 * mlir_sdy.c — Shardy's attributes (https://openxla.org/shardy, the sdy
 * dialect's attribute syntax):
 *     mesh      <["x"=2, "y"=4]>, <["x"=4], device_ids=[3, 2, 1, 0]>,
 *               <[], device_ids=[0]> (maximal)
 *     sharding  <@mesh, [{"x"}, {"y", ?}p1, {}], replicated={"z"}, unreduced={"w"}>
 *               with sub-axes "x":(1)2 (pre-size 1, size 2 of axis x) and an
 *               inline mesh `mesh<[...]>` in place of @mesh
 * and the tiles a sharding gives each device, for Shardy and for GSPMD's
 * mhlo.sharding strings (read by shardsim's HLO sharding parser), so the
 * two spellings of one layout can be compared.
 */
#include "front/stablehlo/mlir_internal.h"

#include <stdlib.h>
#include <string.h>

static bool axis_ref(ss__mlir_parser *p, ss__mlir_sdy_axis *ax)
{
    size_t n;
    ax->name = ss__mlir_string(p, &n);
    if (!ax->name)
        return false;
    if (ss__mlir_peek(p, ":") && !ss__mlir_peek(p, "::")) {
        p->p++;
        bool neg, hex;
        uint64_t pre, size;
        if (!ss__mlir_expect(p, "(", "in a sub-axis \"x\":(pre)size") ||
            !ss__mlir_int_lit(p, &neg, &pre, &hex) ||
            !ss__mlir_expect(p, ")", "in a sub-axis \"x\":(pre)size") ||
            !ss__mlir_int_lit(p, &neg, &size, &hex))
            return false;
        if (pre < 1 || size < 1 || pre > INT32_MAX || size > INT32_MAX)
            return ss__mlir_err(p, "sub-axis of axis \"%s\" out of range", ax->name);
        ax->sub = true;
        ax->pre = (int64_t)pre;
        ax->size = (int64_t)size;
    }
    return true;
}

/* `{"a", "b":(1)2}` into *out (the { is next). open_ok: `?` may end it. */
static bool axis_set(ss__mlir_parser *p, ss__mlir_sdy_axis **out, int *n, bool *open,
                     bool open_ok)
{
    if (!ss__mlir_expect(p, "{", "to open a list of axes"))
        return false;
    ss__mlir_vec v = {0};
    bool ok = true;
    if (!ss__mlir_peek(p, "}")) {
        do {
            if (open_ok && ss__mlir_accept(p, "?")) {
                *open = true;
                break;
            }
            ss__mlir_sdy_axis *ax = ss__mlir_alloc(&p->m->arena, sizeof *ax);
            if (!ax) {
                ok = ss__mlir_oom(p);
                break;
            }
            if (!axis_ref(p, ax)) {
                ok = false;
                break;
            }
            ss__mlir_vec_push(&v, ax);
        } while (ss__mlir_accept(p, ","));
    }
    if (ok && v.oom)
        ok = ss__mlir_oom(p);
    if (ok)
        ok = ss__mlir_expect(p, "}", "to close a list of axes");
    if (ok) {
        *n = v.n;
        *out = ss__mlir_alloc(&p->m->arena, sizeof **out * (size_t)(v.n ? v.n : 1));
        if (!*out)
            ok = ss__mlir_oom(p);
        for (int i = 0; ok && i < v.n; i++)
            (*out)[i] = *(ss__mlir_sdy_axis *)v.v[i];
    }
    ss__mlir_vec_free(&v);
    return ok;
}

ss__mlir_sdy_mesh *ss__mlir_p_sdy_mesh(ss__mlir_parser *p)
{
    ss__mlir_sdy_mesh *m = ss__mlir_alloc(&p->m->arena, sizeof *m);
    if (!m) {
        ss__mlir_oom(p);
        return NULL;
    }
    if (!ss__mlir_expect(p, "[", "to open the mesh's axes"))
        return NULL;
    ss__mlir_vec names = {0}, sizes = {0};
    bool ok = true;
    if (!ss__mlir_peek(p, "]")) {
        do {
            size_t n;
            const char *name = ss__mlir_string(p, &n);
            bool neg, hex;
            uint64_t size;
            if (!name || !ss__mlir_expect(p, "=", "after a mesh axis name") ||
                !ss__mlir_int_lit(p, &neg, &size, &hex)) {
                ok = false;
                break;
            }
            if (neg || size < 1 || size > INT32_MAX) {
                ok = ss__mlir_err(p, "mesh axis \"%s\" has size out of range", name);
                break;
            }
            for (int i = 0; i < names.n; i++)
                if (strcmp(names.v[i], name) == 0) {
                    ok = ss__mlir_err(p, "mesh axis \"%s\" given twice", name);
                    break;
                }
            if (!ok)
                break;
            int64_t *sz = ss__mlir_alloc(&p->m->arena, sizeof *sz);
            if (!sz) {
                ok = ss__mlir_oom(p);
                break;
            }
            *sz = (int64_t)size;
            ss__mlir_vec_push(&names, (void *)name);
            ss__mlir_vec_push(&sizes, sz);
        } while (ss__mlir_accept(p, ","));
    }
    if (ok && (names.oom || sizes.oom))
        ok = ss__mlir_oom(p);
    ok = ok && ss__mlir_expect(p, "]", "to close the mesh's axes");
    if (ok) {
        m->naxes = names.n;
        m->axis_names = (const char **)ss__mlir_vec_copy(p, &names);
        m->axis_sizes = ss__mlir_alloc(&p->m->arena, sizeof(int64_t) * (size_t)(names.n + 1));
        ok = m->axis_names && m->axis_sizes ? true : ss__mlir_oom(p);
        for (int i = 0; ok && i < names.n; i++)
            m->axis_sizes[i] = *(int64_t *)sizes.v[i];
    }
    ss__mlir_vec_free(&names);
    ss__mlir_vec_free(&sizes);
    if (!ok)
        return NULL;
    int64_t total = 1;
    for (int i = 0; i < m->naxes; i++)
        if (!ss__mul_i64_checked(total, m->axis_sizes[i], &total) || total > (1 << 24)) {
            ss__mlir_err(p, "mesh of more than 2^24 devices");
            return NULL;
        }
    if (ss__mlir_accept(p, ",")) {
        if (!ss__mlir_accept_kw(p, "device_ids") || !ss__mlir_expect(p, "=", "after device_ids") ||
            !ss__mlir_expect(p, "[", "to open device_ids"))
            return ss__mlir_err(p, "expected device_ids=[...] in the mesh"), NULL;
        int64_t cap = total;
        m->device_ids = ss__mlir_alloc(&p->m->arena, sizeof(int64_t) * (size_t)cap);
        if (!m->device_ids) {
            ss__mlir_oom(p);
            return NULL;
        }
        do {
            bool neg, hex;
            uint64_t id;
            if (m->ndevices == cap) {
                ss__mlir_err(p, "device_ids lists more than the mesh's %lld devices",
                             (long long)total);
                return NULL;
            }
            if (!ss__mlir_int_lit(p, &neg, &id, &hex))
                return NULL;
            if (neg || id > INT32_MAX) {
                ss__mlir_err(p, "device id out of range");
                return NULL;
            }
            m->device_ids[m->ndevices++] = (int64_t)id;
        } while (ss__mlir_accept(p, ","));
        if (!ss__mlir_expect(p, "]", "to close device_ids"))
            return NULL;
        if (m->ndevices != total) {
            ss__mlir_err(p, "device_ids lists %d devices, the mesh has %lld", m->ndevices,
                         (long long)total);
            return NULL;
        }
        /* A permutation of 0..N-1 (a maximal mesh names any one device). */
        if (m->naxes > 0) {
            for (int i = 0; i < m->ndevices; i++)
                for (int j = 0; j < i; j++)
                    if (m->device_ids[i] == m->device_ids[j]) {
                        ss__mlir_err(p, "device id %lld repeated in device_ids",
                                     (long long)m->device_ids[i]);
                        return NULL;
                    }
        }
        m->maximal = m->naxes == 0;
    }
    if (!ss__mlir_expect(p, ">", "to close the mesh"))
        return NULL;
    return m;
}

ss__mlir_sdy_sharding *ss__mlir_p_sdy_sharding(ss__mlir_parser *p)
{
    if (!ss__mlir_enter(p))
        return NULL;
    ss__mlir_sdy_sharding *sh = ss__mlir_alloc(&p->m->arena, sizeof *sh);
    ss__mlir_vec dims = {0};
    if (!sh) {
        ss__mlir_oom(p);
        goto fail;
    }
    ss__mlir_ws(p);
    if (*p->p == '@') {
        if (!(sh->mesh_name = ss__mlir_symbol(p)))
            goto fail;
    } else if (ss__mlir_accept_kw(p, "mesh")) {
        if (!ss__mlir_expect(p, "<", "after 'mesh'") || !(sh->mesh = ss__mlir_p_sdy_mesh(p)))
            goto fail;
    } else {
        ss__mlir_err(p, "expected @mesh or mesh<...> in a sharding");
        goto fail;
    }
    if (!ss__mlir_expect(p, ",", "after the sharding's mesh") ||
        !ss__mlir_expect(p, "[", "to open the sharding's dimensions"))
        goto fail;
    if (!ss__mlir_peek(p, "]")) {
        do {
            ss__mlir_sdy_dim *d = ss__mlir_alloc(&p->m->arena, sizeof *d);
            if (!d) {
                ss__mlir_oom(p);
                goto fail;
            }
            d->priority = -1;
            if (!axis_set(p, &d->axes, &d->naxes, &d->open, true))
                goto fail;
            if (*p->p == 'p' && p->p[1] >= '0' && p->p[1] <= '9') {
                p->p++;
                bool neg, hex;
                uint64_t pr;
                if (!ss__mlir_int_lit(p, &neg, &pr, &hex))
                    goto fail;
                if (pr > INT32_MAX) {
                    ss__mlir_err(p, "priority out of range");
                    goto fail;
                }
                d->priority = (int)pr;
            }
            if (dims.n == SS__MLIR_MAX_RANK) {
                ss__mlir_err(p, "sharding of more than %d dimensions", SS__MLIR_MAX_RANK);
                goto fail;
            }
            ss__mlir_vec_push(&dims, d);
        } while (ss__mlir_accept(p, ","));
    }
    if (!ss__mlir_expect(p, "]", "to close the sharding's dimensions"))
        goto fail;
    while (ss__mlir_accept(p, ",")) {
        bool open = false;
        if (ss__mlir_accept_kw(p, "replicated")) {
            if (!ss__mlir_expect(p, "=", "after 'replicated'") ||
                !axis_set(p, &sh->replicated, &sh->nreplicated, &open, false))
                goto fail;
        } else if (ss__mlir_accept_kw(p, "unreduced")) {
            if (!ss__mlir_expect(p, "=", "after 'unreduced'") ||
                !axis_set(p, &sh->unreduced, &sh->nunreduced, &open, false))
                goto fail;
        } else {
            ss__mlir_err(p, "expected replicated={...} or unreduced={...} in a sharding");
            goto fail;
        }
    }
    if (!ss__mlir_expect(p, ">", "to close the sharding"))
        goto fail;
    if (dims.oom) {
        ss__mlir_oom(p);
        goto fail;
    }
    sh->ndims = dims.n;
    sh->dims = ss__mlir_alloc(&p->m->arena, sizeof *sh->dims * (size_t)(dims.n ? dims.n : 1));
    if (!sh->dims) {
        ss__mlir_oom(p);
        goto fail;
    }
    for (int i = 0; i < dims.n; i++)
        sh->dims[i] = *(ss__mlir_sdy_dim *)dims.v[i];
    ss__mlir_vec_free(&dims);
    ss__mlir_leave(p);
    return sh;
fail:
    ss__mlir_vec_free(&dims);
    ss__mlir_leave(p);
    return NULL;
}

ss__mlir_attr *ss__mlir_p_sdy_list(ss__mlir_parser *p)
{
    ss__mlir_vec v = {0};
    ss__mlir_attr *a = NULL;
    bool ok = true;
    if (!ss__mlir_peek(p, "]")) {
        do {
            ss__mlir_attr *s = ss__mlir_new_attr(p, SS__MLIR_AT_SDY_SHARDING);
            if (!s || !ss__mlir_expect(p, "<", "to open a sharding") ||
                !(s->sdy = ss__mlir_p_sdy_sharding(p))) {
                ok = false;
                break;
            }
            ss__mlir_vec_push(&v, s);
        } while (ss__mlir_accept(p, ","));
    }
    if (ok && ss__mlir_expect(p, "]", "to close the list of shardings")) {
        a = ss__mlir_new_attr(p, SS__MLIR_AT_SDY_LIST);
        if (a) {
            a->n = v.n;
            a->items = (ss__mlir_attr **)ss__mlir_vec_copy(p, &v);
            if (!a->items)
                a = NULL;
        }
    }
    ss__mlir_vec_free(&v);
    return a;
}

/* ---- tiles ------------------------------------------------------------------------ */

void ss__mlir_tiles_free(ss__mlir_tiles *t)
{
    free(t->devices);
    t->devices = NULL;
}

#define MAX_FACTORS 64

typedef struct factor {
    int axis;          /* mesh axis */
    int64_t pre, size; /* within the axis: pre-size and size */
    int used;          /* data dim + 1, or 0 for replicated */
} factor;

static int find_axis(const ss__mlir_sdy_mesh *m, const char *name)
{
    for (int i = 0; i < m->naxes; i++)
        if (strcmp(m->axis_names[i], name) == 0)
            return i;
    return -1;
}

ss_status ss__mlir_sdy_tiles(const ss__mlir_sdy_sharding *sh, const ss__mlir_sdy_mesh *mesh,
                             ss__mlir_tiles *out)
{
    memset(out, 0, sizeof *out);
    if (!mesh)
        return ss__fail(SS_ERR_INVALID, "sharding over mesh @%s: no such mesh",
                        sh->mesh_name ? sh->mesh_name : "?");
    if (sh->ndims > SS__MLIR_MAX_RANK)
        return ss__fail(SS_ERR_INVALID, "sharding rank too large");
    int64_t ndev = 1;
    for (int i = 0; i < mesh->naxes; i++)
        ndev *= mesh->axis_sizes[i]; /* bounded by the parser: at most 2^24 */
    out->rank = sh->ndims;
    out->repl = 1;
    out->manual = 1;
    if (mesh->maximal) {
        out->maximal = true;
        out->ndevices = 1;
        out->devices = malloc(sizeof *out->devices);
        if (!out->devices)
            return ss__fail(SS_ERR_NOMEM, "out of memory");
        out->devices[0] = mesh->device_ids[0];
        for (int d = 0; d < out->rank; d++)
            out->tile_dims[d] = 1;
        return SS_OK;
    }
    /* Split each axis at every boundary a sub-axis names. */
    factor f[MAX_FACTORS];
    int nf = 0;
    for (int a = 0; a < mesh->naxes; a++) {
        int64_t cuts[MAX_FACTORS];
        int nc = 0;
        cuts[nc++] = 1;
        cuts[nc++] = mesh->axis_sizes[a];
        for (int d = 0; d <= sh->ndims; d++) {
            const ss__mlir_sdy_axis *axes = d < sh->ndims ? sh->dims[d].axes : sh->replicated;
            int n = d < sh->ndims ? sh->dims[d].naxes : sh->nreplicated;
            for (int k = 0; k < n; k++) {
                if (!axes[k].sub || strcmp(axes[k].name, mesh->axis_names[a]) != 0)
                    continue;
                int64_t lo = axes[k].pre, hi = axes[k].pre * axes[k].size;
                if (mesh->axis_sizes[a] % hi != 0)
                    return ss__fail(SS_ERR_INVALID, "sub-axis \"%s\":(%lld)%lld does not divide "
                                    "the axis of size %lld", axes[k].name, (long long)lo,
                                    (long long)axes[k].size, (long long)mesh->axis_sizes[a]);
                if (nc + 2 > MAX_FACTORS)
                    return ss__fail(SS_ERR_UNSUPPORTED, "too many sub-axes");
                cuts[nc++] = lo;
                cuts[nc++] = hi;
            }
        }
        /* Sort and dedupe the cuts; each consecutive pair is a factor. */
        for (int i = 1; i < nc; i++)
            for (int j = i; j > 0 && cuts[j - 1] > cuts[j]; j--) {
                int64_t t = cuts[j];
                cuts[j] = cuts[j - 1];
                cuts[j - 1] = t;
            }
        for (int i = 1; i < nc; i++) {
            if (cuts[i] == cuts[i - 1])
                continue;
            if (cuts[i] % cuts[i - 1] != 0)
                return ss__fail(SS_ERR_INVALID, "sub-axes of \"%s\" overlap unevenly",
                                mesh->axis_names[a]);
            if (nf == MAX_FACTORS)
                return ss__fail(SS_ERR_UNSUPPORTED, "too many sub-axes");
            f[nf++] = (factor){a, cuts[i - 1], cuts[i] / cuts[i - 1], 0};
        }
    }
    /* Order of the factors in the tile array: each data dim's axes in
     * order (an axis's factors major first), then the rest in mesh order. */
    int order[MAX_FACTORS], no = 0;
    for (int d = 0; d < sh->ndims; d++) {
        out->tile_dims[d] = 1;
        for (int k = 0; k < sh->dims[d].naxes; k++) {
            const ss__mlir_sdy_axis *ax = &sh->dims[d].axes[k];
            int a = find_axis(mesh, ax->name);
            if (a < 0)
                return ss__fail(SS_ERR_INVALID, "sharding names axis \"%s\" not in the mesh",
                                ax->name);
            int64_t lo = ax->sub ? ax->pre : 1;
            int64_t hi = ax->sub ? ax->pre * ax->size : mesh->axis_sizes[a];
            /* Factors of axis a within [lo, hi), major (smallest pre) first:
             * a sub-axis's pre-size is the product of the parts left of it. */
            for (int i = 0; i < nf; i++) {
                if (f[i].axis != a || f[i].pre < lo || f[i].pre * f[i].size > hi)
                    continue;
                if (f[i].used)
                    return ss__fail(SS_ERR_INVALID, "axis \"%s\" used twice in a sharding",
                                    ax->name);
                f[i].used = d + 1;
                order[no++] = i;
                out->tile_dims[d] *= f[i].size;
            }
        }
    }
    for (int i = 0; i < nf; i++)
        if (!f[i].used) {
            order[no++] = i;
            out->repl *= f[i].size;
        }
    /* Device at each position of the factor array (mesh order, each axis's
     * factors major first), then transposed to `order`. */
    out->devices = malloc(sizeof *out->devices * (size_t)ndev);
    if (!out->devices)
        return ss__fail(SS_ERR_NOMEM, "out of memory");
    out->ndevices = (int)ndev;
    /* Mesh-order factor list: for each axis, its factors by increasing pre. */
    int morder[MAX_FACTORS], nm = 0;
    for (int a = 0; a < mesh->naxes; a++)
        for (int i = 0; i < nf; i++)
            if (f[i].axis == a)
                morder[nm++] = i;
    int64_t stride[MAX_FACTORS]; /* stride of factor i in the mesh position */
    int64_t s = 1;
    for (int k = nm - 1; k >= 0; k--) {
        stride[morder[k]] = s;
        s *= f[morder[k]].size;
    }
    int64_t idx[MAX_FACTORS] = {0};
    for (int64_t t = 0; t < ndev; t++) {
        int64_t pos = 0;
        for (int k = 0; k < no; k++)
            pos += idx[k] * stride[order[k]];
        out->devices[t] = mesh->ndevices ? mesh->device_ids[pos] : pos;
        for (int k = no - 1; k >= 0; k--) {
            if (++idx[k] < f[order[k]].size)
                break;
            idx[k] = 0;
        }
    }
    return SS_OK;
}

ss_status ss__mlir_gspmd_tiles(const char *text, int rank, int ndevices, ss__mlir_tiles *out)
{
    memset(out, 0, sizeof *out);
    if (rank < 0 || rank > SS__MLIR_MAX_RANK || ndevices < 1)
        return ss__fail(SS_ERR_INVALID, "gspmd tiles: bad rank or device count");
    ss_hlo h;
    ss_status st = ss_hlo_parse(text, &h);
    if (st != SS_OK)
        return st;
    out->rank = rank;
    out->repl = 1;
    out->manual = 1;
    for (int d = 0; d < rank; d++)
        out->tile_dims[d] = 1;
    if (h.kind == SS_HLO_TILED) {
        if (h.ndims != rank + h.nsub) {
            ss_hlo_free(&h);
            return ss__fail(SS_ERR_INVALID, "sharding %s has %d tile dims for a rank-%d value",
                            text, h.ndims - h.nsub, rank);
        }
        for (int d = 0; d < rank; d++)
            out->tile_dims[d] = h.tile_dims[d];
        for (int k = 0; k < h.nsub; k++) {
            if (h.sub[k] == SS_HLO_SUB_MANUAL)
                out->manual = h.tile_dims[rank + k];
            else
                out->repl = h.tile_dims[rank + k];
        }
        /* Manual before replicated in the device order, as XLA prints them. */
        out->ndevices = h.ndevices;
        out->devices = malloc(sizeof *out->devices * (size_t)(h.ndevices ? h.ndevices : 1));
        if (!out->devices) {
            ss_hlo_free(&h);
            return ss__fail(SS_ERR_NOMEM, "out of memory");
        }
        for (int i = 0; i < h.ndevices; i++)
            out->devices[i] = h.devices[i];
    } else {
        int n = h.kind == SS_HLO_MAXIMAL ? 1 : ndevices;
        out->maximal = h.kind == SS_HLO_MAXIMAL;
        out->manual_all = h.kind == SS_HLO_MANUAL;
        if (h.kind == SS_HLO_REPLICATED)
            out->repl = ndevices;
        if (h.kind == SS_HLO_MANUAL)
            out->manual = ndevices;
        out->ndevices = n;
        out->devices = malloc(sizeof *out->devices * (size_t)n);
        if (!out->devices) {
            ss_hlo_free(&h);
            return ss__fail(SS_ERR_NOMEM, "out of memory");
        }
        for (int i = 0; i < n; i++)
            out->devices[i] = out->maximal ? h.maximal_device : i;
    }
    ss_hlo_free(&h);
    return SS_OK;
}

/* Tile coordinates of each device, keyed by device id (-1: holds none). */
static bool tile_of(const ss__mlir_tiles *t, int64_t dev, int64_t *coord)
{
    int64_t per = t->manual * t->repl;
    for (int i = 0; i < t->ndevices; i++) {
        if (t->devices[i] != dev)
            continue;
        int64_t tile = i / per;
        for (int d = t->rank - 1; d >= 0; d--) {
            coord[d] = tile % t->tile_dims[d];
            tile /= t->tile_dims[d];
        }
        return true;
    }
    return false;
}

bool ss__mlir_tiles_equal(const ss__mlir_tiles *a, const ss__mlir_tiles *b)
{
    if (a->maximal != b->maximal || a->manual_all != b->manual_all || a->rank != b->rank ||
        a->ndevices != b->ndevices || a->repl != b->repl || a->manual != b->manual)
        return false;
    for (int d = 0; d < a->rank; d++)
        if (a->tile_dims[d] != b->tile_dims[d])
            return false;
    for (int i = 0; i < a->ndevices; i++) {
        int64_t ca[SS__MLIR_MAX_RANK], cb[SS__MLIR_MAX_RANK];
        if (!tile_of(a, a->devices[i], ca) || !tile_of(b, a->devices[i], cb))
            return false;
        if (memcmp(ca, cb, sizeof(int64_t) * (size_t)a->rank) != 0)
            return false;
    }
    return true;
}
