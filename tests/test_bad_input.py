"""Bad input on the command line, in YAML configs and run directories, as a new user gives
it: every case ends in one line and exit status 2 (or the typed exception from Python)
before anything is played, and nothing already written is lost or changed. The Python
API's own cases are in test_api_errors.py.

Nothing here plays more than a few deals; most cases are refused before any kernel runs.
"""

import os

import numpy as np
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


def refused_leaving_files_alone(capsys, folder, *argv) -> str:
    """The one-line refusal of the command line run beside a file ``folder``/afile; nothing
    under ``folder`` is made or changed (no .tmp file either)."""
    (folder / "afile").write_text("kept\n")
    before = files_under(folder)
    err = refused(capsys, *argv)
    assert files_under(folder) == before
    return err


# --------------------------------------------------------------------------------------------
# paths: checked before any work, nothing left behind
# --------------------------------------------------------------------------------------------
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
    refused(capsys, "simulate", "debertz", "--hands", "5", "--history", hist, "--force",
            "--agents", "oracle")
    assert hist.read_text() == "old records\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.jsonl"]


# --------------------------------------------------------------------------------------------
# results are never overwritten unless asked
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv, what", [
    (["simulate", "debertz", "--hands", "5", "--history"], "history file"),
    (["tournament", "debertz", "--agents", "random", "random", "--deals", "5", "--per-deal"],
     "per-deal file"),
])
def test_an_existing_output_file_is_kept_unless_forced(capsys, tmp_path, argv, what):
    path = tmp_path / "out.data"
    path.write_text("earlier results\n")
    err = refused(capsys, *argv, path)
    assert f"the {what} {path} already exists" in err and "--force" in err
    assert path.read_text() == "earlier results\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.data"]  # no temporary file
    assert main([*argv, str(path), "--force"]) == 0
    capsys.readouterr()
    assert path.read_bytes() != b"earlier results\n"
    # a per-deal file has its tournament's config beside it (what replays its deals)
    beside = ["out.json"] if what == "per-deal file" else []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.data", *beside]


def test_existing_outputs_refused_in_python_too(tmp_path):
    from cardsim.debertz.rules import DebertzRules
    from experiments.runs.simulate import simulate
    from experiments.tournaments.tournament import tournament

    path = tmp_path / "h.jsonl"
    path.write_text("kept\n")
    with pytest.raises(InvalidConfigError, match="already exists"):
        simulate("debertz", DebertzRules(), hands=2, history_path=path)
    with pytest.raises(InvalidConfigError, match="already exists"):
        tournament("debertz", DebertzRules(), ["random", "random"], deals=2, per_deal=path)
    assert path.read_text() == "kept\n"


def test_a_run_directory_is_never_reused(tmp_path):
    # run --out and train --out name the parent: each run makes a folder of its own, so an
    # earlier run's files are never written over, even when started in the same second
    from experiments.runs.rundir import create_run_dir

    first = create_run_dir(tmp_path, "r", {"a": 1}, {"m": 1}, "chunks")
    before = files_under(first)
    second = create_run_dir(tmp_path, "r", {"a": 2}, {"m": 2}, "chunks")
    third = create_run_dir(tmp_path, "r", {"a": 3}, {"m": 3}, "chunks")
    assert len({first, second, third}) == 3 and files_under(first) == before


def test_an_interrupted_history_leaves_no_file_under_its_name(tmp_path):
    from cardsim.records import RecordWriter
    from experiments.tournaments.per_deal import DTYPE, PerDealWriter

    path = tmp_path / "h.jsonl"
    with pytest.raises(KeyboardInterrupt), RecordWriter(path) as out:
        out.write({"deal": 0})
        raise KeyboardInterrupt
    assert not path.exists()
    rows = tmp_path / "rows.npy"
    with pytest.raises(KeyboardInterrupt), PerDealWriter(rows, 4) as out:
        out.write(np.zeros(2, DTYPE))
        raise KeyboardInterrupt
    assert list(tmp_path.glob("*rows*")) == []


def _config(tmp_path, **change):
    data = {"name": "c", "kind": "simulate", "game": "debertz", "agents": ["random"],
            "deals": 10, **change}
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


