"""XLA CPU's float arithmetic on imported programs, probe by probe (needs the
pinned stack).

XLA CPU rewrites float arithmetic behind JAX's back: a multiply whose only
use is an add or subtract in the same fused loop becomes one fused
multiply-add (LLVM's floating-point op fusion, allowed by XLA CPU);
x / constant becomes x * (1 / constant) and (x * c1) * c2 becomes
x * (c1 * c2) (its algebraic simplifier). Each probe below is
jitted on this machine and checked twice, against independent references:

  1. what XLA did: the jitted result equals a numpy emulation with the fma
     (a*b+c in float64, rounded once to float32: the same value as fmaf for
     f32 operands) or without it (numpy's own rounding after every op);
  2. that shardsim, running the lowered text, gives the jitted result bit
     for bit.

A probe shardsim does not reproduce yet is an expected failure naming the
cause (strict: it fails once it is reproduced). docs/xla-cpu-arithmetic.md
states the rule these probes establish.
"""

import contextlib
import os
import sys
from fractions import Fraction

import pytest

np = pytest.importorskip("numpy", reason="numpy is not installed")
jax = pytest.importorskip("jax", reason="JAX is not installed: sh tools/setup.sh")
jnp = jax.numpy

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import make_fixtures  # noqa: E402
import test_import  # noqa: E402
from program import Program  # noqa: E402

N = 1024


def vec(seed, dtype=np.float32, n=N):
    return np.random.default_rng(seed).standard_normal(n).astype(dtype)


A, B, C = vec(1), vec(2), vec(3)
M, P, Q = (x.reshape(32, 32) for x in (A, B, C))


def fma32(a, b, c):
    """fmaf on float32 arrays: the product is exact in float64, the sum
    rounds once there, then to float32 (the probes check no double rounding
    hits: the plain-rounding emulation differs elsewhere)."""
    a, b, c = (np.asarray(x, np.float64) for x in (a, b, c))
    return (a * b + c).astype(np.float32)


def fma64(a, b, c):
    return np.array([float(Fraction(x) * Fraction(y) + Fraction(z)) for x, y, z in zip(a, b, c)])


def two_users_other_fusion(a, b, c):
    m = a * b
    return m + c, jnp.exp(m)


def two_users_same_fusion(a, b, c):
    m = a * b
    return (m + c) * m


def folded_numerator(x):
    # convert(constant) / constant: XLA folds it, an exact division
    two = jax.lax.convert_element_type(jnp.asarray(-2, jnp.int32), jnp.float32)
    return x + two / jnp.float32(1.41421354)


def also_feeds_reduce(a, b, c):
    m = a * b
    return m + c, m.sum()


