#!/usr/bin/env python3
"""Write tests/data/erf_inv/f32_sweep.bin: jax.lax.erf_inv on XLA's CPU
backend (jit) for a dense sweep of float32 inputs in [0, 1]: every 16411th
bit pattern from 0 (subnormals included) up to 1.0, and 1.0 itself
(erf_inv is odd and XLA's expansion symmetric in the sign, so the
non-negative half is checked). The file is the little-endian float32
pairs (x, erf_inv(x)), in order. tests/test_erf_inv.c reads it.

    .venv/bin/python tests/jax/make_erf_inv_vectors.py

Deterministic: running it again writes the same bytes.
"""

import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402
import jax  # noqa: E402

OUT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data",
                                    "erf_inv", "f32_sweep.bin"))


def main():
    bits = np.append(np.arange(0, 0x3F800000, 16411, dtype=np.uint32), np.uint32(0x3F800000))
    x = bits.view(np.float32)
    y = np.asarray(jax.jit(jax.lax.erf_inv)(x))
    pairs = np.stack([x, y], axis=1).astype("<f4")
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    pairs.tofile(OUT)
    print(f"{OUT}: {len(x)} values (jax {jax.__version__})")


if __name__ == "__main__":
    main()
