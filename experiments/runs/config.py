"""Experiment configs: a YAML file fully describes a simulation or a tournament.

    name: debertz-heuristic-vs-random   # run directory prefix
    kind: tournament                    # or simulate
    game: debertz                       # or barbu
    rules: {players: 2}                 # conventions of the rules file (defaults otherwise)
    agents: [heuristic, random]         # "name", "name:opt=v,opt=v" or {name: ..., opt: v}
    deals: 1000000                      # or games: N (whole games / matches)
    duplicate: true                     # tournament only
    by_contract: false                  # Barbu tournament: deal i plays contract i % 7
    history: false                      # simulate only: write hand records in the run dir
    per_deal: false                     # tournament and study: per-deal results in deals/*.npy
    vary: {overtrump_on_ruff: [false, true]}  # study only: conventions and their values
    skill: [heuristic, random]          # study only: stronger and weaker agent (false: none)
    decision_cost: false                # tournament only: each agent's microseconds per
                                        # decision on one core, and strength against it
    seed: 0
    threads: 2
    chunk: 32768                        # items per saved chunk (resume granularity)
    executor: local                     # or ray: chunks as tasks on a Ray cluster
    ray: {address: auto, num_workers: 8}  # executor ray only; both keys optional

Results do not depend on threads, executor or ray: only on what ``experiments.runs.run.made_with``
lists.

Unknown or invalid keys are errors naming the file, the key and what is allowed; so are
keys the kind does not read (``ONLY_FOR``) and counts beyond ``experiments.runs.limits.MAX_ITEMS``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from cardsim.errors import InvalidConfigError
from cardsim.games import GAMES
from experiments.runs.limits import MAX_THREADS, check_count
from experiments.runs.schema import (check_choice, check_flag, check_int, check_keys, check_name,
                                     check_rules, in_file, read_yaml)

KINDS = ("simulate", "tournament", "study")


@dataclass
class ExperimentConfig:
    """A simulation or tournament run, as its YAML file gives it (the keys and defaults of the
    module docstring). Built by ``config_from_dict`` or ``load_config``, which validate every
    key."""
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
    per_deal: bool = False
    decision_cost: bool = False
    seed: int = 0
    threads: int = 1
    chunk: int = 1 << 15
    executor: str = "local"
    ray: dict | None = None
    vary: dict | None = None
    skill: Any = None

    def to_dict(self) -> dict:
        """Every key with its value, less the keys this kind does not read (and ``ray``
        unless the executor is Ray)."""
        return {k: v for k, v in asdict(self).items()
                if self.kind in ONLY_FOR.get(k, (self.kind,))
                and (k != "ray" or self.executor == "ray")}

    def with_ray(self, options: dict) -> "ExperimentConfig":
        """This config played on Ray, ``options`` (address, num_workers) over its own."""
        from experiments.runs.executor import check_ray_options

        return replace(self, executor="ray",
                       ray=check_ray_options({**(self.ray or {}), **options}))

    def make_rules(self):
        """The game's rules object from ``rules`` (its conventions over the defaults); raises
        ``InvalidConfigError`` for an unknown or invalid convention."""
        from cardsim import games

        return games.rules_of(self.game, self.rules)


ALLOWED = {f: t for f, t in ExperimentConfig.__annotations__.items()}

# Keys only one kind reads. Given to the other kind with anything but the default value,
# they are an error rather than silently ignored; the resolved config leaves them out.
ONLY_FOR = {"history": ("simulate",), "duplicate": ("tournament",),
            "by_contract": ("tournament",), "per_deal": ("tournament", "study"),
            "decision_cost": ("tournament",), "vary": ("study",), "skill": ("study",)}

def config_from_dict(data: Any, where: str = "config") -> ExperimentConfig:
    """Validate a config mapping; every error names the file (``where``) and the key.
    Everything a run needs is checked here, so a run directory is only made for a config
    that can run."""
    with in_file(where):
        return _validate(data)


def _validate(data: Any) -> ExperimentConfig:
    check_keys(data, ALLOWED, ("name", "kind", "game"), "an experiment config")
    check_name(data["name"])
    check_choice("kind", data["kind"], KINDS)
    check_choice("game", data["game"], GAMES)
    defaults = ExperimentConfig(name="", kind="", game="")
    for key, kinds in ONLY_FOR.items():
        if key in data and data["kind"] not in kinds and data[key] != getattr(defaults, key):
            raise InvalidConfigError(f"config key {key!r} is read by {' and '.join(kinds)} "
                                     f"runs only; remove it from this {data['kind']} config")
    if data["kind"] == "study" and "agents" not in data:
        data = {**data, "agents": ["heuristic"]}
    cfg = ExperimentConfig(**data)
    check_rules(cfg.rules)
    if isinstance(cfg.agents, str):
        cfg.agents = [cfg.agents]
    if not isinstance(cfg.agents, list) or not cfg.agents:
        raise InvalidConfigError("config key 'agents' must be a non-empty list")
    if cfg.deals is not None and cfg.games is not None:
        raise InvalidConfigError("give config key 'deals' or 'games', not both")
    if cfg.deals is None and cfg.games is None:
        cfg.deals = 10_000
    for key in ("deals", "games"):
        if getattr(cfg, key) is not None:
            check_count(f"config key {key!r}", getattr(cfg, key), cfg.kind)
    check_int("seed", cfg.seed, 0, 2**63 - 1)
    check_int("threads", cfg.threads, 1, MAX_THREADS)
    check_int("chunk", cfg.chunk)
    _check_executor(cfg)
    for key in ("duplicate", "by_contract", "history", "per_deal", "decision_cost"):
        check_flag(key, getattr(cfg, key))
    rules = cfg.make_rules()
    if cfg.kind == "study":
        _check_study(cfg)
    elif cfg.kind == "tournament":
        from experiments.tournaments.tournament import Tournament

        # the tournament's own checks (agents, by_contract); building one plays nothing
        Tournament(cfg.game, rules, cfg.agents, cfg.deals, cfg.games, cfg.duplicate,
                   cfg.seed, cfg.by_contract)
    else:
        from experiments.runs.seating import seat_agents

        seat_agents(cfg.agents, cfg.game, rules)  # agents known, and as many as the seats
    return cfg


def _check_study(cfg: ExperimentConfig) -> None:
    """A study's own keys: ``vary`` a mapping of conventions to lists of values, ``skill``
    two agents or false (default heuristic over random)."""
    from experiments.tournaments.study import DEFAULT_SKILL

    if not isinstance(cfg.vary, dict) or not cfg.vary:
        raise InvalidConfigError("config key 'vary' must map each varied convention to a "
                                 "list of two or more values, e.g. {seven_swap: [true, false]}")
    if cfg.skill is None or cfg.skill is True:
        cfg.skill = list(DEFAULT_SKILL)
    if cfg.skill is not False and (not isinstance(cfg.skill, list) or len(cfg.skill) != 2):
        raise InvalidConfigError(f"config key 'skill' must be two agents (the stronger, then "
                                 f"the weaker) or false, got {cfg.skill!r}")
    study_of(cfg)  # the study's own checks (rules, values, agents); building one plays nothing


def study_of(cfg: ExperimentConfig):
    """The ``experiments.tournaments.study.Study`` a study config describes."""
    from experiments.tournaments.study import Study

    return Study(cfg.game, cfg.rules, cfg.vary, cfg.agents, cfg.skill or None, cfg.deals,
                 cfg.seed, games_count=cfg.games)


def _check_executor(cfg: ExperimentConfig) -> None:
    from experiments.runs.executor import check_executor_keys, check_ray_options

    check_executor_keys(cfg.executor, cfg.ray)
    cfg.ray = check_ray_options(cfg.ray) or None


def load_config(path: str | Path) -> ExperimentConfig:
    """The validated ``ExperimentConfig`` of the YAML file ``path``. Raises ``InvalidConfigError``
    naming the file when it cannot be read, is not valid YAML, or has an unknown or invalid key."""
    return config_from_dict(read_yaml(path), where=str(path))
