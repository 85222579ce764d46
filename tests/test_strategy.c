/* test_strategy.c — sharding strategies (shardsim.h, "Strategies").
 *
 * The seed utility's tactics on constructed parameter lists, with every
 * expectation derived by reading the seed's code (docs/README.md, "the
 * seed") and stated beside it: fsdp's threshold (`bytes <= min_size_mb * 2**20` stays
 * as it is), its choice of dimension (`np.argsort(shape)[::-1]`, the first
 * None and divisible one), tuple axes (`np.prod` of their sizes), the
 * replicate conflict, first-match-wins ordering; then logical names, the
 * text format, optimizer state and EMA, the transformer scenario under four
 * strategies with per-device bytes computed by hand, and the report's totals
 * against the plan. Resharding live arrays and the checkpoint round trip
 * are in test_strategy_reshard.c. */
#include "support.h"

#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* --- Helpers ------------------------------------------------------------------ */

#if defined(__GNUC__)
#define SS__TEST_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define SS__TEST_PRINTF(a, b)
#endif

static ss_mesh *mesh(const char *text)
{
    ss_mesh *m;
    int n = 1;
    for (const char *p = strchr(text, '='); p; p = strchr(p + 1, '='))
        n *= atoi(p + 1);
    cr_assert_eq(ss_mesh_parse(text, n, NULL, &m), SS_OK, "%s", ss_error_message());
    return m;
}

static ss_strategy *strategy(const char *text)
{
    ss_strategy *s;
    cr_assert_eq(ss_strategy_parse(text, 1, &s, NULL, NULL), SS_OK, "%s", ss_error_message());
    return s;
}

static ss_param_info param(const char *path, ss_dtype dt, int rank, const int64_t *shape)
{
    ss_param_info p;
    memset(&p, 0, sizeof p);
    p.path = path;
    p.dtype = dt;
    p.rank = rank;
    memcpy(p.shape, shape, sizeof(int64_t) * (size_t)rank);
    return p;
}

#define PARAM(path, dt, ...)                                                                  \
    param(path, dt, (int)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)),                \
          (int64_t[]){__VA_ARGS__})

static void expect_spec(const ss_param_sharding *o, const char *want)
{
    char got[256];
    ss_spec_repr(&o->spec, got, sizeof got);
    cr_assert_str_eq(got, want);
}

/* One param under a one-rule strategy; returns the status. */
static ss_status apply_one(const char *rules, const char *mesh_text, ss_param_info p,
                           ss_param_sharding *out)
{
    ss_mesh *m = mesh(mesh_text);
    ss_strategy *s = strategy(rules);
    ss_status st = ss_strategy_apply(s, m, 1, &p, out);
    ss_strategy_destroy(s);
    ss_mesh_destroy(m);
    return st;
}

static void expect_one(const char *rules, const char *mesh_text, ss_param_info p,
                       const char *want, ss_strategy_reason why, size_t bytes)
{
    ss_param_sharding o;
    cr_assert_eq(apply_one(rules, mesh_text, p, &o), SS_OK, "%s", ss_error_message());
    expect_spec(&o, want);
    cr_assert_eq(o.reason, why, "%s: reason %d, wanted %d", p.path, o.reason, why);
    cr_assert_eq(o.bytes_per_device, bytes, "%s: %zu bytes per device, wanted %zu", p.path,
                 o.bytes_per_device, bytes);
}

static void expect_error(const char *rules, const char *mesh_text, ss_param_info p,
                         ss_status want, const char *substring)
{
    ss_param_sharding o;
    ss_status st = apply_one(rules, mesh_text, p, &o);
    cr_assert_eq(st, want, "status %s, wanted %s (%s)", ss_status_name(st), ss_status_name(want),
                 ss_error_message());
    cr_assert(strstr(ss_error_message(), substring), "message '%s' lacks '%s'",
              ss_error_message(), substring);
}

/* --- fsdp: the seed's rules ----------------------------------------------------- */

Test(strategy, fsdp_threshold_is_inclusive)
{
    /* Seed: `if arr.size * arr.dtype.itemsize <= min_size_to_shard_mb * (2 ** 20):
     * return cur_spec`. f32[1024,1024] is exactly 4 MiB: left alone. */
    expect_one("'.*' fsdp(data)", "data=8", PARAM("w", SS_F32, 1024, 1024), "P(None, None)",
               SS_REASON_SMALL, 4u << 20);
    /* bf16 halves the bytes: bf16[1024,2048] is 4 MiB too. */
    expect_one("'.*' fsdp(data)", "data=8", PARAM("w", SS_BF16, 1024, 2048), "P(None, None)",
               SS_REASON_SMALL, 4u << 20);
    /* One more column (1040 = 8 x 130) passes 4 MiB: the largest dim, 1040, is split. */
    expect_one("'.*' fsdp(data)", "data=8", PARAM("w", SS_F32, 1024, 1040), "P(None, 'data')",
               SS_REASON_SHARDED, 1024u * 130 * 4);
    /* min_size_mb is taken as written: 0.5 MiB = f32[256,512] stays, [264,512] is split. */
    expect_one("'.*' fsdp(data, min_size_mb=0.5)", "data=8", PARAM("w", SS_F32, 256, 512),
               "P(None, None)", SS_REASON_SMALL, 256u * 512 * 4);
    expect_one("'.*' fsdp(data, min_size_mb=0.5)", "data=8", PARAM("w", SS_F32, 264, 512),
               "P(None, 'data')", SS_REASON_SHARDED, 264u * 64 * 4);
    /* 0 shards anything that has bytes. */
    expect_one("'.*' fsdp(data, min_size_mb=0)", "data=8", PARAM("b", SS_F32, 8), "P('data',)",
               SS_REASON_SHARDED, 4);
}

Test(strategy, fsdp_takes_the_largest_divisible_dimension)
{
    /* Dims by size, largest first; the first that `shape[i] % axis_size == 0`. */
    expect_one("'.*' fsdp(data)", "data=8", PARAM("w", SS_F32, 2001, 1024), "P(None, 'data')",
               SS_REASON_SHARDED, 2001u * 128 * 4);
    expect_one("'.*' fsdp(data)", "data=8", PARAM("w", SS_F32, 4096, 8, 1024),
               "P('data', None, None)", SS_REASON_SHARDED, 512u * 8 * 1024 * 4);
    /* No dimension divisible by 8: the spec stays all None. */
    expect_one("'.*' fsdp(data)", "data=8", PARAM("w", SS_F32, 1001, 1001, 3),
               "P(None, None, None)", SS_REASON_INDIVISIBLE, 1001u * 1001 * 3 * 4);
    /* A scalar has no dimension to split. */
    expect_one("'.*' fsdp(data, min_size_mb=0)", "data=8", param("s", SS_F32, 0, (int64_t[]){1}),
               "P()", SS_REASON_INDIVISIBLE, 4);
}

