/*
 * exec.c — running a compiled program on the virtual devices.
 *
 * Every device thread walks the same instruction list (lower.h) in order:
 * it allocates each output from its own arena, runs kernels on its local
 * blocks, meets its peers in collectives, and frees buffers after their
 * last use. What differs between devices is only data: the block of an
 * input it loads, the sub-block a SLICE keeps, and whether it writes a
 * program output (only the replica 0 of each block does, so host writes
 * never overlap). On any error a device frees what it holds and returns
 * the status; peers stuck in a collective are released by the runtime.
 *
 * Replicated work is done once (replicas.h): an instruction whose operands
 * are identical on a group of devices runs on the group's first device,
 * and the others copy its result when they need it (every device still
 * allocates its buffers, so memory is counted as before), in a loop's
 * body and condition too (each region runs by its loop's plan);
 * SHARDSIM_REPLICAS=each runs everything everywhere, the naive path.
 */
#include "lower.h"
#include "replicas.h"

#include <stdlib.h>
#include <string.h>

typedef struct run {
    ss_executable *e;
    ss_context *ctx;
    const void *const *inputs;
    void *const *outputs;
    void ***ptrs; /* ptrs[device id][buffer] */
    /* Device-resident mode (ss_executable_run_arrays): */
    ss_array *const *in_arrays;
    const bool *donate;
    void ***outp;           /* outp[output][mesh position]: the output's shard */
    unsigned char *borrowed; /* per buffer: an input array's shard, not ours to free */
    unsigned char *kept;     /* per buffer: becomes an output array's shard */
    int *colls_done;         /* per device id: collectives run so far */
    /* Region mode (a loop's cond or body, ss__exec_region): */
    void *const *args;       /* LOAD k binds args[k] */
    const bool *arg_donate;  /* per argument: ours to write over, or NULL */
    bool *arg_consumed;      /* per argument: written over (ss__exec_region) */
    void **res;              /* STORE k hands its buffer to res[k] */
    const ss__replicas *rep; /* replica groups, NULL: every device computes all */
} run;

static void coords_of(const ss_mesh *m, int pos, int64_t c[]) { ss_mesh_coords(m, pos, c); }

/* Copy a block between a big and a small row-major array: the small one has
 * shape `small`, placed at `start` inside `big`. `to_small` picks the
 * direction. A padded block of an uneven shard may reach past the end of
 * `big` (or start past it): only the part inside is copied; into the small
 * array the rest is zeros (XLA pads with 0 before its dynamic-slice). */
static void copy_block(int rank, const int64_t big[], const int64_t small[],
                       const int64_t start[], size_t esize, const char *src, char *dst,
                       bool to_small)
{
    if (rank == 0) {
        memcpy(dst, src, esize);
        return;
    }
    int64_t valid[SS_MAX_RANK] = {0};
    bool clipped = false;
    for (int d = 0; d < rank; d++) {
        int64_t v = big[d] - start[d];
        valid[d] = v < 0 ? 0 : v > small[d] ? small[d] : v;
        clipped = clipped || valid[d] < small[d];
    }
    size_t row = (size_t)small[rank - 1] * esize, vrow = (size_t)valid[rank - 1] * esize;
    int64_t idx[SS_MAX_RANK] = {0};
    int64_t rows = 1;
    for (int d = 0; d < rank - 1; d++)
        rows *= small[d];
    if (clipped && to_small)
        memset(dst, 0, (size_t)rows * row);
    for (int64_t r = 0; r < rows; r++) {
        bool inside = vrow > 0;
        for (int d = 0; d < rank - 1 && inside; d++)
            inside = idx[d] < valid[d];
        if (inside) {
            int64_t off = 0;
            for (int d = 0; d < rank; d++)
                off = off * big[d] + start[d] + (d < rank - 1 ? idx[d] : 0);
            size_t boff = (size_t)off * esize, soff = (size_t)r * row;
            if (to_small)
                memcpy(dst + soff, src + boff, vrow);
            else
                memcpy(dst + boff, src + soff, vrow);
        }
        for (int d = rank - 2; d >= 0; d--) {
            if (++idx[d] < small[d])
                break;
            idx[d] = 0;
        }
    }
}

static ss__tensor tensor_of(const ss__bufdesc *b, void *data)
{
    ss__tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = b->dtype;
    t.rank = b->rank;
    memcpy(t.shape, b->shape, sizeof(int64_t) * (size_t)b->rank);
    t.data = data;
    return t;
}

/* Mask the padding of operand k of kernel i in place (ss__inst.mask_in):
 * along each dim of its layout, the device's block b of length L holds
 * [b*L, b*L + L) of which the part past the global size is padding. */
