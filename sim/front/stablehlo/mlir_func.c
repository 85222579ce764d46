/*
 * mlir_func.c — the top level: #alias / !alias definitions, `module @name
 * attributes {...} {...}` (or top-level ops, wrapped in a module as MLIR
 * does), func.func in its pretty form
 *     func.func public @main(%arg0: T {attrs} loc(..)) -> (T {attrs}) attributes {..} {..}
 * brought to func.func's generic attributes (sym_name, function_type,
 * sym_visibility, arg_attrs, res_attrs), sdy.mesh @name = <...>, and the
 * queries on a parsed module.
 */
#include "front/stablehlo/mlir_internal.h"

#include <stdlib.h>
#include <string.h>

static ss__mlir_attr *str_attr(ss__mlir_parser *p, const char *s)
{
    ss__mlir_attr *a = ss__mlir_new_attr(p, SS__MLIR_AT_STRING);
    if (a) {
        a->s = s;
        a->len = strlen(s);
    }
    return a;
}

static bool to_named(ss__mlir_parser *p, ss__mlir_vec *names, ss__mlir_vec *vals,
                     ss__mlir_named **out, int *n)
{
    if (names->oom || vals->oom)
        return ss__mlir_oom(p);
    *n = names->n;
    *out = ss__mlir_alloc(&p->m->arena, sizeof **out * (size_t)(names->n ? names->n : 1));
    if (!*out)
        return ss__mlir_oom(p);
    for (int i = 0; i < names->n; i++)
        (*out)[i] = (ss__mlir_named){names->v[i], vals->v[i]};
    return true;
}

static ss__mlir_attr *array_of(ss__mlir_parser *p, ss__mlir_vec *items)
{
    ss__mlir_attr *a = ss__mlir_new_attr(p, SS__MLIR_AT_ARRAY);
    if (a) {
        a->n = items->n;
        a->items = (ss__mlir_attr **)ss__mlir_vec_copy(p, items);
        if (!a->items)
            return NULL;
    }
    return a;
}

static ss__mlir_attr *empty_dict(ss__mlir_parser *p)
{
    ss__mlir_attr *a = ss__mlir_new_attr(p, SS__MLIR_AT_DICT);
    if (a) {
        a->names = ss__mlir_alloc(&p->m->arena, sizeof *a->names);
        a->items = ss__mlir_alloc(&p->m->arena, sizeof *a->items);
        if (!a->names || !a->items)
            return ss__mlir_oom(p), NULL;
    }
    return a;
}

