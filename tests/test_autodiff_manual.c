/* test_autodiff_manual.c — gradients through shard_map regions (JAX's
 * device-variance transposes, vjp_manual.c): psum of varying and of invariant
 * blocks, a replicated input used by varying code, ppermute, all_gather,
 * psum_scatter and axis_index, each on 4 virtual devices and in the
 * reference evaluation, against gradients worked out here by hand from the
 * per-device math. */
#include "train_check.h"

enum { NDEV = 4 };

typedef struct grads_case {
    ss_program *p;
    ss_mesh *m;
    ss_value in[2];
    int nin;
    int64_t n[2];         /* elements of each input */
    float host[2][32];    /* input values */
    float want[2][32];    /* expected gradients */
} grads_case;

static void begin(grads_case *c)
{
    memset(c, 0, sizeof *c);
    c->m = tc_mesh("i=4", NDEV);
    OK(ss_program_create(c->m, &c->p));
}

static ss_value add_input(grads_case *c, const char *name, int64_t n, const char *spec)
{
    ss_value v = tc_in(c->p, name, spec, 1, (int)n);
    c->n[c->nin] = n;
    c->in[c->nin++] = v;
    return v;
}

static ss_value body_end(grads_case *c, ss_value block, const char *spec)
{
    ss_spec s = tc_spec(spec);
    ss_value out;
    OK(ss_shard_map_end(c->p, 1, &block, &s, &out));
    return out;
}

/* k = i + 1 */
static ss_status binc_helper(ss_program *p, ss_value i, ss_value *k)
{
    ss_value one;
    ss_status st = ss_constant(p, 1.0, &one);
    return st ? st : ss_binary(p, SS_ADD, i, one, k);
}

static ss_value sum_of(ss_program *p, ss_value y)
{
    ss_value l;
    OK(ss_reduce(p, SS_REDUCE_SUM, y, 1, (const int[]){0}, 0, &l));
    return l;
}

/* Differentiate `loss` with respect to the inputs, run on the devices and
 * in the reference, and compare both with c->want exactly (every case is
 * small integers, exact in f32). */
static void finish(grads_case *c, ss_value loss, const char *what)
{
    ss_value g[2];
    OK(ss_grad(c->p, loss, c->nin, c->in, g));
    for (int k = 0; k < c->nin; k++)
        OK(ss_output(c->p, g[k], NULL));
    ss_executable *e;
    OK(ss_program_compile(c->p, &e));
    float got[2][32], ref[2][32];
    const void *ins[2] = {c->host[0], c->host[1]};
    void *outs[2] = {got[0], got[1]}, *refs[2] = {ref[0], ref[1]};
    ss_context_destroy(tc_run(e, NDEV, (void *const *)ins, outs));
    OK(ss_program_eval(c->p, ins, refs));
    for (int k = 0; k < c->nin; k++)
        for (int64_t j = 0; j < c->n[k]; j++) {
            cr_assert_eq(got[k][j], c->want[k][j], "%s: d/input %d [%lld] = %g on the devices, "
                         "want %g", what, k, (long long)j, (double)got[k][j],
                         (double)c->want[k][j]);
            cr_assert_eq(ref[k][j], c->want[k][j], "%s: reference d/input %d [%lld] = %g", what,
                         k, (long long)j, (double)ref[k][j]);
        }
    ss_executable_destroy(e);
    ss_program_destroy(c->p);
    ss_mesh_destroy(c->m);
}

Test(autodiff_manual, psum_of_varying_blocks_passes_the_cotangent_through)
{
    /* y = psum(x * x) over 'i', out P(): y = sum over devices of the
     * squares; loss = sum(y) = sum(x^2): dx = 2x, no collective needed. */
    grads_case c;
    begin(&c);
    ss_value x = add_input(&c, "x", 8, NULL), xl, sq, y;
    ss_spec pi = tc_spec("P('i')");
    OK(ss_shard_map_begin(c.p, 1, &x, &pi, &xl));
    OK(ss_binary(c.p, SS_MUL, xl, xl, &sq));
    OK(ss_psum(c.p, sq, "i", SS_REDUCE_SUM, &y));
    ss_value out = body_end(&c, y, "P()");
    for (int j = 0; j < 8; j++) {
        c.host[0][j] = (float)(j - 3);
        c.want[0][j] = 2.0f * (float)(j - 3);
    }
    finish(&c, sum_of(c.p, out), "psum");
}

