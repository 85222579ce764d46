/*
 * region.c — loops: lax.while_loop and lax.scan as one op with regions.
 *
 * A loop node (SS__OP_LOOP) owns sub-programs on the program's mesh (graph.h,
 * ss__loop): a condition and a body for a while, a body for a counted loop.
 * The builder calls the user's C callbacks on the enclosing program itself,
 * with fresh argument nodes standing for the carries (and the step's slices),
 * then moves the nodes they added into a new region program: its arguments
 * first, then every value of the enclosing program the callback used (a
 * captured value, made an explicit loop operand as jax.lax.while_loop's
 * closure conversion does), then the callback's ops in order. The
 * enclosing program is then as it was before the callback, plus the loop
 * node and one SS__OP_LOOP_RESULT node per result. A callback that
 * declares inputs or params, marks outputs or ends a shard_map it did not
 * begin is refused: a region has no side effects.
 */
#include "graph.h"

#include <stdlib.h>
#include <string.h>

#define SS__LOOP_MAX 64

void ss__loop_free(ss__loop *l)
{
    ss_program_destroy(l->cond);
    ss_program_destroy(l->body);
    for (int b = 0; b < l->nbranch && l->branch; b++)
        ss_program_destroy(l->branch[b]);
    free(l->branch);
    free(l->branch_at);
    free(l->res);
    l->cond = l->body = NULL;
    l->branch = NULL;
    l->branch_at = NULL;
    l->nbranch = 0;
    l->res = NULL;
}

/* Forget every node from `n0` on and the pairs from `pairs0` on. */
static void truncate_to(ss_program *p, int n0, int pairs0, int nouts0)
{
    for (int k = 0; k < nouts0; k++)
        p->nodes[p->outs[k]].is_output = true;
    p->n = n0;
    p->npairs = pairs0;
    p->nouts = nouts0;
    free(p->layouts);
    p->layouts = NULL;
}

/* An argument node of a region being built: shape and dtype of `like`, or
 * of `like` with its leading axis dropped when `drop_lead`. */
static ss_status add_arg(ss_program *p, const ss__node *like, bool drop_lead, ss_value *out)
{
    ss__node n;
    memset(&n, 0, sizeof n);
    n.op = SS__OP_INPUT;
    n.dtype = like->dtype;
    n.rank = like->rank - (drop_lead ? 1 : 0);
    memcpy(n.shape, like->shape + (drop_lead ? 1 : 0), sizeof(int64_t) * (size_t)n.rank);
    snprintf(n.name, sizeof n.name, "arg");
    ss__layout_unknown(&n.fixed, n.rank);
    return ss__program_add(p, &n, out);
}

static ss_status append_node(ss_program *r, const ss__node *n)
{
    void *grown = ss__grow(r->nodes, &r->cap, r->n + 1, sizeof *r->nodes, 64);
    if (!grown)
        return ss__fail(SS_ERR_NOMEM, "loop: out of host memory");
    r->nodes = grown;
    r->nodes[r->n++] = *n;
    return SS_OK;
}

/* Move nodes [start, p->n) of p into a new region program. The first
 * `nargs` of them are its arguments; then come the captured values of p
 * (written to caps[], *ncaps of them, at most `maxcaps`) as further
 * arguments; `outs` (values of p) become its outputs. */
