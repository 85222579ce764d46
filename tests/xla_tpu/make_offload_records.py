#!/usr/bin/env python3
"""Write shardsim's host-offload fixtures as XLA's TPU compiler sees them:
programs whose values JAX places in host memory ('pinned_host'), lowered
for a TPU slice (v5e:2x4, described by libtpu on this CPU-only machine as
make_records.py does) and compiled there, with JAX's outputs computed on 8
virtual CPU devices as the reference values.

    JAX_PLATFORMS=cpu TPU_SKIP_MDS_QUERY=1 \\
        /work/tpuvenv/bin/python tests/xla_tpu/make_offload_records.py [--out DIR]

(any environment with jax[tpu] as pinned in tests/xla_tpu/requirements.txt
and the JAX version of the project's .venv).  Why both: JAX lowers the
offloading policies and device_put to host memory only for TPU (on CPU the
placements are dropped or the policy saves on device), while only the CPU
can run the program here.  The placement changes no value (a copy to host
memory and back), so the CPU run of the same function is the reference for
shardsim's run of the TPU lowering.

Under DIR (tests/data/jax_offload_tpu by default), per program:

  lowered.shardy.loc.mlir  the TPU lowering (Shardy, with locations)
  inputs/NAME.npy          the arguments, by their Python names
  outputs/result*.npy      JAX's outputs on CPU
  meta.json                arguments, results, mesh, description, command
  record.json              XLA's TPU memory_analysis (device and host
                           figures per device), the count of host-memory
                           (S(5)) shapes in the compiled text, versions

Programs:

  put_host_back   sin(x) device_put to pinned_host and back inside jit, * 2 + x
  out_pinned_host x * 3 returned through out_shardings in pinned_host memory
  scan_offload    the gradient of a 4-layer scanned MLP whose layer is under
                  jax.checkpoint with save_and_offload_only_these_names
                  (its named activation offloaded to pinned_host)
  scan_offload_dots the same layer under offload_dot_with_no_batch_dims
  scan_full_remat the same layer under nothing_saveable (full remat)
  scan_no_remat   the same layer without jax.checkpoint
"""

import argparse
import json
import os
import re
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("TPU_SKIP_MDS_QUERY", "1")
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.ad_checkpoint import checkpoint_name  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DEFAULT_OUT = os.path.join(ROOT, "tests", "data", "jax_offload_tpu")
COMMAND = ("JAX_PLATFORMS=cpu TPU_SKIP_MDS_QUERY=1 /work/tpuvenv/bin/python "
           "tests/xla_tpu/make_offload_records.py")
TOPOLOGY = "v5e:2x4"
MEMORY_FIELDS = ("argument_size_in_bytes", "output_size_in_bytes", "alias_size_in_bytes",
                 "temp_size_in_bytes", "host_argument_size_in_bytes", "host_output_size_in_bytes",
                 "host_alias_size_in_bytes", "host_temp_size_in_bytes", "peak_memory_in_bytes")


