"""Add a finished training run's network to the model zoo.

    python -m experiments.train.ship RUN_DIR NAME [--checkpoint FILE] [--force]
        [--summary TEXT] [--options KEY=VALUE,...]

RUN_DIR is a training run (``cardsim train CONFIG``'s) or a recipe's finished run
(``cardsim train RECIPE``'s, whose ``model-card.json`` gives the network, its stages, options
and summary). It writes into ``agents/neural/models/`` (``agents.neural.zoo``):

    NAME.pt     the run's checkpoint (latest.pt, or FILE of its checkpoints folder) without
                the optimizer state: network, game, rules, observation spec, and what the
                run did (iterations, counters, config, metrics)
    NAME.json   its model card: game and table, rules hash, algorithm, sha256, the network's
                own options (``--options``: a prior, margins), and the recipe that made it:
                the stages of the zoo network the run started from (``init``), then the run
                itself (its config, iterations, decisions, seconds); a recipe's run: its
                stages, each from the one before

The checkpoint is loaded and checked before anything is written, and each file is written
atomically. A name already in the zoo is refused (its files are kept) unless ``--force``.
The card's ``evaluation`` comes from the ladders (``python -m
experiments.tournaments.leaderboard``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from agents.neural.checkpoint import load_checkpoint
from agents.neural.zoo import MODELS_DIR, card, is_name, model_names
from agents.registry import parse_spec
from cardsim.errors import CheckpointError, InvalidConfigError
from experiments.runs.files import atomic_write_bytes, atomic_write_text
from experiments.train.card import MACHINE, bare_checkpoint, model_card, stage_record


def ship(run_dir, name: str, checkpoint: str = "latest.pt", folder=MODELS_DIR,
         force: bool = False, summary: str = "", options: dict | None = None,
         machine: str | None = None) -> Path:
    """Write ``NAME.pt`` and ``NAME.json`` for ``run_dir`` (a training run, or a recipe's
    finished run: its ``model-card.json``, whose options, summary and machine are kept unless
    given); the ``.pt`` path. Refuses a name whose files exist in ``folder`` unless
    ``force``."""
    run_dir, folder = Path(run_dir), Path(folder)
    if not is_name(name):
        raise InvalidConfigError(f"a network's name has no path separator and no .pt "
                                 f"ending, got {name!r}")
    recipe = (run_dir / "recipe.yaml").is_file()
    if not recipe and not (run_dir / "config.yaml").is_file():
        raise InvalidConfigError(f"{run_dir} is not a training run directory (no config.yaml) "
                                 f"nor a recipe's run (no recipe.yaml)")
    taken = [folder / f"{name}{ext}" for ext in (".pt", ".json")
             if (folder / f"{name}{ext}").exists()]
    if taken and not force:
        raise InvalidConfigError(f"{taken[0]} already exists; give another name, or --force "
                                 f"to replace it")
    if recipe:
        data, weights, stages, options, summary, made_on = _recipe_network(
            run_dir, checkpoint, options, summary)
        machine = machine or made_on
    else:
        data, weights = bare_checkpoint(run_dir / "checkpoints" / checkpoint)
        init = data["training"]["config"].get("init")
        stages = []
        if isinstance(init, str) and is_name(init) and init in model_names():
            stages = card(init)["recipe"]["stages"]  # the zoo network it started from
        stages = stages + [stage_record(data["training"], str(run_dir / "config.yaml"))]
    model = model_card(name, data, f"{name}.pt", weights, stages, options,
                       summary or f"trained by {run_dir.name}", machine or MACHINE)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{name}.pt"
    atomic_write_bytes(target, weights)
    atomic_write_text(folder / f"{name}.json", json.dumps(model, indent=1) + "\n")
    load_checkpoint(target, game=data["game"])  # what was written loads
    return target


def _recipe_network(run_dir: Path, checkpoint: str, options, summary: str):
    """A recipe's finished run: its final network (data, bytes), the stages of its card,
    the options and summary to ship (those given, else its card's) and its machine."""
    if checkpoint != "latest.pt":
        raise InvalidConfigError("--checkpoint picks a checkpoint of a training run; a "
                                 "recipe's run ships its final network (model-card.json)")
    path = run_dir / "model-card.json"
    if not path.is_file():
        raise InvalidConfigError(f"{run_dir}: the recipe's run has not finished (no "
                                 f"model-card.json); continue it: cardsim train --resume "
                                 f"{run_dir}")
    run_card = json.loads(path.read_text(encoding="utf-8"))
    source = run_dir / run_card["checkpoint"]
    data = load_checkpoint(source)
    data.pop("net")
    return (data, source.read_bytes(), run_card["recipe"]["stages"],
            run_card["options"] if options is None else options,
            summary or run_card["summary"], run_card["training"]["machine"])


def main(argv=None) -> int:
    """The ``python -m experiments.train.ship`` command: add checkpoint ``--checkpoint`` of
    ``run_dir`` to the zoo as ``name`` (module docstring) and print the file written. Returns
    the exit status: 0, or 2 with the error printed for a bad checkpoint, name or option."""
    p = argparse.ArgumentParser(prog="python -m experiments.train.ship", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run_dir")
    p.add_argument("name")
    p.add_argument("--checkpoint", default="latest.pt",
                   help="file in a training run's checkpoints folder (default latest.pt)")
    p.add_argument("--force", action="store_true",
                   help="replace a zoo network of the same name (refused otherwise)")
    p.add_argument("--summary", default="", help="what the network is for, one sentence")
    p.add_argument("--options", default=None,
                   help="the network's own options, as neural's: prior=heuristic,margin=4 "
                        "(a recipe's run: its card's by default)")
    p.add_argument("--folder", default=str(MODELS_DIR), help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    try:
        options = None if a.options is None else (
            parse_spec(f"neural:{a.options}")[1] if a.options else {})
        target = ship(a.run_dir, a.name, a.checkpoint, a.folder, a.force, a.summary, options)
    except (CheckpointError, InvalidConfigError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"{target} ({target.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
