"""What each agent cost in a tournament: its decisions, counted exactly and the same for any
threads, chunking or resume, and its microseconds per decision, in the result, the table,
the JSON and a run directory's files."""

import csv
import json

import numpy as np
import pytest
import yaml

from agents.registry import make_agent
from cardsim.barbu.rules import BarbuRules
from cardsim.debertz.rules import DebertzRules
from experiments.cli import main
from experiments.runs.run import start_run
from experiments.tournaments.tournament import (Tournament, format_table, play_chunk_tally,
                                                tournament)
from tests.experiments.untimed import untimed


class Counting:
    """A Python agent that asks a compiled agent's batched act and counts the games it was
    asked for: a hand count of its decisions."""

    def __init__(self, inner):
        self.inner = inner
        self.label = "counting-" + inner.label
        self.decisions = 0

    def act(self, observations, legal_masks):
        self.decisions += len(legal_masks)
        return self.inner.act(observations, legal_masks)


def _decisions(result):
    return [r["decisions"] for r in result["agents"]]


@pytest.mark.parametrize("game, rules, kw", [
    ("debertz", DebertzRules(players=2), dict(deals=40)),
    ("debertz", DebertzRules(players=3), dict(deals=30)),
    ("debertz", DebertzRules(players=4, teams=True, target=151), dict(games=3)),
    ("barbu", BarbuRules(), dict(deals=14, by_contract=True)),
])
def test_decisions_are_counted_exactly(game, rules, kw):
    """A random agent's decisions asked from Python (counted by hand) equal those counted in
    the compiled loops for the same agent, and the other agent's are the same either way."""
    compiled = tournament(game, rules, ["random", "random"], seed=4, **kw)
    counting = Counting(make_agent("random", game))
    asked = tournament(game, rules, [counting, "random"], seed=4, **kw)
    assert asked["pairings"][0]["mean_points"] == compiled["pairings"][0]["mean_points"]
    assert _decisions(asked) == _decisions(compiled)
    assert asked["agents"][0]["decisions"] == counting.decisions > 0


def test_decisions_add_up_to_the_decisions_the_engine_reports():
    from cardsim import games
    from cardsim.table import Seating, _Rows

    t = Tournament("debertz", DebertzRules(players=3), ["random", "heuristic"], deals=25,
                   seed=2)
    result = t.run()
    p = t.pairings[0]
    local = (p.patterns != p.a).astype(np.int64)
    P = local.shape[0]
    items = [i for i in range(25) for _ in range(P)]
    rows = _Rows(t.table, Seating([t.agents[p.a], t.agents[p.b]], local),
                 np.array(items), np.tile(np.arange(P), 25),
                 seed=2, whole=False, duplicate=True, force=False, n_threads=1)
    stats = rows.play(None)
    engine = int(stats[:, games.get("debertz").stats.S_DECISIONS].sum())
    assert sum(_decisions(result)) == engine


def test_results_other_than_times_do_not_depend_on_threads_or_chunks():
    rules = DebertzRules(players=4)
    results = []
    for chunk, threads in ((64, 1), (1000, 2)):
        t = Tournament("debertz", rules, ["heuristic", "random"], deals=300, seed=2)
        for k, lo, hi in t.chunks(chunk):
            tally, _ = play_chunk_tally((t, False), (k, lo, hi), threads)
            t.add_chunk(k, tally)
        results.append(untimed(t.result()))
    assert results[0] == results[1] and all(d > 0 for d in _decisions(results[0]))


def test_keeping_the_cost_changes_no_result():
    t = Tournament("barbu", BarbuRules(), ["heuristic", "random"], deals=20, seed=3)
    plain = t.play_chunk(0, 0, 20)
    cost = np.zeros((2, 4), dtype=np.int64)
    kept = t.play_chunk(0, 0, 20, cost=cost)
    assert all((x == y).all() for x, y in zip(plain, kept)) and (cost[:, 0] > 0).all()


def test_every_agent_has_decisions_and_a_time_in_the_json_and_the_table(capsys):
    # enough deals that random play's tenths of a microsecond are timed many times over
    assert main(["tournament", "debertz", "--agents", "heuristic", "random", "--deals", "3000",
                 "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    for row in res["agents"]:
        assert row["decisions"] > 0 and row["us_per_decision"] > 0
    table = format_table(res)
    header = next(line for line in table.splitlines() if line.startswith("agent"))
    assert header.split()[-2:] == ["decisions", "µs/decision"]
    row = next(line for line in table.splitlines() if line.startswith("random"))
    assert f"{res['agents'][1]['decisions']:,}" in row.split()


def test_a_python_agent_is_timed_by_its_calls():
    counting = Counting(make_agent("heuristic", "debertz"))
    res = tournament("debertz", DebertzRules(players=2), [counting, "random"], deals=200,
                     seed=1)
    assert res["agents"][0]["decisions"] == counting.decisions
    assert res["agents"][0]["us_per_decision"] > 0  # a Python call per batch: microseconds


def test_a_run_directory_reports_the_cost(tmp_path):
    cfg = {"name": "c", "kind": "tournament", "game": "debertz", "agents": ["heuristic", "random"],
           "rules": {"players": 2}, "deals": 400, "chunk": 100, "seed": 3}
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(cfg))
    run_dir, result = start_run(path, tmp_path / "runs")
    summary = json.loads((run_dir / "summary.json").read_text())
    rows = list(csv.DictReader((run_dir / "results.csv").read_text().splitlines()))
    assert [int(r["decisions"]) for r in rows] == _decisions(summary) == _decisions(result)
    assert all(float(r["us_per_decision"]) == pytest.approx(a["us_per_decision"], abs=1e-4)
               for r, a in zip(rows, summary["agents"]))
    # strength against cost, from the tournament's own times (no decision_cost asked)
    assert (run_dir / "plots" / "strength_cost.png").stat().st_size > 1000
