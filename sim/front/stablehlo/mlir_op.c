/*
 * mlir_op.c — operations, blocks and regions: SSA names in scope (a
 * region sees the names of the regions around it; a name is defined once
 * where it is visible), result lists (%a, %b = ... and %0:2 = ... with
 * %0#1 uses), the generic form
 *     "d.op"(%a, %b) <{props}> ({regions}) {attrs} : (A, B) -> C loc(...)
 * and the dispatch of pretty forms to mlir_custom.c / mlir_func.c.
 */
#include "front/stablehlo/mlir_internal.h"

#include <stdio.h>
#include <string.h>

/* ---- scopes ---------------------------------------------------------------------- */

int ss__mlir_scope_mark(ss__mlir_parser *p)
{
    return p->nbinds;
}

void ss__mlir_scope_pop(ss__mlir_parser *p, int mark)
{
    while (p->nbinds > mark) {
        ss__mlir_binding *b = &p->binds[--p->nbinds];
        ss__mlir_hmap_put(&p->bind_map, b->name, b->prev); /* the key exists: no growth */
    }
}

bool ss__mlir_bind(ss__mlir_parser *p, const char *name, ss__mlir_value *v)
{
    if (ss__mlir_hmap_get(&p->bind_map, name) >= 0)
        return ss__mlir_err(p, "redefinition of value '%s'", name);
    if (p->nbinds == p->capbinds) {
        ss__mlir_binding *nb = ss__grow(p->binds, &p->capbinds, p->nbinds + 1, sizeof *nb, 64);
        if (!nb)
            return ss__mlir_oom(p);
        p->binds = nb;
    }
    int prev = ss__mlir_hmap_put(&p->bind_map, name, p->nbinds);
    if (prev == -2)
        return ss__mlir_oom(p);
    p->binds[p->nbinds++] = (ss__mlir_binding){name, v, prev};
    return true;
}

ss__mlir_value *ss__mlir_lookup(ss__mlir_parser *p, const char *name)
{
    int i = ss__mlir_hmap_get(&p->bind_map, name);
    return i >= 0 ? p->binds[i].value : NULL;
}

ss__mlir_value *ss__mlir_new_value(ss__mlir_parser *p, const char *name, const ss__mlir_type *t)
{
    ss__mlir_value *v = ss__mlir_alloc(&p->m->arena, sizeof *v);
    if (!v) {
        ss__mlir_oom(p);
        return NULL;
    }
    v->name = name;
    v->type = t;
    return v;
}

ss__mlir_value *ss__mlir_p_use(ss__mlir_parser *p)
{
    ss__mlir_ws(p);
    const char *at = p->p;
    const char *name = ss__mlir_suffix_id(p, '%');
    if (!name)
        return NULL;
    if (*p->p == '#') {
        const char *s = p->p + 1;
        while (*s >= '0' && *s <= '9')
            s++;
        if (s == p->p + 1) {
            ss__mlir_err(p, "expected a result number after '#'");
            return NULL;
        }
        name = ss__mlir_strndup(&p->m->arena, at, (size_t)(s - at));
        if (!name) {
            ss__mlir_oom(p);
            return NULL;
        }
        p->p = s;
    }
    ss__mlir_value *v = ss__mlir_lookup(p, name);
    if (!v)
        ss__mlir_err_at(p, at, SS_ERR_PARSE, "use of undefined value '%s'", name);
    return v;
}

/* ---- regions ------------------------------------------------------------------------ */

/* ^bb0(%a: T loc(..), ...): — the label is eaten. */
static bool block_args(ss__mlir_parser *p, ss__mlir_block *b, ss__mlir_vec *args)
{
    if (ss__mlir_accept(p, "(") && !ss__mlir_accept(p, ")")) {
        do {
            const char *name = ss__mlir_suffix_id(p, '%');
            ss__mlir_type *t;
            if (!name || !ss__mlir_expect(p, ":", "after a block argument") ||
                !(t = ss__mlir_p_type(p)))
                return false;
            ss__mlir_value *v = ss__mlir_new_value(p, name, t);
            if (!v)
                return false;
            v->loc = ss__mlir_p_loc_opt(p);
            if (p->failed)
                return false;
            v->block = b;
            v->index = args->n;
            ss__mlir_vec_push(args, v);
        } while (ss__mlir_accept(p, ","));
        if (!ss__mlir_expect(p, ")", "to close the block arguments"))
            return false;
    }
    return ss__mlir_expect(p, ":", "after the block label");
}