Test(strategy, fsdp_breaks_ties_toward_the_last_dimension)
{
    /* np.argsort((2048, 2048)) is [0, 1] with numpy's reference sort (stable
     * below 17 elements), reversed [1, 0]: dim 1 is tried first. */
    expect_one("'.*' fsdp(data)", "data=8", PARAM("w", SS_F32, 2048, 2048), "P(None, 'data')",
               SS_REASON_SHARDED, 2048u * 256 * 4);
    /* (16, 64, 64, 8): argsort [3, 0, 1, 2], reversed [2, 1, 0, 3]: dim 2. */
    expect_one("'.*' fsdp(data, min_size_mb=0)", "data=8", PARAM("w", SS_F32, 16, 64, 64, 8),
               "P(None, None, 'data', None)", SS_REASON_SHARDED, 16u * 64 * 8 * 8 * 4);
    /* With dim 2 already taken (`cur_spec[i] is None` fails), dim 1 is next. */
    expect_one("'.*' P(None, None, 'model') fsdp(data, min_size_mb=0)", "data=2,model=4",
               PARAM("w", SS_F32, 16, 64, 64, 8), "P(None, 'data', 'model', None)",
               SS_REASON_SHARDED, 16u * 32 * 16 * 8 * 4);
}

Test(strategy, fsdp_tuple_axes_use_the_product_of_their_sizes)
{
    /* axis_size = np.prod([4, 2]) = 8: 16 divides, 12 does not. The entry is
     * the tuple itself (`new_spec[i] = axis`). */
    expect_one("'.*' fsdp(('data', 'model'), min_size_mb=0)", "data=4,model=2",
               PARAM("w", SS_F32, 12, 16), "P(None, ('data', 'model'))", SS_REASON_SHARDED,
               12u * 2 * 4);
    /* The seed's string form "data, model" is the same tuple. */
    expect_one("('.*', 'fsdp(axis=\"data, model\", min_size_mb=0)')", "data=4,model=2",
               PARAM("w", SS_F32, 12, 16), "P(None, ('data', 'model'))", SS_REASON_SHARDED,
               12u * 2 * 4);
    /* 12 and 20 both divide by 4 but not by 8: nothing. */
    expect_one("'.*' fsdp(('data', 'model'), min_size_mb=0)", "data=4,model=2",
               PARAM("w", SS_F32, 12, 20), "P(None, None)", SS_REASON_INDIVISIBLE, 12u * 20 * 4);
    /* A 1-tuple is the bare axis (JAX's canonical entry). */
    expect_one("'.*' fsdp(('data',), min_size_mb=0)", "data=4,model=2",
               PARAM("w", SS_F32, 12, 16), "P(None, 'data')", SS_REASON_SHARDED, 12u * 4 * 4);
}

Test(strategy, fsdp_defaults_and_unknown_axes)
{
    /* The seed's string parser: no axis means fsdp(axis='data'). */
    expect_one("'.*' fsdp", "data=8", PARAM("w", SS_F32, 2048, 1024), "P('data', None)",
               SS_REASON_SHARDED, 256u * 1024 * 4);
    expect_one("'.*' fsdp()", "data=8", PARAM("w", SS_F32, 2048, 1024), "P('data', None)",
               SS_REASON_SHARDED, 256u * 1024 * 4);
    /* `mesh.shape[a]` is read before the size test: an unknown axis fails
     * even for a tiny param. */
    expect_error("'.*' fsdp(foo)", "data=8", PARAM("tiny", SS_F32, 2), SS_ERR_AXIS,
                 "fsdp: mesh axis 'foo' is not in Mesh('data': 8)");
}

/* --- Conflicts and ordering ------------------------------------------------------- */

Test(strategy, replicate_after_a_shard_is_the_seeds_conflict)
{
    expect_error("'w' P('data', None) replicate", "data=8", PARAM("w", SS_F32, 16, 16),
                 SS_ERR_INVALID,
                 "Conflict: w already has a sharding spec ('data', None), cannot replicate.");
    /* Replicate on an untouched spec is fine (all None). */
    expect_one("'w' replicate", "data=8", PARAM("w", SS_F32, 16, 16), "P(None, None)",
               SS_REASON_REPLICATED, 16u * 16 * 4);
}

Test(strategy, conflicting_specs_and_jax_errors)
{
    expect_error("'w' P('data') P('model')", "data=2,model=4", PARAM("w", SS_F32, 16, 16),
                 SS_ERR_INVALID, "cannot apply an explicit spec");
    /* The same entry twice is no conflict. */
    expect_one("'w' P('data') P('data', 'model')", "data=2,model=4", PARAM("w", SS_F32, 16, 16),
               "P('data', 'model')", SS_REASON_SHARDED, 8u * 4 * 4);
    /* fsdp over an axis the spec already uses: JAX's DuplicateSpecError. */
    expect_error("'w' P('data', None) fsdp(data, min_size_mb=0)", "data=2",
                 PARAM("w", SS_F32, 16, 16), SS_ERR_DUPLICATE,
                 "can map every mesh axis to at most one positional dimension");
    /* An explicit spec that does not divide: JAX's IndivisibleError. */
    expect_error("'w' P('data')", "data=8", PARAM("w", SS_F32, 12), SS_ERR_INDIVISIBLE,
                 "should evenly divide the shape");
}

