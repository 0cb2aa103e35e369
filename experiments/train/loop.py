"""``cardsim train CONFIG.yaml``: a training run in its own run directory, resumable.

The run directory (``runs/<name>-<time>/`` by default) holds:

    config.yaml               the resolved config (every default filled in)
    meta.json                 rules hash, observation spec hash, seed, git commit, versions
    checkpoints/latest.pt     network, optimizer, counters, config, rules, observation spec
                              and every metrics line so far (rewritten after each iteration)
    checkpoints/iter-N.pt     a copy at each evaluation (also the opponent pool)
    metrics.jsonl             one line per iteration: loss, samples, throughput, evaluation
    plots/learning_curve.png  loss and the evaluation differences with their 95% intervals
    tensorboard/              the same scalars, when the tensorboard package is installed

Training runs in iterations. Each starts fresh deals in every game (seeded by the run's
seed and the iteration number), plays ``steps_per_iteration`` decision steps of self-play and
learns (``dmc`` / ``ppo``); the deals still running at its end are dropped. So an iteration
depends only on the network and optimizer state before it, which the checkpoint holds:
``cardsim train --resume DIR`` after a crash, ``kill -9`` included, continues from the last
checkpoint and gives the same network as a run never interrupted (same threads and device;
torch's CPU kernels are deterministic for a fixed thread count, CUDA ones need not be).
Metrics are reported only once the checkpoint holding them is written, so a resumed run
loses nothing reported: it rewrites ``metrics.jsonl`` from the checkpoint. It refuses a
``config.yaml`` edited since the checkpoint, naming the key (``check_resume``): only
``iterations`` may grow, and where the run trains (device, threads, executor) may change.

Early stopping (``patience: N``): the run stops once N evaluations in a row have not beaten
the best difference so far against the first eval opponent (``experiments.train.gates``);
the row of that evaluation says why (``early_stop``), so a resumed run stops there too.

Opponent pool (``pool_share`` > 0): in that share of the games the learner holds one seat
(or side), seat ``i % players`` in game i, and the other seats are played greedily by one
earlier checkpoint ``iter-N.pt`` of the run, drawn each iteration (seeded by the
iteration); until the first evaluation has written one, every game is self-play.
"""

from __future__ import annotations

import time
from pathlib import Path

from cardsim.errors import need_torch

need_torch("training and neural agents")  # a clear error where torch is missing

import numpy as np  # noqa: E402
import torch  # noqa: E402

from agents.neural.checkpoint import checkpoint_bytes, load_checkpoint, observation_spec_hash
from agents.neural.network import ActionHeadNet
from cardsim import games
from cardsim.errors import CheckpointError, InvalidConfigError
from experiments.runs.files import atomic_write_bytes, atomic_write_text, dumps_json
from experiments.runs.plots import pyplot, save_png
from experiments.runs.progress import progress_bar
from experiments.runs.rundir import check_out_parent, config_to_resume, create_run_dir, run_meta
from experiments.runs.schema import read_yaml
from experiments.train.config import TrainConfig, config_from_dict


def start_training(config_path, out_parent="runs", progress: bool = False,
                   ray: dict | None = None, sets=(), scale=None):
    """Create a run directory for a training config and train; returns (run_dir, summary).
    ``ray``: self-play on Ray with these options (address) over the config's own; ``sets``
    and ``scale``: ``--set`` and ``--scale`` (``experiments.train.overrides``), recorded in
    ``meta.json`` beside the resolved config."""
    from experiments.train.overrides import overridden_config

    where = str(config_path)
    cfg = config_from_dict(overridden_config(read_yaml(config_path), where, sets, scale),
                           where=where)
    if ray is not None:
        cfg = cfg.with_ray(ray)
    check_out_parent(out_parent)
    device = train_device(cfg)
    overrides = {"overrides": {"sets": list(sets), "scale": scale}} if sets or scale else {}
    run_dir = create_run_dir(out_parent, cfg.name, cfg.to_dict(), train_meta(cfg, overrides),
                             "checkpoints")
    return run_dir, train_in(run_dir, cfg, device, progress)


