/* test_gather.c — the gather and scatter kernels (kernels/gather.c)
 * against their naive references (kernels/reference_gather.c) in every
 * dtype and in five forms of the dimension numbers (an embedding lookup,
 * a two-component index vector, an implied index vector dim, batching
 * dims, offset dims before batch dims); index values include negative and
 * too large ones (gather clamps, scatter skips the window). Then
 * properties checked with values computed here: an embedding lookup picks
 * table rows with the clamp StableHLO specifies; a scatter-add with
 * repeated indices adds every update; a gather from blocks (partitioned
 * on the indexed dim) summed over the blocks equals the whole gather.
 * Every comparison is bit for bit. */
/* kernels_check.h is shared with test_kernels.c; not every helper is used here. */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "kernels_check.h"

#include "kernels/elementwise_int.h"

typedef struct form {
    const char *name;
    int orank, irank;
    int64_t oshape[4], ishape[4];
    ss_gather_dims g;
    int64_t index_hi; /* indices drawn from [-2, index_hi) */
} form;

static const form forms[] = {
    {"embedding", 2, 3, {7, 5}, {3, 4, 1},
     {.n_offset = 1, .offset_dims = {2}, .n_collapsed = 1, .collapsed_slice_dims = {0},
      .n_index_map = 1, .start_index_map = {0}, .index_vector_dim = 2, .slice_sizes = {1, 5}},
     9},
    {"two_component_window", 3, 2, {6, 7, 4}, {5, 2},
     {.n_offset = 2, .offset_dims = {1, 2}, .n_collapsed = 1, .collapsed_slice_dims = {0},
      .n_index_map = 2, .start_index_map = {0, 1}, .index_vector_dim = 1,
      .slice_sizes = {1, 3, 2}},
     8},
    {"implied_vector_dim", 1, 1, {9}, {4},
     {.n_collapsed = 1, .collapsed_slice_dims = {0}, .n_index_map = 1, .start_index_map = {0},
      .index_vector_dim = 1, .slice_sizes = {1}},
     11},
    {"batching", 3, 3, {3, 6, 2}, {3, 4, 1},
     {.n_offset = 1, .offset_dims = {2}, .n_collapsed = 1, .collapsed_slice_dims = {1},
      .n_batching = 1, .operand_batching_dims = {0}, .start_indices_batching_dims = {0},
      .n_index_map = 1, .start_index_map = {1}, .index_vector_dim = 2, .slice_sizes = {1, 1, 2}},
     8},
    {"offset_first", 2, 2, {5, 6}, {4, 1},
     {.n_offset = 1, .offset_dims = {0}, .n_collapsed = 1, .collapsed_slice_dims = {1},
      .n_index_map = 1, .start_index_map = {1}, .index_vector_dim = 1, .slice_sizes = {3, 1}},
     8},
};
#define NFORMS ((int)(sizeof forms / sizeof forms[0]))

static const ss_dtype all_dtypes[] = {SS_F32, SS_BF16, SS_F16, SS_I32, SS_F64, SS_I64, SS_I8,
                                      SS_U8,  SS_BOOL, SS_I16, SS_U16, SS_U32, SS_U64};
#define NDTYPES ((int)(sizeof all_dtypes / sizeof all_dtypes[0]))

/* Small whole values any dtype holds exactly (bool: 0 or 1). */
static void fill_any(ss__tensor *t)
{
    for (int64_t i = 0; i < ss__k_numel(t); i++) {
        ss__k_scalar s;
        double v = floor(uniform(0, t->dtype == SS_BOOL ? 2 : 9));
        if (ss__k_class_of(t->dtype) == SS__K_CLASS_FLOAT)
            s.f = v;
        else
            s.u = (uint64_t)v;
        ss__k_ew_store(t->dtype, t->data, i, s);
    }
}

static ss__tensor indices_for(const form *f, ss_dtype dt)
{
    ss__tensor ind = tnew(dt, f->irank, f->ishape);
    for (int64_t i = 0; i < ss__k_numel(&ind); i++) {
        ss__k_scalar s;
        double lo = ss__k_class_of(dt) == SS__K_CLASS_UNSIGNED ? 0 : -2;
        s.u = (uint64_t)(int64_t)floor(uniform(lo, (double)f->index_hi));
        ss__k_ew_store(dt, ind.data, i, s);
    }
    return ind;
}

static ss__tensor result_for(const form *f, ss_dtype dt)
{
    int rank;
    int64_t shape[SS_MAX_RANK];
    OK(ss__k_gather_check(false, f->orank, f->oshape, f->irank, f->ishape, SS_I32, &f->g,
                          f->g.slice_sizes, &rank, shape));
    return tnew(dt, rank, shape);
}

