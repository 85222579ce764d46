/*
 * _core_maxtext.c — MaxText configurations for the Python package
 * (shardsim.maxtext): a loaded ss_maxtext_config lives in a capsule that
 * the Python Config object holds, so the file is read once and every
 * question (its rules, its mesh, a resolution) is asked of the same
 * configuration. Plain values out, as the rest of _core.
 */
#include "_core.h"

#include <string.h>

#define CAPSULE_NAME "shardsim.maxtext_config"

static void capsule_free(PyObject *capsule)
{
    ss_maxtext_config_free(PyCapsule_GetPointer(capsule, CAPSULE_NAME));
}

const ss_maxtext_config *ss__py_maxtext_from(PyObject *capsule)
{
    return PyCapsule_GetPointer(capsule, CAPSULE_NAME);
}

/* maxtext_load(path, model or None, overrides) -> capsule. */
PyObject *ss__py_maxtext_load(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *path_obj, *overrides;
    const char *model;
    if (!PyArg_ParseTuple(args, "OzO", &path_obj, &model, &overrides))
        return NULL;
    PyObject *fspath = PyOS_FSPath(path_obj);
    PyObject *seq = fspath ? PySequence_Fast(overrides, "overrides must be a sequence of str")
                           : NULL;
    if (!seq) {
        Py_XDECREF(fspath);
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    const char **over = PyMem_Calloc((size_t)n + 1, sizeof *over);
    const char *path = PyUnicode_Check(fspath) ? PyUnicode_AsUTF8(fspath) : NULL;
    PyObject *r = NULL;
    if (!over) {
        PyErr_NoMemory();
    } else if (!path) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "a MaxText config path must be str or a str path");
    } else {
        bool ok = true;
        for (Py_ssize_t i = 0; ok && i < n; i++)
            ok = (over[i] = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(seq, i))) != NULL;
        ss_maxtext_config *cfg = NULL;
        ss_status st = ok ? ss_maxtext_config_load(path, model, (int)n, over, &cfg) : SS_OK;
        if (ok && st != SS_OK)
            ss__py_raise(st);
        else if (ok && !(r = PyCapsule_New(cfg, CAPSULE_NAME, capsule_free)))
            ss_maxtext_config_free(cfg);
    }
    PyMem_Free(over);
    Py_DECREF(seq);
    Py_DECREF(fspath);
    return r;
}

/* A tuple of n str; NULL with the exception set. */
static PyObject *str_tuple(int n, const char *const names[])
{
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t && i < n; i++) {
        PyObject *nm = PyUnicode_FromString(names[i]);
        if (!nm)
            Py_CLEAR(t);
        else
            PyTuple_SET_ITEM(t, i, nm);
    }
    return t;
}

/* A rule's mesh axes as MaxText's YAML means them: None, () (an empty
 * list), "UNCONSTRAINED", a name, or a tuple of names. */
static PyObject *rule_axes(const ss_rule *r)
{
    if (r->kind == SS_RULE_NONE)
        return Py_NewRef(Py_None);
    if (r->kind == SS_RULE_UNCONSTRAINED)
        return PyUnicode_FromString("UNCONSTRAINED");
    if (r->kind == SS_RULE_AXES && r->naxes == 1)
        return PyUnicode_FromString(r->axes[0]);
    return str_tuple(r->naxes, r->axes);
}

/* maxtext_rules(capsule) -> [(name, axes, shadowed_by)]: the merged
 * logical_axis_rules in priority order; shadowed_by is the earlier rule
 * that keeps this one from ever applying, or -1. */
PyObject *ss__py_maxtext_rules(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *cap;
    if (!PyArg_ParseTuple(args, "O", &cap))
        return NULL;
    const ss_maxtext_config *cfg = ss__py_maxtext_from(cap);
    if (!cfg)
        return NULL;
    const ss_rules *rules = ss_maxtext_config_rules(cfg);
    PyObject *list = PyList_New(rules->count);
    for (int i = 0; list && i < rules->count; i++) {
        PyObject *axes = rule_axes(&rules->rules[i]);
        PyObject *item = axes ? Py_BuildValue("(sOi)", rules->rules[i].name, axes,
                                              ss_rules_shadowed_by(rules, i))
                              : NULL;
        Py_XDECREF(axes);
        if (!item)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, item);
    }
    return list;
}

/* maxtext_mesh_axes(capsule) -> (names): the config's mesh_axes. */
PyObject *ss__py_maxtext_mesh_axes(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *cap;
    if (!PyArg_ParseTuple(args, "O", &cap))
        return NULL;
    const ss_maxtext_config *cfg = ss__py_maxtext_from(cap);
    if (!cfg)
        return NULL;
    const char *names[SS_MAX_AXES];
    return str_tuple(ss_maxtext_config_mesh_axes(cfg, names), names);
}

