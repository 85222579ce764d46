/* test_autodiff.c — reverse-mode autodiff (sim/graph/autodiff.c).
 *
 * Every op's gradient is checked three ways:
 *   1. the backward program evaluated in double (train_check.h's
 *      interpreter) against central finite differences of the forward
 *      program, also in double: h = 1e-5, |ad - fd| <= 1e-6 * max(1, max|fd|)
 *      (truncation ~h^2, rounding ~1e-16/h: both far below the bound);
 *   2. the library's single-device reference (ss_program_eval, f32 kernels)
 *      against that double gradient: normwise 2e-5 (f32 rounding through a
 *      few ops);
 *   3. the sharded run on virtual devices against ss_program_eval: normwise
 *      1e-5, with plan == run checks (peak bytes, ledger, no leaks).
 * Then JAX's tie rules, symbolic zeros, errors, and the forward + backward
 * collectives of scenarios S2-S9 (docs/gspmd.md section 7). */
#include "train_check.h"

/* Differentiate `loss` with respect to wrt[0..n) (inputs), mark loss and
 * grads as outputs, and run the three checks. kinds: per input fill. */
static void check_grad(ss_program *p, ss_value loss, int n, const ss_value wrt[],
                       const int *kinds, int classes, int ndevices)
{
    ss_value grads[8];
    OK(ss_grad(p, loss, n, wrt, grads));
    OK(ss_output(p, loss, NULL));
    for (int i = 0; i < n; i++)
        OK(ss_output(p, grads[i], NULL));
    int ni = tc_input_count(p), no = tc_output_count(p);
    void **ins = tc_inputs(p, kinds, classes, 777u);
    double **din = tc_dinputs(p, ins);

    /* 1. double AD vs double central differences */
    double **val = tc_deval(p, din);
    for (int i = 0; i < n; i++) {
        int input_no = 0;
        for (int v = 0; v < wrt[i]; v++)
            input_no += p->nodes[v].op == SS__OP_INPUT || p->nodes[v].op == SS__OP_PARAM;
        size_t ne = tc_elems(p, wrt[i]);
        double *fd = calloc(ne, sizeof *fd), scale = 1.0;
        for (size_t k = 0; k < ne; k++) {
            const double h = 1e-5, x0 = din[input_no][k];
            din[input_no][k] = x0 + h;
            double **vp = tc_deval(p, din);
            din[input_no][k] = x0 - h;
            double **vm = tc_deval(p, din);
            din[input_no][k] = x0;
            fd[k] = (vp[loss][0] - vm[loss][0]) / (2 * h);
            scale = fmax(scale, fabs(fd[k]));
            tc_dfree(p, vp);
            tc_dfree(p, vm);
        }
        for (size_t k = 0; k < ne; k++)
            cr_assert(fabs(val[grads[i]][k] - fd[k]) <= 1e-6 * scale,
                      "d loss / d arg %d [%zu]: autodiff %.12g, finite difference %.12g", i, k,
                      val[grads[i]][k], fd[k]);
        free(fd);
    }

    /* 2. f32 reference vs the double gradient */
    void **ref = tc_outputs(p);
    OK(ss_program_eval(p, (const void *const *)ins, ref));
    for (int j = 0; j < no; j++) {
        ss_value v = tc_output_value(p, j);
        size_t ne = tc_elems(p, v);
        float *want = malloc(ne * sizeof *want);
        for (size_t k = 0; k < ne; k++)
            want[k] = (float)val[v][k];
        tc_close_f(ref[j], want, ne, 2e-5, "f32 reference vs double");
        free(want);
    }
    tc_dfree(p, val);

    /* 3. sharded run vs the reference */
    ss_executable *e;
    OK(ss_program_compile(p, &e));
    void **outs = tc_outputs(p);
    ss_context_destroy(tc_run(e, ndevices, ins, outs));
    for (int j = 0; j < no; j++)
        tc_close_f(outs[j], ref[j], tc_elems(p, tc_output_value(p, j)), 1e-5,
                   "sharded vs reference");
    ss_executable_destroy(e);
    tc_free_list(outs, no);
    tc_free_list(ref, no);
    tc_free_list(ins, ni);
    tc_free_list((void **)din, ni);
}

/* loss = sum(y * r) with a random r like y, so the cotangent is not flat. */
static ss_value weighted_sum(ss_program *p, ss_value y, const char *spec)
{
    int rank;
    int64_t shape[SS_MAX_RANK];
    OK(ss_value_shape(p, y, NULL, &rank, shape));
    ss_spec s;
    if (spec)
        s = tc_spec(spec);
    ss_value r, m, loss;
    OK(ss_input(p, "r", SS_F32, rank, shape, spec ? &s : NULL, &r));
    OK(ss_binary(p, SS_MUL, y, r, &m));
    int axes[SS_MAX_RANK];
    for (int d = 0; d < rank; d++)
        axes[d] = d;
    OK(ss_reduce(p, SS_REDUCE_SUM, m, rank, axes, 0, &loss));
    return loss;
}

