"""The leaderboard: a ladder run kept as data, and everything shown of strength and cost read
from it (cardsim agents, cardsim models, docs/leaderboard.md, the README's table)."""

import json

import pytest
import yaml

import experiments.tournaments.leaderboard as lb
from experiments.cli import main
from experiments.runs.run import start_run


@pytest.fixture(scope="module")
def tiny_ladder(tmp_path_factory):
    """A three-agent ladder of 2-player Debertz on a few deals, run once."""
    tmp = tmp_path_factory.mktemp("ladder")
    config = tmp / "ladder.yaml"
    config.write_text(yaml.safe_dump({
        "name": "ladder-tiny", "kind": "tournament", "game": "debertz",
        "rules": {"players": 2}, "deals": 12, "seed": 7, "chunk": 12,
        "agents": ["random", "heuristic:label=h", "neural:checkpoint=debertz-2p"]}))
    run_dir, result = start_run(config, tmp / "runs")
    return run_dir, result


@pytest.fixture
def kept(tiny_ladder, tmp_path, monkeypatch):
    monkeypatch.setattr(lb, "RESULTS_DIR", tmp_path / "results")
    return lb.ingest(tiny_ladder[0])


def test_a_ladder_run_is_kept_with_specs_figures_and_provenance(tiny_ladder, kept):
    run_dir, result = tiny_ladder
    data = json.loads(kept.read_text())
    assert kept.name == "ladder-debertz-2p.json"
    assert data["table"] == "debertz-2p" and data["deals"] == 12 and data["seed"] == 7
    assert data["reference"] == "pimc:samples=16" and data["commit"] and data["date"]
    assert [a["spec"] for a in data["agents"]] == ["random", "heuristic",
                                                   "neural:checkpoint=debertz-2p"]
    assert data["agents"][1]["label"] == "h"
    by_label = {r["agent"]: r for r in result["agents"]}
    for a in data["agents"]:
        assert a["points_per_deal"] == pytest.approx(by_label[a["label"]]["points_per_deal"])
    assert len(data["pairs"]) == 3
    d = lb.difference(data, "heuristic", "random")
    back = lb.difference(data, "random", "heuristic:label=x")
    assert d["difference"] == -back["difference"] and d["items"] == 12
    assert lb.difference(data, "heuristic", "pimc") is None  # they did not meet


def test_presets_show_their_measured_strength_against_the_reference(kept, capsys):
    text = lb.describe_presets("debertz-2p")
    assert "the ladder of" in text
    # pimc is not in the tiny ladder: measured rows say how they did against it, or not
    rows = {r["preset"]: r for r in lb.preset_rows("debertz-2p")}
    assert rows["network"]["measured"]["versus"] is None
    assert rows["network"]["measured"]["deals"] == 12
    assert rows["strongest"]["measured"] is None  # pimc:beliefs= was not seated
    assert main(["agents", "debertz", "--players", "2"]) == 0
    out = capsys.readouterr().out
    assert out.index("Presets at debertz-2p") < out.index("heuristic: Rule-based")
    assert "strongest  pimc:beliefs=debertz-2p-beliefs" in out


def test_a_card_takes_its_evaluation_from_the_ladder(kept):
    from agents.neural.zoo import card

    e = lb.card_evaluation("debertz-2p", card("debertz-2p"))
    assert e["as"] == "neural:checkpoint=debertz-2p" and e["deals"] == 12
    assert set(e["against"]) == {"heuristic"}  # pimc was not seated
    assert lb.card_evaluation("barbu", card("barbu")) is None  # no Barbu ladder kept here


def test_pages_are_written_from_the_data_and_a_change_is_caught(kept, tmp_path, monkeypatch):
    page = lb.leaderboard_markdown()
    assert "## Debertz, 2 players" in page and "`neural:checkpoint=debertz-2p`" in page
    assert "network" in page  # the preset that names it
    assert "Not run yet" in page  # the other tables
    readme = lb.readme_table()
    assert readme.startswith(lb.README_START) and readme.endswith(lb.README_END)
    assert "| Debertz, 2 players | `fast` | `neural:checkpoint=debertz-2p` |" in readme


def test_cost_is_measured_again_without_touching_the_strength_figures(kept):
    before = json.loads(kept.read_text())
    assert before["cost"]["rounds"] == 1  # a run measures its cost only when asked: in play
    path = lb.refresh_cost("debertz-2p", rounds=2)
    after = json.loads(path.read_text())
    assert after["cost"]["rounds"] == 2 and after["cost"]["positions"] > 5
    assert after["cost"]["machine"] == lb.machine() and after["cost"]["commit"]
    assert after["pairs"] == before["pairs"]
    for a, b in zip(before["agents"], after["agents"]):
        assert a["points_per_deal"] == b["points_per_deal"] and b["us_per_decision"] > 0
    network = after["agents"][2]
    assert network["us_one_call"] > 0  # a Python agent: one position a call, and in a batch
    assert after["agents"][1]["us_one_call"] is None  # compiled: one figure
    assert "median of 2 rounds" in lb.cost_provenance(after)


def test_kept_presets_are_in_their_cost_class():
    # strongest: at most 100 ms a decision on one core; fast: at most 1/100 of the table's
    # pimc, as the kept ladders measured them
    for table in lb.TABLES:
        data = lb.load(table)
        if data is None:
            continue
        cost = {r["preset"]: r["measured"]["us_per_decision"]
                for r in lb.preset_rows(table) if r["measured"]}
        reference = lb.agent_row(data, data["reference"])["us_per_decision"]
        assert cost["strongest"] <= 100_000, table
        assert cost["fast"] <= reference / 100, (table, cost["fast"], reference)


def test_the_committed_pages_and_cards_equal_the_committed_data():
    # docs/leaderboard.md, the README's table and every model card's evaluation are made
    # from experiments/results/ by `cardsim leaderboard --write`
    assert lb.stale_pages() == []


def test_leaderboard_command_prints_standings_and_refuses_an_unknown_table(capsys):
    assert main(["leaderboard", "debertz-2p"]) == 0
    assert "Debertz, 2 players (debertz-2p)" in capsys.readouterr().out
    assert main(["leaderboard", "debertz-5p"]) == 2
    assert "unknown table 'debertz-5p'" in capsys.readouterr().err


def test_models_command_lists_the_zoo_and_shows_a_card(capsys):
    assert main(["models"]) == 0
    out = capsys.readouterr().out
    assert "debertz-2p " in out and "barbu-critic" in out and "8 networks" in out
    assert main(["models", "barbu-critic"]) == 0
    out = capsys.readouterr().out
    assert "seat it as     neural:checkpoint=barbu-critic" in out and "sha256" in out
    assert "configs/train/barbu_dmc.yaml" in out
    assert main(["models", "debertz-3p", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["table"] == "debertz-3p"
    assert main(["models", "debertz-3p-exact-trick"]) == 2
    assert "now called 'debertz-3p'" in capsys.readouterr().err
