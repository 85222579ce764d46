/*
 * format.c — the text formats of a checkpoint: zarr v2 .zarray, dtype
 * strings, array names and their tree keys, base64url keys of _sharding,
 * and the saved-sharding JSON (written and parsed).
 *
 * Written JSON follows what Orbax and TensorStore write byte for byte where
 * Orbax's test checkpoints show it (docs/checkpoints.md section 1; .zarray:
 * sorted keys, no spaces; Python json.dumps spacing elsewhere). Parsing uses cJSON and accepts what
 * zarr-python writes too (indented .zarray, no dimension_separator).
 * What this file does not do: read or write files.
 */
#include "shardsim.h"

#include "base/json.h"
#include "ckpt_internal.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- dtypes ---------------------------------------------------------------- */

static const char *const dtype_strs[SS_DTYPE_COUNT] = {
    [SS_F32] = "<f4", [SS_BF16] = "bfloat16", [SS_F16] = "<f2", [SS_I32] = "<i4",
    [SS_F64] = "<f8", [SS_I64] = "<i8",       [SS_I8] = "|i1",  [SS_U8] = "|u1",
    [SS_BOOL] = "|b1", [SS_I16] = "<i2",      [SS_U16] = "<u2", [SS_U32] = "<u4",
    [SS_U64] = "<u8",
};

const char *ss__ck_dtype_str(ss_dtype dt)
{
    return (unsigned)dt < SS_DTYPE_COUNT ? dtype_strs[dt] : "?";
}

ss_status ss__ck_dtype_parse(const char *s, ss_dtype *out)
{
    for (int i = 0; i < SS_DTYPE_COUNT; i++) {
        const char *d = dtype_strs[i];
        /* Single-byte types may carry any byte-order mark. */
        if (strcmp(s, d) == 0 || (d[0] == '|' && (s[0] == '<' || s[0] == '=') &&
                                  strcmp(s + 1, d + 1) == 0)) {
            *out = (ss_dtype)i;
            return SS_OK;
        }
    }
    return ss__fail(SS_ERR_UNSUPPORTED,
                    "dtype '%s' is not supported (little-endian f4, f2, f8, i4, i8, i1, u1, b1 "
                    "or bfloat16)",
                    s);
}

/* --- .zarray --------------------------------------------------------------- */

void ss__ck_zarray_write(ss__buf *b, const ss__ck_zarray *z)
{
    ss__buf_puts(b, "{\"chunks\":");
    ss__json_int_array(b, z->rank, z->chunks);
    if (z->zstd)
        ss__buf_printf(b, ",\"compressor\":{\"id\":\"zstd\",\"level\":%d}", z->level);
    else
        ss__buf_puts(b, ",\"compressor\":null");
    ss__buf_printf(b, ",\"dimension_separator\":\"%c\",\"dtype\":\"%s\",\"fill_value\":null,"
                      "\"filters\":null,\"order\":\"C\",\"shape\":",
                   z->sep, ss__ck_dtype_str(z->dtype));
    ss__json_int_array(b, z->rank, z->shape);
    ss__buf_puts(b, ",\"zarr_format\":2}");
}

static ss_status int_list(const cJSON *j, const char *name, const char *field, int64_t out[],
                          int *n, int64_t min)
{
    if (!cJSON_IsArray(j))
        return ss__fail(SS_ERR_PARSE, "array '%s': .zarray field '%s' is not a list", name,
                        field);
    int k = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, j)
    {
        if (k >= SS_MAX_RANK)
            return ss__fail(SS_ERR_UNSUPPORTED, "array '%s': .zarray '%s' has more than %d dims",
                            name, field, SS_MAX_RANK);
        double v = cJSON_IsNumber(e) ? e->valuedouble : -1;
        if (v < (double)min || v > 9.0e15 || v != (double)(int64_t)v)
            return ss__fail(SS_ERR_PARSE,
                            "array '%s': .zarray '%s' entry %d is not an integer >= %lld", name,
                            field, k, (long long)min);
        out[k++] = (int64_t)v;
    }
    *n = k;
    return SS_OK;
}

