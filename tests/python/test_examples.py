"""examples/: the Flax Linen guide's train step, lowered by real JAX and
imported, planned, run and planned again on 256 devices; and the pytest a
user would write with shardsim.testing (skipped without JAX and Flax)."""
import importlib.util
import os

import pytest

import shardsim as ss
from shardsim import testing

pytest.importorskip("flax")


@pytest.fixture(scope="module")
def guide(root):
    spec = importlib.util.spec_from_file_location(
        "flax_linen_guide", os.path.join(root, "examples", "flax_linen_guide.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_guides_train_step_fits_16gib_on_256_devices(guide):
    plan = testing.assert_fits(guide.program, mesh={"data": 2, "model": 128},
                               device_memory="16GiB")
    assert plan.mesh.size == 256


def test_the_guides_ledger_is_reductions_of_grads_over_data_and_of_activations_over_model(
        guide):
    plan = guide.program.plan()
    assert plan.mesh.shape == {"data": 2, "model": 4}
    kinds = {(c.kind, c.axes) for c in plan.ledger}
    assert kinds == {("all_reduce", ("data",)), ("all_reduce", ("model",))}
    # Adam's state and the params: 4 layers x 2 matrices of DEPTH^2 f32, each a quarter
    # per device (sharded over 'model'), three copies (params, mu, nu): a lower bound.
    depth = guide.DEPTH
    assert plan.peak_bytes >= 3 * 8 * depth * depth * 4 // 4


def test_the_guides_step_runs_and_returns_the_new_state(guide):
    run = guide.program.run()
    assert len(run.outputs) > 8
    for name, value in run.outputs.items():
        assert value is not None, name


@pytest.fixture(scope="module")
def nnx_guide(root):
    spec = importlib.util.spec_from_file_location(
        "flax_nnx_guide", os.path.join(root, "examples", "flax_nnx_guide.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("mesh", [None, "data=2,model=128"], ids=["2x4", "256_devices"])
def test_the_nnx_guides_figures_equal_the_clis_on_the_same_text(nnx_guide, cli, tmp_path, mesh):
    path = tmp_path / "nnx_train_step.mlir"
    path.write_text(nnx_guide.program.text)
    args = ["plan", str(path), "--device-memory", "16GiB"] + (["--mesh", mesh] if mesh else [])
    want = cli(*args)
    plan = nnx_guide.program.plan(mesh=mesh, device_memory="16GiB")
    assert plan.peak_bytes == want["memory"]["plan_peak_bytes"]
    assert plan.fits == want["fits"] is True
    assert plan.flops == pytest.approx(want["flops_per_device"])
    assert [(c.kind, c.axes, c.bytes, c.sent) for c in plan.ledger] == \
        [(e["kind"], tuple(e["axes"]), e["bytes"], pytest.approx(e["sent"]))
         for e in want["ledger"]["entries"]]
    assert plan.mesh.size == (256 if mesh else 8)


def test_the_nnx_guides_init_gives_jaxs_parameters(nnx_guide):
    """The sharded init lowered from nnx.Rngs(0): threefry bits, lecun_normal's
    truncated normal, on 8 virtual devices; equal to the parameters JAX's
    create_sharded_model made to 8 float32 ulps of their largest magnitude
    (2^-20 of it; about 3 % of elements differ in their last bits, by up to
    4 ulps: the truncated normal's inverse error function is XLA's own
    polynomial, which shardsim does not reproduce bit for bit), and laid
    out as nnx.with_partitioning says."""
    import jax
    import numpy as np
    from flax import nnx
    g = nnx_guide
    run = g.init_program.run()
    want = jax.tree_util.tree_flatten_with_path(nnx.state(g.model))[0]
    got = jax.tree_util.tree_leaves(run.result)
    assert len(got) == len(want) == 2
    for (path, w), a in zip(want, got):
        w = np.asarray(w)
        assert a.shape == w.shape and a.dtype == w.dtype
        np.testing.assert_allclose(a, w, rtol=0, atol=float(np.abs(w).max()) * 2 ** -20,
                                   err_msg=jax.tree_util.keystr(path))
        assert np.abs(a).max() > 0  # not zeros
    specs = {jax.tree_util.keystr(p): tuple(s.spec)
             for p, s in jax.tree_util.tree_flatten_with_path(g.params_sharding)[0]}
    for name in run.outputs:
        assert tuple(run.sharding(name).spec) in specs.values()


def test_the_nnx_guides_step_equals_jaxs_on_the_same_state(nnx_guide):
    import jax
    import numpy as np
    g = nnx_guide
    run = g.program.run(g.state, g.x, g.y)
    with jax.set_mesh(g.mesh):
        loss, state = jax.jit(g.train_step, in_shardings=g.in_shardings,
                              out_shardings=g.out_shardings)(g.state, g.x, g.y)
    np.testing.assert_allclose(run.result[0], np.asarray(loss), rtol=1e-5)
    # The gradients' moments (mu = 0.1 g, nu = 0.001 g^2) agree to 1e-5 of their
    # largest magnitude. Adam's first step moves each parameter by about
    # lr * g / (|g| + eps), which for |g| near eps (1e-8) turns on the last
    # bits of g: there the summation order may move a parameter by up to
    # 2 lr, so parameters must agree to 1e-5 for 99.9% of elements and to
    # 2 lr everywhere.
    lr = 1e-3
    got_leaves = jax.tree_util.tree_leaves(run.result[1])
    for (path, want), got in zip(jax.tree_util.tree_flatten_with_path(state)[0], got_leaves):
        name = jax.tree_util.keystr(path)
        want = np.asarray(want)
        scale = max(float(np.max(np.abs(want))), 1e-30)
        if "opt_state" in name or want.ndim < 2:
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-5 * scale, err_msg=name)
            continue
        diff = np.abs(got - want)
        assert np.mean(diff <= 1e-5 * scale) >= 0.999, name
        assert float(diff.max()) <= 2 * lr, name
