"""Agents by name, with keyword options: ``"heuristic:aggression=0.7"`` or a mapping
``{"name": "heuristic", "aggression": 0.7}``."""

from __future__ import annotations

from typing import Any, Mapping

from agents.base import Agent, RandomAgent
from cardsim.errors import InvalidConfigError

GAMES = ("debertz", "barbu")


def _catalogue() -> dict[tuple[str, str], type]:
    """(game, name) -> agent class. Imported lazily: agent modules pull in compiled code."""
    from agents.barbu.heuristic import BarbuHeuristic
    from agents.debertz.heuristic import DebertzHeuristic

    table = {}
    for cls in (RandomAgent, DebertzHeuristic, BarbuHeuristic):
        for game in cls.games:
            table[(game, cls.name)] = cls
    return table


def agent_names(game: str) -> list[str]:
    return sorted(name for g, name in _catalogue() if g == game)


def _value(text: str):
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            raise InvalidConfigError(f"agent option value {text!r} is not a number") from None


def parse_spec(spec: str | Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """(name, options) of ``"name:key=value,key=value"`` or ``{"name": ..., key: value}``."""
    if isinstance(spec, Mapping):
        if "name" not in spec:
            raise InvalidConfigError(f"agent mapping {dict(spec)!r} needs a 'name' key")
        options = {k: v for k, v in spec.items() if k != "name"}
        return str(spec["name"]), options
    if not isinstance(spec, str) or not spec.strip():
        raise InvalidConfigError(f"agent must be a name like 'heuristic', got {spec!r}")
    name, _, rest = spec.strip().partition(":")
    options = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, text = item.partition("=")
        if not eq:
            raise InvalidConfigError(f"agent option {item!r} in {spec!r} must look like key=value")
        options[key.strip()] = _value(text.strip())
    return name, options


def make_agent(spec: str | Mapping[str, Any], game: str) -> Agent:
    """The agent a spec names, for ``game``; unknown names or options are clear errors."""
    if game not in GAMES:
        raise InvalidConfigError(f"unknown game {game!r}; games: {', '.join(GAMES)}")
    if isinstance(spec, Agent):
        return spec
    name, options = parse_spec(spec)
    cls = _catalogue().get((game, name))
    if cls is None:
        raise InvalidConfigError(
            f"unknown {game} agent {name!r}; agents: {', '.join(agent_names(game))}")
    return cls(game=game, options=options)


def batch_act_kernel(game: str):
    """The compiled ``batch_act(states, R, kind, params, rng)`` of a game."""
    if game == "debertz":
        from agents.debertz.play_nb import batch_act
    else:
        from agents.barbu.play_nb import batch_act
    return batch_act


def describe_agents(game: str) -> str:
    """One line per agent of a game: name, options with defaults and meanings."""
    lines = []
    for (g, name), cls in sorted(_catalogue().items()):
        if g != game:
            continue
        opts = "; ".join(f"{k}={o.default:g} in [{o.low:g}, {o.high:g}]: {o.doc}"
                         for k, o in cls.OPTIONS.items()) or "no options"
        doc = (cls.__doc__ or "").strip().splitlines()[0] if cls.__doc__ else ""
        lines.append(f"{name}: {doc} ({opts})")
    return "\n".join(lines)
