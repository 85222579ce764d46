"""The elementwise vectors (tests/data/jax_elementwise/vectors.json) are
what the installed JAX stack computes: regenerating them gives the
checked-in file byte for byte (float results within the tolerance the C
test allows: XLA's NaN bits and transcendental functions depend on the
CPU), or the test names the cases whose results changed (a JAX or XLA upgrade that changes an op's result on CPU shows up
here, then in tests/test_elementwise_jax.c once regenerated).
"""
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKED_IN = os.path.normpath(os.path.join(HERE, "..", "data", "jax_elementwise",
                                           "vectors.json"))


def _key(c):
    return (c["op"], c["kind"], tuple(c["in"]), c.get("dir"), c.get("type"), c.get("to"))


_FLOAT_BITS = {"f32": ("<u4", 23, 32), "f64": ("<u8", 52, 64), "bf16": ("<u2", 7, 16),
               "f16": ("<u2", 10, 16)}


def _same_within_tolerance(old, new):
    """A float case XLA computes differently on another CPU still agrees if
    only NaN signs or payloads differ, or values by at most the case's
    "ulps" (the rule tests/test_elementwise_jax.c applies: XLA's results
    for transcendental functions and NaN bits depend on the CPU's vector
    code)."""
    if set(old) != set(new) or any(old[f] != new[f] for f in old if f != "out"):
        return False
    dt = old.get("dtype")
    if dt not in _FLOAT_BITS:
        return False
    code, mant, bits = _FLOAT_BITS[dt]
    a = [int(v) for v in np.frombuffer(bytes.fromhex(old["out"]), code)]
    b = [int(v) for v in np.frombuffer(bytes.fromhex(new["out"]), code)]
    if len(a) != len(b):
        return False
    sign, exp = 1 << (bits - 1), ((1 << (bits - 1)) - 1) & ~((1 << mant) - 1)

    def nan(u):
        return (u & exp) == exp and (u & ((1 << mant) - 1)) != 0

    def ordered(u):
        return -(u & (sign - 1)) if u & sign else u

    return all(nan(x) and nan(y) if nan(x) or nan(y) else abs(ordered(x) - ordered(y)) <= old["ulps"]
               for x, y in zip(a, b))


def test_regenerating_gives_the_checked_in_vectors(tmp_path):
    out = tmp_path / "vectors.json"
    r = subprocess.run([sys.executable, os.path.join(HERE, "make_elementwise_vectors.py"),
                        "--out", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    with open(CHECKED_IN, "rb") as f:
        old_bytes = f.read()
    new_bytes = out.read_bytes()
    if old_bytes == new_bytes:
        return
    old, new = json.loads(old_bytes), json.loads(new_bytes)
    problems = []
    if old["source"] != new["source"]:
        problems.append(f"source: {old['source']!r} -> {new['source']!r}")
    for name in sorted(set(old["inputs"]) | set(new["inputs"])):
        if old["inputs"].get(name) != new["inputs"].get(name):
            problems.append(f"input {name} differs")
    oc = {_key(c): c for c in old["cases"]}
    nc = {_key(c): c for c in new["cases"]}
    for k in sorted(set(oc) | set(nc), key=str):
        if k not in nc:
            problems.append(f"case {k} is gone")
        elif k not in oc:
            problems.append(f"case {k} is new")
        elif oc[k] != nc[k] and not _same_within_tolerance(oc[k], nc[k]):
            problems.append(f"case {k}: {sorted(f for f in oc[k] if oc[k].get(f) != nc[k].get(f))} "
                            "differ")
    assert not problems, ("the installed JAX stack computes different elementwise vectors "
                          "(regenerate with tests/jax/make_elementwise_vectors.py and review):\n" +
                          "\n".join(problems[:40]))