ss_status ss__ck_zarray_parse(const char *text, size_t len, const char *name, ss__ck_zarray *out)
{
    memset(out, 0, sizeof *out);
    char what[SS_CKPT_NAME_MAX + 32];
    snprintf(what, sizeof what, "array '%s': .zarray", name);
    cJSON *j;
    ss_status st = ss__json_parse(text, len, what, &j);
    if (st)
        return st;
    if (!cJSON_IsObject(j)) {
        cJSON_Delete(j);
        return ss__fail(SS_ERR_PARSE, "array '%s': .zarray is not a JSON object", name);
    }
    out->text_crc = ss_crc32c(0, text, len);
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(j, "zarr_format");
    int nshape = 0, nchunks = 0;
    if (!cJSON_IsNumber(f) || f->valuedouble != 2) {
        st = ss__fail(SS_ERR_UNSUPPORTED, "array '%s': .zarray zarr_format is not 2", name);
        goto done;
    }
    if ((st = int_list(cJSON_GetObjectItemCaseSensitive(j, "shape"), name, "shape", out->shape,
                       &nshape, 0)) ||
        (st = int_list(cJSON_GetObjectItemCaseSensitive(j, "chunks"), name, "chunks",
                       out->chunks, &nchunks, 1)))
        goto done;
    if (nshape != nchunks) {
        st = ss__fail(SS_ERR_PARSE, "array '%s': .zarray has %d shape dims but %d chunk dims",
                      name, nshape, nchunks);
        goto done;
    }
    out->rank = nshape;
    f = cJSON_GetObjectItemCaseSensitive(j, "dtype");
    if (!cJSON_IsString(f)) {
        st = ss__fail(SS_ERR_UNSUPPORTED, "array '%s': .zarray dtype is not a string", name);
        goto done;
    }
    if ((st = ss__ck_dtype_parse(f->valuestring, &out->dtype))) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", ss_error_message());
        st = ss__fail(st, "array '%s': .zarray %s", name, msg);
        goto done;
    }
    f = cJSON_GetObjectItemCaseSensitive(j, "compressor");
    if (f && !cJSON_IsNull(f)) {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(f, "id");
        if (!cJSON_IsString(id) || strcmp(id->valuestring, "zstd") != 0) {
            st = ss__fail(SS_ERR_UNSUPPORTED,
                          "array '%s': compressor '%s' is not supported (zstd or null)", name,
                          cJSON_IsString(id) ? id->valuestring : "?");
            goto done;
        }
        const cJSON *lv = cJSON_GetObjectItemCaseSensitive(f, "level");
        out->zstd = true;
        out->level = cJSON_IsNumber(lv) ? lv->valueint : 1;
    }
    f = cJSON_GetObjectItemCaseSensitive(j, "order");
    if (f && !(cJSON_IsString(f) && strcmp(f->valuestring, "C") == 0)) {
        st = ss__fail(SS_ERR_UNSUPPORTED, "array '%s': .zarray order must be \"C\"", name);
        goto done;
    }
    f = cJSON_GetObjectItemCaseSensitive(j, "filters");
    if (f && !cJSON_IsNull(f) && !(cJSON_IsArray(f) && cJSON_GetArraySize(f) == 0)) {
        st = ss__fail(SS_ERR_UNSUPPORTED, "array '%s': .zarray filters are not supported", name);
        goto done;
    }
    out->sep = '.';
    f = cJSON_GetObjectItemCaseSensitive(j, "dimension_separator");
    if (f) {
        if (!cJSON_IsString(f) ||
            (strcmp(f->valuestring, ".") != 0 && strcmp(f->valuestring, "/") != 0)) {
            st = ss__fail(SS_ERR_PARSE, "array '%s': .zarray dimension_separator must be \".\" "
                                        "or \"/\"",
                          name);
            goto done;
        }
        out->sep = f->valuestring[0];
    }