# (name, fn, args, what XLA computes (numpy), why shardsim differs or None)
PROBES = [
    ("mul_add", lambda a, b, c: a * b + c, (A, B, C), lambda: fma32(A, B, C), None),
    ("add_mul", lambda a, b, c: c + a * b, (A, B, C), lambda: fma32(A, B, C), None),
    ("mul_add_mul", lambda a, b, c: a * b + c * a, (A, B, C),
     lambda: fma32(A, B, (C * A).astype(np.float32)), None),
    ("mul_sub_mul", lambda a, b, c: a * b - c * a, (A, B, C),
     lambda: fma32(A, B, -(C * A).astype(np.float32)), None),
    ("mul_sub", lambda a, b, c: a * b - c, (A, B, C), lambda: fma32(A, B, -C), None),
    ("sub_mul", lambda a, b, c: c - a * b, (A, B, C), lambda: fma32(-A, B, C), None),
    ("scalar_mul_add", lambda a, s, c: a * s + c, (A, np.float32(1.37), C),
     lambda: fma32(A, np.float32(1.37), C), None),
    ("f64_mul_add", lambda a, b, c: a * b + c,
     (vec(1, np.float64), vec(2, np.float64), vec(3, np.float64)),
     lambda: fma64(vec(1, np.float64), vec(2, np.float64), vec(3, np.float64)), None),
    ("bf16_not_contracted", lambda a, b, c: a * b + c,
     tuple(jnp.asarray(x, jnp.bfloat16) for x in (A, B, C)), None, None),
    ("int_mul_add", lambda a, b, c: a * b + c,
     tuple(np.random.default_rng(s).integers(-999, 999, N).astype(np.int32) for s in (4, 5, 6)),
     None, None),
    ("mul_also_feeds_reduce", also_feeds_reduce, (A, B, C),
     lambda: ((A * B + C), None), None),
    ("mul_two_users_same_fusion", two_users_same_fusion, (A, B, C),
     lambda: (A * B + C) * (A * B), None),
    ("mul_two_users_other_fusion", two_users_other_fusion, (A, B, C),
     lambda: (fma32(A, B, C), None),
     "XLA duplicates the multiply into each user's fusion; shardsim contracts single users only"),
    ("transpose_between", lambda a, b, c: (a * b).T + c, (M, P, Q), lambda: fma32(M.T, P.T, Q),
     "the fused emitter computes the multiply per element through the transpose"),
    ("div_const", lambda x: x / 3.0, (A,), lambda: A * (np.float32(1) / np.float32(3)), None),
    ("div_const_then_add", lambda x, c: x / 3.0 + c, (A, C),
     lambda: fma32(A, np.float32(1) / np.float32(3), C), None),
    ("div_const_array", lambda x: x / jnp.arange(1.0, N + 1.0, dtype=jnp.float32), (A,),
     lambda: A / np.arange(1.0, N + 1.0, dtype=np.float32), None),
    ("div_folded_numerator", folded_numerator, (A,),
     lambda: A + np.float32(-2) / np.float32(1.41421354), None),
    ("mul_const_chain", lambda x: (x * 1.41421354) * 0.1, (A,),
     lambda: A * (np.float32(1.41421354) * np.float32(0.1)), None),
    ("mul_const_chain_left", lambda x: 0.1 * (1.41421354 * x), (A,),
     lambda: A * (np.float32(1.41421354) * np.float32(0.1)), None),
]


@contextlib.contextmanager
def x64_for(name):
    """f64 probes jit with jax_enable_x64, restored afterwards."""
    was = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", was or name.startswith("f64"))
    try:
        yield
    finally:
        jax.config.update("jax_enable_x64", was)


def program(name, fn, args):
    mesh = jax.sharding.Mesh(np.array(jax.devices()[:1]), ("x",))
    return Program(name, name, mesh, fn, args, None, None, source="tests/jax/test_xla_arith.py")


@pytest.fixture(scope="module")
def shardsim():
    if not os.access(test_import.SHARDSIM, os.X_OK):
        pytest.skip(f"no shardsim binary at {test_import.SHARDSIM}")
    return test_import.SHARDSIM


def leaves(x):
    return [np.asarray(v) for v in jax.tree_util.tree_leaves(x)]


def bits_equal(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind == "V" and a.dtype.itemsize == b.dtype.itemsize:
        a = a.view(b.dtype)  # numpy reads bf16 .npy files as raw 2-byte records
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("name,fn,args,emulated,gap", PROBES, ids=[p[0] for p in PROBES])
def test_xla_does_what_the_rule_says(name, fn, args, emulated, gap):
    with x64_for(name):
        got = leaves(jax.jit(fn)(*args))
    if emulated is None:  # no contraction: the plain ops in numpy's rounding
        want = leaves(fn(*(np.asarray(a) for a in args)))
        for g, w in zip(got, want):
            assert bits_equal(g, np.asarray(w).astype(g.dtype)), name
        return
    want = emulated()
    want = want if isinstance(want, tuple) else (want,)
    for g, w in zip(got, want):
        if w is not None:
            assert bits_equal(g, np.asarray(w, g.dtype)), name


@pytest.mark.parametrize("name,fn,args,emulated,gap", PROBES, ids=[p[0] for p in PROBES])
def test_shardsim_equals_xla_bitwise(shardsim, tmp_path, name, fn, args, emulated, gap):
    with x64_for(name):
        prog = program(name, fn, args)
        jitted, r, outputs = test_import.run_shardsim(str(tmp_path), prog, True)
        assert r.returncode == 0, r.stdout + r.stderr
        want = jax.block_until_ready(jitted(*args))
    same = True
    for rname, leaf in zip(make_fixtures.result_names(want), leaves(want)):
        same &= bits_equal(np.load(os.path.join(outputs, rname + ".npy")), leaf)
    if gap:
        assert not same, f"{name} is reproduced now: drop its gap ({gap})"
    else:
        assert same, name
