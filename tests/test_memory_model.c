/*
 * test_memory_model.c — ss_executable_plan_model: an accelerator
 * compiler's memory accounting over the plan. The references are the plan
 * without a model (ss_executable_plan_arrays) and the bytes of the
 * program's arguments and results, counted here from their shapes.
 */
#include "support.h"

#include <stdint.h>
#include <string.h>

/* x f32[64,32] @ w1 f32[32,256] -> h (a temporary, 64 KiB), h @ w2
 * f32[256,32] -> y, the result; with `exp_result`, y = tanh(exp(h @ w2)),
 * one fused loop written in place over the dot's temporary. */
typedef struct mlp {
    ss_mesh *mesh;
    ss_program *p;
    ss_executable *e;
    size_t args, result, h;
} mlp;

static void mlp_make(mlp *m, bool exp_result)
{
    TS_OK(ss_mesh_parse("x=1", 1, NULL, &m->mesh));
    TS_OK(ss_program_create(m->mesh, &m->p));
    int64_t xs[2] = {64, 32}, w1s[2] = {32, 256}, w2s[2] = {256, 32};
    ss_value x, w1, w2, h, y;
    TS_OK(ss_input(m->p, "x", SS_F32, 2, xs, NULL, &x));
    TS_OK(ss_input(m->p, "w1", SS_F32, 2, w1s, NULL, &w1));
    TS_OK(ss_input(m->p, "w2", SS_F32, 2, w2s, NULL, &w2));
    TS_OK(ss_matmul(m->p, x, w1, &h));
    TS_OK(ss_matmul(m->p, h, w2, &y));
    if (exp_result) {
        TS_OK(ss_unary(m->p, SS_EXP, y, &y));
        TS_OK(ss_unary(m->p, SS_TANH, y, &y));
    }
    TS_OK(ss_output(m->p, y, NULL));
    TS_OK(ss_program_compile(m->p, &m->e));
    m->args = ss_device_buffer_bytes(64 * 32 * 4) + ss_device_buffer_bytes(32 * 256 * 4) +
              ss_device_buffer_bytes(256 * 32 * 4);
    m->result = ss_device_buffer_bytes(64 * 32 * 4);
    m->h = ss_device_buffer_bytes(64 * 256 * 4);
}

static void mlp_free(mlp *m)
{
    ss_executable_destroy(m->e);
    ss_program_destroy(m->p);
    ss_mesh_destroy(m->mesh);
}

/* No on-chip memory and dense layout: the plan of the run on arrays. */
Test(memory_model, none_is_the_plain_plan)
{
    mlp m;
    mlp_make(&m, false);
    ss_plan plain, model;
    TS_OK(ss_executable_plan_arrays(m.e, NULL, &plain));
    ss_memory_model none = {SS_LAYOUT_DENSE, 0, false, false, false, 0, 0, false, false, 0, 0, false, 0, 0};
    TS_OK(ss_executable_plan_model(m.e, NULL, &none, &model));
    cr_assert_eq(model.peak_bytes, plain.peak_bytes);
    cr_assert_eq(model.flops, plain.flops);
    cr_assert_geq(plain.peak_bytes, m.args + m.h + m.result, "h and y live together: %zu",
                  plain.peak_bytes);
    mlp_free(&m);
}

/* Room for every temporary on chip: HBM holds the arguments and the
 * result, nothing else. */
Test(memory_model, temporaries_that_fit_leave_hbm)
{
    mlp m;
    mlp_make(&m, false);
    ss_memory_model big = {SS_LAYOUT_DENSE, (size_t)1 << 40, false, false, false, 0, 0, false, false, 0, 0, false, 0, 0};
    ss_plan plan;
    TS_OK(ss_executable_plan_model(m.e, NULL, &big, &plan));
    cr_assert_eq(plan.peak_bytes, m.args + m.result, "peak %zu, arguments %zu + result %zu",
                 plan.peak_bytes, m.args, m.result);
    mlp_free(&m);
}

/* A temporary one byte larger than the room stays in HBM: the peak is the
 * plain plan's (the room is too small for h, and h is the peak's only
 * temporary buffer). */
