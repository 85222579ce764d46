#!/usr/bin/env python3
"""Write what XLA's TPU compiler makes of shardsim's fixture programs:
ahead-of-time compilation for a TPU slice on this (CPU-only) machine.

    tests/xla_tpu/.venv/bin/python tests/xla_tpu/make_records.py [--out DIR]
        [--only PROGRAM@TOPOLOGY ...]

needs jax[tpu] (libtpu) as pinned in tests/xla_tpu/requirements.txt.  With
JAX_PLATFORMS=cpu and TPU_SKIP_MDS_QUERY=1 libtpu describes a slice it is
not running on (jax.experimental.topologies.get_topology_desc); jax.jit(f)
.lower(...).compile() on that slice's devices is XLA's TPU compiler, the
same one a real slice runs, and its memory_analysis() is the per-device
memory it would allocate.  Nothing executes on a TPU.

The programs are tests/jax/programs_models.py's, at the sizes of their
guides rather than the fixtures' small ones, on a ('data', 'model') mesh as
large as the slice (the builders read their sizes and their mesh from module
globals; scaled() sets them).  Their arguments are built on as many virtual
CPU devices, then handed to the TPU compile as ShapeDtypeStructs with the
same PartitionSpecs on the TPU mesh.

Each record is made in a subprocess of its own, so that its peak resident
memory is its own.  Under DIR (tests/data/xla_tpu by default), per
PROGRAM@TOPOLOGY:

  PROGRAM/TOPOLOGY/lowered.mlir   the StableHLO compiled (JAX's default, Shardy)
  PROGRAM/TOPOLOGY/record.json    memory_analysis, cost_analysis, the
                                  collectives of the partitioned HLO
                                  (tests/jax/hlo_collectives.py), the entry
                                  computation layout, compile wall time and
                                  peak RSS, versions, the command
"""

import argparse
import contextlib
import json
import os
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DEFAULT_OUT = os.path.join(ROOT, "tests", "data", "xla_tpu")
COMMAND = "tests/xla_tpu/.venv/bin/python tests/xla_tpu/make_records.py"

# TPU slices, two generations, 8 to 256 chips; the mesh each program runs on.
# v5e: 1 TensorCore per chip, 2D torus; v5p: megacore, 1 device per chip, 3D.
TOPOLOGIES = {
    "v5e:2x4": (2, 4), "v5e:4x4": (4, 4), "v5e:8x8": (8, 8), "v5e:16x16": (32, 8),
    "v5p:2x2x2": (2, 4), "v5p:2x2x4": (4, 4), "v5p:4x4x4": (8, 8), "v5p:4x4x16": (32, 8),
}

# Sizes per program; the global batch scales with the data axis (the
# guide's MLP: 8 rows per data shard; its own batch is 8 on 2 data shards).
PROGRAMS = {
    # The Flax Linen guide: DotReluDot x4, DEPTH 1024 (the guide's), adam.
    "flax_linen_train_step": lambda data, model: {"GUIDE_BATCH": 8 * data, "GUIDE_LAYERS": 4,
                                                  "GUIDE_DEPTH": 1024},
    # The same step with 4096 rows per data shard: activations of tens of
    # MiB per device, so that XLA's temporaries are in HBM, not VMEM.
    "flax_linen_train_step_b4k": lambda data, model: {"GUIDE_BATCH": 4096 * data, "GUIDE_LAYERS": 4,
                                                      "GUIDE_DEPTH": 1024},
    # Transformer block: heads and MLP on 'model', batch on 'data', adamw.
    "transformer_block_adamw": lambda data, model: {"TB_B": 2 * data, "TB_S": 512, "TB_D": 1024,
                                                    "TB_H": 16, "TB_F": 4096},
}
BUILDER = {"flax_linen_train_step": "linen_train_step", "flax_linen_train_step_b4k": "linen_train_step",
           "transformer_block_adamw": "transformer_block"}
# The fit sweep: the guide's MLP with ROWS rows per data shard, on one slice
# of each generation, for batch sizes on both sides of the chip's HBM (16 GiB
# on v5e, 95 GiB on v5p): XLA's verdict is whether the compile succeeds (a
# program that does not fit fails with RESOURCE_EXHAUSTED), shardsim's is
# `plan --device`'s. Named flax_linen_fit_rROWS; the input batch is built
# abstract (no host array of that size).
FIT_ROWS = {"v5e:2x4": (2 ** 18, 2 ** 19, 7 * 2 ** 17, 2 ** 20, 2 ** 21),
            "v5p:2x2x2": (2 ** 22, 11 * 2 ** 19, 6 * 2 ** 20, 2 ** 23)}
