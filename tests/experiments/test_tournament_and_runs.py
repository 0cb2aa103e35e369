"""Tournaments (seating, confidence intervals), experiment configs, run directories, resume."""

import json
import shutil

import numpy as np
import pytest
import yaml

from cardsim.debertz.rules import DebertzRules
from cardsim.errors import InvalidConfigError
from experiments.runs.config import config_from_dict, load_config
from experiments.runs.run import resume_run, start_run
from experiments.tournaments.stats import Moments, exact, mean_ci
from experiments.tournaments.tournament import Tournament, seating_patterns, tournament
from tests.experiments.untimed import untimed, untimed_table


@pytest.mark.parametrize("kw, n_patterns", [(dict(players=2), 2), (dict(players=3), 6),
                                            (dict(players=4), 8),
                                            (dict(players=4, teams=True), 2)])
def test_duplicate_seating_puts_every_agent_in_every_seat_equally(kw, n_patterns):
    rules = DebertzRules(**kw)
    pat = seating_patterns(rules, 0, 1)
    assert pat.shape == (n_patterns, rules.players)
    for seat in range(rules.players):
        counts = np.bincount(pat[:, seat], minlength=2)
        assert counts[0] == counts[1] > 0  # each agent holds each seat equally often
    # both agents hold the same number of seats over all patterns
    assert (pat == 0).sum() == (pat == 1).sum()


def test_confidence_interval_covers_the_true_mean_95_percent_of_the_time():
    rng = np.random.default_rng(0)
    trials, hits = 2000, 0
    for _ in range(trials):
        m, h = mean_ci(rng.normal(3.0, 2.0, size=200))
        hits += abs(m - 3.0) <= h
    assert 0.93 <= hits / trials <= 0.97
    x = rng.normal(size=500)
    m = Moments(500, sum(map(exact, x)), sum(exact(v) ** 2 for v in x))
    assert np.isclose(m.mean_ci()[0], x.mean()) and np.isclose(m.mean_ci()[1], mean_ci(x)[1])


def test_equal_agents_tie_and_results_are_reproducible():
    rules = DebertzRules(players=2)
    a = tournament("debertz", rules, ["random", "random"], deals=3000, seed=5)
    b = tournament("debertz", rules, ["random", "random"], deals=3000, seed=5, n_threads=2)
    assert untimed(a) == untimed(b)  # decisions too: only the times may differ
    p = a["pairings"][0]
    assert abs(p["difference"]) <= 4 * p["difference_ci95"]
    assert [r["agent"] for r in a["agents"]] == ["random", "random#2"]


def test_three_agents_round_robin_with_ratings():
    res = tournament("debertz", DebertzRules(players=3), ["random"] * 3, deals=300, seed=1)
    assert len(res["pairings"]) == 3
    assert {r["agent"] for r in res["ratings"]} == {"random", "random#2", "random#3"}


def test_whole_games_report_win_rates():
    res = tournament("debertz", DebertzRules(players=4, teams=True, target=301),
                     ["random", "random"], games=40, seed=2)
    w = res["pairings"][0]["win_rate"]
    assert np.isclose(sum(w), 1.0)


def test_tournament_errors():
    with pytest.raises(InvalidConfigError, match="at least 2"):
        Tournament("debertz", DebertzRules(), ["random"])
    with pytest.raises(InvalidConfigError, match="unknown debertz agent"):
        Tournament("debertz", DebertzRules(), ["random", "oracle"])


BASE = {"name": "t", "kind": "tournament", "game": "debertz", "agents": ["random", "random"],
        "rules": {"players": 2}, "deals": 600, "chunk": 100, "seed": 3}


@pytest.mark.parametrize("change, words", [
    ({"speed": 1}, "unknown config key 'speed'"),
    ({"kind": "race"}, "'kind' has invalid value"),
    ({"game": "poker"}, "'game' has invalid value"),
    ({"deals": 0}, "'deals' has invalid value"),
    ({"rules": {"players": 9}}, "players"),
    ({"rules": {"colour": 1}}, "unknown debertz rule 'colour'"),
    ({"agents": ["random", "oracle"]}, "unknown debertz agent 'oracle'"),
    ({"agents": ["random:x=1", "random"]}, "no option 'x'"),
    ({"games": 5}, "not both"),
    ({"threads": "two"}, "'threads'"),
    ({"duplicate": "yes"}, "'duplicate' must be true or false"),
    ({"name": "a/b"}, "'name'"),
    ({"kind": "simulate", "per_deal": True}, "'per_deal' is read by tournament and study runs only"),
    ({"per_deal": 1}, "'per_deal' must be true or false"),
])
def test_config_errors_name_the_key(change, words):
    with pytest.raises(InvalidConfigError, match=words):
        config_from_dict({**BASE, **change})


def test_config_file_errors(tmp_path):
    with pytest.raises(InvalidConfigError, match="cannot read config"):
        load_config(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [unclosed\n")
    with pytest.raises(InvalidConfigError, match="not valid YAML"):
        load_config(bad)


def _write(tmp_path, data, name="cfg.yaml"):
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data))
    return path


def test_run_directory_contents(tmp_path):
    run_dir, result = start_run(_write(tmp_path, BASE), tmp_path / "runs")
    for name in ("config.yaml", "meta.json", "metrics.jsonl", "results.csv", "summary.json",
                 "table.txt", "plots/difference.png", "plots/distribution.png"):
        assert (run_dir / name).is_file(), name
    meta = json.loads((run_dir / "meta.json").read_text())
    assert meta["rules_hash"] == DebertzRules(players=2).rules_hash() and meta["seed"] == 3
    assert len((run_dir / "metrics.jsonl").read_text().splitlines()) == 6
    assert "random - random#2" in result["table"]
    resolved = yaml.safe_load((run_dir / "config.yaml").read_text())
    assert resolved["duplicate"] is True and resolved["threads"] == 1