bool ss__mlir_p_func(ss__mlir_parser *p, ss__mlir_op *op)
{
    ss__mlir_vec pn = {0}, pv = {0}, an = {0}, av = {0};
    ss__mlir_vec args = {0}, argattrs = {0}, intypes = {0}, restypes = {0}, resattrs = {0};
    ss__mlir_vec regions = {0};
    bool ok = true, any_arg_attr = false, any_res_attr = false;
    const char *vis = NULL;
    if (ss__mlir_accept_kw(p, "public"))
        vis = "public";
    else if (ss__mlir_accept_kw(p, "private"))
        vis = "private";
    else if (ss__mlir_accept_kw(p, "nested"))
        vis = "nested";
    const char *name = ss__mlir_symbol(p);
    if (!name) {
        if (!p->failed)
            ss__mlir_err(p, "expected @name after func.func");
        ok = false;
    }
    ok = ok && ss__mlir_expect(p, "(", "to open the function's arguments");
    bool named_args = ok && ss__mlir_peek(p, "%");
    if (ok && !ss__mlir_accept(p, ")")) {
        do {
            ss__mlir_value *v = NULL;
            const char *vname = NULL;
            if (named_args && !(vname = ss__mlir_suffix_id(p, '%'))) {
                ok = false;
                break;
            }
            if (named_args && !ss__mlir_expect(p, ":", "after an argument name")) {
                ok = false;
                break;
            }
            ss__mlir_type *t = ss__mlir_p_type(p);
            if (!t) {
                ok = false;
                break;
            }
            ss__mlir_attr *d = NULL;
            if (ss__mlir_accept(p, "{")) {
                if (!(d = ss__mlir_p_dict_body(p))) {
                    ok = false;
                    break;
                }
                any_arg_attr = true;
            } else if (!(d = empty_dict(p))) {
                ok = false;
                break;
            }
            if (!(v = ss__mlir_new_value(p, vname, t))) {
                ok = false;
                break;
            }
            v->attrs = d;
            v->loc = ss__mlir_p_loc_opt(p);
            if (p->failed) {
                ok = false;
                break;
            }
            ss__mlir_vec_push(&args, v);
            ss__mlir_vec_push(&argattrs, d);
            ss__mlir_vec_push(&intypes, t);
        } while (ss__mlir_accept(p, ","));
        ok = ok && ss__mlir_expect(p, ")", "to close the function's arguments");
    }
    if (ok && ss__mlir_accept(p, "->")) {
        bool paren = ss__mlir_accept(p, "(");
        if (!(paren && ss__mlir_accept(p, ")"))) {
            do {
                ss__mlir_type *t = ss__mlir_p_type(p);
                if (!t) {
                    ok = false;
                    break;
                }
                ss__mlir_attr *d = NULL;
                if (paren && ss__mlir_accept(p, "{")) {
                    if (!(d = ss__mlir_p_dict_body(p))) {
                        ok = false;
                        break;
                    }
                    any_res_attr = true;
                } else if (!(d = empty_dict(p))) {
                    ok = false;
                    break;
                }
                ss__mlir_vec_push(&restypes, t);
                ss__mlir_vec_push(&resattrs, d);
            } while (paren && ss__mlir_accept(p, ","));
            ok = ok && (!paren || ss__mlir_expect(p, ")", "to close the function's results"));
        }
    }
    if (ok && ss__mlir_accept_kw(p, "attributes")) {
        ss__mlir_attr *d = NULL;
        ok = ss__mlir_expect(p, "{", "after 'attributes'") && (d = ss__mlir_p_dict_body(p));
        for (int i = 0; ok && i < d->n; i++)
            ok = ss__mlir_set_attr(p, &an, &av, d->names[i], d->items[i]);
    }
    ss__mlir_type *ft = NULL;
    if (ok) {
        ft = ss__mlir_alloc(&p->m->arena, sizeof *ft);
        if (!ft)
            ok = ss__mlir_oom(p);
    }
    if (ok) {
        ft->kind = SS__MLIR_TY_FUNC;
        ft->n = intypes.n;
        ft->items = (ss__mlir_type **)ss__mlir_vec_copy(p, &intypes);
        ft->nres = restypes.n;
        ft->res = (ss__mlir_type **)ss__mlir_vec_copy(p, &restypes);
        ok = ft->items && ft->res;
    }
    /* Inherent attributes in the order MLIR prints them (sorted by name). */
    ss__mlir_attr *a;
    if (ok && any_arg_attr)
        ok = (a = array_of(p, &argattrs)) && ss__mlir_set_attr(p, &pn, &pv, "arg_attrs", a);
    if (ok) {
        a = ss__mlir_new_attr(p, SS__MLIR_AT_TYPE);
        ok = a && (a->type = ft) && ss__mlir_set_attr(p, &pn, &pv, "function_type", a);
    }
    if (ok && any_res_attr)
        ok = (a = array_of(p, &resattrs)) && ss__mlir_set_attr(p, &pn, &pv, "res_attrs", a);
    if (ok)
        ok = (a = str_attr(p, name)) && ss__mlir_set_attr(p, &pn, &pv, "sym_name", a);
    if (ok && vis)
        ok = (a = str_attr(p, vis)) && ss__mlir_set_attr(p, &pn, &pv, "sym_visibility", a);
    if (ok && ss__mlir_peek(p, "{")) {
        if (!named_args && args.n) {
            ok = ss__mlir_err(p, "a function with a body names its arguments (%%arg0: T)");
        } else {
            ss__mlir_region *r = ss__mlir_p_region(p, &args);
            ok = r != NULL;
            ss__mlir_vec_push(&regions, r);
        }
    } else if (ok) {
        /* A declaration: MLIR's func.func holds one empty region. */
        ss__mlir_region *r = ss__mlir_alloc(&p->m->arena, sizeof *r);
        ok = r ? true : ss__mlir_oom(p);
        ss__mlir_vec_push(&regions, r);
    }
    ok = ok && to_named(p, &pn, &pv, &op->props, &op->nprops) &&
         to_named(p, &an, &av, &op->attrs, &op->nattrs);
    if (ok) {
        op->nregions = regions.n;
        op->regions = (ss__mlir_region **)ss__mlir_vec_copy(p, &regions);
        ok = op->regions && ss__mlir_make_results(p, op, 0, NULL);
        op->operands = (ss__mlir_value **)op->results;
    }
    ss__mlir_vec *all[] = {&pn, &pv, &an, &av, &args, &argattrs, &intypes, &restypes, &resattrs,
                           &regions};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        ss__mlir_vec_free(all[i]);
    return ok;
}

