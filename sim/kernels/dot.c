/*
 * dot.c — lax.dot_general on one shard through OpenBLAS.
 *
 * Any dot_general is a batch of B matrix products [M, K] x [K, N] once the
 * operands are viewed as lhs [batch, free, contract] and rhs [batch,
 * contract, free]. An operand already stored in that order (or with its two
 * matrix dims swapped, which sgemm's transpose flags absorb) is used in
 * place when it is f32; otherwise it is permuted and widened into f32
 * scratch. The output [batch, lhs free, rhs free] is exactly the row-major
 * [B, M, N] sgemm writes, so an f32 output needs no scratch.
 *
 * OpenBLAS runs single-threaded, loaded by the first dot that needs sgemm
 * (blas.c): devices are already one thread each, and 64 virtual devices on
 * 2 cores must not each start a thread pool. A single-threaded sgemm on the
 * same shapes is deterministic.
 *
 * Not here: integer dots, preferred_element_type other than f32 accumulation,
 * or splitting one product over threads.
 */
#include "blas.h"
#include "kernels_internal.h"

#include <limits.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>

/* How one dot_general maps onto batched sgemm. */
typedef struct dot_plan {
    int64_t b, m, n, k;
    int lperm[SS_MAX_RANK]; /* lhs dims in [batch, free, contract] order */
    int rperm[SS_MAX_RANK]; /* rhs dims in [batch, contract, free] order */
    bool lhs_direct, lhs_trans; /* use lhs->data; stored as [B, K, M] */
    bool rhs_direct, rhs_trans; /* use rhs->data; stored as [B, N, K] */
    bool out_direct;
    size_t lhs_bytes, rhs_bytes, out_bytes; /* scratch sections, 64-byte rounded */
} dot_plan;

/* Validate the dimension numbers; fill the output shape. */
static ss_status dot_shape(const ss__tensor *lhs, const ss__tensor *rhs, const ss__k_dot_dims *d,
                           int *rank, int64_t shape[SS_MAX_RANK])
{
    const char *op = "dot_general";
    ss_status st = ss__k_check_shape(op, "lhs", lhs, NULL);
    if (!st)
        st = ss__k_check_shape(op, "rhs", rhs, NULL);
    if (st)
        return st;
    if (!d)
        return ss__fail(SS_ERR_INVALID, "%s: dimension numbers are missing", op);
    if (d->nbatch < 0 || d->ncontract < 0 || d->nbatch + d->ncontract > SS_MAX_RANK)
        return ss__fail(SS_ERR_INVALID, "%s: %d batch and %d contracting dims", op, d->nbatch,
                        d->ncontract);
    const ss__tensor *t[2] = {lhs, rhs};
    const int *bat[2] = {d->lhs_batch, d->rhs_batch}, *con[2] = {d->lhs_contract, d->rhs_contract};
    const char *side[2] = {"lhs", "rhs"};
    for (int s = 0; s < 2; s++) {
        bool used[SS_MAX_RANK] = {false};
        for (int i = 0; i < d->nbatch + d->ncontract; i++) {
            bool is_batch = i < d->nbatch;
            int dim = is_batch ? bat[s][i] : con[s][i - d->nbatch];
            if (dim < 0 || dim >= t[s]->rank)
                return ss__fail(SS_ERR_INVALID, "%s: %s %s dim %d out of range for rank %d", op,
                                side[s], is_batch ? "batch" : "contracting", dim, t[s]->rank);
            if (used[dim])
                return ss__fail(SS_ERR_INVALID, "%s: %s dim %d used twice", op, side[s], dim);
            used[dim] = true;
        }
    }
    for (int i = 0; i < d->nbatch + d->ncontract; i++) {
        bool is_batch = i < d->nbatch;
        int dl = is_batch ? d->lhs_batch[i] : d->lhs_contract[i - d->nbatch];
        int dr = is_batch ? d->rhs_batch[i] : d->rhs_contract[i - d->nbatch];
        if (lhs->shape[dl] != rhs->shape[dr])
            return ss__fail(SS_ERR_INVALID,
                            "%s: lhs %s dim %d has size %lld but rhs dim %d has size %lld "
                            "(lhs %s, rhs %s)",
                            op, is_batch ? "batch" : "contracting", dl, (long long)lhs->shape[dl],
                            dr, (long long)rhs->shape[dr], ss__k_shape_text(lhs->rank, lhs->shape).s,
                            ss__k_shape_text(rhs->rank, rhs->shape).s);
    }
    int r = d->nbatch + (lhs->rank - d->nbatch - d->ncontract) +
            (rhs->rank - d->nbatch - d->ncontract);
    if (r > SS_MAX_RANK)
        return ss__fail(SS_ERR_INVALID, "%s: output rank %d exceeds %d", op, r, SS_MAX_RANK);
    int k = 0;
    for (int i = 0; i < d->nbatch; i++)
        shape[k++] = lhs->shape[d->lhs_batch[i]];
    for (int s = 0; s < 2; s++) {
        for (int dim = 0; dim < t[s]->rank; dim++) {
            bool special = false;
            for (int i = 0; i < d->nbatch; i++)
                special |= bat[s][i] == dim;
            for (int i = 0; i < d->ncontract; i++)
                special |= con[s][i] == dim;
            if (!special)
                shape[k++] = t[s]->shape[dim];
        }
    }
    *rank = r;
    return SS_OK;
}

