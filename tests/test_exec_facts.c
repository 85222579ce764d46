/* test_exec_facts.c — what the public header says about a compiled
 * executable (shardsim.h, "Executable facts"): ledger entries with
 * structured axes, replica groups and source_target_pairs as XLA lists
 * them, provenance and phase, the buffers alive at the peak and the cost of
 * each step. Expected values are derived here by hand:
 *
 * - replica groups follow JAX's axis_groups (jax/_src/interpreters/pxla.py,
 *   _axis_groups): number the devices of the mesh row-major, move the named
 *   axes to the front in the order given, reshape to (group size, -1) and
 *   transpose, so each group is a column; on a 2x4 mesh ('x', 'y') device
 *   (x, y) is 4x + y;
 * - a ppermute's source_target_pairs are its (source, target) axis indices
 *   mapped through each group in turn (XLA's collective-permute lists every
 *   group's pairs as device ids);
 * - byte and FLOP counts are computed from the shapes (2 m k n for a
 *   matmul, 64-byte arena rounding as the memory stats document).
 */
#include <criterion/criterion.h>
#include <shardsim.h>

#include <string.h>

#define OK(x) cr_assert_eq((x), SS_OK, "%s: %s", #x, ss_error_message())

static ss_mesh *mesh(const char *text, int n)
{
    ss_mesh *m;
    OK(ss_mesh_parse(text, n, NULL, &m));
    return m;
}

static ss_spec spec(const char *text)
{
    ss_spec s;
    OK(ss_spec_parse(text, &s));
    return s;
}

static ss_value input(ss_program *p, const char *name, const char *sp, int rank,
                      const int64_t shape[])
{
    ss_spec s = sp ? spec(sp) : (ss_spec){0};
    ss_value v;
    OK(ss_input(p, name, SS_F32, rank, shape, sp ? &s : NULL, &v));
    return v;
}

/* A shard_map over the whole 2x4 mesh of x f32[8,4] P('x', 'y') (blocks
 * f32[4,1]) whose body applies one collective; the result assembled with
 * out_spec P('x', 'y'). */
typedef ss_status (*body_fn)(ss_program *p, ss_value block, ss_value *out);

typedef struct region {
    ss_mesh *m;
    ss_program *p;
    ss_executable *e;
    ss_value coll; /* the collective's value */
} region;

static void region_build(region *r, body_fn body)
{
    r->m = mesh("x=2,y=4", 8);
    OK(ss_program_create(r->m, &r->p));
    ss_value x = input(r->p, "x", "P('x', 'y')", 2, (int64_t[]){8, 4});
    ss_spec s = spec("P('x', 'y')");
    ss_value block, out;
    OK(ss_shard_map_begin(r->p, 1, &x, &s, &block));
    OK(body(r->p, block, &r->coll));
    OK(ss_shard_map_end_unchecked(r->p, 1, &r->coll, &s, &out));
    OK(ss_output(r->p, out, &s));
    OK(ss_program_compile(r->p, &r->e));
}

static void region_free(region *r)
{
    ss_executable_destroy(r->e);
    ss_program_destroy(r->p);
    ss_mesh_destroy(r->m);
}

/* The one ledger entry of r is the body's collective, written by the user,
 * with these axes, groups (row-major) and repr. */
static void check_user_entry(const region *r, ss_coll_kind kind, int naxes, const int axes[],
                             const char *repr, int ngroups, int gsize, const int want[])
{
    cr_assert_eq(ss_executable_ledger_count(r->e), 1);
    ss_ledger_entry le;
    OK(ss_executable_ledger_entry(r->e, 0, &le));
    cr_assert_eq(le.coll.kind, kind);
    cr_assert_eq(le.coll.seq, 1);
    cr_assert_eq(le.value, r->coll, "provenance: value %d, the collective is %d", (int)le.value,
                 (int)r->coll);
    cr_assert(le.user, "a collective written in a shard_map body is the user's");
    cr_assert_eq(le.phase, SS_PHASE_FORWARD);
    cr_assert_eq(le.coll.naxes, naxes);
    for (int k = 0; k < naxes; k++)
        cr_assert_eq(le.coll.axes[k], axes[k], "axis %d: %d, want %d", k, le.coll.axes[k],
                     axes[k]);
    char text[64];
    OK(ss_axes_repr(r->m, le.coll.naxes, le.coll.axes, text, sizeof text));
    cr_assert_str_eq(text, repr);
    cr_assert_eq(le.coll.ngroups, ngroups);
    cr_assert_eq(le.coll.group_size, gsize);
    int ids[8];
    OK(ss_executable_ledger_groups(r->e, 0, ids, 8));
    for (int k = 0; k < ngroups * gsize; k++)
        cr_assert_eq(ids[k], want[k], "group %d, member %d: device %d, want %d", k / gsize,
                     k % gsize, ids[k], want[k]);
}

