"""experiments.tournaments.strength_cost: one row per K with the tournament's difference and the
time per decision, for both games (Barbu by contract), a plot, and bad options refused before
any run."""

import json

import pytest

from experiments.tournaments import strength_cost


@pytest.mark.parametrize("game,options", [("debertz", "nodes=500,rollouts=2"),
                                          ("barbu", "nodes=100,rollouts=2")])
def test_rows_and_plot(tmp_path, game, options):
    strength_cost.main(["--game", game, "--samples", "1,2", "--options", options,
                        "--deals", "7", "--threads", "1", "--out", str(tmp_path)])
    (run,) = tmp_path.iterdir()
    result = json.loads((run / "results.json").read_text())
    assert result["game"] == game
    assert [r["samples"] for r in result["rows"]] == [1, 2]
    for r in result["rows"]:
        assert r["spec"] == f"pimc:samples={r['samples']},{options}"
        assert r["ms_per_decision"] > 0 and r["ci95"] >= 0
        if game == "barbu":
            assert sum(c["items"] for c in r["by_contract"]) == 7
    assert (run / "strength_cost.png").stat().st_size > 0


def test_a_bad_option_is_refused_before_any_run(tmp_path):
    with pytest.raises(Exception, match="nodez"):
        strength_cost.main(["--game", "barbu", "--options", "nodez=3", "--out", str(tmp_path)])
    assert not any(tmp_path.iterdir())
