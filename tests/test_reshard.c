/* test_reshard.c — the resharding planner: the eight reshards of scenario
 * S12 of docs/gspmd.md with their collectives, replica groups and bytes,
 * S1's all-reduce and reduce-scatter, S9's all-to-all, device-order changes
 * between meshes, errors, and a randomized property test (the naive executor
 * turns every plan's source shards into its target shards exactly; no plan
 * all-gathers more than full replication would). */
#include "support.h"

/* Internal on purpose: the resharding planner's steps are checked. */
#include "spmd/reshard.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

/* --- Helpers --- */

static ss_mesh *mesh(const char *text, int n, const int *ids)
{
    ss_mesh *m = NULL;
    cr_assert_eq(ss_mesh_parse(text, n, ids, &m), SS_OK, "%s: %s", text, ss_error_message());
    return m;
}

/* A sharding from a spec text and a comma-separated list of partial axes. */
static ss_sharding sharding(const ss_mesh *m, const char *spec, const char *partial)
{
    ss_spec sp;
    ss_sharding sh;
    cr_assert_eq(ss_spec_parse(spec, &sp), SS_OK, "%s: %s", spec, ss_error_message());
    ss_sharding_init(&sh, m, &sp);
    for (const char *p = partial; p && *p;) {
        char name[64] = {0};
        size_t n = strcspn(p, ",");
        memcpy(name, p, n);
        int a = ss_mesh_axis_index(m, name);
        cr_assert_geq(a, 0, "no axis %s", name);
        sh.partial_mask |= 1u << a;
        p += n + (p[n] == ',');
    }
    return sh;
}

static void make_plan(const ss_sharding *src, const ss_sharding *dst, int rank,
                      const int64_t shape[], ss__reshard_plan *plan)
{
    ss_status st = ss__reshard_plan_make(src, dst, rank, shape, SS_F32, plan);
    cr_assert_eq(st, SS_OK, "plan: %s", ss_error_message());
}

/* Integer-valued global array, so every sum is exact in f32. */
static float *global_of(int rank, const int64_t shape[])
{
    int64_t n = 1;
    for (int d = 0; d < rank; d++)
        n *= shape[d];
    float *g = malloc(sizeof(float) * (size_t)(n ? n : 1));
    cr_assert_not_null(g);
    for (int64_t i = 0; i < n; i++)
        g[i] = (float)((i * 37) % 201 - 100);
    return g;
}

/* Run the plan on the naive executor: the target shards must come out
 * exactly (terms and values are small integers). */
static void execute(const ss__reshard_plan *plan, uint64_t seed)
{
    float *g = global_of(plan->rank, plan->shape);
    double err = -1;
    ss_status st = ss__reshard_sim_run(plan, g, seed, 0.0, &err);
    ss__buf b;
    ss__buf_init(&b);
    ss__reshard_plan_describe(plan, &b);
    cr_assert_eq(st, SS_OK, "executor: %s\nplan:\n%s", ss_error_message(), b.data);
    cr_assert_eq(err, 0.0);
    ss__buf_free(&b);
    free(g);
}

static char *groups_text(const ss__reshard_step *st, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    for (int g = 0; g < st->ngroups; g++) {
        len += (size_t)snprintf(out + len, cap - len, g ? ",{" : "{");
        for (int r = 0; r < st->group_size; r++)
            len += (size_t)snprintf(out + len, cap - len, r ? ",%d" : "%d",
                                    st->groups[g * st->group_size + r]);
        len += (size_t)snprintf(out + len, cap - len, "}");
    }
    return out;
}

static char *axes_text(const ss__reshard_step *st, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    for (int k = 0; k < st->naxes; k++)
        len += (size_t)snprintf(out + len, cap - len, k ? ",%s" : "%s",
                                ss_mesh_axis_name(st->mesh, st->axes[k]));
    return out;
}

/* One collective over axes: kind, axes ("x,y"), groups ("{0,1},{2,3}") and
 * the bytes every device sends. */
static void expect_step(const ss__reshard_step *st, ss__reshard_kind kind, const char *axes,
                        const char *groups, double bytes)
{
    char a[128], g[1024];
    cr_assert_eq(st->kind, kind, "kind %s, expected %s", ss__reshard_kind_name(st->kind),
                 ss__reshard_kind_name(kind));
    cr_assert_str_eq(axes_text(st, a, sizeof a), axes);
    cr_assert_str_eq(groups_text(st, g, sizeof g), groups);
    cr_assert_eq(st->max_sent, bytes, "%s sends %g B, expected %g",
                 ss__reshard_kind_name(kind), st->max_sent, bytes);
    for (int i = 0; i < ss_mesh_device_count(st->mesh); i++)
        cr_assert_eq(st->sent[i], bytes, "device %d sends %g B", i, st->sent[i]);
}

