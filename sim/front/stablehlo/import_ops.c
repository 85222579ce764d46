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

/* What the importer makes of an op, by its name: looked up once per op. */
typedef enum imp_kind {
    IMP_UNKNOWN, IMP_UNARY, IMP_BINARY, IMP_DIVIDE, IMP_MULTIPLY, IMP_CONSTANT, IMP_COMPARE,
    IMP_SELECT, IMP_CLAMP, IMP_REDUCE_PRECISION, IMP_DOT, IMP_REDUCE, IMP_GATHER, IMP_SCATTER,
    IMP_SORT, IMP_RNG, IMP_TOP_K, IMP_REDUCE_WINDOW, IMP_SELECT_AND_SCATTER, IMP_CASE, IMP_SLICE,
    IMP_CONSTRAINT, IMP_CALL, IMP_MANUAL, IMP_WHILE, IMP_COLLECTIVE, IMP_BARRIER,
    IMP_CUSTOM_CALL, IMP_CONVERT, IMP_BITCAST_CONVERT, IMP_RESHAPE, IMP_BROADCAST,
    IMP_TRANSPOSE, IMP_IOTA, IMP_REVERSE, IMP_DYNAMIC_SLICE, IMP_DYNAMIC_UPDATE_SLICE, IMP_PAD,
    IMP_CONCATENATE, IMP_RETURN,
} imp_kind;

/* Every op name the importer knows, sorted by strcmp (op_kind's binary
 * search), with its kind and, for an elementwise op, its ss_unary_op or
 * ss_binary_op. */
typedef struct imp_name {
    const char *name;
    imp_kind kind;
    int sub;
} imp_name;

