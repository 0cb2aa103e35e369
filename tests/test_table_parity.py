"""Every simulate and tournament command gives the same results and hand records as the play
loops the table replaced (tests/fixtures/table_reference.json, written by
tests/fixtures/make_table_reference.py with the earlier per-game loops): both games,
several conventions, hands and whole games, duplicate and not, Barbu by contract. JSON output
rounds floats to 6 significant digits, so the reference is compared as rounded."""

import pytest

from tests.reference_runs import assert_same_as_reference, load_reference

REFERENCE = load_reference("table_reference.json")


@pytest.mark.parametrize("entry", REFERENCE, ids=[" ".join(e["args"][:2] + e["args"][2:4])
                                                  for e in REFERENCE])
def test_same_results_as_before(entry, tmp_path):
    assert_same_as_reference(entry, tmp_path)

