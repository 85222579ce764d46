/*
 * _core_scenario.c — shardsim._core.Scenario: a scenario (.shard) or, where
 * the library imports it, a JAX program (.mlir) loaded with the command
 * line's options; plan() and run() return what they made as plain Python
 * values (shardsim.h, "Scenario results"). The run releases the GIL.
 */
#include "_core.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    PyObject_HEAD
    ss_scenario *sc;
    ss_scenario_options opts;
    PyObject *keep; /* list of the bytes objects opts borrows from */
    const char *file; /* the path or name, for messages (kept in keep) */
    PyObject *progress; /* called (done, total, elapsed) after each step, or NULL */
    volatile int cancel; /* set when Ctrl-C or the progress callback stops the run */
    PyObject *pending[3]; /* the exception that stopped it (type, value, traceback) */
    PyObject *given; /* memoryviews of the values set_input gave (the library borrows them) */
    const char *set_names[32]; /* sets={NAME: VALUE}: --set NAME=VALUE (names kept in keep) */
    int64_t set_values[32];
    ss_tpu_topology topology; /* topology="v5e:4x4" with maxtext= */
} scenario_object;

static const char *const reduce_names[] = {"sum", "max", "min", "mean"};
static const char *const phase_names[] = {"forward", "backward", "optimizer"};

/* A str (or None) option as UTF-8 kept alive in s->keep; -1 on failure. */
static int keep_str(scenario_object *s, PyObject *obj, const char **out)
{
    *out = NULL;
    if (!obj || obj == Py_None)
        return 0;
    PyObject *b = PyUnicode_Check(obj) ? PyUnicode_AsUTF8String(obj) : NULL;
    if (!b) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "expected a str");
        return -1;
    }
    int rc = PyList_Append(s->keep, b);
    Py_DECREF(b);
    if (rc == 0)
        *out = PyBytes_AS_STRING(b);
    return rc;
}

/* The error as the command line prints it: "FILE:LINE:COL: message". */
static PyObject *raise_scenario_error(ss_status st, const ss_scenario_error *err,
                                      const char *file)
{
    char msg[sizeof err->message + 600];
    if (err->line > 0)
        snprintf(msg, sizeof msg, "%.500s:%d:%d: %s", file, err->line, err->col, err->message);
    else
        snprintf(msg, sizeof msg, "%.500s: %s", file, err->message);
    return ss__py_raise_at(st, msg, err->line, err->col, err->source_line);
}

/* After every step, from the thread running the steps (the caller's, the
 * GIL released): take the GIL, call the progress callable, look for a
 * pending KeyboardInterrupt; either raising stops the run after this step
 * and the exception is raised by run(). */
static void on_step(int done, int total, double elapsed, void *user)
{
    scenario_object *s = user;
    PyGILState_STATE g = PyGILState_Ensure();
    if (!s->cancel) {
        PyObject *r = s->progress ? PyObject_CallFunction(s->progress, "iid", done, total,
                                                          elapsed)
                                  : Py_NewRef(Py_None);
        Py_XDECREF(r);
        if (r && PyErr_CheckSignals() == 0) {
            PyGILState_Release(g);
            return;
        }
        PyErr_Fetch(&s->pending[0], &s->pending[1], &s->pending[2]);
        s->cancel = 1;
    }
    PyGILState_Release(g);
}