done:
    cJSON_Delete(j);
    return st;
}

int64_t ss__ck_chunk_elems(const ss__ck_zarray *z)
{
    int64_t n = 1;
    for (int d = 0; d < z->rank; d++)
        n *= z->chunks[d];
    return n;
}

int64_t ss__ck_grid(const ss__ck_zarray *z, int d)
{
    return (z->shape[d] + z->chunks[d] - 1) / z->chunks[d];
}

int64_t ss__ck_grid_total(const ss__ck_zarray *z)
{
    int64_t n = 1;
    for (int d = 0; d < z->rank; d++)
        n *= ss__ck_grid(z, d);
    return n;
}

void ss__ck_chunk_key(ss__buf *b, const ss__ck_zarray *z, const int64_t idx[])
{
    if (z->v3 && !z->v2_keys) { /* zarr v3 "default": c, c/0, c/1/0 */
        ss__buf_putc(b, 'c');
        for (int d = 0; d < z->rank; d++)
            ss__buf_printf(b, "%c%lld", z->sep, (long long)idx[d]);
        return;
    }
    if (z->rank == 0) {
        ss__buf_putc(b, '0');
        return;
    }
    for (int d = 0; d < z->rank; d++) {
        if (d)
            ss__buf_putc(b, z->sep);
        ss__buf_printf(b, "%lld", (long long)idx[d]);
    }
}

/* --- Names ----------------------------------------------------------------- */

ss_status ss__ck_name_check(const char *name)
{
    if (!name || !*name)
        return ss__fail(SS_ERR_INVALID, "checkpoint: an array name is empty");
    size_t len = strlen(name);
    if (len >= SS_CKPT_NAME_MAX)
        return ss__fail(SS_ERR_INVALID, "checkpoint: array name '%.40s...' is longer than %d",
                        name, SS_CKPT_NAME_MAX - 1);
    bool start = true;
    for (const char *p = name; *p; p++) {
        char c = *p;
        if (c == '.') {
            if (start)
                break;
            start = true;
            continue;
        }
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-'))
            return ss__fail(SS_ERR_INVALID,
                            "checkpoint: array name '%s': keys may hold letters, digits, '_' "
                            "and '-' only, joined by '.'",
                            name);
        start = false;
    }
    if (start)
        return ss__fail(SS_ERR_INVALID, "checkpoint: array name '%s' has an empty key", name);
    return SS_OK;
}

static bool all_digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return n > 0;
}

void ss__ck_name_tuple(ss__buf *b, const char *name)
{
    ss__buf_putc(b, '(');
    int k = 0;
    for (const char *p = name;; k++) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        if (k)
            ss__buf_puts(b, ", ");
        ss__buf_putc(b, '\'');
        ss__buf_putn(b, p, n);
        ss__buf_putc(b, '\'');
        if (!dot)
            break;
        p = dot + 1;
    }
    ss__buf_puts(b, k == 0 ? ",)" : ")");
}

void ss__ck_name_keys_json(ss__buf *b, const char *name)
{
    ss__buf_putc(b, '[');
    int k = 0;
    for (const char *p = name;; k++) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        ss__buf_puts(b, k ? ", {\"key\": \"" : "{\"key\": \"");
        ss__buf_putn(b, p, n);
        ss__buf_printf(b, "\", \"key_type\": %d}", all_digits(p, n) ? 1 : 2);
        if (!dot)
            break;
        p = dot + 1;
    }
    ss__buf_putc(b, ']');
}

void ss__ck_base64url(ss__buf *b, const char *s)
{
    static const char alpha[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)p[i + 1] << 8;
        if (i + 2 < n)
            v |= p[i + 2];
        ss__buf_putc(b, alpha[(v >> 18) & 63]);
        ss__buf_putc(b, alpha[(v >> 12) & 63]);
        ss__buf_putc(b, i + 1 < n ? alpha[(v >> 6) & 63] : '=');
        ss__buf_putc(b, i + 2 < n ? alpha[v & 63] : '=');
    }
}

