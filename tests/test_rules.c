/* test_rules.c — logical axis rules: every case of
 * conformance/logical_rules.json (Flax logical_to_mesh_axes and
 * with_logical_constraint), MaxText's size-1 axis removal (R1-R4), strict
 * mode, the rule text parser and its errors. */
#include "support.h"

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */
/* ------------------------------------------------------------------------ */

/* Rules from the JSON encoding: [name, "axis" | ["a","b"] | [] | null |
 * "UNCONSTRAINED"] pairs. The caller frees with ss_rules_free. */
static void rules_from_json(const cJSON *arr, ss_rules *out)
{
    int n = cJSON_GetArraySize(arr);
    out->count = n;
    out->rules = n ? calloc((size_t)n, sizeof *out->rules) : NULL;
    cr_assert(n == 0 || out->rules);
    for (int i = 0; i < n; i++) {
        const cJSON *pair = cJSON_GetArrayItem(arr, i);
        const cJSON *v = cJSON_GetArrayItem(pair, 1);
        ss_rule *r = &out->rules[i];
        cr_assert_eq(ss_name_intern(cJSON_GetArrayItem(pair, 0)->valuestring, &r->name), SS_OK);
        if (cJSON_IsNull(v)) {
            r->kind = SS_RULE_NONE;
        } else if (cJSON_IsString(v) && strcmp(v->valuestring, "UNCONSTRAINED") == 0) {
            r->kind = SS_RULE_UNCONSTRAINED;
        } else if (cJSON_IsString(v)) {
            r->kind = SS_RULE_AXES;
            cr_assert_eq(ss_name_intern(v->valuestring, &r->axes[r->naxes++]), SS_OK);
        } else {
            const cJSON *a;
            cJSON_ArrayForEach(a, v)
                cr_assert_eq(ss_name_intern(a->valuestring, &r->axes[r->naxes++]), SS_OK);
            r->kind = r->naxes ? SS_RULE_AXES : SS_RULE_EMPTY;
        }
    }
}

/* The same rules as parser text: "foo=data,bar=(a,b),baz=None,...". */
static void rules_text_from_json(const cJSON *arr, char *out, size_t cap)
{
    size_t len = 0;
    const cJSON *pair;
    out[0] = '\0';
    cJSON_ArrayForEach(pair, arr)
    {
        const cJSON *v = cJSON_GetArrayItem(pair, 1);
        len += (size_t)snprintf(out + len, cap - len, "%s%s=", len ? "," : "",
                                cJSON_GetArrayItem(pair, 0)->valuestring);
        if (cJSON_IsNull(v)) {
            len += (size_t)snprintf(out + len, cap - len, "None");
        } else if (cJSON_IsString(v)) {
            len += (size_t)snprintf(out + len, cap - len, "%s", v->valuestring);
        } else {
            const cJSON *a;
            len += (size_t)snprintf(out + len, cap - len, "(");
            cJSON_ArrayForEach(a, v)
                len += (size_t)snprintf(out + len, cap - len, "%s%s",
                                        a == v->child ? "" : ",", a->valuestring);
            len += (size_t)snprintf(out + len, cap - len, ")");
        }
        cr_assert_lt(len, cap);
    }
}

/* JAX's repr of an expected spec, written straight from the JSON (so the
 * comparison does not rely on ss_spec_repr alone). */
static void repr_from_json(const cJSON *arr, char *out, size_t cap)
{
    size_t len = (size_t)snprintf(out, cap, "P(");
    int n = cJSON_GetArraySize(arr), i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, arr)
    {
        if (i++)
            len += (size_t)snprintf(out + len, cap - len, ", ");
        if (cJSON_IsNull(e)) {
            len += (size_t)snprintf(out + len, cap - len, "None");
        } else if (cJSON_IsString(e) && strcmp(e->valuestring, "UNCONSTRAINED") == 0) {
            len += (size_t)snprintf(out + len, cap - len, "UNCONSTRAINED");
        } else if (cJSON_IsString(e)) {
            len += (size_t)snprintf(out + len, cap - len, "'%s'", e->valuestring);
        } else {
            const cJSON *a;
            len += (size_t)snprintf(out + len, cap - len, "(");
            cJSON_ArrayForEach(a, e)
                len += (size_t)snprintf(out + len, cap - len, "%s'%s'",
                                        a == e->child ? "" : ", ", a->valuestring);
            len += (size_t)snprintf(out + len, cap - len, ")");
        }
    }
    snprintf(out + len, cap - len, n == 1 ? ",)" : ")");
}

static void rules_parse_ok(const char *text, ss_rules *out)
{
    ss_status st = ss_rules_parse(text, out);
    cr_assert_eq(st, SS_OK, "parse '%s': %s", text, ss_error_message());
}

static void spec_parse_ok(const char *text, ss_spec *out)
{
    ss_status st = ss_spec_parse(text, out);
    cr_assert_eq(st, SS_OK, "spec '%s': %s", text, ss_error_message());
}

static void assert_spec_repr(const ss_spec *got, const char *want, const char *what)
{
    char repr[512];
    cr_assert_eq(ss_spec_repr(got, repr, sizeof repr), SS_OK);
    cr_assert_str_eq(repr, want, "%s: got %s, expected %s", what, repr, want);
}

