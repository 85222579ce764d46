"""The twelve reference scenarios of docs/gspmd.md section 7 written in JAX,
for make_fixtures.py.

Each builder takes the list of the 8 CPU devices and returns a Program:
the function, its example arguments (numpy arrays from a seeded generator)
and the in/out shardings handed to jax.jit.  Shapes are the scenarios' own;
meshes are the scenarios' own (a 4-device scenario uses devices 0..3).
"""

import numpy as np
import jax
import jax.numpy as jnp
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

from program import Program, rand


def mesh_of(devices, shape, names):
    n = int(np.prod(shape))
    return Mesh(np.array(devices[:n]).reshape(shape), names)


def ns(mesh, *spec):
    return NamedSharding(mesh, P(*spec))


def s1(devices):
    mesh = mesh_of(devices, (4,), ("x",))

    def f(x, b):
        y = jnp.exp(x) * 2 + 1 + b[None, :]
        return jnp.sum(y, axis=0), jnp.sum(y, axis=1)

    rng = np.random.default_rng(1)
    args = (rand(rng, (16, 32)), rand(rng, (32,)))
    return Program("s1_pointwise_reduce", "S1: y = exp(x)*2 + 1 + b; r0 = sum(y, 0), r1 = sum(y, 1)",
                   mesh, f, args, (ns(mesh, "x", None), ns(mesh)),
                   (ns(mesh), ns(mesh, "x")))


def _mlp_loss(x, w1, w2):
    return jnp.sum(jax.nn.relu(x @ w1) @ w2)


def s2(devices):
    mesh = mesh_of(devices, (4,), ("d",))

    def f(x, w1, w2):
        loss, (dw1, dw2) = jax.value_and_grad(_mlp_loss, argnums=(1, 2))(x, w1, w2)
        return loss, dw1, dw2

    rng = np.random.default_rng(2)
    args = (rand(rng, (32, 64)), rand(rng, (64, 128), 0.1), rand(rng, (128, 64), 0.1))
    return Program("s2_dp_mlp", "S2: data-parallel 2-layer MLP, loss = sum(relu(x@W1)@W2) and its weight gradients",
                   mesh, f, args, (ns(mesh, "d", None), ns(mesh), ns(mesh)),
                   (ns(mesh), ns(mesh), ns(mesh)))


def s3(devices):
    mesh = mesh_of(devices, (4,), ("m",))

    def fwd(x, w1, w2):
        return jax.nn.gelu(x @ w1) @ w2

    def f(x, w1, w2, dy):
        y, vjp = jax.vjp(fwd, x, w1, w2)
        dx, dw1, dw2 = vjp(dy)
        return y, dx, dw1, dw2

    rng = np.random.default_rng(3)
    args = (rand(rng, (32, 64)), rand(rng, (64, 256), 0.1), rand(rng, (256, 64), 0.1),
            rand(rng, (32, 64)))
    return Program("s3_megatron_mlp", "S3: Megatron column+row MLP y = gelu(x@W1)@W2, forward and vjp(dy)",
                   mesh, f, args,
                   (ns(mesh), ns(mesh, None, "m"), ns(mesh, "m", None), ns(mesh)),
                   (ns(mesh), ns(mesh), ns(mesh, None, "m"), ns(mesh, "m", None)))


