"""cardsim-barbu/1 hand records (docs/hand-records.md): fields, round trips, corrupt records,
replay."""

import copy
import io
import json

import numpy as np
import pytest

from barbu_deals import deal_of, new_game, play
from cardsim.barbu.game import BarbuGame
from cardsim.barbu.record import (FIELDS, check_record, deal_record, read_records,
                                  record_of_row, replay, write_records)
from cardsim.barbu.rules import BarbuRules
from cardsim.errors import HandRecordError
from cardsim.table import RANDOM_AGENT, Seating, Table

B7_DEAL = ("S3-SA 2D", "S2 H2-HK", "AD QC C2-CJ AH", "QD AC KC D3-DJ KD")


@pytest.fixture
def b7_record():
    g = new_game(deal_of(*B7_DEAL), 0)
    g.step("no_queens")
    for q in [(1, 2), (1, 3), (1, 0), (2, 3), (2, 0), (2, 1), (3, 0), (3, 1), (3, 2), (0, 1),
              (0, 2)]:
        assert g.asking == q
        g.step({(1, 2): "double", (1, 3): "double", (1, 0): "double", (2, 0): "double",
                (0, 2): "redouble"}.get(q, "no_double"))
    play(g, "QS", "2S", "2C", "3D", "2D", "2H", "AD", "QD", "QC", "AC", "3S", "QH")
    return g.to_record()


def test_record_fields_exact(b7_record):
    r = b7_record
    assert all(f in r for f in FIELDS)
    assert r["format"] == "cardsim-barbu/1"
    assert (r["game"], r["deal"], r["declarer"], r["dealer"]) == (0, 0, 0, 3)
    assert r["contract"] == "no_queens" and r["trump"] is None and r["start_rank"] is None
    assert r["hands"][1][:3] == ["2S", "2H", "3H"] and len(r["hands"][2]) == 13
    assert r["doubles"] == [[1, 2, "double"], [1, 3, "double"], [1, 0, "double"],
                            [2, 0, "double"], [0, 2, "redouble"]]
    assert r["plays"][:2] == [[0, "QS"], [1, "2S"]] and r["plays"][-1] == [1, "QH"]
    assert r["trick_winners"] == [0, 2, 3] and r["out_order"] == []
    assert r["contract_scores"] == [-6, 0, -6, -12]
    assert r["settlements"] == [-6, 24, -6, -12]
    assert r["deal_scores"] == [-12, 24, -12, -24]
    assert r["scores_before"] == [0, 0, 0, 0] and r["scores_after"] == [-12, 24, -12, -24]
    assert r["doubles_owed_before"] == [0, 2, 2, 2]
    assert r["rules"]["king_lead_rule"] == "king_only"
    json.dumps(r)  # plain JSON types only


def suit_per_seat_record(declarer, contract, choice):
    """The record of a deal of one suit per seat: ``declarer`` names ``contract`` and then
    ``choice`` (a trump or a starting rank), nobody doubles, and every seat plays its first
    legal action."""
    g = new_game(deal_of("S2-SA", "H2-HA", "D2-DA", "C2-CA"), declarer)
    g.step(contract)
    g.step(choice)
    while g.phase() != "play":
        g.step("no_double")
    while g.phase() == "play":
        g.step(g.legal_actions()[0])
    return g.to_record()


def test_domino_and_trumps_fields():
    r = suit_per_seat_record(1, "domino", "start_T")
    assert r["start_rank"] == "T" and r["trump"] is None and r["trick_winners"] == []
    assert r["out_order"] == [1, 2, 3, 0] and r["contract_scores"] == [-5, 45, 20, 5]
    replay(r)
    r = suit_per_seat_record(0, "trumps", "trump_D")
    assert r["trump"] == "D" and r["start_rank"] is None and len(r["trick_winners"]) == 13
    replay(r)


def test_round_trip_and_unknown_fields(b7_record, tmp_path):
    extra = dict(b7_record, comment="extra fields are fine")
    path = tmp_path / "r.jsonl"
    assert write_records(path, [b7_record, extra]) == 2
    back = read_records(path)
    assert back[0] == b7_record and back[1]["comment"] == "extra fields are fine"
    buf = io.StringIO()
    write_records(buf, [b7_record])
    assert read_records(io.StringIO(buf.getvalue())) == [b7_record]
    replay(back[1])


@pytest.mark.parametrize("field, value", [
    ("format", "cardsim-barbu/2"),
    ("deal", 28),
    ("declarer", "0"),
    ("hands", [["2S"] * 13] * 4),
    ("contract", "misere"),
    ("trump", "H"),
    ("doubles", [[1, 2, "triple"]]),
    ("plays", [[0, "1S"]]),
    ("deal_scores", [0, 0, 0]),
    ("rules", {"king_lead_rule": "sometimes"}),
    ("out_order", [5]),
])
def test_corrupt_records_name_the_field(b7_record, field, value):
    bad = copy.deepcopy(b7_record)
    bad[field] = value
    with pytest.raises(HandRecordError, match=field):
        check_record(bad)


