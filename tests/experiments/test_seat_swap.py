"""experiments.seat_swap: one seat's decisions by another agent, paired by deal and seat."""

import pytest

from cardsim.errors import InvalidConfigError
from experiments.seat_swap import main, seat_swap


def test_the_same_agent_in_the_seat_changes_nothing():
    result = seat_swap("no_tricks", "heuristic", "heuristic", deals=3, seed=11)
    assert result["all"]["seats"] == 12
    assert (result["declarer"]["seats"], result["others"]["seats"]) == (3, 9)
    for key in ("all", "declarer", "others"):
        assert result[key]["tricks"] == 0 and result[key]["score"] == 0


def test_only_the_chosen_phases_are_swapped():
    # No Tricks has no trump to name: a random agent given only that phase never decides
    quiet = seat_swap("no_tricks", "random", "heuristic", phases=("trump",), deals=3)
    assert quiet["all"]["tricks"] == 0 and quiet["all"]["score"] == 0
    # given card play it does decide, and a random card player takes more tricks
    loud = seat_swap("no_tricks", "random", "heuristic", phases=("play",), deals=6)
    assert loud["all"]["tricks"] > 0 and loud["all"]["score"] < 0
    # the last trick alone has one legal card: nothing to decide differently
    last = seat_swap("no_tricks", "random", "heuristic", phases=("play",), deals=3,
                     tricks=(13, 13))
    assert last["all"]["tricks"] == 0 and last["all"]["score"] == 0


@pytest.mark.parametrize("kwargs, words", [
    ({"contract": "no_jacks"}, "unknown contract 'no_jacks'; contracts: no_tricks"),
    ({"phases": ("bidding",)}, "phases must be among play, double, trump, start_rank"),
    ({"deals": 0}, "deals must be a positive integer"),
    ({"tricks": (5, 14)}, "tricks must be FIRST LAST with 1 <= FIRST <= LAST <= 13")])
def test_bad_input_is_one_clear_error(kwargs, words):
    args = {"contract": "trumps", "agent": "random", "base": "heuristic", "deals": 1, **kwargs}
    with pytest.raises(InvalidConfigError, match=words):
        seat_swap(**args)


def test_the_command_prints_the_seat_table(capsys):
    assert main(["--contract", "trumps", "--agent", "random", "--phases", "play",
                 "--deals", "2"]) == 0
    out = capsys.readouterr().out
    assert "trumps: random deciding one seat's play among heuristic" in out
    assert all(f"  {key}" in out for key in ("all", "declarer", "others"))
    with pytest.raises(SystemExit) as stop:
        main(["--contract", "nope", "--agent", "random"])
    assert stop.value.code == 2 and "unknown contract 'nope'" in capsys.readouterr().err
