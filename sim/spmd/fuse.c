/*
 * fuse.c — loop fusion of elementwise chains, as XLA fuses them.
 *
 * After lowering, a chain such as Adam's update (a dozen adds, multiplies,
 * a square root) is a dozen kernels, each reading and writing the whole
 * block. Fusion turns every maximal tree of elementwise kernels (unary,
 * binary, and fma on f32) whose
 * intermediate results have exactly one user into one FUSED instruction
 * that reads each input once and writes the result once, with no buffers
 * for the intermediates. Broadcasts of a scalar are folded into every
 * fused user as a scalar leaf (and disappear when nothing else needs
 * them); so are broadcasts of an array whose elements keep their order
 * (a bias along the last dims, a row statistic along the first ones): the
 * fused kernel reads the smaller array, each element repeated and the
 * whole cycled (ss__k_fused.repeat), as XLA fuses a broadcast into its
 * consumers. It only removes work and memory: the values are bit for bit
 * those of the unfused kernels, and plan and run still walk the same list.
 */
#include "lower.h"

#include <stdlib.h>
#include <string.h>

typedef struct fuser {
    ss_executable *e;
    int *producer;      /* buffer -> instruction, -1 */
    int *uses;          /* buffer -> instructions reading it */
    int *folded;        /* buffer -> uses folded into fused users */
    unsigned char *gone; /* instruction absorbed into a fused one */
    /* the expression being built */
    ss__k_fused f;
    int leaves[SS__K_FUSED_MAX_LEAVES]; /* their repeats: f.repeat */
    int nleaves;
    int absorbed[SS__K_FUSED_MAX_OPS];
    int nabsorbed;
    int folds[SS__K_FUSED_MAX_OPS]; /* broadcast results read through their operand */
    int nfolds;
    bool overflow;
} fuser;

static int64_t elems(const ss__bufdesc *b)
{
    int64_t n = 1;
    for (int d = 0; d < b->rank; d++)
        n *= b->shape[d];
    return n;
}

static const ss__node *node_of(const fuser *s, int k)
{
    return &s->e->program->nodes[s->e->insts[k].node];
}

/* An elementwise kernel over blocks of its output's shape. */
static bool is_elementwise(const fuser *s, int k)
{
    const ss__inst *i = &s->e->insts[k];
    if (i->kind != SS__INST_KERNEL)
        return false;
    const ss__node *n = node_of(s, k);
    /* The fused kernel expresses unary and binary ops (build_inst), not
     * every SS__OPF_ELEMENTWISE op of the table. */
    if (n->op == SS__OP_FMA) { /* f32 only: the exact path computes the rest */
        for (int j = 0; j < i->nin; j++)
            if (s->e->bufs[i->in[j]].dtype != SS_F32 ||
                elems(&s->e->bufs[i->in[j]]) != elems(&s->e->bufs[i->out]))
                return false;
        return s->e->bufs[i->out].dtype == SS_F32;
    }
    if (n->op != SS__OP_UNARY && n->op != SS__OP_BINARY)
        return false;
    /* ... on f32 blocks: not the exact path's dtypes and ops. */
    int64_t n_out = elems(&s->e->bufs[i->out]);
    ss_dtype od = s->e->bufs[i->out].dtype;
    ss_dtype d0 = s->e->bufs[i->in[0]].dtype, d1 = i->nin > 1 ? s->e->bufs[i->in[1]].dtype : d0;
    if (n->op == SS__OP_UNARY ? !ss__k_unary_is_f32_path((ss__k_unary_op)n->sub, d0, od)
                              : !ss__k_binary_is_f32_path((ss__k_binary_op)n->sub, d0, d1, od))
        return false;
    for (int j = 0; j < i->nin; j++) {
        const ss__bufdesc *b = &s->e->bufs[i->in[j]];
        if (b->rank != 0 && elems(b) != n_out)
            return false;
    }
    return true;
}

/* A broadcast its fused readers read through its operand: of a scalar
 * (*repeat 0: a scalar leaf), or of an array whose non-unit dims keep
 * their order and fill a run of the result's dims (unit dims aside):
 * result element i is operand element (i / *repeat) % m, *repeat the
 * product of the dims after the run. Not an array's when the operand is as
 * large as the result (a bitcast, liveness.c), when the repeat does not
 * fit a leaf's, or with ss_compile_options.materialize_broadcasts. */
