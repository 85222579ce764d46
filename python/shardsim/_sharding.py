"""Meshes, PartitionSpecs and NamedShardings in JAX's vocabulary.

Devices are plain integer ids (JAX's ``Device.id``); everything else keeps
JAX's names, argument order and reprs, and every answer (shard shapes,
indices, HLO strings, pictures, errors) comes from the C library, which is
held to JAX's own outputs by shardsim's test suite.
"""
import collections
import math

import numpy as np

from . import _core
from .errors import InvalidArgumentError


def _device_ids(devices):
    """JAX Device objects, or ints, as an int ndarray of the same shape."""
    arr = np.asarray(devices, dtype=object)
    return np.vectorize(lambda d: int(getattr(d, "id", d)), otypes=[np.int64])(arr) \
        if arr.size else np.zeros(arr.shape, np.int64)


class Mesh:
    """A mesh of virtual devices: ``Mesh(devices, axis_names)`` as in JAX.

    ``devices`` is an ndarray (or nested lists) of device ids, one
    dimension per axis name; ``Mesh(np.arange(8).reshape(2, 4), ('data',
    'model'))``. JAX Device objects are accepted too (their ``id``).
    """

    def __init__(self, devices, axis_names):
        ids = _device_ids(devices)
        names = (axis_names,) if isinstance(axis_names, str) else tuple(axis_names)
        if ids.ndim != len(names):
            raise InvalidArgumentError(
                f"Mesh requires the ndim of its first argument (`devices`) to equal the length "
                f"of its second argument (`axis_names`), got devices.ndim == {ids.ndim} and "
                f"len(axis_names) == {len(names)}.")
        self._ids = ids
        self._names = names
        # Validates (distinct ids, names, limits) with the library's errors.
        self._str = _core.mesh_repr(*self._args(), True)

    def _flat_ids(self):
        """The ids in mesh order, or None when they are 0..N-1 (an iota mesh)."""
        flat = tuple(int(i) for i in self._ids.reshape(-1))
        return None if flat == tuple(range(len(flat))) else flat

    def _args(self):
        return (self._names, self.axis_sizes, self._flat_ids())

    @property
    def devices(self):
        """The device ids, an ndarray shaped like the mesh."""
        return self._ids.copy()

    @property
    def axis_names(self):
        return self._names

    @property
    def axis_sizes(self):
        return tuple(int(s) for s in self._ids.shape)

    @property
    def shape(self):
        """``OrderedDict`` of axis name to size, as JAX's ``Mesh.shape``."""
        return collections.OrderedDict(zip(self._names, self.axis_sizes))

    @property
    def shape_tuple(self):
        return tuple(zip(self._names, self.axis_sizes))

    @property
    def size(self):
        return int(self._ids.size)

    @property
    def device_ids(self):
        return self._ids.copy()

    def picture(self):
        """Which device sits where: a box per mesh, the last axis across."""
        return Picture(_core.mesh_picture(*self._args()))

    def __eq__(self, other):
        return (isinstance(other, Mesh) and self._names == other._names
                and np.array_equal(self._ids, other._ids))

    def __hash__(self):
        return hash((self._names, self._ids.tobytes(), self._ids.shape))

    def __repr__(self):
        """JAX's repr: Mesh(axis_sizes=(2, 4), axis_names=('data', 'model'), axis_types=...)."""
        types = ", ".join("Auto" for _ in self._names)
        types = f"({types},)" if len(self._names) == 1 else f"({types})"
        return (f"Mesh(axis_sizes={self.axis_sizes!r}, axis_names={self._names!r}, "
                f"axis_types={types})")

    def __str__(self):
        """JAX's str: Mesh('data': 2, 'model': 4, axis_types=(Auto, Auto))."""
        return self._str

    def _text(self):
        """"data=2,model=4": the library's command-line spelling."""
        return ",".join(f"{n}={s}" for n, s in zip(self._names, self.axis_sizes))


def make_mesh(axis_shapes, axis_names, *, devices=None):
    """``jax.make_mesh``: the first ``prod(axis_shapes)`` devices in order.

    ``devices`` is a count of available devices (default: exactly enough) or
    a sequence of device ids (or JAX devices) to take them from.
    """
    shape = tuple(int(s) for s in axis_shapes)
    n = math.prod(shape)
    if devices is None:
        ids = np.arange(n)
    elif isinstance(devices, int):
        if devices < n:
            raise InvalidArgumentError(
                f"Number of devices {devices} must be >= the product of mesh_shape {shape}")
        ids = np.arange(n)
    else:
        pool = _device_ids(list(devices)).reshape(-1)
        if pool.size < n:
            raise InvalidArgumentError(
                f"Number of devices {pool.size} must be >= the product of mesh_shape {shape}")
        ids = pool[:n]
    return Mesh(ids.reshape(shape), axis_names)


