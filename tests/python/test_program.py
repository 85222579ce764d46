"""shardsim.load / Program.plan / .run and shardsim.testing, compared with
the command line's --json reports and --outputs files on the same scenario
files (the CLI being the reference the golden comparisons hold fixed)."""
import os

import numpy as np
import pytest

import shardsim as ss
from shardsim import testing

SCENARIOS = ["flax_mlp", "megatron", "fsdp", "data_parallel", "shard_map_mlp", "moe"]


def path(root, name):
    return os.path.join(root, "scenarios", name + ".shard")


def ledger_key(entries):
    return [(e["kind"], tuple(e["axes"]), e["group_size"], e["ngroups"], e["bytes"],
             e["phase"], e["replica_groups"]) for e in entries]


@pytest.mark.parametrize("name", SCENARIOS)
def test_plan_equals_cli(cli, root, name):
    want = cli("plan", path(root, name))
    plan = ss.load(path(root, name)).plan()
    assert plan.peak_bytes == want["memory"]["plan_peak_bytes"]
    assert plan.device_memory == want["device_memory"]
    assert plan.fits == want["fits"]
    assert plan.flops == pytest.approx(want["flops_per_device"])
    got = [(c.kind, c.axes, c.group_size, c.ngroups, c.bytes, c.phase, c.replica_groups)
           for c in plan.ledger]
    assert got == ledger_key(want["ledger"]["entries"])
    assert [c.value_name for c in plan.ledger] == \
        [e["provenance"]["name"] or "" for e in want["ledger"]["entries"]]
    assert plan.mesh.axis_names == tuple(a["name"] for a in want["mesh"]["axes"])


def test_plan_on_another_mesh_equals_cli(cli, root):
    want = cli("plan", path(root, "flax_mlp"), "--mesh", "data=4,model=2")
    plan = ss.load(path(root, "flax_mlp")).plan(mesh={"data": 4, "model": 2})
    assert plan.mesh.shape == {"data": 4, "model": 2}
    assert plan.peak_bytes == want["memory"]["plan_peak_bytes"]
    assert [(c.kind, c.axes) for c in plan.ledger] == \
        [(e["kind"], tuple(e["axes"])) for e in want["ledger"]["entries"]]


@pytest.mark.parametrize("name", ["flax_mlp", "megatron"])
def test_run_outputs_equal_cli_outputs(cli, root, tmp_path, name):
    cli("run", path(root, name), "--steps", "2", "--outputs", str(tmp_path))
    run = ss.load(path(root, name)).run(steps=2)
    files = sorted(f[:-4] for f in os.listdir(tmp_path))
    assert sorted(run.outputs) == files
    for f in files:
        want = np.load(tmp_path / (f + ".npy"))
        assert run.outputs[f].dtype == want.dtype
        np.testing.assert_array_equal(run.outputs[f], want)
    assert run.checks_passed and all(c["passed"] for c in run.checks)
    assert run.steps == 2 and run.median_step_seconds > 0


def test_text_programs_and_their_errors():
    text = "mesh data=2\nx = input(f32[8, 4], P('data'))\n"
    ss.Program(text=text, name="ok.shard")  # loads
    with pytest.raises(ss.errors.ParseError) as err:
        ss.Program(text="mesh data=2\n\nx = input(f32[8, 4], P('nope'))\n", name="bad.shard")
    assert err.value.line == 3 and err.value.col > 0
    assert "nope" in str(err.value) and "x = input" in err.value.source_line
    with pytest.raises(ss.errors.ShardsimIOError):
        ss.load("/nonexistent/file.shard")


def test_device_memory_and_assert_fits(root, cli):
    want = cli("plan", path(root, "flax_mlp"))["memory"]["plan_peak_bytes"]
    prog = ss.load(path(root, "flax_mlp"))
    assert prog.plan(device_memory=want).fits
    assert not prog.plan(device_memory=want - 1).fits
    testing.assert_fits(prog, device_memory=want)
    with pytest.raises(AssertionError, match="does not fit"):
        testing.assert_fits(path(root, "flax_mlp"), device_memory=want - 1)
    with pytest.raises(ss.ShardsimError):
        ss.parse_bytes("16 parsecs")