Test(memory_model, a_temporary_too_large_stays_in_hbm)
{
    mlp m;
    mlp_make(&m, false);
    ss_plan plain, plan;
    TS_OK(ss_executable_plan_arrays(m.e, NULL, &plain));
    ss_memory_model small = {SS_LAYOUT_DENSE, m.h - 1, false, false, false, 0, 0, false, false, 0, 0, false, 0, 0};
    TS_OK(ss_executable_plan_model(m.e, NULL, &small, &plan));
    cr_assert_geq(plan.peak_bytes, m.args + m.h + m.result, "peak %zu", plan.peak_bytes);
    cr_assert_leq(plan.peak_bytes, plain.peak_bytes);
    mlp_free(&m);
}

/* A temporary read by dots only (h, read by h @ w2) stays in HBM under
 * onchip_not_dot_operands, however large the room on chip: the peak is
 * the plain plan's, as with no room at all. */
Test(memory_model, a_dot_operand_stays_in_hbm)
{
    mlp m;
    mlp_make(&m, false);
    ss_plan plain, plan;
    TS_OK(ss_executable_plan_arrays(m.e, NULL, &plain));
    ss_memory_model big = {SS_LAYOUT_DENSE, (size_t)1 << 40, false, false, false, 0, 0, false, false, 0, 0, true, 0, 0};
    TS_OK(ss_executable_plan_model(m.e, NULL, &big, &plan));
    cr_assert_geq(plan.peak_bytes, m.args + m.h + m.result, "peak %zu", plan.peak_bytes);
    cr_assert_eq(plan.peak_bytes, plain.peak_bytes);
    mlp_free(&m);
}

/* A result written in place over an on-chip temporary is still a result:
 * it is counted in HBM. */
Test(memory_model, results_written_over_temporaries_count)
{
    mlp m;
    mlp_make(&m, true);
    ss_memory_model big = {SS_LAYOUT_DENSE, (size_t)1 << 40, false, false, false, 0, 0, false, false, 0, 0, false, 0, 0};
    ss_plan plan;
    TS_OK(ss_executable_plan_model(m.e, NULL, &big, &plan));
    cr_assert_eq(plan.peak_bytes, m.args + m.result, "peak %zu, arguments %zu + result %zu",
                 plan.peak_bytes, m.args, m.result);
    mlp_free(&m);
}

/* The TPU layout sizes what stays in HBM: f32[64,32] pads its minor
 * dimension to 128 (ss_layout_array_bytes). */
Test(memory_model, layout_sizes_hbm)
{
    mlp m;
    mlp_make(&m, false);
    ss_memory_model tpu = {SS_LAYOUT_TPU, (size_t)1 << 40, false, false, false, 0, 0, false, false, 0, 0, false, 0, 0};
    ss_plan plan;
    TS_OK(ss_executable_plan_model(m.e, NULL, &tpu, &plan));
    int64_t xs[2] = {64, 32}, w1s[2] = {32, 256}, w2s[2] = {256, 32};
    size_t want = ss_device_buffer_bytes(ss_layout_array_bytes(SS_LAYOUT_TPU, SS_F32, 2, xs)) * 2 +
                  ss_device_buffer_bytes(ss_layout_array_bytes(SS_LAYOUT_TPU, SS_F32, 2, w1s)) +
                  ss_device_buffer_bytes(ss_layout_array_bytes(SS_LAYOUT_TPU, SS_F32, 2, w2s));
    cr_assert_eq(plan.peak_bytes, want, "peak %zu, want %zu", plan.peak_bytes, want);
    cr_assert_gt(want, m.args + m.result, "padding counted");
    ss_memory_model bad = {(ss_memory_layout)7, 0, false, false, false, 0, 0, false, false, 0, 0, false, 0, 0};
    cr_assert_eq(ss_executable_plan_model(m.e, NULL, &bad, &plan), SS_ERR_INVALID);
    cr_assert_eq(ss_executable_plan_model(m.e, NULL, NULL, &plan), SS_ERR_INVALID);
    mlp_free(&m);
}

