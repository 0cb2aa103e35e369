"""Training configs: a YAML file fully describes a training run.

    name: debertz-2p-dmc          # run directory prefix
    game: debertz                 # or barbu
    rules: {players: 2}           # conventions of the rules file (defaults otherwise)
    algorithm: dmc                # or ppo, distill
    seed: 0
    device: cpu                   # or cuda (the same code)
    torch_threads: 2
    numba_threads: 2
    num_games: 4096               # games stepped together: one forward per decision step
    steps_per_iteration: 128      # decision steps per iteration (fresh deals each iteration)
    iterations: 100               # the training budget
    hidden: [256, 256, 256]       # the network's trunk
    init: null                    # or a checkpoint (path or model zoo name) to start from
    opponents: null               # compiled agents in some seats (else all self-play)
    pool_share: 0.0               # share of games against an earlier checkpoint of the run
    eval_every: 10                # iterations between duplicate evaluations (0: none)
    eval_deals: 2000              # duplicate deals per evaluation opponent
    eval_opponents: [random, heuristic]
    patience: 0                   # stop after N evaluations that do not beat the best one
                                  # against the first eval opponent (0: run every iteration)
    args: {}                      # the algorithm's arguments (DMCArgs / PPOArgs)
    executor: local               # or ray: DMC's self-play actors as Ray actors
    ray: {address: auto, num_workers: 2, weights_every: 1}   # executor ray only

Unknown keys, here and in ``args``, are errors naming the file and the key.
"""

from __future__ import annotations

import dataclasses
from dataclasses import asdict, dataclass, field
from typing import Any

from cardsim.errors import InvalidConfigError
from cardsim.games import GAMES
from experiments.runs.schema import (check_choice, check_int, check_keys, check_name, check_rules,
                                     check_share, in_file, read_yaml)

# each algorithm: its learner (module, class) and its arguments dataclass
# (experiments.train.arguments, read without loading torch)
ALGORITHMS = {"dmc": ("experiments.train.dmc", "DMC", "DMCArgs"),
              "ppo": ("experiments.train.ppo", "PPO", "PPOArgs"),
              "distill": ("experiments.train.distill", "Distill", "DistillArgs"),
              "beliefs": ("experiments.train.beliefs", "BeliefTraining", "BeliefArgs")}
DEVICES = ("cpu", "cuda")


@dataclass
class TrainConfig:
    """A training run, as its YAML file gives it (the keys and defaults of the module docstring).
    Built by ``config_from_dict`` or ``load_config``, which validate every key; ``args`` holds the
    algorithm's own arguments (``DMCArgs``, ``PPOArgs``, ``DistillArgs``)."""
    name: str
    game: str
    algorithm: str
    rules: dict = field(default_factory=dict)
    seed: int = 0
    device: str = "cpu"
    torch_threads: int = 2
    numba_threads: int = 2
    num_games: int = 4096
    steps_per_iteration: int = 128
    iterations: int = 100
    hidden: list = field(default_factory=lambda: [256, 256, 256])
    init: str | None = None
    opponents: Any = None
    pool_share: float = 0.0
    eval_every: int = 10
    eval_deals: int = 2000
    eval_opponents: list = field(default_factory=lambda: ["random", "heuristic"])
    patience: int = 0
    args: dict = field(default_factory=dict)
    executor: str = "local"
    ray: dict | None = None

    def to_dict(self) -> dict:
        """The config as a plain dict of its keys (what the run directory's ``config.yaml``
        holds)."""
        return asdict(self)

    def with_ray(self, options: dict) -> "TrainConfig":
        """This config trained with Ray's actors, ``options`` (address) over its own."""
        out = dataclasses.replace(self, executor="ray", ray={**(self.ray or {}), **options})
        _check_executor(out)
        return out

    def make_rules(self):
        """The game's rules object from ``rules`` (its conventions over the defaults); raises
        ``InvalidConfigError`` for an unknown or invalid convention."""
        from cardsim import games

        return games.rules_of(self.game, self.rules)

    def algorithm_args(self):
        """The algorithm's arguments dataclass, filled from ``args``."""
        return args_class(self.algorithm)(**self.args)


