"""The checks every config file shares: experiment configs (``experiments.runs.config``),
training configs (``experiments.train.config``) and the recipes built on them. Each check
raises ``InvalidConfigError`` naming the key, the value and what is allowed; the config
module puts the file's name in front (``in_file``).

A config is a YAML mapping of known keys (``check_keys``), some of them required, with a
run's name (``check_name``), names chosen from a list (``check_choice``), whole numbers and
shares within bounds (``check_int``, ``check_share``), flags (``check_flag``) and a mapping of
conventions (``check_rules``).
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterable

import yaml

from cardsim.errors import InvalidConfigError


def check_keys(data: Any, allowed: Iterable[str], required: Iterable[str], what: str) -> None:
    """``data`` a mapping (of a ``what``: "an experiment config") whose keys are all
    ``allowed`` and hold every one of ``required``."""
    if not isinstance(data, dict):
        raise InvalidConfigError(f"{what} must be a mapping of keys")
    check_known(data, allowed)
    for key in required:
        if key not in data:
            raise InvalidConfigError(f"missing config key {key!r}")


def check_known(data: dict, allowed: Iterable[str], kind: str = "config key",
                where: str | None = None) -> None:
    """Every key of mapping ``data`` is one of ``allowed``; else an error naming the first
    unknown one (a ``kind``: "config key", "gate key", ...) after ``where``, if given."""
    allowed = list(allowed)
    unknown = [k for k in data if k not in allowed]
    if unknown:
        head = f"{where}: " if where else ""
        raise InvalidConfigError(f"{head}unknown {kind} {unknown[0]!r}; allowed keys: "
                                 f"{', '.join(allowed)}")


def check_name(value: Any) -> None:
    """A run's name: it prefixes the run directory, so a non-empty text without slashes."""
    if not isinstance(value, str) or not value.strip() or any(c in value for c in "/\\"):
        raise InvalidConfigError(f"config key 'name' must be a non-empty name without "
                                 f"slashes, got {value!r}")


def check_choice(key: str, value: Any, allowed: Iterable[str]) -> None:
    """``value`` one of ``allowed``."""
    allowed = list(allowed)
    if value not in allowed:
        raise InvalidConfigError(f"config key {key!r} has invalid value {value!r}; "
                                 f"allowed: {', '.join(allowed)}")


def check_int(key: str, value: Any, low: int = 1, high: int | None = None) -> None:
    """``value`` a whole number (not a flag) in ``low``..``high`` (no upper bound: None)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (
            high is not None and value > high):
        rng = f"an integer >= {low}" if high is None else f"an integer in {low}..{high}"
        raise InvalidConfigError(f"config key {key!r} has invalid value {value!r}; "
                                 f"allowed: {rng}")


def check_share(key: str, value: Any) -> None:
    """``value`` a number in [0, 1]."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise InvalidConfigError(f"config key {key!r} has invalid value {value!r}; "
                                 f"allowed: a number in [0, 1]")


def check_flag(key: str, value: Any) -> None:
    """``value`` true or false."""
    if not isinstance(value, bool):
        raise InvalidConfigError(f"config key {key!r} must be true or false")


def check_rules(value: Any) -> None:
    """``rules``: a mapping of conventions (each checked by the game's rules)."""
    if not isinstance(value, dict):
        raise InvalidConfigError("config key 'rules' must be a mapping of conventions")


@contextmanager
def in_file(where: str):
    """Put ``where`` (the file) in front of a config error raised inside."""
    try:
        yield
    except InvalidConfigError as e:
        raise InvalidConfigError(f"{where}: {e}") from None


def yaml_problem(e: yaml.YAMLError) -> str:
    """A YAML error in one line: what is wrong and where."""
    mark = getattr(e, "problem_mark", None)
    where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
    return f"{getattr(e, 'problem', None) or ' '.join(str(e).split())}{where}"


def read_yaml(path: str | Path) -> Any:
    """The parsed content of the YAML file ``path``. Raises ``InvalidConfigError`` naming the
    file when it cannot be read or is not valid YAML."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise InvalidConfigError(f"cannot read config {path}: {e.strerror}") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise InvalidConfigError(f"{path}: not valid YAML ({yaml_problem(e)})") from None