static void mask_padding(const ss_executable *e, const ss__inst *i, int k, const int64_t c[],
                         void *data)
{
    const ss__layout *l = &i->mask_in[k];
    const ss__bufdesc *b = &e->bufs[i->in[k]];
    const ss__node *n = &e->program->nodes[b->value];
    int64_t valid[SS_MAX_RANK];
    for (int d = 0; d < b->rank; d++) {
        int64_t first = ss__exec_block_index(e->mesh, l, d, 0, l->n[d], c) * b->shape[d];
        int64_t v = n->shape[d] - first;
        valid[d] = v < 0 ? 0 : v > b->shape[d] ? b->shape[d] : v;
    }
    ss__tensor t = tensor_of(b, data);
    ss__k_fill_outside(&t, valid, i->mask_value);
}

ss_status ss__inst_work_bytes(const ss_executable *e, const ss__inst *i, size_t *bytes)
{
    *bytes = 0;
    if (i->kind != SS__INST_KERNEL || e->program->nodes[i->node].op != SS__OP_DOT)
        return SS_OK;
    ss__tensor a = tensor_of(&e->bufs[i->in[0]], NULL), b = tensor_of(&e->bufs[i->in[1]], NULL);
    return ss__k_dot_general_work_bytes(&a, &b, &i->dot, e->bufs[i->out].dtype, bytes);
}

static ss_status take_result(run *r, int id, const ss__inst *i, int res, void **ptr,
                             const void **unref);
static bool writes_shared(const run *r, const ss__inst *i, int res, bool leader);

/* A KERNEL instruction: its result in a new buffer or over a dying
 * operand (take_result), then its scratch, then the kernel. */
static ss_status run_kernel(run *r, ss_device *dev, const ss__inst *i, const int64_t c[],
                            void **ptr, bool leader)
{
    ss_executable *e = r->e;
    const ss__node *n = &e->program->nodes[i->node];
    ss__tensor in[SS__MAX_INPUTS];
    for (int k = 0; k < i->nin; k++)
        in[k] = tensor_of(&e->bufs[i->in[k]], ptr[i->in[k]]);
    void *work = NULL;
    size_t work_bytes = 0;
    int id = ss_device_id(dev);
    /* A result over a shared operand gets the device's own block while the
     * kernel reads the shared bytes (unref: dropped once it has); a result
     * its replicas will share is written into a new stored block (an
     * in-place dynamic_update_slice then copies its operand in whole). */
    const void *unref = NULL;
    ss_status st = take_result(r, id, i, 0, ptr, &unref);
    if (!st && writes_shared(r, i, 0, leader))
        st = ss__device_share_new(r->ctx, id, &ptr[i->out], e->bufs[i->out].bytes);
    ss__tensor out = tensor_of(&e->bufs[i->out], ptr[i->out]);
    if (!st)
        st = ss__inst_work_bytes(e, i, &work_bytes);
    if (!st && work_bytes)
        st = ss_device_alloc(r->ctx, id, work_bytes, "dot scratch", &work);
    if (st || !leader) { /* a replica: the group's leader computes (replicas.h) */
        if (work)
            ss_device_free(r->ctx, id, work);
        ss__stored_unref(unref);
        return st;
    }
    ss_device_kernel_begin(dev, ss__opcode_name(n));
    /* Padding is masked in place, except in a view (shared with other
     * devices, store.c): there on a private copy for this kernel. */
    void *masked[2] = {NULL, NULL};
    for (int k = 0; k < 2 && k < i->nin && !st; k++) {
        if (!i->mask_in[k].known)
            continue;
        if (ss__device_is_view(r->ctx, id, ptr[i->in[k]])) {
            size_t bytes = e->bufs[i->in[k]].bytes;
            if (!(masked[k] = malloc(bytes ? bytes : 1))) {
                st = ss__fail(SS_ERR_NOMEM, "device %d: out of host memory", id);
                break;
            }
            memcpy(masked[k], ptr[i->in[k]], bytes);
            in[k].data = masked[k];
        }
        mask_padding(e, i, k, c, in[k].data);
    }
    if (!st)
        st = ss__exec_kernel(e, n, i, in, &out, work, work_bytes, c);
    ss_device_kernel_end(dev);
    free(masked[0]);
    free(masked[1]);
    ss__stored_unref(unref);
    if (work)
        ss_device_free(r->ctx, id, work);
    if (st)
        return ss__fail(st, "device %d, %%%d (%s): %s", id, (int)i->node, ss__opcode_name(n),
                        ss_error_message());
    return SS_OK;
}

