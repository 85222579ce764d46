/*
 * reduce.c — sum, mean, max and min over any set of axes.
 *
 * Determinism: for every output element the reduced elements are visited in
 * row-major order of their indices, whatever the axes, and added to a
 * double accumulator that starts at 0 (max/min compare in f32). The order
 * is part of the contract: the naive reference visits the same order, so
 * the two agree bit for bit, and a run is bit-identical to the next.
 *
 * How: the kept and the reduced dims are coalesced separately. If x's last
 * dim is kept, up to SS__K_BLOCK neighbouring outputs are reduced together
 * (one contiguous load per reduced index); if it is reduced, each output
 * reduces contiguous runs. Both keep the per-output order above.
 *
 * Not here (reduce_exact.c): products, argmax/argmin, integer, bool and
 * f64 reductions. Not at all: pairwise or
 * Kahan summation (the double accumulator makes them unnecessary at shard
 * sizes, and a fixed sequential order is easier to promise).
 */
#include "kernels_internal.h"

#include <math.h>

static const char *const reduce_names[SS__K_REDUCE_COUNT] = {
    [SS__K_REDUCE_SUM] = "sum",
    [SS__K_REDUCE_MEAN] = "mean",
    [SS__K_REDUCE_MAX] = "max",
    [SS__K_REDUCE_MIN] = "min",
    [SS__K_REDUCE_PROD] = "prod",
    [SS__K_REDUCE_AND] = "and",
    [SS__K_REDUCE_OR] = "or",
};

const char *ss__k_reduce_name(ss__k_reduce_op op)
{
    return (unsigned)op < SS__K_REDUCE_COUNT ? reduce_names[op] : "?";
}

/* Normalise and validate axes; reduced[d] marks them. */
static ss_status mark_axes(const char *name, const ss__tensor *x, int naxes, const int axes[],
                           bool reduced[SS_MAX_RANK])
{
    for (int d = 0; d < SS_MAX_RANK; d++)
        reduced[d] = false;
    if (naxes < 0 || naxes > x->rank || (naxes > 0 && !axes))
        return ss__fail(SS_ERR_INVALID, "%s: %d axes given for rank %d", name, naxes, x->rank);
    for (int i = 0; i < naxes; i++) {
        int a;
        ss_status st = ss__k_norm_axis(name, axes[i], x->rank, &a);
        if (st)
            return st;
        if (reduced[a])
            return ss__fail(SS_ERR_INVALID, "%s: axis %d repeated", name, axes[i]);
        reduced[a] = true;
    }
    return SS_OK;
}

ss_status ss__k_reduce_shape(ss__k_reduce_op op, const ss__tensor *x, int naxes, const int axes[],
                             bool keepdims, int *rank, int64_t shape[SS_MAX_RANK])
{
    if ((unsigned)op >= SS__K_REDUCE_COUNT)
        return ss__fail(SS_ERR_INVALID, "reduce: unknown op %d", (int)op);
    bool reduced[SS_MAX_RANK];
    ss_status st = ss__k_check_shape(reduce_names[op], "input", x, NULL);
    if (!st)
        st = mark_axes(reduce_names[op], x, naxes, axes, reduced);
    if (st)
        return st;
    int r = 0;
    for (int d = 0; d < x->rank; d++) {
        if (!reduced[d])
            shape[r++] = x->shape[d];
        else if (keepdims)
            shape[r++] = 1;
    }
    *rank = r;
    return SS_OK;
}

ss_status ss__k_check_reduce(ss__k_reduce_op op, const ss__tensor *x, int naxes, const int axes[],
                             bool keepdims, const ss__tensor *out, bool reduced[SS_MAX_RANK])
{
    if ((unsigned)op >= SS__K_REDUCE_COUNT)
        return ss__fail(SS_ERR_INVALID, "reduce: unknown op %d", (int)op);
    const char *name = reduce_names[op];
    ss_status st = ss__k_check_float(name, "input", x, NULL);
    if (!st)
        st = ss__k_check_float(name, "output", out, NULL);
    if (!st)
        st = mark_axes(name, x, naxes, axes, reduced);
    if (st)
        return st;
    ss__tensor want = {.dtype = out->dtype};
    st = ss__k_reduce_shape(op, x, naxes, axes, keepdims, &want.rank, want.shape);
    if (!st)
        st = ss__k_check_same_shape(name, "reduced", &want, "output", out);
    return st;
}