static int scenario_init(PyObject *self_obj, PyObject *args, PyObject *kw)
{
    scenario_object *s = (scenario_object *)self_obj;
    static char *kwlist[] = {"path", "text", "name", "steps", "mesh", "devices",
                             "device_memory", "threads", "strategy", "trace", "progress",
                             "sets", "maxtext", "slices", "topology", NULL};
    PyObject *path = Py_None, *text = Py_None, *name = Py_None, *mesh = Py_None;
    PyObject *strategy = Py_None, *trace = Py_None, *progress = Py_None, *sets = Py_None;
    PyObject *maxtext = Py_None;
    const char *topology = NULL;
    int steps = 0, devices = 0, threads = 0, slices = 0;
    unsigned long long device_memory = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OOOiOiKiOOOOOiz", kwlist, &path, &text, &name,
                                     &steps, &mesh, &devices, &device_memory, &threads,
                                     &strategy, &trace, &progress, &sets, &maxtext, &slices,
                                     &topology))
        return -1;
    if (sets != Py_None && (!PyDict_Check(sets) || PyDict_Size(sets) > 32)) {
        PyErr_SetString(PyExc_TypeError, "sets must be a dict of at most 32 NAME: int");
        return -1;
    }
    if (progress != Py_None && !PyCallable_Check(progress)) {
        PyErr_SetString(PyExc_TypeError, "progress must be callable (done, total, elapsed)");
        return -1;
    }
    if (s->sc) {
        PyErr_SetString(PyExc_RuntimeError, "Scenario is initialised once");
        return -1;
    }
    if ((path == Py_None) == (text == Py_None)) {
        PyErr_SetString(PyExc_TypeError, "Scenario takes a path or text=, not both");
        return -1;
    }
    if (!(s->keep = PyList_New(0)))
        return -1;
    const char *cpath, *ctext, *cname;
    memset(&s->opts, 0, sizeof s->opts);
    PyObject *fspath = path != Py_None ? PyOS_FSPath(path) : NULL;
    if ((path != Py_None && !fspath) || keep_str(s, fspath, &cpath) != 0 ||
        keep_str(s, text, &ctext) != 0 || keep_str(s, name, &cname) != 0 ||
        keep_str(s, mesh, &s->opts.mesh) != 0 || keep_str(s, strategy, &s->opts.strategy) != 0 ||
        keep_str(s, trace, &s->opts.trace) != 0) {
        Py_XDECREF(fspath);
        return -1;
    }
    Py_XDECREF(fspath);
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (sets != Py_None && PyDict_Next(sets, &pos, &key, &value)) {
        int k = s->opts.nsets;
        if (keep_str(s, key, &s->set_names[k]) != 0)
            return -1;
        s->set_values[k] = PyLong_AsLongLong(value);
        if (PyErr_Occurred())
            return -1;
        s->opts.nsets = k + 1;
    }
    s->opts.set_names = s->set_names;
    s->opts.set_values = s->set_values;
    s->opts.steps = steps;
    s->opts.devices = devices;
    if (maxtext != Py_None) { /* the capsule outlives the scenario: kept */
        if (!(s->opts.maxtext = ss__py_maxtext_from(maxtext)) || PyList_Append(s->keep, maxtext))
            return -1;
    }
    s->opts.slices = slices;
    if (topology) {
        ss_status tst = ss_tpu_topology_parse(topology, &s->topology);
        if (tst != SS_OK) {
            ss__py_raise(tst);
            return -1;
        }
        s->opts.topology = &s->topology;
    }
    s->opts.device_memory = (size_t)device_memory;
    s->opts.threads = threads;
    s->opts.progress = on_step;
    s->opts.progress_user = s;
    s->opts.cancel = &s->cancel;
    s->opts.keep_outputs = true; /* output_shards views them in the arenas */
    if (progress != Py_None) {
        Py_INCREF(progress);
        s->progress = progress;
    }
    ss_scenario_error err;
    ss_status st;
    Py_BEGIN_ALLOW_THREADS
    st = ctext ? ss_scenario_load_text(cname, ctext, &s->opts, &s->sc, &err)
               : ss_scenario_load(cpath, &s->opts, &s->sc, &err);
    Py_END_ALLOW_THREADS
    s->file = ctext ? (cname ? cname : "<text>") : cpath;
    if (st != SS_OK) {
        raise_scenario_error(st, &err, s->file);
        return -1;
    }
    return 0;
}

static void scenario_dealloc(PyObject *self_obj)
{
    scenario_object *s = (scenario_object *)self_obj;
    ss_scenario_free(s->sc);
    Py_XDECREF(s->keep);
    Py_XDECREF(s->given);
    Py_XDECREF(s->progress);
    for (int k = 0; k < 3; k++)
        Py_XDECREF(s->pending[k]);
    Py_TYPE(self_obj)->tp_free(self_obj);
}

static PyObject *names_of_axes(const ss_mesh *mesh, int naxes, const int axes[])
{
    PyObject *t = PyTuple_New(naxes);
    for (int a = 0; t && a < naxes; a++) {
        PyObject *nm = PyUnicode_FromString(ss_mesh_axis_name(mesh, axes[a]));
        if (!nm) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, a, nm);
    }
    return t;
}