def test_missing_field_and_bad_json(b7_record, tmp_path):
    bad = dict(b7_record)
    del bad["settlements"]
    with pytest.raises(HandRecordError, match="settlements"):
        check_record(bad)
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(b7_record) + "\n{not json\n")
    with pytest.raises(HandRecordError, match="line 2"):
        read_records(path)


@pytest.mark.parametrize("field, change, named", [
    ("deal_scores", lambda r: r["deal_scores"].__setitem__(0, 0), "deal_scores"),
    ("settlements", lambda r: r["settlements"].__setitem__(1, 0), "settlements"),
    ("trick_winners", lambda r: r["trick_winners"].__setitem__(0, 1), "trick_winners"),
    ("plays", lambda r: r["plays"].__setitem__(1, [1, "3H"]), "plays[1]"),
    ("plays", lambda r: r["plays"].__setitem__(1, [2, "2S"]), "plays[1][0]"),
    ("plays", lambda r: r["plays"].pop(), "plays"),
    ("doubles", lambda r: r["doubles"].reverse(), "doubles"),
    ("scores_after", lambda r: r["scores_after"].__setitem__(3, 0), "scores_after"),
])
def test_replay_names_first_mismatch(b7_record, field, change, named):
    replay(b7_record)
    bad = copy.deepcopy(b7_record)
    change(bad)
    with pytest.raises(HandRecordError, match=named.replace("[", r"\[").replace("]", r"\]")):
        replay(bad)


def test_replay_detects_missing_forced_double():
    g = new_game(deal_of("S2-SA", "H2-HA", "D2-DA", "C2-CA"), 0, deal=6,
                 contracts_left=["no_tricks"], doubles_owed=[0, 1, 0, 0])
    g.step("no_tricks")
    while g.phase() == "double":
        g.step(g.legal_actions()[0] if g.legal_action_names() == ["double"] else "no_double")
    while g.phase() == "play":
        g.step(g.legal_actions()[0])
    r = g.to_record()
    assert r["doubles"] == [[1, 0, "double"]]
    replay(r)
    r["doubles"] = []
    with pytest.raises(HandRecordError, match="B6.3"):
        replay(r)


def test_record_of_row_equals_deal_record():
    """record_of_row (the name both games share) writes, key for key and in the same order,
    the record deal_record writes, on every deal of random matches at the table."""
    rules = BarbuRules()
    seed = 21
    rows = []  # the state row at the end of every deal, in (match, deal) order
    Table("barbu", rules).simulate(Seating([RANDOM_AGENT], [[0, 0, 0, 0]]), seed, 0, 5, True,
                                   history=np.copy, write=rows.append)
    assert len(rows) == 5 * 28
    for row in rows:
        line = json.dumps(deal_record(row, rules, seed))
        assert json.dumps(record_of_row(row, rules, seed)) == line
        assert json.dumps(record_of_row(row, rules)) == line
    g = new_game(deal_of(*B7_DEAL), 0)
    with pytest.raises(HandRecordError, match="finished deal"):
        record_of_row(g.st, g.rules, g.seed)
    assert BarbuGame.to_record is BarbuGame.record


def test_records_of_the_variants_name_them_and_replay():
    # Variants beyond the rules file are written when they differ from its game and replay
    # under them; a fixed Domino rank is checked, not stepped.
    rules = {"domino_start": "5", "redoubles": False, "doubles_owed": 1}
    g = new_game(deal_of("S2-SA", "H2-HA", "D2-DA", "C2-CA"), 1, rules=rules)
    assert g.doubles_owed == [1, 0, 1, 1]
    g.step("domino")
    while g.phase() != "play":
        g.step(g.legal_actions()[-1])
    while g.phase() == "play":
        g.step(g.legal_actions()[0])
    r = g.to_record()
    assert r["rules"]["domino_start"] == "5" and r["rules"]["redoubles"] is False
    assert r["rules"]["doubles_owed"] == 1 and r["start_rank"] == "5"
    assert r["doubles_owed_before"] == [1, 0, 1, 1]
    replay(r)
    bad = dict(r, start_rank="6")
    with pytest.raises(HandRecordError, match="start_rank"):
        replay(bad)
    bad = {k: v for k, v in r.items() if k != "rules_hash"}  # the hash is optional
    bad["rules"] = {**r["rules"], "doubles_owed": 0}
    with pytest.raises(HandRecordError, match="doubles_owed_before"):
        replay(bad)
    # the rules file's game: no variant named, the record as before the variants existed
    assert set(BarbuRules().to_dict()) == {"first_declarer", "king_lead_rule",
                                               "king_must_discard", "trumps_must_ruff",
                                               "trumps_must_overtrump"}