/* --- Saved shardings ------------------------------------------------------- */

/* Python list spacing: [2, 4]. */
static void py_ints(ss__buf *b, int n, const int64_t v[])
{
    ss__buf_putc(b, '[');
    for (int i = 0; i < n; i++)
        ss__buf_printf(b, i ? ", %lld" : "%lld", (long long)v[i]);
    ss__buf_putc(b, ']');
}

static void py_str(ss__buf *b, const char *s)
{
    ss__json_str(b, s);
}

/* Nested lists of {"id": n} shaped like the mesh, for axes [axis, naxes). */
static void device_mesh(ss__buf *b, const ss_mesh *m, int axis, int *pos)
{
    int naxes = ss_mesh_axis_count(m);
    ss__buf_putc(b, '[');
    int64_t size = ss_mesh_axis_size(m, axis);
    for (int64_t i = 0; i < size; i++) {
        if (i)
            ss__buf_puts(b, ", ");
        if (axis + 1 < naxes)
            device_mesh(b, m, axis + 1, pos);
        else
            ss__buf_printf(b, "{\"id\": %d}", ss_mesh_device_id(m, (*pos)++));
    }
    ss__buf_putc(b, ']');
}

void ss__ck_sharding_json(ss__buf *b, const ss_sharding *sh)
{
    const ss_mesh *m = sh->mesh;
    int naxes = ss_mesh_axis_count(m);
    if (naxes == 0) {
        ss__buf_printf(b, "{\"sharding_type\": \"SingleDeviceSharding\", \"device_str\": "
                          "\"cpu:%d\"}",
                       ss_mesh_device_id(m, 0));
        return;
    }
    int64_t sizes[SS_MAX_AXES];
    for (int a = 0; a < naxes; a++)
        sizes[a] = ss_mesh_axis_size(m, a);
    ss__buf_puts(b, "{\"sharding_type\": \"NamedSharding\", \"shape\": ");
    py_ints(b, naxes, sizes);
    ss__buf_puts(b, ", \"axis_names\": [");
    for (int a = 0; a < naxes; a++) {
        if (a)
            ss__buf_puts(b, ", ");
        py_str(b, ss_mesh_axis_name(m, a));
    }
    ss__buf_puts(b, "], \"axis_types\": [");
    for (int a = 0; a < naxes; a++)
        ss__buf_puts(b, a ? ", \"AxisType.Auto\"" : "\"AxisType.Auto\"");
    ss__buf_puts(b, "], \"partition_spec\": [");
    for (int d = 0; d < sh->spec.ndims; d++) {
        const ss_spec_dim *e = &sh->spec.dims[d];
        if (d)
            ss__buf_puts(b, ", ");
        if (e->naxes == 0) {
            ss__buf_puts(b, "null");
        } else if (e->naxes == 1) {
            py_str(b, e->axes[0]);
        } else {
            ss__buf_putc(b, '[');
            for (int k = 0; k < e->naxes; k++) {
                if (k)
                    ss__buf_puts(b, ", ");
                py_str(b, e->axes[k]);
            }
            ss__buf_putc(b, ']');
        }
    }
    ss__buf_puts(b, "], \"device_mesh\": {\"mesh\": ");
    int pos = 0;
    device_mesh(b, m, 0, &pos);
    ss__buf_puts(b, "}}");
}

/* Flatten nested lists of {"id": n}, checking the nesting matches sizes. */
static bool flatten_ids(const cJSON *j, const ss__ck_saved *s, int axis, int *k)
{
    if (!cJSON_IsArray(j) || cJSON_GetArraySize(j) != s->sizes[axis])
        return false;
    const cJSON *e;
    cJSON_ArrayForEach(e, j)
    {
        if (axis + 1 < s->naxes) {
            if (!flatten_ids(e, s, axis + 1, k))
                return false;
        } else {
            const cJSON *id = cJSON_GetObjectItemCaseSensitive(e, "id");
            if (!cJSON_IsNumber(id) || id->valuedouble < 0 || id->valuedouble > 1e9)
                return false;
            s->ids[(*k)++] = id->valueint;
        }
    }
    return true;
}

