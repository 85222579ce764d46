/*
 * open.c — reading a checkpoint directory without reading chunk data: the
 * step listing (what a CheckpointManager sees), an opened step with its
 * tree (_METADATA), saved shardings (_sharding), recorded chunk CRC32Cs
 * (array_metadatas/process_*), .zarray files on demand, and the rebuilding
 * of a saved sharding over the current devices.
 *
 * A step is visible only when DIR/STEP exists and holds commit_success.txt;
 * names carrying the temporary suffix are saves in progress (or killed).
 */
#include "shardsim.h"

#include "base/json.h"
#include "ckpt_internal.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

char *ss__ck_step_path(const char *dir, int64_t step, bool tmp)
{
    return ss__ck_pathf("%s/%lld%s", dir, (long long)step, tmp ? SS_CKPT_TMP_SUFFIX : "");
}

static ss_status nomem(void)
{
    return ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
}

/* --- Listing --------------------------------------------------------------- */

/* "123" -> 123; "123<tmp suffix>" -> 123 with *tmp; else -1. */
static int64_t parse_step_name(const char *s, bool *tmp)
{
    int64_t v = 0;
    const char *p = s;
    if (*p < '0' || *p > '9')
        return -1;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > (INT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (*p - '0');
    }
    if (*p == '\0') {
        *tmp = false;
        return v;
    }
    if (strcmp(p, SS_CKPT_TMP_SUFFIX) == 0) {
        *tmp = true;
        return v;
    }
    return -1;
}

static int entry_cmp(const void *a, const void *b)
{
    const ss_ckpt_entry *x = a, *y = b;
    if (x->step != y->step)
        return x->step < y->step ? -1 : 1;
    return (int)x->state - (int)y->state;
}

ss_status ss_ckpt_list(const char *dir, ss_ckpt_entry out[], int cap, int *n)
{
    *n = 0;
    if (ss__ck_is_single(dir)) { /* one checkpoint: step 0 */
        char *marker = ss__ck_pathf("%s/commit_success.txt", dir);
        if (!marker)
            return nomem();
        ss_ckpt_entry e = {0, ss__ck_is_file(marker) ? SS_CKPT_COMMITTED : SS_CKPT_INCOMPLETE};
        free(marker);
        *n = 1;
        if (cap < 1)
            return ss__fail(SS_ERR_RANGE, "room for %d checkpoint entries, %s has 1", cap, dir);
        out[0] = e;
        return SS_OK;
    }
    DIR *d = opendir(dir);
    if (!d)
        return ss__fail(errno == ENOMEM ? SS_ERR_NOMEM : SS_ERR_IO,
                        "cannot read checkpoint directory %s: %s", dir, strerror(errno));
    int count = 0, size = 0;
    ss_ckpt_entry *all = NULL;
    ss_status st = SS_OK;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        bool tmp;
        int64_t step = parse_step_name(e->d_name, &tmp);
        if (step < 0)
            continue;
        char *path = ss__ck_pathf("%s/%s", dir, e->d_name);
        if (!path) {
            st = ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
            break;
        }
        ss_ckpt_step_state state = SS_CKPT_IN_PROGRESS;
        bool is_dir = ss__ck_is_dir(path);
        if (is_dir && !tmp) {
            char *marker = ss__ck_pathf("%s/commit_success.txt", path);
            if (!marker) {
                free(path);
                st = nomem();
                break;
            }
            state = ss__ck_is_file(marker) ? SS_CKPT_COMMITTED : SS_CKPT_INCOMPLETE;
            free(marker);
        }
        free(path);
        if (!is_dir)
            continue;
        if (count == size) {
            size = size ? size * 2 : 16;
            ss_ckpt_entry *p = realloc(all, (size_t)size * sizeof *p);
            if (!p) {
                st = ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
                break;
            }
            all = p;
        }
        all[count].step = step;
        all[count].state = state;
        count++;
    }
    closedir(d);
    if (st == SS_OK) {
        if (count > 1)
            qsort(all, (size_t)count, sizeof *all, entry_cmp);
        *n = count;
        if (count > cap)
            st = ss__fail(SS_ERR_RANGE, "room for %d checkpoint entries, %s has %d", cap, dir,
                          count);
        else if (count > 0)
            memcpy(out, all, (size_t)count * sizeof *all);
    }
    free(all);
    return st;
}

