"""Regenerate-and-compare, shared by the fixture tests of tests/jax.

`assert_regenerates(scripts, folder, what)` runs each generator script
(in tests/jax, each in its own process, `--out TMP`) into one temporary
directory and asserts that the result equals tests/data/FOLDER byte for
byte; otherwise it names the files that changed, so a JAX upgrade shows
up as a readable list rather than as a failing numeric comparison.

One exception: JAX's float results (`outputs/*.npy`) may differ in their
last bits from one CPU to another with the same JAX, because XLA's CPU
compiler generates code for the host's vector width (the LM's reductions
regenerated on an AVX-512 AMD EPYC differ from the checked-in ones by
4.8e-7 of 5.3, an Adam moment by 1.05e-6 of its largest). Those are
compared within 1e-5 of the result's largest magnitude (the tolerance
test_import.py holds shardsim's results to); everything else (texts,
inputs, integer results, metadata) byte for byte.
"""
import filecmp
import os

import numpy as np
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def same_result(a, b):
    """Two .npy results of JAX equal as the module doc says: floats within
    1e-5 of the largest magnitude, the rest exactly."""
    x, y = np.load(a), np.load(b)
    if x.dtype != y.dtype or x.shape != y.shape:
        return False
    if x.dtype.kind != "f" or x.size == 0:
        return np.array_equal(x, y)
    xf, yf = x.astype(np.float64), y.astype(np.float64)
    if not np.array_equal(np.isnan(xf), np.isnan(yf)):
        return False
    ok = ~np.isnan(xf)
    scale = max(float(np.max(np.abs(xf[ok]), initial=0.0)), 1e-30)
    return bool(np.all(np.abs(xf[ok] - yf[ok]) <= 1e-5 * scale))


def same_file(a, b, rel):
    if filecmp.cmp(a, b, shallow=False):
        return True
    return (rel.endswith(".npy") and os.sep + "outputs" + os.sep in os.sep + rel
            and same_result(a, b))


def differing(a, b, rel=""):
    """Paths (relative to a and b) that exist on one side only or differ."""
    cmp = filecmp.dircmp(a, b)
    out = [os.path.join(rel, f) for f in cmp.left_only + cmp.right_only + cmp.funny_files]
    out += [os.path.join(rel, f) for f in cmp.common_files
            if not same_file(os.path.join(a, f), os.path.join(b, f), os.path.join(rel, f))]
    for d in cmp.common_dirs:
        out += differing(os.path.join(a, d), os.path.join(b, d), os.path.join(rel, d))
    return out


def assert_regenerates(scripts, folder, what):
    checked_in = os.path.normpath(os.path.join(HERE, "..", "data", folder))
    with tempfile.TemporaryDirectory() as tmp:
        for script in scripts:
            r = subprocess.run([sys.executable, os.path.join(HERE, script), "--out", tmp],
                               capture_output=True, text=True)
            assert r.returncode == 0, script + ": " + r.stderr[-2000:]
        changed = differing(checked_in, tmp)
    assert not changed, (f"the installed JAX stack makes different {what} fixtures "
                         f"(regenerate with tests/jax/{' or '.join(scripts)} and review): " +
                         ", ".join(sorted(changed)[:40]))
