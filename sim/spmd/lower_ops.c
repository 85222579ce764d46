/*
 * lower_ops.c — the LOWER rules of ops.def other than the dot's (lower_dot.c):
 * elementwise, shape, reduction, gather/scatter, leaves, constraints,
 * shard_map boundaries, collectives and loops. Each brings its operands to
 * the layouts the op needs (ss__lower_need), emits its kernel and records
 * its result's layout (ss__lower_add_version).
 */
#include "lower_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* GSPMD's sort along a sharded dim: the sorted dim's axes move to the
 * first other dim they divide, minor-most (an all-to-all, then a local
 * sort), instead of being gathered; *l (the sorted dim already whole) gets
 * them. Nothing moves when no dim fits (the sorted dim is gathered). */
static void sort_axes_move(const ss__lowering *s, const ss__node *n, const ss__layout *want,
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
ss_status ss__lower_same_layout(ss__lowering *s, ss_value v, const ss__layout *want)
{
    const ss__node *n = &s->p->nodes[v];
    int in[SS__MAX_INPUTS];
    ss_status st;
    if (ss__lower_add_of_pending(s, v)) {
        ss__layout l = s->vals[n->in[0]].layout;
        int out, ins[2] = {s->vals[n->in[0]].buf[0], s->vals[n->in[1]].buf[0]};
        ss__inst i;
        ss__inst_init(&i, SS__INST_KERNEL, v);
        if ((st = ss__lower_emit_kernel(s, v, 2, ins, &l, &i, &out)))
            return st;
        ss__buf_puts(&s->line, "; adds pending sums, reduced once later");
        ss__lower_add_version(s, v, out, &l);
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
        if ((st = ss__lower_need(s, n->in[k], s->p->nodes[n->in[k]].rank == n->rank ? &l : &scalar,
                                 &in[k])))
            return st;
    ss__inst i;
    ss__inst_init(&i, SS__INST_KERNEL, v);
    int out;
    if ((st = ss__lower_emit_kernel(s, v, n->nin, in, &l, &i, &out)))
        return st;
    ss__lower_add_version(s, v, out, &l);
    return SS_OK;
}

ss_status ss__lower_transpose(ss__lowering *s, ss_value v, const ss__layout *want)
{
    const ss__node *n = &s->p->nodes[v];
    ss__layout l;
    ss__layout_replicated(&l, n->rank);
    for (int d = 0; d < n->rank; d++) {
        l.n[n->dims[d]] = want->n[d];
        memcpy(l.ax[n->dims[d]], want->ax[d], SS_MAX_AXES);
    }
    int in, out;
    ss_status st = ss__lower_need(s, n->in[0], &l, &in);
    if (st)
        return st;
    ss__inst i;
    ss__inst_init(&i, SS__INST_KERNEL, v);
    if ((st = ss__lower_emit_kernel(s, v, 1, &in, want, &i, &out)))
        return st;
    ss__lower_add_version(s, v, out, want);
    return SS_OK;
}

ss_status ss__lower_broadcast(ss__lowering *s, ss_value v, const ss__layout *want)
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
    ss_status st = ss__lower_need(s, n->in[0], &l, &in);
    ss__inst i;
    ss__inst_init(&i, SS__INST_KERNEL, v);
    if (!st)
        st = ss__lower_emit_kernel(s, v, 1, &in, want, &i, &out);
    if (!st)
        ss__lower_add_version(s, v, out, want);
    return st;
}

ss_status ss__lower_reshape(ss__lowering *s, ss_value v, const ss__layout *want)
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
        st = ss__lower_need(s, n->in[0], &src, &in);
        if (!st)
            st = ss__lower_emit_kernel(s, v, 1, &in, want, &i, &out);
        if (!st)
            ss__lower_add_version(s, v, out, want);
        return st;
    }
    /* Otherwise: replicate, reshape the whole array, slice what is wanted. */
    ss__layout_replicated(&src, x->rank);
    ss__layout_replicated(&repl, n->rank);
    if ((st = ss__lower_need(s, n->in[0], &src, &in)))
        return st;
    if ((st = ss__lower_emit_kernel(s, v, 1, &in, &repl, &i, &out)))
        return st;
    s->vals[v].nversions = 0;
    ss__lower_add_version(s, v, out, &repl);
    int sliced;
    if ((st = ss__lower_need(s, v, want, &sliced)))
        return st;
    /* Make the wanted layout the value's own version. */
    s->vals[v].buf[0] = sliced;
    s->vals[v].layout = *want;
    s->vals[v].nversions = 1;
    return SS_OK;
}

