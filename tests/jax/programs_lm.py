"""A small decoder-only language model for make_fixtures.py, built the way
MaxText builds its models: Flax Linen, the decoder layers stacked by
nn.scan (the layer axis of every parameter at position 1, MaxText's
default param_scan_axis, named 'layers'), parameters and activations named
by logical axes (nn.with_logical_partitioning, nn.with_logical_constraint)
and mapped to the mesh by logical axis rules, the embedding looked up by
indexing the table, causal dot-product attention, an RMS norm, a gated
SiLU MLP, a cross-entropy on integer labels (one-hot, as MaxText's
cross_entropy_with_logits) and one optax.adamw step.

Remat variants (MaxText's remat_policy): the decoder layer wrapped in
nn.remat before nn.scan with prevent_cse=False, as MaxText does for
scanned layers, with
  - no remat (every activation of the forward pass kept for the backward),
  - jax.checkpoint_policies.nothing_saveable ('full': each layer's input
    kept, the rest recomputed in the backward loop),
  - jax.checkpoint_policies.checkpoint_dots (matmul outputs kept).

The mesh has MaxText's axes of that time ('data', 'fsdp', 'fsdp_transpose',
'sequence', 'tensor', 'autoregressive'), sizes 2, 2, 1, 1, 2, 1 on the
8 devices; the rules are a subset of MaxText's base.yml logical_axis_rules
(AI-Hypercomputer/maxtext, MaxText/configs/base.yml, 2024), rule order
being priority with Flax Linen's resolution: a logical name takes the first
rule whose mesh axes are still free for the array, so 'embed' falls back
from ('fsdp', 'fsdp_transpose', 'sequence') to later rules where an axis is
taken (the seed 004: MaxText pull request 4205).

Two sizes: SMALL runs on 8 devices in the tests (fixtures lm_*); LARGE is
only lowered (fixtures lm_large_*: text, XLA's compiled text and its
memory analysis, no inputs or outputs) to be planned on 256 devices with
--mesh data=1,fsdp=16,tensor=16 (the other axes 1).
"""

import functools
from dataclasses import dataclass

import numpy as np
import jax
import jax.numpy as jnp
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

from program import Program

MESH_AXES = ("data", "fsdp", "fsdp_transpose", "sequence", "tensor", "autoregressive")
MESH_SHAPE = (2, 2, 1, 1, 2, 1)

# After MaxText's base.yml (the mesh axes above only); order is priority.
RULES = (
    ("activation_batch", ("data", "fsdp", "fsdp_transpose")),
    ("activation_heads", ("tensor", "sequence")),
    ("activation_length", "sequence"),
    ("activation_embed", "tensor"),
    ("activation_mlp", "tensor"),
    ("activation_kv", "tensor"),
    ("activation_vocab", ("tensor", "sequence")),
    ("activation_vocab", "tensor"),
    ("activation_vocab", "sequence"),
    ("mlp", ("fsdp_transpose", "tensor", "autoregressive")),
    ("vocab", ("tensor", "autoregressive")),
    ("embed", ("fsdp", "fsdp_transpose", "sequence")),
    ("embed", ("fsdp", "sequence")),
    ("norm", "tensor"),
    ("heads", ("tensor", "autoregressive")),
    ("kv", ()),
    ("layers", ()),
)


@dataclass(frozen=True)
class Config:
    vocab: int
    embed: int
    heads: int
    head_dim: int
    mlp: int
    layers: int
    seq: int
    batch: int


SMALL = Config(vocab=128, embed=32, heads=4, head_dim=8, mlp=64, layers=4, seq=32, batch=8)
# Planned on 256 devices (fsdp 16 x tensor 16): batch 16 per fsdp shard.
LARGE = Config(vocab=32768, embed=1024, heads=16, head_dim=64, mlp=4096, layers=4, seq=1024,
               batch=256)

REMAT = {
    "noremat": None,
    "full": "nothing_saveable",
    "dots": "checkpoint_dots",
}


def lm_mesh(devices):
    return Mesh(np.array(devices[:8]).reshape(MESH_SHAPE), MESH_AXES)


