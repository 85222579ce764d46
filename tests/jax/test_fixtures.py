"""Tests of the JAX fixtures in tests/data/jax.

* Live (needs the pinned JAX stack, tests/jax/requirements.txt): every
  fixture regenerated into a temporary directory by make_fixtures.py is
  byte-identical to the checked-in one, so a JAX upgrade shows up here as
  a readable diff; the versions in meta.json are the installed ones.
* Sanity (needs numpy only): JAX's outputs equal a numpy recomputation of
  the simple programs, and every collective XLA chose groups devices along
  mesh axes, the ones the program names.
"""

import difflib
import json
import os
import subprocess
import sys

import pytest

np = pytest.importorskip("numpy", reason="numpy is not installed")

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.normpath(os.path.join(HERE, "..", "data", "jax"))
PROGRAMS = sorted(d for d in os.listdir(DATA) if os.path.isfile(os.path.join(DATA, d, "meta.json")))
NO_JAX = ("JAX is not installed here: sh tools/setup.sh creates .venv/ with "
          "tests/jax/requirements.txt, then run this with .venv/bin/python")


def meta(prog):
    with open(os.path.join(DATA, prog, "meta.json"), encoding="utf-8") as f:
        return json.load(f)


def arrays(prog, which):
    """{name: array} of a fixture's inputs or outputs (which: 'arguments' or 'results')."""
    sub = "inputs" if which == "arguments" else "outputs"
    return {e["name"]: np.load(os.path.join(DATA, prog, sub, e["name"] + ".npy"))
            for e in meta(prog)[which]}


def close(got, want, rtol=1e-5, atol=1e-5):
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


# ---------------------------------------------------------------- live ----