/* Result `res` of instruction i (0 = out, 1 + k = extra_out[k]): the
 * operand buffer liveness chose for it (ss__inst.share), when that operand
 * is ours to overwrite, else a new buffer. An operand held as a view
 * (device/store.c) gives the result the block charged for it instead (the
 * same charge, so the same accounting as taking the buffer itself) while
 * the kernel still reads the shared bytes: *unref receives the view's data,
 * whose reference the caller drops once the instruction is done (NULL:
 * nothing to drop). Every result taken this way is written whole. */
static ss_status take_result(run *r, int id, const ss__inst *i, int res, void **ptr,
                             const void **unref)
{
    const ss__bufdesc *rb = &r->e->bufs[res == 0 ? i->out : i->extra_out[res - 1]];
    void **dst = &ptr[res == 0 ? i->out : i->extra_out[res - 1]];
    int first = i->share[res];
    bool donated = false;
    if (first >= 0 && r->args) { /* a region: the arguments its loop gives */
        int a = r->e->arg_of[i->in[first]];
        donated = a >= 0 && r->arg_donate && r->arg_donate[a];
    } else if (first >= 0) {
        donated = r->in_arrays && !r->borrowed[i->in[first]];
    }
    int j = ss__inst_taken_operand(i, res, donated);
    *unref = NULL;
    if (j >= 0 && ptr[i->in[j]]) {
        if (r->args && r->e->arg_of[i->in[j]] >= 0)
            r->arg_consumed[r->e->arg_of[i->in[j]]] = true;
        void *own = ss__device_unview(r->ctx, id, ptr[i->in[j]]);
        if (own)
            *unref = ptr[i->in[j]];
        *dst = own ? own : ptr[i->in[j]];
        ptr[i->in[j]] = NULL;
        return SS_OK;
    }
    return ss__exec_alloc(r->ctx, id, rb, dst);
}

static void drop_refs(const void *unref[], int n)
{
    for (int k = 0; k < n; k++)
        ss__stored_unref(unref[k]);
}

/* Does this device write result `res` of replicated instruction i into a
 * stored block its group's followers will view (replicas.h, store.c)? */
static bool writes_shared(const run *r, const ss__inst *i, int res, bool leader)
{
    return leader && r->rep && r->rep->group[i - r->e->insts] &&
           r->rep->need[i - r->e->insts][res] && ss__store_enabled(r->ctx);
}

static ss_status run_fused(run *r, ss_device *dev, const ss__inst *i, void **ptr, bool leader)
{
    ss_executable *e = r->e;
    int id = ss_device_id(dev);
    ss__tensor leaves[SS__MAX_INPUTS], outs[1 + SS__K_FUSED_MAX_EXTRA];
    const void *unref[1 + SS__K_FUSED_MAX_EXTRA] = {NULL};
    for (int k = 0; k < i->nin; k++)
        leaves[k] = tensor_of(&e->bufs[i->in[k]], ptr[i->in[k]]);
    ss_status st = SS_OK;
    int nres = 1 + i->fused.nextra;
    for (int k = 0; k < nres && !st; k++)
        st = take_result(r, id, i, k, ptr, &unref[k]);
    for (int k = 0; k < nres && !st; k++) {
        int b = k == 0 ? i->out : i->extra_out[k - 1];
        if (writes_shared(r, i, k, leader))
            st = ss__device_share_new(r->ctx, id, &ptr[b], e->bufs[b].bytes);
    }
    if (st || !leader) {
        drop_refs(unref, nres);
        return st;
    }
    outs[0] = tensor_of(&e->bufs[i->out], ptr[i->out]);
    for (int k = 0; k < i->fused.nextra; k++)
        outs[1 + k] = tensor_of(&e->bufs[i->extra_out[k]], ptr[i->extra_out[k]]);
    ss_device_kernel_begin(dev, "fused");
    st = ss__k_fused_run(&i->fused, i->nin, leaves, outs);
    ss_device_kernel_end(dev);
    drop_refs(unref, nres);
    if (st)
        return ss__fail(st, "device %d, %%%d (fused): %s", id, (int)i->node, ss_error_message());
    return SS_OK;
}

/* Tell the watcher (ss_executable_watch) about one side of a collective. */
static void watch(const run *r, int id, const ss__inst *i, const ss_coll *coll, int index,
                  int after, const void *data)
{
    ss_executable *e = r->e;
    if (!e->watch)
        return;
    const ss__node *n = &e->program->nodes[i->node];
    const ss__bufdesc *b = &e->bufs[after ? i->out : i->in[0]];
    ss_watch_event ev = {
        .device = id, .after = after, .index = index, .value = i->node,
        .operand = n->op == SS__OP_COLLECTIVE ? n->in[0] : i->node, .coll = coll,
        .dtype = b->dtype, .rank = b->rank, .shape = b->shape, .data = data,
    };
    e->watch(&ev, e->watch_user);
}

