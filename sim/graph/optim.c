/*
 * optim.c — optax's optimizers as builder calls: one optimizer step appended
 * to a program, from params, grads and the optimizer state to new params
 * and new state.
 *
 * The state is ordinary program inputs and outputs (optax's state pytree,
 * flattened). Every op of the update is elementwise with a param, so the
 * partitioner gives each state array its param's sharding and the update
 * needs no communication; ss_optim_state_inputs also gives each state input
 * its param's spec when the param has one, as Flax's get_sharding does for
 * a TrainState.
 *
 * The formulas are optax's, in its order of operations (constants rounded
 * to f32 as JAX's weak-typed Python scalars are for f32 arrays):
 *   sgd       u = -lr * g
 *   momentum  t' = g + m * t;  u = -lr * (nesterov ? g + m * t' : t')
 *             (optax.sgd(lr, momentum=m, nesterov): trace, then scale)
 *   adam      mu' = (1 - b1) * g + b1 * mu;  nu' = (1 - b2) * g^2 + b2 * nu;
 *             c = count + 1;  mu^ = mu' / (1 - b1^c);  nu^ = nu' / (1 - b2^c);
 *             u = -lr * (mu^ / (sqrt(nu^ + eps_root) + eps))
 *             (scale_by_adam: eps outside the square root, eps_root inside;
 *             bias correction with the incremented count)
 *   adamw     as adam, then u = -lr * (adam's direction + wd * p)
 *             (add_decayed_weights between scale_by_adam and the lr scale;
 *             no mask: every param decays)
 *   then      p' = p + u   (optax.apply_updates)
 * The count is an f32 scalar here (optax: int32), exact up to 2^24 steps.
 */
#include "graph.h"

#include <stdlib.h>
#include <string.h>

ss_optim ss_optim_sgd(double learning_rate)
{
    ss_optim o;
    memset(&o, 0, sizeof o);
    o.kind = SS_OPTIM_SGD;
    o.learning_rate = learning_rate;
    return o;
}

ss_optim ss_optim_momentum(double learning_rate, double momentum, int nesterov)
{
    ss_optim o = ss_optim_sgd(learning_rate);
    o.kind = SS_OPTIM_MOMENTUM;
    o.momentum = momentum;
    o.nesterov = nesterov;
    return o;
}

ss_optim ss_optim_adam(double learning_rate)
{
    ss_optim o = ss_optim_sgd(learning_rate);
    o.kind = SS_OPTIM_ADAM;
    o.b1 = 0.9;
    o.b2 = 0.999;
    o.eps = 1e-8;
    o.eps_root = 0.0;
    return o;
}

ss_optim ss_optim_adamw(double learning_rate, double weight_decay)
{
    ss_optim o = ss_optim_adam(learning_rate);
    o.kind = SS_OPTIM_ADAMW;
    o.weight_decay = weight_decay;
    return o;
}

/* Arrays per param, and whether a scalar count follows them. */
static int slots(const ss_optim *o, int *count)
{
    *count = o->kind == SS_OPTIM_ADAM || o->kind == SS_OPTIM_ADAMW;
    return o->kind == SS_OPTIM_MOMENTUM ? 1 : *count ? 2 : 0;
}

int ss_optim_state_count(const ss_optim *o, int nparams)
{
    int count;
    int k = slots(o, &count);
    return k * nparams + count;
}

static ss_status check_optim(const ss_program *p, const ss_optim *o, int n, const char *what)
{
    if (!o || (unsigned)o->kind > SS_OPTIM_ADAMW)
        return ss__fail(SS_ERR_INVALID, "%s: unknown optimizer", what);
    if (n < 0)
        return ss__fail(SS_ERR_INVALID, "%s: %d params", what, n);
    if (p->in_manual)
        return ss__fail(SS_ERR_UNSUPPORTED, "%s: inside a shard_map region", what);
    return SS_OK;
}

