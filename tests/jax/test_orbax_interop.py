"""Checkpoints both ways between shardsim and the pinned orbax-checkpoint,
live (run by tests/jax/run_live.py from `meson test` when .venv exists):

- orbax writes, with its defaults (OCDBT, zarr, zstd), a tree of several
  dtypes sharded on a 2x4 mesh of 8 CPU devices, through StandardCheckpointer
  and through CheckpointManager; `shardsim ckpt verify` accepts it and
  `shardsim ckpt show --values --json` gives exactly orbax's values;
- orbax writes zarr v3 arrays (use_zarr3=True), in OCDBT and as files;
  shardsim reads them with orbax's values;
- shardsim writes a checkpoint from a scenario (`save`, one file per chunk
  and layout='ocdbt'), and orbax restores it with StandardRestore into
  another mesh and other shardings, with the values shardsim reads back;
- a damaged OCDBT store gives shardsim a one-line error and exit status 2;
- the seed (flax#5110, issue 19 item 4): an NNX model's state saved by orbax
  replicated on a 2x4 mesh; with nnx.eval_shape's shapes and the intended
  shardings a scenario restores it (values equal), and with the shardings
  dropped the plan refuses it before reading, naming the arrays.
"""
import json
import os
import subprocess

import jax
import jax.numpy as jnp
import numpy as np
import orbax.checkpoint as ocp
import pytest
from jax.sharding import NamedSharding, PartitionSpec as P

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SHARDSIM = os.environ.get("SS_SHARDSIM") or os.path.join(ROOT, "build", "shardsim")

pytestmark = pytest.mark.skipif(not os.access(SHARDSIM, os.X_OK),
                                reason=f"no shardsim binary at {SHARDSIM}")


def shardsim(*args):
    r = subprocess.run([SHARDSIM, *args], capture_output=True, text=True,
                       env=dict(os.environ, NO_COLOR="1"))
    return r.returncode, r.stdout, r.stderr


def shardsim_values(path, *names):
    rc, out, err = shardsim("ckpt", "show", "--values", "--json", path, *names)
    assert rc == 0, err
    return {a["name"]: a for a in json.loads(out)["arrays"]}


def make_tree(mesh):
    rng = np.random.default_rng(7)
    leaves = {
        "w": (rng.standard_normal((16, 32)).astype(np.float32), P("a", "b")),
        "noise": (rng.standard_normal((64, 64)).astype(np.float32), P("a", "b")),
        "emb": (rng.standard_normal((8, 16)).astype(jnp.bfloat16), P(None, "b")),
        "half": (rng.standard_normal((4, 8)).astype(np.float16), P("a", None)),
        "ids": (rng.integers(-500, 500, size=(16,)).astype(np.int32), P("b")),
        "step": (np.asarray(3, np.int32), P()),
    }
    tree = {"params": {k: jax.device_put(v, NamedSharding(mesh, s))
                       for k, (v, s) in leaves.items() if k != "step"},
            "step": jax.device_put(leaves["step"][0], NamedSharding(mesh, P()))}
    return tree


def check_same(tree, vals):
    for path, leaf in jax.tree_util.tree_flatten_with_path(tree)[0]:
        name = ".".join(str(k.key) for k in path)
        want = np.asarray(leaf)
        got = vals[name]
        assert got["shape"] == list(want.shape), name
        # JSON prints the shortest decimal that reads back to the same value
        # in the array's dtype, so compare in that dtype, bit for bit.
        have = np.asarray(got["values"], dtype=np.float64).astype(want.dtype)
        assert have.tobytes() == want.tobytes(), name


@pytest.fixture(scope="module")
def mesh():
    assert len(jax.devices()) >= 8, "run with 8 fake CPU devices (run_live.py sets XLA_FLAGS)"
    return jax.make_mesh((2, 4), ("a", "b"))


def test_shardsim_reads_standard_checkpointer_ocdbt(tmp_path, mesh):
    tree = make_tree(mesh)
    path = str(tmp_path / "ck")
    with ocp.StandardCheckpointer() as c:
        c.save(path, tree)
        c.wait_until_finished()
    meta = json.load(open(os.path.join(path, "_METADATA")))
    assert meta["use_ocdbt"] is True  # orbax's default, the layout under test
    assert os.path.exists(os.path.join(path, "manifest.ocdbt"))
    rc, out, err = shardsim("ckpt", "verify", path)
    assert rc == 0, err + out
    check_same(tree, shardsim_values(path))


