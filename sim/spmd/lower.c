/*
 * lower.c — GSPMD lowering: from a propagated program on global arrays to
 * one per-device instruction list (lower.h).
 *
 * Each op follows XLA's pattern (docs/gspmd.md 3.4): bring the operands to
 * layouts derived from the op's own (propagated) layout, run the op on local
 * blocks, then bring the result to its propagated layout. Moving data is the
 * resharding planner's job (reshard.c); this file turns its steps into
 * collectives and local slices, and drives the compile: each node's rule
 * (the LOWER column of ops.def: lower_ops.c, and lower_dot.c for the dot)
 * through the helpers of lower_internal.h. The dot follows GSPMD's cases (section 3.1):
 * batch and free dims take the output's axes, contracting dims sharded alike
 * on both sides give a partial result (all-reduce, or reduce-scatter when
 * the output is sharded on that axis), a contracting dim sharded on one side
 * only is all-gathered, or the other side is sliced for free and the result
 * all-reduced when the sharded operand is larger than the result (XLA's
 * rule). Reductions over sharded dims leave a partial sum (or an all-reduce
 * max/min). Reshards of the same value to the same layout are shared,
 * except for params, which are resharded for each use (FSDP).
 *
 * Uneven shards (a constrained dim its axes do not divide) run in padded
 * blocks: lower_uneven.c moves them, reductions and dots mask the padding;
 * ops that cannot take them yet give a clear error at compile time.
 */
#include "lower_internal.h"

#include <stdlib.h>
#include <string.h>

/* --- Growing arrays ------------------------------------------------------ */

void ss__lower_label(char out[SS__LABEL_MAX], ss_value v, const char *what)
{
    char digits[12];
    int nd = 0;
    unsigned u = (unsigned)v; /* values are never negative */
    do {
        digits[nd++] = (char)('0' + u % 10);
        u /= 10;
    } while (u && nd < (int)sizeof digits);
    size_t at = 0;
    out[at++] = '%';
    while (nd)
        out[at++] = digits[--nd];
    out[at++] = ' ';
    size_t len = strnlen(what, SS__LABEL_MAX - 1 - at);
    memcpy(out + at, what, len);
    out[at + len] = '\0';
}

ss_status ss__lower_new_buf(ss__lowering *s, ss_value v, ss_dtype dtype, int rank,
                            const int64_t shape[], const char *name, int *out)
{
    ss_executable *e = s->e;
    void *grown =
        ss__grow(e->bufs, &e->bufs_cap, e->nbufs + 1, sizeof *e->bufs, 2 * s->p->n + 16);
    if (!grown)
        return ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
    e->bufs = grown;
    ss__bufdesc *b = &e->bufs[e->nbufs];
    memset(b, 0, sizeof *b);
    b->dtype = dtype;
    b->rank = rank;
    size_t elems = 1;
    for (int d = 0; d < rank; d++) {
        b->shape[d] = shape[d];
        elems *= (size_t)shape[d];
    }
    b->bytes = elems * ss_dtype_size(dtype);
    b->value = v;
    size_t len = strnlen(name, sizeof b->name - 1); /* cut as snprintf cuts */
    memcpy(b->name, name, len);
    b->name[len] = '\0';
    *out = e->nbufs++;
    return SS_OK;
}

ss_status ss__lower_emit(ss__lowering *s, const ss__inst *inst)
{
    ss_executable *e = s->e;
    /* Room at first for about two instructions per value (the kernels and
     * their reshards): growing a list of kilobyte records by doubling
     * copies it again and again. */
    void *grown = ss__grow(e->insts, &e->insts_cap, e->ninsts + 1, sizeof *e->insts,
                           2 * s->p->n + 16);
    if (!grown)
        return ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
    e->insts = grown;
    e->insts[e->ninsts++] = *inst;
    return SS_OK;
}

ss_status ss__lower_emit_region(ss__lowering *s, ss_value v, const int in[], int index, int out0)
{
    const ss__node *n = &s->p->nodes[v];
    ss__inst i;
    ss__inst_init(&i, SS__INST_LOOP, v);
    i.nin = n->nin;
    memcpy(i.in, in, sizeof(int) * (size_t)n->nin);
    i.index = index;
    i.out = out0;
    return ss__lower_emit(s, &i);
}

