#!/usr/bin/env python3
"""Which stacked residuals of a scan XLA's TPU compiler keeps in bf16: the
gradient of small scanned programs whose forward loop stacks a residual
for the backward loop, read back by f32 dots of DEFAULT precision only
(a linear layer), by an elementwise op (a per-layer scale), or by a dot of
HIGHEST precision; compiled ahead of time for v5e:2x4 (its 8 chips, one
axis 'x', every argument replicated).  Writes
tests/data/xla_tpu/stash_dtypes.json: per case the StableHLO compiled (for
`shardsim plan --device tpu-v5e`) and XLA's memory analysis, the reference
of tests/xla_tpu/test_stash_dtypes.py.

    tests/xla_tpu/.venv/bin/python tests/xla_tpu/make_stash_dtypes.py [--out FILE]

Needs jax[tpu] (tests/xla_tpu/requirements.txt); sets JAX_PLATFORMS=cpu and
TPU_SKIP_MDS_QUERY=1 itself.  Run under `flock /tmp/libtpu.lock` on a
shared machine.
"""

import os
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("TPU_SKIP_MDS_QUERY", "1")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import probes  # noqa: E402
DEFAULT_OUT = os.path.normpath(os.path.join(HERE, "..", "data", "xla_tpu", "stash_dtypes.json"))
TOPOLOGY = "v5e:2x4"
L, M, K = 16, 4096, 1024  # 16 layers of h [M, K] f32: a 256 MiB f32 stack (16 MiB a step)


def cases(jax, jnp, P):
    """name -> (what it probes, fn, [(shape, dtype, spec)] of its arguments)."""
    hi = jax.lax.Precision.HIGHEST
    f32 = jnp.float32

    def scanned(layer):
        def loss(h, ws):
            h, _ = jax.lax.scan(lambda h, w: (layer(h, w), None), h, ws)
            return jnp.sum(h * h)
        return jax.grad(loss, argnums=(0, 1))

    dense = [((M, K), f32, P()), ((L, K, K), f32, P())]
    return {
        "dot_stash": ("h <- h @ w per layer: the stacked h read back only by the weight "
                      "gradient's DEFAULT dot", scanned(lambda h, w: h @ w), dense),
        "highest_stash": ("h <- h @ w at HIGHEST precision: the stacked h read back by a HIGHEST dot",
                          scanned(lambda h, w: jnp.dot(h, w, precision=hi)), dense),
        "elementwise_stash": ("h <- h * w (a per-layer elementwise scale): the stacked h read back "
                              "by the scale's gradient, an elementwise multiply",
                              scanned(lambda h, w: h * w), [((M, K), f32, P()), ((L, M, K), f32, P())]),
    }


def main(argv=None):
    return probes.record_main(argv, __doc__, "make_stash_dtypes.py", DEFAULT_OUT, TOPOLOGY, cases)


if __name__ == "__main__":
    sys.exit(main())
