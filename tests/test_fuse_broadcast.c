/*
 * test_fuse_broadcast.c — a broadcast_in_dim of an array folded into the
 * fused expression that reads it (sim/spmd/fuse.c, ss__k_fused.repeat):
 * the result is never materialised, the fused kernel reads the operand
 * with each element repeated and the whole cycled. Checked on a 2x4 mesh:
 * values against a naive C computation of the same f32 operations and
 * against the same program compiled without fusion (bit for bit), the
 * plan's peak against every device's measured one, and the peak holding
 * no block of the broadcasts' size; a broadcast whose operand dims are
 * not one run of the result's (a broadcast dim between them) stays a
 * kernel, with the same values.
 */
#include "plan_run.h"

#include <stdlib.h>
#include <string.h>

enum { R = 64, J = 16, D = 32 }; /* blocks of whole 64-byte lines */

typedef struct bcast_program {
    ss_program *p;
    ss_value x, m, b, c, y;
} bcast_program;

/* y[r, j, d] = ((x[r, j, d] - m[r]) * b[d]) + c[j]: the three broadcasts
 * repeat m's elements J*D times (a row statistic), cycle b (a bias) and
 * repeat c's elements D times cycled R times (a middle dim). */
static bcast_program build(ss_mesh *mesh)
{
    bcast_program q;
    TS_OK(ss_program_create(mesh, &q.p));
    int64_t shape[3] = {R, J, D};
    q.x = ts_input(q.p, "x", "P('data', None, None)", 3, (int64_t)R, (int64_t)J, (int64_t)D);
    q.m = ts_input(q.p, "m", "P('data',)", 1, (int64_t)R);
    q.b = ts_input(q.p, "b", "P(None,)", 1, (int64_t)D);
    q.c = ts_input(q.p, "c", "P(None,)", 1, (int64_t)J);
    ss_value mb, bb, cb, t, u;
    TS_OK(ss_broadcast_in_dim(q.p, q.m, 3, shape, (int[]){0}, &mb));
    TS_OK(ss_broadcast_in_dim(q.p, q.b, 3, shape, (int[]){2}, &bb));
    TS_OK(ss_broadcast_in_dim(q.p, q.c, 3, shape, (int[]){1}, &cb));
    TS_OK(ss_binary(q.p, SS_SUB, q.x, mb, &t));
    TS_OK(ss_binary(q.p, SS_MUL, t, bb, &u));
    TS_OK(ss_binary(q.p, SS_ADD, u, cb, &q.y));
    TS_OK(ss_output(q.p, q.y, NULL));
    return q;
}

static void run(ss_executable *e, const float *x, const float *m, const float *b,
                const float *c, float *y, ss_context *ctx)
{
    const void *in[4] = {x, m, b, c};
    void *outs[1] = {y};
    TS_OK(ss_executable_run(e, ctx, in, outs));
}