static ss_status extract(ss_program *p, const char *what, int start, int nargs, int nouts,
                         const ss_value outs[], ss_value caps[], int *ncaps, int maxcaps,
                         ss_program **out)
{
    *out = NULL;
    *ncaps = 0;
    int count = p->n - start;
    ss_status st = SS_OK;
    /* Captured values: operands (and outputs) below `start`. */
    for (int j = start + nargs; j <= p->n && !st; j++) {
        const ss__node *n = j < p->n ? &p->nodes[j] : NULL;
        int m = n ? n->nin : nouts;
        for (int k = 0; k < m && !st; k++) {
            ss_value u = n ? n->in[k] : outs[k];
            if (u < 0 || u >= p->n)
                return ss__fail(SS_ERR_INVALID, "%s: %%%d is not a value of this program",
                                what, (int)u);
            if (u >= start)
                continue;
            bool seen = false;
            for (int c = 0; c < *ncaps && !seen; c++)
                seen = caps[c] == u;
            if (seen)
                continue;
            if (ss__op_is(p->nodes[u].op, SS__OPF_HAS_REGIONS))
                return ss__fail(SS_ERR_INVALID, "%s: %%%d is a loop, not an array", what,
                                (int)u);
            if (*ncaps == maxcaps)
                return ss__fail(SS_ERR_UNSUPPORTED,
                                "%s: the body uses more than %d values from outside it", what,
                                maxcaps);
            caps[(*ncaps)++] = u;
        }
    }
    for (int j = start + nargs; j < p->n; j++) {
        const ss__node *n = &p->nodes[j];
        if (n->op == SS__OP_INPUT || n->op == SS__OP_PARAM)
            return ss__fail(SS_ERR_INVALID, "%s: input '%s' is declared inside the loop body; "
                                            "declare it before the loop",
                            what, n->name);
    }
    ss_program *r;
    if ((st = ss_program_create(p->mesh, &r)))
        return st;
    r->is_region = true;
    int *map = malloc(sizeof(int) * (size_t)(count ? count : 1));
    if (!map || ss__program_reserve(r, count + *ncaps) != SS_OK) { /* its nodes: known here */
        free(map);
        ss_program_destroy(r);
        return ss__fail(SS_ERR_NOMEM, "%s: out of host memory", what);
    }
    for (int j = 0; j < nargs && !st; j++) {
        map[j] = r->n;
        st = append_node(r, &p->nodes[start + j]);
    }
    for (int c = 0; c < *ncaps && !st; c++) {
        ss__node a;
        memset(&a, 0, sizeof a);
        const ss__node *u = &p->nodes[caps[c]];
        a.op = SS__OP_INPUT;
        a.dtype = u->dtype;
        a.rank = u->rank;
        memcpy(a.shape, u->shape, sizeof a.shape);
        a.manual = u->manual;
        a.pairs_at = -1;
        snprintf(a.name, sizeof a.name, "captured %%%d", (int)caps[c]);
        ss__layout_unknown(&a.fixed, a.rank);
        st = append_node(r, &a);
    }
    for (int j = nargs; j < count && !st; j++) {
        ss__node n = p->nodes[start + j];
        for (int k = 0; k < n.nin; k++) {
            ss_value u = n.in[k];
            if (u >= start) {
                n.in[k] = map[u - start];
            } else {
                for (int c = 0; c < *ncaps; c++)
                    if (caps[c] == u)
                        n.in[k] = nargs + c;
            }
        }
        n.is_output = false;
        n.primal_plus1 = 0;
        if (n.op == SS__OP_COLLECTIVE && n.pairs_at >= 0) {
            const int(*pairs)[2] = (const int(*)[2])p->pairs[n.pairs_at];
            int np = (int)n.coll.npairs;
            void *grown = ss__grow(r->pairs, &r->pairs_cap, r->npairs + np, sizeof *r->pairs, 16);
            if (!grown) {
                st = ss__fail(SS_ERR_NOMEM, "%s: out of host memory", what);
                break;
            }
            r->pairs = grown;
            memcpy(r->pairs + r->npairs, pairs, sizeof *r->pairs * (size_t)np);
            n.pairs_at = r->npairs;
            r->npairs += np;
        }
        if ((st = ss__constant_adopt(r, &n)))
            break;
        if (ss__op_is(n.op, SS__OPF_HAS_REGIONS)) { /* a nested loop moves with its regions */
            void *grown = ss__grow(r->loops, &r->loops_cap, r->nloops + 1, sizeof *r->loops, 4);
            if (!grown) {
                st = ss__fail(SS_ERR_NOMEM, "%s: out of host memory", what);
                break;
            }
            r->loops = grown;
            r->loops[r->nloops] = p->loops[n.loop];
            memset(&p->loops[n.loop], 0, sizeof p->loops[n.loop]);
            n.loop = r->nloops++;
        }
        map[j] = r->n;
        st = append_node(r, &n);
    }
    /* Loops moved along: their results are in the range too (after them). */
    for (int q = 0; q < r->nloops && !st; q++)
        for (int k = 0; k < ss__loop_nres(&r->loops[q]); k++)
            r->loops[q].res[k] = map[r->loops[q].res[k] - start];
    if (!st && nouts) {
        r->outs = malloc(sizeof(ss_value) * (size_t)nouts);
        if (!r->outs)
            st = ss__fail(SS_ERR_NOMEM, "%s: out of host memory", what);
    }
    for (int k = 0; k < nouts && !st; k++) {
        ss_value u = outs[k], v = u;
        if (u >= start) {
            v = map[u - start];
        } else {
            for (int c = 0; c < *ncaps; c++)
                if (caps[c] == u)
                    v = nargs + c;
        }
        r->outs[r->nouts++] = v;
        r->nodes[v].is_output = true;
    }
    r->outs_cap = nouts;
    free(map);
    if (st) {
        ss_program_destroy(r);
        return st;
    }
    *out = r;
    return SS_OK;
}

