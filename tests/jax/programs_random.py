"""Random-number programs for make_fixtures.py: what jax.random computes
inside jax.jit (threefry2x32 on uint32, partitionable, in a while loop of
five rounds; normal through erf_inv), with sharded results, and a Flax NNX
model initialised under jit from nnx.Rngs as the NNX GSPMD guide does.
All on a 2x4 ('data', 'model') mesh of devices [[0,1,2,3],[4,5,6,7]]."""

import numpy as np
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

from program import Program, rand
from programs_models import GUIDE_DEPTH, mesh_2x4


def random_ops(devices):
    """jax.random.key from a seed argument, split and fold_in, then bits,
    normal, uniform, bernoulli and dropout, every result sharded
    ('data', 'model'): with jax_threefry_partitionable (JAX's default)
    each device computes its own tile of the random bits."""
    mesh = mesh_2x4(devices)
    tiled = NamedSharding(mesh, P("data", "model"))

    def f(seed, x):
        key = jax.random.key(seed)
        k1, k2, k3, k4 = jax.random.split(key, 4)
        k5 = jax.random.fold_in(k4, 7)
        bits = jax.random.bits(k1, (8, 16), jnp.uint32)
        normal = jax.random.normal(k2, (8, 16))
        uniform = jax.random.uniform(k3, (8, 16), minval=-2.0, maxval=3.0)
        coin = jax.random.bernoulli(k5, 0.3, (8, 16))
        keep = jax.random.bernoulli(jax.random.fold_in(k5, 1), 0.9, x.shape)
        dropout = jnp.where(keep, x / 0.9, 0.0)
        return bits, normal, uniform, coin, dropout

    rng = np.random.default_rng(16)
    args = (np.uint32(42), rand(rng, (8, 16)))
    return Program("random_ops", "jax.random: split, fold_in, bits, normal, uniform, bernoulli, "
                   "dropout; results tiled on ('data', 'model')",
                   mesh, f, args, (NamedSharding(mesh, P()), tiled), (tiled,) * 5,
                   source="jax.random (threefry2x32, jax_threefry_partitionable)")


def nnx_init(devices):
    """The Flax NNX GSPMD guide's sharded initialisation: DotReluDot built
    from nnx.Rngs(0) inside jit, its state constrained to the partition
    specs of its sharding metadata, out_shardings from
    nnx.get_named_sharding (the guide's create_sharded_model)."""
    from flax import nnx

    mesh = mesh_2x4(devices)

    class DotReluDot(nnx.Module):
        def __init__(self, depth, rngs):
            init_fn = nnx.initializers.lecun_normal()
            self.dot1 = nnx.Linear(depth, depth, kernel_init=nnx.with_partitioning(init_fn, (None, "model")),
                                   use_bias=False, rngs=rngs)
            self.w2 = nnx.Param(init_fn(rngs.params(), (depth, depth)), sharding=("model", None))

    def init():
        model = DotReluDot(GUIDE_DEPTH, rngs=nnx.Rngs(0))
        state = nnx.state(model)
        return jax.lax.with_sharding_constraint(state, nnx.get_partition_spec(state))

    with jax.set_mesh(mesh):
        abstract = jax.eval_shape(init)
        out_shardings = nnx.get_named_sharding(abstract, mesh)
    return Program("flax_nnx_init", f"Flax NNX GSPMD guide: DotReluDot initialised under jit from "
                   f"nnx.Rngs(0), sharded by its metadata (DEPTH {GUIDE_DEPTH})",
                   mesh, init, (), (), out_shardings, set_mesh=True,
                   source="Flax NNX guide 'Scale up on multiple devices' (flax.readthedocs.io, "
                          "nnx guides/flax_gspmd; google/flax pull request 4220)")


BUILDERS = [random_ops, nnx_init]
