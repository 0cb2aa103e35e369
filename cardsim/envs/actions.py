"""Action ids given to the environments, checked: an id is an integer (an int, a numpy
integer, or a float or array element whose value is a whole number, as some learners hand
out). Anything else, ``33.9`` or ``True`` among them, is a typed error: casting would quietly
play another action than the one meant."""

from __future__ import annotations

import numpy as np

from cardsim.errors import IllegalActionError


def action_id(action) -> int:
    """One action id (a one-element array or list counts as its element)."""
    value = action
    if not isinstance(value, (int, np.integer, float, np.floating)) or \
            isinstance(value, (bool, np.bool_)):
        try:
            arr = np.asarray(action)
        except Exception:  # noqa: BLE001 - anything numpy cannot read is not an id
            arr = None
        if arr is None or arr.size != 1 or arr.dtype.kind not in "iuf":
            raise IllegalActionError(f"action must be an integer id, got {action!r}")
        value = arr.reshape(-1)[0]
    if isinstance(value, (float, np.floating)):
        if not (np.isfinite(value) and float(value).is_integer()):
            raise IllegalActionError(f"action must be an integer id, got {action!r}")
    return int(value)


def action_ids(actions) -> np.ndarray:
    """A batch of action ids as int64, refusing what is not whole numbers."""
    arr = np.asarray(actions)
    if arr.dtype.kind == "f":
        bad = ~(np.isfinite(arr) & (arr == np.floor(arr)))
        if bad.any():
            i = int(np.flatnonzero(bad.reshape(-1))[0])
            raise IllegalActionError(f"actions must be integer ids; action {i} is "
                                     f"{float(arr.reshape(-1)[i])!r}")
    elif arr.dtype.kind not in "iu":
        raise IllegalActionError(f"actions must be integer ids, got an array of "
                                 f"{arr.dtype}")
    return np.ascontiguousarray(arr, dtype=np.int64)
