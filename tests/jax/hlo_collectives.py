"""Read the collectives out of XLA's compiled HLO text
(`jax.jit(f).lower(...).compile().as_text()`).  Python 3 standard library
only, so its unit tests run without JAX.

    python3 tests/jax/hlo_collectives.py compiled.txt      # JSON to stdout

For every all-reduce, all-gather, reduce-scatter, all-to-all,
collective-permute (and collective-broadcast, ragged-all-to-all), in their
synchronous form or as the -start of an async pair (the -done is not
counted again; its result shape is the collective's result), parse() gives
a dict with:

  name, kind (the opcode without -start), async, computation, line
  operands / result   [{name, type, element_type, shape, bytes}]
  operand_bytes, result_bytes
  replica_groups      the groups as lists of device ids, whatever the
                      spelling: {{0,1},{2,3}}, the iota form
                      [2,4]<=[4,2]T(1,0), or the mesh-axes form
                      mesh['a'=2,'b'=4] {'b'} (sub-axes 'b':(1)2);
                      [] when the text says {} (one group of every device)
  replica_groups_text, replica_groups_form (list, iota, mesh, empty)
  source_target_pairs [[source, target], ...] (collective-permute)
  channel_id, dimensions, use_global_device_ids, reduction (the opcode of
  the to_apply computation's root: add, maximum, ...), op_name
  runs                (per_execution only) how many times one execution
                      of the module runs it:
                      the product of the trip counts of the while loops
                      whose bodies (or conditions) hold it, through
                      fusions, calls and async computations (runs());
                      runs_known is false when a loop's trip count could
                      not be read (that loop then counts once)
  chain_clones        (per_execution only) XLA TPU's async collective
                      fusion clones one collective into every fusion of
                      its chain (the start and each continuation, one
                      channel_id, frontend_attributes chain_id): it is
                      listed once, with the number of clones
  hlo_kind            (per_execution only) the opcode as written, where
                      kind differs from it:
                      an all-reduce whose computation's root is a
                      dynamic-slice of it (XLA TPU's all-reduce-scatter
                      fusion) is a reduce-scatter; its result is the slice

The formats are XLA's: replica groups in xla/hlo/ir/replica_group.{h,cc}
and mesh_and_axis.cc (openxla/xla), shapes in xla/shape_util.cc.
"""

import json
import re
import sys

KINDS = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all", "collective-permute",
         "collective-broadcast", "ragged-all-to-all")

# Bits per element of XLA's primitive types (xla/primitive_util.h).
ELEMENT_BITS = {
    "pred": 8, "s1": 1, "u1": 1, "s2": 2, "u2": 2, "s4": 4, "u4": 4, "s8": 8, "u8": 8,
    "s16": 16, "u16": 16, "s32": 32, "u32": 32, "s64": 64, "u64": 64,
    "f16": 16, "bf16": 16, "f32": 32, "f64": 64, "c64": 64, "c128": 128,
    "f4e2m1fn": 4, "f8e3m4": 8, "f8e4m3": 8, "f8e4m3fn": 8, "f8e4m3b11fnuz": 8, "f8e4m3fnuz": 8,
    "f8e5m2": 8, "f8e5m2fnuz": 8, "f8e8m0fnu": 8, "token": 0, "opaque": 0,
}


class HloParseError(ValueError):
    """A line of HLO text this reader cannot make sense of (message names it)."""


def _matching(text, start, open_ch, close_ch):
    """Index just past the bracket matching text[start] (== open_ch)."""
    depth = 0
    for i in range(start, len(text)):
        c = text[i]
        if c == open_ch:
            depth += 1
        elif c == close_ch:
            depth -= 1
            if depth == 0:
                return i + 1
    raise HloParseError(f"unbalanced '{open_ch}' in: {text[start:start + 80]}")


