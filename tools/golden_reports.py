#!/usr/bin/env python3
"""Golden comparison of shardsim's reports: behaviour kept across a restructuring.

    tools/golden_reports.py write DIR [--shardsim build/shardsim]
    tools/golden_reports.py compare DIR [--shardsim build/shardsim]

`write` runs `run --json`, `plan --json` and `run --explain --json` on every
scenario in scenarios/ (and `plan --json` with every strategy of
scenarios/strategies/ on the transformer), drops the measured wall-clock
times (steps.*_seconds and plan's seconds, the only values that vary
between two runs of one build) and stores one canonical JSON file per invocation in DIR. `compare`
does the same into memory and prints the first difference of each report
that differs from DIR's; it exits 1 if any does, 0 when all are identical.
Exit status and stderr are part of the record, so an error that changes its
wording is a difference too.
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VOLATILE = {("steps", "median_seconds"), ("steps", "first_seconds"),
            ("steps", "compile_seconds"), ("seconds",)}


def invocations():
    scen = sorted(f for f in os.listdir(os.path.join(ROOT, "scenarios")) if f.endswith(".shard"))
    for f in scen:
        path = "scenarios/" + f
        yield f[:-6] + ".run", ["run", path, "--json"]
        yield f[:-6] + ".plan", ["plan", path, "--json"]
        yield f[:-6] + ".explain", ["run", path, "--explain", "--json", "--steps", "1"]
    strat = sorted(os.listdir(os.path.join(ROOT, "scenarios", "strategies")))
    for s in strat:
        yield "transformer.plan." + s[:-4], ["plan", "scenarios/transformer.shard", "--json",
                                            "--strategy", "scenarios/strategies/" + s]


def scrub(x, path=()):
    if isinstance(x, dict):
        return {k: scrub(v, path + (k,)) for k, v in x.items() if path[-1:] + (k,) not in VOLATILE}
    if isinstance(x, list):
        return [scrub(v, path) for v in x]
    return x


def record(shardsim, argv):
    env = dict(os.environ, NO_COLOR="1")
    p = subprocess.run([shardsim] + argv, cwd=ROOT, capture_output=True, text=True, env=env,
                       timeout=600)
    try:
        out = scrub(json.loads(p.stdout))
    except ValueError:
        out = p.stdout
    return {"argv": argv, "exit": p.returncode, "stderr": p.stderr, "stdout": out}


def first_diff(a, b, path="$"):
    if type(a) is not type(b):
        return f"{path}: {a!r:.200} != {b!r:.200}"
    if isinstance(a, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a or k not in b:
                return f"{path}.{k}: only in {'golden' if k in a else 'new'}"
            d = first_diff(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        if list(a) != list(b):
            return f"{path}: key order {list(a)} != {list(b)}"
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: length {len(a)} != {len(b)}"
        for i, (u, v) in enumerate(zip(a, b)):
            d = first_diff(u, v, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a!r:.200} != {b!r:.200}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=["write", "compare"])
    ap.add_argument("dir")
    ap.add_argument("--shardsim", default=os.path.join(ROOT, "build", "shardsim"))
    args = ap.parse_args()
    shardsim = os.path.abspath(args.shardsim)
    os.makedirs(args.dir, exist_ok=True) if args.mode == "write" else None
    bad = 0
    n = 0
    for name, argv in invocations():
        n += 1
        rec = record(shardsim, argv)
        f = os.path.join(args.dir, name + ".json")
        if args.mode == "write":
            with open(f, "w") as fh:
                json.dump(rec, fh, indent=1, sort_keys=False, ensure_ascii=False)
            continue
        try:
            with open(f) as fh:
                gold = json.load(fh)
        except OSError:
            print(f"{name}: no golden record {f}")
            bad += 1
            continue
        d = first_diff(gold, rec)
        if d:
            print(f"{name}: differs at {d}")
            bad += 1
    if args.mode == "compare":
        print(f"{n - bad} identical, {bad} different")
    else:
        print(f"{n} reports written to {args.dir}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
