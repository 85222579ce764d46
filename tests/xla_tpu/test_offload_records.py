"""make_offload_records.py regenerates tests/data/jax_offload_tpu exactly:
the TPU lowerings, XLA's TPU memory analysis and JAX's CPU outputs that
tests/test_host_offload.c checks shardsim against are what the pinned JAX
and libtpu make of the programs (run by run_live.py with the TPU venv)."""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DATA = os.path.join(ROOT, "tests", "data", "jax_offload_tpu")


def files_under(d):
    return sorted(os.path.relpath(os.path.join(r, f), d) for r, _, fs in os.walk(d) for f in fs)


def test_offload_records_regenerate_identically(tmp_path):
    env = dict(os.environ, JAX_PLATFORMS="cpu", TPU_SKIP_MDS_QUERY="1",
               XLA_FLAGS="--xla_force_host_platform_device_count=8")
    r = subprocess.run([sys.executable, os.path.join(HERE, "make_offload_records.py"), "--out", str(tmp_path)],
                       env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    assert files_under(str(tmp_path)) == files_under(DATA)
    for rel in files_under(DATA):
        with open(os.path.join(DATA, rel), "rb") as a, open(os.path.join(tmp_path, rel), "rb") as b:
            assert a.read() == b.read(), f"{rel} differs from what make_offload_records.py writes now"
