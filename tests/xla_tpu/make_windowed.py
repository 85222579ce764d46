#!/usr/bin/env python3
"""When XLA's TPU compiler turns a dot into a windowed einsum (collective
matmul: a while loop of collective-permutes) and where its schedule puts the
output layer's weight gradient, probed with libtpu ahead of time on v5e
slices with a 2-axis mesh ('fsdp', 'tensor').  Writes
tests/data/xla_tpu/windowed.json: per probe XLA's memory analysis, every
while loop of the entry computation (windowed or not, its op_name, its tuple,
its trip count, its ring) and the schedule facts of the weight gradient.

    flock /tmp/libtpu.lock tests/xla_tpu/.venv/bin/python tests/xla_tpu/make_windowed.py [--out FILE] [--only NAME...]

The probe is the output layer of an LM: h [B,S,D] P('fsdp',None,'tensor')
(as MaxText's activations; 'hrep' probes: P('fsdp',None,None)), after a
scan of L elementwise layers, logits = h @ W with W [D,V] P('fsdp','tensor')
and logits constrained to P('fsdp',None,'tensor'), loss sum(logits^2) (the
brief's 'plain sum'), gradients w.r.t. (h0, scan weights, W) with the
arguments' shardings as out_shardings.  jax.grad gives three dots: fwd
(logits), dh (dlogits . W^T, the input of the backward scan) and dW
(dlogits^T . h, read only by the output).

Findings (libtpu 0.0.42.1, jax 0.10.2; evidence per probe in the JSON):
(a) WHEN.  A dot is windowed over ONE mesh axis of size n: the axis over
    which it would all-gather an operand (fwd: h over 'tensor', loop "_ag",
    h's chunks rotate) or reduce-scatter its result (dh: over 'tensor'; dW:
    over 'fsdp', loop "_rs", partial results rotate).  n = 2: never.  n = 4:
    windowed but unrolled (trip count 2: collective-permutes in the entry,
    no while).  n = 8, 16, 32: a while loop of trip count n/2 (two
    directions; n with xla_tpu_spmd_bidirectional_windowed_einsum=false).
    n = 64, 128: never (16x16 t4's and t2's fsdp, even at V=131072, B=1024
    or threshold 1).  Then a cost check (XLA's, compute vs communication):
    fwd is windowed iff the output's local width V/t >= ~640 (V 8192 no,
    10240 yes at t=8 and t=16; B=64 or D=256 do not move it at t=16; at
    n=4 it also needs the local batch b=B/fsdp >= 16: 16x16 t4 b=4 no,
    b=16 yes); dh likewise at B=256 but at B=64 from V=2048 on; dW (its
    compute/communication ~ B*S/fsdp, huge
    here) in every probe with 4 <= fsdp <= 32, except tiny sizes (S=32,
    D=32, V=128) and a 'data' axis (batch over data x fsdp: dW all-reduces
    over data, no windowing).  Inside loops alike: a scanned MLP's forward
    dots (width F/t = 256) are not windowed; its weight gradients in the
    backward loop are, for w1 [D,F] P('fsdp','tensor') ("_rs" over fsdp,
    op_name of the forward einsum), not for w2 [F,D]; lm_large_full's five
    loops in its backward body are likewise the weight gradients of
    wi_0/wi_1/q/k/v (accumulators [D/fsdp, F/t]), not rematerialised dots.
    xla_jf_spmd_threshold_for_windowed_einsum_mib: default -1 = no size
    gate (0, 1, 4, 8 give the default's HLO).  T > 0 adds a gate: the
    windowed operand (ag) or the result (rs), f32 bytes within its
    partition group, >= T MiB (16x16 t16: dW's result [1024,2048] f32 =
    8 MiB windowed up to T=8; at T=16..64 dW becomes an ag loop over
    'tensor' of h [16,1024,1024] f32 = 64 MiB, like fwd and dh; T=128:
    nothing).  It never lifts the other gates (T=1: 2x4, 16x16 t4, tiny,
    V=2048 fwd unchanged).  Works as compile(compiler_options={...}) and as
    LIBTPU_INIT_ARGS=--xla_jf_...=100000 (lm_large_full 16x16: no windowed
    loop, temp 465 MiB against 388 MiB windowed).
(b) WHERE.  dW runs after the backward scan's while when (1) it hosts an
    async collective fed by that loop (the collective's completion fused
    into the dW fusion/loop: tuple gains its buffers and an s32[2]); this
    holds windowed or not (thr100000, lm_16x16_t4, lmrec_large_2x4, and
    lm_large_full 16x16 itself: while.75 hosts the f32[16,1024,64] ->
    [16,1024,1024] all-gather after while.71, and with windowing off
    fusion.537 does the same); or (2) it reads a loop-invariant table
    (u32[#devices]) that the backward loop carries for its own windowed
    loops (mlp_scale; also while.75); or (3) fwd is windowed, so h is never
    gathered for fwd and dW gathers it itself, late (tanh, ew and all the
    V >= 10240 probes; exceptions, dW before: mlp, mlp_remat, lm_4x4_t4).
    When fwd is not windowed, dW shares fwd's gathered h and runs before
    the backward loop (every such probe without (1), tiny sizes aside).
(c) BUFFERS (16x16 t16, per device): fwd loop: two bf16 chunks of h
    [16,1024,1,64] (h is never gathered whole), W gathered over fsdp bf16
    [1024,2048], accumulator f32 [16,1024,2048] (the whole local logits).
    dh loop: dlogits bf16 [16,1024,2048] (local), W bf16 [1024,2048], two
    f32 accumulators [16,1024,64] (the result shard).  dW loop: h gathered
    over tensor bf16 [16,1024,1024] (whole: an entry all-gather), dlogits
    bf16 [16,1024,2048], two f32 accumulators [64,2048].  f32 operands are
    converted to bf16 before the loop (DEFAULT precision).  Temp 445 MiB
    windowed, 128 MiB with windowing off, 229 MiB one-directional.

Needs jax[tpu] (tests/xla_tpu/requirements.txt); run under
`flock /tmp/libtpu.lock` on a shared machine.
"""

