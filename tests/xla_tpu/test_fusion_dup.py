#!/usr/bin/env python3
"""`shardsim plan --device tpu-v5p` held to XLA's TPU compiler on values it
duplicates into every kernel that reads them (tests/data/xla_tpu/
fusion_dup.json, made by make_fusion_dup.py): an f32 exp, divide, tanh, log
or rsqrt of an argument read by a reduction and a dot, or by two dots, and
the gradient of a cross-entropy over f32 logits, each compiled for one chip
of v5p:2x2x2.  XLA materialises none of the elementwise values (the
compiled HLO computes the probed op in each of its readers' fusions), so
its temporaries are nothing, or the logits alone.  Per case: XLA's HLO
computes the op more than once (the reference is a duplication), and the
plan's peak is within 5 % of XLA's (argument + output + temp; a
materialised value would add its 512 MiB, at least 60 %).

    python3 tests/xla_tpu/test_fusion_dup.py SHARDSIM

Standard library only; prints TAP.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import probes  # noqa: E402
DATA = os.path.normpath(os.path.join(HERE, "..", "data", "xla_tpu", "fusion_dup.json"))


def main(argv):
    data = probes.test_record(argv, DATA)
    if data is None:
        return 2
    devices = data["mesh"]["x"]
    checks = []
    for case in data["cases"]:
        xla = case["memory"]["peak_bytes"]
        plan = probes.plan_peak(argv[1], case["lowered"], "tpu-v5p", devices)
        checks.append((f"{case['case']}: XLA's compiled HLO computes {case['op']} in "
                       f"{case['op_copies']} places", case["op_copies"] >= 2))
        checks.append((f"{case['case']} ({case['what']}): plan peak {plan} B within 5 % of XLA's "
                       f"{xla} B (ratio {plan / xla:.3f})", abs(plan / xla - 1) <= 0.05))
    return probes.tap(checks)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
