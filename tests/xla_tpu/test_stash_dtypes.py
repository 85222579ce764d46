#!/usr/bin/env python3
"""`shardsim plan --device tpu-v5e` held to XLA's TPU compiler on the stacked
residuals of a scan (tests/data/xla_tpu/stash_dtypes.json, made by
make_stash_dtypes.py): XLA keeps the stack the forward loop fills in bf16
when the backward loop reads it only as the operand of DEFAULT-precision
f32 dots, and in f32 when a HIGHEST dot or an elementwise op reads it.
Per case the plan's peak must be within 10 % of XLA's (argument + output +
temp); and the plan must find XLA's difference between the DEFAULT and the
HIGHEST case (the same program but for the dot's precision: half the f32
stack) within 5 %.

    python3 tests/xla_tpu/test_stash_dtypes.py SHARDSIM

Standard library only; prints TAP.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import probes  # noqa: E402
DATA = os.path.normpath(os.path.join(HERE, "..", "data", "xla_tpu", "stash_dtypes.json"))


def main(argv):
    data = probes.test_record(argv, DATA)
    if data is None:
        return 2
    devices = data["mesh"]["x"]
    checks, peaks = [], {}
    for case in data["cases"]:
        xla = case["memory"]["peak_bytes"]
        plan = probes.plan_peak(argv[1], case["lowered"], "tpu-v5e", devices)
        peaks[case["case"]] = (xla, plan)
        checks.append((f"{case['case']} ({case['what']}): plan peak {plan} B within 10 % of XLA's "
                       f"{xla} B (ratio {plan / xla:.3f})", abs(plan / xla - 1) <= 0.10))
    (xd, pd), (xh, ph) = peaks["dot_stash"], peaks["highest_stash"]
    checks.append((f"HIGHEST minus DEFAULT (an f32 stack minus a bf16 one): plan {ph - pd} B, "
                   f"XLA {xh - xd} B", xh > xd and abs((ph - pd) / (xh - xd) - 1) <= 0.05))
    return probes.tap(checks)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
