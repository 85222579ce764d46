"""MaxText-sized configurations (issue 18, item 1): MaxText's twelve mesh
axes, logical names longer than 31 characters, arrays of rank 16, and the
limits that remain (SS_MAX_AXES, SS_MAX_RANK), through the package and the
command line, each answer compared with JAX 0.10's and Flax's own on 8 fake
CPU devices (skipped where JAX is not installed)."""
import contextlib
import io
import os

import numpy as np
import pytest

import shardsim as ss
from shardsim import _core

jax = pytest.importorskip("jax")
from jax.sharding import Mesh as JMesh, NamedSharding as JNS, PartitionSpec as JP  # noqa: E402

# MaxText's mesh_axes (base.yml), sized for 8 devices: the others are 1.
MAXTEXT_AXES = ("data", "stage", "fsdp", "fsdp_transpose", "sequence", "context",
                "context_autoregressive", "tensor", "tensor_transpose", "tensor_sequence",
                "expert", "autoregressive")
SIZES = {"data": 2, "fsdp": 2, "tensor": 2}
SHAPE = tuple(SIZES.get(a, 1) for a in MAXTEXT_AXES)
LONG = "an_axis_name_of_more_than_thirty_one_characters"
# Rules shaped like MaxText's logical_axis_rules, with its long names.
RULES = [
    ("activation_embed_and_logits_batch", ("data", "stage", "fsdp", "fsdp_transpose", "expert")),
    ("activation_length_no_exp", ("sequence", "context")),
    ("activation_embed_and_logits_vocab", ("tensor", "tensor_transpose")),
    ("embed_dimension_of_every_kernel_weight", ("fsdp", "fsdp_transpose", "sequence",
                                                "context", "expert")),
    ("embed_dimension_of_every_kernel_weight", ("fsdp", "sequence", "context", "expert")),
    ("mlp_dimension_of_every_kernel_weight", ("tensor", "tensor_transpose", "tensor_sequence",
                                              "autoregressive")),
    ("activation_kv_head_dim_of_the_attention", None),
]
NAMES = [
    ("activation_embed_and_logits_batch", "activation_embed_and_logits_vocab"),
    ("embed_dimension_of_every_kernel_weight", "mlp_dimension_of_every_kernel_weight"),
    ("activation_embed_and_logits_batch", "activation_length_no_exp",
     "embed_dimension_of_every_kernel_weight"),
    ("activation_kv_head_dim_of_the_attention", "mlp_dimension_of_every_kernel_weight"),
]


def need_devices():
    if len(jax.devices()) < 8:
        pytest.skip("needs 8 JAX devices (XLA_FLAGS=--xla_force_host_platform_device_count=8)")


def mesh_pair(names=MAXTEXT_AXES, shape=SHAPE):
    need_devices()
    ids = np.arange(8).reshape(shape)
    return (ss.Mesh(ids, names),
            JMesh(np.array(jax.devices()[:8]).reshape(shape), names))


def jax_picture(jm, entries, shape):
    x = jax.device_put(np.zeros(shape, np.float32), JNS(jm, JP(*entries)))
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        jax.debug.visualize_array_sharding(x, use_color=False)
    return buf.getvalue()


def jax_index_map(jsh, shape):
    return {d.id: tuple(slice(s.start, s.stop) if s != slice(None) else slice(None)
                        for s in idx)
            for d, idx in jsh.devices_indices_map(shape).items()}


SPECS = [  # over MaxText's axes; (entries, shape)
    ((("data", "fsdp"), "tensor"), (8, 16)),
    ((("data", "stage", "fsdp", "fsdp_transpose", "expert"), ("tensor", "tensor_transpose")),
     (8, 16)),
    (("tensor", None, ("context_autoregressive", "fsdp")), (4, 3, 8)),
    ((None, ("autoregressive", "tensor_sequence", "data")), (5, 4)),
]


def check_sharding(mesh, jm, entries, shape):
    sh, jsh = ss.NamedSharding(mesh, ss.P(*entries)), JNS(jm, JP(*entries))
    assert repr(ss.P(*entries)) == repr(JP(*entries))
    assert repr(sh) == repr(jsh)
    assert sh.shard_shape(shape) == jsh.shard_shape(shape), entries
    assert sh.devices_indices_map(shape) == jax_index_map(jsh, shape)
    assert sh.hlo_sharding(len(shape)) == str(jsh._to_xla_hlo_sharding(len(shape)))
    assert sh.is_fully_replicated == jsh.is_fully_replicated
    if len(shape) <= 2:
        assert str(ss.visualize(sh, shape)) == jax_picture(jm, entries, shape)


def test_twelve_axis_mesh_equals_jax():
    mesh, jm = mesh_pair()
    assert repr(mesh) == repr(jm) and str(mesh) == str(jm)
    for entries, shape in SPECS:
        check_sharding(mesh, jm, entries, shape)


def test_long_mesh_axis_names_equal_jax():
    names = tuple(LONG + "_" + a if a in SIZES else a for a in MAXTEXT_AXES)
    mesh, jm = mesh_pair(names)
    assert repr(mesh) == repr(jm) and str(mesh) == str(jm)
    big = tuple(n for n in names if n.startswith(LONG))
    for entries, shape in [((big[:2], big[2]), (8, 16)), ((None, big), (3, 8)),
                           ((big[1],), (4, 4))]:
        check_sharding(mesh, jm, entries, shape)
    with pytest.raises(ValueError) as jerr:
        JNS(jm, JP(LONG))
    with pytest.raises(ss.errors.AxisError) as err:
        ss.NamedSharding(mesh, ss.P(LONG))
    assert str(err.value) == str(jerr.value)


