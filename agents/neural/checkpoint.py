"""Checkpoints of neural agents: one torch file holding the network, what it was trained for
and (from training) the optimizer and counters.

    format, version     "cardsim-neural", 1
    game, rules         the game and its conventions (rules.to_dict()); rules_hash
    observation         {"size": OBS_SIZE, "hash": hash of the observer's piece spec}
    network             ActionHeadNet.spec(); model: its state dict
    algorithm           "dmc", "ppo" or "distill"
    training            optimizer state, counters, config, metrics (absent in a bare agent)

Loading checks everything before any weight is used: a file that is not a checkpoint, is
truncated or corrupt, or was made for another game, rules variant or observation spec
raises ``CheckpointError`` naming the file and what is wrong.

An observation spec grows only by pieces appended at its end, so a network made for an
earlier spec is one for the first pieces of today's: such a checkpoint loads, and its network
reads the start of the vector it was made for (``ActionHeadNet.forward``; the compiled
forward reads its input width), computing what it computed when it was saved.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import torch

from cardsim import games
from cardsim.games import Game
from cardsim.errors import CheckpointError

FORMAT, VERSION = "cardsim-neural", 1


def observation_spec_hash(game: Game, size: int | None = None) -> str | None:
    """A short hash of the game's observation pieces (names, sizes, encodings, order); with
    ``size``, of the first pieces that fill exactly ``size`` entries (None where no piece ends
    there)."""
    spec = game.observer.SPEC
    lines = spec.describe().split("\n")
    if size is not None:
        ends = [p.offset + p.size for p in spec.pieces]
        if size not in ends:
            return None
        lines = lines[:ends.index(size) + 1]
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


def checkpoint_bytes(net, game: str, rules, algorithm: str, training: dict | None = None) -> bytes:
    """The bytes of a checkpoint (written atomically by the caller)."""
    data = {
        "format": FORMAT, "version": VERSION,
        "game": game, "rules": rules.to_dict(), "rules_hash": rules.rules_hash(),
        "observation": {"size": rules.game.obs_size, "hash": observation_spec_hash(rules.game)},
        "network": net.spec(), "model": net.state_dict(), "algorithm": algorithm,
        "training": training,
    }
    buf = io.BytesIO()
    torch.save(data, buf)
    return buf.getvalue()


def load_checkpoint(path, game: str | None = None, rules=None) -> dict:
    """The checkpoint at ``path``, checked: readable, a cardsim checkpoint, and (when given)
    for ``game`` and ``rules``, and for the observation spec of this version of cardsim.
    The network is rebuilt in ``data["net"]`` (on the CPU, in evaluation mode)."""
    from agents.neural.network import ActionHeadNet

    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"checkpoint {path}: no such file")
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as e:  # noqa: BLE001 - torch raises many kinds on a damaged file
        why = " ".join(str(e).split())  # whole: the cause is often at its end
        raise CheckpointError(f"checkpoint {path} cannot be read: truncated, corrupt or not "
                              f"a torch file ({type(e).__name__}: {why})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CheckpointError(f"checkpoint {path} is not a cardsim neural checkpoint (no "
                              f"'format: {FORMAT}' entry)")
    if data.get("version") != VERSION:
        raise CheckpointError(f"checkpoint {path} has format version {data.get('version')!r}; "
                              f"this cardsim reads version {VERSION}")
    if game is not None and data["game"] != game:
        raise CheckpointError(f"checkpoint {path} is for {data['game']}, not {game}")
    if data["game"] not in games.GAMES:
        raise CheckpointError(f"checkpoint {path} is for an unknown game {data['game']!r}")
    kit = games.get(data["game"])
    expected = observation_spec_hash(kit)
    seen = data.get("observation", {})
    size = seen.get("size")
    earlier = isinstance(size, int) and 0 < size and seen.get("hash") == observation_spec_hash(
        kit, size)  # the spec of its day: the first pieces of today's
    if not earlier:
        raise CheckpointError(
            f"checkpoint {path} was made for another observation spec (size "
            f"{seen.get('size')}, hash {seen.get('hash')}); this cardsim's {data['game']} "
            f"observations have size {kit.obs_size}, hash {expected}")
    if rules is not None:
        check_rules(data, rules, path)
    try:
        net = ActionHeadNet.from_spec(data["network"])
        net.load_state_dict(data["model"])
    except (KeyError, TypeError, RuntimeError) as e:
        why = " ".join(str(e).split())  # whole: the cause is often at its end
        raise CheckpointError(f"checkpoint {path}: its weights do not fit its network "
                              f"({why})") from None
    net.eval()
    data["net"] = net
    return data


def check_rules(data: dict, rules, path) -> None:
    """Refuse a checkpoint trained for another rules variant than ``rules``."""
    if data["rules_hash"] != rules.rules_hash():
        theirs, ours = data["rules"], rules.to_dict()
        diff = [f"{k}={theirs.get(k)!r} (here {ours.get(k)!r})" for k in ours
                if theirs.get(k) != ours.get(k)]
        raise CheckpointError(f"checkpoint {path} was trained for other rules: "
                              f"{', '.join(diff) or 'hash ' + data['rules_hash']}")
