"""Smoke runs of every command of the ``cardsim`` command line, and its argument errors."""

import json

import pytest

from experiments.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_prints_a_summary(capsys):
    code, out, _ = run(capsys, "simulate", "debertz", "--hands", "200", "--seed", "3")
    assert code == 0
    assert "mean_round_points" in out and "byte_rate" in out and "meld_frequency" in out
    assert "compile_s" in out  # compiling (or loading the cache) apart from the play


def test_several_agents_each_with_several_options(capsys):
    code, out, _ = run(capsys, "simulate", "debertz", "--hands", "20", "--json", "--agents",
                       "heuristic:aggression=0.5,swap=0", "random")
    assert code == 0
    assert json.loads(out)["agents"] == ["heuristic:aggression=0.5,swap=0", "random"]


def test_simulate_json_games_and_history(capsys, tmp_path):
    hist = tmp_path / "h.jsonl"
    code, out, _ = run(capsys, "simulate", "debertz", "--games", "2", "--players", "3",
                       "--rule", "target=301", "--history", str(hist), "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["games_finished"] == 2
    lines = hist.read_text().splitlines()
    assert len(lines) == summary["deals"]
    assert json.loads(lines[0])["rules"]["target"] == 301


def test_same_seed_same_summary_any_threads(capsys):
    _, a, _ = run(capsys, "simulate", "debertz", "--hands", "300", "--teams", "--json")
    _, b, _ = run(capsys, "simulate", "debertz", "--hands", "300", "--teams", "--json",
                  "--threads", "2")
    a, b = json.loads(a), json.loads(b)
    for d in (a, b):
        for key in ("seconds", "deals_per_s", "compile_s"):
            d.pop(key)
    assert a == b


def test_bench_json_keys(capsys):
    code, out, _ = run(capsys, "bench", "debertz", "--hands", "1000", "--players", "4",
                       "--teams", "--json")
    assert code == 0
    result = json.loads(out)
    assert {"hands_per_s", "compile_s", "peak_memory_mb"} <= set(result)


def test_rules_lists_conventions(capsys):
    code, out, _ = run(capsys, "rules", "debertz")
    assert code == 0 and "overtrump_on_ruff" in out


@pytest.mark.parametrize("argv, words", [
    (["simulate", "debertz", "--rule", "nonsense=1"], "unknown debertz rule 'nonsense'"),
    (["simulate", "debertz", "--rule", "end_mode=never"], "end_mode"),
    (["simulate", "debertz", "--players", "7"], "players"),
    (["simulate", "debertz", "--hands", "0"], "positive"),
    (["simulate", "chess"], "invalid choice"),
    (["simulate", "debertz", "--hands", "5", "--games", "5"], "not allowed"),
    (["simulate", "debertz", "--hands", "5", "--history", "/proc/no/such/file"], "cannot write"),
    (["tournament", "debertz", "--agents", "random", "random", "--deals", "5", "--per-deal",
      "/proc/no/such/file.npy"], "per-deal file"),
])
def test_bad_arguments_give_one_line_and_status_2(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert words in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_tournament_command(capsys):
    code, out, _ = run(capsys, "tournament", "debertz", "--agents", "random", "random",
                       "--deals", "500", "--players", "3")
    assert code == 0 and "95% CI" in out and "random - random#2" in out
    code, out, _ = run(capsys, "tournament", "debertz", "--agents", "random", "random",
                       "--games", "5", "--teams", "--json")
    assert json.loads(out)["pairings"][0]["win_rate"] is not None


def test_run_command_and_resume(capsys, tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("name: c\nkind: tournament\ngame: debertz\nagents: [random, random]\n"
                   "deals: 300\nchunk: 100\n")
    code, out, _ = run(capsys, "run", str(cfg), "--out", str(tmp_path / "runs"))
    assert code == 0 and "run directory:" in out
    run_dir = out.strip().splitlines()[-1].split(": ", 1)[1]
    code, out2, _ = run(capsys, "run", "--resume", run_dir)
    assert code == 0 and out2.splitlines()[0] == out.splitlines()[0]
    code, _, err = run(capsys, "run")
    assert code == 2 and "config file or --resume" in err
    code, _, err = run(capsys, "run", str(tmp_path / "nope.yaml"))
    assert code == 2 and "cannot read config" in err


def test_agents_and_rules_listing(capsys):
    code, out, _ = run(capsys, "agents", "debertz")
    assert code == 0 and "random:" in out and "heuristic:" in out
    code, out, _ = run(capsys, "rules", "barbu")
    assert code == 0 and "king_lead_rule" in out


def test_barbu_commands(capsys, tmp_path):
    code, out, _ = run(capsys, "simulate", "barbu", "--hands", "56", "--agents", "heuristic")
    assert code == 0 and "no_king" in out and "doubling" in out
    assert "match_results" not in out  # hands mode plays no whole match
    hist = tmp_path / "b.jsonl"
    code, out, _ = run(capsys, "simulate", "barbu", "--games", "1", "--history", str(hist),
                       "--json")
    assert code == 0 and json.loads(out)["matches"] == 1
    assert len(hist.read_text().splitlines()) == 28
    code, out, _ = run(capsys, "bench", "barbu", "--hands", "500", "--json")
    assert code == 0 and json.loads(out)["hands_per_s"] > 0
    code, out, _ = run(capsys, "tournament", "barbu", "--agents", "heuristic", "random",
                       "--deals", "14", "--by-contract")
    assert code == 0 and "domino" in out
    header = next(line for line in out.splitlines() if "contract" in line.split()[:1])
    assert header.split()[:3] == ["contract", "heuristic", "random"]
    code, _, err = run(capsys, "simulate", "barbu", "--players", "3")
    assert code == 2 and "Debertz options" in err
    code, _, err = run(capsys, "simulate", "barbu", "--agents", "random", "random")
    assert code == 2 and "2 agents given for 4 seats" in err