@pytest.fixture(scope="module")
def regenerated(tmp_path_factory):
    pytest.importorskip("jax", reason=NO_JAX)
    out = tmp_path_factory.mktemp("jax_fixtures")
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=8", JAX_PLATFORMS="cpu")
    r = subprocess.run([sys.executable, os.path.join(HERE, "make_fixtures.py"), "--out", str(out)],
                       env=env, capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, "make_fixtures.py failed:\n" + r.stderr[-4000:]
    return str(out)


def _files(root):
    out = set()
    for d, _, names in os.walk(root):
        for n in names:
            out.add(os.path.relpath(os.path.join(d, n), root))
    return out


def _describe(rel, old, new):
    """A readable difference between two versions of one fixture file."""
    if rel.endswith(".npy"):
        a, b = np.load(old), np.load(new)
        if a.shape != b.shape or a.dtype != b.dtype:
            return f"{rel}: {a.dtype}{list(a.shape)} -> {b.dtype}{list(b.shape)}"
        diff = np.abs(a.astype(np.float64) - b.astype(np.float64))
        i = np.unravel_index(int(np.argmax(diff)), diff.shape) if diff.size else ()
        return f"{rel}: largest change {diff.max() if diff.size else 0:g} at {i}"
    with open(old, encoding="utf-8") as f:
        a = f.read().splitlines()
    with open(new, encoding="utf-8") as f:
        b = f.read().splitlines()
    lines = list(difflib.unified_diff(a, b, "checked-in/" + rel, "regenerated/" + rel, lineterm="", n=1))
    return "\n".join(lines[:40] + ([f"... ({len(lines) - 40} more diff lines)"] if len(lines) > 40 else []))


def _float_outputs_agree(rel, old, new):
    """Float results XLA computes on another CPU (its vector width picks
    other summation orders) may differ in the last bits: an output .npy
    agrees within 1e-5 of its largest magnitude, the tolerance the C tests
    hold shardsim to. Everything else must be byte-identical."""
    if not rel.endswith(".npy") or not rel.startswith("outputs"):
        return False
    a, b = np.load(old), np.load(new)
    if a.shape != b.shape or a.dtype != b.dtype or a.dtype.kind != "f":
        return False
    a, b = a.astype(np.float64), b.astype(np.float64)
    if not np.array_equal(np.isnan(a), np.isnan(b)):
        return False
    ok = ~np.isnan(a)
    scale = max(1.0, float(np.max(np.abs(a[ok]))) if ok.any() else 1.0)
    return bool(np.all(np.abs(a[ok] - b[ok]) <= 1e-5 * scale))


@pytest.mark.parametrize("prog", PROGRAMS)
def test_regenerating_gives_identical_files(regenerated, prog):
    old_root, new_root = os.path.join(DATA, prog), os.path.join(regenerated, prog)
    old, new = _files(old_root), _files(new_root)
    problems = [f"missing from the regenerated fixture: {f}" for f in sorted(old - new)]
    problems += [f"new in the regenerated fixture: {f}" for f in sorted(new - old)]
    for rel in sorted(old & new):
        a, b = os.path.join(old_root, rel), os.path.join(new_root, rel)
        with open(a, "rb") as fa, open(b, "rb") as fb:
            if fa.read() != fb.read() and not _float_outputs_agree(rel, a, b):
                problems.append(_describe(rel, a, b))
    assert not problems, (f"{prog}: the installed JAX stack gives different fixtures "
                          "(regenerate with tests/jax/make_fixtures.py and review):\n" + "\n".join(problems))


def test_regenerated_programs_are_the_checked_in_ones(regenerated):
    assert sorted(os.listdir(regenerated)) == PROGRAMS


def test_installed_versions_are_the_fixtures():
    pytest.importorskip("jax", reason=NO_JAX)
    import jax
    import jaxlib
    want = meta(PROGRAMS[0])["versions"]
    assert {"jax": jax.__version__, "jaxlib": jaxlib.__version__, "numpy": np.__version__} == \
        {k: want[k] for k in ("jax", "jaxlib", "numpy")}


# -------------------------------------------------------------- sanity ----

def test_every_program_has_all_files():
    need = {"lowered.shardy.mlir", "lowered.shardy.loc.mlir", "lowered.gspmd.mlir", "compiled.txt",
            "compiled.gspmd.txt", "collectives.json", "collectives.gspmd.json", "meta.json"}
    assert len(PROGRAMS) == 48
    for p in PROGRAMS:
        assert need <= set(os.listdir(os.path.join(DATA, p))), p
        if p.startswith("lm_"):  # XLA's memory analysis, for the remat variants' plans
            assert "memory.json" in os.listdir(os.path.join(DATA, p)), p
        if p.startswith("lm_large_"):  # lowered and compiled only: no values
            assert not os.path.exists(os.path.join(DATA, p, "inputs")), p
            continue
        text = open(os.path.join(DATA, p, "lowered.shardy.mlir"), encoding="utf-8").read()
        assert "sdy.mesh @" in text and "mhlo.sharding" not in text, p
        gtext = open(os.path.join(DATA, p, "lowered.gspmd.mlir"), encoding="utf-8").read()
        assert "mhlo.sharding" in gtext and "sdy." not in gtext, p
        m = meta(p)
        for e in m["arguments"] + m["results"]:
            sub = "inputs" if e in m["arguments"] else "outputs"
            a = np.load(os.path.join(DATA, p, sub, e["name"] + ".npy"))
            assert list(a.shape) == e["shape"] and str(a.dtype) == e["dtype"], (p, e["name"])


def gelu(x):  # jax.nn.gelu(approximate=True)
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))


def gelu_grad(x):
    c = np.sqrt(2 / np.pi)
    t = np.tanh(c * (x + 0.044715 * x ** 3))
    return 0.5 * (1 + t) + 0.5 * x * (1 - t ** 2) * c * (1 + 3 * 0.044715 * x ** 2)


def softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def test_s1_outputs():
    a, r = arrays("s1_pointwise_reduce", "arguments"), arrays("s1_pointwise_reduce", "results")
    y = np.exp(a["x"].astype(np.float64)) * 2 + 1 + a["b"][None, :]
    close(r["result[0]"], y.sum(0))
    close(r["result[1]"], y.sum(1))


