/*
 * chunk_read.c — reading one chunk file into the boxes that need it (the
 * pieces of several target blocks) through a bounded staging buffer,
 * checking what is read, and casting to the target dtype.
 *
 * An uncompressed chunk is read in windows: a window starts at the CRC block
 * holding the next needed byte (of any box, in file order) and runs over the
 * following needed bytes until a whole unneeded block, the end of the
 * staging buffer or the end of the file; every block read is checked against
 * its recorded CRC32C. So boxes of whole rows read only those rows (rounded
 * out to blocks), and boxes of some columns read the blocks those columns
 * touch, once for all boxes. A zstd chunk
 * is streamed whole (compressed input and decompressed output each in part
 * of the staging buffer), its blocks checked as they arrive, and only the
 * needed bytes are kept. The same code runs in `dry` mode for the restore
 * plan, so the bytes a plan predicts are the bytes a restore reads.
 *
 * What this file does not do: choose what to read (restore.c) or allocate
 * the staging buffer (the caller does, in the device's arena).
 */
#include "shardsim.h"

#include "ckpt_internal.h"
#include "base/half.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

size_t ss__ck_region_staging(const ss__ck_zarray *z, uint64_t csize)
{
    size_t raw = (size_t)ss__ck_chunk_elems(z) * ss_dtype_size(z->dtype);
    return z->zstd ? ss__align64((size_t)csize) + ss__align64(raw) : ss__align64(raw);
}

void ss__ck_reader_free(ss__ck_reader *r)
{
    if (r->dctx)
        ZSTD_freeDCtx(r->dctx);
    r->dctx = NULL;
}

/* --- Casting --------------------------------------------------------------- */

typedef struct val {
    bool isf;
    double f;
    int64_t i;
} val;

static val load(ss_dtype t, const unsigned char *p)
{
    val v = {false, 0, 0};
    switch (t) {
    case SS_F32: { float x; memcpy(&x, p, 4); v.isf = true; v.f = x; break; }
    case SS_F64: { double x; memcpy(&x, p, 8); v.isf = true; v.f = x; break; }
    case SS_BF16: { uint16_t h; memcpy(&h, p, 2); v.isf = true; v.f = ss__bf16_to_f32(h); break; }
    case SS_F16: { uint16_t h; memcpy(&h, p, 2); v.isf = true; v.f = ss__f16_to_f32(h); break; }
    case SS_I32: { int32_t x; memcpy(&x, p, 4); v.i = x; break; }
    case SS_I64: { int64_t x; memcpy(&x, p, 8); v.i = x; break; }
    case SS_I8: { int8_t x; memcpy(&x, p, 1); v.i = x; break; }
    case SS_U8: v.i = p[0]; break;
    case SS_BOOL: v.i = p[0] != 0; break;
    case SS_I16: { int16_t x; memcpy(&x, p, 2); v.i = x; break; }
    case SS_U16: { uint16_t x; memcpy(&x, p, 2); v.i = x; break; }
    case SS_U32: { uint32_t x; memcpy(&x, p, 4); v.i = x; break; }
    case SS_U64: { uint64_t x; memcpy(&x, p, 8); v.i = (int64_t)x; break; } /* bits kept */
    default: break;
    }
    return v;
}

/* Float to integer as XLA's convert: truncate, saturate, NaN -> 0. */
static int64_t f_to_i(double f, double lo, double hi)
{
    if (isnan(f))
        return 0;
    if (f <= lo)
        return (int64_t)lo;
    if (f >= hi)
        return (int64_t)hi;
    return (int64_t)f;
}

