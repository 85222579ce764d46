/*
 * collectives.c — collectives between devices: rendezvous, data
 * movement by reading peers' buffers in place, mismatch and hang detection,
 * and the ledger entry.
 *
 * Protocol for a device entering its collective number s (per run, from 1):
 *   1. publish: write its op (descriptor copy, buffers, group) and release
 *      `arrived` = s;
 *   2. arrive: wait until every group peer has arrived >= s and check that
 *      each published the same signature (kind, shape, dtype, group, s);
 *   3. work: compute its own share, reading peers' inputs in place
 *      (all_reduce: reduce chunk `rank` over all inputs in rank order,
 *      starting from the identity, and write it to every output, as XLA's
 *      in-process communicator does; others: pull into its own output);
 *   4. depart: release `departed` = s and wait until every peer departed,
 *      so no input is freed while someone still reads it.
 * A device that passed step 2 always reaches step 4 (work cannot fail), so
 * only step 2 may give up: on the timeout, on a peer that finished or
 * failed, or when another failure stopped the run.
 *
 * Waiting: the device's fiber parks (ss__wait) in bounded slices, and its
 * worker runs other devices meanwhile.
 * Messages that only follow from another device's failure start with '~'
 * so ss_context_run can report the root cause instead.
 */
#include "coll_internal.h"

#include <math.h>
#include <stdlib.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

/* The element loops are the hot path of large reductions; -O2 in GCC 12
 * does not vectorize them (its very-cheap cost model), so ask for it. */
#if defined(__GNUC__) && !defined(__clang__)
#define SS__VECTORIZE __attribute__((optimize("O3")))
#else
#define SS__VECTORIZE
#endif

enum { TILE = 2048 };
static const double SLICE = 0.02; /* seconds per futex sleep between checks */

/* --- Element kernels ------------------------------------------------------ */

SS__VECTORIZE static void fill_identity(ss_dtype dt, ss_reduce_op op, void *acc, size_t n)
{
    bool mx = op == SS_REDUCE_MAX, mn = op == SS_REDUCE_MIN;
#define FILL(T, LO, HI)                                                                            \
    do {                                                                                           \
        T *a = acc;                                                                                \
        T v = mx ? (LO) : mn ? (HI) : (T)0;                                                        \
        for (size_t i = 0; i < n; i++)                                                             \
            a[i] = v;                                                                              \
    } while (0)
    switch (dt) {
    case SS_F32: FILL(float, -INFINITY, INFINITY); break;
    case SS_F64: FILL(double, -INFINITY, INFINITY); break;
    case SS_I32: FILL(int32_t, INT32_MIN, INT32_MAX); break;
    case SS_I64: FILL(int64_t, INT64_MIN, INT64_MAX); break;
    case SS_I8: FILL(int8_t, INT8_MIN, INT8_MAX); break;
    case SS_U8: FILL(uint8_t, 0, UINT8_MAX); break;
    case SS_I16: FILL(int16_t, INT16_MIN, INT16_MAX); break;
    case SS_U16: FILL(uint16_t, 0, UINT16_MAX); break;
    case SS_U32: FILL(uint32_t, 0, UINT32_MAX); break;
    case SS_U64: FILL(uint64_t, 0, UINT64_MAX); break;
    case SS_BF16: FILL(uint16_t, 0xff80u, 0x7f80u); break;
    case SS_F16: FILL(uint16_t, 0xfc00u, 0x7c00u); break;
    default: break;
    }
#undef FILL
}

/* acc[i] = op(acc[i], x[i]): std::max/std::min argument order, but a float
 * max or min with a NaN is NaN (XLA's maximum and minimum; b != b is false
 * for integers), integer sums wrap, 16-bit floats round after every step. */
