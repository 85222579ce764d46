#!/usr/bin/env python3
"""Compile one small record live with XLA's TPU compiler and compare it
with the checked-in one, or say plainly why not and exit 77 (skipped).

usage: run_live.py SOURCE_ROOT

The Python is $SS_TPU_PYTHON, else SOURCE_ROOT/tests/xla_tpu/.venv/bin/python
(tests/xla_tpu/requirements.txt).  It must import jax and libtpu.  Then
make_records.py writes flax_linen_train_step@v5e:2x4 into a temporary
directory; its memory analysis and collectives must equal the record in
tests/data/xla_tpu/ (XLA's compile is deterministic; times and RSS differ
and are not compared).
"""
import json
import os
import subprocess
import sys
import tempfile

SKIP = 77
PAIR = ("flax_linen_train_step", "v5e:2x4")


def main(argv):
    if len(argv) != 2:
        print("usage: run_live.py SOURCE_ROOT", file=sys.stderr)
        return 2
    root = os.path.abspath(argv[1])
    py = os.environ.get("SS_TPU_PYTHON") or os.path.join(root, "tests", "xla_tpu", ".venv", "bin", "python")
    if not os.access(py, os.X_OK):
        print(f"SKIP: no libtpu: {py} does not exist; install tests/xla_tpu/requirements.txt into "
              "tests/xla_tpu/.venv (or set SS_TPU_PYTHON)")
        return SKIP
    probe = subprocess.run([py, "-c", "import jax, libtpu"], capture_output=True, text=True)
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or ["?"])[-1]
        print(f"SKIP: no libtpu: {py} cannot import jax and libtpu ({last})")
        return SKIP
    with tempfile.TemporaryDirectory() as out:
        r = subprocess.run([py, os.path.join(root, "tests", "xla_tpu", "make_records.py"), "--out", out,
                            "--only", "@".join(PAIR)], capture_output=True, text=True)
        print(r.stdout + r.stderr[-2000:])
        if r.returncode != 0:
            return 1
        sub = os.path.join(PAIR[0], PAIR[1].replace(":", "_"), "record.json")
        with open(os.path.join(out, sub), encoding="utf-8") as f:
            live = json.load(f)
    with open(os.path.join(root, "tests", "data", "xla_tpu", sub), encoding="utf-8") as f:
        kept = json.load(f)
    bad = [k for k in ("memory_analysis", "collectives", "arguments", "entry_computation_layout")
           if live[k] != kept[k]]
    for k in bad:
        print(f"live {k} differs from the record: {live[k]!r:.300} vs {kept[k]!r:.300}")
    if not bad:
        print(f"{'@'.join(PAIR)}: live compile equals the record "
              f"(peak {live['memory_analysis']['peak_bytes']} B, compile {live['seconds']['compile']:.2f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
