/*
 * exec_kernels.c — the KERNEL column of ops.def: what one device computes
 * for a KERNEL instruction on its local blocks (exec.c runs the
 * instruction list, allocates and frees, and calls ss__exec_kernel).
 */
#include "lower.h"
#include "spmd_internal.h"

#include <string.h>

/* Block index of this device along dim d of layout l (its first `n` axes). */
int64_t ss__exec_block_index(const ss_mesh *m, const ss__layout *l, int d, int from, int to,
                           const int64_t c[])
{
    int64_t t = 0;
    for (int k = from; k < to; k++)
        t = t * m->sizes[l->ax[d][k]] + c[l->ax[d][k]];
    return t;
}

/*
 * The KERNEL column of ops.def: instruction i (a KERNEL of node n of
 * program p) on local blocks `in` into `out`; `work` is the scratch
 * ss__inst_work_bytes asked for (NULL when none).
 */
typedef ss_status (*kernel_rule)(const ss_program *p, const ss__node *n, const ss__inst *i,
                                 const ss__tensor in[], ss__tensor *out, void *work,
                                 size_t work_bytes);

static ss_status run_unary(const ss_program *p, const ss__node *n, const ss__inst *i,
                           const ss__tensor in[], ss__tensor *out, void *work, size_t work_bytes)
{
    (void)p, (void)i, (void)work, (void)work_bytes;
    return ss__k_unary((ss__k_unary_op)n->sub, &in[0], out);
}

static ss_status run_binary(const ss_program *p, const ss__node *n, const ss__inst *i,
                            const ss__tensor in[], ss__tensor *out, void *work, size_t work_bytes)
{
    (void)p, (void)i, (void)work, (void)work_bytes;
    return ss__k_binary((ss__k_binary_op)n->sub, &in[0], &in[1], out);
}

static ss_status run_compare(const ss_program *p, const ss__node *n, const ss__inst *i,
                             const ss__tensor in[], ss__tensor *out, void *work,
                             size_t work_bytes)
{
    (void)p, (void)i, (void)work, (void)work_bytes;
    return ss__k_elementwise(SS__K_EW_COMPARE, n->sub, 2, in, out);
}

static ss_status run_select(const ss_program *p, const ss__node *n, const ss__inst *i,
                            const ss__tensor in[], ss__tensor *out, void *work, size_t work_bytes)
{
    (void)p, (void)n, (void)i, (void)work, (void)work_bytes;
    return ss__k_elementwise(SS__K_EW_SELECT, 0, 3, in, out);
}

static ss_status run_clamp(const ss_program *p, const ss__node *n, const ss__inst *i,
                           const ss__tensor in[], ss__tensor *out, void *work, size_t work_bytes)
{
    (void)p, (void)n, (void)i, (void)work, (void)work_bytes;
    return ss__k_elementwise(SS__K_EW_CLAMP, 0, 3, in, out);
}

static ss_status run_fma(const ss_program *p, const ss__node *n, const ss__inst *i,
                         const ss__tensor in[], ss__tensor *out, void *work, size_t work_bytes)
{
    (void)p, (void)i, (void)work, (void)work_bytes;
    int64_t count = ss__k_numel(out);
    bool f32 = count >= 0 && out->dtype == SS_F32 && (unsigned)n->sub < SS__K_FMA_FORM_COUNT;
    for (int k = 0; f32 && k < 3; k++) /* ss__fma: operands of the result's shape */
        f32 = in[k].dtype == SS_F32 && ss__k_numel(&in[k]) == count;
    if (f32) {
        ss__k_fma_f32(n->sub, in[0].data, in[1].data, in[2].data, out->data, count);
        return SS_OK;
    }
    return ss__k_elementwise(SS__K_EW_FMA, n->sub, 3, in, out);
}

static ss_status run_dot(const ss_program *p, const ss__node *n, const ss__inst *i,
                         const ss__tensor in[], ss__tensor *out, void *work, size_t work_bytes)
{
    (void)p, (void)n;
    return ss__k_dot_general(&in[0], &in[1], &i->dot, out, work, work_bytes);
}

