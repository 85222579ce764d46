/*
 * _core_ckpt.c — checkpoints for shardsim.checkpoint: restore a committed
 * step into target shardings and return each array's global values; save
 * host arrays, each put on virtual devices in its sharding, in Orbax's
 * layout. Each call makes its own context of virtual devices (arenas are
 * reserved, not committed) and frees it before returning; the work runs
 * with the GIL released. Python passes plain values: meshes as (names,
 * sizes, device ids) and specs as PartitionSpec reprs.
 */
#include "_core.h"

#include <string.h>

/* One array's sharding from (mesh, spec_text), either None: then *mesh is
 * NULL and sh->mesh NULL. 0, or -1 with the exception set. */
static int sharding_of(PyObject *mesh_obj, PyObject *spec_obj, ss_mesh **mesh, ss_sharding *sh)
{
    memset(sh, 0, sizeof *sh);
    *mesh = NULL;
    if (mesh_obj == Py_None)
        return 0;
    PyObject *names, *sizes, *ids;
    if (!PyArg_ParseTuple(mesh_obj, "OOO", &names, &sizes, &ids))
        return -1;
    const char *spec = spec_obj == Py_None ? "P()" : PyUnicode_AsUTF8(spec_obj);
    return spec ? ss__py_sharding_from(names, sizes, ids, spec, mesh, sh) : -1;
}

static ss_status make_context(int ndevices, ss_context **ctx)
{
    ss_context_options co = {.ndevices = ndevices, .timeout = 60};
    return ss_context_create(&co, ctx);
}

PyObject *ss__py_ckpt_names(PyObject *self, PyObject *args)
{
    (void)self;
    const char *dir, *item;
    long long step;
    if (!PyArg_ParseTuple(args, "sLz", &dir, &step, &item))
        return NULL;
    ss_ckpt *ck = NULL;
    ss_status st;
    Py_BEGIN_ALLOW_THREADS
    st = ss_ckpt_open(dir, step, item, &ck);
    Py_END_ALLOW_THREADS
    if (st != SS_OK)
        return ss__py_raise(st);
    int n = ss_ckpt_array_count(ck);
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *nm = PyUnicode_FromString(ss_ckpt_array_name(ck, i));
        if (!nm)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, nm);
    }
    ss_ckpt_close(ck);
    return list;
}

typedef struct {
    int n;
    ss_ckpt_target *targets;
    ss_mesh **meshes;
    PyObject *keep; /* the name strings the targets borrow */
} target_set;

static void targets_free(target_set *t)
{
    for (int i = 0; t->meshes && i < t->n; i++)
        ss_mesh_destroy(t->meshes[i]);
    PyMem_Free(t->meshes);
    PyMem_Free(t->targets);
    Py_XDECREF(t->keep);
}

/* targets: [(name, dtype, shape, mesh or None, spec or None)] */
static int targets_from(PyObject *list, target_set *t)
{
    memset(t, 0, sizeof *t);
    Py_ssize_t n = PySequence_Size(list);
    if (n < 0)
        return -1;
    t->n = (int)n;
    t->targets = PyMem_Calloc((size_t)n + 1, sizeof *t->targets);
    t->meshes = PyMem_Calloc((size_t)n + 1, sizeof *t->meshes);
    t->keep = PyList_New(0);
    if (!t->targets || !t->meshes || !t->keep) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_GetItem(list, i);
        const char *name, *dtype;
        PyObject *shape, *mesh, *spec;
        int ok = item && PyArg_ParseTuple(item, "ssOOO", &name, &dtype, &shape, &mesh, &spec);
        if (ok)
            ok = PyList_Append(t->keep, item) == 0; /* keeps `name` alive */
        Py_XDECREF(item);
        if (!ok)
            return -1;
        ss_ckpt_target *tg = &t->targets[i];
        tg->name = name;
        ss_status st = ss_dtype_parse(dtype, &tg->dtype);
        if (st != SS_OK) {
            ss__py_raise(st);
            return -1;
        }
        if ((tg->rank = ss__py_shape_from(shape, tg->shape)) < 0 ||
            sharding_of(mesh, spec, &t->meshes[i], &tg->sharding) != 0)
            return -1;
    }
    return 0;
}

/* One restored array: (name, bytearray of its global values, spec, mesh,
 * used_saved_sharding). */
static PyObject *restored(const ss_ckpt_state *state, int i)
{
    ss_array *a = ss_ckpt_state_array(state, i);
    size_t bytes = ss_dtype_size(ss_array_dtype(a));
    for (int d = 0; d < ss_array_rank(a); d++)
        bytes *= (size_t)ss_array_shape(a)[d];
    PyObject *data = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)bytes);
    if (!data)
        return NULL;
    ss_status st;
    Py_BEGIN_ALLOW_THREADS
    st = ss_array_get(a, PyByteArray_AS_STRING(data), bytes);
    Py_END_ALLOW_THREADS
    if (st != SS_OK) {
        Py_DECREF(data);
        return ss__py_raise(st);
    }
    const ss_sharding *sh = ss_array_sharding(a);
    PyObject *spec = ss__py_spec_tuple(&sh->spec);
    PyObject *mesh = spec ? ss__py_mesh_tuple(sh->mesh) : NULL;
    PyObject *r = mesh ? Py_BuildValue("(sOOOO)", ss_ckpt_state_name(state, i), data, spec, mesh,
                                       ss_ckpt_state_used_saved_sharding(state, i) ? Py_True
                                                                                     : Py_False)
                       : NULL;
    Py_DECREF(data);
    Py_XDECREF(spec);
    Py_XDECREF(mesh);
    return r;
}