def s4(devices):
    mesh = mesh_of(devices, (4,), ("m",))

    def layernorm(x):
        mu = jnp.mean(x, axis=-1, keepdims=True)
        var = jnp.mean((x - mu) ** 2, axis=-1, keepdims=True)
        return (x - mu) * jax.lax.rsqrt(var + 1e-5)

    def fwd(x, w1, w2):
        h = jax.nn.gelu(layernorm(x) @ w1)
        h = jax.lax.with_sharding_constraint(h, ns(mesh, None, "m"))
        y = h @ w2
        return jax.lax.with_sharding_constraint(y, ns(mesh, "m", None))

    def f(x, w1, w2, dy):
        y, vjp = jax.vjp(fwd, x, w1, w2)
        dx, dw1, dw2 = vjp(dy)
        return y, dx, dw1, dw2

    rng = np.random.default_rng(4)
    args = (rand(rng, (32, 64)), rand(rng, (64, 256), 0.1), rand(rng, (256, 64), 0.1),
            rand(rng, (32, 64)))
    return Program("s4_megatron_sp", "S4: S3 with sequence parallelism (x, y sharded on tokens; layer norm first)",
                   mesh, f, args,
                   (ns(mesh, "m", None), ns(mesh, None, "m"), ns(mesh, "m", None), ns(mesh, "m", None)),
                   (ns(mesh, "m", None), ns(mesh, "m", None), ns(mesh, None, "m"), ns(mesh, "m", None)))


S5_BATCH, S5_DEPTH, S5_LAYERS = 8, 32, 4  # the guide's DEPTH is 1024


def s5(devices):
    mesh = mesh_of(devices, (2, 4), ("data", "model"))

    def fwd(ws, x):
        for w1, w2 in ws:
            y = jax.nn.relu(x @ w1)
            y = jax.lax.with_sharding_constraint(y, ns(mesh, "data", "model"))
            x = jax.lax.with_sharding_constraint(y @ w2, ns(mesh, "data", None))
        return x

    def f(ws, x):
        return jax.grad(lambda w: jnp.sum(fwd(w, x)))(ws)

    rng = np.random.default_rng(5)
    d = S5_DEPTH
    ws = [(rand(rng, (d, d), d ** -0.5), rand(rng, (d, d), d ** -0.5)) for _ in range(S5_LAYERS)]
    wsh = [(ns(mesh, None, "model"), ns(mesh, "model", None)) for _ in range(S5_LAYERS)]
    return Program("s5_dotreludot_2d",
                   f"S5: the Flax guide's DotReluDot x{S5_LAYERS} as plain JAX on data x model, "
                   f"gradients of sum(z) (DEPTH {S5_DEPTH}, the guide's is 1024)",
                   mesh, f, (ws, rand(rng, (S5_BATCH, d))), (wsh, ns(mesh, "data", None)), wsh)


def s6(devices):
    mesh = mesh_of(devices, (4,), ("d",))

    def f(x, w1, w2):
        loss, (dw1, dw2) = jax.value_and_grad(_mlp_loss, argnums=(1, 2))(x, w1, w2)
        return loss, dw1, dw2

    rng = np.random.default_rng(6)
    args = (rand(rng, (512, 64)), rand(rng, (64, 128), 0.1), rand(rng, (128, 64), 0.1))
    return Program("s6_fsdp_mlp", "S6: FSDP/ZeRO-3 MLP, parameters and their gradients sharded on dim 0",
                   mesh, f, args, (ns(mesh, "d", None), ns(mesh, "d", None), ns(mesh, "d", None)),
                   (ns(mesh), ns(mesh, "d", None), ns(mesh, "d", None)))


def _attention(x, wq, wk, wv, wo):
    q = jnp.einsum("bsD,Dhd->bshd", x, wq)
    k = jnp.einsum("bsD,Dhd->bshd", x, wk)
    v = jnp.einsum("bsD,Dhd->bshd", x, wv)
    s = jnp.einsum("bqhd,bkhd->bhqk", q, k) / np.sqrt(np.float32(q.shape[-1]))
    p = jax.nn.softmax(s, axis=-1)
    o = jnp.einsum("bhqk,bkhd->bqhd", p, v)
    return jnp.einsum("bqhd,hdD->bqD", o, wo)


