"""``cardsim-debertz/1`` hand records (docs/hand-records.md): write, read, replay.

``record_of_row`` turns the state row of a game whose deal has just ended into a record
(``deal_record`` does the same for game i of a ``DebertzGame``); both live in
``record_row.py``, below the game that writes records, and are named here too.
``replay`` plays a record's actions through the engine and checks it reproduces the record.
"""

from __future__ import annotations

from cardsim.cards import DEBERTZ_DECK, SUIT_LETTERS
from cardsim.debertz import actions as A
from cardsim.debertz.game import DebertzGame
# the writing half, named here too so that record users need one module
from cardsim.debertz.record_row import (BYTE_NAMES, FORMAT, VOID_NAMES, deal_record,
                                        record_of_row, seat_melds)
from cardsim.debertz.rules import DebertzRules
from cardsim.errors import CardsimError, HandRecordError
from cardsim.records import require, watch_steps


# ---------------------------------------------------------------------------------------------
# reading and replaying
# ---------------------------------------------------------------------------------------------
def _rules_of(rec: dict, where: str) -> DebertzRules:
    values = require(rec, "rules", dict, where)
    try:
        return DebertzRules.from_dict(values)
    except CardsimError as e:
        raise HandRecordError(f"{where}: field 'rules': {e}") from None


def _parse_cards(values, where: str, name: str) -> list[int]:
    if not isinstance(values, list):
        raise HandRecordError(f"{where}: field {name!r} must be a list of cards")
    try:
        return [DEBERTZ_DECK.parse(c) for c in values]
    except CardsimError as e:
        raise HandRecordError(f"{where}: field {name!r}: {e}") from None


def _stock_order(rec: dict, rules: DebertzRules, where: str) -> list[int]:
    """The stock in dealing order that gives every seat its recorded extra cards."""
    if rec.get("void") is not None:
        return []
    n = rules.players
    dealer = rec["dealer"]
    extra = require(rec, "extra", list, where)
    turnup = DEBERTZ_DECK.parse(rec["turnup"])
    order: list[int] = []
    for k in range(1, n + 1):
        seat = (dealer + k) % n
        order += [c for c in _parse_cards(extra[seat], where, f"extra[{seat}]") if c != turnup]
    return order


# The fields replay() reads to rebuild the deal, with their JSON types: checked before any
# of them is used, so a missing or mistyped one is named (the results are compared after).
_INPUTS = (("game", int), ("deal", int), ("seed", int), ("rules", dict), ("dealer", int),
           ("scores_before", list), ("byte_counts_before", list), ("pot_before", int),
           ("hands", list), ("turnup", str), ("bids", list), ("void", (str, type(None))))
_PLAYED_INPUTS = (("extra", list), ("plays", list))  # a deal that was not void


def _check_inputs(rec, where: str) -> None:
    if not isinstance(rec, dict):
        raise HandRecordError(f"{where}: a {FORMAT} record is a JSON object, got "
                              f"{type(rec).__name__}")
    if rec.get("format") != FORMAT:
        raise HandRecordError(f"{where}: field 'format' is {rec.get('format')!r}, not "
                              f"{FORMAT!r}")
    for name, kind in _INPUTS + (_PLAYED_INPUTS if rec.get("void") is None else ()):
        require(rec, name, kind, where)
    for name in ("bids", "plays"):
        for entry in rec.get(name) or []:
            if not (isinstance(entry, list) and len(entry) == 2 and type(entry[0]) is int
                    and isinstance(entry[1], str)):
                raise HandRecordError(f"{where}: field {name!r} holds {entry!r}; each entry "
                                      f"is [seat, name]")


def replay(rec: dict, where: str = "record", on_step=None) -> dict:
    """Replay a record through the engine; returns the replayed record, which equals the
    input on every field of the format. ``on_step(row_before, action, row_after)`` is told
    of every action replayed (cardsim.records.watch_steps). Raises HandRecordError naming the field for a
    record that is not one (not a mapping, a field missing or of the wrong type) and at the
    first field the replay does not reproduce."""
    _check_inputs(rec, where)
    rules = _rules_of(rec, where)
    n = rules.players
    hands = require(rec, "hands", list, where)
    if len(hands) != n:
        raise HandRecordError(f"{where}: field 'hands' must list {n} hands")
    try:
        game = DebertzGame.from_deal(
            rules, [_parse_cards(h, where, "hands") for h in hands], rec["turnup"],
            _stock_order(rec, rules, where), dealer=require(rec, "dealer", int, where),
            scores=require(rec, "scores_before", list, where),
            byte_counts=require(rec, "byte_counts_before", list, where),
            pot=require(rec, "pot_before", int, where), seed=require(rec, "seed", int, where),
            game_id=require(rec, "game", int, where), deal_no=require(rec, "deal", int, where))
        if on_step is not None:
            watch_steps(game, on_step)
        for seat, bid in require(rec, "bids", list, where):
            _expect_turn(game, seat, where, "bids")
            if bid in ("pass", "play"):
                game.step(bid)
            else:
                game.step(A.NAME_SUIT + SUIT_LETTERS.index(bid))
        if game.phase() == "swap":
            game.step("swap" if rec.get("swap") is not None else "keep")
        for seat, card in rec.get("plays", []):
            _expect_turn(game, seat, where, "plays")
            game.step(card)
    except HandRecordError:
        raise
    except (CardsimError, ValueError, TypeError, KeyError) as e:
        raise HandRecordError(f"{where}: cannot be replayed: {e}") from None
    out = deal_record(game) if game.phase() in ("deal_end", "game_over") else None
    if out is None:
        raise HandRecordError(f"{where}: the deal is unfinished after replaying its plays")
    for key, value in out.items():
        if rec.get(key, "<missing>") != value:
            raise HandRecordError(f"{where}: field {key!r} is {rec.get(key, '<missing>')!r} "
                                  f"but the replay gives {value!r}")
    return out


def _expect_turn(game: DebertzGame, seat, where: str, field: str) -> None:
    if game.turn() != seat:
        raise HandRecordError(f"{where}: field {field!r} has seat {seat} acting, "
                              f"but it is seat {game.turn()}'s turn")
