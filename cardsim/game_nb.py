"""Compiled code written once for both games: a game *tag* picks the kernels at compile time.

Each game module ``cardsim/<game>/face_nb.py`` defines the same kernels under the same names
and signatures (``init_item``, ``legal``, ``step``, ``observe``, ...). Code above the engine
calls the functions of this module with a ``GameTag`` as first argument, e.g.
``step(game, st, R, action)``. The tag has a numba type of its own per game, so numba
compiles one specialisation per game and each call resolves to that game's kernel while
typing (no branch at run time, and the kernel is inlined as if it were called directly).
Compiled functions that take a tag cache on disk like any other (``cache=True``).

Under ``NUMBA_DISABLE_JIT=1`` the same functions run as plain Python: each one calls the
kernel of ``game.kernels``.
"""

from __future__ import annotations

import importlib
import inspect
import warnings

from numba import njit, types
from numba.core.errors import NumbaIRAssumptionWarning
from numba.core.imputils import lower_constant
from numba.extending import (
    NativeValue,
    models,
    overload,
    register_model,
    typeof_impl,
    unbox,
)

from cardsim.jit import NO_REFCOUNT

# Inlining the face's kernels (themselves inlined engine kernels) into loops trips a pedantic
# check of numba's IR on the scope of renamed variables; the compiled code is unaffected
# (tests/test_table_parity.py checks results against the loops that called kernels directly).
warnings.filterwarnings("ignore", category=NumbaIRAssumptionWarning)


class GameTag:
    """Which game compiled code plays: ``GameTag("debertz")``. Its kernels are those of
    ``cardsim.<name>.face_nb`` (and the game's observer ``cardsim.<name>.observe_nb``)."""

    def __init__(self, name: str):
        self.name = name

    @property
    def kernels(self):
        """The game's compiled face module, ``cardsim.<name>.face_nb``."""
        return importlib.import_module(f"cardsim.{self.name}.face_nb")

    @property
    def observer(self):
        """The game's observer module, ``cardsim.<name>.observe_nb``."""
        return importlib.import_module(f"cardsim.{self.name}.observe_nb")

    def __repr__(self) -> str:
        return f"GameTag({self.name!r})"

    def __reduce__(self):
        return GameTag, (self.name,)


class GameTagType(types.Type):
    """The numba type of a ``GameTag``: one type per game."""

    def __init__(self, game: str):
        self.game = game
        super().__init__(name=f"GameTag({game})")


def register_type_only(value_class, numba_class, type_of) -> None:
    """Let compiled code take instances of ``value_class`` as the numba type ``type_of(value)``
    (a ``numba_class``) that carries no data: the type says all there is to know (the game of
    a tag, the policies of a set), so compiled code specialises on it and gets a dummy."""
    typeof_impl.register(value_class)(lambda value, context: type_of(value))
    register_model(numba_class)(models.OpaqueModel)
    unbox(numba_class)(lambda typ, obj, c: NativeValue(c.context.get_dummy_value()))


register_type_only(GameTag, GameTagType, lambda tag: GameTagType(tag.name))


@lower_constant(GameTagType)
def _constant_game(context, builder, typ, tag):
    """A tag held in a module global (``BARBU = GameTag("barbu")``) is usable in compiled
    code like one passed in."""
    return context.get_dummy_value()


def _name(game) -> str:
    """The game's name, of a tag (plain Python) or of its numba type (while typing)."""
    return game.game if isinstance(game, GameTagType) else game.name


def game_piece(module: str, name: str, params: str, doc: str = "", default=None):
    """A function ``name(game, <params>)`` that calls function ``name(<params>)`` of the
    game's module ``module`` (``"{game}"`` in it is filled in with the game's name): as plain
    Python (NUMBA_DISABLE_JIT) and in compiled code, where the game's function is picked while
    typing and inlined as a direct call. This is how code written once over the game tag
    (searches, samplers) reaches each game's own pieces; ``params`` are the argument names,
    e.g. ``"st, R"``. A piece a game may leave out has a ``default`` (a compiled function of
    ``params``), which serves a game whose module has no ``name``.

    The compiled overload is inlined into its caller's IR: as a call of its own it would pay
    reference counting on every argument and was measured twice as slow in the simulation
    loops."""

    def game_function(game):
        pieces = importlib.import_module(module.format(game=_name(game)))
        return getattr(pieces, name) if default is None else getattr(pieces, name, default)

    namespace = {"game_function": game_function}
    params = params.strip()
    head = f"game, {params}" if params else "game"
    exec(f"def {name}({head}):\n"  # noqa: S102 - a fixed template of names
         f"    return game_function(game)({params})\n", namespace)
    exec(f"def compiled({head}):\n"  # noqa: S102
         f"    k = game_function(game)\n"
         f"    return lambda {head}: k({params})\n", namespace)
    fn = namespace[name]
    fn.__doc__ = doc
    overload(fn, inline="always")(namespace["compiled"])
    return fn


