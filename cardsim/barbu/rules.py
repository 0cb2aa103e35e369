"""The Barbu rules config: every convention of docs/rules/barbu.md, with its default."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardsim.rules import RulesBase, convention


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

    def pack(self) -> np.ndarray:
        """The int64 array that kernels read (indices R_* in cardsim.barbu.layout)."""
        from cardsim.barbu import layout as L

        arr = np.zeros(L.RULES_WIDTH, dtype=np.int64)
        arr[L.R_FIRST_DECLARER] = -1 if self.first_declarer == "random" else self.first_declarer
        arr[L.R_KING_LEAD_NO_HEARTS] = int(self.king_lead_rule == "no_hearts")
        arr[L.R_KING_MUST_DISCARD] = int(self.king_must_discard)
        arr[L.R_TRUMPS_MUST_RUFF] = int(self.trumps_must_ruff)
        arr[L.R_TRUMPS_MUST_OVERTRUMP] = int(self.trumps_must_overtrump)
        return arr