ss_status ss_ckpt_steps(const char *dir, int64_t steps[], int cap, int *n)
{
    int total = 0;
    ss_ckpt_entry probe;
    ss_status st = ss_ckpt_list(dir, &probe, 0, &total);
    if (st && st != SS_ERR_RANGE)
        return st;
    ss_ckpt_entry *all = malloc((size_t)(total ? total : 1) * sizeof *all);
    if (!all)
        return ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    st = ss_ckpt_list(dir, all, total, &total);
    int k = 0;
    if (st == SS_OK)
        for (int i = 0; i < total; i++)
            if (all[i].state == SS_CKPT_COMMITTED) {
                if (k < cap)
                    steps[k] = all[i].step;
                k++;
            }
    free(all);
    *n = k;
    if (st == SS_OK && k > cap)
        st = ss__fail(SS_ERR_RANGE, "room for %d steps, %s has %d", cap, dir, k);
    return st;
}

ss_status ss_ckpt_latest_step(const char *dir, int64_t *step)
{
    int n = 0;
    int64_t one;
    ss_status st = ss_ckpt_steps(dir, &one, 0, &n);
    if (st && st != SS_ERR_RANGE)
        return st;
    if (n == 0)
        return ss__fail(SS_ERR_IO, "no committed checkpoint in %s", dir);
    int64_t *all = malloc((size_t)n * sizeof *all);
    if (!all)
        return ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    st = ss_ckpt_steps(dir, all, n, &n);
    if (st == SS_OK)
        *step = all[n - 1];
    free(all);
    return st;
}

/* --- Opening a step -------------------------------------------------------- */

/* Read and parse one JSON file: SS_ERR_IO, SS_ERR_NOMEM or SS_ERR_PARSE
 * (trailing bytes included) naming the path. */
static ss_status read_json(const char *path, cJSON **out)
{
    *out = NULL;
    char *text;
    size_t len;
    ss_status st = ss__ck_read_file(path, &text, &len);
    if (st)
        return st;
    st = ss__json_parse(text, len, path, out);
    free(text);
    return st;
}

static int sums_cmp(const void *a, const void *b)
{
    return strcmp(((const ss__ck_sums *)a)->key, ((const ss__ck_sums *)b)->key);
}

/* A JSON number that is an integer in [lo, hi]. */
static bool json_int(const cJSON *j, double lo, double hi)
{
    return cJSON_IsNumber(j) && j->valuedouble >= lo && j->valuedouble <= hi &&
           j->valuedouble == (double)(int64_t)j->valuedouble;
}

/* One chunk's record {"bytes": B, "crc32c_block": K, "crc32c": [...]} of
 * array `arr`, added to its sums. */
static ss_status load_chunk_sums(const char *path, ss__ck_array *arr, const cJSON *c)
{
    const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(c, "bytes");
    const cJSON *blk = cJSON_GetObjectItemCaseSensitive(c, "crc32c_block");
    const cJSON *crc = cJSON_GetObjectItemCaseSensitive(c, "crc32c");
    if (!json_int(bytes, 0, 9.0e15) || !json_int(blk, 1, 4294967295.0) || !cJSON_IsArray(crc))
        return ss__fail(SS_ERR_PARSE, "%s: array '%s' chunk %s: bad checksum entry", path,
                        arr->name, c->string ? c->string : "?");
    uint64_t nbytes = (uint64_t)bytes->valuedouble, block = (uint64_t)blk->valuedouble;
    int64_t n = cJSON_GetArraySize(crc);
    if ((uint64_t)n != (nbytes + block - 1) / block)
        return ss__fail(SS_ERR_PARSE, "%s: array '%s' chunk %s: %lld checksums for %llu bytes",
                        path, arr->name, c->string, (long long)n, (unsigned long long)nbytes);
    ss__ck_sums *p = realloc(arr->sums, (size_t)(arr->nsums + 1) * sizeof *p);
    if (!p)
        return nomem();
    arr->sums = p;
    ss__ck_sums *s = &arr->sums[arr->nsums];
    memset(s, 0, sizeof *s);
    s->key = ss__ck_pathf("%s", c->string);
    s->crc = malloc((size_t)(n ? n : 1) * sizeof *s->crc);
    if (!s->key || !s->crc) {
        free(s->key);
        free(s->crc);
        return nomem();
    }
    arr->nsums++;
    s->bytes = nbytes;
    s->block = (uint32_t)block;
    s->n = n;
    int64_t k = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, crc)
    {
        if (!json_int(v, 0, 4294967295.0))
            return ss__fail(SS_ERR_PARSE, "%s: array '%s' chunk %s: checksum %lld is not a "
                                          "32-bit unsigned integer",
                            path, arr->name, s->key, (long long)k);
        s->crc[k++] = (uint32_t)v->valuedouble;
    }
    return SS_OK;
}

