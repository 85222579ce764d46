"""Assertions for a user's CI: a refactor must not add a collective or blow
the memory budget, checked on virtual devices without accelerators.

    from shardsim.testing import assert_fits, assert_collectives
    def test_train_step_fits():
        assert_fits("train_step.mlir", mesh="data=64,model=4", device_memory="16GiB")
"""
import collections

from ._program import Plan, Program, _fmt_bytes, lower, parse_bytes
from ._sharding import PartitionSpec, _as_sharding


def _plan(program, args, mesh, device_memory, options):
    if isinstance(program, Plan):
        return program
    if not isinstance(program, Program):
        program = lower(program, *args, **options)
    return program.plan(mesh=mesh, device_memory=device_memory)


def assert_fits(program, *args, device_memory, mesh=None, **options):
    """Fail unless one step's per-device peak fits in ``device_memory``.

    ``program``: a Program, a path (.mlir, .shard), a Plan, or a function
    lowered with JAX on ``args`` (``in_shardings=`` etc. in options).
    Returns the Plan.
    """
    plan = _plan(program, args, mesh, device_memory, options)
    cap = parse_bytes(device_memory)
    if plan.peak_bytes > cap:
        biggest = ", ".join(f"{n} {_fmt_bytes(b)}" for n, b in plan.peak_buffers[:5])
        raise AssertionError(
            f"peak {_fmt_bytes(plan.peak_bytes)} per device does not fit in "
            f"{_fmt_bytes(cap)} on mesh {plan.mesh!r}; largest buffers at the peak: {biggest}")
    return plan


def _count(ledger, by_axes):
    return collections.Counter((c.kind, c.axes) if by_axes else c.kind for c in ledger)


def assert_collectives(program, *args, expected, mesh=None, device_memory=None, **options):
    """Fail unless one step's collectives are exactly ``expected``.

    ``expected`` maps a kind ("all_reduce") or a (kind, axes) pair
    (("all_gather", ("data",))) to a count; kinds not named must not
    occur. Returns the Plan.
    """
    plan = _plan(program, args, mesh, device_memory, options)
    by_axes = any(isinstance(k, tuple) for k in expected)
    got = _count(plan.ledger, by_axes)
    want = collections.Counter({(k[0], tuple(k[1])) if isinstance(k, tuple) else k: v
                                for k, v in expected.items() if v})
    if got != want:
        diff = sorted(set(got) | set(want), key=str)
        lines = [f"  {k}: expected {want.get(k, 0)}, got {got.get(k, 0)}"
                 for k in diff if got.get(k, 0) != want.get(k, 0)]
        raise AssertionError("collectives differ:\n" + "\n".join(lines) + "\n" +
                             plan.ledger_table())
    return plan


def assert_sharding(x, spec, mesh=None):
    """Fail unless ``x`` (an array with a sharding, or a sharding) is laid out as ``spec``."""
    sh = _as_sharding(x)
    want = spec if isinstance(spec, PartitionSpec) else PartitionSpec(*spec)
    if sh.spec != want:
        raise AssertionError(f"sharding is {sh.spec!r}, expected {want!r}")
    if mesh is not None and sh.mesh.shape != getattr(mesh, "shape", mesh):
        raise AssertionError(f"mesh is {sh.mesh!r}, expected {mesh!r}")
