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

#define SS__MAX_INPUTS 64

/* The variants (`sub`) of SS__OP_CONSTANT: a weakly typed f32 scalar (a
 * Python number, ss_constant), a dense array of any dtype and shape
 * (ss_constant_array, StableHLO's constant), and iota (ss_iota). */
enum { SS__CONST_SCALAR = 0, SS__CONST_DENSE, SS__CONST_IOTA };

/* The opcodes, one per row of ops.def (the op table: read its header for
 * what each op is and what a new op needs). The comments of the node's
 * fields below say which ops use them. */
typedef enum ss__opcode {
#define SS__OP(ID, NAME, NIN, NOUT, FLAGS, SUBNAME, VJP, FWD, BWD, LOWER, EVAL, KERNEL, FLOPS) \
    SS__OP_##ID,
#include "ops.def"
#undef SS__OP
    SS__OP_COUNT
} ss__opcode;

/* Properties of an op that layers test instead of listing opcodes. */
enum {
    /* No operands: the value comes from outside the program or is a
     * literal (input, param, constant). */
    SS__OPF_LEAF = 1u << 0,
    /* Result element i depends on element i of each operand only, all of
     * one shape (fusion chains these). */
    SS__OPF_ELEMENTWISE = 1u << 1,
    /* Combines elements along some dims (axes_mask). */
    SS__OPF_REDUCTION = 1u << 2,
    /* Communicates between devices by itself (explicit, inside shard_map). */
    SS__OPF_COLLECTIVE = 1u << 3,
    /* Its `fixed` layout also constrains operand 0 (with_sharding_constraint,
     * shard_map's in_specs): propagation lends it to an operand without one. */
    SS__OPF_FIXES_LAYOUT = 1u << 4,
    /* A shard_map boundary: values enter or leave a manual region. */
    SS__OPF_MANUAL_BOUNDARY = 1u << 5,
    /* Sends no cotangent to any operand (its VJP column is 0). */
    SS__OPF_NONDIFF = 1u << 6,
    /* Owns sub-programs (loop bodies, branches, called functions). */
    SS__OPF_HAS_REGIONS = 1u << 7,
    /* A result of an op with regions: that op computes, evaluates and
     * differentiates it, and its operand (the op) has no layout. */
    SS__OPF_REGION_RESULT = 1u << 8,
    /* Moves its operand between memories (device_put to a memory kind): its
     * lowering emits a transfer, not a kernel. */
    SS__OPF_MOVES_MEMORY = 1u << 9,
};

/* A row of the op table, as the graph layer keeps it (the per-layer
 * functions are kept by their layers, see ops.def). */
typedef struct ss__op_info {
    const char *name;
    int nin;  /* -1: variadic */
    int nout;
    unsigned flags; /* SS__OPF_* */
    /* The name of a node with variant `sub`, or NULL: `name` is the name. */
    const char *(*subname)(int sub);
} ss__op_info;

/* The row of op `op`; NULL when op is not an opcode. */
const ss__op_info *ss__op_info_of(ss__opcode op);
/* Whether op `op` has every flag in `flags`. */
bool ss__op_is(ss__opcode op, unsigned flags);
/* Whether autodiff (autodiff.c) has a cotangent rule for op `op`: its VJP
 * column is not 0. */
