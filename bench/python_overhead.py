"""Benchmark: what the Python package adds to the C library, beside the
command line in one run (issue 17, item 7).

    PYTHONPATH=build/python .venv/bin/python bench/python_overhead.py [--repeat N] [--steps N]

1. A train step: the Flax Linen guide's jitted train step (examples/
   flax_linen_guide.py, DEPTH 1024, adam), lowered by JAX once (in a child
   process: no JAX threads in the measuring one) and written to a .mlir file, then run for --steps steps on 8 virtual devices by
   `shardsim run FILE --steps N` (a process) and by
   `shardsim.load(FILE).run(steps=N)` (in this process). Compared: the
   median step as each measures it, and the wall time of the whole call.
2. A plan: scenarios/transformer.shard set to a 7B-parameter decoder
   (32 layers, width 4096, MLP 17920, vocabulary 32000) with the FSDP x TP
   strategy on a 16x16 mesh of 256 devices, planned by `shardsim plan`
   and by `shardsim.load(...).plan(...)` (the text report against Python
   objects for the whole ledger). Compared: wall time of the whole call.

Each figure is the median of --repeat runs after one untimed run, CLI
and package alternating. The
goals: the package adds under 5 % to a step and under 20 ms to a plan.
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import shardsim as ss  # noqa: E402

SEVEN_B = {"VOCAB": 32000, "EMBED": 4096, "HEADS": 32, "HEAD_DIM": 128, "MLP": 17920,
           "LAYERS": 32, "BATCH": 256, "SEQ": 512}
MESH = "data=16,model=16"


def interleaved(repeat, a, b):
    """Median wall seconds of a() and of b(), run alternately (one untimed
    run of each first) so that a busy machine weighs on both alike; and
    what each call returned."""
    a(), b()
    ta, tb, ra, rb = [], [], [], []
    for _ in range(repeat):
        for fn, times, results in ((a, ta, ra), (b, tb, rb)):
            t0 = time.perf_counter()
            results.append(fn())
            times.append(time.perf_counter() - t0)
    return statistics.median(ta), statistics.median(tb), ra, rb


def cli(exe, *args):
    r = subprocess.run([exe, *args], capture_output=True, text=True)
    if r.returncode not in (0, 1):
        raise SystemExit(f"shardsim {' '.join(args)}: {r.stderr}")
    return r.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--shardsim", default=os.path.join(ROOT, "build", "shardsim"))
    a = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        # Lowered in a child process, so that JAX's threads are not in this one.
        mlir = os.path.join(tmp, "linen_train_step.mlir")
        subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
                        "import flax_linen_guide as g; open(sys.argv[2], 'w').write(g.program.text)",
                        os.path.join(ROOT, "examples"), mlir], check=True, capture_output=True)
        steps = str(a.steps)
        cli_wall, py_wall, cli_out, py_runs = interleaved(
            a.repeat,
            lambda: json.loads(cli(a.shardsim, "run", mlir, "--steps", steps, "--json")),
            lambda: ss.load(mlir).run(steps=a.steps, progress=False))
        cli_step = statistics.median(o["steps"]["median_seconds"] for o in cli_out)
        py_step = statistics.median(r.median_step_seconds for r in py_runs)
        rows.append((f"train step (Linen guide, {a.steps} steps): median step",
                     cli_step, py_step))
        rows.append((f"train step (Linen guide, {a.steps} steps): whole call", cli_wall, py_wall))

    shard = os.path.join(ROOT, "scenarios", "transformer.shard")
    sets = [x for k, v in SEVEN_B.items() for x in ("--set", f"{k}={v}")]
    plan_cli = lambda: cli(a.shardsim, "plan", shard, *sets, "--mesh", MESH,  # noqa: E731
                           "--device-memory", "16GiB")
    cli_plan, py_plan, _, plans = interleaved(
        a.repeat, plan_cli,
        lambda: ss.load(shard, sets=SEVEN_B).plan(mesh=MESH, device_memory="16GiB"))
    prog = ss.load(shard, sets=SEVEN_B)
    params = sum(math.prod(i["shape"]) for i in prog.inputs
                 if i["is_param"] and not i["hidden"])
    rows.append((f"plan, {params / 1e9:.2f}B-param transformer, 256 devices: whole call",
                 cli_plan, py_plan))

    print(f"median of {a.repeat} runs; {plans[0]!r}")
    print(f"{'what':<62} {'CLI':>10} {'package':>10} {'ratio':>7} {'added':>10}")
    for what, c, p in rows:
        print(f"{what:<62} {c * 1e3:>8.2f}ms {p * 1e3:>8.2f}ms {p / c:>7.3f} "
              f"{(p - c) * 1e3:>+8.2f}ms")


if __name__ == "__main__":
    main()
