/*
 * names.c — the name pool: every mesh axis name and logical name the
 * library stores is a pointer into this pool (ss_name_intern).
 *
 * Why a pool: names have no length limit (JAX takes any Python str), yet
 * specs, rules, meshes and collectives are small plain structs that are
 * copied freely. A pointer to an immortal copy keeps them copyable by
 * assignment, with no ownership to track and no per-struct allocation.
 *
 * Shape: the text lives in blocks of at least SS__NAME_BLOCK bytes, chained
 * from `pool.blocks` (a global, so LeakSanitizer and valgrind see the
 * memory as reachable, never as a leak); an open-addressing hash table
 * (linear probing, at most half full) maps text to its one copy. One mutex
 * guards both: interning happens when text is parsed, not on hot paths
 * (copies of a struct copy the pointers). Nothing is ever freed.
 *
 * Deliberately not done: removing names, or a lock-free lookup.
 */
#include "base.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SS__NAME_BLOCK 16384

typedef struct ss__name_block {
    struct ss__name_block *next;
    size_t used, cap;
    char text[];
} ss__name_block;

static struct {
    pthread_mutex_t lock;
    const char **slots; /* nslots entries, NULL = empty; nslots a power of 2 */
    size_t nslots;
    size_t count;
    ss__name_block *blocks; /* newest first */
} pool = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0, NULL};

static uint64_t name_hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* Double the table (or make the first); false when memory runs out. */
static bool pool_grow(void)
{
    size_t n = pool.nslots ? pool.nslots * 2 : 256;
    const char **slots = calloc(n, sizeof *slots);
    if (!slots)
        return false;
    for (size_t i = 0; i < pool.nslots; i++) {
        const char *s = pool.slots[i];
        if (!s)
            continue;
        size_t j = (size_t)name_hash(s, strlen(s)) & (n - 1);
        while (slots[j])
            j = (j + 1) & (n - 1);
        slots[j] = s;
    }
    free(pool.slots);
    pool.slots = slots;
    pool.nslots = n;
    return true;
}

/* A copy of s (n bytes and a NUL) in the newest block, or NULL. */
static const char *pool_store(const char *s, size_t n)
{
    ss__name_block *b = pool.blocks;
    if (!b || b->cap - b->used < n + 1) {
        size_t cap = n + 1 > SS__NAME_BLOCK ? n + 1 : SS__NAME_BLOCK;
        b = malloc(sizeof *b + cap);
        if (!b)
            return NULL;
        b->used = 0;
        b->cap = cap;
        b->next = pool.blocks;
        pool.blocks = b;
    }
    char *out = b->text + b->used;
    memcpy(out, s, n);
    out[n] = '\0';
    b->used += n + 1;
    return out;
}

ss_status ss_name_intern(const char *s, const char **out)
{
    if (!s || !out)
        return ss__fail(SS_ERR_INVALID, "ss_name_intern: NULL %s", s ? "out" : "name");
    size_t n = strlen(s);
    uint64_t h = name_hash(s, n);
    pthread_mutex_lock(&pool.lock);
    const char *found = NULL;
    if ((pool.count + 1) * 2 > pool.nslots && !pool_grow()) {
        pthread_mutex_unlock(&pool.lock);
        return ss__fail(SS_ERR_NOMEM, "out of host memory interning a name of %zu bytes", n);
    }
    size_t j = (size_t)h & (pool.nslots - 1);
    for (; pool.slots[j]; j = (j + 1) & (pool.nslots - 1))
        if (strcmp(pool.slots[j], s) == 0) {
            found = pool.slots[j];
            break;
        }
    if (!found) {
        found = pool_store(s, n);
        if (found) {
            pool.slots[j] = found;
            pool.count++;
        }
    }
    pthread_mutex_unlock(&pool.lock);
    if (!found)
        return ss__fail(SS_ERR_NOMEM, "out of host memory interning a name of %zu bytes", n);
    *out = found;
    return SS_OK;
}

ss_status ss__name_intern_n(const char *s, size_t n, const char **out)
{
    char small[256];
    char *tmp = n < sizeof small ? small : malloc(n + 1);
    if (!tmp)
        return ss__fail(SS_ERR_NOMEM, "out of host memory interning a name of %zu bytes", n);
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    ss_status st = ss_name_intern(tmp, out);
    if (tmp != small)
        free(tmp);
    return st;
}
