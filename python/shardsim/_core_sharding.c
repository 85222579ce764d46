/*
 * _core_sharding.c — meshes, shardings, pictures and logical rules for the
 * Python package (shardsim._core): each function takes plain Python values
 * (axis names and sizes, device ids, a PartitionSpec's repr, a shape), builds
 * the C objects of include/shardsim.h for the call and returns plain values.
 * The classes users see (Mesh, PartitionSpec, NamedSharding) are Python,
 * in shardsim/_sharding.py.
 */
#include "_core.h"

#include <stdlib.h>
#include <string.h>

ss_mesh *ss__py_mesh_from(PyObject *names, PyObject *sizes, PyObject *ids)
{
    const char *cnames[SS_MAX_AXES];
    int64_t csizes[SS_MAX_AXES];
    Py_ssize_t n = PySequence_Size(names);
    if (n > SS_MAX_AXES) {
        PyErr_Format(PyExc_ValueError, "mesh: %zd axes; at most %d are supported (SS_MAX_AXES)",
                     n, SS_MAX_AXES);
        return NULL;
    }
    if (n < 0 || PySequence_Size(sizes) != n) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "a mesh has one size per axis name");
        return NULL;
    }
    int64_t ndev = 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *nm = PySequence_GetItem(names, i);
        PyObject *sz = PySequence_GetItem(sizes, i);
        cnames[i] = nm ? PyUnicode_AsUTF8(nm) : NULL; /* kept alive by `names` */
        csizes[i] = sz ? PyLong_AsLongLong(sz) : -1;
        Py_XDECREF(nm);
        Py_XDECREF(sz);
        if (!cnames[i] || PyErr_Occurred())
            return NULL;
        if (csizes[i] < 1 || csizes[i] > SS_MAX_DEVICES || ndev * csizes[i] > SS_MAX_DEVICES) {
            PyErr_Format(PyExc_ValueError, "mesh axis '%s' of size %lld: a mesh has 1 to %d "
                         "devices", cnames[i], (long long)csizes[i], SS_MAX_DEVICES);
            return NULL;
        }
        ndev *= csizes[i];
    }
    int *cids = NULL;
    if (ids != Py_None) {
        if (PySequence_Size(ids) != ndev) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "%zd device ids for a mesh of %lld devices",
                             PySequence_Size(ids), (long long)ndev);
            return NULL;
        }
        cids = malloc((size_t)ndev * sizeof *cids);
        if (!cids)
            return (ss_mesh *)PyErr_NoMemory();
        for (int64_t i = 0; i < ndev; i++) {
            PyObject *v = PySequence_GetItem(ids, (Py_ssize_t)i);
            long long id = v ? PyLong_AsLongLong(v) : -1;
            Py_XDECREF(v);
            if (PyErr_Occurred()) {
                free(cids);
                return NULL;
            }
            cids[i] = (id < 0 || id >= ndev) ? -1 : (int)id;
        }
    }
    ss_mesh *mesh = NULL;
    ss_status st = ss_mesh_create((int)n, cnames, csizes, (int)ndev, cids, &mesh);
    free(cids);
    if (st != SS_OK)
        return (ss_mesh *)ss__py_raise(st);
    return mesh;
}

/* A tuple of ints -> shape[]; the rank, or -1 with the exception set. */
int ss__py_shape_from(PyObject *shape, int64_t out[SS_MAX_RANK])
{
    Py_ssize_t r = PySequence_Size(shape);
    if (r < 0)
        return -1;
    if (r > SS_MAX_RANK) {
        PyErr_Format(PyExc_ValueError, "rank %zd: arrays have at most %d dimensions", r,
                     SS_MAX_RANK);
        return -1;
    }
    for (Py_ssize_t i = 0; i < r; i++) {
        PyObject *v = PySequence_GetItem(shape, i);
        out[i] = v ? PyLong_AsLongLong(v) : -1;
        Py_XDECREF(v);
        if (PyErr_Occurred())
            return -1;
        if (out[i] < 0) {
            PyErr_Format(PyExc_ValueError, "negative dimension %lld in shape",
                         (long long)out[i]);
            return -1;
        }
    }
    return (int)r;
}

