/*
 * arena.c — the per-device allocator: first fit over an address-ordered
 * block list, 64-byte aligned, merging free neighbours on release.
 *
 * What it deliberately does not do: grow (capacity is the emulated HBM),
 * return pages to the OS on free (a later allocation would fault them in
 * again), or keep size classes (device programs allocate few, large buffers).
 */
#include "arena.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

size_t ss_device_buffer_bytes(size_t bytes)
{
    _Static_assert(SS__ARENA_ALIGN == 64, "arena blocks are ss__align64's 64-byte pieces");
    if (bytes > SIZE_MAX - SS__ARENA_ALIGN)
        return SIZE_MAX;
    return ss__align64(bytes ? bytes : 1);
}

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

/* --- Live blocks by offset (see arena.h) --- */

static size_t live_home(const ss__arena *a, size_t offset)
{
    uint64_t h = (uint64_t)(offset / SS__ARENA_ALIGN) * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 29) & a->live_mask;
}

static void live_put(ss__arena *a, ss__block *b)
{
    size_t i = live_home(a, b->offset);
    while (a->live_slots[i].block)
        i = (i + 1) & a->live_mask;
    a->live_slots[i] = (struct ss__live_slot){b->offset, b};
}

/* Room for one more live block (at most half the slots used). */
static ss_status live_reserve(ss__arena *a)
{
    size_t slots = a->live_mask + 1;
    if ((size_t)(a->live_count + 1) * 2 <= slots)
        return SS_OK;
    struct ss__live_slot *old = a->live_slots;
    struct ss__live_slot *grown = calloc(slots * 2, sizeof *grown);
    if (!grown)
        return ss__fail(SS_ERR_NOMEM, "device %d: out of host memory", a->device);
    a->live_slots = grown;
    a->live_mask = slots * 2 - 1;
    for (size_t i = 0; i < slots; i++)
        if (old[i].block)
            live_put(a, old[i].block);
    free(old);
    return SS_OK;
}

static size_t live_slot(const ss__arena *a, size_t offset)
{
    for (size_t i = live_home(a, offset);; i = (i + 1) & a->live_mask)
        if (!a->live_slots[i].block || a->live_slots[i].offset == offset)
            return i;
}

/* Empty slot i, moving later entries of its probe run back (no tombstones). */
static void live_remove_slot(ss__arena *a, size_t i)
{
    a->live_slots[i].block = NULL;
    for (size_t j = (i + 1) & a->live_mask; a->live_slots[j].block; j = (j + 1) & a->live_mask) {
        size_t home = live_home(a, a->live_slots[j].offset);
        if (((j - home) & a->live_mask) >= ((j - i) & a->live_mask)) {
            a->live_slots[i] = a->live_slots[j];
            a->live_slots[j].block = NULL;
            i = j;
        }
    }
}

/* --- Block records --- */

static ss__block *block_new(ss__arena *a)
{
    ss__block *b = a->spare;
    if (!b)
        return calloc(1, sizeof *b);
    a->spare = b->next;
    memset(b, 0, sizeof *b);
    return b;
}

static void block_drop(ss__arena *a, ss__block *b)
{
    b->next = a->spare;
    a->spare = b;
}

/* --- Free blocks in address order (arena.h) --- */

