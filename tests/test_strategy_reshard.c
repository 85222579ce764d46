/* test_strategy_reshard.c — a strategy applied to arrays that live on the
 * devices (shardsim.h, "Strategies": ss_arrays_reshard, ss_strategy_reshard,
 * the seed's update_model_sharding): only what must move moves, memory stays
 * within one batch of staging and matches what the devices measure, a
 * reshard that cannot fit moves nothing, a fault midway frees every shard
 * once, and a checkpoint saved under one strategy comes back identical
 * under another, directly or through a reshard of the loaded state. */
#include "support.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static ss_mesh *mesh(const char *text)
{
    ss_mesh *m;
    int n = 1;
    for (const char *p = strchr(text, '='); p; p = strchr(p + 1, '='))
        n *= atoi(p + 1);
    cr_assert_eq(ss_mesh_parse(text, n, NULL, &m), SS_OK, "%s", ss_error_message());
    return m;
}

static ss_strategy *strategy(const char *text)
{
    ss_strategy *s;
    cr_assert_eq(ss_strategy_parse(text, 1, &s, NULL, NULL), SS_OK, "%s", ss_error_message());
    return s;
}

static ss_param_info param(const char *path, ss_dtype dt, int rank, const int64_t *shape)
{
    ss_param_info p;
    memset(&p, 0, sizeof p);
    p.path = path;
    p.dtype = dt;
    p.rank = rank;
    memcpy(p.shape, shape, sizeof(int64_t) * (size_t)rank);
    return p;
}

/* --- Resharding live arrays (update_model_sharding) ------------------------------------ */

static ss_context *context(int n, size_t memory)
{
    ss_context_options o = {.ndevices = n, .device_memory = memory, .timeout = 30};
    ss_context *c;
    cr_assert_eq(ss_context_create(&o, &c), SS_OK, "%s", ss_error_message());
    return c;
}

static ss_sharding sharding(const ss_mesh *m, const char *spec)
{
    ss_spec s;
    cr_assert_eq(ss_spec_parse(spec, &s), SS_OK, "%s", ss_error_message());
    ss_sharding sh;
    ss_sharding_init(&sh, m, &s);
    return sh;
}

static ss_array *filled(ss_context *ctx, const ss_sharding *sh, int rank, const int64_t *shape,
                        uint64_t seed)
{
    ss_init init = {.kind = SS_INIT_NORMAL, .seed = seed, .scale = 1};
    ss_array *a;
    cr_assert_eq(ss_array_from_init(ctx, sh, rank, shape, SS_F32, &init, "param", &a), SS_OK,
                 "%s", ss_error_message());
    return a;
}

static size_t nbytes(const ss_array *a)
{
    size_t n = ss_dtype_size(ss_array_dtype(a));
    for (int d = 0; d < ss_array_rank(a); d++)
        n *= (size_t)ss_array_shape(a)[d];
    return n;
}

static void *host_copy(const ss_array *a)
{
    void *h = malloc(nbytes(a));
    cr_assert_eq(ss_array_get(a, h, nbytes(a)), SS_OK, "%s", ss_error_message());
    return h;
}

static bool holds_data(const ss_array *a)
{
    ss_array_shard s[64];
    int n;
    cr_assert_eq(ss_array_shards(a, -1, s, 64, &n), SS_OK);
    for (int k = 0; k < n; k++)
        if (!s[k].data)
            return false;
    return n > 0;
}

static void expect_values(const ss_array *a, const void *want)
{
    void *got = host_copy(a);
    cr_assert(memcmp(got, want, nbytes(a)) == 0, "values changed");
    free(got);
}

static size_t live(ss_context *ctx, int d)
{
    ss_memory_stats ms;
    cr_assert_eq(ss_device_memory_stats(ctx, d, &ms), SS_OK);
    return ms.live_bytes;
}