typedef struct build {
    ss_program *p;
    const char *what;
    int n0, pairs0, nouts0, nloops0;
    bool manual0;
} build;

static void build_begin(build *b, ss_program *p, const char *what)
{
    b->p = p;
    b->what = what;
    b->n0 = p->n;
    b->pairs0 = p->npairs;
    b->nouts0 = p->nouts;
    b->nloops0 = p->nloops;
    b->manual0 = p->in_manual;
}

/* After a callback: did it leave the program as a region allows? */
static ss_status build_check(const build *b)
{
    if (b->p->nouts != b->nouts0)
        return ss__fail(SS_ERR_INVALID, "%s: the body marks a program output; return it "
                                        "from the loop instead",
                        b->what);
    if (b->p->in_manual != b->manual0)
        return ss__fail(SS_ERR_INVALID, "%s: a shard_map begun in the body must end there",
                        b->what);
    return SS_OK;
}

/* Undo a failed build: the program as before, loops made since freed. */
static void build_abort(const build *b)
{
    for (int k = b->nloops0; k < b->p->nloops; k++)
        ss__loop_free(&b->p->loops[k]);
    b->p->nloops = b->nloops0;
    truncate_to(b->p, b->n0, b->pairs0, b->nouts0);
    b->p->in_manual = b->manual0;
}

static bool same_type(const ss__node *a, const ss__node *b)
{
    bool same = a->rank == b->rank && a->dtype == b->dtype;
    for (int d = 0; same && d < a->rank; d++)
        same = a->shape[d] == b->shape[d];
    return same;
}

/* Add the loop node for `l` with operands ops[0..nops) and its results
 * (types of the carries `carry_like`, then ys `ys_like` stacked `length`). */
