/*
 * kernels.h — local compute on one shard: the internal kernel API that the
 * partitioned program calls on each device's buffers.
 *
 * What it is: plain functions over host buffers described by an ss__tensor
 * (dtype, rank, shape, data; contiguous row-major). Every kernel checks its
 * shapes and dtypes first and, on bad input, returns an ss_status with a
 * one-line message ("dot_general: lhs contracting dim 1 has size 3 but rhs
 * dim 0 has size 4") and writes nothing. It never aborts on bad input.
 *
 * What it deliberately does not do: allocate device memory, know about
 * meshes or shardings, or run threads. A kernel runs on the calling thread;
 * dot_general calls OpenBLAS, which this layer loads on first use and pins
 * to one thread (blas.c). Only dot_general needs scratch memory, and the caller
 * can supply it (ss__k_dot_general_work_bytes) so that it is counted in the
 * device's arena.
 *
 * Numerics. Float compute is f32: bf16 and f16 inputs are widened to f32
 * and results are rounded back to the output's dtype (round to nearest even,
 * NaN stays NaN). Inputs and outputs may have different float dtypes (f32,
 * bf16, f16); i32 is used for indices (labels, one_hot) and by
 * ss__k_convert. Elementwise ops on every other dtype (integers, bool, f64)
 * and the ops that change the dtype take the exact path (elementwise_int.c).
 * Sums inside reductions, softmax, layer_norm and cross-entropy accumulate in
 * double in a fixed order (stated per function), so a kernel's result is
 * bit-identical run to run and independent of the number of devices or
 * threads; dot_general accumulates in f32 inside single-threaded sgemm, which
 * is also deterministic for given shapes.
 *
 * Aliasing: outputs must not overlap inputs, except that the elementwise
 * kernels and ss__k_convert (same element size) may write in place over an
 * input of the output's shape and dtype, and ss__k_reshape may be given the
 * same buffer (then it is a view and copies nothing).
 *
 * Every fast kernel here has a naive reference (ss__k_ref_*, reference.c)
 * that the tests compare it with.
 */
#ifndef SS_KERNELS_H
#define SS_KERNELS_H

#include "base/base.h"
#include "base/half.h"

#include <stdbool.h>
#include <stdint.h>

/* A dense array on the host: `rank` dims (0 for a scalar), row-major and
 * contiguous, `data` holds product(shape) elements of `dtype`. data may be
 * NULL when the array is empty, and in the shape and FLOP functions, which
 * never read it. Tests write these literally: {SS_F32, 2, {3, 4}, buf}. */
typedef struct ss__tensor {
    ss_dtype dtype;
    int rank;
    int64_t shape[SS_MAX_RANK];
    void *data;
} ss__tensor;

/* Number of elements; -1 for a bad rank, a negative dim or an overflow. */
int64_t ss__k_numel(const ss__tensor *t);

/* ------------------------------------------------------------------------ */
/* Conversions (convert.c)                                                   */
/* ------------------------------------------------------------------------ */

/* bfloat16 and IEEE half <-> f32: base/half.h. */

/* out = x converted to out->dtype; dtypes f32, bf16, f16, i32 in any
 * combination; shapes must be equal. Float to i32 truncates toward zero and
 * saturates at the i32 limits; NaN becomes 0. i32 to f32 rounds to nearest
 * even; i32 to bf16/f16 goes through f32. In place only between dtypes of
 * the same size. Errors: SS_ERR_INVALID (shapes), SS_ERR_UNSUPPORTED (dtype). */
ss_status ss__k_convert(const ss__tensor *x, ss__tensor *out);

/* ------------------------------------------------------------------------ */
/* Elementwise (elementwise.c)                                               */
/* ------------------------------------------------------------------------ */

typedef enum ss__k_unary_op {
    SS__K_NEG,
    SS__K_EXP,
    SS__K_LOG,
    SS__K_TANH,
    SS__K_RELU,   /* max(x, 0); NaN stays NaN as jnp.maximum */
    SS__K_GELU,   /* tanh approximation, jax.nn.gelu(approximate=True) */
    SS__K_SQRT,
    SS__K_RSQRT,
    SS__K_SQUARE,
    SS__K_CONVERT, /* x: with an output of another float dtype, a conversion */
    /* Appended in the order of ss_unary_op (the graph passes its sub). */
    SS__K_ABS,     /* integers: INT_MIN stays INT_MIN (two's complement) */
    SS__K_SIGN,    /* -1, 0 or 1; floats keep -0.0 and NaN */
    SS__K_FLOOR,
    SS__K_CEIL,
    SS__K_ROUND_EVEN, /* round_nearest_even */
    SS__K_ROUND_AFZ,  /* round_nearest_afz: halves away from zero */
    SS__K_SIN,
    SS__K_COS,
    SS__K_TAN,
    SS__K_ERF,
    SS__K_EXPM1,
    SS__K_LOG1P,
    SS__K_LOGISTIC, /* 1 / (1 + exp(-x)) */
    SS__K_CBRT,
    SS__K_IS_FINITE, /* float -> bool; generic path only */
    SS__K_NOT,       /* bitwise on integers, logical on bool; generic path only */
    SS__K_POPCNT,    /* integers; generic path only */
    SS__K_ERF_INV,   /* floats: XLA's f32 polynomial; f64 refined to double */
    SS__K_CLZ,       /* integers: count_leading_zeros; generic path only */
    SS__K_BITCAST,   /* same-size dtypes: the bytes reinterpreted; no f32 path */
    SS__K_UNARY_COUNT
} ss__k_unary_op;

