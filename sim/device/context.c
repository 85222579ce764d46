/*
 * context.c — virtual devices: one fiber and one arena each, hosts,
 * running a function on all devices, fault injection, memory statistics
 * and the collective ledger.
 *
 * The devices' fibers run on a pool of worker threads (workers.c), which
 * sleep on a condition variable between runs. What this file does not do:
 * schedule instruction lists (a device function is the seam the partitioner
 * drives) or talk to other processes (hosts are groups of devices).
 */
#include "device_internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double ss__now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}


/* Every kernel of every device passes here: without a trace, nothing is
 * timed or copied (a kernel begun before tracing starts is not traced). */
void ss_device_kernel_begin(ss_device *dev, const char *name)
{
    dev->in_kernel = true;
    dev->kernel_traced = atomic_load_explicit(&dev->ctx->tracing, memory_order_relaxed);
    if (!dev->kernel_traced)
        return;
    size_t len = strnlen(name ? name : "kernel", sizeof dev->kernel_name - 1);
    memcpy(dev->kernel_name, name ? name : "kernel", len);
    dev->kernel_name[len] = '\0';
    dev->kernel_start = ss__now();
}

void ss_device_kernel_end(ss_device *dev)
{
    if (dev->in_kernel && dev->kernel_traced)
        ss__trace(dev, 'X', "kernel", dev->kernel_name, dev->kernel_start, ss__now(), NULL, 0,
                  NULL, 0);
    dev->in_kernel = false;
}

/* --- A device's run ------------------------------------------------------- */

static void record_result(ss_device *d, ss_status st)
{
    d->status = st;
    if (st == SS_OK) {
        d->severity = 0;
        d->message[0] = '\0';
        return;
    }
    snprintf(d->message, sizeof d->message, "%s", ss_error_message());
    /* A collective that gave up because of someone else marks its message
     * with a leading '~' (see collectives.c); strip it and rank it lowest. */
    if (d->message[0] == '~') {
        memmove(d->message, d->message + 1, strlen(d->message));
        d->severity = 1;
    } else if (st == SS_ERR_DEADLOCK || st == SS_ERR_MISMATCH) {
        d->severity = 2;
    } else {
        d->severity = 3;
    }
}

void ss__device_run_job(ss_device *d)
{
    ss_context *ctx = d->ctx;
    double start = ss__now();
    d->calls = 0;
    atomic_store(&d->seq_done, 0);
    d->in_kernel = false;
    d->live_message[0] = '\0';
    atomic_store(&d->state, SS__DEV_RUNNING);
    if (d->delay_nth == 0 && d->delay_seconds > 0) {
        atomic_store(&d->state, SS__DEV_DELAYED);
        ss__device_sleep(d, d->delay_seconds);
        atomic_store(&d->state, SS__DEV_RUNNING);
    }
    ss_status st = ctx->fn(d, ctx->user);
    d->in_kernel = false; /* a kernel_begin without its end */
    ss__trace(d, 'X', "run", st == SS_OK ? "run" : ss_status_name(st), start, ss__now(), NULL,
              0, NULL, 0);
    record_result(d, st);
    if (st != SS_OK)
        atomic_store(&ctx->abort, 1);
    atomic_store(&d->state, st == SS_OK ? SS__DEV_DONE : SS__DEV_FAILED);
    /* Peers waiting for this device must notice that it will not arrive. */
    ss__workers_kick(ctx);
}

/* --- Context ------------------------------------------------------------- */

static int online_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

void ss_context_destroy(ss_context *ctx)
{
    if (!ctx)
        return;
    if (ctx->devices) {
        ss__workers_stop(ctx);
        for (int i = 0; i < ctx->ndevices; i++) {
            ss_device *d = &ctx->devices[i];
            ss__arena_free(&d->arena);
            ss__arena_free(&d->host_arena);
            free(d->members);
            free(d->events);
            pthread_mutex_destroy(&d->report_lock);
            pthread_mutex_destroy(&d->trace_lock);
        }
        free(ctx->devices);
    }
    free(ctx->ledger.items);
    ss__store_free_all(ctx);
    pthread_mutex_destroy(&ctx->store_lock);
    pthread_cond_destroy(&ctx->start_cv);
    pthread_cond_destroy(&ctx->done_cv);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
}