def algorithm_class(algorithm: str):
    """The learner class of ``algorithm`` (``DMC``, ``PPO``, ``Distill``), its module loaded
    (torch with it)."""
    import importlib

    module, learner, _ = ALGORITHMS[algorithm]
    return getattr(importlib.import_module(module), learner)


def args_class(algorithm: str):
    """The arguments dataclass of ``algorithm`` (no torch loaded)."""
    from experiments.train import arguments

    return getattr(arguments, ALGORITHMS[algorithm][2])


def _check_args(algorithm: str, args: Any) -> dict:
    """``args`` checked against the algorithm's dataclass: known keys, values of its types."""
    if not isinstance(args, dict):
        raise InvalidConfigError("config key 'args' must be a mapping of the algorithm's "
                                 "arguments")
    cls = args_class(algorithm)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for key, value in args.items():
        if key not in fields:
            raise InvalidConfigError(f"unknown {algorithm} argument {key!r} in 'args'; "
                                     f"allowed: {', '.join(fields)}")
        default = fields[key].default
        kind = float if isinstance(default, float) else type(default)
        ok = (isinstance(value, (int, float)) and not isinstance(value, bool)
              if kind is float else isinstance(value, kind) and
              (kind is bool or not isinstance(value, bool)))
        if not ok:
            raise InvalidConfigError(f"{algorithm} argument {key!r} has invalid value "
                                     f"{value!r}; allowed: {kind.__name__}")
    out = dict(args)
    try:
        cls(**out).check()
    except InvalidConfigError as e:
        raise InvalidConfigError(f"{algorithm} arguments: {e}") from None
    return out


def config_from_dict(data: Any, where: str = "config", check_init: bool = True) -> TrainConfig:
    """A validated ``TrainConfig`` from a parsed YAML mapping. Raises ``InvalidConfigError`` naming
    ``where`` (the file) and the key for an unknown key or an invalid value. ``check_init``
    False leaves ``init`` unloaded (a stage of a recipe, whose start is an earlier stage's
    result)."""
    with in_file(where):
        return _validate(data, check_init)


def _validate(data: Any, check_init: bool = True) -> TrainConfig:
    check_keys(data, [f.name for f in dataclasses.fields(TrainConfig)],
               ("name", "game", "algorithm"), "a training config")
    cfg = TrainConfig(**data)
    check_name(cfg.name)
    check_choice("game", cfg.game, GAMES)
    check_choice("algorithm", cfg.algorithm, ALGORITHMS)
    check_choice("device", cfg.device, DEVICES)
    check_rules(cfg.rules)
    check_int("seed", cfg.seed, 0, 2**63 - 1)
    for key in ("torch_threads", "numba_threads"):
        check_int(key, getattr(cfg, key), 1, 256)
    check_int("num_games", cfg.num_games, 1, 1 << 20)
    for key, low in (("steps_per_iteration", 1), ("iterations", 1), ("eval_every", 0),
                     ("eval_deals", 1), ("patience", 0)):
        check_int(key, getattr(cfg, key), low)
    check_share("pool_share", cfg.pool_share)
    if (not isinstance(cfg.hidden, list) or not cfg.hidden
            or any(isinstance(h, bool) or not isinstance(h, int) or h < 1 for h in cfg.hidden)):
        raise InvalidConfigError(f"config key 'hidden' must be a non-empty list of positive "
                                 f"layer widths, got {cfg.hidden!r}")
    if cfg.init is not None and check_init:
        _check_init(cfg)
    if isinstance(cfg.eval_opponents, str):
        cfg.eval_opponents = [cfg.eval_opponents]
    if not isinstance(cfg.eval_opponents, list):
        raise InvalidConfigError("config key 'eval_opponents' must be a list of agents")
    if cfg.patience and not (cfg.eval_every and cfg.eval_opponents):
        raise InvalidConfigError(f"config key 'patience' ({cfg.patience}) counts evaluations "
                                 f"against the first of 'eval_opponents': it needs "
                                 f"eval_every > 0 and an eval opponent")
    cfg.args = _check_args(cfg.algorithm, cfg.args)
    if cfg.algorithm == "distill":
        from experiments.train.distill import search_agent

        try:
            search_agent(cfg.game, cfg.args.get("search", ""))
        except InvalidConfigError as e:
            raise InvalidConfigError(f"distill argument 'search': {e}") from None
    if cfg.algorithm == "beliefs":
        from experiments.train.beliefs import behaviour_agent

        try:
            behaviour_agent(cfg.game, cfg.args.get("behaviour", "heuristic"))
        except InvalidConfigError as e:
            raise InvalidConfigError(f"beliefs argument 'behaviour': {e}") from None
        if cfg.eval_opponents or cfg.pool_share:
            raise InvalidConfigError("a belief network does not play: config keys "
                                     "'eval_opponents' must be [] and 'pool_share' 0 with "
                                     "algorithm beliefs (measure it as pimc:beliefs=RUN_DIR in "
                                     "a tournament)")
    _check_executor(cfg)
    rules = cfg.make_rules()
    from agents.registry import make_agent

    for spec in cfg.eval_opponents:
        make_agent(spec, cfg.game, rules)
    if cfg.opponents is not None:
        from cardsim.envs.selfplay import SelfPlayBatch

        SelfPlayBatch(cfg.game, 1, rules, opponents=cfg.opponents)  # seats and agents known
    return cfg


