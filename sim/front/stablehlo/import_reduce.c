/*
 * import_reduce.c — stablehlo.reduce through the program builder.
 *
 * Two forms are read. One operand whose body is one op of its two
 * arguments (add, maximum, minimum, multiply, and, or): ss_reduce, with
 * the init value applied after the reduction unless it is that op's
 * identity. And the form jnp.argmax / jnp.argmin lower to: two operands,
 * the values and an iota along the one reduced dimension, with inits
 * (-inf or the type's lowest, 0) for argmax and (+inf or highest, 0) for
 * argmin, reduced by a body that keeps the larger (smaller) value, a NaN
 * first, and on a tie the smaller index: ss_argmax / ss_argmin for the
 * index result and a max (min) reduce for the value result, which JAX's
 * body computes the same way. Any other body is refused by name: a
 * reduction is never guessed.
 */
#include "front/stablehlo/import.h"

#include <math.h>
#include <string.h>

static ss_program *prog(ss__imp *im) { return im->sc->program; }

/* The splat constant v holds, or false when v is not one. */
static bool splat_value(const ss__mlir_value *v, double *f, int64_t *i)
{
    const ss__mlir_op *def = v->def;
    if (!def || strcmp(def->name, "stablehlo.constant") != 0)
        return false;
    const ss__mlir_attr *a = ss__mlir_op_attr(def, "value");
    if (!a || a->kind != SS__MLIR_AT_DENSE || !(a->splat || a->count == 1))
        return false;
    *f = ss__mlir_dense_f64(a, 0);
    *i = ss__mlir_dense_i64(a, 0);
    return true;
}

/* Is MLIR value v a splat constant equal to the identity of `op`? */
static bool is_identity(const ss__mlir_value *v, ss_reduce_op op)
{
    double f;
    int64_t i;
    if (!splat_value(v, &f, &i))
        return false;
    bool fl = ss__mlir_elem_is_float(v->type->elem);
    switch (op) {
    case SS_REDUCE_SUM: return fl ? f == 0 && !signbit(f) : i == 0;
    case SS_REDUCE_MAX: return fl && isinf(f) && f < 0;
    case SS_REDUCE_MIN: return fl && isinf(f) && f > 0;
    case SS_REDUCE_PROD: return fl ? f == 1 : i == 1;
    default: return false;
    }
}

static const struct { const char *name; ss_reduce_op r; ss_binary_op b; } bodies[] = {
    {"stablehlo.add", SS_REDUCE_SUM, SS_ADD},      {"stablehlo.maximum", SS_REDUCE_MAX, SS_MAX},
    {"stablehlo.minimum", SS_REDUCE_MIN, SS_MIN},  {"stablehlo.multiply", SS_REDUCE_PROD, SS_MUL},
    {"stablehlo.and", SS_REDUCE_AND, SS_AND},      {"stablehlo.or", SS_REDUCE_OR, SS_OR},
};

static bool reduce_one(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value *out)
{
    const ss__mlir_block *b = op->nregions == 1 && op->regions[0]->nblocks == 1
                                  ? op->regions[0]->blocks[0] : NULL;
    if (!b || b->nops != 2 || b->nargs != 2)
        return ss__imp_fail(im, op, "unsupported: a reduce whose body is not one op");
    const ss__mlir_op *body = b->ops[0];
    int k = -1;
    for (size_t j = 0; j < sizeof bodies / sizeof *bodies; j++)
        if (strcmp(body->name, bodies[j].name) == 0)
            k = (int)j;
    if (k < 0)
        return ss__imp_fail(im, op, "unsupported: a reduce applying '%s'", body->name);
    if (body->noperands != 2 || body->nresults != 1 || b->ops[1]->noperands != 1 ||
        b->ops[1]->operands[0] != body->results[0] ||
        !((body->operands[0] == b->args[0] && body->operands[1] == b->args[1]) ||
          (body->operands[0] == b->args[1] && body->operands[1] == b->args[0])))
        return ss__imp_fail(im, op, "unsupported: a reduce body other than one op of its "
                                    "two arguments");
    int dims[SS_MAX_RANK], nd;
    if (!ss__imp_dims(im, op, "dimensions", dims, &nd))
        return false;
    ss_program *p = prog(im);
    ss_status st = ss_reduce(p, bodies[k].r, x[0], nd, dims, 0, out);
    if (!st && !is_identity(op->operands[1], bodies[k].r))
        st = ss_binary(p, bodies[k].b, *out, x[1], out);
    return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", op->name, ss_error_message());
}

/* Is op `name` comparing `dir` of a and b (in that order)? */
static bool is_compare(const ss__mlir_op *o, const char *dir, const ss__mlir_value *a,
                       const ss__mlir_value *b)
{
    const ss__mlir_attr *d = ss__mlir_op_attr(o, "comparison_direction");
    return strcmp(o->name, "stablehlo.compare") == 0 && o->noperands == 2 &&
           o->operands[0] == a && o->operands[1] == b && d && d->kind == SS__MLIR_AT_ENUM &&
           d->s3 && strcmp(d->s3, dir) == 0;
}

static bool is_op(const ss__mlir_op *o, const char *name, const ss__mlir_value *a,
                  const ss__mlir_value *b)
{
    return strcmp(o->name, name) == 0 && o->noperands == 2 && o->operands[0] == a &&
           o->operands[1] == b;
}

