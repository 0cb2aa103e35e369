"""Atomic file writes: write beside the target, then rename over it, so a crash leaves either
the old file or the new one, never half of one."""

from __future__ import annotations

import io
import json
import math
import os
from pathlib import Path

import numpy as np


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically: to a hidden temporary file beside it, flushed to
    disk, then renamed over ``path``."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically (``atomic_write_bytes``)."""
    atomic_write_bytes(path, text.encode("utf-8"))


SIGNIFICANT_DIGITS = 6  # floats in JSON: more than any 95% interval of a card game resolves


def json_ready(obj, digits: int = SIGNIFICANT_DIGITS):
    """``obj`` with every float rounded to ``digits`` significant digits and every NaN or
    infinity replaced by None (JSON has neither), numpy scalars made Python numbers."""
    if isinstance(obj, dict):
        return {k: json_ready(v, digits) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_ready(v, digits) for v in obj]
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return float(f"{obj:.{digits}g}") if math.isfinite(obj) else None
    return obj


def dumps_json(obj, **kw) -> str:
    """Valid JSON (no NaN) with sensibly rounded floats."""
    return json.dumps(json_ready(obj), allow_nan=False, **kw)


def atomic_write_json(path: str | os.PathLike, obj) -> None:
    """Write ``obj`` as indented JSON (``dumps_json``: valid JSON, no NaN, floats rounded) to
    ``path`` atomically."""
    atomic_write_text(path, dumps_json(obj, indent=2) + "\n")


def atomic_save_npz(path: str | os.PathLike, **arrays) -> None:
    """Save ``arrays`` as an ``.npz`` file (``np.savez``, uncompressed) at ``path`` atomically."""
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    atomic_write_bytes(path, buf.getvalue())


def check_output_file(path, what: str = "output file", overwrite: bool = False) -> Path:
    """Refuse, before any work, a file that could not be written: an empty name, a directory,
    a folder that does not exist or cannot be written, and (unless ``overwrite``) a file
    that exists, whose results would be lost. Nothing is left behind by the check."""
    from cardsim.errors import InvalidConfigError

    if path is None or not str(path).strip():
        raise InvalidConfigError(f"the {what} needs a file name, got {str(path)!r}")
    path = Path(path)
    if path.is_dir():
        raise InvalidConfigError(f"the {what} {path} is a directory; give a file name")
    if not path.parent.is_dir():
        why = "is a file" if path.parent.exists() else "does not exist"
        raise InvalidConfigError(f"cannot write the {what} {path}: folder {path.parent} "
                                 f"{why}")
    if path.exists() and not overwrite:
        raise InvalidConfigError(f"the {what} {path} already exists; give another name, or "
                                 f"--force to replace it")
    if path.exists() and not os.access(path, os.W_OK):
        raise InvalidConfigError(f"cannot write the {what} {path}: the file is read-only")
    _probe_folder(path.parent, f"the {what} {path}")
    return path


def check_output_folder(path, what: str = "output folder") -> Path:
    """Refuse, before any work, a folder that is a file or cannot be written in. A folder
    that does not exist yet is fine when it can be made (it is made)."""
    from cardsim.errors import InvalidConfigError

    if path is None or not str(path).strip():
        raise InvalidConfigError(f"the {what} needs a folder name, got {str(path)!r}")
    path = Path(path)
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise InvalidConfigError(f"the {what} {path} is not a folder ({existing} is a file)")
    _probe_folder(existing, f"the {what} {path}")
    return path


def _probe_folder(folder: Path, what: str) -> None:
    # Permission bits do not tell the whole story (root, read-only mounts): try a write.
    import tempfile

    from cardsim.errors import InvalidConfigError

    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as e:
        raise InvalidConfigError(f"cannot write {what}: folder {folder} is not writable "
                                 f"({e.strerror})") from None
