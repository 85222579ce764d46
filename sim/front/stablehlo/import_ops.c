/*
 * import_ops.c — each StableHLO op of a block through the program builder
 * of shardsim.h (import.h). The names and attributes are StableHLO's
 * (https://openxla.org/stablehlo/spec) in the generic form the reader
 * brings every op to (mlir_canon.c).
 *
 * An op without a mapping is an error naming it, its spot in the file and
 * the user's Python line: never skipped. func.call is inlined (its callee's
 * block run with the call's operands), optimization_barrier passes its
 * operands through, the Sharding custom call and sdy.sharding_constraint /
 * sdy.reshard are constraints, @annotate_device_placement to "device" passes
 * its operand through.
 */
#include "front/stablehlo/import.h"
#include "graph/graph.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CALL_DEPTH 64

static ss_program *prog(ss__imp *im) { return im->sc->program; }

/* @annotate_device_placement (jax.device_put to a memory kind inside jit,
 * jit's out_shardings with a memory_kind, jax.checkpoint's offloading
 * policies): its mhlo.frontend_attributes' _xla_buffer_placement names the
 * memory the operand is to live in. "device" is where every value already
 * lives, so the call passes its operand through (XLA drops it too); a host
 * kind ("pinned_host", "unpinned_host") is a device_put there
 * (ss_device_put): a transfer to the host's arena. */
static bool op_placement(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value res[])
{
    if (op->noperands != 1 || op->nresults != 1)
        return ss__imp_fail(im, op, "'stablehlo.custom_call @annotate_device_placement': expected "
                                    "one operand and one result, not %d and %d",
                            op->noperands, op->nresults);
    const ss__mlir_attr *fa = ss__mlir_op_attr(op, "mhlo.frontend_attributes");
    const ss__mlir_attr *p = ss__mlir_dict_get(fa, "_xla_buffer_placement");
    if (!p || p->kind != SS__MLIR_AT_STRING)
        return ss__imp_fail(im, op, "'stablehlo.custom_call @annotate_device_placement': no "
                                    "string _xla_buffer_placement in mhlo.frontend_attributes");
    ss_memory_kind kind;
    if (!ss__imp_memory_kind(p->s, p->len, &kind))
        return ss__imp_fail(im, op, "unsupported placement '_xla_buffer_placement = \"%.*s\"' "
                                    "of 'stablehlo.custom_call @annotate_device_placement': "
                                    "expected device, pinned_host or unpinned_host",
                            (int)p->len, p->s);
    if (kind == SS_MEMORY_DEVICE && !ss__imp_in_host_memory(im, x[0])) {
        res[0] = x[0];
        return true;
    }
    int before = ss_program_value_count(prog(im));
    ss_status st = ss_device_put(prog(im), x[0], kind, &res[0]);
    return ss__imp_built(im, op, st, before);
}

/* The single tensor result of op, with its dtype. */
static bool result_type(ss__imp *im, const ss__mlir_op *op, const ss__mlir_type **t,
                        ss_dtype *dt)
{
    if (op->nresults != 1 || op->results[0]->type->kind != SS__MLIR_TY_TENSOR)
        return ss__imp_fail(im, op, "'%s': expected one tensor result", op->name);
    *t = op->results[0]->type;
    if (!ss__imp_dtype((*t)->elem, dt))
        return ss__imp_fail(im, op, "'%s': unsupported element type %s", op->name,
                            ss__mlir_elem_name((*t)->elem));
    if ((*t)->rank > SS_MAX_RANK)
        return ss__imp_fail(im, op, "'%s': rank %d (at most %d)", op->name, (*t)->rank,
                            SS_MAX_RANK);
    return true;
}

/* An integer list attribute (array<i64: ..> or [1, 2]) into out[0..cap). */
static bool int_list(ss__imp *im, const ss__mlir_op *op, const ss__mlir_attr *a,
                     const char *what, int64_t out[], int cap, int *n)
{
    *n = 0;
    if (!a)
        return true;
    if (a->kind == SS__MLIR_AT_DENSE_ARRAY || a->kind == SS__MLIR_AT_DENSE) {
        if (a->count > cap)
            return ss__imp_fail(im, op, "'%s': %s has more than %d entries", op->name, what, cap);
        for (int64_t k = 0; k < a->count; k++)
            out[k] = ss__mlir_dense_i64(a, k);
        *n = (int)a->count;
        return true;
    }
    if (a->kind == SS__MLIR_AT_ARRAY) {
        if (a->n > cap)
            return ss__imp_fail(im, op, "'%s': %s has more than %d entries", op->name, what, cap);
        for (int k = 0; k < a->n; k++) {
            if (a->items[k]->kind != SS__MLIR_AT_INT)
                return ss__imp_fail(im, op, "'%s': %s is a list of integers", op->name, what);
            out[k] = a->items[k]->i;
        }
        *n = a->n;
        return true;
    }
    return ss__imp_fail(im, op, "'%s': %s is a list of integers", op->name, what);
}