def face(module: str):
    """Declares a face function by its signature and doc string alone: ``@face(FACE)`` on
    ``def turn(game, st): "..."`` makes ``turn`` the ``game_piece`` that calls the game's
    ``turn(st)`` of ``module``."""

    def declare(fn):
        params = list(inspect.signature(fn).parameters)[1:]  # all but the game
        piece = game_piece(module, fn.__name__, ", ".join(params), fn.__doc__)
        piece.__module__, piece.__qualname__ = fn.__module__, fn.__qualname__  # where declared
        return piece

    return declare


FACE = "cardsim.{game}.face_nb"  # the kernels every game provides under the same names
ENGINE = "cardsim.{game}.engine_nb"
OBSERVER = "cardsim.{game}.observe_nb"


# --- the face: each game's function of the same name, as plain Python (NUMBA_DISABLE_JIT) and
# inlined in compiled code ----------------------------------------------------------------------
@face(FACE)
def init_item(game, st, R, seed, item, whole):
    """Row ``st`` starts item ``item`` of a run (a deal in hands mode, or a whole game)."""


@face(FACE)
def legal(game, st, R):
    """The legal set ``(base, bits)`` of the seat to act: ``base + k`` is legal for each set
    bit ``k``; ``(0, 0)`` when nobody is to act."""


@face(ENGINE)
def step(game, st, R, action):
    """Apply a legal ``action`` of the seat to act."""


@face(ENGINE)
def next_deal(game, st, R):
    """Start the next deal of a game whose deal has ended (not over)."""


@face(FACE)
def num_seats(game, R):
    """Number of seats of the game under rules ``R``."""


@face(FACE)
def deal_over(game, st):
    """Whether the current deal has ended (or the game is over)."""


@face(FACE)
def game_over(game, st):
    """Whether the game (Debertz) or match (Barbu) is over."""


@face(FACE)
def item_over(game, st, whole):
    """Whether an item whose deal has just ended is finished."""


@face(FACE)
def turn(game, st):
    """The seat to act."""


@face(FACE)
def random_action(game, st, R, rng, i):
    """A uniformly random legal action from generator ``rng[i]``."""


@face(FACE)
def policy_stream(game, seed, item, whole):
    """The generator state of item ``item``'s decisions in a simulation."""


@face(FACE)
def duplicate_stream(game, seed, item, pattern):
    """The generator state of item ``item``'s decisions under seating pattern ``pattern``."""


@face(FACE)
def record_deal(game, st, R, stats, whole):
    """Add the deal that just ended to a statistics row (the game's S_* columns)."""


@face(FACE)
def count_decisions(game, stats, taken):
    """Add ``taken`` decisions to a statistics row."""


@face(FACE)
def seat_points(game, st, R, seat, whole):
    """Points per deal ``seat`` scored in a finished item (float)."""


@face(FACE)
def seat_won(game, st, R, seat, whole):
    """1 when ``seat`` is on a winning side of a finished game, else 0."""


@face(FACE)
def deals_played(game, st, whole):
    """Deals a finished item played."""


@face(FACE)
def item_label(game, st, whole):
    """A per-item category for breakdowns (Barbu: the contract played; else -1)."""


@face(FACE)
def force_contract(game, st, R, item):
    """Barbu hands mode: the declarer plays contract ``item % 7``."""


@face(FACE)
def deal_rewards(game, st, R, rewards):
    """Add each seat's points of the deal that just ended to ``rewards[seat]``."""


@face(OBSERVER)
def observe(game, st, R, seat, out):
    """Write what ``seat`` may know into the float32 vector ``out`` (the game's observer)."""


@face(FACE)
def state_width(game):
    """Width of the game's engine state row."""


@face(FACE)
def play_random_deal(game, st, R, state):
    """Random decisions until the current deal ends, from generator ``state`` held in a
    local; returns (new state, decisions taken)."""


# --- the step as a call of its own ------------------------------------------------------------
@njit(cache=True, **NO_REFCOUNT)
def apply_action(game, st, R, action):
    """The engine's step, compiled once per game and called (not inlined) by the table's
    loops and the search agents' play-outs and trees: each inlined copy of the step costs
    seconds of compilation (tens of seconds in the search agents, whose bodies then grow
    past what numba's IR passes handle quickly), and a call without reference counting
    costs little beside the step itself."""
    step(game, st, R, action)