def resume_training(run_dir, progress: bool = False, ray: dict | None = None):
    """Continue an interrupted training run from its last checkpoint; ``ray`` as for
    ``start_training`` (only where Ray is: the actors' count and weights_every are the
    run's own, in config.yaml). Refuses (InvalidConfigError, one line) a config.yaml
    edited since the checkpoint, except for more iterations (``check_resume``)."""
    run_dir = Path(run_dir)
    path = config_to_resume(run_dir, "training run directory")
    cfg = config_from_dict(read_yaml(path), where=str(path))
    if ray is not None:
        cfg = cfg.with_ray(ray)
    return run_dir, train_in(run_dir, cfg, train_device(cfg), progress)


def train_in(run_dir: Path, cfg: TrainConfig, device: torch.device, progress=False,
             label: str | None = None, free_keys=()) -> dict:
    """Train ``cfg`` in the run directory ``run_dir`` (made, with its checkpoints folder),
    from its last checkpoint where there is one (after ``check_resume``, ``free_keys``
    besides those always free), saying so with ``label`` (what is resumed, and the progress
    bar's name) when ``progress``. Returns the trainer's ``summary()``."""
    latest = Path(run_dir) / "checkpoints" / "latest.pt"
    if latest.exists():
        check_resume(run_dir, cfg, load_checkpoint(latest).get("training") or {}, free_keys)
    trainer = Trainer(run_dir, cfg, device)
    if latest.exists():
        trainer.restore(latest)
        if progress:
            done = ("finished" if trainer.finished() else
                    f"continuing with iteration {trainer.iteration + 1}")
            say(f"resuming {label or run_dir} after iteration {trainer.iteration} of "
                f"{cfg.iterations} ({done})")
    return trainer.run(progress, what=label or "train")


def say(text: str) -> None:
    """A line for the person watching, on stderr beside the progress."""
    import sys

    print(text, file=sys.stderr, flush=True)


# where and how fast a run trains, not what it learns: these may change on resume
RESUME_FREE_KEYS = ("name", "device", "torch_threads", "numba_threads", "executor", "ray")


def check_resume(run_dir: Path, cfg: TrainConfig, training: dict, free_keys=()) -> None:
    """Refuse, in one line naming the key, to resume with a config.yaml edited since the
    checkpoint's ``training`` record was written (``training["config"]``): the rest of the
    run would not be the run that was started. ``iterations`` may grow (the run is
    extended); where it runs (device, threads, executor) may change, and ``free_keys`` (a
    recipe's stage: ``init``, the previous stage's network wherever the run now lies). A
    checkpoint without the record (older ones) is not checked."""
    was = training.get("config")
    if not isinstance(was, dict):
        return
    was, now = _comparable(was), _comparable(cfg.to_dict())
    if was.get("executor") == now["executor"] == "ray":  # the actors shape the network
        for key in ("num_workers", "weights_every"):
            was[f"ray.{key}"] = (was.get("ray") or {}).get(key)
            now[f"ray.{key}"] = (now["ray"] or {}).get(key)
    for key in now:
        if key in RESUME_FREE_KEYS or key in free_keys or key not in was or \
                was[key] == now[key]:
            continue  # (a key newer than the checkpoint: the run had its default)
        if key == "iterations" and isinstance(was[key], int) and now[key] >= was[key]:
            continue
        if isinstance(was[key], dict) and isinstance(now[key], dict):
            inner = next(k for k in {**was[key], **now[key]}
                         if was[key].get(k) != now[key].get(k))
            key, was_v, now_v = f"{key}.{inner}", was[key].get(inner), now[key].get(inner)
        else:
            was_v, now_v = was[key], now[key]
        raise InvalidConfigError(
            f"cannot resume {run_dir}: config key {key!r} was {was_v!r} when the run was "
            f"made and config.yaml now says {now_v!r}; restore config.yaml or start a new "
            f"run (only iterations may grow)")