const ss__layout ss__inst_no_mask[2];

ss_status ss__lower_mask(ss__lowering *s, ss__inst *i, const ss__layout *a, const ss__layout *b,
                         double value)
{
    ss_executable *e = s->e;
    ss__layout **grown = ss__grow(e->masks, &e->masks_cap, e->nmasks + 1, sizeof *e->masks, 8);
    ss__layout *pair = calloc(2, sizeof *pair);
    if (grown)
        e->masks = grown;
    if (!grown || !pair) {
        free(pair);
        return ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
    }
    e->masks[e->nmasks++] = pair;
    pair[0] = *a;
    if (b)
        pair[1] = *b;
    i->mask_in = pair;
    i->mask_value = value;
    return SS_OK;
}

void ss__inst_init(ss__inst *i, ss__inst_kind kind, ss_value node)
{
    memset(i, 0, sizeof *i);
    i->kind = kind;
    i->node = node;
    i->pairs_at = -1;
    i->mask_in = ss__inst_no_mask;
    memset(i->share, -1, sizeof i->share);
    memset(i->share_alt, -1, sizeof i->share_alt);
}

/* --- Layout helpers ------------------------------------------------------ */

void ss__lower_local_shape(const ss__lowering *s, const ss__node *n, const ss__layout *l,
                           int64_t out[])
{
    for (int d = 0; d < n->rank; d++) {
        int64_t t = ss__layout_dim_tiles(l, s->mesh, d);
        out[d] = (n->shape[d] + t - 1) / t;
    }
}

/* The first dim of v that layout l splits unevenly, or -1. */
static int uneven_dim(const ss__lowering *s, ss_value v, const ss__layout *l)
{
    const ss__node *n = &s->p->nodes[v];
    for (int d = 0; d < n->rank; d++)
        if (n->shape[d] % ss__layout_dim_tiles(l, s->mesh, d) != 0)
            return d;
    return -1;
}

/* An uneven layout comes from a spec the program fixes somewhere (a
 * constraint, an input's or a shard_map's spec) that is itself uneven:
 * the error names that op first (the CLI points at the first %N), then
 * the value where lowering met it. */
ss_status ss__lower_check_even(const ss__lowering *s, ss_value v, const ss__layout *l)
{
    const ss__node *n = &s->p->nodes[v];
    if (uneven_dim(s, v, l) < 0)
        return SS_OK;
    for (ss_value u = 0; u < s->p->n; u++) {
        const ss__node *f = &s->p->nodes[u];
        int d = f->fixed.known && f->op != SS__OP_CONSTANT ? uneven_dim(s, u, &f->fixed) : -1;
        if (d < 0 || f->manual)
            continue;
        ss__buf b;
        ss__buf_init(&b);
        ss__layout_repr_buf(&b, s->mesh, &f->fixed);
        ss_status st = ss__fail(SS_ERR_UNSUPPORTED,
                                "compile: %%%d (%s) dim %d of size %lld is split %lld ways by "
                                "%s; uneven shards reach %%%d (%s), which cannot take them "
                                "yet",
                                (int)u, ss__opcode_name(f), d, (long long)f->shape[d],
                                (long long)ss__layout_dim_tiles(&f->fixed, s->mesh, d),
                                b.data ? b.data : "?", (int)v, ss__opcode_name(n));
        ss__buf_free(&b);
        return st;
    }
    for (int d = 0; d < n->rank; d++) {
        int64_t t = ss__layout_dim_tiles(l, s->mesh, d);
        if (n->shape[d] % t != 0) {
            ss__buf b;
            ss__buf_init(&b);
            ss__layout_repr_buf(&b, s->mesh, l);
            ss_status st = ss__fail(SS_ERR_UNSUPPORTED,
                                    "compile: %%%d (%s) dim %d of size %lld is split %lld ways "
                                    "by %s; uneven shards there are not supported yet",
                                    (int)v, ss__opcode_name(n), d, (long long)n->shape[d],
                                    (long long)t, b.data ? b.data : "?");
            ss__buf_free(&b);
            return st;
        }
    }
    return SS_OK;
}

static void layout_text(const ss__lowering *s, const ss__layout *l, ss__buf *b)
{
    ss__layout_repr_buf(b, s->mesh, l);
}