@pytest.mark.parametrize("option, path, words", [
    ("--history", "{tmp}", "is a directory"),
    ("--history", "", "needs a file name"),
    ("--history", "{tmp}/no/such/folder/h.jsonl", "does not exist"),
    ("--history", "/proc/h.jsonl", "not writable"),
    ("--history", "{tmp}/afile/h.jsonl", "is a file"),
    ("--out", "{tmp}/afile", "is not a folder"),
    ("--out", "{tmp}/afile/runs", "is not a folder"),
    ("--out", "/proc/runs", "not writable"),
    ("--out", "", "needs a folder name"),
])
def test_history_file_and_run_out_paths(capsys, tmp_path, option, path, words):
    """``simulate --history`` takes a file to write, ``run --out`` a folder."""
    command = (["simulate", "debertz", "--hands", "5"] if option == "--history"
               else ["run", _config(tmp_path)])
    assert words in refused_leaving_files_alone(capsys, tmp_path, *command,
                                                option, path.format(tmp=tmp_path))


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


def test_a_tournament_given_a_comma_list_says_to_separate_the_agents(capsys):
    err = refused(capsys, "tournament", "debertz", "--agents", "random,heuristic")
    assert "separate arguments (random heuristic)" in err


@pytest.mark.parametrize("argv, words", [
    # out-of-range integers
    (["--rule", "target=99999999999999999999"], "allowed: a positive integer up to"),
    (["--rule", "target=-5"], "allowed: a positive integer up to"),
    (["--rule", "byte_penalty=10000000000000000000000"],
     "allowed: a non-negative integer up to"),
    (["--rule", "first_dealer=99999999999999999999"], "first_dealer"),
    (["--players", "99999999999999999999"], "players"),
    (["--seed", "99999999999999999999"], "--seed"),
    (["--hands", "99999999999999999999"], "sane time"),
    (["--agents", "heuristic:aggression=99999999999999999999"], "allowed: a number in"),
    (["--agents", "heuristic:aggression=1e999"], "allowed: a number in"),
    # a bad switch says what it takes
    (["--rule", "teams=maybe"], "'teams' is a switch; got 'maybe', allowed: true/false"),
    (["--rule", "teams=2"], "'teams' is a switch"),
    (["--agents", "heuristic:swap=maybe"], "is not on or off; allowed: 0 or 1 (also true/false"),
    (["--agents", "heuristic:swap=2"], "allowed: 0 or 1"),
])
def test_out_of_range_integers_and_bad_switches_are_one_line(capsys, argv, words):
    assert words in refused(capsys, "simulate", "debertz", *argv)


@pytest.mark.parametrize("true, false", [("true", "false"), ("yes", "no"), ("1", "0"),
                                         ("on", "off"), ("True", "FALSE")])
def test_one_switch_syntax_for_rules_and_agent_options(true, false):
    from agents.registry import make_agent
    from cardsim.debertz.rules import DebertzRules

    rules = DebertzRules.from_overrides([f"teams={true}", "players=4",
                                         f"obligatory={false}"])
    assert rules.teams is True and rules.obligatory is False
    agent = make_agent(f"heuristic:swap={false},counting={true}", "debertz")
    assert agent.options == {"swap": 0, "counting": 1}
    assert agent.label == "heuristic:counting=1,swap=0"


def test_switches_from_yaml_take_the_same_values():
    from agents.registry import make_agent
    from cardsim.debertz.rules import DebertzRules

    assert DebertzRules.from_dict({"players": 4, "teams": 1}).teams is True
    assert make_agent({"name": "heuristic", "swap": False}, "debertz").options == {"swap": 0}


def test_rules_listing_states_the_switch_syntax(capsys):
    assert main(["rules", "debertz"]) == 0
    assert "true/false (also yes/no, on/off, 1/0)" in capsys.readouterr().out


