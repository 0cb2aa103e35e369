"""A trained network's model card (``agents.neural.zoo``'s format) and its bare weights file,
built in one place for the zoo (``experiments.train.ship``) and for a recipe's run
(``experiments.train.recipe_run``).

A card's recipe is the list of training stages that made the network, in order, each from
a checkpoint's training record (``stage_record``); its totals (``training``) are their sums.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import torch

from agents.neural.checkpoint import load_checkpoint
from agents.presets import table_of
from cardsim.errors import CheckpointError

MACHINE = "2-core x86_64 CPU machine, no GPU, torch 2.13, one numba thread"


def this_machine(device: str, numba_threads: int) -> str:
    """The machine a run trains on, as a card describes it (``MACHINE``'s words)."""
    import os
    import platform

    gpu = (torch.cuda.get_device_name(0) if device == "cuda" and torch.cuda.is_available()
           else "no GPU")
    threads = "one numba thread" if numba_threads == 1 else f"{numba_threads} numba threads"
    return (f"{os.cpu_count()}-core {platform.machine()} CPU machine, {gpu}, torch "
            f"{torch.__version__.split('+')[0]}, {threads}")


def stage_record(training: dict, config_name: str) -> dict:
    """A recipe stage from a checkpoint's training record: the config that made it
    (``config_name``), where it started (its ``init``) and what it did."""
    counts = training.get("counts", {})
    labelled = sum(m.get("labelled", 0) for m in training.get("metrics", []))
    config = training["config"]
    return {"name": config.get("name"), "config": config_name,
            "init": config.get("init"),
            "algorithm": config.get("algorithm"),
            "iterations": training.get("iteration"), "decisions": counts.get("decisions"),
            "labelled": labelled or None, "seconds": round(counts.get("seconds", 0))}


def bare_checkpoint(source: Path) -> tuple[dict, bytes]:
    """The checkpoint ``source`` as a network to ship: its data (the training record kept
    but for the optimizer's state) and the bytes of that file. Raises ``CheckpointError``
    for a checkpoint without a training record."""
    data = load_checkpoint(source)
    training = dict(data.get("training") or {})
    if "iteration" not in training or "config" not in training:
        raise CheckpointError(f"checkpoint {source} holds no training record")
    training.pop("optimizer", None)
    data["training"] = training
    data.pop("net")
    buf = io.BytesIO()
    torch.save(data, buf)
    return data, buf.getvalue()


def model_card(name: str, data: dict, weights: str, blob: bytes, stages: list[dict],
               options: dict | None = None, summary: str = "", machine: str = MACHINE) -> dict:
    """The model card of network ``name``: its checkpoint ``data`` (``bare_checkpoint``),
    written as ``weights`` with bytes ``blob``, made by ``stages`` (``stage_record``\\ s in
    order), with its own ``options`` (a prior makes it a critic) and ``summary``."""
    return {
        "name": name, "kind": "beliefs" if data["algorithm"] == "beliefs" else
        ("critic" if (options or {}).get("prior") else "policy"),
        "summary": summary,
        "game": data["game"], "table": table_of(data["game"], data["rules"]),
        "rules_hash": data["rules_hash"], "algorithm": data["algorithm"],
        "weights": weights, "sha256": hashlib.sha256(blob).hexdigest(),
        "bytes": len(blob), "network": data["network"], "options": dict(options or {}),
        "formerly": [], "recipe": {"stages": stages},
        "training": {"stages": len(stages),
                     "decisions": sum(s["decisions"] or 0 for s in stages),
                     "labelled": sum(s["labelled"] or 0 for s in stages),
                     "seconds": sum(s["seconds"] for s in stages), "machine": machine},
    }
