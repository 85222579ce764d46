#!/usr/bin/env python3
"""Where XLA's TPU compiler places its temporaries in HBM, and the temp it
reports: small programs compiled ahead of time for v5e:2x4 (its 8 chips,
one axis 'x', every argument replicated) with their buffer assignment
dumped; per case, the arrays of the preallocated temp heap as buffers
(bytes, first and last instruction of XLA's schedule, whether a scan's
stack: the values XLA keeps at one offset with overlapping live ranges
are one buffer), the heap's size, the top of its arrays (its 512 B
pointer tuples and scalars sit below or above them, a 16 KiB slot each,
never reused), where the bottom one starts, and XLA's memory analysis. Writes tests/data/xla_tpu/heap_probes.json, the
reference of tests/test_xla_heap.c (sim/spmd/xla_heap.c's placement and
temp held to XLA's).

    tests/xla_tpu/.venv/bin/python tests/xla_tpu/make_heap_probes.py [--out FILE]

The records of make_records.py are added from their dumps (no compile
here; the memory analysis from the record):

    XLA_FLAGS=--xla_dump_to=DIR tests/xla_tpu/.venv/bin/python \
        tests/xla_tpu/make_records.py --out /tmp/rec --only flax_linen_fit_r917504@v5e:2x4
    python3 tests/xla_tpu/make_heap_probes.py --from-dump DIR \
        tests/data/xla_tpu/flax_linen_fit_r917504/v5e_2x4/record.json

replaces (or adds) the case named program@topology in FILE and keeps the
others.

Needs jax[tpu] (tests/xla_tpu/requirements.txt); sets JAX_PLATFORMS=cpu,
TPU_SKIP_MDS_QUERY=1 and XLA_FLAGS (a dump directory) itself.  Run under
`flock /tmp/libtpu.lock` on a shared machine.
"""

import argparse
import glob
import json
import os
import sys
import tempfile

DUMP = None  # the dump directory of this run's compiles (main sets it)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import probes  # noqa: E402
import xla_heap  # noqa: E402
DEFAULT_OUT = os.path.normpath(os.path.join(HERE, "..", "data", "xla_tpu", "heap_probes.json"))
TOPOLOGY = "v5e:2x4"
R = 131072  # rows: a 128-column f32 block is 64 MiB, the chain's temporaries past v5e's on-chip room
MLP_ROWS = 262144  # rows per chip of the MLP probe: a 1024-wide f32 activation is 1 GiB
L, M, K = 16, 4096, 1024  # the scan: 16 layers of h [M, K] f32, a 256 MiB stack


def named(fn, name):
    """fn under jit name `name` (the dump's module is jit_<name>)."""
    def f(*args):
        return fn(*args)
    f.__name__ = name
    return f


def cases(jax, jnp, P):
    """name -> (what it probes, fn, [(shape, dtype, spec)] of its arguments)."""
    f32 = jnp.float32

    def chain(x, w0, w1, w2, w3, w4, w5):
        a = jnp.tanh(x @ w0)
        b = jnp.tanh(a @ w1)
        c = jnp.tanh(b @ w2)
        d = jnp.tanh(b @ w3)
        e = jnp.tanh(c @ w4)
        f = jnp.tanh(d @ w5)
        return jnp.sum(e * f)

    def scanned(h, ws):
        def loss(h, ws):
            h, _ = jax.lax.scan(lambda h, w: (jnp.tanh(h @ w), None), h, ws)
            return jnp.sum(h * h)
        return jax.grad(loss, argnums=(0, 1))(h, ws)

    def mlp(x, w0, w1, w2, w3):
        def loss(ws):
            h = x
            for k, w in enumerate(ws):
                h = h @ w
                h = jax.nn.relu(h) if k < len(ws) - 1 else h
            return jnp.sum(h * h)
        return jax.grad(loss)((w0, w1, w2, w3))

    cols = [(128, 12 * 128), (12 * 128, 4 * 128), (4 * 128, 8 * 128), (4 * 128, 16 * 128),
            (8 * 128, 4 * 128), (16 * 128, 4 * 128)]
    return {
        "dot_chain": ("a = x w0 (12 blocks of 64 MiB), b = a w1 (4), c = b w2 (8), d = b w3 (16), "
                      "e = c w4 (4), f = d w5 (4), sum(e f): temporaries of mixed sizes and "
                      "overlapping lives", named(chain, "dot_chain"),
                      [((R, 128), f32, P())] + [(s, f32, P()) for s in cols]),
        "mlp_grad": ("the weight gradient of a 4-layer ReLU MLP (256-1024-256-1024-256) over "
                     f"{8 * MLP_ROWS} rows split on 'x': 1 GiB activations of mixed lives, their sums "
                     "all-reduced", named(mlp, "mlp_grad"),
                     [((8 * MLP_ROWS, 256), f32, P("x", None)), ((256, 1024), f32, P()),
                      ((1024, 256), f32, P()), ((256, 1024), f32, P()), ((1024, 256), f32, P())]),
        "scan_grad": ("the gradient of 16 scanned layers h <- tanh(h w): the forward loop's "
                      "stacks in the heap beside the other temporaries", named(scanned, "scan_grad"),
                      [((M, K), f32, P()), ((L, K, K), f32, P())]),
    }


