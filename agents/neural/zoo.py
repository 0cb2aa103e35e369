"""The model zoo: the networks shipped with the package, by name, each with its model card.

``agents/neural/models/`` holds, for every network ``NAME``, ``NAME.json``: its model card,

    name, kind        the name; "policy" (plays every decision), "critic" (the judge of a
                      compiled agent's play: its ``options`` name the prior) or "beliefs"
                      (where the unseen cards lie, for ``pimc:beliefs=NAME``)
    summary           what it is for, in one sentence
    game, table       the game and the table it was trained for (debertz-2p, barbu, ...)
    rules_hash        the rules variant it was trained for
    algorithm         how its last stage was trained (dmc, distill, beliefs)
    weights, sha256   the weights file (``NAME.pt``, or another card's: a critic shares the
                      weights of the network it seats) and its sha256
    network           its layers
    options           the network's own options (``neural``'s: a prior, margins, a network per
                      contract): ``neural:checkpoint=NAME`` plays with them, and an option
                      given in the spec replaces the card's
    formerly          the names it was shipped under before
    recipe.stages     the training stages that made it, in order: each stage's config,
                      algorithm, iterations, decisions, labelled decisions, seconds
    training          the stages' totals and the machine they ran on
    evaluation        its measured strength and cost, generated from the ladders' results
                      (``python -m experiments.tournaments.leaderboard``)

Names that left the package are in ``retired.json``: such a name is a clear error naming the
network that replaces it and the training config that made it.

A ``checkpoint`` option is a zoo name when it has no path separator and no ``.pt`` ending;
a training run directory (``cardsim train CONFIG``'s) means its ``checkpoints/latest.pt``; a
recipe's run (``cardsim train RECIPE``'s) the network its ``model-card.json`` names, with
the card's options, or before that card, the newest network of its stages; anything else is
a path.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from cardsim.errors import CheckpointError

MODELS_DIR = Path(__file__).resolve().parent / "models"
KINDS = ("policy", "critic", "beliefs")


def model_names() -> list[str]:
    """The names of the zoo's networks, sorted."""
    return sorted(p.stem for p in MODELS_DIR.glob("*.json") if p.stem != "retired")


def playing_names() -> list[str]:
    """The zoo's networks that play (``neural:checkpoint=NAME``, ``pimc:net=NAME``)."""
    return [n for n in model_names() if card(n)["kind"] != "beliefs"]


def belief_names() -> list[str]:
    """The zoo's belief networks (``pimc:beliefs=NAME``)."""
    return [n for n in model_names() if card(n)["kind"] == "beliefs"]


@lru_cache(maxsize=None)
def _read_card(path: Path) -> dict:
    return json.loads(path.read_text())


def card(name: str) -> dict:
    """The model card of zoo network ``name`` (a copy).

    Raises:
        CheckpointError: no such network; a retired name says what replaces it.
    """
    path = MODELS_DIR / f"{name}.json"
    if not is_name(name) or not path.is_file():
        raise CheckpointError(unknown_message(name))
    return json.loads(json.dumps(_read_card(path)))


def retired() -> dict[str, dict]:
    """The names that left the zoo: ``{"renamed": NEW}`` or ``{"replaced_by": NAME}``, each
    with the training ``config`` that made it."""
    return _read_retired(MODELS_DIR / "retired.json")


@lru_cache(maxsize=None)
def _read_retired(path: Path) -> dict[str, dict]:  # by path: the zoo's folder may be another
    return json.loads(path.read_text()) if path.is_file() else {}


def unknown_message(name: str) -> str:
    """Why ``name`` is not a zoo network: renamed, left the package, or never was."""
    old = retired().get(name)
    zoo = ", ".join(model_names())
    if old is None:
        return f"no network {name!r} in the model zoo; the zoo: {zoo} (cardsim models)"
    if old.get("renamed"):
        return (f"network {name!r} is now called {old['renamed']!r} (the same weights): "
                f"use checkpoint={old['renamed']}")
    made = (f"{old['config']} trained it (cardsim train {old['config']}, then give its run "
            f"directory)")
    if old.get("replaced_by"):
        return (f"network {name!r} is no longer shipped: {old['replaced_by']!r} replaces it "
                f"in the model zoo; {made}")
    return f"network {name!r} is no longer shipped; {made}. The zoo: {zoo}"


def is_name(text: str) -> bool:
    """Whether ``text`` reads as a network's name rather than a path."""
    return bool(text) and "/" not in text and "\\" not in text and not text.endswith(".pt")


def weights_path(name: str) -> Path:
    """The weights file of zoo network ``name``."""
    return MODELS_DIR / card(name)["weights"]


def checkpoint_path(text: str) -> Path:
    """The file a ``checkpoint`` (or ``net``, ``beliefs``, ``init``) option means: a zoo
    network's weights for its name, a training run directory's ``checkpoints/latest.pt``, a
    recipe's run's final network (``run_card``), or while it trains, its newest stage's
    ``checkpoints/latest.pt``; else the path itself (checked by the loader).

    Raises:
        CheckpointError: a name that is not in the zoo (a retired one says what replaces it).
    """
    text = str(text)
    path = Path(text)
    if path.is_dir() and (path / "checkpoints").is_dir():  # a run directory: its newest
        return path / "checkpoints" / "latest.pt"
    if path.is_dir() and (path / "stages").is_dir():  # a recipe's run
        made = run_card(path)
        if made is not None:
            return path / made["checkpoint"]
        stages = sorted((p for p in (path / "stages").iterdir()
                         if (p / "checkpoints" / "latest.pt").is_file()),
                        key=lambda p: int(p.name.split("-")[0]))
        if not stages:
            raise CheckpointError(f"recipe run {path} has no network yet: its first stage has "
                                  f"written no checkpoint")
        return stages[-1] / "checkpoints" / "latest.pt"
    if is_name(text) and not path.exists():
        return weights_path(text)
    return path


def run_card(run_dir: Path) -> dict | None:
    """The ``model-card.json`` of a recipe's finished run (``checkpoint``: its network's file
    in the run), or None where there is none."""
    try:
        made = json.loads((Path(run_dir) / "model-card.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return made if isinstance(made, dict) and "checkpoint" in made else None


def network_options(options: dict) -> tuple[dict, bool]:
    """``neural``'s options with the card's own options of the network that ``checkpoint``
    names (a zoo name, or a recipe's finished run) added (those given win); and whether the
    card added any."""
    name = options.get("checkpoint")
    if not isinstance(name, str):
        return dict(options), False
    if is_name(name) and not Path(name).exists():
        own = card(name)["options"]
    elif Path(name).is_dir() and run_card(Path(name)) is not None:
        own = run_card(Path(name)).get("options") or {}
    else:
        return dict(options), False
    return {**own, **options}, bool(set(own) - set(options))


def file_sha256(path: Path) -> str:
    """The sha256 of a file, hex."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def verify(name: str) -> None:
    """Check that a zoo network's weights are the ones its card names (sha256).

    Raises:
        CheckpointError: the file is missing or differs from the card.
    """
    c = card(name)
    path = MODELS_DIR / c["weights"]
    if not path.is_file():
        raise CheckpointError(f"network {name!r}: its weights file {path} is missing")
    digest = file_sha256(path)
    if digest != c["sha256"]:
        raise CheckpointError(f"network {name!r}: {path} has sha256 {digest}, its card says "
                              f"{c['sha256']}; the file was changed or damaged")
