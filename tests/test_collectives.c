/* test_collectives.c — every collective against the naive reference on
 * random data (1-, 2- and 3-axis meshes, every axis subset, 8 and 64
 * devices), bit-identical results for any thread count, the ledger, and
 * every vector of conformance/collectives.json. */
#include "support.h"

/* Internal on purpose: the naive reference collective (ss__coll_reference)
 * and its 16-bit conversions are what the threaded ones are checked against. */
#include "device/coll_internal.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

/* --- Harness: run one collective on a context, inputs by mesh position --- */

typedef struct job {
    const ss_coll *c;
    unsigned char **in, **out;
    size_t in_bytes, out_bytes;
} job;

static ss_status body(ss_device *dev, void *user)
{
    job *j = user;
    int p = ss_mesh_position_of(j->c->mesh, ss_device_id(dev));
    if (p < 0)
        return SS_OK;
    ss_context *ctx = ss_device_context(dev);
    int id = ss_device_id(dev);
    void *in, *out;
    ss_status st = ss_device_alloc(ctx, id, j->in_bytes, "in", &in);
    if (st)
        return st;
    st = ss_device_alloc(ctx, id, j->out_bytes, "out", &out);
    if (st) {
        ss_device_free(ctx, id, in);
        return st;
    }
    memcpy(in, j->in[p], j->in_bytes);
    st = ss_device_collective(dev, j->c, in, out);
    memcpy(j->out[p], out, j->out_bytes);
    ss_device_free(ctx, id, in);
    ss_device_free(ctx, id, out);
    return st;
}

static unsigned rng_state = 12345u;

static unsigned rnd(void)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return rng_state >> 8;
}

static void fill_random(ss_dtype dt, unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        switch (dt) {
        case SS_F32: {
            float v = (float)((int)(rnd() % 20001) - 10000) / 97.0f;
            memcpy(p + i * 4, &v, 4);
            break;
        }
        case SS_I32: {
            int32_t v = (int32_t)rnd() - (int32_t)(1 << 23);
            memcpy(p + i * 4, &v, 4);
            break;
        }
        case SS_BF16: {
            float v = (float)((int)(rnd() % 2001) - 1000) / 7.0f;
            uint16_t h = ss__f32_to_bf16(v);
            memcpy(p + i * 2, &h, 2);
            break;
        }
#ifdef SS__HAVE_F16
        case SS_F16: {
            /* Finite values only: NaN payloads are not portable (an
             * addition of two NaNs may keep either operand's). */
            float v = (float)((int)(rnd() % 2001) - 1000) / 7.0f;
            uint16_t h = ss__f32_to_f16(v);
            memcpy(p + i * 2, &h, 2);
            break;
        }
#endif
        case SS_F64: {
            double v = (double)((int)(rnd() % 200001) - 100000) / 97.0;
            memcpy(p + i * 8, &v, 8);
            break;
        }
        default:
            for (size_t b = 0; b < ss_dtype_size(dt); b++)
                p[i * ss_dtype_size(dt) + b] = (unsigned char)rnd();
        }
    }
}

/* Run `c` threaded and with the reference; assert identical bytes. */
static void check_against_reference(ss_context *ctx, const ss_coll *c)
{
    ss_dtype odt;
    int orank;
    int64_t oshape[SS_MAX_RANK];
    cr_assert_eq(ss_coll_output(c, &odt, &orank, oshape), SS_OK, "%s", ss_error_message());
    int n = ss_mesh_device_count(c->mesh);
    job j = {.c = c};
    j.in_bytes = ss__shape_elems(c->rank, c->shape) * ss_dtype_size(c->dtype);
    j.out_bytes = ss__shape_elems(orank, oshape) * ss_dtype_size(odt);
    j.in = calloc((size_t)n, sizeof *j.in);
    j.out = calloc((size_t)n, sizeof *j.out);
    unsigned char **ref = calloc((size_t)n, sizeof *ref);
    for (int p = 0; p < n; p++) {
        j.in[p] = malloc(j.in_bytes + 1);
        j.out[p] = calloc(1, j.out_bytes + 1);
        ref[p] = calloc(1, j.out_bytes + 1);
        fill_random(c->dtype, j.in[p], j.in_bytes / ss_dtype_size(c->dtype));
    }
    cr_assert_eq(ss__coll_reference(c, (const void *const *)j.in, (void *const *)ref), SS_OK);
    ss_status st = ss_context_run(ctx, body, &j);
    char what[256];
    ss__coll_describe(c, what, sizeof what);
    cr_assert_eq(st, SS_OK, "%s: %s", what, ss_error_message());
    for (int p = 0; p < n; p++)
        cr_assert(memcmp(j.out[p], ref[p], j.out_bytes) == 0,
                  "%s (tiled %d, axis %d, split %d, concat %d): position %d differs", what,
                  c->tiled, c->axis, c->split_axis, c->concat_axis, p);
    for (int p = 0; p < n; p++) {
        free(j.in[p]);
        free(j.out[p]);
        free(ref[p]);
    }
    free(j.in);
    free(j.out);
    free(ref);
}

