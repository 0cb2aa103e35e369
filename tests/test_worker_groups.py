"""The suite's worker groups (tests/conftest.py) take effect: under ``--dist loadgroup`` the
tests that name one game run on one worker, so each worker compiles a game at most once.
(With pytest 9 and pytest-xdist 3.8 the groups were silently dropped.)"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

CONFTEST = Path(__file__).with_name("conftest.py")

TESTS = """
import pytest

@pytest.mark.parametrize("k", range(4))
def test_barbu_thing(k):
    pass

@pytest.mark.parametrize("k", range(4))
def test_debertz_thing(k):
    pass

def test_neither():
    pass
"""


def test_each_game_runs_on_one_worker(tmp_path):
    pytest.importorskip("xdist")
    (tmp_path / "conftest.py").write_text(CONFTEST.read_text())
    (tmp_path / "test_groups.py").write_text(TESTS)
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-v",
         "-p", "no:cacheprovider", "-o", "addopts=", str(tmp_path)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path).stdout
    workers: dict[str, set[str]] = {}
    for worker, name in re.findall(r"\[(gw\d+)\].*PASSED \S*::test_(\w+?)_thing", out):
        workers.setdefault(name, set()).add(worker)
    assert set(workers) == {"barbu", "debertz"}, out
    assert all(len(w) == 1 for w in workers.values()), workers
