"""Agent specs that must be refused, and with what."""

import pytest

from agents.registry import make_agent
from cardsim.errors import InvalidConfigError


def assert_spec_refused(spec, game, match, error=InvalidConfigError):
    """Making the agent of ``spec`` for ``game`` raises ``error`` with a message that
    ``match`` (a regular expression) finds."""
    with pytest.raises(error, match=match):
        make_agent(spec, game)