Test(autodiff, unary_ops_match_finite_differences)
{
    ss_mesh *m = tc_mesh("x=2", 2);
    for (int op = 0; op < SS_UNARY_COUNT; op++) {
        if (op == SS_IS_FINITE || op == SS_NOT || op == SS_POPCNT || op == SS_CLZ ||
            op == SS_BITCAST)
            continue; /* bool or integer results (bitcast: ss_bitcast_convert): no gradient */
        ss_program *p;
        OK(ss_program_create(m, &p));
        ss_value x = tc_in(p, "x", "P('x')", 2, 4, 6), y, half;
        if (op == SS_ERF_INV) { /* inside (-1, 1): erf_inv(+-1) is infinite */
            OK(ss_constant(p, 0.5, &half));
            OK(ss_binary(p, SS_MUL, x, half, &y));
            OK(ss_unary(p, SS_ERF_INV, y, &y));
        } else {
            OK(ss_unary(p, (ss_unary_op)op, x, &y));
        }
        ss_value loss = weighted_sum(p, y, "P('x')");
        bool pos = op == SS_LOG || op == SS_SQRT || op == SS_RSQRT;
        int kinds[2] = {pos ? TC_POSITIVE : TC_SIGNED, TC_SIGNED};
        check_grad(p, loss, 1, &x, kinds, 0, 2);
        ss_program_destroy(p);
    }
    ss_mesh_destroy(m);
}

Test(autodiff, binary_ops_with_broadcast_match_finite_differences)
{
    ss_mesh *m = tc_mesh("x=2", 2);
    static const ss_binary_op ops[] = {SS_ADD, SS_SUB, SS_MUL, SS_DIV, SS_MAX,
                                       SS_MIN, SS_POW, SS_REM, SS_ATAN2};
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        ss_binary_op op = ops[k];
        ss_program *p;
        OK(ss_program_create(m, &p));
        ss_value a = tc_in(p, "a", "P('x')", 2, 4, 6), b = tc_in(p, "b", "P()", 1, 6), y;
        OK(ss_binary(p, op, a, b, &y)); /* b is broadcast over rows */
        ss_value loss = weighted_sum(p, y, "P('x')");
        int kinds[3] = {op == SS_POW ? TC_POSITIVE : TC_SIGNED,
                        op == SS_DIV || op == SS_REM ? TC_POSITIVE : TC_SIGNED, TC_SIGNED};
        ss_value wrt[2] = {a, b};
        check_grad(p, loss, 2, wrt, kinds, 0, 2);
        ss_program_destroy(p);
    }
    ss_mesh_destroy(m);
}

/* select (JAX's transpose: each branch where taken, nothing to the
 * predicate) and clamp with rank-0 bounds, against difference quotients. */
Test(autodiff, select_and_clamp_match_finite_differences)
{
    ss_mesh *m = tc_mesh("x=2", 2);
    for (int which = 0; which < 2; which++) {
        ss_program *p;
        OK(ss_program_create(m, &p));
        ss_value a = tc_in(p, "a", "P('x')", 2, 4, 6), b = tc_in(p, "b", "P()", 2, 4, 6), y;
        if (which == 0) {
            ss_value c, e, t;
            OK(ss_compare(p, SS_CMP_GT, SS_CMP_FLOAT, a, b, &c));
            OK(ss_unary(p, SS_EXP, a, &e));
            OK(ss_binary(p, SS_MUL, b, b, &t));
            OK(ss_select(p, c, e, t, &y));
        } else {
            ss_value lo, hi;
            OK(ss_constant(p, -0.3, &lo));
            OK(ss_constant(p, 0.4, &hi));
            ss_value t;
            OK(ss_binary(p, SS_MUL, a, b, &t));
            OK(ss_clamp(p, lo, t, hi, &y));
        }
        ss_value loss = weighted_sum(p, y, "P('x')");
        int kinds[3] = {TC_SIGNED, TC_SIGNED, TC_SIGNED};
        ss_value wrt[2] = {a, b};
        check_grad(p, loss, 2, wrt, kinds, 0, 2);
        ss_program_destroy(p);
    }
    ss_mesh_destroy(m);
}

/* Integer values in a differentiated program (an optimizer's i32 step
 * count, a schedule comparing it) get no cotangent, as JAX's float0:
 * loss = sum(w * f32(step) * where(step < 3, 2, 0.5) + f32(w > 0)), whose
 * gradient is f32(step) * (step < 3 ? 2 : 0.5) everywhere. */
