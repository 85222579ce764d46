/*
 * ckpt_internal.h — the checkpoint layer's shared pieces: file helpers
 * (files.c), CRC32C block sums (crc32c.c), the on-disk formats (format.c),
 * an opened step (open.c) and the chunk reader (chunk_read.c). save.c,
 * restore.c and verify.c are built from them.
 *
 * Paths are malloc'd strings built with ss__ck_pathf; every function that fails
 * records a one-line message with ss__fail and returns its status.
 */
#ifndef SS_CKPT_INTERNAL_H
#define SS_CKPT_INTERNAL_H

#include "base/base.h"

#include <stdbool.h>
#include <stdint.h>

/* --- files.c -------------------------------------------------------------- */

/* printf into a new malloc'd string (NULL when out of memory). */
char *ss__ck_pathf(const char *fmt, ...) SS__PRINTF(1, 2);
bool ss__ck_is_dir(const char *path);
bool ss__ck_is_file(const char *path);
/* mkdir -p. */
ss_status ss__ck_mkdirs(const char *path);
/* rm -r; a missing path is fine. */
ss_status ss__ck_rmtree(const char *path);
/* Exchange the names of two existing paths in one atomic step
 * (renameat2 RENAME_EXCHANGE on Linux, renamex_np RENAME_SWAP on macOS).
 * Where the system or file system cannot, `a` is renamed to `b` after `b`
 * is moved to `aside` (two steps: a kill between them leaves `b` only
 * under `aside`); *swapped says which happened. */
ss_status ss__ck_swap_dirs(const char *a, const char *b, const char *aside, bool *swapped);
/* fsync a directory (its entries). */
ss_status ss__ck_fsync_dir(const char *path);
/* Create or replace `path` with `n` bytes; fsync it when `sync`. */
ss_status ss__ck_write_file(const char *path, const void *data, size_t n, bool sync);
/* The whole file, NUL-terminated, malloc'd. SS_ERR_IO naming the path. */
ss_status ss__ck_read_file(const char *path, char **out, size_t *len);
/* write(2) until done. */
ss_status ss__ck_write_all(int fd, const void *data, size_t n, const char *path);
/* pread(2) until `n` bytes or end of file; *got receives the count. */
ss_status ss__ck_pread_all(int fd, void *buf, size_t n, uint64_t off, size_t *got,
                           const char *path);
/* Wall clock in nanoseconds since the epoch. */
int64_t ss__ck_now_ns(void);
/* Monotonic seconds. */
double ss__ck_seconds(void);

/* Test hook: when set, a save calls it at each stage of publishing a step
 * ("written": the temporary directory is complete; "published": DIR/STEP
 * is the new step; "cleaned": the replaced step is deleted), so that a
 * test can kill the process there. NULL in normal use. */
extern void (*ss__ckpt_save_fault)(const char *stage);

/* --- crc32c.c ------------------------------------------------------------- */

/* CRC32Cs of the consecutive `block`-byte blocks of a byte stream fed in
 * pieces of any size; the last block may be short. */
typedef struct ss__ck_crc_acc {
    size_t block;
    size_t fill;   /* bytes in the current block */
    uint32_t cur;  /* its running CRC */
    uint32_t *crc; /* finished blocks */
    int64_t n, cap;
    bool oom;
} ss__ck_crc_acc;

void ss__ck_crc_acc_init(ss__ck_crc_acc *a, size_t block);
void ss__ck_crc_acc_add(ss__ck_crc_acc *a, const void *data, size_t n);
/* Close a short last block (if any). */
void ss__ck_crc_acc_finish(ss__ck_crc_acc *a);
void ss__ck_crc_acc_free(ss__ck_crc_acc *a);
/* The plain table implementation (tests compare the fast path with it). */
uint32_t ss__ck_crc32c_table(uint32_t crc, const void *data, size_t n);

/* --- format.c ------------------------------------------------------------- */

/* A zarr v2 array's metadata, as far as shardsim uses it. */
typedef struct ss__ck_zarray {
    int rank;
    int64_t shape[SS_MAX_RANK];
    int64_t chunks[SS_MAX_RANK];
    ss_dtype dtype;
    bool zstd;
    int level;
    char sep; /* dimension_separator: '.' or '/' */
    uint32_t text_crc; /* CRC32C of the .zarray text as written or read */
    /* zarr v3 (zarr.json, zarr3.c): chunk keys "c/1/0" unless v2_keys;
     * sharded: each stored chunk is a sharding_indexed shard of one inner
     * chunk, located by a 16-byte index (+ CRC32C when index_crc) at its
     * end (its start when index_start). */
    bool v3, v2_keys, sharded, index_crc, index_start;
} ss__ck_zarray;