bool ss__mlir_p_module(ss__mlir_parser *p, ss__mlir_op *op)
{
    ss__mlir_vec pn = {0}, pv = {0};
    bool ok = true;
    const char *name = NULL;
    ss__mlir_ws(p);
    if (*p->p == '@' && !(name = ss__mlir_symbol(p)))
        ok = false;
    ss__mlir_attr *a;
    if (ok && name)
        ok = (a = str_attr(p, name)) && ss__mlir_set_attr(p, &pn, &pv, "sym_name", a);
    ok = ok && to_named(p, &pn, &pv, &op->props, &op->nprops);
    if (ok && ss__mlir_accept_kw(p, "attributes")) {
        ss__mlir_attr *d = NULL;
        ok = ss__mlir_expect(p, "{", "after 'attributes'") && (d = ss__mlir_p_dict_body(p));
        if (ok) {
            op->nattrs = d->n;
            op->attrs = ss__mlir_alloc(&p->m->arena, sizeof *op->attrs * (size_t)(d->n + 1));
            ok = op->attrs ? true : ss__mlir_oom(p);
            for (int i = 0; ok && i < d->n; i++)
                op->attrs[i] = (ss__mlir_named){d->names[i], d->items[i]};
        }
    }
    ss__mlir_region *r = NULL;
    if (ok && ss__mlir_peek(p, "{"))
        ok = (r = ss__mlir_p_region(p, NULL)) != NULL;
    else if (ok)
        ok = ss__mlir_err(p, "expected '{' to open the module's body");
    if (ok) {
        op->nregions = 1;
        op->regions = ss__mlir_alloc(&p->m->arena, sizeof *op->regions);
        ok = op->regions ? true : ss__mlir_oom(p);
        if (ok)
            op->regions[0] = r;
        ok = ok && ss__mlir_make_results(p, op, 0, NULL);
        op->operands = op->results;
    }
    ss__mlir_vec_free(&pn);
    ss__mlir_vec_free(&pv);
    return ok;
}

bool ss__mlir_p_mesh_op(ss__mlir_parser *p, ss__mlir_op *op)
{
    ss__mlir_vec pn = {0}, pv = {0};
    const char *name = ss__mlir_symbol(p);
    bool ok = name || (!p->failed && ss__mlir_err(p, "expected @name after sdy.mesh"));
    ss__mlir_attr *m = NULL, *a;
    ok = ok && ss__mlir_expect(p, "=", "after the mesh's name") &&
         ss__mlir_expect(p, "<", "to open the mesh") &&
         (m = ss__mlir_new_attr(p, SS__MLIR_AT_SDY_MESH)) && (m->mesh = ss__mlir_p_sdy_mesh(p));
    if (ok) {
        m->mesh->name = name;
        ok = ss__mlir_set_attr(p, &pn, &pv, "mesh", m) && (a = str_attr(p, name)) &&
             ss__mlir_set_attr(p, &pn, &pv, "sym_name", a) &&
             to_named(p, &pn, &pv, &op->props, &op->nprops) &&
             ss__mlir_make_results(p, op, 0, NULL);
        op->operands = op->results;
    }
    /* Newer JAX adds discardable attributes: {stablehlo.mesh = {...}}. */
    if (ok && ss__mlir_peek(p, "{")) {
        p->p++;
        ss__mlir_attr *d = ss__mlir_p_dict_body(p);
        ok = d != NULL;
        if (ok) {
            op->nattrs = d->n;
            op->attrs = ss__mlir_alloc(&p->m->arena, sizeof *op->attrs * (size_t)(d->n + 1));
            ok = op->attrs ? true : ss__mlir_oom(p);
            for (int i = 0; ok && i < d->n; i++)
                op->attrs[i] = (ss__mlir_named){d->names[i], d->items[i]};
        }
    }
    ss__mlir_vec_free(&pn);
    ss__mlir_vec_free(&pv);
    return ok;
}

/* ---- the top level ---------------------------------------------------------------- */

