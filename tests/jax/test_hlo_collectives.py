"""Unit tests of hlo_collectives.py on hand-written HLO text.

Run by pytest, or by plain python3 (standard library only; prints TAP):
    python3 tests/jax/test_hlo_collectives.py
Expected groups are worked out by hand from the formats' definitions (XLA's
replica_group.h / mesh_and_axis.h, Shardy's sub-axis "x":(pre)size: the
factor of x's index with stride size(x)/(pre*size)), not from this reader.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hlo_collectives as hc  # noqa: E402


def module(*body, extra=""):
    """An HLO module: an add region, `extra` computations and an ENTRY with
    two parameters p0: f32[4,8], p1: bf16[16] and the given lines."""
    lines = ["HloModule m, num_partitions=8", "",
             "%add (a: f32[], b: f32[]) -> f32[] {",
             "  %a = f32[] parameter(0)", "  %b = f32[] parameter(1)",
             "  ROOT %s = f32[] add(%a, %b)", "}", "",
             "%max (x: f32[], y: f32[]) -> f32[] {",
             "  %x = f32[] parameter(0)", "  %y = f32[] parameter(1)",
             "  ROOT %m = f32[] maximum(%x, %y)", "}", "", extra,
             "ENTRY %main (p0: f32[4,8], p1: bf16[16]) -> f32[4,8] {",
             "  %p0 = f32[4,8]{1,0} parameter(0), sharding={replicated}",
             "  %p1 = bf16[16]{0} parameter(1)"]
    return "\n".join(lines + ["  " + b for b in body] + ["}", ""])


def one(*body, extra=""):
    cs = hc.parse(module(*body, extra=extra))
    assert len(cs) == 1, cs
    return cs[0]


def test_all_reduce_list_groups_bytes_and_reduction():
    c = one("ROOT %ar = f32[4,8]{1,0} all-reduce(%p0), channel_id=3, replica_groups={{0,1,2,3},{4,5,6,7}}, "
            'use_global_device_ids=true, to_apply=%add, metadata={op_name="jit(f)/psum" stack_frame_id=2}')
    assert c["kind"] == "all-reduce" and not c["async"]
    assert c["replica_groups"] == [[0, 1, 2, 3], [4, 5, 6, 7]] and c["replica_groups_form"] == "list"
    assert c["operand_bytes"] == 4 * 8 * 4 and c["result_bytes"] == 128
    assert c["operands"][0]["shape"] == [4, 8] and c["operands"][0]["element_type"] == "f32"
    assert c["reduction"] == "add" and c["channel_id"] == 3 and c["use_global_device_ids"]
    assert c["op_name"] == "jit(f)/psum" and c["computation"] == "main" and c["entry"]


def test_empty_replica_groups_mean_one_group_of_all():
    c = one("ROOT %ar = f32[4,8]{1,0} all-reduce(%p0), replica_groups={}, to_apply=%max")
    assert c["replica_groups"] == [] and c["replica_groups_form"] == "empty"
    assert c["reduction"] == "maximum"


def test_iota_groups_plain_and_transposed():
    # [2,4]<=[8]: rows of iota(8) reshaped [2,4].
    assert hc.iota_groups("[2,4]<=[8]") == [[0, 1, 2, 3], [4, 5, 6, 7]]
    # [2,4]<=[4,2]T(1,0): iota(8) as [4,2], transposed to [2,4].
    assert hc.iota_groups("[2,4]<=[4,2]T(1,0)") == [[0, 2, 4, 6], [1, 3, 5, 7]]
    # [4,2]<=[2,4]T(1,0): [2,4] transposed to [4,2]: pairs {i, i+4}.
    assert hc.iota_groups("[4,2]<=[2,4]T(1,0)") == [[0, 4], [1, 5], [2, 6], [3, 7]]
    # Three dims: [2,2,2] transposed (2,0,1): element (i,j,k) = 4j + 2k + i.
    assert hc.iota_groups("[2,4]<=[2,2,2]T(2,0,1)") == [[0, 2, 4, 6], [1, 3, 5, 7]]
    c = one("ROOT %ag = f32[4,32]{1,0} all-gather(%p0), replica_groups=[2,4]<=[8], dimensions={1}")
    assert c["replica_groups"] == [[0, 1, 2, 3], [4, 5, 6, 7]] and c["replica_groups_form"] == "iota"
    assert c["dimensions"] == [1] and c["operand_bytes"] == 128 and c["result_bytes"] == 512


def test_mesh_axes_groups():
    m = "mesh['data'=2,'model'=4] "
    assert hc.mesh_groups(m + "{'model'}") == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert hc.mesh_groups(m + "{'data'}") == [[0, 4], [1, 5], [2, 6], [3, 7]]
    assert hc.mesh_groups(m + "{'data','model'}") == [[0, 1, 2, 3, 4, 5, 6, 7]]
    # Listed model first: the group runs along model fastest-varying last.
    assert hc.mesh_groups(m + "{'model','data'}") == [[0, 4, 1, 5, 2, 6, 3, 7]]
    assert hc.mesh_groups("mesh['axis_0'=4,'axis_1'=1] {'axis_0'}") == [[0, 1, 2, 3]]
    # Sub-axes of a=8 (index = 4*i0 + 2*i1 + i2 for the factors 2x2x2).
    assert hc.mesh_groups("mesh['a'=8] {'a':(1)2}") == [[0, 4], [1, 5], [2, 6], [3, 7]]
    assert hc.mesh_groups("mesh['a'=8] {'a':(2)2}") == [[0, 2], [1, 3], [4, 6], [5, 7]]
    assert hc.mesh_groups("mesh['a'=8] {'a':(4)2}") == [[0, 1], [2, 3], [4, 5], [6, 7]]
    assert hc.mesh_groups("mesh['a'=8] {'a':(1)2,'a':(4)2}") == [[0, 1, 4, 5], [2, 3, 6, 7]]
    assert hc.mesh_groups("mesh['a'=8] {'a':(2)4}") == [[0, 1, 2, 3], [4, 5, 6, 7]]
    # A device order other than iota.
    assert hc.mesh_groups("mesh['x'=2,'y'=2], device_ids=(0,2,1,3) {'y'}") == [[0, 2], [1, 3]]
    # ... and in the iota spelling (iota(8) as [2,4], transposed: 0,4,1,5,2,6,3,7),
    # as XLA 0.10 prints the all-reduce of a gather from a table sharded on
    # a 2x4 mesh's 'model' axis: the groups are the rows of that mesh.
    assert hc.mesh_groups("mesh['x'=2,'y'=2], device_ids=([2,2]T(1,0)) {'y'}") == [[0, 2], [1, 3]]
    c = one("%all-reduce = f32[4,8,16]{2,1,0} all-reduce(%p0), channel_id=2, "
            "replica_groups=mesh['axis_0'=4,'axis_1'=1,'axis_2'=2], device_ids=([2,4]T(1,0)) "
            "{'axis_0'}, use_global_device_ids=true, to_apply=%add")
    assert c["replica_groups"] == [[0, 1, 2, 3], [4, 5, 6, 7]] and c["replica_groups_form"] == "mesh"
    c = one("ROOT %rs = f32[4,2]{1,0} reduce-scatter(%p0), channel_id=1, "
            "replica_groups=mesh['data'=2,'model'=4] {'model'}, use_global_device_ids=true, "
            "dimensions={1}, to_apply=%add")
    assert c["replica_groups"] == [[0, 1, 2, 3], [4, 5, 6, 7]] and c["replica_groups_form"] == "mesh"
    assert c["replica_groups_text"] == "mesh['data'=2,'model'=4] {'model'}"
    assert c["operand_bytes"] == 128 and c["result_bytes"] == 32


def test_collective_permute_pairs():
    c = one("ROOT %cp = f32[4,8]{1,0} collective-permute(%p0), channel_id=1, "
            "source_target_pairs={{0,1},{1,2},{2,3},{3,0}}")
    assert c["source_target_pairs"] == [[0, 1], [1, 2], [2, 3], [3, 0]]
    assert "replica_groups" not in c and c["operand_bytes"] == 128


def test_tuple_all_reduce_and_operand_comments():
    # XLA's all-reduce combiner: one all-reduce of several buffers.
    text = module("%r = f32[] reduce(%p0, %z), dimensions={0,1}, to_apply=%add",
                  "%z = f32[] constant(0)",
                  "%c = f32[16]{0} convert(%p1)",
                  "ROOT %ar = (f32[], f32[4,8]{1,0}, f32[16]{0}) all-reduce(%r, /*index=1*/%p0, %c), "
                  "replica_groups=[1,8]<=[8], to_apply=%add")
    (c,) = hc.parse(text)
    assert [o["name"] for o in c["operands"]] == ["r", "p0", "c"]
    assert c["operand_bytes"] == 4 + 128 + 64 and c["result_bytes"] == 196
    assert [r["shape"] for r in c["result"]] == [[], [4, 8], [16]]


def test_element_types_bytes():
    assert hc.parse_shape("bf16[3,5]{1,0}")[0]["bytes"] == 30
    assert hc.parse_shape("pred[7]")[0]["bytes"] == 7
    assert hc.parse_shape("s4[3]")[0]["bytes"] == 2
    assert hc.parse_shape("(f64[2], u8[3], s32[])") == [
        {"type": "f64[2]", "element_type": "f64", "shape": [2], "bytes": 16},
        {"type": "u8[3]", "element_type": "u8", "shape": [3], "bytes": 3},
        {"type": "s32[]", "element_type": "s32", "shape": [], "bytes": 4}]
    c = one("ROOT %a2a = bf16[16]{0} all-to-all(%p1), replica_groups={{0,1},{2,3},{4,5},{6,7}}, dimensions={0}")
    assert c["operand_bytes"] == 32 and c["operands"][0]["element_type"] == "bf16"


def test_async_pairs_count_once_with_the_done_result():
    c = one("%ags = (f32[4,8]{1,0}, f32[8,8]{1,0}) all-gather-start(%p0), channel_id=2, "
            "replica_groups={{0,4},{1,5},{2,6},{3,7}}, dimensions={0}, use_global_device_ids=true",
            "ROOT %agd = f32[8,8]{1,0} all-gather-done(%ags)")
    assert c["kind"] == "all-gather" and c["async"]
    assert c["operand_bytes"] == 128 and c["result_bytes"] == 256
    assert c["replica_groups"] == [[0, 4], [1, 5], [2, 6], [3, 7]]
    c = one("%cps = (f32[4,8]{1,0}, f32[4,8]{1,0}, u32[], u32[]) collective-permute-start(%p0), "
            "channel_id=1, source_target_pairs={{0,1},{1,0}}",
            "ROOT %cpd = f32[4,8]{1,0} collective-permute-done(%cps)")
    assert c["kind"] == "collective-permute" and c["result_bytes"] == 128
    c = one("%ars = f32[4,8]{1,0} all-reduce-start(%p0), replica_groups={{0,1}}, to_apply=%add",
            "ROOT %ard = f32[4,8]{1,0} all-reduce-done(%ars)")
    assert c["kind"] == "all-reduce" and c["reduction"] == "add"


def test_collectives_in_other_computations_and_summary():
    body = ("%body (q: f32[4,8]) -> f32[4,8] {\n  %q = f32[4,8]{1,0} parameter(0)\n"
            "  ROOT %inner = f32[4,8]{1,0} all-reduce(%q), replica_groups={{0,1}}, to_apply=%add\n}\n")
    cs = hc.parse(module("%w = f32[4,8]{1,0} call(%p0), to_apply=%body",
                         "ROOT %g = f32[8,8]{1,0} all-gather(%w), replica_groups={{0,1}}, dimensions={0}",
                         extra=body))
    assert [(c["name"], c["computation"], c["entry"]) for c in cs] == [
        ("inner", "body", False), ("g", "main", True)]
    s = hc.summary(cs)
    assert s["count"] == 2
    assert s["by_kind"]["all-gather"] == {"count": 1, "buffers": 1, "operand_bytes": 128, "result_bytes": 256}
    (c,) = hc.parse(module("%c = f32[16]{0} convert(%p1)",
                           "ROOT %ar = (f32[4,8]{1,0}, f32[16]{0}) all-reduce(%p0, %c), replica_groups={}, "
                           "to_apply=%add"))
    assert hc.summary([c])["by_kind"]["all-reduce"] == {"count": 1, "buffers": 2, "operand_bytes": 192,
                                                        "result_bytes": 192}


def test_errors_are_parse_errors():
    cases = [
        module("ROOT %ar = f32[4,8]{1,0} all-reduce(%nope), replica_groups={}, to_apply=%add"),
        module("ROOT %ar = f32[4,8]{1,0} all-reduce(%p0), replica_groups=[2,3]<=[8], to_apply=%add"),
        module("ROOT %ar = f32[4,8]{1,0} all-reduce(%p0), replica_groups=mesh['a'=8] {'b'}, to_apply=%add"),
        module("ROOT %ar = q9[4,8]{1,0} all-reduce(%p0), replica_groups={}, to_apply=%add"),
        module("%s = (f32[4,8], f32[8,8]) all-gather-start(%p0), replica_groups={}, dimensions={0}",
               "ROOT %t = f32[4,8] copy(%p0)"),
    ]
    for text in cases:
        try:
            hc.parse(text)
        except hc.HloParseError:
            continue
        raise AssertionError("accepted: " + text.splitlines()[-2])


def test_command_line_json_and_one_line_errors():
    import json
    import subprocess
    import tempfile
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hlo_collectives.py")
    with tempfile.TemporaryDirectory() as d:
        good, bad = os.path.join(d, "good.txt"), os.path.join(d, "bad.txt")
        with open(good, "w") as f:
            f.write(module("ROOT %ar = f32[4,8]{1,0} all-reduce(%p0), replica_groups={{0,1}}, to_apply=%add"))
        with open(bad, "w") as f:
            f.write(module("ROOT %ar = f32[4,8]{1,0} all-reduce(%p0), replica_groups=[2,2]<=[8], to_apply=%add"))
        r = subprocess.run([sys.executable, script, good], capture_output=True, text=True)
        assert r.returncode == 0 and json.loads(r.stdout)["summary"]["count"] == 1
        for path in (bad, os.path.join(d, "missing.txt")):
            r = subprocess.run([sys.executable, script, path], capture_output=True, text=True)
            assert r.returncode == 2 and r.stdout == "" and len(r.stderr.splitlines()) == 1, r.stderr
            assert r.stderr.startswith("hlo_collectives: " + path + ": ")


def test_no_collectives():
    assert hc.parse(module("ROOT %n = f32[4,8]{1,0} negate(%p0)")) == []


LOOP = "\n".join([
    # a fused all-reduce-scatter: all-reduce, then this partition's slice
    "%ars (in: f32[4,8]) -> f32[4,2] {",
    "  %in = f32[4,8]{1,0} parameter(0)",
    "  %r = f32[4,8]{1,0} all-reduce(%in), replica_groups={{0,1,2,3}}, to_apply=%add",
    "  %z = u32[] constant(0)",
    "  %pid = u32[] partition-id()",
    "  ROOT %ds = f32[4,2]{1,0} dynamic-slice(%r, %z, %pid), dynamic_slice_sizes={4,2}",
    "}", "",
    "%body (t: (s32[], f32[4,8])) -> (s32[], f32[4,8]) {",
    "  %t = (s32[], f32[4,8]{1,0}) parameter(0)",
    "  %i = s32[] get-tuple-element(%t), index=0",
    "  %v = f32[4,8]{1,0} get-tuple-element(%t), index=1",
    "  %g = f32[4,8]{1,0} all-reduce(%v), replica_groups={{0,1},{2,3}}, to_apply=%add",
    "  %f = f32[4,2]{1,0} fusion(%g), kind=kCustom, calls=%ars",
    "  %one = s32[] constant(1)",
    "  %n = s32[] add(%i, %one)",
    "  ROOT %o = (s32[], f32[4,8]{1,0}) tuple(%n, %g)",
    "}", "",
    "%cond (c: (s32[], f32[4,8])) -> pred[] {",
    "  %c = (s32[], f32[4,8]{1,0}) parameter(0)",
    "  %k = s32[] get-tuple-element(%c), index=0",
    "  %lim = s32[] constant(6)",
    "  ROOT %lt = pred[] compare(%k, %lim), direction=LT",
    "}", ""])


def test_loop_bodies_run_their_trip_count_and_fused_reduce_scatter():
    # the loop starts at 2 (a copied constant) and runs while i < 6: 4 trips
    cs = hc.parse(module("%two = s32[] constant(2)", "%start = s32[] copy(%two)",
                         "%init = (s32[], f32[4,8]{1,0}) tuple(%start, %p0)",
                         "%w = (s32[], f32[4,8]{1,0}) while(%init), condition=%cond, body=%body",
                         "ROOT %x = f32[4,8]{1,0} all-reduce(%p0), replica_groups={}, to_apply=%add",
                         extra=LOOP), per_execution=True)
    by = {c["name"]: c for c in cs}
    assert set(by) == {"r", "g", "x"}, by
    assert by["g"]["runs"] == 4 and by["g"]["runs_known"] and by["g"]["kind"] == "all-reduce"
    assert by["x"]["runs"] == 1 and by["x"]["computation"] == "main"
    # the fusion inside the body runs as often as the body
    r = by["r"]
    assert r["runs"] == 4 and r["kind"] == "reduce-scatter" and r["hlo_kind"] == "all-reduce"
    assert r["operand_bytes"] == 128 and r["result_bytes"] == 4 * 2 * 4
    # by default, the text as written: no runs, the all-reduce an all-reduce
    plain = {c["name"]: c for c in hc.parse(module(
        "%two = s32[] constant(2)", "%start = s32[] copy(%two)",
        "%init = (s32[], f32[4,8]{1,0}) tuple(%start, %p0)",
        "ROOT %w = (s32[], f32[4,8]{1,0}) while(%init), condition=%cond, body=%body", extra=LOOP))}
    assert plain["r"]["kind"] == "all-reduce" and "runs" not in plain["r"] and "hlo_kind" not in plain["r"]


def test_loop_without_a_readable_trip_count_counts_once():
    # the init comes from a parameter: the trip count is not in the text
    cs = hc.parse(module("%i0 = s32[] bitcast(%p1)", "%init = (s32[], f32[4,8]{1,0}) tuple(%i0, %p0)",
                         "ROOT %w = (s32[], f32[4,8]{1,0}) while(%init), condition=%cond, body=%body",
                         extra=LOOP), per_execution=True)
    g = next(c for c in cs if c["name"] == "g")
    assert g["runs"] == 1 and not g["runs_known"]


# XLA TPU's async collective fusion, as libtpu 0.0.42.1 writes it (the
# SMALL LM's backward loop, lm_full@v5e:2x4): one all-gather cloned into the
# chain's start fusion and each continuation fusion, the clones sharing its
# channel_id and frontend_attributes={chain_id="N"}.
CHAIN = "\n".join(
    [f"%piece{k} (q{k}: bf16[2,16]) -> bf16[4,16] {{\n"
     f"  %q{k} = bf16[2,16]{{1,0}} parameter(0)\n"
     f"  ROOT %ag{k} = bf16[4,16]{{1,0}} all-gather(%q{k}), channel_id=44, replica_groups={{{{0,1}},{{2,3}}}}, "
     f"dimensions={{0}}, use_global_device_ids=true, frontend_attributes={{chain_id=\"2\"}}, "
     f"backend_config={{\"async_collective_fusion_config\":{{\"flag_start\":\"{-1 if k == 0 else 2}\"}}}}\n}}\n"
     for k in range(3)])


def test_async_collective_fusion_chain_counts_once():
    cs = hc.parse(module("%r = bf16[2,8]{1,0} reshape(%p1)",
                         "%x = bf16[2,16]{1,0} concatenate(%r, %r), dimensions={1}",
                         "%f0 = bf16[4,16]{1,0} fusion(%x), kind=kCustom, calls=%piece0",
                         "%f1 = bf16[4,16]{1,0} fusion(%x), kind=kCustom, calls=%piece1",
                         "%f2 = bf16[4,16]{1,0} fusion(%x), kind=kCustom, calls=%piece2",
                         "ROOT %n = f32[4,8]{1,0} negate(%p0)", extra=CHAIN), per_execution=True)
    assert len(cs) == 1, cs
    assert cs[0]["chain_clones"] == 3 and cs[0]["result_bytes"] == 4 * 16 * 2
    # as written (not per execution), every clone is listed
    assert len(hc.parse(module("ROOT %n = f32[4,8]{1,0} negate(%p0)", extra=CHAIN))) == 3


def _tap():
    tests = [(n, f) for n, f in sorted(globals().items()) if n.startswith("test_") and callable(f)]
    print(f"1..{len(tests)}")
    failed = 0
    for n, f in tests:
        try:
            f()
            print(f"ok - {n}")
        except Exception as e:  # noqa: BLE001 - report every failure as TAP
            failed += 1
            print(f"not ok - {n}: {type(e).__name__}: {e}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(_tap())
