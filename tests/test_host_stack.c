/*
 * test_host_stack.c — a stacked buffer in host memory through loop
 * carries, built with the program builder as JAX's scan with
 * save_and_offload_only_these_names lowers it for TPU (the fixtures of
 * tests/data/jax_offload_tpu): a forward while loop puts each step's
 * activation in pinned_host memory and writes it into a stack of zeros
 * (dynamic_update_slice), a backward while loop reads the steps back in
 * reverse (dynamic_slice). Checked against a naive single-threaded
 * computation of the same recurrences, against the same program with the
 * stack in device memory, and the run's arenas against the plan.
 */
#include "support.h"

#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

enum { STEPS = 4, ROWS = 64, COLS = 16, DEVICES = 8 };

typedef struct loops {
    bool offload;   /* put each step's activation in pinned_host */
    ss_value four;  /* i32 STEPS */
    ss_value one;   /* i32 1 */
    ss_value zero;  /* i32 0 */
    ss_value half;  /* f32 0.5 */
} loops;

static ss_status below_four(ss_program *p, const ss_value carry[], ss_value *pred, void *user)
{
    const loops *L = user;
    return ss_compare(p, SS_CMP_LT, SS_CMP_SIGNED, carry[0], L->four, pred);
}

/* carry: i, h, stack. h' = sin(h); stack[i] = h' (in host memory when
 * offloading). */
static ss_status forward_step(ss_program *p, const ss_value carry[], ss_value next[], void *user)
{
    const loops *L = user;
    ss_value h, put, row, at[3] = {carry[0], L->zero, L->zero};
    ss_status st = ss_unary(p, SS_SIN, carry[1], &h);
    put = h;
    if (!st && L->offload)
        st = ss_device_put(p, h, SS_MEMORY_PINNED_HOST, &put);
    if (!st)
        st = ss_broadcast_in_dim(p, put, 3, (int64_t[]){1, ROWS, COLS}, (int[]){1, 2}, &row);
    if (!st)
        st = ss_dynamic_update_slice(p, carry[2], row, 3, at, &next[2]);
    if (!st)
        st = ss_binary(p, SS_ADD, carry[0], L->one, &next[0]);
    next[1] = h;
    return st;
}

/* carry: j, acc, stack. acc' = 0.5 * acc + stack[STEPS - 1 - j]. */
static ss_status backward_step(ss_program *p, const ss_value carry[], ss_value next[], void *user)
{
    const loops *L = user;
    ss_value k, slice, row, scaled, at[3];
    ss_status st = ss_binary(p, SS_SUB, L->four, carry[0], &k);
    if (!st)
        st = ss_binary(p, SS_SUB, k, L->one, &k);
    at[0] = k;
    at[1] = at[2] = L->zero;
    if (!st)
        st = ss_dynamic_slice(p, carry[2], 3, at, (int64_t[]){1, ROWS, COLS}, &slice);
    if (!st)
        st = ss_reshape(p, slice, 2, (int64_t[]){ROWS, COLS}, &row);
    if (!st)
        st = ss_binary(p, SS_MUL, carry[1], L->half, &scaled);
    if (!st)
        st = ss_binary(p, SS_ADD, scaled, row, &next[1]);
    if (!st)
        st = ss_binary(p, SS_ADD, carry[0], L->one, &next[0]);
    next[2] = carry[2];
    return st;
}

static ss_value i32(ss_program *p, int32_t v)
{
    ss_value out;
    TS_OK(ss_constant_array(p, SS_I32, 0, NULL, &v, &out));
    return out;
}

/* The two loops on x f32[ROWS, COLS] P('x'); the output is acc. */
static ss_program *build(ss_mesh *m, bool offload)
{
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_spec xs = ts_spec("P('x')");
    ss_value x, zf, stack, acc0, fin[3], bk[3];
    TS_OK(ss_input(p, "x", SS_F32, 2, (int64_t[]){ROWS, COLS}, &xs, &x));
    loops L = {offload, i32(p, STEPS), i32(p, 1), i32(p, 0), 0};
    TS_OK(ss_constant(p, 0.5, &L.half));
    TS_OK(ss_constant(p, 0.0, &zf));
    TS_OK(ss_broadcast_in_dim(p, zf, 3, (int64_t[]){STEPS, ROWS, COLS}, NULL, &stack));
    TS_OK(ss_while_loop(p, below_four, forward_step, &L, 3,
                        (ss_value[]){i32(p, 0), x, stack}, fin));
    TS_OK(ss_constant(p, 0.0, &zf));
    TS_OK(ss_broadcast_in_dim(p, zf, 2, (int64_t[]){ROWS, COLS}, NULL, &acc0));
    TS_OK(ss_while_loop(p, below_four, backward_step, &L, 3,
                        (ss_value[]){i32(p, 0), acc0, fin[2]}, bk));
    TS_OK(ss_output(p, bk[1], &xs));
    return p;
}

/* The recurrences in plain C, one element at a time. */
static void naive(const float *x, float *acc)
{
    for (int e = 0; e < ROWS * COLS; e++) {
        float h = x[e], stack[STEPS], a = 0.0f;
        for (int i = 0; i < STEPS; i++)
            stack[i] = h = sinf(h);
        for (int j = 0; j < STEPS; j++)
            a = a * 0.5f + stack[STEPS - 1 - j];
        acc[e] = a;
    }
}