/* An input shaped (and, for a leaf with a spec, laid out) like `like`. */
static ss_status state_input(ss_program *p, ss_value like, const char *suffix, ss_value *out)
{
    const ss__node *l = ss__program_node(p, like, "optim_state_inputs");
    if (!l)
        return SS_ERR_INVALID;
    ss__node n;
    memset(&n, 0, sizeof n);
    n.op = SS__OP_INPUT;
    n.dtype = l->dtype;
    n.rank = l->rank;
    memcpy(n.shape, l->shape, sizeof n.shape);
    if (l->op == SS__OP_INPUT || l->op == SS__OP_PARAM)
        n.fixed = l->fixed;
    else
        ss__layout_unknown(&n.fixed, n.rank);
    snprintf(n.name, sizeof n.name, "%.40s%s", l->name[0] ? l->name : "param", suffix);
    return ss__program_add(p, &n, out);
}

ss_status ss_optim_state_inputs(ss_program *p, const ss_optim *o, int n, const ss_value params[],
                                ss_value state[])
{
    ss_status st = check_optim(p, o, n, "optim_state_inputs");
    if (st)
        return st;
    int n0 = p->n, count;
    uint8_t phase0 = ss__program_enter_phase(p, SS_PHASE_OPTIMIZER);
    int k = slots(o, &count);
    static const char *const names[2][2] = {{".trace", ""}, {".mu", ".nu"}};
    int row = o->kind == SS_OPTIM_MOMENTUM ? 0 : 1;
    for (int j = 0; j < k && !st; j++)
        for (int i = 0; i < n && !st; i++)
            st = state_input(p, params[i], names[row][j], &state[j * n + i]);
    if (!st && count) {
        int64_t none[1] = {0};
        ss_spec repl;
        memset(&repl, 0, sizeof repl);
        st = ss_input(p, "count", SS_F32, 0, none, &repl, &state[k * n]);
    }
    p->phase = phase0;
    if (st) {
        p->n = n0;
        free(p->layouts);
        p->layouts = NULL;
    }
    return st;
}

/* out = a * c1 + b * c2 (optax's moment update, (1 - decay) * g + decay * t). */
static ss_status lerp(ss_program *p, ss_value g, double cg, ss_value t, double ct, ss_value *out)
{
    ss_value a, b, k1, k2;
    ss_status st;
    if (!(st = ss_constant(p, cg, &k1)) && !(st = ss_binary(p, SS_MUL, k1, g, &a)) &&
        !(st = ss_constant(p, ct, &k2)) && !(st = ss_binary(p, SS_MUL, k2, t, &b)))
        st = ss_binary(p, SS_ADD, a, b, out);
    return st;
}

/* c * x */
static ss_status scale(ss_program *p, double c, ss_value x, ss_value *out)
{
    ss_value k;
    ss_status st = ss_constant(p, c, &k);
    return st ? st : ss_binary(p, SS_MUL, k, x, out);
}

/* 1 - decay^count, the bias correction of one moment. */
static ss_status bias(ss_program *p, double decay, ss_value count, ss_value *out)
{
    ss_value d, pw, one;
    ss_status st;
    if (!(st = ss_constant(p, decay, &d)) && !(st = ss_binary(p, SS_POW, d, count, &pw)) &&
        !(st = ss_constant(p, 1.0, &one)))
        st = ss_binary(p, SS_SUB, one, pw, out);
    return st;
}

static ss_status check_pair(const ss_program *p, ss_value a, ss_value b, const char *what,
                            int i)
{
    const ss__node *x = ss__program_node(p, a, what);
    const ss__node *y = x ? ss__program_node(p, b, what) : NULL;
    if (!x || !y)
        return SS_ERR_INVALID;
    bool same = x->rank == y->rank && x->dtype == y->dtype;
    for (int d = 0; same && d < x->rank; d++)
        same = x->shape[d] == y->shape[d];
    if (!same)
        return ss__fail(SS_ERR_INVALID, "%s: param %d (%%%d) and %%%d differ in shape or dtype",
                        what, i, (int)a, (int)b);
    return SS_OK;
}

