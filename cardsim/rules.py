"""What every game's rules config shares: validation with clear errors, packing, a stable hash.

A game's rules class is a frozen dataclass whose fields are the conventions of its rules file.
Each field declares what it allows in ``metadata["allowed"]``: a tuple of values, or a
callable that says whether a value is allowed plus ``metadata["describe"]`` for the message.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any, Mapping

from cardsim.errors import InvalidConfigError


def convention(default, allowed, describe: str | None = None, doc: str = "",
               extension: bool = False):
    """A rules field: its default, what values it allows, and a one-line description.

    ``extension``: a convention beyond the game's rules file (a variant some tables play, kept
    for rules studies). Hand records and rules hashes leave it out while it holds its default,
    so that every record and hash of the rules file's game stays what it was before the
    convention existed; at any other value it is written like every convention."""
    return dataclasses.field(default=default,
                             metadata={"allowed": allowed, "describe": describe, "doc": doc,
                                       "extension": extension})


# One boolean syntax for every switch: rules (--rule NAME=VALUE, YAML) and agent switches.
TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")
BOOLEAN_SYNTAX = "true/false (also yes/no, on/off, 1/0)"


def parse_switch(value):
    """True or False for a switch written any accepted way (a bool, 1/0, or one of
    TRUE_WORDS / FALSE_WORDS in any case); None for anything else."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, float) and value in (0.0, 1.0):
        return bool(value)
    if isinstance(value, str):
        low = value.strip().lower()
        if low in TRUE_WORDS:
            return True
        if low in FALSE_WORDS:
            return False
    return None


def _allowed_text(f: dataclasses.Field) -> str:
    allowed = f.metadata["allowed"]
    if callable(allowed):
        return f.metadata["describe"]
    return ", ".join(json.dumps(a) for a in allowed)


def _is_allowed(f: dataclasses.Field, value) -> bool:
    allowed = f.metadata["allowed"]
    if callable(allowed):
        return allowed(value)
    # bool is an int subclass: 1 must not pass for true, nor True for 1.
    return any(type(value) is type(a) and value == a for a in allowed)


class RulesBase:
    """Mixin for frozen rules dataclasses: validation, parsing of overrides, hashing."""

    GAME: str = ""

    @property
    def game(self):
        """The ``Game`` these rules belong to (cardsim.games), so code that holds rules needs
        no game name beside them."""
        from cardsim import games  # here: games imports numba, rules alone do not
        return games.get(self.GAME)

    def __new__(cls, *args, **kwargs):
        # The dataclass __init__ would answer an unknown name with a bare TypeError; __new__
        # sees the same arguments first, so the error is typed and lists what is allowed.
        names = cls.field_names()
        if len(args) > len(names):
            raise InvalidConfigError(f"{cls.__name__} takes at most {len(names)} positional "
                                     f"conventions, got {len(args)}")
        unknown = [k for k in kwargs if k not in names]
        if unknown:
            raise InvalidConfigError(
                f"unknown {cls.GAME} rule {unknown[0]!r}; known rules: {', '.join(names)}")
        return super().__new__(cls)

    def __post_init__(self):
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if not _is_allowed(f, value):
                raise InvalidConfigError(
                    f"{self.GAME} rule {f.name!r} has invalid value {value!r}; "
                    f"allowed: {_allowed_text(f)}")
        self._check_combination()

    def _check_combination(self) -> None:
        """Checks between fields; subclasses override."""

    @classmethod
    def field_names(cls) -> list[str]:
        """The names of the conventions, in declaration order."""
        return [f.name for f in dataclasses.fields(cls)]

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]):
        """Rules from a mapping of conventions; unknown names are an error naming them."""
        names = cls.field_names()
        unknown = [k for k in values if k not in names]
        if unknown:
            raise InvalidConfigError(
                f"unknown {cls.GAME} rule {unknown[0]!r}; known rules: {', '.join(names)}")
        values = dict(values)
        for f in dataclasses.fields(cls):  # 1/0 for a true/false convention, as on the CLI
            if isinstance(f.default, bool) and type(values.get(f.name)) is int \
                    and values[f.name] in (0, 1):
                values[f.name] = bool(values[f.name])
        return cls(**values)

    @classmethod
    def check_value(cls, name: str, value) -> None:
        """Raise ``InvalidConfigError`` naming the allowed values unless ``value`` is one
        that convention ``name`` allows (1/0 stand for true/false, as on the command line).
        Rules studies check every value of a varied convention with it."""
        fields = {f.name: f for f in dataclasses.fields(cls)}
        if name not in fields:
            raise InvalidConfigError(
                f"unknown {cls.GAME} rule {name!r}; known rules: {', '.join(fields)}")
        f = fields[name]
        if isinstance(f.default, bool) and type(value) is int and value in (0, 1):
            value = bool(value)
        if not _is_allowed(f, value):
            raise InvalidConfigError(f"{cls.GAME} rule {name!r} has invalid value {value!r}; "
                                     f"allowed: {_allowed_text(f)}")

    @classmethod
    def parse_value(cls, name: str, text: str):
        """Convert the text of a command-line override ``NAME=VALUE`` to the field's type."""
        fields = {f.name: f for f in dataclasses.fields(cls)}
        if name not in fields:
            raise InvalidConfigError(
                f"unknown {cls.GAME} rule {name!r}; known rules: {', '.join(fields)}")
        if isinstance(fields[name].default, bool):
            value = parse_switch(text)
            if value is None:
                raise InvalidConfigError(f"{cls.GAME} rule {name!r} is a switch; got "
                                         f"{text.strip()!r}, allowed: {BOOLEAN_SYNTAX}")
            return value
        allowed = fields[name].metadata["allowed"]
        if not callable(allowed) and all(isinstance(a, str) for a in allowed):
            return text.strip()  # a word convention: "2" is a rank, not a number
        low = text.strip().lower()
        try:
            return int(low)
        except ValueError:
            return text.strip()

    @classmethod
    def from_overrides(cls, pairs: list[str], base: Mapping[str, Any] | None = None):
        """Rules from ``["NAME=VALUE", ...]`` strings on top of ``base``."""
        values = dict(base or {})
        for pair in pairs:
            if "=" not in pair:
                raise InvalidConfigError(f"rule override {pair!r} must look like NAME=VALUE")
            name, text = pair.split("=", 1)
            name = name.strip()
            values[name] = cls.parse_value(name, text)
        return cls.from_dict(values)

    def to_dict(self) -> dict[str, Any]:
        """The conventions with their values, what ``from_dict`` reads back and hand records
        and results store: every one, except an extension convention (see ``convention``)
        that holds its default, so the rules file's game reads as it did before the
        extension existed."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if not (f.metadata["extension"] and getattr(self, f.name) == f.default)}

    def rules_hash(self) -> str:
        """A stable 12-hex-digit hash of the game and its conventions (``to_dict``)."""
        text = json.dumps({"game": self.GAME, **self.to_dict()}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    @classmethod
    def describe(cls) -> str:
        """One line per convention: name, default, allowed values, meaning."""
        lines = []
        for f in dataclasses.fields(cls):
            variant = "  [a variant beyond the rules file]" if f.metadata["extension"] else ""
            lines.append(f"{f.name} = {json.dumps(f.default)}  (allowed: {_allowed_text(f)})"
                         f"  {f.metadata['doc']}{variant}")
        lines.append(f"Switches (allowed: false, true) take {BOOLEAN_SYNTAX}, here and in "
                     f"agent options alike.")
        return "\n".join(lines)
