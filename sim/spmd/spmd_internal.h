/*
 * spmd_internal.h — shared declarations of the sim/spmd layer (sharding
 * propagation, resharding, lowering).
 */
#ifndef SS_SPMD_INTERNAL_H
#define SS_SPMD_INTERNAL_H

#include "graph/graph.h"

/* The layout a reshape from in_shape to out_shape gives a value laid out
 * as `in` without moving data; false (out replicated) if none exists. */
bool ss__reshape_layout(const ss_mesh *mesh, int in_rank, const int64_t in_shape[],
                        const ss__layout *in, int out_rank, const int64_t out_shape[],
                        ss__layout *out);

/* Which layers of sim/spmd handle op `op`: whether its FWD and BWD
 * (propagate.c), LOWER (lower_ops.c, lower_dot.c), EVAL (eval.c), KERNEL (exec_kernels.c) and FLOPS
 * (plan.c) columns of ops.def name a function. tests/test_optable.c checks
 * them against the op's flags. */
void ss__propagate_has_rules(ss__opcode op, bool *fwd, bool *bwd);
bool ss__lower_has_rule(ss__opcode op);
bool ss__eval_has_rule(ss__opcode op);
bool ss__exec_has_kernel(ss__opcode op);
bool ss__plan_has_flops(ss__opcode op);
/* Where each value of p and of its loops' regions lives (memory.c): fills
 * ss_program.memory (left NULL when nothing is put in host memory), which
 * ss__value_memory then reads. SS_ERR_UNSUPPORTED naming the op for a host
 * value the offloader's rules do not place (a host carry the body
 * recomputes on the device, stacked xs/ys in host memory). */
ss_status ss__memory_assign(ss_program *p);
/* Loops (loop.c). Propagation: a loop result's forward candidate (a
 * carry's initial value's layout, else hint[v] when hint is not NULL and
 * known); a loop's operand i from its result (carries only). */
bool ss__loop_result_forward(const ss_program *p, const ss__layout L[], const ss__layout *hint,
                             ss_value v, ss__layout *c);
bool ss__loop_operand_backward(const ss_program *p, const ss__layout L[], ss_value v, int i,
                               ss__layout *c);
/* Propagate every loop's regions of p with its arguments laid out as L
 * says (but carries whose initial value `why` shows to be undecided or a
 * splat left free), and give (in *hint, per value of p, NULL when nothing
 * is new) the layouts their bodies give the loop results. */
ss_status ss__loops_hints(ss_program *p, const ss__layout L[], const ss_sharding_origin why[],
                         ss__layout **hint);
/* Fix each region's argument layouts from L and propagate the regions
 * (their layouts are final afterwards). */
ss_status ss__loops_propagate(ss_program *p, const ss__layout L[]);
/* Conditionals (case_spmd.c): propagate case v's branches with their
 * arguments laid out as its operands are in L (GSPMD partitions every
 * branch with the operands' shardings); with `hint` (one per value of p),
 * give each result the most tiled of the branches' output layouts. */
ss_status ss__case_propagate(ss_program *p, const ss__layout L[], ss_value v, ss__layout *hint);
/* Evaluate case v of p on one host: only the selected branch. */
ss_status ss__case_eval(const ss_program *p, ss_value v, void **vals,
                        const ss_eval_options *opts);
/* The layout of a loop's stacked xs operand or ys result in the loop:
 * `l` with its leading dim unsharded; and a slice's (the leading dim
 * dropped). */
void ss__loop_stack_layout(const ss__layout *l, ss__layout *out);
void ss__loop_slice_layout(const ss__layout *l, ss__layout *out);
/* Evaluate loop v of p on one host (ss_program_eval): vals[] holds its
 * operands; its results are written to new buffers vals[v + 1 + k]. */
ss_status ss__loop_eval(const ss_program *p, ss_value v, void **vals,
                        const ss_eval_options *opts);

/* How a gather or scatter node n runs on blocks (gather_spmd.c, GSPMD's
 * cases): from its operands' layouts (NULL or unknown: replicated; lu is
 * a scatter's updates'), the layouts to bring the operand, indices and
 * updates to, the result's layout (with `partial` axes over which it is a
 * pending sum), and masked[d] for operand dims indexed across shards. */
typedef struct ss__gather_part {
    ss__layout operand, indices, updates, result;
    unsigned partial;
    uint8_t masked[SS_MAX_RANK];
} ss__gather_part;
void ss__gather_partition(const ss_program *p, const ss__node *n, const ss__layout *lx,
                          const ss__layout *li, const ss__layout *lu, ss__gather_part *out);
/* Propagation backward through a gather or scatter: operand i's layout
 * candidate from the result's layout lr (passthrough dims; a gather's
 * indices get its batch dims); false when nothing flows to operand i. */
bool ss__gather_backward(const ss_program *p, const ss__node *n, const ss__layout *lr, int i,
                         ss__layout *c);

#endif
