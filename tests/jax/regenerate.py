"""Regenerate-and-compare, shared by the fixture tests of tests/jax.

`assert_regenerates(scripts, folder, what)` runs each generator script
(in tests/jax, each in its own process, `--out TMP`) into one temporary
directory and asserts that the result equals tests/data/FOLDER byte for
byte; otherwise it names the files that changed, so a JAX upgrade shows
up as a readable list rather than as a failing numeric comparison.
"""
import filecmp
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def differing(a, b, rel=""):
    """Paths (relative to a and b) that exist on one side only or differ."""
    cmp = filecmp.dircmp(a, b)
    out = [os.path.join(rel, f) for f in cmp.left_only + cmp.right_only + cmp.funny_files]
    out += [os.path.join(rel, f) for f in cmp.common_files
            if not filecmp.cmp(os.path.join(a, f), os.path.join(b, f), shallow=False)]
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