typedef enum ss__k_binary_op {
    SS__K_ADD,
    SS__K_SUB,
    SS__K_MUL,
    SS__K_DIV,
    SS__K_MAX,    /* jnp.maximum: NaN if either side is NaN */
    SS__K_MIN,
    SS__K_POW,
    SS__K_EQ,     /* 1 where a == b, else 0 (NaN compares unequal) */
    SS__K_GT,     /* 1 where a > b, else 0 */
    SS__K_GE,     /* 1 where a >= b, else 0 */
    /* Appended in the order of ss_binary_op (the graph passes its sub). */
    SS__K_REM,    /* fmod; integers: the sign of the dividend */
    SS__K_AND,    /* AND .. SHR_L: integers and bool only (generic path) */
    SS__K_OR,
    SS__K_XOR,
    SS__K_SHL,
    SS__K_SHR_A,
    SS__K_SHR_L,
    SS__K_ATAN2,
    SS__K_NEXT_AFTER, /* floats: C's nextafter in the operands' dtype */
    SS__K_BINARY_COUNT
} ss__k_binary_op;

/* "neg", "gelu", "add", "pow", ...; "?" for a value outside the enum. */
const char *ss__k_unary_name(ss__k_unary_op op);
const char *ss__k_binary_name(ss__k_binary_op op);

/* chlo.erf_inv as XLA computes it on f32; on f64 to double accuracy
 * (erf_inv.c). */
float ss__k_erf_inv_f32(float x);
double ss__k_erf_inv_f64(double x);

/* The scalar definitions the kernels apply (f32 in, f32 out). */
float ss__k_unary_f32(ss__k_unary_op op, float x);
/* y[i] = op(x[i]) over n f32 values (y may equal x); the tight loop behind
 * ss__k_unary, for callers that manage their own blocks (fused.c). */
void ss__k_unary_block(ss__k_unary_op op, const float *x, float *y, int64_t n);
/* y[i] = expf(x[i]) / tanhf(x[i]) with libm's bits, vectorised
 * (elementwise_vec.c); false, writing nothing, where that path is off (no
 * AVX2+FMA, another libm, SHARDSIM_VECMATH=off). y may equal x. */
bool ss__k_vec_exp(const float *x, float *y, int64_t n);
bool ss__k_vec_tanh(const float *x, float *y, int64_t n);
/* y[i] = op(a[i], b[i]) over n f32 values (y may equal a or b). */
void ss__k_binary_block(ss__k_binary_op op, const float *a, const float *b, float *y, int64_t n);
float ss__k_binary_f32(ss__k_binary_op op, float a, float b);

/* out = op(x). x and out: same shape, float dtypes (may differ).
 * Errors: SS_ERR_INVALID for a bad op or shape, SS_ERR_UNSUPPORTED for a
 * non-float dtype. */
ss_status ss__k_unary(ss__k_unary_op op, const ss__tensor *x, ss__tensor *out);

/* Result shape of numpy broadcasting of a and b (right-aligned; a dim of 1
 * stretches). SS_ERR_INVALID "op: cannot broadcast shapes (2, 3) and (4,)"
 * where `op` names the caller in the message. */
ss_status ss__k_broadcast_shape(const char *op, const ss__tensor *a, const ss__tensor *b,
                                int *rank, int64_t shape[SS_MAX_RANK]);

/* out = op(a, b) with numpy broadcasting; out's shape must be the broadcast
 * shape. A rank-0 tensor is a scalar constant. Float dtypes, may differ.
 * Errors as ss__k_unary, plus the broadcast error above. */
ss_status ss__k_binary(ss__k_binary_op op, const ss__tensor *a, const ss__tensor *b,
                       ss__tensor *out);

/* out = op(a, s), or op(s, a) when scalar_left; out has a's shape. */
ss_status ss__k_binary_scalar(ss__k_binary_op op, const ss__tensor *a, float s, bool scalar_left,
                              ss__tensor *out);