static bool is_select(const ss__mlir_op *o, const ss__mlir_value *c, const ss__mlir_value *a,
                      const ss__mlir_value *b)
{
    return strcmp(o->name, "stablehlo.select") == 0 && o->noperands == 3 &&
           o->operands[0] == c && o->operands[1] == a && o->operands[2] == b;
}

/* JAX's argmax/argmin body (lax._compute_argminmax): +1 for argmax, -1
 * for argmin, 0 when the block is something else. Arguments: value acc,
 * index acc, value in, index in (StableHLO's order: every operand's
 * accumulator, then every operand's input). */
static int arg_body(const ss__mlir_block *b)
{
    if (b->nargs != 4 || b->nops != 10)
        return 0;
    ss__mlir_value *const *a = b->args;
    ss__mlir_op *const *o = b->ops;
    int dir = is_compare(o[0], "GT", a[0], a[2]) ? 1 : is_compare(o[0], "LT", a[0], a[2]) ? -1 : 0;
    bool ok = dir != 0 && is_compare(o[1], "NE", a[0], a[0]) &&
              is_op(o[2], "stablehlo.or", o[0]->results[0], o[1]->results[0]) &&
              is_compare(o[3], "EQ", a[0], a[2]) && is_compare(o[4], "LT", a[1], a[3]) &&
              is_op(o[5], "stablehlo.and", o[3]->results[0], o[4]->results[0]) &&
              is_op(o[6], "stablehlo.or", o[2]->results[0], o[5]->results[0]) &&
              is_select(o[7], o[2]->results[0], a[0], a[2]) &&
              is_select(o[8], o[6]->results[0], a[1], a[3]) &&
              strcmp(o[9]->name, "stablehlo.return") == 0 && o[9]->noperands == 2 &&
              o[9]->operands[0] == o[7]->results[0] && o[9]->operands[1] == o[8]->results[0];
    return ok ? dir : 0;
}

/* The init of an argmax (dir 1) or argmin (-1) value: -inf / +inf for
 * floats, the type's lowest / highest for integers. */
static bool arg_init(const ss__mlir_value *v, int dir)
{
    double f;
    int64_t i;
    if (!splat_value(v, &f, &i))
        return false;
    if (ss__mlir_elem_is_float(v->type->elem))
        return isinf(f) && (dir > 0 ? f < 0 : f > 0);
    int bits = (int)ss__mlir_elem_size(v->type->elem) * 8;
    bool uns = ss__mlir_elem_is_unsigned(v->type->elem);
    if (bits >= 64)
        return uns ? (uint64_t)i == (dir > 0 ? 0 : UINT64_MAX)
                   : i == (dir > 0 ? INT64_MIN : INT64_MAX);
    int64_t lo = uns ? 0 : -(INT64_C(1) << (bits - 1));
    int64_t hi = uns ? (INT64_C(1) << bits) - 1 : (INT64_C(1) << (bits - 1)) - 1;
    if (uns) /* a dense unsigned element reads back as its bits */
        i &= (int64_t)((UINT64_C(1) << bits) - 1);
    return i == (dir > 0 ? lo : hi);
}

static bool reduce_arg(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value res[])
{
    const ss__mlir_block *b = op->nregions == 1 && op->regions[0]->nblocks == 1
                                  ? op->regions[0]->blocks[0] : NULL;
    int dir = b ? arg_body(b) : 0;
    int dims[SS_MAX_RANK], nd;
    if (!ss__imp_dims(im, op, "dimensions", dims, &nd))
        return false;
    const ss__mlir_op *iota = op->operands[1]->def;
    const ss__mlir_attr *id = iota ? ss__mlir_op_attr(iota, "iota_dimension") : NULL;
    double f;
    int64_t i0;
    bool ok = dir != 0 && nd == 1 && iota && strcmp(iota->name, "stablehlo.iota") == 0 && id &&
              id->kind == SS__MLIR_AT_INT && id->i == dims[0] && arg_init(op->operands[2], dir) &&
              splat_value(op->operands[3], &f, &i0) && i0 == 0;
    if (!ok)
        return ss__imp_fail(im, op, "unsupported: a reduce of 2 operands other than JAX's "
                                    "argmax/argmin (values and an iota, compare-and-select body)");
    ss_dtype idt;
    if (!ss__imp_dtype(op->results[1]->type->elem, &idt))
        return ss__imp_fail(im, op, "'%s': unsupported index type", op->name);
    ss_program *p = prog(im);
    ss_status st = (dir > 0 ? ss_argmax : ss_argmin)(p, x[0], dims[0], idt, &res[1]);
    if (!st)
        st = ss_reduce(p, dir > 0 ? SS_REDUCE_MAX : SS_REDUCE_MIN, x[0], 1, dims, 0, &res[0]);
    return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", op->name, ss_error_message());
}

bool ss__imp_reduce(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value res[])
{
    if (op->noperands == 2 && op->nresults == 1)
        return reduce_one(im, op, x, &res[0]);
    if (op->noperands == 4 && op->nresults == 2)
        return reduce_arg(im, op, x, res);
    return ss__imp_fail(im, op, "unsupported: a reduce of %d operands", op->noperands / 2);
}