import json
import os
import re
import sys

os.environ.setdefault("TPU_SKIP_MDS_QUERY", "1")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import probes  # noqa: E402

DEFAULT_OUT = os.path.normpath(os.path.join(HERE, "..", "data", "xla_tpu", "windowed.json"))
LM = dict(B=256, S=1024, D=1024, V=32768)  # lm_large_full's output layer
THRESHOLD = "xla_jf_spmd_threshold_for_windowed_einsum_mib"


def probe(name, topology, tensor, what, hrep=False, options=None, L=4, data=1, layers=None, F=4096, **sizes):
    dims = dict(LM, **sizes)
    return name, dict(topology=topology, tensor=tensor, data=data, what=what, hrep=hrep, layers=layers,
                      F=F, options=options or {}, L=L, **dims)


def case_list():
    """name -> probe description."""
    out = []
    for topo, t in (("v5e:2x4", 2), ("v5e:4x4", 2), ("v5e:4x4", 4), ("v5e:8x8", 4), ("v5e:8x8", 8),
                    ("v5e:8x8", 16), ("v5e:16x16", 4), ("v5e:16x16", 8), ("v5e:16x16", 16)):
        out.append(probe(f"lm_{topo[4:]}_t{t}", topo, t, "lm_large_full's output layer sizes"))
    # the meshes and sizes of the LM records (tests/xla_tpu/make_records.py LM_MESH)
    out.append(probe("lmrec_large_2x4", "v5e:2x4", 2, "lm_large on 2x4: data 2 fsdp 2 tensor 2", data=2, B=64))
    out.append(probe("lmrec_small_8x8", "v5e:8x8", 4, "lm (small) on 8x8: data 2 fsdp 8 tensor 4", data=2,
                     B=32, S=32, D=32, V=128))
    out.append(probe("lmrec_large_8x8", "v5e:8x8", 4, "lm_large sizes on 8x8: data 2 fsdp 8 tensor 4", data=2))
    out.append(probe("tiny_16x16_t16", "v5e:16x16", 16, "tiny sizes", B=256, S=32, D=32, V=128))
    for v in (2048, 4096, 8192, 10240, 12288, 14336, 16384):
        out.append(probe(f"v{v}_16x16_t16", "v5e:16x16", 16, "vocabulary varied", V=v))
    for v in (8192, 16384):
        out.append(probe(f"d256_v{v}_16x16_t16", "v5e:16x16", 16, "embedding and vocabulary varied", D=256, V=v))
        out.append(probe(f"b64_v{v}_16x16_t16", "v5e:16x16", 16, "batch and vocabulary varied", B=64, V=v))
    for d in (256, 4096):
        out.append(probe(f"d{d}_16x16_t16", "v5e:16x16", 16, "embedding varied", D=d))
    for b in (64, 1024):
        out.append(probe(f"b{b}_16x16_t16", "v5e:16x16", 16, "batch varied", B=b))
    for v in (8192, 10240, 12288, 16384, 65536, 131072):
        out.append(probe(f"v{v}_8x8_t8", "v5e:8x8", 8, "vocabulary varied", V=v))
    for v in (8192, 10240, 12288, 16384, 65536):
        out.append(probe(f"v{v}_16x16_t8", "v5e:16x16", 8, "vocabulary varied", V=v))
    for v in (2048, 4096):
        out.append(probe(f"b64_v{v}_16x16_t16", "v5e:16x16", 16, "batch and vocabulary varied", B=64, V=v))
    out.append(probe("v131072_16x16_t4", "v5e:16x16", 4, "vocabulary varied (fsdp 64)", V=131072))
    out.append(probe("b1024_16x16_t4", "v5e:16x16", 4, "batch varied (fsdp 64)", B=1024))
    out.append(probe("b1024_16x16_t2", "v5e:16x16", 2, "batch varied (fsdp 128)", B=1024))
    out.append(probe("b1024_8x8_t4", "v5e:8x8", 4, "batch varied", B=1024))
    out.append(probe("v262144_4x4_t4", "v5e:4x4", 4, "vocabulary varied (rings of 4)", V=262144, B=64))
    out.append(probe("hrep_16x16_t16", "v5e:16x16", 16, "h P('fsdp',None,None)", hrep=True))
    out.append(probe("hrep_8x8_t8", "v5e:8x8", 8, "h P('fsdp',None,None)", hrep=True))
    for mib in (0, 1, 4, 8, 16, 32, 64, 128, 100000):
        out.append(probe(f"thr{mib}_16x16_t16", "v5e:16x16", 16, f"{THRESHOLD}={mib}",
                         options={THRESHOLD: mib}))
    for mib in (0, 1, 128):
        out.append(probe(f"thr{mib}_2x4_t2", "v5e:2x4", 2, f"{THRESHOLD}={mib}", options={THRESHOLD: mib}))
    for topo, t in (("v5e:4x4", 4), ("v5e:16x16", 4)):
        out.append(probe(f"thr1_{topo[4:]}_t{t}", topo, t, f"{THRESHOLD}=1", options={THRESHOLD: 1}))
    out.append(probe("thr1_tiny_16x16_t16", "v5e:16x16", 16, f"tiny sizes, {THRESHOLD}=1",
                     options={THRESHOLD: 1}, S=32, D=32, V=128))
    out.append(probe("thr1_v2048_16x16_t16", "v5e:16x16", 16, f"{THRESHOLD}=1", options={THRESHOLD: 1}, V=2048))
    for flag in ("xla_tpu_enable_windowed_einsum_for_all_gather",
                 "xla_tpu_enable_windowed_einsum_for_reduce_scatter",
                 "xla_tpu_choose_faster_windowed_einsum_over_mem",
                 "xla_tpu_spmd_bidirectional_windowed_einsum"):
        out.append(probe(f"no_{flag[8:]}_16x16_t16", "v5e:16x16", 16, f"{flag}=false",
                         options={flag: False}))
    out.append(probe("skipusers_8x8_t4", "v5e:8x8", 4, "xla_tpu_skip_checking_windowed_einsum_users=true",
                     options={"xla_tpu_skip_checking_windowed_einsum_users": True}))
    for topo, t in (("v5e:16x16", 16), ("v5e:8x8", 8)):
        for layers in ("mlp", "mlp_remat", "mlp_scale", "tanh"):
            out.append(probe(f"{layers}_{topo[4:]}_t{t}", topo, t, f"scanned layers: {layers}", layers=layers))
    return dict(out)


