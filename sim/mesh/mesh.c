/*
 * mesh.c — named device meshes.
 *
 * A mesh is a row-major grid of mesh positions over named axes; each
 * position carries a device id. On CPU JAX's make_mesh gives ids equal to
 * positions; TPU-like orders are given explicitly. Nothing here allocates
 * device memory: several meshes may share the same devices.
 */
#include "mesh_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static ss_status check_name(const char *name)
{
    if (!name || !name[0])
        return ss__fail(SS_ERR_MESH, "mesh: an axis name is empty");
    return SS_OK;
}

ss_status ss_mesh_create(int naxes, const char *const names[], const int64_t sizes[],
                         int ndevices, const int *device_ids, ss_mesh **out)
{
    *out = NULL;
    if (naxes < 0 || naxes > SS_MAX_AXES)
        return ss__fail(SS_ERR_MESH, "mesh: %d axes; at most %d are supported (SS_MAX_AXES)",
                        naxes, SS_MAX_AXES);
    if (ndevices < 1 || ndevices > SS_MAX_DEVICES)
        return ss__fail(SS_ERR_MESH, "mesh: device count %d is outside 1..%d (SS_MAX_DEVICES)",
                        ndevices, SS_MAX_DEVICES);

    int64_t resolved[SS_MAX_AXES];
    const char *interned[SS_MAX_AXES];
    char q[SS__PY_REPR_MAX], q2[SS__PY_REPR_MAX];
    int inferred = -1;
    int64_t known = 1;
    for (int i = 0; i < naxes; i++) {
        ss_status st = check_name(names[i]);
        if (st)
            return st;
        for (int j = 0; j < i; j++)
            if (strcmp(names[i], names[j]) == 0)
                return ss__fail(SS_ERR_MESH, "mesh: axis name %s appears twice",
                                ss__py_repr(names[i], q, sizeof q));
        if (sizes[i] == -1) {
            if (inferred >= 0)
                return ss__fail(SS_ERR_MESH,
                                "mesh: axes %s and %s are both -1; at most one size may be "
                                "inferred",
                                ss__py_repr(names[inferred], q, sizeof q),
                                ss__py_repr(names[i], q2, sizeof q2));
            inferred = i;
            continue;
        }
        if (sizes[i] < 1)
            return ss__fail(SS_ERR_MESH, "mesh: axis %s has size %lld; sizes must be >= 1",
                            ss__py_repr(names[i], q, sizeof q), (long long)sizes[i]);
        if (sizes[i] > SS_MAX_DEVICES || known * sizes[i] > (int64_t)SS_MAX_DEVICES * 2)
            return ss__fail(SS_ERR_MESH,
                            "mesh: the product of the axis sizes exceeds %d devices",
                            SS_MAX_DEVICES);
        known *= sizes[i];
        resolved[i] = sizes[i];
    }
    for (int i = 0; i < naxes; i++) {
        ss_status st = ss_name_intern(names[i], &interned[i]);
        if (st)
            return st;
    }
    if (inferred >= 0) {
        if (ndevices % known != 0)
            return ss__fail(SS_ERR_MESH,
                            "mesh: cannot infer the size of axis %s: %d devices are not "
                            "divisible by the other axes' product %lld",
                            ss__py_repr(names[inferred], q, sizeof q), ndevices,
                            (long long)known);
        resolved[inferred] = ndevices / known;
        known = ndevices;
    }
    if (known != ndevices) {
        ss__buf b;
        ss__buf_init(&b);
        ss__buf_int_tuple(&b, naxes, resolved);
        ss_status st = ss__fail(SS_ERR_MESH,
                                "Number of devices %d must equal the product of mesh_shape %s",
                                ndevices, b.data ? b.data : "()");
        ss__buf_free(&b);
        return st;
    }

    ss_mesh *m = calloc(1, sizeof *m);
    if (!m)
        return ss__fail(SS_ERR_NOMEM, "mesh: out of host memory");
    m->ids = malloc(sizeof(int) * (size_t)ndevices);
    m->pos_of = malloc(sizeof(int) * (size_t)ndevices);
    if (!m->ids || !m->pos_of) {
        ss_mesh_destroy(m);
        return ss__fail(SS_ERR_NOMEM, "mesh: out of host memory");
    }
    m->naxes = naxes;
    m->ndevices = ndevices;
    for (int i = 0; i < naxes; i++) {
        m->names[i] = interned[i];
        m->sizes[i] = resolved[i];
    }
    for (int i = 0; i < ndevices; i++)
        m->pos_of[i] = -1;
    m->iota = true;
    for (int p = 0; p < ndevices; p++) {
        int id = device_ids ? device_ids[p] : p;
        if (id < 0 || id >= ndevices) {
            ss_mesh_destroy(m);
            return ss__fail(SS_ERR_MESH, "mesh: device id %d at position %d is outside 0..%d", id,
                            p, ndevices - 1);
        }
        if (m->pos_of[id] >= 0) {
            ss_mesh_destroy(m);
            return ss__fail(SS_ERR_MESH, "mesh: device id %d appears twice in the device order",
                            id);
        }
        m->ids[p] = id;
        m->pos_of[id] = p;
        if (id != p)
            m->iota = false;
    }
    *out = m;
    return SS_OK;
}