/* The first index whose free block starts at or after `offset`. */
static int free_lower(const ss__arena *a, size_t offset)
{
    int lo = 0, hi = a->nfree;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (a->frees[mid]->offset < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Room for one more free block. */
static ss_status free_reserve(ss__arena *a)
{
    if (a->nfree < a->cap_free)
        return SS_OK;
    int cap = a->cap_free ? a->cap_free * 2 : 64;
    ss__block **f = realloc(a->frees, sizeof *f * (size_t)cap);
    if (f)
        a->frees = f;
    size_t *s = f ? realloc(a->free_sizes, sizeof *s * (size_t)cap) : NULL;
    if (!s)
        return ss__fail(SS_ERR_NOMEM, "device %d: out of host memory", a->device);
    a->free_sizes = s;
    a->cap_free = cap;
    return SS_OK;
}

/* Put free block b at index i (after free_reserve). */
static void free_insert_at(ss__arena *a, int i, ss__block *b)
{
    size_t tail = (size_t)(a->nfree - i);
    memmove(&a->frees[i + 1], &a->frees[i], sizeof *a->frees * tail);
    memmove(&a->free_sizes[i + 1], &a->free_sizes[i], sizeof *a->free_sizes * tail);
    a->frees[i] = b;
    a->free_sizes[i] = b->size;
    a->nfree++;
}

static void free_remove_at(ss__arena *a, int i)
{
    size_t tail = (size_t)(a->nfree - i - 1);
    memmove(&a->frees[i], &a->frees[i + 1], sizeof *a->frees * tail);
    memmove(&a->free_sizes[i], &a->free_sizes[i + 1], sizeof *a->free_sizes * tail);
    a->nfree--;
}

ss_status ss__arena_init(ss__arena *a, int device, size_t capacity)
{
    memset(a, 0, sizeof *a);
    a->device = device;
    long page = sysconf(_SC_PAGESIZE);
    size_t pg = page > 0 ? (size_t)page : 4096;
    if (capacity == 0 || capacity > SIZE_MAX - pg)
        return ss__fail(SS_ERR_INVALID, "device %d: memory capacity %zu is out of range", device,
                        capacity);
    capacity = round_up(capacity, pg);
    void *p = mmap(NULL, capacity, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        char cap_text[32];
        ss__fmt_bytes_exact(cap_text, sizeof cap_text, (double)capacity);
        return ss__fail(SS_ERR_NOMEM, "device %d: cannot reserve %s of address space: %s", device,
                        cap_text, strerror(errno));
    }
    ss__block *b = calloc(1, sizeof *b);
    struct ss__live_slot *slots = calloc(64, sizeof *slots);
    if (!b || !slots || free_reserve(a)) {
        free(b);
        free(slots);
        free(a->frees);
        free(a->free_sizes);
        munmap(p, capacity);
        return ss__fail(SS_ERR_NOMEM, "device %d: out of host memory", device);
    }
    b->size = capacity;
    a->base = p;
    a->capacity = capacity;
    a->head = b;
    free_insert_at(a, 0, b);
    a->live_slots = slots;
    a->live_mask = 63;
    pthread_mutex_init(&a->lock, NULL);
    return SS_OK;
}

void ss__arena_free(ss__arena *a)
{
    if (!a->base)
        return;
    for (ss__block *b = a->head, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    for (ss__block *b = a->spare, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(a->frees);
    free(a->free_sizes);
    munmap(a->base, a->capacity);
    free(a->views);
    free(a->live_slots);
    pthread_mutex_destroy(&a->lock);
    memset(a, 0, sizeof *a);
}

/* Collect the `cap` largest live blocks, largest first (insertion sort into
 * a short list; ties keep address order). Caller holds the lock. */
static int largest_live(const ss__arena *a, const ss__block *top[], int cap)
{
    int n = 0;
    for (const ss__block *b = a->head; b; b = b->next) {
        if (!b->live)
            continue;
        int i = n < cap ? n++ : cap;
        if (i == cap && (cap == 0 || top[cap - 1]->size >= b->size))
            continue;
        if (i == cap)
            i = cap - 1;
        while (i > 0 && top[i - 1]->size < b->size) {
            top[i] = top[i - 1];
            i--;
        }
        top[i] = b;
    }
    return n;
}

static size_t largest_free_block(const ss__arena *a)
{
    size_t m = 0;
    for (int i = 0; i < a->nfree; i++)
        m = a->free_sizes[i] > m ? a->free_sizes[i] : m;
    return m;
}

/* The one-line OOM report. Caller holds the lock. */
static ss_status oom(ss__arena *a, size_t bytes, const char *what, bool injected)
{
    char req[32], live[32], cap[32], fr[32];
    ss__fmt_bytes_exact(req, sizeof req, (double)bytes);
    ss__fmt_bytes_exact(live, sizeof live, (double)a->live_bytes);
    ss__fmt_bytes_exact(cap, sizeof cap, (double)a->capacity);
    size_t lf = largest_free_block(a);
    ss__fmt_bytes_exact(fr, sizeof fr, (double)lf);
    ss__buf b;
    ss__buf_init(&b);
    ss__buf_printf(&b, "device %d: out of memory allocating %s: %zu bytes (%s) requested, %s live "
                       "of %s capacity",
                   a->device, what, bytes, req, live, cap);
    if (injected)
        ss__buf_printf(&b, " (injected failure of allocation #%lld)", (long long)a->fail_at);
    else if (a->capacity - a->live_bytes >= bytes)
        ss__buf_printf(&b, " (fragmented: largest free block %s)", fr);
    const ss__block *top[5];
    int n = largest_live(a, top, 5);
    if (n == 0)
        ss__buf_puts(&b, "; no live buffers");
    for (int i = 0; i < n; i++) {
        char sz[32];
        ss__fmt_bytes_exact(sz, sizeof sz, (double)top[i]->size);
        ss__buf_printf(&b, "%s%s (%s)", i ? ", " : "; largest live buffers: ", top[i]->name, sz);
    }
    ss_status st = ss__fail(SS_ERR_DEVICE_OOM, "%s", b.oom ? "device out of memory" : b.data);
    ss__buf_free(&b);
    return st;
}

ss_status ss__arena_alloc(ss__arena *a, size_t bytes, const char *what, void **out)
{
    *out = NULL;
    if (!what || !*what)
        what = "buffer";
    pthread_mutex_lock(&a->lock);
    a->alloc_count++;
    if (a->fail_at && a->alloc_count == a->fail_at) {
        ss_status st = oom(a, bytes, what, true);
        a->fail_at = 0;
        pthread_mutex_unlock(&a->lock);
        return st;
    }
    size_t need = ss_device_buffer_bytes(bytes);
    int fi = 0;
    while (fi < a->nfree && a->free_sizes[fi] < need)
        fi++;
    ss__block *b = fi < a->nfree ? a->frees[fi] : NULL;
    if (!b || need == SIZE_MAX) {
        ss_status st = oom(a, bytes, what, false);
        pthread_mutex_unlock(&a->lock);
        return st;
    }
    ss_status reserved = live_reserve(a);
    if (reserved) {
        pthread_mutex_unlock(&a->lock);
        return reserved;
    }
    if (b->size > need) {
        ss__block *rest = block_new(a);
        if (!rest) {
            pthread_mutex_unlock(&a->lock);
            return ss__fail(SS_ERR_NOMEM, "device %d: out of host memory", a->device);
        }
        rest->offset = b->offset + need;
        rest->size = b->size - need;
        rest->prev = b;
        rest->next = b->next;
        if (b->next)
            b->next->prev = rest;
        b->next = rest;
        b->size = need;
        a->frees[fi] = rest; /* rest takes b's place in address order */
        a->free_sizes[fi] = rest->size;
    } else {
        free_remove_at(a, fi);
    }
    b->live = true;
    live_put(a, b);
    b->requested = bytes;
    size_t len = strnlen(what, sizeof b->name - 1);
    memcpy(b->name, what, len);
    b->name[len] = '\0';
    a->live_bytes += b->size;
    a->live_count++;
    if (a->live_bytes > a->peak_bytes)
        a->peak_bytes = a->live_bytes;
    *out = a->base + b->offset;
    pthread_mutex_unlock(&a->lock);
    return SS_OK;
}

/* Merge `b` with its successor (the free array is the caller's). */
static void merge_next(ss__arena *a, ss__block *b)
{
    ss__block *n = b->next;
    b->size += n->size;
    b->next = n->next;
    if (n->next)
        n->next->prev = b;
    block_drop(a, n);
}

ss_status ss__arena_release(ss__arena *a, void *p)
{
    char *c = p;
    if (!a->base || c < a->base || c >= a->base + a->capacity)
        return ss__fail(SS_ERR_INVALID, "device %d: free of %p, which is not in its arena",
                        a->device, p);
    size_t off = (size_t)(c - a->base);
    pthread_mutex_lock(&a->lock);
    size_t slot = live_slot(a, off);
    ss__block *b = a->live_slots[slot].block;
    if (!b) {
        pthread_mutex_unlock(&a->lock);
        return ss__fail(SS_ERR_INVALID, "device %d: free of %p, which is not a live buffer",
                        a->device, p);
    }
    ss_status reserved = free_reserve(a); /* before anything changes */
    if (reserved) {
        pthread_mutex_unlock(&a->lock);
        return reserved;
    }
    live_remove_slot(a, slot);
    b->live = false;
    b->name[0] = '\0';
    a->live_bytes -= b->size;
    a->live_count--;
    bool next_free = b->next && !b->next->live, prev_free = b->prev && !b->prev->live;
    /* The index b would have among the free blocks: its successor's when
     * that is free, else the first one after it. */
    int i = free_lower(a, b->offset);
    if (next_free) { /* b takes its free successor's place and size */
        merge_next(a, b);
        a->frees[i] = b;
        a->free_sizes[i] = b->size;
    } else if (!prev_free) {
        free_insert_at(a, i, b);
    }
    if (prev_free) { /* the free predecessor, at i - 1, takes b */
        ss__block *q = b->prev;
        if (next_free)
            free_remove_at(a, i);
        merge_next(a, q);
        a->free_sizes[i - 1] = q->size;
    }
    pthread_mutex_unlock(&a->lock);
    return SS_OK;
}

int ss__arena_owns(ss__arena *a, const void *p, size_t bytes)
{
    const char *c = p;
    if (!a->base || c < a->base || c >= a->base + a->capacity)
        return 0;
    size_t off = (size_t)(c - a->base);
    int found = 0;
    pthread_mutex_lock(&a->lock);
    for (const ss__block *b = a->head; b; b = b->next)
        if (b->live && off >= b->offset && off - b->offset + bytes <= b->size) {
            found = 1;
            break;
        }
    pthread_mutex_unlock(&a->lock);
    return found;
}

void ss__arena_stats(ss__arena *a, ss_memory_stats *out)
{
    pthread_mutex_lock(&a->lock);
    out->capacity = a->capacity;
    out->live_bytes = a->live_bytes;
    out->peak_bytes = a->peak_bytes;
    out->largest_free = largest_free_block(a);
    out->alloc_count = a->alloc_count;
    out->live_count = a->live_count;
    pthread_mutex_unlock(&a->lock);
}

int ss__arena_largest(ss__arena *a, ss_buffer_info out[], int cap)
{
    enum { MAXTOP = 64 };
    const ss__block *top[MAXTOP];
    if (cap > MAXTOP)
        cap = MAXTOP;
    if (cap < 0)
        cap = 0;
    pthread_mutex_lock(&a->lock);
    int n = largest_live(a, top, cap);
    for (int i = 0; i < n; i++) {
        memcpy(out[i].name, top[i]->name, sizeof out[i].name);
        out[i].bytes = top[i]->size;
        out[i].offset = top[i]->offset;
    }
    pthread_mutex_unlock(&a->lock);
    return n;
}

ss_status ss__arena_view_add(ss__arena *a, void *own, const void *data)
{
    pthread_mutex_lock(&a->lock);
    if (a->nviews == a->cap_views) {
        int cap = a->cap_views ? a->cap_views * 2 : 16;
        struct ss__view *v = realloc(a->views, sizeof *v * (size_t)cap);
        if (!v) {
            pthread_mutex_unlock(&a->lock);
            return ss__fail(SS_ERR_NOMEM, "device %d: out of host memory", a->device);
        }
        a->views = v;
        a->cap_views = cap;
    }
    a->views[a->nviews].data = data;
    a->views[a->nviews].own = own;
    a->nviews++;
    pthread_mutex_unlock(&a->lock);
    return SS_OK;
}

void *ss__arena_view_take(ss__arena *a, const void *data)
{
    void *own = NULL;
    pthread_mutex_lock(&a->lock);
    for (int k = a->nviews - 1; k >= 0; k--)
        if (a->views[k].data == data) {
            own = a->views[k].own;
            memmove(&a->views[k], &a->views[k + 1], sizeof *a->views * (size_t)(a->nviews - k - 1));
            a->nviews--;
            break;
        }
    pthread_mutex_unlock(&a->lock);
    return own;
}

int ss__arena_has_view(ss__arena *a, const void *data)
{
    int found = 0;
    pthread_mutex_lock(&a->lock);
    for (int k = a->nviews - 1; k >= 0 && !found; k--)
        found = a->views[k].data == data;
    pthread_mutex_unlock(&a->lock);
    return found;
}

void ss__arena_fail_at(ss__arena *a, int64_t nth)
{
    pthread_mutex_lock(&a->lock);
    a->fail_at = nth > 0 ? a->alloc_count + nth : 0;
    pthread_mutex_unlock(&a->lock);
}

ss_status ss_size_parse(const char *text, size_t *out)
{
    if (!text)
        return ss__fail(SS_ERR_PARSE, "size: missing text");
    const char *s = text;
    while (*s == ' ')
        s++;
    char *end;
    errno = 0;
    if (*s < '0' || *s > '9')
        return ss__fail(SS_ERR_PARSE, "size '%s': expected a number such as 16GiB or 512MiB",
                        text);
    double v = strtod(s, &end);
    if (errno || end == s || v < 0)
        return ss__fail(SS_ERR_PARSE, "size '%s': expected a number such as 16GiB or 512MiB",
                        text);
    while (*end == ' ')
        end++;
    /* The letter's power (K 1, M 2, G 3, T 4); a following 'i' (KiB) or
     * nothing (K) makes it binary, a 'B' alone (KB) decimal: dd's and du's
     * reading of these suffixes. */
    double mult = 1;
    const char *u = end;
    if (*u) {
        int power;
        switch (*u) {
        case 'k': case 'K': power = 1; break;
        case 'm': case 'M': power = 2; break;
        case 'g': case 'G': power = 3; break;
        case 't': case 'T': power = 4; break;
        case 'b': case 'B': power = 0; break;
        default: power = -1; break;
        }
        if (power < 0)
            return ss__fail(SS_ERR_PARSE,
                            "size '%s': unknown unit '%s' (use B, KiB, MiB, GiB, TiB or KB, MB, "
                            "GB, TB)",
                            text, u);
        u++;
        bool decimal = power > 0 && (*u == 'B' || *u == 'b');
        for (int k = 0; k < power; k++)
            mult *= decimal ? 1000.0 : 1024.0;
        if (power > 0 && *u == 'i')
            u++;
        if (power > 0 && (*u == 'B' || *u == 'b'))
            u++;
        while (*u == ' ')
            u++;
        if (*u)
            return ss__fail(SS_ERR_PARSE, "size '%s': unexpected '%s' after the unit", text, u);
    }
    double bytes = v * mult;
    if (bytes >= 18446744073709551616.0 || bytes >= (double)SIZE_MAX)
        return ss__fail(SS_ERR_RANGE, "size '%s' is too large", text);
    if (bytes != (double)(size_t)bytes)
        return ss__fail(SS_ERR_PARSE, "size '%s' is not a whole number of bytes", text);
    *out = (size_t)bytes;
    return SS_OK;
}
