/*
 * import.c — a StableHLO module as a scenario (import.h): the entry
 * function's arguments as global arrays, its body through import_ops.c,
 * its results as outputs, donation from tf.aliasing_output.
 *
 * Deliberately not here: the ops (import_ops.c) and shardings
 * (import_mesh.c). Inputs are deterministic random values unless the
 * caller gives a directory of .npy files (--inputs; npread.c reads them).
 */
#include "front/stablehlo/import.h"
#include "graph/graph.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool ss__shlo_is_mlir(const char *text, size_t len)
{
    const char *p = text, *end = text + len;
    for (;;) {
        while (p < end && isspace((unsigned char)*p))
            p++;
        if (end - p >= 2 && p[0] == '/' && p[1] == '/') {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            p = nl ? nl + 1 : end;
            continue;
        }
        break;
    }
    /* `module @f`, `module attributes {..}`, `module {`; `#loc3 = loc(..)`
     * (a scenario comment never starts so); func.func and sdy.mesh ops. */
    size_t left = (size_t)(end - p);
    if (left > 6 && memcmp(p, "module", 6) == 0 && isspace((unsigned char)p[6])) {
        const char *q = p + 6;
        while (q < end && isspace((unsigned char)*q))
            q++;
        return q < end && (*q == '@' || *q == '{' ||
                           ((size_t)(end - q) >= 10 && memcmp(q, "attributes", 10) == 0));
    }
    if (left > 4 && memcmp(p, "#loc", 4) == 0) {
        const char *q = p + 4;
        while (q < end && isdigit((unsigned char)*q))
            q++;
        while (q < end && *q == ' ')
            q++;
        return q < end && *q == '=';
    }
    static const char *const starts[] = {"func.func ", "sdy.mesh ", "\"builtin.module\"",
                                         "\"func.func\""};
    for (size_t k = 0; k < sizeof starts / sizeof *starts; k++)
        if (left >= strlen(starts[k]) && memcmp(p, starts[k], strlen(starts[k])) == 0)
            return true;
    return false;
}

/* --- Value map ------------------------------------------------------------- */

static size_t slot_of(const ss__imp *im, const ss__mlir_value *v)
{
    uintptr_t h = (uintptr_t)v;
    h ^= h >> 17;
    h *= (uintptr_t)0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 7) & (im->cap - 1);
}

bool ss__imp_put(ss__imp *im, const ss__mlir_value *v, ss_value x)
{
    if ((im->used + 1) * 2 > im->cap) {
        size_t cap = im->cap ? im->cap * 2 : 1024;
        const ss__mlir_value **keys = calloc(cap, sizeof *keys);
        ss_value *vals = calloc(cap, sizeof *vals);
        if (!keys || !vals) {
            free(keys);
            free(vals);
            ss__scn_fail(&im->sc->err, (ss__scn_loc){0, 0}, "out of host memory");
            return false;
        }
        const ss__mlir_value **ok = im->keys;
        ss_value *ov = im->vals;
        size_t ocap = im->cap;
        im->keys = keys;
        im->vals = vals;
        im->cap = cap;
        im->used = 0;
        for (size_t i = 0; i < ocap; i++)
            if (ok[i])
                ss__imp_put(im, ok[i], ov[i]);
        free(ok);
        free(ov);
    }
    size_t s = slot_of(im, v);
    while (im->keys[s] && im->keys[s] != v)
        s = (s + 1) & (im->cap - 1);
    if (!im->keys[s])
        im->used++;
    im->keys[s] = v;
    im->vals[s] = x;
    return true;
}

ss_value ss__imp_get(ss__imp *im, const ss__mlir_op *op, const ss__mlir_value *v)
{
    if (im->cap && v) {
        size_t s = slot_of(im, v);
        while (im->keys[s]) {
            if (im->keys[s] == v)
                return im->vals[s];
            s = (s + 1) & (im->cap - 1);
        }
    }
    ss__imp_fail(im, op, "'%s': operand %s has no value (a token, or a value of an "
                         "unsupported op)", op->name, v && v->name ? v->name : "?");
    return -1;
}

