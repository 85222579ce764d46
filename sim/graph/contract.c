/*
 * contract.c — XLA CPU's floating-point contraction, for imported programs.
 *
 * XLA CPU compiles its fused loops with LLVM's floating-point op fusion
 * allowed, so on a machine with FMA a multiply whose only use is an add or
 * a subtract becomes one fused multiply-add: a*b+c rounded once. Measured
 * on jax 0.10.2 CPU (the rule and its probes: docs/xla-cpu-arithmetic.md):
 *   - f32 and f64 add and subtract, either operand order: contracted;
 *   - a multiply with another user in the same fused loop: not contracted;
 *   - bf16 and f16: not (each op is computed in f32 and rounded between);
 *   - integers: nothing to contract.
 * shardsim's imported programs must give XLA's bits, so the importer runs
 * this pass: it turns such an add or subtract into an SS__OP_FMA node in
 * place (its value and users unchanged); the multiply, left without
 * users, becomes a rank-0 constant nobody reads (node numbers stay).
 * Scenario programs never see it.
 *
 * Not reproduced: XLA also contracts when the multiply has other users in
 * other fusions (it duplicates the cheap multiply into each), and through
 * a broadcast, reshape, transpose or slice between the multiply and the
 * add (its fused emitter computes the multiply per element of the add).
 */
#include "graph.h"
#include "kernels/kernels.h"

#include <stdlib.h>
#include <string.h>

/* Whether v is computed from constants alone, as far as `*budget` more
 * nodes visited show (false when it runs out): a leaf constant or iota, or
 * an op of such values that is no input, collective, random or region op. */
static bool constant_expr(const ss_program *p, ss_value v, int *budget)
{
    if (--*budget < 0)
        return false;
    const ss__node *n = &p->nodes[v];
    switch (n->op) {
    case SS__OP_CONSTANT: return true;
    case SS__OP_INPUT: case SS__OP_PARAM: case SS__OP_RNG_BIT_GENERATOR:
    case SS__OP_COLLECTIVE: case SS__OP_MANUAL_IN: case SS__OP_MANUAL_OUT:
    case SS__OP_LOOP: case SS__OP_LOOP_RESULT: case SS__OP_CASE: case SS__OP_CASE_RESULT:
    case SS__OP_MEMORY: return false;
    default: break;
    }
    for (int k = 0; k < n->nin; k++)
        if (!constant_expr(p, n->in[k], budget))
            return false;
    return n->nin > 0;
}

bool ss__is_constant_expr(const ss_program *p, ss_value v)
{
    int budget = 4096;
    return constant_expr(p, v, &budget);
}

/* Whether node m is a float multiply of the add's dtype and shape whose
 * operands have that shape too (a contracted fma takes them as they are). */
static bool contractible_multiply(const ss_program *p, const ss__node *m, const ss__node *add)
{
    if (m->op != SS__OP_BINARY || m->sub != SS_MUL || m->dtype != add->dtype ||
        m->rank != add->rank || m->stop_gradient || m->manual != add->manual)
        return false;
    for (int d = 0; d < m->rank; d++)
        if (m->shape[d] != add->shape[d])
            return false;
    for (int k = 0; k < 2; k++) {
        const ss__node *x = &p->nodes[m->in[k]];
        if (x->dtype != m->dtype || x->rank != m->rank)
            return false;
        for (int d = 0; d < m->rank; d++)
            if (x->shape[d] != m->shape[d])
                return false;
    }
    return true;
}

/* Node v, a multiply the contraction left without users, becomes a rank-0
 * constant: nothing computes it, and its operands lose a user (they are
 * the fma's now). Its name, phase and source position stay. */
static void retire(ss_program *p, ss_value v)
{
    const ss__node m = p->nodes[v];
    ss__node *n = &p->nodes[v];
    memset(n, 0, sizeof *n);
    n->op = SS__OP_CONSTANT;
    n->sub = SS__CONST_SCALAR;
    n->dtype = m.dtype;
    n->manual = m.manual;
    n->phase = m.phase;
    n->line = m.line, n->col = m.col;
    n->pairs_at = -1;
    memcpy(n->name, m.name, sizeof n->name);
    ss__layout_replicated(&n->fixed, 0);
}

static ss_status contract_program(ss_program *p, int *count)
{
    free(p->layouts); /* nodes change: a propagation must run again */
    p->layouts = NULL;
    int *uses = calloc((size_t)(p->n ? p->n : 1), sizeof *uses);
    if (!uses)
        return ss__fail(SS_ERR_NOMEM, "contract: out of host memory");
    for (ss_value v = 0; v < p->n; v++) {
        const ss__node *n = &p->nodes[v];
        uses[v] += n->is_output;
        for (int k = 0; k < n->nin; k++)
            uses[n->in[k]]++;
    }
    for (ss_value v = 0; v < p->n; v++) {
        ss__node *n = &p->nodes[v];
        if (n->op != SS__OP_BINARY || (n->sub != SS_ADD && n->sub != SS_SUB) ||
            (n->dtype != SS_F32 && n->dtype != SS_F64))
            continue;
        /* LLVM tries the left operand first: (a*b) op c, then c op (a*b) */
        for (int k = 0; k < 2; k++) {
            ss_value mv = n->in[k], other = n->in[1 - k];
            const ss__node *m = &p->nodes[mv];
            /* XLA folds a multiply of constants before any fusion */
            if (uses[mv] != 1 || !contractible_multiply(p, m, n) ||
                ss__is_constant_expr(p, mv))
                continue;
            const ss__node *c = &p->nodes[other];
            if (c->rank != n->rank || c->dtype != n->dtype)
                continue;
            int form = n->sub == SS_ADD ? SS__K_FMA_ADD
                       : k == 0         ? SS__K_FMA_SUB
                                        : SS__K_FMA_REVSUB;
            n->op = SS__OP_FMA;
            n->sub = form;
            n->in[0] = m->in[0];
            n->in[1] = m->in[1];
            n->in[2] = other;
            n->nin = 3;
            uses[mv] = 0; /* the multiply's operand uses pass to the fma */
            retire(p, mv);
            ++*count;
            break;
        }
    }
    free(uses);
    return SS_OK;
}

/* p and the regions of its loops and conditionals, each on its own (a
 * region is a fused computation of its own in XLA as well). */
static ss_status contract_all(ss_program *p, int *count)
{
    ss_status st = contract_program(p, count);
    for (int l = 0; l < p->nloops && !st; l++) {
        const ss__loop *lp = &p->loops[l];
        if (lp->cond)
            st = contract_all(lp->cond, count);
        if (!st && lp->body)
            st = contract_all(lp->body, count);
        for (int b = 0; b < lp->nbranch && !st; b++)
            st = contract_all(lp->branch[b], count);
    }
    return st;
}

ss_status ss__contract_fma(ss_program *p, int *count)
{
    int none = 0;
    return contract_all(p, count ? (*count = 0, count) : &none);
}
