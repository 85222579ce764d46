"""Scatter forms for make_fixtures.py beyond programs_gather.py's: x.at[i].subtract
(scatter_sub) sharded with its gradient; .apply (a region of the operand alone),
multiply, min, max, divide, power on f32 and int32. On a 2x4 ('data', 'model')
mesh of devices [[0,1,2,3],[4,5,6,7]]."""

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


def scatter_regions(devices):
    """Every .at[idx] update JAX lowers to a scatter region other than
    add, set and subtract, with repeated indices (idx [1, 6, 1]: row 1 is
    updated twice, so apply runs f twice there) on x 8x16 float32 and xi
    8x16 int32 tiled on ('data', 'model'), updates 3x16 on (None,
    'model'): apply of sin and of v * 3 + 1 (int32, wrapping), multiply
    (int32 products wrap), min, max, and divide and power (which JAX
    lowers to a multiply scatter of ones and the elementwise op)."""
    mesh = mesh_2x4(devices)
    rep = NamedSharding(mesh, P())
    tiled = NamedSharding(mesh, P("data", "model"))
    cols = NamedSharding(mesh, P(None, "model"))

    def f(x, xi, idx, u, ui):
        at, ati = x.at[idx], xi.at[idx]
        return (at.apply(jnp.sin), ati.apply(lambda v: v * 3 + 1), at.multiply(u),
                ati.multiply(ui), ati.min(ui), ati.max(ui), at.min(u), at.max(u),
                at.divide(u), jnp.abs(x).at[idx].power(u))

    rng = np.random.default_rng(19)
    big = np.iinfo(np.int32).max
    args = (rand(rng, (8, 16)), rng.integers(-big, big, (8, 16), dtype=np.int32),
            np.array([1, 6, 1], np.int32), rand(rng, (3, 16)),
            rng.integers(-50000, 50000, (3, 16), dtype=np.int32))
    return Program("scatter_regions", "x.at[idx].apply/multiply/min/max/divide/power with "
                   "repeated indices on float32 and int32, x tiled", mesh, f, args,
                   (tiled, tiled, rep, cols, cols), (tiled,) * 10,
                   source="jnp .at[].apply/multiply/min/max/divide/power (jax.lax.scatter_apply, "
                   "scatter_mul, scatter_min, scatter_max)")


BUILDERS = [scatter_sub, scatter_regions]