PyObject *ss__py_mesh_tuple(const ss_mesh *mesh)
{
    int na = ss_mesh_axis_count(mesh), nd = ss_mesh_device_count(mesh);
    PyObject *names = PyTuple_New(na), *sizes = PyTuple_New(na), *ids = PyTuple_New(nd);
    for (int a = 0; names && sizes && a < na; a++) {
        PyTuple_SET_ITEM(names, a, PyUnicode_FromString(ss_mesh_axis_name(mesh, a)));
        PyTuple_SET_ITEM(sizes, a, PyLong_FromLongLong(ss_mesh_axis_size(mesh, a)));
    }
    for (int p = 0; ids && p < nd; p++)
        PyTuple_SET_ITEM(ids, p, PyLong_FromLong(ss_mesh_device_id(mesh, p)));
    PyObject *r = names && sizes && ids && !PyErr_Occurred()
                      ? Py_BuildValue("(OOO)", names, sizes, ids) : NULL;
    Py_XDECREF(names);
    Py_XDECREF(sizes);
    Py_XDECREF(ids);
    return r;
}

/* Replica groups of ledger entry i: a list of lists of device ids. */
static PyObject *ledger_groups(const ss_executable *e, int i, const ss_coll_record *c)
{
    int n = c->ngroups * c->group_size;
    int *ids = malloc((size_t)(n > 0 ? n : 1) * sizeof *ids);
    if (!ids)
        return PyErr_NoMemory();
    ss_status st = ss_executable_ledger_groups(e, i, ids, n);
    PyObject *groups = st == SS_OK ? PyList_New(c->ngroups) : ss__py_raise(st);
    for (int g = 0; groups && g < c->ngroups; g++) {
        PyObject *grp = PyList_New(c->group_size);
        for (int k = 0; grp && k < c->group_size; k++)
            PyList_SET_ITEM(grp, k, PyLong_FromLong(ids[g * c->group_size + k]));
        if (!grp) {
            Py_CLEAR(groups);
            break;
        }
        PyList_SET_ITEM(groups, g, grp);
    }
    free(ids);
    return groups;
}

static PyObject *ledger_pairs(const ss_executable *e, int i, int npairs)
{
    int(*pairs)[2] = malloc((size_t)(npairs > 0 ? npairs : 1) * sizeof *pairs);
    if (!pairs)
        return PyErr_NoMemory();
    int n = 0;
    ss_status st = ss_executable_ledger_pairs(e, i, pairs, npairs, &n);
    PyObject *list = st == SS_OK ? PyList_New(n < npairs ? n : npairs) : ss__py_raise(st);
    for (int k = 0; list && k < PyList_GET_SIZE(list); k++)
        PyList_SET_ITEM(list, k, Py_BuildValue("(ii)", pairs[k][0], pairs[k][1]));
    free(pairs);
    return list;
}