static ss_status run_reduce(const ss_program *p, const ss__node *n, const ss__inst *i,
                            const ss__tensor in[], ss__tensor *out, void *work, size_t work_bytes)
{
    (void)p, (void)work, (void)work_bytes;
    return ss__k_reduce(ss__k_reduce_op_of(n->sub), &in[0], i->nred, i->red, false, out);
}

/* The reduced axis is whole on the device (lower_reduce). */
static ss_status run_argmax(const ss_program *p, const ss__node *n, const ss__inst *i,
                            const ss__tensor in[], ss__tensor *out, void *work, size_t work_bytes)
{
    (void)p, (void)i, (void)work, (void)work_bytes;
    return ss__k_argminmax(&in[0], n->dim, n->sub == 1, out);
}

static ss_status run_transpose(const ss_program *p, const ss__node *n, const ss__inst *i,
                               const ss__tensor in[], ss__tensor *out, void *work,
                               size_t work_bytes)
{
    (void)p, (void)i, (void)work, (void)work_bytes;
    return ss__k_transpose(&in[0], n->dims, out);
}

static ss_status run_reshape(const ss_program *p, const ss__node *n, const ss__inst *i,
                             const ss__tensor in[], ss__tensor *out, void *work, size_t work_bytes)
{
    (void)p, (void)n, (void)i, (void)work, (void)work_bytes;
    return ss__k_reshape(&in[0], out);
}

static ss_status run_broadcast(const ss_program *p, const ss__node *n, const ss__inst *i,
                               const ss__tensor in[], ss__tensor *out, void *work,
                               size_t work_bytes)
{
    (void)p, (void)i, (void)work, (void)work_bytes;
    return ss__k_broadcast_in_dim(&in[0], n->dims, out);
}

/* Only the dims the slice shortens are cut: a dim it keeps whole may be
 * sharded, its block taken whole. */
static ss_status run_slice(const ss_program *p, const ss__node *n, const ss__inst *i,
                           const ss__tensor in[], ss__tensor *out, void *work, size_t work_bytes)
{
    (void)i, (void)work, (void)work_bytes;
    int64_t start[SS_MAX_RANK], limit[SS_MAX_RANK], stride[SS_MAX_RANK];
    unsigned whole = ss__node_whole_dims(p, n);
    for (int d = 0; d < n->rank; d++) {
        bool sliced = (whole >> d) & 1u;
        start[d] = sliced ? n->start[d] : 0;
        limit[d] = sliced ? n->limit[d] : in[0].shape[d];
        stride[d] = sliced ? ss__slice_stride(n, d) : 1;
    }
    return ss__k_slice(&in[0], start, limit, stride, out);
}

/* Reversed dims are whole on the device (lower_same_layout). */
static ss_status run_reverse(const ss_program *p, const ss__node *n, const ss__inst *i,
                             const ss__tensor in[], ss__tensor *out, void *work,
                             size_t work_bytes)
{
    (void)p, (void)i, (void)work, (void)work_bytes;
    return ss__k_reverse(&in[0], n->axes_mask, out);
}

/* Padded dims are whole; the others have no padding and keep their block. */
static ss_status run_pad(const ss_program *p, const ss__node *n, const ss__inst *i,
                         const ss__tensor in[], ss__tensor *out, void *work, size_t work_bytes)
{
    (void)p, (void)i, (void)work, (void)work_bytes;
    return ss__k_pad_general(&in[0], &in[1], n->start, n->limit, n->interior, out);
}

/* The sliced (updated) dims are whole on the device; on the others the
 * block is taken whole (the clamp makes their start 0). */
static ss_status run_dynamic_slice(const ss_program *p, const ss__node *n, const ss__inst *i,
                                   const ss__tensor in[], ss__tensor *out, void *work,
                                   size_t work_bytes)
{
    (void)p, (void)n, (void)work, (void)work_bytes;
    return ss__k_dynamic_slice(&in[0], i->nin - 1, in + 1, out);
}