static ss_status add_loop(ss_program *p, ss__loop *l, int nops, const ss_value ops[],
                          const ss__node carry_like[], const ss__node ys_like[],
                          ss_value results[])
{
    if (nops > SS__MAX_INPUTS)
        return ss__fail(SS_ERR_UNSUPPORTED,
                        "%s: %d operands (carries, xs and values the body uses from outside "
                        "it); at most %d are supported",
                        l->cond ? "while_loop" : "scan", nops, SS__MAX_INPUTS);
    void *grown = ss__grow(p->loops, &p->loops_cap, p->nloops + 1, sizeof *p->loops, 4);
    if (!grown)
        return ss__fail(SS_ERR_NOMEM, "loop: out of host memory");
    p->loops = grown;
    l->residual_at = -1;
    if (!(l->res = malloc(sizeof(ss_value) * (size_t)(l->ncarry + l->nys + 1))))
        return ss__fail(SS_ERR_NOMEM, "loop: out of host memory");
    ss__node n;
    memset(&n, 0, sizeof n);
    n.op = SS__OP_LOOP;
    n.loop = p->nloops;
    n.sub = l->cond ? 0 : 1; /* the variant: while or scan (ops.def) */
    n.dtype = SS_F32;
    n.nin = nops;
    memcpy(n.in, ops, sizeof(ss_value) * (size_t)nops);
    ss__layout_replicated(&n.fixed, 0);
    n.fixed.known = false;
    p->loops[p->nloops++] = *l;
    ss_value loop;
    ss_status st = ss__program_add(p, &n, &loop);
    if (st) {
        p->nloops--;
        return st;
    }
    memset(l, 0, sizeof *l); /* owned by p now */
    int nres = p->loops[n.loop].ncarry + p->loops[n.loop].nys;
    for (int k = 0; k < nres && !st; k++) {
        const ss__loop *pl = &p->loops[n.loop];
        ss__node r;
        memset(&r, 0, sizeof r);
        r.op = SS__OP_LOOP_RESULT;
        r.sub = k;
        r.nin = 1;
        r.in[0] = loop;
        const ss__node *like = k < pl->ncarry ? &carry_like[k] : &ys_like[k - pl->ncarry];
        r.dtype = like->dtype;
        r.rank = like->rank;
        memcpy(r.shape, like->shape, sizeof r.shape);
        if (k >= pl->ncarry) { /* stacked along a new leading axis */
            r.rank = like->rank + 1;
            r.shape[0] = pl->length;
            memcpy(r.shape + 1, like->shape, sizeof(int64_t) * (size_t)like->rank);
        }
        ss__layout_unknown(&r.fixed, r.rank);
        st = ss__program_add(p, &r, &results[k]);
        if (!st)
            p->loops[n.loop].res[k] = results[k];
    }
    return st;
}

/* Build one region: argument nodes for the carries (and slices of xs),
 * the callback, then extraction. `call` runs the callback. */
ss_status ss__build_region(ss_program *p, const char *what, int ncarry, const ss_value init[],
                           int nxs, const ss_value xs[], int nouts, ss__region_fn fn, void *ctx,
                           ss_program **region, ss_value caps[], int *ncaps, ss_value outs[],
                           ss__node outs_like[])
{
    build b;
    build_begin(&b, p, what);
    ss_value args[2 * SS__LOOP_MAX];
    ss_status st = SS_OK;
    for (int k = 0; k < ncarry && !st; k++)
        st = add_arg(p, &p->nodes[init[k]], false, &args[k]);
    for (int k = 0; k < nxs && !st; k++)
        st = add_arg(p, &p->nodes[xs[k]], true, &args[ncarry + k]);
    int nargs = ncarry + nxs;
    for (int k = 0; k < nouts; k++)
        outs[k] = -1;
    if (!st)
        st = fn(p, args, outs, ctx);
    if (!st)
        st = build_check(&b);
    for (int k = 0; k < nouts && !st; k++) {
        if (!ss__program_node(p, outs[k], what))
            st = SS_ERR_INVALID;
        else if (ss__op_is(p->nodes[outs[k]].op, SS__OPF_HAS_REGIONS))
            st = ss__fail(SS_ERR_INVALID, "%s: output %d is a loop, not an array", what, k);
        else
            outs_like[k] = p->nodes[outs[k]];
    }
    if (!st)
        st = extract(p, what, b.n0, nargs, nouts, outs, caps, ncaps, SS__MAX_INPUTS, region);
    /* The region's nodes leave p (loops built inside moved with them). */
    build_abort(&b);
    return st;
}

