"""What the environments need to know about each game, in one place per game.

``GameKit`` gathers a game's rules class, state layout, observer, compiled environment loops
and facts (actions, seats, how winners are read). The environments are written once against
it; ``KITS["debertz"]`` and ``KITS["barbu"]`` are the two games.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Callable

import numpy as np

from cardsim.errors import InvalidConfigError


@dataclass(frozen=True)
class GameKit:
    name: str
    rules_cls: type
    layout: ModuleType
    observer: ModuleType
    kernels: ModuleType
    num_actions: int
    action_name: Callable[[int], str]
    whole_episode_name: str        # what episode="game" plays: a game, a match
    game_over_phase: int

    def make_rules(self, rules=None, conventions=None):
        """Rules from a rules object, a mapping and/or keyword conventions (validated)."""
        conventions = dict(conventions or {})
        if rules is None:
            return self.rules_cls.from_dict(conventions)
        if isinstance(rules, self.rules_cls):
            if conventions:
                return self.rules_cls.from_dict({**rules.to_dict(), **conventions})
            return rules
        if isinstance(rules, dict):
            return self.rules_cls.from_dict({**rules, **conventions})
        raise InvalidConfigError(
            f"rules must be a {self.rules_cls.__name__} or a dict, got {type(rules).__name__}")

    def players(self, rules) -> int:
        return getattr(rules, "players", 4)

    def side_of(self, rules, seat: int) -> int:
        return rules.side_of(seat) if hasattr(rules, "side_of") else seat

    def turn(self, st) -> int:
        return int(st[self.layout.TURN])

    def phase_name(self, st) -> str:
        return self.layout.PHASE_NAMES[int(st[self.layout.PHASE])]

    def is_game_over(self, st) -> bool:
        return int(st[self.layout.PHASE]) == self.game_over_phase

    def winning_seats(self, rules, st) -> set[int]:
        """Seats on the winning side(s) once the game (match) is over."""
        L = self.layout
        n = self.players(rules)
        if self.name == "debertz":
            w = int(st[L.WINNER])
            return {s for s in range(n) if self.side_of(rules, s) == w}
        mask = int(st[L.WINNERS])
        return {s for s in range(4) if mask >> s & 1}

    def legal_names(self, legal: np.ndarray) -> str:
        return ", ".join(self.action_name(a) for a in np.flatnonzero(legal)) or "none"


def _debertz() -> GameKit:
    from cardsim.debertz import layout, observe_nb
    from cardsim.debertz.actions import NUM_ACTIONS, action_name
    from cardsim.debertz.rules import DebertzRules
    from cardsim.envs import debertz_nb

    return GameKit("debertz", DebertzRules, layout, observe_nb, debertz_nb, NUM_ACTIONS,
                   action_name, "game", layout.PH_GAME_OVER)


def _barbu() -> GameKit:
    from cardsim.barbu import layout, observe_nb
    from cardsim.barbu.actions import NUM_ACTIONS, action_name
    from cardsim.barbu.rules import BarbuRules
    from cardsim.envs import barbu_nb

    return GameKit("barbu", BarbuRules, layout, observe_nb, barbu_nb, NUM_ACTIONS, action_name,
                   "match", layout.PH_MATCH_OVER)


_CACHE: dict[str, GameKit] = {}


def kit(game: str) -> GameKit:
    """The kit of ``game`` ("debertz" or "barbu")."""
    if game not in ("debertz", "barbu"):
        raise InvalidConfigError(f"unknown game {game!r}; games: debertz, barbu")
    if game not in _CACHE:
        _CACHE[game] = _debertz() if game == "debertz" else _barbu()
    return _CACHE[game]
