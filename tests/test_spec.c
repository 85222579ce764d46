/* test_spec.c — PartitionSpec parsing, canonicalisation and repr. */
#include "support.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
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

/* --- Names with quotes, backslashes and non-ASCII: Python's repr, parsed back ---------- */

/* Each expected text is Python 3.11's repr() of the name (str.isprintable
 * decides which non-ASCII characters stay as they are), as C bytes. */
static const struct {
    const char *name, *repr;
} py_reprs[] = {
    {"data", "'data'"},
    {"a'b", "\"a'b\""},
    {"a\"b", "'a\"b'"},
    {"a'b\"c", "'a\\'b\"c'"},
    {"back\\slash", "'back\\\\slash'"},
    {"tab\011here", "'tab\\there'"},
    {"nl\012x", "'nl\\nx'"},
    {"cr\015x", "'cr\\rx'"},
    {"bell\007", "'bell\\x07'"},
    {"del\177", "'del\\x7f'"},
    {"caf\303\251", "'caf\303\251'"},
    {"nb\302\240sp", "'nb\\xa0sp'"},
    {"soft\302\255hy", "'soft\\xadhy'"},
    {"zw\342\200\213sp", "'zw\\u200bsp'"},
    {"ls\342\200\250x", "'ls\\u2028x'"},
    {"pua\356\200\200", "'pua\\ue000'"},
    {"smile\360\237\230\200", "'smile\360\237\230\200'"},
    {"tag\363\240\200\201", "'tag\\U000e0001'"},
    {"un\315\270x", "'un\\u0378x'"},
    {"\344\270\255\346\226\207", "'\344\270\255\346\226\207'"},
    {"q'\\", "\"q'\\\\\""},
    {"\\'", "\"\\\\'\""},
    {"'", "\"'\""},
    {"\"", "'\"'"},
    {"''\"\"", "'\\'\\'\"\"'"},
};

Test(spec, names_print_as_pythons_repr_and_parse_back)
{
    for (size_t i = 0; i < sizeof py_reprs / sizeof py_reprs[0]; i++) {
        ss_spec s = {0}, back;
        const char *axes[1] = {py_reprs[i].name};
        cr_assert_eq(ss_spec_set_axes(&s, 0, 1, axes), SS_OK);
        char want[128], got[256];
        snprintf(want, sizeof want, "P(%s,)", py_reprs[i].repr);
        cr_assert_eq(ss_spec_repr(&s, got, sizeof got), SS_OK);
        cr_assert_str_eq(got, want, "repr of name %zu", i);
        cr_assert_eq(ss_spec_parse(got, &back), SS_OK, "%s: %s", got, ss_error_message());
        cr_assert(ss_spec_equal(&s, &back), "%s parsed back as something else", got);
        cr_assert_str_eq(back.dims[0].axes[0], py_reprs[i].name);
    }
}