ss_status ss__k_dot_general_shape(const ss__tensor *lhs, const ss__tensor *rhs,
                                  const ss__k_dot_dims *dims, int *rank,
                                  int64_t shape[SS_MAX_RANK])
{
    return dot_shape(lhs, rhs, dims, rank, shape);
}

ss_status ss__k_check_dot(const ss__tensor *lhs, const ss__tensor *rhs,
                          const ss__k_dot_dims *dims, const ss__tensor *out)
{
    const char *op = "dot_general";
    ss_status st = ss__k_check_float(op, "lhs", lhs, NULL);
    if (!st)
        st = ss__k_check_float(op, "rhs", rhs, NULL);
    if (!st)
        st = ss__k_check_float(op, "output", out, NULL);
    if (st)
        return st;
    ss__tensor want = {.dtype = out->dtype};
    st = dot_shape(lhs, rhs, dims, &want.rank, want.shape);
    if (!st)
        st = ss__k_check_same_shape(op, "result", &want, "output", out);
    return st;
}

/* Free dims of one operand in increasing order; returns how many. */
static int free_dims(int rank, int nb, const int bat[], int nc, const int con[], int out[])
{
    int n = 0;
    for (int dim = 0; dim < rank; dim++) {
        bool special = false;
        for (int i = 0; i < nb; i++)
            special |= bat[i] == dim;
        for (int i = 0; i < nc; i++)
            special |= con[i] == dim;
        if (!special)
            out[n++] = dim;
    }
    return n;
}

/* True if visiting t's dims in `order` walks its memory contiguously:
 * the non-unit dims appear in increasing order. */
static bool in_memory_order(const ss__tensor *t, const int order[])
{
    int last = -1;
    for (int i = 0; i < t->rank; i++) {
        if (t->shape[order[i]] == 1)
            continue;
        if (order[i] < last)
            return false;
        last = order[i];
    }
    return true;
}

