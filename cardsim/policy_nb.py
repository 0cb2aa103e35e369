"""Compiled policies at the table, picked at compile time by a *policy set* tag.

A policy set names, per game, a module whose ``choose_action(kind, params, st, R, rng, i)``
returns a legal action for the seat to act in state row ``st``: ``kind`` selects the policy
(0 is always the uniformly random one), ``params`` its float options, ``rng[i]`` its
generator. The table (``cardsim.table_nb``) calls ``choose(policies, game, kind, ...)``, so it
seats policies defined above the engine (``agents`` registers its own set with the heuristic
and the search agents) without the engine importing them.

``RANDOM_POLICIES`` is the engine's own set: kind 0, uniformly random legal actions, drawing
exactly as the simulation fast path does.
"""

from __future__ import annotations

import importlib

from numba import types
from numba.extending import (NativeValue, models, overload, register_model, typeof_impl,
                             unbox)

from cardsim.game_nb import GameTagType

RANDOM = 0     # the random policy's kind in every set
PYTHON = -1    # kind of a seat whose agent is asked from Python (the table stops there)


class PolicySet:
    """``PolicySet(name, {game: module})``: the compiled policies a table can seat."""

    def __init__(self, name: str, modules: dict[str, str]):
        self.name = name
        self.modules = tuple(sorted(modules.items()))

    def module(self, game: str):
        return importlib.import_module(dict(self.modules)[game])

    def __repr__(self) -> str:
        return f"PolicySet({self.name!r})"

    def __reduce__(self):
        return PolicySet, (self.name, dict(self.modules))


class PolicySetType(types.Type):
    def __init__(self, name: str, modules: tuple):
        self.set_name = name
        self.modules = modules
        super().__init__(name=f"PolicySet({name}: {', '.join(m for _, m in modules)})")


@typeof_impl.register(PolicySet)
def _typeof_policies(value, context):
    return PolicySetType(value.name, value.modules)


register_model(PolicySetType)(models.OpaqueModel)


@unbox(PolicySetType)
def _unbox_policies(typ, obj, c):
    return NativeValue(c.context.get_dummy_value())


RANDOM_POLICIES = PolicySet("random", {"debertz": "cardsim.debertz.face_nb",
                                       "barbu": "cardsim.barbu.face_nb"})


def choose(policies, game, kind, params, st, R, rng, i):
    """The action policy ``kind`` of set ``policies`` takes for the seat to act."""
    return policies.module(game.name).choose_action(kind, params, st, R, rng, i)


@overload(choose, inline="always")
def _choose(policies, game, kind, params, st, R, rng, i):
    if not (isinstance(policies, PolicySetType) and isinstance(game, GameTagType)):
        return None
    k = importlib.import_module(dict(policies.modules)[game.game]).choose_action
    return lambda policies, game, kind, params, st, R, rng, i: k(kind, params, st, R, rng, i)