Test(fuse_broadcast, folded_broadcasts_equal_the_materialised_ones)
{
    ss_mesh *mesh = ts_make_mesh("data=2,model=4", 8);
    bcast_program q = build(mesh);
    size_t n = (size_t)R * J * D;
    float *x = malloc(n * 4), *y = malloc(n * 4), *y_ref = malloc(n * 4);
    float m[R], b[D], c[J];
    pr_fill(x, n, 1);
    pr_fill(m, R, 2);
    pr_fill(b, D, 3);
    pr_fill(c, J, 4);

    ss_executable *fused, *plain;
    TS_OK(ss_program_compile(q.p, &fused));
    ss_compile_options no_fusion = {.no_fusion = 1};
    TS_OK(ss_program_compile_with(q.p, &no_fusion, &plain));

    ss_context *ctx = pr_make_ctx();
    run(fused, x, m, b, c, y, ctx);
    size_t peak = pr_plan_is_run(fused, ctx);
    ss_context_destroy(ctx);
    ctx = pr_make_ctx();
    run(plain, x, m, b, c, y_ref, ctx);
    size_t peak_plain = pr_plan_is_run(plain, ctx);
    ss_context_destroy(ctx);

    for (int r = 0; r < R; r++)
        for (int j = 0; j < J; j++)
            for (int d = 0; d < D; d++) {
                size_t k = ((size_t)r * J + (size_t)j) * D + (size_t)d;
                volatile float t = x[k] - m[r];
                volatile float u = t * b[d];
                float want = u + c[j];
                cr_assert_eq(y[k], want, "y[%d,%d,%d] = %a, want %a", r, j, d, (double)y[k],
                             (double)want);
                cr_assert_eq(memcmp(&y[k], &y_ref[k], 4), 0, "y[%zu]: fused %a, unfused %a", k,
                             (double)y[k], (double)y_ref[k]);
            }

    /* Alive at the peak: the four arguments and y. Without the folding a
     * broadcast block of x's size would be alive beside them. */
    int64_t shape[3] = {R, J, D};
    size_t xs = pr_device_bytes(q.p, q.x, 3, shape);
    size_t args = xs + pr_device_bytes(q.p, q.m, 1, (int64_t[]){R}) +
                  pr_device_bytes(q.p, q.b, 1, (int64_t[]){D}) +
                  pr_device_bytes(q.p, q.c, 1, (int64_t[]){J});
    cr_assert_eq(peak, args + pr_device_bytes(q.p, q.y, 3, shape),
                 "peak %zu B: the arguments (%zu B) and y, no broadcast block", peak, args);
    cr_assert_geq(peak_plain, peak + xs, "unfused peak %zu B, fused %zu B", peak_plain, peak);

    free(x), free(y), free(y_ref);
    ss_executable_destroy(fused);
    ss_executable_destroy(plain);
    ss_program_destroy(q.p);
    ss_mesh_destroy(mesh);
}

/* z[r, j, d] = x[r, j, d] + w[r, d]: w's dims are 0 and 2 of z, with the
 * broadcast dim 1 between them, so no repeat describes it: the broadcast
 * stays a kernel and the values are the same. */
Test(fuse_broadcast, a_broadcast_dim_between_the_operands_stays_a_kernel)
{
    ss_mesh *mesh = ts_make_mesh("data=2,model=4", 8);
    ss_program *p;
    TS_OK(ss_program_create(mesh, &p));
    int64_t shape[3] = {R, J, D};
    ss_value x = ts_input(p, "x", "P('data', None, None)", 3, (int64_t)R, (int64_t)J, (int64_t)D);
    ss_value w = ts_input(p, "w", "P('data', None)", 2, (int64_t)R, (int64_t)D), wb, z;
    TS_OK(ss_broadcast_in_dim(p, w, 3, shape, (int[]){0, 2}, &wb));
    TS_OK(ss_binary(p, SS_ADD, x, wb, &z));
    TS_OK(ss_output(p, z, NULL));
    ss_executable *e;
    TS_OK(ss_program_compile(p, &e));
    size_t n = (size_t)R * J * D;
    float *x0 = malloc(n * 4), *w0 = malloc((size_t)R * D * 4), *z0 = malloc(n * 4);
    pr_fill(x0, n, 5);
    pr_fill(w0, (size_t)R * D, 6);
    ss_context *ctx = pr_make_ctx();
    const void *in[2] = {x0, w0};
    void *outs[1] = {z0};
    TS_OK(ss_executable_run(e, ctx, in, outs));
    for (int r = 0; r < R; r++)
        for (int j = 0; j < J; j++)
            for (int d = 0; d < D; d++) {
                size_t k = ((size_t)r * J + (size_t)j) * D + (size_t)d;
                float want = x0[k] + w0[(size_t)r * D + (size_t)d];
                cr_assert_eq(z0[k], want, "z[%d,%d,%d] = %a, want %a", r, j, d, (double)z0[k],
                             (double)want);
            }
    size_t peak = pr_plan_is_run(e, ctx);
    /* x, w and the materialised broadcast, z written over it (an
     * elementwise result takes a dying operand's buffer, liveness.c). */
    size_t xs = pr_device_bytes(p, x, 3, shape);
    cr_assert_eq(peak, 2 * xs + pr_device_bytes(p, w, 2, (int64_t[]){R, D}), "peak %zu B", peak);
    ss_context_destroy(ctx);
    free(x0), free(w0), free(z0);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(mesh);
}
