"""Sort, top_k and mixture-of-experts programs for make_fixtures.py.

`sort_topk`: jnp.sort, jnp.argsort, a two-key lax.sort, a descending sort
along the batch dim and lax.top_k, with their gradients, on an array
sharded on both dims of a 2x4 ('data', 'model') mesh (every sort runs
along a sharded dim). `moe_top2_train_step`: a dense (Switch/MaxText
dense-matmul style) mixture-of-experts layer with a softmax router, top-2
routing, one-hot dispatch and combine by einsum, four experts sharded on
an 'expert' mesh axis (mesh data=2, expert=4), an MSE loss plus the
load-balancing loss, and one SGD step."""

import numpy as np
import jax
import jax.numpy as jnp
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

from program import Program, rand
from programs_models import mesh_2x4


def sort_topk(devices):
    """Sorts along sharded dims: XLA gathers the sorted dim, the other
    dim stays sharded."""
    mesh = mesh_2x4(devices)

    def f(x, ids, w):
        def loss(x):
            return (jnp.sort(x, axis=-1) * w).sum() + (jax.lax.top_k(x, 3)[0] * w[:, :3]).sum()
        keys, vals = jax.lax.sort((ids, x), num_keys=2)
        top, top_idx = jax.lax.top_k(x, 3)
        return (jnp.sort(x, axis=-1), jnp.argsort(x, axis=-1), keys, vals,
                jnp.sort(x, axis=0, descending=True), top, top_idx, jax.grad(loss)(x))

    rng = np.random.default_rng(170)
    x = np.round(rand(rng, (8, 16)) * 2) / 2  # halves: many ties
    x[0, :4] = [-0.0, 0.0, -0.0, 0.0]         # signed zeros tie in a sort
    ids = rng.integers(0, 3, (8, 16)).astype(np.int32)
    w = rand(rng, (8, 16))
    both = NamedSharding(mesh, P("data", "model"))
    rows = NamedSharding(mesh, P("data", None))
    return Program("sort_topk", "jnp.sort, jnp.argsort, a two-key lax.sort, a descending "
                   "sort along dim 0 and lax.top_k(x, 3) with gradients, x sharded "
                   "('data', 'model')", mesh, f, (x, ids, w), (both, both, both),
                   (both, both, both, both, both, rows, rows, both),
                   source="jnp.sort / jnp.argsort / lax.sort / lax.top_k")


def cond_switch(devices):
    """lax.switch over three branches (a matmul, a scale, a row sum) and
    lax.cond with its gradient, x sharded ('data', 'model'), w on
    ('model', None): JAX lowers both to stablehlo.case."""
    mesh = mesh_2x4(devices)

    def f(i, x, w):
        def pick(x):
            return jax.lax.switch(i, [lambda x: jnp.tanh(x @ w), lambda x: x[:, :8] * 2.0,
                                      lambda x: jnp.broadcast_to(x.sum(1, keepdims=True),
                                                                 (8, 8))], x)

        def loss(x):
            return jax.lax.cond(i > 0, lambda x: jnp.sum(jnp.sin(x) * x),
                                lambda x: jnp.sum(x * x), x)
        return pick(x), pick(-x) * (i + 1), jax.value_and_grad(loss)(x)

    rng = np.random.default_rng(172)
    x, w = rand(rng, (8, 16)), rand(rng, (16, 8))
    both = NamedSharding(mesh, P("data", "model"))
    return Program("cond_switch", "lax.switch over three branches and lax.cond with its "
                   "gradient (stablehlo.case), index 1, x on ('data', 'model')", mesh, f,
                   (np.int32(1), x, w), (NamedSharding(mesh, P()), both,
                                         NamedSharding(mesh, P("model", None))),
                   (NamedSharding(mesh, P("data")), NamedSharding(mesh, P("data")),
                    (NamedSharding(mesh, P()), both)),
                   source="lax.switch / lax.cond (stablehlo.case)")