/* Resolve `names` under `rules` (both texts) and compare the repr. */
static void assert_resolves(const char *rules_text, const char *names_text,
                            const ss_rules_options *opts, const char *want)
{
    ss_rules rules;
    ss_spec names, out;
    rules_parse_ok(rules_text, &rules);
    spec_parse_ok(names_text, &names);
    ss_status st = ss_rules_resolve(&rules, &names, opts, &out, NULL);
    cr_assert_eq(st, SS_OK, "rules %s, names %s: %s", rules_text, names_text,
                 ss_error_message());
    char what[512];
    snprintf(what, sizeof what, "rules %s, names %s", rules_text, names_text);
    assert_spec_repr(&out, want, what);
    ss_rules_free(&rules);
}

/* Resolve and expect failure `code` with exactly `msg`. */
static void assert_resolve_fails(const char *rules_text, const char *names_text,
                                 const ss_rules_options *opts, ss_status code, const char *msg)
{
    ss_rules rules;
    ss_spec names, out;
    rules_parse_ok(rules_text, &rules);
    spec_parse_ok(names_text, &names);
    ss_status st = ss_rules_resolve(&rules, &names, opts, &out, NULL);
    cr_assert_eq(st, code, "rules %s, names %s: status %s, expected %s (%s)", rules_text,
                 names_text, ss_status_name(st), ss_status_name(code), ss_error_message());
    cr_assert_str_eq(ss_error_message(), msg);
    ss_rules_free(&rules);
}

/* ------------------------------------------------------------------------ */
/* Conformance vectors                                                       */
/* ------------------------------------------------------------------------ */

static ss_rules_fallback fallback_from(const char *s)
{
    if (strcmp(s, "AXIS_IS_UNSHARDED") == 0)
        return SS_FALLBACK_UNSHARDED;
    if (strcmp(s, "RAISE_ERROR") == 0)
        return SS_FALLBACK_RAISE;
    cr_assert_str_eq(s, "NO_CONSTRAINT", "unknown fallback %s", s);
    return SS_FALLBACK_NO_CONSTRAINT;
}

/* Run one case with the given rules (from JSON or from parsed text). */
static void check_case_with(const cJSON *c, const ss_rules *rules, const char *how)
{
    const char *name = cJSON_GetObjectItem(c, "name")->valuestring;
    ss_spec names, out;
    ts_spec_from_json(cJSON_GetObjectItem(c, "names"), &names);
    ss_rules_options opts = {NULL, 0, SS_FALLBACK_UNSHARDED, NULL};
    const cJSON *fb = cJSON_GetObjectItem(c, "fallback");
    if (fb)
        opts.fallback = fallback_from(fb->valuestring);
    memset(&out, 0x5a, sizeof out);
    int constrained = -1;
    ss_status st = ss_rules_resolve(rules, &names, &opts, &out, &constrained);

    const cJSON *err = cJSON_GetObjectItem(c, "error");
    if (err) {
        cr_assert_eq(st, SS_ERR_RULES, "%s (%s): status %s, expected an error", name, how,
                     ss_status_name(st));
        cr_assert_str_eq(ss_error_message(), err->valuestring, "%s (%s)", name, how);
        cr_assert_eq(constrained, -1, "%s: constrained written on failure", name);
        return;
    }
    cr_assert_eq(st, SS_OK, "%s (%s): %s", name, how, ss_error_message());
    if (cJSON_IsTrue(cJSON_GetObjectItem(c, "no_constraint"))) {
        cr_assert_eq(constrained, 0, "%s (%s): a constraint was applied", name, how);
        return;
    }
    /* Plain logical_to_mesh_axes with empty rules (L14) still yields a spec;
     * constrained then says with_logical_constraint would do nothing. */
    cr_assert_eq(constrained, rules->count > 0 ? 1 : 0, "%s (%s)", name, how);
    const cJSON *jexp = cJSON_GetObjectItem(c, "expected");
    ss_spec want;
    ts_spec_from_json(jexp, &want);
    char want_repr[512];
    repr_from_json(jexp, want_repr, sizeof want_repr);
    char got_repr[512];
    cr_assert_eq(ss_spec_repr(&out, got_repr, sizeof got_repr), SS_OK);
    cr_assert(ss_spec_equal(&out, &want), "%s (%s): got %s, expected %s", name, how, got_repr,
              want_repr);
    cr_assert_str_eq(got_repr, want_repr, "%s (%s)", name, how);
}

static void check_case(const char *name)
{
    cJSON *cases = ts_load_json("conformance/logical_rules.json");
    const cJSON *c = ts_find_case(cases, name);
    cr_assert(c != NULL, "case %s not in logical_rules.json", name);

    /* Rules built directly from the JSON. */
    ss_rules rules;
    rules_from_json(cJSON_GetObjectItem(c, "rules"), &rules);
    check_case_with(c, &rules, "JSON rules");
    ss_rules_free(&rules);

    /* The same rules written as text and parsed. */
    char text[2048];
    rules_text_from_json(cJSON_GetObjectItem(c, "rules"), text, sizeof text);
    rules_parse_ok(text, &rules);
    check_case_with(c, &rules, text);
    ss_rules_free(&rules);
    cJSON_Delete(cases);
}

static const char *const case_names[] = {
    "L1",  "L2",  "L3",  "L4",  "L5",  "L6",  "L7",   "L8",   "L9",   "L10", "L11", "L12",
    "L13", "L14", "L15", "L16", "L17", "L18a", "L18b", "L18c", "L19", "L20", "W1",  "W2"};

