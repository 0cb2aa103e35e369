"""The game contract: each game's facts and parts, declared once, under the same names for
both games (in the manner of OpenSpiel's ``GameType``/``GameInfo``).

``cardsim.games.get("debertz")`` (or ``"barbu"``) returns a ``Game``. Code above the engine
asks it instead of testing the game's name: its rules class, state layout, observer, hand
records, compiled face (``tag``, see cardsim.game_nb), statistics and the facts that size
buffers and check results (seats, sides, actions, decisions per deal, score bounds). Each
game declares its facts in ``cardsim/<game>/contract.py`` and its compiled face in
``cardsim/<game>/face_nb.py``, under the same names in both games.

**The registry.** A game is added by ``register_game(name)``: its package ``cardsim.<name>``
(where compiled code finds its kernels by the game tag, cardsim.game_nb) must provide the parts of ``REQUIRED_PARTS``, each module
with the names listed there; ``check_game`` says which are missing, and ``get`` checks a
game once per process before handing out its contract. Every list of games (``GAMES``, the
command line's choices, the agents' and the configs' checks) comes from the registry. The
search agents need the pieces of ``SEARCH_PARTS`` too (``check_game(name, search=True)``).
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Callable

import numpy as np

from cardsim.errors import InvalidConfigError
from cardsim.game_nb import GameTag

# module of the game's package -> the names it must define (the contract, the compiled face,
# the engine's step, observer, hand records, action names, statistics)
REQUIRED_PARTS = {
    "contract": ("TITLE", "NUM_CARDS", "PLAYER_COUNTS", "NUM_ACTIONS", "ZERO_SUM",
                 "WHOLE_ITEM_NAME", "DEALS_PER_GAME", "ITEM_LABELS", "RULES_CLASS", "GAME_CLASS",
                 "max_decisions_per_deal", "deal_score_bounds", "summarize",
                 "record_line", "describe_state"),
    "layout": ("STATE_WIDTH", "TURN", "PHASE", "PHASE_NAMES"),
    "face_nb": ("GAME", "init_item", "legal", "num_seats", "deal_over", "game_over",
                "item_over", "turn", "random_action", "random_legal", "policy_stream",
                "duplicate_stream", "record_deal", "count_decisions", "seat_points",
                "seat_won", "deals_played", "item_label", "force_contract", "deal_rewards",
                "state_width", "play_random_deal"),
    "engine_nb": ("step", "next_deal"),
    "observe_nb": ("SPEC", "OBS_SIZE", "observe"),
    "record": ("record_of_row", "replay"),
    "actions": ("action_name",),
    "view": ("table_view",),
    "simulate_nb": ("NUM_STATS", "S_DECISIONS"),
    "measures": ("measure_specs", "deal_measures", "game_measure_specs", "game_measures"),
}
# what the search layer (cardsim.sample_nb, cardsim.solve_nb, cardsim.maxn_nb) asks of a game
SEARCH_PARTS = {
    "sample_nb": ("knowledge_width", "scratch_size", "knowledge", "draw_deal", "write_drawn"),
    "solve_nb": ("POSITION_WIDTH", "position_of", "solve_root", "count_node", "trick_len",
                 "settle_boundary", "table_key", "generation", "settle_node", "to_act",
                 "maximises", "moves_of", "legal_of", "order_pick", "apply_card",
                 "undo_card", "wide_with_budget", "start_solve", "solves_maxn",
                 "share_budget", "restore_budget", "begin_card", "end_card", "play_scored",
                 "maxn_root_value", "unplay_scored", "value_merged", "open_node",
                 "undo_from_frame", "seat_utility", "pairs_sum_below_zero"),
}

_REGISTRY: dict[str, str] = {}   # game name -> its package


def register_game(name: str) -> None:
    """Add game ``name``, whose parts are the modules of package ``cardsim.<name>``."""
    if not name.isidentifier() or name in _REGISTRY:
        raise InvalidConfigError(f"cannot register game {name!r}: the name must be a new "
                                 f"identifier (registered: {', '.join(_REGISTRY)})")
    _REGISTRY[name] = f"cardsim.{name}"
    global GAMES
    GAMES = tuple(_REGISTRY)


def check_game(name: str, search: bool = False) -> list[str]:
    """The parts game ``name`` lacks, as ``module.name`` (empty when it provides them all);
    with ``search`` also the search layer's pieces."""
    parts = dict(REQUIRED_PARTS, **(SEARCH_PARTS if search else {}))
    missing = []
    for part, names in parts.items():
        try:
            module = importlib.import_module(f"{_REGISTRY[name]}.{part}")
        except ModuleNotFoundError:
            missing.append(f"{part} (no module)")
            continue
        missing += [f"{part}.{n}" for n in names if not hasattr(module, n)]
    return missing