static ss_status psum_xy(ss_program *p, ss_value b, ss_value *out)
{
    return ss_psum(p, b, "x,y", SS_REDUCE_SUM, out);
}
static ss_status psum_yx(ss_program *p, ss_value b, ss_value *out)
{
    return ss_psum(p, b, "('y', 'x')", SS_REDUCE_SUM, out);
}
static ss_status psum_x(ss_program *p, ss_value b, ss_value *out)
{
    return ss_psum(p, b, "x", SS_REDUCE_SUM, out);
}
static ss_status psum_y(ss_program *p, ss_value b, ss_value *out)
{
    return ss_psum(p, b, "y", SS_REDUCE_SUM, out);
}
static ss_status shift_y(ss_program *p, ss_value b, ss_value *out)
{
    /* jnp.roll-style ring shift along 'y': rank r sends to r + 1. */
    static const int pairs[4][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
    return ss_ppermute(p, b, "y", 4, pairs, out);
}
static ss_status half_swap_y(ss_program *p, ss_value b, ss_value *out)
{
    static const int pairs[2][2] = {{0, 2}, {2, 0}};
    return ss_ppermute(p, b, "y", 2, pairs, out);
}

Test(exec_facts, psum_over_both_axes_is_one_group_of_all)
{
    region r;
    region_build(&r, psum_xy);
    check_user_entry(&r, SS_COLL_ALL_REDUCE, 2, (int[]){0, 1}, "('x', 'y')", 1, 8,
                     (int[]){0, 1, 2, 3, 4, 5, 6, 7});
    ss_ledger_entry le;
    OK(ss_executable_ledger_entry(r.e, 0, &le));
    /* f32[4,1] per device: 16 bytes, a ring all-reduce sends 2 (n-1)/n of it. */
    cr_assert_eq(le.coll.bytes, 16u);
    cr_assert_float_eq(le.coll.sent, 2.0 * 7 / 8 * 16, 1e-9);
    cr_assert_float_eq(le.coll.received, 2.0 * 7 / 8 * 16, 1e-9);
    cr_assert_eq(le.npairs, 0);
    region_free(&r);
}

Test(exec_facts, psum_over_y_then_x_orders_ranks_y_major)
{
    region r;
    region_build(&r, psum_yx);
    /* moveaxis to (y, x): column [iota[x, y] for y for x] = 0 4 1 5 2 6 3 7. */
    check_user_entry(&r, SS_COLL_ALL_REDUCE, 2, (int[]){1, 0}, "('y', 'x')", 1, 8,
                     (int[]){0, 4, 1, 5, 2, 6, 3, 7});
    region_free(&r);
}

Test(exec_facts, psum_over_one_axis_groups_the_other)
{
    region r;
    region_build(&r, psum_x);
    check_user_entry(&r, SS_COLL_ALL_REDUCE, 1, (int[]){0}, "('x',)", 4, 2,
                     (int[]){0, 4, 1, 5, 2, 6, 3, 7});
    region_free(&r);
    region_build(&r, psum_y);
    check_user_entry(&r, SS_COLL_ALL_REDUCE, 1, (int[]){1}, "('y',)", 2, 4,
                     (int[]){0, 1, 2, 3, 4, 5, 6, 7});
    region_free(&r);
}

Test(exec_facts, ppermute_pairs_are_device_ids_per_group)
{
    region r;
    region_build(&r, shift_y);
    check_user_entry(&r, SS_COLL_PERMUTE, 1, (int[]){1}, "('y',)", 2, 4,
                     (int[]){0, 1, 2, 3, 4, 5, 6, 7});
    ss_ledger_entry le;
    OK(ss_executable_ledger_entry(r.e, 0, &le));
    cr_assert_eq(le.npairs, 8);
    static const int want[8][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0},
                                   {4, 5}, {5, 6}, {6, 7}, {7, 4}};
    int got[8][2], n = -1;
    OK(ss_executable_ledger_pairs(r.e, 0, got, 8, &n));
    cr_assert_eq(n, 8);
    for (int k = 0; k < 8; k++)
        cr_assert(got[k][0] == want[k][0] && got[k][1] == want[k][1],
                  "pair %d: (%d, %d), want (%d, %d)", k, got[k][0], got[k][1], want[k][0],
                  want[k][1]);
    /* A short buffer gets the first pairs and the full count. */
    int few[3][2];
    OK(ss_executable_ledger_pairs(r.e, 0, few, 3, &n));
    cr_assert_eq(n, 8);
    cr_assert(few[2][0] == 2 && few[2][1] == 3);
    region_free(&r);

    region_build(&r, half_swap_y);
    OK(ss_executable_ledger_entry(r.e, 0, &le));
    cr_assert_eq(le.npairs, 4);
    OK(ss_executable_ledger_pairs(r.e, 0, got, 8, &n));
    static const int swap[4][2] = {{0, 2}, {2, 0}, {4, 6}, {6, 4}};
    for (int k = 0; k < 4; k++)
        cr_assert(got[k][0] == swap[k][0] && got[k][1] == swap[k][1],
                  "pair %d: (%d, %d), want (%d, %d)", k, got[k][0], got[k][1], swap[k][0],
                  swap[k][1]);
    region_free(&r);
}

