"""The game contract: both games declare the same facts and parts under the same names, and
the facts hold on played deals."""

import inspect

import numpy as np
import pytest

from cardsim import game_nb, games
from cardsim.errors import InvalidConfigError

FACTS = ["title", "player_counts", "num_actions", "zero_sum", "whole_item_name",
         "deals_per_game", "item_labels"]
PARTS = ["tag", "rules_cls", "game_cls", "layout", "observer", "records", "kernels", "stats",
         "obs_size", "num_stats", "action_name"]


def test_both_games_answer_the_same_contract():
    for name in games.GAMES:
        g = games.get(name)
        for attr in FACTS + PARTS:
            assert getattr(g, attr) is not None or attr == "deals_per_game", (name, attr)
        assert g.rules_cls.GAME == name and g.tag.name == name
        assert g.observer.OBS_SIZE == g.obs_size
        assert callable(g.records.record_of_row) and callable(g.records.replay)
    with pytest.raises(InvalidConfigError, match="unknown game 'chess'"):
        games.get("chess")


def test_every_face_kernel_exists_in_both_games_with_one_signature():
    """Each function of cardsim.game_nb calls a kernel of the same name in every game."""
    names = [n for n, f in inspect.getmembers(game_nb, inspect.isfunction)
             if f.__module__ == game_nb.__name__ and not n.startswith("_")
             and list(inspect.signature(f).parameters)[:1] == ["game"]
             and n not in ("step", "next_deal", "observe")]  # engine and observer kernels
    assert {"init_item", "legal", "record_deal", "seat_points", "deal_rewards"} <= set(names)
    for n in names:
        sigs = {str(inspect.signature(getattr(games.get(g).kernels, n).py_func))
                for g in games.GAMES}
        assert len(sigs) == 1, (n, sigs)


@pytest.mark.parametrize("name, kw", [("debertz", dict(players=2)),
                                      ("debertz", dict(players=3)),
                                      ("debertz", dict(players=4, teams=True)),
                                      ("barbu", dict())])
def test_facts_hold_on_random_deals(name, kw):
    g = games.get(name)
    rules = g.make_rules(kw)
    assert g.players(rules) in g.player_counts
    bound = g.max_decisions_per_deal(rules)
    low, high = g.deal_score_bounds(rules)
    rng = np.random.default_rng(1)
    for seed in range(25):
        game = g.game_cls(rules, seed=seed)
        taken = 0
        while game.legal_actions():
            assert game.legal_mask().shape == (g.num_actions,)
            game.step(int(rng.choice(game.legal_actions())))
            taken += 1
        assert taken <= bound
        R = rules.pack()
        rewards = np.zeros(4)
        g.kernels.deal_rewards(game.state[0], R, rewards)
        assert (rewards >= low).all() and (high is None or (rewards <= high).all())
    if g.deals_per_game:
        assert g.max_decisions_per_game(rules) == g.deals_per_game * bound
    else:
        assert g.max_decisions_per_game(rules) is None


def test_every_registered_game_provides_the_whole_contract_and_the_search_pieces():
    from cardsim import games

    assert games.GAMES == ("debertz", "barbu")
    for name in games.GAMES:
        assert games.check_game(name, search=True) == []


def test_a_game_lacking_parts_is_refused_naming_them(monkeypatch):
    from cardsim import games
    from cardsim.errors import InvalidConfigError

    monkeypatch.setattr(games, "_REGISTRY", dict(games._REGISTRY))
    monkeypatch.setattr(games, "GAMES", games.GAMES)
    games.register_game("rules")  # cardsim.rules exists but is no game package
    assert "rules" in games.GAMES
    assert "contract (no module)" in games.check_game("rules")
    with pytest.raises(InvalidConfigError, match="lacks parts of the game contract"):
        games.get("rules")
    with pytest.raises(InvalidConfigError, match="must be a new identifier"):
        games.register_game("debertz")
    games._checked.cache_clear()
