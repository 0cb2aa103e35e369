"""The Debertz rules config: every convention of docs/rules/debertz.md, with its default."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardsim.errors import InvalidConfigError
from cardsim.rules import RulesBase, convention


def _seat_or_random(v) -> bool:
    return v == "random" or (type(v) is int and 0 <= v <= 3)


MAX_POINTS = 10**9  # targets and penalties beyond any game that could end


def _positive_int(v) -> bool:
    return type(v) is int and 0 < v <= MAX_POINTS


def _non_negative_int(v) -> bool:
    return type(v) is int and 0 <= v <= MAX_POINTS


@dataclass(frozen=True)
class DebertzRules(RulesBase):
    """Conventions of docs/rules/debertz.md (section in each doc string)."""

    GAME = "debertz"

    players: int = convention(2, (2, 3, 4), doc="D1: number of players")
    teams: bool = convention(False, (False, True), doc="D1: 2 against 2 (needs players=4)")
    first_dealer: int | str = convention("random", _seat_or_random,
                                         '"random" or a seat number below players',
                                         doc="D1: dealer of the first deal of a game")
    target: int = convention(501, _positive_int, "a positive integer up to 1000000000",
                             doc="D11: points that end the game")
    end_mode: str = convention("round", ("round", "points"),
                               doc="D11: play rounds out, or stop the moment a side reaches the target")
    obligatory: bool = convention(True, (True, False),
                                  doc="D4: the dealer must name a trump when all passed twice")
    seven_swap: bool = convention(True, (True, False),
                                  doc="D5: 7 of trump may be swapped for the turn-up (2-3 players)")
    turnup_to: str = convention("bidder", ("bidder", "dealer"),
                                doc="D3.3: who takes the turn-up with 4 players")
    trump_meld_wins_tie: bool = convention(True, (True, False),
                                           doc="D6.2: a trump sequence beats an equal plain one")
    debertz_trump_only: bool = convention(False, (False, True),
                                          doc="D6.5: only a 7-8 card run in trump is a debertz")
    declare: str = convention("first_trick", ("first_trick", "before_play"),
                              doc="D6.6: when declared melds become public")
    bella_any_card: bool = convention(True, (True, False),
                                      doc="D7: bella announced with the first of K, Q played")
    unplayed_bella_counts: bool = convention(False, (False, True),
                                             doc="D7: unannounced bella counts at a points-mode end")
    first_lead: str = convention("bidder", ("bidder", "after_dealer"),
                                 doc="D8: who leads to the first trick")
    overtrump_on_ruff: bool = convention(False, (False, True),
                                         doc="D8.4: must overtrump a trump already in a plain trick")
    partner_exemption: bool = convention(False, (False, True),
                                         doc="D8.5: no need to trump when the partner wins the trick")
    byte_penalty: int = convention(100, _non_negative_int,
                                   "a non-negative integer up to 1000000000 (0 disables)",
                                   doc="D9.3: points lost at every third byte")
    no_trick_penalty: int = convention(0, (0, 50, 100),
                                       doc="D9.4: points lost by a side that took no trick")
    dealer_rotation: str = convention("clockwise", ("clockwise", "winner"),
                                      doc="D10: who deals next")

    def _check_combination(self) -> None:
        if self.teams and self.players != 4:
            raise InvalidConfigError(
                f"debertz rule 'teams' = true needs players = 4, got players = {self.players}")
        if self.first_dealer != "random" and self.first_dealer >= self.players:
            raise InvalidConfigError(
                f"debertz rule 'first_dealer' = {self.first_dealer} is not a seat of a "
                f"{self.players}-player game; allowed: \"random\" or 0..{self.players - 1}")

    @property
    def sides(self) -> int:
        """Number of scoring sides: 2 teams, or one per player."""
        return 2 if self.teams else self.players

    @property
    def tricks(self) -> int:
        """Tricks in a played-out round (D12)."""
        return 8 if self.players == 4 else 9

    def side_of(self, seat: int) -> int:
        """The scoring side of ``seat`` (the engine's rule, cardsim.debertz.engine_nb)."""
        from cardsim.debertz.engine_nb import side_of

        return int(side_of(seat, self.teams))

    def pack(self) -> np.ndarray:
        """The int64 array that kernels read (indices R_* in cardsim.debertz.layout)."""
        from cardsim.debertz import layout as L

        arr = np.zeros(L.RULES_WIDTH, dtype=np.int64)
        arr[L.R_PLAYERS] = self.players
        arr[L.R_TEAMS] = int(self.teams)
        arr[L.R_SIDES] = self.sides
        arr[L.R_FIRST_DEALER] = -1 if self.first_dealer == "random" else self.first_dealer
        arr[L.R_TARGET] = self.target
        arr[L.R_END_POINTS] = int(self.end_mode == "points")
        arr[L.R_OBLIGATORY] = int(self.obligatory)
        arr[L.R_SEVEN_SWAP] = int(self.seven_swap)
        arr[L.R_TURNUP_TO_DEALER] = int(self.turnup_to == "dealer")
        arr[L.R_TRUMP_MELD_WINS_TIE] = int(self.trump_meld_wins_tie)
        arr[L.R_DEBERTZ_TRUMP_ONLY] = int(self.debertz_trump_only)
        arr[L.R_DECLARE_BEFORE_PLAY] = int(self.declare == "before_play")
        arr[L.R_BELLA_ANY_CARD] = int(self.bella_any_card)
        arr[L.R_UNPLAYED_BELLA_COUNTS] = int(self.unplayed_bella_counts)
        arr[L.R_LEAD_AFTER_DEALER] = int(self.first_lead == "after_dealer")
        arr[L.R_OVERTRUMP_ON_RUFF] = int(self.overtrump_on_ruff)
        arr[L.R_PARTNER_EXEMPTION] = int(self.partner_exemption)
        arr[L.R_BYTE_PENALTY] = self.byte_penalty
        arr[L.R_NO_TRICK_PENALTY] = self.no_trick_penalty
        arr[L.R_ROTATE_TO_WINNER] = int(self.dealer_rotation == "winner")
        return arr
