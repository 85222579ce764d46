"""The uneven-shard fixtures (tests/data/jax_uneven) are what the installed
JAX stack makes: regenerating them with make_uneven_fixtures.py and
make_uneven_op_fixtures.py (each in its own process, into one directory)
gives the checked-in files byte for byte, or the test names the files that changed
(then tests/test_uneven.c is held to the new ones once regenerated).
"""
import filecmp
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKED_IN = os.path.normpath(os.path.join(HERE, "..", "data", "jax_uneven"))


def differing(a, b, rel=""):
    cmp = filecmp.dircmp(a, b)
    out = [os.path.join(rel, f) for f in cmp.left_only + cmp.right_only + cmp.funny_files]
    out += [os.path.join(rel, f) for f in cmp.common_files
            if not filecmp.cmp(os.path.join(a, f), os.path.join(b, f), shallow=False)]
    for d in cmp.common_dirs:
        out += differing(os.path.join(a, d), os.path.join(b, d), os.path.join(rel, d))
    return out


def test_regenerating_gives_the_checked_in_fixtures(tmp_path):
    for script in ("make_uneven_fixtures.py", "make_uneven_op_fixtures.py"):
        r = subprocess.run([sys.executable, os.path.join(HERE, script),
                            "--out", str(tmp_path)], capture_output=True, text=True)
        assert r.returncode == 0, script + ": " + r.stderr[-2000:]
    changed = differing(CHECKED_IN, str(tmp_path))
    assert not changed, ("the installed JAX stack makes different uneven-shard fixtures "
                         "(regenerate with tests/jax/make_uneven_fixtures.py or "
                         "make_uneven_op_fixtures.py and review): " +
                         ", ".join(sorted(changed)[:40]))
