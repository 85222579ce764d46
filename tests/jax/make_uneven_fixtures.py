#!/usr/bin/env python3
"""Write shardsim's uneven-shard fixtures: what the pinned JAX and XLA do
with shardings whose dimension does not divide by its mesh axes.

    XLA_FLAGS=--xla_force_host_platform_device_count=8 \\
        .venv/bin/python tests/jax/make_uneven_fixtures.py [--out DIR]

Under DIR (tests/data/jax_uneven by default):

  refusals.json   where JAX refuses an uneven sharding, the exception class
                  and its exact message, per API (Sharding.shard_shape,
                  devices_indices_map, jax.device_put, jax.jit in_shardings
                  and out_shardings, jax.debug.visualize_sharding)
  PROGRAM/        one directory per small jitted program whose inputs and
                  outputs are evenly sharded (replicated) and which forces an
                  intermediate into an uneven layout with
                  jax.lax.with_sharding_constraint; the files are those of
                  make_fixtures.py (lowered Shardy and GSPMD text, XLA's
                  compiled text and its collectives, inputs, outputs, meta)

Kept apart from make_fixtures.py on purpose: adding programs there moves
the line numbers its fixtures' locations record.  Running it again writes
identical files.
"""

import argparse
import json
import os
import sys

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
os.environ.setdefault("JAX_PLATFORMS", "cpu")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

import make_fixtures  # noqa: E402
from program import Program, rand  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.normpath(os.path.join(HERE, "..", "data", "jax_uneven"))
COMMAND = ("XLA_FLAGS=--xla_force_host_platform_device_count=8 "
           ".venv/bin/python tests/jax/make_uneven_fixtures.py")

wsc = jax.lax.with_sharding_constraint


def mesh42(devices):
    return Mesh(np.array(devices[:8]).reshape(4, 2), ("x", "y"))


def ns(mesh, *spec):
    return NamedSharding(mesh, P(*spec))


# --- Refusals ----------------------------------------------------------------

# (shape, spec) pairs on the 4x2 ('x', 'y') mesh; each one uneven.
REFUSED = (
    ((6, 3), ("x",)),
    ((8, 3), ("x", "y")),
    ((5,), (("x", "y"),)),
    ((4, 6), (None, "x")),
)


