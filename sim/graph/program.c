/*
 * program.c — the program container: creation, inputs, params, constants,
 * outputs, accessors. Ops live in ops.c, composite ops in composite.c.
 */
#include "graph.h"

#include <stdlib.h>
#include <string.h>

ss_status ss_program_create(const ss_mesh *mesh, ss_program **out)
{
    *out = NULL;
    if (!mesh)
        return ss__fail(SS_ERR_INVALID, "program: a mesh is required");
    ss_program *p = calloc(1, sizeof *p);
    if (!p)
        return ss__fail(SS_ERR_NOMEM, "program: out of host memory");
    p->mesh = mesh;
    *out = p;
    return SS_OK;
}

void ss_program_destroy(ss_program *p)
{
    if (!p)
        return;
    free(p->nodes);
    free(p->layouts);
    free(p->origins);
    free(p->pairs);
    free(p->outs);
    free(p->memory);
    for (int k = 0; k < p->ncblocks; k++)
        free(p->cblocks[k]);
    free(p->cblocks);
    for (int k = 0; k < p->nloops; k++)
        ss__loop_free(&p->loops[k]);
    free(p->loops);
    free(p);
}

int ss_program_value_count(const ss_program *p) { return p->n; }

ss_status ss__program_add(ss_program *p, const ss__node *node, ss_value *out)
{
    const ss__op_info *info = ss__op_info_of(node->op);
    if (!info || node->nin < 0 || node->nin > SS__MAX_INPUTS ||
        (info->nin >= 0 && node->nin != info->nin))
        return ss__fail(SS_ERR_INVALID, "%s: %d operands, the op takes %d", ss__opcode_name(node),
                        node->nin, info ? info->nin : 0);
    /* Values cross a shard_map boundary only through its entry and exit. */
    bool manual = p->in_manual && node->op != SS__OP_MANUAL_OUT;
    for (int k = 0; k < node->nin; k++) {
        bool want = node->op == SS__OP_MANUAL_IN ? false
                    : node->op == SS__OP_MANUAL_OUT ? true
                                                    : manual;
        if (p->nodes[node->in[k]].manual != want)
            return ss__fail(SS_ERR_INVALID,
                            "%s: %%%d is %s the shard_map region; pass values in and out "
                            "through ss_shard_map_begin/end",
                            ss__opcode_name(node), (int)node->in[k],
                            want ? "outside" : "inside");
    }
    void *grown = ss__grow(p->nodes, &p->cap, p->n + 1, sizeof *p->nodes, 64);
    if (!grown)
        return ss__fail(SS_ERR_NOMEM, "program: out of host memory at value %d", p->n);
    p->nodes = grown;
    p->nodes[p->n] = *node;
    p->nodes[p->n].manual = manual;
    p->nodes[p->n].phase = p->phase;
    if (node->op != SS__OP_COLLECTIVE)
        p->nodes[p->n].pairs_at = -1;
    free(p->layouts);
    p->layouts = NULL;
    *out = p->n++;
    return SS_OK;
}

ss_status ss__program_reserve(ss_program *p, int n)
{
    if (n <= p->cap)
        return SS_OK;
    ss__node *grown = realloc(p->nodes, sizeof *p->nodes * (size_t)n);
    if (!grown)
        return ss__fail(SS_ERR_NOMEM, "program: out of host memory for %d values", n);
    p->nodes = grown;
    p->cap = n;
    return SS_OK;
}

const ss__node *ss__program_node(const ss_program *p, ss_value v, const char *what)
{
    if (v < 0 || v >= p->n) {
        ss__fail(SS_ERR_INVALID, "%s: %%%d is not a value of this program (it has %d)", what,
                 (int)v, p->n);
        return NULL;
    }
    return &p->nodes[v];
}

static ss_status add_leaf(ss_program *p, ss__opcode op, const char *name, ss_dtype dtype,
                          int rank, const int64_t shape[], const ss_spec *spec, ss_value *out)
{
    ss__node n;
    memset(&n, 0, sizeof n);
    n.op = op;
    n.dtype = dtype;
    const char *what = ss__op_info_of(op)->name;
    if (p->in_manual)
        return ss__fail(SS_ERR_INVALID, "%s '%s': inputs and params are declared outside "
                                        "shard_map regions", what, name);
    if (ss_dtype_size(dtype) == 0)
        return ss__fail(SS_ERR_INVALID, "%s '%s': invalid dtype", what, name);
    if (rank < 0 || rank > SS_MAX_RANK)
        return ss__fail(SS_ERR_RANK, "%s '%s': rank %d is outside 0..%d", what, name, rank,
                        SS_MAX_RANK);
    n.rank = rank;
    for (int d = 0; d < rank; d++) {
        if (shape[d] < 1)
            return ss__fail(SS_ERR_INVALID, "%s '%s': dimension %d has size %lld", what, name,
                            d, (long long)shape[d]);
        n.shape[d] = shape[d];
    }
    snprintf(n.name, sizeof n.name, "%s", name ? name : "");
    ss__layout_unknown(&n.fixed, rank);
    if (spec) {
        ss_sharding sh;
        ss_sharding_init(&sh, p->mesh, spec);
        ss_status st = ss_sharding_check(&sh, rank, shape);
        if (st) {
            /* jit's wording: "One of pjit arguments ... : <inner>". */
            char inner[1024];
            snprintf(inner, sizeof inner, "%s", ss_error_message());
            if (st == SS_ERR_RANK)
                return ss__fail(st,
                                "One of pjit arguments with pytree key path %s is incompatible "
                                "with its sharding annotation: %s",
                                n.name, inner);
            /* An indivisible dim: JAX 0.10.2's jit lets IndivisibleError
             * through unwrapped (pjit_check_aval_sharding). */
            return ss__fail(st, "%s", inner);
        }
        ss__layout_from_spec(p->mesh, spec, rank, &n.fixed);
    }
    return ss__program_add(p, &n, out);
}

