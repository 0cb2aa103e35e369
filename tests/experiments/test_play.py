"""The terminal game (``cardsim play``) and the session behind it (experiments.play.session)."""

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cardsim.errors import IllegalActionError, InvalidConfigError
from experiments.cli import make_rules, seat_agents
from experiments.play.session import (PlaySession, deal_words, duplicate_game, game_result,
                              make_seat_agents, play_terminal)

ROOT = Path(__file__).resolve().parents[2]


def test_debertz_through_a_pipe():
    """A whole deal typed through a pipe: numbered actions, tricks and scores shown."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-m", "experiments.cli", "play", "debertz", "--agents", "heuristic",
         "--deals", "1", "--seed", "3"],
        input="99\nzz\n" + "1\n" * 40, capture_output=True, text=True, timeout=600,
        cwd=ROOT, env=env)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "your move: [1] pass  [2] play" in text
    assert "not legal: '99'" in text and "not legal: 'zz'" in text
    assert "trick 1: " in text and "won by seat" in text
    assert "scores: seat 0 " in text
    assert "deal 1 over" in text
    # the notation is explained before the first prompt; the result is said in words
    assert text.index("Cards are written rank then suit") < text.index("your move")
    assert "TH is the ten of hearts" in text
    assert re.search(r"deal 1 over: (you|seat 1) played in (spades|hearts|diamonds|clubs) "
                     r"and (made it|was beaten, a byte|was held level, a hanging byte): "
                     r"\d+ card points", text), text


def test_play_help_explains_the_card_notation():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-m", "experiments.cli", "play", "--help"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)
    assert out.returncode == 0
    text = " ".join(out.stdout.split())
    assert "Cards are written rank then suit" in text
    assert "Debertz 7 8 9 T J Q K A; Barbu 2 3 4 5 6 7 8 9 T J Q K A (T is the ten)" in text
    assert "Suits: S spades, H hearts, D diamonds, C clubs" in text


def debertz_end(**record):
    base = {"bidder": 1, "trump": "S", "byte": None, "void": None, "end": "played_out",
            "round_points": [37, 83], "recorded": [37, 83]}
    base.update(record)
    event = {"deal": 0, "record": base, "scores": base["recorded"], "points": [0, 0]}
    view = {"game": "debertz", "side_names": ["seat 0", "seat 1"],
            "seats": [{"seat": 0, "side": 0}, {"seat": 1, "side": 1}]}
    return deal_words(event, view, 0)


def test_a_deals_result_in_words():
    assert debertz_end() == ("deal 1 over: seat 1 played in spades and made it: 83 card "
                             "points to 37; recorded seat 0 +37, seat 1 +83; scores seat 0 37, "
                             "seat 1 83")
    assert debertz_end(bidder=0, trump="H", round_points=[31, 86], recorded=[0, 117],
                       byte="byte") == (
        "deal 1 over: you played in hearts and was beaten, a byte: 31 card points to 86; "
        "recorded seat 0 +0, seat 1 +117; scores seat 0 0, seat 1 117")
    assert "a hanging byte: 60 card points each" in debertz_end(
        round_points=[60, 60], recorded=[60, 0], byte="hanging")
    assert debertz_end(void="four_sevens", recorded=[0, 0]) == (
        "deal 1 over: void (four sevens dealt), dealt again; scores seat 0 0, seat 1 0")
    barbu = deal_words(
        {"deal": 3, "points": [-20.0, 10.0, 5.0, 5.0], "scores": [-20, 10, 5, 5],
         "record": {"contract": "trumps", "trump": "D", "declarer": 2}},
        {"game": "barbu", "side_names": [f"seat {k}" for k in range(4)],
         "seats": [{"seat": k, "side": k} for k in range(4)]}, 0)
    assert barbu == ("deal 4 over: trumps (diamonds trump), declared by seat 2; points you "
                     "-20, seat 1 +10, seat 2 +5, seat 3 +5; scores seat 0 -20, seat 1 10, "
                     "seat 2 5, seat 3 5")


def test_barbu_doubles_name_the_opponent():
    rules = make_rules("barbu")
    agents = seat_agents("barbu", rules, ["heuristic"], 0)
    out = io.StringIO()
    play_terminal("barbu", rules, agents, 0, seed=3, deals=1,
                  stdin=io.StringIO("2\n" + "1\n" * 200), stdout=out)
    text = out.getvalue()
    # seed 3: seat 3 declares domino; you are asked about it first
    assert "you answer about seat 3: double them, or not" in text
    assert "your move: [1] no_double seat 3  [2] double seat 3" in text
    assert "you: doubles seat 3" in text
    assert re.search(r"seat [12] \(heuristic\): (does not double|doubles) seat 3", text)
    assert "seat 3 (heuristic): redoubles you" in text


def test_barbu_session_in_the_terminal_ends_at_eof():
    rules = make_rules("barbu")
    agents = seat_agents("barbu", rules, ["random"], 2)
    out = io.StringIO()
    session = play_terminal("barbu", rules, agents, 2, seed=5, deals=1,
                            stdin=io.StringIO("1\n" * 200), stdout=out)
    text = out.getvalue()
    assert len(session.records) == 1 and "deal 1 over" in text
    assert "you: " in text and "trick 1: " in text
    # at the end of the input the game is left quietly
    out2 = io.StringIO()
    play_terminal("barbu", rules, agents, 2, seed=5, stdin=io.StringIO(""), stdout=out2)
    assert "game left" in out2.getvalue()


def test_session_refuses_what_is_not_legal_and_goes_on():
    rules = make_rules("debertz")
    s = PlaySession("debertz", rules, [None, None])
    legal = s.legal_actions()
    with pytest.raises(IllegalActionError, match="legal actions: pass, play"):
        s.act(0)
    with pytest.raises(IllegalActionError):
        s.act(True)
    s.act("PASS")  # names are accepted too
    assert s.decisions == 1 and legal
    with pytest.raises(InvalidConfigError, match="2 seats"):
        PlaySession("debertz", rules, [None])


def test_seat_agents_checks_the_table():
    rules = make_rules("debertz", players=3)
    with pytest.raises(InvalidConfigError, match="--seat"):
        seat_agents("debertz", rules, ["random"], 3)
    with pytest.raises(InvalidConfigError, match="one per other seat"):
        seat_agents("debertz", rules, ["random", "random", "random"], 0)
    agents = seat_agents("debertz", rules, ["random", "heuristic"], 1)
    assert agents[1] is None and agents[0] is not None and agents[2] is not None


@pytest.mark.parametrize("game, players, overrides", [("debertz", 2, ["target=200"]),
                                                      ("barbu", None, [])])
def test_a_whole_game_replayed_deals_the_same_cards(game, players, overrides):
    """Duplicate of a whole game (match): the replay's deal k has the cards of the game's deal
    k however differently it went (another agent in seat 0), and a game of deterministic
    agents replayed with the same agents is the same game, score for score."""
    rules = make_rules(game, players, overrides=overrides)
    n = 2 if game == "debertz" else 4
    bots = make_seat_agents(game, ["heuristic"] * n)
    session = PlaySession(game, rules, make_seat_agents(game, ["random"]) + bots[1:], seed=11,
                          pause_at_deal_end=False)
    session.advance()
    assert session.over
    replay = duplicate_game(session, bots)
    assert replay.over and replay is not session
    shared = min(len(session.records), len(replay.records))
    assert shared >= 1
    assert all(a["hands"] == b["hands"]
               for a, b in zip(session.records[:shared], replay.records[:shared]))
    assert game_result(replay, 0) != game_result(session, 0)  # the random seat lost ground
    again = duplicate_game(replay, bots)
    assert game_result(again, 0) == game_result(replay, 0)
    assert [r["plays"] for r in again.records] == [r["plays"] for r in replay.records]
    result = game_result(replay, 0)
    scores = result["scores"]
    assert result["margin"] == scores[result["side"]] - max(
        v for k, v in enumerate(scores) if k != result["side"])
    assert len(result["points"]) == result["deals"] == len(replay.records)