def test_long_logical_names_resolve_as_flax():
    nn = pytest.importorskip("flax.linen")
    for names in NAMES:
        assert ss.logical_to_mesh_axes(names, RULES) == tuple(
            nn.logical_to_mesh_axes(names, RULES)), names


def test_rank_16_arrays_equal_jax():
    mesh, jm = mesh_pair()
    shape = (4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 8)
    assert len(shape) == _core.MAX_RANK == 16
    for entries in [(("data", "fsdp"),) + (None,) * 14 + ("tensor",),
                    (None,) * 15 + (("tensor", "data"),), ()]:
        sh, jsh = ss.NamedSharding(mesh, ss.P(*entries)), JNS(jm, JP(*entries))
        assert sh.shard_shape(shape) == jsh.shard_shape(shape)
        assert sh.devices_indices_map(shape) == jax_index_map(jsh, shape)
        assert sh.hlo_sharding(len(shape)) == str(jsh._to_xla_hlo_sharding(len(shape)))
        assert repr(sh) == repr(jsh)


def test_limits_at_and_past():
    n = _core.MAX_AXES
    assert n >= 16
    need_devices()
    names = tuple(f"axis_{k}_{LONG}" for k in range(n))
    shape = (2, 2, 2) + (1,) * (n - 3)
    mesh, jm = mesh_pair(names, shape)
    assert repr(mesh) == repr(jm)
    check_sharding(mesh, jm, (names[:2], names[n - 1], names[2]), (8, 4, 2))
    with pytest.raises(ValueError, match=rf"{n + 1} axes; at most {n} are supported \(SS_MAX_AXES\)"):
        ss.Mesh(np.arange(8).reshape((2, 2, 2) + (1,) * (n - 2)),
                names + ("one_more",))
    with pytest.raises(ss.ShardsimError, match=f"more than {_core.MAX_RANK} dimensions "
                                               r"\(SS_MAX_RANK\)"):
        ss.NamedSharding(mesh, ss.P(*([None] * (_core.MAX_RANK + 1)))).shard_shape(
            (1,) * (_core.MAX_RANK + 1))


# --- the command line ------------------------------------------------------

MESH_TEXT = ",".join(f"{a}={SIZES.get(a, 1)}" for a in MAXTEXT_AXES)
RULES_TEXT = " ".join(f"{n}=" + ("None" if v is None else "(" + ",".join(v) + ")")
                      for n, v in RULES)


def test_cli_show_with_rules_equals_jax(cli):
    mesh, jm = mesh_pair()
    nn = pytest.importorskip("flax.linen")
    for names in NAMES[:2]:
        shape = (8, 16)
        got = cli("show", "--mesh", MESH_TEXT, "--shape", "8,16", "--rules", RULES_TEXT,
                  "--spec", ",".join(names))
        # Flax's resolution, then MaxText's removal of the size-1 axes.
        entries = []
        for e in nn.logical_to_mesh_axes(names, RULES):
            kept = tuple(a for a in ((e,) if isinstance(e, str) else e or ()) if SIZES.get(a))
            entries.append(None if not kept else kept[0] if len(kept) == 1 else kept)
        jsh = JNS(jm, JP(*entries))
        assert got["hlo_sharding"] == str(jsh._to_xla_hlo_sharding(2))
        assert tuple(got["shard_shape"]) == jsh.shard_shape(shape)
        assert got["picture"] == jax_picture(jm, entries, shape)
        want = jax_index_map(jsh, shape)
        for s in got["shards"]:
            assert tuple(slice(a, b) for a, b in s["index"]) == tuple(
                slice(x.start or 0, x.stop or n) for x, n in zip(want[s["device"]], shape))


def test_cli_rules_equals_flax(cli):
    nn = pytest.importorskip("flax.linen")
    for names in NAMES:
        got = cli("rules", "--rules", RULES_TEXT, "--names", ",".join(names))
        want = [list(e) if isinstance(e, tuple) else e
                for e in nn.logical_to_mesh_axes(names, RULES)]
        assert got["spec"] == want, names


def test_cli_plan_of_the_twelve_axis_mesh_equals_its_resolved_program(cli, root):
    """The MLP on MaxText's twelve axes with long logical names plans exactly
    as the same MLP written with the mesh axes the rules give (size-1 axes
    dropped): the same layouts, memory, FLOPs and collectives."""
    d = os.path.join("tests", "data", "maxtext")
    a = cli("plan", os.path.join(d, "mlp_12_axes.shard"))
    b = cli("plan", os.path.join(d, "mlp_3_axes.shard"))
    assert len(a["mesh"]["axes"]) == 12
    where = lambda x: {k: v for k, v in x.items() if k not in ("line", "col", "provenance")}  # noqa: E731
    assert {k: v for k, v in a["memory"].items() if k != "largest_at_peak"} == \
        {k: v for k, v in b["memory"].items() if k != "largest_at_peak"}
    assert [where(x) for x in a["memory"]["largest_at_peak"]] == \
        [where(x) for x in b["memory"]["largest_at_peak"]]
    assert a["flops_per_device"] == b["flops_per_device"]
    assert [v.get("spec") for v in a["values"]] == [v.get("spec") for v in b["values"]]
    assert [where(e) for e in a["ledger"]["entries"]] == [where(e) for e in b["ledger"]["entries"]]
    assert a["ledger"]["entries"], "the plan moves data"
