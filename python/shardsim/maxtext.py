"""MaxText configurations: the rules, mesh and layouts MaxText would use.

    from shardsim import maxtext
    cfg = maxtext.load_config("MaxText/configs/base.yml", overrides=["ici_tensor_parallelism=4"])
    mesh = cfg.mesh(devices=256)                     # create_device_mesh's order
    tpu = cfg.mesh(topology="v5e:16x16")             # ... of a TPU slice's devices
    cfg.logical_to_mesh_axes(("activation_batch", "activation_length", "activation_embed"),
                             mesh)                    # P(('data', 'fsdp'), None, 'tensor')
    [r for r in cfg.rules if r.shadowed_by is not None]   # rules that never apply

A config is read as MaxText's pyconfig reads it (the ``base_config`` chain,
then ``models/<model_name>.yml`` or ``model=``, then ``key=value``
overrides; logical_axis_rules merged by name unless a layer sets
``override_logical_axis_rules``), once, by the C library (include/shardsim.h,
"MaxText configurations"). Errors are ``shardsim.errors`` classes with the
file, line and column. A config also gives a scenario its mesh and rules:
``Program("model.shard").plan(maxtext=cfg, devices=4096)``.
"""
import collections
import os

import numpy as np

from . import _core
from ._sharding import Mesh, PartitionSpec, _mesh_from_jax, _spec_from_text

__all__ = ["Config", "Rule", "Resolution", "load_config"]

Rule = collections.namedtuple("Rule", "name axes shadowed_by")
Rule.__doc__ = """One logical_axis_rules entry, in priority order: ``axes`` is None, (),
``"UNCONSTRAINED"``, a mesh axis or a tuple of them; ``shadowed_by`` is the
index of an earlier rule of the same name that keeps this one from ever
applying (it uses a subset of these axes), else None."""

Resolution = collections.namedtuple("Resolution", "name rule lost_rule lost_axis lost_to")
Resolution.__doc__ = """Why one dimension resolved as it did: ``rule`` is the index of the
rule that set it (None: no rule applied, the dimension is unsharded);
``lost_rule`` an earlier rule of its name that was skipped because its mesh
axis ``lost_axis`` was already taken by dimension ``lost_to`` (else None)."""


def load_config(path, *, model=None, overrides=()):
    """Load a MaxText config YAML; ``model`` a model file instead of
    models/<model_name>.yml; ``overrides`` "key=value" strings as on
    MaxText's command line."""
    if isinstance(overrides, str):
        overrides = [overrides]
    return Config(path, model=model, overrides=overrides)


class Config:
    """A loaded MaxText configuration (see the module's docstring)."""

    def __init__(self, path, *, model=None, overrides=()):
        self.path = os.fspath(path)
        self.model = None if model is None else os.fspath(model)
        self.overrides = tuple(str(o) for o in overrides)
        self._capsule = _core.maxtext_load(self.path, self.model, list(self.overrides))
        self._rules = tuple(Rule(n, a, None if by < 0 else by)
                            for n, a, by in _core.maxtext_rules(self._capsule))

    def __repr__(self):
        extra = "".join([f", model={self.model!r}" if self.model else "",
                         f", overrides={list(self.overrides)!r}" if self.overrides else ""])
        return f"maxtext.Config({self.path!r}{extra})"

    @property
    def rules(self):
        """The merged logical_axis_rules as Rule tuples, in priority order."""
        return self._rules

    @property
    def data_sharding(self):
        """``P(*data_sharding)``: how MaxText shards a batch (size-1 axes kept)."""
        return PartitionSpec(*_core.maxtext_data_sharding(self._capsule))

    def parallelism(self, devices=None, slices=None, *, topology=None):
        """{mesh axis: (ici, dcn)} with the one -1 of each network filled in,
        as MaxText's fill_unspecified_mesh_axes fills it (over ``devices``,
        or the devices of ``slices`` TPU slices of ``topology``)."""
        (names, _, _), ici, dcn = self._mesh(devices, slices, topology)
        return collections.OrderedDict((n, (i, d)) for n, i, d in zip(names, ici, dcn))

    def _mesh(self, devices, slices, topology):
        if devices is None and topology is None:
            raise TypeError("a MaxText mesh needs devices= or topology=")
        if devices is not None and topology is not None:
            raise ValueError(f"topology {topology!r} gives the devices (its chips x slices): "
                             f"leave devices None")
        return _core.maxtext_mesh(self._capsule, int(devices or 0), int(slices or 0),
                                  None if topology is None else str(topology))

    @property
    def mesh_axes(self):
        """The config's mesh_axes, in order."""
        return _core.maxtext_mesh_axes(self._capsule)

    def mesh(self, devices=None, slices=None, *, topology=None):
        """The Mesh MaxText's create_device_mesh builds over ``devices``
        devices in ``slices`` slices (None: the config's num_slices, else 1):
        axis sizes ici x dcn, size-1 axes kept, devices ordered as
        mesh_utils.create_hybrid_device_mesh orders CPU devices; with
        ``topology`` ("v5e:16x16", "v5p:4x4x8"), the devices of ``slices``
        such TPU slices in the order mesh_utils gives TPU devices (their
        physical torus; ids numbered slice by slice)."""
        (names, sizes, ids), _, _ = self._mesh(devices, slices, topology)
        return Mesh(np.array(ids, dtype=np.int64).reshape(sizes), names)

    def logical_to_mesh_axes(self, names, mesh):
        """MaxText's logical_to_mesh_axes: Flax's resolution of the logical
        ``names`` with the config's rules, an axis absent from ``mesh`` as
        JAX's error, then size-1 mesh axes dropped."""
        return self.explain(names, mesh)[0]

    def explain(self, names, mesh):
        """(PartitionSpec, [Resolution per dimension]): the resolution and why."""
        names = tuple(names)
        m = mesh if isinstance(mesh, Mesh) else _mesh_from_jax(mesh)
        spec_text, why = _core.maxtext_resolve(self._capsule, PartitionSpec(*names)._text(),
                                               m._args())

        def opt(i):
            return None if i < 0 else i

        def lost_axis(lr, la):
            if lr < 0:
                return None
            axes = self._rules[lr].axes
            return axes[la] if isinstance(axes, tuple) else axes
        dims = [Resolution(n, opt(r), opt(lr), lost_axis(lr, la), opt(lt))
                for n, (r, lr, la, lt) in zip(names, why)]
        return _spec_from_text(spec_text), dims
