#!/usr/bin/env python3
"""Run the tests of tests/jax/ (pytest) with the pinned JAX stack, or say
plainly why not and exit 77 (meson's "skipped").

usage: run_live.py SOURCE_ROOT

The Python used is $SS_JAX_PYTHON, else SOURCE_ROOT/.venv/bin/python (what
tools/setup.sh creates from tests/jax/requirements.txt).  It must import
jax and pytest; then `python -m pytest tests/jax` runs (the fixtures are
regenerated and compared, their outputs checked against numpy) and its
exit status is this script's.
"""
import os
import subprocess
import sys

SKIP = 77


def main(argv):
    if len(argv) != 2:
        print("usage: run_live.py SOURCE_ROOT", file=sys.stderr)
        return 2
    root = os.path.abspath(argv[1])
    py = os.environ.get("SS_JAX_PYTHON") or os.path.join(root, ".venv", "bin", "python")
    if not os.access(py, os.X_OK):
        print(f"SKIP: no JAX: {py} does not exist; `sh tools/setup.sh` creates .venv/ with "
              "tests/jax/requirements.txt (or set SS_JAX_PYTHON)")
        return SKIP
    probe = subprocess.run([py, "-c", "import jax, pytest, numpy"], capture_output=True, text=True)
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or ["?"])[-1]
        print(f"SKIP: no JAX: {py} cannot import jax, pytest and numpy ({last}); "
              "`sh tools/setup.sh` installs tests/jax/requirements.txt into .venv/")
        return SKIP
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1",
               XLA_FLAGS="--xla_force_host_platform_device_count=8", JAX_PLATFORMS="cpu")
    r = subprocess.run([py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs",
                        os.path.join(root, "tests", "jax")], env=env, cwd=root)
    return r.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv))
