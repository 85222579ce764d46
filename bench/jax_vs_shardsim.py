"""Benchmark: shardsim against JAX on its own fake CPU devices (issue 20).

    .venv/bin/python bench/jax_vs_shardsim.py [--quick] [--sizes 8,64,256]
        [--programs mlp,block] [--steps 10] [--extra FILE.py:FUNC] [--keep DIR]

For each program and each device count N (meshes 8 = 2x4, 64 = 8x8,
256 = 16x16 over ('data', 'model')), in one run on one machine:

1. JAX, in a child process started with
   XLA_FLAGS=--xla_force_host_platform_device_count=N: the jitted step is
   traced, lowered, compiled and run once (time to first result: from
   `jit(...).lower()` to the first result ready), then run --steps more
   times (each step timed to block_until_ready; the median). The lowered
   text (`lowered.as_text()`) is written to a file. Peak RSS of the child
   (os.wait4's ru_maxrss).
2. shardsim on that same text (its sdy.mesh is the same mesh):
   `shardsim run FILE --steps 1 --no-check --inputs DIR` (the arguments
   JAX started from, saved by the child as DIR/argN.npy) timed as a whole
   process (read the text and the arguments, import, compile, one step;
   --no-check leaves out the single-device run a .mlir run checks its
   results against by default; the median of --repeat runs), then
   `shardsim run FILE --steps 1+S --no-check --json` for the median step
   (its own timing of the steps after the first) and the peak RSS (the
   larger of the two processes'). --check keeps the check in both (the
   first result then includes the single-device run).

Programs (same global work at every N):
  mlp    the Flax Linen guide's train step (examples/flax_linen_guide.py:
         4 DotReluDot layers, DEPTH 1024, optax.adam(1e-3), loss y.sum(),
         params on 'model', x on 'data'), BATCH 16 instead of the guide's 8
         so that the batch divides data=16; params and state donated.
  block  tests/jax/programs_models.py's transformer_block_adamw (pre-LN
         causal block, heads and MLP on 'model', batch on 'data', one
         optax.adamw step on an MSE loss) at B16 S64 D256 H16 F1024 so that
         batch and heads divide 16; params and state donated.
  --extra FILE.py:FUNC adds a program: FUNC(mesh) returns a Job (below);
  bench/lm_job.py:lm is the scanned language model of the import issue
  (tests/jax/programs_lm.py at V2048 D256 H16x16 F1024 L4 S128 B16).

--quick: N = 8 only, 10 steps, one shardsim repeat (a minute or two).
Ratios are JAX / shardsim (above 1: shardsim is faster or smaller).
"""
import argparse
import dataclasses
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MESHES = {8: (2, 4), 16: (4, 4), 32: (4, 8), 64: (8, 8), 128: (8, 16), 256: (16, 16)}


@dataclasses.dataclass
class Job:
    """One program on one mesh, as the JAX child runs it."""
    fn: Callable          # the step, handed to jax.jit
    args: tuple           # example arguments (pytrees of arrays)
    in_shardings: Any
    out_shardings: Any
    donate_argnums: tuple
    feed: Callable        # feed(args, result) -> the next step's args
    doc: str


# --- Programs (imported only in the JAX child) -----------------------------

