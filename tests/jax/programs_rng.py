"""rng_bit_generator programs for make_fixtures.py: lax.rng_bit_generator
with each algorithm (DEFAULT, which XLA's CPU backend runs as Philox;
THREE_FRY; PHILOX) and each bit width, chained through the returned
states, and jax.random with the 'rbg' and 'unsafe_rbg' key
implementations (normal init and dropout), with sharded results. XLA's
partitioner makes the bits whole on every device and dynamic-slices each
device's block (partition-id, no collective), so a sharded result holds
the same bits as an unsharded one. All on a 2x4 ('data', 'model') mesh of
devices [[0,1,2,3],[4,5,6,7]]."""

import numpy as np
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

from program import Program, rand
from programs_models import mesh_2x4

ALGORITHMS = (jax.lax.RandomAlgorithm.RNG_DEFAULT, jax.lax.RandomAlgorithm.RNG_THREE_FRY,
              jax.lax.RandomAlgorithm.RNG_PHILOX)


def rng_bits(devices):
    """For each algorithm, four calls chained through their states: u32
    (8, 16) tiled ('data', 'model'); u8 (3, 5) replicated (no even dim:
    ThreeFry splits the largest); u16 (5, 4) on ('model' on dim 1); u64
    (8, 4) tiled (64-bit types enabled for that call only); then the last
    state. And a scalar u32 from ThreeFry."""
    mesh = mesh_2x4(devices)
    rep = NamedSharding(mesh, P())
    tiled = NamedSharding(mesh, P("data", "model"))
    cols = NamedSharding(mesh, P(None, "model"))

    def f(key):
        out = []
        for alg in ALGORITHMS:
            s1, b32 = jax.lax.rng_bit_generator(key, (8, 16), jnp.uint32, algorithm=alg)
            s2, b8 = jax.lax.rng_bit_generator(s1, (3, 5), jnp.uint8, algorithm=alg)
            s3, b16 = jax.lax.rng_bit_generator(s2, (5, 4), jnp.uint16, algorithm=alg)
            with jax.enable_x64(True):
                s4, b64 = jax.lax.rng_bit_generator(s3, (8, 4), np.uint64, algorithm=alg)
            out += [b32, b8, b16, b64, s4]
        _, scalar = jax.lax.rng_bit_generator(key, (), jnp.uint32,
                                              algorithm=jax.lax.RandomAlgorithm.RNG_THREE_FRY)
        return tuple(out) + (scalar,)

    key = np.array([0x12345678, 0x9ABCDEF0, 0xFFFFFFFF, 7], np.uint32)
    outs = (tiled, rep, cols, tiled, rep) * 3 + (rep,)
    return Program("rng_bits", "lax.rng_bit_generator: DEFAULT, THREE_FRY, PHILOX; u32, u8, u16, "
                   "u64 chained through the states; results sharded on ('data', 'model')",
                   mesh, f, (key,), (rep,), outs,
                   source="jax.lax.rng_bit_generator (XLA's rng_bit_generator expander)")


def rbg_random(devices):
    """jax.random with keys of the 'rbg' and 'unsafe_rbg' implementations
    (jax.random.key(seed, impl=...)): split, a normal init, a uniform and
    dropout, the results tiled. No fold_in: rbg's runs threefry's jitted
    fold_in, whose cached trace keeps the source location of the first
    program that traced it (random_ops), so this fixture's compiled text
    would depend on which programs make_fixtures.py wrote before it."""
    mesh = mesh_2x4(devices)
    rep = NamedSharding(mesh, P())
    tiled = NamedSharding(mesh, P("data", "model"))
    cols = NamedSharding(mesh, P(None, "model"))

    def f(seed, x):
        key = jax.random.key(seed, impl="rbg")
        k1, k2, k3 = jax.random.split(key, 3)
        w = jax.random.normal(k1, (16, 8)) * 0.1
        u = jax.random.uniform(k2, (8, 16), minval=-1.0, maxval=1.0)
        keep = jax.random.bernoulli(k3, 0.9, x.shape)
        dropout = jnp.where(keep, x / 0.9, 0.0)
        ukey = jax.random.key(seed, impl="unsafe_rbg")
        u1, u2 = jax.random.split(ukey)
        wu = jax.random.normal(u1, (16, 8))
        keep_u = jax.random.bernoulli(u2, 0.5, x.shape)
        return w, u, dropout, wu, jnp.where(keep_u, x * 2.0, 0.0)

    rng = np.random.default_rng(17)
    args = (np.uint32(42), rand(rng, (8, 16)))
    return Program("rbg_random", "jax.random with 'rbg' and 'unsafe_rbg' keys: split, normal "
                   "init, uniform, dropout; results sharded",
                   mesh, f, args, (rep, tiled), (cols, tiled, tiled, cols, tiled),
                   source="jax.random (impl='rbg', 'unsafe_rbg': lax.rng_bit_generator)")


BUILDERS = [rng_bits, rbg_random]
