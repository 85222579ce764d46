/*
 * device_internal.h — the context, its devices (fibers run by a pool of
 * worker threads: workers.c) and the waiting primitives shared by
 * context.c, collectives.c, share.c and array.c.
 *
 * Lock order: ctx->lock (run start/stop, ledger) before a device's
 * report_lock before an arena's lock. Waiting never holds a lock.
 */
#ifndef SS_DEVICE_INTERNAL_H
#define SS_DEVICE_INTERNAL_H

#include "arena.h"
#include "fiber.h"

#include <stdatomic.h>

enum {
    SS__DEV_IDLE = 0, /* no run in progress */
    SS__DEV_RUNNING,  /* in the device function, outside collectives */
    SS__DEV_WAITING,  /* inside a collective (op describes it) */
    SS__DEV_DELAYED,  /* sleeping for an injected delay */
    SS__DEV_DONE,     /* the function returned SS_OK */
    SS__DEV_FAILED    /* the function returned an error */
};

/* What a device publishes when it enters a collective. Written by the owner
 * (under report_lock) before `arrived` is released; read by group peers
 * after acquiring `arrived`, and by deadlock reports under report_lock. */
typedef struct ss__op {
    ss_coll coll;          /* copy of the caller's descriptor (borrowed pointers inside) */
    _Atomic uint64_t sig;  /* hash of everything peers must agree on, seq included; atomic
                              because a mismatched peer may rewrite its op while we look */
    uint32_t seq;          /* collective number within the run, from 1 */
    int gsize, grank;      /* group size and this device's rank */
    const int *members;    /* device ids in rank order (the owner's array) */
    const void *in;
    void *out;
    ss_dtype out_dtype;
    int out_rank;
    int64_t out_shape[SS_MAX_RANK];
} ss__op;

struct ss_device {
    /* Polled by peers: each word on its own cache line. */
    _Alignas(64) _Atomic uint32_t arrived; /* seq of the published op */
    _Alignas(64) _Atomic uint32_t departed; /* seq of the last op whose reads are done */
    /* Replica shares (share.c): `shared` = the number of the last share
     * this device published as its group's leader (share_buf its buffer),
     * `copied` = the last one it copied as a follower; share_seq counts
     * its shares in the run (owner only). */
    _Alignas(64) _Atomic uint32_t shared;
    _Alignas(64) _Atomic uint32_t copied;
    const void *_Atomic share_buf;
    uint32_t share_seq;
    _Atomic int state;
    _Atomic uint32_t seq_done; /* collectives completed in this run */
    _Atomic int in_coll;       /* published an op that has not completed (reports
                                  keep showing it after a failure) */
    _Alignas(64) ss__op op;
    pthread_mutex_t report_lock;

    ss_context *ctx;
    int id;
    int host;
    int *members; /* scratch: this device's group, ctx->ndevices entries */

    /* The device's fiber (workers.c). fstate is one of SS__FIBER_*; a
     * parked fiber waits until *wait_word >= wait_want (never, when
     * wait_word is NULL) or the clock passes wait_until. The wait fields
     * are written by the fiber before it parks and read by whichever
     * worker finds it PARKED (acquire). `worker` is the one running it. */
    ss__fiber fiber;
    _Alignas(64) _Atomic int fstate;
    _Atomic uint32_t *_Atomic wait_word; /* the wait fields: relaxed, read by any */
    _Atomic uint32_t wait_want;          /* worker; a stale read only makes a */
    _Atomic double wait_until;           /* spurious wake-up, which ss__wait allows */
    bool run_over;    /* set by the fiber when its run_job returned */
    bool ever_run;    /* the fiber has been started (it must exit at the end) */
    struct ss__worker *worker;
    char live_message[1024]; /* the fiber's error message (ss__message_redirect) */
    ss__arena arena;
    /* This device's partition of its host's arena (host memory kinds:
     * ss_memory_kind): a separate range, so a buffer's address says which
     * memory it is in. */
    ss__arena host_arena;

    /* Result of the device function (written by the device's fiber; read by
     * the caller of ss_context_run after the run's completion handshake). */
    ss_status status;
    int severity; /* 0 ok, 1 follows from another failure, 2 own report, 3 own error */
    char message[1024];

    /* Fault injection (set between runs). */
    int64_t delay_nth, skip_nth;
    double delay_seconds;
    int64_t calls; /* collective calls in this run, skipped ones included */
    bool in_kernel; /* inside ss_device_kernel_begin/end */
    bool kernel_traced; /* ... and tracing was on at its begin */
    double kernel_start;
    char kernel_name[64];

