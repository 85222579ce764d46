/*
 * ocdbt_read.c — reading TensorStore's OCDBT key-value store, the layout
 * Orbax writes by default (ITEM/manifest.ocdbt, ITEM/d/<id> and, from each
 * process, ITEM/ocdbt.process_N/{manifest.ocdbt,d/<id>}), into a sorted
 * in-memory index of its keys.
 *
 * The format is TensorStore's published specification (the "Storage format"
 * section of its kvstore/ocdbt documentation), checked against files the
 * pinned orbax-checkpoint wrote. Every encoded object (manifest, B+tree
 * node) is a frame: uint32be magic, uint64le total length, varint version
 * (0), varint compression (0 none, 1 zstd), the body, and a uint32le CRC32C
 * of all bytes before it. Tables inside a body are stored column by column
 * (all prefix lengths, then all suffix lengths, ...).
 *
 * What it reads: the manifest's configuration, its data file table and its
 * inline versions, of which it takes the newest; from that version's root
 * every B+tree node, depth first. Small values come inline in the leaves
 * and are kept; large ones are recorded as (data file, offset, length) for
 * the chunk reader to pread. What it refuses, with a message: other format
 * versions, compression methods other than zstd, a manifest whose newest
 * version lives only in version-tree nodes, and limits on node count and
 * key count that a damaged file could otherwise blow up. Frames, cursors and data file
 * tables are ocdbt_frame.c's.
 */
#include "shardsim.h"

#include "ckpt_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static ss_status nomem(void)
{
    return ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
}

/* --- The scan -------------------------------------------------------------- */

/* Limits against damaged input: nodes visited, keys, total key bytes. */
#define MAX_NODES (1 << 20)
#define MAX_KEYS (1 << 24)

typedef struct scan {
    ss__ocdbt *kv;
    ss__ocdbt_loader load;
    void *ctx;
    uint64_t max_node;
    long nodes;
    /* Nodes seen, as hashes of (path, offset) in an open-addressed table:
     * a B+tree reaches each node once, so a second visit is damage (and
     * would let a few bytes make exponential work). */
    uint64_t *seen;
    size_t seen_cap;
} scan;