Test(strategy, the_first_matching_rule_decides)
{
    ss_mesh *m = mesh("data=8");
    ss_strategy *s = strategy("'kernel$'         replicate\n"
                              "'dense/'          fsdp(data, min_size_mb=0)\n"
                              "'nothing_matches' replicate\n"
                              "'dense/kernel'    fsdp(data, min_size_mb=0)\n");
    ss_param_info p[3] = {PARAM("dense/kernel", SS_F32, 16, 16), PARAM("dense/bias", SS_F32, 16),
                          PARAM("head/bias", SS_F32, 16)};
    ss_param_sharding o[3];
    cr_assert_eq(ss_strategy_apply(s, m, 3, p, o), SS_OK, "%s", ss_error_message());
    /* Rule 0 takes the kernel although rules 1 and 3 match it too. */
    expect_spec(&o[0], "P(None, None)");
    cr_assert_eq(o[0].rule, 0);
    expect_spec(&o[1], "P('data',)");
    cr_assert_eq(o[1].rule, 1);
    /* No rule matches head/bias: replicated, and said so. */
    expect_spec(&o[2], "P(None,)");
    cr_assert_eq(o[2].rule, -1);
    cr_assert_eq(o[2].reason, SS_REASON_NO_RULE);
    /* re.search semantics: a match anywhere in the path. */
    cr_assert(ss_strategy_rule_matches(s, 1, "encoder/dense/kernel"));
    cr_assert(!ss_strategy_rule_matches(s, 2, "dense/kernel"));
    /* Rule 3 matches the kernel but decides nothing (shadowed by rule 0). */
    cr_assert(ss_strategy_rule_matches(s, 3, "dense/kernel"));
    ss_strategy_destroy(s);
    ss_mesh_destroy(m);
}

Test(strategy, an_error_names_rule_line_and_param)
{
    ss_mesh *m = mesh("data=8");
    ss_strategy *s = strategy("# comment\n'.*/kernel' fsdp(data)\n'bias' P('data') replicate\n");
    ss_param_info p[2] = {PARAM("a/kernel", SS_F32, 8, 8), PARAM("a/bias", SS_F32, 8)};
    ss_param_sharding o[2];
    cr_assert_eq(ss_strategy_apply(s, m, 2, p, o), SS_ERR_INVALID);
    cr_assert_str_eq(ss_error_message(),
                     "strategy rule 1 ('bias' P('data',) replicate, line 3), param 'a/bias': "
                     "Conflict: a/bias already has a sharding spec ('data',), cannot replicate.");
    ss_strategy_destroy(s);
    ss_mesh_destroy(m);
}

/* --- Logical names ------------------------------------------------------------------ */

Test(strategy, logical_names_resolve_with_the_rules)
{
    expect_one("rules embed=data mlp=model\n'wi' logical('embed', 'mlp')", "data=2,model=4",
               PARAM("mlp/wi", SS_F32, 1024, 4096), "P('data', 'model')", SS_REASON_SHARDED,
               512u * 1024 * 4);
    /* Flax's first-match-wins: mlp's first rule lost 'data' to embed, so its
     * second (model) applies; MaxText drops the size-1 axis 'one'. */
    expect_one("rules embed=data mlp=data mlp=model heads=one\n'w' logical('embed', 'mlp', "
               "'heads')", "data=2,model=4,one=1", PARAM("w", SS_F32, 8, 8, 8),
               "P('data', 'model', None)", SS_REASON_SHARDED, 4u * 2 * 8 * 4);
    expect_error("'w' logical('embed')", "data=2", PARAM("w", SS_F32, 8), SS_ERR_INVALID,
                 "logical(...) needs logical axis rules");
    /* A rule's axis the mesh lacks: JAX's NamedSharding error, not a silent
     * replicate. */
    expect_error("rules batch=dta\n'w' logical('batch')", "data=2,model=4", PARAM("w", SS_F32, 8),
                 SS_ERR_AXIS,
                 "strategy rule 0 ('w' logical('batch',), line 2), param 'w': Resource axis: "
                 "dta of P('dta',) is not found in mesh: ('data', 'model').");
    /* Rules given in code serve a strategy whose text has none. */
    ss_mesh *m = mesh("data=2,model=4");
    ss_strategy *s = strategy("'w' logical(None, 'mlp') fsdp(data, min_size_mb=0)");
    ss_rules r;
    cr_assert_eq(ss_rules_parse("mlp=model", &r), SS_OK);
    cr_assert_eq(ss_strategy_set_rules(s, &r), SS_OK);
    ss_rules_free(&r);
    ss_param_info p = PARAM("w", SS_F32, 8, 8);
    ss_param_sharding o;
    cr_assert_eq(ss_strategy_apply(s, m, 1, &p, &o), SS_OK, "%s", ss_error_message());
    expect_spec(&o, "P('data', 'model')");
    ss_strategy_destroy(s);
    ss_mesh_destroy(m);
}

/* --- The text format ----------------------------------------------------------------- */

Test(strategy, parser_forms_lines_and_round_trip)
{
    ss_strategy *s;
    const char *text = "# the seed's list, pasted:\n"
                       "[\n"
                       "  ('.*/kernel', 'fsdp(axis=\"data\")'),\n"
                       "  (\".*bias\", 'replicate'),\n"
                       "]\n"
                       "'Encoder/.*'   P(None, 'model')   # a comment\n"
                       "r'#.*'         replicate          # '#' inside quotes is text\n"
                       "'x' jax.sharding.PartitionSpec('data') fsdp(('data', 'model'), "
                       "min_size_to_shard_mb=2.5)\n";
    cr_assert_eq(ss_strategy_parse(text, 10, &s, NULL, NULL), SS_OK, "%s", ss_error_message());
    cr_assert_eq(ss_strategy_rule_count(s), 5);
    static const char *const want[] = {
        "'.*/kernel' fsdp('data', min_size_mb=4)", "'.*bias' replicate",
        "'Encoder/.*' P(None, 'model')", "'#.*' replicate",
        "'x' P('data',) fsdp(('data', 'model'), min_size_mb=2.5)"};
    static const int lines[] = {12, 13, 15, 16, 17};
    for (int i = 0; i < 5; i++) {
        char buf[256];
        cr_assert_eq(ss_strategy_rule_repr(s, i, buf, sizeof buf), SS_OK);
        cr_assert_str_eq(buf, want[i]);
        cr_assert_eq(ss_strategy_rule_line(s, i), lines[i]);
        /* The repr parses back to the same rule. */
        ss_strategy *t;
        cr_assert_eq(ss_strategy_parse(buf, 1, &t, NULL, NULL), SS_OK, "%s", ss_error_message());
        char again[256];
        ss_strategy_rule_repr(t, 0, again, sizeof again);
        cr_assert_str_eq(again, buf);
        ss_strategy_destroy(t);
    }
    ss_strategy_destroy(s);
    /* In code. */
    cr_assert_eq(ss_strategy_create(&s), SS_OK);
    ss_tactic t = {.kind = SS_TACTIC_FSDP, .min_size_mb = 1};
    t.axes.naxes = 1;
    t.axes.axes[0] = "data";
    cr_assert_eq(ss_strategy_add(s, "kernel", 1, &t), SS_OK);
    cr_assert_eq(ss_strategy_add_text(s, "bias", "replicate"), SS_OK);
    cr_assert_eq(ss_strategy_rule_line(s, 0), 0);
    cr_assert_eq(ss_strategy_add_text(s, "bias", "shard(data)"), SS_ERR_PARSE);
    cr_assert(strstr(ss_error_message(), "unknown tactic 'shard'"), "%s", ss_error_message());
    ss_strategy_destroy(s);
}

