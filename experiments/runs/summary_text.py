"""A simulation or bench summary as text: aligned ``key  value`` lines, or one JSON object.

Printed by the command line and written as ``table.txt`` by runs (``experiments.runs.run``);
kept apart from both so that a run does not import the command line.
"""

from __future__ import annotations

from experiments.runs.files import dumps_json


def format_summary(summary: dict) -> str:
    """A summary as aligned ``key  value`` lines (nested tables one row per entry)."""
    width = max(len(k) for k in summary)
    lines = []
    for key, value in summary.items():
        if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
            lines.append(key)  # a table: one row per entry (Barbu contracts)
            for name, row in value.items():
                cells = ", ".join(f"{k} {_fmt(v)}" for k, v in row.items())
                lines.append(f"  {name:<{width - 2}}  {cells}")
            continue
        if isinstance(value, dict):
            value = ", ".join(f"{k} {_fmt(v)}" for k, v in value.items())
        elif isinstance(value, list):
            value = " ".join("-" if v is None else str(v) for v in value)
        elif value is None:
            value = "-"
        lines.append(f"{key:<{width}}  {value}")
    return "\n".join(lines)


def print_summary(summary: dict, as_json: bool) -> None:
    """Print ``summary``: as one JSON object when ``as_json``, else as aligned lines of key and
    value (``format_summary``)."""
    print(dumps_json(summary) if as_json else format_summary(summary))


def _fmt(v) -> str:
    """A cell: floats to 4 significant digits, "-" where there is no value (a mean of
    nothing, as for a contract never played)."""
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.4g}"
    if isinstance(v, list):
        return "[" + " ".join(_fmt(x) for x in v) + "]"
    return str(v)