for _topo, _rows in FIT_ROWS.items():
    for _r in _rows:
        PROGRAMS[f"flax_linen_fit_r{_r}"] = (lambda r: lambda data, model: {
            "GUIDE_BATCH": r * data, "GUIDE_LAYERS": 4, "GUIDE_DEPTH": 1024})(_r)
        BUILDER[f"flax_linen_fit_r{_r}"] = "linen_train_step"
FIT_PAIRS = [(f"flax_linen_fit_r{r}", t) for t, rows in FIT_ROWS.items() for r in rows]

# The scanned language model (tests/jax/programs_lm.py) in its three remat
# variants, on MaxText's six-axis mesh (data, fsdp, fsdp_transpose,
# sequence, tensor, autoregressive) sized per slice: SMALL (the fixtures'
# lm_*, batch 2 per data x fsdp shard: the fixture's 8 on 2x4) and LARGE
# (lm_large_*, batch 16 per data x fsdp shard: its 256 on 16x16).
LM_MESH = {"v5e:2x4": (2, 2, 1, 1, 2, 1), "v5e:4x4": (2, 4, 1, 1, 2, 1), "v5e:8x8": (2, 8, 1, 1, 4, 1),
           "v5e:16x16": (1, 16, 1, 1, 16, 1), "v5p:2x2x2": (2, 2, 1, 1, 2, 1),
           "v5p:2x2x4": (2, 4, 1, 1, 2, 1)}
LM_VARIANTS = ("noremat", "full", "dots")
LM_PAIRS = ([(f"lm_{v}", t) for v in LM_VARIANTS for t in LM_MESH if t != "v5e:16x16"]
            # LARGE compiles in 1-10 min per record on this shared 2-core
            # machine: the smallest slice of each generation and v5e's
            # 256 chips (LM_MESH has the others).
            + [(f"lm_large_{v}", t) for v in LM_VARIANTS for t in ("v5e:2x4", "v5p:2x2x2", "v5e:16x16")])
# The MoE layer (tests/jax/programs_moe.py) at the transformer block's
# sizes: one expert per 'expert' shard, 2 sequences per data shard.
MOE_MESH = {"v5e:2x4": (2, 4), "v5e:4x4": (4, 4), "v5e:8x8": (8, 8), "v5p:2x2x2": (2, 4),
            "v5p:2x2x4": (4, 4)}
MOE_PAIRS = [("moe_top2_train_step", t) for t in MOE_MESH]
OTHER_PROGRAMS = sorted({p for p, _ in LM_PAIRS + MOE_PAIRS})
# Programs recorded on every topology; the others on the smallest and the
# largest slice of each generation.
EVERYWHERE = ("flax_linen_train_step", "transformer_block_adamw")
ENDS = ("v5e:2x4", "v5e:16x16", "v5p:2x2x2", "v5p:4x4x16")


def record_dir(out, program, topology):
    return os.path.join(out, program, topology.replace(":", "_"))


class _AbstractJax:
    """The jax module, but jax.jit(...)(*args) returns the result's
    ShapeDtypeStructs (with their shardings) instead of running: the
    builders initialise their state on the mesh, which here is a TPU slice
    that is described, not present."""

    def __init__(self, jax):
        self._jax = jax

    def __getattr__(self, name):
        return getattr(self._jax, name)

    def jit(self, fn, *a, **kw):
        jitted = self._jax.jit(fn, *a, **kw)
        return lambda *args: self._jax.eval_shape(jitted, *args)


class _AbstractOnes:
    """jax.numpy, but ones(shape) outside a trace is a ShapeDtypeStruct: the
    fit sweep's batches would take gigabytes of host memory as arrays."""

    def __init__(self, jnp):
        self._jnp = jnp

    def __getattr__(self, name):
        return getattr(self._jnp, name)

    def ones(self, shape, dtype=None):
        import jax
        return jax.ShapeDtypeStruct(tuple(shape), dtype or self._jnp.float32)


@contextlib.contextmanager
def scaled(module, mesh_shape, sizes, abstract_ones=False):
    """programs_models with its sizes, its mesh function and its jax.jit
    replaced (see _AbstractJax)."""
    import numpy as np
    from jax.sharding import Mesh
    saved = {k: getattr(module, k) for k in list(sizes) + ["mesh_2x4", "jax", "jnp"]}
    n = mesh_shape[0] * mesh_shape[1]
    try:
        for k, v in sizes.items():
            setattr(module, k, v)
        module.mesh_2x4 = lambda devices: Mesh(np.array(devices[:n]).reshape(mesh_shape), ("data", "model"))
        module.jax = _AbstractJax(module.jax)
        if abstract_ones:
            module.jnp = _AbstractOnes(module.jnp)
        yield
    finally:
        for k, v in saved.items():
            setattr(module, k, v)