/* numpy typestr as zarr v2 writes it: "<f4", "bfloat16", "|b1", ... */
const char *ss__ck_dtype_str(ss_dtype dt);
/* Inverse; SS_ERR_UNSUPPORTED for a dtype shardsim has no counterpart for
 * (big-endian included). */
ss_status ss__ck_dtype_parse(const char *s, ss_dtype *out);
/* The .zarray text: keys sorted, no spaces (TensorStore's form). */
void ss__ck_zarray_write(ss__buf *b, const ss__ck_zarray *z);
/* Parse the `len` bytes of `text` (NUL-terminated; the .zarray of array
 * `name`), recording their CRC32C in out->text_crc. */
ss_status ss__ck_zarray_parse(const char *text, size_t len, const char *name, ss__ck_zarray *out);
/* --- zarr3.c --------------------------------------------------------------- */

/* Parse the `len` bytes of a zarr.json (NUL-terminated; array `name`):
 * SS_ERR_PARSE for malformed metadata, SS_ERR_UNSUPPORTED for what is not
 * read (zarr3.c's opening comment lists it), each naming the array. */
ss_status ss__ck_zarr3_parse(const char *text, size_t len, const char *name,
                             ss__ck_zarray *out);

/* Elements and bytes of one (full) chunk. */
int64_t ss__ck_chunk_elems(const ss__ck_zarray *z);
/* Chunks along dim d and in the whole grid (0 if a dim is 0). */
int64_t ss__ck_grid(const ss__ck_zarray *z, int d);
int64_t ss__ck_grid_total(const ss__ck_zarray *z);
/* Chunk key "1.0" ("0" for a scalar), with the array's separator. */
void ss__ck_chunk_key(ss__buf *b, const ss__ck_zarray *z, const int64_t idx[]);

/* Array names: keys joined by '.'; keys are [A-Za-z0-9_-]+. */
ss_status ss__ck_name_check(const char *name);
/* Python repr of the key tuple: "('params', 'w')", "('a',)". */
void ss__ck_name_tuple(ss__buf *b, const char *name);
/* Append the key_metadata list of `name`. */
void ss__ck_name_keys_json(ss__buf *b, const char *name);
/* base64url of a string, with '=' padding (Orbax's _sharding keys). */
void ss__ck_base64url(ss__buf *b, const char *s);

/* The sharding entry text (a JSON object, spaced as Python's json.dumps). */
void ss__ck_sharding_json(ss__buf *b, const ss_sharding *sh);

/* A saved sharding as parsed from its JSON text. */
typedef struct ss__ck_saved {
    ss_ckpt_sharding_kind kind;
    int device;   /* SINGLE_DEVICE */
    int naxes;    /* NAMED */
    const char *names[SS_MAX_AXES]; /* in the name pool */
    int64_t sizes[SS_MAX_AXES];
    int ndev;
    int *ids;     /* device ids in mesh order, malloc'd; NULL without device_mesh */
    ss_spec spec;
    char type[64]; /* sharding_type as written */
} ss__ck_saved;

/* Parse one _sharding entry. Unknown types give kind OTHER (not an error). */
ss_status ss__ck_saved_parse(const char *json, const char *name, ss__ck_saved *out);
void ss__ck_saved_free(ss__ck_saved *s);
/* "NamedSharding(mesh=Mesh('a': 2, 'b': 4), spec=P('a', 'b'))". */
void ss__ck_saved_text(const ss__ck_saved *s, char *out, size_t cap);

/* --- ocdbt_frame.c ------------------------------------------------------ */

#define SS__OCDBT_MAGIC_MANIFEST 0x0cdb3a2au
#define SS__OCDBT_MAGIC_BTREE 0x0cdb20deu
#define SS__OCDBT_MAX_PATH 65535u

/* A read position in decoded bytes; any read past the end sets `bad` and
 * returns 0 / NULL, so a decoder checks `bad` once after a group. */
typedef struct ss__ocdbt_cur {
    const unsigned char *p;
    size_t n, at;
    bool bad;
} ss__ocdbt_cur;

uint64_t ss__ocdbt_varint(ss__ocdbt_cur *c);
const unsigned char *ss__ocdbt_bytes(ss__ocdbt_cur *c, uint64_t n);
unsigned ss__ocdbt_u8(ss__ocdbt_cur *c);
uint64_t ss__ocdbt_le64(const unsigned char *p);
/* Check the frame of the `n` bytes at `p` (magic, length, version,
 * compression, CRC32C) and give its body, decompressed into at most `cap`
 * bytes, malloc'd. SS_ERR_IO naming `what` for damage, SS_ERR_UNSUPPORTED
 * for a version or compression not read. */
