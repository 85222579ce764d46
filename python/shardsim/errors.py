"""Exceptions of shardsim: one class per error kind of the C library.

Every class derives from ShardsimError and carries the library's one-line
message; errors about a spot in a scenario or program file also carry
``line``, ``col`` and ``source_line``. ``status`` is the C status name
(``"SS_ERR_AXIS"``).
"""


class ShardsimError(Exception):
    """Any failure reported by the shardsim library."""

    status = "SS_ERR"
    line = 0
    col = 0
    source_line = ""


class InvalidArgumentError(ShardsimError, ValueError):
    """An argument the library refuses (SS_ERR_INVALID)."""


class ParseError(ShardsimError, ValueError):
    """Text that does not parse: a spec, a mesh, a scenario, a program (SS_ERR_PARSE)."""


class RangeError(ShardsimError, ValueError):
    """A value past a limit (SS_ERR_RANGE)."""


class AxisError(ShardsimError, ValueError):
    """A mesh axis that is not in the mesh (SS_ERR_AXIS)."""


class DuplicateAxisError(ShardsimError, ValueError):
    """A mesh axis used twice in one spec (SS_ERR_DUPLICATE; JAX's DuplicateSpecError)."""


class RankError(ShardsimError, ValueError):
    """A spec longer than the array's rank (SS_ERR_RANK)."""


class IndivisibleError(ShardsimError, ValueError):
    """A dimension its partitions do not divide (SS_ERR_INDIVISIBLE)."""


class MeshError(ShardsimError, ValueError):
    """An impossible mesh (SS_ERR_MESH)."""


class RulesError(ShardsimError, ValueError):
    """Logical axis rules that cannot resolve (SS_ERR_RULES)."""


class UnsupportedError(ShardsimError, NotImplementedError):
    """Something shardsim does not do (yet): an op, a dtype (SS_ERR_UNSUPPORTED)."""


class DeviceOutOfMemoryError(ShardsimError, MemoryError):
    """A virtual device's memory is exhausted (SS_ERR_DEVICE_OOM)."""


class DeadlockError(ShardsimError, RuntimeError):
    """A collective that can never complete (SS_ERR_DEADLOCK)."""


class CollectiveMismatchError(ShardsimError, RuntimeError):
    """Devices reached different collectives (SS_ERR_MISMATCH)."""


class ShardsimIOError(ShardsimError, OSError):
    """A file that cannot be read or written (SS_ERR_IO)."""


#: The class raised for each status of the C library (read by shardsim._core).
CLASS_OF_STATUS = {
    "SS_ERR_INVALID": InvalidArgumentError,
    "SS_ERR_PARSE": ParseError,
    "SS_ERR_RANGE": RangeError,
    "SS_ERR_AXIS": AxisError,
    "SS_ERR_DUPLICATE": DuplicateAxisError,
    "SS_ERR_RANK": RankError,
    "SS_ERR_INDIVISIBLE": IndivisibleError,
    "SS_ERR_MESH": MeshError,
    "SS_ERR_RULES": RulesError,
    "SS_ERR_UNSUPPORTED": UnsupportedError,
    "SS_ERR_DEVICE_OOM": DeviceOutOfMemoryError,
    "SS_ERR_DEADLOCK": DeadlockError,
    "SS_ERR_MISMATCH": CollectiveMismatchError,
    "SS_ERR_IO": ShardsimIOError,
}
