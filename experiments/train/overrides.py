"""Values changed on the command line, without editing a file: ``--set KEY=VALUE`` and
``--scale F``, over a training config or the stages of a recipe.

``--set KEY=VALUE``: KEY is a training config key (``iterations``, ``seed``), or a key
inside one of its mappings (``args.learning_rate``, ``rules.target``). In a recipe,
``STAGE.KEY`` changes the stage named STAGE, and KEY alone every stage (an ``args.`` key
then reaches every stage, so each stage's algorithm must take it: name the stage otherwise);
``STAGE.gate`` sets a stage's gate (``null``: none). VALUE is read as YAML: ``0.001``,
``[heuristic]``, ``null``, ``{opponent: heuristic, at_least: 0}``. The stages' configs are then
validated as any training config: an unknown key is an error naming the keys allowed.

``--scale F`` (F > 0) multiplies each stage's budgets for a quick try-out (F < 1) or a longer
run: ``iterations``, ``eval_every``, ``eval_deals``, and the label budgets the algorithm
takes (``SCALED_ARGS``: solver samples and play-outs a label, draws a position), given or
left at their defaults. Each is rounded up and kept at least 1 (``prior_draws`` at least 8);
a 0, which means "none" there, stays 0. The scale applies before ``--set``, so a value set is taken as
given.
"""

from __future__ import annotations

import copy
import dataclasses
import math
from fractions import Fraction

import yaml

from cardsim.errors import InvalidConfigError

SCALED_KEYS = ("iterations", "eval_every", "eval_deals")
SCALED_ARGS = {"samples": 1, "rollouts": 1, "drawn_rollouts": 1, "prior_draws": 8}
MAPPING_KEYS = ("rules", "args", "ray")  # config keys whose own keys a --set may reach
STAGE_KEYS = ("gate",)                   # keys of a recipe's stage beside its config


def config_keys() -> list[str]:
    """The keys of a training config, in their order."""
    from experiments.train.config import TrainConfig

    return [f.name for f in dataclasses.fields(TrainConfig)]


def parse_scale(text) -> Fraction:
    """``--scale``'s factor, exact (``0.1`` is one tenth, so rounding up is not misled by
    binary fractions). Raises ``InvalidConfigError`` unless it is a number > 0."""
    try:
        factor = Fraction(str(text))
    except (ValueError, ZeroDivisionError):
        raise InvalidConfigError(f"--scale takes a number > 0 (0.01 for a quick try-out), "
                                 f"got {text!r}") from None
    if factor <= 0:
        raise InvalidConfigError(f"--scale takes a number > 0 (0.01 for a quick try-out), "
                                 f"got {text!r}")
    return factor


def scaled(body: dict, factor: Fraction) -> dict:
    """A training config's body (a mapping) with its budgets multiplied by ``factor``
    (module docstring); the body itself is left as it was."""
    out = copy.deepcopy(body)

    def scale(value, low):
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            return value  # 0: none; anything else is the validation's to refuse
        return max(low, math.ceil(value * factor))

    for key in SCALED_KEYS:  # a default left out is a budget too
        out[key] = scale(out[key] if key in out else config_default(key), 1)
    args = out.get("args", {})
    defaults = _args_defaults(out.get("algorithm"))
    if isinstance(args, dict):
        for key, low in SCALED_ARGS.items():
            if key in args:
                args[key] = scale(args[key], low)
            elif defaults.get(key):  # a budget left at its default is scaled too
                args[key] = scale(defaults[key], low)
        if args:
            out["args"] = args
    return out


def _args_defaults(algorithm) -> dict:
    """The defaults of ``algorithm``'s arguments (none for an unknown algorithm: the
    validation names it)."""
    from experiments.train.config import ALGORITHMS, args_class

    if algorithm not in ALGORITHMS:
        return {}
    return {f.name: f.default for f in dataclasses.fields(args_class(algorithm))}


def config_default(key: str):
    """The default of training config key ``key``."""
    from experiments.train.config import TrainConfig

    return next(f.default for f in dataclasses.fields(TrainConfig) if f.name == key)


@dataclasses.dataclass
class Setting:
    """One value changed: what set it (``--set KEY=VALUE``, or a recipe stage's ``set``),
    the stage it names (None: every stage) and the key path within the stage, with the
    value (read as YAML)."""
    text: str
    stage: str | None
    path: list[str]
    value: object


def parse_set(text: str, stage_names: list[str]) -> Setting:
    """``KEY=VALUE`` of ``--set``, its key checked against the config keys and, in a
    recipe, ``stage_names`` (empty for a training config). Raises ``InvalidConfigError``
    naming what is allowed."""
    if not isinstance(text, str) or "=" not in text:
        raise InvalidConfigError(f"--set takes KEY=VALUE (e.g. iterations=10), got {text!r}")
    key, raw = text.split("=", 1)
    try:
        value = yaml.safe_load(raw) if raw.strip() else None
    except yaml.YAMLError:
        raise InvalidConfigError(f"--set {text}: the value {raw!r} is not valid YAML (quote "
                                 f"a text: name='my run')") from None
    return setting(f"--set {text}", key.strip(), value, stage_names)


