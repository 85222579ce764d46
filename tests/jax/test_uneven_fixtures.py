"""The uneven-shard fixtures (tests/data/jax_uneven) are what the installed
JAX stack makes: regenerating them with make_uneven_fixtures.py and
make_uneven_op_fixtures.py (each in its own process, into one directory)
gives the checked-in files byte for byte, or the test names the files that changed
(then tests/test_uneven.c is held to the new ones once regenerated).
"""
from regenerate import assert_regenerates


def test_regenerating_gives_the_checked_in_fixtures():
    assert_regenerates(["make_uneven_fixtures.py", "make_uneven_op_fixtures.py"],
                       "jax_uneven", "uneven-shard")