/* Add the records of one array_metadatas/process_* file: an object whose
 * "array_metadatas" is a list (Orbax writes these files too). Without
 * zcrc_required, entries that are not shardsim's are skipped; with it,
 * every entry must be a well-formed record of an array of the tree. */
static ss_status load_sums(ss_ckpt *ck, const char *path)
{
    cJSON *j;
    ss_status st = read_json(path, &j);
    if (st)
        return st;
    bool strict = ck->zcrc_required;
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(j, "array_metadatas"), *e;
    if (!cJSON_IsArray(list))
        st = ss__fail(SS_ERR_PARSE, "%s: \"array_metadatas\" is not a list of checksum records",
                      path);
    int at = -1;
    const cJSON *entries = cJSON_IsArray(list) ? list : NULL;
    cJSON_ArrayForEach(e, entries)
    {
        at++;
        if (st)
            break;
        const cJSON *am = cJSON_GetObjectItemCaseSensitive(e, "array_metadata");
        const cJSON *pn = cJSON_GetObjectItemCaseSensitive(am, "param_name");
        const cJSON *ext = cJSON_GetObjectItemCaseSensitive(am, "ext_metadata");
        const cJSON *chunks = cJSON_GetObjectItemCaseSensitive(ext, "shardsim_chunks");
        const cJSON *zcrc = cJSON_GetObjectItemCaseSensitive(ext, "shardsim_zarray_crc32c");
        int a = cJSON_IsString(pn) ? ss_ckpt_array_find(ck, pn->valuestring) : -1;
        if (strict && (a < 0 || !cJSON_IsObject(chunks) || !json_int(zcrc, 0, 4294967295.0))) {
            st = ss__fail(SS_ERR_PARSE, "%s: entry %d is not a checksum record of an array of "
                                        "the tree%s%s%s",
                          path, at, cJSON_IsString(pn) ? " ('" : "",
                          cJSON_IsString(pn) ? pn->valuestring : "",
                          cJSON_IsString(pn) ? "')" : "");
            break;
        }
        if (a < 0 || !cJSON_IsObject(chunks))
            continue;
        ss__ck_array *arr = &ck->arrays[a];
        arr->recorded = true;
        if (json_int(zcrc, 0, 4294967295.0)) {
            arr->has_zcrc = true;
            arr->zcrc = (uint32_t)zcrc->valuedouble;
        }
        const cJSON *c;
        cJSON_ArrayForEach(c, chunks)
        {
            if ((st = load_chunk_sums(path, arr, c)))
                break;
        }
    }
    cJSON_Delete(j);
    return st;
}

/* The array name of one _METADATA entry: its keys joined by '.'. */
static ss_status entry_name(const char *where, const cJSON *e, char *out)
{
    const char *label = e->string ? e->string : "?";
    const cJSON *keys = cJSON_GetObjectItemCaseSensitive(e, "key_metadata"), *k;
    ss__buf b;
    ss__buf_init(&b);
    bool bad = !cJSON_IsArray(keys);
    const cJSON *items = bad ? NULL : keys;
    cJSON_ArrayForEach(k, items)
    {
        const cJSON *key = cJSON_GetObjectItemCaseSensitive(k, "key");
        if (b.len)
            ss__buf_putc(&b, '.');
        if (cJSON_IsString(key))
            ss__buf_puts(&b, key->valuestring);
        else if (json_int(key, 0, 1e15))
            ss__buf_printf(&b, "%lld", (long long)key->valuedouble);
        else
            bad = true;
    }
    if (bad)
        b.len = 0;
    ss_status st = SS_OK;
    if (b.oom)
        st = nomem();
    else if (b.len == 0)
        st = ss__fail(SS_ERR_PARSE, "%s: entry %s has no usable key_metadata (a list of "
                                    "{\"key\": ..., \"key_type\": ...})",
                      where, label);
    else if (ss__ck_name_check(b.data) != SS_OK)
        st = ss__fail(SS_ERR_PARSE, "%s: entry %s: its keys must be letters, digits, '_' or "
                                    "'-' (they name directories)",
                      where, label);
    else
        snprintf(out, SS_CKPT_NAME_MAX, "%s", b.data);
    ss__buf_free(&b);
    return st;
}