/*
 * Instruction k runs on the leader of its replica group (group axes `g`,
 * replicas.h) only: the device's group, leader first, into members[]
 * (device ids, the other axes at this device's coordinates), and whether
 * this device leads it.
 */
static int replica_group(const ss_mesh *m, unsigned g, const int64_t c[], int members[],
                         bool *leader)
{
    int axes[SS_MAX_AXES], na = 0, n = 1;
    *leader = true;
    for (int a = 0; a < m->naxes; a++)
        if ((g >> a) & 1u) {
            axes[na++] = a;
            n *= (int)m->sizes[a];
            *leader = *leader && c[a] == 0;
        }
    for (int k = 0; k < n; k++) {
        int64_t q[SS_MAX_AXES];
        memcpy(q, c, sizeof(int64_t) * (size_t)m->naxes);
        for (int j = na - 1, rest = k; j >= 0; j--) {
            q[axes[j]] = rest % m->sizes[axes[j]];
            rest /= (int)m->sizes[axes[j]];
        }
        int64_t pos = 0;
        for (int a = 0; a < m->naxes; a++)
            pos = pos * m->sizes[a] + q[a];
        members[k] = ss_mesh_device_id(m, (int)pos);
    }
    return n;
}

/* A replicated instruction's results, from its group's leader to the
 * followers that read them (ss__device_share). */
static ss_status share_results(run *r, ss_device *dev, const ss__inst *i, const int64_t c[],
                               void **ptr)
{
    ss_executable *e = r->e;
    int k = (int)(i - e->insts);
    int members[SS_MAX_DEVICES];
    bool leader;
    int n = replica_group(e->mesh, r->rep->group[k], c, members, &leader);
    ss_status st = SS_OK;
    for (int res = 0; res <= (i->kind == SS__INST_FUSED ? i->fused.nextra : 0) && !st; res++)
        if (r->rep->need[k][res]) {
            int b = res == 0 ? i->out : i->extra_out[res - 1];
            st = ss__device_share(dev, members, n, &ptr[b], e->bufs[b].bytes);
        }
    return st;
}

/* Does this device compute instruction i (not a follower of its group)? */
static bool computes(const run *r, const ss__inst *i, const int64_t c[])
{
    if (!r->rep)
        return true;
    unsigned g = r->rep->group[i - r->e->insts];
    for (int a = 0; g && a < r->e->mesh->naxes; a++)
        if (((g >> a) & 1u) && c[a] != 0)
            return false;
    return true;
}

/* A device_put between memories: the block copied into a buffer of the
 * target memory (the host arena's partition of this device, or its own
 * arena), traced as a transfer with its bytes. */
static ss_status run_transfer(run *r, ss_device *dev, const ss__inst *i, const int64_t c[],
                              void **ptr)
{
    const ss__bufdesc *ob = &r->e->bufs[i->out];
    int id = ss_device_id(dev);
    double t0 = ss__now();
    ss_status st;
    if (r->e->program->nodes[i->node].op == SS__OP_DYNAMIC_SLICE) {
        /* The slice of a host buffer read into device memory (memory.c). */
        if ((st = run_kernel(r, dev, i, c, ptr, true)))
            return st;
    } else {
        if ((st = ss__exec_alloc(r->ctx, id, ob, &ptr[i->out])))
            return st;
        memcpy(ptr[i->out], ptr[i->in[0]], ob->bytes);
    }
    bool from_host = r->e->bufs[i->in[0]].host;
    ss__trace(dev, 'X', "transfer",
              from_host == ob->host ? "copy"
              : ob->host            ? "device to host"
                                    : "host to device",
              t0, ss__now(), "bytes", (double)ob->bytes, NULL, 0);
    return SS_OK;
}