/* Record a value's buffer in a layout. */
void ss__lower_add_version(ss__lowering *s, ss_value v, int buf, const ss__layout *l)
{
    ss__lowered *lv = &s->vals[v];
    if (lv->nversions == SS__LOWER_MAX_VERSIONS) {
        /* Keep the first (the value's own) and recycle the rest. */
        lv->nversions = 1;
    }
    if (lv->nversions == 0) {
        lv->layout = *l;
    } else {
        if (!lv->copy_layout &&
            !(lv->copy_layout = malloc(sizeof *lv->copy_layout * (SS__LOWER_MAX_VERSIONS - 1)))) {
            s->oom = true;
            return;
        }
        lv->copy_layout[lv->nversions - 1] = *l;
    }
    lv->buf[lv->nversions] = buf;
    lv->nversions++;
}

/* --- Reshard steps to instructions ---------------------------------------- */

void ss__lower_coll_axes(const ss__lowering *s, ss_coll *c, int naxes, const int axes[])
{
    c->naxes = naxes;
    for (int k = 0; k < naxes; k++)
        c->axes[k] = s->mesh->names[axes[k]];
}

ss_status ss__lower_emit_coll(ss__lowering *s, ss_value v, ss_coll *c, int in, int *out,
                              int64_t pairs_n, const int *pairs)
{
    ss_dtype dt;
    int rank;
    int64_t shape[SS_MAX_RANK];
    ss_status st = ss_coll_output(c, &dt, &rank, shape);
    if (st)
        return ss__fail(st, "compile: %%%d: %s", (int)v, ss_error_message());
    char name[SS__LABEL_MAX];
    ss__lower_label(name, v, ss_coll_kind_name(c->kind));
    if ((st = ss__lower_new_buf(s, v, dt, rank, shape, name, out)))
        return st;
    ss__inst i;
    ss__inst_init(&i, SS__INST_COLL, v);
    i.coll = *c;
    i.in[i.nin++] = in;
    i.out = *out;
    if (pairs_n) {
        ss_executable *e = s->e;
        void *grown = ss__grow(e->pairs, &e->pairs_cap, e->npairs + (int)pairs_n,
                               sizeof *e->pairs, 64);
        if (!grown)
            return ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
        e->pairs = grown;
        i.pairs_at = e->npairs;
        for (int64_t k = 0; k < pairs_n; k++) {
            e->pairs[e->npairs][0] = pairs[2 * k];
            e->pairs[e->npairs][1] = pairs[2 * k + 1];
            e->npairs++;
        }
        i.coll.npairs = (int)pairs_n;
        i.coll.pairs = NULL; /* bound at run time from the pool */
    }
    s->ncoll_in_line++;
    return ss__lower_emit(s, &i);
}

