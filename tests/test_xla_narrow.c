/*
 * test_xla_narrow.c — ss_executable_model_gathers: the all-gathers XLA's
 * TPU compiler moves in bf16 (an f32 gather read only by DEFAULT dots)
 * are counted so by the ledger and by a plan under the model, and the run
 * is unchanged: it gathers f32 (its own ledger says so) and computes the
 * single-device result. XLA's side of the rule is held to libtpu's
 * compiled HLO in tests/xla_tpu/test_gather_dtypes.py.
 */
#include "plan_run.h"

#include <stdlib.h>
#include <string.h>

enum { M = 128, K = 256, N = 512 }; /* tile multiples: TPU layout = dense bytes */

/* y = x @ constrain(w, P()) with w's rows on 'x' (8 devices): one
 * all-gather of w, read only by the dot; with `sum_too`, also the output
 * gathered w + gathered w, a second reader that is no dot. */
static ss_program *gather_program(ss_mesh *mesh, bool sum_too)
{
    ss_program *p;
    TS_OK(ss_program_create(mesh, &p));
    int64_t xs[2] = {M, K}, ws[2] = {K, N};
    ss_spec rows, none;
    TS_OK(ss_spec_parse("P('x', None)", &rows));
    TS_OK(ss_spec_parse("P()", &none));
    ss_value x, w, g, y;
    TS_OK(ss_input(p, "x", SS_F32, 2, xs, &none, &x));
    TS_OK(ss_input(p, "w", SS_F32, 2, ws, &rows, &w));
    TS_OK(ss_constrain(p, w, &none, &g));
    TS_OK(ss_matmul(p, x, g, &y));
    if (sum_too) {
        ss_value s;
        TS_OK(ss_binary(p, SS_ADD, g, g, &s));
        TS_OK(ss_output(p, s, NULL));
    }
    TS_OK(ss_output(p, y, NULL));
    return p;
}

/* The one collective of `kind` in e's ledger. */
static ss_coll_record only_coll(const ss_executable *e, ss_coll_kind kind)
{
    ss_coll_record r, found = {0};
    int n = 0;
    for (int i = 0; i < ss_executable_ledger_count(e); i++) {
        TS_OK(ss_executable_ledger_get(e, i, &r));
        if (r.kind == kind) {
            found = r;
            n++;
        }
    }
    cr_assert_eq(n, 1, "%d collectives of kind %d", n, (int)kind);
    return found;
}

Test(xla_narrow, dot_operand_gathered_in_bf16_for_plan_and_ledger_only)
{
    ss_mesh *mesh = ts_make_mesh("x=8", 8);
    ss_program *p = gather_program(mesh, false);
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    ss_memory_model plain = {SS_LAYOUT_TPU, 0, false, false, false, 0, 0, false, false, 0, 0, false, 0, 0},
                    narrow = {SS_LAYOUT_TPU, 0, false, true, false, 0, 0, false, false, 0, 0, false, 0, 0};
    ss_plan before, after;
    TS_OK(ss_executable_plan_model(e, NULL, &plain, &before));
    cr_assert_eq(only_coll(e, SS_COLL_ALL_GATHER).dtype, SS_F32);
    cr_assert_eq(only_coll(e, SS_COLL_ALL_GATHER).bytes, (size_t)K * N * 4);

    int marked = -1;
    TS_OK(ss_executable_model_gathers(e, &plain, &marked));
    cr_assert_eq(marked, 0, "a model without xla_bf16_gathers marks nothing");
    TS_OK(ss_executable_model_gathers(e, &narrow, &marked));
    cr_assert_eq(marked, 1);
    ss_coll_record g = only_coll(e, SS_COLL_ALL_GATHER);
    cr_assert_eq(g.dtype, SS_BF16);
    cr_assert_eq(g.bytes, (size_t)K * N * 2, "half the f32 gather: %zu", g.bytes);
    TS_OK(ss_executable_plan_model(e, NULL, &narrow, &after));
    /* At the dot: x, w's block, the gathered w and y; the gathered w at half. */
    size_t f32g = ss_device_buffer_bytes((size_t)K * N * 4), bf16g = ss_device_buffer_bytes((size_t)K * N * 2);
    cr_assert_eq(before.peak_bytes - after.peak_bytes, f32g - bf16g, "peak %zu -> %zu",
                 before.peak_bytes, after.peak_bytes);
    cr_assert_lt(after.sent_bytes, before.sent_bytes);

    /* The run: f32 gathers (its own ledger) and the single-device values. */
    float *x = malloc(sizeof(float) * M * K), *w = malloc(sizeof(float) * K * N),
          *y = malloc(sizeof(float) * M * N), *want = malloc(sizeof(float) * M * N);
    pr_fill(x, (size_t)M * K, 1);
    pr_fill(w, (size_t)K * N, 2);
    const void *in[2] = {x, w};
    void *ev[1] = {want}, *out[1] = {y};
    TS_OK(ss_program_eval(p, in, ev));
    ss_context *ctx = pr_make_ctx();
    TS_OK(ss_executable_run(e, ctx, in, out));
    cr_assert_eq(memcmp(y, want, sizeof(float) * M * N), 0, "run = single-device eval");
    int gathers = 0;
    for (int i = 0; i < ss_context_ledger_count(ctx); i++) {
        ss_coll_record r;
        TS_OK(ss_context_ledger_get(ctx, i, &r));
        if (r.kind == SS_COLL_ALL_GATHER) {
            cr_assert_eq(r.dtype, SS_F32, "the run gathers f32");
            gathers++;
        }
    }
    cr_assert_eq(gathers, 1);
    pr_plan_is_run(e, ctx);
    free(x);
    free(w);
    free(y);
    free(want);
    ss_context_destroy(ctx);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(mesh);
}

