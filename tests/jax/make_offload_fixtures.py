#!/usr/bin/env python3
"""Write shardsim's host-offload fixtures: programs whose values JAX places
in host memory (memory kind 'pinned_host'), lowered and compiled by the
pinned JAX and XLA.

    XLA_FLAGS=--xla_force_host_platform_device_count=8 \\
        .venv/bin/python tests/jax/make_offload_fixtures.py [--out DIR]

Under DIR (tests/data/jax_offload by default), one directory per program
with the files of make_fixtures.py (lowered Shardy and GSPMD text, XLA's
compiled text, its collectives and memory analysis, inputs, outputs, meta):

  lm_offload      the language model of programs_lm.py (SMALL) with its
                  decoder layer under jax.checkpoint's policy
                  offload_dot_with_no_batch_dims('device', 'pinned_host'):
                  the matmul outputs without batch dimensions are saved in
                  host memory for the backward pass, the rest recomputed
  out_pinned_host x * 3 returned through jit's out_shardings whose memory
                  kind is 'pinned_host' (the result lives in host memory)
  put_host_back   jax.device_put of an intermediate to a 'pinned_host'
                  sharding and back to the device inside jit

Kept apart from make_fixtures.py on purpose: adding programs there moves
the line numbers its fixtures' locations record (programs_lm.py is not
edited either: the policy is registered here, under a name of its own, in
jax.checkpoint_policies for this process only).  Running it again writes
identical files.
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
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

import make_fixtures  # noqa: E402
import programs_lm  # noqa: E402
from program import Program, rand  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.normpath(os.path.join(HERE, "..", "data", "jax_offload"))
COMMAND = ("XLA_FLAGS=--xla_force_host_platform_device_count=8 "
           ".venv/bin/python tests/jax/make_offload_fixtures.py")

# programs_lm._model looks its policy up by name in jax.checkpoint_policies.
OFFLOAD_POLICY = "shardsim_offload_dots_to_pinned_host"


def lm_offload(devices):
    setattr(jax.checkpoint_policies, OFFLOAD_POLICY,
            jax.checkpoint_policies.offload_dot_with_no_batch_dims("device", "pinned_host"))
    programs_lm.REMAT["offload"] = OFFLOAD_POLICY
    return programs_lm._program(devices, programs_lm.SMALL, "offload", "lm_offload", True)


def mesh8(devices):
    return Mesh(np.array(devices[:8]), ("x",))


def out_pinned_host(devices):
    mesh = mesh8(devices)
    dev = NamedSharding(mesh, P("x"))

    def f(x):
        return x * 3

    args = (rand(np.random.default_rng(5), (16, 4)),)
    return Program("out_pinned_host", "x * 3 of f32[16,4] P('x'), returned in pinned_host memory "
                   "(out_shardings with memory_kind='pinned_host')", mesh, f, args, (dev,),
                   dev.with_memory_kind("pinned_host"), source="host offload")


def put_host_back(devices):
    mesh = mesh8(devices)
    dev = NamedSharding(mesh, P("x"))
    host = dev.with_memory_kind("pinned_host")

    def f(x):
        h = jax.device_put(jnp.sin(x), host)
        return jax.device_put(h, dev) * 2 + x

    args = (rand(np.random.default_rng(6), (16, 4)),)
    return Program("put_host_back", "sin(x) put in pinned_host memory and back to the device "
                   "inside jit, then * 2 + x", mesh, f, args, (dev,), dev, source="host offload")


BUILDERS = (lm_offload, out_pinned_host, put_host_back)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT, help="output root (default tests/data/jax_offload)")
    ap.add_argument("names", nargs="*", help="write only these programs (default: all)")
    opts = ap.parse_args(argv)
    if len(jax.devices()) < 8:
        print("make_offload_fixtures: need 8 devices (set XLA_FLAGS="
              "--xla_force_host_platform_device_count=8 before starting Python)", file=sys.stderr)
        return 2
    jax.config.update("jax_hlo_source_file_canonicalization_regex", make_fixtures.CANONICAL_PATHS)
    make_fixtures.COMMAND = COMMAND
    devices = sorted(jax.devices(), key=lambda dev: dev.id)
    os.makedirs(opts.out, exist_ok=True)
    for b in BUILDERS:
        if opts.names and b.__name__ not in opts.names:
            continue
        make_fixtures.make(b(devices), opts.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