static ss_status make_plan(const ss__tensor *lhs, const ss__tensor *rhs, const ss__k_dot_dims *d,
                           ss_dtype out_dtype, dot_plan *p)
{
    int lf[SS_MAX_RANK], rf[SS_MAX_RANK];
    int nlf = free_dims(lhs->rank, d->nbatch, d->lhs_batch, d->ncontract, d->lhs_contract, lf);
    int nrf = free_dims(rhs->rank, d->nbatch, d->rhs_batch, d->ncontract, d->rhs_contract, rf);
    p->b = p->m = p->n = p->k = 1;
    int a[SS_MAX_RANK], at[SS_MAX_RANK], r[SS_MAX_RANK], rt[SS_MAX_RANK]; /* orders */
    int ia = 0, ir = 0;
    for (int i = 0; i < d->nbatch; i++) {
        p->b *= lhs->shape[d->lhs_batch[i]];
        a[ia] = at[ia] = d->lhs_batch[i];
        r[ir] = rt[ir] = d->rhs_batch[i];
        ia++;
        ir++;
    }
    for (int i = 0; i < nlf; i++) {
        p->m *= lhs->shape[lf[i]];
        a[ia + i] = lf[i];
        at[ia + d->ncontract + i] = lf[i];
    }
    for (int i = 0; i < d->ncontract; i++) {
        p->k *= lhs->shape[d->lhs_contract[i]];
        a[ia + nlf + i] = d->lhs_contract[i];
        at[ia + i] = d->lhs_contract[i];
        r[ir + i] = d->rhs_contract[i];
        rt[ir + nrf + i] = d->rhs_contract[i];
    }
    for (int i = 0; i < nrf; i++) {
        p->n *= rhs->shape[rf[i]];
        r[ir + d->ncontract + i] = rf[i];
        rt[ir + i] = rf[i];
    }
    memcpy(p->lperm, a, sizeof a);
    memcpy(p->rperm, r, sizeof r);
    bool lf32 = lhs->dtype == SS_F32, rf32 = rhs->dtype == SS_F32;
    p->lhs_direct = lf32 && in_memory_order(lhs, a);
    p->lhs_trans = !p->lhs_direct && lf32 && in_memory_order(lhs, at);
    p->lhs_direct |= p->lhs_trans;
    p->rhs_direct = rf32 && in_memory_order(rhs, r);
    p->rhs_trans = !p->rhs_direct && rf32 && in_memory_order(rhs, rt);
    p->rhs_direct |= p->rhs_trans;
    p->out_direct = out_dtype == SS_F32;

    if (p->m > INT_MAX || p->n > INT_MAX || p->k > INT_MAX)
        return ss__fail(SS_ERR_RANGE, "dot_general: matrix sides M=%lld N=%lld K=%lld exceed "
                        "the BLAS int range", (long long)p->m, (long long)p->n, (long long)p->k);
    int64_t lw = ss__k_mul_sat(ss__k_mul_sat(p->b, p->m), p->k);
    int64_t rw = ss__k_mul_sat(ss__k_mul_sat(p->b, p->k), p->n);
    int64_t ow = ss__k_mul_sat(ss__k_mul_sat(p->b, p->m), p->n);
    int64_t lim = (int64_t)(SIZE_MAX / 4 / 4);
    if (lw > lim || rw > lim || ow > lim)
        return ss__fail(SS_ERR_RANGE, "dot_general: scratch for B=%lld M=%lld N=%lld K=%lld is "
                        "too large", (long long)p->b, (long long)p->m, (long long)p->n,
                        (long long)p->k);
    p->lhs_bytes = p->lhs_direct ? 0 : ss__align64((size_t)lw * sizeof(float));
    p->rhs_bytes = p->rhs_direct ? 0 : ss__align64((size_t)rw * sizeof(float));
    p->out_bytes = p->out_direct ? 0 : ss__align64((size_t)ow * sizeof(float));
    return SS_OK;
}

ss_status ss__k_dot_general_work_bytes(const ss__tensor *lhs, const ss__tensor *rhs,
                                       const ss__k_dot_dims *dims, ss_dtype out_dtype,
                                       size_t *bytes)
{
    int rank;
    int64_t shape[SS_MAX_RANK];
    ss_status st = dot_shape(lhs, rhs, dims, &rank, shape);
    if (st)
        return st;
    dot_plan p;
    st = make_plan(lhs, rhs, dims, out_dtype, &p);
    if (st)
        return st;
    *bytes = p.lhs_bytes + p.rhs_bytes + p.out_bytes;
    return SS_OK;
}

/* dst = t's elements visited in dim order `perm`, widened to f32. */
static void gather_perm(const ss__tensor *t, const int perm[], float *dst)
{
    int64_t ts[SS_MAX_RANK], shape[SS_MAX_RANK], st[2][SS_MAX_RANK];
    ss__k_strides(t->rank, t->shape, ts);
    for (int i = 0; i < t->rank; i++) {
        shape[i] = t->shape[perm[i]];
        st[1][i] = ts[perm[i]];
    }
    ss__k_strides(t->rank, shape, st[0]);
    int r = ss__k_coalesce(t->rank, shape, 2, st);
    int64_t inner = shape[r - 1], si = st[1][r - 1];
    int64_t idx[SS_MAX_RANK] = {0}, off[2] = {0, 0};
    do {
        float *d = dst + off[0];
        if (si == 1) {
            ss__k_load_f32(t->dtype, t->data, off[1], inner, d);
        } else if (t->dtype == SS_F32) {
            const float *s = (const float *)t->data + off[1];
            for (int64_t i = 0; i < inner; i++)
                d[i] = s[i * si];
        } else {
            for (int64_t i = 0; i < inner; i++)
                ss__k_load_f32(t->dtype, t->data, off[1] + i * si, 1, d + i);
        }
    } while (ss__k_step(r - 1, shape, idx, 2, st, off));
}

