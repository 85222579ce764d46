/*
 * workers.c — devices as fibers on a pool of worker threads.
 *
 * Every device is a fiber (fiber.h) with its own stack; ctx->threads
 * worker threads (the host's cores by default) run them. A run marks every
 * device READY; each worker then repeatedly claims a device — one READY,
 * or one PARKED whose wait is over — and switches to it. The device runs
 * until it must wait for a peer (ss__wait: it records what it waits for
 * and switches back to its worker, which marks it PARKED) or its function
 * returns. A worker that finds nothing to claim spins over the devices a
 * little, then sleeps on the context's epoch, which every change a device
 * may wait for bumps (ss__workers_kick) when a worker sleeps.
 *
 * So 256 devices on 2 cores cost 2 threads and user-space switches, not
 * 256 threads woken by futexes, and at most `threads` devices compute at
 * once. Any worker may claim any device (a fiber resumes on whichever
 * thread claimed it), which balances uneven devices, such as a replica
 * group's leader, across the workers. Results do not depend on the
 * order: collectives combine in rank order.
 *
 * Claiming is a compare-and-swap on the device's fstate, so a fiber runs
 * on one worker at a time; a fiber is PARKED only by the worker it
 * switched back to, after the switch, so no one resumes a stack that is
 * still in use.
 */
#include "device_internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CPU_RELAX() _mm_pause()
#else
#define CPU_RELAX() ((void)0)
#endif

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#endif

typedef struct ss__worker {
    ss_context *ctx;
    int index;
    pthread_t thread;
    bool started;
    ss__fiber self; /* the worker thread's own context */
} ss__worker;

/* 2 MiB: kernels keep up to 32 KiB of blocks on the stack. Only touched
 * pages cost memory. */
static const size_t FIBER_STACK = (size_t)2 << 20;
/* Passes over the devices an idle worker makes before it sleeps (when the
 * workers fit the cores), and its longest sleep. */
enum { IDLE_SPINS = 64 };
static const double IDLE_SLEEP = 0.02;

static _Thread_local ss__worker *this_worker;

/* Sleep up to `seconds` on `word` while it still holds `seen` (spurious
 * returns are fine: callers look again). */
static void futex_wait(_Atomic uint32_t *word, uint32_t seen, double seconds)
{
#if defined(__linux__)
    struct timespec t;
    t.tv_sec = (time_t)seconds;
    t.tv_nsec = (long)((seconds - (double)t.tv_sec) * 1e9);
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, seen, &t, NULL, 0);
#else
    (void)word;
    (void)seen;
    struct timespec t = {0, (long)((seconds < 1e-3 ? seconds : 1e-3) * 1e9)};
    nanosleep(&t, NULL);
#endif
}

static void futex_wake_all(_Atomic uint32_t *word)
{
#if defined(__linux__)
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
#else
    (void)word;
#endif
}

void ss__workers_kick(ss_context *ctx)
{
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&ctx->idle, memory_order_relaxed) > 0) {
        atomic_fetch_add(&ctx->epoch, 1);
        futex_wake_all(&ctx->epoch);
    }
}

bool ss__workers_own_thread(const ss_context *ctx)
{
    return this_worker && this_worker->ctx == ctx;
}

/* --- The device side ------------------------------------------------------ */

static void device_fiber(void *arg)
{
    ss_device *d = arg;
    while (!d->ctx->stopping) {
        ss__device_run_job(d);
        d->run_over = true;
        ss__fiber_switch(&d->fiber, &d->worker->self);
    }
    ss__fiber_exit(&d->fiber, &d->worker->self);
}

bool ss__wait(ss_device *self, _Atomic uint32_t *word, uint32_t want, double seconds)
{
    if (atomic_load_explicit(word, memory_order_acquire) >= want)
        return true;
    atomic_store_explicit(&self->wait_word, word, memory_order_relaxed);
    atomic_store_explicit(&self->wait_want, want, memory_order_relaxed);
    atomic_store_explicit(&self->wait_until, ss__now() + seconds, memory_order_relaxed);
    ss__fiber_switch(&self->fiber, &self->worker->self);
    return atomic_load_explicit(word, memory_order_acquire) >= want;
}

void ss__device_sleep(ss_device *self, double seconds)
{
    double until = ss__now() + seconds;
    for (double now = ss__now(); now < until && !atomic_load(&self->ctx->abort);
         now = ss__now()) {
        atomic_store_explicit(&self->wait_word, NULL, memory_order_relaxed);
        atomic_store_explicit(&self->wait_until, until < now + IDLE_SLEEP ? until : now + IDLE_SLEEP,
                              memory_order_relaxed);
        ss__fiber_switch(&self->fiber, &self->worker->self);
    }
}

/* --- The worker side ------------------------------------------------------ */

/* Run d (claimed: RUNNING) until it parks or its run is over. */
static void resume(ss__worker *w, ss_device *d)
{
    d->worker = w;
    d->ever_run = true;
    ss__message_redirect(d->live_message);
    ss__fiber_switch(&w->self, &d->fiber);
    ss__message_redirect(NULL);
    if (d->run_over) {
        d->run_over = false;
        atomic_store_explicit(&d->fstate, SS__FIBER_IDLE, memory_order_release);
        if (atomic_fetch_sub(&w->ctx->live, 1) == 1)
            ss__workers_kick(w->ctx);
    } else {
        atomic_store_explicit(&d->fstate, SS__FIBER_PARKED, memory_order_release);
    }
}

static bool wait_over(ss_device *d, double *now, double *until)
{
    _Atomic uint32_t *word = atomic_load_explicit(&d->wait_word, memory_order_relaxed);
    if (word && atomic_load_explicit(word, memory_order_acquire) >=
                    atomic_load_explicit(&d->wait_want, memory_order_relaxed))
        return true;
    if (*now == 0)
        *now = ss__now();
    *until = atomic_load_explicit(&d->wait_until, memory_order_relaxed);
    return *now >= *until;
}

