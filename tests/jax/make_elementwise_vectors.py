#!/usr/bin/env python3
"""Write the elementwise vectors shardsim's exact path is held to: every
elementwise op on edge values of every dtype, computed by JAX on XLA's CPU
backend (jax.jit of one jax.lax op).

    .venv/bin/python tests/jax/make_elementwise_vectors.py [--out FILE]

writes tests/data/jax_elementwise/vectors.json (tests/test_elementwise_jax.c
reads it).  Arrays are little-endian bytes in hex.  "inputs" holds each
dtype's operand arrays once (a, b: every pair of its edge values, so binary
ops see each combination; c: a third operand for clamp); each case names
its operands, the op (shardsim's builder spelling) and JAX's result.
"ulps" is the tolerance the C test allows in units in the last place of
the result's dtype: 0 (bit for bit) for the exact ops, a few for the
transcendental ones (2 in f32 and f64, 1 in bf16 and f16), whose XLA CPU
approximations are not libm's.

TOTALORDER comparisons are not reachable from jax.lax with every
direction; their expected values come from numpy on a sort key (the
IEEE 754 totalOrder predicate), written here, not from shardsim.
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

jax.config.update("jax_enable_x64", True)  # i64, u64 and f64 as themselves

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.normpath(
    os.path.join(HERE, "..", "data", "jax_elementwise", "vectors.json"))

INTS = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
        "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64}
FLOATS = {"f32": np.float32, "bf16": ml_dtypes.bfloat16, "f16": np.float16,
          "f64": np.float64}
ALL = dict(INTS, **FLOATS, bool=np.bool_)


def hexof(a):
    return np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tobytes().hex()


def int_edges(dt):
    info = np.iinfo(dt)
    vals = [0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 63, 64, 100]
    if info.min < 0:
        vals += [-1, -2, -7, -8, -100]
    vals += [info.min, info.min + 1, info.max, info.max - 1]
    out = []
    for v in vals:
        if info.min <= v <= info.max and v not in out:
            out.append(v)
    return np.array(out, dtype=dt)


def float_edges(dt):
    fi = ml_dtypes.finfo(dt) if dt is ml_dtypes.bfloat16 else np.finfo(dt)
    vals = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, -3.0, 0.1, 7.25,
            -100.0, 1e4, 3e9, -3e9, float(fi.max), float(fi.tiny), float("inf"),
            float("-inf"), float("nan")]
    return np.array(vals, dtype=np.float64).astype(dt)


def pairs(edges):
    a = np.repeat(edges, len(edges))
    b = np.tile(edges, len(edges))
    return a, b


class Rejected(Exception):
    pass


def run(f, *args):
    try:
        return np.asarray(jax.jit(f)(*args))
    except TypeError as e:  # JAX's dtype rules: the op does not exist there
        raise Rejected(str(e).split("\n")[0]) from None


BIN_INT = {"add": lax.add, "sub": lax.sub, "mul": lax.mul, "div": lax.div,
           "remainder": lax.rem, "max": lax.max, "min": lax.min,
           "and": lax.bitwise_and, "or": lax.bitwise_or, "xor": lax.bitwise_xor,
           "shift_left": lax.shift_left,
           "shift_right_arithmetic": lax.shift_right_arithmetic,
           "shift_right_logical": lax.shift_right_logical}
UN_INT = {"neg": lax.neg, "abs": lax.abs, "sign": lax.sign, "not": lax.bitwise_not,
          "popcnt": lax.population_count, "square": lax.square,
          "count_leading_zeros": lax.clz}
BIN_FLOAT = {"add": lax.add, "sub": lax.sub, "mul": lax.mul, "div": lax.div,
             "remainder": lax.rem, "max": lax.max, "min": lax.min, "pow": lax.pow,
             "atan2": lax.atan2, "next_after": lax.nextafter}
UN_FLOAT = {"neg": lax.neg, "abs": lax.abs, "sign": lax.sign, "floor": lax.floor,
            "ceil": lax.ceil,
            "round_nearest_even": lambda x: lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN),
            "round_nearest_afz": lambda x: lax.round(x, lax.RoundingMethod.AWAY_FROM_ZERO),
            "sqrt": lax.sqrt, "square": lax.square, "is_finite": lax.is_finite,
            "exp": lax.exp, "log": lax.log, "tanh": lax.tanh, "rsqrt": lax.rsqrt,
            "sine": lax.sin, "cosine": lax.cos, "tan": lax.tan, "erf": lax.erf,
            "exponential_minus_one": lax.expm1, "log_plus_one": lax.log1p,
            "logistic": lax.logistic, "cbrt": lax.cbrt, "erf_inv": lax.erf_inv}
# Bit for bit: IEEE's correctly rounded ops and the ones with no rounding.
EXACT_FLOAT = {"add", "sub", "mul", "div", "remainder", "max", "min", "neg", "abs",
               "sign", "floor", "ceil", "round_nearest_even", "round_nearest_afz", "sqrt",
               "square", "is_finite", "next_after"}
CMP = {"EQ": lax.eq, "NE": lax.ne, "LT": lax.lt, "LE": lax.le, "GT": lax.gt, "GE": lax.ge}


def ulps_for(op, name):
    if op in EXACT_FLOAT:
        return 0
    return 1 if name in ("bf16", "f16") else 2


def total_key(x):
    """IEEE 754 totalOrder as an integer key (sign-magnitude flipped)."""
    b = x.astype(np.float64).view(np.uint64).astype(object)
    return [(~v & 0xFFFFFFFFFFFFFFFF) if v >> 63 else v | (1 << 63) for v in b]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    args = ap.parse_args()

    inputs, cases = {}, []

    def put(name, arr):
        inputs[name] = {"dtype": dname(arr), "n": int(arr.size), "hex": hexof(arr)}

    def case(op, kind, ins, out, ulps=0, **extra):
        c = {"op": op, "kind": kind, "in": ins, "out": hexof(out), "ulps": ulps}
        c.update(extra)
        cases.append(c)

    names = {np.dtype(v).name if v is not ml_dtypes.bfloat16 else "bfloat16": k
             for k, v in ALL.items()}

    def dname(arr):
        return names[arr.dtype.name]

    for name, dt in list(INTS.items()) + list(FLOATS.items()) + [("bool", np.bool_)]:
        if name == "bool":
            edges = np.array([False, True], dtype=np.bool_)
        elif name in INTS:
            edges = int_edges(dt)
        else:
            with np.errstate(over="ignore"):  # 3e9 is inf in f16, as intended
                edges = float_edges(dt)
        a, b = pairs(edges)
        c = np.roll(b, 3)
        put(name + "_a", a), put(name + "_b", b), put(name + "_c", c), put(name + "_e", edges)
        A, B, C = name + "_a", name + "_b", name + "_c"

        def emit(op, kind, ins, out, ulps=0, **extra):
            if callable(out):
                try:
                    out = out()
                except Rejected as e:
                    cases.append({"op": op, "kind": kind, "in": ins, "rejected": str(e),
                                  "operand_dtype": name})
                    return
            case(op, kind, ins, out, ulps, **extra)
            cases[-1]["dtype"] = dname(out)

        if name == "bool":
            for op, f in (("and", lax.bitwise_and), ("or", lax.bitwise_or),
                          ("xor", lax.bitwise_xor), ("add", lax.add), ("mul", lax.mul),
                          ("max", lax.max), ("min", lax.min)):
                emit(op, "binary", [A, B], lambda f=f: run(f, a, b))
            emit("not", "unary", [name + "_e"], run(lax.bitwise_not, edges))
        elif name in INTS:
            for op, f in BIN_INT.items():
                emit(op, "binary", [A, B], lambda f=f: run(f, a, b))
            for op, f in UN_INT.items():
                emit(op, "unary", [name + "_e"], lambda f=f: run(f, edges))
        else:
            for op, f in BIN_FLOAT.items():
                emit(op, "binary", [A, B], lambda f=f: run(f, a, b), ulps_for(op, name))
            for op, f in UN_FLOAT.items():
                emit(op, "unary", [name + "_e"], lambda f=f: run(f, edges), ulps_for(op, name))
        ctype = ("FLOAT" if name in FLOATS else "UNSIGNED" if name == "bool" or name[0] == "u"
                 else "SIGNED")
        for d, f in CMP.items():
            emit("compare", "compare", [A, B], run(f, a, b), dir=d, type=ctype)
        if name in FLOATS:
            ka, kb = total_key(a), total_key(b)
            tot = {"EQ": [x == y for x, y in zip(ka, kb)], "NE": [x != y for x, y in zip(ka, kb)],
                   "LT": [x < y for x, y in zip(ka, kb)], "LE": [x <= y for x, y in zip(ka, kb)],
                   "GT": [x > y for x, y in zip(ka, kb)], "GE": [x >= y for x, y in zip(ka, kb)]}
            for d, v in tot.items():
                emit("compare", "compare", [A, B], np.array(v, dtype=np.bool_), dir=d,
                     type="TOTALORDER", source="numpy totalOrder key")
        pred = run(lambda x, y: lax.lt(x, y), a, b) if name != "bool" else a
        put(name + "_p", pred)
        emit("select", "select", [name + "_p", A, B], run(lax.select, pred, a, b))
        if name != "bool":
            # lax.clamp(min, x, max) with per-element bounds a <= ... and c
            emit("clamp", "clamp", [A, B, C], run(lax.clamp, a, b, c))
        for to, tdt in ALL.items():
            if to == name:
                continue
            emit("convert", "convert", [A],
                 lambda tdt=tdt: run(lambda x: lax.convert_element_type(x, tdt), a), 0, to=to)
            if np.dtype(tdt).itemsize == np.dtype(dt).itemsize and "bool" not in (to, name):
                emit("bitcast_convert", "bitcast", [A],
                     lambda tdt=tdt: run(lambda x: lax.bitcast_convert_type(x, tdt), a), 0, to=to)

    doc = {
        "source": "JAX " + jax.__version__ + " (jaxlib " + jax.lib.__version__ +
                  ") on XLA's CPU backend, jax.jit of one jax.lax op per case",
        "command": ".venv/bin/python tests/jax/make_elementwise_vectors.py",
        "inputs": inputs,
        "cases": cases,
    }
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=0, sort_keys=True)
        f.write("\n")
    print(f"{args.out}: {len(cases)} cases, {len(inputs)} input arrays")


if __name__ == "__main__":
    sys.exit(main())