Test(gather, fast_equals_reference_every_form_and_dtype)
{
    for (int k = 0; k < NFORMS; k++)
        for (int t = 0; t < NDTYPES; t++) {
            const form *f = &forms[k];
            ss__tensor x = tnew(all_dtypes[t], f->orank, f->oshape);
            ss__tensor ind = indices_for(f, t % 2 ? SS_I32 : SS_U8);
            ss__tensor got = result_for(f, all_dtypes[t]), want = result_for(f, all_dtypes[t]);
            fill_any(&x);
            OK(ss__k_gather(&x, &ind, &f->g, NULL, NULL, &got));
            OK(ss__k_ref_gather(&x, &ind, &f->g, NULL, NULL, &want));
            cr_assert_eq(memcmp(got.data, want.data,
                                (size_t)ss__k_numel(&got) * ss_dtype_size(got.dtype)), 0,
                         "gather %s %s", f->name, ss_dtype_name(all_dtypes[t]));
            tfree(&x), tfree(&ind), tfree(&got), tfree(&want);
        }
}

Test(gather, scatter_fast_equals_reference_every_form_op_and_dtype)
{
    for (int k = 0; k < NFORMS; k++)
        for (int t = 0; t < NDTYPES; t++)
            for (int op = 0; op < SS_SCATTER_OP_COUNT; op++) {
                const form *f = &forms[k];
                ss__tensor x = tnew(all_dtypes[t], f->orank, f->oshape);
                ss__tensor ind = indices_for(f, SS_I32);
                ss__tensor upd = result_for(f, all_dtypes[t]);
                ss__tensor got = tnew(all_dtypes[t], f->orank, f->oshape);
                ss__tensor want = tnew(all_dtypes[t], f->orank, f->oshape);
                fill_any(&x);
                fill_any(&upd);
                OK(ss__k_scatter(&x, &ind, &upd, (ss_scatter_op)op, &f->g, NULL, NULL, &got));
                OK(ss__k_ref_scatter(&x, &ind, &upd, (ss_scatter_op)op, &f->g, NULL, NULL,
                                     &want));
                cr_assert_eq(memcmp(got.data, want.data,
                                    (size_t)ss__k_numel(&got) * ss_dtype_size(got.dtype)), 0,
                             "scatter %s %s op %d", f->name, ss_dtype_name(all_dtypes[t]), op);
                tfree(&x), tfree(&ind), tfree(&upd), tfree(&got), tfree(&want);
            }
}

/* out[b, s, :] = table[clamp(ids[b, s], 0, V - 1), :], computed here. */
Test(gather, embedding_lookup_clamps_as_stablehlo_specifies)
{
    const form *f = &forms[0];
    ss__tensor x = T(SS_F32, 7, 5), ind = T(SS_I32, 3, 4, 1), out = T(SS_F32, 3, 4, 5);
    fill(&x, -1, 1);
    int32_t *ids = ind.data;
    for (int i = 0; i < 12; i++)
        ids[i] = i - 3; /* -3 .. 8: both sides out of range */
    OK(ss__k_gather(&x, &ind, &f->g, NULL, NULL, &out));
    for (int i = 0; i < 12; i++) {
        int row = ids[i] < 0 ? 0 : ids[i] > 6 ? 6 : ids[i];
        for (int e = 0; e < 5; e++)
            cr_assert_eq(((float *)out.data)[i * 5 + e], ((float *)x.data)[row * 5 + e],
                         "id %d, element %d", ids[i], e);
    }
    tfree(&x), tfree(&ind), tfree(&out);
}

/* x.at[idx].add(u): every update lands, repeated rows add up, rows out of
 * range are dropped (XLA skips such windows). */
Test(gather, scatter_add_sums_repeated_indices_and_skips_out_of_range)
{
    const form *f = &forms[0];
    ss__tensor x = T(SS_I32, 7, 5), ind = T(SS_I32, 3, 4, 1), upd = T(SS_I32, 3, 4, 5);
    ss__tensor out = T(SS_I32, 7, 5);
    fill(&x, -50, 50);
    fill(&upd, -50, 50);
    int32_t *ids = ind.data;
    for (int i = 0; i < 12; i++)
        ids[i] = (i * 5) % 9 - 1; /* -1 .. 7, some repeated */
    OK(ss__k_scatter(&x, &ind, &upd, SS_SCATTER_ADD, &f->g, NULL, NULL, &out));
    for (int r = 0; r < 7; r++)
        for (int e = 0; e < 5; e++) {
            int32_t want = ((int32_t *)x.data)[r * 5 + e];
            for (int i = 0; i < 12; i++)
                if (ids[i] == r)
                    want += ((int32_t *)upd.data)[i * 5 + e];
            cr_assert_eq(((int32_t *)out.data)[r * 5 + e], want, "row %d, element %d", r, e);
        }
    tfree(&x), tfree(&ind), tfree(&upd), tfree(&out);
}

