/*
 * mlir_print.c — a module written back in MLIR's generic form: every op
 * `"name"(%operands) <{props}> ({regions}) {attrs} : (types) -> (types)`,
 * every block labelled, values numbered in order of definition (%0, %1..,
 * block arguments %argN), dense elements as "0x..." hex (exact for every
 * element type), non-finite floats as their bits, locations as written
 * (#loc aliases referenced and defined after the module). ss__mlir_parse
 * reads this text back to the same module, which the tests check by
 * printing again.
 */
#include "front/stablehlo/mlir_internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct printer {
    ss__buf b;
    int next_value, next_arg;
    /* Value -> number, an open table keyed by address. */
    const ss__mlir_value **vals;
    int *vids;
    size_t nvals, capvals;
    bool oom;
} printer;

static void type(printer *pr, const ss__mlir_type *t);
static void attr(printer *pr, const ss__mlir_attr *a);
static void region(printer *pr, const ss__mlir_region *r, int indent);

static void str(printer *pr, const char *s, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    ss__buf_putc(&pr->b, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            ss__buf_putc(&pr->b, '\\');
            ss__buf_putc(&pr->b, (char)c);
        } else if (c < 0x20 || c >= 0x7F) {
            ss__buf_putc(&pr->b, '\\');
            ss__buf_putc(&pr->b, hex[c >> 4]);
            ss__buf_putc(&pr->b, hex[c & 15]);
        } else {
            ss__buf_putc(&pr->b, (char)c);
        }
    }
    ss__buf_putc(&pr->b, '"');
}

/* Whether `s` prints unquoted: a bare identifier ([A-Za-z_][A-Za-z0-9_$.]*,
 * as attribute names are read), and with `dash` also '-' after the first
 * character (as symbol names are read). */
static bool plain_name(const char *s, bool dash)
{
    if (!*s || !(ss__mlir_is_bare_start((unsigned char)*s)))
        return false;
    for (; *s; s++)
        if (!(ss__mlir_is_bare_start((unsigned char)*s) || (*s >= '0' && *s <= '9') || *s == '$' ||
              *s == '.' || (dash && *s == '-')))
            return false;
    return true;
}

static void symbol(printer *pr, const char *s)
{
    ss__buf_putc(&pr->b, '@');
    /* Nested references were joined as "a::@b" when read. */
    const char *sep = strstr(s, "::@");
    if (sep) {
        char head[256];
        size_t n = (size_t)(sep - s) < sizeof head - 1 ? (size_t)(sep - s) : sizeof head - 1;
        memcpy(head, s, n);
        head[n] = '\0';
        if (plain_name(head, true))
            ss__buf_puts(&pr->b, head);
        else
            str(pr, head, n);
        ss__buf_puts(&pr->b, "::");
        symbol(pr, sep + 3);
        return;
    }
    if (plain_name(s, true))
        ss__buf_puts(&pr->b, s);
    else
        str(pr, s, strlen(s));
}

static void type_list(printer *pr, int n, ss__mlir_type *const *t)
{
    ss__buf_putc(&pr->b, '(');
    for (int i = 0; i < n; i++) {
        if (i)
            ss__buf_puts(&pr->b, ", ");
        type(pr, t[i]);
    }
    ss__buf_putc(&pr->b, ')');
}

static void type(printer *pr, const ss__mlir_type *t)
{
    switch (t->kind) {
    case SS__MLIR_TY_TENSOR:
        ss__buf_puts(&pr->b, "tensor<");
        for (int i = 0; i < t->rank; i++)
            ss__buf_printf(&pr->b, "%" PRId64 "x", t->dims[i]);
        ss__buf_printf(&pr->b, "%s>", ss__mlir_elem_name(t->elem));
        break;
    case SS__MLIR_TY_SCALAR:
        ss__buf_puts(&pr->b, ss__mlir_elem_name(t->elem));
        break;
    case SS__MLIR_TY_TOKEN:
        ss__buf_puts(&pr->b, "!stablehlo.token");
        break;
    case SS__MLIR_TY_TUPLE:
        ss__buf_puts(&pr->b, "tuple<");
        for (int i = 0; i < t->n; i++) {
            if (i)
                ss__buf_puts(&pr->b, ", ");
            type(pr, t->items[i]);
        }
        ss__buf_putc(&pr->b, '>');
        break;
    case SS__MLIR_TY_FUNC:
        type_list(pr, t->n, t->items);
        ss__buf_puts(&pr->b, " -> ");
        type_list(pr, t->nres, t->res);
        break;
    case SS__MLIR_TY_NONE:
        ss__buf_puts(&pr->b, "none");
        break;
    }
}