static ss_status load_tree(ss_ckpt *ck)
{
    char *path = ss__ck_pathf("%s/_METADATA", ck->item_dir);
    if (!path)
        return nomem();
    if (!ss__ck_is_file(path)) {
        ss_status st = ss__fail(SS_ERR_IO, "Found empty checkpoint PyTree metadata in "
                                           "directory=%s (no _METADATA)",
                                ck->item_dir);
        free(path);
        return st;
    }
    cJSON *j;
    ss_status st = read_json(path, &j);
    if (st) {
        free(path);
        return st;
    }
    const cJSON *tree = cJSON_GetObjectItemCaseSensitive(j, "tree_metadata"), *e;
    if (!cJSON_IsObject(tree))
        st = ss__fail(SS_ERR_PARSE, "%s has no \"tree_metadata\" object", path);
    int n = cJSON_GetArraySize(tree);
    if (st == SS_OK && !(ck->arrays = calloc((size_t)(n ? n : 1), sizeof *ck->arrays)))
        st = nomem();
    const cJSON *entries = st ? NULL : tree;
    cJSON_ArrayForEach(e, entries)
    {
        const cJSON *vm = cJSON_GetObjectItemCaseSensitive(e, "value_metadata");
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(vm, "skip_deserialize")))
            continue;
        char *name = ck->arrays[ck->n].name;
        if ((st = entry_name(path, e, name)))
            break;
        if (ss_ckpt_array_find(ck, name) >= 0) {
            st = ss__fail(SS_ERR_PARSE, "%s: two entries name the array '%s'", path, name);
            break;
        }
        ck->n++;
    }
    const cJSON *cm = cJSON_GetObjectItemCaseSensitive(j, "custom_metadata");
    const cJSON *mark = cJSON_GetObjectItemCaseSensitive(cm, SS__CK_CHECKSUM_KEY);
    if (st == SS_OK && mark) {
        if (!json_int(mark, 1, 1e9))
            st = ss__fail(SS_ERR_PARSE, "%s: custom_metadata.%s is not a format version", path,
                          SS__CK_CHECKSUM_KEY);
        else if (mark->valuedouble > SS__CK_CHECKSUM_VERSION)
            st = ss__fail(SS_ERR_UNSUPPORTED, "%s: checksum format %d is newer than this "
                                              "shardsim reads (%d)",
                          path, mark->valueint, SS__CK_CHECKSUM_VERSION);
        else
            ck->sums_required = ck->zcrc_required = true;
    }
    cJSON_Delete(j);
    free(path);
    return st;
}

static ss_status load_shardings(ss_ckpt *ck)
{
    char *path = ss__ck_pathf("%s/_sharding", ck->item_dir);
    if (!path)
        return ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    ss_status st = SS_OK;
    if (ss__ck_is_file(path)) {
        cJSON *j = NULL;
        st = read_json(path, &j);
        for (int i = 0; st == SS_OK && i < ck->n; i++) {
            ss__buf key;
            ss__buf_init(&key);
            ss__ck_base64url(&key, ck->arrays[i].name);
            const cJSON *v = key.data ? cJSON_GetObjectItemCaseSensitive(j, key.data) : NULL;
            if (key.oom || (cJSON_IsString(v) &&
                            !(ck->arrays[i].sharding = ss__ck_pathf("%s", v->valuestring))))
                st = nomem();
            ss__buf_free(&key);
        }
        cJSON_Delete(j);
    }
    free(path);
    return st;
}

static ss_status choose_item(ss_ckpt *ck, const char *item)
{
    char *own = item ? NULL : ss__ck_pathf("%s/_METADATA", ck->step_dir);
    bool is_item = own && ss__ck_is_file(own);
    free(own);
    if (is_item) { /* StandardCheckpointer.save(DIR): the step is the item */
        ck->item_dir = ss__ck_pathf("%s", ck->step_dir);
        return ck->item_dir ? SS_OK : nomem();
    }
    if (item) {
        snprintf(ck->item, sizeof ck->item, "%s", item);
    } else {
        char *def = ss__ck_pathf("%s/%s", ck->step_dir, SS_CKPT_DEFAULT_ITEM);
        if (!def)
            return nomem();
        bool has_default = ss__ck_is_dir(def);
        free(def);
        if (has_default) {
            snprintf(ck->item, sizeof ck->item, "%s", SS_CKPT_DEFAULT_ITEM);
        } else {
            DIR *d = opendir(ck->step_dir);
            if (!d)
                return ss__fail(errno == ENOMEM ? SS_ERR_NOMEM : SS_ERR_IO,
                                "cannot read %s: %s", ck->step_dir, strerror(errno));
            int found = 0;
            bool oom = false;
            struct dirent *e;
            while ((e = readdir(d)) != NULL) {
                if (e->d_name[0] == '.')
                    continue;
                char *meta = ss__ck_pathf("%s/%s/_METADATA", ck->step_dir, e->d_name);
                oom |= !meta;
                if (meta && ss__ck_is_file(meta)) {
                    if (found++ == 0)
                        snprintf(ck->item, sizeof ck->item, "%s", e->d_name);
                }
                free(meta);
            }
            closedir(d);
            if (oom)
                return nomem();
            if (found != 1)
                return ss__fail(SS_ERR_IO, "%s has %s item with a _METADATA; name the item",
                                ck->step_dir, found ? "more than one" : "no");
        }
    }
    ck->item_dir = ss__ck_pathf("%s/%s", ck->step_dir, ck->item);
    if (!ck->item_dir)
        return ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    if (!ss__ck_is_dir(ck->item_dir))
        return ss__fail(SS_ERR_IO, "%s has no item '%s'", ck->step_dir, ck->item);
    return SS_OK;
}

