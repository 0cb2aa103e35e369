"""Jitted kernels equal the same code under NUMBA_DISABLE_JIT=1; hand records round-trip."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from cardsim.debertz import layout as L
from cardsim.debertz import record as RC
from cardsim.debertz import simulate_nb as SN
from cardsim.debertz.game import DebertzGame
from cardsim.debertz.rules import DebertzRules
from cardsim.errors import HandRecordError
from cardsim.records import RecordWriter, read_records
from cardsim.table import RANDOM_AGENT, Seating, Table
from experiments.runs.simulate import simulate as run_simulation


def simulate(rules, **kw):
    return run_simulation("debertz", rules, **kw)


def deal_end_rows(rules, seed, games) -> np.ndarray:
    """The state row at the end of every deal of ``games`` random games played at the table
    (the engine's random policy in every seat), in (game, deal) order."""
    rows = []
    Table("debertz", rules).simulate(Seating([RANDOM_AGENT], [[0] * rules.players]), seed, 0,
                                     games, True, history=np.copy, write=rows.append)
    return np.array(rows)


def played_deal_record(rules, seed) -> dict:
    """The record of the first random deal of game 0 that was played (not void)."""
    rows = deal_end_rows(rules, seed, 1)
    return RC.record_of_row(next(r for r in rows if r[L.END] != L.END_VOID), rules)


PARITY_SCRIPT = """
import json
from cardsim.debertz.rules import DebertzRules
from cardsim.debertz import simulate_nb as S
out = []
for kw in %s:
    out.append(S.simulate_random(DebertzRules(**kw).pack(), 5, 0, 12, True, 3).tolist())
print(json.dumps(out))
"""
PARITY_RULES = [dict(), dict(players=3, overtrump_on_ruff=True),
                dict(players=4, teams=True, end_mode="points", target=301,
                     partner_exemption=True)]


def test_jit_and_pure_python_give_identical_games():
    script = PARITY_SCRIPT % repr(PARITY_RULES)
    compiled = [SN.simulate_random(DebertzRules(**kw).pack(), 5, 0, 12, True, 3).tolist()
                for kw in PARITY_RULES]
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-W", "ignore::RuntimeWarning", "-c", script],
                         env=env, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == compiled


@pytest.mark.parametrize("kw", [dict(), dict(players=3), dict(players=4, teams=True),
                                dict(players=4, obligatory=False)])
def test_records_replay_and_round_trip_through_a_file(tmp_path, kw):
    path = tmp_path / "h.jsonl"
    summary = simulate(DebertzRules(**kw), seed=4, games=3, history_path=path)
    records = list(read_records(path))
    assert len(records) == summary["deals"]
    assert sum(r["game_over"] for r in records) == 3
    for rec in records:
        assert RC.replay(rec) == {k: rec[k] for k in RC.replay(rec)}


def test_history_does_not_change_the_results(tmp_path):
    rules = DebertzRules(players=3)
    a = simulate(rules, seed=9, games=4)
    b = simulate(rules, seed=9, games=4, history_path=tmp_path / "x.jsonl")
    for key in ("deals", "decisions", "mean_round_points", "byte_rate", "wins_per_side"):
        assert a[key] == b[key]


def test_every_record_field_of_the_format_is_written():
    rec = played_deal_record(DebertzRules(players=4, teams=True), seed=2)
    expected = ("format game deal seed rules dealer scores_before byte_counts_before pot_before "
                "hands turnup bids void trump bidder extra swap melds meld_winner bella plays "
                "trick_winners round_points recorded byte scores_after byte_counts_after "
                "pot_after game_over winner end").split()
    assert list(rec) == expected
    assert rec["format"] == "cardsim-debertz/1"
    assert len(rec["round_points"]) == 2 and len(rec["hands"]) == 4
    assert set(rec["rules"]) == set(DebertzRules.field_names())


def test_replay_names_the_first_wrong_field():
    rec = played_deal_record(DebertzRules(), seed=3)
    bad = dict(rec, round_points=[1, 2])
    with pytest.raises(HandRecordError, match="round_points"):
        RC.replay(bad)
    with pytest.raises(HandRecordError, match="format"):
        RC.replay(dict(rec, format="other/1"))
    with pytest.raises(HandRecordError, match="rules"):
        RC.replay(dict(rec, rules={**rec["rules"], "players": 7}))
    swapped = dict(rec, plays=[rec["plays"][1], rec["plays"][0]] + rec["plays"][2:])
    with pytest.raises(HandRecordError):
        RC.replay(swapped)
    # readers accept unknown extra fields
    assert RC.replay(dict(rec, comment="hello"))["deal"] == rec["deal"]


def test_corrupt_files_are_reported_with_their_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"format": "cardsim-debertz/1"}\n{not json\n')
    with pytest.raises(HandRecordError, match="line 2"):
        list(read_records(path))
    with pytest.raises(HandRecordError, match="cannot read"):
        list(read_records(tmp_path / "missing.jsonl"))


def test_writer_is_atomic(tmp_path):
    path = tmp_path / "out.jsonl"
    with pytest.raises(RuntimeError):
        with RecordWriter(path) as w:
            w.write({"a": 1})
            raise RuntimeError("interrupted")
    assert not path.exists()
    with RecordWriter(path) as w:
        w.write({"a": 1})
    assert list(read_records(path)) == [{"a": 1}]


@pytest.mark.parametrize("kw", [dict(), dict(players=3), dict(players=4, teams=True)])
def test_record_of_row_equals_deal_record(kw):
    """record_of_row (the name both games share) writes, key for key and in the same order,
    the record deal_record writes, on every deal of random games at the table (held as a
    batch of a DebertzGame)."""
    rules = DebertzRules(**kw)
    rows = deal_end_rows(rules, 13, 20)
    assert len(rows) > 40  # whole games: several deals each
    game = DebertzGame(rules, batch=len(rows), seed=13)
    game.state[:] = rows
    for i in range(game.batch):
        line = json.dumps(RC.deal_record(game, i))
        assert json.dumps(RC.record_of_row(game.state[i], rules, game.seed)) == line
        assert json.dumps(RC.record_of_row(game.state[i], rules)) == line
        assert json.dumps(game.record(i)) == line
    with pytest.raises(HandRecordError, match="finished deal"):
        RC.record_of_row(DebertzGame(rules).state[0], rules, 0)