def program(jax, jnp, P, c):
    """(fn, [(shape, dtype, spec)]) of a probe: the gradient of the output
    layer after a scan of elementwise layers."""
    f32 = jnp.float32
    B, S, D, V, L = c["B"], c["S"], c["D"], c["V"], c["L"]
    batch = ("data", "fsdp") if c["data"] > 1 else "fsdp"
    hspec = P(batch, None, None) if c["hrep"] else P(batch, None, "tensor")

    def layer(h, ws):  # an MLP: h + tanh(h w1) w2, w1 [D,F] P('fsdp','tensor'), w2 [F,D] P('tensor','fsdp')
        w1, w2 = ws
        a = jax.lax.with_sharding_constraint(jnp.tanh(jnp.einsum("bsd,df->bsf", h, w1)), P(batch, None, "tensor"))
        return jax.lax.with_sharding_constraint(h + jnp.einsum("bsf,fd->bsd", a, w2), P(batch, None, "tensor")), None

    def scaled_layer(h, ws):  # the MLP with a replicated scale [D] a layer (its gradient all-reduced)
        h, _ = layer(h, ws[:2])
        return h * ws[2], None

    def loss(h, ws, w):
        def step(h, s):
            return jnp.tanh(h * s), None
        step = {None: step, "mlp": layer, "mlp_remat": jax.checkpoint(layer), "mlp_scale": scaled_layer,
                "tanh": lambda h, s: (jnp.tanh(h), None)}[c["layers"]]
        h, _ = jax.lax.scan(step, h, ws)
        logits = jnp.einsum("bsd,dv->bsv", h, w)
        logits = jax.lax.with_sharding_constraint(logits, P(batch, None, "tensor"))
        return jnp.sum(logits ** 2)

    ws = ((L, D), f32, P())
    if c["layers"] and c["layers"].startswith("mlp"):
        F = c["F"]
        ws = (((L, D, F), f32, P(None, "fsdp", "tensor")), ((L, F, D), f32, P(None, "tensor", "fsdp")))
        if c["layers"] == "mlp_scale":
            ws += (((L, D), f32, P()),)
    args = [((B, S, D), f32, hspec), ws, ((D, V), f32, P("fsdp", "tensor"))]
    return jax.grad(loss, argnums=(0, 1, 2)), args