ss_status ss__lower_one_hot(ss__lowering *s, ss_value v, const ss__layout *want)
{
    const ss__node *n = &s->p->nodes[v];
    ss__layout l = *want, w = *want;
    l.rank = n->rank - 1;
    w.n[n->rank - 1] = 0; /* the class dim is never split */
    int in, out;
    ss_status st = ss__lower_need(s, n->in[0], &l, &in);
    ss__inst i;
    ss__inst_init(&i, SS__INST_KERNEL, v);
    if (!st)
        st = ss__lower_emit_kernel(s, v, 1, &in, &w, &i, &out);
    if (!st)
        ss__lower_add_version(s, v, out, &w);
    return st;
}

ss_status ss__lower_reduce(ss__lowering *s, ss_value v, const ss__layout *want)
{
    (void)want;
    const ss__node *n = &s->p->nodes[v];
    const ss__node *x = &s->p->nodes[n->in[0]];
    const ss__lowered *lx = &s->vals[n->in[0]];
    ss__layout l = lx->layout, r;
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
        ss_status st = ss__lower_need(s, n->in[0], &l, &in);
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
    if (across && (ss__lower_uneven_dims(s, n->in[0], &l) & n->axes_mask)) {
        /* Padding along a reduced dim becomes the identity first (GSPMD's
         * PadWithValue: XLA's select before the reduce). */
        ss_status st = ss__lower_mask(s, &i, &l, NULL,
                                      n->sub == SS_REDUCE_SUM   ? 0.0
                                      : n->sub == SS_REDUCE_MAX ? -INFINITY
                                                                : INFINITY);
        if (st)
            return st;
        ss__buf_puts(&s->line, "; padding masked");
    }
    ss_status st = ss__lower_emit_kernel(s, v, 1, &in, &r, &i, &out);
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
        ss__lower_local_shape(s, n, &r, c.shape);
        int axes[SS_MAX_AXES], na = 0;
        for (int a = 0; a < s->mesh->naxes; a++)
            if ((reduced_axes >> a) & 1u)
                axes[na++] = a;
        ss__lower_coll_axes(s, &c, na, axes);
        ss__buf_printf(&s->line, "; all_reduce %s over the reduced dims' axes",
                       n->sub == SS_REDUCE_MAX ? "max" : "min");
        if ((st = ss__lower_emit_coll(s, v, &c, out, &out, 0, NULL)))
            return st;
    } else {
        r.partial = reduced_axes;
    }
    ss__lower_add_version(s, v, out, &r);
    return SS_OK;
}


/* Gather and scatter: the operands brought to the layouts gather_spmd.c's
 * rule picks from their own; the kernel learns where its operand block
 * lies when it indexes across shards or leaves a pending sum (exec_kernels.c's
 * run_placed_index); the result may be a pending sum over those axes. */
ss_status ss__lower_gather(ss__lowering *s, ss_value v, const ss__layout *want)
{
    (void)want;
    const ss__node *n = &s->p->nodes[v];
    bool scatter = n->op == SS__OP_SCATTER;
    ss__gather_part part;
    ss__gather_partition(s->p, n, &s->vals[n->in[0]].layout, &s->vals[n->in[1]].layout,
                         scatter ? &s->vals[n->in[2]].layout : NULL, &part);
    int in[3], out;
    /* A scatter's padded index or update rows would land in real rows. */
    if (scatter && (ss__lower_uneven_dims(s, n->in[1], &part.indices) ||
                    ss__lower_uneven_dims(s, n->in[2], &part.updates)))
        return ss__fail(SS_ERR_UNSUPPORTED,
                        "compile: %%%d (scatter): its indices or updates are split unevenly; "
                        "uneven shards reach a scatter only through its operand",
                        (int)v);
    ss_status st = ss__lower_need(s, n->in[0], &part.operand, &in[0]);
    if (!st)
        st = ss__lower_need(s, n->in[1], &part.indices, &in[1]);
    if (!st && scatter)
        st = ss__lower_need(s, n->in[2], &part.updates, &in[2]);
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
    if ((st = ss__lower_emit_kernel(s, v, n->nin, in, &l, &i, &out)))
        return st;
    ss__lower_add_version(s, v, out, &part.result);
    return SS_OK;
}

ss_status ss__lower_scatter(ss__lowering *s, ss_value v, const ss__layout *want)
{
    return ss__lower_gather(s, v, want);
}

