/*
 * arena.h — one virtual device's memory: a reserved address range and the
 * allocator that carves buffers out of it.
 *
 * The range is reserved with mmap(MAP_NORESERVE), so only the bytes a program
 * touches cost host RAM. Block bookkeeping lives outside the range (plain host
 * heap), so a kernel writing past the end of a shard cannot corrupt the
 * allocator, and the allocator itself never touches device pages.
 */
#ifndef SS_DEVICE_ARENA_H
#define SS_DEVICE_ARENA_H

#include "base/base.h"

#include <pthread.h>

#define SS__ARENA_ALIGN 64
#define SS__BUFNAME_MAX 96

/* One block of the arena: free or live. Blocks tile the range in address
 * order (a doubly linked list), so freeing merges with both neighbours in
 * O(1). Allocation is first fit: the lowest-addressed free block that is
 * large enough. The free blocks are also kept in address order in a dense
 * array with their sizes beside them (ss__arena.frees, free_sizes), so
 * first fit scans contiguous sizes instead of chasing pointers, and a
 * release places its block by binary search; a release finds its live
 * block by offset in a hash table whose slots hold the offsets. At 256
 * devices the walks through the blocks were 12 % of a step's samples.
 * The offsets chosen are those of a first fit over the whole list
 * (tests/test_device.c checks it against a naive model). */
typedef struct ss__block {
    struct ss__block *prev, *next; /* next: the spare list's link when unused */
    size_t offset, size;
    bool live;
    size_t requested;
    char name[SS__BUFNAME_MAX]; /* "w1 f32[1024,1024] shard [256,1024]" */
} ss__block;

typedef struct ss__arena {
    pthread_mutex_t lock; /* host thread (device_put) and device fiber may both allocate */
    int device;
    char *base;
    size_t capacity;
    ss__block *head;
    /* The free blocks in address order and their sizes; cap_free entries. */
    ss__block **frees;
    size_t *free_sizes;
    int nfree, cap_free;
    /* Live blocks by offset: open addressing, linear probing, a power of
     * two slots at most half full (block NULL: empty). */
    struct ss__live_slot { size_t offset; ss__block *block; } *live_slots;
    size_t live_mask;
    ss__block *spare; /* records of merged-away blocks, for reuse */
    size_t live_bytes, peak_bytes;
    int64_t alloc_count, live_count;
    int64_t fail_at; /* fault injection: 0 = off, else the alloc_count that fails */
    /* Views (store.c): live blocks charged for a copy of data that is held
     * once outside the arenas. The device reads `data`; `own` (a live block
     * of this arena, never touched while the view lasts) carries the charge
     * and is where a copy-on-write lands. Newest last. */
    struct ss__view { const void *data; void *own; } *views;
    int nviews, cap_views;
} ss__arena;

/* Reserve `capacity` bytes (rounded up to the page size) for device `device`. */
ss_status ss__arena_init(ss__arena *a, int device, size_t capacity);
/* Unmap the range and free the bookkeeping (live buffers included). */
void ss__arena_free(ss__arena *a);
/* Allocate `bytes` (0 allowed: one aligned unit) 64-byte aligned. `what`
 * describes the buffer for stats and for the OOM message. Out of memory (or
 * an injected failure) is SS_ERR_DEVICE_OOM with the one-line report. */
ss_status ss__arena_alloc(ss__arena *a, size_t bytes, const char *what, void **out);
/* SS_ERR_INVALID if `p` is not the start of a live buffer of this arena. */
ss_status ss__arena_release(ss__arena *a, void *p);
/* 1 if [p, p+bytes) lies inside one live buffer of this arena. */
int ss__arena_owns(ss__arena *a, const void *p, size_t bytes);
/* Counters and the largest live buffers (largest first; returns the count). */
void ss__arena_stats(ss__arena *a, ss_memory_stats *out);
int ss__arena_largest(ss__arena *a, ss_buffer_info out[], int cap);
/* Record that live block `own` stands for a copy of `data` (a view).
 * SS_ERR_NOMEM when the table cannot grow. */
ss_status ss__arena_view_add(ss__arena *a, void *own, const void *data);
/* Forget the newest view of `data` and return the block charged for it
 * (still live); NULL when this arena holds no view of `data`. */
void *ss__arena_view_take(ss__arena *a, const void *data);
/* 1 if this arena holds a view of `data`. */
int ss__arena_has_view(ss__arena *a, const void *data);
/* Fault injection: the nth allocation from now fails (0 disarms). */
void ss__arena_fail_at(ss__arena *a, int64_t nth);

#endif
