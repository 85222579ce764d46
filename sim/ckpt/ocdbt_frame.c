/*
 * ocdbt_frame.c — the pieces of TensorStore's OCDBT encoding that every
 * object shares (TensorStore's kvstore/ocdbt "Storage format" document):
 * a bounds-checked cursor (LEB128 varints, fixed-width integers), frames
 * (uint32be magic, uint64le total length, varint version 0, varint
 * compression 0 none / 1 zstd, the body, uint32le CRC32C of all bytes
 * before it) and data file tables (prefix-compressed paths, stored column
 * by column). ocdbt_read.c builds the store's key index from them.
 *
 * Every length is checked against the bytes present before it is used;
 * a zstd body is decompressed into at most a given number of bytes.
 */
#include "shardsim.h"

#include "ckpt_internal.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* --- A bounds-checked cursor over decoded bytes ---------------------------- */

uint64_t ss__ocdbt_varint(ss__ocdbt_cur *c)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (c->at >= c->n) {
            c->bad = true;
            return 0;
        }
        unsigned char b = c->p[c->at++];
        if (shift == 63 && (b & 0x7e)) {
            c->bad = true;
            return 0;
        }
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return v;
    }
    c->bad = true;
    return 0;
}

const unsigned char *ss__ocdbt_bytes(ss__ocdbt_cur *c, uint64_t n)
{
    if (c->bad || n > c->n - c->at) {
        c->bad = true;
        return NULL;
    }
    const unsigned char *p = c->p + c->at;
    c->at += (size_t)n;
    return p;
}

unsigned ss__ocdbt_u8(ss__ocdbt_cur *c)
{
    const unsigned char *p = ss__ocdbt_bytes(c, 1);
    return p ? p[0] : 0;
}

uint64_t ss__ocdbt_le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* --- Frames ------------------------------------------------------------------ */

static ss_status nomem(void)
{
    return ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
}

/* Decompress one zstd stream of at most `cap` bytes into a new buffer. */
static ss_status unzstd(const unsigned char *in, size_t n, uint64_t cap, const char *what,
                        unsigned char **out, size_t *len)
{
    ZSTD_DCtx *dc = ZSTD_createDCtx();
    size_t size = n * 4 + 256 < cap ? n * 4 + 256 : (size_t)cap;
    unsigned char *buf = malloc(size ? size : 1);
    if (!dc || !buf) {
        ZSTD_freeDCtx(dc);
        free(buf);
        return nomem();
    }
    ZSTD_inBuffer ib = {in, n, 0};
    ZSTD_outBuffer ob = {buf, size, 0};
    size_t ret = 1;
    ss_status st = SS_OK;
    while (ib.pos < ib.size || ret != 0) {
        if (ob.pos == ob.size) {
            if (ob.size >= cap) {
                st = ss__fail(SS_ERR_IO, "%s: decompresses to more than %llu bytes", what,
                              (unsigned long long)cap);
                break;
            }
            size_t grow = ob.size * 2 < cap ? ob.size * 2 : (size_t)cap;
            unsigned char *p = realloc(buf, grow);
            if (!p) {
                st = nomem();
                break;
            }
            buf = p;
            ob.dst = buf;
            ob.size = grow;
        }
        size_t before_in = ib.pos, before_out = ob.pos;
        ret = ZSTD_decompressStream(dc, &ob, &ib);
        if (ZSTD_isError(ret)) {
            st = ss__fail(SS_ERR_IO, "%s is corrupted: zstd: %s", what, ZSTD_getErrorName(ret));
            break;
        }
        if (ib.pos == ib.size && ret != 0 && ob.pos < ob.size && ib.pos == before_in &&
            ob.pos == before_out) {
            st = ss__fail(SS_ERR_IO, "%s is truncated: its zstd stream ends early", what);
            break;
        }
    }
    ZSTD_freeDCtx(dc);
    if (st) {
        free(buf);
        return st;
    }
    *out = buf;
    *len = ob.pos;
    return SS_OK;
}

