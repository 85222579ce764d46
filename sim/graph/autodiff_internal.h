/*
 * autodiff_internal.h — what the files of reverse-mode differentiation
 * share: the state of one backward sweep (autodiff.c), the small builders
 * of vjp_rules.c, and the VJP rules of ops.def (vjp_rules.c for the
 * primitive ops, vjp_manual.c for shard_map regions, collectives and
 * loops; autodiff.c pastes the ss__ prefix onto the column's names).
 */
#ifndef SS_AUTODIFF_INTERNAL_H
#define SS_AUTODIFF_INTERNAL_H

#include "graph.h"

typedef struct ss__ad {
    ss_program *p;
    ss_value *ct;  /* cotangent of each forward value; -1 is a symbolic zero */
    bool *needed;  /* depends on an argument and reaches the output */
    /* Inside shard_map regions: per value, the mesh axes it is invariant
     * over (JEP 17111's device variance; see invariant()), computed lazily;
     * `known` values have one. */
    unsigned *inv;
    int known, inv_cap;
    ss_value top; /* the highest output differentiated: ct and needed have top + 1 */
} ss__ad;

/* Whether values of dtype t carry cotangents (JAX: float dtypes only). */
static inline bool ss__ad_is_float(ss_dtype t)
{
    return t == SS_F32 || t == SS_BF16 || t == SS_F16;
}

/* --- Small builders (vjp_rules.c) ----------------------------------------- */

/* --- Small builders ------------------------------------------------------ */

/* A scalar `value` of dtype `dt` (a constant is f32; other float dtypes go
 * through a converting negation, as the kernels allow mixed float dtypes). */
ss_status ss__ad_scalar(ss_program *p, double value, ss_dtype dt, ss_value *out);

/* An array of `shape` filled with `value`. */
ss_status ss__ad_full(ss_program *p, double value, ss_dtype dt, int rank, const int64_t shape[],
                      ss_value *out);

/* a op constant */
ss_status ss__ad_binc(ss_program *p, ss_binary_op op, ss_value a, double c, ss_value *out);

/* The transpose of an implicit pvary: a cotangent c flowing into a block u
 * that is invariant over axes c varies over is summed over them. */
ss_status ss__ad_unvary(ss__ad *s, ss_value u, ss_value *c);

/* --- The VJP column of ops.def -------------------------------------------- */

/* Cotangent rule of node n (value v) given its result's cotangent g: for
 * each operand k with want[k], gin[k] is its cotangent (-1: a symbolic
 * zero). */
typedef ss_status ss__vjp_rule(ss__ad *s, const ss__node *n, ss_value v, ss_value g,
                               const bool want[], ss_value gin[]);
ss__vjp_rule ss__vjp_binary;
ss__vjp_rule ss__vjp_broadcast;
ss__vjp_rule ss__vjp_case; /* case.c */
ss__vjp_rule ss__vjp_case_result;
ss__vjp_rule ss__vjp_clamp;
ss__vjp_rule ss__vjp_fma;
ss__vjp_rule ss__vjp_collective;
ss__vjp_rule ss__vjp_concat;
ss__vjp_rule ss__vjp_constrain;
ss__vjp_rule ss__vjp_memory;
ss__vjp_rule ss__vjp_dot;
ss__vjp_rule ss__vjp_gather;
ss__vjp_rule ss__vjp_loop;
ss__vjp_rule ss__vjp_loop_result;
ss__vjp_rule ss__vjp_manual_in;
ss__vjp_rule ss__vjp_manual_out;
ss__vjp_rule ss__vjp_reduce;
ss__vjp_rule ss__vjp_reshape;
ss__vjp_rule ss__vjp_scatter;
ss__vjp_rule ss__vjp_select;
ss__vjp_rule ss__vjp_shape;
ss__vjp_rule ss__vjp_slice;
ss__vjp_rule ss__vjp_sort;
ss__vjp_rule ss__vjp_transpose;
ss__vjp_rule ss__vjp_unary;

#endif
