/*
 * xla_windowed.c — the dots XLA's TPU compiler computes as windowed
 * einsums (collective matmuls), as the plan counts their memory (under a
 * memory model with xla_windowed_ring: `--device tpu-*`).
 *
 * GSPMD can compute a dot whose operand it would all-gather, or whose
 * result it would reduce-scatter, as a loop around the ring of the
 * collective's devices: each step multiplies the block at hand and passes
 * a block on with a collective-permute (docs/gspmd.md 3.3). XLA's TPU
 * compiler does so on the LARGE scanned LM's v5e 16x16 slice (mesh fsdp
 * 16, tensor 16) for the three dots of the output layer, none of which it
 * windows on the 2x4, 4x4, 8x8, 2x2x2 and 2x2x4 slices (rings of 2 to 8;
 * libtpu 0.0.42.1, tests/data/xla_tpu/lm_*: no collective-permute but the
 * embedding's). Each is a `while` of the entry computation (its optimized
 * HLO: XLA_FLAGS=--xla_dump_to with tests/xla_tpu/make_records.py), and
 * three facts of its buffer assignment change the plan:
 *
 *   - its result is an AllocateBuffer the loop accumulates into, which
 *     XLA's schedule puts at the program's start with the scans' stacks:
 *     f32[16,1024,2048] (128 MiB, the logits) and the logits gradient's
 *     two f32[16,1024,64] halves alive from instruction 80-82 of 1900
 *     (ss__xla_windowed_early): a loop that reduce-scatters accumulates
 *     into two halves of the scattered result (one per direction), the
 *     others into the whole result;
 *   - it reads its f32 operands in bf16 (the loop's state), so an operand
 *     read only by DEFAULT dots is written in bf16 by its producer: the
 *     logits' gradient, bf16[16,1024,2048], 64 MiB (xla_narrow.c marks it);
 *   - its schedule computes the output layer's weight gradient, whose
 *     result only the optimizer's update reads, after the backward scan
 *     (entry while.75 after while.71 in lm_large_full, while.91 after
 *     while.87 in lm_large_dots), where on the smaller slices the plain
 *     dot of that gradient (fusion.191) comes before it: the logits'
 *     gradient stays alive through the whole backward loop, evicted to
 *     HBM (copy-start.3, instructions 506-1870), and the activations it
 *     multiplies are gathered again after the loop
 *     (ss__executable_xla_windowed_late).
 *
 * Which dots (tests/data/xla_tpu/windowed.json, make_windowed.py: 77
 * probes of the output layer on v5e slices): XLA windows over one mesh
 * axis, the one it would gather or reduce-scatter over, as a while loop
 * over rings of 8, 16 and 32 (n/2 trips, both directions) when a cost
 * check passes (the forward dot from about 640 vocabulary columns per
 * device; the weight gradient whenever its ring is 4 to 32 and no data
 * axis joins its reduction), unrolled over rings of 4 (permutes in the
 * entry, no loop), never over 2, 64 or 128. The plan windows rings of
 * ss_memory_model.xla_windowed_ring to _max (16 to 32 under tpu-*) and
 * does not model the cost check nor the unrolled form.
 *
 * Also not modelled: the windowed weight gradients inside a scan's body
 * (lm_large_full's backward scan windows those of q, k, v and the MLP's
 * input projections), the ring steps' own blocks (a few MiB), what XLA
 * never materialises (a reduce-scattering loop's unscattered result, a
 * gathering loop's whole gathered operand: the plan still counts them
 * where its order has them), and the other reasons XLA schedules a
 * weight gradient late (it hosts the end of an asynchronous collective
 * the backward loop feeds: lm_large_full's while.75 finishes the
 * all-gather of the activations, f32, 64 MiB, which the plan regathers in
 * bf16). The ledger keeps the all-gathers and reduce-scatters (a listed
 * difference of the collectives' comparison).
 * The probes' own programs (a scan of elementwise layers before the
 * output layer, a sum of squares for the loss), lowered for these meshes
 * and planned, are within 10 % of XLA's peak on 6 of the 56 compiled
 * without flags (none without this model), and typically 1.4 times off
 * either way with or without it: gaps of the fusion and heap models that
 * the records' programs do not show.
 */
#include "lower.h"

#include <stdlib.h>
#include <string.h>

/* The devices of collective instruction i's groups. */
static int64_t ring_of(const ss__inst *i)
{
    int64_t n = 1;
    for (int a = 0; a < i->coll.naxes; a++) {
        int x = ss_mesh_axis_index(i->coll.mesh, i->coll.axes[a]);
        if (x >= 0)
            n *= ss_mesh_axis_size(i->coll.mesh, x);
    }
    return n;
}