#define CONFORMANCE(id)                                                                        \
    Test(rules_conformance, id) { check_case(#id); }

CONFORMANCE(L1)
CONFORMANCE(L2)
CONFORMANCE(L3)
CONFORMANCE(L4)
CONFORMANCE(L5)
CONFORMANCE(L6)
CONFORMANCE(L7)
CONFORMANCE(L8)
CONFORMANCE(L9)
CONFORMANCE(L10)
CONFORMANCE(L11)
CONFORMANCE(L12)
CONFORMANCE(L13)
CONFORMANCE(L14)
CONFORMANCE(L15)
CONFORMANCE(L16)
CONFORMANCE(L17)
CONFORMANCE(L18a)
CONFORMANCE(L18b)
CONFORMANCE(L18c)
CONFORMANCE(L19)
CONFORMANCE(L20)
CONFORMANCE(W1)
CONFORMANCE(W2)

/* Every case in the file has a test above, and there are 24 of them. */
Test(rules_conformance, every_case_is_covered)
{
    cJSON *cases = ts_load_json("conformance/logical_rules.json");
    size_t ncovered = sizeof case_names / sizeof case_names[0];
    cr_assert_eq(cJSON_GetArraySize(cases), 24);
    cr_assert_eq(ncovered, 24);
    const cJSON *c;
    cJSON_ArrayForEach(c, cases)
    {
        const char *name = cJSON_GetObjectItem(c, "name")->valuestring;
        bool found = false;
        for (size_t i = 0; i < ncovered; i++)
            found = found || strcmp(case_names[i], name) == 0;
        cr_assert(found, "case %s has no test", name);
    }
    cJSON_Delete(cases);
}

/* ------------------------------------------------------------------------ */
/* Flax semantics beyond the vectors                                         */
/* ------------------------------------------------------------------------ */

Test(rules_flax, null_options_mean_flax_defaults)
{
    assert_resolves("foo=data", "foo,unknown", NULL, "P('data', None)");
}

Test(rules_flax, empty_tuple_claims_the_dimension)
{
    /* () is assigned, uses no axis and blocks later rules of its name. */
    assert_resolves("a=(),a=model,b=model", "a,b", NULL, "P(None, 'model')");
}

Test(rules_flax, one_tuple_is_the_bare_axis)
{
    assert_resolves("a=(model,)", "a", NULL, "P('model',)");
}

Test(rules_flax, none_value_does_not_block_axes)
{
    assert_resolves("a=None,b=UNCONSTRAINED,c=model,d=model", "a,b,c,d", NULL,
                    "P(None, UNCONSTRAINED, 'model', None)");
}

Test(rules_flax, tuple_is_all_or_nothing_then_falls_through)
{
    /* b's tuple shares 'x' with a: the free 'y' is not taken alone; the next
     * rule of b is tried. */
    assert_resolves("a=x,b=(y,x),b=z", "a,b", NULL, "P('x', 'z')");
}

Test(rules_flax, pass_through_tuple_uses_its_axes)
{
    /* A names entry that is already a tuple of mesh axes is copied through
     * and its axes count as used. */
    assert_resolves("a=model,b=data", "(model,replica),a,b", NULL,
                    "P(('model', 'replica'), None, 'data')");
}

Test(rules_flax, none_and_unconstrained_names_may_repeat)
{
    assert_resolves("foo=data", "None,UNCONSTRAINED,foo,None,UNCONSTRAINED", NULL,
                    "P(None, UNCONSTRAINED, 'data', None, UNCONSTRAINED)");
}

Test(rules_flax, duplicate_names_listed_once_in_first_order)
{
    assert_resolve_fails("foo=data", "bar,foo,bar,foo,bar,None,None", NULL, SS_ERR_RULES,
                         "Unsupported: Dimensions ('bar', 'foo') occur more than once in array "
                         "names.");
}

Test(rules_flax, duplicate_check_comes_before_everything)
{
    ss_rules_options raise = {NULL, 1, SS_FALLBACK_RAISE, NULL};
    assert_resolve_fails("", "foo,foo", &raise, SS_ERR_RULES,
                         "Unsupported: Dimensions ('foo',) occur more than once in array names.");
}

Test(rules_flax, out_may_alias_names)
{
    ss_rules rules;
    ss_spec s;
    rules_parse_ok("foo=data,bar=model", &rules);
    spec_parse_ok("bar,None,foo", &s);
    cr_assert_eq(ss_rules_resolve(&rules, &s, NULL, &s, NULL), SS_OK, "%s",
                 ss_error_message());
    assert_spec_repr(&s, "P('model', None, 'data')", "aliased");
    ss_rules_free(&rules);
}

Test(rules_flax, null_rules_are_empty_rules)
{
    ss_spec names, out;
    int constrained = -1;
    spec_parse_ok("a,UNCONSTRAINED", &names);
    cr_assert_eq(ss_rules_resolve(NULL, &names, NULL, &out, &constrained), SS_OK);
    assert_spec_repr(&out, "P(None, UNCONSTRAINED)", "NULL rules");
    cr_assert_eq(constrained, 0);
}

Test(rules_flax, empty_names)
{
    ss_rules rules;
    ss_spec names, out;
    int constrained = -1;
    rules_parse_ok("a=x", &rules);
    spec_parse_ok("", &names);
    cr_assert_eq(ss_rules_resolve(&rules, &names, NULL, &out, &constrained), SS_OK);
    assert_spec_repr(&out, "P()", "empty names");
    cr_assert_eq(constrained, 1);
    ss_rules_free(&rules);
}

Test(rules_flax, invalid_arguments)
{
    ss_spec names, out;
    spec_parse_ok("a", &names);
    cr_assert_eq(ss_rules_resolve(NULL, NULL, NULL, &out, NULL), SS_ERR_INVALID);
    cr_assert_eq(ss_rules_resolve(NULL, &names, NULL, NULL, NULL), SS_ERR_INVALID);
    ss_rules bad = {2, NULL};
    cr_assert_eq(ss_rules_resolve(&bad, &names, NULL, &out, NULL), SS_ERR_INVALID);
    ss_rules_options o = {NULL, 0, (ss_rules_fallback)7, NULL};
    cr_assert_eq(ss_rules_resolve(NULL, &names, &o, &out, NULL), SS_ERR_INVALID);
}

/* ------------------------------------------------------------------------ */
/* Fallbacks                                                                 */
/* ------------------------------------------------------------------------ */

Test(rules_fallback, raise_prints_none_and_unconstrained)
{
    ss_rules_options raise = {NULL, 0, SS_FALLBACK_RAISE, NULL};
    assert_resolve_fails("foo=data", "foo,None,UNCONSTRAINED,bar", &raise, SS_ERR_RULES,
                         "Axis names ('foo', None, UNCONSTRAINED, 'bar') did not match a rule");
}

Test(rules_fallback, raise_one_name_tuple)
{
    ss_rules_options raise = {NULL, 0, SS_FALLBACK_RAISE, NULL};
    assert_resolve_fails("foo=data", "zzz", &raise, SS_ERR_RULES,
                         "Axis names ('zzz',) did not match a rule");
}

Test(rules_fallback, raise_when_the_only_rule_lost_its_axis)
{
    ss_rules_options raise = {NULL, 0, SS_FALLBACK_RAISE, NULL};
    assert_resolve_fails("foo=model,bar=model", "foo,bar", &raise, SS_ERR_RULES,
                         "Axis names ('foo', 'bar') did not match a rule");
}

Test(rules_fallback, raise_not_when_every_name_matched)
{
    ss_rules_options raise = {NULL, 0, SS_FALLBACK_RAISE, NULL};
    /* A None rule is a match; None/UNCONSTRAINED entries need no rule. */
    assert_resolves("foo=data,bar=None", "foo,bar,None,UNCONSTRAINED", &raise,
                    "P('data', None, None, UNCONSTRAINED)");
}

Test(rules_fallback, raise_and_no_constraint_with_empty_rules_do_nothing)
{
    ss_rules rules = {0, NULL};
    ss_spec names, out;
    spec_parse_ok("foo,bar", &names);
    for (int f = SS_FALLBACK_UNSHARDED; f <= SS_FALLBACK_NO_CONSTRAINT; f++) {
        ss_rules_options o = {NULL, 0, (ss_rules_fallback)f, NULL};
        int constrained = -1;
        cr_assert_eq(ss_rules_resolve(&rules, &names, &o, &out, &constrained), SS_OK,
                     "fallback %d: %s", f, ss_error_message());
        cr_assert_eq(constrained, 0, "fallback %d", f);
    }
}

Test(rules_fallback, no_constraint_only_when_something_is_unassigned)
{
    ss_rules rules;
    ss_spec names, out;
    ss_rules_options o = {NULL, 0, SS_FALLBACK_NO_CONSTRAINT, NULL};
    int constrained = -1;
    rules_parse_ok("foo=data,bar=None", &rules);
    spec_parse_ok("foo,bar,None", &names);
    cr_assert_eq(ss_rules_resolve(&rules, &names, &o, &out, &constrained), SS_OK);
    cr_assert_eq(constrained, 1);
    assert_spec_repr(&out, "P('data', None, None)", "all matched");
    spec_parse_ok("foo,baz", &names);
    cr_assert_eq(ss_rules_resolve(&rules, &names, &o, &out, &constrained), SS_OK);
    cr_assert_eq(constrained, 0);
    ss_rules_free(&rules);
}

/* ------------------------------------------------------------------------ */
/* MaxText: size-1 axes dropped with a mesh (notes 3.1); absent ones an error */
/* ------------------------------------------------------------------------ */

static ss_mesh *mesh_ok(const char *text, int ndevices)
{
    ss_mesh *m = NULL;
    cr_assert_eq(ss_mesh_parse(text, ndevices, NULL, &m), SS_OK, "mesh %s: %s", text,
                 ss_error_message());
    return m;
}

/* R1-R4 as written: the spec itself passed through (tuples pass through the
 * Flax step unchanged), and the same spec produced from logical names. */
Test(rules_maxtext, R1)
{
    ss_mesh *m = mesh_ok("fsdp=8,tensor=1,tensor_sequence=1", 8);
    ss_rules_options o = {m, 0, SS_FALLBACK_UNSHARDED, NULL};
    assert_resolves("", "(fsdp,tensor),None", &o, "P('fsdp', None)");
    assert_resolves("a=(fsdp,tensor),b=tensor_sequence", "a,b", &o, "P('fsdp', None)");
    ss_mesh_destroy(m);
}

/* An axis the mesh lacks is JAX's NamedSharding error (check_pspec's
 * f"Resource axis: {r} of {pspec} is not found in mesh:
 * {tuple(mesh.shape.keys())}.", the pspec being the resolved one), strict
 * or not, from a rule or passed through; MaxText's own mesh declares every
 * axis, so its .get(axis, 1) never meets an absent one. */
static void assert_absent_axis(const char *rules_text, const char *names_text, int strict,
                               const char *want)
{
    ss_mesh *m = mesh_ok("data=2,model=4", 8);
    ss_rules_options o = {m, strict, SS_FALLBACK_UNSHARDED, NULL};
    ss_rules rules;
    ss_spec names, out;
    rules_parse_ok(rules_text, &rules);
    spec_parse_ok(names_text, &names);
    cr_assert_eq(ss_rules_resolve(&rules, &names, &o, &out, NULL), SS_ERR_AXIS,
                 "rules %s, names %s resolved", rules_text, names_text);
    cr_assert_str_eq(ss_error_message(), want);
    ss_rules_free(&rules);
    ss_mesh_destroy(m);
}

Test(rules_maxtext, R2_absent_axis_is_jaxs_resource_axis_error)
{
    const char *want = "Resource axis: dta of P('dta',) is not found in mesh: ('data', 'model').";
    assert_absent_axis("batch=dta", "batch", 0, want);
    assert_absent_axis("batch=dta", "batch", 1, want);
    assert_absent_axis("batch=(data,expert),embed=model", "batch,embed", 0,
                       "Resource axis: expert of P(('data', 'expert'), 'model') is not found in "
                       "mesh: ('data', 'model').");
    assert_absent_axis("", "(data,expert)", 0,
                       "Resource axis: expert of P(('data', 'expert'),) is not found in mesh: "
                       "('data', 'model').");
    /* A rule that decides no dimension is never looked at, as in JAX. */
    ss_mesh *m = mesh_ok("data=2,model=4", 8);
    ss_rules_options o = {m, 1, SS_FALLBACK_UNSHARDED, NULL};
    assert_resolves("batch=data,unused=dta", "batch,None", &o, "P('data', None)");
    /* Without a mesh there is nothing to check against. */
    assert_resolves("batch=dta", "batch", NULL, "P('dta',)");
    ss_mesh_destroy(m);
}

Test(rules_maxtext, R3_all_size_one_is_none)
{
    ss_mesh *m = mesh_ok("tensor=1,tensor_sequence=1", 1);
    ss_rules_options o = {m, 0, SS_FALLBACK_UNSHARDED, NULL};
    assert_resolves("", "(tensor,tensor_sequence)", &o, "P(None,)");
    assert_resolves("a=(tensor,tensor_sequence)", "a", &o, "P(None,)");
    ss_mesh_destroy(m);
}

Test(rules_maxtext, R4_none_and_unconstrained_kept)
{
    ss_mesh *m = mesh_ok("data=2,model=4", 8);
    ss_rules_options o = {m, 0, SS_FALLBACK_UNSHARDED, NULL};
    assert_resolves("", "None,UNCONSTRAINED", &o, "P(None, UNCONSTRAINED)");
    assert_resolves("a=None,b=UNCONSTRAINED", "a,b", &o, "P(None, UNCONSTRAINED)");
    ss_mesh_destroy(m);
}

Test(rules_maxtext, size_one_axis_still_claims_in_the_flax_step)
{
    /* Flax runs first: 'a' takes 'tensor' (size 1), so 'b' cannot; MaxText
     * then drops 'tensor' from 'a'. */
    ss_mesh *m = mesh_ok("data=8,tensor=1", 8);
    ss_rules_options o = {m, 0, SS_FALLBACK_UNSHARDED, NULL};
    assert_resolves("a=tensor,b=tensor,b=data", "a,b", &o, "P(None, 'data')");
    assert_resolves("a=tensor,b=tensor", "a,b", &o, "P(None, None)");
    ss_mesh_destroy(m);
}

Test(rules_maxtext, without_mesh_nothing_is_dropped)
{
    assert_resolves("a=(fsdp,tensor),b=tensor_sequence", "a,b", NULL,
                    "P(('fsdp', 'tensor'), 'tensor_sequence')");
}

Test(rules_maxtext, mesh_keeps_axis_order)
{
    ss_mesh *m = mesh_ok("x=2,one=1,y=2,z=2", 8);
    ss_rules_options o = {m, 0, SS_FALLBACK_UNSHARDED, NULL};
    assert_resolves("a=(z,one,x)", "a", &o, "P(('z', 'x'),)");
    ss_mesh_destroy(m);
}

/* ------------------------------------------------------------------------ */
/* Strict mode                                                               */
/* ------------------------------------------------------------------------ */

static const ss_rules_options strict_opts = {NULL, 1, SS_FALLBACK_UNSHARDED, NULL};

Test(rules_strict, reports_the_claimed_axis)
{
    assert_resolve_fails("batch=data,mlp=model,embed=model", "batch,mlp,embed", &strict_opts,
                         SS_ERR_RULES,
                         "strict rules: 'embed' (dim 2) cannot use rule embed=model: mesh axis "
                         "'model' is already used by 'mlp' (dim 1)");
}

Test(rules_strict, claim_is_by_rule_order_not_dimension_order)
{
    /* L7: 'foo' is the later dimension but the earlier rule. */
    assert_resolve_fails("foo=model,bar=model,baz=data", "bar,foo,baz", &strict_opts,
                         SS_ERR_RULES,
                         "strict rules: 'bar' (dim 0) cannot use rule bar=model: mesh axis "
                         "'model' is already used by 'foo' (dim 1)");
}

Test(rules_strict, names_the_conflicting_axis_of_a_tuple)
{
    /* L12: b=(data,model) loses on 'model', not 'data'. */
    assert_resolve_fails("a=(model,replica),b=(data,model)", "a,b", &strict_opts, SS_ERR_RULES,
                         "strict rules: 'b' (dim 1) cannot use rule b=(data,model): mesh axis "
                         "'model' is already used by 'a' (dim 0)");
}

Test(rules_strict, claimer_may_be_a_pass_through_tuple)
{
    assert_resolve_fails("a=model", "(data,model),a", &strict_opts, SS_ERR_RULES,
                         "strict rules: 'a' (dim 1) cannot use rule a=model: mesh axis 'model' "
                         "is already used by ('data', 'model') (dim 0)");
}

Test(rules_strict, later_none_rule_is_still_a_loss)
{
    assert_resolve_fails("a=x,b=x,b=None", "a,b", &strict_opts, SS_ERR_RULES,
                         "strict rules: 'b' (dim 1) cannot use rule b=x: mesh axis 'x' is "
                         "already used by 'a' (dim 0)");
}

Test(rules_strict, reports_the_first_lost_rule_of_the_dimension)
{
    assert_resolve_fails("a=x,c=y,b=x,b=y", "a,b,c", &strict_opts, SS_ERR_RULES,
                         "strict rules: 'b' (dim 1) cannot use rule b=x: mesh axis 'x' is "
                         "already used by 'a' (dim 0)");
}

Test(rules_strict, quiet_when_nothing_was_lost)
{
    assert_resolves("foo=data,bar=model,baz=None", "foo,bar,baz,unknown", &strict_opts,
                    "P('data', 'model', None, None)");
    /* L20: 'embed' gets 'model' first time; its second rule is never tried. */
    assert_resolves("batch=data,vocab=model,mlp=model,heads=model,joined_kv=None,kv=None,"
                    "embed=model,embed=data,relpos_buckets=None,length=None,layers=None,"
                    "stack=None",
                    "batch,length,embed", &strict_opts, "P('data', None, 'model')");
}

Test(rules_strict, quiet_when_a_later_rule_recovers)
{
    /* L16-like: 'b' loses 'x' but its next rule gives 'y'. */
    assert_resolves("a=x,b=x,b=y", "a,b", &strict_opts, "P('x', 'y')");
    assert_resolves("a=x,b=x,b=UNCONSTRAINED", "a,b", &strict_opts, "P('x', UNCONSTRAINED)");
}

Test(rules_strict, skipped_because_already_assigned_is_no_loss)
{
    /* L15: a=None claims 'a'; a=model is skipped for that reason only. */
    assert_resolves("a=None,a=model", "a,b", &strict_opts, "P(None, None)");
}

Test(rules_strict, checked_before_the_fallback)
{
    ss_rules_options o = {NULL, 1, SS_FALLBACK_RAISE, NULL};
    assert_resolve_fails("foo=model,bar=model", "foo,bar", &o, SS_ERR_RULES,
                         "strict rules: 'bar' (dim 1) cannot use rule bar=model: mesh axis "
                         "'model' is already used by 'foo' (dim 0)");
}

/* ------------------------------------------------------------------------ */
/* Parsing                                                                   */
/* ------------------------------------------------------------------------ */

static void assert_rule(const ss_rules *r, int i, const char *name, ss_rule_kind kind,
                        int naxes, const char *a0, const char *a1)
{
    cr_assert_lt(i, r->count);
    const ss_rule *x = &r->rules[i];
    cr_assert_str_eq(x->name, name, "rule %d", i);
    cr_assert_eq(x->kind, kind, "rule %d (%s): kind %d, expected %d", i, name, x->kind, kind);
    cr_assert_eq(x->naxes, naxes, "rule %d (%s)", i, name);
    if (a0)
        cr_assert_str_eq(x->axes[0], a0, "rule %d (%s)", i, name);
    if (a1)
        cr_assert_str_eq(x->axes[1], a1, "rule %d (%s)", i, name);
}

Test(rules_parse, every_value_form)
{
    ss_rules r;
    rules_parse_ok("batch=data,hidden=model,kv=None,x=(a,b),y=(),z=UNCONSTRAINED", &r);
    cr_assert_eq(r.count, 6);
    assert_rule(&r, 0, "batch", SS_RULE_AXES, 1, "data", NULL);
    assert_rule(&r, 1, "hidden", SS_RULE_AXES, 1, "model", NULL);
    assert_rule(&r, 2, "kv", SS_RULE_NONE, 0, NULL, NULL);
    assert_rule(&r, 3, "x", SS_RULE_AXES, 2, "a", "b");
    assert_rule(&r, 4, "y", SS_RULE_EMPTY, 0, NULL, NULL);
    assert_rule(&r, 5, "z", SS_RULE_UNCONSTRAINED, 0, NULL, NULL);
    ss_rules_free(&r);
    cr_assert_eq(r.count, 0);
    cr_assert_null(r.rules);
}

Test(rules_parse, whitespace_separators_quotes_and_brackets)
{
    ss_rules r;
    rules_parse_ok("  embed = 'model'\n  embed=data\tx = [ \"a\" , b , ]  mlp: P.UNCONSTRAINED ,"
                   " one=(m,) e=[] ,",
                   &r);
    cr_assert_eq(r.count, 6);
    assert_rule(&r, 0, "embed", SS_RULE_AXES, 1, "model", NULL);
    assert_rule(&r, 1, "embed", SS_RULE_AXES, 1, "data", NULL);
    assert_rule(&r, 2, "x", SS_RULE_AXES, 2, "a", "b");
    assert_rule(&r, 3, "mlp", SS_RULE_UNCONSTRAINED, 0, NULL, NULL);
    assert_rule(&r, 4, "one", SS_RULE_AXES, 1, "m", NULL);
    assert_rule(&r, 5, "e", SS_RULE_EMPTY, 0, NULL, NULL);
    ss_rules_free(&r);
}

Test(rules_parse, quoted_keywords_are_names)
{
    ss_rules r;
    rules_parse_ok("a='None',b=\"UNCONSTRAINED\",c=None_axis", &r);
    assert_rule(&r, 0, "a", SS_RULE_AXES, 1, "None", NULL);
    assert_rule(&r, 1, "b", SS_RULE_AXES, 1, "UNCONSTRAINED", NULL);
    assert_rule(&r, 2, "c", SS_RULE_AXES, 1, "None_axis", NULL);
    ss_rules_free(&r);
}

Test(rules_parse, empty_text_is_no_rules)
{
    ss_rules r;
    rules_parse_ok("", &r);
    cr_assert_eq(r.count, 0);
    ss_rules_free(&r);
    rules_parse_ok("  \n ", &r);
    cr_assert_eq(r.count, 0);
    ss_rules_free(&r);
}

Test(rules_parse, many_rules_grow)
{
    char text[8192];
    size_t len = 0;
    for (int i = 0; i < 200; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, "n%d=ax%d ", i, i % 7);
    ss_rules r;
    rules_parse_ok(text, &r);
    cr_assert_eq(r.count, 200);
    assert_rule(&r, 199, "n199", SS_RULE_AXES, 1, "ax3", NULL);
    ss_rules_free(&r);
}

/* Format parsed rules back to text with the documented syntax. */
static void format_rules(const ss_rules *r, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < r->count; i++) {
        const ss_rule *x = &r->rules[i];
        len += (size_t)snprintf(out + len, cap - len, "%s%s=", i ? " " : "", x->name);
        switch (x->kind) {
        case SS_RULE_NONE:
            len += (size_t)snprintf(out + len, cap - len, "None");
            break;
        case SS_RULE_EMPTY:
            len += (size_t)snprintf(out + len, cap - len, "()");
            break;
        case SS_RULE_UNCONSTRAINED:
            len += (size_t)snprintf(out + len, cap - len, "UNCONSTRAINED");
            break;
        case SS_RULE_AXES:
            len += (size_t)snprintf(out + len, cap - len, "(");
            for (int k = 0; k < x->naxes; k++)
                len += (size_t)snprintf(out + len, cap - len, "%s,", x->axes[k]);
            len += (size_t)snprintf(out + len, cap - len, ")");
            break;
        }
        cr_assert_lt(len, cap);
    }
}

static void assert_same_rules(const ss_rules *a, const ss_rules *b, const char *what)
{
    cr_assert_eq(a->count, b->count, "%s", what);
    for (int i = 0; i < a->count; i++) {
        const ss_rule *x = &a->rules[i], *y = &b->rules[i];
        cr_assert_str_eq(x->name, y->name, "%s: rule %d", what, i);
        cr_assert_eq(x->kind, y->kind, "%s: rule %d", what, i);
        cr_assert_eq(x->naxes, y->naxes, "%s: rule %d", what, i);
        for (int k = 0; k < x->naxes; k++)
            cr_assert_str_eq(x->axes[k], y->axes[k], "%s: rule %d axis %d", what, i, k);
    }
}

Test(rules_parse, round_trips)
{
    static const char *const texts[] = {
        "batch=data,hidden=model,kv=None,x=(a,b),y=(),z=UNCONSTRAINED",
        "embed=model embed=data embed=(fsdp,sequence,context,expert) a=(x,)",
        "activation_batch=(data,fsdp,fsdp_transpose,expert) q_lora=None q_lora=()",
        "",
    };
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
        ss_rules a, b;
        char text[2048];
        rules_parse_ok(texts[t], &a);
        format_rules(&a, text, sizeof text);
        rules_parse_ok(text, &b);
        assert_same_rules(&a, &b, text);
        ss_rules_free(&a);
        ss_rules_free(&b);
    }
}

