"""Model programs for make_fixtures.py: the Flax Linen and NNX GSPMD guides'
train steps, a transformer block trained with optax.adamw, and a shard_map
program with every explicit collective.  All on a 2x4 ('data', 'model')
mesh of devices [[0,1,2,3],[4,5,6,7]].

The guides use DEPTH 1024; the fixtures use DEPTH 32 so that the checked-in
inputs and outputs stay small (the program text is the same apart from the
shapes).
"""

import functools
from typing import Callable

import numpy as np
import jax
import jax.numpy as jnp
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

from program import Program, rand

GUIDE_BATCH, GUIDE_LAYERS, GUIDE_DEPTH = 8, 4, 32  # the guides: 8, 4, 1024


def mesh_2x4(devices):
    return Mesh(np.array(devices[:8]).reshape(2, 4), ("data", "model"))


def linen_train_step(devices):
    """Flax's "Scale up Flax Modules on multiple devices" guide (Linen):
    DotReluDot x4 (no scan), optax.adam(0.001), a TrainState, a fake loss
    y.sum(), jit with in_shardings=(state_sharding, x_sharding) and
    out_shardings=state_sharding, x = ones((BATCH, DEPTH))."""
    from flax import linen as nn
    from flax.training import train_state
    import optax

    mesh = mesh_2x4(devices)

    def mesh_sharding(pspec):
        return NamedSharding(mesh, pspec)

    class DotReluDot(nn.Module):
        depth: int
        dense_init: Callable = nn.initializers.xavier_normal()

        @nn.compact
        def __call__(self, x):
            y = nn.Dense(self.depth, kernel_init=nn.with_partitioning(self.dense_init, (None, "model")),
                         use_bias=False)(x)
            y = jax.nn.relu(y)
            y = jax.lax.with_sharding_constraint(y, mesh_sharding(P("data", "model")))
            w2 = self.param("W2", nn.with_partitioning(self.dense_init, ("model", None)),
                            (self.depth, x.shape[-1]))
            z = jnp.dot(y, w2)
            z = jax.lax.with_sharding_constraint(z, mesh_sharding(P("data", None)))
            return z, None

    class MLP(nn.Module):
        num_layers: int
        depth: int

        @nn.compact
        def __call__(self, x):
            for _ in range(self.num_layers):
                x, _ = DotReluDot(self.depth)(x)
            return x

    x = jnp.ones((GUIDE_BATCH, GUIDE_DEPTH))
    k = jax.random.key(0)
    optimizer = optax.adam(learning_rate=0.001)
    model = MLP(GUIDE_LAYERS, GUIDE_DEPTH)

    def init_fn(k, x, model, optimizer):
        variables = model.init(k, x)
        return train_state.TrainState.create(apply_fn=model.apply, params=variables["params"], tx=optimizer)

    x_sharding = mesh_sharding(P("data", None))
    abstract = jax.eval_shape(functools.partial(init_fn, model=model, optimizer=optimizer), k, x)
    state_sharding = nn.get_sharding(abstract, mesh)
    jit_init_fn = jax.jit(init_fn, static_argnums=(2, 3), in_shardings=(mesh_sharding(P()), x_sharding),
                          out_shardings=state_sharding)
    state = jit_init_fn(k, x, model, optimizer)

    def train_step(state, x):
        def loss_unrolled(params):
            y = model.apply({"params": params}, x)
            return y.sum()
        grads = jax.grad(loss_unrolled)(state.params)
        return state.apply_gradients(grads=grads)

    return Program("flax_linen_train_step",
                   f"Flax Linen GSPMD guide: MLP of {GUIDE_LAYERS} DotReluDot, adam, loss y.sum(), one train step "
                   f"(DEPTH {GUIDE_DEPTH}, the guide's is 1024)",
                   mesh, train_step, (state, x), (state_sharding, x_sharding), state_sharding,
                   source="Flax guide 'Scale up Flax Modules on multiple devices' (flax.readthedocs.io, "
                          "guides/parallel_training/flax_on_pjit)")


