/*
 * elementwise_int.h — the scalar semantics of the exact elementwise path
 * (elementwise_int.c), shared by its strided loop and the naive reference
 * (reference.c). Kernels only.
 */
#ifndef SS_ELEMENTWISE_INT_H
#define SS_ELEMENTWISE_INT_H

#include "kernels_internal.h"

/* How an element is held while computing. */
typedef enum ss__k_class {
    SS__K_CLASS_NONE = 0,
    SS__K_CLASS_FLOAT,    /* .f: f32, bf16, f16, f64 (exact in double) */
    SS__K_CLASS_SIGNED,   /* .u: sign-extended to 64 bits */
    SS__K_CLASS_UNSIGNED, /* .u: zero-extended */
    SS__K_CLASS_BOOL,     /* .u: 0 or 1 */
} ss__k_class;

typedef union ss__k_scalar {
    uint64_t u;
    double f;
} ss__k_scalar;

ss__k_class ss__k_class_of(ss_dtype dt);
/* 1 for bool, else 8 * the element size. */
int ss__k_bits_of(ss_dtype dt);
/* Element i of an array of dtype dt, and back (integers truncated to the
 * width, floats rounded once to nearest even). Little-endian hosts. */
ss__k_scalar ss__k_ew_load(ss_dtype dt, const void *data, int64_t i);
void ss__k_ew_store(ss_dtype dt, void *data, int64_t i, ss__k_scalar s);
/* A value of dtype `from` as dtype `to` (XLA's convert, kernels.h). */
ss__k_scalar ss__k_ew_convert(ss__k_scalar s, ss_dtype from, ss_dtype to);
/* Whether the op is defined on dtype dt. */
bool ss__k_unary_has(ss__k_unary_op op, ss_dtype dt);
bool ss__k_binary_has(ss__k_binary_op op, ss_dtype dt);
/* The dtype the op computes in; operands are converted to it first (but
 * select's predicate). */
ss_dtype ss__k_ew_domain(ss__k_ew_kind kind, int op, int nin, const ss__tensor in[],
                         const ss__tensor *out);
/* One element: operands v[] in the domain `dom`; the result is in `dom`'s
 * class, except compare and is_finite (bool) and convert (`out`'s). */
ss__k_scalar ss__k_ew_scalar(ss__k_ew_kind kind, int op, ss_dtype dom, ss_dtype out,
                             const ss__k_scalar v[]);
/* The argument checks of ss__k_elementwise and its reference. */
ss_status ss__k_check_elementwise(ss__k_ew_kind kind, int op, int nin, const ss__tensor in[],
                                  const ss__tensor *out);

/* A scatter's update computation on one element: old (op) update in dtype
 * dt (bool: add and max are or, multiply and min are and); SET gives the
 * update (gather.c). */
ss__k_scalar ss__k_scatter_combine(ss_scatter_op op, ss_dtype dt, ss__k_scalar old,
                                   ss__k_scalar upd);

#endif
