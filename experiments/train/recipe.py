"""Training recipes: the ordered stages that make a network from nothing, in one file.

    name: debertz-2p                 # the run directory: runs/debertz-2p-<time>/
    network: debertz-2p              # the zoo network it makes (its model card's name)
    summary: what the network is for, in one sentence
    options: prior=heuristic,margin=4    # the network's own options (neural's), if any
    stages:
      - name: dmc                    # its folder in the run: stages/1-dmc/
        config: configs/train/debertz_2p_dmc.yaml     # a training config, or its keys inline
      - name: distill
        config: configs/train/debertz_2p_distill.yaml
        set: {eval_every: 20, args.rollouts: 2}       # its values changed, as --set does
        gate: {opponent: heuristic, not_worse_than: previous, margin: 2}   # experiments.train.gates

A config path is read from the recipe's folder or the nearest folder above it that holds it
(``configs/train/x.yaml`` from ``configs/recipes/``). Each stage after the first starts from
the network the stage before ended with: its config's ``init`` is replaced. The first stage
starts from nothing: an ``init`` naming a network (the zoo's, or a retired one) is refused,
since a recipe must make its network from nothing; a checkpoint file or run directory path
is allowed.

``resolve_recipe`` applies the stage's own ``set``, then ``--scale``, then ``--set``
(``experiments.train.overrides``) and gives the resolved recipe, what the run's
``recipe.yaml`` keeps (each stage's whole config inline, the overrides recorded);
``check_recipe`` validates every stage as a training config. Resolving loads no torch, so
that what will run (``experiments.train.plan``) is said at once.
"""

from __future__ import annotations

import copy
import re
from fractions import Fraction
from pathlib import Path

from cardsim.errors import InvalidConfigError
from experiments.runs.schema import check_known
from experiments.train.overrides import (apply_sets, check_args_sets, config_keys, parse_scale,
                                         parse_set, scaled, setting)

RECIPE_KEYS = ("name", "network", "summary", "options", "stages")
STAGE_KEYS = ("name", "config", "set", "gate")
STAGE_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


def is_recipe(data) -> bool:
    """Whether parsed YAML is a recipe (a mapping with a ``stages:`` list) rather than a
    training config."""
    return isinstance(data, dict) and "stages" in data


def _folder_of(k: int, name: str) -> str:
    return f"stages/{k}-{name}"


def resolve_recipe(data, where: str, sets=(), scale=None) -> dict:
    """The resolved recipe of the parsed recipe file ``data`` (read from ``where``), with
    ``sets`` (``--set`` texts) and ``scale`` (``--scale``'s text, None: 1) applied: what
    ``recipe.yaml`` holds. Raises ``InvalidConfigError`` naming the file, the stage and the
    key (the stages' configs themselves are checked by ``check_recipe``)."""
    if not isinstance(data, dict):
        raise InvalidConfigError(f"{where}: a recipe must be a mapping of keys")
    check_known(data, RECIPE_KEYS, "recipe key", where)
    name = data.get("name")
    if not isinstance(name, str) or not name.strip() or any(c in name for c in "/\\"):
        raise InvalidConfigError(f"{where}: recipe key 'name' must be a non-empty name "
                                 f"without slashes, got {name!r}")
    for key in ("network", "summary", "options"):
        if data.get(key) is not None and not isinstance(data[key], str):
            raise InvalidConfigError(f"{where}: recipe key {key!r} must be a text, got "
                                     f"{data[key]!r}")
    if data.get("network") is not None and any(c in data["network"] for c in "/\\"):
        raise InvalidConfigError(f"{where}: recipe key 'network' is a network's name, without "
                                 f"slashes; got {data['network']!r}")
    raw = data.get("stages")
    if not isinstance(raw, list) or not raw:
        raise InvalidConfigError(f"{where}: recipe key 'stages' must be a non-empty list of "
                                 f"stages, each {{name, config}}")
    stages = [_stage(s, k, where) for k, s in enumerate(raw, 1)]
    names = [s["name"] for s in stages]
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice:
        raise InvalidConfigError(f"{where}: two stages are named {twice!r}; each stage has its "
                                 f"own name")
    factor = Fraction(1) if scale is None else parse_scale(scale)
    for stage in stages:  # the recipe's own changes, then the scale, then the command line
        apply_sets([stage], stage.pop("own_sets"))
        stage["body"] = scaled(stage["body"], factor) if factor != 1 else stage["body"]
    settings = [parse_set(text, names) for text in sets]
    apply_sets(stages, settings)
    for k, stage in enumerate(stages, 1):
        _place_start(stage, k, stages, where)
    from experiments.train.gates import check_gate

    for k, stage in enumerate(stages, 1):
        stage["gate"] = check_gate(stage.get("gate"), _where(where, k, stage["name"]), k == 1)
    return {"name": name, "network": data.get("network") or name,
            "summary": data.get("summary") or "", "options": data.get("options") or "",
            "source": str(where), "scale": _scale_text(factor), "sets": list(sets),
            "stages": stages}