SS__VECTORIZE static void combine(ss_dtype dt, ss_reduce_op op, void *restrict acc, const void *restrict x,
                    size_t n)
{
#define LOOP(T, ADD)                                                                               \
    do {                                                                                           \
        T *restrict a = acc;                                                                       \
        const T *restrict b = x;                                                                   \
        if (op == SS_REDUCE_MAX)                                                                   \
            for (size_t i = 0; i < n; i++)                                                         \
                a[i] = a[i] < b[i] || b[i] != b[i] ? b[i] : a[i];                                  \
        else if (op == SS_REDUCE_MIN)                                                              \
            for (size_t i = 0; i < n; i++)                                                         \
                a[i] = b[i] < a[i] || b[i] != b[i] ? b[i] : a[i];                                  \
        else                                                                                       \
            for (size_t i = 0; i < n; i++)                                                         \
                a[i] = ADD;                                                                        \
    } while (0)
#define LOOP16(TO32, TO16)                                                                         \
    do {                                                                                           \
        uint16_t *a = acc;                                                                         \
        const uint16_t *b = x;                                                                     \
        for (size_t i = 0; i < n; i++) {                                                           \
            float p = TO32(a[i]), q = TO32(b[i]);                                                  \
            if (op == SS_REDUCE_MAX)                                                               \
                a[i] = p < q || q != q ? b[i] : a[i];                                              \
            else if (op == SS_REDUCE_MIN)                                                          \
                a[i] = q < p || q != q ? b[i] : a[i];                                              \
            else                                                                                   \
                a[i] = TO16(p + q);                                                                \
        }                                                                                          \
    } while (0)
    switch (dt) {
    case SS_F32: LOOP(float, a[i] + b[i]); break;
    case SS_F64: LOOP(double, a[i] + b[i]); break;
    case SS_I32: LOOP(int32_t, (int32_t)((uint32_t)a[i] + (uint32_t)b[i])); break;
    case SS_I64: LOOP(int64_t, (int64_t)((uint64_t)a[i] + (uint64_t)b[i])); break;
    case SS_I8: LOOP(int8_t, (int8_t)(uint8_t)((unsigned)(uint8_t)a[i] + (uint8_t)b[i])); break;
    case SS_U8: LOOP(uint8_t, (uint8_t)(a[i] + b[i])); break;
    case SS_I16: LOOP(int16_t, (int16_t)(uint16_t)((unsigned)(uint16_t)a[i] + (uint16_t)b[i])); break;
    case SS_U16: LOOP(uint16_t, (uint16_t)(a[i] + b[i])); break;
    case SS_U32: LOOP(uint32_t, a[i] + b[i]); break;
    case SS_U64: LOOP(uint64_t, a[i] + b[i]); break;
    case SS_BF16: LOOP16(ss__bf16_to_f32, ss__f32_to_bf16); break;
#ifdef SS__HAVE_F16
    case SS_F16: LOOP16(ss__f16_to_f32, ss__f32_to_f16); break;
#endif
    default: break;
    }
#undef LOOP
#undef LOOP16
}

/* Mean: divide the sums by G into `out` (dtype `odt`: the input's float
 * type, or f32 for integer sums). */
