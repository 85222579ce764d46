"""The train step of Flax's NNX guide "Scale up on multiple devices"
(flax_gspmd), planned and run by shardsim on a laptop.

    python examples/flax_nnx_guide.py

The guide's model: DotReluDot with an nnx.Linear kernel sharded
(None, 'model') by nnx.with_partitioning, a raw nnx.Param w2 on
('model', None), a sharding constraint on the activations, an
nnx.Optimizer with optax.adam and an MSE loss. JAX lowers the train step
once on 8 fake CPU devices, with the model's state passed in as arguments
(nnx.split), and the model's sharded initialisation (nnx.Rngs: JAX's
threefry bits, then lecun_normal's truncated normal) on its own. shardsim
runs the init on 8 virtual devices (the parameters JAX's own init gives),
shows the layouts, the memory and every collective of a step on the
guide's 2x4 mesh, runs the step on 8 virtual devices on the values JAX
initialised (equal to JAX's own step, see tests/python/test_examples.py),
and plans the same text on a 2x128 mesh of 256 devices.
"""
import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import optax  # noqa: E402
from flax import nnx  # noqa: E402
from jax.sharding import NamedSharding, PartitionSpec as P  # noqa: E402

import shardsim as ss  # noqa: E402

BATCH, DEPTH = 8, 1024  # the guide's sizes

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


class DotReluDot(nnx.Module):
    def __init__(self, depth, rngs):
        init_fn = nnx.initializers.lecun_normal()
        self.dot1 = nnx.Linear(depth, depth, use_bias=False, rngs=rngs,
                               kernel_init=nnx.with_partitioning(init_fn, (None, "model")))
        self.w2 = nnx.Param(init_fn(rngs.params(), (depth, depth)), sharding=("model", None))

    def __call__(self, x):
        y = jax.nn.relu(self.dot1(x))
        y = jax.lax.with_sharding_constraint(y, P("data", "model"))
        return jnp.dot(y, self.w2[...])


with jax.set_mesh(mesh):
    @nnx.jit
    def create_sharded_model():
        model = DotReluDot(DEPTH, rngs=nnx.Rngs(0))
        state = nnx.state(model)
        nnx.update(model, jax.lax.with_sharding_constraint(state, nnx.get_partition_spec(state)))
        return model

    model = create_sharded_model()
    optimizer = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)
    graphdef, state = nnx.split((model, optimizer))
    state_sharding = nnx.get_named_sharding(state, mesh)


def init_params():
    """The model's parameters as create_sharded_model makes them."""
    state = nnx.state(DotReluDot(DEPTH, rngs=nnx.Rngs(0)))
    return jax.lax.with_sharding_constraint(state, nnx.get_partition_spec(state))


with jax.set_mesh(mesh):
    params_sharding = nnx.get_named_sharding(nnx.eval_shape(init_params), mesh)
    init_program = ss.lower(init_params, out_shardings=params_sharding)


def train_step(state, x, y):
    model, optimizer = nnx.merge(graphdef, state)

    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss, nnx.state((model, optimizer))


data_sharding = NamedSharding(mesh, P("data", None))
x = jax.random.normal(jax.random.key(1), (BATCH, DEPTH))
y = jax.random.normal(jax.random.key(2), (BATCH, DEPTH))
in_shardings = (state_sharding, data_sharding, data_sharding)
out_shardings = (NamedSharding(mesh, P()), state_sharding)

with jax.set_mesh(mesh):
    program = ss.lower(train_step, state, x, y, in_shardings=in_shardings,
                       out_shardings=out_shardings, donate_argnums=(0,))

if __name__ == "__main__":
    init = init_program.run()
    want = jax.tree_util.tree_leaves(nnx.state(model))
    worst = max(float(abs(a - b).max()) for a, b in zip(jax.tree_util.tree_leaves(init.result),
                                                        want))
    print(f"init on 8 virtual devices: {len(want)} parameters, largest difference from "
          f"JAX's init {worst:.1e}")
    for info in program.inputs:
        if len(info["shape"]) == 2:
            print(info["name"], ss.NamedSharding(ss.make_mesh((2, 4), ("data", "model")),
                                                 ss.P(*info["spec"])).spec)
    w1 = ss.NamedSharding(ss.make_mesh((2, 4), ("data", "model")), ss.P(None, "model"))
    print(ss.visualize(w1, (8, 8)))
    plan = program.plan()
    print(plan)
    print(plan.ledger_table())
    run = program.run(state, x, y)
    loss, new_state = run.result
    print(f"one step on 8 virtual devices: loss {float(loss):.6f}, "
          f"{run.first_step_seconds * 1e3:.1f} ms")
    big = program.plan(mesh={"data": 2, "model": 128}, device_memory="16GiB")
    print(big)
    print(big.ledger_table())