static void parse_error(const char *text, int line, int col, const char *substring)
{
    ss_strategy *s = (ss_strategy *)1;
    int l = 0, c = 0;
    cr_assert_neq(ss_strategy_parse(text, 1, &s, &l, &c), SS_OK, "'%s' parsed", text);
    cr_assert_null(s);
    cr_assert_eq(l, line, "'%s': line %d, wanted %d (%s)", text, l, line, ss_error_message());
    cr_assert_eq(c, col, "'%s': column %d, wanted %d (%s)", text, c, col, ss_error_message());
    cr_assert(strstr(ss_error_message(), substring), "'%s' lacks '%s'", ss_error_message(),
              substring);
}

Test(strategy, parser_errors_point_at_line_and_column)
{
    parse_error("'a' replicate\n'b'   shard(data)\n", 2, 7, "unknown tactic 'shard'");
    parse_error("'a' replicate\nb replicate\n", 2, 1, "expected a quoted pattern");
    parse_error("'a'\n", 1, 4, "a rule needs a tactic");
    parse_error("'(' replicate\n", 1, 1, "pattern '('");
    /* Python's re refuses these too ("multiple repeat", "missing )"). */
    parse_error("'a**' replicate\n", 1, 1, "pattern 'a**', offset 2: quantifier does not");
    parse_error("'x(?:a' replicate\n", 1, 1, "pattern 'x(?:a', offset 5: missing closing");
    parse_error("'a' fsdp(data, size=3)\n", 1, 5, "unexpected keyword argument 'size'");
    parse_error("'a' P('x', (\n", 1, 5, "never closed");
    parse_error("'a' replicate(1)\n", 1, 5, "replicate takes no arguments");
    parse_error("'a' replicatefsdp\n", 1, 5, "unknown tactic");
    parse_error("rules embed=\n", 1, 7, "");
    parse_error("('a', 'replicate') extra\n", 1, 20, "unexpected text after the rule");
    /* A file: PATH:LINE:COL. */
    char path[] = "/tmp/ss_strategy_XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, "'a' replicate\n'b' fsdp(data, 3, 4)\n", 35), 35);
    close(fd);
    ss_strategy *s;
    cr_assert_eq(ss_strategy_load(path, &s), SS_ERR_PARSE);
    char want[128];
    snprintf(want, sizeof want, "%s:2:", path);
    cr_assert(strncmp(ss_error_message(), want, strlen(want)) == 0, "%s", ss_error_message());
    unlink(path);
    cr_assert_eq(ss_strategy_load("/nonexistent/strategy.txt", &s), SS_ERR_IO);
}

/* --- Patterns: Python's re syntax, bounded cost ------------------------------------------ */