Test(autodiff_manual, psum_of_an_invariant_block_counts_every_device)
{
    /* w replicated in (P()): psum(w) = 4 w; loss = sum((4w)^2) -> dw = 32 w.
     * The implicit pvary before the psum transposes to a psum. */
    grads_case c;
    begin(&c);
    ss_value w = add_input(&c, "w", 2, NULL), wl, y, yy;
    ss_spec rep = tc_spec("P()");
    OK(ss_shard_map_begin(c.p, 1, &w, &rep, &wl));
    OK(ss_psum(c.p, wl, "i", SS_REDUCE_SUM, &y));
    OK(ss_binary(c.p, SS_MUL, y, y, &yy));
    ss_value out = body_end(&c, yy, "P()");
    c.host[0][0] = 1.5f;
    c.host[0][1] = -2.0f;
    c.want[0][0] = 48.0f;
    c.want[0][1] = -64.0f;
    finish(&c, sum_of(c.p, out), "psum of invariant");
}

Test(autodiff_manual, a_replicated_input_sums_the_cotangents_of_its_users)
{
    /* z = x * w with x split over 'i' and w replicated in; loss = sum(z):
     * dw[k] = sum over devices of x's block element k, dx = w tiled. */
    grads_case c;
    begin(&c);
    ss_value x = add_input(&c, "x", 8, NULL), w = add_input(&c, "w", 2, NULL), loc[2], z;
    ss_value ins[2] = {x, w};
    ss_spec specs[2] = {tc_spec("P('i')"), tc_spec("P()")};
    OK(ss_shard_map_begin(c.p, 2, ins, specs, loc));
    OK(ss_binary(c.p, SS_MUL, loc[0], loc[1], &z));
    ss_value out = body_end(&c, z, "P('i')");
    c.host[1][0] = 3.0f;
    c.host[1][1] = -1.0f;
    for (int j = 0; j < 8; j++) {
        c.host[0][j] = (float)(j * j);
        c.want[0][j] = c.host[1][j % 2];
        c.want[1][j % 2] += c.host[0][j];
    }
    finish(&c, sum_of(c.p, out), "replicated input");
}