def test_shardsim_reads_checkpoint_manager_steps(tmp_path, mesh):
    tree = make_tree(mesh)
    root = str(tmp_path / "mgr")
    with ocp.CheckpointManager(root) as mgr:
        mgr.save(5, args=ocp.args.StandardSave(tree))
        mgr.wait_until_finished()
    rc, out, err = shardsim("ckpt", "ls", root)
    assert rc == 0 and "5" in out, err + out
    check_same(tree, shardsim_values(root, "5"))


@pytest.mark.parametrize("kw", [dict(use_zarr3=True), dict(use_zarr3=True, use_ocdbt=False)],
                         ids=["zarr3_ocdbt", "zarr3_files"])
def test_shardsim_reads_zarr3_layouts(tmp_path, mesh, kw):
    tree = make_tree(mesh)
    path = str(tmp_path / "ck")
    with ocp.Checkpointer(ocp.PyTreeCheckpointHandler(**kw)) as c:
        c.save(path, args=ocp.args.PyTreeSave(tree))
    assert json.load(open(os.path.join(path, "_METADATA")))["use_zarr3"] is True
    rc, out, err = shardsim("ckpt", "verify", path)
    assert rc == 0, err + out
    check_same(tree, shardsim_values(path))


@pytest.mark.parametrize("layout", ["files", "ocdbt"])
def test_orbax_restores_shardsim_saves_into_another_mesh(tmp_path, layout):
    ck = str(tmp_path / "ss")
    scenario = tmp_path / "save.shard"
    scenario.write_text(
        f"CKPT = '{ck}'\n"
        "mesh a=2 b=4\n"
        "w = param(f32[16, 32], P('a', 'b'), normal(seed=1))\n"
        "v = param(bf16[8, 16], P(None, 'b'), iota)\n"
        "c = param(f32[12], P('a'), normal(seed=2))\n"
        "big = param(f32[64, 64], P('a', 'b'), normal(seed=3))\n"
        f"save CKPT step=0 layout='{layout}'\n")
    rc, out, err = shardsim("run", str(scenario))
    assert rc == 0, err + out
    want = shardsim_values(ck, "0")
    other = jax.make_mesh((4, 2), ("x", "y"))
    specs = {"w": P("y", "x"), "v": P("x", None), "c": P("x"), "big": P(None, ("x", "y"))}
    abstract = {n: jax.ShapeDtypeStruct(tuple(want[n]["shape"]),
                                        jnp.bfloat16 if want[n]["dtype"] == "bf16"
                                        else jnp.float32,
                                        sharding=NamedSharding(other, specs[n]))
                for n in specs}
    item = os.path.join(ck, "0", "default")
    assert os.path.exists(os.path.join(item, "manifest.ocdbt")) == (layout == "ocdbt")
    with ocp.StandardCheckpointer() as c:
        restored = c.restore(item, abstract)
    for n in specs:
        assert restored[n].sharding == abstract[n].sharding, n
        got = np.asarray(restored[n])
        ref = np.asarray(want[n]["values"], dtype=np.float64).astype(got.dtype)
        assert got.tobytes() == ref.tobytes(), n


