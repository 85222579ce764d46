#!/usr/bin/env python3
"""Write shardsim's JAX fixtures: for each program, what real JAX and XLA
make of it on 8 virtual CPU devices.

    XLA_FLAGS=--xla_force_host_platform_device_count=8 \\
        .venv/bin/python tests/jax/make_fixtures.py [--out DIR] [PROGRAM ...]

(XLA_FLAGS is set to that when absent.)  Under DIR (tests/data/jax by
default) each program gets a directory PROGRAM/ holding:

  lowered.shardy.mlir      jax.jit(f, in_shardings=..., out_shardings=...)
                           .lower(*args).as_text(): JAX's default (Shardy)
  lowered.shardy.loc.mlir  the same with debug_info=True (locations)
  lowered.gspmd.mlir       the same lowered with jax_use_shardy_partitioner
                           off (mhlo.sharding strings)
  compiled.txt             lowered.compile().as_text() of the Shardy lowering
  compiled.gspmd.txt       the same of the GSPMD lowering
  collectives.json         every collective of compiled.txt (hlo_collectives)
  collectives.gspmd.json   the same of compiled.gspmd.txt
  inputs/NAME.npy          each argument leaf, NAME its path as JAX prints it
                           in the argument locations (e.g. state.params['W2'])
  outputs/NAME.npy         each result leaf, NAME its jax.result_info
  meta.json                mesh, shardings, versions, the command

Everything is deterministic: running it again writes identical files
(tests/jax/test_fixtures.py checks that).  Source paths in locations are
made relative (to the repository, or to site-packages for libraries).
"""

import argparse
import contextlib
import inspect
import json
import os
import re
import shutil
import sys

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
os.environ.setdefault("JAX_PLATFORMS", "cpu")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
import jax  # noqa: E402

import hlo_collectives; from program import program_outputs  # noqa: E402,E702
import programs_models, programs_random, programs_gather, programs_lm  # noqa: E401,E402
import programs_scenarios, programs_moe, programs_rng, programs_scatter  # noqa: E401,E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.normpath(os.path.join(HERE, "..", "data", "jax"))
COMMAND = ("XLA_FLAGS=--xla_force_host_platform_device_count=8 "
           ".venv/bin/python tests/jax/make_fixtures.py")
# Source file paths in locations and metadata: library files relative to
# site-packages, this directory's files relative to the repository.
CANONICAL_PATHS = r".*/site-packages/|.*/(?=tests/jax/[a-z_]+\.py)"

BUILDERS = (programs_scenarios.BUILDERS + programs_models.BUILDERS + programs_random.BUILDERS + programs_gather.BUILDERS + programs_moe.BUILDERS + programs_lm.BUILDERS + programs_rng.BUILDERS + programs_scatter.BUILDERS)


def versions():
    out = {}
    for mod in ("jax", "jaxlib", "flax", "optax", "numpy"):
        try:
            out[mod] = __import__(mod).__version__
        except ImportError:
            out[mod] = None
    return out


