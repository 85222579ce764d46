/*
 * mlir_canon.c — pretty ops brought to the attributes of their generic
 * form, so a reader of the module sees one representation whichever form
 * JAX printed. The names and attribute kinds are StableHLO's
 * (https://openxla.org/stablehlo/spec and the dialect's op definitions):
 *     compare  EQ, %a, %b, FLOAT   comparison_direction = #stablehlo<comparison_direction EQ>,
 *                                  compare_type = #stablehlo<comparison_type FLOAT>
 *     broadcast_in_dim dims = [..] broadcast_dimensions = array<i64: ..>
 *     transpose dims = [..]        permutation = array<i64: ..>
 *     reverse dims = [..]          dimensions = array<i64: ..>
 *     reduce ... across dimensions = [..]  dimensions = array<i64: ..>, and
 *              `applies stablehlo.add` becomes the body region it stands for
 *     iota dim = N                 iota_dimension = N : i64
 *     concatenate ..., dim = N     dimension = N : i64
 *     get_dimension_size, dim = N  dimension = N : i64
 *     slice %x [a:b:s, ...]        start_indices, limit_indices, strides
 *     pad low/high/interior        edge_padding_low/high, interior_padding
 *     dynamic_slice sizes = [..]   slice_sizes = array<i64: ..>
 *     get_tuple_element %t[N]      index = N : i32
 *     dot_general batching_dims = [..] x [..], contracting_dims = [..] x [..],
 *                                  dot_dimension_numbers = #stablehlo.dot<...>,
 *                 precision = [DEFAULT, ..]  precision_config = [#stablehlo<precision DEFAULT>, ..]
 *     rng_bit_generator algorithm = X  rng_algorithm = #stablehlo<rng_algorithm X>
 *     constant dense<..>           value = dense<..>   (also check.*_const)
 *     custom_call @target(...)     call_target_name = "target"
 *     func.call @f(...)            callee = @f
 *     sdy.sharding_constraint / sdy.reshard %x <@mesh, ...>  sharding = #sdy.sharding<...>
 *     stablehlo.composite "name"   name = "name"
 * The attributes named so become the op's properties (as the generic form
 * prints them); anything else stays in its attributes.
 */
#include "front/stablehlo/mlir_internal.h"

#include <string.h>

typedef struct canon {
    ss__mlir_parser *p;
    ss__mlir_op *op;
    const char *at;
    ss__mlir_vec pn, pv;      /* new properties */
    ss__mlir_attr *pos;       /* ss.pos, consumed from the front */
    int next;
} canon;

static ss__mlir_attr *take(canon *c, const char *name)
{
    ss__mlir_op *op = c->op;
    for (int i = 0; i < op->nattrs; i++)
        if (strcmp(op->attrs[i].name, name) == 0) {
            ss__mlir_attr *a = op->attrs[i].value;
            memmove(&op->attrs[i], &op->attrs[i + 1], sizeof *op->attrs * (size_t)(op->nattrs - i - 1));
            op->nattrs--;
            return a;
        }
    return NULL;
}

static ss__mlir_attr *take_pos(canon *c, ss__mlir_attr_kind kind)
{
    if (!c->pos || c->next >= c->pos->n || c->pos->items[c->next]->kind != kind)
        return NULL;
    return c->pos->items[c->next++];
}

static bool fail(canon *c, const char *what)
{
    return ss__mlir_err_at(c->p, c->at, SS_ERR_PARSE, "'%s': %s", c->op->name, what);
}

static bool prop(canon *c, const char *name, ss__mlir_attr *a)
{
    return a && ss__mlir_set_attr(c->p, &c->pn, &c->pv, name, a);
}

static const ss__mlir_type *i64_type(canon *c)
{
    return ss__mlir_scalar_type(c->p, SS__MLIR_I64);
}