def _scale_text(factor: Fraction):
    return int(factor) if factor.denominator == 1 else float(factor)


def _where(where: str, k: int, name: str) -> str:
    return f"{where} stage {k} ({name})"


def _stage(raw, k: int, where: str) -> dict:
    """A stage as written: its name, config body (read from its file), own ``set`` and gate."""
    if not isinstance(raw, dict):
        raise InvalidConfigError(f"{where}: stage {k} must be a mapping {{name, config}}, got "
                                 f"{raw!r}")
    check_known(raw, STAGE_KEYS, "key", f"{where}: stage {k}")
    name = raw.get("name")
    if not isinstance(name, str) or not STAGE_NAME.match(name) or name.isdigit() \
            or name in config_keys() or name == "gate":
        raise InvalidConfigError(f"{where}: stage {k} needs a 'name' of lower-case letters, "
                                 f"digits, - and _ (not only digits, not a config key), got "
                                 f"{name!r}")
    here = _where(where, k, name)
    config = raw.get("config")
    if isinstance(config, str):
        path = _config_path(config, Path(where).parent)
        if path is None:
            raise InvalidConfigError(f"{here}: config {config!r} is not a file (read from the "
                                     f"recipe's folder or a folder above it)")
        from experiments.runs.schema import read_yaml

        body, source = read_yaml(path), config
    elif isinstance(config, dict):
        body, source = copy.deepcopy(config), "inline"
    else:
        raise InvalidConfigError(f"{here}: 'config' must be a training config's path or its "
                                 f"keys inline, got {config!r}")
    if not isinstance(body, dict):
        raise InvalidConfigError(f"{here}: its config must be a mapping of keys")
    own = raw.get("set") or {}
    if not isinstance(own, dict):
        raise InvalidConfigError(f"{here}: 'set' must be a mapping of keys (dotted as --set's) "
                                 f"to values, got {own!r}")
    own_sets = [setting(f"{here} set {key}", key, value, [], stage=name)
                for key, value in own.items()]
    return {"name": name, "folder": _folder_of(k, name), "config": source, "body": body,
            "gate": raw.get("gate"), "own_sets": own_sets}


def _config_path(text: str, folder: Path) -> Path | None:
    path = Path(text)
    if path.is_absolute():
        return path if path.is_file() else None
    for base in (folder, *folder.resolve().parents):
        if (base / path).is_file():
            return base / path
    return None


def _place_start(stage: dict, k: int, stages: list[dict], where: str) -> None:
    """Where stage ``k`` starts: the previous stage's network (its config's ``init``
    replaced), or for the first stage nothing or a checkpoint path."""
    here = _where(where, k, stage["name"])
    init = stage["body"].get("init")
    set_init = any(s.path == ["init"] for s in stage.get("set_by", []))
    if k > 1:
        if set_init and init is not None:
            raise InvalidConfigError(f"{here}: init cannot be set: each stage after the first "
                                     f"starts from the previous stage's network")
        stage["body"]["init"] = None
        stage["starts_from"] = stages[k - 2]["folder"]
        return
    if init is not None and not _is_path(init):
        raise InvalidConfigError(f"{here}: its init {init!r} names a network, but a recipe "
                                 f"makes its network from nothing: drop init (or give a "
                                 f"checkpoint file or run directory)")
    stage["starts_from"] = init


