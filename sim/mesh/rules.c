/*
 * rules.c — logical axis rules: parsing the rule text and resolving logical
 * dimension names to mesh axes as Flax Linen's logical_to_mesh_axes and
 * with_logical_constraint do, optionally followed by MaxText's removal of
 * size-1 mesh axes.
 *
 * The resolution, in Flax's order (docs/semantics.md section 7):
 *   1. A logical name that occurs in two dimensions is an error; None and
 *      UNCONSTRAINED entries may repeat.
 *   2. Entries that are not logical names (None, UNCONSTRAINED, a tuple of
 *      mesh axes) are copied through and never looked up; the axes of a
 *      copied tuple count as used.
 *   3. The rules are walked in their own order (rule order is priority, not
 *      dimension order). A rule applies to the dimension carrying its name
 *      when that dimension is still unassigned and none of the rule's mesh
 *      axes is used by any dimension so far; a tuple value is taken whole or
 *      not at all. A rule that does not apply falls through to later rules of
 *      the same name. None, () and UNCONSTRAINED values use no axis.
 *   4. A dimension no rule assigned is None (AXIS_IS_UNSHARDED), an error
 *      (RAISE_ERROR) or the end of the constraint (NO_CONSTRAINT).
 * Empty rules make with_logical_constraint a no-op: the spec is still
 * computed (every logical name None) but *constrained is 0.
 *
 * Two additions of ours: strict mode (a dimension that lost its rule to an
 * axis claimed elsewhere and ended up None is an error naming both sides),
 * and, with a mesh, JAX's check that every resolved axis is in the mesh
 * (NamedSharding's error) and MaxText's remove_size_one_mesh_axis after
 * Flax's step.
 * Strict mode is checked before the fallback, and both before the mesh step,
 * so a size-1 axis still claims its dimension the way it does in MaxText.
 *
 * What this file does not do: validate the result as a sharding of an array
 * (duplicates, divisibility: a NamedSharding built from it does that), or keep a thread-local
 * rules context as Flax does; the rules are always passed in. On failure
 * ss_rules_resolve leaves *out and *constrained untouched.
 */
#include "mesh_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Parsing                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct parser {
    const char *text;
    const char *p;
} parser;

static int col(const parser *ps) { return (int)(ps->p - ps->text) + 1; }

static void skip_ws(parser *ps)
{
    while (isspace((unsigned char)*ps->p))
        ps->p++;
}

static bool is_name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

/* A bare keyword at ps->p, not followed by more name characters. */
static bool take_word(parser *ps, const char *word)
{
    size_t n = strlen(word);
    if (strncmp(ps->p, word, n) != 0 || is_name_char(ps->p[n]))
        return false;
    ps->p += n;
    return true;
}

/* One name of any length, quoted ('x' or "x") or bare; `what` says what
 * was expected ("a logical name", "a mesh axis name") for the error. *out
 * is the pool's copy. */
static ss_status parse_name(parser *ps, const char *what, const char **out)
{
    const char *start = ps->p;
    int at = col(ps);
    size_t len = 0;
    if (*ps->p == '\'' || *ps->p == '"') {
        const char *end, *why = ss__py_str_intern(ps->p, out, &end);
        if (why && strcmp(why, "unterminated string") == 0)
            return ss__fail(SS_ERR_PARSE, "rules '%s': unterminated quote at column %d",
                            ps->text, at);
        if (why && strcmp(why, "out of host memory") == 0)
            return ss__fail(SS_ERR_NOMEM, "rules: out of host memory for a name");
        if (why)
            return ss__fail(SS_ERR_PARSE, "rules '%s': %s at column %d", ps->text, why,
                            (int)(end - ps->text) + 1);
        ps->p = end;
        if (!(*out)[0])
            return ss__fail(SS_ERR_PARSE, "rules '%s': empty name at column %d", ps->text, at);
        return SS_OK;
    }
    while (is_name_char(start[len]))
        len++;
    if (len == 0) {
        if (!*ps->p)
            return ss__fail(SS_ERR_PARSE, "rules '%s': expected %s at the end", ps->text, what);
        return ss__fail(SS_ERR_PARSE, "rules '%s': expected %s at column %d, found '%c'",
                        ps->text, what, at, *ps->p);
    }
    ps->p = start + len;
    return ss__name_intern_n(start, len, out);
}