/* --- Errors and origins ------------------------------------------------------ */

static bool library_file(const char *f)
{
    static const char *const libs[] = {"jax/", "jaxlib/", "flax/", "optax/", "orbax/", "chex/",
                                       "numpy/", "ml_dtypes/"};
    if (strstr(f, "site-packages/") || strstr(f, "dist-packages/"))
        return true;
    for (size_t k = 0; k < sizeof libs / sizeof *libs; k++)
        if (strncmp(f, libs[k], strlen(libs[k])) == 0)
            return true;
    return false;
}

const char *ss__imp_origin(ss__imp *im, const ss__mlir_loc *loc)
{
    ss__mlir_where fr[32];
    int n = loc ? ss__mlir_loc_frames(loc, fr, 32) : 0;
    if (n > 32)
        n = 32;
    int pick = -1;
    for (int k = 0; k < n && pick < 0; k++)
        if (fr[k].file && !library_file(fr[k].file))
            pick = k;
    for (int k = 0; k < n && pick < 0; k++)
        if (fr[k].file)
            pick = k;
    if (pick < 0)
        return NULL;
    char buf[512];
    snprintf(buf, sizeof buf, "%s:%lld", fr[pick].file, (long long)fr[pick].line);
    return ss__scn_strndup(&im->sc->arena, buf, strlen(buf));
}

const char *ss__imp_op_origin(ss__imp *im, const ss__mlir_op *op)
{
    const char *o = op ? ss__imp_origin(im, op->loc) : NULL;
    for (int k = im->call_depth - 1; !o && k >= 0 && k < 64; k--)
        o = ss__imp_origin(im, im->calls[k]->loc);
    return o;
}

static ss__scn_loc op_loc(const ss__mlir_op *op)
{
    return op ? (ss__scn_loc){op->line, op->col} : (ss__scn_loc){0, 0};
}

