"""Make a shipped checkpoint from a finished training run.

    python -m experiments.train.ship RUN_DIR NAME [--checkpoint FILE] [--force]

writes into ``agents/neural/checkpoints/`` (``agents.neural.shipped``):

    NAME.pt     the run's checkpoint (latest.pt, or FILE of its checkpoints folder) without
                the optimizer state: network, game, rules, observation spec, and what the
                run did (iterations, counters, config, metrics)
    NAME.yaml   the run's resolved training config, named NAME, its ``iterations`` those of
                the checkpoint
                (training is deterministic per iteration: ``cardsim train NAME.yaml`` makes
                the same network, on the same threads and device)
    NAME.png    the learning curve up to the checkpoint

The checkpoint is loaded and checked before anything is written, and each file is written
atomically. A name already shipped is refused (its files are kept) unless ``--force``.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
from pathlib import Path

import torch
import yaml

from agents.neural.checkpoint import load_checkpoint
from agents.neural.shipped import SHIPPED_DIR, is_name
from cardsim.errors import CheckpointError, InvalidConfigError
from experiments.files import atomic_write_bytes, atomic_write_text
from experiments.train.config import config_from_dict
from experiments.train.loop import write_learning_curve


def ship(run_dir, name: str, checkpoint: str = "latest.pt", folder=SHIPPED_DIR,
         force: bool = False) -> Path:
    """Write ``NAME.pt``, ``NAME.yaml`` and ``NAME.png`` for ``run_dir``; the ``.pt`` path.
    Refuses a name whose files exist in ``folder`` unless ``force``."""
    run_dir, folder = Path(run_dir), Path(folder)
    if not is_name(name) or not name:
        raise InvalidConfigError(f"a shipped checkpoint's name has no path separator and no "
                                 f".pt ending, got {name!r}")
    source = run_dir / "checkpoints" / checkpoint
    if not (run_dir / "config.yaml").is_file():
        raise InvalidConfigError(f"{run_dir} is not a training run directory (no config.yaml)")
    taken = [folder / f"{name}{ext}" for ext in (".pt", ".yaml", ".png")
             if (folder / f"{name}{ext}").exists()]
    if taken and not force:
        raise InvalidConfigError(f"{taken[0]} already exists; give another name, or --force "
                                 f"to replace it")
    data = load_checkpoint(source)
    training = dict(data.get("training") or {})
    if "iteration" not in training or "config" not in training:
        raise CheckpointError(f"checkpoint {source} holds no training record")
    training.pop("optimizer", None)
    config = dict(training["config"], name=name, iterations=int(training["iteration"]))
    data["training"] = training
    data.pop("net")
    buf = io.BytesIO()
    torch.save(data, buf)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{name}.pt"
    atomic_write_bytes(target, buf.getvalue())
    atomic_write_text(folder / f"{name}.yaml", yaml.safe_dump(config, sort_keys=False))
    with tempfile.TemporaryDirectory() as tmp:
        write_learning_curve(Path(tmp), config_from_dict(config), training["metrics"])
        atomic_write_bytes(folder / f"{name}.png",
                           (Path(tmp) / "plots" / "learning_curve.png").read_bytes())
    load_checkpoint(target, game=data["game"])  # what was written loads
    return target


def main(argv=None) -> int:
    """The ``python -m experiments.train.ship`` command: ship checkpoint ``--checkpoint`` of
    ``run_dir`` as ``name`` (module docstring) and print the file written. Returns the exit status:
    0, or 2 with the error printed for a bad checkpoint or name."""
    p = argparse.ArgumentParser(prog="python -m experiments.train.ship", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run_dir")
    p.add_argument("name")
    p.add_argument("--checkpoint", default="latest.pt",
                   help="file in the run's checkpoints folder (default latest.pt)")
    p.add_argument("--force", action="store_true",
                   help="replace a shipped checkpoint of the same name (refused otherwise)")
    p.add_argument("--folder", default=str(SHIPPED_DIR), help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    try:
        target = ship(a.run_dir, a.name, a.checkpoint, a.folder, a.force)
    except (CheckpointError, InvalidConfigError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"{target} ({target.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
