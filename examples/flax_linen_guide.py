"""The train step of Flax's guide "Scale up Flax Modules on multiple
devices" (Linen), planned and run by shardsim on a laptop.

    python examples/flax_linen_guide.py

JAX lowers the guide's jitted train step once, on 8 fake CPU devices; shardsim
then shows the shard layouts' memory and every collective of a step on the
guide's 2x4 mesh, runs the step on 8 virtual devices, and plans the same text on
a 256-device mesh, where a larger model would be trained, without any of them.
"""
import functools
import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import optax  # noqa: E402
from flax import linen as nn  # noqa: E402
from flax.training import train_state  # noqa: E402
from jax.sharding import NamedSharding, PartitionSpec as P  # noqa: E402

import shardsim as ss  # noqa: E402

BATCH, LAYERS, DEPTH = 8, 4, 1024  # the guide's sizes

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


def mesh_sharding(pspec):
    return NamedSharding(mesh, pspec)


class DotReluDot(nn.Module):
    depth: int

    @nn.compact
    def __call__(self, x):
        init = nn.initializers.xavier_normal()
        y = nn.Dense(self.depth, kernel_init=nn.with_partitioning(init, (None, "model")),
                     use_bias=False)(x)
        y = jax.nn.relu(y)
        y = jax.lax.with_sharding_constraint(y, mesh_sharding(P("data", "model")))
        w2 = self.param("W2", nn.with_partitioning(init, ("model", None)),
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


def init_fn(k, x, model, optimizer):
    variables = model.init(k, x)
    return train_state.TrainState.create(apply_fn=model.apply, params=variables["params"],
                                         tx=optimizer)


def train_step(state, x):
    def loss_unrolled(params):
        y = model.apply({"params": params}, x)
        return y.sum()
    grads = jax.grad(loss_unrolled)(state.params)
    return state.apply_gradients(grads=grads)


model = MLP(LAYERS, DEPTH)
optimizer = optax.adam(learning_rate=0.001)
x = jax.ShapeDtypeStruct((BATCH, DEPTH), jnp.float32)
state = jax.eval_shape(functools.partial(init_fn, model=model, optimizer=optimizer),
                       jax.random.key(0), x)
state_sharding = nn.get_sharding(state, mesh)
x_sharding = mesh_sharding(P("data", None))

# What the guide's jax.jit(train_step, ...) compiles, as shardsim sees it.
program = ss.lower(train_step, state, x, in_shardings=(state_sharding, x_sharding),
                   out_shardings=state_sharding, donate_argnums=(0,))

if __name__ == "__main__":
    plan = program.plan()
    print(plan)
    print(plan.ledger_table())
    run = program.run()
    print(f"one step on 8 virtual devices: {run.first_step_seconds * 1e3:.1f} ms, "
          f"{len(run.outputs)} results")
    big = program.plan(mesh={"data": 2, "model": 128}, device_memory="16GiB")
    print(big)
