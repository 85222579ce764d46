"""Where a `shardsim run --trace` spent its device time: per kernel name and
per event category, summed over every device and divided by the steps.

    python3 bench/trace_summary.py TRACE.json STEPS [TOP]

Device time is thread time on a virtual device's track: on a machine with
fewer cores than devices it adds up to more than the wall time (the
collectives' and waits' shares are mostly time a device spent parked).
"""
import collections
import json
import sys


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    path, steps = sys.argv[1], int(sys.argv[2])
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    with open(path) as f:
        t = json.load(f)
    events = t["traceEvents"] if isinstance(t, dict) else t
    cats, kernels, counts = collections.Counter(), collections.Counter(), collections.Counter()
    for e in events:
        if e.get("ph") != "X":
            continue
        cats[e.get("cat")] += e["dur"]
        if e.get("cat") == "kernel":
            kernels[e["name"]] += e["dur"]
            counts[e["name"]] += 1
    print("category     ms/step (summed over devices)")
    for k, v in cats.most_common():
        print(f"  {k:<10} {v / 1e3 / steps:10.1f}")
    print("kernel       ms/step   calls/step")
    for k, v in kernels.most_common(top):
        print(f"  {k:<10} {v / 1e3 / steps:10.1f} {counts[k] / steps:8.0f}")


if __name__ == "__main__":
    main()
