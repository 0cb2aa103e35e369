"""Resume never mixes runs: a changed config is refused in one line (exit 2) and nothing in
the run directory changes; more deals extend a run; damaged files are replayed or refused
without a traceback; run directories from before chunk tallies still resume. JSON is valid."""

import json
import shutil

import numpy as np
import pytest
import yaml

from cardsim.errors import InvalidConfigError
from experiments.cli import main
from experiments.runs.files import atomic_save_npz
from experiments.runs.run import resume_run, start_run
from experiments.tournaments.tournament import Tournament
from tests.experiments.untimed import untimed, untimed_table

BASE = {"name": "t", "kind": "tournament", "game": "debertz", "agents": ["heuristic", "random"],
        "rules": {"players": 2}, "deals": 500, "chunk": 100, "seed": 3}


def _start(tmp_path, cfg=BASE, name="runs"):
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(cfg))
    return start_run(path, tmp_path / name)


def _snapshot(run_dir):
    return {p.relative_to(run_dir): p.read_bytes() for p in sorted(run_dir.rglob("*"))
            if p.is_file()}


def _edit_config(run_dir, **change):
    path = run_dir / "config.yaml"
    data = yaml.safe_load(path.read_text())
    data.update(change)
    path.write_text(yaml.safe_dump(data, sort_keys=False))


def _cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("change, words", [
    ({"seed": 7}, "seed was 3 and config.yaml now says 7"),
    ({"rules": {"players": 2, "target": 301}}, "rules_hash was"),
    ({"agents": ["random", "heuristic"]}, "agents was"),
    ({"duplicate": False}, "duplicate was True"),
    ({"chunk": 50}, "chunk was 100"),
    ({"deals": 300}, "items was 500 and config.yaml now says 300"),
    ({"deals": None, "games": 5}, "unit was 'deals'"),
])
def test_resume_with_a_changed_config_is_refused_and_changes_nothing(tmp_path, capsys,
                                                                      change, words):
    run_dir, _ = _start(tmp_path)
    capsys.readouterr()  # what the first run printed (a compile notice on a cold cache)
    _edit_config(run_dir, **change)
    before = _snapshot(run_dir)
    code, out, err = _cli(capsys, "run", "--resume", str(run_dir))
    assert code == 2 and words in err and "only deals or games may grow" in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert _snapshot(run_dir) == before


def test_a_changed_seed_is_refused_even_when_meta_json_is_gone(tmp_path):
    run_dir, _ = _start(tmp_path)
    (run_dir / "meta.json").unlink()
    _edit_config(run_dir, seed=0)
    with pytest.raises(InvalidConfigError, match="seed was 3"):
        resume_run(run_dir)


def test_more_deals_extend_the_run(tmp_path, monkeypatch):
    run_dir, _ = _start(tmp_path)
    _, fresh = _start(tmp_path, {**BASE, "deals": 750}, name="fresh")
    _edit_config(run_dir, deals=750)
    played = []
    original = Tournament.play_chunk
    monkeypatch.setattr(Tournament, "play_chunk",
                        lambda self, k, lo, hi, *a: played.append(lo) or original(self, k, lo,
                                                                                   hi, *a))
    _, extended = resume_run(run_dir)
    assert played == [500, 600, 700]
    for key in ("agents", "pairings", "items"):
        assert untimed(extended)[key] == untimed(fresh)[key]


def test_a_damaged_chunk_is_played_again(tmp_path, capsys):
    run_dir, full = _start(tmp_path)
    (run_dir / "chunks" / "pairing0-200-300.npz").write_bytes(b"not a zip file")
    (run_dir / "chunks" / "pairing0-300-400.npz").write_bytes(b"PK\x03\x04 truncated")
    code, out, err = _cli(capsys, "run", "--resume", str(run_dir))
    assert code == 0 and "Traceback" not in err and "damaged; playing it again" in err
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["pairings"] == full["pairings"]
    assert untimed_table(summary["table"]) == untimed_table(full["table"])


@pytest.mark.parametrize("text, words", [("name: [unclosed\n", "not valid YAML"),
                                         ("- just\n- a list\n", "must be a mapping"),
                                         ("name: t\nkind: race\ngame: debertz\n", "'kind'")])
def test_an_invalid_config_yaml_gives_one_line(tmp_path, capsys, text, words):
    run_dir, _ = _start(tmp_path)
    (run_dir / "config.yaml").write_text(text)
    before = _snapshot(run_dir)
    code, _, err = _cli(capsys, "run", "--resume", str(run_dir))
    assert code == 2 and words in err and err.count("\n") == 1
    assert _snapshot(run_dir) == before


