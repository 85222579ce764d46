/*
 * _core.h — shardsim._core, the CPython extension under the Python package:
 * a thin layer over include/shardsim.h taking and returning plain Python
 * values (str, int, tuple, list, dict, bytes). Errors become exceptions of
 * shardsim.errors (one class per ss_status) carrying the library's message.
 */
#ifndef SS_PY_CORE_H
#define SS_PY_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "shardsim.h"

/* Raise the exception class of `st` with the library's last message (or
 * the status's description); returns NULL for `return ss__py_raise(st);`. */
PyObject *ss__py_raise(ss_status st);
/* Raise the class of `st` with `message`, and attach `line`/`col`/
 * `source_line` attributes when line > 0. */
PyObject *ss__py_raise_at(ss_status st, const char *message, int line, int col,
                          const char *source_line);

/* The module's entry point, called by the import system. */
PyMODINIT_FUNC PyInit__core(void);

/* _core_sharding.c */
/* (names, sizes, device_ids or None) -> a new mesh; NULL with the
 * exception set. */
ss_mesh *ss__py_mesh_from(PyObject *names, PyObject *sizes, PyObject *ids);
/* A tuple of ints -> shape[]; the rank, or -1 with the exception set. */
int ss__py_shape_from(PyObject *shape, int64_t out[SS_MAX_RANK]);
/* A sharding of mesh (names, sizes, ids or None) with the spec `spec_text`
 * (a PartitionSpec's repr); *mesh is the caller's to destroy. 0, or -1 with
 * the exception set. */
int ss__py_sharding_from(PyObject *names, PyObject *sizes, PyObject *ids, const char *spec_text,
                         ss_mesh **mesh, ss_sharding *sh);
PyObject *ss__py_mesh_repr(PyObject *self, PyObject *args);
PyObject *ss__py_mesh_picture(PyObject *self, PyObject *args);
PyObject *ss__py_sharding_info(PyObject *self, PyObject *args);
PyObject *ss__py_visualize(PyObject *self, PyObject *args);
PyObject *ss__py_resolve_rules(PyObject *self, PyObject *args);

/* _core_buffer.c: read-only bytes of `owner` (referenced while the
 * Buffer lives), viewed by numpy without a copy; NULL with an exception. */
PyObject *ss__py_buffer_new(PyObject *owner, const void *data, size_t len);
int ss__py_buffer_add(PyObject *module);

/* _core_ckpt.c: checkpoints (shardsim.checkpoint). */
PyObject *ss__py_ckpt_names(PyObject *self, PyObject *args);
PyObject *ss__py_ckpt_restore(PyObject *self, PyObject *args);
PyObject *ss__py_ckpt_save(PyObject *self, PyObject *args);
/* (names, sizes, ids) of a mesh, as Scenario results give it. */
PyObject *ss__py_mesh_tuple(const ss_mesh *mesh);
/* A spec as a tuple of entries: None, an axis name, or a tuple of names. */
PyObject *ss__py_spec_tuple(const ss_spec *spec);

/* _core_maxtext.c: MaxText configurations (shardsim.maxtext), loaded once
 * into a capsule; ss__py_maxtext_from gives its config (NULL with the
 * exception set when the object is not one). */
const ss_maxtext_config *ss__py_maxtext_from(PyObject *capsule);
PyObject *ss__py_maxtext_load(PyObject *self, PyObject *args);
PyObject *ss__py_maxtext_rules(PyObject *self, PyObject *args);
PyObject *ss__py_maxtext_mesh_axes(PyObject *self, PyObject *args);
PyObject *ss__py_maxtext_data_sharding(PyObject *self, PyObject *args);
PyObject *ss__py_maxtext_mesh(PyObject *self, PyObject *args);
PyObject *ss__py_maxtext_resolve(PyObject *self, PyObject *args);

/* _core_scenario.c: the Scenario type, added to the module. */
int ss__py_scenario_add(PyObject *module);

#endif