static ss_status resolve_memory(const ss_context_options *o, size_t *out)
{
    if (o->device_memory) {
        *out = o->device_memory;
        return SS_OK;
    }
    const char *env = getenv("SHARDSIM_DEVICE_MEMORY");
    if (env && *env) {
        ss_status st = ss_size_parse(env, out);
        if (st)
            return ss__fail(st, "SHARDSIM_DEVICE_MEMORY: %s", ss_error_message());
        if (*out == 0)
            return ss__fail(SS_ERR_INVALID, "SHARDSIM_DEVICE_MEMORY must be positive");
        return SS_OK;
    }
    *out = SS_DEFAULT_DEVICE_MEMORY;
    return SS_OK;
}

ss_status ss_context_create(const ss_context_options *opts, ss_context **out)
{
    *out = NULL;
    if (!opts)
        return ss__fail(SS_ERR_INVALID, "context: options are required");
    int n = opts->ndevices;
    if (n < 1 || n > SS_MAX_DEVICES)
        return ss__fail(SS_ERR_INVALID, "context: %d devices requested; expected 1..%d", n,
                        SS_MAX_DEVICES);
    int hosts = opts->hosts ? opts->hosts : 1;
    if (hosts < 1 || n % hosts != 0)
        return ss__fail(SS_ERR_INVALID, "context: %d hosts do not divide %d devices evenly",
                        opts->hosts, n);
    if (opts->threads < 0)
        return ss__fail(SS_ERR_INVALID, "context: threads %d must be >= 0", opts->threads);
    if (opts->timeout < 0 || opts->timeout > 1e6 || opts->timeout != opts->timeout)
        return ss__fail(SS_ERR_INVALID, "context: timeout %g s is out of range", opts->timeout);
    size_t mem;
    ss_status st = resolve_memory(opts, &mem);
    if (st)
        return st;

    ss_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return ss__fail(SS_ERR_NOMEM, "context: out of host memory");
    pthread_mutex_init(&ctx->lock, NULL);
    pthread_mutex_init(&ctx->store_lock, NULL);
    pthread_cond_init(&ctx->start_cv, NULL);
    pthread_cond_init(&ctx->done_cv, NULL);
    ctx->ndevices = n;
    ctx->hosts = hosts;
    ctx->cores = online_cores();
    ctx->threads = opts->threads ? opts->threads : ctx->cores;
    if (ctx->threads > n)
        ctx->threads = n;
    ctx->oversubscribed = ctx->threads > ctx->cores;
    ctx->device_memory = mem;
    const char *storage = getenv("SHARDSIM_STORAGE");
    ctx->store = !(storage && strcmp(storage, "copies") == 0);
    ctx->timeout = opts->timeout > 0 ? opts->timeout : SS_DEFAULT_TIMEOUT;
    ctx->devices = aligned_alloc(64, sizeof(ss_device) * (size_t)n);
    if (!ctx->devices) {
        ss_context_destroy(ctx);
        return ss__fail(SS_ERR_NOMEM, "context: out of host memory");
    }
    memset(ctx->devices, 0, sizeof(ss_device) * (size_t)n);
    for (int i = 0; i < n; i++) {
        ss_device *d = &ctx->devices[i];
        d->ctx = ctx;
        d->id = i;
        d->host = i / (n / hosts);
        pthread_mutex_init(&d->report_lock, NULL);
        pthread_mutex_init(&d->trace_lock, NULL);
        d->members = calloc((size_t)n, sizeof(int));
        if (!d->members) {
            ss_context_destroy(ctx);
            return ss__fail(SS_ERR_NOMEM, "context: out of host memory");
        }
    }
    for (int i = 0; i < n; i++) {
        st = ss__arena_init(&ctx->devices[i].arena, i, mem);
        if (!st)
            st = ss__arena_init(&ctx->devices[i].host_arena, i,
                                opts->host_memory ? opts->host_memory / (size_t)(n / hosts)
                                                  : mem);
        if (st) {
            char msg[1024];
            snprintf(msg, sizeof msg, "%s", ss_error_message());
            ss_context_destroy(ctx);
            return ss__fail(st, "%s", msg);
        }
    }
    st = ss__workers_start(ctx);
    if (st) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", ss_error_message());
        ss_context_destroy(ctx);
        return ss__fail(st, "%s", msg);
    }
    *out = ctx;
    return SS_OK;
}

