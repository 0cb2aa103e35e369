"""What a table shows of a Debertz state row, as plain data (the ``cardsim play`` terminal
game and the ``cardsim serve`` page draw from it).

``table_view(st, rules, seat, reveal)`` gives the public facts of the deal (dealer, turn-up,
bids, trump, the current and last trick, tricks and points taken, scores) and the hand of
``seat``; the other hands only as counts unless ``reveal`` (a replay or an analysis with
every hand open). Cards are hand-record strings (``"TS"``, docs/hand-records.md).
"""

from __future__ import annotations

import numpy as np

from cardsim.cards import DEBERTZ_DECK, SUIT_LETTERS
from cardsim.debertz import layout as L
from cardsim.debertz.actions import action_name


def _cards(mask: int) -> list[str]:
    return DEBERTZ_DECK.format_mask(int(mask))


def table_view(st: np.ndarray, rules, seat: int | None, reveal: bool = False) -> dict:
    """The table as ``seat`` sees it (``seat`` None: a spectator; ``reveal``: every hand)."""
    n = rules.players
    fmt = DEBERTZ_DECK.format
    dealer = int(st[L.DEALER])
    n_bids = int(st[L.N_BIDS])
    bids = [[(dealer + 1 + k) % n, _bid_name(int(st[L.BIDS + k]))] for k in range(n_bids)]
    trick_no = int(st[L.TRICK_NO])
    trick = [[(int(st[L.LEADER]) + k) % n, fmt(int(st[L.TRICK + k]))]
             for k in range(int(st[L.TRICK_LEN]))]
    last = None
    if trick_no > 0:
        k0 = (trick_no - 1) * n
        plays = [int(st[L.PLAYS + k]) for k in range(k0, k0 + n)]
        last = {"cards": [[p // 32, fmt(p % 32)] for p in plays],
                "winner": int(st[L.TRICK_WINNERS + trick_no - 1])}
    trump = int(st[L.TRUMP])
    bidder = int(st[L.BIDDER])
    bella = int(st[L.BELLA_SEAT]) if int(st[L.BELLA_SHOWN]) else None
    seats = []
    for s in range(n):
        hand = int(st[L.HANDS + s])
        shown = reveal or s == seat
        seats.append({"seat": s, "side": rules.side_of(s), "cards": bin(hand).count("1"),
                      "hand": _cards(hand) if shown else None,
                      "tricks": int(st[L.TRICKS_WON + s]),
                      "points": int(st[L.WON_POINTS + s])})
    sides = rules.sides
    lines = [f"dealer {dealer}", f"turn-up {fmt(int(st[L.TURNUP]))}"]
    if trump >= 0:
        lines.append(f"trump {SUIT_LETTERS[trump]}, bidder {bidder}")
    if int(st[L.SWAP_SEAT]) >= 0:
        lines.append(f"seat {int(st[L.SWAP_SEAT])} swapped the seven of trump")
    if bella is not None:
        lines.append(f"bella: seat {bella}")
    phase = L.PHASE_NAMES[int(st[L.PHASE])]
    return {
        "phase": phase,
        "turn": int(st[L.TURN]),
        "deal": int(st[L.DEAL_NO]),
        "dealer": dealer,
        "players": n,
        "sides": sides,
        "side_names": (["seats 0+2", "seats 1+3"] if rules.teams
                       else [f"seat {s}" for s in range(n)]),
        "seats": seats,
        "trick": trick,
        "last_trick": last,
        "tricks_played": trick_no,
        "turnup": fmt(int(st[L.TURNUP])),
        "trump": SUIT_LETTERS[trump] if trump >= 0 else None,
        "bidder": bidder if bidder >= 0 else None,
        "bids": bids,
        "contract": None,
        "scores": [int(st[L.SCORES + s]) for s in range(sides)],
        "target": rules.target,
        "pot": int(st[L.POT]),
        "lines": lines,
        "game_over": bool(st[L.GAME_OVER]),
        "winner": int(st[L.WINNER]) if st[L.GAME_OVER] else None,
    }


def _bid_name(action: int) -> str:
    name = action_name(action)
    return name.removeprefix("name_")
