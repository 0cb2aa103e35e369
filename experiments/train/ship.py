"""Add a finished training run's network to the model zoo.

    python -m experiments.train.ship RUN_DIR NAME [--checkpoint FILE] [--force]
        [--summary TEXT] [--options KEY=VALUE,...]

writes into ``agents/neural/models/`` (``agents.neural.zoo``):

    NAME.pt     the run's checkpoint (latest.pt, or FILE of its checkpoints folder) without
                the optimizer state: network, game, rules, observation spec, and what the
                run did (iterations, counters, config, metrics)
    NAME.json   its model card: game and table, rules hash, algorithm, sha256, the network's
                own options (``--options``: a prior, margins), and the recipe that made it:
                the stages of the zoo network the run started from (``init``), then the run
                itself (its config, iterations, decisions, seconds)

The checkpoint is loaded and checked before anything is written, and each file is written
atomically. A name already in the zoo is refused (its files are kept) unless ``--force``.
The card's ``evaluation`` comes from the ladders (``python -m experiments.leaderboard``).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
from pathlib import Path

import torch

from agents.neural.checkpoint import load_checkpoint
from agents.neural.zoo import MODELS_DIR, card, is_name, model_names
from agents.presets import table_of
from agents.registry import parse_spec
from cardsim.errors import CheckpointError, InvalidConfigError
from experiments.files import atomic_write_bytes, atomic_write_text

MACHINE = "2-core x86_64 CPU machine, no GPU, torch 2.13, one numba thread"


def stage_of(training: dict, config_name: str) -> dict:
    """A recipe stage from a checkpoint's training record."""
    counts = training.get("counts", {})
    labelled = sum(m.get("labelled", 0) for m in training.get("metrics", []))
    return {"name": training["config"].get("name"), "config": config_name,
            "init": training["config"].get("init"),
            "algorithm": training["config"].get("algorithm"),
            "iterations": training.get("iteration"), "decisions": counts.get("decisions"),
            "labelled": labelled or None, "seconds": round(counts.get("seconds", 0))}


def ship(run_dir, name: str, checkpoint: str = "latest.pt", folder=MODELS_DIR,
         force: bool = False, summary: str = "", options: dict | None = None,
         machine: str = MACHINE) -> Path:
    """Write ``NAME.pt`` and ``NAME.json`` for ``run_dir``; the ``.pt`` path. Refuses a name
    whose files exist in ``folder`` unless ``force``."""
    run_dir, folder = Path(run_dir), Path(folder)
    if not is_name(name):
        raise InvalidConfigError(f"a network's name has no path separator and no .pt "
                                 f"ending, got {name!r}")
    source = run_dir / "checkpoints" / checkpoint
    if not (run_dir / "config.yaml").is_file():
        raise InvalidConfigError(f"{run_dir} is not a training run directory (no config.yaml)")
    taken = [folder / f"{name}{ext}" for ext in (".pt", ".json")
             if (folder / f"{name}{ext}").exists()]
    if taken and not force:
        raise InvalidConfigError(f"{taken[0]} already exists; give another name, or --force "
                                 f"to replace it")
    data = load_checkpoint(source)
    training = dict(data.get("training") or {})
    if "iteration" not in training or "config" not in training:
        raise CheckpointError(f"checkpoint {source} holds no training record")
    training.pop("optimizer", None)
    data["training"] = training
    data.pop("net")
    buf = io.BytesIO()
    torch.save(data, buf)
    weights = buf.getvalue()
    init = training["config"].get("init")
    stages = []
    if isinstance(init, str) and is_name(init) and init in model_names():
        stages = card(init)["recipe"]["stages"]  # the zoo network it started from
    stages = stages + [stage_of(training, str(run_dir / "config.yaml"))]
    model_card = {
        "name": name, "kind": "beliefs" if data["algorithm"] == "beliefs" else
        ("critic" if (options or {}).get("prior") else "policy"),
        "summary": summary or f"trained by {run_dir.name}",
        "game": data["game"], "table": table_of(data["game"], data["rules"]),
        "rules_hash": data["rules_hash"], "algorithm": data["algorithm"],
        "weights": f"{name}.pt", "sha256": hashlib.sha256(weights).hexdigest(),
        "bytes": len(weights), "network": data["network"], "options": dict(options or {}),
        "formerly": [], "recipe": {"stages": stages},
        "training": {"stages": len(stages),
                     "decisions": sum(s["decisions"] or 0 for s in stages),
                     "labelled": sum(s["labelled"] or 0 for s in stages),
                     "seconds": sum(s["seconds"] for s in stages), "machine": machine},
    }
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{name}.pt"
    atomic_write_bytes(target, weights)
    atomic_write_text(folder / f"{name}.json", json.dumps(model_card, indent=1) + "\n")
    load_checkpoint(target, game=data["game"])  # what was written loads
    return target


def main(argv=None) -> int:
    """The ``python -m experiments.train.ship`` command: add checkpoint ``--checkpoint`` of
    ``run_dir`` to the zoo as ``name`` (module docstring) and print the file written. Returns
    the exit status: 0, or 2 with the error printed for a bad checkpoint, name or option."""
    p = argparse.ArgumentParser(prog="python -m experiments.train.ship", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run_dir")
    p.add_argument("name")
    p.add_argument("--checkpoint", default="latest.pt",
                   help="file in the run's checkpoints folder (default latest.pt)")
    p.add_argument("--force", action="store_true",
                   help="replace a zoo network of the same name (refused otherwise)")
    p.add_argument("--summary", default="", help="what the network is for, one sentence")
    p.add_argument("--options", default="",
                   help="the network's own options, as neural's: prior=heuristic,margin=4")
    p.add_argument("--folder", default=str(MODELS_DIR), help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    try:
        options = parse_spec(f"neural:{a.options}")[1] if a.options else {}
        target = ship(a.run_dir, a.name, a.checkpoint, a.folder, a.force, a.summary, options)
    except (CheckpointError, InvalidConfigError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"{target} ({target.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