def _comparable(config: dict) -> dict:
    """A config with its rules and algorithm arguments resolved (every default filled in),
    so that writing out a default is not a change."""
    from dataclasses import asdict

    from experiments.train.config import args_class

    out = dict(config)
    try:
        out["rules"] = games.rules_of(out["game"], out["rules"] or {}).to_dict()
    except Exception:  # noqa: BLE001 - compared as written
        pass
    try:
        out["args"] = asdict(args_class(out["algorithm"])(**(out["args"] or {})))
    except Exception:  # noqa: BLE001 - compared as written
        pass
    return out


def train_device(cfg: TrainConfig) -> torch.device:
    """The torch device of ``cfg`` (refusing cuda where torch sees none)."""
    if cfg.device == "cuda" and not torch.cuda.is_available():
        raise InvalidConfigError("config key 'device' is cuda but torch sees no CUDA device; "
                                 "allowed here: cpu")
    return torch.device(cfg.device)


def train_meta(cfg: TrainConfig, more: dict | None = None) -> dict:
    """``meta.json`` of a training run (a recipe's stage: ``more`` names the recipe and the
    stage; a run with overrides: them)."""
    rules = cfg.make_rules()
    return run_meta({"name": cfg.name, "kind": "train", "algorithm": cfg.algorithm,
                     "game": cfg.game, "rules_hash": rules.rules_hash(),
                     "observation_spec_hash": observation_spec_hash(rules.game),
                     "seed": cfg.seed, **(more or {})},
                    {"torch_version": torch.__version__})


def iteration_seeds(seed: int, iteration: int) -> tuple[int, np.random.Generator]:
    """The deals' seed and the exploration generator of an iteration (independent of any
    earlier draw, so a resumed run draws the same)."""
    ss = np.random.SeedSequence([seed, iteration])
    deal_seed = int(ss.generate_state(1, np.uint64)[0] >> np.uint64(1))
    return deal_seed, np.random.default_rng(ss.spawn(1)[0])


