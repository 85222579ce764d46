/*
 * memory.c — which memory each value of a program lives in
 * (ss_memory_kind), including the values its loops carry, as XLA's host
 * offloader assigns them (xla/hlo/transforms/host_offloader.cc and its
 * legalizer; facts only, no code).
 *
 * A device_put to a host kind (@annotate_device_placement) starts a host
 * value. XLA then follows its uses: bitcasts (a reshape, a broadcast that
 * only adds unit dims, a sharding constraint) keep it in host memory; a
 * dynamic_update_slice of it into a buffer makes that buffer a host
 * buffer (the stacked residuals of a scan), and the buffer's initial value
 * found through the loop carries, a broadcast of a constant, becomes an
 * allocation in host memory instead of device memory; the stacked buffer
 * travels through the while loops' carries in host memory; a
 * dynamic_slice of it (the backward scan's residual for this step) is a
 * host-to-device copy of the slice only. Here that is one pass per
 * program (and, recursively, its regions, with their arguments' kinds),
 * repeated until nothing changes: a loop's carry is in host memory when
 * its initial value is or when its body hands back a host value for it.
 *
 * The result is stored in ss_program.memory (per value; ss__value_memory
 * reads it) for the lowering: lower.c gives each buffer the memory of its
 * value, turns a dynamic_slice of a host value into a transfer and refuses,
 * by name, any other op reading a host value. A program without a
 * device_put to a host kind anywhere is left alone (memory stays NULL).
 * Deliberately not done: host values as stacked xs/ys of shardsim's own
 * scans, a host carry whose body returns a device value (XLA would copy
 * it back each step), host values in conditionals' results.
 */
#include "lower_internal.h"

#include <stdlib.h>
#include <string.h>

/* Does p or one of its regions put a value in a host memory kind? */
static bool puts_to_host(const ss_program *p)
{
    for (ss_value v = 0; v < p->n; v++)
        if (p->nodes[v].op == SS__OP_MEMORY && p->nodes[v].sub != SS_MEMORY_DEVICE)
            return true;
    for (int k = 0; k < p->nloops; k++) {
        const ss__loop *l = &p->loops[k];
        if ((l->cond && puts_to_host(l->cond)) || (l->body && puts_to_host(l->body)))
            return true;
        for (int b = 0; b < l->nbranch; b++)
            if (puts_to_host(l->branch[b]))
                return true;
    }
    return false;
}

static void forget(ss_program *p)
{
    free(p->memory);
    p->memory = NULL;
    p->memory_n = 0;
    for (int k = 0; k < p->nloops; k++) {
        ss__loop *l = &p->loops[k];
        if (l->cond)
            forget(l->cond);
        if (l->body)
            forget(l->body);
        for (int b = 0; b < l->nbranch; b++)
            forget(l->branch[b]);
    }
}

static int64_t elems(const ss__node *n)
{
    int64_t e = 1;
    for (int d = 0; d < n->rank; d++)
        e *= n->shape[d];
    return e;
}

/* A broadcast of a scalar constant used once (the zeros a scan's stacked
 * residuals start from): XLA allocates it in host memory when a host
 * buffer starts from it. */
static bool host_allocatable(const ss_program *p, const int *users, ss_value v)
{
    const ss__node *n = &p->nodes[v];
    return n->op == SS__OP_BROADCAST && p->nodes[n->in[0]].rank == 0 &&
           p->nodes[n->in[0]].op == SS__OP_CONSTANT && users[v] == 1 && !n->is_output;
}

typedef struct pass {
    ss_program *p;
    unsigned char *m;     /* per value: its ss_memory_kind */
    unsigned char *alloc; /* per value: a broadcast allocated in host memory */
    int *users;
    bool changed;
} pass;

static ss_status assign(ss_program *p, const unsigned char argk[], int nargk);

/* A host buffer starts from value v (a carry's initial value, a
 * dynamic_update_slice's operand) computed in device memory: made a host
 * allocation when it can be (*made), else left (the loop transfers it). */
static void want_host(pass *s, ss_value v, unsigned char kind, bool *made)
{
    *made = false;
    if (s->m[v] != SS_MEMORY_DEVICE || !host_allocatable(s->p, s->users, v))
        return;
    if (!s->alloc[v]) {
        s->alloc[v] = kind;
        s->changed = true;
    }
    *made = true;
}

/* Loop v: the kinds of its carries (a fixed point over its body), its
 * regions assigned with them, its results' kinds into s->m. */