static void expect_line(const ss__reshard_step *st, const char *want)
{
    ss__buf b;
    ss__buf_init(&b);
    ss__reshard_step_describe(st, &b);
    cr_assert_str_eq(b.data, want);
    ss__buf_free(&b);
}

/* --- S12: the reshard gauntlet on ('x'=2, 'y'=2), A f32[8,8] ---
 *
 * Variants: S12.6 is the ideal single all-to-all inside {0,1},{2,3}
 * (32 B/device), not XLA's unverified fallback (all-gather + slice): the
 * rules of 4.3 reach it directly, because y is the minor-most axis of dim 0
 * and exactly what dim 1 wants. S12.8 is the ideal variant: the reshape of an
 * S(1) array reshards to S(0) first with one all-to-all over ('x','y')
 * (48 B/device) and then reshapes locally; the reshape itself belongs to the
 * lowering, so here it is the S(1) -> S(0) reshard plus the check that the
 * S(0) case needs no communication. */

static const int64_t a88[2] = {8, 8};

Test(reshard, s12_1_all_to_all_tuple)
{
    ss_mesh *m = mesh("x=2,y=2", 4, NULL);
    ss_sharding src = sharding(m, "P(('x','y'), None)", "");
    ss_sharding dst = sharding(m, "P(None, ('x','y'))", "");
    ss__reshard_plan plan;
    make_plan(&src, &dst, 2, a88, &plan);
    cr_assert_eq(plan.nsteps, 1);
    expect_step(&plan.steps[0], SS__RESHARD_ALL_TO_ALL, "x,y", "{0,1,2,3}", 48);
    cr_assert_eq(plan.steps[0].dim, 1);
    cr_assert_eq(plan.steps[0].concat_dim, 0);
    expect_line(&plan.steps[0], "all_to_all over ('x','y') split dim 1 concat dim 0, "
                                "groups {0,1,2,3}: 48 B/device");
    execute(&plan, 1);
    ss__reshard_plan_free(&plan);
    ss_mesh_destroy(m);
}

Test(reshard, s12_2_collective_permute)
{
    /* Tiles [2,2] on devices 0,1,2,3 -> 0,2,1,3: P('x','y') -> P('y','x'). */
    ss_mesh *m = mesh("x=2,y=2", 4, NULL);
    ss_sharding src = sharding(m, "P('x','y')", ""), dst = sharding(m, "P('y','x')", "");
    char hlo[128];
    ss_sharding_to_hlo(&dst, 2, hlo, sizeof hlo);
    cr_assert_str_eq(hlo, "{devices=[2,2]<=[2,2]T(1,0)}"); /* tiles on devices 0,2,1,3 */
    ss__reshard_plan plan;
    make_plan(&src, &dst, 2, a88, &plan);
    cr_assert_eq(plan.nsteps, 1);
    const ss__reshard_step *st = &plan.steps[0];
    cr_assert_eq(st->kind, SS__RESHARD_PERMUTE);
    const double want[4] = {0, 64, 64, 0};
    for (int i = 0; i < 4; i++)
        cr_assert_eq(st->sent[i], want[i], "device %d sends %g", i, st->sent[i]);
    cr_assert_eq(st->npairs, 4);
    const int pairs[8] = {0, 0, 2, 1, 1, 2, 3, 3};
    for (int k = 0; k < 8; k++)
        cr_assert_eq(st->pairs[k], pairs[k], "pairs[%d] = %d", k, st->pairs[k]);
    expect_line(st, "collective_permute 2->1, 1->2 (2 self pairs): 64 B/device on 2 of 4 devices");
    execute(&plan, 2);
    ss__reshard_plan_free(&plan);
    ss_mesh_destroy(m);
}

Test(reshard, s12_3_dynamic_slice)
{
    ss_mesh *m = mesh("x=2,y=2", 4, NULL);
    ss_sharding src = sharding(m, "P('x', None)", ""), dst = sharding(m, "P('x','y')", "");
    ss__reshard_plan plan;
    make_plan(&src, &dst, 2, a88, &plan);
    cr_assert_eq(plan.nsteps, 1);
    cr_assert_eq(plan.steps[0].kind, SS__RESHARD_DYNAMIC_SLICE);
    cr_assert_eq(plan.steps[0].max_sent, 0);
    cr_assert_eq(plan.steps[0].dim, 1);
    expect_line(&plan.steps[0], "dynamic_slice over ('y',) dim 1: 0 B (local)");
    execute(&plan, 3);
    ss__reshard_plan_free(&plan);
    ss_mesh_destroy(m);
}

