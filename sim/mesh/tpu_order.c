/*
 * tpu_order.c — the order in which jax.experimental.mesh_utils places a
 * TPU slice's devices in a mesh (create_device_mesh, and per slice in
 * create_hybrid_device_mesh), restated from JAX 0.10.2's rules; the
 * device numbering is libtpu's (tests/data/tpu_device_orders.json).
 *
 * The three steps JAX takes, in order:
 *  1. v5e and v6e ("TPU v5 lite", "TPU v6 lite") first try fixed ring
 *     orders of the slice's devices in (z, y, x) order: a 2x2 slice of
 *     four devices, any slice of eight devices, and a 4x4 slice whose mesh
 *     has an axis of all 16 devices. v5p reports the kind "TPU v5", which
 *     JAX 0.10.2's table of such orders does not list, so it has none.
 *  2. Otherwise the physical mesh (x, y, z) is cut into the logical axes,
 *     the last (most network-intensive) logical axis first: each takes the
 *     first subset of the still unused physical axes, most axes first and
 *     in index order among equally many, whose sizes multiply to its size.
 *     A logical axis of size > 1 with no such subset is refused
 *     (NotImplementedError) unless physical axes may be split.
 *  3. With allow_split_physical_axes, a refusal of step 2 starts over and
 *     gives each logical axis (last first) the factors of physical axes
 *     that JAX's preference picks among all feasible ones (see best_split).
 *
 * v4 is taken in megacore mode (one device per chip, as MaxText runs it;
 * libtpu's chip_config_name "megacore"): JAX has no ring orders for it, so
 * it takes steps 2 and 3 as v5p does. v7x ("TPU7x") has two devices per
 * chip: libtpu numbers them core + 2*(chip's id), the physical mesh gains
 * a fourth axis (the cores, last), and slices of 8 to 32 devices at most
 * 2x2 chips wide take JAX's fixed tray ring instead of step 1.
 *
 * What this deliberately does not do: v2/v3 (two cores per chip, their
 * tray orders), the
 * contiguous_submeshes transposition (MaxText passes False), and slices
 * whose devices do not start at coordinate (0, 0, 0).
 */
#include "shardsim.h"

#include "base/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPHYS 4 /* x, y, z and, on v7x, the core of the chip */

ss_status ss_tpu_topology_parse(const char *text, ss_tpu_topology *out)
{
    if (!text || !out)
        return ss__fail(SS_ERR_INVALID, "ss_tpu_topology_parse: NULL argument");
    memset(out, 0, sizeof *out);
    const char *colon = strchr(text, ':');
    size_t klen = colon ? (size_t)(colon - text) : 0;
    int want = 0;
    if (klen == 3 && (strncmp(text, "v5e", 3) == 0 || strncmp(text, "v6e", 3) == 0))
        want = 2;
    else if ((klen == 3 && strncmp(text, "v5p", 3) == 0) ||
             (klen == 2 && strncmp(text, "v4", 2) == 0))
        want = 3;
    else if ((klen == 3 && strncmp(text, "v7x", 3) == 0) ||
             (klen == 5 && strncmp(text, "tpu7x", 5) == 0))
        want = 3, out->cores = 2;
    if (!want)
        return ss__fail(SS_ERR_INVALID,
                        "topology '%s': expected KIND:DIMS with KIND v5e, v6e (2-D, e.g. "
                        "v5e:4x4), v5p, v4 or v7x (3-D, e.g. v5p:4x4x4)", text);
    if (out->cores == 2)
        memcpy(out->kind, "v7x", 3);
    else
        memcpy(out->kind, text, klen), out->cores = 1;
    int cores = out->cores;
    const char *p = colon + 1;
    int n = 0;
    long chips = cores;
    for (;;) {
        char *end;
        if (*p < '0' || *p > '9' || n == want)
            break;
        long v = strtol(p, &end, 10);
        if (v < 1 || v > SS_MAX_DEVICES)
            break;
        out->dims[n++] = (int)v;
        chips *= v;
        if (chips > SS_MAX_DEVICES)
            return ss__fail(SS_ERR_INVALID, "topology '%s': more than %d devices "
                                            "(SS_MAX_DEVICES)", text, SS_MAX_DEVICES);
        p = end;
        if (*p == '\0' && n == want) {
            if (want == 2)
                out->dims[2] = 1;
            out->devices = (int)chips;
            return SS_OK;
        }
        if (*p != 'x')
            break;
        p++;
    }
    memset(out, 0, sizeof *out);
    return ss__fail(SS_ERR_INVALID, "topology '%s': %s slices are %s, e.g. %s", text,
                    want == 2 ? "v5e and v6e" : "v5p, v4 and v7x",
                    want == 2 ? "XxY" : "XxYxZ", want == 2 ? "v5e:4x4" : "v5p:4x4x4");
}

