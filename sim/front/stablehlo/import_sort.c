/*
 * import_sort.c — stablehlo.sort and chlo.top_k through the program
 * builder (ss_sort, ss_top_k).
 *
 * A sort's comparator is a region, and shardsim reads only the ones JAX
 * writes (lax.sort's _sort_lt_comparator): a lexicographic order over the
 * first keys, `lt(k0) or (eq(k0) and lt(rest))`, where each key compares
 * its pair of block arguments with LT (GT, or LT with the arguments
 * swapped: descending) — integers and bool SIGNED or UNSIGNED, floats with
 * TOTALORDER after JAX's canonicalisation (-0.0 to +0.0, NaN to one NaN:
 * two selects). Any other comparator is refused by name: an order is never
 * guessed.
 */
#include "front/stablehlo/import.h"

#include <math.h>
#include <string.h>

static bool is_op(const ss__mlir_value *v, const char *name)
{
    return v && v->def && strcmp(v->def->name, name) == 0;
}

/* The enum attribute `name` of op as text, or "". */
static const char *enum_attr(const ss__mlir_op *op, const char *name)
{
    const ss__mlir_attr *a = ss__mlir_op_attr(op, name);
    return a && a->kind == SS__MLIR_AT_ENUM && a->s3 ? a->s3 : "";
}

/* Whether v is a splat constant equal to f (NaN: any NaN). */
static bool is_const(const ss__mlir_value *v, double f)
{
    if (!is_op(v, "stablehlo.constant"))
        return false;
    const ss__mlir_attr *a = ss__mlir_op_attr(v->def, "value");
    if (!a || a->kind != SS__MLIR_AT_DENSE || !(a->splat || a->count == 1))
        return false;
    double x = ss__mlir_dense_f64(a, 0);
    return isnan(f) ? isnan(x) : x == f;
}

/* Whether v is `compare DIR, a, b` (either operand order when sym). */
static bool is_compare(const ss__mlir_value *v, const char *dir, const ss__mlir_value *a,
                       const ss__mlir_value *b)
{
    if (!is_op(v, "stablehlo.compare") || strcmp(enum_attr(v->def, "comparison_direction"),
                                                 dir) != 0)
        return false;
    const ss__mlir_op *c = v->def;
    return c->noperands == 2 && c->operands[0] == a && (b ? c->operands[1] == b : true);
}

/* The block argument a key value stands for: the argument itself, or JAX's
 * canonicalised float (select(x != x, NaN, select(x == 0, 0, x))); with
 * *canon telling which. NULL when v is neither. */
static const ss__mlir_value *key_arg(const ss__mlir_value *v, bool *canon)
{
    *canon = false;
    if (!v->def)
        return v;
    if (!is_op(v, "stablehlo.select") || v->def->noperands != 3)
        return NULL;
    const ss__mlir_op *outer = v->def;
    const ss__mlir_value *inner = outer->operands[2];
    if (!is_op(inner, "stablehlo.select") || inner->def->noperands != 3)
        return NULL;
    const ss__mlir_value *x = inner->def->operands[2];
    if (x->def || !is_compare(outer->operands[0], "NE", x, x) ||
        !is_const(outer->operands[1], NAN) ||
        !is_compare(inner->def->operands[0], "EQ", x, NULL) ||
        !is_const(inner->def->operands[0]->def->operands[1], 0.0) ||
        !is_const(inner->def->operands[1], 0.0))
        return NULL;
    *canon = true;
    return x;
}

/* Key k of a comparator: value v compares operand k's pair ordered (LT:
 * ascending, GT or swapped: descending). False when v is not such a compare. */