static ss_status update(ss_program *p, const ss_optim *o, int n, const ss_value params[],
                        const ss_value grads[], const ss_value state[], ss_value new_params[],
                        ss_value new_state[])
{
    ss_status st = SS_OK;
    int count;
    int k = slots(o, &count);
    ss_value c1 = -1, bc1 = -1, bc2 = -1;
    if (count) {
        const ss__node *c = ss__program_node(p, state[k * n], "optim_update");
        if (!c)
            return SS_ERR_INVALID;
        if (c->rank != 0 || c->dtype != SS_F32)
            return ss__fail(SS_ERR_INVALID, "optim_update: the count (%%%d) must be an f32 "
                                            "scalar", (int)state[k * n]);
        ss_value one;
        if ((st = ss_constant(p, 1.0, &one)) || (st = ss_binary(p, SS_ADD, state[k * n], one, &c1)) ||
            (st = bias(p, o->b1, c1, &bc1)) || (st = bias(p, o->b2, c1, &bc2)))
            return st;
        new_state[k * n] = c1;
    }
    for (int i = 0; i < n && !st; i++) {
        ss_value g = grads[i], prm = params[i], u = -1, a, b;
        st = check_pair(p, prm, g, "optim_update", i);
        for (int j = 0; j < k && !st; j++)
            st = check_pair(p, prm, state[j * n + i], "optim_update", i);
        if (st)
            break;
        switch (o->kind) {
        case SS_OPTIM_SGD: u = g; break;
        case SS_OPTIM_MOMENTUM: {
            ss_value t = state[i], t1;
            if ((st = scale(p, o->momentum, t, &a)) || (st = ss_binary(p, SS_ADD, g, a, &t1)))
                break;
            new_state[i] = t1;
            u = t1;
            if (o->nesterov && !(st = scale(p, o->momentum, t1, &a)))
                st = ss_binary(p, SS_ADD, g, a, &u);
            break;
        }
        case SS_OPTIM_ADAM:
        case SS_OPTIM_ADAMW: {
            ss_value mu, nu, g2, mh, nh, den, c1x, c2x;
            /* optax divides by the bias correction cast to the moment's
             * dtype (bf16 moments of bf16 params) */
            ss_dtype mdt = p->nodes[prm].dtype;
            if ((st = lerp(p, g, 1.0 - o->b1, state[i], o->b1, &mu)) ||
                (st = ss_unary(p, SS_SQUARE, g, &g2)) ||
                (st = lerp(p, g2, 1.0 - o->b2, state[n + i], o->b2, &nu)) ||
                (st = ss_convert(p, bc1, mdt, &c1x)) || (st = ss_convert(p, bc2, mdt, &c2x)) ||
                (st = ss_binary(p, SS_DIV, mu, c1x, &mh)) ||
                (st = ss_binary(p, SS_DIV, nu, c2x, &nh)))
                break;
            new_state[i] = mu;
            new_state[n + i] = nu;
            den = nh;
            if (o->eps_root != 0.0 && (st = ss_constant(p, o->eps_root, &a)))
                break;
            if (o->eps_root != 0.0 && (st = ss_binary(p, SS_ADD, nh, a, &den)))
                break;
            if ((st = ss_unary(p, SS_SQRT, den, &den)) || (st = ss_constant(p, o->eps, &b)) ||
                (st = ss_binary(p, SS_ADD, den, b, &den)) ||
                (st = ss_binary(p, SS_DIV, mh, den, &u)))
                break;
            if (o->kind == SS_OPTIM_ADAMW &&
                (!(st = scale(p, o->weight_decay, prm, &a))))
                st = ss_binary(p, SS_ADD, u, a, &u);
            break;
        }
        }
        if (!st)
            st = scale(p, -o->learning_rate, u, &u);
        if (!st)
            st = ss_binary(p, SS_ADD, prm, u, &new_params[i]);
    }
    return st;
}

ss_status ss_optim_update(ss_program *p, const ss_optim *o, int n, const ss_value params[],
                          const ss_value grads[], const ss_value state[], ss_value new_params[],
                          ss_value new_state[])
{
    ss_status st = check_optim(p, o, n, "optim_update");
    if (st)
        return st;
    int n0 = p->n;
    uint8_t phase0 = ss__program_enter_phase(p, SS_PHASE_OPTIMIZER);
    st = update(p, o, n, params, grads, state, new_params, new_state);
    p->phase = phase0;
    if (st) {
        p->n = n0;
        free(p->layouts);
        p->layouts = NULL;
    }
    return st;
}
