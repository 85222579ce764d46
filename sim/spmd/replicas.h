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
 * axes it depends on; a loop's results are the same along none).
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
 * everything.
 */
#ifndef SS_SPMD_REPLICAS_H
#define SS_SPMD_REPLICAS_H

#include "lower.h"

/* Output bytes below which an instruction is computed by every device:
 * the rendezvous costs more than the work saved. */
#define SS__REPLICAS_MIN_BYTES ((size_t)16384)

typedef struct ss__replicas {
    /* Per instruction: mesh axes (bit a: axis a, size > 1) of its replica
     * group; 0 when every device computes it. */
    unsigned *group;
    /* Per instruction and result r (0 = out, 1 + k = extra_out[k]): the
     * followers need a copy of the result. */
    uint8_t (*need)[1 + SS__K_FUSED_MAX_EXTRA];
} ss__replicas;

/* Work out the replica groups of e's instructions (top-level executables
 * only; a loop body is always run by every device). SS_ERR_NOMEM. */
ss_status ss__replicas_plan(const ss_executable *e, ss__replicas *out);
void ss__replicas_free(ss__replicas *r);
/* Is the naive path asked for (environment SHARDSIM_REPLICAS=each)? */
bool ss__replicas_naive(void);

#endif
