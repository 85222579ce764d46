"""What the probe recorders (make_gather_dtypes.py, make_stash_dtypes.py,
make_fusion_dup.py, make_loop_heap.py) and their tests share: probe
programs compiled for one TPU slice on a 1-axis mesh ('x'), their record
written as one JSON file, and a list of checks printed as TAP.

`compile_probes` and `write_record` need jax[tpu] (tests/xla_tpu/requirements.txt);
`test_record`, `plan_peak` and `tap` only the standard library.
"""

import json
import os
import subprocess
import sys
import tempfile


def compile_probes(cases, topology, only, record):
    """Lowers and compiles each probe of `cases(jax, jnp, P)` (name -> (what,
    fn, [(shape, dtype, spec)])) for `topology`, all devices on axis 'x';
    `record(name, what, lowered, compiled, args, jnp)` gives the case's
    entry. Returns (entries, device count, jax version)."""
    import jax
    import jax.numpy as jnp
    from jax.sharding import NamedSharding, PartitionSpec as P

    mesh = topology_mesh(topology, {"x": -1})
    devs = mesh.devices.reshape(-1)
    out = []
    for name, (what, fn, args) in cases(jax, jnp, P).items():
        if only and name not in only:
            continue
        abstract = [jax.ShapeDtypeStruct(s, d, sharding=NamedSharding(mesh, spec)) for s, d, spec in args]
        with jax.set_mesh(mesh):
            lowered = jax.jit(fn).lower(*abstract)
        out.append(record(name, what, lowered, lowered.compile(), args, jnp))
    return out, len(devs), jax.__version__


def topology_mesh(topology, axes):
    """A Mesh of `topology`'s devices (their order in the topology) with the
    named axes `axes` (name -> size, outermost first; one size may be -1)."""
    import numpy as np
    from jax.experimental import topologies
    from jax.sharding import Mesh

    devs = topologies.get_topology_desc(platform="tpu", topology_name=topology).devices
    return Mesh(np.array(devs).reshape(tuple(axes.values())), tuple(axes))


def memory_of(compiled):
    """XLA's memory analysis of a compiled probe, with its peak (argument +
    output - alias + temp)."""
    m = compiled.memory_analysis()
    mem = {k: getattr(m, k) for k in ("argument_size_in_bytes", "output_size_in_bytes",
                                      "alias_size_in_bytes", "temp_size_in_bytes")}
    mem["peak_bytes"] = (mem["argument_size_in_bytes"] + mem["output_size_in_bytes"]
                         - mem["alias_size_in_bytes"] + mem["temp_size_in_bytes"])
    return mem


def memory_record(name, what, lowered, compiled, args, jnp):
    """A probe's entry: its StableHLO, arguments and XLA's memory analysis
    (compile_probes' `record` for recorders that keep nothing else)."""
    mem = memory_of(compiled)
    print(f"{name}: {mem}")
    return {"case": name, "what": what, "lowered": lowered.as_text(),
            "arguments": arguments(args, jnp), "memory": mem}


def record_main(argv, doc, script, default_out, topology, cases, record=None):
    """A recorder's command line (--out FILE, --only NAME...): compiles
    `cases` for `topology`, each entry made by `record` (compile_probes';
    memory_record by default), and writes the JSON."""
    import argparse
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--out", default=default_out)
    ap.add_argument("--only", nargs="*", default=None)
    opts = ap.parse_args(argv)
    out, ndev, version = compile_probes(cases, topology, opts.only, record or memory_record)
    write_record(opts.out, f"tests/xla_tpu/.venv/bin/python tests/xla_tpu/{script}", topology, ndev,
                 version, out)
    print(f"{script[:-3]}: {len(out)} cases -> {opts.out}")
    return 0


def arguments(args, jnp):
    """A probe's arguments as the record lists them."""
    return [{"shape": list(s), "dtype": jnp.dtype(d).name, "spec": str(spec)} for s, d, spec in args]


def write_record(path, command, topology, ndev, jax_version, cases):
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"command": command, "topology": topology, "mesh": {"x": ndev}, "jax": jax_version,
                   "cases": cases}, f, indent=1)
        f.write("\n")


def test_record(argv, path):
    """The JSON record at `path` for a test run as `TEST.py SHARDSIM`
    (argv), or None after printing the usage when argv is not that (the
    test then exits 2)."""
    if len(argv) != 2:
        print(f"usage: {os.path.basename(argv[0])} SHARDSIM", file=sys.stderr)
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def plan_peak(shardsim, mlir, device, devices):
    """plan_peak_bytes of `shardsim plan --device DEVICE --devices N` of a
    probe's StableHLO text."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(mlir)
        path = f.name
    try:
        p = subprocess.run([shardsim, "plan", path, "--json", "--device", device,
                            "--devices", str(devices)], capture_output=True, text=True)
    finally:
        os.unlink(path)
    if p.returncode not in (0, 1):
        raise RuntimeError(f"shardsim plan: exit {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout)["memory"]["plan_peak_bytes"]


def tap(checks):
    """Prints [(what, ok)] as TAP; 1 if any failed, else 0."""
    print(f"1..{len(checks)}")
    failed = 0
    for k, (what, ok) in enumerate(checks, 1):
        print(f"{'ok' if ok else 'not ok'} {k} - {what}")
        failed += not ok
    return 1 if failed else 0