static PyObject *ledger_list(const ss_scenario *sc, const ss_executable *e)
{
    const ss_mesh *mesh = ss_scenario_mesh(sc);
    const ss_program *prog = ss_scenario_program(sc);
    int n = e ? ss_executable_ledger_count(e) : 0;
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        ss_ledger_entry le;
        ss_status st = ss_executable_ledger_entry(e, i, &le);
        if (st != SS_OK) {
            Py_CLEAR(list);
            return ss__py_raise(st);
        }
        const ss_coll_record *c = &le.coll;
        int line = 0, col = 0;
        const char *vname = ss_scenario_value_name(sc, le.value, &line, &col);
        PyObject *axes = names_of_axes(mesh, c->naxes, c->axes);
        PyObject *groups = axes ? ledger_groups(e, i, c) : NULL;
        PyObject *pairs = groups ? ledger_pairs(e, i, le.npairs) : NULL;
        PyObject *d = pairs ? Py_BuildValue(
            "{s:L,s:s,s:s,s:O,s:i,s:i,s:s,s:K,s:d,s:d,s:s,s:i,s:i,s:s,s:O,s:s,s:O,s:O}",
            "seq", (long long)c->seq, "kind", ss_coll_kind_name(c->kind),
            "op", (unsigned)c->op < 4 ? reduce_names[c->op] : "?", "axes", axes,
            "group_size", c->group_size, "ngroups", c->ngroups,
            "dtype", ss_dtype_name(c->dtype), "bytes", (unsigned long long)c->bytes,
            "sent", c->sent, "received", c->received,
            "value_name", vname[0] ? vname : ss_value_name(prog, le.value), "line", line,
            "col", col,
            "value_op", ss_value_op_name(prog, le.value), "user", le.user ? Py_True : Py_False,
            "phase", (unsigned)le.phase < 3 ? phase_names[le.phase] : "?",
            "replica_groups", groups, "source_target_pairs", pairs) : NULL;
        Py_XDECREF(axes);
        Py_XDECREF(groups);
        Py_XDECREF(pairs);
        if (d) { /* a loop's entry: which loop, which step, which op in it */
            PyObject *loop = le.loop < 0 ? Py_NewRef(Py_None) : Py_BuildValue(
                "{s:i,s:L,s:N,s:s,s:s,s:s}", "value", (int)le.loop,
                "iteration", (long long)le.iteration,
                "trips", le.trips >= 0 ? PyLong_FromLongLong(le.trips) : Py_NewRef(Py_None),
                "region", le.in_cond ? "cond" : "body",
                "op", le.region_op ? le.region_op : "",
                "name", le.region_name ? le.region_name : "");
            if (!loop || PyDict_SetItemString(d, "loop", loop) < 0)
                Py_CLEAR(d);
            Py_XDECREF(loop);
        }
        if (!d) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, d);
    }
    return list;
}

static PyObject *peak_buffers(const ss_executable *e)
{
    enum { CAP = 64 };
    ss_live_buffer bufs[CAP];
    int n = 0;
    if (e) {
        ss_status st = ss_executable_peak_buffers(e, bufs, CAP, &n);
        if (st != SS_OK)
            return ss__py_raise(st);
    }
    PyObject *list = PyList_New(n);
    for (int k = 0; list && k < n; k++)
        PyList_SET_ITEM(list, k, Py_BuildValue("(sK)", bufs[k].name,
                                               (unsigned long long)bufs[k].bytes));
    return list;
}

static PyObject *outputs_list(scenario_object *s)
{
    const ss_scenario *sc = s->sc;
    int n = ss_scenario_output_count(sc);
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        ss_scenario_output o;
        ss_status st = ss_scenario_output_get(sc, i, &o);
        if (st != SS_OK) {
            Py_CLEAR(list);
            return ss__py_raise(st);
        }
        PyObject *shape = PyTuple_New(o.rank);
        int64_t count = 1;
        for (int d = 0; shape && d < o.rank; d++) {
            PyTuple_SET_ITEM(shape, d, PyLong_FromLongLong(o.shape[d]));
            count *= o.shape[d];
        }
        PyObject *data = Py_None;
        Py_INCREF(data);
        if (shape && o.data) {
            Py_DECREF(data);
            data = ss__py_buffer_new((PyObject *)s, o.data,
                                     (size_t)count * ss_dtype_size(o.dtype));
        }
        PyObject *d = shape && data ? Py_BuildValue("{s:s,s:s,s:O,s:O,s:O}", "name", o.name,
                                                    "dtype", ss_dtype_name(o.dtype), "shape", shape,
                                                    "feeds_input",
                                                    o.feeds_input ? Py_True : Py_False,
                                                    "data", data)
                                    : NULL;
        Py_XDECREF(shape);
        Py_XDECREF(data);
        if (!d) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, d);
    }
    return list;
}

static PyObject *checks_list(const ss_scenario *sc)
{
    int n = ss_scenario_check_count(sc);
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        ss_scenario_check c;
        ss_status st = ss_scenario_check_get(sc, i, &c);
        if (st != SS_OK) {
            Py_CLEAR(list);
            return ss__py_raise(st);
        }
        PyObject *d = Py_BuildValue("{s:s,s:i,s:O,s:d,s:d,s:d,s:O}", "name", c.name,
                                    "line", c.line, "ran", c.ran ? Py_True : Py_False,
                                    "max_abs_err", c.max_abs_err, "ref_max", c.ref_max,
                                    "tol", c.tol, "passed", c.passed ? Py_True : Py_False);
        if (!d) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, d);
    }
    return list;
}