Test(strategy, reshard_moves_only_what_must_move)
{
    ss_context *ctx = context(8, 64u << 20);
    ss_mesh *m = mesh("data=2,model=4"), *same = mesh("data=2,model=4"), *other = mesh("x=2,y=4");
    ss_sharding rows = sharding(m, "P('data', None)"), rep = sharding(m, "P()");
    ss_sharding rows2 = sharding(same, "P('data', None)"), xy = sharding(other, "P('x', 'y')");
    ss_array *in[4] = {filled(ctx, &rows, 2, (int64_t[]){64, 64}, 1),
                       filled(ctx, &rep, 1, (int64_t[]){16}, 2),
                       filled(ctx, &rows2, 2, (int64_t[]){32, 32}, 3),
                       filled(ctx, &xy, 2, (int64_t[]){32, 32}, 4)};
    void *before[4];
    for (int k = 0; k < 4; k++)
        before[k] = host_copy(in[k]);
    /* Only in[0] changes layout; in[2] and in[3] are the same blocks on
     * every device over other mesh objects (in[3] under other axis names). */
    ss_sharding t[4] = {sharding(m, "P(None, 'model')"), sharding(m, "P()"),
                        sharding(m, "P('data', None)"), sharding(m, "P('data', 'model')")};
    ss_array *out[4];
    ss_reshard_stats st;
    int ledger0 = ss_context_ledger_count(ctx);
    cr_assert_eq(ss_arrays_reshard(ctx, 4, in, t, NULL, out, &st), SS_OK, "%s",
                 ss_error_message());
    cr_assert_eq(st.moved, 1);
    cr_assert_eq(st.kept, 3);
    cr_assert_eq(st.batches, 1);
    cr_assert_eq(ss_context_ledger_count(ctx) - ledger0, st.ncollectives);
    cr_assert(st.ncollectives >= 1, "P('data', None) -> P(None, 'model') moves data");
    double sent = 0;
    for (int k = ledger0; k < ss_context_ledger_count(ctx); k++) {
        ss_coll_record r;
        cr_assert_eq(ss_context_ledger_get(ctx, k, &r), SS_OK);
        sent += r.sent;
    }
    cr_assert_eq(sent, st.sent_bytes);
    size_t total = 0;
    for (int k = 0; k < 4; k++) {
        cr_assert(!holds_data(in[k]), "input %d still holds shards", k);
        cr_assert(ss_spec_equal(&ss_array_sharding(out[k])->spec, &t[k].spec));
        cr_assert_eq(ss_array_sharding(out[k])->mesh, m);
        expect_values(out[k], before[k]);
        int64_t local[SS_MAX_RANK];
        ss_sharding_shard_shape(&t[k], ss_array_rank(out[k]), ss_array_shape(out[k]), local);
        size_t b = 4;
        for (int d = 0; d < ss_array_rank(out[k]); d++)
            b *= (size_t)local[d];
        total += (b + 63) / 64 * 64;
    }
    /* Nothing else is left on the devices: the old shards were freed. */
    for (int d = 0; d < 8; d++)
        cr_assert_eq(live(ctx, d), total, "device %d: %zu live, %zu expected", d, live(ctx, d),
                     total);
    for (int k = 0; k < 4; k++) {
        ss_array_destroy(in[k]);
        ss_array_destroy(out[k]);
        free(before[k]);
    }
    ss_mesh_destroy(m);
    ss_mesh_destroy(same);
    ss_mesh_destroy(other);
    ss_context_destroy(ctx);
}

Test(strategy, reshard_memory_stays_within_one_batch_of_staging)
{
    ss_context *ctx = context(8, 64u << 20);
    ss_mesh *m = mesh("d=8");
    ss_sharding rep = sharding(m, "P()"), rows = sharding(m, "P('d', None)");
    /* Eight 1 MiB arrays replicated (they shrink to 128 KiB per device) and
     * eight split by rows (they grow to 1 MiB per device). */
    ss_array *in[16], *out[16];
    ss_sharding t[16];
    void *before[16];
    for (int k = 0; k < 16; k++) {
        in[k] = filled(ctx, k < 8 ? &rep : &rows, 2, (int64_t[]){1024, 256}, (uint64_t)k);
        t[k] = k < 8 ? rows : rep;
        before[k] = host_copy(in[k]);
    }
    size_t l0 = live(ctx, 0), mib = (size_t)1 << 20;
    cr_assert_eq(l0, 8 * mib + 8 * mib / 8);
    ss_reshard_options o = {.staging_bytes = 2 * mib};
    ss_reshard_stats st;
    cr_assert_eq(ss_arrays_reshard(ctx, 16, in, t, &o, out, &st), SS_OK, "%s",
                 ss_error_message());
    /* Shrinkers first: the first batch takes the eight of them and one
     * grower (8 x 128 KiB + 1 MiB of new layouts = 2 MiB), then the other
     * seven growers go two at a time: 5 batches. No device ever holds more
     * than the 9 MiB it started with plus 2 MiB; one program for everything
     * would hold 9 + 1 + 8 MiB. */
    cr_assert_eq(st.batches, 5);
    cr_assert_eq(st.moved, 16);
    cr_assert(st.peak_bytes <= l0 + o.staging_bytes, "planned peak %zu > %zu + %zu",
              st.peak_bytes, l0, o.staging_bytes);
    /* The plan is what the devices measured (their high-water mark). */
    for (int d = 0; d < 8; d++) {
        ss_memory_stats ms;
        cr_assert_eq(ss_device_memory_stats(ctx, d, &ms), SS_OK);
        cr_assert_eq(ms.peak_bytes, st.peak_bytes, "device %d peaked at %zu, planned %zu", d,
                     ms.peak_bytes, st.peak_bytes);
    }
    for (int k = 0; k < 16; k++) {
        expect_values(out[k], before[k]);
        ss_array_destroy(in[k]);
        ss_array_destroy(out[k]);
        free(before[k]);
    }
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
}

