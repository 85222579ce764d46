"""Fixtures of the Python package's tests: the CLI beside the package, to
compare the package's answers with the command line's on the same files."""
import json
import os
import subprocess

import pytest

ROOT = os.environ.get("SHARDSIM_ROOT", os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))


@pytest.fixture
def cli():
    """cli(args...) -> the parsed --json output of the shardsim command."""
    exe = os.environ.get("SHARDSIM")
    if not exe:
        pytest.skip("SHARDSIM (the shardsim command) is not set: run through meson test")

    def run(*args, check=True):
        p = subprocess.run([exe, *args, "--json"], capture_output=True, text=True, cwd=ROOT)
        if check and p.returncode != 0:
            raise AssertionError(f"shardsim {' '.join(args)}: exit {p.returncode}: {p.stderr}")
        return json.loads(p.stdout) if p.stdout.strip() else None
    return run


@pytest.fixture(scope="session")
def root():
    return ROOT
