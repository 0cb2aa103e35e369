"""Every script of examples/ runs, at a small size, and prints what its docs page shows
(docs/examples.md includes the files themselves, so the page cannot drift from them)."""

import runpy
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

# script -> (small arguments, text its output must contain)
RUNS = {
    "custom_agent.py": (["--deals", "500"], "lowest-card - heuristic:"),
    "gymnasium_loop.py": (["--episodes", "2"], "episode 1:"),
    "selfplay_batch.py": (["--games", "64", "--steps", "50"], "deals ended"),
    "rules_study.py": (["--hands", "2000"], "2 against 2"),
    "training_run.py": (["--iterations", "2", "--games", "64"], "network - random:"),
    "maskable_ppo.py": (["--timesteps", "256", "--deals", "5"], "MaskablePPO after 256"),
}
# started Ray instances want a worker of their own under make test's worker groups (the
# group follows the test's name: tests/conftest.py)
RAY_RUNS = {"ray_local.py": (["--deals", "20000"],
                            "the same results as the local run, times aside: True")}
# what an example needs beyond the package itself (the neural, rl and ray extras)
NEEDS = {"training_run.py": "torch", "maskable_ppo.py": "sb3_contrib", "ray_local.py": "ray"}


def test_every_example_is_tested():
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted({**RUNS, **RAY_RUNS})


@pytest.mark.parametrize("script", sorted(RUNS))
def test_example_runs(script, monkeypatch, capsys, tmp_path):
    run_example(script, *RUNS[script], monkeypatch, capsys, tmp_path)


@pytest.mark.parametrize("script", sorted(RAY_RUNS))
def test_ray_example_runs(script, monkeypatch, capsys, tmp_path):
    run_example(script, *RAY_RUNS[script], monkeypatch, capsys, tmp_path)


def run_example(script, args, expected, monkeypatch, capsys, tmp_path):
    if script in NEEDS:
        pytest.importorskip(NEEDS[script])
    if script == "training_run.py":
        args = [*args, "--out", str(tmp_path)]
    monkeypatch.setattr(sys, "argv", [script, *args])
    runpy.run_path(str(EXAMPLES / script), run_name="__main__")
    assert expected in capsys.readouterr().out
