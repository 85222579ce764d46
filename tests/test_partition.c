/* test_partition.c — the partitioned program end to end: every scenario's
 * forward pass (docs/gspmd.md section 7) runs on the virtual devices, its
 * outputs equal the single-device reference (ss_program_eval), its
 * collectives and bytes per device are GSPMD's, and the plan's peak memory
 * and ledger equal what the run measured. */
#include "support.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct expect_coll {
    ss_coll_kind kind;
    double sent; /* bytes per device */
} expect_coll;

static size_t value_elems(const ss_program *p, ss_value v)
{
    int rank;
    int64_t shape[SS_MAX_RANK];
    ss_value_shape(p, v, NULL, &rank, shape);
    size_t n = 1;
    for (int d = 0; d < rank; d++)
        n *= (size_t)shape[d];
    return n;
}

/* Compile and run `p` on its mesh's devices; compare with the reference;
 * compare plan and run; check the ledger against `want` (NULL: skip). */
/* Compile options for the next run_and_check (NULL: defaults). */
static const ss_compile_options *g_opts;

static void run_and_check(ss_program *p, int ndevices, const expect_coll *want, int nwant)
{
    ss_executable *e;
    TS_OK(g_opts ? ss_program_compile_with(p, g_opts, &e) : ss_program_compile(p, &e));
    int ni = ss_executable_input_count(e), no = ss_executable_output_count(e);
    void **ins = calloc((size_t)ni + 1, sizeof(void *));
    void **outs = calloc((size_t)no + 1, sizeof(void *)), **refs = calloc((size_t)no + 1,
                                                                          sizeof(void *));
    unsigned seed = 12345;
    for (int i = 0; i < ni; i++) {
        ss_value v;
        ss_executable_input(e, i, &v);
        size_t n = value_elems(p, v);
        float *x = malloc(n * sizeof *x);
        for (size_t k = 0; k < n; k++) {
            seed = seed * 1103515245u + 12345u;
            x[k] = (float)((seed >> 8) % 2001) / 1000.0f - 1.0f;
        }
        ins[i] = x;
    }
    for (int o = 0; o < no; o++) {
        ss_value v;
        ss_executable_output(e, o, &v);
        size_t n = value_elems(p, v);
        outs[o] = calloc(n, sizeof(float));
        refs[o] = calloc(n, sizeof(float));
    }
    TS_OK(ss_program_eval(p, (const void *const *)ins, refs));

    ss_context_options co = {.ndevices = ndevices, .device_memory = (size_t)256 << 20,
                             .timeout = 30};
    ss_context *ctx;
    TS_OK(ss_context_create(&co, &ctx));
    TS_OK(ss_executable_run(e, ctx, (const void *const *)ins, outs));

    for (int o = 0; o < no; o++) {
        ss_value v;
        ss_executable_output(e, o, &v);
        size_t n = value_elems(p, v);
        const float *a = outs[o], *b = refs[o];
        /* Normwise, 1e-4 of the largest magnitude: the run's dots accumulate
         * in f32 (sgemm), the reference's in double, and chains of layers
         * (S5, S10) amplify the difference; it scales with the largest
         * magnitude, not with each element. */
        float scale = 1.0f;
        for (size_t k = 0; k < n; k++)
            scale = fmaxf(scale, fabsf(b[k]));
        for (size_t k = 0; k < n; k++)
            cr_assert(fabsf(a[k] - b[k]) <= 1e-4f * scale,
                      "output %d element %zu: run %.7g, reference %.7g (scale %.3g)", o, k,
                      (double)a[k], (double)b[k], (double)scale);
    }

    /* plan == run: peak bytes on every device, and the ledger. */
    ss_plan plan;
    TS_OK(ss_executable_plan(e, &plan));
    for (int d = 0; d < ndevices; d++) {
        ss_memory_stats ms;
        TS_OK(ss_device_memory_stats(ctx, d, &ms));
        cr_assert_eq(ms.peak_bytes, plan.peak_bytes, "device %d peak %zu, plan %zu", d,
                     ms.peak_bytes, plan.peak_bytes);
        cr_assert_eq(ms.live_bytes, 0, "device %d leaks %zu bytes", d, ms.live_bytes);
    }
    int nl = ss_context_ledger_count(ctx);
    if (getenv("SS_TEST_VERBOSE")) {
        fprintf(stderr, "%d collectives, peak %zu B, %.0f B sent\n", nl, plan.peak_bytes,
                plan.sent_bytes);
        ss_executable_explain(e, stderr);
    }
    cr_assert_eq(nl, ss_executable_ledger_count(e), "run recorded %d collectives, plan %d", nl,
                 ss_executable_ledger_count(e));
    for (int k = 0; k < nl; k++) {
        ss_coll_record a, b;
        TS_OK(ss_context_ledger_get(ctx, k, &a));
        TS_OK(ss_executable_ledger_get(e, k, &b));
        cr_assert(a.kind == b.kind && a.sent == b.sent && a.bytes == b.bytes &&
                      a.naxes == b.naxes &&
                      memcmp(a.axes, b.axes, sizeof a.axes[0] * (size_t)a.naxes) == 0 &&
                      a.group_size == b.group_size,
                  "collective %d: run %s over %d axes %.0f B, plan %s over %d axes %.0f B", k,
                  ss_coll_kind_name(a.kind), a.naxes, a.sent, ss_coll_kind_name(b.kind), b.naxes,
                  b.sent);
    }
    if (want) {
        if (nl != nwant) {
            ss_executable_explain(e, stderr);
        }
        cr_assert_eq(nl, nwant, "%d collectives, GSPMD emits %d", nl, nwant);
        for (int k = 0; k < nl; k++) {
            ss_coll_record a;
            ss_context_ledger_get(ctx, k, &a);
            cr_assert(a.kind == want[k].kind && fabs(a.sent - want[k].sent) < 0.5,
                      "collective %d: %s %.1f B/device, expected %s %.1f B/device", k,
                      ss_coll_kind_name(a.kind), a.sent, ss_coll_kind_name(want[k].kind),
                      want[k].sent);
        }
    }
    ss_context_destroy(ctx);
    for (int i = 0; i < ni; i++)
        free(ins[i]);
    for (int o = 0; o < no; o++) {
        free(outs[o]);
        free(refs[o]);
    }
    free(ins);
    free(outs);
    free(refs);
    ss_executable_destroy(e);
}

