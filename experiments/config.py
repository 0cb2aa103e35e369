"""Experiment configs: a YAML file fully describes a simulation or a tournament.

    name: debertz-heuristic-vs-random   # run directory prefix
    kind: tournament                    # or simulate
    game: debertz                       # or barbu
    rules: {players: 2}                 # conventions of the rules file (defaults otherwise)
    agents: [heuristic, random]         # names, "name:opt=value", or {name: ..., opt: value}
    deals: 1000000                      # or games: N (whole games / matches)
    duplicate: true                     # tournament only
    by_contract: false                  # Barbu tournament: deal i plays contract i % 7
    history: false                      # simulate only: write hand records in the run dir
    seed: 0
    threads: 2
    chunk: 32768                        # items per saved chunk (resume granularity)

Unknown or invalid keys are errors naming the key and what is allowed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

from cardsim.errors import InvalidConfigError

KINDS = ("simulate", "tournament")


@dataclass
class ExperimentConfig:
    name: str
    kind: str
    game: str
    agents: list = field(default_factory=lambda: ["random"])
    rules: dict = field(default_factory=dict)
    deals: int | None = None
    games: int | None = None
    duplicate: bool = True
    by_contract: bool = False
    history: bool = False
    seed: int = 0
    threads: int = 1
    chunk: int = 1 << 15

    def to_dict(self) -> dict:
        return asdict(self)

    def make_rules(self):
        from cardsim import games

        return games.get(self.game).rules_cls.from_dict(self.rules)


ALLOWED = {f: t for f, t in ExperimentConfig.__annotations__.items()}


def _check_int(key, value, low=1, high=None):
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (
            high is not None and value > high):
        rng = f"an integer >= {low}" if high is None else f"an integer in {low}..{high}"
        raise InvalidConfigError(f"config key {key!r} has invalid value {value!r}; allowed: {rng}")


def config_from_dict(data: Any, where: str = "config") -> ExperimentConfig:
    """Validate a config mapping; every error names the key."""
    if not isinstance(data, dict):
        raise InvalidConfigError(f"{where}: an experiment config must be a mapping of keys")
    unknown = [k for k in data if k not in ALLOWED]
    if unknown:
        raise InvalidConfigError(f"{where}: unknown config key {unknown[0]!r}; allowed keys: "
                                 f"{', '.join(ALLOWED)}")
    for key in ("name", "kind", "game"):
        if key not in data:
            raise InvalidConfigError(f"{where}: missing config key {key!r}")
    if not isinstance(data["name"], str) or not data["name"].strip() or any(
            c in data["name"] for c in "/\\"):
        raise InvalidConfigError(f"{where}: config key 'name' must be a non-empty name "
                                 f"without slashes, got {data['name']!r}")
    if data["kind"] not in KINDS:
        raise InvalidConfigError(f"{where}: config key 'kind' has invalid value "
                                 f"{data['kind']!r}; allowed: {', '.join(KINDS)}")
    if data["game"] not in ("debertz", "barbu"):
        raise InvalidConfigError(f"{where}: config key 'game' has invalid value "
                                 f"{data['game']!r}; allowed: debertz, barbu")
    cfg = ExperimentConfig(**data)
    if not isinstance(cfg.rules, dict):
        raise InvalidConfigError(f"{where}: config key 'rules' must be a mapping of conventions")
    if isinstance(cfg.agents, str):
        cfg.agents = [cfg.agents]
    if not isinstance(cfg.agents, list) or not cfg.agents:
        raise InvalidConfigError(f"{where}: config key 'agents' must be a non-empty list")
    if cfg.deals is not None and cfg.games is not None:
        raise InvalidConfigError(f"{where}: give config key 'deals' or 'games', not both")
    if cfg.deals is None and cfg.games is None:
        cfg.deals = 10_000
    for key in ("deals", "games"):
        if getattr(cfg, key) is not None:
            _check_int(key, getattr(cfg, key))
    _check_int("seed", cfg.seed, 0, 2**63 - 1)
    _check_int("threads", cfg.threads)
    _check_int("chunk", cfg.chunk)
    for key in ("duplicate", "by_contract", "history"):
        if not isinstance(getattr(cfg, key), bool):
            raise InvalidConfigError(f"{where}: config key {key!r} must be true or false")
    if cfg.kind == "tournament" and len(cfg.agents) < 2:
        raise InvalidConfigError(f"{where}: config key 'agents': a tournament needs at least 2")
    try:
        cfg.make_rules()
        from agents.registry import make_agent

        for spec in cfg.agents:
            make_agent(spec, cfg.game)
    except InvalidConfigError as e:
        raise InvalidConfigError(f"{where}: {e}") from None
    return cfg


def load_config(path: str | Path) -> ExperimentConfig:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise InvalidConfigError(f"cannot read config {path}: {e.strerror}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise InvalidConfigError(f"{path}: not valid YAML ({e})") from None
    return config_from_dict(data, where=str(path))
