/*
 * print.c — `print(...)` statements: what a scenario asks to see.
 *
 * `print(x)`, `print('loss', l)`: each argument is a string, a number, a
 * tuple of them, or an array. An array becomes an extra output of the
 * program; after the run its value (the last step's) is shown as Python's
 * print shows a jax.Array: numpy's str of it (npfmt.c). Inside a function
 * the print is made where the function is expanded (each call site, each
 * unrolled iteration); at the top level it runs after the run function,
 * where the run's names are visible (as `check`), and a global array's name
 * alone is its value after the last step.
 */
#include "eval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool ss__scn_is_print_stmt(const ss__scn_stmt *s)
{
    return s->kind == SS__SCN_ST_EXPR && s->value && s->value->kind == SS__SCN_EX_CALL && s->value->a &&
           s->value->a->kind == SS__SCN_EX_NAME && strcmp(s->value->a->str, "print") == 0;
}

/* The statement's source text from `print` to its closing bracket. */
static const char *source_text(ss__scn_ev *e, const ss__scn_expr *call)
{
    ss_scenario *sc = e->sc;
    const char *p = sc->src, *end = sc->src + sc->len;
    for (int l = 1; l < call->a->loc.line && p < end; l++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    p += call->a->loc.col > 0 ? call->a->loc.col - 1 : 0;
    if (p >= end)
        return "print(...)";
    const char *q = p;
    int depth = 0;
    char quote = 0;
    for (; q < end; q++) {
        if (quote) {
            if (*q == '\\' && q + 1 < end)
                q++;
            else if (*q == quote)
                quote = 0;
        } else if (*q == '\'' || *q == '"') {
            quote = *q;
        } else if (*q == '(' || *q == '[') {
            depth++;
        } else if ((*q == ')' || *q == ']') && --depth == 0) {
            q++;
            break;
        }
    }
    size_t n = (size_t)(q - p) < 200 ? (size_t)(q - p) : 200;
    char *t = ss__scn_strndup(&sc->arena, p, n);
    for (char *c = t; c && *c; c++)
        if (*c == '\n' || *c == '\r' || *c == '\t')
            *c = ' ';
    return t ? t : "print(...)";
}

/* Python's str of a constant (repr inside a tuple). */
static bool const_text(ss__scn_ev *e, const val *x, bool inner, ss__buf *b, ss__scn_loc loc)
{
    switch (x->kind) {
    case V_NONE: ss__buf_puts(b, "None"); return true;
    case V_INT: ss__buf_printf(b, "%lld", (long long)x->i); return true;
    case V_FLOAT: {
        const int64_t none[1] = {0};
        return ss__scn_np_str(SS_F64, 0, none, &x->f, b) == SS_OK;
    }
    case V_STR:
        ss__buf_puts(b, inner ? "'" : "");
        ss__buf_puts(b, x->s);
        ss__buf_puts(b, inner ? "'" : "");
        return true;
    case V_TUPLE:
        ss__buf_putc(b, '(');
        for (int k = 0; k < x->n; k++) {
            if (k)
                ss__buf_puts(b, ", ");
            if (!const_text(e, x->items[k], true, b, loc))
                return false;
        }
        ss__buf_puts(b, x->n == 1 ? ",)" : ")");
        return true;
    default:
        ss__scn_ev_fail(e, loc, "print: cannot print %s (arrays, numbers, strings and tuples)",
                ss__scn_ev_kind_name(x->kind));
        return false;
    }
}

/* The output holding the final value of global array `a` (a result that
 * updates it), or -1. */
static int final_output(const ss_scenario *sc, int a)
{
    for (int o = 0; o < sc->noutputs; o++)
        if (sc->outputs[o].feeds == a)
            return o;
    return -1;
}

bool ss__scn_ev_print_stmt(ss__scn_ev *e, env *en, const ss__scn_stmt *s, bool top_level)
{
    ss_scenario *sc = e->sc;
    const ss__scn_expr *call = s->value;
    if (call->nkw) {
        ss__scn_ev_fail(e, call->kwlocs[0], "print: '%s=' is not supported (print(a, b, ...))",
                call->kwnames[0]);
        return false;
    }
    if (sc->nvprints == (int)(sizeof sc->vprints / sizeof sc->vprints[0])) {
        ss__scn_ev_fail(e, s->loc, "too many prints (at most 64 statements made)");
        return false;
    }
    if (call->nitems > SS__SCN_PRINT_MAX_PARTS) {
        ss__scn_ev_fail(e, call->items[SS__SCN_PRINT_MAX_PARTS]->loc, "print: at most %d values",
                SS__SCN_PRINT_MAX_PARTS);
        return false;
    }
    ss__scn_print *p = &sc->vprints[sc->nvprints];
    memset(p, 0, sizeof *p);
    p->loc = call->a->loc;
    p->source = source_text(e, call);
    for (int k = 0; k < call->nitems; k++) {
        const ss__scn_expr *ix = call->items[k];
        val *x = NULL;
        if (top_level && ix->kind == SS__SCN_EX_NAME) {
            x = ss__scn_ev_env_get(en, ix->str);
            int o = x && x->kind == V_DECL ? final_output(sc, (int)x->i) : -1;
            if (o >= 0) {
                p->parts[p->nparts++] = (ss__scn_print_part){o, NULL};
                continue;
            }
        }
        if (!x && !(x = ss__scn_ev_eval(e, en, ix)))
            return false;
        if (x->kind == V_ARRAY || x->kind == V_DECL) {
            if (!(x = ss__scn_ev_array(e, x, ix->loc, "a printed value")) ||
                !ss__scn_ev_add_output(e, x->v, NULL, ix->loc, true, -1))
                return false;
            p->parts[p->nparts++] = (ss__scn_print_part){sc->noutputs - 1, NULL};
            continue;
        }
        ss__buf b;
        ss__buf_init(&b);
        bool ok = const_text(e, x, false, &b, ix->loc);
        const char *t = ok && !b.oom ? ss__scn_strndup(&sc->arena, b.data ? b.data : "", b.len)
                                     : NULL;
        ss__buf_free(&b);
        if (!ok)
            return false;
        if (!t) {
            ss__scn_ev_fail(e, ix->loc, "out of host memory");
            return false;
        }
        p->parts[p->nparts++] = (ss__scn_print_part){-1, t};
    }
    sc->nvprints++;
    return true;
}

ss_status ss__scn_print_text(const ss_scenario *sc, const ss__scn_print *p, void *const outputs[],
                         ss__buf *b)
{
    for (int k = 0; k < p->nparts; k++) {
        if (k)
            ss__buf_putc(b, ' ');
        const ss__scn_print_part *q = &p->parts[k];
        if (q->output < 0) {
            ss__buf_puts(b, q->text);
            continue;
        }
        ss_dtype dt;
        int rank;
        int64_t shape[SS_MAX_RANK];
        ss_status st = ss_value_shape(sc->program, sc->outputs[q->output].value, &dt, &rank,
                                      shape);
        if (!st)
            st = ss__scn_np_str(dt, rank, shape, outputs[q->output], b);
        if (st)
            return st;
    }
    return b->oom ? ss__fail(SS_ERR_NOMEM, "print: out of host memory") : SS_OK;
}
