/*
 * _core.c — the module shardsim._core: its functions, and the mapping of
 * library statuses to the exception classes defined in shardsim/errors.py
 * (looked up once at import, so the classes users catch are plain Python).
 */
#include "_core.h"

static PyObject *error_classes[32]; /* indexed by -status; [0] ShardsimError */

static PyObject *class_of(ss_status st)
{
    int k = -(int)st;
    if (k > 0 && k < 32 && error_classes[k])
        return error_classes[k];
    return error_classes[0] ? error_classes[0] : PyExc_RuntimeError;
}

/* exc.name = value, taking the reference to value; -1 on failure. */
static int set_attr(PyObject *exc, const char *name, PyObject *value)
{
    int rc = value ? PyObject_SetAttrString(exc, name, value) : -1;
    Py_XDECREF(value);
    return rc;
}

PyObject *ss__py_raise_at(ss_status st, const char *message, int line, int col,
                          const char *source_line)
{
    if (st == SS_ERR_NOMEM && !message[0])
        return PyErr_NoMemory();
    PyObject *cls = class_of(st);
    PyObject *exc = PyObject_CallFunction(cls, "s", message[0] ? message : ss_status_string(st));
    if (!exc)
        return NULL;
    if (set_attr(exc, "status", PyUnicode_FromString(ss_status_name(st))) != 0 ||
        (line > 0 && (set_attr(exc, "line", PyLong_FromLong(line)) != 0 ||
                      set_attr(exc, "col", PyLong_FromLong(col)) != 0 ||
                      set_attr(exc, "source_line", PyUnicode_FromString(source_line)) != 0))) {
        Py_DECREF(exc);
        return NULL;
    }
    PyErr_SetObject(cls, exc);
    Py_DECREF(exc);
    return NULL;
}

PyObject *ss__py_raise(ss_status st)
{
    return ss__py_raise_at(st, ss_error_message(), 0, 0, "");
}

/* parse_size(text) -> bytes, as the command line reads --device-memory. */
static PyObject *parse_size(PyObject *self, PyObject *args)
{
    (void)self;
    const char *text;
    if (!PyArg_ParseTuple(args, "s", &text))
        return NULL;
    size_t bytes = 0;
    ss_status st = ss_size_parse(text, &bytes);
    return st == SS_OK ? PyLong_FromSize_t(bytes) : ss__py_raise(st);
}

/* format_size(bytes) -> "1.5 MiB", as the reports write byte counts. */
static PyObject *format_size(PyObject *self, PyObject *args)
{
    (void)self;
    double bytes;
    if (!PyArg_ParseTuple(args, "d", &bytes))
        return NULL;
    char out[32];
    ss_size_format(out, sizeof out, bytes);
    return PyUnicode_FromString(out);
}

static PyMethodDef methods[] = {
    {"parse_size", parse_size, METH_VARARGS, "parse_size(text) -> bytes (\"16GiB\", \"512MiB\")"},
    {"format_size", format_size, METH_VARARGS, "format_size(bytes) -> \"1.5 MiB\" (the reports' style)"},
    {"mesh_repr", ss__py_mesh_repr, METH_VARARGS,
     "mesh_repr(names, sizes, device_ids, axis_types) -> str"},
    {"mesh_picture", ss__py_mesh_picture, METH_VARARGS,
     "mesh_picture(names, sizes, device_ids) -> str"},
    {"sharding_info", ss__py_sharding_info, METH_VARARGS,
     "sharding_info(names, sizes, device_ids, spec, shape, dtype) -> dict"},
    {"visualize", ss__py_visualize, METH_VARARGS,
     "visualize(names, sizes, device_ids, spec, shape, color, max_width, platform) -> str"},
    {"resolve_rules", ss__py_resolve_rules, METH_VARARGS,
     "resolve_rules(rules, names, mesh, strict, fallback) -> (spec, constrained)"},
    {"ckpt_names", ss__py_ckpt_names, METH_VARARGS,
     "ckpt_names(dir, step, item) -> [array names] of a committed step"},
    {"ckpt_restore", ss__py_ckpt_restore, METH_VARARGS,
     "ckpt_restore(dir, step, item, partial, ndevices, targets) -> [(name, data, spec, mesh, "
     "used_saved)]"},
    {"ckpt_save", ss__py_ckpt_save, METH_VARARGS,
     "ckpt_save(dir, step, item, ocdbt, force, ndevices, arrays) -> bytes written"},
    {"maxtext_load", ss__py_maxtext_load, METH_VARARGS,
     "maxtext_load(path, model, overrides) -> a loaded MaxText config"},
    {"maxtext_rules", ss__py_maxtext_rules, METH_VARARGS,
     "maxtext_rules(config) -> [(name, axes, shadowed_by)]"},
    {"maxtext_mesh_axes", ss__py_maxtext_mesh_axes, METH_VARARGS,
     "maxtext_mesh_axes(config) -> (names)"},
    {"maxtext_data_sharding", ss__py_maxtext_data_sharding, METH_VARARGS,
     "maxtext_data_sharding(config) -> spec tuple"},
    {"maxtext_mesh", ss__py_maxtext_mesh, METH_VARARGS,
     "maxtext_mesh(config, devices, slices, topology=None) -> ((names, sizes, ids), ici, "
     "dcn)"},
    {"maxtext_resolve", ss__py_maxtext_resolve, METH_VARARGS,
     "maxtext_resolve(config, names, mesh) -> (spec, [(rule, lost_rule, lost_axis, lost_to)])"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "shardsim._core",
    "The C core of shardsim (include/shardsim.h) for the Python package.", -1, methods,
    NULL, NULL, NULL, NULL,
};

/* Each status's class from shardsim.errors.CLASS_OF_STATUS (a dict of
 * status names such as "SS_ERR_AXIS" to classes). */
static int load_error_classes(void)
{
    PyObject *errors = PyImport_ImportModule("shardsim.errors");
    if (!errors)
        return -1;
    PyObject *map = PyObject_GetAttrString(errors, "CLASS_OF_STATUS");
    PyObject *base = PyObject_GetAttrString(errors, "ShardsimError");
    Py_DECREF(errors);
    if (!map || !base || !PyDict_Check(map)) {
        Py_XDECREF(map);
        Py_XDECREF(base);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ImportError, "shardsim.errors.CLASS_OF_STATUS is not a dict");
        return -1;
    }
    error_classes[0] = base; /* kept for the life of the process */
    for (int k = 1; k < 32; k++) {
        const char *name = ss_status_name((ss_status)-k);
        PyObject *cls = PyDict_GetItemString(map, name); /* borrowed */
        if (cls) {
            Py_INCREF(cls);
            error_classes[k] = cls;
        }
    }
    Py_DECREF(map);
    return 0;
}

PyMODINIT_FUNC PyInit__core(void)
{
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    if (load_error_classes() != 0 || ss__py_scenario_add(m) != 0 || ss__py_buffer_add(m) != 0 ||
        PyModule_AddIntConstant(m, "MAX_RANK", SS_MAX_RANK) != 0 ||
        PyModule_AddIntConstant(m, "MAX_AXES", SS_MAX_AXES) != 0 ||
        PyModule_AddIntConstant(m, "MAX_DEVICES", SS_MAX_DEVICES) != 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