static uint64_t node_hash(const char *path, uint64_t off)
{
    uint64_t h = 1469598103934665603ull ^ off;
    for (const char *p = path; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    h ^= h >> 29;
    return h ? h : 1;
}

/* Record the node; false if it was seen before or memory ran out (*oom). */
static bool first_visit(scan *s, const char *path, uint64_t off, bool *oom)
{
    if ((size_t)s->nodes * 2 >= s->seen_cap) {
        size_t cap = s->seen_cap ? s->seen_cap * 2 : 256;
        uint64_t *t = calloc(cap, sizeof *t);
        if (!t) {
            *oom = true;
            return false;
        }
        for (size_t i = 0; i < s->seen_cap; i++)
            if (s->seen[i])
                for (size_t j = s->seen[i] & (cap - 1);; j = (j + 1) & (cap - 1))
                    if (!t[j]) {
                        t[j] = s->seen[i];
                        break;
                    }
        free(s->seen);
        s->seen = t;
        s->seen_cap = cap;
    }
    uint64_t h = node_hash(path, off);
    for (size_t j = h & (s->seen_cap - 1);; j = (j + 1) & (s->seen_cap - 1)) {
        if (s->seen[j] == h)
            return false;
        if (!s->seen[j]) {
            s->seen[j] = h;
            return true;
        }
    }
}

static int file_index(ss__ocdbt *kv, const char *path)
{
    for (int i = kv->nfiles - 1; i >= 0; i--)
        if (strcmp(kv->files[i], path) == 0)
            return i;
    char **p = realloc(kv->files, (size_t)(kv->nfiles + 1) * sizeof *p);
    if (!p)
        return -1;
    kv->files = p;
    if (!(kv->files[kv->nfiles] = ss__ck_pathf("%s", path)))
        return -1;
    return kv->nfiles++;
}

static ss_status add_entry(ss__ocdbt *kv, const char *prefix, size_t plen, const char *rel,
                           size_t rlen, ss__ocdbt_entry *e)
{
    if (kv->n >= MAX_KEYS)
        return ss__fail(SS_ERR_IO, "OCDBT in %s: more than %d keys", kv->root, MAX_KEYS);
    if (kv->n == kv->cap) {
        int cap = kv->cap ? kv->cap * 2 : 64;
        ss__ocdbt_entry *p = realloc(kv->e, (size_t)cap * sizeof *p);
        if (!p)
            return nomem();
        kv->e = p;
        kv->cap = cap;
    }
    e->key = malloc(plen + rlen + 1);
    if (!e->key)
        return nomem();
    memcpy(e->key, prefix, plen);
    memcpy(e->key + plen, rel, rlen);
    e->key[plen + rlen] = '\0';
    if (strlen(e->key) != plen + rlen) {
        free(e->key);
        return ss__fail(SS_ERR_UNSUPPORTED, "OCDBT in %s: a key holds a NUL byte", kv->root);
    }
    kv->e[kv->n++] = *e;
    return SS_OK;
}

static ss_status visit(scan *s, const char *path, uint64_t off, uint64_t len, int height,
                       const char *transitive, const char *prefix, size_t plen);

/* Keys of one node: prefix lengths (n-1), suffix lengths (n), [subtree
 * common prefix lengths (n)], suffix bytes; `keys` gets n malloc'd
 * relative keys with their lengths. */
static ss_status read_keys(ss__ocdbt_cur *c, uint64_t n, bool interior, const char *what, char ***keys,
                           size_t **klen, uint64_t **common)
{
    *keys = calloc((size_t)n, sizeof **keys);
    *klen = calloc((size_t)n, sizeof **klen);
    uint64_t *pre = calloc((size_t)n * 3, sizeof *pre);
    *common = pre ? pre + 2 * n : NULL;
    if (!*keys || !*klen || !pre)
        return nomem();
    uint64_t *suf = pre + n;
    for (uint64_t i = 1; i < n; i++)
        pre[i] = ss__ocdbt_varint(c);
    for (uint64_t i = 0; i < n; i++)
        suf[i] = ss__ocdbt_varint(c);
    for (uint64_t i = 0; interior && i < n; i++)
        (*common)[i] = ss__ocdbt_varint(c);
    for (uint64_t i = 0; i < n; i++) {
        const unsigned char *sb = ss__ocdbt_bytes(c, suf[i]);
        size_t prev = i ? (*klen)[i - 1] : 0;
        if (c->bad || pre[i] > prev || pre[i] + suf[i] > SS__OCDBT_MAX_PATH ||
            (interior && (*common)[i] > pre[i] + suf[i]))
            return ss__fail(SS_ERR_IO, "%s: key %llu is malformed or truncated", what,
                            (unsigned long long)i);
        (*keys)[i] = malloc((size_t)(pre[i] + suf[i]) + 1);
        if (!(*keys)[i])
            return nomem();
        if (pre[i])
            memcpy((*keys)[i], (*keys)[i - 1], (size_t)pre[i]);
        memcpy((*keys)[i] + pre[i], sb, (size_t)suf[i]);
        (*klen)[i] = (size_t)(pre[i] + suf[i]);
    }
    return SS_OK;
}

static ss_status leaf(scan *s, ss__ocdbt_cur *c, uint64_t n, const ss__ocdbt_table *t, const char *prefix,
                      size_t plen, char **keys, const size_t *klen, const char *what)
{
    uint64_t *vlen = calloc((size_t)n * 4 + 1, sizeof *vlen);
    if (!vlen)
        return nomem();
    uint64_t *kind = vlen + n, *fid = vlen + 2 * n, *foff = vlen + 3 * n;
    for (uint64_t i = 0; i < n; i++)
        vlen[i] = ss__ocdbt_varint(c);
    for (uint64_t i = 0; i < n; i++)
        kind[i] = ss__ocdbt_varint(c);
    for (uint64_t i = 0; i < n; i++)
        if (kind[i] == 1)
            fid[i] = ss__ocdbt_varint(c);
    for (uint64_t i = 0; i < n; i++)
        if (kind[i] == 1)
            foff[i] = ss__ocdbt_varint(c);
    ss_status st = SS_OK;
    for (uint64_t i = 0; !st && i < n; i++) {
        ss__ocdbt_entry e = {0};
        if (c->bad || kind[i] > 1 || (kind[i] == 1 && fid[i] >= (uint64_t)t->n) ||
            (kind[i] == 1 && foff[i] > UINT64_MAX - vlen[i])) {
            st = ss__fail(SS_ERR_IO, "%s: value %llu is malformed or truncated", what,
                          (unsigned long long)i);
            break;
        }
        if (kind[i] == 0) {
            const unsigned char *v = ss__ocdbt_bytes(c, vlen[i]);
            if (!v) {
                st = ss__fail(SS_ERR_IO, "%s: inline value %llu is truncated", what,
                              (unsigned long long)i);
                break;
            }
            e.is_inline = true;
            e.length = vlen[i];
            e.inl = malloc((size_t)vlen[i] + 1);
            if (!e.inl) {
                st = nomem();
                break;
            }
            memcpy(e.inl, v, (size_t)vlen[i]);
        } else {
            e.file = file_index(s->kv, t->path[fid[i]]);
            e.offset = foff[i];
            e.length = vlen[i];
            if (e.file < 0) {
                st = nomem();
                break;
            }
        }
        st = add_entry(s->kv, prefix, plen, keys[i], klen[i], &e);
        if (st)
            free(e.inl);
    }
    if (!st && c->at != c->n)
        st = ss__fail(SS_ERR_IO, "%s: %zu bytes after the last value", what, c->n - c->at);
    free(vlen);
    return st;
}

static ss_status interior(scan *s, ss__ocdbt_cur *c, uint64_t n, int height, const ss__ocdbt_table *t,
                          const char *prefix, size_t plen, char **keys, const size_t *klen,
                          const uint64_t *common, const char *what)
{
    uint64_t *col = calloc((size_t)n * 6 + 1, sizeof *col);
    if (!col)
        return nomem();
    for (int k = 0; k < 6; k++)
        for (uint64_t i = 0; i < n; i++)
            col[(uint64_t)k * n + i] = ss__ocdbt_varint(c);
    ss_status st = SS_OK;
    if (c->bad || c->at != c->n)
        st = ss__fail(SS_ERR_IO, "%s: child table is truncated or followed by extra bytes",
                      what);
    char *pfx = st ? NULL : malloc(plen + SS__OCDBT_MAX_PATH + 1);
    if (!st && !pfx)
        st = nomem();
    for (uint64_t i = 0; !st && i < n; i++) {
        uint64_t f = col[i], off = col[n + i], len = col[2 * n + i];
        if (f >= (uint64_t)t->n) {
            st = ss__fail(SS_ERR_IO, "%s: child %llu names data file %llu of %d", what,
                          (unsigned long long)i, (unsigned long long)f, t->n);
            break;
        }
        memcpy(pfx, prefix, plen);
        memcpy(pfx + plen, keys[i], (size_t)common[i]);
        (void)klen;
        st = visit(s, t->path[f], off, len, height - 1, t->base[f], pfx,
                   plen + (size_t)common[i]);
    }
    free(pfx);
    free(col);
    return st;
}

static ss_status visit(scan *s, const char *path, uint64_t off, uint64_t len, int height,
                       const char *transitive, const char *prefix, size_t plen)
{
    bool oom = false;
    if (!first_visit(s, path, off, &oom))
        return oom ? nomem()
                   : ss__fail(SS_ERR_IO, "OCDBT in %s: B+tree node %s@%llu is reached twice",
                              s->kv->root, path, (unsigned long long)off);
    if (++s->nodes > MAX_NODES)
        return ss__fail(SS_ERR_IO, "OCDBT in %s: more than %d B+tree nodes", s->kv->root,
                        MAX_NODES);
    char what[300];
    snprintf(what, sizeof what, "OCDBT B+tree node %s@%llu+%llu in %s", path,
             (unsigned long long)off, (unsigned long long)len, s->kv->root);
    unsigned char *raw = NULL, *body = NULL;
    size_t blen = 0;
    ss_status st = s->load(s->ctx, path, off, len, &raw);
    if (!st)
        st = ss__ocdbt_frame(raw, (size_t)len, SS__OCDBT_MAGIC_BTREE, s->max_node, what, &body, &blen);
    free(raw);
    if (st)
        return st;
    ss__ocdbt_cur c = {body, blen, 0, false};
    unsigned h = ss__ocdbt_u8(&c);
    ss__ocdbt_table t = {0};
    if (c.bad || (int)h != height) {
        free(body);
        return ss__fail(SS_ERR_IO, "%s: height %u, expected %d", what, h, height);
    }
    st = ss__ocdbt_table_read(&c, transitive, what, &t);
    uint64_t n = st ? 0 : ss__ocdbt_varint(&c);
    if (!st && (c.bad || n > c.n - c.at))
        st = ss__fail(SS_ERR_IO, "%s: entry count is malformed", what);
    char **keys = NULL;
    size_t *klen = NULL;
    uint64_t *common = NULL;
    if (!st && n)
        st = read_keys(&c, n, height > 0, what, &keys, &klen, &common);
    if (!st && n)
        st = height > 0 ? interior(s, &c, n, height, &t, prefix, plen, keys, klen, common, what)
                        : leaf(s, &c, n, &t, prefix, plen, keys, klen, what);
    for (uint64_t i = 0; keys && i < n; i++)
        free(keys[i]);
    free(keys);
    free(klen);
    free(common ? common - 2 * n : NULL);
    ss__ocdbt_table_free(&t);
    free(body);
    return st;
}

/* --- The manifest ---------------------------------------------------------- */

static int entry_cmp(const void *a, const void *b)
{
    return strcmp(((const ss__ocdbt_entry *)a)->key, ((const ss__ocdbt_entry *)b)->key);
}

ss_status ss__ocdbt_decode(ss__ocdbt *kv, const unsigned char *p, size_t n,
                           ss__ocdbt_loader load, void *ctx)
{
    char what[300];
    snprintf(what, sizeof what, "OCDBT manifest %s/manifest.ocdbt", kv->root);
    unsigned char *body;
    size_t blen;
    ss_status st = ss__ocdbt_frame(p, n, SS__OCDBT_MAGIC_MANIFEST, (uint64_t)1 << 30, what, &body, &blen);
    if (st)
        return st;
    ss__ocdbt_cur c = {body, blen, 0, false};
    ss__ocdbt_bytes(&c, 16); /* uuid */
    uint64_t kind = ss__ocdbt_varint(&c); /* manifest_kind: 0 single, 1 numbered */
    ss__ocdbt_varint(&c);                 /* max_inline_value_bytes */
    uint64_t max_node = ss__ocdbt_varint(&c);
    unsigned arity = ss__ocdbt_u8(&c);
    uint64_t method = ss__ocdbt_varint(&c);
    if (method == 1)
        ss__ocdbt_bytes(&c, 4); /* zstd level */
    ss__ocdbt_table t = {0};
    if (c.bad || kind != 0 || method > 1 || arity == 0 || arity > 16)
        st = ss__fail(c.bad ? SS_ERR_IO : SS_ERR_UNSUPPORTED, "%s: configuration is %s", what,
                      c.bad ? "truncated" : "not one this shardsim reads");
    if (!st)
        st = ss__ocdbt_table_read(&c, "", what, &t);
    uint64_t nv = st ? 0 : ss__ocdbt_varint(&c);
    if (!st && (c.bad || nv > c.n - c.at))
        st = ss__fail(SS_ERR_IO, "%s: version list is malformed", what);
    /* Columns: generation, root height, data file, offset, length, keys,
     * tree bytes, indirect value bytes, commit time; the last row wins. */
    uint64_t col[9] = {0};
    for (int k = 0; !st && k < 9; k++)
        for (uint64_t i = 0; i < nv; i++) {
            uint64_t v;
            if (k == 1) {
                v = ss__ocdbt_u8(&c);
            } else if (k == 8) {
                const unsigned char *b = ss__ocdbt_bytes(&c, 8);
                v = b ? ss__ocdbt_le64(b) : 0;
            } else {
                v = ss__ocdbt_varint(&c);
            }
            if (k == 0 && i && v <= col[0])
                c.bad = true; /* generations increase */
            col[k] = v;
        }
    uint64_t nnodes = st ? 0 : ss__ocdbt_varint(&c);
    if (!st && c.bad)
        st = ss__fail(SS_ERR_IO, "%s: version list is truncated or out of order", what);
    if (!st && nv == 0 && nnodes > 0)
        st = ss__fail(SS_ERR_UNSUPPORTED, "%s: the newest version is only in version-tree "
                                          "nodes (not read by this shardsim)",
                      what);
    if (!st && nv > 0) {
        kv->generation = col[0];
        kv->commit_time = col[8];
        if (col[2] >= (uint64_t)t.n && col[4] > 0)
            st = ss__fail(SS_ERR_IO, "%s: the root names data file %llu of %d", what,
                          (unsigned long long)col[2], t.n);
        else if (col[4] > 0) {
            uint64_t cap = max_node < ((uint64_t)1 << 30) ? max_node + 64 : (uint64_t)1 << 30;
            scan s = {kv, load, ctx, cap, 0, NULL, 0};
            st = visit(&s, t.path[col[2]], col[3], col[4], (int)col[1], t.base[col[2]], "", 0);
            free(s.seen);
        }
    }
    ss__ocdbt_table_free(&t);
    free(body);
    if (!st && kv->n > 1) {
        qsort(kv->e, (size_t)kv->n, sizeof *kv->e, entry_cmp);
        for (int i = 1; i < kv->n; i++)
            if (strcmp(kv->e[i - 1].key, kv->e[i].key) == 0)
                return ss__fail(SS_ERR_IO, "%s: key '%s' occurs twice", what, kv->e[i].key);
    }
    return st;
}

/* --- Files ----------------------------------------------------------------- */

static ss_status file_load(void *ctx, const char *path, uint64_t off, uint64_t len,
                           unsigned char **out)
{
    const char *root = ctx;
    *out = NULL;
    char *full = ss__ck_pathf("%s/%s", root, path);
    if (!full)
        return nomem();
    int fd = open(full, O_RDONLY | O_CLOEXEC);
    struct stat sb;
    ss_status st = SS_OK;
    if (fd < 0)
        st = ss__fail(SS_ERR_IO, "OCDBT data file %s is missing: %s", full, strerror(errno));
    else if (fstat(fd, &sb) != 0 || (uint64_t)sb.st_size < off ||
             (uint64_t)sb.st_size - off < len)
        st = ss__fail(SS_ERR_IO, "OCDBT data file %s is truncated: bytes [%llu, %llu) are "
                                 "referenced",
                      full, (unsigned long long)off, (unsigned long long)(off + len));
    if (!st && !(*out = malloc(len ? (size_t)len : 1)))
        st = nomem();
    size_t got = 0;
    if (!st)
        st = ss__ck_pread_all(fd, *out, (size_t)len, off, &got, full);
    if (!st && got != len)
        st = ss__fail(SS_ERR_IO, "OCDBT data file %s is truncated", full);
    if (fd >= 0)
        close(fd);
    free(full);
    if (st) {
        free(*out);
        *out = NULL;
    }
    return st;
}

bool ss__ocdbt_present(const char *dir)
{
    char *p = ss__ck_pathf("%s/manifest.ocdbt", dir);
    bool yes = p && ss__ck_is_file(p);
    free(p);
    return yes;
}

ss_status ss__ocdbt_open(const char *dir, ss__ocdbt **out)
{
    *out = NULL;
    ss__ocdbt *kv = calloc(1, sizeof *kv);
    char *path = ss__ck_pathf("%s/manifest.ocdbt", dir);
    if (!kv || !path || !(kv->root = ss__ck_pathf("%s", dir))) {
        free(path);
        ss__ocdbt_free(kv);
        return nomem();
    }
    char *text = NULL;
    size_t len = 0;
    ss_status st = ss__ck_read_file(path, &text, &len);
    free(path);
    if (!st)
        st = ss__ocdbt_decode(kv, (const unsigned char *)text, len, file_load, kv->root);
    free(text);
    if (st) {
        ss__ocdbt_free(kv);
        return st;
    }
    *out = kv;
    return SS_OK;
}

void ss__ocdbt_free(ss__ocdbt *kv)
{
    if (!kv)
        return;
    for (int i = 0; i < kv->n; i++) {
        free(kv->e[i].key);
        free(kv->e[i].inl);
    }
    for (int i = 0; i < kv->nfiles; i++)
        free(kv->files[i]);
    free(kv->files);
    free(kv->e);
    free(kv->root);
    free(kv);
}

const ss__ocdbt_entry *ss__ocdbt_find(const ss__ocdbt *kv, const char *key)
{
    ss__ocdbt_entry probe = {.key = (char *)(uintptr_t)key};
    return kv->n ? bsearch(&probe, kv->e, (size_t)kv->n, sizeof probe, entry_cmp) : NULL;
}

ss_status ss__ocdbt_read_value(const ss__ocdbt *kv, const ss__ocdbt_entry *e, char **out,
                               size_t *len)
{
    unsigned char *p = NULL;
    if (e->is_inline) {
        if (!(p = malloc((size_t)e->length + 1)))
            return nomem();
        memcpy(p, e->inl, (size_t)e->length);
    } else {
        if (e->length > ((uint64_t)1 << 30))
            return ss__fail(SS_ERR_IO, "OCDBT value '%s' in %s: %llu bytes is too large to "
                                       "read whole",
                            e->key, kv->root, (unsigned long long)e->length);
        unsigned char *q;
        ss_status st = file_load(kv->root, kv->files[e->file], e->offset, e->length, &q);
        if (st)
            return st;
        if (!(p = realloc(q, (size_t)e->length + 1))) {
            free(q);
            return nomem();
        }
    }
    p[e->length] = '\0';
    *out = (char *)p;
    *len = (size_t)e->length;
    return SS_OK;
}