int ss_context_device_count(const ss_context *ctx)
{
    return ctx->ndevices;
}

int ss_context_thread_count(const ss_context *ctx)
{
    return ctx->threads;
}

size_t ss_context_device_memory(const ss_context *ctx)
{
    return ctx->device_memory;
}

int ss_context_process_count(const ss_context *ctx)
{
    return ctx->hosts;
}

int ss_context_process_index(const ss_context *ctx, int device)
{
    if (device < 0 || device >= ctx->ndevices)
        return -1;
    return ctx->devices[device].host;
}

ss_status ss_context_addressable_devices(const ss_context *ctx, int host, int ids[], int cap,
                                         int *n)
{
    int per = ctx->ndevices / ctx->hosts;
    if (host < 0 || host >= ctx->hosts)
        return ss__fail(SS_ERR_RANGE, "host %d is outside 0..%d", host, ctx->hosts - 1);
    *n = per;
    if (cap < per)
        return ss__fail(SS_ERR_RANGE, "room for %d device ids, host %d has %d", cap, host, per);
    for (int i = 0; i < per; i++)
        ids[i] = host * per + i;
    return SS_OK;
}

ss_status ss_context_set_timeout(ss_context *ctx, double seconds)
{
    if (!(seconds > 0 && seconds <= 1e6))
        return ss__fail(SS_ERR_INVALID, "timeout %g s is out of range (0, 1e6]", seconds);
    ctx->timeout = seconds;
    return SS_OK;
}

int ss_device_id(const ss_device *dev)
{
    return dev->id;
}

ss_context *ss_device_context(const ss_device *dev)
{
    return dev->ctx;
}

ss_status ss_context_run(ss_context *ctx, ss_device_fn fn, void *user)
{
    if (!fn)
        return ss__fail(SS_ERR_INVALID, "run: no device function");
    if (ss__workers_own_thread(ctx))
        return ss__fail(SS_ERR_INVALID,
                        "run: called from a device's own function (runs do not nest)");
    pthread_mutex_lock(&ctx->lock);
    if (ctx->running) {
        pthread_mutex_unlock(&ctx->lock);
        return ss__fail(SS_ERR_INVALID, "run: the context is already running a function");
    }
    ctx->running = true;
    atomic_store(&ctx->abort, 0);
    for (int i = 0; i < ctx->ndevices; i++) {
        ss_device *d = &ctx->devices[i];
        atomic_store(&d->arrived, 0);
        atomic_store(&d->departed, 0);
        atomic_store(&d->shared, 0);
        atomic_store(&d->copied, 0);
        d->share_seq = 0;
        atomic_store(&d->in_coll, 0);
        atomic_store(&d->state, SS__DEV_RUNNING);
        atomic_store(&d->fstate, SS__FIBER_READY);
    }
    atomic_store(&ctx->live, ctx->ndevices);
    ctx->fn = fn;
    ctx->user = user;
    ctx->pending = ctx->threads;
    ctx->job_gen++;
    pthread_cond_broadcast(&ctx->start_cv);
    while (ctx->pending > 0)
        pthread_cond_wait(&ctx->done_cv, &ctx->lock);
    ctx->running = false;
    for (int i = 0; i < ctx->ndevices; i++)
        atomic_store(&ctx->devices[i].state, SS__DEV_IDLE);
    pthread_mutex_unlock(&ctx->lock);

    /* The root cause: own errors over own reports over consequences. */
    const ss_device *worst = NULL;
    for (int i = 0; i < ctx->ndevices; i++) {
        const ss_device *d = &ctx->devices[i];
        if (d->severity > 0 && (!worst || d->severity > worst->severity))
            worst = d;
    }
    if (!worst)
        return SS_OK;
    return ss__fail(worst->status, "%s", worst->message);
}

/* --- Memory and faults --------------------------------------------------- */