/* Each expectation is Python 3's bool(re.search(pattern, path)). */
Test(strategy, patterns_match_as_python_re_search)
{
    static const struct {
        const char *pattern, *path;
        int want;
    } cases[] = {
        {"layer_\\d+/kernel$", "encoder/layer_12/kernel", 1},
        {"layer_\\d+/kernel$", "encoder/layer_x/kernel", 0},
        {"(?:wi|wo)/kernel", "mlp/wo/kernel", 1},
        {"(?:wi|wo)/kernel", "mlp/wq/kernel", 0},
        {"^enc.*?/bias$", "encoder/a/b/bias", 1},
        {"dense(?!_out)", "dense_out/kernel", 0},
        {"dense(?!_out)", "x/dense_in/kernel", 1},
        {"dense(?=_out)", "dense_out/kernel", 1},
        {"(?<=mlp/)wi", "mlp/wi/kernel", 1},
        {"(?<=mlp/)wi", "attn/wi/kernel", 0},
        {"kernel\\.0", "kernel.0", 1},
        {"kernel\\.0", "kernelx0", 0},
        {"kernel.0", "kernelx0", 1},
        {"\\bbias\\b", "layer/bias", 1},
        {"\\bbias\\b", "layer/biases", 0},
        {"(?P<blk>block)_\\d/(?P=blk)", "block_3/block", 1},
        {"(?i)KERNEL", "a/kernel", 1},
        {"kernel\\Z", "a/kernel", 1},
        {"kernel\\Z", "a/kernel\n", 0},
        {"kernel$", "a/kernel\n", 1},
        {"\\w+_\\d{2,3}$", "x/layer_123", 1},
        {"\\w+_\\d{2,3}$", "x/layer_1", 0},
        {"\\d", "layer_\xd9\xa3", 1}, /* U+0663 ARABIC-INDIC DIGIT THREE */
        {"^.$", "\xc3\xa9", 1},         /* U+00E9: one character */
        {"\\s", "a b", 1},
        {"emb[a-z]+ing", "token/embedding", 1},
        {"a|b", "ccc", 0},
        {"", "anything", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ss_strategy *s;
        cr_assert_eq(ss_strategy_create(&s), SS_OK);
        cr_assert_eq(ss_strategy_add_text(s, cases[i].pattern, "replicate"), SS_OK,
                     "'%s': %s", cases[i].pattern, ss_error_message());
        cr_assert_eq(ss_strategy_rule_matches(s, 0, cases[i].path), cases[i].want,
                     "re.search('%s', '%s')", cases[i].pattern, cases[i].path);
        ss_strategy_destroy(s);
    }
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Parse `text` (expected to fail or not), in well under a second. */
static ss_status parse_quickly(const char *text)
{
    ss_strategy *s = NULL;
    double t0 = seconds_now();
    ss_status st = ss_strategy_parse(text, 1, &s, NULL, NULL);
    double dt = seconds_now() - t0;
    cr_assert_lt(dt, 2.0, "parsing took %.1f s: %s", dt, text);
    ss_strategy_destroy(s);
    return st;
}

Test(strategy, pathological_patterns_compile_with_bounded_cost)
{
    /* 'a' and 30 '+': glibc regcomp grew to tens of GB on it. */
    cr_assert_eq(parse_quickly("'a++++++++++++++++++++++++++++++' replicate\n"), SS_ERR_PARSE);
    cr_assert(strstr(ss_error_message(), "quantifier does not follow a repeatable item"), "%s",
              ss_error_message());
    /* Fuzzer-found texts of the same family. */
    cr_assert_neq(parse_quickly("'y]+++++++++++++++++++++++++++++++++++++++++++++++++++++2'  \r"
                                "fsdp   \rfsdp  \rfsdp \rfsdp "),
                  SS_OK);
    cr_assert_neq(parse_quickly("' ' ++++++++++++++++++++++++++++++++++++++++++++++++++++++++++"
                                "++++++++++++++++++)P('   P()\nP()\n ''  P*()\f''  P()\n"),
                  SS_OK);
    /* Bounded repeats of bounded repeats: refused as too large, not expanded. */
    cr_assert_eq(parse_quickly("'((a{1000}){1000}){1000}' replicate\n"), SS_ERR_PARSE);
    cr_assert(strstr(ss_error_message(), "is too costly to compile (PCRE2: "), "%s",
                     ss_error_message());
    /* Deep nesting. */
    char text[8192];
    int n = 0;
    n += snprintf(text + n, sizeof text - (size_t)n, "'");
    for (int k = 0; k < 200; k++)
        n += snprintf(text + n, sizeof text - (size_t)n, "(");
    n += snprintf(text + n, sizeof text - (size_t)n, "a");
    for (int k = 0; k < 200; k++)
        n += snprintf(text + n, sizeof text - (size_t)n, ")");
    snprintf(text + n, sizeof text - (size_t)n, "' replicate\n");
    cr_assert_eq(parse_quickly(text), SS_ERR_PARSE);
    cr_assert(strstr(ss_error_message(), "is too costly to compile (PCRE2: parentheses are too "
                                         "deeply nested)"),
              "%s", ss_error_message());
    /* A pattern longer than 4096 bytes. */
    memset(text, 'a', 5000);
    text[0] = '\'';
    snprintf(text + 5000, sizeof text - 5000, "' replicate\n");
    cr_assert_eq(parse_quickly(text), SS_ERR_PARSE);
    cr_assert(strstr(ss_error_message(), "...' is too costly to compile (4999 bytes; at most 4096)"),
              "%s", ss_error_message());
}

Test(strategy, catastrophic_backtracking_is_too_costly_to_match)
{
    ss_mesh *m = mesh("data=8");
    /* (a+)+$ against 40 a's and a '!' takes ~2^40 steps in a backtracking
     * engine (Python's re included). */
    ss_strategy *s = strategy("'kernel' replicate\n'(a+)+$' fsdp(data)\n");
    char path[64];
    memset(path, 'a', 40);
    snprintf(path + 40, sizeof path - 40, "!");
    ss_param_info p[2] = {PARAM("w/kernel", SS_F32, 8), PARAM(path, SS_F32, 8)};
    ss_param_sharding o[2];
    double t0 = seconds_now();
    cr_assert_eq(ss_strategy_apply(s, m, 2, p, o), SS_ERR_RANGE);
    cr_assert_lt(seconds_now() - t0, 2.0);
    char want[256];
    snprintf(want, sizeof want,
             "strategy rule 1 ('(a+)+$' fsdp('data', min_size_mb=4), line 2), param '%s': "
             "pattern '(a+)+$' is too costly to match (PCRE2 match limit)",
             path);
    cr_assert_str_eq(ss_error_message(), want);
    /* A short enough path still matches as Python's re does. */
    cr_assert_eq(ss_strategy_rule_matches(s, 1, "aaaa"), 1);
    cr_assert_eq(ss_strategy_rule_matches(s, 1, "aaaa!"), 0);
    ss_strategy_destroy(s);
    ss_mesh_destroy(m);
}

/* --- Optimizer state and EMA ------------------------------------------------------------ */

Test(strategy, optimizer_state_and_ema_follow_their_params)
{
    ss_mesh *m = mesh("data=8");
    ss_strategy *s = strategy("'kernel' fsdp(data, min_size_mb=0)\n'.*' replicate\n");
    ss_param_info p[2] = {PARAM("dense/kernel", SS_F32, 64, 32), PARAM("dense/bias", SS_F32, 32)};
    ss_param_sharding ps[2], st[5], ema[2];
    cr_assert_eq(ss_strategy_apply(s, m, 2, p, ps), SS_OK);
    ss_optim adam = ss_optim_adam(1e-3);
    cr_assert_eq(ss_optim_state_count(&adam, 2), 5);
    cr_assert_eq(ss_strategy_state_shardings(&adam, 2, ps, st, ema), SS_OK);
    /* mu[0], mu[1], nu[0], nu[1], count (ss_optim_state_inputs's order). */
    for (int k = 0; k < 4; k++) {
        cr_assert(ss_spec_equal(&st[k].spec, &ps[k % 2].spec));
        cr_assert_eq(st[k].bytes_per_device, ps[k % 2].bytes_per_device);
        cr_assert_eq(st[k].rule, ps[k % 2].rule);
    }
    expect_spec(&st[0], "P('data', None)");
    expect_spec(&st[4], "P()");
    cr_assert_eq(st[4].bytes_per_device, 4);
    for (int k = 0; k < 2; k++)
        cr_assert(ss_spec_equal(&ema[k].spec, &ps[k].spec));
    ss_optim mom = ss_optim_momentum(0.1, 0.9, 0);
    cr_assert_eq(ss_strategy_state_shardings(&mom, 2, ps, st, NULL), SS_OK);
    expect_spec(&st[0], "P('data', None)");
    expect_spec(&st[1], "P(None,)");
    ss_optim bad = {.kind = (ss_optim_kind)42};
    cr_assert_eq(ss_strategy_state_shardings(&bad, 2, ps, st, NULL), SS_ERR_INVALID);
    /* The seed matches the optimizer tree's own paths: an unanchored pattern
     * gives a moment its param's spec, an anchored one misses it. */
    ss_param_info tree[2] = {PARAM("opt_state/0/mu/dense/kernel", SS_F32, 64, 32),
                             PARAM("opt_state/0/mu/dense/bias", SS_F32, 32)};
    ss_param_sharding o[2];
    cr_assert_eq(ss_strategy_apply(s, m, 2, tree, o), SS_OK);
    expect_spec(&o[0], "P('data', None)");
    ss_strategy *anchored = strategy("'^dense/kernel' fsdp(data, min_size_mb=0)\n");
    cr_assert_eq(ss_strategy_apply(anchored, m, 2, tree, o), SS_OK);
    expect_spec(&o[0], "P(None, None)");
    cr_assert_eq(o[0].reason, SS_REASON_NO_RULE);
    ss_strategy_destroy(anchored);
    ss_strategy_destroy(s);
    ss_mesh_destroy(m);
}

/* --- The transformer scenario under four strategies ----------------------------------- */

static cJSON *cli_json(int want_rc, const char *fmt, ...) SS__TEST_PRINTF(2, 3);

static cJSON *cli_json(int want_rc, const char *fmt, ...)
{
    char args[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    char *out, *err;
    int rc = ts_run_cli(args, &out, &err);
    cr_assert_eq(rc, want_rc, "shardsim %s: exit %d, wanted %d\n%s", args, rc, want_rc, err);
    cJSON *j = cJSON_Parse(out);
    cr_assert(j, "shardsim %s: not JSON: %.400s", args, out);
    free(out);
    free(err);
    return j;
}

static double num(const cJSON *j, const char *path)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    const cJSON *x = j;
    for (char *tok = strtok(buf, "."); tok; tok = strtok(NULL, "."))
        x = cJSON_GetObjectItem(x, tok);
    cr_assert(x && cJSON_IsNumber(x), "no number at %s", path);
    return x->valuedouble;
}

static const char *scenarios(void)
{
    const char *d = getenv("SS_SCENARIOS");
    cr_assert(d, "SS_SCENARIOS is not set");
    return d;
}

/* Per-device param bytes of scenarios/transformer.shard on data=2 x model=4,
 * by hand. Shapes (f32, 4 bytes): embedding [8192,768] 25165824 B; four
 * attention kernels [4,768,768] 9437184 B each; wi [4,768,3072] and wo
 * [4,3072,768] 37748736 B each; logits [768,8192] 25165824 B; two norm
 * scales and wo's bias [4,768] 12288 B each; wi's bias [4,3072] 49152 B;
 * the final norm [768] 3072 B. Total 163666944 B.
 *   dp:      everything whole                                  163666944
 *   fsdp:    biases and scales whole (89088 B), the rest / 2    81878016
 *            (each split on its largest dim; all exceed 4 MiB)
 *   tp:      scales, wo's bias, final norm whole (39936 B);
 *            the rest (wi's bias too) / 4                        40946688
 *   fsdp_tp: tp, then / 2 again on the kernels and embedding;
 *            wi's bias (48 KiB < 4 MiB) stays / 4 (12288 B)      20499456 */
static const struct {
    const char *name;
    double params;
    int rc; /* plan's exit status: 1 when it does not fit in 768 MiB */
} four[] = {{"dp", 163666944, 1}, {"fsdp", 81878016, 0}, {"tp", 40946688, 0},
            {"fsdp_tp", 20499456, 0}};

Test(strategy, transformer_per_device_bytes_under_four_strategies)
{
    double last = 0;
    for (size_t k = 0; k < sizeof four / sizeof four[0]; k++) {
        cJSON *j = cli_json(four[k].rc, "plan %s/transformer.shard --strategy "
                                        "%s/strategies/%s.txt --json",
                            scenarios(), scenarios(), four[k].name);
        double params = num(j, "strategy.totals.params_bytes_per_device");
        cr_assert_eq(params, four[k].params, "%s: %.0f bytes per device, wanted %.0f",
                     four[k].name, params, four[k].params);
        /* Adam: two moments per param and the f32 count. */
        cr_assert_eq(num(j, "strategy.totals.optimizer_state_bytes_per_device"),
                     2 * four[k].params + 4);
        /* tokens and targets, i32[8,128] split over data=2. */
        cr_assert_eq(num(j, "strategy.totals.other_inputs_bytes_per_device"), 2 * 4 * 128 * 4);
        cr_assert(k == 0 || params < last, "%s is not below the previous strategy",
                  four[k].name);
        last = params;
        cr_assert_eq(cJSON_IsTrue(cJSON_GetObjectItem(j, "fits")), four[k].rc == 0);
        cJSON_Delete(j);
    }
}

Test(strategy, transformer_specs_under_fsdp_tp)
{
    /* Without --strategy, the file's own line: strategies/fsdp_tp.txt. */
    cJSON *j = cli_json(0, "plan %s/transformer.shard --json", scenarios());
    const cJSON *st = cJSON_GetObjectItem(j, "strategy");
    cr_assert(strstr(cJSON_GetObjectItem(st, "source")->valuestring, "strategies/fsdp_tp.txt"));
    cr_assert_eq(num(j, "strategy.totals.params_bytes_per_device"), 20499456);
    static const struct {
        const char *path, *spec;
    } want[] = {{"token_embedder/embedding", "[\"model\",\"data\"]"},
                {"decoder/layers/self_attention/query/kernel", "[null,\"data\",\"model\"]"},
                {"decoder/layers/self_attention/out/kernel", "[null,\"model\",\"data\"]"},
                {"decoder/layers/mlp/wi/bias", "[null,\"model\"]"},
                {"decoder/layers/mlp/wo/bias", "[null,null]"},
                {"decoder/logits_dense/kernel", "[\"data\",\"model\"]"}};
    int found = 0;
    const cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItem(st, "params"))
    {
        for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
            if (strcmp(cJSON_GetObjectItem(p, "path")->valuestring, want[k].path) != 0)
                continue;
            char *spec = cJSON_PrintUnformatted(cJSON_GetObjectItem(p, "spec"));
            cr_assert_str_eq(spec, want[k].spec, "%s", want[k].path);
            free(spec);
            found++;
        }
    }
    cr_assert_eq(found, 6);
    /* Every rule decided something. */
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(st, "unused_rules")), 0);
    cJSON_Delete(j);
}