/* [1, 2] (INTs) as array<i64: 1, 2>. */
static ss__mlir_attr *i64_array(canon *c, const ss__mlir_attr *a, const char *what)
{
    if (!a)
        return NULL;
    if (a->kind == SS__MLIR_AT_DENSE_ARRAY)
        return (ss__mlir_attr *)a;
    if (a->kind != SS__MLIR_AT_ARRAY) {
        ss__mlir_err_at(c->p, c->at, SS_ERR_PARSE, "'%s': %s must be a list of integers",
                        c->op->name, what);
        return NULL;
    }
    ss__mlir_attr *r = ss__mlir_new_attr(c->p, SS__MLIR_AT_DENSE_ARRAY);
    if (!r || !(r->type = i64_type(c)))
        return NULL;
    r->count = a->n;
    r->data = ss__mlir_alloc(&c->p->m->arena, 8 * (size_t)(a->n ? a->n : 1));
    if (!r->data) {
        ss__mlir_oom(c->p);
        return NULL;
    }
    for (int i = 0; i < a->n; i++) {
        if (a->items[i]->kind != SS__MLIR_AT_INT) {
            ss__mlir_err_at(c->p, c->at, SS_ERR_PARSE, "'%s': %s must be a list of integers",
                            c->op->name, what);
            return NULL;
        }
        uint64_t v = (uint64_t)a->items[i]->i;
        for (int k = 0; k < 8; k++)
            r->data[8 * i + k] = (unsigned char)(v >> (8 * k));
    }
    return r;
}

static bool rename_array(canon *c, const char *from, const char *to)
{
    ss__mlir_attr *a = take(c, from);
    if (!a)
        return true;
    return prop(c, to, i64_array(c, a, from));
}

static bool rename_int(canon *c, const char *from, const char *to, ss__mlir_elem e)
{
    ss__mlir_attr *a = take(c, from);
    if (!a)
        return true;
    if (a->kind != SS__MLIR_AT_INT)
        return fail(c, "expected an integer");
    return prop(c, to, ss__mlir_int_attr(c->p, a->i, ss__mlir_scalar_type(c->p, e)));
}

static ss__mlir_attr *enum_attr(canon *c, const char *kind, const char *value)
{
    ss__mlir_attr *a = ss__mlir_new_attr(c->p, SS__MLIR_AT_ENUM);
    if (a) {
        a->s = "stablehlo";
        a->s2 = kind;
        a->s3 = value;
    }
    return a;
}

static bool one_of(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(s, *list) == 0)
            return true;
    return false;
}

static bool compare(canon *c)
{
    static const char *const dirs[] = {"EQ", "NE", "GE", "GT", "LE", "LT", NULL};
    static const char *const types[] = {"FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED", "NOTYPE", NULL};
    ss__mlir_attr *d = take_pos(c, SS__MLIR_AT_KEYWORD);
    if (!d || !one_of(d->s, dirs))
        return fail(c, "expected a comparison direction (EQ, NE, GE, GT, LE, LT)");
    if (!prop(c, "comparison_direction", enum_attr(c, "comparison_direction", d->s)))
        return false;
    ss__mlir_attr *t = take_pos(c, SS__MLIR_AT_KEYWORD);
    if (t && !one_of(t->s, types))
        return fail(c, "expected a comparison type (FLOAT, TOTALORDER, SIGNED, UNSIGNED, NOTYPE)");
    return !t || prop(c, "compare_type", enum_attr(c, "comparison_type", t->s));
}

static ss__mlir_attr *int_list(canon *c, const ss__mlir_attr *a)
{
    /* Keep [..] as a list of i64 (as #stablehlo.dot prints its fields). */
    if (a->kind != SS__MLIR_AT_ARRAY)
        return NULL;
    for (int i = 0; i < a->n; i++)
        if (a->items[i]->kind != SS__MLIR_AT_INT)
            return NULL;
    (void)c;
    return (ss__mlir_attr *)a;
}