/* A few rows times a matrix (a batch of 8 tokens on one device, the
 * Flax guide's shapes): sgemm would pack the whole right-hand matrix on
 * every call, which costs as much as the product; this streams it once.
 * C[m x n] = A[m x k] . B[k x n], row-major, accumulating in f32 in a
 * fixed order (from 0, k ascending), so results are deterministic. Tiles
 * of MR rows by JB columns are accumulated in registers and stored once. */
enum { SMALL_M = 8, MR = 4, JB = 64 };

SS__K_VECTOR_CLONES
static void small_m_gemm(int64_t m, int64_t n, int64_t k, const float *a, const float *b,
                         float *c)
{
    for (int64_t i0 = 0; i0 < m; i0 += MR) {
        int64_t mr = m - i0 < MR ? m - i0 : MR;
        const float *ar = a + i0 * k;
        for (int64_t j0 = 0; j0 < n; j0 += JB) {
            if (mr == MR && n - j0 >= JB) {
                float acc[MR][JB];
                for (int i = 0; i < MR; i++)
                    for (int j = 0; j < JB; j++)
                        acc[i][j] = 0.0f;
                for (int64_t kk = 0; kk < k; kk++) {
                    const float *brow = b + kk * n + j0;
                    for (int i = 0; i < MR; i++) {
                        float s = ar[i * k + kk];
                        for (int j = 0; j < JB; j++)
                            acc[i][j] += s * brow[j];
                    }
                }
                for (int i = 0; i < MR; i++)
                    memcpy(c + (i0 + i) * n + j0, acc[i], sizeof acc[i]);
                continue;
            }
            if (n - j0 >= JB) {
                /* The last 1..MR-1 rows (all of them when m < MR: one
                 * device's 2 tokens on 8 data replicas): the same tile, row
                 * by row. Each row is a single row of the loop above, so
                 * the sums are the same (k ascending from 0). */
                for (int64_t i = 0; i < mr; i++) {
                    float acc[JB];
                    for (int j = 0; j < JB; j++)
                        acc[j] = 0.0f;
                    for (int64_t kk = 0; kk < k; kk++) {
                        const float *brow = b + kk * n + j0;
                        float s = ar[i * k + kk];
                        for (int j = 0; j < JB; j++)
                            acc[j] += s * brow[j];
                    }
                    memcpy(c + (i0 + i) * n + j0, acc, sizeof acc);
                }
                continue;
            }
            int64_t jn = n - j0 < JB ? n - j0 : JB;
            for (int64_t i = 0; i < mr; i++)
                for (int64_t j = 0; j < jn; j++) {
                    float s = 0.0f;
                    for (int64_t kk = 0; kk < k; kk++)
                        s += ar[i * k + kk] * b[kk * n + j0 + j];
                    c[(i0 + i) * n + j0 + j] = s;
                }
        }
    }
}

/* A few rows times a matrix stored transposed (the backward pass's
 * dx = dy . W^T on one device): C[m x n] = A[m x k] . B[n x k]^T, each
 * element a dot product of two contiguous rows, accumulated in 16 lanes
 * (k ascending within a lane) that are then added in lane order. B is
 * streamed once; sgemm would pack it first. */
enum { LANES = 16 };

SS__K_VECTOR_CLONES
static void small_m_gemm_nt(int64_t m, int64_t n, int64_t k, const float *a, const float *b,
                            float *c)
{
    int64_t kv = k - k % LANES;
    for (int64_t j = 0; j < n; j++) {
        const float *brow = b + j * k;
        for (int64_t i = 0; i < m; i++) {
            const float *arow = a + i * k;
            float acc[LANES] = {0};
            for (int64_t kk = 0; kk < kv; kk += LANES)
                for (int l = 0; l < LANES; l++)
                    acc[l] += arow[kk + l] * brow[kk + l];
            float s = 0.0f;
            for (int l = 0; l < LANES; l++)
                s += acc[l];
            for (int64_t kk = kv; kk < k; kk++)
                s += arow[kk] * brow[kk];
            c[i * n + j] = s;
        }
    }
}

/* A sum of a few outer products (a weight gradient x^T . dy over the
 * tokens of one device, attention's scores from a head dim of 16):
 * C[m x n] = A[k x m]^T . B[k x n] with small k. Each element is
 * a[0] * b[0], then + a[kk] * b[kk] for kk ascending, a product and a sum
 * each rounded (the order of small_k_gemm_tn_ref, which this equals bit for
 * bit). Tiles of 4 rows by 16 columns stay in registers over all of k
 * (GCC's and clang's vector types); the ragged edges take the reference
 * loop. sgemm would clear C, pack both operands and then accumulate. */