/* Under the bf16 rule, builder's program (8 devices on 'x', with its
 * second reader) marks nothing: the value its one collective of `kind`
 * moves has a reader that is no dot, so that collective stays f32. */
static void another_reader_stays_f32(ss_program *(*builder)(ss_mesh *, bool), ss_coll_kind kind)
{
    ss_mesh *mesh = ts_make_mesh("x=8", 8);
    ss_program *p = builder(mesh, true);
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    ss_memory_model narrow = {SS_LAYOUT_TPU, 0, false, true, false, 0, 0, false, false, 0, 0, false, 0, 0};
    int marked = -1;
    TS_OK(ss_executable_model_gathers(e, &narrow, &marked));
    cr_assert_eq(marked, 0);
    cr_assert_eq(only_coll(e, kind).dtype, SS_F32);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(mesh);
}

Test(xla_narrow, a_gather_with_another_reader_stays_f32)
{
    another_reader_stays_f32(gather_program, SS_COLL_ALL_GATHER);
}

/* z = (x @ w) @ v with x's columns and w's rows on 'x' (8 devices): the
 * first dot's partial sums are all-reduced, and the sum is read only by
 * the second dot; with `add_too`, also by an add (an output y + y). v and
 * z are the largest, so that the peak is at the second dot. */
enum { V = 2048 };
static ss_program *sum_program(ss_mesh *mesh, bool add_too)
{
    ss_program *p;
    TS_OK(ss_program_create(mesh, &p));
    int64_t xs[2] = {M, K}, ws[2] = {K, N}, vs[2] = {N, V};
    ss_spec cols, rows, none;
    TS_OK(ss_spec_parse("P(None, 'x')", &cols));
    TS_OK(ss_spec_parse("P('x', None)", &rows));
    TS_OK(ss_spec_parse("P()", &none));
    ss_value x, w, v, y, r, z;
    TS_OK(ss_input(p, "x", SS_F32, 2, xs, &cols, &x));
    TS_OK(ss_input(p, "w", SS_F32, 2, ws, &rows, &w));
    TS_OK(ss_input(p, "v", SS_F32, 2, vs, &none, &v));
    TS_OK(ss_matmul(p, x, w, &y));
    TS_OK(ss_constrain(p, y, &none, &r));
    TS_OK(ss_matmul(p, r, v, &z));
    if (add_too) {
        ss_value s;
        TS_OK(ss_binary(p, SS_ADD, r, r, &s));
        TS_OK(ss_output(p, s, NULL));
    }
    TS_OK(ss_output(p, z, NULL));
    return p;
}