/* Expect a parse error with exactly `msg`, and an empty result. */
static void assert_parse_fails(const char *text, ss_status code, const char *msg)
{
    ss_rules r = {99, NULL};
    ss_status st = ss_rules_parse(text, &r);
    cr_assert_eq(st, code, "'%s': status %s (%s)", text, ss_status_name(st), ss_error_message());
    cr_assert_str_eq(ss_error_message(), msg);
    cr_assert_eq(r.count, 0);
    cr_assert_null(r.rules);
}

Test(rules_parse_errors, missing_equals)
{
    assert_parse_fails("batch data", SS_ERR_PARSE,
                       "rules 'batch data': expected '=' after 'batch' at column 7");
    assert_parse_fails("a=x,batch", SS_ERR_PARSE,
                       "rules 'a=x,batch': expected '=' after 'batch' at the end");
}

Test(rules_parse_errors, missing_value)
{
    assert_parse_fails("a=,b=x", SS_ERR_PARSE, "rules 'a=,b=x': rule 'a' has no value at column 3");
    assert_parse_fails("a=x,b=", SS_ERR_PARSE, "rules 'a=x,b=': rule 'b' has no value at column 7");
}

Test(rules_parse_errors, missing_name)
{
    assert_parse_fails("=data", SS_ERR_PARSE,
                       "rules '=data': expected a logical name at column 1, found '='");
    assert_parse_fails("a=''", SS_ERR_PARSE, "rules 'a=''': empty name at column 3");
}

