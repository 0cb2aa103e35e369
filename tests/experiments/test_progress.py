"""Long waits say what is happening: progress lines in logs (stderr not a terminal), and on
Ctrl-C a message that is true for the command (issue: no silent wait)."""

import io

import pytest
import yaml

from experiments.cli import main
from experiments.runs.progress import LineProgress, progress_bar, progress_mode


def test_progress_mode_follows_where_stderr_goes():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    assert progress_mode(stream=Terminal()) == "bar"
    assert progress_mode(stream=io.StringIO()) == "lines"  # a log file, a pipe
    assert progress_mode(quiet=True, stream=Terminal()) is None  # --json


def test_a_line_every_five_percent_and_at_the_end():
    out = io.StringIO()
    with LineProgress(1000, "deal", what="tournament", stream=out) as bar:
        for _ in range(40):
            bar.update(24)  # 960 deals: 19 marks of 5% passed (950 is the 19th)
        assert len(out.getvalue().splitlines()) == 19
        bar.set_postfix(loss=0.123456)
        bar.update(40)
    lines = out.getvalue().splitlines()
    assert len(lines) == 20
    assert lines[0].startswith("tournament: 7% (72/1,000 deals, ")  # the first past 5%
    assert lines[-1].startswith("tournament: 100% (1,000/1,000 deals, ")
    assert lines[-1].endswith(", loss=0.1235)")


def test_a_resumed_count_starts_from_where_it_was():
    out = io.StringIO()
    bar = LineProgress(100, "iteration", initial=50, what="train", stream=out)
    bar.update(4)
    assert out.getvalue() == ""  # 54%: the 50% mark was passed before the resume
    bar.update(1)
    assert out.getvalue().startswith("train: 55% (55/100 iterations, ")


def test_no_progress_prints_nothing(capsys):
    with progress_bar(10, None, "deal") as bar:
        bar.update(10)
    assert capsys.readouterr().err == ""


def _interrupt(*args, **kw):
    raise KeyboardInterrupt


def test_an_interrupted_run_names_the_directory_to_resume(tmp_path, capsys, monkeypatch):
    from experiments.tournaments import tournament

    cfg = tmp_path / "t.yaml"
    cfg.write_text(yaml.safe_dump({"name": "t", "kind": "tournament", "game": "debertz",
                                   "agents": ["random", "random"], "rules": {"players": 2},
                                   "deals": 10}))
    monkeypatch.setattr(tournament.Tournament, "play_chunk", _interrupt)
    assert main(["run", str(cfg), "--out", str(tmp_path / "runs")]) == 130
    run_dir = next((tmp_path / "runs").iterdir())
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err == (f"cardsim: interrupted; finished chunks are kept in {run_dir}: "
                   f"cardsim run --resume {run_dir}")


def test_an_interrupted_training_names_the_directory_to_resume(tmp_path, capsys,
                                                               monkeypatch):
    from experiments.train import loop

    cfg = tmp_path / "train.yaml"
    cfg.write_text(yaml.safe_dump({"name": "tiny", "game": "debertz", "algorithm": "dmc",
                                   "rules": {"players": 2}, "iterations": 2}))
    monkeypatch.setattr(loop, "Trainer", _interrupt)
    assert main(["train", str(cfg), "--out", str(tmp_path / "runs")]) == 130
    run_dir = next((tmp_path / "runs").iterdir())
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.endswith(f"are kept in {run_dir}: cardsim train --resume {run_dir}")


@pytest.mark.parametrize("command", ["tournament", "simulate"])
def test_an_interrupted_plain_command_says_nothing_is_kept(command, capsys, monkeypatch):
    from experiments.runs import simulate
    from experiments.tournaments import tournament

    monkeypatch.setattr(tournament, "tournament", _interrupt)
    monkeypatch.setattr(simulate, "simulate", _interrupt)
    argv = [command, "debertz", "--agents", "random", "random", "--seed", "1"]
    assert main(argv) == 130
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith(f"cardsim: interrupted; nothing is kept (a {command} writes")
    assert "resume" not in err.split(";")[1].split("(")[0]