/* maxtext_data_sharding(capsule) -> spec tuple: P(*data_sharding). */
PyObject *ss__py_maxtext_data_sharding(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *cap;
    if (!PyArg_ParseTuple(args, "O", &cap))
        return NULL;
    const ss_maxtext_config *cfg = ss__py_maxtext_from(cap);
    if (!cfg)
        return NULL;
    ss_spec spec;
    ss_status st = ss_maxtext_config_data_sharding(cfg, &spec);
    return st == SS_OK ? ss__py_spec_tuple(&spec) : ss__py_raise(st);
}

static PyObject *ints_list(int n, const int64_t v[])
{
    PyObject *l = PyList_New(n);
    for (int i = 0; l && i < n; i++) {
        PyObject *x = PyLong_FromLongLong(v[i]);
        if (!x)
            Py_CLEAR(l);
        else
            PyList_SET_ITEM(l, i, x);
    }
    return l;
}

/* maxtext_mesh(capsule, devices, slices, topology=None) -> ((names, sizes,
 * ids), ici, dcn): the mesh MaxText's create_device_mesh builds (on TPU
 * slices of `topology`, "v5p:4x4x4", whose chips give the devices), and
 * the filled parallelism values per mesh axis. */
PyObject *ss__py_maxtext_mesh(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *cap;
    int devices, slices;
    const char *topology = NULL;
    if (!PyArg_ParseTuple(args, "Oii|z", &cap, &devices, &slices, &topology))
        return NULL;
    const ss_maxtext_config *cfg = ss__py_maxtext_from(cap);
    if (!cfg)
        return NULL;
    ss_mesh *mesh = NULL;
    int64_t ici[SS_MAX_AXES], dcn[SS_MAX_AXES];
    ss_tpu_topology topo;
    ss_status st = topology ? ss_tpu_topology_parse(topology, &topo) : SS_OK;
    if (st == SS_OK)
        st = topology ? ss_maxtext_mesh_tpu(cfg, &topo, slices, &mesh, ici, dcn)
                      : ss_maxtext_mesh(cfg, devices, slices, &mesh, ici, dcn);
    if (st != SS_OK)
        return ss__py_raise(st);
    int na = ss_mesh_axis_count(mesh);
    PyObject *m = ss__py_mesh_tuple(mesh);
    PyObject *i = m ? ints_list(na, ici) : NULL, *d = i ? ints_list(na, dcn) : NULL;
    PyObject *r = d ? Py_BuildValue("(OOO)", m, i, d) : NULL;
    Py_XDECREF(m);
    Py_XDECREF(i);
    Py_XDECREF(d);
    ss_mesh_destroy(mesh);
    return r;
}

/* maxtext_resolve(capsule, names_spec, mesh (names, sizes, ids)) ->
 * (spec repr, [(rule, lost_rule, lost_axis, lost_to)] per dim): MaxText's
 * logical_to_mesh_axes with the config's rules on that mesh (Flax's
 * resolution, JAX's axis check, size-1 axes dropped) and why each
 * dimension resolved as it did (-1: nothing). */
PyObject *ss__py_maxtext_resolve(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *cap, *mesh_args;
    const char *names_text;
    if (!PyArg_ParseTuple(args, "OsO", &cap, &names_text, &mesh_args))
        return NULL;
    const ss_maxtext_config *cfg = ss__py_maxtext_from(cap);
    if (!cfg)
        return NULL;
    ss_spec names, out;
    ss_status st = ss_spec_parse(names_text, &names);
    if (st != SS_OK)
        return ss__py_raise(st);
    PyObject *n, *s, *i;
    ss_mesh *mesh = NULL;
    if (!PyArg_ParseTuple(mesh_args, "OOO", &n, &s, &i) || !(mesh = ss__py_mesh_from(n, s, i)))
        return NULL;
    ss_rules_decision dec[SS_MAX_RANK];
    ss_rules_options o = {.mesh = mesh, .fallback = SS_FALLBACK_UNSHARDED, .decisions = dec};
    char repr[8192];
    st = ss_rules_resolve(ss_maxtext_config_rules(cfg), &names, &o, &out, NULL);
    if (st == SS_OK)
        st = ss_spec_repr(&out, repr, sizeof repr);
    ss_mesh_destroy(mesh);
    if (st != SS_OK)
        return ss__py_raise(st);
    PyObject *why = PyList_New(names.ndims);
    for (int d = 0; why && d < names.ndims; d++) {
        PyObject *t = Py_BuildValue("(iiii)", dec[d].rule, dec[d].lost_rule, dec[d].lost_axis,
                                    dec[d].lost_to);
        if (!t)
            Py_CLEAR(why);
        else
            PyList_SET_ITEM(why, d, t);
    }
    PyObject *r = why ? Py_BuildValue("(sO)", repr, why) : NULL;
    Py_XDECREF(why);
    return r;
}
