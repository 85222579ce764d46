/*
 * lower_internal.h — what the files of the lowering (lower.c, lower_ops.c,
 * lower_dot.c) share: the state of one compile, the helpers that grow the
 * executable and bring values to layouts, and the LOWER rules of ops.def
 * (lower.c pastes the ss__ prefix onto the column's names).
 */
#ifndef SS_LOWER_INTERNAL_H
#define SS_LOWER_INTERNAL_H

#include "lower.h"
#include "reshard.h"

/* A value as lowered so far: one buffer per layout it has been brought to,
 * version 0 its own (buf[0] in `layout`), versions 1.. its copies in other
 * layouts (buf[k] in copy_layout[k - 1]; few values have any, so their
 * layouts are not kept inline: ss__lower_version_layout). */
#define SS__LOWER_MAX_VERSIONS 4
typedef struct ss__lowered {
    int nversions;
    int buf[SS__LOWER_MAX_VERSIONS];
    ss__layout layout;
    ss__layout *copy_layout; /* NULL until the first copy, then
                                SS__LOWER_MAX_VERSIONS - 1 of them, owned */
} ss__lowered;

/* The layout of version k of lv. */
static inline const ss__layout *ss__lower_version_layout(const ss__lowered *lv, int k)
{
    return k == 0 ? &lv->layout : &lv->copy_layout[k - 1];
}

typedef struct ss__lowering {
    ss_executable *e;
    ss_program *p;
    const ss_mesh *mesh;
    ss__lowered *vals;
    /* linear_users[v]: every user of v adds or subtracts it (and v is no
     * output), so a pending sum may stay pending through them. */
    bool *linear_users;
    ss__buf line; /* explain text of the op being ss__lowered */
    bool explain; /* the executable keeps the text (else `line` is muted) */
    int ncoll_in_line;
    int input_no; /* inputs and params lowered so far */
    const ss__layout *want; /* region mode: output k's layout */
    bool oom; /* a version could not be recorded: the compile fails */
} ss__lowering;

/* --- Helpers (lower.c) --------------------------------------------------- */

/* A new local buffer of v's (same shape on every device), named for
 * reports; *out is its index in the executable's buffers. */
ss_status ss__lower_new_buf(ss__lowering *s, ss_value v, ss_dtype dtype, int rank,
                            const int64_t shape[], const char *name, int *out);

/* A buffer's name "%N what" (value N), cut to SS__LABEL_MAX - 1 bytes as
 * snprintf would cut it: what every lowering names its buffers. */
enum { SS__LABEL_MAX = 48 };
void ss__lower_label(char out[SS__LABEL_MAX], ss_value v, const char *what);

/* Append one instruction to the executable. */
ss_status ss__lower_emit(ss__lowering *s, const ss__inst *inst);
/* Give KERNEL i (not yet emitted) masked operands (ss__inst.mask_in):
 * operand 0 laid out as *a, operand 1 as *b (NULL: not masked), padding
 * set to `value`. The layouts are the executable's (s->e->masks). */
ss_status ss__lower_mask(ss__lowering *s, ss__inst *i, const ss__layout *a, const ss__layout *b,
                         double value);

/* Emit the instruction that runs region op v (a loop, or a conditional),
 * lowered as the executable's loops[index]: it reads buffers in[] (one
 * per operand of v) and writes the results' buffers, the first at out0. */
ss_status ss__lower_emit_region(ss__lowering *s, ss_value v, const int in[], int index, int out0);

/* The shape of one device's block of node n laid out as l: ceil(size /
 * tiles) per dim (an uneven dim's last blocks are padded, as XLA's). */
void ss__lower_local_shape(const ss__lowering *s, const ss__node *n, const ss__layout *l,
                           int64_t out[]);

/* An uneven layout comes from a spec the program fixes somewhere (a
 * constraint, an input's or a shard_map's spec) that is itself uneven:
 * the error names that op first (the CLI points at the first %N), then
 * the op the uneven shards reached, which cannot take them. */
ss_status ss__lower_check_even(const ss__lowering *s, ss_value v, const ss__layout *l);

/* Record a value's buffer in a layout (out of host memory: s->oom). */
void ss__lower_add_version(ss__lowering *s, ss_value v, int buf, const ss__layout *l);

/* Set a collective's axes to the mesh axes numbered axes[]. */
void ss__lower_coll_axes(const ss__lowering *s, ss_coll *c, int naxes, const int axes[]);

/* Emit collective c of buffer `in` for value v into a new buffer *out;
 * pairs (pairs_n of them) are a permute's source-target pairs. */
ss_status ss__lower_emit_coll(ss__lowering *s, ss_value v, ss_coll *c, int in, int *out,
                              int64_t pairs_n, const int *pairs);

/* Value v's buffer in layout `want` (emitting and caching a reshard). */
ss_status ss__lower_need(ss__lowering *s, ss_value v, const ss__layout *want, int *out);

/* A new buffer for v's local block in layout l, named "%N op". */
ss_status ss__lower_kernel_out(ss__lowering *s, ss_value v, const ss__layout *l, int *out);