static ss_context *make_ctx(int n, int threads)
{
    ss_context_options o = {.ndevices = n, .device_memory = (size_t)64 << 20, .threads = threads,
                            .timeout = 20};
    ss_context *ctx;
    cr_assert_eq(ss_context_create(&o, &ctx), SS_OK, "%s", ss_error_message());
    return ctx;
}

/* Every collective flavour over the axes `axes` of `m`. */
static void sweep_axes(ss_context *ctx, const ss_mesh *m, const char *axes)
{
    ss_coll c;
    int G;
    cr_assert_eq(ss_coll_init(&c, SS_COLL_ALL_REDUCE, m, axes, SS_F32, 0, NULL), SS_OK);
    cr_assert_eq(ss__coll_group_size(&c, &G), SS_OK, "%s", ss_error_message());
    static const ss_dtype dts[] = {SS_F32, SS_I32, SS_BF16, SS_F16, SS_F64, SS_I64, SS_I8,
                                   SS_U8, SS_I16, SS_U16, SS_U32, SS_U64};
    for (size_t t = 0; t < sizeof dts / sizeof dts[0]; t++)
        for (int op = SS_REDUCE_SUM; op <= SS_REDUCE_MEAN; op++) {
            ss_coll_init(&c, SS_COLL_ALL_REDUCE, m, axes, dts[t], 2, (int64_t[]){3, 5 * G + 1});
            c.op = (ss_reduce_op)op;
            check_against_reference(ctx, &c);
        }
    for (int tiled = 0; tiled < 2; tiled++) {
        for (int axis = -1; axis <= 1; axis++) {
            ss_coll_init(&c, SS_COLL_ALL_GATHER, m, axes, SS_I32, 2, (int64_t[]){2, 3});
            c.tiled = tiled;
            c.axis = axis;
            check_against_reference(ctx, &c);
        }
        for (int axis = 0; axis < 2; axis++) {
            int64_t shape[2] = {3, 5};
            shape[axis] = tiled ? 2 * G : G;
            ss_coll_init(&c, SS_COLL_REDUCE_SCATTER, m, axes, SS_F32, 2, shape);
            c.tiled = tiled;
            c.axis = axis;
            check_against_reference(ctx, &c);
        }
        for (int split = 0; split < 2; split++)
            for (int concat = 0; concat < 2; concat++) {
                int64_t shape[2] = {3, 2};
                shape[split] = tiled ? 2 * G : G;
                ss_coll_init(&c, SS_COLL_ALL_TO_ALL, m, axes, SS_I32, 2, shape);
                c.tiled = tiled;
                c.split_axis = split;
                c.concat_axis = concat;
                check_against_reference(ctx, &c);
            }
    }
    int pairs[SS_MAX_DEVICES][2];
    for (int i = 0; i < G; i++) {
        pairs[i][0] = i;
        pairs[i][1] = (i + 1) % G;
    }
    ss_coll_init(&c, SS_COLL_PERMUTE, m, axes, SS_F32, 1, (int64_t[]){7});
    c.pairs = (const int(*)[2])pairs;
    c.npairs = G;
    check_against_reference(ctx, &c);
    c.npairs = G > 1 ? G - 1 : 1; /* the last target gets zeros */
    check_against_reference(ctx, &c);
    ss_coll_init(&c, SS_COLL_BROADCAST, m, axes, SS_I32, 1, (int64_t[]){9});
    c.root = G - 1;
    check_against_reference(ctx, &c);
}