def rand(rng, shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def put_host_back(mesh):
    dev = NamedSharding(mesh, P("x"))
    host = dev.with_memory_kind("pinned_host")

    def f(x):
        h = jax.device_put(jnp.sin(x), host)
        return jax.device_put(h, dev) * 2 + x

    return (f, (rand(np.random.default_rng(6), (16, 4)),), (dev,), dev,
            "sin(x) put in pinned_host memory and back to the device inside jit, then * 2 + x")


def out_pinned_host(mesh):
    dev = NamedSharding(mesh, P("x"))

    def f(x):
        return x * 3

    return (f, (rand(np.random.default_rng(5), (16, 4)),), (dev,), dev.with_memory_kind("pinned_host"),
            "x * 3 of f32[16,4] P('x'), returned in pinned_host memory (out_shardings)")


SCAN_POLICIES = {
    "scan_offload": lambda: jax.checkpoint_policies.save_and_offload_only_these_names(
        names_which_can_be_saved=[], names_which_can_be_offloaded=["h"],
        offload_src="device", offload_dst="pinned_host"),
    "scan_offload_dots": lambda: jax.checkpoint_policies.offload_dot_with_no_batch_dims(
        "device", "pinned_host"),
    "scan_full_remat": lambda: jax.checkpoint_policies.nothing_saveable,
    "scan_no_remat": None,
}


def scan_program(name):
    def build(mesh):
        pol = SCAN_POLICIES[name]

        def layer(x, w):
            h = checkpoint_name(jnp.sin(x @ w), "h")
            return jnp.tanh(h @ w.T), None

        body = layer if pol is None else jax.checkpoint(layer, policy=pol())

        def loss(x, ws):
            y, _ = jax.lax.scan(body, x, ws)
            return jnp.sum(y * y)

        def f(x, ws):
            return jax.grad(loss, argnums=1)(x, ws)

        rng = np.random.default_rng(7)
        args = (rand(rng, (64, 128)), rand(rng, (4, 128, 128), 0.05))
        ins = (NamedSharding(mesh, P("x")), NamedSharding(mesh, P()))
        return (f, args, ins, NamedSharding(mesh, P()),
                f"d/dws of sum(scan(layer)(x, ws)^2), x f32[64,128] P('x'), ws f32[4,128,128] "
                f"replicated; layer(x, w) = tanh(h @ w.T), h = sin(x @ w) named 'h'; remat: {name}")
    build.__name__ = name
    return build


BUILDERS = [put_host_back, out_pinned_host] + [scan_program(n) for n in SCAN_POLICIES]


def versions():
    import jaxlib
    out = {"jax": jax.__version__, "jaxlib": jaxlib.__version__}
    try:
        import libtpu  # noqa: F401
        from importlib.metadata import version
        out["libtpu"] = version("libtpu")
    except Exception:  # libtpu under another distribution name
        pass
    return out


def save_npy(path, value):
    with open(path, "wb") as f:
        np.save(f, np.asarray(value), allow_pickle=False)


def make(build, out):
    from jax.experimental import topologies
    cpu = sorted(jax.devices("cpu"), key=lambda d: d.id)[:8]
    tpu = topologies.get_topology_desc(platform="tpu", topology_name=TOPOLOGY).devices[:8]
    cmesh, tmesh = Mesh(np.array(cpu), ("x",)), Mesh(np.array(tpu), ("x",))
    fn, args, ins, outs, doc = build(cmesh)
    tfn, _, tins, touts, _ = build(tmesh)  # the same program on the slice's devices
    name = build.__name__
    d = os.path.join(out, name)
    os.makedirs(os.path.join(d, "inputs"), exist_ok=True)
    os.makedirs(os.path.join(d, "outputs"), exist_ok=True)

    # XLA's TPU compile of abstract arguments on the slice's devices.
    abstract = tuple(jax.ShapeDtypeStruct(a.shape, a.dtype, sharding=s) for a, s in zip(args, tins))
    lowered = jax.jit(tfn, in_shardings=tins, out_shardings=touts).lower(*abstract)
    compiled = lowered.compile()
    ma = compiled.memory_analysis()
    ctext = compiled.as_text()
    with open(os.path.join(d, "lowered.shardy.loc.mlir"), "w", encoding="utf-8") as f:
        f.write(lowered.as_text(debug_info=True))

    # JAX's values on CPU: the same function and shardings (placements kept
    # where the CPU has the memory kind; they change no value).
    result = jax.block_until_ready(jax.jit(fn, in_shardings=ins, out_shardings=outs)(*args))
    m = re.search(r"func\.func public @main\((.*?)\) -> \(", lowered.as_text(debug_info=True))
    arg_names = re.findall(r'loc\("([A-Za-z_][A-Za-z0-9_]*)"\)', m.group(1)) if m else []
    if len(arg_names) != len(args):
        raise SystemExit(f"make_offload_records: {name}: argument names {arg_names} in the lowering")
    for n, a in zip(arg_names, args):
        save_npy(os.path.join(d, "inputs", n + ".npy"), a)
    rnames = ["result" + jax.tree_util.keystr(p) for p, _ in jax.tree_util.tree_flatten_with_path(result)[0]]
    for n, a in zip(rnames, jax.tree.leaves(result)):
        save_npy(os.path.join(d, "outputs", n + ".npy"), a)
    meta = {
        "description": doc, "command": f"{COMMAND} {name}", "topology": TOPOLOGY,
        "mesh": {"axis_names": ["x"], "shape": [8]},
        "arguments": [{"name": n, "shape": list(a.shape), "dtype": str(a.dtype),
                       "sharding": str(s.spec), "in_module": True} for n, a, s in zip(arg_names, args, ins)],
        "results": [{"name": n, "shape": list(np.shape(a)), "dtype": str(np.asarray(a).dtype)}
                    for n, a in zip(rnames, jax.tree.leaves(result))],
    }
    rec = {
        "program": name, "topology": TOPOLOGY, "device_kind": tpu[0].device_kind,
        "memory_analysis": {k: int(getattr(ma, k)) for k in MEMORY_FIELDS if getattr(ma, k, None) is not None},
        "host_memory_shapes_in_compiled_text": len(re.findall(r"S\(5\)\}", ctext)),
        "versions": versions(), "command": f"{COMMAND} {name}",
    }
    for fname, obj in (("meta.json", meta), ("record.json", rec)):
        with open(os.path.join(d, fname), "w", encoding="utf-8") as f:
            json.dump(obj, f, indent=1, sort_keys=True)
            f.write("\n")
    print(name, rec["memory_analysis"])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("names", nargs="*")
    opts = ap.parse_args(argv)
    jax.config.update("jax_hlo_source_file_canonicalization_regex", r".*/(tests/)")
    for b in BUILDERS:
        if not opts.names or b.__name__ in opts.names:
            make(b, opts.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
