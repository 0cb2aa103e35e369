"""Named players: ``strongest``, ``fast``, ``network``, ``heuristic``, ``random`` per table.

Each table has a preset file ``agents/presets/TABLE.yaml`` (TABLE: ``debertz-2p``,
``debertz-3p``, ``debertz-4p``, ``debertz-2v2``, ``barbu``) naming its players:

    table: debertz-2p
    reference: "pimc"                      # what the presets are measured against
    presets:
      strongest: {spec: "pimc:beliefs=debertz-2p-beliefs", about: "..."}
      fast:      {spec: "neural:checkpoint=debertz-2p", about: "..."}
      ...

A preset's name works wherever an agent spec does (``--agents strongest fast pimc``, YAML
configs, ``cardsim play``, the browser's seat menus): ``agents.registry.make_agent`` makes
the agent its spec names for the table of the rules it is seated at, labelled with the
preset's name (``strongest:label=mine`` renames it). The presets point at the winners of
the ladders (``configs/ladder_*.yaml``), whose measured results, not these files, say how
strong and how costly each one is (``cardsim agents GAME``, ``docs/leaderboard.md``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml

from cardsim.errors import InvalidConfigError

PRESETS_DIR = Path(__file__).resolve().parent
TABLES = ("debertz-2p", "debertz-3p", "debertz-4p", "debertz-2v2", "barbu")
REQUIRED = ("strongest", "fast", "network", "heuristic", "random")


def table_of(game: str, rules=None) -> str:
    """The table a game's rules are for: ``debertz-2p``, ``debertz-3p``, ``debertz-4p``,
    ``debertz-2v2`` or ``barbu``. ``rules`` is a rules object, its ``to_dict()``, or None
    (the game's default rules)."""
    if game != "debertz":
        return game
    if rules is None:
        rules = {}  # conventions left out hold their defaults (2 players)
    conv = rules if isinstance(rules, dict) else rules.to_dict()
    if conv.get("teams"):
        return "debertz-2v2"
    return f"debertz-{conv.get('players', 2)}p"


def table_rules(table: str) -> dict:
    """The conventions that make a table: ``{"players": 3}``, ``{"players": 4, "teams":
    True}``, ``{}`` for Barbu."""
    if table not in TABLES:
        raise InvalidConfigError(f"unknown table {table!r}; tables: {', '.join(TABLES)}")
    if table == "barbu":
        return {}
    if table == "debertz-2v2":
        return {"players": 4, "teams": True}
    return {"players": int(table.split("-")[1][0])}


@lru_cache(maxsize=None)
def _load(table: str) -> dict:
    path = PRESETS_DIR / f"{table}.yaml"
    data = yaml.safe_load(path.read_text())
    if not isinstance(data, dict) or data.get("table") != table or not isinstance(
            data.get("presets"), dict):
        raise InvalidConfigError(f"{path}: a preset file names its table ({table}) and maps "
                                 f"presets to specs")
    for name, entry in data["presets"].items():
        if not isinstance(entry, dict) or not isinstance(entry.get("spec"), str):
            raise InvalidConfigError(f"{path}: preset {name!r} needs a spec")
    return data


def preset_file(table: str) -> dict:
    """The preset file of a table: ``table``, ``reference`` and ``presets`` (name ->
    ``{"spec", "about"}``), in the file's order (a copy)."""
    data = _load(table)
    return {"table": data["table"], "reference": data.get("reference", "pimc"),
            "presets": {k: dict(v) for k, v in data["presets"].items()}}


def preset_names(table: str) -> list[str]:
    """The presets of a table, in their file's order."""
    return list(_load(table)["presets"])


def is_preset(name: str, game: str, rules=None) -> bool:
    """Whether ``name`` is a preset at the table of ``rules``."""
    return name in _load(table_of(game, rules))["presets"]


def preset_spec(name: str, game: str, rules=None) -> str:
    """The agent spec preset ``name`` stands for at the table of ``rules``."""
    table = table_of(game, rules)
    presets = _load(table)["presets"]
    if name not in presets:
        raise InvalidConfigError(f"no preset {name!r} at {table}; presets: "
                                 f"{', '.join(presets)}")
    return presets[name]["spec"]