void ss_tpu_device_coords(const ss_tpu_topology *t, int id, int coords[3])
{
    int local = id % t->devices / t->cores;
    coords[0] = local % t->dims[0];
    coords[1] = local / t->dims[0] % t->dims[1];
    coords[2] = local / (t->dims[0] * t->dims[1]);
}

int ss_tpu_device_core(const ss_tpu_topology *t, int id)
{
    return id % t->devices % t->cores;
}

/* mesh_utils' _get_prime_factors as it computes: trial division by
 * 2..isqrt(x)+1, but when a prime above that bound remains, the result is
 * that prime alone (the smaller factors found are dropped: 10 gives [5]).
 * Returns the count written to f (at most 64). */
static int jax_prime_factors(int64_t x, int64_t f[64])
{
    int n = 0;
    int64_t r = 1;
    while ((r + 1) * (r + 1) <= x)
        r++;
    for (int64_t p = 2; p <= r + 1; p++) {
        while (x % p == 0 && n < 64) {
            f[n++] = p;
            x /= p;
        }
        if (x == 1)
            return n;
    }
    f[0] = x;
    return 1;
}

/* Step 1: the fixed ring orders of v5e/v6e; false when none applies.
 * Devices in (z, y, x) order are ids 0..n-1, so an order lists ids. */
static bool ring_order(const ss_tpu_topology *t, int naxes, const int64_t shape[], int ids[])
{
    static const int tray_2x2[4] = {0, 1, 3, 2};
    static const int v5e_ring[8] = {0, 1, 2, 3, 7, 6, 5, 4};
    static const int v5e_iota[8] = {0, 4, 2, 6, 1, 5, 3, 7};
    static const int tray_4x4[16] = {0, 1, 2, 3, 7, 6, 5, 9, 10, 11, 15, 14, 13, 12, 8, 4};
    static const int v7x_tray[8] = {0, 1, 2, 3, 6, 7, 4, 5};
    if (strcmp(t->kind, "v7x") == 0) {
        /* Slices of 8 to 32 devices at most 2x2 chips wide: a ring of each
         * 2x2x1 tray's eight cores, the trays in z order (whatever the mesh). */
        if (t->devices % 8 || t->devices > 32 || t->dims[0] > 2 || t->dims[1] > 2)
            return false;
        for (int i = 0; i < t->devices; i++)
            ids[i] = i / 8 * 8 + v7x_tray[i % 8];
        return true;
    }
    if (strcmp(t->kind, "v5e") != 0 && strcmp(t->kind, "v6e") != 0)
        return false;
    const int *order = NULL;
    const int *d = t->dims;
    int64_t longest = 0;
    for (int i = 0; i < naxes; i++)
        longest = shape[i] > longest ? shape[i] : longest;
    if (d[0] == 2 && d[1] == 2 && d[2] == 1 && t->devices == 4)
        order = tray_2x2;
    else if (t->devices == 8)
        order = d[0] == 2 && d[1] == 2 && d[2] == 2 ? v5e_iota : v5e_ring;
    else if (d[0] == 4 && d[1] == 4 && d[2] == 1 && t->devices == 16 && longest == 16)
        order = tray_4x4;
    if (!order)
        return false;
    memcpy(ids, order, sizeof *ids * (size_t)t->devices);
    return true;
}

/* "[a, b, c]" as Python prints a list of n ints. */
static void list_text(char *out, size_t cap, const int64_t v[], int n)
{
    size_t w = (size_t)snprintf(out, cap, "[");
    for (int i = 0; i < n && w < cap; i++)
        w += (size_t)snprintf(out + w, cap - w, "%s%lld", i ? ", " : "", (long long)v[i]);
    if (w < cap)
        snprintf(out + w, cap - w, "]");
}

/* The assignment of step 2 or 3: a[p][l] is the part of physical axis p
 * that logical axis l takes (1: none). */
typedef int64_t assign_t[NPHYS][SS_MAX_AXES];

/* Step 2. Returns false (and the message in err) when a logical axis of
 * size > 1 finds no subset; *holes is set when a physical axis of size 1
 * was left to no logical axis (JAX's transpose then fails). */