Test(xla_narrow, a_sum_read_only_by_dots_is_written_in_bf16_by_the_plan_only)
{
    ss_mesh *mesh = ts_make_mesh("x=8", 8);
    ss_program *p = sum_program(mesh, false);
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    ss_memory_model narrow = {SS_LAYOUT_TPU, 0, false, true, false, 0, 0, false, false, 0, 0, false, 0, 0};
    ss_plan before, after;
    TS_OK(ss_executable_plan_model(e, NULL, &narrow, &before));
    ss_coll_record f32sum = only_coll(e, SS_COLL_ALL_REDUCE);
    int marked = -1;
    TS_OK(ss_executable_model_gathers(e, &narrow, &marked));
    cr_assert_eq(marked, 1);
    /* XLA reduces the f32 partial sums: the ledger's record is unchanged. */
    ss_coll_record s = only_coll(e, SS_COLL_ALL_REDUCE);
    cr_assert_eq(s.dtype, SS_F32);
    cr_assert_eq(s.bytes, f32sum.bytes);
    TS_OK(ss_executable_plan_model(e, NULL, &narrow, &after));
    /* The sum's own buffer at half; the f32 partial sums stay. */
    size_t f32y = ss_device_buffer_bytes((size_t)M * N * 4), bf16y = ss_device_buffer_bytes((size_t)M * N * 2);
    cr_assert_eq(before.peak_bytes - after.peak_bytes, f32y - bf16y, "peak %zu -> %zu",
                 before.peak_bytes, after.peak_bytes);

    /* The run: f32 sums and the single-device values. */
    pr_run_close_to_eval(p, e, 3, (size_t[]){(size_t)M * K, (size_t)K * N, (size_t)N * V},
                         (size_t)M * V, "z");
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(mesh);
}

Test(xla_narrow, a_sum_with_another_reader_stays_f32)
{
    another_reader_stays_f32(sum_program, SS_COLL_ALL_REDUCE);
}

/* s = select(m > 0, x @ w, 0), read by two dots (s @ v, s @ u): the
 * backward ReLU mask of the Flax MLP (convolution_select_fusion in libtpu
 * 0.0.42.1's optimized HLO of tests/data/xla_tpu/flax_linen_fit_r*: a
 * bf16 select XLA fuses into the dot producing its operand). */
static ss_program *mask_program(ss_mesh *mesh)
{
    ss_program *p;
    TS_OK(ss_program_create(mesh, &p));
    int64_t xs[2] = {M, K}, ws[2] = {K, N}, ms[2] = {M, N}, vs[2] = {N, M};
    ss_spec none;
    TS_OK(ss_spec_parse("P()", &none));
    ss_value x, w, m, v, u, y, zero, gt, s, a, b;
    TS_OK(ss_input(p, "x", SS_F32, 2, xs, &none, &x));
    TS_OK(ss_input(p, "w", SS_F32, 2, ws, &none, &w));
    TS_OK(ss_input(p, "m", SS_F32, 2, ms, &none, &m));
    TS_OK(ss_input(p, "v", SS_F32, 2, vs, &none, &v));
    TS_OK(ss_input(p, "u", SS_F32, 2, vs, &none, &u));
    TS_OK(ss_matmul(p, x, w, &y));
    TS_OK(ss_constant(p, 0.0, &zero));
    TS_OK(ss_compare(p, SS_CMP_GT, SS_CMP_FLOAT, m, zero, &gt));
    ss_value zeros;
    TS_OK(ss_binary(p, SS_MUL, m, zero, &zeros));
    TS_OK(ss_select(p, gt, y, zeros, &s));
    TS_OK(ss_matmul(p, s, v, &a));
    TS_OK(ss_matmul(p, s, u, &b));
    TS_OK(ss_output(p, a, NULL));
    TS_OK(ss_output(p, b, NULL));
    return p;
}

Test(xla_narrow, a_select_fused_into_its_dot_is_written_once_in_bf16)
{
    ss_mesh *mesh = ts_make_mesh("x=8", 8);
    ss_program *p = mask_program(mesh);
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    ss_memory_model tpu = {.layout = SS_LAYOUT_TPU, .xla_fusion = true, .xla_bf16_gathers = true};
    ss_plan before, after;
    TS_OK(ss_executable_plan_model(e, NULL, &tpu, &before));
    TS_OK(ss_executable_model_gathers(e, &tpu, NULL));
    TS_OK(ss_executable_plan_model(e, NULL, &tpu, &after));
    /* The select is its own buffer (not fused into its two dots), and the
     * model writes it in bf16: half its f32 bytes off the peak. */
    size_t f32s = ss_device_buffer_bytes((size_t)M * N * 4), bf16s = ss_device_buffer_bytes((size_t)M * N * 2);
    cr_assert_eq(before.peak_bytes - after.peak_bytes, f32s - bf16s, "peak %zu -> %zu",
                 before.peak_bytes, after.peak_bytes);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(mesh);
}

/* The last hidden layer of the Flax MLP under a summed loss: h = x @ w,
 * its ReLU max(h, 0) read by one DEFAULT dot, its mask h > 0 selecting a
 * broadcast (the output gradient of a sum) for two dots. libtpu 0.0.42.1
 * compiles it (tests/data/xla_tpu/flax_linen_fit_r*, the optimized HLO's
 * broadcast_compare_fusion) as one fusion of the dot writing the mask as
 * pred and h as bf16 for the ReLU's dot: h's f32 is never written. With
 * `keep` h is also an output (another reader: no such fusion). */
