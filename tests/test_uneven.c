/*
 * test_uneven.c — uneven shards (a dim its mesh axes do not divide), checked
 * against the pinned JAX 0.10.2 (tests/data/jax_uneven, written by
 * tests/jax/make_uneven_fixtures.py):
 *
 *   - where JAX refuses (Sharding.shard_shape, devices_indices_map,
 *     jax.jit's in_shardings, visualize_sharding), shardsim refuses with
 *     JAX's exact message: the library call, program inputs and
 *     `shardsim show` (one stderr line, exit 2);
 *   - where JAX accepts (with_sharding_constraint on an intermediate), the
 *     jitted programs JAX lowered run on shardsim's 4x2 mesh: every result
 *     equals JAX's and the single-device run's, and the collectives equal
 *     those in XLA's compiled text (padded bytes: an all-gather of blocks
 *     ceil(n / k) long), for both the Shardy and the GSPMD lowering;
 *   - plan counts each padded block whole, as XLA allocates it;
 *   - ops that cannot compute on padded blocks (reshape, slice,
 *     concatenate, pad, dynamic_slice, dynamic_update_slice) gather their
 *     uneven operands first and slice their result back locally; an
 *     embedding table with an uneven vocab is looked up (masked, summed)
 *     and trained (scatter-add into its padded blocks) in place; a loop
 *     carries an uneven value in its padded blocks; a mean masks first;
 *   - a .shard scenario with uneven constraints (elementwise, sum, max, dot
 *     over the uneven dim, reshards in and out) equals its single-device run.
 */
#include "jax_check.h"
#include "plan_run.h"

#include <unistd.h>

/* --- Refusals --------------------------------------------------------------- */

static const char *jax_message(const cJSON *c, const char *api)
{
    const cJSON *a = cJSON_GetObjectItem(c, api);
    cr_assert(a, "refusals.json: no %s", api);
    cr_assert_str_eq(cJSON_GetObjectItem(a, "class")->valuestring, "IndivisibleError", "%s", api);
    return cJSON_GetObjectItem(a, "message")->valuestring;
}

/* The spec's text as `show --spec` reads it: P('x', None, ('x', 'y')). */
static void spec_text(const cJSON *spec, char *out, size_t cap)
{
    size_t len = (size_t)snprintf(out, cap, "P(");
    const cJSON *e;
    int k = 0;
    cJSON_ArrayForEach(e, spec) {
        len += (size_t)snprintf(out + len, cap - len, "%s", k++ ? ", " : "");
        if (cJSON_IsString(e)) {
            len += (size_t)snprintf(out + len, cap - len, "'%s'", e->valuestring);
        } else if (cJSON_IsArray(e)) {
            const cJSON *a;
            int j = 0;
            len += (size_t)snprintf(out + len, cap - len, "(");
            cJSON_ArrayForEach(a, e)
                len += (size_t)snprintf(out + len, cap - len, "%s'%s'", j++ ? ", " : "",
                                        a->valuestring);
            len += (size_t)snprintf(out + len, cap - len, ")");
        } else {
            len += (size_t)snprintf(out + len, cap - len, "None");
        }
    }
    snprintf(out + len, cap - len, ")");
}

Test(uneven, library_refuses_with_jax_words)
{
    cJSON *j = ts_load_json("jax_uneven/refusals.json");
    ss_mesh *m = ts_make_mesh("x=4,y=2", 8);
    const cJSON *c;
    int n = 0;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "cases")) {
        int64_t shape[SS_MAX_RANK];
        int rank = ts_ints(cJSON_GetObjectItem(c, "shape"), shape, SS_MAX_RANK);
        ss_sharding sh;
        ss_spec spec;
        ts_spec_from_json(cJSON_GetObjectItem(c, "spec"), &spec);
        ss_sharding_init(&sh, m, &spec);
        int64_t out[SS_MAX_RANK];
        cr_assert_eq(ss_sharding_shard_shape(&sh, rank, shape, out), SS_ERR_INDIVISIBLE);
        cr_assert_str_eq(ss_error_message(), jax_message(c, "shard_shape"));
        ss_shard shards[8];
        cr_assert_eq(ss_sharding_shards(&sh, rank, shape, SS_F32, shards, 8), SS_ERR_INDIVISIBLE);
        cr_assert_str_eq(ss_error_message(), jax_message(c, "devices_indices_map"));
        /* A program input is jit's in_shardings. */
        ss_program *p;
        TS_OK(ss_program_create(m, &p));
        ss_value v;
        cr_assert_eq(ss_input(p, "a", SS_F32, rank, shape, &spec, &v), SS_ERR_INDIVISIBLE);
        cr_assert_str_eq(ss_error_message(), jax_message(c, "jit_in_shardings"));
        ss_program_destroy(p);
        n++;
    }
    cr_assert_eq(n, 4);
    ss_mesh_destroy(m);
    cJSON_Delete(j);
}