Test(reshard, s12_4_all_gather_partial_replicate)
{
    ss_mesh *m = mesh("x=2,y=2", 4, NULL);
    ss_sharding src = sharding(m, "P('x','y')", ""), dst = sharding(m, "P('x', None)", "");
    ss__reshard_plan plan;
    make_plan(&src, &dst, 2, a88, &plan);
    cr_assert_eq(plan.nsteps, 1);
    expect_step(&plan.steps[0], SS__RESHARD_ALL_GATHER, "y", "{0,1},{2,3}", 64);
    cr_assert_eq(plan.steps[0].dim, 1);
    cr_assert_eq(plan.steps[0].local_after[0], 4);
    cr_assert_eq(plan.steps[0].local_after[1], 8);
    execute(&plan, 4);
    ss__reshard_plan_free(&plan);
    ss_mesh_destroy(m);
}

Test(reshard, s12_5_all_gather_replicated)
{
    ss_mesh *m = mesh("x=2,y=2", 4, NULL);
    ss_sharding src = sharding(m, "P('x','y')", ""), dst = sharding(m, "P()", "");
    ss__reshard_plan plan;
    make_plan(&src, &dst, 2, a88, &plan);
    cr_assert_eq(plan.nsteps, 1);
    expect_step(&plan.steps[0], SS__RESHARD_ALL_GATHER, "x,y", "{0,1,2,3}", 192);
    expect_line(&plan.steps[0],
                "all_gather over ('x','y') dims 0,1, groups {0,1,2,3}: 192 B/device");
    execute(&plan, 5);
    ss__reshard_plan_free(&plan);
    ss_mesh_destroy(m);
}

Test(reshard, s12_6_all_to_all_minor_factor)
{
    ss_mesh *m = mesh("x=2,y=2", 4, NULL);
    ss_sharding src = sharding(m, "P(('x','y'), None)", "");
    ss_sharding dst = sharding(m, "P('x','y')", "");
    ss__reshard_plan plan;
    make_plan(&src, &dst, 2, a88, &plan);
    cr_assert_eq(plan.nsteps, 1);
    expect_step(&plan.steps[0], SS__RESHARD_ALL_TO_ALL, "y", "{0,1},{2,3}", 32);
    cr_assert_eq(plan.steps[0].dim, 1);
    cr_assert_eq(plan.steps[0].concat_dim, 0);
    execute(&plan, 6);
    ss__reshard_plan_free(&plan);
    ss_mesh_destroy(m);
}

Test(reshard, s12_7_reduce_scatter)
{
    ss_mesh *m = mesh("x=2,y=2", 4, NULL);
    ss_sharding src = sharding(m, "P()", "x"), dst = sharding(m, "P('x')", "");
    ss__reshard_plan plan;
    make_plan(&src, &dst, 2, a88, &plan);
    cr_assert_eq(plan.nsteps, 1);
    expect_step(&plan.steps[0], SS__RESHARD_REDUCE_SCATTER, "x", "{0,2},{1,3}", 128);
    cr_assert_eq(plan.steps[0].dim, 0);
    expect_line(&plan.steps[0],
                "reduce_scatter over ('x',) dim 0, groups {0,2},{1,3}: 128 B/device");
    execute(&plan, 7);
    ss__reshard_plan_free(&plan);
    ss_mesh_destroy(m);
}

Test(reshard, s12_8_reshape_reshard)
{
    ss_mesh *m = mesh("x=2,y=2", 4, NULL);
    ss_sharding s0 = sharding(m, "P(('x','y'), None)", "");
    ss_sharding s1 = sharding(m, "P(None, ('x','y'))", "");
    ss__reshard_plan plan;
    make_plan(&s0, &s0, 2, a88, &plan); /* S(0) reshapes in place */
    cr_assert_eq(plan.nsteps, 0);
    ss__reshard_plan_free(&plan);
    make_plan(&s1, &s0, 2, a88, &plan);
    cr_assert_eq(plan.nsteps, 1);
    expect_step(&plan.steps[0], SS__RESHARD_ALL_TO_ALL, "x,y", "{0,1,2,3}", 48);
    cr_assert_eq(plan.steps[0].dim, 0);
    cr_assert_eq(plan.steps[0].concat_dim, 1);
    execute(&plan, 8);
    ss__reshard_plan_free(&plan);
    ss_mesh_destroy(m);
}

/* --- S1 and S9 --- */

