"""The reduction vectors (tests/data/jax_reduce/vectors.json) are what the
installed JAX stack computes: regenerating them gives the checked-in file
byte for byte, or the test names the cases whose results changed (then
tests/test_reduce_jax.c is held to the new ones once regenerated).
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKED_IN = os.path.normpath(os.path.join(HERE, "..", "data", "jax_reduce", "vectors.json"))


def test_regenerating_gives_the_checked_in_vectors(tmp_path):
    out = tmp_path / "vectors.json"
    r = subprocess.run([sys.executable, os.path.join(HERE, "make_reduce_vectors.py"),
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
    if len(old["cases"]) != len(new["cases"]):
        problems.append(f"{len(old['cases'])} cases -> {len(new['cases'])}")
    for k, (a, b) in enumerate(zip(old["cases"], new["cases"])):
        if a != b:
            problems.append(f"case {k} ({a['kind']}): "
                            f"{sorted(f for f in a if a.get(f) != b.get(f))} differ")
    assert not problems, ("the installed JAX stack computes different reduction vectors "
                          "(regenerate with tests/jax/make_reduce_vectors.py and review):\n" +
                          "\n".join(problems[:40]))