/* --- while_loop ------------------------------------------------------------ */

typedef struct while_ctx {
    ss_while_cond cond;
    ss_while_body body;
    void *user;
} while_ctx;

static ss_status call_cond(ss_program *p, const ss_value args[], ss_value outs[], void *ctx)
{
    const while_ctx *w = ctx;
    return w->cond(p, args, &outs[0], w->user);
}

static ss_status call_body(ss_program *p, const ss_value args[], ss_value outs[], void *ctx)
{
    const while_ctx *w = ctx;
    return w->body(p, args, outs, w->user);
}

static ss_status check_carries(ss_program *p, const char *what, int ncarry, const ss_value init[])
{
    if (ncarry < 0 || ncarry > SS__LOOP_MAX)
        return ss__fail(SS_ERR_INVALID, "%s: %d carries; 0 to %d are supported", what, ncarry,
                        SS__LOOP_MAX);
    for (int k = 0; k < ncarry; k++) {
        const ss__node *n = ss__program_node(p, init[k], what);
        if (!n)
            return SS_ERR_INVALID;
        if (ss__op_is(n->op, SS__OPF_HAS_REGIONS))
            return ss__fail(SS_ERR_INVALID, "%s: carry %d is a loop, not an array", what, k);
        if (n->manual || p->in_manual)
            return ss__fail(SS_ERR_UNSUPPORTED, "%s: loops inside shard_map regions are not "
                                                "supported",
                            what);
    }
    return SS_OK;
}

static ss_status check_next(const char *what, int ncarry, const ss__node init_like[],
                            const ss__node next_like[])
{
    for (int k = 0; k < ncarry; k++)
        if (!same_type(&init_like[k], &next_like[k])) {
            ss__buf a, b;
            ss__buf_init(&a);
            ss__buf_init(&b);
            ss__shape_repr_buf(&a, init_like[k].dtype, init_like[k].rank, init_like[k].shape);
            ss__shape_repr_buf(&b, next_like[k].dtype, next_like[k].rank, next_like[k].shape);
            ss_status st = ss__fail(SS_ERR_INVALID,
                                    "%s: the body changes carry %d from %s to %s; the carry "
                                    "must keep its shape and dtype",
                                    what, k, a.data ? a.data : "?", b.data ? b.data : "?");
            ss__buf_free(&a);
            ss__buf_free(&b);
            return st;
        }
    return SS_OK;
}

/* The value of v when it is a rank-0 integer constant of program p. */
static bool int_constant(const ss_program *p, ss_value v, int64_t *out)
{
    const ss__node *n = v >= 0 && v < p->n ? &p->nodes[v] : NULL;
    if (!n || n->op != SS__OP_CONSTANT || n->rank != 0)
        return false;
    if (n->sub == SS__CONST_SCALAR) {
        *out = (int64_t)n->scalar;
        return (double)*out == n->scalar;
    }
    size_t es = ss_dtype_size(n->dtype);
    bool sg = n->dtype == SS_I8 || n->dtype == SS_I16 || n->dtype == SS_I32 || n->dtype == SS_I64;
    bool us = n->dtype == SS_U8 || n->dtype == SS_U16 || n->dtype == SS_U32 || n->dtype == SS_U64;
    if (n->sub != SS__CONST_DENSE || !n->data || !(sg || us) || es > 8)
        return false;
    uint64_t u = 0;
    memcpy(&u, n->data, es); /* little-endian hosts */
    if (sg && es < 8 && (u >> (8 * es - 1)) & 1)
        u |= ~UINT64_C(0) << (8 * es);
    *out = (int64_t)u;
    return true;
}

/* The argument number of region r's value v (its INPUT nodes, in order),
 * or -1 when v is no argument. */
