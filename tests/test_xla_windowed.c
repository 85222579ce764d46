/*
 * test_xla_windowed.c — XLA's windowed einsums in a plan under the memory
 * model (sim/spmd/xla_windowed.c): a weight gradient's dot whose result is
 * reduce-scattered over a ring of 16 and read only by the step's outputs
 * moves after the loop that follows it, with its operand kept in bf16.
 * The reference is the same step written in that order: the model's plan
 * of the one must be the plan of the other, byte for byte. Rings of 8 and
 * 64 are not windowed (XLA's are loops over 8 to 32 devices, and the
 * model's lower end is 16): there the model changes nothing. XLA's side
 * of the rule is the LARGE LM's v5e 16x16 records in
 * tests/xla_tpu/test_vs_xla.py and the probes of make_windowed.py.
 */
#include "spmd/lower.h"
#include "support.h"

#include <criterion/criterion.h>

enum { ROWS = 16, K = 256, N = 512, D = 8192, STEPS = 4 };

/* The scan's body: c = tanh(c). */
static ss_status squash(ss_program *p, const ss_value carry[], const ss_value xs[],
                        ss_value next[], ss_value ys[], void *user)
{
    (void)xs, (void)ys, (void)user;
    return ss_unary(p, SS_TANH, carry[0], &next[0]);
}

/* The scan's body with a stacked input: c = c + x (x the step's slice). */
static ss_status add_slice(ss_program *p, const ss_value carry[], const ss_value xs[],
                           ss_value next[], ss_value ys[], void *user)
{
    (void)ys, (void)user;
    return ss_binary(p, SS_ADD, carry[0], xs[0], &next[0]);
}

/* What the step's scan reads besides its carry. */
typedef enum scan_kind {
    PLAIN,   /* a carry c of its own */
    STACKED, /* also a temporary stack, dead after the scan (its FREE follows it) */
    ADOPTS,  /* its carry starts as the dot's other operand, which it takes over */
} scan_kind;

/*
 * A step on `ndev` devices of axis 'x': tt = transpose(tanh(a)), the
 * weight gradient dw = tt @ g reduce-scattered to P('x', None), and a
 * scan that does not read dw; `late` writes the dot and its scatter after
 * the scan instead of before it.
 */
static ss_program *step(ss_mesh *mesh, int ndev, scan_kind scan, bool late)
{
    ss_program *p;
    TS_OK(ss_program_create(mesh, &p));
    int64_t rows = (int64_t)ROWS * ndev;
    ss_value a = ts_input(p, "a", "P('x', None)", 2, rows, K);
    ss_value g = ts_input(p, "g", "P('x', None)", 2, rows, N);
    ss_value c = ts_input(p, "c", "P('x', None)", 2, rows, scan == ADOPTS ? N : D);
    ss_spec scattered;
    TS_OK(ss_spec_parse("P('x', None)", &scattered));
    ss_value t, tt, dw, dws, fin, stack;
    TS_OK(ss_unary(p, SS_TANH, a, &t));
    TS_OK(ss_transpose(p, t, (const int[]){1, 0}, &tt));
    if (scan == ADOPTS) { /* the dot reads g2, which the scan takes over */
        TS_OK(ss_unary(p, SS_TANH, g, &g));
        (void)c;
        c = g;
    }
    if (scan == STACKED) {
        ss_value s = ts_input(p, "s", "P(None, 'x', None)", 3, (int64_t)STEPS, rows, D);
        TS_OK(ss_unary(p, SS_TANH, s, &stack));
    }
    if (!late) {
        TS_OK(ss_matmul(p, tt, g, &dw));
        TS_OK(ss_constrain(p, dw, &scattered, &dws));
    }
    if (scan == STACKED)
        TS_OK(ss_scan(p, add_slice, NULL, STEPS, 1, &c, 1, &stack, 0, &fin, NULL));
    else
        TS_OK(ss_scan(p, squash, NULL, STEPS, 1, &c, 0, NULL, 0, &fin, NULL));
    if (late) {
        TS_OK(ss_matmul(p, tt, g, &dw));
        TS_OK(ss_constrain(p, dw, &scattered, &dws));
    }
    TS_OK(ss_output(p, dws, NULL));
    TS_OK(ss_output(p, fin, NULL));
    return p;
}