@pytest.mark.parametrize("prog", ["s2_dp_mlp", "s6_fsdp_mlp"])
def test_mlp_loss_and_weight_gradients(prog):
    a, r = arrays(prog, "arguments"), arrays(prog, "results")
    x, w1, w2 = (a[k].astype(np.float64) for k in ("x", "w1", "w2"))
    pre = x @ w1
    h = np.maximum(pre, 0)
    dy = np.ones((x.shape[0], w2.shape[1]))
    close(r["result[0]"], (h @ w2).sum(), rtol=1e-4)
    close(r["result[1]"], x.T @ ((dy @ w2.T) * (pre > 0)), rtol=1e-4, atol=1e-4)
    close(r["result[2]"], h.T @ dy, rtol=1e-4, atol=1e-4)


def test_s3_forward_and_vjp():
    a, r = arrays("s3_megatron_mlp", "arguments"), arrays("s3_megatron_mlp", "results")
    x, w1, w2, dy = (a[k].astype(np.float64) for k in ("x", "w1", "w2", "dy"))
    pre = x @ w1
    close(r["result[0]"], gelu(pre) @ w2)
    dpre = (dy @ w2.T) * gelu_grad(pre)
    close(r["result[1]"], dpre @ w1.T, atol=1e-4)
    close(r["result[2]"], x.T @ dpre, atol=1e-4)
    close(r["result[3]"], gelu(pre).T @ dy, atol=1e-4)


def test_s8_attention():
    a, r = arrays("s8_attention_seq", "arguments"), arrays("s8_attention_seq", "results")
    q, k, v = (a[n].astype(np.float64) for n in ("q", "k", "v"))
    p = softmax(np.einsum("bqhd,bkhd->bhqk", q, k) / 4.0)
    close(r["result"], np.einsum("bhqk,bkhd->bqhd", p, v))


def test_s10_pipeline_against_sequential_stages():
    a, r = arrays("s10_pipeline_ppermute", "arguments"), arrays("s10_pipeline_ppermute", "results")
    w, xs = a["w"].astype(np.float64), a["xs"].astype(np.float64)
    stages, micro = w.shape[0], xs.shape[0]
    out = r["result"].reshape(stages, micro, *xs.shape[1:])
    for m in range(micro):  # the last stage's outputs: the four stages in sequence
        h = xs[m]
        for s in range(stages):
            h = np.tanh(h @ w[s])
        close(out[stages - 1, m], h)


@pytest.mark.parametrize("prog", ["s11a_allgather_matmul", "s11b_matmul_reducescatter"])
def test_s11_matmul(prog):
    a, r = arrays(prog, "arguments"), arrays(prog, "results")
    close(r["result"], a["x"].astype(np.float64) @ a["w"], atol=1e-4)


def test_s12_steps():
    for p in PROGRAMS:
        if not p.startswith("s12_"):
            continue
        a, r = arrays(p, "arguments"), arrays(p, "results")
        (x,) = a.values()
        if p.startswith("s12_7"):
            want = x.sum(0)
        elif p.startswith("s12_8"):
            want = x.reshape(64)
        else:
            want = x
        close(r["result"], want)


def test_shard_map_collectives():
    a, r = arrays("shard_map_collectives", "arguments"), arrays("shard_map_collectives", "results")
    x, y = a["x"], a["y"]
    blocks = x.reshape(2, 4, 4, 8)  # [data, rows, model, cols]
    close(r["result[0]"], blocks.sum(axis=2).reshape(8, 8))              # psum over model
    close(r["result[1]"], x)                                            # all_gather over model
    close(r["result[2]"], np.roll(blocks, 1, axis=2).reshape(8, 32))    # ppermute m -> m+1
    close(r["result[3]"], y[:4] + y[4:])                                # psum_scatter over data
    close(r["result[4]"], x)                                            # all_to_all rows <-> cols