def s7(devices):
    mesh = mesh_of(devices, (4,), ("m",))

    def f(x, wq, wk, wv, wo, dy):
        y, vjp = jax.vjp(_attention, x, wq, wk, wv, wo)
        return (y,) + vjp(dy)

    rng = np.random.default_rng(7)
    w = lambda: rand(rng, (64, 8, 8), 0.125)
    args = (rand(rng, (2, 16, 64)), w(), w(), w(), rand(rng, (8, 8, 64), 0.125),
            rand(rng, (2, 16, 64)))
    hs = ns(mesh, None, "m", None)
    return Program("s7_attention_heads", "S7: attention with heads sharded, forward and vjp(dy)",
                   mesh, f, args, (ns(mesh), hs, hs, hs, ns(mesh, "m", None, None), ns(mesh)),
                   (ns(mesh), ns(mesh), hs, hs, hs, ns(mesh, "m", None, None)))


def s8(devices):
    mesh = mesh_of(devices, (4,), ("sp",))

    def f(q, k, v):
        s = jnp.einsum("bqhd,bkhd->bhqk", q, k) / np.float32(4.0)
        p = jax.nn.softmax(s, axis=-1)
        return jnp.einsum("bhqk,bkhd->bqhd", p, v)

    rng = np.random.default_rng(8)
    args = tuple(rand(rng, (1, 64, 2, 16)) for _ in range(3))
    sq = ns(mesh, None, "sp", None, None)
    return Program("s8_attention_seq", "S8: attention with the sequence sharded (q, k, v and o on 'sp')",
                   mesh, f, args, (sq, sq, sq), sq)


def s9(devices):
    mesh = mesh_of(devices, (4,), ("e",))

    def fwd(x, m, win, wout):
        d = jnp.einsum("gsec,gsd->egcd", m, x)
        d = jax.lax.with_sharding_constraint(d, ns(mesh, "e", None, None, None))
        h = jax.nn.relu(jnp.einsum("egcd,edh->egch", d, win))
        o = jnp.einsum("egch,ehd->egcd", h, wout)
        o = jax.lax.with_sharding_constraint(o, ns(mesh, None, "e", None, None))
        return jnp.einsum("gsec,egcd->gsd", m, o)

    def f(x, m, win, wout, dy):
        y, vjp = jax.vjp(fwd, x, m, win, wout)
        dx, _, dwin, dwout = vjp(dy)
        return y, dx, dwin, dwout

    rng = np.random.default_rng(9)
    mask = (rng.random((4, 16, 4, 8)) < 0.1).astype(np.float32)
    args = (rand(rng, (4, 16, 32)), mask, rand(rng, (4, 32, 64), 0.2), rand(rng, (4, 64, 32), 0.2),
            rand(rng, (4, 16, 32)))
    s0 = lambda r: ns(mesh, "e", *([None] * (r - 1)))
    return Program("s9_moe_a2a", "S9: MoE expert parallelism, dispatch/combine einsums, forward and vjp(dy)",
                   mesh, f, args, (s0(3), s0(4), s0(3), s0(3), s0(3)),
                   (s0(3), s0(3), s0(3), s0(3)))


S10_STAGES, S10_MICRO = 4, 4


def s10(devices):
    mesh = mesh_of(devices, (S10_STAGES,), ("pp",))
    ticks = S10_MICRO + S10_STAGES - 1

    def stage(w, xs):
        # Per device: w [1,64,64] (its stage), xs [M,8,64] (every microbatch).
        i = jax.lax.axis_index("pp")
        state = jnp.zeros(xs.shape[1:], xs.dtype)
        outs = []
        for t in range(ticks):
            if t < S10_MICRO:
                state = jnp.where(i == 0, xs[t], state)
            state = jnp.tanh(state @ w[0])
            if t >= S10_STAGES - 1:
                outs.append(state)  # valid on the last stage only
            state = jax.lax.ppermute(state, "pp", [(j, (j + 1) % S10_STAGES) for j in range(S10_STAGES)])
        return jnp.stack(outs)[None]

    f = jax.shard_map(stage, mesh=mesh, in_specs=(P("pp"), P()), out_specs=P("pp"))
    rng = np.random.default_rng(10)
    args = (rand(rng, (S10_STAGES, 64, 64), 0.125), rand(rng, (S10_MICRO, 8, 64)))
    return Program("s10_pipeline_ppermute",
                   "S10: GPipe forward over 4 stages in shard_map, 7 ticks of tanh(state@W) then ppermute; "
                   "result[s] is stage s's outputs (the last stage's are the pipeline's)",
                   mesh, f, args, (ns(mesh, "pp"), ns(mesh)), ns(mesh, "pp"))


