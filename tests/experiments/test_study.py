"""Rules studies (experiments.tournaments.study, ``cardsim study``, ``kind: study`` runs): the same
deals under every variant, paired differences, exact statistics, resume, one-line errors."""

import json
from pathlib import Path

import numpy as np
import pytest
import yaml

from experiments.cli import main
from experiments.runs.config import config_from_dict, load_config, study_of
from experiments.runs.run import resume_run, start_config, start_run
from experiments.tournaments.stats import mean_ci
from experiments.tournaments.study import Study

STUDIES = sorted((Path(__file__).resolve().parents[2] / "configs" / "studies").glob("*.yaml"))


def _study_config(**over):
    data = {"name": "t", "kind": "study", "game": "debertz", "agents": ["random"],
            "skill": False, "deals": 96, "chunk": 40, "vary": {"seven_swap": [True, False]}}
    data.update(over)
    return config_from_dict(data)


def test_debertz_variant_against_itself_differs_by_exactly_zero():
    s = Study("debertz", {"players": 3}, {"seven_swap": [True, True]}, agents=["random"],
              skill=["random", "random"], deals=50)
    units = s.play_chunk(0, 50)
    assert (units[:, 0] == units[:, 1]).all()
    s.add(s.tally(0, 50, units))
    r = s.result()
    assert r["variants"][1]["variant"] == "seven_swap=true #2"
    for row in r["ranked"]:
        assert row["difference"] == 0 and row["ci95"] == 0 and not row["significant"]
    assert r["summary"][0].startswith("No measure differs significantly")


def test_debertz_convention_that_cannot_matter_shows_no_effect(capsys, tmp_path):
    # D8.4 concerns a trick that already holds a trump when a plain suit was led: with two
    # players the second card of a trick is the last, so the rule never applies
    code = main(["study", "debertz", "--rule", "overtrump_on_ruff=false,true", "--agents",
                 "random", "--no-skill", "--deals", "60", "--out", str(tmp_path), "--json"])
    assert code == 0
    r = json.loads(capsys.readouterr().out)
    assert r["items"] == 60 and r["unit"] == "deals" and len(r["variants"]) == 2
    assert not any(row["significant"] for row in r["ranked"])
    assert all(row["difference"] == 0 for row in r["ranked"])
    assert (Path(r["run_dir"]) / "plots" / "byte.png").is_file()


def test_debertz_study_statistics_equal_per_deal_values_and_resume(tmp_path):
    cfg = _study_config(per_deal=True, vary={"seven_swap": [True, False],
                                             "no_trick_penalty": [0, 100]})
    run_dir, result = start_config(cfg, tmp_path)
    values = np.concatenate([np.load(p) for p in sorted(
        (run_dir / "deals").glob("*.npy"), key=lambda p: int(p.stem.split("-")[1]))])
    assert values.shape == (96, 4, len(result["measures"]))
    # the same study in other chunks, unrounded: equal to the values' own statistics
    study = study_of(cfg)
    for lo, hi in ((0, 50), (50, 96)):
        study.add(study.tally(lo, hi, study.play_chunk(lo, hi)))
    exact = study.result()
    for j, m in enumerate(exact["measures"]):
        for v, row in enumerate(m["variants"]):
            mean, half = mean_ci(values[:, v, j])
            assert row["mean"] == pytest.approx(mean, abs=1e-12)
            assert row["ci95"] == pytest.approx(half, abs=1e-12)
        for v, row in enumerate(m["differences"], start=1):
            mean, half = mean_ci(values[:, v, j] - values[:, 0, j])
            assert row["difference"] == pytest.approx(mean, abs=1e-12)
            assert row["ci95"] == pytest.approx(half, abs=1e-12)
    for m, rounded in zip(exact["measures"], result["measures"]):  # the run's, rounded
        for a, b in zip(m["variants"], rounded["variants"]):
            assert b["mean"] == pytest.approx(a["mean"], rel=1e-5, abs=1e-9)
    # the seven swap happens only when it is allowed; the penalty only lowers points
    swap = next(m for m in result["measures"] if m["name"] == "seven_swap")
    for row in swap["variants"]:  # V0..V3: (true, 0), (true, 100), (false, 0), (false, 100)
        assert (row["mean"] > 0) == ("seven_swap=true" in row["variant"])
    for name in ("effects.csv", "results.csv", "table.txt", "plots/effects.png"):
        assert (run_dir / name).is_file()
    # a lost chunk is played again on resume, and the result is the same
    (run_dir / "chunks" / "items-40-80.npz").unlink()
    again = resume_run(run_dir)[1]
    assert again["measures"] == result["measures"]