/* Everything the plan or run made, as a dict. */
static PyObject *facts(scenario_object *s)
{
    ss_scenario_result r;
    ss_status st = ss_scenario_result_get(s->sc, &r);
    if (st != SS_OK)
        return ss__py_raise(st);
    const ss_executable *e = ss_scenario_executable(s->sc);
    PyObject *mesh = ss__py_mesh_tuple(ss_scenario_mesh(s->sc));
    PyObject *ledger = mesh ? ledger_list(s->sc, e) : NULL;
    PyObject *peak = ledger ? peak_buffers(e) : NULL;
    PyObject *outs = peak ? outputs_list(s) : NULL;
    PyObject *checks = outs ? checks_list(s->sc) : NULL;
    PyObject *d = checks ? Py_BuildValue(
        "{s:O,s:K,s:d,s:i,s:d,s:i,s:K,s:O,s:O,s:i,s:d,s:d,s:d,s:O,s:O,s:O,s:O,s:O,s:O}",
        "has_run", r.has_run ? Py_True : Py_False,
        "peak_bytes", (unsigned long long)r.plan.peak_bytes, "flops", r.plan.flops,
        "collectives", r.plan.ncollectives, "sent_bytes", r.plan.sent_bytes,
        "unknown_trip_loops", r.plan.unknown_trip_loops,
        "device_memory", (unsigned long long)r.device_memory, "fits", r.fits ? Py_True : Py_False,
        "ran", r.ran ? Py_True : Py_False, "steps", r.steps,
        "compile_seconds", r.compile_seconds, "first_seconds", r.first_seconds,
        "median_seconds", r.median_seconds,
        "checks_passed", r.checks_passed ? Py_True : Py_False, "mesh", mesh, "ledger", ledger,
        "peak_buffers", peak, "outputs", outs, "checks", checks) : NULL;
    Py_XDECREF(mesh);
    Py_XDECREF(ledger);
    Py_XDECREF(peak);
    Py_XDECREF(outs);
    Py_XDECREF(checks);
    return d;
}

static PyObject *scenario_plan(PyObject *self_obj, PyObject *unused)
{
    (void)unused;
    scenario_object *s = (scenario_object *)self_obj;
    ss_scenario_error err;
    ss_status st;
    Py_BEGIN_ALLOW_THREADS
    st = ss_scenario_plan(s->sc, &err);
    Py_END_ALLOW_THREADS
    return st == SS_OK ? facts(s) : raise_scenario_error(st, &err, s->file);
}

static PyObject *scenario_run(PyObject *self_obj, PyObject *unused)
{
    (void)unused;
    scenario_object *s = (scenario_object *)self_obj;
    ss_scenario_error err;
    ss_status st;
    Py_BEGIN_ALLOW_THREADS
    st = ss_scenario_run(s->sc, &err);
    Py_END_ALLOW_THREADS
    if (s->pending[0]) { /* Ctrl-C or the progress callable stopped it */
        PyErr_Restore(s->pending[0], s->pending[1], s->pending[2]);
        s->pending[0] = s->pending[1] = s->pending[2] = NULL;
        return NULL;
    }
    return st == SS_OK ? facts(s) : raise_scenario_error(st, &err, s->file);
}

static PyObject *scenario_explain(PyObject *self_obj, PyObject *unused)
{
    (void)unused;
    scenario_object *s = (scenario_object *)self_obj;
    ss_scenario_error err;
    ss_status st = ss_scenario_compile(s->sc, &err);
    if (st != SS_OK)
        return raise_scenario_error(st, &err, s->file);
    const ss_executable *e = ss_scenario_executable(s->sc);
    if (!e)
        return PyUnicode_FromString("");
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return PyErr_NoMemory();
    st = ss_executable_explain(e, f);
    fclose(f);
    PyObject *r = st == SS_OK ? PyUnicode_FromStringAndSize(text, (Py_ssize_t)len)
                              : ss__py_raise(st);
    free(text);
    return r;
}

