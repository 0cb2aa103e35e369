"""Per-deal tournament results on request, as compact NumPy ``.npy`` files (never in memory).

One row per pairing and item (a deal, or a whole game with ``games``), in the order played:

    pairing   int16    index of the pairing (the order of ``summary.json``'s "pairings")
    item      int64    the deal / game number (the same cards for every seating pattern)
    points    2 x f8   agent a's and agent b's points per deal, averaged over the seats held
                       and the seating patterns (the values the table's means are made of)
    wins      2 x f4   their win shares (whole games; 0 for single deals)
    deals     int32    deals played
    contract  int8     Barbu by contract: the contract played (0-6); otherwise -1

``cardsim tournament --per-deal FILE`` writes one file, streamed chunk by chunk; a run with
``per_deal: true`` writes ``deals/pairing<k>-<lo>-<hi>.npy`` per chunk. ``read_per_deal``
reads either (``np.load`` reads a single file too).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from cardsim.errors import InvalidConfigError
from experiments.runs.files import atomic_write_bytes

DTYPE = np.dtype([("pairing", "<i2"), ("item", "<i8"), ("points", "<f8", (2,)),
                  ("wins", "<f4", (2,)), ("deals", "<i4"), ("contract", "i1")])


def per_deal_rows(k: int, lo: int, points, wins, deals, contracts=None) -> np.ndarray:
    """The rows of items lo.. of pairing k, from the table's per-item arrays."""
    n = len(deals)
    rows = np.zeros(n, dtype=DTYPE)
    rows["pairing"] = k
    rows["item"] = np.arange(lo, lo + n)
    rows["points"] = np.asarray(points)[:, :2]
    rows["wins"] = np.asarray(wins)[:, :2]
    rows["deals"] = deals
    rows["contract"] = -1 if contracts is None else contracts
    return rows


def save_rows(path, rows: np.ndarray) -> None:
    """One chunk's rows as an .npy file, written atomically."""
    import io

    buf = io.BytesIO()
    np.save(buf, rows)
    atomic_write_bytes(path, buf.getvalue())


def per_deal_config_path(path) -> Path:
    """Where ``cardsim tournament --per-deal FILE.npy`` writes its tournament's config (the
    agents, rules, seed and items that made the rows: ``FILE.json``), so the deals can be
    played again (the browser table's Compare view)."""
    return Path(path).with_suffix(".json")


class PerDealWriter:
    """Streams ``total`` rows into one .npy file: the header first, then each chunk's rows as
    they come. The file appears under its name only when complete (written beside it and
    renamed), so an interrupted tournament leaves no half file."""

    def __init__(self, path, total: int):
        self.path = Path(path)
        self.total, self.written = total, 0
        self.tmp = self.path.with_name(f".{self.path.name}.tmp")
        try:
            self.file = open(self.tmp, "wb")
        except OSError as e:
            raise InvalidConfigError(f"cannot write per-deal file {self.path}: "
                                     f"{e.strerror}") from None
        np.lib.format.write_array_header_2_0(self.file, {
            "descr": np.lib.format.dtype_to_descr(DTYPE), "fortran_order": False,
            "shape": (total,)})

    def write(self, rows: np.ndarray) -> None:
        """Append ``rows`` (of ``DTYPE``: one chunk's items, in item order) to the file."""
        self.file.write(rows.astype(DTYPE, copy=False).tobytes())
        self.written += rows.shape[0]

    def close(self, complete: bool = True) -> None:
        """Close the file; it takes its name only when ``complete`` and every one of ``total`` rows
        was written, else the partial file is deleted."""
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.close()
        if complete and self.written == self.total:
            os.replace(self.tmp, self.path)
        else:
            self.tmp.unlink(missing_ok=True)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *_):
        self.close(complete=exc_type is None)


def read_per_deal(path) -> np.ndarray:
    """The rows of a per-deal file, or of every chunk of a run directory (pairing, item
    order). Loads everything into memory: for long runs, read the chunk files one by one."""
    path = Path(path)
    if path.is_dir():
        files = sorted((path / "deals").glob("pairing*.npy"),
                       key=lambda p: tuple(int(x) for x in p.stem[7:].split("-")))
        return np.concatenate([np.load(f) for f in files]) if files else np.zeros(0, DTYPE)
    return np.load(path)