/* Ops of a block up to `}` or the next ^label (neither eaten). */
static bool block_ops(ss__mlir_parser *p, ss__mlir_block *b)
{
    ss__mlir_vec ops = {0};
    bool ok = true;
    for (;;) {
        ss__mlir_ws(p);
        if (!*p->p) {
            ok = ss__mlir_err(p, "expected '}' to close the region, found the end of the text");
            break;
        }
        if (*p->p == '}' || *p->p == '^')
            break;
        ss__mlir_op *op = ss__mlir_p_op(p);
        if (!op) {
            ok = false;
            break;
        }
        ss__mlir_vec_push(&ops, op);
    }
    if (ok) {
        b->nops = ops.n;
        b->ops = (ss__mlir_op **)ss__mlir_vec_copy(p, &ops);
        ok = b->ops != NULL;
    }
    ss__mlir_vec_free(&ops);
    return ok;
}

ss__mlir_region *ss__mlir_p_region(ss__mlir_parser *p, ss__mlir_vec *entry_args)
{
    /* The '{' is next. entry_args: the entry block's arguments when the
     * op's pretty form declared them (bound here), else none. */
    if (!ss__mlir_enter(p))
        return NULL;
    ss__mlir_region *r = NULL;
    ss__mlir_vec blocks = {0};
    int mark = ss__mlir_scope_mark(p);
    if (!ss__mlir_expect(p, "{", "to open a region"))
        goto out;
    r = ss__mlir_alloc(&p->m->arena, sizeof *r);
    if (!r) {
        ss__mlir_oom(p);
        goto out;
    }
    ss__mlir_ws(p);
    bool first = true;
    while (!p->failed && *p->p != '}') {
        ss__mlir_block *b = ss__mlir_alloc(&p->m->arena, sizeof *b);
        if (!b) {
            ss__mlir_oom(p);
            break;
        }
        ss__mlir_vec args = {0};
        if (*p->p == '^') {
            if (first && entry_args && entry_args->n) {
                ss__mlir_err(p, "a region whose arguments were declared cannot start with a label");
                break;
            }
            if (!(b->label = ss__mlir_suffix_id(p, '^')) || !block_args(p, b, &args)) {
                ss__mlir_vec_free(&args);
                break;
            }
        } else if (!first) {
            ss__mlir_err(p, "expected a block label");
            break;
        } else if (entry_args) {
            for (int i = 0; i < entry_args->n; i++) {
                ss__mlir_value *v = entry_args->v[i];
                v->block = b;
                v->index = i;
                ss__mlir_vec_push(&args, v);
            }
        }
        first = false;
        int bmark = ss__mlir_scope_mark(p);
        bool ok = !args.oom || ss__mlir_oom(p);
        for (int i = 0; ok && i < args.n; i++)
            ok = ss__mlir_bind(p, ((ss__mlir_value *)args.v[i])->name, args.v[i]);
        b->nargs = args.n;
        b->args = ok ? (ss__mlir_value **)ss__mlir_vec_copy(p, &args) : NULL;
        ss__mlir_vec_free(&args);
        if (!ok || !b->args || !block_ops(p, b))
            break;
        /* Values of one block are not seen by its sibling blocks' args,
         * but are by later blocks (dominance is not checked here). */
        (void)bmark;
        ss__mlir_vec_push(&blocks, b);
        ss__mlir_ws(p);
    }
    if (!p->failed && first && entry_args && entry_args->n) {
        /* `{ }` with declared arguments: one empty block holding them. */
        ss__mlir_block *b = ss__mlir_alloc(&p->m->arena, sizeof *b);
        ss__mlir_vec args = {0};
        if (b) {
            for (int i = 0; i < entry_args->n; i++)
                ss__mlir_vec_push(&args, entry_args->v[i]);
            b->nargs = args.n;
            b->args = (ss__mlir_value **)ss__mlir_vec_copy(p, &args);
            b->ops = (ss__mlir_op **)ss__mlir_vec_copy(p, &(ss__mlir_vec){0});
            ss__mlir_vec_push(&blocks, b);
        } else {
            ss__mlir_oom(p);
        }
        ss__mlir_vec_free(&args);
    }
    if (!p->failed && ss__mlir_expect(p, "}", "to close the region")) {
        r->nblocks = blocks.n;
        r->blocks = (ss__mlir_block **)ss__mlir_vec_copy(p, &blocks);
    }
out:
    ss__mlir_scope_pop(p, mark);
    ss__mlir_vec_free(&blocks);
    ss__mlir_leave(p);
    return p->failed ? NULL : r;
}

/* ---- operations ------------------------------------------------------------------------ */

