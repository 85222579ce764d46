#!/usr/bin/env python3
"""The README's table of StableHLO ops shardsim's importer does not read,
made from the sources so that it stays true.

    python3 tools/unsupported_ops.py            print the table
    python3 tools/unsupported_ops.py --check    exit 1 unless README.md holds it
    python3 tools/unsupported_ops.py --write    put it into README.md

An op is read when its name appears as a string literal ("stablehlo.NAME")
in the importer's dispatch (sim/front/stablehlo/import*.c); every other op
of the StableHLO specification (SPEC_OPS) is a row, with the number of files
of JAX's own lowerings in tests/data/stablehlo/testdata (the conformance
sample, lowered by JAX) that use it, and its reason from REASONS. The script
fails when an unread op has no reason or a reason names an op that is read,
so the table cannot go stale silently. Python's standard library only.
"""

import glob
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
BEGIN = "<!-- unsupported-ops: made by tools/unsupported_ops.py, do not edit -->"
END = "<!-- end unsupported-ops -->"

# The ops of the StableHLO specification (the spec's "Ops" section in the
# openxla/stablehlo repository, at the commit tests/data/stablehlo/README.md
# names).
SPEC_OPS = """
abs add after_all all_gather all_reduce all_to_all and atan2 batch_norm_grad
batch_norm_inference batch_norm_training bitcast_convert broadcast_in_dim case cbrt
ceil cholesky clamp collective_broadcast collective_permute compare complex composite
concatenate constant convert convolution cosine count_leading_zeros custom_call divide
dot_general dynamic_broadcast_in_dim dynamic_conv dynamic_gather dynamic_iota
dynamic_pad dynamic_reshape dynamic_slice dynamic_update_slice exponential
exponential_minus_one fft floor gather get_dimension_size get_tuple_element if imag
infeed iota is_finite log log_plus_one logistic map maximum minimum multiply negate
not optimization_barrier or outfeed pad partition_id popcnt power real recv reduce
reduce_precision reduce_scatter reduce_window remainder replica_id reshape reverse rng
rng_bit_generator round_nearest_afz round_nearest_even rsqrt scatter select
select_and_scatter send shift_left shift_right_arithmetic shift_right_logical sign
sine slice sort sqrt subtract tan tanh transpose triangular_solve tuple
uniform_dequantize uniform_quantize while xor
""".split()

_DYNAMIC = ("dynamic shapes: JAX emits it only for shape-polymorphic exports "
            "(`jax.export` with symbolic dims); shardsim's shapes are static")
_COMPLEX = "complex element types (`jnp.fft`, complex arrays): no complex dtype in shardsim"
_TOKENS = ("tokens and host I/O (infeed, outfeed, send, recv): not in the jit programs of "
           "arrays shardsim simulates; no token type")
_QUANT = "quantized element types (`!quant.uniform`): no quantized dtype in shardsim"
REASONS = {
    "after_all": _TOKENS, "infeed": _TOKENS, "outfeed": _TOKENS, "send": _TOKENS,
    "recv": _TOKENS,
    "batch_norm_grad": "JAX does not emit it (Flax's BatchNorm lowers to reduce and "
                       "elementwise ops, which are read)",
    "batch_norm_inference": "JAX does not emit it (as batch_norm_grad)",
    "batch_norm_training": "JAX does not emit it (as batch_norm_grad)",
    "cholesky": "linear algebra (`jnp.linalg`; on CPU JAX calls LAPACK through custom "
                "calls): outside the ops sharded transformer training needs",
    "triangular_solve": "linear algebra (as cholesky)",
    "collective_broadcast": "JAX 0.10.2 has no primitive that emits it",
    "complex": _COMPLEX, "real": _COMPLEX, "imag": _COMPLEX, "fft": _COMPLEX,
    "composite": "JAX emits it only for `jax.lax.composite`; no decomposition is inlined yet",
    "convolution": "convolutions (`lax.conv_general_dilated`, Flax `Conv`): no kernel, "
                   "cost or partitioning rule (XLA exchanges halos) yet",
    "dynamic_broadcast_in_dim": _DYNAMIC, "dynamic_conv": _DYNAMIC,
    "dynamic_gather": _DYNAMIC, "dynamic_iota": _DYNAMIC, "dynamic_pad": _DYNAMIC,
    "dynamic_reshape": _DYNAMIC, "get_dimension_size": _DYNAMIC,
    "get_tuple_element": "tuples: JAX 0.10.2 lowers a function's results as separate "
                         "values and emits no tuple ops",
    "tuple": "tuples (as get_tuple_element)",
    "map": "JAX 0.10.2 does not emit it (`jnp.vectorize` and `vmap` lower to "
           "elementwise ops)",
    "replica_id": "JAX's SPMD programs number devices by partition_id (read inside "
                  "shard_map); replicas are not simulated",
    "rng": "JAX emits rng_bit_generator (read) instead; `rng` is deprecated in the spec",
    "uniform_quantize": _QUANT, "uniform_dequantize": _QUANT,
}


def read_ops():
    """The stablehlo ops whose names the importer's dispatch holds."""
    ops = set()
    for path in sorted(glob.glob(os.path.join(ROOT, "sim/front/stablehlo/import*.c"))):
        with open(path, encoding="utf-8") as f:
            ops.update(re.findall(r'"stablehlo\.([a-z0-9_]+)"', f.read()))
    return ops


def sample_counts():
    """op -> the number of conformance-sample files (JAX's lowerings) using it."""
    counts = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "tests/data/stablehlo/testdata/*.mlir"))):
        with open(path, encoding="utf-8") as f:
            for op in set(re.findall(r"stablehlo\.([a-z0-9_]+)", f.read())):
                counts[op] = counts.get(op, 0) + 1
    return counts


def table():
    read = read_ops()
    unknown = sorted(read - set(SPEC_OPS) - {"return"})
    if unknown:
        raise SystemExit(f"unsupported_ops.py: read ops not in SPEC_OPS: {unknown}")
    stale = sorted(set(REASONS) & read)
    if stale:
        raise SystemExit(f"unsupported_ops.py: REASONS names ops the importer reads: {stale}")
    missing = sorted(op for op in SPEC_OPS if op not in read and op not in REASONS)
    if missing:
        raise SystemExit(f"unsupported_ops.py: unread ops without a reason: {missing}")
    counts = sample_counts()
    rows = ["| op | files of JAX's conformance sample using it | why not read |",
            "| --- | --- | --- |"]
    for op in SPEC_OPS:
        if op not in read:
            rows.append(f"| {op} | {counts.get(op, 0)} | {REASONS[op]} |")
    return "\n".join(rows) + "\n"


def main(argv):
    text = table()
    readme = os.path.join(ROOT, "README.md")
    if len(argv) == 1:
        sys.stdout.write(text)
        return 0
    with open(readme, encoding="utf-8") as f:
        doc = f.read()
    i, j = doc.find(BEGIN), doc.find(END)
    if i < 0 or j < i:
        print(f"README.md: no {BEGIN} ... {END} block", file=sys.stderr)
        return 1
    new = doc[:i + len(BEGIN)] + "\n" + text + doc[j:]
    if argv[1] == "--check":
        if new != doc:
            print("README.md: the unsupported-ops table differs from "
                  "`python3 tools/unsupported_ops.py` (run it with --write)", file=sys.stderr)
            return 1
        print("README.md: the unsupported-ops table is current")
        return 0
    if argv[1] == "--write":
        with open(readme, "w", encoding="utf-8") as f:
            f.write(new)
        return 0
    print("usage: unsupported_ops.py [--check | --write]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
