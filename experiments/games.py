"""What the experiment layer needs to know about each game: rules class, seats and sides,
compiled agent loops, statistics summaries and hand records."""

from __future__ import annotations

from dataclasses import dataclass
import numpy as np

from agents.base import CompiledAgent
from agents.registry import make_agent
from cardsim.errors import InvalidConfigError


@dataclass(frozen=True)
class GameInfo:
    name: str
    rules_cls: type


def game_info(game: str) -> GameInfo:
    if game == "debertz":
        from cardsim.debertz.rules import DebertzRules

        return GameInfo("debertz", DebertzRules)
    if game == "barbu":
        from cardsim.barbu.rules import BarbuRules

        return GameInfo("barbu", BarbuRules)
    raise InvalidConfigError(f"unknown game {game!r}; games: debertz, barbu")


def seats_of(rules) -> int:
    return getattr(rules, "players", 4)


def sides_of(rules) -> int:
    """Scoring sides: Debertz teams, else one per seat."""
    return 2 if getattr(rules, "teams", False) else seats_of(rules)


def side_of(rules, seat: int) -> int:
    return seat % 2 if getattr(rules, "teams", False) else seat


def seat_agents(specs, game: str, rules) -> list[CompiledAgent]:
    """One agent per seat from 1 spec (every seat), one per side (Debertz teams) or one per
    seat."""
    specs = list(specs) if specs else ["random"]
    n, sides = seats_of(rules), sides_of(rules)
    agents = [make_agent(s, game) for s in specs]
    for a in agents:
        if not isinstance(a, CompiledAgent):
            raise InvalidConfigError(f"agent {a.label!r} has no compiled policy; simulations "
                                     f"and tournaments need compiled agents")
    if len(agents) == 1:
        return agents * n
    if len(agents) == sides and sides != n:
        return [agents[side_of(rules, s)] for s in range(n)]
    if len(agents) == n:
        return agents
    allowed = f"1 or {n}" if sides == n else f"1, {sides} (one per side) or {n}"
    raise InvalidConfigError(f"{len(agents)} agents given for {n} seats; give {allowed}")


def kinds_and_params(agents: list[CompiledAgent]) -> tuple[np.ndarray, np.ndarray]:
    kinds = np.array([a.kind for a in agents], dtype=np.int64)
    params = np.stack([a.params for a in agents]).astype(np.float64)
    return kinds, params


def play_module(game: str):
    """The compiled agent loops of a game (agents/<game>/play_nb.py)."""
    if game == "debertz":
        from agents.debertz import play_nb
    else:
        from agents.barbu import play_nb
    return play_nb