/* ------------------------------------------------------------------------ */
/* Elementwise on every dtype (elementwise_int.c)                            */
/* ------------------------------------------------------------------------ */
/*
 * The exact path: integers (signed and unsigned, two's-complement
 * wrap-around as XLA), bool, f64, and the ops whose result dtype is not
 * their operands' (compare, is_finite, convert). ss__k_unary and
 * ss__k_binary come here by themselves for any operand or result outside
 * {f32, bf16, f16} and for the integer-only ops; compare, select and clamp
 * always do. Operands broadcast as numpy (right-aligned, size-1 dims
 * stretch); an operand of another dtype class than the op's domain (a
 * weakly typed f32 scalar beside an i32 array) is converted to it first as
 * convert does. XLA's results on CPU where C leaves them undefined:
 *   div   x / 0 = -1 (all bits set, also unsigned), INT_MIN / -1 = INT_MIN;
 *   rem   x % 0 = x, INT_MIN % -1 = 0; the sign of the dividend;
 *   shifts by an amount outside [0, bits): shift_left and
 *         shift_right_logical give 0, shift_right_arithmetic the sign fill
 *         (the top bit of the value, unsigned types included);
 *   convert float -> integer: truncation toward zero, saturating at the
 *         type's limits, NaN -> 0 (unsigned: negative -> 0); -> bool is
 *         x != 0 (NaN is true); integer -> integer wraps; integer and f64 ->
 *         f32/bf16/f16 round once to nearest even.
 * Floats compute in double and round once to the result's dtype.
 */
typedef enum ss__k_ew_kind {
    SS__K_EW_UNARY,   /* op: ss__k_unary_op; in[0] */
    SS__K_EW_BINARY,  /* op: ss__k_binary_op; in[0], in[1] */
    SS__K_EW_COMPARE, /* op: direction * 4 + type (ss_cmp_dir, ss_cmp_type); -> bool */
    SS__K_EW_SELECT,  /* in[0] bool pred, in[1] on true, in[2] on false */
    SS__K_EW_CLAMP,   /* in[0] min, in[1] x, in[2] max: min(max(x, lo), hi), NaN propagates */
    SS__K_EW_FMA,     /* op: ss__k_fma_form; in[0] a, in[1] b, in[2] c: a*b and c rounded
                       * once (f32: fmaf, f64: fma; bf16/f16: fmaf, then rounded) */
} ss__k_ew_kind;

/* The three forms of a fused multiply-add, as XLA CPU's contraction of a
 * multiply into an add or subtract makes them (sim/graph/contract.c). */
/* The f32 fma over n contiguous elements of one shape (r may be a, b or
 * c): the values of ss__k_elementwise(SS__K_EW_FMA, form, ...), each
 * rounded once, vectorised where the CPU has FMA (fused.c). */
void ss__k_fma_f32(int form, const float *a, const float *b, const float *c, float *r, int64_t n);

typedef enum ss__k_fma_form {
    SS__K_FMA_ADD,     /* a*b + c */
    SS__K_FMA_SUB,     /* a*b - c */
    SS__K_FMA_REVSUB,  /* c - a*b */
    SS__K_FMA_FORM_COUNT
} ss__k_fma_form;

/* out = the op on in[0..nin) (nin as the kind says), broadcasting. Errors:
 * SS_ERR_INVALID for a bad op or shapes, SS_ERR_UNSUPPORTED for an op the
 * dtypes do not have (a shift of floats, exp of integers, pow of integers). */
ss_status ss__k_elementwise(ss__k_ew_kind kind, int op, int nin, const ss__tensor in[],
                            ss__tensor *out);
/* The naive reference of ss__k_elementwise: its own iteration (unravelled
 * indices), the same scalar semantics (stated above). */
ss_status ss__k_ref_elementwise(ss__k_ew_kind kind, int op, int nin, const ss__tensor in[],
                                ss__tensor *out);
/* Whether the f32 block path computes op on these dtypes (else
 * ss__k_unary / ss__k_binary hand it to ss__k_elementwise). */
bool ss__k_unary_is_f32_path(ss__k_unary_op op, ss_dtype x, ss_dtype out);
bool ss__k_binary_is_f32_path(ss__k_binary_op op, ss_dtype a, ss_dtype b, ss_dtype out);
/* FLOPs of compare, select, clamp over n elements: one per element (select
 * and clamp: data movement and compares, counted as XLA counts them); of
 * an fma two (the multiply and the add it replaces). */
int64_t ss__k_flops_elementwise(ss__k_ew_kind kind, int op, int64_t n);

/* ------------------------------------------------------------------------ */
/* Reductions (reduce.c)                                                     */
/* ------------------------------------------------------------------------ */

typedef enum ss__k_reduce_op {
    SS__K_REDUCE_SUM,
    SS__K_REDUCE_MEAN,
    SS__K_REDUCE_MAX,  /* NaN propagates; -inf for an empty reduction */
    SS__K_REDUCE_MIN,  /* NaN propagates; +inf for an empty reduction */
    /* The exact path only (reduce_exact.c): */
    SS__K_REDUCE_PROD,
    SS__K_REDUCE_AND, /* integers and bool */
    SS__K_REDUCE_OR,
    SS__K_REDUCE_COUNT
} ss__k_reduce_op;

const char *ss__k_reduce_name(ss__k_reduce_op op);

/* Shape of reducing x over `axes` (naxes of them, each in [-rank, rank),
 * no repeats; naxes 0 reduces nothing). keepdims leaves size-1 dims.
 * SS_ERR_INVALID for a bad axis or a repeat. */