static bool key_lt(const ss__mlir_block *b, const ss__mlir_value *v, int k, bool *desc)
{
    if (!is_op(v, "stablehlo.compare") || v->def->noperands != 2)
        return false;
    const char *dir = enum_attr(v->def, "comparison_direction");
    const char *type = enum_attr(v->def, "compare_type");
    bool lt = strcmp(dir, "LT") == 0, gt = strcmp(dir, "GT") == 0;
    bool c0, c1;
    const ss__mlir_value *a = key_arg(v->def->operands[0], &c0);
    const ss__mlir_value *c = key_arg(v->def->operands[1], &c1);
    if (!(lt || gt) || !a || !c || c0 != c1)
        return false;
    bool is_float = ss__mlir_elem_is_float(a->type->elem);
    if (is_float ? !(c0 && strcmp(type, "TOTALORDER") == 0) : c0 || strcmp(type, "FLOAT") == 0)
        return false;
    bool ab = a == b->args[2 * k] && c == b->args[2 * k + 1];
    bool ba = a == b->args[2 * k + 1] && c == b->args[2 * k];
    if (!ab && !ba)
        return false;
    *desc = gt == ab; /* GT on (a, b) or LT on (b, a) */
    return true;
}

/* Whether v is `compare EQ` of operand k's pair (canonicalised or not). */
static bool key_eq(const ss__mlir_block *b, const ss__mlir_value *v, int k)
{
    if (!is_op(v, "stablehlo.compare") || v->def->noperands != 2 ||
        strcmp(enum_attr(v->def, "comparison_direction"), "EQ") != 0)
        return false;
    bool c0, c1;
    const ss__mlir_value *a = key_arg(v->def->operands[0], &c0);
    const ss__mlir_value *c = key_arg(v->def->operands[1], &c1);
    return a && c && ((a == b->args[2 * k] && c == b->args[2 * k + 1]) ||
                      (a == b->args[2 * k + 1] && c == b->args[2 * k]));
}

/* The keys of comparator value v from key k on: JAX's lt(k) or
 * (eq(k) and <rest>), or lt(k) alone (the last key). */
static bool comparator(const ss__mlir_block *b, const ss__mlir_value *v, int k, int nops,
                       int *nkeys, unsigned *desc)
{
    bool d;
    if (k >= nops)
        return false;
    if (key_lt(b, v, k, &d)) {
        *nkeys = k + 1;
        *desc |= d ? 1u << k : 0;
        return true;
    }
    if (!is_op(v, "stablehlo.or") || v->def->noperands != 2)
        return false;
    const ss__mlir_value *lt = v->def->operands[0], *rest = v->def->operands[1];
    if (!key_lt(b, lt, k, &d) || !is_op(rest, "stablehlo.and") || rest->def->noperands != 2 ||
        !key_eq(b, rest->def->operands[0], k))
        return false;
    *desc |= d ? 1u << k : 0;
    return comparator(b, rest->def->operands[1], k + 1, nops, nkeys, desc);
}

bool ss__imp_sort(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value res[])
{
    const ss__mlir_block *b = op->nregions == 1 && op->regions[0]->nblocks == 1
                                  ? op->regions[0]->blocks[0] : NULL;
    if (!b || b->nargs != 2 * op->noperands || b->nops < 1 || op->nresults != op->noperands)
        return ss__imp_fail(im, op, "'%s': a comparator that is not one block of two "
                                    "arguments per operand", op->name);
    const ss__mlir_op *ret = b->ops[b->nops - 1];
    int nkeys = 0;
    unsigned desc = 0;
    if (ret->noperands != 1 || !comparator(b, ret->operands[0], 0, op->noperands, &nkeys, &desc))
        return ss__imp_fail(im, op, "unsupported: a sort comparator other than JAX's "
                                    "lexicographic LT (ascending or descending keys)");
    const ss__mlir_attr *d = ss__mlir_op_attr(op, "dimension");
    if (!d || d->kind != SS__MLIR_AT_INT)
        return ss__imp_fail(im, op, "'%s': no dimension", op->name);
    int before = ss_program_value_count(im->sc->program);
    ss_status st = ss_sort(im->sc->program, op->noperands, x, (int)d->i, nkeys, desc, res);
    return ss__imp_built(im, op, st, before);
}

bool ss__imp_top_k(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value res[])
{
    const ss__mlir_attr *k = ss__mlir_op_attr(op, "k");
    if (op->noperands != 1 || op->nresults != 2 || !k || k->kind != SS__MLIR_AT_INT)
        return ss__imp_fail(im, op, "'%s': expected one operand, two results and k", op->name);
    int before = ss_program_value_count(im->sc->program);
    ss_status st = ss_top_k(im->sc->program, x[0], k->i, &res[0], &res[1]);
    return ss__imp_built(im, op, st, before);
}
