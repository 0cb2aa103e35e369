"""``cardsim-barbu/1`` hand records (docs/hand-records.md): write, read, check and replay.

One JSON object per line, one line per deal. Writers emit every field of docs/hand-records.md (plus
``rules_hash``); readers accept unknown extra fields. ``check_record`` raises HandRecordError
naming the first bad field; ``replay`` drives the engine through the record's actions and
raises HandRecordError naming the first field the engine does not reproduce.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Iterable, Iterator

import numpy as np

from cardsim.barbu import actions as A
from cardsim.barbu import layout as L
# the writing half (record_of_row, below BarbuGame), named here too so that record users need
# one module
from cardsim.barbu.record_row import FORMAT, record_of_row
from cardsim.barbu.rules import BarbuRules
from cardsim.cards import BARBU_DECK, SUIT_LETTERS
from cardsim.errors import (CardsimError, HandRecordError, IllegalActionError,
                            InvalidCardError)

FIELDS = ("format", "game", "deal", "seed", "rules", "declarer", "dealer", "scores_before",
          "doubles_owed_before", "hands", "contract", "trump", "start_rank", "doubles", "plays",
          "trick_winners", "out_order", "contract_scores", "settlements", "deal_scores",
          "scores_after")


# ---------------------------------------------------------------------------------------------
# writing
# ---------------------------------------------------------------------------------------------
def deal_record(st: np.ndarray, rules: BarbuRules, seed: int | None = None) -> dict:
    """The older name of ``record_of_row`` (same arguments, same record)."""
    return record_of_row(st, rules, seed)


def to_json_line(record: dict) -> str:
    """One record as a JSON line (no trailing newline)."""
    return json.dumps(record, separators=(", ", ": "))


def write_records(target: str | Path | IO[str], records: Iterable[dict],
                  append: bool = False) -> int:
    """Write records as JSON lines to a path or an open text file; returns how many."""
    if isinstance(target, (str, Path)):
        with open(target, "a" if append else "w", encoding="utf-8") as f:
            return write_records(f, records)
    n = 0
    for rec in records:
        target.write(to_json_line(rec) + "\n")
        n += 1
    return n


# ---------------------------------------------------------------------------------------------
# reading and checking
# ---------------------------------------------------------------------------------------------
def _fail(field: str, why: str):
    raise HandRecordError(f"cardsim-barbu/1 record: field {field!r} {why}")


def _int(rec, field, lo=None, hi=None):
    v = rec[field] if isinstance(field, str) else field[1]
    name = field if isinstance(field, str) else field[0]
    if type(v) is not int or (lo is not None and v < lo) or (hi is not None and v > hi):
        rng = f" in {lo}..{hi}" if lo is not None and hi is not None else (
            f" >= {lo}" if lo is not None else "")
        _fail(name, f"must be an integer{rng}, got {v!r}")
    return v


def _per_seat(rec, field, lo=None, hi=None):
    v = rec[field]
    if not isinstance(v, list) or len(v) != 4:
        _fail(field, f"must be a list of 4 integers (one per seat), got {v!r}")
    return [_int(rec, (f"{field}[{s}]", x), lo, hi) for s, x in enumerate(v)]


def _card(field, text):
    if text == "pass" or not isinstance(text, str):
        _fail(field, f"must be a card like 'QS', got {text!r}")
    try:
        c = BARBU_DECK.parse(text)
    except InvalidCardError as e:
        _fail(field, f"is not a card: {e}")
    if BARBU_DECK.format(c) != text:
        _fail(field, f"must be written {BARBU_DECK.format(c)!r} (rank then suit), got {text!r}")
    return c


def check_record(rec) -> dict:
    """Check that ``rec`` (a dict or a JSON line) is a well-formed cardsim-barbu/1 record;
    returns it as a dict. Raises HandRecordError naming the first bad field. Unknown extra
    fields are accepted."""
    if isinstance(rec, (str, bytes)):
        try:
            rec = json.loads(rec)
        except json.JSONDecodeError as e:
            raise HandRecordError(f"cardsim-barbu/1 record is not valid JSON: {e}") from None
    if not isinstance(rec, dict):
        raise HandRecordError(f"a cardsim-barbu/1 record is a JSON object, got "
                              f"{type(rec).__name__}")
    if rec.get("format") != FORMAT:
        _fail("format", f"must be {FORMAT!r}, got {rec.get('format')!r}")
    for f in FIELDS:
        if f not in rec:
            _fail(f, "is missing")
    _int(rec, "game", 0)
    _int(rec, "deal", 0, 27)
    _int(rec, "seed", 0)
    if not isinstance(rec["rules"], dict):
        _fail("rules", f"must be an object of conventions, got {rec['rules']!r}")
    try:
        rules = BarbuRules.from_dict(rec["rules"])
    except CardsimError as e:
        _fail("rules", f"is not a valid Barbu rules config: {e}")
    if "rules_hash" in rec and rec["rules_hash"] != rules.rules_hash():  # optional (extra)
        _fail("rules_hash", f"must be {rules.rules_hash()!r}, the hash of its rules; got "
                            f"{rec.get('rules_hash')!r}")
    _int(rec, "declarer", 0, 3)
    _int(rec, "dealer", 0, 3)
    _per_seat(rec, "scores_before")
    _per_seat(rec, "doubles_owed_before", 0, rules.doubles_owed)
    hands = rec["hands"]
    if not isinstance(hands, list) or len(hands) != 4:
        _fail("hands", f"must be 4 lists of 13 cards, got {hands!r}")
    seen = set()
    for s, h in enumerate(hands):
        if not isinstance(h, list) or len(h) != 13:
            _fail(f"hands[{s}]", f"must be a list of 13 cards, got {h!r}")
        for k, text in enumerate(h):
            c = _card(f"hands[{s}][{k}]", text)
            if c in seen:
                _fail(f"hands[{s}][{k}]", f"repeats card {text!r}")
            seen.add(c)
    contract = rec["contract"]
    if contract not in A.CONTRACT_NAMES:
        _fail("contract", f"must be one of {', '.join(A.CONTRACT_NAMES)}, got {contract!r}")
    if contract == "trumps":
        if rec["trump"] not in tuple(SUIT_LETTERS):
            _fail("trump", f"must be a suit letter S H D C in Trumps, got {rec['trump']!r}")
    elif rec["trump"] is not None:
        _fail("trump", f"must be null outside Trumps, got {rec['trump']!r}")
    if contract == "domino":
        sr = rec["start_rank"]
        if not isinstance(sr, str) or len(sr) != 1 or sr not in BARBU_DECK.ranks:
            _fail("start_rank", f"must be a rank character ({BARBU_DECK.ranks}) in Domino, "
                                f"got {sr!r}")
    elif rec["start_rank"] is not None:
        _fail("start_rank", f"must be null outside Domino, got {rec['start_rank']!r}")
    doubles = rec["doubles"]
    if not isinstance(doubles, list):
        _fail("doubles", f"must be a list, got {doubles!r}")
    for k, d in enumerate(doubles):
        if (not isinstance(d, list) or len(d) != 3 or d[2] not in ("double", "redouble")):
            _fail(f"doubles[{k}]", f"must be [from_seat, to_seat, \"double\" or \"redouble\"], "
                                   f"got {d!r}")
        _int(rec, (f"doubles[{k}][0]", d[0]), 0, 3)
        _int(rec, (f"doubles[{k}][1]", d[1]), 0, 3)
    plays = rec["plays"]
    if not isinstance(plays, list):
        _fail("plays", f"must be a list, got {plays!r}")
    for k, p in enumerate(plays):
        if not isinstance(p, list) or len(p) != 2:
            _fail(f"plays[{k}]", f"must be [seat, card] or [seat, \"pass\"], got {p!r}")
        _int(rec, (f"plays[{k}][0]", p[0]), 0, 3)
        if p[1] != "pass":
            _card(f"plays[{k}][1]", p[1])
    for f in ("trick_winners", "out_order"):
        v = rec[f]
        if not isinstance(v, list):
            _fail(f, f"must be a list of seats, got {v!r}")
        for k, x in enumerate(v):
            _int(rec, (f"{f}[{k}]", x), 0, 3)
    for f in ("contract_scores", "settlements", "deal_scores", "scores_after"):
        _per_seat(rec, f)
    return rec


def iter_records(source: str | Path | IO[str]) -> Iterator[dict]:
    """Records of a JSON-lines file (path or open file), each checked; blank lines skipped.
    Errors name the line number and the field."""
    if isinstance(source, (str, Path)):
        with open(source, encoding="utf-8") as f:
            yield from iter_records(f)
        return
    for n, line in enumerate(source, 1):
        if not line.strip():
            continue
        try:
            yield check_record(line)
        except HandRecordError as e:
            raise HandRecordError(f"line {n}: {e}") from None


def read_records(source: str | Path | IO[str]) -> list[dict]:
    """All records of a JSON-lines file (see iter_records)."""
    return list(iter_records(source))


# ---------------------------------------------------------------------------------------------
# replay
# ---------------------------------------------------------------------------------------------
def replay(record, check_seed: bool = False, on_step=None):
    """Drive the engine through the record's contract, doubles and plays and check that it
    reproduces every result field. Returns the BarbuGame at the end of the deal.
    ``on_step(row_before, action, row_after)`` is told of every action replayed
    (cardsim.records.watch_steps).

    The record does not say which contracts the declarer had already played, so the replay
    gives the declarer the recorded contract plus the lowest-numbered others up to the count
    the deal index implies (B2). With ``check_seed``, the hands must also be the ones the
    seeded generator deals for (seed, game, deal).
    """
    from cardsim.barbu.game import BarbuGame  # the engine is loaded only to replay

    rec = check_record(record)
    rules = BarbuRules.from_dict(rec["rules"])
    deal = rec["deal"]
    declarer = rec["declarer"]
    c = A.CONTRACT_NAMES.index(rec["contract"])
    n_left = 7 - deal % 7
    left = [c] + [x for x in range(7) if x != c][:n_left - 1]
    try:
        game = BarbuGame.from_deal(rec["hands"], declarer, rules=rules, deal=deal,
                                   contracts_left=left, scores=rec["scores_before"],
                                   doubles_owed=rec["doubles_owed_before"], seed=rec["seed"],
                                   game_id=rec["game"])
    except CardsimError as e:
        field = "declarer" if "declarer" in str(e) and "owed" not in str(e) else (
            "doubles_owed_before" if "owed" in str(e) else "hands")
        raise HandRecordError(f"replay: field {field!r}: {e}") from None
    if check_seed:
        from cardsim.barbu.engine_nb import deal_from_seed
        probe = game.st.copy()
        deal_from_seed(probe)
        for s in range(4):
            if probe[L.DEALT + s] != game.st[L.DEALT + s]:
                _mismatch(f"hands[{s}]", BARBU_DECK.format_mask(int(probe[L.DEALT + s])),
                          rec["hands"][s])
    if game.dealer != rec["dealer"]:
        _mismatch("dealer", game.dealer, rec["dealer"])
    if on_step is not None:
        from cardsim.records import watch_steps

        watch_steps(game, on_step)

    def do(action, field):
        try:
            game.step(action)
        except IllegalActionError as e:
            raise HandRecordError(f"replay: field {field!r}: {e}") from None

    do(A.CONTRACT + c, "contract")
    if c == A.TRUMPS:
        do(A.TRUMP_SUIT + SUIT_LETTERS.index(rec["trump"]), "trump")
    elif c == A.DOMINO and rules.domino_start == "declarer":
        do(A.START_RANK + BARBU_DECK.ranks.index(rec["start_rank"]), "start_rank")
    elif c == A.DOMINO and rec["start_rank"] != rules.domino_start:  # a fixed rank (B5)
        _mismatch("start_rank", rules.domino_start, rec["start_rank"])
    doubles = rec["doubles"]
    k = 0
    while game.phase() == "double":
        speaker, target = game.asking
        if k < len(doubles) and doubles[k][0] == speaker and doubles[k][1] == target:
            do(A.DOUBLE if doubles[k][2] == "double" else A.REDOUBLE, f"doubles[{k}]")
            k += 1
        else:
            if A.NO_DOUBLE not in game.legal_actions():
                raise HandRecordError(
                    f"replay: field 'doubles': seat {speaker} must double seat {target} here "
                    f"(B6.3: doubles still owed) but the record has "
                    f"{doubles[k] if k < len(doubles) else 'no such double'}")
            do(A.NO_DOUBLE, "doubles")
    if k < len(doubles):
        raise HandRecordError(
            f"replay: field 'doubles[{k}]': {doubles[k]} is not a choice the B6 order offers "
            f"at this point (or is out of order)")
    for i, (seat, card) in enumerate(rec["plays"]):
        if game.phase() != "play":
            raise HandRecordError(f"replay: field 'plays[{i}]': the deal ended after {i} plays")
        if seat != game.turn():
            _mismatch(f"plays[{i}][0]", game.turn(), seat)
        do(A.PASS if card == "pass" else BARBU_DECK.parse(card), f"plays[{i}]")
    if not game.is_deal_over:
        raise HandRecordError(f"replay: field 'plays': the deal is not over after "
                              f"{len(rec['plays'])} plays")
    got = game.record()
    for f in ("trick_winners", "out_order", "contract_scores", "settlements", "deal_scores",
              "scores_after"):
        if got[f] != rec[f]:
            _mismatch(f, got[f], rec[f])
    return game


def _mismatch(field, engine, record):
    raise HandRecordError(f"replay: field {field!r}: the engine gives {engine!r}, the record "
                          f"has {record!r}")
