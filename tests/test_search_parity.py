"""Tables that seat the search agents (pimc, ismcts with several options, both games, several
conventions and table sizes) and a neural network give the same results and the same hand
records, card for card, as the code that wrote tests/fixtures/search_reference.json (with
tests/fixtures/make_search_reference.py): a change of the search code or of how the policies
are compiled must keep every decision. Simulations are checked on both paths: the block loops
(no hand records) and row by row (with them)."""

import json
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
sys.path.insert(0, str(FIXTURES))

from make_table_reference import as_in_reference, records_digest, run  # noqa: E402

from experiments.runs.files import json_ready  # noqa: E402

REFERENCE = json.loads((FIXTURES / "search_reference.json").read_text())


@pytest.mark.parametrize("entry", REFERENCE, ids=[" ".join(e["args"][:2] + e["args"][4:6])
                                                  for e in REFERENCE])
def test_same_decisions_as_before(entry, tmp_path):
    args = entry["args"]
    expected = json_ready(entry["result"])
    if "records" in entry:
        path = tmp_path / "h.jsonl"
        assert as_in_reference(run(args, history=str(path))) == expected
        assert list(records_digest(path)) == entry["records"]
    assert as_in_reference(run(args)) == expected
