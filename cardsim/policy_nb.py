"""Compiled policies at the table, picked at compile time by a *policy set*.

A compiled agent kind declares its policy once (``CompiledPolicy``): its ``kind`` id and, per
game, the numba function that decides for it, ``action(game, params, st, R, base, bits, rng,
i)``: a legal action for the seat to act in state row ``st`` of game ``game`` (a tag,
cardsim.game_nb; code written once for both games uses it, a game's own code may ignore it),
whose legal set is ``(base, bits)`` (action ``base + k`` is legal when bit ``k`` of ``bits`` is
set), drawing from generator ``rng[i]`` with the agent's float options ``params``.

A ``PolicySet`` is the policies one table compiles into its loops: kind 0 (the game's own
uniformly random play, ``RANDOM``) and the declared policies it holds. The table
(``cardsim.table_nb``) calls ``choose(policies, game, kind, ...)``; the set's numba type
names its policies, so numba compiles (and caches on disk) one specialisation of the loops per
game and set, holding only that set's code. That is what keeps a table of the heuristic and
random play from compiling the search agents' samplers and solvers: each agent brings the
smallest set that holds its own policy, and a table compiles the union of its agents' sets
(``PolicySet.union``). Sets that nest (an agent's set holds those of the cheaper agents, as
``agents.policies`` declares them) make few distinct unions, so few compiled copies of the
loops.

The engine defines no policy above random play; ``agents`` declares its own, so the engine
never imports the agents above it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from numba import njit, types
from numba.extending import overload

from cardsim.game_nb import GameTagType, legal, register_type_only

RANDOM = 0     # the random policy's kind in every set
PYTHON = -1    # kind of a seat whose agent is asked from Python (the table stops there)


@dataclass(frozen=True, order=True)
class CompiledPolicy:
    """A compiled agent kind: its id at the table, its name, and per game the path
    ``"package.module:function"`` of its decision function (see the module doc string)."""

    kind: int
    name: str
    functions: tuple  # ((game, "module:function"), ...), sorted

    @classmethod
    def declare(cls, kind: int, name: str, functions: dict[str, str]) -> "CompiledPolicy":
        """A policy of kind ``kind`` (an id above 0, unique among the policies a table seats) named
        ``name``, with ``functions`` mapping each game to the ``"module:function"`` of its decision
        function. Raises ValueError for the reserved kinds 0 (random play) and -1 (a Python
        seat)."""
        if kind <= RANDOM:
            raise ValueError(f"policy {name!r}: kind {kind} is reserved (0 is random play, "
                             f"-1 a Python seat)")
        return cls(int(kind), name, tuple(sorted(functions.items())))

    def function(self, game: str):
        """The compiled decision function for ``game``."""
        paths = dict(self.functions)
        if game not in paths:
            raise KeyError(f"policy {self.name!r} has no {game} function")
        module, _, name = paths[game].partition(":")
        return getattr(importlib.import_module(module), name)


class PolicySet:
    """The compiled policies a table can seat: random play and ``policies``."""

    def __init__(self, *policies: CompiledPolicy):
        by_kind: dict[int, CompiledPolicy] = {}
        for p in policies:
            if by_kind.get(p.kind, p) != p:
                raise ValueError(f"policies {by_kind[p.kind].name!r} and {p.name!r} share "
                                 f"kind {p.kind}")
            by_kind[p.kind] = p
        self.policies = tuple(by_kind[k] for k in sorted(by_kind))

    @property
    def name(self) -> str:
        """The set's name, its policies' names joined by ``+`` (``"random+heuristic"``)."""
        return "+".join(["random"] + [p.name for p in self.policies])

    @property
    def kinds(self) -> tuple[int, ...]:
        """The kind ids of the set: 0 (random play) first, then its policies' in ascending
        order."""
        return (RANDOM,) + tuple(p.kind for p in self.policies)

    def union(self, *others: "PolicySet") -> "PolicySet":
        """The set holding the policies of this set and of ``others``."""
        return PolicySet(*self.policies, *(p for o in others for p in o.policies))

    def __eq__(self, other) -> bool:
        return isinstance(other, PolicySet) and self.policies == other.policies

    def __hash__(self) -> int:
        return hash(self.policies)

    def __repr__(self) -> str:
        return f"PolicySet({self.name})"

    def __reduce__(self):
        return PolicySet, self.policies


class PolicySetType(types.Type):
    """The numba type of a ``PolicySet``: one type per set of policies."""

    def __init__(self, policies: tuple):
        self.policies = policies
        described = ", ".join(f"{p.kind}={p.name}[{' '.join(f for _, f in p.functions)}]"
                              for p in policies)
        super().__init__(name=f"PolicySet({described})")


register_type_only(PolicySet, PolicySetType, lambda value: PolicySetType(value.policies))


RANDOM_POLICIES = PolicySet()  # the engine's own set: random play only


def choose(policies, game, kind, params, st, R, rng, i):
    """The action policy ``kind`` of set ``policies`` takes for the seat to act."""
    base, bits = legal(game, st, R)
    if kind != RANDOM:
        for p in policies.policies:
            if p.kind == kind:
                return p.function(game.name)(game, params, st, R, base, bits, rng, i)
    return game.kernels.random_legal(base, bits, rng, i)


@overload(choose, inline="always")
def _choose(policies, game, kind, params, st, R, rng, i):
    if not (isinstance(policies, PolicySetType) and isinstance(game, GameTagType)):
        return None
    pick = _dispatch(game.game, policies.policies)
    return lambda policies, game, kind, params, st, R, rng, i: pick(
        game, kind, params, st, R, legal(game, st, R), rng, i)


def _dispatch(game: str, policies: tuple):
    """A compiled chain of tests ``kind == k`` over ``policies``, ending with random play;
    each link calls its policy's function. The links are called, not inlined: numba's
    inliner lost the closure's constant ``k`` (every kind took the first policy; checked by
    tests/test_table.py), and a call per decision costs little beside the policy."""
    if not policies:
        pick_random = getattr(importlib.import_module(f"cardsim.{game}.face_nb"),
                              "random_legal")

        def last(game, kind, params, st, R, legal_set, rng, i):
            return pick_random(legal_set[0], legal_set[1], rng, i)
        return njit(last)
    k = policies[0].kind
    act = policies[0].function(game)
    rest = _dispatch(game, policies[1:])

    def link(game, kind, params, st, R, legal_set, rng, i):
        if kind == k:
            return act(game, params, st, R, legal_set[0], legal_set[1], rng, i)
        return rest(game, kind, params, st, R, legal_set, rng, i)
    return njit(link)
