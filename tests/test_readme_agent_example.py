"""The "Bring your own agent" example of the docs (docs/agents.md, shown in the README too)
runs as written: the agent file, the command line and the Python snippet."""

import contextlib
import io
import re
import shlex
import sys
from pathlib import Path

from experiments.cli import main
from tests.pages import without_times

PAGE = (Path(__file__).parents[1] / "docs" / "agents.md").read_text()
SECTION = PAGE[PAGE.index("## Bring your own agent"):]
BLOCKS = re.findall(r"```(\w+)\n(.*?)```", SECTION, flags=re.S)


def block(kind, containing):
    return next(code for k, code in BLOCKS if k == kind and containing in code)


def test_readme_agent_example(tmp_path, monkeypatch):
    (tmp_path / "mybots.py").write_text(block("python", "# mybots.py"))
    monkeypatch.chdir(tmp_path)
    command = shlex.split(block("sh", "cardsim tournament").strip())
    assert command[0] == "cardsim"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(command[1:]) == 0
    table = out.getvalue()
    assert "lowest-card" in table and "heuristic" in table
    difference = re.search(r"lowest-card - heuristic: ([-+][\d.]+) ± ([\d.]+)", table)
    assert float(difference.group(1)) + float(difference.group(2)) < 0  # the heuristic wins

    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("mybots", None)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(block("python", "from mybots import"), {})
    # the same table, but for the µs/decision column (a time)
    assert without_times(out.getvalue().strip().splitlines()) == without_times(
        table.strip().splitlines())