static bool dims_list(ss__imp *im, const ss__mlir_op *op, const ss__mlir_attr *a,
                      const char *what, int out[], int *n)
{
    int64_t v[SS_MAX_RANK];
    if (!int_list(im, op, a, what, v, SS_MAX_RANK, n))
        return false;
    for (int k = 0; k < *n; k++) {
        if (v[k] < 0 || v[k] >= SS_MAX_RANK)
            return ss__imp_fail(im, op, "'%s': %s entry %lld out of range", op->name, what,
                                (long long)v[k]);
        out[k] = (int)v[k];
    }
    return true;
}

bool ss__imp_dims(ss__imp *im, const ss__mlir_op *op, const char *what, int out[], int *n)
{
    return dims_list(im, op, ss__mlir_op_attr(op, what), what, out, n);
}

bool ss__imp_dims_attr(ss__imp *im, const ss__mlir_op *op, const ss__mlir_attr *a,
                       const char *what, int out[], int *n)
{
    return dims_list(im, op, a, what, out, n);
}

bool ss__imp_int_list(ss__imp *im, const ss__mlir_op *op, const ss__mlir_attr *a,
                      const char *what, int64_t out[], int cap, int *n)
{
    return int_list(im, op, a, what, out, cap, n);
}

/* --- Op tables ---------------------------------------------------------------- */

static const struct { const char *name; ss_unary_op op; } unary_ops[] = {
    {"stablehlo.negate", SS_NEG}, {"stablehlo.exponential", SS_EXP}, {"stablehlo.log", SS_LOG},
    {"stablehlo.tanh", SS_TANH}, {"stablehlo.sqrt", SS_SQRT}, {"stablehlo.rsqrt", SS_RSQRT},
    {"chlo.square", SS_SQUARE}, {"stablehlo.abs", SS_ABS}, {"stablehlo.sign", SS_SIGN},
    {"stablehlo.floor", SS_FLOOR}, {"stablehlo.ceil", SS_CEIL},
    {"stablehlo.round_nearest_even", SS_ROUND_EVEN}, {"stablehlo.round_nearest_afz", SS_ROUND_AFZ},
    {"stablehlo.sine", SS_SIN}, {"stablehlo.cosine", SS_COS}, {"stablehlo.tan", SS_TAN},
    {"chlo.tan", SS_TAN}, {"chlo.erf", SS_ERF}, {"stablehlo.exponential_minus_one", SS_EXPM1},
    {"stablehlo.log_plus_one", SS_LOG1P}, {"stablehlo.logistic", SS_LOGISTIC},
    {"stablehlo.cbrt", SS_CBRT}, {"stablehlo.is_finite", SS_IS_FINITE}, {"stablehlo.not", SS_NOT},
    {"stablehlo.popcnt", SS_POPCNT}, {"chlo.erf_inv", SS_ERF_INV},
    {"stablehlo.count_leading_zeros", SS_CLZ},
};

static const struct { const char *name; ss_binary_op op; } binary_ops[] = {
    {"stablehlo.add", SS_ADD}, {"stablehlo.subtract", SS_SUB}, {"stablehlo.multiply", SS_MUL},
    {"stablehlo.divide", SS_DIV}, {"stablehlo.maximum", SS_MAX}, {"stablehlo.minimum", SS_MIN},
    {"stablehlo.power", SS_POW}, {"stablehlo.remainder", SS_REM}, {"stablehlo.and", SS_AND},
    {"stablehlo.or", SS_OR}, {"stablehlo.xor", SS_XOR}, {"stablehlo.shift_left", SS_SHIFT_LEFT},
    {"stablehlo.shift_right_arithmetic", SS_SHIFT_RIGHT_ARITHMETIC},
    {"stablehlo.shift_right_logical", SS_SHIFT_RIGHT_LOGICAL}, {"stablehlo.atan2", SS_ATAN2},
    {"chlo.next_after", SS_NEXT_AFTER},
};

