/*
 * ocdbt_write.c — turning a written item directory (one directory per
 * array holding .zarray and chunk files) into the OCDBT store Orbax writes
 * by default: ITEM/manifest.ocdbt and one data file ITEM/d/<32 hex digits>.
 *
 * Encoding as TensorStore's kvstore/ocdbt "Storage format" document gives
 * it (ocdbt_frame.c reads the same): the data file holds every value larger
 * than 1024 bytes (max_inline_value_bytes, Orbax's setting) back to back,
 * then one zstd-compressed B+tree leaf node with every key ("params.w/0.1",
 * sorted bytewise) and the smaller values inline; the manifest (zstd, CRC32C)
 * has Orbax's configuration (manifest kind "single", 1024 inline bytes,
 * 100000000 decoded node bytes, version tree arity 2^4, zstd level 0) and
 * one version, generation 1, whose root is that leaf.
 *
 * The packing streams each file through one host buffer, fsyncs the data
 * file and the manifest, then removes the array directories. It runs on the
 * temporary step directory before the commit, so a failure or a kill
 * leaves nothing visible. A single leaf holds any checkpoint shardsim
 * writes (keys are short; 100 MB of decoded node is millions of chunks);
 * a larger one is refused.
 */
#include "shardsim.h"

#include "ckpt_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#define MAX_INLINE 1024u
#define MAX_NODE 100000000u

static ss_status nomem(void)
{
    return ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
}

static void put_varint(ss__buf *b, uint64_t v)
{
    do {
        unsigned char c = (unsigned char)(v & 0x7f);
        v >>= 7;
        if (v)
            c |= 0x80;
        ss__buf_putn(b, (const char *)&c, 1);
    } while (v);
}

static void put_le(ss__buf *b, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++) {
        unsigned char c = (unsigned char)(v >> (8 * i));
        ss__buf_putn(b, (const char *)&c, 1);
    }
}

/* A table of one data file path (base path empty). */
static void put_table(ss__buf *b, const char *path)
{
    put_varint(b, 1);
    put_varint(b, strlen(path));
    put_varint(b, 0);
    ss__buf_puts(b, path);
}

/* Frame `body` (zstd) with `magic` into *out. */
static ss_status put_frame(ss__buf *out, uint32_t magic, const ss__buf *body)
{
    size_t cap = ZSTD_compressBound(body->len);
    char *z = malloc(cap ? cap : 1);
    if (!z)
        return nomem();
    size_t zn = ZSTD_compress(z, cap, body->data ? body->data : "", body->len, 0);
    if (ZSTD_isError(zn)) {
        free(z);
        return ss__fail(SS_ERR_IO, "OCDBT: zstd: %s", ZSTD_getErrorName(zn));
    }
    size_t start = out->len;
    for (int i = 3; i >= 0; i--) {
        unsigned char c = (unsigned char)(magic >> (8 * i));
        ss__buf_putn(out, (const char *)&c, 1);
    }
    put_le(out, 4 + 8 + 2 + zn + 4, 8);
    put_varint(out, 0); /* version */
    put_varint(out, 1); /* zstd */
    ss__buf_putn(out, z, zn);
    free(z);
    if (out->oom)
        return nomem();
    uint32_t crc = ss_crc32c(0, out->data + start, out->len - start);
    put_le(out, crc, 4);
    return out->oom ? nomem() : SS_OK;
}

/* --- Collecting the keys --------------------------------------------------- */

typedef struct kv_file {
    char *key;  /* "params.w/0.1" */
    char *path; /* item_dir/params.w/0.1 */
    uint64_t size, offset;
    char *inl;  /* the value when inline */
} kv_file;

static int kv_cmp(const void *a, const void *b)
{
    return strcmp(((const kv_file *)a)->key, ((const kv_file *)b)->key);
}

static ss_status collect(const char *item_dir, const char *name, kv_file **all, int *n,
                         int *cap)
{
    char *dir = ss__ck_pathf("%s/%s", item_dir, name);
    if (!dir)
        return nomem();
    DIR *d = opendir(dir);
    if (!d) {
        ss_status st = ss__fail(SS_ERR_IO, "OCDBT packing: cannot read %s: %s", dir,
                                strerror(errno));
        free(dir);
        return st;
    }
    ss_status st = SS_OK;
    struct dirent *e;
    while (st == SS_OK && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (*n == *cap) {
            int c = *cap ? *cap * 2 : 64;
            kv_file *p = realloc(*all, (size_t)c * sizeof *p);
            if (!p) {
                st = nomem();
                break;
            }
            *all = p;
            *cap = c;
        }
        kv_file *f = &(*all)[*n];
        memset(f, 0, sizeof *f);
        f->key = ss__ck_pathf("%s/%s", name, e->d_name);
        f->path = ss__ck_pathf("%s/%s", dir, e->d_name);
        if (!f->key || !f->path) {
            free(f->key);
            free(f->path);
            st = nomem();
            break;
        }
        (*n)++;
        struct stat sb;
        if (stat(f->path, &sb) != 0 || !S_ISREG(sb.st_mode))
            st = ss__fail(SS_ERR_IO, "OCDBT packing: %s is not a readable file", f->path);
        else
            f->size = (uint64_t)sb.st_size;
    }
    closedir(d);
    free(dir);
    return st;
}