static bool whole_axes(const int dims[NPHYS], int np, int naxes, const int64_t shape[],
                       assign_t a, bool *holes, char *err, size_t cap)
{
    int64_t left[NPHYS];
    bool used[NPHYS] = {false, false, false, false};
    for (int p = 0; p < np; p++)
        left[p] = dims[p];
    for (int l = naxes - 1; l >= 0; l--) {
        bool found = false;
        for (int k = np; k >= 1 && !found; k--) {
            /* Subsets of k axes in lexicographic order of their indices. */
            int idx[NPHYS];
            for (int i = 0; i < k; i++)
                idx[i] = i;
            for (;;) {
                int64_t prod = 1;
                for (int i = 0; i < k; i++)
                    prod *= left[idx[i]];
                if (prod == shape[l]) {
                    for (int i = 0; i < k; i++) {
                        a[idx[i]][l] = dims[idx[i]];
                        left[idx[i]] = 0;
                        used[idx[i]] = true;
                    }
                    found = true;
                    break;
                }
                int i = k - 1;
                while (i >= 0 && idx[i] == np - k + i)
                    i--;
                if (i < 0)
                    break;
                idx[i]++;
                for (int j = i + 1; j < k; j++)
                    idx[j] = idx[j - 1] + 1;
            }
        }
        if (!found && shape[l] > 1) {
            char rest[128];
            list_text(rest, sizeof rest, left, np);
            snprintf(err, cap,
                     "Failed to find assignment for logical_axis_index %d of size %lld with "
                     "remaining assignable mesh %s. The size of each axis in "
                     "your logical mesh must be equal to the product of some subset of the "
                     "physical mesh axis sizes. E.g. logical mesh (4, 16) is compatible with "
                     "physical mesh 4x4x4 since 4=4 and 16=4x4. If you want to split physical "
                     "axes, set  allow_split_physical_axes to True.",
                     l, (long long)shape[l], rest);
            return false;
        }
    }
    *holes = false;
    for (int p = 0; p < np; p++)
        *holes = *holes || !used[p];
    return true;
}

/* JAX's preference among feasible assignments z of one logical axis
 * (_prefer_first_logical_axis_assignment): the larger product of the
 * physical axes z takes whole, then more whole axes of size > 1, then the
 * larger product of z over axes already used by other logical axes, then
 * the lexicographically larger z. Returns true when x beats y. */
static bool prefer(const int64_t x[NPHYS], const int64_t y[NPHYS], const int dims[NPHYS],
                   const int64_t used[NPHYS], int np)
{
    int64_t kx[3] = {1, 0, 1}, ky[3] = {1, 0, 1};
    for (int p = 0; p < np; p++) {
        if (x[p] == dims[p]) {
            kx[0] *= x[p];
            kx[1] += x[p] > 1;
        }
        if (y[p] == dims[p]) {
            ky[0] *= y[p];
            ky[1] += y[p] > 1;
        }
        if (used[p] > 1) {
            kx[2] *= x[p];
            ky[2] *= y[p];
        }
    }
    for (int i = 0; i < 3; i++)
        if (kx[i] != ky[i])
            return kx[i] > ky[i];
    for (int p = 0; p < np; p++)
        if (x[p] != y[p])
            return x[p] > y[p];
    return false;
}

typedef struct split_search {
    int nfactors;
    int64_t factor[64];   /* distinct prime factors of the logical size, ascending */
    int mult[64];         /* their multiplicities */
    int room[64][NPHYS];  /* how often factor i divides what is left of axis p (JAX's way) */
    const int *dims;
    const int64_t *used;
    int np;
    int64_t cur[NPHYS], best[NPHYS];
    bool have;
} split_search;

/* Every way to hand the copies of factor i.. to the physical axes (axis p
 * takes at most room[i][p] copies), keeping the preferred. */
static void split_enum(split_search *s, int i, int p, int left)
{
    if (i == s->nfactors) {
        if (!s->have || prefer(s->cur, s->best, s->dims, s->used, s->np)) {
            memcpy(s->best, s->cur, sizeof s->best);
            s->have = true;
        }
        return;
    }
    if (p == s->np) {
        if (left == 0)
            split_enum(s, i + 1, 0, i + 1 < s->nfactors ? s->mult[i + 1] : 0);
        return;
    }
    int64_t saved = s->cur[p];
    for (int c = 0; c <= left && c <= s->room[i][p]; c++) {
        split_enum(s, i, p + 1, left - c);
        s->cur[p] *= s->factor[i];
    }
    s->cur[p] = saved;
}