def init_network(cfg: TrainConfig):
    """The network of checkpoint ``init`` (a path or a model zoo name), checked against the
    run's game, rules and network (the value head of the algorithm); a ``hidden`` larger than
    the checkpoint's grows it (``agents.neural.network.grown``: the same outputs, room to
    learn more), as do observation pieces appended since it was made; any other difference
    is refused."""
    from agents.neural.checkpoint import load_checkpoint
    from agents.neural.network import grown
    from agents.neural.zoo import checkpoint_path
    from cardsim.errors import CheckpointError

    rules = cfg.make_rules()
    net = load_checkpoint(checkpoint_path(cfg.init), cfg.game, rules)["net"]
    value_head = algorithm_class(cfg.algorithm).value_head
    if (net.value_out is not None) != value_head:
        raise CheckpointError(
            f"checkpoint {cfg.init} holds a network {net.spec()}, but this run trains one "
            f"with hidden {list(cfg.hidden)} and value_head {value_head}")
    obs_size = rules.game.obs_size
    if list(net.hidden) != list(cfg.hidden) or net.obs_size != obs_size:
        try:  # a larger hidden, or pieces appended to the observation since the checkpoint
            net = grown(net, cfg.hidden, obs_size)  # was made: what it computed, and room
        except ValueError as e:
            raise CheckpointError(f"checkpoint {cfg.init} holds a network {net.spec()}: {e}")
    return net


def _check_init(cfg: TrainConfig) -> None:
    from cardsim.errors import CheckpointError

    if not isinstance(cfg.init, str) or not cfg.init:
        raise InvalidConfigError(f"config key 'init' must be a checkpoint path or model zoo "
                                 f"name, got {cfg.init!r}")
    try:
        init_network(cfg)
    except CheckpointError as e:
        raise InvalidConfigError(f"config key 'init': {e}") from None


RAY_TRAIN_KEYS = ("weights_every",)  # updates of the learner between weights sent to actors


def _check_executor(cfg: TrainConfig) -> None:
    from experiments.runs.executor import check_executor_keys, check_ray_options

    check_executor_keys(cfg.executor, cfg.ray)
    if cfg.executor == "ray" and cfg.algorithm != "dmc":
        why = {"ppo": "learns on-policy from its own rollouts",
               "distill": "labels the positions where its batch plays them",
               "beliefs": "watches the positions where its batch plays them"}[cfg.algorithm]
        raise InvalidConfigError(f"executor ray trains with dmc's actor/learner split; "
                                 f"{cfg.algorithm} {why} and trains locally (allowed with "
                                 f"ray: dmc)")
    cfg.ray = check_ray_options(cfg.ray, counts=RAY_TRAIN_KEYS) or None


def load_config(path, check_init: bool = True) -> TrainConfig:
    """The validated ``TrainConfig`` of the YAML file ``path`` (``read_yaml`` then
    ``config_from_dict``); raises ``InvalidConfigError`` naming the file."""
    return config_from_dict(read_yaml(path), where=str(path), check_init=check_init)