/* Is instruction i an all-gather or reduce-scatter over a ring of the
 * size m windows? */
static bool wide(const ss__inst *i, ss_coll_kind kind, const ss_memory_model *m)
{
    if (i->kind != SS__INST_COLL || i->coll.kind != kind || !i->coll.mesh)
        return false;
    int64_t n = ring_of(i);
    return n >= m->xla_windowed_ring && n <= m->xla_windowed_ring_max;
}

/* Is instruction k of e an f32 dot of DEFAULT precision? */
static bool default_dot(const ss_executable *e, int k)
{
    const ss__inst *i = &e->insts[k];
    if (i->kind != SS__INST_KERNEL)
        return false;
    const ss__node *n = &e->program->nodes[i->node];
    return n->op == SS__OP_DOT && n->dtype == SS_F32 && !n->dot_precise;
}

/* The reduce-scatter over a windowed ring that reads dot k's result, or
 * -1. */
static int windowed_scatter(const ss_executable *e, int k, const ss_memory_model *m)
{
    for (int j = k + 1; j < e->ninsts; j++) {
        const ss__inst *u = &e->insts[j];
        if (u->kind != SS__INST_FREE && u->nin > 0 && u->in[0] == e->insts[k].out &&
            wide(u, SS_COLL_REDUCE_SCATTER, m))
            return j;
    }
    return -1;
}

bool ss__xla_windowed_dot(const ss_executable *e, int k, const int producer[],
                          const ss_memory_model *m)
{
    if (!m || m->xla_windowed_ring <= 0 || e->region || k < 0 || k >= e->ninsts || !default_dot(e, k))
        return false;
    const ss__inst *i = &e->insts[k];
    for (int x = 0; x < i->nin; x++) {
        int p = i->in[x] >= 0 && i->in[x] < e->nbufs ? producer[i->in[x]] : -1;
        if (p >= 0 && wide(&e->insts[p], SS_COLL_ALL_GATHER, m))
            return true;
    }
    return windowed_scatter(e, k, m) >= 0;
}

ss_status ss__producers(const ss_executable *e, int **producer)
{
    int *p = malloc(sizeof *p * (size_t)(e->nbufs ? e->nbufs : 1));
    if (!p)
        return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    for (int b = 0; b < e->nbufs; b++)
        p[b] = -1;
    for (int k = 0; k < e->ninsts; k++) {
        int res[SS__INST_MAX_RESULTS];
        int n = ss__inst_results(e, &e->insts[k], res, SS__INST_MAX_RESULTS);
        for (int r = 0; r < n; r++)
            if (res[r] >= 0 && res[r] < e->nbufs && p[res[r]] < 0)
                p[res[r]] = k;
    }
    *producer = p;
    return SS_OK;
}

size_t ss__xla_windowed_early(const ss_executable *e, int k, const int producer[],
                              const ss_memory_model *m, int *buf)
{
    *buf = -1;
    if (!ss__xla_windowed_dot(e, k, producer, m))
        return 0;
    bool loop_after = false;
    for (int j = k + 1; j < e->ninsts && !loop_after; j++)
        loop_after = e->insts[j].kind == SS__INST_LOOP && !e->loops[e->insts[j].index].nbranch;
    if (!loop_after)
        return 0;
    int rs = windowed_scatter(e, k, m);
    if (rs >= 0) /* one half of the scattered result per direction */
        return 2 * ss_device_buffer_bytes(e->bufs[e->insts[rs].out].bytes);
    *buf = e->insts[k].out;
    return ss_device_buffer_bytes(e->bufs[*buf].bytes);
}

/*
 * The late schedule. `moved` marks the instructions that go after loop
 * instruction `to`: the windowed dot and every instruction before `to`
 * that reads what they make, transitively (FREEs aside). It fails (false)
 * when a loop is among them or `to` reads what they make.
 */
static bool late_set(const ss_executable *e, int k, int to, const int producer[], bool moved[])
{
    memset(moved, 0, (size_t)e->ninsts);
    moved[k] = true;
    for (int j = k + 1; j <= to; j++) {
        const ss__inst *u = &e->insts[j];
        if (u->kind == SS__INST_FREE)
            continue;
        bool reads = false;
        for (int x = 0; x < u->nin && !reads; x++)
            reads = u->in[x] >= 0 && u->in[x] < e->nbufs && producer[u->in[x]] >= 0 &&
                    moved[producer[u->in[x]]];
        if (!reads)
            continue;
        if (j == to || u->kind == SS__INST_LOOP)
            return false;
        moved[j] = true;
    }
    return true;
}