/* The memory model of these tests: XLA's windowed einsums over rings of
 * 16 to 32 when `windows`, nothing else (a dense layout, no fusion). */
static ss_memory_model model(bool windows)
{
    ss_memory_model m = {SS_LAYOUT_DENSE, 0, false, false, false, 0, 0, false, false, 0, 0, false,
                         windows ? 16 : 0, windows ? 32 : 0};
    return m;
}

/* The step on ndev devices, compiled; free it with done(). */
typedef struct compiled {
    ss_mesh *mesh;
    ss_program *p;
    ss_executable *e;
} compiled;

static compiled compile_step(int ndev, scan_kind scan, bool late)
{
    char text[32];
    snprintf(text, sizeof text, "x=%d", ndev);
    compiled c = {ts_make_mesh(text, ndev), NULL, NULL};
    c.p = step(c.mesh, ndev, scan, late);
    TS_OK(ss_program_compile(c.p, &c.e));
    return c;
}

static void done(compiled *c)
{
    ss_executable_destroy(c->e);
    ss_program_destroy(c->p);
    ss_mesh_destroy(c->mesh);
}

/* The step's planned peak on ndev devices under model(windows). */
static size_t planned_peak(int ndev, scan_kind scan, bool late, bool windows)
{
    compiled c = compile_step(ndev, scan, late);
    ss_memory_model m = model(windows);
    TS_OK(ss_executable_model_gathers(c.e, &m, NULL));
    ss_plan plan;
    TS_OK(ss_executable_plan_model(c.e, NULL, &m, &plan));
    done(&c);
    return plan.peak_bytes;
}

Test(xla_windowed, the_weight_gradient_moves_after_the_loop_as_if_written_there)
{
    for (int k = 0; k < 2; k++) {
        scan_kind scan = k ? STACKED : PLAIN;
        size_t moved = planned_peak(16, scan, false, true),
               written = planned_peak(16, scan, true, true);
        cr_assert_eq(moved, written, "scan %d: %zu B planned, %zu B written after the loop",
                     (int)scan, moved, written);
        /* Without the model the operand (bf16 [K, ROWS] per device) is not
         * held through the loop, and the scattered gradient is made before
         * it: the plans differ, so the move is what made them equal. */
        size_t plain = planned_peak(16, scan, false, false),
               plain_late = planned_peak(16, scan, true, false);
        cr_assert_neq(plain, plain_late, "the order matters to the plan: %zu B", plain);
        cr_assert_neq(moved, plain, "the model changed nothing: %zu B", moved);
    }
}

/* How many dots the late schedule moves in the step's executable. */
static int moved_dots(int ndev, scan_kind scan)
{
    compiled c = compile_step(ndev, scan, false);
    ss_memory_model m = model(true);
    int moved = -1;
    TS_OK(ss__executable_xla_windowed_late(c.e, NULL, &m, &moved));
    done(&c);
    return moved;
}

/* The dot moves unless the scan takes over (adopts) its other operand as
 * its carry: after the scan the dot would read what the scan wrote over. */
Test(xla_windowed, a_dot_whose_operand_the_loop_takes_over_stays)
{
    cr_assert_eq(moved_dots(16, PLAIN), 1);
    cr_assert_eq(moved_dots(16, STACKED), 1);
    cr_assert_eq(moved_dots(16, ADOPTS), 0);
    cr_assert_eq(moved_dots(8, PLAIN), 0, "a ring of 8 is not windowed");
}

Test(xla_windowed, rings_of_8_and_64_are_not_windowed)
{
    for (int k = 0; k < 2; k++) {
        int ndev = k ? 64 : 8;
        size_t with = planned_peak(ndev, PLAIN, false, true),
               without = planned_peak(ndev, PLAIN, false, false);
        cr_assert_eq(with, without, "%d devices: %zu B with the model, %zu B without", ndev,
                     with, without);
    }
}