SS__VECTORIZE static void finish_mean(ss_dtype dt, const void *acc, void *out, size_t n, int G)
{
    switch (dt) {
    case SS_F32: {
        const float *a = acc;
        float *o = out;
        for (size_t i = 0; i < n; i++)
            o[i] = a[i] / (float)G;
        break;
    }
    case SS_F64: {
        const double *a = acc;
        double *o = out;
        for (size_t i = 0; i < n; i++)
            o[i] = a[i] / (double)G;
        break;
    }
    case SS_BF16: {
        const uint16_t *a = acc;
        uint16_t *o = out;
        for (size_t i = 0; i < n; i++)
            o[i] = ss__f32_to_bf16(ss__bf16_to_f32(a[i]) / (float)G);
        break;
    }
#ifdef SS__HAVE_F16
    case SS_F16: {
        const uint16_t *a = acc;
        uint16_t *o = out;
        for (size_t i = 0; i < n; i++)
            o[i] = ss__f32_to_f16(ss__f16_to_f32(a[i]) / (float)G);
        break;
    }
#endif
    default: {
        float *o = out;
        for (size_t i = 0; i < n; i++) {
            const unsigned char *p = (const unsigned char *)acc + i * ss_dtype_size(dt);
            double v = 0;
            if (dt == SS_I32) { int32_t t; memcpy(&t, p, 4); v = t; }
            else if (dt == SS_I64) { int64_t t; memcpy(&t, p, 8); v = (double)t; }
            else if (dt == SS_I8) { v = (int8_t)*p; }
            else if (dt == SS_I16) { int16_t t; memcpy(&t, p, 2); v = t; }
            else if (dt == SS_U16) { uint16_t t; memcpy(&t, p, 2); v = t; }
            else if (dt == SS_U32) { uint32_t t; memcpy(&t, p, 4); v = t; }
            else if (dt == SS_U64) { uint64_t t; memcpy(&t, p, 8); v = (double)t; }
            else { v = *p; }
            o[i] = (float)v / (float)G;
        }
        break;
    }
    }
}

/* Outputs of at least this many bytes per device are written with
 * streaming stores: together the group's outputs overflow the cache, and
 * skipping the read-for-ownership saves a third of the memory traffic. */
static const size_t NT_BYTES = (size_t)4 << 20;

/* memcpy, with non-temporal stores when `nt` (callers fence once at the
 * end with nt_fence before publishing). */
static void copy_out(void *dst, const void *src, size_t n, bool nt)
{
#if defined(__x86_64__)
    if (nt && n >= 256) {
        unsigned char *d = dst;
        const unsigned char *s = src;
        size_t head = (16 - ((uintptr_t)d & 15)) & 15;
        memcpy(d, s, head);
        d += head;
        s += head;
        n -= head;
        for (; n >= 64; n -= 64, d += 64, s += 64) {
            __m128i a = _mm_loadu_si128((const __m128i *)(const void *)s);
            __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + 16));
            __m128i c = _mm_loadu_si128((const __m128i *)(const void *)(s + 32));
            __m128i e = _mm_loadu_si128((const __m128i *)(const void *)(s + 48));
            _mm_stream_si128((__m128i *)(void *)d, a);
            _mm_stream_si128((__m128i *)(void *)(d + 16), b);
            _mm_stream_si128((__m128i *)(void *)(d + 32), c);
            _mm_stream_si128((__m128i *)(void *)(d + 48), e);
        }
        memcpy(d, s, n);
        return;
    }
#endif
    (void)nt;
    memcpy(dst, src, n);
}

static void nt_fence(void)
{
#if defined(__x86_64__)
    _mm_sfence();
#endif
}

/* Reduce `n` elements of G sources (src[g] at the span start, rank order)
 * into each of `ndst` destinations, one L1-sized tile at a time, so that
 * `out` may alias an input. */
static void reduce_span(const ss__op *op, const unsigned char *const src[], int G,
                        unsigned char *const dst[], int ndst, size_t n, bool nt)
{
    _Alignas(64) unsigned char acc[TILE * 8], fin[TILE * 8];
    ss_dtype dt = op->coll.dtype;
    ss_reduce_op rop = op->coll.op;
    size_t es = ss_dtype_size(dt), os = ss_dtype_size(op->out_dtype);
    for (size_t done = 0; done < n; done += TILE) {
        size_t m = n - done < TILE ? n - done : TILE;
        fill_identity(dt, rop, acc, m);
        for (int g = 0; g < G; g++)
            combine(dt, rop, acc, src[g] + done * es, m);
        const unsigned char *res = acc;
        if (rop == SS_REDUCE_MEAN) {
            finish_mean(dt, acc, fin, m, G);
            res = fin;
        }
        for (int j = 0; j < ndst; j++)
            copy_out(dst[j] + done * os, res, m * os, nt);
    }
}

