/*
 * eval.c — single-device evaluation of a program on the host, whole arrays,
 * one op at a time in program order.
 *
 * Two kernel sets. The default is the naive reference (kernels/reference.c):
 * it shares nothing with the partitioned path but the IR, so comparing the
 * two checks the partitioner, the runtime and the fast kernels at once; the
 * tests use it. With ss_eval_options.fast_kernels it is the "single-device
 * run" (jax.jit of the unsharded function on one device): the fast kernels
 * of kernels.h, which every virtual device also runs, so that comparing
 * checks the partitioner and the runtime at the cost of the program, not of
 * a naive matmul. `shardsim run`'s `check` uses that.
 *
 * What it deliberately does not do: fuse, partition, use device arenas or
 * threads. Intermediates are freed after their last use, so host memory is
 * the live set (the Flax guide's MLP: about 1.6 GB if everything were kept).
 */
#include "spmd_internal.h"

#include "device/coll_internal.h"
#include "kernels/kernels.h"

#include <stdlib.h>
#include <string.h>

static ss__tensor whole(const ss__node *n, void *data)
{
    ss__tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = n->dtype;
    t.rank = n->rank;
    memcpy(t.shape, n->shape, sizeof(int64_t) * (size_t)n->rank);
    t.data = data;
    return t;
}

/*
 * The EVAL column of ops.def: node n on whole arrays `in` (its operands)
 * into `out`, with the naive reference kernels or (fast) the kernels the
 * devices run. Inputs, params, shard_map boundaries and collectives are
 * evaluated by the driver (ss_program_eval_with, eval_manual).
 */
typedef ss_status (*eval_rule)(const ss__node *n, const ss__tensor in[], ss__tensor *out,
                               bool fast);

static ss_status eval_constant(const ss__node *n, const ss__tensor in[], ss__tensor *out,
                               bool fast)
{
    (void)in;
    ss__constant_fill(n, out->data, !fast);
    return SS_OK;
}

static ss_status eval_unary(const ss__node *n, const ss__tensor in[], ss__tensor *out, bool fast)
{
    return fast ? ss__k_unary((ss__k_unary_op)n->sub, &in[0], out)
                : ss__k_ref_unary((ss__k_unary_op)n->sub, &in[0], out);
}

static ss_status eval_binary(const ss__node *n, const ss__tensor in[], ss__tensor *out, bool fast)
{
    return fast ? ss__k_binary((ss__k_binary_op)n->sub, &in[0], &in[1], out)
                : ss__k_ref_binary((ss__k_binary_op)n->sub, &in[0], &in[1], out);
}

/* compare, select, clamp, fma: the exact elementwise path on any dtype. */
static ss_status eval_ew(ss__k_ew_kind kind, int op, const ss__node *n, const ss__tensor in[],
                         ss__tensor *out, bool fast)
{
    return fast ? ss__k_elementwise(kind, op, n->nin, in, out)
                : ss__k_ref_elementwise(kind, op, n->nin, in, out);
}

static ss_status eval_compare(const ss__node *n, const ss__tensor in[], ss__tensor *out,
                              bool fast)
{
    return eval_ew(SS__K_EW_COMPARE, n->sub, n, in, out, fast);
}

static ss_status eval_select(const ss__node *n, const ss__tensor in[], ss__tensor *out,
                             bool fast)
{
    return eval_ew(SS__K_EW_SELECT, 0, n, in, out, fast);
}

static ss_status eval_clamp(const ss__node *n, const ss__tensor in[], ss__tensor *out, bool fast)
{
    return eval_ew(SS__K_EW_CLAMP, 0, n, in, out, fast);
}

static ss_status eval_fma(const ss__node *n, const ss__tensor in[], ss__tensor *out, bool fast)
{
    return eval_ew(SS__K_EW_FMA, n->sub, n, in, out, fast);
}

