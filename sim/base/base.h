/*
 * base.h — internal helpers shared by every layer: error reporting, a growable
 * text buffer, and small integer utilities. Nothing here knows about meshes.
 */
#ifndef SS_BASE_H
#define SS_BASE_H

#include "shardsim.h"

#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#if defined(__GNUC__)
#define SS__PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define SS__PRINTF(a, b)
#endif

/* Record `fmt` as this thread's error message and return `status`.
 * Usage: return ss__fail(SS_ERR_MESH, "mesh: axis '%s' repeated", name); */
ss_status ss__fail(ss_status status, const char *fmt, ...) SS__PRINTF(2, 3);
/* From now on this thread's failures write to `buf` (1024 bytes), and
 * ss_error_message reads it; NULL: back to the thread's own buffer. A
 * worker points it at the device fiber it runs, so that a device's message
 * stays its own when its fiber moves between threads. */
void ss__message_redirect(char *buf);

/* A growable, always NUL-terminated text buffer. A failed allocation sets
 * `oom` and later appends are ignored, so callers check once at the end. */
typedef struct ss__buf {
    char *data;
    size_t len;
    size_t cap;
    bool oom;
} ss__buf;

void ss__buf_init(ss__buf *b);
void ss__buf_free(ss__buf *b);
void ss__buf_clear(ss__buf *b);
/* Append n bytes, a string, a character. Appends that fit the room left
 * are inline (a JSON report makes some 50,000 of them); the others grow
 * the buffer in ss__buf_putn_grow. */
void ss__buf_putn_grow(ss__buf *b, const char *s, size_t n);
static inline void ss__buf_putn(ss__buf *b, const char *s, size_t n)
{
    if (b->len + n < b->cap && !b->oom) {
        memcpy(b->data + b->len, s, n);
        b->len += n;
        b->data[b->len] = '\0';
    } else {
        ss__buf_putn_grow(b, s, n);
    }
}
static inline void ss__buf_puts(ss__buf *b, const char *s) { ss__buf_putn(b, s, strlen(s)); }
static inline void ss__buf_putc(ss__buf *b, char c) { ss__buf_putn(b, &c, 1); }
/* Append v in decimal, as printf's "%lld" writes it. */
void ss__buf_put_int(ss__buf *b, long long v);
/* Append `c` n times (n <= 0 appends nothing). */
void ss__buf_repeat(ss__buf *b, const char *s, long n);
void ss__buf_printf(ss__buf *b, const char *fmt, ...) SS__PRINTF(2, 3);
void ss__buf_vprintf(ss__buf *b, const char *fmt, va_list ap);
/* Copy the buffer's text to (out, cap) with a NUL and free nothing.
 * SS_ERR_NOMEM if the buffer ran out of memory, SS_ERR_RANGE if cap is too
 * small (out then holds an empty string). *len may be NULL. */
ss_status ss__buf_copy_out(const ss__buf *b, char *out, size_t cap, size_t *len);

/* Append Python's repr() of the UTF-8 string s: 'data', "a'b", 'a\'b"c',
 * '\t', and \xhh, \uhhhh, \Uhhhhhhhh only for characters Python does not
 * print (pystr.c). Every name printed inside quotes goes through this, so
 * it parses back. */
void ss__buf_py_repr(ss__buf *b, const char *s);
/* The same into out (cap bytes), cut with "..." before the closing quote
 * when it does not fit (error messages: SS__PY_REPR_MAX holds a name of up
 * to 32 characters whatever they are, and the start of a longer one). Returns out. */
#define SS__PY_REPR_MAX 328
const char *ss__py_repr(const char *s, char *out, size_t cap);
/* Decode the Python string literal at p (p[0] is ' or "; escapes as
 * Python's: \\ \' \" \n \t \xhh \uhhhh \Uhhhhhhhh, octal, ...) into out
 * (cap bytes with the NUL). Returns NULL and *end past the closing quote,
 * or a short reason ("unterminated string", "name too long", ...) with
 * *end at the offending character. */
const char *ss__py_str_decode(const char *p, char *out, size_t cap, const char **end);
/* ss__py_str_decode of a literal of any length into a malloc'd string
 * (*out, the caller frees it; NULL on failure), or into the name pool.
 * NULL on success, or the reason ("out of host memory" too). */
const char *ss__py_str_decode_alloc(const char *p, char **out, const char **end);
const char *ss__py_str_intern(const char *p, const char **out, const char **end);

/* ss_name_intern of the n bytes at s (no NUL needed; n may be 0). */
ss_status ss__name_intern_n(const char *s, size_t n, const char **out);