enum { SMALL_K = 16 };

typedef float dot_v8f __attribute__((vector_size(32)));

/* Products and sums rounded one by one in both loops: GCC does not
 * contract under -std=c11; clang would, by default, where FMA exists. */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

static void small_k_gemm_tn_ref(int64_t i0, int64_t i1, int64_t j0, int64_t j1, int64_t m,
                                int64_t n, int64_t k, const float *a, const float *b, float *c)
{
    for (int64_t i = i0; i < i1; i++) {
        float *crow = c + i * n;
        float s0 = a[i];
        for (int64_t j = j0; j < j1; j++)
            crow[j] = s0 * b[j];
        for (int64_t kk = 1; kk < k; kk++) {
            float s = a[kk * m + i];
            const float *brow = b + kk * n;
            for (int64_t j = j0; j < j1; j++)
                crow[j] += s * brow[j];
        }
    }
}

/* v = 8 floats from p (a macro: a function returning a 32-byte vector
 * has another ABI with AVX than without). */
#define DOT_LOAD8(v, p) memcpy(&(v), (p), sizeof(v))

SS__K_VECTOR_CLONES
static void small_k_gemm_tn(int64_t m, int64_t n, int64_t k, const float *a, const float *b,
                            float *c)
{
    int64_t m4 = m - m % 4, n16 = n - n % 16;
    for (int64_t i = 0; i < m4; i += 4)
        for (int64_t j = 0; j < n16; j += 16) {
            dot_v8f lo, hi;
            DOT_LOAD8(lo, b + j);
            DOT_LOAD8(hi, b + j + 8);
            dot_v8f c0l = a[i] * lo, c0h = a[i] * hi, c1l = a[i + 1] * lo, c1h = a[i + 1] * hi;
            dot_v8f c2l = a[i + 2] * lo, c2h = a[i + 2] * hi, c3l = a[i + 3] * lo,
                    c3h = a[i + 3] * hi;
            for (int64_t kk = 1; kk < k; kk++) {
                const float *ak = a + kk * m + i;
                DOT_LOAD8(lo, b + kk * n + j);
                DOT_LOAD8(hi, b + kk * n + j + 8);
                c0l += ak[0] * lo;
                c0h += ak[0] * hi;
                c1l += ak[1] * lo;
                c1h += ak[1] * hi;
                c2l += ak[2] * lo;
                c2h += ak[2] * hi;
                c3l += ak[3] * lo;
                c3h += ak[3] * hi;
            }
            memcpy(c + i * n + j, &c0l, sizeof c0l);
            memcpy(c + i * n + j + 8, &c0h, sizeof c0h);
            memcpy(c + (i + 1) * n + j, &c1l, sizeof c1l);
            memcpy(c + (i + 1) * n + j + 8, &c1h, sizeof c1h);
            memcpy(c + (i + 2) * n + j, &c2l, sizeof c2l);
            memcpy(c + (i + 2) * n + j + 8, &c2h, sizeof c2h);
            memcpy(c + (i + 3) * n + j, &c3l, sizeof c3l);
            memcpy(c + (i + 3) * n + j + 8, &c3h, sizeof c3h);
        }
    if (n16 < n)
        small_k_gemm_tn_ref(0, m4, n16, n, m, n, k, a, b, c);
    small_k_gemm_tn_ref(m4, m, 0, n, m, n, k, a, b, c);
}

/* For tests: the tiled small-k product and its reference loop on the same
 * operands (A [k x m], B [k x n], C [m x n], row-major). */
void ss__k_small_k_gemm_tn(int64_t m, int64_t n, int64_t k, const float *a, const float *b,
                           float *c, bool reference)
{
    if (reference)
        small_k_gemm_tn_ref(0, m, 0, n, m, n, k, a, b, c);
    else
        small_k_gemm_tn(m, n, k, a, b, c);
}