/* The TPU profiles carry their HBM and their compiler's accounting. */
Test(memory_model, tpu_profiles)
{
    const ss_hw_profile *e = ss_hw_profile_find("tpu-v5e"), *p = ss_hw_profile_find("tpu-v5p");
    cr_assert(e && p);
    /* What XLA's out-of-memory errors call available (the records of the
     * fit sweep): 15.75G and 95.74G. */
    cr_assert_eq(e->hbm_bytes, (size_t)63 << 28);
    cr_assert(p->hbm_bytes > (size_t)(95.735 * (1 << 30)) && p->hbm_bytes < (size_t)(95.745 * (1 << 30)));
    cr_assert_eq(e->memory.layout, SS_LAYOUT_TPU);
    cr_assert_eq(p->memory.layout, SS_LAYOUT_TPU);
    cr_assert_gt(e->memory.onchip_bytes, 0u);
    /* v5p's on-chip budget is fitted to XLA's buffer assignments (profiles.c):
     * some, less than v5e's. */
    cr_assert_gt(p->memory.onchip_bytes, 0u);
    cr_assert_lt(p->memory.onchip_bytes, e->memory.onchip_bytes);
}

/* Sum of a peak detail's entries: what each entry says it is. */
static size_t detail_sum(const ss_executable *e, const ss_memory_model *model, ss_plan *plan,
                         int *nargs, int *nresults, int *ntemps)
{
    ss_live_buffer buf[64];
    int n = 0;
    TS_OK(ss_executable_peak_detail(e, NULL, model, buf, 64, &n, plan));
    cr_assert_lt(n, 64);
    size_t sum = 0;
    *nargs = *nresults = *ntemps = 0;
    for (int k = 0; k < n; k++) {
        sum += buf[k].bytes;
        *nargs += buf[k].role == SS_BUFFER_ARGUMENT;
        *nresults += buf[k].role == SS_BUFFER_RESULT;
        *ntemps += buf[k].role == SS_BUFFER_TEMPORARY;
        if (k)
            cr_assert_geq(buf[k - 1].bytes, buf[k].bytes, "largest first");
    }
    return sum;
}

/* The peak's buffers add up to the peak, with or without a model, and
 * name their roles: at the second dot, the three arguments, h and y; with
 * room on chip, h leaves the list. */
Test(memory_model, peak_detail_adds_up)
{
    mlp m;
    mlp_make(&m, false);
    ss_plan plain, plan;
    TS_OK(ss_executable_plan_arrays(m.e, NULL, &plain));
    int na, nr, nt;
    cr_assert_eq(detail_sum(m.e, NULL, &plan, &na, &nr, &nt), plain.peak_bytes);
    cr_assert_eq(plan.peak_bytes, plain.peak_bytes);
    cr_assert_eq(na, 3);
    cr_assert_eq(nr, 1);
    cr_assert_eq(nt, 1, "h");
    ss_memory_model big = {SS_LAYOUT_TPU, (size_t)1 << 40, false, false, false, 0, 0, false, false, 0, 0, false, 0, 0};
    ss_plan modelled;
    TS_OK(ss_executable_plan_model(m.e, NULL, &big, &modelled));
    cr_assert_eq(detail_sum(m.e, &big, &plan, &na, &nr, &nt), modelled.peak_bytes);
    cr_assert_eq(plan.peak_bytes, modelled.peak_bytes);
    cr_assert_eq(nt, 0, "h is on chip");
    mlp_free(&m);
}

/* c' = tanh(c * x_i) for each row x_i of xs, y_i = c'. */
static ss_status tanh_step(ss_program *p, const ss_value carry[], const ss_value xs[],
                           ss_value next[], ss_value ys[], void *user)
{
    (void)user;
    ss_value m;
    ss_status st = ss_binary(p, SS_MUL, carry[0], xs[0], &m);
    if (!st)
        st = ss_unary(p, SS_TANH, m, &next[0]);
    if (!st)
        ys[0] = next[0];
    return st;
}

/* c' = sum over 16 rows of exp(broadcast(c * x_i)): the body's run holds
 * a 16-row temporary, larger than the loop's carry and stacked outputs. */