static ss_status run_inst(run *r, ss_device *dev, const ss__inst *i, const int64_t c[],
                          void **ptr)
{
    ss_executable *e = r->e;
    const ss_mesh *m = e->mesh;
    int id = ss_device_id(dev);
    const ss__bufdesc *ob = &e->bufs[i->out];
    ss_status st;
    if (i->kind == SS__INST_FREE) {
        int b = i->in[0];
        if (!ptr[b] || (r->borrowed && (r->borrowed[b] || r->kept[b])))
            return SS_OK; /* taken over by a result, or not ours */
        st = ss_device_free(r->ctx, id, ptr[b]);
        ptr[b] = NULL;
        return st;
    }
    if (i->kind == SS__INST_LOOP)
        return ss__loop_run(e, i, r->ctx, dev, r->colls_done, ptr, r->rep);
    if (i->kind == SS__INST_STORE && r->args) {
        r->res[i->index] = ptr[i->in[0]];
        return SS_OK;
    }
    if (i->kind == SS__INST_LOAD && r->args) {
        ptr[i->out] = r->args[i->index];
        return SS_OK;
    }
    if (i->kind == SS__INST_STORE && r->in_arrays) {
        int b = i->in[0], pos = ss_mesh_position_of(m, id);
        if (!r->borrowed[b]) {
            r->outp[i->index][pos] = ptr[b];
            return SS_OK;
        }
        /* The output is a non-donated input unchanged: give it its own copy
         * (another view when the input's shard is a view: same charge). */
        void *copy;
        if (ss__device_is_view(r->ctx, id, ptr[b]))
            return ss__device_alloc_view(r->ctx, id, e->bufs[b].bytes, e->bufs[b].name, ptr[b],
                                         &r->outp[i->index][pos]);
        if ((st = ss__device_alloc_named(r->ctx, id, e->bufs[b].bytes, e->bufs[b].name, &copy)))
            return st;
        memcpy(copy, ptr[b], e->bufs[b].bytes);
        r->outp[i->index][pos] = copy;
        return SS_OK;
    }
    if (i->kind == SS__INST_STORE) {
        const ss__node *n = &e->program->nodes[i->node];
        int64_t start[SS_MAX_RANK], rid = 0;
        unsigned used = ss__layout_used(&i->layout);
        for (int a = 0; a < m->naxes; a++)
            if (!((used >> a) & 1u))
                rid = rid * m->sizes[a] + c[a];
        if (rid != 0)
            return SS_OK;
        for (int d = 0; d < n->rank; d++)
            start[d] = ss__exec_block_index(m, &i->layout, d, 0, i->layout.n[d], c) * ob->shape[d];
        copy_block(n->rank, n->shape, ob->shape, start, ss_dtype_size(n->dtype), ptr[i->in[0]],
                   r->outputs[i->index], false);
        return SS_OK;
    }
    if (i->kind == SS__INST_PLACE) {
        /* Block ((coord + step) mod n) along place_dim of the result. */
        const ss__bufdesc *pb = &e->bufs[i->in[0]];
        int64_t start[SS_MAX_RANK] = {0};
        start[i->place_dim] = ((c[i->place_axis] + i->place_step) % i->place_n) *
                              pb->shape[i->place_dim];
        copy_block(ob->rank, ob->shape, pb->shape, start, ss_dtype_size(ob->dtype),
                   ptr[i->in[0]], ptr[i->out], false);
        return SS_OK;
    }
    if (i->kind == SS__INST_LOAD && r->in_arrays) {
        ptr[i->out] = ss__array_shard_data(r->in_arrays[i->index], ss_mesh_position_of(m, id));
        return SS_OK;
    }
    bool shared = r->rep && r->rep->group[i - e->insts];
    if (i->kind == SS__INST_FUSED) {
        st = run_fused(r, dev, i, ptr, computes(r, i, c));
        return st || !shared ? st : share_results(r, dev, i, c, ptr);
    }
    if (i->kind == SS__INST_COLL) {
        const void *in = ptr[i->in[0]];
        ss_coll coll = i->coll;
        if (i->pairs_at >= 0)
            coll.pairs = (const int (*)[2]) & e->pairs[i->pairs_at];
        int index = r->colls_done[id]++;
        watch(r, id, i, &coll, index, 0, in);
        const void *unref = NULL;
        if ((st = take_result(r, id, i, 0, ptr, &unref)))
            return st;
        st = ss_device_collective(dev, &coll, in, ptr[i->out]);
        ss__stored_unref(unref); /* the peers have read `in` (its depart step) */
        if (st)
            return st;
        watch(r, id, i, &coll, index, 1, ptr[i->out]);
        return SS_OK;
    }
    if (i->kind == SS__INST_KERNEL) {
        st = run_kernel(r, dev, i, c, ptr, computes(r, i, c));
        return st || !shared ? st : share_results(r, dev, i, c, ptr);
    }
    if (i->kind == SS__INST_TRANSFER)
        return run_transfer(r, dev, i, c, ptr);
    if ((st = ss__exec_alloc(r->ctx, id, ob, &ptr[i->out])))
        return st;
    void *out = ptr[i->out];
    switch (i->kind) {
    case SS__INST_LOAD: {
        const ss__node *n = &e->program->nodes[i->node];
        int64_t start[SS_MAX_RANK];
        for (int d = 0; d < n->rank; d++)
            start[d] = ss__exec_block_index(m, &i->layout, d, 0, i->layout.n[d], c) * ob->shape[d];
        copy_block(n->rank, n->shape, ob->shape, start, ss_dtype_size(n->dtype),
                   r->inputs[i->index], out, true);
        return SS_OK;
    }
    case SS__INST_CONST: {
        ss__constant_fill(&e->program->nodes[i->node], out, false);
        return SS_OK;
    }
    case SS__INST_ALLOC:
        memset(out, 0, ob->bytes);
        return SS_OK;
    case SS__INST_SLICE: {
        const ss__bufdesc *ib = &e->bufs[i->in[0]];
        int64_t start[SS_MAX_RANK];
        for (int d = 0; d < ob->rank; d++) {
            int to = i->layout.n[d], from = to - i->sn[d];
            start[d] = ss__exec_block_index(m, &i->layout, d, from, to, c) * ob->shape[d];
        }
        copy_block(ob->rank, ib->shape, ob->shape, start, ss_dtype_size(ob->dtype),
                   ptr[i->in[0]], out, true);
        return SS_OK;
    }
    case SS__INST_UNSTACK: {
        const ss__bufdesc *ib = &e->bufs[i->in[0]];
        int rank = ob->rank;
        int64_t block[SS_MAX_RANK], G = ib->shape[0];
        size_t esize = ss_dtype_size(ob->dtype), belems = 1;
        for (int d = 0; d < rank; d++) {
            block[d] = ib->shape[d + 1];
            belems *= (size_t)block[d];
        }
        for (int64_t g = 0; g < G; g++) {
            /* Decode rank g into per-axis coordinates (first axis major). */
            int64_t coord[SS_MAX_AXES], rest = g;
            for (int k = i->unaxes - 1; k >= 0; k--) {
                coord[k] = rest % m->sizes[i->uaxes[k]];
                rest /= m->sizes[i->uaxes[k]];
            }
            int64_t idx[SS_MAX_RANK] = {0}, start[SS_MAX_RANK];
            for (int k = 0; k < i->unaxes; k++)
                idx[i->udim[k]] = idx[i->udim[k]] * m->sizes[i->uaxes[k]] + coord[k];
            for (int d = 0; d < rank; d++)
                start[d] = idx[d] * block[d];
            copy_block(rank, ob->shape, block, start, esize,
                       (const char *)ptr[i->in[0]] + (size_t)g * belems * esize, out, false);
        }
        return SS_OK;
    }
    default: return ss__fail(SS_ERR_INVALID, "run: bad instruction");
    }
}