Test(autodiff, integer_values_in_a_differentiated_program_get_no_cotangent)
{
    ss_mesh *m = tc_mesh("x=2", 2);
    for (int32_t step = 1; step <= 5; step += 4) {
        ss_program *p;
        OK(ss_program_create(m, &p));
        ss_value w = tc_in(p, "w", "P('x')", 1, 4), s, sf, three, lt, two, half, k, t, c, cf, y,
                 loss, g;
        OK(ss_input(p, "step", SS_I32, 0, NULL, NULL, &s));
        OK(ss_convert(p, s, SS_F32, &sf));
        OK(ss_constant(p, 3.0, &three));
        OK(ss_compare(p, SS_CMP_LT, SS_CMP_SIGNED, s, three, &lt));
        OK(ss_constant(p, 2.0, &two));
        OK(ss_constant(p, 0.5, &half));
        OK(ss_select(p, lt, two, half, &k));
        OK(ss_binary(p, SS_MUL, w, sf, &t));
        OK(ss_binary(p, SS_MUL, t, k, &t));
        OK(ss_constant(p, 0.0, &c));
        OK(ss_compare(p, SS_CMP_GT, SS_CMP_FLOAT, w, c, &c));
        OK(ss_convert(p, c, SS_F32, &cf));
        OK(ss_binary(p, SS_ADD, t, cf, &y));
        OK(ss_reduce(p, SS_REDUCE_SUM, y, 1, (int[]){0}, 0, &loss));
        OK(ss_grad(p, loss, 1, &w, &g));
        OK(ss_output(p, g, NULL));
        float win[4] = {-1.0f, 0.5f, 2.0f, -0.25f}, gout[4];
        const void *in[2] = {win, &step};
        void *out[1] = {gout};
        OK(ss_program_eval(p, in, out));
        float want = (float)step * (step < 3 ? 2.0f : 0.5f);
        for (int i = 0; i < 4; i++)
            cr_assert_eq(gout[i], want, "step %d: d loss / d w[%d] = %g, want %g", step, i,
                         (double)gout[i], (double)want);
        ss_program_destroy(p);
    }
    ss_mesh_destroy(m);
}

Test(autodiff, comparisons_have_zero_gradient)
{
    ss_mesh *m = tc_mesh("x=2", 2);
    for (int op = SS_EQ; op <= SS_GE; op++) {
        ss_program *p;
        OK(ss_program_create(m, &p));
        ss_value a = tc_in(p, "a", "P('x')", 1, 4), b = tc_in(p, "b", "P('x')", 1, 4), y, s;
        OK(ss_binary(p, (ss_binary_op)op, a, b, &y));
        OK(ss_binary(p, SS_ADD, y, a, &s)); /* the gradient is 1 through the add only */
        ss_value loss = weighted_sum(p, s, "P('x')");
        ss_value wrt[2] = {a, b};
        check_grad(p, loss, 2, wrt, NULL, 0, 2);
        ss_program_destroy(p);
    }
    ss_mesh_destroy(m);
}

Test(autodiff, dot_general_with_batch_and_transposed_dims)
{
    ss_mesh *m = tc_mesh("x=2", 2);
    static const char *const specs[][3] = {
        {"bij,bjk->bik", "P('x')", "P('x')"},
        {"bqhd,bkhd->bhqk", "P(None, None, 'x')", "P(None, None, 'x')"},
        {"ij,kj->ki", "P(None, 'x')", "P(None, 'x')"},
        {"bsD,Dhd->bshd", "P()", "P(None, 'x')"},
    };
    static const int shapes[][2][4] = {
        {{2, 3, 4}, {2, 4, 5}}, {{2, 3, 2, 4}, {2, 5, 2, 4}}, {{3, 4}, {5, 4}},
        {{2, 3, 4}, {4, 2, 3}},
    };
    static const int ranks[][2] = {{3, 3}, {4, 4}, {2, 2}, {3, 3}};
    for (int t = 0; t < 4; t++) {
        ss_program *p;
        OK(ss_program_create(m, &p));
        int64_t s0[4], s1[4];
        for (int d = 0; d < 4; d++) {
            s0[d] = shapes[t][0][d];
            s1[d] = shapes[t][1][d];
        }
        ss_spec sp0 = tc_spec(specs[t][1]), sp1 = tc_spec(specs[t][2]);
        ss_value a, b, y;
        OK(ss_input(p, "a", SS_F32, ranks[t][0], s0, &sp0, &a));
        OK(ss_input(p, "b", SS_F32, ranks[t][1], s1, &sp1, &b));
        OK(ss_einsum(p, specs[t][0], a, b, &y));
        ss_value loss = weighted_sum(p, y, NULL);
        ss_value wrt[2] = {a, b};
        check_grad(p, loss, 2, wrt, NULL, 0, 2);
        ss_program_destroy(p);
    }
    ss_mesh_destroy(m);
}

