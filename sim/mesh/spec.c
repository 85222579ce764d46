/*
 * spec.c — PartitionSpec: parsing both text forms, JAX's repr, equality.
 *
 * The struct layout is already canonical (a 1-tuple is stored as a single
 * axis, an empty tuple as None), so canonicalisation happens while parsing.
 * Names are not checked against any mesh here: specs may hold logical names.
 */
#include "mesh_internal.h"

#include <ctype.h>
#include <string.h>

typedef struct parser {
    const char *text;
    const char *p;
} parser;

static void skip_ws(parser *ps)
{
    while (isspace((unsigned char)*ps->p))
        ps->p++;
}

static int col(const parser *ps) { return (int)(ps->p - ps->text) + 1; }

static bool is_name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

static bool starts_word(const parser *ps, const char *word)
{
    size_t n = strlen(word);
    return strncmp(ps->p, word, n) == 0 && !is_name_char(ps->p[n]);
}

/* One name: quoted ('x' or "x", a Python string literal with its escapes)
 * or bare, of any length. *out is the pool's copy (may be ""). */
static ss_status parse_name(parser *ps, const char **out)
{
    if (*ps->p == '\'' || *ps->p == '"') {
        const char *end, *why = ss__py_str_intern(ps->p, out, &end);
        if (why && strcmp(why, "unterminated string") == 0)
            return ss__fail(SS_ERR_PARSE, "spec '%s': unterminated quote at column %d",
                            ps->text, col(ps));
        if (why && strcmp(why, "out of host memory") == 0)
            return ss__fail(SS_ERR_NOMEM, "spec: out of host memory for a name");
        if (why)
            return ss__fail(SS_ERR_PARSE, "spec '%s': %s at column %d", ps->text, why,
                            (int)(end - ps->text) + 1);
        ps->p = end;
        return SS_OK;
    }
    size_t len = 0;
    while (is_name_char(ps->p[len]))
        len++;
    if (len == 0)
        return ss__fail(SS_ERR_PARSE,
                        "spec '%s': expected an axis name, None or a tuple at column %d",
                        ps->text, col(ps));
    ss_status st = ss__name_intern_n(ps->p, len, out);
    ps->p += len;
    return st;
}

static bool is_none_word(const parser *ps) { return starts_word(ps, "None"); }

static bool is_unconstrained_word(parser *ps)
{
    static const char *const forms[] = {"P.UNCONSTRAINED", "PartitionSpec.UNCONSTRAINED",
                                        "UNCONSTRAINED"};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        if (starts_word(ps, forms[i])) {
            ps->p += strlen(forms[i]);
            return true;
        }
    }
    return false;
}

/* A tuple entry "(a, b)" or "[a, b]"; ps->p is at the opening bracket. */
static ss_status parse_tuple(parser *ps, ss_spec_dim *dim)
{
    const char *open = ps->p;
    char close = *ps->p == '(' ? ')' : ']';
    ps->p++;
    for (;;) {
        skip_ws(ps);
        if (*ps->p == close) {
            ps->p++;
            return SS_OK;
        }
        if (*ps->p == '(' || *ps->p == '[') {
            /* Find the extent of the nested tuple and the outer one for the message. */
            const char *nested = ps->p;
            const char *q = nested;
            while (*q && *q != ')' && *q != ']')
                q++;
            const char *outer_end = *q ? q + 1 : q;
            while (*outer_end && *outer_end != close)
                outer_end++;
            return ss__fail(SS_ERR_PARSE,
                            "A tuple inside PartitionSpec cannot contain a nested tuple. Got "
                            "partition: %.*s and the nested tuple: %.*s",
                            (int)(outer_end - open + (*outer_end ? 1 : 0)), open,
                            (int)(q - nested + (*q ? 1 : 0)), nested);
        }
        if (is_none_word(ps))
            return ss__fail(SS_ERR_PARSE, "spec '%s': None inside a tuple at column %d",
                            ps->text, col(ps));
        if (dim->naxes == SS_MAX_AXES)
            return ss__fail(SS_ERR_PARSE, "spec '%s': more than %d axes in one entry (SS_MAX_AXES)", ps->text,
                            SS_MAX_AXES);
        ss_status st = parse_name(ps, &dim->axes[dim->naxes]);
        if (st)
            return st;
        if (dim->axes[dim->naxes][0])
            dim->naxes++;
        skip_ws(ps);
        if (*ps->p == ',') {
            ps->p++;
        } else if (*ps->p != close) {
            return ss__fail(SS_ERR_PARSE, "spec '%s': expected ',' or '%c' at column %d",
                            ps->text, close, col(ps));
        }
    }
}

static ss_status parse_entry(parser *ps, ss_spec_dim *dim)
{
    memset(dim, 0, sizeof *dim);
    skip_ws(ps);
    if (*ps->p == '(' || *ps->p == '[')
        return parse_tuple(ps, dim);
    if (is_none_word(ps)) {
        ps->p += 4;
        return SS_OK;
    }
    if (is_unconstrained_word(ps)) {
        dim->unconstrained = 1;
        return SS_OK;
    }
    ss_status st = parse_name(ps, &dim->axes[0]);
    if (st)
        return st;
    dim->naxes = dim->axes[0][0] ? 1 : 0; /* '' is falsy: None */
    return SS_OK;
}

