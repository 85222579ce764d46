"""MaxText configurations (issue 18, item 3): `shardsim rules --maxtext`
against MaxText's own rules, restated here, and against JAX's and Flax's
code run on the same values:

- the config layers (base_config chain, models/<model_name>.yml, command
  line overrides) and the merge of logical_axis_rules by name, as MaxText's
  pyconfig does (restated: MaxText is not installed);
- the -1 fill of ici_*/dcn_*_parallelism (MaxText's
  fill_unspecified_mesh_axes, restated) and the device order, from JAX's
  own mesh_utils.create_hybrid_device_mesh / create_device_mesh over
  devices that carry a slice_index;
- every logical name resolved by Flax's nn.logical_to_mesh_axes and JAX's
  remove_size_one_mesh_axis (what MaxText's logical_to_mesh_axes calls);
- rules that can never apply, found by brute force through Flax.
"""
import itertools
import math
import os
import subprocess

import pytest

yaml = pytest.importorskip("yaml")
jax = pytest.importorskip("jax")
nn = pytest.importorskip("flax.linen")
from jax.experimental import mesh_utils  # noqa: E402
from jax.sharding import AbstractMesh, PartitionSpec as P  # noqa: E402
from jax._src.named_sharding import remove_size_one_mesh_axis  # noqa: E402

from conftest import ROOT  # noqa: E402

CONFIGS = os.path.join(ROOT, "tests", "data", "maxtext", "configs")
BASE = os.path.join(CONFIGS, "base.yml")


# ---------------------------------------------------------------- reference

def _load_chain(path):
    with open(path) as f:
        cfg = yaml.safe_load(f) or {}
    if "base_config" in cfg:
        parent = _load_chain(os.path.join(os.path.dirname(path), cfg["base_config"]))
        parent.update(cfg)  # OmegaConf.merge: a key replaces, lists whole
        cfg = parent
    return cfg


def _merge_rules(base, new, override):
    if override:
        return list(new)
    if not new:
        return base
    keys = {r[0] for r in new}
    return [r for r in base if r[0] not in keys] + list(new)


def reference_config(path, overrides=()):
    """The merged keys and rules, as MaxText's pyconfig layers them."""
    cfg = _load_chain(path)
    over = {}
    for o in overrides:
        k, v = o.split("=", 1)
        over.update(yaml.safe_load(f"{k}: {v}"))
    rules = cfg.get("logical_axis_rules") or []
    name = over.get("model_name", cfg.get("model_name", "default"))
    if name != "default":
        mpath = os.path.join(os.path.dirname(path), "models", f"{name}.yml")
        with open(mpath) as f:
            model = yaml.safe_load(f)
        rules = _merge_rules(rules, model.get("logical_axis_rules") or [],
                             model.get("override_logical_axis_rules", False))
        cfg.update({k: v for k, v in model.items() if k != "logical_axis_rules"})
    rules = _merge_rules(rules, over.get("logical_axis_rules") or [],
                         over.get("override_logical_axis_rules", False))
    cfg.update({k: v for k, v in over.items() if k != "logical_axis_rules"})
    # MaxText hands JAX tuples, not lists (pyconfig's _lists_to_tuples).
    cfg["logical_axis_rules"] = [
        (r[0], tuple(r[1]) if isinstance(r[1], list) else r[1]) for r in rules]
    return cfg


def _fill(vals, target):
    if -1 in vals:
        assert vals.count(-1) == 1
        vals[vals.index(-1)] = target // -math.prod(vals)
    assert math.prod(vals) == target
    return vals


def _param(cfg, net, axis):
    key = {"stage": "pipeline", "model": "tensor"}.get(axis, axis)
    return cfg.get(f"{net}_{key}_parallelism", -1 if (net, axis) == ("ici", "fsdp") else 1)


class _Device:
    """What mesh_utils reads of a device: a CPU device in a slice."""
    platform = "cpu"
    device_kind = "cpu"
    process_index = 0

    def __init__(self, i, per_slice):
        self.id = i
        self.slice_index = i // per_slice

    def __repr__(self):
        return f"_Device({self.id})"