typedef struct result_name {
    const char *name;
    int count; /* %x:N */
} result_name;

/* Bind the op's results under the names written before its '='. */
static bool bind_results(ss__mlir_parser *p, ss__mlir_op *op, const result_name *rn, int nrn,
                         const char *at)
{
    int total = 0;
    for (int i = 0; i < nrn; i++)
        total += rn[i].count;
    if (total != op->nresults)
        return ss__mlir_err_at(p, at, SS_ERR_PARSE, "'%s' has %d results, %d names were given",
                               op->name, op->nresults, total);
    int k = 0;
    for (int i = 0; i < nrn; i++) {
        if (rn[i].count == 1 && !strchr(rn[i].name, '#')) {
            op->results[k]->name = rn[i].name;
            if (!ss__mlir_bind(p, rn[i].name, op->results[k]))
                return false;
            k++;
            continue;
        }
        for (int j = 0; j < rn[i].count; j++, k++) {
            char buf[64];
            snprintf(buf, sizeof buf, "#%d", j);
            size_t n = strlen(rn[i].name);
            char *nm = ss__mlir_alloc(&p->m->arena, n + strlen(buf) + 1);
            if (!nm)
                return ss__mlir_oom(p);
            memcpy(nm, rn[i].name, n);
            memcpy(nm + n, buf, strlen(buf) + 1);
            op->results[k]->name = nm;
            if (!ss__mlir_bind(p, nm, op->results[k]))
                return false;
        }
        /* %0 alone names the first result of %0:N. */
        if (!ss__mlir_bind(p, rn[i].name, op->results[k - rn[i].count]))
            return false;
    }
    return true;
}

static bool named_list(ss__mlir_parser *p, ss__mlir_named **out, int *n, const ss__mlir_attr *d)
{
    *n = d->n;
    *out = ss__mlir_alloc(&p->m->arena, sizeof **out * (size_t)(d->n ? d->n : 1));
    if (!*out)
        return ss__mlir_oom(p);
    for (int i = 0; i < d->n; i++)
        (*out)[i] = (ss__mlir_named){d->names[i], d->items[i]};
    return true;
}

bool ss__mlir_make_results(ss__mlir_parser *p, ss__mlir_op *op, int n, ss__mlir_type **res)
{
    op->nresults = n;
    op->results = ss__mlir_alloc(&p->m->arena, sizeof *op->results * (size_t)(n ? n : 1));
    if (!op->results)
        return ss__mlir_oom(p);
    for (int i = 0; i < n; i++) {
        if (!(op->results[i] = ss__mlir_new_value(p, NULL, res[i])))
            return false;
        op->results[i]->def = op;
        op->results[i]->index = i;
    }
    return true;
}

static bool generic_op(ss__mlir_parser *p, ss__mlir_op *op)
{
    ss__mlir_vec operands = {0}, regions = {0};
    bool ok = ss__mlir_expect(p, "(", "to open the operands of a generic op");
    if (ok && !ss__mlir_accept(p, ")")) {
        do {
            ss__mlir_value *v = ss__mlir_p_use(p);
            if (!v) {
                ok = false;
                break;
            }
            ss__mlir_vec_push(&operands, v);
        } while (ss__mlir_accept(p, ","));
        ok = ok && ss__mlir_expect(p, ")", "to close the operands");
    }
    if (ok && ss__mlir_peek(p, "[")) {
        ss__mlir_err_at(p, p->p, SS_ERR_UNSUPPORTED, "successor blocks are not supported");
        ok = false;
    }
    if (ok && ss__mlir_accept(p, "<{")) {
        ss__mlir_attr *d = ss__mlir_p_dict_body(p);
        ok = d && ss__mlir_expect(p, ">", "to close <{properties}>") &&
             named_list(p, &op->props, &op->nprops, d);
    }
    if (ok && ss__mlir_peek(p, "(")) {
        p->p++;
        do {
            ss__mlir_region *r = ss__mlir_p_region(p, NULL);
            if (!r) {
                ok = false;
                break;
            }
            ss__mlir_vec_push(&regions, r);
        } while (ss__mlir_accept(p, ","));
        ok = ok && ss__mlir_expect(p, ")", "to close the regions");
    }
    if (ok && ss__mlir_accept(p, "{")) {
        ss__mlir_attr *d = ss__mlir_p_dict_body(p);
        ok = d && named_list(p, &op->attrs, &op->nattrs, d);
    }
    const char *tat = NULL;
    ss__mlir_type *t = NULL;
    if (ok) {
        ok = ss__mlir_expect(p, ":", "and the type of a generic op");
        tat = p->p;
    }
    if (ok && (t = ss__mlir_p_type(p)) && t->kind != SS__MLIR_TY_FUNC)
        ok = ss__mlir_err_at(p, tat, SS_ERR_PARSE, "a generic op's type must be a function type");
    ok = ok && t;
    if (ok && t->n != operands.n)
        ok = ss__mlir_err_at(p, tat, SS_ERR_PARSE, "'%s' has %d operands, its type lists %d",
                             op->name, operands.n, t->n);
    for (int i = 0; ok && i < operands.n; i++)
        if (!ss__mlir_type_equal(((ss__mlir_value *)operands.v[i])->type, t->items[i]))
            ok = ss__mlir_err_at(p, tat, SS_ERR_PARSE,
                                 "operand %d of '%s' does not have the type its signature says",
                                 i, op->name);
    if (ok) {
        op->noperands = operands.n;
        op->operands = (ss__mlir_value **)ss__mlir_vec_copy(p, &operands);
        op->nregions = regions.n;
        op->regions = (ss__mlir_region **)ss__mlir_vec_copy(p, &regions);
        ok = op->operands && op->regions && ss__mlir_make_results(p, op, t->nres, t->res);
    }
    ss__mlir_vec_free(&operands);
    ss__mlir_vec_free(&regions);
    return ok;
}