static bool alias_def(ss__mlir_parser *p)
{
    char sigil = *p->p;
    const char *name = ss__mlir_suffix_id(p, sigil);
    if (!name || !ss__mlir_expect(p, "=", "in an alias definition"))
        return false;
    ss__mlir_alias *a = ss__mlir_alloc(&p->m->arena, sizeof *a);
    if (!a)
        return ss__mlir_oom(p);
    a->name = name;
    if (!ss__mlir_alias_add(p, a))
        return false;
    if (sigil == '!')
        return (a->type = ss__mlir_p_type(p)) != NULL;
    if (ss__mlir_peek_kw(p, "loc")) {
        p->cur_alias = p->aliases.n; /* 1 + its index */
        a->loc = ss__mlir_p_loc_opt(p);
        p->cur_alias = 0;
        return a->loc != NULL;
    }
    return (a->attr = ss__mlir_p_attr(p)) != NULL;
}

/* The text at line:col (1-based), for errors found after reading. */
static const char *pos_of(const ss__mlir_parser *p, int line, int col)
{
    const char *s = p->text;
    for (int l = 1; l < line && s < p->end; s++)
        if (*s == '\n')
            l++;
    for (int c = 1; c < col && s < p->end && *s != '\n'; c++)
        s++;
    return s;
}

/* Resolve sdy shardings' @mesh names and give generic func.func's
 * arguments their attributes. */
static bool finish_attr(ss__mlir_parser *p, ss__mlir_attr *a, const ss__mlir_op *op)
{
    if (!a)
        return true;
    if (a->kind == SS__MLIR_AT_SDY_SHARDING && a->sdy && a->sdy->mesh_name) {
        a->sdy->mesh = ss__mlir_mesh_find(p->m, a->sdy->mesh_name);
        if (!a->sdy->mesh)
            return ss__mlir_err_at(p, pos_of(p, op->line, op->col), SS_ERR_PARSE,
                                   "'%s': sharding over undefined mesh @%s", op->name,
                                   a->sdy->mesh_name);
    }
    if (a->kind == SS__MLIR_AT_ARRAY || a->kind == SS__MLIR_AT_DICT ||
        a->kind == SS__MLIR_AT_SDY_LIST || a->kind == SS__MLIR_AT_DIALECT ||
        a->kind == SS__MLIR_AT_PAIR)
        for (int i = 0; i < a->n; i++)
            if (a->items && !finish_attr(p, a->items[i], op))
                return false;
    return true;
}

static bool finish_op(ss__mlir_parser *p, ss__mlir_op *op)
{
    for (int i = 0; i < op->nprops; i++)
        if (!finish_attr(p, op->props[i].value, op))
            return false;
    for (int i = 0; i < op->nattrs; i++)
        if (!finish_attr(p, op->attrs[i].value, op))
            return false;
    if (strcmp(op->name, "func.func") == 0 && op->nregions == 1 &&
        op->regions[0]->nblocks > 0) {
        const ss__mlir_attr *aa = ss__mlir_op_attr(op, "arg_attrs");
        ss__mlir_block *b = op->regions[0]->blocks[0];
        for (int i = 0; i < b->nargs; i++)
            if (aa && aa->kind == SS__MLIR_AT_ARRAY && i < aa->n)
                b->args[i]->attrs = aa->items[i];
    }
    for (int r = 0; r < op->nregions; r++)
        for (int b = 0; b < op->regions[r]->nblocks; b++) {
            ss__mlir_block *blk = op->regions[r]->blocks[b];
            for (int k = 0; k < blk->nops; k++)
                if (!finish_op(p, blk->ops[k]))
                    return false;
        }
    return true;
}

