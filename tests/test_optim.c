/* test_optim.c — optax-style optimizers (sim/graph/optim.c), sharded
 * initialization (sim/graph/init.c), and whole train steps: forward, grad,
 * optimizer, run sharded for several steps, equal to the unsharded step
 * (ss_program_eval) within stated tolerances. */
#include "train_check.h"

/* Internal on purpose: the test reads the lowered instructions to find the
 * fused Adam update and reruns it through the fused kernel. */
#include "kernels/kernels_internal.h"
#include "spmd/lower.h"

/* --- Optimizers against hand-computed optax values ------------------------ */

/* One step of `o` on p = [1, -0.5, 2, 0.25] with grads given as inputs;
 * state inputs from `state0` (NULL: zeros). Results through ss_program_eval. */
static void optim_step(const ss_optim *o, const float *p0, const float *g0,
                       float *const state0[], float *p_out, float *state_out[])
{
    ss_mesh *m = tc_mesh("x=1", 1);
    ss_program *p;
    OK(ss_program_create(m, &p));
    ss_value prm = tc_in(p, "w", NULL, 1, 4), g = tc_in(p, "g", NULL, 1, 4), st[3], np, ns[3];
    OK(ss_optim_state_inputs(p, o, 1, &prm, st));
    OK(ss_optim_update(p, o, 1, &prm, &g, st, &np, ns));
    int nst = ss_optim_state_count(o, 1);
    OK(ss_output(p, np, NULL));
    for (int j = 0; j < nst; j++)
        OK(ss_output(p, ns[j], NULL));
    float zeros[4] = {0, 0, 0, 0};
    const void *ins[5] = {p0, g0};
    void *outs[4] = {p_out};
    for (int j = 0; j < nst; j++) {
        ins[2 + j] = state0 ? state0[j] : zeros;
        outs[1 + j] = state_out[j];
    }
    OK(ss_program_eval(p, ins, outs));
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

static void expect4(const float *got, const double *want, double tol, const char *what)
{
    for (int k = 0; k < 4; k++)
        cr_assert(fabs((double)got[k] - want[k]) <= tol * fmax(1.0, fabs(want[k])),
                  "%s[%d]: %.9g, optax gives %.9g", what, k, (double)got[k], want[k]);
}

static const float P0[4] = {1.0f, -0.5f, 2.0f, 0.25f}, G0[4] = {0.5f, -1.0f, 0.0f, 2.0f};

Test(optim, sgd_is_p_minus_lr_g)
{
    ss_optim o = ss_optim_sgd(0.1);
    float np[4];
    optim_step(&o, P0, G0, NULL, np, NULL);
    expect4(np, (double[]){0.95, -0.4, 2.0, 0.05}, 1e-7, "sgd");
    cr_assert_eq(ss_optim_state_count(&o, 3), 0);
}

Test(optim, momentum_and_nesterov_follow_optax_trace)
{
    float t0[4] = {0.1f, 0.2f, -0.3f, 0.0f}, np[4], t1[4];
    float *s0[1] = {t0}, *s1[1] = {t1};
    ss_optim o = ss_optim_momentum(0.1, 0.9, 0);
    optim_step(&o, P0, G0, s0, np, s1);
    expect4(t1, (double[]){0.59, -0.82, -0.27, 2.0}, 1e-7, "trace");
    expect4(np, (double[]){0.941, -0.418, 2.027, 0.05}, 1e-7, "momentum");
    o.nesterov = 1;
    optim_step(&o, P0, G0, s0, np, s1);
    expect4(np, (double[]){0.8969, -0.3262, 2.0243, -0.13}, 1e-7, "nesterov");
    cr_assert_eq(ss_optim_state_count(&o, 3), 3);
}

Test(optim, adam_two_steps_with_bias_correction)
{
    ss_optim o = ss_optim_adam(1e-2);
    cr_assert(o.b1 == 0.9 && o.b2 == 0.999 && o.eps == 1e-8 && o.eps_root == 0);
    float np[4], mu[4], nu[4], count[1], *s1[3] = {mu, nu, count};
    optim_step(&o, P0, G0, NULL, np, s1);
    expect4(np, (double[]){0.99, -0.49, 2.0, 0.24}, 1e-7, "adam step 1");
    expect4(mu, (double[]){0.05, -0.1, 0, 0.2}, 1e-7, "mu");
    expect4(nu, (double[]){0.00025, 0.001, 0, 0.004}, 1e-7, "nu");
    cr_assert_eq(count[0], 1.0f);
    const float g2[4] = {-0.25f, 0.5f, 1.0f, 2.0f};
    float np2[4], mu2[4], nu2[4], count2[1], *s2[3] = {mu2, nu2, count2}, *s1in[3] = {mu, nu,
                                                                                       count};
    optim_step(&o, np, g2, s1in, np2, s2);
    expect4(np2, (double[]){0.98733663, -0.48733663, 1.99255863, 0.23}, 2e-7, "adam step 2");
    expect4(mu2, (double[]){0.02, -0.04, 0.1, 0.38}, 1e-7, "mu step 2");
    expect4(nu2, (double[]){0.00031225, 0.001249, 0.001, 0.007996}, 1e-6, "nu step 2");
    cr_assert_eq(count2[0], 2.0f);
    cr_assert_eq(ss_optim_state_count(&o, 3), 7);
}

Test(optim, adamw_adds_decayed_weights_before_the_learning_rate)
{
    ss_optim o = ss_optim_adamw(1e-2, 0.1);
    float np[4], mu[4], nu[4], count[1], *s1[3] = {mu, nu, count};
    optim_step(&o, P0, G0, NULL, np, s1);
    expect4(np, (double[]){0.989, -0.4895, 1.998, 0.23975}, 1e-7, "adamw");
}

Test(optim, state_is_laid_out_like_the_params_and_the_update_is_local)
{
    ss_mesh *m = tc_mesh("data=2,model=4", 8);
    ss_program *p;
    OK(ss_program_create(m, &p));
    ss_value w1 = tc_in(p, "W1", "P(None, 'model')", 2, 16, 32);
    ss_value w2 = tc_in(p, "W2", "P('model', None)", 2, 32, 16);
    ss_value g1 = tc_in(p, "g1", NULL, 2, 16, 32), g2 = tc_in(p, "g2", NULL, 2, 32, 16);
    ss_value params[2] = {w1, w2}, grads[2] = {g1, g2}, st[5], np[2], ns[5];
    ss_optim o = ss_optim_adam(1e-3);
    OK(ss_optim_state_inputs(p, &o, 2, params, st));
    cr_assert_str_eq(p->nodes[st[0]].name, "W1.mu");
    cr_assert_str_eq(p->nodes[st[3]].name, "W2.nu");
    cr_assert_str_eq(p->nodes[st[4]].name, "count");
    OK(ss_optim_update(p, &o, 2, params, grads, st, np, ns));
    for (int i = 0; i < 2; i++)
        OK(ss_output(p, np[i], NULL));
    for (int j = 0; j < 5; j++)
        OK(ss_output(p, ns[j], NULL));
    OK(ss_program_propagate(p));
    for (int j = 0; j < 4; j++) {
        ss_sharding a, b;
        OK(ss_value_sharding(p, ns[j], &a));
        OK(ss_value_sharding(p, params[j % 2], &b));
        cr_assert(ss_spec_equal(&a.spec, &b.spec), "state %d is not sharded like its param", j);
    }
    ss_executable *e;
    OK(ss_program_compile(p, &e));
    cr_assert_eq(ss_executable_ledger_count(e), 0, "the update communicates");
    ss_executable_destroy(e);
    /* errors leave the program unchanged */
    int n = ss_program_value_count(p);
    ss_value bad[2] = {g1, g1};
    cr_assert_eq(ss_optim_update(p, &o, 2, params, bad, st, np, ns), SS_ERR_INVALID);
    cr_assert_eq(ss_program_value_count(p), n);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* --- Sharded initialization ------------------------------------------------ */

static void init_same_everywhere(const ss_init *init, int rank, const int64_t shape[])
{
    size_t n = 1;
    for (int d = 0; d < rank; d++)
        n *= (size_t)shape[d];
    float *whole = malloc(n * sizeof *whole), *got = malloc(n * sizeof *got);
    OK(ss_init_fill(init, rank, shape, SS_F32, NULL, NULL, whole));
    static const struct { const char *mesh; int n; const char *spec; } cases[] = {
        {"x=1", 1, "P()"},         {"x=2", 2, "P('x')"},        {"x=4", 4, "P(None, 'x')"},
        {"x=2,y=4", 8, "P('x', 'y')"}, {"x=2,y=4", 8, "P('y', 'x')"},
        {"x=2,y=4", 8, "P(('x', 'y'))"}, {"x=8", 8, "P()"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        ss_mesh *m = tc_mesh(cases[c].mesh, cases[c].n);
        ss_context_options co = {.ndevices = cases[c].n, .device_memory = (size_t)64 << 20};
        ss_context *ctx;
        OK(ss_context_create(&co, &ctx));
        ss_spec s = tc_spec(cases[c].spec);
        ss_sharding sh;
        ss_sharding_init(&sh, m, &s);
        ss_array *a;
        OK(ss_array_from_init(ctx, &sh, rank, shape, SS_F32, init, "w", &a));
        OK(ss_array_get(a, got, n * sizeof *got));
        cr_assert(memcmp(got, whole, n * sizeof *got) == 0,
                  "kind %d on %s %s differs from the unsharded values", (int)init->kind,
                  cases[c].mesh, cases[c].spec);
        ss_array_destroy(a);
        ss_context_destroy(ctx);
        ss_mesh_destroy(m);
    }
    free(whole);
    free(got);
}

Test(init, values_do_not_depend_on_sharding_or_device_count)
{
    int64_t shape[2] = {16, 24};
    for (int k = SS_INIT_ZEROS; k <= SS_INIT_XAVIER_UNIFORM; k++) {
        ss_init init = {.kind = (ss_init_kind)k, .seed = 42, .scale = k == SS_INIT_CONSTANT ? 3 : 0};
        init_same_everywhere(&init, 2, shape);
    }
}

Test(init, a_block_equals_the_slice_of_the_whole)
{
    int64_t shape[3] = {4, 6, 5}, start[3] = {1, 2, 0}, stop[3] = {3, 5, 4};
    ss_init init = {.kind = SS_INIT_NORMAL, .seed = 7, .scale = 1.0};
    float whole[120], block[24];
    OK(ss_init_fill(&init, 3, shape, SS_F32, NULL, NULL, whole));
    OK(ss_init_fill(&init, 3, shape, SS_F32, start, stop, block));
    int k = 0;
    for (int i = 1; i < 3; i++)
        for (int j = 2; j < 5; j++)
            for (int l = 0; l < 4; l++)
                cr_assert_eq(block[k++], whole[(i * 6 + j) * 5 + l]);
    /* another seed gives other values */
    float other[120];
    init.seed = 8;
    OK(ss_init_fill(&init, 3, shape, SS_F32, NULL, NULL, other));
    cr_assert(memcmp(other, whole, sizeof other) != 0);
}

static void moments(const float *x, size_t n, double *mean, double *sd, double *maxabs)
{
    double s = 0, s2 = 0, mx = 0;
    for (size_t k = 0; k < n; k++) {
        s += x[k];
        s2 += (double)x[k] * x[k];
        mx = fmax(mx, fabs((double)x[k]));
    }
    *mean = s / (double)n;
    *sd = sqrt(s2 / (double)n - *mean * *mean);
    *maxabs = mx;
}

Test(init, distributions_match_jax_initializers)
{
    /* 256 x 512: fan_avg = 384, glorot variance = 1/384. */
    int64_t shape[2] = {256, 512};
    size_t n = 256 * 512;
    float *x = malloc(n * sizeof *x);
    double mean, sd, mx, v = 1.0 / 384.0;
    ss_init nrm = {.kind = SS_INIT_NORMAL, .seed = 1};
    OK(ss_init_fill(&nrm, 2, shape, SS_F32, NULL, NULL, x));
    moments(x, n, &mean, &sd, &mx);
    cr_assert(fabs(mean) < 1e-4 && fabs(sd - 1e-2) < 1e-4, "normal: mean %g sd %g", mean, sd);
    ss_init xn = {.kind = SS_INIT_XAVIER_NORMAL, .seed = 2};
    OK(ss_init_fill(&xn, 2, shape, SS_F32, NULL, NULL, x));
    moments(x, n, &mean, &sd, &mx);
    /* truncated at 2 sigma of the rescaled normal, whose sd is sqrt(v) */
    cr_assert(fabs(sd - sqrt(v)) < 0.01 * sqrt(v), "xavier normal: sd %g, want %g", sd, sqrt(v));
    cr_assert(mx <= 2.0 * sqrt(v) / 0.87962566103423978 + 1e-7, "xavier normal: max %g", mx);
    ss_init xu = {.kind = SS_INIT_XAVIER_UNIFORM, .seed = 3};
    OK(ss_init_fill(&xu, 2, shape, SS_F32, NULL, NULL, x));
    moments(x, n, &mean, &sd, &mx);
    cr_assert(mx < sqrt(3 * v) && fabs(sd - sqrt(v)) < 0.01 * sqrt(v),
              "xavier uniform: max %g sd %g", mx, sd);
    ss_init un = {.kind = SS_INIT_UNIFORM, .seed = 4, .scale = 2.0};
    OK(ss_init_fill(&un, 2, shape, SS_F32, NULL, NULL, x));
    moments(x, n, &mean, &sd, &mx);
    cr_assert(fabs(mean - 1.0) < 0.01 && mx < 2.0, "uniform: mean %g max %g", mean, mx);
    /* errors */
    cr_assert_eq(ss_init_fill(&xn, 1, shape, SS_F32, NULL, NULL, x), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "at least 2D"), "%s", ss_error_message());
    cr_assert_eq(ss_init_fill(&xn, 2, shape, SS_I32, NULL, NULL, x), SS_ERR_UNSUPPORTED);
    free(x);
}

/* --- Train steps: sharded == unsharded after several steps ---------------- */

typedef struct model {
    ss_value loss;
    int n;
    ss_value params[8];
    const char *specs[8];
} model;

static int input_no(const ss_program *p, ss_value v)
{
    int k = 0;
    for (int u = 0; u < v; u++)
        k += p->nodes[u].op == SS__OP_INPUT || p->nodes[u].op == SS__OP_PARAM;
    return k;
}

/* Append the gradient of `loss` with respect to params[0..n) and one step
 * of `o`, output the new params (laid out by specs[i] when specs is given)
 * and then the new state, and compile. st receives the state inputs. */
static ss_executable *compile_step(ss_program *p, ss_value loss, int n, const ss_value params[],
                                   const char *const specs[], const ss_optim *o, ss_value st[])
{
    ss_value g[8], np[8], ns[17];
    OK(ss_grad(p, loss, n, params, g));
    OK(ss_optim_state_inputs(p, o, n, params, st));
    OK(ss_optim_update(p, o, n, params, g, st, np, ns));
    for (int i = 0; i < n; i++) {
        ss_spec s;
        if (specs)
            s = tc_spec(specs[i]);
        OK(ss_output(p, np[i], specs ? &s : NULL));
    }
    for (int j = 0; j < ss_optim_state_count(o, n); j++)
        OK(ss_output(p, ns[j], NULL));
    ss_executable *e;
    OK(ss_program_compile(p, &e));
    return e;
}

/* Append grad + optimizer, run `steps` steps sharded and with
 * ss_program_eval, feeding new params and state back, and compare. */
static void train(ss_program *p, const model *md, const ss_optim *o, int ndevices, int steps,
                  double tol)
{
    ss_value st[17];
    int nst = ss_optim_state_count(o, md->n);
    ss_executable *e = compile_step(p, md->loss, md->n, md->params, md->specs, o, st);
    int ni = tc_input_count(p), no = tc_output_count(p);
    void **ins = tc_inputs(p, NULL, 0, 2024u), **ref_in = tc_inputs(p, NULL, 0, 2024u);
    for (int j = 0; j < nst; j++) { /* optax's init: zeros */
        memset(ins[input_no(p, st[j])], 0, tc_elems(p, st[j]) * 4);
        memset(ref_in[input_no(p, st[j])], 0, tc_elems(p, st[j]) * 4);
    }
    void **outs = tc_outputs(p), **ref = tc_outputs(p);
    for (int step = 0; step < steps; step++) {
        ss_context_destroy(tc_run(e, ndevices, ins, outs));
        OK(ss_program_eval(p, (const void *const *)ref_in, ref));
        for (int j = 0; j < no; j++) {
            ss_value src = j < md->n ? md->params[j] : st[j - md->n];
            size_t bytes = tc_elems(p, src) * 4;
            memcpy(ins[input_no(p, src)], outs[j], bytes);
            memcpy(ref_in[input_no(p, src)], ref[j], bytes);
        }
    }
    for (int j = 0; j < no; j++) {
        char what[64];
        snprintf(what, sizeof what, "after %d steps, output %d", steps, j);
        tc_close_f(outs[j], ref[j], tc_elems(p, tc_output_value(p, j)), tol, what);
    }
    tc_free_list(ins, ni);
    tc_free_list(ref_in, ni);
    tc_free_list(outs, no);
    tc_free_list(ref, no);
    ss_executable_destroy(e);
}

static ss_value sum_all(ss_program *p, ss_value y)
{
    int rank;
    OK(ss_value_shape(p, y, NULL, &rank, NULL));
    int axes[SS_MAX_RANK];
    for (int d = 0; d < rank; d++)
        axes[d] = d;
    ss_value loss;
    OK(ss_reduce(p, SS_REDUCE_SUM, y, rank, axes, 0, &loss));
    return loss;
}

/* Tolerance after 3 steps, normwise against max(1, max |reference|) per
 * output (new params and state): 1e-5. The sharded step sums in another
 * order than the reference (partial dots, all-reduces), so results differ
 * by f32 rounding; the worst seen over these models is 1e-6 (S7, Adam).
 * Learning rates are kept small enough (1e-3) that three steps do not
 * drive softmaxes into saturation, where rounding differences grow. */
#define TOL_SGD 1e-5
#define TOL_ADAM 1e-5

/* x: [rows, in] with x_spec; relu MLP in -> hidden -> in. */
static model mlp(ss_program *p, const char *x_spec, int rows, const char *s1, const char *s2,
                 int act)
{
    model md = {0};
    ss_value x = tc_in(p, "x", x_spec, 2, rows, 64);
    ss_value w1 = tc_in(p, "W1", s1, 2, 64, 128), w2 = tc_in(p, "W2", s2, 2, 128, 64), a, h, y;
    OK(ss_matmul(p, x, w1, &a));
    OK(ss_unary(p, (ss_unary_op)act, a, &h));
    OK(ss_matmul(p, h, w2, &y));
    md.loss = sum_all(p, y);
    md.n = 2;
    md.params[0] = w1;
    md.params[1] = w2;
    md.specs[0] = s1;
    md.specs[1] = s2;
    return md;
}

Test(train, s2_data_parallel_sgd)
{
    ss_mesh *m = tc_mesh("d=4", 4);
    ss_program *p;
    OK(ss_program_create(m, &p));
    model md = mlp(p, "P('d')", 32, "P()", "P()", SS_RELU);
    ss_optim o = ss_optim_sgd(1e-3);
    train(p, &md, &o, 4, 3, TOL_SGD);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(train, s3_megatron_momentum)
{
    ss_mesh *m = tc_mesh("m=4", 4);
    ss_program *p;
    OK(ss_program_create(m, &p));
    model md = mlp(p, "P()", 32, "P(None, 'm')", "P('m', None)", SS_GELU);
    ss_optim o = ss_optim_momentum(1e-3, 0.9, 1);
    train(p, &md, &o, 4, 3, TOL_SGD);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(train, s6_fsdp_adam)
{
    ss_mesh *m = tc_mesh("d=4", 4);
    ss_program *p;
    OK(ss_program_create(m, &p));
    model md = mlp(p, "P('d')", 64, "P('d')", "P('d')", SS_RELU);
    ss_optim o = ss_optim_adam(1e-3);
    train(p, &md, &o, 4, 3, TOL_ADAM);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(train, s4_sequence_parallel_adamw)
{
    ss_mesh *m = tc_mesh("m=4", 4);
    ss_program *p;
    OK(ss_program_create(m, &p));
    model md = {0};
    ss_value x = tc_in(p, "x", "P('m')", 2, 32, 64);
    ss_value w1 = tc_in(p, "W1", "P(None, 'm')", 2, 64, 256);
    ss_value w2 = tc_in(p, "W2", "P('m', None)", 2, 256, 64);
    ss_value ln, a, h, hc, y, yc;
    ss_spec s1 = tc_spec("P(None, 'm')"), s0 = tc_spec("P('m')");
    OK(ss_layer_norm(p, x, -1, -1, &ln));
    OK(ss_matmul(p, ln, w1, &a));
    OK(ss_unary(p, SS_GELU, a, &h));
    OK(ss_constrain(p, h, &s1, &hc));
    OK(ss_matmul(p, hc, w2, &y));
    OK(ss_constrain(p, y, &s0, &yc));
    md.loss = sum_all(p, yc);
    md.n = 2;
    md.params[0] = w1;
    md.params[1] = w2;
    md.specs[0] = "P(None, 'm')";
    md.specs[1] = "P('m', None)";
    ss_optim o = ss_optim_adamw(1e-3, 1e-4);
    train(p, &md, &o, 4, 3, TOL_ADAM);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(train, s5_flax_guide_mlp_adam)
{
    /* The Flax guide's step at DEPTH 256 (the benchmark runs 1024). */
    ss_mesh *m = tc_mesh("data=2,model=4", 8);
    ss_program *p;
    OK(ss_program_create(m, &p));
    model md = {0};
    ss_value x = tc_in(p, "x", "P('data', None)", 2, 8, 256);
    ss_spec dm = tc_spec("P('data', 'model')"), dn = tc_spec("P('data', None)");
    for (int layer = 0; layer < 4; layer++) {
        char n1[16], n2[16];
        snprintf(n1, sizeof n1, "W1_%d", layer);
        snprintf(n2, sizeof n2, "W2_%d", layer);
        ss_value w1 = tc_in(p, n1, "P(None, 'model')", 2, 256, 256);
        ss_value w2 = tc_in(p, n2, "P('model', None)", 2, 256, 256);
        ss_value a, y, yc, z;
        OK(ss_matmul(p, x, w1, &a));
        OK(ss_unary(p, SS_RELU, a, &y));
        OK(ss_constrain(p, y, &dm, &yc));
        OK(ss_matmul(p, yc, w2, &z));
        OK(ss_constrain(p, z, &dn, &x));
        md.params[md.n] = w1;
        md.specs[md.n++] = "P(None, 'model')";
        md.params[md.n] = w2;
        md.specs[md.n++] = "P('model', None)";
    }
    md.loss = sum_all(p, x);
    ss_optim o = ss_optim_adam(1e-3);
    train(p, &md, &o, 8, 3, TOL_ADAM);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(train, s7_attention_heads_sharded_adam)
{
    ss_mesh *m = tc_mesh("m=4", 4);
    ss_program *p;
    OK(ss_program_create(m, &p));
    model md = {0};
    ss_value x = tc_in(p, "x", "P()", 3, 2, 16, 64), w[4];
    static const char *const names[4] = {"Wq", "Wk", "Wv", "Wo"};
    for (int i = 0; i < 3; i++)
        w[i] = tc_in(p, names[i], "P(None, 'm')", 3, 64, 8, 8);
    w[3] = tc_in(p, "Wo", "P('m')", 3, 8, 8, 64);
    ss_value a[5];
    ts_attention(p, x, w, a);
    md.loss = sum_all(p, a[4]);
    for (int i = 0; i < 4; i++) {
        md.params[md.n] = w[i];
        md.specs[md.n++] = i < 3 ? "P(None, 'm')" : "P('m')";
    }
    ss_optim opt = ss_optim_adam(1e-3);
    train(p, &md, &opt, 4, 3, TOL_ADAM);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(train, s8_sequence_sharded_attention_sgd)
{
    ss_mesh *m = tc_mesh("sp=4", 4);
    ss_program *p;
    OK(ss_program_create(m, &p));
    model md = {0};
    ss_value x = tc_in(p, "x", "P(None, 'sp')", 3, 1, 64, 32), qkv[3], w[3];
    static const char *const names[3] = {"Wq", "Wk", "Wv"};
    for (int i = 0; i < 3; i++) {
        w[i] = tc_in(p, names[i], "P()", 3, 32, 2, 16);
        OK(ss_einsum(p, "bsD,Dhd->bshd", x, w[i], &qkv[i]));
        md.params[md.n] = w[i];
        md.specs[md.n++] = "P()";
    }
    ss_value s, pr, o, oc;
    OK(ss_einsum(p, "bqhd,bkhd->bhqk", qkv[0], qkv[1], &s));
    OK(ss_softmax(p, s, -1, &pr));
    OK(ss_einsum(p, "bhqk,bkhd->bqhd", pr, qkv[2], &o));
    ss_spec s1 = tc_spec("P(None, 'sp')");
    OK(ss_constrain(p, o, &s1, &oc));
    md.loss = sum_all(p, oc);
    ss_optim opt = ss_optim_sgd(1e-3);
    train(p, &md, &opt, 4, 3, TOL_SGD);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(train, s9_expert_parallel_momentum)
{
    ss_mesh *m = tc_mesh("e=4", 4);
    ss_program *p;
    OK(ss_program_create(m, &p));
    model md = {0};
    ss_value x = tc_in(p, "x", "P('e')", 3, 4, 16, 32);
    ss_value mask = tc_in(p, "m", "P('e')", 4, 4, 16, 4, 8);
    ss_value win = tc_in(p, "Win", "P('e')", 3, 4, 32, 64);
    ss_value wout = tc_in(p, "Wout", "P('e')", 3, 4, 64, 32);
    ss_value d, dc, h, hr, o, oc, y;
    ss_spec e0 = tc_spec("P('e')"), e1 = tc_spec("P(None, 'e')");
    OK(ss_einsum(p, "gsec,gsd->egcd", mask, x, &d));
    OK(ss_constrain(p, d, &e0, &dc));
    OK(ss_einsum(p, "egcd,edh->egch", dc, win, &h));
    OK(ss_unary(p, SS_RELU, h, &hr));
    OK(ss_einsum(p, "egch,ehd->egcd", hr, wout, &o));
    OK(ss_constrain(p, o, &e1, &oc));
    OK(ss_einsum(p, "gsec,egcd->gsd", mask, oc, &y));
    md.loss = sum_all(p, y);
    md.n = 2;
    md.params[0] = win;
    md.params[1] = wout;
    md.specs[0] = md.specs[1] = "P('e')";
    ss_optim opt = ss_optim_momentum(1e-3, 0.9, 0);
    train(p, &md, &opt, 4, 3, TOL_SGD);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* --- Donation --------------------------------------------------------------- */

Test(train, donated_step_updates_params_and_state_in_place)
{
    /* An Adam step on device-resident arrays with params and state donated
     * (jit's donate_argnums): the new params and state take over the old
     * buffers, so the peak is below the undonated plan's by at least the
     * three updated copies of a param block, nothing is left behind, and
     * the values equal the undonated host run's bit for bit. */
    ss_mesh *m = tc_mesh("data=2,model=4", 8);
    ss_program *p;
    OK(ss_program_create(m, &p));
    model md = mlp(p, "P('data', None)", 8, "P(None, 'model')", "P('model', None)", SS_RELU);
    ss_value st[5];
    ss_optim o = ss_optim_adam(1e-3);
    ss_executable *e = compile_step(p, md.loss, 2, md.params, NULL, &o, st);
    int ni = tc_input_count(p), no = tc_output_count(p);
    cr_assert_eq(no, ni - 1);
    void **host = tc_inputs(p, NULL, 0, 77u), **outs = tc_outputs(p);
    for (int j = 0; j < 5; j++)
        memset(host[input_no(p, st[j])], 0, tc_elems(p, st[j]) * 4);
    ss_context_options co = {.ndevices = 8, .device_memory = (size_t)64 << 20, .timeout = 60};
    ss_context *ctx, *ref;
    OK(ss_context_create(&co, &ctx));
    OK(ss_context_create(&co, &ref));
    ss_array **in = calloc((size_t)ni, sizeof *in), **res = calloc((size_t)no, sizeof *res);
    bool *donate = calloc((size_t)ni, sizeof *donate);
    for (int k = 0; k < ni; k++) {
        ss_value v;
        ss_sharding sh;
        int rank;
        int64_t shape[SS_MAX_RANK];
        OK(ss_executable_input(e, k, &v));
        OK(ss_value_sharding(p, v, &sh));
        OK(ss_value_shape(p, v, NULL, &rank, shape));
        OK(ss_array_put(ctx, &sh, rank, shape, SS_F32, host[k], NULL, &in[k]));
        donate[k] = strcmp(p->nodes[v].name, "x") != 0; /* the batch is kept */
    }
    cr_assert(!donate[0] && donate[1], "inputs: x first, then the params");
    size_t resident[8];
    for (int d = 0; d < 8; d++) {
        ss_memory_stats ms;
        OK(ss_device_memory_stats(ctx, d, &ms));
        resident[d] = ms.live_bytes;
    }
    for (int step = 0; step < 2; step++) {
        OK(ss_executable_run_arrays(e, ctx, in, donate, res));
        OK(ss_executable_run(e, ref, (const void *const *)host, outs));
        for (int j = 0; j < no; j++) {
            size_t bytes = tc_elems(p, tc_output_value(p, j)) * 4;
            float *got = malloc(bytes);
            OK(ss_array_get(res[j], got, bytes));
            cr_assert(memcmp(got, outs[j], bytes) == 0, "step %d output %d differs", step, j);
            free(got);
        }
        for (int d = 0; d < 8; d++) {
            ss_memory_stats ms;
            OK(ss_device_memory_stats(ctx, d, &ms));
            cr_assert_eq(ms.live_bytes, resident[d], "step %d device %d: %zu live bytes, not %zu",
                         step, d, ms.live_bytes, resident[d]);
        }
        for (int k = 1; k < ni; k++) { /* the results become the next inputs */
            ss_array_destroy(in[k]);
            in[k] = res[k - 1];
            res[k - 1] = NULL;
        }
        for (int j = 0; j < no; j++) {
            ss_value src = j < md.n ? md.params[j] : st[j - md.n];
            memcpy(host[input_no(p, src)], outs[j], tc_elems(p, src) * 4);
        }
    }
    ss_plan plan, planned;
    OK(ss_executable_plan(e, &plan));
    OK(ss_executable_plan_arrays(e, donate, &planned));
    size_t block = tc_elems(p, md.params[0]) * 4 / 4; /* W1 [64, 128] over 'model' (4) */
    for (int d = 0; d < 8; d++) {
        ss_memory_stats ms;
        OK(ss_device_memory_stats(ctx, d, &ms));
        cr_assert_eq(ms.peak_bytes, planned.peak_bytes, "device %d: donated peak %zu, plan %zu",
                     d, ms.peak_bytes, planned.peak_bytes);
        cr_assert_leq(ms.peak_bytes + 3 * block, plan.peak_bytes,
                      "device %d: donated peak %zu, undonated plan %zu", d, ms.peak_bytes,
                      plan.peak_bytes);
    }
    for (int k = 0; k < ni; k++)
        ss_array_destroy(in[k]);
    for (int d = 0; d < 8; d++) {
        ss_memory_stats ms;
        OK(ss_device_memory_stats(ctx, d, &ms));
        cr_assert_eq(ms.live_bytes, 0, "device %d leaks %zu bytes", d, ms.live_bytes);
    }
    free(in);
    free(res);
    free(donate);
    tc_free_list(host, ni);
    tc_free_list(outs, no);
    ss_context_destroy(ctx);
    ss_context_destroy(ref);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(train, each_update_runs_right_after_its_gradient_is_reduced)
{
    /* The update of a param follows the all-reduce of its gradient over
     * 'data' (schedule.c), not the whole backward pass: in a 4-layer MLP
     * every Adam instruction's nearest predecessor (FREEs aside) is the
     * collective that produced its gradient. */
    ss_mesh *m = tc_mesh("data=2,model=4", 8);
    ss_program *p;
    OK(ss_program_create(m, &p));
    ss_value x = tc_in(p, "x", "P('data', None)", 2, 8, 64), params[4], st[9];
    for (int l = 0; l < 4; l++) {
        char name[8];
        snprintf(name, sizeof name, "W%d", l);
        params[l] = tc_in(p, name, l % 2 ? "P('model', None)" : "P(None, 'model')", 2, 64, 64);
        ss_value y;
        OK(ss_matmul(p, x, params[l], &y));
        OK(ss_unary(p, SS_RELU, y, &x));
    }
    ss_optim o = ss_optim_adam(1e-3);
    ss_executable *e = compile_step(p, sum_all(p, x), 4, params, NULL, &o, st);
    int updates = 0;
    for (int k = 0; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        if (i->kind != SS__INST_FUSED || i->fused.nextra != 2)
            continue;
        updates++;
        int prev = k - 1;
        while (prev >= 0 && e->insts[prev].kind == SS__INST_FREE)
            prev--;
        cr_assert(prev >= 0, "update %d comes first", updates);
        const ss__inst *c = &e->insts[prev];
        bool reads = false;
        for (int j = 0; j < i->nin; j++)
            reads = reads || i->in[j] == c->out;
        cr_assert(c->kind == SS__INST_COLL && c->coll.kind == SS_COLL_ALL_REDUCE && reads,
                  "update %d follows instruction kind %d, not its gradient's all_reduce",
                  updates, (int)c->kind);
    }
    cr_assert_eq(updates, 4);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* How many fused updates of e (the instructions with two extra results)
 * fused_adam.c compiles; they run on zeroed scratch of their own shapes. */
static int compiled_updates(const ss_executable *e)
{
    int compiled = 0;
    for (int k = 0; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        if (i->kind != SS__INST_FUSED || i->fused.nextra != 2)
            continue;
        ss__tensor t[SS__MAX_INPUTS + 3];
        int bufs[SS__MAX_INPUTS + 3], n = 0;
        for (int j = 0; j < i->nin; j++)
            bufs[n++] = i->in[j];
        bufs[n++] = i->out;
        bufs[n++] = i->extra_out[0];
        bufs[n++] = i->extra_out[1];
        for (int j = 0; j < n; j++) {
            const ss__bufdesc *b = &e->bufs[bufs[j]];
            t[j] = (ss__tensor){.dtype = b->dtype, .rank = b->rank};
            memcpy(t[j].shape, b->shape, sizeof b->shape);
            t[j].data = calloc(1, b->bytes + 64);
        }
        bool constant[SS__K_FUSED_MAX_OPS];
        float cval[SS__K_FUSED_MAX_OPS];
        for (int s = 0; s < i->fused.nops; s++) {
            const ss__k_fused_op *op = &i->fused.ops[s];
            constant[s] = op->kind == SS__K_FUSED_LEAF     ? t[op->sub].rank == 0
                          : op->kind == SS__K_FUSED_UNARY ? constant[op->a]
                                                           : constant[op->a] && constant[op->b];
            cval[s] = 1.0f;
        }
        compiled += ss__k_fused_adam(&i->fused, t, t + i->nin, constant, cval);
        for (int j = 0; j < n; j++)
            free(t[j].data);
    }
    return compiled;
}

Test(train, the_guide_step_updates_run_as_the_compiled_adam_loop)
{
    /* Every Adam and AdamW update of the Flax guide's step (2 layers here),
     * as optim.c builds it and fuse.c fuses it, is the expression
     * fused_adam.c compiles: if either ever lays it out differently, the
     * updates would fall back to the slower interpreter with no other
     * symptom. */
    ss_spec dm = tc_spec("P('data', 'model')"), dn = tc_spec("P('data', None)");
    for (int variant = 0; variant < 2; variant++) {
        ss_mesh *m = tc_mesh("data=2,model=4", 8);
        ss_program *p;
        OK(ss_program_create(m, &p));
        ss_value x = tc_in(p, "x", "P('data', None)", 2, 8, 64), params[4], st[9];
        for (int l = 0; l < 2; l++) {
            params[2 * l] = tc_in(p, l ? "W1_1" : "W1_0", "P(None, 'model')", 2, 64, 64);
            params[2 * l + 1] = tc_in(p, l ? "W2_1" : "W2_0", "P('model', None)", 2, 64, 64);
            ss_value a, y, yc, z;
            OK(ss_matmul(p, x, params[2 * l], &a));
            OK(ss_unary(p, SS_RELU, a, &y));
            OK(ss_constrain(p, y, &dm, &yc));
            OK(ss_matmul(p, yc, params[2 * l + 1], &z));
            OK(ss_constrain(p, z, &dn, &x));
        }
        ss_optim o = variant ? ss_optim_adamw(1e-3, 1e-4) : ss_optim_adam(1e-3);
        ss_executable *e = compile_step(p, sum_all(p, x), 4, params, NULL, &o, st);
        int n = compiled_updates(e);
        cr_assert_eq(n, 4, "%s: %d of 4 updates take the compiled loop",
                     variant ? "adamw" : "adam", n);
        ss_executable_destroy(e);
        ss_program_destroy(p);
        ss_mesh_destroy(m);
    }
}
