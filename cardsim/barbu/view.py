"""What a table shows of a Barbu state row, as plain data (the ``cardsim play`` terminal
game and the ``cardsim serve`` page draw from it).

``table_view(st, rules, seat, reveal)`` gives the public facts of the deal (declarer,
contract, trump or starting rank, the doubles spoken, the current and last trick, the Domino
rows, tricks taken, scores) and the hand of ``seat``; the other hands only as counts unless
``reveal``. Cards are hand-record strings (``"TS"``, docs/hand-records.md).
"""

from __future__ import annotations

import numpy as np

from cardsim.barbu import actions as A
from cardsim.barbu import engine_nb as E
from cardsim.barbu import layout as L
from cardsim.cards import BARBU_DECK, SUIT_LETTERS


def _cards(mask: int) -> list[str]:
    return BARBU_DECK.format_mask(int(mask))


def table_view(st: np.ndarray, rules, seat: int | None, reveal: bool = False) -> dict:
    """The table as ``seat`` sees it (``seat`` None: a spectator; ``reveal``: every hand)."""
    fmt = BARBU_DECK.format
    phase = int(st[L.PHASE])
    c = int(st[L.CONTRACT])
    trick_no = int(st[L.TRICK_NO])
    domino = c == A.DOMINO
    trick = [] if domino else [[(int(st[L.LEADER]) + k) % 4, fmt(int(st[L.TRICK + k]))]
                               for k in range(int(st[L.TRICK_LEN]))]
    last = None
    if trick_no > 0 and not domino:
        k0 = (trick_no - 1) * 4
        plays = [int(st[L.PLAYS + k]) for k in range(k0, k0 + 4)]
        mask = (1 << L.PLAY_SEAT_SHIFT) - 1
        last = {"cards": [[p >> L.PLAY_SEAT_SHIFT, fmt(p & mask)] for p in plays],
                "winner": int(st[L.TRICK_WINNERS + trick_no - 1])}
    doubles = []
    for k in range(int(st[L.N_DOUBLES])):
        v = int(st[L.DOUBLES + k])
        doubles.append([v >> 4, (v >> 2) & 3, "double" if v & 3 == 1 else "redouble"])
    rows = None
    if domino:
        rows = {}
        for s in range(4):
            lo, hi = int(st[L.ROW_LO + s]), int(st[L.ROW_HI + s])
            rows[SUIT_LETTERS[s]] = ([BARBU_DECK.format(s * 13 + r) for r in range(lo, hi + 1)]
                                     if lo >= 0 else [])
    declarer = int(st[L.DECLARER])
    seats = []
    for s in range(4):
        hand = int(st[L.HANDS + s])
        seats.append({"seat": s, "side": s, "cards": bin(hand).count("1"),
                      "hand": _cards(hand) if reveal or s == seat else None,
                      "tricks": int(st[L.TRICKS_WON + s]),
                      "points": int(st[L.CONTRACT_SCORES + s])})
    contract = A.CONTRACT_NAMES[c] if c >= 0 else None
    lines = [f"declarer {declarer}, deal {int(st[L.DEAL_NO]) + 1} of {L.DEALS_PER_MATCH}"]
    left = int(st[L.CONTRACTS_LEFT + declarer])
    lines.append("contracts left: " + " ".join(A.CONTRACT_NAMES[k] for k in range(7)
                                               if left >> k & 1))
    if contract:
        extra = ""
        if int(st[L.TRUMP]) >= 0:
            extra = f", trump {SUIT_LETTERS[int(st[L.TRUMP])]}"
        if int(st[L.START_RANK]) >= 0:
            extra = f", starting rank {BARBU_DECK.ranks[int(st[L.START_RANK])]}"
        lines.append(f"contract {contract}{extra}")
    asking = None
    if phase == L.PH_DOUBLE:
        asking = [int(E.dbl_speaker_seat(st)), int(E.dbl_target_seat(st))]
        lines.append(f"seat {asking[0]} answers about seat {asking[1]}")
    return {
        "phase": L.PHASE_NAMES[phase],
        "turn": int(st[L.TURN]),
        "deal": int(st[L.DEAL_NO]),
        "dealer": int(st[L.DEALER]),
        "declarer": declarer,
        "players": 4,
        "sides": 4,
        "side_names": [f"seat {s}" for s in range(4)],
        "seats": seats,
        "trick": trick,
        "last_trick": last,
        "tricks_played": trick_no,
        "contract": contract,
        "trump": SUIT_LETTERS[int(st[L.TRUMP])] if int(st[L.TRUMP]) >= 0 else None,
        "start_rank": (BARBU_DECK.ranks[int(st[L.START_RANK])]
                       if int(st[L.START_RANK]) >= 0 else None),
        "doubles": doubles,
        "asking": asking,
        "domino_rows": rows,
        "out_order": [int(st[L.OUT_ORDER + k]) for k in range(int(st[L.N_OUT]))],
        "scores": [int(st[L.SCORES + s]) for s in range(4)],
        "lines": lines,
        "game_over": bool(st[L.MATCH_OVER]),
        "winner": None,
        "winners": [s for s in range(4) if int(st[L.WINNERS]) >> s & 1],
    }
