#!/usr/bin/env python3
"""How XLA's TPU compiler writes the ReLU masks of an MLP's gradient: probe
programs of two hidden layers h = x @ w1, y = relu(h) @ w2 under a summed
loss, their weight gradients compiled for one chip of v5p:2x2x2 (its 8
chips on one axis 'x', every argument replicated; on v5p every temporary
counts in HBM), f32 [N, H] pre-activations of 256 MiB.  The loss sums the
last layer's output, so its output gradient is a broadcast of ones and
XLA's algebraic simplifier makes dot(ones, w2^T) a broadcast of a reduce of
w2: the last layer's mask then selects a broadcast (read by two gradient
dots), the first layer's a dot's result (convolution_select_fusion).
Writes tests/data/xla_tpu/relu_masks.json: per case the StableHLO compiled
(for `shardsim plan --device tpu-v5p`), XLA's memory analysis, and from
the compiled HLO the fusions that write a pred beside a bf16 value (the
multi-output fusion of a dot with its mask and its bf16 copy: the value
itself never written), the output fusions of a select into a dot, and the
f32 [N, H] values the ENTRY computation writes (the pre-activations XLA
keeps); the reference of tests/xla_tpu/test_relu_masks.py.

    tests/xla_tpu/.venv/bin/python tests/xla_tpu/make_relu_masks.py [--out FILE]

Needs jax[tpu] (tests/xla_tpu/requirements.txt); sets JAX_PLATFORMS=cpu and
TPU_SKIP_MDS_QUERY=1 itself.  Run under `flock /tmp/libtpu.lock` on a
shared machine.
"""

import os
import re
import sys

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("TPU_SKIP_MDS_QUERY", "1")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import probes  # noqa: E402
DEFAULT_OUT = os.path.normpath(os.path.join(HERE, "..", "data", "xla_tpu", "relu_masks.json"))
TOPOLOGY = "v5p:2x2x2"
N, D, H = 65536, 512, 2048  # h: f32 [N, H / 8] per chip, 64 MiB


def cases(jax, jnp, P):
    """name -> (what, fn, [(shape, dtype, spec)])."""
    f32 = jnp.float32

    def layer(x, w1, w2):
        return jax.nn.relu(x @ w1) @ w2

    def two_layers(x, a1, a2, b1, b2):
        return jnp.sum(layer(layer(x, a1, a2), b1, b2))

    def two_layers_mean_square(x, a1, a2, b1, b2):
        return jnp.mean(jnp.square(layer(layer(x, a1, a2), b1, b2)))

    cols, rows = P(None, "x"), P("x", None)  # the guide's DotReluDot: hidden units on 'x'
    args = [((N, D), f32, P()), ((D, H), f32, cols), ((H, D), f32, rows), ((D, H), f32, cols),
            ((H, D), f32, rows)]
    return {
        "two_layers_sum": ("the weight gradients of sum(relu(relu(x @ a1) @ a2 @ b1) @ b2): the "
                           "last layer's output gradient a broadcast of ones",
                           jax.grad(two_layers, argnums=(1, 2, 3, 4)), args),
        "two_layers_mean_square": ("the weight gradients of mean((relu(relu(x @ a1) @ a2 @ b1) "
                                   "@ b2)^2): every output gradient a dot's result",
                                   jax.grad(two_layers_mean_square, argnums=(1, 2, 3, 4)), args),
    }


def hlo_facts(text):
    """From a compiled module's text: the fusions writing a (pred, bf16)
    tuple, the selects fused into a convolution's kOutput fusion, the f32
    [N, H] values of the ENTRY computation."""
    entry = text[text.index("\nENTRY "):]
    h = H // 8  # per chip
    pred_bf16 = re.findall(rf"%(\S+) = \(pred\[{N},{h}\]\S*, bf16\[{N},{h}\]\S*\) fusion\(", entry)
    select_fusions = re.findall(r"%(convolution_select_fusion\S*) = ", entry)
    f32_values = re.findall(rf"%(\S+) = f32\[{N},{h}\]\S* ", entry)
    return {"pred_bf16_fusions": pred_bf16, "select_output_fusions": select_fusions,
            "f32_pre_activations": f32_values}


def record(name, what, lowered, compiled, args, jnp):
    """A probe's entry: probes.memory_record's and the HLO's facts."""
    mem = probes.memory_of(compiled)
    facts = hlo_facts(compiled.as_text())
    print(f"{name}: {mem} {facts}")
    return {"case": name, "what": what, "lowered": lowered.as_text(),
            "arguments": probes.arguments(args, jnp), "memory": mem, "hlo": facts}


def main(argv=None):
    return probes.record_main(argv, __doc__, "make_relu_masks.py", DEFAULT_OUT, TOPOLOGY, cases,
                              record)


if __name__ == "__main__":
    sys.exit(main())
