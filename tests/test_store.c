/*
 * test_store.c — identical replicas stored once (sim/device/store.c): a
 * replicated shard put on the devices, and a replicated result of a step,
 * live once in host memory while every device is still charged for its
 * copy. The reference is the naive path, SHARDSIM_STORAGE=copies (every
 * device its own copy): results bit for bit the same at every count of
 * devices computing at once, and the same peaks, live bytes, largest
 * buffers (names, sizes, offsets), ledger and out-of-memory reports.
 */
#include "support.h"

#include <stdlib.h>
#include <string.h>

/* Contexts read SHARDSIM_STORAGE when they are created. */
static ss_context *make_ctx(int devices, int threads, bool copies, size_t memory)
{
    if (copies)
        setenv("SHARDSIM_STORAGE", "copies", 1);
    else
        unsetenv("SHARDSIM_STORAGE");
    ss_context_options co = {.ndevices = devices, .device_memory = memory, .threads = threads,
                             .timeout = 60};
    ss_context *ctx;
    TS_OK(ss_context_create(&co, &ctx));
    unsetenv("SHARDSIM_STORAGE");
    return ctx;
}

static size_t value_bytes(const ss_program *p, ss_value v)
{
    int rank;
    int64_t shape[SS_MAX_RANK];
    TS_OK(ss_value_shape(p, v, NULL, &rank, shape));
    size_t n = 4;
    for (int d = 0; d < rank; d++)
        n *= (size_t)shape[d];
    return n;
}

/* What a run leaves to compare: the outputs' bytes, and per device its
 * peak, live bytes and largest live buffers; the ledger. */
typedef struct outcome {
    int nout;
    void *out[16];
    size_t peak[16], live[16];
    int nbig[16];
    ss_buffer_info big[16][8];
    int nledger;
    ss_coll_record ledger[256];
    int shared_pairs; /* replica pairs of input 1's shards at one address */
    int views;        /* replicated results taken as views (trace "share (view)") */
} outcome;

/* Put the inputs (a fixed pseudo-random pattern; Adam's count 3), run
 * `steps` steps on device-resident arrays with the params and state
 * donated (each step's outputs are the next step's inputs), read the last
 * outputs back, destroy every array. */