/* One pass over the devices from *cursor: claim the first that can run.
 * *soonest: the earliest wake-up time of the parked ones passed over. */
static ss_device *claim(ss__worker *w, int *cursor, double *soonest)
{
    ss_context *ctx = w->ctx;
    int n = ctx->ndevices;
    double now = 0;
    for (int k = 0; k < n; k++) {
        int i = *cursor + k < n ? *cursor + k : *cursor + k - n;
        ss_device *d = &ctx->devices[i];
        int s = atomic_load_explicit(&d->fstate, memory_order_acquire);
        if (s == SS__FIBER_PARKED) {
            double until;
            if (!wait_over(d, &now, &until)) {
                if (until < *soonest)
                    *soonest = until;
                continue;
            }
        } else if (s != SS__FIBER_READY) {
            continue;
        }
        if (atomic_compare_exchange_strong(&d->fstate, &s, SS__FIBER_RUNNING)) {
            *cursor = i + 1 < n ? i + 1 : 0;
            return d;
        }
    }
    return NULL;
}

/* Sleep until a kick or the soonest parked deadline (at most IDLE_SLEEP);
 * claim first if something became runnable meanwhile. */
static ss_device *idle(ss__worker *w, int *cursor)
{
    ss_context *ctx = w->ctx;
    atomic_fetch_add(&ctx->idle, 1);
    atomic_thread_fence(memory_order_seq_cst);
    uint32_t e = atomic_load(&ctx->epoch);
    double soonest = ss__now() + IDLE_SLEEP;
    ss_device *d = atomic_load(&ctx->live) > 0 ? claim(w, cursor, &soonest) : NULL;
    if (!d && atomic_load(&ctx->live) > 0) {
        double s = soonest - ss__now();
        if (s > 0)
            futex_wait(&ctx->epoch, e, s);
    }
    atomic_fetch_sub(&ctx->idle, 1);
    return d;
}

/* One run on this worker: until every device of the run is done. */
static void work(ss__worker *w)
{
    ss_context *ctx = w->ctx;
    int cursor = w->index * ctx->ndevices / ctx->threads;
    int spins = 0;
    while (atomic_load(&ctx->live) > 0) {
        double soonest = 1e300;
        ss_device *d = claim(w, &cursor, &soonest);
        if (!d && (ctx->oversubscribed || ++spins > IDLE_SPINS)) {
            d = idle(w, &cursor);
            spins = 0;
        } else if (!d) {
            CPU_RELAX();
        }
        if (d) {
            resume(w, d);
            spins = 0;
        }
    }
}

static void *worker_main(void *arg)
{
    ss__worker *w = arg;
    ss_context *ctx = w->ctx;
    this_worker = w;
    ss__fiber_of_thread(&w->self);
    uint64_t gen = 0;
    for (;;) {
        pthread_mutex_lock(&ctx->lock);
        while (!ctx->stopping && ctx->job_gen == gen)
            pthread_cond_wait(&ctx->start_cv, &ctx->lock);
        bool stop = ctx->stopping;
        gen = ctx->job_gen;
        pthread_mutex_unlock(&ctx->lock);
        if (stop)
            return NULL;

        work(w);

        pthread_mutex_lock(&ctx->lock);
        if (--ctx->pending == 0)
            pthread_cond_signal(&ctx->done_cv);
        pthread_mutex_unlock(&ctx->lock);
    }
}

ss_status ss__workers_start(ss_context *ctx)
{
    for (int i = 0; i < ctx->ndevices; i++) {
        ss_device *d = &ctx->devices[i];
        ss_status st = ss__fiber_create(&d->fiber, FIBER_STACK, device_fiber, d);
        if (st)
            return ss__fail(st, "context: device %d: %s", i, ss_error_message());
    }
    ctx->workers = calloc((size_t)ctx->threads, sizeof *ctx->workers);
    if (!ctx->workers)
        return ss__fail(SS_ERR_NOMEM, "context: out of host memory");
    for (int i = 0; i < ctx->threads; i++) {
        ss__worker *w = &ctx->workers[i];
        w->ctx = ctx;
        w->index = i;
        int rc = pthread_create(&w->thread, NULL, worker_main, w);
        if (rc != 0)
            return ss__fail(SS_ERR_NOMEM, "context: cannot start worker thread %d: %s", i,
                            strerror(rc));
        w->started = true;
    }
    return SS_OK;
}

void ss__workers_stop(ss_context *ctx)
{
    pthread_mutex_lock(&ctx->lock);
    ctx->stopping = true;
    pthread_cond_broadcast(&ctx->start_cv);
    pthread_mutex_unlock(&ctx->lock);
    if (ctx->workers) {
        for (int i = 0; i < ctx->threads; i++)
            if (ctx->workers[i].started)
                pthread_join(ctx->workers[i].thread, NULL);
    }
    /* Every started fiber is suspended at the end of its loop: let it see
     * `stopping` and exit, here on this thread. */
    ss__worker here = {.ctx = ctx};
    ss__fiber_of_thread(&here.self);
    for (int i = 0; i < ctx->ndevices; i++) {
        ss_device *d = &ctx->devices[i];
        if (d->ever_run) {
            d->worker = &here;
            ss__fiber_switch(&here.self, &d->fiber);
            d->ever_run = false;
        }
    }
    for (int i = 0; i < ctx->ndevices; i++)
        ss__fiber_destroy(&ctx->devices[i].fiber);
    free(ctx->workers);
    ctx->workers = NULL;
}
