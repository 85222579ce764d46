"""shardsim.checkpoint against real Orbax (the pinned orbax-checkpoint):
what Orbax saves, shardsim.checkpoint.restore gives exactly as Orbax's own
restore gives it (values bit for bit, in the target's sharding); what
shardsim.checkpoint.save writes, Orbax restores to the saved values. The
round trip without JAX uses shardsim's own shardings."""
import os

import numpy as np
import pytest

import shardsim as ss
from shardsim import checkpoint as ssck


def test_round_trip_with_shardsim_shardings(tmp_path):
    mesh = ss.make_mesh((2, 4), ("a", "b"))
    rng = np.random.default_rng(3)
    w = rng.standard_normal((16, 32)).astype(np.float32).view(ssck.ShardedArray)
    w.sharding = ss.NamedSharding(mesh, ss.P("a", "b"))
    state = {"params": {"w": w, "ids": np.arange(12, dtype=np.int32)}, "step": np.int32(7)}
    ssck.save(tmp_path / "ck", state)
    other = ss.make_mesh((8,), ("x",))
    target = {"params": {"w": ssck.ShapeDtypeStruct((16, 32), np.float32,
                                                   ss.NamedSharding(other, ss.P(None, "x"))),
                         "ids": ssck.ShapeDtypeStruct((12,), np.int32)},
              "step": ssck.ShapeDtypeStruct((), np.int32)}
    got = ssck.restore(tmp_path / "ck", target)
    np.testing.assert_array_equal(got["params"]["w"], w)
    np.testing.assert_array_equal(got["params"]["ids"], state["params"]["ids"])
    assert got["step"].shape == () and int(got["step"]) == 7
    assert got["params"]["w"].sharding == ss.NamedSharding(other, ss.P(None, "x"))
    # no target sharding: the saved one (whole, on one device)
    assert got["params"]["ids"].sharding.mesh.size == 1
    with pytest.raises(ss.errors.InvalidArgumentError, match="Requested shape"):
        ssck.restore(tmp_path / "ck", dict(target, step=ssck.ShapeDtypeStruct((2,), np.int32)))
    with pytest.raises(ss.errors.InvalidArgumentError, match="already exists"):
        ssck.save(tmp_path / "ck", state)


jax = pytest.importorskip("jax")
ocp = pytest.importorskip("orbax.checkpoint")
import jax.numpy as jnp  # noqa: E402
from jax.sharding import NamedSharding, PartitionSpec as P  # noqa: E402


@pytest.fixture(scope="module")
def meshes():
    if len(jax.devices()) < 8:
        pytest.skip("needs 8 JAX devices")
    return jax.make_mesh((2, 4), ("a", "b")), jax.make_mesh((4, 2), ("x", "y"))


def make_tree(mesh):
    rng = np.random.default_rng(7)
    leaves = {"w": (rng.standard_normal((16, 32)).astype(np.float32), P("a", "b")),
              "emb": (rng.standard_normal((8, 16)).astype(jnp.bfloat16), P(None, "b")),
              "half": (rng.standard_normal((4, 8)).astype(np.float16), P("a", None)),
              "ids": (rng.integers(-500, 500, size=(16,)).astype(np.int32), P("b"))}
    return {"params": {k: jax.device_put(v, NamedSharding(mesh, s)) for k, (v, s) in
                       leaves.items()},
            "step": jax.device_put(np.asarray(3, np.int32), NamedSharding(mesh, P()))}


def retarget(tree, mesh):
    specs = {"w": P("y", "x"), "emb": P("x", None), "half": P(None, "y"), "ids": P(("x", "y"))}

    def one(path, leaf):
        key = path[-1].key
        return jax.ShapeDtypeStruct(leaf.shape, leaf.dtype,
                                    sharding=NamedSharding(mesh, specs.get(key, P())))
    return jax.tree_util.tree_map_with_path(one, tree)


def assert_same(got, want, shardings=True):
    gl, gt = jax.tree_util.tree_flatten(got)
    wl, wt = jax.tree_util.tree_flatten(want)
    assert gt == wt
    for g, w in zip(gl, wl):
        g_np, w_np = np.asarray(g), np.asarray(w)
        assert g_np.dtype == w_np.dtype and g_np.shape == w_np.shape
        assert g_np.tobytes() == w_np.tobytes()
        if shardings:
            assert g.sharding.spec == ss.P(*w.sharding.spec)
            assert g.sharding.mesh.shape == dict(w.sharding.mesh.shape)