/* A tuple value "(a, b)" or "[a, b]"; ps->p is at the opening bracket.
 * () is SS_RULE_EMPTY; a 1-tuple is the same as the bare axis. */
static ss_status parse_tuple(parser *ps, ss_rule *r)
{
    int open_col = col(ps);
    char close = *ps->p == '(' ? ')' : ']';
    ps->p++;
    r->naxes = 0;
    for (;;) {
        skip_ws(ps);
        if (*ps->p == close) {
            ps->p++;
            break;
        }
        if (!*ps->p)
            return ss__fail(SS_ERR_PARSE,
                            "rules '%s': the tuple opened at column %d is not closed", ps->text,
                            open_col);
        if (*ps->p == '(' || *ps->p == '[')
            return ss__fail(SS_ERR_PARSE, "rules '%s': nested tuple at column %d", ps->text,
                            col(ps));
        {
            parser look = *ps;
            if (take_word(&look, "None") || take_word(&look, "UNCONSTRAINED"))
                return ss__fail(SS_ERR_PARSE,
                                "rules '%s': a tuple may hold only mesh axis names; %.*s at "
                                "column %d",
                                ps->text, (int)(look.p - ps->p), ps->p, col(ps));
        }
        if (r->naxes == SS_MAX_AXES)
            return ss__fail(SS_ERR_PARSE,
                            "rules '%s': more than %d axes in the tuple at column %d (SS_MAX_AXES)", ps->text,
                            SS_MAX_AXES, open_col);
        ss_status st = parse_name(ps, "a mesh axis name", &r->axes[r->naxes]);
        if (st)
            return st;
        r->naxes++;
        skip_ws(ps);
        if (*ps->p == ',') {
            ps->p++;
        } else if (*ps->p != close) {
            if (!*ps->p)
                return ss__fail(SS_ERR_PARSE,
                                "rules '%s': the tuple opened at column %d is not closed",
                                ps->text, open_col);
            return ss__fail(SS_ERR_PARSE, "rules '%s': expected ',' or '%c' at column %d",
                            ps->text, close, col(ps));
        }
    }
    r->kind = r->naxes ? SS_RULE_AXES : SS_RULE_EMPTY;
    return SS_OK;
}

static ss_status parse_value(parser *ps, ss_rule *r)
{
    static const char *const unconstrained[] = {"P.UNCONSTRAINED",
                                                "PartitionSpec.UNCONSTRAINED", "UNCONSTRAINED"};
    if (*ps->p == '(' || *ps->p == '[')
        return parse_tuple(ps, r);
    if (take_word(ps, "None")) {
        r->kind = SS_RULE_NONE;
        return SS_OK;
    }
    for (size_t i = 0; i < sizeof unconstrained / sizeof unconstrained[0]; i++) {
        if (take_word(ps, unconstrained[i])) {
            r->kind = SS_RULE_UNCONSTRAINED;
            return SS_OK;
        }
    }
    ss_status st = parse_name(ps, "a mesh axis, a tuple, None or UNCONSTRAINED", &r->axes[0]);
    if (st)
        return st;
    r->kind = SS_RULE_AXES;
    r->naxes = 1;
    return SS_OK;
}

/* "name=value" (or "name: value"). */
static ss_status parse_rule(parser *ps, ss_rule *r)
{
    memset(r, 0, sizeof *r);
    ss_status st = parse_name(ps, "a logical name", &r->name);
    if (st)
        return st;
    skip_ws(ps);
    if (*ps->p != '=' && *ps->p != ':') {
        if (!*ps->p)
            return ss__fail(SS_ERR_PARSE, "rules '%s': expected '=' after '%s' at the end",
                            ps->text, r->name);
        return ss__fail(SS_ERR_PARSE, "rules '%s': expected '=' after '%s' at column %d",
                        ps->text, r->name, col(ps));
    }
    ps->p++;
    skip_ws(ps);
    if (!*ps->p || *ps->p == ',')
        return ss__fail(SS_ERR_PARSE, "rules '%s': rule '%s' has no value at column %d",
                        ps->text, r->name, col(ps));
    return parse_value(ps, r);
}

