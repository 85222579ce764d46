/*
 * import_mesh.c — the importer's mesh and shardings (import.h): a Shardy
 * sharding or a GSPMD mhlo.sharding string as a PartitionSpec over the
 * scenario's mesh, and the mesh itself.
 *
 * A Shardy module names its mesh (`sdy.mesh @mesh = <["data"=2,
 * "model"=4]>`). A GSPMD module does not: its shardings are device tiles,
 * so the mesh is the one with the fewest axes (then the first in
 * row-major order of factorisations) over which every sharding of the
 * entry function is a NamedSharding, as ss_hlo_to_sharding decides; its
 * axes are named x, y, z, w. `--mesh` replaces the mesh's sizes but must
 * keep its axis names, so the same text is planned on another mesh.
 *
 * Deliberately refused: sub-axes ("x":(1)2), unreduced axes, several
 * meshes in one module, device lists no iota mesh explains.
 */
#include "front/stablehlo/import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool ss__imp_sdy_spec(ss__imp *im, const ss__mlir_op *at, const ss__mlir_sdy_sharding *sh,
                      int rank, ss_spec *out)
{
    memset(out, 0, sizeof *out);
    if (rank > SS_MAX_RANK)
        return ss__imp_fail(im, at, "rank %d (at most %d)", rank, SS_MAX_RANK);
    if (sh->ndims != rank)
        return ss__imp_fail(im, at, "a sharding of %d dims for a value of rank %d", sh->ndims,
                            rank);
    if (sh->nunreduced)
        return ss__imp_fail(im, at, "unsupported: unreduced axes in a sharding");
    if (im->mesh && sh->mesh_name && im->mesh->name && strcmp(sh->mesh_name, im->mesh->name) &&
        !(sh->mesh && sh->mesh->naxes == 0))
        return ss__imp_fail(im, at, "unsupported: a sharding over mesh @%s (the module's mesh "
                                    "is @%s)", sh->mesh_name, im->mesh->name);
    out->ndims = rank;
    for (int d = 0; d < rank; d++) {
        const ss__mlir_sdy_dim *dim = &sh->dims[d];
        if (dim->naxes > SS_MAX_AXES)
            return ss__imp_fail(im, at, "more than %d axes on one dim (SS_MAX_AXES)", SS_MAX_AXES);
        for (int k = 0; k < dim->naxes; k++) {
            if (dim->axes[k].sub)
                return ss__imp_fail(im, at, "unsupported: sub-axis \"%s\":(%lld)%lld",
                                    dim->axes[k].name, (long long)dim->axes[k].pre,
                                    (long long)dim->axes[k].size);
            int a = ss_mesh_axis_index(im->sc->mesh, dim->axes[k].name);
            if (a < 0)
                return ss__imp_fail(im, at, "axis \"%s\" is not in the mesh %s",
                                    dim->axes[k].name, im->sc->mesh_text);
            out->dims[d].axes[k] = ss_mesh_axis_name(im->sc->mesh, a);
        }
        out->dims[d].naxes = dim->naxes;
        out->dims[d].unconstrained = dim->open && dim->naxes == 0;
    }
    return true;
}

bool ss__imp_gspmd_spec(ss__imp *im, const ss__mlir_op *at, const char *text, size_t len,
                        int rank, ss_spec *out)
{
    char buf[4096];
    if (len >= sizeof buf || memchr(text, 0, len))
        return ss__imp_fail(im, at, "mhlo.sharding: too long or not text");
    if (rank > SS_MAX_RANK)
        return ss__imp_fail(im, at, "rank %d (at most %d)", rank, SS_MAX_RANK);
    memcpy(buf, text, len);
    buf[len] = '\0';
    ss_hlo hlo;
    if (ss_hlo_parse(buf, &hlo) != SS_OK)
        return ss__imp_fail(im, at, "mhlo.sharding \"%s\": %s", buf, ss_error_message());
    ss_sharding sh;
    ss_status st = hlo.kind == SS_HLO_MANUAL ? SS_ERR_UNSUPPORTED
                                             : ss_hlo_to_sharding(&hlo, im->text_mesh, rank, &sh);
    ss_hlo_free(&hlo);
    if (st)
        return ss__imp_fail(im, at, "mhlo.sharding \"%s\" over mesh %s: %s", buf,
                            im->sc->mesh_text,
                            hlo.kind == SS_HLO_MANUAL ? "unsupported here" : ss_error_message());
    *out = sh.spec;
    return true;
}

bool ss__imp_attr_spec(ss__imp *im, const ss__mlir_op *at, const ss__mlir_attr *a, int index,
                       int rank, ss_spec *out)
{
    if (a->kind == SS__MLIR_AT_SDY_LIST && index < a->n)
        a = a->items[index];
    if (a->kind == SS__MLIR_AT_SDY_SHARDING && a->sdy)
        return ss__imp_sdy_spec(im, at, a->sdy, rank, out);
    if (a->kind == SS__MLIR_AT_STRING)
        return ss__imp_gspmd_spec(im, at, a->s, a->len, rank, out);
    return ss__imp_fail(im, at, "a sharding attribute of an unexpected kind");
}

