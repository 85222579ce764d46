/*
 * gather.c — StableHLO gather and scatter on local blocks: the checks of
 * their dimension numbers (shared with the graph builders), and the fast
 * kernels, which work out each window's start once and copy or combine
 * the window row by row. The naive references, one element at a time
 * straight from the spec's formulas, are in reference_gather.c.
 *
 * Both kernels may run on a block of a bigger operand (spmd/lower.c):
 * `full` gives the global size of each operand dim (start indices are
 * clamped, or windows checked, against it) and `lo` the global index of
 * the block's first element; an element outside the block is 0 in a
 * gather's result and left alone by a scatter. NULL for both: the operand
 * is the whole array.
 *
 * Not here: sorted-index fast paths (indices_are_sorted is a hint only).
 */
#include "elementwise_int.h"

#include <stdint.h>
#include <string.h>

static bool is_index_dtype(ss_dtype dt)
{
    ss__k_class c = ss__k_class_of(dt);
    return c == SS__K_CLASS_SIGNED || c == SS__K_CLASS_UNSIGNED;
}

/* A sorted list of distinct dims in [0, rank). */
static ss_status check_list(const char *op, const char *name, int n, const int dims[], int rank)
{
    if (n < 0 || n > SS_MAX_RANK)
        return ss__fail(SS_ERR_INVALID, "%s: %s has %d dims", op, name, n);
    for (int k = 0; k < n; k++) {
        if (dims[k] < 0 || dims[k] >= rank)
            return ss__fail(SS_ERR_INVALID, "%s: %s[%d] = %d is outside 0..%d", op, name, k,
                            dims[k], rank - 1);
        if (k > 0 && dims[k] <= dims[k - 1])
            return ss__fail(SS_ERR_INVALID, "%s: %s is not sorted and distinct", op, name);
    }
    return SS_OK;
}

static bool in_list(int n, const int dims[], int d)
{
    for (int k = 0; k < n; k++)
        if (dims[k] == d)
            return true;
    return false;
}

ss_status ss__k_gather_check(bool scatter, int orank, const int64_t oshape[], int irank,
                             const int64_t ishape[], ss_dtype idtype, const ss_gather_dims *g,
                             const int64_t window[], int *rrank, int64_t rshape[])
{
    const char *op = scatter ? "scatter" : "gather";
    if (!is_index_dtype(idtype))
        return ss__fail(SS_ERR_INVALID, "%s: indices are %s, not integers", op,
                        ss_dtype_name(idtype));
    ss_status st;
    int ivd = g->index_vector_dim;
    if (ivd < 0 || ivd > irank)
        return ss__fail(SS_ERR_INVALID, "%s: index_vector_dim %d is outside 0..%d", op, ivd,
                        irank);
    int64_t nvec = ivd < irank ? ishape[ivd] : 1;
    if (nvec != g->n_index_map)
        return ss__fail(SS_ERR_INVALID, "%s: index vectors have %lld components but %s lists "
                                        "%d dims", op, (long long)nvec,
                        scatter ? "scatter_dims_to_operand_dims" : "start_index_map",
                        g->n_index_map);
    int nbatch = irank - (ivd < irank ? 1 : 0);
    int rank = nbatch + g->n_offset;
    if (rank > SS_MAX_RANK)
        return ss__fail(SS_ERR_INVALID, "%s: result rank %d is above %d", op, rank, SS_MAX_RANK);
    if ((st = check_list(op, scatter ? "update_window_dims" : "offset_dims", g->n_offset,
                         g->offset_dims, rank)) ||
        (st = check_list(op, scatter ? "inserted_window_dims" : "collapsed_slice_dims",
                         g->n_collapsed, g->collapsed_slice_dims, orank)) ||
        (st = check_list(op, scatter ? "input_batching_dims" : "operand_batching_dims",
                         g->n_batching, g->operand_batching_dims, orank)))
        return st;
    if (g->n_offset + g->n_collapsed + g->n_batching != orank)
        return ss__fail(SS_ERR_INVALID, "%s: %d window, %d %s and %d batching dims for an "
                                        "operand of rank %d", op, g->n_offset, g->n_collapsed,
                        scatter ? "inserted" : "collapsed", g->n_batching, orank);
    for (int k = 0; k < g->n_index_map; k++) {
        int d = g->start_index_map[k];
        if (d < 0 || d >= orank || in_list(k, g->start_index_map, d) ||
            in_list(g->n_batching, g->operand_batching_dims, d))
            return ss__fail(SS_ERR_INVALID, "%s: %s[%d] = %d is out of range, repeated or a "
                                            "batching dim", op,
                            scatter ? "scatter_dims_to_operand_dims" : "start_index_map", k, d);
    }
    for (int k = 0; k < g->n_batching; k++) {
        int od = g->operand_batching_dims[k], id = g->start_indices_batching_dims[k];
        if (in_list(g->n_collapsed, g->collapsed_slice_dims, od) || id < 0 || id >= irank ||
            id == ivd || in_list(k, g->start_indices_batching_dims, id) ||
            ishape[id] != oshape[od])
            return ss__fail(SS_ERR_INVALID, "%s: batching dims %d (operand) and %d (indices) "
                                            "do not pair up", op, od, id);
    }
    /* Window sizes per operand dim: slice_sizes, or (scatter) the update's. */
    int w = 0, b = 0;
    for (int d = 0; d < orank; d++) {
        bool one = in_list(g->n_collapsed, g->collapsed_slice_dims, d) ||
                   in_list(g->n_batching, g->operand_batching_dims, d);
        int64_t size = window[d];
        if (size < 0 || size > oshape[d] || (one && size != 1))
            return ss__fail(SS_ERR_INVALID, "%s: window size %lld of operand dim %d is outside "
                                            "%s", op, (long long)size, d,
                            one ? "1 (collapsed or batching)" : "0..dim");
        if (!one)
            rshape[g->offset_dims[w++]] = size;
    }
    for (int r = 0, i = 0; r < rank; r++) {
        if (in_list(g->n_offset, g->offset_dims, r))
            continue;
        if (i == ivd)
            i++;
        rshape[r] = ishape[i++];
        b++;
    }
    (void)b;
    *rrank = rank;
    return SS_OK;
}