static void store(ss_dtype t, unsigned char *p, val v)
{
    double f = v.isf ? v.f : (double)v.i;
    float f32 = v.isf ? (float)v.f : (float)v.i; /* one rounding from an integer */
    uint16_t h;
    switch (t) {
    case SS_F32: memcpy(p, &f32, 4); break;
    case SS_F64: memcpy(p, &f, 8); break;
    case SS_BF16: h = ss__f32_to_bf16(f32); memcpy(p, &h, 2); break;
    case SS_F16: h = ss__f32_to_f16(f32); memcpy(p, &h, 2); break;
    case SS_I32: {
        /* Integers wrap as numpy's astype does; floats saturate. */
        int64_t i = v.isf ? f_to_i(f, -2147483648.0, 2147483647.0) : v.i;
        uint32_t u = (uint32_t)(uint64_t)i;
        memcpy(p, &u, 4);
        break;
    }
    case SS_I64: {
        int64_t i = v.isf ? f_to_i(f, -9223372036854775808.0, 9223372036854774784.0) : v.i;
        memcpy(p, &i, 8);
        break;
    }
    case SS_I8: p[0] = (unsigned char)(uint64_t)(v.isf ? f_to_i(f, -128, 127) : v.i); break;
    case SS_U8: p[0] = (unsigned char)(uint64_t)(v.isf ? f_to_i(f, 0, 255) : v.i); break;
    case SS_BOOL: p[0] = v.isf ? (v.f != 0 || isnan(v.f)) : v.i != 0; break;
    case SS_I16: {
        uint16_t u = (uint16_t)(uint64_t)(v.isf ? f_to_i(f, -32768, 32767) : v.i);
        memcpy(p, &u, 2);
        break;
    }
    case SS_U16: {
        uint16_t u = (uint16_t)(uint64_t)(v.isf ? f_to_i(f, 0, 65535) : v.i);
        memcpy(p, &u, 2);
        break;
    }
    case SS_U32: {
        uint32_t u = (uint32_t)(uint64_t)(v.isf ? f_to_i(f, 0, 4294967295.0) : v.i);
        memcpy(p, &u, 4);
        break;
    }
    case SS_U64: { /* floats saturate at 0 and below 2^63 (within int64_t) */
        uint64_t u = (uint64_t)(v.isf ? f_to_i(f, 0, 9223372036854774784.0) : v.i);
        memcpy(p, &u, 8);
        break;
    }
    default: break;
    }
}

void ss__ck_cast(void *dst, ss_dtype dt, const void *src, ss_dtype st, size_t n)
{
    if (dt == st) {
        memcpy(dst, src, n * ss_dtype_size(dt));
        return;
    }
    if (st == SS_F32 && dt == SS_BF16) {
        const float *s = src;
        uint16_t *d = dst;
        for (size_t i = 0; i < n; i++)
            d[i] = ss__f32_to_bf16(s[i]);
        return;
    }
    if (st == SS_BF16 && dt == SS_F32) {
        const uint16_t *s = src;
        float *d = dst;
        for (size_t i = 0; i < n; i++)
            d[i] = ss__bf16_to_f32(s[i]);
        return;
    }
    size_t ds = ss_dtype_size(dt), ss = ss_dtype_size(st);
    const unsigned char *s = src;
    unsigned char *d = dst;
    for (size_t i = 0; i < n; i++)
        store(dt, d + i * ds, load(st, s + i * ss));
}

/* --- Runs: the box as contiguous pieces, in file order --------------------- */

typedef struct runs {
    int k; /* dims iterated; the rest are inside one run */
    int64_t ext[SS_MAX_RANK], idx[SS_MAX_RANK];
    int64_t cstride[SS_MAX_RANK], dstride[SS_MAX_RANK];
    int64_t run;        /* elements per run */
    int64_t coff, doff; /* element offsets of the current run in chunk and destination */
    bool done;
} runs;

static void runs_init(runs *it, const ss__ck_zarray *z, const ss__ck_dest *g)
{
    memset(it, 0, sizeof *it);
    int r = z->rank;
    int64_t cs = 1, ds = 1, total = 1;
    for (int d = r - 1; d >= 0; d--) {
        it->cstride[d] = cs;
        cs *= z->chunks[d];
        it->dstride[d] = ds;
        ds *= g->dshape[d];
        it->ext[d] = g->ext[d];
        total *= g->ext[d];
    }
    if (total == 0) {
        it->done = true;
        return;
    }
    int k = r;
    int64_t run = 1;
    while (k > 0 && g->ext[k - 1] == z->chunks[k - 1] && g->ext[k - 1] == g->dshape[k - 1])
        run *= g->ext[--k];
    if (k > 0)
        run *= g->ext[--k];
    it->k = k;
    it->run = run;
    for (int d = 0; d < r; d++) {
        it->coff += g->start[d] * it->cstride[d];
        it->doff += g->dstart[d] * it->dstride[d];
    }
}