static bool is_foldable_broadcast(const fuser *s, int k, int32_t *repeat)
{
    const ss__inst *i = &s->e->insts[k];
    const ss__node *n = node_of(s, k);
    if (i->kind != SS__INST_KERNEL || n->op != SS__OP_BROADCAST || i->nin != 1)
        return false;
    const ss__bufdesc *x = &s->e->bufs[i->in[0]], *o = &s->e->bufs[i->out];
    *repeat = 0;
    if (x->rank == 0)
        return true;
    if (s->e->opts.materialize_broadcasts || x->dtype != o->dtype || elems(x) == elems(o) ||
        elems(x) == 0)
        return false;
    int first = o->rank, last = -1; /* the result dims the operand's fill */
    for (int d = 0; d < x->rank; d++) {
        if (x->shape[d] == 1)
            continue;
        int to = n->dims[d];
        if (to < 0 || to >= o->rank || o->shape[to] != x->shape[d])
            return false;
        first = to < first ? to : first;
        last = to > last ? to : last;
    }
    int64_t inside = 1, after = 1;
    for (int d = first; d <= last; d++)
        inside *= o->shape[d];
    for (int d = last + 1; d < o->rank; d++)
        after *= o->shape[d];
    if (last < 0) /* every operand dim is a unit: one value repeated */
        after = elems(o);
    else if (inside != elems(x)) /* a broadcast dim inside the run */
        return false;
    if (after > INT32_MAX)
        return false;
    *repeat = (int32_t)after;
    return true;
}

static int push(fuser *s, ss__k_fused_op op)
{
    if (s->f.nops == SS__K_FUSED_MAX_OPS) {
        s->overflow = true;
        return 0;
    }
    s->f.ops[s->f.nops] = op;
    return s->f.nops++;
}

/* A step reading buffer buf, repeated as ss__k_fused.repeat says. */
static int leaf(fuser *s, int buf, int32_t repeat)
{
    int k = 0;
    while (k < s->nleaves && (s->leaves[k] != buf || s->f.repeat[k] != repeat))
        k++;
    if (k == s->nleaves) {
        if (s->nleaves == SS__K_FUSED_MAX_LEAVES) {
            s->overflow = true;
            return 0;
        }
        s->f.repeat[s->nleaves] = repeat;
        s->leaves[s->nleaves++] = buf;
    }
    return push(s, (ss__k_fused_op){SS__K_FUSED_LEAF, (uint8_t)k, 0, 0, 0});
}

static int build_inst(fuser *s, int k, int64_t n);

/* The register holding buffer `buf` inside an expression over n elements. */
static int build_buf(fuser *s, int buf, int64_t n)
{
    int j = s->producer[buf];
    if (j >= 0 && !s->gone[j] && elems(&s->e->bufs[buf]) == n) {
        /* only an f32 intermediate: a register holds what its buffer
         * would (bf16/f16 results are rounded when stored) */
        if (is_elementwise(s, j) && s->uses[buf] == 1 && s->nabsorbed < SS__K_FUSED_MAX_OPS &&
            s->e->bufs[buf].dtype == SS_F32) {
            s->absorbed[s->nabsorbed++] = j;
            s->gone[j] = 1;
            return build_inst(s, j, n);
        }
        int32_t repeat;
        if (is_foldable_broadcast(s, j, &repeat) && s->nfolds < SS__K_FUSED_MAX_OPS) {
            s->folds[s->nfolds++] = buf;
            return leaf(s, s->e->insts[j].in[0], repeat);
        }
    }
    return leaf(s, buf, 0);
}

static int build_inst(fuser *s, int k, int64_t n)
{
    const ss__inst *i = &s->e->insts[k];
    const ss__node *nd = node_of(s, k);
    int a = build_buf(s, i->in[0], n);
    if (nd->op == SS__OP_UNARY)
        return push(s, (ss__k_fused_op){SS__K_FUSED_UNARY, (uint8_t)nd->sub, (uint8_t)a, 0, 0});
    int b = build_buf(s, i->in[1], n);
    if (nd->op == SS__OP_FMA) {
        int c = build_buf(s, i->in[2], n);
        return push(s, (ss__k_fused_op){SS__K_FUSED_FMA, (uint8_t)nd->sub, (uint8_t)a, (uint8_t)b,
                                        (uint8_t)c});
    }
    return push(s,
                (ss__k_fused_op){SS__K_FUSED_BINARY, (uint8_t)nd->sub, (uint8_t)a, (uint8_t)b, 0});
}