static ss_status wide_step(ss_program *p, const ss_value carry[], const ss_value xs[],
                           ss_value next[], ss_value ys[], void *user)
{
    (void)user;
    ss_value m, b, x;
    int64_t wide[2] = {16, 256};
    ss_status st = ss_binary(p, SS_MUL, carry[0], xs[0], &m);
    if (!st)
        st = ss_broadcast_in_dim(p, m, 2, wide, (int[]){1}, &b);
    if (!st)
        st = ss_unary(p, SS_EXP, b, &x);
    if (!st)
        st = ss_reduce(p, SS_REDUCE_SUM, x, 1, (int[]){0}, 0, &next[0]);
    if (!st)
        ys[0] = next[0];
    return st;
}

/* ys = scan(step) over c f32[256] and xs f32[8, 256] on one device,
 * compiled: the two loop tests' program. */
static void scan_program(ss_scan_body step, ss_mesh **mesh, ss_program **p, ss_executable **e)
{
    TS_OK(ss_mesh_parse("x=1", 1, NULL, mesh));
    TS_OK(ss_program_create(*mesh, p));
    int64_t cs[1] = {256}, xs_shape[2] = {8, 256};
    ss_value c, xs, out, ys;
    TS_OK(ss_input(*p, "c", SS_F32, 1, cs, NULL, &c));
    TS_OK(ss_input(*p, "xs", SS_F32, 2, xs_shape, NULL, &xs));
    TS_OK(ss_scan(*p, step, NULL, -1, 1, &c, 1, &xs, 1, &out, &ys));
    TS_OK(ss_output(*p, ys, NULL));
    TS_OK(ss_program_compile(*p, e));
}

/* A scan whose body's run makes the peak lists the body's buffers there
 * (each naming the loop) and one entry for the rest of the loop; the
 * entries still add up to the peak. */
Test(memory_model, peak_detail_of_a_loop)
{
    ss_mesh *mesh;
    ss_program *p;
    ss_executable *e;
    scan_program(wide_step, &mesh, &p, &e);
    ss_plan plain, plan;
    TS_OK(ss_executable_plan_arrays(e, NULL, &plain));
    ss_live_buffer buf[16];
    int n = 0;
    TS_OK(ss_executable_peak_detail(e, NULL, NULL, buf, 16, &n, &plan));
    cr_assert_eq(plan.peak_bytes, plain.peak_bytes);
    size_t sum = 0;
    int loops = 0, in_body = 0, wide = 0;
    for (int k = 0; k < n; k++) {
        sum += buf[k].bytes;
        loops += buf[k].role == SS_BUFFER_LOOP;
        if (buf[k].loop >= 0) {
            in_body++;
            cr_assert_str_eq(ss_value_op_name(p, buf[k].loop), "scan", "%s", buf[k].name);
            wide += buf[k].bytes >= 16 * 256 * 4;
        }
    }
    cr_assert_eq(sum, plan.peak_bytes, "entries %zu, peak %zu", sum, plan.peak_bytes);
    cr_assert_leq(loops, 1, "the rest of the loop, if any");
    cr_assert_gt(in_body, 0, "the body's buffers");
    cr_assert_eq(wide, 1, "the 16-row temporary");
    cr_assert_eq(ss_executable_peak_detail(e, NULL, NULL, NULL, 4, &n, &plan), SS_ERR_INVALID);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(mesh);
}

/* XLA's TPU bookkeeping (xla_bookkeeping.c) and loops on chip: a program
 * with a scan gets one SS_BUFFER_BOOKKEEPING entry of slots x slot bytes
 * on top of its peak; with loops_onchip the scan's carries, ys and body
 * leave HBM when they fit, and only its ys that are results of the run
 * stay; the entries still add up. */
