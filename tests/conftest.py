"""Test-run wiring shared by every test module.

The suite's time is mostly numba compiling (tests/README-style figures are in
docs/notes/2026-12-experiments.md). Compiled code is cached on disk per game and policy set, so when the suite
runs on several workers (``pytest -n auto``, as ``make test`` does) the tests that compile
the same game's kernels are kept on one worker (``--dist loadgroup``): each worker then
compiles a game once instead of every worker compiling every game. Tests that start a local
Ray instance share one worker too, so two instances never compete for ports.
"""

import pytest

# Words of a test's id that tie it to one game's compiled code.
GAMES = ("barbu", "debertz")


def compile_group(nodeid: str) -> str | None:
    """The worker group of a test: ``ray`` for Ray tests, else the game its id names (a
    test that names both, or none, can run anywhere)."""
    low = nodeid.lower()
    if "test_ray" in low:
        return "ray"
    named = [g for g in GAMES if g in low]
    return named[0] if len(named) == 1 else None


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups off the markers
def pytest_collection_modifyitems(config, items):
    for item in items:
        group = compile_group(item.nodeid)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