def nnx_train_step(devices):
    """Flax's NNX GSPMD guide (docs_nnx/guides/flax_gspmd): DotReluDot with
    nnx.Linear (kernel (None, 'model')) and a raw nnx.Param w2
    (('model', None)), a with_sharding_constraint on y, an nnx.Optimizer
    with optax.adam(1e-3) and an MSE loss.  The guide jits with nnx.jit and
    lets the inputs carry the shardings; here the same step is nnx.split
    into a pure function of the state and jitted with explicit in/out
    shardings from nnx.get_named_sharding."""
    from flax import nnx
    import optax

    mesh = mesh_2x4(devices)

    class DotReluDot(nnx.Module):
        def __init__(self, depth, rngs):
            init_fn = nnx.initializers.lecun_normal()
            self.dot1 = nnx.Linear(depth, depth, kernel_init=nnx.with_partitioning(init_fn, (None, "model")),
                                   use_bias=False, rngs=rngs)
            self.w2 = nnx.Param(init_fn(rngs.params(), (depth, depth)), sharding=("model", None))

        def __call__(self, x):
            y = jax.nn.relu(self.dot1(x))
            y = jax.lax.with_sharding_constraint(y, P("data", "model"))
            return jnp.dot(y, self.w2.value)

    with jax.set_mesh(mesh):
        @nnx.jit
        def create_sharded_model():
            model = DotReluDot(GUIDE_DEPTH, rngs=nnx.Rngs(0))
            state = nnx.state(model)
            sharded = jax.lax.with_sharding_constraint(state, nnx.get_partition_spec(state))
            nnx.update(model, sharded)
            return model

        model = create_sharded_model()
        optimizer = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)
        graphdef, state = nnx.split((model, optimizer))
        state_sharding = nnx.get_named_sharding(state, mesh)

    def train_step(state, x, y):
        model, optimizer = nnx.merge(graphdef, state)

        def loss_fn(model):
            y_pred = model(x)
            return jnp.mean((y_pred - y) ** 2)

        loss, grads = nnx.value_and_grad(loss_fn)(model)
        optimizer.update(model, grads)
        return loss, nnx.state((model, optimizer))

    data_sharding = NamedSharding(mesh, P("data", None))
    x = jax.random.normal(jax.random.key(1), (GUIDE_BATCH, GUIDE_DEPTH))
    y = jax.random.normal(jax.random.key(2), (GUIDE_BATCH, GUIDE_DEPTH))
    return Program("flax_nnx_train_step",
                   f"Flax NNX GSPMD guide: DotReluDot, adam, MSE loss, one train step (DEPTH {GUIDE_DEPTH}, "
                   "the guide's is 1024)",
                   mesh, train_step, (state, x, y), (state_sharding, data_sharding, data_sharding),
                   (NamedSharding(mesh, P()), state_sharding), set_mesh=True,
                   source="Flax NNX guide 'Scale up on multiple devices' (flax.readthedocs.io, "
                          "nnx guides/flax_gspmd; google/flax pull request 4220)")


TB_B, TB_S, TB_D, TB_H, TB_F = 4, 8, 32, 4, 128


