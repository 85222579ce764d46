"""Orbax checkpoints from Python: ``restore(path, abstract_state)`` and
``save(path, state)`` over the library's checkpoint support (Orbax's
layouts: OCDBT, which Orbax writes by default, zarr v2 and zarr v3 files).

    abstract = jax.eval_shape(init)          # ShapeDtypeStructs with shardings
    state = shardsim.checkpoint.restore("/ckpt/5", abstract)
    state["params"]["w"].sharding            # NamedSharding(mesh, P(None, 'model'))
    shardsim.checkpoint.save("/ckpt2", state, step=0)

Leaves are named as Orbax names them: the tree path's keys joined by '.'
("params.dense.kernel"; an NNX state's "linear1.kernel.value"). Restored
leaves are numpy arrays of the global values (``ShardedArray``, an
ndarray with a ``.sharding``): each device read only the chunks its shards
need, in the target sharding, and the shards were then gathered to the
host. No JAX is needed; with JAX, pytrees are flattened by
jax.tree_util, so flax structs, nnx.State and optax states work.
"""
import dataclasses
import os

import numpy as np

from . import _core
from ._program import _NUMPY_DTYPES, _numpy_dtype
from ._sharding import Mesh, NamedSharding, PartitionSpec, _as_sharding
from .errors import InvalidArgumentError

__all__ = ["ShapeDtypeStruct", "ShardedArray", "restore", "save"]

_DTYPE_NAMES = {np.dtype(v).name: k for k, v in _NUMPY_DTYPES.items()}
_DTYPE_NAMES["bfloat16"] = "bf16"


@dataclasses.dataclass(frozen=True)
class ShapeDtypeStruct:
    """An abstract array without JAX: ``jax.ShapeDtypeStruct``'s fields."""
    shape: tuple
    dtype: object
    sharding: object = None


class ShardedArray(np.ndarray):
    """A numpy array of global values that knows the layout it had on the devices."""

    def __array_finalize__(self, obj):
        self.sharding = getattr(obj, "sharding", None)


def _key_name(k):
    for attr in ("key", "name", "idx"):
        if hasattr(k, attr):
            return str(getattr(k, attr))
    return str(k)


def _leaves_with_names(tree):
    """[(name, leaf)] and a function rebuilding the tree from new leaves."""
    try:
        import jax
    except ImportError:
        jax = None
    if jax is not None:
        is_leaf = lambda x: isinstance(x, (ShapeDtypeStruct, np.ndarray))  # noqa: E731
        pairs, treedef = jax.tree_util.tree_flatten_with_path(tree, is_leaf=is_leaf)
        named = [(".".join(_key_name(k) for k in path), leaf) for path, leaf in pairs]
        return named, lambda leaves: jax.tree_util.tree_unflatten(treedef, leaves)
    named = []

    def walk(t, prefix):
        if isinstance(t, dict):
            return {k: walk(t[k], prefix + [str(k)]) for k in sorted(t)}
        if isinstance(t, (list, tuple)):
            return type(t)(walk(v, prefix + [str(i)]) for i, v in enumerate(t))
        named.append((".".join(prefix), t))
        return len(named) - 1
    skeleton = walk(tree, [])

    def rebuild(leaves):
        def fill(t):
            if isinstance(t, dict):
                return {k: fill(v) for k, v in t.items()}
            if isinstance(t, (list, tuple)):
                return type(t)(fill(v) for v in t)
            return leaves[t]
        return fill(skeleton)
    return named, rebuild


def _dtype_name(dtype):
    name = np.dtype(dtype).name
    if name not in _DTYPE_NAMES:
        raise InvalidArgumentError(f"dtype {name} is not one shardsim stores")
    return _DTYPE_NAMES[name]


def _mesh_and_spec(sharding):
    """(mesh tuple, spec text) of a sharding (ours or JAX's), or (None, None)."""
    if sharding is None:
        return None, None
    mesh = getattr(sharding, "mesh", None)
    if mesh is not None and type(mesh).__name__ == "AbstractMesh":  # jax.eval_shape's
        sizes = tuple(int(n) for n in mesh.axis_sizes)  # devices 0..N-1 in order
        return (tuple(mesh.axis_names), sizes, tuple(range(int(np.prod(sizes))))), \
            repr(PartitionSpec(*sharding.spec))
    try:
        sh = _as_sharding(sharding)
    except InvalidArgumentError:  # a single-device sharding: no mesh to keep
        return None, None
    ids = tuple(int(i) for i in sh.mesh.devices.reshape(-1))
    return (sh.mesh.axis_names, sh.mesh.axis_sizes, ids), repr(sh.spec)


def _device_count(meshes, devices):
    if devices is not None:
        return int(devices)
    sizes = [len(m[2]) for m in meshes if m is not None]
    if sizes:
        return max(sizes)
    try:
        import jax
        return jax.device_count()
    except ImportError:
        return 8