ss_status ss__k_reduce_shape(ss__k_reduce_op op, const ss__tensor *x, int naxes, const int axes[],
                             bool keepdims, int *rank, int64_t shape[SS_MAX_RANK]);

/* out = op of x over axes. f32, bf16 and f16 sums, maxima and minima
 * here; every other dtype and op goes to ss__k_reduce_exact by itself.
 * Summation order (sum, mean): for
 * each output element, a double accumulator starting at 0 adds the reduced
 * elements in row-major order of their indices; mean divides the double sum
 * by the count; the result is rounded once to out's dtype. The naive
 * reference uses the same order, so the two agree bit for bit. */
ss_status ss__k_reduce(ss__k_reduce_op op, const ss__tensor *x, int naxes, const int axes[],
                       bool keepdims, ss__tensor *out);

/* The exact path (reduce_exact.c): integers wrap, bool is logical, f64
 * and float products accumulate in double, combined per output in
 * row-major order of the reduced indices. Whether a
 * (op, dtype) pair takes it, and whether the op is defined on the dtype. */
bool ss__k_reduce_is_exact(ss__k_reduce_op op, ss_dtype dt);
bool ss__k_reduce_has(ss__k_reduce_op op, ss_dtype dt);
ss_status ss__k_reduce_exact(ss__k_reduce_op op, const ss__tensor *x, int naxes, const int axes[],
                             bool keepdims, ss__tensor *out);
ss_status ss__k_ref_reduce_exact(ss__k_reduce_op op, const ss__tensor *x, int naxes,
                                 const int axes[], bool keepdims, ss__tensor *out);
/* The kernel op of a reduce node's variant (an ss_reduce_op; MEAN is a sum). */
ss__k_reduce_op ss__k_reduce_op_of(int reduce_op);
/* lax.argmax (argmin when is_min) over `axis`: out (x's shape without the
 * axis, an integer dtype) = the first NaN's index if any, else the lowest
 * index of the extreme value. Any dtype but bool. */
ss_status ss__k_argminmax(const ss__tensor *x, int axis, bool is_min, ss__tensor *out);
ss_status ss__k_ref_argminmax(const ss__tensor *x, int axis, bool is_min, ss__tensor *out);

/* ------------------------------------------------------------------------ */
/* Shape ops (shape_ops.c): any dtype, out->dtype must equal x->dtype,       */
/* results are exact copies of elements.                                     */
/* ------------------------------------------------------------------------ */

/* out.shape[i] = x.shape[perm[i]]; perm is a permutation of 0..rank-1. */
ss_status ss__k_transpose(const ss__tensor *x, const int perm[], ss__tensor *out);

/* Same elements in row-major order under another shape (equal counts). If
 * out->data == x->data this is a view and nothing is copied. */
ss_status ss__k_reshape(const ss__tensor *x, ss__tensor *out);

/* lax.broadcast_in_dim: x's dim i becomes out's dim dims[i] (strictly
 * increasing); x.shape[i] must be 1 or out.shape[dims[i]]. */
ss_status ss__k_broadcast_in_dim(const ss__tensor *x, const int dims[], ss__tensor *out);

/* lax.slice: 0 <= start[i] <= limit[i] <= x.shape[i], stride[i] >= 1
 * (stride NULL means all 1); out.shape[i] = ceil((limit - start) / stride). */
ss_status ss__k_slice(const ss__tensor *x, const int64_t start[], const int64_t limit[],
                      const int64_t stride[], ss__tensor *out);

/* lax.concatenate of n >= 1 arrays along `axis` (same rank and dtype,
 * equal other dims). */
ss_status ss__k_concatenate(int n, const ss__tensor xs[], int axis, ss__tensor *out);

/* Edge padding with a constant (uneven shards): out.shape[i] = lo[i] +
 * x.shape[i] + hi[i] with lo, hi >= 0; the border holds `value` converted to
 * the dtype (rounded for bf16/f16, truncated for integers). */
ss_status ss__k_pad(const ss__tensor *x, const int64_t lo[], const int64_t hi[], double value,
                    ss__tensor *out);

/* GSPMD's masking of a padded (uneven) block, in place: every element of x
 * whose index along some dim d is >= valid[d] (0 <= valid[d] <= x.shape[d])
 * becomes `value` converted as ss__k_pad converts it. Elements inside the
 * valid box are untouched. */
void ss__k_fill_outside(ss__tensor *x, const int64_t valid[], double value);

/* ------------------------------------------------------------------------ */
/* Index ops (index_ops.c): any dtype, exact; naive references beside them  */
/* (reference_index.c).                                                     */
/* ------------------------------------------------------------------------ */

/* lax.iota along `dim` of out: element i is i[dim] converted to out's
 * dtype as ss__k_elementwise's convert does (any dtype but bool). */
ss_status ss__k_iota(int dim, ss__tensor *out);
ss_status ss__k_ref_iota(int dim, ss__tensor *out);

