/*
 * fused_adam.c — a compiled loop for the one fused expression that
 * dominates a training step: optax's Adam (and AdamW) update of a param,
 * with its two moments as extra results (sim/graph/optim.c builds it,
 * sim/spmd/fuse.c fuses it into one expression).
 *
 * The block interpreter (fused.c) runs such an update one step at a time
 * over L1 blocks, so its loads from memory and its divisions never
 * overlap; this loop keeps every value of an element in registers, like
 * PyTorch's fused Adam. It is taken only when the expression is exactly
 * the update, operand order included, over f32 arrays, and it performs the
 * same f32 operations in the same order, so results are the interpreter's
 * bit for bit. Results may overwrite the leaves they replace (buffer
 * sharing): each element is read before it is written.
 *
 * The shape matched, with S a step that depends on scalars only:
 *   mu' = (S * g) + (S * mu)              nu' = (S * square(g)) + (S * nu)
 *   d   = nu' / S   [+ S]                 u   = (mu' / S) / (sqrt(d) + S)
 *   u   = u + (S * p)   (AdamW only)      p'  = p + (S * u)
 */
#include "kernels_internal.h"

#include <math.h>
#include <string.h>

typedef struct adam_match {
    int p, g, mu, nu;         /* array leaf numbers */
    int c1, b1, c2, b2;       /* scalar steps: (1 - b1), b1, (1 - b2), b2 */
    int bc1, bc2, eps, eps_root, wd, lr; /* eps_root, wd: -1 when absent */
    int mu_reg, nu_reg;       /* the moments' steps */
} adam_match;

typedef struct adam_args {
    const float *p, *g, *mu, *nu;
    float *p_out, *mu_out, *nu_out; /* mu_out, nu_out may be NULL */
    float c1, b1, c2, b2, bc1, bc2, eps, eps_root, wd, lr;
    bool has_eps_root, adamw;
} adam_args;

typedef struct matcher {
    const ss__k_fused *f;
    const ss__tensor *leaves;
    const bool *constant;
} matcher;

static bool binary(const matcher *m, int r, ss__k_binary_op op, int *a, int *b)
{
    const ss__k_fused_op *o = &m->f->ops[r];
    if (o->kind != SS__K_FUSED_BINARY || o->sub != op)
        return false;
    *a = o->a;
    *b = o->b;
    return true;
}

static bool unary(const matcher *m, int r, ss__k_unary_op op, int *a)
{
    const ss__k_fused_op *o = &m->f->ops[r];
    if (o->kind != SS__K_FUSED_UNARY || o->sub != op)
        return false;
    *a = o->a;
    return true;
}

/* Step r reads an f32 array leaf (not a broadcast one): its number. */
static bool array(const matcher *m, int r, int *leaf)
{
    const ss__k_fused_op *o = &m->f->ops[r];
    if (o->kind != SS__K_FUSED_LEAF || m->leaves[o->sub].rank == 0 ||
        m->leaves[o->sub].dtype != SS_F32 || m->f->repeat[o->sub])
        return false;
    *leaf = o->sub;
    return true;
}

/* r = (S * x) + (S * t), x = g or square(g), t a leaf. */
static bool moment(const matcher *m, int r, bool squared, int *cx, int *g, int *ct, int *t)
{
    int x, y, xs, ys, gx;
    if (!binary(m, r, SS__K_ADD, &x, &y) || !binary(m, x, SS__K_MUL, cx, &xs) ||
        !binary(m, y, SS__K_MUL, ct, &ys) || !m->constant[*cx] || !m->constant[*ct] ||
        !array(m, ys, t))
        return false;
    if (squared && !unary(m, xs, SS__K_SQUARE, &gx))
        return false;
    return array(m, squared ? gx : xs, g);
}

static bool match(const matcher *m, adam_match *a)
{
    const ss__k_fused *f = m->f;
    int root = f->nops - 1, pr, su, u, mh, den, sq, d, nh, x, y, dec, g2;
    a->eps_root = a->wd = -1;
    if (!binary(m, root, SS__K_ADD, &pr, &su) || !array(m, pr, &a->p) ||
        !binary(m, su, SS__K_MUL, &a->lr, &u) || !m->constant[a->lr])
        return false;
    if (binary(m, u, SS__K_ADD, &x, &y)) { /* AdamW: u = adam + (wd * p) */
        int pw;
        if (!binary(m, y, SS__K_MUL, &a->wd, &pw) || !m->constant[a->wd] || !array(m, pw, &dec) ||
            dec != a->p)
            return false;
        u = x;
    }
    if (!binary(m, u, SS__K_DIV, &mh, &den) || !binary(m, mh, SS__K_DIV, &a->mu_reg, &a->bc1) ||
        !m->constant[a->bc1] || !binary(m, den, SS__K_ADD, &sq, &a->eps) ||
        !m->constant[a->eps] || !unary(m, sq, SS__K_SQRT, &d))
        return false;
    if (binary(m, d, SS__K_ADD, &x, &y) && m->constant[y]) { /* + eps_root */
        a->eps_root = y;
        d = x;
    }
    if (!binary(m, d, SS__K_DIV, &nh, &a->bc2) || !m->constant[a->bc2])
        return false;
    a->nu_reg = nh;
    if (!moment(m, a->mu_reg, false, &a->c1, &a->g, &a->b1, &a->mu) ||
        !moment(m, a->nu_reg, true, &a->c2, &g2, &a->b2, &a->nu) || g2 != a->g)
        return false;
    /* Extra results: the moments, nothing else. */
    for (int k = 0; k < f->nextra; k++)
        if (f->extra[k] != a->mu_reg && f->extra[k] != a->nu_reg)
            return false;
    return true;
}

