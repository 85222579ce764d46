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

struct ss__replicas; /* replica plans (replicas.h) */

typedef enum ss__inst_kind {
    SS__INST_LOAD = 0, /* out = this device's block of program input `index` */
    SS__INST_CONST,    /* out = the constant node's whole array (ss__constant_fill) */
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
    SS__INST_FREE,     /* return buffer in[0] to the arena (in a plan's copy under
                          XLA's fusion model, xla_fusion.c: buffers in[0..nin),
                          none when nin is 0) */
    SS__INST_LOOP,     /* run loop `index` (ss__loop_exec) on operands in[]: its
                          results are the buffers loops[index].outs, out = outs[0] */
    SS__INST_TRANSFER  /* out = in[0] copied between device and host memory (a
                          device_put to another memory kind): out's buffer is in
                          the memory bufs[out].host says */
} ss__inst_kind;

/* A local buffer: the same shape on every device. A block of a dim split
 * unevenly (size % tiles != 0, only inside a program, as XLA allows after
 * a sharding constraint) is ceil(size / tiles) long on every device: the
 * last blocks hold padding past the global size, or only padding. */
typedef struct ss__bufdesc {
    ss_dtype dtype;
    int rank;
    int64_t shape[SS_MAX_RANK];
    size_t bytes;
    ss_value value; /* the value it holds a block (or a reshard step) of */
    bool host;      /* lives in the device's partition of its host's arena
                       (a device_put to a host memory kind), not in the device's */
    bool fused_away; /* the plan's XLA fusion model (xla_fusion.c): never
                        materialised, counted as no bytes */
    bool xla_bf16;   /* an f32 all-gather's result that XLA's TPU compiler
                        gathers in bf16 (xla_narrow.c): a plan under a memory
                        model and the ledger count it so; runs ignore it */
    bool xla_remat;  /* the plan's model of XLA's rematerialisation
                        (xla_remat.c): freed after its forward readers and
                        computed again before the next one */
    bool xla_window_operand; /* read by a dot XLA computes as a windowed
                                einsum (xla_windowed.c): the loop's state,
                                never fused into its readers */
    char name[48];  /* "%12 dot_general": the value and what made the buffer */
} ss__bufdesc;

typedef struct ss__inst {
    ss__inst_kind kind;
    ss_value node;
    int out;
    int nin;
    int in[SS__MAX_INPUTS];
    int index;          /* LOAD input / STORE output number */
    int pairs_at;       /* COLL: offset of the pairs in the executable's pool; -1 if
                           none (every other kind: -1) */
    ss__layout layout;  /* LOAD/STORE: the value's layout; SLICE: the layout after */
    /* SLICE: dim d gains its sn[d] minor-most axes of `layout` */
    uint8_t sn[SS_MAX_RANK];
    size_t work_bytes;
    double flops;
    /* In place (liveness.c): result r (0 = out, 1 + k = extra_out[k]) takes
     * over the buffer of operand in[share[r]] instead of a new one (-1: a new
     * one); that operand dies here. When share_arg[r] the operand is an
     * argument, taken only if the caller donated it (ss_executable_run_arrays;
     * undonated arguments live to the end); otherwise the result takes the
     * temporary in[share_alt[r]] when there is one (never an argument). */
    int8_t share[1 + SS__K_FUSED_MAX_EXTRA];
    int8_t share_alt[1 + SS__K_FUSED_MAX_EXTRA];
    bool share_arg[1 + SS__K_FUSED_MAX_EXTRA];
    /* What only some kinds use shares its memory with what only others use
     * (a plan copies the instruction list several times: each instruction
     * would otherwise be 2 KiB). Read a field only for the kinds it names;
     * ss__inst_init zeroes them (mask_in: ss__inst_no_mask), and fuse.c
     * turns a KERNEL into a FUSED (the FUSED fields then overwrite the
     * KERNEL's). */
    union {
        struct { /* COLL */
            ss_coll coll;
        };
        struct { /* KERNEL: dot dims (local), reduce axes */
            ss__k_dot_dims dot;
            int nred;
            int red[SS_MAX_RANK];
            /* KERNEL over padded blocks (uneven shards, GSPMD's PadWithValue):
             * before the kernel runs, operand k < 2 with mask_in[k].known
             * holds blocks of its value laid out as mask_in[k] (ceil(size /
             * tiles) long, the last ones padded); its elements past the
             * value's global size are set to mask_value, the identity of what
             * consumes them (0 for sums and dots, -inf for max, +inf for
             * min). In place and without allocation: padding never holds
             * data, so every consumer that reads it masks it. mask_in points
             * to two layouts: ss__inst_no_mask (none known) unless
             * ss__lower_mask gave it the executable's own. */
            const ss__layout *mask_in;
            double mask_value;
        };
        struct { /* FUSED: the expression; its leaves are in[0..nin); results
                  * `out` (its last step) and extra_out[k] (register
                  * fused.extra[k]) */
            ss__k_fused fused;
            int extra_out[SS__K_FUSED_MAX_EXTRA];
        };
        struct { /* UNSTACK: the gather's axes in rank order and the dim each one tiles */
            int unaxes;
            int8_t uaxes[SS_MAX_AXES];
            int8_t udim[SS_MAX_AXES];
        };
        struct { /* PLACE */
            int place_axis, place_dim, place_step, place_n;
        };
    };
} ss__inst;

