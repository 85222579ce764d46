"""What make_fixtures.py needs to know of one program."""

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np


@dataclass
class Program:
    name: str            # the fixture directory under tests/data/jax/
    doc: str             # one line: what it computes
    mesh: Any            # jax.sharding.Mesh
    fn: Callable         # handed to jax.jit
    args: tuple          # example arguments (pytrees of arrays)
    in_shardings: Any    # jax.jit's in_shardings (one per argument)
    out_shardings: Any   # jax.jit's out_shardings
    source: str = "docs/gspmd.md section 7"
    donate_argnums: tuple = ()
    set_mesh: bool = False  # lower and run under jax.set_mesh(mesh)


def rand(rng, shape, scale=1.0):
    """Standard normal float32 data from a seeded numpy Generator."""
    return (rng.standard_normal(shape) * scale).astype(np.float32)
