"""Program.run(*inputs): the user's arrays go in, numpy arrays come out.

Every program of tests/jax/make_fixtures.py (Flax Linen and NNX train
steps, Megatron, FSDP, attention, MoE, shard_map ...) is lowered fresh by
shardsim.lower, run on the program's own argument values, and each result
compared with what JAX's jitted function returns on the same values
(floats within 1e-5 of the largest magnitude, integers exactly, as
tests/jax/test_import.py holds the CLI). Without JAX, the saved fixtures
(tests/data/jax: JAX's inputs and outputs) are run through the package.
Per-device shards are compared with JAX's addressable_shards.
"""
import contextlib
import json
import os
import sys

import numpy as np
import pytest

import shardsim as ss

FIXTURES = ["s2_dp_mlp", "s3_megatron_mlp", "s6_fsdp_mlp", "s7_attention_heads",
            "s9_moe_a2a", "flax_linen_train_step", "flax_nnx_train_step",
            "transformer_block_adamw", "shard_map_collectives"]


def assert_close(got, ref, what):
    ref = np.asarray(ref)
    assert got.dtype == ref.dtype and got.shape == ref.shape, (what, got.dtype, ref.dtype)
    if ref.dtype.kind == "f":
        scale = max(float(np.max(np.abs(ref))) if ref.size else 0.0, 1e-30)
        np.testing.assert_allclose(got, ref, rtol=0, atol=1e-5 * scale, err_msg=what)
    else:
        np.testing.assert_array_equal(got, ref, err_msg=what)


@pytest.mark.parametrize("name", ["s2_dp_mlp", "flax_nnx_train_step", "transformer_block_adamw"])
def test_saved_fixture_runs_on_jaxs_inputs_to_jaxs_outputs(root, name):
    """No JAX needed: the fixture's lowered text, inputs and outputs as JAX saved them."""
    d = os.path.join(root, "tests", "data", "jax", name)
    meta = json.load(open(os.path.join(d, "meta.json"), encoding="utf-8"))
    prog = ss.load(os.path.join(d, "lowered.shardy.loc.mlir"))
    args = [np.load(os.path.join(d, "inputs", a["name"] + ".npy"))
            for a in meta["arguments"] if a["in_module"]]
    assert [i["name"] for i in prog.inputs] == \
        [a["name"] for a in meta["arguments"] if a["in_module"]]
    run = prog.run(*args)
    files = sorted(f[:-4] for f in os.listdir(os.path.join(d, "outputs")))
    assert sorted(run.outputs) == files
    for f in files:
        assert_close(run.outputs[f], np.load(os.path.join(d, "outputs", f + ".npy")), f)


@pytest.fixture(scope="module")
def progs(root):
    jax = pytest.importorskip("jax")
    if len(jax.devices()) < 8:
        pytest.skip("needs XLA_FLAGS=--xla_force_host_platform_device_count=8")
    sys.path.insert(0, os.path.join(root, "tests", "jax"))
    import make_fixtures
    devices = sorted(jax.devices(), key=lambda d: d.id)
    return {p.name: p for p in (b(devices) for b in make_fixtures.BUILDERS)}


def mesh_context(prog):
    import jax
    return jax.set_mesh(prog.mesh) if prog.set_mesh else contextlib.nullcontext()


def lower_both(prog, donate_argnums=None):
    import jax
    donate = prog.donate_argnums if donate_argnums is None else donate_argnums
    with mesh_context(prog):
        program = ss.lower(prog.fn, *prog.args, in_shardings=prog.in_shardings,
                           out_shardings=prog.out_shardings, donate_argnums=donate)
    jitted = jax.jit(prog.fn, in_shardings=prog.in_shardings, out_shardings=prog.out_shardings)
    return program, jitted


@pytest.mark.parametrize("name", FIXTURES)
def test_run_on_the_users_arrays_equals_jax(progs, name):
    import jax
    prog = progs[name]
    program, jitted = lower_both(prog)
    run = program.run(*prog.args)  # jax.Arrays, fetched to the host
    with mesh_context(prog):
        want = jax.block_until_ready(jitted(*prog.args))
    got_leaves = jax.tree_util.tree_leaves(run.result)
    want_leaves = jax.tree_util.tree_leaves(want)
    assert jax.tree_util.tree_structure(run.result).num_leaves == len(want_leaves)
    for k, (g, w) in enumerate(zip(got_leaves, want_leaves)):
        assert_close(g, w, f"{name} result leaf {k}")


def test_steps_feed_donated_results_as_jax_does(progs):
    """Three steps of the Linen train step, its state donated as the guide does:
    each step's new state is the next step's, as in JAX's loop."""
    import jax
    prog = progs["flax_linen_train_step"]
    program, jitted = lower_both(prog, donate_argnums=(0,))
    run = program.run(*prog.args, steps=3)
    state, x = prog.args
    with mesh_context(prog):
        for _ in range(3):
            state = jitted(state, x)
    for k, (g, w) in enumerate(zip(jax.tree_util.tree_leaves(run.result),
                                   jax.tree_util.tree_leaves(state))):
        assert_close(g, w, f"leaf {k}")


def test_numpy_inputs_and_per_device_shards_equal_jaxs(progs):
    import jax
    prog = progs["s3_megatron_mlp"]
    program, jitted = lower_both(prog)
    host_args = jax.tree_util.tree_map(np.asarray, prog.args)
    run = program.run(*host_args)
    with mesh_context(prog):
        want = jitted(*prog.args)
    for (name, got), ref in zip(run.outputs.items(), jax.tree_util.tree_leaves(want)):
        assert not got.flags.writeable and not got.flags.owndata  # a view of the run's copy
        assert run.sharding(name).spec == ss.P(*ref.sharding.spec), name
        shards = run.shards(name)
        jshards = sorted(ref.addressable_shards, key=lambda s: s.device.id)
        assert sorted(s.device for s in shards) == [s.device.id for s in jshards]
        by_dev = {s.device: s for s in shards}
        for js in jshards:
            s = by_dev[js.device.id]
            assert s.index == tuple(slice(i.start or 0, i.stop if i.stop is not None else n)
                                    for i, n in zip(js.index, ref.shape)), name
            assert s.replica_id == js.replica_id
            assert not s.data.flags.writeable
            assert_close(s.data, np.asarray(js.data), f"{name} on device {s.device}")
            np.testing.assert_array_equal(s.data, got[s.index])


def test_wrong_inputs_are_refused_with_the_inputs_name(root):
    d = os.path.join(root, "tests", "data", "jax", "s2_dp_mlp")
    prog = ss.load(os.path.join(d, "lowered.shardy.loc.mlir"))
    ins = prog.inputs
    good = [np.zeros(i["shape"], np.float32) for i in ins]
    with pytest.raises(ss.errors.InvalidArgumentError, match="takes"):
        prog.run(*good[:-1])
    bad_shape = [np.zeros((3,) + tuple(good[0].shape[1:]), np.float32)] + good[1:]
    with pytest.raises(ss.errors.InvalidArgumentError, match=ins[0]["name"].replace("[", r"\[")):
        prog.run(*bad_shape)
    with pytest.raises(ss.errors.InvalidArgumentError, match="float64"):
        prog.run(*([good[0].astype(np.float64)] + good[1:]))
    strided = [np.zeros(tuple(s * 2 for s in good[0].shape), np.float32)[::2, ::2]] + good[1:]
    prog.run(*strided)  # copied to C order by the package, then accepted