Test(reshard, s1_partial_all_reduce_and_reduce_scatter)
{
    ss_mesh *m = mesh("x=4", 4, NULL);
    const int64_t shape[1] = {32};
    ss_sharding src = sharding(m, "P()", "x"), rep = sharding(m, "P()", ""),
                shd = sharding(m, "P('x')", "");
    ss__reshard_plan plan;
    make_plan(&src, &rep, 1, shape, &plan);
    cr_assert_eq(plan.nsteps, 1);
    expect_step(&plan.steps[0], SS__RESHARD_ALL_REDUCE, "x", "{0,1,2,3}", 192);
    expect_line(&plan.steps[0], "all_reduce over ('x',), groups {0,1,2,3}: 192 B/device");
    execute(&plan, 11);
    ss__reshard_plan_free(&plan);
    make_plan(&src, &shd, 1, shape, &plan);
    cr_assert_eq(plan.nsteps, 1);
    expect_step(&plan.steps[0], SS__RESHARD_REDUCE_SCATTER, "x", "{0,1,2,3}", 96);
    execute(&plan, 12);
    ss__reshard_plan_free(&plan);
    ss_mesh_destroy(m);
}

Test(reshard, s9_expert_all_to_all)
{
    /* d:[E=4,G=4,C=8,D=32] f32 = 16 KiB, S(1) -> S(0) on 'e' and back. */
    ss_mesh *m = mesh("e=4", 4, NULL);
    const int64_t shape[4] = {4, 4, 8, 32};
    ss_sharding s1 = sharding(m, "P(None, 'e')", ""), s0 = sharding(m, "P('e')", "");
    ss__reshard_plan plan;
    make_plan(&s1, &s0, 4, shape, &plan);
    cr_assert_eq(plan.nsteps, 1);
    expect_step(&plan.steps[0], SS__RESHARD_ALL_TO_ALL, "e", "{0,1,2,3}", 3072);
    cr_assert_eq(plan.steps[0].dim, 0);
    cr_assert_eq(plan.steps[0].concat_dim, 1);
    execute(&plan, 9);
    ss__reshard_plan_free(&plan);
    make_plan(&s0, &s1, 4, shape, &plan);
    cr_assert_eq(plan.nsteps, 1);
    expect_step(&plan.steps[0], SS__RESHARD_ALL_TO_ALL, "e", "{0,1,2,3}", 3072);
    execute(&plan, 10);
    ss__reshard_plan_free(&plan);
    ss_mesh_destroy(m);
}

/* --- Other rules --- */

Test(reshard, joint_partial_axes_reduce_scatter_then_all_reduce)
{
    /* Partial over x and y; the target wants x on dim 0 and y resolved. */
    ss_mesh *m = mesh("x=2,y=2", 4, NULL);
    ss_sharding src = sharding(m, "P()", "x,y"), dst = sharding(m, "P('x')", "");
    ss__reshard_plan plan;
    make_plan(&src, &dst, 2, a88, &plan);
    cr_assert_eq(plan.nsteps, 2);
    expect_step(&plan.steps[0], SS__RESHARD_REDUCE_SCATTER, "x", "{0,2},{1,3}", 128);
    expect_step(&plan.steps[1], SS__RESHARD_ALL_REDUCE, "y", "{0,1},{2,3}", 128);
    execute(&plan, 13);
    ss__reshard_plan_free(&plan);
    /* Both axes land on dim 0 as a tuple: one reduce-scatter over both. */
    dst = sharding(m, "P(('y','x'))", "");
    make_plan(&src, &dst, 2, a88, &plan);
    cr_assert_eq(plan.nsteps, 1);
    expect_step(&plan.steps[0], SS__RESHARD_REDUCE_SCATTER, "y,x", "{0,2,1,3}", 192);
    execute(&plan, 14);
    ss__reshard_plan_free(&plan);
    ss_mesh_destroy(m);
}

Test(reshard, partial_kept_while_moving)
{
    ss_mesh *m = mesh("x=2,y=2", 4, NULL);
    ss_sharding src = sharding(m, "P('y')", "x"), dst = sharding(m, "P(None,'y')", "x");
    ss__reshard_plan plan;
    make_plan(&src, &dst, 2, a88, &plan);
    cr_assert_eq(plan.nsteps, 1);
    expect_step(&plan.steps[0], SS__RESHARD_ALL_TO_ALL, "y", "{0,1},{2,3}", 64);
    cr_assert_eq(plan.steps[0].after.partial_mask, 1u);
    execute(&plan, 15);
    ss__reshard_plan_free(&plan);
    ss_mesh_destroy(m);
}