static bool dot_general(canon *c)
{
    ss__mlir_vec names = {0}, vals = {0};
    static const char *const keys[2][2] = {{"lhs_batching_dimensions", "rhs_batching_dimensions"},
                                           {"lhs_contracting_dimensions",
                                            "rhs_contracting_dimensions"}};
    static const char *const src[2] = {"batching_dims", "contracting_dims"};
    bool ok = true;
    for (int k = 0; ok && k < 2; k++) {
        ss__mlir_attr *a = take(c, src[k]);
        if (!a)
            continue;
        if (a->kind != SS__MLIR_AT_PAIR || a->n != 2 || !int_list(c, a->items[0]) ||
            !int_list(c, a->items[1])) {
            ok = fail(c, "dimension numbers are written [..] x [..]");
            break;
        }
        for (int s = 0; ok && s < 2; s++)
            if (a->items[s]->n)
                ok = ss__mlir_set_attr(c->p, &names, &vals, keys[k][s], a->items[s]);
    }
    ss__mlir_attr *d = NULL;
    if (ok && (d = ss__mlir_new_attr(c->p, SS__MLIR_AT_DIALECT))) {
        d->s = "stablehlo.dot";
        d->s2 = "";
        d->n = names.n;
        d->names = (const char **)ss__mlir_vec_copy(c->p, &names);
        d->items = (ss__mlir_attr **)ss__mlir_vec_copy(c->p, &vals);
        ok = d->names && d->items && prop(c, "dot_dimension_numbers", d);
    }
    ss__mlir_vec_free(&names);
    ss__mlir_vec_free(&vals);
    if (!ok || !d)
        return false;
    ss__mlir_attr *pr = take(c, "precision");
    if (pr) {
        if (pr->kind != SS__MLIR_AT_ARRAY)
            return fail(c, "precision is a list [DEFAULT, ...]");
        ss__mlir_attr *l = ss__mlir_new_attr(c->p, SS__MLIR_AT_ARRAY);
        if (!l || !(l->items = ss__mlir_alloc(&c->p->m->arena, sizeof *l->items * (size_t)(pr->n + 1))))
            return ss__mlir_oom(c->p);
        l->n = pr->n;
        for (int i = 0; i < pr->n; i++) {
            if (pr->items[i]->kind != SS__MLIR_AT_KEYWORD)
                return fail(c, "precision is a list [DEFAULT, ...]");
            if (!(l->items[i] = enum_attr(c, "precision", pr->items[i]->s)))
                return false;
        }
        if (!prop(c, "precision_config", l))
            return false;
    }
    return true;
}

/* `applies stablehlo.add`: the body region it stands for. */
static bool reduce_applies(canon *c)
{
    ss__mlir_parser *p = c->p;
    ss__mlir_op *op = c->op;
    ss__mlir_attr *fn = take_pos(c, SS__MLIR_AT_KEYWORD);
    if (!fn)
        return fail(c, "expected the reduction op after 'applies'");
    int n = op->noperands / 2;
    if (n < 1 || op->noperands % 2)
        return fail(c, "takes inputs and as many init values");
    ss__mlir_block *b = ss__mlir_alloc(&p->m->arena, sizeof *b);
    ss__mlir_region *r = ss__mlir_alloc(&p->m->arena, sizeof *r);
    ss__mlir_op **ops = ss__mlir_alloc(&p->m->arena, sizeof *ops * (size_t)(n + 1));
    ss__mlir_value **args = ss__mlir_alloc(&p->m->arena, sizeof *args * (size_t)(2 * n));
    ss__mlir_region **regs = ss__mlir_alloc(&p->m->arena, sizeof *regs);
    ss__mlir_op *ret = ss__mlir_alloc(&p->m->arena, sizeof *ret);
    ss__mlir_value **rets = ss__mlir_alloc(&p->m->arena, sizeof *rets * (size_t)n);
    if (!b || !r || !ops || !args || !regs || !ret || !rets)
        return ss__mlir_oom(p);
    for (int i = 0; i < 2 * n; i++) {
        const ss__mlir_type *it = op->operands[n + i % n]->type;
        if (it->kind != SS__MLIR_TY_TENSOR || it->rank != 0)
            return fail(c, "init values must be rank-0 tensors");
        if (!(args[i] = ss__mlir_new_value(p, NULL, it)))
            return false;
        args[i]->block = b;
        args[i]->index = i;
    }
    for (int i = 0; i < n; i++) {
        ss__mlir_op *o = ss__mlir_alloc(&p->m->arena, sizeof *o);
        ss__mlir_value **opnds = ss__mlir_alloc(&p->m->arena, sizeof *opnds * 2);
        ss__mlir_type *t = (ss__mlir_type *)args[i]->type;
        if (!o || !opnds)
            return ss__mlir_oom(p);
        o->name = fn->s;
        o->line = op->line;
        o->col = op->col;
        o->loc = NULL;
        opnds[0] = args[i];
        opnds[1] = args[n + i];
        o->noperands = 2;
        o->operands = opnds;
        if (!ss__mlir_make_results(p, o, 1, &t))
            return false;
        ops[i] = o;
        rets[i] = o->results[0];
    }
    ret->name = "stablehlo.return";
    ret->line = op->line;
    ret->col = op->col;
    ret->noperands = n;
    ret->operands = rets;
    if (!ss__mlir_make_results(p, ret, 0, NULL))
        return false;
    ops[n] = ret;
    b->nargs = 2 * n;
    b->args = args;
    b->nops = n + 1;
    b->ops = ops;
    r->nblocks = 1;
    r->blocks = ss__mlir_alloc(&p->m->arena, sizeof *r->blocks);
    if (!r->blocks)
        return ss__mlir_oom(p);
    r->blocks[0] = b;
    regs[0] = r;
    op->nregions = 1;
    op->regions = regs;
    return true;
}

