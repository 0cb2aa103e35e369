"""The run directory that experiments (``experiments.runs.run``) and training runs
(``experiments.train.loop``) share: its making, its ``config.yaml`` and ``meta.json``, and
the check that a folder given to ``--resume`` is one.

    runs/<name>-<time>[-k]/   made once, never reused: a second run started in the same
                              second gets the suffix -2, -3, ...
        config.yaml           the resolved config (every default filled in; a training
                              recipe's run holds recipe.yaml instead)
        meta.json             what the run was made with: its own fields (rules hash,
                              seed, ...), then git commit, versions and start time

What a run writes besides (chunks, checkpoints, metrics, tables, plots) is its own.
"""

from __future__ import annotations

import json
import platform
import subprocess
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import yaml

import cardsim
from cardsim.errors import InvalidConfigError
from experiments.runs.files import atomic_write_json, atomic_write_text, check_output_folder

# the run directory this process is working in (made or resumed), for the command line's
# message on Ctrl-C: which directory to give to --resume
working: dict[str, Path | None] = {"run_dir": None}


def git_commit() -> str | None:
    """The commit of the checkout this code runs from; None outside a git checkout."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                             cwd=Path(__file__).resolve().parent, timeout=10)
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def run_meta(fields: dict, versions: dict | None = None) -> dict:
    """``meta.json`` of a run: ``fields`` (name, kind, rules hash, seed, ...), then the git
    commit, the versions of cardsim, of what ``versions`` adds (torch) and of numpy and
    numba, the Python version and the start time."""
    import numba

    return {**fields, "git_commit": git_commit(), "cardsim_version": cardsim.__version__,
            **(versions or {}), "numpy_version": np.__version__,
            "numba_version": numba.__version__, "python": platform.python_version(),
            "started": datetime.now(timezone.utc).isoformat(timespec="seconds")}


def check_out_parent(out_parent) -> None:
    """Refuse, before any work, a parent of run directories that cannot hold them."""
    check_output_folder(out_parent, "run folder (--out)")


def create_run_dir(out_parent, name: str, config: dict, meta: dict, first_folder: str,
                   config_file: str = "config.yaml") -> Path:
    """Make ``out_parent/<name>-<time>`` (with a suffix when taken) and its ``first_folder``,
    and write ``config_file`` (the resolved config) and ``meta.json`` in it; returns the run
    directory, which becomes the one an interrupted command names."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    run_dir = Path(out_parent) / f"{name}-{stamp}"
    k = 1
    while run_dir.exists():
        k += 1
        run_dir = Path(out_parent) / f"{name}-{stamp}-{k}"
    run_dir.mkdir(parents=True)  # never shared: a folder made meanwhile is an error
    make_run_dir(run_dir, config, meta, first_folder, config_file)
    working["run_dir"] = run_dir
    return run_dir


def make_run_dir(run_dir, config: dict, meta: dict, first_folder: str,
                 config_file: str = "config.yaml") -> Path:
    """Make the run directory ``run_dir`` at exactly that path (a recipe's stage folder) with
    its ``first_folder``, and write ``config_file`` and ``meta.json``; a folder already there
    (a stage started before an interruption) keeps its ``meta.json``."""
    run_dir = Path(run_dir)
    (run_dir / first_folder).mkdir(parents=True, exist_ok=True)
    write_config(run_dir, config, config_file)
    if read_meta(run_dir) is None:
        write_meta(run_dir, meta)
    return run_dir


def write_config(run_dir: Path, config: dict, config_file: str = "config.yaml") -> None:
    """``config_file`` (``config.yaml``): the resolved config, keys in the order the config
    class gives."""
    atomic_write_text(Path(run_dir) / config_file, yaml.safe_dump(config, sort_keys=False))


def write_meta(run_dir: Path, meta: dict) -> None:
    """``meta.json``: the run's metadata (``meta``: rules hash, seed, git commit, versions),
    written atomically."""
    atomic_write_json(Path(run_dir) / "meta.json", meta)


def read_meta(run_dir: Path) -> dict | None:
    """``meta.json`` of a run directory; None when it is missing or damaged."""
    try:
        meta = json.loads((Path(run_dir) / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return meta if isinstance(meta, dict) else None


def config_to_resume(run_dir, what: str = "run directory") -> Path:
    """The ``config.yaml`` of a run directory given to resume; refuses, in one line, a
    folder without one (``what`` names the kind of run directory expected)."""
    path = Path(run_dir) / "config.yaml"
    if not path.is_file():
        raise InvalidConfigError(f"{run_dir} is not a {what} (no config.yaml)")
    working["run_dir"] = Path(run_dir)
    return path