/* The last top-level while loop after instruction k that the windowed dot
 * k and what reads it can move past, or -1. */
static int late_target(const ss_executable *e, int k, const int producer[], bool moved[])
{
    int to = -1;
    for (int j = k + 1; j < e->ninsts; j++) {
        const ss__inst *u = &e->insts[j];
        if (u->kind != SS__INST_LOOP || e->loops[u->index].nbranch)
            continue;
        if (!late_set(e, k, j, producer, moved))
            break;
        to = j;
    }
    if (to >= 0)
        late_set(e, k, to, producer, moved);
    return to;
}

/* Does an instruction outside `moved` in (k, to] write its result over a
 * buffer that a moved instruction reads (then moving them would read it
 * after it is gone)? */
static bool overwritten(const ss_executable *e, int k, int to, const bool moved[],
                        const bool read[])
{
    for (int j = k + 1; j <= to; j++) {
        const ss__inst *u = &e->insts[j];
        if (moved[j] || u->kind == SS__INST_FREE)
            continue;
        int nres = u->kind == SS__INST_FUSED ? 1 + u->fused.nextra : 1;
        for (int r = 0; r < nres && r < 1 + SS__K_FUSED_MAX_EXTRA; r++) {
            int s = u->share[r];
            if (s >= 0 && s < u->nin && read[u->in[s]])
                return true;
        }
    }
    return false;
}

/* Remove buffer b from every FREE of list[0..n). */
static void unfree(ss__inst *list, int n, int b)
{
    for (int j = 0; j < n; j++) {
        ss__inst *f = &list[j];
        if (f->kind != SS__INST_FREE)
            continue;
        int w = 0;
        for (int x = 0; x < f->nin; x++)
            if (f->in[x] != b)
                f->in[w++] = f->in[x];
        f->nin = w;
    }
}

static int by_position(const void *pa, const void *pb)
{
    const int *a = pa, *b = pb;
    return a[0] != b[0] ? (a[0] > b[0]) - (a[0] < b[0]) : (a[1] > b[1]) - (a[1] < b[1]);
}

/* A FREE of buffer b. */
static ss__inst free_of(int b)
{
    ss__inst f;
    ss__inst_init(&f, SS__INST_FREE, -1);
    f.nin = 1;
    f.in[0] = b;
    return f;
}

/*
 * Move windowed dot k, what reads it before loop `to` (moved[]) and a new
 * all-gather for each operand an all-gather before k made, after `to`;
 * the buffers they touch are freed again after their last use in the new
 * order. e->insts is replaced (old: the list before, which the caller
 * frees when it owns it).
 */