/* --- The mesh of a Shardy module ----------------------------------------------- */

static bool sdy_mesh(ss__imp *im, char *text, size_t cap, int order[], int *norder)
{
    const ss__mlir_sdy_mesh *pick = NULL;
    for (int k = 0; k < ss__mlir_mesh_count(im->m); k++) {
        const ss__mlir_sdy_mesh *m = ss__mlir_mesh_at(im->m, k);
        if (m->naxes == 0)
            continue;
        if (pick)
            return ss__imp_fail(im, ss__mlir_module_op(im->m), "unsupported: several meshes "
                                "(@%s and @%s)", pick->name ? pick->name : "?",
                                m->name ? m->name : "?");
        pick = m;
    }
    im->mesh = pick;
    size_t len = 0;
    int64_t n = 1;
    for (int k = 0; pick && k < pick->naxes; k++) {
        int w = snprintf(text + len, cap - len, "%s%s=%lld", k ? "," : "", pick->axis_names[k],
                         (long long)pick->axis_sizes[k]);
        if (w < 0 || (size_t)w >= cap - len || strchr(pick->axis_names[k], ',') ||
            strchr(pick->axis_names[k], '='))
            return ss__imp_fail(im, NULL, "mesh axis names too long or with ',' or '='");
        len += (size_t)w;
        n *= pick->axis_sizes[k];
        if (n > SS_MAX_DEVICES)
            return ss__imp_fail(im, NULL, "the mesh needs more than %d devices", SS_MAX_DEVICES);
    }
    if (!pick) /* no mesh: one device */
        snprintf(text, cap, "x=%d", im->ndevices > 0 ? im->ndevices : 1);
    *norder = 0;
    if (pick && pick->ndevices) {
        if (pick->ndevices != n)
            return ss__imp_fail(im, NULL, "mesh @%s: %d device ids for %lld devices",
                                pick->name ? pick->name : "?", pick->ndevices, (long long)n);
        for (int k = 0; k < pick->ndevices; k++) {
            if (pick->device_ids[k] < 0 || pick->device_ids[k] >= n)
                return ss__imp_fail(im, NULL, "mesh device id %lld out of range",
                                    (long long)pick->device_ids[k]);
            order[k] = (int)pick->device_ids[k];
        }
        *norder = pick->ndevices;
    }
    return true;
}

/* --- The mesh of a GSPMD module -------------------------------------------------- */

typedef struct gspmd_set {
    int n, cap;
    const ss__mlir_attr **attrs;
    int *ranks;
} gspmd_set;

static bool gspmd_add(gspmd_set *s, const ss__mlir_attr *a, int rank)
{
    if (!a || a->kind != SS__MLIR_AT_STRING)
        return true;
    if (s->n == s->cap) {
        int cap = s->cap ? s->cap * 2 : 32;
        const ss__mlir_attr **na = realloc(s->attrs, sizeof *na * (size_t)cap);
        if (na)
            s->attrs = na;
        int *nr = realloc(s->ranks, sizeof *nr * (size_t)cap);
        if (nr)
            s->ranks = nr;
        if (!na || !nr)
            return false;
        s->cap = cap;
    }
    s->attrs[s->n] = a;
    s->ranks[s->n++] = rank;
    return true;
}

static bool gspmd_collect_block(gspmd_set *s, const ss__mlir_block *b, int depth)
{
    for (int i = 0; b && depth < 32 && i < b->nops; i++) {
        const ss__mlir_op *op = b->ops[i];
        const ss__mlir_attr *a = ss__mlir_op_attr(op, "mhlo.sharding");
        if (a && op->nresults == 1 && op->results[0]->type->kind == SS__MLIR_TY_TENSOR &&
            !gspmd_add(s, a, op->results[0]->type->rank))
            return false;
        for (int r = 0; r < op->nregions; r++)
            for (int k = 0; k < op->regions[r]->nblocks; k++)
                if (!gspmd_collect_block(s, op->regions[r]->blocks[k], depth + 1))
                    return false;
    }
    return true;
}

/* Does every collected sharding fit a mesh of these axis sizes? */
static bool fits(const gspmd_set *s, int naxes, const int64_t sizes[], int ndev)
{
    char text[128];
    size_t len = 0;
    static const char *const names[] = {"x", "y", "z", "w"};
    for (int k = 0; k < naxes; k++)
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%s=%lld", k ? "," : "",
                                names[k], (long long)sizes[k]);
    ss_mesh *mesh;
    if (ss_mesh_make(text, ndev, NULL, &mesh) != SS_OK)
        return false;
    bool ok = true;
    for (int i = 0; ok && i < s->n; i++) {
        char buf[4096];
        const ss__mlir_attr *a = s->attrs[i];
        if (a->len >= sizeof buf || memchr(a->s, 0, a->len))
            continue;
        memcpy(buf, a->s, a->len);
        buf[a->len] = '\0';
        ss_hlo hlo;
        if (ss_hlo_parse(buf, &hlo) != SS_OK)
            continue; /* reported where it is used */
        ss_sharding sh;
        if (hlo.kind == SS_HLO_TILED && s->ranks[i] <= SS_MAX_RANK)
            ok = ss_hlo_to_sharding(&hlo, mesh, s->ranks[i], &sh) == SS_OK;
        ss_hlo_free(&hlo);
    }
    ss_mesh_destroy(mesh);
    return ok;
}