bool ss__vjp_has_rule(ss__opcode op);

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
    /* dot_general: an operand's precision_config asks for more than
     * DEFAULT (HIGH, HIGHEST), which XLA's TPU compiler computes in more
     * than one bf16 pass (xla_narrow.c); set by the StableHLO import */
    bool dot_precise;
    int8_t lb[SS_MAX_RANK], rb[SS_MAX_RANK], lc[SS_MAX_RANK], rc[SS_MAX_RANK];
    /* reduce, argmax: the reduced dims; reverse: the reversed dims */
    unsigned axes_mask;
    /* transpose perm, or broadcast dims */
    int dims[SS_MAX_RANK];
    /* concat dim; iota (CONSTANT variant SS__CONST_IOTA): the counting dim */
    int dim;
    /* CONSTANT variant SS__CONST_DENSE: its bytes (row-major, little
     * endian), a block owned by the program (ss_program.cblocks) */
    const void *data;
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
    int pairs_at; /* offset in the program's pair pool, -1 if none */
    uint8_t phase; /* ss_phase: the program's phase when the node was added */
    int line, col; /* source position a front end recorded (ss_value_set_source); 0: none */
    /* SS__OP_LOOP (sub: 0 while, 1 scan): its index in the program's loops
     * (region.c). Its operands: initial carries, stacked xs, then the
     * loop invariants of cond, then of body. Its results are the
     * SS__OP_LOOP_RESULT nodes (sub k: final carry k < ncarry, then the
     * stacked ys) that follow it; the loop node holds no array (rank 0,
     * never a program value). */
    int loop;
    /* SS__OP_SORT (sub: the operand whose permuted values it gives; the
     * sort dim is `dim`): the first sort_keys operands are the keys, bit k
     * of sort_desc orders key k descending. SS__OP_TOP_K (sub 0 values,
     * 1 indices; along the last dim): the count k is `classes`. */
    int sort_keys;
    unsigned sort_desc;
    /* What only some ops use shares its memory with what only others use
     * (each node would otherwise be 2.4 KiB, and importing and building
     * loop regions writes every node twice): read a field only for the ops
     * it names. Nodes are zeroed before their fields are set. */
    union {
        struct {
            /* slice: start, limit and stride (0 or 1: unit stride; ss__slice_stride);
             * pad: start is the low padding, limit the high one (either may be
             * negative: cropping), interior the padding between elements */
            int64_t start[SS_MAX_RANK], limit[SS_MAX_RANK], stride[SS_MAX_RANK];
            int64_t interior[SS_MAX_RANK];
        };
        struct {
            /* SS__OP_COLLECTIVE: the collective (mesh and pairs bound when used). */
            ss_coll coll;
        };
        struct {
            /* SS__OP_GATHER, SS__OP_SCATTER (sub: ss_scatter_op): the dimension
             * numbers (operands: operand, indices[, updates]). */
            ss_gather_dims gdims;
        };
        struct {
            /* SS__OP_RNG_BIT_GENERATOR (sub 0: the bits, 1: the new state; operand:
             * the state): the algorithm (ss_rng_algorithm, never DEFAULT), the
             * bits' dtype and shape in rng_dtype, rng_rank, rng_shape. */
            int rng_alg;
            ss_dtype rng_dtype;
            int rng_rank;
            int64_t rng_shape[SS_MAX_RANK];
        };
    };
} ss__node;

/* A loop's regions (sub-programs on the same mesh). Values enter a region
 * only as its arguments (its INPUT nodes, in order) and leave it only as its
 * outputs: values of the enclosing program a body uses are made explicit
 * loop operands (invariants) by the builder.
 *   cond (while only): args carries, then ncond_inv invariants; one output,
 *         a bool scalar: run the body again while it is true.
 *   body: args carries, then one slice of each xs (its leading axis dropped),
 *         then nbody_inv invariants; outputs the next carries, then one
 *         slice of each ys.
 * A counted loop (lax.scan) has no cond and runs `length` steps, step i
 * reading xs[i] and writing ys[i] (i from length-1 down when `reverse`). */
typedef struct ss__loop {
    ss_program *cond;
    ss_program *body;
    int ncarry, nxs, nys, ncond_inv, nbody_inv;
    int64_t length; /* -1 for a while */
    /* A while's trip count when its form shows it (counted_trips in
     * region.c: JAX's fori_loop and scan lowerings), else -1; the plan
     * counts the body this many times. */
    int64_t trips;
    bool reverse;
    /* The SS__OP_LOOP_RESULT values of the loop: carries, then ys (owned;
     * the first ones follow the loop node, residuals a gradient adds come
     * later). */
    ss_value *res;
    /* Index in the ys of the carries stacked per step for a gradient
     * (loop_grad.c), -1 until one asks for them. */
    int residual_at;
    /* A conditional (SS__OP_CASE, case.c) keeps its branches here too, so
     * that regions nested in regions move as one kind: nbranch > 0, no
     * cond or body, `nout` results (res[]). Branch b's arguments are the
     * case's operands branch_at[b] .. branch_at[b + 1] - 1 (operand 0 is
     * the index); branch_at has nbranch + 1 entries. */
    int nbranch, nout;
    ss_program **branch;
    int *branch_at;
} ss__loop;