/* Step 3 (_create_device_mesh_for_nd_torus_splitting_axes). */
static bool split_axes(const int dims[NPHYS], int np, int naxes, const int64_t shape[],
                       assign_t a, char *err, size_t cap)
{
    int64_t d64[NPHYS];
    char phys[128];
    for (int p = 0; p < np; p++)
        d64[p] = dims[p];
    list_text(phys, sizeof phys, d64, np);
    for (int l = naxes - 1; l >= 0; l--) {
        split_search s;
        memset(&s, 0, sizeof s);
        int64_t f[64], used[NPHYS];
        int nf = jax_prime_factors(shape[l], f);
        for (int k = 0; k < nf; k++) {
            if (s.nfactors && s.factor[s.nfactors - 1] == f[k]) {
                s.mult[s.nfactors - 1]++;
            } else {
                s.factor[s.nfactors] = f[k];
                s.mult[s.nfactors++] = 1;
            }
        }
        for (int p = 0; p < np; p++) {
            used[p] = 1;
            for (int m = 0; m < naxes; m++)
                used[p] *= a[p][m];
            int64_t pf[64];
            int npf = jax_prime_factors(dims[p] / used[p], pf);
            for (int i = 0; i < s.nfactors; i++)
                for (int k = 0; k < npf; k++)
                    s.room[i][p] += pf[k] == s.factor[i];
        }
        s.dims = dims;
        s.used = used;
        s.np = np;
        for (int p = 0; p < np; p++)
            s.cur[p] = s.best[p] = 1;
        if (s.nfactors)
            split_enum(&s, 0, 0, s.mult[0]);
        else
            s.have = true;
        if (!s.have) {
            /* JAX then stores None in its assignment matrix. */
            snprintf(err, cap, "splitting physical axes %s finds no assignment for "
                               "logical_axis_index %d of size %lld (JAX's prime factors of an "
                               "axis drop the small ones when a large prime remains); JAX "
                               "raises TypeError: int() argument must be a string, a "
                               "bytes-like object or a real number, not 'NoneType'",
                     phys, l, (long long)shape[l]);
            return false;
        }
        for (int p = 0; p < np; p++)
            a[p][l] = s.best[p];
    }
    /* With those dropped factors an axis can get less than its size; JAX
     * goes on and numpy's reshape of the slice by the assignment fails. */
    int64_t total = 1, n = 1;
    for (int p = 0; p < np; p++)
        n *= dims[p];
    for (int p = 0; p < np; p++)
        for (int l = 0; l < naxes; l++)
            total *= a[p][l];
    if (total != n) {
        size_t w = (size_t)snprintf(err, cap, "splitting physical axes %s assigns "
                                              "the mesh axes %lld of %lld devices (JAX's prime "
                                              "factors of an axis drop the small ones when a "
                                              "large prime remains); numpy raises ValueError: "
                                              "cannot reshape array of size %lld into shape (",
                                    phys, (long long)total, (long long)n, (long long)n);
        for (int p = 0; p < np; p++)
            for (int l = 0; l < naxes && w < cap; l++)
                w += (size_t)snprintf(err + w, cap - w, "%s%lld", p || l ? "," : "",
                                      (long long)a[p][l]);
        if (w < cap)
            snprintf(err + w, cap - w, ")");
        return false;
    }
    return true;
}

/* Read an assignment out (_generate_logical_mesh): the logical coordinate
 * of axis l splits into digits over the physical axes, x major, radices
 * a[p][l]; physical coordinate p joins its digits over the logical axes,
 * the first logical axis major. Writes the local id of every mesh position. */
static void read_out(const int dims[NPHYS], int np, int naxes, const int64_t shape[],
                     assign_t a, int64_t n, int ids[])
{
    for (int64_t pos = 0; pos < n; pos++) {
        int64_t m[SS_MAX_AXES], rest = pos;
        for (int l = naxes - 1; l >= 0; l--) {
            m[l] = rest % shape[l];
            rest /= shape[l];
        }
        int64_t digit[NPHYS][SS_MAX_AXES];
        for (int l = 0; l < naxes; l++)
            for (int p = np - 1; p >= 0; p--) {
                digit[p][l] = m[l] % a[p][l];
                m[l] /= a[p][l];
            }
        int64_t c[NPHYS];
        for (int p = 0; p < np; p++) {
            c[p] = 0;
            for (int l = 0; l < naxes; l++)
                c[p] = c[p] * a[p][l] + digit[p][l];
        }
        /* libtpu's id: the core of the chip, then x, y, z */
        int64_t chip = c[0] + dims[0] * (c[1] + (int64_t)dims[1] * c[2]);
        ids[pos] = (int)(np == 4 ? c[3] + dims[3] * chip : chip);
    }
}