Test(uneven, show_refuses_as_visualize_sharding_does)
{
    cJSON *j = ts_load_json("jax_uneven/refusals.json");
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "cases")) {
        char spec[256], shape[128] = "", args[512], want[2048];
        spec_text(cJSON_GetObjectItem(c, "spec"), spec, sizeof spec);
        const cJSON *d;
        size_t len = 0;
        cJSON_ArrayForEach(d, cJSON_GetObjectItem(c, "shape"))
            len += (size_t)snprintf(shape + len, sizeof shape - len, "%s%d", len ? "," : "",
                                    d->valueint);
        snprintf(args, sizeof args, "show --mesh x=4,y=2 --shape %s --spec \"%s\"", shape, spec);
        char *out, *err;
        int rc = ts_run_cli(args, &out, &err);
        cr_assert_eq(rc, 2, "%s: %s", args, err);
        cr_assert_str_eq(out, "");
        snprintf(want, sizeof want, "shardsim show: %s\n", jax_message(c, "visualize_sharding"));
        cr_assert_str_eq(err, want, "%s", args);
        free(out);
        free(err);
    }
    cJSON_Delete(j);
}

/* --- JAX's programs ---------------------------------------------------------- */

/* Where shardsim's collectives differ from XLA's, and why: {program,
 * shardsim's records, XLA's records}.
 *   u_reshard: the add between the constraints P('x') and P(None, 'y')
 *   gets P('x', 'y') from shardsim's propagation (the two merged) and
 *   P('x', None) from Shardy's, so shardsim gathers blocks half as wide.
 *   The same happens with 8 rows, which divide (not a padding matter).
 *   u_dynamic (both lowerings): XLA gives dynamic_update_slice's result
 *   its operand's uneven P('x'), computes it from the gathered operand,
 *   slices it locally and gathers it again for the output; shardsim's
 *   propagation leaves the updated dim unsplit (as for even shards), so
 *   the one all-gather of the operand serves both ops.
 *   u_reshape (Shardy only; GSPMD's text is matched): Shardy moves the
 *   merged reshape [6,4] -> [24] with a halo exchange and all-gathers
 *   over 'x' and 'y' apart; shardsim gathers the operand's padded blocks
 *   once (the reshape cannot compute on them) and reuses them.
 *   u_slice_concat_pad (both): XLA slices and pads the padded blocks in
 *   place with halo exchanges (collective-permutes) and gathers each
 *   result; shardsim gathers the operand once, computes the three ops on
 *   whole rows and returns them replicated. */
static const char *const known_differences[][3] = {
    {"u_reshard", "AG {0,2,4,6}{1,3,5,7} 16->64; AR {0,1}{2,3}{4,5}{6,7} 28->28; ",
     "AG {0,2,4,6}{1,3,5,7} 32->128; AR {0,1}{2,3}{4,5}{6,7} 28->28; "},
    {"u_dynamic", "AG {0,2,4,6}{1,3,5,7} 24->96; ",
     "AG {0,2,4,6}{1,3,5,7} 24->96; AG {0,2,4,6}{1,3,5,7} 24->96; "},
    {"u_reshape", "AG {0,2,4,6}{1,3,5,7} 32->128; AG {0,2,4,6}{1,3,5,7} 32->128; ",
     "AG {0,2,4,6}{1,3,5,7} 32->128; AG {0,2}{1,3}{4,6}{5,7} 32->64; "
     "AG {0,4}{1,5}{2,6}{3,7} 48->96; CP (2,4)(3,5)(4,6)(5,7) 16->16; "},
    {"u_slice_concat_pad", "AG {0,2,4,6}{1,3,5,7} 24->96; ",
     "AG {0,2,4,6}{1,3,5,7} 12->48; AG {0,2,4,6}{1,3,5,7} 24->96; "
     "AG {0,2,4,6}{1,3,5,7} 24->96; AG {0,2,4,6}{1,3,5,7} 48->192; "
     "CP (0,2)(1,3)(2,4)(3,5)(4,6)(5,7) 24->24; CP (2,0)(3,1)(4,2)(5,3)(6,4)(7,5) 24->24; "},
};