/* Try to make instruction k the root of a fused expression. */
static void fuse_root(fuser *s, int k)
{
    ss__inst *i = &s->e->insts[k];
    int64_t n = elems(&s->e->bufs[i->out]);
    memset(&s->f, 0, sizeof s->f);
    s->nleaves = s->nabsorbed = s->nfolds = 0;
    s->overflow = false;
    build_inst(s, k, n);
    if (s->overflow || (s->nabsorbed == 0 && s->nfolds == 0)) {
        for (int j = 0; j < s->nabsorbed; j++)
            s->gone[s->absorbed[j]] = 0; /* undo */
        return;
    }
    for (int j = 0; j < s->nfolds; j++)
        s->folded[s->folds[j]]++;
    i->kind = SS__INST_FUSED;
    i->fused = s->f;
    i->nin = s->nleaves;
    memcpy(i->in, s->leaves, sizeof(int) * (size_t)s->nleaves);
}

/* Does any instruction strictly between j and k read buffer b? */
static bool read_between(const ss_executable *e, int j, int k, int b)
{
    for (int q = j + 1; q < k; q++)
        for (int x = 0; x < e->insts[q].nin; x++)
            if (e->insts[q].in[x] == b)
                return true;
    return false;
}

/* Merge FUSED instruction j into the later FUSED k that reads j's result
 * `b`: j's steps first, k's leaf for b becomes j's last register, j's
 * results become extra results of k. False (nothing changed) if the
 * merged expression would not fit. */
static bool merge_into(ss_executable *e, int j, int k, int b)
{
    const ss__inst *ij = &e->insts[j];
    ss__inst m = e->insts[k];
    const ss__inst *ik = &e->insts[k];
    ss__k_fused f = ij->fused;
    int leaves[SS__K_FUSED_MAX_LEAVES], nleaves = ij->nin;
    memcpy(leaves, ij->in, sizeof(int) * (size_t)ij->nin);
    int map[SS__K_FUSED_MAX_OPS];
    int root_j = ij->fused.nops - 1;
    /* j's steps go first, so j must not read anything k produces. */
    for (int x = 0; x < ij->nin; x++) {
        bool produced = ij->in[x] == ik->out;
        for (int y = 0; y < ik->fused.nextra; y++)
            produced = produced || ij->in[x] == ik->extra_out[y];
        if (produced)
            return false;
    }
    (void)b;
    for (int r = 0; r < ik->fused.nops; r++) {
        ss__k_fused_op o = ik->fused.ops[r];
        if (o.kind == SS__K_FUSED_LEAF) {
            int buf = ik->in[o.sub];
            int32_t repeat = ik->fused.repeat[o.sub];
            /* Any of j's results that k reads comes from j's registers. */
            int jreg = repeat ? -1 : buf == ij->out ? root_j : -1;
            for (int y = 0; !repeat && jreg < 0 && y < ij->fused.nextra; y++)
                if (buf == ij->extra_out[y])
                    jreg = ij->fused.extra[y];
            if (jreg >= 0) {
                map[r] = jreg;
                continue;
            }
            int l = 0;
            while (l < nleaves && (leaves[l] != buf || f.repeat[l] != repeat))
                l++;
            if (l == nleaves) {
                if (nleaves == SS__K_FUSED_MAX_LEAVES)
                    return false;
                f.repeat[nleaves] = repeat;
                leaves[nleaves++] = buf;
            }
            o.sub = (uint8_t)l;
        } else {
            o.a = (uint8_t)map[o.a];
            if (o.kind == SS__K_FUSED_BINARY || o.kind == SS__K_FUSED_FMA)
                o.b = (uint8_t)map[o.b];
            if (o.kind == SS__K_FUSED_FMA)
                o.c = (uint8_t)map[o.c];
        }
        if (f.nops == SS__K_FUSED_MAX_OPS)
            return false;
        map[r] = f.nops;
        f.ops[f.nops++] = o;
    }
    /* k's result must stay the last step: if it was a mapped leaf (k only
     * forwards b), there is nothing to merge. */
    if (map[ik->fused.nops - 1] != f.nops - 1)
        return false;
    int nextra = 0;
    uint8_t extra[SS__K_FUSED_MAX_EXTRA * 3];
    int extra_out[SS__K_FUSED_MAX_EXTRA * 3];
    for (int x = 0; x < ik->fused.nextra; x++) {
        extra[nextra] = (uint8_t)map[ik->fused.extra[x]];
        extra_out[nextra++] = ik->extra_out[x];
    }
    extra[nextra] = (uint8_t)root_j;
    extra_out[nextra++] = ij->out;
    for (int x = 0; x < ij->fused.nextra; x++) {
        extra[nextra] = ij->fused.extra[x];
        extra_out[nextra++] = ij->extra_out[x];
    }
    if (nextra > SS__K_FUSED_MAX_EXTRA)
        return false;
    f.nextra = nextra;
    memcpy(f.extra, extra, (size_t)nextra);
    m.fused = f;
    m.nin = nleaves;
    memcpy(m.in, leaves, sizeof(int) * (size_t)nleaves);
    memcpy(m.extra_out, extra_out, sizeof(int) * (size_t)nextra);
    e->insts[k] = m;
    return true;
}