Test(partition, s1_reduce_of_a_sharded_dim_all_reduces)
{
    ss_mesh *m = ts_make_mesh("x=4", 4);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('x')", 2, 16, 32), b = ts_input(p, "b", "P()", 1, 32);
    ss_value e, c2, y, c1, y1, y2, r0, r1;
    int ax0 = 0, ax1 = 1;
    TS_OK(ss_unary(p, SS_EXP, x, &e));
    TS_OK(ss_constant(p, 2.0, &c2));
    TS_OK(ss_binary(p, SS_MUL, e, c2, &y));
    TS_OK(ss_constant(p, 1.0, &c1));
    TS_OK(ss_binary(p, SS_ADD, y, c1, &y1));
    TS_OK(ss_binary(p, SS_ADD, y1, b, &y2));
    TS_OK(ss_reduce(p, SS_REDUCE_SUM, y2, 1, &ax0, 0, &r0));
    TS_OK(ss_reduce(p, SS_REDUCE_SUM, y2, 1, &ax1, 0, &r1));
    TS_OK(ss_output(p, r0, NULL));
    TS_OK(ss_output(p, r1, NULL));
    expect_coll want[] = {{SS_COLL_ALL_REDUCE, 192}};
    run_and_check(p, 4, want, 1);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(partition, s1_constrained_sharded_result_reduce_scatters)
{
    ss_mesh *m = ts_make_mesh("x=4", 4);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('x')", 2, 16, 32), r0;
    int ax0 = 0;
    TS_OK(ss_reduce(p, SS_REDUCE_SUM, x, 1, &ax0, 0, &r0));
    ss_spec s0 = ts_spec("P('x')");
    TS_OK(ss_output(p, r0, &s0));
    expect_coll want[] = {{SS_COLL_REDUCE_SCATTER, 96}};
    run_and_check(p, 4, want, 1);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(partition, s2_data_parallel_forward_and_loss)
{
    ss_mesh *m = ts_make_mesh("d=4", 4);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('d')", 2, 32, 64);
    ss_value w1 = ts_input(p, "W1", "P()", 2, 64, 128), w2 = ts_input(p, "W2", "P()", 2, 128, 64);
    ss_value a, h, y, loss;
    int both[2] = {0, 1};
    TS_OK(ss_matmul(p, x, w1, &a));
    TS_OK(ss_unary(p, SS_RELU, a, &h));
    TS_OK(ss_matmul(p, h, w2, &y));
    TS_OK(ss_reduce(p, SS_REDUCE_SUM, y, 2, both, 0, &loss));
    TS_OK(ss_output(p, loss, NULL));
    TS_OK(ss_output(p, y, NULL));
    expect_coll want[] = {{SS_COLL_ALL_REDUCE, 6}};
    run_and_check(p, 4, want, 1);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(partition, s3_megatron_row_parallel_all_reduces)
{
    ss_mesh *m = ts_make_mesh("m=4", 4);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P()", 2, 32, 64);
    ss_value w1 = ts_input(p, "W1", "P(None, 'm')", 2, 64, 256);
    ss_value w2 = ts_input(p, "W2", "P('m', None)", 2, 256, 64);
    ss_value a, h, y;
    TS_OK(ss_matmul(p, x, w1, &a));
    TS_OK(ss_unary(p, SS_GELU, a, &h));
    TS_OK(ss_matmul(p, h, w2, &y));
    TS_OK(ss_output(p, y, NULL));
    expect_coll want[] = {{SS_COLL_ALL_REDUCE, 12288}};
    run_and_check(p, 4, want, 1);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(partition, s4_sequence_parallel_gathers_then_reduce_scatters)
{
    ss_mesh *m = ts_make_mesh("m=4", 4);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('m')", 2, 32, 64);
    ss_value w1 = ts_input(p, "W1", "P(None, 'm')", 2, 64, 256);
    ss_value w2 = ts_input(p, "W2", "P('m', None)", 2, 256, 64);
    ss_value a, h, hc, y, yc;
    ss_spec s1 = ts_spec("P(None, 'm')"), s0 = ts_spec("P('m')");
    TS_OK(ss_matmul(p, x, w1, &a));
    TS_OK(ss_unary(p, SS_GELU, a, &h));
    TS_OK(ss_constrain(p, h, &s1, &hc));
    TS_OK(ss_matmul(p, hc, w2, &y));
    TS_OK(ss_constrain(p, y, &s0, &yc));
    TS_OK(ss_output(p, yc, NULL));
    expect_coll want[] = {{SS_COLL_ALL_GATHER, 6144}, {SS_COLL_REDUCE_SCATTER, 6144}};
    run_and_check(p, 4, want, 2);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(partition, s5_flax_dot_relu_dot_four_layers)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('data', None)", 2, 8, 1024);
    ss_spec dm = ts_spec("P('data', 'model')"), dn = ts_spec("P('data', None)");
    expect_coll want[4];
    for (int layer = 0; layer < 4; layer++) {
        char n1[16], n2[16];
        snprintf(n1, sizeof n1, "W1_%d", layer);
        snprintf(n2, sizeof n2, "W2_%d", layer);
        ss_value w1 = ts_input(p, n1, "P(None, 'model')", 2, 1024, 1024);
        ss_value w2 = ts_input(p, n2, "P('model', None)", 2, 1024, 1024);
        ss_value a, y, yc, z;
        TS_OK(ss_matmul(p, x, w1, &a));
        TS_OK(ss_unary(p, SS_RELU, a, &y));
        TS_OK(ss_constrain(p, y, &dm, &yc));
        TS_OK(ss_matmul(p, yc, w2, &z));
        TS_OK(ss_constrain(p, z, &dn, &x));
        want[layer] = (expect_coll){SS_COLL_ALL_REDUCE, 24576};
    }
    TS_OK(ss_output(p, x, NULL));
    run_and_check(p, 8, want, 4);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(partition, s6_fsdp_gathers_the_weights)
{
    ss_mesh *m = ts_make_mesh("d=4", 4);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('d')", 2, 512, 64);
    ss_value w1 = ts_input(p, "W1", "P('d')", 2, 64, 128), w2 = ts_input(p, "W2", "P('d')", 2, 128, 64);
    ss_value a, h, y;
    TS_OK(ss_matmul(p, x, w1, &a));
    TS_OK(ss_unary(p, SS_RELU, a, &h));
    TS_OK(ss_matmul(p, h, w2, &y));
    TS_OK(ss_output(p, y, NULL));
    expect_coll want[] = {{SS_COLL_ALL_GATHER, 24576}, {SS_COLL_ALL_GATHER, 24576}};
    run_and_check(p, 4, want, 2);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(partition, s7_heads_sharded_attention)
{
    ss_mesh *m = ts_make_mesh("m=4", 4);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P()", 3, 2, 16, 64);
    ss_value wq = ts_input(p, "Wq", "P(None, 'm')", 3, 64, 8, 8);
    ss_value wk = ts_input(p, "Wk", "P(None, 'm')", 3, 64, 8, 8);
    ss_value wv = ts_input(p, "Wv", "P(None, 'm')", 3, 64, 8, 8);
    ss_value wo = ts_input(p, "Wo", "P('m')", 3, 8, 8, 64);
    ss_value w[4] = {wq, wk, wv, wo}, a[5];
    ts_attention(p, x, w, a);
    TS_OK(ss_output(p, a[4], NULL));
    expect_coll want[] = {{SS_COLL_ALL_REDUCE, 12288}};
    run_and_check(p, 4, want, 1);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(partition, s8_sequence_parallel_attention_gathers_k_and_v)
{
    ss_mesh *m = ts_make_mesh("sp=4", 4);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value q = ts_input(p, "q", "P(None, 'sp')", 4, 1, 64, 2, 16);
    ss_value k = ts_input(p, "k", "P(None, 'sp')", 4, 1, 64, 2, 16);
    ss_value v = ts_input(p, "v", "P(None, 'sp')", 4, 1, 64, 2, 16);
    ss_value s, pr, o;
    TS_OK(ss_einsum(p, "bqhd,bkhd->bhqk", q, k, &s));
    TS_OK(ss_softmax(p, s, -1, &pr));
    TS_OK(ss_einsum(p, "bhqk,bkhd->bqhd", pr, v, &o));
    ss_spec s1 = ts_spec("P(None, 'sp')");
    TS_OK(ss_output(p, o, &s1));
    expect_coll want[] = {{SS_COLL_ALL_GATHER, 6144}, {SS_COLL_ALL_GATHER, 6144}};
    run_and_check(p, 4, want, 2);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(partition, s9_expert_parallel_all_to_alls)
{
    ss_mesh *m = ts_make_mesh("e=4", 4);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('e')", 3, 4, 16, 32);
    ss_value mask = ts_input(p, "m", "P('e')", 4, 4, 16, 4, 8);
    ss_value win = ts_input(p, "Win", "P('e')", 3, 4, 32, 64);
    ss_value wout = ts_input(p, "Wout", "P('e')", 3, 4, 64, 32);
    ss_value d, dc, h, hr, o, oc, y;
    ss_spec e0 = ts_spec("P('e')"), e1 = ts_spec("P(None, 'e')");
    TS_OK(ss_einsum(p, "gsec,gsd->egcd", mask, x, &d));
    TS_OK(ss_constrain(p, d, &e0, &dc));
    TS_OK(ss_einsum(p, "egcd,edh->egch", dc, win, &h));
    TS_OK(ss_unary(p, SS_RELU, h, &hr));
    TS_OK(ss_einsum(p, "egch,ehd->egcd", hr, wout, &o));
    TS_OK(ss_constrain(p, o, &e1, &oc));
    TS_OK(ss_einsum(p, "gsec,egcd->gsd", mask, oc, &y));
    TS_OK(ss_output(p, y, NULL));
    expect_coll want[] = {{SS_COLL_ALL_TO_ALL, 3072}, {SS_COLL_ALL_TO_ALL, 3072}};
    run_and_check(p, 4, want, 2);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(partition, s12_reshard_gauntlet_through_constraints)
{
    /* docs/gspmd.md S12 on mesh (x=2, y=2), A f32[8,8]: each step is an
     * input laid out as the step's source and a constraint to its target. */
    static const char *const steps[][2] = {
        {"P(('x','y'))", "P(None, ('x','y'))"}, /* 1: all-to-all, 48 B */
        {"P('x','y')", "P('y','x')"},           /* 2: permute, 64 B (1 and 2 send) */
        {"P('x')", "P('x','y')"},               /* 3: dynamic slice, no traffic */
        {"P('x','y')", "P('x')"},               /* 4: all-gather, 64 B */
        {"P('x','y')", "P()"},                  /* 5: all-gather, 192 B */
        {"P(('x','y'))", "P('x','y')"},         /* 6: all-to-all in pairs, 32 B */
    };
    ss_mesh *m = ts_make_mesh("x=2,y=2", 4);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
        char name[8];
        snprintf(name, sizeof name, "A%zu", k + 1);
        ss_value a = ts_input(p, name, steps[k][0], 2, 8, 8), b;
        ss_spec t = ts_spec(steps[k][1]);
        TS_OK(ss_constrain(p, a, &t, &b));
        TS_OK(ss_output(p, b, NULL));
    }
    expect_coll want[] = {{SS_COLL_ALL_TO_ALL, 48}, {SS_COLL_PERMUTE, 64},
                          {SS_COLL_ALL_GATHER, 64}, {SS_COLL_ALL_GATHER, 192},
                          {SS_COLL_ALL_TO_ALL, 32}};
    run_and_check(p, 4, want, 5);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(partition, explain_names_each_op)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('data', None)", 2, 8, 64);
    ss_value w1 = ts_input(p, "W1", "P(None, 'model')", 2, 64, 64);
    ss_value w2 = ts_input(p, "W2", "P('model', None)", 2, 64, 64);
    ss_value y, z;
    TS_OK(ss_matmul(p, x, w1, &y));
    TS_OK(ss_matmul(p, y, w2, &z));
    TS_OK(ss_output(p, z, NULL));
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ss_executable_explain(e, f);
    fclose(f);
    cr_assert(strstr(text, "%3 = dot_general(%0 P('data', None), %1 P(None, 'model')) -> "
                           "P('data', 'model'): local, no communication"),
              "%s", text);
    cr_assert(strstr(text, "%4 = dot_general(") && strstr(text, "all_reduce over ('model',)"),
              "%s", text);
    free(text);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* --- Random programs ----------------------------------------------------- */

static unsigned rnd(unsigned *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* A random spec for a value of `rank` dims over the mesh's axes: each axis
 * goes to a random dim or stays unused; tuples happen when two land on one
 * dim. Dims are multiples of 8, so every mesh here divides them. */
static ss_spec random_spec(const ss_mesh *m, int rank, unsigned *s)
{
    ss_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.ndims = rank;
    for (int a = 0; a < ss_mesh_axis_count(m); a++) {
        int d = (int)(rnd(s) % (unsigned)(rank + 1)) - 1;
        if (d < 0)
            continue;
        ss_spec_dim *e = &spec.dims[d];
        e->axes[e->naxes++] = ss_mesh_axis_name(m, a);
    }
    return spec;
}

static ss_value random_value(ss_program *p, const ss_mesh *m, unsigned *s, int rank,
                             const int64_t shape[], int *ninputs)
{
    char name[16];
    snprintf(name, sizeof name, "in%d", (*ninputs)++);
    ss_spec spec = random_spec(m, rank, s);
    ss_value v;
    TS_OK(ss_input(p, name, SS_F32, rank, shape, rnd(s) % 4 ? &spec : NULL, &v));
    return v;
}

/* Build a random chain of ops on 2-D values of shape [16, 8k]. */
static void random_program(ss_program *p, const ss_mesh *m, unsigned seed)
{
    unsigned s = seed;
    int nin = 0;
    int64_t shape[2] = {16, 32};
    ss_value x = random_value(p, m, &s, 2, shape, &nin);
    int steps = 4 + (int)(rnd(&s) % 6);
    for (int k = 0; k < steps; k++) {
        int rank;
        int64_t sh[SS_MAX_RANK];
        ss_value_shape(p, x, NULL, &rank, sh);
        switch (rnd(&s) % 8) {
        case 0: TS_OK(ss_unary(p, (ss_unary_op)(rnd(&s) % 2 ? SS_TANH : SS_RELU), x, &x)); break;
        case 1: {
            ss_value y = random_value(p, m, &s, rank, sh, &nin);
            TS_OK(ss_binary(p, (ss_binary_op)(rnd(&s) % 3), x, y, &x));
            break;
        }
        case 2: {
            int64_t wsh[2] = {sh[rank - 1], 8 * (1 + (int64_t)(rnd(&s) % 4))};
            ss_value w = random_value(p, m, &s, 2, wsh, &nin);
            TS_OK(ss_matmul(p, x, w, &x));
            break;
        }
        case 3:
            if (rank == 2) {
                int perm[2] = {1, 0};
                TS_OK(ss_transpose(p, x, perm, &x));
            }
            break;
        case 4: {
            ss_spec spec = random_spec(m, rank, &s);
            TS_OK(ss_constrain(p, x, &spec, &x));
            break;
        }
        case 5:
            if (rank == 2) {
                int64_t flat[1] = {sh[0] * sh[1]};
                TS_OK(ss_reshape(p, x, 1, flat, &x));
            } else if (rank == 1 && sh[0] % 16 == 0) {
                int64_t two[2] = {16, sh[0] / 16};
                TS_OK(ss_reshape(p, x, 2, two, &x));
            }
            break;
        case 6: {
            int ax = (int)(rnd(&s) % (unsigned)rank);
            ss_value r;
            TS_OK(ss_reduce(p, rnd(&s) % 2 ? SS_REDUCE_SUM : SS_REDUCE_MAX, x, 1, &ax, 1, &r));
            TS_OK(ss_binary(p, SS_SUB, x, r, &x));
            break;
        }
        case 7:
            TS_OK(ss_softmax(p, x, -1, &x));
            break;
        }
    }
    TS_OK(ss_output(p, x, NULL));
}

Test(partition, random_programs_equal_the_single_device_run, .timeout = 120)
{
    static const char *const meshes[] = {"x=4", "x=2,y=2", "a=2,b=4", "a=2,b=2,c=2", "x=8"};
    static const int counts[] = {4, 4, 8, 8, 8};
    for (unsigned seed = 1; seed <= 60; seed++) {
        int mi = (int)(seed % 5);
        ss_mesh *m = ts_make_mesh(meshes[mi], counts[mi]);
        ss_program *p;
        TS_OK(ss_program_create(m, &p));
        random_program(p, m, seed * 7919u);
        run_and_check(p, counts[mi], NULL, 0);
        ss_program_destroy(p);
        ss_mesh_destroy(m);
    }
}

/* --- shard_map ----------------------------------------------------------- */

Test(partition, shard_map_psum_matches_the_jax_reference_vector)
{
    /* docs/semantics.md 8.1: blocks [3,1,4,1] [5,9,2,6] [5,3,5,8] [9,7,1,2]
     * on 4 devices, psum over 'i', out_specs P() -> [22 20 12 17]. */
    ss_mesh *m = ts_make_mesh("i=4", 4);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", NULL, 1, 16), xl, s, out;
    ss_spec pi = ts_spec("P('i')"), rep = ts_spec("P()");
    TS_OK(ss_shard_map_begin(p, 1, &x, &pi, &xl));
    TS_OK(ss_psum(p, xl, "i", SS_REDUCE_SUM, &s));
    TS_OK(ss_shard_map_end(p, 1, &s, &rep, &out));
    TS_OK(ss_output(p, out, NULL));
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    float xs[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 1, 2}, got[4], ref[4];
    const void *ins[1] = {xs};
    void *outs[1] = {got}, *refs[1] = {ref};
    ss_context_options co = {.ndevices = 4, .device_memory = (size_t)64 << 20};
    ss_context *ctx;
    TS_OK(ss_context_create(&co, &ctx));
    TS_OK(ss_executable_run(e, ctx, ins, outs));
    TS_OK(ss_program_eval(p, ins, refs));
    float want[4] = {22, 20, 12, 17};
    for (int k = 0; k < 4; k++) {
        cr_assert_eq(got[k], want[k], "run [%d] = %g", k, (double)got[k]);
        cr_assert_eq(ref[k], want[k], "reference [%d] = %g", k, (double)ref[k]);
    }
    ss_context_destroy(ctx);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(partition, axis_index_is_each_devices_coordinate)
{
    /* On the 2x4 ('data', 'model') mesh, out = x * axis_index('model') +
     * axis_index(('data', 'model')) with x = ones[8, 3] split over both
     * axes: device (d, m) holds row 4 d + m, equal to m + (4 d + m), from
     * the mesh coordinates, on the devices and in the reference; the index
     * costs no collective. Outside a region it is JAX's error. */
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", NULL, 2, 8, 3), xl, i, j, t, r, out, bad;
    cr_assert_eq(ss_axis_index(p, "model", &bad), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "Found an unbound axis name: model"), "%s",
              ss_error_message());
    ss_spec both = ts_spec("P(('data', 'model'))");
    TS_OK(ss_shard_map_begin(p, 1, &x, &both, &xl));
    TS_OK(ss_axis_index(p, "model", &i));
    TS_OK(ss_axis_index(p, "('data', 'model')", &j));
    int nvals = ss_program_value_count(p);
    cr_assert_neq(ss_axis_index(p, "nope", &bad), SS_OK);
    cr_assert(strstr(ss_error_message(), "axis_index: ") && strstr(ss_error_message(), "nope"),
              "%s", ss_error_message());
    cr_assert_eq(ss_program_value_count(p), nvals, "a failed axis_index left values behind");
    TS_OK(ss_binary(p, SS_MUL, xl, i, &t));
    TS_OK(ss_binary(p, SS_ADD, t, j, &r));
    TS_OK(ss_shard_map_end(p, 1, &r, &both, &out));
    TS_OK(ss_output(p, out, NULL));
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    cr_assert_eq(ss_executable_ledger_count(e), 0);
    float xs[24], got[24], ref[24];
    for (int k = 0; k < 24; k++)
        xs[k] = 1.0f;
    const void *ins[1] = {xs};
    void *outs[1] = {got}, *refs[1] = {ref};
    ss_context_options co = {.ndevices = 8, .device_memory = (size_t)64 << 20};
    ss_context *ctx;
    TS_OK(ss_context_create(&co, &ctx));
    TS_OK(ss_executable_run(e, ctx, ins, outs));
    TS_OK(ss_program_eval(p, ins, refs));
    for (int row = 0; row < 8; row++) { /* row = 4 * data + model */
        int64_t c[2];
        ss_mesh_coords(m, row, c);
        float want = (float)c[1] + (float)(4 * c[0] + c[1]);
        for (int k = 0; k < 3; k++) {
            cr_assert_eq(got[row * 3 + k], want, "row %d: %g, want %g", row,
                         (double)got[row * 3 + k], (double)want);
            cr_assert_eq(ref[row * 3 + k], want, "reference row %d", row);
        }
    }
    ss_context_destroy(ctx);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(partition, s10_pipeline_with_ppermute)
{
    /* GPipe over 4 stages, 4 microbatches of [8,64], 7 ticks; stage 0's
     * block of `inject` holds microbatch t at tick t, the others zeros. */
    ss_mesh *m = ts_make_mesh("pp=4", 4);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value w = ts_input(p, "W", "P('pp')", 3, 4, 64, 64);
    ss_value inj = ts_input(p, "inject", "P('pp')", 4, 4, 7, 8, 64);
    ss_value ins[2] = {w, inj}, loc[2], outs[1];
    ss_spec specs[2] = {ts_spec("P('pp')"), ts_spec("P('pp')")};
    TS_OK(ss_shard_map_begin(p, 2, ins, specs, loc));
    int64_t wsh[2] = {64, 64}, tick_sh[2] = {8, 64}, one_sh[4] = {1, 1, 8, 64};
    ss_value ws, state = -1, z, states[7];
    TS_OK(ss_reshape(p, loc[0], 2, wsh, &ws));
    TS_OK(ss_constant(p, 0.0, &z));
    int pairs[4][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
    for (int t = 0; t < 7; t++) {
        int64_t start[4] = {0, t, 0, 0}, limit[4] = {1, t + 1, 8, 64};
        ss_value xt, h, a;
        TS_OK(ss_slice(p, loc[1], start, limit, &xt));
        TS_OK(ss_reshape(p, xt, 2, tick_sh, &xt));
        if (state < 0) {
            state = xt;
        } else {
            TS_OK(ss_binary(p, SS_ADD, state, xt, &state));
        }
        TS_OK(ss_matmul(p, state, ws, &a));
        TS_OK(ss_unary(p, SS_TANH, a, &h));
        TS_OK(ss_ppermute(p, h, "pp", 4, (const int(*)[2])pairs, &state));
        TS_OK(ss_reshape(p, state, 4, one_sh, &states[t]));
    }
    ss_value all;
    TS_OK(ss_concatenate(p, 7, states, 1, &all));
    ss_spec out_spec = ts_spec("P('pp')");
    TS_OK(ss_shard_map_end(p, 1, &all, &out_spec, outs));
    TS_OK(ss_output(p, outs[0], NULL));
    expect_coll want[7];
    for (int t = 0; t < 7; t++)
        want[t] = (expect_coll){SS_COLL_PERMUTE, 2048};
    run_and_check(p, 4, want, 7);
    (void)z;
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(partition, shard_map_errors)
{
    ss_mesh *m = ts_make_mesh("i=4", 4);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", NULL, 1, 32), y = ts_input(p, "y", NULL, 1, 6), x8 = ts_input(p, "x8", NULL, 1, 8);
    ss_value xl, r;
    cr_assert_eq(ss_psum(p, x, "i", SS_REDUCE_SUM, &r), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "Found an unbound axis name: i."), "%s",
              ss_error_message());
    ss_spec pi = ts_spec("P('i')");
    cr_assert_eq(ss_shard_map_begin(p, 1, &y, &pi, &xl), SS_ERR_INDIVISIBLE);
    TS_OK(ss_shard_map_begin(p, 1, &x, &pi, &xl));
    cr_assert_eq(ss_binary(p, SS_ADD, xl, x8, &r), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "outside the shard_map region"), "%s",
              ss_error_message());
    cr_assert_eq(ss_psum_scatter(p, xl, "i", 0, 0, &r), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "reduce_scatter operand scatter dimension size 8 must "
                                         "match shard count 4"),
              "%s", ss_error_message());
    cr_assert_eq(ss_output(p, xl, NULL), SS_ERR_INVALID);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* --- scan ---------------------------------------------------------------- */

typedef struct layer_specs {
    ss_spec dm, dn;
} layer_specs;

static ss_status dot_relu_dot(ss_program *p, const ss_value carry[], const ss_value xs[],
                              ss_value next[], ss_value ys[], void *user)
{
    layer_specs *ls = user;
    ss_value a, y, yc, z;
    ss_status st = ss_matmul(p, carry[0], xs[0], &a);
    if (!st)
        st = ss_unary(p, SS_RELU, a, &y);
    if (!st)
        st = ss_constrain(p, y, &ls->dm, &yc);
    if (!st)
        st = ss_matmul(p, yc, xs[1], &z);
    if (!st)
        st = ss_constrain(p, z, &ls->dn, &next[0]);
    if (!st)
        ys[0] = next[0];
    return st;
}

Test(partition, scan_over_stacked_layers_is_the_flax_guide)
{
    /* nn.scan over 4 DotReluDot layers with stacked params (the guide's
     * MLP): per layer one all-reduce over 'model' of the local [4,1024]. */
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('data', None)", 2, 8, 1024);
    ss_value w1 = ts_input(p, "W1", "P(None, None, 'model')", 3, 4, 1024, 1024);
    ss_value w2 = ts_input(p, "W2", "P(None, 'model', None)", 3, 4, 1024, 1024);
    layer_specs ls = {ts_spec("P('data', 'model')"), ts_spec("P('data', None)")};
    ss_value xs[2] = {w1, w2}, out, ys;
    TS_OK(ss_scan(p, dot_relu_dot, &ls, -1, 1, &x, 2, xs, 1, &out, &ys));
    TS_OK(ss_output(p, out, NULL));
    TS_OK(ss_output(p, ys, NULL));
    int rank;
    int64_t shape[SS_MAX_RANK];
    ss_value_shape(p, ys, NULL, &rank, shape);
    cr_assert(rank == 3 && shape[0] == 4 && shape[1] == 8 && shape[2] == 1024);
    expect_coll want[4];
    for (int k = 0; k < 4; k++)
        want[k] = (expect_coll){SS_COLL_ALL_REDUCE, 24576};
    run_and_check(p, 8, want, 4);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

static ss_status double_it(ss_program *p, const ss_value carry[], const ss_value xs[],
                           ss_value next[], ss_value ys[], void *user)
{
    (void)xs;
    (void)ys;
    (void)user;
    return ss_binary(p, SS_ADD, carry[0], carry[0], &next[0]);
}

Test(partition, scan_errors_and_repetition)
{
    ss_mesh *m = ts_make_mesh("x=4", 4);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('x')", 1, 8), out;
    cr_assert_eq(ss_scan(p, double_it, NULL, -1, 1, &x, 0, NULL, 0, &out, NULL), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "a length >= 1 is needed"), "%s", ss_error_message());
    TS_OK(ss_scan(p, double_it, NULL, 5, 1, &x, 0, NULL, 0, &out, NULL));
    TS_OK(ss_output(p, out, NULL));
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    float xs[8] = {1, 2, 3, 4, 5, 6, 7, 8}, got[8];
    const void *ins[1] = {xs};
    void *outs[1] = {got};
    ss_context_options co = {.ndevices = 4, .device_memory = (size_t)64 << 20};
    ss_context *ctx;
    TS_OK(ss_context_create(&co, &ctx));
    TS_OK(ss_executable_run(e, ctx, ins, outs));
    for (int k = 0; k < 8; k++)
        cr_assert_eq(got[k], xs[k] * 32.0f);
    cr_assert_eq(ss_context_ledger_count(ctx), 0, "repetition on local shards moves nothing");
    ss_context_destroy(ctx);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* --- Device-resident runs ------------------------------------------------ */

Test(partition, run_arrays_keeps_data_on_devices_and_donates)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('data', None)", 2, 8, 16);
    ss_value w = ts_input(p, "w", "P(None, 'model')", 2, 16, 32);
    ss_value y, two, w2;
    TS_OK(ss_matmul(p, x, w, &y));
    TS_OK(ss_constant(p, 2.0, &two));
    TS_OK(ss_binary(p, SS_MUL, w, two, &w2));
    TS_OK(ss_output(p, y, NULL));
    TS_OK(ss_output(p, w2, NULL));
    TS_OK(ss_output(p, x, NULL)); /* an undonated input returned unchanged */
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    float hx[8 * 16], hw[16 * 32], ry[8 * 32], rw[16 * 32], rx[8 * 16];
    for (int k = 0; k < 8 * 16; k++)
        hx[k] = (float)(k % 7) - 3.0f;
    for (int k = 0; k < 16 * 32; k++)
        hw[k] = (float)(k % 5) * 0.25f;
    const void *hins[2] = {hx, hw};
    void *refs[3] = {ry, rw, rx};
    TS_OK(ss_program_eval(p, hins, refs));

    ss_context_options co = {.ndevices = 8, .device_memory = (size_t)64 << 20};
    ss_context *ctx;
    TS_OK(ss_context_create(&co, &ctx));
    ss_sharding sx, sw;
    TS_OK(ss_value_sharding(p, x, &sx));
    TS_OK(ss_value_sharding(p, w, &sw));
    int64_t xs[2] = {8, 16}, ws[2] = {16, 32};
    ss_array *ax, *aw, *outs[3];
    TS_OK(ss_array_put(ctx, &sx, 2, xs, SS_F32, hx, "x", &ax));
    TS_OK(ss_array_put(ctx, &sw, 2, ws, SS_F32, hw, "w", &aw));
    ss_array *ins[2] = {ax, aw};
    bool donate[2] = {false, true};
    TS_OK(ss_executable_run_arrays(e, ctx, ins, donate, outs));
    /* The plan of this run: w2 written over the donated w, x copied out. */
    ss_plan planned;
    TS_OK(ss_executable_plan_arrays(e, donate, &planned));
    for (int d = 0; d < 8; d++) {
        ss_memory_stats ms;
        TS_OK(ss_device_memory_stats(ctx, d, &ms));
        cr_assert_eq(ms.peak_bytes, planned.peak_bytes, "device %d peak %zu, plan %zu", d,
                     ms.peak_bytes, planned.peak_bytes);
    }
    float gy[8 * 32], gw[16 * 32], gx[8 * 16];
    TS_OK(ss_array_get(outs[0], gy, sizeof gy));
    TS_OK(ss_array_get(outs[1], gw, sizeof gw));
    TS_OK(ss_array_get(outs[2], gx, sizeof gx));
    cr_assert_arr_eq(gw, rw, sizeof gw);
    cr_assert_arr_eq(gx, hx, sizeof gx);
    for (int k = 0; k < 8 * 32; k++)
        cr_assert(fabsf(gy[k] - ry[k]) <= 1e-4f * fmaxf(1.0f, fabsf(ry[k])));
    /* x was not donated: still readable. */
    float again[8 * 16];
    TS_OK(ss_array_get(ax, again, sizeof again));
    cr_assert_arr_eq(again, hx, sizeof again);
    /* A layout the program did not choose is refused. */
    ss_sharding wrong = sx;
    ss_spec rep = ts_spec("P()");
    wrong.spec = rep;
    ss_array *bad;
    TS_OK(ss_array_put(ctx, &wrong, 2, xs, SS_F32, hx, "bad", &bad));
    ss_array *ins2[2] = {bad, outs[1]};
    ss_array *outs2[3];
    cr_assert_eq(ss_executable_run_arrays(e, ctx, ins2, NULL, outs2), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "input 0 ('x') must be f32[8,16] laid out P('data', "
                                         "None)"),
              "%s", ss_error_message());
    ss_array_destroy(bad);
    for (int k = 0; k < 3; k++)
        ss_array_destroy(outs[k]);
    ss_array_destroy(ax);
    ss_array_destroy(aw);
    for (int d = 0; d < 8; d++) {
        ss_memory_stats ms;
        TS_OK(ss_device_memory_stats(ctx, d, &ms));
        cr_assert_eq(ms.live_bytes, 0, "device %d leaks %zu bytes", d, ms.live_bytes);
    }
    ss_context_destroy(ctx);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(partition, plans_a_pod_without_allocating_data)
{
    /* 16 layers of [8192 x 32768] bf16 weights (8.6B parameters) on a
     * 64x64 mesh of 4096 devices: compile and plan only. Arguments stay
     * live for the whole step, so the peak holds every weight block. */
    ss_mesh *m = ts_make_mesh("data=64,model=64", 4096);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_spec sx = ts_spec("P('data', None)"), s1 = ts_spec("P(None, 'model')");
    ss_spec s2 = ts_spec("P('model', None)"), dm = ts_spec("P('data', 'model')");
    int64_t xs[2] = {4096, 8192}, ws[2] = {8192, 32768}, ws2[2] = {32768, 8192};
    ss_value x;
    TS_OK(ss_input(p, "x", SS_BF16, 2, xs, &sx, &x));
    for (int l = 0; l < 16; l++) {
        ss_value w1, w2, a, y, yc, z;
        TS_OK(ss_param(p, "w1", SS_BF16, 2, ws, &s1, &w1));
        TS_OK(ss_param(p, "w2", SS_BF16, 2, ws2, &s2, &w2));
        TS_OK(ss_matmul(p, x, w1, &a));
        TS_OK(ss_unary(p, SS_GELU, a, &y));
        TS_OK(ss_constrain(p, y, &dm, &yc));
        TS_OK(ss_matmul(p, yc, w2, &z));
        TS_OK(ss_constrain(p, z, &sx, &x));
    }
    TS_OK(ss_output(p, x, NULL));
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    ss_plan plan;
    TS_OK(ss_executable_plan(e, &plan));
    size_t weights = (size_t)32 * 8192 * 512 * 2; /* every device's weight blocks */
    size_t x_block = (size_t)64 * 8192 * 2;
    cr_assert(plan.peak_bytes >= weights + x_block && plan.peak_bytes < 2 * weights,
              "peak %zu for %zu B of weight blocks", plan.peak_bytes, weights);
    cr_assert_eq(plan.ncollectives, 16, "one all-reduce over 'model' per layer");
    /* Per layer: 2(n-1)/n of the [64, 8192] bf16 block, n = 64. */
    cr_assert(fabs(plan.sent_bytes - 16 * 2.0 * 63 / 64 * (double)x_block) < 1.0, "%.0f",
              plan.sent_bytes);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* --- Collective matmul ---------------------------------------------------- */

static ss_program *s11a(ss_mesh **m)
{
    *m = ts_make_mesh("m=4", 4);
    ss_program *p;
    TS_OK(ss_program_create(*m, &p));
    ss_value x = ts_input(p, "x", "P('m')", 2, 64, 128), w = ts_input(p, "W", "P(None, 'm')", 2, 128, 256);
    ss_value y;
    TS_OK(ss_matmul(p, x, w, &y));
    ss_spec s1 = ts_spec("P(None, 'm')");
    TS_OK(ss_output(p, y, &s1));
    return p;
}

Test(partition, s11_collective_matmul_moves_the_bytes_of_the_gather)
{
    /* docs/gspmd.md S11(a): plain lowering all-gathers x (24576 B);
     * windowed, 3 collective-permutes of an 8 KiB block move the same. */
    ss_mesh *m;
    ss_program *p = s11a(&m);
    expect_coll plain[] = {{SS_COLL_ALL_GATHER, 24576}};
    run_and_check(p, 4, plain, 1);
    ss_program_destroy(p);
    ss_mesh_destroy(m);

    p = s11a(&m);
    ss_compile_options o = {.windowed_einsum_threshold_mib = 1e-3};
    g_opts = &o;
    expect_coll windowed[] = {{SS_COLL_PERMUTE, 8192}, {SS_COLL_PERMUTE, 8192},
                              {SS_COLL_PERMUTE, 8192}};
    run_and_check(p, 4, windowed, 3);
    /* No device ever holds all of x: the peak is below the plain one's. */
    ss_executable *a, *b;
    TS_OK(ss_program_compile(p, &a));
    TS_OK(ss_program_compile_with(p, &o, &b));
    ss_plan pa, pb;
    TS_OK(ss_executable_plan(a, &pa));
    TS_OK(ss_executable_plan(b, &pb));
    cr_assert_lt(pb.peak_bytes, pa.peak_bytes, "windowed peak %zu, gathered %zu", pb.peak_bytes,
                 pa.peak_bytes);
    cr_assert_eq(pa.sent_bytes, pb.sent_bytes);
    g_opts = NULL;
    ss_executable_destroy(a);
    ss_executable_destroy(b);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* --- GSPMD's choice and the cheapest one --------------------------------- */

static ss_program *dp_weight_grad(ss_mesh **m)
{
    /* S2's dW2 = h^T . dy: the batch (contracting) is sharded on both. */
    *m = ts_make_mesh("d=4", 4);
    ss_program *p;
    TS_OK(ss_program_create(*m, &p));
    ss_value h = ts_input(p, "h", "P('d')", 2, 32, 128), dy = ts_input(p, "dy", "P('d')", 2, 32, 64), dw;
    TS_OK(ss_einsum(p, "bi,bo->io", h, dy, &dw));
    ss_spec rep = ts_spec("P()");
    TS_OK(ss_output(p, dw, &rep));
    return p;
}

Test(partition, explain_names_the_cheaper_alternative_and_cheapest_takes_it)
{
    ss_mesh *m;
    ss_program *p = dp_weight_grad(&m);
    /* GSPMD: all-reduce of the 32 KiB gradient, 2*3/4*32768 = 49152 B;
     * gathering h (4 KiB local) and dy (2 KiB local): 3*(4096+2048) = 18432. */
    expect_coll gspmd[] = {{SS_COLL_ALL_REDUCE, 49152}};
    run_and_check(p, 4, gspmd, 1);
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ss_executable_explain(e, f);
    fclose(f);
    cr_assert(strstr(text, "GSPMD reduces the partial result (all_reduce, 49152 B/device), "
                           "gathering both operands over the contracting axes would send 18432 "
                           "B/device"),
              "%s", text);
    free(text);
    ss_executable_destroy(e);
    ss_compile_options o = {.cheapest = 1};
    g_opts = &o;
    expect_coll cheap[] = {{SS_COLL_ALL_GATHER, 12288}, {SS_COLL_ALL_GATHER, 6144}};
    run_and_check(p, 4, cheap, 2);
    g_opts = NULL;
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}