ss_status ss_spec_parse(const char *text, ss_spec *out)
{
    static const char *const prefixes[] = {"jax.sharding.PartitionSpec(", "PartitionSpec(",
                                           "P("};
    parser ps = {text, text};
    bool wrapped = false;
    memset(out, 0, sizeof *out);
    skip_ws(&ps);
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t n = strlen(prefixes[i]);
        if (strncmp(ps.p, prefixes[i], n) == 0) {
            ps.p += n;
            wrapped = true;
            break;
        }
    }
    for (;;) {
        skip_ws(&ps);
        if (wrapped && *ps.p == ')') {
            ps.p++;
            break;
        }
        if (!wrapped && !*ps.p)
            break;
        if (out->ndims == SS_MAX_RANK)
            return ss__fail(SS_ERR_PARSE, "spec '%s': more than %d dimensions (SS_MAX_RANK)", text,
                            SS_MAX_RANK);
        ss_status st = parse_entry(&ps, &out->dims[out->ndims]);
        if (st)
            return st;
        out->ndims++;
        skip_ws(&ps);
        if (*ps.p == ',') {
            ps.p++;
        } else if (!(wrapped ? *ps.p == ')' : !*ps.p)) {
            return ss__fail(SS_ERR_PARSE, "spec '%s': expected ',' or %s at column %d", text,
                            wrapped ? "')'" : "the end", col(&ps));
        }
    }
    skip_ws(&ps);
    if (*ps.p)
        return ss__fail(SS_ERR_PARSE, "spec '%s': unexpected text at column %d", text,
                        col(&ps));
    return SS_OK;
}

void ss__spec_dim_repr_buf(ss__buf *b, const ss_spec_dim *d)
{
    if (d->unconstrained) {
        ss__buf_puts(b, "UNCONSTRAINED");
    } else if (d->naxes == 0) {
        ss__buf_puts(b, "None");
    } else if (d->naxes == 1) {
        ss__buf_py_repr(b, d->axes[0]);
    } else {
        ss__buf_putc(b, '(');
        for (int k = 0; k < d->naxes; k++) {
            if (k)
                ss__buf_puts(b, ", ");
            ss__buf_py_repr(b, d->axes[k]);
        }
        ss__buf_putc(b, ')');
    }
}

void ss__spec_repr_buf(ss__buf *b, const ss_spec *spec)
{
    ss__buf_puts(b, "P(");
    for (int i = 0; i < spec->ndims; i++) {
        if (i)
            ss__buf_puts(b, ", ");
        ss__spec_dim_repr_buf(b, &spec->dims[i]);
    }
    if (spec->ndims == 1)
        ss__buf_putc(b, ',');
    ss__buf_putc(b, ')');
}

ss_status ss_spec_repr(const ss_spec *spec, char *buf, size_t cap)
{
    ss__buf b;
    ss__buf_init(&b);
    ss__spec_repr_buf(&b, spec);
    ss_status st = ss__buf_copy_out(&b, buf, cap, NULL);
    ss__buf_free(&b);
    return st;
}

static bool dim_is_none(const ss_spec *s, int d)
{
    return d >= s->ndims || (s->dims[d].naxes == 0 && !s->dims[d].unconstrained);
}

int ss_spec_equal(const ss_spec *a, const ss_spec *b)
{
    int n = a->ndims > b->ndims ? a->ndims : b->ndims;
    for (int d = 0; d < n; d++) {
        bool an = dim_is_none(a, d), bn = dim_is_none(b, d);
        if (an || bn) {
            if (an != bn)
                return 0;
            continue;
        }
        const ss_spec_dim *x = &a->dims[d], *y = &b->dims[d];
        if (x->unconstrained != y->unconstrained || x->naxes != y->naxes)
            return 0;
        for (int k = 0; k < x->naxes; k++)
            if (strcmp(x->axes[k], y->axes[k]) != 0)
                return 0;
    }
    return 1;
}

static ss_status grow_to(ss_spec *spec, int d)
{
    if (d < 0 || d >= SS_MAX_RANK)
        return ss__fail(SS_ERR_RANGE, "spec dimension %d is outside 0..%d (SS_MAX_RANK)", d, SS_MAX_RANK - 1);
    while (spec->ndims <= d)
        memset(&spec->dims[spec->ndims++], 0, sizeof spec->dims[0]);
    return SS_OK;
}

ss_status ss_spec_set_none(ss_spec *spec, int d)
{
    ss_status st = grow_to(spec, d);
    if (st)
        return st;
    memset(&spec->dims[d], 0, sizeof spec->dims[d]);
    return SS_OK;
}

ss_status ss_spec_set_axes(ss_spec *spec, int d, int n, const char *const axes[])
{
    if (n < 0 || n > SS_MAX_AXES)
        return ss__fail(SS_ERR_RANGE, "spec entry with %d axes; at most %d (SS_MAX_AXES)", n,
                        SS_MAX_AXES);
    const char *names[SS_MAX_AXES];
    for (int k = 0; k < n; k++) {
        ss_status st = ss_name_intern(axes[k], &names[k]);
        if (st)
            return st;
    }
    ss_status st = ss_spec_set_none(spec, d);
    if (st)
        return st;
    for (int k = 0; k < n; k++)
        spec->dims[d].axes[k] = names[k];
    spec->dims[d].naxes = n;
    return SS_OK;
}