def attempt(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the class is recorded
        return {"class": type(e).__name__, "message": str(e)}
    return {"class": None, "message": None}


def refusals(devices):
    mesh = mesh42(devices)
    out = []
    for shape, spec in REFUSED:
        s = NamedSharding(mesh, P(*spec))
        x = np.zeros(shape, np.float32)
        out.append({
            "mesh": {"axis_names": ["x", "y"], "shape": [4, 2]},
            "shape": list(shape),
            "spec": [list(a) if isinstance(a, tuple) else a for a in spec],
            "sharding": repr(s),
            "hlo_sharding": str(s._to_xla_hlo_sharding(len(shape))),
            "shard_shape": attempt(lambda: s.shard_shape(shape)),
            "devices_indices_map": attempt(lambda: s.devices_indices_map(shape)),
            "device_put": attempt(lambda: jax.device_put(x, s)),
            "jit_in_shardings": attempt(lambda: jax.jit(lambda a: a + 1, in_shardings=s)(x)),
            "jit_out_shardings": attempt(lambda: jax.jit(lambda a: a + 1, out_shardings=s)(x)),
            "visualize_sharding": attempt(lambda: jax.debug.visualize_sharding(shape, s)),
        })
    return out


# --- Programs ----------------------------------------------------------------


def u_elementwise(devices):
    mesh = mesh42(devices)

    def f(x):
        return wsc(x * 2 + 1, ns(mesh, "x")) * 3

    args = (rand(np.random.default_rng(1), (6, 3)),)
    return Program("u_elementwise", "f32[6,3] constrained to P('x') (rows 2,2,2,0), "
                   "elementwise, returned", mesh, f, args, (ns(mesh),), ns(mesh),
                   source="uneven shards")


def u_sum(devices):
    mesh = mesh42(devices)

    def f(x):
        return jnp.sum(jnp.exp(wsc(x * 2, ns(mesh, "x"))), axis=0)

    args = (rand(np.random.default_rng(2), (6, 3)),)
    return Program("u_sum", "sum over rows of exp of f32[6,3] constrained to P('x'): "
                   "the padding is masked with 0", mesh, f, args, (ns(mesh),), ns(mesh),
                   source="uneven shards")


def u_max(devices):
    mesh = mesh42(devices)

    def f(x):
        return jnp.max(wsc(-(x * x) - 1, ns(mesh, None, ("x", "y"))), axis=1)

    args = (rand(np.random.default_rng(3), (3, 5)),)
    return Program("u_max", "max over columns of -(x*x) - 1 (all below any padding "
                   "of 0 or -1) constrained to P(None, ('x', 'y')) (1,1,1,1,1,0,0,0): "
                   "the padding is masked with -inf", mesh, f, args, (ns(mesh),), ns(mesh),
                   source="uneven shards")


def u_dot_contract(devices):
    mesh = mesh42(devices)

    def f(a, b):
        return wsc(jnp.exp(a), ns(mesh, None, "x")) @ wsc(b + 1, ns(mesh, "x", None))

    rng = np.random.default_rng(4)
    args = (rand(rng, (4, 7)), rand(rng, (7, 5)))
    return Program("u_dot_contract", "f32[4,7] @ f32[7,5] with the contracting dim "
                   "constrained to 'x' on both sides (2,2,2,1): padding masked with 0",
                   mesh, f, args, (ns(mesh), ns(mesh)), ns(mesh), source="uneven shards")


def u_dot_free(devices):
    mesh = mesh42(devices)

    def f(a, b):
        return jnp.tanh(wsc(a, ns(mesh, "x")) @ b)

    rng = np.random.default_rng(5)
    args = (rand(rng, (6, 3)), rand(rng, (3, 5)))
    return Program("u_dot_free", "tanh(f32[6,3] constrained to P('x') @ f32[3,5]): "
                   "an uneven free dim", mesh, f, args, (ns(mesh), ns(mesh)), ns(mesh),
                   source="uneven shards")


def u_reshard(devices):
    mesh = mesh42(devices)

    def f(x):
        return jnp.sum(wsc(wsc(x * 2, ns(mesh, "x")) + 1, ns(mesh, None, "y")) * 3, axis=1)

    args = (rand(np.random.default_rng(6), (7, 4)),)
    return Program("u_reshard", "f32[7,4] from P('x') (2,2,2,1) to P(None, 'y'), "
                   "then a row sum", mesh, f, args, (ns(mesh),), ns(mesh),
                   source="uneven shards")


BUILDERS = (u_elementwise, u_sum, u_max, u_dot_contract, u_dot_free, u_reshard)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT, help="output root (default tests/data/jax_uneven)")
    opts = ap.parse_args(argv)
    if len(jax.devices()) < 8:
        print("make_uneven_fixtures: need 8 devices (set XLA_FLAGS="
              "--xla_force_host_platform_device_count=8 before starting Python)", file=sys.stderr)
        return 2
    jax.config.update("jax_hlo_source_file_canonicalization_regex", make_fixtures.CANONICAL_PATHS)
    make_fixtures.COMMAND = COMMAND
    devices = sorted(jax.devices(), key=lambda dev: dev.id)
    os.makedirs(opts.out, exist_ok=True)
    make_fixtures.write(os.path.join(opts.out, "refusals.json"),
                        json.dumps({"versions": make_fixtures.versions(), "command": COMMAND,
                                    "cases": refusals(devices)}, indent=1, sort_keys=True) + "\n")
    for b in BUILDERS:
        make_fixtures.make(b(devices), opts.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