static ss_mesh *mesh8(void)
{
    ss_mesh *m;
    TS_OK(ss_mesh_create(1, (const char *[]){"x"}, (int64_t[]){DEVICES}, DEVICES, NULL, &m));
    return m;
}

/* The offloaded program equals the naive loops; the stack (f32[4, 64, 16]
 * split 8 ways on its rows: 2 KiB per device) lives in host memory, each
 * step moving one slice (512 B per device) out and one back in; the run's
 * arenas peak where the plan says, device and host. */
Test(host_stack, offloaded_stack_runs_as_the_naive_loops)
{
    ss_mesh *m = mesh8();
    ss_program *p = build(m, true);
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    ss_plan plan;
    TS_OK(ss_executable_plan(e, &plan));
    size_t slice = ROWS / DEVICES * COLS * sizeof(float), stack = STEPS * slice;
    cr_assert_eq(plan.to_host_bytes, (double)stack, "%g", plan.to_host_bytes);
    cr_assert_eq(plan.to_device_bytes, (double)stack, "%g", plan.to_device_bytes);
    cr_assert_eq(plan.transfers, 2 * STEPS);
    cr_assert_geq(plan.host_peak_bytes, ss_device_buffer_bytes(stack));
    ss_context *ctx;
    TS_OK(ss_context_create(&(ss_context_options){.ndevices = DEVICES,
                                                  .device_memory = 1 << 20, .hosts = 2},
                            &ctx));
    float in[ROWS * COLS], out[ROWS * COLS], want[ROWS * COLS];
    for (int k = 0; k < ROWS * COLS; k++)
        in[k] = (float)(k % 29) / 7.0f - 2.0f;
    naive(in, want);
    TS_OK(ss_executable_run(e, ctx, (const void *[]){in}, (void *[]){out}));
    for (int k = 0; k < ROWS * COLS; k++)
        cr_assert_float_eq(out[k], want[k], 1e-5f, "element %d: %g vs %g", k, out[k], want[k]);
    for (int dev = 0; dev < DEVICES; dev++) {
        ss_memory_stats ms;
        TS_OK(ss_device_host_memory_stats(ctx, dev, &ms));
        cr_assert_eq(ms.peak_bytes, plan.host_peak_bytes, "device %d host memory", dev);
        TS_OK(ss_device_memory_stats(ctx, dev, &ms));
        cr_assert_eq(ms.peak_bytes, plan.peak_bytes, "device %d", dev);
    }
    ss_context_destroy(ctx);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* Offloading takes the stack out of device memory: the device peak drops
 * by at least the stack's bytes against the same loops keeping it there,
 * which move nothing over the host link. */
Test(host_stack, offloading_lowers_the_device_peak_by_the_stack)
{
    ss_mesh *m = mesh8();
    ss_plan plan[2];
    for (int off = 0; off < 2; off++) {
        ss_program *p = build(m, off);
        ss_executable *e;
        TS_OK(ss_program_compile(p, &e));
        TS_OK(ss_executable_plan(e, &plan[off]));
        ss_executable_destroy(e);
        ss_program_destroy(p);
    }
    size_t stack = STEPS * ROWS / DEVICES * COLS * sizeof(float);
    cr_assert_eq(plan[0].host_peak_bytes, 0);
    cr_assert_eq(plan[0].transfers, 0);
    cr_assert_leq(plan[1].peak_bytes + ss_device_buffer_bytes(stack), plan[0].peak_bytes,
                  "offloaded %zu B, on device %zu B", plan[1].peak_bytes, plan[0].peak_bytes);
    ss_mesh_destroy(m);
}

/* A host carry the body recomputes on the device (here: the stack scaled
 * each step) is refused with one line naming the op that reads it. */
static ss_status scale_stack(ss_program *p, const ss_value carry[], ss_value next[], void *user)
{
    const loops *L = user;
    ss_status st = forward_step(p, carry, next, user);
    if (!st)
        st = ss_binary(p, SS_MUL, next[2], L->half, &next[2]);
    return st;
}

Test(host_stack, host_carry_computed_on_device_is_refused)
{
    ss_mesh *m = mesh8();
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_spec xs = ts_spec("P('x')");
    ss_value x, zf, stack, fin[3];
    TS_OK(ss_input(p, "x", SS_F32, 2, (int64_t[]){ROWS, COLS}, &xs, &x));
    loops L = {true, i32(p, STEPS), i32(p, 1), i32(p, 0), 0};
    TS_OK(ss_constant(p, 0.5, &L.half));
    TS_OK(ss_constant(p, 0.0, &zf));
    TS_OK(ss_broadcast_in_dim(p, zf, 3, (int64_t[]){STEPS, ROWS, COLS}, NULL, &stack));
    TS_OK(ss_while_loop(p, below_four, scale_stack, &L, 3, (ss_value[]){i32(p, 0), x, stack},
                        fin));
    TS_OK(ss_output(p, fin[1], &xs));
    ss_executable *e = NULL;
    cr_assert_eq(ss_program_compile(p, &e), SS_ERR_UNSUPPORTED);
    const char *msg = ss_error_message();
    cr_assert(strstr(msg, "(mul) reads") && strstr(msg, "pinned_host memory"), "%s", msg);
    cr_assert_null(strchr(msg, '\n'), "%s", msg);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}