/* Emit instruction *i as v's kernel on buffers in[] (nin of them), its
 * result in a new buffer *out in layout l (checked even first, unless v's
 * op takes padded blocks: ss__lower_pads_ok). */
ss_status ss__lower_emit_kernel(ss__lowering *s, ss_value v, int nin, const int in[],
                                const ss__layout *l, ss__inst *i, int *out);

/* Bring `buf` holding v in layout `from` to layout `to`, both dividing
 * `shape` (v's, or v's padded: lower_uneven.c): the planner's steps. */
ss_status ss__lower_reshard_even(ss__lowering *s, ss_value v, int buf, const ss__layout *from,
                                 const ss__layout *to, const int64_t shape[], int *out);

/* --- Memory kinds (memory.c) ---------------------------------------------- */

/* Whether op v may read its operand k when that operand lives in host
 * memory (ss__memory_assign placed it): a move, a loop carry, a bitcast or
 * in-place update whose result is in host memory, a dynamic_slice (a
 * transfer of the slice). */
bool ss__memory_reads_host(const ss_program *p, ss_value v, int k);
/* After v's rule emitted instructions from i0 and buffers from b0: each
 * new buffer lives in its value's memory, and a dynamic_slice of a host
 * value becomes a TRANSFER (host to device, the slice's bytes). */
ss_status ss__memory_lowered(ss__lowering *s, ss_value v, int b0, int i0);
/* Every instruction of e touching host memory is one that may (a
 * transfer, a host bitcast, in-place update or allocation, a local slice):
 * else SS_ERR_UNSUPPORTED naming the op and the instruction it would need
 * (a collective on a host value, a fused kernel). */
ss_status ss__memory_check(const ss_executable *e);

/* --- Uneven shards (lower_uneven.c) --------------------------------------- */

/* The dims of v that layout l splits unevenly, as a mask. */
unsigned ss__lower_uneven_dims(const ss__lowering *s, ss_value v, const ss__layout *l);
/* Whether node n's kernel is right on padded blocks: elementwise ops
 * (padding in, padding out), transposes and broadcasts (blocks map to
 * blocks), reductions and dots (which mask the padding they reduce),
 * gathers and scatters (whose kernels place the padded block at
 * block index * padded size and drop what falls outside it). */
bool ss__lower_pads_ok(const ss__node *n);
/* Bring `buf` (v in `from`) to `to` when either is uneven, as XLA does:
 * out of an uneven layout, each uneven dim whose axes change is
 * all-gathered, padded blocks and all, and the padding cut off; into one,
 * the value goes to the target without those dims' axes (the even
 * planner), then each device slices its padded block (zeros past the end;
 * nothing moves). */
ss_status ss__lower_reshard_uneven(ss__lowering *s, ss_value v, int buf, const ss__layout *from,
                                   const ss__layout *to, int *out);

/* a + b or a - b of two pending sums laid out alike stays a pending sum:
 * sum(a_i) + sum(b_i) = sum(a_i + b_i), so one reduction serves both (XLA's
 * all-reduce reassociation; docs/gspmd.md S7). */
bool ss__lower_add_of_pending(ss__lowering *s, ss_value v);

/* --- The LOWER column of ops.def (lower_ops.c, lower_dot.c) ------------ */

typedef ss_status ss__lower_rule(ss__lowering *s, ss_value v, const ss__layout *want);
/* Whether node n's op cannot compute on padded blocks and so has its
 * operands' uneven dims gathered first (lower_uneven.c). */
bool ss__lower_gathers_around(const ss__node *n);
/* Run `rule` for v (an op ss__lower_gathers_around names) with its uneven
 * operands gathered on their uneven dims and `want` without its uneven
 * dims' axes (the caller then reshards the result into `want`, a local
 * slice); `rule` alone when nothing is uneven. Errors: the rule's, a
 * reshard's, SS_ERR_NOMEM. */
ss_status ss__lower_around_uneven(ss__lowering *s, ss_value v, const ss__layout *want,
                                  ss__lower_rule *rule);
ss__lower_rule ss__lower_broadcast;
ss__lower_rule ss__lower_case; /* case_spmd.c */
ss__lower_rule ss__lower_case_result;
ss__lower_rule ss__lower_collective;
ss__lower_rule ss__lower_constrain;
ss__lower_rule ss__lower_memory;
ss__lower_rule ss__lower_dot;
ss__lower_rule ss__lower_gather;
ss__lower_rule ss__lower_leaf;
ss__lower_rule ss__lower_loop;
ss__lower_rule ss__lower_loop_result;
ss__lower_rule ss__lower_manual_in;
ss__lower_rule ss__lower_manual_out;
ss__lower_rule ss__lower_one_hot;
ss__lower_rule ss__lower_reduce;
ss__lower_rule ss__lower_reshape;
ss__lower_rule ss__lower_rng;
ss__lower_rule ss__lower_same_layout;
ss__lower_rule ss__lower_scatter;
ss__lower_rule ss__lower_transpose;

#endif