Test(reshard, major_axis_removal_regathers_minor)
{
    /* (x,y) on dim 0 -> y on dim 0: x cannot leave while y stays, so both
     * are gathered and y is sliced again. */
    ss_mesh *m = mesh("x=2,y=2", 4, NULL);
    ss_sharding src = sharding(m, "P(('x','y'))", ""), dst = sharding(m, "P('y')", "");
    ss__reshard_plan plan;
    make_plan(&src, &dst, 2, a88, &plan);
    cr_assert_eq(plan.nsteps, 2);
    expect_step(&plan.steps[0], SS__RESHARD_ALL_GATHER, "x,y", "{0,1,2,3}", 192);
    cr_assert_eq(plan.steps[1].kind, SS__RESHARD_DYNAMIC_SLICE);
    execute(&plan, 16);
    ss__reshard_plan_free(&plan);
    ss_mesh_destroy(m);
}

static const int tpu_order[8] = {0, 1, 2, 3, 6, 7, 4, 5};

Test(reshard, device_order_change_is_a_permute)
{
    ss_mesh *iota = mesh("x=4,y=2", 8, NULL), *tpu = mesh("x=4,y=2", 8, tpu_order);
    const int64_t shape[2] = {8, 8};
    ss_sharding src = sharding(iota, "P('x','y')", ""), dst = sharding(tpu, "P('x','y')", "");
    ss__reshard_plan plan;
    make_plan(&src, &dst, 2, shape, &plan);
    cr_assert_eq(plan.nsteps, 1);
    cr_assert_eq(plan.steps[0].kind, SS__RESHARD_PERMUTE);
    cr_assert_eq(plan.steps[0].nsenders, 4);
    cr_assert_eq(plan.steps[0].max_sent, 32); /* one [2,4] f32 block */
    expect_line(&plan.steps[0],
                "collective_permute 4->6, 5->7, 6->4, 7->5 (4 self pairs): 32 B/device on 4 of 8 "
                "devices");
    execute(&plan, 17);
    ss__reshard_plan_free(&plan);
    /* Replicated data needs nothing, whatever the order. */
    src = sharding(iota, "P()", "");
    dst = sharding(tpu, "P()", "");
    make_plan(&src, &dst, 2, shape, &plan);
    cr_assert_eq(plan.nsteps, 0);
    ss__reshard_plan_free(&plan);
    /* A coarser source slices straight into the target order. */
    src = sharding(iota, "P(None, 'y')", "");
    dst = sharding(tpu, "P('x','y')", "");
    make_plan(&src, &dst, 2, shape, &plan);
    cr_assert_eq(plan.nsteps, 1);
    cr_assert_eq(plan.steps[0].kind, SS__RESHARD_DYNAMIC_SLICE);
    execute(&plan, 18);
    ss__reshard_plan_free(&plan);
    /* A slice in the source order, then a permute of the small blocks. */
    src = sharding(iota, "P('x')", "");
    dst = sharding(tpu, "P(('x','y'))", "");
    make_plan(&src, &dst, 2, shape, &plan);
    cr_assert_eq(plan.nsteps, 2);
    cr_assert_eq(plan.steps[0].kind, SS__RESHARD_DYNAMIC_SLICE);
    cr_assert_eq(plan.steps[1].kind, SS__RESHARD_PERMUTE);
    cr_assert_eq(plan.steps[1].max_sent, 32);
    execute(&plan, 19);
    ss__reshard_plan_free(&plan);
    ss_mesh_destroy(iota);
    ss_mesh_destroy(tpu);
}

Test(reshard, other_axis_structure_falls_back_to_replication)
{
    ss_mesh *a = mesh("a=4", 4, NULL), *xy = mesh("x=2,y=2", 4, NULL);
    ss_sharding src = sharding(a, "P('a')", ""), dst = sharding(xy, "P('x','y')", "");
    ss__reshard_plan plan;
    make_plan(&src, &dst, 2, a88, &plan);
    cr_assert_eq(plan.nsteps, 2);
    expect_step(&plan.steps[0], SS__RESHARD_ALL_GATHER, "a", "{0,1,2,3}", 192);
    cr_assert_eq(plan.steps[1].kind, SS__RESHARD_DYNAMIC_SLICE);
    cr_assert_eq(plan.steps[1].naxes, 0);
    execute(&plan, 20);
    ss__reshard_plan_free(&plan);
    /* Same tiling on both: only the devices change. */
    dst = sharding(xy, "P(('y','x'))", "");
    make_plan(&src, &dst, 2, a88, &plan);
    cr_assert_eq(plan.nsteps, 1);
    cr_assert_eq(plan.steps[0].kind, SS__RESHARD_PERMUTE);
    execute(&plan, 21);
    ss__reshard_plan_free(&plan);
    ss_mesh_destroy(a);
    ss_mesh_destroy(xy);
}