/* Copy `total` elements between two boxes with the same row-major element
 * order: element e sits at (e / run) * stride + e % run (+ base) on each
 * side. The shorter run divides the longer one (both are suffix products of
 * one shape), so no copied run crosses a row of either side. */
static void box_copy(unsigned char *dst, size_t drun, size_t dstride, const unsigned char *src,
                     size_t srun, size_t sstride, size_t total, size_t es, bool nt)
{
    size_t run = drun < srun ? drun : srun;
    if (run == 0)
        return;
    for (size_t e = 0; e < total; e += run)
        copy_out(dst + ((e / drun) * dstride + e % drun) * es,
                 src + ((e / srun) * sstride + e % srun) * es, run * es, nt);
}

static size_t prod(const int64_t *s, int from, int to)
{
    size_t p = 1;
    for (int d = from; d < to; d++)
        p *= (size_t)s[d];
    return p;
}

/* Step 3: this device's share of the work. */
static void do_work(ss_device *dev, const ss__op *me)
{
    ss_context *ctx = dev->ctx;
    const ss_coll *c = &me->coll;
    int G = me->gsize, r = me->grank;
    size_t es = ss_dtype_size(c->dtype);
    size_t count = ss__shape_elems(c->rank, c->shape);
    const unsigned char *src[SS_MAX_DEVICES];
    unsigned char *dst[SS_MAX_DEVICES];
    const ss__op *peer[SS_MAX_DEVICES];
    for (int g = 0; g < G; g++) {
        peer[g] = &ctx->devices[me->members[g]].op;
        src[g] = peer[g]->in;
    }
    unsigned char *out = me->out;
    bool nt = ss__shape_elems(me->out_rank, me->out_shape) * ss_dtype_size(me->out_dtype) >=
              NT_BYTES;
    switch (c->kind) {
    case SS_COLL_ALL_REDUCE: {
        size_t chunk = (count + (size_t)G - 1) / (size_t)G;
        size_t lo = chunk * (size_t)r, hi = lo + chunk < count ? lo + chunk : count;
        if (lo >= hi)
            break;
        size_t os = ss_dtype_size(me->out_dtype);
        for (int g = 0; g < G; g++) {
            src[g] += lo * es;
            dst[g] = (unsigned char *)peer[g]->out + lo * os;
        }
        reduce_span(me, src, G, dst, G, hi - lo, nt);
        break;
    }
    case SS_COLL_REDUCE_SCATTER: {
        int a = c->axis;
        size_t outer = prod(c->shape, 0, a);
        size_t blk = count / (outer ? outer : 1) / (size_t)G;
        if (outer == 0 || blk == 0)
            break;
        const unsigned char *s2[SS_MAX_DEVICES];
        for (size_t o = 0; o < outer; o++) {
            for (int g = 0; g < G; g++)
                s2[g] = src[g] + (o * (size_t)G * blk + (size_t)r * blk) * es;
            unsigned char *d = out + o * blk * es;
            reduce_span(me, s2, G, &d, 1, blk, nt);
        }
        break;
    }
    case SS_COLL_ALL_GATHER: {
        int a = c->axis < 0 ? c->axis + c->rank + (c->tiled ? 0 : 1) : c->axis;
        size_t inner = prod(c->shape, a, c->rank);
        for (int g = 0; g < G; g++)
            box_copy(out + (size_t)g * inner * es, inner, (size_t)G * inner, src[g], inner, inner,
                     count, es, nt);
        break;
    }
    case SS_COLL_ALL_TO_ALL: {
        int sp = c->split_axis, ca = c->concat_axis;
        size_t k = c->tiled ? (size_t)c->shape[sp] / (size_t)G : 1;
        size_t inner_s = prod(c->shape, sp + 1, c->rank);
        size_t srun = k * inner_s, sstride = (size_t)c->shape[sp] * inner_s;
        size_t ext = (size_t)me->out_shape[ca] / (size_t)G;
        size_t inner_c = prod(me->out_shape, ca + 1, me->out_rank);
        size_t drun = ext * inner_c, dstride = (size_t)me->out_shape[ca] * inner_c;
        for (int g = 0; g < G; g++)
            box_copy(out + (size_t)g * drun * es, drun, dstride, src[g] + (size_t)r * srun * es,
                     srun, sstride, count / (size_t)G, es, nt);
        break;
    }
    case SS_COLL_PERMUTE: {
        int from = -1;
        for (int i = 0; i < c->npairs; i++)
            if (c->pairs[i][1] == r)
                from = c->pairs[i][0];
        if (from < 0)
            memset(out, 0, count * es);
        else
            memcpy(out, src[from], count * es);
        break;
    }
    case SS_COLL_BROADCAST:
        memcpy(out, src[c->root], count * es);
        break;
    case SS_COLL_KIND_COUNT:
        break;
    }
    if (nt)
        nt_fence();
}

