#!/usr/bin/env python3
"""Which elementwise values XLA's TPU compiler duplicates into every kernel
that reads them instead of materialising them: small programs where one
f32 [4096, 32768] value (512 MiB) computed elementwise from an argument
(exp, a divide by a row, tanh, log, rsqrt, a subtract then exp) is read by
several kernels (a reduction and a dot, two dots), and the gradient of a
cross-entropy over logits x @ w.T (the LM's loss); compiled ahead of time for
v5p:2x2x2 (its 8 chips on one axis 'x', every argument replicated; on v5p
every temporary counts in HBM).  A value XLA materialises shows as its
512 MiB in temp_size_in_bytes; one it duplicates does not, and its op
appears once per fusion that recomputes it in the compiled HLO.  Writes
tests/data/xla_tpu/fusion_dup.json: per case the StableHLO compiled (for
`shardsim plan --device tpu-v5p`), XLA's memory analysis and how many
instructions of the compiled HLO compute the probed op; the reference of
tests/xla_tpu/test_fusion_dup.py.

    tests/xla_tpu/.venv/bin/python tests/xla_tpu/make_fusion_dup.py [--out FILE]

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
DEFAULT_OUT = os.path.normpath(os.path.join(HERE, "..", "data", "xla_tpu", "fusion_dup.json"))
TOPOLOGY = "v5p:2x2x2"
N, V, D = 4096, 32768, 128  # a [N, V] f32 value: 512 MiB; a [V, D] weight: 16 MiB


def cases(jax, jnp, P):
    """name -> (what it probes, HLO opcode probed, fn, [(shape, dtype, spec)])."""
    f32 = jnp.float32
    big = ((N, V), f32, P())
    weight = ((V, D), f32, P())

    # the value is computed once (one op in the StableHLO) and read twice
    def reduce_and_dot(op):
        def fn(a, w):
            v = op(a)
            return jnp.sum(v, axis=1), v @ w
        return fn

    def two_dots(op):
        def fn(a, w, u):
            v = op(a)  # v.T @ u as one dot_general (no transpose op)
            return v @ w, jax.lax.dot_general(v, u, (((0,), (0,)), ((), ())))
        return fn

    def xent_grad(x, w, labels):
        def loss(x, w):  # w [V, 1024]: both gradients are dot_generals without a transpose op
            logits = jnp.einsum("nd,vd->nv", x, w)
            logp = jax.nn.log_softmax(logits, axis=-1)
            return -jnp.mean(jnp.sum(jax.nn.one_hot(labels, V, dtype=f32) * logp, axis=-1))
        return jax.grad(loss, argnums=(0, 1))(x, w)

    u = ((N, D), f32, P())
    return {
        "exp_reduce_dot": ("e = exp(a): read by a row sum and by the dot e @ w", "exponential",
                           reduce_and_dot(jnp.exp), [big, weight]),
        "exp_two_dots": ("e = exp(a): read by two dots, e @ w and e.T @ u", "exponential",
                         two_dots(jnp.exp), [big, weight, u]),
        "sub_exp_reduce_dot": ("e = exp(a - max(a)) (softmax's numerator): read by a row sum and "
                               "by the dot e @ w", "exponential",
                               reduce_and_dot(lambda a: jnp.exp(a - jnp.max(a, axis=1, keepdims=True))),
                               [big, weight]),
        "divide_reduce_dot": ("p = a / sum(a) by row: read by a row sum and by the dot p @ w",
                              "divide", reduce_and_dot(lambda a: a / jnp.sum(a, axis=1, keepdims=True)),
                              [big, weight]),
        "tanh_reduce_dot": ("t = tanh(a): read by a row sum and by the dot t @ w", "tanh",
                            reduce_and_dot(jnp.tanh), [big, weight]),
        "log_reduce_dot": ("l = log(a): read by a row sum and by the dot l @ w", "log",
                           reduce_and_dot(jnp.log), [big, weight]),
        "rsqrt_reduce_dot": ("r = rsqrt(a): read by a row sum and by the dot r @ w", "rsqrt",
                             reduce_and_dot(jax.lax.rsqrt), [big, weight]),
        "xent_grad": ("the gradient of a cross-entropy over f32 logits x @ w.T (log_softmax, "
                      "one-hot labels): exp(logits - max) read by the sum, the loss and both gradient dots",
                      "exponential", xent_grad,
                      [((N, 1024), f32, P()), ((V, 1024), f32, P()), ((N,), jnp.int32, P())]),
    }


def main(argv=None):
    table = {}

    def probed_cases(jax, jnp, P):
        out = {}
        for name, (what, opcode, fn, args) in cases(jax, jnp, P).items():
            table[name] = opcode
            out[name] = (what, fn, args)
        return out

    def record(name, what, lowered, compiled, args, jnp):
        mem = probes.memory_of(compiled)
        # instructions of the compiled HLO computing the probed op at the
        # value's full shape (its copies: one per fusion that recomputes it)
        opcode = table[name]
        copies = len(re.findall(rf"= f32\[{N},{V}\]\S* {opcode}\(", compiled.as_text()))
        print(f"{name}: {mem} {opcode} x{copies}")
        return {"case": name, "what": what, "lowered": lowered.as_text(),
                "arguments": probes.arguments(args, jnp), "memory": mem,
                "op": opcode, "op_copies": copies}

    return probes.record_main(argv, __doc__, "make_fusion_dup.py", DEFAULT_OUT, TOPOLOGY,
                              probed_cases, record)


if __name__ == "__main__":
    sys.exit(main())
