"""The ``cardsim-barbu/1`` record of a finished deal (docs/hand-records.md), from its state row.

``BarbuGame.record`` writes records with ``record_of_row``; ``record.py`` checks them, reads
them back and replays them by building games. Writing stays here, below the game, so that
the two modules do not import each other.
"""

from __future__ import annotations

import numpy as np

from cardsim.barbu import actions as A
from cardsim.barbu import layout as L
from cardsim.barbu.rules import BarbuRules
from cardsim.cards import BARBU_DECK, SUIT_LETTERS
from cardsim.errors import HandRecordError

FORMAT = "cardsim-barbu/1"


def record_of_row(st: np.ndarray, rules: BarbuRules, seed: int | None = None) -> dict:
    """The record of the deal that has just ended in state row ``st`` (phase deal_end or
    match_over). ``seed`` defaults to the one stored in the row. Same name and signature as
    ``cardsim.debertz.record.record_of_row``, so code above the engines reads either game."""
    st = np.asarray(st)
    if st[L.PHASE] < L.PH_DEAL_END:
        raise HandRecordError(f"a hand record needs a finished deal; the deal is in phase "
                              f"{L.PHASE_NAMES[int(st[L.PHASE])]!r}")

    def seats(off):
        return [int(x) for x in st[off:off + 4]]

    c = int(st[L.CONTRACT])
    doubles = []
    for k in range(int(st[L.N_DOUBLES])):
        v = int(st[L.DOUBLES + k])
        doubles.append([v >> 4, (v >> 2) & 3, "double" if v & 3 == 1 else "redouble"])
    plays = []
    for k in range(int(st[L.N_PLAYS])):
        v = int(st[L.PLAYS + k])
        a = v & ((1 << L.PLAY_SEAT_SHIFT) - 1)
        plays.append([v >> L.PLAY_SEAT_SHIFT, "pass" if a == A.PASS else BARBU_DECK.format(a)])
    domino = c == A.DOMINO
    return {
        "format": FORMAT,
        "game": int(st[L.GAME_ID]),
        "deal": int(st[L.DEAL_NO]),
        "seed": int(st[L.SEED]) if seed is None else int(seed),
        "rules": rules.to_dict(),
        "rules_hash": rules.rules_hash(),
        "declarer": int(st[L.DECLARER]),
        "dealer": int(st[L.DEALER]),
        "scores_before": seats(L.SCORES_BEFORE),
        "doubles_owed_before": seats(L.OWED_BEFORE),
        "hands": [BARBU_DECK.format_mask(int(m)) for m in st[L.DEALT:L.DEALT + 4]],
        "contract": A.CONTRACT_NAMES[c],
        "trump": SUIT_LETTERS[int(st[L.TRUMP])] if c == A.TRUMPS else None,
        "start_rank": BARBU_DECK.ranks[int(st[L.START_RANK])] if domino else None,
        "doubles": doubles,
        "plays": plays,
        "trick_winners": [] if domino else
        [int(x) for x in st[L.TRICK_WINNERS:L.TRICK_WINNERS + int(st[L.TRICK_NO])]],
        "out_order": [int(x) for x in st[L.OUT_ORDER:L.OUT_ORDER + 4]] if domino else [],
        "contract_scores": seats(L.CONTRACT_SCORES),
        "settlements": seats(L.SETTLEMENTS),
        "deal_scores": seats(L.DEAL_SCORES),
        "scores_after": seats(L.SCORES),
    }
