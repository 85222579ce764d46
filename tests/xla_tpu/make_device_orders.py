#!/usr/bin/env python3
"""Record the device orders JAX's mesh_utils builds on TPU slices, for
shardsim's TPU mesh order (ss_tpu_mesh_order; tests/python/test_tpu_mesh.py).

    /work/tpuvenv/bin/python tests/xla_tpu/make_device_orders.py \
        [--out tests/data/tpu_device_orders.json]

needs jax[tpu] (libtpu) as pinned in tests/xla_tpu/requirements.txt.  With
JAX_PLATFORMS=cpu and TPU_SKIP_MDS_QUERY=1 libtpu describes a slice it is
not running on (jax.experimental.topologies.get_topology_desc, with
num_slices for several slices); its devices carry the ids, coords,
core_on_chip and slice_index a real slice's devices carry, and
jax.experimental.mesh_utils orders them exactly as on that slice (it reads
nothing else).  Nothing executes on a TPU.

For each topology the file holds every device (id, coords, core_on_chip,
slice_index, in the order libtpu lists them) and, for each mesh shape,
the ids of mesh_utils.create_device_mesh(shape, devices,
allow_split_physical_axes=...) in row-major order, or the exception JAX
raised (type and message); with several slices the same for
create_hybrid_device_mesh(ici, dcn, devices, allow_split_physical_axes=...).
Both are the calls MaxText's create_device_mesh makes.
"""

import argparse
import json
import math
import os
import sys

COMMAND = "/work/tpuvenv/bin/python tests/xla_tpu/make_device_orders.py"

SINGLE = ["v5e:2x2", "v5e:2x4", "v5e:4x4", "v5e:4x8", "v5e:8x8", "v5e:16x16",
          "v6e:2x2", "v6e:4x4", "v6e:8x8",
          "v5p:2x2x1", "v5p:2x2x2", "v5p:2x2x4", "v5p:2x4x4", "v5p:4x4x4",
          "v5p:4x4x8", "v5p:4x8x8", "v5p:8x8x8",
          # sides that are not powers of two (libtpu accepts them): JAX's
          # prime factors of 10 are [5], which its axis splitting relies on
          "v5e:4x6", "v5p:2x2x3", "v5p:4x4x6", "v5p:4x4x12", "v5p:2x2x10", "v5p:4x4x10",
          # v4 in megacore mode (one device per chip, as MaxText runs it)
          "v4:2x2x1", "v4:2x2x2", "v4:2x2x4", "v4:4x4x4", "v4:4x4x8", "v4:4x8x8",
          # v7x (libtpu's "tpu7x"): two devices per chip
          "v7x:2x2x1", "v7x:2x2x2", "v7x:2x2x4", "v7x:2x4x4", "v7x:4x4x4", "v7x:4x4x8"]
MULTI = [("v5e:2x2", 2), ("v5e:2x4", 4), ("v5e:4x4", 2), ("v5e:4x4", 4),
         ("v5p:2x2x2", 2), ("v5p:4x4x4", 2), ("v6e:4x4", 3), ("v4:2x2x2", 2), ("v4:4x4x4", 4),
         ("v7x:2x2x1", 2), ("v7x:4x4x4", 2)]


