/*
 * _core_buffer.c — shardsim._core.Buffer: read-only bytes that live in the
 * C library (a run's host results, a shard in a device arena), exported
 * through the buffer protocol so numpy views them without a copy. A Buffer
 * holds a reference to the object that owns the memory (a Scenario), so
 * the memory outlives every numpy array made over it.
 */
#include "_core.h"

typedef struct {
    PyObject_HEAD
    PyObject *owner;
    void *data;
    Py_ssize_t len;
} buffer_object;

static int buffer_get(PyObject *self_obj, Py_buffer *view, int flags)
{
    buffer_object *b = (buffer_object *)self_obj;
    return PyBuffer_FillInfo(view, self_obj, b->data, b->len, 1, flags);
}

static void buffer_dealloc(PyObject *self_obj)
{
    buffer_object *b = (buffer_object *)self_obj;
    Py_XDECREF(b->owner);
    Py_TYPE(self_obj)->tp_free(self_obj);
}

static PyBufferProcs buffer_procs = {.bf_getbuffer = buffer_get, .bf_releasebuffer = NULL};

static PyTypeObject buffer_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "shardsim._core.Buffer",
    .tp_basicsize = sizeof(buffer_object),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Read-only bytes owned by the C library (numpy.frombuffer views them).",
    .tp_dealloc = buffer_dealloc,
    .tp_as_buffer = &buffer_procs,
};

PyObject *ss__py_buffer_new(PyObject *owner, const void *data, size_t len)
{
    buffer_object *b = PyObject_New(buffer_object, &buffer_type);
    if (!b)
        return NULL;
    Py_INCREF(owner);
    b->owner = owner;
    b->data = (void *)data; /* exported read-only */
    b->len = (Py_ssize_t)len;
    return (PyObject *)b;
}

int ss__py_buffer_add(PyObject *module)
{
    if (PyType_Ready(&buffer_type) < 0)
        return -1;
    Py_INCREF(&buffer_type);
    if (PyModule_AddObject(module, "Buffer", (PyObject *)&buffer_type) < 0) {
        Py_DECREF(&buffer_type);
        return -1;
    }
    return 0;
}
