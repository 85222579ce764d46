/*
 * share.c — one device's result copied by its replicas (ss__device_share):
 * the executor computes an instruction whose inputs are identical on a
 * group of devices on the group's first device only (sim/spmd/replicas.h),
 * and the others take a copy here.
 *
 * With shared storage on (store.c, the default), the leader computed into
 * a stored block and a follower takes a view of it instead of a copy: its
 * own buffer becomes the charge of that view (no bytes move).
 *
 * Protocol for share number s (every device of a run makes the same
 * sequence of shares, so s names the same instruction on all of them):
 *   leader:   publish share_buf, release `shared` = s, then wait until every
 *             follower's `copied` >= s: its buffer stays unchanged while it
 *             is read;
 *   follower: wait until the leader's `shared` >= s (it cannot be beyond s:
 *             the leader waits for this follower before its next share),
 *             copy, release `copied` = s.
 * Waiting is the collectives' (the fiber parks in bounded slices), and
 * gives up when the peer finished or failed or the run was stopped.
 *
 * Deliberately not a collective: no ledger entry, no collective number, no
 * fault-injection count, nothing a report shows.
 */
#include "device_internal.h"

#include <string.h>

static ss_status wait_word(ss_device *dev, ss_device *peer, _Atomic uint32_t *word, uint32_t want)
{
    ss_context *ctx = dev->ctx;
    if (atomic_load_explicit(word, memory_order_acquire) >= want)
        return SS_OK;
    ss_status st = SS_OK;
    double t0 = ss__now();
    for (;;) {
        if (ss__wait(dev, word, want, 0.02))
            break;
        int ps = atomic_load(&peer->state);
        if (ps == SS__DEV_FAILED || atomic_load(&ctx->abort)) {
            st = ss__fail(SS_ERR_DEADLOCK, "~device %d: replica share #%u abandoned: the run "
                                           "was stopped by another device's failure",
                          dev->id, want);
            break;
        }
        if (ps == SS__DEV_DONE || ss__now() - t0 > ctx->timeout) {
            atomic_store(&ctx->abort, 1);
            st = ss__fail(SS_ERR_DEADLOCK, "deadlock: device %d waited in replica share #%u "
                                           "for device %d, which %s",
                          dev->id, want, peer->id,
                          ps == SS__DEV_DONE ? "finished its function without arriving"
                                             : "did not arrive in time");
            break;
        }
    }
    return st;
}

ss_status ss__device_share(ss_device *dev, const int *members, int n, void **buf, size_t bytes)
{
    ss_context *ctx = dev->ctx;
    uint32_t s = ++dev->share_seq;
    ss_status st = SS_OK;
    double start = ss__now();
    if (members[0] == dev->id) {
        atomic_store_explicit(&dev->share_buf, *buf, memory_order_relaxed);
        atomic_store_explicit(&dev->shared, s, memory_order_release);
        ss__workers_kick(dev->ctx);
        for (int k = 1; k < n && !st; k++) {
            ss_device *p = &ctx->devices[members[k]];
            st = wait_word(dev, p, &p->copied, s);
        }
    } else {
        ss_device *leader = &ctx->devices[members[0]];
        st = wait_word(dev, leader, &leader->shared, s);
        if (!st) {
            void *src = (void *)(uintptr_t)atomic_load_explicit(&leader->share_buf,
                                                                 memory_order_relaxed);
            if (ctx->store) /* a view of the leader's stored block */
                st = ss__device_view_over(ctx, dev->id, *buf, src);
            else
                memcpy(*buf, src, bytes);
            if (!st)
                *buf = ctx->store ? src : *buf;
            /* Released even on failure: the leader must not wait for us. */
            atomic_store_explicit(&dev->copied, s, memory_order_release);
            ss__workers_kick(dev->ctx);
        }
    }
    if (!st && atomic_load_explicit(&ctx->tracing, memory_order_relaxed))
        ss__trace(dev, 'X', "share", members[0] == dev->id ? "share (leader)" : ctx->store ? "share (view)" : "share (copy)",
                  start, ss__now(), "group_size", n, "bytes", (double)bytes);
    return st;
}
