"""State rows of both engines: one int64 row per game, fixed-width fields at fixed offsets."""


def field_offsets(fields) -> tuple[dict[str, tuple[int, int]], int]:
    """``{name: (offset, width)}`` and the row width of a ``(name, width, encoding)`` spec."""
    offsets = {}
    offset = 0
    for name, width, _encoding in fields:
        offsets[name] = (offset, width)
        offset += width
    return offsets, offset