static ss_status assign_loop(pass *s, ss_value v)
{
    ss_program *p = s->p;
    const ss__node *n = &p->nodes[v];
    ss__loop *l = &p->loops[n->loop];
    int nc = l->ncarry, nx = l->nxs;
    unsigned char ck[64], args[SS__MAX_INPUTS];
    if (nc > 64)
        return ss__fail(SS_ERR_UNSUPPORTED, "compile: %%%d (loop): more than 64 carries", (int)v);
    for (int k = 0; k < nc; k++)
        ck[k] = s->m[n->in[k]];
    for (int k = 0; k < nx; k++)
        if (s->m[n->in[nc + k]] != SS_MEMORY_DEVICE)
            return ss__fail(SS_ERR_UNSUPPORTED,
                            "compile: %%%d (loop) scans over %%%d, a value in %s memory: stacked "
                            "loop inputs are read in device memory only",
                            (int)v, (int)n->in[nc + k],
                            ss_memory_kind_name((ss_memory_kind)s->m[n->in[nc + k]]));
    ss_status st;
    for (bool grew = true; grew;) {
        grew = false;
        int na = 0;
        for (int k = 0; k < nc; k++)
            args[na++] = ck[k];
        for (int k = 0; k < nx; k++)
            args[na++] = SS_MEMORY_DEVICE;
        for (int k = 0; k < l->nbody_inv; k++)
            args[na++] = s->m[n->in[nc + nx + l->ncond_inv + k]];
        if ((st = assign(l->body, args, na)))
            return st;
        for (int k = 0; k < nc; k++) {
            unsigned char rk = l->body->memory[l->body->outs[k]];
            if (rk != SS_MEMORY_DEVICE && ck[k] == SS_MEMORY_DEVICE) {
                ck[k] = rk;
                grew = true;
            }
        }
    }
    for (int k = 0; k < nc; k++) {
        ss_value r = l->body->outs[k];
        if (ck[k] != SS_MEMORY_DEVICE && l->body->memory[r] == SS_MEMORY_DEVICE)
            return ss__fail(SS_ERR_UNSUPPORTED,
                            "compile: %%%d (loop): carry %d lives in %s memory but the body "
                            "returns it computed in device memory (body value %%%d): a host "
                            "carry is only updated in place or passed through",
                            (int)v, k, ss_memory_kind_name((ss_memory_kind)ck[k]), (int)r);
        bool made;
        if (ck[k] != SS_MEMORY_DEVICE)
            want_host(s, n->in[k], ck[k], &made);
    }
    for (int k = 0; k < l->nys; k++) {
        ss_value r = l->body->outs[nc + k];
        if (l->body->memory[r] != SS_MEMORY_DEVICE)
            return ss__fail(SS_ERR_UNSUPPORTED,
                            "compile: %%%d (loop): its stacked output %d is in %s memory (body "
                            "value %%%d): stacked loop outputs are written in device memory only",
                            (int)v, k, ss_memory_kind_name((ss_memory_kind)l->body->memory[r]),
                            (int)r);
    }
    if (l->cond) {
        int na = 0;
        for (int k = 0; k < nc; k++)
            args[na++] = ck[k];
        for (int k = 0; k < l->ncond_inv; k++)
            args[na++] = s->m[n->in[nc + nx + k]];
        if ((st = assign(l->cond, args, na)))
            return st;
    }
    for (int k = 0; k < nc + l->nys; k++)
        s->m[ss__loop_result(p, v, k)] = k < nc ? ck[k] : SS_MEMORY_DEVICE;
    return SS_OK;
}

/* A conditional: each branch with its operands' kinds; results in device
 * memory (a branch returning a host value is refused where it is read). */
static ss_status assign_case(pass *s, ss_value v)
{
    const ss__node *n = &s->p->nodes[v];
    ss__loop *l = &s->p->loops[n->loop];
    unsigned char args[SS__MAX_INPUTS];
    for (int b = 0; b < l->nbranch; b++) {
        int na = 0;
        for (int k = l->branch_at[b]; k < l->branch_at[b + 1]; k++)
            args[na++] = s->m[n->in[k]];
        ss_status st = assign(l->branch[b], args, na);
        if (st)
            return st;
    }
    return SS_OK;
}