/* Python-style tuple text: "(4, 2)", "(4,)", "()". */
void ss__buf_int_tuple(ss__buf *b, int n, const int64_t v[]);

/* Floor division and modulo as Python's divmod (for the visualizer). */
long ss__floordiv(long a, long b);
long ss__floormod(long a, long b);

/* Room for `need` elements of `size` bytes in the growable array `data` of
 * capacity *cap (doubling, at least `first`): the array to use from now on,
 * or NULL (with `data` and *cap unchanged) when memory runs out. */
void *ss__grow(void *data, int *cap, int need, size_t size, int first);

/* a * b into *out, or false (*out untouched) when the exact product is
 * outside int64: every product of a user's numbers (sizes, element and byte
 * counts) goes through this. ss__mul_i64_portable is the plain-C fallback,
 * used where the compiler has no __builtin_mul_overflow. */
bool ss__mul_i64_portable(int64_t a, int64_t b, int64_t *out);

#if defined(__has_builtin)
#if __has_builtin(__builtin_mul_overflow)
#define SS__HAVE_MUL_OVERFLOW 1
#endif
#elif defined(__GNUC__) && __GNUC__ >= 5
#define SS__HAVE_MUL_OVERFLOW 1
#endif

static inline bool ss__mul_i64_checked(int64_t a, int64_t b, int64_t *out)
{
#ifdef SS__HAVE_MUL_OVERFLOW
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r))
        return false;
    *out = r;
    return true;
#else
    return ss__mul_i64_portable(a, b, out);
#endif
}

/* Element k of a buffer of `dtype` as a double (bf16 and f16 widened
 * exactly, 64-bit integers rounded to the nearest double; 0 for an unknown
 * dtype): what reports and checks print. */
double ss__elem_get(ss_dtype dtype, const void *buf, size_t k);

/* A byte count in binary units (B, KiB, MiB, GiB, TiB, 1024 apart; the
 * largest unit the count reaches, TiB at most); bytes are whole: "512 B".
 * ss__fmt_bytes (reports): one decimal, "16.0 KiB", "1.5 MiB".
 * ss__fmt_bytes_exact (error messages): "16 GiB" when whole in its unit,
 * else two decimals, "1.50 MiB". */
void ss__fmt_bytes(char *out, size_t cap, double bytes);
void ss__fmt_bytes_exact(char *out, size_t cap, double bytes);

/* An array's shape as JAX prints an aval's: "f32[8,1024]", "i32[]". Into
 * out (cap > 0 bytes; SS__SHAPE_TEXT_MAX always suffices), cut short when
 * cap is smaller; returns out. ss__shape_repr_buf appends the same text. */
#define SS__SHAPE_TEXT_MAX (16 + SS_MAX_RANK * 21)
const char *ss__shape_text(char *out, size_t cap, ss_dtype dtype, int rank,
                           const int64_t shape[]);
void ss__shape_repr_buf(ss__buf *b, ss_dtype dtype, int rank, const int64_t shape[]);

/* Read all of `path` (a file or a pipe) into a NUL-terminated heap buffer
 * (*out, *len bytes without the NUL; len may be NULL). Returns 0, or an
 * errno value and *out NULL: fopen's or fread's error, EFBIG when the file
 * holds more than `limit` bytes, ENOMEM. Callers word the message. */
int ss__read_file(const char *path, size_t limit, char **out, size_t *len);

/* A whole file in memory for reading: a private copy-on-write mapping of a
 * regular file (no copy, no read; writing to it changes only this process's
 * pages), or, for what cannot be mapped (a pipe, an empty file), the file
 * read into the heap by ss__read_file. `data` holds `len` bytes;
 * ss__file_release frees either kind and zeroes *m. */
typedef struct ss__file {
    char *data;
    size_t len;
    bool mapped; /* data is a mapping of len bytes (munmap), else malloc'd */
} ss__file;

/* Returns 0, or an errno value (ss__read_file's) with *m zeroed. */
int ss__file_map(const char *path, size_t limit, ss__file *m);
void ss__file_release(ss__file *m);

/* n rounded up to a multiple of 64 (0 stays 0): offsets and sizes of
 * 64-byte aligned pieces of one buffer. A whole buffer in device memory is
 * ss_device_buffer_bytes (0 takes 64). n must be at most SIZE_MAX - 63. */
static inline size_t ss__align64(size_t n) { return (n + 63) & ~(size_t)63; }

/* Checked product of n sizes (0 when any is 0); false on overflow past int64. */
bool ss__product(int n, const int64_t v[], int64_t *out);

#endif
