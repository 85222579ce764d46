/*
 * store.c — identical replicas stored once: a block of data that several
 * devices hold bit for bit the same (an array's replicated shard, a
 * replicated computation's result) lives once, outside the arenas, and each
 * device that holds it has a *view*: it reads the one copy, and its arena
 * still carries a block of the buffer's size, allocated and freed exactly
 * when the naive path (every device its own copy) would, so used and peak
 * bytes, the largest-buffer lists, fault injection and out-of-memory reports
 * are unchanged; only that block's pages are never touched (reserved, not
 * committed).
 *
 * A stored block counts its holders (an atomic reference count: one per
 * view, plus the creator's until it lets go) and is freed when the last one
 * lets go, whichever thread that is. Nothing writes into a stored block
 * after it is shared: a device that must write into a buffer it holds as a
 * view takes the block charged for it (ss__device_unview) and writes there,
 * after copying the shared bytes in when the write keeps some of them.
 *
 * SHARDSIM_STORAGE=copies at context creation turns this off: every
 * device keeps its own copy (the naive reference the tests compare with).
 */
#include "device_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The header before a stored block's data (64 bytes: the data stays
 * 64-byte aligned, as arena blocks are). A block is its own mapping,
 * whole pages; freed blocks wait on their context's free list (`next`) and
 * are handed out again for the same mapping size, so their pages, touched
 * once, are not faulted in again every step, just as an arena keeps its
 * pages (blocks from the C heap, allocated by one device and freed
 * by another, fragmented its per-thread heaps: the MLP's peak RSS at 2x4
 * grew from 556 to 729 MiB over 11 steps). Only the context frees them. */
typedef struct stored {
    _Atomic long refs;
    size_t bytes, map_bytes;
    ss_context *ctx;
    struct stored *next;
    char pad[64 - sizeof(long) - 2 * sizeof(size_t) - 2 * sizeof(void *)];
} stored;
_Static_assert(sizeof(stored) == 64, "stored header keeps data 64-byte aligned");

static stored *header_of(const void *data)
{
    return (stored *)(void *)((char *)(uintptr_t)data - sizeof(stored));
}

bool ss__store_enabled(const ss_context *ctx)
{
    return ctx->store;
}

ss_status ss__stored_new(ss_context *ctx, size_t bytes, void **data)
{
    *data = NULL;
    long pg = sysconf(_SC_PAGESIZE);
    size_t page = pg > 0 ? (size_t)pg : 4096;
    if (bytes > SIZE_MAX - sizeof(stored) - page)
        return ss__fail(SS_ERR_NOMEM, "shared storage: %zu bytes is too large", bytes);
    size_t map = (bytes + sizeof(stored) + page - 1) / page * page;
    stored *s = NULL;
    pthread_mutex_lock(&ctx->store_lock);
    for (stored **q = (stored **)&ctx->store_free; *q; q = &(*q)->next)
        if ((*q)->map_bytes == map) {
            s = *q;
            *q = s->next;
            break;
        }
    pthread_mutex_unlock(&ctx->store_lock);
    if (!s) {
        void *m = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED)
            return ss__fail(SS_ERR_NOMEM, "shared storage: out of host memory for %zu bytes",
                            bytes);
        s = m;
        s->map_bytes = map;
        s->ctx = ctx;
    }
    atomic_init(&s->refs, 1);
    s->bytes = bytes;
    s->next = NULL;
    *data = s + 1;
    return SS_OK;
}

void ss__stored_ref(const void *data)
{
    atomic_fetch_add_explicit(&header_of(data)->refs, 1, memory_order_relaxed);
}

void ss__stored_unref(const void *data)
{
    if (!data)
        return;
    stored *s = header_of(data);
    if (atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) != 1)
        return;
    ss_context *ctx = s->ctx;
    pthread_mutex_lock(&ctx->store_lock);
    s->next = ctx->store_free;
    ctx->store_free = s;
    pthread_mutex_unlock(&ctx->store_lock);
}

void ss__store_free_all(ss_context *ctx)
{
    for (stored *s = ctx->store_free, *next; s; s = next) {
        next = s->next;
        munmap(s, s->map_bytes);
    }
    ctx->store_free = NULL;
}

/* Is p outside device d's arena (so, if it is a buffer of d, a view)? */
static bool outside_arena(const ss_device *d, const void *p)
{
    const char *c = p;
    return !d->arena.base || c < d->arena.base || c >= d->arena.base + d->arena.capacity;
}

bool ss__device_is_view(ss_context *ctx, int device, const void *p)
{
    ss_device *d = &ctx->devices[device];
    return p && outside_arena(d, p) && ss__arena_has_view(&d->arena, p);
}

ss_status ss__device_alloc_view(ss_context *ctx, int device, size_t bytes, const char *what,
                                void *data, void **out)
{
    void *own;
    *out = NULL;
    ss_status st = ss__device_alloc_named(ctx, device, bytes, what, &own);
    if (!st)
        st = ss__device_view_over(ctx, device, own, data);
    if (st) {
        if (own)
            ss__arena_release(&ctx->devices[device].arena, own);
        return st;
    }
    *out = data;
    return SS_OK;
}

ss_status ss__device_view_over(ss_context *ctx, int device, void *own, void *data)
{
    ss_status st = ss__arena_view_add(&ctx->devices[device].arena, own, data);
    if (!st)
        ss__stored_ref(data);
    return st;
}

void *ss__device_unview(ss_context *ctx, int device, const void *data)
{
    return ss__arena_view_take(&ctx->devices[device].arena, data);
}

ss_status ss__device_share_new(ss_context *ctx, int device, void **p, size_t bytes)
{
    ss__arena *a = &ctx->devices[device].arena;
    void *own = *p, *data;
    ss_status st = ss__stored_new(ctx, bytes, &data);
    if (st)
        return st;
    st = ss__arena_view_add(a, own, data); /* the creator's reference becomes the view's */
    if (st) {
        ss__stored_unref(data);
        return st;
    }
    *p = data;
    return SS_OK;
}
