#!/usr/bin/env python3
"""Write the vectors shardsim's constants and data-movement ops are held to:
iota, dense constants, reverse, pad (negative and interior padding),
strided slices and the dynamic slices (clamped starts) on several dtypes,
and their gradients, each computed by JAX on XLA's CPU backend (jax.jit of one jax.lax
op; jax.vjp for the gradients).

    .venv/bin/python tests/jax/make_shape_vectors.py [--out FILE]

writes tests/data/jax_shape/vectors.json (tests/test_shape_ops_jax.c reads
it). Arrays are little-endian bytes in hex with their dtype and shape. Every
result must match bit for bit: these ops move or count elements, they do
no arithmetic (a pad's padding-value gradient sums, in f32, over values
that are small integers here, so it is exact too).
Deterministic: running it again writes the same file.
"""

import argparse
import json
import os
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402
import ml_dtypes  # noqa: E402

jax.config.update("jax_enable_x64", True)

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.normpath(os.path.join(HERE, "..", "data", "jax_shape", "vectors.json"))

DTYPES = {"f32": np.float32, "bf16": ml_dtypes.bfloat16, "f16": np.float16, "f64": np.float64,
          "i8": np.int8, "i32": np.int32, "i64": np.int64, "u8": np.uint8, "u32": np.uint32,
          "bool": np.bool_}
NAMES = {np.dtype(v).name if v is not ml_dtypes.bfloat16 else "bfloat16": k
         for k, v in DTYPES.items()}
SHAPE = (4, 8, 6)  # dims 0 and 1 split over the 2- and 8-device meshes


def arr(a):
    a = np.asarray(a)
    return {"dtype": NAMES[a.dtype.name], "shape": list(a.shape),
            "hex": np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tobytes().hex()}


def sample(name, shape, seed):
    """Distinct small values of dtype `name` (exact in every dtype)."""
    rng = np.random.default_rng(seed)
    v = rng.integers(-60, 60, size=shape)
    if name == "bool":
        return (v > 0)
    if name[0] == "u":
        v = np.abs(v)
    return v.astype(DTYPES[name])


