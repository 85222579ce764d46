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
 * difference of the collectives' comparison); the plan's own count of
 * collectives under the model (ss_plan.sent_bytes) has the gather made
 * again too. A ring is the collective's devices over all its axes.
 * The probes' own programs (a scan of elementwise layers before the
 * output layer, a sum of squares for the loss), lowered for these meshes
 * and planned (tests/xla_tpu/plan_windowed_probes.py), are within 10 % of
 * XLA's peak on 6 of the 56 compiled without flags (none without this
 * model), the median 1.41 times off either way among those of 50 MiB or
 * more, with or without it: gaps of the fusion and heap models that the
 * records' programs do not show.
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

/* The instruction before position `at` of e that last made buffer b, or
 * -1. */
static int maker_before(const ss_executable *e, int b, int at)
{
    for (int j = at - 1; j >= 0; j--) {
        if (e->insts[j].kind == SS__INST_FREE)
            continue;
        int res[SS__INST_MAX_RESULTS];
        int n = ss__inst_results(e, &e->insts[j], res, SS__INST_MAX_RESULTS);
        for (int r = 0; r < n; r++)
            if (res[r] == b)
                return j;
    }
    return -1;
}

/*
 * The late schedule. `moved` marks the instructions that go after loop
 * instruction `to`: dot k and every instruction in (k, to) that reads a
 * buffer one of them made, followed through made[] (what a moved
 * instruction made last; a later instruction that is not moved making it
 * again ends that). False when a loop is among them or `to` reads what
 * they make.
 */
static bool late_set(const ss_executable *e, int k, int to, bool moved[], bool made[])
{
    memset(moved, 0, (size_t)e->ninsts);
    memset(made, 0, (size_t)e->nbufs);
    for (int j = k; j <= to; j++) {
        const ss__inst *u = &e->insts[j];
        if (u->kind == SS__INST_FREE)
            continue;
        bool reads = j == k;
        for (int x = 0; x < u->nin && !reads; x++)
            reads = u->in[x] >= 0 && u->in[x] < e->nbufs && made[u->in[x]];
        if (reads && (j == to || u->kind == SS__INST_LOOP))
            return false;
        moved[j] = reads;
        int res[SS__INST_MAX_RESULTS];
        int n = ss__inst_results(e, u, res, SS__INST_MAX_RESULTS);
        for (int r = 0; r < n; r++)
            made[res[r]] = reads;
    }
    return true;
}

/* The last top-level loop (a while or a scan) after instruction k that
 * the windowed dot k and what reads it can move past, or -1; moved[] as
 * late_set leaves it for that loop. */
static int late_target(const ss_executable *e, int k, bool moved[], bool made[])
{
    int to = -1;
    for (int j = k + 1; j < e->ninsts; j++) {
        const ss__inst *u = &e->insts[j];
        if (u->kind != SS__INST_LOOP || e->loops[u->index].nbranch)
            continue;
        if (!late_set(e, k, j, moved, made))
            break;
        to = j;
    }
    if (to >= 0)
        late_set(e, k, to, moved, made);
    return to;
}

/* Mark again[j] the all-gathers the moved instructions read from that are
 * not moved themselves (made again after the loop), and read[b] every
 * buffer the moved block reads: the moved instructions' operands and the
 * gathers' own. */
static void block_reads(const ss_executable *e, int k, int to, const bool moved[], bool again[],
                        bool read[])
{
    memset(again, 0, (size_t)e->ninsts);
    memset(read, 0, (size_t)e->nbufs);
    for (int x = k; x < to; x++) {
        if (!moved[x])
            continue;
        const ss__inst *u = &e->insts[x];
        for (int y = 0; y < u->nin; y++) {
            int b = u->in[y], p = maker_before(e, b, x);
            read[b] = true;
            if (p >= 0 && !moved[p] && e->insts[p].kind == SS__INST_COLL &&
                e->insts[p].coll.kind == SS_COLL_ALL_GATHER)
                again[p] = true;
        }
    }
    for (int p = 0; p < to; p++)
        for (int y = 0; again[p] && y < e->insts[p].nin; y++)
            read[e->insts[p].in[y]] = true;
}

/* Does an instruction in (k, to] that stays write its result over a
 * buffer the moved block reads (in place, or a loop adopting it as a
 * carry), which the block would then read after it is gone? */
static bool overwritten(const ss_executable *e, int k, int to, const bool moved[],
                        const bool read[])
{
    for (int j = k + 1; j <= to; j++) {
        const ss__inst *u = &e->insts[j];
        if (moved[j] || u->kind == SS__INST_FREE)
            continue;
        if (u->kind == SS__INST_LOOP) {
            const ss__loop_exec *l = &e->loops[u->index];
            for (int c = 0; !l->nbranch && c < l->ncarry; c++)
                if (l->adopt[c] && read[u->in[c]])
                    return true;
            continue;
        }
        int nres = u->kind == SS__INST_FUSED ? 1 + u->fused.nextra : 1;
        for (int r = 0; r < nres && r < 1 + SS__K_FUSED_MAX_EXTRA; r++) {
            int s = u->share[r], a = u->share_alt[r];
            if ((s >= 0 && s < u->nin && read[u->in[s]]) ||
                (a >= 0 && a < u->nin && read[u->in[a]]))
                return true;
        }
    }
    return false;
}