ss_status ss_input(ss_program *p, const char *name, ss_dtype dtype, int rank,
                   const int64_t shape[], const ss_spec *spec, ss_value *out)
{
    return add_leaf(p, SS__OP_INPUT, name, dtype, rank, shape, spec, out);
}

ss_status ss_param(ss_program *p, const char *name, ss_dtype dtype, int rank,
                   const int64_t shape[], const ss_spec *spec, ss_value *out)
{
    return add_leaf(p, SS__OP_PARAM, name, dtype, rank, shape, spec, out);
}

ss_status ss_constant(ss_program *p, double value, ss_value *out)
{
    ss__node n;
    memset(&n, 0, sizeof n);
    n.op = SS__OP_CONSTANT;
    n.dtype = SS_F32;
    n.scalar = value;
    ss__layout_replicated(&n.fixed, 0);
    return ss__program_add(p, &n, out);
}

ss_status ss_output(ss_program *p, ss_value x, const ss_spec *spec)
{
    ss_value v = x;
    if (!ss__program_node(p, x, "output"))
        return SS_ERR_INVALID;
    if (p->nodes[x].manual)
        return ss__fail(SS_ERR_INVALID, "output: %%%d is inside a shard_map region; return it "
                                        "through ss_shard_map_end", (int)x);
    if (spec) {
        ss_status st = ss_constrain(p, x, spec, &v);
        if (st)
            return st;
    }
    void *grown = ss__grow(p->outs, &p->outs_cap, p->nouts + 1, sizeof *p->outs, 16);
    if (!grown)
        return ss__fail(SS_ERR_NOMEM, "output: out of host memory");
    p->outs = grown;
    p->outs[p->nouts++] = v;
    p->nodes[v].is_output = true;
    return SS_OK;
}

ss_status ss_value_shape(const ss_program *p, ss_value v, ss_dtype *dtype, int *rank,
                         int64_t shape[])
{
    const ss__node *n = ss__program_node(p, v, "value_shape");
    if (!n)
        return SS_ERR_INVALID;
    if (dtype)
        *dtype = n->dtype;
    if (rank)
        *rank = n->rank;
    if (shape)
        memcpy(shape, n->shape, sizeof(int64_t) * (size_t)n->rank);
    return SS_OK;
}

uint8_t ss__program_enter_phase(ss_program *p, ss_phase ph)
{
    uint8_t before = p->phase;
    if ((uint8_t)ph > p->phase)
        p->phase = (uint8_t)ph;
    return before;
}

ss_phase ss_value_phase(const ss_program *p, ss_value v)
{
    return p && v >= 0 && v < p->n ? (ss_phase)p->nodes[v].phase : SS_PHASE_FORWARD;
}

const char *ss_phase_name(ss_phase phase)
{
    static const char *const names[] = {"forward", "backward", "optimizer"};
    return (unsigned)phase < 3 ? names[phase] : "forward";
}

const char *ss_value_op_name(const ss_program *p, ss_value v)
{
    const ss__node *n = ss__program_node(p, v, "value_op_name");
    return n ? ss__opcode_name(n) : NULL;
}

const char *ss_value_name(const ss_program *p, ss_value v)
{
    return p && v >= 0 && v < p->n ? p->nodes[v].name : "";
}

ss_status ss_value_set_source(ss_program *p, ss_value v, int line, int col)
{
    if (!p || v < 0 || v >= p->n)
        return ss__fail(SS_ERR_RANGE, "value_set_source: %%%d is not a value of the program",
                        (int)v);
    p->nodes[v].line = line;
    p->nodes[v].col = col;
    return SS_OK;
}

void ss_value_source(const ss_program *p, ss_value v, int *line, int *col)
{
    bool ok = p && v >= 0 && v < p->n;
    *line = ok ? p->nodes[v].line : 0;
    *col = ok ? p->nodes[v].col : 0;
}

ss_status ss_value_operand(const ss_program *p, ss_value v, int i, ss_value *out)
{
    const ss__node *n = ss__program_node(p, v, "value_operand");
    if (!n)
        return SS_ERR_INVALID;
    if (i < 0 || i >= n->nin)
        return ss__fail(SS_ERR_RANGE, "value_operand: %%%d (%s) has %d operands, not %d", (int)v,
                        ss__opcode_name(n), n->nin, i + 1);
    *out = n->in[i];
    return SS_OK;
}