Test(rules_parse_errors, empty_rule)
{
    assert_parse_fails("a=x,,b=y", SS_ERR_PARSE, "rules 'a=x,,b=y': empty rule at column 5");
    assert_parse_fails(",a=x", SS_ERR_PARSE, "rules ',a=x': empty rule at column 1");
}

Test(rules_parse_errors, bad_separator)
{
    assert_parse_fails("a=x;b=y", SS_ERR_PARSE,
                       "rules 'a=x;b=y': expected ',' or a space after rule 'a' at column 4");
}

Test(rules_parse_errors, bad_value)
{
    assert_parse_fails("a=;", SS_ERR_PARSE,
                       "rules 'a=;': expected a mesh axis, a tuple, None or UNCONSTRAINED at "
                       "column 3, found ';'");
}

Test(rules_parse_errors, tuples)
{
    assert_parse_fails("a=(x,(y))", SS_ERR_PARSE, "rules 'a=(x,(y))': nested tuple at column 6");
    assert_parse_fails("a=(x,y", SS_ERR_PARSE,
                       "rules 'a=(x,y': the tuple opened at column 3 is not closed");
    assert_parse_fails("a=(x y)", SS_ERR_PARSE, "rules 'a=(x y)': expected ',' or ')' at column 6");
    assert_parse_fails("a=(x,None)", SS_ERR_PARSE,
                       "rules 'a=(x,None)': a tuple may hold only mesh axis names; None at "
                       "column 6");
    assert_parse_fails("a=[UNCONSTRAINED]", SS_ERR_PARSE,
                       "rules 'a=[UNCONSTRAINED]': a tuple may hold only mesh axis names; "
                       "UNCONSTRAINED at column 4");
}