Test(autodiff_manual, ppermute_transposes_to_the_inverse_permutation)
{
    /* y = ppermute(x) one step round the ring, loss = sum(y * t): device s's
     * block lands on device s + 1, so dx_s = t_{s+1}. */
    grads_case c;
    begin(&c);
    ss_value x = add_input(&c, "x", 8, NULL), t = add_input(&c, "t", 8, NULL), loc[2], y, yt;
    ss_value ins[2] = {x, t};
    ss_spec specs[2] = {tc_spec("P('i')"), tc_spec("P('i')")};
    OK(ss_shard_map_begin(c.p, 2, ins, specs, loc));
    const int ring[4][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
    OK(ss_ppermute(c.p, loc[0], "i", 4, ring, &y));
    OK(ss_binary(c.p, SS_MUL, y, loc[1], &yt));
    ss_value out = body_end(&c, yt, "P('i')");
    for (int j = 0; j < 8; j++) {
        c.host[0][j] = (float)(j + 1);
        c.host[1][j] = (float)(10 * j);
    }
    for (int s = 0; s < 4; s++)
        for (int k = 0; k < 2; k++) {
            c.want[0][2 * s + k] = c.host[1][2 * ((s + 1) % 4) + k];
            c.want[1][2 * ((s + 1) % 4) + k] = c.host[0][2 * s + k];
        }
    finish(&c, sum_of(c.p, out), "ppermute");
}

Test(autodiff_manual, all_gather_of_a_varying_cotangent_reduce_scatters_it)
{
    /* g = all_gather(x) (tiled, [8] on every device), z = g * axis_index:
     * loss = sum over devices d of d * sum(x) = 6 sum(x) -> dx = 6. */
    grads_case c;
    begin(&c);
    ss_value x = add_input(&c, "x", 8, NULL), xl, g, idx, z;
    ss_spec pi = tc_spec("P('i')");
    OK(ss_shard_map_begin(c.p, 1, &x, &pi, &xl));
    OK(ss_all_gather(c.p, xl, "i", 0, 1, &g));
    OK(ss_axis_index(c.p, "i", &idx));
    OK(ss_binary(c.p, SS_MUL, g, idx, &z));
    ss_value out = body_end(&c, z, "P('i')");
    for (int j = 0; j < 8; j++) {
        c.host[0][j] = (float)(j % 3);
        c.want[0][j] = 6.0f;
    }
    finish(&c, sum_of(c.p, out), "all_gather");
}

Test(autodiff_manual, psum_scatter_transposes_to_all_gather)
{
    /* x [16] split in blocks of 4; s = psum_scatter(x) (tiled): device d
     * gets s_d = sum over devices e of x_e[d]; loss = sum(s^2):
     * d/dx_e[k] = 2 s_k. */
    grads_case c;
    begin(&c);
    ss_value x = add_input(&c, "x", 16, NULL), xl, sc, sq;
    ss_spec pi = tc_spec("P('i')");
    OK(ss_shard_map_begin(c.p, 1, &x, &pi, &xl));
    OK(ss_psum_scatter(c.p, xl, "i", 0, 1, &sc));
    OK(ss_binary(c.p, SS_MUL, sc, sc, &sq));
    ss_value out = body_end(&c, sq, "P('i')");
    float s[4] = {0, 0, 0, 0};
    for (int j = 0; j < 16; j++) {
        c.host[0][j] = (float)((j * 5) % 7 - 3);
        s[j % 4] += c.host[0][j];
    }
    for (int j = 0; j < 16; j++)
        c.want[0][j] = 2.0f * s[j % 4];
    finish(&c, sum_of(c.p, out), "psum_scatter");
}

Test(autodiff_manual, unsupported_transposes_are_clear_errors)
{
    /* An out_spec replicated over an axis the block varies over: JAX's
     * check_vma rejects the forward, and with check_vma=False there is no
     * gradient; pmax, which JAX cannot differentiate either (its error);
     * the program is left as it was. */
    grads_case c;
    begin(&c);
    ss_value x = add_input(&c, "x", 8, NULL), xl, mx, out;
    ss_spec pi = tc_spec("P('i')"), rep = tc_spec("P()");
    OK(ss_shard_map_begin(c.p, 1, &x, &pi, &xl));
    cr_assert_eq(ss_shard_map_end(c.p, 1, &xl, &rep, &out), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "out_specs[0] is P() which implies that the "
                                         "corresponding output value is replicated across mesh "
                                         "axis 'i', but could not infer replication over any "
                                         "axes"),
              "%s", ss_error_message());
    OK(ss_shard_map_end_unchecked(c.p, 1, &xl, &rep, &out));
    ss_value loss = sum_of(c.p, out), g;
    int n = ss_program_value_count(c.p);
    cr_assert_eq(ss_grad(c.p, loss, 1, &x, &g), SS_ERR_UNSUPPORTED);
    cr_assert(strstr(ss_error_message(), "check_vma=False"), "%s", ss_error_message());
    cr_assert_eq(ss_program_value_count(c.p), n);
    OK(ss_shard_map_begin(c.p, 1, &x, &pi, &xl));
    OK(ss_psum(c.p, xl, "i", SS_REDUCE_MAX, &mx));
    out = body_end(&c, mx, "P()");
    loss = sum_of(c.p, out);
    n = ss_program_value_count(c.p);
    cr_assert_eq(ss_grad(c.p, loss, 1, &x, &g), SS_ERR_UNSUPPORTED);
    cr_assert(strstr(ss_error_message(), "Differentiation rule for 'pmax' not implemented"),
              "%s", ss_error_message());
    cr_assert_eq(ss_program_value_count(c.p), n);
    ss_program_destroy(c.p);
    ss_mesh_destroy(c.m);
}

Test(autodiff_manual, all_to_all_transposes_with_split_and_concat_swapped)
{
    /* x [16] in blocks of 4; y = all_to_all(x, split 0, concat 0, tiled):
     * device d's y[e] = x_e[d]; loss = sum(y * t) -> d/dx_e[d] = t_d[e]. */
    grads_case c;
    begin(&c);
    ss_value x = add_input(&c, "x", 16, NULL), t = add_input(&c, "t", 16, NULL), loc[2], y, yt;
    ss_value ins[2] = {x, t};
    ss_spec specs[2] = {tc_spec("P('i')"), tc_spec("P('i')")};
    OK(ss_shard_map_begin(c.p, 2, ins, specs, loc));
    OK(ss_all_to_all(c.p, loc[0], "i", 0, 0, 1, &y));
    OK(ss_binary(c.p, SS_MUL, y, loc[1], &yt));
    ss_value out = body_end(&c, yt, "P('i')");
    for (int j = 0; j < 16; j++) {
        c.host[0][j] = (float)(j + 1);
        c.host[1][j] = (float)(100 + j);
    }
    for (int e = 0; e < 4; e++)
        for (int d = 0; d < 4; d++) {
            c.want[0][4 * e + d] = c.host[1][4 * d + e];
            c.want[1][4 * d + e] = c.host[0][4 * e + d];
        }
    finish(&c, sum_of(c.p, out), "all_to_all");
}

/* The gradient of sum(relu(x @ W1) @ W2) with respect to x, W1 and W2,
 * written globally (`manual` false) or by hand in shard_map (Megatron:
 * x replicated, W1 by columns, W2 by rows, one psum). Reference eval. */
