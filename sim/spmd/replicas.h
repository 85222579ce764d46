/*
 * replicas.h — replicated work done once: which instructions of a compiled
 * program compute the same bits on several devices, so that the executor
 * (exec.c) can run them on one device of each replica group and let the
 * others copy the result (device/share.c).
 *
 * A buffer is the same along mesh axis a when every two devices that differ
 * only in their coordinate on a hold bit-identical copies of it. The rules
 * (replicas.c) follow from what each instruction reads: a LOAD is the same
 * along the axes its layout does not use, a constant or a zeroed buffer
 * along every axis, a kernel's or fused expression's result along the axes
 * all its operands are the same along (kernels read no device coordinates,
 * and are deterministic), an all-reduce's or all-gather's result along its
 * group's axes too (every member gets the same reduction, in the same
 * order), and the rest conservatively (a slice or a placement drops the
 * axes it depends on; a conditional's results are the same along none).
 *
 * Loops: a loop's body and condition are planned too, as regions whose
 * LOAD k is the region's argument k. An xs slice or an invariant is the
 * same along the axes its operand is (every device is at the same step);
 * a carry along the axes its initial value is and the body keeps: a
 * fixpoint, starting from the initial values' axes and dropping those the
 * body's result for the carry is not the same along, until nothing
 * changes (each round only drops axes, so it ends). The loop's results
 * are then the same along the carries' (or, for ys, the body's ys
 * results') axes: true at every step by induction. Every device runs the
 * same number of steps (the condition's result is replicated), so every
 * device makes the same sequence of shares in a body too. An in-place
 * dynamic_update_slice of a body argument is computed by every device:
 * shared, the leader would copy the whole stacked carry into a new stored
 * block at every step instead of writing one slice.
 *
 * Memory accounting is unchanged by construction: every device still
 * allocates (and frees) each of its buffers in its own arena, so plan and
 * run agree; only the compute is skipped. A follower's copy of a result is
 * made only when the follower will read it (a later instruction that it
 * runs itself, a collective, an output); otherwise the buffer stays
 * untouched (reserved, not committed).
 *
 * This assumes, as JAX does, that an input array's replicas hold the same
 * values; SHARDSIM_REPLICAS=each (the naive path) has every device compute
 * everything, SHARDSIM_REPLICAS=all shares replicated work of any size
 * (for tests on small programs).
 */
#ifndef SS_SPMD_REPLICAS_H
#define SS_SPMD_REPLICAS_H

#include "lower.h"

/* Output bytes below which an instruction is computed by every device:
 * the rendezvous costs more than the work saved (SHARDSIM_REPLICAS=all:
 * none). */
#define SS__REPLICAS_MIN_BYTES ((size_t)16384)

typedef struct ss__replicas {
    /* Per instruction: mesh axes (bit a: axis a, size > 1) of its replica
     * group; 0 when every device computes it. */
    unsigned *group;
    /* Per instruction and result r (0 = out, 1 + k = extra_out[k]): the
     * followers need a copy of the result. */
    uint8_t (*need)[1 + SS__K_FUSED_MAX_EXTRA];
    /* Per loop of the executable (e->loops[k], nloops of them): the plans
     * of its body and its condition, run as regions (ss__exec_region);
     * empty (group NULL: every device computes all) for a conditional's,
     * whose branches are not planned. NULL when the executable has none. */
    struct ss__replicas *body, *cond;
    int nloops;
} ss__replicas;

/* Work out the replica groups of e's instructions, and of its loops'
 * bodies and conditions. SS_ERR_NOMEM (out is then empty). */
ss_status ss__replicas_plan(const ss_executable *e, ss__replicas *out);
/* The plan of loop `index`'s body or condition in r (NULL when r is NULL
 * or that plan is empty: every device computes all). */
const ss__replicas *ss__replicas_of_loop(const ss__replicas *r, int index, bool cond);
void ss__replicas_free(ss__replicas *r);
/* Is the naive path asked for (environment SHARDSIM_REPLICAS=each)? */
bool ss__replicas_naive(void);

#endif
