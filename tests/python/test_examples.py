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