GAMES: tuple[str, ...] = ()
register_game("debertz")
register_game("barbu")


@dataclass(frozen=True)
class Game:
    """One game's contract. Facts that depend on the conventions take the rules."""

    name: str

    def _module(self, part: str) -> ModuleType:
        return _game_module(self.name, part)

    # --- facts ----------------------------------------------------------------------------
    @property
    def _facts(self) -> ModuleType:
        return self._module("contract")

    @property
    def title(self) -> str:
        """The game's name as people write it (``"Debertz"``, ``"Barbu"``)."""
        return self._facts.TITLE

    @property
    def num_cards(self) -> int:
        """Cards in the deck (card ids are 0 .. num_cards - 1)."""
        return self._facts.NUM_CARDS

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The numbers of seats a table may have."""
        return self._facts.PLAYER_COUNTS

    @property
    def num_actions(self) -> int:
        """Action ids are 0 .. num_actions - 1."""
        return self._facts.NUM_ACTIONS

    @property
    def zero_sum(self) -> bool:
        """Whether the seats' totals of a whole game (match) always sum to zero."""
        return self._facts.ZERO_SUM

    @property
    def whole_item_name(self) -> str:
        """What a whole item is: "game" or "match"."""
        return self._facts.WHOLE_ITEM_NAME

    @property
    def deals_per_game(self) -> int | None:
        """The fixed number of deals of a whole game (None: played until a target)."""
        return self._facts.DEALS_PER_GAME

    @property
    def item_labels(self) -> tuple[str, ...]:
        """Names of the per-deal categories results can be broken down by (Barbu's
        contracts; none in Debertz)."""
        return self._facts.ITEM_LABELS

    def max_decisions_per_deal(self, rules) -> int:
        """An upper bound on the decisions of one deal."""
        return self._facts.max_decisions_per_deal(rules)

    def max_decisions_per_game(self, rules) -> int | None:
        """An upper bound on the decisions of a whole game; None when a game has no fixed
        length."""
        if self.deals_per_game is None:
            return None
        return self.deals_per_game * self.max_decisions_per_deal(rules)

    def deal_score_bounds(self, rules) -> tuple[float, float | None]:
        """Bounds of the points one seat records in one deal (an environment's reward before
        scaling); None where there is no bound."""
        return self._facts.deal_score_bounds(rules)

    def players(self, rules) -> int:
        """Number of seats under ``rules``: its ``players`` convention, else the game's only
        count."""
        return int(getattr(rules, "players", self.player_counts[0]))

    def sides(self, rules) -> int:
        """Scoring sides: teams of two where the rules have teams, else one per seat."""
        return 2 if getattr(rules, "teams", False) else self.players(rules)

    def side_of(self, rules, seat: int) -> int:
        """The scoring side of ``seat``: the rules' own ``side_of`` where they have sides,
        else the seat itself."""
        side_of = getattr(rules, "side_of", None)
        return side_of(seat) if side_of is not None else seat

    # --- parts ----------------------------------------------------------------------------
    @property
    def tag(self) -> GameTag:
        """The compiled face's tag: pass it to the kernels of cardsim.game_nb / table_nb."""
        return GameTag(self.name)

    @property
    def rules_cls(self) -> type:
        """The game's frozen rules dataclass (``DebertzRules``, ``BarbuRules``)."""
        return _attr(self._facts.RULES_CLASS)

    @property
    def game_cls(self) -> type:
        """The Python game class (same methods in both games: phase, turn, hands, ...)."""
        return _attr(self._facts.GAME_CLASS)

    @property
    def layout(self) -> ModuleType:
        """The state row's fields (offsets, phases, rules indices)."""
        return self._module("layout")

    @property
    def observer(self) -> ModuleType:
        """The observer: ``SPEC`` (named pieces), ``OBS_SIZE``, ``observe(st, R, seat, out)``."""
        return self._module("observe_nb")

    @property
    def records(self) -> ModuleType:
        """Hand records: ``record_of_row(st, rules, seed)`` and ``replay(record)``."""
        return self._module("record")

    @property
    def kernels(self) -> ModuleType:
        """The compiled face (``cardsim.<game>.face_nb``), same names in both games."""
        return self._module("face_nb")

    @property
    def stats(self) -> ModuleType:
        """Simulation statistics: columns ``S_*`` and ``NUM_STATS``."""
        return self._module("simulate_nb")

    @property
    def measures(self) -> ModuleType:
        """Measures for rules studies (experiments.tournaments.study): per deal
        ``measure_specs(rules)``
        and ``deal_measures(S, stats, rules)``, per whole game ``game_measure_specs`` and
        ``game_measures``."""
        return self._module("measures")

    @property
    def obs_size(self) -> int:
        """Length of one seat's flat float32 observation vector."""
        return int(self.observer.OBS_SIZE)

    @property
    def num_stats(self) -> int:
        """Number of columns of a simulation statistics row."""
        return int(self.stats.NUM_STATS)

    @property
    def action_name(self) -> Callable[[int], str]:
        """The function naming an action id (``actions.action_name``)."""
        return self._module("actions").action_name

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

    # --- reading a state row -------------------------------------------------------------
    def turn(self, st: np.ndarray) -> int:
        """The seat to act in state row ``st``."""
        return int(st[self.layout.TURN])

    def phase_name(self, st: np.ndarray) -> str:
        """Name of the phase of state row ``st`` (``layout.PHASE_NAMES``)."""
        return self.layout.PHASE_NAMES[int(st[self.layout.PHASE])]

    def is_game_over(self, st: np.ndarray) -> bool:
        """Whether the whole game (match) of state row ``st`` is over."""
        return bool(self.kernels.game_over(st))

    def winning_seats(self, rules, st: np.ndarray) -> set[int]:
        """Seats on the winning side(s) of a finished game (match)."""
        R = rules.pack()
        return {s for s in range(self.players(rules))
                if self.kernels.seat_won(st, R, s, True)}

    def describe_state(self, rules, st: np.ndarray, seat: int) -> list[str]:
        """What ``seat`` sees of row ``st`` as text lines (hand, trick, trump or contract,
        scores)."""
        return self._facts.describe_state(st, rules, seat)

    def table_view(self, rules, st: np.ndarray, seat: int | None,
                   reveal: bool = False) -> dict:
        """What a table shows of row ``st`` to ``seat`` as plain data (public facts of the
        deal, the seat's hand, the others' hands only with ``reveal``): the game's
        ``view.table_view``."""
        return self._module("view").table_view(st, rules, seat, reveal)

    def legal_names(self, legal: np.ndarray) -> str:
        """The legal actions of a boolean row, by name."""
        return ", ".join(self.action_name(a) for a in np.flatnonzero(legal)) or "none"

    def record_line(self, st: np.ndarray, rules, seed: int) -> str:
        """The hand record of the deal just ended in state row ``st``, as the JSON line the
        game's record files hold."""
        return self._facts.record_line(st, rules, seed)

    # --- statistics -----------------------------------------------------------------------
    def summarize(self, stats: np.ndarray, rules, seed: int, whole: bool,
                  seconds: float) -> dict:
        """The readable summary of a simulation's statistics array."""
        return self._facts.summarize(stats, rules, seed, whole, seconds)

    def bench(self, rules, hands: int, threads: int) -> dict:
        """Throughput of the engine's compiled random-play fast path, and its share of the
        rate of a play-only reference loop (cardsim.engine_bench)."""
        from cardsim.engine_bench import bench

        return bench(self, rules, hands, threads)