typedef struct mesh_axes {
    int n;
    const char *name_ptrs[SS_MAX_AXES]; /* the pool's copies */
    int64_t sizes[SS_MAX_AXES];
} mesh_axes;

/* Parse "name=size" items separated by ',' or whitespace. */
static ss_status parse_axes(const char *text, mesh_axes *ax)
{
    const char *p = text;
    ax->n = 0;
    for (;;) {
        while (*p == ',' || isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        int n = ax->n;
        if (n == SS_MAX_AXES)
            return ss__fail(SS_ERR_PARSE, "mesh '%s': more than %d axes (SS_MAX_AXES)", text,
                            SS_MAX_AXES);
        size_t len = 0;
        while (p[len] && (isalnum((unsigned char)p[len]) || p[len] == '_' || p[len] == '-'))
            len++;
        if (len == 0 || (p[len] != '=' && p[len] != ':'))
            return ss__fail(SS_ERR_PARSE,
                            "mesh '%s': expected name=size at column %d (e.g. data=2,model=4)",
                            text, (int)(p - text) + 1);
        ss_status st = ss__name_intern_n(p, len, &ax->name_ptrs[n]);
        if (st)
            return st;
        p += len + 1;
        char *end;
        errno = 0;
        long long v = strtoll(p, &end, 10);
        if (end == p || (*end && *end != ',' && !isspace((unsigned char)*end)))
            return ss__fail(SS_ERR_PARSE,
                            "mesh '%s': axis '%s' needs an integer size at column %d", text,
                            ax->name_ptrs[n], (int)(p - text) + 1);
        if (errno == ERANGE)
            return ss__fail(SS_ERR_PARSE,
                            "mesh '%s': axis '%s' size at column %d is beyond 64-bit integers",
                            text, ax->name_ptrs[n], (int)(p - text) + 1);
        ax->sizes[n] = v;
        ax->n++;
        p = end;
    }
    return SS_OK;
}

ss_status ss_mesh_parse(const char *text, int ndevices, const int *device_ids, ss_mesh **out)
{
    mesh_axes ax;
    *out = NULL;
    ss_status st = parse_axes(text, &ax);
    if (st)
        return st;
    return ss_mesh_create(ax.n, ax.name_ptrs, ax.sizes, ndevices, device_ids, out);
}

ss_status ss_mesh_make(const char *text, int available, const int *device_ids, ss_mesh **out)
{
    mesh_axes ax;
    *out = NULL;
    ss_status st = parse_axes(text, &ax);
    if (st)
        return st;
    /* JAX compares math.prod(mesh_shape) (a Python int, never wrapping):
     * a product past int64 is simply more than the devices available. */
    int64_t product = 1;
    bool infer = false, huge = false;
    for (int i = 0; i < ax.n; i++) {
        if (ax.sizes[i] == -1)
            infer = true;
        else if (ax.sizes[i] >= 1 && !ss__mul_i64_checked(product, ax.sizes[i], &product))
            huge = true;
    }
    if (huge)
        product = INT64_MAX;
    if (!infer && product > available) {
        ss__buf b;
        ss__buf_init(&b);
        ss__buf_int_tuple(&b, ax.n, ax.sizes);
        st = ss__fail(SS_ERR_MESH, "Number of devices %d must be >= the product of mesh_shape %s",
                      available, b.data ? b.data : "()");
        ss__buf_free(&b);
        return st;
    }
    int n = infer ? available : (int)product;
    return ss_mesh_create(ax.n, ax.name_ptrs, ax.sizes, n, device_ids, out);
}

void ss_mesh_destroy(ss_mesh *mesh)
{
    if (!mesh)
        return;
    free(mesh->ids);
    free(mesh->pos_of);
    free(mesh);
}

int ss_mesh_axis_count(const ss_mesh *mesh) { return mesh->naxes; }

const char *ss_mesh_axis_name(const ss_mesh *mesh, int axis)
{
    return (axis >= 0 && axis < mesh->naxes) ? mesh->names[axis] : NULL;
}

int64_t ss_mesh_axis_size(const ss_mesh *mesh, int axis)
{
    return (axis >= 0 && axis < mesh->naxes) ? mesh->sizes[axis] : 0;
}

int ss_mesh_axis_index(const ss_mesh *mesh, const char *name)
{
    /* The mesh's names are interned (names.c), and so are the axis names
     * specs and collectives store: most lookups end at the pointer. */
    for (int i = 0; i < mesh->naxes; i++)
        if (mesh->names[i] == name)
            return i;
    for (int i = 0; i < mesh->naxes; i++)
        if (strcmp(mesh->names[i], name) == 0)
            return i;
    return -1;
}

int ss_mesh_device_count(const ss_mesh *mesh) { return mesh->ndevices; }

int ss_mesh_device_id(const ss_mesh *mesh, int pos)
{
    return (pos >= 0 && pos < mesh->ndevices) ? mesh->ids[pos] : -1;
}

int ss_mesh_position_of(const ss_mesh *mesh, int id)
{
    return (id >= 0 && id < mesh->ndevices) ? mesh->pos_of[id] : -1;
}

void ss_mesh_coords(const ss_mesh *mesh, int pos, int64_t coords[])
{
    int64_t rest = pos;
    for (int i = mesh->naxes - 1; i >= 0; i--) {
        coords[i] = rest % mesh->sizes[i];
        rest /= mesh->sizes[i];
    }
}

int ss_mesh_is_iota(const ss_mesh *mesh) { return mesh->iota; }

ss_status ss_mesh_repr(const ss_mesh *mesh, int axis_types, char *buf, size_t cap)
{
    ss__buf b;
    ss__buf_init(&b);
    ss__mesh_repr_buf(&b, mesh, axis_types);
    ss_status st = ss__buf_copy_out(&b, buf, cap, NULL);
    ss__buf_free(&b);
    return st;
}

void ss__mesh_repr_buf(ss__buf *b, const ss_mesh *mesh, int axis_types)
{
    ss__buf_puts(b, "Mesh(");
    for (int i = 0; i < mesh->naxes; i++) {
        if (i)
            ss__buf_puts(b, ", ");
        /* JAX formats the names with f"'{k}'", not repr(): a name holding
         * a quote prints as it is, exactly as JAX prints it. */
        ss__buf_printf(b, "'%s': %lld", mesh->names[i], (long long)mesh->sizes[i]);
    }
    if (axis_types && mesh->naxes > 0) {
        ss__buf_puts(b, ", axis_types=(");
        for (int i = 0; i < mesh->naxes; i++)
            ss__buf_puts(b, i ? ", Auto" : "Auto");
        ss__buf_puts(b, mesh->naxes == 1 ? ",)" : ")");
    }
    ss__buf_putc(b, ')');
}