/* A KERNEL's mask_in when none of its operands is masked. */
extern const ss__layout ss__inst_no_mask[2];

/* A lowered loop (loop.c): its regions compiled once each to executables
 * in region mode (ss__compile_region), run by the device thread as many
 * times as the loop goes round. Operands (ss__inst.in) as the loop node's
 * (graph.h): carries in the carry layout, xs stacked with their leading dim
 * unsharded (step i is bytes [i*x_step, (i+1)*x_step) of the local
 * buffer), invariants. */
typedef struct ss__loop_exec {
    ss_executable *cond; /* NULL: a counted loop */
    ss_executable *body;
    int ncarry, nxs, nys, ncond_inv, nbody_inv;
    int64_t length; /* -1: a while */
    int64_t trips;  /* a while's trip count when known before it runs, else -1 (ss__loop) */
    bool reverse;
    int *outs;      /* result buffers: carries, then stacked ys (a case: its results);
                       a carry passed through may be its operand's buffer
                       (ss__loop_alias_passed) */
    /* Per carry (liveness.c): the loop adopts its operand's buffer as the
     * carry's own, since the loop is that buffer's last use (a temporary,
     * passed once); the operand's FREE then does nothing. XLA's while
     * takes such an operand's buffer as its own in the same way. */
    bool *adopt;
    size_t *x_step; /* per xs: local bytes of one step */
    size_t *y_step; /* per ys */
    /* A conditional (case_spmd.c) instead of a loop: nbranch > 0, no cond
     * or body; branch b's region takes operands branch_at[b] ..
     * branch_at[b + 1] - 1 (operand 0, the index, replicated) and gives
     * the `nout` results. */
    int nbranch, nout;
    ss_executable **branch;
    int *branch_at;
} ss__loop_exec;

/* Results of loop or conditional instruction l. */
static inline int ss__loop_exec_nres(const ss__loop_exec *l)
{
    return l->nbranch ? l->nout : l->ncarry + l->nys;
}

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
    /* Loops run by SS__INST_LOOP. */
    ss__loop_exec *loops;
    int nloops, loops_cap;
    /* Region mode (a loop's cond or body): LOAD k binds argument k (a
     * borrowed buffer, never freed or overwritten), STORE k hands result k
     * to the loop (kept, not freed); per buffer: */
    bool region;
    unsigned char *borrowed, *kept;
    /* Region mode, per buffer: the argument a LOAD buffer binds, else -1
     * (a donated argument taken over is reported by its number). */
    int *arg_of;
    /* Where each instruction's ledger entries begin (plan.c's
     * ss__ledger_starts): NULL until first used, then owned. */
    int *ledger_start;
    /* The layouts KERNELs' mask_in point to (ss__lower_mask), two each;
     * owned, freed with the executable (copies of it borrow them). */
    ss__layout **masks;
    int nmasks, masks_cap;
};