static void run_fixture(const char *prog, bool gspmd)
{
    jax_fixture f;
    jax_fixture_run("jax_uneven", prog, gspmd, &f);
    /* The collectives XLA compiled, buffer for buffer (groups and bytes). */
    recs ours = {0}, xla = {0};
    jax_fixture_records(&f, &ours, &xla);
    qsort(ours.s, (size_t)ours.n, sizeof *ours.s, cmp_str);
    qsort(xla.s, (size_t)xla.n, sizeof *xla.s, cmp_str);
    char o[4096] = "", x[4096] = "";
    for (int i = 0; i < ours.n; i++)
        snprintf(o + strlen(o), sizeof o - strlen(o), "%s; ", ours.s[i]);
    for (int i = 0; i < xla.n; i++)
        snprintf(x + strlen(x), sizeof x - strlen(x), "%s; ", xla.s[i]);
    const char *want = x;
    for (size_t k = 0; k < sizeof known_differences / sizeof *known_differences; k++)
        if (strcmp(known_differences[k][0], prog) == 0 && strcmp(x, known_differences[k][2]) == 0)
            want = known_differences[k][1];
    cr_expect_str_eq(o, want, "%s: collectives: shardsim %s, XLA %s", prog, o, x);
    free_recs(&ours);
    free_recs(&xla);
    jax_fixture_free(&f);
}