/* Every non-empty subset of the mesh axes, in mesh order and reversed. */
static void sweep_mesh(const char *mesh_text, int n)
{
    ss_context *ctx = make_ctx(n, 0);
    ss_mesh *m;
    cr_assert_eq(ss_mesh_parse(mesh_text, n, NULL, &m), SS_OK, "%s", ss_error_message());
    int na = ss_mesh_axis_count(m);
    for (unsigned mask = 1; mask < (1u << na); mask++) {
        char fwd[128] = "", rev[128] = "";
        int k = 0;
        for (int a = 0; a < na; a++)
            if (mask >> a & 1u) {
                char t[128];
                snprintf(t, sizeof t, "%s%s%s", fwd, k ? "," : "", ss_mesh_axis_name(m, a));
                strcpy(fwd, t);
                snprintf(t, sizeof t, "%s%s%s", ss_mesh_axis_name(m, a), k ? "," : "", rev);
                strcpy(rev, t);
                k++;
            }
        sweep_axes(ctx, m, fwd);
        if (k > 1)
            sweep_axes(ctx, m, rev);
    }
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
}

Test(collectives, reference_1axis_8) { sweep_mesh("x=8", 8); }
Test(collectives, reference_2axis_8) { sweep_mesh("x=2,y=4", 8); }
Test(collectives, reference_3axis_8) { sweep_mesh("x=2,y=2,z=2", 8); }
Test(collectives, reference_1axis_64, .timeout = 300) { sweep_mesh("x=64", 64); }
Test(collectives, reference_2axis_64, .timeout = 300) { sweep_mesh("x=8,y=8", 64); }
Test(collectives, reference_3axis_64, .timeout = 300) { sweep_mesh("x=4,y=2,z=8", 64); }

Test(collectives, mesh_smaller_than_context_and_permuted_ids)
{
    ss_context *ctx = make_ctx(8, 0);
    ss_mesh *m;
    int ids[4] = {2, 0, 3, 1};
    cr_assert_eq(ss_mesh_parse("a=2,b=2", 4, ids, &m), SS_OK);
    /* The mesh uses 4 of the context's 8 devices, in a permuted order. */
    sweep_axes(ctx, m, "a");
    sweep_axes(ctx, m, "b,a");
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
}

/* Same bits with 1, 2 and 64 compute threads. */
Test(collectives, deterministic_for_any_thread_count, .timeout = 120)
{
    static const int threads[] = {1, 2, 64};
    unsigned char *first = NULL;
    size_t bytes = 0;
    for (int t = 0; t < 3; t++) {
        ss_context *ctx = make_ctx(64, threads[t]);
        cr_assert_eq(ss_context_thread_count(ctx), threads[t]);
        ss_mesh *m;
        ss_mesh_parse("x=8,y=8", 64, NULL, &m);
        ss_coll c;
        ss_coll_init(&c, SS_COLL_ALL_REDUCE, m, "y,x", SS_F32, 1, (int64_t[]){1000});
        job j = {.c = &c, .in_bytes = 4000, .out_bytes = 4000};
        j.in = calloc(64, sizeof *j.in);
        j.out = calloc(64, sizeof *j.out);
        rng_state = 99;
        for (int p = 0; p < 64; p++) {
            j.in[p] = malloc(4000);
            j.out[p] = malloc(4000);
            fill_random(SS_F32, j.in[p], 1000);
        }
        cr_assert_eq(ss_context_run(ctx, body, &j), SS_OK, "%s", ss_error_message());
        if (!first) {
            bytes = 4000;
            first = malloc(bytes * 64);
            for (int p = 0; p < 64; p++)
                memcpy(first + (size_t)p * bytes, j.out[p], bytes);
        } else {
            for (int p = 0; p < 64; p++)
                cr_assert(memcmp(first + (size_t)p * bytes, j.out[p], bytes) == 0,
                          "threads=%d: device %d differs", threads[t], p);
        }
        for (int p = 0; p < 64; p++) {
            free(j.in[p]);
            free(j.out[p]);
        }
        free(j.in);
        free(j.out);
        ss_mesh_destroy(m);
        ss_context_destroy(ctx);
    }
    free(first);
}

