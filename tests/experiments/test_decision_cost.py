"""``python -m experiments.tournaments.decision_cost``: every agent timed on the same positions."""

import json

from cardsim.debertz.rules import DebertzRules
from experiments.tournaments.decision_cost import main, measure


def test_compiled_agents_and_a_network_are_timed_on_the_same_positions():
    rows = measure("debertz", DebertzRules(players=2), ["heuristic", "neural:checkpoint=debertz-2p"],
                   deals=1, seed=3)
    assert [r["agent"] for r in rows] == ["heuristic", "neural:debertz-2p"]
    assert len({r["positions"] for r in rows}) == 1 and rows[0]["positions"] > 5
    assert all(r["us_per_decision"] > 0 for r in rows)
    assert "us_per_decision_batched" not in rows[0] and rows[1]["us_per_decision_batched"] > 0


def test_rounds_time_the_agents_in_turns_and_keep_each_ones_median(monkeypatch):
    import experiments.tournaments.decision_cost as dc

    calls = []
    times = {"random": iter([5.0, 1.0, 3.0]), "heuristic": iter([2.0, 40.0, 4.0])}

    def timed(agent, game, R, states):
        calls.append(agent.label)
        return next(times[agent.label])

    monkeypatch.setattr(dc, "compiled_us", timed)
    rows = measure("debertz", DebertzRules(players=2), ["random", "heuristic"], deals=1,
                   seed=3, rounds=3)
    assert calls == ["random", "heuristic"] * 3  # in turns, not one agent's rounds together
    assert [r["us_per_decision"] for r in rows] == [3.0, 4.0]  # medians: one slow round is out
    assert rows[0]["rounds"] == 3


def test_command_prints_json(capsys):
    main(["--game", "debertz", "--players", "3", "--agents", "random", "--deals", "1", "--json"])
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["agent"] == "random" and rows[0]["us_per_decision"] > 0


def test_a_tournament_run_reports_each_agents_cost_and_plots_strength_against_it(tmp_path):
    import yaml

    from experiments.runs.run import start_run

    config = tmp_path / "ladder.yaml"
    config.write_text(yaml.safe_dump(dict(
        name="ladder", kind="tournament", game="debertz", rules={"players": 2},
        agents=["random", "heuristic", "neural:checkpoint=debertz-2p"], deals=40,
        decision_cost=True, threads=1)))
    run_dir, result = start_run(config, tmp_path / "runs")
    costs = {r["agent"]: r for r in result["decision_cost"]}
    assert set(costs) == {a["agent"] for a in result["agents"]}
    # times only, never compared: a loaded host can stall any one agent's measurement
    assert all(costs[a]["us_per_decision"] > 0 for a in costs)
    assert "us_per_decision_batched" in costs["neural:debertz-2p"]
    assert "microseconds per decision" in (run_dir / "table.txt").read_text()
    assert (run_dir / "plots" / "strength_cost.png").stat().st_size > 1000
    assert result["ratings"] is not None


def test_a_long_agent_label_is_wrapped_at_its_commas_for_the_plots_legend():
    from experiments.runs.run import _legend_label

    assert _legend_label("pimc:samples=8") == "pimc:samples=8"
    label = "pimc:net=barbu," + ",".join(f"net_margin_{k}=2" for k in range(30))
    lines = _legend_label(label, width=60).split("\n")
    assert len(lines) > 3 and all(len(line) <= 61 for line in lines)
    assert "".join(lines) == label and all(line.endswith(",") for line in lines[:-1])
