"""Tournament results less what a clock measured: equal runs report equal decisions, but
each measures its own microseconds per decision."""

import re

from experiments.tournaments.tournament import TIMES, without_times


def untimed(result: dict) -> dict:
    """A tournament result (or summary.json) less its agents' times and its printed table
    (compare that with ``untimed_table``); other summaries less their table."""
    rows = result.get("agents", [])
    if rows and isinstance(rows[0], dict):
        return without_times(result)
    return {k: v for k, v in result.items() if k != "table"}


def untimed_table(text: str, columns: int = 1) -> str:
    """A printed tournament table less the last ``columns`` columns of the agents' rows: 1,
    µs/decision; 2, decisions too."""
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("agent "))
    end = next(i for i in range(head, len(lines)) if not lines[i].strip()
               or lines[i].startswith("win rate:"))
    for i in range(head + 1, end):
        lines[i] = re.sub(r"(\s+\S+){%d}$" % columns, "", lines[i])
    return "\n".join(lines)
