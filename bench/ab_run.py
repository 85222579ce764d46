#!/usr/bin/env python3
"""A/B timing of `shardsim run` on one lowered program, interleaved.

    python3 bench/ab_run.py DIR/block_8.mlir --steps 11 --repeat 5 \
        A:SHARDSIM_VECMATH=off:build/shardsim B::build/shardsim

Each variant is NAME:ENV=VALUE[,ENV=VALUE...]:EXECUTABLE. The variants run
one after another, `--repeat` rounds, each a whole process
`EXE run FILE --steps S --no-check --json --inputs FILE.inputs`; the table
gives per variant the medians of: the run's own median step
(steps.median_seconds), its first step, and the process's CPU time
(user + sys) and peak RSS, each from that child's own rusage (os.wait4). Medians over
interleaved rounds, and CPU time beside wall time, because the machine is
shared. With --outputs, the last step's results are written per variant and
compared byte for byte (a fast path must not change a result).
Standard library only.
"""
import argparse
import filecmp
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def run_once(exe, env, mlir, steps, outdir):
    cmd = [exe, "run", mlir, "--steps", str(steps), "--no-check", "--json",
           "--inputs", mlir + ".inputs"]
    if outdir:
        cmd += ["--outputs", outdir]
    t0 = time.monotonic()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        p = subprocess.Popen(cmd, env={**os.environ, **env}, stdout=out, stderr=err, text=True)
        _, status, ru = os.wait4(p.pid, 0)  # this child's own rusage and peak RSS
        p.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - t0
        out.seek(0), err.seek(0)
        stdout, stderr = out.read(), err.read()
    if p.returncode != 0:
        sys.exit(f"ab_run: {' '.join(cmd)} failed ({p.returncode}): {stderr.strip()[:300]}")
    j = json.loads(stdout)
    return {"step": j["steps"]["median_seconds"], "first": j["steps"]["first_seconds"],
            "cpu": ru.ru_utime + ru.ru_stime, "wall": wall, "rss": ru.ru_maxrss}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mlir")
    ap.add_argument("variants", nargs="+")
    ap.add_argument("--steps", type=int, default=11)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--outputs", action="store_true", help="compare the results byte for byte")
    a = ap.parse_args()
    variants = []
    for v in a.variants:
        name, envs, exe = v.split(":", 2)
        env = dict(e.split("=", 1) for e in envs.split(",") if e)
        variants.append((name, env, exe))
    res = {n: [] for n, _, _ in variants}
    tmp = tempfile.mkdtemp(prefix="ab_run.")
    for r in range(a.repeat):
        for name, env, exe in variants:
            out = os.path.join(tmp, name) if a.outputs and r == 0 else None
            res[name].append(run_once(exe, env, a.mlir, a.steps, out))
    print(f"{os.path.basename(a.mlir)}: {a.repeat} interleaved rounds, --steps {a.steps}, "
          f"load {os.getloadavg()[0]:.1f}")
    print("| variant | step (median) | first step | CPU user+sys | wall | peak RSS (KiB, median) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, _, _ in variants:
        m = lambda k: statistics.median(x[k] for x in res[name])
        print(f"| {name} | {m('step')*1e3:.1f} ms | {m('first')*1e3:.1f} ms | {m('cpu'):.2f} s "
              f"| {m('wall'):.2f} s | {m('rss'):.0f} |")
    if a.outputs:
        base = os.path.join(tmp, variants[0][0])
        for name, _, _ in variants[1:]:
            d = filecmp.dircmp(base, os.path.join(tmp, name))
            same = not d.diff_files and not d.left_only and not d.right_only
            _, mism, errs = filecmp.cmpfiles(base, os.path.join(tmp, name), d.common_files, shallow=False)
            print(f"outputs {variants[0][0]} vs {name}: "
                  f"{'identical' if same and not mism and not errs else 'DIFFER: ' + str(mism + errs)}"
                  f" ({len(d.common_files)} files)")


if __name__ == "__main__":
    main()
