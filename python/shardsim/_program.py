"""Programs: a scenario (.shard) or a JAX program's StableHLO (.mlir),
planned and run on virtual devices with the C library's scenario API.

A Program holds its source and options; each plan() or run() loads it
afresh, so one Program may be planned on many meshes.
"""
import dataclasses
import os

import numpy as np

from . import _core
from ._sharding import Mesh, NamedSharding, PartitionSpec
from .errors import InvalidArgumentError

_NUMPY_DTYPES = {"f32": "float32", "f16": "float16", "f64": "float64", "i8": "int8",
                 "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8",
                 "u16": "uint16", "u32": "uint32", "u64": "uint64", "bool": "bool"}

def parse_bytes(size):
    """16 * 2**30 from 16 * 2**30, "16GiB", "16G" or "1.5GiB"; "16GB" is 16 * 10**9
    (SI units are decimal, IEC units and bare letters binary), read as the
    command line reads --device-memory (the library's ss_size_parse)."""
    n = int(size) if isinstance(size, (int, np.integer)) else _core.parse_size(str(size))
    if n <= 0:
        raise InvalidArgumentError(f"device memory must be more than 0 bytes, got {size!r}")
    return n


def _mesh_text(mesh):
    if mesh is None or isinstance(mesh, str):
        return mesh
    if isinstance(mesh, Mesh):
        return mesh._text()
    if isinstance(mesh, dict):
        return ",".join(f"{k}={int(v)}" for k, v in mesh.items())
    if hasattr(mesh, "shape") and hasattr(mesh, "axis_names"):  # a jax Mesh
        return ",".join(f"{k}={int(v)}" for k, v in mesh.shape.items())
    raise InvalidArgumentError(f"mesh must be a Mesh, a dict or 'data=2,model=4', got {mesh!r}")


def _maxtext_capsule(config):
    """The loaded C config of a maxtext.Config, or of a config path."""
    from . import maxtext
    if not isinstance(config, maxtext.Config):
        config = maxtext.load_config(config)
    return config._capsule


def _numpy_dtype(name):
    """The numpy dtype of a library dtype name; bf16 is ml_dtypes.bfloat16 (None without it)."""
    if name == "bf16":
        try:
            import ml_dtypes
            return np.dtype(ml_dtypes.bfloat16)
        except ImportError:
            return None
    return np.dtype(_NUMPY_DTYPES[name])


def _view(buffer, dtype, shape):
    """A read-only numpy array over library memory (no copy), or, for bf16
    without ml_dtypes, an f32 copy (exact: a bf16 is the top half of an f32)."""
    if buffer is None:
        return None
    dt = _numpy_dtype(dtype)
    if dt is None:
        raw = np.frombuffer(buffer, dtype=np.uint16).reshape(shape)
        return (raw.astype(np.uint32) << 16).view(np.float32)
    return np.frombuffer(buffer, dtype=dt).reshape(shape)


def _to_numpy(out):
    return _view(out["data"], out["dtype"], out["shape"])


def _as_input(value, info, k):
    """Argument k's value as a C-contiguous numpy array of the input's dtype
    and shape (no copy when it already is one; a jax.Array is fetched)."""
    want = _numpy_dtype(info["dtype"])
    arr = np.asarray(value)
    if want is None:
        raise InvalidArgumentError(f"input {k} ({info['name']}) is bf16: install ml_dtypes")
    if arr.dtype != want:
        if hasattr(value, "dtype"):
            raise InvalidArgumentError(
                f"input {k} ({info['name']}) is {info['dtype']}{list(info['shape'])}; "
                f"the value given is {arr.dtype}{list(arr.shape)}")
        arr = arr.astype(want)  # Python scalars and lists take the input's dtype
    if arr.shape != tuple(info["shape"]):
        raise InvalidArgumentError(
            f"input {k} ({info['name']}) has shape {tuple(info['shape'])}; the value given "
            f"has shape {arr.shape}")
    return np.asarray(arr, order="C")  # no copy when it already is (scalars stay 0-d)


def _flatten(tree):
    """Leaves of nested tuples, lists and dicts (dict keys sorted, as JAX flattens them)."""
    if isinstance(tree, (tuple, list)):
        return [leaf for t in tree for leaf in _flatten(t)]
    if isinstance(tree, dict):
        return [leaf for k in sorted(tree) for leaf in _flatten(tree[k])]
    if tree is None:
        return []
    return [tree]


@dataclasses.dataclass(frozen=True)
class Shard:
    """One device's piece of a result, as ``jax.Array.addressable_shards``:
    ``data`` is a read-only numpy view of that device's arena (no copy)."""
    device: int
    index: tuple              # a tuple of slices into the global array
    replica_id: int
    data: np.ndarray


