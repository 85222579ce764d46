/*
 * replicas.c — the replica groups of a compiled program's instructions
 * (replicas.h): one forward pass over the instruction list gives every
 * buffer the mesh axes it is the same along, and a second marks the results
 * whose followers must hold a copy. Deliberately conservative: anything not
 * known to be identical is treated as different.
 */
#include "replicas.h"

#include <stdlib.h>
#include <string.h>

bool ss__replicas_naive(void)
{
    const char *v = getenv("SHARDSIM_REPLICAS");
    return v && strcmp(v, "each") == 0;
}

/* Mask of the mesh axes a collective's groups span (0 for index groups:
 * not worked out, so nothing is claimed). */
static unsigned coll_axes(const ss_mesh *m, const ss_coll *c, bool *by_axes)
{
    unsigned g = 0;
    *by_axes = c->ngroups == 0;
    for (int k = 0; k < c->naxes && *by_axes; k++) {
        int a = ss_mesh_axis_index(m, c->axes[k]);
        if (a < 0)
            *by_axes = false;
        else
            g |= 1u << a;
    }
    return g;
}

/* The mesh axes the result of instruction i is the same along, from its
 * operands' (same[]). */
static unsigned result_same(const ss_executable *e, const ss__inst *i, const unsigned *same,
                            unsigned all)
{
    unsigned in0 = i->nin > 0 ? same[i->in[0]] : all;
    switch (i->kind) {
    case SS__INST_LOAD: return all & ~ss__layout_used(&i->layout) & ~i->layout.partial;
    case SS__INST_CONST:
    case SS__INST_ALLOC: return all;
    case SS__INST_KERNEL:
    case SS__INST_FUSED: {
        const ss__node *n = &e->program->nodes[i->node];
        if (i->kind == SS__INST_KERNEL &&
            (n->op == SS__OP_GATHER || n->op == SS__OP_SCATTER) && i->layout.known)
            return 0; /* run_placed_index reads the device's coordinates */
        unsigned s = all;
        for (int k = 0; k < i->nin; k++)
            s &= same[i->in[k]];
        return s;
    }
    case SS__INST_COLL: {
        bool by_axes;
        unsigned g = coll_axes(e->mesh, &i->coll, &by_axes);
        if (!by_axes)
            return 0;
        if (i->coll.kind == SS_COLL_ALL_REDUCE || i->coll.kind == SS_COLL_ALL_GATHER ||
            i->coll.kind == SS_COLL_BROADCAST)
            return in0 | g;
        return in0 & ~g;
    }
    case SS__INST_SLICE: return in0 & ~ss__layout_used(&i->layout);
    case SS__INST_UNSTACK: return in0;
    default: return 0;
    }
}

ss_status ss__replicas_plan(const ss_executable *e, ss__replicas *out)
{
    memset(out, 0, sizeof *out);
    const ss_mesh *m = e->mesh;
    unsigned all = 0;
    for (int a = 0; a < m->naxes; a++)
        if (m->sizes[a] > 1)
            all |= 1u << a;
    size_t nb = (size_t)(e->nbufs ? e->nbufs : 1), ni = (size_t)(e->ninsts ? e->ninsts : 1);
    unsigned *same = calloc(nb, sizeof *same);
    /* Per buffer: 64 x the instruction that last wrote it + its result
     * number, or -1 (not a result that could be shared). */
    int *prod = malloc(nb * sizeof *prod);
    out->group = calloc(ni, sizeof *out->group);
    out->need = calloc(ni, sizeof *out->need);
    if (!same || !prod || !out->group || !out->need) {
        free(same);
        free(prod);
        ss__replicas_free(out);
        return ss__fail(SS_ERR_NOMEM, "run: out of host memory");
    }
    for (size_t b = 0; b < nb; b++)
        prod[b] = -1;
    /* A loop carry that adopts its operand (liveness.c) writes it in place
     * on every device: stored once, each device would copy it back whole
     * into its own block at the first write (an initial zeros twice over);
     * computing it on each device writes it once. prod[] marks them (-2)
     * until the pass below reaches them. */
    for (int k = 0; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        if (i->kind != SS__INST_LOOP)
            continue;
        const ss__loop_exec *L = &e->loops[i->index];
        for (int c = 0; c < L->ncarry && c < i->nin; c++)
            if (L->adopt[c])
                prod[i->in[c]] = -2;
    }
    for (int k = 0; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        /* The group first: it decides which reads below need a copy. */
        unsigned s = result_same(e, i, same, all);
        /* Host buffers stay each device's own (the store is device memory). */
        if ((i->kind == SS__INST_KERNEL || i->kind == SS__INST_FUSED) && s &&
            !e->bufs[i->out].host && prod[i->out] != -2) {
            size_t bytes = e->bufs[i->out].bytes;
            for (int x = 0; i->kind == SS__INST_FUSED && x < i->fused.nextra; x++)
                bytes += e->bufs[i->extra_out[x]].bytes;
            if (bytes >= SS__REPLICAS_MIN_BYTES)
                out->group[k] = s;
        }
        /* Reads: a result is needed by the followers unless its reader is
         * run by the same group's leader only. */
        for (int j = 0; i->kind != SS__INST_FREE && j < i->nin; j++) {
            int p = prod[i->in[j]];
            if (p < 0)
                continue;
            if (!(out->group[k] && out->group[k] == out->group[p / 64]))
                out->need[p / 64][p % 64] = 1;
        }
        if (i->kind == SS__INST_FREE || i->kind == SS__INST_STORE)
            continue;
        if (i->kind == SS__INST_PLACE) { /* writes into in[1] (= out) */
            same[i->out] &= same[i->in[0]] & ~(1u << i->place_axis);
            prod[i->out] = -1;
            continue;
        }
        if (i->kind == SS__INST_LOOP) {
            const ss__loop_exec *L = &e->loops[i->index];
            for (int r = 0; r < L->ncarry + L->nys; r++) {
                same[L->outs[r]] = 0;
                prod[L->outs[r]] = -1;
            }
            continue;
        }
        same[i->out] = s;
        prod[i->out] = k * 64;
        for (int x = 0; i->kind == SS__INST_FUSED && x < i->fused.nextra; x++) {
            same[i->extra_out[x]] = s;
            prod[i->extra_out[x]] = k * 64 + 1 + x;
        }
    }
    free(same);
    free(prod);
    return SS_OK;
}

void ss__replicas_free(ss__replicas *r)
{
    free(r->group);
    free(r->need);
    r->group = NULL;
    r->need = NULL;
}