Test(strategy, transformer_logical_rules_match_fsdp_tp)
{
    /* strategies/logical_fsdp_tp.txt names dimensions (vocab, embed, heads,
     * mlp, layers) and maps them with rules; every param must get the spec
     * fsdp_tp.txt writes out explicitly. */
    cJSON *a = cli_json(0, "plan %s/transformer.shard --strategy %s/strategies/fsdp_tp.txt "
                           "--json", scenarios(), scenarios());
    cJSON *b = cli_json(0, "plan %s/transformer.shard --strategy "
                           "%s/strategies/logical_fsdp_tp.txt --json", scenarios(), scenarios());
    const cJSON *pa = cJSON_GetObjectItem(cJSON_GetObjectItem(a, "strategy"), "params");
    const cJSON *pb = cJSON_GetObjectItem(cJSON_GetObjectItem(b, "strategy"), "params");
    cr_assert_eq(cJSON_GetArraySize(pa), 13);
    cr_assert_eq(cJSON_GetArraySize(pb), 13);
    for (int k = 0; k < 13; k++) {
        char *x = cJSON_PrintUnformatted(cJSON_GetObjectItem(cJSON_GetArrayItem(pa, k), "spec"));
        char *y = cJSON_PrintUnformatted(cJSON_GetObjectItem(cJSON_GetArrayItem(pb, k), "spec"));
        cr_assert_str_eq(y, x, "%s",
                         cJSON_GetObjectItem(cJSON_GetArrayItem(pa, k), "path")->valuestring);
        free(x);
        free(y);
    }
    cr_assert_eq(num(b, "strategy.totals.params_bytes_per_device"), 20499456);
    cJSON_Delete(a);
    cJSON_Delete(b);
}