ss_status ss_rules_parse(const char *text, ss_rules *out)
{
    if (!out)
        return ss__fail(SS_ERR_INVALID, "ss_rules_parse: out is NULL");
    out->count = 0;
    out->rules = NULL;
    if (!text)
        return ss__fail(SS_ERR_INVALID, "ss_rules_parse: text is NULL");

    parser ps = {text, text};
    int cap = 0;
    ss_status st = SS_OK;
    skip_ws(&ps);
    while (*ps.p) {
        if (*ps.p == ',') {
            st = ss__fail(SS_ERR_PARSE, "rules '%s': empty rule at column %d", text, col(&ps));
            break;
        }
        if (out->count == cap) {
            int ncap = cap ? cap * 2 : 8;
            ss_rule *grown = realloc(out->rules, (size_t)ncap * sizeof *grown);
            if (!grown) {
                st = ss__fail(SS_ERR_NOMEM, "rules: out of host memory for %d rules", ncap);
                break;
            }
            out->rules = grown;
            cap = ncap;
        }
        st = parse_rule(&ps, &out->rules[out->count]);
        if (st)
            break;
        out->count++;
        /* Separator: whitespace, a comma, or both; a trailing comma is allowed. */
        const char *before = ps.p;
        skip_ws(&ps);
        if (*ps.p == ',') {
            ps.p++;
            skip_ws(&ps);
        } else if (*ps.p && ps.p == before) {
            st = ss__fail(SS_ERR_PARSE,
                          "rules '%s': expected ',' or a space after rule '%s' at column %d",
                          text, out->rules[out->count - 1].name, col(&ps));
            break;
        }
    }
    if (st)
        ss_rules_free(out);
    return st;
}

void ss_rules_free(ss_rules *rules)
{
    if (!rules)
        return;
    free(rules->rules);
    rules->rules = NULL;
    rules->count = 0;
}

/* ------------------------------------------------------------------------ */
/* Message helpers                                                           */
/* ------------------------------------------------------------------------ */

/* The names spec as the Python tuple Flax formats: ('foo', 'bar'), ('foo',). */
static void names_py_repr(ss__buf *b, const ss_spec *names)
{
    ss__buf_putc(b, '(');
    for (int d = 0; d < names->ndims; d++) {
        if (d)
            ss__buf_puts(b, ", ");
        ss__spec_dim_repr_buf(b, &names->dims[d]);
    }
    if (names->ndims == 1)
        ss__buf_putc(b, ',');
    ss__buf_putc(b, ')');
}

/* A name as the rule syntax reads it back: bare when it is a plain word,
 * else quoted as Python would ('a b', "a'b"). */
static void rule_name(ss__buf *b, const char *name)
{
    bool bare = name[0] && strcmp(name, "None") != 0 && strcmp(name, "UNCONSTRAINED") != 0;
    for (const char *c = name; *c && bare; c++)
        bare = is_name_char(*c);
    if (bare)
        ss__buf_puts(b, name);
    else
        ss__buf_py_repr(b, name);
}

/* A rule in the parser's syntax: embed=model, x=(a,b), kv=None, y=(). */
static void rule_text(ss__buf *b, const ss_rule *r)
{
    rule_name(b, r->name);
    ss__buf_putc(b, '=');
    switch (r->kind) {
    case SS_RULE_NONE:
        ss__buf_puts(b, "None");
        break;
    case SS_RULE_UNCONSTRAINED:
        ss__buf_puts(b, "UNCONSTRAINED");
        break;
    case SS_RULE_EMPTY:
        ss__buf_puts(b, "()");
        break;
    case SS_RULE_AXES:
        if (r->naxes == 1) {
            rule_name(b, r->axes[0]);
        } else {
            ss__buf_putc(b, '(');
            for (int k = 0; k < r->naxes; k++) {
                if (k)
                    ss__buf_putc(b, ',');
                rule_name(b, r->axes[k]);
            }
            ss__buf_putc(b, ')');
        }
        break;
    }
}

/* Fail with the buffer's text (or a fixed text if the buffer ran out of
 * memory), freeing the buffer. */