# --- the compiled HLO text: its entry computation as a list of instructions

def _balanced(s, i):
    """Index just past the parenthesis group opening at s[i]."""
    depth = 0
    for k in range(i, len(s)):
        depth += {"(": 1, ")": -1}.get(s[k], 0)
        if depth == 0:
            return k + 1
    return len(s)


def parse_entry(text):
    """[{name, shape, opcode, operands, attrs, op_name}] of ENTRY, in schedule order."""
    start = text.index("\nENTRY")
    body = text[text.index("{\n", start) + 2:]
    body = body[:body.index("\n}\n")]
    out = []
    for line in body.split("\n"):
        m = re.match(r"\s*(?:ROOT )?%([\w.\-]+) = ", line)
        if not m:
            continue
        rest = line[m.end():]
        if rest.startswith("("):
            e = _balanced(rest, 0)
            shape, rest = rest[:e], rest[e + 1:]
        else:
            shape, rest = rest.split(" ", 1)
        op = re.match(r"([\w\-]+)\(", rest)
        e = _balanced(rest, op.end() - 1)
        on = re.search(r'op_name="([^"]*)"', rest)
        out.append({"name": m.group(1), "shape": shape, "opcode": op.group(1),
                    "operands": re.findall(r"%([\w.\-]+)", rest[op.end():e - 1]),
                    "attrs": rest[e:], "op_name": on.group(1) if on else ""})
    return out


def computation(text, name):
    """The text of computation `name`."""
    m = re.search(r"\n%" + re.escape(name) + r" [^\n]*\{\n", text)
    return text[m.end():text.index("\n}\n", m.end())] if m else ""


def tuple_shapes(shape):
    """'dtype[dims]' of each element of a (tuple) shape, layouts dropped."""
    return re.findall(r"([a-z]+\d*\[[\d,]*\])", shape)


def ring_size(pairs):
    """Length of the cycle through device 0 of source_target_pairs text."""
    nxt = dict((int(a), int(b)) for a, b in re.findall(r"\{(\d+),(\d+)\}", pairs))
    k, n = nxt.get(0), 1
    while k is not None and k != 0 and n <= len(nxt):
        k, n = nxt.get(k), n + 1
    return n


def loop_facts(text, ins):
    """A while loop of the entry: windowed?, op_name, tuple (scalars
    dropped), trip count (its condition's constant), its collective-permutes
    and their ring size."""
    cond = re.search(r"condition=%([\w.\-]+)", ins["attrs"]).group(1)
    body = re.search(r"body=%([\w.\-]+)", ins["attrs"]).group(1)
    windowed = "windowed_dot_general" in cond
    trip = re.search(r" constant\((\d+)\)", computation(text, cond))
    pairs = re.findall(r"source_target_pairs=\{((?:\{\d+,\d+\},?)*)\}", computation(text, body))
    inner = re.findall(r"condition=%[\w.\-]*windowed_dot_general_cond[^\n]*?op_name=\"([^\"]*)\"",
                       computation(text, body))
    return {"name": ins["name"], "windowed": windowed, "windowed_loops_in_body": inner,
            "kind": ("ag" if "_ag" in cond else "rs") if windowed else None, "op_name": ins["op_name"],
            "tuple": [x for x in tuple_shapes(ins["shape"]) if "[]" not in x and not x.startswith("u32")],
            "trip_count": int(trip.group(1)) if trip and windowed else None,
            "collective_permutes": len(pairs), "ring": sorted({ring_size(x) for x in pairs})}