PyObject *ss__py_spec_tuple(const ss_spec *spec)
{
    PyObject *t = PyTuple_New(spec->ndims);
    for (int d = 0; t && d < spec->ndims; d++) {
        const ss_spec_dim *e = &spec->dims[d];
        PyObject *entry;
        if (e->naxes == 0) {
            entry = Py_NewRef(Py_None);
        } else if (e->naxes == 1) {
            entry = PyUnicode_FromString(e->axes[0]);
        } else {
            entry = PyTuple_New(e->naxes);
            for (int k = 0; entry && k < e->naxes; k++) {
                PyObject *nm = PyUnicode_FromString(e->axes[k]);
                if (!nm)
                    Py_CLEAR(entry);
                else
                    PyTuple_SET_ITEM(entry, k, nm);
            }
        }
        if (!entry) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, d, entry);
    }
    return t;
}

/* inputs() -> [{name, dtype, shape, is_param, hidden, given, spec}]: the run
 * function's inputs in order; spec is the layout the partitioner chose
 * (after compiling), None if it cannot say. */
static PyObject *scenario_inputs(PyObject *self_obj, PyObject *unused)
{
    (void)unused;
    scenario_object *s = (scenario_object *)self_obj;
    int n = ss_scenario_input_count(s->sc);
    ss_scenario_error err;
    ss_status cst = n ? ss_scenario_compile(s->sc, &err) : SS_OK;
    if (cst != SS_OK)
        return raise_scenario_error(cst, &err, s->file);
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        ss_scenario_input in;
        ss_status st = ss_scenario_input_get(s->sc, i, &in);
        if (st != SS_OK) {
            Py_DECREF(list);
            return ss__py_raise(st);
        }
        PyObject *shape = PyTuple_New(in.rank);
        for (int d = 0; shape && d < in.rank; d++)
            PyTuple_SET_ITEM(shape, d, PyLong_FromLongLong(in.shape[d]));
        ss_sharding sh;
        PyObject *spec = ss_value_sharding(ss_scenario_program(s->sc), in.value, &sh) == SS_OK
                             ? ss__py_spec_tuple(&sh.spec) : Py_NewRef(Py_None);
        PyObject *d = shape && spec ? Py_BuildValue(
            "{s:s,s:s,s:O,s:O,s:O,s:O,s:O}", "name", in.name, "dtype", ss_dtype_name(in.dtype),
            "shape", shape, "is_param", in.is_param ? Py_True : Py_False,
            "hidden", in.hidden ? Py_True : Py_False, "given", in.given ? Py_True : Py_False,
            "spec", spec) : NULL;
        Py_XDECREF(shape);
        Py_XDECREF(spec);
        if (!d) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, d);
    }
    return list;
}

/* set_input(i, values): values supports the buffer protocol, C-contiguous,
 * holding input i row-major in its dtype (numpy.ascontiguousarray makes
 * one). Not copied: the Scenario keeps a view of it until it is freed. */
static PyObject *scenario_set_input(PyObject *self_obj, PyObject *args)
{
    scenario_object *s = (scenario_object *)self_obj;
    int i;
    PyObject *values;
    if (!PyArg_ParseTuple(args, "iO", &i, &values))
        return NULL;
    PyObject *mv = PyMemoryView_FromObject(values);
    if (!mv)
        return NULL;
    const Py_buffer *view = PyMemoryView_GET_BUFFER(mv);
    if (!PyBuffer_IsContiguous(view, 'C')) {
        Py_DECREF(mv);
        PyErr_SetString(PyExc_ValueError, "set_input: the values must be C-contiguous");
        return NULL;
    }
    if ((!s->given && !(s->given = PyList_New(0))) || PyList_Append(s->given, mv) != 0) {
        Py_DECREF(mv);
        return NULL;
    }
    Py_DECREF(mv); /* the list holds it */
    ss_status st = ss_scenario_input_set(s->sc, i, view->buf, (size_t)view->len);
    if (st != SS_OK)
        return ss__py_raise(st);
    Py_RETURN_NONE;
}

/* output_shards(i) -> [(device, position, replica_id, start, stop, Buffer)]:
 * result i's shards as they lie in the device arenas after the run, in
 * mesh order (each row-major, shard shape stop - start), and its spec. */