static PyObject *ints_tuple(int n, const int64_t v[])
{
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t && i < n; i++) {
        PyObject *x = PyLong_FromLongLong(v[i]);
        if (!x) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

/* mesh_repr(names, sizes, ids, axis_types) -> "Mesh('data': 2, ...)" */
PyObject *ss__py_mesh_repr(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *names, *sizes, *ids;
    int axis_types;
    if (!PyArg_ParseTuple(args, "OOOp", &names, &sizes, &ids, &axis_types))
        return NULL;
    ss_mesh *mesh = ss__py_mesh_from(names, sizes, ids);
    if (!mesh)
        return NULL;
    char buf[4096];
    ss_status st = ss_mesh_repr(mesh, axis_types, buf, sizeof buf);
    ss_mesh_destroy(mesh);
    return st == SS_OK ? PyUnicode_FromString(buf) : ss__py_raise(st);
}

/* Calls fill(ctx, buf, cap, &len) with a growing buffer while it answers
 * SS_ERR_RANGE (too small), up to 64 MiB; the text as a str. */
typedef ss_status (*fill_fn)(const void *ctx, char *buf, size_t cap, size_t *len);
static PyObject *grown_text(fill_fn fill, const void *ctx)
{
    for (size_t cap = 1u << 14; cap <= (1u << 26); cap *= 4) {
        char *buf = malloc(cap);
        if (!buf)
            return PyErr_NoMemory();
        size_t len = 0;
        ss_status st = fill(ctx, buf, cap, &len);
        PyObject *r = st == SS_OK ? PyUnicode_FromStringAndSize(buf, (Py_ssize_t)len)
                                  : (st == SS_ERR_RANGE ? NULL : ss__py_raise(st));
        free(buf);
        if (r || st != SS_ERR_RANGE)
            return r;
    }
    return ss__py_raise(SS_ERR_RANGE);
}

static ss_status fill_mesh(const void *ctx, char *buf, size_t cap, size_t *len)
{
    return ss_viz_mesh(ctx, NULL, buf, cap, len);
}

/* mesh_picture(names, sizes, ids) -> the picture of the mesh's devices */
PyObject *ss__py_mesh_picture(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *names, *sizes, *ids;
    if (!PyArg_ParseTuple(args, "OOO", &names, &sizes, &ids))
        return NULL;
    ss_mesh *mesh = ss__py_mesh_from(names, sizes, ids);
    if (!mesh)
        return NULL;
    PyObject *r = grown_text(fill_mesh, mesh);
    ss_mesh_destroy(mesh);
    return r;
}

/* A sharding of mesh (names, sizes, ids) with the spec `spec_text` (a
 * PartitionSpec's repr); 0, or -1 with the exception set. */
int ss__py_sharding_from(PyObject *names, PyObject *sizes, PyObject *ids, const char *spec_text,
                         ss_mesh **mesh, ss_sharding *sh)
{
    ss_spec spec;
    ss_status st = ss_spec_parse(spec_text, &spec);
    if (st != SS_OK) {
        ss__py_raise(st);
        return -1;
    }
    *mesh = ss__py_mesh_from(names, sizes, ids);
    if (!*mesh)
        return -1;
    ss_sharding_init(sh, *mesh, &spec);
    st = ss_sharding_validate(sh);
    if (st != SS_OK) {
        ss_mesh_destroy(*mesh);
        *mesh = NULL;
        ss__py_raise(st);
        return -1;
    }
    return 0;
}

/* The shards as a list of (device, position, start, stop, replica_id). */
static PyObject *shards_list(const ss_sharding *sh, int rank, const int64_t shape[],
                             ss_dtype dt)
{
    int ndev = ss_mesh_device_count(sh->mesh);
    ss_shard *shards = malloc((size_t)ndev * sizeof *shards);
    if (!shards)
        return PyErr_NoMemory();
    ss_status st = ss_sharding_shards(sh, rank, shape, dt, shards, ndev);
    PyObject *list = st == SS_OK ? PyList_New(ndev) : ss__py_raise(st);
    for (int i = 0; list && i < ndev; i++) {
        PyObject *start = ints_tuple(rank, shards[i].start);
        PyObject *stop = ints_tuple(rank, shards[i].stop);
        PyObject *item = start && stop ? Py_BuildValue("(iiOOi)", shards[i].device,
                                                       shards[i].position, start, stop,
                                                       shards[i].replica_id)
                                       : NULL;
        Py_XDECREF(start);
        Py_XDECREF(stop);
        if (!item) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, item);
    }
    free(shards);
    return list;
}

/* sharding_info(names, sizes, ids, spec, shape or None, dtype) -> dict:
 * repr, replicated, and with a shape: shard_shape, shards, hlo. The
 * checks JAX makes (axes in the mesh, no axis twice; with a shape: rank,
 * divisibility) raise with JAX's wording. */
