/* test_ckpt_oom.c — checkpoint readers when a host allocation fails: the
 * N-th malloc/calloc/realloc made by shardsim (and by cJSON, whose hooks
 * call malloc from shardsim's code) returns NULL, for every N over a whole
 * ss_ckpt_verify and a whole ss_ckpt_restore of a small checkpoint. Every
 * run must either succeed or fail with SS_ERR_NOMEM saying "out of host
 * memory" — never a parse error, "incomplete checkpoint" or a corruption
 * verdict — and must free all it allocated (live blocks are counted).
 *
 * The executable is linked with -Wl,--wrap=malloc,... (tests/meson.build),
 * so only calls from objects linked into it are counted: libc's, zstd's and
 * Criterion's own allocations are not. */
#include "ckpt_check.h"

#include <stdatomic.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);

static atomic_long calls;   /* allocation calls since arming */
static atomic_long fail_at; /* 0: never fail */
static atomic_long live;    /* blocks allocated and not yet freed */

static bool fail_now(void)
{
    long at = atomic_load(&fail_at);
    return at > 0 && atomic_fetch_add(&calls, 1) + 1 == at;
}

void *__wrap_malloc(size_t n)
{
    if (fail_now())
        return NULL;
    void *p = __real_malloc(n);
    if (p)
        atomic_fetch_add(&live, 1);
    return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
    if (fail_now())
        return NULL;
    void *p = __real_calloc(n, size);
    if (p)
        atomic_fetch_add(&live, 1);
    return p;
}

void *__wrap_realloc(void *p, size_t n)
{
    if (fail_now())
        return NULL;
    void *q = __real_realloc(p, n);
    if (!p && q)
        atomic_fetch_add(&live, 1);
    else if (p && !q && n == 0)
        atomic_fetch_sub(&live, 1);
    return q;
}

void __wrap_free(void *p)
{
    if (p)
        atomic_fetch_sub(&live, 1);
    __real_free(p);
}

TestSuite(ckpt_oom, .fini = rm_tmp);

/* Two arrays (zstd and raw chunks) over 2 devices, in steps 1 and 2. */
static void small_checkpoint(void)
{
    make_tmp();
    ss_context *ctx = make_ctx(2, 0);
    ss_mesh *m = mesh("x=2", 2);
    ss_sharding byx = sharding(m, "P('x')"), rep = sharding(m, "P()");
    ss_array *a = put(ctx, &byx, SS_F32, 2, (int64_t[]){64, 32}, 1);
    ss_array *b = put(ctx, &rep, SS_BF16, 1, (int64_t[]){48}, 2);
    const char *names[] = {"params.w", "params.b"};
    ss_array *arrays[] = {a, b};
    save(ctx, 1, 2, names, arrays, SS_CKPT_ZSTD);
    save(ctx, 2, 2, names, arrays, SS_CKPT_UNCOMPRESSED);
    ss_array_destroy(a);
    ss_array_destroy(b);
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
}

typedef ss_status (*oom_run)(void *user);

/* Run `f` with the N-th allocation failing, for N = 1, 2, ... until a run
 * makes fewer than N allocations; returns the number of failing runs. */
static int sweep(const char *what, oom_run f, void *user)
{
    /* The first call installs cJSON's hooks and warms up lazy state. */
    cr_assert_eq(f(user), SS_OK, "%s: %s", what, ss_error_message());
    int failed = 0;
    for (long n = 1;; n++) {
        long before = atomic_load(&live);
        atomic_store(&calls, 0);
        if (getenv("SS_OOM_TRACE"))
            fprintf(stderr, "%s: failing allocation %ld\n", what, n);
        atomic_store(&fail_at, n);
        ss_status st = f(user);
        atomic_store(&fail_at, 0);
        long made = atomic_load(&calls);
        long leaked = atomic_load(&live) - before;
        cr_assert_eq(leaked, 0, "%s, allocation %ld failing: %ld blocks not freed (%s: %s)",
                     what, n, leaked, ss_status_name(st), ss_error_message());
        if (made < n) {
            cr_assert_eq(st, SS_OK, "%s: %s", what, ss_error_message());
            cr_assert_gt(failed, 10, "%s: only %d allocations were swept", what, failed);
            return failed;
        }
        if (st == SS_OK)
            continue; /* a failure the code could do without */
        failed++;
        cr_assert_eq(st, SS_ERR_NOMEM, "%s, allocation %ld failing: %s instead of out of memory: "
                                       "%s",
                     what, n, ss_status_name(st), ss_error_message());
        cr_assert(strstr(ss_error_message(), "out of host memory"),
                  "%s, allocation %ld failing: %s", what, n, ss_error_message());
    }
}

static ss_status verify_all(void *user)
{
    (void)user;
    int problems = -1;
    ss_status st = ss_ckpt_verify(tmp_root, -1, NULL, NULL, &problems);
    cr_assert_eq(problems, 0, "a failed allocation was counted as a problem: %s",
                 ss_error_message());
    return st;
}

Test(ckpt_oom, verify_says_out_of_memory_at_every_failed_allocation, .timeout = 120)
{
    small_checkpoint();
    int n = sweep("verify", verify_all, NULL);
    fprintf(stderr, "verify: %d failing allocations swept\n", n);
}

typedef struct restore_job {
    ss_context *ctx;
    ss_ckpt_target t[2];
} restore_job;

static ss_status restore_step(void *user)
{
    restore_job *j = user;
    ss_ckpt_state *s = NULL;
    ss_status st = ss_ckpt_restore(j->ctx, tmp_root, 1, 2, j->t, NULL, &s, NULL);
    if (st == SS_OK) {
        long at = atomic_exchange(&fail_at, 0); /* the checks themselves allocate */
        expect_pattern(ss_ckpt_state_array(s, 0), 1);
        expect_pattern(ss_ckpt_state_array(s, 1), 2);
        atomic_store(&fail_at, at);
    }
    ss_ckpt_state_destroy(s);
    return st;
}

Test(ckpt_oom, restore_says_out_of_memory_at_every_failed_allocation, .timeout = 120)
{
    small_checkpoint();
    restore_job j;
    j.ctx = make_ctx(4, 0);
    ss_mesh *m = mesh("r=2,c=2", 4);
    ss_sharding rows = sharding(m, "P('r', 'c')"), cols = sharding(m, "P('c')");
    j.t[0] = target("params.w", SS_F32, 2, (int64_t[]){64, 32}, &rows);
    j.t[1] = target("params.b", SS_BF16, 1, (int64_t[]){48}, &cols);
    int n = sweep("restore", restore_step, &j);
    fprintf(stderr, "restore: %d failing allocations swept\n", n);
    ss_mesh_destroy(m);
    ss_context_destroy(j.ctx);
}