Test(collectives, ledger_counts_ring_bytes)
{
    ss_context *ctx = make_ctx(8, 0);
    ss_mesh *m;
    ss_mesh_parse("x=2,y=4", 8, NULL, &m);
    ss_coll c;
    ss_coll_init(&c, SS_COLL_ALL_REDUCE, m, "y", SS_F32, 1, (int64_t[]){1024});
    check_against_reference(ctx, &c);
    ss_coll_init(&c, SS_COLL_ALL_GATHER, m, "x", SS_F32, 1, (int64_t[]){1024});
    c.tiled = 1;
    check_against_reference(ctx, &c);
    cr_assert_eq(ss_context_ledger_count(ctx), 2);
    ss_coll_record r;
    cr_assert_eq(ss_context_ledger_get(ctx, 0, &r), SS_OK);
    cr_assert_eq(r.kind, SS_COLL_ALL_REDUCE);
    cr_assert_eq(r.naxes, 1);
    cr_assert_eq(r.axes[0], 1); /* 'y', the mesh's second axis */
    char axes[32];
    cr_assert_eq(ss_axes_repr(m, r.naxes, r.axes, axes, sizeof axes), SS_OK);
    cr_assert_str_eq(axes, "('y',)");
    cr_assert_eq(r.group_size, 4);
    cr_assert_eq(r.ngroups, 2);
    cr_assert_eq(r.bytes, 4096u);
    cr_assert_float_eq(r.sent, 2.0 * 3 / 4 * 4096, 1e-9);
    cr_assert_float_eq(r.busbw, r.algbw * 1.5, 1e-3 * r.algbw + 1e-9);
    cr_assert_eq(ss_context_ledger_get(ctx, 1, &r), SS_OK);
    cr_assert_eq(r.kind, SS_COLL_ALL_GATHER);
    cr_assert_eq(r.bytes, 8192u); /* the gathered output */
    cr_assert_float_eq(r.sent, 4096.0, 1e-9);
    cr_assert_eq(ss_context_ledger_get(ctx, 2, &r), SS_ERR_RANGE);
    ss_context_ledger_clear(ctx);
    cr_assert_eq(ss_context_ledger_count(ctx), 0);
    ss_mesh_destroy(m);
    ss_context_destroy(ctx);
}

Test(collectives, jax_error_messages)
{
    ss_mesh *m;
    ss_mesh_parse("x=4", 4, NULL, &m);
    ss_coll c;
    ss_coll_init(&c, SS_COLL_REDUCE_SCATTER, m, "x", SS_F32, 1, (int64_t[]){3});
    cr_assert_eq(ss_coll_output(&c, NULL, NULL, NULL), SS_ERR_INVALID);
    cr_assert_str_eq(ss_error_message(),
                     "reduce_scatter operand scatter dimension size 3 must match shard count 4");
    c.tiled = 1;
    cr_assert_eq(ss_coll_output(&c, NULL, NULL, NULL), SS_ERR_INVALID);
    cr_assert_str_eq(ss_error_message(), "tiled reduce_scatter operand scatter dimension size 3 "
                                         "must be divisible by shard_count 4");
    int pairs[2][2] = {{0, 1}, {2, 1}};
    ss_coll_init(&c, SS_COLL_PERMUTE, m, "x", SS_F32, 1, (int64_t[]){3});
    c.pairs = (const int(*)[2])pairs;
    c.npairs = 2;
    cr_assert_eq(ss_coll_output(&c, NULL, NULL, NULL), SS_ERR_INVALID);
    cr_assert_str_eq(ss_error_message(),
                     "ppermute sources and destinations must be unique, got ((0, 1), (2, 1)).");
    ss_coll_init(&c, SS_COLL_ALL_TO_ALL, m, "x", SS_F32, 2, (int64_t[]){3, 4});
    cr_assert_eq(ss_coll_output(&c, NULL, NULL, NULL), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "all_to_all requires the size of the mapped axis"));
    ss_coll_init(&c, SS_COLL_ALL_REDUCE, m, "z", SS_F32, 1, (int64_t[]){3});
    cr_assert_eq(ss_coll_output(&c, NULL, NULL, NULL), SS_ERR_AXIS);
    cr_assert(strstr(ss_error_message(), "unbound axis name: z"), "%s", ss_error_message());
    ss_coll_init(&c, SS_COLL_ALL_REDUCE, m, "x", SS_BOOL, 1, (int64_t[]){3});
    cr_assert_eq(ss_coll_output(&c, NULL, NULL, NULL), SS_ERR_UNSUPPORTED);
    ss_mesh_destroy(m);
}

/* --- conformance/collectives.json ---------------------------------------- */

static int parse_axes_json(const cJSON *axes, char *out, size_t cap)
{
    out[0] = '\0';
    const cJSON *a;
    int k = 0;
    cJSON_ArrayForEach(a, axes)
    {
        size_t len = strlen(out);
        snprintf(out + len, cap - len, "%s%s", k++ ? "," : "", a->valuestring);
    }
    return k;
}