static bool collect(ss__mlir_parser *p)
{
    ss__mlir_module *m = p->m;
    ss__mlir_vec funcs = {0}, meshes = {0};
    ss__mlir_hmap names = {0};
    ss__mlir_region *r = m->op->regions[0];
    for (int b = 0; b < r->nblocks; b++)
        for (int k = 0; k < r->blocks[b]->nops; k++) {
            ss__mlir_op *op = r->blocks[b]->ops[k];
            if (strcmp(op->name, "func.func") == 0) {
                const ss__mlir_attr *ft = ss__mlir_op_attr(op, "function_type");
                const ss__mlir_attr *nm = ss__mlir_op_attr(op, "sym_name");
                const char *why = NULL;
                if (!ft || ft->kind != SS__MLIR_AT_TYPE || ft->type->kind != SS__MLIR_TY_FUNC ||
                    !nm || nm->kind != SS__MLIR_AT_STRING || op->nregions != 1)
                    why = "lacks sym_name, function_type or its region";
                else if (ss__mlir_hmap_get(&names, nm->s) >= 0)
                    why = "defines a function defined before";
                else if (ss__mlir_hmap_put(&names, nm->s, 1) == -2)
                    why = "ran out of memory";
                if (why) {
                    ss__mlir_vec_free(&funcs);
                    ss__mlir_vec_free(&meshes);
                    ss__mlir_hmap_free(&names);
                    return ss__mlir_err_at(p, pos_of(p, op->line, op->col), SS_ERR_PARSE,
                                           "func.func %s", why);
                }
                ss__mlir_vec_push(&funcs, op);
            } else if (strcmp(op->name, "sdy.mesh") == 0) {
                const ss__mlir_attr *ma = ss__mlir_op_attr(op, "mesh");
                const ss__mlir_attr *nm = ss__mlir_op_attr(op, "sym_name");
                if (ma && ma->kind == SS__MLIR_AT_SDY_MESH && nm && nm->kind == SS__MLIR_AT_STRING) {
                    ma->mesh->name = nm->s;
                    ss__mlir_vec_push(&meshes, ma->mesh);
                }
            }
        }
    ss__mlir_hmap_free(&names);
    m->nfuncs = funcs.n;
    m->funcs = (ss__mlir_op **)ss__mlir_vec_copy(p, &funcs);
    m->nmeshes = meshes.n;
    m->meshes = (ss__mlir_sdy_mesh **)ss__mlir_vec_copy(p, &meshes);
    ss__mlir_vec_free(&funcs);
    ss__mlir_vec_free(&meshes);
    return m->funcs && m->meshes && finish_op(p, m->op);
}

ss_status ss__mlir_parse(const char *text, const char *file, ss__mlir_module **out)
{
    *out = NULL;
    if (!text)
        return ss__fail(SS_ERR_INVALID, "mlir: no text");
    size_t len = strlen(text);
    if (len > SS__MLIR_MAX_INPUT)
        return ss__fail(SS_ERR_RANGE, "%s: text of %zu bytes is larger than the limit of %u",
                        file ? file : "<text>", len, SS__MLIR_MAX_INPUT);
    ss__mlir_module *m = calloc(1, sizeof *m);
    if (!m)
        return ss__fail(SS_ERR_NOMEM, "out of memory reading the module");
    /* Every structure is bounded by a multiple of the text it came from. */
    m->arena.limit = 64 * len + (4u << 20);
    ss__mlir_parser ps = {.m = m, .text = text, .end = text + len, .p = text, .file = file,
                          .line = 1, .line_start = text, .status = SS_OK};
    ss__mlir_parser *p = &ps;
    ss__mlir_vec tops = {0};
    for (;;) {
        ss__mlir_ws(p);
        if (!*p->p || p->failed)
            break;
        if (*p->p == '#' || *p->p == '!') {
            if (!alias_def(p))
                break;
            continue;
        }
        if (*p->p == '}') {
            ss__mlir_err(p, "unexpected '}' at the top level");
            break;
        }
        ss__mlir_op *op = ss__mlir_p_op(p);
        if (!op)
            break;
        ss__mlir_vec_push(&tops, op);
        if (tops.oom)
            ss__mlir_oom(p);
    }
    if (!p->failed && tops.n == 1 && strcmp(((ss__mlir_op *)tops.v[0])->name, "builtin.module") == 0) {
        m->op = tops.v[0];
    } else if (!p->failed) {
        /* Top-level ops without a module: wrap them in one. */
        ss__mlir_op *mod = ss__mlir_alloc(&m->arena, sizeof *mod);
        ss__mlir_region *r = ss__mlir_alloc(&m->arena, sizeof *r);
        ss__mlir_block *b = ss__mlir_alloc(&m->arena, sizeof *b);
        if (!mod || !r || !b || !(r->blocks = (ss__mlir_block **)ss__mlir_alloc(&m->arena, sizeof b))) {
            ss__mlir_oom(p);
        } else {
            mod->name = "builtin.module";
            mod->line = mod->col = 1;
            mod->nregions = 1;
            mod->regions = ss__mlir_alloc(&m->arena, sizeof r);
            b->nops = tops.n;
            b->ops = (ss__mlir_op **)ss__mlir_vec_copy(p, &tops);
            r->nblocks = 1;
            r->blocks[0] = b;
            if (mod->regions && b->ops) {
                mod->regions[0] = r;
                m->op = mod;
            } else {
                ss__mlir_oom(p);
            }
        }
    }
    ss__mlir_vec_free(&tops);
    if (!p->failed)
        ss__mlir_resolve_loc_aliases(p);
    if (!p->failed)
        collect(p);
    if (!p->failed) {
        m->naliases = p->aliases.n;
        if (!(m->aliases = (ss__mlir_alias **)ss__mlir_vec_copy(p, &p->aliases)))
            ss__mlir_oom(p);
    }
    ss__mlir_vec_free(&p->aliases);
    ss__mlir_vec_free(&p->loc_refs);
    ss__mlir_hmap_free(&p->alias_map);
    ss__mlir_hmap_free(&p->bind_map);
    free(p->binds);
    if (p->failed) {
        ss__mlir_free(m);
        return p->status;
    }
    *out = m;
    return SS_OK;
}