def test_byte_counts_read_as_the_reports_write_them(root, cli):
    # The Python views format bytes with the library's formatter, so a
    # figure reads the same in `repr(plan)` as in `shardsim plan`: binary
    # units, one decimal, worked out here by hand.
    from shardsim._program import _fmt_bytes
    assert _fmt_bytes(512) == "512 B"
    assert _fmt_bytes(1536) == "1.5 KiB"
    assert _fmt_bytes(16 * 2**20) == "16.0 MiB"
    assert _fmt_bytes(2 * 2**40) == "2.0 TiB"
    peak = cli("plan", path(root, "flax_mlp"))["memory"]["plan_peak_bytes"]
    text = repr(ss.load(path(root, "flax_mlp")).plan())
    assert f"peak {_fmt_bytes(peak)} per device" in text, text


def test_parse_bytes_reads_units_as_the_command_line(root, cli):
    # IEC units and bare letters are binary, SI units decimal (dd(1)); the
    # command line's --device-memory reads the same text the same way.
    assert ss.parse_bytes("16GiB") == ss.parse_bytes("16G") == 16 * 2**30
    assert ss.parse_bytes("16GB") == 16 * 10**9
    assert ss.parse_bytes("1.5 KB") == 1500
    for text in ("16GB", "16GiB"):
        got = cli("plan", path(root, "flax_mlp"), "--device-memory", text)
        assert got["memory"]["capacity"] == ss.parse_bytes(text)


def test_assert_collectives(root, cli):
    entries = cli("plan", path(root, "megatron"))["ledger"]["entries"]
    by_kind = {}
    for e in entries:
        by_kind[e["kind"]] = by_kind.get(e["kind"], 0) + 1
    testing.assert_collectives(path(root, "megatron"), expected=by_kind)
    by_axes = {}
    for e in entries:
        k = (e["kind"], tuple(e["axes"]))
        by_axes[k] = by_axes.get(k, 0) + 1
    testing.assert_collectives(path(root, "megatron"), expected=by_axes)
    wrong = dict(by_kind, all_gather=by_kind.get("all_gather", 0) + 1)
    with pytest.raises(AssertionError, match="all_gather"):
        testing.assert_collectives(path(root, "megatron"), expected=wrong)


def test_assert_sharding():
    mesh = ss.make_mesh((2, 4), ("data", "model"))
    sh = ss.NamedSharding(mesh, ss.P("data", None))
    testing.assert_sharding(sh, ss.P("data"))
    with pytest.raises(AssertionError):
        testing.assert_sharding(sh, ss.P(None, "data"))


def test_explain_names_every_op(root):
    text = ss.load(path(root, "megatron")).explain()
    assert "dot_general" in text and text.count("\n") > 5


def test_progress_callback_sees_every_step_and_can_stop_the_run(root):
    seen = []
    run = ss.load(path(root, "data_parallel")).run(steps=4, progress=lambda *a: seen.append(a))
    assert [d for d, _, _ in seen] == [1, 2, 3, 4] and all(t == 4 for _, t, _ in seen)
    assert run.steps == 4

    class Stop(Exception):
        pass

    def stop_at_2(done, total, elapsed):
        if done == 2:
            raise Stop("enough")
    with pytest.raises(Stop):
        ss.load(path(root, "data_parallel")).run(steps=50, progress=stop_at_2)


def test_ctrl_c_stops_a_run_after_the_step_in_progress(root):
    import signal
    import threading
    steps = []

    def interrupt_at_3(done, total, elapsed):
        steps.append(done)
        if done == 3:  # as if Ctrl-C arrived during the step
            signal.raise_signal(signal.SIGINT)
    assert threading.current_thread() is threading.main_thread()
    with pytest.raises(KeyboardInterrupt):
        ss.load(path(root, "data_parallel")).run(steps=1000, progress=interrupt_at_3)
    assert steps[-1] == 3
