/*
 * lower.c — GSPMD lowering: from a propagated program on global arrays to
 * one per-device instruction list (lower.h).
 *
 * Each op follows XLA's pattern (docs/gspmd.md 3.4): bring the operands to
 * layouts derived from the op's own (propagated) layout, run the op on local
 * blocks, then bring the result to its propagated layout. Moving data is the
 * resharding planner's job (reshard.c); this file turns its steps into
 * collectives and local slices. The dot follows GSPMD's cases (section 3.1):
 * batch and free dims take the output's axes, contracting dims sharded alike
 * on both sides give a partial result (all-reduce, or reduce-scatter when
 * the output is sharded on that axis), a contracting dim sharded on one side
 * only is all-gathered, or the other side is sliced for free and the result
 * all-reduced when the sharded operand is larger than the result (XLA's
 * rule). Reductions over sharded dims leave a partial sum (or an all-reduce
 * max/min). Reshards of the same value to the same layout are shared,
 * except for params, which are resharded for each use (FSDP).
 *
 * Deliberately not done yet: uneven shards (a clear error at compile time),
 * windowed einsums, manual (shard_map) regions.
 */
#include "lower.h"
#include "reshard.h"

#include <stdlib.h>
#include <string.h>

/* A value as lowered so far: one buffer per layout it has been brought to. */
#define MAX_VERSIONS 4
typedef struct lowered {
    int nversions;
    int buf[MAX_VERSIONS];
    ss__layout layout[MAX_VERSIONS];
} lowered;

typedef struct lower {
    ss_executable *e;
    ss_program *p;
    const ss_mesh *mesh;
    lowered *vals;
    /* linear_users[v]: every user of v adds or subtracts it (and v is no
     * output), so a pending sum may stay pending through them. */
    bool *linear_users;
    ss__buf line; /* explain text of the op being lowered */
    int ncoll_in_line;
    int input_no; /* inputs and params lowered so far */
    const ss__layout *want; /* region mode: output k's layout */
} lower;

/* --- Growing arrays ------------------------------------------------------ */

static ss_status new_buf(lower *s, ss_value v, ss_dtype dtype, int rank, const int64_t shape[],
                         const char *name, int *out)
{
    ss_executable *e = s->e;
    void *grown = ss__grow(e->bufs, &e->bufs_cap, e->nbufs + 1, sizeof *e->bufs, 64);
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
    snprintf(b->name, sizeof b->name, "%s", name);
    *out = e->nbufs++;
    return SS_OK;
}

static ss_status emit(lower *s, const ss__inst *inst)
{
    ss_executable *e = s->e;
    void *grown = ss__grow(e->insts, &e->insts_cap, e->ninsts + 1, sizeof *e->insts, 128);
    if (!grown)
        return ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
    e->insts = grown;
    e->insts[e->ninsts++] = *inst;
    return SS_OK;
}

void ss__inst_init(ss__inst *i, ss__inst_kind kind, ss_value node)
{
    memset(i, 0, sizeof *i);
    i->kind = kind;
    i->node = node;
    i->pairs_at = -1;
    memset(i->share, -1, sizeof i->share);
    memset(i->share_alt, -1, sizeof i->share_alt);
}

/* --- Layout helpers ------------------------------------------------------ */

static void local_shape(const lower *s, const ss__node *n, const ss__layout *l, int64_t out[])
{
    for (int d = 0; d < n->rank; d++)
        out[d] = n->shape[d] / ss__layout_dim_tiles(l, s->mesh, d);
}

/* The first dim of v that layout l splits unevenly, or -1. */
static int uneven_dim(const lower *s, ss_value v, const ss__layout *l)
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
static ss_status check_even(const lower *s, ss_value v, const ss__layout *l)
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
                                "%s; uneven shards inside a program are not supported yet",
                                (int)u, ss__opcode_name(f), d, (long long)f->shape[d],
                                (long long)ss__layout_dim_tiles(&f->fixed, s->mesh, d),
                                b.data ? b.data : "?");
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
                                    "by %s; uneven shards inside a program are not supported "
                                    "yet",
                                    (int)v, ss__opcode_name(n), d, (long long)n->shape[d],
                                    (long long)t, b.data ? b.data : "?");
            ss__buf_free(&b);
            return st;
        }
    }
    return SS_OK;
}

static void layout_text(const lower *s, const ss__layout *l, ss__buf *b)
{
    ss__layout_repr_buf(b, s->mesh, l);
}

/* Record a value's buffer in a layout. */
static void add_version(lower *s, ss_value v, int buf, const ss__layout *l)
{
    lowered *lv = &s->vals[v];
    if (lv->nversions == MAX_VERSIONS) {
        /* Keep the first (the value's own) and recycle the rest. */
        lv->nversions = 1;
    }
    lv->buf[lv->nversions] = buf;
    lv->layout[lv->nversions] = *l;
    lv->nversions++;
}

/* --- Reshard steps to instructions ---------------------------------------- */

static void coll_axes(const lower *s, ss_coll *c, int naxes, const int axes[])
{
    c->naxes = naxes;
    for (int k = 0; k < naxes; k++)
        c->axes[k] = s->mesh->names[axes[k]];
}

static ss_status emit_coll(lower *s, ss_value v, ss_coll *c, int in, int *out, int64_t pairs_n,
                           const int *pairs)
{
    ss_dtype dt;
    int rank;
    int64_t shape[SS_MAX_RANK];
    ss_status st = ss_coll_output(c, &dt, &rank, shape);
    if (st)
        return ss__fail(st, "compile: %%%d: %s", (int)v, ss_error_message());
    char name[48];
    snprintf(name, sizeof name, "%%%d %s", (int)v, ss_coll_kind_name(c->kind));
    if ((st = new_buf(s, v, dt, rank, shape, name, out)))
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
    return emit(s, &i);
}

