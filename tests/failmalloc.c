/* failmalloc.c — an LD_PRELOAD shim for the malloc-failure tests (glibc):
 * FAIL_AT=N makes the Nth malloc/calloc/realloc of the process (1-based,
 * every thread) return NULL; FAIL_COUNT=1 prints "allocations N" on stderr
 * at exit. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);

static atomic_long calls;
static long fail_at = -2; /* -2: FAIL_AT not read yet */

static int should_fail(void)
{
    if (fail_at == -2) {
        const char *e = getenv("FAIL_AT");
        fail_at = e ? atol(e) : -1;
    }
    long c = atomic_fetch_add(&calls, 1) + 1;
    if (c != fail_at)
        return 0;
    errno = ENOMEM;
    return 1;
}

void *malloc(size_t n) { return should_fail() ? NULL : __libc_malloc(n); }
void *calloc(size_t n, size_t size) { return should_fail() ? NULL : __libc_calloc(n, size); }
void *realloc(void *p, size_t n) { return should_fail() ? NULL : __libc_realloc(p, n); }

__attribute__((destructor)) static void report(void)
{
    if (!getenv("FAIL_COUNT"))
        return;
    char b[64];
    int n = snprintf(b, sizeof b, "allocations %ld\n", (long)atomic_load(&calls));
    if (write(2, b, (size_t)n) < 0)
        return;
}
