"""Checkpoints shipped with the package, loadable by name: ``neural:checkpoint=debertz-2p``.

Each shipped checkpoint lives in ``agents/neural/checkpoints/`` as ``NAME.pt`` (the network
and what it was trained for, without the optimizer), beside ``NAME.yaml`` (the training
config that made it, as ``cardsim train`` resolved it) and ``NAME.png`` (its learning
curve). ``python -m experiments.train.ship RUN_DIR NAME`` makes the three from a finished
training run.

A ``checkpoint`` option is a shipped name when it has no path separator and no ``.pt``
ending and such a file exists; a training run directory (``cardsim train``'s) means its
``checkpoints/latest.pt``; anything else is a path.
"""

from __future__ import annotations

from pathlib import Path

SHIPPED_DIR = Path(__file__).resolve().parent / "checkpoints"


def shipped_names() -> list[str]:
    """The names of the shipped checkpoints, sorted."""
    return sorted(p.stem for p in SHIPPED_DIR.glob("*.pt"))


def playing_names() -> list[str]:
    """The shipped networks that play (``neural:checkpoint=NAME``), sorted: every shipped
    name but the belief networks, which ``pimc:beliefs=NAME`` uses and are named
    ``*-beliefs``."""
    return [n for n in shipped_names() if not n.endswith("-beliefs")]


def is_name(text: str) -> bool:
    """Whether ``text`` reads as a checkpoint name rather than a path."""
    return "/" not in text and "\\" not in text and not text.endswith(".pt")


def checkpoint_path(text: str) -> Path:
    """The file a ``checkpoint`` option means: a shipped checkpoint's file for its name, a
    training run directory's ``checkpoints/latest.pt``, else the path itself (checked by
    the loader, whose error lists the shipped names)."""
    if is_name(text) and (SHIPPED_DIR / f"{text}.pt").is_file():
        return SHIPPED_DIR / f"{text}.pt"
    path = Path(text)
    if path.is_dir() and (path / "checkpoints").is_dir():  # a run directory: its newest
        return path / "checkpoints" / "latest.pt"
    return path