/* _CHECKPOINT_METADATA: optional (older Orbax did not write it), but when
 * present it must be one JSON object whose timestamps, if any, are numbers. */
static ss_status load_timestamps(ss_ckpt *ck)
{
    char *path = ss__ck_pathf("%s/_CHECKPOINT_METADATA", ck->step_dir);
    if (!path)
        return nomem();
    ss_status st = SS_OK;
    if (ss__ck_is_file(path)) {
        cJSON *j;
        st = read_json(path, &j);
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(j, "init_timestamp_nsecs");
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(j, "commit_timestamp_nsecs");
        if (st == SS_OK && (!cJSON_IsObject(j) || (a && !json_int(a, 0, 9.2e18)) ||
                            (c && !json_int(c, 0, 9.2e18))))
            st = ss__fail(SS_ERR_PARSE, "%s is not an object with integer timestamps", path);
        if (st == SS_OK) {
            ck->init_ns = a ? (int64_t)a->valuedouble : 0;
            ck->commit_ns = c ? (int64_t)c->valuedouble : 0;
        }
        cJSON_Delete(j);
    }
    free(path);
    return st;
}

/* Every array_metadatas/process_* file; then, when the step requires
 * checksums, every array must have had its record. */
static ss_status load_all_sums(ss_ckpt *ck)
{
    char *md = ss__ck_pathf("%s/array_metadatas", ck->item_dir);
    if (!md)
        return nomem();
    ss_status st = SS_OK;
    DIR *d = opendir(md);
    if (!d && errno != ENOENT)
        st = ss__fail(errno == ENOMEM ? SS_ERR_NOMEM : SS_ERR_IO, "cannot read %s: %s", md,
                      strerror(errno));
    struct dirent *e;
    while (st == SS_OK && d && (e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "process_", 8) != 0)
            continue;
        char *p = ss__ck_pathf("%s/%s", md, e->d_name);
        st = p ? load_sums(ck, p) : nomem();
        free(p);
    }
    if (d)
        closedir(d);
    for (int i = 0; i < ck->n; i++)
        ck->sums_required |= ck->arrays[i].recorded;
    for (int i = 0; st == SS_OK && i < ck->n; i++) {
        ss__ck_array *a = &ck->arrays[i];
        if (ck->sums_required && !a->recorded)
            st = ss__fail(SS_ERR_IO, "array '%s' has no checksum record in %s/process_* (the "
                                     "step was saved with chunk checksums, as %s; a checksum "
                                     "file is missing or damaged)",
                          a->name, md,
                          ck->zcrc_required ? "its _METADATA records"
                                            : "the other arrays' records show");
        if (a->nsums > 1)
            qsort(a->sums, (size_t)a->nsums, sizeof(ss__ck_sums), sums_cmp);
        for (int k = 1; st == SS_OK && k < a->nsums; k++)
            if (strcmp(a->sums[k - 1].key, a->sums[k].key) == 0)
                st = ss__fail(SS_ERR_PARSE, "%s: array '%s' chunk %s has two checksum records",
                              md, a->name, a->sums[k].key);
    }
    free(md);
    return st;
}

bool ss__ck_is_single(const char *dir)
{
    char *a = ss__ck_pathf("%s/_CHECKPOINT_METADATA", dir);
    char *b = ss__ck_pathf("%s/_METADATA", dir);
    bool yes = (a && ss__ck_is_file(a)) || (b && ss__ck_is_file(b));
    free(a);
    free(b);
    return yes;
}

