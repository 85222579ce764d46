#!/usr/bin/env python3
"""What XLA's TPU temporary heap holds: a summary of a buffer-assignment dump.

    XLA_FLAGS=--xla_dump_to=DIR tests/xla_tpu/.venv/bin/python \\
        tests/xla_tpu/make_records.py --out /tmp/rec --only lm_full@v5e:2x4
    python3 tests/xla_tpu/xla_heap.py DIR /tmp/rec/lm_full/v5e_2x4/record.json

reads DIR's *jit_train_step*after_optimizations-buffer-assignment.txt (the
step's TPU module), finds the HBM temporary heap (the preallocated-temp
allocation of memory space 0; spaces 1 and up are on chip, SMEM, host) and
prints its size, its slots (distinct offsets), how many hold only small
values (at most 512 B: tuples of pointers, scalars) and of which
instructions, the bytes of the larger ones, and the record's
temp_size_in_bytes beside them, with temp / slots (the README's "What XLA's
temporaries are in the SMALL rows"); then the on-chip allocation (memory
space S(1), color 1): its size and the values XLA computes into it (not its
prefetches, copy-start), and the temporaries XLA holds in the program's
output allocations ("maybe-live-out") before the outputs are written, which
no temp_size_in_bytes counts; and, from the module's optimized HLO (the
sibling *after_optimizations.txt), the values XLA's rematerialization
recomputed (instructions named *.remat, with what they are computed from)
and the all-reduces whose result is narrower than their operand (an f32 sum
written in bf16); and the largest sum of the heap's values alive at once
(the sibling *live-range.txt), so that the heap's fragmentation shows,
beside the heap a best-fit placement of the same values, largest first,
would need. A measuring aid, not a test.

The heap + (slots + 1) * (alignment - 512) line is the rule
tests/data/xla_tpu/temp_slots.json measures (make_temp_slots.py): it is
temp_size_in_bytes exactly on v5e when a dynamic-slice is among the heap's
values (temp is 0 otherwise, heap or no heap), within 0.5-3.5 % on v5p's
LM records; on v5p the MLP's heap is counted 0 as well, with no
dynamic-slice deciding it (what does is not known).
"""

import collections
import glob
import json
import re
import sys

SMALL = 512


def heap(path):
    """(heap bytes, {offset: [(instruction, size, shape)]}) of the dump's
    HBM temporary allocation, or (0, {}) when it has none."""
    cur, size, slots = None, 0, collections.defaultdict(list)
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"allocation (\d+): size (\d+), (.*)", line)
            if m:
                cur = m.group(3).startswith("preallocated-temp") and "color" not in m.group(3)
                if cur:
                    size = int(m.group(2))
                continue
            m = re.match(r" value: <\d+ (\S+?)(?: \(phi\))? @\d+> \(size=(\d+),offset=(\d+)\): (.*)", line)
            if m and cur:
                slots[int(m.group(3))].append((m.group(1), int(m.group(2)), m.group(4)))
    return size, slots


def reuse(path):
    """(on-chip bytes, [(instruction, size)] computed on chip, [(instruction,
    size)] temporaries in output allocations) of the dump."""
    kind, first, onchip_size = None, False, 0
    onchip, in_outputs = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"allocation (\d+): size (\d+), (.*)", line)
            if m:
                rest = m.group(3)
                kind = ("onchip" if "color 1," in rest else
                        "output" if rest.startswith("maybe-live-out") else None)
                if kind == "onchip":
                    onchip_size = int(m.group(2))
                first = True
                continue
            m = re.match(r" value: <\d+ (\S+?)(?: \(phi\))? @\d+> \(size=(\d+),", line)
            if not m or not kind:
                continue
            name, size = m.group(1), int(m.group(2))
            if kind == "onchip" and not name.startswith("copy-start"):
                onchip.append((name, size))
            elif kind == "output":
                # an output allocation's values in program order: the last is the output
                in_outputs.append((name, size, first))
            first = False
    # drop each allocation's last value (the output itself)
    temps = [(n, sz) for (n, sz, _), nxt in zip(in_outputs, in_outputs[1:] + [(None, 0, True)])
             if not nxt[2]]
    return onchip_size, onchip, temps


def alignment(path):
    """The HBM alignment XLA used for the dump's module (its flagfile's
    --xla_jf_program_hbm_alignment_in_kib), in bytes; 16 KiB if absent."""
    flags = re.sub(r"\.after_optimizations-buffer-assignment\.txt$", ".flagfile", path)
    try:
        with open(flags, encoding="utf-8") as f:
            m = re.search(r"--xla_jf_program_hbm_alignment_in_kib=(\d+)", f.read())
    except OSError:
        m = None
    return (int(m.group(1)) if m else 16) * 1024


def live_ranges(path):
    """{value name: (first, last instruction)} from the live-range dump
    beside buffer-assignment dump path ({} without it)."""
    lr = re.sub(r"-buffer-assignment\.txt$", "-live-range.txt", path)
    spans = {}
    try:
        with open(lr, encoding="utf-8") as f:
            for line in f:
                m = re.match(r"\s+(\S+?)\{(.*?)\}:(\d+)-(\d+)$", line)
                if m:
                    key = m.group(1) + ("{" + m.group(2) + "}" if m.group(2) else "")
                    spans[key] = (int(m.group(3)), int(m.group(4)))
    except OSError:
        pass
    return spans


