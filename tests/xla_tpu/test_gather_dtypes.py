#!/usr/bin/env python3
"""shardsim's ledger under `--device tpu-v5e` held to XLA's TPU compiler on
which all-gathers move bf16 (tests/data/xla_tpu/gather_dtypes.json, made by
make_gather_dtypes.py): per case, the all-gathers of XLA's partitioned HLO
and of `shardsim plan --device tpu-v5e --json`'s ledger, each as (element
type, gathered bytes), must be the same lists; and under `--device cpu-here`
shardsim gathers f32 as the program says (the narrowing is the TPU
compiler's, not the program's).

    python3 tests/xla_tpu/test_gather_dtypes.py SHARDSIM

Standard library only; prints TAP.
"""

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import probes  # noqa: E402
DATA = os.path.normpath(os.path.join(HERE, "..", "data", "xla_tpu", "gather_dtypes.json"))
ELEM = {"f32": "f32", "bf16": "bf16", "s32": "i32", "pred": "bool"}


def xla_gathers(case):
    out = []
    for c in case["collectives"]:
        if c["kind"] == "all-gather":
            et = c["operands"][0].split("[")[0]
            out += [(ELEM.get(et, et), c["result_bytes"])] * c.get("runs", 1)
    return sorted(out)


def shardsim_gathers(shardsim, mlir, device):
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(mlir)
        path = f.name
    try:
        p = subprocess.run([shardsim, "plan", path, "--json", "--device", device, "--devices", "8"],
                           capture_output=True, text=True)
    finally:
        os.unlink(path)
    if p.returncode not in (0, 1):
        raise RuntimeError(f"shardsim plan: exit {p.returncode}: {p.stderr.strip()}")
    plan = json.loads(p.stdout)
    return sorted((e["dtype"], e["bytes"]) for e in plan["ledger"]["entries"] if e["kind"] == "all_gather")


def main(argv):
    data = probes.test_record(argv, DATA)
    if data is None:
        return 2
    checks = []
    for case in data["cases"]:
        xla = xla_gathers(case)
        tpu = shardsim_gathers(argv[1], case["lowered"], "tpu-v5e")
        cpu = shardsim_gathers(argv[1], case["lowered"], "cpu-here")
        checks.append((f"{case['case']} ({case['what']}): all-gathers on TPU, XLA {xla}, shardsim {tpu}",
                       tpu == xla))
        own = {"float32": "f32", "bfloat16": "bf16"}[case["arguments"][1]["dtype"]]
        checks.append((f"{case['case']}: under cpu-here the program's own element type {own}: {cpu}",
                       bool(cpu) and all(t == own for t, _ in cpu)))
    return probes.tap(checks)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