static void megatron_grads(bool manual, const float *xs, const float *w1s, const float *w2s,
                           float *gx, float *g1, float *g2, int *ncoll)
{
    ss_mesh *m = tc_mesh("model=4", 4);
    ss_program *p;
    OK(ss_program_create(m, &p));
    ss_value x = tc_in(p, "x", "P()", 2, 4, 8), w1 = tc_in(p, "W1", "P(None, 'model')", 2, 8, 16);
    ss_value w2 = tc_in(p, "W2", "P('model', None)", 2, 16, 8), z, h, hz;
    if (manual) {
        ss_value ins[3] = {x, w1, w2}, loc[3], t, part, zl;
        ss_spec specs[3] = {tc_spec("P()"), tc_spec("P(None, 'model')"),
                            tc_spec("P('model', None)")};
        ss_spec rep = tc_spec("P()");
        OK(ss_shard_map_begin(p, 3, ins, specs, loc));
        OK(ss_matmul(p, loc[0], loc[1], &t));
        OK(ss_unary(p, SS_RELU, t, &h));
        OK(ss_matmul(p, h, loc[2], &part));
        OK(ss_psum(p, part, "model", SS_REDUCE_SUM, &zl));
        OK(ss_shard_map_end(p, 1, &zl, &rep, &z));
    } else {
        OK(ss_matmul(p, x, w1, &hz));
        OK(ss_unary(p, SS_RELU, hz, &h));
        OK(ss_matmul(p, h, w2, &z));
    }
    ss_value loss, wrt[3] = {x, w1, w2}, g[3];
    OK(ss_reduce(p, SS_REDUCE_SUM, z, 2, (const int[]){0, 1}, 0, &loss));
    OK(ss_grad(p, loss, 3, wrt, g));
    for (int k = 0; k < 3; k++)
        OK(ss_output(p, g[k], NULL));
    const void *ins[3] = {xs, w1s, w2s};
    void *outs[3] = {gx, g1, g2};
    OK(ss_program_eval(p, ins, outs));
    ss_executable *e;
    OK(ss_program_compile(p, &e));
    *ncoll = ss_executable_ledger_count(e);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(autodiff_manual, megatron_by_hand_has_the_global_programs_gradients)
{
    /* Same gradients as the global program (to f32 rounding: partial sums
     * add in another order), with Megatron's communication: the forward g
     * and, for dx only, the backward f (x's replicated in_spec). */
    float xs[32], w1s[128], w2s[128];
    for (int k = 0; k < 32; k++)
        xs[k] = (float)((k * 7) % 11) * 0.1f - 0.5f;
    for (int k = 0; k < 128; k++) {
        w1s[k] = (float)((k * 5) % 13) * 0.05f - 0.3f;
        w2s[k] = (float)((k * 3) % 17) * 0.04f - 0.3f;
    }
    float a[3][128], b[3][128];
    int na, nb;
    megatron_grads(false, xs, w1s, w2s, a[0], a[1], a[2], &na);
    megatron_grads(true, xs, w1s, w2s, b[0], b[1], b[2], &nb);
    int sizes[3] = {32, 128, 128};
    for (int k = 0; k < 3; k++)
        tc_close_f(b[k], a[k], (size_t)sizes[k], 1e-6, k == 0 ? "dx" : k == 1 ? "dW1" : "dW2");
    cr_assert_eq(nb, 2, "shard_map: %d collectives (psum forward, dx's psum backward)", nb);
}

Test(autodiff_manual, an_input_replicated_over_one_of_two_axes_sums_over_that_axis_only)
{
    /* Mesh a=2, b=2; x [4] split over 'a' (blocks of 2), replicated over
     * 'b'; z = x * (axis_index('b') + 1) varies over both, out P(('a',
     * 'b')); loss = sum(z) = (1 + 2) * sum(x): dx = 3, the cotangent summed
     * over 'b' (the axis x was replicated over) and not over 'a'. */
    ss_mesh *m = tc_mesh("a=2,b=2", 4);
    ss_program *p;
    OK(ss_program_create(m, &p));
    ss_value x = tc_in(p, "x", NULL, 1, 4), xl, ib, k, z, out, loss, g;
    ss_spec sa = tc_spec("P('a')"), sab = tc_spec("P(('a', 'b'))");
    OK(ss_shard_map_begin(p, 1, &x, &sa, &xl));
    OK(ss_axis_index(p, "b", &ib));
    OK(binc_helper(p, ib, &k));
    OK(ss_binary(p, SS_MUL, xl, k, &z));
    OK(ss_shard_map_end(p, 1, &z, &sab, &out));
    OK(ss_reduce(p, SS_REDUCE_SUM, out, 1, (const int[]){0}, 0, &loss));
    OK(ss_grad(p, loss, 1, &x, &g));
    OK(ss_output(p, g, NULL));
    ss_executable *e;
    OK(ss_program_compile(p, &e));
    float xs[4] = {1, -2, 3, 5}, got[4], ref[4];
    const void *ins[1] = {xs};
    void *outs[1] = {got}, *refs[1] = {ref};
    ss_context_destroy(tc_run(e, 4, (void *const *)ins, outs));
    OK(ss_program_eval(p, ins, refs));
    for (int j = 0; j < 4; j++) {
        cr_assert_eq(got[j], 3.0f, "dx[%d] = %g on the devices", j, (double)got[j]);
        cr_assert_eq(ref[j], 3.0f, "dx[%d] = %g in the reference", j, (double)ref[j]);
    }
    /* The loss's own all-reduce (4 B, over both axes), then the gradient's
     * psum over 'b' alone (a block of 2 f32). */
    cr_assert_eq(ss_executable_ledger_count(e), 2);
    ss_coll_record rec;
    OK(ss_executable_ledger_get(e, 1, &rec));
    char axes[32];
    OK(ss_axes_repr(m, rec.naxes, rec.axes, axes, sizeof axes));
    cr_assert(rec.kind == SS_COLL_ALL_REDUCE && strcmp(axes, "('b',)") == 0 && rec.bytes == 8,
              "the gradient's collective: %s over %s, %zu B", ss_coll_kind_name(rec.kind), axes,
              rec.bytes);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(autodiff_manual, all_gather_invariant_transposes_to_each_devices_own_block)
{
    /* y = all_gather_invariant(x) is the same on every device, so out_specs
     * P() may return it; loss = sum(y * t) with t replicated: dx = t, taken
     * by each device as its own block, with no collective in the backward
     * pass (the step's only one is the forward gather). Tiled and not. */
    for (int tiled = 0; tiled < 2; tiled++) {
        ss_mesh *m = tc_mesh("i=4", 4);
        ss_program *p;
        OK(ss_program_create(m, &p));
        ss_value x = tc_in(p, "x", NULL, 1, 8), t, ins[2], loc[2], y, yt, out, loss, g;
        t = tiled ? tc_in(p, "t", NULL, 1, 8) : tc_in(p, "t", NULL, 2, 4, 2);
        ins[0] = x;
        ins[1] = t;
        ss_spec specs[2] = {tc_spec("P('i')"), tc_spec("P()")}, rep = tc_spec("P()");
        OK(ss_shard_map_begin(p, 2, ins, specs, loc));
        OK(ss_all_gather_invariant(p, loc[0], "i", 0, tiled, &y));
        OK(ss_binary(p, SS_MUL, y, loc[1], &yt));
        OK(ss_shard_map_end(p, 1, &yt, &rep, &out));
        int nd = tiled ? 1 : 2;
        OK(ss_reduce(p, SS_REDUCE_SUM, out, nd, (const int[]){0, 1}, 0, &loss));
        OK(ss_grad(p, loss, 1, &x, &g));
        OK(ss_output(p, g, NULL));
        ss_executable *e;
        OK(ss_program_compile(p, &e));
        float xs[8], ts[8], got[8], ref[8];
        for (int j = 0; j < 8; j++) {
            xs[j] = (float)(j - 2);
            ts[j] = (float)(3 * j + 1);
        }
        const void *in[2] = {xs, ts};
        void *outs[1] = {got}, *refs[1] = {ref};
        ss_context_destroy(tc_run(e, 4, (void *const *)in, outs));
        OK(ss_program_eval(p, in, refs));
        for (int j = 0; j < 8; j++) {
            cr_assert_eq(got[j], ts[j], "tiled %d: dx[%d] = %g, want %g", tiled, j,
                         (double)got[j], (double)ts[j]);
            cr_assert_eq(ref[j], ts[j], "tiled %d: reference dx[%d] = %g", tiled, j,
                         (double)ref[j]);
        }
        ss_coll_record rec;
        cr_assert_eq(ss_executable_ledger_count(e), 1, "tiled %d: %d collectives", tiled,
                     ss_executable_ledger_count(e));
        OK(ss_executable_ledger_get(e, 0, &rec));
        cr_assert_eq(rec.kind, SS_COLL_ALL_GATHER);
        ss_executable_destroy(e);
        ss_program_destroy(p);
        ss_mesh_destroy(m);
    }
}