static ss_status eval_dot(const ss__node *n, const ss__tensor in[], ss__tensor *out, bool fast)
{
    ss__k_dot_dims dd;
    memset(&dd, 0, sizeof dd);
    dd.nbatch = n->nb;
    dd.ncontract = n->nc;
    for (int k = 0; k < n->nb; k++) {
        dd.lhs_batch[k] = n->lb[k];
        dd.rhs_batch[k] = n->rb[k];
    }
    for (int k = 0; k < n->nc; k++) {
        dd.lhs_contract[k] = n->lc[k];
        dd.rhs_contract[k] = n->rc[k];
    }
    return fast ? ss__k_dot_general(&in[0], &in[1], &dd, out, NULL, 0)
                : ss__k_ref_dot_general(&in[0], &in[1], &dd, out);
}

static ss_status eval_reduce(const ss__node *n, const ss__tensor in[], ss__tensor *out, bool fast)
{
    int axes[SS_MAX_RANK], na = 0;
    for (int d = 0; d < in[0].rank; d++)
        if ((n->axes_mask >> d) & 1u)
            axes[na++] = d;
    ss__k_reduce_op op = ss__k_reduce_op_of(n->sub);
    return fast ? ss__k_reduce(op, &in[0], na, axes, false, out)
                : ss__k_ref_reduce(op, &in[0], na, axes, false, out);
}

static ss_status eval_argmax(const ss__node *n, const ss__tensor in[], ss__tensor *out,
                             bool fast)
{
    return fast ? ss__k_argminmax(&in[0], n->dim, n->sub == 1, out)
                : ss__k_ref_argminmax(&in[0], n->dim, n->sub == 1, out);
}

static ss_status eval_transpose(const ss__node *n, const ss__tensor in[], ss__tensor *out,
                                bool fast)
{
    return fast ? ss__k_transpose(&in[0], n->dims, out)
                : ss__k_ref_transpose(&in[0], n->dims, out);
}

/* The operand's bytes as they are (reshape, sharding constraint). */
static ss_status eval_copy(const ss__node *n, const ss__tensor in[], ss__tensor *out, bool fast)
{
    (void)fast;
    memcpy(out->data, in[0].data, ss__node_bytes(n));
    return SS_OK;
}

static ss_status eval_broadcast(const ss__node *n, const ss__tensor in[], ss__tensor *out,
                                bool fast)
{
    return fast ? ss__k_broadcast_in_dim(&in[0], n->dims, out)
                : ss__k_ref_broadcast_in_dim(&in[0], n->dims, out);
}

static ss_status eval_slice(const ss__node *n, const ss__tensor in[], ss__tensor *out, bool fast)
{
    int64_t stride[SS_MAX_RANK];
    for (int d = 0; d < n->rank; d++)
        stride[d] = ss__slice_stride(n, d);
    return fast ? ss__k_slice(&in[0], n->start, n->limit, stride, out)
                : ss__k_ref_slice(&in[0], n->start, n->limit, stride, out);
}

static ss_status eval_reverse(const ss__node *n, const ss__tensor in[], ss__tensor *out,
                              bool fast)
{
    return fast ? ss__k_reverse(&in[0], n->axes_mask, out)
                : ss__k_ref_reverse(&in[0], n->axes_mask, out);
}

static ss_status eval_pad(const ss__node *n, const ss__tensor in[], ss__tensor *out, bool fast)
{
    return fast ? ss__k_pad_general(&in[0], &in[1], n->start, n->limit, n->interior, out)
                : ss__k_ref_pad_general(&in[0], &in[1], n->start, n->limit, n->interior, out);
}

static ss_status eval_dynamic_slice(const ss__node *n, const ss__tensor in[], ss__tensor *out,
                                    bool fast)
{
    return fast ? ss__k_dynamic_slice(&in[0], n->nin - 1, in + 1, out)
                : ss__k_ref_dynamic_slice(&in[0], n->nin - 1, in + 1, out);
}

static ss_status eval_dus(const ss__node *n, const ss__tensor in[], ss__tensor *out, bool fast)
{
    return fast ? ss__k_dynamic_update_slice(&in[0], &in[1], n->nin - 2, in + 2, out)
                : ss__k_ref_dynamic_update_slice(&in[0], &in[1], n->nin - 2, in + 2, out);
}