/* One pass over p's values in order. */
static ss_status sweep(pass *s, const unsigned char argk[], int nargk)
{
    ss_program *p = s->p;
    int arg = 0;
    for (ss_value v = 0; v < p->n; v++) {
        const ss__node *n = &p->nodes[v];
        unsigned char k = SS_MEMORY_DEVICE;
        unsigned char a0 = n->nin > 0 ? s->m[n->in[0]] : SS_MEMORY_DEVICE;
        switch (n->op) {
        case SS__OP_INPUT:
            if (p->is_region && arg < nargk)
                k = argk[arg];
            arg++;
            break;
        case SS__OP_MEMORY: k = (unsigned char)n->sub; break;
        case SS__OP_CONSTRAIN:
        case SS__OP_RESHAPE: k = a0; break;
        case SS__OP_BROADCAST:
            /* A bitcast (unit dims added) keeps a host value there; a
             * broadcast constant a host buffer starts from is allocated there. */
            k = s->alloc[v] ? s->alloc[v]
                : elems(n) == elems(&p->nodes[n->in[0]]) ? a0
                                                         : SS_MEMORY_DEVICE;
            break;
        case SS__OP_DYNAMIC_UPDATE_SLICE: {
            unsigned char a1 = s->m[n->in[1]];
            k = a0 != SS_MEMORY_DEVICE ? a0 : a1;
            if (k != SS_MEMORY_DEVICE && a0 == SS_MEMORY_DEVICE) {
                bool made;
                want_host(s, n->in[0], k, &made);
                if (!made && !(p->is_region && p->nodes[n->in[0]].op == SS__OP_INPUT))
                    return ss__fail(SS_ERR_UNSUPPORTED,
                                    "compile: %%%d (dynamic_update_slice) writes a value in %s "
                                    "memory into %%%d (%s), computed in device memory: only a "
                                    "broadcast constant or a loop carry becomes a host buffer",
                                    (int)v, ss_memory_kind_name((ss_memory_kind)k),
                                    (int)n->in[0], ss__opcode_name(&p->nodes[n->in[0]]));
            }
            break;
        }
        case SS__OP_LOOP: {
            ss_status st = assign_loop(s, v);
            if (st)
                return st;
            continue;
        }
        case SS__OP_CASE: {
            ss_status st = assign_case(s, v);
            if (st)
                return st;
            break;
        }
        case SS__OP_LOOP_RESULT: continue; /* its loop set it */
        default: break;                    /* dynamic_slice: a transfer to the device */
        }
        s->m[v] = k;
    }
    return SS_OK;
}

/* Assign p's kinds into p->memory: a region's arguments have kinds argk[]. */
static ss_status assign(ss_program *p, const unsigned char argk[], int nargk)
{
    size_t n = (size_t)(p->n ? p->n : 1);
    pass s = {p, calloc(n, 1), calloc(n, 1), calloc(n, sizeof(int)), true};
    ss_status st = SS_OK;
    if (!s.m || !s.alloc || !s.users)
        st = ss__fail(SS_ERR_NOMEM, "compile: out of host memory");
    for (ss_value v = 0; v < p->n && !st; v++)
        for (int k = 0; k < p->nodes[v].nin; k++)
            s.users[p->nodes[v].in[k]]++;
    for (int round = 0; !st && s.changed; round++) {
        s.changed = false;
        if (round > p->n + 1)
            st = ss__fail(SS_ERR_UNSUPPORTED, "compile: memory kinds do not settle");
        else
            st = sweep(&s, argk, nargk);
    }
    free(s.alloc);
    free(s.users);
    if (st) {
        free(s.m);
        return st;
    }
    free(p->memory);
    p->memory = s.m;
    p->memory_n = p->n;
    return SS_OK;
}

ss_status ss__memory_assign(ss_program *p)
{
    forget(p);
    if (!puts_to_host(p))
        return SS_OK;
    ss_status st = assign(p, NULL, 0);
    if (st)
        forget(p);
    return st;
}

/* --- Lowering ------------------------------------------------------------ */

bool ss__memory_reads_host(const ss_program *p, ss_value v, int k)
{
    const ss__node *n = &p->nodes[v];
    bool host = ss__value_memory(p, v) != SS_MEMORY_DEVICE;
    switch (n->op) {
    case SS__OP_MEMORY:
    case SS__OP_CONSTRAIN:
    case SS__OP_LOOP: return true; /* a move; a carry (memory.c placed the loop) */
    case SS__OP_RESHAPE:
    case SS__OP_BROADCAST: return host; /* a bitcast in host memory */
    case SS__OP_DYNAMIC_UPDATE_SLICE: return host && k < 2;
    case SS__OP_DYNAMIC_SLICE: return k == 0; /* a host-to-device copy of the slice */
    default: return false;
    }
}

static bool p_scalar(const ss_program *p, const ss__node *n)
{
    return n->nin == 1 && p->nodes[n->in[0]].rank == 0;
}

