"""What a Python agent at the table receives: the observer's vector of the seat to act and
its legal mask, nothing a seat may not know (the observers' hidden-card swap test, run on the
decisions the table hands to a Python agent)."""

import numpy as np
import pytest

from agents.registry import make_agent
from cardsim import games
from cardsim.barbu.rules import BarbuRules
from cardsim.debertz.rules import DebertzRules
from cardsim.table import Seating, Table
from test_observers import swap_barbu_cards, swap_debertz_cards


class Recorder:
    """Plays the first legal action and keeps what it was shown, with the engine rows."""

    label = "recorder"

    def __init__(self):
        self.seen = []

    def act(self, observations, legal_masks):
        e = observations.engine
        for j, r in enumerate(e.rows):
            self.seen.append((np.array(observations[j]), legal_masks[j].copy(),
                              e.states[r].copy()))
        return legal_masks.argmax(axis=1)


def hidden_swaps(game, st, R, seat, rng, tries=8):
    """States equal to ``st`` but for a swap of two cards hidden from ``seat``."""
    n = int(game.kernels.num_seats(R))
    L = game.layout
    others = [s for s in range(n) if s != seat]
    for _ in range(tries):
        a, b = rng.choice(others, size=2, replace=False) if len(others) > 1 else (others[0], -1)
        a, b = int(a), int(b)
        ha = int(st[L.HANDS + a])
        hb = int(st[L.HANDS + b]) if b >= 0 else int(st[L.DEAD])
        if ha == 0 or hb == 0:
            continue
        width = 32 if game.name == "debertz" else 52
        ca = int(rng.choice([c for c in range(width) if ha >> c & 1]))
        cb = int(rng.choice([c for c in range(width) if hb >> c & 1]))
        changed = st.copy()
        if game.name == "debertz":
            if not swap_debertz_cards(changed, R, a, b, ca, cb):
                continue
        else:
            swap_barbu_cards(changed, a, b, ca, cb)
        yield changed


@pytest.mark.parametrize("name, rules", [
    ("debertz", DebertzRules(players=2)),
    ("debertz", DebertzRules(players=4, teams=True)),
    ("debertz", DebertzRules(players=3, declare="before_play")),
    ("barbu", BarbuRules()),
])
def test_python_agents_see_only_their_seat(name, rules):
    game = games.get(name)
    recorder = Recorder()
    seating = Seating([recorder, make_agent("heuristic", name)],
                      [[0 if s % 2 == 0 else 1 for s in range(game.players(rules))]])
    table = Table(name, rules, batch=16)
    table.simulate(seating, seed=3, first=0, n=40, whole=False)
    assert len(recorder.seen) > 200
    R = rules.pack()
    rng = np.random.default_rng(0)
    out = np.zeros(game.obs_size, dtype=np.float32)
    checked = 0
    for vec, mask, st in recorder.seen[::7]:
        seat = game.turn(st)
        assert seat % 2 == 0  # only the recorder's seats reach it
        game.observer.observe(st, R, seat, out)
        assert np.array_equal(vec, out)  # exactly the observer's vector
        legal = np.zeros(game.num_actions, dtype=bool)
        base, bits = game.kernels.legal(st, R)
        for k in range(64):
            if bits >> k & 1:
                legal[base + k] = True
        assert np.array_equal(mask, legal)
        for changed in hidden_swaps(game, st, R, seat, rng):
            game.observer.observe(changed, R, seat, out)
            assert np.array_equal(vec, out)
            checked += 1
    assert checked > 50