bool ss__imp_fail(ss__imp *im, const ss__mlir_op *op, const char *fmt, ...)
{
    char msg[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *origin = op ? ss__imp_op_origin(im, op) : NULL;
    if (origin)
        ss__scn_fail(&im->sc->err, op_loc(op), "%s (from %s)", msg, origin);
    else
        ss__scn_fail(&im->sc->err, op_loc(op), "%s", msg);
    return false;
}

static bool grow_vinfo(ss__imp *im, int n)
{
    ss_scenario *sc = im->sc;
    if (n <= sc->vinfo_cap)
        return true;
    int cap = sc->vinfo_cap ? sc->vinfo_cap : 256;
    while (cap < n)
        cap *= 2;
    ss__scn_value_info *v = realloc(sc->vinfo, sizeof *v * (size_t)cap);
    if (!v) {
        ss__scn_fail(&sc->err, (ss__scn_loc){0, 0}, "out of host memory");
        return false;
    }
    memset(v + sc->vinfo_cap, 0, sizeof *v * (size_t)(cap - sc->vinfo_cap));
    sc->vinfo = v;
    sc->vinfo_cap = cap;
    return true;
}

bool ss__imp_built(ss__imp *im, const ss__mlir_op *op, ss_status st, int before)
{
    ss_scenario *sc = im->sc;
    if (st)
        return ss__imp_fail(im, op, "'%s': %s", op ? op->name : "?", ss_error_message());
    int now = ss_program_value_count(sc->program);
    if (!grow_vinfo(im, now))
        return false;
    const char *origin = op ? ss__imp_op_origin(im, op) : NULL;
    for (int v = before; v < now; v++) {
        if (sc->vinfo[v].loc.line) /* made by an op inside a call or a region */
            continue;
        sc->vinfo[v].loc = op_loc(op);
        sc->vinfo[v].origin = origin;
        ss_value_set_source(sc->program, v, op ? op->line : 0, op ? op->col : 0);
    }
    return true;
}

bool ss__imp_dtype(ss__mlir_elem e, ss_dtype *out)
{
    static const struct { ss__mlir_elem e; ss_dtype d; } map[] = {
        {SS__MLIR_F32, SS_F32}, {SS__MLIR_BF16, SS_BF16}, {SS__MLIR_F16, SS_F16},
        {SS__MLIR_F64, SS_F64}, {SS__MLIR_I1, SS_BOOL}, {SS__MLIR_I8, SS_I8},
        {SS__MLIR_I16, SS_I16}, {SS__MLIR_I32, SS_I32}, {SS__MLIR_I64, SS_I64},
        {SS__MLIR_UI8, SS_U8}, {SS__MLIR_UI16, SS_U16}, {SS__MLIR_UI32, SS_U32},
        {SS__MLIR_UI64, SS_U64}};
    for (size_t k = 0; k < sizeof map / sizeof *map; k++)
        if (map[k].e == e) {
            *out = map[k].d;
            return true;
        }
    return false;
}

/* --- Arguments ------------------------------------------------------------------ */

static const ss__mlir_attr *arg_attr(const ss__mlir_func *f, int i, const char *name)
{
    const ss__mlir_attr *d = f->arg_attrs && i < f->arg_attrs->n ? f->arg_attrs->items[i] : NULL;
    if (!d && f->body && i < f->body->nargs)
        d = f->body->args[i]->attrs;
    return ss__mlir_dict_get(d, name);
}

static const ss__mlir_attr *res_attr(const ss__mlir_func *f, int i, const char *name)
{
    const ss__mlir_attr *d = f->res_attrs && i < f->res_attrs->n ? f->res_attrs->items[i] : NULL;
    return ss__mlir_dict_get(d, name);
}

bool ss__imp_memory_kind(const char *text, size_t len, ss_memory_kind *out)
{
    for (int k = 0; k < SS_MEMORY_KIND_COUNT; k++) {
        const char *name = ss_memory_kind_name((ss_memory_kind)k);
        if (strlen(name) == len && memcmp(name, text, len) == 0) {
            *out = (ss_memory_kind)k;
            return true;
        }
    }
    return false;
}

bool ss__imp_in_host_memory(ss__imp *im, ss_value x)
{
    return ss_value_memory_kind(im->sc->program, x) != SS_MEMORY_DEVICE;
}

/* mhlo.memory_kind of an argument or result (jit's shardings with a
 * memory_kind) into *out; absent: the device. An unknown kind is an error
 * naming it. */
static bool memory_kind_attr(ss__imp *im, const ss__mlir_op *at, const ss__mlir_attr *kind,
                             const char *what, int i, ss_memory_kind *out)
{
    *out = SS_MEMORY_DEVICE;
    if (!kind)
        return true;
    if (kind->kind == SS__MLIR_AT_STRING && ss__imp_memory_kind(kind->s, kind->len, out))
        return true;
    int len = kind->kind == SS__MLIR_AT_STRING ? (int)kind->len : 1;
    return ss__imp_fail(im, at, "unsupported attribute 'mhlo.memory_kind = \"%.*s\"' on %s %d: "
                                "expected device, pinned_host or unpinned_host",
                        len, kind->kind == SS__MLIR_AT_STRING ? kind->s : "?", what, i);
}

/* The sharding attribute of an argument or result in any of the three
 * spellings, or NULL (then the partitioner chooses). */
static const ss__mlir_attr *sharding_attr(const ss__mlir_attr *(*get)(const ss__mlir_func *, int,
                                                                       const char *),
                                          const ss__mlir_func *f, int i)
{
    const ss__mlir_attr *a = get(f, i, "sdy.sharding");
    if (!a)
        a = get(f, i, "mhlo.sharding");
    return a;
}

/* The argument's name: its location's name (JAX's argument path), else argN. */
static const char *arg_name(ss__imp *im, const ss__mlir_func *f, int i)
{
    const ss__mlir_value *v = f->body && i < f->body->nargs ? f->body->args[i] : NULL;
    const ss__mlir_loc *l = v ? v->loc : NULL;
    while (l && l->kind == SS__MLIR_LOC_ALIAS)
        l = l->a;
    char buf[64];
    if (l && l->kind == SS__MLIR_LOC_NAME && l->str && *l->str)
        return ss__scn_strndup(&im->sc->arena, l->str, strlen(l->str));
    snprintf(buf, sizeof buf, "arg%d", i);
    return ss__scn_strndup(&im->sc->arena, buf, strlen(buf));
}

/* --inputs DIR: argument i's values from DIR/NAME.npy, of its dtype and shape. */
static bool given_input(ss__imp *im, ss__scn_array *a, int i)
{
    char path[4096];
    int w = snprintf(path, sizeof path, "%s/%s.npy", im->ov->inputs, a->name);
    if (w < 0 || (size_t)w >= sizeof path)
        return ss__imp_fail(im, NULL, "--inputs: path too long for argument %d", i);
    ss_dtype dt;
    int rank;
    int64_t shape[SS_MAX_RANK];
    void *data;
    size_t bytes;
    ss__file file;
    if (ss__scn_npy_read(path, (size_t)1 << 32, &dt, &rank, shape, &file, &data, &bytes) != SS_OK)
        return ss__imp_fail(im, NULL, "--inputs: argument %d (%s): %s", i, a->name,
                            ss_error_message());
    bool same = dt == a->dtype && rank == a->rank &&
                memcmp(shape, a->shape, sizeof(int64_t) * (size_t)rank) == 0;
    /* the file (mapped, not copied) is the argument's: the arena releases it */
    bool kept = same && ss__scn_arena_own_file(&im->sc->arena, &file);
    if (!kept)
        ss__file_release(&file);
    if (!same) {
        char want[96], have[96];
        ss__shape_text(want, sizeof want, a->dtype, a->rank, a->shape);
        ss__shape_text(have, sizeof have, dt, rank, shape);
        return ss__imp_fail(im, NULL, "--inputs: %s holds %s; argument %d (%s) is %s", path, have,
                            i, a->name, want);
    }
    if (!kept)
        return ss__imp_fail(im, NULL, "out of host memory");
    a->init.kind = SS__SCN_INIT_HOST;
    a->init.data = data;
    return true;
}

static bool add_argument(ss__imp *im, const ss__mlir_func *f, int i)
{
    ss_scenario *sc = im->sc;
    const ss__mlir_type *t = f->type->items[i];
    const ss__mlir_op *at = f->op;
    ss_dtype dt;
    if (t->kind != SS__MLIR_TY_TENSOR || !ss__imp_dtype(t->elem, &dt))
        return ss__imp_fail(im, at, "argument %d: unsupported type (shardsim takes tensors of "
                                    "f32, bf16, f16, f64, i1, i8..i64, ui8..ui64)", i);
    if (t->rank > SS_MAX_RANK)
        return ss__imp_fail(im, at, "argument %d: rank %d (at most %d)", i, t->rank, SS_MAX_RANK);
    if (sc->narrays == sc->arrays_cap) {
        int cap = sc->arrays_cap ? sc->arrays_cap * 2 : 16;
        ss__scn_array *na = realloc(sc->arrays, sizeof *na * (size_t)cap);
        int *ni = realloc(sc->input_array, sizeof *ni * (size_t)cap);
        if (na)
            sc->arrays = na;
        if (ni)
            sc->input_array = ni;
        if (!na || !ni)
            return ss__imp_fail(im, NULL, "out of host memory");
        sc->arrays_cap = sc->inputs_cap = cap;
    }
    ss__scn_array *a = &sc->arrays[sc->narrays];
    memset(a, 0, sizeof *a);
    a->name = arg_name(im, f, i);
    a->loc = op_loc(at);
    a->dtype = dt;
    a->rank = t->rank;
    memcpy(a->shape, t->dims, sizeof(int64_t) * (size_t)t->rank);
    a->is_param = arg_attr(f, i, "tf.aliasing_output") != NULL;
    ss_memory_kind mk;
    if (!memory_kind_attr(im, at, arg_attr(f, i, "mhlo.memory_kind"), "argument", i, &mk))
        return false;
    if (mk != SS_MEMORY_DEVICE) /* the caller's arrays are device arrays */
        return ss__imp_fail(im, at, "unsupported attribute 'mhlo.memory_kind = \"%s\"' on "
                                    "argument %d: arguments in host memory (in_shardings with a "
                                    "host memory_kind) are not modelled; results and values "
                                    "put there inside the program are",
                            ss_memory_kind_name(mk), i);
    const ss__mlir_attr *sh = sharding_attr(arg_attr, f, i);
    if (sh) {
        if (!ss__imp_attr_spec(im, at, sh, 0, t->rank, &a->spec))
            return false;
        a->has_spec = true;
    }
    bool is_float = dt == SS_F32 || dt == SS_F64 || dt == SS_BF16 || dt == SS_F16;
    /* Deterministic random data: normal(0, 1) for floats, 0..9 for integers. */
    a->init.kind = is_float ? SS__SCN_INIT_NORMAL : dt == SS_BOOL ? SS__SCN_INIT_ZEROS
                                                                   : SS__SCN_INIT_RANDINT;
    a->init.seed = (uint64_t)i + 1;
    a->init.a = is_float ? 1.0 : 10.0;
    a->value = -1;
    if (im->ov && im->ov->inputs && !given_input(im, a, i))
        return false;
    int before = ss_program_value_count(sc->program);
    ss_status st = a->is_param ? ss_param(sc->program, a->name, dt, a->rank, a->shape,
                                          a->has_spec ? &a->spec : NULL, &a->value)
                               : ss_input(sc->program, a->name, dt, a->rank, a->shape,
                                          a->has_spec ? &a->spec : NULL, &a->value);
    if (st)
        return ss__imp_fail(im, at, "argument %d (%s): %s", i, a->name, ss_error_message());
    if (!ss__imp_built(im, at, st, before))
        return false;
    sc->vinfo[a->value].name = a->name;
    sc->vinfo[a->value].origin = NULL;
    sc->vinfo[a->value].loc = (ss__scn_loc){0, 0};
    sc->input_array[sc->ninputs++] = sc->narrays++;
    return ss__imp_put(im, f->body->args[i], a->value);
}

/* --- Results ---------------------------------------------------------------------- */

static bool add_result(ss__imp *im, const ss__mlir_func *f, int i, ss_value v)
{
    ss_scenario *sc = im->sc;
    const ss__mlir_op *at = f->op;
    if (sc->noutputs == sc->outputs_cap) {
        int cap = sc->outputs_cap ? sc->outputs_cap * 2 : 16;
        ss__scn_output *o = realloc(sc->outputs, sizeof *o * (size_t)cap);
        if (!o)
            return ss__imp_fail(im, NULL, "out of host memory");
        sc->outputs = o;
        sc->outputs_cap = cap;
    }
    ss_memory_kind mk;
    if (!memory_kind_attr(im, at, res_attr(f, i, "mhlo.memory_kind"), "result", i, &mk))
        return false;
    /* A result in host memory (out_shardings with a host memory_kind)
     * JAX's lowering put there already; else its put to that memory. */
    if (mk != SS_MEMORY_DEVICE && !ss__imp_in_host_memory(im, v)) {
        int before = ss_program_value_count(sc->program);
        ss_status pst = ss_device_put(sc->program, v, mk, &v);
        if (!ss__imp_built(im, at, pst, before))
            return false;
    }
    const ss__mlir_attr *info = res_attr(f, i, "jax.result_info");
    char buf[64];
    const char *name;
    if (info && info->kind == SS__MLIR_AT_STRING && info->len && !memchr(info->s, 0, info->len))
        name = ss__scn_strndup(&sc->arena, info->s, info->len);
    else {
        snprintf(buf, sizeof buf, "result%d", i);
        name = ss__scn_strndup(&sc->arena, buf, strlen(buf));
    }
    if (!name)
        return ss__imp_fail(im, NULL, "out of host memory");
    ss_spec spec;
    const ss__mlir_attr *sh = sharding_attr(res_attr, f, i);
    const ss__mlir_type *t = f->type->res[i];
    if (sh && !ss__imp_attr_spec(im, at, sh, 0, t->rank, &spec))
        return false;
    ss_status st = ss_output(sc->program, v, sh ? &spec : NULL);
    if (st)
        return ss__imp_fail(im, at, "result %d (%s): %s", i, name, ss_error_message());
    sc->outputs[sc->noutputs++] = (ss__scn_output){v, name, op_loc(at), -1, false, true};
    if (sc->nchecks < SS__SCN_MAX_CHECKS)
        sc->checks[sc->nchecks++] = (ss__scn_check){name, op_loc(at), sc->noutputs - 1, -1};
    return true;
}

/* tf.aliasing_output = k on argument i: result k is argument i's next value
 * (JAX's donate_argnums), and the run donates the argument. */
static bool donations(ss__imp *im, const ss__mlir_func *f)
{
    ss_scenario *sc = im->sc;
    for (int i = 0; i < f->type->n; i++) {
        const ss__mlir_attr *a = arg_attr(f, i, "tf.aliasing_output");
        if (!a)
            continue;
        if (a->kind != SS__MLIR_AT_INT || a->i < 0 || a->i >= sc->noutputs)
            return ss__imp_fail(im, f->op, "argument %d: tf.aliasing_output names no result", i);
        sc->outputs[a->i].feeds = i;
        sc->donate = true;
    }
    return true;
}

/* --- The module ------------------------------------------------------------------- */

static bool pick_entry(ss__imp *im, ss__mlir_func *out)
{
    if (ss__mlir_func_find(im->m, "main", out) && out->body)
        return true;
    for (int k = 0; k < ss__mlir_func_count(im->m); k++) {
        ss__mlir_func_at(im->m, k, out);
        if (out->is_public && out->body)
            return true;
    }
    return ss__imp_fail(im, ss__mlir_module_op(im->m), "the module has no public function "
                                                       "with a body (JAX names it @main)");
}

/* The module mesh's device order (its sdy.mesh device_ids), or NULL. */
static const int *norder_module(ss__imp *im, int order[])
{
    const ss__mlir_sdy_mesh *m = im->mesh;
    if (!m || !m->ndevices || m->ndevices > SS_MAX_DEVICES)
        return NULL;
    for (int k = 0; k < m->ndevices; k++)
        order[k] = (int)m->device_ids[k];
    return order;
}

/* Ops in op and its regions, op included. */
static int ops_in(const ss__mlir_op *op)
{
    int n = 1;
    for (int r = 0; r < op->nregions; r++)
        for (int b = 0; b < op->regions[r]->nblocks; b++)
            for (int k = 0; k < op->regions[r]->blocks[b]->nops; k++)
                n += ops_in(op->regions[r]->blocks[b]->ops[k]);
    return n;
}

static bool import_module(ss__imp *im)
{
    ss_scenario *sc = im->sc;
    ss__mlir_func f;
    if (!pick_entry(im, &f))
        return false;
    const ss__mlir_op *mod = ss__mlir_module_op(im->m);
    const ss__mlir_attr *np = ss__mlir_op_attr(mod, "mhlo.num_partitions");
    im->ndevices = np && np->kind == SS__MLIR_AT_INT && np->i > 0 && np->i <= SS_MAX_DEVICES
                       ? (int)np->i : 0;
    char text[512], module_text[512];
    int *order = calloc(SS_MAX_DEVICES, sizeof *order), norder = 0;
    if (!order)
        return ss__imp_fail(im, NULL, "out of host memory");
    bool ok = ss__imp_mesh_text(im, &f, text, sizeof text, order, &norder, module_text);
    if (ok) {
        snprintf(sc->mesh_text, sizeof sc->mesh_text, "%s", text);
        int64_t prod = 1;
        for (const char *p = strchr(text, '='); p; p = strchr(p + 1, '='))
            prod *= strtoll(p + 1, NULL, 10);
        sc->devices = im->ov && im->ov->devices ? im->ov->devices : (int)prod;
        sc->hosts = 1;
        sc->device_memory = im->ov ? im->ov->device_memory : 0;
        if (ss_mesh_make(text, sc->devices, norder ? order : NULL, &sc->mesh) != SS_OK ||
            ss_program_create(sc->mesh, &sc->program) != SS_OK)
            ok = ss__imp_fail(im, mod, "mesh %s: %s", text, ss_error_message());
        /* About a value per op: room for them at once (a hint; without
         * the room the program grows as values come). */
        if (ok)
            (void)ss__program_reserve(sc->program, ops_in(mod) + 64);
    }
    im->text_mesh = sc->mesh;
    if (ok && strcmp(text, module_text) != 0) { /* --mesh: the text's ids are the module's */
        int n = 1;
        for (const char *p = strchr(module_text, '='); p; p = strchr(p + 1, '='))
            n *= (int)strtol(p + 1, NULL, 10);
        if (ss_mesh_make(module_text, n, norder_module(im, order), &im->own_text_mesh) != SS_OK)
            ok = ss__imp_fail(im, mod, "mesh %s: %s", module_text, ss_error_message());
        im->text_mesh = im->own_text_mesh;
    }
    free(order);
    if (!ok)
        return false;
    const char *mname = ss__mlir_module_name(im->m);
    const char *rn = mname ? (strncmp(mname, "jit_", 4) == 0 ? mname + 4 : mname) : f.name;
    if (!(sc->run_name = ss__scn_strndup(&sc->arena, rn, strlen(rn))))
        return ss__imp_fail(im, NULL, "out of host memory");
    sc->run_loc = op_loc(f.op);
    sc->steps = 1;
    if (f.body->nargs != f.type->n)
        return ss__imp_fail(im, f.op, "@%s: %d block arguments for %d inputs in its type",
                            f.name, f.body->nargs, f.type->n);
    for (int i = 0; i < f.type->n; i++)
        if (!add_argument(im, &f, i))
            return false;
    ss_value *ret = calloc((size_t)f.type->nres + 1, sizeof *ret);
    int nret = 0;
    if (!ret)
        return ss__imp_fail(im, NULL, "out of host memory");
    ok = ss__imp_block(im, f.body, ret, f.type->nres, &nret);
    if (ok && nret != f.type->nres)
        ok = ss__imp_fail(im, f.op, "@%s returns %d values; its type says %d", f.name, nret,
                          f.type->nres);
    for (int i = 0; ok && i < nret; i++)
        ok = add_result(im, &f, i, ret[i]);
    free(ret);
    if (!ok || !donations(im, &f))
        return false;
    /* XLA CPU's arithmetic, which the results are checked against */
    ss_status st = ss__contract_fma(im->sc->program, NULL);
    return st == SS_OK || ss__imp_fail(im, f.op, "%s", ss_error_message());
}

ss_status ss__shlo_import(ss_scenario *sc, const ss__scn_overrides *ov)
{
    ss__imp im = {.sc = sc, .ov = ov};
    sc->imported = true;
    ss_status st = ss__mlir_parse(sc->src, sc->path, &im.m);
    if (st) {
        /* "FILE:LINE:COL: message" -> the scenario error at LINE:COL */
        const char *msg = ss_error_message();
        size_t plen = strlen(sc->path);
        ss__scn_loc loc = {0, 0};
        if (strncmp(msg, sc->path, plen) == 0 && msg[plen] == ':') {
            char *end;
            long line = strtol(msg + plen + 1, &end, 10), col = 0;
            if (*end == ':')
                col = strtol(end + 1, &end, 10);
            if (*end == ':' && line > 0) {
                loc = (ss__scn_loc){(int)line, (int)col};
                msg = end + 1;
                while (*msg == ' ')
                    msg++;
            }
        }
        ss__scn_fail(&sc->err, loc, "%s", msg);
        return st == SS_ERR_NOMEM ? SS_ERR_NOMEM : SS_ERR_PARSE;
    }
    bool ok = import_module(&im);
    free(im.keys);
    free(im.vals);
    ss_mesh_destroy(im.own_text_mesh);
    ss__mlir_free(im.m);
    if (!ok && !sc->err.set)
        ss__scn_fail(&sc->err, (ss__scn_loc){0, 0}, "%s", ss_error_message());
    return ok ? SS_OK : strstr(sc->err.msg, "out of host memory") ? SS_ERR_NOMEM : SS_ERR_PARSE;
}
