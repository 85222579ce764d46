"""Scatter forms for make_fixtures.py beyond programs_gather.py's:
x.at[i].subtract (JAX's scatter_sub: a region subtracting the update
from the operand), sharded, with its gradient. On a 2x4 ('data',
'model') mesh of devices [[0,1,2,3],[4,5,6,7]]."""

import numpy as np
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

from program import Program, rand
from programs_models import mesh_2x4


def scatter_sub(devices):
    """x.at[idx].subtract(u) with repeated indices (x 8x16 on ('data',
    'model'), u 3x16 on (None, 'model')) and the gradient of
    sum(result ** 2) with respect to x and u."""
    mesh = mesh_2x4(devices)
    rep = NamedSharding(mesh, P())
    tiled = NamedSharding(mesh, P("data", "model"))
    cols = NamedSharding(mesh, P(None, "model"))

    def f(x, idx, u):
        def loss(x, u):
            y = x.at[idx].subtract(u)
            return jnp.sum(y * y), y
        (l, y), (gx, gu) = jax.value_and_grad(loss, argnums=(0, 1), has_aux=True)(x, u)
        return y, l, gx, gu

    rng = np.random.default_rng(18)
    args = (rand(rng, (8, 16)), np.array([1, 6, 1], np.int32), rand(rng, (3, 16)))
    return Program("scatter_sub", "x.at[idx].subtract(u) (scatter_sub) with repeated indices, "
                   "x tiled, and its gradient", mesh, f, args, (tiled, rep, cols),
                   (tiled, rep, tiled, cols), source="jnp .at[].subtract (jax.lax.scatter_sub)")


BUILDERS = [scatter_sub]
