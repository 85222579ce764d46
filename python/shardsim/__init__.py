"""shardsim: a mesh of virtual accelerator devices on the CPU, in Python.

    import shardsim as ss
    mesh = ss.make_mesh((2, 4), ('data', 'model'))
    print(ss.visualize(ss.NamedSharding(mesh, ss.P('data', 'model')), (8, 8)))
    plan = ss.load("train_step.mlir").plan(mesh="data=64,model=64", device_memory="16GiB")
    print(plan.peak_bytes, plan.fits, plan.ledger_table())

Meshes, PartitionSpecs and NamedShardings speak JAX's vocabulary and give
JAX's answers; programs (a ``.shard`` scenario, or the StableHLO text of
``jax.jit(f).lower(...)``) are planned and run by the C library. Errors
are ``shardsim.errors.ShardsimError`` subclasses; ``shardsim.checkpoint``
restores and saves Orbax checkpoints; ``shardsim.maxtext`` reads MaxText
configurations (rules, mesh, layouts).
"""
from . import checkpoint, errors, maxtext
from ._program import Collective, Plan, Program, Run, Shard, load, lower, parse_bytes
from ._sharding import (UNCONSTRAINED, Mesh, NamedSharding, P, PartitionSpec, Picture,
                        logical_to_mesh_axes, make_mesh, visualize)
from .errors import ShardsimError

__all__ = [
    "Collective", "Mesh", "NamedSharding", "P", "PartitionSpec", "Picture", "Plan", "Program",
    "Run", "Shard", "ShardsimError", "UNCONSTRAINED", "checkpoint", "errors", "load", "maxtext", "logical_to_mesh_axes", "lower",
    "make_mesh", "parse_bytes", "visualize",
]
__version__ = "0.1.0"