def versions():
    from importlib import metadata
    out = {}
    for dist in ("jax", "jaxlib", "libtpu", "flax", "optax", "numpy"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = None
    return out


def maxrss_bytes():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def entry_layout(text):
    """The entry_computation_layout={...} of the compiled HLO's header."""
    head = text.split("\n", 1)[0]
    key = "entry_computation_layout={"
    i = head.find(key)
    if i < 0:
        return None
    depth, j = 0, i + len(key) - 1
    for j in range(j, len(head)):
        depth += {"{": 1, "}": -1}.get(head[j], 0)
        if depth == 0:
            break
    return head[i + len(key):j]


def abstract_like(arg, shardings):
    """arg's pytree with every array a ShapeDtypeStruct carrying the
    matching leaf of shardings (whose tree may box leaves differently, as
    Flax's Partitioned does)."""
    import jax
    from jax.sharding import NamedSharding
    leaves, treedef = jax.tree.flatten(arg)
    sh = jax.tree.leaves(shardings, is_leaf=lambda x: isinstance(x, NamedSharding))
    if len(sh) != len(leaves):
        raise SystemExit(f"make_records: {len(leaves)} argument leaves but {len(sh)} shardings")
    return jax.tree.unflatten(treedef, [jax.ShapeDtypeStruct(a.shape, a.dtype, sharding=s)
                                        for a, s in zip(leaves, sh)])


def make_one(program, topology, out, hlo=False):
    """Runs in the subprocess: XLA_FLAGS and JAX_PLATFORMS already set."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "jax"))
    import jax
    from jax.experimental import topologies
    from jax.sharding import NamedSharding
    import numpy as np
    import hlo_collectives
    import programs_models

    t0 = time.perf_counter()
    topo = topologies.get_topology_desc(platform="tpu", topology_name=topology)
    t_topo = time.perf_counter() - t0
    devs = topo.devices
    if program.startswith("lm_"):
        return _make_lm(program, topology, out, devs, t_topo, hlo)
    if program == "moe_top2_train_step":
        return _make_moe(program, topology, out, devs, t_topo, hlo)
    data, model = TOPOLOGIES[topology]
    sizes = PROGRAMS[program](data, model)
    with scaled(programs_models, (data, model), sizes,  # the sizes are read when tracing too
                abstract_ones=program.startswith("flax_linen_fit_")):
        prog = getattr(programs_models, BUILDER[program])(devs)
        return _make_one(program, topology, out, prog, devs, t_topo, sizes, hlo)


def _make_lm(program, topology, out, devs, t_topo, hlo):
    """A remat variant of programs_lm's decoder on LM_MESH[topology]."""
    import dataclasses
    import numpy as np
    from jax.sharding import Mesh
    import programs_lm
    shape = LM_MESH[topology]
    n = int(np.prod(shape))
    large = program.startswith("lm_large_")
    variant = program[len("lm_large_" if large else "lm_"):]
    base = programs_lm.LARGE if large else programs_lm.SMALL
    cfg = dataclasses.replace(base, batch=(16 if large else 2) * shape[0] * shape[1])
    saved = programs_lm.lm_mesh, programs_lm.jax
    programs_lm.lm_mesh = lambda d: Mesh(np.array(d[:n]).reshape(shape), programs_lm.MESH_AXES)
    # The builder's abstract init runs under jax.set_mesh(mesh), where
    # jax.random.key(0) would be placed on the (absent) TPU: build it
    # outside; the step is lowered under the mesh (prog.set_mesh).
    programs_lm.jax = _NoSetMesh(programs_lm.jax)
    try:
        prog = programs_lm._program(devs, cfg, variant, program, False)
    finally:
        programs_lm.lm_mesh, programs_lm.jax = saved
    return _make_one(program, topology, out, prog, devs, t_topo, dataclasses.asdict(cfg), hlo)


class _NoSetMesh:
    """The jax module with set_mesh a context that does nothing."""

    def __init__(self, jax):
        self._jax = jax

    def __getattr__(self, name):
        return getattr(self._jax, name)

    def set_mesh(self, mesh):
        return contextlib.nullcontext()


def _make_moe(program, topology, out, devs, t_topo, hlo):
    """programs_moe's top-2 MoE step at MOE_MESH[topology] (data, expert)."""
    import numpy as np
    from jax.sharding import Mesh
    import programs_moe
    data, expert = MOE_MESH[topology]
    sizes = {"E": expert, "D": 1024, "H": 4096, "B": 2 * data, "S": 512}
    saved = {k: getattr(programs_moe, k) for k in list(sizes) + ["mesh_data_expert"]}
    try:
        for k, v in sizes.items():
            setattr(programs_moe, k, v)
        programs_moe.mesh_data_expert = lambda d: Mesh(np.array(d[:data * expert]).reshape(data, expert),
                                                       ("data", "expert"))
        prog = programs_moe.moe_top2_train_step(devs)
        return _make_one(program, topology, out, prog, devs, t_topo, sizes, hlo)
    finally:
        for k, v in saved.items():
            setattr(programs_moe, k, v)


def _make_one(program, topology, out, prog, devs, t_topo, sizes, hlo=False):
    """prog (a tests/jax/program.Program whose mesh is on the slice's
    devices) lowered with abstract arguments, compiled, recorded."""
    import contextlib
    import jax
    from jax.sharding import NamedSharding
    import hlo_collectives

    tmesh = prog.mesh
    if len(devs) != tmesh.size:
        raise SystemExit(f"make_records: {topology} has {len(devs)} devices, the mesh wants {tmesh.size}")
    is_sh = lambda x: isinstance(x, NamedSharding)
    remap = lambda tree: jax.tree.map(lambda s: NamedSharding(tmesh, s.spec), tree, is_leaf=is_sh)
    in_sh, out_sh = remap(prog.in_shardings), remap(prog.out_shardings)
    abstract = tuple(abstract_like(arg, sh) for arg, sh in zip(prog.args, in_sh))
    del prog.args

    jitted = jax.jit(prog.fn, in_shardings=in_sh, out_shardings=out_sh, donate_argnums=prog.donate_argnums)
    t0 = time.perf_counter()
    with jax.set_mesh(tmesh) if prog.set_mesh else contextlib.nullcontext():
        lowered = jitted.lower(*abstract)
    t_lower = time.perf_counter() - t0
    text = lowered.as_text()
    rss_before = maxrss_bytes()
    t0 = time.perf_counter()
    try:
        compiled = lowered.compile()
    except Exception as exc:  # XLA's verdict: the program does not fit
        if "RESOURCE_EXHAUSTED" not in str(exc):
            raise
        return _record_oom(program, topology, out, prog, tmesh, devs, sizes, text, str(exc),
                           time.perf_counter() - t0, t_topo, t_lower, rss_before)
    t_compile = time.perf_counter() - t0
    rss_after = maxrss_bytes()

    ma = compiled.memory_analysis()
    mem = {k: getattr(ma, k) for k in ("argument_size_in_bytes", "output_size_in_bytes", "alias_size_in_bytes",
                                       "temp_size_in_bytes", "generated_code_size_in_bytes",
                                       "host_argument_size_in_bytes", "host_output_size_in_bytes",
                                       "host_alias_size_in_bytes", "host_temp_size_in_bytes")}
    mem["peak_bytes"] = (mem["argument_size_in_bytes"] + mem["output_size_in_bytes"]
                         - mem["alias_size_in_bytes"] + mem["temp_size_in_bytes"])
    ca = compiled.cost_analysis()
    if isinstance(ca, list):
        ca = ca[0]
    cost = {k: float(v) for k, v in sorted(ca.items())
            if k in ("flops", "transcendentals", "bytes accessed", "optimal_seconds")}
    ctext = compiled.as_text()
    colls = hlo_collectives.parse(ctext, per_execution=True)

    d = record_dir(out, program, topology)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "lowered.mlir"), "w", encoding="utf-8") as f:
        f.write(text)
    if hlo:
        with open(os.path.join(d, "compiled.txt"), "w", encoding="utf-8") as f:
            f.write(ctext)
    leaves = jax.tree.leaves(abstract)
    rec = {
        "program": program, "topology": topology, "device_kind": devs[0].device_kind,
        "chips": len(devs), "mesh": {"axis_names": list(tmesh.axis_names), "shape": list(tmesh.devices.shape)},
        "sizes": sizes, "description": prog.doc,
        "arguments": [{"shape": list(a.shape), "dtype": str(a.dtype), "spec": str(a.sharding.spec),
                       "local_shape": list(a.sharding.shard_shape(a.shape))} for a in leaves],
        "memory_analysis": mem,
        "cost_analysis": cost,
        "entry_computation_layout": entry_layout(ctext),
        "collectives": [dict({k: c[k] for k in ("kind", "replica_groups", "operand_bytes", "result_bytes",
                                                 "source_target_pairs", "async", "runs", "runs_known", "hlo_kind")
                              if k in c},
                             operands=[o["type"] for o in c["operands"]])
                        for c in colls],
        "collectives_summary": hlo_collectives.summary(colls),
        "seconds": {"topology": t_topo, "lower": t_lower, "compile": t_compile},
        "peak_rss_bytes": {"before_compile": rss_before, "after_compile": rss_after},
        "versions": versions(),
        "command": f"{COMMAND} --only {program}@{topology}",
    }
    with open(os.path.join(d, "record.json"), "w", encoding="utf-8") as f:
        json.dump(rec, f, indent=1, sort_keys=True)
        f.write("\n")
    return rec