static ss_program *last_layer_program(ss_mesh *mesh, bool keep)
{
    ss_program *p;
    TS_OK(ss_program_create(mesh, &p));
    enum { R = 8 }; /* the dots' small side */
    int64_t xs[2] = {M, K}, ws[2] = {K, N}, vs[2] = {N, R}, cs[1] = {N}, hs[2] = {M, N};
    int dims[1] = {1};
    ss_spec none;
    TS_OK(ss_spec_parse("P()", &none));
    ss_value x, w, v, u1, u2, c, h, zero, zeros, gt, r, g, s, a, b1, b2;
    TS_OK(ss_input(p, "x", SS_F32, 2, xs, &none, &x));
    TS_OK(ss_input(p, "w", SS_F32, 2, ws, &none, &w));
    TS_OK(ss_input(p, "v", SS_F32, 2, vs, &none, &v));
    TS_OK(ss_input(p, "u1", SS_F32, 2, vs, &none, &u1));
    TS_OK(ss_input(p, "u2", SS_F32, 2, vs, &none, &u2));
    TS_OK(ss_input(p, "c", SS_F32, 1, cs, &none, &c));
    TS_OK(ss_matmul(p, x, w, &h));
    TS_OK(ss_constant(p, 0.0, &zero));
    TS_OK(ss_broadcast_in_dim(p, zero, 2, hs, NULL, &zeros));
    TS_OK(ss_compare(p, SS_CMP_GT, SS_CMP_FLOAT, h, zeros, &gt));
    TS_OK(ss_binary(p, SS_MAX, h, zeros, &r));
    TS_OK(ss_matmul(p, r, v, &a));
    TS_OK(ss_broadcast_in_dim(p, c, 2, hs, dims, &g));
    TS_OK(ss_select(p, gt, g, zeros, &s));
    TS_OK(ss_matmul(p, s, u1, &b1));
    TS_OK(ss_matmul(p, s, u2, &b2));
    TS_OK(ss_output(p, a, NULL));
    TS_OK(ss_output(p, b1, NULL));
    TS_OK(ss_output(p, b2, NULL));
    if (keep)
        TS_OK(ss_output(p, h, NULL));
    return p;
}

/* The plan's buffers at its peak under the TPU model: the bytes of the
 * entry for value v (0: none). */
static size_t peak_bytes_of(const ss_executable *e, const ss_memory_model *model, ss_value v)
{
    ss_live_buffer live[64];
    int n;
    ss_plan plan;
    TS_OK(ss_executable_peak_detail(e, NULL, model, live, 64, &n, &plan));
    size_t bytes = 0;
    for (int k = 0; k < n && k < 64; k++)
        if (live[k].value == v)
            bytes += live[k].bytes;
    return bytes;
}

Test(xla_narrow, the_last_layers_mask_and_relu_are_written_by_its_dot)
{
    ss_mesh *mesh = ts_make_mesh("x=8", 8);
    ss_memory_model tpu = {.layout = SS_LAYOUT_TPU, .xla_fusion = true, .xla_bf16_gathers = true};
    for (int keep = 0; keep < 2; keep++) {
        ss_program *p = last_layer_program(mesh, keep);
        ss_executable *e;
        TS_OK(ss_program_compile(p, &e));
        TS_OK(ss_executable_model_gathers(e, &tpu, NULL));
        /* values in build order: inputs 0-5, h 6, zero 7, zeros 8, gt 9, r 10 */
        size_t h = peak_bytes_of(e, &tpu, 6), gt = peak_bytes_of(e, &tpu, 9),
               r = peak_bytes_of(e, &tpu, 10);
        if (!keep) { /* at the peak (the ReLU's dot): the pred mask, h in bf16 */
            cr_assert_eq(h, 0, "h's f32 is not written: %zu B", h);
            cr_assert_eq(gt, ss_device_buffer_bytes((size_t)M * N), "the pred mask: %zu B", gt);
            cr_assert_eq(r, ss_device_buffer_bytes((size_t)M * N * 2), "the bf16 ReLU: %zu B", r);
        } else { /* h an output too: XLA writes it, the mask and ReLU fuse as before */
            cr_assert_eq(h, ss_device_buffer_bytes((size_t)M * N * 4), "h: %zu B", h);
        }
        ss_executable_destroy(e);
        ss_program_destroy(p);
    }
    ss_mesh_destroy(mesh);
}