def parse_shape(text):
    """'f32[4,8]{1,0}' or a tuple '(f32[], (s32[2]))' -> list of arrays
    {type, element_type, shape, bytes} in order (tuples flattened)."""
    out = []
    for m in re.finditer(r"\b([a-z][a-z0-9]*)\[([^\]]*)\]", text):
        et, dims = m.group(1), m.group(2)
        if et not in ELEMENT_BITS:
            raise HloParseError(f"unknown element type '{et}' in '{text}'")
        shape = [int(d.lstrip("<=")) for d in dims.split(",")] if dims.strip() else []
        n = 1
        for d in shape:
            n *= d
        out.append({"type": f"{et}[{dims}]", "element_type": et, "shape": shape,
                    "bytes": (n * ELEMENT_BITS[et] + 7) // 8})
    return out


def _ints(text):
    return [int(x) for x in re.findall(r"-?\d+", text)]


def _list_of_lists(text):
    """'{{0,1},{2,3}}' -> [[0,1],[2,3]]; '{}' -> []."""
    inner = text.strip()[1:-1]
    return [_ints(g) for g in re.findall(r"\{([^{}]*)\}", inner)]


def _transpose_flat(values, dims, perm):
    """Row-major `values` of shape `dims`, transposed by `perm`, flattened."""
    strides = [1] * len(dims)
    for i in range(len(dims) - 2, -1, -1):
        strides[i] = strides[i + 1] * dims[i + 1]
    out_dims = [dims[p] for p in perm]
    total = 1
    for d in dims:
        total *= d
    out = []
    idx = [0] * len(dims)
    for _ in range(total):
        out.append(values[sum(idx[j] * strides[perm[j]] for j in range(len(perm)))])
        for j in range(len(out_dims) - 1, -1, -1):
            idx[j] += 1
            if idx[j] < out_dims[j]:
                break
            idx[j] = 0
    return out


def _chunks(values, size):
    return [values[i:i + size] for i in range(0, len(values), size)]


IOTA_RE = re.compile(r"\[(\d+),(\d+)\]<=\[([\d,]+)\](?:T\(([\d,]+)\))?")


def iota_groups(text):
    """'[G,S]<=[d0,...]T(p...)': iota over prod(d), reshaped to d, transposed
    by p, read as G groups of S devices."""
    m = IOTA_RE.fullmatch(text.strip())
    if not m:
        raise HloParseError(f"bad iota replica groups '{text}'")
    g, s = int(m.group(1)), int(m.group(2))
    dims = _ints(m.group(3))
    perm = _ints(m.group(4)) if m.group(4) else list(range(len(dims)))
    total = 1
    for d in dims:
        total *= d
    if total != g * s or sorted(perm) != list(range(len(dims))):
        raise HloParseError(f"iota replica groups '{text}': sizes or permutation do not fit")
    return _chunks(_transpose_flat(list(range(total)), dims, perm), s)


MESH_RE = re.compile(r"mesh\[([^\]]*)\](?:,? ?device_ids=\(((?:[^()]|\([^()]*\))*)\))?\s*"
                     r"\{([^}]*)\}")


def _device_ids(text):
    """A mesh's device_ids=(...): a list '0,4,1,5' or the iota spelling
    '[d0,...]T(p...)' (iota over prod(d), reshaped to d, transposed by p,
    flattened; as XLA prints an IotaTileAssignment's reshape and
    transpose, xla/hlo/ir/tile_assignment.cc)."""
    m = re.fullmatch(r"\s*\[([\d,]+)\](?:T\(([\d,]+)\))?\s*", text)
    if not m:
        return _ints(text)
    dims = _ints(m.group(1))
    perm = _ints(m.group(2)) if m.group(2) else list(range(len(dims)))
    if sorted(perm) != list(range(len(dims))):
        raise HloParseError(f"device_ids '{text}': bad permutation")
    total = 1
    for d in dims:
        total *= d
    return _transpose_flat(list(range(total)), dims, perm)


def mesh_groups(text):
    """"mesh['a'=2,'b'=4] {'b'}": one group per index of the axes not
    listed, each group the devices along the listed axes in the order
    listed; 'b':(p)s is the sub-axis of size s with pre-size p (the
    factor of b's index of stride b/(p*s))."""
    m = MESH_RE.fullmatch(text.strip())
    if not m:
        raise HloParseError(f"bad mesh-axes replica groups '{text}'")
    axes = []
    for a in m.group(1).split(","):
        am = re.fullmatch(r"\s*'?([^'=]+)'?=(\d+)\s*", a)
        if not am:
            raise HloParseError(f"bad mesh axis '{a}' in '{text}'")
        axes.append((am.group(1), int(am.group(2))))
    names = [a[0] for a in axes]
    total = 1
    for _, n in axes:
        total *= n
    devices = _device_ids(m.group(2)) if m.group(2) else list(range(total))
    if len(devices) != total:
        raise HloParseError(f"'{text}': {len(devices)} device ids for {total} devices")
    refs = []  # (axis index, pre_size, size) in the order listed
    for r in [r for r in m.group(3).split(",") if r.strip()]:
        rm = re.fullmatch(r"\s*'?([^':]+)'?(?::\((\d+)\)(\d+))?\s*", r)
        if not rm or rm.group(1) not in names:
            raise HloParseError(f"bad axis reference '{r}' in '{text}'")
        i = names.index(rm.group(1))
        if rm.group(2):
            refs.append((i, int(rm.group(2)), int(rm.group(3))))
        else:
            refs.append((i, 1, axes[i][1]))
    # Split each mesh axis into the factors its references name (major to
    # minor: pre-sizes ascending are the major factors first... i.e. the
    # sub-axis of pre-size p and size s covers index // (n/(p*s)) % s).
    dims = []        # reindexed sizes, row-major
    ref_dim = {}     # position in refs -> index in dims
    for i, (_, n) in enumerate(axes):
        mine = sorted((k for k, r in enumerate(refs) if r[0] == i), key=lambda k: refs[k][1])
        done = 1
        for k in mine:
            pre, size = refs[k][1], refs[k][2]
            if pre % done or n % (pre * size):
                raise HloParseError(f"'{text}': sub-axes of '{names[i]}' overlap or do not divide it")
            if pre != done:
                dims.append(pre // done)
            ref_dim[k] = len(dims)
            dims.append(size)
            done = pre * size
        if done != n or not mine:
            dims.append(n // done)
    grouped = [ref_dim[k] for k in range(len(refs))]
    perm = [d for d in range(len(dims)) if d not in grouped] + grouped
    size = 1
    for k in grouped:
        size *= dims[k]
    return _chunks(_transpose_flat(devices, dims, perm), size)


def parse_replica_groups(text):
    """(groups, form) of a replica_groups= value in any of XLA's spellings."""
    t = text.strip()
    if t.startswith("mesh"):
        return mesh_groups(t), "mesh"
    if t.startswith("["):
        return iota_groups(t), "iota"
    if t.startswith("{"):
        groups = _list_of_lists(t)
        return groups, ("list" if groups else "empty")
    raise HloParseError(f"unknown replica_groups spelling '{text}'")


def _attr_value(attrs, key):
    """The text of `key=VALUE` in an instruction's attribute tail, or None."""
    m = re.search(r"(?:^|[\s,])" + re.escape(key) + r"=", attrs)
    if not m:
        return None
    i = m.end()
    if attrs.startswith("mesh", i):
        mm = MESH_RE.match(attrs, i)
        if not mm:
            raise HloParseError(f"bad {key} in: {attrs[i:i + 80]}")
        return mm.group(0)
    if attrs[i] == "{":
        return attrs[i:_matching(attrs, i, "{", "}")]
    if attrs[i] == "[":
        mm = IOTA_RE.match(attrs, i)
        if mm:
            return mm.group(0)
        return attrs[i:_matching(attrs, i, "[", "]")]
    if attrs[i] == '"':
        j = attrs.index('"', i + 1)
        return attrs[i + 1:j]
    m2 = re.compile(r"[^,\s]+").match(attrs, i)
    return m2.group(0)


INSTR_RE = re.compile(r"\s*(ROOT\s+)?%?([\w.\-]+)\s*=\s*")
COMP_RE = re.compile(r"(ENTRY\s+)?%?([\w.\-]+)\s*\(.*\)\s*->\s*.*\{\s*$")


def _instructions(text):
    """(computation, entry, line number, name, type, opcode, operands, attrs, root)."""
    comp, entry = None, False
    for no, line in enumerate(text.split("\n"), 1):
        if line[:1] not in ("", " ", "\t") and line.rstrip().endswith("{"):
            cm = COMP_RE.match(line)
            if cm:  # a computation's header: not indented, ends with '{'
                comp, entry = cm.group(2), bool(cm.group(1))
                continue
        if line.strip() == "}":
            comp = None
            continue
        m = INSTR_RE.match(line)
        if comp is None or not m:
            continue
        i = m.end()
        if line[i] == "(":
            j = _matching(line, i, "(", ")")
        else:
            j = line.index(" ", i)
        typ = line[i:j]
        om = re.compile(r"\s*([\w\-]+)\(").match(line, j)
        if not om:
            raise HloParseError(f"line {no}: no opcode in: {line.strip()[:100]}")
        k = _matching(line, om.end() - 1, "(", ")")
        operands = []
        args = re.sub(r"/\*.*?\*/", "", line[om.end():k - 1])  # /*index=5*/
        for part in re.split(r",\s*(?![^{(\[]*[})\]])", args):
            part = part.strip()
            if part:
                operands.append(part.split()[-1].lstrip("%"))
        yield comp, entry, no, m.group(2), typ, om.group(1), operands, line[k:], bool(m.group(1))


CALLEE_KEYS = ("calls", "to_apply", "body", "condition", "branch_computations",
               "true_computation", "false_computation")


def _constant_int(name, by_name, depth=0):
    """The integer a scalar constant holds, following copies and bitcasts."""
    ins = by_name.get(name)
    if ins is None or depth > 16:
        return None
    opcode, operands, attrs = ins[5], ins[6], ins[7]
    if opcode == "constant":
        m = re.fullmatch(r"\s*(-?\d+)\s*", operands[0] if operands else "")
        return int(m.group(1)) if m else None
    if opcode in ("copy", "bitcast", "convert", "copy-done") and operands:
        return _constant_int(operands[0], by_name, depth + 1)
    return None


def _trip_count(while_ins, by_name, roots_of):
    """A while loop's trip count when its form shows it: the condition's
    root compares tuple element k of its parameter with a constant N by LT
    (or LE: N + 1), and the init tuple's element k is a constant S: N - S.
    None otherwise."""
    cond = (_attr_value(while_ins[7], "condition") or "").lstrip("%")
    root = roots_of.get(cond)
    if root is None or root[5] != "compare" or len(root[6]) != 2:
        return None
    direction = _attr_value(root[7], "direction")
    a, b = root[6]
    gte, bound = by_name.get(a), _constant_int(b, by_name)
    if gte is None or gte[5] != "get-tuple-element" or bound is None or direction not in ("LT", "LE"):
        return None
    index = int(_attr_value(gte[7], "index") or -1)
    init = by_name.get(while_ins[6][0]) if while_ins[6] else None
    if init is None or init[5] != "tuple" or not 0 <= index < len(init[6]):
        return None
    start = _constant_int(init[6][index], by_name)
    if start is None:
        return None
    return max(0, bound - start + (1 if direction == "LE" else 0))


def runs(text, instrs=None):
    """({computation: times one execution of the module runs it}, {computation:
    False where a loop on the way had no readable trip count}). The entry
    runs once; a callee runs as often as its callers, a while body trip
    times per run of the while, its condition trip + 1 times, a
    conditional's branches at most once each (counted once)."""
    instrs = instrs if instrs is not None else list(_instructions(text))
    by_name = {ins[3]: ins for ins in instrs}
    roots_of = {ins[0]: ins for ins in instrs if ins[8]}
    order = []
    for ins in instrs:
        if not order or order[-1] != ins[0]:
            order.append(ins[0])
    count = {c: 0 for c in order}
    known = {c: True for c in order}
    for ins in instrs:
        if ins[1]:
            count[ins[0]] = 1
    # HLO text defines a computation before any computation calling it, so
    # walking the computations from the last (the entry) back visits every
    # caller before its callees.
    by_comp = {}
    for ins in instrs:
        by_comp.setdefault(ins[0], []).append(ins)
    for comp in reversed(order):
        n, ok = count[comp], known[comp]
        if n == 0:
            continue
        for ins in by_comp[comp]:
            trip = _trip_count(ins, by_name, roots_of) if ins[5] == "while" else None
            for key in CALLEE_KEYS:
                v = _attr_value(ins[7], key)
                if v is None:
                    continue
                for callee in re.findall(r"%?([\w.\-]+)", v.strip("{}")):
                    if callee not in count:
                        continue
                    if ins[5] == "while" and key in ("body", "condition"):
                        t = 1 if trip is None else trip + (1 if key == "condition" else 0)
                        count[callee] += n * t
                        known[callee] = known[callee] and ok and trip is not None
                    else:
                        count[callee] += n
                        known[callee] = known[callee] and ok
    return count, known


def parse(text, per_execution=False):
    """Every collective of an HLO module's text, in text order. With
    per_execution, each also says how many times an execution runs it
    (runs, runs_known) and a fused all-reduce-scatter is the reduce-scatter
    it is (kind, hlo_kind): what one step moves, not what the text lists."""
    instrs = list(_instructions(text))
    comp_runs, comp_known = runs(text, instrs) if per_execution else ({}, {})
    types = {ins[3]: ins[4] for ins in instrs}
    roots = {ins[0]: ins for ins in instrs if ins[8]}
    done_of = {}
    for ins in instrs:
        if ins[5].endswith("-done") and ins[6]:
            done_of[ins[6][0]] = ins
    out = []
    chains = {}  # (channel_id, chain_id) -> the chain's collective
    for comp, entry, no, name, typ, opcode, operands, attrs, _ in instrs:
        kind = opcode[:-len("-start")] if opcode.endswith("-start") else opcode
        if kind not in KINDS:
            continue
        is_async = opcode.endswith("-start")
        ops = []
        for o in operands:
            if o not in types:
                raise HloParseError(f"line {no}: operand '{o}' of {name} is not defined")
            for arr in parse_shape(types[o]):
                ops.append(dict(arr, name=o))
        result_type = typ
        if is_async:
            done = done_of.get(name)
            if done is None:
                raise HloParseError(f"line {no}: {opcode} {name} has no matching -done")
            result_type = done[4]
        hlo_kind = None
        root = roots.get(comp)
        if per_execution and kind == "all-reduce" and root is not None and root[5] == "dynamic-slice" \
                and root[6] and root[6][0] == name:
            hlo_kind, kind, result_type = kind, "reduce-scatter", root[4]
        res = parse_shape(result_type)
        c = {"name": name, "kind": kind, "async": is_async, "computation": comp, "entry": entry,
             "line": no, "operands": ops, "result": res,
             "operand_bytes": sum(a["bytes"] for a in ops), "result_bytes": sum(a["bytes"] for a in res),
             }
        if per_execution:
            c["runs"], c["runs_known"] = comp_runs.get(comp, 1), comp_known.get(comp, True)
        if hlo_kind:
            c["hlo_kind"] = hlo_kind
        rg = _attr_value(attrs, "replica_groups")
        if rg is not None:
            c["replica_groups"], c["replica_groups_form"] = parse_replica_groups(rg)
            c["replica_groups_text"] = rg
        stp = _attr_value(attrs, "source_target_pairs")
        if stp is not None:
            c["source_target_pairs"] = _list_of_lists(stp)
        for key in ("channel_id",):
            v = _attr_value(attrs, key)
            if v is not None:
                c[key] = int(v)
        dims = _attr_value(attrs, "dimensions")
        if dims is not None:
            c["dimensions"] = _ints(dims)
        c["use_global_device_ids"] = _attr_value(attrs, "use_global_device_ids") == "true"
        to_apply = _attr_value(attrs, "to_apply")
        if to_apply is not None:
            r = roots.get(to_apply.lstrip("%"))
            c["reduction"] = r[5] if r else None
        meta = _attr_value(attrs, "metadata")
        if meta is not None:
            om = re.search(r'op_name="((?:[^"\\]|\\.)*)"', meta)
            if om:
                c["op_name"] = om.group(1)
        chain = re.search(r'chain_id="(\d+)"', _attr_value(attrs, "frontend_attributes") or "")
        if per_execution and chain and "channel_id" in c:
            # XLA TPU's async collective fusion: one collective, cloned into
            # the start fusion and each continuation fusion of its chain
            # (AsyncCollectiveStart ... AsyncCollectiveDone), every clone
            # with the collective's channel_id: it runs once.
            key = (c["channel_id"], chain.group(1))
            first = chains.get(key)
            if first is not None:
                first["chain_clones"] += 1
                continue
            c["chain_clones"] = 1
            chains[key] = c
        out.append(c)
    return out


def summary(collectives):
    """{count, by_kind: {kind: {count, buffers, operand_bytes, result_bytes}}}:
    count is instructions, buffers their operands (XLA's combiners merge
    several collectives into one instruction of several operands)."""
    by = {}
    for c in collectives:
        k = by.setdefault(c["kind"], {"count": 0, "buffers": 0, "operand_bytes": 0, "result_bytes": 0})
        k["count"] += 1
        k["buffers"] += len(c["operands"])
        k["operand_bytes"] += c["operand_bytes"]
        k["result_bytes"] += c["result_bytes"]
    return {"count": len(collectives), "by_kind": by}


def to_json(collectives):
    return json.dumps({"collectives": collectives, "summary": summary(collectives)},
                      indent=1, sort_keys=True) + "\n"


def main(argv):
    if len(argv) != 2:
        print("usage: hlo_collectives.py COMPILED_HLO_TEXT", file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            text = f.read()
        sys.stdout.write(to_json(parse(text)))
    except OSError as e:
        print(f"hlo_collectives: {argv[1]}: {e.strerror}", file=sys.stderr)
        return 2
    except HloParseError as e:
        print(f"hlo_collectives: {argv[1]}: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