static int find_unary(const char *name)
{
    for (size_t k = 0; k < sizeof unary_ops / sizeof *unary_ops; k++)
        if (strcmp(unary_ops[k].name, name) == 0)
            return (int)k;
    return -1;
}

static int find_binary(const char *name)
{
    for (size_t k = 0; k < sizeof binary_ops / sizeof *binary_ops; k++)
        if (strcmp(binary_ops[k].name, name) == 0)
            return (int)k;
    return -1;
}

/* --- Ops ----------------------------------------------------------------------------- */

static bool op_constant(ss__imp *im, const ss__mlir_op *op, ss_value *out)
{
    const ss__mlir_type *t;
    ss_dtype dt;
    if (!result_type(im, op, &t, &dt))
        return false;
    const ss__mlir_attr *a = ss__mlir_op_attr(op, "value");
    if (!a || a->kind != SS__MLIR_AT_DENSE || !a->data || !a->type ||
        ss__mlir_elem_size(a->type->elem) != ss_dtype_size(dt))
        return ss__imp_fail(im, op, "'%s': expected value = dense<...> of its type", op->name);
    ss_program *p = prog(im);
    ss_status st;
    /* the element bytes of a dense attribute are shardsim's (i1: one byte) */
    if (a->splat && t->rank > 0) {
        int none[1] = {0};
        st = ss_constant_array(p, dt, 0, t->dims, a->data, out);
        if (!st)
            st = ss_broadcast_in_dim(p, *out, t->rank, t->dims, none, out);
    } else {
        st = ss_constant_array(p, dt, t->rank, t->dims, a->data, out);
    }
    return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", op->name, ss_error_message());
}

static bool op_pad(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value *out)
{
    int64_t lo[SS_MAX_RANK], hi[SS_MAX_RANK], in[SS_MAX_RANK];
    int n1, n2, n3, rank = op->operands[0]->type->rank;
    if (!int_list(im, op, ss__mlir_op_attr(op, "edge_padding_low"), "edge_padding_low", lo,
                  SS_MAX_RANK, &n1) ||
        !int_list(im, op, ss__mlir_op_attr(op, "edge_padding_high"), "edge_padding_high", hi,
                  SS_MAX_RANK, &n2) ||
        !int_list(im, op, ss__mlir_op_attr(op, "interior_padding"), "interior_padding", in,
                  SS_MAX_RANK, &n3))
        return false;
    if (n1 != rank || n2 != rank || n3 != rank)
        return ss__imp_fail(im, op, "'%s': padding needs one entry per dim", op->name);
    ss_status st = ss_pad(prog(im), x[0], x[1], lo, hi, in, out);
    return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", op->name, ss_error_message());
}

/* reduce_precision (jax.checkpoint's policies emit it on the values they
 * name, e.g. checkpoint_dots): rounding to `exponent_bits` and
 * `mantissa_bits` (pretty form: format = eXmY). Only the identity is read:
 * a format at least as wide as the operand's float type (e8m23 on f32),
 * where every value is representable and nothing changes. Narrower formats
 * are refused by name. */
static bool op_reduce_precision(ss__imp *im, const ss__mlir_op *op, const ss_value x[],
                                ss_value *out)
{
    long e = -1, m = -1;
    const ss__mlir_attr *f = ss__mlir_op_attr(op, "format");
    const ss__mlir_attr *eb = ss__mlir_op_attr(op, "exponent_bits");
    const ss__mlir_attr *mb = ss__mlir_op_attr(op, "mantissa_bits");
    if (f && f->kind == SS__MLIR_AT_KEYWORD && f->s && sscanf(f->s, "e%ldm%ld", &e, &m) != 2)
        e = m = -1;
    if (eb && eb->kind == SS__MLIR_AT_INT && mb && mb->kind == SS__MLIR_AT_INT) {
        e = (long)eb->i;
        m = (long)mb->i;
    }
    if (e < 1 || m < 0)
        return ss__imp_fail(im, op, "'%s': no exponent_bits and mantissa_bits", op->name);
    const ss__mlir_type *t;
    ss_dtype dt;
    if (!result_type(im, op, &t, &dt))
        return false;
    long te = dt == SS_F32 ? 8 : dt == SS_BF16 ? 8 : dt == SS_F16 ? 5 : dt == SS_F64 ? 11 : -1;
    long tm = dt == SS_F32 ? 23 : dt == SS_BF16 ? 7 : dt == SS_F16 ? 10 : dt == SS_F64 ? 52 : -1;
    if (te < 0 || e < te || m < tm)
        return ss__imp_fail(im, op, "unsupported op '%s' to e%ldm%ld on %s: only a format at "
                                    "least as wide as the type (no rounding) is read",
                            op->name, e, m, ss_dtype_name(dt));
    *out = x[0];
    return true;
}