@dataclasses.dataclass(frozen=True)
class Collective:
    """One collective of a step, as the ledger records it."""
    seq: int
    kind: str                 # all_reduce, all_gather, reduce_scatter, all_to_all, ...
    op: str                   # reduction: sum, max, min, mean
    axes: tuple               # mesh axes it runs over, in its order
    group_size: int
    ngroups: int
    dtype: str
    bytes: int                # the array's bytes (S)
    sent: float               # bytes each device sends
    received: float
    value_name: str           # the program value it was made for
    line: int                 # where the file made that value (0: unknown)
    col: int
    value_op: str
    user: bool                # written by the user (psum ...) rather than by the partitioner
    phase: str                # forward, backward, optimizer
    replica_groups: list
    source_target_pairs: list
    # A loop's collective: {"value", "iteration" (step from 0), "trips" (None
    # for a while), "region" ("body" or "cond"), "op", "name"}; None outside loops.
    loop: "dict | None" = None


def _fmt_bytes(n):
    """A byte count as the reports write it ("1.5 MiB"): the library's own formatter."""
    return _core.format_size(float(n))


class Plan:
    """What one step costs on each device, without data (jax.eval_shape's analog)."""

    def __init__(self, facts):
        self._facts = facts
        names, sizes, ids = facts["mesh"]
        self.mesh = Mesh(np.asarray(ids).reshape(sizes), names)
        self.peak_bytes = facts["peak_bytes"]
        self.device_memory = facts["device_memory"]
        self.fits = facts["fits"]
        self.flops = facts["flops"]
        self.sent_bytes = facts["sent_bytes"]
        self.ledger = [Collective(**c) for c in facts["ledger"]]
        self.peak_buffers = list(facts["peak_buffers"])
        self.steps = facts["steps"]

    def ledger_table(self):
        """The ledger grouped by axes and kind: count, bytes sent per device, share."""
        rows = {}
        for c in self.ledger:
            key = (c.axes, c.kind)
            n, sent = rows.get(key, (0, 0.0))
            rows[key] = (n + 1, sent + c.sent)
        total = sum(s for _, s in rows.values()) or 1.0
        lines = [f"{'axes':<22} {'kind':<16} {'count':>6} {'bytes/device':>14} {'share':>7}"]
        for (axes, kind), (n, sent) in sorted(rows.items(), key=lambda kv: -kv[1][1]):
            lines.append(f"{str(axes):<22} {kind:<16} {n:>6} {_fmt_bytes(sent):>14} "
                         f"{100 * sent / total:>6.1f}%")
        lines.append(f"total: {len(self.ledger)} collectives, "
                     f"{_fmt_bytes(sum(c.sent for c in self.ledger))} sent per device")
        return "\n".join(lines)

    def __repr__(self):
        verdict = "fits" if self.fits else "does NOT fit"
        return (f"<{type(self).__name__}: peak {_fmt_bytes(self.peak_bytes)} per device of "
                f"{_fmt_bytes(self.device_memory)} ({verdict}), {len(self.ledger)} collectives, "
                f"mesh {self.mesh!r}>")


class Run(Plan):
    """A run on virtual devices: the plan's figures plus outputs, checks and times.

    ``outputs`` maps each result's name to its global value after the last
    step, a read-only numpy array over the run's host copy (gathered from
    the devices once; no further copy). ``result`` is the function's return
    value with those arrays as leaves (a program lowered from a JAX
    function; else the list of outputs). ``shards(name)`` gives each
    device's piece as a read-only view of its arena, and ``sharding(name)``
    the layout the partitioner gave the result. Copies are made only for
    bf16 results when ml_dtypes is missing (then f32 arrays).
    """

    def __init__(self, facts, core=None, out_tree=None):
        super().__init__(facts)
        self._core = core
        self._dtypes = {o["name"]: o["dtype"] for o in facts["outputs"]}
        self._index = {o["name"]: i for i, o in enumerate(facts["outputs"])}
        self.outputs = {o["name"]: _to_numpy(o) for o in facts["outputs"]}
        leaves = [self.outputs[o["name"]] for o in facts["outputs"]]
        if out_tree is not None:
            import jax
            self.result = jax.tree_util.tree_unflatten(out_tree, leaves)
        else:
            self.result = leaves
        self.checks = facts["checks"]
        self.checks_passed = facts["checks_passed"]
        self.compile_seconds = facts["compile_seconds"]
        self.first_step_seconds = facts["first_seconds"]
        self.median_step_seconds = facts["median_seconds"]

    def _shards(self, name):
        if self._core is None or name not in self._index:
            raise KeyError(name)
        return self._core.output_shards(self._index[name])

    def shards(self, name):
        """Result ``name``'s per-device shards in mesh order (replicas included)."""
        pieces, _ = self._shards(name)
        out = []
        for device, _pos, replica, start, stop, buf in pieces:
            shape = tuple(b - a for a, b in zip(start, stop))
            index = tuple(slice(a, b) for a, b in zip(start, stop))
            out.append(Shard(device, index, replica, _view(buf, self._dtypes[name], shape)))
        return out

    def sharding(self, name):
        """Result ``name``'s layout on the devices, a NamedSharding over the run's mesh."""
        _, spec = self._shards(name)
        return NamedSharding(self.mesh, PartitionSpec(*spec))


