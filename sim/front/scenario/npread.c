/*
 * npread.c — reading a .npy file (numpy's format, versions 1.0 to 3.0:
 * https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html)
 * into a host array: what `run --inputs DIR` gives a program's arguments.
 *
 * Accepted: little-endian (or byte-sized) elements of the dtypes shardsim
 * has, bfloat16 as numpy records an ml_dtypes array ('<V2', as npfmt.c
 * writes it), C order. Refused with a message: Fortran order, big-endian
 * data, structured or object dtypes, a file shorter than its shape says.
 */
#include "scenario.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool descr_dtype(const char *d, size_t n, ss_dtype *out)
{
    static const struct { const char *s; ss_dtype dt; } map[] = {
        {"<f4", SS_F32}, {"<f8", SS_F64}, {"<f2", SS_F16}, {"<V2", SS_BF16}, {"|V2", SS_BF16},
        {"<i4", SS_I32}, {"<i8", SS_I64}, {"|i1", SS_I8}, {"|u1", SS_U8}, {"|b1", SS_BOOL},
        {"<i2", SS_I16}, {"<u2", SS_U16}, {"<u4", SS_U32}, {"<u8", SS_U64}};
    for (size_t k = 0; k < sizeof map / sizeof *map; k++)
        if (strlen(map[k].s) == n && memcmp(map[k].s, d, n) == 0) {
            *out = map[k].dt;
            return true;
        }
    return false;
}

/* The value text after 'key': in the header dict, or NULL. */
static const char *dict_value(const char *h, const char *key)
{
    const char *p = strstr(h, key);
    if (!p)
        return NULL;
    p = strchr(p + strlen(key), ':');
    if (!p)
        return NULL;
    p++;
    while (*p == ' ')
        p++;
    return p;
}

static ss_status parse_header(const char *path, const char *h, ss_dtype *dt, int *rank,
                              int64_t shape[])
{
    const char *d = dict_value(h, "'descr'");
    if (!d || (*d != '\'' && *d != '"'))
        return ss__fail(SS_ERR_PARSE, "%s: no 'descr' in the .npy header", path);
    const char *e = strchr(d + 1, *d);
    if (!e || !descr_dtype(d + 1, (size_t)(e - d - 1), dt))
        return ss__fail(SS_ERR_UNSUPPORTED, "%s: element type %.*s is not one shardsim has "
                                            "(little-endian f32 f64 f16 bf16 i8..i64 u8..u64 "
                                            "bool)", path, e ? (int)(e - d + 1) : 8, d);
    const char *f = dict_value(h, "'fortran_order'");
    if (!f || strncmp(f, "False", 5) != 0)
        return ss__fail(SS_ERR_UNSUPPORTED, "%s: only C-order arrays (fortran_order False)",
                        path);
    const char *s = dict_value(h, "'shape'");
    if (!s || *s != '(')
        return ss__fail(SS_ERR_PARSE, "%s: no 'shape' in the .npy header", path);
    *rank = 0;
    for (s++;;) {
        while (*s == ' ' || *s == ',')
            s++;
        if (*s == ')')
            break;
        if (!isdigit((unsigned char)*s) || *rank == SS_MAX_RANK)
            return ss__fail(SS_ERR_PARSE, "%s: a bad shape in the .npy header (at most %d dims)",
                            path, SS_MAX_RANK);
        errno = 0;
        char *end;
        long long v = strtoll(s, &end, 10);
        if (errno || v > ((int64_t)1 << 40))
            return ss__fail(SS_ERR_PARSE, "%s: a dimension too large", path);
        shape[(*rank)++] = v;
        s = end;
    }
    return SS_OK;
}

/* The data at buf + at, n bytes, at an address aligned for any element:
 * in place when it is (a mapped file's numpy header pads it to 64 bytes),
 * else moved to the start of a heap buffer or copied out of a mapping. */
static ss_status align_data(ss__file *file, size_t at, size_t n, void **data)
{
    char *p = file->data + at;
    if (((uintptr_t)p & 15) == 0) {
        *data = p;
        return SS_OK;
    }
    if (!file->mapped) {
        memmove(file->data, p, n);
        *data = file->data;
        return SS_OK;
    }
    char *heap = malloc(n ? n : 1);
    if (!heap)
        return ss__fail(SS_ERR_NOMEM, "out of host memory");
    memcpy(heap, p, n);
    ss__file_release(file);
    *file = (ss__file){heap, n, false};
    *data = heap;
    return SS_OK;
}

ss_status ss__scn_npy_read(const char *path, size_t limit, ss_dtype *dt, int *rank,
                           int64_t shape[], ss__file *file, void **data, size_t *bytes)
{
    *data = NULL;
    *bytes = 0;
    int e = ss__file_map(path, limit, file);
    if (e)
        return ss__fail(e == ENOMEM ? SS_ERR_NOMEM : SS_ERR_IO, "%s: %s", path,
                        e == EFBIG ? "file too large" : strerror(e));
    const char *buf = file->data;
    size_t len = file->len;
    ss_status st = SS_OK;
    size_t hl = 0, off = 0;
    if (len < 10 || memcmp(buf, "\x93NUMPY", 6) != 0 || buf[6] < 1 || buf[6] > 3) {
        st = ss__fail(SS_ERR_PARSE, "%s: not a .npy file (versions 1 to 3)", path);
    } else if (buf[6] == 1) {
        hl = (size_t)(unsigned char)buf[8] | (size_t)(unsigned char)buf[9] << 8;
        off = 10;
    } else if (len >= 12) {
        hl = (size_t)(unsigned char)buf[8] | (size_t)(unsigned char)buf[9] << 8 |
             (size_t)(unsigned char)buf[10] << 16 | (size_t)(unsigned char)buf[11] << 24;
        off = 12;
    }
    if (!st && (off == 0 || hl > len - off))
        st = ss__fail(SS_ERR_PARSE, "%s: the .npy header runs past the file", path);
    char *head = st ? NULL : malloc(hl + 1);
    if (!st && !head)
        st = ss__fail(SS_ERR_NOMEM, "out of host memory");
    if (!st) {
        memcpy(head, buf + off, hl);
        head[hl] = '\0';
        if (strlen(head) != hl)
            st = ss__fail(SS_ERR_PARSE, "%s: a NUL byte in the .npy header", path);
        else
            st = parse_header(path, head, dt, rank, shape);
    }
    free(head);
    if (!st) {
        size_t n = ss_dtype_size(*dt);
        for (int d = 0; d < *rank; d++) {
            if (shape[d] && n > SIZE_MAX / (size_t)shape[d])
                n = SIZE_MAX;
            else
                n *= (size_t)shape[d];
        }
        if (n > len - off - hl) {
            st = ss__fail(SS_ERR_PARSE, "%s: %zu bytes of data, the shape needs %zu", path,
                          len - off - hl, n);
        } else if (!(st = align_data(file, off + hl, n, data))) {
            *bytes = n;
            return SS_OK;
        }
    }
    ss__file_release(file);
    return st;
}
