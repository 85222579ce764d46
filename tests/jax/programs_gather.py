"""Gather and scatter programs for make_fixtures.py: embedding lookups
(jnp.take, x[idx]) with the table sharded on vocab or on embed and the
indices sharded on batch, a `.at[idx].add` scatter, and a Flax NNX
nnx.Embed + nnx.Linear train step whose gradient of the table is a
scatter-add. All on a 2x4 ('data', 'model') mesh of devices
[[0,1,2,3],[4,5,6,7]]."""

import numpy as np
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

from program import Program, rand
from programs_models import mesh_2x4

VOCAB, EMBED, BATCH, SEQ = 32, 16, 4, 8


def _tokens(rng):
    return rng.integers(0, VOCAB, (BATCH, SEQ)).astype(np.int32)


def _lookup_program(name, doc, devices, table_spec, ids_spec, out_spec):
    mesh = mesh_2x4(devices)

    def f(table, ids):
        return jnp.take(table, ids, axis=0, mode="clip") * 2.0

    rng = np.random.default_rng(160)
    args = (rand(rng, (VOCAB, EMBED)), _tokens(rng))
    return Program(name, doc, mesh, f, args,
                   (NamedSharding(mesh, table_spec), NamedSharding(mesh, ids_spec)),
                   NamedSharding(mesh, out_spec), source="jnp.take (embedding lookup)")


def gather_vocab(devices):
    """jnp.take(table, ids, axis=0) with the table sharded on vocab over
    'model': each device gathers from its rows and XLA all-reduces."""
    return _lookup_program("gather_vocab", "embedding lookup jnp.take(table, ids), table "
                           "sharded on vocab over 'model', ids replicated",
                           devices, P("model", None), P(), P())


def gather_embed(devices):
    """The table sharded on embed over 'model': a local gather, the
    result sharded on its last dim, no collective."""
    return _lookup_program("gather_embed", "embedding lookup, table sharded on embed over "
                           "'model', result on ('data' batch, embed 'model')",
                           devices, P(None, "model"), P("data", None), P("data", None, "model"))


def gather_batch(devices):
    """Indices sharded on batch over 'data' and sequence over 'model',
    table replicated: a local gather, no collective."""
    return _lookup_program("gather_batch", "embedding lookup, ids sharded ('data', 'model'), "
                           "table replicated", devices, P(), P("data", "model"),
                           P("data", "model", None))


def scatter_add(devices):
    """x.at[idx].add(u) with x sharded on its columns over 'model' and
    duplicate indices (their updates add up)."""
    mesh = mesh_2x4(devices)

    def f(x, idx, u):
        return x.at[idx].add(u), x.at[idx[:3]].set(u[:3] * 3.0)

    rng = np.random.default_rng(161)
    idx = np.array([3, 1, 3, 7, 0, 1], np.int32)
    args = (rand(rng, (VOCAB, EMBED)), idx, rand(rng, (6, EMBED)))
    col = NamedSharding(mesh, P(None, "model"))
    return Program("scatter_add", "x.at[idx].add(u) and x.at[idx].set(v), x sharded on "
                   "columns over 'model', duplicate indices", mesh, f, args,
                   (col, NamedSharding(mesh, P()), col), (col, col),
                   source="jax.numpy .at[].add / .set (scatter)")


def nnx_embed_train_step(devices):
    """nnx.Embed + nnx.Linear, an MSE loss and plain SGD, the embedding
    table sharded on embed over 'model' and the batch over 'data': the
    table's gradient is a scatter-add of the output cotangent."""
    from flax import nnx

    mesh = mesh_2x4(devices)

    class Model(nnx.Module):
        def __init__(self, rngs):
            self.embed = nnx.Embed(VOCAB, EMBED, rngs=rngs,
                                   embedding_init=nnx.with_partitioning(
                                       nnx.initializers.normal(1.0), (None, "model")))
            self.out = nnx.Linear(EMBED, 8, rngs=rngs, kernel_init=nnx.with_partitioning(
                nnx.initializers.lecun_normal(), ("model", None)))

        def __call__(self, ids):
            return self.out(self.embed(ids))

    with jax.set_mesh(mesh):
        model = Model(nnx.Rngs(0))
    graphdef, state = nnx.split(model)
    state = jax.tree.map(np.asarray, state)

    def step(state, ids, y):
        def loss_fn(st):
            return jnp.mean((nnx.merge(graphdef, st)(ids) - y) ** 2)
        loss, grads = jax.value_and_grad(loss_fn)(state)
        return loss, jax.tree.map(lambda p, g: p - 0.1 * g, state, grads)

    rng = np.random.default_rng(162)
    ids, y = _tokens(rng), rand(rng, (BATCH, SEQ, 8))
    with jax.set_mesh(mesh):
        state_sh = nnx.get_named_sharding(nnx.state(model), mesh)
    batch = NamedSharding(mesh, P("data"))
    return Program("nnx_embed_train_step", "nnx.Embed + nnx.Linear, MSE, SGD: the table's "
                   "gradient is a scatter-add; table on embed over 'model', batch on 'data'",
                   mesh, step, (state, ids, y), (state_sh, batch, batch),
                   (NamedSharding(mesh, P()), state_sh),
                   source="flax.nnx.Embed (gather) and its gradient (scatter-add)")


def embed_vocab_grad(devices):
    """The loss of an embedding lookup (jnp.take's default mode) and its
    gradient with the table sharded on vocab over 'model' and the ids on
    'data': the forward gathers per shard and all-reduces; the gradient,
    a scatter-add into the vocab-sharded table, stays on each shard and is
    summed over 'data'."""
    mesh = mesh_2x4(devices)

    def f(table, ids, y):
        def loss(t):
            return jnp.mean((jnp.take(t, ids, axis=0) - y) ** 2)
        return jax.value_and_grad(loss)(table)

    rng = np.random.default_rng(163)
    args = (rand(rng, (VOCAB, EMBED)), _tokens(rng), rand(rng, (BATCH, SEQ, EMBED)))
    vocab = NamedSharding(mesh, P("model", None))
    batch = NamedSharding(mesh, P("data"))
    return Program("embed_vocab_grad", "value_and_grad of an embedding lookup's MSE, table "
                   "sharded on vocab over 'model', ids and targets on 'data'", mesh, f, args,
                   (vocab, batch, batch), (NamedSharding(mesh, P()), vocab),
                   source="jnp.take and its gradient (scatter-add)")


BUILDERS = [gather_vocab, gather_embed, gather_batch, scatter_add, nnx_embed_train_step,
            embed_vocab_grad]