def test_resume_after_interruption_equals_uninterrupted_run(tmp_path, monkeypatch):
    full_dir, full = start_run(_write(tmp_path, BASE), tmp_path / "a")
    from experiments.tournaments import tournament as T

    calls = {"n": 0}
    original = T.Tournament.play_chunk

    def interrupted(self, *args, **kw):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return original(self, *args, **kw)

    monkeypatch.setattr(T.Tournament, "play_chunk", interrupted)
    with pytest.raises(KeyboardInterrupt):
        start_run(_write(tmp_path, BASE), tmp_path / "b")
    run_dir = next((tmp_path / "b").iterdir())
    assert len(list((run_dir / "chunks").glob("*.npz"))) == 3
    monkeypatch.setattr(T.Tournament, "play_chunk", original)
    played = {"n": 0}

    def counting(self, *args, **kw):
        played["n"] += 1
        return original(self, *args, **kw)

    monkeypatch.setattr(T.Tournament, "play_chunk", counting)
    _, resumed = resume_run(run_dir)
    assert played["n"] == 3  # only the missing chunks
    for key in ("agents", "pairings", "items"):
        assert untimed(resumed)[key] == untimed(full)[key]
    assert untimed_table(resumed["table"]) == untimed_table(full["table"])
    # the decisions of the chunks kept before the interruption are counted too
    assert [r["decisions"] for r in resumed["agents"]] == [r["decisions"] for r in full["agents"]]
    assert all(r["decisions"] > 0 and r["us_per_decision"] is not None
               for r in resumed["agents"])


def test_simulation_run_resumes_and_writes_history(tmp_path):
    cfg = {"name": "s", "kind": "simulate", "game": "debertz", "agents": ["random"],
           "rules": {"players": 3}, "deals": 500, "chunk": 200, "history": True}
    run_dir, full = start_run(_write(tmp_path, cfg), tmp_path / "runs")
    assert full["deals"] == 500
    lines = sum(len(p.read_text().splitlines()) for p in (run_dir / "history").glob("*.jsonl"))
    assert lines == 500
    copy = tmp_path / "copy"
    shutil.copytree(run_dir, copy)
    (copy / "chunks" / "items-200-400.npz").unlink()
    _, again = resume_run(copy)
    for key in ("deals", "mean_round_points", "byte_rate", "decisions"):
        assert again[key] == full[key]


def test_resume_needs_a_run_directory(tmp_path):
    with pytest.raises(InvalidConfigError, match="not a run directory"):
        resume_run(tmp_path)


def test_without_duplicate_each_deal_is_played_once():
    res = tournament("debertz", DebertzRules(players=3), ["random", "random"], deals=600,
                     duplicate=False, seed=4)
    p = res["pairings"][0]
    assert p["items"] == 600 and p["deals_played"] == 600
    dup = tournament("debertz", DebertzRules(players=3), ["random", "random"], deals=600, seed=4)
    assert dup["pairings"][0]["deals_played"] == 600 * 6
    # luck no longer cancels: the paired interval is wider than with duplicate deals
    assert p["difference_ci95"] > dup["pairings"][0]["difference_ci95"]


def test_barbu_tournament_by_contract():
    from cardsim.barbu.rules import BarbuRules

    res = tournament("barbu", BarbuRules(), ["heuristic", "random"], deals=70, seed=1,
                     by_contract=True)
    rows = res["pairings"][0]["by_contract"]
    assert [r["contract"] for r in rows] == ["no_tricks", "no_queens", "no_last_two",
                                             "no_hearts", "no_king", "trumps", "domino"]
    assert all(r["items"] == 10 for r in rows)
    with pytest.raises(InvalidConfigError, match="by_contract"):
        Tournament("debertz", DebertzRules(), ["random", "random"], by_contract=True)


def test_barbu_patterns_rotate_the_lone_agent_through_all_seats():
    from cardsim.barbu.rules import BarbuRules

    pat = seating_patterns(BarbuRules(), 0, 1)
    assert pat.shape == (8, 4)
    assert sorted((pat == 0).sum(axis=1).tolist()) == [1, 1, 1, 1, 3, 3, 3, 3]


def test_results_and_pairings_are_one_table_each(tmp_path):
    """results.csv holds the agents, pairings.csv the paired differences, each one table
    with one header (Barbu contracts forced: a row per contract)."""
    import csv

    from experiments.runs.run import _pairings_csv, _tournament_csv
    from experiments.tournaments.tournament import tournament

    from cardsim.barbu.rules import BarbuRules

    result = tournament("barbu", BarbuRules(), ["heuristic", "random"], deals=28, seed=2,
                        by_contract=True)
    agents = list(csv.reader(_tournament_csv(result).splitlines()))
    assert agents[0][0] == "agent" and len(agents) == 3 and all(agents)
    pairs = list(csv.reader(_pairings_csv(result).splitlines()))
    assert pairs[0][:3] == ["agent_a", "agent_b", "contract"]
    assert [row[2] for row in pairs[1:]][0] == "all" and len(pairs) == 2 + 7
    assert all(len(row) == len(pairs[0]) for row in pairs)