Test(autodiff, reductions_sum_max_min_mean)
{
    ss_mesh *m = tc_mesh("x=2", 2);
    struct { ss_reduce_op op; int naxes; int axes[2]; int keep; } cases[] = {
        {SS_REDUCE_SUM, 1, {0, 0}, 0}, {SS_REDUCE_SUM, 2, {0, 2}, 0},
        {SS_REDUCE_MAX, 1, {1, 0}, 0}, {SS_REDUCE_MAX, 2, {0, 1}, 0},
        {SS_REDUCE_MIN, 1, {0, 0}, 0}, {SS_REDUCE_MEAN, 1, {2, 0}, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        ss_program *p;
        OK(ss_program_create(m, &p));
        ss_value x = tc_in(p, "x", "P('x')", 3, 4, 3, 2), y;
        OK(ss_reduce(p, cases[c].op, x, cases[c].naxes, cases[c].axes, cases[c].keep, &y));
        ss_value loss = weighted_sum(p, y, NULL);
        check_grad(p, loss, 1, &x, NULL, 0, 2);
        ss_program_destroy(p);
    }
    ss_mesh_destroy(m);
}

Test(autodiff, shape_ops_transpose_reshape_broadcast_slice_concat)
{
    ss_mesh *m = tc_mesh("x=2", 2);
    for (int t = 0; t < 5; t++) {
        ss_program *p;
        OK(ss_program_create(m, &p));
        ss_value x = tc_in(p, "x", "P('x')", 3, 2, 3, 4), z = tc_in(p, "z", NULL, 2, 3, 1), y;
        ss_value wrt[2] = {x, z};
        int nw = 1;
        if (t == 0) {
            OK(ss_transpose(p, x, (int[]){2, 0, 1}, &y));
        } else if (t == 1) {
            OK(ss_reshape(p, x, 2, (int64_t[]){6, 4}, &y));
        } else if (t == 2) { /* [3,1] -> [2,3,4]: a new dim and a size-1 dim */
            OK(ss_broadcast_in_dim(p, z, 3, (int64_t[]){2, 3, 4}, (int[]){1, 2}, &y));
            OK(ss_binary(p, SS_MUL, y, x, &y));
            nw = 2;
        } else if (t == 3) {
            OK(ss_slice(p, x, (int64_t[]){0, 1, 1}, (int64_t[]){2, 3, 3}, &y));
        } else {
            ss_value parts[3] = {x, x, x}, s;
            OK(ss_slice(p, x, (int64_t[]){0, 0, 0}, (int64_t[]){2, 3, 1}, &s));
            parts[1] = s;
            OK(ss_concatenate(p, 3, parts, 2, &y));
        }
        ss_value loss = weighted_sum(p, y, NULL);
        check_grad(p, loss, nw, wrt, NULL, 0, 2);
        ss_program_destroy(p);
    }
    ss_mesh_destroy(m);
}

Test(autodiff, composites_softmax_log_softmax_layer_norm_cross_entropy)
{
    ss_mesh *m = tc_mesh("x=2", 2);
    for (int t = 0; t < 4; t++) {
        ss_program *p;
        OK(ss_program_create(m, &p));
        ss_value x = tc_in(p, "x", "P('x')", 2, 4, 5), y, loss;
        ss_value sc = tc_in(p, "scale", NULL, 1, 5), bi = tc_in(p, "bias", NULL, 1, 5);
        ss_value wrt[3] = {x, sc, bi};
        int nw = 1, kinds[5] = {0, 0, 0, TC_LABELS, 0};
        if (t == 0) {
            OK(ss_softmax(p, x, -1, &y));
        } else if (t == 1) {
            OK(ss_log_softmax(p, x, 0, &y));
        } else if (t == 2) {
            OK(ss_layer_norm(p, x, sc, bi, &y));
            nw = 3;
        } else {
            int64_t four = 4;
            ss_spec sx = tc_spec("P('x')");
            ss_value lab;
            OK(ss_input(p, "labels", SS_I32, 1, &four, &sx, &lab));
            OK(ss_cross_entropy(p, x, lab, &y));
        }
        loss = weighted_sum(p, y, NULL);
        check_grad(p, loss, nw, wrt, kinds, 5, 2);
        ss_program_destroy(p);
    }
    ss_mesh_destroy(m);
}

Test(autodiff, constraint_cotangent_gets_the_same_constraint)
{
    ss_mesh *m = tc_mesh("x=2,y=2", 4);
    ss_program *p;
    OK(ss_program_create(m, &p));
    ss_value x = tc_in(p, "x", "P('x')", 2, 4, 8), c, y;
    ss_spec s = tc_spec("P(None, ('x', 'y'))");
    OK(ss_constrain(p, x, &s, &c));
    OK(ss_unary(p, SS_TANH, c, &y));
    ss_value loss = weighted_sum(p, y, "P('y')");
    int n0 = ss_program_value_count(p);
    check_grad(p, loss, 1, &x, NULL, 0, 4);
    int found = 0;
    for (ss_value v = n0; v < ss_program_value_count(p); v++)
        if (p->nodes[v].op == SS__OP_CONSTRAIN) {
            found++;
            cr_assert(ss__layout_equal(&p->nodes[v].fixed, &p->nodes[c].fixed));
        }
    cr_assert_eq(found, 1, "the backward pass has %d constraints", found);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* Evaluate the single output-gradient program on given inputs. */
static void eval_grad(ss_program *p, ss_value loss, ss_value x, const float *xin, float *gout)
{
    ss_value g;
    OK(ss_grad(p, loss, 1, &x, &g));
    OK(ss_output(p, g, NULL));
    const void *ins[1] = {xin};
    void *outs[1] = {gout};
    OK(ss_program_eval(p, ins, outs));
}

Test(autodiff, reduce_max_splits_ties_equally_as_jax)
{
    ss_mesh *m = tc_mesh("x=1", 1);
    ss_program *p;
    OK(ss_program_create(m, &p));
    ss_value x = tc_in(p, "x", NULL, 2, 2, 4), r, loss;
    int ax = 1, both[1] = {0};
    OK(ss_reduce(p, SS_REDUCE_MAX, x, 1, &ax, 0, &r));
    OK(ss_reduce(p, SS_REDUCE_SUM, r, 1, both, 0, &loss));
    float in[8] = {1, 3, 3, 2, 5, 5, 5, -1}, g[8];
    eval_grad(p, loss, x, in, g);
    float want[8] = {0, 0.5f, 0.5f, 0, 1.0f / 3, 1.0f / 3, 1.0f / 3, 0};
    for (int k = 0; k < 8; k++)
        cr_assert_float_eq(g[k], want[k], 1e-7, "element %d: %g, JAX gives %g", k, (double)g[k],
                           (double)want[k]);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(autodiff, binary_max_min_give_half_to_each_side_on_a_tie)
{
    ss_mesh *m = tc_mesh("x=1", 1);
    for (int op = SS_MAX; op <= SS_MIN; op++) {
        ss_program *p;
        OK(ss_program_create(m, &p));
        ss_value x = tc_in(p, "x", NULL, 1, 4), c, y, loss;
        OK(ss_constant(p, 1.0, &c));
        OK(ss_binary(p, (ss_binary_op)op, x, c, &y)); /* jnp.maximum(x, 1) */
        int ax = 0;
        OK(ss_reduce(p, SS_REDUCE_SUM, y, 1, &ax, 0, &loss));
        float in[4] = {0.5f, 1.0f, 2.0f, 1.0f}, g[4];
        eval_grad(p, loss, x, in, g);
        float want_max[4] = {0, 0.5f, 1, 0.5f}, want_min[4] = {1, 0.5f, 0, 0.5f};
        const float *want = op == SS_MAX ? want_max : want_min;
        for (int k = 0; k < 4; k++)
            cr_assert_float_eq(g[k], want[k], 0, "%s element %d: %g, JAX gives %g",
                               op == SS_MAX ? "max" : "min", k, (double)g[k], (double)want[k]);
        ss_program_destroy(p);
    }
    ss_mesh_destroy(m);
}

Test(autodiff, relu_gradient_is_zero_at_zero)
{
    ss_mesh *m = tc_mesh("x=1", 1);
    ss_program *p;
    OK(ss_program_create(m, &p));
    ss_value x = tc_in(p, "x", NULL, 1, 3), y, loss;
    OK(ss_unary(p, SS_RELU, x, &y));
    int ax = 0;
    OK(ss_reduce(p, SS_REDUCE_SUM, y, 1, &ax, 0, &loss));
    float in[3] = {-1, 0, 2}, g[3];
    eval_grad(p, loss, x, in, g);
    cr_assert(g[0] == 0 && g[1] == 0 && g[2] == 1, "relu' = %g %g %g", (double)g[0],
              (double)g[1], (double)g[2]);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(autodiff, stop_gradient_and_unused_arguments_give_zeros)
{
    ss_mesh *m = tc_mesh("x=1", 1);
    ss_program *p;
    OK(ss_program_create(m, &p));
    ss_value x = tc_in(p, "x", NULL, 1, 3), u = tc_in(p, "unused", NULL, 2, 2, 2), s, y, loss;
    OK(ss_stop_gradient(p, x, &s));
    OK(ss_binary(p, SS_MUL, s, x, &y)); /* d/dx = stop(x) = x */
    int ax = 0;
    OK(ss_reduce(p, SS_REDUCE_SUM, y, 1, &ax, 0, &loss));
    ss_value wrt[2] = {x, u}, g[2];
    OK(ss_grad(p, loss, 2, wrt, g));
    OK(ss_output(p, g[0], NULL));
    OK(ss_output(p, g[1], NULL));
    float in[3] = {1, -2, 3}, un[4] = {1, 2, 3, 4}, g0[3], g1[4];
    const void *ins[2] = {in, un};
    void *outs[2] = {g0, g1};
    OK(ss_program_eval(p, ins, outs));
    for (int k = 0; k < 3; k++)
        cr_assert_float_eq(g0[k], in[k], 0);
    for (int k = 0; k < 4; k++)
        cr_assert_float_eq(g1[k], 0, 0);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(autodiff, errors_leave_the_program_unchanged)
{
    ss_mesh *m = tc_mesh("x=1", 1);
    ss_program *p;
    OK(ss_program_create(m, &p));
    ss_value x = tc_in(p, "x", NULL, 1, 3), y, g;
    int64_t three = 3;
    ss_value lab;
    OK(ss_input(p, "labels", SS_I32, 1, &three, NULL, &lab));
    OK(ss_unary(p, SS_EXP, x, &y));
    int n = ss_program_value_count(p);
    cr_assert_eq(ss_grad(p, y, 1, &x, &g), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "scalar"), "%s", ss_error_message());
    ss_value loss, oh;
    int ax = 0;
    OK(ss_reduce(p, SS_REDUCE_SUM, y, 1, &ax, 0, &loss));
    n = ss_program_value_count(p);
    cr_assert_eq(ss_grad(p, loss, 1, &lab, &g), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "dtype i32"), "%s", ss_error_message());
    cr_assert_eq(ss_grad(p, loss, 1, (ss_value[]){99}, &g), SS_ERR_INVALID);
    cr_assert_eq(ss_program_value_count(p), n);
    /* one_hot: labels get nothing, the loss through it is still fine */
    OK(ss_one_hot(p, lab, 3, &oh));
    ss_value ohx, l2;
    OK(ss_binary(p, SS_MUL, oh, y, &ohx));
    int both[2] = {0, 1};
    OK(ss_reduce(p, SS_REDUCE_SUM, ohx, 2, both, 0, &l2));
    OK(ss_grad(p, l2, 1, &x, &g));
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(autodiff, only_needed_cotangents_are_built)
{
    /* Two chained matmuls, grad w.r.t. the second weight only: exactly one
     * backward dot (dW2), no dx, no dW1. */
    ss_mesh *m = tc_mesh("x=1", 1);
    ss_program *p;
    OK(ss_program_create(m, &p));
    ss_value x = tc_in(p, "x", NULL, 2, 4, 8), w1 = tc_in(p, "w1", NULL, 2, 8, 8);
    ss_value w2 = tc_in(p, "w2", NULL, 2, 8, 8), h, y, loss, g;
    OK(ss_matmul(p, x, w1, &h));
    OK(ss_matmul(p, h, w2, &y));
    OK(ss_reduce(p, SS_REDUCE_SUM, y, 2, (int[]){0, 1}, 0, &loss));
    int n0 = ss_program_value_count(p), dots = 0;
    OK(ss_grad(p, loss, 1, &w2, &g));
    for (ss_value v = n0; v < ss_program_value_count(p); v++)
        dots += p->nodes[v].op == SS__OP_DOT;
    cr_assert_eq(dots, 1, "%d backward dots", dots);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* --- Scenarios S2-S9: forward + backward collectives ---------------------- */

/* Differentiate, output every gradient with its primal's spec (jit's
 * out_shardings = the params' shardings), compile, run, compare with the
 * reference, and return the executable for ledger checks. */
static ss_executable *scenario(ss_program *p, ss_value loss, int n, const ss_value wrt[],
                               const char *const specs[], int ndevices, bool output_loss)
{
    ss_value g[8];
    OK(ss_grad(p, loss, n, wrt, g));
    if (output_loss)
        OK(ss_output(p, loss, NULL));
    for (int i = 0; i < n; i++) {
        ss_spec s = tc_spec(specs[i]);
        OK(ss_output(p, g[i], &s));
    }
    ss_executable *e;
    OK(ss_program_compile(p, &e));
    int ni = tc_input_count(p), no = tc_output_count(p);
    void **ins = tc_inputs(p, NULL, 0, 99u), **ref = tc_outputs(p), **outs = tc_outputs(p);
    OK(ss_program_eval(p, (const void *const *)ins, ref));
    ss_context_destroy(tc_run(e, ndevices, ins, outs));
    for (int j = 0; j < no; j++)
        tc_close_f(outs[j], ref[j], tc_elems(p, tc_output_value(p, j)), 1e-5,
                   "sharded gradient vs reference");
    tc_free_list(ins, ni);
    tc_free_list(ref, no);
    tc_free_list(outs, no);
    return e;
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

#define LEDGER(e, name, ...)                                                                 \
    do {                                                                                     \
        tc_coll want_[] = {__VA_ARGS__};                                                     \
        cr_assert(tc_ledger_is(e, name, want_, (int)(sizeof want_ / sizeof want_[0])),       \
                  "%s: the forward + backward collectives differ from docs/gspmd.md "      \
                  "(ledger and explain on stderr)", name);                                   \
    } while (0)

#define AR SS_COLL_ALL_REDUCE
#define AG SS_COLL_ALL_GATHER
#define RS SS_COLL_REDUCE_SCATTER
#define A2A SS_COLL_ALL_TO_ALL

Test(autodiff_ledger, s2_data_parallel_weight_grads_all_reduce)
{
    ss_mesh *m = tc_mesh("d=4", 4);
    ss_program *p;
    OK(ss_program_create(m, &p));
    ss_value x = tc_in(p, "x", "P('d')", 2, 32, 64);
    ss_value w1 = tc_in(p, "W1", "P()", 2, 64, 128), w2 = tc_in(p, "W2", "P()", 2, 128, 64);
    ss_value a, h, y;
    OK(ss_matmul(p, x, w1, &a));
    OK(ss_unary(p, SS_RELU, a, &h));
    OK(ss_matmul(p, h, w2, &y));
    ss_value wrt[2] = {w1, w2};
    const char *specs[2] = {"P()", "P()"};
    ss_executable *e = scenario(p, sum_all(p, y), 2, wrt, specs, 4, true);
    /* forward: the loss (6 B); backward: dW2, dW1 */
    LEDGER(e, "S2", {AR, 6}, {AR, 49152}, {AR, 49152});
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(autodiff_ledger, s3_megatron_dx_all_reduces)
{
    ss_mesh *m = tc_mesh("m=4", 4);
    ss_program *p;
    OK(ss_program_create(m, &p));
    ss_value x = tc_in(p, "x", "P()", 2, 32, 64);
    ss_value w1 = tc_in(p, "W1", "P(None, 'm')", 2, 64, 256);
    ss_value w2 = tc_in(p, "W2", "P('m', None)", 2, 256, 64);
    ss_value a, h, y;
    OK(ss_matmul(p, x, w1, &a));
    OK(ss_unary(p, SS_GELU, a, &h));
    OK(ss_matmul(p, h, w2, &y));
    ss_value wrt[3] = {x, w1, w2};
    const char *specs[3] = {"P()", "P(None, 'm')", "P('m', None)"};
    ss_executable *e = scenario(p, sum_all(p, y), 3, wrt, specs, 4, false);
    LEDGER(e, "S3", {AR, 12288}, {AR, 12288});
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(autodiff_ledger, s4_sequence_parallel_backward_gathers_dy_and_reduce_scatters_dx)
{
    ss_mesh *m = tc_mesh("m=4", 4);
    ss_program *p;
    OK(ss_program_create(m, &p));
    ss_value x = tc_in(p, "x", "P('m')", 2, 32, 64);
    ss_value w1 = tc_in(p, "W1", "P(None, 'm')", 2, 64, 256);
    ss_value w2 = tc_in(p, "W2", "P('m', None)", 2, 256, 64);
    ss_value a, h, hc, y, yc;
    ss_spec s1 = tc_spec("P(None, 'm')"), s0 = tc_spec("P('m')");
    OK(ss_matmul(p, x, w1, &a));
    OK(ss_unary(p, SS_GELU, a, &h));
    OK(ss_constrain(p, h, &s1, &hc));
    OK(ss_matmul(p, hc, w2, &y));
    OK(ss_constrain(p, y, &s0, &yc));
    ss_value wrt[3] = {x, w1, w2};
    const char *specs[3] = {"P('m')", "P(None, 'm')", "P('m', None)"};
    ss_executable *e = scenario(p, sum_all(p, yc), 3, wrt, specs, 4, false);
    /* forward AG x, RS y, the loss's AR (6 B); backward AG dy, RS dx */
    LEDGER(e, "S4", {AG, 6144}, {RS, 6144}, {AR, 6}, {AG, 6144}, {RS, 6144});
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(autodiff_ledger, s5_flax_dot_relu_dot_backward)
{
    ss_mesh *m = tc_mesh("data=2,model=4", 8);
    ss_program *p;
    OK(ss_program_create(m, &p));
    ss_value x = tc_in(p, "x", "P('data', None)", 2, 8, 1024), ws[8];
    ss_spec dm = tc_spec("P('data', 'model')"), dn = tc_spec("P('data', None)");
    const char *specs[8];
    for (int layer = 0; layer < 4; layer++) {
        char n1[16], n2[16];
        snprintf(n1, sizeof n1, "W1_%d", layer);
        snprintf(n2, sizeof n2, "W2_%d", layer);
        ss_value w1 = tc_in(p, n1, "P(None, 'model')", 2, 1024, 1024);
        ss_value w2 = tc_in(p, n2, "P('model', None)", 2, 1024, 1024);
        ss_value a, y, yc, z;
        OK(ss_matmul(p, x, w1, &a));
        OK(ss_unary(p, SS_RELU, a, &y));
        OK(ss_constrain(p, y, &dm, &yc));
        OK(ss_matmul(p, yc, w2, &z));
        OK(ss_constrain(p, z, &dn, &x));
        ws[2 * layer] = w1;
        ws[2 * layer + 1] = w2;
        specs[2 * layer] = "P(None, 'model')";
        specs[2 * layer + 1] = "P('model', None)";
    }
    ss_executable *e = scenario(p, sum_all(p, x), 8, ws, specs, 8, false);
    /* forward AR(model) per layer, the loss's AR(data) (4 B); backward per
     * layer, last first: dW2 AR(data), dx AR(model) (not for layer 1), dW1
     * AR(data). */
    const tc_coll fwd = {AR, 24576}, big = {AR, 1048576}, dx = {AR, 24576};
    LEDGER(e, "S5", fwd, fwd, fwd, fwd, {AR, 4}, big, dx, big, big, dx, big, big, dx, big, big,
           big);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(autodiff_ledger, s6_fsdp_gathers_weights_and_reduce_scatters_grads)
{
    ss_mesh *m = tc_mesh("d=4", 4);
    ss_program *p;
    OK(ss_program_create(m, &p));
    ss_value x = tc_in(p, "x", "P('d')", 2, 512, 64);
    ss_value w1 = tc_param(p, "W1", "P('d')", 2, 64, 128);
    ss_value w2 = tc_param(p, "W2", "P('d')", 2, 128, 64);
    ss_value a, h, y;
    OK(ss_matmul(p, x, w1, &a));
    OK(ss_unary(p, SS_RELU, a, &h));
    OK(ss_matmul(p, h, w2, &y));
    ss_value wrt[2] = {w1, w2};
    const char *specs[2] = {"P('d')", "P('d')"};
    ss_executable *e = scenario(p, sum_all(p, y), 2, wrt, specs, 4, false);
    /* forward AG W1, AG W2, the loss's AR; backward AG W2 again (ZeRO-3
     * frees gathered params), RS dW2, RS dW1 */
    LEDGER(e, "S6", {AG, 24576}, {AG, 24576}, {AR, 6}, {AG, 24576}, {RS, 24576}, {RS, 24576});
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(autodiff_ledger, s7_heads_sharded_attention_one_dx_all_reduce)
{
    ss_mesh *m = tc_mesh("m=4", 4);
    ss_program *p;
    OK(ss_program_create(m, &p));
    ss_value x = tc_in(p, "x", "P()", 3, 2, 16, 64);
    ss_value wq = tc_in(p, "Wq", "P(None, 'm')", 3, 64, 8, 8);
    ss_value wk = tc_in(p, "Wk", "P(None, 'm')", 3, 64, 8, 8);
    ss_value wv = tc_in(p, "Wv", "P(None, 'm')", 3, 64, 8, 8);
    ss_value wo = tc_in(p, "Wo", "P('m')", 3, 8, 8, 64);
    ss_value w[4] = {wq, wk, wv, wo}, a[5];
    ts_attention(p, x, w, a);
    ss_value y = a[4];
    ss_value wrt[5] = {x, wq, wk, wv, wo};
    const char *specs[5] = {"P()", "P(None, 'm')", "P(None, 'm')", "P(None, 'm')", "P('m')"};
    ss_executable *e = scenario(p, sum_all(p, y), 5, wrt, specs, 4, false);
    /* forward AR of y; backward one AR of dx: its three partial terms
     * (through q, k and v) are added before the single reduction. */
    LEDGER(e, "S7", {AR, 12288}, {AR, 12288});
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(autodiff_ledger, s8_sequence_sharded_attention_backward)
{
    /* The notes list S8's forward only; the backward is checked against the
     * reference and its ledger printed for the record. */
    ss_mesh *m = tc_mesh("sp=4", 4);
    ss_program *p;
    OK(ss_program_create(m, &p));
    ss_value q = tc_in(p, "q", "P(None, 'sp')", 4, 1, 64, 2, 16);
    ss_value k = tc_in(p, "k", "P(None, 'sp')", 4, 1, 64, 2, 16);
    ss_value v = tc_in(p, "v", "P(None, 'sp')", 4, 1, 64, 2, 16);
    ss_value s, pr, o, oc;
    OK(ss_einsum(p, "bqhd,bkhd->bhqk", q, k, &s));
    OK(ss_softmax(p, s, -1, &pr));
    OK(ss_einsum(p, "bhqk,bkhd->bqhd", pr, v, &o));
    ss_spec s1 = tc_spec("P(None, 'sp')");
    OK(ss_constrain(p, o, &s1, &oc));
    ss_value wrt[3] = {q, k, v};
    const char *specs[3] = {"P(None, 'sp')", "P(None, 'sp')", "P(None, 'sp')"};
    ss_executable *e = scenario(p, sum_all(p, oc), 3, wrt, specs, 4, false);
    tc_coll fwd[2] = {{AG, 6144}, {AG, 6144}};
    for (int i = 0; i < 2; i++) {
        ss_coll_record r;
        OK(ss_executable_ledger_get(e, i, &r));
        cr_assert(r.kind == fwd[i].kind && r.sent == fwd[i].sent, "forward collective %d", i);
    }
    tc_ledger_is(e, "S8 (backward not in the notes)", fwd, 2);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(autodiff_ledger, s9_expert_parallel_backward_all_to_alls)
{
    ss_mesh *m = tc_mesh("e=4", 4);
    ss_program *p;
    OK(ss_program_create(m, &p));
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
    ss_value wrt[3] = {x, win, wout};
    const char *specs[3] = {"P('e')", "P('e')", "P('e')"};
    ss_executable *e = scenario(p, sum_all(p, y), 3, wrt, specs, 4, false);
    LEDGER(e, "S9", {A2A, 3072}, {A2A, 3072}, {AR, 6}, {A2A, 3072}, {A2A, 3072});
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}
