/*
 * scan.c — lax.scan unrolled at build time: the reference the counted loop
 * (region.c, which ss_scan builds) must equal, kept for tests.
 *
 * The body is a C callback that builds ops for one step. Unrolling keeps
 * the IR free of control flow: every step's ops are partitioned like any
 * other, which is what GSPMD does for a while loop whose body and carries
 * share one sharding. Stacked inputs are sliced along their leading axis
 * (a sharded leading axis is gathered first, as XLA gathers the operand of
 * a dynamic-slice on a sharded dim); per-step outputs are stacked back.
 */
#include "graph.h"

#include <stdlib.h>
#include <string.h>

#define SS__SCAN_MAX 32

/* x[i] with the leading axis dropped. */
static ss_status take(ss_program *p, ss_value x, int64_t i, ss_value *out)
{
    const ss__node *n = &p->nodes[x];
    int rank = n->rank;
    int64_t start[SS_MAX_RANK], limit[SS_MAX_RANK], shape[SS_MAX_RANK];
    for (int d = 0; d < rank; d++) {
        start[d] = d == 0 ? i : 0;
        limit[d] = d == 0 ? i + 1 : n->shape[d];
        if (d > 0)
            shape[d - 1] = n->shape[d];
    }
    ss_value s;
    ss_status st = ss_slice(p, x, start, limit, &s);
    return st ? st : ss_reshape(p, s, rank - 1, shape, out);
}

/* Stack n values of one shape along a new leading axis: each gets a
 * leading axis of 1, then concatenations of at most SS__MAX_INPUTS pieces,
 * level by level, until one value is left. */
static ss_status stack(ss_program *p, int64_t n, ss_value vs[], ss_value *out)
{
    const ss__node *a = &p->nodes[vs[0]];
    int64_t shape[SS_MAX_RANK];
    if (a->rank + 1 > SS_MAX_RANK)
        return ss__fail(SS_ERR_RANK, "scan: stacked outputs would have rank above %d",
                        SS_MAX_RANK);
    shape[0] = 1;
    memcpy(shape + 1, a->shape, sizeof(int64_t) * (size_t)a->rank);
    int rank = a->rank + 1;
    ss_status st = SS_OK;
    for (int64_t i = 0; i < n && !st; i++)
        st = ss_reshape(p, vs[i], rank, shape, &vs[i]);
    while (!st && n > 1) {
        int64_t m = 0;
        for (int64_t i = 0; i < n && !st; i += SS__MAX_INPUTS) {
            int64_t k = n - i < SS__MAX_INPUTS ? n - i : SS__MAX_INPUTS;
            if (k == 1)
                vs[m++] = vs[i];
            else
                st = ss_concatenate(p, (int)k, vs + i, 0, &vs[m++]);
        }
        n = m;
    }
    if (!st)
        *out = vs[0];
    return st;
}

ss_status ss__scan_length(const ss_program *p, int nxs, const ss_value xs[], int64_t length,
                          int64_t *out)
{
    for (int k = 0; k < nxs; k++) {
        const ss__node *x = ss__program_node(p, xs[k], "scan");
        if (!x)
            return SS_ERR_INVALID;
        if (x->rank < 1)
            return ss__fail(SS_ERR_INVALID, "scan: xs[%d] is a scalar; it needs a leading axis",
                            k);
        if (length < 0)
            length = x->shape[0];
        else if (x->shape[0] != length)
            return ss__fail(SS_ERR_INVALID, "scan: xs[%d] has leading size %lld but the scan "
                                            "length is %lld",
                            k, (long long)x->shape[0], (long long)length);
    }
    if (length < 1)
        return ss__fail(SS_ERR_INVALID, "scan: a length >= 1 is needed (no xs given)");
    *out = length;
    return SS_OK;
}

ss_status ss__scan_unrolled(ss_program *p, ss_scan_body body, void *user, int64_t length,
                            int ncarry, const ss_value init[], int nxs, const ss_value xs[],
                            int nys, ss_value final_carry[], ss_value ys[])
{
    if (ncarry < 0 || nxs < 0 || nys < 0 || ncarry > SS__SCAN_MAX || nxs > SS__SCAN_MAX ||
        nys > SS__SCAN_MAX)
        return ss__fail(SS_ERR_INVALID, "scan: at most %d carries, inputs and outputs",
                        SS__SCAN_MAX);
    ss_status st0 = ss__scan_length(p, nxs, xs, length, &length);
    if (st0)
        return st0;
    if (length > 4096)
        return ss__fail(SS_ERR_UNSUPPORTED, "scan: %lld steps; scans are unrolled and at most "
                                            "4096 steps are supported",
                        (long long)length);
    ss_value carry[SS__SCAN_MAX], next[SS__SCAN_MAX], x_i[SS__SCAN_MAX], y_i[SS__SCAN_MAX];
    if (ncarry) /* init may be NULL with no carries */
        memcpy(carry, init, sizeof(ss_value) * (size_t)ncarry);
    ss_value *per_step = NULL;
    if (nys) {
        per_step = calloc((size_t)(length * nys), sizeof(ss_value));
        if (!per_step)
            return ss__fail(SS_ERR_NOMEM, "scan: out of host memory");
    }
    ss_status st = SS_OK;
    for (int64_t i = 0; i < length && !st; i++) {
        for (int k = 0; k < nxs && !st; k++)
            st = take(p, xs[k], i, &x_i[k]);
        if (!st)
            st = body(p, carry, x_i, next, y_i, user);
        if (st)
            break;
        for (int k = 0; k < ncarry; k++) {
            const ss__node *a = ss__program_node(p, carry[k], "scan");
            const ss__node *b = ss__program_node(p, next[k], "scan");
            if (!a || !b) {
                st = SS_ERR_INVALID;
                break;
            }
            bool same = a->rank == b->rank && a->dtype == b->dtype;
            for (int d = 0; same && d < a->rank; d++)
                same = a->shape[d] == b->shape[d];
            if (!same) {
                st = ss__fail(SS_ERR_INVALID, "scan: step %lld changes the shape or dtype of "
                                              "carry %d",
                              (long long)i, k);
                break;
            }
            carry[k] = next[k];
        }
        for (int k = 0; k < nys && !st; k++)
            per_step[k * length + i] = y_i[k];
    }
    for (int k = 0; k < nys && !st; k++)
        st = stack(p, length, per_step + k * length, &ys[k]);
    free(per_step);
    if (!st && ncarry)
        memcpy(final_carry, carry, sizeof(ss_value) * (size_t)ncarry);
    return st;
}