def mesh_shapes(n):
    """MaxText-like ICI shapes over n devices (row-major, lowest network
    intensity first as mesh_utils expects): fsdp=-1 alone, fsdp x tensor
    both ways, data x fsdp x tensor, size-1 axes, MaxText's 12 axes."""
    shapes = [(n,), (1, n), (n, 1)]
    for t in (2, 3, 4, 5, 6, 8, 10, 12, 16):
        if t < n and n % t == 0:
            shapes += [(n // t, t), (t, n // t)]
    if n >= 16:
        shapes += [(2, n // 8, 4), (2, 2, 2, n // 8), (n // 4, 2, 2)]
    if n >= 32:
        shapes += [(4, 4, n // 16), (2, n // 16, 8)]
    if n % 20 == 0:
        shapes.append((n // 20, 2, 10))  # 10 splits where JAX finds [5] only
    if n >= 8:
        shapes += [(1, n // 4, 1, 4, 1),
                   (1, 1, n // 4, 1, 1, 1, 1, 4, 1, 1, 1, 1),
                   # tests/data/maxtext/configs/base.yml's 12 axes, tensor=4
                   (1, 1, 1, n // 4, 1, 1, 1, 1, 4, 1, 1, 1)]
    if n >= 16:
        shapes.append((2, 1, n // 8, 1, 1, 1, 1, 4, 1, 1, 1, 1))
    out = []
    for s in shapes:
        if s not in out and math.prod(s) == n:
            out.append(s)
    return out


def hybrid_shapes(n, slices):
    """(ici, dcn) pairs: the slices on the data axis, on the last axis, and
    (four slices) split over two axes."""
    pairs = []
    for ici in mesh_shapes(n):
        if len(ici) not in (2, 3, 12) or 1 in ici[:1]:
            continue
        r = len(ici)
        pairs.append((ici, (slices,) + (1,) * (r - 1)))
        if r == 2:
            pairs.append((ici, (1, slices)))
        if slices == 4 and r >= 2:
            pairs.append((ici, (2, 2) + (1,) * (r - 2)))
    return pairs


def outcome(fn):
    try:
        return {"ids": [int(d.id) for d in fn().reshape(-1)]}
    except Exception as exc:  # JAX's refusal is what is recorded
        return {"error": {"type": type(exc).__name__, "message": str(exc)}}


def topology(name, slices):
    from jax.experimental import topologies
    kw = {"num_slices": slices} if slices > 1 else {}
    if name.startswith("v4:"):  # one device per chip; libtpu's default is two
        kw["chip_config_name"] = "megacore"
    libtpu_name = "tpu7x:" + name[4:] if name.startswith("v7x:") else name
    devs = topologies.get_topology_desc(platform="tpu", topology_name=libtpu_name, **kw).devices
    return devs, {
        "topology": name, "num_slices": slices, "device_kind": devs[0].device_kind,
        "devices": [[int(d.id)] + [int(c) for c in d.coords]
                    + [int(d.core_on_chip), int(getattr(d, "slice_index", 0) or 0)]
                    for d in devs],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "data",
                                                  "tpu_device_orders.json"))
    args = ap.parse_args()
    os.environ["JAX_PLATFORMS"] = "cpu"
    os.environ["TPU_SKIP_MDS_QUERY"] = "1"
    import jax
    import jaxlib
    from jax.experimental import mesh_utils
    import libtpu
    from importlib import metadata

    topos = []
    for name in SINGLE:
        devs, rec = topology(name, 1)
        rec["cases"] = [
            dict(ici=list(s), allow_split=split,
                 **outcome(lambda: mesh_utils.create_device_mesh(
                     s, devs, allow_split_physical_axes=split)))
            for s in mesh_shapes(len(devs)) for split in (False, True)]
        topos.append(rec)
    for name, slices in MULTI:
        devs, rec = topology(name, slices)
        per = len(devs) // slices
        rec["cases"] = [
            dict(ici=list(ici), dcn=list(dcn), allow_split=split,
                 **outcome(lambda: mesh_utils.create_hybrid_device_mesh(
                     ici, dcn, devs, allow_split_physical_axes=split)))
            for ici, dcn in hybrid_shapes(per, slices) for split in (False, True)]
        topos.append(rec)
    doc = {
        "what": "device ids of jax.experimental.mesh_utils.create_device_mesh / "
                "create_hybrid_device_mesh on libtpu's topology descriptions; devices: "
                "[id, x, y, z, core_on_chip, slice_index] in libtpu's order",
        "versions": {"jax": jax.__version__, "jaxlib": jaxlib.__version__,
                     "libtpu": metadata.version("libtpu"),
                     "python": sys.version.split()[0]},
        "command": COMMAND,
        "topologies": topos,
    }
    del libtpu
    with open(args.out, "w") as f:
        f.write("{\n")
        keys = [k for k in doc if k != "topologies"]
        for k in keys:
            f.write(f"{json.dumps(k)}: {json.dumps(doc[k])},\n")
        f.write('"topologies": [\n')
        for i, t in enumerate(topos):
            f.write("{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}"
                                    for k, v in t.items() if k != "cases"))
            f.write(', "cases": [\n')
            f.write(",\n".join(json.dumps(c) for c in t["cases"]))
            f.write("\n]}" + ("," if i + 1 < len(topos) else "") + "\n")
        f.write("]}\n")
    n = sum(len(t["cases"]) for t in topos)
    bad = sum("error" in c for t in topos for c in t["cases"])
    print(f"{args.out}: {len(topos)} topologies, {n} cases ({bad} refused by JAX)")


if __name__ == "__main__":
    main()