Test(memory_model, bookkeeping_and_loops_on_chip)
{
    ss_mesh *mesh;
    ss_program *p;
    ss_executable *e;
    scan_program(tanh_step, &mesh, &p, &e);
    ss_memory_model hbm = {SS_LAYOUT_DENSE, (size_t)1 << 40, false, false, false, 0, 0, false, false, 0, 0, false, 0, 0};
    ss_memory_model book = hbm, chip = hbm;
    book.bookkeeping_slot_bytes = 1000;
    book.bookkeeping_slots = 3;
    chip.loops_onchip = true;
    ss_plan a, b, d;
    TS_OK(ss_executable_plan_model(e, NULL, &hbm, &a));
    TS_OK(ss_executable_plan_model(e, NULL, &book, &b));
    TS_OK(ss_executable_plan_model(e, NULL, &chip, &d));
    cr_assert_eq(b.peak_bytes, a.peak_bytes + 3000);
    /* on chip: arguments and the stacked ys (the run's result) remain */
    size_t args = ss_device_buffer_bytes(256 * 4) + ss_device_buffer_bytes(8 * 256 * 4);
    cr_assert_eq(d.peak_bytes, args + ss_device_buffer_bytes(8 * 256 * 4), "on chip %zu, in HBM %zu",
                 d.peak_bytes, a.peak_bytes);
    cr_assert_lt(d.peak_bytes, a.peak_bytes);
    ss_live_buffer buf[16];
    int n = 0, books = 0;
    ss_plan plan;
    TS_OK(ss_executable_peak_detail(e, NULL, &book, buf, 16, &n, &plan));
    cr_assert_eq(plan.peak_bytes, b.peak_bytes);
    size_t sum = 0;
    for (int k = 0; k < n; k++) {
        sum += buf[k].bytes;
        books += buf[k].role == SS_BUFFER_BOOKKEEPING && buf[k].bytes == 3000;
    }
    cr_assert_eq(sum, plan.peak_bytes);
    cr_assert_eq(books, 1);
    TS_OK(ss_executable_peak_detail(e, NULL, &chip, buf, 16, &n, &plan));
    sum = 0;
    for (int k = 0; k < n; k++)
        sum += buf[k].bytes;
    cr_assert_eq(sum, plan.peak_bytes);
    cr_assert_eq(plan.peak_bytes, d.peak_bytes);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(mesh);
}

/* XLA's heap (xla_heap.c): six temporaries of u = 8 KiB (x f32[64,32]
 * times weights of 12, 4, 8, 16, 4 and 4 x 32 columns): A 12u, B = A w 4u,
 * C = B w 8u, D = B w 16u, E = C w 4u, F = D w 4u, the result E + F. Placed
 * in schedule order by hand: A at 0, B at 12u (A alive), C at 0 (A dead),
 * D on top at 16u (the gap 8u-12u is too small), E at 8u, F at 12u: a heap
 * of 32u. At most 28u alive at once (B C D, C D E), so XLA's temp is
 * 2 x 32u - 28u = 36u: 8u more than the plan's temporaries, one
 * SS_BUFFER_FRAGMENTATION entry. Placed largest first (an HBM too small
 * for schedule order's heap): D 0, A 0, C 16u, B 24u, E 24u, F 16u, 28u,
 * no gap. */
static void gappy_program(ss_mesh **mesh, ss_program **p, ss_executable **e)
{
    TS_OK(ss_mesh_parse("x=1", 1, NULL, mesh));
    TS_OK(ss_program_create(*mesh, p));
    int64_t xs[2] = {64, 32};
    ss_value x, a, b, c, d, ev, f, y;
    TS_OK(ss_input(*p, "x", SS_F32, 2, xs, NULL, &x));
    const int64_t cols[][2] = {{32, 384}, {384, 128}, {128, 256}, {128, 512}, {256, 128}, {512, 128}};
    ss_value w[6];
    for (int k = 0; k < 6; k++) {
        char name[8];
        snprintf(name, sizeof name, "w%d", k);
        TS_OK(ss_input(*p, name, SS_F32, 2, cols[k], NULL, &w[k]));
    }
    TS_OK(ss_matmul(*p, x, w[0], &a));
    TS_OK(ss_matmul(*p, a, w[1], &b));
    TS_OK(ss_matmul(*p, b, w[2], &c));
    TS_OK(ss_matmul(*p, b, w[3], &d));
    TS_OK(ss_matmul(*p, c, w[4], &ev));
    TS_OK(ss_matmul(*p, d, w[5], &f));
    TS_OK(ss_binary(*p, SS_ADD, ev, f, &y));
    TS_OK(ss_output(*p, y, NULL));
    TS_OK(ss_program_compile(*p, e));
}