static ss_status fail_with_buf(ss_status st, ss__buf *b)
{
    if (b->oom) {
        ss__buf_free(b);
        return ss__fail(SS_ERR_NOMEM, "rules: out of host memory while formatting an error");
    }
    st = ss__fail(st, "%s", b->data ? b->data : "");
    ss__buf_free(b);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Resolution                                                                */
/* ------------------------------------------------------------------------ */

static bool is_logical_name(const ss_spec_dim *d) { return !d->unconstrained && d->naxes == 1; }

static bool name_ok(const char *s) { return s != NULL; }

static ss_status check_inputs(const ss_rules *rules, const ss_spec *names)
{
    if (names->ndims < 0 || names->ndims > SS_MAX_RANK)
        return ss__fail(SS_ERR_INVALID, "rules: names spec has %d dimensions; at most %d (SS_MAX_RANK)",
                        names->ndims, SS_MAX_RANK);
    for (int d = 0; d < names->ndims; d++) {
        const ss_spec_dim *e = &names->dims[d];
        if (e->naxes < 0 || e->naxes > SS_MAX_AXES)
            return ss__fail(SS_ERR_INVALID, "rules: names entry %d has %d axes", d, e->naxes);
        for (int k = 0; k < e->naxes; k++)
            if (!name_ok(e->axes[k]))
                return ss__fail(SS_ERR_INVALID, "rules: names entry %d has a NULL axis name", d);
    }
    if (rules->count < 0 || (rules->count > 0 && !rules->rules))
        return ss__fail(SS_ERR_INVALID, "rules: invalid rule list (count %d)", rules->count);
    for (int i = 0; i < rules->count; i++) {
        const ss_rule *r = &rules->rules[i];
        if (!name_ok(r->name))
            return ss__fail(SS_ERR_INVALID, "rules: the name of rule %d is NULL", i);
        switch (r->kind) {
        case SS_RULE_AXES:
            if (r->naxes < 1 || r->naxes > SS_MAX_AXES)
                return ss__fail(SS_ERR_INVALID, "rules: rule %d ('%s') has %d axes", i, r->name,
                                r->naxes);
            for (int k = 0; k < r->naxes; k++)
                if (!name_ok(r->axes[k]))
                    return ss__fail(SS_ERR_INVALID, "rules: an axis of rule %d is NULL",
                                    i);
            break;
        case SS_RULE_NONE:
        case SS_RULE_EMPTY:
        case SS_RULE_UNCONSTRAINED:
            break;
        default:
            return ss__fail(SS_ERR_INVALID, "rules: rule %d ('%s') has unknown kind %d", i,
                            r->name, (int)r->kind);
        }
    }
    return SS_OK;
}

/* Flax's duplicate check: every logical name occurring in more than one
 * dimension, listed once each in order of first occurrence. */
static ss_status check_duplicates(const ss_spec *names)
{
    int dups[SS_MAX_RANK];
    int ndups = 0;
    for (int d = 0; d < names->ndims; d++) {
        const ss_spec_dim *e = &names->dims[d];
        if (!is_logical_name(e))
            continue;
        bool first = true, repeated = false;
        for (int j = 0; j < names->ndims; j++) {
            if (j == d || !is_logical_name(&names->dims[j]) ||
                strcmp(names->dims[j].axes[0], e->axes[0]) != 0)
                continue;
            if (j < d)
                first = false;
            repeated = true;
        }
        if (repeated && first)
            dups[ndups++] = d;
    }
    if (ndups == 0)
        return SS_OK;
    ss__buf b;
    ss__buf_init(&b);
    ss__buf_puts(&b, "Unsupported: Dimensions (");
    for (int i = 0; i < ndups; i++) {
        if (i)
            ss__buf_puts(&b, ", ");
        ss__buf_py_repr(&b, names->dims[dups[i]].axes[0]);
    }
    ss__buf_puts(&b, ndups == 1 ? ",) occur more than once in array names."
                                : ") occur more than once in array names.");
    return fail_with_buf(SS_ERR_RULES, &b);
}

/* What the walk knows about one dimension. */
typedef struct dim_state {
    bool logical;      /* a logical name, looked up in the rules */
    bool assigned;     /* a rule (or pass-through) fixed its value */
    int lost_rule;     /* first rule refused for an axis conflict, or -1 */
    int lost_axis;     /* index into that rule's axes of the conflicting axis */
    int lost_to;       /* the dimension that held that axis */
} dim_state;

/* The dimension whose value uses mesh axis `axis`, or -1. */
static int axis_owner(const ss_spec *res, const dim_state st[], const char *axis)
{
    for (int d = 0; d < res->ndims; d++) {
        if (!st[d].assigned)
            continue;
        for (int k = 0; k < res->dims[d].naxes; k++)
            if (strcmp(res->dims[d].axes[k], axis) == 0)
                return d;
    }
    return -1;
}

static void assign_rule(ss_spec_dim *d, const ss_rule *r)
{
    memset(d, 0, sizeof *d);
    if (r->kind == SS_RULE_UNCONSTRAINED) {
        d->unconstrained = 1;
    } else if (r->kind == SS_RULE_AXES) {
        d->naxes = r->naxes;
        memcpy(d->axes, r->axes, sizeof d->axes[0] * (size_t)r->naxes);
    }
}

/* Strict mode: the first dimension that lost a rule to a claimed axis and
 * ended up None. */
static ss_status check_strict(const ss_rules *rules, const ss_spec *names, const ss_spec *res,
                              const dim_state st[])
{
    for (int d = 0; d < res->ndims; d++) {
        if (st[d].lost_rule < 0)
            continue;
        const ss_spec_dim *e = &res->dims[d];
        if (st[d].assigned && (e->unconstrained || e->naxes > 0))
            continue;
        const ss_rule *r = &rules->rules[st[d].lost_rule];
        int w = st[d].lost_to;
        ss__buf b;
        ss__buf_init(&b);
        ss__buf_puts(&b, "strict rules: ");
        ss__buf_py_repr(&b, names->dims[d].axes[0]);
        ss__buf_printf(&b, " (dim %d) cannot use rule ", d);
        rule_text(&b, r);
        ss__buf_puts(&b, ": mesh axis ");
        ss__buf_py_repr(&b, r->axes[st[d].lost_axis]);
        ss__buf_puts(&b, " is already used by ");
        ss__spec_dim_repr_buf(&b, &names->dims[w]);
        ss__buf_printf(&b, " (dim %d)", w);
        return fail_with_buf(SS_ERR_RULES, &b);
    }
    return SS_OK;
}

/* An axis of the resolved spec missing from the mesh is JAX's
 * NamedSharding error (check_pspec: "Resource axis: dta of P('dta',) is not
 * found in mesh: ('data', 'model')."); MaxText's remove_size_one_mesh_axis
 * fails on it too (a KeyError on mesh.shape). Then drop the axes of size 1;
 * an entry left with no axis is None. */
static ss_status drop_size_one_axes(ss_spec *res, const ss_mesh *mesh)
{
    for (int d = 0; d < res->ndims; d++)
        for (int k = 0; k < res->dims[d].naxes; k++) {
            if (ss_mesh_axis_index(mesh, res->dims[d].axes[k]) >= 0)
                continue;
            ss__buf b;
            ss__buf_init(&b);
            ss__buf_printf(&b, "Resource axis: %s of ", res->dims[d].axes[k]);
            ss__spec_repr_buf(&b, res);
            ss__buf_puts(&b, " is not found in mesh: ");
            ss__mesh_names_tuple(&b, mesh);
            ss__buf_putc(&b, '.');
            return fail_with_buf(SS_ERR_AXIS, &b);
        }
    for (int d = 0; d < res->ndims; d++) {
        ss_spec_dim *e = &res->dims[d];
        int kept = 0;
        for (int k = 0; k < e->naxes; k++) {
            int a = ss_mesh_axis_index(mesh, e->axes[k]);
            if (ss_mesh_axis_size(mesh, a) == 1)
                continue;
            e->axes[kept++] = e->axes[k];
        }
        for (int k = kept; k < e->naxes; k++)
            e->axes[k] = NULL;
        e->naxes = kept;
    }
    return SS_OK;
}

ss_status ss_rules_resolve(const ss_rules *rules, const ss_spec *names,
                           const ss_rules_options *opts, ss_spec *out, int *constrained)
{
    static const ss_rules_options defaults = {NULL, 0, SS_FALLBACK_UNSHARDED, NULL};
    static const ss_rules no_rules = {0, NULL};
    if (!names || !out)
        return ss__fail(SS_ERR_INVALID, "ss_rules_resolve: names and out must not be NULL");
    if (!rules)
        rules = &no_rules;
    if (!opts)
        opts = &defaults;
    if (opts->fallback != SS_FALLBACK_UNSHARDED && opts->fallback != SS_FALLBACK_RAISE &&
        opts->fallback != SS_FALLBACK_NO_CONSTRAINT)
        return ss__fail(SS_ERR_INVALID, "rules: unknown fallback %d", (int)opts->fallback);
    ss_status status = check_inputs(rules, names);
    if (status)
        return status;
    status = check_duplicates(names);
    if (status)
        return status;

    /* Non-names pass through; logical names start unassigned (None). */
    ss_spec res;
    dim_state st[SS_MAX_RANK];
    int decided[SS_MAX_RANK];
    memset(&res, 0, sizeof res);
    res.ndims = names->ndims;
    for (int d = 0; d < names->ndims; d++) {
        st[d].logical = is_logical_name(&names->dims[d]);
        st[d].assigned = !st[d].logical;
        st[d].lost_rule = -1;
        st[d].lost_axis = -1;
        st[d].lost_to = -1;
        decided[d] = -1;
        if (!st[d].logical)
            res.dims[d] = names->dims[d];
    }

    /* Rule-major walk: the first rule that fits wins its dimension. */
    for (int i = 0; i < rules->count; i++) {
        const ss_rule *r = &rules->rules[i];
        int d = 0;
        while (d < names->ndims &&
               !(st[d].logical && strcmp(names->dims[d].axes[0], r->name) == 0))
            d++;
        if (d == names->ndims || st[d].assigned)
            continue;
        int clash = -1, owner = -1;
        for (int k = 0; r->kind == SS_RULE_AXES && k < r->naxes && clash < 0; k++) {
            owner = axis_owner(&res, st, r->axes[k]);
            if (owner >= 0)
                clash = k;
        }
        if (clash >= 0) {
            if (st[d].lost_rule < 0) {
                st[d].lost_rule = i;
                st[d].lost_axis = clash;
                st[d].lost_to = owner;
            }
            continue;
        }
        assign_rule(&res.dims[d], r);
        st[d].assigned = true;
        decided[d] = i;
    }

    if (opts->strict) {
        status = check_strict(rules, names, &res, st);
        if (status)
            return status;
    }

    /* Empty rules: with_logical_constraint does nothing, whatever the fallback. */
    int applies = rules->count > 0;
    bool unassigned = false;
    for (int d = 0; d < names->ndims; d++)
        unassigned |= !st[d].assigned;
    if (applies && unassigned) {
        if (opts->fallback == SS_FALLBACK_RAISE) {
            ss__buf b;
            ss__buf_init(&b);
            ss__buf_puts(&b, "Axis names ");
            names_py_repr(&b, names);
            ss__buf_puts(&b, " did not match a rule");
            return fail_with_buf(SS_ERR_RULES, &b);
        }
        if (opts->fallback == SS_FALLBACK_NO_CONSTRAINT)
            applies = 0;
    }

    if (opts->mesh && (status = drop_size_one_axes(&res, opts->mesh)))
        return status;
    for (int d = 0; opts->decisions && d < names->ndims; d++)
        opts->decisions[d] = (ss_rules_decision){decided[d], st[d].lost_rule, st[d].lost_axis,
                                                 st[d].lost_to};
    *out = res;
    if (constrained)
        *constrained = applies;
    return SS_OK;
}

/* The axes a rule would claim: none for None, () and UNCONSTRAINED. */
static int rule_axis_count(const ss_rule *r) { return r->kind == SS_RULE_AXES ? r->naxes : 0; }

static bool rule_uses_axis(const ss_rule *r, const char *axis)
{
    for (int k = 0; k < rule_axis_count(r); k++)
        if (strcmp(r->axes[k], axis) == 0)
            return true;
    return false;
}

int ss_rules_shadowed_by(const ss_rules *rules, int i)
{
    if (!rules || i < 0 || i >= rules->count)
        return -1;
    const ss_rule *r = &rules->rules[i];
    for (int j = 0; j < i; j++) {
        const ss_rule *e = &rules->rules[j];
        if (strcmp(e->name, r->name) != 0)
            continue;
        bool subset = true;
        for (int k = 0; k < rule_axis_count(e) && subset; k++)
            subset = rule_uses_axis(r, e->axes[k]);
        if (subset)
            return j;
    }
    return -1;
}