Test(reshard, errors)
{
    ss_mesh *m = mesh("x=2,y=2", 4, NULL), *m8 = mesh("x=4,y=2", 8, NULL);
    ss__reshard_plan plan;
    ss_sharding src = sharding(m, "P('x')", ""), dst = sharding(m, "P()", "x");
    cr_assert_eq(ss__reshard_plan_make(&src, &dst, 2, a88, SS_F32, &plan), SS_ERR_UNSUPPORTED);
    cr_assert(strstr(ss_error_message(), "pending sum"), "%s", ss_error_message());
    src = sharding(m, "P('x')", "x");
    dst = sharding(m, "P()", "");
    cr_assert_eq(ss__reshard_plan_make(&src, &dst, 2, a88, SS_F32, &plan), SS_ERR_INVALID);
    src = sharding(m, "P('x')", "");
    dst = sharding(m8, "P('x')", "");
    cr_assert_eq(ss__reshard_plan_make(&src, &dst, 2, a88, SS_F32, &plan), SS_ERR_INVALID);
    dst = sharding(m, "P('z')", "");
    cr_assert_eq(ss__reshard_plan_make(&src, &dst, 2, a88, SS_F32, &plan), SS_ERR_AXIS);
    const int64_t odd[2] = {6, 8};
    dst = sharding(m, "P(('x','y'))", "");
    cr_assert_eq(ss__reshard_plan_make(&src, &dst, 2, odd, SS_F32, &plan), SS_ERR_INDIVISIBLE);
    src.manual_mask = 2u;
    dst = sharding(m, "P('x')", "");
    cr_assert_eq(ss__reshard_plan_make(&src, &dst, 2, a88, SS_F32, &plan), SS_ERR_UNSUPPORTED);
    cr_assert_eq(plan.nsteps, 0);
    ss_mesh_destroy(m);
    ss_mesh_destroy(m8);
}

Test(reshard, manual_axes_stay_within_program_instances)
{
    /* Inside a shard_map over 'z', data never crosses z coordinates. */
    ss_mesh *m = mesh("z=2,x=2,y=2", 8, NULL);
    ss_sharding src = sharding(m, "P('x')", ""), dst = sharding(m, "P('y')", "");
    src.manual_mask = dst.manual_mask = 1u;
    ss__reshard_plan plan;
    make_plan(&src, &dst, 2, a88, &plan);
    cr_assert_eq(plan.nsteps, 1);
    const ss__reshard_step *st = &plan.steps[0];
    cr_assert_eq(st->kind, SS__RESHARD_PERMUTE);
    for (int k = 0; k < st->npairs; k++)
        cr_assert_eq(st->pairs[2 * k] / 4, st->pairs[2 * k + 1] / 4, "pair %d->%d crosses z",
                     st->pairs[2 * k], st->pairs[2 * k + 1]);
    execute(&plan, 40);
    ss__reshard_plan_free(&plan);
    src = sharding(m, "P('x','y')", "");
    dst = sharding(m, "P()", "");
    src.manual_mask = dst.manual_mask = 1u;
    make_plan(&src, &dst, 2, a88, &plan);
    cr_assert_eq(plan.nsteps, 1);
    expect_step(&plan.steps[0], SS__RESHARD_ALL_GATHER, "x,y", "{0,1,2,3},{4,5,6,7}", 192);
    execute(&plan, 41);
    ss__reshard_plan_free(&plan);
    ss_mesh_destroy(m);
}

Test(reshard, edge_cases)
{
    ss__reshard_plan plan;
    /* A partial scalar: one all-reduce of 4 bytes. */
    ss_mesh *m = mesh("x=4", 4, NULL);
    ss_sharding src = sharding(m, "P()", "x"), dst = sharding(m, "P()", "");
    make_plan(&src, &dst, 0, NULL, &plan);
    cr_assert_eq(plan.nsteps, 1);
    expect_step(&plan.steps[0], SS__RESHARD_ALL_REDUCE, "x", "{0,1,2,3}", 6);
    execute(&plan, 30);
    ss__reshard_plan_free(&plan);
    /* A zero-size dimension moves nothing but still plans. */
    const int64_t empty[2] = {0, 8};
    src = sharding(m, "P('x')", "");
    dst = sharding(m, "P(None, 'x')", "");
    make_plan(&src, &dst, 2, empty, &plan);
    cr_assert_eq(plan.nsteps, 1);
    cr_assert_eq(plan.steps[0].max_sent, 0);
    execute(&plan, 31);
    ss__reshard_plan_free(&plan);
    ss_mesh_destroy(m);
    /* Axes of size 1 split nothing: no step. */
    m = mesh("x=1,y=4", 4, NULL);
    src = sharding(m, "P(('x','y'))", "");
    dst = sharding(m, "P('y', 'x')", "");
    make_plan(&src, &dst, 2, a88, &plan);
    cr_assert_eq(plan.nsteps, 0);
    ss__reshard_plan_free(&plan);
    src = sharding(m, "P('y')", "x"); /* a sum of one term is complete */
    dst = sharding(m, "P('y')", "");
    make_plan(&src, &dst, 2, a88, &plan);
    cr_assert_eq(plan.nsteps, 0);
    ss__reshard_plan_free(&plan);
    /* Bytes follow the dtype: bf16 halves them. */
    src = sharding(m, "P('y')", "");
    dst = sharding(m, "P()", "");
    cr_assert_eq(ss__reshard_plan_make(&src, &dst, 2, a88, SS_BF16, &plan), SS_OK);
    expect_step(&plan.steps[0], SS__RESHARD_ALL_GATHER, "y", "{0,1,2,3}", 96);
    ss__reshard_plan_free(&plan);
    ss_mesh_destroy(m);
}