static int arg_index(const ss_program *r, ss_value v)
{
    if (v < 0 || v >= r->n || r->nodes[v].op != SS__OP_INPUT)
        return -1;
    int k = 0;
    for (ss_value u = 0; u < v; u++)
        k += r->nodes[u].op == SS__OP_INPUT;
    return k;
}

/* An integer constant as a region sees it: a constant of its own, or an
 * invariant argument (k >= ncarry) whose loop operand caps[k - ncarry] of
 * p is one. */
static bool region_constant(const ss_program *p, const ss_program *r, ss_value v, int ncarry,
                            const ss_value caps[], int ncaps, int64_t *out)
{
    int k = arg_index(r, v);
    if (k < 0)
        return int_constant(r, v, out);
    return k >= ncarry && k - ncarry < ncaps && int_constant(p, caps[k - ncarry], out);
}

/* JAX's counted loops (fori_loop, scan): carry k starts at a constant c0,
 * the condition is `carry k < N` with N a constant, and the body's next
 * carry k is carry k + 1. Their trip count, max(N - c0, 0); -1 for any
 * other loop (its trips are known when it runs). */
static int64_t counted_trips(const ss_program *p, const ss__loop *l, const ss_value init[],
                             const ss_value ccaps[], const ss_value bcaps[])
{
    const ss_program *c = l->cond, *b = l->body;
    if (!c || !b || c->nouts != 1 || b->nouts < l->ncarry)
        return -1;
    const ss__node *cmp = &c->nodes[c->outs[0]];
    if (cmp->op != SS__OP_COMPARE || cmp->sub / 4 != SS_CMP_LT || cmp->nin != 2)
        return -1;
    int k = arg_index(c, cmp->in[0]);
    int64_t n, c0, one;
    if (k < 0 || k >= l->ncarry ||
        !region_constant(p, c, cmp->in[1], l->ncarry, ccaps, l->ncond_inv, &n) ||
        !int_constant(p, init[k], &c0))
        return -1;
    const ss__node *add = &b->nodes[b->outs[k]];
    if (add->op != SS__OP_BINARY || add->sub != SS_ADD || add->nin != 2)
        return -1;
    int a0 = arg_index(b, add->in[0]), a1 = arg_index(b, add->in[1]);
    ss_value other = a0 == k ? add->in[1] : a1 == k ? add->in[0] : -1;
    if (other < 0 || !region_constant(p, b, other, l->ncarry, bcaps, l->nbody_inv, &one) ||
        one != 1)
        return -1;
    return n > c0 ? n - c0 : 0;
}

ss_status ss_while_loop(ss_program *p, ss_while_cond cond, ss_while_body body, void *user,
                        int ncarry, const ss_value init[], ss_value final_carry[])
{
    const char *what = "while_loop";
    ss_status st = check_carries(p, what, ncarry, init);
    if (st)
        return st;
    if (!cond || !body)
        return ss__fail(SS_ERR_INVALID, "while_loop: cond and body are required");
    while_ctx w = {cond, body, user};
    ss__loop l;
    memset(&l, 0, sizeof l);
    l.ncarry = ncarry;
    l.length = -1;
    ss_value ccaps[SS__MAX_INPUTS], bcaps[SS__MAX_INPUTS], pred, next[SS__LOOP_MAX];
    ss__node pred_like, next_like[SS__LOOP_MAX], init_like[SS__LOOP_MAX];
    for (int k = 0; k < ncarry; k++)
        init_like[k] = p->nodes[init[k]];
    st = ss__build_region(p, what, ncarry, init, 0, NULL, 1, call_cond, &w, &l.cond, ccaps,
                      &l.ncond_inv, &pred, &pred_like);
    if (!st && (pred_like.rank != 0 || (pred_like.dtype != SS_BOOL && pred_like.dtype != SS_F32)))
        st = ss__fail(SS_ERR_INVALID, "while_loop: cond must return a scalar (bool, or f32 "
                                      "from a comparison), not a rank-%d %s value",
                      pred_like.rank, ss_dtype_name(pred_like.dtype));
    if (!st)
        st = ss__build_region(p, what, ncarry, init, 0, NULL, ncarry, call_body, &w, &l.body,
                          bcaps, &l.nbody_inv, next, next_like);
    if (!st)
        st = check_next(what, ncarry, init_like, next_like);
    ss_value ops[3 * SS__MAX_INPUTS], res[SS__LOOP_MAX];
    int nops = 0;
    for (int k = 0; k < ncarry && !st; k++)
        ops[nops++] = init[k];
    for (int k = 0; k < l.ncond_inv && !st; k++)
        ops[nops++] = ccaps[k];
    for (int k = 0; k < l.nbody_inv && !st; k++)
        ops[nops++] = bcaps[k];
    if (!st)
        l.trips = counted_trips(p, &l, init, ccaps, bcaps);
    if (!st)
        st = add_loop(p, &l, nops, ops, init_like, NULL, res);
    ss__loop_free(&l);
    if (!st && ncarry)
        memcpy(final_carry, res, sizeof(ss_value) * (size_t)ncarry);
    return st;
}