def _is_path(text) -> bool:
    # a checkpoint option is a network's name unless it has a separator or ends in .pt
    # (agents.neural.zoo.is_name, which this module does not import: it loads torch)
    return isinstance(text, str) and ("/" in text or "\\" in text or text.endswith(".pt"))


def check_recipe(resolved: dict) -> list:
    """Validate every stage's config of a resolved recipe as a training config (loading
    torch); their ``TrainConfig``\\ s in order, each body in ``resolved`` replaced by its
    whole config (every default filled in). Raises ``InvalidConfigError`` naming the
    stage."""
    from experiments.train.config import ALGORITHMS, config_from_dict
    from experiments.train.gates import check_gate_stages

    configs = []
    for k, stage in enumerate(resolved["stages"], 1):
        here = _where(resolved["source"], k, stage["name"])
        algorithm = stage["body"].get("algorithm")
        if algorithm in ALGORITHMS:
            check_args_sets(stage, algorithm, here)
        cfg = config_from_dict(stage["body"], where=here, check_init=False)
        check_gate_stages(stage["gate"], cfg, configs[-1] if configs else None, here)
        configs.append(cfg)
    _check_options(resolved)
    for stage, cfg in zip(resolved["stages"], configs):
        stage["body"] = cfg.to_dict()
        stage.pop("set_by", None)
    return configs


def _check_options(resolved: dict) -> None:
    from agents.registry import parse_spec

    if resolved["options"]:
        try:
            parse_spec(f"neural:{resolved['options']}")
        except InvalidConfigError as e:
            raise InvalidConfigError(f"{resolved['source']}: recipe key 'options': {e}") \
                from None


def stage_configs(resolved: dict) -> list:
    """The ``TrainConfig`` of each stage of a resolved recipe (``recipe.yaml``), in order,
    checked; ``init`` is left for the run to place (the previous stage's network)."""
    from experiments.train.config import config_from_dict

    return [config_from_dict(s["body"], where=f"recipe.yaml stage {k} ({s['name']})",
                             check_init=False)
            for k, s in enumerate(resolved["stages"], 1)]


def recipe_yaml(resolved: dict) -> dict:
    """The resolved recipe as ``recipe.yaml`` writes it: the record of what was asked
    (source, scale, sets), then each stage with its whole config under ``config``."""
    out = {k: resolved[k] for k in ("name", "network", "summary", "options", "source", "scale",
                                    "sets")}
    out["stages"] = [{"name": s["name"], "folder": s["folder"], "from": s["config"],
                      "starts_from": s["starts_from"], "gate": s["gate"], "config": s["body"]}
                     for s in resolved["stages"]]
    return out


def read_resolved(data, where: str) -> dict:
    """A run's ``recipe.yaml`` back as a resolved recipe; raises ``InvalidConfigError`` when
    it is not one."""
    if not isinstance(data, dict) or not isinstance(data.get("stages"), list) or not all(
            isinstance(s, dict) and {"name", "folder", "config"} <= set(s)
            for s in data["stages"]):
        raise InvalidConfigError(f"{where} is not a resolved recipe (the recipe.yaml a recipe's "
                                 f"run writes)")
    stages = [{"name": s["name"], "folder": s["folder"], "config": s.get("from"),
               "starts_from": s.get("starts_from"), "gate": s.get("gate"),
               "body": s["config"]} for s in data["stages"]]
    return {**{k: data.get(k) for k in ("name", "network", "summary", "options", "source",
                                        "scale", "sets")}, "stages": stages}