def _model(cfg, policy_name):
    from flax import linen as nn

    # MaxText's initialisers: kernels variance_scaling(1.0, 'fan_in',
    # 'truncated_normal') over their input axes, the embedding normal(1.0).
    def param(names, in_axis=-2, out_axis=-1):
        init = nn.initializers.variance_scaling(1.0, "fan_in", "truncated_normal", in_axis=in_axis,
                                                out_axis=out_axis)
        return nn.with_logical_partitioning(init, names)

    class RMSNorm(nn.Module):
        @nn.compact
        def __call__(self, x):
            scale = self.param("scale", nn.with_logical_partitioning(nn.initializers.ones, ("norm",)),
                               (x.shape[-1],))
            x = x * jax.lax.rsqrt(jnp.mean(jnp.square(x), axis=-1, keepdims=True) + 1e-5)
            return x * scale

    class DecoderLayer(nn.Module):
        @nn.compact
        def __call__(self, x, _):
            lc = nn.with_logical_constraint
            x = lc(x, ("activation_batch", "activation_length", "activation_embed"))
            h = RMSNorm(name="pre_attention_norm")(x)
            h = lc(h, ("activation_batch", "activation_length", "activation_embed"))
            qkv = []
            for name in ("query", "key", "value"):
                w = self.param(name, param(("embed", "heads", "kv"), 0, (1, 2)), (cfg.embed, cfg.heads, cfg.head_dim))
                t = jnp.einsum("bsD,Dhd->bshd", h, w)
                qkv.append(lc(t, ("activation_batch", "activation_length", "activation_heads",
                                  "activation_kv")))
            q, k, v = qkv
            s = jnp.einsum("bqhd,bkhd->bhqk", q, k) / np.sqrt(np.float32(cfg.head_dim))
            causal = jnp.tril(jnp.ones((cfg.seq, cfg.seq), bool))
            s = jnp.where(causal, s, jnp.finfo(jnp.float32).min)
            o = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(s, axis=-1), v)
            o = lc(o, ("activation_batch", "activation_length", "activation_heads", "activation_kv"))
            wo = self.param("out", param(("heads", "kv", "embed"), (0, 1), 2), (cfg.heads, cfg.head_dim, cfg.embed))
            o = jnp.einsum("bqhd,hdD->bqD", o, wo)
            x = x + lc(o, ("activation_batch", "activation_length", "activation_embed"))
            h = RMSNorm(name="pre_mlp_norm")(x)
            h = lc(h, ("activation_batch", "activation_length", "activation_embed"))
            gate = nn.Dense(cfg.mlp, use_bias=False, name="wi_0", kernel_init=param(("embed", "mlp")))(h)
            up = nn.Dense(cfg.mlp, use_bias=False, name="wi_1", kernel_init=param(("embed", "mlp")))(h)
            m = lc(jax.nn.silu(gate) * up, ("activation_batch", "activation_length", "activation_mlp"))
            m = nn.Dense(cfg.embed, use_bias=False, name="wo", kernel_init=param(("mlp", "embed")))(m)
            x = x + lc(m, ("activation_batch", "activation_length", "activation_embed"))
            return x, None

    class Decoder(nn.Module):
        @nn.compact
        def __call__(self, tokens):
            table = self.param("token_embedder", nn.with_logical_partitioning(
                nn.initializers.normal(1.0), ("vocab", "embed")), (cfg.vocab, cfg.embed))
            x = jnp.asarray(table)[tokens]
            x = nn.with_logical_constraint(x, ("activation_batch", "activation_length", "activation_embed"))
            layer = DecoderLayer
            if policy_name is not None:
                layer = nn.remat(layer, prevent_cse=False,
                                 policy=getattr(jax.checkpoint_policies, policy_name))
            layers = nn.scan(layer, variable_axes={"params": 1}, split_rngs={"params": True},
                             in_axes=(nn.broadcast,), length=cfg.layers,
                             metadata_params={nn.PARTITION_NAME: "layers"})
            x, _ = layers(name="layers")(x, None)
            x = RMSNorm(name="decoder_norm")(x)
            logits = nn.Dense(cfg.vocab, use_bias=False, name="logits_dense",
                              kernel_init=param(("embed", "vocab")))(x)
            return nn.with_logical_constraint(logits, ("activation_batch", "activation_length",
                                                       "activation_vocab"))

    return Decoder()


def _train_step(cfg, model, tx):
    import optax

    def train_step(params, opt_state, tokens, targets):
        def loss_fn(p):
            logits = model.apply({"params": p}, tokens)
            onehot = jax.nn.one_hot(targets, cfg.vocab)
            return -jnp.mean(jnp.sum(onehot * jax.nn.log_softmax(logits, axis=-1), axis=-1))
        loss, grads = jax.value_and_grad(loss_fn)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return train_step


