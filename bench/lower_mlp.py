"""Lower bench/jax_vs_shardsim.py's Flax MLP train step on DATAxMODEL fake
CPU devices without compiling or running it (JAX's compile at 1024 devices
would take most of this machine), and save the text and the arguments as
that benchmark's child does (OUT.mlir, OUT.mlir.inputs/argN.npy), for
`shardsim run OUT.mlir --no-check --inputs OUT.mlir.inputs`.

    .venv/bin/python bench/lower_mlp.py OUT.mlir DATA MODEL BATCH

e.g. 1024 devices: bench/lower_mlp.py /tmp/mlp_1024.mlir 32 32 32 (BATCH
must divide by DATA).
"""
import importlib.util
import os
import sys

out, d, m, batch = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
os.environ["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={d * m}"
os.environ["JAX_PLATFORMS"] = "cpu"
import jax  # noqa: E402
import numpy as np  # noqa: E402

spec = importlib.util.spec_from_file_location(
    "jax_vs_shardsim", os.path.join(os.path.dirname(os.path.abspath(__file__)), "jax_vs_shardsim.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
mesh = jax.make_mesh((d, m), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
job = bench.mlp_job(mesh, batch=batch)
os.makedirs(out + ".inputs", exist_ok=True)
for i, leaf in enumerate(jax.tree.leaves(job.args)):
    np.save(os.path.join(out + ".inputs", f"arg{i}.npy"), np.asarray(leaf))
lowered = jax.jit(job.fn, in_shardings=job.in_shardings, out_shardings=job.out_shardings,
                  donate_argnums=job.donate_argnums).lower(*job.args)
with open(out, "w") as f:
    f.write(lowered.as_text())
print(f"{out}: {jax.device_count()} devices")
