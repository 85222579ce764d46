/*
 * fused.c — fused elementwise expressions: a chain of unary, binary and fma ops
 * evaluated block by block, so that intermediate values never touch memory
 * (what XLA's loop fusion does). The partitioner builds these from chains of
 * single-use elementwise ops (sim/spmd/fuse.c).
 *
 * Each block of SS__K_BLOCK elements is loaded (widening bf16/f16 to f32),
 * every step runs as a tight loop over the block, and the last step is
 * stored (rounding back to the output's dtype). Results equal the unfused
 * kernels bit for bit: the same f32 operations in the same order.
 */
#include "kernels_internal.h"

#include <math.h>
#include <string.h>

static ss_status check(const ss__k_fused *f, int nleaves, const ss__tensor leaves[],
                       const ss__tensor outs[])
{
    const ss__tensor *out = &outs[0];
    if (f->nops < 1 || f->nops > SS__K_FUSED_MAX_OPS || nleaves > SS__K_FUSED_MAX_LEAVES ||
        f->nextra < 0 || f->nextra > SS__K_FUSED_MAX_EXTRA)
        return ss__fail(SS_ERR_INVALID, "fused: %d steps, %d leaves, %d extra results", f->nops,
                        nleaves, f->nextra);
    for (int k = 0; k < f->nextra; k++)
        if (f->extra[k] >= f->nops || ss__k_numel(&outs[1 + k]) != ss__k_numel(out))
            return ss__fail(SS_ERR_INVALID, "fused: extra result %d is malformed", k);
    for (int i = 0; i < f->nops; i++) {
        const ss__k_fused_op *o = &f->ops[i];
        bool ok = o->kind == SS__K_FUSED_LEAF     ? o->sub < nleaves
                  : o->kind == SS__K_FUSED_UNARY  ? o->a < i && o->sub < SS__K_UNARY_COUNT
                  : o->kind == SS__K_FUSED_BINARY ? o->a < i && o->b < i &&
                                                        o->sub < SS__K_BINARY_COUNT
                  : o->kind == SS__K_FUSED_FMA ? o->a < i && o->b < i && o->c < i &&
                                                     o->sub < SS__K_FMA_FORM_COUNT
                                               : false;
        if (!ok)
            return ss__fail(SS_ERR_INVALID, "fused: step %d is malformed", i);
    }
    int64_t n = ss__k_numel(out);
    for (int k = 0; k < nleaves; k++) {
        int64_t m = ss__k_numel(&leaves[k]), r = f->repeat[k];
        bool ok = r > 0 ? m > 0 && n % (m * r) == 0 : leaves[k].rank == 0 || m == n;
        if (r < 0 || !ok)
            return ss__fail(SS_ERR_INVALID,
                            "fused: leaf %d has %lld elements (repeat %lld), the output %lld", k,
                            (long long)m, (long long)r, (long long)n);
    }
    return SS_OK;
}

/* r[0..c) = elements at..at+c of broadcast leaf t (repeat > 0: element i is
 * t[(i / repeat) % m]), as runs of one value or of consecutive ones. */
static void load_broadcast(const ss__tensor *t, int64_t repeat, int64_t at, int64_t c, float *r)
{
    int64_t m = ss__k_numel(t), q = (at / repeat) % m;
    if (repeat == 1) {
        for (int64_t j = 0; j < c;) {
            int64_t run = m - q < c - j ? m - q : c - j;
            ss__k_load_f32(t->dtype, t->data, q, run, r + j);
            j += run;
            q = 0;
        }
        return;
    }
    for (int64_t j = 0, left = repeat - at % repeat; j < c; left = repeat) {
        int64_t run = left < c - j ? left : c - j;
        float v;
        ss__k_load_f32(t->dtype, t->data, q, 1, &v);
        for (int64_t x = 0; x < run; x++)
            r[j + x] = v;
        j += run;
        q = q + 1 == m ? 0 : q + 1;
    }
}

/* Ask for the next block of every array leaf while this one is computed:
 * the steps run one after another, so without this a block's reads would
 * wait for memory in the leaf steps while the arithmetic steps leave it
 * idle (about 15% of an out-of-cache Adam update). */
static void prefetch_next(const ss__k_fused *f, int nleaves, const ss__tensor leaves[],
                          int64_t at, int64_t c)
{
    for (int k = 0; k < nleaves; k++) {
        if (leaves[k].rank == 0 || f->repeat[k] > 0)
            continue;
        size_t es = ss_dtype_size(leaves[k].dtype);
        const char *q = (const char *)leaves[k].data + (size_t)at * es;
        for (size_t b = 0; b < (size_t)c * es; b += 64)
            __builtin_prefetch(q + b, 0, 3);
    }
}

/* r = the fma `form` of a, b, c over n elements, each rounded once (the
 * value of the unfused fma kernel). A clone for CPUs with FMA turns fmaf
 * into the instruction, vectorised; the default one calls the C library. */
SS__K_FMA_CLONES /* not under sanitizers: kernels_internal.h */
static void fma_block(int form, const float *a, const float *b, const float *c, float *r,
                      int64_t n)
{
    for (int64_t j = 0; j < n; j++)
        r[j] = form == SS__K_FMA_ADD   ? fmaf(a[j], b[j], c[j])
               : form == SS__K_FMA_SUB ? fmaf(a[j], b[j], -c[j])
                                       : fmaf(-a[j], b[j], c[j]);
}

void ss__k_fma_f32(int form, const float *a, const float *b, const float *c, float *r, int64_t n)
{
    fma_block(form, a, b, c, r, n);
}

