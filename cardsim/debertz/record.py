"""``cardsim-debertz/1`` hand records (rules/history.md): write, read, replay.

``record_of_row`` turns the state row of a game whose deal has just ended into a record
(``deal_record`` does the same for game i of a ``DebertzGame``);
``replay`` plays a record's actions through the engine and checks it reproduces the record.
"""

from __future__ import annotations

import numpy as np

from cardsim.cards import DEBERTZ_DECK, SUIT_LETTERS
from cardsim.debertz import actions as A
from cardsim.debertz import layout as L
from cardsim.debertz.game import DebertzGame
from cardsim.debertz.melds_nb import KIND_NAMES, list_runs, run_kind
from cardsim.debertz.rules import DebertzRules
from cardsim.errors import CardsimError, HandRecordError
from cardsim.records import require

FORMAT = "cardsim-debertz/1"
VOID_NAMES = (None, "four_sevens", "all_passed")
BYTE_NAMES = (None, "byte", "hanging")
fmt = DEBERTZ_DECK.format


def _cards(mask) -> list[str]:
    return DEBERTZ_DECK.format_mask(int(mask))


def _bid_name(action: int) -> str:
    if action == A.PASS:
        return "pass"
    if action == A.PLAY:
        return "play"
    return SUIT_LETTERS[action - A.NAME_SUIT]


def seat_melds(hand: int, trump: int, rules: DebertzRules) -> list[dict]:
    """The sequences of a hand as record entries (D6)."""
    runs = np.zeros((4, 3), dtype=np.int64)
    out = []
    for k in range(list_runs(int(hand), runs)):
        suit, top, length = (int(x) for x in runs[k])
        kind = run_kind(length, suit, trump, rules.debertz_trump_only)
        out.append({"kind": KIND_NAMES[kind], "suit": SUIT_LETTERS[suit],
                    "top": fmt(suit * 8 + top), "length": length})
    return out


def deal_record(game: DebertzGame, i: int = 0) -> dict:
    """The record of the deal that has just ended in game i of the batch."""
    st = game.state[i]
    if st[L.PHASE] < L.PH_DEAL_END:
        raise HandRecordError(f"game {i}: the deal has not ended yet (phase "
                              f"{L.PHASE_NAMES[st[L.PHASE]]})")
    return record_of_row(st, game.rules)


def record_of_row(st: np.ndarray, rules: DebertzRules, seed: int | None = None) -> dict:
    """The record of the deal that has just ended in state row ``st`` (phase deal_end or
    game_over). ``seed`` defaults to the one stored in the row. Same name and signature as
    ``cardsim.barbu.record.record_of_row``, so code above the engines reads either game."""
    st = np.asarray(st)
    if st[L.PHASE] < L.PH_DEAL_END:
        raise HandRecordError(f"a hand record needs a finished deal; the deal is in phase "
                              f"{L.PHASE_NAMES[int(st[L.PHASE])]!r}")
    n, sides = rules.players, rules.sides

    def per_side(off):
        return [int(v) for v in st[off:off + sides]]

    dealer = int(st[L.DEALER])
    rec = {
        "format": FORMAT,
        "game": int(st[L.GAME_ID]),
        "deal": int(st[L.DEAL_NO]),
        "seed": int(st[L.SEED]) if seed is None else int(seed),
        "rules": rules.to_dict(),
        "dealer": dealer,
        "scores_before": per_side(L.SCORES_BEFORE),
        "byte_counts_before": per_side(L.BYTE_COUNTS_BEFORE),
        "pot_before": int(st[L.POT_BEFORE]),
        "hands": [_cards(st[L.DEALT + s]) for s in range(n)],
        "turnup": fmt(st[L.TURNUP]),
        "bids": [[(dealer + 1 + k) % n, _bid_name(int(st[L.BIDS + k]))]
                 for k in range(int(st[L.N_BIDS]))],
        "void": VOID_NAMES[st[L.VOID]],
    }
    if st[L.END] != L.END_VOID:
        trump = int(st[L.TRUMP])
        shown = st[L.BELLA_SHOWN] and st[L.BELLA_SEAT] >= 0
        rec.update({
            "trump": SUIT_LETTERS[trump],
            "bidder": int(st[L.BIDDER]),
            "extra": [_cards(st[L.EXTRA + s]) for s in range(n)],
            "swap": int(st[L.SWAP_SEAT]) if st[L.SWAP_SEAT] >= 0 else None,
            "melds": [seat_melds(st[L.PLAY_HANDS + s], trump, rules) for s in range(n)],
            "meld_winner": int(st[L.MELD_WINNER]) if st[L.MELD_WINNER] >= 0 else None,
            "bella": int(st[L.BELLA_SEAT]) if shown else None,
            "plays": [[int(p) // 32, fmt(int(p) % 32)] for p in st[L.PLAYS:L.PLAYS + st[L.N_PLAYS]]],
            "trick_winners": [int(w) for w in st[L.TRICK_WINNERS:L.TRICK_WINNERS + st[L.TRICK_NO]]],
            "round_points": per_side(L.ROUND_POINTS),
            "recorded": per_side(L.RECORDED),
            "byte": BYTE_NAMES[st[L.BYTE]],
        })
    rec.update({
        "scores_after": per_side(L.SCORES),
        "byte_counts_after": per_side(L.BYTE_COUNTS),
        "pot_after": int(st[L.POT]),
        "game_over": bool(st[L.GAME_OVER]),
        "winner": int(st[L.WINNER]) if st[L.GAME_OVER] else None,
        "end": L.END_NAMES[st[L.END]],
    })
    return rec


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


def replay(rec: dict, where: str = "record") -> dict:
    """Replay a record through the engine; returns the replayed record, which equals the
    input on every field of the format. Raises HandRecordError naming the field for a
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
