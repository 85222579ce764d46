"""shardsim.maxtext, the Python face of MaxText configurations (issue 18):
the same configs and cases as test_maxtext_config.py, whose references
(MaxText's pyconfig layering and fill, restated; JAX's mesh_utils; Flax's
nn.logical_to_mesh_axes with JAX's remove_size_one_mesh_axis) this file
reuses, asked through the package instead of the command line, and a plan
with a config equal to the command line's."""
import os

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("flax.linen")
pytest.importorskip("yaml")
from jax.sharding import AbstractMesh  # noqa: E402

import shardsim as ss  # noqa: E402
from shardsim import maxtext  # noqa: E402
from test_maxtext_config import (ARRAYS, BASE, CASES, MLP, _norm, reference_config,  # noqa: E402
                                 reference_mesh, reference_spec)


def _config(case):
    config, _, _, overrides = case
    return maxtext.load_config(config, overrides=overrides)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{os.path.basename(c[0])}-{c[1]}")
def test_config_mesh_and_rules_as_maxtext(case):
    config, devices, slices, overrides = case
    cfg = _config(case)
    ref = reference_config(config, overrides)
    axes, ici, dcn, ids = reference_mesh(ref, devices, slices or 1)
    assert cfg.mesh_axes == tuple(axes)
    assert [(r.name, r.axes) for r in cfg.rules] == [
        (n, v[0] if isinstance(v, tuple) and len(v) == 1 else v)
        for n, v in ref["logical_axis_rules"]]
    par = cfg.parallelism(devices, slices or None)
    assert list(par) == axes
    assert [p[0] for p in par.values()] == ici and [p[1] for p in par.values()] == dcn
    mesh = cfg.mesh(devices, slices or None)
    assert mesh.axis_names == tuple(axes)
    assert mesh.axis_sizes == tuple(i * d for i, d in zip(ici, dcn))
    assert mesh.devices.reshape(-1).tolist() == ids
    assert tuple(cfg.data_sharding) == tuple(
        tuple(x) if isinstance(x, list) else x for x in ref["data_sharding"])


@pytest.mark.parametrize("case", CASES[1:3], ids=lambda c: os.path.basename(c[0]))
@pytest.mark.parametrize("names", ARRAYS, ids="-".join)
def test_logical_to_mesh_axes_as_flax_and_why(case, names):
    config, devices, slices, overrides = case
    cfg = _config(case)
    ref = reference_config(config, overrides)
    axes, ici, dcn, _ = reference_mesh(ref, devices, slices)
    abstract = AbstractMesh(tuple(i * d for i, d in zip(ici, dcn)), tuple(axes))
    rules = ref["logical_axis_rules"]
    spec, why = cfg.explain(names, cfg.mesh(devices, slices))
    assert [_norm(e) for e in spec] == reference_spec(names, rules, abstract)
    assert cfg.logical_to_mesh_axes(names, cfg.mesh(devices, slices)) == spec
    for d, w in enumerate(why):
        assert w.name == names[d]
        if w.rule is not None:
            assert rules[w.rule][0] == names[d]
        if w.lost_rule is not None:
            holder = rules[why[w.lost_to].rule][1]
            assert w.lost_axis in (holder if isinstance(holder, tuple) else (holder,))


def test_shadowed_rules_match_the_command_line(cli):
    case = CASES[4]
    config, devices, slices, overrides = case
    args = ["rules", "--maxtext", config, "--devices", str(devices), "--slices", str(slices)]
    for o in overrides:
        args += ["--override", o]
    got = cli(*args)
    cfg = _config(case)
    assert [(i, r.shadowed_by) for i, r in enumerate(cfg.rules) if r.shadowed_by is not None] \
        == [(s["rule"], s["by"]) for s in got["shadowed"]]
    assert got["shadowed"]  # the config was written to have some


def test_plan_with_a_config_equals_the_command_lines(cli):
    config, devices, slices, overrides = CASES[1]
    extra = ["--slices", str(slices)] + [a for o in overrides for a in ("--override", o)]
    want = cli("plan", MLP, "--maxtext", config, "--devices", str(devices), "--set", "BATCH=512",
               *extra)
    cfg = _config(CASES[1])
    plan = ss.Program(MLP).plan(maxtext=cfg, devices=devices, slices=slices,
                                sets={"BATCH": 512})
    assert plan.peak_bytes == want["memory"]["plan_peak_bytes"] > 0
    assert plan.mesh.devices.reshape(-1).tolist() == want["mesh"]["device_ids"]
    # A path is loaded as a config.
    again = ss.Program(MLP, maxtext=config, devices=64, slices=2, sets={"BATCH": 512})
    assert again.plan().mesh.axis_names == cfg.mesh_axes


