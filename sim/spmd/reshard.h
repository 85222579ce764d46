/*
 * reshard.h — the resharding planner (internal API of sim/spmd).
 *
 * Given an array (global shape, dtype) laid out by a source sharding and a
 * target sharding over the same devices, the planner lists the steps that
 * move the data: collectives over mesh axes, free local slices and, when the
 * target puts blocks on other devices, one collective-permute. The rules are
 * docs/gspmd.md 4.1 in mesh-axis form:
 *
 *   0. Same tile counts per dimension and the same number of pending-sum
 *      terms on both sides: the blocks only change devices, so one
 *      collective-permute (nothing if every device keeps its block). This is
 *      XLA's first attempt (4.1 step 2) and covers axis swaps such as
 *      P('x','y') -> P('y','x').
 *   1. Partial axes: reduce-scatter over the run of partial axes that the
 *      target appends right after a dimension's current axes; keep the axes
 *      the target is partial on too; all-reduce the others jointly.
 *   2. Moves: all-to-all over a minor-most run of axes that the target wants
 *      right after another dimension's current axes.
 *   3. Removals: one all-gather over every axis not at its target position
 *      (per dimension the axes after the common prefix with the target, so a
 *      major axis never leaves while a minor one stays).
 *   4. Additions: one dynamic-slice (local, free) for the axes still missing.
 *   5. Device order: a collective-permute when the target mesh places the
 *      blocks on other devices than the plan reached in the source mesh.
 *
 * Steps 1-4 work in the source mesh's axes. A target over another mesh is
 * first read in the source mesh by axis name (same names and sizes); when that
 * is impossible the plan resolves and gathers everything and slices straight
 * into the target layout (the full-replication fallback).
 *
 * Bytes are those each device sends under the ring model of docs/gspmd.md
 * 5.1: all-reduce 2(n-1)/n*S, all-gather and reduce-scatter (n-1)/n*S (S the
 * larger buffer: gathered output, scattered input), all-to-all (n-1)/n^2*S
 * with S = n times the local buffer, collective-permute the local buffer for
 * every non-self pair a device sends.
 *
 * What this module deliberately does not do: uneven (padded) shards, halo
 * exchanges, creating a pending sum from a complete value, or choosing among
 * plans by cost. reshard_sim.c is its naive executor: it applies a plan to
 * host buffers so tests can prove that the steps produce the target shards.
 */
#ifndef SS_SPMD_RESHARD_H
#define SS_SPMD_RESHARD_H

#include "base/base.h"

typedef enum ss__reshard_kind {
    SS__RESHARD_ALL_REDUCE = 0, /* sum over the group; the axes stop being partial */
    SS__RESHARD_REDUCE_SCATTER, /* sum, then rank r keeps chunk r of `dim` */
    SS__RESHARD_ALL_TO_ALL,     /* `dim` in n chunks, chunk k to rank k, joined on `concat_dim` */
    SS__RESHARD_ALL_GATHER,     /* join the group's blocks on every dim with dim_axes[d] > 0 */
    SS__RESHARD_DYNAMIC_SLICE,  /* each device keeps its sub-block of what it holds; no traffic */
    SS__RESHARD_PERMUTE,        /* collective-permute along `pairs` */
    SS__RESHARD_KIND_COUNT
} ss__reshard_kind;

/* The most steps a plan can have: a reduce-scatter per dim, one all-reduce,
 * one move per axis, one all-gather, one slice, one permute. */
#define SS__RESHARD_MAX_STEPS (SS_MAX_RANK + SS_MAX_AXES + 4)

/* One step. The axes (indices into `mesh`, in the order that defines the
 * rank within a group) and groups belong to the source mesh for every kind
 * but PERMUTE, whose pairs are device ids. `before` and `after` are the
 * layouts around the step (the last step's `after` is the target itself);
 * all devices hold blocks of one shape, `local_before` and `local_after`.
 *
 * dim_axes: ALL_GATHER and DYNAMIC_SLICE touch several dims at once; dim d
 * loses (gather) or gains (slice) its dim_axes[d] minor-most axes, and
 * `axes` lists those runs dim by dim (dim 0's first, each major to minor).
 * `dim` is then the first such dim. A DYNAMIC_SLICE straight into a target
 * over another mesh has naxes 0 and takes its offsets from the layouts. */
typedef struct ss__reshard_step {
    ss__reshard_kind kind;
    const ss_mesh *mesh; /* borrowed: the mesh of `axes` and `groups` */
    int naxes;
    int axes[SS_MAX_AXES];
    int dim;        /* REDUCE_SCATTER scatter dim, ALL_TO_ALL split dim, else first dim */
    int concat_dim; /* ALL_TO_ALL */
    int dim_axes[SS_MAX_RANK];
    ss_sharding before, after;
    int64_t local_before[SS_MAX_RANK], local_after[SS_MAX_RANK];
    /* Replica groups (collectives over axes): ngroups rows of group_size
     * device ids, each row in rank order (the flattened index over `axes` in
     * the given order, first axis major), rows ordered by first member's
     * mesh position. Owned. NULL for DYNAMIC_SLICE and PERMUTE. */
    int ngroups, group_size;
    int *groups;
    /* PERMUTE: npairs (source id, target id) pairs as pairs[2k], pairs[2k+1],
     * one per target device in target mesh order, self pairs included. Owned. */
    int npairs;
    int *pairs;
    /* Bytes sent by each device (indexed by device id; owned, ndevices
     * entries), their maximum and how many devices send anything. */
    double *sent;
    double max_sent;
    int nsenders;
} ss__reshard_step;