#define FIXTURE(prog)                                                   \
    Test(uneven, prog##_shardy) { run_fixture(#prog, false); }        \
    Test(uneven, prog##_gspmd) { run_fixture(#prog, true); }

FIXTURE(u_elementwise)
FIXTURE(u_sum)
FIXTURE(u_max)
FIXTURE(u_dot_contract)
FIXTURE(u_dot_free)
FIXTURE(u_reshard)
FIXTURE(u_transpose)
FIXTURE(u_mean)
FIXTURE(u_while)
FIXTURE(u_embed)
FIXTURE(u_dynamic)
FIXTURE(u_reshape)
FIXTURE(u_slice_concat_pad)
FIXTURE(u_case)

/* --- Through the public API ------------------------------------------------------ */

/* a f32[6, 3] replicated; u = constrain(exp(a), P('x')) (rows 2, 2, 2, 0);
 * outputs u, sum(u, 0), max(u - 10, 0) and u^T @ u (contracting over the
 * uneven rows). Every output equals ss_program_eval's, and each device's
 * measured peak equals the plan's: every device holds the padded block,
 * device 3's only padding, as XLA allocates it. */
Test(uneven, api_run_equals_eval_and_plan)
{
    ss_mesh *m = ts_make_mesh("x=4,y=2", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value a = ts_input(p, "a", "P()", 2, 6, 3), e, u, s, t, mx, ut, d;
    ss_spec x = ts_spec("P('x')");
    TS_OK(ss_unary(p, SS_EXP, a, &e));
    TS_OK(ss_constrain(p, e, &x, &u));
    TS_OK(ss_reduce(p, SS_REDUCE_SUM, u, 1, (const int[]){0}, false, &s));
    ss_value ten;
    TS_OK(ss_constant(p, 10.0, &ten));
    TS_OK(ss_binary(p, SS_SUB, u, ten, &t));
    TS_OK(ss_reduce(p, SS_REDUCE_MAX, t, 1, (const int[]){0}, false, &mx));
    TS_OK(ss_transpose(p, u, (const int[]){1, 0}, &ut));
    TS_OK(ss_matmul(p, ut, u, &d));
    ss_value outs[] = {u, s, mx, d};
    for (int k = 0; k < 4; k++)
        TS_OK(ss_output(p, outs[k], NULL));
    ss_executable *ex;
    TS_OK(ss_program_compile(p, &ex));
    float in[18], got[4][18], ref[4][18];
    for (int k = 0; k < 18; k++)
        in[k] = (float)((k * 7) % 11) / 5.0f - 1.0f;
    const void *ins[] = {in};
    void *gots[] = {got[0], got[1], got[2], got[3]}, *refs[] = {ref[0], ref[1], ref[2], ref[3]};
    TS_OK(ss_program_eval(p, ins, refs));
    ss_context_options o = {.ndevices = 8, .device_memory = 1 << 20};
    ss_context *ctx;
    TS_OK(ss_context_create(&o, &ctx));
    TS_OK(ss_executable_run(ex, ctx, ins, gots));
    const int n[] = {18, 3, 3, 9};
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < n[k]; i++)
            cr_assert(fabsf(got[k][i] - ref[k][i]) <= 1e-5f * (1 + fabsf(ref[k][i])),
                      "output %d [%d]: run %.9g, eval %.9g", k, i, got[k][i], ref[k][i]);
    pr_plan_is_run(ex, ctx);
    ss_context_destroy(ctx);
    ss_executable_destroy(ex);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* GPT-2's vocab, 50257 rows, constrained to P('x', None) on 8 devices:
 * blocks of ceil(50257 / 8) = 6283 rows, device 7 holding 6276 and 7 rows
 * of padding. A lookup of ids at every block's edges (and the last row)
 * and a scatter-add of updates into the table (the embedding gradient's
 * shape) equal ss_program_eval's, bitwise; the collectives are those of
 * XLA's compiled text of u_embed at this size: one all-reduce of the
 * looked-up rows and one all-gather of the updated table's padded blocks
 * (8 x 6283 rows) for the replicated result, nothing gathered before. */
Test(uneven, gpt2_vocab_embedding_looked_up_and_updated_in_place)
{
    enum { V = 50257, E = 4, N = 12 };
    ss_mesh *m = ts_make_mesh("x=8", 8);
    ss_program *p;
    TS_OK(ss_program_create(m, &p));
    ss_value t = ts_input(p, "table", "P()", 2, V, E), u = ts_input(p, "u", "P()", 2, N, E);
    ss_value ids, tc, y, t2;
    ss_spec none = ts_spec("P()"), x = ts_spec("P('x', None)");
    TS_OK(ss_input(p, "ids", SS_I32, 2, (int64_t[]){N, 1}, &none, &ids));
    TS_OK(ss_constrain(p, t, &x, &tc));
    ss_gather_dims g = {.n_offset = 1, .offset_dims = {1}, .n_collapsed = 1,
                        .collapsed_slice_dims = {0}, .n_index_map = 1, .start_index_map = {0},
                        .index_vector_dim = 1, .slice_sizes = {1, E}};
    TS_OK(ss_gather(p, tc, ids, &g, &y));
    TS_OK(ss_scatter(p, tc, ids, u, SS_SCATTER_ADD, &g, &t2));
    TS_OK(ss_output(p, y, NULL));
    TS_OK(ss_output(p, t2, NULL));
    float *table = malloc(sizeof *table * V * E), uv[N * E];
    for (int i = 0; i < V * E; i++)
        table[i] = (float)((i * 7) % 101) / 16.0f - 3.0f;
    for (int i = 0; i < N * E; i++)
        uv[i] = (float)((i * 5) % 13) - 6.0f;
    int32_t idv[N] = {0, 6282, 6283, 12565, 43981, 43980, 43981, 50256, 50255, 31415, 7, 50256};
    const void *ins[] = {table, uv, idv};
    float want_y[N * E], got_y[N * E];
    float *want_t = malloc(sizeof *want_t * V * E), *got_t = malloc(sizeof *got_t * V * E);
    TS_OK(ss_program_eval(p, ins, (void *const[]){want_y, want_t}));
    ss_executable *ex;
    TS_OK(ss_program_compile(p, &ex));
    ss_context_options co = {.ndevices = 8, .device_memory = (size_t)64 << 20, .timeout = 60};
    ss_context *ctx;
    TS_OK(ss_context_create(&co, &ctx));
    TS_OK(ss_executable_run(ex, ctx, ins, (void *const[]){got_y, got_t}));
    cr_assert_eq(memcmp(got_y, want_y, sizeof got_y), 0, "the lookup differs from eval");
    cr_assert_eq(memcmp(got_t, want_t, sizeof *got_t * V * E), 0, "the table differs from eval");
    int nar = 0, nag = 0;
    for (int i = 0; i < ss_executable_ledger_count(ex); i++) {
        ss_coll_record r;
        TS_OK(ss_executable_ledger_get(ex, i, &r));
        if (r.kind == SS_COLL_ALL_REDUCE) {
            nar++;
            cr_assert_eq(r.bytes, (size_t)N * E * 4, "all-reduce of %zu bytes", r.bytes);
        } else if (r.kind == SS_COLL_ALL_GATHER) {
            nag++;
            cr_assert_eq(r.bytes, (size_t)8 * 6283 * E * 4, "all-gather of %zu bytes", r.bytes);
        } else {
            cr_assert_fail("a collective of kind %d", (int)r.kind);
        }
    }
    cr_assert_eq(nar, 1, "%d all-reduces", nar);
    cr_assert_eq(nag, 1, "%d all-gathers", nag);
    ss_context_destroy(ctx);
    ss_executable_destroy(ex);
    free(table), free(want_t), free(got_t);
    ss_program_destroy(p);
    ss_mesh_destroy(m);
}

/* tests/data/uneven/uneven.shard: every result equals the single-device run. */
Test(uneven, scenario_equals_single_device_run)
{
    const char *data = getenv("SS_TEST_DATA");
    cr_assert(data, "SS_TEST_DATA is not set");
    char path[1024];
    snprintf(path, sizeof path, "%s/uneven/uneven.shard", data);
    ss_scenario_options opts = {0};
    ss_scenario *sc = NULL;
    ss_scenario_error err;
    cr_assert_eq(ss_scenario_load(path, &opts, &sc, &err), SS_OK, "%s:%d:%d: %s", path, err.line,
                 err.col, err.message);
    cr_assert_eq(ss_scenario_run(sc, &err), SS_OK, "%s: %s", path, err.message);
    cr_assert(ss_scenario_checks_passed(sc), "%s: a result differs from the single-device run",
              path);
    ss_scenario_free(sc);
}