static void run_device_steps(ss_executable *e, const ss_program *p, ss_context *ctx, int steps,
                             outcome *o)
{
    memset(o, 0, sizeof *o);
    int ni = 0, no = 0;
    ss_value v;
    while (ss_executable_input(e, ni, &v) == SS_OK)
        ni++;
    while (ss_executable_output(e, no, &v) == SS_OK)
        no++;
    ss_array *in[16], *out[16];
    bool donate[16];
    TS_OK(ss_context_trace_enable(ctx, 1));
    uint32_t s = 20u;
    for (int k = 0; k < ni; k++) {
        TS_OK(ss_executable_input(e, k, &v));
        size_t cnt = value_bytes(p, v) / 4;
        float *f = malloc(cnt * 4);
        for (size_t i = 0; i < cnt; i++) {
            s = s * 1664525u + 1013904223u;
            f[i] = (float)((int)(s >> 9) % 2001 - 1000) / 1000.0f;
            if (k > 3)
                f[i] = f[i] * f[i];
        }
        if (k == ni - 1)
            f[0] = 3.0f;
        ss_sharding sh;
        int rank;
        int64_t shape[SS_MAX_RANK];
        TS_OK(ss_value_sharding(p, v, &sh));
        TS_OK(ss_value_shape(p, v, NULL, &rank, shape));
        TS_OK(ss_array_put(ctx, &sh, rank, shape, SS_F32, f, NULL, &in[k]));
        free(f);
        donate[k] = k > 0;
    }
    ss_array_shard sh[64];
    int n;
    TS_OK(ss_array_shards(in[1], -1, sh, 64, &n));
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            o->shared_pairs += sh[a].index.replica_id != sh[b].index.replica_id &&
                               memcmp(sh[a].index.start, sh[b].index.start,
                                      sizeof sh[a].index.start) == 0 &&
                               sh[a].data == sh[b].data;
    for (int step = 0; step < steps; step++) {
        TS_OK(ss_executable_run_arrays(e, ctx, in, donate, out));
        for (int j = 0; j < ni - 1; j++) { /* outputs j = inputs j + 1 */
            ss_array_destroy(in[j + 1]);
            in[j + 1] = out[j];
        }
        for (int j = ni - 1; j < no && step + 1 < steps; j++)
            ss_array_destroy(out[j]);
    }
    int nd = ss_context_device_count(ctx);
    for (int d = 0; d < nd; d++) { /* at the end, every array still held */
        ss_memory_stats ms;
        TS_OK(ss_device_memory_stats(ctx, d, &ms));
        o->peak[d] = ms.peak_bytes;
        o->live[d] = ms.live_bytes;
        TS_OK(ss_device_largest_buffers(ctx, d, o->big[d], 8, &o->nbig[d]));
    }
    o->nout = no;
    for (int j = 0; j < no; j++) {
        TS_OK(ss_executable_output(e, j, &v));
        o->out[j] = malloc(value_bytes(p, v));
        ss_array *a = j < ni - 1 ? in[j + 1] : out[j];
        TS_OK(ss_array_get(a, o->out[j], value_bytes(p, v)));
    }
    for (int d = 0; d < nd; d++)
        for (int i = 0; i < ss_context_trace_count(ctx, d); i++) {
            ss_trace_event ev;
            TS_OK(ss_context_trace_get(ctx, d, i, &ev));
            o->views += strcmp(ev.name, "share (view)") == 0;
        }
    o->nledger = ss_context_ledger_count(ctx);
    cr_assert_leq(o->nledger, 256);
    for (int i = 0; i < o->nledger; i++)
        TS_OK(ss_context_ledger_get(ctx, i, &o->ledger[i]));
    for (int k = 0; k < ni; k++)
        ss_array_destroy(in[k]);
    for (int j = ni - 1; j < no; j++)
        ss_array_destroy(out[j]);
    for (int d = 0; d < nd; d++) {
        ss_memory_stats ms;
        TS_OK(ss_device_memory_stats(ctx, d, &ms));
        cr_assert_eq(ms.live_bytes, 0, "device %d keeps %zu bytes after every array is gone", d,
                     ms.live_bytes);
    }
}

static void outcome_free(outcome *o)
{
    for (int j = 0; j < o->nout; j++)
        free(o->out[j]);
}

/* got equals ref in every output byte, every device's memory figures and
 * largest buffers, and every ledger entry but its timings. */
static void same_outcome(const outcome *ref, const outcome *got, const ss_program *p,
                         const ss_executable *e, int devices, const char *what)
{
    cr_assert_eq(got->nout, ref->nout);
    for (int j = 0; j < ref->nout; j++) {
        ss_value v;
        TS_OK(ss_executable_output(e, j, &v));
        cr_assert(memcmp(got->out[j], ref->out[j], value_bytes(p, v)) == 0,
                  "%s: output %d differs from every device's own copy", what, j);
    }
    for (int d = 0; d < devices; d++) {
        cr_assert_eq(got->peak[d], ref->peak[d], "%s, device %d: peak %zu, with copies %zu", what,
                     d, got->peak[d], ref->peak[d]);
        cr_assert_eq(got->live[d], ref->live[d], "%s, device %d: live %zu, with copies %zu", what,
                     d, got->live[d], ref->live[d]);
        cr_assert_eq(got->nbig[d], ref->nbig[d], "%s, device %d: %d largest buffers, %d", what,
                     d, got->nbig[d], ref->nbig[d]);
        for (int k = 0; k < ref->nbig[d]; k++) {
            const ss_buffer_info *a = &got->big[d][k], *b = &ref->big[d][k];
            cr_assert(strcmp(a->name, b->name) == 0 && a->bytes == b->bytes &&
                          a->offset == b->offset,
                      "%s, device %d, buffer %d: %s (%zu at %zu), with copies %s (%zu at %zu)",
                      what, d, k, a->name, a->bytes, a->offset, b->name, b->bytes, b->offset);
        }
    }
    cr_assert_eq(got->nledger, ref->nledger, "%s: %d ledger entries, %d", what, got->nledger,
                 ref->nledger);
    for (int i = 0; i < ref->nledger; i++) {
        const ss_coll_record *a = &got->ledger[i], *b = &ref->ledger[i];
        cr_assert(a->seq == b->seq && a->kind == b->kind && a->op == b->op &&
                      a->group_size == b->group_size && a->bytes == b->bytes && a->sent == b->sent,
                  "%s: ledger entry %d differs", what, i);
    }
}