static void hex_bytes(printer *pr, const unsigned char *d, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    ss__buf_puts(&pr->b, "\"0x");
    for (size_t i = 0; i < n; i++) {
        ss__buf_putc(&pr->b, hex[d[i] >> 4]);
        ss__buf_putc(&pr->b, hex[d[i] & 15]);
    }
    ss__buf_putc(&pr->b, '"');
}

static void float_val(printer *pr, double f, const ss__mlir_type *t)
{
    ss__mlir_elem e = t ? t->elem : SS__MLIR_F64;
    if (isfinite(f)) {
        char buf[64];
        snprintf(buf, sizeof buf, "%.17g", f);
        ss__buf_puts(&pr->b, buf);
        if (!strpbrk(buf, ".eE"))
            ss__buf_puts(&pr->b, ".0");
        return;
    }
    /* Bits of the element type: MLIR's spelling of inf and nan. */
    uint64_t bits;
    if (e == SS__MLIR_F32) {
        float g = (float)f;
        uint32_t u;
        memcpy(&u, &g, 4);
        bits = u;
    } else if (e == SS__MLIR_BF16) {
        bits = ss__mlir_f32_to_bf16((float)f);
    } else if (e == SS__MLIR_F16) {
        bits = ss__mlir_f64_to_f16(f);
    } else {
        memcpy(&bits, &f, 8);
    }
    ss__buf_printf(&pr->b, "0x%" PRIX64, bits);
}

static void axes(printer *pr, const ss__mlir_sdy_axis *a, int n, bool open)
{
    ss__buf_putc(&pr->b, '{');
    for (int i = 0; i < n; i++) {
        if (i)
            ss__buf_puts(&pr->b, ", ");
        str(pr, a[i].name, strlen(a[i].name));
        if (a[i].sub)
            ss__buf_printf(&pr->b, ":(%" PRId64 ")%" PRId64, a[i].pre, a[i].size);
    }
    if (open)
        ss__buf_puts(&pr->b, n ? ", ?" : "?");
    ss__buf_putc(&pr->b, '}');
}

static void mesh_body(printer *pr, const ss__mlir_sdy_mesh *m)
{
    ss__buf_puts(&pr->b, "<[");
    for (int i = 0; i < m->naxes; i++) {
        if (i)
            ss__buf_puts(&pr->b, ", ");
        str(pr, m->axis_names[i], strlen(m->axis_names[i]));
        ss__buf_printf(&pr->b, "=%" PRId64, m->axis_sizes[i]);
    }
    ss__buf_putc(&pr->b, ']');
    if (m->ndevices) {
        ss__buf_puts(&pr->b, ", device_ids=[");
        for (int i = 0; i < m->ndevices; i++)
            ss__buf_printf(&pr->b, "%s%" PRId64, i ? ", " : "", m->device_ids[i]);
        ss__buf_putc(&pr->b, ']');
    }
    ss__buf_putc(&pr->b, '>');
}

static void sharding_body(printer *pr, const ss__mlir_sdy_sharding *s)
{
    ss__buf_putc(&pr->b, '<');
    if (s->mesh_name) {
        symbol(pr, s->mesh_name);
    } else {
        ss__buf_puts(&pr->b, "mesh");
        mesh_body(pr, s->mesh);
    }
    ss__buf_puts(&pr->b, ", [");
    for (int d = 0; d < s->ndims; d++) {
        if (d)
            ss__buf_puts(&pr->b, ", ");
        axes(pr, s->dims[d].axes, s->dims[d].naxes, s->dims[d].open);
        if (s->dims[d].priority >= 0)
            ss__buf_printf(&pr->b, "p%d", s->dims[d].priority);
    }
    ss__buf_putc(&pr->b, ']');
    if (s->nreplicated) {
        ss__buf_puts(&pr->b, ", replicated=");
        axes(pr, s->replicated, s->nreplicated, false);
    }
    if (s->nunreduced) {
        ss__buf_puts(&pr->b, ", unreduced=");
        axes(pr, s->unreduced, s->nunreduced, false);
    }
    ss__buf_putc(&pr->b, '>');
}

static void entries(printer *pr, const ss__mlir_attr *a)
{
    for (int i = 0; i < a->n; i++) {
        if (i)
            ss__buf_puts(&pr->b, ", ");
        if (plain_name(a->names[i], false))
            ss__buf_puts(&pr->b, a->names[i]);
        else
            str(pr, a->names[i], strlen(a->names[i]));
        if (a->items[i]->kind != SS__MLIR_AT_UNIT) {
            ss__buf_puts(&pr->b, " = ");
            attr(pr, a->items[i]);
        }
    }
}