/* The running state of one output element. */
static inline double init_acc(ss__k_reduce_op op)
{
    if (op == SS__K_REDUCE_MAX)
        return -INFINITY;
    if (op == SS__K_REDUCE_MIN)
        return INFINITY;
    return 0.0;
}

static inline double step_acc(ss__k_reduce_op op, double acc, float v)
{
    switch (op) {
    case SS__K_REDUCE_MAX: return acc > v || acc != acc ? acc : v;
    case SS__K_REDUCE_MIN: return acc < v || acc != acc ? acc : v;
    default: return acc + (double)v;
    }
}

static inline float final_acc(ss__k_reduce_op op, double acc, int64_t count)
{
    if (op == SS__K_REDUCE_MEAN)
        return (float)(acc / (double)count);
    return (float)acc;
}

/* acc[j] += v[j]: step_acc of a sum without the switch, so that it
 * vectorises (the same additions in the same order). */
SS__K_VECTOR_CLONES
static void add_to_acc(double *restrict acc, const float *restrict v, int64_t c)
{
    for (int64_t j = 0; j < c; j++)
        acc[j] += (double)v[j];
}

typedef float ss__v8f __attribute__((vector_size(32)));
typedef int32_t ss__v8i __attribute__((vector_size(32)));

/* Lanes of l replaced where v is greater (l = v > l ? v : l, one vector
 * max); `bad` collects the lanes where v is NaN. */
static inline void max_lanes_step(ss__v8f *l, ss__v8i *bad, const ss__v8f *vp)
{
    ss__v8f v = *vp; /* by pointer: a vector argument's ABI differs with AVX */
    ss__v8i gt = v > *l;
    *l = (ss__v8f)(((ss__v8i)v & gt) | ((ss__v8i)*l & ~gt));
    *bad |= v != v;
}

/* The max (min: `sign` -1) of x[0 .. n) in sixteen lanes, combined.
 * Only a finite non-zero or infinite result of a row without NaN is
 * returned as *m (true): then every element equal to it has its bits, so
 * the sequential order's choice among equal elements (+0 and -0 compare
 * equal) cannot differ. False (a zero result or a NaN in the row): the
 * caller runs the sequential loop, which keeps the first NaN. The lanes
 * use `v > l ? v : l` (one vector max) and count NaNs apart, so that the
 * loop vectorises (GCC's and clang's vector types: two vectors of eight
 * lanes, sixteen lanes in all). */
SS__K_VECTOR_CLONES
static bool max_run_lanes(const float *restrict x, int64_t n, float sign, float *m)
{
    ss__v8f l0, l1;
    ss__v8i bad = {0};
    for (int j = 0; j < 8; j++)
        l0[j] = l1[j] = -INFINITY;
    int64_t nv = n - n % 16;
    for (int64_t i = 0; i < nv; i += 16) {
        ss__v8f a, b;
        memcpy(&a, x + i, sizeof a);
        memcpy(&b, x + i + 8, sizeof b);
        a *= sign;
        b *= sign;
        max_lanes_step(&l0, &bad, &a);
        max_lanes_step(&l1, &bad, &b);
    }
    max_lanes_step(&l0, &bad, &l1);
    float r = -INFINITY;
    int32_t any = 0;
    for (int j = 0; j < 8; j++) {
        r = l0[j] > r ? l0[j] : r;
        any |= bad[j];
    }
    for (int64_t i = nv; i < n; i++) {
        float v = sign * x[i];
        r = v > r ? v : r;
        any |= v != v;
    }
    if (any || r == 0.0f)
        return false;
    *m = sign * r;
    return true;
}

/* acc[j] = the sum of x[base[j] .. base[j] + run), from 0.0 in index
 * order, for eight rows at once: eight chains of dependent adds that
 * overlap, each accumulator a local (in a register; as an array the
 * compiler kept them in memory, a store and a load on every add). */
