"""Programs: a scenario (.shard) or a JAX program's StableHLO (.mlir),
planned and run on virtual devices with the C library's scenario API.

A Program holds its source and options; each plan() or run() loads it
afresh, so one Program may be planned on many meshes.
"""
import dataclasses
import os

import numpy as np

from . import _core
from ._sharding import Mesh
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


def _to_numpy(out):
    if out["data"] is None:
        return None
    shape = out["shape"]
    if out["dtype"] == "bf16":
        raw = np.frombuffer(out["data"], dtype=np.uint16).reshape(shape)
        try:
            import ml_dtypes
            return raw.view(ml_dtypes.bfloat16)
        except ImportError:  # exact: a bf16 is the top half of an f32
            return (raw.astype(np.uint32) << 16).view(np.float32)
    arr = np.frombuffer(out["data"], dtype=_NUMPY_DTYPES[out["dtype"]]).reshape(shape)
    return arr


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
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{int(n)} B"


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
    """A run on virtual devices: the plan's figures plus outputs, checks and times."""

    def __init__(self, facts):
        super().__init__(facts)
        self.outputs = {o["name"]: _to_numpy(o) for o in facts["outputs"]}
        self.checks = facts["checks"]
        self.checks_passed = facts["checks_passed"]
        self.compile_seconds = facts["compile_seconds"]
        self.first_step_seconds = facts["first_seconds"]
        self.median_step_seconds = facts["median_seconds"]


class Program:
    """A program to plan and run: ``Program(path)`` or ``Program(text=..., name=...)``.

    Options are the command line's: ``steps``, ``mesh`` (a Mesh, a dict or
    "data=64,model=64": re-plans the same program on another mesh with the
    same axis names), ``devices`` (available devices), ``device_memory``
    (bytes or "16GiB"), ``strategy`` (a strategy file), ``threads``.
    """

    def __init__(self, path=None, *, text=None, name=None, **options):
        if (path is None) == (text is None):
            raise InvalidArgumentError("Program takes a path or text=, not both")
        self.path = None if path is None else os.fspath(path)
        self.text = text
        self.name = name
        self.options = options
        self._core(**options)  # load once now: errors surface here

    def _core(self, *, steps=0, mesh=None, devices=0, device_memory=None, strategy=None,
              threads=0, trace=None, progress=None):
        mem = 0 if device_memory is None else parse_bytes(device_memory)
        kw = dict(steps=int(steps), mesh=_mesh_text(mesh), devices=int(devices),
                  device_memory=mem, strategy=None if strategy is None else os.fspath(strategy),
                  threads=int(threads), trace=None if trace is None else os.fspath(trace),
                  progress=_progress_callable(progress))
        if self.text is not None:
            return _core.Scenario(text=self.text, name=self.name, **kw)
        return _core.Scenario(self.path, **kw)

    def _merged(self, overrides):
        opts = dict(self.options)
        opts.update({k: v for k, v in overrides.items() if v is not None})
        return opts

    def plan(self, mesh=None, device_memory=None, **options):
        """Per-device peak memory, FLOPs and the collective ledger of one step."""
        sc = self._core(**self._merged(dict(options, mesh=mesh, device_memory=device_memory)))
        return Plan(sc.plan())

    def run(self, steps=None, mesh=None, device_memory=None, **options):
        """Run the steps on virtual devices; outputs come back as numpy arrays.

        ``progress=True`` shows a progress bar (tqdm when installed, else a
        line on stderr); a callable gets (done, total, elapsed_seconds)
        after each step, and an exception it raises stops the run. Ctrl-C
        stops the run after the step in progress (KeyboardInterrupt).
        """
        sc = self._core(**self._merged(dict(options, steps=steps, mesh=mesh,
                                            device_memory=device_memory)))
        return Run(sc.run())

    def explain(self, **options):
        """How each op was partitioned: its layouts and each reshard step."""
        return self._core(**self._merged(options)).explain()

    def __repr__(self):
        return f"Program({self.path or self.name or '<text>'!r})"


def _progress_callable(progress):
    if progress is None or progress is False or callable(progress):
        return progress or None
    if progress is not True:
        raise InvalidArgumentError(f"progress must be True, False or a callable, got {progress!r}")
    try:
        from tqdm import tqdm
    except ImportError:
        tqdm = None
    state = {}

    def show(done, total, elapsed):
        if tqdm is not None:
            bar = state.get("bar") or state.setdefault("bar", tqdm(total=total, unit="step"))
            bar.update(done - bar.n)
            if done == total:
                bar.close()
        else:
            import sys
            end = "\n" if done == total else ""
            print(f"\rstep {done}/{total}  {elapsed:.2f} s", end=end, file=sys.stderr, flush=True)
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
    jitted = jax.jit(fn, in_shardings=in_shardings, out_shardings=out_shardings,
                     donate_argnums=donate_argnums)
    text = jitted.lower(*args).as_text(debug_info=True)
    name = getattr(fn, "__name__", "lowered") + ".mlir"
    return Program(text=text, name=name, mesh=mesh, **options)