class Trainer:
    """The training loop of one run directory."""

    def __init__(self, run_dir: Path, cfg: TrainConfig, device: torch.device):
        from cardsim.envs.selfplay import SelfPlayBatch
        from experiments.train.config import algorithm_class
        from experiments.train.episodes import EpisodeBuffer

        self.run_dir, self.cfg, self.device = Path(run_dir), cfg, device
        torch.set_num_threads(cfg.torch_threads)
        torch.manual_seed(cfg.seed)  # the network's initial weights
        self.rules = cfg.make_rules()
        kit = self.rules.game
        algo_cls = algorithm_class(cfg.algorithm)
        outputs = (algo_cls.output_size(kit) if hasattr(algo_cls, "output_size")
                   else kit.num_actions)  # a belief network has its own outputs
        self.net = ActionHeadNet(kit.obs_size, outputs, cfg.hidden,
                                 value_head=algo_cls.value_head).to(device)
        if cfg.init is not None:  # the starting weights (a resumed run then loads its own)
            from experiments.train.config import init_network

            self.net.load_state_dict(init_network(cfg).state_dict())
        self.algo = algo_cls(self.net, cfg.algorithm_args(), device)
        self.batch = SelfPlayBatch(cfg.game, cfg.num_games, self.rules, seed=cfg.seed,
                                   episode="deal", autoreset="same_step",
                                   threads=cfg.numba_threads, opponents=cfg.opponents,
                                   check_actions=False)
        self.buffer = EpisodeBuffer(cfg.num_games, kit.max_decisions_per_deal(self.rules),
                                    kit.obs_size, kit.num_actions,
                                    algo_cls.extra_shape(kit.num_actions))
        self.pool_seats = self._pool_seats(kit)
        self._pool_nets: dict[str, object] = {}
        self.iteration = 0          # iterations finished
        self.counts = {"decisions": 0, "samples": 0, "updates": 0, "seconds": 0.0}
        self.metrics: list[dict] = []
        self.saved = 0              # metrics rows held by the checkpoint on disk
        self.actors = None          # Ray's self-play actors (executor: ray)
        self.compiled = False       # this process has compiled (or loaded) the kernels
        self._actor_weights = None  # restored: what the actors played with, and since when
        if cfg.executor == "ray":
            from experiments.runs.executor import RayExecutor
            from experiments.train.ray_selfplay import RaySelfPlay

            self.actors = RaySelfPlay(cfg, RayExecutor((cfg.ray or {}).get("address")),
                                      self.pool_seats)

    # --- checkpoints ----------------------------------------------------------------------
    def restore(self, path: Path) -> None:
        """Load the checkpoint ``path`` of this run: network, optimizer, counters and metrics (and
        the weights the Ray actors played with), then write the reports again. Raises
        ``CheckpointError`` when the checkpoint is of another algorithm or network."""
        data = load_checkpoint(path, game=self.cfg.game, rules=self.rules)
        training = data.get("training") or {}
        if data["algorithm"] != self.cfg.algorithm or "optimizer" not in training:
            raise CheckpointError(f"checkpoint {path} is not a {self.cfg.algorithm} training "
                                  f"checkpoint of this run")
        if data["network"] != self.net.spec():
            raise CheckpointError(f"checkpoint {path} holds a network {data['network']}, the "
                                  f"config asks for {self.net.spec()}")
        self.net.load_state_dict(data["model"])
        self.algo.optimizer.load_state_dict(training["optimizer"])
        self.iteration = int(training["iteration"])
        self.counts = dict(training["counts"])
        self.metrics = list(training["metrics"])
        self.saved = len(self.metrics)
        if "actor_weights" in training:  # None: the network's own weights
            self._actor_weights = (training["actor_weights"], training["actor_weights_at"])
        # what a crash after the checkpoint may have left half-reported is written again
        self._write_reports(plot=True)

    def _save(self, evaluated: bool) -> None:
        training = {"optimizer": self.algo.optimizer.state_dict(),
                    "iteration": self.iteration, "counts": self.counts,
                    "config": self.cfg.to_dict(), "metrics": self.metrics}
        if self.actors is not None:  # the weights the actors play the next iteration with
            current = self.actors.sent_at == self.counts["updates"]
            training["actor_weights"] = None if current else self.actors.actor_weights
            training["actor_weights_at"] = self.actors.sent_at
        blob = checkpoint_bytes(self.net, self.cfg.game, self.rules, self.cfg.algorithm,
                                training)
        folder = self.run_dir / "checkpoints"
        if evaluated:  # before latest.pt: a redone iteration finds the same pool
            atomic_write_bytes(folder / f"iter-{self.iteration:06d}.pt", blob)
        atomic_write_bytes(folder / "latest.pt", blob)

    # --- the loop -------------------------------------------------------------------------
    def finished(self) -> bool:
        """Whether the run has done its iterations, or stopped early (``patience``)."""
        return self.iteration >= self.cfg.iterations or bool(
            self.metrics and "early_stop" in self.metrics[-1])

    def run(self, progress: bool = False, what: str = "train") -> dict:
        """Train until ``iterations`` of the config are done (from where a restored run stopped)
        or ``patience`` stops it, with a progress bar named ``what`` when ``progress``; the
        Ray actors, if any, are stopped even on an error. On an interrupt (Ctrl-C) the
        learning curve is drawn from what the checkpoint holds before the interrupt goes on.
        Returns ``summary()``."""
        cfg = self.cfg
        if self.actors is not None and not self.finished():
            weights, at = self._actor_weights or (None, None)
            self.actors.start(self.net, self.counts["updates"], weights, at)
        try:
            with progress_bar(cfg.iterations, progress, "iteration",
                              initial=self.iteration, what=what) as bar:
                while not self.finished():
                    row = self._one_iteration()
                    bar.set_postfix(loss=row["loss"], dps=f"{row['decisions_per_s']:,.0f}")
                    bar.update(1)
            if progress and "early_stop" in self.metrics[-1]:
                say(f"{what}: {self.metrics[-1]['early_stop']}")
        except KeyboardInterrupt:
            write_learning_curve(self.run_dir, cfg, self.metrics[:self.saved])
            raise
        finally:
            if self.actors is not None:
                self.actors.stop()
        return self.summary()

    def _one_iteration(self) -> dict:
        cfg = self.cfg
        deal_seed, rng = iteration_seeds(cfg.seed, self.iteration)
        compile_s = None
        if not self.compiled and self.actors is None:  # compiling is not training
            from cardsim.compile_notice import compiling

            t = time.perf_counter()
            with compiling(f"{cfg.algorithm}'s {self.batch.kit.title} training kernels"):
                self.algo.warm_up(self.batch, self.batch.reset(deal_seed))
            compile_s = round(time.perf_counter() - t, 3)
            self.compiled = True
        t0 = time.perf_counter()
        if self.actors is not None:
            out, opponent = self._iteration_on_actors(deal_seed, rng)
        else:
            self.buffer.clear()
            first = self.batch.reset(deal_seed)
            self.net.train()
            pool, opponent = self._pool()
            out = self.algo.iteration(self.batch, first, self.buffer, cfg.steps_per_iteration,
                                      rng, pool)
        if opponent:
            out["pool_opponent"] = opponent
        if compile_s is not None:
            out["compile_s"] = compile_s
        seconds = time.perf_counter() - t0
        self.iteration += 1
        for key in ("decisions", "samples", "updates"):
            self.counts[key] += int(out[key])
        self.counts["seconds"] += seconds
        row = {"iteration": self.iteration, **{f"total_{k}": v for k, v in self.counts.items()},
               **out, "seconds": round(seconds, 4),
               "decisions_per_s": out["decisions"] / seconds if seconds else None}
        evaluated = (cfg.eval_every and self.iteration % cfg.eval_every == 0) or \
            self.iteration == cfg.iterations
        if evaluated:
            row["eval"] = self.evaluate()
            if self.iteration < cfg.iterations and cfg.patience:
                from experiments.train.gates import early_stop

                stop = early_stop(self.metrics + [row], cfg.patience,
                                  str(cfg.eval_opponents[0]))
                if stop:  # in the checkpoint: a resumed run stops here too
                    row["early_stop"] = stop
        self.metrics.append(row)
        self._save(bool(evaluated))   # first the checkpoint, then what it reports
        self.saved = len(self.metrics)
        self._write_reports(plot=bool(evaluated))
        return row

    def _iteration_on_actors(self, deal_seed: int, rng: np.random.Generator):
        """Ray: the actors play the iteration's games, then the learner learns from them
        (``rng``: the iteration's generator) and, every ``weights_every`` updates, sends its
        weights."""
        path = self._pool_checkpoint()
        weights = None if path is None else \
            load_checkpoint(path, self.cfg.game, self.rules)["model"]
        parts, decisions = self.actors.play(self.iteration, deal_seed,
                                            None if path is None else path.name, weights)
        self.net.train()
        out = {"decisions": decisions, **self.algo.learn_samples(parts, rng)}
        self.actors.after_learning(self.net, self.counts["updates"] + out["updates"])
        return out, None if path is None else path.name

    # --- the opponent pool ----------------------------------------------------------------
    def _pool_seats(self, kit):
        """(num_games, 4) bool: the seats an earlier checkpoint plays (None without a pool)."""
        n = round(self.cfg.pool_share * self.cfg.num_games)
        if n == 0:
            return None
        players = kit.players(self.rules)
        side = np.array([kit.side_of(self.rules, s) for s in range(players)] +
                        [-1] * (4 - players))
        seats = np.zeros((self.cfg.num_games, 4), dtype=np.bool_)
        learner = np.arange(n) % players
        seats[:n, :players] = side[None, :players] != side[learner][:, None]
        return seats

    def _pool_checkpoint(self) -> Path | None:
        """The earlier checkpoint that plays the pool's seats this iteration, if any."""
        if self.pool_seats is None:
            return None
        folder = self.run_dir / "checkpoints"
        done = sorted(p for p in folder.glob("iter-*.pt")
                      if int(p.stem.split("-")[1]) <= self.iteration)
        if not done:
            return None
        pick = np.random.default_rng([self.cfg.seed, self.iteration, 7]).integers(len(done))
        return done[pick]

    def _pool(self):
        """This iteration's pool: (seats, act) and the checkpoint's name, or (None, None)."""
        path = self._pool_checkpoint()
        if path is None:
            return None, None
        if path.name not in self._pool_nets:
            from agents.neural.agent import NeuralAgent

            net = load_checkpoint(path, self.cfg.game, self.rules)["net"].to(self.device)
            self._pool_nets[path.name] = NeuralAgent(self.cfg.game, net=net).act
        return (self.pool_seats, self._pool_nets[path.name]), path.name

    # --- evaluation and reports -----------------------------------------------------------
    def evaluate(self) -> dict:
        """Duplicate deals of the network (greedy) against each evaluation opponent: the
        difference in points per deal with its 95% interval (same deals every time)."""
        from agents.neural.agent import NeuralAgent
        from experiments.tournaments.tournament import Tournament

        self.net.eval()
        me = NeuralAgent(self.cfg.game, net=self.net, label="network")
        out = {}
        for spec in self.cfg.eval_opponents:
            t = Tournament(self.cfg.game, self.rules, [me, spec], deals=self.cfg.eval_deals,
                           seed=self.cfg.seed)
            pair = t.run(n_threads=self.cfg.numba_threads)["pairings"][0]
            out[pair["agents"][1]] = {"difference": pair["difference"],
                                      "ci95": pair["difference_ci95"],
                                      "points": pair["mean_points"]}
        self.net.train()
        return out

    def _write_reports(self, plot: bool) -> None:
        """metrics.jsonl and TensorBoard after every iteration; the plot (about a tenth of
        a second) at evaluations, which include the last iteration."""
        atomic_write_text(self.run_dir / "metrics.jsonl",  # floats rounded as in every JSON
                          "".join(dumps_json(m) + "\n" for m in self.metrics))
        _tensorboard(self.run_dir, self.metrics)
        if plot:
            write_learning_curve(self.run_dir, self.cfg, self.metrics)

    def summary(self) -> dict:
        """What the run did: its directory, algorithm, iterations, counts (decisions, samples,
        updates, seconds), decisions per second, the latest checkpoint's path and the last
        evaluation."""
        last_eval = next((m["eval"] for m in reversed(self.metrics) if "eval" in m), None)
        stop = self.metrics[-1].get("early_stop") if self.metrics else None
        return {"run": str(self.run_dir), "algorithm": self.cfg.algorithm,
                "iterations": self.iteration, "early_stop": stop, **self.counts,
                "decisions_per_s": self.counts["decisions"] / self.counts["seconds"]
                if self.counts["seconds"] else None,
                "checkpoint": str(self.run_dir / "checkpoints" / "latest.pt"),
                "eval": last_eval}


