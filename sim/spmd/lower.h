/*
 * lower.h — the partitioned program: what ss_program_compile produces and
 * what the executor (exec.c) and the planner (plan.c) both walk.
 *
 * One instruction list serves every device (SPMD): buffers have the same
 * local shape on all devices, and what differs per device (which block a
 * LOAD or SLICE takes, a device's rank in a collective) is computed from its
 * mesh coordinates when it runs. Allocation is implicit: an instruction
 * allocates its output buffer from the device's arena; FREE returns it. The
 * plan replays exactly this sequence without data, so the peak it predicts
 * is the peak the arenas measure.
 */
#ifndef SS_LOWER_H
#define SS_LOWER_H

#include "device/device_internal.h"
#include "kernels/kernels.h"
#include "spmd_internal.h"

typedef enum ss__inst_kind {
    SS__INST_LOAD = 0, /* out = this device's block of program input `index` */
    SS__INST_CONST,    /* out = scalar node->scalar (rank 0, f32) */
    SS__INST_KERNEL,   /* out = node's op on local buffers in[] */
    SS__INST_COLL,     /* out = collective `coll` of in[0] */
    SS__INST_SLICE,    /* out = the sub-block of in[0] that dims' gained axes select */
    SS__INST_UNSTACK,  /* out = in[0] ([G, local...] from an untiled all_gather) placed */
    SS__INST_STORE,    /* copy in[0] (replica 0 of each block) to program output `index` */
    SS__INST_FUSED,    /* out = `fused` over the leaves in[] (fuse.c) */
    SS__INST_ALLOC,    /* out = a zeroed buffer, filled later by PLACE */
    SS__INST_PLACE,    /* write in[0] into in[1] (= out, no allocation) at block
                          ((coord of mesh axis `place_axis`) + place_step) mod
                          place_n along dim place_dim */
    SS__INST_FREE      /* return buffer in[0] to the arena */
} ss__inst_kind;

/* A local buffer: the same shape on every device. */
typedef struct ss__bufdesc {
    ss_dtype dtype;
    int rank;
    int64_t shape[SS_MAX_RANK];
    size_t bytes;
    char name[48];
} ss__bufdesc;

typedef struct ss__inst {
    ss__inst_kind kind;
    ss_value node;
    int out;
    int nin;
    int in[SS__MAX_INPUTS];
    int index;          /* LOAD input / STORE output number */
    ss__layout layout;  /* LOAD/STORE: the value's layout; SLICE: the layout after */
    /* COLL */
    ss_coll coll;
    int pairs_at;       /* offset of the pairs in the executable's pool, -1 if none */
    /* SLICE: dim d gains its sn[d] minor-most axes of `layout` */
    uint8_t sn[SS_MAX_RANK];
    /* UNSTACK: the gather's axes in rank order and the dim each one tiles */
    int unaxes;
    int8_t uaxes[SS_MAX_AXES];
    int8_t udim[SS_MAX_AXES];
    /* KERNEL: dot dims (local), reduce axes, scratch bytes */
    ss__k_dot_dims dot;
    int nred;
    int red[SS_MAX_RANK];
    size_t work_bytes;
    double flops;
    /* FUSED: the expression; its leaves are in[0..nin); results `out`
     * (its last step) and extra_out[k] (register fused.extra[k]) */
    ss__k_fused fused;
    int extra_out[SS__K_FUSED_MAX_EXTRA];
    /* PLACE */
    int place_axis, place_dim, place_step, place_n;
    /* In place (liveness.c): result r (0 = out, 1 + k = extra_out[k]) takes
     * over the buffer of operand in[share[r]] instead of a new one (-1: a new
     * one); that operand dies here. When share_arg[r] the operand is an
     * argument, taken only if the caller donated it (ss_executable_run_arrays;
     * undonated arguments live to the end); otherwise the result takes the
     * temporary in[share_alt[r]] when there is one (never an argument). */
    int8_t share[1 + SS__K_FUSED_MAX_EXTRA];
    int8_t share_alt[1 + SS__K_FUSED_MAX_EXTRA];
    bool share_arg[1 + SS__K_FUSED_MAX_EXTRA];
} ss__inst;

struct ss_executable {
    ss_program *program; /* borrowed */
    const ss_mesh *mesh;
    ss__bufdesc *bufs;
    int nbufs, bufs_cap;
    ss__inst *insts;
    int ninsts, insts_cap;
    int (*pairs)[2];
    int npairs, pairs_cap;
    int ninputs, noutputs;
    ss_value *inputs;  /* program input values in order */
    ss_value *outputs; /* program output values in order */
    ss__buf explain;   /* one line per op */
    ss_compile_options opts;
    ss_watch_fn watch; /* ss_executable_watch */
    void *watch_user;
};

/* The operand whose buffer result r of i takes over (ss__inst.share): its
 * first choice when that is a temporary, or an argument the caller donated
 * (`first_donated`, about in[share[r]]), else its fallback; -1: a new
 * buffer. The executor and the plan both decide with this. */
static inline int ss__inst_taken_operand(const ss__inst *i, int r, bool first_donated)
{
    int first = i->share[r];
    return first >= 0 && (!i->share_arg[r] || first_donated) ? first : i->share_alt[r];
}

/* Scratch bytes a KERNEL instruction needs from the arena while it runs
 * (dot_general's operand permutations); 0 for the others. */
ss_status ss__inst_work_bytes(const ss_executable *e, const ss__inst *i, size_t *bytes);

/* A zeroed instruction of `kind` for value `node` (no pair pool). */
void ss__inst_init(ss__inst *i, ss__inst_kind kind, ss_value node);

/* Arguments first and live to the end, FREE after every other buffer's
 * last use (liveness.c). */
ss_status ss__add_frees(ss_executable *e);
/* Move fused instructions that only feed program outputs (the optimizer's
 * update) up to just after their last operand's producer (schedule.c). */
ss_status ss__schedule_updates(ss_executable *e);

/* Merge chains of single-use elementwise kernels (and broadcast scalars)
 * into FUSED instructions; runs before buffer lifetimes are set. */
ss_status ss__fuse(ss_executable *e);

/* Bytes a buffer takes in an arena (the allocator's 64-byte rounding). */
size_t ss__arena_bytes(size_t bytes);

#endif