def mlp_job(mesh, batch=16, layers=4, depth=1024):
    import jax
    import jax.numpy as jnp
    import optax
    from flax import linen as nn
    from flax.training import train_state
    from jax.sharding import NamedSharding, PartitionSpec as P

    def ms(spec):
        return NamedSharding(mesh, spec)

    class DotReluDot(nn.Module):
        depth: int

        @nn.compact
        def __call__(self, x):
            init = nn.initializers.xavier_normal()
            y = nn.Dense(self.depth, kernel_init=nn.with_partitioning(init, (None, "model")),
                         use_bias=False)(x)
            y = jax.nn.relu(y)
            y = jax.lax.with_sharding_constraint(y, ms(P("data", "model")))
            w2 = self.param("W2", nn.with_partitioning(init, ("model", None)), (self.depth, x.shape[-1]))
            z = jnp.dot(y, w2)
            z = jax.lax.with_sharding_constraint(z, ms(P("data", None)))
            return z, None

    class MLP(nn.Module):
        num_layers: int
        depth: int

        @nn.compact
        def __call__(self, x):
            for _ in range(self.num_layers):
                x, _ = DotReluDot(self.depth)(x)
            return x

    model = MLP(layers, depth)
    tx = optax.adam(learning_rate=0.001)

    def init_fn(k, x):
        variables = model.init(k, x)
        return train_state.TrainState.create(apply_fn=model.apply, params=variables["params"], tx=tx)

    x = jnp.ones((batch, depth))
    x_sh = ms(P("data", None))
    abstract = jax.eval_shape(init_fn, jax.random.key(0), x)
    state_sh = nn.get_sharding(abstract, mesh)
    state = jax.jit(init_fn, in_shardings=(ms(P()), x_sh), out_shardings=state_sh)(jax.random.key(0), x)
    x = jax.device_put(x, x_sh)

    def train_step(state, x):
        def loss_unrolled(params):
            return model.apply({"params": params}, x).sum()
        return state.apply_gradients(grads=jax.grad(loss_unrolled)(state.params))

    return Job(train_step, (state, x), (state_sh, x_sh), state_sh, (0,),
               lambda args, out: (out, args[1]),
               f"Flax Linen guide MLP train step, BATCH {batch}, DEPTH {depth}, {layers} layers, adam")


def block_job(mesh, B=16, S=64, D=256, H=16, F=1024):
    import jax
    import jax.numpy as jnp
    import numpy as np
    import optax
    from jax.sharding import NamedSharding, PartitionSpec as P

    dh = D // H

    def layer_norm(x, g, b):
        mu = jnp.mean(x, axis=-1, keepdims=True)
        var = jnp.mean(jnp.square(x - mu), axis=-1, keepdims=True)
        return (x - mu) * jax.lax.rsqrt(var + 1e-6) * g + b

    def block(p, x):  # tests/jax/programs_models.py's transformer_block
        h = layer_norm(x, p["ln1_g"], p["ln1_b"])
        q = jnp.einsum("bsD,Dhd->bshd", h, p["wq"])
        k = jnp.einsum("bsD,Dhd->bshd", h, p["wk"])
        v = jnp.einsum("bsD,Dhd->bshd", h, p["wv"])
        s = jnp.einsum("bqhd,bkhd->bhqk", q, k) / np.sqrt(np.float32(dh))
        causal = jnp.tril(jnp.ones((S, S), bool))
        s = jnp.where(causal, s, jnp.finfo(jnp.float32).min)
        o = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(s, axis=-1), v)
        x = x + jnp.einsum("bqhd,hdD->bqD", o, p["wo"])
        h = layer_norm(x, p["ln2_g"], p["ln2_b"])
        h = jax.nn.gelu(jnp.einsum("bsD,DF->bsF", h, p["w1"]) + p["b1"])
        return x + jnp.einsum("bsF,FD->bsD", h, p["w2"]) + p["b2"]

    rng = np.random.default_rng(20)

    def rand(shape, scale=1.0):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    params = {
        "ln1_g": np.ones(D, np.float32), "ln1_b": np.zeros(D, np.float32),
        "wq": rand((D, H, dh), D ** -0.5), "wk": rand((D, H, dh), D ** -0.5),
        "wv": rand((D, H, dh), D ** -0.5), "wo": rand((H, dh, D), D ** -0.5),
        "ln2_g": np.ones(D, np.float32), "ln2_b": np.zeros(D, np.float32),
        "w1": rand((D, F), D ** -0.5), "b1": np.zeros(F, np.float32),
        "w2": rand((F, D), F ** -0.5), "b2": np.zeros(D, np.float32),
    }
    specs = {"ln1_g": P(), "ln1_b": P(), "wq": P(None, "model", None), "wk": P(None, "model", None),
             "wv": P(None, "model", None), "wo": P("model", None, None), "ln2_g": P(), "ln2_b": P(),
             "w1": P(None, "model"), "b1": P("model"), "w2": P("model", None), "b2": P()}
    tx = optax.adamw(1e-3, weight_decay=0.01)
    psh = {k: NamedSharding(mesh, s) for k, s in specs.items()}
    rep = NamedSharding(mesh, P())
    opt_state = tx.init(params)
    opt_sh = jax.tree.map(lambda _: rep, opt_state)
    opt_sh = optax.tree_map_params(tx, lambda _, s: s, opt_sh, psh, transform_non_params=lambda _: rep)
    data = NamedSharding(mesh, P("data", None, None))
    params = jax.device_put(params, psh)
    opt_state = jax.device_put(opt_state, opt_sh)
    x, target = jax.device_put(rand((B, S, D)), data), jax.device_put(rand((B, S, D)), data)

    def train_step(params, opt_state, x, target):
        def loss_fn(p):
            return jnp.mean(jnp.square(block(p, x) - target))
        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return Job(train_step, (params, opt_state, x, target), (psh, opt_sh, data, data), (psh, opt_sh, rep),
               (0, 1), lambda args, out: (out[0], out[1], args[2], args[3]),
               f"transformer block + adamw, B{B} S{S} D{D} H{H} F{F}")