static ss_status parse_named(const cJSON *j, const char *name, ss__ck_saved *s)
{
    int64_t sizes[SS_MAX_AXES];
    int n = 0;
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(j, "shape");
    const cJSON *names = cJSON_GetObjectItemCaseSensitive(j, "axis_names");
    const cJSON *spec = cJSON_GetObjectItemCaseSensitive(j, "partition_spec");
    if (!cJSON_IsArray(shape) || !cJSON_IsArray(names) || !cJSON_IsArray(spec) ||
        cJSON_GetArraySize(shape) != cJSON_GetArraySize(names))
        return ss__fail(SS_ERR_PARSE, "array '%s': _sharding entry lacks a valid shape, "
                                      "axis_names or partition_spec",
                        name);
    if (cJSON_GetArraySize(shape) > SS_MAX_AXES)
        return ss__fail(SS_ERR_UNSUPPORTED, "array '%s': _sharding mesh has %d axes; at most %d "
                                            "(SS_MAX_AXES)",
                        name, cJSON_GetArraySize(shape), SS_MAX_AXES);
    if (cJSON_GetArraySize(spec) > SS_MAX_RANK)
        return ss__fail(SS_ERR_UNSUPPORTED, "array '%s': _sharding partition_spec has %d "
                                            "entries; at most %d (SS_MAX_RANK)",
                        name, cJSON_GetArraySize(spec), SS_MAX_RANK);
    const cJSON *e;
    int64_t ndev = 1;
    cJSON_ArrayForEach(e, shape)
    {
        if (!cJSON_IsNumber(e) || e->valuedouble < 1 || e->valuedouble > SS_MAX_DEVICES)
            return ss__fail(SS_ERR_PARSE, "array '%s': _sharding mesh shape is invalid", name);
        sizes[n++] = (int64_t)e->valuedouble;
        ndev *= sizes[n - 1];
        if (ndev > SS_MAX_DEVICES)
            return ss__fail(SS_ERR_UNSUPPORTED, "array '%s': saved mesh has more than %d "
                                                "devices",
                            name, SS_MAX_DEVICES);
    }
    s->naxes = n;
    s->ndev = (int)ndev;
    int a = 0;
    cJSON_ArrayForEach(e, names)
    {
        if (!cJSON_IsString(e))
            return ss__fail(SS_ERR_PARSE, "array '%s': _sharding axis name is invalid", name);
        ss_status st = ss_name_intern(e->valuestring, &s->names[a]);
        if (st)
            return st;
        s->sizes[a] = sizes[a];
        a++;
    }
    memset(&s->spec, 0, sizeof s->spec);
    int d = 0;
    cJSON_ArrayForEach(e, spec)
    {
        ss_spec_dim *dim = &s->spec.dims[d++];
        s->spec.ndims = d;
        if (cJSON_IsNull(e))
            continue;
        if (cJSON_IsString(e)) {
            ss_status st = ss_name_intern(e->valuestring, &dim->axes[0]);
            if (st)
                return st;
            dim->naxes = 1;
            continue;
        }
        const cJSON *x;
        bool ok = cJSON_IsArray(e) && cJSON_GetArraySize(e) <= SS_MAX_AXES;
        if (ok)
            cJSON_ArrayForEach(x, e)
            {
                if (!cJSON_IsString(x)) {
                    ok = false;
                    break;
                }
                ss_status st = ss_name_intern(x->valuestring, &dim->axes[dim->naxes]);
                if (st)
                    return st;
                dim->naxes++;
            }
        if (!ok)
            return ss__fail(SS_ERR_PARSE, "array '%s': _sharding partition_spec entry %d is "
                                          "invalid",
                            name, d - 1);
    }
    const cJSON *dm = cJSON_GetObjectItemCaseSensitive(j, "device_mesh");
    if (dm && !cJSON_IsNull(dm)) {
        s->ids = malloc((size_t)s->ndev * sizeof *s->ids);
        if (!s->ids)
            return ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
        int k = 0;
        if (!flatten_ids(cJSON_GetObjectItemCaseSensitive(dm, "mesh"), s, 0, &k) ||
            k != s->ndev)
            return ss__fail(SS_ERR_PARSE, "array '%s': _sharding device_mesh does not match "
                                          "the mesh shape",
                            name);
    }
    return SS_OK;
}

