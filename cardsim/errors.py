"""Typed exceptions of cardsim. Every message names what was wrong and what is allowed."""


class CardsimError(Exception):
    """Base class of every error cardsim raises on purpose."""


class InvalidConfigError(CardsimError, ValueError):
    """A rules convention, config key or option has an unknown name or a value out of range."""


class InvalidCardError(CardsimError, ValueError):
    """A card string or card index that does not name a card of the deck in use."""


class IllegalActionError(CardsimError, ValueError):
    """An action that is not legal in the current state (the message lists the legal ones)."""


class HandRecordError(CardsimError, ValueError):
    """A hand record that is corrupt, of an unknown format, or disagrees with its replay."""


class CheckpointError(CardsimError, ValueError):
    """A network checkpoint that cannot be used: unreadable (corrupt, truncated, not a
    checkpoint) or made for another game, rules variant or observation spec."""