ss_status ss_ckpt_open(const char *dir, int64_t step, const char *item, ss_ckpt **out)
{
    *out = NULL;
    if (!dir)
        return ss__fail(SS_ERR_INVALID, "checkpoint: no directory");
    bool single = ss__ck_is_single(dir);
    if (single && step > 0)
        return ss__fail(SS_ERR_INVALID, "%s is one checkpoint (it holds _CHECKPOINT_METADATA or "
                                        "_METADATA), not a directory of steps: give no step",
                        dir);
    if (step < 0 && !single) {
        ss_status st = ss_ckpt_latest_step(dir, &step);
        if (st)
            return st;
    }
    ss_ckpt *ck = calloc(1, sizeof *ck);
    if (!ck)
        return ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    ck->step = single ? 0 : step;
    ck->root = ss__ck_pathf("%s", dir);
    ck->step_dir = single ? ss__ck_pathf("%s", dir) : ss__ck_step_path(dir, step, false);
    char *marker = ck->step_dir ? ss__ck_pathf("%s/commit_success.txt", ck->step_dir) : NULL;
    ss_status st = SS_OK;
    if (!ck->root || !marker) {
        st = ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    } else if (!ss__ck_is_dir(ck->step_dir)) {
        char *tmp = ss__ck_step_path(dir, step, true);
        bool in_progress = tmp && ss__ck_is_dir(tmp);
        st = ss__fail(SS_ERR_IO, "Requested directory for restore does not exist at %s%s",
                      ck->step_dir, in_progress ? " (only an unfinished save of it)" : "");
        free(tmp);
    } else if (!ss__ck_is_file(marker)) {
        st = ss__fail(SS_ERR_IO, "Found incomplete checkpoint at %s: no commit_success.txt",
                      ck->step_dir);
    }
    free(marker);
    if (!st)
        st = load_timestamps(ck);
    if (!st)
        st = choose_item(ck, item);
    if (!st && ss__ocdbt_present(ck->item_dir))
        st = ss__ocdbt_open(ck->item_dir, &ck->kv);
    if (!st)
        st = load_tree(ck);
    if (!st)
        st = load_shardings(ck);
    if (!st)
        st = load_all_sums(ck);
    if (st) {
        ss_ckpt_close(ck);
        return st;
    }
    *out = ck;
    return SS_OK;
}

void ss_ckpt_close(ss_ckpt *ck)
{
    if (!ck)
        return;
    for (int i = 0; ck->arrays && i < ck->n; i++) {
        ss__ck_array *a = &ck->arrays[i];
        free(a->sharding);
        for (int k = 0; k < a->nsums; k++) {
            free(a->sums[k].key);
            free(a->sums[k].crc);
        }
        free(a->sums);
    }
    free(ck->arrays);
    ss__ocdbt_free(ck->kv);
    free(ck->root);
    free(ck->step_dir);
    free(ck->item_dir);
    free(ck);
}

int64_t ss_ckpt_step(const ss_ckpt *ck) { return ck->step; }
const char *ss_ckpt_item(const ss_ckpt *ck) { return ck->item; }
int ss_ckpt_array_count(const ss_ckpt *ck) { return ck->n; }

void ss_ckpt_timestamps(const ss_ckpt *ck, int64_t *init_ns, int64_t *commit_ns)
{
    if (init_ns)
        *init_ns = ck->init_ns;
    if (commit_ns)
        *commit_ns = ck->commit_ns;
}

const char *ss_ckpt_array_name(const ss_ckpt *ck, int i)
{
    return i >= 0 && i < ck->n ? ck->arrays[i].name : NULL;
}

int ss_ckpt_array_find(const ss_ckpt *ck, const char *name)
{
    for (int i = 0; i < ck->n; i++)
        if (strcmp(ck->arrays[i].name, name) == 0)
            return i;
    return -1;
}

const ss__ck_sums *ss__ck_sums_find(const ss_ckpt *ck, int i, const char *key)
{
    const ss__ck_array *a = &ck->arrays[i];
    ss__ck_sums probe = {.key = (char *)(uintptr_t)key};
    return a->nsums ? bsearch(&probe, a->sums, (size_t)a->nsums, sizeof probe, sums_cmp) : NULL;
}

ss_status ss__ck_sums_get(const ss_ckpt *ck, int i, const char *key, const ss__ck_sums **out)
{
    *out = ss__ck_sums_find(ck, i, key);
    if (!*out && ck->sums_required)
        return ss__fail(SS_ERR_IO, "array '%s' chunk %s has no checksum record in "
                                   "%s/array_metadatas (the step was saved with chunk "
                                   "checksums; a checksum file is missing or damaged)",
                        ck->arrays[i].name, key, ck->item_dir);
    return SS_OK;
}

/* The array metadata text of array a, .zarray or else zarr.json (*v3): a
 * file, or a key of the item's OCDBT store. */