def test_bad_configs_raise_the_librarys_errors(tmp_path):
    with pytest.raises(ss.ShardsimError, match="more than one ICI parallelism axis"):
        maxtext.load_config(BASE, overrides=["ici_fsdp_parallelism=-1",
                                             "ici_tensor_parallelism=-1"]).mesh(8)
    bad = tmp_path / "bad.yml"
    bad.write_text("mesh_axes: ['data', 'fsdp'\nlogical_axis_rules: []\n")
    with pytest.raises(ss.ShardsimError, match="YAML"):
        maxtext.load_config(bad)
    with pytest.raises(ss.ShardsimError, match="cannot read"):
        maxtext.load_config(tmp_path / "none.yml")
    with pytest.raises(ss.ShardsimError, match="KEY=VALUE"):
        maxtext.load_config(BASE, overrides=["ici_fsdp_parallelism"])
    mesh = ss.Mesh(np.arange(8).reshape(8), ("dta",))
    with pytest.raises(ss.ShardsimError, match="not found in mesh"):
        maxtext.load_config(BASE).logical_to_mesh_axes(("activation_batch",), mesh)


def _recorded_tpu_cases():
    """JAX's recorded TPU orders (tests/data/tpu_device_orders.json, made by
    tests/xla_tpu/make_device_orders.py): cases JAX could build."""
    import json
    with open(os.path.join(os.path.dirname(BASE), "..", "..", "tpu_device_orders.json")) as f:
        rec = json.load(f)
    return [(t, c) for t in rec["topologies"] for c in t["cases"] if "ids" in c]


def _shardsim_id(t, libtpu_id):
    """libtpu numbers slice s's devices 100000*(s+1) + id; shardsim s*devices + id."""
    if t["num_slices"] == 1:
        return libtpu_id
    per = len(t["devices"]) // t["num_slices"]
    return (libtpu_id // 100000 - 1) * per + libtpu_id % 100000


@pytest.mark.parametrize("tc", _recorded_tpu_cases()[::7],
                         ids=lambda tc: f"{tc[0]['topology']}*{tc[0]['num_slices']}-"
                                        f"{'x'.join(map(str, tc[1]['ici']))}")
def test_tpu_mesh_is_the_order_jax_recorded(tc):
    t, c = tc
    names = [f"a{i}" for i in range(len(c["ici"]))]
    over = [f"mesh_axes=[{','.join(names)}]",
            f"allow_split_physical_axes={str(c['allow_split']).lower()}"]
    over += [f"ici_{n}_parallelism={v}" for n, v in zip(names, c["ici"])]
    if t["num_slices"] > 1:
        over += [f"dcn_{n}_parallelism={v}" for n, v in zip(names, c["dcn"])]
    cfg = maxtext.load_config(os.path.join(os.path.dirname(BASE), "axes_only.yml"),
                              overrides=over)
    mesh = cfg.mesh(topology=t["topology"], slices=t["num_slices"])
    assert mesh.devices.reshape(-1).tolist() == [_shardsim_id(t, i) for i in c["ids"]]
    assert cfg.parallelism(topology=t["topology"], slices=t["num_slices"]) == \
        {n: (i, c["dcn"][k] if "dcn" in c else 1) for k, (n, i) in enumerate(zip(names, c["ici"]))}


def test_plan_on_a_tpu_topology_takes_its_devices_and_order(cli):
    over = ["ici_tensor_parallelism=4"]  # fsdp 4 x tensor 4: whole axes of the 4x4 torus
    want = cli("plan", MLP, "--maxtext", BASE, "--topology", "v5e:4x4", "--override", over[0],
               "--set", "BATCH=512")
    cfg = maxtext.load_config(BASE, overrides=over)
    plan = ss.Program(MLP).plan(maxtext=cfg, topology="v5e:4x4", sets={"BATCH": 512})
    ids = cfg.mesh(topology="v5e:4x4").devices.reshape(-1).tolist()
    assert plan.mesh.devices.reshape(-1).tolist() == ids == want["mesh"]["device_ids"]
    assert plan.peak_bytes == want["memory"]["plan_peak_bytes"]
    with pytest.raises(ss.ShardsimError, match="v5e:4"):
        ss.Program(MLP).plan(maxtext=cfg, topology="v5e:4", sets={"BATCH": 512})
    # JAX's refusal, in JAX's words: tensor 2 would split a physical axis of 4.
    odd = maxtext.load_config(BASE, overrides=["ici_tensor_parallelism=2"])
    with pytest.raises(ss.ShardsimError, match="Failed to find assignment"):
        odd.mesh(topology="v5e:4x4")