/* The operand window sizes of a scatter: 1 on inserted and batching dims,
 * the update's window dims on the rest, in order. */
void ss__k_scatter_window(int orank, int urank, const int64_t ushape[], const ss_gather_dims *g,
                          int64_t window[])
{
    int w = 0;
    for (int d = 0; d < orank; d++) {
        bool one = in_list(g->n_collapsed, g->collapsed_slice_dims, d) ||
                   in_list(g->n_batching, g->operand_batching_dims, d);
        int r = w < g->n_offset ? g->offset_dims[w] : -1;
        window[d] = one ? 1 : (r >= 0 && r < urank ? ushape[r] : -1);
        if (!one)
            w++;
    }
}

/* An index read as int64 (unsigned above INT64_MAX saturates). */
static int64_t read_index(const ss__tensor *t, int64_t i)
{
    ss__k_scalar s = ss__k_ew_load(t->dtype, t->data, i);
    if (ss__k_class_of(t->dtype) == SS__K_CLASS_UNSIGNED && s.u > (uint64_t)INT64_MAX)
        return INT64_MAX;
    return (int64_t)s.u;
}

/* The operand's global start of the window a batch position picks:
 * start[d] for every operand dim (clamped when `clamp`; a scatter's
 * `inside` says whether the whole window fits). bidx: the batch position,
 * the indices' dims without index_vector_dim. */
void ss__k_gather_start(const ss__tensor *ind, const ss_gather_dims *g, int orank,
                        const int64_t full[], const int64_t window[], const int64_t bidx[],
                        bool clamp, int64_t start[], bool *inside)
{
    int ivd = g->index_vector_dim;
    int64_t pos[SS_MAX_RANK];
    for (int i = 0, b = 0; i < ind->rank; i++)
        pos[i] = i == ivd ? 0 : bidx[b++];
    for (int d = 0; d < orank; d++)
        start[d] = 0;
    *inside = true;
    for (int k = 0; k < g->n_index_map; k++) {
        if (ivd < ind->rank)
            pos[ivd] = k;
        int64_t flat = 0;
        for (int i = 0; i < ind->rank; i++)
            flat = flat * ind->shape[i] + pos[i];
        int d = g->start_index_map[k];
        int64_t v = read_index(ind, flat), hi = full[d] - window[d];
        if (v < 0 || v > hi)
            *inside = false;
        start[d] = !clamp ? v : v < 0 ? 0 : v > hi ? hi : v;
    }
    for (int k = 0; k < g->n_batching; k++) {
        int id = g->start_indices_batching_dims[k];
        start[g->operand_batching_dims[k]] = bidx[id - (ivd < id ? 1 : 0)];
    }
}