/* Try the ordered factorisations of `left` into factors > 1, at most 4
 * axes in all, with exactly `want` axes; true with sizes[] set on the
 * first that fits. */
static bool search(const gspmd_set *s, int64_t left, int depth, int want, int64_t sizes[],
                   int ndev)
{
    if (depth == want)
        return left == 1 && fits(s, want, sizes, ndev);
    for (int64_t f = 2; f <= left; f++)
        if (left % f == 0) {
            sizes[depth] = f;
            if (search(s, left / f, depth + 1, want, sizes, ndev))
                return true;
        }
    return false;
}

static bool gspmd_mesh(ss__imp *im, const ss__mlir_func *f, char *text, size_t cap)
{
    int ndev = im->ndevices > 0 ? im->ndevices : 1;
    gspmd_set s = {0, 0, NULL, NULL};
    bool ok = true;
    for (int i = 0; ok && i < f->type->n; i++) {
        const ss__mlir_attr *d = f->arg_attrs && i < f->arg_attrs->n ? f->arg_attrs->items[i]
                                                                     : NULL;
        if (!d && f->body && i < f->body->nargs)
            d = f->body->args[i]->attrs;
        ok = gspmd_add(&s, ss__mlir_dict_get(d, "mhlo.sharding"), f->type->items[i]->rank);
    }
    for (int i = 0; ok && i < f->type->nres; i++)
        ok = gspmd_add(&s, ss__mlir_dict_get(f->res_attrs && i < f->res_attrs->n
                                                 ? f->res_attrs->items[i] : NULL,
                                             "mhlo.sharding"),
                       f->type->res[i]->rank);
    ok = ok && gspmd_collect_block(&s, f->body, 0);
    if (!ok) {
        free(s.attrs);
        free(s.ranks);
        return ss__imp_fail(im, NULL, "out of host memory");
    }
    int64_t sizes[4];
    bool found = false;
    int naxes = 0;
    if (ndev == 1) {
        found = true;
        sizes[0] = 1;
        naxes = 1;
    }
    for (int want = 1; !found && want <= 4; want++)
        if (search(&s, ndev, 0, want, sizes, ndev)) {
            found = true;
            naxes = want;
        }
    free(s.attrs);
    free(s.ranks);
    if (!found)
        return ss__imp_fail(im, f->op, "no mesh of %d devices (at most 4 axes, devices in iota "
                                       "order) makes every mhlo.sharding of @%s a "
                                       "NamedSharding; give one with --mesh", ndev, f->name);
    static const char *const names[] = {"x", "y", "z", "w"};
    size_t len = 0;
    for (int k = 0; k < naxes; k++)
        len += (size_t)snprintf(text + len, cap - len, "%s%s=%lld", k ? "," : "", names[k],
                                (long long)sizes[k]);
    return true;
}

/* --mesh keeps the module's axis names: each must be in the override. */
static bool check_override(ss__imp *im, const char *module_text)
{
    const char *ov = im->ov->mesh;
    for (const char *p = module_text; *p;) {
        const char *eq = strchr(p, '=');
        if (!eq)
            break;
        size_t n = (size_t)(eq - p);
        bool found = false;
        for (const char *q = ov; *q && !found;) {
            const char *e2 = strchr(q, '=');
            if (!e2)
                break;
            found = (size_t)(e2 - q) == n && memcmp(q, p, n) == 0;
            const char *c = strchr(e2, ',');
            q = c ? c + 1 : e2 + strlen(e2);
        }
        if (!found)
            return ss__imp_fail(im, NULL, "--mesh %s: the module's shardings name axis '%.*s' "
                                          "(its mesh is %s); keep its axis names", ov, (int)n,
                                p, module_text);
        const char *c = strchr(eq, ',');
        p = c ? c + 1 : eq + strlen(eq);
    }
    return true;
}

bool ss__imp_mesh_text(ss__imp *im, const ss__mlir_func *entry, char *text, size_t cap,
                       int order[], int *norder, char *module_text)
{
    *norder = 0;
    bool sdy = ss__mlir_mesh_count(im->m) > 0;
    if (!(sdy ? sdy_mesh(im, text, cap, order, norder) : gspmd_mesh(im, entry, text, cap)))
        return false;
    snprintf(module_text, cap, "%s", text);
    if (im->ov && im->ov->mesh) {
        if (!check_override(im, text))
            return false;
        snprintf(text, cap, "%s", im->ov->mesh);
        *norder = 0;
    }
    return true;
}