def _record_oom(program, topology, out, prog, tmesh, devs, sizes, text, message, t_compile, t_topo, t_lower,
                rss_before):
    """The record of a compile that ran out of HBM: the verdict and XLA's
    message (its first lines: what it used of how much)."""
    d = record_dir(out, program, topology)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "lowered.mlir"), "w", encoding="utf-8") as f:
        f.write(text)
    lines = [ln.strip() for ln in message.splitlines() if ln.strip()]
    rec = {
        "program": program, "topology": topology, "device_kind": devs[0].device_kind,
        "chips": len(devs), "mesh": {"axis_names": list(tmesh.axis_names), "shape": list(tmesh.devices.shape)},
        "sizes": sizes, "description": prog.doc, "fits": False, "compile_error": lines[:3],
        "seconds": {"topology": t_topo, "lower": t_lower, "compile": t_compile},
        "peak_rss_bytes": {"before_compile": rss_before, "after_compile": maxrss_bytes()},
        "versions": versions(),
        "command": f"{COMMAND} --only {program}@{topology}",
    }
    with open(os.path.join(d, "record.json"), "w", encoding="utf-8") as f:
        json.dump(rec, f, indent=1, sort_keys=True)
    return rec


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--only", nargs="*", default=None, help="PROGRAM@TOPOLOGY pairs (default: all)")
    ap.add_argument("--hlo", action="store_true",
                    help="also write compiled.txt, XLA's compiled HLO (large; not checked in)")
    ap.add_argument("--child", nargs=2, metavar=("PROGRAM", "TOPOLOGY"), help=argparse.SUPPRESS)
    opts = ap.parse_args(argv)
    if opts.child:
        make_one(opts.child[0], opts.child[1], opts.out, opts.hlo)
        return 0
    pairs = [(p, t) for p in PROGRAMS for t in TOPOLOGIES
             if not p.startswith("flax_linen_fit_") and (p in EVERYWHERE or t in ENDS)] + FIT_PAIRS \
        + LM_PAIRS + MOE_PAIRS
    if opts.only is not None:
        want = [tuple(s.split("@", 1)) for s in opts.only]
        for w in want:
            if len(w) != 2 or w[0] not in list(PROGRAMS) + OTHER_PROGRAMS or w[1] not in TOPOLOGIES:
                print(f"make_records: unknown PROGRAM@TOPOLOGY '{'@'.join(w)}' "
                      f"(programs {sorted(PROGRAMS) + OTHER_PROGRAMS}, topologies {sorted(TOPOLOGIES)})", file=sys.stderr)
                return 2
        pairs = want
    status = 0
    for program, topology in pairs:
        env = dict(os.environ, JAX_PLATFORMS="cpu", TPU_SKIP_MDS_QUERY="1")
        r = subprocess.run([sys.executable, os.path.abspath(__file__), "--out", opts.out,
                            "--child", program, topology] + (["--hlo"] if opts.hlo else []), env=env, capture_output=True, text=True)
        if r.returncode != 0:
            tail = [ln for ln in r.stderr.splitlines() if ln.strip()][-3:]
            print(f"{program}@{topology}: FAILED: {' | '.join(tail)}", file=sys.stderr)
            status = 1
            continue
        with open(os.path.join(record_dir(opts.out, program, topology), "record.json")) as f:
            rec = json.load(f)
        if "memory_analysis" not in rec:
            print(f"{program}@{topology}: does not fit: {rec['compile_error'][0][:200]}")
            continue
        m = rec["memory_analysis"]
        print(f"{program}@{topology}: peak {m['peak_bytes']} B (arg {m['argument_size_in_bytes']}, out "
              f"{m['output_size_in_bytes']}, alias {m['alias_size_in_bytes']}, temp {m['temp_size_in_bytes']}), "
              f"compile {rec['seconds']['compile']:.2f} s, peak RSS {rec['peak_rss_bytes']['after_compile'] >> 20} MiB")
    return status


if __name__ == "__main__":
    sys.exit(main())