def _step_and_dir(path, step):
    return os.fspath(path), -1 if step is None else int(step)


def restore(path, abstract_state, *, step=None, item=None, partial=False, devices=None):
    """Restore a checkpoint into ``abstract_state``'s shapes, dtypes and shardings.

    ``path``: a directory Orbax's StandardCheckpointer saved into, or a
    CheckpointManager's directory (``step``: which step; None: the latest).
    ``abstract_state``: a pytree whose leaves have ``shape``, ``dtype`` and
    ``sharding`` (jax.ShapeDtypeStruct, ours, or arrays); a leaf without a
    sharding gets the one it was saved with, and a sharding over an
    AbstractMesh (jax.eval_shape's) is taken over devices 0..N-1 in order. Stored values are cast to the
    leaf's dtype. ``partial=True`` restores only the leaves named.
    Returns the same pytree with ``ShardedArray`` leaves. Errors are
    ShardsimError subclasses with Orbax's wording (a tree mismatch, a shape
    mismatch, "Topology mismatch detected").
    """
    directory, stepno = _step_and_dir(path, step)
    named, rebuild = _leaves_with_names(abstract_state)
    stored = set(_core.ckpt_names(directory, stepno, item))
    targets = []
    for name, leaf in named:
        if name not in stored and name + ".value" in stored:
            name += ".value"  # an NNX Variable's leaf, as Orbax names it
        mesh, spec = _mesh_and_spec(getattr(leaf, "sharding", None))
        targets.append((name, _dtype_name(leaf.dtype), tuple(int(d) for d in leaf.shape),
                        mesh, spec))
    ndev = _device_count([t[3] for t in targets], devices)
    out = _core.ckpt_restore(directory, stepno, item, partial, ndev, targets)
    leaves = []
    for (name, data, spec, mesh, _saved), (_, leaf) in zip(out, named):
        names, sizes, ids = mesh
        sharding = NamedSharding(Mesh(np.asarray(ids).reshape(sizes), names),
                                 PartitionSpec(*spec))
        dt = _numpy_dtype(_dtype_name(leaf.dtype))
        arr = np.frombuffer(data, dtype=dt).reshape(tuple(leaf.shape)).view(ShardedArray)
        arr.sharding = sharding
        leaves.append(arr)
    return rebuild(leaves)


def save(path, state, *, step=None, item=None, layout="ocdbt", force=False, devices=None):
    """Save ``state`` (a pytree of arrays) as Orbax does, for Orbax to restore.

    Each leaf (numpy, a jax.Array, or a ShardedArray) is put on virtual
    devices in its ``sharding`` (a leaf without one: whole, on one device)
    and every distinct shard written once, as one chunk. ``step`` None
    writes ``path`` as one checkpoint (StandardCheckpointer.save(path));
    an int writes ``path/STEP`` (CheckpointManager's layout). ``layout``:
    "ocdbt" (Orbax's default) or "files" (zarr v2 files). Returns the
    bytes written.
    """
    if layout not in ("ocdbt", "files"):
        raise InvalidArgumentError(f"layout must be 'ocdbt' or 'files', got {layout!r}")
    directory = os.fspath(path)
    named, _ = _leaves_with_names(state)
    arrays, values = [], []
    for name, leaf in named:
        value = np.asarray(leaf, order="C")  # (ascontiguousarray makes scalars 1-d)
        mesh, spec = _mesh_and_spec(getattr(leaf, "sharding", None))
        arrays.append((name, _dtype_name(value.dtype), value.shape, mesh, spec))
        values.append(value.view(np.uint16) if value.dtype.name == "bfloat16" else value)
    ndev = _device_count([a[3] for a in arrays], devices)
    if step is not None:
        return _core.ckpt_save(directory, int(step), item, layout == "ocdbt", force, ndev,
                               arrays, values)
    # One checkpoint at `path` itself (what StandardCheckpointer.save(path)
    # makes and restore(path) reads: the item's files): written as step 0 of
    # a directory beside it, committed there, then its item moved into place.
    import shutil
    parent, base = os.path.split(os.path.abspath(directory))
    tmp = os.path.join(parent, f".{base}.shardsim-save")
    if os.path.exists(directory) and not force:
        raise InvalidArgumentError(f"Destination {directory} already exists.")
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        written = _core.ckpt_save(tmp, 0, item, layout == "ocdbt", False, ndev, arrays, values)
        if os.path.exists(directory):
            shutil.rmtree(directory)
        os.rename(os.path.join(tmp, "0", item or "default"), directory)
        for f in ("_CHECKPOINT_METADATA", "commit_success.txt"):
            os.rename(os.path.join(tmp, "0", f), os.path.join(directory, f))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return written