/* Run e's instructions on one device; on error give back everything this
 * device holds: copies made for outputs, then its buffers (an undonated
 * input's shards and a region's arguments stay their owners'). */
static ss_status run_list(run *r, ss_device *dev, const int64_t c[], void **ptr)
{
    ss_executable *e = r->e;
    int id = ss_device_id(dev);
    ss_status st = SS_OK;
    for (int k = 0; k < e->ninsts && !st; k++)
        st = run_inst(r, dev, &e->insts[k], c, ptr);
    if (st) {
        int at = ss_mesh_position_of(e->mesh, id);
        for (int o = 0; r->outp && o < e->noutputs; o++) {
            void *q = r->outp[o][at];
            bool held = false;
            for (int b = 0; b < e->nbufs && q; b++)
                held = held || q == ptr[b];
            if (q && !held)
                ss_device_free(r->ctx, id, q);
            r->outp[o][at] = NULL;
        }
        for (int o = 0; r->res && o < e->noutputs; o++)
            r->res[o] = NULL;
        for (int b = 0; b < e->nbufs; b++)
            if (ptr[b] && !(r->borrowed && r->borrowed[b]))
                ss_device_free(r->ctx, id, ptr[b]);
        for (int b = 0; b < e->nbufs; b++)
            ptr[b] = NULL;
    }
    return st;
}

static ss_status device_main(ss_device *dev, void *user)
{
    run *r = user;
    ss_executable *e = r->e;
    int id = ss_device_id(dev);
    int pos = ss_mesh_position_of(e->mesh, id);
    if (pos < 0)
        return SS_OK; /* not in this program's mesh */
    int64_t c[SS_MAX_AXES];
    coords_of(e->mesh, pos, c);
    return run_list(r, dev, c, r->ptrs[id]);
}

ss_status ss__exec_region(const ss_executable *sub, ss_context *ctx, ss_device *dev,
                          int *colls_done, void *const args[], const bool donate[],
                          bool consumed[], void *res[], const ss__replicas *rep)
{
    int id = ss_device_id(dev);
    int pos = ss_mesh_position_of(sub->mesh, id);
    int64_t c[SS_MAX_AXES];
    coords_of(sub->mesh, pos, c);
    void **ptr = calloc((size_t)(sub->nbufs ? sub->nbufs : 1), sizeof(void *));
    if (!ptr)
        return ss__fail(SS_ERR_NOMEM, "run: out of host memory");
    /* colls_done is indexed by device id; this run only touches ours. */
    run r;
    memset(&r, 0, sizeof r);
    r.e = (ss_executable *)sub;
    r.ctx = ctx;
    r.borrowed = sub->borrowed;
    r.kept = sub->kept;
    r.colls_done = colls_done;
    r.args = args;
    r.arg_donate = donate;
    r.arg_consumed = consumed;
    r.res = res;
    r.rep = rep;
    ss_status st = run_list(&r, dev, c, ptr);
    free(ptr);
    return st;
}

