/*
 * init.c — parameter initialization directly in the shards: every element
 * is a pure function of (seed, its flat row-major index in the global
 * array), so a device computes its own block and nothing else, and the
 * values are the same for every sharding and device count.
 *
 * The generator is counter-based: the 64-bit splitmix finalizer applied to
 * (seed, index, draw number) gives independent uniform bits per element
 * with no state to split or carry; normals come from Box-Muller on two
 * such uniforms. Distributions follow jax.nn.initializers: normal(stddev),
 * uniform(scale) on [0, scale), and glorot (xavier) normal and uniform as
 * variance_scaling(scale, "fan_avg", ...): variance = scale / ((fan_in +
 * fan_out) / 2), the normal one truncated to [-2, 2] standard deviations
 * and rescaled by 1 / 0.87962566103423978 as JAX does, the uniform one on
 * [-sqrt(3 variance), sqrt(3 variance)).
 *
 * Not JAX's bits: jax.random's threefry streams are not reproduced, only
 * the distributions.
 */
#include "graph.h"

#include "base/half.h"

#include <math.h>
#include <string.h>

static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1) from draw `k` of element `index`. */
static double uniform01(uint64_t key, uint64_t index, uint64_t k)
{
    uint64_t b = mix64(mix64(key ^ (index * 0xd1b54a32d192ed03ull)) + k);
    return (double)(b >> 11) * 0x1.0p-53;
}

