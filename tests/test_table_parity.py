"""Every simulate and tournament command gives the same results and hand records as the play
loops the table replaced (tests/fixtures/table_reference.json, written by
tests/fixtures/make_table_reference.py with the earlier per-game loops): both games,
several conventions, hands and whole games, duplicate and not, Barbu by contract. JSON output
rounds floats to 6 significant digits, so the reference is compared as rounded."""

import json
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
sys.path.insert(0, str(FIXTURES))

from make_table_reference import as_in_reference, records_digest, run  # noqa: E402

from experiments.runs.files import json_ready  # noqa: E402

REFERENCE = json.loads((FIXTURES / "table_reference.json").read_text())


@pytest.mark.parametrize("entry", REFERENCE, ids=[" ".join(e["args"][:2] + e["args"][2:4])
                                                  for e in REFERENCE])
def test_same_results_as_before(entry, tmp_path):
    args = entry["args"]
    expected = json_ready(entry["result"])
    assert as_in_reference(run(args)) == expected
    if "records" in entry:
        path = tmp_path / "h.jsonl"
        assert as_in_reference(run(args, history=str(path))) == expected
        assert list(records_digest(path)) == entry["records"]

