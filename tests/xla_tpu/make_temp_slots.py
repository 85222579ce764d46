#!/usr/bin/env python3
"""What XLA's TPU compiler reports as temp_size_in_bytes beside the HBM
temporary heap it assigns: probe programs and records compiled with their
buffer assignment dumped, the heap measured (tests/xla_tpu/xla_heap.py's
reader), both written to one file.

    flock /tmp/libtpu.lock tests/xla_tpu/.venv/bin/python \\
        tests/xla_tpu/make_temp_slots.py [--out FILE] [--only CASE ...] [--update]

(any environment with jax[tpu] as pinned in tests/xla_tpu/requirements.txt;
about 5 s a compile, 3 min in all). Writes FILE
(tests/data/xla_tpu/temp_slots.json by default): per case, the program,
the slice, the HBM alignment XLA was told to use
(--xla_jf_program_hbm_alignment_in_kib through LIBTPU_INIT_ARGS; 16 KiB is
libtpu 0.0.42.1's default), memory_analysis's argument, output and temp
sizes, and of the dumped buffer assignment's HBM temporary allocation
(memory space 0, "preallocated-temp" with no color): its size, its
distinct offsets ("slots"), how many of them hold an array (a value of
more than 512 B: v5p's loop stacks and prefetches), its values, their kinds, whether one is a
dynamic-slice (and where the program's other dynamic-slice values are),
and heap + (slots + 1) * (alignment - 512).

Cases: the SMALL scanned LM records (make_records.py's lm_full, lm_dots,
lm_noremat on v5e:2x4/4x4/8x8 and v5p:2x2x2/2x2x4), lm_full@v5e:2x4 and the
Flax MLP at other alignments, the MLP and the MoE layer on v5e:2x4, and
probe programs on v5e:2x4 (three of them on v5p:2x2x2 too; mesh
('d', 'm') = (2, 4)):

  matmul_ag     tanh(x @ w), x and w f32[64, 64] sharded ('d', None), the
                result too: XLA's collective matmul (a collective-permute
                of w's halves, dots on the partition's offset)
  scan_grad_W   the gradient of a 4-step lax.scan of c = tanh(c @ w[i]),
                c f32[16, 32] sharded ('d', None), w f32[4, 32, 32] with
                PartitionSpec W (rep: replicated; dm: (None, 'd', 'm');
                d: (None, 'd', None))
  scan_grad_rep_ag  scan_grad_rep and beside it tanh(y) * 2 of a second
                argument y f32[64, 64] sharded ('d', 'm') gathered whole
  scan_grad_rep_matmul_ag  scan_grad_rep and beside it matmul_ag of two
                more arguments
  reduce_scatter  tanh(x).sum(0), x f32[64, 64] sharded ('d', None), the
                result sharded 'd'

A measuring aid, not a test: nothing here is asserted.
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DEFAULT_OUT = os.path.join(ROOT, "tests", "data", "xla_tpu", "temp_slots.json")
COMMAND = "flock /tmp/libtpu.lock tests/xla_tpu/.venv/bin/python tests/xla_tpu/make_temp_slots.py"
sys.path.insert(0, HERE)
import xla_heap  # noqa: E402

LM = [f"lm_{v}@{t}" for v in ("full", "dots", "noremat")
      for t in ("v5e:2x4", "v5e:4x4", "v5e:8x8", "v5p:2x2x2", "v5p:2x2x4")]
# (case name, record PROGRAM@TOPOLOGY or probe name, alignment KiB)
CASES = ([(r, r, 16) for r in LM]
         + [("lm_full@v5e:2x4 align 4", "lm_full@v5e:2x4", 4),
            ("lm_full@v5e:2x4 align 32", "lm_full@v5e:2x4", 32),
            ("flax_linen_train_step@v5e:2x4", "flax_linen_train_step@v5e:2x4", 16),
            ("flax_linen_train_step@v5e:2x4 align 32", "flax_linen_train_step@v5e:2x4", 32),
            ("moe_top2_train_step@v5e:2x4", "moe_top2_train_step@v5e:2x4", 16),
            ("flax_linen_train_step@v5p:2x2x2", "flax_linen_train_step@v5p:2x2x2", 16)]
         + [(f"matmul_ag align {a}", "matmul_ag", a) for a in (4, 16, 32)]
         + [(p, p, 16) for p in ("scan_grad_rep", "scan_grad_dm", "scan_grad_d", "scan_grad_rep_ag",
                                 "scan_grad_rep_matmul_ag", "reduce_scatter")]
         + [(f"{p} v5p:2x2x2", f"{p} v5p:2x2x2", 16) for p in ("matmul_ag", "scan_grad_rep", "reduce_scatter")])


def probe(name, topology):
    """Runs in the child: compiles probe `name` on `topology` (8 chips),
    returns its memory_analysis figures."""
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax.experimental import topologies
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
    devs = topologies.get_topology_desc(platform="tpu", topology_name=topology).devices
    mesh = Mesh(np.array(devs).reshape(2, 4), ("d", "m"))
    S = lambda *s: NamedSharding(mesh, P(*s))  # noqa: E731
    sds = lambda shape, *spec: jax.ShapeDtypeStruct(shape, jnp.float32, sharding=S(*spec))  # noqa: E731

    def scan_loss(ws, x):
        c, _ = jax.lax.scan(lambda c, w: (jnp.tanh(c @ w), None), x, ws)
        return (c * c).sum()

    wspec = {"rep": (None, None, None), "dm": (None, "d", "m"), "d": (None, "d", None)}
    if name == "matmul_ag":
        f = jax.jit(lambda x, w: jnp.tanh(x @ w), out_shardings=S("d", None))
        args = (sds((64, 64), "d", None), sds((64, 64), "d", None))
    elif name.startswith("scan_grad_") and not name.endswith("_ag"):
        spec = wspec[name[len("scan_grad_"):]]
        f = jax.jit(jax.grad(scan_loss))
        args = (sds((4, 32, 32), *spec), sds((16, 32), "d", None))
    elif name == "scan_grad_rep_ag":
        g = jax.grad(scan_loss)
        f = jax.jit(lambda ws, x, y: (g(ws, x), jnp.tanh(y) * 2), out_shardings=(S(), S()))
        args = (sds((4, 32, 32)), sds((16, 32), "d", None), sds((64, 64), "d", "m"))
    elif name == "scan_grad_rep_matmul_ag":
        g = jax.grad(scan_loss)
        f = jax.jit(lambda ws, x, a, b: (g(ws, x), jnp.tanh(a @ b)), out_shardings=(S(), S("d", None)))
        args = (sds((4, 32, 32)), sds((16, 32), "d", None), sds((64, 64), "d", None), sds((64, 64), "d", None))
    elif name == "reduce_scatter":
        f = jax.jit(lambda x: jnp.tanh(x).sum(0), out_shardings=S("d"))
        args = (sds((64, 64), "d", None),)
    else:
        raise SystemExit(f"make_temp_slots: unknown probe {name}")
    ma = f.lower(*args).compile().memory_analysis()
    return {"argument_size_in_bytes": ma.argument_size_in_bytes, "output_size_in_bytes": ma.output_size_in_bytes,
            "temp_size_in_bytes": ma.temp_size_in_bytes}


def module_file(dump):
    """The dump's buffer assignment of the TPU module (the largest one: the
    step, not JAX's small CPU helpers)."""
    found = [f for f in glob.glob(os.path.join(dump, "*after_optimizations-buffer-assignment.txt"))
             if ".cpu_after" not in f and "jit_stage" not in f]
    if not found:
        raise SystemExit(f"make_temp_slots: no TPU buffer assignment in {dump}")
    return max(found, key=os.path.getsize)