/* The sorted dim is whole on the device (ss__node_whole_dims); each lane
 * of the block is sorted on its own. */
static ss_status run_sort(const ss_program *p, const ss__node *n, const ss__inst *i,
                          const ss__tensor in[], ss__tensor *out, void *work, size_t work_bytes)
{
    (void)p, (void)work, (void)work_bytes;
    return ss__k_sort(i->nin, in, n->dim, n->sort_keys, n->sort_desc, n->sub, out);
}

static ss_status run_top_k(const ss_program *p, const ss__node *n, const ss__inst *i,
                           const ss__tensor in[], ss__tensor *out, void *work, size_t work_bytes)
{
    (void)p, (void)i, (void)work, (void)work_bytes;
    return ss__k_top_k(&in[0], n->classes, n->sub == 1, out);
}

static ss_status run_dus(const ss_program *p, const ss__node *n, const ss__inst *i,
                         const ss__tensor in[], ss__tensor *out, void *work, size_t work_bytes)
{
    (void)p, (void)n, (void)work, (void)work_bytes;
    return ss__k_dynamic_update_slice(&in[0], &in[1], i->nin - 2, in + 2, out);
}

static ss_status run_concat(const ss_program *p, const ss__node *n, const ss__inst *i,
                            const ss__tensor in[], ss__tensor *out, void *work, size_t work_bytes)
{
    (void)p, (void)work, (void)work_bytes;
    return ss__k_concatenate(i->nin, in, n->dim, out);
}

/* The table's entry for rng_bit_generator: the whole array (a device's
 * block goes through run_placed_rng, which ss__exec_kernel calls). */
static ss_status run_rng(const ss_program *p, const ss__node *n, const ss__inst *i,
                         const ss__tensor in[], ss__tensor *out, void *work, size_t work_bytes)
{
    (void)p, (void)i, (void)work, (void)work_bytes;
    int64_t zero[SS_MAX_RANK] = {0};
    if (n->sub == 1)
        return ss__k_rng_state(n->rng_alg, &in[0], n->rng_dtype, n->rng_rank, n->rng_shape, out);
    return ss__k_rng_bits(n->rng_alg, &in[0], n->shape, zero, out);
}

static ss_status run_one_hot(const ss_program *p, const ss__node *n, const ss__inst *i,
                             const ss__tensor in[], ss__tensor *out, void *work, size_t work_bytes)
{
    (void)p, (void)n, (void)i, (void)work, (void)work_bytes;
    return ss__k_one_hot(&in[0], out);
}

/* Gather and scatter on blocks the lowering made whole where it must
 * (lower_ops.c's ss__lower_gather); the device-dependent variant is run_placed_index.
 * A gather's window that takes a whole operand dim takes this device's
 * whole block of it (that dim may be sharded). */
static void local_gather_dims(const ss_program *p, const ss__node *n, const ss__tensor *x,
                              ss_gather_dims *g)
{
    *g = n->gdims;
    const ss__node *gx = &p->nodes[n->in[0]];
    for (int d = 0; n->op == SS__OP_GATHER && d < gx->rank; d++)
        if (g->slice_sizes[d] == gx->shape[d])
            g->slice_sizes[d] = x->shape[d];
}

static ss_status run_gather(const ss_program *p, const ss__node *n, const ss__inst *i,
                            const ss__tensor in[], ss__tensor *out, void *work, size_t work_bytes)
{
    (void)i, (void)work, (void)work_bytes;
    ss_gather_dims g;
    local_gather_dims(p, n, &in[0], &g);
    return ss__k_gather(&in[0], &in[1], &g, NULL, NULL, out);
}

static ss_status run_scatter(const ss_program *p, const ss__node *n, const ss__inst *i,
                             const ss__tensor in[], ss__tensor *out, void *work,
                             size_t work_bytes)
{
    (void)p, (void)i, (void)work, (void)work_bytes;
    return ss__k_scatter(&in[0], &in[1], &in[2], (ss_scatter_op)n->sub, &n->gdims, NULL, NULL,
                         out);
}