def arg_names(fn, args):
    """The path of every argument leaf, spelled as JAX spells it in the
    lowered module's argument locations: the parameter name, then keystr."""
    try:
        params = [p.name for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    if len(params) != len(args):
        params = [f"args[{i}]" for i in range(len(args))]
    names = []
    for i, a in enumerate(args):
        for path, _ in jax.tree_util.tree_flatten_with_path(a)[0]:
            names.append(params[i] + jax.tree_util.keystr(path))
    return names


def result_names(out):
    return ["result" + jax.tree_util.keystr(p) for p, _ in jax.tree_util.tree_flatten_with_path(out)[0]]


def main_signature(text):
    """The argument locations and jax.result_info strings of @main."""
    m = re.search(r"func\.func public @main\((.*?)\) -> \((.*)\) \{\n", text)
    if not m:
        raise SystemExit("make_fixtures: no 'func.func public @main' in the lowered text")
    locs = re.findall(r'%arg\d+: [^%]*? loc\("((?:[^"\\]|\\.)*)"\)', m.group(1))
    if len(locs) != len(re.findall(r"%arg\d+: ", m.group(1))):
        raise SystemExit("make_fixtures: an argument of @main has no name location")
    results = re.findall(r'jax\.result_info = "((?:[^"\\]|\\.)*)"', m.group(2))
    return locs, results


def is_subsequence(short, long):
    it = iter(long)
    return all(any(s == x for x in it) for s in short)


def file_name(name):
    if "/" in name or name.startswith("."):
        raise SystemExit(f"make_fixtures: a path '{name}' cannot be a file name")
    return name + ".npy"


def sharding_repr(s):
    spec = getattr(s, "spec", None)
    return str(spec) if spec is not None else str(s)


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def save_npy(path, value):
    with open(path, "wb") as f:
        np.save(f, np.asarray(value), allow_pickle=False)


def lower(prog, shardy):
    jax.config.update("jax_use_shardy_partitioner", shardy)
    try:
        with jax.set_mesh(prog.mesh) if prog.set_mesh else contextlib.nullcontext():
            return _lower(prog)
    finally:
        jax.config.update("jax_use_shardy_partitioner", True)


def _lower(prog):
    jitted = jax.jit(prog.fn, in_shardings=prog.in_shardings, out_shardings=prog.out_shardings,
                     donate_argnums=prog.donate_argnums)
    lowered = jitted.lower(*prog.args)
    return jitted, lowered, lowered.compile()


def make(prog, out_root):
    d = os.path.join(out_root, prog.name)
    if os.path.exists(d):
        shutil.rmtree(d)
    os.makedirs(os.path.join(d, "inputs") if prog.run else d)  # lowered-only programs: no values
    os.makedirs(os.path.join(d, "outputs") if prog.run else d, exist_ok=True)

    jitted, lowered, compiled = lower(prog, shardy=True)
    text = lowered.as_text()
    loc_text = lowered.as_text(debug_info=True)
    ctext = compiled.as_text()
    write(os.path.join(d, "lowered.shardy.mlir"), text)
    write(os.path.join(d, "lowered.shardy.loc.mlir"), loc_text)
    write(os.path.join(d, "compiled.txt"), ctext)
    colls = hlo_collectives.parse(ctext)
    write(os.path.join(d, "collectives.json"), hlo_collectives.to_json(colls))

    with jax.set_mesh(prog.mesh) if prog.set_mesh else contextlib.nullcontext():
        outputs = program_outputs(prog, jitted, lowered, compiled, d)

    _, glowered, gcompiled = lower(prog, shardy=False)
    gtext = gcompiled.as_text()
    write(os.path.join(d, "lowered.gspmd.mlir"), glowered.as_text())
    write(os.path.join(d, "compiled.gspmd.txt"), gtext)
    gcolls = hlo_collectives.parse(gtext)
    write(os.path.join(d, "collectives.gspmd.json"), hlo_collectives.to_json(gcolls))

    anames = arg_names(prog.fn, prog.args)
    rnames = result_names(outputs)
    locs, infos = main_signature(loc_text)
    if not is_subsequence(locs, anames):
        raise SystemExit(f"make_fixtures: {prog.name}: JAX's argument names {locs} are not our {anames}")
    if infos != rnames:
        raise SystemExit(f"make_fixtures: {prog.name}: JAX's result names {infos} are not our {rnames}")

    in_sh = jax.tree_util.tree_leaves(compiled.input_shardings[0])
    out_sh = jax.tree_util.tree_leaves(compiled.output_shardings)
    leaves = jax.tree_util.tree_leaves(prog.args)
    arguments = []
    for name, leaf, sh in zip(anames, leaves, in_sh):
        a = np.asarray(leaf) if prog.run else leaf
        if prog.run: save_npy(os.path.join(d, "inputs", file_name(name)), a)  # noqa: E701
        arguments.append({"name": name, "shape": list(a.shape), "dtype": str(np.dtype(a.dtype)),
                          "sharding": sharding_repr(sh), "in_module": name in locs})
    results = []
    for name, leaf, sh in zip(rnames, jax.tree_util.tree_leaves(outputs), out_sh):
        a = np.asarray(leaf) if prog.run else leaf
        if prog.run: save_npy(os.path.join(d, "outputs", file_name(name)), a)  # noqa: E701
        results.append({"name": name, "shape": list(a.shape), "dtype": str(np.dtype(a.dtype)),
                        "sharding": sharding_repr(sh)})
    mesh = prog.mesh
    meta = {
        "program": prog.name,
        "description": prog.doc,
        "source": prog.source,
        "mesh": {"axis_names": list(mesh.axis_names), "shape": list(mesh.devices.shape),
                 "device_ids": np.vectorize(lambda dev: dev.id)(mesh.devices).tolist()},
        "arguments": arguments,
        "results": results,
        "collectives": hlo_collectives.summary(colls),
        "collectives_gspmd": hlo_collectives.summary(gcolls),
        "versions": versions(),
        "xla_flags": os.environ.get("XLA_FLAGS", ""),
        "command": COMMAND + " " + prog.name,
    }
    write(os.path.join(d, "meta.json"), json.dumps(meta, indent=1, sort_keys=True) + "\n")
    return meta


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT, help="output root (default tests/data/jax)")
    ap.add_argument("--list", action="store_true", help="list the programs and exit")
    ap.add_argument("programs", nargs="*", help="programs to write (default: all)")
    opts = ap.parse_args(argv)
    if len(jax.devices()) < 8:
        print(f"make_fixtures: need 8 devices, JAX has {len(jax.devices())} "
              "(set XLA_FLAGS=--xla_force_host_platform_device_count=8 before starting Python)",
              file=sys.stderr)
        return 2
    jax.config.update("jax_hlo_source_file_canonicalization_regex", CANONICAL_PATHS)
    devices = sorted(jax.devices(), key=lambda dev: dev.id)
    progs = [b(devices) for b in BUILDERS]
    if opts.list:
        for p in progs:
            print(f"{p.name}: {p.doc}")
        return 0
    names = {p.name for p in progs}
    for n in opts.programs:
        if n not in names:
            print(f"make_fixtures: unknown program '{n}' (--list shows them)", file=sys.stderr)
            return 2
    os.makedirs(opts.out, exist_ok=True)
    for p in progs:
        if opts.programs and p.name not in opts.programs:
            continue
        meta = make(p, opts.out)
        kinds = ", ".join(f"{k} x{v['count']}" for k, v in sorted(meta["collectives"]["by_kind"].items()))
        print(f"{p.name}: {kinds or 'no collectives'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