/* Turn one planned step into instructions; `buf` is replaced by the result. */
static ss_status emit_step(ss__lowering *s, ss_value v, const ss__reshard_step *st, int *buf)
{
    const ss__node *n = &s->p->nodes[v];
    ss_coll c;
    ss_status rc;
    int out;
    memset(&c, 0, sizeof c);
    c.mesh = s->mesh;
    c.dtype = n->dtype;
    c.rank = n->rank;
    memcpy(c.shape, st->local_before, sizeof c.shape);
    ss__buf_puts(&s->line, "; ");
    ss__reshard_step_describe(st, &s->line);
    switch (st->kind) {
    case SS__RESHARD_ALL_REDUCE:
        c.kind = SS_COLL_ALL_REDUCE;
        ss__lower_coll_axes(s, &c, st->naxes, st->axes);
        rc = ss__lower_emit_coll(s, v, &c, *buf, &out, 0, NULL);
        break;
    case SS__RESHARD_REDUCE_SCATTER:
        c.kind = SS_COLL_REDUCE_SCATTER;
        c.tiled = 1;
        c.axis = st->dim;
        ss__lower_coll_axes(s, &c, st->naxes, st->axes);
        rc = ss__lower_emit_coll(s, v, &c, *buf, &out, 0, NULL);
        break;
    case SS__RESHARD_ALL_TO_ALL:
        c.kind = SS_COLL_ALL_TO_ALL;
        c.tiled = 1;
        c.split_axis = st->dim;
        c.concat_axis = st->concat_dim;
        ss__lower_coll_axes(s, &c, st->naxes, st->axes);
        rc = ss__lower_emit_coll(s, v, &c, *buf, &out, 0, NULL);
        break;
    case SS__RESHARD_ALL_GATHER: {
        int ndims = 0, last = -1;
        for (int d = 0; d < n->rank; d++)
            if (st->dim_axes[d] > 0) {
                ndims++;
                last = d;
            }
        c.kind = SS_COLL_ALL_GATHER;
        ss__lower_coll_axes(s, &c, st->naxes, st->axes);
        if (ndims == 1) {
            c.tiled = 1;
            c.axis = last;
            rc = ss__lower_emit_coll(s, v, &c, *buf, &out, 0, NULL);
            break;
        }
        /* Several dims at once: one stacked gather, then place the blocks. */
        c.tiled = 0;
        c.axis = 0;
        int stacked;
        if ((rc = ss__lower_emit_coll(s, v, &c, *buf, &stacked, 0, NULL)))
            return rc;
        char name[SS__LABEL_MAX];
        ss__lower_label(name, v, "gathered");
        if ((rc = ss__lower_new_buf(s, v, n->dtype, n->rank, st->local_after, name, &out)))
            return rc;
        ss__inst i;
        ss__inst_init(&i, SS__INST_UNSTACK, v);
        i.in[i.nin++] = stacked;
        i.out = out;
        i.unaxes = st->naxes;
        int k = 0;
        for (int d = 0; d < n->rank; d++)
            for (int j = 0; j < st->dim_axes[d]; j++, k++) {
                i.uaxes[k] = (int8_t)st->axes[k];
                i.udim[k] = (int8_t)d;
            }
        rc = ss__lower_emit(s, &i);
        break;
    }
    case SS__RESHARD_DYNAMIC_SLICE: {
        if (st->naxes == 0)
            return ss__fail(SS_ERR_UNSUPPORTED, "compile: %%%d: a reshard across meshes is not "
                                                "supported inside a program", (int)v);
        char name[SS__LABEL_MAX];
        ss__lower_label(name, v, "slice");
        if ((rc = ss__lower_new_buf(s, v, n->dtype, n->rank, st->local_after, name, &out)))
            return rc;
        ss__inst i;
        ss__inst_init(&i, SS__INST_SLICE, v);
        i.in[i.nin++] = *buf;
        i.out = out;
        ss_sharding after = st->after;
        ss__layout la;
        ss__layout_from_spec(s->mesh, &after.spec, n->rank, &la);
        i.layout = la;
        for (int d = 0; d < n->rank; d++)
            i.sn[d] = (uint8_t)st->dim_axes[d];
        rc = ss__lower_emit(s, &i);
        break;
    }
    case SS__RESHARD_PERMUTE: {
        int all[SS_MAX_AXES];
        for (int a = 0; a < s->mesh->naxes; a++)
            all[a] = a;
        c.kind = SS_COLL_PERMUTE;
        ss__lower_coll_axes(s, &c, s->mesh->naxes, all);
        int *pos = malloc(sizeof(int) * 2 * (size_t)(st->npairs ? st->npairs : 1));
        if (!pos)
            return ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
        for (int k = 0; k < 2 * st->npairs; k++)
            pos[k] = ss_mesh_position_of(s->mesh, st->pairs[k]);
        rc = ss__lower_emit_coll(s, v, &c, *buf, &out, st->npairs, pos);
        free(pos);
        break;
    }
    default:
        return ss__fail(SS_ERR_UNSUPPORTED, "compile: unknown reshard step");
    }
    if (!rc)
        *buf = out;
    return rc;
}

/* Bring `buf` holding value v in layout `from` to layout `to`. */
static ss_status reshard(ss__lowering *s, ss_value v, int buf, const ss__layout *from,
                         const ss__layout *to, int *out)
{
    *out = buf;
    if (ss__layout_equal(from, to))
        return SS_OK;
    if (ss__lower_uneven_dims(s, v, from) || ss__lower_uneven_dims(s, v, to))
        return ss__lower_reshard_uneven(s, v, buf, from, to, out);
    return ss__lower_reshard_even(s, v, buf, from, to, s->p->nodes[v].shape, out);
}

