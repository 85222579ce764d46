/*
 * fuse.c — loop fusion of elementwise chains, as XLA fuses them.
 *
 * After lowering, a chain such as Adam's update (a dozen adds, multiplies,
 * a square root) is a dozen kernels, each reading and writing the whole
 * block. Fusion turns every maximal tree of elementwise kernels whose
 * intermediate results have exactly one user into one FUSED instruction
 * that reads each input once and writes the result once, with no buffers
 * for the intermediates. Broadcasts of a scalar are folded into every
 * fused user as a scalar leaf (and disappear when nothing else needs
 * them). It only removes work and memory: the values are bit for bit
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
    int leaves[SS__K_FUSED_MAX_LEAVES];
    int nleaves;
    int absorbed[SS__K_FUSED_MAX_OPS];
    int nabsorbed;
    int scalar_folds[SS__K_FUSED_MAX_OPS];
    int nscalar_folds;
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
    if (n->op != SS__OP_UNARY && n->op != SS__OP_BINARY)
        return false;
    int64_t n_out = elems(&s->e->bufs[i->out]);
    for (int j = 0; j < i->nin; j++) {
        const ss__bufdesc *b = &s->e->bufs[i->in[j]];
        if (b->rank != 0 && elems(b) != n_out)
            return false;
    }
    return true;
}

/* A broadcast of a scalar buffer. */
static bool is_splat(const fuser *s, int k)
{
    const ss__inst *i = &s->e->insts[k];
    return i->kind == SS__INST_KERNEL && node_of(s, k)->op == SS__OP_BROADCAST &&
           s->e->bufs[i->in[0]].rank == 0;
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

static int leaf(fuser *s, int buf)
{
    int k = 0;
    while (k < s->nleaves && s->leaves[k] != buf)
        k++;
    if (k == s->nleaves) {
        if (s->nleaves == SS__K_FUSED_MAX_LEAVES) {
            s->overflow = true;
            return 0;
        }
        s->leaves[s->nleaves++] = buf;
    }
    return push(s, (ss__k_fused_op){SS__K_FUSED_LEAF, (uint8_t)k, 0, 0});
}

static int build_inst(fuser *s, int k, int64_t n);

/* The register holding buffer `buf` inside an expression over n elements. */
static int build_buf(fuser *s, int buf, int64_t n)
{
    int j = s->producer[buf];
    if (j >= 0 && !s->gone[j] && elems(&s->e->bufs[buf]) == n) {
        if (is_elementwise(s, j) && s->uses[buf] == 1 && s->nabsorbed < SS__K_FUSED_MAX_OPS) {
            s->absorbed[s->nabsorbed++] = j;
            s->gone[j] = 1;
            return build_inst(s, j, n);
        }
        if (is_splat(s, j) && s->nscalar_folds < SS__K_FUSED_MAX_OPS) {
            s->scalar_folds[s->nscalar_folds++] = buf;
            return leaf(s, s->e->insts[j].in[0]);
        }
    }
    return leaf(s, buf);
}

static int build_inst(fuser *s, int k, int64_t n)
{
    const ss__inst *i = &s->e->insts[k];
    const ss__node *nd = node_of(s, k);
    int a = build_buf(s, i->in[0], n);
    if (nd->op == SS__OP_UNARY)
        return push(s, (ss__k_fused_op){SS__K_FUSED_UNARY, (uint8_t)nd->sub, (uint8_t)a, 0});
    int b = build_buf(s, i->in[1], n);
    return push(s, (ss__k_fused_op){SS__K_FUSED_BINARY, (uint8_t)nd->sub, (uint8_t)a, (uint8_t)b});
}

/* Try to make instruction k the root of a fused expression. */
static void fuse_root(fuser *s, int k)
{
    ss__inst *i = &s->e->insts[k];
    int64_t n = elems(&s->e->bufs[i->out]);
    memset(&s->f, 0, sizeof s->f);
    s->nleaves = s->nabsorbed = s->nscalar_folds = 0;
    s->overflow = false;
    build_inst(s, k, n);
    if (s->overflow || (s->nabsorbed == 0 && s->nscalar_folds == 0)) {
        for (int j = 0; j < s->nabsorbed; j++)
            s->gone[s->absorbed[j]] = 0; /* undo */
        return;
    }
    for (int j = 0; j < s->nscalar_folds; j++)
        s->folded[s->scalar_folds[j]]++;
    i->kind = SS__INST_FUSED;
    i->fused = s->f;
    i->nin = s->nleaves;
    memcpy(i->in, s->leaves, sizeof(int) * (size_t)s->nleaves);
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
    /* Splats every user folded in are no longer needed. */
    for (int k = 0; k < e->ninsts; k++)
        if (!s.gone[k] && is_splat(&s, k) && s.folded[e->insts[k].out] == s.uses[e->insts[k].out])
            s.gone[k] = 1;
    int m = 0;
    for (int k = 0; k < e->ninsts; k++)
        if (!s.gone[k])
            e->insts[m++] = e->insts[k];
    e->ninsts = m;
    free(s.producer);
    free(s.uses);
    free(s.folded);
    free(s.gone);
    return SS_OK;
}
