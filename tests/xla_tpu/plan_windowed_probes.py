#!/usr/bin/env python3
"""`shardsim plan --device tpu-v5e` of make_windowed.py's probes beside
XLA's peak for each (tests/data/xla_tpu/windowed.json): each probe compiled
there without compiler flags is lowered again here with JAX on CPU devices
(the same program, mesh shape and shardings; no libtpu needed) and
planned.  Prints one line per probe (XLA's peak, the plan's, their ratio,
which dots XLA windowed) and a summary: how many are within 10 % and the
median factor the plan is off by, over all and over those of 50 MiB or
more.  A measurement, not a test: the plan is not yet held to these.

    .venv/bin/python tests/xla_tpu/plan_windowed_probes.py build/shardsim [PROBE ...]

Needs the JAX stack of tests/jax/requirements.txt (the main .venv).
"""

import json
import math
import os
import statistics
import sys

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=256"
os.environ["JAX_PLATFORMS"] = "cpu"

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_windowed  # noqa: E402
import probes  # noqa: E402

DEVICES = {"v5e:2x4": 8, "v5e:4x4": 16, "v5e:8x8": 64, "v5e:16x16": 256}


def lowered_text(jax, jnp, P, c):
    """The StableHLO of probe c on the first chips' worth of CPU devices."""
    import numpy as np
    from jax.sharding import Mesh, NamedSharding
    n, t, data = DEVICES[c["topology"]], c["tensor"], c["data"]
    axes = {"data": data, "fsdp": n // t // data, "tensor": t} if data > 1 else {"fsdp": n // t, "tensor": t}
    mesh = Mesh(np.array(jax.devices()[:n]).reshape(tuple(axes.values())), tuple(axes))
    fn, args = make_windowed.program(jax, jnp, P, c)

    def leaf(a, f):  # an argument is (shape, dtype, spec) or a tuple of them
        return tuple(leaf(x, f) for x in a) if isinstance(a[0], tuple) and isinstance(a[0][0], tuple) else f(*a)
    abstract = [leaf(a, lambda s, d, sp: jax.ShapeDtypeStruct(s, d, sharding=NamedSharding(mesh, sp))) for a in args]
    outs = tuple(leaf(a, lambda s, d, sp: NamedSharding(mesh, sp)) for a in args)
    with jax.set_mesh(mesh):
        return jax.jit(fn, out_shardings=outs).lower(*abstract).as_text()


def main(argv):
    if len(argv) < 2:
        print("usage: plan_windowed_probes.py SHARDSIM [PROBE ...]", file=sys.stderr)
        return 2
    import jax
    import jax.numpy as jnp
    from jax.sharding import PartitionSpec as P
    with open(make_windowed.DEFAULT_OUT, encoding="utf-8") as f:
        record = {c["case"]: c for c in json.load(f)["cases"]}
    cases = make_windowed.case_list()
    names = argv[2:] or [n for n in cases if not cases[n]["options"]]
    rows = []
    for name in names:
        c, xla = cases[name], record[name]["memory"]["peak_bytes"]
        plan = probes.plan_peak(argv[1], lowered_text(jax, jnp, P, c), "tpu-v5e", DEVICES[c["topology"]])
        rows.append((xla, plan / xla))
        print(f"{name:24s} XLA {xla / 2**20:9.1f} MiB  plan {plan / 2**20:9.1f} MiB  ratio {plan / xla:7.3f}  "
              f"windowed {record[name]['windowed']}", flush=True)
    for what, sel in (("all", rows), ("of 50 MiB or more", [r for r in rows if r[0] >= 50 << 20])):
        if sel:
            within = sum(abs(r - 1) <= 0.10 for _, r in sel)
            off = math.exp(statistics.median(abs(math.log(r)) for _, r in sel))
            print(f"{what}: {within} of {len(sel)} within 10 % of XLA's peak; median factor off {off:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
