"""Typed exceptions of cardsim. Every message names what was wrong and what is allowed."""


class CardsimError(Exception):
    """Base class of every error cardsim raises on purpose."""


class InvalidConfigError(CardsimError, ValueError):
    """A rules convention, config key or option has an unknown name or a value out of range."""


class InvalidCardError(CardsimError, ValueError):
    """A card string or card index that does not name a card of the deck in use."""


class IllegalActionError(CardsimError, ValueError):
    """An action that is not legal in the current state (the message lists the legal ones)."""


class AgentError(CardsimError, RuntimeError):
    """An agent's own code raised while deciding: the message names the agent, the deal and
    the exception (which is the ``__cause__``, with its traceback)."""


class HandRecordError(CardsimError, ValueError):
    """A hand record that is corrupt, of an unknown format, or disagrees with its replay."""


class MissingDependencyError(CardsimError, ImportError):
    """An optional package that a feature needs is not installed (the message says which, and
    how to install it)."""


def need_torch(feature: str) -> None:
    """Raise ``MissingDependencyError`` unless torch can be imported: ``feature`` (e.g.
    "neural agents") needs it, and torch is the ``neural`` extra of the package, so that the
    engine, the heuristic and the search agents install without it."""
    try:
        import torch  # noqa: F401
    except ImportError as e:
        raise MissingDependencyError(
            f"{feature} need torch, which is not installed; install it with "
            f"pip install 'cardsim[neural]' (or pip install torch)") from e


class CheckpointError(CardsimError, ValueError):
    """A network checkpoint that cannot be used: unreadable (corrupt, truncated, not a
    checkpoint) or made for another game, rules variant or observation spec."""