def pool_cumsum(devices):
    """Max pooling (2x2, stride 2) and average pooling (3x3, SAME) of an
    NHWC batch on 'data' with channels on 'model', their gradients
    (select_and_scatter, and a reduce_window of the padded cotangent), and
    jnp.cumsum along H and along a dim sharded on 'model'; all
    stablehlo.reduce_window on the CPU."""
    from flax import nnx

    mesh = mesh_2x4(devices)

    def f(x, y, w):
        def loss(x):
            return (jnp.sum(nnx.max_pool(x, (2, 2), strides=(2, 2)) * w)
                    + jnp.sum(nnx.avg_pool(x, (3, 3), strides=(1, 1), padding="SAME") ** 2))
        return (nnx.max_pool(x, (2, 2), strides=(2, 2)),
                nnx.avg_pool(x, (3, 3), strides=(1, 1), padding="SAME"),
                jnp.cumsum(x, axis=1), jnp.cumsum(y, axis=1), jax.grad(loss)(x))

    rng = np.random.default_rng(173)
    x, y, w = rand(rng, (4, 8, 8, 4)), rand(rng, (8, 16)), rand(rng, (4, 4, 4, 4))
    nhwc = NamedSharding(mesh, P("data", None, None, "model"))
    both = NamedSharding(mesh, P("data", "model"))
    return Program("pool_cumsum", "nnx.max_pool 2x2/2 and nnx.avg_pool 3x3 SAME with "
                   "gradients, jnp.cumsum along H and along a dim sharded on 'model'",
                   mesh, f, (x, y, w), (nhwc, both, nhwc), (nhwc, nhwc, nhwc, both, nhwc),
                   source="flax.nnx.max_pool / avg_pool, jnp.cumsum (reduce_window)")


E, D, H, B, S = 4, 16, 32, 8, 8


def mesh_data_expert(devices):
    return Mesh(np.array(devices[:8]).reshape(2, 4), ("data", "expert"))


def moe_top2_train_step(devices):
    """A dense top-2 MoE layer: the router's softmax, top_k(probs, 2)
    renormalised, one-hot dispatch and combine tensors, expert FFNs by
    einsum with the experts on 'expert' and tokens on 'data', an MSE loss
    plus the load-balancing loss, one SGD step."""
    mesh = mesh_data_expert(devices)

    def moe(params, x):
        logits = jnp.einsum("bsd,de->bse", x, params["router"])
        probs = jax.nn.softmax(logits, axis=-1)
        gate, idx = jax.lax.top_k(probs, 2)
        gate = gate / gate.sum(-1, keepdims=True)
        mask = jax.nn.one_hot(idx, E, dtype=x.dtype)              # b s k e
        combine = jnp.einsum("bsk,bske->bse", gate, mask)
        dispatch = mask.sum(2)                                    # b s e
        xin = jnp.einsum("bsd,bse->ebsd", x, dispatch)
        xin = jax.lax.with_sharding_constraint(xin, NamedSharding(mesh, P("expert", "data")))
        h = jax.nn.relu(jnp.einsum("ebsd,edh->ebsh", xin, params["w1"]))
        out = jnp.einsum("ebsh,ehd->ebsd", h, params["w2"])
        y = jnp.einsum("ebsd,bse->bsd", out, combine)
        aux = E * jnp.sum(probs.mean((0, 1)) * dispatch.mean((0, 1)) / 2)
        return y, aux, idx

    def step(params, x, target):
        def loss_fn(p):
            y, aux, idx = moe(p, x)
            return jnp.mean((y - target) ** 2) + 0.01 * aux, (aux, idx)
        (loss, (aux, idx)), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
        new = jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
        return loss, aux, idx, new

    rng = np.random.default_rng(171)
    params = {"router": rand(rng, (D, E)), "w1": rand(rng, (E, D, H), 0.25),
              "w2": rand(rng, (E, H, D), 0.25)}
    x, target = rand(rng, (B, S, D)), rand(rng, (B, S, D))
    experts = NamedSharding(mesh, P("expert"))
    p_sh = {"router": NamedSharding(mesh, P()), "w1": experts, "w2": experts}
    batch = NamedSharding(mesh, P("data"))
    repl = NamedSharding(mesh, P())
    return Program("moe_top2_train_step", "dense top-2 MoE layer (softmax router, top_k, "
                   "one-hot dispatch/combine einsums), experts on 'expert', tokens on 'data', "
                   "MSE + load-balancing loss, one SGD step", mesh, step, (params, x, target),
                   (p_sh, batch, batch), (repl, repl, batch, p_sh),
                   source="dense mixture-of-experts (top-2 routing)")


BUILDERS = [sort_topk, moe_top2_train_step, cond_switch, pool_cumsum]