static const kernel_rule kernel_rules[] = {
#define SS__OP(ID, NAME, NIN, NOUT, FLAGS, SUBNAME, VJP, FWD, BWD, LOWER, EVAL, KERNEL, FLOPS) \
    [SS__OP_##ID] = KERNEL,
#include "graph/ops.def"
#undef SS__OP
};
_Static_assert(sizeof kernel_rules / sizeof kernel_rules[0] == SS__OP_COUNT, "one per opcode");

bool ss__exec_has_kernel(ss__opcode op) { return (unsigned)op < SS__OP_COUNT && kernel_rules[op]; }

/* A gather or scatter whose kernel must know where this device's operand
 * block lies (lower_ops.c's ss__lower_gather sets i->layout to the operand's
 * layout): an operand dim d with i->sn[d] set is indexed across its shards
 * (global size and block start passed to the kernel); a scatter whose
 * i->layout.partial names axes leaves a pending sum over them, so only
 * the first device along them starts from the operand, the others from
 * zeros. */
static ss_status run_placed_index(const ss_executable *e, const ss__node *n, const ss__inst *i,
                                  const ss__tensor in[], ss__tensor *out, const int64_t c[])
{
    const ss_mesh *m = e->mesh;
    const ss__node *x = &e->program->nodes[n->in[0]];
    int64_t full[SS_MAX_RANK], lo[SS_MAX_RANK];
    for (int d = 0; d < x->rank; d++) {
        full[d] = in[0].shape[d];
        lo[d] = 0;
        if (i->sn[d]) {
            full[d] = x->shape[d];
            lo[d] = ss__exec_block_index(m, &i->layout, d, 0, i->layout.n[d], c) * in[0].shape[d];
        }
    }
    if (n->op == SS__OP_GATHER) {
        ss_gather_dims g;
        local_gather_dims(e->program, n, &in[0], &g);
        return ss__k_gather(&in[0], &in[1], &g, full, lo, out);
    }
    const ss__tensor *base = &in[0];
    bool first = true;
    for (int a = 0; a < m->naxes; a++)
        if (((i->layout.partial >> a) & 1u) && c[a] != 0)
            first = false;
    if (!first) {
        memset(out->data, 0, (size_t)ss__k_numel(out) * ss_dtype_size(out->dtype));
        base = out;
    }
    return ss__k_scatter(base, &in[1], &in[2], (ss_scatter_op)n->sub, &n->gdims, full, lo, out);
}

/* rng_bit_generator's bits: this device's block of the whole array (its
 * place from i->layout and the device's coordinates c[]); or the state. */
static ss_status run_placed_rng(const ss_executable *e, const ss__node *n, const ss__inst *i,
                                const ss__tensor in[], ss__tensor *out, const int64_t c[])
{
    if (n->sub == 1)
        return ss__k_rng_state(n->rng_alg, &in[0], n->rng_dtype, n->rng_rank, n->rng_shape, out);
    int64_t lo[SS_MAX_RANK] = {0};
    for (int d = 0; d < n->rank; d++)
        if (i->layout.known && i->layout.n[d])
            lo[d] = ss__exec_block_index(e->mesh, &i->layout, d, 0, i->layout.n[d], c) *
                    out->shape[d];
    return ss__k_rng_bits(n->rng_alg, &in[0], n->shape, lo, out);
}

ss_status ss__exec_kernel(const ss_executable *e, const ss__node *n, const ss__inst *i,
                          const ss__tensor in[], ss__tensor *out, void *work, size_t work_bytes,
                          const int64_t c[])
{
    if ((n->op == SS__OP_GATHER || n->op == SS__OP_SCATTER) && i->layout.known)
        return run_placed_index(e, n, i, in, out, c);
    if (n->op == SS__OP_RNG_BIT_GENERATOR)
        return run_placed_rng(e, n, i, in, out, c);
    if (ss__exec_has_kernel(n->op))
        return kernel_rules[n->op](e->program, n, i, in, out, work, work_bytes);
    return ss__fail(SS_ERR_UNSUPPORTED, "run: no kernel for %s", ss__opcode_name(n));
}