PROGRAMS = {"mlp": mlp_job, "block": block_job}


def load_extra(spec):
    """FILE.py:FUNC -> (name, builder)."""
    path, _, func = spec.rpartition(":")
    mod_spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    mod = importlib.util.module_from_spec(mod_spec)
    mod_spec.loader.exec_module(mod)
    return func, getattr(mod, func)


# --- The JAX child -----------------------------------------------------------

def child(args):
    """Runs in a process whose XLA_FLAGS gives it N fake devices; prints
    one JSON line."""
    import jax
    builder = PROGRAMS.get(args.child) or dict([load_extra(e) for e in args.extra]).get(args.child)
    d, m = (int(v) for v in args.mesh.split("x"))
    mesh = jax.make_mesh((d, m), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
    job = builder(mesh)
    jax.block_until_ready(job.args)
    # The arguments as shardsim reads them (--inputs DIR: argN.npy, N the
    # flat argument number of a text lowered without locations).
    import numpy as np
    os.makedirs(args.out + ".inputs", exist_ok=True)
    for i, leaf in enumerate(jax.tree.leaves(job.args)):
        np.save(os.path.join(args.out + ".inputs", f"arg{i}.npy"), np.asarray(leaf))
    t0 = time.perf_counter()
    jitted = jax.jit(job.fn, in_shardings=job.in_shardings, out_shardings=job.out_shardings,
                     donate_argnums=job.donate_argnums)
    lowered = jitted.lower(*job.args)
    compiled = lowered.compile()
    t_compiled = time.perf_counter()
    out = jax.block_until_ready(compiled(*job.args))
    first = time.perf_counter() - t0
    with open(args.out, "w") as f:
        f.write(lowered.as_text())
    cur = job.feed(job.args, out)
    times = []
    for _ in range(args.steps):
        t = time.perf_counter()
        out = jax.block_until_ready(compiled(*cur))
        times.append(time.perf_counter() - t)
        cur = job.feed(cur, out)
    print(json.dumps({"first_s": first, "compile_s": t_compiled - t0, "step_s": statistics.median(times),
                      "doc": job.doc, "devices": jax.device_count()}))


# --- The parent ----------------------------------------------------------------

def run_measured(cmd, env=None, timeout=None):
    """(returncode, stdout, stderr, wall seconds, peak RSS bytes) of one child."""
    t0 = time.perf_counter()
    p = _Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        return None, out, "timeout", time.perf_counter() - t0, 0
    # communicate() reaped the child; its rusage came with the wait.
    wall = time.perf_counter() - t0
    rss = getattr(p, "_ss_rusage", None)
    return p.returncode, out, err, wall, rss


class _Popen(subprocess.Popen):
    """Popen that keeps the rusage (os.wait4) of the wait that reaped the
    child: its own peak RSS, not the maximum over all children."""

    def _try_wait(self, wait_flags):
        try:
            pid, sts, ru = os.wait4(self.pid, wait_flags)
        except ChildProcessError:
            return self.pid, 0
        if pid == self.pid:
            self._ss_rusage = ru.ru_maxrss * 1024
        return pid, sts



def jax_side(prog, n, steps, mlir, extra, timeout):
    d, m = MESHES[n]
    env = dict(os.environ, XLA_FLAGS=f"--xla_force_host_platform_device_count={n}", JAX_PLATFORMS="cpu")
    cmd = [sys.executable, os.path.abspath(__file__), "--child", prog, "--mesh", f"{d}x{m}",
           "--steps", str(steps), "--out", mlir]
    for e in extra:
        cmd += ["--extra", e]
    rc, out, err, wall, rss = run_measured(cmd, env, timeout)
    if rc != 0:
        tail = err.strip().splitlines()[-1:] if err else []
        return {"error": f"JAX child failed ({'timeout' if rc is None else rc}): {' '.join(tail)}"}
    r = json.loads(out.strip().splitlines()[-1])
    r["rss"] = rss
    return r


def shardsim_side(exe, mlir, steps, repeat, timeout, check):
    firsts, rss = [], 0
    nocheck = [] if check else ["--no-check"]
    for _ in range(repeat):
        rc, out, err, wall, r = run_measured([exe, "run", mlir, "--steps", "1", "--inputs", mlir + ".inputs"]
                                             + nocheck, timeout=timeout)
        if rc not in (0, 1):  # 1: a check against the single-device run failed; timed all the same
            return {"error": f"shardsim run failed ({rc}): {err.strip()[:300]}"}
        firsts.append(wall)
        rss = max(rss, r)
    rc, out, err, wall, r = run_measured([exe, "run", mlir, "--steps", str(steps + 1), "--json",
                                          "--inputs", mlir + ".inputs"] + nocheck,
                                         timeout=timeout)
    if rc not in (0, 1) or not out.strip():
        return {"error": f"shardsim run failed ({rc}): {err.strip()[:300]}"}
    j = json.loads(out)
    st = j["steps"]
    return {"first_s": statistics.median(firsts), "own_first_s": st["first_seconds"],
            "step_s": st["median_seconds"], "rss": max(rss, r), "checks_ok": rc == 0 if check else None}


def fmt_s(s):
    return "—" if s is None else f"{s * 1e3:.1f} ms" if s < 1 else f"{s:.2f} s"


def fmt_b(b):
    return "—" if not b else f"{b / 2**20:.0f} MiB" if b < 2**30 else f"{b / 2**30:.2f} GiB"


def ratio(a, b):
    return "—" if not a or not b else f"{a / b:.1f}x"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--mesh", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    ap.add_argument("--quick", action="store_true", help="N = 8 only, one shardsim repeat")
    ap.add_argument("--sizes", default="8,64,256", help="device counts (8, 16, 32, 64, 128, 256)")
    ap.add_argument("--programs", default=None, help="comma-separated: mlp, block and --extra names")
    ap.add_argument("--extra", action="append", default=[], help="FILE.py:FUNC, FUNC(mesh) -> Job")
    ap.add_argument("--steps", type=int, default=10, help="steady-state steps timed (>= 10)")
    ap.add_argument("--repeat", type=int, default=3, help="shardsim first-result runs (median)")
    ap.add_argument("--check", action="store_true",
                    help="keep shardsim's check against its single-device run (default: --no-check)")
    ap.add_argument("--shardsim", default=os.path.join(ROOT, "build", "shardsim"))
    ap.add_argument("--timeout", type=float, default=1800, help="seconds per child process")
    ap.add_argument("--keep", help="keep the lowered .mlir files and a results.json here")
    args = ap.parse_args()
    if args.child:
        return child(args)
    if args.quick:
        args.sizes, args.repeat = "8", 1
    sizes = [int(s) for s in args.sizes.split(",")]
    names = list(PROGRAMS) + [load_extra(e)[0] for e in args.extra]
    progs = args.programs.split(",") if args.programs else names
    for p in progs:
        if p not in names:
            raise SystemExit(f"unknown program '{p}' (have: {', '.join(names)})")
    for n in sizes:
        if n not in MESHES:
            raise SystemExit(f"no mesh for {n} devices (have: {', '.join(map(str, MESHES))})")
    out_dir = args.keep or tempfile.mkdtemp(prefix="jax_vs_shardsim.")
    os.makedirs(out_dir, exist_ok=True)
    rows = []
    for p in progs:
        for n in sizes:
            mlir = os.path.join(out_dir, f"{p}_{n}.mlir")
            print(f"# {p}, {n} devices: JAX ...", file=sys.stderr, flush=True)
            j = jax_side(p, n, args.steps, mlir, args.extra, args.timeout)
            s = {"error": "no lowered text"} if "error" in j else None
            if s is None:
                print(f"# {p}, {n} devices: shardsim ...", file=sys.stderr, flush=True)
                s = shardsim_side(args.shardsim, mlir, args.steps, args.repeat, args.timeout, args.check)
            for side, r in (("JAX", j), ("shardsim", s)):
                if "error" in r:
                    print(f"# {p}, {n}: {side}: {r['error']}", file=sys.stderr)
            rows.append({"program": p, "devices": n, "mesh": "x".join(map(str, MESHES[n])),
                         "jax": j, "shardsim": s})
    with open(os.path.join(out_dir, "results.json"), "w") as f:
        json.dump(rows, f, indent=1)
    uname = os.uname()
    print(f"jax_vs_shardsim: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, {uname.sysname} {uname.machine}; "
          f"steps {args.steps}, shardsim first-result runs {args.repeat}, "
          f"{'with' if args.check else 'without'} the single-device check")
    print()
    print("| program | N (mesh) | first result JAX | shardsim | ratio | step JAX | shardsim | ratio "
          "| peak RSS JAX | shardsim | ratio |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        j, s = r["jax"], r["shardsim"]
        g = lambda d, k: d.get(k) if "error" not in d else None  # noqa: E731
        print(f"| {r['program']} | {r['devices']} ({r['mesh']}) "
              f"| {fmt_s(g(j, 'first_s'))} | {fmt_s(g(s, 'first_s'))} | {ratio(g(j, 'first_s'), g(s, 'first_s'))} "
              f"| {fmt_s(g(j, 'step_s'))} | {fmt_s(g(s, 'step_s'))} | {ratio(g(j, 'step_s'), g(s, 'step_s'))} "
              f"| {fmt_b(g(j, 'rss'))} | {fmt_b(g(s, 'rss'))} | {ratio(g(j, 'rss'), g(s, 'rss'))} |")
    print()
    print("shardsim's own scaling (step time at N / step time at the smallest N):")
    for p in progs:
        base = [r for r in rows if r["program"] == p and "error" not in r["shardsim"]]
        if len(base) > 1:
            b = base[0]
            print(f"  {p}: " + ", ".join(f"N={r['devices']} {r['shardsim']['step_s'] / b['shardsim']['step_s']:.2f}x"
                                          for r in base[1:]))
    failed = [f"{r['program']} N={r['devices']}" for r in rows if r["shardsim"].get("checks_ok") is False]
    if failed:
        print("shardsim's check against its single-device run (tolerance 1e-4) failed after "
              f"{args.steps + 1} steps for: {', '.join(failed)} (drift of the optimizer state; timed all the same)")
    print(f"(lowered texts and results.json in {out_dir})")


if __name__ == "__main__":
    main()