Test(exec_facts, bad_indices_and_short_buffers_are_errors)
{
    region r;
    region_build(&r, psum_y);
    ss_ledger_entry le;
    cr_assert_eq(ss_executable_ledger_entry(r.e, 1, &le), SS_ERR_RANGE);
    cr_assert_eq(ss_executable_ledger_entry(r.e, -1, &le), SS_ERR_RANGE);
    int ids[8], pairs[1][2], n = -1;
    cr_assert_eq(ss_executable_ledger_groups(r.e, 0, ids, 7), SS_ERR_RANGE);
    cr_assert_eq(ss_executable_ledger_groups(r.e, 3, ids, 8), SS_ERR_RANGE);
    cr_assert_eq(ss_executable_ledger_pairs(r.e, 2, pairs, 1, &n), SS_ERR_RANGE);
    OK(ss_executable_ledger_pairs(r.e, 0, pairs, 1, &n));
    cr_assert_eq(n, 0, "an all-reduce has no pairs");
    region_free(&r);
}

Test(exec_facts, axes_repr_is_pythons_tuple_repr)
{
    ss_mesh *m = mesh("data=2,model=2,seq=2", 8);
    char t[64];
    OK(ss_axes_repr(m, 0, NULL, t, sizeof t));
    cr_assert_str_eq(t, "()");
    OK(ss_axes_repr(m, 1, (int[]){2}, t, sizeof t));
    cr_assert_str_eq(t, "('seq',)");
    OK(ss_axes_repr(m, 3, (int[]){2, 0, 1}, t, sizeof t));
    cr_assert_str_eq(t, "('seq', 'data', 'model')");
    OK(ss_axes_repr(m, 2, (int[]){0, 1}, t, 8));
    cr_assert_str_eq(t, "('data'", "cut short to the buffer");
    cr_assert_eq(ss_axes_repr(m, 1, (int[]){3}, t, sizeof t), SS_ERR_RANGE);
    cr_assert_eq(ss_axes_repr(m, 1, (int[]){-1}, t, sizeof t), SS_ERR_RANGE);
    cr_assert_eq(ss_axes_repr(m, SS_MAX_AXES + 1, (int[SS_MAX_AXES + 1]){0}, t, sizeof t),
                 SS_ERR_RANGE);
    ss_mesh_destroy(m);
}

/* Data parallelism on x=4: loss = sum(x @ w) with x's rows sharded and w
 * replicated. The partitioner adds two all-reduces over ('x',) (JAX's
 * data-parallel step): the loss's partial sums in the forward, then the
 * gradient's (x^T @ dy contracts the sharded rows) in the backward. */