def s11a(devices):
    mesh = mesh_of(devices, (4,), ("m",))
    rng = np.random.default_rng(11)
    args = (rand(rng, (64, 128)), rand(rng, (128, 256), 0.1))
    return Program("s11a_allgather_matmul", "S11(a): y = x@W with x rows and W columns sharded, y columns sharded",
                   mesh, lambda x, w: x @ w, args, (ns(mesh, "m", None), ns(mesh, None, "m")),
                   ns(mesh, None, "m"))


def s11b(devices):
    mesh = mesh_of(devices, (4,), ("m",))
    rng = np.random.default_rng(12)
    args = (rand(rng, (64, 128)), rand(rng, (128, 256), 0.1))
    return Program("s11b_matmul_reducescatter", "S11(b): y = x@W contracting the sharded dim, y columns sharded",
                   mesh, lambda x, w: x @ w, args, (ns(mesh, None, "m"), ns(mesh, "m", None)),
                   ns(mesh, None, "m"))


# S12: one program per step; each moves A:[8,8] from one layout to another
# (the identity function with different in and out shardings) except 7
# (a sum over a dim sharded on x: the partial sum) and 8 (a reshape).
S12_STEPS = [
    ("1_tiles41_to_14", "S12.1: [8,8] dim 0 on (x,y) -> dim 1 on (x,y)",
     lambda a: a, (("x", "y"), None), (None, ("x", "y"))),
    ("2_swap_axes", "S12.2: tiles [2,2] on (x,y) -> on (y,x)",
     lambda a: a, ("x", "y"), ("y", "x")),
    ("3_replicated_to_tiled", "S12.3: dim 0 on x, replicated on y -> dims (x, y)",
     lambda a: a, ("x", None), ("x", "y")),
    ("4_gather_dim1", "S12.4: dims (x, y) -> dim 0 on x, replicated on y",
     lambda a: a, ("x", "y"), ("x", None)),
    ("5_gather_all", "S12.5: dims (x, y) -> replicated",
     lambda a: a, ("x", "y"), ()),
    ("6_41_to_22", "S12.6: dim 0 on (x,y) -> dim 0 on x, dim 1 on y",
     lambda a: a, (("x", "y"), None), ("x", "y")),
    ("7_partial_to_shard", "S12.7: B:[2,8,8] dim 0 on x, sum over dim 0 (a partial sum on x) -> dim 0 on x",
     lambda b: jnp.sum(b, axis=0), ("x", None, None), ("x", None)),
    ("8a_reshape_dim0", "S12.8: reshape [8,8] with dim 0 on (x,y) -> [64] on (x,y)",
     lambda a: a.reshape(64), (("x", "y"), None), (("x", "y"),)),
    ("8b_reshape_dim1", "S12.8: reshape [8,8] with dim 1 on (x,y) -> [64] on (x,y)",
     lambda a: a.reshape(64), (None, ("x", "y")), (("x", "y"),)),
]


def s12_builder(step):
    tag, doc, fn, ins, outs = step

    def build(devices):
        mesh = mesh_of(devices, (2, 2), ("x", "y"))
        rng = np.random.default_rng(1200 + S12_STEPS.index(step))
        shape = (2, 8, 8) if tag.startswith("7") else (8, 8)
        return Program("s12_" + tag, doc, mesh, fn, (rand(rng, shape),), (ns(mesh, *ins),), ns(mesh, *outs))

    return build


BUILDERS = [s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11a, s11b] + [s12_builder(s) for s in S12_STEPS]
