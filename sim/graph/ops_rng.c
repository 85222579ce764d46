/*
 * ops_rng.c — the builder of rng_bit_generator (StableHLO's, which JAX
 * emits for lax.rng_bit_generator and the 'rbg' PRNG implementations).
 *
 * The op has two results, so it is two nodes alike (as sort is): sub 0
 * gives the bits, sub 1 the new state; each has the state as its operand
 * and the bits' dtype and shape in rng_dtype/rng_rank/rng_shape, so each
 * computes on its own (kernels/rng.c) and every layer sees one array per
 * node. Not differentiable: the results are integers.
 */
#include "graph.h"

#include <string.h>

ss_status ss_rng_bit_generator(ss_program *p, ss_value state, ss_rng_algorithm algorithm,
                               ss_dtype dtype, int rank, const int64_t shape[],
                               ss_value *new_state, ss_value *bits)
{
    const ss__node *s = ss__program_node(p, state, "rng_bit_generator");
    if (!s)
        return SS_ERR_INVALID;
    if (algorithm == SS_RNG_DEFAULT)
        algorithm = SS_RNG_PHILOX; /* XLA's CPU and GPU backends' choice */
    if (algorithm != SS_RNG_THREE_FRY && algorithm != SS_RNG_PHILOX)
        return ss__fail(SS_ERR_INVALID, "rng_bit_generator: algorithm %d is none of DEFAULT, "
                                        "THREE_FRY, PHILOX", (int)algorithm);
    bool three = s->rank == 1 && s->shape[0] == 3 && algorithm == SS_RNG_PHILOX;
    if (s->dtype != SS_U64 || s->rank != 1 || (s->shape[0] != 2 && !three))
        return ss__fail(SS_ERR_INVALID, "rng_bit_generator: the state is %s[%s%lld], not u64[2]%s",
                        ss_dtype_name(s->dtype), s->rank == 1 ? "" : "rank ",
                        (long long)(s->rank == 1 ? s->shape[0] : s->rank),
                        algorithm == SS_RNG_PHILOX ? " or u64[3]" : "");
    if (dtype != SS_U8 && dtype != SS_U16 && dtype != SS_U32 && dtype != SS_U64)
        return ss__fail(SS_ERR_INVALID, "rng_bit_generator: bits of %s (u8, u16, u32 or u64)",
                        ss_dtype_name(dtype));
    if (rank < 0 || rank > SS_MAX_RANK || (rank && !shape))
        return ss__fail(SS_ERR_INVALID, "rng_bit_generator: rank %d", rank);
    for (int d = 0; d < rank; d++)
        if (shape[d] < 0)
            return ss__fail(SS_ERR_INVALID, "rng_bit_generator: dim %d is %lld", d,
                            (long long)shape[d]);
    int64_t words = s->shape[0]; /* s moves when the program grows */
    ss__node nd;
    memset(&nd, 0, sizeof nd);
    nd.op = SS__OP_RNG_BIT_GENERATOR;
    nd.nin = 1;
    nd.in[0] = state;
    nd.rng_alg = (int)algorithm;
    nd.rng_dtype = dtype;
    nd.rng_rank = rank;
    for (int d = 0; d < rank; d++)
        nd.rng_shape[d] = shape[d];
    int n0 = p->n;
    ss_value b = -1, ns = -1;
    for (int sub = 0; sub < 2; sub++) {
        nd.sub = sub;
        nd.dtype = sub ? SS_U64 : dtype;
        nd.rank = sub ? 1 : rank;
        memset(nd.shape, 0, sizeof nd.shape);
        if (sub)
            nd.shape[0] = words;
        else
            memcpy(nd.shape, nd.rng_shape, sizeof nd.shape);
        ss__layout_unknown(&nd.fixed, nd.rank);
        ss_status st = ss__program_add(p, &nd, sub ? &ns : &b);
        if (st) {
            ss__program_drop_since(p, n0);
            return st;
        }
    }
    if (bits)
        *bits = b;
    if (new_state)
        *new_state = ns;
    return SS_OK;
}