ss__mlir_op *ss__mlir_p_op(ss__mlir_parser *p)
{
    ss__mlir_ws(p);
    const char *at = p->p;
    /* The names live in the module's arena: a while loop of a big model
     * carries hundreds of values (%0:300 or %a, %b, ... one by one). */
    result_name first[16];
    result_name *rn = first;
    int nrn = 0, caprn = 16, total = 0;
    if (*p->p == '%') {
        do {
            if (nrn == caprn) {
                result_name *more = ss__mlir_alloc(&p->m->arena, sizeof *rn * (size_t)caprn * 2);
                if (!more) {
                    ss__mlir_oom(p);
                    return NULL;
                }
                memcpy(more, rn, sizeof *rn * (size_t)nrn);
                rn = more;
                caprn *= 2;
            }
            const char *name = ss__mlir_suffix_id(p, '%');
            if (!name)
                return NULL;
            int count = 1;
            if (*p->p == ':') {
                p->p++;
                bool neg, hex;
                uint64_t c;
                if (!ss__mlir_int_lit(p, &neg, &c, &hex))
                    return NULL;
                if (neg || c < 1 || c > SS__MLIR_MAX_RESULTS) {
                    ss__mlir_err(p, "result count out of range");
                    return NULL;
                }
                count = (int)c;
            }
            if (total + count > SS__MLIR_MAX_RESULTS) {
                ss__mlir_err(p, "more than %d results", SS__MLIR_MAX_RESULTS);
                return NULL;
            }
            total += count;
            rn[nrn++] = (result_name){name, count};
        } while (ss__mlir_accept(p, ","));
        if (!ss__mlir_expect(p, "=", "after the result names"))
            return NULL;
    }
    ss__mlir_op *op = ss__mlir_alloc(&p->m->arena, sizeof *op);
    if (!op) {
        ss__mlir_oom(p);
        return NULL;
    }
    ss__mlir_ws(p);
    op->line = p->line;
    op->col = (int)(p->p - p->line_start) + 1;
    const char *nat = p->p;
    bool ok;
    if (*p->p == '"') {
        size_t n;
        op->name = ss__mlir_string(p, &n);
        op->generic = true;
        ok = op->name && generic_op(p, op);
    } else {
        const char *name = ss__mlir_bare_id(p);
        if (!name)
            return NULL;
        /* func's ops print without their dialect inside a function. */
        if (strcmp(name, "return") == 0)
            name = "func.return";
        else if (strcmp(name, "call") == 0)
            name = "func.call";
        else if (strcmp(name, "module") == 0)
            name = "builtin.module";
        op->name = name;
        if (strcmp(name, "func.func") == 0)
            ok = ss__mlir_p_func(p, op);
        else if (strcmp(name, "builtin.module") == 0)
            ok = ss__mlir_p_module(p, op);
        else if (strcmp(name, "sdy.mesh") == 0)
            ok = ss__mlir_p_mesh_op(p, op);
        else
            ok = ss__mlir_p_custom(p, op, total, nat) && ss__mlir_canon(p, op, nat);
    }
    if (!ok)
        return NULL;
    op->loc = ss__mlir_p_loc_opt(p);
    if (p->failed || !bind_results(p, op, rn, nrn, at))
        return NULL;
    return op;
}