ss_status ss__k_gather_prepare(bool scatter, const ss__tensor *operand, const ss__tensor *ind,
                               const ss__tensor *res, const ss_gather_dims *g,
                               const int64_t full_in[], const int64_t lo_in[], int64_t full[],
                               int64_t lo[], int64_t window[])
{
    const char *op = scatter ? "scatter" : "gather";
    ss_status st = ss__k_check(op, "operand", operand, NULL);
    if (!st)
        st = ss__k_check(op, "indices", ind, NULL);
    if (!st)
        st = ss__k_check(op, scatter ? "updates" : "output", res, NULL);
    if (st)
        return st;
    if (operand->dtype != res->dtype)
        return ss__fail(SS_ERR_INVALID, "%s: operand %s, %s %s", op,
                        ss_dtype_name(operand->dtype), scatter ? "updates" : "output",
                        ss_dtype_name(res->dtype));
    for (int d = 0; d < operand->rank; d++) {
        full[d] = full_in ? full_in[d] : operand->shape[d];
        lo[d] = lo_in ? lo_in[d] : 0;
    }
    if (scatter)
        ss__k_scatter_window(operand->rank, res->rank, res->shape, g, window);
    else
        memcpy(window, g->slice_sizes, sizeof(int64_t) * (size_t)operand->rank);
    int rrank;
    int64_t rshape[SS_MAX_RANK];
    if ((st = ss__k_gather_check(scatter, operand->rank, full, ind->rank, ind->shape, ind->dtype,
                                 g, window, &rrank, rshape)))
        return st;
    if (rrank != res->rank)
        return ss__fail(SS_ERR_INVALID, "%s: %s of rank %d, expected %d", op,
                        scatter ? "updates" : "output", res->rank, rrank);
    for (int r = 0; r < rrank; r++)
        if (rshape[r] != res->shape[r])
            return ss__fail(SS_ERR_INVALID, "%s: %s dim %d is %lld, expected %lld", op,
                            scatter ? "updates" : "output", r, (long long)res->shape[r],
                            (long long)rshape[r]);
    /* A padded block of an uneven shard may reach past full[d], or lie
     * wholly past it: starts are clamped below full[d] - window, so no
     * index reaches its padding. */
    for (int d = 0; d < operand->rank; d++)
        if (lo[d] < 0)
            return ss__fail(SS_ERR_INVALID, "%s: block of dim %d outside the operand", op, d);
    return SS_OK;
}

/* old (op) update in dtype dt. */
ss__k_scalar ss__k_scatter_combine(ss_scatter_op op, ss_dtype dt, ss__k_scalar old,
                                   ss__k_scalar upd)
{
    static const ss__k_binary_op bin[] = {[SS_SCATTER_ADD] = SS__K_ADD,
                                          [SS_SCATTER_MAX] = SS__K_MAX,
                                          [SS_SCATTER_MIN] = SS__K_MIN,
                                          [SS_SCATTER_MUL] = SS__K_MUL,
                                          [SS_SCATTER_SUB] = SS__K_SUB};
    if (op == SS_SCATTER_SET)
        return upd;
    if (dt == SS_BOOL) { /* add and max are or, mul and min are and */
        ss__k_scalar r;
        r.u = (op == SS_SCATTER_ADD || op == SS_SCATTER_MAX) ? (old.u | upd.u) : (old.u & upd.u);
        return r;
    }
    ss__k_scalar v[2] = {old, upd};
    return ss__k_ew_scalar(SS__K_EW_BINARY, (int)bin[op], dt, dt, v);
}

/* Split a row-major position into the batch and window parts of a result
 * (gather) or update (scatter) index. */
static void split_index(int rank, const int64_t shape[], const ss_gather_dims *g, int64_t i,
                        int64_t bidx[], int64_t widx[])
{
    int64_t idx[SS_MAX_RANK];
    for (int r = rank - 1; r >= 0; r--) {
        idx[r] = i % shape[r];
        i /= shape[r];
    }
    for (int r = 0, b = 0, w = 0; r < rank; r++) {
        if (w < g->n_offset && g->offset_dims[w] == r)
            widx[w++] = idx[r];
        else
            bidx[b++] = idx[r];
    }
}

/* The local operand offset of window position widx from global start
 * `start`, or -1 when that element lies outside the block. */
static int64_t operand_offset(const ss__tensor *x, const ss_gather_dims *g, const int64_t start[],
                              const int64_t lo[], const int64_t widx[])
{
    int64_t off = 0;
    for (int d = 0, w = 0; d < x->rank; d++) {
        bool one = in_list(g->n_collapsed, g->collapsed_slice_dims, d) ||
                   in_list(g->n_batching, g->operand_batching_dims, d);
        int64_t at = start[d] + (one ? 0 : widx[w++]) - lo[d];
        if (at < 0 || at >= x->shape[d])
            return -1;
        off = off * x->shape[d] + at;
    }
    return off;
}

/* The fast kernels walk the result (updates) row by row: a row is the
 * innermost dim; when that dim is the window dim of the operand's last
 * dim, the row is one contiguous run of the operand. */