PyObject *ss__py_sharding_info(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *names, *sizes, *ids, *shape_obj;
    const char *spec_text, *dtype_name;
    if (!PyArg_ParseTuple(args, "OOOsOs", &names, &sizes, &ids, &spec_text, &shape_obj,
                          &dtype_name))
        return NULL;
    ss_dtype dt;
    ss_status st = ss_dtype_parse(dtype_name, &dt);
    if (st != SS_OK)
        return ss__py_raise(st);
    ss_mesh *mesh;
    ss_sharding sh;
    if (ss__py_sharding_from(names, sizes, ids, spec_text, &mesh, &sh) != 0)
        return NULL;
    char repr[8192];
    PyObject *d = NULL;
    st = ss_sharding_repr(&sh, repr, sizeof repr);
    if (st != SS_OK) {
        ss__py_raise(st);
        goto done;
    }
    d = Py_BuildValue("{s:s,s:O}", "repr", repr, "replicated",
                      ss_sharding_is_replicated(&sh) ? Py_True : Py_False);
    if (!d || shape_obj == Py_None)
        goto done;
    int64_t shape[SS_MAX_RANK], block[SS_MAX_RANK];
    int rank = ss__py_shape_from(shape_obj, shape);
    if (rank < 0 || (st = ss_sharding_check(&sh, rank, shape)) != SS_OK ||
        (st = ss_sharding_shard_shape(&sh, rank, shape, block)) != SS_OK ||
        (st = ss_sharding_to_hlo(&sh, rank, repr, sizeof repr)) != SS_OK) {
        if (rank >= 0)
            ss__py_raise(st);
        Py_CLEAR(d);
        goto done;
    }
    PyObject *bs = ints_tuple(rank, block);
    PyObject *shards = bs ? shards_list(&sh, rank, shape, dt) : NULL;
    PyObject *hlo = shards ? PyUnicode_FromString(repr) : NULL;
    if (!hlo || PyDict_SetItemString(d, "shard_shape", bs) != 0 ||
        PyDict_SetItemString(d, "shards", shards) != 0 ||
        PyDict_SetItemString(d, "hlo", hlo) != 0)
        Py_CLEAR(d);
    Py_XDECREF(bs);
    Py_XDECREF(shards);
    Py_XDECREF(hlo);
done:
    ss_mesh_destroy(mesh);
    return d;
}

typedef struct viz_args {
    const ss_sharding *sh;
    int rank;
    const int64_t *shape;
    ss_viz_options opts;
} viz_args;

static ss_status fill_viz(const void *ctx, char *buf, size_t cap, size_t *len)
{
    const viz_args *a = ctx;
    return ss_viz_sharding_nd(a->sh, a->rank, a->shape, -1, -1, &a->opts, buf, cap, len);
}

/* visualize(names, sizes, ids, spec, shape, color, max_width, platform) ->
 * jax.debug.visualize_array_sharding's picture (one per block of the
 * leading dims for rank > 2). */
PyObject *ss__py_visualize(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *names, *sizes, *ids, *shape_obj;
    const char *spec_text, *platform;
    int color, max_width;
    if (!PyArg_ParseTuple(args, "OOOsOpis", &names, &sizes, &ids, &spec_text, &shape_obj,
                          &color, &max_width, &platform))
        return NULL;
    int64_t shape[SS_MAX_RANK];
    int rank = ss__py_shape_from(shape_obj, shape);
    if (rank < 0)
        return NULL;
    ss_mesh *mesh;
    ss_sharding sh;
    if (ss__py_sharding_from(names, sizes, ids, spec_text, &mesh, &sh) != 0)
        return NULL;
    viz_args a = {.sh = &sh, .rank = rank, .shape = shape,
                  .opts = {.platform = platform, .max_width = max_width, .color = color}};
    PyObject *r = grown_text(fill_viz, &a);
    ss_mesh_destroy(mesh);
    return r;
}

/* resolve_rules(rules, names_spec, mesh (names, sizes, ids) or None, strict,
 * fallback) -> (spec repr, constrained): Flax's logical_to_mesh_axes. */
PyObject *ss__py_resolve_rules(PyObject *self, PyObject *args)
{
    (void)self;
    const char *rules_text, *names_text;
    PyObject *mesh_args;
    int strict, fallback;
    if (!PyArg_ParseTuple(args, "ssOpi", &rules_text, &names_text, &mesh_args, &strict,
                          &fallback))
        return NULL;
    if (fallback < SS_FALLBACK_UNSHARDED || fallback > SS_FALLBACK_NO_CONSTRAINT) {
        PyErr_SetString(PyExc_ValueError, "fallback must be 0, 1 or 2");
        return NULL;
    }
    ss_spec names, out;
    ss_rules rules = {0};
    ss_status st = ss_spec_parse(names_text, &names);
    if (st != SS_OK || (st = ss_rules_parse(rules_text, &rules)) != SS_OK)
        return ss__py_raise(st);
    ss_mesh *mesh = NULL;
    if (mesh_args != Py_None) {
        PyObject *n, *s, *i;
        if (!PyArg_ParseTuple(mesh_args, "OOO", &n, &s, &i) || !(mesh = ss__py_mesh_from(n, s, i))) {
            ss_rules_free(&rules);
            return NULL;
        }
    }
    ss_rules_options o = {.mesh = mesh, .strict = strict,
                          .fallback = (ss_rules_fallback)fallback};
    int constrained = 1;
    char repr[8192];
    st = ss_rules_resolve(&rules, &names, &o, &out, &constrained);
    if (st == SS_OK)
        st = ss_spec_repr(&out, repr, sizeof repr);
    ss_rules_free(&rules);
    ss_mesh_destroy(mesh);
    if (st != SS_OK)
        return ss__py_raise(st);
    return Py_BuildValue("(sO)", repr, constrained ? Py_True : Py_False);
}