/* The results of a loop or conditional l. */
static inline int ss__loop_nres(const ss__loop *l)
{
    return l->nbranch ? l->nout : l->ncarry + l->nys;
}

struct ss_program {
    const ss_mesh *mesh;
    ss__node *nodes;
    int n, cap;
    /* Filled by ss_program_propagate (sim/spmd); NULL before. */
    ss__layout *layouts;
    /* What decided each layout (ss_value_sharding_origin): filled with
     * layouts; read only while layouts is not NULL. */
    ss_sharding_origin *origins;
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
    /* Loops (SS__OP_LOOP nodes' sub) with their regions, owned. */
    ss__loop *loops;
    int nloops, loops_cap;
    /* The bytes of dense constants (SS__CONST_DENSE nodes' data), one
     * block each, owned; kept until the program is destroyed. */
    void **cblocks;
    int ncblocks, cblocks_cap;
    /* Set on a region: the loop builder made it, it is no top-level program. */
    bool is_region;
    /* The memory kind (ss_memory_kind) of values [0, memory_n), as the
     * compile's memory pass (sim/spmd/memory.c) assigned them through loop
     * carries; NULL when no value is put in host memory. Owned. */
    unsigned char *memory;
    int memory_n;
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
/* Room for n nodes in all, so that adding them does not move the nodes
 * again and again (an importer that knows how many ops it reads).
 * SS_ERR_NOMEM when there is no room: nothing changes. */
ss_status ss__program_reserve(ss_program *p, int n);
/* The node of value v, or NULL (with a message) if v is not a value of p. */
const ss__node *ss__program_node(const ss_program *p, ss_value v, const char *what);
/* The memory a value lives in: after a compile, what its memory pass
 * assigned (ss_program.memory: host buffers through loop carries, bitcasts
 * and in-place updates of host values); before, a device_put's kind
 * (through sharding constraints, which keep their operand's memory), else
 * the device's (ss_memory_kind; other ops compute in device memory). */
ss_memory_kind ss__value_memory(const ss_program *p, ss_value v);
/* Drop the nodes appended since value count n0 (a failing builder leaves
 * the program as it was). */
void ss__program_drop_since(ss_program *p, int n0);
/* Zeros of (rank, shape) in dtype dt: a scalar constant, converted and
 * broadcast (ops_dynamic.c). */
ss_status ss__zeros(ss_program *p, ss_dtype dt, int rank, const int64_t shape[], ss_value *out);
/* bitcast_convert between dtypes of different sizes (ops_bitcast.c): the
 * operand's last dim packed into wider elements, or a last dim added for
 * narrower ones, lowest bits at index 0; built from existing ops. */
ss_status ss__bitcast_resize(ss_program *p, ss_value x, ss_dtype dtype, ss_value *out);
/* Broadcast x to (rank, shape) numpy-style (right-aligned) unless it has it. */
ss_status ss__broadcast_to(ss_program *p, ss_value x, int rank, const int64_t shape[],
                           ss_value *out);
/* Two operands of an elementwise op `name` (ops.c): JAX's weak scalars
 * take the other operand's dtype, both are broadcast to the common shape;
 * *x and *y become the broadcast values. May append nodes on failure
 * (the caller drops them). */
ss_status ss__elementwise_operands(ss_program *p, const char *name, ss_value *x, ss_value *y,
                                   ss_dtype *dtype, int *rank, int64_t shape[]);
/* A fused multiply-add (ops_elem.c): `form` (ss__k_fma_form) of a, b, c,
 * one float dtype and one shape, rounded once. Only the StableHLO import's
 * contraction (contract.c) makes it, where XLA CPU makes one. */
ss_status ss__fma(ss_program *p, int form, ss_value a, ss_value b, ss_value c, ss_value *out);
/* XLA CPU's floating-point contraction on an imported program and its loop
 * regions (contract.c): every f32/f64 add or subtract with an operand that
 * is a multiply used by nothing else becomes an fma in place (the multiply
 * becomes an unused rank-0 constant). *count receives how many (may be NULL). */
ss_status ss__contract_fma(ss_program *p, int *count);
/* Whether value v is computed from constants alone (constants, iotas and
 * ops of them; no input, random, collective or loop): what XLA's constant
 * folding evaluates at compile time. A large or deep expression (over 4096
 * nodes visited) counts as not constant. */
bool ss__is_constant_expr(const ss_program *p, ss_value v);
/* Whether the unary or binary op is defined on dtype dt (ops_elem.c; the
 * kernels hold the same rules). */
bool ss__unary_defined(ss_unary_op op, ss_dtype dt);
bool ss__binary_defined(ss_binary_op op, ss_dtype dt);
/* Whether ss_reduce's op is defined on dtype dt (ops_reduce.c). */
bool ss__reduce_defined(ss_reduce_op op, ss_dtype dt);
/* The name of node n's op ("add", "dot_general", "psum", ...); never NULL. */
const char *ss__opcode_name(const ss__node *n);
/* The op and variant named `name` (what ss__opcode_name gives); false if
 * no op has that name. */
bool ss__opcode_lookup(const char *name, ss__opcode *op, int *sub);

/* Bytes of node n's whole array: its dtype's size times its elements
 * (0 for an array with a zero-size dim). */
static inline size_t ss__node_bytes(const ss__node *n)
{
    size_t b = ss_dtype_size(n->dtype);
    for (int d = 0; d < n->rank; d++)
        b *= (size_t)n->shape[d];
    return b;
}

/* Slice stride of node n along dim d (1 for a unit-stride slice). */
static inline int64_t ss__slice_stride(const ss__node *n, int d)
{
    return n->stride[d] > 1 ? n->stride[d] : 1;
}
/* The dims of node n (slice, pad, reverse, dynamic_slice and
 * dynamic_update_slice) that the op needs whole on a device: those whose
 * size it changes (or its update does not cover) and those it reverses. Any other dim
 * may stay sharded: the op runs on the local block (shape_ops.c). */
unsigned ss__node_whole_dims(const ss_program *p, const ss__node *n);
/* Write constant node n's whole array (its shape and dtype) to out; an
 * iota with the naive reference kernel when `reference`. */
void ss__constant_fill(const ss__node *n, void *out, bool reference);
/* The cotangents of a reverse, a pad or a strided slice (ops_shape.c):
 * gin[k] for each operand k where want[k], from the result's g. */
ss_status ss__vjp_shape_op(ss_program *p, const ss__node *n, ss_value g, const bool want[],
                           ss_value gin[]);
/* The cotangents of a dynamic_slice or dynamic_update_slice
 * (ops_dynamic.c), as ss__vjp_shape_op's. */
/* The cotangents of a gather or scatter-add node n from g (ops_gather.c);
 * other scatters: SS_ERR_UNSUPPORTED when a cotangent is wanted. */
ss_status ss__vjp_gather_op(ss_program *p, const ss__node *n, ss_value g, const bool want[],
                            ss_value gin[]);
/* The cotangents of a sort or top_k node n (ops_sort.c): g scattered back
 * (added) to the positions the permutation took each element from. */
ss_status ss__vjp_sort_op(ss_program *p, const ss__node *n, ss_value g, const bool want[],
                          ss_value gin[]);
ss_status ss__vjp_dynamic_op(ss_program *p, const ss__node *n, ss_value g, const bool want[],
                             ss_value gin[]);
/* Give dense constant node *n (copied from another program: a loop
 * region's or its enclosing program's) its own copy of its bytes in p;
 * other nodes are left as they are. */
ss_status ss__constant_adopt(ss_program *p, ss__node *n);

/* The loop of an SS__OP_LOOP node. */
static inline const ss__loop *ss__node_loop(const ss_program *p, const ss__node *n)
{
    return &p->loops[n->loop];
}
/* Result k of loop node v. */
static inline ss_value ss__loop_result(const ss_program *p, ss_value v, int k)
{
    return p->loops[p->nodes[v].loop].res[k];
}
/* Reverse mode (autodiff.c): cotangents of wrt[0..n) given outputs
 * ys[0..ny) with cotangents seeds[] (float values of p). */
ss_status ss__vjp_many(ss_program *p, int ny, const ss_value ys[], const ss_value seeds[],
                       int n, const ss_value wrt[], ss_value grads[]);
/* The cotangents of loop node v's operands (gin[k], -1 for none; only where
 * want[k]) from those of its results ct[k] (-1: zero), as JAX transposes a
 * scan: a reverse loop over the carries stacked by the forward loop
 * (loop_grad.c). A while is an error. */
ss_status ss__loop_vjp(ss_program *p, ss_value v, const ss_value ct[], const bool want[],
                       ss_value gin[]);
/* Copy region r's nodes into p with its arguments bound to args[] (values
 * of p); outs[k] receives its output k. */
ss_status ss__region_inline(ss_program *p, const ss_program *r, const ss_value args[],
                            ss_value outs[]);
/* A counted loop (ss__scan_loop's arguments), steps in reverse order when
 * `reverse`. */
ss_status ss__counted_loop(ss_program *p, ss_scan_body body, void *user, int64_t length,
                           bool reverse, int ncarry, const ss_value init[], int nxs,
                           const ss_value xs[], int nys, ss_value final_carry[], ss_value ys[]);
/* Free a loop's or a conditional's regions (region.c). */
void ss__loop_free(ss__loop *l);
/* The regions builder (region.c), shared by loops and conditionals: run
 * `fn` on p with ncarry arguments like init[] and nxs like xs[] (leading
 * axis dropped), then move what it built into a new region *region; the
 * values of p it used become further arguments, caps[0..*ncaps). */
typedef ss_status (*ss__region_fn)(ss_program *p, const ss_value args[], ss_value outs[],
                                   void *ctx);
ss_status ss__build_region(ss_program *p, const char *what, int ncarry, const ss_value init[],
                           int nxs, const ss_value xs[], int nouts, ss__region_fn fn, void *ctx,
                           ss_program **region, ss_value caps[], int *ncaps, ss_value outs[],
                           ss__node outs_like[]);
/* The cotangents of conditional v's operands (gin[k], -1 for none; only
 * where want[k]) from those of its results ct[k] (-1: zero): a conditional
 * on the same index whose branch b is branch b's gradient (case.c). */
ss_status ss__case_vjp(ss_program *p, ss_value v, const ss_value ct[], const bool want[],
                       ss_value gin[]);
/* The length of a scan over xs: each xs[k] must be an array of rank >= 1
 * whose leading size equals `length` (or, when length < 0, the first one's);
 * the result is at least 1. A one-line error otherwise. */
ss_status ss__scan_length(const ss_program *p, int nxs, const ss_value xs[], int64_t length,
                          int64_t *out);
/* lax.scan as a counted loop (region.c; ss_scan's arguments), and unrolled
 * at build time (scan.c), the reference the loop must equal. */
ss_status ss__scan_loop(ss_program *p, ss_scan_body body, void *user, int64_t length,
                        int ncarry, const ss_value init[], int nxs, const ss_value xs[], int nys,
                        ss_value final_carry[], ss_value ys[]);
ss_status ss__scan_unrolled(ss_program *p, ss_scan_body body, void *user, int64_t length,
                            int ncarry, const ss_value init[], int nxs, const ss_value xs[],
                            int nys, ss_value final_carry[], ss_value ys[]);

#endif
