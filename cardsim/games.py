"""The game contract: each game's facts and parts, declared once, under the same names for
both games (in the manner of OpenSpiel's ``GameType``/``GameInfo``).

``cardsim.games.get("debertz")`` (or ``"barbu"``) returns a ``Game``. Code above the engine
asks it instead of testing the game's name: its rules class, state layout, observer, hand
records, compiled face (``tag``, see cardsim.game_nb), statistics and the facts that size
buffers and check results (seats, sides, actions, decisions per deal, score bounds).
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from types import ModuleType
from typing import Callable

import numpy as np

from cardsim.errors import InvalidConfigError
from cardsim.game_nb import GameTag

GAMES = ("debertz", "barbu")


@dataclass(frozen=True)
class Game:
    """One game's contract. Facts that depend on the conventions are methods of ``rules``."""

    name: str
    title: str
    player_counts: tuple[int, ...]     # seats a table may have
    num_actions: int                   # action ids 0 .. num_actions - 1
    zero_sum: bool                     # scores of all sides always total zero
    whole_item_name: str               # what a whole item is: "game" or "match"
    deals_per_game: int | None         # fixed length of a whole game (None: until a target)
    _rules_cls: str
    _game_cls: str
    _actions: str

    # --- parts ----------------------------------------------------------------------------
    @property
    def tag(self) -> GameTag:
        """The compiled face's tag: pass it to the kernels of cardsim.game_nb / table_nb."""
        return GameTag(self.name)

    @property
    def rules_cls(self) -> type:
        return _attr(self._rules_cls)

    @property
    def game_cls(self) -> type:
        """The Python game class (same methods in both games: phase, turn, hands, ...)."""
        return _attr(self._game_cls)

    @property
    def layout(self) -> ModuleType:
        return importlib.import_module(f"cardsim.{self.name}.layout")

    @property
    def observer(self) -> ModuleType:
        """The observer: ``SPEC`` (named pieces), ``OBS_SIZE``, ``observe(st, R, seat, out)``."""
        return importlib.import_module(f"cardsim.{self.name}.observe_nb")

    @property
    def records(self) -> ModuleType:
        """Hand records: ``record_of_row(st, rules, seed)`` and ``replay(record)``."""
        return importlib.import_module(f"cardsim.{self.name}.record")

    @property
    def kernels(self) -> ModuleType:
        """The compiled face (``cardsim.<game>.face_nb``), same names in both games."""
        return importlib.import_module(f"cardsim.{self.name}.face_nb")

    @property
    def stats(self) -> ModuleType:
        """Simulation statistics: columns ``S_*`` and ``NUM_STATS``."""
        return importlib.import_module(f"cardsim.{self.name}.simulate_nb")

    @property
    def obs_size(self) -> int:
        return int(self.observer.OBS_SIZE)

    @property
    def action_name(self) -> Callable[[int], str]:
        return _attr(self._actions + ":action_name")

    # --- facts that depend on the conventions ---------------------------------------------
    def make_rules(self, rules=None, conventions=None):
        """Rules from a rules object, a mapping and/or keyword conventions (validated)."""
        cls = self.rules_cls
        conventions = dict(conventions or {})
        if rules is None:
            return cls.from_dict(conventions)
        if isinstance(rules, cls):
            return cls.from_dict({**rules.to_dict(), **conventions}) if conventions else rules
        if isinstance(rules, dict):
            return cls.from_dict({**rules, **conventions})
        raise InvalidConfigError(
            f"rules must be a {cls.__name__} or a dict, got {type(rules).__name__}")

    def players(self, rules) -> int:
        return int(getattr(rules, "players", 4))

    def sides(self, rules) -> int:
        """Scoring sides: Debertz teams of two, else one per seat."""
        return 2 if getattr(rules, "teams", False) else self.players(rules)

    def side_of(self, rules, seat: int) -> int:
        return seat % 2 if getattr(rules, "teams", False) else seat

    def max_decisions_per_deal(self, rules) -> int:
        """An upper bound on the decisions of one deal."""
        if self.name == "debertz":
            n = self.players(rules)
            tricks = 8 if n == 4 else 9                      # D12
            return 2 * n + 1 + tricks * n                     # two bidding rounds, swap, cards
        L = self.layout
        return 2 + 2 * 12 + L.PLAYS_WIDTH                    # contract, trump/rank, B6, plays

    def max_decisions_per_game(self, rules) -> int | None:
        """An upper bound on the decisions of a whole game; None when a game has no fixed
        length (Debertz plays deals until a side reaches the target, D11)."""
        if self.deals_per_game is None:
            return None
        return self.deals_per_game * self.max_decisions_per_deal(rules)

    def deal_score_bounds(self, rules) -> tuple[float, float | None]:
        """Bounds of the points one seat records in one deal (an env's reward before
        scaling); None where there is no bound."""
        if self.name == "debertz":
            # D9: recorded points are never negative but for the byte and no-trick penalties;
            # the pot of hanging bytes carries over without limit, so no upper bound.
            return -float(rules.byte_penalty) - float(rules.no_trick_penalty), None
        # B4/B5: a contract score lies in -30 .. +65; B7.2: each of three pairs settles at
        # most twice the largest difference of two contract scores (95)
        return -30.0 - 3 * 2 * 95.0, 65.0 + 3 * 2 * 95.0

    def record_line(self, st: np.ndarray, rules, seed: int) -> str:
        """The hand record of the deal that has just ended in state row ``st``, as the JSON
        line the game's record files hold."""
        record = self.records.record_of_row(st, rules, seed)
        if self.name == "barbu":
            return self.records.to_json_line(record)
        return json.dumps(record, separators=(",", ":"), ensure_ascii=False)

    # --- reading a state row -------------------------------------------------------------
    def turn(self, st: np.ndarray) -> int:
        """The seat to act in state row ``st``."""
        return int(st[self.layout.TURN])

    def phase_name(self, st: np.ndarray) -> str:
        return self.layout.PHASE_NAMES[int(st[self.layout.PHASE])]

    def is_game_over(self, st: np.ndarray) -> bool:
        return bool(self.kernels.game_over(st))

    def winning_seats(self, rules, st: np.ndarray) -> set[int]:
        """Seats on the winning side(s) of a finished game (match)."""
        R = rules.pack()
        return {s for s in range(self.players(rules))
                if self.kernels.seat_won(st, R, s, True)}

    def legal_names(self, legal: np.ndarray) -> str:
        """The legal actions of a boolean row, by name."""
        return ", ".join(self.action_name(a) for a in np.flatnonzero(legal)) or "none"

    # --- statistics -----------------------------------------------------------------------
    @property
    def num_stats(self) -> int:
        return int(self.stats.NUM_STATS)

    def summarize(self, stats: np.ndarray, rules, seed: int, whole: bool,
                  seconds: float) -> dict:
        """The readable summary of a statistics array."""
        summary = importlib.import_module(f"cardsim.{self.name}.summary")
        if self.name == "debertz":
            return summary.summarize(stats, rules, seconds)
        return summary.summarize(stats, rules, seed, whole, seconds)

    def bench(self, rules, hands: int, threads: int) -> dict:
        """Throughput of the engine's compiled random-play fast path."""
        summary = importlib.import_module(f"cardsim.{self.name}.summary")
        if self.name == "debertz":
            return summary.bench(rules, hands=hands, threads=threads)
        return summary.bench(hands=hands, threads=threads)

    def contract_names(self) -> tuple[str, ...]:
        """Labels of per-item breakdowns (Barbu's contracts; none in Debertz)."""
        if self.name == "barbu":
            from cardsim.barbu.actions import CONTRACT_NAMES
            return tuple(CONTRACT_NAMES)
        return ()


def _attr(path: str):
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


_GAMES = {
    "debertz": Game("debertz", "Debertz", (2, 3, 4), 40, zero_sum=False,
                    whole_item_name="game", deals_per_game=None,
                    _rules_cls="cardsim.debertz.rules:DebertzRules",
                    _game_cls="cardsim.debertz.game:DebertzGame",
                    _actions="cardsim.debertz.actions"),
    "barbu": Game("barbu", "Barbu", (4,), 80, zero_sum=True, whole_item_name="match",
                  deals_per_game=28,
                  _rules_cls="cardsim.barbu.rules:BarbuRules",
                  _game_cls="cardsim.barbu.game:BarbuGame",
                  _actions="cardsim.barbu.actions"),
}


def get(name: str) -> Game:
    """The contract of game ``name`` ("debertz" or "barbu")."""
    if isinstance(name, Game):
        return name
    try:
        return _GAMES[name]
    except (KeyError, TypeError):
        raise InvalidConfigError(f"unknown game {name!r}; games: {', '.join(GAMES)}") from None