def max_live(path, slots):
    """(bytes, instruction index) of the largest sum of the heap's values
    alive at once, from the live-range dump beside path (each value's
    first-last instruction of XLA's schedule): the heap without its
    fragmentation. (None, None) without that dump."""
    spans = live_ranges(path)
    if not spans:
        return None, None
    delta = collections.Counter()
    for vs in slots.values():
        for name, size, _ in vs:
            if name in spans:
                a, b = spans[name]
                delta[a] += size
                delta[b + 1] -= size
    best, at, live = 0, None, 0
    for t in sorted(delta):
        live += delta[t]
        if live > best:
            best, at = live, t
    return best, at


def best_fit(path, slots):
    """The heap's size when its values (each with its live range) are
    placed largest first, each at the smallest free gap that holds it
    among the values placed that overlap it in time (else on top): a
    model of XLA's heap placement to compare with the dump's heap."""
    spans = live_ranges(path)
    placed, top = [], 0
    items = sorted(((size, spans[name]) for vs in slots.values() for name, size, _ in vs
                    if name in spans), key=lambda t: (-t[0], t[1][0]))
    for size, (a, b) in items:
        busy = sorted((o, o + s) for o, s, (x, y) in placed if not (y < a or x > b))
        gaps, cur = [], 0
        for lo, hi in busy:
            if lo > cur:
                gaps.append((cur, lo - cur))
            cur = max(cur, hi)
        fits = [g for g in gaps if g[1] >= size]
        offset = min(fits, key=lambda g: g[1])[0] if fits else cur
        placed.append((offset, size, (a, b)))
        top = max(top, offset + size)
    return top


def rewrites(path):
    """([(name, shape, operands)] recomputed by XLA's rematerialization,
    [(name, operand shape, result shape)] all-reduces written narrower than
    their operand) of the optimized HLO beside buffer-assignment dump path."""
    hlo = re.sub(r"-buffer-assignment\.txt$", ".txt", path)
    shapes, remat, narrowed = {}, [], []
    try:
        f = open(hlo, encoding="utf-8")
    except OSError:
        return [], []
    with f:
        for line in f:
            m = re.match(r"\s*(?:ROOT )?%(\S+) = (\w+\[[\d,]*\])\S* (\S+?)\((.*?)\)", line)
            if not m:
                continue
            name, shape, op, args = m.groups()
            shapes[name] = shape
            operands = re.findall(r"%([\w.\-]+)", args)
            if name.endswith(".remat"):
                remat.append((name, shape, operands))
            if op == "all-reduce" and len(operands) == 1 and operands[0] in shapes and \
                    shapes[operands[0]].split("[")[0] != shape.split("[")[0]:
                narrowed.append((name, shapes[operands[0]], shape))
    return remat, narrowed


def main(argv):
    if len(argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    found = (glob.glob(f"{argv[1]}/*jit_train_step*after_optimizations-buffer-assignment.txt")
             or glob.glob(f"{argv[1]}/*jit_step*after_optimizations-buffer-assignment.txt"))
    if not found:
        print(f"xla_heap: no *jit_train_step*after_optimizations-buffer-assignment.txt in {argv[1]}",
              file=sys.stderr)
        return 2
    with open(argv[2], encoding="utf-8") as f:
        temp = json.load(f)["memory_analysis"]["temp_size_in_bytes"]
    size, slots = heap(found[0])
    small = {o: vs for o, vs in slots.items() if max(v[1] for v in vs) <= SMALL}
    kinds = collections.Counter(re.sub(r"[.\d]*(\{.*\})?$", "", vs[0][0]) for vs in small.values())
    big = sum(max(v[1] for v in vs) for o, vs in slots.items() if o not in small)
    print(f"HBM temporary heap {size} B in {len(slots)} slots: {len(small)} of small values "
          f"(<= {SMALL} B), the others' largest values {big} B")
    print(f"temp_size_in_bytes {temp} B" + (f" = {temp / len(slots):.1f} B per slot" if slots else ""))
    if slots:
        a = alignment(found[0])
        ds = any(re.match(r"dynamic-slice(\.\d+)?$", v[0]) for vs in slots.values() for v in vs)
        print(f"heap + (slots + 1) * (alignment {a} - 512) = {size + (len(slots) + 1) * (a - 512)} B; "
              f"a dynamic-slice among the heap's values: {'yes' if ds else 'no'}")
    live, at = max_live(found[0], slots)
    if live is not None:
        print(f"largest sum of the heap's values alive at once (live-range dump): {live} B at "
              f"instruction {at}; the heap's fragmentation {size - live} B; temp_size_in_bytes - heap "
              f"{temp - size} B")
        print(f"the same values placed best-fit, largest first: a heap of {best_fit(found[0], slots)} B")
    for k, n in kinds.most_common():
        print(f"  {n:4d}  {k}")
    onchip_size, onchip, temps = reuse(found[0])
    big = sorted(onchip, key=lambda v: -v[1])[:5]
    print(f"on-chip allocation (S(1)) {onchip_size} B; {len(onchip)} values computed there, "
          f"the largest: " + ", ".join(f"{n} {sz} B" for n, sz in big))
    print(f"temporaries in output allocations before the outputs: {len(temps)} values, "
          f"{sum(sz for _, sz in temps)} B in all, the largest {max((sz for _, sz in temps), default=0)} B")
    remat, narrowed = rewrites(found[0])
    print(f"rematerialised: {len(remat)} values" + "".join(
        f"\n  {n} {sh} from {', '.join(ops)}" for n, sh, ops in remat))
    print(f"all-reduces written narrower than their operand: {len(narrowed)}" + "".join(
        f"\n  {n}: {a} -> {b}" for n, a, b in narrowed))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
