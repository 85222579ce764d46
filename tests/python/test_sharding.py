"""shardsim's Mesh, PartitionSpec, NamedSharding, visualize and logical
rules, each answer compared with JAX's and Flax's own on 8 fake CPU
devices (skipped where JAX is not installed)."""
import contextlib
import io
import itertools

import numpy as np
import pytest

import shardsim as ss

jax = pytest.importorskip("jax")
from jax.sharding import Mesh as JMesh, NamedSharding as JNS, PartitionSpec as JP  # noqa: E402

MESHES = [
    ((2, 4), ("data", "model"), None),
    ((4, 2), ("x", "y"), None),
    ((8,), ("i",), None),
    ((2, 2, 2), ("a", "b", "c"), None),
    ((2, 4), ("data", "model"), [3, 1, 0, 2, 7, 5, 4, 6]),  # a non-iota device order
]
SHAPES = [(8, 16), (16, 8, 4), (32,)]


def meshes():
    devs = jax.devices()
    if len(devs) < 8:
        pytest.skip("needs 8 JAX devices (XLA_FLAGS=--xla_force_host_platform_device_count=8)")
    for shape, names, order in MESHES:
        ids = np.arange(8) if order is None else np.array(order)
        jm = JMesh(np.array([devs[i] for i in ids]).reshape(shape), names)
        yield ss.Mesh(ids.reshape(shape), names), jm


def specs(names, rank):
    """Every spec of up to 2 entries over the names, each axis once."""
    entries = [None, *names, *[(a, b) for a, b in itertools.permutations(names, 2)]]
    for r in range(min(rank, 2) + 1):
        for combo in itertools.product(entries, repeat=r):
            used = [a for e in combo if e for a in ((e,) if isinstance(e, str) else e)]
            if len(used) == len(set(used)):
                yield combo


def jax_index_map(jsh, shape):
    out = {}
    for d, idx in jsh.devices_indices_map(shape).items():
        out[d.id] = tuple(slice(s.start, s.stop) if s != slice(None) else slice(None)
                          for s in idx)
    return out


def test_shard_shapes_indices_and_hlo_equal_jax():
    checked = 0
    for mesh, jm in meshes():
        for shape in SHAPES:
            for entries in specs(mesh.axis_names, len(shape)):
                jsh = JNS(jm, JP(*entries))
                try:
                    jsh.shard_shape(shape)
                    want_err = None
                except Exception as e:  # JAX refuses: we must refuse too
                    want_err = e
                sh = ss.NamedSharding(mesh, ss.P(*entries))
                if want_err is not None:
                    with pytest.raises(ss.ShardsimError):
                        sh.shard_shape(shape)
                    continue
                assert sh.shard_shape(shape) == jsh.shard_shape(shape), (entries, shape)
                assert sh.devices_indices_map(shape) == jax_index_map(jsh, shape)
                if mesh._flat_ids() is None:  # JAX numbers devices by mesh position
                    assert sh.hlo_sharding(len(shape)) == \
                        str(jsh._to_xla_hlo_sharding(len(shape)))
                assert sh.is_fully_replicated == jsh.is_fully_replicated
                checked += 1
    assert checked > 200


def test_reprs_equal_jax():
    for mesh, jm in meshes():
        assert repr(mesh) == repr(jm)
        assert str(mesh) == str(jm)
        for entries in [(), ("data",), (None, "model"), (("data", "model"),), ("x", "y")]:
            if not all(a in mesh.axis_names for e in entries if e
                       for a in ((e,) if isinstance(e, str) else e)):
                continue
            assert repr(ss.P(*entries)) == repr(JP(*entries))
            assert repr(ss.NamedSharding(mesh, ss.P(*entries))) == \
                repr(JNS(jm, JP(*entries)))


def test_errors_carry_jax_wording():
    mesh, jm = next(meshes())
    with pytest.raises(ValueError) as jerr:
        JNS(jm, JP("nope"))
    with pytest.raises(ss.errors.AxisError) as err:
        ss.NamedSharding(mesh, ss.P("nope"))
    assert str(err.value) == str(jerr.value)
    with pytest.raises(Exception) as jerr:
        JNS(jm, JP("data", "data"))
    with pytest.raises(ss.errors.DuplicateAxisError) as err:
        ss.NamedSharding(mesh, ss.P("data", "data"))
    assert str(err.value) == str(jerr.value)
    assert isinstance(err.value, ss.ShardsimError) and err.value.status == "SS_ERR_DUPLICATE"


def jax_picture(jm, entries, shape):
    x = jax.device_put(np.zeros(shape, np.float32), JNS(jm, JP(*entries)))
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        jax.debug.visualize_array_sharding(x, use_color=False)
    return buf.getvalue()


@pytest.mark.parametrize("entries,shape", [
    (("data", "model"), (8, 16)), (("model",), (8, 16)), ((None, "data"), (4, 8)),
    ((("data", "model"),), (16,)), ((), (8, 8)),
])
def test_visualize_equals_jax(entries, shape):
    mesh, jm = next(meshes())
    pic = ss.visualize(ss.NamedSharding(mesh, ss.P(*entries)), shape)
    assert str(pic) == jax_picture(jm, entries, shape)
    assert "<pre" in pic._repr_html_()


def test_visualize_takes_a_jax_array():
    mesh, jm = next(meshes())
    x = jax.device_put(np.zeros((8, 16), np.float32), JNS(jm, JP("data", "model")))
    assert str(ss.visualize(x)) == jax_picture(jm, ("data", "model"), (8, 16))


def test_logical_rules_equal_flax():
    nn = pytest.importorskip("flax.linen")
    rules = [("batch", "data"), ("embed", None), ("mlp", "model"), ("heads", "model"),
             ("kv", None), ("length", ("data", "model"))]
    for names in [("batch", "embed"), ("embed", "mlp"), ("batch", "length"), ("heads", "kv"),
                  ("batch", "mlp"), ("mlp", "heads"), (None, "mlp")]:
        want = nn.logical_to_mesh_axes(names, rules)
        got = ss.logical_to_mesh_axes(names, rules)
        assert got == tuple(want), names


def test_make_mesh_matches_jax():
    mesh = ss.make_mesh((2, 4), ("data", "model"))
    jm = jax.make_mesh((2, 4), ("data", "model"))
    assert mesh.shape == jm.shape
    assert np.array_equal(mesh.devices, np.vectorize(lambda d: d.id)(jm.devices))
    with pytest.raises(ss.ShardsimError):
        ss.make_mesh((4, 4), ("a", "b"), devices=8)
