"""Seating agents for the experiment layer: specs -> agents per seat, for any game (the
game's facts come from its contract, ``cardsim.games``)."""

from __future__ import annotations

from agents.registry import make_agent
from cardsim import games
from cardsim.errors import InvalidConfigError


def seat_agents(specs, game: str, rules) -> list:
    """One agent per seat from 1 spec (every seat), one per side (Debertz teams) or one per
    seat. Specs are names, import paths or agent objects (compiled or Python)."""
    g = rules.game
    specs = list(specs) if specs else ["random"]
    n, sides = g.players(rules), g.sides(rules)
    agents = [make_agent(s, game, rules) for s in specs]
    if len(agents) == 1:
        return agents * n
    if len(agents) == sides and sides != n:
        return [agents[g.side_of(rules, s)] for s in range(n)]
    if len(agents) == n:
        return agents
    allowed = f"1 or {n}" if sides == n else f"1, {sides} (one per side) or {n}"
    raise InvalidConfigError(f"{len(agents)} agents given for {n} seats; give {allowed}")


def seating_of(seat_list: list):
    """A one-pattern ``cardsim.table.Seating`` of agents per seat (an agent in several
    seats is one agent)."""
    from cardsim.table import Seating

    distinct: list = []
    index = []
    for a in seat_list:
        for j, b in enumerate(distinct):
            if b is a:
                index.append(j)
                break
        else:
            distinct.append(a)
            index.append(len(distinct) - 1)
    return Seating(distinct, [index])


def make_rules(game: str, players=None, teams=False, overrides=()):
    """The rules of ``game`` from the command line's options (the browser table's set-up
    too): ``--players``, ``--teams`` (which implies 4 players) and the ``--rule key=value``
    pairs of ``overrides``. Raises ``InvalidConfigError`` when an option does not apply to
    the game, when ``--players``/``--teams`` and a ``--rule`` set the same convention, or
    for an invalid convention."""
    contract = games.get(game)
    base = {}
    if len(contract.player_counts) == 1 and (players is not None or teams):
        raise InvalidConfigError(f"--players and --teams are Debertz options; {game} has 4 "
                                 f"players each for themselves")
    named = {pair.split("=", 1)[0].strip() for pair in overrides}
    for option, rule, given in (("--players", "players", players is not None),
                                ("--teams", "teams", teams)):
        if given and rule in named:
            raise InvalidConfigError(f"{option} and --rule {rule}=... both set {rule!r}; "
                                     f"give one of them")
    if players is not None:
        base["players"] = players
    if teams:
        base["teams"] = True
        base.setdefault("players", 4)
    return contract.rules_cls.from_overrides(list(overrides), base)
