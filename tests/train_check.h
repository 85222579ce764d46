/* train_check.h — helpers for test_autodiff.c and test_optim.c: building
 * programs tersely, deterministic host inputs, a double-precision
 * interpreter of the program IR (the finite-difference oracle: the
 * library computes in f32 only), and a sharded run checked against the
 * single-device reference with plan == run checks. Static inline: include
 * from test files only. */
#ifndef SS_TEST_TRAIN_CHECK_H
#define SS_TEST_TRAIN_CHECK_H

#include "support.h"

/* Internal on purpose: the checks count the program's input and
 * parameter nodes (SS__OP_*) of the IR. */
#include "graph/graph.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define OK(x) cr_assert_eq((x), SS_OK, "%s: %s", #x, ss_error_message())

static inline ss_spec tc_spec(const char *text)
{
    ss_spec s;
    cr_assert_eq(ss_spec_parse(text, &s), SS_OK, "%s", ss_error_message());
    return s;
}

static inline ss_mesh *tc_mesh(const char *text, int n)
{
    ss_mesh *m;
    OK(ss_mesh_make(text, n, NULL, &m));
    return m;
}

static inline ss_value tc_leaf(ss_program *p, bool param, const char *name, const char *spec,
                               int rank, va_list ap)
{
    int64_t shape[SS_MAX_RANK];
    for (int d = 0; d < rank; d++)
        shape[d] = va_arg(ap, int);
    ss_spec s;
    if (spec)
        s = tc_spec(spec);
    ss_value v;
    if (param)
        OK(ss_param(p, name, SS_F32, rank, shape, spec ? &s : NULL, &v));
    else
        OK(ss_input(p, name, SS_F32, rank, shape, spec ? &s : NULL, &v));
    return v;
}

/* An f32 input with spec text (NULL: unspecified) and dims as ints. */
static inline ss_value tc_in(ss_program *p, const char *name, const char *spec, int rank, ...)
{
    va_list ap;
    va_start(ap, rank);
    ss_value v = tc_leaf(p, false, name, spec, rank, ap);
    va_end(ap);
    return v;
}

/* The same as a param (ss_param): FSDP gathers params afresh for each use. */
static inline ss_value tc_param(ss_program *p, const char *name, const char *spec, int rank,
                                ...)
{
    va_list ap;
    va_start(ap, rank);
    ss_value v = tc_leaf(p, true, name, spec, rank, ap);
    va_end(ap);
    return v;
}

static inline size_t tc_elems(const ss_program *p, ss_value v)
{
    size_t n = 1;
    for (int d = 0; d < p->nodes[v].rank; d++)
        n *= (size_t)p->nodes[v].shape[d];
    return n;
}

/* Input value kinds for tc_inputs: how each input is filled. */
enum { TC_SIGNED = 0, /* +-[0.2, 1]: away from the kinks of relu, max, min */
       TC_POSITIVE,   /* [0.5, 1.5]: log, sqrt, pow */
       TC_LABELS,     /* i32 in [0, last dim of the one_hot) given by `classes` */
       TC_ZERO };

static inline double tc_rand(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return (double)((*seed >> 8) & 0xffff) / 65536.0;
}

/* Host buffers for every input of p (creation order): f32, or i32 labels.
 * kinds[i] (NULL: all TC_SIGNED) picks the fill of input i. */
static inline void **tc_inputs(const ss_program *p, const int *kinds, int classes, unsigned seed)
{
    int ni = 0;
    for (int v = 0; v < p->n; v++)
        ni += p->nodes[v].op == SS__OP_INPUT || p->nodes[v].op == SS__OP_PARAM;
    void **ins = calloc((size_t)ni + 1, sizeof *ins);
    int i = 0;
    for (int v = 0; v < p->n; v++) {
        if (p->nodes[v].op != SS__OP_INPUT && p->nodes[v].op != SS__OP_PARAM)
            continue;
        size_t n = tc_elems(p, v);
        int kind = kinds ? kinds[i] : TC_SIGNED;
        ins[i] = malloc(n * 4 + 4);
        for (size_t k = 0; k < n; k++) {
            double r = tc_rand(&seed);
            if (p->nodes[v].dtype == SS_I32) {
                ((int32_t *)ins[i])[k] = (int32_t)(r * classes) % (classes ? classes : 1);
                continue;
            }
            double x = kind == TC_POSITIVE ? 0.5 + r
                       : kind == TC_ZERO   ? 0.0
                                           : (r < 0.5 ? -1.0 : 1.0) * (0.2 + 1.6 * fabs(r - 0.5));
            ((float *)ins[i])[k] = (float)x;
        }
        i++;
    }
    return ins;
}

