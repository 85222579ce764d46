#!/usr/bin/env python3
"""shardsim's model of XLA's TPU bookkeeping heap (sim/spmd/xla_bookkeeping.c)
held to what libtpu reported (tests/data/xla_tpu/temp_slots.json, made by
make_temp_slots.py) for every case whose program the tests hold
(tests/data/xla_tpu/PROGRAM/TOPOLOGY/lowered.mlir, at XLA's default 16 KiB
HBM alignment): `shardsim plan --device tpu-* --json --explain-memory`
lists the heap as one "bookkeeping" entry of the peak, and

  - the trigger: it is there exactly when XLA counted its heap in
    temp_size_in_bytes (not 0);
  - its bytes are whole slots of 2A - 512 B (A = 16 KiB), the bytes a
    slot adds to temp_size_in_bytes;
  - its slots are within 10 % of XLA's slots that hold no array of the
    program (every slot on v5e; on v5p less those holding the loops'
    stacks and prefetched arrays, which the plan counts as arrays);
  - the peak's entries add up to the planned peak;
  - without --device (shardsim's own devices) there is no such entry.

    python3 tests/xla_tpu/test_bookkeeping.py SHARDSIM

Standard library only; prints TAP.
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.normpath(os.path.join(HERE, "..", "data", "xla_tpu"))
TOLERANCE = 0.10


def plan(shardsim, mlir, device):
    cmd = [shardsim, "plan", mlir, "--json", "--explain-memory"] + (["--device", device] if device else [])
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"test_bookkeeping: {' '.join(cmd)}: {p.stderr.strip()}")
    return json.loads(p.stdout)["memory"]


def main(argv):
    if len(argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    shardsim = argv[1]
    with open(os.path.join(DATA, "temp_slots.json"), encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    checks = []
    for c in cases:
        program, _, topology = c["program"].partition("@")
        mlir = os.path.join(DATA, program, topology.replace(":", "_"), "lowered.mlir")
        if c["case"] != c["program"] or c["alignment_kib"] != 16 or not os.path.exists(mlir):
            continue
        device = "tpu-v5e" if topology.startswith("v5e") else "tpu-v5p"
        mem = plan(shardsim, mlir, device)
        bufs = mem["peak_buffers"]
        book = sum(b["bytes"] for b in bufs if b["role"] == "bookkeeping")
        counted = c["temp_size_in_bytes"] > 0
        name = c["case"]
        checks.append((f"{name}: bookkeeping {'listed' if book else 'absent'} "
                       f"(XLA {'counts' if counted else 'does not count'} its {c['heap_slots']}-slot heap)",
                       (book > 0) == counted))
        checks.append((f"{name}: the peak's {len(bufs)} entries add up to the planned peak",
                       sum(b["bytes"] for b in bufs) == mem["plan_peak_bytes"]))
        if counted:
            slot = 2 * c["alignment_kib"] * 1024 - 512
            want = c["heap_slots"] - c.get("heap_array_slots", 0)
            got = book / slot
            checks.append((f"{name}: {got:g} slots of {slot} B, XLA's heap {want} without an array "
                           f"(ratio {got / want:.3f})",
                           got == int(got) and abs(got / want - 1) <= TOLERANCE))
        cpu = plan(shardsim, mlir, None)
        checks.append((f"{name}: no bookkeeping without --device",
                       not [b for b in cpu.get("peak_buffers", []) if b["role"] == "bookkeeping"]))
    print(f"1..{len(checks)}")
    for i, (what, ok) in enumerate(checks, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {what}")
    return 0 if all(ok for _, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
