"""Debertz's facts and its answers to the game contract (``cardsim.games``): the same names
in every game's ``contract`` module."""

from __future__ import annotations

import json

import numpy as np

TITLE = "Debertz"
NUM_CARDS = 32                 # D1: the deck
PLAYER_COUNTS = (2, 3, 4)        # D1; teams of two with 4
NUM_ACTIONS = 40                 # cardsim.debertz.actions
ZERO_SUM = False                 # recorded points are not zero-sum (D9)
WHOLE_ITEM_NAME = "game"         # what a whole item is
DEALS_PER_GAME = None            # a game runs until a side reaches the target (D11)
ITEM_LABELS = ()                 # no per-deal category to break results down by
RULES_CLASS = "cardsim.debertz.rules:DebertzRules"
GAME_CLASS = "cardsim.debertz.game:DebertzGame"


def max_decisions_per_deal(rules) -> int:
    """Two bidding rounds (D4), the seven swap (D5) and every card (D12: 8 tricks with 4
    players, 9 with 2 or 3)."""
    n = rules.players
    tricks = 8 if n == 4 else 9
    return 2 * n + 1 + tricks * n


def deal_score_bounds(rules) -> tuple[float, float | None]:
    """D9: recorded points are never negative but for the byte and no-trick penalties; the
    pot of hanging bytes carries over without limit, so there is no upper bound."""
    return -float(rules.byte_penalty) - float(rules.no_trick_penalty), None


def summarize(stats: np.ndarray, rules, seed: int, whole: bool, seconds: float) -> dict:
    """The readable summary of a simulation's statistics array
    (``cardsim.debertz.summary.summarize``); ``seed`` and ``whole`` do not change it."""
    from cardsim.debertz.summary import summarize as summary

    return summary(stats, rules, seconds)


def record_line(st: np.ndarray, rules, seed: int) -> str:
    """The hand record of the deal just ended in row ``st`` as a compact JSON line."""
    from cardsim.debertz.record_row import record_of_row

    return json.dumps(record_of_row(st, rules, seed), separators=(",", ":"),
                      ensure_ascii=False)


def describe_state(st: np.ndarray, rules, seat: int) -> list[str]:
    """What ``seat`` sees of row ``st``, as text lines: its hand, the trick, trump and
    turn-up, and the scores per side (the env's ``render("ansi")``)."""
    from cardsim.cards import DEBERTZ_DECK, SUIT_LETTERS
    from cardsim.debertz import layout as L

    fmt = DEBERTZ_DECK.format
    trump = int(st[L.TRUMP])
    trick = [f"{(int(st[L.LEADER]) + k) % rules.players}:{fmt(int(st[L.TRICK + k]))}"
             for k in range(int(st[L.TRICK_LEN]))]
    bidder = int(st[L.BIDDER])
    return [
        f"hand of seat {seat}: {' '.join(DEBERTZ_DECK.format_mask(int(st[L.HANDS + seat])))}",
        f"trick: {' '.join(trick) or '-'}  (seat:card, in play order)",
        f"trump: {SUIT_LETTERS[trump] if trump >= 0 else 'not chosen yet'}"
        + (f" (bidder {bidder})" if bidder >= 0 else "")
        + f"  turn-up: {fmt(int(st[L.TURNUP]))}",
        "scores per side: " + " ".join(str(int(st[L.SCORES + s])) for s in range(rules.sides))
        + f"  (target {rules.target})",
    ]