static ss_status read_zarray(ss_ckpt *ck, const ss__ck_array *a, char **text, size_t *len,
                             bool *v3)
{
    static const char *const names[2] = {".zarray", "zarr.json"};
    for (int k = 0; k < 2; k++) {
        *v3 = k == 1;
        if (ck->kv) {
            char *key = ss__ck_pathf("%s/%s", a->name, names[k]);
            if (!key)
                return nomem();
            const ss__ocdbt_entry *e = ss__ocdbt_find(ck->kv, key);
            free(key);
            if (e)
                return ss__ocdbt_read_value(ck->kv, e, text, len);
            continue;
        }
        char *path = ss__ck_pathf("%s/%s/%s", ck->item_dir, a->name, names[k]);
        if (!path)
            return nomem();
        if (ss__ck_is_file(path)) {
            ss_status st = ss__ck_read_file(path, text, len);
            free(path);
            return st;
        }
        free(path);
    }
    if (ck->kv)
        return ss__fail(SS_ERR_IO, "array '%s': no key %s/.zarray or %s/zarr.json in the OCDBT "
                                   "store %s",
                        a->name, a->name, a->name, ck->item_dir);
    return ss__fail(SS_ERR_IO, "array '%s': File not found: %s/%s/.zarray (nor zarr.json). In "
                               "many cases, this results from copying a checkpoint without "
                               "using the `-a` flag.",
                    a->name, ck->item_dir, a->name);
}

ss_status ss__ck_zarray_get(ss_ckpt *ck, int i, const ss__ck_zarray **out)
{
    ss__ck_array *a = &ck->arrays[i];
    if (!a->zloaded) {
        char *text;
        size_t len;
        bool v3;
        ss_status st = read_zarray(ck, a, &text, &len, &v3);
        if (st)
            return st;
        st = v3 ? ss__ck_zarr3_parse(text, len, a->name, &a->z)
                : ss__ck_zarray_parse(text, len, a->name, &a->z);
        free(text);
        if (st)
            return st;
        if (ck->zcrc_required && !a->has_zcrc)
            return ss__fail(SS_ERR_IO, "array '%s': no checksum of its .zarray is recorded (the "
                                       "step was saved with checksums; a checksum file is "
                                       "damaged)",
                            a->name);
        if (a->has_zcrc && a->z.text_crc != a->zcrc)
            return ss__fail(SS_ERR_IO, "array '%s': .zarray CRC32C mismatch (recorded %08x, "
                                       "read %08x): the file was changed after the save",
                            a->name, a->zcrc, a->z.text_crc);
        a->zloaded = true;
    }
    *out = &a->z;
    return SS_OK;
}

ss_status ss_ckpt_array_info(const ss_ckpt *ck_in, int i, ss_ckpt_array_desc *out)
{
    ss_ckpt *ck = (ss_ckpt *)(uintptr_t)ck_in; /* the .zarray cache only */
    memset(out, 0, sizeof *out);
    if (i < 0 || i >= ck->n)
        return ss__fail(SS_ERR_RANGE, "array index %d is outside 0..%d", i, ck->n - 1);
    const ss__ck_zarray *z;
    ss_status st = ss__ck_zarray_get(ck, i, &z);
    if (st)
        return st;
    snprintf(out->name, sizeof out->name, "%s", ck->arrays[i].name);
    out->dtype = z->dtype;
    out->rank = z->rank;
    out->bytes_logical = ss_dtype_size(z->dtype);
    for (int d = 0; d < z->rank; d++) {
        out->shape[d] = z->shape[d];
        out->chunks[d] = z->chunks[d];
        out->bytes_logical *= (uint64_t)z->shape[d];
    }
    out->compression = z->zstd ? SS_CKPT_ZSTD : SS_CKPT_UNCOMPRESSED;
    out->zstd_level = z->zstd ? z->level : 0;
    out->nchunks = ss__ck_grid_total(z);
    out->has_crc = ck->arrays[i].nsums > 0;
    int64_t idx[SS_MAX_RANK] = {0};
    for (int64_t c = 0; c < out->nchunks; c++) {
        ss__buf key;
        ss__buf_init(&key);
        ss__ck_chunk_key(&key, z, idx);
        if (!key.data || key.oom) {
            ss__buf_free(&key);
            return nomem();
        }
        uint64_t size;
        if (ss__ck_chunk_size(ck, i, key.data, &size) == SS_OK)
            out->bytes_stored += size;
        else
            out->chunks_missing++;
        ss__buf_free(&key);
        for (int d = z->rank - 1; d >= 0; d--) {
            if (++idx[d] < ss__ck_grid(z, d))
                break;
            idx[d] = 0;
        }
    }
    if (ck->arrays[i].sharding) {
        ss__ck_saved s;
        st = ss__ck_saved_parse(ck->arrays[i].sharding, out->name, &s);
        if (st == SS_ERR_NOMEM)
            return st;
        if (st == SS_OK) {
            out->saved = s.kind;
            ss__ck_saved_text(&s, out->saved_text, sizeof out->saved_text);
            ss__ck_saved_free(&s);
        } else {
            out->saved = SS_CKPT_SHARDING_OTHER;
            snprintf(out->saved_text, sizeof out->saved_text, "(unreadable _sharding entry)");
        }
    }
    return SS_OK;
}

