#!/usr/bin/env python3
"""Measure the bytes XLA's TPU compiler gives one array: the argument bytes
of memory_analysis() for the identity function of that array, with the
layout XLA chose, on one chip of each generation.  Writes
tests/data/xla_tpu/layouts.json, the reference of ss_layout_array_bytes
(SS_LAYOUT_TPU; tests/test_tpu_layout.c).

    tests/xla_tpu/.venv/bin/python tests/xla_tpu/make_layouts.py [--out FILE]

Needs jax[tpu] (tests/xla_tpu/requirements.txt); sets JAX_PLATFORMS=cpu
and TPU_SKIP_MDS_QUERY=1 itself.
"""

import argparse
import json
import os
import re
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("TPU_SKIP_MDS_QUERY", "1")

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.normpath(os.path.join(HERE, "..", "data", "xla_tpu", "layouts.json"))
TOPOLOGIES = ("v5e:2x4", "v5p:2x2x2")
# Shapes that tell the rules apart: minor and second-minor sizes below,
# at and above the tile, a dimension XLA moves minor, ranks 0 to 4.
SHAPES = [(), (1,), (7,), (100,), (129,), (1000,), (1, 1), (1, 300), (300, 1), (5, 9), (9, 1000),
          (17, 1000), (24, 256), (33, 1000), (1000, 75), (75, 1000), (1024, 1024), (3, 5, 7),
          (16, 16, 16), (3, 300, 5), (4, 64, 1024), (2, 2, 2, 2), (2, 3, 200, 9)]
DTYPES = ("float32", "bfloat16", "int32", "int8", "bool")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    opts = ap.parse_args(argv)
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax.experimental import topologies
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
    rows = []
    for topo in TOPOLOGIES:
        dev = topologies.get_topology_desc(platform="tpu", topology_name=topo).devices[0]
        mesh = Mesh(np.array([dev]).reshape(1), ("x",))
        for shape in SHAPES:
            for dt in DTYPES:
                a = jax.ShapeDtypeStruct(shape, jnp.dtype(dt), sharding=NamedSharding(mesh, P()))
                c = jax.jit(lambda v: v).lower(a).compile()
                layout = re.search(r"entry_computation_layout=\{\((.*?)\)->", c.as_text()).group(1)
                rows.append({"device_kind": dev.device_kind, "topology": topo, "shape": list(shape),
                             "dtype": dt, "bytes": c.memory_analysis().argument_size_in_bytes,
                             "xla_layout": layout})
    with open(opts.out, "w", encoding="utf-8") as f:
        json.dump({"command": "tests/xla_tpu/.venv/bin/python tests/xla_tpu/make_layouts.py",
                   "jax": jax.__version__, "arrays": rows}, f, indent=1)
        f.write("\n")
    print(f"make_layouts: {len(rows)} arrays -> {opts.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