class _Unconstrained:
    def __repr__(self):
        return "UNCONSTRAINED"

    def __reduce__(self):
        return "UNCONSTRAINED"


UNCONSTRAINED = _Unconstrained()


class PartitionSpec(tuple):
    """``P('data', None)``: one entry per leading dimension of an array.

    An entry is None (replicated), an axis name, or a tuple of axis names
    (major first). Trailing None entries may be left out.
    """

    UNCONSTRAINED = UNCONSTRAINED

    def __new__(cls, *entries):
        norm = []
        for e in entries:
            if isinstance(e, (list, tuple)):
                e = tuple(e)
                for a in e:
                    if not isinstance(a, str):
                        raise InvalidArgumentError(
                            f"A tuple inside PartitionSpec cannot contain a nested tuple. "
                            f"Got {entries!r}" if isinstance(a, tuple)
                            else f"PartitionSpec entries must be str, None or tuples of str, "
                                 f"got {a!r}")
                e = None if not e else e[0] if len(e) == 1 else e
            elif e is not None and e is not UNCONSTRAINED and not isinstance(e, str):
                raise InvalidArgumentError(
                    f"PartitionSpec entries must be str, None or tuples of str, got {e!r}")
            norm.append(e)
        return super().__new__(cls, norm)

    def __repr__(self):
        def entry(e):
            if isinstance(e, tuple):
                return "(" + ", ".join(repr(a) for a in e) + ")"
            return repr(e)
        inner = ", ".join(entry(e) for e in self)
        return f"P({inner},)" if len(self) == 1 else f"P({inner})"

    def _text(self):
        """The spec as the library parses it."""
        return repr(self)

    def __eq__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        a, b = list(self), list(PartitionSpec(*other))
        while a and a[-1] is None:
            a.pop()
        while b and b[-1] is None:
            b.pop()
        return a == b

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    def __hash__(self):
        a = list(self)
        while a and a[-1] is None:
            a.pop()
        return hash(tuple(a))


P = PartitionSpec


class NamedSharding:
    """``NamedSharding(mesh, spec)``: how an array is laid out over a mesh."""

    def __init__(self, mesh, spec=PartitionSpec(), memory_kind=None):
        if not isinstance(mesh, Mesh):
            mesh = _mesh_from_jax(mesh)
        if not isinstance(spec, PartitionSpec):
            spec = PartitionSpec(*spec)
        self.mesh = mesh
        self.spec = spec
        self.memory_kind = memory_kind
        info = _core.sharding_info(*mesh._args(), spec._text(), None, "f32")
        self._repr = info["repr"]
        self.is_fully_replicated = info["replicated"]

    def _info(self, global_shape, dtype="f32"):
        shape = tuple(int(d) for d in global_shape)
        return _core.sharding_info(*self.mesh._args(), self.spec._text(), shape,
                                   np.dtype(dtype).name if not isinstance(dtype, str) else dtype)

    @property
    def num_devices(self):
        return self.mesh.size

    @property
    def device_set(self):
        return set(int(i) for i in self.mesh._ids.reshape(-1))

    def shard_shape(self, global_shape):
        """The block each device holds (JAX's ``shard_shape``)."""
        return self._info(global_shape)["shard_shape"]

    def devices_indices_map(self, global_shape):
        """``{device id: (slice, ...)}`` in mesh order, as JAX's method."""
        out = {}
        for dev, _pos, start, stop, _rep in self._info(global_shape)["shards"]:
            out[dev] = tuple(slice(a, b) if (a, b) != (0, d) else slice(None)
                             for a, b, d in zip(start, stop, global_shape))
        return out

    def shards(self, global_shape):
        """Every device's shard: (device, start, stop, replica_id) in mesh order."""
        return [(dev, start, stop, rep)
                for dev, _pos, start, stop, rep in self._info(global_shape)["shards"]]

    def hlo_sharding(self, ndim):
        """The HLO sharding text XLA prints for an array of ``ndim`` dims.

        Its device lists hold device ids; JAX's ``_to_xla_hlo_sharding``
        numbers devices by their position in the mesh instead, which is the
        same for a mesh whose devices are in id order.
        """
        tiles = []
        sizes = self.mesh.shape
        for d in range(ndim):
            e = self.spec[d] if d < len(self.spec) else None
            axes = () if e is None or e is UNCONSTRAINED else (e,) if isinstance(e, str) else e
            tiles.append(math.prod(sizes[a] for a in axes if a in sizes) or 1)
        return self._info(tuple(tiles))["hlo"]

    def __eq__(self, other):
        return (isinstance(other, NamedSharding) and self.mesh == other.mesh
                and self.spec == other.spec)

    def __hash__(self):
        return hash((self.mesh, self.spec))

    def __repr__(self):
        return self._repr