class Program:
    """A program to plan and run: ``Program(path)`` or ``Program(text=..., name=...)``.

    Options are the command line's: ``steps``, ``mesh`` (a Mesh, a dict or
    "data=64,model=64": re-plans the same program on another mesh with the
    same axis names), ``devices`` (available devices), ``device_memory``
    (bytes or "16GiB"), ``strategy`` (a strategy file), ``threads``,
    ``sets`` ({"LAYERS": 32}: a scenario's integer constants, --set),
    ``maxtext`` (a ``shardsim.maxtext.Config`` or a config path: its mesh
    over ``devices`` in ``slices`` slices and its logical_axis_rules replace
    a scenario's mesh and rules, as ``--maxtext``; ``topology`` "v5e:16x16":
    TPU slices give the devices and their order, as ``--topology``).
    """

    def __init__(self, path=None, *, text=None, name=None, **options):
        if (path is None) == (text is None):
            raise InvalidArgumentError("Program takes a path or text=, not both")
        self.path = None if path is None else os.fspath(path)
        self.text = text
        self.name = name
        self.options = options
        self._in_tree = self._out_tree = None  # set by lower(): the JAX function's pytrees
        self._inputs = None
        # Loaded once now, so errors surface here; the first plan() or run()
        # with the same options takes this Scenario instead of loading again.
        kw, progress = self._kw(**options)
        self._fresh = (self._new_core(kw, progress), kw)

    @property
    def inputs(self):
        """The program's inputs in order: dicts of name, dtype, shape, spec (the layout
        propagation gave it: compiles the program once), is_param, hidden (optimizer
        state a scenario makes) and given (values from a file)."""
        if self._inputs is None:
            self._inputs = self._core(**self.options).inputs()
        return [dict(i) for i in self._inputs]

    @staticmethod
    def _kw(*, steps=0, mesh=None, devices=0, device_memory=None, strategy=None, threads=0,
            trace=None, progress=None, sets=None, maxtext=None, slices=0, topology=None):
        """The Scenario's options (without progress), and the progress callable."""
        mem = 0 if device_memory is None else parse_bytes(device_memory)
        kw = dict(steps=int(steps), mesh=_mesh_text(mesh), devices=int(devices),
                  device_memory=mem, strategy=None if strategy is None else os.fspath(strategy),
                  threads=int(threads), trace=None if trace is None else os.fspath(trace),
                  sets=None if sets is None else {str(k): int(v) for k, v in sets.items()},
                  maxtext=None if maxtext is None else _maxtext_capsule(maxtext),
                  slices=int(slices or 0), topology=None if topology is None else str(topology))
        return kw, _progress_callable(progress)

    def _new_core(self, kw, progress):
        if self.text is not None:
            return _core.Scenario(text=self.text, name=self.name, progress=progress, **kw)
        return _core.Scenario(self.path, progress=progress, **kw)

    def _core(self, **options):
        """A loaded Scenario for these options: the one loaded by __init__ if it
        has the same options and was not used yet, else a new one."""
        kw, progress = self._kw(**options)
        fresh, self._fresh = self._fresh, None
        if fresh is not None and fresh[1] == kw:
            fresh[0].set_progress(progress)
            return fresh[0]
        return self._new_core(kw, progress)

    def _merged(self, overrides):
        opts = dict(self.options)
        opts.update({k: v for k, v in overrides.items() if v is not None})
        return opts

    def plan(self, mesh=None, device_memory=None, **options):
        """Per-device peak memory, FLOPs and the collective ledger of one step."""
        sc = self._core(**self._merged(dict(options, mesh=mesh, device_memory=device_memory)))
        return Plan(sc.plan())

    def run(self, *inputs, steps=None, mesh=None, device_memory=None, **options):
        """Run the steps on virtual devices; outputs come back as numpy arrays.

        ``inputs`` are the program's arguments, as the JAX function takes
        them (pytrees of numpy or JAX arrays, flattened as JAX flattens
        them) or as one array per input in order; without them an imported
        program runs on deterministic random values and a scenario on its
        initializers. Values that are C-contiguous numpy arrays of the
        input's dtype are passed to the library without a copy (a
        jax.Array is fetched to the host first). Results that update
        inputs (donated arguments, a scenario's params) feed the next step.

        The run calls its progress callable after each step: by default a
        run still going after 2 seconds shows a tqdm bar when tqdm is
        installed (nothing otherwise); ``progress=True`` shows one from
        the start (a line on stderr without tqdm), ``False`` none, and a
        callable gets (done, total, elapsed_seconds); an exception it
        raises stops the run. Ctrl-C stops the run after the step in
        progress and raises KeyboardInterrupt (the library's cancel flag).
        """
        opts = self._merged(dict(options, steps=steps, mesh=mesh, device_memory=device_memory))
        progress = opts["progress"] = _progress_callable(opts.get("progress", "auto"))
        sc = self._core(**opts)
        if inputs:
            self._give(sc, inputs)
        try:
            facts = sc.run()
        finally:
            getattr(progress, "close", lambda: None)()
        return Run(facts, sc, self._out_tree)

    def _give(self, sc, inputs):
        infos = [i for i in sc.inputs()]
        slots = [k for k, i in enumerate(infos) if not i["hidden"]]
        if self._in_tree is not None:
            import jax
            leaves, tree = jax.tree_util.tree_flatten(tuple(inputs))
            if tree.num_leaves != self._in_tree.num_leaves:  # static fields may differ
                raise InvalidArgumentError(f"run(*inputs): the arguments' structure {tree} is "
                                           f"not the lowered function's {self._in_tree}")
        else:
            leaves = list(inputs) if len(inputs) == len(slots) else _flatten(list(inputs))
        if len(leaves) != len(slots):
            names = ", ".join(infos[k]["name"] for k in slots)
            raise InvalidArgumentError(f"run(*inputs): {len(leaves)} arrays given; the program "
                                       f"takes {len(slots)} ({names})")
        for leaf, k in zip(leaves, slots):
            sc.set_input(k, _as_input(leaf, infos[k], k))

    def explain(self, **options):
        """How each op was partitioned: its layouts and each reshard step."""
        return self._core(**self._merged(options)).explain()

    def __repr__(self):
        return f"Program({self.path or self.name or '<text>'!r})"


