"""Where two agents of a tournament differed most: the deals of a per-deal file
(experiments.tournaments.per_deal) ranked by the size of the difference, and both plays of one
duplicate deal replayed into hand records.

A per-deal file holds points, not plays. The plays of item ``i`` are made again by playing
that one item with the tournament's agents, seed and rules on every seating pattern of the
pairing: duplicate deals are reproducible from the seed and the item number. That needs the
tournament's config: a run directory's (``config.yaml``, ``cardsim run`` with ``per_deal:
true``: the files ``RUN/deals/pairing<k>-<lo>-<hi>.npy``), or the ``FILE.json`` that
``cardsim tournament --per-deal FILE.npy`` writes beside its file. A file without either
(written by a tournament of agent objects, or moved without its config) is listed, not
replayed.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from cardsim.errors import InvalidConfigError
from experiments.tournaments.per_deal import DTYPE
from experiments.web.files import MAX_TEXT_BYTES, FileRefused

MAX_PER_DEAL_BYTES = 64 * 2**20  # a per-deal file read for the comparison (~1.7M rows)
MAX_TOP = 200


def read_rows(path: Path, name: str) -> np.ndarray:
    """The rows of a per-deal ``.npy`` file; FileRefused when it is not one."""
    if path.suffix != ".npy":
        raise FileRefused(f"{name!r}: a per-deal file is a .npy file (cardsim tournament "
                          f"--per-deal FILE.npy, or a run's deals/*.npy)")
    try:
        rows = np.load(path, allow_pickle=False)
    except (ValueError, OSError, EOFError) as e:
        raise FileRefused(f"{name!r}: not a NumPy file ({e})") from None
    if not isinstance(rows, np.ndarray) or rows.ndim != 1 or rows.dtype.names is None or \
            set(rows.dtype.names) != set(DTYPE.names):
        raise FileRefused(f"{name!r}: not a per-deal file (fields "
                          f"{', '.join(DTYPE.names)} expected)")
    try:
        return rows.astype(DTYPE, copy=False)
    except (ValueError, TypeError):
        raise FileRefused(f"{name!r}: not a per-deal file (bad field types)") from None


def run_config(path: Path):
    """The tournament config that made a per-deal file: its run directory's
    (``RUN/deals/X.npy`` -> ``RUN/config.yaml``), or the one ``cardsim tournament --per-deal
    FILE.npy`` writes beside it (``FILE.json``); None when there is none (or it is damaged,
    or too big to read)."""
    import yaml

    from experiments.runs.config import config_from_dict
    from experiments.tournaments.per_deal import per_deal_config_path

    if path.parent.name == "deals" and (path.parent.parent / "config.yaml").is_file():
        cfg_path = path.parent.parent / "config.yaml"
    else:
        cfg_path = per_deal_config_path(path)
    if not cfg_path.is_file() or cfg_path.stat().st_size > MAX_TEXT_BYTES:
        return None
    try:
        data = yaml.safe_load(cfg_path.read_text(encoding="utf-8"))  # JSON is YAML too
        cfg = config_from_dict(data, where=str(cfg_path.name))
    except (yaml.YAMLError, UnicodeDecodeError, InvalidConfigError):
        return None
    return cfg if cfg.kind == "tournament" else None


def pairings_of(cfg) -> list[list[int]] | None:
    """Agent indices (a, b) of each pairing, in the order of the per-deal ``pairing`` field."""
    import itertools

    if cfg is None:
        return None
    return [list(p) for p in itertools.combinations(range(len(cfg.agents)), 2)]


def top_deals(rows: np.ndarray, pairing: int, top: int) -> list[dict]:
    """The ``top`` rows of ``pairing`` with the largest |points of a - points of b|, largest
    first (ties in file order): row index, item, difference, each side's points."""
    if type(top) is not int or not 1 <= top <= MAX_TOP:
        raise InvalidConfigError(f"top must be 1..{MAX_TOP}, got {top!r}")
    idx = np.flatnonzero(rows["pairing"] == pairing)
    if not len(idx):
        have = sorted({int(x) for x in np.unique(rows["pairing"])})
        raise InvalidConfigError(f"pairing {pairing} has no rows in this file; pairings: "
                                 f"{', '.join(map(str, have)) or 'none'}")
    pts = rows["points"][idx]
    diff = pts[:, 0] - pts[:, 1]
    order = np.argsort(-np.abs(diff), kind="stable")[:top]
    out = []
    for j in order:
        r = rows[idx[j]]
        out.append({"row": int(idx[j]), "item": int(r["item"]), "difference": float(diff[j]),
                    "points": [float(pts[j, 0]), float(pts[j, 1])],
                    "deals": int(r["deals"]),
                    "contract": None if r["contract"] < 0 else int(r["contract"])})
    return out


def replay_item(cfg, pairing: int, item: int) -> dict:
    """Play item ``item`` of pairing ``pairing`` of the tournament ``cfg`` again on every
    seating pattern, as the tournament played it. Returns the agents of the pairing, each
    pattern's agents by seat and hand records (one per deal) and the item's points of each
    agent (to check against the per-deal file)."""
    from cardsim import table_nb
    from cardsim.table import Seating, _Rows
    from experiments.tournaments.tournament import Tournament

    if not cfg.duplicate:
        raise InvalidConfigError("this tournament played each deal once (no duplicate): "
                                 "there is no pair of plays to compare")
    rules = cfg.make_rules()
    t = Tournament(cfg.game, rules, cfg.agents, deals=cfg.deals, games=cfg.games,
                   duplicate=True, seed=cfg.seed, by_contract=cfg.by_contract)
    if type(pairing) is not int or not 0 <= pairing < len(t.pairings):
        raise InvalidConfigError(f"pairing must be 0..{len(t.pairings) - 1}, got {pairing!r}")
    if type(item) is not int or not 0 <= item < t.items:
        raise InvalidConfigError(f"item must be 0..{t.items - 1}, got {item!r}")
    p = t.pairings[pairing]
    local = np.where(p.patterns == p.a, 0, 1).astype(np.int64)
    seating = Seating([t.agents[p.a], t.agents[p.b]], local)
    table = t.table
    P = local.shape[0]
    items = np.full(P, item, dtype=np.int64)
    pattern = np.arange(P, dtype=np.int64)
    rows = _Rows(table, seating, items, pattern, cfg.seed, t.whole, duplicate=True,
                 force=cfg.by_contract, n_threads=1)
    records: list[list[dict]] = [[] for _ in range(P)]
    kit = table.game

    def deal_ended(S, ended):
        for r in ended:
            records[r].append(json.loads(kit.record_line(S[r], rules, cfg.seed)))

    rows.play(deal_ended)
    results = table_nb.new_results(1, 2, P, detail=False)
    table_nb.duplicate_results(table.tag, rows.S, table.R, t.whole,
                               np.zeros(P, dtype=np.int64), pattern, local, results)
    points = results.points
    labels = [t.labels[p.a], t.labels[p.b]]
    return {"game": cfg.game, "agents": labels, "pairing": pairing, "item": item,
            "points": [float(points[0, 0]), float(points[0, 1])],
            "plays": [{"pattern": k, "seats": [labels[x] for x in local[k]],
                       "records": records[k]} for k in range(P)]}