def heap_record(name, dump=None, module=None):
    """The heap of module jit_<module or name> in dump (this run's by
    default): its buffers and sizes."""
    dump, module = dump or DUMP, module or name
    found = glob.glob(f"{dump}/*jit_{module}.*after_optimizations-buffer-assignment.txt")
    if len(found) != 1:
        raise SystemExit(f"make_heap_probes: {name}: {len(found)} buffer assignments in {dump}")
    size, slots = xla_heap.heap(found[0])
    values, missing = xla_heap.heap_values(found[0], slots)
    stacks = {(o, s) for o, s, _, st in values if st}
    bufs = []
    arrays = [(o, o + s) for o, s, _, _ in values if s > xla_heap.SMALL]
    arrays_top = max((hi for _, hi in arrays), default=0)
    arrays_bottom = min((lo for lo, _ in arrays), default=0)
    by = {}
    for o, s, r, _ in values:
        if s > xla_heap.SMALL:
            by.setdefault((o, s), []).append(r)
    for (o, s), ranges in sorted(by.items()):
        cur = None
        for a, b in sorted(ranges):
            if cur is not None and a <= cur[2]:
                cur[2] = max(cur[2], b)
            else:
                cur = [s, a, b, (o, s) in stacks]
                bufs.append(cur)
    return {"heap_bytes": size, "arrays_bottom": arrays_bottom, "arrays_top": arrays_top,
            "small_slots": len({o for o, s, _, _ in values if s <= xla_heap.SMALL}),
            "values_without_live_range": missing,
            "buffers": [{"bytes": s, "first": a, "last": b, "scan_stack": st} for s, a, b, st in bufs]}


def from_dump(out, dump, record):
    """Replaces or adds record's case (program@topology) in file out, its
    heap read from dump DIR (the step's module: jit_train_step or
    jit_step)."""
    with open(record, encoding="utf-8") as f:
        rec = json.load(f)
    name = f"{rec['program']}@{rec['topology']}"
    module = next((m for m in ("train_step", "step")
                   if glob.glob(f"{dump}/*jit_{m}.*after_optimizations-buffer-assignment.txt")), None)
    if module is None:
        raise SystemExit(f"make_heap_probes: no jit_train_step or jit_step buffer assignment in {dump}")
    mem = {k: rec["memory_analysis"][k] for k in ("argument_size_in_bytes", "output_size_in_bytes",
                                                  "alias_size_in_bytes", "temp_size_in_bytes")}
    case = {"case": name, "what": f"make_records.py's {name} (record {os.path.relpath(record)})",
            "topology": rec["topology"], "memory": mem, **heap_record(name, dump, module)}
    with open(out, encoding="utf-8") as f:
        data = json.load(f)
    data["cases"] = [c for c in data["cases"] if c["case"] != name] + [case]
    with open(out, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    print(f"make_heap_probes: {name}: heap {case['heap_bytes']}, {len(case['buffers'])} buffers -> {out}")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--from-dump", nargs=2, metavar=("DIR", "RECORD"),
                    help="add make_records.py's record RECORD from its dump DIR")
    opts = ap.parse_args(argv)
    if opts.from_dump:
        return from_dump(opts.out, *opts.from_dump)
    global DUMP
    DUMP = tempfile.mkdtemp(prefix="heap_probes_")
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    os.environ.setdefault("TPU_SKIP_MDS_QUERY", "1")
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + f" --xla_dump_to={DUMP}").strip()

    def record(name, what, lowered, compiled, args, jnp):
        m = compiled.memory_analysis()
        mem = {k: getattr(m, k) for k in ("argument_size_in_bytes", "output_size_in_bytes",
                                          "alias_size_in_bytes", "temp_size_in_bytes")}
        heap = heap_record(name)
        print(f"{name}: {mem}, heap {heap['heap_bytes']}, arrays' top {heap['arrays_top']}, "
              f"{len(heap['buffers'])} buffers")
        return {"case": name, "what": what, "arguments": probes.arguments(args, jnp), "memory": mem,
                **heap}

    out, ndev, version = probes.compile_probes(cases, TOPOLOGY, opts.only, record)
    probes.write_record(opts.out, "tests/xla_tpu/.venv/bin/python tests/xla_tpu/make_heap_probes.py",
                        TOPOLOGY, ndev, version, out)
    print(f"make_heap_probes: {len(out)} cases -> {opts.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