def dynamic_slice_places(path):
    """{allocation kind: count} of the dump's dynamic-slice values outside
    the HBM temporary heap ("maybe-live-out", "output": an output's buffer
    before the output is written)."""
    kind, places = None, {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"allocation \d+: size \d+, (.*)", line)
            if m:
                rest = m.group(1)
                heap = rest.startswith("preallocated-temp") and "color" not in rest
                kind = (None if heap else "output" if rest.startswith("output shape")
                        else re.split(r"[,:]", rest)[0].strip())
                continue
            m = re.match(r" value: <\d+ (dynamic-slice(\.\d+)?) @", line)
            if m and kind:
                places[kind] = places.get(kind, 0) + 1
    return dict(sorted(places.items()))


def run_case(case, what, align):
    env = dict(os.environ, JAX_PLATFORMS="cpu", TPU_SKIP_MDS_QUERY="1")
    if align != 16:
        env["LIBTPU_INIT_ARGS"] = f"--xla_jf_program_hbm_alignment_in_kib={align}"
    with tempfile.TemporaryDirectory() as tmp:
        dump = os.path.join(tmp, "dump")
        env["XLA_FLAGS"] = f"--xla_dump_to={dump}"
        if "@" in what:
            cmd = [sys.executable, os.path.join(HERE, "make_records.py"), "--out", os.path.join(tmp, "rec"),
                   "--only", what]
        else:
            name, _, topology = what.partition(" ")
            cmd = [sys.executable, os.path.abspath(__file__), "--child", name, topology or "v5e:2x4"]
        r = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if r.returncode != 0:
            tail = [ln for ln in r.stderr.splitlines() if ln.strip()][-3:]
            raise SystemExit(f"make_temp_slots: {case}: {' | '.join(tail)}")
        if "@" in what:
            program, topology = what.split("@")
            with open(os.path.join(tmp, "rec", program, topology.replace(":", "_"), "record.json")) as f:
                mem = {k: v for k, v in json.load(f)["memory_analysis"].items()
                       if k in ("argument_size_in_bytes", "output_size_in_bytes", "temp_size_in_bytes")}
        else:
            mem = json.loads(r.stdout.strip().splitlines()[-1])
        size, slots = xla_heap.heap(module_file(dump))
        elsewhere = dynamic_slice_places(module_file(dump))
    values = [v for vs in slots.values() for v in vs]
    kinds = {}
    for name, _, _ in values:
        k = re.sub(r"[.\d]*(\{.*\})?$", "", name)
        kinds[k] = kinds.get(k, 0) + 1
    a = align * 1024
    arrays = sum(1 for vs in slots.values() if max(v[1] for v in vs) > xla_heap.SMALL)
    return dict(mem, case=case, program=what, alignment_kib=align, heap_bytes=size, heap_slots=len(slots),
                heap_array_slots=arrays,
                heap_values=len(values), heap_kinds=dict(sorted(kinds.items())),
                dynamic_slice_in_heap="dynamic-slice" in kinds, dynamic_slice_elsewhere=elsewhere,
                heap_plus_slots=size + (len(slots) + 1) * (a - 512) if slots else 0)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--only", nargs="*", default=None, help="case names (default: all)")
    ap.add_argument("--update", action="store_true",
                    help="replace only the cases run in FILE, keep its others")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    opts = ap.parse_args(argv)
    if opts.child:
        print(json.dumps(probe(*opts.child)))
        return 0
    cases = [c for c in CASES if opts.only is None or c[0] in opts.only]
    rows = []
    for case, what, align in cases:
        row = run_case(case, what, align)
        rows.append(row)
        t = row["temp_size_in_bytes"]
        print(f"{case}: temp {t} B, heap {row['heap_bytes']} B in {row['heap_slots']} slots "
              f"({row['heap_values']} values, dynamic-slice {'yes' if row['dynamic_slice_in_heap'] else 'no'}); "
              f"heap + (slots + 1) * (alignment - 512) = {row['heap_plus_slots']}"
              + (f" ({row['heap_plus_slots'] / t:.4f} of temp)" if t else ""))
    from importlib import metadata
    if opts.update and os.path.exists(opts.out):
        with open(opts.out, encoding="utf-8") as f:
            old = {r["case"]: r for r in json.load(f)["cases"]}
        old.update({r["case"]: r for r in rows})
        rows = [old[c] for c, _, _ in CASES if c in old]
    out = {"command": COMMAND, "versions": {d: metadata.version(d) for d in ("jax", "jaxlib", "libtpu")},
           "cases": rows}
    with open(opts.out, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