static PyObject *scenario_output_shards(PyObject *self_obj, PyObject *args)
{
    scenario_object *s = (scenario_object *)self_obj;
    int i;
    if (!PyArg_ParseTuple(args, "i", &i))
        return NULL;
    const ss_array *a = ss_scenario_output_array(s->sc, i);
    if (!a) {
        PyErr_Format(PyExc_LookupError, "output_shards: no result %d on the devices (run first)",
                     i);
        return NULL;
    }
    int n = 0;
    ss_array_shards(a, -1, NULL, 0, &n); /* how many */
    ss_array_shard *shards = PyMem_Malloc(sizeof *shards * (size_t)(n > 0 ? n : 1));
    if (!shards)
        return PyErr_NoMemory();
    ss_status st = ss_array_shards(a, -1, shards, n, &n);
    PyObject *list = st == SS_OK ? PyList_New(n) : ss__py_raise(st);
    int rank = ss_array_rank(a);
    for (int k = 0; list && k < n; k++) {
        const ss_shard *x = &shards[k].index;
        PyObject *start = PyTuple_New(rank), *stop = PyTuple_New(rank);
        for (int d = 0; start && stop && d < rank; d++) {
            PyTuple_SET_ITEM(start, d, PyLong_FromLongLong(x->start[d]));
            PyTuple_SET_ITEM(stop, d, PyLong_FromLongLong(x->stop[d]));
        }
        PyObject *buf = start && stop ? ss__py_buffer_new(self_obj, shards[k].data, x->bytes)
                                      : NULL;
        PyObject *t = buf ? Py_BuildValue("(iiiOOO)", x->device, x->position, x->replica_id,
                                          start, stop, buf) : NULL;
        Py_XDECREF(start);
        Py_XDECREF(stop);
        Py_XDECREF(buf);
        if (!t) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, k, t);
    }
    PyMem_Free(shards);
    PyObject *spec = list ? ss__py_spec_tuple(&ss_array_sharding(a)->spec) : NULL;
    PyObject *r = spec ? Py_BuildValue("(OO)", list, spec) : NULL;
    Py_XDECREF(list);
    Py_XDECREF(spec);
    return r;
}

/* set_progress(callable or None): what on_step calls after each step. */
static PyObject *scenario_set_progress(PyObject *self_obj, PyObject *progress)
{
    scenario_object *s = (scenario_object *)self_obj;
    if (progress != Py_None && !PyCallable_Check(progress)) {
        PyErr_SetString(PyExc_TypeError, "progress must be callable (done, total, elapsed)");
        return NULL;
    }
    Py_XSETREF(s->progress, progress == Py_None ? NULL : Py_NewRef(progress));
    Py_RETURN_NONE;
}

static PyMethodDef scenario_methods[] = {
    {"set_progress", scenario_set_progress, METH_O,
     "set_progress(callable or None): called (done, total, elapsed) after each step."},
    {"inputs", scenario_inputs, METH_NOARGS, "The run function's inputs; a list of dicts."},
    {"set_input", scenario_set_input, METH_VARARGS,
     "set_input(i, values): input i's values (a C-contiguous buffer), kept, not copied."},
    {"output_shards", scenario_output_shards, METH_VARARGS,
     "output_shards(i) -> ([(device, position, replica_id, start, stop, Buffer)], spec)"},
    {"plan", scenario_plan, METH_NOARGS, "Plan memory and collectives without data; a dict."},
    {"run", scenario_run, METH_NOARGS, "Run the steps on virtual devices; a dict."},
    {"explain", scenario_explain, METH_NOARGS, "How each op was partitioned, one line each."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject scenario_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "shardsim._core.Scenario",
    .tp_basicsize = sizeof(scenario_object),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Scenario(path=None, *, text=None, name=None, steps=0, mesh=None, devices=0, "
              "device_memory=0, threads=0, strategy=None, trace=None)",
    .tp_new = PyType_GenericNew,
    .tp_init = scenario_init,
    .tp_dealloc = scenario_dealloc,
    .tp_methods = scenario_methods,
};

int ss__py_scenario_add(PyObject *module)
{
    if (PyType_Ready(&scenario_type) < 0)
        return -1;
    Py_INCREF(&scenario_type);
    if (PyModule_AddObject(module, "Scenario", (PyObject *)&scenario_type) < 0) {
        Py_DECREF(&scenario_type);
        return -1;
    }
    return 0;
}
