"""Benchmark: restoring an Orbax OCDBT checkpoint into a new sharding on 8
devices, shardsim beside TensorStore reading the same arrays from Python, in
one run (issue 19, item 6).

    .venv/bin/python bench/orbax_restore.py [--mib N] [--dir DIR] [--keep]

Orbax (the pinned orbax-checkpoint, its defaults: OCDBT, zarr, zstd) saves
four f32 arrays of N MiB in all (default 1024), P('a', 'b') on a 2x4 mesh of
8 CPU devices. Then, each best of 3 after an untimed run, page cache warm:
  tensorstore  ts.open(zarr over ocdbt) + read() of each whole array into
               numpy (the same bytes, decompressed)
  shardsim     `shardsim bench ckpt --from DIR`: ss_ckpt_restore of the four
               arrays into P('b', 'a') on 8 virtual devices (each device
               reads only the chunks its shard overlaps, through one staging
               buffer)
and prints seconds, GB/s of the logical bytes, and shardsim's bytes read
from chunk data against the bytes its targets need.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import numpy as np  # noqa: E402
import orbax.checkpoint as ocp  # noqa: E402
import tensorstore as ts  # noqa: E402
from jax.sharding import NamedSharding, PartitionSpec as P  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mib", type=int, default=1024)
    ap.add_argument("--dir", default=None)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--shardsim", default=os.path.join(ROOT, "build", "shardsim"))
    a = ap.parse_args()
    work = a.dir or tempfile.mkdtemp(prefix="shardsim-bench-orbax-")
    ck = os.path.join(work, "ck")
    rows = int((a.mib * 2**20 / 16) ** 0.5) // 8 * 8
    mesh = jax.make_mesh((2, 4), ("a", "b"))
    rng = np.random.default_rng(0)
    names = [f"w{i}" for i in range(4)]
    tree = {n: jax.device_put(rng.standard_normal((rows, rows), dtype=np.float32),
                              NamedSharding(mesh, P("a", "b"))) for n in names}
    shutil.rmtree(ck, ignore_errors=True)
    t = time.time()
    with ocp.StandardCheckpointer() as c:
        c.save(ck, tree)
    print(f"orbax save: 4 x f32[{rows},{rows}] ({4 * rows * rows * 4 / 2**20:.0f} MiB) "
          f"in {time.time() - t:.2f} s, {du(ck) / 2**20:.0f} MiB on disk")
    del tree
    logical = 4 * rows * rows * 4

    def ts_once():
        t0 = time.time()
        for n in names:
            spec = {"driver": "zarr", "kvstore": {"driver": "ocdbt", "base": "file://" + ck,
                                                  "path": n + "/"}}
            ts.open(spec).result().read().result()
        return time.time() - t0

    ts_once()
    t_ts = min(ts_once() for _ in range(3))
    r = subprocess.run([a.shardsim, "bench", "ckpt", "--from", ck], capture_output=True,
                       text=True)
    if r.returncode != 0:
        sys.exit(f"shardsim bench ckpt failed: {r.stderr.strip()}")
    m = re.search(r"([\d.]+) MiB +([\d.]+) s +([\d.]+) GB/s +read/needed ([\d.]+)", r.stdout)
    t_ss, ratio = float(m.group(2)), float(m.group(4))
    print(f"tensorstore  whole arrays          {t_ts:7.3f} s  {logical / t_ts / 1e9:6.2f} GB/s")
    print(f"shardsim     into P('b', 'a')      {t_ss:7.3f} s  {logical / t_ss / 1e9:6.2f} GB/s  "
          f"(read/needed {ratio:.3f})")
    print(f"shardsim / tensorstore time: {t_ss / t_ts:.2f}")
    if not a.keep and not a.dir:
        shutil.rmtree(work, ignore_errors=True)


def du(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


if __name__ == "__main__":
    main()
