/* test_propagate.c — the program builder and sharding propagation: the
 * shardings GSPMD gives the values of scenarios S1-S9 (docs/gspmd.md
 * section 7), the reshape rule's cases, and builder errors. */
#include "support.h"

#include <criterion/criterion.h>
#include <stdarg.h>
#include <string.h>

/* Assert that value v ended with the sharding `want` (a spec text). */
static void expect(ss_program *p, ss_value v, const char *want, const char *what)
{
    ss_sharding sh;
    cr_assert_eq(ss_value_sharding(p, v, &sh), SS_OK, "%s", ss_error_message());
    ss_spec w = ts_spec(want);
    char got[256], exp[256];
    ss_spec_repr(&sh.spec, got, sizeof got);
    ss_spec_repr(&w, exp, sizeof exp);
    cr_assert(ss_spec_equal(&sh.spec, &w), "%s: got %s, expected %s", what, got, exp);
}

Test(propagate, s1_pointwise_and_reductions)
{
    ss_mesh *m = ts_make_mesh("x=4", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('x')", 2, 16, 32), b = ts_input(p, "b", "P()", 1, 32);
    ss_value e, c2, y, c1, y1, y2, bb, r0, r1;
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
    TS_OK(ss_program_propagate(p));
    expect(p, y2, "P('x', None)", "y");
    TS_OK(ss_value_operand(p, y2, 1, &bb)); /* the broadcast of b */
    cr_assert_str_eq(ss_value_op_name(p, bb), "broadcast_in_dim");
    expect(p, bb, "P('x', None)", "broadcast(b)");
    expect(p, b, "P()", "b stays replicated");
    expect(p, r1, "P('x')", "r1");
    expect(p, r0, "P()", "r0");
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(propagate, s2_data_parallel_and_s3_megatron)
{
    ss_mesh *m = ts_make_mesh("d=4", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('d')", 2, 32, 64);
    ss_value w1 = ts_input(p, "W1", "P()", 2, 64, 128), w2 = ts_input(p, "W2", "P()", 2, 128, 64);
    ss_value a, h, y;
    TS_OK(ss_matmul(p, x, w1, &a));
    TS_OK(ss_unary(p, SS_RELU, a, &h));
    TS_OK(ss_matmul(p, h, w2, &y));
    TS_OK(ss_program_propagate(p));
    expect(p, h, "P('d', None)", "S2 h");
    expect(p, y, "P('d', None)", "S2 y");
    ss_program_destroy(p);
    ss_mesh_destroy(m);

    m = ts_make_mesh("m=4", 8);
    TS_OK(ss_program_create(m, &p));
    x = ts_input(p, "x", "P()", 2, 32, 64);
    w1 = ts_input(p, "W1", "P(None, 'm')", 2, 64, 256);
    w2 = ts_input(p, "W2", "P('m', None)", 2, 256, 64);
    TS_OK(ss_matmul(p, x, w1, &a));
    TS_OK(ss_unary(p, SS_GELU, a, &h));
    TS_OK(ss_matmul(p, h, w2, &y));
    TS_OK(ss_program_propagate(p));
    expect(p, h, "P(None, 'm')", "S3 h");
    expect(p, y, "P()", "S3 y");
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(propagate, s5_flax_dot_relu_dot)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('data', None)", 2, 8, 1024);
    ss_value w1 = ts_input(p, "W1", "P(None, 'model')", 2, 1024, 1024);
    ss_value w2 = ts_input(p, "W2", "P('model', None)", 2, 1024, 1024);
    ss_value a, y, yc, z, zc;
    ss_spec dm = ts_spec("P('data', 'model')"), dn = ts_spec("P('data', None)");
    TS_OK(ss_matmul(p, x, w1, &a));
    TS_OK(ss_unary(p, SS_RELU, a, &y));
    TS_OK(ss_constrain(p, y, &dm, &yc));
    TS_OK(ss_matmul(p, yc, w2, &z));
    TS_OK(ss_constrain(p, z, &dn, &zc));
    TS_OK(ss_program_propagate(p));
    expect(p, a, "P('data', 'model')", "x@W1");
    expect(p, yc, "P('data', 'model')", "y");
    expect(p, z, "P('data', None)", "y@W2 takes the constraint");
    ss_sharding sh;
    char hlo[128];
    ss_value_sharding(p, yc, &sh);
    ss_sharding_to_hlo(&sh, 2, hlo, sizeof hlo);
    cr_assert_str_eq(hlo, "{devices=[2,4]<=[8]}");
    ss_value_sharding(p, x, &sh);
    ss_sharding_to_hlo(&sh, 2, hlo, sizeof hlo);
    cr_assert_str_eq(hlo, "{devices=[2,1,4]<=[8] last_tile_dim_replicate}");
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(propagate, s4_constraint_lends_its_layout_and_s6_fsdp)
{
    ss_mesh *m = ts_make_mesh("m=4", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('m')", 2, 32, 64);
    ss_value w1 = ts_input(p, "W1", "P(None, 'm')", 2, 64, 256);
    ss_value h, hc;
    ss_spec s1 = ts_spec("P(None, 'm')");
    TS_OK(ss_matmul(p, x, w1, &h));
    TS_OK(ss_constrain(p, h, &s1, &hc));
    TS_OK(ss_program_propagate(p));
    expect(p, h, "P(None, 'm')", "S4 dot output takes the constraint");
    ss_program_destroy(p);
    ss_mesh_destroy(m);

    m = ts_make_mesh("d=4", 8);
    TS_OK(ss_program_create(m, &p));
    x = ts_input(p, "x", "P('d')", 2, 512, 64);
    w1 = ts_input(p, "W1", "P('d')", 2, 64, 128);
    TS_OK(ss_matmul(p, x, w1, &h));
    TS_OK(ss_program_propagate(p));
    expect(p, h, "P('d', None)", "S6 h keeps the batch sharding");
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(propagate, s7_heads_sharded_attention)
{
    ss_mesh *m = ts_make_mesh("m=4", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P()", 3, 2, 16, 64);
    ss_value wq = ts_input(p, "Wq", "P(None, 'm')", 3, 64, 8, 8);
    ss_value wk = ts_input(p, "Wk", "P(None, 'm')", 3, 64, 8, 8);
    ss_value wv = ts_input(p, "Wv", "P(None, 'm')", 3, 64, 8, 8);
    ss_value wo = ts_input(p, "Wo", "P('m')", 3, 8, 8, 64);
    ss_value w[4] = {wq, wk, wv, wo}, a[5];
    ts_attention(p, x, w, a);
    ss_value q = a[0], s = a[1], pr = a[2], o = a[3], y = a[4];
    TS_OK(ss_program_propagate(p));
    expect(p, q, "P(None, None, 'm')", "q");
    expect(p, s, "P(None, 'm')", "scores");
    expect(p, pr, "P(None, 'm')", "softmax");
    expect(p, o, "P(None, None, 'm')", "o");
    expect(p, y, "P()", "y");
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(propagate, s8_sequence_sharded_attention_keeps_q_sharding)
{
    ss_mesh *m = ts_make_mesh("sp=4", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value q = ts_input(p, "q", "P(None, 'sp')", 4, 1, 64, 2, 16);
    ss_value k = ts_input(p, "k", "P(None, 'sp')", 4, 1, 64, 2, 16);
    ss_value v = ts_input(p, "v", "P(None, 'sp')", 4, 1, 64, 2, 16);
    ss_value s, pr, o;
    TS_OK(ss_einsum(p, "bqhd,bkhd->bhqk", q, k, &s));
    TS_OK(ss_softmax(p, s, -1, &pr));
    TS_OK(ss_einsum(p, "bhqk,bkhd->bqhd", pr, v, &o));
    TS_OK(ss_program_propagate(p));
    expect(p, s, "P(None, None, 'sp')", "scores sharded on q");
    expect(p, o, "P(None, 'sp')", "o");
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(propagate, s9_expert_parallel_dispatch)
{
    ss_mesh *m = ts_make_mesh("e=4", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", "P('e')", 3, 4, 16, 32);
    ss_value mask = ts_input(p, "m", "P('e')", 4, 4, 16, 4, 8);
    ss_value win = ts_input(p, "Win", "P('e')", 3, 4, 32, 64);
    ss_value d, dc, h, hr;
    ss_spec e0 = ts_spec("P('e')");
    TS_OK(ss_einsum(p, "gsec,gsd->egcd", mask, x, &d));
    TS_OK(ss_constrain(p, d, &e0, &dc));
    TS_OK(ss_einsum(p, "egcd,edh->egch", dc, win, &h));
    TS_OK(ss_unary(p, SS_RELU, h, &hr));
    TS_OK(ss_program_propagate(p));
    /* The einsum's dot_general result stays g-sharded (g is a batch dim of
     * both operands, so the dot is local), the transpose to e-major order
     * follows it, and the constraint reshards: S9's one all-to-all. */
    ss_value dg;
    TS_OK(ss_value_operand(p, d, 0, &dg));
    expect(p, dg, "P('e')", "dot_general result, g first");
    expect(p, d, "P(None, 'e')", "transposed to egcd");
    expect(p, dc, "P('e')", "constraint");
    expect(p, hr, "P('e')", "expert compute");
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(propagate, reshape_rule)
{
    ss_mesh *m = ts_make_mesh("x=4,y=2", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value a = ts_input(p, "a", "P('x')", 2, 8, 8), b = ts_input(p, "b", "P(None, 'x')", 2, 8, 8);
    ss_value c = ts_input(p, "c", "P(('x','y'))", 1, 64), e = ts_input(p, "e", "P(('x','y'))", 2, 8, 8);
    ss_value ra, rb, rc, re;
    int64_t s64[1] = {64}, s416[2] = {4, 16};
    TS_OK(ss_reshape(p, a, 1, s64, &ra));
    TS_OK(ss_reshape(p, b, 1, s64, &rb));
    TS_OK(ss_reshape(p, c, 2, s416, &rc));
    TS_OK(ss_reshape(p, e, 1, s64, &re));
    TS_OK(ss_program_propagate(p));
    expect(p, ra, "P('x')", "[8,8]{4,1} -> [64]{4}");
    expect(p, rb, "P()", "[8,8]{1,4} -> [64] has no in-place sharding");
    expect(p, rc, "P('x', 'y')", "[64]{8} -> [4,16]{4,2}");
    expect(p, re, "P(('x', 'y'))", "[8,8]{8,1} -> [64]{8}");
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(propagate, backward_from_a_constraint_reaches_unspecified_inputs)
{
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", NULL, 2, 8, 16), w = ts_input(p, "w", NULL, 2, 16, 32);
    ss_value y, yc;
    ss_spec dm = ts_spec("P('data', 'model')");
    TS_OK(ss_matmul(p, x, w, &y));
    TS_OK(ss_constrain(p, y, &dm, &yc));
    TS_OK(ss_program_propagate(p));
    expect(p, x, "P('data', None)", "x from the result's batch rows");
    expect(p, w, "P(None, 'model')", "w from the result's columns");
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

Test(propagate, builder_errors_say_what_and_where)
{
    ss_mesh *m = ts_make_mesh("x=4,y=2", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value a = ts_input(p, "a", NULL, 2, 8, 16), b = ts_input(p, "b", NULL, 2, 8, 16), r;
    cr_assert_eq(ss_matmul(p, a, b, &r), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "dot_general: contracting dims differ: lhs is "
                                         "f32[8,16] (dim 1 = 16), rhs is f32[8,16] (dim 0 = 8)"),
              "%s", ss_error_message());
    int64_t s3[1] = {3};
    cr_assert_eq(ss_binary(p, SS_ADD, a, ts_input(p, "c", NULL, 1, 3), &r), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "add: shapes do not broadcast: lhs is f32[8,16] "
                                         "(dim 1 = 16), rhs is f32[3] (dim 0 = 3)"), "%s",
              ss_error_message());
    (void)s3;
    cr_assert_eq(ss_einsum(p, "ij,jk", a, b, &r), SS_ERR_PARSE);
    cr_assert_eq(ss_unary(p, SS_EXP, 99, &r), SS_ERR_INVALID);
    cr_assert(strstr(ss_error_message(), "%99 is not a value"), "%s", ss_error_message());
    ss_spec bad = ts_spec("P('x', 'y', 'x')");
    cr_assert_eq(ss_constrain(p, a, &bad, &r), SS_ERR_DUPLICATE);
    ss_spec z = ts_spec("P('z')");
    int64_t shape[2] = {8, 16};
    cr_assert_eq(ss_input(p, "q", SS_F32, 2, shape, &z, &r), SS_ERR_AXIS);
    cr_assert(strstr(ss_error_message(), "Resource axis: z of P('z',) is not found in mesh"));
    ss_spec three = ts_spec("P('x', None, None)");
    cr_assert_eq(ss_input(p, "q", SS_F32, 2, shape, &three, &r), SS_ERR_RANK);
    cr_assert(strstr(ss_error_message(), "One of pjit arguments with pytree key path q is "
                                         "incompatible with its sharding annotation"),
              "%s", ss_error_message());
    int64_t odd[2] = {6, 16};
    ss_spec x0 = ts_spec("P('x')");
    cr_assert_eq(ss_input(p, "q", SS_F32, 2, odd, &x0, &r), SS_ERR_INDIVISIBLE);
    /* A failed call leaves the program unchanged. */
    cr_assert_eq(ss_program_value_count(p), 3);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* Assert what decided value v's sharding (ss_value_sharding_origin). */
static void expect_origin(ss_program *p, ss_value v, ss_sharding_origin_kind kind, ss_value from,
                          const char *what)
{
    ss_sharding_origin o;
    cr_assert_eq(ss_value_sharding_origin(p, v, &o), SS_OK, "%s", ss_error_message());
    cr_assert(o.kind == kind && o.from == from, "%s: got %s from %%%d, expected %s from %%%d", what,
              ss_sharding_origin_name(o.kind), (int)o.from, ss_sharding_origin_name(kind),
              (int)from);
}

Test(propagate, origin_names_the_step_that_decided)
{
    /* The program of backward_from_a_constraint_reaches_unspecified_inputs:
     * the constraint lends y its layout, and x and w take theirs from the
     * dot that reads them (the backward rule). */
    ss_mesh *m = ts_make_mesh("data=2,model=4", 8);
    ss_program *p;
    ss_sharding_origin o;
    TS_OK(ss_program_create(m, &p));
    ss_value x = ts_input(p, "x", NULL, 2, 8, 16), w = ts_input(p, "w", NULL, 2, 16, 32);
    ss_value b = ts_input(p, "b", "P('data')", 1, 8), y, yc, e, s;
    ss_spec dm = ts_spec("P('data', 'model')");
    TS_OK(ss_matmul(p, x, w, &y));
    TS_OK(ss_constrain(p, y, &dm, &yc));
    TS_OK(ss_unary(p, SS_EXP, b, &e));
    TS_OK(ss_unary(p, SS_EXP, yc, &s));
    cr_assert_eq(ss_value_sharding_origin(p, y, &o), SS_ERR_INVALID, "before propagation");
    TS_OK(ss_program_propagate(p));
    expect(p, x, "P('data', None)", "x");
    expect_origin(p, x, SS_ORIGIN_USER, y, "x from the dot that reads it");
    expect_origin(p, w, SS_ORIGIN_USER, y, "w from the dot that reads it");
    expect_origin(p, y, SS_ORIGIN_CONSTRAINT, yc, "y lent by its constraint");
    expect_origin(p, yc, SS_ORIGIN_DECLARED, -1, "the constraint's own spec");
    expect_origin(p, b, SS_ORIGIN_DECLARED, -1, "an input's spec");
    expect(p, e, "P('data')", "exp(b)");
    expect_origin(p, e, SS_ORIGIN_OPERANDS, -1, "exp(b) from its operand");
    expect_origin(p, s, SS_ORIGIN_OPERANDS, -1, "exp(yc) from its operand");
    cr_assert_str_eq(ss_sharding_origin_name(SS_ORIGIN_PRIMAL), "primal");
    cr_assert_str_eq(ss_sharding_origin_name((ss_sharding_origin_kind)99), "?");
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}