Test(spec, python_string_literals_parse_as_python_reads_them)
{
    static const struct {
        const char *text, *name;
    } cases[] = {
        {"P('a\\'b')", "a'b"},          {"P(\"a'b\")", "a'b"},
        {"P('\\x41\\u00e9')", "A\303\251"}, {"P('\\U0001f600')", "\360\237\230\200"},
        {"P('\\q')", "\\q"},            /* Python keeps an unknown escape */
        {"P('\\101')", "A"},            {"P('a\\\\b')", "a\\b"},
        {"P('\\t')", "\t"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ss_spec s;
        cr_assert_eq(ss_spec_parse(cases[i].text, &s), SS_OK, "%s: %s", cases[i].text,
                     ss_error_message());
        cr_assert_str_eq(s.dims[0].axes[0], cases[i].name, "%s", cases[i].text);
    }
    ss_spec s;
    cr_assert_eq(ss_spec_parse("P('\\x4')", &s), SS_ERR_PARSE);
    cr_assert(strstr(ss_error_message(), "truncated \\xXX escape"), "%s", ss_error_message());
    cr_assert_eq(ss_spec_parse("P('\\x00')", &s), SS_ERR_PARSE);
    cr_assert_eq(ss_spec_parse("P('\\ud800')", &s), SS_ERR_PARSE);
    cr_assert_eq(ss_spec_parse("P('\377')", &s), SS_ERR_PARSE);
    cr_assert(strstr(ss_error_message(), "invalid UTF-8"), "%s", ss_error_message());
    cr_assert_eq(ss_spec_parse("P('a\\')", &s), SS_ERR_PARSE);
    cr_assert(strstr(ss_error_message(), "unterminated quote"), "%s", ss_error_message());
}

/* Many generated names over an alphabet of awkward characters: the repr
 * parses back to the same spec (and so does the mesh tuple a message
 * prints, checked through a NamedSharding error). */
Test(spec, generated_names_round_trip)
{
    static const char *const alphabet[] = {"a",  "Z",  "_",  "'",  "\"", "\\", " ",  ",",  "(",
                                           ")",  "\t", "\n", "\x01", "\x7f", "\303\251",
                                           "\302\240", "\342\200\213", "\344\270\255",
                                           "\360\237\230\200", "\363\240\200\201", "#", "="};
    int nalpha = (int)(sizeof alphabet / sizeof alphabet[0]);
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (int iter = 0; iter < 2000; iter++) {
        ss_spec s = {0}, back;
        enum { NAME_CAP = 32 };
        char names[3][NAME_CAP];
        for (int k = 0; k < 3; k++) {
            size_t len = 0;
            x = x * 6364136223846793005u + 1442695040888963407u;
            int want = 1 + (int)((x >> 33) % 8);
            for (int c = 0; c < want; c++) {
                x = x * 6364136223846793005u + 1442695040888963407u;
                const char *piece = alphabet[(x >> 33) % (uint64_t)nalpha];
                if (len + strlen(piece) >= NAME_CAP)
                    break;
                memcpy(names[k] + len, piece, strlen(piece));
                len += strlen(piece);
            }
            names[k][len] = '\0';
        }
        if (!strcmp(names[0], names[1]) || !strcmp(names[0], names[2]) ||
            !strcmp(names[1], names[2]))
            continue;
        const char *tuple[2] = {names[1], names[2]};
        const char *one[1] = {names[0]};
        cr_assert_eq(ss_spec_set_axes(&s, 0, 1, one), SS_OK);
        cr_assert_eq(ss_spec_set_none(&s, 1), SS_OK);
        cr_assert_eq(ss_spec_set_axes(&s, 2, 2, tuple), SS_OK);
        char text[1024];
        cr_assert_eq(ss_spec_repr(&s, text, sizeof text), SS_OK);
        cr_assert_eq(ss_spec_parse(text, &back), SS_OK, "%s: %s", text, ss_error_message());
        cr_assert(ss_spec_equal(&s, &back), "%s parsed back as something else", text);
    }
}

/* JAX's messages quote mesh names with Python's repr (a tuple of names);
 * Mesh.__repr__ quotes them with an f-string, '{k}', escaping nothing. */
Test(spec, mesh_repr_and_messages_quote_names_as_python)
{
    const char *names[2] = {"a'b", "c\"d'e"};
    int64_t sizes[2] = {2, 4};
    ss_mesh *m;
    cr_assert_eq(ss_mesh_create(2, names, sizes, 8, NULL, &m), SS_OK, "%s", ss_error_message());
    char buf[256];
    cr_assert_eq(ss_mesh_repr(m, 0, buf, sizeof buf), SS_OK);
    cr_assert_str_eq(buf, "Mesh('a'b': 2, 'c\"d'e': 4)");
    ss_spec spec;
    cr_assert_eq(ss_spec_parse("P('z')", &spec), SS_OK);
    ss_sharding sh;
    ss_sharding_init(&sh, m, &spec);
    cr_assert_eq(ss_sharding_validate(&sh), SS_ERR_AXIS);
    cr_assert_str_eq(ss_error_message(),
                     "Resource axis: z of P('z',) is not found in mesh: (\"a'b\", 'c\"d\\'e').");
    ss_mesh_destroy(m);
}

/* SS_MAX_RANK entries and SS_MAX_AXES axes in one entry parse; one more of
 * either is an error naming the limit. Names of any length read back. */
Test(spec, limits_at_and_past)
{
    char text[64 * (SS_MAX_RANK + SS_MAX_AXES + 4)] = "P(", msg[sizeof text + 128];
    for (int d = 0; d < SS_MAX_RANK; d++)
        strcat(text, d ? ", None" : "None");
    strcat(text, ")");
    ss_spec s;
    cr_assert_eq(ss_spec_parse(text, &s), SS_OK, "%s", ss_error_message());
    cr_assert_eq(s.ndims, SS_MAX_RANK);
    text[strlen(text) - 1] = '\0';
    strcat(text, ", 'x')");
    cr_assert_eq(ss_spec_parse(text, &s), SS_ERR_PARSE);
    snprintf(msg, sizeof msg, "spec '%s': more than %d dimensions (SS_MAX_RANK)", text,
             SS_MAX_RANK);
    cr_assert_str_eq(ss_error_message(), msg);

    strcpy(text, "P((");
    for (int k = 0; k < SS_MAX_AXES; k++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s'axis_%d'", k ? ", " : "",
                 k);
    strcat(text, "),)");
    cr_assert_eq(ss_spec_parse(text, &s), SS_OK, "%s", ss_error_message());
    cr_assert_eq(s.dims[0].naxes, SS_MAX_AXES);
    text[strlen(text) - 3] = '\0';
    strcat(text, ", 'more'),)");
    cr_assert_eq(ss_spec_parse(text, &s), SS_ERR_PARSE);
    snprintf(msg, sizeof msg, "spec '%s': more than %d axes in one entry (SS_MAX_AXES)", text,
             SS_MAX_AXES);
    cr_assert_str_eq(ss_error_message(), msg);

    const char *too_many[SS_MAX_AXES + 1];
    for (int k = 0; k <= SS_MAX_AXES; k++)
        too_many[k] = "a";
    cr_assert_eq(ss_spec_set_axes(&s, 0, SS_MAX_AXES + 1, too_many), SS_ERR_RANGE);
    cr_assert_eq(ss_spec_set_none(&s, SS_MAX_RANK), SS_ERR_RANGE);
    cr_assert_eq(ss_spec_set_none(&s, SS_MAX_RANK - 1), SS_OK);
}

Test(spec, names_of_any_length)
{
    roundtrip("P('activation_embed_and_logits_batch', ('fsdp_transpose', "
              "'context_autoregressive'))",
              "P('activation_embed_and_logits_batch', ('fsdp_transpose', "
              "'context_autoregressive'))");
    enum { N = 3000 };
    char *name = malloc(N + 1), *text = malloc(N + 16);
    cr_assert(name && text);
    for (int i = 0; i < N; i++)
        name[i] = (char)('a' + i % 26);
    name[N] = '\0';
    snprintf(text, N + 16, "P('%s',)", name);
    ss_spec s;
    cr_assert_eq(ss_spec_parse(text, &s), SS_OK, "%s", ss_error_message());
    cr_assert_str_eq(s.dims[0].axes[0], name);
    const char *a, *b;
    cr_assert_eq(ss_name_intern(name, &a), SS_OK);
    cr_assert_eq(ss_name_intern(s.dims[0].axes[0], &b), SS_OK);
    cr_assert_eq(a, b, "equal names intern to one pointer");
    cr_assert_eq(a, s.dims[0].axes[0], "the parser stores the pool's copy");
    free(name);
    free(text);
}