SS__K_VECTOR_CLONES
static void sum_rows8(const float *x, const int64_t base[], int64_t run, double acc[])
{
    const float *r0 = x + base[0], *r1 = x + base[1], *r2 = x + base[2], *r3 = x + base[3];
    const float *r4 = x + base[4], *r5 = x + base[5], *r6 = x + base[6], *r7 = x + base[7];
    double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0, a4 = 0.0, a5 = 0.0, a6 = 0.0, a7 = 0.0;
    for (int64_t i = 0; i < run; i++) {
        a0 += (double)r0[i];
        a1 += (double)r1[i];
        a2 += (double)r2[i];
        a3 += (double)r3[i];
        a4 += (double)r4[i];
        a5 += (double)r5[i];
        a6 += (double)r6[i];
        a7 += (double)r7[i];
    }
    acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
    acc[4] = a4, acc[5] = a5, acc[6] = a6, acc[7] = a7;
}

/* acc[j] = the reduction of x[base[j] .. base[j] + run) in index order,
 * for g <= REDUCE_GROUP runs, interleaved. */
enum { REDUCE_GROUP = 8 };
static void reduce_runs(ss__k_reduce_op op, const float *x, const int64_t base[], int g,
                        int64_t run, double acc[])
{
    if (op == SS__K_REDUCE_MAX || op == SS__K_REDUCE_MIN) {
        /* Rows of softmax's maxima: lanes within a row where that gives
         * the sequential loop's bits (max_run_lanes), else that loop. */
        float sign = op == SS__K_REDUCE_MAX ? 1.0f : -1.0f;
        for (int j = 0; j < g; j++) {
            float m;
            if (max_run_lanes(x + base[j], run, sign, &m)) {
                acc[j] = m;
                continue;
            }
            acc[j] = init_acc(op);
            for (int64_t i = 0; i < run; i++)
                acc[j] = step_acc(op, acc[j], x[base[j] + i]);
        }
        return;
    }
    if (g == REDUCE_GROUP) {
        sum_rows8(x, base, run, acc);
        return;
    }
    for (int j = 0; j < g; j++)
        acc[j] = init_acc(op);
    for (int64_t i = 0; i < run; i++)
        for (int j = 0; j < g; j++)
            acc[j] = step_acc(op, acc[j], x[base[j] + i]);
}

/* Load n elements of x from `start` with element stride `stride`. */
static void load_strided(const ss__tensor *x, int64_t start, int64_t stride, int64_t n, float *dst)
{
    if (stride == 1) {
        ss__k_load_f32(x->dtype, x->data, start, n, dst);
        return;
    }
    for (int64_t i = 0; i < n; i++)
        ss__k_load_f32(x->dtype, x->data, start + i * stride, 1, dst + i);
}