Test(memory_model, xla_heap_gaps_counted_twice)
{
    ss_mesh *mesh;
    ss_program *p;
    ss_executable *e;
    gappy_program(&mesh, &p, &e);
    const size_t u = 64 * 32 * 4;
    ss_memory_model plain = {SS_LAYOUT_DENSE, 0, false, false, false, 0, 0, false, false, 0, 0, false, 0, 0};
    ss_memory_model heap = plain, tight = plain;
    heap.xla_heap_hbm_bytes = (size_t)1 << 40;
    tight.xla_heap_hbm_bytes = 1; /* schedule order never fits: largest first */
    ss_plan a, b, c;
    TS_OK(ss_executable_plan_model(e, NULL, &plain, &a));
    TS_OK(ss_executable_plan_model(e, NULL, &heap, &b));
    TS_OK(ss_executable_plan_model(e, NULL, &tight, &c));
    cr_assert_eq(b.peak_bytes, a.peak_bytes + 8 * u, "plain %zu, with the heap %zu", a.peak_bytes,
                 b.peak_bytes);
    cr_assert_eq(c.peak_bytes, a.peak_bytes);
    ss_live_buffer buf[32];
    int n = 0, gaps = 0;
    ss_plan plan;
    TS_OK(ss_executable_peak_detail(e, NULL, &heap, buf, 32, &n, &plan));
    cr_assert_eq(plan.peak_bytes, b.peak_bytes);
    size_t sum = 0;
    for (int k = 0; k < n; k++) {
        sum += buf[k].bytes;
        gaps += buf[k].role == SS_BUFFER_FRAGMENTATION && buf[k].bytes == 8 * u;
    }
    cr_assert_eq(sum, plan.peak_bytes);
    cr_assert_eq(gaps, 1);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(mesh);
}

/* xla_fusion (xla_fusion.c): y = broadcast(v f32[256] -> [64,256]) @
 * w f32[256,32]. XLA fuses the broadcast into the dot that reads it, so
 * the modelled peak is the plain plan's less the broadcast's 64 KiB,
 * counted from its shape; the values of a run are not touched. */
Test(memory_model, fused_broadcast_is_not_counted)
{
    ss_mesh *mesh;
    ss_program *p;
    ss_executable *e;
    TS_OK(ss_mesh_parse("x=1", 1, NULL, &mesh));
    TS_OK(ss_program_create(mesh, &p));
    int64_t vs[1] = {256}, ws[2] = {256, 32}, bs[2] = {64, 256};
    int dims[1] = {1};
    ss_value v, w, b, y;
    TS_OK(ss_input(p, "v", SS_F32, 1, vs, NULL, &v));
    TS_OK(ss_input(p, "w", SS_F32, 2, ws, NULL, &w));
    TS_OK(ss_broadcast_in_dim(p, v, 2, bs, dims, &b));
    TS_OK(ss_matmul(p, b, w, &y));
    TS_OK(ss_output(p, y, NULL));
    TS_OK(ss_program_compile(p, &e));
    ss_memory_model plain = {SS_LAYOUT_DENSE, 0, false, false, false, 0, 0, false, false, 0, 0, false, 0, 0}, fused = {SS_LAYOUT_DENSE, 0, true, false, false, 0, 0, false, false, 0, 0, false, 0, 0};
    ss_plan a, f;
    TS_OK(ss_executable_plan_model(e, NULL, &plain, &a));
    TS_OK(ss_executable_plan_model(e, NULL, &fused, &f));
    cr_assert_eq(f.peak_bytes, a.peak_bytes - ss_device_buffer_bytes(64 * 256 * 4),
                 "plain %zu fused %zu", a.peak_bytes, f.peak_bytes);
    cr_assert_eq(f.flops, a.flops);
    /* The fused-away broadcast is not among the buffers at the peak. */
    ss_live_buffer live[16];
    int n;
    TS_OK(ss_executable_peak_detail(e, NULL, &fused, live, 16, &n, &f));
    size_t sum = 0;
    for (int k = 0; k < n; k++)
        sum += live[k].bytes;
    cr_assert_eq(sum, f.peak_bytes);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(mesh);
}