/* --- scan as a counted loop ----------------------------------------------- */

typedef struct scan_ctx {
    ss_scan_body body;
    void *user;
    int ncarry;
} scan_ctx;

static ss_status call_scan(ss_program *p, const ss_value args[], ss_value outs[], void *ctx)
{
    const scan_ctx *s = ctx;
    return s->body(p, args, args + s->ncarry, outs, outs + s->ncarry, s->user);
}

ss_status ss__scan_loop(ss_program *p, ss_scan_body body, void *user, int64_t length,
                        int ncarry, const ss_value init[], int nxs, const ss_value xs[], int nys,
                        ss_value final_carry[], ss_value ys[])
{
    return ss__counted_loop(p, body, user, length, false, ncarry, init, nxs, xs, nys,
                            final_carry, ys);
}

ss_status ss__counted_loop(ss_program *p, ss_scan_body body, void *user, int64_t length,
                           bool reverse, int ncarry, const ss_value init[], int nxs,
                           const ss_value xs[], int nys, ss_value final_carry[], ss_value ys[])
{
    const char *what = "scan";
    if (ncarry < 0 || nxs < 0 || nys < 0 || ncarry > SS__LOOP_MAX || nxs > SS__LOOP_MAX ||
        nys > SS__LOOP_MAX)
        return ss__fail(SS_ERR_INVALID, "scan: at most %d carries, inputs and outputs",
                        SS__LOOP_MAX);
    ss_status st = check_carries(p, what, ncarry, init);
    if (st)
        return st;
    for (int k = 0; k < nxs; k++) {
        const ss__node *x = ss__program_node(p, xs[k], "scan");
        if (!x)
            return SS_ERR_INVALID;
        if (ss__op_is(x->op, SS__OPF_HAS_REGIONS))
            return ss__fail(SS_ERR_INVALID, "scan: xs[%d] is a loop, not an array", k);
    }
    st = ss__scan_length(p, nxs, xs, length, &length);
    if (st)
        return st;
    if (ncarry + nys < 1)
        return ss__fail(SS_ERR_INVALID, "scan: no carries and no outputs; nothing to compute");
    scan_ctx s = {body, user, ncarry};
    ss__loop l;
    memset(&l, 0, sizeof l);
    l.ncarry = ncarry;
    l.nxs = nxs;
    l.nys = nys;
    l.length = length;
    l.reverse = reverse;
    ss_value caps[SS__MAX_INPUTS], outs[2 * SS__LOOP_MAX];
    ss__node outs_like[2 * SS__LOOP_MAX], init_like[SS__LOOP_MAX];
    for (int k = 0; k < ncarry; k++)
        init_like[k] = p->nodes[init[k]];
    st = ss__build_region(p, what, ncarry, init, nxs, xs, ncarry + nys, call_scan, &s, &l.body,
                      caps, &l.nbody_inv, outs, outs_like);
    if (!st)
        st = check_next(what, ncarry, init_like, outs_like);
    for (int k = 0; k < nys && !st; k++)
        if (outs_like[ncarry + k].rank + 1 > SS_MAX_RANK)
            st = ss__fail(SS_ERR_RANK, "scan: stacked outputs would have rank above %d",
                          SS_MAX_RANK);
    ss_value ops[3 * SS__MAX_INPUTS], res[2 * SS__LOOP_MAX];
    int nops = 0;
    for (int k = 0; k < ncarry && !st; k++)
        ops[nops++] = init[k];
    for (int k = 0; k < nxs && !st; k++)
        ops[nops++] = xs[k];
    for (int k = 0; k < l.nbody_inv && !st; k++)
        ops[nops++] = caps[k];
    if (!st)
        st = add_loop(p, &l, nops, ops, init_like, outs_like + ncarry, res);
    ss__loop_free(&l);
    /* final_carry and ys may be NULL when their count is 0. */
    if (!st && ncarry)
        memcpy(final_carry, res, sizeof(ss_value) * (size_t)ncarry);
    if (!st && nys)
        memcpy(ys, res + ncarry, sizeof(ss_value) * (size_t)nys);
    return st;
}

