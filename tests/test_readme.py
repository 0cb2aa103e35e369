"""The README is a product page: at most 150 lines, a Quick start of exactly two commands,
every command it shows with its output printing that output (tests/test_getting_started.py's
rules: exact, times masked), and its leaderboard table made from the kept ladders
(tests/experiments/test_leaderboard.py)."""

import re
from pathlib import Path

import pytest

from tests.pages import command_line, page_steps, run, without_times

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
STEPS = [s for s in page_steps(README) if s.kind == "command"]

pytestmark = pytest.mark.xdist_group("debertz")


def test_the_readme_is_a_short_product_page():
    assert len(README.splitlines()) <= 150
    assert "±" not in README.split("<!-- leaderboard:")[0]  # no results log above the table
    assert not re.search(r"\b20\d\d-\d\d-\d\d\b", README)  # no dated entries


def test_quick_start_is_two_commands_each_doing_its_own_set_up():
    section = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = section.split("```", 2)[1]
    commands = [line.split("#")[0].strip() for line in block.splitlines()
                if line.split("#")[0].strip()]
    assert commands == ["make run", "make test"]
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^run: \$\(BIN\)/cardsim$", makefile, re.M)  # installs, then runs
    assert re.search(r"^test: install$", makefile, re.M)


def test_the_readme_shows_commands_with_their_output():
    assert STEPS and all(s.expected for s in STEPS)


@pytest.mark.parametrize("step", STEPS, ids=[s.id for s in STEPS])
def test_readme_command_prints_what_the_readme_shows(step, tmp_path):
    printed = run(command_line(step.text, tmp_path), tmp_path)
    assert without_times(printed.splitlines()) == without_times(step.expected)