static void runs_next(runs *it)
{
    for (int d = it->k - 1; d >= 0; d--) {
        it->coff += it->cstride[d];
        it->doff += it->dstride[d];
        if (++it->idx[d] < it->ext[d])
            return;
        it->coff -= it->ext[d] * it->cstride[d];
        it->doff -= it->ext[d] * it->dstride[d];
        it->idx[d] = 0;
    }
    it->done = true;
}

/* --- Error helpers --------------------------------------------------------- */

/* Where one chunk's stored bytes are: a whole file (ranged false), `len`
 * bytes at `base` of a file (an OCDBT data file, or the inner chunk of a
 * zarr v3 shard), or `len` bytes in memory (an OCDBT inline value, `mem`).
 * `path` names the file in messages. */
typedef struct where {
    const char *name, *key, *path;
    bool ranged;
    const unsigned char *mem;
    uint64_t base, len;
} where;

static ss_status open_chunk(const where *w, int *fd, uint64_t *size)
{
    *fd = -1;
    if (w->mem) {
        *size = w->len;
        return SS_OK;
    }
    *fd = open(w->path, O_RDONLY | O_CLOEXEC);
    if (*fd < 0) {
        if (errno == ENOENT)
            return ss__fail(SS_ERR_IO, "array '%s' chunk %s is missing: %s", w->name, w->key,
                            w->path);
        return ss__fail(SS_ERR_IO, "array '%s' chunk %s: cannot open %s: %s", w->name, w->key,
                        w->path, strerror(errno));
    }
    struct stat st;
    if (fstat(*fd, &st) != 0) {
        int e = errno;
        close(*fd);
        *fd = -1;
        return ss__fail(SS_ERR_IO, "array '%s' chunk %s: cannot stat %s: %s", w->name, w->key,
                        w->path, strerror(e));
    }
    *size = (uint64_t)st.st_size;
    if (w->ranged) {
        if (*size < w->base || *size - w->base < w->len) {
            close(*fd);
            *fd = -1;
            return ss__fail(SS_ERR_IO, "array '%s' chunk %s: %s is truncated (%llu bytes; "
                                       "the chunk is at [%llu, %llu))",
                            w->name, w->key, w->path, (unsigned long long)*size,
                            (unsigned long long)w->base, (unsigned long long)(w->base + w->len));
        }
        *size = w->len;
    }
    return SS_OK;
}

static void close_fd(int fd)
{
    if (fd >= 0)
        close(fd);
}

/* pread of the chunk's stored bytes [off, off+n). */
static ss_status chunk_pread(const where *w, int fd, void *buf, size_t n, uint64_t off,
                             size_t *got)
{
    if (w->mem) {
        size_t m = off >= w->len ? 0 : (size_t)(w->len - off < n ? w->len - off : n);
        if (m)
            memcpy(buf, w->mem + off, m);
        *got = m;
        return SS_OK;
    }
    if (w->ranged && (off >= w->len || w->len - off < n))
        n = off >= w->len ? 0 : (size_t)(w->len - off);
    return ss__ck_pread_all(fd, buf, n, w->base + off, got, w->path);
}

static ss_status size_error(const where *w, uint64_t have, uint64_t want)
{
    return ss__fail(SS_ERR_IO, "array '%s' chunk %s is %s: %llu bytes, expected %llu (%s)",
                    w->name, w->key, have < want ? "truncated" : "too long",
                    (unsigned long long)have, (unsigned long long)want, w->path);
}

static ss_status crc_error(const where *w, uint64_t b0, uint64_t b1, uint32_t want, uint32_t got)
{
    return ss__fail(SS_ERR_IO, "array '%s' chunk %s: CRC32C mismatch in bytes [%llu, %llu) of "
                               "%s (recorded %08x, read %08x)",
                    w->name, w->key, (unsigned long long)b0, (unsigned long long)b1, w->path,
                    want, got);
}