/* Append file f to the data file (fd at *off), or read it inline. */
static ss_status copy_value(kv_file *f, int out, const char *out_path, uint64_t *off,
                            unsigned char *buf, size_t cap)
{
    int in = open(f->path, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return ss__fail(SS_ERR_IO, "OCDBT packing: cannot open %s: %s", f->path,
                        strerror(errno));
    ss_status st = SS_OK;
    if (f->size <= MAX_INLINE) {
        size_t got;
        f->inl = malloc((size_t)f->size + 1);
        st = f->inl ? ss__ck_pread_all(in, f->inl, (size_t)f->size, 0, &got, f->path) : nomem();
        if (st == SS_OK && got != f->size)
            st = ss__fail(SS_ERR_IO, "OCDBT packing: %s changed while read", f->path);
    } else {
        f->offset = *off;
        for (uint64_t at = 0; st == SS_OK && at < f->size;) {
            size_t want = f->size - at < cap ? (size_t)(f->size - at) : cap, got;
            st = ss__ck_pread_all(in, buf, want, at, &got, f->path);
            if (st == SS_OK && got != want)
                st = ss__fail(SS_ERR_IO, "OCDBT packing: %s changed while read", f->path);
            if (st == SS_OK)
                st = ss__ck_write_all(out, buf, want, out_path);
            at += want;
        }
        *off += f->size;
    }
    close(in);
    return st;
}

/* The leaf node over all keys (sorted). */
static void leaf_body(ss__buf *b, const char *data_path, const kv_file *f, int n)
{
    ss__buf_putc(b, 0); /* height */
    put_table(b, data_path);
    put_varint(b, (uint64_t)n);
    size_t *pre = calloc((size_t)n + 1, sizeof *pre);
    if (!pre) {
        b->oom = true;
        return;
    }
    for (int i = 1; i < n; i++) {
        const char *a = f[i - 1].key, *k = f[i].key;
        while (a[pre[i]] && a[pre[i]] == k[pre[i]])
            pre[i]++;
        put_varint(b, pre[i]);
    }
    for (int i = 0; i < n; i++)
        put_varint(b, strlen(f[i].key) - pre[i]);
    for (int i = 0; i < n; i++)
        ss__buf_puts(b, f[i].key + pre[i]);
    free(pre);
    for (int i = 0; i < n; i++)
        put_varint(b, f[i].size);
    for (int i = 0; i < n; i++)
        put_varint(b, f[i].inl ? 0 : 1);
    for (int i = 0; i < n; i++)
        if (!f[i].inl)
            put_varint(b, 0);
    for (int i = 0; i < n; i++)
        if (!f[i].inl)
            put_varint(b, f[i].offset);
    for (int i = 0; i < n; i++)
        if (f[i].inl)
            ss__buf_putn(b, f[i].inl, (size_t)f[i].size);
}

static void random_hex(char out[33])
{
    unsigned char r[16] = {0};
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    size_t got = 0;
    if (fd >= 0) {
        (void)ss__ck_pread_all(fd, r, sizeof r, 0, &got, "/dev/urandom");
        close(fd);
    }
    if (got != sizeof r) { /* no urandom: time and pid, still unique per save */
        uint64_t a = (uint64_t)ss__ck_now_ns(), p = (uint64_t)getpid();
        for (int i = 0; i < 8; i++) {
            r[i] = (unsigned char)(a >> (8 * i));
            r[8 + i] = (unsigned char)((p * 0x9E3779B97F4A7C15ull) >> (8 * i));
        }
    }
    for (int i = 0; i < 16; i++)
        snprintf(out + 2 * i, 3, "%02x", r[i]);
}

static ss_status write_manifest(const char *item_dir, const char *data_path,
                                uint64_t node_off, uint64_t node_len, int n,
                                uint64_t indirect)
{
    ss__buf body, out;
    ss__buf_init(&body);
    ss__buf_init(&out);
    char uuid[33];
    random_hex(uuid);
    for (int i = 0; i < 16; i++) {
        char h[3] = {uuid[2 * i], uuid[2 * i + 1], 0};
        ss__buf_putc(&body, (char)strtol(h, NULL, 16));
    }
    put_varint(&body, 0);          /* manifest kind: single */
    put_varint(&body, MAX_INLINE); /* max_inline_value_bytes */
    put_varint(&body, MAX_NODE);   /* max_decoded_node_bytes */
    ss__buf_putc(&body, 4);        /* version_tree_arity_log2 */
    put_varint(&body, 1);          /* zstd, */
    put_le(&body, 0, 4);           /* level 0 */
    put_table(&body, data_path);
    put_varint(&body, 1);          /* one version: */
    put_varint(&body, 1);          /* generation */
    ss__buf_putc(&body, 0);        /* root height */
    put_varint(&body, 0);          /* data file */
    put_varint(&body, node_off);
    put_varint(&body, node_len);
    put_varint(&body, (uint64_t)n);
    put_varint(&body, node_len);   /* tree bytes */
    put_varint(&body, indirect);
    put_le(&body, (uint64_t)ss__ck_now_ns(), 8);
    put_varint(&body, 0);          /* no version tree nodes */
    ss_status st = body.oom ? nomem() : put_frame(&out, SS__OCDBT_MAGIC_MANIFEST, &body);
    char *path = st ? NULL : ss__ck_pathf("%s/manifest.ocdbt", item_dir);
    if (!st && !path)
        st = nomem();
    if (!st)
        st = ss__ck_write_file(path, out.data, out.len, true);
    free(path);
    ss__buf_free(&body);
    ss__buf_free(&out);
    return st;
}

ss_status ss__ocdbt_pack(const char *item_dir, int narrays, const char *const names[])
{
    kv_file *f = NULL;
    int n = 0, cap = 0;
    ss_status st = SS_OK;
    for (int i = 0; st == SS_OK && i < narrays; i++)
        st = collect(item_dir, names[i], &f, &n, &cap);
    if (st == SS_OK && n > 1)
        qsort(f, (size_t)n, sizeof *f, kv_cmp);
    char hex[33], data_path[40];
    random_hex(hex);
    snprintf(data_path, sizeof data_path, "d/%s", hex);
    char *ddir = ss__ck_pathf("%s/d", item_dir);
    char *dfile = ss__ck_pathf("%s/%s", item_dir, data_path);
    size_t bcap = (size_t)1 << 20;
    unsigned char *buf = malloc(bcap);
    if (st == SS_OK && (!ddir || !dfile || !buf))
        st = nomem();
    if (st == SS_OK)
        st = ss__ck_mkdirs(ddir);
    int fd = -1;
    if (st == SS_OK && (fd = open(dfile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0)
        st = ss__fail(SS_ERR_IO, "OCDBT packing: cannot create %s: %s", dfile, strerror(errno));
    uint64_t off = 0, indirect = 0;
    for (int i = 0; st == SS_OK && i < n; i++) {
        st = copy_value(&f[i], fd, dfile, &off, buf, bcap);
        if (!f[i].inl)
            indirect += f[i].size;
    }
    ss__buf node, body;
    ss__buf_init(&node);
    ss__buf_init(&body);
    if (st == SS_OK) {
        leaf_body(&body, data_path, f, n);
        if (body.oom)
            st = nomem();
        else if (body.len > MAX_NODE)
            st = ss__fail(SS_ERR_UNSUPPORTED, "OCDBT packing: %d keys need a B+tree node of "
                                              "%zu bytes (at most %u are written)",
                          n, body.len, MAX_NODE);
    }
    if (st == SS_OK)
        st = put_frame(&node, SS__OCDBT_MAGIC_BTREE, &body);
    if (st == SS_OK)
        st = ss__ck_write_all(fd, node.data, node.len, dfile);
    if (st == SS_OK && fsync(fd) != 0)
        st = ss__fail(SS_ERR_IO, "OCDBT packing: fsync %s: %s", dfile, strerror(errno));
    if (fd >= 0)
        close(fd);
    if (st == SS_OK)
        st = write_manifest(item_dir, data_path, off, node.len, n, indirect);
    for (int i = 0; st == SS_OK && i < narrays; i++) {
        char *dir = ss__ck_pathf("%s/%s", item_dir, names[i]);
        st = dir ? ss__ck_rmtree(dir) : nomem();
        free(dir);
    }
    if (st == SS_OK)
        st = ss__ck_fsync_dir(item_dir);
    ss__buf_free(&node);
    ss__buf_free(&body);
    for (int i = 0; i < n; i++) {
        free(f[i].key);
        free(f[i].path);
        free(f[i].inl);
    }
    free(f);
    free(buf);
    free(ddir);
    free(dfile);
    return st;
}