static ss_status move_late(ss_executable *e, int k, int to, const int producer[], const bool moved[],
                           bool touched[])
{
    int n = e->ninsts, cap = 2 * n + 2 * e->nbufs + 8;
    ss__inst *out = malloc(sizeof *out * (size_t)cap);
    int *last = malloc(sizeof *last * (size_t)(e->nbufs ? e->nbufs : 1));
    if (!out || !last) {
        free(out);
        free(last);
        return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    }
    memset(touched, 0, (size_t)e->nbufs);
    int m = 0;
    for (int j = 0; j < n; j++) {
        if (moved[j])
            continue;
        out[m++] = e->insts[j];
        if (j != to)
            continue;
        /* The moved block: each gathered operand gathered again first. */
        for (int x = k; x < to; x++) {
            if (!moved[x])
                continue;
            const ss__inst *u = &e->insts[x];
            for (int y = 0; y < u->nin; y++) {
                int b = u->in[y], p = b >= 0 && b < e->nbufs ? producer[b] : -1;
                if (p < 0 || moved[p] || touched[b] || e->insts[p].kind != SS__INST_COLL ||
                    e->insts[p].coll.kind != SS_COLL_ALL_GATHER)
                    continue;
                out[m++] = e->insts[p];
                touched[b] = true;
                for (int z = 0; z < e->insts[p].nin; z++)
                    touched[e->insts[p].in[z]] = true;
            }
        }
        for (int x = k; x < to; x++)
            if (moved[x])
                out[m++] = e->insts[x];
    }
    /* Every buffer the moved instructions read or make is freed anew. */
    for (int x = k; x < to; x++) {
        if (!moved[x])
            continue;
        const ss__inst *u = &e->insts[x];
        for (int y = 0; y < u->nin; y++)
            touched[u->in[y]] = true;
        int res[SS__INST_MAX_RESULTS];
        int nr = ss__inst_results(e, u, res, SS__INST_MAX_RESULTS);
        for (int r = 0; r < nr; r++)
            touched[res[r]] = true;
    }
    for (int j = 0; j < m; j++) /* arguments are never freed before the end */
        if (out[j].kind == SS__INST_LOAD)
            touched[out[j].out] = false;
    for (int b = 0; b < e->nbufs; b++)
        if (touched[b])
            unfree(out, m, b);
    /* Each touched buffer's lives in the new order: from a production to
     * the last read before the next one; end[] lists (where one ends,
     * the buffer), at most one per instruction's result and buffer. */
    int (*end)[2] = malloc(sizeof *end * (size_t)(m + e->nbufs + 1));
    ss__inst *list = malloc(sizeof *list * (size_t)cap);
    if (!end || !list) {
        free(end);
        free(list);
        free(out);
        free(last);
        return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    }
    int nend = 0;
    for (int b = 0; b < e->nbufs; b++)
        last[b] = -1; /* the open life's last event */
    for (int j = 0; j < m; j++) {
        const ss__inst *u = &out[j];
        if (u->kind == SS__INST_FREE)
            continue;
        int res[SS__INST_MAX_RESULTS];
        int nr = ss__inst_results(e, u, res, SS__INST_MAX_RESULTS);
        for (int r = 0; r < nr; r++) {
            int b = res[r];
            bool read_here = false; /* in place: the same life */
            for (int y = 0; y < u->nin; y++)
                read_here = read_here || u->in[y] == b;
            if (touched[b] && last[b] >= 0 && !read_here) { /* made again: the last life ends */
                end[nend][0] = last[b];
                end[nend++][1] = b;
            }
        }
        for (int y = 0; y < u->nin; y++)
            if (touched[u->in[y]])
                last[u->in[y]] = j;
        for (int r = 0; r < nr; r++)
            if (touched[res[r]])
                last[res[r]] = j;
    }
    for (int b = 0; b < e->nbufs; b++)
        if (touched[b] && last[b] >= 0) {
            end[nend][0] = last[b];
            end[nend++][1] = b;
        }
    qsort(end, (size_t)nend, sizeof *end, by_position);
    int w = 0;
    for (int j = 0, x = 0; j < m; j++) {
        list[w++] = out[j];
        for (; x < nend && end[x][0] == j; x++)
            if (x == 0 || end[x - 1][0] != j || end[x - 1][1] != end[x][1])
                list[w++] = free_of(end[x][1]);
    }
    free(end);
    free(out);
    free(last);
    e->insts = list;
    e->ninsts = w;
    return SS_OK;
}

ss_status ss__executable_xla_windowed_late(ss_executable *e, const ss__inst *keep,
                                           const ss_memory_model *m, int *moved_dots)
{
    *moved_dots = 0;
    if (!m || m->xla_windowed_ring <= 0 || e->region)
        return SS_OK;
    ss_status st = SS_OK;
    /* A moved dot lands after every loop it can pass, so it is never
     * moved again; what follows it before then starts at k once more. */
    for (int k = 0; k < e->ninsts && !st; k++) {
        int *producer = NULL;
        bool *moved = malloc((size_t)e->ninsts), *read = malloc((size_t)(e->nbufs ? e->nbufs : 1));
        if (!moved || !read || (st = ss__producers(e, &producer))) {
            free(moved);
            free(read);
            return st ? st : ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
        }
        for (; k < e->ninsts && !st; k++) {
            if (!ss__xla_windowed_dot(e, k, producer, m))
                continue;
            int to = late_target(e, k, producer, moved);
            if (to < 0)
                continue;
            memset(read, 0, (size_t)e->nbufs); /* what the moved instructions read */
            for (int x = k; x < to; x++)
                for (int y = 0; moved[x] && y < e->insts[x].nin; y++)
                    read[e->insts[x].in[y]] = true;
            if (overwritten(e, k, to, moved, read))
                continue;
            ss__inst *old = e->insts;
            if (!(st = move_late(e, k, to, producer, moved, read))) {
                if (old != keep)
                    free(old);
                ++*moved_dots;
                k--; /* the loop's k++ comes back to it */
                break;
            }
        }
        free(producer);
        free(moved);
        free(read);
    }
    return st;
}
