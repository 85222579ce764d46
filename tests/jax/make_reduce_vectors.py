#!/usr/bin/env python3
"""Write the vectors shardsim's reductions on integer, bool and f64 arrays
and its argmax/argmin are held to, computed by JAX on XLA's CPU backend
(jax.jit of one jax.lax op per case).

    .venv/bin/python tests/jax/make_reduce_vectors.py [--out FILE]

writes tests/data/jax_reduce/vectors.json (tests/test_reduce_jax.c reads
it). "inputs" holds each operand once, cases name theirs. Arrays are little-endian bytes in hex with their dtype and shape.
Every result must match bit for bit: integer sums and products wrap as
XLA's, bool reductions are logical, and the float data (f64 sums, float
products, max and min with NaN) are chosen so that any order of operations
gives the same bits (small integers, powers of two). argmax/argmin data
have ties, signed zeros and NaNs (JAX: the first NaN, else the lowest
index of the extreme value).
Deterministic: running it again writes the same file.
"""

import argparse
import json
import os
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402
import jax  # noqa: E402
from jax import lax  # noqa: E402
import ml_dtypes  # noqa: E402

jax.config.update("jax_enable_x64", True)

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.normpath(os.path.join(HERE, "..", "data", "jax_reduce", "vectors.json"))

DTYPES = {"f32": np.float32, "bf16": ml_dtypes.bfloat16, "f16": np.float16, "f64": np.float64,
          "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64, "u8": np.uint8,
          "u32": np.uint32, "u64": np.uint64, "bool": np.bool_}
NAMES = {np.dtype(v).name if v is not ml_dtypes.bfloat16 else "bfloat16": k
         for k, v in DTYPES.items()}
SHAPE = (4, 8, 6)  # dims 0 and 1 split over the 2- and 8-device meshes
AXES = [[0], [1], [2], [0, 2], [1, 2], [0, 1, 2]]


def arr(a):
    a = np.asarray(a)
    return {"dtype": NAMES[a.dtype.name], "shape": list(a.shape),
            "hex": np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tobytes().hex()}


def data(name, seed, for_prod=False):
    rng = np.random.default_rng(seed)
    dt = DTYPES[name]
    if name == "bool":
        return rng.integers(0, 8, size=SHAPE) > 0  # mostly true: `and` is not always false
    if name in ("f32", "bf16", "f16", "f64"):
        if for_prod:  # powers of two and signs: every product is exact
            v = rng.choice([1.0, -1.0, 2.0, 0.5, -0.5, 1.0, 1.0], size=SHAPE)
        else:
            v = rng.integers(-50, 50, size=SHAPE).astype(np.float64)
            v.flat[rng.integers(0, v.size, size=6)] = np.nan
            v.flat[rng.integers(0, v.size, size=3)] = -0.0
        return v.astype(dt)
    info = np.iinfo(dt)
    v = rng.integers(max(info.min, -3 if for_prod else -2**62), min(info.max, 4 if for_prod
                                                                     else 2**62),
                     size=SHAPE, endpoint=True, dtype=np.int64 if info.min < 0 else np.uint64)
    if not for_prod:  # the extremes too, so sums wrap
        v.flat[:4] = [info.min, info.max, info.max, 1]
    return v.astype(dt)


def run(f, *args):
    return np.asarray(jax.jit(f)(*args))


MONOIDS = {"sum": (lax.add, 0), "prod": (lax.mul, 1), "and": (lax.bitwise_and, -1),
           "or": (lax.bitwise_or, 0), "max": (lax.max, None), "min": (lax.min, None)}


def init_of(op, dt):
    if op in ("max", "min"):
        if dt == np.bool_:
            return np.bool_(op == "min")
        if np.issubdtype(dt, np.integer):
            info = np.iinfo(dt)
            return dt(info.min if op == "max" else info.max)
        return np.array(-np.inf if op == "max" else np.inf, dt)
    if op == "and":
        return np.bool_(True) if dt == np.bool_ else np.array(-1).astype(dt)
    return np.array(MONOIDS[op][1]).astype(dt)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    args = ap.parse_args()
    cases, inputs = [], {}

    def put(key, x):
        inputs[key] = arr(x)
        return key

    plan = {"i8": ["sum", "prod", "max", "min", "and", "or"],
            "i32": ["sum", "prod", "max", "min", "and", "or"],
            "i64": ["sum", "prod", "max", "min", "and", "or"],
            "u8": ["sum", "prod", "max", "min", "and", "or"],
            "u32": ["sum", "max", "min", "or"],
            "u64": ["sum", "prod", "max", "min"],
            "i16": ["sum", "max"],
            "bool": ["max", "min", "and", "or"],
            "f64": ["sum", "max", "min", "prod"],
            "f32": ["prod"], "bf16": ["prod"]}
    for k, (name, ops) in enumerate(plan.items()):
        dt = DTYPES[name]
        for op in ops:
            x = data(name, 10 * k + len(op), for_prod=op == "prod")
            key = put(f"{name}_{op}", x)
            for axes in AXES:
                f = MONOIDS[op][0]
                out = run(lambda a: lax.reduce(a, init_of(op, dt), f, tuple(axes)), x)
                cases.append({"kind": "reduce", "op": op, "axes": axes, "x": key,
                              "out": arr(out)})
    for k, name in enumerate(["f32", "bf16", "f64", "i32", "u8", "i8"]):
        rng = np.random.default_rng(500 + k)
        x = data(name, 600 + k)
        if name not in ("f32", "bf16", "f64"):  # ties everywhere
            x = (rng.integers(0, 3, size=SHAPE) * (1 if name == "u8" else -1)).astype(DTYPES[name])
        key = put(f"{name}_arg", x)
        for axis in range(3):
            for is_min in (False, True):
                for idx in ("i32", "i64"):
                    f = lax.argmin if is_min else lax.argmax
                    out = run(lambda a: f(a, axis, DTYPES[idx]), x)
                    cases.append({"kind": "argmin" if is_min else "argmax", "axis": axis,
                                  "x": key, "out": arr(out)})
    doc = {"source": "JAX " + jax.__version__ + " (jaxlib " + jax.lib.__version__ +
                     ") on XLA's CPU backend, jax.jit of one jax.lax op per case",
           "command": ".venv/bin/python tests/jax/make_reduce_vectors.py",
           "inputs": inputs, "cases": cases}
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=0, sort_keys=True)
        f.write("\n")
    print(f"{args.out}: {len(cases)} cases")


if __name__ == "__main__":
    sys.exit(main())