    /* Trace events (trace.c), guarded by trace_lock. */
    pthread_mutex_t trace_lock;
    struct ss__trace_event *events;
    int nevents, cap_events;
};

typedef struct ss__trace_event ss__trace_event;

typedef struct ss__ledger {
    ss_coll_record *items;
    int count, cap;
} ss__ledger;

struct ss_context {
    int ndevices;
    int hosts;
    int threads; /* worker threads */
    int cores;
    bool oversubscribed; /* more workers than cores: idle workers do not spin */
    size_t device_memory;
    double timeout;
    bool store; /* identical replicas stored once (store.c); off: SHARDSIM_STORAGE=copies */
    pthread_mutex_t store_lock; /* guards store_free */
    void *store_free;           /* stored blocks free for reuse (store.c) */
    ss_device *devices;

    struct ss__worker *workers;
    _Alignas(64) _Atomic uint32_t epoch; /* bumped to wake idle workers */
    _Atomic int idle;                    /* workers asleep on epoch */
    _Alignas(64) _Atomic int live;       /* devices whose run_job has not returned */
    _Alignas(64) _Atomic int abort; /* a device failed: waits give up */

    pthread_mutex_t lock;
    pthread_cond_t start_cv, done_cv;
    uint64_t job_gen;
    int pending;
    bool stopping, running;
    ss_device_fn fn;
    void *user;

    ss__ledger ledger; /* guarded by lock */
    _Atomic int tracing;
    double trace_t0;
};

/* Monotonic seconds. */
double ss__now(void);

enum {
    SS__FIBER_IDLE = 0, /* not in a run, or its run_job returned */
    SS__FIBER_READY,    /* to be started by a worker */
    SS__FIBER_RUNNING,  /* a worker runs it */
    SS__FIBER_PARKED    /* switched away, waiting (wait_word, wait_until) */
};

/* The worker pool (workers.c): start ctx->threads workers, each running
 * claimed device fibers until a run's devices are done; stop them and end
 * every fiber. */
ss_status ss__workers_start(ss_context *ctx);
void ss__workers_stop(ss_context *ctx);
/* Is the calling thread one of ctx's workers? */
bool ss__workers_own_thread(const ss_context *ctx);
/* The body of a device's run (context.c): the device function and its
 * result. */
void ss__device_run_job(ss_device *d);

/* Replicas of one computation (share.c): members[0] of a group of n
 * devices (dev among them) computed *buf (bytes); the others copy it into
 * their own *buf, or, with shared storage on (ss__store_enabled: the
 * leader's *buf is then a stored block, ss__device_share_new), make their
 * *buf a view of it (*buf then points to the leader's block). Every device of the run makes the same sequence of
 * shares (the executor's static groups). The leader returns once every
 * follower has copied, so it may then change or free its buffer. Not a
 * collective: no ledger entry, collective number or fault-injection count.
 * SS_ERR_DEADLOCK when a peer failed or the run was stopped. */
ss_status ss__device_share(ss_device *dev, const int *members, int n, void **buf,
                           size_t bytes);

/* --- Identical replicas stored once (store.c) ---------------------------
 * A *view* is a device's buffer whose bytes live in a stored block shared
 * with other devices, while the device's arena holds a block of the same
 * size (its charge, never touched). ss_device_free of a view releases that
 * block and the view's reference. Stored blocks are read-only once shared. */

/* Is shared storage on for this context (not SHARDSIM_STORAGE=copies)? */
bool ss__store_enabled(const ss_context *ctx);
/* A new stored block of `bytes` (64-byte aligned) for ctx's devices,
 * holding one reference (the caller's). SS_ERR_NOMEM. */
ss_status ss__stored_new(ss_context *ctx, size_t bytes, void **data);
/* Unmap the context's free stored blocks (at its destruction, when every
 * array is gone). */
void ss__store_free_all(ss_context *ctx);
void ss__stored_ref(const void *data);
/* Drop one reference; the last one gives the block back to its context's
 * free list. NULL is a no-op. */
void ss__stored_unref(const void *data);
/* Charge device's arena for `bytes` (named `what`: the same allocation,
 * failures and reports as ss__device_alloc_named) and make it a view of
 * stored `data` (one more reference): *out = data. */
ss_status ss__device_alloc_view(ss_context *ctx, int device, size_t bytes, const char *what,
                                void *data, void **out);
/* Live block `own` of the device becomes the charge of a view of `data`
 * (one more reference). SS_ERR_NOMEM. */