/* Fill *w for chunk `key` of array i; *path is the malloc'd path it names. */
static ss_status locate(ss_ckpt *ck, int i, const char *key, where *w, char **path)
{
    const char *name = ck->arrays[i].name;
    memset(w, 0, sizeof *w);
    w->name = name;
    w->key = key;
    if (!ck->kv) {
        *path = ss__ck_pathf("%s/%s/%s", ck->item_dir, name, key);
        w->path = *path;
        return *path ? SS_OK : ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    }
    char *k = ss__ck_pathf("%s/%s", name, key);
    if (!k)
        return ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    const ss__ocdbt_entry *e = ss__ocdbt_find(ck->kv, k);
    free(k);
    if (!e)
        return ss__fail(SS_ERR_IO, "array '%s' chunk %s is missing: no key %s/%s in the OCDBT "
                                   "store %s",
                        name, key, name, key, ck->item_dir);
    w->ranged = true;
    w->len = e->length;
    if (e->is_inline) {
        w->mem = e->inl ? e->inl : (const unsigned char *)"";
        *path = ss__ck_pathf("%s/manifest.ocdbt (inline value %s/%s)", ck->item_dir, name, key);
    } else {
        w->base = e->offset;
        *path = ss__ck_pathf("%s/%s", ck->item_dir, ck->kv->files[e->file]);
    }
    w->path = *path;
    return *path ? SS_OK : ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
}

/* A zarr v3 shard of one inner chunk: read its index, check it, and narrow
 * *w to the inner chunk's bytes. */
static ss_status inner_chunk(const ss__ck_zarray *z, where *w)
{
    int fd = -1;
    uint64_t size;
    ss_status st = open_chunk(w, &fd, &size);
    if (st)
        return st;
    unsigned char idx[20];
    size_t isz = z->index_crc ? 20 : 16, got = 0;
    if (size < isz)
        st = ss__fail(SS_ERR_IO, "array '%s' chunk %s is truncated: %llu bytes, shorter than "
                                 "its shard index (%s)",
                      w->name, w->key, (unsigned long long)size, w->path);
    uint64_t at = z->index_start ? 0 : size - isz;
    if (!st) {
        bool was = w->ranged;
        uint64_t len = w->len;
        if (!w->ranged && !w->mem) { /* read the index at its place in the file */
            w->ranged = true;
            w->len = size;
        }
        st = chunk_pread(w, fd, idx, isz, at, &got);
        w->ranged = was;
        w->len = len;
    }
    close_fd(fd);
    if (!st && got != isz)
        st = ss__fail(SS_ERR_IO, "array '%s' chunk %s: its shard index is truncated (%s)",
                      w->name, w->key, w->path);
    if (st)
        return st;
    if (z->index_crc) {
        uint32_t want = (uint32_t)idx[16] | (uint32_t)idx[17] << 8 | (uint32_t)idx[18] << 16 |
                        (uint32_t)idx[19] << 24;
        uint32_t crc = ss_crc32c(0, idx, 16);
        if (crc != want)
            return ss__fail(SS_ERR_IO, "array '%s' chunk %s: shard index CRC32C mismatch "
                                       "(recorded %08x, computed %08x) in %s",
                            w->name, w->key, want, crc, w->path);
    }
    uint64_t off = ss__ocdbt_le64(idx), len = ss__ocdbt_le64(idx + 8);
    if (off == UINT64_MAX && len == UINT64_MAX)
        return ss__fail(SS_ERR_IO, "array '%s' chunk %s is missing: its shard index marks it "
                                   "empty (%s)",
                        w->name, w->key, w->path);
    uint64_t lo = z->index_start ? isz : 0, hi = z->index_start ? size : size - isz;
    if (off < lo || off > hi || len > hi - off)
        return ss__fail(SS_ERR_IO, "array '%s' chunk %s: its shard index points at [%llu, "
                                   "+%llu), outside the shard's %llu bytes (%s)",
                        w->name, w->key, (unsigned long long)off, (unsigned long long)len,
                        (unsigned long long)size, w->path);
    if (w->mem)
        w->mem += off;
    else
        w->base += off;
    w->ranged = true;
    w->len = len;
    return SS_OK;
}