ss_status ss_scan(ss_program *p, ss_scan_body body, void *user, int64_t length, int ncarry,
                  const ss_value init[], int nxs, const ss_value xs[], int nys,
                  ss_value final_carry[], ss_value ys[])
{
    return ss__scan_loop(p, body, user, length, ncarry, init, nxs, xs, nys, final_carry, ys);
}

ss_status ss__region_inline(ss_program *p, const ss_program *r, const ss_value args[],
                            ss_value outs[])
{
    int nargs = 0;
    while (nargs < r->n && r->nodes[nargs].op == SS__OP_INPUT)
        nargs++;
    ss_value *map = malloc(sizeof(ss_value) * (size_t)(r->n ? r->n : 1));
    if (!map)
        return ss__fail(SS_ERR_NOMEM, "loop: out of host memory");
    memcpy(map, args, sizeof(ss_value) * (size_t)nargs);
    bool manual0 = p->in_manual;
    ss_status st = SS_OK;
    for (int j = nargs; j < r->n && !st; j++) {
        ss__node n = r->nodes[j];
        if (ss__op_is(n.op, SS__OPF_HAS_REGIONS) || ss__op_is(n.op, SS__OPF_REGION_RESULT)) {
            st = ss__fail(SS_ERR_UNSUPPORTED, "grad: a loop or conditional inside a scan body "
                                              "or branch is not supported in reverse mode");
            break;
        }
        for (int k = 0; k < n.nin; k++)
            n.in[k] = map[n.in[k]];
        n.is_output = false;
        n.primal_plus1 = 0;
        if (n.op == SS__OP_COLLECTIVE && n.pairs_at >= 0) {
            int np = (int)n.coll.npairs;
            void *grown = ss__grow(p->pairs, &p->pairs_cap, p->npairs + np, sizeof *p->pairs, 16);
            if (!grown) {
                st = ss__fail(SS_ERR_NOMEM, "loop: out of host memory");
                break;
            }
            p->pairs = grown;
            memcpy(p->pairs + p->npairs, r->pairs + n.pairs_at, sizeof *p->pairs * (size_t)np);
            n.pairs_at = p->npairs;
            p->npairs += np;
        }
        if ((st = ss__constant_adopt(p, &n)))
            break;
        p->in_manual = n.manual || n.op == SS__OP_MANUAL_OUT;
        st = ss__program_add(p, &n, &map[j]);
    }
    p->in_manual = manual0;
    for (int k = 0; k < r->nouts && !st; k++)
        outs[k] = map[r->outs[k]];
    free(map);
    return st;
}