static bool reduce(canon *c)
{
    ss__mlir_attr *k = take_pos(c, SS__MLIR_AT_KEYWORD);
    if (k && strcmp(k->s, "applies") == 0) {
        if (c->op->nregions)
            return fail(c, "has both 'applies' and a body");
        if (!reduce_applies(c))
            return false;
        k = take_pos(c, SS__MLIR_AT_KEYWORD);
    }
    if (k && strcmp(k->s, "across") != 0)
        return fail(c, "expected 'across dimensions = [...]'");
    if (c->op->nregions != 1)
        return fail(c, "needs 'applies OP' or a reducer body");
    return rename_array(c, "dimensions", "dimensions");
}

static bool slice(canon *c)
{
    ss__mlir_attr *s = take(c, "ss.slice");
    if (!s)
        return true;
    static const char *const names[3] = {"start_indices", "limit_indices", "strides"};
    for (int k = 0; k < 3; k++) {
        ss__mlir_attr *l = ss__mlir_new_attr(c->p, SS__MLIR_AT_ARRAY);
        if (!l || !(l->items = ss__mlir_alloc(&c->p->m->arena, sizeof *l->items * (size_t)(s->n + 1))))
            return ss__mlir_oom(c->p);
        l->n = s->n;
        for (int i = 0; i < s->n; i++) {
            if (s->items[i]->n != 3)
                return fail(c, "each slice range is start:limit[:stride]");
            l->items[i] = s->items[i]->items[k];
        }
        if (!prop(c, names[k], i64_array(c, l, names[k])))
            return false;
    }
    return true;
}

static bool positional(canon *c, ss__mlir_attr_kind kind, const char *name, const char *what)
{
    ss__mlir_attr *a = take_pos(c, kind);
    if (!a)
        return fail(c, what);
    return prop(c, name, a);
}