PyObject *ss__py_ckpt_restore(PyObject *self, PyObject *args)
{
    (void)self;
    const char *dir, *item;
    long long step;
    int partial, ndevices;
    PyObject *list;
    if (!PyArg_ParseTuple(args, "sLzpiO", &dir, &step, &item, &partial, &ndevices, &list))
        return NULL;
    target_set t;
    if (targets_from(list, &t) != 0) {
        targets_free(&t);
        return NULL;
    }
    ss_context *ctx = NULL;
    ss_ckpt_state *state = NULL;
    ss_ckpt_restore_options ro = {.item = item, .partial = partial};
    ss_status st;
    Py_BEGIN_ALLOW_THREADS
    st = make_context(ndevices, &ctx);
    if (st == SS_OK)
        st = ss_ckpt_restore(ctx, dir, step, t.n, t.targets, &ro, &state, NULL);
    Py_END_ALLOW_THREADS
    PyObject *out = st == SS_OK ? PyList_New(t.n) : ss__py_raise(st);
    for (int i = 0; out && i < t.n; i++) {
        PyObject *r = restored(state, i);
        if (!r)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, r);
    }
    ss_ckpt_state_destroy(state);
    ss_context_destroy(ctx);
    targets_free(&t);
    return out;
}

PyObject *ss__py_ckpt_save(PyObject *self, PyObject *args)
{
    (void)self;
    const char *dir, *item;
    long long step;
    int ocdbt, force, ndevices;
    PyObject *list, *values;
    if (!PyArg_ParseTuple(args, "sLzppiOO", &dir, &step, &item, &ocdbt, &force, &ndevices, &list,
                          &values))
        return NULL;
    target_set t;
    Py_ssize_t nv = PySequence_Size(values);
    if (targets_from(list, &t) != 0 || nv != t.n) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "ckpt_save: one value per array");
        targets_free(&t);
        return NULL;
    }
    ss_context *ctx = NULL;
    ss_status st = make_context(ndevices, &ctx);
    ss_array **arrays = PyMem_Calloc((size_t)t.n + 1, sizeof *arrays);
    const char **names = PyMem_Calloc((size_t)t.n + 1, sizeof *names);
    ss_mesh *one = NULL; /* arrays without a sharding: whole on device 0 */
    if (st == SS_OK && (!arrays || !names)) {
        PyErr_NoMemory();
        st = SS_ERR_NOMEM;
    } else if (st != SS_OK) {
        ss__py_raise(st);
    }
    for (int i = 0; st == SS_OK && i < t.n; i++) {
        ss_ckpt_target *tg = &t.targets[i];
        names[i] = tg->name;
        if (!tg->sharding.mesh) {
            ss_spec none = {0};
            if (!one && (st = ss_mesh_make("d=1", 1, NULL, &one)) != SS_OK) {
                ss__py_raise(st);
                break;
            }
            ss_sharding_init(&tg->sharding, one, &none);
        }
        PyObject *v = PySequence_GetItem(values, i);
        Py_buffer view;
        if (!v || PyObject_GetBuffer(v, &view, PyBUF_C_CONTIGUOUS) != 0) {
            Py_XDECREF(v);
            st = SS_ERR_INVALID;
            break;
        }
        Py_BEGIN_ALLOW_THREADS
        st = ss_array_put(ctx, &tg->sharding, tg->rank, tg->shape, tg->dtype, view.buf, tg->name,
                          &arrays[i]);
        Py_END_ALLOW_THREADS
        PyBuffer_Release(&view);
        Py_DECREF(v);
        if (st != SS_OK)
            ss__py_raise(st);
    }
    ss_ckpt_save_options so = {.item = item, .ocdbt = ocdbt, .force = force};
    ss_ckpt_stats stats = {0};
    if (st == SS_OK) {
        Py_BEGIN_ALLOW_THREADS
        st = ss_ckpt_save(ctx, dir, step, t.n, names, arrays, &so, &stats);
        Py_END_ALLOW_THREADS
        if (st != SS_OK)
            ss__py_raise(st);
    }
    for (int i = 0; arrays && i < t.n; i++)
        ss_array_destroy(arrays[i]);
    PyMem_Free(arrays);
    PyMem_Free(names);
    ss_context_destroy(ctx);
    ss_mesh_destroy(one);
    targets_free(&t);
    return st == SS_OK ? PyLong_FromUnsignedLongLong(stats.bytes_written) : NULL;
}
