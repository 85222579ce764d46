"""Write the Orbax checkpoint fixtures of tests/data/orbax with the pinned
orbax-checkpoint (run with the .venv's python):

    .venv/bin/python tests/jax/make_orbax_fixtures.py [OUT_DIR]

A small Flax train state (a two-layer MLP with optax's Adam state) plus a few
arrays of other dtypes, sharded over 8 fake CPU devices on a 2x4 mesh, saved
with orbax's own defaults (OCDBT, zarr arrays, zstd chunks):

  train_state/            StandardCheckpointer().save(DIR, state)
  manager/1/default/      CheckpointManager(DIR).save(1, StandardSave(state))
  zarr3/                  PyTreeCheckpointHandler(use_zarr3=True): OCDBT, zarr v3
  zarr3_files/            ... (use_zarr3=True, use_ocdbt=False): zarr v3 files
  zarr2_files/            ... (use_ocdbt=False): the older zarr v2 files
  expected/index.json     every array: name (keys joined by '.'), dtype, shape
  expected/NAME.bin       its values as orbax restores them (little-endian,
                          C order): the independent reference tests compare
                          shardsim's restores with

Orbax names its data files at random, so the files differ on every run; the
values and the tree do not. Nothing here is edited by hand.
"""

import json
import os
import shutil
import sys

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import optax  # noqa: E402
import orbax.checkpoint as ocp  # noqa: E402
from flax import linen as nn  # noqa: E402
from flax.training import train_state  # noqa: E402
from jax.sharding import NamedSharding, PartitionSpec as P  # noqa: E402

DTYPE_NAMES = {"float32": "f32", "bfloat16": "bf16", "int32": "i32", "float16": "f16",
               "int8": "i8", "float64": "f64", "int64": "i64", "bool": "bool"}


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(32)(x))
        return nn.Dense(8)(x)


def spec_for(shape):
    """The sharding each leaf is saved with: both mesh axes where they divide."""
    if len(shape) >= 2 and shape[0] % 2 == 0 and shape[1] % 4 == 0:
        return P("a", "b")
    if len(shape) == 1 and shape[0] % 4 == 0:
        return P("b")
    return P()


def build_state(mesh):
    model = MLP()
    params = model.init(jax.random.PRNGKey(0), jnp.ones((4, 16), jnp.float32))["params"]
    state = train_state.TrainState.create(apply_fn=model.apply, params=params,
                                          tx=optax.adam(1e-3))
    # One Adam step, so that mu/nu hold values rather than zeros.
    grads = jax.tree_util.tree_map(lambda p: jnp.sin(p * 3.0) + 0.25, state.params)
    state = state.apply_gradients(grads=grads)
    rng = np.random.default_rng(19)
    extra = {
        # Incompressible chunks of 2 KiB: stored out of line in OCDBT data files.
        "noise": jnp.asarray(rng.standard_normal((64, 64)).astype(np.float32)),
        "emb": jnp.asarray(rng.standard_normal((16, 8)).astype(jnp.bfloat16)),
        "ids": jnp.asarray(rng.integers(-1000, 1000, size=(8,)).astype(np.int32)),
        "half": jnp.asarray(rng.standard_normal((8, 4)).astype(np.float16)),
    }
    tree = {"state": state, "extra": extra}

    def place(x):
        x = jnp.asarray(x)
        return jax.device_put(x, NamedSharding(mesh, spec_for(x.shape)))

    return jax.tree_util.tree_map(place, tree)


def name_of(path):
    parts = []
    for k in path:
        if isinstance(k, jax.tree_util.DictKey):
            parts.append(str(k.key))
        elif isinstance(k, jax.tree_util.GetAttrKey):
            parts.append(k.name)
        elif isinstance(k, jax.tree_util.SequenceKey):
            parts.append(str(k.idx))
        else:
            parts.append(str(k))
    return ".".join(parts)


def write_expected(restored, out):
    exp = os.path.join(out, "expected")
    os.makedirs(exp)
    index = []
    for path, leaf in jax.tree_util.tree_flatten_with_path(restored)[0]:
        if not hasattr(leaf, "shape"):
            continue
        a = np.asarray(leaf)
        name = name_of(path)
        index.append({"name": name, "dtype": DTYPE_NAMES[str(a.dtype)],
                      "shape": list(a.shape)})
        with open(os.path.join(exp, name + ".bin"), "wb") as f:
            f.write(np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tobytes())
    with open(os.path.join(exp, "index.json"), "w") as f:
        json.dump(index, f, indent=1)
        f.write("\n")
    return index


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "data", "orbax")
    out = os.path.abspath(out)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    mesh = jax.make_mesh((2, 4), ("a", "b"))
    tree = build_state(mesh)
    ckptr = ocp.StandardCheckpointer()
    ckptr.save(os.path.join(out, "train_state"), tree)
    ckptr.wait_until_finished()
    with ocp.CheckpointManager(os.path.join(out, "manager")) as mgr:
        mgr.save(1, args=ocp.args.StandardSave(tree))
        mgr.wait_until_finished()
    for name, kw in [("zarr3", dict(use_zarr3=True)),
                     ("zarr3_files", dict(use_zarr3=True, use_ocdbt=False)),
                     ("zarr2_files", dict(use_ocdbt=False))]:
        with ocp.Checkpointer(ocp.PyTreeCheckpointHandler(**kw)) as c:
            c.save(os.path.join(out, name), args=ocp.args.PyTreeSave(tree))
    # The reference: what orbax itself restores, into the saved shardings.
    abstract = jax.tree_util.tree_map(ocp.utils.to_shape_dtype_struct, tree)
    restored = ckptr.restore(os.path.join(out, "train_state"), abstract)
    index = write_expected(restored, out)
    print(f"wrote {out}: {len(index)} arrays")


if __name__ == "__main__":
    main()