/* A new buffer for b on device `id`: in its host's arena when b is a host
 * buffer (ss__bufdesc.host), else in the device's. */
static inline ss_status ss__exec_alloc(ss_context *ctx, int id, const ss__bufdesc *b, void **out)
{
    return b->host ? ss__device_host_alloc_named(ctx, id, b->bytes, b->name, out)
                   : ss__device_alloc_named(ctx, id, b->bytes, b->name, out);
}

/* Compile region r (a loop's cond or body, propagated) in region mode:
 * output k is brought to layout want[k] before it is handed over. */
ss_status ss__compile_region(ss_program *r, const ss__layout want[],
                             const ss_compile_options *opts, ss_executable **out);
/* Loop v of p, whose operands are in buffers in[] and whose results go to
 * buffers outs[]: compile its regions and add it to e->loops (*index). */
ss_status ss__loop_lower(ss_executable *e, const ss_program *p, ss_value v, const int in[],
                         const int outs[], int *index);
void ss__loop_exec_free(ss__loop_exec *l);
/* Loop e->loops[index] on operands in[0..nin): each carry its body hands
 * back unchanged (the argument itself, the first carry to do so), whose
 * operand is passed once, takes its operand's buffer as its result
 * (outs[k] = in[k], also in the loop's outs): the value is the operand's,
 * so nothing is copied when the loop ends. Returns how many. */
int ss__loop_alias_passed(ss_executable *e, int index, int nin, const int in[], int outs[]);
/* The buffer region r binds argument k to (its LOAD), and the one it hands
 * back as result k (its STORE's operand); -1 when it has none. */
int ss__region_load(const ss_executable *r, int k);
int ss__region_store(const ss_executable *r, int k);
/* Run a compiled region on device `dev` with args[] bound to its LOADs:
 * res[k] receives output k's buffer (owned by the caller unless it is one
 * of args[]). The device's collective count `colls_done` advances.
 * Argument k with donate[k] (donate may be NULL: none) is the caller's to
 * give: a result may be written over it (ss__inst.share), and then
 * consumed[k] is set (consumed may be NULL only when donate is): the
 * buffer is no longer the caller's argument but a result's, or freed by
 * the region, also when the run fails. Other arguments are only read.
 * rep: the region's replica plan (replicas.h; every device of the run
 * must pass the same one), or NULL: every device computes all. */
ss_status ss__exec_region(const ss_executable *sub, ss_context *ctx, ss_device *dev,
                          int *colls_done, void *const args[], const bool donate[],
                          bool consumed[], void *res[], const struct ss__replicas *rep);
/* Run instruction i (SS__INST_LOOP) of e on device `dev` (exec.c's ptr
 * table of e); rep: e's replica plan (replicas.h), whose plans of this
 * loop's body and condition the regions run by, or NULL (every device
 * computes all). */
ss_status ss__loop_run(const ss_executable *e, const ss__inst *i, ss_context *ctx,
                       ss_device *dev, int *colls_done, void **ptr,
                       const struct ss__replicas *rep);
/* Conditionals (case_spmd.c): lower case node v of p as loop instruction
 * data (ss__loop_lower's contract), run it (only the selected branch; the
 * device's collective count skips the others' so that it stays the
 * ledger's index) and plan it (the largest branch). */
ss_status ss__case_lower(ss_executable *e, const ss_program *p, ss_value v, const int outs[],
                         int *index);
ss_status ss__case_run(const ss_executable *e, const ss__inst *i, ss_context *ctx,
                       ss_device *dev, int *colls_done, void **ptr);