ss_status ss__k_dot_general(const ss__tensor *lhs, const ss__tensor *rhs,
                            const ss__k_dot_dims *dims, ss__tensor *out, void *work,
                            size_t work_bytes)
{
    ss_status st = ss__k_check_dot(lhs, rhs, dims, out);
    if (st)
        return st;
    dot_plan p;
    st = make_plan(lhs, rhs, dims, out->dtype, &p);
    if (st)
        return st;
    int64_t nout = p.b * p.m * p.n;
    if (nout == 0)
        return SS_OK;
    if (p.k == 0) {
        float zero[SS__K_BLOCK] = {0};
        for (int64_t i = 0; i < nout; i += SS__K_BLOCK)
            ss__k_store_f32(out->dtype, out->data, i, nout - i < SS__K_BLOCK ? nout - i
                                                                              : SS__K_BLOCK,
                            zero);
        return SS_OK;
    }

    size_t need = p.lhs_bytes + p.rhs_bytes + p.out_bytes;
    unsigned char *mem = work, *owned = NULL;
    if (need > 0 && !work) {
        owned = mem = malloc(need);
        if (!owned)
            return ss__fail(SS_ERR_NOMEM,
                            "dot_general: out of host memory for %zu bytes of scratch", need);
    } else if (need > 0 && (work_bytes < need || (uintptr_t)work % alignof(float) != 0)) {
        return ss__fail(SS_ERR_RANGE, "dot_general: work buffer of %zu bytes is too small or "
                        "misaligned (needs %zu, 4-byte aligned)", work_bytes, need);
    }
    const float *a = lhs->data, *b = rhs->data;
    float *c = out->data;
    if (!p.lhs_direct) {
        gather_perm(lhs, p.lperm, (float *)mem);
        a = (const float *)mem;
    }
    if (!p.rhs_direct) {
        gather_perm(rhs, p.rperm, (float *)(mem + p.lhs_bytes));
        b = (const float *)(mem + p.lhs_bytes);
    }
    if (!p.out_direct)
        c = (float *)(mem + p.lhs_bytes + p.rhs_bytes);

    if (!p.lhs_trans && !p.rhs_trans && p.m <= SMALL_M) {
        for (int64_t i = 0; i < p.b; i++)
            small_m_gemm(p.m, p.n, p.k, a + i * p.m * p.k, b + i * p.k * p.n, c + i * p.m * p.n);
        goto done;
    }
    if (!p.lhs_trans && p.rhs_trans && p.m <= SMALL_M) {
        for (int64_t i = 0; i < p.b; i++)
            small_m_gemm_nt(p.m, p.n, p.k, a + i * p.m * p.k, b + i * p.k * p.n,
                            c + i * p.m * p.n);
        goto done;
    }
    if (p.lhs_trans && !p.rhs_trans && p.k <= SMALL_K) {
        for (int64_t i = 0; i < p.b; i++)
            small_k_gemm_tn(p.m, p.n, p.k, a + i * p.m * p.k, b + i * p.k * p.n,
                            c + i * p.m * p.n);
        goto done;
    }
    ss__k_sgemm_fn sgemm;
    st = ss__k_blas_sgemm(&sgemm);
    if (st) {
        free(owned);
        return st;
    }
    blasint m = (blasint)p.m, n = (blasint)p.n, k = (blasint)p.k;
    for (int64_t i = 0; i < p.b; i++) {
        sgemm(CblasRowMajor, p.lhs_trans ? CblasTrans : CblasNoTrans,
              p.rhs_trans ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a + i * p.m * p.k,
              p.lhs_trans ? m : k, b + i * p.k * p.n, p.rhs_trans ? k : n, 0.0f,
              c + i * p.m * p.n, n);
    }
done:
    if (!p.out_direct)
        ss__k_store_f32(out->dtype, out->data, 0, nout, c);
    free(owned);
    return SS_OK;
}

ss_status ss__k_flops_dot_general(const ss__tensor *lhs, const ss__tensor *rhs,
                                  const ss__k_dot_dims *dims, int64_t *flops)
{
    int rank;
    int64_t shape[SS_MAX_RANK], k = 1, nout;
    ss_status st = dot_shape(lhs, rhs, dims, &rank, shape);
    if (st)
        return st;
    if (!ss__product(rank, shape, &nout))
        return ss__fail(SS_ERR_RANGE, "dot_general: output %s is too large",
                        ss__k_shape_text(rank, shape).s);
    for (int i = 0; i < dims->ncontract; i++)
        k = ss__k_mul_sat(k, lhs->shape[dims->lhs_contract[i]]);
    int64_t f = ss__k_mul_sat(ss__k_mul_sat(nout, k), 2);
    if (f == INT64_MAX)
        return ss__fail(SS_ERR_RANGE, "dot_general: FLOP count overflows int64");
    *flops = f;
    return SS_OK;
}
