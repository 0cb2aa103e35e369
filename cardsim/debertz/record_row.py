"""The ``cardsim-debertz/1`` record of a finished deal (docs/hand-records.md), from its state row.

``record_of_row`` turns the state row of a game whose deal has just ended into a record;
``deal_record`` does the same for game i of a ``DebertzGame``. ``DebertzGame.record`` writes
records with these, and ``record.py`` reads them back and replays them by building games:
writing stays here, below the game, so that the two modules do not import each other.
"""

from __future__ import annotations

import numpy as np

from cardsim.cards import DEBERTZ_DECK, SUIT_LETTERS
from cardsim.debertz import actions as A
from cardsim.debertz import layout as L
from cardsim.debertz.melds_nb import KIND_NAMES, list_runs, run_kind
from cardsim.debertz.rules import DebertzRules
from cardsim.errors import HandRecordError

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


def deal_record(game, i: int = 0) -> dict:
    """The record of the deal that has just ended in game i of the batch of ``game`` (a
    ``DebertzGame``)."""
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
