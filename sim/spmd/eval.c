/*
 * eval.c — the single-device reference: evaluate a program on the host,
 * whole arrays, with the naive reference kernels (kernels/reference.c). It
 * shares nothing with the partitioned path but the IR, so comparing the two
 * checks the partitioner, the runtime and the fast kernels at once.
 */
#include "spmd_internal.h"

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

static size_t bytes_of(const ss__node *n)
{
    size_t b = ss_dtype_size(n->dtype);
    for (int d = 0; d < n->rank; d++)
        b *= (size_t)n->shape[d];
    return b;
}

static ss_status eval_node(const ss_program *p, ss_value v, void **vals)
{
    const ss__node *n = &p->nodes[v];
    ss__tensor in[SS__MAX_INPUTS], out = whole(n, vals[v]);
    for (int k = 0; k < n->nin; k++)
        in[k] = whole(&p->nodes[n->in[k]], vals[n->in[k]]);
    switch (n->op) {
    case SS__OP_CONSTANT: {
        float f = (float)n->scalar;
        memcpy(vals[v], &f, sizeof f);
        return SS_OK;
    }
    case SS__OP_UNARY: return ss__k_ref_unary((ss__k_unary_op)n->sub, &in[0], &out);
    case SS__OP_BINARY: return ss__k_ref_binary((ss__k_binary_op)n->sub, &in[0], &in[1], &out);
    case SS__OP_DOT: {
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
        return ss__k_ref_dot_general(&in[0], &in[1], &dd, &out);
    }
    case SS__OP_REDUCE: {
        int axes[SS_MAX_RANK], na = 0;
        for (int d = 0; d < in[0].rank; d++)
            if ((n->axes_mask >> d) & 1u)
                axes[na++] = d;
        ss__k_reduce_op op = n->sub == SS_REDUCE_MAX   ? SS__K_REDUCE_MAX
                             : n->sub == SS_REDUCE_MIN ? SS__K_REDUCE_MIN
                                                       : SS__K_REDUCE_SUM;
        return ss__k_ref_reduce(op, &in[0], na, axes, false, &out);
    }
    case SS__OP_TRANSPOSE: return ss__k_ref_transpose(&in[0], n->dims, &out);
    case SS__OP_RESHAPE:
        memcpy(vals[v], vals[n->in[0]], bytes_of(n));
        return SS_OK;
    case SS__OP_BROADCAST: return ss__k_ref_broadcast_in_dim(&in[0], n->dims, &out);
    case SS__OP_SLICE: return ss__k_ref_slice(&in[0], n->start, n->limit, NULL, &out);
    case SS__OP_CONCAT: return ss__k_ref_concatenate(n->nin, in, n->dim, &out);
    case SS__OP_ONE_HOT: return ss__k_ref_one_hot(&in[0], &out);
    case SS__OP_CONSTRAIN:
        memcpy(vals[v], vals[n->in[0]], bytes_of(n));
        return SS_OK;
    default: return ss__fail(SS_ERR_UNSUPPORTED, "eval: op %s", ss__opcode_name(n));
    }
}

ss_status ss_program_eval(const ss_program *p, const void *const inputs[], void *const outputs[])
{
    void **vals = calloc((size_t)(p->n ? p->n : 1), sizeof(void *));
    if (!vals)
        return ss__fail(SS_ERR_NOMEM, "eval: out of host memory");
    ss_status st = SS_OK;
    int input_no = 0, output_no = 0;
    for (ss_value v = 0; v < p->n && !st; v++) {
        const ss__node *n = &p->nodes[v];
        if (!(vals[v] = malloc(bytes_of(n) ? bytes_of(n) : 1))) {
            st = ss__fail(SS_ERR_NOMEM, "eval: out of host memory for %%%d", (int)v);
            break;
        }
        if (n->op == SS__OP_INPUT || n->op == SS__OP_PARAM) {
            if (!inputs || !inputs[input_no]) {
                st = ss__fail(SS_ERR_INVALID, "eval: input %d ('%s') is NULL", input_no, n->name);
                break;
            }
            memcpy(vals[v], inputs[input_no++], bytes_of(n));
        } else if ((st = eval_node(p, v, vals))) {
            st = ss__fail(st, "eval: %%%d (%s): %s", (int)v, ss__opcode_name(n),
                          ss_error_message());
            break;
        }
        if (n->is_output) {
            if (!outputs || !outputs[output_no]) {
                st = ss__fail(SS_ERR_INVALID, "eval: output %d is NULL", output_no);
                break;
            }
            memcpy(outputs[output_no++], vals[v], bytes_of(n));
        }
    }
    for (ss_value v = 0; v < p->n; v++)
        free(vals[v]);
    free(vals);
    return st;
}
