"""The host-offload fixtures (tests/data/jax_offload) are what the installed
JAX stack makes: regenerating them with make_offload_fixtures.py gives the
checked-in files byte for byte, or the test names the files that changed
(then tests/test_host_offload.c is held to the new ones once regenerated).
"""
from regenerate import assert_regenerates


def test_regenerating_gives_the_checked_in_fixtures():
    assert_regenerates(["make_offload_fixtures.py"], "jax_offload", "host-offload")
