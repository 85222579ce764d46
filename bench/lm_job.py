"""The scanned language model as a program of bench/jax_vs_shardsim.py:

    .venv/bin/python bench/jax_vs_shardsim.py --extra bench/lm_job.py:lm

tests/jax/programs_lm.py's decoder-only LM (Linen, nn.scan over 4 layers,
embedding lookup, causal attention, RMSNorm, SwiGLU MLP, cross-entropy,
optax.adamw; MaxText's initialisers and logical names) at V2048 D256 H16x16
F1024 S128 B16 (heads 16 so that they divide model=16), on the benchmark's ('data', 'model') mesh: MaxText's rules
of base.yml with fsdp folded into 'data' and tensor into 'model' (batch and
the embed dim of weights on 'data', heads, MLP and vocab on 'model'). No
remat; params and optimizer state donated; the next step takes the new
state and the same tokens.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "tests", "jax"))

RULES = (
    ("activation_batch", "data"),
    ("activation_heads", "model"),
    ("activation_length", None),
    ("activation_embed", None),
    ("activation_mlp", "model"),
    ("activation_kv", None),
    ("activation_vocab", "model"),
    ("mlp", "model"),
    ("vocab", "model"),
    ("embed", "data"),
    ("norm", None),
    ("heads", "model"),
    ("kv", None),
    ("layers", None),
)


def lm(mesh):
    import jax
    import jax.numpy as jnp
    import numpy as np
    import optax
    from flax import linen as nn
    from jax.sharding import NamedSharding, PartitionSpec as P

    import programs_lm
    from jax_vs_shardsim import Job  # the benchmark imports this file as --extra

    cfg = programs_lm.Config(vocab=2048, embed=256, heads=16, head_dim=16, mlp=1024, layers=4,
                             seq=128, batch=16)
    model = programs_lm._model(cfg, None)
    tx = optax.adamw(1e-4, b1=0.9, b2=0.95, eps=1e-6, weight_decay=0.1)
    shape = (cfg.batch, cfg.seq)
    with jax.set_mesh(mesh), nn.logical_axis_rules(RULES):
        abstract = jax.eval_shape(model.init, jax.random.key(0), jnp.zeros(shape, jnp.int32))
        psh = nn.logical_to_mesh_sharding(nn.get_partition_spec(abstract), mesh, RULES)["params"]
        init = jax.jit(lambda k: nn.unbox(model.init(k, jnp.zeros(shape, jnp.int32)))["params"],
                       out_shardings=psh)
        params = init(jax.random.key(0))
        rep = NamedSharding(mesh, P())
        opt_state = tx.init(params)
        opt_sh = jax.tree.map(lambda a: a.sharding if hasattr(a, "sharding") else rep, opt_state)
        batch_sh = NamedSharding(mesh, P("data", None))
    rng = np.random.default_rng(164)
    tokens = rng.integers(0, cfg.vocab, shape).astype(np.int32)
    tokens = jax.device_put(tokens, batch_sh)
    targets = jax.device_put(np.roll(np.asarray(tokens), -1, axis=1), batch_sh)
    step = programs_lm._train_step(cfg, model, tx)

    def train_step(params, opt_state, tokens, targets):
        with nn.logical_axis_rules(RULES):
            return step(params, opt_state, tokens, targets)

    return Job(train_step, (params, opt_state, tokens, targets),
               (psh, opt_sh, batch_sh, batch_sh), (psh, opt_sh, rep), (0, 1),
               lambda args, out: (out[0], out[1], args[2], args[3]),
               f"scanned decoder-only LM V{cfg.vocab} D{cfg.embed} H{cfg.heads}x{cfg.head_dim} "
               f"F{cfg.mlp} L{cfg.layers} S{cfg.seq} B{cfg.batch}, adamw")