def _mesh_from_jax(mesh):
    """A jax.sharding.Mesh (or anything with devices and axis_names) as ours."""
    try:
        return Mesh(mesh.devices, mesh.axis_names)
    except AttributeError:
        raise InvalidArgumentError(f"not a mesh: {mesh!r}") from None


def _as_sharding(x):
    """A NamedSharding of ours from ours, a JAX NamedSharding, or an array with one."""
    if isinstance(x, NamedSharding):
        return x
    sh = getattr(x, "sharding", x)
    if isinstance(sh, NamedSharding):
        return sh
    if hasattr(sh, "mesh") and hasattr(sh, "spec"):
        return NamedSharding(_mesh_from_jax(sh.mesh), PartitionSpec(*sh.spec))
    raise InvalidArgumentError(f"no NamedSharding in {type(x).__name__} (JAX's "
                               "visualize_array_sharding needs one too)")


class Picture:
    """A picture of a layout: prints as text, shows in colour in a notebook."""

    def __init__(self, text, ansi=None):
        self.text = text
        self.ansi = ansi

    def __str__(self):
        return self.text

    def __repr__(self):
        return self.text.rstrip("\n")

    def __eq__(self, other):
        return str(self) == str(other)

    def __hash__(self):
        return hash(self.text)

    def _repr_html_(self):
        return _ansi_to_html(self.ansi if self.ansi is not None else self.text)


def _ansi_to_html(text):
    import html
    import re
    out, style, pos = [], None, 0
    for m in re.finditer(r"\x1b\[([0-9;]*)m", text):
        chunk = html.escape(text[pos:m.start()])
        out.append(f'<span style="{style}">{chunk}</span>' if style and chunk else chunk)
        codes = [int(c) for c in m.group(1).split(";") if c]
        style = None
        if len(codes) >= 10 and codes[0] == 38 and codes[5] == 48:
            fg, bg = codes[2:5], codes[7:10]
            style = f"color:rgb({fg[0]},{fg[1]},{fg[2]});background:rgb({bg[0]},{bg[1]},{bg[2]})"
        pos = m.end()
    out.append(html.escape(text[pos:]))
    return '<pre style="line-height:1.2;font-family:monospace">' + "".join(out) + "</pre>"


def visualize(x, shape=None, *, max_width=80, platform="CPU"):
    """``jax.debug.visualize_array_sharding``'s picture, as a Picture.

    ``x`` is an array with a ``.sharding`` (a JAX array, or anything with
    ``.shape`` and ``.sharding``), or a NamedSharding with ``shape``. Arrays
    of rank > 2 get one picture per block of their leading dimensions.
    """
    sh = _as_sharding(x)
    if shape is None:
        shape = getattr(x, "shape", None)
        if shape is None:
            raise InvalidArgumentError("visualize(sharding) needs the array's shape: "
                                       "visualize(sharding, shape)")
    shape = tuple(int(d) for d in shape)
    args = (*sh.mesh._args(), sh.spec._text(), shape)
    text = _core.visualize(*args, False, max_width, platform)
    ansi = _core.visualize(*args, True, max_width, platform)
    return Picture(text, ansi)


def logical_to_mesh_axes(array_dim_names, rules, *, mesh=None, strict=False,
                         fallback="unsharded"):
    """Flax's ``nn.logical_to_mesh_axes``: logical names to a PartitionSpec.

    ``rules`` is a sequence of (logical name, mesh axis or tuple or None)
    pairs, in priority order, as Flax and MaxText write them. With a mesh,
    an axis absent from it is JAX's error. ``fallback``: "unsharded"
    (Flax's default), "raise" or "none" (no constraint: returns None).
    """
    modes = {"unsharded": 0, "raise": 1, "none": 2}
    if fallback not in modes:
        raise InvalidArgumentError(f"fallback must be one of {sorted(modes)}, got {fallback!r}")
    parts = []
    for name, axes in rules:
        if axes is None:
            parts.append(f"{name}=None")
        elif isinstance(axes, str):
            parts.append(f"{name}={axes}")
        else:
            parts.append(f"{name}=(" + ",".join(axes) + ")")
    names = PartitionSpec(*array_dim_names)
    m = None if mesh is None else (mesh if isinstance(mesh, Mesh) else _mesh_from_jax(mesh))
    spec_text, constrained = _core.resolve_rules(",".join(parts), names._text(),
                                                 None if m is None else m._args(), strict,
                                                 modes[fallback])
    if not constrained:
        return None
    return _spec_from_text(spec_text)


def _spec_from_text(text):
    """The PartitionSpec of the library's repr "P('a', ('b', 'c'), None)"."""
    import ast
    body = text[2:-1] if text.startswith("P(") else text
    val = ast.literal_eval("(" + body + ")" if body else "()")
    if not isinstance(val, tuple):
        val = (val,)
    return PartitionSpec(*val)