static const imp_name op_names[] = {
    {"chlo.erf", IMP_UNARY, SS_ERF},
    {"chlo.erf_inv", IMP_UNARY, SS_ERF_INV},
    {"chlo.next_after", IMP_BINARY, SS_NEXT_AFTER},
    {"chlo.square", IMP_UNARY, SS_SQUARE},
    {"chlo.tan", IMP_UNARY, SS_TAN},
    {"chlo.top_k", IMP_TOP_K, 0},
    {"func.call", IMP_CALL, 0},
    {"func.return", IMP_RETURN, 0},
    {"sdy.manual_computation", IMP_MANUAL, 0},
    {"sdy.reshard", IMP_CONSTRAINT, 0},
    {"sdy.return", IMP_RETURN, 0},
    {"sdy.sharding_constraint", IMP_CONSTRAINT, 0},
    {"stablehlo.abs", IMP_UNARY, SS_ABS},
    {"stablehlo.add", IMP_BINARY, SS_ADD},
    {"stablehlo.all_gather", IMP_COLLECTIVE, 0},
    {"stablehlo.all_reduce", IMP_COLLECTIVE, 0},
    {"stablehlo.all_to_all", IMP_COLLECTIVE, 0},
    {"stablehlo.and", IMP_BINARY, SS_AND},
    {"stablehlo.atan2", IMP_BINARY, SS_ATAN2},
    {"stablehlo.bitcast_convert", IMP_BITCAST_CONVERT, 0},
    {"stablehlo.broadcast_in_dim", IMP_BROADCAST, 0},
    {"stablehlo.case", IMP_CASE, 0},
    {"stablehlo.cbrt", IMP_UNARY, SS_CBRT},
    {"stablehlo.ceil", IMP_UNARY, SS_CEIL},
    {"stablehlo.clamp", IMP_CLAMP, 0},
    {"stablehlo.collective_permute", IMP_COLLECTIVE, 0},
    {"stablehlo.compare", IMP_COMPARE, 0},
    {"stablehlo.concatenate", IMP_CONCATENATE, 0},
    {"stablehlo.constant", IMP_CONSTANT, 0},
    {"stablehlo.convert", IMP_CONVERT, 0},
    {"stablehlo.cosine", IMP_UNARY, SS_COS},
    {"stablehlo.count_leading_zeros", IMP_UNARY, SS_CLZ},
    {"stablehlo.custom_call", IMP_CUSTOM_CALL, 0},
    {"stablehlo.divide", IMP_DIVIDE, 0},
    {"stablehlo.dot_general", IMP_DOT, 0},
    {"stablehlo.dynamic_slice", IMP_DYNAMIC_SLICE, 0},
    {"stablehlo.dynamic_update_slice", IMP_DYNAMIC_UPDATE_SLICE, 0},
    {"stablehlo.exponential", IMP_UNARY, SS_EXP},
    {"stablehlo.exponential_minus_one", IMP_UNARY, SS_EXPM1},
    {"stablehlo.floor", IMP_UNARY, SS_FLOOR},
    {"stablehlo.gather", IMP_GATHER, 0},
    {"stablehlo.if", IMP_CASE, 0},
    {"stablehlo.iota", IMP_IOTA, 0},
    {"stablehlo.is_finite", IMP_UNARY, SS_IS_FINITE},
    {"stablehlo.log", IMP_UNARY, SS_LOG},
    {"stablehlo.log_plus_one", IMP_UNARY, SS_LOG1P},
    {"stablehlo.logistic", IMP_UNARY, SS_LOGISTIC},
    {"stablehlo.maximum", IMP_BINARY, SS_MAX},
    {"stablehlo.minimum", IMP_BINARY, SS_MIN},
    {"stablehlo.multiply", IMP_MULTIPLY, 0},
    {"stablehlo.negate", IMP_UNARY, SS_NEG},
    {"stablehlo.not", IMP_UNARY, SS_NOT},
    {"stablehlo.optimization_barrier", IMP_BARRIER, 0},
    {"stablehlo.or", IMP_BINARY, SS_OR},
    {"stablehlo.pad", IMP_PAD, 0},
    {"stablehlo.partition_id", IMP_COLLECTIVE, 0},
    {"stablehlo.popcnt", IMP_UNARY, SS_POPCNT},
    {"stablehlo.power", IMP_BINARY, SS_POW},
    {"stablehlo.reduce", IMP_REDUCE, 0},
    {"stablehlo.reduce_precision", IMP_REDUCE_PRECISION, 0},
    {"stablehlo.reduce_scatter", IMP_COLLECTIVE, 0},
    {"stablehlo.reduce_window", IMP_REDUCE_WINDOW, 0},
    {"stablehlo.remainder", IMP_BINARY, SS_REM},
    {"stablehlo.reshape", IMP_RESHAPE, 0},
    {"stablehlo.return", IMP_RETURN, 0},
    {"stablehlo.reverse", IMP_REVERSE, 0},
    {"stablehlo.rng_bit_generator", IMP_RNG, 0},
    {"stablehlo.round_nearest_afz", IMP_UNARY, SS_ROUND_AFZ},
    {"stablehlo.round_nearest_even", IMP_UNARY, SS_ROUND_EVEN},
    {"stablehlo.rsqrt", IMP_UNARY, SS_RSQRT},
    {"stablehlo.scatter", IMP_SCATTER, 0},
    {"stablehlo.select", IMP_SELECT, 0},
    {"stablehlo.select_and_scatter", IMP_SELECT_AND_SCATTER, 0},
    {"stablehlo.shift_left", IMP_BINARY, SS_SHIFT_LEFT},
    {"stablehlo.shift_right_arithmetic", IMP_BINARY, SS_SHIFT_RIGHT_ARITHMETIC},
    {"stablehlo.shift_right_logical", IMP_BINARY, SS_SHIFT_RIGHT_LOGICAL},
    {"stablehlo.sign", IMP_UNARY, SS_SIGN},
    {"stablehlo.sine", IMP_UNARY, SS_SIN},
    {"stablehlo.slice", IMP_SLICE, 0},
    {"stablehlo.sort", IMP_SORT, 0},
    {"stablehlo.sqrt", IMP_UNARY, SS_SQRT},
    {"stablehlo.subtract", IMP_BINARY, SS_SUB},
    {"stablehlo.tan", IMP_UNARY, SS_TAN},
    {"stablehlo.tanh", IMP_UNARY, SS_TANH},
    {"stablehlo.transpose", IMP_TRANSPOSE, 0},
    {"stablehlo.while", IMP_WHILE, 0},
    {"stablehlo.xor", IMP_BINARY, SS_XOR},
};

static int cmp_op_name(const void *key, const void *entry)
{
    return strcmp(key, ((const imp_name *)entry)->name);
}

