/*
 * zarr3.c — zarr v3 array metadata (zarr.json) as Orbax writes it with
 * use_zarr3=True, parsed into the same ss__ck_zarray the v2 reader fills.
 *
 * From the zarr v3 specification and TensorStore's zarr3 driver documents,
 * checked against files the pinned orbax-checkpoint wrote: Orbax asks for a
 * regular chunk grid whose chunk is the written shard, and one
 * "sharding_indexed" codec whose inner chunk is that same shape, inner codecs
 * [bytes little-endian, zstd] and index codecs [bytes little-endian,
 * crc32c] at the end. So every stored chunk ("c/1/0" under the default key
 * encoding) is a shard of exactly one inner chunk: its encoded bytes, then a
 * 16-byte index (uint64le offset, uint64le length) and its CRC32C.
 *
 * Read: that form, and plain codecs [bytes, zstd?] without sharding. Refused
 * with a message naming the array: other codecs (transpose, gzip, blosc),
 * big-endian bytes, a shard of several inner chunks, storage transformers.
 */
#include "shardsim.h"

#include "base/json.h"
#include "ckpt_internal.h"

#include <cjson/cJSON.h>
#include <string.h>

static const struct {
    const char *name;
    ss_dtype dtype;
} types[] = {
    {"float32", SS_F32}, {"bfloat16", SS_BF16}, {"float16", SS_F16}, {"float64", SS_F64},
    {"int8", SS_I8},     {"int16", SS_I16},     {"int32", SS_I32},   {"int64", SS_I64},
    {"uint8", SS_U8},    {"uint16", SS_U16},    {"uint32", SS_U32},  {"uint64", SS_U64},
    {"bool", SS_BOOL},
};

static const cJSON *get(const cJSON *j, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(j, key);
}

static bool is_name(const cJSON *codec, const char *name)
{
    const cJSON *n = get(codec, "name");
    return cJSON_IsString(n) && strcmp(n->valuestring, name) == 0;
}

/* A list of at most SS_MAX_RANK integers >= lo. */
static bool ints(const cJSON *a, int64_t out[], int *n, double lo)
{
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) > SS_MAX_RANK)
        return false;
    *n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, a)
    {
        if (!cJSON_IsNumber(e) || e->valuedouble < lo || e->valuedouble > 9.0e15 ||
            e->valuedouble != (double)(int64_t)e->valuedouble)
            return false;
        out[(*n)++] = (int64_t)e->valuedouble;
    }
    return true;
}

/* "bytes" with little (or, for one-byte types, absent) endianness. */
static bool bytes_codec_ok(const cJSON *c, ss_dtype dt)
{
    const cJSON *e = get(get(c, "configuration"), "endian");
    if (!e)
        return ss_dtype_size(dt) == 1;
    return cJSON_IsString(e) && strcmp(e->valuestring, "little") == 0;
}

/* Inner codecs: [bytes] or [bytes, zstd]. */
static ss_status array_codecs(const cJSON *list, const char *name, ss__ck_zarray *z)
{
    int n = cJSON_GetArraySize(list), k = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, list)
    {
        if (k == 0 && is_name(c, "bytes") && bytes_codec_ok(c, z->dtype)) {
            /* raw little-endian elements */
        } else if (k == 1 && n == 2 && is_name(c, "zstd")) {
            const cJSON *lv = get(get(c, "configuration"), "level");
            z->zstd = true;
            z->level = cJSON_IsNumber(lv) ? lv->valueint : 0;
        } else {
            const cJSON *id = get(c, "name");
            return ss__fail(SS_ERR_UNSUPPORTED, "array '%s': zarr.json codec '%s' at position "
                                                "%d is not read (bytes little-endian, then "
                                                "zstd, are)",
                            name, cJSON_IsString(id) ? id->valuestring : "?", k);
        }
        k++;
    }
    if (k == 0)
        return ss__fail(SS_ERR_PARSE, "array '%s': zarr.json has no codecs", name);
    return SS_OK;
}

static ss_status sharding_codec(const cJSON *c, const char *name, ss__ck_zarray *z)
{
    const cJSON *cfg = get(c, "configuration");
    int64_t inner[SS_MAX_RANK];
    int ni = 0;
    if (!ints(get(cfg, "chunk_shape"), inner, &ni, 1) || ni != z->rank ||
        memcmp(inner, z->chunks, sizeof(int64_t) * (size_t)ni) != 0)
        return ss__fail(SS_ERR_UNSUPPORTED, "array '%s': zarr.json sharding_indexed inner "
                                            "chunks differ from the chunk grid (one inner "
                                            "chunk per shard, as Orbax writes, is read)",
                        name);
    const cJSON *loc = get(cfg, "index_location");
    if (loc && !(cJSON_IsString(loc) && strcmp(loc->valuestring, "end") == 0) &&
        !(cJSON_IsString(loc) && strcmp(loc->valuestring, "start") == 0))
        return ss__fail(SS_ERR_PARSE, "array '%s': zarr.json index_location is not \"start\" "
                                      "or \"end\"",
                        name);
    z->index_start = loc && strcmp(loc->valuestring, "start") == 0;
    const cJSON *ic = get(cfg, "index_codecs"), *e;
    int k = 0;
    bool ok = cJSON_IsArray(ic);
    const cJSON *items = ok ? ic : NULL;
    cJSON_ArrayForEach(e, items)
    {
        if (k == 0 && is_name(e, "bytes") && bytes_codec_ok(e, SS_U64))
            ok = true;
        else if (k == 1 && is_name(e, "crc32c"))
            z->index_crc = true;
        else
            ok = false;
        k++;
    }
    if (!ok || k == 0)
        return ss__fail(SS_ERR_UNSUPPORTED, "array '%s': zarr.json index_codecs are not "
                                            "[bytes little-endian, crc32c?]",
                        name);
    const cJSON *codecs = get(cfg, "codecs");
    if (!cJSON_IsArray(codecs))
        return ss__fail(SS_ERR_PARSE, "array '%s': zarr.json sharding_indexed has no codecs",
                        name);
    z->sharded = true;
    return array_codecs(codecs, name, z);
}