/* lax.rev: out = x reversed along the dims whose bit is set in `dims`. */
ss_status ss__k_reverse(const ss__tensor *x, unsigned dims, ss__tensor *out);
ss_status ss__k_ref_reverse(const ss__tensor *x, unsigned dims, ss__tensor *out);

/* lax.pad in full: out.shape[d] = lo[d] + x.shape[d] + (x.shape[d] - 1) *
 * interior[d] + hi[d]; x's element i lands at lo + i * (interior + 1) when
 * that is inside out (negative lo and hi cut), every other element is
 * `value` (rank 0, x's dtype). interior >= 0. */
ss_status ss__k_pad_general(const ss__tensor *x, const ss__tensor *value, const int64_t lo[],
                            const int64_t hi[], const int64_t interior[], ss__tensor *out);
ss_status ss__k_ref_pad_general(const ss__tensor *x, const ss__tensor *value,
                                const int64_t lo[], const int64_t hi[],
                                const int64_t interior[], ss__tensor *out);

/* StableHLO dynamic_slice: out = the block of out's shape at the start
 * indices idx[0..n) (rank-0 integer tensors, n = rank), each clamped to
 * [0, dim - size]; dynamic_update_slice: out = x with u written there (u's
 * shape as the window; out may be x itself, updated in place). Any dtype,
 * exact (dynamic_ops.c). */
ss_status ss__k_dynamic_slice(const ss__tensor *x, int n, const ss__tensor idx[],
                              ss__tensor *out);
ss_status ss__k_ref_dynamic_slice(const ss__tensor *x, int n, const ss__tensor idx[],
                                  ss__tensor *out);
ss_status ss__k_dynamic_update_slice(const ss__tensor *x, const ss__tensor *u, int n,
                                     const ss__tensor idx[], ss__tensor *out);
ss_status ss__k_ref_dynamic_update_slice(const ss__tensor *x, const ss__tensor *u, int n,
                                         const ss__tensor idx[], ss__tensor *out);

/* ------------------------------------------------------------------------ */
/* Sort and top_k (sort.c; naive references in reference_sort.c)           */
/* ------------------------------------------------------------------------ */

/* StableHLO sort along `dim` of n operands of one shape, ordered by the
 * first nkeys of them lexicographically (bit k of desc: key k descending),
 * ties kept in their order (stable); out = operand `which` permuted so.
 * Floats compare as JAX's comparator does: -0.0 equal to +0.0, every NaN
 * equal and above +inf. Any dtype, exact. Errors: SS_ERR_INVALID (shapes,
 * dim, which), SS_ERR_NOMEM (scratch). */
ss_status ss__k_sort(int n, const ss__tensor x[], int dim, int nkeys, unsigned desc, int which,
                     ss__tensor *out);
ss_status ss__k_ref_sort(int n, const ss__tensor x[], int dim, int nkeys, unsigned desc,
                         int which, ss__tensor *out);
/* lax.top_k along x's last dim: the k largest in IEEE total order (+NaN
 * first, -NaN last, +0.0 before -0.0), ties to the lower index, as XLA's
 * TopK runs; out = their values (x's dtype) or, when `indices`, their
 * positions (i32). Errors as ss__k_sort's, and k outside 0..n. */
ss_status ss__k_top_k(const ss__tensor *x, int64_t k, bool indices, ss__tensor *out);
ss_status ss__k_ref_top_k(const ss__tensor *x, int64_t k, bool indices, ss__tensor *out);

/* ------------------------------------------------------------------------ */
/* rng_bit_generator (rng.c; naive reference in reference_rng.c)            */
/* ------------------------------------------------------------------------ */

/* One ThreeFry-2x32 call (20 rounds) and one Philox-4x32 call (10 rounds)
 * of a key and a counter, as XLA's prng library computes them. */
void ss__k_threefry2x32(const uint32_t key[2], const uint32_t in[2], uint32_t out[2]);
void ss__k_philox4x32(const uint32_t key[2], const uint32_t in[4], uint32_t out[4]);
/* The dim ThreeFry's narrow bits split in halves: the first even one, else
 * the first largest. */
int ss__k_rng_split_dim(int rank, const int64_t shape[]);
/* The generator calls (counter steps) bits of dtype dt and this shape take
 * with algorithm alg (ss_rng_algorithm, THREE_FRY or PHILOX). */
int64_t ss__k_rng_calls(int alg, ss_dtype dt, int rank, const int64_t shape[]);
/* rng_bit_generator's bits: out is the block at offsets lo[] of the whole
 * array of shape full[] (out's dtype and rank; elements past full[] are
 * padding, zero); state is the u64[2] (Philox: or u64[3]) state. The
 * reference computes the whole array (lo = 0, full = out's shape). Errors:
 * SS_ERR_INVALID (state, dtype or algorithm). */
ss_status ss__k_rng_bits(int alg, const ss__tensor *state, const int64_t full[],
                         const int64_t lo[], ss__tensor *out);
ss_status ss__k_ref_rng_bits(int alg, const ss__tensor *state, ss__tensor *out);
/* The state after bits of dtype dt and shape (rank, shape): the key, the
 * counter advanced by ss__k_rng_calls. */