def test_a_label_names_any_agent_in_tables():
    from agents.registry import make_agent
    from cardsim.debertz.rules import DebertzRules
    from experiments.tournaments.tournament import Tournament

    assert make_agent("random:label=R", "debertz").label == "R"
    assert make_agent({"name": "heuristic", "swap": 0, "label": "no-swap"},
                      "debertz").label == "no-swap"
    t = Tournament("debertz", DebertzRules(), ["heuristic:label=mine", "heuristic"], deals=2)
    assert t.labels == ["mine", "heuristic"]
    with pytest.raises(InvalidConfigError, match="label= needs a name"):
        make_agent("random:label=", "debertz")


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
    from experiments.runs.simulate import simulate
    from experiments.tournaments.tournament import Tournament

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
    assert "    doubles=1 (0 or 1 (also true/false, yes/no, on/off)): " in \
        capsys.readouterr().out


def test_table_explains_win_rates_with_more_than_two_sides():
    from cardsim.debertz.rules import DebertzRules
    from experiments.tournaments.tournament import format_table

    rules = DebertzRules(players=3)
    row = {"items": 10, "points_per_deal": 1.0, "ci95": 0.5, "win_rate": 0.3}
    result = {"game": "debertz", "rules": rules.to_dict(), "rules_hash": rules.rules_hash(),
              "seed": 0, "duplicate": True, "unit": "game", "items": 10, "ratings": None,
              "agents": [{**row, "agent": "a"}, {**row, "agent": "b"}], "pairings": []}
    assert "with 3 players each for themselves 0.333 is even" in format_table(result)


# --------------------------------------------------------------------------------------------
# a user's agent that raises
# --------------------------------------------------------------------------------------------
RAISING_BOT = '''
class Broken:
    def act(self, observations, legal_masks):
        raise ZeroDivisionError("my bug")
'''


@pytest.fixture
def raising_bot(tmp_path, monkeypatch):
    import sys

    (tmp_path / "raisingbots.py").write_text(RAISING_BOT)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "raisingbots:Broken"
    sys.modules.pop("raisingbots", None)


def test_an_agent_that_raises_is_one_line_naming_it_and_the_deal(capsys, raising_bot):
    code = main(["simulate", "debertz", "--hands", "3", "--agents", raising_bot, "random"])
    err = capsys.readouterr().err
    # the table is compiled first (its notice line), then the agent fails: one error line
    lines = [x for x in err.splitlines() if not x.startswith("compiling ")]
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith(f"cardsim: error: agent '{raising_bot}' raised "
                               f"ZeroDivisionError: my bug in deal 0 at seat 0")


def test_debug_prints_the_agents_traceback(capsys, raising_bot):
    for argv in (["--debug", "simulate"], ["simulate", "--debug"]):
        assert main([*argv, "debertz", "--hands", "3", "--agents", raising_bot]) == 2
        err = capsys.readouterr().err
        assert "Traceback" in err and 'raise ZeroDivisionError("my bug")' in err
        assert err.splitlines()[-1].startswith("cardsim: error: agent ")


def test_an_agent_that_raises_in_python_is_an_agent_error(raising_bot):
    from cardsim.debertz.rules import DebertzRules
    from cardsim.errors import AgentError
    from experiments.runs.simulate import simulate

    with pytest.raises(AgentError, match="raised ZeroDivisionError") as e:
        simulate("debertz", DebertzRules(), agents=[raising_bot], hands=2)
    assert isinstance(e.value.__cause__, ZeroDivisionError)


# --------------------------------------------------------------------------------------------
# summaries and damaged checkpoints
# --------------------------------------------------------------------------------------------
def test_a_summary_prints_a_dash_where_there_is_no_value():
    from experiments.runs.summary_text import format_summary

    text = format_summary({"game": "barbu", "compile_s": None,
                           "contracts": {"no_king": {"mean_deal_score": None, "deals": 0}}})
    assert "None" not in text
    assert "compile_s  -" in text and "mean_deal_score -, deals 0" in text


def test_a_damaged_checkpoints_message_is_whole(tmp_path, monkeypatch):
    pytest.importorskip("torch")
    import torch

    from agents.neural.checkpoint import load_checkpoint
    from cardsim.errors import CheckpointError

    path = tmp_path / "bad.pt"
    path.write_bytes(b"not a checkpoint")
    cause = "a long explanation " * 20 + "THE END"

    def fail(*args, **kw):
        raise RuntimeError(cause)

    monkeypatch.setattr(torch, "load", fail)
    with pytest.raises(CheckpointError) as e:
        load_checkpoint(path)
    assert str(e.value).endswith("THE END)")
