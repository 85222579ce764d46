#!/usr/bin/env python3
"""Run the Python package's tests (pytest, tests/python) against the package
built in BUILD/python, or say plainly why not and exit 77 (meson's skip).

usage: run.py SOURCE_ROOT BUILD_PYTHON_DIR SHARDSIM_EXE

The Python is $SS_JAX_PYTHON, else SOURCE_ROOT/.venv/bin/python (the
pinned JAX stack of tests/jax/requirements.txt, which has numpy and
pytest); the tests that compare with JAX or Flax skip themselves where
those are missing.
"""
import os
import subprocess
import sys

SKIP = 77


def main(argv):
    if len(argv) != 4:
        print("usage: run.py SOURCE_ROOT BUILD_PYTHON_DIR SHARDSIM_EXE", file=sys.stderr)
        return 2
    root, pkg_dir, exe = (os.path.abspath(a) for a in argv[1:])
    py = os.environ.get("SS_JAX_PYTHON") or os.path.join(root, ".venv", "bin", "python")
    if not os.access(py, os.X_OK):
        print(f"SKIP: {py} does not exist; `sh tools/setup.sh` creates .venv/ with numpy "
              "and pytest (or set SS_JAX_PYTHON)")
        return SKIP
    probe = subprocess.run([py, "-c", "import numpy, pytest"], capture_output=True, text=True)
    if probe.returncode != 0:
        print(f"SKIP: {py} cannot import numpy and pytest: "
              f"{(probe.stderr.strip().splitlines() or ['?'])[-1]}")
        return SKIP
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=pkg_dir, SHARDSIM=exe,
               SHARDSIM_ROOT=root, XLA_FLAGS="--xla_force_host_platform_device_count=8",
               JAX_PLATFORMS="cpu")
    r = subprocess.run([py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs",
                        os.path.join(root, "tests", "python")], env=env, cwd=root)
    return r.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv))