void ss__mlir_free(ss__mlir_module *m)
{
    if (!m)
        return;
    ss__mlir_arena_free(&m->arena);
    free(m);
}

/* ---- queries ------------------------------------------------------------------------- */

const ss__mlir_op *ss__mlir_module_op(const ss__mlir_module *m)
{
    return m->op;
}

const ss__mlir_attr *ss__mlir_op_attr(const ss__mlir_op *op, const char *name)
{
    for (int i = 0; i < op->nprops; i++)
        if (strcmp(op->props[i].name, name) == 0)
            return op->props[i].value;
    for (int i = 0; i < op->nattrs; i++)
        if (strcmp(op->attrs[i].name, name) == 0)
            return op->attrs[i].value;
    return NULL;
}

const char *ss__mlir_module_name(const ss__mlir_module *m)
{
    const ss__mlir_attr *a = ss__mlir_op_attr(m->op, "sym_name");
    return a && a->kind == SS__MLIR_AT_STRING ? a->s : NULL;
}

int ss__mlir_func_count(const ss__mlir_module *m)
{
    return m->nfuncs;
}

void ss__mlir_func_at(const ss__mlir_module *m, int i, ss__mlir_func *out)
{
    const ss__mlir_op *op = m->funcs[i];
    memset(out, 0, sizeof *out);
    out->op = op;
    out->name = ss__mlir_op_attr(op, "sym_name")->s;
    out->type = ss__mlir_op_attr(op, "function_type")->type;
    const ss__mlir_attr *vis = ss__mlir_op_attr(op, "sym_visibility");
    out->is_public = !vis || strcmp(vis->s, "public") == 0;
    out->arg_attrs = ss__mlir_op_attr(op, "arg_attrs");
    out->res_attrs = ss__mlir_op_attr(op, "res_attrs");
    out->body = op->regions[0]->nblocks ? op->regions[0]->blocks[0] : NULL;
}

bool ss__mlir_func_find(const ss__mlir_module *m, const char *name, ss__mlir_func *out)
{
    for (int i = 0; i < m->nfuncs; i++) {
        const ss__mlir_attr *nm = ss__mlir_op_attr(m->funcs[i], "sym_name");
        if (strcmp(nm->s, name) == 0) {
            if (out)
                ss__mlir_func_at(m, i, out);
            return true;
        }
    }
    return false;
}

int ss__mlir_mesh_count(const ss__mlir_module *m)
{
    return m->nmeshes;
}

const ss__mlir_sdy_mesh *ss__mlir_mesh_at(const ss__mlir_module *m, int i)
{
    return m->meshes[i];
}

const ss__mlir_sdy_mesh *ss__mlir_mesh_find(const ss__mlir_module *m, const char *name)
{
    for (int i = 0; i < m->nmeshes; i++)
        if (strcmp(m->meshes[i]->name, name) == 0)
            return m->meshes[i];
    return NULL;
}

ss_status ss__mlir_attr_parse_text(ss__mlir_module *m, const char *text,
                                   const ss__mlir_attr **out)
{
    *out = NULL;
    ss__mlir_parser ps = {.m = m, .text = text, .end = text + strlen(text), .p = text,
                          .file = "<attribute>", .line = 1, .line_start = text, .status = SS_OK};
    ss__mlir_attr *a = ss__mlir_p_attr(&ps);
    if (a) {
        ss__mlir_ws(&ps);
        if (*ps.p)
            ss__mlir_err(&ps, "unexpected text after the attribute");
    }
    ss__mlir_vec_free(&ps.aliases);
    ss__mlir_vec_free(&ps.loc_refs);
    ss__mlir_hmap_free(&ps.alias_map);
    if (ps.failed)
        return ps.status;
    *out = a;
    return SS_OK;
}
