/*
 * reference_gather.c — naive gather and scatter: one element at a time,
 * each index computed from scratch as StableHLO's spec states it
 * (batch_index, start_index, full_start_index, full_batching_index,
 * full_offset_index / full_window_index), for testing gather.c. Shares
 * only the checks of the dimension numbers with it.
 */
#include "elementwise_int.h"

#include <string.h>

/* Row-major position `i` of `shape` as an index. */
static void unflatten(int rank, const int64_t shape[], int64_t i, int64_t idx[])
{
    for (int r = rank - 1; r >= 0; r--) {
        idx[r] = i % shape[r];
        i /= shape[r];
    }
}

static int64_t flatten(int rank, const int64_t shape[], const int64_t idx[])
{
    int64_t f = 0;
    for (int r = 0; r < rank; r++)
        f = f * shape[r] + idx[r];
    return f;
}

static bool listed(int n, const int dims[], int d)
{
    for (int k = 0; k < n; k++)
        if (dims[k] == d)
            return true;
    return false;
}

/* The global operand index of result (update) index `ri`; *oob when a
 * scatter's window start is out of bounds (gather clamps instead). */
static void operand_index(const ss__tensor *ind, const ss_gather_dims *g, int orank,
                          const int64_t full[], const int64_t window[], int rrank,
                          const int64_t ri[], bool clamp, int64_t oi[], bool *oob)
{
    int ivd = g->index_vector_dim;
    int64_t batch[SS_MAX_RANK], offset[SS_MAX_RANK];
    int nb = 0, no = 0;
    for (int r = 0; r < rrank; r++) {
        if (listed(g->n_offset, g->offset_dims, r))
            offset[no++] = ri[r];
        else
            batch[nb++] = ri[r];
    }
    *oob = false;
    for (int d = 0; d < orank; d++)
        oi[d] = 0;
    /* full_start_index */
    for (int k = 0; k < g->n_index_map; k++) {
        int64_t si[SS_MAX_RANK];
        for (int i = 0, b = 0; i < ind->rank; i++)
            si[i] = i == ivd ? k : batch[b++];
        ss__k_scalar s = ss__k_ew_load(ind->dtype, ind->data, flatten(ind->rank, ind->shape, si));
        int64_t v = ss__k_class_of(ind->dtype) == SS__K_CLASS_UNSIGNED && s.u > (uint64_t)INT64_MAX
                        ? INT64_MAX
                        : (int64_t)s.u;
        int d = g->start_index_map[k];
        int64_t hi = full[d] - window[d];
        if (v < 0 || v > hi)
            *oob = true;
        if (clamp)
            v = v < 0 ? 0 : v > hi ? hi : v;
        oi[d] += v;
    }
    /* full_batching_index */
    for (int k = 0; k < g->n_batching; k++) {
        int id = g->start_indices_batching_dims[k];
        oi[g->operand_batching_dims[k]] += batch[id < ivd ? id : id - 1];
    }
    /* full_offset_index */
    for (int d = 0, w = 0; d < orank; d++)
        if (!listed(g->n_collapsed, g->collapsed_slice_dims, d) &&
            !listed(g->n_batching, g->operand_batching_dims, d))
            oi[d] += offset[w++];
}

/* Local position of global operand index oi in the block at lo, or -1. */
static int64_t local_at(const ss__tensor *x, const int64_t lo[], const int64_t oi[])
{
    int64_t f = 0;
    for (int d = 0; d < x->rank; d++) {
        int64_t at = oi[d] - lo[d];
        if (at < 0 || at >= x->shape[d])
            return -1;
        f = f * x->shape[d] + at;
    }
    return f;
}

ss_status ss__k_ref_gather(const ss__tensor *x, const ss__tensor *ind, const ss_gather_dims *g,
                           const int64_t full_in[], const int64_t lo_in[], ss__tensor *out)
{
    int64_t full[SS_MAX_RANK], lo[SS_MAX_RANK], window[SS_MAX_RANK];
    ss_status st = ss__k_gather_prepare(false, x, ind, out, g, full_in, lo_in, full, lo, window);
    if (st)
        return st;
    size_t es = ss_dtype_size(x->dtype);
    for (int64_t i = 0; i < ss__k_numel(out); i++) {
        int64_t ri[SS_MAX_RANK], oi[SS_MAX_RANK];
        bool oob;
        unflatten(out->rank, out->shape, i, ri);
        operand_index(ind, g, x->rank, full, window, out->rank, ri, true, oi, &oob);
        int64_t at = local_at(x, lo, oi);
        unsigned char *dst = (unsigned char *)out->data + (size_t)i * es;
        if (at < 0)
            memset(dst, 0, es);
        else
            memcpy(dst, (const unsigned char *)x->data + (size_t)at * es, es);
    }
    return SS_OK;
}

ss_status ss__k_ref_scatter(const ss__tensor *x, const ss__tensor *ind, const ss__tensor *upd,
                            ss_scatter_op op, const ss_gather_dims *g, const int64_t full_in[],
                            const int64_t lo_in[], ss__tensor *out)
{
    int64_t full[SS_MAX_RANK], lo[SS_MAX_RANK], window[SS_MAX_RANK];
    if ((unsigned)op >= SS_SCATTER_OP_COUNT)
        return ss__fail(SS_ERR_INVALID, "scatter: update computation %d is not one of add, set, "
                                        "max, min, multiply, subtract", (int)op);
    ss_status st = ss__k_gather_prepare(true, x, ind, upd, g, full_in, lo_in, full, lo, window);
    if (!st)
        st = ss__k_check_same_shape("scatter", "operand", x, "output", out);
    if (st)
        return st;
    int64_t nx = ss__k_numel(x);
    for (int64_t i = 0; i < nx; i++)
        ss__k_ew_store(x->dtype, out->data, i, ss__k_ew_load(x->dtype, x->data, i));
    for (int64_t i = 0; i < ss__k_numel(upd); i++) {
        int64_t ri[SS_MAX_RANK], oi[SS_MAX_RANK];
        bool oob;
        unflatten(upd->rank, upd->shape, i, ri);
        operand_index(ind, g, x->rank, full, window, upd->rank, ri, false, oi, &oob);
        int64_t at = oob ? -1 : local_at(x, lo, oi);
        if (at < 0)
            continue;
        ss__k_scalar a = ss__k_ew_load(x->dtype, out->data, at);
        ss__k_scalar b = ss__k_ew_load(x->dtype, upd->data, i);
        ss__k_ew_store(x->dtype, out->data, at, ss__k_scatter_combine(op, x->dtype, a, b));
    }
    return SS_OK;
}