/* --- Signatures and reports ---------------------------------------------- */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static uint64_t signature(const ss__op *op)
{
    const ss_coll *c = &op->coll;
    uint64_t h = 1469598103934665603ull;
    int head[9] = {(int)c->kind, (int)c->op, (int)c->dtype, c->rank, c->axis, c->tiled,
                   c->split_axis, c->concat_axis, c->root};
    if (c->kind != SS_COLL_ALL_REDUCE && c->kind != SS_COLL_REDUCE_SCATTER)
        head[1] = 0;
    h = fnv(h, head, sizeof head);
    h = fnv(h, c->shape, sizeof c->shape[0] * (size_t)c->rank);
    if (c->kind == SS_COLL_PERMUTE)
        h = fnv(h, c->pairs, sizeof c->pairs[0] * (size_t)c->npairs);
    h = fnv(h, &op->gsize, sizeof op->gsize);
    h = fnv(h, op->members, sizeof(int) * (size_t)op->gsize);
    return fnv(h, &op->seq, sizeof op->seq);
}

void ss__device_describe(ss_device *d, char *out, size_t cap)
{
    int st = atomic_load(&d->state);
    unsigned done = atomic_load(&d->seq_done);
    if (atomic_load(&d->in_coll))
        st = SS__DEV_WAITING;
    switch (st) {
    case SS__DEV_WAITING: {
        char what[256];
        pthread_mutex_lock(&d->report_lock);
        ss__coll_describe(&d->op.coll, what, sizeof what);
        unsigned seq = d->op.seq;
        pthread_mutex_unlock(&d->report_lock);
        snprintf(out, cap, "in %s #%u", what, seq);
        break;
    }
    case SS__DEV_RUNNING:
        snprintf(out, cap, "running its function after collective #%u", done);
        break;
    case SS__DEV_DELAYED: snprintf(out, cap, "delayed by an injected fault"); break;
    case SS__DEV_DONE:
        snprintf(out, cap, "finished its function after %u collectives", done);
        break;
    case SS__DEV_FAILED: snprintf(out, cap, "failed"); break;
    default: snprintf(out, cap, "idle"); break;
    }
}

void ss__describe_devices(ss_context *ctx, const int *ids, int n, ss__buf *b)
{
    enum { W = 192 };
    char *txt = malloc((size_t)n * W);
    bool *used = calloc((size_t)n, 1);
    if (!txt || !used) {
        free(txt);
        free(used);
        ss__buf_puts(b, "(no memory to describe the devices)");
        return;
    }
    for (int i = 0; i < n; i++)
        ss__device_describe(&ctx->devices[ids ? ids[i] : i], txt + (size_t)i * W, W);
    bool first = true;
    for (int i = 0; i < n; i++) {
        if (used[i])
            continue;
        /* Every device with the same description, as id ranges. */
        int list[SS_MAX_DEVICES], m = 0;
        for (int j = i; j < n; j++)
            if (!used[j] && strcmp(txt + (size_t)i * W, txt + (size_t)j * W) == 0) {
                used[j] = true;
                list[m++] = ids ? ids[j] : j;
            }
        ss__buf_puts(b, first ? "" : "; ");
        first = false;
        ss__buf_puts(b, m > 1 ? "devices " : "device ");
        for (int k = 0; k < m;) {
            int e = k;
            while (e + 1 < m && list[e + 1] == list[e] + 1)
                e++;
            ss__buf_printf(b, k ? ",%d" : "%d", list[k]);
            if (e > k)
                ss__buf_printf(b, "-%d", list[e]);
            k = e + 1;
        }
        ss__buf_printf(b, ": %s", txt + (size_t)i * W);
    }
    free(txt);
    free(used);
}