Test(exec_facts, inserted_reductions_carry_their_phase)
{
    ss_mesh *m = mesh("x=4", 4);
    ss_program *p;
    OK(ss_program_create(m, &p));
    ss_value x = input(p, "x", "P('x', None)", 2, (int64_t[]){8, 4});
    ss_spec rep = spec("P()");
    ss_value w, y, loss, dw;
    OK(ss_param(p, "w", SS_F32, 2, (int64_t[]){4, 2}, &rep, &w));
    OK(ss_matmul(p, x, w, &y));
    OK(ss_reduce(p, SS_REDUCE_SUM, y, 2, (int[]){0, 1}, 0, &loss));
    OK(ss_grad(p, loss, 1, &w, &dw));
    OK(ss_output(p, loss, &rep));
    OK(ss_output(p, dw, &rep));
    ss_executable *e;
    OK(ss_program_compile(p, &e));
    cr_assert_eq(ss_executable_ledger_count(e), 2);
    ss_phase want[2] = {SS_PHASE_FORWARD, SS_PHASE_BACKWARD};
    for (int i = 0; i < 2; i++) {
        ss_ledger_entry le;
        OK(ss_executable_ledger_entry(e, i, &le));
        cr_assert_eq(le.coll.kind, SS_COLL_ALL_REDUCE);
        cr_assert(!le.user, "entry %d: the partitioner's, not the user's", i);
        cr_assert_eq(le.phase, want[i], "entry %d: %s, want %s", i, ss_phase_name(le.phase),
                     ss_phase_name(want[i]));
        cr_assert_eq(le.coll.naxes, 1);
        cr_assert_eq(le.coll.axes[0], 0);
        int ids[4];
        OK(ss_executable_ledger_groups(e, i, ids, 4));
        for (int k = 0; k < 4; k++)
            cr_assert_eq(ids[k], k);
    }
    ss_ledger_entry first;
    OK(ss_executable_ledger_entry(e, 0, &first));
    cr_assert_eq(first.value, loss, "the loss's reduction: value %d, the loss is %d",
                 (int)first.value, (int)loss);
    cr_assert_str_eq(ss_value_name(p, x), "x");
    cr_assert_str_eq(ss_value_name(p, w), "w");
    cr_assert_str_eq(ss_value_name(p, y), "");
    cr_assert_str_eq(ss_value_name(p, 10000), "");
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* One device, no fusion: x f32[64,32] (8192 B), e = exp(x) (8192 B), s =
 * sum(e, axis 0) f32[32] (128 B). x lives to the end (an argument), e
 * until s is computed: the peak is after s, with x, e and s alive. */
Test(exec_facts, peak_buffers_of_a_two_op_program)
{
    ss_mesh *m = mesh("d=1", 1);
    ss_program *p;
    OK(ss_program_create(m, &p));
    ss_value x = input(p, "x", NULL, 2, (int64_t[]){64, 32});
    ss_value ex, s;
    OK(ss_unary(p, SS_EXP, x, &ex));
    OK(ss_reduce(p, SS_REDUCE_SUM, ex, 1, (int[]){0}, 0, &s));
    OK(ss_output(p, s, NULL));
    ss_compile_options o = {.no_fusion = 1};
    ss_executable *e;
    OK(ss_program_compile_with(p, &o, &e));
    ss_live_buffer b[8];
    int n = -1;
    OK(ss_executable_peak_buffers(e, b, 8, &n));
    cr_assert_eq(n, 3);
    size_t total = 0;
    for (int k = 0; k < n; k++)
        total += b[k].bytes;
    cr_assert_eq(total, 8192u + 8192u + 128u);
    /* Largest first; the two of 8192 B are x and exp(x), in name order. */
    cr_assert_eq(b[0].bytes, 8192u);
    cr_assert_eq(b[1].bytes, 8192u);
    cr_assert(strcmp(b[0].name, b[1].name) < 0);
    cr_assert((b[0].value == x && b[1].value == ex) || (b[0].value == ex && b[1].value == x),
              "the 8 KiB buffers hold %d and %d, want x %d and exp %d", (int)b[0].value,
              (int)b[1].value, (int)x, (int)ex);
    cr_assert_eq(b[2].value, s);
    cr_assert_eq(b[2].bytes, 128u);
    ss_plan plan;
    OK(ss_executable_plan(e, &plan));
    cr_assert_eq(plan.peak_bytes, total, "the plan's peak %zu", plan.peak_bytes);
    /* cap bounds what is written. */
    OK(ss_executable_peak_buffers(e, b, 1, &n));
    cr_assert_eq(n, 1);
    cr_assert_eq(b[0].bytes, 8192u);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* A matmul x f32[8,16] @ w f32[16,4] with the contracting dim sharded on
 * k=2: each device multiplies [8,8] @ [8,4] (2*8*8*4 = 512 FLOPs, reading
 * 256 + 128 bytes and writing 128), then an all-reduce over ('k',) of the
 * f32[8,4] partial sums (128 B: a ring sends 2 (n-1)/n of it, 128 B). */
Test(exec_facts, step_costs_of_a_sharded_matmul)
{
    ss_mesh *m = mesh("k=2", 2);
    ss_program *p;
    OK(ss_program_create(m, &p));
    ss_value x = input(p, "x", "P(None, 'k')", 2, (int64_t[]){8, 16});
    ss_value w = input(p, "w", "P('k', None)", 2, (int64_t[]){16, 4});
    ss_value y;
    OK(ss_matmul(p, x, w, &y));
    ss_spec rep = spec("P()");
    OK(ss_output(p, y, &rep));
    ss_executable *e;
    OK(ss_program_compile(p, &e));
    int n = -1;
    OK(ss_executable_steps(e, NULL, 0, &n));
    cr_assert_eq(n, 2, "%d steps, want the dot and its all-reduce", n);
    ss_step_cost c[2];
    OK(ss_executable_steps(e, c, 2, &n));
    cr_assert_eq(c[0].kind, SS_STEP_KERNEL);
    cr_assert_eq(c[0].value, y);
    cr_assert_eq(c[0].dtype, SS_F32);
    cr_assert_float_eq(c[0].flops, 512.0, 1e-9);
    cr_assert_float_eq(c[0].bytes, 8.0 * 8 * 4 + 8 * 4 * 4 + 8 * 4 * 4, 1e-9);
    cr_assert_eq(c[0].ledger_index, -1);
    cr_assert_eq(c[1].kind, SS_STEP_COLLECTIVE);
    cr_assert_eq(c[1].ledger_index, 0);
    cr_assert_eq(c[1].value, y);
    cr_assert_float_eq(c[1].bytes, 128.0, 1e-9);
    cr_assert_float_eq(c[1].flops, 0.0, 1e-9);
    ss_plan plan;
    OK(ss_executable_plan(e, &plan));
    cr_assert_float_eq(plan.flops, c[0].flops + c[1].flops, 1e-9);
    ss_executable_destroy(e);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* A front end records where each value was built; a ledger entry's value
 * leads to it. Unrecorded values and invalid ones have no position. */
Test(exec_facts, source_positions_are_recorded_per_value)
{
    region r;
    region_build(&r, psum_y);
    int line = -1, col = -1;
    ss_value_source(r.p, r.coll, &line, &col);
    cr_assert(line == 0 && col == 0, "nothing recorded yet: %d:%d", line, col);
    OK(ss_value_set_source(r.p, r.coll, 12, 9));
    ss_ledger_entry le;
    OK(ss_executable_ledger_entry(r.e, 0, &le));
    ss_value_source(r.p, le.value, &line, &col);
    cr_assert(line == 12 && col == 9, "the psum's position: %d:%d", line, col);
    ss_value_source(r.p, 0, &line, &col);
    cr_assert(line == 0 && col == 0, "other values keep none: %d:%d", line, col);
    cr_assert_eq(ss_value_set_source(r.p, 9999, 1, 1), SS_ERR_RANGE);
    cr_assert_eq(ss_value_set_source(r.p, -1, 1, 1), SS_ERR_RANGE);
    ss_value_source(r.p, 9999, &line, &col);
    cr_assert(line == 0 && col == 0);
    region_free(&r);
}