static void attr(printer *pr, const ss__mlir_attr *a)
{
    switch (a->kind) {
    case SS__MLIR_AT_UNIT:
        ss__buf_puts(&pr->b, "unit");
        break;
    case SS__MLIR_AT_BOOL:
        ss__buf_puts(&pr->b, a->i ? "true" : "false");
        break;
    case SS__MLIR_AT_INT:
        if (a->type && ss__mlir_elem_is_unsigned(a->type->elem))
            ss__buf_printf(&pr->b, "%" PRIu64, (uint64_t)a->i);
        else
            ss__buf_printf(&pr->b, "%" PRId64, a->i);
        if (a->type) {
            ss__buf_puts(&pr->b, " : ");
            type(pr, a->type);
        }
        break;
    case SS__MLIR_AT_FLOAT:
        float_val(pr, a->f, a->type);
        if (a->type) {
            ss__buf_puts(&pr->b, " : ");
            type(pr, a->type);
        }
        break;
    case SS__MLIR_AT_STRING:
        str(pr, a->s, a->len);
        break;
    case SS__MLIR_AT_ARRAY:
        ss__buf_putc(&pr->b, '[');
        for (int i = 0; i < a->n; i++) {
            if (i)
                ss__buf_puts(&pr->b, ", ");
            attr(pr, a->items[i]);
        }
        ss__buf_putc(&pr->b, ']');
        break;
    case SS__MLIR_AT_DICT:
        ss__buf_putc(&pr->b, '{');
        entries(pr, a);
        ss__buf_putc(&pr->b, '}');
        break;
    case SS__MLIR_AT_DENSE_ARRAY: {
        ss__buf_puts(&pr->b, "array<");
        type(pr, a->type);
        ss__mlir_attr tmp = *a;
        tmp.kind = SS__MLIR_AT_DENSE;
        for (int64_t i = 0; i < a->count; i++) {
            ss__buf_puts(&pr->b, i ? ", " : ": ");
            if (ss__mlir_elem_is_float(a->type->elem))
                float_val(pr, ss__mlir_dense_f64(&tmp, i), a->type);
            else if (a->type->elem == SS__MLIR_I1)
                ss__buf_puts(&pr->b, ss__mlir_dense_i64(&tmp, i) ? "true" : "false");
            else if (ss__mlir_elem_is_unsigned(a->type->elem))
                ss__buf_printf(&pr->b, "%" PRIu64, (uint64_t)ss__mlir_dense_i64(&tmp, i));
            else
                ss__buf_printf(&pr->b, "%" PRId64, ss__mlir_dense_i64(&tmp, i));
        }
        ss__buf_putc(&pr->b, '>');
        break;
    }
    case SS__MLIR_AT_DENSE: {
        ss__buf_puts(&pr->b, "dense<");
        size_t size = ss__mlir_elem_size(a->type->elem);
        if (a->count > 0)
            hex_bytes(pr, a->data, a->splat ? size : (size_t)a->count * size);
        ss__buf_puts(&pr->b, "> : ");
        type(pr, a->type);
        break;
    }
    case SS__MLIR_AT_TYPE:
        type(pr, a->type);
        break;
    case SS__MLIR_AT_SYMBOL:
        symbol(pr, a->s);
        break;
    case SS__MLIR_AT_ENUM:
        ss__buf_printf(&pr->b, "#%s<%s%s%s>", a->s, a->s2, a->s3 ? " " : "", a->s3 ? a->s3 : "");
        break;
    case SS__MLIR_AT_DIALECT:
        ss__buf_printf(&pr->b, "#%s<", a->s);
        if (a->names)
            entries(pr, a);
        else
            ss__buf_puts(&pr->b, a->s2);
        ss__buf_putc(&pr->b, '>');
        break;
    case SS__MLIR_AT_SDY_SHARDING:
        ss__buf_puts(&pr->b, "#sdy.sharding");
        sharding_body(pr, a->sdy);
        break;
    case SS__MLIR_AT_SDY_MESH:
        ss__buf_puts(&pr->b, "#sdy.mesh");
        mesh_body(pr, a->mesh);
        break;
    case SS__MLIR_AT_SDY_LIST:
        ss__buf_puts(&pr->b, "#sdy.sharding_per_value<[");
        for (int i = 0; i < a->n; i++) {
            if (i)
                ss__buf_puts(&pr->b, ", ");
            sharding_body(pr, a->items[i]->sdy);
        }
        ss__buf_puts(&pr->b, "]>");
        break;
    case SS__MLIR_AT_KEYWORD:
        ss__buf_printf(&pr->b, "#ss.keyword<%s>", a->s);
        break;
    case SS__MLIR_AT_PAIR:
        ss__buf_puts(&pr->b, "#ss.pair<");
        for (int i = 0; i < a->n; i++) {
            if (i)
                ss__buf_puts(&pr->b, ", ");
            attr(pr, a->items[i]);
        }
        ss__buf_putc(&pr->b, '>');
        break;
    }
}