def setting(what: str, key: str, value, stage_names: list[str],
            stage: str | None = None) -> Setting:
    """The ``Setting`` of dotted ``key`` to ``value`` (``what`` names it in errors: the
    ``--set`` or the recipe's stage); ``stage``: the stage it belongs to, else the key may
    start with one of ``stage_names``. Raises ``InvalidConfigError`` naming what is
    allowed."""
    parts = str(key).split(".")
    if any(not p for p in parts):
        raise InvalidConfigError(f"{what}: the key {key!r} has an empty part; keys are "
                                 f"dotted names such as args.learning_rate")
    if stage is None and parts[0] in stage_names:
        stage, parts = parts[0], parts[1:]
        if not parts:
            raise InvalidConfigError(f"{what}: name a key of stage {stage!r} (e.g. "
                                     f"{stage}.iterations=10)")
    allowed_here = config_keys() + (list(STAGE_KEYS) if stage_names else [])
    if parts[0] not in allowed_here:
        stages = (f"a stage name ({', '.join(stage_names)}) followed by a key, or " if
                  stage_names and stage is None else "")
        raise InvalidConfigError(f"{what}: unknown key {parts[0]!r}; allowed: {stages}"
                                 f"the keys {', '.join(allowed_here)}")
    deepest = 2 if parts[0] in MAPPING_KEYS else 1
    if len(parts) > deepest:
        inside = "its own key (args.learning_rate)" if deepest == 2 else "no key inside it"
        raise InvalidConfigError(f"{what}: {parts[0]!r} takes {inside}, not "
                                 f"{'.'.join(parts)!r}")
    return Setting(what, stage, parts, value)


def apply_sets(stages: list[dict], settings: list[Setting]) -> None:
    """Apply ``settings`` in order to ``stages`` (each ``{"name", "body", "gate"}``: a
    recipe's stages, or a training config as one stage named None); each setting
    reaching a stage is noted in the stage's ``"set_by"``."""
    for s in settings:
        for stage in stages:
            if s.stage is not None and stage["name"] != s.stage:
                continue
            if s.path[0] in STAGE_KEYS:
                stage[s.path[0]] = copy.deepcopy(s.value)
            elif len(s.path) == 1:
                stage["body"][s.path[0]] = copy.deepcopy(s.value)
            else:
                inner = stage["body"].get(s.path[0])
                if inner is None:
                    inner = stage["body"][s.path[0]] = {}
                if not isinstance(inner, dict):
                    raise InvalidConfigError(f"{s.text}: config key {s.path[0]!r} is "
                                             f"{inner!r} there, not a mapping")
                inner[s.path[1]] = copy.deepcopy(s.value)
            stage.setdefault("set_by", []).append(s)


def check_args_sets(stage: dict, algorithm: str, where: str, recipe: bool = True) -> None:
    """Refuse a ``--set args.KEY`` that reached ``stage`` (trained by ``algorithm``; of a
    ``recipe``, or a training config) when the algorithm takes no such argument, naming the
    stage and the arguments allowed."""
    from experiments.train.config import args_class

    allowed = [f.name for f in dataclasses.fields(args_class(algorithm))]
    for s in stage.get("set_by", []):
        if s.path[0] == "args" and s.path[1] not in allowed:
            hint = ("" if s.stage or not recipe else
                    f"; name the stage: --set STAGE.{'.'.join(s.path)}=...")
            raise InvalidConfigError(f"{s.text} reaches {where}, whose algorithm "
                                     f"{algorithm} takes no argument {s.path[1]!r}; allowed: "
                                     f"{', '.join(allowed)}{hint}")


def overridden_config(body, where: str, sets=(), scale=None, check_args: bool = True) -> dict:
    """A training config's body (parsed YAML from ``where``) with ``--scale`` then
    ``--set`` applied, the ``args`` that a ``--set`` reached checked against the algorithm's
    (``check_args``; False: not yet, for a first look that loads no torch); the result is
    still to be validated (``config_from_dict``)."""
    if not isinstance(body, dict) or not (sets or scale is not None):
        return body
    stage = {"name": None, "body": copy.deepcopy(body)}
    if scale is not None:
        stage["body"] = scaled(stage["body"], parse_scale(scale))
    apply_sets([stage], [parse_set(text, []) for text in sets])
    algorithm = stage["body"].get("algorithm")
    from experiments.train.config import ALGORITHMS

    if check_args and algorithm in ALGORITHMS:
        check_args_sets(stage, algorithm, where, recipe=False)
    return stage["body"]