static ss_status eval_sort(const ss__node *n, const ss__tensor in[], ss__tensor *out, bool fast)
{
    return fast ? ss__k_sort(n->nin, in, n->dim, n->sort_keys, n->sort_desc, n->sub, out)
                : ss__k_ref_sort(n->nin, in, n->dim, n->sort_keys, n->sort_desc, n->sub, out);
}

static ss_status eval_rng(const ss__node *n, const ss__tensor in[], ss__tensor *out, bool fast)
{
    int64_t zero[SS_MAX_RANK] = {0};
    if (n->sub == 1)
        return ss__k_rng_state(n->rng_alg, &in[0], n->rng_dtype, n->rng_rank, n->rng_shape, out);
    return fast ? ss__k_rng_bits(n->rng_alg, &in[0], out->shape, zero, out)
                : ss__k_ref_rng_bits(n->rng_alg, &in[0], out);
}

static ss_status eval_top_k(const ss__node *n, const ss__tensor in[], ss__tensor *out, bool fast)
{
    return fast ? ss__k_top_k(&in[0], n->classes, n->sub == 1, out)
                : ss__k_ref_top_k(&in[0], n->classes, n->sub == 1, out);
}

static ss_status eval_gather(const ss__node *n, const ss__tensor in[], ss__tensor *out,
                             bool fast)
{
    return fast ? ss__k_gather(&in[0], &in[1], &n->gdims, NULL, NULL, out)
                : ss__k_ref_gather(&in[0], &in[1], &n->gdims, NULL, NULL, out);
}

static ss_status eval_scatter(const ss__node *n, const ss__tensor in[], ss__tensor *out,
                              bool fast)
{
    ss_scatter_op op = (ss_scatter_op)n->sub;
    return fast ? ss__k_scatter(&in[0], &in[1], &in[2], op, &n->gdims, NULL, NULL, out)
                : ss__k_ref_scatter(&in[0], &in[1], &in[2], op, &n->gdims, NULL, NULL, out);
}

static ss_status eval_concat(const ss__node *n, const ss__tensor in[], ss__tensor *out, bool fast)
{
    return fast ? ss__k_concatenate(n->nin, in, n->dim, out)
                : ss__k_ref_concatenate(n->nin, in, n->dim, out);
}

static ss_status eval_one_hot(const ss__node *n, const ss__tensor in[], ss__tensor *out,
                              bool fast)
{
    (void)n;
    return fast ? ss__k_one_hot(&in[0], out) : ss__k_ref_one_hot(&in[0], out);
}

