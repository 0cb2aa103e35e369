"""docs/getting-started.md shows commands with what they print: every one of them runs here and
prints what the page shows.

The steps are read from the page itself, so the page and the test cannot drift apart:

- a fenced block whose first line is ``$ COMMAND`` is a command, the rest of the block what
  it prints (its standard output; the ``compiling ... (first run only)`` notices the page
  shows are standard error, and appear only with a cold cache);
- a ``python`` block followed by a plain block is a script and what it prints;
- a ``yaml`` block whose first line is ``# NAME.yaml`` is a file the commands read.

They run in page order in one scratch folder (``runs/`` of a training command is where a
later command finds its network). Output is compared exactly, but for times: the lines
``seconds``, ``deals_per_s`` and ``compile_s``, a rate such as ``(20,500/s)``, the
``µs/decision`` column and the time in a run directory's name. A command whose result comes
from a network trained here (``cardsim train``, or a checkpoint under ``runs/``) depends on
the CPU's floating-point arithmetic: its lines are compared with their numbers masked, and
each difference the page shows with an interval (``+30.54 ... +-4.34``, ``-41.23 ± 1.88``)
must be matched within that interval.
"""

from __future__ import annotations

import importlib.util
import sys

import pytest

from tests.pages import (DIFFERENCE, ROOT, TRAINED_HERE, command_line, page_steps, run, shape,
                         without_times)

PAGE = ROOT / "docs" / "getting-started.md"

# every command of the page is a Debertz one: its compiled code is the debertz worker's
# (tests/conftest.py)
pytestmark = pytest.mark.xdist_group("debertz")

STEPS = page_steps(PAGE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("getting-started")


def test_the_page_shows_commands_with_output():
    kinds = [s.kind for s in STEPS]
    assert kinds.count("command") >= 3 and "python" in kinds and "file" in kinds, kinds
    assert all(s.expected for s in STEPS if s.kind != "file")


@pytest.mark.parametrize("step", STEPS, ids=[s.id for s in STEPS])
def test_step_prints_what_the_page_shows(step, workdir):
    if step.kind == "file":
        (workdir / step.name).write_text(step.text, encoding="utf-8")
        return
    if step.kind == "python":
        printed = run([sys.executable, "-c", step.text], workdir)
    else:
        if TRAINED_HERE.search(step.text) and importlib.util.find_spec("torch") is None:
            pytest.skip("needs torch (pip install -e '.[neural]')")
        printed = run(command_line(step.text, workdir), workdir)
    expected, actual = without_times(step.expected), without_times(printed.splitlines())
    if not (step.kind == "command" and TRAINED_HERE.search(step.text)):
        assert actual == expected
        return
    # a network trained here: the same lines, and each difference within the page's interval
    assert [shape(x) for x in actual] == [shape(x) for x in expected]
    for mine, page in zip(actual, expected):
        shown = DIFFERENCE.search(page)
        if shown:
            value, interval = float(shown.group(1)), float(shown.group(2))
            got = float(DIFFERENCE.search(mine).group(1))
            assert abs(got - value) <= interval, (
                f"{mine!r}: the page shows {value:+.2f} ± {interval:.2f}")
