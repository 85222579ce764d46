/* test_spec.c — PartitionSpec parsing, canonicalisation and repr. */
#include "support.h"

#include <criterion/criterion.h>
#include <string.h>

static void roundtrip(const char *in, const char *repr)
{
    ss_spec s;
    char buf[256];
    cr_assert_eq(ss_spec_parse(in, &s), SS_OK, "'%s': %s", in, ss_error_message());
    cr_assert_eq(ss_spec_repr(&s, buf, sizeof buf), SS_OK);
    cr_assert_str_eq(buf, repr, "'%s' printed as '%s', expected '%s'", in, buf, repr);
}

Test(spec, jax_reprs)
{
    roundtrip("P('data', None)", "P('data', None)");
    roundtrip("P('x')", "P('x',)");
    roundtrip("P()", "P()");
    roundtrip("P(('x', 'y'))", "P(('x', 'y'),)");
    roundtrip("PartitionSpec(('x','y'), None)", "P(('x', 'y'), None)");
    roundtrip("P(\"x\", UNCONSTRAINED)", "P('x', UNCONSTRAINED)");
    roundtrip("P(P.UNCONSTRAINED)", "P(UNCONSTRAINED,)");
}

Test(spec, short_forms)
{
    roundtrip("data,None", "P('data', None)");
    roundtrip("(data,model),None", "P(('data', 'model'), None)");
    roundtrip("", "P()");
    roundtrip("  x ", "P('x',)");
}

Test(spec, canonicalisation)
{
    roundtrip("P(('x',), None)", "P('x', None)");
    roundtrip("P((), 'x')", "P(None, 'x')");
    roundtrip("P('', 'x')", "P(None, 'x')");
    roundtrip("P(['a', 'b'])", "P(('a', 'b'),)");
    ss_spec a, b;
    ss_spec_parse("P('x')", &a);
    ss_spec_parse("P('x', None, None)", &b);
    cr_assert(ss_spec_equal(&a, &b), "trailing Nones are implied");
    ss_spec_parse("P(None, 'x')", &b);
    cr_assert_not(ss_spec_equal(&a, &b));
}

Test(spec, nested_tuple_error)
{
    ss_spec s;
    cr_assert_eq(ss_spec_parse("P(('x', ('y', 'z')))", &s), SS_ERR_PARSE);
    cr_assert(strstr(ss_error_message(),
                     "A tuple inside PartitionSpec cannot contain a nested tuple. Got partition: "
                     "('x', ('y', 'z')) and the nested tuple: ('y', 'z')"),
              "%s", ss_error_message());
}

Test(spec, parse_errors)
{
    ss_spec s;
    cr_assert_eq(ss_spec_parse("P('x'", &s), SS_ERR_PARSE);
    cr_assert_eq(ss_spec_parse("P('x) ", &s), SS_ERR_PARSE);
    cr_assert(strstr(ss_error_message(), "unterminated quote"));
    cr_assert_eq(ss_spec_parse("x,,y", &s), SS_ERR_PARSE);
    cr_assert_eq(ss_spec_parse("P(x) trailing", &s), SS_ERR_PARSE);
    cr_assert_eq(ss_spec_parse("a,b,c,d,e,f,g,h,i", &s), SS_ERR_PARSE);
}

Test(spec, builders)
{
    ss_spec s;
    memset(&s, 0, sizeof s);
    const char *ax[2] = {"x", "y"};
    cr_assert_eq(ss_spec_set_axes(&s, 1, 2, ax), SS_OK);
    char buf[64];
    ss_spec_repr(&s, buf, sizeof buf);
    cr_assert_str_eq(buf, "P(None, ('x', 'y'))");
    cr_assert_eq(ss_spec_set_none(&s, SS_MAX_RANK), SS_ERR_RANGE);
}