static const eval_rule eval_rules[] = {
#define SS__OP(ID, NAME, NIN, NOUT, FLAGS, SUBNAME, VJP, FWD, BWD, LOWER, EVAL, KERNEL, FLOPS) \
    [SS__OP_##ID] = EVAL,
#include "graph/ops.def"
#undef SS__OP
};
_Static_assert(sizeof eval_rules / sizeof eval_rules[0] == SS__OP_COUNT, "one rule per opcode");

bool ss__eval_has_rule(ss__opcode op) { return (unsigned)op < SS__OP_COUNT && eval_rules[op]; }

/* Evaluate node v into outp from its operands' whole arrays `ins`. */
static ss_status eval_op(const ss_program *p, ss_value v, void *const ins[], void *outp,
                         bool fast)
{
    const ss__node *n = &p->nodes[v];
    ss__tensor in[SS__MAX_INPUTS], out = whole(n, outp);
    for (int k = 0; k < n->nin; k++)
        in[k] = whole(&p->nodes[n->in[k]], ins[k]);
    if (!ss__eval_has_rule(n->op))
        return ss__fail(SS_ERR_UNSUPPORTED, "eval: op %s", ss__opcode_name(n));
    return eval_rules[n->op](n, in, &out, fast);
}

/* Copy a block between a global array and a per-device block at `start`. */
static void block_copy(const ss__node *g, const int64_t block[], const int64_t start[],
                       const char *src, char *dst, bool to_block)
{
    size_t esize = ss_dtype_size(g->dtype);
    int64_t total = 1;
    for (int d = 0; d < g->rank; d++)
        total *= block[d];
    for (int64_t e = 0; e < total; e++) {
        int64_t rest = e, off = 0, idx[SS_MAX_RANK];
        for (int d = g->rank - 1; d >= 0; d--) {
            idx[d] = rest % block[d];
            rest /= block[d];
        }
        for (int d = 0; d < g->rank; d++)
            off = off * g->shape[d] + start[d] + idx[d];
        if (to_block)
            memcpy(dst + (size_t)e * esize, src + (size_t)off * esize, esize);
        else
            memcpy(dst + (size_t)off * esize, src + (size_t)e * esize, esize);
    }
}

/* The shards of a global value under a fixed layout, in mesh order. */
static ss_status shards_of(const ss_program *p, const ss__node *g, const ss__layout *l,
                           ss_shard *out)
{
    ss_sharding sh;
    ss__layout_to_sharding(p->mesh, l, &sh);
    return ss_sharding_shards(&sh, g->rank, g->shape, g->dtype, out,
                              ss_mesh_device_count(p->mesh));
}

/* Evaluate a node of a shard_map region (or its boundary) device by device. */
static ss_status eval_manual(const ss_program *p, ss_value v, void **vals, void ***dvals,
                             int ndev, ss_shard *shards, bool fast)
{
    const ss__node *n = &p->nodes[v];
    ss_status st = SS_OK;
    if (n->op == SS__OP_MANUAL_OUT) {
        const ss__node *x = &p->nodes[n->in[0]];
        if ((st = shards_of(p, n, &n->fixed, shards)))
            return st;
        for (int d = 0; d < ndev; d++)
            if (shards[d].replica_id == 0)
                block_copy(n, x->shape, shards[d].start, dvals[n->in[0]][d], vals[v], false);
        return SS_OK;
    }
    if (!(dvals[v] = calloc((size_t)ndev, sizeof(void *))))
        return ss__fail(SS_ERR_NOMEM, "eval: out of host memory");
    for (int d = 0; d < ndev && !st; d++)
        if (!(dvals[v][d] = malloc(ss__node_bytes(n) + 1)))
            st = ss__fail(SS_ERR_NOMEM, "eval: out of host memory");
    if (st)
        return st;
    if (n->op == SS__OP_MANUAL_IN) {
        const ss__node *g = &p->nodes[n->in[0]];
        if ((st = shards_of(p, g, &n->fixed, shards)))
            return st;
        for (int d = 0; d < ndev; d++)
            block_copy(g, n->shape, shards[d].start, vals[n->in[0]], dvals[v][d], true);
        return SS_OK;
    }
    if (n->op == SS__OP_COLLECTIVE) {
        ss_coll c = ss__node_coll(p, n);
        return ss__coll_reference(&c, (const void *const *)dvals[n->in[0]], dvals[v]);
    }
    for (int d = 0; d < ndev && !st; d++) {
        void *ins[SS__MAX_INPUTS];
        for (int k = 0; k < n->nin; k++)
            ins[k] = dvals[n->in[k]][d];
        st = eval_op(p, v, ins, dvals[v][d], fast);
    }
    return st;
}

/* Free value u's whole array or per-device blocks (either may be NULL). */
static void release(ss_value u, void **vals, void ***dvals, int ndev, const bool borrowed[])
{
    if (!borrowed[u])
        free(vals[u]);
    vals[u] = NULL;
    if (dvals[u]) {
        for (int d = 0; d < ndev; d++)
            free(dvals[u][d]);
        free(dvals[u]);
        dvals[u] = NULL;
    }
}

/* last[u] = the last node that reads u; p->n for outputs and unread values
 * kept to the end (an unread value is released where it is made). */
static void last_uses(const ss_program *p, ss_value *last)
{
    for (ss_value v = 0; v < p->n; v++) {
        last[v] = v;
        for (int k = 0; k < p->nodes[v].nin; k++)
            last[p->nodes[v].in[k]] = v;
    }
    for (int o = 0; o < p->nouts; o++)
        last[p->outs[o]] = p->n;
}

ss_status ss_program_eval(const ss_program *p, const void *const inputs[], void *const outputs[])
{
    return ss_program_eval_with(p, NULL, inputs, outputs);
}

ss_status ss_program_eval_with(const ss_program *p, const ss_eval_options *opts,
                               const void *const inputs[], void *const outputs[])
{
    if (!p)
        return ss__fail(SS_ERR_INVALID, "eval: program is NULL");
    bool fast = opts && opts->fast_kernels;
    int ndev = ss_mesh_device_count(p->mesh);
    void **vals = calloc((size_t)(p->n ? p->n : 1), sizeof(void *));
    void ***dvals = calloc((size_t)(p->n ? p->n : 1), sizeof(void **));
    ss_value *last = calloc((size_t)(p->n ? p->n : 1), sizeof(ss_value));
    ss_shard *shards = calloc((size_t)ndev, sizeof(ss_shard));
    bool *borrowed = calloc((size_t)(p->n ? p->n : 1), sizeof(bool));
    ss_status st = SS_OK;
    if (!vals || !dvals || !last || !shards || !borrowed)
        st = ss__fail(SS_ERR_NOMEM, "eval: out of host memory");
    else
        last_uses(p, last);
    int input_no = 0;
    for (ss_value v = 0; v < p->n && !st; v++) {
        const ss__node *n = &p->nodes[v];
        if (n->manual) {
            if ((st = eval_manual(p, v, vals, dvals, ndev, shards, fast)))
                st = ss__fail(st, "eval: %%%d (%s): %s", (int)v, ss__opcode_name(n),
                              ss_error_message());
        } else if (n->op == SS__OP_INPUT || n->op == SS__OP_PARAM) {
            /* Read in place: inputs are never written (borrowed, not freed). */
            if (!inputs || !inputs[input_no])
                st = ss__fail(SS_ERR_INVALID, "eval: input %d ('%s') is NULL", input_no,
                              n->name);
            else
                vals[v] = (void *)inputs[input_no++];
            borrowed[v] = true;
        } else if (ss__op_is(n->op, SS__OPF_HAS_REGIONS)) { /* runs its regions */
            if ((st = ss__loop_eval(p, v, vals, opts)))
                st = ss__fail(st, "eval: %%%d (%s): %s", (int)v, ss__opcode_name(n),
                              ss_error_message());
        } else if (ss__op_is(n->op, SS__OPF_REGION_RESULT)) {
            /* filled by its loop */
        } else if (!(vals[v] = malloc(ss__node_bytes(n) + 1))) {
            st = ss__fail(SS_ERR_NOMEM, "eval: out of host memory for %%%d", (int)v);
        } else if (n->op == SS__OP_MANUAL_OUT) {
            st = eval_manual(p, v, vals, dvals, ndev, shards, fast);
        } else {
            void *ins[SS__MAX_INPUTS];
            for (int k = 0; k < n->nin; k++)
                ins[k] = vals[n->in[k]];
            if ((st = eval_op(p, v, ins, vals[v], fast)))
                st = ss__fail(st, "eval: %%%d (%s): %s", (int)v, ss__opcode_name(n),
                              ss_error_message());
        }
        for (int k = 0; k < n->nin && !st; k++)
            if (last[n->in[k]] == v)
                release(n->in[k], vals, dvals, ndev, borrowed);
        if (!st && last[v] == v)
            release(v, vals, dvals, ndev, borrowed);
    }
    for (int o = 0; o < p->nouts && !st; o++) {
        if (!outputs || !outputs[o]) {
            st = ss__fail(SS_ERR_INVALID, "eval: output %d is NULL", o);
            break;
        }
        memcpy(outputs[o], vals[p->outs[o]], ss__node_bytes(&p->nodes[p->outs[o]]));
    }
    for (ss_value v = 0; vals && dvals && borrowed && v < p->n; v++)
        release(v, vals, dvals, ndev, borrowed);
    free(borrowed);
    free(vals);
    free(dvals);
    free(last);
    free(shards);
    return st;
}