OUTPUT_LAYER = "bsd,dv->bsv"
PASS = ("get-tuple-element", "bitcast", "copy", "copy-start", "copy-done", "tuple", "custom-call", "slice-start",
        "slice-done", "slice", "reshape", "transpose")
COMPUTE = ("while", "fusion", "convolution", "dot")


def roles_of(entry):
    """name -> 'fwd' | 'dh' | 'dW' for the entry ops of the output layer's
    dots (by op_name).  dW's are the transposed ops that reach the program's
    last output (dW) through only pass-through ops, collectives or each
    other (up to the first loop); the other transposed ops are dh's."""
    by = {ins["name"]: ins for ins in entry}
    root = entry[-1]
    roles = {}
    for ins in entry:
        if OUTPUT_LAYER in ins["op_name"] and "dot_general" in ins["op_name"]:
            roles[ins["name"]] = "dh" if "transpose(" in ins["op_name"] else "fwd"
    todo, seen = [root["operands"][-1]], set()
    while todo:
        n = todo.pop()
        if n in seen or n not in by:
            continue
        seen.add(n)
        ins = by[n]
        if roles.get(n) == "dh":
            roles[n] = "dW"
            if ins["opcode"] == "while":  # a windowed loop is the whole dot (and passes dh's operands on)
                continue
        elif ins["opcode"] not in PASS and not (ins["opcode"].startswith("all-") or "reduce-scatter" in ins["opcode"]):
            continue
        todo.extend(ins["operands"])
    return roles


def schedule_facts(entry, roles):
    """Where each dot's first compute op (a windowed loop, a fusion or a
    convolution) sits in the entry schedule relative to the backward scan's
    while, whether any of its ops depends on that while, and the async
    collectives (their -start ops) it takes as operands: XLA overlaps a
    collective with a dot by fusing its completion into the dot (or its
    loop), which makes the dot wait for that collective's input."""
    pos = {ins["name"]: k for k, ins in enumerate(entry)}
    by = {ins["name"]: ins for ins in entry}
    bwd = [ins["name"] for ins in entry if ins["opcode"] == "while" and "transpose(jvp())/while" in ins["op_name"]]
    if not bwd:
        return {}
    below, todo = set(), [bwd[0]]  # everything the backward scan's while reaches forward
    users = {}
    for ins in entry:
        for o in ins["operands"]:
            users.setdefault(o, []).append(ins["name"])
    while todo:
        n = todo.pop()
        if n not in below:
            below.add(n)
            todo.extend(users.get(n, []))
    out = {"backward_scan": bwd[0], "backward_scan_position": pos[bwd[0]], "entry_ops": len(entry)}
    for role in ("fwd", "dh", "dW"):
        ops = [n for n, r in roles.items() if r == role]
        comp = [n for n in ops if by[n]["opcode"] in COMPUTE]
        if not comp:
            continue
        first = min(comp, key=pos.get)
        ops = [x for o in by[first]["operands"]
               for x in (by[o]["operands"] if by.get(o, {}).get("opcode") == "tuple" else [o])]
        srcs = [by[o]["operands"][0] if by.get(o, {}).get("opcode") == "get-tuple-element" else o for o in ops]
        hosts = sorted({n for n in srcs if n in by and ("async-collective" in n or by[n]["opcode"].endswith("-start"))})
        via = sorted({by[o]["shape"].split("{")[0] for o in ops if o in below})
        out[role] = {"first": first, "opcode": by[first]["opcode"], "position": pos[first],
                     "hosts_async_collectives": hosts, "operands_from_backward_scan": via,
                     "after_backward_scan": pos[first] > pos[bwd[0]],
                     "depends_on_backward_scan": any(n in below for n in comp)}
    return out