/* The partitioned gather of gather_spmd.c: each of 3 blocks of the table
 * (on the indexed dim) gathers what it holds, 0 elsewhere; the sum over
 * the blocks is the whole gather, clamping included. */
Test(gather, blocks_on_the_indexed_dim_sum_to_the_whole_gather)
{
    const form *f = &forms[2]; /* [9] indexed by [4] */
    ss__tensor x = T(SS_I32, 9), ind = T(SS_I32, 4), whole = T(SS_I32, 4), part = T(SS_I32, 4);
    fill(&x, 1, 100);
    int32_t *ids = ind.data;
    ids[0] = -4, ids[1] = 3, ids[2] = 7, ids[3] = 12;
    OK(ss__k_gather(&x, &ind, &f->g, NULL, NULL, &whole));
    int32_t sum[4] = {0};
    for (int b = 0; b < 3; b++) {
        ss__tensor blk = {.dtype = SS_I32, .rank = 1, .shape = {3},
                          .data = (int32_t *)x.data + 3 * b};
        const int64_t full[] = {9}, lo[] = {3 * b};
        OK(ss__k_gather(&blk, &ind, &f->g, full, lo, &part));
        ss__tensor ref = T(SS_I32, 4);
        OK(ss__k_ref_gather(&blk, &ind, &f->g, full, lo, &ref));
        EXPECT_SAME(&part, &ref, "block against the reference");
        tfree(&ref);
        for (int i = 0; i < 4; i++)
            sum[i] += ((int32_t *)part.data)[i];
    }
    for (int i = 0; i < 4; i++)
        cr_assert_eq(sum[i], ((int32_t *)whole.data)[i], "index %d", ids[i]);
    tfree(&x), tfree(&ind), tfree(&whole), tfree(&part);
}

Test(gather, bad_dimension_numbers_are_one_line_errors)
{
    ss_gather_dims g = forms[0].g;
    int rank;
    int64_t shape[SS_MAX_RANK];
    g.offset_dims[0] = 5;
    EXPECT_ERROR(ss__k_gather_check(false, 2, forms[0].oshape, 3, forms[0].ishape, SS_I32, &g,
                                    g.slice_sizes, &rank, shape),
                 SS_ERR_INVALID, "gather: offset_dims[0] = 5 is outside 0..2");
    g = forms[0].g;
    g.slice_sizes[1] = 6;
    EXPECT_ERROR(ss__k_gather_check(false, 2, forms[0].oshape, 3, forms[0].ishape, SS_I32, &g,
                                    g.slice_sizes, &rank, shape),
                 SS_ERR_INVALID, "gather: window size 6 of operand dim 1 is outside 0..dim");
    g = forms[0].g;
    EXPECT_ERROR(ss__k_gather_check(false, 2, forms[0].oshape, 3, forms[0].ishape, SS_F32, &g,
                                    g.slice_sizes, &rank, shape),
                 SS_ERR_INVALID, "gather: indices are f32, not integers");
    ss__tensor x = T(SS_F32, 7, 5), ind = T(SS_I32, 3, 4, 1), upd = T(SS_F32, 3, 4, 5);
    EXPECT_ERROR(ss__k_scatter(&x, &ind, &upd, SS_SCATTER_OP_COUNT, &g, NULL, NULL, &x),
                 SS_ERR_INVALID, "scatter: update computation 6 is not one of add, set, max, "
                                 "min, multiply, subtract");
    tfree(&x), tfree(&ind), tfree(&upd);
}

/* --- Partitioned programs: fallbacks give the single-device answer --------- */

/* Compile p on 4 devices, run it on `ins`, compare output 0 (f32, n
 * elements) with ss_program_eval bit for bit; *nall: the all_gathers the
 * ledger holds. */