static ss_status check_device(const ss_context *ctx, int device)
{
    if (!ctx)
        return ss__fail(SS_ERR_INVALID, "no context");
    if (device < 0 || device >= ctx->ndevices)
        return ss__fail(SS_ERR_RANGE, "device %d is outside 0..%d", device, ctx->ndevices - 1);
    return SS_OK;
}

static void trace_memory(ss_device *d, const char *what, size_t bytes)
{
    ss_memory_stats s;
    ss__arena_stats(&d->arena, &s);
    double t = ss__now();
    ss__trace(d, 'i', "memory", what, t, t, "bytes", (double)bytes, "live", (double)s.live_bytes);
    ss__trace(d, 'C', "memory", "live bytes", t, t, "live", (double)s.live_bytes, NULL, 0);
}

ss_status ss__device_alloc_named(ss_context *ctx, int device, size_t bytes, const char *what,
                                 void **out)
{
    *out = NULL;
    ss_status st = check_device(ctx, device);
    if (st)
        return st;
    ss_device *d = &ctx->devices[device];
    st = ss__arena_alloc(&d->arena, bytes, what, out);
    if (atomic_load_explicit(&ctx->tracing, memory_order_relaxed))
        trace_memory(d, st == SS_OK ? what : "allocation failed", bytes);
    return st;
}

ss_status ss__device_host_alloc_named(ss_context *ctx, int device, size_t bytes, const char *what,
                                      void **out)
{
    *out = NULL;
    ss_status st = check_device(ctx, device);
    if (st)
        return st;
    ss_device *d = &ctx->devices[device];
    st = ss__arena_alloc(&d->host_arena, bytes, what, out);
    if (st)
        return ss__fail(st, "host memory of device %d (host %d): %s", device, d->host,
                        ss_error_message());
    return st;
}

ss_status ss_device_alloc(ss_context *ctx, int device, size_t bytes, const char *name,
                          void **out)
{
    return ss__device_alloc_named(ctx, device, bytes, name ? name : "buffer", out);
}

ss_status ss_device_free(ss_context *ctx, int device, void *ptr)
{
    ss_status st = check_device(ctx, device);
    if (st || !ptr)
        return st;
    ss__arena *ha = &ctx->devices[device].host_arena;
    if ((const char *)ptr >= ha->base && (const char *)ptr < ha->base + ha->capacity)
        return ss__arena_release(ha, ptr);
    ss__arena *a = &ctx->devices[device].arena;
    void *own = (char *)ptr < a->base || (char *)ptr >= a->base + a->capacity
                    ? ss__device_unview(ctx, device, ptr) : NULL;
    st = ss__arena_release(a, own ? own : ptr);
    if (own)
        ss__stored_unref(ptr);
    if (st == SS_OK && atomic_load_explicit(&ctx->tracing, memory_order_relaxed))
        trace_memory(&ctx->devices[device], "free", 0);
    return st;
}

/* The statistics of one device's device arena or its share of its host's. */
static ss_status device_arena_stats(ss_context *ctx, int device, bool host, ss_memory_stats *out)
{
    ss_status st = check_device(ctx, device);
    if (st)
        return st;
    ss__arena_stats(host ? &ctx->devices[device].host_arena : &ctx->devices[device].arena, out);
    return SS_OK;
}

ss_status ss_device_memory_stats(ss_context *ctx, int device, ss_memory_stats *out)
{
    return device_arena_stats(ctx, device, false, out);
}

ss_status ss_device_host_memory_stats(ss_context *ctx, int device, ss_memory_stats *out)
{
    return device_arena_stats(ctx, device, true, out);
}

ss_status ss_host_memory_stats(ss_context *ctx, int host, ss_memory_stats *out)
{
    if (!ctx || !out)
        return ss__fail(SS_ERR_INVALID, "host memory: no context or stats to fill");
    if (host < 0 || host >= ctx->hosts)
        return ss__fail(SS_ERR_RANGE, "host %d is outside 0..%d", host, ctx->hosts - 1);
    memset(out, 0, sizeof *out);
    for (int i = 0; i < ctx->ndevices; i++) {
        if (ctx->devices[i].host != host)
            continue;
        ss_memory_stats s;
        ss__arena_stats(&ctx->devices[i].host_arena, &s);
        out->capacity += s.capacity;
        out->live_bytes += s.live_bytes;
        out->peak_bytes += s.peak_bytes;
        out->alloc_count += s.alloc_count;
        out->live_count += s.live_count;
        if (s.largest_free > out->largest_free)
            out->largest_free = s.largest_free;
    }
    return SS_OK;
}

