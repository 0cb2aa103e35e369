"""``cardsim load``: a few players at once against a server it starts itself, and the
figures it prints (experiments.web.load)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from experiments.web.load import percentile

ROOT = Path(__file__).resolve().parents[2]


def test_percentile_is_the_nearest_rank():
    values = list(range(1, 101))
    assert percentile(values, 50) == 50 and percentile(values, 99) == 99
    assert percentile(values, 100) == 100 and percentile([7.0], 99) == 7.0
    assert percentile([], 50) is None


def test_load_a_few_players_with_bad_requests():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "experiments.cli", "load", "--players", "5",
                          "--actions", "12", "--think", "0", "--ramp", "0", "--bad", "0.3",
                          "--restart", "--json"], capture_output=True, text=True, timeout=900,
                         cwd=ROOT, env=env)
    assert out.returncode == 0, out.stderr + out.stdout
    figures = json.loads(out.stdout)
    assert figures["players"] == 5 and figures["server_errors"] == 0
    assert figures["bad_requests"] > 0 and figures["bad_accepted"] == 0
    assert figures["bad_changed_the_game"] == 0
    fast = figures["action_ms"]["fast"]
    assert fast["n"] == 5 * 12 and 0 < fast["p50"] <= fast["p99"] <= fast["max"]
    assert figures["games_started"] >= 5
    assert sum(figures["statuses"].values()) == figures["requests"]
    assert set(figures["statuses"]) <= {"200", "400", "401", "403"}
    assert figures["memory_mib"]["server_most"] > 0
    # killed with -9 and started again: every game in progress as it was
    restart = figures["restart"]
    assert restart["games_in_progress"] >= 1
    assert restart["served_as_they_were"] == restart["games_in_progress"] == restart["restored"]
    assert restart["at_start"]["restored"] == restart["games_in_progress"]
    assert restart["at_start"]["failed"] == 0


def test_load_refuses_nonsense():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "experiments.cli", "load", "--bad", "2"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)
    assert out.returncode == 2
    assert out.stderr.strip() == "cardsim: error: --bad is a share of the requests, 0..1; got 2.0"