/* Turn one planned step into instructions; `buf` is replaced by the result. */
static ss_status emit_step(lower *s, ss_value v, const ss__reshard_step *st, int *buf)
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
        coll_axes(s, &c, st->naxes, st->axes);
        rc = emit_coll(s, v, &c, *buf, &out, 0, NULL);
        break;
    case SS__RESHARD_REDUCE_SCATTER:
        c.kind = SS_COLL_REDUCE_SCATTER;
        c.tiled = 1;
        c.axis = st->dim;
        coll_axes(s, &c, st->naxes, st->axes);
        rc = emit_coll(s, v, &c, *buf, &out, 0, NULL);
        break;
    case SS__RESHARD_ALL_TO_ALL:
        c.kind = SS_COLL_ALL_TO_ALL;
        c.tiled = 1;
        c.split_axis = st->dim;
        c.concat_axis = st->concat_dim;
        coll_axes(s, &c, st->naxes, st->axes);
        rc = emit_coll(s, v, &c, *buf, &out, 0, NULL);
        break;
    case SS__RESHARD_ALL_GATHER: {
        int ndims = 0, last = -1;
        for (int d = 0; d < n->rank; d++)
            if (st->dim_axes[d] > 0) {
                ndims++;
                last = d;
            }
        c.kind = SS_COLL_ALL_GATHER;
        coll_axes(s, &c, st->naxes, st->axes);
        if (ndims == 1) {
            c.tiled = 1;
            c.axis = last;
            rc = emit_coll(s, v, &c, *buf, &out, 0, NULL);
            break;
        }
        /* Several dims at once: one stacked gather, then place the blocks. */
        c.tiled = 0;
        c.axis = 0;
        int stacked;
        if ((rc = emit_coll(s, v, &c, *buf, &stacked, 0, NULL)))
            return rc;
        char name[48];
        snprintf(name, sizeof name, "%%%d gathered", (int)v);
        if ((rc = new_buf(s, v, n->dtype, n->rank, st->local_after, name, &out)))
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
        rc = emit(s, &i);
        break;
    }
    case SS__RESHARD_DYNAMIC_SLICE: {
        if (st->naxes == 0)
            return ss__fail(SS_ERR_UNSUPPORTED, "compile: %%%d: a reshard across meshes is not "
                                                "supported inside a program", (int)v);
        char name[48];
        snprintf(name, sizeof name, "%%%d slice", (int)v);
        if ((rc = new_buf(s, v, n->dtype, n->rank, st->local_after, name, &out)))
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
        rc = emit(s, &i);
        break;
    }
    case SS__RESHARD_PERMUTE: {
        int all[SS_MAX_AXES];
        for (int a = 0; a < s->mesh->naxes; a++)
            all[a] = a;
        c.kind = SS_COLL_PERMUTE;
        coll_axes(s, &c, s->mesh->naxes, all);
        int *pos = malloc(sizeof(int) * 2 * (size_t)(st->npairs ? st->npairs : 1));
        if (!pos)
            return ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
        for (int k = 0; k < 2 * st->npairs; k++)
            pos[k] = ss_mesh_position_of(s->mesh, st->pairs[k]);
        rc = emit_coll(s, v, &c, *buf, &out, st->npairs, pos);
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
static ss_status reshard(lower *s, ss_value v, int buf, const ss__layout *from,
                         const ss__layout *to, int *out)
{
    const ss__node *n = &s->p->nodes[v];
    *out = buf;
    if (ss__layout_equal(from, to))
        return SS_OK;
    ss_status st = check_even(s, v, to);
    if (st)
        return st;
    ss_sharding a, b;
    ss__layout_to_sharding(s->mesh, from, &a);
    ss__layout_to_sharding(s->mesh, to, &b);
    ss__reshard_plan plan;
    st = ss__reshard_plan_make(&a, &b, n->rank, n->shape, n->dtype, &plan);
    if (st)
        return ss__fail(st, "compile: %%%d (%s): cannot reshard: %s", (int)v,
                        ss__opcode_name(n), ss_error_message());
    for (int k = 0; k < plan.nsteps && !st; k++)
        st = emit_step(s, v, &plan.steps[k], out);
    ss__reshard_plan_free(&plan);
    return st;
}

/* Value v's buffer in layout `want` (emitting and caching a reshard). */
static ss_status need(lower *s, ss_value v, const ss__layout *want, int *out)
{
    lowered *lv = &s->vals[v];
    for (int k = 0; k < lv->nversions; k++)
        if (ss__layout_equal(&lv->layout[k], want)) {
            *out = lv->buf[k];
            return SS_OK;
        }
    ss_status st = reshard(s, v, lv->buf[0], &lv->layout[0], want, out);
    /* Params are resharded afresh for each use, as ZeRO-3/FSDP gathers a
     * parameter again in the backward pass instead of keeping the gathered
     * copy alive (XLA rematerialises such all-gathers); other values,
     * activations included, share one reshard per layout, as XLA's reshard
     * cache does (Megatron-SP keeps its gathered input for dW). */
    bool param = s->p->nodes[v].op == SS__OP_PARAM;
    if (!st && *out != lv->buf[0] && !param)
        add_version(s, v, *out, want);
    return st;
}

/* --- Per-op lowering ------------------------------------------------------ */

static ss_status kernel_out(lower *s, ss_value v, const ss__layout *l, int *out)
{
    const ss__node *n = &s->p->nodes[v];
    int64_t shape[SS_MAX_RANK];
    local_shape(s, n, l, shape);
    char name[48];
    /* "%N op": reports turn the value number into its name and line. */
    snprintf(name, sizeof name, "%%%d %s", (int)v, ss__opcode_name(n));
    return new_buf(s, v, n->dtype, n->rank, shape, name, out);
}

static ss_status emit_kernel(lower *s, ss_value v, int nin, const int in[], const ss__layout *l,
                             ss__inst *i, int *out)
{
    ss_status st = check_even(s, v, l);
    if (!st)
        st = kernel_out(s, v, l, out);
    if (st)
        return st;
    i->kind = SS__INST_KERNEL;
    i->node = v;
    i->nin = nin;
    if (nin)
        memcpy(i->in, in, sizeof(int) * (size_t)nin);
    i->out = *out;
    return emit(s, i);
}

/* a + b or a - b of two pending sums laid out alike stays a pending sum:
 * sum(a_i) + sum(b_i) = sum(a_i + b_i), so one reduction serves both (XLA's
 * all-reduce reassociation; docs/gspmd.md S7). */
static bool add_of_pending(lower *s, ss_value v)
{
    const ss__node *n = &s->p->nodes[v];
    if (n->op != SS__OP_BINARY || (n->sub != SS_ADD && n->sub != SS_SUB))
        return false;
    const ss__layout *a = &s->vals[n->in[0]].layout[0], *b = &s->vals[n->in[1]].layout[0];
    return a->partial && ss__layout_equal(a, b);
}

/* GSPMD's sort along a sharded dim: the sorted dim's axes move to the
 * first other dim they divide, minor-most (an all-to-all, then a local
 * sort), instead of being gathered; *l (the sorted dim already whole) gets
 * them. Nothing moves when no dim fits (the sorted dim is gathered). */
static void sort_axes_move(const lower *s, const ss__node *n, const ss__layout *want,
                           ss__layout *l)
{
    int sd = n->dim;
    if (n->op != SS__OP_SORT || !want->n[sd])
        return;
    for (int d = 0; d < n->rank; d++) {
        int64_t tiles = ss__layout_dim_tiles(want, s->mesh, d) *
                        ss__layout_dim_tiles(want, s->mesh, sd);
        if (d == sd || n->shape[d] % tiles)
            continue;
        for (int k = 0; k < want->n[sd]; k++)
            ss__layout_push(l, s->mesh, d, want->ax[sd][k]);
        return;
    }
}

/* The layout an operand of an elementwise-shaped op must have: the result's. */
static ss_status lower_same_layout(lower *s, ss_value v, const ss__layout *want)
{
    const ss__node *n = &s->p->nodes[v];
    int in[SS__MAX_INPUTS];
    ss_status st;
    if (add_of_pending(s, v)) {
        ss__layout l = s->vals[n->in[0]].layout[0];
        int out, ins[2] = {s->vals[n->in[0]].buf[0], s->vals[n->in[1]].buf[0]};
        ss__inst i;
        ss__inst_init(&i, SS__INST_KERNEL, v);
        if ((st = emit_kernel(s, v, 2, ins, &l, &i, &out)))
            return st;
        ss__buf_puts(&s->line, "; adds pending sums, reduced once later");
        add_version(s, v, out, &l);
        return SS_OK;
    }
    /* Concatenate, slice, pad and reverse need whole the dims they join,
     * cut, pad or reverse (the result is brought to `want` afterwards, a
     * local dynamic slice); scalar operands (a pad's padding value, the
     * start indices of the dynamic slices) are replicated. */
    ss__layout l = *want, scalar;
    if (n->op == SS__OP_CONCAT)
        l.n[n->dim] = 0;
    unsigned whole = ss__node_whole_dims(s->p, n);
    for (int d = 0; d < SS_MAX_RANK && d < n->rank; d++)
        if ((whole >> d) & 1u)
            l.n[d] = 0;
    sort_axes_move(s, n, want, &l);
    ss__layout_replicated(&scalar, 0);
    for (int k = 0; k < n->nin; k++)
        if ((st = need(s, n->in[k], s->p->nodes[n->in[k]].rank == n->rank ? &l : &scalar,
                       &in[k])))
            return st;
    ss__inst i;
    ss__inst_init(&i, SS__INST_KERNEL, v);
    int out;
    if ((st = emit_kernel(s, v, n->nin, in, &l, &i, &out)))
        return st;
    add_version(s, v, out, &l);
    return SS_OK;
}

static ss_status lower_transpose(lower *s, ss_value v, const ss__layout *want)
{
    const ss__node *n = &s->p->nodes[v];
    ss__layout l;
    ss__layout_replicated(&l, n->rank);
    for (int d = 0; d < n->rank; d++) {
        l.n[n->dims[d]] = want->n[d];
        memcpy(l.ax[n->dims[d]], want->ax[d], SS_MAX_AXES);
    }
    int in, out;
    ss_status st = need(s, n->in[0], &l, &in);
    if (st)
        return st;
    ss__inst i;
    ss__inst_init(&i, SS__INST_KERNEL, v);
    if ((st = emit_kernel(s, v, 1, &in, want, &i, &out)))
        return st;
    add_version(s, v, out, want);
    return SS_OK;
}

static ss_status lower_broadcast(lower *s, ss_value v, const ss__layout *want)
{
    const ss__node *n = &s->p->nodes[v];
    const ss__node *x = &s->p->nodes[n->in[0]];
    ss__layout l;
    ss__layout_replicated(&l, x->rank);
    for (int k = 0; k < x->rank; k++)
        if (x->shape[k] == n->shape[n->dims[k]]) {
            l.n[k] = want->n[n->dims[k]];
            memcpy(l.ax[k], want->ax[n->dims[k]], SS_MAX_AXES);
        }
    int in, out;
    ss_status st = need(s, n->in[0], &l, &in);
    ss__inst i;
    ss__inst_init(&i, SS__INST_KERNEL, v);
    if (!st)
        st = emit_kernel(s, v, 1, &in, want, &i, &out);
    if (!st)
        add_version(s, v, out, want);
    return st;
}

static ss_status lower_reshape(lower *s, ss_value v, const ss__layout *want)
{
    const ss__node *n = &s->p->nodes[v];
    const ss__node *x = &s->p->nodes[n->in[0]];
    ss__layout src, check, repl;
    ss__inst i;
    int in, out;
    ss_status st;
    /* The operand layout that reshapes into `want` in place, if any. */
    bool ok = ss__reshape_layout(s->mesh, n->rank, n->shape, want, x->rank, x->shape, &src) &&
              ss__reshape_layout(s->mesh, x->rank, x->shape, &src, n->rank, n->shape, &check) &&
              ss__layout_equal(&check, want);
    ss__inst_init(&i, SS__INST_KERNEL, v);
    if (ok) {
        st = need(s, n->in[0], &src, &in);
        if (!st)
            st = emit_kernel(s, v, 1, &in, want, &i, &out);
        if (!st)
            add_version(s, v, out, want);
        return st;
    }
    /* Otherwise: replicate, reshape the whole array, slice what is wanted. */
    ss__layout_replicated(&src, x->rank);
    ss__layout_replicated(&repl, n->rank);
    if ((st = need(s, n->in[0], &src, &in)))
        return st;
    if ((st = emit_kernel(s, v, 1, &in, &repl, &i, &out)))
        return st;
    s->vals[v].nversions = 0;
    add_version(s, v, out, &repl);
    int sliced;
    if ((st = need(s, v, want, &sliced)))
        return st;
    /* Make the wanted layout the value's own version. */
    s->vals[v].buf[0] = sliced;
    s->vals[v].layout[0] = *want;
    s->vals[v].nversions = 1;
    return SS_OK;
}

static ss_status lower_one_hot(lower *s, ss_value v, const ss__layout *want)
{
    const ss__node *n = &s->p->nodes[v];
    ss__layout l = *want, w = *want;
    l.rank = n->rank - 1;
    w.n[n->rank - 1] = 0; /* the class dim is never split */
    int in, out;
    ss_status st = need(s, n->in[0], &l, &in);
    ss__inst i;
    ss__inst_init(&i, SS__INST_KERNEL, v);
    if (!st)
        st = emit_kernel(s, v, 1, &in, &w, &i, &out);
    if (!st)
        add_version(s, v, out, &w);
    return st;
}

static ss_status lower_reduce(lower *s, ss_value v, const ss__layout *want)
{
    (void)want;
    const ss__node *n = &s->p->nodes[v];
    const ss__node *x = &s->p->nodes[n->in[0]];
    const lowered *lx = &s->vals[n->in[0]];
    ss__layout l = lx->layout[0], r;
    ss__layout_replicated(&r, n->rank);
    /* Only sums, maxima and minima of numbers combine across devices (a
     * pending sum, an all-reduce); argmax, products, and/or and bool
     * reductions gather their reduced dims first. */
    bool across = n->op == SS__OP_REDUCE && n->dtype != SS_BOOL &&
                  (n->sub == SS_REDUCE_SUM || n->sub == SS_REDUCE_MAX || n->sub == SS_REDUCE_MIN);
    int in = lx->buf[0], out;
    if (!across) {
        for (int d = 0; d < x->rank && d < SS_MAX_RANK; d++)
            if ((n->axes_mask >> d) & 1u)
                l.n[d] = 0;
        ss_status st = need(s, n->in[0], &l, &in);
        if (st)
            return st;
    }
    unsigned reduced_axes = 0;
    int k = 0;
    for (int d = 0; d < x->rank; d++) {
        if ((n->axes_mask >> d) & 1u) {
            for (int j = 0; j < l.n[d]; j++)
                reduced_axes |= 1u << l.ax[d][j];
            continue;
        }
        r.n[k] = l.n[d];
        memcpy(r.ax[k], l.ax[d], SS_MAX_AXES);
        k++;
    }
    ss__inst i;
    ss__inst_init(&i, SS__INST_KERNEL, v);
    for (int d = 0; d < x->rank; d++)
        if ((n->axes_mask >> d) & 1u)
            i.red[i.nred++] = d;
    ss_status st = emit_kernel(s, v, 1, &in, &r, &i, &out);
    if (st)
        return st;
    if (reduced_axes && n->sub != SS_REDUCE_SUM) {
        /* max/min over sharded dims: an all-reduce with that op now. */
        ss_coll c;
        memset(&c, 0, sizeof c);
        c.kind = SS_COLL_ALL_REDUCE;
        c.mesh = s->mesh;
        c.op = (ss_reduce_op)n->sub;
        c.dtype = n->dtype;
        c.rank = n->rank;
        local_shape(s, n, &r, c.shape);
        int axes[SS_MAX_AXES], na = 0;
        for (int a = 0; a < s->mesh->naxes; a++)
            if ((reduced_axes >> a) & 1u)
                axes[na++] = a;
        coll_axes(s, &c, na, axes);
        ss__buf_printf(&s->line, "; all_reduce %s over the reduced dims' axes",
                       n->sub == SS_REDUCE_MAX ? "max" : "min");
        if ((st = emit_coll(s, v, &c, out, &out, 0, NULL)))
            return st;
    } else {
        r.partial = reduced_axes;
    }
    add_version(s, v, out, &r);
    return SS_OK;
}

static void dot_dims_of(const ss__node *n, ss__k_dot_dims *dd)
{
    memset(dd, 0, sizeof *dd);
    dd->nbatch = n->nb;
    dd->ncontract = n->nc;
    for (int k = 0; k < n->nb; k++) {
        dd->lhs_batch[k] = n->lb[k];
        dd->rhs_batch[k] = n->rb[k];
    }
    for (int k = 0; k < n->nc; k++) {
        dd->lhs_contract[k] = n->lc[k];
        dd->rhs_contract[k] = n->rc[k];
    }
}

/* Windowed einsum for operand `side` (0 lhs, 1 rhs): when that operand
 * would be all-gathered over one mesh axis along one free dim and nothing
 * else moves, compute the dot in n steps, passing the operand's blocks to
 * the previous device each step. Returns true if it emitted the loop
 * (*st then says how it went). */
static bool windowed(lower *s, ss_value v, int side, const ss__layout *want_x,
                     const ss__layout *want_y, const ss__layout *out_l, ss_status *st)
{
    const ss__node *n = &s->p->nodes[v];
    double mib = s->e->opts.windowed_einsum_threshold_mib;
    if (mib <= 0)
        return false;
    ss_value xv = n->in[side], yv = n->in[1 - side];
    const ss__node *x = &s->p->nodes[xv];
    const ss__layout *lx = &s->vals[xv].layout[0], *ly = &s->vals[yv].layout[0];
    if (!ss__layout_equal(ly, want_y) || lx->partial)
        return false;
    /* Exactly one free dim d differs: one axis now, none wanted. */
    const int8_t *batch = side ? n->rb : n->lb, *contract = side ? n->rc : n->lc;
    unsigned special = 0;
    for (int k = 0; k < n->nb; k++)
        special |= 1u << batch[k];
    for (int k = 0; k < n->nc; k++)
        special |= 1u << contract[k];
    int d = -1, od = n->nb;
    if (side == 1)
        od += s->p->nodes[n->in[0]].rank - n->nb - n->nc;
    int pos = od;
    for (int k = 0; k < x->rank; k++) {
        bool same = lx->n[k] == want_x->n[k] &&
                    memcmp(lx->ax[k], want_x->ax[k], (size_t)lx->n[k]) == 0;
        if (!((special >> k) & 1u)) {
            if (!same) {
                if (d >= 0 || (special >> k) & 1u || lx->n[k] != 1 || want_x->n[k] != 0)
                    return false;
                d = k;
                od = pos;
            }
            pos++;
        } else if (!same) {
            return false;
        }
    }
    if (d < 0)
        return false;
    double bytes = (double)ss_dtype_size(x->dtype);
    for (int k = 0; k < x->rank; k++)
        bytes *= (double)x->shape[k];
    if (bytes < mib * 1048576.0)
        return false;
    int axis = lx->ax[d][0];
    int nsteps = (int)s->mesh->sizes[axis];
    /* The result: allocated once, each step writes its slice. */
    int out, cur = s->vals[xv].buf[0], ybuf = s->vals[yv].buf[0];
    ss__inst a;
    ss__inst_init(&a, SS__INST_ALLOC, v);
    if ((*st = check_even(s, v, out_l)) || (*st = kernel_out(s, v, out_l, &out)))
        return true;
    a.out = out;
    if ((*st = emit(s, &a)))
        return true;
    ss__buf_printf(&s->line, "; windowed einsum over ('%s',): %d steps", s->mesh->names[axis],
                   nsteps);
    int pairs[2 * SS_MAX_DEVICES];
    for (int r = 0; r < nsteps; r++) {
        pairs[2 * r] = r;                          /* rank r sends its block */
        pairs[2 * r + 1] = (r + nsteps - 1) % nsteps; /* to rank r-1 */
    }
    for (int step = 0; step < nsteps; step++) {
        /* Local dot of the block held now: the result's dim od has the
         * block's size. */
        int64_t shape[SS_MAX_RANK];
        memcpy(shape, s->e->bufs[out].shape, sizeof shape);
        shape[od] = s->e->bufs[cur].shape[d];
        char name[48];
        snprintf(name, sizeof name, "%%%d step %d", (int)v, step);
        int part;
        if ((*st = new_buf(s, v, n->dtype, n->rank, shape, name, &part)))
            return true;
        ss__inst k;
        ss__inst_init(&k, SS__INST_KERNEL, v);
        dot_dims_of(n, &k.dot);
        k.nin = 2;
        k.in[side] = cur;
        k.in[1 - side] = ybuf;
        k.out = part;
        if ((*st = emit(s, &k)))
            return true;
        ss__inst pl;
        ss__inst_init(&pl, SS__INST_PLACE, v);
        pl.nin = 2;
        pl.in[0] = part;
        pl.in[1] = out;
        pl.out = out;
        pl.place_axis = axis;
        pl.place_dim = od;
        pl.place_step = step;
        pl.place_n = nsteps;
        if ((*st = emit(s, &pl)))
            return true;
        if (step == nsteps - 1)
            break;
        ss_coll c;
        memset(&c, 0, sizeof c);
        c.kind = SS_COLL_PERMUTE;
        c.mesh = s->mesh;
        c.dtype = x->dtype;
        c.rank = x->rank;
        memcpy(c.shape, s->e->bufs[cur].shape, sizeof c.shape);
        c.axes[0] = s->mesh->names[axis];
        c.naxes = 1;
        if ((*st = emit_coll(s, v, &c, cur, &cur, nsteps, pairs)))
            return true;
    }
    add_version(s, v, out, out_l);
    *st = SS_OK;
    return true;
}

static double local_bytes(const lower *s, const ss__node *n, const ss__layout *l)
{
    double b = (double)ss_dtype_size(n->dtype);
    for (int d = 0; d < n->rank; d++)
        b *= (double)(n->shape[d] / ss__layout_dim_tiles(l, s->mesh, d));
    return b;
}

/* GSPMD keeps contracting dims sharded alike on both sides and reduces the
 * result; for a small operand and a large result (a weight gradient of a
 * data-parallel step, docs/gspmd.md 3.2, S2 and S5), gathering both operands
 * over those axes moves fewer bytes. Say so in the explanation, and take
 * that route when the compile options ask for the cheapest lowering. */
static void cheaper_alternative(lower *s, const ss__node *n, const ss__layout *la,
                                const ss__layout *lb, const ss__layout *want, unsigned partial,
                                uint8_t cn[], unsigned *partial_out)
{
    /* Only case (ii): both operands sharded alike on the contracting dims
     * (the one-sided case gathers or slices one operand already). */
    for (int k = 0; k < n->nc; k++) {
        int dl = n->lc[k], dr = n->rc[k];
        if (cn[k] && (la->n[dl] != lb->n[dr] ||
                      memcmp(la->ax[dl], lb->ax[dr], (size_t)la->n[dl]) != 0))
            return;
    }
    double groups = 1;
    for (int a = 0; a < s->mesh->naxes; a++)
        if ((partial >> a) & 1u)
            groups *= (double)s->mesh->sizes[a];
    if (groups <= 1)
        return;
    ss__layout out_local = *want;
    for (int d = 0; d < n->rank; d++) {
        int keep = 0;
        while (keep < want->n[d] && !((partial >> want->ax[d][keep]) & 1u))
            keep++;
        out_local.n[d] = (uint8_t)keep;
    }
    double c = local_bytes(s, n, &out_local);
    bool scatter = (ss__layout_used(want) & partial) != 0;
    double reduce = scatter ? (groups - 1) / groups * c : 2 * (groups - 1) / groups * c;
    double gather = (groups - 1) * (local_bytes(s, &s->p->nodes[n->in[0]], la) +
                                    local_bytes(s, &s->p->nodes[n->in[1]], lb));
    if (gather >= reduce)
        return;
    ss__buf_printf(&s->line,
                   "; GSPMD reduces the partial result (%s, %.0f B/device), gathering both "
                   "operands over the contracting axes would send %.0f B/device%s",
                   scatter ? "reduce_scatter" : "all_reduce", reduce, gather,
                   s->e->opts.cheapest ? " (taken: cheapest)" : "");
    if (!s->e->opts.cheapest)
        return;
    for (int k = 0; k < n->nc; k++)
        cn[k] = 0;
    *partial_out = 0;
}

/* The dot: operand layouts derived from the output's, per GSPMD's cases. */
static ss_status lower_dot(lower *s, ss_value v, const ss__layout *want)
{
    const ss__node *n = &s->p->nodes[v];
    const ss__node *ln = &s->p->nodes[n->in[0]], *rn = &s->p->nodes[n->in[1]];
    const ss__layout *la = &s->vals[n->in[0]].layout[0], *lb = &s->vals[n->in[1]].layout[0];
    ss__layout A, B, out_l;
    unsigned lspecial = 0, rspecial = 0;
    for (int k = 0; k < n->nb; k++) {
        lspecial |= 1u << n->lb[k];
        rspecial |= 1u << n->rb[k];
    }
    for (int k = 0; k < n->nc; k++) {
        lspecial |= 1u << n->lc[k];
        rspecial |= 1u << n->rc[k];
    }
    /* Contracting dims first (XLA's base case e): a sharding both operands
     * share stays, giving a partial result that is reduced (all-reduce, or
     * reduce-scatter into the output's sharding) afterwards; those axes are
     * then taken off the batch and free dims. Otherwise XLA's one-sided
     * rule: slice the unsharded side for free and all-reduce the result when
     * the sharded operand is larger than the result, else gather it. */
    unsigned partial = 0;
    int64_t out_bytes = (int64_t)ss_dtype_size(n->dtype), lbytes = out_bytes, rbytes = out_bytes;
    for (int d = 0; d < n->rank; d++)
        out_bytes *= n->shape[d];
    for (int d = 0; d < ln->rank; d++)
        lbytes *= ln->shape[d];
    for (int d = 0; d < rn->rank; d++)
        rbytes *= rn->shape[d];
    int8_t cax[SS_MAX_RANK][SS_MAX_AXES];
    uint8_t cn[SS_MAX_RANK];
    for (int k = 0; k < n->nc; k++) {
        int dl = n->lc[k], dr = n->rc[k];
        cn[k] = 0;
        const ss__layout *src = NULL;
        int sd = 0;
        bool same = la->n[dl] == lb->n[dr] && la->n[dl] > 0 &&
                    memcmp(la->ax[dl], lb->ax[dr], (size_t)la->n[dl]) == 0;
        if (same) {
            src = la;
            sd = dl;
        } else if (la->n[dl] > 0 && lb->n[dr] == 0 && lbytes > out_bytes) {
            src = la;
            sd = dl;
        } else if (lb->n[dr] > 0 && la->n[dl] == 0 && rbytes > out_bytes) {
            src = lb;
            sd = dr;
        }
        if (!src)
            continue;
        unsigned m = 0;
        for (int j = 0; j < src->n[sd]; j++)
            m |= 1u << src->ax[sd][j];
        if (!same && (m & ss__layout_used(want)))
            continue; /* one-sided: only while the output does not need the axes */
        if (m & partial)
            continue;
        cn[k] = src->n[sd];
        memcpy(cax[k], src->ax[sd], SS_MAX_AXES);
        partial |= m;
    }
    if (partial)
        cheaper_alternative(s, n, la, lb, want, partial, cn, &partial);
    /* Batch and free dims keep the output's axes minus the partial ones. */
    ss__layout local_out = *want;
    for (int d = 0; d < n->rank; d++) {
        int keep = 0;
        for (int j = 0; j < want->n[d]; j++)
            if (!((partial >> want->ax[d][j]) & 1u))
                local_out.ax[d][keep++] = want->ax[d][j];
        /* A dim keeps only a leading run of its axes, so blocks stay whole. */
        if (keep != want->n[d]) {
            keep = 0;
            while (keep < want->n[d] && !((partial >> want->ax[d][keep]) & 1u))
                keep++;
        }
        local_out.n[d] = (uint8_t)keep;
    }
    want = &local_out;
    ss__layout_replicated(&A, ln->rank);
    ss__layout_replicated(&B, rn->rank);
    for (int k = 0; k < n->nb; k++) {
        A.n[n->lb[k]] = want->n[k];
        memcpy(A.ax[n->lb[k]], want->ax[k], SS_MAX_AXES);
        B.n[n->rb[k]] = want->n[k];
        memcpy(B.ax[n->rb[k]], want->ax[k], SS_MAX_AXES);
    }
    int pos = n->nb;
    for (int d = 0; d < ln->rank; d++)
        if (!((lspecial >> d) & 1u)) {
            A.n[d] = want->n[pos];
            memcpy(A.ax[d], want->ax[pos], SS_MAX_AXES);
            pos++;
        }
    for (int d = 0; d < rn->rank; d++)
        if (!((rspecial >> d) & 1u)) {
            B.n[d] = want->n[pos];
            memcpy(B.ax[d], want->ax[pos], SS_MAX_AXES);
            pos++;
        }
    for (int k = 0; k < n->nc; k++) {
        A.n[n->lc[k]] = B.n[n->rc[k]] = cn[k];
        memcpy(A.ax[n->lc[k]], cax[k], SS_MAX_AXES);
        memcpy(B.ax[n->rc[k]], cax[k], SS_MAX_AXES);
    }
    out_l = local_out;
    int in[2], out;
    if (!partial) {
        ss_status wst;
        if (windowed(s, v, 0, &A, &B, &out_l, &wst) || windowed(s, v, 1, &B, &A, &out_l, &wst))
            return wst;
    }
    ss_status st = need(s, n->in[0], &A, &in[0]);
    if (!st)
        st = need(s, n->in[1], &B, &in[1]);
    if (st)
        return st;
    out_l.partial = partial;
    ss__inst i;
    ss__inst_init(&i, SS__INST_KERNEL, v);
    i.dot.nbatch = n->nb;
    i.dot.ncontract = n->nc;
    for (int k = 0; k < n->nb; k++) {
        i.dot.lhs_batch[k] = n->lb[k];
        i.dot.rhs_batch[k] = n->rb[k];
    }
    for (int k = 0; k < n->nc; k++) {
        i.dot.lhs_contract[k] = n->lc[k];
        i.dot.rhs_contract[k] = n->rc[k];
    }
    if ((st = emit_kernel(s, v, 2, in, &out_l, &i, &out)))
        return st;
    add_version(s, v, out, &out_l);
    return SS_OK;
}

/* Gather and scatter: the operands brought to the layouts gather_spmd.c's
 * rule picks from their own; the kernel learns where its operand block
 * lies when it indexes across shards or leaves a pending sum (exec.c's
 * run_placed_index); the result may be a pending sum over those axes. */
static ss_status lower_gather(lower *s, ss_value v, const ss__layout *want)
{
    (void)want;
    const ss__node *n = &s->p->nodes[v];
    bool scatter = n->op == SS__OP_SCATTER;
    ss__gather_part part;
    ss__gather_partition(s->p, n, &s->vals[n->in[0]].layout[0], &s->vals[n->in[1]].layout[0],
                         scatter ? &s->vals[n->in[2]].layout[0] : NULL, &part);
    int in[3], out;
    ss_status st = need(s, n->in[0], &part.operand, &in[0]);
    if (!st)
        st = need(s, n->in[1], &part.indices, &in[1]);
    if (!st && scatter)
        st = need(s, n->in[2], &part.updates, &in[2]);
    if (st)
        return st;
    ss__inst i;
    ss__inst_init(&i, SS__INST_KERNEL, v);
    bool placed = part.partial != 0;
    for (int d = 0; d < s->p->nodes[n->in[0]].rank; d++) {
        i.sn[d] = part.masked[d];
        placed = placed || part.masked[d];
    }
    if (placed) {
        i.layout = part.operand;
        i.layout.partial = scatter ? part.partial : 0;
        ss__buf_printf(&s->line, "; %s",
                       !scatter ? "each device gathers from its block, masked, summed later"
                       : part.partial ? "each device adds its updates, summed later"
                                      : "each device writes what lands in its block");
    }
    ss__layout l = part.result;
    l.partial = 0;
    if ((st = emit_kernel(s, v, n->nin, in, &l, &i, &out)))
        return st;
    add_version(s, v, out, &part.result);
    return SS_OK;
}

static ss_status lower_scatter(lower *s, ss_value v, const ss__layout *want)
{
    return lower_gather(s, v, want);
}

static ss_status lower_leaf(lower *s, ss_value v, const ss__layout *want)
{
    (void)want;
    const ss__node *n = &s->p->nodes[v];
    const ss__layout *l = &s->p->layouts[v];
    ss__inst i;
    int out;
    ss_status st;
    if (n->op == SS__OP_CONSTANT) {
        ss__inst_init(&i, SS__INST_CONST, v);
        ss__layout r; /* every device makes it whole */
        ss__layout_replicated(&r, n->rank);
        if ((st = emit_kernel(s, v, 0, NULL, &r, &i, &out)))
            return st;
        s->e->insts[s->e->ninsts - 1].kind = SS__INST_CONST;
        add_version(s, v, out, &r);
        return SS_OK;
    }
    if ((st = check_even(s, v, l)))
        return st;
    ss__inst_init(&i, SS__INST_LOAD, v);
    i.index = s->input_no++;
    i.layout = *l;
    if ((st = kernel_out(s, v, l, &out)))
        return st;
    i.out = out;
    s->e->inputs[i.index] = v;
    if ((st = emit(s, &i)))
        return st;
    add_version(s, v, out, l);
    return SS_OK;
}

static ss_status lower_constrain(lower *s, ss_value v, const ss__layout *want)
{
    int buf;
    ss_status st = need(s, s->p->nodes[v].in[0], want, &buf);
    if (!st)
        add_version(s, v, buf, want);
    return st;
}

/* shard_map boundaries and explicit collectives. Inside a region every
 * value is a per-device block (layout "replicated" over its block shape),
 * so ordinary ops lower to local kernels with no reshard at all. */

/* The operand in the in_specs layout; its block is the local value. */
static ss_status lower_manual_in(lower *s, ss_value v, const ss__layout *want)
{
    (void)want;
    const ss__node *n = &s->p->nodes[v];
    ss__layout local;
    ss__layout_replicated(&local, n->rank);
    int buf;
    ss_status st = need(s, n->in[0], &n->fixed, &buf);
    if (st)
        return st;
    add_version(s, v, buf, &local);
    ss__buf_puts(&s->line, ": enters shard_map");
    return SS_OK;
}

/* A loop: carries brought to their layout in the loop (the layout of the
 * loop's results: XLA reshards at the loop boundary when they differ), xs
 * gathered along their leading dim, invariants as they are; the regions
 * compile once (loop.c) and each result starts in its loop layout (the ys
 * stacked with their leading dim unsharded), resharded by its own node. */
static ss_status lower_loop(lower *s, ss_value v, const ss__layout *want_v)
{
    (void)want_v;
    const ss__node *n = &s->p->nodes[v];
    const ss__loop *l = ss__node_loop(s->p, n);
    int in[SS__MAX_INPUTS], nres = l->ncarry + l->nys;
    ss__layout want[SS__MAX_INPUTS], lres[64];
    ss_status st = SS_OK;
    if (nres < 1 || nres > 64)
        return ss__fail(SS_ERR_UNSUPPORTED, "compile: a loop with %d results", nres);
    for (int k = 0; k < n->nin; k++) {
        if (k < l->ncarry)
            want[k] = s->p->layouts[ss__loop_result(s->p, v, k)];
        else if (k < l->ncarry + l->nxs)
            ss__loop_stack_layout(&s->p->layouts[n->in[k]], &want[k]);
        else
            want[k] = s->p->layouts[n->in[k]];
        want[k].partial = 0;
        if ((st = need(s, n->in[k], &want[k], &in[k])))
            return st;
    }
    int outs[64];
    for (int k = 0; k < nres && !st; k++) {
        if (k < l->ncarry)
            lres[k] = s->p->layouts[ss__loop_result(s->p, v, k)];
        else
            ss__loop_stack_layout(&s->p->layouts[ss__loop_result(s->p, v, k)], &lres[k]);
        if (!(st = check_even(s, ss__loop_result(s->p, v, k), &lres[k])))
            st = kernel_out(s, ss__loop_result(s->p, v, k), &lres[k], &outs[k]);
    }
    int index;
    if (!st)
        st = ss__loop_lower(s->e, s->p, v, in, outs, &index);
    if (st)
        return st;
    ss__inst i;
    ss__inst_init(&i, SS__INST_LOOP, v);
    i.nin = n->nin;
    memcpy(i.in, in, sizeof(int) * (size_t)n->nin);
    i.index = index;
    i.out = outs[0];
    if ((st = emit(s, &i)))
        return st;
    for (int k = 0; k < nres; k++)
        add_version(s, ss__loop_result(s->p, v, k), outs[k], &lres[k]);
    const ss__loop_exec *le = &s->e->loops[index];
    if (l->length >= 0)
        ss__buf_printf(&s->line, ": %lld steps of a body lowered once (%d instructions)",
                       (long long)l->length, le->body->ninsts);
    else
        ss__buf_printf(&s->line, ": while the condition (%d instructions) holds, a body "
                                 "lowered once (%d instructions)",
                       le->cond->ninsts, le->body->ninsts);
    return SS_OK;
}

/* The blocks assembled in the out_specs layout (then resharded to the
 * propagated layout like any result). */
static ss_status lower_manual_out(lower *s, ss_value v, const ss__layout *want)
{
    (void)want;
    const ss__node *n = &s->p->nodes[v];
    add_version(s, v, s->vals[n->in[0]].buf[0], &n->fixed);
    ss__buf_puts(&s->line, ": leaves shard_map");
    return SS_OK;
}

static ss_status lower_collective(lower *s, ss_value v, const ss__layout *want)
{
    (void)want;
    const ss__node *n = &s->p->nodes[v];
    ss__layout local;
    ss__layout_replicated(&local, n->rank);
    ss_coll c = ss__node_coll(s->p, n);
    int64_t npairs = c.npairs;
    int *flat = NULL, buf;
    if (npairs) {
        flat = malloc(sizeof(int) * 2 * (size_t)npairs);
        if (!flat)
            return ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
        for (int64_t k = 0; k < npairs; k++) {
            flat[2 * k] = c.pairs[k][0];
            flat[2 * k + 1] = c.pairs[k][1];
        }
    }
    char desc[256];
    ss__coll_describe(&c, desc, sizeof desc);
    ss__buf_printf(&s->line, "; user %s %s", ss_coll_kind_name(c.kind), desc);
    ss_status st = emit_coll(s, v, &c, s->vals[n->in[0]].buf[0], &buf, npairs, flat);
    free(flat);
    if (!st)
        add_version(s, v, buf, &local);
    return st;
}

/* A loop result: lower_loop gave it its buffer in its loop layout; like
 * any result it is then brought to its propagated layout (lower_node). */
static ss_status lower_loop_result(lower *s, ss_value v, const ss__layout *want)
{
    (void)s, (void)v, (void)want;
    return SS_OK;
}

/*
 * The LOWER column of ops.def. A rule emits node v's instructions and
 * records the buffer of its result (add_version) in the layout it has;
 * `want` is v's propagated layout, which the rule may compute in directly.
 */
typedef ss_status (*lower_rule)(lower *s, ss_value v, const ss__layout *want);
static const lower_rule lower_rules[] = {
#define SS__OP(ID, NAME, NIN, NOUT, FLAGS, SUBNAME, VJP, FWD, BWD, LOWER, EVAL, KERNEL, FLOPS) \
    [SS__OP_##ID] = LOWER,
#include "graph/ops.def"
#undef SS__OP
};
_Static_assert(sizeof lower_rules / sizeof lower_rules[0] == SS__OP_COUNT, "one rule per opcode");

bool ss__lower_has_rule(ss__opcode op) { return (unsigned)op < SS__OP_COUNT && lower_rules[op]; }

/* Lower node v; afterwards vals[v].buf[0] holds it in its propagated layout. */
static ss_status lower_node(lower *s, ss_value v)
{
    const ss__node *n = &s->p->nodes[v];
    const ss__layout *want = &s->p->layouts[v];
    if (!ss__lower_has_rule(n->op))
        return ss__fail(SS_ERR_UNSUPPORTED, "compile: op %s", ss__opcode_name(n));
    ss_status st = lower_rules[n->op](s, v, want);
    if (st || ss__op_is(n->op, SS__OPF_HAS_REGIONS))
        return st; /* an op with regions holds no array: its results do */
    /* Bring the result to its propagated layout; that is its own version.
     * A pending sum whose users only add it stays pending (see above). */
    lowered *lv = &s->vals[v];
    if (lv->layout[0].partial && s->linear_users[v]) {
        ss__layout tiles = lv->layout[0];
        tiles.partial = 0;
        if (ss__layout_equal(&tiles, want)) {
            lv->nversions = 1;
            ss__buf_puts(&s->line, "; stays a pending sum for the additions that use it");
            return SS_OK;
        }
    }
    int buf;
    ss__layout have = lv->layout[0];
    if ((st = reshard(s, v, lv->buf[0], &have, want, &buf)))
        return st;
    lv->buf[0] = buf;
    lv->layout[0] = *want;
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
    free(e->ledger_start);
    free(e);
}

static void explain_head(lower *s, ss_value v)
{
    const ss__node *n = &s->p->nodes[v];
    ss__buf_clear(&s->line);
    s->ncoll_in_line = 0;
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
    if (!e->borrowed || !e->kept)
        return ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
    for (int k = 0; k < e->ninsts; k++)
        if (e->insts[k].kind == SS__INST_LOAD)
            e->borrowed[e->insts[k].out] = 1;
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
    if (st)
        return st;
    ss_executable *e = calloc(1, sizeof *e);
    lower s = {e,    p, p->mesh, calloc((size_t)(p->n ? p->n : 1), sizeof(lowered)), NULL, {0}, 0,
               0,    want};
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
        if (n->op != SS__OP_CONSTANT && n->op != SS__OP_INPUT && n->op != SS__OP_PARAM) {
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
        i.layout = s.vals[v].layout[0];
        if (want) { /* a region's result, in the layout its loop carries it */
            if ((st = need(&s, v, &want[o], &buf)))
                break;
            i.layout = want[o];
        }
        i.in[i.nin++] = buf;
        i.out = buf;
        st = emit(&s, &i);
    }
    if (!st && !e->opts.no_fusion)
        st = ss__fuse(e);
    if (!st)
        st = ss__schedule_updates(e);
    if (!st)
        st = ss__add_frees(e);
    if (!st && want)
        st = mark_region_buffers(e);
    ss__buf_free(&s.line);
    free(s.vals);
    free(s.linear_users);
    if (!st && e->explain.oom)
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