static void loc(printer *pr, const ss__mlir_loc *l)
{
    switch (l->kind) {
    case SS__MLIR_LOC_UNKNOWN:
        ss__buf_puts(&pr->b, "unknown");
        break;
    case SS__MLIR_LOC_FILE:
        str(pr, l->str, strlen(l->str));
        ss__buf_printf(&pr->b, ":%" PRId64 ":%" PRId64, l->line, l->col);
        if (l->end_line)
            ss__buf_printf(&pr->b, " to %" PRId64 ":%" PRId64, l->end_line, l->end_col);
        break;
    case SS__MLIR_LOC_NAME:
        str(pr, l->str, strlen(l->str));
        if (l->a) {
            ss__buf_putc(&pr->b, '(');
            loc(pr, l->a);
            ss__buf_putc(&pr->b, ')');
        }
        break;
    case SS__MLIR_LOC_CALLSITE:
        ss__buf_puts(&pr->b, "callsite(");
        loc(pr, l->a);
        ss__buf_puts(&pr->b, " at ");
        loc(pr, l->b);
        ss__buf_putc(&pr->b, ')');
        break;
    case SS__MLIR_LOC_FUSED:
        ss__buf_puts(&pr->b, "fused");
        if (l->metadata) {
            ss__buf_putc(&pr->b, '<');
            attr(pr, l->metadata);
            ss__buf_putc(&pr->b, '>');
        }
        ss__buf_putc(&pr->b, '[');
        for (int i = 0; i < l->n; i++) {
            if (i)
                ss__buf_puts(&pr->b, ", ");
            loc(pr, l->items[i]);
        }
        ss__buf_putc(&pr->b, ']');
        break;
    case SS__MLIR_LOC_ALIAS:
        ss__buf_puts(&pr->b, l->str);
        break;
    }
}

static void opt_loc(printer *pr, const ss__mlir_loc *l)
{
    if (!l)
        return;
    ss__buf_puts(&pr->b, " loc(");
    loc(pr, l);
    ss__buf_putc(&pr->b, ')');
}

static size_t slot_of(const printer *pr, const ss__mlir_value *v)
{
    size_t mask = pr->capvals - 1;
    size_t i = (size_t)(((uintptr_t)v >> 4) * 0x9E3779B97F4A7C15u) & mask;
    while (pr->vals[i] && pr->vals[i] != v)
        i = (i + 1) & mask;
    return i;
}

/* The number of a value, given at its definition (in print order). */
static int value_id(printer *pr, const ss__mlir_value *v, bool is_arg)
{
    if (pr->capvals && pr->vals[slot_of(pr, v)])
        return pr->vids[slot_of(pr, v)];
    if ((pr->nvals + 1) * 2 > pr->capvals) {
        printer old = *pr;
        pr->capvals = old.capvals ? old.capvals * 2 : 1024;
        pr->vals = calloc(pr->capvals, sizeof *pr->vals);
        pr->vids = calloc(pr->capvals, sizeof *pr->vids);
        if (!pr->vals || !pr->vids) {
            free(pr->vals);
            free(pr->vids);
            *pr = old;
            pr->oom = true;
            return 0;
        }
        for (size_t k = 0; k < old.capvals; k++)
            if (old.vals[k]) {
                size_t i = slot_of(pr, old.vals[k]);
                pr->vals[i] = old.vals[k];
                pr->vids[i] = old.vids[k];
            }
        free(old.vals);
        free(old.vids);
    }
    int id = is_arg ? -(++pr->next_arg) : pr->next_value++;
    size_t i = slot_of(pr, v);
    pr->vals[i] = v;
    pr->vids[i] = id;
    pr->nvals++;
    return id;
}

static void value(printer *pr, const ss__mlir_value *v, bool define)
{
    (void)define;
    int id = value_id(pr, v, v->def == NULL);
    if (id < 0)
        ss__buf_printf(&pr->b, "%%arg%d", -id - 1);
    else
        ss__buf_printf(&pr->b, "%%%d", id);
}