# Programs whose GSPMD compile (XLA's older partitioner) partitions them
# otherwise than the Shardy one, beside the lm_* ones (tests/data/jax/README.md).
GSPMD_OWN_WAY = {"embed_grad_scatter"}


def _axis_groups(mesh_ids, axes):
    """The device groups of a collective over mesh axes `axes` (a set)."""
    ids = np.asarray(mesh_ids)
    keep = [i for i in range(ids.ndim) if i not in axes]
    moved = np.transpose(ids, keep + sorted(axes))
    n = int(np.prod([ids.shape[i] for i in axes])) if axes else 1
    return sorted(sorted(g) for g in moved.reshape(-1, n).tolist())


def test_collective_groups_run_along_mesh_axes():
    """Every group XLA chose (as hlo_collectives reads it, in any of the
    three spellings) is the set of devices along some mesh axes."""
    import itertools
    seen_mesh_form = 0
    for p in PROGRAMS:
        m = meta(p)
        ids, rank = m["mesh"]["device_ids"], len(m["mesh"]["shape"])
        allowed = [_axis_groups(ids, set(c)) for k in range(1, rank + 1)
                   for c in itertools.combinations(range(rank), k)]
        # XLA's older GSPMD partitioner splits 'model' into halves for this
        # program (groups {0,1},{2,3},...: tests/data/jax/README.md)
        names = ("collectives.json",) if p in GSPMD_OWN_WAY else (
            "collectives.json", "collectives.gspmd.json")
        for name in names:
            with open(os.path.join(DATA, p, name), encoding="utf-8") as f:
                for c in json.load(f)["collectives"]:
                    if "replica_groups" not in c:
                        continue
                    seen_mesh_form += c["replica_groups_form"] == "mesh"
                    got = sorted(sorted(g) for g in c["replica_groups"])
                    assert got in allowed, (p, name, c["name"], c["replica_groups_text"])
    assert seen_mesh_form > 0


@pytest.mark.parametrize("prog,kind,groups", [
    ("s12_4_gather_dim1", "all-gather", [[0, 1], [2, 3]]),       # along y
    ("s12_7_partial_to_shard", "all-reduce", [[0, 2], [1, 3]]),  # along x
    ("s1_pointwise_reduce", "all-reduce", [[0, 1, 2, 3]]),
    ("shard_map_collectives", "reduce-scatter", [[0, 4], [1, 5], [2, 6], [3, 7]]),  # along data
])
def test_collective_groups_of_named_axes(prog, kind, groups):
    with open(os.path.join(DATA, prog, "collectives.json"), encoding="utf-8") as f:
        cs = [c for c in json.load(f)["collectives"] if c["kind"] == kind]
    assert cs and all(c["replica_groups"] == groups for c in cs)


ABBREV = {"all-reduce": "AR", "all-gather": "AG", "reduce-scatter": "RS", "all-to-all": "A2A",
          "collective-permute": "CP"}


def _short(summary):
    parts = []
    for k in sorted(summary["by_kind"]):
        v = summary["by_kind"][k]
        bufs = f" ({v['buffers']} buffers)" if v["buffers"] != v["count"] else ""
        parts.append(f"{ABBREV.get(k, k)} x{v['count']}{bufs} {v['operand_bytes']}→{v['result_bytes']} B")
    return ", ".join(parts) or "none"


def test_readme_collectives_table():
    """tests/data/jax/README.md's table is what the fixtures hold (Shardy
    and GSPMD compiles alike, as it says)."""
    rows = {}
    with open(os.path.join(DATA, "README.md"), encoding="utf-8") as f:
        for ln in f:
            cells = [c.strip() for c in ln.strip().strip("|").split("|")]
            if len(cells) == 3 and cells[0].startswith("`"):
                rows[cells[0].strip("`")] = (cells[1], cells[2])
    assert sorted(rows) == PROGRAMS
    for p in PROGRAMS:
        m = meta(p)
        mesh = "x".join(str(n) for n in m["mesh"]["shape"])
        assert rows[p] == (mesh, _short(m["collectives"])), p
        # the README says how the GSPMD compiles of these differ
        if not p.startswith("lm_") and p not in GSPMD_OWN_WAY:
            assert _short(m["collectives_gspmd"]) == _short(m["collectives"]), p