/* "v5e:4x4" or "v5p:4x4x4", as the topology is written. */
static void topology_name(const ss_tpu_topology *t, char *out, size_t cap)
{
    if (strcmp(t->kind, "v5e") != 0 && strcmp(t->kind, "v6e") != 0)
        snprintf(out, cap, "%s:%dx%dx%d", t->kind, t->dims[0], t->dims[1], t->dims[2]);
    else
        snprintf(out, cap, "%s:%dx%d", t->kind, t->dims[0], t->dims[1]);
}

/* One slice's order: local ids (0..devices-1) in row-major mesh order. */
static ss_status slice_order(const ss_tpu_topology *t, int naxes, const int64_t shape[],
                             bool allow_split, int ids[])
{
    if (ring_order(t, naxes, shape, ids))
        return SS_OK;
    /* The physical mesh: (x, y, z), and on v7x the chip's cores last. */
    int dims[NPHYS] = {t->dims[0], t->dims[1], t->dims[2], t->cores};
    int np = t->cores > 1 ? 4 : 3;
    assign_t a;
    for (int p = 0; p < NPHYS; p++)
        for (int l = 0; l < naxes; l++)
            a[p][l] = 1;
    char err[1024], name[64];
    bool holes = false;
    topology_name(t, name, sizeof name);
    if (!whole_axes(dims, np, naxes, shape, a, &holes, err, sizeof err)) {
        if (!allow_split)
            return ss__fail(SS_ERR_MESH, "%s: NotImplementedError: %s", name, err);
        for (int p = 0; p < NPHYS; p++)
            for (int l = 0; l < naxes; l++)
                a[p][l] = 1;
        if (!split_axes(dims, np, naxes, shape, a, err, sizeof err))
            return ss__fail(SS_ERR_MESH, "%s: %s", name, err);
    } else if (holes) {
        return ss__fail(SS_ERR_MESH, "%s: create_device_mesh leaves a physical axis of size 1 "
                                     "to no mesh axis (numpy: axes don't match array)", name);
    }
    read_out(dims, np, naxes, shape, a, t->devices, ids);
    return SS_OK;
}

ss_status ss_tpu_mesh_order(const ss_tpu_topology *t, int nslices, int naxes,
                            const int64_t ici[], const int64_t dcn[], bool allow_split,
                            int ids[])
{
    if (!t || !ici || !ids || naxes < 1 || naxes > SS_MAX_AXES || nslices < 1)
        return ss__fail(SS_ERR_INVALID, "ss_tpu_mesh_order: NULL argument or bad count");
    if (t->devices < 1 || (int64_t)t->devices * nslices > SS_MAX_DEVICES)
        return ss__fail(SS_ERR_MESH, "%s: %d slices of %d devices: more than %d devices",
                        t->kind, nslices, t->devices, SS_MAX_DEVICES);
    int64_t per = 1, slices = 1;
    for (int i = 0; i < naxes; i++) {
        if (ici[i] < 1 || (dcn && dcn[i] < 1))
            return ss__fail(SS_ERR_MESH, "ss_tpu_mesh_order: axis %d has size < 1", i);
        per *= ici[i];
        slices *= dcn ? dcn[i] : 1;
        if (per > SS_MAX_DEVICES || slices > SS_MAX_DEVICES)
            break;
    }
    if (per != t->devices)
        return ss__fail(SS_ERR_MESH, "Number of devices %d must equal the product of "
                                     "mesh_shape %lld", t->devices, (long long)per);
    if (slices != nslices)
        return ss__fail(SS_ERR_MESH, "Number of slices %d must equal the product of "
                                     "dcn_mesh_shape %lld", nslices, (long long)slices);
    int *local = malloc(sizeof *local * (size_t)t->devices);
    if (!local)
        return ss__fail(SS_ERR_NOMEM, "ss_tpu_mesh_order: out of host memory");
    ss_status st = slice_order(t, naxes, ici, allow_split, local);
    if (st) {
        free(local);
        return st;
    }
    /* np.block of the slices' meshes: mesh coordinate m is block m / ici
     * (slice number, row-major over dcn) at position m % ici. */
    int64_t total = per * nslices;
    for (int64_t pos = 0; pos < total; pos++) {
        int64_t rest = pos, slice = 0, in = 0, sstride = 1, lstride = 1;
        for (int i = naxes - 1; i >= 0; i--) {
            int64_t d = dcn ? dcn[i] : 1, size = ici[i] * d;
            int64_t m = rest % size;
            rest /= size;
            slice += (m / ici[i]) * sstride;
            in += (m % ici[i]) * lstride;
            sstride *= d;
            lstride *= ici[i];
        }
        ids[pos] = (int)(slice * per + local[in]);
    }
    free(local);
    return SS_OK;
}