Test(strategy, report_totals_add_up_to_the_plan)
{
    for (size_t k = 0; k < sizeof four / sizeof four[0]; k++) {
        cJSON *j = cli_json(four[k].rc, "plan %s/transformer.shard --strategy "
                                        "%s/strategies/%s.txt --json",
                            scenarios(), scenarios(), four[k].name);
        double peak = num(j, "memory.plan_peak_bytes");
        double inputs = num(j, "strategy.totals.inputs_arena_bytes");
        double act = num(j, "strategy.totals.activations_at_peak_bytes");
        cr_assert_eq(num(j, "strategy.totals.plan_peak_bytes"), peak);
        cr_assert_eq(inputs + act, peak, "%s: %.0f + %.0f != %.0f", four[k].name, inputs, act,
                     peak);
        /* Inputs in the arena: their bytes rounded up to 64 each (29 inputs:
         * 2 batch arrays, 13 params, 13 mu, 13 nu and the count -> 42). */
        double exact = num(j, "strategy.totals.params_bytes_per_device") +
                       num(j, "strategy.totals.optimizer_state_bytes_per_device") +
                       num(j, "strategy.totals.other_inputs_bytes_per_device");
        cr_assert(inputs >= exact && inputs < exact + 64 * 42, "%s: %.0f vs %.0f", four[k].name,
                  inputs, exact);
        cJSON_Delete(j);
    }
}

Test(strategy, run_measures_what_the_report_plans)
{
    /* Small sizes, tensor parallel: every device holds, by hand, embedding
     * [256,64]/4 16384 + 4 attention kernels [2,64,64]/4 32768 + wi
     * [2,64,128]/4 16384 + wi's bias [2,128]/4 256 + wo [2,128,64]/4 16384 +
     * logits [64,256]/4 16384 + scales and wo's bias whole 3*512 + 256 =
     * 100352 bytes of params. */
    cJSON *j = cli_json(0, "run %s/transformer.shard --strategy %s/strategies/tp.txt --json "
                           "--set VOCAB=256 --set EMBED=64 --set HEADS=4 --set HEAD_DIM=16 "
                           "--set MLP=128 --set LAYERS=2 --set BATCH=4 --set SEQ=8",
                        scenarios(), scenarios());
    cr_assert_eq(num(j, "strategy.totals.params_bytes_per_device"), 100352);
    double plan = num(j, "memory.plan_peak_bytes");
    const cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItem(cJSON_GetObjectItem(j, "memory"), "devices"))
        cr_assert_eq(cJSON_GetObjectItem(d, "peak_bytes")->valuedouble, plan);
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(
        cJSON_GetArrayItem(cJSON_GetObjectItem(j, "checks"), 0), "passed")));
    cJSON_Delete(j);
}

Test(strategy, plan_compares_strategies_side_by_side)
{
    const char *d = scenarios();
    cJSON *j = cli_json(0, "plan %s/transformer.shard --strategy %s/strategies/dp.txt "
                           "--strategy %s/strategies/fsdp.txt --strategy %s/strategies/tp.txt "
                           "--strategy %s/strategies/fsdp_tp.txt --json", d, d, d, d, d);
    const cJSON *cols = cJSON_GetObjectItem(j, "strategies");
    cr_assert_eq(cJSON_GetArraySize(cols), 4);
    for (int k = 0; k < 4; k++) {
        const cJSON *c = cJSON_GetArrayItem(cols, k);
        cr_assert_eq(num(c, "totals.params_bytes_per_device"), four[k].params);
        cr_assert_eq(cJSON_IsTrue(cJSON_GetObjectItem(c, "fits")), four[k].rc == 0);
    }
    cJSON_Delete(j);
    char *out, *err;
    char args[2048];
    snprintf(args, sizeof args, "plan %s/transformer.shard --strategy %s/strategies/dp.txt "
                                "--strategy %s/strategies/fsdp_tp.txt", d, d, d);
    cr_assert_eq(ts_run_cli(args, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "fsdp_tp") && strstr(out, "156.1 MiB") && strstr(out, "19.5 MiB"),
              "%s", out);
    free(out);
    free(err);
}

static char *write_tmp(const char *text)
{
    char *path = strdup("/tmp/ss_strategy_scn_XXXXXX");
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    size_t n = strlen(text);
    cr_assert_eq(write(fd, text, n), (ssize_t)n);
    close(fd);
    return path;
}

