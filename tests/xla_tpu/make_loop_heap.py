#!/usr/bin/env python3
"""XLA's reported TPU temp for programs with while loops: scanned layers'
gradients (a forward loop writing its residual stacks, a backward loop
reading them) compiled ahead of time for v5e:2x4 (8 chips, axis 'x',
every argument replicated), with their StableHLO and XLA's memory
analysis.  Writes tests/data/xla_tpu/loop_heap.json, the reference of
test_loop_heap.py (the plan's term for XLA's temp with loops,
sim/spmd/xla_heap.c).

    tests/xla_tpu/.venv/bin/python tests/xla_tpu/make_loop_heap.py [--out FILE]

Needs jax[tpu] (tests/xla_tpu/requirements.txt); run under
`flock /tmp/libtpu.lock` on a shared machine.
"""

import os
import sys

os.environ.setdefault("TPU_SKIP_MDS_QUERY", "1")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import probes  # noqa: E402
DEFAULT_OUT = os.path.normpath(os.path.join(HERE, "..", "data", "xla_tpu", "loop_heap.json"))
TOPOLOGY = "v5e:2x4"
L, M, K = 4, 32768, 1024  # 4 layers of h [M, K] f32: 128 MiB a step, 512 MiB a stack


def cases(jax, jnp, P):
    """name -> (what, fn, [(shape, dtype, spec)])."""
    f32 = jnp.float32

    def layers(act):
        def loss(h, ws):
            def step(h, w):
                return act(h @ w), None
            h, _ = jax.lax.scan(step, h, ws)
            return jnp.sum(h)
        return jax.grad(loss, argnums=(0, 1))

    def two_dots(h, w):
        return jnp.tanh(h @ w) @ w

    def deep(h, ws):  # two dots a layer: more temporaries beside the stacks
        def loss(h, ws):
            def step(h, w):
                return two_dots(h, w), None
            h, _ = jax.lax.scan(step, h, ws)
            return jnp.sum(h)
        return jax.grad(loss, argnums=(0, 1))(h, ws)

    def mlp(h, w1s, w2s):  # a residual MLP a layer: its wide activation beside the stacks
        def loss(h, w1s, w2s):
            def step(h, ws):
                w1, w2 = ws
                return h + jax.nn.relu(h @ w1) @ w2, None
            h, _ = jax.lax.scan(step, h, (w1s, w2s))
            return jnp.sum(h)
        return jax.grad(loss, argnums=(0, 1, 2))(h, w1s, w2s)

    args = [((M, K), f32, P()), ((L, K, K), f32, P())]
    mlp_args = [((M // 4, K), f32, P()), ((L, K, 4 * K), f32, P()), ((L, 4 * K, K), f32, P())]
    return {
        "scan_tanh_grad": ("the gradient of 4 scanned layers h <- tanh(h w), h 128 MiB: the "
                           "backward loop reads the forward one's stacks beside its temporaries",
                           layers(jnp.tanh), args),
        "scan_two_dots_grad": ("the gradient of 4 scanned layers h <- tanh(h w) w, h 128 MiB: "
                               "two stacks a layer and more temporaries a step", deep, args),
        "scan_mlp_grad": ("the gradient of 4 scanned residual MLP layers h <- h + relu(h w1) w2, "
                          "h 32 MiB, its activation 128 MiB: the activation's gradient beside "
                          "the stacks", mlp, mlp_args),
    }


def main(argv=None):
    return probes.record_main(argv, __doc__, "make_loop_heap.py", DEFAULT_OUT, TOPOLOGY, cases)


if __name__ == "__main__":
    sys.exit(main())
