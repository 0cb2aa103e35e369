"""Bad input on the command line, in YAML configs and run directories, as a new user gives
it: every case ends in one line and exit status 2 (or the typed exception from Python)
before anything is played, and nothing already written is lost or changed. The Python
API's own cases are in test_api_errors.py.

Nothing here plays more than a few deals; most cases are refused before any kernel runs.
"""

import os

import pytest
import yaml

from cardsim.errors import InvalidConfigError
from experiments.cli import main


def refused(capsys, *argv) -> str:
    """Run the command line in-process; it must fail with one line and status 2."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert err.startswith("cardsim: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err and out == ""
    return err


def files_under(path) -> dict:
    """Every file under ``path`` with its bytes (to show that nothing changed)."""
    return {p: open(os.path.join(d, p), "rb").read()
            for d, _, names in os.walk(path) for p in names}


# --------------------------------------------------------------------------------------------
# paths: checked before any work, nothing left behind
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("history, words", [
    ("{tmp}", "is a directory"),
    ("", "needs a file name"),
    ("{tmp}/no/such/folder/h.jsonl", "does not exist"),
    ("/proc/h.jsonl", "not writable"),
    ("{tmp}/afile/h.jsonl", "is a file"),
])
def test_history_paths(capsys, tmp_path, history, words):
    (tmp_path / "afile").write_text("kept\n")
    before = files_under(tmp_path)
    err = refused(capsys, "simulate", "debertz", "--hands", "5",
                  "--history", history.format(tmp=tmp_path))
    assert words in err
    assert files_under(tmp_path) == before  # no .tmp file, nothing changed


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_history_in_a_read_only_folder(capsys, tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        assert "not writable" in refused(capsys, "simulate", "debertz", "--history",
                                         ro / "h.jsonl")
        assert list(ro.iterdir()) == []
    finally:
        ro.chmod(0o755)


def test_existing_history_kept_when_the_run_is_refused(capsys, tmp_path):
    hist = tmp_path / "h.jsonl"
    hist.write_text("old records\n")
    refused(capsys, "simulate", "debertz", "--hands", "5", "--history", hist,
            "--agents", "oracle")
    assert hist.read_text() == "old records\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.jsonl"]


def _config(tmp_path, **change):
    data = {"name": "c", "kind": "simulate", "game": "debertz", "agents": ["random"],
            "deals": 10, **change}
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


@pytest.mark.parametrize("out, words", [
    ("{tmp}/afile", "is not a folder"),
    ("{tmp}/afile/runs", "is not a folder"),
    ("/proc/runs", "not writable"),
    ("", "needs a folder name"),
])
def test_run_out_paths(capsys, tmp_path, out, words):
    (tmp_path / "afile").write_text("kept\n")
    cfg = _config(tmp_path)
    before = files_under(tmp_path)
    assert words in refused(capsys, "run", cfg, "--out", out.format(tmp=tmp_path))
    assert files_under(tmp_path) == before


@pytest.mark.parametrize("change, words", [
    ({"agents": ["random", "random", "random"]}, "3 agents given for 2 seats"),
    ({"agents": ["random,heuristic"]}, "separate arguments"),
    ({"kind": "tournament", "history": True}, "'history' is read by simulate runs only"),
    ({"duplicate": False}, "'duplicate' is read by tournament runs only"),
    ({"by_contract": True}, "'by_contract' is read by tournament runs only"),
    ({"game": "barbu", "kind": "tournament", "agents": ["random", "random"],
      "by_contract": True, "games": 2, "deals": None}, "by_contract"),
    ({"deals": 10**12}, "sane time"),
    ({"kind": "tournament", "agents": ["random", "random"], "deals": 10**10}, "sane time"),
    ({"threads": 100000}, "'threads'"),
    ({"deals": 0}, "'deals'"),
])
def test_config_errors_name_the_file_and_leave_no_run_directory(capsys, tmp_path, change,
                                                                words):
    cfg = _config(tmp_path, **change)
    err = refused(capsys, "run", cfg, "--out", tmp_path / "runs")
    assert words in err and str(cfg) in err
    assert not (tmp_path / "runs").exists()


def test_resume_does_not_take_out(capsys, tmp_path):
    assert "drop --out" in refused(capsys, "run", "--resume", tmp_path, "--out", tmp_path)


def test_resume_of_a_damaged_config_names_it(capsys, tmp_path):
    (tmp_path / "config.yaml").write_text("name: [unclosed\n")
    err = refused(capsys, "run", "--resume", tmp_path)
    assert "config.yaml" in err


# --------------------------------------------------------------------------------------------
# one agent-spec grammar
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("agents, words", [
    (["random,heuristic"], "separate arguments (random heuristic)"),
    (["heuristic:aggression=0.5,random"], "separate arguments"),
    (["mybots:Bot,random"], "separate arguments (mybots:Bot random)"),
    (["heuristic:swap=0.5"], "allowed: 0 or 1"),
    (["heuristic:counting=2"], "allowed: 0 or 1"),
    (["heuristic:aggression=2"], "allowed: a number in [0, 1]"),
    (["heuristic:aggression=lots"], "not a number"),
    (["random", "random", "random"], "3 agents given for 2 seats"),
])
def test_agent_specs(capsys, agents, words):
    assert words in refused(capsys, "simulate", "debertz", "--hands", "5", "--agents", *agents)


def test_agent_grammar_in_python():
    from agents.registry import make_agent, parse_spec

    assert parse_spec("heuristic:aggression=0.5,swap=0") == ("heuristic",
                                                             {"aggression": 0.5, "swap": 0})
    agent = make_agent({"name": "heuristic", "swap": 0, "counting": 1}, "debertz")
    assert agent.options == {"swap": 0, "counting": 1}
    with pytest.raises(InvalidConfigError, match="0 or 1"):
        make_agent({"name": "heuristic", "doubles": 0.3}, "barbu")


# --------------------------------------------------------------------------------------------
# conflicts and counts
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv, words", [
    (["simulate", "debertz", "--rule", "players=4", "--players", "2"], "both set 'players'"),
    (["simulate", "debertz", "--teams", "--rule", "teams=true"], "both set 'teams'"),
    (["simulate", "debertz", "--teams", "--rule", "players=3"], "needs players = 4"),
    (["simulate", "debertz", "--hands", str(10**11)], "sane time"),
    (["tournament", "debertz", "--agents", "random", "random", "--deals", str(10**10)],
     "sane time"),
    (["simulate", "debertz", "--threads", "100000"], "at most 256"),
    (["tournament", "debertz", "--agents", *["random"] * 11, "--deals", str(10**8)],
     "deals x 55 pairings = 5,500,000,000"),
])
def test_conflicts_and_limits(capsys, argv, words):
    assert words in refused(capsys, *argv)


def test_limits_hold_in_python_too():
    from cardsim.debertz.rules import DebertzRules
    from experiments.simulate import simulate
    from experiments.tournament import Tournament

    with pytest.raises(InvalidConfigError, match="sane time"):
        simulate("debertz", DebertzRules(), hands=10**11)
    with pytest.raises(InvalidConfigError, match="sane time"):
        Tournament("debertz", DebertzRules(), ["random", "random"], deals=10**10)


# --------------------------------------------------------------------------------------------
# the first things a user meets
# --------------------------------------------------------------------------------------------
def test_version(capsys):
    import cardsim

    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0 and capsys.readouterr().out == f"cardsim {cardsim.__version__}\n"


def test_output_into_a_closed_pipe_ends_quietly(capsys, monkeypatch):
    import sys

    read, write = os.pipe()
    os.close(read)  # the reader has gone, as `head` does after its lines
    with os.fdopen(write, "w", buffering=1) as stream:
        monkeypatch.setattr(sys, "stdout", stream)
        assert main(["rules", "debertz"]) == 1
        monkeypatch.undo()
    assert capsys.readouterr().err == ""


def test_agents_listing_describes_every_agent(capsys):
    for game in ("debertz", "barbu"):
        assert main(["agents", game]) == 0
        heads = [line for line in capsys.readouterr().out.splitlines()
                 if line.startswith(("random:", "heuristic:"))]
        assert len(heads) == 2
        assert all(len(line.split(": ", 1)[1]) > 30 for line in heads), heads
        assert "(module doc string)" not in "".join(heads)
    assert main(["agents", "barbu"]) == 0
    assert "    doubles=1 (0 or 1): " in capsys.readouterr().out


def test_table_explains_win_rates_with_more_than_two_sides():
    from cardsim.debertz.rules import DebertzRules
    from experiments.tournament import format_table

    rules = DebertzRules(players=3)
    row = {"items": 10, "points_per_deal": 1.0, "ci95": 0.5, "win_rate": 0.3}
    result = {"game": "debertz", "rules": rules.to_dict(), "rules_hash": rules.rules_hash(),
              "seed": 0, "duplicate": True, "unit": "game", "items": 10, "ratings": None,
              "agents": [{**row, "agent": "a"}, {**row, "agent": "b"}], "pairings": []}
    assert "with 3 players each for themselves 0.333 is even" in format_table(result)
