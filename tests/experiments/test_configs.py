"""Every ready-made experiment in configs/ is valid and runs (on a few deals here)."""

from pathlib import Path

import pytest
import yaml

from experiments.runs.config import load_config
from experiments.runs.run import start_run

CONFIGS = sorted((Path(__file__).resolve().parents[2] / "configs").glob("*.yaml"))


def test_there_is_a_default_experiment():
    assert any(p.name == "debertz_heuristic_vs_random.yaml" for p in CONFIGS)


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.name)
def test_config_runs_on_a_small_budget(path, tmp_path):
    cfg = load_config(path)
    data = cfg.to_dict()
    # two chunks of a few deals (every Barbu contract twice): enough to run every part of
    # the experiment; the search agents' play is what costs here, seconds a deal
    for key, small in (("deals", 14), ("games", 2)):
        if data[key] is not None:
            data[key] = small
    data["chunk"] = 7
    if len(data["agents"]) > 3:  # a ladder: every pairing on one chunk, its costs untimed
        data["deals"] = 7        # (tests/experiments/test_decision_cost.py times agents)
        data["decision_cost"] = False
    small = tmp_path / path.name
    small.write_text(yaml.safe_dump(data))
    run_dir, result = start_run(small, tmp_path / "runs")
    assert (run_dir / "summary.json").is_file() and result["table"]