static ss_status fail_buf(ss_status st, ss__buf *b)
{
    ss_status r = ss__fail(st, "%s", b->oom ? "collective failed (no memory for the report)"
                                            : b->data);
    ss__buf_free(b);
    return r;
}

static ss_status abandoned(ss_device *dev, const ss__op *me);

/* The devices are described before the run is stopped, and only the
 * device that stops it reports the deadlock (the others give up as
 * abandoned): a stopped run ends a delayed device's sleep and fails it,
 * which must not replace what it was doing when the deadlock was seen. */
static ss_status deadlock_report(ss_device *dev, const ss__op *me, int peer, const char *why)
{
    ss_context *ctx = dev->ctx;
    char what[256];
    ss__coll_describe(&me->coll, what, sizeof what);
    ss__buf b;
    ss__buf_init(&b);
    ss__buf_printf(&b, "deadlock: device %d waited in %s #%u for device %d, which %s; ", dev->id,
                   what, me->seq, peer, why);
    ss__describe_devices(ctx, NULL, ctx->ndevices, &b);
    int running = 0;
    if (!atomic_compare_exchange_strong(&ctx->abort, &running, 1)) {
        ss__buf_free(&b);
        return abandoned(dev, me);
    }
    return fail_buf(SS_ERR_DEADLOCK, &b);
}

static ss_status mismatch_report(ss_device *dev, const ss__op *me)
{
    ss_context *ctx = dev->ctx;
    atomic_store(&ctx->abort, 1);
    ss__buf b;
    ss__buf_init(&b);
    ss__buf_printf(&b, "collective mismatch in the group of device %d (devices", dev->id);
    for (int g = 0; g < me->gsize; g++)
        ss__buf_printf(&b, g ? ",%d" : " %d", me->members[g]);
    ss__buf_puts(&b, "): ");
    ss__describe_devices(ctx, me->members, me->gsize, &b);
    return fail_buf(SS_ERR_MISMATCH, &b);
}

static ss_status abandoned(ss_device *dev, const ss__op *me)
{
    char what[256];
    ss__coll_describe(&me->coll, what, sizeof what);
    return ss__fail(SS_ERR_DEADLOCK, "~device %d: %s #%u abandoned: the run was stopped by "
                                     "another device's failure",
                    dev->id, what, me->seq);
}

/* --- Waiting -------------------------------------------------------------- */

/* Wait until peer's `word` >= want. `abortable`: give up (and say why) on
 * the timeout, a peer that finished or failed, or a stopped run. */
static ss_status wait_for(ss_device *dev, const ss__op *me, ss_device *peer,
                          _Atomic uint32_t *word, uint32_t want, bool abortable, double *t0)
{
    ss_context *ctx = dev->ctx;
    if (atomic_load_explicit(word, memory_order_acquire) >= want)
        return SS_OK;
    ss_status st = SS_OK;
    if (*t0 == 0)
        *t0 = ss__now();
    for (;;) {
        if (ss__wait(dev, word, want, SLICE))
            break;
        if (!abortable)
            continue;
        int ps = atomic_load(&peer->state);
        if (ps == SS__DEV_DONE) {
            st = deadlock_report(dev, me, peer->id, "finished its function without arriving");
            break;
        }
        if (ps == SS__DEV_FAILED || atomic_load(&ctx->abort)) {
            st = abandoned(dev, me);
            break;
        }
        double waited = ss__now() - *t0;
        if (waited > ctx->timeout) {
            char why[64];
            snprintf(why, sizeof why, "did not arrive within %.3g s", ctx->timeout);
            st = deadlock_report(dev, me, peer->id, why);
            break;
        }
    }
    return st;
}