static void run_conformance_case(const cJSON *cs)
{
    const char *name = cJSON_GetObjectItem(cs, "name")->valuestring;
    const char *opname = cJSON_GetObjectItem(cs, "op")->valuestring;
    int G = cJSON_GetObjectItem(cs, "axis_size")->valueint;
    const cJSON *args = cJSON_GetObjectItem(cs, "args");
    ss_mesh *m;
    char axes[128];
    if (cJSON_GetObjectItem(cs, "mesh_shape")) {
        m = ts_mesh_from_case(cs);
        parse_axes_json(cJSON_GetObjectItem(cs, "axes"), axes, sizeof axes);
    } else {
        cr_assert_eq(ss_mesh_create(1, (const char *[]){"i"}, (int64_t[]){G}, G, NULL, &m),
                     SS_OK);
        strcpy(axes, "i");
    }
    int n = ss_mesh_device_count(m);
    const cJSON *expected = cJSON_GetObjectItem(cs, "expected");
    const cJSON *jdt = cJSON_GetObjectItem(cs, "dtype");
    const cJSON *jidt = cJSON_GetObjectItem(cs, "input_dtype");
    ss_dtype odt_want, idt;
    cr_assert_eq(ss_dtype_parse(jdt->valuestring, &odt_want), SS_OK);
    cr_assert_eq(ss_dtype_parse(jidt ? jidt->valuestring : jdt->valuestring, &idt), SS_OK);

    if (strcmp(opname, "axis_index") == 0) {
        ss_coll c;
        ss_coll_init(&c, SS_COLL_ALL_REDUCE, m, axes, SS_I32, 0, NULL);
        for (int p = 0; p < n; p++) {
            int members[SS_MAX_DEVICES], size, rank;
            cr_assert_eq(ss_coll_group(&c, ss_mesh_device_id(m, p), members, SS_MAX_DEVICES,
                                       &size, &rank),
                         SS_OK);
            const cJSON *e = cJSON_GetArrayItem(expected, p);
            int want = cJSON_GetArrayItem(cJSON_GetObjectItem(e, "data"), 0)->valueint;
            cr_assert_eq(rank, want, "%s: device %d axis_index %d != %d", name, p, rank, want);
        }
        ss_mesh_destroy(m);
        return;
    }

    const cJSON *in0 = cJSON_GetArrayItem(cJSON_GetObjectItem(cs, "inputs"), 0);
    int64_t shape[SS_MAX_RANK];
    int rank = ts_ints(cJSON_GetObjectItem(in0, "shape"), shape, SS_MAX_RANK);
    ss_coll c;
    ss_coll_kind kind = SS_COLL_ALL_REDUCE;
    if (!strcmp(opname, "all_gather")) kind = SS_COLL_ALL_GATHER;
    else if (!strcmp(opname, "psum_scatter")) kind = SS_COLL_REDUCE_SCATTER;
    else if (!strcmp(opname, "all_to_all")) kind = SS_COLL_ALL_TO_ALL;
    else if (!strcmp(opname, "ppermute")) kind = SS_COLL_PERMUTE;
    else cr_assert(!strcmp(opname, "psum") || !strcmp(opname, "pmean"), "%s: op %s", name, opname);
    cr_assert_eq(ss_coll_init(&c, kind, m, axes, idt, rank, shape), SS_OK);
    if (!strcmp(opname, "pmean"))
        c.op = SS_REDUCE_MEAN;
    const cJSON *v;
    if ((v = cJSON_GetObjectItem(args, "tiled"))) c.tiled = cJSON_IsTrue(v);
    if ((v = cJSON_GetObjectItem(args, "axis"))) c.axis = v->valueint;
    if ((v = cJSON_GetObjectItem(args, "scatter_dimension"))) c.axis = v->valueint;
    if ((v = cJSON_GetObjectItem(args, "split_axis"))) c.split_axis = v->valueint;
    if ((v = cJSON_GetObjectItem(args, "concat_axis"))) c.concat_axis = v->valueint;
    int pairs[SS_MAX_DEVICES][2], groups[SS_MAX_DEVICES];
    if ((v = cJSON_GetObjectItem(args, "perm"))) {
        const cJSON *pr;
        cJSON_ArrayForEach(pr, v)
        {
            pairs[c.npairs][0] = cJSON_GetArrayItem(pr, 0)->valueint;
            pairs[c.npairs][1] = cJSON_GetArrayItem(pr, 1)->valueint;
            c.npairs++;
        }
        c.pairs = (const int(*)[2])pairs;
    }
    if ((v = cJSON_GetObjectItem(args, "axis_index_groups"))) {
        const cJSON *gr, *x;
        int k = 0;
        cJSON_ArrayForEach(gr, v)
        {
            c.group_size = 0;
            cJSON_ArrayForEach(x, gr)
            {
                groups[k++] = x->valueint;
                c.group_size++;
            }
            c.ngroups++;
        }
        c.index_groups = groups;
    }
    ss_dtype odt;
    int orank;
    int64_t oshape[SS_MAX_RANK];
    cr_assert_eq(ss_coll_output(&c, &odt, &orank, oshape), SS_OK, "%s: %s", name,
                 ss_error_message());
    cr_assert_eq(odt, odt_want, "%s: output dtype %s", name, ss_dtype_name(odt));

    job j = {.c = &c};
    j.in_bytes = ss__shape_elems(rank, shape) * 4;
    j.out_bytes = ss__shape_elems(orank, oshape) * 4;
    j.in = calloc((size_t)n, sizeof *j.in);
    j.out = calloc((size_t)n, sizeof *j.out);
    for (int p = 0; p < n; p++) {
        j.in[p] = calloc(1, j.in_bytes + 4);
        j.out[p] = calloc(1, j.out_bytes + 4);
        const cJSON *in = cJSON_GetArrayItem(cJSON_GetObjectItem(cs, "inputs"), p);
        int k = 0;
        cJSON_ArrayForEach(v, cJSON_GetObjectItem(in, "data"))
        {
            if (idt == SS_F32) {
                float f = (float)v->valuedouble;
                memcpy(j.in[p] + 4 * k, &f, 4);
            } else {
                int32_t t = (int32_t)v->valuedouble;
                memcpy(j.in[p] + 4 * k, &t, 4);
            }
            k++;
        }
    }
    ss_context *ctx = make_ctx(n, 0);
    cr_assert_eq(ss_context_run(ctx, body, &j), SS_OK, "%s: %s", name, ss_error_message());
    for (int p = 0; p < n; p++) {
        const cJSON *e = cJSON_GetArrayItem(expected, p);
        if (cJSON_IsNull(e))
            continue;
        int64_t es[SS_MAX_RANK];
        int er = ts_ints(cJSON_GetObjectItem(e, "shape"), es, SS_MAX_RANK);
        cr_assert_eq(er, orank, "%s: rank %d != %d", name, orank, er);
        for (int d = 0; d < er; d++)
            cr_assert_eq(oshape[d], es[d], "%s: dim %d: %lld != %lld", name, d,
                         (long long)oshape[d], (long long)es[d]);
        int k = 0;
        cJSON_ArrayForEach(v, cJSON_GetObjectItem(e, "data"))
        {
            if (odt == SS_F32) {
                float f;
                memcpy(&f, j.out[p] + 4 * k, 4);
                cr_assert(f == (float)v->valuedouble, "%s: device %d element %d: %g != %g",
                          name, p, k, (double)f, v->valuedouble);
            } else {
                int32_t t;
                memcpy(&t, j.out[p] + 4 * k, 4);
                cr_assert_eq(t, (int32_t)v->valuedouble, "%s: device %d element %d: %d != %d",
                             name, p, k, t, (int32_t)v->valuedouble);
            }
            k++;
        }
    }
    /* The reference agrees too. */
    unsigned char **ref = calloc((size_t)n, sizeof *ref);
    for (int p = 0; p < n; p++)
        ref[p] = calloc(1, j.out_bytes + 4);
    cr_assert_eq(ss__coll_reference(&c, (const void *const *)j.in, (void *const *)ref), SS_OK);
    for (int p = 0; p < n; p++) {
        cr_assert(memcmp(ref[p], j.out[p], j.out_bytes) == 0, "%s: reference differs at %d",
                  name, p);
        free(ref[p]);
        free(j.in[p]);
        free(j.out[p]);
    }
    free(ref);
    free(j.in);
    free(j.out);
    ss_context_destroy(ctx);
    ss_mesh_destroy(m);
}

Test(collectives, conformance_vectors)
{
    cJSON *cases = ts_load_json("conformance/collectives.json");
    int count = 0;
    const cJSON *cs;
    cJSON_ArrayForEach(cs, cases)
    {
        run_conformance_case(cs);
        count++;
    }
    cr_assert_eq(count, 20);
    cJSON_Delete(cases);
}