ss_status ss__lower_reshard_even(ss__lowering *s, ss_value v, int buf, const ss__layout *from,
                                 const ss__layout *to, const int64_t shape[], int *out)
{
    const ss__node *n = &s->p->nodes[v];
    *out = buf;
    if (ss__layout_equal(from, to))
        return SS_OK;
    ss_sharding a, b;
    ss__layout_to_sharding(s->mesh, from, &a);
    ss__layout_to_sharding(s->mesh, to, &b);
    ss__reshard_plan plan;
    ss_status st = ss__reshard_plan_make(&a, &b, n->rank, shape, n->dtype, &plan);
    if (st)
        return ss__fail(st, "compile: %%%d (%s): cannot reshard: %s", (int)v,
                        ss__opcode_name(n), ss_error_message());
    for (int k = 0; k < plan.nsteps && !st; k++)
        st = emit_step(s, v, &plan.steps[k], out);
    ss__reshard_plan_free(&plan);
    return st;
}

/* Value v's buffer in layout `want` (emitting and caching a reshard). */
ss_status ss__lower_need(ss__lowering *s, ss_value v, const ss__layout *want, int *out)
{
    ss__lowered *lv = &s->vals[v];
    for (int k = 0; k < lv->nversions; k++)
        if (ss__layout_equal(ss__lower_version_layout(lv, k), want)) {
            *out = lv->buf[k];
            return SS_OK;
        }
    ss_status st = reshard(s, v, lv->buf[0], &lv->layout, want, out);
    /* Params are resharded afresh for each use, as ZeRO-3/FSDP gathers a
     * parameter again in the backward pass instead of keeping the gathered
     * copy alive (XLA rematerialises such all-gathers); other values,
     * activations included, share one reshard per layout, as XLA's reshard
     * cache does (Megatron-SP keeps its gathered input for dW). */
    bool param = s->p->nodes[v].op == SS__OP_PARAM;
    if (!st && *out != lv->buf[0] && !param)
        ss__lower_add_version(s, v, *out, want);
    return st;
}

/* --- Per-op lowering ------------------------------------------------------ */

ss_status ss__lower_kernel_out(ss__lowering *s, ss_value v, const ss__layout *l, int *out)
{
    const ss__node *n = &s->p->nodes[v];
    int64_t shape[SS_MAX_RANK];
    ss__lower_local_shape(s, n, l, shape);
    char name[SS__LABEL_MAX];
    /* "%N op": reports turn the value number into its name and line. */
    ss__lower_label(name, v, ss__opcode_name(n));
    return ss__lower_new_buf(s, v, n->dtype, n->rank, shape, name, out);
}

ss_status ss__lower_emit_kernel(ss__lowering *s, ss_value v, int nin, const int in[],
                                const ss__layout *l, ss__inst *i, int *out)
{
    bool padded = ss__lower_uneven_dims(s, v, l) && ss__lower_pads_ok(&s->p->nodes[v]);
    ss_status st = padded ? SS_OK : ss__lower_check_even(s, v, l);
    if (!st)
        st = ss__lower_kernel_out(s, v, l, out);
    if (st)
        return st;
    i->kind = SS__INST_KERNEL;
    i->node = v;
    i->nin = nin;
    if (nin)
        memcpy(i->in, in, sizeof(int) * (size_t)nin);
    i->out = *out;
    return ss__lower_emit(s, i);
}

/* a + b or a - b of two pending sums laid out alike stays a pending sum:
 * sum(a_i) + sum(b_i) = sum(a_i + b_i), so one reduction serves both (XLA's
 * all-reduce reassociation; docs/gspmd.md S7). */
bool ss__lower_add_of_pending(ss__lowering *s, ss_value v)
{
    const ss__node *n = &s->p->nodes[v];
    if (n->op != SS__OP_BINARY || (n->sub != SS_ADD && n->sub != SS_SUB))
        return false;
    const ss__layout *a = &s->vals[n->in[0]].layout, *b = &s->vals[n->in[1]].layout;
    return a->partial && ss__layout_equal(a, b);
}


/* Does reducing pending sum `have` alone bring it to `want`: want keeps
 * have's tiling of every dim and may tile a dim further (minor-most) by
 * pending axes, each once (a reduce-scatter), the rest of the pending axes
 * all-reduced? Then its users' additions may take it pending: XLA's
 * reassociation of all-reduces and reduce-scatters that feed an add
 * (add(rs(a), rs(b)) = rs(add(a, b))) reduces the sum once. */