static bool by_op(canon *c)
{
    const char *n = c->op->name;
    if (strcmp(n, "stablehlo.compare") == 0)
        return compare(c);
    if (strcmp(n, "stablehlo.broadcast_in_dim") == 0)
        return rename_array(c, "dims", "broadcast_dimensions");
    if (strcmp(n, "stablehlo.transpose") == 0)
        return rename_array(c, "dims", "permutation");
    if (strcmp(n, "stablehlo.reverse") == 0)
        return rename_array(c, "dims", "dimensions");
    if (strcmp(n, "stablehlo.reduce") == 0)
        return reduce(c);
    if (strcmp(n, "stablehlo.iota") == 0)
        return rename_int(c, "dim", "iota_dimension", SS__MLIR_I64);
    if (strcmp(n, "stablehlo.concatenate") == 0 || strcmp(n, "stablehlo.get_dimension_size") == 0)
        return rename_int(c, "dim", "dimension", SS__MLIR_I64);
    if (strcmp(n, "stablehlo.slice") == 0)
        return slice(c);
    if (strcmp(n, "stablehlo.pad") == 0)
        return rename_array(c, "low", "edge_padding_low") &&
               rename_array(c, "high", "edge_padding_high") &&
               rename_array(c, "interior", "interior_padding");
    if (strcmp(n, "stablehlo.dynamic_slice") == 0)
        return rename_array(c, "sizes", "slice_sizes");
    if (strcmp(n, "stablehlo.get_tuple_element") == 0) {
        ss__mlir_attr *i = take(c, "ss.index");
        if (!i || i->n != 1 || i->items[0]->n != 1)
            return fail(c, "expected %tuple[N]");
        return prop(c, "index", ss__mlir_int_attr(c->p, i->items[0]->items[0]->i,
                                                  ss__mlir_scalar_type(c->p, SS__MLIR_I32)));
    }
    if (strcmp(n, "stablehlo.dot_general") == 0)
        return dot_general(c);
    if (strcmp(n, "stablehlo.rng_bit_generator") == 0) {
        ss__mlir_attr *a = take(c, "algorithm");
        return !a || (a->kind == SS__MLIR_AT_KEYWORD &&
                      prop(c, "rng_algorithm", enum_attr(c, "rng_algorithm", a->s)));
    }
    if (strcmp(n, "stablehlo.constant") == 0 || strncmp(n, "check.", 6) == 0) {
        if (strcmp(n, "stablehlo.constant") == 0 || strstr(n, "_const"))
            return positional(c, SS__MLIR_AT_DENSE, "value", "expected a dense<...> value");
        return true;
    }
    if (strcmp(n, "stablehlo.custom_call") == 0) {
        ss__mlir_attr *s = take_pos(c, SS__MLIR_AT_SYMBOL);
        if (!s)
            return fail(c, "expected @target");
        ss__mlir_attr *a = ss__mlir_new_attr(c->p, SS__MLIR_AT_STRING);
        if (!a)
            return false;
        a->s = s->s;
        a->len = strlen(s->s);
        return prop(c, "call_target_name", a);
    }
    if (strcmp(n, "func.call") == 0)
        return positional(c, SS__MLIR_AT_SYMBOL, "callee", "expected @callee");
    if (strcmp(n, "sdy.sharding_constraint") == 0 || strcmp(n, "sdy.reshard") == 0)
        return positional(c, SS__MLIR_AT_SDY_SHARDING, "sharding", "expected <@mesh, [...]>");
    if (strcmp(n, "stablehlo.composite") == 0)
        return positional(c, SS__MLIR_AT_STRING, "name", "expected the composite's \"name\"");
    return true;
}

bool ss__mlir_canon(ss__mlir_parser *p, ss__mlir_op *op, const char *at)
{
    canon c = {.p = p, .op = op, .at = at};
    c.pos = take(&c, "ss.pos");
    bool ok = by_op(&c);
    if (ok && c.pos && c.next < c.pos->n) {
        /* Items no rule named stay, in order, as ss.pos. */
        ss__mlir_attr *rest = ss__mlir_new_attr(p, SS__MLIR_AT_ARRAY);
        ok = rest != NULL;
        if (ok) {
            rest->n = c.pos->n - c.next;
            rest->items = c.pos->items + c.next;
            op->attrs[op->nattrs].name = "ss.pos"; /* room: the one taken */
            op->attrs[op->nattrs].value = rest;
            op->nattrs++;
        }
    }
    if (ok && c.pn.n) {
        if (c.pn.oom || c.pv.oom) {
            ok = ss__mlir_oom(p);
        } else {
            ss__mlir_named *props = ss__mlir_alloc(&p->m->arena, sizeof *props * (size_t)c.pn.n);
            ok = props ? true : ss__mlir_oom(p);
            for (int i = 0; ok && i < c.pn.n; i++)
                props[i] = (ss__mlir_named){c.pn.v[i], c.pv.v[i]};
            op->props = props;
            op->nprops = c.pn.n;
        }
    }
    ss__mlir_vec_free(&c.pn);
    ss__mlir_vec_free(&c.pv);
    return ok;
}
