"""The Barbu rules config: every convention of docs/rules/barbu.md, with its default.

The last three (``doubles_owed``, ``redoubles``, ``domino_start``) are variants some tables
play beyond the rules file's game, whose defaults are that game; hand records and rules hashes
name them only when they differ from it (``convention(extension=True)``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardsim.cards import BARBU_DECK
from cardsim.rules import RulesBase, convention

RANKS = BARBU_DECK.ranks  # rank characters, low to high: 2 ... 9 T J Q K A


def _seat_or_random(v) -> bool:
    return v == "random" or (type(v) is int and 0 <= v <= 3)


@dataclass(frozen=True)
class BarbuRules(RulesBase):
    """Conventions of docs/rules/barbu.md (section in each doc string)."""

    GAME = "barbu"

    first_declarer: int | str = convention("random", _seat_or_random,
                                           '"random" or a seat number 0..3',
                                           doc="B2: declarer of the first 7 deals of a match")
    king_lead_rule: str = convention("king_only", ("king_only", "no_hearts"),
                                     doc="B4: No King lead bar: only the K of hearts, or every heart")
    king_must_discard: bool = convention(False, (False, True),
                                         doc="B4: No King: a player void in the led suit must "
                                             "play the K of hearts")
    trumps_must_ruff: bool = convention(True, (True, False),
                                        doc="B4: Trumps: a player void in the led suit must trump")
    trumps_must_overtrump: bool = convention(False, (False, True),
                                             doc="B4: Trumps: on a trump lead, play a higher "
                                                 "trump if able")

    doubles_owed: int = convention(2, tuple(range(8)),
                                   doc="B6.3: doubles of each declarer that every other player "
                                       "owes over the declarer's 7 deals (0: none)",
                                   extension=True)
    redoubles: bool = convention(True, (True, False),
                                 doc="B6.1-B6.2: a doubled player may redouble the doubler",
                                 extension=True)
    domino_start: str = convention("declarer", ("declarer",) + tuple(RANKS),
                                   doc="B5: the Domino starting rank: named by the declarer, "
                                       "or always this rank",
                                   extension=True)

    def pack(self) -> np.ndarray:
        """The int64 array that kernels read (indices R_* in cardsim.barbu.layout)."""
        from cardsim.barbu import layout as L

        arr = np.zeros(L.RULES_WIDTH, dtype=np.int64)
        arr[L.R_FIRST_DECLARER] = -1 if self.first_declarer == "random" else self.first_declarer
        arr[L.R_KING_LEAD_NO_HEARTS] = int(self.king_lead_rule == "no_hearts")
        arr[L.R_KING_MUST_DISCARD] = int(self.king_must_discard)
        arr[L.R_TRUMPS_MUST_RUFF] = int(self.trumps_must_ruff)
        arr[L.R_TRUMPS_MUST_OVERTRUMP] = int(self.trumps_must_overtrump)
        arr[L.R_DOUBLES_OWED] = self.doubles_owed
        arr[L.R_REDOUBLES] = int(self.redoubles)
        arr[L.R_DOMINO_START] = -1 if self.domino_start == "declarer" else \
            RANKS.index(self.domino_start)
        return arr
