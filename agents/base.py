"""The agent protocol, and agents whose policy runs inside compiled code.

Every agent has ``reset(seed)`` and a batched ``act(observations, legal_masks) -> actions``.

``CompiledAgent``s (random, heuristic, ...) also have a numba policy: the table's compiled
loops (``cardsim.table_nb``) call it by the agent's ``kind`` id with its float ``params``
vector, so a simulation never returns to Python per move. Each agent brings its
``policies`` (``agents.policies``: the smallest set holding its own policy), and a table
compiles only the union of its agents' sets. A compiled policy reads
the engine state row of the seat to act, and only what that seat may know (its own cards,
cards played, the trick, the turn-up and where it went, bids, voids shown, scores), which
``tests/agents`` checks by changing the hidden cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import ClassVar

import numpy as np

from cardsim import games
from cardsim.errors import InvalidConfigError
from cardsim.games import GAMES, Game
from cardsim.policy_nb import RANDOM_POLICIES, PolicySet
from cardsim.rules import parse_switch

PARAMS_WIDTH = 8  # length of every compiled agent's parameter vector


@dataclass(frozen=True)
class Option:
    """One keyword option of an agent: default, bounds and meaning. A ``switch`` is on or
    off: 1 or 0, written any way the rules' switches are (cardsim.rules.parse_switch)."""

    default: float
    low: float
    high: float
    doc: str
    switch: bool = False

    def allowed(self) -> str:
        """The values the option accepts, as error messages and ``cardsim agents`` write them."""
        return ("0 or 1 (also true/false, yes/no, on/off)" if self.switch
                else f"a number in [{self.low:g}, {self.high:g}]")

    def accepts(self, value) -> bool:
        """Whether ``value`` (a number, not a bool) is allowed: 0 or 1 for a switch, else within
        ``[low, high]``."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        return value in (0, 1) if self.switch else self.low <= value <= self.high


def option_slot(options: dict[str, Option], name: str) -> int:
    """The entry of option ``name`` in the parameter vector of an agent declaring ``options``
    (``CompiledAgent.params``: declaration order): what its kernels' slot constants hold.
    KeyError where it declares no such option, ValueError where the vector has no room."""
    if name not in options:
        raise KeyError(f"no option {name!r} among {', '.join(options)}")
    slot = list(options).index(name)
    if slot >= PARAMS_WIDTH:
        raise ValueError(f"option {name!r} is number {slot + 1} of {len(options)}; the "
                         f"parameter vector holds {PARAMS_WIDTH}")
    return slot


class Agent:
    """Base of every agent: a name, a game, ``reset`` and ``act``."""

    name: ClassVar[str] = ""
    games: ClassVar[tuple[str, ...]] = ()

    def __init__(self, game: str):
        self.game = game

    @cached_property
    def kit(self) -> Game:
        """The ``Game`` of ``self.game`` (its facts and parts), resolved once per agent."""
        return games.get(self.game)

    def reset(self, seed: int) -> None:  # stateless agents need nothing
        """Start a new run of decisions from ``seed``; an agent that draws at random seeds its
        generator here (the base only keeps the seed)."""
        self.seed = seed

    def act(self, observations, legal_masks) -> np.ndarray:
        """The actions of a batch of decisions: ``observations`` of the seats to act and their
        ``legal_masks`` (bool, one row per decision, ``num_actions`` columns); returns one legal
        action id per row (int array). Every agent implements it."""
        raise NotImplementedError

    @property
    def label(self) -> str:
        """The agent's name in tables: ``label=NAME`` of its spec, else its own."""
        return self.__dict__.get("_given_label") or self._default_label()

    @label.setter
    def label(self, text: str) -> None:
        self.__dict__["_given_label"] = text

    def _default_label(self) -> str:
        return self.name


@dataclass
class CompiledAgent(Agent):
    """An agent with a numba policy: ``kind`` selects it in its ``policies``."""

    game: str
    options: dict[str, float] = field(default_factory=dict)

    kind: ClassVar[int] = -1
    policies: ClassVar[PolicySet] = RANDOM_POLICIES
    OPTIONS: ClassVar[dict[str, Option]] = {}

    def __post_init__(self):
        for key, value in self.options.items():
            if key not in self.OPTIONS:
                allowed = ", ".join(self.OPTIONS) or "none"
                raise InvalidConfigError(
                    f"agent {self.name!r} has no option {key!r}; its options: {allowed}")
            opt = self.OPTIONS[key]
            if opt.switch and parse_switch(value) is not None:  # true/false, yes/no, 1/0
                value = self.options[key] = int(parse_switch(value))
            if isinstance(value, str):
                raise InvalidConfigError(
                    f"agent {self.name!r} option {key!r} = {value!r} is not "
                    f"{'on or off' if opt.switch else 'a number'}; "
                    f"allowed: {opt.allowed()}")
            if not opt.accepts(value):
                raise InvalidConfigError(
                    f"agent {self.name!r} option {key!r} = {value!r} is out of range; "
                    f"allowed: {opt.allowed()}")

    @property
    def params(self) -> np.ndarray:
        """Option values in declaration order, padded to PARAMS_WIDTH."""
        p = np.zeros(PARAMS_WIDTH, dtype=np.float64)
        for k, (name, opt) in enumerate(self.OPTIONS.items()):
            p[k] = float(self.options.get(name, opt.default))
        return p

    def _default_label(self) -> str:
        if not self.options:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v:g}" for k, v in sorted(self.options.items()))

    def act(self, observations, legal_masks=None) -> np.ndarray:
        """Actions for a batch of games where this agent's seat is to act.

        ``observations`` is either what the table gives Python agents (observation vectors
        whose ``engine`` holds the engine rows and their generators: the agent then decides
        exactly as if it were seated at the table itself), or ``EngineView(states, rules)``: a
        batch of engine state rows, decided with the agent's own generator (``reset``).
        ``legal_masks`` may be omitted: a compiled policy computes the legal set itself and
        only ever returns a legal action."""
        from cardsim import table_nb

        engine = getattr(observations, "engine", None)
        if engine is not None:
            return table_nb.act_rows(engine.game, self.policies, engine.states, engine.R,
                                     self.kind, self.params, engine.rng,
                                     np.ascontiguousarray(engine.rows, dtype=np.int64))
        if not isinstance(observations, tuple):
            raise InvalidConfigError(
                f"compiled agent {self.label!r} decides from engine rows: give it the "
                f"table's observations or EngineView(states, packed_rules)")
        states, packed_rules = observations
        if not hasattr(self, "_rng"):
            self.reset(0)
        return table_nb.act_states(self.kit.tag, self.policies,
                                   np.ascontiguousarray(states), packed_rules, self.kind,
                                   self.params, self._rng)

    def reset(self, seed: int) -> None:
        """Seed the agent's own generator (its random choices, not the deals)."""
        from cardsim import rng_nb, stream_keys

        self.seed = seed
        self._rng = np.array([rng_nb.stream(seed, 0, stream_keys.AGENT)], dtype=np.uint64)


class EngineView(tuple):
    """What a compiled agent observes: ``(states, packed_rules)``."""

    def __new__(cls, states, packed_rules):
        return super().__new__(cls, (states, packed_rules))


class RandomAgent(CompiledAgent):
    """Uniformly random legal decisions (both games)."""

    name = "random"
    games = GAMES
    kind = 0