ss_status ss__ocdbt_frame(const unsigned char *p, size_t n, uint32_t magic, uint64_t cap,
                          const char *what, unsigned char **body, size_t *blen);

/* A data file table: full paths (transitive + path[i]) and the transitive
 * prefixes their children use (transitive + base_path[i]). */
typedef struct ss__ocdbt_table {
    int n;
    char **path, **base;
} ss__ocdbt_table;

ss_status ss__ocdbt_table_read(ss__ocdbt_cur *c, const char *transitive, const char *what,
                               ss__ocdbt_table *t);
void ss__ocdbt_table_free(ss__ocdbt_table *t);

/* --- ocdbt_read.c ------------------------------------------------------- */

/* One key of an OCDBT store: its value inline (kept in memory) or at
 * [offset, offset+length) of data file `file` (a path relative to root). */
typedef struct ss__ocdbt_entry {
    char *key;
    bool is_inline;
    unsigned char *inl;
    int file;
    uint64_t offset, length;
} ss__ocdbt_entry;

/* The keys of an OCDBT store's newest version, sorted. */
typedef struct ss__ocdbt {
    char *root;
    int nfiles;
    char **files;
    int n, cap;
    ss__ocdbt_entry *e;
    uint64_t generation, commit_time;
} ss__ocdbt;

/* Read `len` bytes at `off` of data file `path` (relative to the store)
 * into a new malloc'd buffer; errors name the file. */
typedef ss_status (*ss__ocdbt_loader)(void *ctx, const char *path, uint64_t off, uint64_t len,
                                      unsigned char **out);

/* Whether dir/manifest.ocdbt exists. */
bool ss__ocdbt_present(const char *dir);
/* Read the store in `dir` (manifest and every B+tree node; not the
 * out-of-line values). SS_ERR_IO for missing, truncated or damaged files
 * (CRC32C, lengths, structure), SS_ERR_UNSUPPORTED for format features not
 * read, SS_ERR_NOMEM; each names the file. */
ss_status ss__ocdbt_open(const char *dir, ss__ocdbt **out);
/* Decode the `n` manifest bytes at `p` into `kv` (kv->root set, no entries
 * yet), reading nodes through `load`. Errors as ss__ocdbt_open. */
ss_status ss__ocdbt_decode(ss__ocdbt *kv, const unsigned char *p, size_t n,
                           ss__ocdbt_loader load, void *ctx);
void ss__ocdbt_free(ss__ocdbt *kv);
/* The entry of `key`, or NULL. */
const ss__ocdbt_entry *ss__ocdbt_find(const ss__ocdbt *kv, const char *key);
/* A whole value (at most 1 GiB), NUL-terminated, malloc'd. */
ss_status ss__ocdbt_read_value(const ss__ocdbt *kv, const ss__ocdbt_entry *e, char **out,
                               size_t *len);

/* --- ocdbt_write.c ------------------------------------------------------- */

/* Move the files of the `n` array directories of `item_dir` into an OCDBT
 * store there (manifest.ocdbt, d/<id>; keys "NAME/FILE"), fsynced, and
 * remove the directories. SS_ERR_IO naming the path, SS_ERR_NOMEM,
 * SS_ERR_UNSUPPORTED when the keys would not fit one B+tree node. */
ss_status ss__ocdbt_pack(const char *item_dir, int n, const char *const names[]);

/* --- open.c --------------------------------------------------------------- */

/* CRC32Cs recorded for one chunk file. */
typedef struct ss__ck_sums {
    char *key;
    uint64_t bytes;
    uint32_t block;
    int64_t n;
    uint32_t *crc;
} ss__ck_sums;

typedef struct ss__ck_array {
    char name[SS_CKPT_NAME_MAX];
    char *sharding; /* the _sharding entry (JSON text) or NULL */
    int nsums;
    ss__ck_sums *sums;  /* sorted by key */
    bool recorded;  /* some array_metadatas file has its record */
    bool has_zcrc;  /* ... with the CRC32C of its .zarray text */
    uint32_t zcrc;
    bool zloaded;
    ss__ck_zarray z;
} ss__ck_array;

