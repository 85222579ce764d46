#!/usr/bin/env python3
"""zarr-python on both sides of a shardsim checkpoint (tests/test_ckpt.c runs it).

  zarr_roundtrip.py check ITEM_DIR SPEC_JSON
      Open every array listed in SPEC_JSON ({"arrays": [{"name", "dtype", "seed"}]})
      under ITEM_DIR with zarr-python and compare it, element for element, with
      the test pattern. bfloat16 arrays are opened through a store that presents
      their dtype as <u2 (numpy has no bfloat16 without ml_dtypes) and compared
      bit for bit.

  zarr_roundtrip.py write ROOT
      Write ROOT/1/ as an Orbax-style step whose arrays are written by zarr-python
      (zstd and uncompressed, chunkings that do and do not divide the shape),
      plus _METADATA, _CHECKPOINT_METADATA and commit_success.txt; print the
      arrays as JSON for the test to restore.

The pattern is the test's: element i of seed s is ((7 i + 13 s) mod 251) - 125.
Exit status 0 when everything matches, 1 otherwise (one line saying what).
"""
import json
import os
import sys

import numpy as np
import zarr
from numcodecs import Zstd

DTYPES = {"f32": "<f4", "f64": "<f8", "i32": "<i4", "bf16": "bfloat16"}


def pattern(shape, seed, dtype):
    n = int(np.prod(shape, dtype=np.int64)) if len(shape) else 1
    v = ((np.arange(n, dtype=np.int64) * 7 + seed * 13) % 251) - 125
    if dtype == "bf16":
        bits = v.astype(np.float32).view(np.uint32) >> 16
        return bits.astype(np.uint16).reshape(shape)
    return v.astype(DTYPES[dtype]).reshape(shape)


class Bf16AsU2(zarr.storage.DirectoryStore):
    """Presents dtype "bfloat16" as "<u2" so that numpy can hold the bits."""

    def __getitem__(self, key):
        value = super().__getitem__(key)
        if key.endswith(".zarray"):
            meta = json.loads(value)
            if meta.get("dtype") == "bfloat16":
                meta["dtype"] = "<u2"
                value = json.dumps(meta).encode()
        return value


def check(item_dir, spec_path):
    with open(spec_path) as f:
        spec = json.load(f)
    for a in spec["arrays"]:
        path = os.path.join(item_dir, a["name"])
        store = Bf16AsU2(path) if a["dtype"] == "bf16" else zarr.storage.DirectoryStore(path)
        z = zarr.open(store=store, mode="r")
        got = z[...]
        want = pattern(z.shape, a["seed"], a["dtype"])
        if got.dtype != want.dtype or got.shape != want.shape or not np.array_equal(got, want):
            print(f"mismatch: {a['name']} {got.dtype}{list(got.shape)} chunks={list(z.chunks)}")
            return 1
        print(f"ok {a['name']} {a['dtype']}{list(z.shape)} chunks={list(z.chunks)} "
              f"compressor={z.compressor}")
    return 0


# name, shape, chunks, dtype, seed, zstd
WRITTEN = [
    ("params.w", (12, 10), (5, 4), "f32", 21, True),
    ("params.b", (16, 8), (16, 8), "i32", 22, False),
    ("params.cube", (8, 6, 4), (3, 6, 2), "f64", 23, True),
    ("opt.0.mu", (20,), (7,), "f32", 24, False),
    ("opt.0.nu", (8, 12), (8, 3), "i32", 25, True),
    ("step", (), (), "i32", 26, False),
]


def write(root):
    step = os.path.join(root, "1")
    item = os.path.join(step, "default")
    os.makedirs(item)
    tree = {}
    for name, shape, chunks, dtype, seed, zstd in WRITTEN:
        z = zarr.open(os.path.join(item, name), mode="w", shape=shape, chunks=chunks,
                      dtype=DTYPES[dtype], compressor=Zstd(level=1) if zstd else None,
                      fill_value=None, order="C")
        z[...] = pattern(shape, seed, dtype)
        keys = name.split(".")
        tree[str(tuple(keys))] = {
            "key_metadata": [{"key": k, "key_type": 1 if k.isdigit() else 2} for k in keys],
            "value_metadata": {"value_type": "jax.Array", "skip_deserialize": False,
                               "write_shape": list(chunks)},
        }
    with open(os.path.join(item, "_METADATA"), "w") as f:
        json.dump({"tree_metadata": tree, "use_ocdbt": False, "use_zarr3": False,
                   "store_array_data_equal_to_fill_value": True, "custom_metadata": None}, f)
    with open(os.path.join(step, "_CHECKPOINT_METADATA"), "w") as f:
        json.dump({"item_handlers": {"default": "orbax.checkpoint._src.handlers."
                                     "pytree_checkpoint_handler.PyTreeCheckpointHandler"},
                   "metrics": {}, "performance_metrics": {}, "init_timestamp_nsecs": 1,
                   "commit_timestamp_nsecs": 2, "custom_metadata": {}}, f)
    with open(os.path.join(step, "commit_success.txt"), "w") as f:
        f.write(f"Checkpoint commit was successful to {step}")
    print(json.dumps({"arrays": [
        {"name": n, "shape": list(s), "chunks": list(c), "dtype": d, "seed": seed, "zstd": zs}
        for n, s, c, d, seed, zs in WRITTEN]}))
    return 0


def main(argv):
    if len(argv) == 4 and argv[1] == "check":
        return check(argv[2], argv[3])
    if len(argv) == 3 and argv[1] == "write":
        return write(argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
