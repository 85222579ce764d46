/*
 * graph.h — the program IR on global arrays, shared by sim/graph and the
 * layers above it (sim/spmd).
 *
 * A program is an append-only array of nodes in topological order; a value
 * is the index of the node producing it. Only primitive ops live here:
 * composite ops are expanded by the builder (composite.c), implicit numpy
 * broadcasts become explicit broadcast_in_dim nodes. Every node carries its
 * global shape; shapes are checked when a node is added, never later.
 */
#ifndef SS_GRAPH_H
#define SS_GRAPH_H

#include "mesh/layout.h"

#define SS__MAX_INPUTS 16

typedef enum ss__opcode {
    SS__OP_INPUT = 0,
    SS__OP_PARAM,
    SS__OP_CONSTANT,  /* f32 scalar */
    SS__OP_UNARY,     /* sub = ss_unary_op */
    SS__OP_BINARY,    /* sub = ss_binary_op; operands have the result's shape */
    SS__OP_DOT,       /* dot_general */
    SS__OP_REDUCE,    /* sub = ss_reduce_op (SUM, MAX, MIN); axes_mask */
    SS__OP_TRANSPOSE, /* perm */
    SS__OP_RESHAPE,
    SS__OP_BROADCAST, /* dims: operand dim i -> result dim dims[i] */
    SS__OP_SLICE,     /* start/limit */
    SS__OP_CONCAT,    /* dim */
    SS__OP_ONE_HOT,   /* classes; new last dim */
    SS__OP_CONSTRAIN, /* with_sharding_constraint: fixed layout */
    SS__OP_MANUAL_IN,  /* shard_map entry: a global value's block (fixed = in_spec) */
    SS__OP_MANUAL_OUT, /* shard_map exit: blocks assembled (fixed = out_spec) */
    SS__OP_COLLECTIVE, /* explicit collective inside shard_map; sub = ss_coll_kind */
    SS__OP_COUNT
} ss__opcode;

typedef struct ss__node {
    ss__opcode op;
    int sub;
    int nin;
    ss_value in[SS__MAX_INPUTS];
    ss_dtype dtype;
    int rank;
    int64_t shape[SS_MAX_RANK];
    /* dot_general */
    int nb, nc;
    int8_t lb[SS_MAX_RANK], rb[SS_MAX_RANK], lc[SS_MAX_RANK], rc[SS_MAX_RANK];
    /* reduce */
    unsigned axes_mask;
    /* transpose perm, or broadcast dims */
    int dims[SS_MAX_RANK];
    /* slice */
    int64_t start[SS_MAX_RANK], limit[SS_MAX_RANK];
    /* concat dim */
    int dim;
    double scalar;
    int64_t classes;
    char name[64];
    /* A layout the user fixed (input/param spec, constraint); `fixed.known`
     * is false when the partitioner chooses. */
    ss__layout fixed;
    bool is_output;
    /* lax.stop_gradient: autodiff (autodiff.c) treats the value as a constant
     * and sends no cotangent to its operands. Invisible to the partitioner. */
    bool stop_gradient;
    /* Inside a shard_map region: shape is per device, no partitioning. */
    bool manual;
    bool unchecked; /* MANUAL_OUT of a shard_map with check_vma=False */
    bool invariant_out; /* all_gather_invariant: the result is the same everywhere */
    /* A cotangent's primal plus one (0: none): propagation lends the
     * primal's layout to a cotangent that has none (gradients are laid
     * out like their primals, docs/gspmd.md 6.2). */
    ss_value primal_plus1;
    /* SS__OP_COLLECTIVE: the collective (mesh and pairs bound when used). */
    ss_coll coll;
    int pairs_at; /* offset in the program's pair pool, -1 if none */
    uint8_t phase; /* ss_phase: the program's phase when the node was added */
} ss__node;

struct ss_program {
    const ss_mesh *mesh;
    ss__node *nodes;
    int n, cap;
    /* Filled by ss_program_propagate (sim/spmd); NULL before. */
    ss__layout *layouts;
    /* Program outputs in ss_output order (a value may appear twice). */
    ss_value *outs;
    int nouts, outs_cap;
    /* Inside ss_shard_map_begin .. ss_shard_map_end. */
    bool in_manual;
    /* ss_phase of the nodes added now: autodiff and the optimizer builders
     * set it while they add theirs (ss__program_enter_phase). */
    uint8_t phase;
    /* ppermute pairs of SS__OP_COLLECTIVE nodes. */
    int (*pairs)[2];
    int npairs, pairs_cap;
};

/* Enter phase `ph` (a builder of the backward or the optimizer) and return
 * the phase to restore when it is done; a later phase is never lowered
 * (a grad taken inside an optimizer stays the optimizer's). */
uint8_t ss__program_enter_phase(ss_program *p, ss_phase ph);

/* The collective of node n with its pairs bound (a copy). */
ss_coll ss__node_coll(const ss_program *p, const ss__node *n);
/* A shard_map boundary node (manual.c): op SS__OP_MANUAL_IN takes global x
 * to its per-device block under `fixed` (dims divided by the layout's
 * tiles; the caller has checked they divide), SS__OP_MANUAL_OUT assembles
 * block x into a global value (dims multiplied). `unchecked` marks an exit
 * of a check_vma=False region. The node is manual as p->in_manual says. */
ss_status ss__region_cross(ss_program *p, ss__opcode op, ss_value x, const ss__layout *fixed,
                           bool unchecked, ss_value *out);
/* Every mesh axis as a bit mask; the axes a collective node names. */
unsigned ss__all_axes(const ss_program *p);
unsigned ss__coll_axes(const ss_program *p, const ss__node *n);
/* Device variance inside shard_map regions (JEP 17111, what check_vma
 * checks): bit a of the result is set when value v is the same block on
 * every device along mesh axis a (every bit for values outside regions).
 * inv[] has room for p->n values; values known..v are filled in order and
 * *known advances. A psum (and all_gather_invariant) makes its axes
 * invariant; every other collective (all_gather included, as JAX types it),
 * and an entry's split axes, make them varying; other ops take the axes all
 * their operands agree on. */
unsigned ss__manual_invariant(const ss_program *p, unsigned inv[], int *known, ss_value v);

/* Append a node (copied); on success *out is its value. Invalidates
 * propagation results. */
ss_status ss__program_add(ss_program *p, const ss__node *node, ss_value *out);
/* The node of value v, or NULL (with a message) if v is not a value of p. */
const ss__node *ss__program_node(const ss_program *p, ss_value v, const char *what);
/* Text of a shape: "f32[8,1024]". */
void ss__shape_repr_buf(ss__buf *b, ss_dtype dtype, int rank, const int64_t shape[]);
const char *ss__opcode_name(const ss__node *n);

#endif
