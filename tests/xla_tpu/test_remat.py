#!/usr/bin/env python3
"""shardsim's model of XLA's rematerialisation (sim/spmd/xla_remat.c) held
to libtpu's: for each fit-sweep record of tests/data/xla_tpu/remat.json
(make_remat.py: the *.remat instructions of XLA's optimized HLO),
`shardsim plan --device tpu-v5e|tpu-v5p --explain-memory --json` lists as
recomputed the same number of values, of the same per-device bytes, of
the same layers: the guide's MLP is four DotReluDot blocks, two
dot_generals each, forward first, so the k-th dot_general of the lowered
program (by line) is block k // 2's, and XLA names the block in its
op_name (DotReluDot_k/Dense_0). And the budget measured from libtpu's log
is the same for both probe sizes of a chip (a per-chip figure, what
sim/spmd/profiles.c's *_REMAT_BUDGET assumes). Beside it, the sums XLA
writes in bf16 (sim/spmd/xla_narrow.c): on every compiled fit-sweep
record, each all-reduce result the plan holds at its peak has the bytes
of one of XLA's all-reduce results (record.json's result_bytes, half the
f32 operand's for the MLP's six activation sums).

    python3 tests/xla_tpu/test_remat.py SHARDSIM

Standard library only; prints TAP.
"""

import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get("SS_XLA_TPU_DATA") or os.path.normpath(os.path.join(HERE, "..", "data", "xla_tpu"))
DEVICE = {"v5e": "tpu-v5e", "v5p": "tpu-v5p"}
BYTES = {"f32": 4, "bf16": 2, "s32": 4, "pred": 1}


def shape_bytes(shape):
    m = re.match(r"(\w+)\[([\d,]*)\]", shape)
    n = BYTES[m.group(1)]
    for d in filter(None, m.group(2).split(",")):
        n *= int(d)
    return n


def dot_lines(mlir):
    with open(mlir, encoding="utf-8") as f:
        return [k for k, line in enumerate(f, 1) if "stablehlo.dot_general" in line]


def main(argv):
    if len(argv) != 2:
        print("usage: test_remat.py SHARDSIM", file=sys.stderr)
        return 2
    with open(os.path.join(DATA, "remat.json"), encoding="utf-8") as f:
        rec = json.load(f)
    checks = []
    for chip in sorted({b["topology"] for b in rec["budgets"]}):
        got = {b["budget"] for b in rec["budgets"] if b["topology"] == chip}
        checks.append((f"{chip}: one budget for every probe ({sorted(got)})", len(got) == 1))
    for d in rec["dumps"]:
        topo = d["topology"].replace(":", "_")
        mlir = os.path.join(DATA, d["program"], topo, "lowered.mlir")
        p = subprocess.run([argv[1], "plan", mlir, "--device", DEVICE[topo[:3]], "--explain-memory", "--json"],
                           capture_output=True, text=True)
        if p.returncode not in (0, 1):
            checks.append((f"{d['program']}@{d['topology']}: plan ({p.stderr.strip()})", False))
            continue
        plan = [b for b in json.loads(p.stdout)["memory"]["peak_buffers"] if b["role"] == "recomputed"]
        xla = d["recomputed"]
        what = f"{d['program']}@{d['topology']}"
        checks.append((f"{what}: {len(plan)} values recomputed, XLA {len(xla)}", len(plan) == len(xla)))
        checks.append((f"{what}: their bytes {sorted(b['bytes'] for b in plan)}, XLA's "
                       f"{sorted(shape_bytes(x['shape']) for x in xla)}",
                       sorted(b["bytes"] for b in plan) == sorted(shape_bytes(x["shape"]) for x in xla)))
        lines = dot_lines(mlir)
        ours = sorted(lines.index(b["line"]) // 2 if b["line"] in lines else -1 for b in plan)
        theirs = sorted(int(re.search(r"DotReluDot_(\d+)/Dense_0", x["op_name"] or "").group(1))
                        if re.search(r"DotReluDot_(\d+)/Dense_0", x["op_name"] or "") else -2 for x in xla)
        checks.append((f"{what}: blocks recomputed {ours}, XLA's {theirs}", ours == theirs))
    for path in sorted(os.listdir(DATA)):
        if not path.startswith("flax_linen_fit_"):
            continue
        for topo in sorted(os.listdir(os.path.join(DATA, path))):
            with open(os.path.join(DATA, path, topo, "record.json"), encoding="utf-8") as f:
                r = json.load(f)
            if "collectives" not in r:
                continue
            mlir = os.path.join(DATA, path, topo, "lowered.mlir")
            p = subprocess.run([argv[1], "plan", mlir, "--device", DEVICE[topo[:3]], "--explain-memory", "--json"],
                               capture_output=True, text=True)
            sums = [b["bytes"] for b in json.loads(p.stdout)["memory"]["peak_buffers"]
                    if b["buffer"].endswith("all_reduce")]
            xla = {c["result_bytes"] for c in r["collectives"] if c["kind"] == "all-reduce"}
            checks.append((f"{path}@{topo}: the plan's {len(sums)} all-reduce results at its peak "
                           f"{sorted(set(sums))} among XLA's result sizes {sorted(xla)}",
                           bool(sums) and set(sums) <= xla))
    print(f"1..{len(checks)}")
    for i, (what, ok) in enumerate(checks, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {what}")
    return 0 if all(ok for _, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