/* The entry of op name n, or NULL for an op the importer does not know. */
static const imp_name *op_kind(const char *n)
{
    return bsearch(n, op_names, sizeof op_names / sizeof *op_names, sizeof *op_names,
                   cmp_op_name);
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
/* Op `op` of kind `on` (NULL: unknown) built from its operands x into its
 * results res. An op whose operand count does not fit its kind is
 * unsupported. */
static bool map_op(ss__imp *im, const ss__mlir_op *op, const imp_name *on, const ss_value x[],
                   ss_value res[])
{
    ss_program *p = prog(im);
    const char *n = op->name;
    int nx = op->noperands;
    const ss__mlir_type *t;
    ss_dtype dt;
    ss_status st = SS_OK;
    switch (on ? on->kind : IMP_UNKNOWN) {
    case IMP_UNARY:
        if (nx != 1)
            break;
        st = ss_unary(p, (ss_unary_op)on->sub, x[0], &res[0]);
        return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", n, ss_error_message());
    case IMP_BINARY:
        if (nx != 2)
            break;
        st = ss_binary(p, (ss_binary_op)on->sub, x[0], x[1], &res[0]);
        return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", n, ss_error_message());
    case IMP_DIVIDE:
        if (nx != 2)
            break;
        return ss__imp_divide(im, op, x, &res[0]);
    case IMP_MULTIPLY:
        if (nx != 2)
            break;
        return ss__imp_multiply(im, op, x, &res[0]);
    case IMP_CONSTANT:
        return op_constant(im, op, &res[0]);
    case IMP_COMPARE:
        if (nx != 2)
            break;
        return op_compare(im, op, x, &res[0]);
    case IMP_SELECT:
        if (nx != 3)
            break;
        st = ss_select(p, x[0], x[1], x[2], &res[0]);
        return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", n, ss_error_message());
    case IMP_CLAMP:
        if (nx != 3)
            break;
        st = ss_clamp(p, x[0], x[1], x[2], &res[0]);
        return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", n, ss_error_message());
    case IMP_REDUCE_PRECISION:
        if (nx != 1)
            break;
        return op_reduce_precision(im, op, x, &res[0]);
    case IMP_DOT:
        if (nx != 2)
            break;
        return op_dot(im, op, x, &res[0]);
    case IMP_REDUCE:
        return ss__imp_reduce(im, op, x, res);
    case IMP_GATHER:
        return ss__imp_gather(im, op, x, &res[0]);
    case IMP_SCATTER:
        return ss__imp_scatter(im, op, x, &res[0]);
    case IMP_SORT:
        return ss__imp_sort(im, op, x, res);
    case IMP_RNG:
        return op_rng(im, op, x, res);
    case IMP_TOP_K:
        return ss__imp_top_k(im, op, x, res);
    case IMP_REDUCE_WINDOW:
        return ss__imp_reduce_window(im, op, x, res);
    case IMP_SELECT_AND_SCATTER:
        return ss__imp_select_and_scatter(im, op, x, res);
    case IMP_CASE:
        return ss__imp_case(im, op, x, res);
    case IMP_SLICE:
        if (nx != 1)
            break;
        return op_slice(im, op, x, &res[0]);
    case IMP_CONSTRAINT:
        if (nx != 1)
            break;
        return op_constraint(im, op, ss__mlir_op_attr(op, "sharding"), x, &res[0]);
    case IMP_CALL:
        return op_call(im, op, x, res);
    case IMP_MANUAL:
        return ss__imp_manual(im, op, x, res);
    case IMP_WHILE:
        return ss__imp_while(im, op, x, res);
    case IMP_COLLECTIVE:
        return ss__imp_collective(im, op, x, &res[0]);
    case IMP_BARRIER:
        if (nx != op->nresults)
            break;
        for (int i = 0; i < nx; i++)
            res[i] = x[i];
        return true;
    case IMP_CUSTOM_CALL: {
        const ss__mlir_attr *a = ss__mlir_op_attr(op, "call_target_name");
        if (a && a->kind == SS__MLIR_AT_STRING && a->len == 8 && memcmp(a->s, "Sharding", 8) == 0 &&
            nx == 1 && op->nresults == 1)
            return op_constraint(im, op, ss__mlir_op_attr(op, "mhlo.sharding"), x, &res[0]);
        if (a && a->kind == SS__MLIR_AT_STRING && a->len == 25 &&
            memcmp(a->s, "annotate_device_placement", 25) == 0)
            return op_placement(im, op, x, res);
        return ss__imp_fail(im, op, "unsupported op 'stablehlo.custom_call @%.*s'",
                            a && a->kind == SS__MLIR_AT_STRING ? (int)a->len : 1,
                            a && a->kind == SS__MLIR_AT_STRING ? a->s : "?");
    }
    case IMP_CONVERT:
        if (nx != 1)
            break;
        if (!result_type(im, op, &t, &dt))
            return false;
        st = ss_convert(p, x[0], dt, &res[0]);
        return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", n, ss_error_message());
    case IMP_BITCAST_CONVERT:
        if (nx != 1)
            break;
        if (!result_type(im, op, &t, &dt))
            return false;
        st = ss_bitcast_convert(p, x[0], dt, &res[0]);
        return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", n, ss_error_message());
    case IMP_RESHAPE:
        if (nx != 1)
            break;
        if (!result_type(im, op, &t, &dt))
            return false;
        st = ss_reshape(p, x[0], t->rank, t->dims, &res[0]);
        return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", n, ss_error_message());
    case IMP_BROADCAST: {
        if (nx != 1)
            break;
        int dims[SS_MAX_RANK], nd;
        if (!result_type(im, op, &t, &dt) ||
            !dims_list(im, op, ss__mlir_op_attr(op, "broadcast_dimensions"),
                       "broadcast_dimensions", dims, &nd))
            return false;
        if (nd != op->operands[0]->type->rank)
            return ss__imp_fail(im, op, "'%s': %d broadcast dimensions for an operand of "
                                        "rank %d", n, nd, op->operands[0]->type->rank);
        st = ss_broadcast_in_dim(p, x[0], t->rank, t->dims, dims, &res[0]);
        return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", n, ss_error_message());
    }
    case IMP_TRANSPOSE: {
        if (nx != 1)
            break;
        int perm[SS_MAX_RANK], np;
        if (!dims_list(im, op, ss__mlir_op_attr(op, "permutation"), "permutation", perm, &np))
            return false;
        if (np != op->operands[0]->type->rank)
            return ss__imp_fail(im, op, "'%s': a permutation of %d dims for rank %d", n, np,
                                op->operands[0]->type->rank);
        st = ss_transpose(p, x[0], perm, &res[0]);
        return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", n, ss_error_message());
    }
    case IMP_IOTA: {
        if (nx != 0)
            break;
        const ss__mlir_attr *d = ss__mlir_op_attr(op, "iota_dimension");
        if (!result_type(im, op, &t, &dt))
            return false;
        if (!d || d->kind != SS__MLIR_AT_INT || d->i < 0 || d->i >= t->rank)
            return ss__imp_fail(im, op, "'%s': iota_dimension out of range", n);
        st = ss_iota(p, dt, t->rank, t->dims, (int)d->i, &res[0]);
        return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", n, ss_error_message());
    }
    case IMP_REVERSE: {
        if (nx != 1)
            break;
        int dims[SS_MAX_RANK], nd;
        if (!dims_list(im, op, ss__mlir_op_attr(op, "dimensions"), "dimensions", dims, &nd))
            return false;
        st = ss_reverse(p, x[0], nd, dims, &res[0]);
        return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", n, ss_error_message());
    }
    case IMP_DYNAMIC_SLICE: {
        if (nx < 1)
            break;
        int64_t sizes[SS_MAX_RANK];
        int ns;
        if (!int_list(im, op, ss__mlir_op_attr(op, "slice_sizes"), "slice_sizes", sizes,
                      SS_MAX_RANK, &ns))
            return false;
        if (ns != nx - 1 || ns != op->operands[0]->type->rank)
            return ss__imp_fail(im, op, "'%s': needs one start index and one slice size per "
                                        "dim", n);
        st = ss_dynamic_slice(p, x[0], ns, x + 1, sizes, &res[0]);
        return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", n, ss_error_message());
    }
    case IMP_DYNAMIC_UPDATE_SLICE:
        if (nx < 2)
            break;
        if (nx - 2 != op->operands[0]->type->rank)
            return ss__imp_fail(im, op, "'%s': needs one start index per dim", n);
        st = ss_dynamic_update_slice(p, x[0], x[1], nx - 2, x + 2, &res[0]);
        return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", n, ss_error_message());
    case IMP_PAD:
        if (nx != 2)
            break;
        return op_pad(im, op, x, &res[0]);
    case IMP_CONCATENATE: {
        if (nx < 1)
            break;
        const ss__mlir_attr *d = ss__mlir_op_attr(op, "dimension");
        if (!d || d->kind != SS__MLIR_AT_INT || d->i < 0 || d->i >= SS_MAX_RANK)
            return ss__imp_fail(im, op, "'%s': no dimension", n);
        st = ss_concatenate(p, nx, x, (int)d->i, &res[0]);
        return st == SS_OK || ss__imp_fail(im, op, "'%s': %s", n, ss_error_message());
    }
    case IMP_RETURN:    /* ss__imp_block ends its block there */
    case IMP_UNKNOWN:
        break;
    }
    return ss__imp_fail(im, op, "unsupported op '%s'", n);
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

/* May an op of this kind have other than one result? */
static bool many_results(const imp_name *on)
{
    if (!on)
        return false;
    switch (on->kind) {
    case IMP_CALL: case IMP_BARRIER: case IMP_MANUAL: case IMP_WHILE: case IMP_REDUCE:
    case IMP_SORT: case IMP_TOP_K: case IMP_RNG: case IMP_CASE:
        return true;
    default:
        return false;
    }
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
        const imp_name *on = op_kind(op->name);
        if (ok && on && on->kind == IMP_RETURN) {
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
        if (ok && !many_results(on) && op->nresults != 1)
            ok = ss__imp_fail(im, op, "unsupported op '%s' with %d results",
                              op->name, op->nresults);
        for (int k = 0; ok && k < op->nresults; k++)
            r[k] = -1;
        if (ok)
            ok = map_op(im, op, on, x, r);
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