@functools.lru_cache(maxsize=None)
def _game_module(game: str, part: str) -> ModuleType:
    """``<package>.<part>`` of a game, looked up once (environments read parts on every
    step)."""
    return importlib.import_module(f"{_REGISTRY[game]}.{part}")


def _attr(path: str):
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


@functools.lru_cache(maxsize=None)
def _checked(name: str) -> Game:
    missing = check_game(name)
    if missing:
        raise InvalidConfigError(f"game {name!r} lacks parts of the game contract: "
                                 f"{', '.join(missing)}")
    return Game(name)


def get(name) -> Game:
    """The contract of a registered game (``GAMES``), checked once per process.

    Args:
        name: a registered game's name (``"debertz"``, ``"barbu"``), or a ``Game``.

    Returns:
        The game's ``Game``: its facts and parts.

    Raises:
        InvalidConfigError: an unknown game, or one whose package lacks parts of the contract.
    """
    if isinstance(name, Game):
        return name
    if name not in _REGISTRY:
        raise InvalidConfigError(f"unknown game {name!r}; games: {', '.join(GAMES)}")
    return _checked(name)


def rules_of(name, conventions=None):
    """The rules object of a game as files keep it: the game's name and its conventions
    (``to_dict()``; None: the defaults), as configs, results and kept games hold them. The
    rules know their game (``rules.game``), so nothing below needs the name again.

    Raises:
        InvalidConfigError: an unknown game, or an unknown or invalid convention.
    """
    return get(name).make_rules(conventions=conventions)