ss_status ss__k_rng_state(int alg, const ss__tensor *state, ss_dtype dt, int rank,
                          const int64_t shape[], ss__tensor *out);

/* ------------------------------------------------------------------------ */
/* Gather and scatter (gather.c; naive references in reference_gather.c)    */
/* ------------------------------------------------------------------------ */

/* Check StableHLO gather (scatter) dimension numbers against an operand of
 * orank dims oshape, indices of irank dims ishape and dtype idtype, with
 * operand window sizes window[] (gather: slice_sizes; scatter:
 * ss__k_scatter_window). On success the result's (scatter: the updates')
 * rank and shape. SS_ERR_INVALID with a one-line message otherwise. */
ss_status ss__k_gather_check(bool scatter, int orank, const int64_t oshape[], int irank,
                             const int64_t ishape[], ss_dtype idtype, const ss_gather_dims *g,
                             const int64_t window[], int *rrank, int64_t rshape[]);
/* A scatter's operand window sizes from its updates' shape (-1 where the
 * updates have too few dims: ss__k_gather_check refuses it). */
void ss__k_scatter_window(int orank, int urank, const int64_t ushape[], const ss_gather_dims *g,
                          int64_t window[]);
/* Shared by the kernels and their references: the checks, then full[]
 * and lo[] filled in (see ss__k_gather) and the window sizes. */
ss_status ss__k_gather_prepare(bool scatter, const ss__tensor *operand, const ss__tensor *ind,
                               const ss__tensor *res, const ss_gather_dims *g,
                               const int64_t full_in[], const int64_t lo_in[], int64_t full[],
                               int64_t lo[], int64_t window[]);
/* The global window start of batch position bidx (the indices' dims but
 * index_vector_dim), clamped to [0, full - window] when `clamp`; *inside
 * says whether the unclamped window fits. */
void ss__k_gather_start(const ss__tensor *ind, const ss_gather_dims *g, int orank,
                        const int64_t full[], const int64_t window[], const int64_t bidx[],
                        bool clamp, int64_t start[], bool *inside);

/* StableHLO gather of x's block. full[d]: the global size of operand dim d
 * (starts are clamped to [0, full - slice size]); lo[d]: the global index
 * of the block's first element; NULL, NULL: x is the whole operand.
 * Result elements whose operand element lies outside the block are 0 (a
 * partitioned gather sums such results over the shards). Any dtype, exact. */
ss_status ss__k_gather(const ss__tensor *x, const ss__tensor *ind, const ss_gather_dims *g,
                       const int64_t full[], const int64_t lo[], ss__tensor *out);
ss_status ss__k_ref_gather(const ss__tensor *x, const ss__tensor *ind, const ss_gather_dims *g,
                           const int64_t full[], const int64_t lo[], ss__tensor *out);
/* StableHLO scatter of one operand: out = x with every update window
 * combined in by `op`, windows in the updates' row-major order; a window
 * whose start is outside [0, full - window] on an indexed dim is skipped
 * (XLA), elements outside the block are left alone. out may be x. */
ss_status ss__k_scatter(const ss__tensor *x, const ss__tensor *ind, const ss__tensor *upd,
                        ss_scatter_op op, const ss_gather_dims *g, const int64_t full[],
                        const int64_t lo[], ss__tensor *out);
ss_status ss__k_ref_scatter(const ss__tensor *x, const ss__tensor *ind, const ss__tensor *upd,
                            ss_scatter_op op, const ss_gather_dims *g, const int64_t full[],
                            const int64_t lo[], ss__tensor *out);

/* ------------------------------------------------------------------------ */
/* Neural-network ops (nn.c)                                                 */
/* ------------------------------------------------------------------------ */

/* flax.linen.LayerNorm's default epsilon. */
#define SS__K_LAYER_NORM_EPS 1e-6f

/* jax.nn.softmax / log_softmax over one axis (in [-rank, rank)). Per lane:
 * m = max, s = sum of exp(x - m) in double in index order; softmax is
 * exp(x - m) / s and log_softmax is (x - m) - log(s). Float dtypes. */
ss_status ss__k_softmax(const ss__tensor *x, int axis, ss__tensor *out);
ss_status ss__k_log_softmax(const ss__tensor *x, int axis, ss__tensor *out);

/* flax.linen.LayerNorm over the last axis (F features): mean and biased
 * variance in double, y = (x - mean) / sqrt(var + eps) * scale + bias.
 * scale and bias are optional (NULL) and have shape [F]. */
ss_status ss__k_layer_norm(const ss__tensor *x, const ss__tensor *scale, const ss__tensor *bias,
                           float eps, ss__tensor *out);

/* optax.softmax_cross_entropy_with_integer_labels: logits [..., C] (float),
 * labels [...] (i32), out [...] = logsumexp(logits) - logits[label]. A
 * label in [-C, 0) counts from the end and one outside [-C, C) gives NaN,
 * as JAX's take_along_axis in its default "fill" mode. */