ss_status ss_device_largest_buffers(ss_context *ctx, int device, ss_buffer_info out[], int cap,
                                    int *n)
{
    ss_status st = check_device(ctx, device);
    if (st)
        return st;
    *n = ss__arena_largest(&ctx->devices[device].arena, out, cap);
    return SS_OK;
}

ss_status ss_context_inject(ss_context *ctx, const ss_fault *f)
{
    ss_status st = check_device(ctx, f ? f->device : -1);
    if (st)
        return st;
    if (f->nth < 0)
        return ss__fail(SS_ERR_INVALID, "fault: nth %lld must be >= 0", (long long)f->nth);
    ss_device *d = &ctx->devices[f->device];
    switch (f->kind) {
    case SS_FAULT_ALLOC:
        if (f->nth < 1)
            return ss__fail(SS_ERR_INVALID, "fault: allocation number must be >= 1");
        ss__arena_fail_at(&d->arena, f->nth);
        return SS_OK;
    case SS_FAULT_DELAY:
        if (!(f->seconds >= 0 && f->seconds <= 1e4))
            return ss__fail(SS_ERR_INVALID, "fault: delay %g s is out of range", f->seconds);
        d->delay_nth = f->nth;
        d->delay_seconds = f->seconds;
        return SS_OK;
    case SS_FAULT_SKIP:
        if (f->nth < 1)
            return ss__fail(SS_ERR_INVALID, "fault: collective number must be >= 1");
        d->skip_nth = f->nth;
        return SS_OK;
    }
    return ss__fail(SS_ERR_INVALID, "fault: unknown kind %d", (int)f->kind);
}

void ss_context_clear_faults(ss_context *ctx)
{
    for (int i = 0; i < ctx->ndevices; i++) {
        ss_device *d = &ctx->devices[i];
        ss__arena_fail_at(&d->arena, 0);
        d->delay_nth = 0;
        d->delay_seconds = 0;
        d->skip_nth = 0;
    }
}

/* --- Ledger -------------------------------------------------------------- */

void ss__ledger_add(ss_context *ctx, const ss_coll_record *r)
{
    pthread_mutex_lock(&ctx->lock);
    ss__ledger *l = &ctx->ledger;
    if (l->count == l->cap) {
        int cap = l->cap ? l->cap * 2 : 64;
        ss_coll_record *p = realloc(l->items, sizeof *p * (size_t)cap);
        if (!p) {
            pthread_mutex_unlock(&ctx->lock);
            return; /* the ledger is a report; losing an entry beats failing the run */
        }
        l->items = p;
        l->cap = cap;
    }
    l->items[l->count++] = *r;
    pthread_mutex_unlock(&ctx->lock);
}

int ss_context_ledger_count(ss_context *ctx)
{
    pthread_mutex_lock(&ctx->lock);
    int n = ctx->ledger.count;
    pthread_mutex_unlock(&ctx->lock);
    return n;
}

ss_status ss_context_ledger_get(ss_context *ctx, int i, ss_coll_record *out)
{
    pthread_mutex_lock(&ctx->lock);
    if (i < 0 || i >= ctx->ledger.count) {
        int n = ctx->ledger.count;
        pthread_mutex_unlock(&ctx->lock);
        return ss__fail(SS_ERR_RANGE, "ledger entry %d is outside 0..%d", i, n - 1);
    }
    *out = ctx->ledger.items[i];
    pthread_mutex_unlock(&ctx->lock);
    return SS_OK;
}

void ss_context_ledger_clear(ss_context *ctx)
{
    pthread_mutex_lock(&ctx->lock);
    ctx->ledger.count = 0;
    pthread_mutex_unlock(&ctx->lock);
}