/* Ledger entries of one run of loop instruction i (plan.c): a counted
 * loop's body `length` times, a while's condition and body once each. */
int ss__loop_ledger_count(const ss_executable *e, const ss__inst *i);
/* How many times loop l runs its body (its length, or a while's trip
 * count when its form shows it; *known false and 1 otherwise). */
int64_t ss__loop_runs(const ss__loop_exec *l, bool *known);
/* Plan of a region run (its arguments borrowed, its results kept);
 * argument k with donate[k] (donate may be NULL) is counted live from the
 * start and may be written over (ss__exec_region's contract). *end_live
 * (may be NULL): the bytes live when it ends, results and donated
 * arguments not taken over included. */
ss_status ss__plan_region(const ss_executable *sub, const bool donate[], ss_plan *out,
                          size_t *end_live);
/* The bytes of XLA's TPU bookkeeping heap the plan of e counts for the
 * whole step under `model` (xla_bookkeeping.c): bookkeeping_slots x
 * bookkeeping_slot_bytes for a program with a top-level while loop, else
 * 0 (0 too for a model without it, or NULL). */
size_t ss__xla_bookkeeping_bytes(const ss_executable *e, const ss_memory_model *model);
/* XLA's TPU temporary heap (xla_heap.c). A buffer of it: its bytes, the
 * instructions it is alive over (first..last, inclusive, in one schedule)
 * and whether it is a scan's stack (a loop's stacked output, written in
 * place). */
typedef struct ss__heap_buffer {
    size_t bytes;
    int first, last;
    bool scan_stack;
    /* A loop's stack XLA allocates before the loop, which the plan counts
     * nowhere until then (sunk into the body by xla_fusion.c): in the
     * heap's figures, not in the plan's own live sum. */
    bool early;
} ss__heap_buffer;
/* Placement orders: by first instruction (the larger first among equals),
 * or largest first (the longer-lived first among equals); ties by index. */
typedef enum ss__heap_order { SS__HEAP_BY_START, SS__HEAP_BY_SIZE } ss__heap_order;
/* Place b[0..n) in `order`, each at the start of the smallest gap free over
 * its live range that holds it (the lowest among equal gaps), else on top:
 * offset[k] receives b[k]'s, *heap the highest end. */
ss_status ss__heap_place(const ss__heap_buffer b[], int n, ss__heap_order order, size_t offset[],
                         size_t *heap);
/* The most bytes of b[0..n) alive at once: of the scan stacks (stacks 1),
 * of the others (0) or of all (-1). */
ss_status ss__heap_live(const ss__heap_buffer b[], int n, int stacks, size_t *live);
/* The heap XLA's TPU compiler makes of b[0..n) and the temp it reports. */
typedef struct ss__heap_figures {
    size_t heap;   /* its size, the buffers placed */
    size_t stacks; /* A: the most bytes of scan stacks alive at once */
    size_t others; /* N: the most bytes of the other buffers alive at once */
    size_t temp;   /* 2 x heap - max(A, N): temp_size_in_bytes */
    bool by_size;  /* placed largest first: schedule order's temp exceeded room */
} ss__heap_figures;
/* A program with while loops (scan_stack: a loop's state, its results in
 * HBM from the loop on): what XLA's reported temp adds to the plan's most
 * bytes of b[0..n) alive at once (the early buffers aside): the heap's
 * most with them less that, plus the heap's most less the larger of the
 * loop state's and the rest's (xla_heap.c). */
ss_status ss__xla_heap_loop_extra(const ss__heap_buffer b[], int n, size_t *extra);
/* The HBM temporaries of a top-level plan as XLA's heap sees them
 * (ss_memory_model.xla_heap_hbm_bytes; heap_trace.c): per buffer, the
 * instruction it came into HBM at (-1: not there) and whether it is a
 * loop's state (a result of a while loop: xla_heap.c's A); the buffers
 * closed so far, and the instruction being planned (now, set by the plan).
 * With a while loop traced (loops), each loop's body run is one more
 * buffer, at its instruction only. */