struct ss_ckpt {
    char *root;
    char *step_dir;
    char *item_dir;
    char item[SS_CKPT_NAME_MAX];
    int64_t step;
    int64_t init_ns, commit_ns;
    /* Checksums are all or nothing. _METADATA says shardsim wrote the step
     * with its checksums (SS__CK_CHECKSUM_KEY): then every array has a record,
     * every chunk of its grid a CRC32C list and its .zarray a CRC32C
     * (zcrc_required). A step with records for some arrays (an older
     * shardsim's) needs them for every array and chunk. In both cases
     * sums_required is set and a missing or malformed record is an error.
     * A step without any (Orbax, zarr-python) is read unchecked. */
    bool sums_required, zcrc_required;
    int n;
    ss__ck_array *arrays;
    /* The item's OCDBT store (Orbax's default layout), or NULL when its
     * arrays are plain files. Keys are the paths the files would have
     * below item_dir ("params.w/.zarray", "params.w/0.1"). */
    ss__ocdbt *kv;
};

/* The key of _METADATA's custom_metadata object whose value (an integer,
 * the format version, 1) says the checksums are required. */
#define SS__CK_CHECKSUM_KEY "shardsim_checksums"
#define SS__CK_CHECKSUM_VERSION 1

/* The .zarray of array i, parsed once. */
ss_status ss__ck_zarray_get(ss_ckpt *ck, int i, const ss__ck_zarray **out);
/* The sums recorded for chunk `key` of array i, or NULL. */
const ss__ck_sums *ss__ck_sums_find(const ss_ckpt *ck, int i, const char *key);
/* The sums of chunk `key` of array i in *out (NULL when there are none and
 * none are required); SS_ERR_IO naming the array and chunk when the step
 * requires them (sums_required) and the record is missing. */
ss_status ss__ck_sums_get(const ss_ckpt *ck, int i, const char *key, const ss__ck_sums **out);
/* Whether `dir` is itself one checkpoint (holds _CHECKPOINT_METADATA or
 * _METADATA, as StandardCheckpointer.save(dir) writes) rather than a
 * directory of steps; ss_ckpt_open then opens it as step 0. */
bool ss__ck_is_single(const char *dir);
/* Path of the step directory's name for `step`. */
char *ss__ck_step_path(const char *dir, int64_t step, bool tmp);

/* --- chunk_read.c --------------------------------------------------------- */

/* One device's reading state: its staging buffer (in its arena) and
 * counters. In `dry` mode nothing is opened or read; the byte counts are
 * what a real read would do (zstd chunk sizes come from stat). */
typedef struct ss__ck_reader {
    unsigned char *staging;
    size_t cap;    /* staging bytes */
    void *dctx;    /* ZSTD_DCtx, created on first use */
    bool dry;
    uint64_t bytes_read;
    int64_t chunks;
} ss__ck_reader;

/* One destination of a chunk's bytes: the box [start, start+ext) in the
 * chunk's own coordinates goes to `dstart` of a destination array of shape
 * `dshape` and dtype `dtype` (dst NULL: read and check only). */
typedef struct ss__ck_dest {
    int64_t start[SS_MAX_RANK];
    int64_t ext[SS_MAX_RANK];
    void *dst;
    ss_dtype dtype;
    int64_t dshape[SS_MAX_RANK];
    int64_t dstart[SS_MAX_RANK];
} ss__ck_dest;

/* One chunk file and every destination box it feeds (disjoint boxes). */
typedef struct ss__ck_region {
    ss_ckpt *ck;
    int array;
    int64_t idx[SS_MAX_RANK];
    int ndest;
    ss__ck_dest *dest;
} ss__ck_region;

/* Read one chunk once through the reader's staging buffer into all its
 * destinations, checking the CRC32C of every block read, the file size and
 * (zstd) the decompressed size; values are cast to each destination's
 * dtype. An uncompressed chunk is read only in the blocks some destination
 * needs. Errors name the array, the chunk and the file. The array's
 * .zarray must already be loaded (ss__ck_zarray_get) when several threads read. */
ss_status ss__ck_read_region(ss__ck_reader *r, const ss__ck_region *g);
void ss__ck_reader_free(ss__ck_reader *r);
/* Staging bytes a region needs at most (the whole chunk, and for zstd its
 * compressed size too; `csize` is the compressed size, from stat). */
size_t ss__ck_region_staging(const ss__ck_zarray *z, uint64_t csize);
/* Size of chunk file `key` of array i (stat); SS_ERR_IO naming array and
 * chunk when missing. */
ss_status ss__ck_chunk_size(ss_ckpt *ck, int i, const char *key, uint64_t *out);
/* Cast n elements (src and dst may not overlap). */
void ss__ck_cast(void *dst, ss_dtype dt, const void *src, ss_dtype st, size_t n);

#endif