def transformer_block(devices):
    """A pre-layer-norm transformer block (attention with heads on 'model',
    an MLP Megatron-style), batch on 'data', trained one step with
    optax.adamw on an MSE loss."""
    import optax

    mesh = mesh_2x4(devices)
    dh = TB_D // TB_H

    def layer_norm(x, g, b):
        mu = jnp.mean(x, axis=-1, keepdims=True)
        var = jnp.mean(jnp.square(x - mu), axis=-1, keepdims=True)
        return (x - mu) * jax.lax.rsqrt(var + 1e-6) * g + b

    def block(p, x):
        h = layer_norm(x, p["ln1_g"], p["ln1_b"])
        q = jnp.einsum("bsD,Dhd->bshd", h, p["wq"])
        k = jnp.einsum("bsD,Dhd->bshd", h, p["wk"])
        v = jnp.einsum("bsD,Dhd->bshd", h, p["wv"])
        s = jnp.einsum("bqhd,bkhd->bhqk", q, k) / np.sqrt(np.float32(dh))
        causal = jnp.tril(jnp.ones((TB_S, TB_S), bool))
        s = jnp.where(causal, s, jnp.finfo(jnp.float32).min)
        o = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(s, axis=-1), v)
        x = x + jnp.einsum("bqhd,hdD->bqD", o, p["wo"])
        h = layer_norm(x, p["ln2_g"], p["ln2_b"])
        h = jax.nn.gelu(jnp.einsum("bsD,DF->bsF", h, p["w1"]) + p["b1"])
        return x + jnp.einsum("bsF,FD->bsD", h, p["w2"]) + p["b2"]

    rng = np.random.default_rng(20)
    params = {
        "ln1_g": np.ones(TB_D, np.float32), "ln1_b": np.zeros(TB_D, np.float32),
        "wq": rand(rng, (TB_D, TB_H, dh), TB_D ** -0.5), "wk": rand(rng, (TB_D, TB_H, dh), TB_D ** -0.5),
        "wv": rand(rng, (TB_D, TB_H, dh), TB_D ** -0.5), "wo": rand(rng, (TB_H, dh, TB_D), TB_D ** -0.5),
        "ln2_g": np.ones(TB_D, np.float32), "ln2_b": np.zeros(TB_D, np.float32),
        "w1": rand(rng, (TB_D, TB_F), TB_D ** -0.5), "b1": np.zeros(TB_F, np.float32),
        "w2": rand(rng, (TB_F, TB_D), TB_F ** -0.5), "b2": np.zeros(TB_D, np.float32),
    }
    specs = {"ln1_g": P(), "ln1_b": P(), "wq": P(None, "model", None), "wk": P(None, "model", None),
             "wv": P(None, "model", None), "wo": P("model", None, None), "ln2_g": P(), "ln2_b": P(),
             "w1": P(None, "model"), "b1": P("model"), "w2": P("model", None), "b2": P()}
    tx = optax.adamw(1e-3, weight_decay=0.01)
    opt_state = tx.init(params)
    psh = {k: NamedSharding(mesh, s) for k, s in specs.items()}
    rep = NamedSharding(mesh, P())
    opt_sh = jax.tree.map(lambda _: rep, opt_state)
    opt_sh = optax.tree_map_params(tx, lambda _, s: s, opt_sh, psh,
                                   transform_non_params=lambda _: rep)
    data = NamedSharding(mesh, P("data", None, None))

    def train_step(params, opt_state, x, target):
        def loss_fn(p):
            return jnp.mean(jnp.square(block(p, x) - target))
        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    args = (params, opt_state, rand(rng, (TB_B, TB_S, TB_D)), rand(rng, (TB_B, TB_S, TB_D)))
    return Program("transformer_block_adamw",
                   f"pre-LN causal transformer block (B{TB_B} S{TB_S} D{TB_D} H{TB_H} F{TB_F}), heads and MLP "
                   "on 'model', batch on 'data', one optax.adamw step on an MSE loss",
                   mesh, train_step, args, (psh, opt_sh, data, data), (psh, opt_sh, rep),
                   source="written for shardsim's fixtures")


def shard_map_collectives(devices):
    """Every explicit collective of jax.lax inside jax.shard_map."""
    mesh = mesh_2x4(devices)
    n = 4

    def body(x, y):
        # x: local [4, 8] of a [8, 32] on ('data', 'model'); y: local [4, 32] on ('data', None).
        total = jax.lax.psum(x, "model")
        gathered = jax.lax.all_gather(x, "model", axis=1, tiled=True)
        shifted = jax.lax.ppermute(x, "model", [(i, (i + 1) % n) for i in range(n)])
        scattered = jax.lax.psum_scatter(y, "data", scatter_dimension=1, tiled=True)
        swapped = jax.lax.all_to_all(x, "model", 0, 1, tiled=True)
        return total, gathered, shifted, scattered, swapped

    f = jax.shard_map(body, mesh=mesh, in_specs=(P("data", "model"), P("data", None)),
                      out_specs=(P("data", None), P("data", None), P("data", "model"),
                                 P(None, "data"), P(("data", "model"), None)),
                      check_vma=False)
    rng = np.random.default_rng(30)
    args = (rand(rng, (8, 32)), rand(rng, (8, 32)))
    s = lambda *spec: NamedSharding(mesh, P(*spec))
    return Program("shard_map_collectives",
                   "shard_map with psum and all_gather, ppermute and all_to_all over 'model', "
                   "psum_scatter over 'data'",
                   mesh, f, args, (s("data", "model"), s("data", None)),
                   (s("data", None), s("data", None), s("data", "model"), s(None, "data"),
                    s(("data", "model"), None)),
                   source="written for shardsim's fixtures")


BUILDERS = [linen_train_step, nnx_train_step, transformer_block, shard_map_collectives]
