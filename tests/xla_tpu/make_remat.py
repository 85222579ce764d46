#!/usr/bin/env python3
"""What XLA's TPU compiler rematerialises under its memory limit, and the
limit: writes tests/data/xla_tpu/remat.json, the reference of
tests/xla_tpu/test_remat.py.

    tests/xla_tpu/.venv/bin/python tests/xla_tpu/make_remat.py \\
        [--dump PROGRAM@TOPOLOGY=DIR ...] [--out FILE]

budget: a probe, f(x, w) = exp(x @ w) @ w.T with x of ROWS rows per chip
(replicated w 4 MiB), compiled ahead of time for one chip of each slice
with libtpu's HloRematerialization log on (--vmodule=hlo_rematerialization=1,
in a child process: libtpu reads it when it starts); its log's "memory
limit" (the limit less the outputs) plus the program's arguments and
outputs (its memory analysis) is the budget of sim/spmd/profiles.c's
*_REMAT_BUDGET, the same for every size if it is a per-chip figure.

dumps: per fit-sweep record compiled with XLA_FLAGS=--xla_dump_to=DIR
(make_records.py --only PROGRAM@TOPOLOGY), the instructions of its
optimized HLO (*jit_train_step*after_optimizations.txt) that the pass
added (named *.remat) with their shapes and operands: what the plan's
model (sim/spmd/xla_remat.c) must recompute.  Without --dump the file's
recorded dumps are kept.

Needs jax[tpu] (tests/xla_tpu/requirements.txt); sets JAX_PLATFORMS=cpu and
TPU_SKIP_MDS_QUERY=1 itself.  Run under `flock /tmp/libtpu.lock` on a
shared machine.
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.normpath(os.path.join(HERE, "..", "data", "xla_tpu", "remat.json"))
PROBES = [("v5e:2x4", 4096), ("v5e:2x4", 16384), ("v5p:2x2x2", 4096), ("v5p:2x2x2", 65536)]
K = 1024


def probe(topology, rows):
    """In the child: compile the probe for one chip of `topology`; print its
    memory analysis as JSON."""
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax.experimental import topologies
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

    devs = topologies.get_topology_desc(platform="tpu", topology_name=topology).devices
    mesh = Mesh(np.array(devs).reshape(len(devs)), ("x",))

    def f(x, w):
        return jnp.exp(x @ w) @ w.T

    args = [jax.ShapeDtypeStruct((rows * len(devs), K), jnp.float32, sharding=NamedSharding(mesh, P("x"))),
            jax.ShapeDtypeStruct((K, K), jnp.float32, sharding=NamedSharding(mesh, P()))]
    with jax.set_mesh(mesh):
        m = jax.jit(f).lower(*args).compile().memory_analysis()
    print(json.dumps({"argument_size_in_bytes": m.argument_size_in_bytes,
                      "output_size_in_bytes": m.output_size_in_bytes,
                      "alias_size_in_bytes": m.alias_size_in_bytes}))


def budget(topology, rows):
    env = dict(os.environ, JAX_PLATFORMS="cpu", TPU_SKIP_MDS_QUERY="1", TPU_STDERR_LOG_LEVEL="0",
               TPU_MIN_LOG_LEVEL="0", LIBTPU_INIT_ARGS="--vmodule=hlo_rematerialization=1")
    p = subprocess.run([sys.executable, os.path.abspath(__file__), "--probe", topology, str(rows)],
                       env=env, capture_output=True, text=True, check=True)
    m = json.loads(p.stdout.strip().splitlines()[-1])
    limits = re.findall(r"memory limit \((\d+)\)", p.stderr)
    if not limits:
        raise RuntimeError(f"{topology} {rows}: no HloRematerialization limit in libtpu's log")
    limit = int(limits[-1])
    return {"topology": topology, "rows_per_chip": rows, "logged_limit": limit, **m,
            "budget": limit + m["argument_size_in_bytes"] - m["alias_size_in_bytes"]
            + m["output_size_in_bytes"]}


def remats(spec):
    """A dump's rematerialised instructions: PROGRAM@TOPOLOGY=DIR."""
    what, d = spec.split("=", 1)
    program, topology = what.split("@")
    hlo = [f for f in glob.glob(os.path.join(d, "*jit_train_step*after_optimizations.txt"))
           if "buffer" not in f and "before" not in f and "after_buffer" not in f]
    if len(hlo) != 1:
        raise RuntimeError(f"{d}: {len(hlo)} optimized HLO files of the train step")
    out = []
    with open(hlo[0], encoding="utf-8") as f:
        for line in f:
            m = re.match(r"\s*(?:ROOT )?(\S+\.remat\S*) = (\S+?)(?:\{[^}]*\})? (\S+?)\((.*?)\)", line)
            if m:
                operands = re.findall(r"%?([\w.\-]+)", m.group(4))
                src = re.search(r'op_name="([^"]*)"', line)
                out.append({"name": m.group(1).lstrip("%"), "shape": m.group(2), "op": m.group(3),
                            "operands": operands, "op_name": src.group(1) if src else None})
    return {"program": program, "topology": topology, "recomputed": out}


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--dump", action="append", default=[])
    ap.add_argument("--probe", nargs=2)
    a = ap.parse_args(argv[1:])
    if a.probe:
        probe(a.probe[0], int(a.probe[1]))
        return 0
    old = {}
    if os.path.exists(a.out):
        with open(a.out, encoding="utf-8") as f:
            old = json.load(f)
    rows = {f"{r['program']}@{r['topology']}": r for r in old.get("dumps", [])}
    for spec in a.dump:
        r = remats(spec)
        rows[f"{r['program']}@{r['topology']}"] = r
    rec = {"command": " ".join(["tests/xla_tpu/make_remat.py"] + argv[1:]),
           "probe": "f(x, w) = exp(x @ w) @ w.T, x f32[rows_per_chip * chips, 1024] on 'x', w f32[1024, 1024]",
           "budgets": [budget(t, n) for t, n in PROBES],
           "dumps": [rows[k] for k in sorted(rows)]}
    with open(a.out, "w", encoding="utf-8") as f:
        json.dump(rec, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