def compile_one(jax, jnp, P, name, c):
    from jax.sharding import NamedSharding
    t = c["tensor"]
    axes = {"data": c["data"], "fsdp": -1, "tensor": t} if c["data"] > 1 else {"fsdp": -1, "tensor": t}
    mesh = probes.topology_mesh(c["topology"], axes)
    fn, args = program(jax, jnp, P, c)

    def leaf(a, f):  # an argument is (shape, dtype, spec) or a tuple of them
        return tuple(leaf(x, f) for x in a) if isinstance(a[0], tuple) and isinstance(a[0][0], tuple) else f(*a)
    abstract = [leaf(a, lambda s, d, sp: jax.ShapeDtypeStruct(s, d, sharding=NamedSharding(mesh, sp))) for a in args]
    outs = tuple(leaf(a, lambda s, d, sp: NamedSharding(mesh, sp)) for a in args)
    flat = [x for a in args for x in (a if isinstance(a[0], tuple) and isinstance(a[0][0], tuple) else [a])]
    with jax.set_mesh(mesh):
        lowered = jax.jit(fn, out_shardings=outs).lower(*abstract)
    compiled = lowered.compile(compiler_options=c["options"]) if c["options"] else lowered.compile()
    text = compiled.as_text()
    if os.environ.get("WINDOWED_DUMP"):  # a directory for the compiled texts, to read by hand
        with open(os.path.join(os.environ["WINDOWED_DUMP"], name + ".txt"), "w", encoding="utf-8") as f:
            f.write(text)
    entry = parse_entry(text)
    loops = [loop_facts(text, ins) for ins in entry if ins["opcode"] == "while"]
    mem = probes.memory_of(compiled)
    roles = roles_of(entry)
    for lp in loops:
        lp["dot"] = roles.get(lp["name"])
    permutes = {}  # the dots' collective-permutes in the entry: an unrolled windowed einsum's, or a loop's epilogue
    for ins in entry:
        if roles.get(ins["name"]) and ins["opcode"] in ("collective-permute", "collective-permute-start"):
            pairs = re.search(r"source_target_pairs=\{((?:\{\d+,\d+\},?)*)\}", ins["attrs"]).group(1)
            p = permutes.setdefault(roles[ins["name"]], {"count": 0, "ring": []})
            p["count"] += 1
            p["ring"] = sorted(set(p["ring"]) | {ring_size(pairs)})
    windowed = {}
    for role in ("fwd", "dh", "dW"):
        if any(lp["windowed"] and lp["dot"] == role for lp in loops):
            windowed[role] = "loop"
        elif role in permutes:
            windowed[role] = "unrolled"
        else:
            windowed[role] = None
    entry_gathers = [ins["shape"].split("{")[0] for ins in entry
                     if ins["opcode"] in ("all-gather", "all-gather-start") and "bsd,dv->bsv" in ins["op_name"]]
    rec = {"case": name, **{k: c[k] for k in ("what", "topology", "B", "S", "D", "V", "L", "hrep", "layers", "F", "options")},
           "mesh": {k: int(v) for k, v in mesh.shape.items()},
           "arguments": probes.arguments(flat, jnp), "memory": mem,
           "windowed": windowed, "entry_permutes": permutes, "loops": loops, "schedule": schedule_facts(entry, roles),
           "entry_all_gathers_of_output_layer": entry_gathers}
    w = rec["windowed"]
    s = rec["schedule"].get("dW", {})
    rings = {k: v["ring"] for k, v in permutes.items()}
    print(f"{name}: mesh {rec['mesh']} windowed fwd={w['fwd']} dh={w['dh']} dW={w['dW']} "
          f"rings {rings} dW_after_scan={s.get('after_backward_scan')} dep={s.get('depends_on_backward_scan')} "
          f"temp={mem['temp_size_in_bytes'] / 2**20:.1f}MiB", flush=True)
    return rec


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--only", nargs="*", default=None)
    opts = ap.parse_args(argv)
    import jax
    import jax.numpy as jnp
    from jax.sharding import PartitionSpec as P
    cases = case_list()
    out = [compile_one(jax, jnp, P, n, c) for n, c in cases.items() if not opts.only or n in opts.only]
    with open(opts.out, "w", encoding="utf-8") as f:  # a case a line
        head = json.dumps({"command": "flock /tmp/libtpu.lock tests/xla_tpu/.venv/bin/python "
                           "tests/xla_tpu/make_windowed.py", "jax": jax.__version__})
        f.write(head[:-1] + ', "cases": [\n' + ",\n".join(json.dumps(c) for c in out) + "\n]}\n")
    print(f"make_windowed: {len(out)} cases -> {opts.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