ss_status ss__ck_chunk_size(ss_ckpt *ck, int i, const char *key, uint64_t *out)
{
    where w;
    char *path = NULL;
    ss_status s = locate(ck, i, key, &w, &path);
    struct stat st;
    if (s == SS_OK && w.ranged)
        *out = w.len;
    else if (s == SS_OK && stat(path, &st) != 0)
        s = ss__fail(SS_ERR_IO, "array '%s' chunk %s is missing: %s", ck->arrays[i].name, key,
                     path);
    else if (s == SS_OK)
        *out = (uint64_t)st.st_size;
    free(path);
    return s;
}

/* --- Uncompressed ---------------------------------------------------------- */

/* The destination whose current run comes first in the file, or -1. */
static int first_run(const runs *its, int n)
{
    int best = -1;
    for (int k = 0; k < n; k++)
        if (!its[k].done && (best < 0 || its[k].coff < its[best].coff))
            best = k;
    return best;
}

static ss_status read_raw(ss__ck_reader *r, const ss__ck_region *g, const ss__ck_zarray *z,
                          const where *w, const ss__ck_sums *sums, runs *its, runs *peek)
{
    size_t es = ss_dtype_size(z->dtype);
    uint64_t fsize = (uint64_t)ss__ck_chunk_elems(z) * es;
    uint64_t blk = sums ? sums->block : 4096;
    if (sums && sums->bytes != fsize)
        return ss__fail(SS_ERR_IO, "array '%s' chunk %s: its checksums cover %llu bytes but a "
                                   "chunk holds %llu",
                        w->name, w->key, (unsigned long long)sums->bytes,
                        (unsigned long long)fsize);
    uint64_t wcap = fsize <= r->cap ? r->cap : r->cap / blk * blk;
    if (wcap == 0)
        return ss__fail(SS_ERR_INVALID, "array '%s' chunk %s: staging of %zu bytes is smaller "
                                        "than one %llu-byte CRC block",
                        w->name, w->key, r->cap, (unsigned long long)blk);
    int fd = -1;
    if (!r->dry) {
        uint64_t have;
        ss_status st = open_chunk(w, &fd, &have);
        if (st)
            return st;
        if (have != fsize) {
            close_fd(fd);
            return size_error(w, have, fsize);
        }
    }
    int n = g->ndest;
    for (int k = 0; k < n; k++)
        runs_init(&its[k], z, &g->dest[k]);
    uint64_t lo = 0, hi = 0; /* the window in staging */
    ss_status st = SS_OK;
    int k;
    while (st == SS_OK && (k = first_run(its, n)) >= 0) {
        runs *it = &its[k];
        const ss__ck_dest *dd = &g->dest[k];
        size_t des = ss_dtype_size(dd->dtype);
        uint64_t a = (uint64_t)it->coff * es, b = a + (uint64_t)it->run * es, p = a;
        while (p < b) {
            if (p < lo || p >= hi) {
                /* Open a window at p's block, over the runs (of any destination)
                 * that follow while no whole block between them is unneeded. */
                lo = p / blk * blk;
                uint64_t end = b;
                memcpy(peek, its, (size_t)n * sizeof *peek);
                runs_next(&peek[k]);
                int j;
                while ((j = first_run(peek, n)) >= 0) {
                    uint64_t na = (uint64_t)peek[j].coff * es;
                    uint64_t nb = na + (uint64_t)peek[j].run * es;
                    if (na / blk > (end - 1) / blk + 1 || (nb + blk - 1) / blk * blk - lo > wcap)
                        break;
                    if (nb > end)
                        end = nb;
                    runs_next(&peek[j]);
                }
                hi = (end + blk - 1) / blk * blk;
                if (hi > lo + wcap)
                    hi = lo + wcap;
                if (hi > fsize)
                    hi = fsize;
                r->bytes_read += hi - lo;
                if (!r->dry) {
                    size_t got;
                    st = chunk_pread(w, fd, r->staging, (size_t)(hi - lo), lo, &got);
                    if (st == SS_OK && got != hi - lo)
                        st = size_error(w, lo + got, fsize);
                    for (uint64_t jb = lo / blk; st == SS_OK && sums && jb * blk < hi; jb++) {
                        uint64_t b0 = jb * blk, b1 = b0 + blk < fsize ? b0 + blk : fsize;
                        uint32_t c = ss_crc32c(0, r->staging + (b0 - lo), (size_t)(b1 - b0));
                        if (c != sums->crc[jb])
                            st = crc_error(w, b0, b1, sums->crc[jb], c);
                    }
                    if (st)
                        break;
                }
            }
            uint64_t m = (b < hi ? b : hi) - p;
            if (dd->dst && !r->dry)
                ss__ck_cast((unsigned char *)dd->dst + ((uint64_t)it->doff + (p - a) / es) * des,
                            dd->dtype, r->staging + (p - lo), z->dtype, (size_t)(m / es));
            p += m;
        }
        runs_next(it);
    }
    close_fd(fd);
    return st;
}