def format_summary(s: dict) -> str:
    """``Trainer.summary``'s dict as the lines the command line prints: the counts and rate, each
    evaluation's difference in points per deal with its 95% interval, the checkpoint."""
    lines = [f"{s['algorithm']}: {s['iterations']} iterations, {s['decisions']:,} self-play "
             f"decisions ({s['decisions_per_s'] or 0:,.0f}/s), {s['samples']:,} samples, "
             f"{s['updates']:,} updates"]
    if s.get("early_stop"):
        lines.append(s["early_stop"])
    for opponent, e in (s["eval"] or {}).items():
        half = "n/a" if e["ci95"] is None else f"{e['ci95']:.2f}"
        lines.append(f"network - {opponent}: {e['difference']:+.2f} points per deal "
                     f"(95% interval +-{half})")
    lines.append(f"checkpoint: {s['checkpoint']}")
    return "\n".join(lines)


def _tensorboard(run_dir: Path, metrics: list[dict]) -> None:
    """The scalars again for TensorBoard, when its package is installed (rewritten whole,
    so a resumed run shows no duplicates)."""
    try:
        from torch.utils.tensorboard import SummaryWriter
    except ImportError:
        return
    import shutil

    folder = run_dir / "tensorboard"
    shutil.rmtree(folder, ignore_errors=True)
    with SummaryWriter(str(folder)) as w:
        for m in metrics:
            step = m["total_decisions"]
            for key in ("loss", "policy_loss", "value_loss", "entropy", "decisions_per_s"):
                if m.get(key) is not None:
                    w.add_scalar(f"train/{key}", m[key], step)
            for opponent, e in (m.get("eval") or {}).items():
                w.add_scalar(f"eval/{opponent}", e["difference"], step)