/* A plan: the problem it solves and its steps, in order. */
typedef struct ss__reshard_plan {
    int rank;
    int64_t shape[SS_MAX_RANK];
    ss_dtype dtype;
    ss_sharding src, dst; /* copies; the meshes are borrowed */
    int ndevices;
    int nsteps;
    ss__reshard_step steps[SS__RESHARD_MAX_STEPS];
} ss__reshard_plan;

/* "all_reduce", "reduce_scatter", "all_to_all", "all_gather",
 * "dynamic_slice", "collective_permute"; "?" for a bad kind. */
const char *ss__reshard_kind_name(ss__reshard_kind kind);

/* Plan the move of a global array (`rank` dims of `shape`, `dtype`) from
 * layout `src` to layout `dst`. Both must pass ss_sharding_check for the
 * shape; their meshes must have the same device count (so the same device
 * ids); partial axes must be disjoint from the axes their spec uses.
 * *out is filled on success and must be released with
 * ss__reshard_plan_free; on failure it holds no memory.
 * Errors: the shardings' own (SS_ERR_AXIS, SS_ERR_INDIVISIBLE, ...),
 * SS_ERR_INVALID for different device counts, bad dtype or a partial axis
 * also in the spec, SS_ERR_UNSUPPORTED when the manual axes differ or the
 * target is partial over an axis the source is not (a reshard never creates
 * a pending sum), SS_ERR_NOMEM. */
ss_status ss__reshard_plan_make(const ss_sharding *src, const ss_sharding *dst, int rank,
                                const int64_t shape[], ss_dtype dtype, ss__reshard_plan *out);
void ss__reshard_plan_free(ss__reshard_plan *plan);

/* Sum over the steps of the bytes device `device` sends, and the most any
 * device sends in all-gathers (for the "never gathers more than full
 * replication" check). */
double ss__reshard_plan_sent(const ss__reshard_plan *plan, int device);
double ss__reshard_plan_gathered(const ss__reshard_plan *plan);

/* One line for the explain output, e.g.
 *   "all_to_all over ('x','y') split dim 1 concat dim 0, groups {0,1,2,3}: 48 B/device"
 *   "collective_permute 1->2, 2->1 (2 self pairs): 64 B/device on 2 of 4 devices"
 * appended to `b` without a newline. */
void ss__reshard_step_describe(const ss__reshard_step *step, ss__buf *b);
/* The whole plan, one numbered line per step followed by the layout it
 * reaches: "1. <step>\n   -> P('x', 'y'), local [4, 4]\n". "no
 * communication" when the plan is empty. */
void ss__reshard_plan_describe(const ss__reshard_plan *plan, ss__buf *b);

/* --- Naive executor (reshard_sim.c) --- */

/* Per-device host buffers of an f32 array: buf[id] is device id's block in
 * row-major order, every block of shape `local`. */
typedef struct ss__reshard_sim {
    int ndevices;
    int rank;
    int64_t shape[SS_MAX_RANK];
    int64_t local[SS_MAX_RANK];
    float **buf;
} ss__reshard_sim;

/* Lay the row-major global array `global` out as `sh` says. Over partial
 * axes each element v is split into terms that sum to v: integers drawn from
 * `seed` (the same on replicas), the last term v minus the others, so sums
 * of integer-valued arrays stay exact. Errors: the sharding's, SS_ERR_NOMEM. */
ss_status ss__reshard_sim_load(ss__reshard_sim *s, const ss_sharding *sh, int rank,
                               const int64_t shape[], const float *global, uint64_t seed);
/* Execute one step literally: collectives over the step's groups in rank
 * order, slices from the step's layouts, permutes along its pairs.
 * SS_ERR_INVALID (message names the step) if the buffers do not have the
 * step's local_before shape or a slice leaves the block a device holds. */
ss_status ss__reshard_sim_apply(ss__reshard_sim *s, const ss__reshard_step *step);
/* Compare the buffers with the layout `sh` of `global`: every device's block
 * (over partial axes: the sum of the group's terms) must equal the global
 * block within |got - want| <= tol * max(1, |want|). *max_err (may be NULL)
 * receives the largest difference. SS_ERR_INVALID naming the first bad
 * device and element otherwise. */
ss_status ss__reshard_sim_check(const ss__reshard_sim *s, const ss_sharding *sh,
                                const float *global, double tol, double *max_err);
/* Load plan->src, apply every step checking each intermediate layout, then
 * check plan->dst. The first failure's status and message. */
ss_status ss__reshard_sim_run(const ss__reshard_plan *plan, const float *global, uint64_t seed,
                              double tol, double *max_err);
void ss__reshard_sim_free(ss__reshard_sim *s);

#endif