typedef struct ss__heap_trace {
    int *born;
    bool *state;
    bool *seen; /* per buffer: came into HBM at some point */
    ss__heap_buffer *b;
    int n, cap, now;
    bool loops;
    bool failed; /* out of host memory: no figures */
} ss__heap_trace;
ss_status ss__heap_trace_init(ss__heap_trace *ht, int nbufs);
void ss__heap_trace_free(ss__heap_trace *ht);
/* Is XLA's heap modelled for e under model (the trace wanted)? */
bool ss__xla_heap_modelled(const ss_executable *e, const ss_memory_model *model);
/* Buffer b of e comes into HBM (in) or leaves it at ht->now: a temporary's
 * live range opens or closes (the run's results and arguments are not the
 * heap's). */
void ss__heap_trace_note(const ss_executable *e, ss__heap_trace *ht, const bool *result,
                         const int *arg_input, int b, bool in);
/* While loop instruction i of e at ht->now: its results in HBM (in_hbm)
 * are loop state from here on, its body's run `body` bytes of the rest. */
void ss__heap_trace_loop(ss__heap_trace *ht, const ss_executable *e, const ss__inst *i,
                         const bool in_hbm[], const bool *result, size_t body);
/* The temp XLA reports beyond the plan's peak for the plan of `sized`
 * traced in ht, into *gaps. */
ss_status ss__heap_trace_gaps(const ss_executable *sized, const ss_memory_model *model,
                              ss__heap_trace *ht, size_t *gaps);
/* The figures of b[0..n): placed by start, or largest first when that
 * placement's temp exceeds `room` (the HBM left by the arguments and
 * outputs; SIZE_MAX: never). SS_ERR_INVALID for a buffer whose last
 * instruction comes before its first. */
ss_status ss__xla_heap_figures(const ss__heap_buffer b[], int n, size_t room,
                               ss__heap_figures *out);
/* qsort order of ss_live_buffer: largest first, ties by name (facts.c). */
int ss__live_buffer_cmp(const void *a, const void *b);
/* A shallow copy of e whose buffer table (its own, the caller frees
 * copy->bufs) sizes every buffer holding exactly its shape by `layout`
 * (tpu_layout.c). On failure nothing is to be freed. */
ss_status ss__executable_laid_out(const ss_executable *e, ss_memory_layout layout,
                                 ss_executable *copy);
/* The planned peak of an executable (xla_fusion.c's measure) and, per
 * buffer, whether it is in HBM at that peak (at_peak, e->nbufs long; NULL
 * when only the peak is wanted). e's instructions before `from` are those
 * the previous call with ctx planned (0: none known), so a plan may start
 * from its state there. */
typedef ss_status (*ss__peak_fn)(const ss_executable *e, void *ctx, size_t *peak, bool *at_peak,
                                 int from);
/* Rewrite copy e (its own buffer table, as ss__executable_laid_out makes)
 * for the plan under XLA's fusion model (xla_fusion.c): the values XLA's
 * TPU compiler fuses into their consumers are marked fused_away, the FREEs
 * of their operands moved to their last consumer; e->insts becomes a list
 * of its own when anything changed (the caller frees it when it differs
 * from the original's). peak_of plans a candidate list. */
ss_status ss__executable_xla_fused(ss_executable *e, ss__peak_fn peak_of, void *ctx);
/* The planned peak of an executable (xla_remat.c's measure), per buffer
 * whether it is in HBM at that peak (at_peak, e->nbufs long), and the
 * instruction at which it is reached (*at_inst; -1 when none is). */
typedef ss_status (*ss__remat_peak_fn)(const ss_executable *e, void *ctx, size_t *peak,
                                       bool *at_peak, int *at_inst);