static void step_everywhere(const char *mesh_text, int devices, bool naive_compute)
{
    ss_mesh *m = ts_make_mesh(mesh_text, devices);
    ss_program *p;
    ss_executable *e = ts_adam_mlp_step(m, true, &p);
    if (naive_compute)
        setenv("SHARDSIM_REPLICAS", "each", 1);
    outcome ref, got;
    ss_context *ctx = make_ctx(devices, 1, true, (size_t)64 << 20);
    run_device_steps(e, p, ctx, 3, &ref);
    ss_context_destroy(ctx);
    cr_assert_eq(ref.shared_pairs, 0, "with copies, no two devices share a shard");
    cr_assert_eq(ref.views, 0, "with copies, no result is viewed");
    const int threads[] = {1, 2, devices};
    for (int t = 0; t < 3; t++) {
        char what[96];
        snprintf(what, sizeof what, "%s, %d threads%s", mesh_text, threads[t],
                 naive_compute ? ", every device computing" : "");
        ctx = make_ctx(devices, threads[t], false, (size_t)64 << 20);
        run_device_steps(e, p, ctx, 3, &got);
        ss_context_destroy(ctx);
        cr_assert_gt(got.shared_pairs, 0, "%s: W1's replicas do not share their bytes", what);
        if (!naive_compute)
            cr_assert_gt(got.views, 0, "%s: no replicated result was viewed", what);
        same_outcome(&ref, &got, p, e, devices, what);
        outcome_free(&got);
    }
    outcome_free(&ref);
    unsetenv("SHARDSIM_REPLICAS");
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(store, train_step_4x2_bit_identical_to_copies)
{
    step_everywhere("data=4,model=2", 8, false);
}

Test(store, train_step_2x4_bit_identical_to_copies)
{
    step_everywhere("data=2,model=4", 8, false);
}

/* Every device computing (SHARDSIM_REPLICAS=each): each one takes its
 * donated params, which are views, as its results. */
Test(store, every_device_computing_over_shared_inputs)
{
    step_everywhere("data=4,model=2", 8, true);
}

Test(store, put_shares_replicas_and_charges_every_device)
{
    ss_mesh *m = ts_make_mesh("data=4,model=2", 8);
    ss_spec spec = ts_spec("P(None, 'model')");
    ss_sharding sh;
    ss_sharding_init(&sh, m, &spec);
    float *host = malloc(64 * 32 * 4), *back = malloc(64 * 32 * 4);
    for (int i = 0; i < 64 * 32; i++)
        host[i] = (float)i * 0.5f;
    for (int copies = 0; copies < 2; copies++) {
        ss_context *ctx = make_ctx(8, 0, copies, (size_t)1 << 20);
        ss_array *a;
        TS_OK(ss_array_put(ctx, &sh, 2, (int64_t[]){64, 32}, SS_F32, host, "w", &a));
        ss_array_shard s[8];
        int n;
        TS_OK(ss_array_shards(a, -1, s, 8, &n));
        for (int i = 0; i < n; i++) {
            ss_memory_stats ms;
            TS_OK(ss_device_memory_stats(ctx, s[i].index.device, &ms));
            cr_assert_eq(ms.live_bytes, 64 * 16 * 4, "device %d is charged %zu bytes",
                         s[i].index.device, ms.live_bytes);
            for (int j = 0; j < n; j++) {
                bool same_block = s[i].index.start[1] == s[j].index.start[1];
                if (i != j && same_block)
                    cr_assert_eq(s[i].data == s[j].data, !copies,
                                 "%s: devices %d and %d %s one copy",
                                 copies ? "copies" : "shared", s[i].index.device,
                                 s[j].index.device, copies ? "share" : "do not share");
                if (!same_block)
                    cr_assert_neq(s[i].data, s[j].data);
            }
            const float *d = s[i].data;
            for (int r = 0; r < 64; r++)
                for (int c = 0; c < 16; c++)
                    cr_assert_eq(d[r * 16 + c], host[r * 32 + s[i].index.start[1] + c]);
        }
        memset(back, 0, 64 * 32 * 4);
        TS_OK(ss_array_get(a, back, 64 * 32 * 4));
        cr_assert(memcmp(back, host, 64 * 32 * 4) == 0);
        ss_array_destroy(a);
        for (int d = 0; d < 8; d++) {
            ss_memory_stats ms;
            TS_OK(ss_device_memory_stats(ctx, d, &ms));
            cr_assert_eq(ms.live_bytes, 0);
        }
        ss_context_destroy(ctx);
    }
    free(host);
    free(back);
    ss_mesh_destroy(m);
}

/* An injected allocation failure on one device, at every allocation of
 * the step: the same status and report as with copies, and nothing left
 * allocated beyond the inputs. */
Test(store, out_of_memory_reports_as_with_copies)
{
    ss_mesh *m = ts_make_mesh("data=4,model=2", 8);
    ss_program *p;
    ss_executable *e = ts_adam_mlp_step(m, false, &p);
    int ni = 0;
    ss_value v;
    while (ss_executable_input(e, ni, &v) == SS_OK)
        ni++;
    ss_plan plan;
    TS_OK(ss_executable_plan(e, &plan));
    for (int nth = 1; nth < 60; nth += 7) {
        char msg[2][1024];
        ss_status st[2];
        size_t live[2][8];
        for (int copies = 0; copies < 2; copies++) {
            ss_context *ctx = make_ctx(8, 2, copies, (size_t)64 << 20);
            ss_array *in[16], *out[16];
            bool donate[16];
            for (int k = 0; k < ni; k++) {
                TS_OK(ss_executable_input(e, k, &v));
                float *f = calloc(value_bytes(p, v) / 4, 4);
                ss_sharding sh;
                int rank;
                int64_t shape[SS_MAX_RANK];
                TS_OK(ss_value_sharding(p, v, &sh));
                TS_OK(ss_value_shape(p, v, NULL, &rank, shape));
                TS_OK(ss_array_put(ctx, &sh, rank, shape, SS_F32, f, NULL, &in[k]));
                free(f);
                donate[k] = false;
            }
            ss_fault f = {.kind = SS_FAULT_ALLOC, .device = 5, .nth = nth};
            TS_OK(ss_context_inject(ctx, &f));
            st[copies] = ss_executable_run_arrays(e, ctx, in, donate, out);
            snprintf(msg[copies], sizeof msg[copies], "%s", st[copies] ? ss_error_message() : "");
            for (int d = 0; d < 8; d++) {
                ss_memory_stats ms;
                TS_OK(ss_device_memory_stats(ctx, d, &ms));
                live[copies][d] = ms.live_bytes;
            }
            if (!st[copies])
                for (int j = 0; j < ni - 1; j++)
                    ss_array_destroy(out[j]);
            for (int k = 0; k < ni; k++)
                ss_array_destroy(in[k]);
            ss_context_destroy(ctx);
        }
        cr_assert_eq(st[0], st[1], "failure at allocation %d: %s, with copies %s", nth,
                     ss_status_name(st[0]), ss_status_name(st[1]));
        cr_assert_str_eq(msg[0], msg[1], "failure at allocation %d", nth);
        for (int d = 0; d < 8; d++)
            cr_assert_eq(live[0][d], live[1][d], "failure at allocation %d, device %d", nth, d);
    }
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}