static bool last_is_row(const ss__tensor *x, int rank, const ss_gather_dims *g)
{
    return x->rank > 0 && rank > 0 && g->n_offset > 0 &&
           g->offset_dims[g->n_offset - 1] == rank - 1 &&
           !in_list(g->n_collapsed, g->collapsed_slice_dims, x->rank - 1) &&
           !in_list(g->n_batching, g->operand_batching_dims, x->rank - 1);
}

ss_status ss__k_gather(const ss__tensor *x, const ss__tensor *ind, const ss_gather_dims *g,
                       const int64_t full_in[], const int64_t lo_in[], ss__tensor *out)
{
    int64_t full[SS_MAX_RANK], lo[SS_MAX_RANK], window[SS_MAX_RANK];
    ss_status st = ss__k_gather_prepare(false, x, ind, out, g, full_in, lo_in, full, lo, window);
    if (st)
        return st;
    size_t es = ss_dtype_size(x->dtype);
    int64_t n = ss__k_numel(out);
    int64_t row = last_is_row(x, out->rank, g) ? out->shape[out->rank - 1] : 1;
    if (n == 0 || row == 0)
        return SS_OK;
    int64_t bidx[SS_MAX_RANK], widx[SS_MAX_RANK], start[SS_MAX_RANK];
    unsigned char *o = out->data;
    const unsigned char *src = x->data;
    for (int64_t i = 0; i < n; i += row) {
        bool inside;
        split_index(out->rank, out->shape, g, i, bidx, widx);
        ss__k_gather_start(ind, g, x->rank, full, window, bidx, true, start, &inside);
        int64_t first = operand_offset(x, g, start, lo, widx);
        if (row > 1) {
            widx[g->n_offset - 1] += row - 1;
            int64_t last = operand_offset(x, g, start, lo, widx);
            if (first >= 0 && last == first + row - 1) {
                memcpy(o + (size_t)i * es, src + (size_t)first * es, (size_t)row * es);
                continue;
            }
            /* part of the row outside the block: element by element */
            for (int64_t k = 0; k < row; k++) {
                widx[g->n_offset - 1] = k;
                int64_t at = operand_offset(x, g, start, lo, widx);
                if (at < 0)
                    memset(o + (size_t)(i + k) * es, 0, es);
                else
                    memcpy(o + (size_t)(i + k) * es, src + (size_t)at * es, es);
            }
            continue;
        }
        if (first < 0)
            memset(o + (size_t)i * es, 0, es);
        else
            memcpy(o + (size_t)i * es, src + (size_t)first * es, es);
    }
    return SS_OK;
}

ss_status ss__k_scatter(const ss__tensor *x, const ss__tensor *ind, const ss__tensor *upd,
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
    size_t es = ss_dtype_size(x->dtype);
    memmove(out->data, x->data, (size_t)ss__k_numel(x) * es);
    int64_t n = ss__k_numel(upd);
    int64_t row = last_is_row(x, upd->rank, g) ? upd->shape[upd->rank - 1] : 1;
    if (n == 0 || row == 0)
        return SS_OK;
    int64_t bidx[SS_MAX_RANK], widx[SS_MAX_RANK], start[SS_MAX_RANK];
    for (int64_t i = 0; i < n; i += row) {
        bool inside;
        split_index(upd->rank, upd->shape, g, i, bidx, widx);
        ss__k_gather_start(ind, g, x->rank, full, window, bidx, false, start, &inside);
        if (!inside)
            continue; /* XLA skips a window not wholly inside the operand */
        int64_t first = operand_offset(x, g, start, lo, widx);
        bool run = false;
        if (row > 1) {
            widx[g->n_offset - 1] += row - 1;
            run = first >= 0 && operand_offset(x, g, start, lo, widx) == first + row - 1;
            widx[g->n_offset - 1] -= row - 1;
        }
        if (run && op == SS_SCATTER_SET) {
            memcpy((unsigned char *)out->data + (size_t)first * es,
                   (const unsigned char *)upd->data + (size_t)i * es, (size_t)row * es);
            continue;
        }
        for (int64_t k = 0; k < row; k++) {
            int64_t at;
            if (run) {
                at = first + k;
            } else {
                if (row > 1)
                    widx[g->n_offset - 1] = k;
                at = operand_offset(x, g, start, lo, widx);
            }
            if (at < 0)
                continue;
            ss__k_scalar a = ss__k_ew_load(x->dtype, out->data, at);
            ss__k_scalar b = ss__k_ew_load(x->dtype, upd->data, i + k);
            ss__k_ew_store(x->dtype, out->data, at, ss__k_scatter_combine(op, x->dtype, a, b));
        }
    }
    return SS_OK;
}