Test(strategy, reshard_that_cannot_fit_moves_nothing)
{
    ss_context *ctx = context(8, 4u << 20);
    ss_mesh *m = mesh("d=8");
    ss_sharding rows = sharding(m, "P('d', None)"), rep = sharding(m, "P()");
    /* 4 MiB to gather on devices of 4 MiB that already hold 512 KiB. */
    ss_array *in = filled(ctx, &rows, 2, (int64_t[]){1024, 1024}, 7), *out = NULL;
    void *before = host_copy(in);
    cr_assert_eq(ss_arrays_reshard(ctx, 1, &in, &rep, NULL, &out, NULL), SS_ERR_DEVICE_OOM);
    cr_assert(strstr(ss_error_message(), "nothing was moved"), "%s", ss_error_message());
    cr_assert_null(out);
    cr_assert(holds_data(in));
    expect_values(in, before);
    free(before);
    ss_array_destroy(in);
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
}

Test(strategy, reshard_failing_midway_frees_each_shard_once)
{
    ss_context *ctx = context(8, 64u << 20);
    ss_mesh *m = mesh("d=8");
    ss_sharding rows = sharding(m, "P('d', None)"), rep = sharding(m, "P()");
    ss_array *in[3], *out[3];
    ss_sharding t[3] = {rep, rep, rep};
    void *before[3];
    for (int k = 0; k < 3; k++) {
        in[k] = filled(ctx, &rows, 2, (int64_t[]){64, 64}, (uint64_t)k);
        before[k] = host_copy(in[k]);
    }
    ss_fault f = {.kind = SS_FAULT_ALLOC, .device = 3, .nth = 2};
    cr_assert_eq(ss_context_inject(ctx, &f), SS_OK);
    ss_reshard_options o = {.staging_bytes = 1}; /* one array per batch */
    ss_status s = ss_arrays_reshard(ctx, 3, in, t, &o, out, NULL);
    cr_assert_eq(s, SS_ERR_DEVICE_OOM, "%s", ss_error_message());
    ss_context_clear_faults(ctx);
    int lost = 0;
    for (int k = 0; k < 3; k++) {
        if (out[k]) {
            cr_assert(!holds_data(in[k]));
            expect_values(out[k], before[k]);
        } else if (holds_data(in[k])) {
            expect_values(in[k], before[k]);
        } else {
            lost++; /* the failed batch's input was donated */
        }
        ss_array_destroy(out[k]);
        ss_array_destroy(in[k]);
        free(before[k]);
    }
    cr_assert_eq(lost, 1);
    for (int d = 0; d < 8; d++)
        cr_assert_eq(live(ctx, d), 0, "device %d leaks %zu bytes", d, live(ctx, d));
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
}

/* --- A checkpoint saved under one strategy, restored under another ----------------------- */

static const char *const paths[3] = {"dense/kernel", "dense/bias", "head/kernel"};
static const char *const names[3] = {"params.dense.kernel", "params.dense.bias",
                                     "params.head.kernel"};
static const int64_t shapes[3][2] = {{64, 128}, {128, 0}, {128, 64}};
static const int ranks[3] = {2, 1, 2};

static void shardings_under(const char *text, const ss_mesh *m, ss_sharding out[3])
{
    ss_strategy *s = strategy(text);
    ss_param_info p[3];
    ss_param_sharding ps[3];
    for (int k = 0; k < 3; k++)
        p[k] = param(paths[k], SS_F32, ranks[k], shapes[k]);
    cr_assert_eq(ss_strategy_apply(s, m, 3, p, ps), SS_OK, "%s", ss_error_message());
    for (int k = 0; k < 3; k++)
        ss_sharding_init(&out[k], m, &ps[k].spec);
    ss_strategy_destroy(s);
}