/* --- The collective ------------------------------------------------------- */

ss_status ss__coll_record_plan(const ss_coll *c, ss_coll_record *rec)
{
    int gsize, out_rank;
    ss_dtype out_dtype;
    int64_t out_shape[SS_MAX_RANK];
    ss_status st = ss_coll_output(c, &out_dtype, &out_rank, out_shape);
    if (!st)
        st = ss__coll_group_size(c, &gsize);
    if (st)
        return st;
    memset(rec, 0, sizeof *rec);
    rec->kind = c->kind;
    rec->op = c->op;
    rec->naxes = c->naxes;
    for (int i = 0; i < c->naxes; i++)
        rec->axes[i] = ss_mesh_axis_index(c->mesh, c->axes[i]); /* checked by ss_coll_output */
    rec->group_size = gsize;
    rec->ngroups = ss_mesh_device_count(c->mesh) / (gsize ? gsize : 1);
    rec->dtype = c->dtype;
    double n = gsize;
    double in_bytes = (double)(ss__shape_elems(c->rank, c->shape) * ss_dtype_size(c->dtype));
    double out_bytes = (double)(ss__shape_elems(out_rank, out_shape) * ss_dtype_size(out_dtype));
    double S = in_bytes, moved = 0;
    switch (c->kind) {
    case SS_COLL_ALL_REDUCE: moved = ss_coll_ring_bytes(c->kind, gsize, S); break;
    case SS_COLL_ALL_GATHER: S = out_bytes; moved = ss_coll_ring_bytes(c->kind, gsize, S); break;
    case SS_COLL_REDUCE_SCATTER: moved = ss_coll_ring_bytes(c->kind, gsize, S); break;
    case SS_COLL_ALL_TO_ALL:
        S = n * in_bytes;
        moved = ss_coll_ring_bytes(c->kind, gsize, in_bytes);
        break;
    case SS_COLL_PERMUTE: {
        bool any = false;
        for (int i = 0; i < c->npairs; i++)
            any = any || c->pairs[i][0] != c->pairs[i][1];
        moved = any ? ss_coll_ring_bytes(c->kind, gsize, S) : 0;
        break;
    }
    case SS_COLL_BROADCAST: moved = ss_coll_ring_bytes(c->kind, gsize, S); break;
    case SS_COLL_KIND_COUNT: break;
    }
    rec->bytes = (size_t)S;
    rec->sent = rec->received = moved;
    return SS_OK;
}

static void record(ss_device *dev, const ss__op *me, double seconds)
{
    ss_coll_record rec;
    if (ss__coll_record_plan(&me->coll, &rec) != SS_OK)
        return;
    rec.seq = me->seq;
    rec.seconds = seconds;
    rec.algbw = seconds > 0 ? (double)rec.bytes / seconds : 0;
    rec.busbw = rec.algbw * ss_coll_busbw_factor(me->coll.kind, rec.group_size);
    ss__ledger_add(dev->ctx, &rec);
}

