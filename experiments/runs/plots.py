"""PNG plots of runs: matplotlib without a display, figures written atomically.

Used by experiments (``experiments.runs.run``), training runs and the strength-cost sweep;
matplotlib is imported only when a plot is drawn.
"""

from __future__ import annotations

import io
from pathlib import Path

from experiments.runs.files import atomic_write_bytes


def pyplot():
    """``matplotlib.pyplot`` on the Agg backend (no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_png(fig, path: Path, tight: bool = True) -> None:
    """A figure as a PNG file, written atomically (a crash leaves the old file or none).
    ``tight``: trimmed to what is drawn, at the price of drawing it twice (False for a
    figure whose layout engine already fits it to its labels)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight" if tight else None)
    atomic_write_bytes(path, buf.getvalue())