ss_status ss__device_view_over(ss_context *ctx, int device, void *own, void *data);
/* The device's own block *p (bytes long) becomes the charge of a view of a
 * new stored block, which *p then points to (its one reference is the
 * view's): the writer of a result its replicas will share. */
ss_status ss__device_share_new(ss_context *ctx, int device, void **p, size_t bytes);
/* Forget the device's view of `data` and return the block charged for it
 * (live, contents undefined); the caller drops the view's reference
 * (ss__stored_unref) once nothing reads `data` any more. NULL when `data`
 * is not a view of this device. */
void *ss__device_unview(ss_context *ctx, int device, const void *data);
/* Is p a view of the device? */
bool ss__device_is_view(ss_context *ctx, int device, const void *p);

/* After a word some fiber may wait on changed (a device's arrived,
 * departed, shared, copied or state, the run's abort): wake the idle
 * workers, if any, to look (one fence and a load when none is idle). */
void ss__workers_kick(ss_context *ctx);

/* Wait, in the calling device's fiber `self`, until *word >= want or
 * `seconds` passed: the fiber parks and its worker runs other devices.
 * True once *word >= want. Callers loop in bounded slices, checking their
 * peers' state and the run's abort between them. */
bool ss__wait(ss_device *self, _Atomic uint32_t *word, uint32_t want, double seconds);
/* Park the calling device's fiber for `seconds` (an injected delay),
 * waking early when the run is stopped. */
void ss__device_sleep(ss_device *self, double seconds);

/* Describe what device `d` is doing, for reports ("waiting in all_reduce #3
 * sum f32[16] over ('x',)"). Takes d's report_lock. */
void ss__device_describe(ss_device *d, char *out, size_t cap);
/* Append "device 0-2,5: <what>; device 3: <what>" for `n` devices given by
 * ids (all devices if ids is NULL), grouping identical descriptions. */
void ss__describe_devices(ss_context *ctx, const int *ids, int n, ss__buf *b);

/* Record a trace event on device d's track (no-op unless tracing): ph 'X'
 * (slice start..end), 'i' (instant at start) or 'C' (counter k0 = v0).
 * Argument keys must be string literals. */
void ss__trace(ss_device *d, char ph, const char *cat, const char *name, double start,
               double end, const char *k0, double v0, const char *k1, double v1);

/* Append a ledger entry (takes ctx->lock). */
void ss__ledger_add(ss_context *ctx, const ss_coll_record *r);
/* An array over shards the caller already allocated in the context's
 * arenas (data[p] for mesh position p, of the shard's size); the array
 * owns them from now on. */
ss_status ss__array_adopt(ss_context *ctx, const ss_sharding *sh, int rank,
                          const int64_t shape[], ss_dtype dtype, void *const data[],
                          ss_array **out);
/* The shard buffer at mesh position pos (NULL past the end). */
void *ss__array_shard_data(const ss_array *a, int pos);
/* Forget the shard buffers (someone else frees them): a donated array. */
void ss__array_disown(ss_array *a);
ss_context *ss__array_context(const ss_array *a);

/* The ledger entry collective `c` will produce, without running it: kind,
 * op, axes, group size and count, dtype, S and ring bytes (seq, seconds and
 * bandwidths zero). The plan and the run share it, so they agree. Errors:
 * those of ss_coll_output. */
ss_status ss__coll_record_plan(const ss_coll *c, ss_coll_record *rec);

/* Every replica group of `c` over its mesh: the group of each mesh
 * position not yet listed, in position order, its members' device ids in
 * rank order (ss_coll_group's); ids[g * *gsize + r], *ngroups groups.
 * Errors: those of ss_coll_group, SS_ERR_RANGE when cap ids do not hold
 * them (those that fit are written). */
ss_status ss__coll_groups(const ss_coll *c, int ids[], int cap, int *ngroups, int *gsize);

/* Internal allocation with a full description for reports. */
ss_status ss__device_alloc_named(ss_context *ctx, int device, size_t bytes, const char *what,
                                 void **out);

/* A buffer in the device's partition of its host's arena (a value in a
 * host memory kind); ss_device_free returns it there. Errors as
 * ss__device_alloc_named's, SS_ERR_DEVICE_OOM naming host memory. */
ss_status ss__device_host_alloc_named(ss_context *ctx, int device, size_t bytes, const char *what,
                                      void **out);

/* "sum f32[16] over ('x', 'y')"-style description of a collective. */
void ss__coll_describe(const ss_coll *c, char *out, size_t cap);
/* "('x', 'y')" */
void ss__coll_axes_text(const ss_coll *c, char *out, size_t cap);

#endif
