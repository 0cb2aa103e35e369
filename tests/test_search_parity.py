"""Tables that seat the search agents (pimc, ismcts with several options, both games, several
conventions and table sizes) and a neural network give the same results and the same hand
records, card for card, as the code that wrote tests/fixtures/search_reference.json (with
tests/fixtures/make_search_reference.py): a change of the search code or of how the policies
are compiled must keep every decision. Simulations are checked on both paths: the block loops
(no hand records) and row by row (with them)."""

import pytest

from tests.reference_runs import assert_same_as_reference, load_reference

REFERENCE = load_reference("search_reference.json")


@pytest.mark.parametrize("entry", REFERENCE, ids=[" ".join(e["args"][:2] + e["args"][4:6])
                                                  for e in REFERENCE])
def test_same_decisions_as_before(entry, tmp_path):
    assert_same_as_reference(entry, tmp_path)