static const char fsdp_text[] = "'kernel' fsdp(data, min_size_mb=0)\n'.*' replicate\n";
static const char tp_text[] = "'dense/kernel' P(None, 'model')\n'head/kernel' P('model', None)\n"
                              "'bias' P('model')\n";

Test(strategy, checkpoint_round_trip_into_another_strategy)
{
    char dir[] = "/tmp/ss_strategy_ckpt_XXXXXX";
    cr_assert(mkdtemp(dir));
    ss_context *ctx = context(8, 64u << 20);
    ss_mesh *m = mesh("data=2,model=4");
    ss_sharding a[3], b[3];
    shardings_under(fsdp_text, m, a);
    shardings_under(tp_text, m, b);
    /* FSDP: the kernels split over 'data' on their larger dimension. */
    char spec[128];
    ss_spec_repr(&a[0].spec, spec, sizeof spec);
    cr_assert_str_eq(spec, "P(None, 'data')");
    ss_spec_repr(&a[2].spec, spec, sizeof spec);
    cr_assert_str_eq(spec, "P('data', None)");
    ss_array *arrays[3];
    void *want[3];
    for (int k = 0; k < 3; k++) {
        arrays[k] = filled(ctx, &a[k], ranks[k], shapes[k], (uint64_t)(10 + k));
        want[k] = host_copy(arrays[k]);
    }
    cr_assert_eq(ss_ckpt_save(ctx, dir, 1, 3, names, arrays, NULL, NULL), SS_OK, "%s",
                 ss_error_message());

    /* Restore straight into the TP strategy's shardings. */
    ss_ckpt_target tg[3];
    memset(tg, 0, sizeof tg);
    for (int k = 0; k < 3; k++) {
        tg[k].name = names[k];
        tg[k].dtype = SS_F32;
        tg[k].rank = ranks[k];
        memcpy(tg[k].shape, shapes[k], sizeof shapes[k]);
        tg[k].sharding = b[k];
    }
    ss_ckpt_state *state;
    cr_assert_eq(ss_ckpt_restore(ctx, dir, 1, 3, tg, NULL, &state, NULL), SS_OK, "%s",
                 ss_error_message());
    for (int k = 0; k < 3; k++) {
        ss_array *r = ss_ckpt_state_array(state, k);
        cr_assert(ss_spec_equal(&ss_array_sharding(r)->spec, &b[k].spec));
        expect_values(r, want[k]);
    }
    ss_ckpt_state_destroy(state);

    /* Restore as saved, then reshard the loaded state to TP in one call. */
    for (int k = 0; k < 3; k++)
        memset(&tg[k].sharding, 0, sizeof tg[k].sharding);
    cr_assert_eq(ss_ckpt_restore(ctx, dir, 1, 3, tg, NULL, &state, NULL), SS_OK, "%s",
                 ss_error_message());
    ss_array *loaded[3], *out[3];
    for (int k = 0; k < 3; k++)
        loaded[k] = ss_ckpt_state_array(state, k);
    ss_strategy *tp = strategy(tp_text);
    ss_param_sharding decided[3];
    ss_reshard_stats st;
    int ledger0 = ss_context_ledger_count(ctx);
    cr_assert_eq(ss_strategy_reshard(ctx, tp, m, 3, paths, loaded, NULL, out, decided, &st),
                 SS_OK, "%s", ss_error_message());
    cr_assert_eq(st.moved, 3);
    cr_assert_eq(st.kept, 0);
    cr_assert_eq(ss_context_ledger_count(ctx) - ledger0, st.ncollectives);
    for (int k = 0; k < 3; k++) {
        cr_assert(ss_spec_equal(&decided[k].spec, &b[k].spec));
        cr_assert(ss_spec_equal(&ss_array_sharding(out[k])->spec, &b[k].spec));
        expect_values(out[k], want[k]);
        ss_array_destroy(out[k]);
    }
    ss_ckpt_state_destroy(state); /* destroys the emptied, donated arrays */
    ss_strategy_destroy(tp);
    for (int k = 0; k < 3; k++) {
        ss_array_destroy(arrays[k]);
        free(want[k]);
    }
    for (int d = 0; d < 8; d++)
        cr_assert_eq(live(ctx, d), 0);
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}