def _old_style_run(tmp_path):
    """A run directory as written before chunks held tallies: per-item arrays, no record of
    what they were made with (meta.json has the seed and rules hash)."""
    run_dir, full = _start(tmp_path)
    t = Tournament("debertz", __import__("cardsim.debertz.rules").debertz.rules.DebertzRules(
        players=2), BASE["agents"], deals=500, seed=3)
    for path in (run_dir / "chunks").glob("*.npz"):
        k, lo, hi = (int(x) for x in path.stem[7:].replace("-", " ").split())
        points, wins, deals = t.play_chunk(k, lo, hi)
        atomic_save_npz(path, points=points, wins=wins, deals=deals)
    return run_dir, full


def test_a_run_directory_from_before_tallies_resumes(tmp_path):
    run_dir, full = _old_style_run(tmp_path)
    (run_dir / "chunks" / "pairing0-400-500.npz").unlink()
    _, again = resume_run(run_dir)
    assert again["pairings"] == full["pairings"]
    # chunks kept before their decisions were counted: no cost for the run, the rest the same
    assert untimed_table(again["table"], 2) == untimed_table(full["table"], 2)
    assert all(r["decisions"] is None and r["us_per_decision"] is None
               for r in again["agents"])
    _edit_config(run_dir, seed=4)
    with pytest.raises(InvalidConfigError, match="seed was 3"):
        resume_run(run_dir)


def test_old_chunks_without_meta_json_give_one_line(tmp_path):
    run_dir, _ = _old_style_run(tmp_path)
    (run_dir / "meta.json").write_text("{broken")
    with pytest.raises(InvalidConfigError, match="meta.json is missing or damaged"):
        resume_run(run_dir)


def test_a_damaged_meta_json_is_rewritten_when_the_chunks_vouch(tmp_path):
    run_dir, full = _start(tmp_path)
    (run_dir / "meta.json").write_text("{broken")
    _, again = resume_run(run_dir)
    assert json.loads((run_dir / "meta.json").read_text())["seed"] == 3
    assert untimed_table(again["table"]) == untimed_table(full["table"])


def test_simulation_runs_are_checked_too(tmp_path):
    cfg = {"name": "s", "kind": "simulate", "game": "debertz", "deals": 300, "chunk": 100}
    run_dir, _ = _start(tmp_path, cfg)
    _edit_config(run_dir, agents=["heuristic"])
    with pytest.raises(InvalidConfigError, match="agents was"):
        resume_run(run_dir)


def _no_nan(text):
    return json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} in JSON"))


def _floats(obj):
    if isinstance(obj, float):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _floats(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _floats(v)


def test_json_is_valid_and_rounded(tmp_path, capsys):
    code, out, _ = _cli(capsys, "tournament", "debertz", "--agents", "heuristic", "random",
                        "random", "--deals", "1", "--players", "3", "--json")
    res = _no_nan(out)
    assert code == 0 and res["pairings"][0]["difference_ci95"] is None
    assert res["agents"][0]["ci95"] is not None  # two pairings: two items
    code, out, _ = _cli(capsys, "tournament", "debertz", "--agents", "heuristic", "random",
                        "--deals", "300", "--players", "3", "--json")
    assert all(len(repr(x).lstrip("-").replace(".", "").lstrip("0")) <= 7
               for x in _floats(_no_nan(out)))
    run_dir, _ = _start(tmp_path, {**BASE, "deals": 1})
    summary = _no_nan((run_dir / "summary.json").read_text())
    assert summary["pairings"][0]["difference_ci95"] is None
    assert "-" in (run_dir / "table.txt").read_text()
    for line in (run_dir / "metrics.jsonl").read_text().splitlines():
        _no_nan(line)


def test_per_deal_rows_in_a_run(tmp_path):
    from experiments.tournaments.per_deal import read_per_deal

    run_dir, full = _start(tmp_path, {**BASE, "per_deal": True})
    rows = read_per_deal(run_dir)
    assert len(rows) == 500 and (rows["item"] == np.arange(500)).all()
    d = rows["points"][:, 0] - rows["points"][:, 1]
    assert full["pairings"][0]["difference"] == pytest.approx(d.mean(), rel=1e-5)
    # per-deal rows asked for later: the chunks without them are played again
    plain, _ = _start(tmp_path, BASE, name="plain")
    copy = tmp_path / "copy"
    shutil.copytree(plain, copy)
    _edit_config(copy, per_deal=True)
    _, again = resume_run(copy)
    assert len(read_per_deal(copy)) == 500
    assert untimed_table(again["table"]) == untimed_table(full["table"])