/* Standard normal from draws 2k and 2k+1 (Box-Muller, cosine branch). */
static double normal01(uint64_t key, uint64_t index, uint64_t k)
{
    double u1 = 1.0 - uniform01(key, index, 2 * k); /* (0, 1] */
    double u2 = uniform01(key, index, 2 * k + 1);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

typedef struct dist {
    ss_init_kind kind;
    uint64_t key;
    double a; /* constant, stddev, or range */
} dist;

static double sample(const dist *d, uint64_t index)
{
    switch (d->kind) {
    case SS_INIT_ZEROS: return 0.0;
    case SS_INIT_ONES: return 1.0;
    case SS_INIT_CONSTANT: return d->a;
    case SS_INIT_NORMAL: return d->a * normal01(d->key, index, 0);
    case SS_INIT_UNIFORM: return d->a * uniform01(d->key, index, 0);
    case SS_INIT_XAVIER_UNIFORM: return d->a * (2.0 * uniform01(d->key, index, 0) - 1.0);
    case SS_INIT_XAVIER_NORMAL:
        /* Truncated to [-2, 2] by rejection: the chance of 64 misses is
         * 0.0455^64, far below anything a run will see; then clamp. */
        for (uint64_t k = 0; k < 64; k++) {
            double z = normal01(d->key, index, k);
            if (z >= -2.0 && z <= 2.0)
                return d->a * z;
        }
        return 0.0;
    }
    return 0.0;
}

static ss_status make_dist(const ss_init *init, int rank, const int64_t shape[], dist *d)
{
    d->kind = init->kind;
    d->key = mix64(init->seed ^ 0x5851f42d4c957f2dull);
    d->a = init->scale;
    switch (init->kind) {
    case SS_INIT_ZEROS:
    case SS_INIT_ONES:
    case SS_INIT_CONSTANT: return SS_OK;
    case SS_INIT_NORMAL:
    case SS_INIT_UNIFORM:
        if (d->a == 0.0)
            d->a = 1e-2; /* jax.nn.initializers.normal() and uniform() defaults */
        return SS_OK;
    case SS_INIT_XAVIER_NORMAL:
    case SS_INIT_XAVIER_UNIFORM: {
        if (rank < 2)
            return ss__fail(SS_ERR_INVALID, "init: can't compute input and output sizes of a "
                                            "%d-dimensional weights tensor; must be at least 2D",
                            rank);
        int in = init->in_axis, out = init->out_axis;
        if (in == out) {
            in = -2;
            out = -1;
        }
        in = in < 0 ? in + rank : in;
        out = out < 0 ? out + rank : out;
        if (in < 0 || in >= rank || out < 0 || out >= rank || in == out)
            return ss__fail(SS_ERR_INVALID, "init: in_axis %d and out_axis %d are not two "
                                            "different dims of a rank-%d array",
                            init->in_axis, init->out_axis, rank);
        double total = 1.0;
        for (int k = 0; k < rank; k++)
            total *= (double)shape[k];
        double receptive = total / (double)shape[in] / (double)shape[out];
        double fan_in = (double)shape[in] * receptive, fan_out = (double)shape[out] * receptive;
        double variance = (d->a == 0.0 ? 1.0 : d->a) / ((fan_in + fan_out) / 2.0);
        d->a = init->kind == SS_INIT_XAVIER_NORMAL ? sqrt(variance) / 0.87962566103423978
                                                   : sqrt(3.0 * variance);
        return SS_OK;
    }
    }
    return ss__fail(SS_ERR_INVALID, "init: unknown kind %d", (int)init->kind);
}

static void store(ss_dtype dtype, void *dst, int64_t i, double v)
{
    switch (dtype) {
    case SS_F32: ((float *)dst)[i] = (float)v; break;
    case SS_F64: ((double *)dst)[i] = v; break;
    case SS_BF16: ((uint16_t *)dst)[i] = ss__f32_to_bf16((float)v); break;
    case SS_F16: ((uint16_t *)dst)[i] = ss__f32_to_f16((float)v); break;
    default: break;
    }
}

ss_status ss_init_fill(const ss_init *init, int rank, const int64_t shape[], ss_dtype dtype,
                       const int64_t start[], const int64_t stop[], void *dst)
{
    if (!init || (rank > 0 && !shape) || rank < 0 || rank > SS_MAX_RANK)
        return ss__fail(SS_ERR_INVALID, "init: bad arguments (rank %d)", rank);
    if (dtype != SS_F32 && dtype != SS_F64 && dtype != SS_BF16 && dtype != SS_F16)
        return ss__fail(SS_ERR_UNSUPPORTED, "init: dtype %s; float dtypes only",
                        ss_dtype_name(dtype));
    int64_t lo[SS_MAX_RANK], hi[SS_MAX_RANK], idx[SS_MAX_RANK];
    for (int d = 0; d < rank; d++) {
        lo[d] = start ? start[d] : 0;
        hi[d] = stop ? stop[d] : shape[d];
        if (lo[d] < 0 || lo[d] > hi[d] || hi[d] > shape[d])
            return ss__fail(SS_ERR_RANGE, "init: block [%lld, %lld) of dim %d is outside 0..%lld",
                            (long long)lo[d], (long long)hi[d], d, (long long)shape[d]);
        if (lo[d] == hi[d])
            return SS_OK;
        idx[d] = lo[d];
    }
    dist dd;
    ss_status st = make_dist(init, rank, shape, &dd);
    if (st)
        return st;
    for (int64_t i = 0;; i++) {
        uint64_t flat = 0;
        for (int d = 0; d < rank; d++)
            flat = flat * (uint64_t)shape[d] + (uint64_t)idx[d];
        store(dtype, dst, i, sample(&dd, flat));
        int d = rank - 1;
        while (d >= 0 && ++idx[d] == hi[d]) {
            idx[d] = lo[d];
            d--;
        }
        if (d < 0)
            break;
    }
    return SS_OK;
}

typedef struct fill_ctx {
    const ss_init *init;
    int rank;
    const int64_t *shape;
    ss_dtype dtype;
} fill_ctx;

static ss_status fill_shard(const ss_shard *index, void *dst, void *user)
{
    const fill_ctx *c = user;
    return ss_init_fill(c->init, c->rank, c->shape, c->dtype, index->start, index->stop, dst);
}

ss_status ss_array_from_init(ss_context *ctx, const ss_sharding *sh, int rank,
                             const int64_t shape[], ss_dtype dtype, const ss_init *init,
                             const char *name, ss_array **out)
{
    *out = NULL;
    dist dd;
    if (!init)
        return ss__fail(SS_ERR_INVALID, "init: no initializer given");
    ss_status st = make_dist(init, rank, shape, &dd);
    if (st)
        return st;
    if (dtype != SS_F32 && dtype != SS_F64 && dtype != SS_BF16 && dtype != SS_F16)
        return ss__fail(SS_ERR_UNSUPPORTED, "init: dtype %s; float dtypes only",
                        ss_dtype_name(dtype));
    fill_ctx c = {init, rank, shape, dtype};
    return ss_array_from_callback(ctx, sh, rank, shape, dtype, fill_shard, &c, name, out);
}