static inline void tc_free_list(void **xs, int n)
{
    for (int i = 0; i < n; i++)
        free(xs[i]);
    free(xs);
}

static inline int tc_input_count(const ss_program *p)
{
    int ni = 0;
    for (int v = 0; v < p->n; v++)
        ni += p->nodes[v].op == SS__OP_INPUT || p->nodes[v].op == SS__OP_PARAM;
    return ni;
}

static inline int tc_output_count(const ss_program *p) { return p->nouts; }

/* --- The double-precision interpreter ------------------------------------ */

static inline void tc_unravel(int64_t i, int rank, const int64_t *shape, int64_t *idx)
{
    for (int d = rank - 1; d >= 0; d--) {
        idx[d] = i % shape[d];
        i /= shape[d];
    }
}

static inline int64_t tc_ravel(int rank, const int64_t *shape, const int64_t *idx)
{
    int64_t i = 0;
    for (int d = 0; d < rank; d++)
        i = i * shape[d] + idx[d];
    return i;
}

static inline double tc_unary(int op, double x)
{
    switch (op) {
    case SS_NEG: return -x;
    case SS_EXP: return exp(x);
    case SS_LOG: return log(x);
    case SS_TANH: return tanh(x);
    case SS_RELU: return x > 0 ? x : 0;
    case SS_GELU: return x * 0.5 * (1 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
    case SS_SQRT: return sqrt(x);
    case SS_RSQRT: return 1 / sqrt(x);
    case SS_SQUARE: return x * x;
    case SS_CONVERT: return x;
    case SS_ABS: return fabs(x);
    case SS_SIGN: return x > 0 ? 1 : x < 0 ? -1 : x;
    case SS_FLOOR: return floor(x);
    case SS_CEIL: return ceil(x);
    case SS_ROUND_EVEN: return nearbyint(x);
    case SS_ROUND_AFZ: return round(x);
    case SS_SIN: return sin(x);
    case SS_COS: return cos(x);
    case SS_TAN: return tan(x);
    case SS_ERF: return erf(x);
    case SS_EXPM1: return expm1(x);
    case SS_LOG1P: return log1p(x);
    case SS_LOGISTIC: return 1 / (1 + exp(-x));
    case SS_CBRT: return cbrt(x);
    case SS_IS_FINITE: return isfinite(x);
    case SS_ERF_INV: { /* Newton's method on libm's erf, from 0 */
        double y = 0;
        for (int i = 0; i < 60 && fabs(x) < 1; i++)
            y -= (erf(y) - x) / (1.1283791670955126 * exp(-y * y));
        return fabs(x) < 1 ? y : fabs(x) == 1 ? x * INFINITY : NAN;
    }
    }
    return NAN;
}

static inline double tc_binary(int op, double a, double b)
{
    switch (op) {
    case SS_ADD: return a + b;
    case SS_SUB: return a - b;
    case SS_MUL: return a * b;
    case SS_DIV: return a / b;
    case SS_MAX: return a > b ? a : b;
    case SS_MIN: return a < b ? a : b;
    case SS_POW: return pow(a, b);
    case SS_EQ: return a == b;
    case SS_GT: return a > b;
    case SS_GE: return a >= b;
    case SS_REM: return fmod(a, b);
    case SS_ATAN2: return atan2(a, b);
    case SS_NEXT_AFTER: return nextafterf((float)a, (float)b); /* the f32 tests' dtype */
    case SS_AND: return (a != 0) && (b != 0); /* bool masks only */
    case SS_OR: return (a != 0) || (b != 0);
    }
    return NAN;
}

static inline void tc_dot(const ss__node *n, const ss__node *a, const ss__node *b,
                          const double *x, const double *y, double *out)
{
    int64_t csh[SS_MAX_RANK], nck = 1;
    for (int k = 0; k < n->nc; k++)
        nck *= csh[k] = a->shape[n->lc[k]];
    unsigned ls = 0, rs = 0;
    for (int k = 0; k < n->nb; k++) {
        ls |= 1u << n->lb[k];
        rs |= 1u << n->rb[k];
    }
    for (int k = 0; k < n->nc; k++) {
        ls |= 1u << n->lc[k];
        rs |= 1u << n->rc[k];
    }
    int64_t total = 1;
    for (int d = 0; d < n->rank; d++)
        total *= n->shape[d];
    for (int64_t o = 0; o < total; o++) {
        int64_t oi[SS_MAX_RANK], li[SS_MAX_RANK], ri[SS_MAX_RANK], ci[SS_MAX_RANK];
        tc_unravel(o, n->rank, n->shape, oi);
        for (int k = 0; k < n->nb; k++)
            li[n->lb[k]] = ri[n->rb[k]] = oi[k];
        int pos = n->nb;
        for (int d = 0; d < a->rank; d++)
            if (!((ls >> d) & 1u))
                li[d] = oi[pos++];
        for (int d = 0; d < b->rank; d++)
            if (!((rs >> d) & 1u))
                ri[d] = oi[pos++];
        double s = 0;
        for (int64_t c = 0; c < nck; c++) {
            tc_unravel(c, n->nc, csh, ci);
            for (int k = 0; k < n->nc; k++) {
                li[n->lc[k]] = ci[k];
                ri[n->rc[k]] = ci[k];
            }
            s += x[tc_ravel(a->rank, a->shape, li)] * y[tc_ravel(b->rank, b->shape, ri)];
        }
        out[o] = s;
    }
}

/* Evaluate every value of p in double; inputs[i] as doubles (labels too).
 * Returns one malloc'd buffer per value (free with tc_dfree). */
static inline double **tc_deval(const ss_program *p, double *const inputs[])
{
    double **val = calloc((size_t)p->n, sizeof *val);
    int input_no = 0;
    for (int v = 0; v < p->n; v++) {
        const ss__node *n = &p->nodes[v];
        int64_t total = (int64_t)tc_elems(p, v);
        double *o = val[v] = calloc((size_t)total + 1, sizeof(double));
        const double *x = n->nin ? val[n->in[0]] : NULL;
        const ss__node *a = n->nin ? &p->nodes[n->in[0]] : NULL;
        int64_t oi[SS_MAX_RANK], xi[SS_MAX_RANK];
        switch (n->op) {
        case SS__OP_INPUT:
        case SS__OP_PARAM: memcpy(o, inputs[input_no++], (size_t)total * sizeof(double)); break;
        case SS__OP_CONSTANT: o[0] = n->scalar; break;
        case SS__OP_UNARY:
            for (int64_t i = 0; i < total; i++)
                o[i] = tc_unary(n->sub, x[i]);
            break;
        case SS__OP_BINARY:
            for (int64_t i = 0; i < total; i++)
                o[i] = tc_binary(n->sub, x[i], val[n->in[1]][i]);
            break;
        case SS__OP_DOT: tc_dot(n, a, &p->nodes[n->in[1]], x, val[n->in[1]], o); break;
        case SS__OP_REDUCE: {
            int64_t xt = (int64_t)tc_elems(p, n->in[0]);
            for (int64_t i = 0; i < total; i++)
                o[i] = n->sub == SS_REDUCE_SUM ? 0 : n->sub == SS_REDUCE_MAX ? -INFINITY : INFINITY;
            for (int64_t i = 0; i < xt; i++) {
                tc_unravel(i, a->rank, a->shape, xi);
                int k = 0;
                for (int d = 0; d < a->rank; d++)
                    if (!((n->axes_mask >> d) & 1u))
                        oi[k++] = xi[d];
                int64_t j = tc_ravel(n->rank, n->shape, oi);
                o[j] = n->sub == SS_REDUCE_SUM ? o[j] + x[i]
                       : n->sub == SS_REDUCE_MAX ? fmax(o[j], x[i])
                                                 : fmin(o[j], x[i]);
            }
            break;
        }
        case SS__OP_TRANSPOSE:
            for (int64_t i = 0; i < total; i++) {
                tc_unravel(i, n->rank, n->shape, oi);
                for (int d = 0; d < n->rank; d++)
                    xi[n->dims[d]] = oi[d];
                o[i] = x[tc_ravel(a->rank, a->shape, xi)];
            }
            break;
        case SS__OP_RESHAPE:
        case SS__OP_CONSTRAIN: memcpy(o, x, (size_t)total * sizeof(double)); break;
        case SS__OP_BROADCAST:
            for (int64_t i = 0; i < total; i++) {
                tc_unravel(i, n->rank, n->shape, oi);
                for (int d = 0; d < a->rank; d++)
                    xi[d] = a->shape[d] == 1 ? 0 : oi[n->dims[d]];
                o[i] = x[tc_ravel(a->rank, a->shape, xi)];
            }
            break;
        case SS__OP_SLICE:
            for (int64_t i = 0; i < total; i++) {
                tc_unravel(i, n->rank, n->shape, oi);
                for (int d = 0; d < n->rank; d++)
                    xi[d] = oi[d] + n->start[d];
                o[i] = x[tc_ravel(a->rank, a->shape, xi)];
            }
            break;
        case SS__OP_CONCAT:
            for (int64_t i = 0; i < total; i++) {
                tc_unravel(i, n->rank, n->shape, oi);
                int k = 0;
                int64_t at = oi[n->dim];
                while (at >= p->nodes[n->in[k]].shape[n->dim])
                    at -= p->nodes[n->in[k++]].shape[n->dim];
                const ss__node *b = &p->nodes[n->in[k]];
                memcpy(xi, oi, sizeof xi);
                xi[n->dim] = at;
                o[i] = val[n->in[k]][tc_ravel(b->rank, b->shape, xi)];
            }
            break;
        case SS__OP_ONE_HOT:
            for (int64_t i = 0; i < total; i++)
                o[i] = (int64_t)x[i / n->classes] == i % n->classes;
            break;
        case SS__OP_COMPARE: /* float compare types only */
            for (int64_t i = 0; i < total; i++) {
                double u = x[i], w = val[n->in[1]][i];
                static const int lt[] = {0, 1, 1, 1, 0, 0}, eq[] = {1, 0, 0, 1, 0, 1},
                                 gt[] = {0, 1, 0, 0, 1, 1};
                int d = n->sub / 4;
                o[i] = u < w ? lt[d] : u > w ? gt[d] : u == w ? eq[d] : d == SS_CMP_NE;
            }
            break;
        case SS__OP_SELECT:
            for (int64_t i = 0; i < total; i++)
                o[i] = x[i] != 0 ? val[n->in[1]][i] : val[n->in[2]][i];
            break;
        case SS__OP_CLAMP:
            for (int64_t i = 0; i < total; i++) {
                double lo = x[i], xv = val[n->in[1]][i], hi = val[n->in[2]][i];
                o[i] = xv < lo ? lo : xv > hi ? hi : xv;
                o[i] = o[i] > hi ? hi : o[i];
            }
            break;
        default: cr_assert_fail("tc_deval: op %s", ss__opcode_name(n));
        }
    }
    return val;
}

static inline void tc_dfree(const ss_program *p, double **val)
{
    for (int v = 0; v < p->n; v++)
        free(val[v]);
    free(val);
}

/* Inputs as doubles (for tc_deval) from the host inputs of tc_inputs. */
static inline double **tc_dinputs(const ss_program *p, void *const ins[])
{
    int ni = tc_input_count(p), i = 0;
    double **d = calloc((size_t)ni + 1, sizeof *d);
    for (int v = 0; v < p->n; v++) {
        if (p->nodes[v].op != SS__OP_INPUT && p->nodes[v].op != SS__OP_PARAM)
            continue;
        size_t n = tc_elems(p, v);
        d[i] = malloc(n * sizeof(double) + 8);
        for (size_t k = 0; k < n; k++)
            d[i][k] = p->nodes[v].dtype == SS_I32 ? (double)((int32_t *)ins[i])[k]
                                                  : (double)((float *)ins[i])[k];
        i++;
    }
    return d;
}

/* Normwise closeness: |a - b| <= tol * max(1, max |b|) element by element. */
static inline void tc_close_f(const float *a, const float *b, size_t n, double tol,
                              const char *what)
{
    double scale = 1.0;
    for (size_t k = 0; k < n; k++)
        scale = fmax(scale, fabs((double)b[k]));
    for (size_t k = 0; k < n; k++)
        cr_assert(fabs((double)a[k] - (double)b[k]) <= tol * scale,
                  "%s element %zu: %.9g vs %.9g (scale %.3g, tol %.1e)", what, k, (double)a[k],
                  (double)b[k], scale, tol);
}

/* --- Sharded runs ---------------------------------------------------------- */

/* Run executable e on `ndevices` fresh devices from host inputs into host
 * outputs, and check plan == run: every device's peak bytes, no leak, the
 * ledger. The context is returned for ledger inspection (caller destroys). */
static inline ss_context *tc_run(ss_executable *e, int ndevices, void *const ins[],
                                 void *const outs[])
{
    ss_context_options co = {.ndevices = ndevices, .device_memory = (size_t)512 << 20,
                             .timeout = 60};
    ss_context *ctx;
    OK(ss_context_create(&co, &ctx));
    OK(ss_executable_run(e, ctx, (const void *const *)ins, outs));
    ss_plan plan;
    OK(ss_executable_plan(e, &plan));
    for (int d = 0; d < ndevices; d++) {
        ss_memory_stats ms;
        OK(ss_device_memory_stats(ctx, d, &ms));
        cr_assert_eq(ms.peak_bytes, plan.peak_bytes, "device %d peak %zu, plan %zu", d,
                     ms.peak_bytes, plan.peak_bytes);
        cr_assert_eq(ms.live_bytes, 0, "device %d leaks %zu bytes", d, ms.live_bytes);
    }
    int nl = ss_context_ledger_count(ctx);
    cr_assert_eq(nl, ss_executable_ledger_count(e), "run recorded %d collectives, plan %d", nl,
                 ss_executable_ledger_count(e));
    for (int k = 0; k < nl; k++) {
        ss_coll_record a, b;
        OK(ss_context_ledger_get(ctx, k, &a));
        OK(ss_executable_ledger_get(e, k, &b));
        cr_assert(a.kind == b.kind && a.sent == b.sent && a.naxes == b.naxes &&
                      memcmp(a.axes, b.axes, sizeof a.axes[0] * (size_t)a.naxes) == 0,
                  "collective %d: run %s over %d axes %.0f B, plan %s over %d axes %.0f B", k,
                  ss_coll_kind_name(a.kind), a.naxes, a.sent, ss_coll_kind_name(b.kind), b.naxes,
                  b.sent);
    }
    return ctx;
}

/* Output buffers (f32-sized) for every output of p, in ss_output order. */
static inline void **tc_outputs(const ss_program *p)
{
    void **outs = calloc((size_t)p->nouts + 1, sizeof *outs);
    for (int j = 0; j < p->nouts; j++)
        outs[j] = calloc(tc_elems(p, p->outs[j]) + 1, 4);
    return outs;
}

/* The value of output j (ss_output order). */
static inline ss_value tc_output_value(const ss_program *p, int j) { return p->outs[j]; }

/* One expected collective: kind and bytes sent per device. */
typedef struct tc_coll {
    ss_coll_kind kind;
    double sent;
} tc_coll;

/* Whether e's ledger is exactly `want`; on a mismatch print both ledgers
 * and the explain text to stderr (the report for the lowering's owner). */
static inline bool tc_ledger_is(const ss_executable *e, const char *name, const tc_coll *want,
                                int nwant)
{
    int n = ss_executable_ledger_count(e);
    bool same = n == nwant;
    for (int k = 0; same && k < n; k++) {
        ss_coll_record r;
        OK(ss_executable_ledger_get(e, k, &r));
        same = r.kind == want[k].kind && fabs(r.sent - want[k].sent) < 0.5;
    }
    if (!same) {
        fprintf(stderr, "%s: ledger differs from docs/gspmd.md\n  emitted:", name);
        for (int k = 0; k < n; k++) {
            ss_coll_record r;
            OK(ss_executable_ledger_get(e, k, &r));
            fprintf(stderr, " %s%s %.0f", k ? "," : "", ss_coll_kind_name(r.kind), r.sent);
        }
        fprintf(stderr, "\n  expected:");
        for (int k = 0; k < nwant; k++)
            fprintf(stderr, " %s%s %.0f", k ? "," : "", ss_coll_kind_name(want[k].kind),
                    want[k].sent);
        fprintf(stderr, "\n");
        ss_executable_explain(e, stderr);
    }
    return same;
}

#endif