/* --- zstd ------------------------------------------------------------------- */

/* Copy the needed bytes of decompressed output [base, base+len). */
static void scatter(runs *it, uint64_t *sub, const ss__ck_dest *g, size_t es,
                    const unsigned char *buf, uint64_t base, uint64_t len, ss_dtype sdt)
{
    size_t des = ss_dtype_size(g->dtype);
    unsigned char *dst = g->dst;
    while (!it->done) {
        uint64_t a = (uint64_t)it->coff * es + *sub, b = (uint64_t)(it->coff + it->run) * es;
        if (a >= base + len)
            break;
        uint64_t e = b < base + len ? b : base + len;
        if (dst)
            ss__ck_cast(dst + ((uint64_t)it->doff + *sub / es) * des, g->dtype, buf + (a - base),
                        sdt, (size_t)((e - a) / es));
        if (e == b) {
            runs_next(it);
            *sub = 0;
        } else {
            *sub += e - a;
            break;
        }
    }
}

static ss_status read_zstd(ss__ck_reader *r, const ss__ck_region *g, const ss__ck_zarray *z,
                           const where *w, const ss__ck_sums *sums, runs *its, uint64_t *subs)
{
    size_t es = ss_dtype_size(z->dtype);
    uint64_t raw = (uint64_t)ss__ck_chunk_elems(z) * es;
    if (r->dry) {
        uint64_t cs;
        ss_status st = ss__ck_chunk_size(g->ck, g->array, w->key, &cs);
        if (st == SS_OK)
            r->bytes_read += cs;
        return st;
    }
    int fd;
    uint64_t csize;
    ss_status st = open_chunk(w, &fd, &csize);
    if (st)
        return st;
    if (sums && sums->bytes != csize) {
        close_fd(fd);
        return size_error(w, csize, sums->bytes);
    }
    size_t in_cap = ss__align64((size_t)csize);
    size_t half = (r->cap / 2) & ~(size_t)63;
    if (in_cap > half)
        in_cap = half;
    size_t out_cap = r->cap - in_cap;
    if (in_cap == 0 || out_cap < 64) {
        close_fd(fd);
        return ss__fail(SS_ERR_INVALID, "array '%s' chunk %s: staging of %zu bytes is too small",
                        w->name, w->key, r->cap);
    }
    if (!r->dctx && !(r->dctx = ZSTD_createDCtx())) {
        close_fd(fd);
        return ss__fail(SS_ERR_NOMEM, "array '%s' chunk %s: no memory for a zstd context",
                        w->name, w->key);
    }
    ZSTD_DCtx_reset(r->dctx, ZSTD_reset_session_only);
    unsigned char *ibuf = r->staging, *obuf = r->staging + in_cap;
    for (int k = 0; k < g->ndest; k++) {
        runs_init(&its[k], z, &g->dest[k]);
        subs[k] = 0;
    }
    uint64_t base = 0, blk = sums ? sums->block : 0, bfill = 0;
    size_t keep = 0, ret = 1;
    uint32_t bcrc = 0;
    int64_t bj = 0;
    for (uint64_t off = 0; st == SS_OK && off < csize;) {
        size_t want = csize - off < in_cap ? (size_t)(csize - off) : in_cap, got;
        st = chunk_pread(w, fd, ibuf, want, off, &got);
        if (st)
            break;
        if (got != want) {
            st = size_error(w, off + got, csize);
            break;
        }
        r->bytes_read += got;
        /* Check each CRC block as its last byte arrives. */
        for (size_t c = 0; sums && c < got && st == SS_OK;) {
            size_t take = (size_t)(blk - bfill) < got - c ? (size_t)(blk - bfill) : got - c;
            bcrc = ss_crc32c(bcrc, ibuf + c, take);
            bfill += take;
            c += take;
            if (bfill == blk || off + c == csize) {
                if (bcrc != sums->crc[bj])
                    st = crc_error(w, (uint64_t)bj * blk, (uint64_t)bj * blk + bfill,
                                   sums->crc[bj], bcrc);
                bj++;
                bcrc = 0;
                bfill = 0;
            }
        }
        off += got;
        ZSTD_inBuffer in = {ibuf, got, 0};
        ZSTD_outBuffer o;
        do {
            if (st)
                break;
            o = (ZSTD_outBuffer){obuf, out_cap, keep};
            ret = ZSTD_decompressStream(r->dctx, &o, &in);
            if (ZSTD_isError(ret)) {
                st = ss__fail(SS_ERR_IO, "array '%s' chunk %s is corrupted: zstd: %s (%s)",
                              w->name, w->key, ZSTD_getErrorName(ret), w->path);
                break;
            }
            size_t whole = o.pos / es * es;
            if (base + o.pos > raw) {
                st = ss__fail(SS_ERR_IO, "array '%s' chunk %s is corrupted: it decompresses to "
                                         "more than %llu bytes (%s)",
                              w->name, w->key, (unsigned long long)raw, w->path);
                break;
            }
            for (int k = 0; k < g->ndest; k++)
                scatter(&its[k], &subs[k], &g->dest[k], es, obuf, base, whole, z->dtype);
            keep = o.pos - whole;
            memmove(obuf, obuf + whole, keep);
            base += whole;
        } while (in.pos < in.size || (o.pos == out_cap && ret != 0));
    }
    close_fd(fd);
    if (st == SS_OK && (ret != 0 || base + keep != raw))
        st = ss__fail(SS_ERR_IO, "array '%s' chunk %s is %s: it decompresses to %llu bytes, "
                                 "expected %llu (%s)",
                      w->name, w->key, ret != 0 ? "truncated" : "corrupted",
                      (unsigned long long)(base + keep), (unsigned long long)raw, w->path);
    return st;
}