ss_status ss__k_cross_entropy(const ss__tensor *logits, const ss__tensor *labels,
                              ss__tensor *out);

/* jax.nn.one_hot: indices [...] (i32), out [..., C] of any float dtype or
 * i32; out[..., c] = (indices == c). Out-of-range and negative indices give
 * a row of zeros. */
ss_status ss__k_one_hot(const ss__tensor *indices, ss__tensor *out);

/* ------------------------------------------------------------------------ */
/* Fused elementwise expressions (fused.c)                                   */
/* ------------------------------------------------------------------------ */

#define SS__K_FUSED_MAX_OPS 48
#define SS__K_FUSED_MAX_LEAVES 16
#define SS__K_FUSED_MAX_EXTRA 4

/* One step of a fused expression. Step i's value is register i. */
typedef struct ss__k_fused_op {
    uint8_t kind;    /* SS__K_FUSED_LEAF, _UNARY, _BINARY, _FMA */
    uint8_t sub;     /* leaf index, the unary/binary op, or the fma's ss__k_fma_form */
    uint8_t a, b, c; /* operand registers (earlier steps; c: an fma's addend) */
} ss__k_fused_op;

enum { SS__K_FUSED_LEAF = 0, SS__K_FUSED_UNARY, SS__K_FUSED_BINARY, SS__K_FUSED_FMA };

/* A chain of elementwise ops evaluated in one pass over the data (XLA's
 * loop fusion): the last step is the result. */
typedef struct ss__k_fused {
    int nops;
    ss__k_fused_op ops[SS__K_FUSED_MAX_OPS];
    /* Extra results (multi-output fusion): registers also written out. */
    int nextra;
    uint8_t extra[SS__K_FUSED_MAX_EXTRA];
    /* Broadcast leaves (a broadcast_in_dim folded into its readers): leaf k
     * with repeat[k] > 0 holds m elements and stands for the array whose
     * element i is leaf[(i / repeat[k]) % m], each of its elements repeated
     * repeat[k] times in a row and the whole cycled. 0: a plain leaf. */
    int32_t repeat[SS__K_FUSED_MAX_LEAVES];
} ss__k_fused;

/* outs[0] = the expression over `leaves` (its last step), outs[1 + k] =
 * register extra[k]: each plain leaf has the outputs' element count or is
 * a scalar (rank 0); a broadcast leaf's count times its repeat divides the
 * outputs'; float dtypes, computed in f32 in blocks, each value read and
 * written once. Errors: SS_ERR_INVALID for a malformed expression or a
 * leaf or output of another size. */
ss_status ss__k_fused_run(const ss__k_fused *f, int nleaves, const ss__tensor leaves[],
                          ss__tensor outs[]);
/* As ss__k_fused_run, always through the block interpreter (never a
 * compiled loop such as fused_adam.c's): the reference tests compare
 * the compiled loops with. */
ss_status ss__k_fused_interpret(const ss__k_fused *f, int nleaves, const ss__tensor leaves[],
                                ss__tensor outs[]);
/* FLOPs of the expression over n elements (one per unary/binary step). */
int64_t ss__k_flops_fused(const ss__k_fused *f, int64_t n);

/* ------------------------------------------------------------------------ */
/* dot_general (dot.c)                                                       */
/* ------------------------------------------------------------------------ */

/* lax.dot_general dimension numbers: lhs_batch[i] pairs with rhs_batch[i],
 * lhs_contract[i] with rhs_contract[i]. The output is [batch dims in
 * lhs_batch order, lhs free dims in order, rhs free dims in order]. */
typedef struct ss__k_dot_dims {
    int nbatch;
    int lhs_batch[SS_MAX_RANK];
    int rhs_batch[SS_MAX_RANK];
    int ncontract;
    int lhs_contract[SS_MAX_RANK];
    int rhs_contract[SS_MAX_RANK];
} ss__k_dot_dims;

/* Output shape. SS_ERR_INVALID: dim out of range or used twice, paired dims
 * of different sizes, output rank above SS_MAX_RANK. */
ss_status ss__k_dot_general_shape(const ss__tensor *lhs, const ss__tensor *rhs,
                                  const ss__k_dot_dims *dims, int *rank,
                                  int64_t shape[SS_MAX_RANK]);

/* Scratch bytes ss__k_dot_general needs for these operands and an output
 * of out_dtype (0 when both operands are f32 already laid out as
 * [batch, free, contract] or [batch, contract, free] and the output is f32). */
ss_status ss__k_dot_general_work_bytes(const ss__tensor *lhs, const ss__tensor *rhs,
                                       const ss__k_dot_dims *dims, ss_dtype out_dtype,
                                       size_t *bytes);

/* out = dot_general(lhs, rhs). Operands are permuted (and widened to f32)
 * into [batch, free, contract] scratch when needed, then one cblas_sgemm
 * runs per batch element. `work` (4-byte aligned, work_bytes long) is the
 * scratch; NULL means the kernel mallocs and frees it itself.
 * Errors: the shape errors above; SS_ERR_UNSUPPORTED for a non-float dtype;
 * SS_ERR_RANGE if work_bytes is too small or a matrix side exceeds INT_MAX;
 * SS_ERR_NOMEM if the internal scratch cannot be allocated. */