Test(reshard, explain_plan)
{
    ss_mesh *m = mesh("x=2,y=2", 4, NULL);
    ss_sharding src = sharding(m, "P()", "x,y"), dst = sharding(m, "P('x')", "");
    ss__reshard_plan plan;
    make_plan(&src, &dst, 2, a88, &plan);
    ss__buf b;
    ss__buf_init(&b);
    ss__reshard_plan_describe(&plan, &b);
    cr_assert_str_eq(b.data,
                     "1. reduce_scatter over ('x',) dim 0, groups {0,2},{1,3}: 128 B/device\n"
                     "   -> P('x', None) partial ('y'), local (4, 8)\n"
                     "2. all_reduce over ('y',), groups {0,1},{2,3}: 128 B/device\n"
                     "   -> P('x',), local (4, 8)\n");
    ss__buf_free(&b);
    cr_assert_eq(ss__reshard_plan_sent(&plan, 0), 256);
    ss__reshard_plan_free(&plan);
    ss_mesh_destroy(m);
}

/* --- Randomized property test --- */

static unsigned rng = 2024u;

static unsigned rnd(unsigned n)
{
    rng = rng * 1103515245u + 12345u;
    return (rng >> 8) % n;
}

/* A random layout over `m`: each axis (in random order) tiles a random dim
 * if it divides, goes partial (when `partial_ok` allows that axis), or stays
 * unused. */
static ss_sharding random_sharding(const ss_mesh *m, int rank, const int64_t shape[],
                                   unsigned partial_ok)
{
    ss_sharding sh;
    ss_sharding_init(&sh, m, NULL);
    sh.spec.ndims = rank;
    int na = ss_mesh_axis_count(m), order[SS_MAX_AXES];
    int64_t tiles[SS_MAX_RANK];
    for (int d = 0; d < rank; d++)
        tiles[d] = 1;
    for (int a = 0; a < na; a++)
        order[a] = a;
    for (int a = na - 1; a > 0; a--) {
        int j = (int)rnd((unsigned)a + 1), t = order[a];
        order[a] = order[j];
        order[j] = t;
    }
    for (int i = 0; i < na; i++) {
        int a = order[i];
        unsigned r = rnd((unsigned)rank + 2);
        int64_t size = ss_mesh_axis_size(m, a);
        if (r < (unsigned)rank && shape[r] % (tiles[r] * size) == 0) {
            ss_spec_dim *sd = &sh.spec.dims[r];
            sd->axes[sd->naxes++] = ss_mesh_axis_name(m, a);
            tiles[r] *= size;
        } else if (r == (unsigned)rank && ((partial_ok >> a) & 1u)) {
            sh.partial_mask |= 1u << a;
        }
    }
    return sh;
}

/* The target may stay partial only over axes the source is partial over. */
static unsigned partial_names(const ss_sharding *src, const ss_mesh *dm)
{
    unsigned ok = 0;
    for (int a = 0; a < ss_mesh_axis_count(src->mesh); a++) {
        if (!((src->partial_mask >> a) & 1u))
            continue;
        int b = ss_mesh_axis_index(dm, ss_mesh_axis_name(src->mesh, a));
        if (b >= 0 && ss_mesh_axis_size(dm, b) == ss_mesh_axis_size(src->mesh, a))
            ok |= 1u << b;
    }
    return ok;
}

static bool same_axes(const ss_mesh *a, const ss_mesh *b)
{
    if (ss_mesh_axis_count(a) != ss_mesh_axis_count(b))
        return false;
    for (int i = 0; i < ss_mesh_axis_count(a); i++)
        if (strcmp(ss_mesh_axis_name(a, i), ss_mesh_axis_name(b, i)) ||
            ss_mesh_axis_size(a, i) != ss_mesh_axis_size(b, i))
            return false;
    return true;
}