static bool op_compare(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value *out)
{
    static const char *const dirs[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
    static const char *const types[] = {"FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"};
    const ss__mlir_attr *d = ss__mlir_op_attr(op, "comparison_direction");
    const ss__mlir_attr *ty = ss__mlir_op_attr(op, "compare_type");
    int dir = -1, type = -1;
    for (int k = 0; d && d->kind == SS__MLIR_AT_ENUM && d->s3 && k < 6; k++)
        if (strcmp(d->s3, dirs[k]) == 0)
            dir = k;
    for (int k = 0; ty && ty->kind == SS__MLIR_AT_ENUM && ty->s3 && k < 4; k++)
        if (strcmp(ty->s3, types[k]) == 0)
            type = k;
    if (dir < 0)
        return ss__imp_fail(im, op, "'%s': no comparison_direction", op->name);
    if (type < 0) { /* not written: the operands' kind decides */
        ss_dtype dt;
        if (!ss__imp_dtype(op->operands[0]->type->elem, &dt))
            return ss__imp_fail(im, op, "'%s': unsupported element type", op->name);
        type = dt == SS_F32 || dt == SS_F64 || dt == SS_BF16 || dt == SS_F16 ? 0
               : dt == SS_BOOL || dt == SS_U8 || dt == SS_U16 || dt == SS_U32 || dt == SS_U64 ? 3
                                                                                              : 2;
    }
    ss_status st = ss_compare(prog(im), (ss_cmp_dir)dir, (ss_cmp_type)type, x[0], x[1], out);
    return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", op->name, ss_error_message());
}

static bool op_dot(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value *out)
{
    const ss__mlir_type *t;
    ss_dtype dt;
    if (!result_type(im, op, &t, &dt))
        return false;
    const ss__mlir_attr *dn = ss__mlir_op_attr(op, "dot_dimension_numbers");
    static const char *const keys[4] = {"lhs_batching_dimensions", "rhs_batching_dimensions",
                                        "lhs_contracting_dimensions",
                                        "rhs_contracting_dimensions"};
    int d[4][SS_MAX_RANK], n[4];
    for (int k = 0; k < 4; k++)
        if (!dims_list(im, op, ss__mlir_dict_get(dn, keys[k]), keys[k], d[k], &n[k]))
            return false;
    if (n[0] != n[1] || n[2] != n[3])
        return ss__imp_fail(im, op, "'%s': lhs and rhs dimension lists differ in length",
                            op->name);
    ss_status st = ss_dot_general(prog(im), x[0], x[1], n[0], d[0], d[1], n[2], d[2], d[3], out);
    ss_dtype have;
    int rank;
    int64_t shape[SS_MAX_RANK];
    if (!st)
        st = ss_value_shape(prog(im), *out, &have, &rank, shape);
    /* precision = [HIGH, HIGHEST]: the dot is not one bf16 pass on TPU */
    const ss__mlir_attr *pc = ss__mlir_op_attr(op, "precision_config");
    for (int k = 0; !st && pc && pc->kind == SS__MLIR_AT_ARRAY && k < pc->n; k++)
        if (pc->items[k]->kind == SS__MLIR_AT_ENUM && pc->items[k]->s3 &&
            strcmp(pc->items[k]->s3, "DEFAULT") != 0)
            prog(im)->nodes[*out].dot_precise = true;
    if (!st && have != dt) /* preferred element type */
        st = ss_convert(prog(im), *out, dt, out);
    return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", op->name, ss_error_message());
}

/* stablehlo.rng_bit_generator %state, algorithm = X: (new state, bits). */
static bool op_rng(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value res[])
{
    static const struct { const char *name; ss_rng_algorithm alg; } algs[] = {
        {"DEFAULT", SS_RNG_DEFAULT}, {"THREE_FRY", SS_RNG_THREE_FRY}, {"PHILOX", SS_RNG_PHILOX},
    };
    const ss__mlir_attr *a = ss__mlir_op_attr(op, "rng_algorithm");
    const char *name = a && a->kind == SS__MLIR_AT_ENUM && a->s3 ? a->s3 : "";
    int k = 0;
    while (k < 3 && strcmp(algs[k].name, name) != 0)
        k++;
    if (k == 3)
        return ss__imp_fail(im, op, "'%s': algorithm '%s' (DEFAULT, THREE_FRY or PHILOX)",
                            op->name, name);
    if (op->noperands != 1 || op->nresults != 2 ||
        op->results[1]->type->kind != SS__MLIR_TY_TENSOR)
        return ss__imp_fail(im, op, "'%s': expected one operand and two results", op->name);
    const ss__mlir_type *t = op->results[1]->type;
    ss_dtype dt;
    if (!ss__imp_dtype(t->elem, &dt) || t->rank > SS_MAX_RANK)
        return ss__imp_fail(im, op, "'%s': bits of %s, rank %d", op->name,
                            ss__mlir_elem_name(t->elem), t->rank);
    ss_status st = ss_rng_bit_generator(prog(im), x[0], algs[k].alg, dt, t->rank, t->dims,
                                        &res[0], &res[1]);
    return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", op->name, ss_error_message());
}

static bool op_slice(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value *out)
{
    int64_t lo[SS_MAX_RANK], hi[SS_MAX_RANK], step[SS_MAX_RANK];
    int n1, n2, n3;
    if (!int_list(im, op, ss__mlir_op_attr(op, "start_indices"), "start_indices", lo,
                  SS_MAX_RANK, &n1) ||
        !int_list(im, op, ss__mlir_op_attr(op, "limit_indices"), "limit_indices", hi,
                  SS_MAX_RANK, &n2) ||
        !int_list(im, op, ss__mlir_op_attr(op, "strides"), "strides", step, SS_MAX_RANK, &n3))
        return false;
    if (n1 != n2 || n1 != op->operands[0]->type->rank)
        return ss__imp_fail(im, op, "'%s': start and limit indices need one entry per dim",
                            op->name);
    if (n3 && n3 != n1)
        return ss__imp_fail(im, op, "'%s': strides need one entry per dim", op->name);
    ss_status st = ss_slice_strided(prog(im), x[0], lo, hi, n3 ? step : NULL, out);
    return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", op->name, ss_error_message());
}

static bool op_constraint(ss__imp *im, const ss__mlir_op *op, const ss__mlir_attr *a,
                          const ss_value x[], ss_value *out)
{
    ss_spec spec;
    if (!a)
        return ss__imp_fail(im, op, "'%s': no sharding", op->name);
    if (!ss__imp_attr_spec(im, op, a, 0, op->operands[0]->type->rank, &spec))
        return false;
    ss_status st = ss_constrain(prog(im), x[0], &spec, out);
    return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", op->name, ss_error_message());
}

static bool op_call(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value res[])
{
    const ss__mlir_attr *c = ss__mlir_op_attr(op, "callee");
    ss__mlir_func f;
    if (!c || c->kind != SS__MLIR_AT_SYMBOL || !ss__mlir_func_find(im->m, c->s, &f) || !f.body)
        return ss__imp_fail(im, op, "'%s': no function @%s with a body", op->name,
                            c && c->s ? c->s : "?");
    if (f.body->nargs != op->noperands || f.type->nres != op->nresults)
        return ss__imp_fail(im, op, "'%s': @%s takes %d arguments and returns %d", op->name,
                            f.name, f.body->nargs, f.type->nres);
    if (im->call_depth >= MAX_CALL_DEPTH)
        return ss__imp_fail(im, op, "calls nested deeper than %d (recursion?)", MAX_CALL_DEPTH);
    for (int k = 0; k < op->noperands; k++)
        if (!ss__imp_put(im, f.body->args[k], x[k]))
            return false;
    int n;
    im->calls[im->call_depth++] = op;
    bool ok = ss__imp_block(im, f.body, res, op->nresults, &n);
    im->call_depth--;
    if (ok && n != op->nresults)
        return ss__imp_fail(im, op, "@%s returns %d values, the call expects %d", f.name, n,
                            op->nresults);
    return ok;
}

/* Map one op: its results into res[] (op->nresults of them). */
static bool map_op(ss__imp *im, const ss__mlir_op *op, const ss_value x[], ss_value res[])
{
    ss_program *p = prog(im);
    const char *n = op->name;
    int k;
    ss_status st = SS_OK;
    if ((k = find_unary(n)) >= 0 && op->noperands == 1)
        st = ss_unary(p, unary_ops[k].op, x[0], &res[0]);
    else if (strcmp(n, "stablehlo.divide") == 0 && op->noperands == 2)
        return ss__imp_divide(im, op, x, &res[0]);
    else if (strcmp(n, "stablehlo.multiply") == 0 && op->noperands == 2)
        return ss__imp_multiply(im, op, x, &res[0]);
    else if ((k = find_binary(n)) >= 0 && op->noperands == 2)
        st = ss_binary(p, binary_ops[k].op, x[0], x[1], &res[0]);
    else if (strcmp(n, "stablehlo.constant") == 0)
        return op_constant(im, op, &res[0]);
    else if (strcmp(n, "stablehlo.compare") == 0 && op->noperands == 2)
        return op_compare(im, op, x, &res[0]);
    else if (strcmp(n, "stablehlo.select") == 0 && op->noperands == 3)
        st = ss_select(p, x[0], x[1], x[2], &res[0]);
    else if (strcmp(n, "stablehlo.clamp") == 0 && op->noperands == 3)
        st = ss_clamp(p, x[0], x[1], x[2], &res[0]);
    else if (strcmp(n, "stablehlo.reduce_precision") == 0 && op->noperands == 1)
        return op_reduce_precision(im, op, x, &res[0]);
    else if (strcmp(n, "stablehlo.dot_general") == 0 && op->noperands == 2)
        return op_dot(im, op, x, &res[0]);
    else if (strcmp(n, "stablehlo.reduce") == 0)
        return ss__imp_reduce(im, op, x, res);
    else if (strcmp(n, "stablehlo.gather") == 0)
        return ss__imp_gather(im, op, x, &res[0]);
    else if (strcmp(n, "stablehlo.scatter") == 0)
        return ss__imp_scatter(im, op, x, &res[0]);
    else if (strcmp(n, "stablehlo.sort") == 0)
        return ss__imp_sort(im, op, x, res);
    else if (strcmp(n, "stablehlo.rng_bit_generator") == 0)
        return op_rng(im, op, x, res);
    else if (strcmp(n, "chlo.top_k") == 0)
        return ss__imp_top_k(im, op, x, res);
    else if (strcmp(n, "stablehlo.reduce_window") == 0)
        return ss__imp_reduce_window(im, op, x, res);
    else if (strcmp(n, "stablehlo.select_and_scatter") == 0)
        return ss__imp_select_and_scatter(im, op, x, res);
    else if (strcmp(n, "stablehlo.case") == 0 || strcmp(n, "stablehlo.if") == 0)
        return ss__imp_case(im, op, x, res);
    else if (strcmp(n, "stablehlo.slice") == 0 && op->noperands == 1)
        return op_slice(im, op, x, &res[0]);
    else if ((strcmp(n, "sdy.sharding_constraint") == 0 || strcmp(n, "sdy.reshard") == 0) &&
             op->noperands == 1)
        return op_constraint(im, op, ss__mlir_op_attr(op, "sharding"), x, &res[0]);
    else if (strcmp(n, "func.call") == 0)
        return op_call(im, op, x, res);
    else if (strcmp(n, "sdy.manual_computation") == 0)
        return ss__imp_manual(im, op, x, res);
    else if (strcmp(n, "stablehlo.while") == 0)
        return ss__imp_while(im, op, x, res);
    else if (ss__imp_is_collective(n))
        return ss__imp_collective(im, op, x, &res[0]);
    else if (strcmp(n, "stablehlo.optimization_barrier") == 0 &&
             op->noperands == op->nresults) {
        for (int i = 0; i < op->noperands; i++)
            res[i] = x[i];
        return true;
    } else if (strcmp(n, "stablehlo.custom_call") == 0) {
        const ss__mlir_attr *t = ss__mlir_op_attr(op, "call_target_name");
        if (t && t->kind == SS__MLIR_AT_STRING && t->len == 8 && memcmp(t->s, "Sharding", 8) == 0 &&
            op->noperands == 1 && op->nresults == 1)
            return op_constraint(im, op, ss__mlir_op_attr(op, "mhlo.sharding"), x, &res[0]);
        if (t && t->kind == SS__MLIR_AT_STRING && t->len == 25 &&
            memcmp(t->s, "annotate_device_placement", 25) == 0)
            return op_placement(im, op, x, res);
        return ss__imp_fail(im, op, "unsupported op 'stablehlo.custom_call @%.*s'",
                            t && t->kind == SS__MLIR_AT_STRING ? (int)t->len : 1,
                            t && t->kind == SS__MLIR_AT_STRING ? t->s : "?");
    } else {
        const ss__mlir_type *t;
        ss_dtype dt;
        if (strcmp(n, "stablehlo.convert") == 0 && op->noperands == 1) {
            if (!result_type(im, op, &t, &dt))
                return false;
            st = ss_convert(p, x[0], dt, &res[0]);
        } else if (strcmp(n, "stablehlo.bitcast_convert") == 0 && op->noperands == 1) {
            if (!result_type(im, op, &t, &dt))
                return false;
            st = ss_bitcast_convert(p, x[0], dt, &res[0]);
        } else if (strcmp(n, "stablehlo.reshape") == 0 && op->noperands == 1) {
            if (!result_type(im, op, &t, &dt))
                return false;
            st = ss_reshape(p, x[0], t->rank, t->dims, &res[0]);
        } else if (strcmp(n, "stablehlo.broadcast_in_dim") == 0 && op->noperands == 1) {
            int dims[SS_MAX_RANK], nd;
            if (!result_type(im, op, &t, &dt) ||
                !dims_list(im, op, ss__mlir_op_attr(op, "broadcast_dimensions"),
                           "broadcast_dimensions", dims, &nd))
                return false;
            if (nd != op->operands[0]->type->rank)
                return ss__imp_fail(im, op, "'%s': %d broadcast dimensions for an operand of "
                                            "rank %d", n, nd, op->operands[0]->type->rank);
            st = ss_broadcast_in_dim(p, x[0], t->rank, t->dims, dims, &res[0]);
        } else if (strcmp(n, "stablehlo.transpose") == 0 && op->noperands == 1) {
            int perm[SS_MAX_RANK], np;
            if (!dims_list(im, op, ss__mlir_op_attr(op, "permutation"), "permutation", perm, &np))
                return false;
            if (np != op->operands[0]->type->rank)
                return ss__imp_fail(im, op, "'%s': a permutation of %d dims for rank %d", n, np,
                                    op->operands[0]->type->rank);
            st = ss_transpose(p, x[0], perm, &res[0]);
        } else if (strcmp(n, "stablehlo.iota") == 0 && op->noperands == 0) {
            const ss__mlir_attr *d = ss__mlir_op_attr(op, "iota_dimension");
            if (!result_type(im, op, &t, &dt))
                return false;
            if (!d || d->kind != SS__MLIR_AT_INT || d->i < 0 || d->i >= t->rank)
                return ss__imp_fail(im, op, "'%s': iota_dimension out of range", n);
            st = ss_iota(p, dt, t->rank, t->dims, (int)d->i, &res[0]);
        } else if (strcmp(n, "stablehlo.reverse") == 0 && op->noperands == 1) {
            int dims[SS_MAX_RANK], nd;
            if (!dims_list(im, op, ss__mlir_op_attr(op, "dimensions"), "dimensions", dims, &nd))
                return false;
            st = ss_reverse(p, x[0], nd, dims, &res[0]);
        } else if (strcmp(n, "stablehlo.dynamic_slice") == 0 && op->noperands >= 1) {
            int64_t sizes[SS_MAX_RANK];
            int ns;
            if (!int_list(im, op, ss__mlir_op_attr(op, "slice_sizes"), "slice_sizes", sizes,
                          SS_MAX_RANK, &ns))
                return false;
            if (ns != op->noperands - 1 || ns != op->operands[0]->type->rank)
                return ss__imp_fail(im, op, "'%s': needs one start index and one slice size per "
                                            "dim", n);
            st = ss_dynamic_slice(p, x[0], ns, x + 1, sizes, &res[0]);
        } else if (strcmp(n, "stablehlo.dynamic_update_slice") == 0 && op->noperands >= 2) {
            if (op->noperands - 2 != op->operands[0]->type->rank)
                return ss__imp_fail(im, op, "'%s': needs one start index per dim", n);
            st = ss_dynamic_update_slice(p, x[0], x[1], op->noperands - 2, x + 2, &res[0]);
        } else if (strcmp(n, "stablehlo.pad") == 0 && op->noperands == 2) {
            return op_pad(im, op, x, &res[0]);
        } else if (strcmp(n, "stablehlo.concatenate") == 0 && op->noperands >= 1) {
            const ss__mlir_attr *d = ss__mlir_op_attr(op, "dimension");
            if (!d || d->kind != SS__MLIR_AT_INT || d->i < 0 || d->i >= SS_MAX_RANK)
                return ss__imp_fail(im, op, "'%s': no dimension", n);
            st = ss_concatenate(p, op->noperands, x, (int)d->i, &res[0]);
        } else {
            return ss__imp_fail(im, op, "unsupported op '%s'", n);
        }
    }
    return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", n, ss_error_message());
}

/* The value shardsim built has the type the text gives the result. */
static bool same_type(ss__imp *im, const ss__mlir_op *op, const ss__mlir_value *res, ss_value v)
{
    ss_dtype dt, want;
    int rank;
    int64_t shape[SS_MAX_RANK];
    if (v < 0 || ss_value_shape(prog(im), v, &dt, &rank, shape) != SS_OK)
        return ss__imp_fail(im, op, "'%s': result %d was not built", op->name, res->index);
    const ss__mlir_type *t = res->type;
    bool same = t->kind == SS__MLIR_TY_TENSOR && ss__imp_dtype(t->elem, &want) && want == dt &&
                (t->rank == rank || (im->elementwise_region > 0 && t->rank == 0));
    for (int d = 0; same && d < t->rank; d++)
        same = t->dims[d] == shape[d];
    if (same)
        return true;
    char have[96];
    ss__shape_text(have, sizeof have, dt, rank, shape);
    return ss__imp_fail(im, op, "'%s': shardsim computes %s where the text's result %s has "
                                "another type", op->name, have, res->name ? res->name : "?");
}

static bool is_terminator(const char *n)
{
    return strcmp(n, "func.return") == 0 || strcmp(n, "stablehlo.return") == 0 ||
           strcmp(n, "sdy.return") == 0;
}

bool ss__imp_block(ss__imp *im, const ss__mlir_block *block, ss_value ret[], int cap, int *nret)
{
    *nret = 0;
    ss_value small_x[8], small_r[8];
    for (int i = 0; i < block->nops; i++) {
        bool handled;
        if (!ss__imp_gspmd_manual(im, block, &i, &handled))
            return false;
        if (handled)
            continue;
        const ss__mlir_op *op = block->ops[i];
        ss_value *x = op->noperands <= 8 ? small_x : malloc(sizeof *x * (size_t)op->noperands);
        if (!x)
            return ss__imp_fail(im, NULL, "out of host memory");
        bool ok = true;
        for (int k = 0; ok && k < op->noperands; k++)
            ok = (x[k] = ss__imp_get(im, op, op->operands[k])) >= 0;
        if (ok && is_terminator(op->name)) {
            if (op->noperands > cap)
                ok = ss__imp_fail(im, op, "'%s' returns %d values, expected %d", op->name,
                                  op->noperands, cap);
            for (int k = 0; ok && k < op->noperands; k++)
                ret[k] = x[k];
            if (ok)
                *nret = op->noperands;
            if (x != small_x)
                free(x);
            return ok;
        }
        ss_value *r = op->nresults <= 8 ? small_r : calloc((size_t)op->nresults, sizeof *r);
        if (ok && !r)
            ok = ss__imp_fail(im, NULL, "out of host memory");
        int before = ss_program_value_count(prog(im));
        bool passes = strcmp(op->name, "func.call") == 0 ||
                      strcmp(op->name, "stablehlo.optimization_barrier") == 0 ||
                      strcmp(op->name, "sdy.manual_computation") == 0 ||
                      strcmp(op->name, "stablehlo.while") == 0 ||
                      strcmp(op->name, "stablehlo.reduce") == 0 ||
                      strcmp(op->name, "stablehlo.sort") == 0 ||
                      strcmp(op->name, "chlo.top_k") == 0 ||
                      strcmp(op->name, "stablehlo.rng_bit_generator") == 0 ||
                      strcmp(op->name, "stablehlo.case") == 0 ||
                      strcmp(op->name, "stablehlo.if") == 0;
        if (ok && !passes && op->nresults != 1)
            ok = ss__imp_fail(im, op, "unsupported op '%s' with %d results",
                              op->name, op->nresults);
        for (int k = 0; ok && k < op->nresults; k++)
            r[k] = -1;
        if (ok)
            ok = map_op(im, op, x, r);
        if (ok)
            ok = ss__imp_built(im, op, SS_OK, before);
        for (int k = 0; ok && k < op->nresults; k++)
            ok = same_type(im, op, op->results[k], r[k]);
        for (int k = 0; ok && k < op->nresults; k++)
            ok = ss__imp_put(im, op->results[k], r[k]);
        if (x != small_x)
            free(x);
        if (r && r != small_r)
            free(r);
        if (!ok)
            return false;
    }
    return ss__imp_fail(im, NULL, "a block without a return");
}
