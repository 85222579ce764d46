/*
 * crc32c.c — CRC32C (Castagnoli, reflected polynomial 0x82F63B78), the
 * checksum recorded for every block of every chunk file.
 *
 * Two implementations that give the same value: slicing-by-8 tables built
 * once at first use (any CPU), and the SSE4.2 crc32 instruction on x86-64
 * CPUs that have it (chosen at run time). What this file does not do:
 * combine CRCs of pieces (ss__ck_crc_acc restarts at every block boundary
 * instead, which is all the format needs).
 */
#include "shardsim.h"

#include "ckpt_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static uint32_t table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void table_build(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1u) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        table[0][i] = c;
    }
    for (int t = 1; t < 8; t++)
        for (int i = 0; i < 256; i++)
            table[t][i] = (table[t - 1][i] >> 8) ^ table[0][table[t - 1][i] & 0xFFu];
}

uint32_t ss__ck_crc32c_table(uint32_t crc, const void *data, size_t n)
{
    pthread_once(&table_once, table_build);
    const unsigned char *p = data;
    uint32_t c = ~crc;
    while (n >= 8) {
        uint32_t lo, hi;
        memcpy(&lo, p, 4);
        memcpy(&hi, p + 4, 4);
        lo ^= c; /* little-endian hosts only (x86-64, arm64) */
        c = table[7][lo & 0xFFu] ^ table[6][(lo >> 8) & 0xFFu] ^ table[5][(lo >> 16) & 0xFFu] ^
            table[4][lo >> 24] ^ table[3][hi & 0xFFu] ^ table[2][(hi >> 8) & 0xFFu] ^
            table[1][(hi >> 16) & 0xFFu] ^ table[0][hi >> 24];
        p += 8;
        n -= 8;
    }
    while (n--)
        c = (c >> 8) ^ table[0][(c ^ *p++) & 0xFFu];
    return ~c;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SS__CK_HAVE_SSE42 1
__attribute__((target("sse4.2"))) static uint32_t crc32c_sse42(uint32_t crc, const void *data,
                                                               size_t n)
{
    const unsigned char *p = data;
    uint64_t c = ~crc;
    while (n >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        c = __builtin_ia32_crc32di(c, v);
        p += 8;
        n -= 8;
    }
    uint32_t c32 = (uint32_t)c;
    while (n--)
        c32 = __builtin_ia32_crc32qi(c32, *p++);
    return ~c32;
}
#endif

uint32_t ss_crc32c(uint32_t crc, const void *data, size_t n)
{
#ifdef SS__CK_HAVE_SSE42
    if (__builtin_cpu_supports("sse4.2"))
        return crc32c_sse42(crc, data, n);
#endif
    return ss__ck_crc32c_table(crc, data, n);
}

/* --- Block sums of a stream ----------------------------------------------- */

void ss__ck_crc_acc_init(ss__ck_crc_acc *a, size_t block)
{
    memset(a, 0, sizeof *a);
    a->block = block;
}

static void push(ss__ck_crc_acc *a, uint32_t crc)
{
    if (a->n == a->cap) {
        int64_t cap = a->cap ? a->cap * 2 : 16;
        uint32_t *p = realloc(a->crc, (size_t)cap * sizeof *p);
        if (!p) {
            a->oom = true;
            return;
        }
        a->crc = p;
        a->cap = cap;
    }
    a->crc[a->n++] = crc;
}

void ss__ck_crc_acc_add(ss__ck_crc_acc *a, const void *data, size_t n)
{
    const unsigned char *p = data;
    while (n > 0) {
        size_t take = a->block - a->fill;
        if (take > n)
            take = n;
        a->cur = ss_crc32c(a->cur, p, take);
        a->fill += take;
        p += take;
        n -= take;
        if (a->fill == a->block) {
            push(a, a->cur);
            a->cur = 0;
            a->fill = 0;
        }
    }
}

void ss__ck_crc_acc_finish(ss__ck_crc_acc *a)
{
    if (a->fill > 0) {
        push(a, a->cur);
        a->cur = 0;
        a->fill = 0;
    }
}

void ss__ck_crc_acc_free(ss__ck_crc_acc *a)
{
    free(a->crc);
    a->crc = NULL;
    a->n = a->cap = 0;
}