ss_status ss_executable_run(ss_executable *e, ss_context *ctx, const void *const inputs[],
                            void *const outputs[])
{
    int n = ss_context_device_count(ctx);
    if (n != ss_mesh_device_count(e->mesh))
        return ss__fail(SS_ERR_INVALID,
                        "run: the program's mesh has %d devices but the context has %d",
                        ss_mesh_device_count(e->mesh), n);
    for (int k = 0; k < e->ninputs; k++)
        if (!inputs || !inputs[k])
            return ss__fail(SS_ERR_INVALID, "run: input %d ('%s') is NULL", k,
                            e->program->nodes[e->inputs[k]].name);
    for (int k = 0; k < e->noutputs; k++)
        if (!outputs || !outputs[k])
            return ss__fail(SS_ERR_INVALID, "run: output %d is NULL", k);
    run r = {.e = e, .ctx = ctx, .inputs = inputs, .outputs = outputs,
             .ptrs = calloc((size_t)n, sizeof(void **)), .colls_done = calloc((size_t)n, sizeof(int))};
    if (!r.ptrs || !r.colls_done) {
        free(r.ptrs);
        free(r.colls_done);
        return ss__fail(SS_ERR_NOMEM, "run: out of host memory");
    }
    ss_status st = SS_OK;
    ss__replicas rep;
    memset(&rep, 0, sizeof rep);
    for (int d = 0; d < n && !st; d++)
        if (!(r.ptrs[d] = calloc((size_t)(e->nbufs ? e->nbufs : 1), sizeof(void *))))
            st = ss__fail(SS_ERR_NOMEM, "run: out of host memory");
    if (!st && !ss__replicas_naive() && !(st = ss__replicas_plan(e, &rep)))
        r.rep = &rep;
    if (!st)
        st = ss_context_run(ctx, device_main, &r);
    ss__replicas_free(&rep);
    for (int d = 0; d < n; d++)
        free(r.ptrs[d]);
    free(r.ptrs);
    free(r.colls_done);
    return st;
}

/* Is array `a` laid out as input k of the program expects? */
static ss_status check_input_array(const ss_executable *e, ss_context *ctx, int k,
                                   const ss_array *a)
{
    const ss__node *n = &e->program->nodes[e->inputs[k]];
    const ss_sharding *sh = ss_array_sharding(a);
    if (ss__array_context(a) != ctx)
        return ss__fail(SS_ERR_INVALID, "run: input %d ('%s') lives in another context", k,
                        n->name);
    bool ok = ss_array_rank(a) == n->rank;
    for (int d = 0; ok && d < n->rank; d++)
        ok = ss_array_shape(a)[d] == n->shape[d];
    int nd = ss_mesh_device_count(e->mesh);
    ok = ok && ss_mesh_device_count(sh->mesh) == nd;
    for (int p = 0; ok && p < nd; p++)
        ok = ss_mesh_device_id(sh->mesh, p) == ss_mesh_device_id(e->mesh, p);
    ss__layout l;
    if (ok && ss__layout_from_spec(e->mesh, &sh->spec, n->rank, &l) == SS_OK)
        ok = ss__layout_equal(&l, &e->program->layouts[e->inputs[k]]);
    else
        ok = false;
    if (!ok) {
        ss__buf b;
        ss__buf_init(&b);
        ss__buf_printf(&b, "run: input %d ('%s') must be ", k, n->name);
        ss__shape_repr_buf(&b, n->dtype, n->rank, n->shape);
        ss__buf_puts(&b, " laid out ");
        ss__layout_repr_buf(&b, e->mesh, &e->program->layouts[e->inputs[k]]);
        ss__buf_puts(&b, " over the program's mesh; reshard it first");
        ss_status st = ss__fail(SS_ERR_INVALID, "%s", b.data ? b.data : "run: bad input");
        ss__buf_free(&b);
        return st;
    }
    return SS_OK;
}

