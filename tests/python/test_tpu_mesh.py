"""TPU device orders (issue 18, item 3): `shardsim rules --maxtext CFG
--topology T` against the orders JAX's own mesh_utils built on libtpu's
devices, recorded in tests/data/tpu_device_orders.json by
tests/xla_tpu/make_device_orders.py (JAX 0.10.2, libtpu 0.0.42.1; the file
names its versions and command).

Every recorded case is one MaxText config whose mesh axes a0, a1, ... have
the recorded ICI (and DCN) parallelism: the mesh's device ids must be the
recorded ones (libtpu's ids of one slice; with several slices libtpu's
100000*(s+1) + id is shardsim's s*devices + id), each position's chip
coordinates the recorded device's, and where JAX refused, the command's
one-line error carries JAX's exception type and message.
"""
import json
import os
import subprocess

import pytest

from conftest import ROOT

DATA = os.path.join(ROOT, "tests", "data", "tpu_device_orders.json")
CONFIG = os.path.join(ROOT, "tests", "data", "maxtext", "configs", "axes_only.yml")

with open(DATA) as f:
    RECORD = json.load(f)

CASES = [(t, c) for t in RECORD["topologies"] for c in t["cases"]]


def _case_id(tc):
    t, c = tc
    dcn = f"/dcn={'x'.join(map(str, c['dcn']))}" if "dcn" in c else ""
    split = "/split" if c["allow_split"] else ""
    return f"{t['topology']}*{t['num_slices']}/ici={'x'.join(map(str, c['ici']))}{dcn}{split}"


def _args(t, c):
    names = [f"a{i}" for i in range(len(c["ici"]))]
    args = ["rules", "--maxtext", CONFIG, "--topology", t["topology"],
            "--override", f"mesh_axes=[{','.join(names)}]",
            "--override", f"allow_split_physical_axes={str(c['allow_split']).lower()}"]
    for name, v in zip(names, c["ici"]):
        args += ["--override", f"ici_{name}_parallelism={v}"]
    if t["num_slices"] > 1:
        args += ["--slices", str(t["num_slices"])]
        for name, v in zip(names, c["dcn"]):
            args += ["--override", f"dcn_{name}_parallelism={v}"]
    return args


def _run(args, json_out):
    exe = os.environ.get("SHARDSIM")
    if not exe:
        pytest.skip("SHARDSIM (the shardsim command) is not set: run through meson test")
    return subprocess.run([exe, *args] + (["--json"] if json_out else []),
                          capture_output=True, text=True, cwd=ROOT)


@pytest.mark.parametrize("tc", CASES, ids=[_case_id(tc) for tc in CASES])
def test_device_order_as_jax_on_tpu(tc):
    t, c = tc
    per = len(t["devices"]) // t["num_slices"]
    # libtpu id -> (slice, coords, core)
    where = {d[0]: (d[5], d[1:4], d[4]) for d in t["devices"]}
    if "error" in c:
        p = _run(_args(t, c), json_out=False)
        assert p.returncode == 2, p.stdout
        err = p.stderr.strip()
        assert "\n" not in err
        assert f"{c['error']['type']}: {c['error']['message']}" in err
        return
    p = _run(_args(t, c), json_out=True)
    assert p.returncode == 0, p.stderr
    mesh = json.loads(p.stdout)["mesh"]
    sizes = [a["size"] for a in mesh["axes"]]
    want_sizes = [i * d for i, d in zip(c["ici"], c.get("dcn", [1] * len(c["ici"])))]
    assert sizes == want_sizes
    got = list(zip(mesh["device_ids"], mesh["device_coords"]))
    want = [(where[i][0] * per + (i % 100000 if t["num_slices"] > 1 else i), where[i][1])
            for i in c["ids"]]
    assert [(i, list(xyz)) for i, xyz in got] == [(i, list(xyz)) for i, xyz in want]
    cores = [where[i][2] for i in c["ids"]]
    assert mesh.get("device_cores", [0] * len(cores)) == cores
    if t["num_slices"] == 1:
        assert mesh["device_ids"] == c["ids"]  # libtpu's own numbering


def test_topology_numbering_is_libtpus():
    """id = x + X*(y + Y*z) in every recorded slice (on v7x, with two
    devices per chip, core + 2*that), and the slices' ids are
    100000*(s+1) + that id (what the comparison above relies on)."""
    for t in RECORD["topologies"]:
        dims = [int(v) for v in t["topology"].split(":")[1].split("x")] + [1]
        cores = 2 if t["topology"].startswith("v7x:") else 1
        for i, x, y, z, core, s in t["devices"]:
            local = core + cores * (x + dims[0] * (y + dims[1] * z))
            assert 0 <= core < cores
            assert i == (local if t["num_slices"] == 1 else 100000 * (s + 1) + local)