/* "0-7" style list of ids for messages. */
static void ids_text(ss__buf *b, const int *ids, int n)
{
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && ids[j + 1] == ids[j] + 1)
            j++;
        ss__buf_printf(b, i ? ",%d" : "%d", ids[i]);
        if (j > i)
            ss__buf_printf(b, "-%d", ids[j]);
        i = j + 1;
    }
}

ss_status ss_ckpt_saved_sharding(const ss_ckpt *ck, int i, int ndevices, ss_mesh **mesh,
                                 ss_sharding *out)
{
    *mesh = NULL;
    if (i < 0 || i >= ck->n)
        return ss__fail(SS_ERR_RANGE, "array index %d is outside 0..%d", i, ck->n - 1);
    const char *name = ck->arrays[i].name;
    if (!ck->arrays[i].sharding)
        return ss__fail(SS_ERR_INVALID, "array '%s': Sharding of jax.Array cannot be None. "
                                        "Provide `mesh` and `mesh_axes` OR `sharding` (no target "
                                        "sharding and none saved)",
                        name);
    ss__ck_saved s;
    ss_status st = ss__ck_saved_parse(ck->arrays[i].sharding, name, &s);
    if (st)
        return st;
    char text[512];
    ss__ck_saved_text(&s, text, sizeof text);
    static const char mismatch[] =
        "Topology mismatch detected. The checkpoint was saved with a different topology than "
        "the current one. Please provide a target tree with the desired topology to restore.";
    if (s.kind == SS_CKPT_SHARDING_SINGLE_DEVICE) {
        if (s.device >= ndevices)
            st = ss__fail(SS_ERR_MESH, "array '%s': %s (saved %s; devices 0-%d available)", name,
                          mismatch, text, ndevices - 1);
        else if (s.device != 0)
            st = ss__fail(SS_ERR_UNSUPPORTED, "array '%s': saved on device %d alone; shardsim "
                                              "rebuilds single-device shardings on device 0 "
                                              "only",
                          name, s.device);
        else
            st = ss_mesh_create(0, NULL, NULL, 1, NULL, mesh);
    } else if (s.kind == SS_CKPT_SHARDING_NAMED) {
        int bad = -1;
        for (int k = 0; s.ids && k < s.ndev; k++)
            if (s.ids[k] >= ndevices || s.ids[k] >= s.ndev)
                bad = k;
        if ((!s.ids && s.ndev != ndevices) || (bad >= 0 && s.ids[bad] >= ndevices)) {
            ss__buf b;
            ss__buf_init(&b);
            if (s.ids)
                ids_text(&b, s.ids, s.ndev);
            st = ss__fail(SS_ERR_MESH, "array '%s': %s (saved %s over %s%s; devices 0-%d "
                                       "available)",
                          name, mismatch, text, s.ids ? "devices " : "all ",
                          s.ids ? (b.data ? b.data : "?") : "devices", ndevices - 1);
            ss__buf_free(&b);
        } else if (bad >= 0) {
            st = ss__fail(SS_ERR_UNSUPPORTED, "array '%s': the saved mesh uses device %d of %d "
                                              "devices; shardsim meshes of N devices use ids "
                                              "0..N-1",
                          name, s.ids[bad], s.ndev);
        } else {
            const char *names[SS_MAX_AXES];
            for (int a = 0; a < s.naxes; a++)
                names[a] = s.names[a];
            st = ss_mesh_create(s.naxes, names, s.sizes, s.ndev, s.ids, mesh);
        }
    } else {
        st = ss__fail(SS_ERR_UNSUPPORTED, "array '%s': saved sharding %s cannot be rebuilt; "
                                          "give a target sharding",
                      name, s.type);
    }
    if (st == SS_OK) {
        ss_sharding_init(out, *mesh, &s.spec);
        if (s.kind == SS_CKPT_SHARDING_SINGLE_DEVICE)
            memset(&out->spec, 0, sizeof out->spec);
        st = ss_sharding_validate(out);
        if (st) {
            ss_mesh_destroy(*mesh);
            *mesh = NULL;
        }
    }
    ss__ck_saved_free(&s);
    return st;
}