ss_status ss__ck_read_region(ss__ck_reader *r, const ss__ck_region *g)
{
    const ss__ck_zarray *z;
    ss_status st = ss__ck_zarray_get(g->ck, g->array, &z);
    if (st)
        return st;
    ss__buf key;
    ss__buf_init(&key);
    ss__ck_chunk_key(&key, z, g->idx);
    where w;
    char *path = NULL;
    st = key.data && !key.oom ? locate(g->ck, g->array, key.data, &w, &path)
                  : ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    if (st) {
        ss__buf_free(&key);
        return st;
    }
    const ss__ck_sums *sums = NULL;
    if (z->sharded && !r->dry)
        st = inner_chunk(z, &w);
    if (!st && !z->sharded) /* shardsim's sums cover whole v2 chunk files */
        st = ss__ck_sums_get(g->ck, g->array, key.data, &sums);
    int n = g->ndest > 0 ? g->ndest : 1;
    runs *its = st ? NULL : malloc(2 * (size_t)n * sizeof *its);
    uint64_t *subs = st ? NULL : malloc((size_t)n * sizeof *subs);
    r->chunks++;
    if (st == SS_OK && (!its || !subs))
        st = ss__fail(SS_ERR_NOMEM, "checkpoint: out of host memory");
    if (st == SS_OK)
        st = z->zstd ? read_zstd(r, g, z, &w, sums, its, subs)
                     : read_raw(r, g, z, &w, sums, its, its + n);
    free(its);
    free(subs);
    free(path);
    ss__buf_free(&key);
    return st;
}