ss_status ss__lower_leaf(ss__lowering *s, ss_value v, const ss__layout *want)
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
        if ((st = ss__lower_emit_kernel(s, v, 0, NULL, &r, &i, &out)))
            return st;
        s->e->insts[s->e->ninsts - 1].kind = SS__INST_CONST;
        ss__lower_add_version(s, v, out, &r);
        return SS_OK;
    }
    /* A region's inputs are its loop's carries, which may be uneven. */
    if (!s->want && (st = ss__lower_check_even(s, v, l)))
        return st;
    ss__inst_init(&i, SS__INST_LOAD, v);
    i.index = s->input_no++;
    i.layout = *l;
    if ((st = ss__lower_kernel_out(s, v, l, &out)))
        return st;
    i.out = out;
    s->e->inputs[i.index] = v;
    if ((st = ss__lower_emit(s, &i)))
        return st;
    ss__lower_add_version(s, v, out, l);
    return SS_OK;
}

/* rng_bit_generator: the state replicated, each device computes its own
 * block of the bits in `want` (the kernel places it by the device's
 * coordinates, i.layout) or the whole new state. XLA computes the bits
 * whole and dynamic-slices its block: the same bits, no collective. A
 * partial or uneven `want` is computed replicated and brought to it. */
ss_status ss__lower_rng(ss__lowering *s, ss_value v, const ss__layout *want)
{
    const ss__node *n = &s->p->nodes[v];
    ss__layout rs, l;
    ss__layout_replicated(&rs, 1);
    ss__layout_replicated(&l, n->rank);
    if (n->sub == 0 && want->known && !want->partial && !ss__lower_uneven_dims(s, v, want))
        l = *want;
    int in, out;
    ss_status st = ss__lower_need(s, n->in[0], &rs, &in);
    if (st)
        return st;
    ss__inst i;
    ss__inst_init(&i, SS__INST_KERNEL, v);
    i.layout = l;
    if ((st = ss__lower_emit_kernel(s, v, 1, &in, &l, &i, &out)))
        return st;
    ss__lower_add_version(s, v, out, &l);
    return SS_OK;
}

ss_status ss__lower_constrain(ss__lowering *s, ss_value v, const ss__layout *want)
{
    int buf;
    ss_status st = ss__lower_need(s, s->p->nodes[v].in[0], want, &buf);
    if (!st)
        ss__lower_add_version(s, v, buf, want);
    return st;
}

/* device_put to a memory kind: each device's block of the operand, in the
 * result's layout, copied into a buffer of the target memory (its host's
 * arena, or its own); nothing crosses devices. */
ss_status ss__lower_memory(ss__lowering *s, ss_value v, const ss__layout *want)
{
    const ss__node *n = &s->p->nodes[v];
    int in, out;
    ss_status st = ss__lower_need(s, n->in[0], want, &in);
    if (!st)
        st = ss__lower_check_even(s, v, want);
    if (!st)
        st = ss__lower_kernel_out(s, v, want, &out);
    if (st)
        return st;
    ss__bufdesc *ob = &s->e->bufs[out];
    ob->host = n->sub != SS_MEMORY_DEVICE;
    ss__inst i;
    ss__inst_init(&i, SS__INST_TRANSFER, v);
    i.nin = 1;
    i.in[0] = in;
    i.out = out;
    if ((st = ss__lower_emit(s, &i)))
        return st;
    ss__lower_add_version(s, v, out, want);
    bool from_host = s->e->bufs[in].host;
    char b[32];
    ss__fmt_bytes(b, sizeof b, (double)ob->bytes);
    if (from_host != ob->host)
        ss__buf_printf(&s->line, ": %s, %s per device over the host link",
                       ob->host ? "device to host" : "host to device", b);
    else
        ss__buf_printf(&s->line, ": a copy within %s memory, %s per device",
                       ob->host ? "host" : "device", b);
    return SS_OK;
}

/* shard_map boundaries and explicit collectives. Inside a region every
 * value is a per-device block (layout "replicated" over its block shape),
 * so ordinary ops lower to local kernels with no reshard at all. */

/* The operand in the in_specs layout; its block is the local value. */
ss_status ss__lower_manual_in(ss__lowering *s, ss_value v, const ss__layout *want)
{
    (void)want;
    const ss__node *n = &s->p->nodes[v];
    ss__layout local;
    ss__layout_replicated(&local, n->rank);
    int buf;
    ss_status st = ss__lower_need(s, n->in[0], &n->fixed, &buf);
    if (st)
        return st;
    ss__lower_add_version(s, v, buf, &local);
    ss__buf_puts(&s->line, ": enters shard_map");
    return SS_OK;
}