/* A FREE of buffer b, as liveness.c writes one. */
static ss__inst free_of(int b)
{
    ss__inst f;
    ss__inst_init(&f, SS__INST_FREE, -1);
    f.nin = 1;
    f.in[0] = b;
    f.out = b;
    return f;
}

/*
 * The lives of the touched buffers in list[0..m): from a production to the
 * last read before the next one (a result written in place over its
 * operand continues its life). Each life's end goes to end[] (its
 * position, the buffer) when end is not NULL; returns how many there are.
 * last[] is scratch, nbufs long.
 */
static int lives(const ss_executable *e, const ss__inst *list, int m, const bool touched[],
                 int last[], int (*end)[2])
{
    int nend = 0;
    for (int b = 0; b < e->nbufs; b++)
        last[b] = -1; /* the open life's last event */
    for (int j = 0; j < m; j++) {
        const ss__inst *u = &list[j];
        if (u->kind == SS__INST_FREE)
            continue;
        int res[SS__INST_MAX_RESULTS];
        int nr = ss__inst_results(e, u, res, SS__INST_MAX_RESULTS);
        for (int r = 0; r < nr; r++) {
            int b = res[r];
            bool read_here = false;
            for (int y = 0; y < u->nin; y++)
                read_here = read_here || u->in[y] == b;
            if (touched[b] && last[b] >= 0 && !read_here) { /* made again: a life ends */
                if (end)
                    end[nend][0] = last[b], end[nend][1] = b;
                nend++;
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
            if (end)
                end[nend][0] = last[b], end[nend][1] = b;
            nend++;
        }
    return nend;
}

static int by_position(const void *pa, const void *pb)
{
    const int *a = pa, *b = pb;
    return a[0] != b[0] ? (a[0] > b[0]) - (a[0] < b[0]) : (a[1] > b[1]) - (a[1] < b[1]);
}

/*
 * Move the instructions moved[] marks (dot k and what reads it before loop
 * `to`), after `to` and the FREEs that follow it, each all-gather again[]
 * marks made again first; every buffer they read or make (touched[],
 * filled here) is freed anew after the last use of each of its lives in
 * the new order, and FREEs left empty are dropped. e->insts is replaced
 * (the caller frees the list before when it owns it).
 */
static ss_status move_late(ss_executable *e, int k, int to, const bool moved[], const bool again[],
                           bool touched[])
{
    int n = e->ninsts, nb = e->nbufs ? e->nbufs : 1;
    ss__inst *out = malloc(sizeof *out * (size_t)(2 * n + 1));
    int *last = malloc(sizeof *last * (size_t)nb);
    if (!out || !last) {
        free(out);
        free(last);
        return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    }
    int m = 0, after = to; /* the block goes after `to` and its FREEs */
    while (after + 1 < n && e->insts[after + 1].kind == SS__INST_FREE)
        after++;
    for (int j = 0; j < n; j++) {
        if (moved[j])
            continue;
        out[m++] = e->insts[j];
        if (j != after)
            continue;
        for (int p = 0; p < to; p++)
            if (again[p])
                out[m++] = e->insts[p];
        for (int x = k; x < to; x++)
            if (moved[x])
                out[m++] = e->insts[x];
    }
    memset(touched, 0, (size_t)e->nbufs);
    for (int x = 0; x < to; x++) {
        if (!moved[x] && !again[x])
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
    for (int j = 0; j < m; j++) { /* their old FREEs go */
        ss__inst *f = &out[j];
        if (f->kind != SS__INST_FREE)
            continue;
        int w = 0;
        for (int x = 0; x < f->nin; x++)
            if (!touched[f->in[x]])
                f->in[w++] = f->in[x];
        f->nin = w;
    }
    int nend = lives(e, out, m, touched, last, NULL);
    int (*end)[2] = malloc(sizeof *end * (size_t)(nend + 1));
    ss__inst *list = malloc(sizeof *list * (size_t)(m + nend + 1));
    if (!end || !list) {
        free(end);
        free(list);
        free(out);
        free(last);
        return ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
    }
    lives(e, out, m, touched, last, end);
    qsort(end, (size_t)nend, sizeof *end, by_position);
    int w = 0;
    for (int j = 0, x = 0; j < m; j++) {
        if (out[j].kind != SS__INST_FREE || out[j].nin > 0)
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
    e->insts_cap = m + nend + 1;
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
        size_t ni = (size_t)(e->ninsts ? e->ninsts : 1), nb = (size_t)(e->nbufs ? e->nbufs : 1);
        bool *moved = malloc(ni), *again = malloc(ni), *made = malloc(nb), *read = malloc(nb);
        if (!moved || !again || !made || !read || (st = ss__producers(e, &producer))) {
            free(moved), free(again), free(made), free(read);
            return st ? st : ss__fail(SS_ERR_NOMEM, "plan: out of host memory");
        }
        for (; k < e->ninsts && !st; k++) {
            if (!ss__xla_windowed_dot(e, k, producer, m))
                continue;
            int to = late_target(e, k, moved, made);
            if (to < 0)
                continue;
            block_reads(e, k, to, moved, again, read);
            if (overwritten(e, k, to, moved, read))
                continue;
            ss__inst *old = e->insts;
            if (!(st = move_late(e, k, to, moved, again, read))) {
                if (old != keep)
                    free(old);
                ++*moved_dots;
                k--; /* the loop's k++ comes back to it */
                break;
            }
        }
        free(producer);
        free(moved), free(again), free(made), free(read);
    }
    return st;
}