ss_status ss_executable_run_arrays(ss_executable *e, ss_context *ctx, ss_array *const inputs[],
                                   const bool donate[], ss_array *outputs[])
{
    int n = ss_context_device_count(ctx), nd = ss_mesh_device_count(e->mesh);
    if (n != nd)
        return ss__fail(SS_ERR_INVALID,
                        "run: the program's mesh has %d devices but the context has %d", nd, n);
    for (int k = 0; k < e->ninputs; k++) {
        if (!inputs || !inputs[k])
            return ss__fail(SS_ERR_INVALID, "run: input %d is NULL", k);
        ss_status st = check_input_array(e, ctx, k, inputs[k]);
        if (st)
            return st;
    }
    run r = {.e = e, .ctx = ctx, .in_arrays = inputs, .donate = donate};
    r.ptrs = calloc((size_t)n, sizeof(void **));
    r.colls_done = calloc((size_t)n, sizeof(int));
    r.outp = calloc((size_t)(e->noutputs ? e->noutputs : 1), sizeof(void **));
    r.borrowed = calloc((size_t)(e->nbufs ? e->nbufs : 1), 1);
    r.kept = calloc((size_t)(e->nbufs ? e->nbufs : 1), 1);
    ss_status st = SS_OK;
    if (!r.ptrs || !r.outp || !r.borrowed || !r.kept || !r.colls_done)
        st = ss__fail(SS_ERR_NOMEM, "run: out of host memory");
    for (int d = 0; d < n && !st; d++)
        if (!(r.ptrs[d] = calloc((size_t)(e->nbufs ? e->nbufs : 1), sizeof(void *))))
            st = ss__fail(SS_ERR_NOMEM, "run: out of host memory");
    for (int o = 0; o < e->noutputs && !st; o++)
        if (!(r.outp[o] = calloc((size_t)nd, sizeof(void *))))
            st = ss__fail(SS_ERR_NOMEM, "run: out of host memory");
    for (int k = 0; k < e->ninsts && !st; k++) {
        const ss__inst *i = &e->insts[k];
        if (i->kind == SS__INST_LOAD && !(donate && donate[i->index]))
            r.borrowed[i->out] = 1;
    }
    for (int k = 0; k < e->ninsts && !st; k++) {
        const ss__inst *i = &e->insts[k];
        if (i->kind == SS__INST_STORE && !r.borrowed[i->in[0]])
            r.kept[i->in[0]] = 1;
    }
    ss__replicas rep;
    memset(&rep, 0, sizeof rep);
    if (!st && !ss__replicas_naive() && !(st = ss__replicas_plan(e, &rep)))
        r.rep = &rep;
    if (!st)
        st = ss_context_run(ctx, device_main, &r);
    ss__replicas_free(&rep);
    /* Donated inputs are consumed whether or not the run succeeded. */
    for (int k = 0; k < e->ninputs; k++)
        if (donate && donate[k])
            ss__array_disown(inputs[k]);
    int adopted = 0;
    for (int o = 0; o < e->noutputs && !st; o++) {
        const ss__node *v = &e->program->nodes[e->outputs[o]];
        ss_sharding sh;
        const ss__layout *l = &e->program->layouts[e->outputs[o]];
        ss__layout_to_sharding(e->mesh, l, &sh);
        sh.partial_mask = 0;
        if (ss_sharding_check(&sh, v->rank, v->shape) == SS_ERR_INDIVISIBLE)
            for (int k = 0; k < e->ninsts; k++) /* stored replicated, as jit returns it */
                if (e->insts[k].kind == SS__INST_STORE && e->insts[k].index == o)
                    ss__layout_to_sharding(e->mesh, &e->insts[k].layout, &sh);
        st = ss__array_adopt(ctx, &sh, v->rank, v->shape, v->dtype, r.outp[o], &outputs[o]);
        if (!st) {
            adopted++;
            for (int p = 0; p < nd; p++)
                r.outp[o][p] = NULL;
        }
    }
    /* All outputs or none: a failure to adopt one destroys those before it
     * (the caller, seeing the error, owns nothing). */
    for (int o = 0; st && o < adopted; o++) {
        ss_array_destroy(outputs[o]);
        outputs[o] = NULL;
    }
    for (int o = 0; r.outp && o < e->noutputs; o++) {
        /* Left over after a failure to adopt: give the shards back. */
        for (int p = 0; r.outp[o] && p < nd; p++)
            if (r.outp[o][p])
                ss_device_free(ctx, ss_mesh_device_id(e->mesh, p), r.outp[o][p]);
        free(r.outp[o]);
    }
    for (int d = 0; r.ptrs && d < n; d++)
        free(r.ptrs[d]);
    free(r.ptrs);
    free(r.outp);
    free(r.borrowed);
    free(r.kept);
    free(r.colls_done);
    return st;
}

void ss_executable_watch(ss_executable *e, ss_watch_fn fn, void *user)
{
    e->watch = fn;
    e->watch_user = user;
}
