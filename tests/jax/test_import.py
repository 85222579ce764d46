"""shardsim runs what JAX lowers, fresh from JAX (needs the pinned stack).

Each program of make_fixtures.py that shardsim supports is lowered now,
both ways (Shardy with locations, and GSPMD), written to a temporary
file, and run with `shardsim run FILE --inputs DIR --outputs DIR` on the
program's own argument values; every result must equal what the jitted
function returns in JAX: bit for bit for the programs of EXACT and every
integer, else floats within 1e-5 of the largest magnitude. A JAX upgrade
that changes the text shows up here.
"""

import contextlib
import os
import subprocess
import sys

import pytest

np = pytest.importorskip("numpy", reason="numpy is not installed")
jax = pytest.importorskip("jax", reason="JAX is not installed: sh tools/setup.sh")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

import make_fixtures  # noqa: E402

SHARDSIM = os.environ.get("SS_SHARDSIM") or os.path.join(ROOT, "build", "shardsim")
# What shardsim does not import yet (the error names the op); the rest must run.
UNSUPPORTED = set()
# Programs whose float results equal XLA CPU's bit for bit, XLA CPU's
# arithmetic rewrites reproduced by the importer (fused multiply-adds,
# divides by constants, constant reassociation: sim/graph/contract.c,
# sim/front/stablehlo/import_arith.c). The others differ where shardsim's
# dot and reduction kernels sum in another order than XLA's (measured
# against XLA CPU when this list was made; not proven for each program).
EXACT = {
    "s11a_allgather_matmul", "s11b_matmul_reducescatter", "s12_1_tiles41_to_14",
    "s12_5_gather_all", "s12_7_partial_to_shard", "shard_map_collectives", "random_ops",
    "flax_nnx_init", "gather_vocab", "gather_embed", "gather_batch", "scatter_add", "sort_topk"}


def programs():
    if len(jax.devices()) < 8:
        pytest.skip("needs XLA_FLAGS=--xla_force_host_platform_device_count=8")
    jax.config.update("jax_hlo_source_file_canonicalization_regex",
                      make_fixtures.CANONICAL_PATHS)
    devices = sorted(jax.devices(), key=lambda d: d.id)
    return [b(devices) for b in make_fixtures.BUILDERS]


@pytest.fixture(scope="module")
def progs():
    if not os.access(SHARDSIM, os.X_OK):
        pytest.skip(f"no shardsim binary at {SHARDSIM} (build it, or set SS_SHARDSIM)")
    return {p.name: p for p in programs()}


def lower(prog, shardy):
    """jax.jit(...).lower(...) as make_fixtures.py does it, without compiling."""
    jax.config.update("jax_use_shardy_partitioner", shardy)
    try:
        with jax.set_mesh(prog.mesh) if prog.set_mesh else contextlib.nullcontext():
            jitted = jax.jit(prog.fn, in_shardings=prog.in_shardings,
                             out_shardings=prog.out_shardings, donate_argnums=prog.donate_argnums)
            return jitted, jitted.lower(*prog.args)
    finally:
        jax.config.update("jax_use_shardy_partitioner", True)


def run_shardsim(tmp, prog, shardy):
    jitted, lowered = lower(prog, shardy)
    text = lowered.as_text(debug_info=True) if shardy else lowered.as_text()
    path = os.path.join(tmp, "f.mlir")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    inputs, outputs = os.path.join(tmp, "in"), os.path.join(tmp, "out")
    os.makedirs(inputs)
    names = make_fixtures.arg_names(prog.fn, prog.args)
    locs, _ = make_fixtures.main_signature(lowered.as_text(debug_info=True))
    k = 0
    for name, leaf in zip(names, jax.tree_util.tree_leaves(prog.args)):
        if name not in locs:
            continue  # pruned by jit: not an argument of @main
        file = (name if shardy else f"arg{k}") + ".npy"
        k += 1
        np.save(os.path.join(inputs, file), np.asarray(leaf), allow_pickle=False)
    r = subprocess.run([SHARDSIM, "run", path, "--inputs", inputs, "--outputs", outputs],
                       capture_output=True, text=True)
    return jitted, r, outputs


@pytest.mark.parametrize("shardy", [True, False], ids=["shardy", "gspmd"])
@pytest.mark.parametrize("name", sorted([
    "s1_pointwise_reduce", "s2_dp_mlp", "s3_megatron_mlp", "s4_megatron_sp", "s5_dotreludot_2d",
    "s6_fsdp_mlp", "s7_attention_heads", "s8_attention_seq", "s9_moe_a2a",
    "s10_pipeline_ppermute", "s11a_allgather_matmul", "s11b_matmul_reducescatter",
    "s12_1_tiles41_to_14", "s12_5_gather_all", "s12_7_partial_to_shard",
    "flax_linen_train_step", "flax_nnx_train_step", "transformer_block_adamw",
    "shard_map_collectives", "random_ops", "flax_nnx_init", "gather_vocab", "gather_embed",
    "gather_batch", "scatter_add", "nnx_embed_train_step", "embed_vocab_grad", "sort_topk",
    "moe_top2_train_step", "cond_switch", "pool_cumsum", "lm_noremat", "lm_full", "lm_dots"]))
def test_shardsim_runs_jax_lowering(progs, tmp_path, name, shardy):
    prog = progs[name]
    jitted, r, outputs = run_shardsim(str(tmp_path), prog, shardy)
    if name in UNSUPPORTED:
        assert r.returncode == 2 and "unsupported" in r.stderr, r.stderr
        return
    assert r.returncode == 0, r.stdout + r.stderr
    with jax.set_mesh(prog.mesh) if prog.set_mesh else contextlib.nullcontext():
        want = jax.block_until_ready(jitted(*prog.args))
    for rname, leaf in zip(make_fixtures.result_names(want), jax.tree_util.tree_leaves(want)):
        ref = np.asarray(leaf)
        got = np.load(os.path.join(outputs, rname + ".npy"))
        assert got.dtype == ref.dtype and got.shape == ref.shape, rname
        if ref.dtype.kind == "f" and name in EXACT:
            assert got.tobytes() == ref.tobytes(), f"{rname}: not bit for bit"
        elif ref.dtype.kind == "f":
            scale = max(float(np.max(np.abs(ref))) if ref.size else 0.0, 1e-30)
            np.testing.assert_allclose(got, ref, rtol=0, atol=1e-5 * scale, err_msg=rname)
        else:
            np.testing.assert_array_equal(got, ref, err_msg=rname)