ss_status ss__k_dot_general(const ss__tensor *lhs, const ss__tensor *rhs,
                            const ss__k_dot_dims *dims, ss__tensor *out, void *work,
                            size_t work_bytes);

/* For tests: dot.c's small-k product C[m x n] = A[k x m]^T . B[k x n]
 * (row-major, k <= 16 where dot_general takes it), tiled or (reference)
 * its plain loop; the two are equal bit for bit. */
void ss__k_small_k_gemm_tn(int64_t m, int64_t n, int64_t k, const float *a, const float *b,
                           float *c, bool reference);

/* ------------------------------------------------------------------------ */
/* FLOP counts (what the planner reports per device)                         */
/* ------------------------------------------------------------------------ */
/*
 * Convention: one FLOP per arithmetic operation or transcendental function
 * in the op's definition, per element; compares count as one; data movement
 * (shape ops, convert, one_hot) counts zero. dot_general counts 2*B*M*N*K.
 * Results saturate at INT64_MAX; the data pointers are not read.
 */
/* Per-element cost of each op: neg 1, exp 1, log 1, tanh 1, relu 1,
 * gelu 9, sqrt 1, rsqrt 2, square 1, convert 0, logistic 3, every other
 * unary op 1 (integer ones too); every binary op 1. */
int64_t ss__k_flops_unary(ss__k_unary_op op, const ss__tensor *x);
int64_t ss__k_flops_binary(ss__k_binary_op op, const ss__tensor *out);
/* One per input element, plus one division per output element for mean. */
int64_t ss__k_flops_reduce(ss__k_reduce_op op, const ss__tensor *x, const ss__tensor *out);
/* Per element: softmax 5 (max, subtract, exp, add, divide), log_softmax 4
 * (+ one log per lane), layer_norm 8 (mean, centre, square, add, scale,
 * multiply by scale, add bias, normalise), cross_entropy 4 per logit (+ one
 * log and one subtract per label). */
int64_t ss__k_flops_softmax(const ss__tensor *x, int axis);
int64_t ss__k_flops_log_softmax(const ss__tensor *x, int axis);
int64_t ss__k_flops_layer_norm(const ss__tensor *x);
int64_t ss__k_flops_cross_entropy(const ss__tensor *logits);
/* 2*B*M*N*K. Errors as ss__k_dot_general_shape; SS_ERR_RANGE on overflow. */
ss_status ss__k_flops_dot_general(const ss__tensor *lhs, const ss__tensor *rhs,
                                  const ss__k_dot_dims *dims, int64_t *flops);

/* ------------------------------------------------------------------------ */
/* Naive references (reference.c)                                            */
/* ------------------------------------------------------------------------ */
/*
 * One loop over output elements, indices unravelled and mapped back by the
 * op's definition, arithmetic in double, one rounding at the end. They check
 * shapes with the same functions as the fast kernels and share only those
 * and the scalar conversions above (not the iteration, not the f32 block
 * loads, not the math). Slow on purpose: tests only.
 */
ss_status ss__k_ref_unary(ss__k_unary_op op, const ss__tensor *x, ss__tensor *out);
ss_status ss__k_ref_binary(ss__k_binary_op op, const ss__tensor *a, const ss__tensor *b,
                           ss__tensor *out);
ss_status ss__k_ref_reduce(ss__k_reduce_op op, const ss__tensor *x, int naxes, const int axes[],
                           bool keepdims, ss__tensor *out);
ss_status ss__k_ref_dot_general(const ss__tensor *lhs, const ss__tensor *rhs,
                                const ss__k_dot_dims *dims, ss__tensor *out);
ss_status ss__k_ref_softmax(const ss__tensor *x, int axis, ss__tensor *out);
ss_status ss__k_ref_log_softmax(const ss__tensor *x, int axis, ss__tensor *out);
ss_status ss__k_ref_layer_norm(const ss__tensor *x, const ss__tensor *scale,
                               const ss__tensor *bias, float eps, ss__tensor *out);
ss_status ss__k_ref_cross_entropy(const ss__tensor *logits, const ss__tensor *labels,
                                  ss__tensor *out);
ss_status ss__k_ref_one_hot(const ss__tensor *indices, ss__tensor *out);
ss_status ss__k_ref_transpose(const ss__tensor *x, const int perm[], ss__tensor *out);
ss_status ss__k_ref_broadcast_in_dim(const ss__tensor *x, const int dims[], ss__tensor *out);
ss_status ss__k_ref_slice(const ss__tensor *x, const int64_t start[], const int64_t limit[],
                          const int64_t stride[], ss__tensor *out);
ss_status ss__k_ref_concatenate(int n, const ss__tensor xs[], int axis, ss__tensor *out);
ss_status ss__k_ref_pad(const ss__tensor *x, const int64_t lo[], const int64_t hi[],
                        double value, ss__tensor *out);

#endif