def write_learning_curve(run_dir: Path, cfg: TrainConfig, metrics: list[dict],
                         title: str | None = None, stages=()) -> None:
    """``plots/learning_curve.png`` of ``run_dir`` from metrics lines (also used by
    ``experiments.train.ship`` for a checkpoint's own lines, and by a recipe's run for all
    its stages: ``title`` and ``stages`` as ``learning_curve_figure`` takes them)."""
    (run_dir / "plots").mkdir(exist_ok=True)
    fig = learning_curve_figure(cfg, metrics, title, stages)
    save_png(fig, run_dir / "plots" / "learning_curve.png", tight=False)  # laid out already
    pyplot().close(fig)


# the loss terms drawn beside the loss where the algorithm reports them (PPO)
LOSS_TERMS = (("value_loss", "value loss"), ("entropy", "entropy"))


def learning_curve_figure(cfg: TrainConfig, metrics: list[dict], title: str | None = None,
                          stages=()):
    """The learning curve: the loss (and PPO's value loss and entropy) and the evaluation
    differences against self-play decisions. ``title`` replaces the loss panel's (the
    config's name and algorithm); ``stages``: (decisions, name) where each stage of a
    recipe starts, marked on both panels. Before the first evaluation the evaluation panel
    says when it comes. The layout keeps every label clear of the other panel."""
    plt = pyplot()
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
    x = [m["total_decisions"] for m in metrics if m.get("loss") is not None]
    ax1.plot(x, [m["loss"] for m in metrics if m.get("loss") is not None], label="loss")
    for key, name in LOSS_TERMS:
        rows = [m for m in metrics if m.get(key) is not None]
        if rows:
            ax1.plot([m["total_decisions"] for m in rows], [m[key] for m in rows], label=name)
    ax1.set_xlabel("self-play decisions")
    ax1.set_ylabel("loss")
    ax1.set_title(title or f"{cfg.name}: {cfg.algorithm} loss")
    if len(ax1.get_lines()) > 1:
        ax1.legend()
    rows = [m for m in metrics if "eval" in m]
    opponents = list(dict.fromkeys(o for m in rows for o in m["eval"]))
    for opponent in opponents:
        xs = [m["total_decisions"] for m in rows if opponent in m["eval"]]
        ys = np.array([m["eval"][opponent]["difference"] for m in rows if opponent in m["eval"]])
        hs = np.array([m["eval"][opponent]["ci95"] for m in rows if opponent in m["eval"]],
                      dtype=float)  # None (a single deal): no bar
        ax2.errorbar(xs, ys, yerr=np.nan_to_num(hs), marker="o", capsize=3,
                     label=f"vs {opponent}")
    if not opponents:
        ax2.text(0.5, 0.5, _no_evaluation_yet(cfg, metrics), ha="center", va="center",
                 transform=ax2.transAxes, color="grey", wrap=True)
    ax2.axhline(0, color="grey", lw=0.8)
    ax2.set_xlabel("self-play decisions")
    ax2.set_ylabel("points per deal over the opponent (95%)")
    ax2.set_title("duplicate evaluation")
    for start, name in stages:
        for ax in (ax1, ax2):
            ax.axvline(start, color="lightgrey", lw=0.8, ls="--")
        ax1.annotate(name, (start, 1), xycoords=("data", "axes fraction"), rotation=90,
                     va="top", ha="right", fontsize=7, color="grey")
    if opponents:
        ax2.legend()
    return fig


def _no_evaluation_yet(cfg: TrainConfig, metrics: list[dict]) -> str:
    """What the empty evaluation panel says: when the first evaluation comes, or why none."""
    if not cfg.eval_opponents:
        return "no evaluation opponents\n(a belief network does not play)"
    done = metrics[-1]["iteration"] if metrics else 0
    first = cfg.eval_every if cfg.eval_every else cfg.iterations
    return (f"no evaluation yet: the first after iteration {min(first, cfg.iterations)}\n"
            f"({done} of {cfg.iterations} done)")
