"""Observation piece specs: named pieces -> offsets, total size, spaces, a dict view.

An observer module declares ``PIECES = ((name, size, encoding), ...)``; ``ObservationSpec``
derives every offset and the total width from it, so no width is ever written twice. The
observer kernels read the offsets as module constants (``OFF_<NAME>``), which
``ObservationSpec.constants()`` produces.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Piece:
    """One named piece of an observation vector: its ``size`` (entries), ``encoding`` (how the
    observer fills it, in words), ``offset`` in the vector, and the bounds ``low``/``high`` of its
    entries (the observation space's)."""
    name: str
    size: int
    encoding: str
    offset: int
    low: float = 0.0
    high: float = 1.0


class ObservationSpec:
    """The layout of a flat float32 observation vector made of named pieces."""

    def __init__(self, pieces, bounds=None):
        bounds = bounds or {}
        self.pieces: tuple[Piece, ...] = ()
        offset = 0
        out = []
        for name, size, encoding in pieces:
            if size <= 0:
                raise ValueError(f"observation piece {name!r} has size {size}; must be positive")
            low, high = bounds.get(name, (0.0, 1.0))
            out.append(Piece(name, size, encoding, offset, low, high))
            offset += size
        self.pieces = tuple(out)
        self.size = offset
        self.by_name = {p.name: p for p in self.pieces}
        if len(self.by_name) != len(self.pieces):
            raise ValueError("observation piece names must be unique")

    def constants(self) -> dict[str, int]:
        """``OFF_<NAME>`` for every piece, and ``OBS_SIZE``."""
        c = {f"OFF_{p.name.upper()}": p.offset for p in self.pieces}
        c["OBS_SIZE"] = self.size
        return c

    def slice(self, name: str) -> slice:
        """The slice of piece ``name`` in an observation vector; KeyError for an unknown name."""
        p = self.by_name[name]
        return slice(p.offset, p.offset + p.size)

    def pieces_of(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """The named pieces of one observation vector (or a batch: last axis), as views."""
        return {p.name: vector[..., p.offset:p.offset + p.size] for p in self.pieces}

    def low_high(self):
        """Per-entry lower and upper bounds of the vector (float32 arrays)."""
        low = np.empty(self.size, dtype=np.float32)
        high = np.empty(self.size, dtype=np.float32)
        for p in self.pieces:
            low[p.offset:p.offset + p.size] = p.low
            high[p.offset:p.offset + p.size] = p.high
        return low, high

    def describe(self) -> str:
        """One line per piece: name, offset, size, encoding."""
        return "\n".join(f"{p.name:<18} [{p.offset:>4}:{p.offset + p.size:>4}]  {p.encoding}"
                         for p in self.pieces)