def run(f, *args):
    return np.asarray(jax.jit(f)(*args))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    args = ap.parse_args()
    cases = []

    # iota: every dim of a 3-D shape, and long 1-D ones where the count
    # wraps (i8, u8) or rounds (bf16, f16 above their exact integers).
    for name in ["i32", "i64", "u32", "f32", "f64", "bf16", "f16", "i8", "u8"]:
        for dim in range(3):
            out = run(lambda: lax.broadcasted_iota(DTYPES[name], SHAPE, dim))
            cases.append({"kind": "iota", "dim": dim, "shape": list(SHAPE), "out": arr(out)})
    for name, n in [("i8", 300), ("u8", 300), ("bf16", 600), ("f16", 2600)]:
        out = run(lambda: lax.iota(DTYPES[name], n))
        cases.append({"kind": "iota", "dim": 0, "shape": [n], "out": arr(out)})

    ops = {"reverse": [[0], [1], [2], [0, 2], [0, 1, 2]],
           "pad": [[[1, 2, 0], [0, 0, 0], [0, 0, 0]],
                   [[-1, 2, 1], [2, -3, 0], [0, 0, 2]],
                   [[0, 0, 3], [-2, -2, 0], [1, -1, 0]],
                   [[-3, -3, 1], [1, 1, 1], [-1, 3, 0]]],
           "slice": [[[0, 4, 2], [1, 8, 3], [0, 6, 1]],
                     [[1, 3, 1], [0, 8, 4], [2, 6, 2]],
                     [[0, 4, 3], [0, 8, 1], [5, 6, 5]],
                     [[2, 4, 1], [3, 7, 2], [0, 6, 4]]]}
    for i, name in enumerate(["f32", "bf16", "f64", "i8", "u32", "i64", "bool"]):
        x = sample(name, SHAPE, i)
        c = sample(name, SHAPE, 100 + i)
        fn = (lambda a: a | c) if name == "bool" else (lambda a: a + c)
        cases.append({"kind": "constant", "x": arr(x), "c": arr(c), "out": arr(run(fn, x))})
        for dims in ops["reverse"]:
            out = run(lambda a: lax.rev(a, dims), x)
            cases.append({"kind": "reverse", "dims": dims, "x": arr(x), "out": arr(out)})
        v = sample(name, (), 50 + i)
        for cfg in ops["pad"]:
            out = run(lambda a, b: lax.pad(a, b, [tuple(t) for t in cfg]), x, v)
            cases.append({"kind": "pad", "config": cfg, "x": arr(x), "v": arr(v),
                          "out": arr(out)})
        for cfg in ops["slice"]:
            start, limit, strides = zip(*cfg)
            out = run(lambda a: lax.slice(a, start, limit, strides), x)
            cases.append({"kind": "slice", "config": cfg, "x": arr(x), "out": arr(out)})

    # dynamic_slice / dynamic_update_slice with non-negative starts (JAX's
    # lax wraps negative ones by the dim before StableHLO's op, which only
    # clamps): in range, clamped, far out; some dims taken whole.
    ds = [([1, 2, 0], [2, 4, 6]), ([3, 7, 5], [2, 3, 2]), ([0, 100, 2], [4, 1, 3])]
    dus = [([1, 0, 4], [2, 8, 3]), ([0, 9, 0], [4, 2, 6]), ([7, 3, 1], [1, 5, 5])]
    for i, (name, idx) in enumerate([("f32", "i32"), ("i8", "i64"), ("bool", "i32"),
                                     ("bf16", "u32")]):
        x = sample(name, SHAPE, 700 + i)
        for starts, sizes in ds:
            s = [DTYPES[idx](v) for v in starts]
            out = run(lambda a, *s: lax.dynamic_slice(a, s, sizes), x, *s)
            cases.append({"kind": "dynamic_slice", "x": arr(x), "starts": [arr(v) for v in s],
                          "sizes": sizes, "out": arr(out)})
        for starts, ushape in dus:
            s = [DTYPES[idx](v) for v in starts]
            u = sample(name, tuple(ushape), 800 + i)
            out = run(lambda a, b, *s: lax.dynamic_update_slice(a, b, s), x, u, *s)
            cases.append({"kind": "dynamic_update_slice", "x": arr(x), "u": arr(u),
                          "starts": [arr(v) for v in s], "out": arr(out)})

    # Gradients (f32): the cotangent ct of the result, JAX's vjp.
    x = sample("f32", SHAPE, 7)
    v = np.float32(3)
    for k, cfg in enumerate(ops["pad"]):
        f = lambda a, b: lax.pad(a, b, [tuple(t) for t in cfg])
        y, vjp = jax.vjp(f, x, v)
        ct = sample("f32", y.shape, 200 + k)
        gx, gv = vjp(ct)
        cases.append({"kind": "pad_grad", "config": cfg, "x": arr(x), "v": arr(v),
                      "ct": arr(ct), "gx": arr(gx), "gv": arr(gv)})
    for k, cfg in enumerate(ops["slice"]):
        start, limit, strides = zip(*cfg)
        y, vjp = jax.vjp(lambda a: lax.slice(a, start, limit, strides), x)
        ct = sample("f32", y.shape, 300 + k)
        cases.append({"kind": "slice_grad", "config": cfg, "x": arr(x), "ct": arr(ct),
                      "gx": arr(vjp(ct)[0])})
    for k, dims in enumerate(ops["reverse"]):
        y, vjp = jax.vjp(lambda a: lax.rev(a, dims), x)
        ct = sample("f32", y.shape, 400 + k)
        cases.append({"kind": "reverse_grad", "dims": dims, "x": arr(x), "ct": arr(ct),
                      "gx": arr(vjp(ct)[0])})

    for k, (starts, sizes) in enumerate(ds):
        s = [np.int32(v) for v in starts]
        y, vjp = jax.vjp(lambda a: lax.dynamic_slice(a, s, sizes), x)
        ct = sample("f32", y.shape, 900 + k)
        cases.append({"kind": "dynamic_slice_grad", "x": arr(x), "starts": [arr(v) for v in s],
                      "sizes": sizes, "ct": arr(ct), "gx": arr(vjp(ct)[0])})
    for k, (starts, ushape) in enumerate(dus):
        s = [np.int32(v) for v in starts]
        u = sample("f32", tuple(ushape), 950 + k)
        y, vjp = jax.vjp(lambda a, b: lax.dynamic_update_slice(a, b, s), x, u)
        ct = sample("f32", y.shape, 980 + k)
        gx, gu = vjp(ct)
        cases.append({"kind": "dynamic_update_slice_grad", "x": arr(x), "u": arr(u),
                      "starts": [arr(v) for v in s], "ct": arr(ct), "gx": arr(gx),
                      "gu": arr(gu)})

    doc = {"source": "JAX " + jax.__version__ + " (jaxlib " + jax.lib.__version__ +
                     ") on XLA's CPU backend, jax.jit of one jax.lax op per case",
           "command": ".venv/bin/python tests/jax/make_shape_vectors.py",
           "cases": cases}
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=0, sort_keys=True)
        f.write("\n")
    print(f"{args.out}: {len(cases)} cases")


if __name__ == "__main__":
    sys.exit(main())
