#!/usr/bin/env python3
"""Which all-gathers XLA's TPU compiler moves in bf16: small programs whose
gathered f32 operand feeds dots of DEFAULT precision, dots of HIGHEST
precision, a dot and another op, a transpose then a dot, an elementwise op
then a dot, a gradient; compiled ahead of time for v5e:2x4 (a mesh of its 8
chips, one axis 'x').  Writes tests/data/xla_tpu/gather_dtypes.json: per
case the StableHLO compiled (for `shardsim plan --device tpu-v5e`) and the
collectives of XLA's partitioned HLO (tests/jax/hlo_collectives.py), the
reference of tests/xla_tpu/test_gather_dtypes.py.

    tests/xla_tpu/.venv/bin/python tests/xla_tpu/make_gather_dtypes.py [--out FILE]

Needs jax[tpu] (tests/xla_tpu/requirements.txt); sets JAX_PLATFORMS=cpu and
TPU_SKIP_MDS_QUERY=1 itself.  Run under `flock /tmp/libtpu.lock` on a
shared machine.
"""

import argparse
import os
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("TPU_SKIP_MDS_QUERY", "1")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.normpath(os.path.join(HERE, "..", "jax")))
sys.path.insert(0, HERE)
import probes  # noqa: E402
DEFAULT_OUT = os.path.normpath(os.path.join(HERE, "..", "data", "xla_tpu", "gather_dtypes.json"))
TOPOLOGY = "v5e:2x4"
M, K, N = 512, 1024, 2048  # x [M, K] @ w [K, N]; w gathered: 8 MiB of f32


def cases(jax, jnp, P):
    """name -> (what it probes, fn, [(shape, dtype, spec)] of its arguments)."""
    g = lambda w: jax.lax.with_sharding_constraint(w, P())  # the all-gather
    hi = jax.lax.Precision.HIGHEST
    f32, bf16 = jnp.float32, jnp.bfloat16
    xw = [((M, K), f32, P()), ((K, N), f32, P("x", None))]
    return {
        "dot_default": ("the gathered weight read by one f32 dot of DEFAULT precision",
                        lambda x, w: x @ g(w), xw),
        "two_dots": ("the gathered weight read by two DEFAULT dots",
                     lambda x, w: (x @ g(w), (2 * x) @ g(w)), xw),
        "dot_highest": ("the gathered weight read by a HIGHEST-precision dot",
                        lambda x, w: jnp.dot(x, g(w), precision=hi), xw),
        "dot_and_sum": ("the gathered weight read by a DEFAULT dot and a reduction",
                        lambda x, w: (x @ g(w), jnp.sum(g(w), axis=0)), xw),
        "scaled_then_dot": ("the gathered weight scaled (an elementwise op) before the dot",
                            lambda x, w: x @ (g(w) * 3.0), xw),
        "transposed_dot": ("the gathered weight read transposed by the dot",
                           lambda x, w: x @ g(w).T, [((M, K), f32, P()), ((N, K), f32, P("x", None))]),
        "activation": ("a gathered activation read by a DEFAULT dot",
                       lambda x, w: g(x) @ w, [((M, K), f32, P("x", None)), ((K, N), f32, P())]),
        "bf16_dot": ("bf16 operands: the gather is bf16 in the program already",
                     lambda x, w: x @ g(w), [((M, K), bf16, P()), ((K, N), bf16, P("x", None))]),
        "grad": ("the gradient of sum((x @ gather(w))**2) in x and w: the gathered weight read by "
                 "the forward dot and the backward dot of x; the weight gradient reduce-scattered",
                 jax.grad(lambda x, w: jnp.sum((x @ g(w)) ** 2), argnums=(0, 1)), xw),
        "fsdp_grad": ("the same gradient with the batch sharded too (x on 'x'): the weight gradient, "
                      "a sum over the batch, reduce-scattered to the weight's sharding",
                      jax.grad(lambda x, w: jnp.sum((x @ g(w)) ** 2), argnums=(0, 1)),
                      [((M, K), f32, P("x", None)), ((K, N), f32, P("x", None))]),
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--only", nargs="*", default=None)
    opts = ap.parse_args(argv)
    import hlo_collectives

    def record(name, what, lowered, compiled, args, jnp):
        colls = hlo_collectives.parse(compiled.as_text(), per_execution=True)
        entry = {"case": name, "what": what, "lowered": lowered.as_text(),
                 "arguments": probes.arguments(args, jnp),
                 "temp_size_in_bytes": compiled.memory_analysis().temp_size_in_bytes,
                 "collectives": [{"kind": c["kind"], "operands": [o["type"] for o in c["operands"]],
                                  "operand_bytes": c["operand_bytes"], "result_bytes": c["result_bytes"],
                                  "replica_groups": c["replica_groups"], "runs": c.get("runs", 1)}
                                 for c in colls]}
        print(f"{name}: " + "; ".join(f"{c['kind']} {c['operands']}" for c in entry["collectives"]))
        return entry

    out, ndev, version = probes.compile_probes(cases, TOPOLOGY, opts.only, record)
    probes.write_record(opts.out, "tests/xla_tpu/.venv/bin/python tests/xla_tpu/make_gather_dtypes.py",
                        TOPOLOGY, ndev, version, out)
    print(f"make_gather_dtypes: {len(out)} cases -> {opts.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