/* XLA's windowed einsums (xla_windowed.c), under memory model m (none
 * when m is NULL or its xla_windowed_ring 0). producer[b]: the first
 * instruction making buffer b, or -1 (ss__producers; free it). */
ss_status ss__producers(const ss_executable *e, int **producer);
/* Is instruction k of top-level e a DEFAULT f32 dot XLA computes as a
 * windowed einsum: an operand all-gathered, or its result reduce-scattered,
 * over a ring of m's sizes? */
bool ss__xla_windowed_dot(const ss_executable *e, int k, const int producer[],
                          const ss_memory_model *m);
/* The bytes of the AllocateBuffer XLA's schedule puts at the program's
 * start for such a dot with a while loop after it (0: none): the two
 * halves of its result's reduce-scatter, in HBM (*buf -1), or its whole
 * result (*buf: the plan's buffer of it, in HBM when the plan holds that
 * there, as XLA's memory-space assignment does). */
size_t ss__xla_windowed_early(const ss_executable *e, int k, const int producer[],
                              const ss_memory_model *m, int *buf);
/* Move each such dot that a later top-level loop (a while or a scan) does
 * not need, and what reads it before that loop, after the last such loop
 * it can pass, its gathered operands gathered again there, as XLA's
 * schedule computes the output layer's weight gradient after the backward
 * scan. e->insts is replaced
 * when something moves (the list before is freed unless it is `keep`);
 * *moved counts the dots. */
ss_status ss__executable_xla_windowed_late(ss_executable *e, const ss__inst *keep,
                                           const ss_memory_model *m, int *moved);

/* Rewrite copy e (its own buffer table) for the plan under XLA's
 * rematerialisation (xla_remat.c): while the planned peak exceeds
 * `budget` (ss_memory_model.xla_remat_limit_bytes; 0: never), a value in
 * HBM at the peak is freed after its last reader before it and computed
 * again before its next reader. e->insts becomes a list of its own when
 * anything changed (a list it replaces is freed unless it is `keep`, the
 * original's); *recomputed counts the values, their buffers are marked
 * xla_remat. A program with loops is left as it is. */
ss_status ss__executable_xla_remat(ss_executable *e, const ss__inst *keep, size_t budget,
                                   ss__remat_peak_fn peak_of, void *ctx, int *recomputed);
/* At most this many results per instruction (a loop's carries and ys). */
#define SS__INST_MAX_RESULTS 64
/* The buffers instruction i defines (out, extra outs, a loop's results)
 * into bufs[] (room for `cap`); their number. */
int ss__inst_results(const ss_executable *e, const ss__inst *i, int bufs[], int cap);

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

/* Block index of the device at mesh coordinates c along dim d of layout
 * l, counting l's axes from..to-1 of that dim (major first). */
int64_t ss__exec_block_index(const ss_mesh *m, const ss__layout *l, int d, int from, int to,
                             const int64_t c[]);

/* Run KERNEL instruction i (of node n) on one device's local blocks `in`
 * into `out` (exec_kernels.c); c are the device's mesh coordinates,
 * `work` the scratch ss__inst_work_bytes asked for (NULL when none). */
ss_status ss__exec_kernel(const ss_executable *e, const ss__node *n, const ss__inst *i,
                          const ss__tensor in[], ss__tensor *out, void *work, size_t work_bytes,
                          const int64_t c[]);

/* Where each instruction of e begins in e's ledger (ninsts + 1 entries,
 * the last the count; plan.c), built on first use; NULL when host memory
 * ran out. */
const int *ss__ledger_starts(const ss_executable *e);
/* The last instruction of e whose ledger entries begin at or before entry
 * `index`, given e's table st (ss__ledger_starts): its own entries hold
 * that entry when index < st[e->ninsts]. */
int ss__ledger_inst_at(const ss_executable *e, const int *st, int index);

/* FLOPs of a KERNEL or FUSED instruction on one device (plan.c); 0 for
 * the others. */
double ss__inst_flops(const ss_executable *e, const ss__inst *i);

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

#endif
