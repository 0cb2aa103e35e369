"""Command-line runs compared with a stored reference in tests/fixtures (the JSON files written
by tests/fixtures/make_table_reference.py and make_search_reference.py)."""

import json
import sys
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
sys.path.insert(0, str(FIXTURES))

from make_table_reference import as_in_reference, records_digest, run  # noqa: E402

from experiments.runs.files import json_ready  # noqa: E402


def load_reference(name):
    """The entries of the reference file ``name`` in tests/fixtures."""
    return json.loads((FIXTURES / name).read_text())


def assert_same_as_reference(entry, tmp_path):
    """The command of a reference entry gives the stored result, and, where the entry has
    hand records, gives it again with a history file whose records match the stored ones."""
    args = entry["args"]
    expected = json_ready(entry["result"])
    assert as_in_reference(run(args)) == expected
    if "records" in entry:
        path = tmp_path / "h.jsonl"
        assert as_in_reference(run(args, history=str(path))) == expected
        assert list(records_digest(path)) == entry["records"]