ss_status ss__memory_lowered(ss__lowering *s, ss_value v, int b0, int i0)
{
    ss_executable *e = s->e;
    if (!s->p->memory)
        return SS_OK;
    for (int b = b0; b < e->nbufs; b++)
        e->bufs[b].host = ss__value_memory(s->p, e->bufs[b].value) != SS_MEMORY_DEVICE;
    const ss__node *n = &s->p->nodes[v];
    ss_memory_kind mk = ss__value_memory(s->p, v);
    if (mk != SS_MEMORY_DEVICE && n->op != SS__OP_MEMORY && n->op != SS__OP_LOOP_RESULT)
        ss__buf_printf(&s->line, ": in %s memory (%s)", ss_memory_kind_name(mk),
                       n->op == SS__OP_DYNAMIC_UPDATE_SLICE ? "updated in place"
                       : n->op == SS__OP_BROADCAST && p_scalar(s->p, n) ? "allocated there"
                       : n->op == SS__OP_INPUT ? "a loop carry"
                                               : "a bitcast");
    if (n->op != SS__OP_DYNAMIC_SLICE || ss__value_memory(s->p, n->in[0]) == SS_MEMORY_DEVICE)
        return SS_OK;
    /* XLA's dynamic-slice of a host buffer reads the slice over the host
     * link into device memory: the kernel is the transfer. */
    for (int k = e->ninsts - 1; k >= i0; k--) {
        ss__inst *i = &e->insts[k];
        if (i->kind == SS__INST_KERNEL && i->node == v && e->bufs[i->in[0]].host) {
            i->kind = SS__INST_TRANSFER;
            char b[32];
            ss__fmt_bytes(b, sizeof b, (double)e->bufs[i->out].bytes);
            ss__buf_printf(&s->line, ": the slice from host memory, host to device, %s per "
                                     "device over the host link",
                           b);
            return SS_OK;
        }
    }
    return SS_OK;
}

/* Whether kernel i, whose result is in host memory, is one XLA runs there:
 * a bitcast (reshape, broadcast adding unit dims) of a host value, an
 * in-place update of a host buffer by a host value, or the allocation of a
 * broadcast constant; its other operands are scalars (start indices). */
static bool host_kernel(const ss_executable *e, const ss__inst *i)
{
    ss__opcode op = e->program->nodes[i->node].op;
    if (op == SS__OP_BROADCAST && i->nin == 1 && e->bufs[i->in[0]].rank == 0)
        return true; /* a host allocation */
    if (op != SS__OP_RESHAPE && op != SS__OP_BROADCAST && op != SS__OP_DYNAMIC_UPDATE_SLICE)
        return false;
    for (int k = 0; k < i->nin; k++)
        if (!e->bufs[i->in[k]].host && (op != SS__OP_DYNAMIC_UPDATE_SLICE || k < 2))
            return false;
    return true;
}

static const char *inst_name(ss__inst_kind kind)
{
    switch (kind) {
    case SS__INST_COLL: return "collective";
    case SS__INST_FUSED: return "fused kernel";
    case SS__INST_UNSTACK: return "all-gather unstacking";
    case SS__INST_ALLOC:
    case SS__INST_PLACE: return "block placement";
    case SS__INST_SLICE: return "local slice";
    default: return "kernel";
    }
}

ss_status ss__memory_check(const ss_executable *e)
{
    for (int k = 0; k < e->ninsts; k++) {
        const ss__inst *i = &e->insts[k];
        bool hin = false, hout;
        switch (i->kind) {
        case SS__INST_TRANSFER:
        case SS__INST_FREE:
        case SS__INST_STORE:
        case SS__INST_LOOP:
        case SS__INST_LOAD:
        case SS__INST_CONST: continue;
        default: break;
        }
        for (int j = 0; j < i->nin; j++)
            hin = hin || e->bufs[i->in[j]].host;
        hout = e->bufs[i->out].host;
        if (!hin && !hout)
            continue;
        if (i->kind == SS__INST_KERNEL && hout && host_kernel(e, i))
            continue;
        if (i->kind == SS__INST_SLICE && hin && hout)
            continue;
        const ss__node *n = &e->program->nodes[i->node];
        return ss__fail(SS_ERR_UNSUPPORTED,
                        "compile: %%%d (%s) would need a %s on a buffer in host memory: host "
                        "values only move whole between host and device, are updated in place "
                        "or bitcast (XLA computes in device memory)",
                        (int)i->node, ss__opcode_name(n), inst_name(i->kind));
    }
    return SS_OK;
}