/* Elements per chunk: inputs are copied into locals first, so that results
 * may overwrite any input (no aliasing inside the arithmetic, which the
 * compiler then vectorises) and every read precedes the writes. */
enum { CH = 64 };

/* One chunk of c <= CH elements in locals: the f32 operations of the
 * update in the interpreter's order. */
static inline void adam_chunk(const adam_args *a, int64_t c, const float *g, float *p, float *mu,
                              float *nu)
{
    for (int64_t i = 0; i < c; i++) {
        mu[i] = (a->c1 * g[i]) + (a->b1 * mu[i]);
        nu[i] = (a->c2 * (g[i] * g[i])) + (a->b2 * nu[i]);
        float d = nu[i] / a->bc2;
        if (a->has_eps_root)
            d = d + a->eps_root;
        float u = (mu[i] / a->bc1) / (sqrtf(d) + a->eps);
        if (a->adamw)
            u = u + (a->wd * p[i]);
        p[i] = p[i] + (a->lr * u);
    }
}

SS__K_VECTOR_CLONES
static void adam_loop(const adam_args *args, int64_t n)
{
    const adam_args a = *args; /* in locals: stores cannot change it */
    for (int64_t i0 = 0; i0 < n; i0 += CH) {
        float g[CH], p[CH], mu[CH], nu[CH];
        if (n - i0 >= CH) { /* constant sizes: the copies are vector moves */
            memcpy(g, a.g + i0, sizeof g);
            memcpy(p, a.p + i0, sizeof p);
            memcpy(mu, a.mu + i0, sizeof mu);
            memcpy(nu, a.nu + i0, sizeof nu);
            adam_chunk(&a, CH, g, p, mu, nu);
            memcpy(a.p_out + i0, p, sizeof p);
            if (a.mu_out)
                memcpy(a.mu_out + i0, mu, sizeof mu);
            if (a.nu_out)
                memcpy(a.nu_out + i0, nu, sizeof nu);
            continue;
        }
        size_t bytes = sizeof(float) * (size_t)(n - i0);
        memcpy(g, a.g + i0, bytes);
        memcpy(p, a.p + i0, bytes);
        memcpy(mu, a.mu + i0, bytes);
        memcpy(nu, a.nu + i0, bytes);
        adam_chunk(&a, n - i0, g, p, mu, nu);
        memcpy(a.p_out + i0, p, bytes);
        if (a.mu_out)
            memcpy(a.mu_out + i0, mu, bytes);
        if (a.nu_out)
            memcpy(a.nu_out + i0, nu, bytes);
    }
}

bool ss__k_fused_adam(const ss__k_fused *f, const ss__tensor leaves[], ss__tensor outs[],
                      const bool constant[], const float cval[])
{
    matcher m = {f, leaves, constant};
    adam_match a;
    if (outs[0].dtype != SS_F32 || !match(&m, &a))
        return false;
    adam_args x = {
        .p = leaves[a.p].data, .g = leaves[a.g].data, .mu = leaves[a.mu].data,
        .nu = leaves[a.nu].data, .p_out = outs[0].data,
        .c1 = cval[a.c1], .b1 = cval[a.b1], .c2 = cval[a.c2], .b2 = cval[a.b2],
        .bc1 = cval[a.bc1], .bc2 = cval[a.bc2], .eps = cval[a.eps], .lr = cval[a.lr],
        .eps_root = a.eps_root >= 0 ? cval[a.eps_root] : 0.0f,
        .wd = a.wd >= 0 ? cval[a.wd] : 0.0f,
        .has_eps_root = a.eps_root >= 0, .adamw = a.wd >= 0,
    };
    for (int k = 0; k < f->nextra; k++) {
        if (outs[1 + k].dtype != SS_F32)
            return false;
        if (f->extra[k] == a.mu_reg)
            x.mu_out = outs[1 + k].data;
        else
            x.nu_out = outs[1 + k].data;
    }
    adam_loop(&x, ss__k_numel(&outs[0]));
    return true;
}