static ss_status parse(const cJSON *j, const char *name, ss__ck_zarray *out)
{
    const cJSON *f = get(j, "zarr_format");
    if (!cJSON_IsNumber(f) || f->valuedouble != 3)
        return ss__fail(SS_ERR_UNSUPPORTED, "array '%s': zarr.json zarr_format is not 3", name);
    f = get(j, "node_type");
    if (!cJSON_IsString(f) || strcmp(f->valuestring, "array") != 0)
        return ss__fail(SS_ERR_PARSE, "array '%s': zarr.json is not an array node", name);
    int ns = 0, nc = 0;
    const cJSON *grid = get(j, "chunk_grid");
    if (!ints(get(j, "shape"), out->shape, &ns, 0))
        return ss__fail(SS_ERR_PARSE, "array '%s': zarr.json shape is not a list of at most "
                                      "%d sizes",
                        name, SS_MAX_RANK);
    if (!is_name(grid, "regular") ||
        !ints(get(get(grid, "configuration"), "chunk_shape"), out->chunks, &nc, 1) || nc != ns)
        return ss__fail(SS_ERR_UNSUPPORTED, "array '%s': zarr.json chunk_grid is not a regular "
                                            "grid with a chunk_shape of %d positive sizes",
                        name, ns);
    out->rank = ns;
    f = get(j, "data_type");
    bool known = false;
    for (size_t i = 0; cJSON_IsString(f) && i < sizeof types / sizeof types[0]; i++)
        if (strcmp(f->valuestring, types[i].name) == 0) {
            out->dtype = types[i].dtype;
            known = true;
        }
    if (!known)
        return ss__fail(SS_ERR_UNSUPPORTED, "array '%s': zarr.json data_type %s is not read",
                        name, cJSON_IsString(f) ? f->valuestring : "(not a string)");
    f = get(j, "storage_transformers");
    if (f && !(cJSON_IsArray(f) && cJSON_GetArraySize(f) == 0))
        return ss__fail(SS_ERR_UNSUPPORTED, "array '%s': zarr.json storage_transformers are "
                                            "not read",
                        name);
    out->sep = '/';
    const cJSON *enc = get(j, "chunk_key_encoding");
    if (enc) {
        const cJSON *sep = get(get(enc, "configuration"), "separator");
        if (is_name(enc, "v2")) {
            out->v2_keys = true;
            out->sep = '.';
        }
        else if (!is_name(enc, "default"))
            return ss__fail(SS_ERR_UNSUPPORTED, "array '%s': zarr.json chunk_key_encoding is "
                                                "not \"default\" or \"v2\"",
                            name);
        if (sep && !(cJSON_IsString(sep) && (strcmp(sep->valuestring, "/") == 0 ||
                                             strcmp(sep->valuestring, ".") == 0)))
            return ss__fail(SS_ERR_PARSE, "array '%s': zarr.json key separator must be \"/\" "
                                          "or \".\"",
                            name);
        if (sep)
            out->sep = sep->valuestring[0];
    }
    const cJSON *codecs = get(j, "codecs");
    if (!cJSON_IsArray(codecs) || cJSON_GetArraySize(codecs) == 0)
        return ss__fail(SS_ERR_PARSE, "array '%s': zarr.json has no codecs list", name);
    const cJSON *first = cJSON_GetArrayItem(codecs, 0);
    if (is_name(first, "sharding_indexed")) {
        if (cJSON_GetArraySize(codecs) != 1)
            return ss__fail(SS_ERR_UNSUPPORTED, "array '%s': zarr.json codecs after "
                                                "sharding_indexed are not read",
                            name);
        return sharding_codec(first, name, out);
    }
    return array_codecs(codecs, name, out);
}

ss_status ss__ck_zarr3_parse(const char *text, size_t len, const char *name,
                             ss__ck_zarray *out)
{
    memset(out, 0, sizeof *out);
    char what[SS_CKPT_NAME_MAX + 32];
    snprintf(what, sizeof what, "array '%s': zarr.json", name);
    cJSON *j;
    ss_status st = ss__json_parse(text, len, what, &j);
    if (st)
        return st;
    out->text_crc = ss_crc32c(0, text, len);
    out->v3 = true;
    st = cJSON_IsObject(j) ? parse(j, name, out)
                           : ss__fail(SS_ERR_PARSE, "%s is not a JSON object", what);
    cJSON_Delete(j);
    return st;
}