def adam(p, g, mu, nu, count, lr):
    """One step of optax.adam (b1 0.9, b2 0.999, eps 1e-8) from its
    documented update rule; returns (p, mu, nu)."""
    mu = 0.9 * mu + 0.1 * g
    nu = 0.999 * nu + 0.001 * g * g
    t = count + 1
    return p - lr * (mu / (1 - 0.9 ** t)) / (np.sqrt(nu / (1 - 0.999 ** t)) + 1e-8), mu, nu


def test_flax_linen_train_step_against_numpy():
    prog = "flax_linen_train_step"
    a, r = arrays(prog, "arguments"), arrays(prog, "results")
    f64 = {k: v.astype(np.float64) for k, v in a.items()}
    layers = [f"['DotReluDot_{i}']" for i in range(4)]
    k = [f"params{l}['Dense_0']['kernel'].value" for l in layers]
    w2 = [f"params{l}['W2'].value" for l in layers]
    x, acts = f64["x"], []
    for i in range(4):  # forward: z = relu(x @ K) @ W2
        pre = x @ f64["state." + k[i]]
        acts.append((x, pre))
        x = np.maximum(pre, 0) @ f64["state." + w2[i]]
    dz, grads = np.ones_like(x), {}
    for i in reversed(range(4)):  # backward of sum(z)
        xin, pre = acts[i]
        grads[w2[i]] = np.maximum(pre, 0).T @ dz
        dpre = (dz @ f64["state." + w2[i]].T) * (pre > 0)
        grads[k[i]] = xin.T @ dpre
        dz = dpre @ f64["state." + k[i]].T
    count = int(a["state.opt_state[0].count"])
    assert int(r["result.step"]) == int(a["state.step"]) + 1 and int(r["result.opt_state[0].count"]) == count + 1
    for name, g in grads.items():
        leaf = name.split("params", 1)[1]
        p, mu, nu = adam(f64["state." + name], g, f64["state.opt_state[0].mu" + leaf],
                         f64["state.opt_state[0].nu" + leaf], count, 0.001)
        close(r["result." + name], p, rtol=1e-5, atol=1e-6)
        close(r["result.opt_state[0].mu" + leaf], mu, rtol=1e-4, atol=1e-6)
        close(r["result.opt_state[0].nu" + leaf], nu, rtol=1e-4, atol=1e-9)


def test_flax_nnx_train_step_against_numpy():
    prog = "flax_nnx_train_step"
    a, r = arrays(prog, "arguments"), arrays(prog, "results")
    f64 = {k: v.astype(np.float64) for k, v in a.items()}
    kn, wn = "['dot1']['kernel'].value", "['w2'].value"
    x, y = f64["x"], f64["y"]
    kern, w2 = f64["state[0]" + kn], f64["state[0]" + wn]
    pre = x @ kern
    h = np.maximum(pre, 0)
    err = h @ w2 - y
    close(r["result[0]"], np.mean(err ** 2))
    dz = 2 * err / err.size
    grads = {wn: h.T @ dz, kn: x.T @ ((dz @ w2.T) * (pre > 0))}
    count = int(a["state[1]['opt_state'][0]['count'].value"])
    for leaf, g in grads.items():
        p, mu, nu = adam(f64["state[0]" + leaf], g, f64["state[1]['opt_state'][0]['mu']" + leaf],
                         f64["state[1]['opt_state'][0]['nu']" + leaf], count, 1e-3)
        close(r["result[1][0]" + leaf], p, rtol=1e-5, atol=1e-6)
        close(r["result[1][1]['opt_state'][0]['mu']" + leaf], mu, rtol=1e-4, atol=1e-7)
