"""DebertzGame and BarbuGame show one face: the same method names, with the same meaning.

Random games of each engine are played to their end with random legal actions; at every step
phase/turn/hands/legal_mask must agree with legal_actions, a copy must behave as the original
and stay independent of it, and at every deal end record() must replay through the game's
record module to the same record.
"""

import json

import numpy as np
import pytest

from cardsim.barbu import actions as BA
from cardsim.barbu import layout as BL
from cardsim.barbu import record as BR
from cardsim.barbu.game import BarbuGame
from cardsim.barbu.rules import BarbuRules
from cardsim.debertz import actions as DA
from cardsim.debertz import layout as DL
from cardsim.debertz import record as DR
from cardsim.debertz.game import DebertzGame
from cardsim.debertz.rules import DebertzRules
from cardsim.errors import HandRecordError, InvalidConfigError

# The shared face: methods (not properties), called without arguments except hand and step.
FACE = ("phase", "turn", "hand", "hands", "legal_actions", "legal_action_names", "legal_mask",
        "step", "copy", "record")
GAME_ENDS = ("game_over", "match_over")

# name -> (new game from a seed, actions module, layout module, record module, rules class)
GAMES = {
    "debertz-2": (lambda seed: DebertzGame(DebertzRules(), seed=seed), DA, DL, DR, DebertzRules),
    "debertz-3": (lambda seed: DebertzGame(DebertzRules(players=3), seed=seed), DA, DL, DR,
                  DebertzRules),
    "debertz-4-teams": (lambda seed: DebertzGame(DebertzRules(players=4, teams=True),
                                                 seed=seed), DA, DL, DR, DebertzRules),
    "barbu": (lambda seed: BarbuGame(BarbuRules(), seed=seed), BA, BL, BR, BarbuRules),
}


def replayed(record_module, rec: dict) -> dict:
    """The record that the game's record module rebuilds by replaying ``rec``.
    (Debertz ``replay`` returns the record, Barbu ``replay`` the game at the deal's end.)"""
    out = record_module.replay(rec)
    return out if isinstance(out, dict) else out.record()


def check_consistent(game, actions) -> list[int]:
    """Every reading of the face agrees with legal_actions; returns the legal actions."""
    legal = game.legal_actions()
    assert isinstance(game.phase(), str) and isinstance(game.turn(), int)
    mask = game.legal_mask()
    assert mask.dtype == np.bool_ and mask.shape == (actions.NUM_ACTIONS,)
    assert np.flatnonzero(mask).tolist() == legal
    assert game.legal_action_names() == [actions.action_name(a) for a in legal]
    hands = game.hands()
    assert len(hands) == game.num_players
    assert hands == [game.hand(s) for s in range(game.num_players)]
    assert all(isinstance(c, str) for h in hands for c in h)
    # somebody acts exactly while there is something legal to do
    assert (game.turn() >= 0) == bool(legal)
    return legal


@pytest.mark.parametrize("name", list(GAMES))
def test_the_face_has_the_same_names(name):
    make, _, layout, _, rules_class = GAMES[name]
    game = make(0)
    for method in FACE:
        assert callable(getattr(game, method)), f"{type(game).__name__}.{method} is no method"
    assert isinstance(game.num_players, int) and game.num_players == len(game.hands())
    assert isinstance(game.rules, rules_class)
    assert game.state.dtype == np.int64 and game.state.shape[1] == layout.STATE_WIDTH
    assert game.phase() in layout.PHASE_NAMES


@pytest.mark.parametrize("name", list(GAMES))
def test_out_of_range_seats_name_the_seat_and_the_range(name):
    game = GAMES[name][0](0)
    n = game.num_players
    for seat in (n, -1, 7):
        with pytest.raises(InvalidConfigError, match=rf"seat {seat} .*0\.\.{n - 1}"):
            game.hand(seat)


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_to_the_end(name, seed):
    make, actions, _, record_module, _ = GAMES[name]
    game = make(seed)
    rng = np.random.default_rng(seed)
    with pytest.raises(HandRecordError):
        game.record()  # no deal has ended yet
    deals = 0
    while True:
        legal = check_consistent(game, actions)
        if not legal:
            assert game.phase() in ("deal_end",) + GAME_ENDS
            rec = game.record()
            assert replayed(record_module, rec) == rec
            assert json.dumps(record_module.record_of_row(game.state[0], game.rules, game.seed)) \
                == json.dumps(rec)
            deals += 1
            if game.phase() in GAME_ENDS:
                break
            game.next_deal()
            continue
        a = int(rng.choice(legal))
        # actions are given by id or by name, as both games accept either
        action = a if rng.random() < 0.5 else actions.action_name(a)
        before = game.state.copy()
        other = game.copy()
        other.step(action)
        assert np.array_equal(game.state, before), "stepping a copy changed the original"
        game.step(action)
        assert np.array_equal(game.state, other.state), "a copy played differently"
    assert deals >= 1


def test_debertz_methods_take_a_game_index():
    """A DebertzGame batch answers for each of its games as a single game would."""
    rules = DebertzRules(players=3)
    batch = DebertzGame(rules, batch=3, seed=5)
    singles = [DebertzGame(rules, seed=5, first_game=i) for i in range(3)]
    rng = np.random.default_rng(0)
    for _ in range(60):
        for i, single in enumerate(singles):
            assert batch.phase(i) == single.phase() and batch.turn(i) == single.turn()
            assert batch.hands(i) == single.hands()
            assert batch.hand(1, i) == single.hand(1)
            assert np.array_equal(batch.legal_mask(i), single.legal_mask())
            assert batch.legal_action_names(i) == single.legal_action_names()
            legal = single.legal_actions()
            if not legal:
                assert batch.record(i) == single.record()
                if single.phase() == "game_over":
                    continue
                batch.next_deal(i)
                single.next_deal()
                continue
            a = int(rng.choice(legal))
            batch.step(a, i)
            single.step(a)
    for i in (3, -1):
        with pytest.raises(InvalidConfigError, match=rf"i={i} .*0\.\.2"):
            batch.phase(i)
