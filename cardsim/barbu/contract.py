"""Barbu's facts and its answers to the game contract (``cardsim.games``): the same names in
every game's ``contract`` module."""

from __future__ import annotations

import numpy as np

from cardsim.barbu.actions import CONTRACT_NAMES

TITLE = "Barbu"
NUM_CARDS = 52                 # B1: the deck
PLAYER_COUNTS = (4,)             # B1
NUM_ACTIONS = 80                 # cardsim.barbu.actions
ZERO_SUM = True                  # B8: the 28-deal match totals zero
WHOLE_ITEM_NAME = "match"
DEALS_PER_GAME = 28              # B2
ITEM_LABELS = tuple(CONTRACT_NAMES)  # a deal's contract, for per-contract results
RULES_CLASS = "cardsim.barbu.rules:BarbuRules"
GAME_CLASS = "cardsim.barbu.game:BarbuGame"


def max_decisions_per_deal(rules) -> int:
    """The contract (B3), its trump or starting rank, the doubling answers (B6: at most 12
    first answers and 12 redoubles) and the plays log (cards and Domino passes)."""
    from cardsim.barbu import layout as L

    return 2 + 2 * 12 + L.PLAYS_WIDTH


def deal_score_bounds(rules) -> tuple[float, float | None]:
    """B4/B5: a contract score lies in -30 .. +65; B7.2: each of three pairs settles at most
    twice the largest difference of two contract scores (95)."""
    return -30.0 - 3 * 2 * 95.0, 65.0 + 3 * 2 * 95.0


def summarize(stats: np.ndarray, rules, seed: int, whole: bool, seconds: float) -> dict:
    """The readable summary of a simulation's statistics array
    (``cardsim.barbu.summary.summarize``)."""
    from cardsim.barbu.summary import summarize as summary

    return summary(stats, rules, seed, whole, seconds)


def record_line(st: np.ndarray, rules, seed: int) -> str:
    """The cardsim-barbu/1 hand record of the deal just ended in row ``st``, as one JSON line."""
    from cardsim.barbu.record import to_json_line
    from cardsim.barbu.record_row import record_of_row

    return to_json_line(record_of_row(st, rules, seed))


def describe_state(st: np.ndarray, rules, seat: int) -> list[str]:
    """What ``seat`` sees of row ``st``, as text lines: its hand, the trick, the contract
    (and trump or starting rank), and the match scores (the env's ``render("ansi")``)."""
    from cardsim.barbu import actions as A
    from cardsim.barbu import layout as L
    from cardsim.cards import BARBU_DECK, SUIT_LETTERS

    fmt = BARBU_DECK.format
    c = int(st[L.CONTRACT])
    contract = A.CONTRACT_NAMES[c] if c >= 0 else "not chosen yet"
    if int(st[L.TRUMP]) >= 0:
        contract += f", trump {SUIT_LETTERS[int(st[L.TRUMP])]}"
    if int(st[L.START_RANK]) >= 0:
        contract += f", starting rank {BARBU_DECK.ranks[int(st[L.START_RANK])]}"
    trick = [f"{(int(st[L.LEADER]) + k) % 4}:{fmt(int(st[L.TRICK + k]))}"
             for k in range(int(st[L.TRICK_LEN]))]
    return [
        f"hand of seat {seat}: {' '.join(BARBU_DECK.format_mask(int(st[L.HANDS + seat])))}",
        f"trick: {' '.join(trick) or '-'}  (seat:card, in play order)",
        f"contract: {contract}  (declarer {int(st[L.DECLARER])})",
        "match scores: " + " ".join(str(int(st[L.SCORES + s])) for s in range(4)),
    ]