def _program(devices, cfg, variant, name, run):
    from flax import linen as nn
    import optax

    mesh = lm_mesh(devices)
    model = _model(cfg, REMAT[variant])
    # MaxText's adamw (b2 0.95, weight decay 0.1), learning rate 1e-4 (its
    # default is 3e-5) and eps 1e-6, not its 1e-8: with 1e-8 Adam's first
    # step sends a gradient within float noise of 0 (1e-9 here) to +-lr,
    # so a few weights per tensor would differ from JAX's by up to 2 lr
    # depending only on the order of the gradient's sums.
    tx = optax.adamw(1e-4, b1=0.9, b2=0.95, eps=1e-6, weight_decay=0.1)
    tokens_shape = (cfg.batch, cfg.seq)

    with jax.set_mesh(mesh), nn.logical_axis_rules(RULES):
        abstract = jax.eval_shape(model.init, jax.random.key(0), jnp.zeros(tokens_shape, jnp.int32))
        logical = nn.get_partition_spec(abstract)
        psh = nn.logical_to_mesh_sharding(logical, mesh, RULES)["params"]
        abstract_params = jax.tree.map(lambda b: b.value, abstract,
                                       is_leaf=lambda b: isinstance(b, nn.LogicallyPartitioned))["params"]
        abstract_opt = jax.eval_shape(tx.init, abstract_params)
        rep = NamedSharding(mesh, P())
        opt_sh = optax.tree_map_params(tx, lambda _, s: s, jax.tree.map(lambda _: rep, abstract_opt),
                                       psh, transform_non_params=lambda _: rep)
        batch_sh = nn.logical_to_mesh_sharding(P("activation_batch", "activation_length"), mesh, RULES)
        if run:
            init = jax.jit(lambda k: nn.unbox(model.init(k, jnp.zeros(tokens_shape, jnp.int32)))["params"],
                           out_shardings=psh)
            params = jax.tree.map(np.asarray, init(jax.random.key(0)))
            opt_state = jax.tree.map(np.asarray, tx.init(params))
            rng = np.random.default_rng(164)
            tokens = rng.integers(0, cfg.vocab, tokens_shape).astype(np.int32)
            targets = np.roll(tokens, -1, axis=1)
            args = (params, opt_state, tokens, targets)
        else:
            spec = lambda a: jax.ShapeDtypeStruct(a.shape, a.dtype)
            toks = jax.ShapeDtypeStruct(tokens_shape, jnp.int32)
            args = (jax.tree.map(spec, abstract_params), jax.tree.map(spec, abstract_opt), toks, toks)

    # The step runs under the rules (nn.with_logical_constraint reads them
    # when traced) and the mesh (make_fixtures sets it: set_mesh=True).
    step = _train_step(cfg, model, tx)

    def train_step(params, opt_state, tokens, targets):
        with nn.logical_axis_rules(RULES):
            return step(params, opt_state, tokens, targets)

    size = (f"V{cfg.vocab} D{cfg.embed} H{cfg.heads}x{cfg.head_dim} F{cfg.mlp} L{cfg.layers} "
            f"S{cfg.seq} B{cfg.batch}")
    policy = REMAT[variant] or "no remat"
    return Program(name, f"decoder-only LM ({size}), nn.scan over layers, MaxText's logical rules, "
                   f"cross-entropy, optax.adamw; remat: {policy}",
                   mesh, train_step, args, (psh, opt_sh, batch_sh, batch_sh), (psh, opt_sh, rep),
                   source="written for shardsim's fixtures after MaxText's decoder (Linen, nn.scan, "
                          "logical_axis_rules of base.yml)",
                   set_mesh=True, run=run, memory_analysis=True)


def _builder(cfg, variant, prefix, run):
    name = f"{prefix}_{variant}"
    return functools.update_wrapper(lambda devices: _program(devices, cfg, variant, name, run),
                                    _program)


BUILDERS = ([_builder(SMALL, v, "lm", True) for v in REMAT]
            + [_builder(LARGE, v, "lm_large", False) for v in REMAT])


# Added after the LM programs so that their line numbers (in every lm_*
# fixture's locations) and their place in make_fixtures' order stay put.
def embed_grad_scatter(devices):
    """The LM's embedding gradient at small scale: a scatter-add of
    activation-shaped updates [batch, seq, embed] (sharded on batch over
    'data' and on embed over 'model', as the decoder's activations) into a
    zero [vocab, embed] table whose result is sharded P('model', 'data'),
    as the token embedder (vocab over 'tensor', embed over 'fsdp'). The
    updates, twice the table's size, keep their batch sharding; the table's
    embed dim is left whole."""
    from program import rand
    from programs_models import mesh_2x4

    mesh = mesh_2x4(devices)
    vocab, embed, batch, seq = 64, 32, 8, 16

    def f(ids, g):
        return jnp.zeros((vocab, embed), jnp.float32).at[ids].add(g)

    rng = np.random.default_rng(164)
    args = (rng.integers(0, vocab, (batch, seq)).astype(np.int32), rand(rng, (batch, seq, embed)))
    return Program("embed_grad_scatter", "scatter-add of [batch, seq, embed] updates sharded "
                   "P('data', None, 'model') into a zero [vocab, embed] table, result sharded "
                   "P('model', 'data')", mesh, f, args,
                   (NamedSharding(mesh, P("data")), NamedSharding(mesh, P("data", None, "model"))),
                   NamedSharding(mesh, P("model", "data")),
                   source="jnp.zeros().at[ids].add (the embedding gradient's scatter-add)")


BUILDERS.append(embed_grad_scatter)