static bool reduction_reaches(const ss__layout *have, const ss__layout *want)
{
    if (!want->known || want->partial || have->rank != want->rank)
        return false;
    unsigned added = 0;
    for (int d = 0; d < have->rank; d++) {
        if (want->n[d] < have->n[d])
            return false;
        for (int k = 0; k < have->n[d]; k++)
            if (want->ax[d][k] != have->ax[d][k])
                return false;
        for (int k = have->n[d]; k < want->n[d]; k++) {
            unsigned bit = 1u << want->ax[d][k];
            if (!(have->partial & bit) || (added & bit))
                return false;
            added |= bit;
        }
    }
    return true;
}

/*
 * The LOWER column of ops.def. A rule emits node v's instructions and
 * records the buffer of its result (ss__lower_add_version) in the layout it has;
 * `want` is v's propagated layout, which the rule may compute in directly.
 */
static ss__lower_rule *const lower_rules[] = { /* ss__ pasted onto each name */
#define SS__OP(ID, NAME, NIN, NOUT, FLAGS, SUBNAME, VJP, FWD, BWD, LOWER, EVAL, KERNEL, FLOPS) \
    [SS__OP_##ID] = ss__##LOWER,
#include "graph/ops.def"
#undef SS__OP
};
_Static_assert(sizeof lower_rules / sizeof lower_rules[0] == SS__OP_COUNT, "one rule per opcode");

bool ss__lower_has_rule(ss__opcode op) { return (unsigned)op < SS__OP_COUNT && lower_rules[op]; }

/* Lower node v; afterwards vals[v].buf[0] holds it in its propagated layout. */
static ss_status lower_node(ss__lowering *s, ss_value v)
{
    const ss__node *n = &s->p->nodes[v];
    const ss__layout *want = &s->p->layouts[v];
    if (!ss__lower_has_rule(n->op))
        return ss__fail(SS_ERR_UNSUPPORTED, "compile: op %s", ss__opcode_name(n));
    /* XLA computes in device memory: a host value only moves (a device_put,
     * a dynamic_slice to the device), is bitcast or updated in place in
     * host memory, travels through loop carries (memory.c) or leaves the
     * program. */
    for (int k = 0; k < n->nin; k++) {
        ss_memory_kind mk = ss__value_memory(s->p, n->in[k]);
        if (mk != SS_MEMORY_DEVICE && !ss__memory_reads_host(s->p, v, k))
            return ss__fail(SS_ERR_UNSUPPORTED,
                            "compile: %%%d (%s) reads %%%d, a value in %s memory: only a "
                            "device_put or dynamic_slice (to the device), a bitcast or in-place "
                            "update in host memory, a loop carry or a program output takes a "
                            "host value, as XLA computes in device memory",
                            (int)v, ss__opcode_name(n), (int)n->in[k], ss_memory_kind_name(mk));
    }
    int b0 = s->e->nbufs, i0 = s->e->ninsts;
    ss_status st = ss__lower_gathers_around(n)
                       ? ss__lower_around_uneven(s, v, want, lower_rules[n->op])
                       : lower_rules[n->op](s, v, want);
    if (!st)
        st = ss__memory_lowered(s, v, b0, i0);
    if (st || ss__op_is(n->op, SS__OPF_HAS_REGIONS))
        return st; /* an op with regions holds no array: its results do */
    /* Bring the result to its propagated layout; that is its own version.
     * A pending sum whose users only add it stays pending (see above). */
    ss__lowered *lv = &s->vals[v];
    if (lv->layout.partial && s->linear_users[v] && reduction_reaches(&lv->layout, want)) {
        lv->nversions = 1;
        ss__buf_puts(&s->line, "; stays a pending sum for the additions that use it");
        return SS_OK;
    }
    int buf;
    ss__layout have = lv->layout;
    if ((st = reshard(s, v, lv->buf[0], &have, want, &buf)))
        return st;
    lv->buf[0] = buf;
    lv->layout = *want;
    lv->nversions = 1;
    return SS_OK;
}

/* --- Compile --------------------------------------------------------------- */

void ss_executable_destroy(ss_executable *e)
{
    if (!e)
        return;
    free(e->bufs);
    free(e->insts);
    free(e->pairs);
    free(e->inputs);
    free(e->outputs);
    ss__buf_free(&e->explain);
    for (int k = 0; k < e->nloops; k++)
        ss__loop_exec_free(&e->loops[k]);
    free(e->loops);
    free(e->borrowed);
    free(e->kept);
    free(e->arg_of);
    free(e->ledger_start);
    for (int k = 0; k < e->nmasks; k++)
        free(e->masks[k]);
    free(e->masks);
    free(e);
}

static void explain_head(ss__lowering *s, ss_value v)
{
    const ss__node *n = &s->p->nodes[v];
    s->ncoll_in_line = 0;
    if (!s->explain)
        return;
    ss__buf_clear(&s->line);
    ss__buf_printf(&s->line, "%%%d = %s(", (int)v, ss__opcode_name(n));
    for (int k = 0; k < n->nin; k++) {
        ss__buf_printf(&s->line, k ? ", %%%d" : "%%%d", (int)n->in[k]);
        ss__buf_putc(&s->line, ' ');
        layout_text(s, &s->p->layouts[n->in[k]], &s->line);
    }
    ss__buf_puts(&s->line, ") -> ");
    layout_text(s, &s->p->layouts[v], &s->line);
}

ss_status ss_program_compile(ss_program *p, ss_executable **out)
{
    ss_compile_options defaults;
    memset(&defaults, 0, sizeof defaults);
    return ss_program_compile_with(p, &defaults, out);
}

static ss_status compile(ss_program *p, const ss_compile_options *opts, const ss__layout *want,
                         ss_executable **out);

ss_status ss_program_compile_with(ss_program *p, const ss_compile_options *opts,
                                  ss_executable **out)
{
    *out = NULL;
    if (p->is_region)
        return ss__fail(SS_ERR_INVALID, "compile: a loop's region is compiled with its loop");
    return compile(p, opts, NULL, out);
}

ss_status ss__compile_region(ss_program *r, const ss__layout want[],
                             const ss_compile_options *opts, ss_executable **out)
{
    *out = NULL;
    return compile(r, opts, want, out);
}

/* Region mode: which buffers are bound arguments and handed-over results. */
static ss_status mark_region_buffers(ss_executable *e)
{
    size_t nb = (size_t)(e->nbufs ? e->nbufs : 1);
    e->region = true;
    e->borrowed = calloc(nb, 1);
    e->kept = calloc(nb, 1);
    e->arg_of = malloc(sizeof(int) * nb);
    if (!e->borrowed || !e->kept || !e->arg_of)
        return ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
    for (size_t b = 0; b < nb; b++)
        e->arg_of[b] = -1;
    for (int k = 0; k < e->ninsts; k++)
        if (e->insts[k].kind == SS__INST_LOAD) {
            e->borrowed[e->insts[k].out] = 1;
            e->arg_of[e->insts[k].out] = e->insts[k].index;
        }
    for (int k = 0; k < e->ninsts; k++)
        if (e->insts[k].kind == SS__INST_STORE && !e->borrowed[e->insts[k].in[0]])
            e->kept[e->insts[k].in[0]] = 1;
    return SS_OK;
}

static ss_status compile(ss_program *p, const ss_compile_options *opts, const ss__layout *want,
                         ss_executable **out)
{
    *out = NULL;
    ss_status st = ss_program_propagate(p);
    if (!st && !want) /* a region's memory kinds come with its loop's */
        st = ss__memory_assign(p);
    if (st)
        return st;
    ss_executable *e = calloc(1, sizeof *e);
    ss__lowering s = {.e = e,
                      .p = p,
                      .mesh = p->mesh,
                      .vals = calloc((size_t)(p->n ? p->n : 1), sizeof(ss__lowered)),
                      .want = want};
    if (!e || !s.vals) {
        free(e);
        free(s.vals);
        return ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
    }
    e->program = p;
    e->mesh = p->mesh;
    if (opts)
        e->opts = *opts;
    ss__buf_init(&e->explain);
    ss__buf_init(&s.line);
    /* A region's reasons are never shown (its loop's line counts its
     * instructions); without them the line is muted: its appends are
     * ignored, as after a failed allocation, and cost next to nothing. */
    s.explain = !want && !e->opts.no_explain;
    s.line.oom = !s.explain;
    s.linear_users = calloc((size_t)(p->n ? p->n : 1), sizeof(bool));
    if (!s.linear_users)
        st = ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
    for (ss_value v = 0; v < p->n && !st; v++)
        s.linear_users[v] = !p->nodes[v].is_output;
    bool *has_user = calloc((size_t)(p->n ? p->n : 1), sizeof(bool));
    if (!has_user && !st)
        st = ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
    for (ss_value v = 0; v < p->n && !st; v++) {
        const ss__node *n = &p->nodes[v];
        bool linear = n->op == SS__OP_BINARY && (n->sub == SS_ADD || n->sub == SS_SUB);
        for (int k = 0; k < n->nin; k++) {
            has_user[n->in[k]] = true;
            if (!linear)
                s.linear_users[n->in[k]] = false;
        }
    }
    for (ss_value v = 0; v < p->n && !st; v++)
        if (!has_user[v])
            s.linear_users[v] = false;
    free(has_user);
    for (ss_value v = 0; v < p->n; v++) {
        if (p->nodes[v].op == SS__OP_INPUT || p->nodes[v].op == SS__OP_PARAM)
            e->ninputs++;
    }
    e->noutputs = p->nouts;
    e->inputs = calloc((size_t)e->ninputs + 1, sizeof(ss_value));
    e->outputs = calloc((size_t)e->noutputs + 1, sizeof(ss_value));
    if (!e->inputs || !e->outputs)
        st = ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
    for (ss_value v = 0; v < p->n && !st; v++) {
        explain_head(&s, v);
        size_t head = s.line.len;
        st = lower_node(&s, v);
        if (st)
            break;
        const ss__node *n = &p->nodes[v];
        if (s.explain && n->op != SS__OP_CONSTANT && n->op != SS__OP_INPUT &&
            n->op != SS__OP_PARAM) {
            if (s.line.len == head)
                ss__buf_puts(&s.line, ": local, no communication");
            ss__buf_printf(&e->explain, "%s\n", s.line.data);
        }
    }
    /* Outputs in ss_output order, at the end (they live to the end). */
    for (int o = 0; o < p->nouts && !st; o++) {
        ss_value v = p->outs[o];
        ss__inst i;
        ss__inst_init(&i, SS__INST_STORE, v);
        i.index = o;
        e->outputs[o] = v;
        int buf = s.vals[v].buf[0];
        i.layout = s.vals[v].layout;
        if (!want && ss__lower_uneven_dims(&s, v, &i.layout)) {
            /* jit returns an unevenly sharded result replicated (output
             * sharding P()): gathered and unpadded, as XLA does. */
            ss__layout r;
            ss__layout_replicated(&r, p->nodes[v].rank);
            ss__buf_clear(&s.line);
            ss__buf_printf(&s.line, "%%%d output: uneven, returned replicated", (int)v);
            if ((st = ss__lower_need(&s, v, &r, &buf)))
                break;
            if (s.explain)
                ss__buf_printf(&e->explain, "%s\n", s.line.data);
            i.layout = r;
        }
        if (want) { /* a region's result, in the layout its loop carries it */
            if ((st = ss__lower_need(&s, v, &want[o], &buf)))
                break;
            i.layout = want[o];
        }
        i.in[i.nin++] = buf;
        i.out = buf;
        st = ss__lower_emit(&s, &i);
    }
    if (!st && !e->opts.no_fusion)
        st = ss__fuse(e);
    if (!st && p->memory)
        st = ss__memory_check(e);
    if (!st)
        st = ss__schedule_updates(e);
    if (!st)
        st = ss__add_frees(e);
    if (!st && want)
        st = mark_region_buffers(e);
    ss__buf_free(&s.line);
    for (ss_value v = 0; v < p->n; v++)
        free(s.vals[v].copy_layout);
    free(s.vals);
    free(s.linear_users);
    if (!st && (e->explain.oom || s.oom))
        st = ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
    if (st) {
        ss_executable_destroy(e);
        return st;
    }
    *out = e;
    return SS_OK;
}

ss_status ss_executable_explain(const ss_executable *e, FILE *f)
{
    fputs(e->explain.data ? e->explain.data : "", f);
    return SS_OK;
}