static void property_run(ss_mesh *const meshes[], int nmeshes, int iterations)
{
    static const int64_t sizes[4] = {2, 4, 8, 16};
    int kinds[SS__RESHARD_KIND_COUNT] = {0};
    for (int it = 0; it < iterations; it++) {
        const ss_mesh *sm = meshes[rnd((unsigned)nmeshes)];
        const ss_mesh *dm = rnd(3) ? sm : meshes[rnd((unsigned)nmeshes)];
        int rank = 1 + (int)rnd(3);
        int64_t shape[SS_MAX_RANK];
        for (int d = 0; d < rank; d++)
            shape[d] = sizes[rnd(4)];
        ss_sharding src = random_sharding(sm, rank, shape, ~0u);
        unsigned keep = same_axes(sm, dm) ? partial_names(&src, dm) : 0;
        ss_sharding dst = random_sharding(dm, rank, shape, keep);
        ss__reshard_plan plan;
        ss_status st = ss__reshard_plan_make(&src, &dst, rank, shape, SS_F32, &plan);
        char s1[256], s2[256];
        ss_spec_repr(&src.spec, s1, sizeof s1);
        ss_spec_repr(&dst.spec, s2, sizeof s2);
        cr_assert_eq(st, SS_OK, "iteration %d: %s partial %x -> %s partial %x: %s", it, s1,
                     src.partial_mask, s2, dst.partial_mask, ss_error_message());
        /* Steps chain: each starts where the previous one ended. */
        for (int i = 0; i < plan.nsteps; i++) {
            const ss__reshard_step *step = &plan.steps[i];
            kinds[step->kind]++;
            cr_assert(step->kind == SS__RESHARD_DYNAMIC_SLICE ||
                          step->kind == SS__RESHARD_PERMUTE || step->group_size > 1,
                      "iteration %d step %d: group of one", it, i);
            for (int d = 0; d < rank && i > 0; d++)
                cr_assert_eq(step->local_before[d], plan.steps[i - 1].local_after[d]);
        }
        /* Never more gathering than replicating the source outright. */
        int64_t local[SS_MAX_RANK], full = 4, part = 4;
        ss_sharding_shard_shape(&src, rank, shape, local);
        for (int d = 0; d < rank; d++) {
            full *= shape[d];
            part *= local[d];
        }
        cr_assert_leq(ss__reshard_plan_gathered(&plan), (double)(full - part),
                      "iteration %d: %s -> %s gathers %g B > %lld", it, s1, s2,
                      ss__reshard_plan_gathered(&plan), (long long)(full - part));
        float *g = global_of(rank, shape);
        double err = -1;
        st = ss__reshard_sim_run(&plan, g, (uint64_t)it, 0.0, &err);
        ss__buf b;
        ss__buf_init(&b);
        ss__reshard_plan_describe(&plan, &b);
        cr_assert_eq(st, SS_OK, "iteration %d: %s partial %x -> %s partial %x: %s\n%s", it, s1,
                     src.partial_mask, s2, dst.partial_mask, ss_error_message(), b.data);
        ss__buf_free(&b);
        free(g);
        ss__reshard_plan_free(&plan);
    }
    for (int k = 0; k < SS__RESHARD_KIND_COUNT; k++)
        cr_assert_gt(kinds[k], 0, "no %s in %d random plans",
                     ss__reshard_kind_name((ss__reshard_kind)k), iterations);
}

Test(reshard, property_eight_devices, .timeout = 120)
{
    ss_mesh *meshes[5] = {
        mesh("x=4,y=2", 8, NULL),     mesh("x=4,y=2", 8, tpu_order),
        mesh("x=2,y=2,z=2", 8, NULL), mesh("x=2,y=2,z=2", 8, tpu_order),
        mesh("y=2,x=4", 8, NULL),
    };
    property_run(meshes, 5, 3000);
    for (int i = 0; i < 5; i++)
        ss_mesh_destroy(meshes[i]);
}

Test(reshard, property_four_devices, .timeout = 120)
{
    static const int swapped[4] = {0, 2, 1, 3};
    ss_mesh *meshes[4] = {
        mesh("x=2,y=2", 4, NULL), mesh("x=2,y=2", 4, swapped), mesh("a=4", 4, NULL),
        mesh("x=4", 4, NULL),
    };
    property_run(meshes, 4, 2000);
    for (int i = 0; i < 4; i++)
        ss_mesh_destroy(meshes[i]);
}
