/* oom_wrap.c — the counting allocation wrappers of oom_wrap.h. */
#include "oom_wrap.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <execinfo.h>
#include <unistd.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__real_aligned_alloc(size_t align, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_aligned_alloc(size_t align, size_t n);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);

static atomic_long calls, fail_at;
static atomic_bool failed;

void fm_arm(long nth)
{
    atomic_store(&fail_at, 0);
    atomic_store(&calls, 0);
    atomic_store(&failed, false);
    atomic_store(&fail_at, nth);
}

long fm_disarm(void)
{
    atomic_store(&fail_at, 0);
    return atomic_load(&calls);
}

bool fm_failed(void) { return atomic_load(&failed); }

/* Counts the call; true when it is the one to fail. */
static bool fail_now(void)
{
    long n = atomic_fetch_add(&calls, 1) + 1;
    if (n != atomic_load(&fail_at))
        return false;
    atomic_store(&failed, true);
    if (getenv("SS_OOM_BACKTRACE")) { /* where it failed, to stderr */
        void *bt[32];
        backtrace_symbols_fd(bt, backtrace(bt, 32), 2);
    }
    errno = ENOMEM;
    return true;
}

void *__wrap_malloc(size_t n) { return fail_now() ? NULL : __real_malloc(n); }

void *__wrap_calloc(size_t n, size_t size) { return fail_now() ? NULL : __real_calloc(n, size); }

void *__wrap_realloc(void *p, size_t n) { return fail_now() ? NULL : __real_realloc(p, n); }

void *__wrap_aligned_alloc(size_t align, size_t n)
{
    return fail_now() ? NULL : __real_aligned_alloc(align, n);
}

char *__wrap_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = __wrap_malloc(n);
    return d ? memcpy(d, s, n) : NULL;
}

char *__wrap_strndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *d = __wrap_malloc(len + 1);
    if (d) {
        memcpy(d, s, len);
        d[len] = '\0';
    }
    return d;
}

static void *cjson_malloc(size_t n) { return __wrap_malloc(n); }

void fm_install(void)
{
    cJSON_Hooks h = {.malloc_fn = cjson_malloc, .free_fn = free};
    cJSON_InitHooks(&h);
}
