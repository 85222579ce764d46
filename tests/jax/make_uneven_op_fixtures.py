#!/usr/bin/env python3
"""Write shardsim's fixtures of ops through uneven layouts: what the pinned
JAX and XLA do when an op other than an elementwise one, a reduction or a
dot meets a value constrained to an uneven sharding.

    XLA_FLAGS=--xla_force_host_platform_device_count=8 \\
        .venv/bin/python tests/jax/make_uneven_op_fixtures.py [--out DIR]

One directory per program under DIR (tests/data/jax_uneven by default),
with the files make_fixtures.py writes. A script of its own so that
make_uneven_fixtures.py keeps its line numbers (its fixtures record them)
and each set is compiled by a fresh process (XLA's compiled text can depend
on what the process compiled before). Running it again writes identical
files.
"""

import argparse
import os
import sys

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
os.environ.setdefault("JAX_PLATFORMS", "cpu")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import make_fixtures  # noqa: E402
from make_uneven_fixtures import DEFAULT_OUT, mesh42, ns, wsc  # noqa: E402
from program import Program, rand  # noqa: E402

COMMAND = ("XLA_FLAGS=--xla_force_host_platform_device_count=8 "
           ".venv/bin/python tests/jax/make_uneven_op_fixtures.py")


# --- Programs ----------------------------------------------------------------


def u_transpose(devices):
    mesh = mesh42(devices)

    def f(x):
        return jnp.transpose(wsc(x * 2, ns(mesh, "x"))) + 1

    args = (rand(np.random.default_rng(7), (6, 3)),)
    return Program("u_transpose", "transpose of f32[6,3] constrained to P('x') (2,2,2,0)",
                   mesh, f, args, (ns(mesh),), ns(mesh), source="uneven shards")


def u_reshape(devices):
    mesh = mesh42(devices)

    def f(x):
        y = wsc(x * 2, ns(mesh, "x"))
        return jnp.reshape(y, (6, 2, 2)) + 1, jnp.reshape(y, (24,)) * 3

    args = (rand(np.random.default_rng(8), (6, 4)),)
    return Program("u_reshape", "f32[6,4] constrained to P('x') reshaped to [6,2,2] "
                   "(uneven dim kept) and to [24] (merged)", mesh, f, args, (ns(mesh),),
                   (ns(mesh), ns(mesh)), source="uneven shards")


def u_slice_concat_pad(devices):
    mesh = mesh42(devices)

    def f(x, b):
        y = wsc(x * 2, ns(mesh, "x"))
        s = y[1:5] + 1
        c = jnp.concatenate([y, b], axis=0) * 3
        p = jnp.pad(y, ((1, 2), (0, 1))) - 1
        return s, c, p

    rng = np.random.default_rng(9)
    args = (rand(rng, (6, 3)), rand(rng, (2, 3)))
    return Program("u_slice_concat_pad", "slice, concatenate and pad of f32[6,3] "
                   "constrained to P('x')", mesh, f, args, (ns(mesh), ns(mesh)),
                   (ns(mesh), ns(mesh), ns(mesh)), source="uneven shards")


def u_dynamic(devices):
    mesh = mesh42(devices)

    def f(x, u, i):
        y = wsc(x * 2, ns(mesh, "x"))
        a = jax.lax.dynamic_slice_in_dim(y, i, 2, axis=0) + 1
        b = jax.lax.dynamic_update_slice_in_dim(y, u, i, axis=0) * 3
        return a, b

    rng = np.random.default_rng(10)
    args = (rand(rng, (6, 3)), rand(rng, (2, 3)), np.int32(3))
    return Program("u_dynamic", "dynamic_slice and dynamic_update_slice along the uneven "
                   "dim of f32[6,3] constrained to P('x')", mesh, f, args,
                   (ns(mesh), ns(mesh), ns(mesh)), (ns(mesh), ns(mesh)), source="uneven shards")


def u_embed(devices):
    mesh = mesh42(devices)

    def loss(t, ids, w):
        t = wsc(t, ns(mesh, "x", None))
        return jnp.sum(jnp.tanh(t[ids]) * w)

    def f(t, ids, w):
        l, g = jax.value_and_grad(loss)(t, ids, w)
        return l, t - 0.1 * wsc(g, ns(mesh, "x", None))

    rng = np.random.default_rng(11)
    args = (rand(rng, (10, 4)), rng.integers(0, 10, (5,)).astype(np.int32), rand(rng, (5, 4)))
    return Program("u_embed", "embedding f32[10,4] (vocab 10 on x=4: 3,3,3,1) looked up "
                   "by 5 ids and trained one SGD step (gather, scatter-add gradient)", mesh, f,
                   args, (ns(mesh), ns(mesh), ns(mesh)), (ns(mesh), ns(mesh)),
                   source="uneven shards")


def u_while(devices):
    mesh = mesh42(devices)

    def f(x):
        def body(i, c):
            return wsc(jnp.tanh(c) * 2 + 1, ns(mesh, "x"))
        return jax.lax.fori_loop(0, 3, body, wsc(x, ns(mesh, "x")))

    args = (rand(np.random.default_rng(12), (6, 3)),)
    return Program("u_while", "fori_loop of 3 steps with a carry f32[6,3] constrained "
                   "to P('x')", mesh, f, args, (ns(mesh),), ns(mesh), source="uneven shards")


def u_mean(devices):
    mesh = mesh42(devices)

    def f(x):
        return jnp.mean(wsc(x * 2, ns(mesh, "x")), axis=0)

    args = (rand(np.random.default_rng(13), (6, 3)),)
    return Program("u_mean", "mean over the uneven dim of f32[6,3] constrained to P('x')",
                   mesh, f, args, (ns(mesh),), ns(mesh), source="uneven shards")


def u_case(devices):
    mesh = mesh42(devices)

    def f(x, p):
        y = wsc(x * 2, ns(mesh, "x"))
        z = jax.lax.cond(p > 0, lambda a: jnp.tanh(a), lambda a: a * 3, y)
        return jnp.sum(wsc(z, ns(mesh, "x")) + 1, axis=0), z

    args = (rand(np.random.default_rng(14), (6, 3)), np.float32(1.0))
    return Program("u_case", "lax.cond on f32[6,3] constrained to P('x'), its result "
                   "constrained alike, summed over the uneven dim and returned", mesh, f,
                   args, (ns(mesh), ns(mesh)), (ns(mesh), ns(mesh)), source="uneven shards")


BUILDERS = (u_transpose, u_reshape, u_slice_concat_pad, u_dynamic, u_embed, u_while, u_mean, u_case)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT, help="output root (default tests/data/jax_uneven)")
    opts = ap.parse_args(argv)
    if len(jax.devices()) < 8:
        print("make_uneven_op_fixtures: need 8 devices (set XLA_FLAGS="
              "--xla_force_host_platform_device_count=8 before starting Python)", file=sys.stderr)
        return 2
    jax.config.update("jax_hlo_source_file_canonicalization_regex", make_fixtures.CANONICAL_PATHS)
    make_fixtures.COMMAND = COMMAND
    devices = sorted(jax.devices(), key=lambda dev: dev.id)
    os.makedirs(opts.out, exist_ok=True)
    for b in BUILDERS:
        make_fixtures.make(b(devices), opts.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