@pytest.mark.parametrize("topology, message", [
    ("v3:4x4", "expected KIND:DIMS with KIND v5e, v6e"),
    ("v4:2x2", "v5p, v4 and v7x slices are XxYxZ"),
    ("v5e:4x4x4", "v5e and v6e slices are XxY"),
    ("v5p:4x4", "v5p, v4 and v7x slices are XxYxZ"),
    ("v5e:0x4", "v5e and v6e slices are XxY"),
    ("v5p:64x64x64", "more than 4096 devices"),
])
def test_bad_topologies_are_one_line_errors(topology, message):
    p = _run(["rules", "--maxtext", CONFIG, "--topology", topology], json_out=False)
    assert p.returncode == 2
    assert message in p.stderr and p.stderr.count("\n") == 1


def test_topology_gives_the_devices():
    p = _run(["rules", "--maxtext", CONFIG, "--topology", "v5e:4x4", "--devices", "16"],
             json_out=False)
    assert p.returncode == 2 and "drop --devices" in p.stderr


MLP = os.path.join(ROOT, "tests", "data", "maxtext", "mlp_maxtext_names.shard")
BASE = os.path.join(ROOT, "tests", "data", "maxtext", "configs", "base.yml")


@pytest.mark.parametrize("topology", ["v5e:4x4", "v5e:8x8", "v5p:4x4x4", "v5p:4x8x8"])
@pytest.mark.parametrize("split", [False, True])
def test_plan_with_a_topology_takes_jaxs_order(topology, split):
    """plan --maxtext base.yml --topology T: the mesh MaxText builds with
    ici_tensor_parallelism=4 on that slice, in the order JAX recorded for
    base.yml's 12 axes (fsdp = devices/4, tensor = 4), or JAX's refusal
    (on v5e:8x8 a size-1 axis takes the size-1 z axis first, and tensor=4
    then finds no whole axis unless physical axes may be split)."""
    t = next(t for t in RECORD["topologies"]
             if t["topology"] == topology and t["num_slices"] == 1)
    n = len(t["devices"])
    want = next(c for c in t["cases"] if c["allow_split"] == split
                and c["ici"] == [1, 1, 1, n // 4, 1, 1, 1, 1, 4, 1, 1, 1])
    p = _run(["plan", MLP, "--maxtext", BASE, "--topology", topology, "--set", "BATCH=512",
              "--override", "ici_tensor_parallelism=4",
              "--override", f"allow_split_physical_axes={str(split).lower()}"], json_out=True)
    got = json.loads(p.stdout)
    if "error" in want:
        assert p.returncode == 2
        assert f"{want['error']['type']}: {want['error']['message']}" in got["error"]
    else:
        assert p.returncode == 0, p.stdout
        assert got["mesh"]["device_ids"] == want["ids"]


def test_plan_topology_errors():
    p = _run(["plan", MLP, "--topology", "v5e:4x4"], json_out=False)
    assert p.returncode == 2 and "need --maxtext" in p.stderr
    p = _run(["plan", MLP, "--maxtext", BASE, "--topology", "v5e:4x4", "--devices", "16"],
             json_out=False)
    assert p.returncode == 2 and "drop --devices" in p.stderr
    p = _run(["plan", MLP, "--maxtext", BASE, "--topology", "v5e:4x4",
              "--override", "ici_tensor_parallelism=8"], json_out=False)
    assert p.returncode == 2 and "NotImplementedError: Failed to find assignment" in p.stderr


def test_package_mesh_on_a_topology_is_jaxs():
    """shardsim.maxtext's Config.mesh(topology=...) gives the same TPU order
    JAX recorded (v5p 4x4x8, base.yml's 12 axes, tensor = 4)."""
    np = pytest.importorskip("numpy")
    from shardsim import maxtext
    t = next(t for t in RECORD["topologies"]
             if t["topology"] == "v5p:4x4x8" and t["num_slices"] == 1)
    want = next(c for c in t["cases"] if not c["allow_split"]
                and c["ici"] == [1, 1, 1, 32, 1, 1, 1, 1, 4, 1, 1, 1])
    cfg = maxtext.load_config(BASE, overrides=["ici_tensor_parallelism=4"])
    mesh = cfg.mesh(topology="v5p:4x4x8")
    assert np.asarray(mesh.device_ids).reshape(-1).tolist() == want["ids"]
    with pytest.raises(ValueError, match="leave devices None"):
        cfg.mesh(128, topology="v5p:4x4x8")
