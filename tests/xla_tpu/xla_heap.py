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
written in bf16); and, from the sibling *live-range.txt, the most heap bytes occupied at
once (the union of the byte ranges of the values alive at each
instruction: values of one buffer count once) by the scan stacks (A: the
buffers of AllocateBuffer custom-calls), by the other values (N) and by
all, each maximised over the schedule on its own, with
temp_size_in_bytes against 2 x heap - max(A, N) (the heap's
fragmentation counted twice), and the heap the same arrays need when
placed in schedule order or largest first (sim/spmd/xla_heap.c's rule);
and, for programs with while loops, 2 x heap - X with X the largest over
the schedule of the more occupied of two classes of the heap's values
alive at an instruction, the loop state (the dump's "(phi)" values and
the body values written into their buffers) and the rest: it is
temp_size_in_bytes within 1 MiB on the eight dumps read (the LARGE LM's
dots and noremat on v5e 2x4, dots and full on v5e 16x16, full on v5p
2x2x2, make_loop_heap.py's three probes), and without loops it is the
max-live form above. A measuring aid, not a test.

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


def value_name(name):
    """A value's name as the live-range dump spells it: the buffer
    assignment writes an array result `fusion.15` and a tuple element
    `fusion.15{1}`, the live ranges `fusion.15{}` and `fusion.15{1}`."""
    return name if "{" in name else name + "{}"


def heap(path):
    """(heap bytes, {offset: [(value, size, shape)]}) of the dump's HBM
    temporary allocation, or (0, {}) when it has none; values named as
    value_name spells them."""
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
                slots[int(m.group(3))].append((value_name(m.group(1)), int(m.group(2)), m.group(4)))
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
    beside buffer-assignment dump path ({} without it), names as
    value_name spells them."""
    lr = re.sub(r"-buffer-assignment\.txt$", "-live-range.txt", path)
    spans = {}
    try:
        with open(lr, encoding="utf-8") as f:
            for line in f:
                m = re.match(r"\s+(\S+?\{.*?\}):(\d+)-(\d+)$", line)
                if m:
                    spans[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    except OSError:
        pass
    return spans


def scan_stacks(path, slots):
    """{(offset, size)} of the heap's scan stacks: the buffers of the
    AllocateBuffer custom-calls in the optimized HLO beside path (a scan's
    stacked outputs, written in place by the loop), with every value XLA
    keeps in the same buffer (the loop's carry of it)."""
    hlo = re.sub(r"-buffer-assignment\.txt$", ".txt", path)
    try:
        with open(hlo, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return set()
    made = set(re.findall(r'%(custom-call[.0-9]*) = \S+ custom-call\(\), custom_call_target="AllocateBuffer"',
                          text))
    return {(o, size) for o, vs in slots.items() for name, size, _ in vs if name.split("{")[0] in made}


def occupied(values):
    """(bytes, instruction) of the most heap bytes occupied at once by
    values [(offset, size, (first, last))]: at every instruction, the union
    of the byte ranges of the values alive (values of one buffer share its
    bytes, so a plain sum would count them twice)."""
    best, at = 0, None
    for t in sorted({a for _, _, (a, _) in values}):
        ranges = sorted((o, o + s) for o, s, (a, b) in values if a <= t <= b)
        used, lo, hi = 0, None, None
        for x, y in ranges:
            if hi is None or x > hi:
                used += 0 if hi is None else hi - lo
                lo, hi = x, y
            else:
                hi = max(hi, y)
        used += 0 if hi is None else hi - lo
        if used > best:
            best, at = used, t
    return best, at


def loop_state(path):
    """{value name} of the heap's loop state: the values the dump marks
    "(phi)" (a while loop's tuple elements, from the loop to their last
    use) and the values of a loop body written into one of their buffers
    (the same offset and size: a scan's stack updated in place), a body
    being any computation of the optimized HLO beside path but the ENTRY."""
    phi, chunk_of = set(), {}
    cur = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"allocation (\d+): size (\d+), (.*)", line)
            if m:
                cur = m.group(3).startswith("preallocated-temp") and "color" not in m.group(3)
                continue
            m = re.match(r" value: <\d+ (\S+?)( \(phi\))? @\d+> \(size=(\d+),offset=(\d+)\)", line)
            if m and cur:
                name = value_name(m.group(1))
                chunk_of[name] = (int(m.group(4)), int(m.group(3)))
                if m.group(2):
                    phi.add(name)
    in_entry, entry = set(), False
    try:
        with open(re.sub(r"-buffer-assignment\.txt$", ".txt", path), encoding="utf-8") as f:
            for line in f:
                m = re.match(r"^(ENTRY )?%\S+ \(", line)
                if m:
                    entry = bool(m.group(1))
                    continue
                m = re.match(r"^\s+(?:ROOT )?%(\S+) = ", line)
                if m and entry:
                    in_entry.add(m.group(1))
    except OSError:
        return phi
    chunks = {chunk_of[n] for n in phi}
    return phi | {n for n, c in chunk_of.items() if c in chunks and n.split("{")[0] not in in_entry}


def loop_state_max(path, slots):
    """(bytes, instruction): the largest, over the schedule, of the more
    occupied of the two classes of the heap's values alive at an
    instruction: the loop state (loop_state) and the rest. XLA's reported
    temp with while loops is 2 x heap - this (eight dumps, within 1 MiB)."""
    spans, state = live_ranges(path), loop_state(path)
    values = [(o, size, spans[name], name in state)
              for o, vs in slots.items() for name, size, _ in vs if name in spans]
    best, at = 0, None
    for t in sorted({a for _, _, (a, _), _ in values}):
        for cls in (True, False):
            used, _ = occupied([(o, s, (a, b)) for o, s, (a, b), st in values
                                if st == cls and a <= t <= b])
            if used > best:
                best, at = used, t
    return best, at


def heap_values(path, slots):
    """[(offset, size, (first, last), scan stack?)] of the heap's values
    with a live range in the live-range dump, and how many have none."""
    spans, stacks = live_ranges(path), scan_stacks(path, slots)
    values = [(o, size, spans[name], (o, size) in stacks)
              for o, vs in slots.items() for name, size, _ in vs if name in spans]
    return values, sum(len(vs) for vs in slots.values()) - len(values)


def max_live(values):
    """(A, N, all): the most bytes occupied at once by the heap's scan
    stacks, by its other values, and by all of them, each (bytes,
    instruction) maximised over the whole schedule on its own."""
    pick = lambda f: occupied([(o, s, r) for o, s, r, stack in values if f(stack)])
    return pick(lambda st: st), pick(lambda st: not st), pick(lambda st: True)


def buffers(values):
    """[(size, [(first, last)], key)]: the heap's values grouped into the
    buffers XLA placed (one offset and size, live ranges that overlap: a
    value written in place over another, a loop's carry)."""
    out = []
    by = collections.defaultdict(list)
    for o, size, r, _ in values:
        by[(o, size)].append(r)
    for (o, size), ranges in sorted(by.items()):
        cur = None
        for a, b in sorted(ranges):
            if cur is not None and a <= cur[3]:
                cur[1].append((a, b))
                cur[3] = max(cur[3], b)
            else:
                cur = [size, [(a, b)], (a, o), b]
                out.append(cur)
    return [(size, ranges, key) for size, ranges, key, _ in out]


def place(bufs, order, small=SMALL):
    """The heap's size when buffers (buffers()) larger than `small` bytes
    are placed in `order` ("start": by first instruction, larger first
    among equals; "size": larger first, longer-lived first among equals),
    each at the start of the smallest gap that stays free over all its
    live ranges and holds it (the lowest among equals), else on top; the
    values of `small` bytes or less (pointer tuples, scalars) are not
    placed (XLA gives each a slot of its own above the arrays)."""
    def key(b):
        size, ranges, k = b
        first, last = min(a for a, _ in ranges), max(b for _, b in ranges)
        return (first, -size, k) if order == "start" else (-size, first - last, k)
    placed, top = [], 0
    for size, ranges, _ in sorted((b for b in bufs if b[0] > small), key=key):
        used = sorted((lo, hi) for lo, hi, (a, b) in placed
                      if any(not (b < x or a > y) for x, y in ranges))
        gaps, free_from = [], 0
        for lo, hi in used:
            if lo - free_from >= size:
                gaps.append((lo - free_from, free_from))
            free_from = max(free_from, hi)
        offset = min(gaps)[1] if gaps else free_from
        placed += [(offset, offset + size, r) for r in ranges]
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
        ds = any(re.match(r"dynamic-slice(\.\d+)?\{\}$", v[0]) for vs in slots.values() for v in vs)
        print(f"heap + (slots + 1) * (alignment {a} - 512) = {size + (len(slots) + 1) * (a - 512)} B; "
              f"a dynamic-slice among the heap's values: {'yes' if ds else 'no'}")
    values, missing = heap_values(found[0], slots)
    if values:
        (a, ta), (n, tn), (live, at) = max_live(values)
        print(f"largest sum of the heap's values alive at once (live-range dump; occupied bytes, "
              f"values of one buffer once): {live} B at instruction {at}; scan stacks (A) {a} B at "
              f"{ta}, the other values (N) {n} B at {tn}" +
              (f"; {missing} values without a live range" if missing else ""))
        print(f"the heap's fragmentation {size - live} B; temp_size_in_bytes - heap {temp - size} B; "
              f"2 heap - max(A, N) = {2 * size - max(a, n)} B, temp_size_in_bytes - that "
              f"{temp - (2 * size - max(a, n))} B")
        x, tx = loop_state_max(found[0], slots)
        print(f"with while loops: 2 heap - max over instructions of max(loop state, rest) = "
              f"{2 * size - x} B (at {tx}: {x} B), temp_size_in_bytes - that {temp - (2 * size - x)} B")
        bufs = buffers(values)
        small = len({o for o, s, _, _ in values if s <= SMALL})
        for order in ("start", "size"):
            p = place(bufs, order)
            print(f"its arrays placed in {order} order: {p} B ({p - size:+d} B against the heap, "
                  f"{small} slots of values <= {SMALL} B beside them, below or above)")
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