@pytest.mark.parametrize("kw", [{}, {"use_zarr3": True}, {"use_ocdbt": False}],
                         ids=["ocdbt", "zarr3", "zarr2_files"])
def test_restore_of_an_orbax_checkpoint_equals_orbaxs_restore(tmp_path, meshes, kw):
    mesh, other = meshes
    tree = make_tree(mesh)
    path = str(tmp_path / "ck")
    with ocp.Checkpointer(ocp.PyTreeCheckpointHandler(**kw)) as c:
        c.save(path, args=ocp.args.PyTreeSave(tree))
    abstract = retarget(tree, other)
    with ocp.StandardCheckpointer() as c:
        want = c.restore(path, abstract)
    got = ssck.restore(path, abstract)
    assert_same(got, want)


def test_restore_a_managers_step_with_eval_shape_targets(tmp_path, meshes):
    mesh, other = meshes
    tree = make_tree(mesh)
    with ocp.CheckpointManager(str(tmp_path / "mgr")) as mgr:
        mgr.save(5, args=ocp.args.StandardSave(tree))
        mgr.save(9, args=ocp.args.StandardSave(jax.tree_util.tree_map(lambda x: x + 1, tree)))
        mgr.wait_until_finished()
        # eval_shape's shardings are over an AbstractMesh, which Orbax cannot
        # restore into; shardsim takes it as devices 0..N-1, the concrete mesh.
        abstract = jax.eval_shape(lambda t: t, tree)
        concrete = jax.tree_util.tree_map(
            lambda x: jax.ShapeDtypeStruct(x.shape, x.dtype, sharding=x.sharding), tree)
        want5 = mgr.restore(5, args=ocp.args.StandardRestore(concrete))
        latest = mgr.restore(9, args=ocp.args.StandardRestore(concrete))
    assert_same(ssck.restore(tmp_path / "mgr", abstract, step=5), want5)
    assert_same(ssck.restore(tmp_path / "mgr", abstract), latest)


@pytest.mark.parametrize("layout", ["ocdbt", "files"])
def test_orbax_restores_what_shardsim_saved(tmp_path, meshes, layout):
    mesh, other = meshes
    tree = make_tree(mesh)
    ssck.save(tmp_path / "ck", tree, layout=layout)
    abstract = retarget(tree, other)
    with ocp.StandardCheckpointer() as c:
        got = c.restore(str(tmp_path / "ck"), abstract)
    assert_same(got, tree, shardings=False)
    for g, a in zip(jax.tree_util.tree_leaves(got), jax.tree_util.tree_leaves(abstract)):
        assert g.sharding == a.sharding
    ssck.save(tmp_path / "mgr", tree, step=3, layout=layout)
    with ocp.CheckpointManager(str(tmp_path / "mgr")) as mgr:
        assert list(mgr.all_steps()) == [3]
        got = mgr.restore(3, args=ocp.args.StandardRestore(abstract))
    assert_same(got, tree, shardings=False)


def test_nnx_state_restores_by_orbaxs_names(tmp_path, meshes):
    nnx = pytest.importorskip("flax.nnx")
    mesh, _ = meshes

    class Model(nnx.Module):
        def __init__(self, rngs):
            init = nnx.initializers.lecun_normal()
            self.linear1 = nnx.Linear(16, 32, rngs=rngs,
                                      kernel_init=nnx.with_partitioning(init, (None, "b")))
            self.linear2 = nnx.Linear(32, 16, rngs=rngs,
                                      kernel_init=nnx.with_partitioning(init, ("b", None)))

    with jax.set_mesh(mesh):
        state = nnx.state(Model(nnx.Rngs(0)))
        with ocp.StandardCheckpointer() as c:
            c.save(str(tmp_path / "nnx"), state)
        abstract = nnx.state(nnx.eval_shape(lambda: Model(nnx.Rngs(0))))
        shardings = nnx.get_named_sharding(abstract, mesh)
        target = jax.tree_util.tree_map(
            lambda a, s: jax.ShapeDtypeStruct(a.shape, a.dtype, sharding=s), abstract, shardings)
        with ocp.StandardCheckpointer() as c:
            want = c.restore(str(tmp_path / "nnx"), target)
    got = ssck.restore(tmp_path / "nnx", target)
    assert_same(got, want)
    assert got["linear1"]["kernel"].sharding.spec == ss.P(None, "b")
