/*
 * ops_bitcast.c — bitcast_convert between dtypes of different sizes, as
 * StableHLO defines it and JAX emits it (jax.random's 'rbg' keys, and
 * lax.rng_bit_generator's u32[4] key, go u32[2, 2] <-> u64[2]): to a dtype
 * r times wider the operand's last dim (of size r) is packed into one
 * element, the element at index 0 in the lowest bits (XLA's CPU backend
 * is little-endian); to a dtype r times narrower a last dim of size r is
 * added, the lowest bits at index 0.
 *
 * Built from existing ops (same-size bitcasts to unsigned integers,
 * converts, shifts, or, slices and concatenation), so every layer already
 * handles it; not a node of its own.
 */
#include "graph.h"

#include <string.h>

/* The unsigned integer dtype of `bytes` bytes. */
static ss_dtype uint_of(size_t bytes)
{
    return bytes == 1 ? SS_U8 : bytes == 2 ? SS_U16 : bytes == 4 ? SS_U32 : SS_U64;
}

/* A rank-0 constant `v` of unsigned dtype dt. */
static ss_status uconst(ss_program *p, ss_dtype dt, uint64_t v, ss_value *out)
{
    unsigned char b[8];
    for (int k = 0; k < 8; k++)
        b[k] = (unsigned char)(v >> (8 * k)); /* little-endian, as the data */
    return ss_constant_array(p, dt, 0, NULL, b, out);
}

/* Pack: x (rank n, last dim r) of `from` into rank n - 1 of `to`. */
static ss_status widen(ss_program *p, const ss__node *a, ss_value x, ss_dtype to, ss_value *out)
{
    size_t wa = ss_dtype_size(a->dtype), wb = ss_dtype_size(to);
    int64_t r = (int64_t)(wb / wa);
    int rank = a->rank;
    int64_t shape[SS_MAX_RANK], start[SS_MAX_RANK] = {0}, limit[SS_MAX_RANK];
    memcpy(shape, a->shape, sizeof shape);
    memcpy(limit, a->shape, sizeof limit);
    if (rank < 1 || shape[rank - 1] != r)
        return ss__fail(SS_ERR_INVALID, "bitcast_convert: %s to %s needs a last dim of %lld",
                        ss_dtype_name(a->dtype), ss_dtype_name(to), (long long)r);
    ss_dtype un = uint_of(wa), uw = uint_of(wb);
    ss_value u, acc = -1;
    ss_status st = ss_bitcast_convert(p, x, un, &u);
    for (int64_t k = 0; !st && k < r; k++) {
        ss_value piece, sh;
        start[rank - 1] = k;
        limit[rank - 1] = k + 1;
        st = ss_slice(p, u, start, limit, &piece);
        if (!st)
            st = ss_reshape(p, piece, rank - 1, shape, &piece);
        if (!st)
            st = ss_convert(p, piece, uw, &piece);
        if (!st && k) {
            st = uconst(p, uw, (uint64_t)(8 * wa) * (uint64_t)k, &sh);
            if (!st)
                st = ss_binary(p, SS_SHIFT_LEFT, piece, sh, &piece);
        }
        if (!st)
            st = k ? ss_binary(p, SS_OR, acc, piece, &acc) : (acc = piece, SS_OK);
    }
    if (!st)
        st = ss_bitcast_convert(p, acc, to, out);
    return st;
}

/* Unpack: x (rank n) of `from` into rank n + 1 of `to`, last dim r. */
static ss_status narrow(ss_program *p, const ss__node *a, ss_value x, ss_dtype to,
                        ss_value *out)
{
    size_t wa = ss_dtype_size(a->dtype), wb = ss_dtype_size(to);
    int64_t r = (int64_t)(wa / wb);
    int rank = a->rank;
    if (rank + 1 > SS_MAX_RANK)
        return ss__fail(SS_ERR_RANK, "bitcast_convert: the result would have rank %d",
                        rank + 1);
    int64_t shape[SS_MAX_RANK];
    memcpy(shape, a->shape, sizeof shape);
    shape[rank] = 1;
    ss_dtype uw = uint_of(wa), un = uint_of(wb);
    ss_value u, pieces[8];
    ss_status st = ss_bitcast_convert(p, x, uw, &u);
    for (int64_t k = 0; !st && k < r; k++) {
        ss_value piece = u, sh;
        if (k) {
            st = uconst(p, uw, (uint64_t)(8 * wb) * (uint64_t)k, &sh);
            if (!st)
                st = ss_binary(p, SS_SHIFT_RIGHT_LOGICAL, u, sh, &piece);
        }
        if (!st)
            st = ss_convert(p, piece, un, &piece);
        if (!st)
            st = ss_bitcast_convert(p, piece, to, &piece);
        if (!st)
            st = ss_reshape(p, piece, rank + 1, shape, &pieces[k]);
    }
    if (!st)
        st = ss_concatenate(p, (int)r, pieces, rank, out);
    return st;
}

ss_status ss__bitcast_resize(ss_program *p, ss_value x, ss_dtype dtype, ss_value *out)
{
    const ss__node *a = ss__program_node(p, x, "bitcast_convert");
    if (!a)
        return SS_ERR_INVALID;
    ss__node copy = *a; /* a moves when the program grows */
    size_t wa = ss_dtype_size(copy.dtype), wb = ss_dtype_size(dtype);
    if (copy.dtype == SS_BOOL || dtype == SS_BOOL || !wa || !wb)
        return ss__fail(SS_ERR_UNSUPPORTED, "bitcast_convert: %s to %s",
                        ss_dtype_name(copy.dtype), ss_dtype_name(dtype));
    int n0 = p->n;
    ss_status st = wb > wa ? widen(p, &copy, x, dtype, out) : narrow(p, &copy, x, dtype, out);
    if (st)
        ss__program_drop_since(p, n0);
    return st;
}
