/*
 * kernels_internal.h — what the kernel files share: argument checks (used by
 * both the fast kernels and the naive references, so both reject the same
 * inputs with the same message), f32 block loads/stores, and an odometer
 * over strided index spaces. Not for other layers.
 */
#ifndef SS_KERNELS_INTERNAL_H
#define SS_KERNELS_INTERNAL_H

#include "kernels.h"

#include <string.h>

/* Kernels work on f32 blocks of this many elements (on the stack). */
#define SS__K_BLOCK 256

/* The hot elementwise loops are compiled for AVX-512, AVX2 and baseline
 * x86-64, picked at load time (GCC function multiversioning), so a
 * portable build still uses the machine's vector width. Elsewhere: one
 * baseline version (clang 14 does not export cloned functions across
 * files, so its builds use the baseline), and so do sanitizer builds: the
 * clones' load-time resolvers run before the sanitizer runtime starts. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__) && \
    !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define SS__K_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#define SS__K_FMA_CLONES __attribute__((target_clones("fma", "default")))
#else
#define SS__K_VECTOR_CLONES
#define SS__K_FMA_CLONES
#endif

/* A shape as Python prints it, "(4, 2)", for messages:
 * ss__k_shape_text(t->rank, t->shape).s */
typedef struct ss__k_text {
    char s[208];
} ss__k_text;
ss__k_text ss__k_shape_text(int rank, const int64_t shape[]);

/* --- Argument checks. Each returns SS_OK or fails with "op: ..." --- */

/* t is well formed (rank, dims, dtype, data when non-empty); *n = numel
 * (n may be NULL). */
ss_status ss__k_check(const char *op, const char *what, const ss__tensor *t, int64_t *n);
/* As ss__k_check without looking at data (shape and FLOP functions). */
ss_status ss__k_check_shape(const char *op, const char *what, const ss__tensor *t, int64_t *n);
/* As ss__k_check, and the dtype is f32, bf16 or f16. */
ss_status ss__k_check_float(const char *op, const char *what, const ss__tensor *t, int64_t *n);
/* Equal ranks and dims. */
ss_status ss__k_check_same_shape(const char *op, const char *what_a, const ss__tensor *a,
                                 const char *what_b, const ss__tensor *b);
/* `axis` in [-rank, rank) normalised to [0, rank). */
ss_status ss__k_norm_axis(const char *op, int axis, int rank, int *out);
bool ss__k_is_float(ss_dtype dt);

ss_status ss__k_check_unary(ss__k_unary_op op, const ss__tensor *x, const ss__tensor *out);
ss_status ss__k_check_binary(ss__k_binary_op op, const ss__tensor *a, const ss__tensor *b,
                             const ss__tensor *out);
/* reduced[d] is set for every reduced dim of x. */
ss_status ss__k_check_reduce(ss__k_reduce_op op, const ss__tensor *x, int naxes, const int axes[],
                             bool keepdims, const ss__tensor *out, bool reduced[SS_MAX_RANK]);
ss_status ss__k_check_dot(const ss__tensor *lhs, const ss__tensor *rhs,
                          const ss__k_dot_dims *dims, const ss__tensor *out);
ss_status ss__k_check_transpose(const ss__tensor *x, const int perm[], const ss__tensor *out);
ss_status ss__k_check_broadcast_in_dim(const ss__tensor *x, const int dims[],
                                       const ss__tensor *out);
ss_status ss__k_check_slice(const ss__tensor *x, const int64_t start[], const int64_t limit[],
                            const int64_t stride[], const ss__tensor *out);
ss_status ss__k_check_concatenate(int n, const ss__tensor xs[], int axis, const ss__tensor *out);
ss_status ss__k_check_pad(const ss__tensor *x, const int64_t lo[], const int64_t hi[],
                          const ss__tensor *out);
/* *ax is the normalised axis. */
ss_status ss__k_check_iota(int dim, const ss__tensor *out);
ss_status ss__k_check_reverse(const ss__tensor *x, unsigned dims, const ss__tensor *out);
ss_status ss__k_check_pad_general(const ss__tensor *x, const ss__tensor *value,
                                  const int64_t lo[], const int64_t hi[],
                                  const int64_t interior[], const ss__tensor *out);
ss_status ss__k_check_softmax(const char *op, const ss__tensor *x, int axis,
                              const ss__tensor *out, int *ax);
ss_status ss__k_check_layer_norm(const ss__tensor *x, const ss__tensor *scale,
                                 const ss__tensor *bias, const ss__tensor *out);
/* Sort and top_k (sort.c): out has the operands' shape but k along dim, and
 * dtype out_dtype. */
ss_status ss__k_check_sort(const char *op, int n, const ss__tensor x[], int dim, int nkeys,
                           int which, ss_dtype out_dtype, int64_t k, const ss__tensor *out);
ss_status ss__k_check_cross_entropy(const ss__tensor *logits, const ss__tensor *labels,
                                    const ss__tensor *out);
ss_status ss__k_check_one_hot(const ss__tensor *indices, const ss__tensor *out);

/* --- Compiled fused expressions (fused_adam.c) --- */

/* If f is optax's Adam or AdamW update over f32 arrays (see the file),
 * run it as one compiled loop into outs and return true; false (nothing
 * written) otherwise. constant[s]: step s depends on scalars only, with
 * value cval[s]. Results equal ss__k_fused_run's interpreter bit for bit. */
bool ss__k_fused_adam(const ss__k_fused *f, const ss__tensor leaves[], ss__tensor outs[],
                      const bool constant[], const float cval[]);

/* --- f32 blocks (convert.c) --- */

/* dst[0..n) = elements start.. of a float or i32 array, widened to f32. */
void ss__k_load_f32(ss_dtype dt, const void *base, int64_t start, int64_t n, float *dst);
/* Elements start.. of the array = src[0..n) rounded to dt (see ss__k_convert). */
void ss__k_store_f32(ss_dtype dt, void *base, int64_t start, int64_t n, const float *src);

/* --- Index spaces --- */

/* Row-major element strides of a contiguous shape. */
void ss__k_strides(int rank, const int64_t shape[], int64_t strides[]);

/* Simplify an index space walked by `nops` operands with the given element
 * strides (strides[k][d] for operand k, dim d): drop size-1 dims and merge
 * neighbours that every operand walks contiguously. Row-major visiting order
 * is unchanged. Returns the new rank, at least 1 (a scalar becomes [1]). */
int ss__k_coalesce(int rank, int64_t shape[], int nops, int64_t strides[][SS_MAX_RANK]);

/* Advance the multi-index idx over dims [0, rank) in row-major order and
 * move each operand's offset with it. False after the last index (idx and
 * off are then back at zero). */
static inline bool ss__k_step(int rank, const int64_t shape[], int64_t idx[], int nops,
                              int64_t strides[][SS_MAX_RANK], int64_t off[])
{
    for (int d = rank - 1; d >= 0; d--) {
        idx[d]++;
        for (int k = 0; k < nops; k++)
            off[k] += strides[k][d];
        if (idx[d] < shape[d])
            return true;
        for (int k = 0; k < nops; k++)
            off[k] -= strides[k][d] * shape[d];
        idx[d] = 0;
    }
    return false;
}

/* a * b saturating at INT64_MAX (both >= 0). */
int64_t ss__k_mul_sat(int64_t a, int64_t b);

#endif