/* Check the frame of `n` bytes at `p` and give its body (malloc'd). */
ss_status ss__ocdbt_frame(const unsigned char *p, size_t n, uint32_t magic, uint64_t cap,
                       const char *what, unsigned char **body, size_t *blen)
{
    *body = NULL;
    if (n < 18)
        return ss__fail(SS_ERR_IO, "%s is truncated: %zu bytes, shorter than a header and "
                                   "checksum",
                        what, n);
    uint32_t m = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    if (m != magic)
        return ss__fail(SS_ERR_IO, "%s is not an OCDBT %s: magic %08x, expected %08x", what,
                        magic == SS__OCDBT_MAGIC_MANIFEST ? "manifest" : "B+tree node", m, magic);
    uint64_t len = ss__ocdbt_le64(p + 4);
    if (len != n)
        return ss__fail(SS_ERR_IO, "%s is %s: its header says %llu bytes, %zu are there", what,
                        len > n ? "truncated" : "damaged", (unsigned long long)len, n);
    uint32_t want = (uint32_t)p[n - 4] | (uint32_t)p[n - 3] << 8 | (uint32_t)p[n - 2] << 16 |
                    (uint32_t)p[n - 1] << 24;
    uint32_t got = ss_crc32c(0, p, n - 4);
    if (want != got)
        return ss__fail(SS_ERR_IO, "%s: CRC32C mismatch (recorded %08x, computed %08x)", what,
                        want, got);
    ss__ocdbt_cur c = {p, n - 4, 12, false};
    uint64_t version = ss__ocdbt_varint(&c), comp = ss__ocdbt_varint(&c);
    if (c.bad)
        return ss__fail(SS_ERR_IO, "%s: header is truncated", what);
    if (version != 0)
        return ss__fail(SS_ERR_UNSUPPORTED, "%s: format version %llu (this shardsim reads 0)",
                        what, (unsigned long long)version);
    if (comp > 1)
        return ss__fail(SS_ERR_UNSUPPORTED, "%s: compression format %llu (0 none and 1 zstd "
                                            "are read)",
                        what, (unsigned long long)comp);
    if (comp == 1)
        return unzstd(p + c.at, c.n - c.at, cap, what, body, blen);
    *blen = c.n - c.at;
    *body = malloc(*blen ? *blen : 1);
    if (!*body)
        return nomem();
    memcpy(*body, p + c.at, *blen);
    return SS_OK;
}

/* --- Data file tables -------------------------------------------------------- */

void ss__ocdbt_table_free(ss__ocdbt_table *t)
{
    for (int i = 0; i < t->n; i++) {
        free(t->path[i]);
        free(t->base[i]);
    }
    free(t->path);
    free(t->base);
    memset(t, 0, sizeof *t);
}

ss_status ss__ocdbt_table_read(ss__ocdbt_cur *c, const char *transitive, const char *what, ss__ocdbt_table *t)
{
    memset(t, 0, sizeof *t);
    uint64_t n = ss__ocdbt_varint(c);
    if (c->bad || n > c->n - c->at)
        return ss__fail(SS_ERR_IO, "%s: data file table is truncated", what);
    if (n == 0)
        return SS_OK;
    uint64_t *pre = calloc((size_t)n * 3, sizeof *pre);
    t->path = calloc((size_t)n, sizeof *t->path);
    t->base = calloc((size_t)n, sizeof *t->base);
    char *prev = calloc(SS__OCDBT_MAX_PATH + 1, 1);
    ss_status st = SS_OK;
    if (!pre || !t->path || !t->base || !prev)
        st = nomem();
    uint64_t *suf = pre ? pre + n : NULL, *bl = pre ? pre + 2 * n : NULL;
    for (uint64_t i = 1; !st && i < n; i++)
        pre[i] = ss__ocdbt_varint(c);
    for (uint64_t i = 0; !st && i < n; i++)
        suf[i] = ss__ocdbt_varint(c);
    for (uint64_t i = 0; !st && i < n; i++)
        bl[i] = ss__ocdbt_varint(c);
    size_t prevlen = 0;
    for (uint64_t i = 0; !st && i < n; i++) {
        const unsigned char *s = ss__ocdbt_bytes(c, suf[i]);
        if (c->bad || pre[i] > prevlen || pre[i] + suf[i] > SS__OCDBT_MAX_PATH ||
            bl[i] > pre[i] + suf[i]) {
            st = ss__fail(SS_ERR_IO, "%s: data file table entry %llu is malformed", what,
                          (unsigned long long)i);
            break;
        }
        memcpy(prev + pre[i], s, (size_t)suf[i]);
        prevlen = (size_t)(pre[i] + suf[i]);
        prev[prevlen] = '\0';
        if (strlen(prev) != prevlen || strstr(prev, "..")) {
            st = ss__fail(SS_ERR_IO, "%s: data file path %llu holds a NUL byte or '..'", what,
                          (unsigned long long)i);
            break;
        }
        t->path[i] = ss__ck_pathf("%s%s", transitive, prev);
        t->base[i] = ss__ck_pathf("%s%.*s", transitive, (int)bl[i], prev);
        t->n = (int)i + 1;
        if (!t->path[i] || !t->base[i])
            st = nomem();
    }
    free(pre);
    free(prev);
    if (st)
        ss__ocdbt_table_free(t);
    return st;
}