/* Sibling (multi-output) fusion, as XLA's: a FUSED instruction that reads
 * the result of an earlier FUSED one of the same size, when nothing in
 * between reads that result, computes it itself — Adam's moment updates
 * then feed the parameter update from registers, not memory. */
static void merge_siblings(ss_executable *e)
{
    unsigned char *gone = calloc((size_t)(e->ninsts ? e->ninsts : 1), 1);
    int *producer = malloc(sizeof(int) * (size_t)(e->nbufs ? e->nbufs : 1));
    if (!gone || !producer) {
        free(gone);
        free(producer);
        return; /* an optimisation: skipping it is always correct */
    }
    for (int b = 0; b < e->nbufs; b++)
        producer[b] = -1;
    for (int k = 0; k < e->ninsts; k++) {
        ss__inst *ik = &e->insts[k];
        if (ik->kind == SS__INST_FUSED) {
            bool merged = true;
            while (merged) {
                merged = false;
                for (int x = 0; x < ik->nin && !merged; x++) {
                    int b = ik->in[x], j = producer[b];
                    if (j < 0 || gone[j] || e->insts[j].kind != SS__INST_FUSED ||
                        elems(&e->bufs[e->insts[j].out]) != elems(&e->bufs[ik->out]) ||
                        e->bufs[e->insts[j].out].dtype != SS_F32)
                        continue;
                    const ss__inst *ij = &e->insts[j];
                    bool clear = !read_between(e, j, k, ij->out);
                    for (int y = 0; clear && y < ij->fused.nextra; y++)
                        clear = !read_between(e, j, k, ij->extra_out[y]) &&
                                e->bufs[ij->extra_out[y]].dtype == SS_F32;
                    if (clear && merge_into(e, j, k, b)) {
                        gone[j] = 1;
                        merged = true;
                    }
                }
            }
            producer[ik->out] = k;
            for (int y = 0; y < ik->fused.nextra; y++)
                producer[ik->extra_out[y]] = k;
        } else if (ik->kind != SS__INST_STORE && ik->kind != SS__INST_FREE) {
            producer[ik->out] = k;
        }
    }
    int m = 0;
    for (int k = 0; k < e->ninsts; k++)
        if (!gone[k])
            e->insts[m++] = e->insts[k];
    e->ninsts = m;
    free(gone);
    free(producer);
}

ss_status ss__fuse(ss_executable *e)
{
    fuser s;
    memset(&s, 0, sizeof s);
    s.e = e;
    size_t nb = (size_t)(e->nbufs ? e->nbufs : 1), ni = (size_t)(e->ninsts ? e->ninsts : 1);
    s.producer = malloc(sizeof(int) * nb);
    s.uses = calloc(nb, sizeof(int));
    s.folded = calloc(nb, sizeof(int));
    s.gone = calloc(ni, 1);
    if (!s.producer || !s.uses || !s.folded || !s.gone) {
        free(s.producer);
        free(s.uses);
        free(s.folded);
        free(s.gone);
        return ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
    }
    for (int b = 0; b < e->nbufs; b++)
        s.producer[b] = -1;
    for (int k = 0; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        if (i->kind != SS__INST_STORE && i->kind != SS__INST_FREE)
            s.producer[i->out] = k;
        for (int j = 0; j < i->nin; j++)
            s.uses[i->in[j]]++;
    }
    /* Roots from the last instruction back, so each tree is taken whole by
     * its last consumer. */
    for (int k = e->ninsts - 1; k >= 0; k--)
        if (!s.gone[k] && is_elementwise(&s, k))
            fuse_root(&s, k);
    /* Broadcasts every user folded in are no longer needed. */
    for (int k = 0; k < e->ninsts; k++) {
        int32_t repeat;
        if (!s.gone[k] && is_foldable_broadcast(&s, k, &repeat) &&
            s.folded[e->insts[k].out] == s.uses[e->insts[k].out])
            s.gone[k] = 1;
    }
    int m = 0;
    for (int k = 0; k < e->ninsts; k++)
        if (!s.gone[k])
            e->insts[m++] = e->insts[k];
    e->ninsts = m;
    free(s.producer);
    free(s.uses);
    free(s.folded);
    free(s.gone);
    merge_siblings(e);
    return SS_OK;
}