static void run_against_eval(ss_program *p, const void *const ins[], size_t n, int *nall)
{
    float *want = calloc(n, sizeof *want), *got = calloc(n, sizeof *got);
    TS_OK(ss_program_eval(p, ins, (void *const[]){want}));
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    ss_context_options co = {.ndevices = 4, .device_memory = (size_t)16 << 20, .timeout = 30};
    ss_context *ctx;
    TS_OK(ss_context_create(&co, &ctx));
    TS_OK(ss_executable_run(e, ctx, ins, (void *const[]){got}));
    cr_assert_eq(memcmp(got, want, n * sizeof *got), 0, "the run differs from the evaluation");
    *nall = 0;
    for (int i = 0; i < ss_executable_ledger_count(e); i++) {
        ss_coll_record r;
        TS_OK(ss_executable_ledger_get(e, i, &r));
        *nall += r.kind == SS_COLL_ALL_GATHER;
    }
    ss_context_destroy(ctx);
    ss_executable_destroy(e);
    free(want), free(got);
}

/* A table sharded on a dim its windows take only part of (no GSPMD case
 * applies): gathered first, then the answer of one device. */
Test(gather, partial_windows_of_a_sharded_dim_are_gathered_first)
{
    ss_mesh *m = ts_make_mesh("x=4", 4);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value t = ts_input(p, "table", "P(None, 'x')", 2, 8, 8), ids, y;
    ss_spec none = ts_spec("P()");
    TS_OK(ss_input(p, "ids", SS_I32, 2, (int64_t[]){5, 1}, &none, &ids));
    ss_gather_dims g = forms[0].g;
    g.index_vector_dim = 1, g.offset_dims[0] = 1, g.slice_sizes[1] = 4;
    TS_OK(ss_gather(p, t, ids, &g, &y));
    TS_OK(ss_output(p, y, NULL));
    float table[64];
    for (int i = 0; i < 64; i++)
        table[i] = (float)i * 0.5f;
    int32_t idv[5] = {3, -1, 9, 0, 7};
    int nall;
    run_against_eval(p, (const void *const[]){table, idv}, 20, &nall);
    cr_assert_geq(nall, 1, "the table was not gathered");
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* A scatter-max of updates sharded on their scatter dim: no pending sum
 * for max (only scatter-add leaves one), so the updates are gathered. */
Test(gather, scatter_max_of_sharded_updates_gathers_them)
{
    ss_mesh *m = ts_make_mesh("x=4", 4);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", NULL, 2, 6, 4), u = ts_input(p, "u", "P('x')", 2, 8, 4);
    ss_value ids, y;
    ss_spec ls = ts_spec("P('x')");
    TS_OK(ss_input(p, "ids", SS_I32, 2, (int64_t[]){8, 1}, &ls, &ids));
    ss_gather_dims g = forms[0].g;
    g.index_vector_dim = 1, g.offset_dims[0] = 1;
    TS_OK(ss_scatter(p, x, ids, u, SS_SCATTER_MAX, &g, &y));
    TS_OK(ss_output(p, y, NULL));
    float xv[24], uv[32];
    for (int i = 0; i < 24; i++)
        xv[i] = (float)((i * 7) % 11) - 5.0f;
    for (int i = 0; i < 32; i++)
        uv[i] = (float)((i * 5) % 13) - 6.0f;
    int32_t idv[8] = {2, 5, 2, -3, 0, 6, 5, 1};
    int nall;
    run_against_eval(p, (const void *const[]){xv, uv, idv}, 24, &nall);
    cr_assert_geq(nall, 1, "the updates were not gathered");
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* d/dtable of sum(gather(table, ids) * r) with ids out of range: the
 * cotangent lands on the rows the gather read after clamping (JAX clamps
 * the scatter-add's indices in its transpose of a clipping gather), summed
 * for repeated rows; computed here row by row. */
Test(gather, gradient_follows_the_clamp)
{
    ss_mesh *m = ts_make_mesh("x=4", 4);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value t = ts_input(p, "table", "P(None, 'x')", 2, 6, 4), r = ts_input(p, "r", NULL, 2, 5, 4);
    ss_value ids, y, yr, loss, gt;
    ss_spec none = ts_spec("P()");
    TS_OK(ss_input(p, "ids", SS_I32, 2, (int64_t[]){5, 1}, &none, &ids));
    ss_gather_dims g = forms[0].g;
    g.index_vector_dim = 1, g.offset_dims[0] = 1, g.slice_sizes[1] = 4;
    TS_OK(ss_gather(p, t, ids, &g, &y));
    TS_OK(ss_binary(p, SS_MUL, y, r, &yr));
    TS_OK(ss_reduce(p, SS_REDUCE_SUM, yr, 2, (int[]){0, 1}, 0, &loss));
    TS_OK(ss_grad(p, loss, 1, &t, &gt));
    TS_OK(ss_output(p, gt, NULL));
    float table[24], rv[20], want[24] = {0};
    for (int i = 0; i < 24; i++)
        table[i] = (float)i;
    for (int i = 0; i < 20; i++)
        rv[i] = (float)(i % 7) - 3.0f;
    int32_t idv[5] = {-2, 4, 9, 4, 0};
    for (int i = 0; i < 5; i++) {
        int row = idv[i] < 0 ? 0 : idv[i] > 5 ? 5 : idv[i];
        for (int e = 0; e < 4; e++)
            want[row * 4 + e] += rv[i * 4 + e];
    }
    float got[24];
    TS_OK(ss_program_eval(p, (const void *const[]){table, rv, idv}, (void *const[]){got}));
    for (int i = 0; i < 24; i++)
        cr_assert_eq(got[i], want[i], "element %d: got %g, want %g", i, got[i], want[i]);
    int nall;
    run_against_eval(p, (const void *const[]){table, rv, idv}, 24, &nall);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* A scatter-add into a table sharded on the indexed dim (the gradient of
 * a vocab-sharded embedding): each device writes the rows that land in
 * its block, no collective at all. */
Test(gather, scatter_into_a_table_sharded_on_the_indexed_dim_stays_local)
{
    ss_mesh *m = ts_make_mesh("x=4", 4);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('x')", 2, 8, 4), u = ts_input(p, "u", NULL, 2, 6, 4);
    ss_value ids, y;
    ss_spec none = ts_spec("P()");
    TS_OK(ss_input(p, "ids", SS_I32, 2, (int64_t[]){6, 1}, &none, &ids));
    ss_gather_dims g = forms[0].g;
    g.index_vector_dim = 1, g.offset_dims[0] = 1;
    TS_OK(ss_scatter(p, x, ids, u, SS_SCATTER_ADD, &g, &y));
    TS_OK(ss_output(p, y, NULL));
    float xv[32], uv[24];
    for (int i = 0; i < 32; i++)
        xv[i] = (float)i;
    for (int i = 0; i < 24; i++)
        uv[i] = (float)(i % 5) - 2.0f;
    int32_t idv[6] = {7, 2, -1, 2, 8, 5};
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    int ncoll = ss_executable_ledger_count(e);
    ss_executable_destroy(e);
    int nall;
    run_against_eval(p, (const void *const[]){xv, uv, idv}, 32, &nall);
    cr_assert_eq(ncoll, 0, "%d collectives", ncoll);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* d/du of sum(scatter_add(x, ids, u) * r): r's row at each id in range,
 * 0 for an update the scatter skipped (out of range); computed here. */
Test(gather, scatter_add_gradient_is_zero_for_skipped_updates)
{
    ss_mesh *m = ts_make_mesh("x=4", 4);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P(None, 'x')", 2, 6, 4), u = ts_input(p, "u", NULL, 2, 5, 4);
    ss_value r = ts_input(p, "r", NULL, 2, 6, 4), ids, y, yr, loss, gu;
    ss_spec none = ts_spec("P()");
    TS_OK(ss_input(p, "ids", SS_I32, 2, (int64_t[]){5, 1}, &none, &ids));
    ss_gather_dims g = forms[0].g;
    g.index_vector_dim = 1, g.offset_dims[0] = 1;
    TS_OK(ss_scatter(p, x, ids, u, SS_SCATTER_ADD, &g, &y));
    TS_OK(ss_binary(p, SS_MUL, y, r, &yr));
    TS_OK(ss_reduce(p, SS_REDUCE_SUM, yr, 2, (int[]){0, 1}, 0, &loss));
    TS_OK(ss_grad(p, loss, 1, &u, &gu));
    TS_OK(ss_output(p, gu, NULL));
    float xv[24] = {0}, uv[20] = {0}, rv[24], want[20] = {0}, got[20];
    for (int i = 0; i < 24; i++)
        rv[i] = (float)i - 10.0f;
    int32_t idv[5] = {-1, 4, 6, 4, 0};
    for (int i = 0; i < 5; i++)
        for (int e = 0; e < 4 && idv[i] >= 0 && idv[i] < 6; e++)
            want[i * 4 + e] = rv[idv[i] * 4 + e];
    TS_OK(ss_program_eval(p, (const void *const[]){xv, uv, rv, idv}, (void *const[]){got}));
    for (int i = 0; i < 20; i++)
        cr_assert_eq(got[i], want[i], "element %d: got %g, want %g", i, got[i], want[i]);
    int nall;
    run_against_eval(p, (const void *const[]){xv, uv, rv, idv}, 20, &nall);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}