Test(strategy, scenario_block_and_its_errors)
{
    static const char head[] = "mesh d=2\n"
                               "strategy:\n"
                               "    '.*kernel'      fsdp(d, min_size_mb=0)\n";
    static const char tail[] = "    'nothing_here'  replicate\n"
                               "    'dense/kernel'  replicate\n"
                               "w = param(f32[4, 6], None, ones, path='dense/kernel')\n"
                               "b = param(f32[4], None, ones, path='dense/bias')\n"
                               "def f(w, b):\n"
                               "    return sum(w) + sum(b)\n"
                               "run f\n";
    char text[1024];
    snprintf(text, sizeof text, "%s    'bias'          replicate\n%s", head, tail);
    char *path = write_tmp(text);
    cJSON *j = cli_json(0, "plan %s --json", path);
    const cJSON *st = cJSON_GetObjectItem(j, "strategy");
    const cJSON *p0 = cJSON_GetArrayItem(cJSON_GetObjectItem(st, "params"), 0);
    char *spec = cJSON_PrintUnformatted(cJSON_GetObjectItem(p0, "spec"));
    cr_assert_str_eq(spec, "[null,\"d\"]"); /* 6 > 4: dim 1 */
    free(spec);
    const cJSON *unused = cJSON_GetObjectItem(st, "unused_rules");
    cr_assert_eq(cJSON_GetArraySize(unused), 2);
    cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(unused, 0), "why")->valuestring,
                     "matches_nothing");
    cr_assert_eq(num(cJSON_GetArrayItem(unused, 0), "line"), 5);
    cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(unused, 1), "why")->valuestring,
                     "shadowed");
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(st, "unmatched_params")), 0);
    cJSON_Delete(j);
    unlink(path);
    free(path);
    /* A bad rule inside the block: its own line and column in the scenario. */
    snprintf(text, sizeof text, "%s    'bias'          shard(d)\n%s", head, tail);
    path = write_tmp(text);
    char args[512], *out, *err;
    snprintf(args, sizeof args, "plan %s", path);
    cr_assert_eq(ts_run_cli(args, &out, &err), 2);
    char want[512];
    snprintf(want, sizeof want, "%s:4:21: strategy: unknown tactic 'shard'", path);
    cr_assert(strstr(err, want), "%s", err);
    free(out);
    free(err);
    unlink(path);
    free(path);
    /* The one-line form, and an apply error reported at the statement. */
    path = write_tmp("mesh d=2\nstrategy: 'w' fsdp(x)\nw = param(f32[4], None, ones)\n"
                     "def f(w):\n    return sum(w)\nrun f\n");
    snprintf(args, sizeof args, "plan %s", path);
    cr_assert_eq(ts_run_cli(args, &out, &err), 2);
    snprintf(want, sizeof want, "%s:2:1: strategy rule 0 ('w' fsdp('x', min_size_mb=4), line 2), "
                                "param 'w': fsdp: mesh axis 'x'", path);
    cr_assert(strstr(err, want), "%s", err);
    free(out);
    free(err);
    unlink(path);
    free(path);
    /* Params no rule matches stay replicated and are listed. */
    path = write_tmp("mesh d=2\nstrategy: 'kernel' fsdp(d, min_size_mb=0)\n"
                     "w = param(f32[4, 6], None, ones, path='dense/kernel')\n"
                     "b = param(f32[4], None, ones, path='dense/bias')\n"
                     "c = param(f32[2], None, ones)\n"
                     "def f(w, b, c):\n    return sum(w) + sum(b) + sum(c)\nrun f\n");
    j = cli_json(0, "plan %s --json", path);
    char *u = cJSON_PrintUnformatted(
        cJSON_GetObjectItem(cJSON_GetObjectItem(j, "strategy"), "unmatched_params"));
    cr_assert_str_eq(u, "[\"dense/bias\",\"c\"]");
    free(u);
    cJSON_Delete(j);
    unlink(path);
    free(path);
    /* --strategy naming no file. */
    snprintf(args, sizeof args, "plan %s/transformer.shard --strategy /nonexistent.txt",
             scenarios());
    cr_assert_eq(ts_run_cli(args, &out, &err), 2);
    cr_assert(strstr(err, "--strategy: /nonexistent.txt: cannot open"), "%s", err);
    free(out);
    free(err);
}

/* --- Robustness ------------------------------------------------------------------------- */

Test(strategy, mutated_strategy_texts_never_crash)
{
    /* Thousands of random edits of a strategy that uses every form: each
     * parses or fails with a message, and what parses applies or fails
     * with a message (the ASan build turns a memory error into a failure). */
    static const char base[] = "rules embed=data mlp=model\n"
                               "'token_embedder/embedding$' P('model', None) fsdp(data)\n"
                               "('.*kernel', 'fsdp(axis=\"data, model\", min_size_mb=0)'),\n"
                               "'wi' logical('embed', 'mlp')  # comment\n"
                               "r'bias|scale' replicate\n"
                               "'.*' fsdp(('data',), min_size_to_shard_mb=2.5)\n";
    static const char alphabet[] = "'\"()[],=#\\ \n.*|$^?{}+rPfsdplogical0123456789_-/";
    ss_mesh *m = mesh("data=2,model=4");
    ss_param_info p[4] = {PARAM("token_embedder/embedding", SS_F32, 64, 32),
                          PARAM("mlp/wi/kernel", SS_BF16, 16, 8, 8),
                          PARAM("mlp/wi/bias", SS_F32, 24), PARAM("count", SS_I32, 1)};
    ss_param_sharding o[4];
    unsigned seed = 12345;
    int parsed = 0;
    for (int it = 0; it < 4000; it++) {
        char text[sizeof base + 64];
        memcpy(text, base, sizeof base);
        size_t len = sizeof base - 1;
        int edits = 1 + (int)(seed % 4);
        for (int k = 0; k < edits; k++) {
            seed = seed * 1103515245u + 12345u;
            size_t at = (seed >> 8) % len;
            char c = alphabet[(seed >> 20) % (sizeof alphabet - 1)];
            switch ((seed >> 4) % 3) {
            case 0: text[at] = c; break;
            case 1: memmove(text + at, text + at + 1, len - at); len--; break;
            default:
                memmove(text + at + 1, text + at, len - at + 1);
                text[at] = c;
                len++;
            }
        }
        ss_strategy *s = NULL;
        int l = 0, c = 0;
        if (ss_strategy_parse(text, 1, &s, &l, &c) != SS_OK) {
            cr_assert_null(s);
            cr_assert(ss_error_message()[0] && l >= 1, "no message or line for:\n%s", text);
            continue;
        }
        parsed++;
        if (ss_strategy_apply(s, m, 4, p, o) != SS_OK)
            cr_assert(strstr(ss_error_message(), "strategy rule") ||
                          strstr(ss_error_message(), "strategy:"),
                      "%s", ss_error_message());
        for (int k = 0; k < ss_strategy_rule_count(s); k++) {
            char buf[1024];
            ss_strategy_rule_repr(s, k, buf, sizeof buf);
        }
        ss_strategy_destroy(s);
    }
    cr_assert(parsed > 100, "only %d of the mutations parsed", parsed);
    ss_mesh_destroy(m);
}