ss_status ss_device_collective(ss_device *dev, const ss_coll *c, const void *in, void *out)
{
    ss_context *ctx = dev->ctx;
    double start = ss__now();
    dev->calls++;
    if (dev->delay_nth == dev->calls && dev->delay_seconds > 0) {
        atomic_store(&dev->state, SS__DEV_DELAYED);
        ss__device_sleep(dev, dev->delay_seconds);
        atomic_store(&dev->state, SS__DEV_RUNNING);
    }
    if (dev->skip_nth == dev->calls)
        return SS_OK;
    ss_dtype odt;
    int orank;
    int64_t oshape[SS_MAX_RANK];
    ss_status st = ss_coll_output(c, &odt, &orank, oshape);
    if (st)
        return st;
    if (!in || !out)
        return ss__fail(SS_ERR_INVALID, "device %d: %s with a NULL buffer", dev->id,
                        ss_coll_kind_name(c->kind));
    int gsize, grank;
    st = ss_coll_group(c, dev->id, dev->members, ctx->ndevices, &gsize, &grank);
    if (st)
        return st;
    if (atomic_load(&ctx->abort)) {
        char what[256];
        ss__coll_describe(c, what, sizeof what);
        return ss__fail(SS_ERR_DEADLOCK, "~device %d: %s not started: the run was stopped by "
                                         "another device's failure",
                        dev->id, what);
    }

    /* 1. Publish. */
    uint32_t seq = atomic_load(&dev->seq_done) + 1;
    pthread_mutex_lock(&dev->report_lock);
    ss__op *me = &dev->op;
    me->coll = *c;
    me->seq = seq;
    me->gsize = gsize;
    me->grank = grank;
    me->members = dev->members;
    me->in = in;
    me->out = out;
    me->out_dtype = odt;
    me->out_rank = orank;
    memcpy(me->out_shape, oshape, sizeof oshape);
    uint64_t sig = signature(me);
    atomic_store_explicit(&me->sig, sig, memory_order_relaxed);
    pthread_mutex_unlock(&dev->report_lock);
    atomic_store(&dev->in_coll, 1);
    atomic_store(&dev->state, SS__DEV_WAITING);
    atomic_store_explicit(&dev->arrived, seq, memory_order_release);
    ss__workers_kick(ctx);

    /* 2. Arrive. On a mismatch keep waiting for the rest of the group, so
     * that every member sees every op and the report is complete. */
    double t0 = 0;
    bool mismatched = false;
    for (int g = 0; g < gsize; g++) {
        ss_device *p = &ctx->devices[me->members[g]];
        if (p == dev)
            continue;
        st = wait_for(dev, me, p, &p->arrived, seq, true, &t0);
        if (st == SS_OK && (atomic_load_explicit(&p->arrived, memory_order_acquire) != seq ||
                            atomic_load_explicit(&p->op.sig, memory_order_relaxed) != sig))
            mismatched = true;
        if (st && mismatched)
            st = mismatch_report(dev, me);
        if (st) {
            atomic_store(&dev->state, SS__DEV_RUNNING);
            return st;
        }
    }
    if (mismatched) {
        atomic_store(&dev->state, SS__DEV_RUNNING);
        return mismatch_report(dev, me);
    }
    double arrived_at = ss__now();

    /* 3. Work, 4. depart. */
    do_work(dev, me);
    atomic_store_explicit(&dev->departed, seq, memory_order_release);
    ss__workers_kick(ctx);
    for (int g = 0; g < gsize; g++) {
        ss_device *p = &ctx->devices[me->members[g]];
        if (p != dev)
            wait_for(dev, me, p, &p->departed, seq, false, &t0);
    }
    atomic_store(&dev->seq_done, seq);
    atomic_store(&dev->in_coll, 0);
    atomic_store(&dev->state, SS__DEV_RUNNING);
    double end = ss__now();
    if (ss_mesh_position_of(c->mesh, dev->id) == 0)
        record(dev, me, end - start);
    if (atomic_load_explicit(&ctx->tracing, memory_order_relaxed)) {
        char what[256];
        ss__coll_describe(c, what, sizeof what);
        ss__trace(dev, 'X', "collective", what, start, end, "seq", seq, "bytes_in",
                  (double)(ss__shape_elems(c->rank, c->shape) * ss_dtype_size(c->dtype)));
        ss__trace(dev, 'X', "wait", "wait for group", start, arrived_at, "group_size", gsize,
                  NULL, 0);
    }
    return SS_OK;
}