def test_barbu_study_runs_with_skill_margin(tmp_path):
    s = Study("barbu", {}, {"king_must_discard": [False, True]}, agents=["random"],
              skill=["heuristic", "random"], deals=21)
    units = s.play_chunk(0, 21)
    s.add(s.tally(0, 21, units))
    r = s.result()
    names = [m["name"] for m in r["measures"]]
    assert "doubled_pairs" in names and "contract_domino" in names
    margin = r["measures"][-1]
    assert margin["name"] == "skill_margin" and margin["variants"][0]["mean"] > 0
    contracts = sum(next(m for m in r["measures"] if m["name"] == f"contract_{c}")
                    ["variants"][0]["mean"] for c in ("no_tricks", "no_queens", "no_last_two",
                                                      "no_hearts", "no_king", "trumps",
                                                      "domino"))
    assert contracts == pytest.approx(1.0)


def test_debertz_whole_game_study_measures_game_length(capsys, tmp_path):
    # whole games to 101: the byte penalty changes the scores, so the length of the games
    code = main(["study", "debertz", "--rule", "byte_penalty=100,0", "--rule", "target=101",
                 "--agents", "random", "--skill", "heuristic", "random", "--games", "30",
                 "--out", str(tmp_path), "--json"])
    assert code == 0
    r = json.loads(capsys.readouterr().out)
    assert r["unit"] == "games" and r["items"] == 30
    names = {m["name"]: m for m in r["measures"]}
    assert names["game_deals"]["variants"][0]["mean"] >= 1
    wins = sum(names[k]["variants"][0]["mean"] for k in ("win_hand1", "win_dealer"))
    assert wins == pytest.approx(1.0)
    assert names["skill_win_margin"]["variants"][0]["mean"] > 0


def test_barbu_whole_match_measures_split_shared_wins():
    s = Study("barbu", {}, {"trumps_must_ruff": [True, False]}, agents=["random"],
              skill=None, deals=None, games_count=2)
    units = s.play_chunk(0, 2)
    wins = units[:, :, :4].sum(axis=2)  # the four positions' win shares, in 1/12
    assert (wins == 12).all()


@pytest.mark.parametrize("rule, words", [
    ("declare=first_trick,sometimes", ['"first_trick", "before_play"']),
    ("seven_swap=true,maybe", ["switch", "true/false"]),
    ("no_trick_penalty=0,70", ["0, 50, 100"]),
    ("sevenswap=true,false", ["unknown debertz rule", "seven_swap"]),
    ("players=2,3", ["changes the deal itself"]),
    ("seven_swap=false", ["varies at least one convention"]),
])
def test_bad_rule_values_are_one_line_errors_naming_what_is_allowed(rule, words, capsys,
                                                                     tmp_path):
    code = main(["study", "debertz", "--rule", rule, "--deals", "5", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith("cardsim: error:")
    for w in words:
        assert w in err
    assert not any(tmp_path.iterdir())  # nothing was made


def test_study_config_keys_are_checked():
    with pytest.raises(Exception, match="'vary'"):
        _study_config(vary={})
    with pytest.raises(Exception, match="'skill'"):
        _study_config(skill=["heuristic"])
    with pytest.raises(Exception, match="read by study runs only"):
        config_from_dict({"name": "t", "kind": "tournament", "game": "debertz",
                          "agents": ["random", "heuristic"], "vary": {"seven_swap": [1, 0]}})
    assert _study_config(skill=None).skill == ["heuristic", "random"]


def test_there_are_ready_studies_of_both_games():
    names = [p.name for p in STUDIES]
    assert any(n.startswith("debertz") for n in names)
    assert any(n.startswith("barbu") for n in names)


@pytest.mark.parametrize("path", STUDIES, ids=lambda p: p.name)
def test_ready_study_runs_on_a_small_budget(path, tmp_path):
    cfg = load_config(path)
    assert cfg.kind == "study" and cfg.vary
    data = cfg.to_dict()
    for key, small in (("deals", 14), ("games", 2)):
        if data[key] is not None:
            data[key] = small
    data["chunk"] = 7
    small = tmp_path / path.name
    small.write_text(yaml.safe_dump(data))
    run_dir, result = start_run(small, tmp_path / "runs")
    assert result["items"] == data["deals"] or result["items"] == data["games"]
    assert (run_dir / "plots" / "effects.png").is_file() or not any(
        r["effect_size"] is not None for r in result["ranked"])


def test_debertz_first_dealers_are_the_engines_draws():
    from cardsim.debertz import layout as L
    from cardsim.debertz.engine_nb import init_game
    from cardsim.debertz.measures import first_dealers
    from cardsim.debertz.rules import DebertzRules

    rules = DebertzRules(players=3)
    S = np.zeros((40, L.STATE_WIDTH), dtype=np.int64)
    for i in range(40):
        init_game(S[i], rules.pack(), 7, i)
    assert (first_dealers(S, rules) == S[:, L.DEALER]).all()