static ss_status run(const ss__k_fused *f, int nleaves, const ss__tensor leaves[],
                     ss__tensor outs[], bool compiled)
{
    ss__tensor *out = &outs[0];
    ss_status st = check(f, nleaves, leaves, outs);
    if (st)
        return st;
    int64_t n = ss__k_numel(out);
    static _Thread_local float regs[SS__K_FUSED_MAX_OPS][SS__K_BLOCK];
    float scalar[SS__K_FUSED_MAX_LEAVES];
    for (int k = 0; k < nleaves; k++)
        if (leaves[k].rank == 0 && !f->repeat[k])
            ss__k_load_f32(leaves[k].dtype, leaves[k].data, 0, 1, &scalar[k]);
    const float *rp[SS__K_FUSED_MAX_OPS];
    bool constant[SS__K_FUSED_MAX_OPS];
    bool out_f32 = out->dtype == SS_F32;
    /* Steps that depend on scalars only are the same in every block:
     * compute them once, into full-width registers, before the loop. */
    for (int s = 0; s < f->nops; s++) {
        const ss__k_fused_op *o = &f->ops[s];
        constant[s] = o->kind == SS__K_FUSED_LEAF  ? leaves[o->sub].rank == 0 && !f->repeat[o->sub]
                      : o->kind == SS__K_FUSED_UNARY ? constant[o->a]
                      : o->kind == SS__K_FUSED_FMA
                          ? constant[o->a] && constant[o->b] && constant[o->c]
                          : constant[o->a] && constant[o->b];
        if (!constant[s] || s == f->nops - 1)
            continue;
        float *r = regs[s];
        if (o->kind == SS__K_FUSED_LEAF)
            for (int j = 0; j < SS__K_BLOCK; j++)
                r[j] = scalar[o->sub];
        else if (o->kind == SS__K_FUSED_UNARY)
            ss__k_unary_block((ss__k_unary_op)o->sub, regs[o->a], r, SS__K_BLOCK);
        else if (o->kind == SS__K_FUSED_FMA)
            fma_block(o->sub, regs[o->a], regs[o->b], regs[o->c], r, SS__K_BLOCK);
        else
            ss__k_binary_block((ss__k_binary_op)o->sub, regs[o->a], regs[o->b], r, SS__K_BLOCK);
        rp[s] = r;
    }
    constant[f->nops - 1] = false; /* the result is always written */
    if (compiled) {
        float cval[SS__K_FUSED_MAX_OPS];
        for (int s = 0; s < f->nops; s++)
            cval[s] = constant[s] ? rp[s][0] : 0.0f;
        if (ss__k_fused_adam(f, leaves, outs, constant, cval))
            return SS_OK;
    }
    for (int64_t i = 0; i < n; i += SS__K_BLOCK) {
        int64_t c = n - i < SS__K_BLOCK ? n - i : SS__K_BLOCK;
        if (i + SS__K_BLOCK < n)
            prefetch_next(f, nleaves, leaves, i + SS__K_BLOCK,
                          n - i - SS__K_BLOCK < SS__K_BLOCK ? n - i - SS__K_BLOCK : SS__K_BLOCK);
        for (int s = 0; s < f->nops; s++) {
            if (constant[s])
                continue;
            const ss__k_fused_op *o = &f->ops[s];
            /* f32 leaves are read in place; the last step writes an f32
             * output in place; everything else lives in L1 registers. */
            float *r = (s == f->nops - 1 && out_f32) ? (float *)out->data + i : regs[s];
            switch (o->kind) {
            case SS__K_FUSED_LEAF: {
                const ss__tensor *t = &leaves[o->sub];
                if (f->repeat[o->sub] > 0) {
                    load_broadcast(t, f->repeat[o->sub], i, c, r);
                } else if (t->rank == 0) {
                    for (int64_t j = 0; j < c; j++)
                        r[j] = scalar[o->sub];
                } else if (t->dtype == SS_F32 && r != (float *)out->data + i) {
                    rp[s] = (const float *)t->data + i;
                    continue;
                } else {
                    ss__k_load_f32(t->dtype, t->data, i, c, r);
                }
                break;
            }
            case SS__K_FUSED_UNARY:
                ss__k_unary_block((ss__k_unary_op)o->sub, rp[o->a], r, c);
                break;
            case SS__K_FUSED_FMA:
                fma_block(o->sub, rp[o->a], rp[o->b], rp[o->c], r, c);
                break;
            default:
                ss__k_binary_block((ss__k_binary_op)o->sub, rp[o->a], rp[o->b], r, c);
                break;
            }
            rp[s] = r;
        }
        if (!out_f32)
            ss__k_store_f32(out->dtype, out->data, i, c, rp[f->nops - 1]);
        for (int k = 0; k < f->nextra; k++)
            ss__k_store_f32(outs[1 + k].dtype, outs[1 + k].data, i, c, rp[f->extra[k]]);
    }
    return SS_OK;
}

ss_status ss__k_fused_run(const ss__k_fused *f, int nleaves, const ss__tensor leaves[],
                          ss__tensor outs[])
{
    return run(f, nleaves, leaves, outs, true);
}

ss_status ss__k_fused_interpret(const ss__k_fused *f, int nleaves, const ss__tensor leaves[],
                                ss__tensor outs[])
{
    return run(f, nleaves, leaves, outs, false);
}

int64_t ss__k_flops_fused(const ss__k_fused *f, int64_t n)
{
    int64_t steps = 0;
    for (int i = 0; i < f->nops; i++)
        steps += f->ops[i].kind == SS__K_FUSED_FMA ? 2 : f->ops[i].kind != SS__K_FUSED_LEAF;
    return steps * n;
}