ss_status ss__k_reduce(ss__k_reduce_op op, const ss__tensor *x, int naxes, const int axes[],
                       bool keepdims, ss__tensor *out)
{
    if ((unsigned)op < SS__K_REDUCE_COUNT && x && ss__k_reduce_is_exact(op, x->dtype))
        return ss__k_reduce_exact(op, x, naxes, axes, keepdims, out);
    bool reduced[SS_MAX_RANK];
    ss_status st = ss__k_check_reduce(op, x, naxes, axes, keepdims, out, reduced);
    if (st)
        return st;
    int64_t nout = ss__k_numel(out);
    if (nout == 0)
        return SS_OK;

    /* Split x's dims into kept (k) and reduced (r) index spaces. */
    int64_t xs[SS_MAX_RANK];
    ss__k_strides(x->rank, x->shape, xs);
    int64_t kshape[SS_MAX_RANK], ks[1][SS_MAX_RANK], rshape[SS_MAX_RANK], rs[1][SS_MAX_RANK];
    int kr = 0, rr = 0;
    int64_t count = 1;
    for (int d = 0; d < x->rank; d++) {
        if (reduced[d]) {
            rshape[rr] = x->shape[d];
            rs[0][rr++] = xs[d];
            count *= x->shape[d];
        } else {
            kshape[kr] = x->shape[d];
            ks[0][kr++] = xs[d];
        }
    }
    float vals[SS__K_BLOCK];
    if (count == 0) {
        for (int64_t o = 0; o < nout; o++) {
            float v = final_acc(op, init_acc(op), 0);
            ss__k_store_f32(out->dtype, out->data, o, 1, &v);
        }
        return SS_OK;
    }
    kr = ss__k_coalesce(kr, kshape, 1, ks);
    rr = ss__k_coalesce(rr, rshape, 1, rs);

    int64_t kidx[SS_MAX_RANK] = {0}, koff[1] = {0};
    int64_t o = 0; /* next output element (out is row-major over kept dims) */
    if (ks[0][kr - 1] == 1) {
        /* x's last dim is kept: reduce blocks of neighbouring outputs. */
        int64_t inner = kshape[kr - 1];
        double acc[SS__K_BLOCK];
        do {
            for (int64_t j0 = 0; j0 < inner; j0 += SS__K_BLOCK) {
                int64_t c = inner - j0 < SS__K_BLOCK ? inner - j0 : SS__K_BLOCK;
                for (int64_t j = 0; j < c; j++)
                    acc[j] = init_acc(op);
                int64_t ridx[SS_MAX_RANK] = {0}, roff[1] = {0};
                bool add = op == SS__K_REDUCE_SUM || op == SS__K_REDUCE_MEAN;
                do {
                    int64_t at = koff[0] + j0 + roff[0];
                    if (add && x->dtype == SS_F32) {
                        add_to_acc(acc, (const float *)x->data + at, c);
                        continue;
                    }
                    ss__k_load_f32(x->dtype, x->data, at, c, vals);
                    if (add)
                        add_to_acc(acc, vals, c);
                    else
                        for (int64_t j = 0; j < c; j++)
                            acc[j] = step_acc(op, acc[j], vals[j]);
                } while (ss__k_step(rr, rshape, ridx, 1, rs, roff));
                for (int64_t j = 0; j < c; j++)
                    vals[j] = final_acc(op, acc[j], count);
                ss__k_store_f32(out->dtype, out->data, o, c, vals);
                o += c;
            }
        } while (ss__k_step(kr - 1, kshape, kidx, 1, ks, koff));
        return SS_OK;
    }

    /* x's last dim is reduced: each output reduces contiguous runs. */
    int64_t run = rshape[rr - 1], rstride = rs[0][rr - 1];
    if (rr == 1 && rstride == 1 && x->dtype == SS_F32) {
        /* One run per output: REDUCE_GROUP outputs side by side, each in
         * its own order, so their dependent adds overlap (a single double
         * accumulator waits on its previous add every element). */
        bool more = true;
        while (more) {
            int64_t base[REDUCE_GROUP];
            int g = 0;
            while (g < REDUCE_GROUP && more) {
                base[g++] = koff[0];
                more = ss__k_step(kr, kshape, kidx, 1, ks, koff);
            }
            double acc[REDUCE_GROUP];
            reduce_runs(op, x->data, base, g, run, acc);
            for (int j = 0; j < g; j++)
                vals[j] = final_acc(op, acc[j], count);
            ss__k_store_f32(out->dtype, out->data, o, g, vals);
            o += g;
        }
        return SS_OK;
    }
    do {
        double acc = init_acc(op);
        int64_t ridx[SS_MAX_RANK] = {0}, roff[1] = {0};
        do {
            for (int64_t i = 0; i < run; i += SS__K_BLOCK) {
                int64_t c = run - i < SS__K_BLOCK ? run - i : SS__K_BLOCK;
                load_strided(x, koff[0] + roff[0] + i * rstride, rstride, c, vals);
                for (int64_t j = 0; j < c; j++)
                    acc = step_acc(op, acc, vals[j]);
            }
        } while (ss__k_step(rr - 1, rshape, ridx, 1, rs, roff));
        float v = final_acc(op, acc, count);
        ss__k_store_f32(out->dtype, out->data, o++, 1, &v);
    } while (ss__k_step(kr, kshape, kidx, 1, ks, koff));
    return SS_OK;
}

int64_t ss__k_flops_reduce(ss__k_reduce_op op, const ss__tensor *x, const ss__tensor *out)
{
    int64_t n = ss__k_numel(x), m = ss__k_numel(out);
    if (n < 0 || m < 0)
        return 0;
    if (op == SS__K_REDUCE_MEAN && n > INT64_MAX - m)
        return INT64_MAX;
    return op == SS__K_REDUCE_MEAN ? n + m : n;
}