/* A tuple of SS_MAX_AXES axes parses; one more is the limit's error. */
Test(rules_parse_errors, tuple_at_and_past_the_axes_limit)
{
    char text[16 * (SS_MAX_AXES + 2)] = "a=(", msg[sizeof text + 128];
    for (int k = 0; k < SS_MAX_AXES; k++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%sx%d", k ? "," : "", k);
    strcat(text, ")");
    ss_rules r;
    cr_assert_eq(ss_rules_parse(text, &r), SS_OK, "%s", ss_error_message());
    cr_assert_eq(r.count, 1);
    cr_assert_eq(r.rules[0].naxes, SS_MAX_AXES);
    snprintf(msg, sizeof msg, "x%d", SS_MAX_AXES - 1);
    cr_assert_str_eq(r.rules[0].axes[SS_MAX_AXES - 1], msg);
    ss_rules_free(&r);
    text[strlen(text) - 1] = '\0';
    strcat(text, ",y)");
    snprintf(msg, sizeof msg,
             "rules '%s': more than %d axes in the tuple at column 3 (SS_MAX_AXES)", text,
             SS_MAX_AXES);
    assert_parse_fails(text, SS_ERR_PARSE, msg);
}

Test(rules_parse_errors, quotes_and_lengths)
{
    assert_parse_fails("a='x", SS_ERR_PARSE, "rules 'a='x': unterminated quote at column 3");
}

/* Names have no length limit: MaxText's long logical names, and one of
 * 5000 bytes, bare and quoted, parse back to their text. */
Test(rules_parse, names_of_any_length)
{
    ss_rules r;
    cr_assert_eq(ss_rules_parse("activation_embed_and_logits_batch=(data,stage,fsdp,"
                                "fsdp_transpose,expert) 'activation_length_no_exp'=sequence",
                                &r),
                 SS_OK, "%s", ss_error_message());
    cr_assert_eq(r.count, 2);
    cr_assert_str_eq(r.rules[0].name, "activation_embed_and_logits_batch");
    cr_assert_eq(r.rules[0].naxes, 5);
    cr_assert_str_eq(r.rules[0].axes[3], "fsdp_transpose");
    cr_assert_str_eq(r.rules[1].name, "activation_length_no_exp");
    ss_rules_free(&r);
    enum { N = 5000 };
    char *text = malloc(2 * N + 16);
    cr_assert_not_null(text);
    text[0] = '\'';
    for (int i = 0; i < N; i++)
        text[1 + i] = (char)('a' + i % 26);
    strcpy(text + 1 + N, "'=");
    memcpy(text + 3 + N, text + 1, N);
    text[3 + 2 * N] = '\0';
    cr_assert_eq(ss_rules_parse(text, &r), SS_OK, "%s", ss_error_message());
    cr_assert_eq(strlen(r.rules[0].name), (size_t)N);
    cr_assert_eq(strlen(r.rules[0].axes[0]), (size_t)N);
    cr_assert_eq(strncmp(r.rules[0].axes[0], text + 1, N), 0);
    ss_rules_free(&r);
    free(text);
}

Test(rules_parse_errors, null_arguments)
{
    ss_rules r;
    cr_assert_eq(ss_rules_parse(NULL, &r), SS_ERR_INVALID);
    cr_assert_eq(r.count, 0);
    cr_assert_eq(ss_rules_parse("a=x", NULL), SS_ERR_INVALID);
    ss_rules_free(NULL);
}