/* A loop: carries brought to their layout in the loop (the layout of the
 * loop's results: XLA reshards at the loop boundary when they differ), xs
 * gathered along their leading dim, invariants as they are; the regions
 * compile once (loop.c) and each result starts in its loop layout (the ys
 * stacked with their leading dim unsharded), resharded by its own node. */
/* Carry k of loop v lives in host memory (memory.c) but its initial value
 * in device memory (buffer *in): the loop starts from a copy put there (a
 * device-to-host transfer), as XLA's offloader copies such an operand. */
static ss_status carry_to_host(ss__lowering *s, ss_value v, int k, const ss__layout *l, int *in)
{
    ss_value r = ss__loop_result(s->p, v, k);
    if (ss__value_memory(s->p, r) == SS_MEMORY_DEVICE || s->e->bufs[*in].host)
        return SS_OK;
    int out;
    ss_status st = ss__lower_kernel_out(s, r, l, &out);
    if (st)
        return st;
    s->e->bufs[out].host = true;
    ss__inst i;
    ss__inst_init(&i, SS__INST_TRANSFER, s->p->nodes[v].in[k]);
    i.nin = 1;
    i.in[0] = *in;
    i.out = out;
    *in = out;
    char b[32];
    ss__fmt_bytes(b, sizeof b, (double)s->e->bufs[out].bytes);
    ss__buf_printf(&s->line, "; carry %d into host memory, device to host, %s per device", k, b);
    return ss__lower_emit(s, &i);
}

ss_status ss__lower_loop(ss__lowering *s, ss_value v, const ss__layout *want_v)
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
        if ((st = ss__lower_need(s, n->in[k], &want[k], &in[k])))
            return st;
        if (k < l->ncarry && (st = carry_to_host(s, v, k, &want[k], &in[k])))
            return st;
    }
    int outs[64];
    for (int k = 0; k < nres && !st; k++) {
        if (k < l->ncarry)
            lres[k] = s->p->layouts[ss__loop_result(s->p, v, k)];
        else
            ss__loop_stack_layout(&s->p->layouts[ss__loop_result(s->p, v, k)], &lres[k]);
        /* A carry may stay uneven: the body computes on its padded blocks
         * (XLA's compiled text of u_while gathers only after the loop). */
        if (k < l->ncarry || !(st = ss__lower_check_even(s, ss__loop_result(s->p, v, k), &lres[k])))
            st = ss__lower_kernel_out(s, ss__loop_result(s->p, v, k), &lres[k], &outs[k]);
    }
    int index;
    if (!st)
        st = ss__loop_lower(s->e, s->p, v, in, outs, &index);
    if (st)
        return st;
    int aliased = ss__loop_alias_passed(s->e, index, n->nin, in, outs);
    if ((st = ss__lower_emit_region(s, v, in, index, outs[0])))
        return st;
    for (int k = 0; k < nres; k++)
        ss__lower_add_version(s, ss__loop_result(s->p, v, k), outs[k], &lres[k]);
    const ss__loop_exec *le = &s->e->loops[index];
    if (aliased)
        ss__buf_printf(&s->line, "; %d carr%s passed through unchanged, no copy", aliased,
                       aliased == 1 ? "y" : "ies");
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
ss_status ss__lower_manual_out(ss__lowering *s, ss_value v, const ss__layout *want)
{
    (void)want;
    const ss__node *n = &s->p->nodes[v];
    ss__lower_add_version(s, v, s->vals[n->in[0]].buf[0], &n->fixed);
    ss__buf_puts(&s->line, ": leaves shard_map");
    return SS_OK;
}

ss_status ss__lower_collective(ss__lowering *s, ss_value v, const ss__layout *want)
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
    ss_status st = ss__lower_emit_coll(s, v, &c, s->vals[n->in[0]].buf[0], &buf, npairs, flat);
    free(flat);
    if (!st)
        ss__lower_add_version(s, v, buf, &local);
    return st;
}

/* A loop result: ss__lower_loop gave it its buffer in its loop layout; like
 * any result it is then brought to its propagated layout (lower_node). */
ss_status ss__lower_loop_result(ss__lowering *s, ss_value v, const ss__layout *want)
{
    (void)s, (void)v, (void)want;
    return SS_OK;
}