ss_status ss__ck_saved_parse(const char *json, const char *name, ss__ck_saved *s)
{
    memset(s, 0, sizeof *s);
    char what[SS_CKPT_NAME_MAX + 40];
    snprintf(what, sizeof what, "array '%s': its _sharding entry", name);
    cJSON *j;
    ss_status st = ss__json_parse(json, strlen(json), what, &j);
    if (st)
        return st;
    if (!cJSON_IsObject(j)) {
        cJSON_Delete(j);
        return ss__fail(SS_ERR_PARSE, "array '%s': its _sharding entry is not a JSON object",
                        name);
    }
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "sharding_type");
    snprintf(s->type, sizeof s->type, "%s", cJSON_IsString(t) ? t->valuestring : "?");
    if (cJSON_IsString(t) && strcmp(t->valuestring, "NamedSharding") == 0) {
        s->kind = SS_CKPT_SHARDING_NAMED;
        st = parse_named(j, name, s);
    } else if (cJSON_IsString(t) && strcmp(t->valuestring, "SingleDeviceSharding") == 0) {
        const cJSON *dev = cJSON_GetObjectItemCaseSensitive(j, "device_str");
        const char *colon = cJSON_IsString(dev) ? strrchr(dev->valuestring, ':') : NULL;
        char *end = NULL;
        long id = colon ? strtol(colon + 1, &end, 10) : -1;
        if (!colon || end == colon + 1 || *end || id < 0 || id >= SS_MAX_DEVICES) {
            st = ss__fail(SS_ERR_PARSE, "array '%s': _sharding device_str is not \"cpu:N\"",
                          name);
        } else {
            s->kind = SS_CKPT_SHARDING_SINGLE_DEVICE;
            s->device = (int)id;
        }
    } else {
        s->kind = SS_CKPT_SHARDING_OTHER;
    }
    cJSON_Delete(j);
    if (st)
        ss__ck_saved_free(s);
    return st;
}

void ss__ck_saved_free(ss__ck_saved *s)
{
    free(s->ids);
    s->ids = NULL;
}

void ss__ck_saved_text(const ss__ck_saved *s, char *out, size_t cap)
{
    ss__buf b;
    ss__buf_init(&b);
    switch (s->kind) {
    case SS_CKPT_SHARDING_NONE:
        break;
    case SS_CKPT_SHARDING_SINGLE_DEVICE:
        ss__buf_printf(&b, "SingleDeviceSharding(device=cpu:%d)", s->device);
        break;
    case SS_CKPT_SHARDING_NAMED: {
        ss__buf_puts(&b, "NamedSharding(mesh=Mesh(");
        for (int a = 0; a < s->naxes; a++)
            ss__buf_printf(&b, "%s'%s': %lld", a ? ", " : "", s->names[a],
                           (long long)s->sizes[a]);
        char spec[4096];
        if (ss_spec_repr(&s->spec, spec, sizeof spec) != SS_OK)
            snprintf(spec, sizeof spec, "P(...)");
        ss__buf_printf(&b, "), spec=%s)", spec);
        break;
    }
    case SS_CKPT_SHARDING_OTHER:
        ss__buf_printf(&b, "%s (not rebuilt by shardsim)", s->type);
        break;
    }
    snprintf(out, cap, "%s", b.data ? b.data : "");
    ss__buf_free(&b);
}