def test_damaged_ocdbt_store_is_a_one_line_error(tmp_path, mesh):
    tree = make_tree(mesh)
    path = str(tmp_path / "ck")
    with ocp.StandardCheckpointer() as c:
        c.save(path, tree)
        c.wait_until_finished()
    manifest = os.path.join(path, "manifest.ocdbt")
    data = bytearray(open(manifest, "rb").read())
    data[len(data) // 2] ^= 0x40
    open(manifest, "wb").write(bytes(data))
    rc, out, err = shardsim("ckpt", "show", "--values", path)
    assert rc == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "CRC32C mismatch" in lines[0], err


def _nnx_saved_replicated(tmp_path, mesh):
    """The seed's save: an NNX model's state, replicated on a 2x4 mesh."""
    from flax import nnx

    class Model(nnx.Module):
        def __init__(self, rngs):
            self.linear1 = nnx.Linear(256, 512, rngs=rngs)
            self.linear2 = nnx.Linear(512, 256, rngs=rngs)

    state = nnx.state(Model(nnx.Rngs(0)))
    state = jax.tree_util.tree_map(lambda x: jax.device_put(x, NamedSharding(mesh, P())), state)
    path = str(tmp_path / "nnx")
    with ocp.StandardCheckpointer() as c:
        c.save(path, state)
    abstract = nnx.state(nnx.eval_shape(lambda: Model(nnx.Rngs(0))))
    return path, _by_name(state), _by_name(abstract)


def _by_name(tree):
    """Leaves by their checkpoint name, keys joined by '.' as Orbax names them."""
    out = {}
    for path, leaf in jax.tree_util.tree_flatten_with_path(tree)[0]:
        keys = [str(getattr(k, "key", getattr(k, "name", k))) for k in path]
        if keys[-1] != "value":
            keys.append("value")
        out[".".join(keys)] = leaf
    return out


SEED_PARAMS = [("k1", "linear1/kernel/value", "P(None, 'b')"),
               ("b1", "linear1/bias/value", "P('b')"),
               ("k2", "linear2/kernel/value", "P('b', None)"),
               ("b2", "linear2/bias/value", "P()")]


def _seed_scenario(tmp_path, ckpt, abstract, with_shardings, out=None):
    lines = [f"CKPT = '{ckpt}'", "mesh a=2 b=4", "device_memory 1MiB"]
    for var, path, spec in SEED_PARAMS:
        shape = ", ".join(str(d) for d in abstract[path.replace("/", ".")].shape)
        lines.append(f"{var} = param(f32[{shape}], {spec if with_shardings else 'None'}, zeros, "
                     f"path='{path}')")
    lines.append("restore CKPT step=0")
    if out:
        lines.append(f"save '{out}' step=0")
    f = tmp_path / ("seed_sharded.shard" if with_shardings else "seed_no_target.shard")
    f.write_text("\n".join(lines) + "\n")
    return str(f)


def test_seed_nnx_restore_into_the_intended_sharding_and_the_bug(tmp_path, mesh):
    """Issue 19 item 4 (flax#5110): eval_shape gives shapes; with the intended
    shardings each device holds its shard, with them dropped every device
    would hold whole arrays, which the plan refuses before reading."""
    ckpt, state, abstract = _nnx_saved_replicated(tmp_path, mesh)
    out = str(tmp_path / "resaved")
    good = _seed_scenario(tmp_path, ckpt, abstract, True, out)
    rc, text, err = shardsim("run", good)
    assert rc == 0, err + text
    assert "peak per device" in text, text
    vals = shardsim_values(out, "0")
    for var, path, _ in SEED_PARAMS:
        want = np.asarray(state[path.replace("/", ".")])
        got = np.asarray(vals[path.replace("/", ".")]["values"], np.float64).astype(want.dtype)
        assert got.tobytes() == want.tobytes(), path
    bad = _seed_scenario(tmp_path, ckpt, abstract, False)
    rc, text, err = shardsim("plan", bad)
    assert rc == 1, err + text
    first = (err + text).strip().splitlines()[0]
    for word in ("out of memory", "linear1.kernel.value", "no target sharding",
                 "spec=P()"):
        assert word in first, first


def test_shardsim_reads_deep_btrees_and_many_versions_written_by_tensorstore(tmp_path):
    """Orbax's stores are one B+tree leaf and one version; TensorStore's
    format allows more. The fixture's keys copied by TensorStore into a store
    with 300-byte nodes, 16-byte inline values and version tree arity 2, in
    commits of 7 keys: interior nodes, out-of-line values, version-tree
    nodes. shardsim reads the same values from it as from the original."""
    import shutil

    import tensorstore as ts

    src = os.path.join(ROOT, "tests", "data", "orbax", "train_state")
    dst = str(tmp_path / "deep")
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("manifest.ocdbt", "d",
                                                            "ocdbt.process_*"))
    a = ts.KvStore.open({"driver": "ocdbt", "base": "file://" + src}).result()
    b = ts.KvStore.open({"driver": "ocdbt", "base": "file://" + dst,
                         "config": {"max_decoded_node_bytes": 300, "max_inline_value_bytes": 16,
                                    "version_tree_arity_log2": 1}}).result()
    keys = a.list().result()
    for i in range(0, len(keys), 7):
        with ts.Transaction() as txn:
            for k in keys[i:i + 7]:
                b.with_transaction(txn)[k] = a[k]
    dump = ts.ocdbt.dump(ts.KvStore.open({"driver": "file", "path": dst + "/"}).result()).result()
    assert dump["versions"][-1]["root_height"] >= 2 and dump["version_tree_nodes"], dump
    rc, out, err = shardsim("ckpt", "verify", dst)
    assert rc == 0, err + out
    assert shardsim_values(dst) == shardsim_values(src)