def reference_mesh(cfg, devices, slices):
    axes = cfg["mesh_axes"]
    ici = _fill([_param(cfg, "ici", a) for a in axes], devices // slices)
    dcn = [1] * len(axes)
    devs = [_Device(i, devices // slices) for i in range(devices)]
    if slices > 1:
        dcn = _fill([_param(cfg, "dcn", a) for a in axes], slices)
        arr = mesh_utils.create_hybrid_device_mesh(ici, dcn, devs)
    else:
        arr = mesh_utils.create_device_mesh(ici, devs)
    ids = [d.id for d in arr.flat]
    return axes, ici, dcn, ids


def _norm(entry):
    """A spec entry as shardsim's JSON writes it: None, an axis, or a list."""
    if entry is None or entry == ():
        return None
    if isinstance(entry, tuple):
        return entry[0] if len(entry) == 1 else list(entry)
    return entry


def reference_spec(names, rules, mesh):
    spec = nn.logical_to_mesh_axes(tuple(names), rules)
    spec = remove_size_one_mesh_axis(P(*spec), mesh)
    return [_norm(e) for e in spec]


def _json_spec(spec):
    return [e[0] if isinstance(e, list) and len(e) == 1 else (e or None) for e in spec]


# ---------------------------------------------------------------- the cases

CASES = [
    # (config, devices, slices, overrides)
    (BASE, 8, 0, ()),
    (BASE, 64, 2, ("model_name=llama2-7b", "ici_tensor_parallelism=4")),
    (BASE, 256, 4, ("model_name=deepseek3-671b-2dfsdp", "ici_expert_parallelism=4",
                    "dcn_fsdp_parallelism=2")),
    (BASE, 4096, 16, ("ici_tensor_parallelism=8", "ici_fsdp_parallelism=-1",
                      "dcn_data_parallelism=4", "dcn_pipeline_parallelism=-1")),
    (os.path.join(CONFIGS, "shadowed.yml"), 32, 2, ("ici_tensor_parallelism=2",
                                                     "ici_expert_parallelism=2")),
]


def _args(config, devices, slices, overrides):
    args = ["rules", "--maxtext", config, "--devices", str(devices)]
    if slices:
        args += ["--slices", str(slices)]
    for o in overrides:
        args += ["--override", o]
    return args


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{os.path.basename(c[0])}-{c[1]}")
def test_mesh_names_and_data_sharding_as_maxtext(cli, case):
    config, devices, slices, overrides = case
    got = cli(*_args(*case))
    cfg = reference_config(config, overrides)
    axes, ici, dcn, ids = reference_mesh(cfg, devices, slices or 1)
    assert [a["name"] for a in got["mesh"]["axes"]] == axes
    assert [a["ici"] for a in got["mesh"]["axes"]] == ici
    assert [a["dcn"] for a in got["mesh"]["axes"]] == dcn
    assert [a["size"] for a in got["mesh"]["axes"]] == [i * d for i, d in zip(ici, dcn)]
    assert got["mesh"]["device_ids"] == ids
    mesh = AbstractMesh(tuple(i * d for i, d in zip(ici, dcn)), tuple(axes))

    rules = cfg["logical_axis_rules"]
    assert [tuple(r) for r in got["rules"]] == [
        (n, list(v) if isinstance(v, tuple) else ([v] if isinstance(v, str) else v))
        for n, v in rules]
    seen = [n for i, (n, _) in enumerate(rules) if n not in [r[0] for r in rules[:i]]]
    assert [e["name"] for e in got["names"]] == seen
    for e in got["names"]:
        assert _json_spec(e["spec"]) == reference_spec([e["name"]], rules, mesh), e["name"]

    data = remove_size_one_mesh_axis(P(*[tuple(x) if isinstance(x, list) else x
                                         for x in cfg["data_sharding"]]), mesh)
    assert _json_spec(got["data_sharding"]) == [_norm(e) for e in data]


ARRAYS = [
    ("embed", "mlp"), ("mlp", "embed"), ("activation_batch", "activation_length", "activation_embed"),
    ("embed", "heads", "kv"), ("layers", "embed", "mlp"), ("vocab", "embed_vocab"), ("norm",),
]


@pytest.mark.parametrize("case", CASES[1:3], ids=lambda c: os.path.basename(c[0]))
@pytest.mark.parametrize("names", ARRAYS, ids="-".join)
def test_array_resolution_as_flax_and_why(cli, case, names):
    config, devices, slices, overrides = case
    got = cli(*_args(*case), "--names", ",".join(names))
    cfg = reference_config(config, overrides)
    axes, ici, dcn, _ = reference_mesh(cfg, devices, slices)
    mesh = AbstractMesh(tuple(i * d for i, d in zip(ici, dcn)), tuple(axes))
    rules = cfg["logical_axis_rules"]
    assert _json_spec(got["spec"]) == reference_spec(names, rules, mesh)
    for d, why in enumerate(got["dims"]):
        if why["rule"] >= 0:
            # The deciding rule is the first of its name whose axes were free.
            assert rules[why["rule"]][0] == names[d]
        if why["lost_rule"] >= 0:
            lost = rules[why["lost_rule"]]
            axis = lost[1][why["lost_axis"]] if isinstance(lost[1], tuple) else lost[1]
            holder = rules[got["dims"][why["lost_to"]]["rule"]][1]
            assert axis in (holder if isinstance(holder, tuple) else (holder,))


def test_seed_004_embed_falls_to_its_next_rule(cli):
    """The seed's case: kernel ('embed', 'mlp') with base.yml's rules; 'mlp'
    takes fsdp_transpose first (its rule comes earlier), so 'embed' falls
    through to its second rule, as Flax Linen does."""
    got = cli(*_args(*CASES[1]), "--names", "embed,mlp")
    cfg = reference_config(BASE, CASES[1][3])
    rules = cfg["logical_axis_rules"]
    emb = got["dims"][0]
    assert rules[emb["lost_rule"]] == ("embed", ("fsdp", "fsdp_transpose", "context",
                                                 "context_usp_ulysses", "expert"))
    assert rules[emb["rule"]] == ("embed", ("fsdp", "context", "context_usp_ulysses", "expert"))
    assert emb["lost_to"] == 1


def test_shadowed_rules_are_the_ones_that_never_apply(cli):
    """Brute force through Flax: every array of up to three of the config's
    logical names, in every order; a rule 'applies' when a dimension gets
    exactly its axes and no earlier rule of its name has the same axes."""
    case = CASES[4]
    got = cli(*_args(*case))
    rules = reference_config(case[0], case[3])["logical_axis_rules"]
    names = sorted({n for n, _ in rules})
    applied = set()
    for k in range(1, 4):
        for arr in itertools.permutations(names, k):
            spec = nn.logical_to_mesh_axes(arr, rules)
            for d, n in enumerate(arr):
                for i, (rn, rv) in enumerate(rules):
                    if rn == n and _norm(spec[d]) == _norm(rv) and not any(
                            r == (rn, rv) for r in rules[:i]):
                        applied.add(i)
                        break
    never = {i for i in range(len(rules)) if i not in applied}
    assert {s["rule"] for s in got["shadowed"]} == never
    assert never  # the config was written to have some


@pytest.mark.parametrize("overrides,message", [
    (("ici_fsdp_parallelism=-1", "ici_tensor_parallelism=-1"),
     "Found unspecified values (-1) for more than one ICI parallelism axis"),
    (("ici_fsdp_parallelism=3",), "Number of devices per slice 8 does not match the product of "
                                  "the ICI parallelism 3"),
    (("ici_fsdp_parallelism=0",), "ici_fsdp_parallelism must be a positive integer or -1"),
    (("logical_axis_rules=[[embed]]",), "each rule is [logical_name, mesh_axes]"),
    (("mesh_axes=data",), "mesh_axes: expected a list of mesh axis names"),
])
def test_bad_configs_are_one_line_errors(overrides, message):
    exe = os.environ.get("SHARDSIM")
    if not exe:
        pytest.skip("SHARDSIM is not set: run through meson test")
    args = [exe, *_args(BASE, 8, 0, overrides)]
    p = subprocess.run(args, capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.count("\n") == 1 and message in p.stderr, p.stderr


def test_malformed_yaml_names_the_place(tmp_path):
    exe = os.environ.get("SHARDSIM")
    if not exe:
        pytest.skip("SHARDSIM is not set: run through meson test")
    bad = tmp_path / "bad.yml"
    bad.write_text("mesh_axes: ['data', 'fsdp'\nlogical_axis_rules: []\n")
    p = subprocess.run([exe, "rules", "--maxtext", str(bad)], capture_output=True, text=True)
    assert p.returncode == 2 and p.stderr.count("\n") == 1
    assert f"{bad}:" in p.stderr and "YAML" in p.stderr, p.stderr
    p = subprocess.run([exe, "rules", "--maxtext", str(tmp_path / "none.yml")],
                       capture_output=True, text=True)
    assert p.returncode == 2 and "cannot read" in p.stderr


MLP = os.path.join(ROOT, "tests", "data", "maxtext", "mlp_maxtext_names.shard")


@pytest.mark.parametrize("case", CASES[1:3], ids=lambda c: os.path.basename(c[0]))
def test_plan_takes_mesh_and_rules_from_the_config(cli, case):
    """plan --maxtext: the scenario's logical names resolve through the
    config's rules on the config's mesh, as Flax and JAX resolve them."""
    config, devices, slices, overrides = case
    extra = ["--slices", str(slices)] + [a for o in overrides for a in ("--override", o)]
    got = cli("plan", MLP, "--maxtext", config, "--devices", str(devices), "--set", "BATCH=512",
              *extra)
    cfg = reference_config(config, overrides)
    axes, ici, dcn, ids = reference_mesh(cfg, devices, slices)
    sizes = [i * d for i, d in zip(ici, dcn)]
    assert [(a["name"], a["size"]) for a in got["mesh"]["axes"]] == list(zip(axes, sizes))
    assert got["mesh"]["device_ids"] == ids
    mesh = AbstractMesh(tuple(sizes), tuple(axes))
    rules = cfg["logical_axis_rules"]
    logical = {"w1": ("embed", "mlp"), "w2": ("mlp", "embed"), "x": ("activation_batch", None)}
    for v in got["values"]:
        if v.get("name") in logical:
            want = reference_spec(logical[v["name"]], rules, mesh)
            assert _json_spec(v["spec"]) + [None] * (2 - len(v["spec"])) == want, v["name"]


def test_run_with_a_config_equals_the_single_device_run():
    exe = os.environ.get("SHARDSIM")
    if not exe:
        pytest.skip("SHARDSIM is not set: run through meson test")
    p = subprocess.run([exe, "run", MLP, "--maxtext", BASE, "--devices", "8",
                        "--override", "ici_tensor_parallelism=2"],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert "P('fsdp', 'tensor')" in p.stdout
    assert "l              max abs err" in p.stdout and p.stdout.rstrip().endswith("ok")


@pytest.mark.parametrize("args,message", [
    (["--mesh", "data=8"], "--mesh and --maxtext both give the mesh"),
    (["--slices", "3"], "64 devices do not split into 3 slices"),
])
def test_plan_config_errors(args, message):
    exe = os.environ.get("SHARDSIM")
    if not exe:
        pytest.skip("SHARDSIM is not set: run through meson test")
    p = subprocess.run([exe, "plan", MLP, "--maxtext", BASE, "--devices", "64", *args],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 2 and message in p.stderr, p.stderr


LLAMA = os.path.join(ROOT, "tests", "data", "maxtext", "llama2_7b.shard")


def test_llama2_7b_on_4096_devices_takes_the_configs_layouts(cli):
    """The MaxText-style 7B decoder planned on 4096 devices in 2 slices with
    MaxText's base config, the llama2-7b model file and tensor parallelism 8:
    every param's sharding is Flax's resolution of its logical names on the
    mesh MaxText builds, and the plan fits in a v5p's 95 GiB."""
    import re
    overrides = ("model_name=llama2-7b", "ici_tensor_parallelism=8")
    got = cli("plan", LLAMA, "--maxtext", BASE, "--devices", "4096", "--slices", "2",
              "--set", "BATCH=4096", *[a for o in overrides for a in ("--override", o)])
    cfg = reference_config(BASE, overrides)
    axes, ici, dcn, ids = reference_mesh(cfg, 4096, 2)
    sizes = tuple(i * d for i, d in zip(ici, dcn))
    mesh = AbstractMesh(sizes, tuple(axes))
    assert got["mesh"]["device_ids"] == ids
    with open(LLAMA) as f:
        params = dict(re.findall(r"^(\w+) = param\(\w+\[[^\]]*\], P\(([^)]*)\)", f.read(), re.M))
    assert len(params) == 12
    values = {v["name"]: v for v in got["values"] if v.get("name") in params}
    assert set(values) == set(params)
    for name, logical in params.items():
        names = tuple(n.strip().strip("'") for n in logical.split(","))
        want = reference_spec(names, cfg["logical_axis_rules"], mesh)
        spec = _json_spec(values[name]["spec"])
        assert spec + [None] * (len(want) - len(spec)) == want, name
    assert got["fits"] is True
