"""A first run says that it compiles, and for how long (cardsim.compile_notice)."""

import io
import re

import numpy as np
from numba import njit

from cardsim.compile_notice import compiling


def _fresh_kernel():
    @njit  # a new function: compiled on its first call, never cached
    def total(x):
        return x.sum() + 1
    return total


def test_a_compilation_is_announced_with_its_seconds_and_a_loaded_kernel_is_not():
    kernel = _fresh_kernel()
    out = io.StringIO()
    with compiling("the probe", stream=out) as notice:
        assert kernel(np.arange(4)) == 7
    assert re.fullmatch(r"compiling the probe \(first run only\)\.\.\. \d+ s\n", out.getvalue())
    assert notice.total > 0

    again = io.StringIO()
    with compiling("the probe", stream=again) as notice:
        assert kernel(np.arange(5)) == 11  # compiled already: nothing to say
    assert again.getvalue() == "" and notice.total == 0.0


def test_nested_blocks_announce_once_with_the_outer_text():
    kernel = _fresh_kernel()
    out = io.StringIO()
    with compiling("the outer work", stream=out), compiling("an inner part", stream=out):
        kernel(np.arange(3))
    assert out.getvalue().startswith("compiling the outer work (first run only)... ")
    assert out.getvalue().count("compiling") == 1
