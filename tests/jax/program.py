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
    run: bool = True     # False: args are jax.ShapeDtypeStruct, lowered and compiled only
    memory_analysis: bool = False  # write XLA's compiled.memory_analysis() as memory.json


def rand(rng, shape, scale=1.0):
    """Standard normal float32 data from a seeded numpy Generator."""
    return (rng.standard_normal(shape) * scale).astype(np.float32)


MEMORY_FIELDS = ("argument_size_in_bytes", "output_size_in_bytes", "alias_size_in_bytes",
                 "temp_size_in_bytes", "generated_code_size_in_bytes", "peak_memory_in_bytes")


def program_outputs(prog, jitted, lowered, compiled, d):
    """make_fixtures.py's results of `prog`: jitted(*args) computed, or
    for a lowered-only program (run False) the results' shapes and dtypes
    (lowered.out_info). With memory_analysis, XLA's
    compiled.memory_analysis() (bytes per device, the fields this
    platform fills) is written to d/memory.json first. Kept out of
    make_fixtures.py so that its line numbers, which the fixtures'
    locations record, do not move."""
    import json
    import jax
    if prog.memory_analysis:
        m = compiled.memory_analysis()
        out = {f: int(getattr(m, f)) for f in MEMORY_FIELDS if getattr(m, f, None) is not None}
        with open(f"{d}/memory.json", "w", encoding="utf-8") as f:
            f.write(json.dumps(out, indent=1, sort_keys=True) + "\n")
    if not prog.run:
        return lowered.out_info
    return jax.block_until_ready(jitted(*prog.args))
