/*
 * reference_index.c — naive references of index_ops.c (iota, reverse,
 * general pad): one loop over the output's elements, each index unravelled
 * and mapped back to the input by the op's definition. They share only the
 * argument checks and the element conversion with the fast kernels.
 */
#include "elementwise_int.h"

static void unravel(int64_t i, int rank, const int64_t shape[], int64_t idx[])
{
    for (int d = rank - 1; d >= 0; d--) {
        idx[d] = i % shape[d];
        i /= shape[d];
    }
}

static int64_t ravel(int rank, const int64_t shape[], const int64_t idx[])
{
    int64_t off = 0;
    for (int d = 0; d < rank; d++)
        off = off * shape[d] + idx[d];
    return off;
}

static void copy_elem(ss__tensor *out, int64_t i, const ss__tensor *x, int64_t j)
{
    size_t es = ss_dtype_size(out->dtype);
    memcpy((unsigned char *)out->data + (size_t)i * es,
           (const unsigned char *)x->data + (size_t)j * es, es);
}

ss_status ss__k_ref_iota(int dim, ss__tensor *out)
{
    ss_status st = ss__k_check_iota(dim, out);
    if (st)
        return st;
    int64_t idx[SS_MAX_RANK];
    for (int64_t i = 0; i < ss__k_numel(out); i++) {
        unravel(i, out->rank, out->shape, idx);
        ss__k_scalar v = {.u = (uint64_t)idx[dim]};
        ss__k_ew_store(out->dtype, out->data, i, ss__k_ew_convert(v, SS_I64, out->dtype));
    }
    return SS_OK;
}

ss_status ss__k_ref_reverse(const ss__tensor *x, unsigned dims, ss__tensor *out)
{
    ss_status st = ss__k_check_reverse(x, dims, out);
    if (st)
        return st;
    int64_t idx[SS_MAX_RANK];
    for (int64_t i = 0; i < ss__k_numel(out); i++) {
        unravel(i, out->rank, out->shape, idx);
        for (int d = 0; d < x->rank; d++)
            if ((dims >> d) & 1u)
                idx[d] = x->shape[d] - 1 - idx[d];
        copy_elem(out, i, x, ravel(x->rank, x->shape, idx));
    }
    return SS_OK;
}

ss_status ss__k_ref_pad_general(const ss__tensor *x, const ss__tensor *value,
                                const int64_t lo[], const int64_t hi[],
                                const int64_t interior[], ss__tensor *out)
{
    ss_status st = ss__k_check_pad_general(x, value, lo, hi, interior, out);
    if (st)
        return st;
    int64_t oi[SS_MAX_RANK], xi[SS_MAX_RANK];
    for (int64_t i = 0; i < ss__k_numel(out); i++) {
        unravel(i, out->rank, out->shape, oi);
        bool inside = true;
        for (int d = 0; d < x->rank && inside; d++) {
            /* output position oi = lo + xi * (interior + 1) */
            int64_t rel = oi[d] - lo[d];
            inside = rel >= 0 && rel % (interior[d] + 1) == 0 &&
                     rel / (interior[d] + 1) < x->shape[d];
            xi[d] = inside ? rel / (interior[d] + 1) : 0;
        }
        if (inside)
            copy_elem(out, i, x, ravel(x->rank, x->shape, xi));
        else
            copy_elem(out, i, value, 0);
    }
    return SS_OK;
}
