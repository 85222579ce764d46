#!/usr/bin/env python3
"""Write the f32 vectors of the functions sim/kernels/erf_inv.c and
sim/kernels/xla_math.c compute as XLA's CPU backend does: each op under
jax.jit on XLA's CPU backend (the pinned jax/jaxlib), for a sweep of
float32 bit patterns. tests/test_erf_inv.c reads them.

  tests/data/erf_inv/f32_sweep.bin    jax.lax.erf_inv
  tests/data/erf_inv/log_f32_sweep.bin    jax.lax.log
  tests/data/erf_inv/log1p_f32_sweep.bin  jax.lax.log1p
  tests/data/erf_inv/erf_f32_sweep.bin    jax.lax.erf

Each file is the little-endian float32 pairs (x, f(x)), in order. The
inputs: every 131071st bit pattern of all 2^32 (both signs, subnormals,
infinities, NaNs), the special values below (0x00906ebb: erf_inv's
product is just below the smallest normal before rounding, and XLA's
flush-to-zero makes it 0), and a denser sweep where
the function's branches meet: erf_inv every 32771st pattern of [0, 1]
(-x*x leaves log1p's rational branch at |x| = 0.6436), log every 2053rd
pattern of [0.5, 2) (the mantissa's sqrt(1/2) split), log1p every
65537th pattern of [-1, 1] of either sign (its rational branch ends at
|x| = sqrt(2) - 1), erf every 65537th pattern of [0, 4) (it is +-1
from |x| = 3.8325 on).

    .venv/bin/python tests/jax/make_erf_inv_vectors.py

Deterministic: running it again writes the same bytes.
"""

import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402
import jax  # noqa: E402

OUT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data",
                                    "erf_inv"))
SPECIAL = np.array([0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x00800000, 0x3f800000,
                    0xbf800000, 0x3f7fffff, 0xbf7fffff, 0x3f800001, 0x7f7fffff, 0x7f800000,
                    0xff800000, 0x7fc00000, 0xffc00000, 0x3ed413cd, 0xbed413cd, 0x3f3504f3,
                    0x00906ebb, 0x80906ebb],
                   dtype=np.uint32)


def patterns(lo, hi, step):
    return np.arange(lo, hi, step, dtype=np.uint64).astype(np.uint32)


def write(name, fn, dense):
    bits = np.unique(np.concatenate([patterns(0, 1 << 32, 131071), SPECIAL] + dense))
    x = bits.view(np.float32)
    y = np.asarray(jax.jit(fn)(x))
    path = os.path.join(OUT, name)
    os.makedirs(OUT, exist_ok=True)
    np.stack([x, y], axis=1).astype("<f4").tofile(path)
    print(f"{path}: {len(x)} values (jax {jax.__version__})")


def main():
    write("f32_sweep.bin", jax.lax.erf_inv, [patterns(0, 0x3F800000, 32771)])
    write("log_f32_sweep.bin", jax.lax.log, [patterns(0x3F000000, 0x40000000, 2053)])
    write("log1p_f32_sweep.bin", jax.lax.log1p,
          [patterns(0, 0x3F800001, 65537), patterns(0x80000000, 0xBF800001, 65537)])
    write("erf_f32_sweep.bin", jax.lax.erf, [patterns(0, 0x40800000, 65537)])


if __name__ == "__main__":
    main()
