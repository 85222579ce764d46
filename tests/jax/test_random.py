"""jax.random inside jax.jit, run by shardsim: the bits equal JAX's.

Each case is a function of a seed that JAX lowers with its default PRNG
(threefry2x32, jax_threefry_partitionable on), with results sharded over
a 2x4 mesh, replicated, or of odd sizes that do not tile; shardsim runs
the lowered text (`shardsim run FILE --inputs DIR --outputs DIR`) and
every result must equal JAX's bit for bit: integers and bools, floats made
from the bits by exact arithmetic (uniform, bernoulli's threshold), normal
(erf_inv of a uniform on (-1, 1): shardsim computes XLA's f32 erf_inv and
log1p bit for bit, sim/kernels/xla_math.c) and truncated_normal, whose
u * (hi - lo) + lo XLA CPU computes as one fused multiply-add and whose
divisions by constants as multiplies by their reciprocals: the importer
does the same (sim/graph/contract.c, sim/front/stablehlo/import_arith.c).
"""

import os
import subprocess
import sys

import pytest

np = pytest.importorskip("numpy", reason="numpy is not installed")
jax = pytest.importorskip("jax", reason="JAX is not installed: sh tools/setup.sh")
import jax.numpy as jnp  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SHARDSIM = os.environ.get("SS_SHARDSIM") or os.path.join(ROOT, "build", "shardsim")


def k(seed):
    return jax.random.key(seed)


# name -> (function of the seed, result spec or None for replicated)
CASES = {
    "bits_u32_tiled": (lambda s: jax.random.bits(k(s), (16, 32), jnp.uint32), P("data", "model")),
    "bits_u8_odd": (lambda s: jax.random.bits(k(s), (7, 5), jnp.uint8), None),
    "bits_u16": (lambda s: jax.random.bits(k(s), (8, 12), jnp.uint16), P(None, "model")),
    "bits_u64_x": (lambda s: jax.random.bits(k(s), (4, 8), jnp.uint32) ^ 0, P("data")),
    "split_fold_in": (lambda s: jax.random.key_data(
        jax.random.fold_in(jax.random.split(k(s), 3)[2], 11)), None),
    "uniform_tiled": (lambda s: jax.random.uniform(k(s), (16, 32)), P("data", "model")),
    "uniform_range_bf16": (lambda s: jax.random.uniform(k(s), (8, 8), jnp.bfloat16, -1.0, 2.0),
                           P("model")),
    "normal_tiled": (lambda s: jax.random.normal(k(s), (16, 32)), P("data", "model")),
    "normal_odd": (lambda s: jax.random.normal(k(s), (3, 7, 5)), None),
    "truncated_normal": (lambda s: jax.random.truncated_normal(k(s), -2.0, 2.0, (8, 16)),
                         P(None, "model")),
    "bernoulli": (lambda s: jax.random.bernoulli(k(s), 0.25, (16, 8)), P("data", None)),
    "randint": (lambda s: jax.random.randint(k(s), (8, 16), -5, 1000), P("data", "model")),
    "categorical": (lambda s: jax.random.categorical(k(s), jnp.log(jnp.arange(1.0, 9.0)),
                                                     shape=(16,)), P("data")),
    "rademacher": (lambda s: jax.random.rademacher(k(s), (8, 8), jnp.int32), None),
    "legacy_prngkey": (lambda s: jax.random.normal(jax.random.PRNGKey(s), (8, 4)), P("data")),
    "dropout_mask": (lambda s: jnp.where(jax.random.bernoulli(k(s), 0.9, (8, 32)),
                                         jnp.ones((8, 32)) / 0.9, 0.0), P("data", "model")),
}


@pytest.fixture(scope="module")
def mesh():
    if not os.access(SHARDSIM, os.X_OK):
        pytest.skip(f"no shardsim binary at {SHARDSIM} (build it, or set SS_SHARDSIM)")
    if len(jax.devices()) < 8:
        pytest.skip("needs XLA_FLAGS=--xla_force_host_platform_device_count=8")
    devices = sorted(jax.devices(), key=lambda d: d.id)[:8]
    return Mesh(np.array(devices).reshape(2, 4), ("data", "model"))


@pytest.mark.parametrize("seed", [0, 20261127])
@pytest.mark.parametrize("name", sorted(CASES))
def test_random_bits_equal_jax(mesh, tmp_path, name, seed):
    fn, spec = CASES[name]
    out = NamedSharding(mesh, spec if spec is not None else P())
    jitted = jax.jit(fn, in_shardings=NamedSharding(mesh, P()), out_shardings=out)
    seed_arr = np.uint32(seed)
    text = jitted.lower(seed_arr).as_text()
    path, inputs, outputs = tmp_path / "f.mlir", tmp_path / "in", tmp_path / "out"
    path.write_text(text)
    inputs.mkdir()
    np.save(inputs / "arg0.npy", seed_arr)  # no debug_info: arguments by position
    r = subprocess.run([SHARDSIM, "run", str(path), "--inputs", str(inputs),
                        "--outputs", str(outputs)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    want = np.asarray(jax.block_until_ready(jitted(seed_arr)))
    got = np.load(outputs / "result.npy")
    if want.dtype == jnp.bfloat16:  # saved as 2-byte void, as ml_dtypes writes it
        got = got.view(jnp.bfloat16)
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype.kind == "f" or want.dtype == jnp.bfloat16:
        np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))
    else:
        np.testing.assert_array_equal(got, want)