#: Seconds after which a run started with progress="auto" shows a tqdm bar.
PROGRESS_AFTER_SECONDS = 2.0


def _progress_callable(progress):
    if progress is None or progress is False or callable(progress):
        return progress or None
    if progress not in (True, "auto"):
        raise InvalidArgumentError(f"progress must be True, False or a callable, got {progress!r}")
    try:
        from tqdm import tqdm
    except ImportError:
        tqdm = None
    if progress == "auto" and tqdm is None:
        return None
    state = {}

    def show(done, total, elapsed):
        if progress == "auto" and "bar" not in state and (
                elapsed < PROGRESS_AFTER_SECONDS or done == total):
            return
        if tqdm is not None:
            bar = state.get("bar") or state.setdefault("bar", tqdm(total=total, unit="step"))
            bar.update(done - bar.n)
            if done == total:
                close()
        else:
            import sys
            end = "\n" if done == total else ""
            print(f"\rstep {done}/{total}  {elapsed:.2f} s", end=end, file=sys.stderr, flush=True)

    def close():  # after the run, also when it stopped early
        if state.get("bar") is not None:
            state.pop("bar").close()
    show.close = close
    return show


def load(path, **options):
    """``Program(path, **options)``: a .shard scenario or a .mlir JAX program."""
    return Program(path, **options)


def lower(fn, *args, in_shardings=None, out_shardings=None, mesh=None, donate_argnums=(),
          **options):
    """Lower ``fn`` with JAX and import the StableHLO text it emits.

    With JAX installed: ``jax.jit(fn, in_shardings=..., out_shardings=...,
    donate_argnums=...).lower(*args).as_text()`` becomes a Program. ``fn``
    may also be a path to a ``.mlir`` or ``.shard`` file (then no JAX is
    needed and ``args`` must be empty).
    """
    if isinstance(fn, (str, os.PathLike)):
        if args:
            raise InvalidArgumentError("lower(path) takes no arguments")
        return Program(fn, mesh=mesh, **options)
    try:
        import jax
    except ImportError:
        raise ImportError("shardsim.lower(fn, ...) needs JAX (pip install shardsim[jax]); "
                          "without it, pass the path of a .mlir or .shard file") from None
    # keep_unused: every argument stays a module argument, so run(*inputs)
    # can hand the flattened arguments over in order.
    jitted = jax.jit(fn, in_shardings=in_shardings, out_shardings=out_shardings,
                     donate_argnums=donate_argnums, keep_unused=True)
    lowered = jitted.lower(*args)
    text = lowered.as_text(debug_info=True)
    name = getattr(fn, "__name__", "lowered") + ".mlir"
    prog = Program(text=text, name=name, mesh=mesh, **options)
    prog._in_tree = jax.tree_util.tree_structure(tuple(args))
    prog._out_tree = lowered.out_tree
    return prog