static void indent_to(printer *pr, int n)
{
    ss__buf_repeat(&pr->b, " ", n);
}

static void named(printer *pr, const ss__mlir_named *a, int n)
{
    for (int i = 0; i < n; i++) {
        if (i)
            ss__buf_puts(&pr->b, ", ");
        if (plain_name(a[i].name, false))
            ss__buf_puts(&pr->b, a[i].name);
        else
            str(pr, a[i].name, strlen(a[i].name));
        if (a[i].value->kind != SS__MLIR_AT_UNIT) {
            ss__buf_puts(&pr->b, " = ");
            attr(pr, a[i].value);
        }
    }
}

static void op(printer *pr, const ss__mlir_op *o, int indent)
{
    indent_to(pr, indent);
    for (int i = 0; i < o->nresults; i++) {
        if (i)
            ss__buf_puts(&pr->b, ", ");
        value(pr, o->results[i], true);
    }
    if (o->nresults)
        ss__buf_puts(&pr->b, " = ");
    str(pr, o->name, strlen(o->name));
    ss__buf_putc(&pr->b, '(');
    for (int i = 0; i < o->noperands; i++) {
        if (i)
            ss__buf_puts(&pr->b, ", ");
        value(pr, o->operands[i], false);
    }
    ss__buf_putc(&pr->b, ')');
    if (o->nprops) {
        ss__buf_puts(&pr->b, " <{");
        named(pr, o->props, o->nprops);
        ss__buf_puts(&pr->b, "}>");
    }
    if (o->nregions) {
        ss__buf_puts(&pr->b, " (");
        for (int i = 0; i < o->nregions; i++) {
            if (i)
                ss__buf_puts(&pr->b, ", ");
            region(pr, o->regions[i], indent);
        }
        ss__buf_putc(&pr->b, ')');
    }
    if (o->nattrs) {
        ss__buf_puts(&pr->b, " {");
        named(pr, o->attrs, o->nattrs);
        ss__buf_putc(&pr->b, '}');
    }
    ss__buf_puts(&pr->b, " : (");
    for (int i = 0; i < o->noperands; i++) {
        if (i)
            ss__buf_puts(&pr->b, ", ");
        type(pr, o->operands[i]->type);
    }
    ss__buf_puts(&pr->b, ") -> (");
    for (int i = 0; i < o->nresults; i++) {
        if (i)
            ss__buf_puts(&pr->b, ", ");
        type(pr, o->results[i]->type);
    }
    ss__buf_putc(&pr->b, ')');
    opt_loc(pr, o->loc);
    ss__buf_putc(&pr->b, '\n');
}

static void region(printer *pr, const ss__mlir_region *r, int indent)
{
    ss__buf_puts(&pr->b, "{\n");
    for (int k = 0; k < r->nblocks; k++) {
        const ss__mlir_block *b = r->blocks[k];
        indent_to(pr, indent);
        ss__buf_printf(&pr->b, "^bb%d", k);
        if (b->nargs) {
            ss__buf_putc(&pr->b, '(');
            for (int i = 0; i < b->nargs; i++) {
                if (i)
                    ss__buf_puts(&pr->b, ", ");
                value(pr, b->args[i], true);
                ss__buf_puts(&pr->b, ": ");
                type(pr, b->args[i]->type);
                opt_loc(pr, b->args[i]->loc);
            }
            ss__buf_putc(&pr->b, ')');
        }
        ss__buf_puts(&pr->b, ":\n");
        for (int i = 0; i < b->nops; i++)
            op(pr, b->ops[i], indent + 2);
    }
    indent_to(pr, indent);
    ss__buf_putc(&pr->b, '}');
}

ss_status ss__mlir_print(const ss__mlir_module *m, char **out, size_t *len)
{
    printer pr = {0};
    ss__buf_init(&pr.b);
    op(&pr, m->op, 0);
    for (int i = 0; i < m->naliases; i++) {
        const ss__mlir_alias *a = m->aliases[i];
        if (!a->loc)
            continue;
        ss__buf_printf(&pr.b, "%s = loc(", a->name);
        loc(&pr, a->loc);
        ss__buf_puts(&pr.b, ")\n");
    }
    free(pr.vals);
    free(pr.vids);
    if (pr.b.oom || pr.oom) {
        ss__buf_free(&pr.b);
        return ss__fail(SS_ERR_NOMEM, "out of memory printing the module");
    }
    *out = pr.b.data;
    if (len)
        *len = pr.b.len;
    return SS_OK;
}
